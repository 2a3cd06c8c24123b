/* stats.h: summaries of samples and the bootstrap of cost ratios. */
#ifndef STUBBENCH_STATS_H
#define STUBBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

struct sb_summary {
	size_t n;
	double min, max;
	double median;
	double mean;
	double trimmed_mean;  /* mean of the samples between the 20th and 80th percentiles */
	double sd;            /* sample standard deviation (n - 1) */
	double ci_lo, ci_hi;  /* 95 % confidence interval of the mean */
};

/* Sorts x[0..n) ascending. */
void sb_sort(double *x, size_t n);
/* Median of n values (n > 0); x is not changed. */
double sb_median(const double *x, size_t n);
/* Percentile p in [0, 100] of sorted values, linear interpolation between
 * closest ranks (as numpy's default). */
double sb_percentile_sorted(const double *sorted, size_t n, double p);
/* The same percentile of unsorted values, found by selection (O(n)); the
 * order of x[0..n) changes. */
double sb_percentile_select(double *x, size_t n, double p);
/* Two percentiles p_lo <= p_hi of unsorted values by selection, the
 * second searched among the values below the first; the order of x
 * changes. NAN for both when n == 0. */
void sb_percentiles_select(double *x, size_t n, double p_lo, double p_hi, double *lo, double *hi);
/* Mean of the values between their 20th and 80th percentiles (NAN when
 * n == 0); the order of x[0..n) changes. */
double sb_trimmed_mean(double *x, size_t n);
/* Two-sided 95 % quantile of Student's t with df degrees of freedom. */
double sb_t95(size_t df);

/* Summarizes n samples. The CI is the t interval of the mean; when
 * group_means is given (n_groups > 1) the CI comes from the spread of the
 * group means instead (blocks of consecutive samples), which stays honest
 * when neighbouring samples are correlated. Returns -1 when n == 0. */
int sb_summarize(const double *x, size_t n, const double *group_means, size_t n_groups,
		 struct sb_summary *out);

/* Ratio sum(num)/sum(den) over groups, with a percentile bootstrap 95 % CI
 * from resampling groups (n_boot resamples, seeded). Returns -1 when the
 * denominator is not positive. */
int sb_bootstrap_ratio(const double *num, const double *den, size_t n_groups, unsigned n_boot,
		       uint64_t seed, double *ratio, double *lo, double *hi);

/* Ratio over blocks that ran in re-rolled states (placed copies, loads):
 * group[i] in [0, n) names the state of block i (NULL: one state). The
 * estimate is mean over states of the state's mean num, divided by the
 * same of den (each state weighs the same: the expected cost over states).
 * The 95 % CI is a two-level percentile bootstrap: resample the states,
 * then the blocks within each drawn state, widened about the estimate by
 * t(g - 1) / 1.96 x sqrt(g / (g - 1)) for g states (few states: a percentile
 * bootstrap alone is too narrow). Returns -1 when the
 * denominator is not positive or n == 0. */
int sb_bootstrap_ratio_nested(const double *num, const double *den, const size_t *group, size_t n,
			      unsigned n_boot, uint64_t seed, double *ratio, double *lo, double *hi);

/* Paired difference a - b over the blocks with use[i] (NULL: all): the
 * 20-80 % trimmed mean of the blocks' differences (a median jumped between
 * two close clusters of differences from run to run), with the same two-level bootstrap CI
 * as sb_bootstrap_ratio_nested. Returns -1 when no block is used. */
int sb_bootstrap_diff_nested(const double *a, const double *b, const size_t *group, const char *use,
			     size_t n, unsigned n_boot, uint64_t seed, double *diff, double *lo, double *hi);

/* Steady states in a set of values (block means of one arm). Sorted
 * values are split at a gap when the gap is at least min_sep, at least 4
 * robust SDs (1.4826 MAD) of the tighter side and one of the broader side
 * (a tight state beside a spread of others), and each side holds at least
 * 5 % of the values; the widest such gap first, then within each side.
 * Modes come out sorted by value, each with the median of its values and
 * its share; label (may be NULL) gets each value's mode index. Returns the
 * number of modes (at most max_modes; 0 when n == 0). */
#define SB_MAX_MODES 4
struct sb_mode {
	double cycles; /* median of the mode's values */
	double share;  /* fraction of the values in it */
};
size_t sb_find_modes(const double *x, size_t n, double min_sep, struct sb_mode *modes, size_t max_modes,
		     size_t *label);

/* Did a steady state change with time rather than at random? label[0..n)
 * are the states of n consecutive stretches of time (one per fresh
 * process, in the order they ran); the most common label against all the
 * others, counted in runs of equal labels (AABBBA: 3 runs), is tested with
 * the Wald-Wolfowitz runs test. Returns 1 when there are fewer runs than
 * chance allows (z < -1.96, each side at least 2 stretches), else 0; the
 * number of runs goes to *runs (may be NULL). */
int sb_states_clump_in_time(const size_t *label, size_t n, size_t *runs);

/* Ratio mean(num)/mean(den) of two independent groups (no pairing: for
 * example the same code at different placements), with a percentile
 * bootstrap 95 % CI resampling each group on its own. Returns -1 when a
 * group is empty or the denominator's mean is not positive. */
int sb_bootstrap_ratio_unpaired(const double *num, size_t n_num, const double *den, size_t n_den,
				unsigned n_boot, uint64_t seed, double *ratio, double *lo, double *hi);

#endif
