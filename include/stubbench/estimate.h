/* estimate.h: one figure of a result, whatever it measures: its value and
 * 95 % CI, or why there is none. Cycles and nanoseconds per iteration,
 * the delta to the baseline in %, the same in cycles, the codegen
 * and layout costs, the twins' and the kernel's costs are all of this type. The
 * unit is not a field: the name of the member holding the figure says it
 * (delta_pct, matched_cycles), and the one conversion between units,
 * % of a baseline to cycles, is sb_estimate_pct_to_cycles(). */
#ifndef STUBBENCH_ESTIMATE_H
#define STUBBENCH_ESTIMATE_H

struct sb_summary;

struct sb_estimate {
	double value;       /* the point estimate; NAN without a figure */
	double lo, hi;      /* its 95 % CI; NAN where it has none */
	int known;          /* 1: there is a figure; 0 (a zeroed estimate): there is none */
	const char *absent; /* without a figure: why (a static string, or one that lives as
			     * long as what holds the estimate); NULL: not said */
};

/* A figure: value with its CI (lo, hi may be NAN: no CI). */
struct sb_estimate sb_estimate_of(double value, double lo, double hi);
/* No figure, for the reason why. */
struct sb_estimate sb_estimate_absent(const char *why);
/* There is a figure (its value may still be NAN where its maker had none). */
int sb_estimate_known(const struct sb_estimate *e);
/* There is a figure with a finite value and a finite CI. */
int sb_estimate_has_ci(const struct sb_estimate *e);
/* e with value and CI times k (a cost per iteration as per run ...). */
struct sb_estimate sb_estimate_scaled(const struct sb_estimate *e, double k);
/* a - b of two independent estimates (two arms' figures): each side of the
 * CI the root sum of squares of the sides it draws on (a's lower with b's
 * upper, and so on); no CI where either has none, no figure where either
 * has none. */
struct sb_estimate sb_estimate_difference(const struct sb_estimate *a, const struct sb_estimate *b);
/* A change in % of a baseline costing base (cycles) as cycles: value and
 * CI times base / 100. Absent when pct is, or base is not a number. */
struct sb_estimate sb_estimate_pct_to_cycles(const struct sb_estimate *pct, double base);
/* A summary's mean with its CI (none from fewer than 2 samples); absent
 * for the reason why when it holds no sample (why NULL: "no samples"). */
struct sb_estimate sb_summary_estimate(const struct sb_summary *s, const char *why);

#endif
