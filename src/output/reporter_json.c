/* reporter_json.c: the JSON reporter (reporter.h): the run's document,
 * schema stubbench-run (share/schema/stubbench-run.schema.json), the
 * command's own members written from their document (json_doc.h). With
 * the JSON writer (json_writer.c) the only caller of sb_json_*. */
#include "harness/harness.h"
#include "output/reporter.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "stubbench/config.h"
#include "output/figures.h"
#include "stats/core_states.h"
#include "output/json_doc.h"
#include "output/json_writer.h"
#include "base/machine_name.h"
#include "base/mitigations.h"
#include "output/output_states.h"
#include "records/past_runs.h"
#include "base/run_info.h"
#include "harness/sibling.h"

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
	sb_json_string(f, c->measure.variants);
	fputs(", \"batches\": [", f);
	for (size_t i = 0; i < c->measure.n_batches; i++)
		fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)c->measure.batches[i]);
	fputs("], \"time_s\": ", f);
	sb_json_number(f, c->measure.time_s);
	fprintf(f, ", \"samples\": %llu, \"seed\": %llu, \"processes\": %llu, \"cpu\": ",
		(unsigned long long)c->measure.samples, (unsigned long long)c->measure.seed, (unsigned long long)c->measure.processes);
	if (c->measure.cpu >= 0)
		fprintf(f, "%d", c->measure.cpu);
	else
		fputs("null", f);
	fputs(", \"format\": ", f);
	sb_json_string(f, sb_format_of(c->out.format)->name);
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
	/* The core state whose past runs the next-run ranges drew on. */
	if (sb_past_runs_state()) {
		fputs(", \"core_state\": ", f);
		sb_json_string(f, sb_past_runs_state());
	}
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


/* Everything before the results: what made the run, on which machine and
 * timer, what the CIs hold. */
static int json_begin(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	const struct sb_timer_info *t = &r->timer;
	fputs("{\n  \"tool\": ", f);
	sb_json_string(f, m->tool);
	fputs(",\n  \"version\": ", f);
	sb_json_string(f, m->version);
	json_run_info(f, m);
	fputs(",\n  \"machine\": ", f);
	sb_json_string(f, r->cpu_desc);
	if (m->config && m->config->out.host) {
		fputs(",\n  \"host\": ", f);
		sb_json_string(f, m->config->out.host);
	}
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
	return 0;
}

/* The command's own members of result c (sb_output_meta.result_members),
 * from their document. Returns 0, or -1 (errno ENOMEM, nothing written)
 * when the document ran out of memory. */
static int json_result_members(FILE *f, const struct sb_cell *c, const struct sb_output_meta *m)
{
	if (!m->result_members)
		return 0;
	struct sb_doc *doc = sb_doc_new();
	m->result_members(doc, c, m->members_ctx);
	int rc = sb_json_doc_members(f, doc, NULL);
	sb_doc_free(doc);
	if (rc)
		errno = ENOMEM;
	return rc;
}

/* Cell c's figures, each with its CI; null ones where it has no usable
 * samples, with the reason. */
static void json_cell_figures(FILE *f, const struct sb_results *r, const struct sb_cell *c)
{
	if (c->no_samples[0]) {
		fputs(",\n     \"cycles_per_iter\": null, \"ns_per_iter\": null, \"runs_per_s_M\": null, "
		      "\"no_samples_reason\": ", f);
		sb_json_string(f, c->no_samples);
		return;
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
}

/* Every cell's object, batch-major, then the placements' rows. */
static int json_results(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	int first = 1;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = sb_reporter_cell_at(r, i);
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
		/* The core state its blocks were in ("all": several, pooled). */
		if (sb_state_figures_pooled(m->core_states)) {
			fputs(", \"core_state\": ", f);
			sb_json_string(f, sb_state_figures_pooled(m->core_states));
		}
		json_cell_figures(f, r, c);
		if (json_result_members(f, c, m) != 0)
			return -1;
		fputs("}", f);
	}
	fputs("\n  ]", f);
	json_placements(f, r);
	return 0;
}

/* The command's own members: top-level members after the results. */
static int json_members(FILE *f, const struct sb_doc *members)
{
	if (sb_json_doc_members(f, members, "\n  ") != 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

static int json_end(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	(void)r;
	(void)m;
	fputs("\n}\n", f);
	return 0;
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


int sb_reporter_json_doc(FILE *f, const struct sb_doc *v)
{
	if (sb_json_doc(f, v) != 0)
		return -1;
	fputc('\n', f);
	return 0;
}

const struct sb_reporter sb_reporter_json = {
	.begin = json_begin,
	.results = json_results,
	.members = json_members,
	.end = json_end,
};
