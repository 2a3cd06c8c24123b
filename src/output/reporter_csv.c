/* reporter_csv.c: the CSV reporter (reporter.h): a header line, then a
 * row per cell; a cell without usable samples has empty figures. The
 * column core_state names the state of the core beside the cells' blocks
 * ("all" where the run saw several: then a row per variant, batch and
 * state follows, state_figures.h). */
#include "harness/harness.h"
#include "output/reporter.h"

#include <string.h>

#include "output/figures.h"
#include "stats/core_states.h"

/* The CSV columns of every figure in the CSV (figures.h): "NAME,LO,HI,"
 * for the header, "value,lo,hi," (empty without the figure) for a cell, or
 * only the commas (c NULL: a cell without samples). */
static void csv_figures(FILE *f, const struct sb_cell *c, int header)
{
	for (size_t i = 0; i < sb_figure_count(); i++) {
		const struct sb_figure *fig = sb_figure_at(i);
		if (!fig->csv)
			continue;
		if (header) {
			fprintf(f, "%s,%s,%s,", fig->csv, fig->csv_lo, fig->csv_hi);
			continue;
		}
		struct sb_estimate e = c ? *sb_figure_of(fig, c) : sb_estimate_absent(NULL);
		if (sb_estimate_known(&e))
			fprintf(f, "%.4f,%.4f,%.4f,", e.value, e.lo, e.hi);
		else
			fputs(",,,", f);
	}
}

/* The run's own columns of a row, from core_ghz to core_state. */
static void csv_run_fields(FILE *f, const struct sb_results *r, const char *state)
{
	fprintf(f, "%.4f,%s,%.0f,%llu,%d,%d,\"%s\",%s", r->core_ghz_median, sb_timer_kind_name(r->timer.kind),
		r->timer.facts.tsc_hz, (unsigned long long)r->timer.facts.granularity, r->timer.facts.cpuid_rdtscp,
		r->timer.facts.rdtscp_executes, r->cpu_desc, state);
}

/* A row of the figures per state (state_figures.h) where the run saw
 * several states: the variant, batch, its codegen in the codegen columns
 * and its vs base (cycles) in the delta-cycles columns, the run's columns
 * with the state; the other fields empty. */
static void csv_state_rows(FILE *f, const struct sb_results *r, const struct sb_state_figures *s)
{
	const char *pooled = sb_state_figures_pooled(s);
	if (!pooled || strcmp(pooled, SB_CORE_POOLED))
		return;
	for (size_t i = 0; i < s->n; i++) {
		const struct sb_state_figure *g = &s->f[i];
		fprintf(f, "%s,,%llu,,,,,,,,,,,,,,,,", g->variant, (unsigned long long)g->batch);
		for (size_t k = 0; k < sb_figure_count(); k++) {
			const struct sb_figure *fig = sb_figure_at(k);
			const struct sb_estimate *e = k == SB_FIGURE_CODEGEN ? &g->codegen :
						      !strcmp(fig->name, "delta-cycles") ? &g->vs_base : NULL;
			if (!fig->csv)
				continue;
			if (e && sb_estimate_known(e))
				fprintf(f, "%.4f,%.4f,%.4f,", e->value, e->lo, e->hi);
			else
				fputs(",,,", f);
		}
		csv_run_fields(f, r, sb_core_state_name(g->state));
		for (size_t k = 0; k < r->n_counters; k++)
			fputc(',', f);
		fputc('\n', f);
	}
}

/* The header line: the cells' columns, the figures', the run's, the counters'. */
static int csv_begin(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	(void)m;
	fputs("variant,seed_name,batch,samples,disturbed_samples,outlier_samples,code_bytes,"
	      "cycles_mean,cycles_ci_lo,cycles_ci_hi,cycles_median,cycles_min,cycles_trimmed_mean,"
	      "cycles_sd,ns_mean,ns_ci_lo,ns_ci_hi,ns_median,", f);
	csv_figures(f, NULL, 1);
	fputs("core_ghz,timer,tsc_hz,tsc_granularity_ticks,cpuid_rdtscp,rdtscp_executes,machine,core_state", f);
	for (size_t k = 0; k < r->n_counters; k++)
		fprintf(f, ",%s", r->counter_names[k]);
	fputc('\n', f);
	return 0;
}

/* A row per cell, batch-major. */
static int csv_results(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	/* The core state of the cells' blocks ("all": several, pooled; "": not classified). */
	const char *state = sb_state_figures_pooled(m->core_states) ? sb_state_figures_pooled(m->core_states) : "";
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = sb_reporter_cell_at(r, i);
		if (!c->arm)
			continue;
		char code_bytes[24] = ""; /* unknown: empty, not 0 */
		if (c->arm->code_bytes)
			snprintf(code_bytes, sizeof(code_bytes), "%zu", c->arm->code_bytes);
		if (c->no_samples[0]) { /* no figures: empty fields */
			fprintf(f, "%s,%s,%llu,%zu,%zu,%zu,%s,,,,,,,,,,,,", c->arm->name, c->arm->seed_name,
				(unsigned long long)c->batch, c->n_samples, c->n_disturbed, c->n_outliers, code_bytes);
			csv_figures(f, NULL, 0);
			csv_run_fields(f, r, state);
			for (size_t k = 0; k < r->n_counters; k++)
				fputc(',', f);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%s,%s,%llu,%zu,%zu,%zu,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,",
			c->arm->name, c->arm->seed_name, (unsigned long long)c->batch, c->n_samples,
			c->n_disturbed, c->n_outliers, code_bytes, c->cycles.mean,
			c->cycles.ci_lo, c->cycles.ci_hi, c->cycles.median, c->cycles.min,
			c->cycles.trimmed_mean, c->cycles.sd, c->ns.mean, c->ns.ci_lo, c->ns.ci_hi,
			c->ns.median);
		csv_figures(f, c, 0);
		csv_run_fields(f, r, state);
		for (size_t k = 0; k < r->n_counters; k++)
			fprintf(f, ",%.4f", c->counters[k]);
		fputc('\n', f);
	}
	csv_state_rows(f, r, m->core_states);
	return 0;
}


const struct sb_reporter sb_reporter_csv = {
	.begin = csv_begin,
	.results = csv_results,
};
