/* reporter_table.c: the table reporter (reporter.h): "#" lines on the
 * run, a row per cell with its figures, then the notes on its states,
 * codegen, CIs and placements. */
#include "stubbench/harness.h"
#include "stubbench/reporter.h"

#include <math.h>
#include <string.h>

#include "stubbench/config.h"
#include "stubbench/figures.h"
#include "stubbench/mitigations.h"
#include "stubbench/output_core_states.h"
#include "stubbench/output_codegen.h"
#include "stubbench/output_states.h"

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


static void table_placements(FILE *f, const struct sb_results *r)
{
	if (!r->n_placement_rows)
		return;
	fprintf(f, "# across code placements: each placement's mean, then their mean, SD and range;\n"
		   "# delta: ratio of the placements' means to the baseline's, bootstrap 95%% CI\n");
	int w = 16;
	for (size_t i = 0; i < r->n_placement_rows; i++)
		if ((int)strlen(r->placement_rows[i].variant) > w)
			w = (int)strlen(r->placement_rows[i].variant);
	fprintf(f, "%-*s %6s %3s %10s %7s %17s %9s %19s\n", w, "variant", "batch", "k", "cyc/iter", "sd",
		"range", "vs base", "95% CI");
	for (size_t i = 0; i < r->n_placement_rows; i++) {
		const struct sb_placement_row *p = &r->placement_rows[i];
		char range[40], d[16], dci[40];
		snprintf(range, sizeof(range), "[%.2f, %.2f]", p->min, p->max);
		table_estimate(&p->delta_pct, "%", d, sizeof(d), dci, sizeof(dci));
		fprintf(f, "%-*s %6llu %3zu %10.2f %7.2f %17s %9s %19s\n", w, p->variant,
			(unsigned long long)p->batch, p->k, p->mean, p->sd, range, d, dci);
	}
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

/* The "#" lines on the run: CPU, timer, blocks, shape, returns, section. */
static int table_begin(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	fprintf(f, "# %s on CPU %d of %s\n", m->tool, r->cpu, r->cpu_desc);
	fprintf(f, "# timer %s (%s), TSC %.3f GHz; core clock %.3f GHz (median of blocks)\n",
		sb_timer_kind_name(r->timer.kind), r->timer.reason, r->timer.facts.tsc_hz / 1e9,
		r->core_ghz_median);
	fprintf(f, "# %.1f s, %zu blocks, %zu disturbed and excluded; harness cost removed per iteration shown as 'ovh'\n",
		r->elapsed_s, r->n_blocks, r->n_disturbed_blocks);
	if (m->shape)
		fprintf(f, "# shape: %s\n", m->shape);
	if (m->thunk) {
		char users[256];
		returns_users(r, m->thunk->thunk, users, sizeof(users));
		fprintf(f, "# returns: %s (%s); %s\n# mitigations: spectre_v2 \"%s\"; retbleed \"%s\"; "
			"spec_rstack_overflow \"%s\"; indirect_target_selection \"%s\"\n",
			sb_thunk_name(m->thunk->thunk), m->thunk->how, users, m->thunk->mit.spectre_v2,
			m->thunk->mit.retbleed, m->thunk->mit.spec_rstack_overflow, m->thunk->mit.indirect_target_selection);
	}
	if (m->section)
		fprintf(f, "# %s\n", m->section);
	sb_output_core_states_header(f, m->core_states);
	return 0;
}

/* The column header, a row per cell, and why medians are hidden. */
static int table_results(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	(void)m;
	int w = 16;
	for (size_t i = 0; i < r->n_cells; i++)
		if (r->cells[i].arm && (int)strlen(r->cells[i].arm->name) > w)
			w = (int)strlen(r->cells[i].arm->name);
	fprintf(f, "%-*s %6s %10s %21s %9s %8s %7s", w, "variant", "batch", "cyc/iter", "95% CI", "median",
		"ns/iter", "ovh");
	for (size_t i = 0; i < sb_figure_count(); i++)
		if (sb_figure_at(i)->column)
			fprintf(f, " %9s %19s", sb_figure_at(i)->column, "95% CI");
	for (size_t k = 0; k < r->n_counters; k++)
		fprintf(f, " %14s", r->counter_names[k]);
	fputc('\n', f);
	size_t hidden = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = sb_reporter_cell_at(r, i);
		if (!c->arm)
			continue;
		if (c->no_samples[0]) {
			fprintf(f, "%-*s %6llu %10s\n# n/a: %s at batch %llu has no usable samples: %s\n", w,
				c->arm->name, (unsigned long long)c->batch, "n/a", c->arm->name,
				(unsigned long long)c->batch, c->no_samples);
			continue;
		}
		char ci[40];
		if (isfinite(c->cycles.ci_lo) && isfinite(c->cycles.ci_hi))
			snprintf(ci, sizeof(ci), "[%.2f, %.2f]", c->cycles.ci_lo, c->cycles.ci_hi);
		else
			snprintf(ci, sizeof(ci), "-");
		char med[16];
		hidden += table_median(r, c, med, sizeof(med));
		fprintf(f, "%-*s %6llu %10.2f %21s %9s %8.2f %7.2f", w, c->arm->name, (unsigned long long)c->batch,
			c->cycles.mean, ci, med, c->ns.mean, c->overhead_cycles);
		for (size_t k = 0; k < sb_figure_count(); k++) {
			const struct sb_figure *fig = sb_figure_at(k);
			if (!fig->column)
				continue;
			char v[24], vci[48];
			struct sb_estimate e = *sb_figure_of(fig, c);
			table_estimate(&e, fig->unit, v, sizeof(v), vci, sizeof(vci));
			fprintf(f, " %9s %19s", v, vci);
		}
		for (size_t k = 0; k < r->n_counters; k++)
			fprintf(f, " %14.3f", c->counters[k]);
		fputc('\n', f);
	}
	if (hidden)
		fprintf(f, "# median: '-' in %zu cells, where one step of the timer is more than %.0f %% of it "
			   "(JSON keeps it)\n", hidden, 100 * SB_MEDIAN_MAX_STEP);
	return 0;
}


/* The notes under the table: states, codegen, CIs, placements. */
static int table_end(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	sb_output_core_states_rows(f, m->core_states);
	sb_output_states_note(f, r, m->config && m->config->verbose);
	sb_output_codegen_note(f, r);
	if (m->ci_scope)
		fprintf(f, "# CIs: %s\n", m->ci_scope);
	table_placements(f, r);
	return 0;
}

const struct sb_reporter sb_reporter_table = {
	.format = SB_FORMAT_TABLE,
	.begin = table_begin,
	.results = table_results,
	.end = table_end,
};
