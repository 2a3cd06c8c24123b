/* stats.c: summaries and bootstrap; see stats.h. */
#include "stubbench/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A double's bits as an unsigned key in the same order (negatives
 * flipped whole, positives with the sign bit set), and back. */
static inline uint64_t radix_key(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return u >> 63 ? ~u : u | (1ull << 63);
}

static inline double key_value(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~(1ull << 63) : ~k;
	double d;
	memcpy(&d, &u, sizeof(d));
	return d;
}

/* Sorts n finite doubles: an LSD radix sort of their keys, one byte a
 * pass, passes where every key has the same byte skipped (a block's
 * cycle counts share their high bytes); qsort where memory is short or
 * n is small. NaN has no place in the order and is not passed here. */
void sb_sort(double *x, size_t n)
{
	if (n < 256) {
		qsort(x, n, sizeof(*x), cmp_double);
		return;
	}
	uint64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		qsort(x, n, sizeof(*x), cmp_double);
		return;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = radix_key(x[i]);
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[256] = {0};
		for (size_t i = 0; i < n; i++)
			count[(a[i] >> shift) & 0xff]++;
		if (count[(a[0] >> shift) & 0xff] == n)
			continue;
		size_t pos = 0;
		for (int d = 0; d < 256; d++) {
			size_t c = count[d];
			count[d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[(a[i] >> shift) & 0xff]++] = a[i];
		uint64_t *t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = key_value(a[i]);
	free(a);
	free(b);
}

/* Percentile p of n > 0 values, by closest ranks: the value of rank i
 * (from 0), plus *frac of the way to rank i + 1 (0 at the top). */
static size_t rank_of(size_t n, double p, double *frac)
{
	double pos = p / 100.0 * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i >= n - 1) {
		*frac = 0;
		return n - 1;
	}
	*frac = pos - (double)i;
	return i;
}

double sb_percentile_sorted(const double *s, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double f;
	size_t i = rank_of(n, p, &f);
	return f == 0 ? s[i] : s[i] + (s[i + 1] - s[i]) * f;
}

/* Moves the k-th smallest of x[0..n) to x[k], the smaller ones before it
 * and the larger after (Hoare's selection, median-of-three pivots): O(n)
 * on average where a sort is O(n log n). */
static void select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2;
		double a = x[lo], b = x[mid], c = x[hi];
		double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		size_t i = lo, j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				double t = x[i];
				x[i] = x[j];
				x[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

double sb_percentile_select(double *x, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double f;
	size_t i = rank_of(n, p, &f);
	select_kth(x, n, i);
	if (f == 0)
		return x[i];
	double next = x[i + 1];
	for (size_t j = i + 2; j < n; j++)
		if (x[j] < next)
			next = x[j];
	return x[i] + (next - x[i]) * f;
}

void sb_percentiles_select(double *x, size_t n, double p_lo, double p_hi, double *lo, double *hi)
{
	if (n == 0) {
		*lo = *hi = NAN;
		return;
	}
	*hi = sb_percentile_select(x, n, p_hi);
	double fh, fl;
	size_t ih = rank_of(n, p_hi, &fh), il = rank_of(n, p_lo, &fl);
	/* x[0..ih] now holds the ih + 1 smallest values: the lower rank is
	 * among them, and so is the value after it, unless il == ih. */
	select_kth(x, ih + 1, il);
	if (fl == 0) {
		*lo = x[il];
		return;
	}
	size_t end = il < ih ? ih + 1 : n;
	double next = x[il + 1];
	for (size_t j = il + 2; j < end; j++)
		if (x[j] < next)
			next = x[j];
	*lo = x[il] + (next - x[il]) * fl;
}

double sb_trimmed_mean(double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double p20, p80;
	sb_percentiles_select(x, n, 20, 80, &p20, &p80);
	double sum = 0;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (x[i] >= p20 && x[i] <= p80) {
			sum += x[i];
			m++;
		}
	return m ? sum / (double)m : sb_percentile_select(x, n, 50);
}

double sb_median(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	double m = sb_percentile_select(s, n, 50);
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
	sb_sort(s, n);
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = sb_percentile_sorted(s, n, 50);
	out->trimmed_mean = sb_trimmed_mean(s, n);
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
	sb_sort(r, n);
	*lo = sb_percentile_sorted(r, n, 2.5);
	*hi = sb_percentile_sorted(r, n, 97.5);
}

int sb_bootstrap_ratio(const double *num, const double *den, size_t n, unsigned n_boot,
		       uint64_t seed, double *ratio, double *lo, double *hi)
{
	return sb_bootstrap_ratio_nested(num, den, NULL, n, n_boot, seed, ratio, lo, hi);
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

/* States of n blocks (group NULL: one state) as lists of block indices:
 * idx holds the blocks state by state, start[s]..start[s + 1] those of
 * state s; only blocks with use[i] (use NULL: all) count and states with
 * no block are left out. Returns the number of states, 0 on failure. */
static size_t states_of(const size_t *group, const char *use, size_t n, size_t **idx_out,
			size_t **start_out)
{
	size_t max = 0;
	for (size_t i = 0; i < n; i++)
		if (group && group[i] > max)
			max = group[i];
	size_t *count = calloc(max + 2, sizeof(*count));
	size_t *idx = malloc((n + 1) * sizeof(*idx));
	size_t *start = malloc((max + 2) * sizeof(*start));
	if (!count || !idx || !start) {
		free(count), free(idx), free(start);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (!use || use[i])
			count[group ? group[i] : 0]++;
	size_t k = 0, *pos = count; /* count becomes the write position */
	size_t n_states = 0;
	for (size_t s = 0; s <= max; s++) {
		size_t c = count[s];
		if (!c)
			continue;
		start[n_states++] = k;
		pos[s] = k;
		k += c;
	}
	start[n_states] = k;
	for (size_t i = 0; i < n; i++)
		if (!use || use[i])
			idx[pos[group ? group[i] : 0]++] = i;
	free(count);
	if (n_states == 0) { /* nothing to hand back: the caller frees only on success */
		free(idx);
		free(start);
		return 0;
	}
	*idx_out = idx;
	*start_out = start;
	return n_states;
}

/* With few states the percentile interval of a two-level bootstrap is too
 * narrow (it resamples g states as if they were the population): widen it
 * about the estimate by t(g - 1) / 1.96 x sqrt(g / (g - 1)), which tends to
 * 1 as the states grow. */
static void widen_for_few_states(size_t g, double est, double *lo, double *hi)
{
	if (g < 2 || !isfinite(*lo) || !isfinite(*hi))
		return;
	double f = sb_t95(g - 1) / 1.96 * sqrt((double)g / (double)(g - 1));
	*lo = est - (est - *lo) * f;
	*hi = est + (*hi - est) * f;
}

/* One state of the g in idx/start drawn with replacement (g > 1), then its
 * m members drawn with replacement into drawn[0..m); returns m. The
 * nested bootstraps' one way of drawing, so that both use the same
 * sequence of draws. */
static size_t draw_state(struct sb_rng *rng, const size_t *idx, const size_t *start, size_t g, size_t *drawn)
{
	size_t s = g > 1 ? (size_t)sb_rng_below(rng, g) : 0;
	size_t m = start[s + 1] - start[s];
	for (size_t t = 0; t < m; t++)
		drawn[t] = idx[start[s] + (size_t)sb_rng_below(rng, m)];
	return m;
}

/* The most members of any of the g states. */
static size_t largest_state(const size_t *start, size_t g)
{
	size_t maxm = 0;
	for (size_t s = 0; s < g; s++)
		if (start[s + 1] - start[s] > maxm)
			maxm = start[s + 1] - start[s];
	return maxm;
}

int sb_bootstrap_ratio_nested(const double *num, const double *den, const size_t *group, size_t n,
			      unsigned n_boot, uint64_t seed, double *ratio, double *lo, double *hi)
{
	size_t *idx, *start;
	if (n == 0)
		return -1;
	size_t g = states_of(group, NULL, n, &idx, &start);
	if (!g)
		return -1;
	double sn = 0, sd = 0;
	for (size_t s = 0; s < g; s++) {
		double a = 0, b = 0;
		size_t m = start[s + 1] - start[s];
		for (size_t k = start[s]; k < start[s + 1]; k++) {
			a += num[idx[k]];
			b += den[idx[k]];
		}
		sn += a / (double)m;
		sd += b / (double)m;
	}
	int rc = 0;
	double *r = NULL;
	size_t *drawn = NULL;
	if (!(sd > 0)) {
		rc = -1;
		goto out;
	}
	*ratio = sn / sd;
	*lo = *hi = NAN;
	if (n < 2 || n_boot < 2)
		goto out;
	r = malloc(n_boot * sizeof(*r));
	drawn = malloc((largest_state(start, g) + 1) * sizeof(*drawn));
	if (!r || !drawn) {
		rc = -1;
		goto out;
	}
	struct sb_rng rng;
	sb_rng_seed(&rng, seed);
	unsigned kept = 0;
	for (unsigned bt = 0; bt < n_boot; bt++) {
		double bn = 0, bd = 0;
		for (size_t j = 0; j < g; j++) {
			size_t m = draw_state(&rng, idx, start, g, drawn);
			double a = 0, b = 0;
			for (size_t k = 0; k < m; k++) {
				a += num[drawn[k]];
				b += den[drawn[k]];
			}
			bn += a / (double)m;
			bd += b / (double)m;
		}
		if (bd > 0)
			r[kept++] = bn / bd;
	}
	if (kept > 1) {
		percentile_ci(r, kept, lo, hi);
		if (group)
			widen_for_few_states(g, *ratio, lo, hi);
	}
out:
	free(r);
	free(drawn);
	free(idx);
	free(start);
	return rc;
}

int sb_bootstrap_diff_nested(const double *a, const double *b, const size_t *group, const char *use,
			     size_t n, unsigned n_boot, uint64_t seed, double *diff, double *lo, double *hi)
{
	size_t *idx, *start;
	if (n == 0)
		return -1;
	size_t g = states_of(group, use, n, &idx, &start);
	if (!g) {
		return -1;
	}
	size_t used = start[g], maxm = largest_state(start, g);
	double *d = malloc((g * maxm + 1) * sizeof(*d));
	double *r = malloc((n_boot + 1) * sizeof(*r));
	size_t *drawn = malloc((maxm + 1) * sizeof(*drawn));
	int rc = 0;
	if (!d || !r || !drawn) {
		rc = -1;
		goto out;
	}
	for (size_t k = 0; k < used; k++)
		d[k] = a[idx[k]] - b[idx[k]];
	*diff = sb_trimmed_mean(d, used);
	*lo = *hi = NAN;
	if (used < 2 || n_boot < 2)
		goto out;
	struct sb_rng rng;
	sb_rng_seed(&rng, seed);
	for (unsigned bt = 0; bt < n_boot; bt++) {
		size_t k = 0;
		for (size_t j = 0; j < g; j++) {
			size_t m = draw_state(&rng, idx, start, g, drawn);
			for (size_t t = 0; t < m; t++)
				d[k++] = a[drawn[t]] - b[drawn[t]];
		}
		r[bt] = sb_trimmed_mean(d, k);
	}
	percentile_ci(r, n_boot, lo, hi);
	if (group)
		widen_for_few_states(g, *diff, lo, hi);
out:
	free(d);
	free(r);
	free(drawn);
	free(idx);
	free(start);
	return rc;
}

/* 1.4826 x the median absolute deviation of sorted values s[0..m). */
static double robust_sd_sorted(const double *s, size_t m, double *work)
{
	if (m < 2)
		return 0;
	double med = sb_percentile_sorted(s, m, 50);
	for (size_t i = 0; i < m; i++)
		work[i] = fabs(s[i] - med);
	sb_sort(work, m);
	return 1.4826 * sb_percentile_sorted(work, m, 50);
}

#define MODE_GAP_SDS 4.0
#define MODE_MIN_SHARE 0.05
#define MODE_MAX_GAPS 16 /* widest gaps tried per segment */

/* Splits s[lo..hi) recursively; cuts[] collects the split positions. */
static void split_modes(const double *s, size_t lo, size_t hi, size_t n, double min_sep, size_t *cuts,
			size_t *n_cuts, size_t max_cuts, double *work)
{
	size_t min_count = (size_t)ceil(MODE_MIN_SHARE * (double)n);
	if (min_count < 2)
		min_count = 2;
	if (*n_cuts >= max_cuts || hi - lo < 2 * min_count)
		return;
	/* The widest gaps (at least min_sep) with enough values on each side. */
	size_t best[MODE_MAX_GAPS], nb = 0;
	for (size_t k = lo + min_count; k + min_count <= hi; k++) {
		double gap = s[k] - s[k - 1];
		if (gap < min_sep)
			continue;
		size_t at = nb < MODE_MAX_GAPS ? nb++ : MODE_MAX_GAPS;
		if (at == MODE_MAX_GAPS) {
			if (gap <= s[best[MODE_MAX_GAPS - 1]] - s[best[MODE_MAX_GAPS - 1] - 1])
				continue;
			at = MODE_MAX_GAPS - 1;
		}
		while (at > 0 && s[best[at - 1]] - s[best[at - 1] - 1] < gap) {
			best[at] = best[at - 1];
			at--;
		}
		best[at] = k;
	}
	for (size_t j = 0; j < nb; j++) {
		size_t k = best[j];
		double gap = s[k] - s[k - 1];
		double sl = robust_sd_sorted(s + lo, k - lo, work), sr = robust_sd_sorted(s + k, hi - k, work);
		double tight = sl < sr ? sl : sr, broad = sl < sr ? sr : sl;
		if (gap < MODE_GAP_SDS * tight || gap < broad)
			continue;
		cuts[(*n_cuts)++] = k;
		split_modes(s, lo, k, n, min_sep, cuts, n_cuts, max_cuts, work);
		split_modes(s, k, hi, n, min_sep, cuts, n_cuts, max_cuts, work);
		return;
	}
}

static const double *sort_key;
static int cmp_index(const void *a, const void *b)
{
	double x = sort_key[*(const size_t *)a], y = sort_key[*(const size_t *)b];
	return (x > y) - (x < y);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

size_t sb_find_modes(const double *x, size_t n, double min_sep, struct sb_mode *modes, size_t max_modes,
		     size_t *label)
{
	if (n == 0 || max_modes == 0)
		return 0;
	size_t *order = malloc(n * sizeof(*order));
	double *s = malloc(n * sizeof(*s)), *work = malloc(n * sizeof(*work));
	size_t cuts[SB_MAX_MODES + 1], n_cuts = 0;
	if (!order || !s || !work) {
		free(order), free(s), free(work);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sort_key = x;
	qsort(order, n, sizeof(*order), cmp_index);
	for (size_t i = 0; i < n; i++)
		s[i] = x[order[i]];
	size_t max_cuts = (max_modes < SB_MAX_MODES ? max_modes : SB_MAX_MODES) - 1;
	split_modes(s, 0, n, n, min_sep, cuts, &n_cuts, max_cuts, work);
	qsort(cuts, n_cuts, sizeof(*cuts), cmp_size);
	size_t from = 0;
	for (size_t m = 0; m <= n_cuts; m++) {
		size_t to = m < n_cuts ? cuts[m] : n;
		modes[m].cycles = sb_percentile_sorted(s + from, to - from, 50);
		modes[m].share = (double)(to - from) / (double)n;
		for (size_t k = from; label && k < to; k++)
			label[order[k]] = m;
		from = to;
	}
	free(order), free(s), free(work);
	return n_cuts + 1;
}

int sb_states_clump_in_time(const size_t *label, size_t n, size_t *runs)
{
	if (runs)
		*runs = n ? 1 : 0;
	if (n < 4)
		return 0;
	/* The most common label: its stretches against all the others. */
	size_t best = label[0], best_count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t c = 0;
		for (size_t j = 0; j < n; j++)
			c += label[j] == label[i];
		if (c > best_count)
			best_count = c, best = label[i];
	}
	size_t r = 1;
	for (size_t i = 1; i < n; i++)
		r += (label[i] == best) != (label[i - 1] == best);
	if (runs)
		*runs = r;
	double n1 = (double)best_count, n2 = (double)(n - best_count);
	if (n1 < 2 || n2 < 2)
		return 0;
	double mu = 2 * n1 * n2 / (n1 + n2) + 1;
	double var = (mu - 1) * (mu - 2) / (n1 + n2 - 1);
	return var > 0 && ((double)r - mu) / sqrt(var) < -1.96;
}
