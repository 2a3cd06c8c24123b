/* footprint_run.c: `stubbench footprint`, measured and reported; see
 * footprint_run.h. */
#include "footprint/footprint_run.h"
#include "base/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "footprint/footprint.h"
#include "footprint/footprint_report.h"
#include "harness/harness.h"
#include "base/mitigations.h"
#include "output/output.h"
#include "variants/percpu.h"
#include "base/perf_map.h"
#include "harness/pin.h"
#include "saved/run_file.h"
#include "plot/run_plot.h"
#include "answer/footprint_answer.h"
#include "session/command.h"
#include "session/session.h"
#include "stubbench/timer.h"
#include "output/reporter.h"
#include "stubbench/format.h"

#define FP_MAX_VARIANTS 4
/* Calls per sample: 2048, fewer beyond 1000 copies (down to 256 at 8000
 * and more), where a call costs hundreds of cycles; the cursor carries on
 * from sample to sample, so every copy is called in turn, and a sample
 * stays short enough (well under a scheduler tick) to be undisturbed. */
static uint64_t calls_per_sample(uint64_t copies)
{
	uint64_t c = copies <= 1000 ? 2048 : 2048 * 1000 / copies;
	return c < 256 ? 256 : c;
}

struct fp_arm_ctx {
	const sb_stub_fn *table;
	uint64_t n;
	uint64_t cursor;
	uint64_t calls;
};

static uint64_t run_arm(void *p, uint64_t batch)
{
	struct fp_arm_ctx *c = p;
	c->calls += batch;
	return sb_time_round_robin(c->table, c->n, &c->cursor, batch);
}

static int listed(const struct sb_variant *const *vars, size_t n, const struct sb_variant *v)
{
	for (size_t i = 0; i < n; i++)
		if (vars[i] == v)
			return 1;
	return 0;
}

static int pick_variants(const char *list, const struct sb_variant **out, size_t *n)
{
	char *buf = strdup(strcmp(list, "all") == 0 ? "twin-per-run-baseline,twin-per-run-private" : list);
	int rc = buf ? 0 : -1;
	*n = 0;
	for (char *save = NULL, *t = buf ? strtok_r(buf, ",", &save) : NULL; t && rc == 0;
	     t = strtok_r(NULL, ",", &save)) {
		const struct sb_variant *v = sb_variant_find(t);
		rc = -1;
		if (!v)
			fprintf(stderr, "stubbench footprint: --variant: unknown variant '%s' (see stubbench --list)\n", t);
		else if (v->batch_iters)
			fprintf(stderr, "stubbench footprint: --variant: '%s' is an in-loop variant; footprint calls "
				"per-run main progs\n", t);
		else if (listed(out, *n, v))
			fprintf(stderr, "stubbench footprint: --variant: '%s' listed twice\n", t);
		else if (*n == FP_MAX_VARIANTS)
			fprintf(stderr, "stubbench footprint: --variant: more than %d variants\n", FP_MAX_VARIANTS);
		else
			out[(*n)++] = v, rc = 0;
	}
	free(buf);
	if (rc)
		return -1;
	if (*n == 0) {
		fprintf(stderr, "stubbench footprint: --variant: empty list\n");
		return -1;
	}
	return 0;
}

/* Every call ran a copy: each variant's counter (shared by its copies)
 * advanced by exactly the calls made, in this process. */
struct fp_counts {
	const struct sb_variant *const *vars;
	size_t n_vars;
	const uint64_t *counter_start;
	const struct fp_arm_ctx *ctx; /* ctx[1 + v] */
	char (*names)[128];
};

static int check_counts(void *p, char *err, size_t errlen)
{
	const struct fp_counts *k = p;
	for (size_t v = 0; v < k->n_vars; v++) {
		uint64_t got = *k->vars[v]->counter - k->counter_start[v];
		if (got != k->ctx[1 + v].calls) {
			snprintf(err, errlen, "%s: counter advanced by %llu, expected %llu calls", k->names[v],
				 (unsigned long long)got, (unsigned long long)k->ctx[1 + v].calls);
			return -1;
		}
	}
	return 0;
}

/* Every cell of the run, as footprint_report.h orders them, with the arms
 * the cells point to (kept for the writers after each run's own are gone)
 * and what each cell measured. */
struct fp_run {
	struct sb_results all;
	struct sb_arm *arms;
	char (*names)[128];
	struct sb_fp_cell_key *keys;
	char pages[1024]; /* one line per distinct fact about the pages */
};

/* The arms of one (layout, copies): the overhead arm over a table of n
 * pointers to one empty stub, then each variant over its copies, the
 * first the baseline. Names go to names[v], counters' starts to start[v]. */
static void make_arms(const struct sb_variant *const *vars, size_t n_vars, const struct sb_fp_copies *fc,
		      const sb_stub_fn *empty, uint64_t n, struct sb_arm *arms, struct fp_arm_ctx *ctx,
		      char (*names)[128], uint64_t *start)
{
	memset(arms, 0, (1 + n_vars) * sizeof(*arms));
	memset(ctx, 0, (1 + n_vars) * sizeof(*ctx));
	ctx[0] = (struct fp_arm_ctx){empty, n, 0, 0};
	arms[0] = (struct sb_arm){.name = "overhead", .seed_name = "overhead", .sample = run_arm, .ctx = &ctx[0],
				  .is_overhead = 1};
	for (size_t v = 0; v < n_vars; v++) {
		snprintf(names[v], sizeof(names[v]), "%s@%s/%llu", vars[v]->name, sb_fp_layout_name(fc[v].layout),
			 (unsigned long long)n);
		/* Each variant starts its round at another phase: in lockstep,
		 * the second would call copies whose page-table lines the first
		 * just walked (their copies share pages of page table) and come
		 * out cheaper for being second. */
		ctx[1 + v] = (struct fp_arm_ctx){fc[v].mains, n, v * n / n_vars, 0};
		arms[1 + v] = (struct sb_arm){.name = names[v], .seed_name = names[v], .sample = run_arm,
					      .ctx = &ctx[1 + v], .is_baseline = v == 0,
					      .code_bytes = fc[v].copy_size};
		start[v] = *vars[v]->counter;
	}
}

/* Appends the cells of one (layout, copies) to the run: their arms copied
 * (without the sampler, gone after the run), their keys set. */
static int keep_cells(struct fp_run *run, const struct sb_results *res, const struct sb_arm *arms,
		      const struct sb_variant *const *vars, size_t n_vars, enum sb_fp_layout layout, uint64_t n)
{
	size_t at = run->all.n_cells;
	if (res->n_cells != n_vars || sb_results_append(&run->all, res) != 0)
		return -1;
	for (size_t v = 0; v < n_vars; v++) {
		struct sb_arm *a = &run->arms[at + v];
		*a = arms[1 + v];
		a->sample = NULL;
		a->ctx = NULL;
		a->name = a->seed_name = run->names[at + v];
		run->all.cells[at + v].arm = a;
		run->keys[at + v] = (struct sb_fp_cell_key){vars[v]->name, layout, n, at};
	}
	return 0;
}

/* Measures every variant at one (layout, copies) and appends its cells to
 * the run. Returns 0, or 1 with one line on stderr. */
static int measure_one(const struct sb_config *cfg, const struct sb_variant *const *vars, size_t n_vars,
		       enum sb_fp_layout layout, uint64_t n, struct sb_rng *rng, struct fp_run *run)
{
	char err[512];
	struct sb_fp_copies fc[FP_MAX_VARIANTS];
	memset(fc, 0, sizeof(fc));
	sb_stub_fn *empty = calloc(n, sizeof(*empty));
	int rc = 1;
	if (!empty) {
		fprintf(stderr, "stubbench footprint: out of memory\n");
		return 1;
	}
	for (uint64_t i = 0; i < n; i++)
		empty[i] = sb_empty_stub;
	size_t made = 0;
	if (sb_fp_make_group(vars, n_vars, n, layout, rng, fc, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s\n", err);
		goto out;
	}
	made = n_vars;
	if (fc[0].pages_note[0] && !strstr(run->pages, fc[0].pages_note)) {
		size_t used = strlen(run->pages);
		snprintf(run->pages + used, sizeof(run->pages) - used, "%s\n", fc[0].pages_note);
	}
	struct sb_arm arms[1 + FP_MAX_VARIANTS];
	struct fp_arm_ctx ctx[1 + FP_MAX_VARIANTS];
	uint64_t counter_start[FP_MAX_VARIANTS];
	char(*names)[128] = run->names + run->all.n_cells;
	make_arms(vars, n_vars, fc, empty, n, arms, ctx, names, counter_start);
	uint64_t calls = calls_per_sample(n);
	struct fp_counts counts = {vars, n_vars, counter_start, ctx, names};
	/* Its share of --time (the cells measured one after the other: the
	 * session's budget), one batch of the calls of all copies. */
	struct sb_run_opts ro;
	sb_session_run_opts(cfg, &ro);
	ro.batches = &calls;
	ro.n_batches = 1;
	ro.seed = sb_seed_stream(cfg->measure.seed, SB_SEED_FOOTPRINT, n);
	ro.child_check = check_counts;
	ro.check_ctx = &counts;
	ro.time_is_wall = 0;
	ro.contain = 0;
	struct sb_results res;
	if (sb_run_interleaved(arms, 1 + n_vars, &ro, &res, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s, %llu copies: %s\n", sb_fp_layout_name(layout),
			(unsigned long long)n, err);
		goto out;
	}
	if (check_counts(&counts, err, sizeof(err)) != 0)
		fprintf(stderr, "stubbench footprint: %s\n", err);
	else if (keep_cells(run, &res, arms, vars, n_vars, layout, n) != 0)
		fprintf(stderr, "stubbench footprint: out of memory\n");
	else
		rc = 0;
	sb_results_free(&res);
out:
	for (size_t v = 0; v < made; v++)
		sb_fp_free(&fc[v]);
	free(empty);
	return rc;
}

/* Cost vs copies through the project's plot writer (run_plot.c): a line
 * per variant and layout, x = copies. */
static int plot(const char *path, const struct sb_fp_report *rep, char *err, size_t errlen)
{
	size_t n = rep->res->n_cells;
	struct sb_arm *arms = calloc(n, sizeof(*arms));
	char(*names)[128] = calloc(n, sizeof(*names));
	struct sb_cell *cells = calloc(n, sizeof(*cells));
	if (!arms || !names || !cells) {
		free(arms), free(names), free(cells);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct sb_cell *c = &rep->res->cells[i];
		snprintf(names[i], sizeof(names[i]), "%s %s", rep->keys[i].variant,
			 sb_fp_layout_name(rep->keys[i].layout));
		arms[i].name = names[i];
		cells[i].arm = c->no_samples[0] ? NULL : &arms[i];
		cells[i].batch = rep->keys[i].copies;
		cells[i].cycles = c->cycles;
		cells[i].n_samples = c->n_samples;
	}
	struct sb_results r = {.cells = cells, .n_cells = n, .n_batches = 1};
	snprintf(r.cpu_desc, sizeof(r.cpu_desc), "%s", rep->res->cpu_desc);
	struct sb_run_file run;
	int rc = -1;
	if (sb_run_file_from_results(&r, "stubbench footprint", &run) != 0) {
		snprintf(err, errlen, "out of memory");
	} else {
		rc = sb_run_plot(&run, path, SB_FIGURE_DELTA, err, errlen) == 0 ? 0 : -1;
		sb_run_file_free(&run);
	}
	free(arms), free(names), free(cells);
	return rc;
}

/* The effective options for the JSON document and the record of past
 * runs: the variants measured, the calls per sample as the batch sizes. */
static void as_config(const struct sb_config *run_cfg, const struct sb_footprint_options *o,
		      const struct sb_variant *const *vars, size_t n_vars, char *variants, size_t len,
		      struct sb_config *cfg)
{
	*cfg = *run_cfg;
	size_t used = 0;
	variants[0] = '\0';
	for (size_t v = 0; v < n_vars && used < len; v++)
		used += (size_t)snprintf(variants + used, len - used, "%s%s", v ? "," : "", vars[v]->name);
	cfg->measure.variants = variants;
	cfg->measure.n_batches = 0;
	for (size_t i = 0; i < o->n_copies; i++) {
		uint64_t calls = calls_per_sample(o->copies[i]);
		int seen = 0;
		for (size_t b = 0; b < cfg->measure.n_batches; b++)
			seen |= cfg->measure.batches[b] == calls;
		if (!seen)
			cfg->measure.batches[cfg->measure.n_batches++] = calls;
	}
}

static void table(FILE *f, const struct sb_results *all, const void *ctx)
{
	(void)all;
	sb_fp_report_table(f, ctx);
}

static int plot_rows(const char *path, const struct sb_results *all, const void *ctx, char *err, size_t errlen)
{
	(void)all;
	return plot(path, ctx, err, errlen);
}

/* After the report (session.h's after_report): what the packed region got,
 * and where the copies are named. */
static void pages_lines(FILE *info, const char *format, const struct sb_results *all, const void *ctx)
{
	(void)format;
	(void)all;
	const struct sb_fp_report *rep = ctx;
	fputs(rep->pages, info);
	fprintf(info, "perf map: every copy named in %s\n", rep->perf_map ? rep->perf_map : "none (not written)");
}

/* footprint's own state across the session's steps (command.h). */
struct fp_ctx {
	const struct sb_footprint_options *o;
	const struct sb_variant *vars[FP_MAX_VARIANTS];
	size_t n_vars;
	int want[SB_FP_N_LAYOUTS];
	int cpu;
	struct fp_run run;
	/* The report's: its configuration (as_config), thunk and members. */
	char variants[512];
	struct sb_config report_cfg;
	struct sb_return_thunk thunk;
	struct sb_fp_report rep;
};

/* Bad input: one line and SB_STATUS_USAGE; else 0 with the variants. */
static int check_input(const struct sb_config *cfg, const struct sb_footprint_options *o,
		       const struct sb_variant **vars, size_t *n_vars, int want[SB_FP_N_LAYOUTS])
{
	char err[512];
	if (sb_fp_layout_parse(o->layout, want, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s\n", err);
		return SB_STATUS_USAGE;
	}
	if (!sb_format_is(cfg->out.format, SB_OUT_KEYED)) {
		char keyed[256];
		fprintf(stderr, "stubbench footprint: --format=%s has no place for copies and layout (%s)\n",
			sb_format_name(sb_format_of(cfg->out.format)), sb_format_list(keyed, sizeof(keyed), SB_OUT_KEYED));
		return SB_STATUS_USAGE;
	}
	if (pick_variants(cfg->measure.variants, vars, n_vars) != 0)
		return SB_STATUS_USAGE;
	for (size_t i = 0; i < o->n_copies; i++)
		if (o->copies[i] * SB_FP_PAGE * *n_vars > SB_FP_MAX_BYTES) {
			fprintf(stderr, "stubbench footprint: --copies: %llu copies of %zu variants would take more "
				"than 1 GiB spread\n", (unsigned long long)o->copies[i], *n_vars);
			return SB_STATUS_USAGE;
		}
	return 0;
}

static int fp_validate(const struct sb_config *cfg, void *vctx)
{
	struct fp_ctx *c = vctx;
	return check_input(cfg, c->o, c->vars, &c->n_vars, c->want);
}

/* The thread pinned to cfg->measure.cpu; no replica groups (fp_measure measures
 * the copies). Returns 0, or -1 after one line. */
static int fp_setup(const struct sb_config *cfg, void *vctx, struct sb_group *g)
{
	(void)g;
	struct fp_ctx *c = vctx;
	char err[512];
	if (sb_pin_thread(cfg->measure.cpu, &c->cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s\n", err);
		return -1;
	}
	return 0;
}

/* Every layout and number of copies, one interleaved run each, sharing
 * --time (the session's budget, its ways the runs). Returns 0, or
 * SB_STATUS_FAILED after one line. */
static int fp_measure(const struct sb_config *run_cfg, void *vctx, struct sb_group *g, size_t n)
{
	(void)g, (void)n;
	struct fp_ctx *c = vctx;
	const struct sb_footprint_options *o = c->o;
	char err[512];
	int need_percpu = 0;
	for (size_t v = 0; v < c->n_vars; v++)
		need_percpu |= c->vars[v]->uses_private_stack;
	if (need_percpu && sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s\n", err);
		return SB_STATUS_FAILED;
	}
	struct sb_config cfg = *run_cfg;
	size_t n_layouts = (size_t)(c->want[0] + c->want[1]), n_cells = n_layouts * o->n_copies * c->n_vars;
	cfg.measure.share_ways = n_layouts * o->n_copies;
	struct fp_run *run = &c->run;
	run->arms = calloc(n_cells, sizeof(*run->arms));
	run->names = calloc(n_cells, sizeof(*run->names));
	run->keys = calloc(n_cells, sizeof(*run->keys));
	struct sb_rng rng;
	sb_rng_seed(&rng, cfg.measure.seed);
	int rc = run->arms && run->names && run->keys ? SB_STATUS_OK : SB_STATUS_FAILED;
	if (rc)
		fprintf(stderr, "stubbench footprint: out of memory\n");
	for (int l = 0; l < SB_FP_N_LAYOUTS && rc == 0; l++)
		for (size_t i = 0; i < o->n_copies && rc == 0 && c->want[l]; i++)
			rc = measure_one(&cfg, c->vars, c->n_vars, (enum sb_fp_layout)l, o->copies[i], &rng, run);
	if (need_percpu && sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench footprint: private stack guard words were overwritten\n");
		rc = SB_STATUS_FAILED;
	}
	if (rc == 0) {
		run->all.cpu = c->cpu;
		sb_machine_description(run->all.cpu_desc, sizeof(run->all.cpu_desc));
	}
	return rc;
}

/* The report of a run that measured every cell (nothing after a failure):
 * the effective options as its configuration, footprint's own table,
 * plot and JSON members. */
static void fp_report(struct sb_session *s, struct sb_group *g, size_t n, void *vctx, int rc)
{
	(void)g, (void)n;
	struct fp_ctx *c = vctx;
	const struct sb_footprint_options *o = c->o;
	if (rc != 0)
		return;
	const struct sb_config *run_cfg = s->cfg;
	as_config(run_cfg, o, c->vars, c->n_vars, c->variants, sizeof(c->variants), &c->report_cfg);
	s->cfg = s->meta.config = &c->report_cfg;
	snprintf(s->measurement_extra, sizeof(s->measurement_extra), "layout=%s copies=", o->layout);
	for (size_t i = 0; i < o->n_copies; i++)
		snprintf(s->measurement_extra + strlen(s->measurement_extra),
			 sizeof(s->measurement_extra) - strlen(s->measurement_extra), "%s%llu", i ? "," : "",
			 (unsigned long long)o->copies[i]);
	sb_return_thunk_from_sysfs(&c->thunk);
	c->rep = (struct sb_fp_report){&c->run.all, c->run.keys, c->run.pages, sb_perf_map_path()};
	s->meta.thunk = &c->thunk;
	s->meta.members = sb_fp_report_run_members;
	s->meta.result_members = sb_fp_report_cell_members;
	s->meta.members_ctx = &c->rep;
	s->table = table;
	s->table_ctx = &c->rep;
	s->plot = plot_rows;
	s->answer = sb_footprint_answer;
	s->after_report = pages_lines;
	s->after_ctx = &c->rep;
	/* With the summary alone (its lines first on stdout): on stderr. */
	if (sb_format_is(run_cfg->out.format, SB_OUT_TEXT) && !sb_session_full_report(&run_cfg->out))
		pages_lines(stderr, run_cfg->out.format, &c->run.all, &c->rep);
	sb_session_add(s, &c->run.all, NULL);
}

static void fp_cleanup(void *vctx)
{
	struct fp_ctx *c = vctx;
	sb_results_free(&c->run.all);
	free(c->run.arms), free(c->run.names), free(c->run.keys);
}

static const struct sb_command footprint_command = {
	.tool = "stubbench footprint",
	.validate = fp_validate,
	.setup = fp_setup,
	.measure = fp_measure,
	.report_final = fp_report,
	.cleanup = fp_cleanup,
};

enum sb_status sb_footprint_run(const struct sb_config *cfg, const struct sb_footprint_options *o)
{
	static struct fp_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.o = o;
	return (enum sb_status)sb_command_run(&footprint_command, cfg, &ctx);
}
