/* placement_stats.c: cells across code placements; see placement_stats.h. */
#include "jit/placement_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "stubbench/stats.h"

/* A copy at a random placement (--placements): its arm's key has one. */
static const struct sb_cell_key *placed_key(const struct sb_cell *c)
{
	return c->arm && c->arm->key.side != SB_SIDE_NONE && c->arm->key.placement >= 0 ? &c->arm->key : NULL;
}

/* The placements' mean cycles of the code of key at batch, into out. */
static size_t values(const struct sb_results *r, const struct sb_cell_key *key, uint64_t batch, double *out)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		const struct sb_cell_key *ck = placed_key(c);
		if (ck && c->batch == batch && sb_cell_key_same_code(ck, key) && c->cycles.n)
			out[k++] = c->cycles.mean;
	}
	return k;
}

/* The key of the copies of the variant named baseline, or NULL. */
static const struct sb_cell_key *baseline_key(const struct sb_results *r, const char *baseline)
{
	for (size_t i = 0; baseline && i < r->n_cells; i++) {
		const struct sb_cell_key *ck = placed_key(&r->cells[i]);
		if (ck && strcmp(ck->origin, baseline) == 0)
			return ck;
	}
	return NULL;
}

long sb_placement_summarize(struct sb_results *r, const char *baseline, uint64_t seed)
{
	free(r->placement_rows);
	r->placement_rows = NULL;
	r->n_placement_rows = 0;
	double *x = malloc((r->n_cells + 1) * sizeof(*x));
	double *b = malloc((r->n_cells + 1) * sizeof(*b));
	struct sb_placement_row *rows = calloc(r->n_cells + 1, sizeof(*rows));
	if (!x || !b || !rows) {
		free(x), free(b), free(rows);
		return -1;
	}
	const struct sb_cell_key *base = baseline_key(r, baseline);
	size_t n = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		const struct sb_cell_key *ck = placed_key(c);
		if (!ck)
			continue;
		int seen = 0;
		for (size_t k = 0; k < n && !seen; k++)
			seen = rows[k].batch == c->batch && sb_cell_key_same_code(&rows[k].key, ck);
		if (seen)
			continue;
		struct sb_placement_row *row = &rows[n++];
		snprintf(row->variant, sizeof(row->variant), "%s", ck->origin);
		row->key = *ck;
		row->key.placement = -1;
		row->batch = c->batch;
		row->k = values(r, ck, c->batch, x);
		struct sb_summary s;
		if (sb_summarize(x, row->k, NULL, 0, &s) == 0) {
			row->mean = s.mean;
			row->sd = s.sd;
			row->min = s.min;
			row->max = s.max;
		}
		size_t nb = base ? values(r, base, c->batch, b) : 0;
		if (base && !sb_cell_key_same_code(ck, base) && nb) {
			double ratio, lo, hi;
			uint64_t row_seed = sb_seed_stream(seed, SB_SEED_BOOTSTRAP, n); /* each row's own stream */
			if (sb_bootstrap_ratio_unpaired(x, row->k, b, nb, 2000, row_seed, &ratio, &lo, &hi) == 0)
				row->delta_pct = sb_estimate_of((ratio - 1) * 100, (lo - 1) * 100, (hi - 1) * 100);
		}
	}
	free(x);
	free(b);
	r->placement_rows = rows;
	r->n_placement_rows = n;
	return (long)n;
}
