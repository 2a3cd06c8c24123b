/* Statistics on known data: exact values, and CI coverage on synthetic
 * samples with a known mean (seeded, so the counts are reproducible). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void exact_values(void)
{
	const double x[] = {7, 1, 3, 9, 5};
	CHECK(sb_median(x, 5) == 5, "median of 5");
	const double y[] = {4, 1, 3, 2};
	CHECK(sb_median(y, 4) == 2.5, "median of 4 is %g", sb_median(y, 4));
	const double s[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	CHECK(sb_percentile_sorted(s, 11, 20) == 3, "p20 %g", sb_percentile_sorted(s, 11, 20));
	CHECK(sb_percentile_sorted(s, 11, 80) == 9, "p80");
	CHECK(near(sb_percentile_sorted(s, 11, 25), 3.5, 1e-12), "p25 interpolated");
	CHECK(sb_percentile_sorted(s, 11, 0) == 1 && sb_percentile_sorted(s, 11, 100) == 11, "ends");

	struct sb_summary m;
	const double z[] = {2, 4, 4, 4, 5, 5, 7, 9, 100, 1};
	CHECK(sb_summarize(z, 10, NULL, 0, &m) == 0, "summarize");
	CHECK(m.n == 10 && m.min == 1 && m.max == 100, "min/max");
	CHECK(m.median == 4.5, "median %g", m.median);
	CHECK(near(m.mean, 14.1, 1e-12), "mean %g", m.mean);
	/* sorted: 1 2 4 4 4 5 5 7 9 100; p20 = 3.6, p80 = 7.4: kept 4 4 4 5 5 7 */
	CHECK(near(m.trimmed_mean, 29.0 / 6, 1e-12), "trimmed mean %g", m.trimmed_mean);
	double ss = 0;
	for (int i = 0; i < 10; i++)
		ss += (z[i] - 14.1) * (z[i] - 14.1);
	CHECK(near(m.sd, sqrt(ss / 9), 1e-12), "sd %g", m.sd);
	CHECK(near(m.ci_hi - m.mean, 2.262 * m.sd / sqrt(10), 1e-9), "t CI half-width");
	CHECK(sb_summarize(z, 0, NULL, 0, &m) == -1, "empty input accepted");

	/* CI from group means instead of samples. */
	const double g[] = {10, 12, 14};
	CHECK(sb_summarize(z, 10, g, 3, &m) == 0, "grouped");
	CHECK(near(m.ci_hi - m.mean, 4.303 * 2 / sqrt(3), 1e-9), "group CI %g", m.ci_hi - m.mean);

	CHECK(sb_t95(1) == 12.706 && sb_t95(10) == 2.228 && sb_t95(1000) == 1.96, "t table");
}

/* The 95 % t interval must cover the true mean about 95 % of the time. */
static void ci_coverage(void)
{
	struct sb_rng r;
	sb_rng_seed(&r, 42);
	const int reps = 2000, n = 30;
	double x[30];
	int covered = 0;
	for (int k = 0; k < reps; k++) {
		for (int i = 0; i < n; i++)
			x[i] = 100 + 3 * normal(&r);
		struct sb_summary m;
		sb_summarize(x, n, NULL, 0, &m);
		covered += m.ci_lo <= 100 && 100 <= m.ci_hi;
	}
	double cov = (double)covered / reps;
	printf("t interval coverage: %.3f\n", cov);
	CHECK(cov > 0.935 && cov < 0.965, "coverage %.3f outside [0.935, 0.965]", cov);
}

/* The bootstrap ratio: exact point estimate, CI covering the true ratio. */
static void bootstrap(void)
{
	const double num[] = {11, 22, 33}, den[] = {10, 20, 30};
	double ratio, lo, hi;
	CHECK(sb_bootstrap_ratio(num, den, 3, 500, 1, &ratio, &lo, &hi) == 0, "bootstrap");
	CHECK(near(ratio, 1.1, 1e-12), "ratio %g", ratio);
	CHECK(near(lo, 1.1, 1e-12) && near(hi, 1.1, 1e-12), "constant ratio gives a zero-width CI");
	const double zero[] = {0, 0};
	CHECK(sb_bootstrap_ratio(num, zero, 2, 100, 1, &ratio, &lo, &hi) == -1, "zero denominator");

	struct sb_rng r;
	sb_rng_seed(&r, 7);
	const int reps = 300, n = 60;
	double a[60], b[60];
	int covered = 0;
	for (int k = 0; k < reps; k++) {
		for (int i = 0; i < n; i++) {
			double common = 50 + 5 * normal(&r); /* shared drift: the interleaving */
			b[i] = common + normal(&r);
			a[i] = 1.05 * common + normal(&r);
		}
		sb_bootstrap_ratio(a, b, n, 400, (uint64_t)k, &ratio, &lo, &hi);
		covered += lo <= 1.05 && 1.05 <= hi;
	}
	double cov = (double)covered / reps;
	printf("bootstrap ratio coverage: %.3f\n", cov);
	CHECK(cov > 0.90 && cov < 0.99, "bootstrap coverage %.3f outside [0.90, 0.99]", cov);
	/* Same seed, same answer. */
	double r1, l1, h1, r2, l2, h2;
	sb_bootstrap_ratio(a, b, n, 400, 99, &r1, &l1, &h1);
	sb_bootstrap_ratio(a, b, n, 400, 99, &r2, &l2, &h2);
	CHECK(l1 == l2 && h1 == h2, "bootstrap not reproducible with a seed");
}

/* Selection gives the sorted percentile exactly, on random data with ties,
 * on sorted and reversed data and on constant data, at every size. */
static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void selection(void)
{
	struct sb_rng rng;
	sb_rng_seed(&rng, 42);
	const double ps[] = {0, 2.5, 20, 25, 50, 80, 97.5, 100};
	double x[301], s[301];
	size_t bad = 0, cases = 0;
	for (size_t n = 1; n <= 301; n += 5)
		for (int kind = 0; kind < 4; kind++)
			for (size_t q = 0; q < sizeof(ps) / sizeof(ps[0]); q++) {
				for (size_t i = 0; i < n; i++)
					s[i] = kind == 0 ? (double)sb_rng_below(&rng, 17) : kind == 1 ? (double)i
					       : kind == 2 ? (double)(n - i) : 3.0;
				memcpy(x, s, n * sizeof(*x));
				qsort(s, n, sizeof(*s), cmp_dbl);
				double want = sb_percentile_sorted(s, n, ps[q]);
				double got = sb_percentile_select(x, n, ps[q]);
				bad += got != want;
				qsort(x, n, sizeof(*x), cmp_dbl);
				bad += memcmp(x, s, n * sizeof(*x)) != 0; /* a permutation */
				cases++;
			}
	CHECK(bad == 0, "selection differs from the sorted percentile in %zu of %zu cases", bad, cases);
	/* Two percentiles at once (the second among the values below the
	 * first), and the radix sort against qsort, with negatives and ties. */
	bad = cases = 0;
	static const double pairs[][2] = {{20, 80}, {0, 100}, {50, 50}, {2.5, 97.5}, {25, 26}};
	static double big[5000], sorted[5000];
	for (size_t n = 1; n <= 5000; n = n * 3 + 1)
		for (int kind = 0; kind < 4; kind++) {
			for (size_t i = 0; i < n; i++)
				big[i] = kind == 0 ? (double)sb_rng_below(&rng, 17) - 8.5 : kind == 1 ? (double)i * 0.25
				       : kind == 2 ? -(double)i : (double)sb_rng_below(&rng, 1u << 30) / 7.0 - 1e8;
			memcpy(sorted, big, n * sizeof(*big));
			qsort(sorted, n, sizeof(*sorted), cmp_dbl);
			for (size_t q = 0; q < sizeof(pairs) / sizeof(pairs[0]); q++) {
				memcpy(x, big, (n < 301 ? n : 301) * sizeof(*x));
				size_t m = n < 301 ? n : 301;
				memcpy(s, x, m * sizeof(*s));
				qsort(s, m, sizeof(*s), cmp_dbl);
				double lo, hi;
				sb_percentiles_select(x, m, pairs[q][0], pairs[q][1], &lo, &hi);
				bad += lo != sb_percentile_sorted(s, m, pairs[q][0]) || hi != sb_percentile_sorted(s, m, pairs[q][1]);
				cases++;
			}
			double *y = malloc(n * sizeof(*y));
			memcpy(y, big, n * sizeof(*y));
			sb_sort(y, n);
			bad += memcmp(y, sorted, n * sizeof(*y)) != 0;
			cases++;
			free(y);
		}
	CHECK(bad == 0, "two percentiles or the radix sort differ from qsort in %zu of %zu cases", bad, cases);
}

int main(void)
{
	exact_values();
	selection();
	ci_coverage();
	bootstrap();
	return check_report("test_stats");
}
