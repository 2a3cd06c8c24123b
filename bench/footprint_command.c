/* footprint_command.c: `stubbench footprint`, how the private stack's cost
 * grows with code footprint (the question behind bpf_prog_pack: many
 * loaded programs, each on its own page, pressure the instruction TLB).
 *
 * For each layout (packed like bpf_prog_pack, spread one copy per 4 KiB
 * page like module_alloc before it) and each number of copies N, every
 * variant is copied N times into one region, the variants' copies
 * interleaved (src/footprint/footprint.c), and the copies are
 * called round-robin, so that each call runs a different copy. The
 * overhead arm runs the same loop over a table of N pointers to one empty
 * stub: the loop and its table loads are removed, the cost of reaching a
 * different copy each time is not. Variants of one (layout, N) are
 * measured interleaved; the delta to the baseline comes from the
 * interleaved pairs as everywhere else. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "stubbench/footprint.h"
#include "stubbench/harness.h"
#include "stubbench/output.h"
#include "stubbench/percpu.h"
#include "stubbench/perf_map.h"
#include "stubbench/pin.h"
#include "stubbench/run_file.h"
#include "stubbench/run_plot.h"
#include "stubbench/timer.h"

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

/* The footprint group's values. */
static struct {
	uint64_t copies[SB_MAX_BATCHES];
	size_t n_copies;
	const char *layout;
} fp = {{1, 10, 100, 1000, 10000}, 5, "packed,spread"};

enum { K_COPIES, K_LAYOUT };

static int parse_footprint(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (key == K_COPIES)
		return sb_parse_batches("--copies", arg, fp.copies, &fp.n_copies, err, errlen);
	int want[SB_FP_N_LAYOUTS];
	if (sb_fp_layout_parse(arg, want, err, errlen) != 0)
		return -1;
	fp.layout = arg;
	return 0;
}

static const struct sb_cli_group footprint_group = {
	.title = "Footprint",
	.options = (const struct sb_cli_option[]){
		{"copies", "LIST", K_COPIES, "copies of each variant (default 1,10,100,1000,10000)"},
		{"layout", "LIST", K_LAYOUT, "packed: back to back in 2 MiB regions, huge pages where the system\n"
					     "gives them (as bpf_prog_pack); spread: one copy per 4 KiB page\n"
					     "(as module_alloc before it); default both"},
		{NULL},
	},
	.parse = parse_footprint,
};

/* One measured row. */
struct fp_row {
	const char *variant;
	const char *baseline;
	uint64_t copies;
	enum sb_fp_layout layout;
	struct sb_summary cycles;
	size_t n_samples;
	struct sb_estimate delta_pct;    /* vs the baseline, % (absent for the baseline) */
	struct sb_estimate delta_cycles; /* the same in cycles per call */
};

struct fp_arm_ctx {
	const sb_stub_fn *table;
	uint64_t n;
	uint64_t cursor;
	uint64_t calls;
};

static uint64_t sample(void *p, uint64_t batch)
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

/* Measures every variant at one (layout, copies). Appends rows. */
static int measure_one(const struct sb_cli *cli, const struct sb_variant *const *vars, size_t n_vars,
		       enum sb_fp_layout layout, uint64_t n, struct sb_rng *rng, double time_s,
		       struct fp_row *rows, size_t *n_rows, struct sb_results *keep, char *notes, size_t notes_len)
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
	if (fc[0].pages_note[0] && !strstr(notes, fc[0].pages_note)) {
		/* One line per distinct fact about the pages. */
		size_t used = strlen(notes);
		snprintf(notes + used, notes_len - used, "%s\n", fc[0].pages_note);
	}
	struct sb_arm arms[1 + FP_MAX_VARIANTS];
	struct fp_arm_ctx ctx[1 + FP_MAX_VARIANTS];
	memset(arms, 0, sizeof(arms));
	memset(ctx, 0, sizeof(ctx));
	char names[FP_MAX_VARIANTS][128];
	ctx[0] = (struct fp_arm_ctx){empty, n, 0, 0};
	arms[0] = (struct sb_arm){.name = "overhead", .seed_name = "overhead", .sample = sample, .ctx = &ctx[0],
				  .is_overhead = 1};
	uint64_t counter_start[FP_MAX_VARIANTS];
	for (size_t v = 0; v < n_vars; v++) {
		snprintf(names[v], sizeof(names[v]), "%s@%s", vars[v]->name, sb_fp_layout_name(layout));
		/* Each variant starts its round at another phase: in lockstep,
		 * the second would call copies whose page-table lines the first
		 * just walked (their copies share pages of page table) and come
		 * out cheaper for being second. */
		ctx[1 + v] = (struct fp_arm_ctx){fc[v].mains, n, v * n / n_vars, 0};
		arms[1 + v] = (struct sb_arm){.name = names[v], .seed_name = names[v], .sample = sample,
					      .ctx = &ctx[1 + v], .is_baseline = v == 0,
					      .code_bytes = fc[v].copy_size};
		counter_start[v] = *vars[v]->counter;
	}
	uint64_t calls = calls_per_sample(n);
	struct fp_counts counts = {vars, n_vars, counter_start, ctx, names};
	struct sb_run_opts ro = {
		.batches = &calls,
		.n_batches = 1,
		.time_s = time_s,
		.samples = cli->cfg.samples,
		.seed = cli->cfg.seed + n,
		.progress = isatty(STDERR_FILENO),
		.verbose = cli->verbose,
		.processes = cli->cfg.processes,
		.child_check = check_counts,
		.check_ctx = &counts,
	};
	struct sb_results res;
	if (sb_run_interleaved(arms, 1 + n_vars, &ro, &res, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s, %llu copies: %s\n", sb_fp_layout_name(layout),
			(unsigned long long)n, err);
		goto out;
	}
	if (check_counts(&counts, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s\n", err);
		sb_results_free(&res);
		goto out;
	}
	const struct sb_cell *base = &res.cells[0];
	for (size_t v = 0; v < n_vars; v++) {
		const struct sb_cell *c = &res.cells[v];
		struct fp_row *r = &rows[(*n_rows)++];
		memset(r, 0, sizeof(*r));
		r->variant = vars[v]->name;
		r->baseline = vars[0]->name;
		r->copies = n;
		r->layout = layout;
		r->n_samples = c->n_samples;
		/* No number without samples behind it (every block disturbed). */
		r->cycles = c->cycles;
		if (!c->n_samples)
			r->cycles.mean = r->cycles.ci_lo = r->cycles.ci_hi = NAN;
		r->delta_pct = r->delta_cycles = sb_estimate_absent("the baseline");
		if (v > 0 && sb_estimate_known(&c->delta_pct) && c->n_samples && base->n_samples) {
			r->delta_pct = c->delta_pct;
			r->delta_cycles = sb_estimate_pct_to_cycles(&c->delta_pct, base->cycles.mean);
		}
	}
	/* The first results keep the machine facts for the header, and the
	 * canaries of all (the busy-core line). */
	if (!keep->cells)
		*keep = res;
	else {
		sb_results_fold_canary(keep, &res);
		keep->n_blocks += res.n_blocks;
		keep->n_disturbed_blocks += res.n_disturbed_blocks;
		sb_results_free(&res);
	}
	rc = 0;
out:
	for (size_t v = 0; v < made; v++)
		sb_fp_free(&fc[v]);
	free(empty);
	return rc;
}

/* A JSON number, or null where there is none (a CI from too few samples). */
static void put_num(FILE *f, const char *key, double x, const char *sep)
{
	if (isfinite(x))
		fprintf(f, "\"%s\": %.4f%s", key, x, sep);
	else
		fprintf(f, "\"%s\": null%s", key, sep);
}

static void write_rows(FILE *f, int format, const struct fp_row *rows, size_t n, const struct sb_results *first,
		       const char *notes)
{
	if (format == SB_FORMAT_JSON) {
		fprintf(f, "{\n  \"tool\": \"stubbench footprint\",\n  \"version\": \"%s\",\n  \"cpu\": %d,\n"
			   "  \"machine\": \"%s\",\n  \"core_ghz\": %.4f,\n  \"unit\": \"core cycles per call\",\n"
			   "  \"pages\": \"",
			SB_VERSION, first->cpu, first->cpu_desc, first->core_ghz_median);
		for (const char *p = notes; *p; p++)
			if (*p == '\n')
				fputs(p[1] ? "; " : "", f);
			else if (*p == '"' || *p == '\\')
				fprintf(f, "\\%c", *p);
			else
				fputc(*p, f);
		fprintf(f, "\",\n  \"rows\": [\n");
		for (size_t i = 0; i < n; i++) {
			const struct fp_row *r = &rows[i];
			fprintf(f, "    {\"variant\": \"%s\", \"copies\": %llu, \"layout\": \"%s\", ", r->variant,
				(unsigned long long)r->copies, sb_fp_layout_name(r->layout));
			put_num(f, "cycles_per_iter", r->cycles.mean, ", ");
			put_num(f, "ci_lo", r->cycles.ci_lo, ", ");
			put_num(f, "ci_hi", r->cycles.ci_hi, ", ");
			fprintf(f, "\"samples\": %zu, \"baseline\": \"%s\", ", r->n_samples, r->baseline);
			if (sb_estimate_known(&r->delta_cycles)) {
				put_num(f, "delta_cycles", r->delta_cycles.value, ", ");
				put_num(f, "delta_ci_lo", r->delta_cycles.lo, ", ");
				put_num(f, "delta_ci_hi", r->delta_cycles.hi, ", ");
				put_num(f, "delta_pct", r->delta_pct.value, "}");
			} else
				fprintf(f, "\"delta_cycles\": null, \"delta_ci_lo\": null, \"delta_ci_hi\": null, "
					   "\"delta_pct\": null}");
			fprintf(f, "%s\n", i + 1 < n ? "," : "");
		}
		fprintf(f, "  ]\n}\n");
		return;
	}
	if (format == SB_FORMAT_CSV) {
		fprintf(f, "variant,copies,layout,cycles_per_iter,ci_lo,ci_hi,samples,baseline,delta_cycles,"
			   "delta_ci_lo,delta_ci_hi,delta_pct\n");
		for (size_t i = 0; i < n; i++) {
			const struct fp_row *r = &rows[i];
			fprintf(f, "%s,%llu,%s,", r->variant, (unsigned long long)r->copies, sb_fp_layout_name(r->layout));
			if (r->n_samples)
				fprintf(f, "%.4f,%.4f,%.4f,", r->cycles.mean, r->cycles.ci_lo, r->cycles.ci_hi);
			else
				fprintf(f, ",,,");
			fprintf(f, "%zu,%s,", r->n_samples, r->baseline);
			if (sb_estimate_known(&r->delta_cycles))
				fprintf(f, "%.4f,%.4f,%.4f,%.3f\n", r->delta_cycles.value, r->delta_cycles.lo,
					r->delta_cycles.hi, r->delta_pct.value);
			else
				fprintf(f, ",,,\n");
		}
		return;
	}
	fprintf(f, "# stubbench footprint on CPU %d of %s; core clock %.3f GHz\n", first->cpu, first->cpu_desc,
		first->core_ghz_median);
	fprintf(f, "# core cycles per call, each call a different copy (round-robin), loop removed; 95 %% CI\n");
	fprintf(f, "# delta: this variant - %s, from the interleaved ratio\n", rows[0].baseline);
	fprintf(f, "%-8s %7s  %-24s %9s  %-20s %-28s\n", "layout", "copies", "variant", "cyc/call", "95% CI",
		"delta [95% CI]");
	for (size_t i = 0; i < n; i++) {
		const struct fp_row *r = &rows[i];
		char ci[48], d[64] = "";
		snprintf(ci, sizeof(ci), "[%.2f, %.2f]", r->cycles.ci_lo, r->cycles.ci_hi);
		if (sb_estimate_known(&r->delta_cycles))
			snprintf(d, sizeof(d), "%+.2f [%+.2f, %+.2f]", r->delta_cycles.value, r->delta_cycles.lo,
				 r->delta_cycles.hi);
		if (!r->n_samples) {
			fprintf(f, "%-8s %7llu  %-24s  no undisturbed samples\n", sb_fp_layout_name(r->layout),
				(unsigned long long)r->copies, r->variant);
			continue;
		}
		fprintf(f, "%-8s %7llu  %-24s %9.2f  %-20s %-28s\n", sb_fp_layout_name(r->layout),
			(unsigned long long)r->copies, r->variant, r->cycles.mean, ci, d);
	}
}

/* Cost vs copies through the project's plot writer (run_plot.c): a line
 * per variant and layout, x = copies. */
static int plot(const char *path, const struct fp_row *rows, size_t n, char *err, size_t errlen)
{
	struct sb_arm *arms = calloc(n, sizeof(*arms));
	char(*names)[128] = calloc(n, sizeof(*names));
	struct sb_cell *cells = calloc(n, sizeof(*cells));
	if (!arms || !names || !cells) {
		free(arms), free(names), free(cells);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%s %s", rows[i].variant, sb_fp_layout_name(rows[i].layout));
		arms[i].name = names[i];
		cells[i].arm = rows[i].n_samples ? &arms[i] : NULL;
		cells[i].batch = rows[i].copies;
		cells[i].cycles = rows[i].cycles;
		cells[i].n_samples = rows[i].n_samples;
	}
	struct sb_results r = {.cells = cells, .n_cells = n, .n_batches = 1};
	sb_machine_description(r.cpu_desc, sizeof(r.cpu_desc));
	struct sb_run_file run;
	int rc = -1;
	if (sb_run_file_from_results(&r, "stubbench footprint", &run) != 0) {
		snprintf(err, errlen, "out of memory");
	} else {
		rc = sb_run_plot(&run, path, err, errlen) == 0 ? 0 : -1;
		sb_run_file_free(&run);
	}
	free(arms), free(names), free(cells);
	return rc;
}

static int run_footprint(struct sb_cli *clip)
{
	const struct sb_cli cli = *clip;
	char err[512];
	int want[SB_FP_N_LAYOUTS];
	if (sb_fp_layout_parse(fp.layout, want, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s\n", err);
		return EXIT_USAGE;
	}
	if (cli.cfg.format == SB_FORMAT_SEED) {
		fprintf(stderr, "stubbench footprint: --format: seed lines have no place for copies and layout "
			"(table, json, csv)\n");
		return EXIT_USAGE;
	}
	const struct sb_variant *vars[FP_MAX_VARIANTS];
	size_t n_vars;
	if (pick_variants(cli.cfg.variants, vars, &n_vars) != 0)
		return EXIT_USAGE;
	for (size_t i = 0; i < fp.n_copies; i++)
		if (fp.copies[i] * SB_FP_PAGE * n_vars > SB_FP_MAX_BYTES) {
			fprintf(stderr, "stubbench footprint: --copies: %llu copies of %zu variants would take more "
				"than 1 GiB spread\n", (unsigned long long)fp.copies[i], n_vars);
			return EXIT_USAGE;
		}
	int cpu;
	if (sb_pin_thread(cli.cfg.cpu, &cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: --cpu: %s\n", err);
		return EXIT_USAGE;
	}
	int need_percpu = 0;
	for (size_t v = 0; v < n_vars; v++)
		need_percpu |= vars[v]->uses_private_stack;
	if (need_percpu && sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench footprint: %s\n", err);
		return 1;
	}
	size_t n_layouts = (size_t)(want[0] + want[1]);
	double time_s = cli.cfg.samples ? 0 : cli.cfg.time_s / (double)(n_layouts * fp.n_copies);
	struct fp_row *rows = calloc(n_layouts * fp.n_copies * n_vars, sizeof(*rows));
	size_t n_rows = 0;
	struct sb_results first;
	memset(&first, 0, sizeof(first));
	char notes[1024] = "";
	struct sb_rng rng;
	sb_rng_seed(&rng, cli.cfg.seed);
	int rc = rows ? 0 : 1;
	for (int l = 0; l < SB_FP_N_LAYOUTS && rc == 0; l++) {
		if (!want[l])
			continue;
		for (size_t i = 0; i < fp.n_copies && rc == 0; i++)
			rc = measure_one(&cli, vars, n_vars, (enum sb_fp_layout)l, fp.copies[i], &rng, time_s, rows,
					 &n_rows, &first, notes, sizeof(notes));
	}
	if (need_percpu && sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench footprint: private stack guard words were overwritten\n");
		rc = 1;
	}
	if (rc == 0) {
		first.cpu = cpu;
		sb_machine_description(first.cpu_desc, sizeof(first.cpu_desc));
		FILE *info = cli.cfg.format == SB_FORMAT_TABLE ? stdout : stderr;
		fputs(notes, info);
		fprintf(info, "perf map: every copy named in %s\n", sb_perf_map_path());
		write_rows(stdout, cli.cfg.format, rows, n_rows, &first, notes);
		sb_output_busy_report(stderr, "stubbench footprint", &first);
		if (cli.plot) {
			if (plot(cli.plot, rows, n_rows, err, sizeof(err)) != 0)
				fprintf(stderr, "stubbench footprint: %s\n", err);
			else
				fprintf(info, "plot: %s\n", cli.plot);
		}
	}
	sb_results_free(&first);
	free(rows);
	if (need_percpu)
		sb_percpu_thread_fini();
	return rc;
}

const struct sb_subcommand sb_footprint_command = {
	.name = "footprint",
	.summary = "Cost per call vs placed copies, packed or spread.\n"
		   "Calls N placed copies of each variant round-robin (each call runs another copy) and\n"
		   "reports core cycles per call, and the cost the private stack adds, as N grows.\n"
		   "--variant: per-run variants, the first is the baseline (default\n"
		   "twin-per-run-baseline,twin-per-run-private); --format: table, json or csv.",
	.groups = {&footprint_group, &sb_cli_variant_group, &sb_cli_cpu_group, &sb_cli_sweep_group,
		   &sb_cli_plot_group},
	.epilog = "Every copy is named in /tmp/perf-<pid>.map for perf.\n",
	.default_processes = 8,
	.run = run_footprint,
};
