/* reporter_table.c: the table reporter (reporter.h): "#" lines on the
 * run, a row per cell with its figures, then the notes on its states,
 * codegen, CIs and placements. */
#include "harness/harness.h"
#include "output/reporter.h"

#include <math.h>
#include <string.h>

#include "stubbench/config.h"
#include "output/figures.h"
#include "base/mitigations.h"
#include "output/output_core_states.h"
#include "output/output_codegen.h"
#include "output/output_states.h"

#include "output/text_grid.h"

/* A signed figure for the table: the value and "[lo, hi]" (empty without one). */
static void table_estimate(const struct sb_estimate *e, const char *unit, char *v, size_t vlen, char *ci,
			   size_t cilen)
{
	v[0] = ci[0] = 0;
	if (!sb_estimate_known(e) || !isfinite(e->value))
		return;
	snprintf(v, vlen, "%+.2f%s", e->value, unit);
	if (sb_estimate_has_ci(e))
		snprintf(ci, cilen, "[%+.2f, %+.2f]", e->lo, e->hi);
	else
		snprintf(ci, cilen, "-");
}


static void table_placements(FILE *f, const struct sb_results *r, int width)
{
	if (!r->n_placement_rows)
		return;
	fprintf(f, "# across code placements: each placement's mean, then their mean, SD and range;\n"
		   "# delta: ratio of the placements' means to the baseline's, bootstrap 95%% CI\n");
	struct sb_grid g = {0};
	int cv = sb_grid_col(&g, "variant", 1, 1, -1), cb = sb_grid_col(&g, "batch", 0, 1, -1);
	int ck = sb_grid_col(&g, "k", 0, 0, 1), cm = sb_grid_col(&g, "cyc/iter", 0, 0, 1);
	int cs = sb_grid_col(&g, "sd", 0, 0, 1), cr = sb_grid_col(&g, "range", 0, 0, 1);
	int cd = sb_grid_col(&g, "vs base", 0, 0, 2), cdi = sb_grid_col(&g, "95% CI", 0, 0, 2);
	for (size_t i = 0; i < r->n_placement_rows; i++) {
		const struct sb_placement_row *p = &r->placement_rows[i];
		char d[16], dci[40];
		table_estimate(&p->delta_pct, "%", d, sizeof(d), dci, sizeof(dci));
		long row = sb_grid_row(&g);
		sb_grid_set(&g, row, cv, "%s", p->variant);
		sb_grid_set(&g, row, cb, "%llu", (unsigned long long)p->batch);
		sb_grid_set(&g, row, ck, "%zu", p->k);
		sb_grid_set(&g, row, cm, "%.2f", p->mean);
		sb_grid_set(&g, row, cs, "%.2f", p->sd);
		sb_grid_set(&g, row, cr, "[%.2f, %.2f]", p->min, p->max);
		sb_grid_set(&g, row, cd, "%s", d);
		sb_grid_set(&g, row, cdi, "%s", dci);
	}
	sb_grid_print(f, &g, width);
	sb_grid_free(&g);
}


/* Which rows of r return the host's way: BPF programs (the kernel's own
 * JIT), and replicas whose returns jump to a thunk's replica (key.ret
 * "rethunk": the run aims them at the host's, unless --thunk chose
 * another), lab rows of the flavour that returns as the host does; the
 * others return as their key's ret says. */
/* A cell's median for the table, or "-" where one step of the timer (per
 * iteration, in core cycles) is more than SB_MEDIAN_MAX_STEP of it: the
 * median of such samples sits on the timer's steps, not on the cost. */
#define SB_MEDIAN_MAX_STEP 0.10
static int table_median(const struct sb_results *r, const struct sb_cell *c, char *buf, size_t len)
{
	double tsc_ghz = r->timer.facts.tsc_hz / 1e9;
	double step = tsc_ghz > 0 && c->batch ? (double)r->timer.facts.granularity * r->core_ghz_median / tsc_ghz /
							(double)c->batch
					      : NAN;
	if (!isfinite(c->cycles.median) || (isfinite(step) && step > SB_MEDIAN_MAX_STEP * fabs(c->cycles.median))) {
		snprintf(buf, len, "-");
		return 1;
	}
	snprintf(buf, len, "%.2f", c->cycles.median);
	return 0;
}

/* The lab's return flavour that returns as thunk t does ("" : none). */
static const char *lab_return_of(enum sb_thunk t)
{
	switch (t) {
	case SB_THUNK_RET:
		return "ret";
	case SB_THUNK_SRSO:
		return "srso";
	case SB_THUNK_SRSO_ALIAS:
		return "srso-alias";
	case SB_THUNK_CALL_DEPTH:
		return "calldepth";
	default:
		return "";
	}
}

static void returns_users(const struct sb_results *r, enum sb_thunk host_thunk, char *buf, size_t len)
{
	const char *lab_ret = lab_return_of(host_thunk);
	size_t n = 0, others = 0;
	const char *seen[64];
	size_t n_seen = 0;
	buf[0] = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_arm *a = r->cells[i].arm;
		if (!a || !a->name || a->key.side == SB_SIDE_NONE)
			continue;
		int rethunk = strcmp(a->key.ret, "rethunk") == 0;
		int host = a->key.side == SB_SIDE_KERNEL ||
			   (a->key.side == SB_SIDE_LAB ? lab_ret[0] && strcmp(a->key.ret, lab_ret) == 0 : rethunk);
		if (!host) {
			others++;
			continue;
		}
		int dup = 0;
		for (size_t k = 0; k < n_seen && !dup; k++)
			dup = strcmp(seen[k], a->name) == 0;
		if (dup || n_seen == sizeof(seen) / sizeof(seen[0]))
			continue;
		seen[n_seen++] = a->name;
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n_seen > 1 ? ", " : "rows that take it: ",
					      a->name);
	}
	if (!n_seen)
		snprintf(buf, len, "no row takes it%s", others ? " (every row returns as its key says)" : "");
	else if (others && n < len)
		snprintf(buf + n, len - n, "; the other rows return with ret or their own thunk");
}

/* The table's width: SB_TABLE_MAX_COLUMNS, or unlimited with --verbose. */
static int table_width(const struct sb_output_meta *m)
{
	return m->config && m->config->out.verbose ? 0 : SB_TABLE_MAX_COLUMNS;
}

/* The "#" lines on the run: CPU, timer, blocks, shape, returns, section. */
static int table_begin(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	sb_comment(f, "%s on CPU %d of %s", m->tool, r->cpu, r->cpu_desc);
	sb_comment(f, "timer %s (%s), TSC %.3f GHz; core clock %.3f GHz (median of blocks)",
		      sb_timer_kind_name(r->timer.kind), r->timer.reason, r->timer.facts.tsc_hz / 1e9,
		      r->core_ghz_median);
	sb_comment(f, "%.1f s, %zu blocks, %zu disturbed and excluded; harness cost removed per iteration "
			 "shown as 'ovh'",
		      r->elapsed_s, r->n_blocks, r->n_disturbed_blocks);
	if (m->shape)
		sb_comment(f, "shape: %s", m->shape);
	if (m->thunk) {
		char users[256];
		returns_users(r, m->thunk->thunk, users, sizeof(users));
		sb_comment(f, "returns: %s (%s); %s", sb_thunk_name(m->thunk->thunk), m->thunk->how, users);
		sb_comment(f, "mitigations: spectre_v2 \"%s\"; retbleed \"%s\"; spec_rstack_overflow \"%s\"; "
				 "indirect_target_selection \"%s\"",
			      m->thunk->mit.spectre_v2, m->thunk->mit.retbleed, m->thunk->mit.spec_rstack_overflow,
			      m->thunk->mit.indirect_target_selection);
	}
	if (m->section)
		sb_comment(f, "%s", m->section);
	sb_output_core_states_header(f, m->core_states);
	return 0;
}

/* The grid's columns: variant and batch (the key of every block), the
 * cycles and their CI, median and ns/iter (--verbose only), ovh, each
 * figure with its CI, each counter. */
struct table_cols {
	int variant, batch, mean, ci, median, ns, ovh, fig[16], fig_ci[16], counter[16];
};

static void table_columns(struct sb_grid *g, struct table_cols *c, const struct sb_results *r, int width)
{
	c->variant = sb_grid_col(g, "variant", 1, 1, -1);
	c->batch = sb_grid_col(g, "batch", 0, 1, -1);
	c->mean = sb_grid_col(g, "cyc/iter", 0, 0, 1);
	c->ci = sb_grid_col(g, "95% CI", 0, 0, 1);
	c->median = sb_grid_col(g, "median", 0, 0, -1);
	c->ns = sb_grid_col(g, "ns/iter", 0, 0, -1);
	c->ovh = sb_grid_col(g, "ovh", 0, 0, -1);
	/* The narrow table leaves out what follows from the rest: the
	 * median (JSON keeps it), ns/iter (cycles over the core clock). */
	g->cols[c->median].drop = g->cols[c->ns].drop = width > 0;
	for (size_t i = 0, n = 0; i < sb_figure_count() && n < 16; i++) {
		c->fig[i] = c->fig_ci[i] = -1;
		if (!sb_figure_at(i)->column)
			continue;
		c->fig[i] = sb_grid_col(g, sb_figure_at(i)->column, 0, 0, 10 + (int)i);
		c->fig_ci[i] = sb_grid_col(g, "95% CI", 0, 0, 10 + (int)i);
		n++;
	}
	for (size_t k = 0; k < r->n_counters && k < 16; k++)
		c->counter[k] = sb_grid_col(g, r->counter_names[k], 0, 0, -1);
}

/* A cell's row of the grid. Returns 1 where its median is hidden. */
static int table_row(struct sb_grid *g, const struct table_cols *c, const struct sb_results *r,
		     const struct sb_cell *cell)
{
	long row = sb_grid_row(g);
	sb_grid_set(g, row, c->variant, "%s", cell->arm->name);
	sb_grid_set(g, row, c->batch, "%llu", (unsigned long long)cell->batch);
	if (cell->no_samples[0]) {
		sb_grid_set(g, row, c->mean, "n/a");
		sb_grid_note(g, "n/a: %s at batch %llu has no usable samples: %s", cell->arm->name,
			     (unsigned long long)cell->batch, cell->no_samples);
		return 0;
	}
	sb_grid_set(g, row, c->mean, "%.2f", cell->cycles.mean);
	if (isfinite(cell->cycles.ci_lo) && isfinite(cell->cycles.ci_hi))
		sb_grid_set(g, row, c->ci, "[%.2f, %.2f]", cell->cycles.ci_lo, cell->cycles.ci_hi);
	else
		sb_grid_set(g, row, c->ci, "-");
	char med[16];
	int hidden = table_median(r, cell, med, sizeof(med));
	sb_grid_set(g, row, c->median, "%s", med);
	sb_grid_set(g, row, c->ns, "%.2f", cell->ns.mean);
	sb_grid_set(g, row, c->ovh, "%.2f", cell->overhead_cycles);
	for (size_t k = 0; k < sb_figure_count() && k < 16; k++) {
		if (c->fig[k] < 0)
			continue;
		char v[24], vci[48];
		const struct sb_figure *fig = sb_figure_at(k);
		table_estimate(sb_figure_of(fig, cell), fig->unit, v, sizeof(v), vci, sizeof(vci));
		sb_grid_set(g, row, c->fig[k], "%s", v);
		sb_grid_set(g, row, c->fig_ci[k], "%s", vci);
	}
	for (size_t k = 0; k < r->n_counters && k < 16; k++)
		sb_grid_set(g, row, c->counter[k], "%.3f", cell->counters[k]);
	return hidden;
}

/* The column header and a row per cell: within SB_TABLE_MAX_COLUMNS, the
 * figures that do not fit in a further block under it (text_grid.h);
 * every column in one block with --verbose. Then why medians are hidden. */
static int table_results(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	int width = table_width(m);
	struct sb_grid g = {0};
	struct table_cols c;
	table_columns(&g, &c, r, width);
	size_t hidden = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *cell = sb_reporter_cell_at(r, i);
		if (cell->arm)
			hidden += (size_t)table_row(&g, &c, r, cell);
	}
	sb_grid_print(f, &g, width);
	sb_grid_free(&g);
	if (hidden && !width)
		sb_comment(f, "median: '-' in %zu cells, where one step of the timer is more than %.0f %% of it "
				 "(JSON keeps it)",
			      hidden, 100 * SB_MEDIAN_MAX_STEP);
	return 0;
}


/* The notes under the table: states, codegen, CIs, placements. */
static int table_end(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	sb_output_core_states_rows(f, m->core_states);
	sb_output_states_note(f, r, m->config && m->config->out.verbose);
	sb_output_codegen_note(f, r);
	if (m->ci_scope)
		sb_comment(f, "CIs: %s", m->ci_scope);
	table_placements(f, r, table_width(m));
	return 0;
}

const struct sb_reporter sb_reporter_table = {
	.begin = table_begin,
	.results = table_results,
	.end = table_end,
};
