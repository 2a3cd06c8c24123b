/* core_states.c: the core's state beside each block; see core_states.h. */
#include "stats/core_states.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/stats.h"

#define BIN_WIDTH 0.02   /* relative: 2 % a bin on a log scale */
#define VALLEY_SHARE 0.1 /* of the lower peak */

const char *sb_core_state_name(enum sb_core_state s)
{
	static const char *const names[] = {"unknown", "quiet", "busy"};
	return s < SB_CORE_STATES ? names[s] : "unknown";
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The lowest canary of the upper of two clusters with a clear gap between
 * them in sorted v[0..n) (positive values), or 0 when there is one. */
static double upper_cluster(const double *v, size_t n)
{
	if (n < 2 * SB_CORE_MIN_BLOCKS)
		return 0;
	double lo = log(v[0]), w = log1p(BIN_WIDTH);
	size_t bins = (size_t)((log(v[n - 1]) - lo) / w) + 1;
	size_t *count = calloc(bins, sizeof(*count)), *below = calloc(bins + 1, sizeof(*below));
	double start = 0;
	if (!count || !below)
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t b = (size_t)((log(v[i]) - lo) / w);
		count[b < bins ? b : bins - 1]++;
	}
	for (size_t b = 0; b < bins; b++)
		below[b + 1] = below[b] + count[b];
	size_t least = n / 20 > SB_CORE_MIN_BLOCKS ? n / 20 : SB_CORE_MIN_BLOCKS, best = 0, best_count = n + 1;
	for (size_t b = 1; b + 1 < bins; b++) {
		size_t left = 0, right = 0;
		for (size_t k = 0; k < b; k++)
			left = count[k] > left ? count[k] : left;
		for (size_t k = b + 1; k < bins; k++)
			right = count[k] > right ? count[k] : right;
		size_t peak = left < right ? left : right;
		if (below[b] < least || n - below[b + 1] < least || (double)count[b] > VALLEY_SHARE * (double)peak)
			continue;
		if (count[b] < best_count)
			best = b, best_count = count[b];
	}
	if (best_count <= n)
		start = v[below[best + 1] < n ? below[best + 1] : n - 1];
out:
	free(count);
	free(below);
	return start;
}

/* The median of v's values at or above from (sorted v[0..n)). */
static double median_from(const double *v, size_t n, double from)
{
	size_t first = 0;
	while (first < n && v[first] < from)
		first++;
	size_t m = n - first;
	return m ? (m % 2 ? v[first + m / 2] : (v[first + m / 2 - 1] + v[first + m / 2]) / 2) : 0;
}

/* The medians of each state's canaries into out->median. */
static int state_medians(const double *canary, size_t n, const enum sb_core_state *state,
			 struct sb_core_split *out)
{
	double *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!tmp)
		return -1;
	for (int s = 0; s < SB_CORE_STATES; s++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (state[i] == (enum sb_core_state)s && canary[i] > 0 && isfinite(canary[i]))
				tmp[m++] = canary[i];
		out->n[s] = 0;
		for (size_t i = 0; i < n; i++)
			out->n[s] += state[i] == (enum sb_core_state)s;
		out->median[s] = m ? sb_median(tmp, m) : 0;
	}
	free(tmp);
	return 0;
}

enum sb_core_state sb_core_state_of(const struct sb_core_split *split, double canary)
{
	if (split->quiet_level <= 0 || !(canary > 0 && isfinite(canary)))
		return SB_CORE_UNKNOWN;
	return canary < split->threshold ? SB_CORE_BUSY : SB_CORE_QUIET;
}

int sb_core_states_split(const double *canary, size_t n, double record_level, enum sb_core_state *state,
			 struct sb_core_split *out)
{
	memset(out, 0, sizeof(*out));
	out->basis = "none";
	double *v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (canary[i] > 0 && isfinite(canary[i]))
			v[m++] = canary[i];
	qsort(v, m, sizeof(*v), cmp_double);
	if (record_level > 0) {
		out->basis = "record";
		out->quiet_level = record_level;
	} else {
		double from = upper_cluster(v, m);
		if (from > 0) {
			out->basis = "run";
			out->quiet_level = median_from(v, m, from);
		}
	}
	free(v);
	out->threshold = SB_CORE_BUSY_SHARE * out->quiet_level;
	for (size_t i = 0; i < n; i++)
		state[i] = sb_core_state_of(out, canary[i]);
	return state_medians(canary, n, state, out);
}

int sb_state_figures_seen(const struct sb_state_figures *s, int *only)
{
	const struct sb_core_split *sp = &s->split;
	size_t least = 1;
	for (int st = 0; st < SB_CORE_STATES; st++)
		least = sp->n[st] >= SB_CORE_MIN_BLOCKS ? SB_CORE_MIN_BLOCKS : least;
	int seen = 0;
	for (int st = 0; st < SB_CORE_STATES; st++)
		if (sp->n[st] >= least)
			seen++, *only = st;
	return seen;
}

const char *sb_state_figures_pooled(const struct sb_state_figures *s)
{
	int only = SB_CORE_UNKNOWN;
	if (!s || !s->n_blocks)
		return NULL;
	return sb_state_figures_seen(s, &only) > 1 ? SB_CORE_POOLED : sb_core_state_name((enum sb_core_state)only);
}
