/* test_attribution_state: the verdict on an attribution's parts
 * (sb_attribution_state_of) on made-up figures at each edge of the rule,
 * and on recorded ones: the Intel Xeon VM's annotate of seed 001's private
 * (a loop state: two parts each read the whole total), the planted lfence
 * on the Zen 3 VM and the diff fixture (tests/data/answer_diff.json) at
 * batch 512 (additive). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "stats/attribution.h"

/* The verdicts by name, for the messages. */
static const char *const V[] = {"additive", "not additive", "state"};

static struct sb_estimate e(double v, double lo, double hi)
{
	return sb_estimate_of(v, lo, hi);
}

/* An attribution of n parts: total, layout, interaction and each part's
 * NOP figure as (value, lo, hi) triples. */
static struct sb_attribution att(const double *tot, const double *lay, const double *x, size_t n, const double *parts)
{
	struct sb_attribution t;
	memset(&t, 0, sizeof(t));
	t.total = e(tot[0], tot[1], tot[2]);
	t.layout = lay ? e(lay[0], lay[1], lay[2]) : sb_estimate_absent("no layout arm");
	t.interaction = e(x[0], x[1], x[2]);
	t.n_parts = n;
	for (size_t k = 0; k < n; k++) {
		t.nop[k] = e(parts[3 * k], parts[3 * k + 1], parts[3 * k + 2]);
		t.sum_parts += parts[3 * k];
	}
	return t;
}

static void recorded(void)
{
	struct sb_attribution_state s;
	/* Intel Xeon VM, annotate --variant=private --batch=512 --seed=41
	 * (/work/shared/data/intel-xeon-0xcf-vm/annotate/annotate.json). */
	double xt[] = {-2.53227, -4.17833, -0.808318}, xl[] = {0.00661571, -0.198904, 0.253818},
	       xx[] = {3.76422, 2.55899, 4.86101};
	double xp[] = {0.04726, -0.228234, 0.240606,   -0.22806, -0.419676, -0.0159753, -2.25446, -3.19877, -1.28962,
		       -0.512091, -0.720975, -0.325076, -0.468968, -0.683544, -0.232176, -0.120957, -0.351804, 0.0867642,
		       -2.76584, -3.76995, -1.68715};
	struct sb_attribution t = att(xt, xl, xx, 7, xp);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_STATE, "xeon: verdict %s", V[s.verdict]);
	CHECK(s.n == 2 && s.part[0] == 2 && s.part[1] == 6, "xeon: %zu state parts", s.n);
	CHECK(fabs(s.lo + 2.76584) < 1e-9 && fabs(s.hi + 2.25446) < 1e-9, "xeon: range %g %g", s.lo, s.hi);
	CHECK(fabs(s.whole + 2.53227 + 0.00661571) < 1e-9, "xeon: whole %g", s.whole);
	/* Zen 3 VM, the planted lfence (tests/data/annotate_lfence_blocks.csv.gz). */
	double lt[] = {15.41, 14.20, 16.48}, ll[] = {3.49, 2.91, 4.12}, lx[] = {-0.83, -2.99, 2.38};
	double lp[] = {12.09, 10.74, 13.25, 0.75, 0.38, 1.12, -0.41, -0.65, -0.13, 0.28, -0.02, 0.56};
	t = att(lt, ll, lx, 4, lp);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_ADDITIVE && s.n == 0, "lfence: %s", V[s.verdict]);
	/* The diff fixture at batch 512: wide CIs, additive. */
	double dt[] = {1.55927, -0.18154, 3.31349}, dl[] = {1.56539, 0.0399283, 3.71466}, dx[] = {0.242582, -14.2939, 19.0464};
	double dp[] = {-0.00418948, -1.75499, 1.56584, -0.362254, -9.68505, 4.03548, 0.166518, -2.66548, 2.50975};
	t = att(dt, dl, dx, 3, dp);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_ADDITIVE, "diff fixture: %s", V[s.verdict]);
}

/* Made up: the whole is 3 (total 3.5, layout 0.5) unless said. */
static void edges(void)
{
	struct sb_attribution_state s;
	double tot[] = {3.5, 3.0, 4.0}, lay[] = {0.5, 0.3, 0.7}, over[] = {-3.0, -3.5, -2.5};
	/* Three parts of about 3 each, one of 0.1: a state of those three. */
	double p3[] = {2.9, 2.5, 3.3, 0.1, -0.1, 0.3, 3.1, 2.7, 3.5, 2.8, 2.4, 3.2};
	struct sb_attribution t = att(tot, lay, (double[]){-6.0, -6.5, -5.5}, 4, p3);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_STATE && s.n == 3 && s.part[0] == 0 && s.part[1] == 2 && s.part[2] == 3,
	      "three: %s %zu", V[s.verdict], s.n);
	CHECK(fabs(s.whole - 3) < 1e-12 && s.lo == 2.8 && s.hi == 3.1, "three: whole %g %g..%g", s.whole, s.lo, s.hi);
	/* The interaction's CI holds 0: additive whatever the parts read. */
	t = att(tot, lay, (double[]){-3.0, -6.0, 0.1}, 4, p3);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_ADDITIVE && s.n == 0, "ci holds 0: %s", V[s.verdict]);
	/* The parts undercount (interaction of the whole's sign): no state. */
	t = att(tot, lay, (double[]){2.0, 1.5, 2.5}, 4, p3);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_NOT_ADDITIVE && s.n == 0, "undercount: %s", V[s.verdict]);
	/* The sum near the total (interaction under half the whole): no state. */
	t = att(tot, lay, (double[]){-1.4, -1.6, -1.2}, 4, p3);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_NOT_ADDITIVE, "near: %s", V[s.verdict]);
	/* One part reads the whole, the rest small: not several. */
	double p1[] = {3.0, 2.6, 3.4, 1.0, 0.8, 1.2, 1.0, 0.8, 1.2};
	t = att(tot, lay, over, 3, p1);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_NOT_ADDITIVE && s.n == 0, "one: %s", V[s.verdict]);
	/* Shares at the edges: 1.5 (0.5 x) in, 6.3 (2.1 x) out, a CI holding 0 out,
	 * the other sign out. */
	double pe[] = {1.5, 1.2, 1.8, 6.3, 6.0, 6.6, 3.0, -0.1, 6.0, -3.0, -3.3, -2.7, 2.0, 1.8, 2.2};
	t = att(tot, lay, over, 5, pe);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_STATE && s.n == 2 && s.part[0] == 0 && s.part[1] == 4, "edges: %zu", s.n);
	/* No layout figure: the whole is the total. */
	t = att(tot, NULL, over, 4, p3);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_STATE && s.whole == 3.5, "no layout: whole %g", s.whole);
	/* A total all layout (whole 0): no share to read. */
	t = att(tot, (double[]){3.5, 3.0, 4.0}, over, 4, p3);
	sb_attribution_state_of(&t, &s);
	CHECK(s.verdict == SB_ATTRIBUTION_NOT_ADDITIVE, "all layout: %s", V[s.verdict]);
	/* The JSON's names of the verdicts. */
	CHECK(!strcmp(sb_attribution_verdict_name(&t), "not additive"), "%s", sb_attribution_verdict_name(&t));
	t = att(tot, lay, over, 4, p3);
	CHECK(!strcmp(sb_attribution_verdict_name(&t), "loop state"), "%s", sb_attribution_verdict_name(&t));
	t = att(tot, lay, (double[]){-3.0, -6.0, 0.1}, 4, p3);
	CHECK(!strcmp(sb_attribution_verdict_name(&t), "additive"), "%s", sb_attribution_verdict_name(&t));
}

int main(void)
{
	recorded();
	edges();
	return check_report("attribution_state");
}
