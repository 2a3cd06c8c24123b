/* spread_split.c: a figure's spread between re-rolled states and within
 * them; see spread_split.h. */
#include "stats/spread_split.h"

#include <math.h>
#include <stdlib.h>

#include "stubbench/stats.h"

/* Block indices sorted by state. */
static const size_t *sort_state;

static int cmp_state(const void *a, const void *b)
{
	size_t x = sort_state[*(const size_t *)a], y = sort_state[*(const size_t *)b];
	return x < y ? -1 : x > y;
}

/* Per state: its mean into mean[], its count into count[]; the within sum
 * of squares and its degrees of freedom. Returns the number of states. */
static size_t state_sums(const double *x, const size_t *state, const size_t *idx, size_t n, double *mean,
			 size_t *count, double *ss, size_t *df)
{
	size_t g = 0;
	*ss = 0, *df = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double sum = 0;
		while (j < n && state[idx[j]] == state[idx[i]])
			sum += x[idx[j++]];
		size_t m = j - i;
		double mu = sum / (double)m;
		for (size_t k = i; k < j; k++)
			*ss += (x[idx[k]] - mu) * (x[idx[k]] - mu);
		*df += m - 1;
		mean[g] = mu, count[g++] = m;
		i = j;
	}
	return g;
}

int sb_spread_split(const double *x, const size_t *state, size_t n, struct sb_spread_split *out)
{
	out->states = out->states_of_two = 0;
	out->between = sb_estimate_absent("one state: nothing between states");
	out->within = sb_estimate_absent("no state of two blocks");
	if (n == 0)
		return -1;
	size_t *idx = malloc(n * sizeof(*idx)), *count = malloc(n * sizeof(*count));
	double *mean = malloc(n * sizeof(*mean));
	if (!idx || !count || !mean) {
		free(idx), free(count), free(mean);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_state = state;
	qsort(idx, n, sizeof(*idx), cmp_state);
	double ss;
	size_t df, g = state_sums(x, state, idx, n, mean, count, &ss, &df);
	double fig = 0, inv_n = 0;
	for (size_t s = 0; s < g; s++) {
		fig += mean[s] / (double)g;
		inv_n += 1.0 / (double)count[s];
		out->states_of_two += count[s] > 1;
	}
	out->states = g;
	/* The interval's half-width per standard error, as the bootstraps
	 * widen for g states; with one state, 1.96. */
	double f = g > 1 ? sb_t95(g - 1) * sqrt((double)g / (double)(g - 1)) : 1.96;
	double v_within = df ? ss / (double)df * inv_n / ((double)g * (double)g) : NAN;
	if (df) {
		double w = f * sqrt(v_within);
		out->within = sb_estimate_of(fig, fig - w, fig + w);
	}
	if (g > 1) {
		double v = 0;
		for (size_t s = 0; s < g; s++)
			v += (mean[s] - fig) * (mean[s] - fig);
		double v_total = v / (double)(g - 1) / (double)g;
		/* Without a state of two blocks the states' own scatter is not
		 * known: the between share is then all of it. */
		double b = f * sqrt(fmax(0, v_total - (df ? v_within : 0)));
		out->between = sb_estimate_of(fig, fig - b, fig + b);
	}
	free(idx), free(count), free(mean);
	return 0;
}
