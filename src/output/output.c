/* output.c: table, seed lines, JSON and CSV; see output.h. */
#define _GNU_SOURCE
#include "stubbench/output.h"
#include "stubbench/figures.h"
#include "stubbench/past_runs.h"


#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stubbench/config.h"
#include "stubbench/json_writer.h"
#include "stubbench/machine_name.h"
#include "stubbench/output_gbench.h"
#include "stubbench/mitigations.h"
#include "stubbench/run_info.h"
#include "stubbench/sibling.h"

void sb_output_seed_line(FILE *f, const char *name, uint64_t batch, const char *suffix,
			 double mean, double sd)
{
	char label[96];
	snprintf(label, sizeof(label), "%s-%llu%s: ", name, (unsigned long long)batch,
		 suffix ? suffix : "");
	fprintf(f, "%-20s %.3f \xc2\xb1 %.3fM/s (drops 0.000 \xc2\xb1 0.000M/s)\n", label, mean, sd);
}

/* A cell with no usable samples: its seed line is left out of the results
 * and said on stderr instead, in the same shape. */
static void seed_line_empty(const char *name, uint64_t batch, const char *suffix, const char *why)
{
	char label[96];
	snprintf(label, sizeof(label), "%s-%llu%s: ", name, (unsigned long long)batch,
		 suffix ? suffix : "");
	fprintf(stderr, "%-20s n/a (no usable samples: %s)\n", label, why);
}

size_t sb_results_count_empty(const struct sb_results *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_cells; i++)
		n += r->cells[i].arm && r->cells[i].no_samples[0] && !r->cells[i].below_overhead;
	return n;
}

/* Cells in batch-major order (all variants of batch 1, then of batch 8 ...),
 * as the seeds' run script prints them. */
static const struct sb_cell *cell_at(const struct sb_results *r, size_t i)
{
	size_t nb = r->n_batches ? r->n_batches : 1;
	size_t n_arms = r->n_cells / nb;
	if (n_arms == 0)
		return NULL;
	return &r->cells[(i % n_arms) * nb + i / n_arms];
}

static void json_summary(FILE *f, const struct sb_summary *s)
{
	fprintf(f, "{\"n\": %zu, \"mean\": ", s->n);
	sb_json_number(f, s->mean);
	fputs(", \"median\": ", f);
	sb_json_number(f, s->median);
	fputs(", \"min\": ", f);
	sb_json_number(f, s->min);
	fputs(", \"max\": ", f);
	sb_json_number(f, s->max);
	fputs(", \"trimmed_mean_20_80\": ", f);
	sb_json_number(f, s->trimmed_mean);
	fputs(", \"sd\": ", f);
	sb_json_number(f, s->sd);
	fputs(", \"ci95\": [", f);
	sb_json_number(f, s->ci_lo);
	fputs(", ", f);
	sb_json_number(f, s->ci_hi);
	fputs("]}", f);
}

static void json_placements(FILE *f, const struct sb_results *r);

static void json_string_or_null(FILE *f, const char *s)
{
	if (s && *s)
		sb_json_string(f, s);
	else
		fputs("null", f);
}

/* The cell's key as fields of its result (null: unknown or not applicable). */
static void json_key(FILE *f, const struct sb_cell_key *k)
{
	static const char *const names[] = {"side", "family", "codegen", "flavour", "return", "shape"};
	const char *values[] = {sb_cell_side_name(k->side), k->family, k->codegen, k->flavour, k->ret, k->shape};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fprintf(f, ", \"%s\": ", names[i]);
		json_string_or_null(f, values[i]);
	}
	fputs(", \"placement\": ", f);
	if (k->side != SB_SIDE_NONE && k->placement >= 0)
		fprintf(f, "%d", k->placement);
	else
		fputs("null", f);
}

/* The run's SMT sibling (sibling.h), `, "sibling": {...}`: the mode and
 * load asked for, the sibling's PU or why there is none, whether a load
 * ran; null for a run that managed none. */
static void json_sibling(FILE *f, const struct sb_sibling_facts *s)
{
	fputs(", \"sibling\": ", f);
	if (!s) {
		fputs("null", f);
		return;
	}
	fputs("{\"mode\": ", f);
	sb_json_string(f, sb_sibling_mode_name(s->mode));
	fputs(", \"load\": ", f);
	sb_json_string(f, sb_sibling_load_name(s->load));
	fputs(", \"pu\": ", f);
	if (s->pu >= 0)
		fprintf(f, "%d", s->pu);
	else
		fputs("null", f);
	fputs(", \"none_why\": ", f);
	if (s->pu < 0)
		sb_json_string(f, s->why);
	else
		fputs("null", f);
	fprintf(f, ", \"forced\": %s, \"loaded\": %s}", s->forced ? "true" : "false", s->loaded ? "true" : "false");
}

/* How the result was made: schema, date, command line, options, kernel,
 * source revision. */
static void json_run_info(FILE *f, const struct sb_output_meta *m)
{
	char buf[512];
	int argc;
	char *const *argv;
	fprintf(f, ",\n  \"schema_version\": %d,\n  \"date\": ", SB_JSON_SCHEMA_VERSION);
	sb_run_info_date(buf, sizeof(buf));
	sb_json_string(f, buf);
	fputs(",\n  \"argv\": [", f);
	sb_run_info_argv(&argc, &argv);
	for (int i = 0; i < argc; i++) {
		if (i)
			fputs(", ", f);
		sb_json_string(f, argv[i]);
	}
	fputs("],\n  \"kernel\": ", f);
	sb_run_info_kernel(buf, sizeof(buf));
	sb_json_string(f, buf);
	fputs(",\n  \"git\": ", f);
	sb_json_string(f, sb_run_info_git());
	const struct sb_config *c = m->config;
	fputs(",\n  \"config\": ", f);
	if (!c) {
		fputs("null", f);
		return;
	}
	fputs("{\"variants\": ", f);
	sb_json_string(f, c->variants);
	fputs(", \"batches\": [", f);
	for (size_t i = 0; i < c->n_batches; i++)
		fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)c->batches[i]);
	fputs("], \"time_s\": ", f);
	sb_json_number(f, c->time_s);
	fprintf(f, ", \"samples\": %llu, \"seed\": %llu, \"processes\": %llu, \"cpu\": ",
		(unsigned long long)c->samples, (unsigned long long)c->seed, (unsigned long long)c->processes);
	if (c->cpu >= 0)
		fprintf(f, "%d", c->cpu);
	else
		fputs("null", f);
	fputs(", \"format\": ", f);
	sb_json_string(f, sb_format_name(c->format));
	json_sibling(f, sb_sibling_facts());
	fputs("}", f);
}

/* A figure as two fields, `, "name": value, "ci_name": [lo, hi]`; nothing
 * without one. */
static void json_estimate(FILE *f, const char *name, const char *ci_name, const struct sb_estimate *e)
{
	if (!sb_estimate_known(e))
		return;
	fprintf(f, ", \"%s\": ", name);
	sb_json_number(f, e->value);
	fprintf(f, ", \"%s\": [", ci_name);
	sb_json_number(f, e->lo);
	fputs(", ", f);
	sb_json_number(f, e->hi);
	fputs("]", f);
}

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

/* "name": [{"cycles": .., "share": ..}, ...] */
static void json_modes(FILE *f, const char *name, const struct sb_mode *modes, size_t n)
{
	fprintf(f, "\"%s\": [", name);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", {\"cycles\": " : "{\"cycles\": ", f);
		sb_json_number(f, modes[k].cycles);
		fputs(", \"share\": ", f);
		sb_json_number(f, modes[k].share);
		fputs("}", f);
	}
	fputs("]", f);
}

/* The cell's steady states, and what its figures are taken against (its
 * codegen cost's other arm, placements' modes; a lab alternative's
 * reference). */
static void json_states(FILE *f, const struct sb_cell *c)
{
	fputs(",\n     ", f);
	json_modes(f, "modes", c->modes, c->n_modes);
	if (c->codegen_against) {
		fputs(",\n     \"codegen_against\": ", f);
		sb_json_string(f, c->codegen_against);
		fputs(", ", f);
		json_modes(f, "codegen_modes", c->codegen_modes, c->n_codegen_modes);
	}
	if (c->reference_against) {
		fputs(", \"reference_against\": ", f);
		sb_json_string(f, c->reference_against ? c->reference_against : "");
	}
}

/* Every figure of the cell (figures.h) it has. */
static void json_figures(FILE *f, const struct sb_cell *c)
{
	for (size_t i = 0; i < sb_figure_count(); i++) {
		const struct sb_figure *fig = sb_figure_at(i);
		struct sb_estimate e = *sb_figure_of(fig, c);
		json_estimate(f, fig->json, fig->json_ci, &e);
	}
}

/* "return_thunk" and "mitigations": where returns go on this host and the
 * sysfs lines behind it. */
static void json_thunk(FILE *f, const struct sb_return_thunk *t)
{
	fputs("  \"return_thunk\": {\"name\": ", f);
	sb_json_string(f, sb_thunk_name(t->thunk));
	fputs(", \"how\": ", f);
	sb_json_string(f, t->how);
	fputs("},\n  \"mitigations\": {\"spectre_v2\": ", f);
	sb_json_string(f, t->mit.spectre_v2);
	fputs(", \"retbleed\": ", f);
	sb_json_string(f, t->mit.retbleed);
	fputs(", \"spec_rstack_overflow\": ", f);
	sb_json_string(f, t->mit.spec_rstack_overflow);
	fputs(", \"indirect_target_selection\": ", f);
	sb_json_string(f, t->mit.indirect_target_selection);
	fputs("},\n", f);
}

/* "past_runs": the record the next-run ranges came from, and the machine
 * and key it knows this measurement by (null where there is none). */
static void json_past_runs(FILE *f, const struct sb_output_meta *m)
{
	const char *why_none, *path = sb_past_runs_in_use(&why_none);
	fputs("  \"past_runs\": {\"record\": ", f);
	if (path)
		sb_json_string(f, path);
	else
		fputs("null", f);
	fputs(", \"machine\": ", f);
	char machine[192];
	sb_past_runs_machine(machine, sizeof(machine));
	sb_json_string(f, machine);
	fputs(", \"key\": ", f);
	if (m->record_key)
		sb_json_string(f, m->record_key);
	else
		fputs("null", f);
	fputs("},\n", f);
}

/* "cpuid" (the raw fields) and "microarchitecture" (their name, or null:
 * not in the table, or contradicted by the CPU's features). */
static void json_machine_id(FILE *f)
{
	struct sb_machine_id id;
	sb_machine_id(&id);
	fputs(",\n  \"cpuid\": {\"vendor\": ", f);
	sb_json_string(f, id.sig.vendor);
	fprintf(f, ", \"family\": %u, \"model\": %u, \"stepping\": %u, \"microcode\": ", id.sig.family,
		id.sig.model, id.sig.stepping);
	sb_json_string(f, id.microcode);
	fputs(", \"hypervisor\": ", f);
	sb_json_string(f, id.hypervisor);
	fprintf(f, ", \"amx\": %s},\n  \"microarchitecture\": ", id.amx ? "true" : "false");
	const char *uarch = sb_machine_microarchitecture(&id);
	if (uarch)
		sb_json_string(f, uarch);
	else
		fputs("null", f);
}

static void write_json(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	const struct sb_timer_info *t = &r->timer;
	fputs("{\n  \"tool\": ", f);
	sb_json_string(f, m->tool);
	fputs(",\n  \"version\": ", f);
	sb_json_string(f, m->version);
	json_run_info(f, m);
	fputs(",\n  \"machine\": ", f);
	sb_json_string(f, r->cpu_desc);
	json_machine_id(f);
	fprintf(f, ",\n  \"cpu\": %d,\n  \"seed\": %llu,\n", r->cpu, (unsigned long long)m->seed);
	if (m->shape) {
		fputs("  \"shape\": ", f);
		sb_json_string(f, m->shape);
		fputs(",\n", f);
	}
	if (m->thunk)
		json_thunk(f, m->thunk);
	if (m->kernel_driver) {
		fputs("  \"kernel_driver\": ", f);
		sb_json_string(f, m->kernel_driver);
		fputs(",\n", f);
	}
	if (m->not_measured) {
		fputs("  \"not_measured\": ", f);
		sb_json_string(f, m->not_measured);
		fputs(",\n", f);
	}
	/* What the CIs hold, and what the tool adds to it. */
	char scope[2400];
	sb_output_past_runs_scope(scope, sizeof(scope), r);
	size_t n = strlen(scope);
	if (m->ci_scope && n < sizeof(scope))
		snprintf(scope + n, sizeof(scope) - n, "; %s", m->ci_scope);
	fputs("  \"ci_scope\": ", f);
	sb_json_string(f, scope);
	fputs(",\n", f);
	json_past_runs(f, m);
	fprintf(f,
		"  \"timer\": {\"kind\": \"%s\", \"reason\": ", sb_timer_kind_name(t->kind));
	sb_json_string(f, t->reason);
	fprintf(f,
		", \"cpuid_rdtscp\": %s, \"rdtscp_executes\": %s, \"cpuid_invariant_tsc\": %s, "
		"\"granularity_ticks\": %llu, \"tsc_hz\": ",
		t->facts.cpuid_rdtscp ? "true" : "false", t->facts.rdtscp_executes ? "true" : "false",
		t->facts.cpuid_invariant_tsc ? "true" : "false",
		(unsigned long long)t->facts.granularity);
	sb_json_number(f, t->facts.tsc_hz);
	fputs(", \"read_cost_ticks\": ", f);
	sb_json_number(f, t->read_cost_ticks);
	fprintf(f, ", \"dithered\": %s},\n", t->needs_dither ? "true" : "false");
	fputs("  \"core_ghz_median\": ", f);
	sb_json_number(f, r->core_ghz_median);
	fputs(",\n  \"canary_adds_per_cycle\": ", f);
	sb_json_number(f, r->canary_median);
	fputs(",\n  \"elapsed_s\": ", f);
	sb_json_number(f, r->elapsed_s);
	fprintf(f, ",\n  \"blocks\": %zu,\n  \"disturbed_blocks\": %zu,\n  \"counters\": [",
		r->n_blocks, r->n_disturbed_blocks);
	for (size_t k = 0; k < r->n_counters; k++) {
		if (k)
			fputs(", ", f);
		sb_json_string(f, r->counter_names[k]);
	}
	fputs("],\n  \"results\": [\n", f);
	int first = 1;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = cell_at(r, i);
		if (!c->arm)
			continue;
		fputs(first ? "    {\"variant\": " : ",\n    {\"variant\": ", f);
		first = 0;
		sb_json_string(f, c->arm->name);
		fputs(", \"seed_name\": ", f);
		sb_json_string(f, c->arm->seed_name);
		json_key(f, &c->arm->key);
		fprintf(f, ",\n     \"batch\": %llu, \"samples\": %zu, \"disturbed_samples\": %zu, "
			   "\"outlier_samples\": %zu, \"code_bytes\": ",
			(unsigned long long)c->batch, c->n_samples, c->n_disturbed, c->n_outliers);
		/* 0 means unknown: null, not a size. */
		sb_json_number(f, c->arm->code_bytes ? (double)c->arm->code_bytes : NAN);
		fputs(", \"overhead_cycles_per_iter\": ", f);
		sb_json_number(f, c->no_samples[0] ? NAN : c->overhead_cycles);
		/* What the CIs resample: the re-rolled states (placements,
		 * loads) the kept blocks ran in, and the fresh processes. */
		fprintf(f, ", \"states\": %zu, \"processes\": %zu", c->n_states, c->n_processes);
		if (c->no_samples[0]) {
			fputs(",\n     \"cycles_per_iter\": null, \"ns_per_iter\": null, \"runs_per_s_M\": null, "
			      "\"no_samples_reason\": ", f);
			sb_json_string(f, c->no_samples);
			if (m->json_result_extra)
				m->json_result_extra(f, c, m->json_extra_ctx);
			fputs("}", f);
			continue;
		}
		fputs(",\n     \"cycles_per_iter\": ", f);
		json_summary(f, &c->cycles);
		fputs(",\n     \"ns_per_iter\": ", f);
		json_summary(f, &c->ns);
		fputs(",\n     \"runs_per_s_M\": {\"mean\": ", f);
		sb_json_number(f, c->runs_per_s_mean);
		fputs(", \"sd\": ", f);
		sb_json_number(f, c->runs_per_s_sd);
		fputs("}", f);
		json_states(f, c);
		json_figures(f, c);
		if (r->n_counters) {
			fputs(", \"counters_per_iter\": {", f);
			for (size_t k = 0; k < r->n_counters; k++) {
				if (k)
					fputs(", ", f);
				sb_json_string(f, r->counter_names[k]);
				fputs(": ", f);
				sb_json_number(f, c->counters[k]);
			}
			fputs("}", f);
		}
		if (m->json_result_extra)
			m->json_result_extra(f, c, m->json_extra_ctx);
		fputs("}", f);
	}
	fputs("\n  ]", f);
	json_placements(f, r);
	if (m->json_extra)
		m->json_extra(f, m->json_extra_ctx);
	fputs("\n}\n", f);
}

static void json_placements(FILE *f, const struct sb_results *r)
{
	if (!r->n_placement_rows)
		return;
	fputs(",\n  \"across_placements\": [", f);
	for (size_t i = 0; i < r->n_placement_rows; i++) {
		const struct sb_placement_row *p = &r->placement_rows[i];
		fputs(i ? ",\n    {\"variant\": " : "\n    {\"variant\": ", f);
		sb_json_string(f, p->variant);
		json_key(f, &p->key);
		fprintf(f, ", \"batch\": %llu, \"placements\": %zu, \"cycles_per_iter\": {\"mean\": ",
			(unsigned long long)p->batch, p->k);
		sb_json_number(f, p->mean);
		fputs(", \"sd\": ", f);
		sb_json_number(f, p->sd);
		fputs(", \"min\": ", f);
		sb_json_number(f, p->min);
		fputs(", \"max\": ", f);
		sb_json_number(f, p->max);
		fputs("}", f);
		json_estimate(f, "delta_vs_baseline_pct", "delta_ci95_pct", &p->delta_pct);
		fputs("}", f);
	}
	fputs("\n  ]", f);
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

static void write_csv(FILE *f, const struct sb_results *r)
{
	fputs("variant,seed_name,batch,samples,disturbed_samples,outlier_samples,code_bytes,"
	      "cycles_mean,cycles_ci_lo,cycles_ci_hi,cycles_median,cycles_min,cycles_trimmed_mean,"
	      "cycles_sd,ns_mean,ns_ci_lo,ns_ci_hi,ns_median,", f);
	csv_figures(f, NULL, 1);
	fputs("core_ghz,timer,tsc_hz,tsc_granularity_ticks,cpuid_rdtscp,rdtscp_executes,machine", f);
	for (size_t k = 0; k < r->n_counters; k++)
		fprintf(f, ",%s", r->counter_names[k]);
	fputc('\n', f);
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = cell_at(r, i);
		if (!c->arm)
			continue;
		char code_bytes[24] = ""; /* unknown: empty, not 0 */
		if (c->arm->code_bytes)
			snprintf(code_bytes, sizeof(code_bytes), "%zu", c->arm->code_bytes);
		if (c->no_samples[0]) { /* no figures: empty fields */
			fprintf(f, "%s,%s,%llu,%zu,%zu,%zu,%s,,,,,,,,,,,,", c->arm->name, c->arm->seed_name,
				(unsigned long long)c->batch, c->n_samples, c->n_disturbed, c->n_outliers, code_bytes);
			csv_figures(f, NULL, 0);
			fprintf(f, "%.4f,%s,%.0f,%llu,%d,%d,\"%s\"", r->core_ghz_median,
				sb_timer_kind_name(r->timer.kind), r->timer.facts.tsc_hz,
				(unsigned long long)r->timer.facts.granularity, r->timer.facts.cpuid_rdtscp,
				r->timer.facts.rdtscp_executes, r->cpu_desc);
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
		fprintf(f, "%.4f,%s,%.0f,%llu,%d,%d,\"%s\"", r->core_ghz_median,
			sb_timer_kind_name(r->timer.kind), r->timer.facts.tsc_hz,
			(unsigned long long)r->timer.facts.granularity, r->timer.facts.cpuid_rdtscp,
			r->timer.facts.rdtscp_executes, r->cpu_desc);
		for (size_t k = 0; k < r->n_counters; k++)
			fprintf(f, ",%.4f", c->counters[k]);
		fputc('\n', f);
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

static void write_table(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
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
		const struct sb_cell *c = cell_at(r, i);
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
}

int sb_output_write(FILE *f, enum sb_format fmt, const struct sb_results *r,
		    const struct sb_output_meta *m)
{
	switch (fmt) {
	case SB_FORMAT_TABLE:
		write_table(f, r, m);
		sb_output_states_note(f, r, m->config && m->config->verbose);
		sb_output_codegen_note(f, r);
		if (m->ci_scope)
			fprintf(f, "# CIs: %s\n", m->ci_scope);
		table_placements(f, r);
		break;
	case SB_FORMAT_SEED:
		for (size_t i = 0; i < r->n_cells; i++) {
			const struct sb_cell *c = cell_at(r, i);
			if (c->arm && c->no_samples[0])
				seed_line_empty(c->arm->seed_name, c->batch, m->name_suffix, c->no_samples);
			else if (c->arm)
				sb_output_seed_line(f, c->arm->seed_name, c->batch, m->name_suffix,
						    c->runs_per_s_mean, c->runs_per_s_sd);
		}
		break;
	case SB_FORMAT_JSON:
		write_json(f, r, m);
		break;
	case SB_FORMAT_CSV:
		write_csv(f, r);
		break;
	case SB_FORMAT_GBENCH:
		sb_output_write_gbench(f, r, m);
		break;
	}
	return ferror(f) || fflush(f) != 0 ? -1 : 0;
}

/* A failed write to stdout already said: the exit check only sets the status. */
static int stdout_failure_said;

void sb_output_write_failed(FILE *f, const char *prog, int err)
{
	fprintf(stderr, "%s: cannot write the results: %s\n", prog, strerror(err));
	if (f == stdout)
		stdout_failure_said = 1;
}

int sb_output_report(FILE *f, enum sb_format fmt, const struct sb_results *r,
		     const struct sb_output_meta *m, const char *prog)
{
	if (sb_output_write(f, fmt, r, m) != 0) {
		fprintf(stderr, "%s: cannot write the results: %s\n", prog, strerror(errno));
		if (f == stdout)
			stdout_failure_said = 1;
		return 1;
	}
	size_t empty = sb_results_count_empty(r);
	if (empty) {
		fprintf(stderr, "%s: %zu of %zu results have no usable samples (n/a above)\n", prog, empty,
			r->n_cells);
		return 1;
	}
	return 0;
}

/* Checked at exit: a full disk, a closed stdout or a reader gone must not
 * pass for success. Like gnulib's close_stdout: a stdout that was closed
 * before the program started and never written to is fine. */
static const char *close_stdout_prog = "stubbench";

static void close_stdout(void)
{
	int pending = __fpending(stdout) > 0;
	int had_error = ferror(stdout);
	int fd = had_error ? dup(STDOUT_FILENO) : -1; /* to ask the output why, below */
	errno = 0;
	if (fclose(stdout) != 0 && (had_error || pending || errno != EBADF)) {
		if (stdout_failure_said)
			_exit(1);
		fprintf(stderr, "%s: cannot write the results to standard output: %s\n", close_stdout_prog,
			errno ? strerror(errno) : "write error");
		_exit(1);
	}
	if (had_error) {
		if (stdout_failure_said)
			_exit(1);
		/* The write that failed is gone with its errno: one byte more on
		 * the broken output says why (ENOSPC, EPIPE, EIO). */
		errno = 0;
		ssize_t w = fd >= 0 ? write(fd, "\n", 1) : -1;
		int why = w < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "%s: cannot write the results to standard output%s%s\n", close_stdout_prog,
			why ? ": " : "", why ? strerror(why) : "");
		_exit(1);
	}
}

void sb_check_stdout_at_exit(const char *prog)
{
	close_stdout_prog = prog;
	/* A closed stdin or stderr gets /dev/null, so that no file opened later
	 * (a perf map, a dump) takes its number and receives messages. A closed
	 * stdout is a failure now: the results would have nowhere to go. */
	if (fcntl(STDIN_FILENO, F_GETFD) < 0 && errno == EBADF)
		(void)!open("/dev/null", O_RDONLY);
	if (fcntl(STDERR_FILENO, F_GETFD) < 0 && errno == EBADF) {
		if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF)
			_exit(1); /* nowhere to say anything */
		(void)!dup2(open("/dev/null", O_WRONLY), STDERR_FILENO);
	}
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
		fprintf(stderr, "%s: cannot write the results to standard output: it is closed\n", prog);
		exit(1);
	}
	atexit(close_stdout);
}

