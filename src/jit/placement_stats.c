/* placement_stats.c: cells across code placements; see placement_stats.h. */
#include "stubbench/placement_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/stats.h"

/* Length of the variant part of "name@p<j>", or 0 when name has no "@p". */
static size_t base_len(const char *name)
{
	const char *at = strstr(name, "@p");
	return at ? (size_t)(at - name) : 0;
}

static int same_base(const char *a, const char *b)
{
	size_t la = base_len(a), lb = base_len(b);
	return la && la == lb && strncmp(a, b, la) == 0;
}

static size_t values(const struct sb_results *r, const char *like, uint64_t batch, double *out)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->arm && c->batch == batch && same_base(c->arm->name, like) && c->cycles.n)
			out[k++] = c->cycles.mean;
	}
	return k;
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
	char base_like[128];
	snprintf(base_like, sizeof(base_like), "%s@p0", baseline ? baseline : "");
	size_t n = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		size_t bl = c->arm ? base_len(c->arm->name) : 0;
		if (!bl)
			continue;
		int seen = 0;
		for (size_t k = 0; k < n && !seen; k++)
			seen = rows[k].batch == c->batch && strlen(rows[k].variant) == bl &&
			       strncmp(rows[k].variant, c->arm->name, bl) == 0;
		if (seen)
			continue;
		struct sb_placement_row *row = &rows[n++];
		snprintf(row->variant, sizeof(row->variant), "%.*s", (int)bl, c->arm->name);
		row->batch = c->batch;
		row->k = values(r, c->arm->name, c->batch, x);
		struct sb_summary s;
		if (sb_summarize(x, row->k, NULL, 0, &s) == 0) {
			row->mean = s.mean;
			row->sd = s.sd;
			row->min = s.min;
			row->max = s.max;
		}
		size_t nb = values(r, base_like, c->batch, b);
		if (baseline && !same_base(c->arm->name, base_like) && nb) {
			double ratio, lo, hi;
			if (sb_bootstrap_ratio_unpaired(x, row->k, b, nb, 2000, seed ^ (n * 104729), &ratio, &lo,
							&hi) == 0) {
				row->has_delta = 1;
				row->delta_pct = (ratio - 1) * 100;
				row->delta_lo_pct = (lo - 1) * 100;
				row->delta_hi_pct = (hi - 1) * 100;
			}
		}
	}
	free(x);
	free(b);
	r->placement_rows = rows;
	r->n_placement_rows = n;
	return (long)n;
}
