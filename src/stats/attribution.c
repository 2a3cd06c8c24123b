/* attribution.c: a variant's cost split over its parts; see attribution.h. */
#include "stats/attribution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "stats/paired_placements.h"
#include "base/rng.h"

#define MAX_COLS (3 + 2 * SB_ATTRIBUTION_MAX_PARTS)
#define LAYOUT_COL(n_parts) (2 + 2 * (n_parts))

size_t sb_attribution_batches(const struct sb_block_table *t, uint64_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		size_t k = 0;
		while (k < n && out[k] != t->rows[i].batch)
			k++;
		if (k == n && n < max)
			out[n++] = t->rows[i].batch;
	}
	for (size_t i = 1; i < n; i++) /* insertion sort: a handful */
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			uint64_t x = out[j];
			out[j] = out[j - 1], out[j - 1] = x;
		}
	return n;
}

static const struct sb_block_table *sort_table;

static int cmp_block(const void *x, const void *y)
{
	const struct sb_block_value *a = &sort_table->rows[*(const size_t *)x];
	const struct sb_block_value *b = &sort_table->rows[*(const size_t *)y];
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	if (a->process != b->process)
		return a->process < b->process ? -1 : 1;
	return a->block < b->block ? -1 : a->block > b->block;
}

/* The blocks of batch that hold every column's arm: val[c * n + i], their
 * placements and processes. Returns how many, or -1 out of memory. */
static long gather(const struct sb_block_table *t, const long *col, size_t n_cols, uint64_t batch, double **val,
		   size_t **place, size_t **proc)
{
	size_t *idx = malloc((t->n + 1) * sizeof(*idx)), m = 0;
	if (!idx)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].batch == batch)
			idx[m++] = i;
	sort_table = t;
	qsort(idx, m, sizeof(*idx), cmp_block);
	*val = malloc((m + 1) * n_cols * sizeof(**val));
	*place = malloc((m + 1) * sizeof(**place));
	*proc = malloc((m + 1) * sizeof(**proc));
	if (!*val || !*place || !*proc) {
		free(idx);
		return -1;
	}
	long n = 0;
	double v[MAX_COLS];
	for (size_t s = 0; s < m;) {
		size_t e = s;
		for (size_t c = 0; c < n_cols; c++)
			v[c] = NAN;
		for (; e < m && cmp_block(&idx[s], &idx[e]) == 0; e++)
			for (size_t c = 0; c < n_cols; c++)
				if ((long)t->rows[idx[e]].arm == col[c])
					v[c] = t->rows[idx[e]].value;
		int whole = 1;
		for (size_t c = 0; c < n_cols; c++)
			whole &= !isnan(v[c]);
		if (whole) {
			for (size_t c = 0; c < n_cols; c++)
				(*val)[c * m + (size_t)n] = v[c];
			(*place)[n] = t->rows[idx[s]].state;
			(*proc)[n] = t->rows[idx[s]].process;
			n++;
		}
		s = e;
	}
	/* Columns are m apart: packed to n apart for the estimator. */
	for (size_t c = 1; c < n_cols; c++)
		memmove(*val + c * (size_t)n, *val + c * m, (size_t)n * sizeof(**val));
	free(idx);
	return n;
}

/* The table's columns: variant, baseline, then nop and removed of each part
 * (-1: no removed arm). Returns 0, or -1 with err naming a missing arm. */
static int columns(const struct sb_block_table *t, const struct sb_attribution_arms *arms, long *col,
		   char *err, size_t errlen)
{
	const char *names[MAX_COLS] = {arms->variant, arms->baseline};
	for (size_t k = 0; k < arms->n_parts; k++)
		names[2 + 2 * k] = arms->nop[k], names[3 + 2 * k] = arms->removed[k];
	names[LAYOUT_COL(arms->n_parts)] = arms->layout;
	for (size_t c = 0; c < 3 + 2 * arms->n_parts; c++) {
		col[c] = names[c] ? sb_block_table_arm(t, names[c]) : -1;
		if (names[c] && col[c] < 0) {
			sb_set_err(err, errlen, "no blocks of arm '%s'", names[c]);
			return -1;
		}
	}
	return 0;
}

/* All n blocks at one placement: each block is then a placement of its
 * own for the estimator (a run without re-rolled states). */
static int one_placement(const size_t *place, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (place[i] != place[0])
			return 0;
	return 1;
}

/* A figure's bootstrap draws a stream of its own, told apart by the column
 * of the arm it takes against the variant or the baseline (the
 * interaction: the column past the last). */
static uint64_t figure_seed(uint64_t seed, size_t col)
{
	return sb_seed_stream(seed, SB_SEED_BOOTSTRAP, col);
}

/* The figures from n whole blocks. Returns 0, or -1 out of memory. */
static int figures(double *val, const size_t *place, const size_t *proc, size_t n, size_t n_parts,
		   const long *col, unsigned n_boot, uint64_t seed, struct sb_attribution *out)
{
	const double *V = val, *B = val + n;
	double *x = calloc(2 * n + 1, sizeof(*x)), *zero = x ? x + n : NULL;
	if (!x)
		return -1;
	struct sb_paired p;
	int rc = sb_paired_over_placements(V, B, place, proc, n, n_boot, figure_seed(seed, 1), &p);
	out->total = p.mean;
	out->n_placements = p.n_placements;
	out->n_processes = p.n_processes;
	for (size_t i = 0; i < n; i++)
		x[i] = V[i] - B[i];
	double lo = 0, hi = 0;
	for (size_t k = 0; k < n_parts && rc == 0; k++) {
		const double *N = val + (2 + 2 * k) * n, *R = val + (3 + 2 * k) * n;
		rc = sb_paired_over_placements(V, N, place, proc, n, n_boot, figure_seed(seed, 2 + 2 * k), &p);
		out->nop[k] = p.mean;
		out->sum_parts += p.mean.value;
		lo += p.mean.lo, hi += p.mean.hi;
		for (size_t i = 0; i < n; i++)
			x[i] -= V[i] - N[i];
		out->removed[k] = sb_estimate_absent("no removed arm");
		if (rc == 0 && col[3 + 2 * k] >= 0) {
			rc = sb_paired_over_placements(V, R, place, proc, n, n_boot, figure_seed(seed, 3 + 2 * k), &p);
			out->removed[k] = p.mean;
		}
	}
	out->layout = sb_estimate_absent("no arm with every part NOPed");
	if (rc == 0 && col[LAYOUT_COL(n_parts)] >= 0) {
		const double *L = val + LAYOUT_COL(n_parts) * n;
		rc = sb_paired_over_placements(L, B, place, proc, n, n_boot, figure_seed(seed, LAYOUT_COL(n_parts)),
					       &p);
		out->layout = p.mean;
		lo += p.mean.lo, hi += p.mean.hi;
		for (size_t i = 0; i < n; i++)
			x[i] -= L[i] - B[i];
	}
	if (rc == 0)
		rc = sb_paired_over_placements(x, zero, place, proc, n, n_boot,
					       figure_seed(seed, LAYOUT_COL(n_parts) + 1), &p);
	out->interaction = p.mean;
	double tol = 1e-9 * (1 + fabs(out->total.value));
	out->reconciles = out->total.value >= lo + out->interaction.lo - tol &&
			  out->total.value <= hi + out->interaction.hi + tol;
	out->parts_explain = out->interaction.lo <= 0 && out->interaction.hi >= 0;
	free(x);
	return rc;
}

int sb_attribution_compute(const struct sb_block_table *t, const struct sb_attribution_arms *arms, uint64_t batch,
			   unsigned n_boot, uint64_t seed, struct sb_attribution *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->batch = batch;
	out->n_parts = arms->n_parts;
	if (arms->n_parts > SB_ATTRIBUTION_MAX_PARTS) {
		sb_set_err(err, errlen, "%zu parts, at most %d", arms->n_parts, SB_ATTRIBUTION_MAX_PARTS);
		return -1;
	}
	long col[MAX_COLS];
	size_t n_cols = 3 + 2 * arms->n_parts;
	if (columns(t, arms, col, err, errlen))
		return -1;
	/* An absent removed or layout arm is left out of the whole-block test. */
	long used[MAX_COLS];
	for (size_t c = 0; c < n_cols; c++)
		used[c] = col[c] >= 0 ? col[c] : col[0];
	double *val = NULL;
	size_t *place = NULL, *proc = NULL;
	long n = gather(t, used, n_cols, batch, &val, &place, &proc);
	int rc = -1;
	if (n < 0)
		sb_set_err(err, errlen, "out of memory");
	else if (n < 2)
		sb_set_err(err, errlen, "batch %llu: %ld blocks with every arm (2 or more needed)",
			   (unsigned long long)batch, n);
	else if (figures(val, one_placement(place, (size_t)n) ? NULL : place, proc, (size_t)n, arms->n_parts, col, n_boot, seed, out) != 0)
		sb_set_err(err, errlen, "out of memory");
	else {
		out->n_blocks = (size_t)n;
		rc = 0;
	}
	free(val), free(place), free(proc);
	return rc;
}
