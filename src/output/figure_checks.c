/* figure_checks.c: figures held back or explained before printing; see
 * figure_checks.h. */
#include "output/figure_checks.h"

#include <math.h>
#include <string.h>

#include "output/figures.h"
#include "harness/harness.h"

#define NO_CI "too few samples for a 95 % CI"

/* e has a figure without a finite value and CI: it becomes absent. */
static void require_ci(struct sb_estimate *e, const char *why)
{
	if (sb_estimate_known(e) && !sb_estimate_has_ci(e))
		*e = sb_estimate_absent(why);
}

/* c keeps its figure only with a finite CI and a mean not below zero; its
 * other figures only with finite CIs. Returns 1 when it lost its figure. */
static int check_cell(struct sb_cell *c)
{
	if (!c->arm)
		return 0;
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
	for (size_t i = 0; i < sb_figure_count(); i++) {
		struct sb_estimate *e = sb_figure_in(sb_figure_at(i), c);
		if (c->no_samples[0])
			*e = sb_estimate_absent(c->no_samples);
		else
			require_ci(e, NO_CI);
	}
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
	/* A cost against the baseline: none where the baseline has no figure. */
	for (size_t i = 0; i < r->n_cells; i++) {
		struct sb_cell *c = &r->cells[i];
		const struct sb_cell *base = c->arm && !c->arm->is_baseline ? baseline_at(r, c->batch) : NULL;
		if (!base || !base->no_samples[0] || c->no_samples[0])
			continue;
		for (size_t k = 0; k < sb_figure_count(); k++) {
			struct sb_estimate *e = sb_figure_in(sb_figure_at(k), c);
			if (sb_figure_at(k)->of_baseline && sb_estimate_known(e))
				*e = sb_estimate_absent("the baseline has no figure at this batch");
		}
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

size_t sb_figure_below_zero_lines(FILE *f, const char *tool, const struct sb_results *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || c->no_samples[0])
			continue;
		struct sb_estimate cyc = sb_cell_cycles(c);
		if (!sb_estimate_has_ci(&cyc) || !(cyc.lo < 0) || cyc.value < 0)
			continue;
		if (n++ < 5)
			fprintf(f, "%s: %s at batch %llu: %.2f [%.2f, %.2f] cycles an iteration after %.2f of overhead "
				   "subtracted: the CI reaches below zero, so its cost is not told apart from the "
				   "overhead's\n", tool, c->arm->name, (unsigned long long)c->batch, cyc.value, cyc.lo,
				cyc.hi, c->overhead_cycles);
	}
	if (n > 5)
		fprintf(f, "%s: %zu more costs whose CI reaches below zero\n", tool, n - 5);
	return n;
}
