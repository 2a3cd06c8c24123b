/* figure_checks.c: figures held back or explained before printing; see
 * figure_checks.h. */
#include "stubbench/figure_checks.h"

#include <math.h>
#include <string.h>

#include "stubbench/harness.h"

#define NO_CI "too few samples for a 95 % CI"

/* e has a figure without a finite value and CI: it becomes absent. */
static void require_ci(struct sb_estimate *e, const char *why)
{
	if (sb_estimate_known(e) && !sb_estimate_has_ci(e))
		*e = sb_estimate_absent(why);
}

/* The cell's figures besides its cycles and nanoseconds per iteration. */
static size_t figures_of(struct sb_cell *c, struct sb_estimate **out)
{
	size_t n = 0;
	out[n++] = &c->delta_pct;
	out[n++] = &c->matched_cycles;
	out[n++] = &c->delta_cycles;
	out[n++] = &c->next_run_delta;
	out[n++] = &c->next_run_cycles;
	return n;
}

/* c keeps its figure only with a finite CI and a mean not below zero; its
 * other figures only with finite CIs. Returns 1 when it lost its figure. */
static int check_cell(struct sb_cell *c)
{
	if (!c->arm)
		return 0;
	struct sb_estimate *figures[8];
	size_t n = figures_of(c, figures);
	struct sb_estimate cyc = sb_cell_cycles(c);
	int lost = 0;
	if (c->no_samples[0]) {
		/* no figure of the cell means anything (results.h) */
	} else if (!sb_estimate_has_ci(&cyc)) {
		snprintf(c->no_samples, sizeof(c->no_samples), "%zu kept sample%s: too few for a 95 %% CI",
			 c->n_samples, c->n_samples == 1 ? "" : "s");
		lost = 1;
	} else if (cyc.value < 0) {
		snprintf(c->no_samples, sizeof(c->no_samples),
			 "below the subtracted overhead (%.2f cycles an iteration after %.2f subtracted)", cyc.value,
			 c->overhead_cycles);
		c->below_overhead = 1;
		lost = 1;
	}
	for (size_t i = 0; i < n; i++)
		if (c->no_samples[0])
			*figures[i] = sb_estimate_absent(c->no_samples);
		else
			require_ci(figures[i], NO_CI);
	return lost;
}

/* The one baseline cell of r at batch, or NULL (none, or several: the
 * flavours' baselines side by side). */
static const struct sb_cell *baseline_at(const struct sb_results *r, uint64_t batch)
{
	const struct sb_cell *found = NULL;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->arm && c->arm->is_baseline && c->batch == batch) {
			if (found)
				return NULL;
			found = c;
		}
	}
	return found;
}

size_t sb_figure_checks(struct sb_results *r)
{
	size_t lost = 0;
	for (size_t i = 0; i < r->n_cells; i++)
		lost += (size_t)check_cell(&r->cells[i]);
	/* A delta is a ratio to the baseline: none where the baseline has no figure. */
	for (size_t i = 0; i < r->n_cells; i++) {
		struct sb_cell *c = &r->cells[i];
		const struct sb_cell *base = c->arm && !c->arm->is_baseline ? baseline_at(r, c->batch) : NULL;
		if (!base || !base->no_samples[0] || c->no_samples[0])
			continue;
		struct sb_estimate none = sb_estimate_absent("the baseline has no figure at this batch");
		if (sb_estimate_known(&c->delta_pct))
			c->delta_pct = none;
		if (sb_estimate_known(&c->delta_cycles))
			c->delta_cycles = none;
		if (sb_estimate_known(&c->matched_cycles))
			c->matched_cycles = none;
		if (sb_estimate_known(&c->next_run_delta))
			c->next_run_delta = none;
	}
	return lost;
}

void sb_figure_large_lines(FILE *f, const char *tool, const struct sb_results *r)
{
	size_t said = 0, more = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || c->no_samples[0] || !sb_estimate_known(&c->delta_pct) ||
		    !(fabs(c->delta_pct.value) >= SB_LARGE_DELTA_PCT))
			continue;
		if (said == 5) {
			more++;
			continue;
		}
		struct sb_estimate cyc = sb_cell_cycles(c);
		double base = cyc.value / (1 + c->delta_pct.value / 100);
		fprintf(f, "%s: %s at batch %llu: %+.0f %% vs the baseline, a ratio to a baseline of %.2f cycles an "
			   "iteration after %.2f of overhead subtracted: near zero, so the %% says little; read the "
			   "cycles (%+.2f)\n", tool, c->arm->name, (unsigned long long)c->batch, c->delta_pct.value, base,
			c->overhead_cycles, cyc.value - base);
		said++;
	}
	if (more)
		fprintf(f, "%s: %zu more deltas of %.0f %% or more, for the same reason\n", tool, more,
			SB_LARGE_DELTA_PCT);
}
