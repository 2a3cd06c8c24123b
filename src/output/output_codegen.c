/* output_codegen.c: the codegen and layout costs under the table, and the
 * check that they add up to the cost against the baseline; see output_codegen.h. */
#include "output/text_grid.h"
#include "output/output_codegen.h"

#include <math.h>
#include <stdio.h>

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
			sb_comment(f, "  %s@%llu: codegen %s + layout %s; vs base %s", c->arm->name,
				   (unsigned long long)c->batch, g, l, v);
	}
}

int sb_output_codegen_check_line(FILE *f, const char *tool, const struct sb_results *r)
{
	size_t bad = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || !sb_cell_costs_disagree(c))
			continue;
		if (!bad++)
			fprintf(f, "%s: codegen + layout does not add up to vs base (cycles) within the CIs in", tool);
		fprintf(f, " %s@%llu (%+.2f + %+.2f, vs base %+.2f)", c->arm->name, (unsigned long long)c->batch,
			c->matched_cycles.value, c->layout_cycles.value, c->delta_cycles.value);
	}
	if (bad)
		fputc('\n', f);
	return bad > 0;
}
