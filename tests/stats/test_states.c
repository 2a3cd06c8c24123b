/* Re-rolled states on synthetic data (seeded, so every count is exact from
 * run to run): steady states found with the right values and shares, none
 * found in one noisy state, and the two-level bootstrap covering the true
 * delta when the states differ from one another. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "base/rng.h"
#include "stubbench/stats.h"

static double normal(struct sb_rng *r)
{
	double u1 = sb_rng_unit(r), u2 = sb_rng_unit(r);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* Two states 3 cycles apart (as seen on a Zen 4 core), 30 % and 70 %,
 * shuffled: two modes, at the states, with their shares. */
static void bimodal(void)
{
	struct sb_rng r;
	sb_rng_seed(&r, 3);
	enum { N = 400 };
	double x[N];
	size_t label[N];
	int low[N];
	for (int i = 0; i < N; i++) {
		low[i] = i < 120;
		x[i] = (low[i] ? 17.0 : 20.0) + 0.1 * normal(&r);
	}
	for (int i = N - 1; i > 0; i--) { /* shuffle */
		int j = (int)sb_rng_below(&r, (uint64_t)i + 1);
		double t = x[i];
		x[i] = x[j];
		x[j] = t;
		int l = low[i];
		low[i] = low[j];
		low[j] = l;
	}
	struct sb_mode m[SB_MAX_MODES];
	size_t n = sb_find_modes(x, N, 0.5, m, SB_MAX_MODES, label);
	CHECK(n == 2, "%zu modes, want 2", n);
	CHECK(fabs(m[0].cycles - 17) < 0.05 && fabs(m[1].cycles - 20) < 0.05, "modes at %.3f and %.3f",
	      m[0].cycles, m[1].cycles);
	CHECK(m[0].share == 0.30 && m[1].share == 0.70, "shares %.3f and %.3f", m[0].share, m[1].share);
	int wrong = 0;
	for (int i = 0; i < N; i++)
		wrong += (label[i] == 0) != low[i];
	CHECK(wrong == 0, "%d values in the wrong mode", wrong);

	/* Three states, one of them 10 %: all three, in order. */
	for (int i = 0; i < N; i++)
		x[i] = (i < 40 ? 14.0 : i < 160 ? 17.0 : 20.0) + 0.1 * normal(&r);
	n = sb_find_modes(x, N, 0.5, m, SB_MAX_MODES, NULL);
	size_t n3 = n;
	CHECK(n3 == 3 && m[0].share == 0.10 && m[1].share == 0.30 && m[2].share == 0.60,
	      "%zu modes, shares %.2f %.2f %.2f", n, m[0].share, m[1].share, m[2].share);
}

/* A tight low state (40 %) beside copies spread over 20-24 cycles (as
 * placed copies of one stub on a Xeon VM): the low state is its own mode. */
static void tight_beside_broad(void)
{
	struct sb_rng r;
	sb_rng_seed(&r, 5);
	enum { N = 400 };
	double x[N];
	for (int i = 0; i < N; i++)
		x[i] = i < 160 ? 16.6 + 0.03 * normal(&r) : 20 + 4 * sb_rng_unit(&r);
	struct sb_mode m[SB_MAX_MODES];
	size_t n = sb_find_modes(x, N, 0.3, m, SB_MAX_MODES, NULL);
	CHECK(n >= 2 && fabs(m[0].cycles - 16.6) < 0.02 && m[0].share == 0.40, "%zu modes, lowest %.2f (%.2f)", n,
	      m[0].cycles, m[0].share);
}

/* One state with noise, or with a long right tail (interference on a
 * shared machine), or one lone outlier: a single mode. */
static void unimodal(void)
{
	struct sb_rng r;
	sb_rng_seed(&r, 4);
	enum { N = 400 };
	double x[N];
	struct sb_mode m[SB_MAX_MODES];
	for (int i = 0; i < N; i++)
		x[i] = 20 + 0.5 * normal(&r);
	size_t n = sb_find_modes(x, N, 0.5, m, SB_MAX_MODES, NULL);
	CHECK(n == 1 && m[0].share == 1.0, "normal noise: %zu modes", n);
	for (int i = 0; i < N; i++)
		x[i] = 20 + 0.2 * normal(&r) - 2.0 * log(1 - sb_rng_unit(&r));
	n = sb_find_modes(x, N, 0.5, m, SB_MAX_MODES, NULL);
	CHECK(n == 1, "long tail: %zu modes", n);
	for (int i = 0; i < N; i++)
		x[i] = 20 + 0.1 * normal(&r);
	x[7] = 90;
	n = sb_find_modes(x, N, 0.5, m, SB_MAX_MODES, NULL);
	CHECK(n == 1, "one outlier: %zu modes", n);
	/* Two states closer than min_sep are one. */
	for (int i = 0; i < N; i++)
		x[i] = (i & 1 ? 20.0 : 20.3) + 0.01 * normal(&r);
	n = sb_find_modes(x, N, 0.5, m, SB_MAX_MODES, NULL);
	CHECK(n == 1, "below min_sep: %zu modes", n);
	CHECK(sb_find_modes(x, 0, 0.5, m, SB_MAX_MODES, NULL) == 0, "empty set has modes");
}

/* G placements, each in the low state (3 cycles below) with probability
 * 1/3 independently for variant and baseline, B blocks each. True ratio
 * (21 + 2) / (20 + 2). Blocks alone (one state) would claim a precision the
 * next set of placements does not respect. */
static void nested_coverage(void)
{
	enum { G = 16, B = 30, N = G * B, REPS = 200 };
	const double truth = 23.0 / 22.0;
	double num[N], den[N];
	size_t group[N];
	struct sb_rng r;
	sb_rng_seed(&r, 11);
	int covered = 0, covered_flat = 0;
	for (int k = 0; k < REPS; k++) {
		for (int g = 0; g < G; g++) {
			double sv = sb_rng_below(&r, 3) == 0 ? 0 : 3, sb = sb_rng_below(&r, 3) == 0 ? 0 : 3;
			for (int b = 0; b < B; b++) {
				int i = g * B + b;
				double drift = 0.3 * normal(&r); /* shared by the pair: same moment */
				num[i] = 18 + sv + drift + 0.2 * normal(&r);
				den[i] = 17 + sb + drift + 0.2 * normal(&r);
				group[i] = (size_t)g;
			}
		}
		double ratio, lo, hi;
		CHECK(sb_bootstrap_ratio_nested(num, den, group, N, 400, (uint64_t)k, &ratio, &lo, &hi) == 0,
		      "nested bootstrap");
		covered += lo <= truth && truth <= hi;
		sb_bootstrap_ratio_nested(num, den, NULL, N, 400, (uint64_t)k, &ratio, &lo, &hi);
		covered_flat += lo <= truth && truth <= hi;
	}
	double cov = (double)covered / REPS, flat = (double)covered_flat / REPS;
	printf("two-level bootstrap coverage %.3f, blocks only %.3f\n", cov, flat);
	CHECK(cov >= 0.90, "two-level coverage %.3f below 0.90", cov);
	CHECK(flat < 0.6, "blocks-only coverage %.3f: the synthetic states do not differ", flat);

	/* Equal weight per state: two states of 1 and 3 blocks. */
	const double a[] = {2, 4, 4, 4}, b[] = {1, 1, 1, 1};
	const size_t gr[] = {0, 1, 1, 1};
	double ratio, lo, hi;
	CHECK(sb_bootstrap_ratio_nested(a, b, gr, 4, 100, 1, &ratio, &lo, &hi) == 0 && ratio == 3.0,
	      "per-state weights: ratio %g", ratio);
}

/* Four states (as four kernel loads): the widened interval still covers. */
static void few_states_coverage(void)
{
	enum { G = 4, B = 40, N = G * B, REPS = 300 };
	double num[N], den[N];
	size_t group[N];
	struct sb_rng r;
	sb_rng_seed(&r, 21);
	int covered = 0;
	for (int k = 0; k < REPS; k++) {
		for (int g = 0; g < G; g++) {
			double sv = 2 * normal(&r), sb = 2 * normal(&r); /* between loads */
			for (int b = 0; b < B; b++) {
				int i = g * B + b;
				num[i] = 21 + sv + 0.3 * normal(&r);
				den[i] = 20 + sb + 0.3 * normal(&r);
				group[i] = (size_t)g;
			}
		}
		double ratio, lo, hi;
		sb_bootstrap_ratio_nested(num, den, group, N, 400, (uint64_t)k, &ratio, &lo, &hi);
		covered += lo <= 21.0 / 20.0 && 21.0 / 20.0 <= hi;
	}
	double cov = (double)covered / REPS;
	printf("four-state coverage %.3f\n", cov);
	CHECK(cov >= 0.90, "four-state coverage %.3f below 0.90", cov);
}

/* The matched difference: the median of paired differences over the used
 * blocks, and a CI covering the true difference. */
static void matched(void)
{
	const double a[] = {21, 22, 23, 50, 21.5}, b[] = {20, 21, 22, 20, 20.5};
	const char use[] = {1, 1, 1, 0, 1};
	double d, lo, hi;
	CHECK(sb_bootstrap_diff_nested(a, b, NULL, use, 5, 200, 1, &d, &lo, &hi) == 0 && d == 1.0,
	      "matched difference %g", d);
	CHECK(lo == 1.0 && hi == 1.0, "constant differences give [%g, %g]", lo, hi);
	const char none[] = {0, 0, 0, 0, 0};
	CHECK(sb_bootstrap_diff_nested(a, b, NULL, none, 5, 200, 1, &d, &lo, &hi) == -1, "no block used");

	/* Two close clusters of differences, -1.4 and -1.0 cycles, in shares
	 * 52/48 and then 48/52 (as hybrid@4096 on a Zen 1 VM from run to
	 * run): a median jumps by the whole 0.4 between them, the estimate
	 * moves by the share's change only (0.04 x 0.4, at most ~0.02 more
	 * from the trimming). */
	{
		enum { M = 100 };
		double u[M], v[M], d2;
		for (int share = 0; share < 2; share++) {
			int n_low = share ? 48 : 52;
			for (int i = 0; i < M; i++) {
				v[i] = 20;
				u[i] = 20 + (i < n_low ? -1.4 : -1.0) + 0.001 * (i % 7);
			}
			sb_bootstrap_diff_nested(u, v, NULL, NULL, M, 50, 3, share ? &d2 : &d, &lo, &hi);
		}
		CHECK(fabs(d2 - d) < 0.05, "52/48 then 48/52 clusters: matched %+.3f then %+.3f", d, d2);
	}

	enum { G = 8, B = 40, N = G * B, REPS = 200 };
	double x[N], y[N];
	size_t group[N];
	struct sb_rng r;
	sb_rng_seed(&r, 12);
	int covered = 0;
	for (int k = 0; k < REPS; k++) {
		for (int i = 0; i < N; i++) {
			double drift = normal(&r);
			y[i] = 20 + drift + 0.1 * normal(&r);
			x[i] = 21 + drift + 0.1 * normal(&r);
			group[i] = (size_t)(i / B);
		}
		sb_bootstrap_diff_nested(x, y, group, NULL, N, 300, (uint64_t)k, &d, &lo, &hi);
		covered += lo <= 1.0 && 1.0 <= hi;
	}
	double cov = (double)covered / REPS;
	printf("matched difference coverage %.3f\n", cov);
	CHECK(cov >= 0.90, "matched coverage %.3f below 0.90", cov);
}

/* The runs test on states in time order: clumps flagged, alternation and
 * a lone other state not; the number of runs exact. */
static void clumps_in_time(void)
{
	static const struct {
		size_t n, label[16];
		int clumped;
		size_t runs;
	} cases[] = {
		{8, {0, 0, 0, 0, 1, 1, 1, 1}, 1, 2},             /* a switch half-way */
		{8, {1, 1, 1, 1, 1, 1, 0, 0}, 1, 2},             /* a late switch, 6 + 2 */
		{8, {0, 1, 0, 1, 0, 1, 0, 1}, 0, 8},             /* alternating */
		{8, {0, 0, 0, 1, 1, 0, 0, 0}, 0, 3},             /* one stretch inside: too few to say */
		{8, {0, 0, 0, 0, 0, 0, 0, 1}, 0, 2},             /* one process apart: n2 < 2 */
		{8, {2, 2, 2, 2, 0, 1, 0, 1}, 1, 2},             /* the most common against the rest */
		{3, {0, 0, 1}, 0, 1},                            /* too short to test */
		{16, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}, 1, 3},
		{16, {0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1}, 0, 12},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t runs = 99;
		int got = sb_states_clump_in_time(cases[i].label, cases[i].n, &runs);
		CHECK(got == cases[i].clumped, "case %zu: clumped %d, want %d", i, got, cases[i].clumped);
		if (cases[i].n >= 4)
			CHECK(runs == cases[i].runs, "case %zu: %zu runs, want %zu", i, runs, cases[i].runs);
	}
	/* Seeded random labels (each process its own coin): flagged rarely. */
	struct sb_rng r;
	sb_rng_seed(&r, 21);
	int flagged = 0;
	for (int t = 0; t < 1000; t++) {
		size_t label[8];
		for (int k = 0; k < 8; k++)
			label[k] = sb_rng_below(&r, 2);
		flagged += sb_states_clump_in_time(label, 8, NULL);
	}
	CHECK(flagged < 50, "%d of 1000 random sequences flagged as clumped in time", flagged);
}

int main(void)
{
	bimodal();
	unimodal();
	tight_beside_broad();
	nested_coverage();
	few_states_coverage();
	matched();
	clumps_in_time();
	return check_report("test_states");
}
