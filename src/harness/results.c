/* results.c: the result containers of results.h: a cell's figures as
 * estimates, parts' results appended into one, their canary levels folded,
 * a cell found by its arm, freed. */
#include "stubbench/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/arm.h"

/* A cell's summary s as an estimate, from its kept samples' count. */
static struct sb_estimate cell_figure(const struct sb_cell *c, const struct sb_summary *s)
{
	if (!c->n_samples || c->no_samples[0])
		return sb_estimate_absent(c->no_samples[0] ? c->no_samples : "no samples");
	return c->n_samples > 1 ? sb_estimate_of(s->mean, s->ci_lo, s->ci_hi) : sb_estimate_of(s->mean, NAN, NAN);
}

struct sb_estimate sb_cell_cycles(const struct sb_cell *c)
{
	return cell_figure(c, &c->cycles);
}

struct sb_estimate sb_cell_ns(const struct sb_cell *c)
{
	return cell_figure(c, &c->ns);
}

void sb_results_fold_canary(struct sb_results *all, const struct sb_results *part)
{
	if (!part->n_cells || !(part->canary_quiet > 0))
		return;
	if (!(all->canary_quiet > 0) || part->canary_median < all->canary_median)
		all->canary_median = part->canary_median;
	if (part->canary_quiet > all->canary_quiet)
		all->canary_quiet = part->canary_quiet;
	if (part->window_quiet > 0) {
		if (!(all->window_quiet > 0) || part->window_median > all->window_median)
			all->window_median = part->window_median;
		if (!(all->window_quiet > 0) || part->window_quiet < all->window_quiet)
			all->window_quiet = part->window_quiet;
	}
}

int sb_results_append(struct sb_results *all, const struct sb_results *g)
{
	struct sb_cell *c = realloc(all->cells, (all->n_cells + g->n_cells) * sizeof(*c));
	if (!c)
		return -1;
	all->cells = c;
	struct sb_placement_row *p = realloc(all->placement_rows,
					     (all->n_placement_rows + g->n_placement_rows + 1) * sizeof(*p));
	if (!p)
		return -1;
	all->placement_rows = p;
	if (all->n_cells == 0) {
		struct sb_results keep = *all;
		*all = *g;
		all->cells = keep.cells;
		all->placement_rows = keep.placement_rows;
		all->n_cells = 0;
		all->n_placement_rows = 0;
		all->n_blocks = all->n_disturbed_blocks = 0;
		all->elapsed_s = 0;
	}
	if (g->n_cells)
		memcpy(all->cells + all->n_cells, g->cells, g->n_cells * sizeof(*c));
	all->n_cells += g->n_cells;
	if (g->n_placement_rows)
		memcpy(all->placement_rows + all->n_placement_rows, g->placement_rows,
		       g->n_placement_rows * sizeof(*p));
	all->n_placement_rows += g->n_placement_rows;
	all->n_blocks += g->n_blocks;
	all->n_disturbed_blocks += g->n_disturbed_blocks;
	all->elapsed_s += g->elapsed_s;
	sb_results_fold_canary(all, g);
	return 0;
}

const struct sb_cell *sb_results_cell(const struct sb_results *r, const char *arm, uint64_t batch)
{
	for (size_t i = 0; r && i < r->n_cells; i++)
		if (r->cells[i].arm && r->cells[i].batch == batch && strcmp(r->cells[i].arm->name, arm) == 0)
			return &r->cells[i];
	return NULL;
}

void sb_results_free(struct sb_results *r)
{
	free(r->placement_rows);
	r->placement_rows = NULL;
	r->n_placement_rows = 0;
	free(r->cells);
	r->cells = NULL;
	r->n_cells = 0;
}
