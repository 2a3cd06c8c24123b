/* stats.c: summaries and bootstrap; see stats.h. */
#include "stubbench/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/rng.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double sb_percentile_sorted(const double *s, size_t n, double p)
{
	if (n == 0)
		return NAN;
	if (n == 1)
		return s[0];
	double pos = p / 100.0 * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i >= n - 1)
		return s[n - 1];
	double f = pos - (double)i;
	return s[i] + (s[i + 1] - s[i]) * f;
}

double sb_median(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double m = sb_percentile_sorted(s, n, 50);
	free(s);
	return m;
}

double sb_t95(size_t df)
{
	static const double t[] = {
		NAN,    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
		2.228, 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
		2.086, 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
		2.042,
	};
	if (df == 0)
		return NAN;
	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	if (df <= 40)
		return 2.021;
	if (df <= 60)
		return 2.000;
	if (df <= 120)
		return 1.980;
	return 1.960;
}

static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

int sb_summarize(const double *x, size_t n, const double *group_means, size_t n_groups,
		 struct sb_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = sb_percentile_sorted(s, n, 50);
	double p20 = sb_percentile_sorted(s, n, 20), p80 = sb_percentile_sorted(s, n, 80);
	double tsum = 0;
	size_t tn = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] >= p20 && s[i] <= p80) {
			tsum += s[i];
			tn++;
		}
	out->trimmed_mean = tn ? tsum / (double)tn : out->median;
	mean_sd(x, n, &out->mean, &out->sd);
	free(s);

	double half;
	if (group_means && n_groups > 1) {
		double gm, gsd;
		mean_sd(group_means, n_groups, &gm, &gsd);
		half = sb_t95(n_groups - 1) * gsd / sqrt((double)n_groups);
	} else if (n > 1) {
		half = sb_t95(n - 1) * out->sd / sqrt((double)n);
	} else {
		half = NAN;
	}
	out->ci_lo = out->mean - half;
	out->ci_hi = out->mean + half;
	return 0;
}

/* The percentile 95 % interval of n bootstrap replicates (sorts r). */
static void percentile_ci(double *r, size_t n, double *lo, double *hi)
{
	qsort(r, n, sizeof(*r), cmp_double);
	*lo = sb_percentile_sorted(r, n, 2.5);
	*hi = sb_percentile_sorted(r, n, 97.5);
}

int sb_bootstrap_ratio(const double *num, const double *den, size_t n, unsigned n_boot,
		       uint64_t seed, double *ratio, double *lo, double *hi)
{
	double sn = 0, sd = 0;
	for (size_t i = 0; i < n; i++) {
		sn += num[i];
		sd += den[i];
	}
	if (n == 0 || !(sd > 0))
		return -1;
	*ratio = sn / sd;
	if (n < 2 || n_boot < 2) {
		*lo = *hi = NAN;
		return 0;
	}
	double *r = malloc(n_boot * sizeof(*r));
	if (!r)
		return -1;
	struct sb_rng rng;
	sb_rng_seed(&rng, seed);
	unsigned kept = 0;
	for (unsigned b = 0; b < n_boot; b++) {
		double bn = 0, bd = 0;
		for (size_t i = 0; i < n; i++) {
			size_t k = (size_t)sb_rng_below(&rng, n);
			bn += num[k];
			bd += den[k];
		}
		if (bd > 0)
			r[kept++] = bn / bd;
	}
	percentile_ci(r, kept, lo, hi);
	free(r);
	return 0;
}

int sb_bootstrap_ratio_unpaired(const double *num, size_t n_num, const double *den, size_t n_den,
				unsigned n_boot, uint64_t seed, double *ratio, double *lo, double *hi)
{
	if (n_num == 0 || n_den == 0)
		return -1;
	double sn = 0, sd = 0;
	for (size_t i = 0; i < n_num; i++)
		sn += num[i];
	for (size_t i = 0; i < n_den; i++)
		sd += den[i];
	if (!(sd > 0))
		return -1;
	*ratio = (sn / (double)n_num) / (sd / (double)n_den);
	if (n_boot < 2 || (n_num < 2 && n_den < 2)) {
		*lo = *hi = NAN;
		return 0;
	}
	double *r = malloc(n_boot * sizeof(*r));
	if (!r)
		return -1;
	struct sb_rng rng;
	sb_rng_seed(&rng, seed);
	unsigned kept = 0;
	for (unsigned b = 0; b < n_boot; b++) {
		double bn = 0, bd = 0;
		for (size_t i = 0; i < n_num; i++)
			bn += num[sb_rng_below(&rng, n_num)];
		for (size_t i = 0; i < n_den; i++)
			bd += den[sb_rng_below(&rng, n_den)];
		if (bd > 0)
			r[kept++] = (bn / (double)n_num) / (bd / (double)n_den);
	}
	percentile_ci(r, kept, lo, hi);
	free(r);
	return 0;
}
