/* test_estimate.c: figures with their CIs or why there are none: a zeroed
 * estimate has no figure, the %-to-cycles conversion scales value and CI
 * by the baseline and keeps an absent figure absent, a summary's estimate
 * has no CI from one sample and none at all from no sample, a difference of
 * two estimates combines their CIs' sides, and a cell's says the cell's
 * reason. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "stubbench/estimate.h"
#include "stubbench/results.h"
#include "stubbench/stats.h"

int main(void)
{
	struct sb_estimate zero;
	memset(&zero, 0, sizeof(zero));
	CHECK(!sb_estimate_known(&zero) && !sb_estimate_has_ci(&zero), "a zeroed estimate has a figure");

	struct sb_estimate pct = sb_estimate_of(10, 5, 20);
	struct sb_estimate cyc = sb_estimate_pct_to_cycles(&pct, 40);
	CHECK(sb_estimate_has_ci(&cyc) && cyc.value == 4 && cyc.lo == 2 && cyc.hi == 8, "10 %% of 40: %g [%g, %g]",
	      cyc.value, cyc.lo, cyc.hi);
	struct sb_estimate none = sb_estimate_absent("the baseline itself");
	cyc = sb_estimate_pct_to_cycles(&none, 40);
	CHECK(!cyc.known && isnan(cyc.value) && strcmp(cyc.absent, "the baseline itself") == 0, "absent converted");
	cyc = sb_estimate_pct_to_cycles(&pct, NAN);
	CHECK(!cyc.known && cyc.absent, "converted without a baseline cost");
	struct sb_estimate run = sb_estimate_scaled(&pct, 64);
	CHECK(run.value == 640 && run.lo == 320 && run.hi == 1280, "scaled");
	struct sb_estimate no_ci = sb_estimate_of(3, NAN, NAN);
	CHECK(sb_estimate_known(&no_ci) && !sb_estimate_has_ci(&no_ci), "a figure without a CI");

	/* 10 [7, 14] - 4 [3, 8]: 6, down by hypot(3, 4), up by hypot(4, 1). */
	struct sb_estimate a = sb_estimate_of(10, 7, 14), b = sb_estimate_of(4, 3, 8);
	struct sb_estimate d = sb_estimate_difference(&a, &b);
	CHECK(d.value == 6 && fabs(d.lo - 1) < 1e-12 && fabs(d.hi - (6 + sqrt(17))) < 1e-12, "difference %g [%g, %g]",
	      d.value, d.lo, d.hi);
	d = sb_estimate_difference(&a, &no_ci);
	CHECK(d.value == 7 && !sb_estimate_has_ci(&d), "difference with a figure without a CI");
	d = sb_estimate_difference(&none, &a);
	CHECK(!d.known && strcmp(d.absent, "the baseline itself") == 0, "difference with an absent figure");

	double x[] = {1, 2, 3};
	struct sb_summary s;
	CHECK(sb_summarize(x, 3, NULL, 0, &s) == 0, "summary");
	struct sb_estimate e = sb_summary_estimate(&s, NULL);
	CHECK(sb_estimate_has_ci(&e) && e.value == 2 && e.lo == s.ci_lo && e.hi == s.ci_hi, "summary estimate");
	CHECK(sb_summarize(x, 1, NULL, 0, &s) == 0, "one sample");
	e = sb_summary_estimate(&s, NULL);
	CHECK(sb_estimate_known(&e) && e.value == 1 && isnan(e.lo) && isnan(e.hi), "one sample: no CI");

	struct sb_cell c;
	memset(&c, 0, sizeof(c));
	snprintf(c.no_samples, sizeof(c.no_samples), "all 3 blocks disturbed");
	e = sb_cell_cycles(&c);
	CHECK(!e.known && e.absent && strcmp(e.absent, "all 3 blocks disturbed") == 0, "a cell without samples");
	c.no_samples[0] = 0;
	e = sb_cell_ns(&c);
	CHECK(!e.known && e.absent && strcmp(e.absent, "no samples") == 0, "ns without samples");
	/* Its kept samples' count decides, as the output's. */
	c.n_samples = 2, c.cycles.mean = 5, c.cycles.ci_lo = 4, c.cycles.ci_hi = 6;
	e = sb_cell_cycles(&c);
	CHECK(sb_estimate_has_ci(&e) && e.value == 5 && e.lo == 4 && e.hi == 6, "a cell's cycles");
	return check_report("estimate");
}
