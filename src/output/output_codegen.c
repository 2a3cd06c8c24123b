/* output_codegen.c: the codegen and layout costs under the table, and the
 * check that they add up to the cost against the baseline; see output_codegen.h. */
#include "output/text_grid.h"
#include "output/output_codegen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/arm.h"

/* "+1.23 [+1.01, +1.45]", or "n/a". */
static void figure(char *buf, size_t len, const struct sb_estimate *e)
{
	if (!sb_estimate_known(e))
		snprintf(buf, len, "n/a");
	else if (sb_estimate_has_ci(e))
		snprintf(buf, len, "%+.2f [%+.2f, %+.2f]", e->value, e->lo, e->hi);
	else
		snprintf(buf, len, "%+.2f", e->value);
}

int sb_cell_costs_disagree(const struct sb_cell *c)
{
	return sb_costs_disagree(&c->matched_cycles, &c->layout_cycles, &c->delta_cycles);
}

int sb_costs_disagree(const struct sb_estimate *g, const struct sb_estimate *l, const struct sb_estimate *v)
{
	if (!sb_estimate_has_ci(g) || !sb_estimate_has_ci(l) || !sb_estimate_has_ci(v))
		return 0;
	/* The sum's interval (each side's deviations in quadrature) against
	 * vs base's: disagreeing when they do not overlap. */
	double sum = g->value + l->value;
	double lo = sum - hypot(g->value - g->lo, l->value - l->lo), hi = sum + hypot(g->hi - g->value, l->hi - l->value);
	return hi < v->lo || lo > v->hi;
}

void sb_output_codegen_note(FILE *f, const struct sb_results *r)
{
	size_t n = 0, with_reference = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->arm && sb_estimate_known(&c->matched_cycles) && !c->arm->is_baseline)
			n++;
		if (c->arm && sb_estimate_known(&c->vs_reference_cycles))
			with_reference++;
	}
	if (!n)
		return;
	fprintf(f, "# codegen: cycles per iteration vs the padded baseline where the run has one (--padded:\n"
		   "# the baseline's bytes, kernel NOPs where the variant has its extra instructions; each\n"
		   "# arm in a group of its own, all at one table of placements), else vs the baseline (copy\n"
		   "# j against copy j, the same blocks): per placement the mean difference, then the mean\n"
		   "# over placements; layout: padded baseline vs baseline, the same way\n");
	if (with_reference)
		fprintf(f, "# vs mainline (JSON vs_reference_cycles): the same against the group's mainline\n");
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || c->arm->is_baseline)
			continue;
		char g[48], l[48], v[48];
		figure(g, sizeof(g), &c->matched_cycles);
		figure(l, sizeof(l), &c->layout_cycles);
		figure(v, sizeof(v), &c->delta_cycles);
		if (sb_estimate_known(&c->layout_cycles))
			sb_comment(f, "  %s@%llu: codegen %s + layout %s; vs base %s%s", c->arm->name,
				   (unsigned long long)c->batch, g, l, v,
				   sb_cell_costs_disagree(c) ? " (does not add up)" : "");
	}
}

/* Whether c's figures come from a loop that took more than one steady
 * state: its blocks' modes, or placements at which it or the arm its
 * codegen is taken against fell in two states block by block. */
static int mixed_states(const struct sb_cell *c)
{
	return c->n_modes > 1 || c->n_codegen_modes > 1 ||
	       (sb_estimate_known(&c->codegen_two_state_pct) && c->codegen_two_state_pct.value > 0);
}

int sb_output_codegen_check_line(FILE *f, const char *tool, const struct sb_results *r)
{
	size_t bad = 0;
	int mixed = 0;
	const struct sb_cell *first = NULL;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || !sb_cell_costs_disagree(c))
			continue;
		if (!bad++)
			first = c;
		mixed |= mixed_states(c);
	}
	if (!bad)
		return 0;
	/* codegen and layout are paired at one table of placements (each arm
	 * in a group of its own), vs base over the placements the interleaved
	 * arms drew: they add up only where both saw the same costs. Why they
	 * did not (a mixture of loop states, else the placements), and what
	 * to do, in the longest form that fits the columns; the cells are
	 * marked in the table's codegen notes. */
	char cell[160], count[32];
	snprintf(cell, sizeof(cell), " in %s@%llu", first->arm->name, (unsigned long long)first->batch);
	if (bad > 1)
		snprintf(cell + strlen(cell), sizeof(cell) - strlen(cell), " +%zu more", bad - 1);
	snprintf(count, sizeof(count), " (%zu cell%s)", bad, bad == 1 ? "" : "s");
	const char *why[2] = {mixed ? "a mix of loop states" : "measured at other placements",
			      mixed ? "mixed loop states" : "other placements"};
	const char *advice[3] = {"quote the codegen; --time=N for more placements", "quote codegen; --time=N for more",
				 "quote codegen, more --time"};
	const char *where[3] = {cell, count, ""};
	char line[512];
	for (int w = 0; w < 2; w++)
		for (int a = 0; a < 3; a++)
			for (int k = 0; k < 3; k++) {
				snprintf(line, sizeof(line), "%s: codegen + layout != vs base%s: %s; %s", tool, where[k],
					 why[w], advice[a]);
				if (strlen(line) <= 100 || (w == 1 && a == 2 && k == 2)) {
					fprintf(f, "%.100s\n", line);
					return 1;
				}
			}
	return 1;
}
