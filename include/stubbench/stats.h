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

/* Median of n values (n > 0); x is not changed. */
double sb_median(const double *x, size_t n);
/* Percentile p in [0, 100] of sorted values, linear interpolation between
 * closest ranks (as numpy's default). */
double sb_percentile_sorted(const double *sorted, size_t n, double p);
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

/* Ratio mean(num)/mean(den) of two independent groups (no pairing: for
 * example the same code at different placements), with a percentile
 * bootstrap 95 % CI resampling each group on its own. Returns -1 when a
 * group is empty or the denominator's mean is not positive. */
int sb_bootstrap_ratio_unpaired(const double *num, size_t n_num, const double *den, size_t n_den,
				unsigned n_boot, uint64_t seed, double *ratio, double *lo, double *hi);

#endif
