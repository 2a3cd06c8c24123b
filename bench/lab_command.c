/* lab_command.c: "stubbench lab": baseline, the mainline private stack and
 * the alternative sequences of the codegen lab, per shape and return
 * flavour, each group interleaved against its own baseline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stubbench/lab_variants.h"
#include "stubbench/past_runs.h"
#include "stubbench/mitigations.h"
#include "stubbench/output.h"
#include "stubbench/percpu.h"

#define MAX_GROUPS (2 * SB_LAB_N_RETURNS)

static const char *shape_name(int in_loop)
{
	return in_loop ? "in-loop" : "per-run";
}

/* Extra code bytes of a lab variant against its baseline for the seed
 * program's shape (one function with three call sites, one return). */
static size_t extra_code_bytes(const struct sb_lab_info *li)
{
	return li->prologue_bytes + 3 * li->call_site_bytes;
}

static void print_code_sizes(FILE *f)
{
	fprintf(f, "# code size, bytes: the alternative against the baseline of the same return\n"
		   "# flavour (prologue+epilogue, per call site, for the seed program with three\n"
		   "# calls), and the return flavour against plain ret (per return, per call site)\n");
	fprintf(f, "%-40s %9s %9s %8s %11s %11s\n", "variant", "prologue", "per call", "program",
		"flav/ret", "flav/call");
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *li = sb_lab_at(i);
		if (li->alt == SB_LAB_BASELINE)
			continue;
		fprintf(f, "%-40s %9u %9u %8zu %11u %11u\n", li->variant->name, li->prologue_bytes,
			li->call_site_bytes, extra_code_bytes(li), li->flavour_return_bytes,
			li->flavour_call_bytes);
	}
}

static int run_lab(struct sb_cli *clip)
{
	struct sb_cli cli = *clip;
	int rc = 0;

	/* The plot's file is checked before anything is measured. */
	if (sb_plot_check_option("stubbench lab", &cli.plot))
		return EXIT_USAGE;

	/* Groups: shape x return flavour; the time budget is for the whole lab. */
	struct group {
		int in_loop;
		enum sb_lab_return ret;
	} groups[MAX_GROUPS];
	size_t n_groups = 0;
	for (int in_loop = 0; in_loop < 2; in_loop++) {
		if (strcmp(cli.shape, "all") && strcmp(cli.shape, shape_name(in_loop)))
			continue;
		for (int r = 0; r < SB_LAB_N_RETURNS; r++)
			groups[n_groups++] = (struct group){in_loop, (enum sb_lab_return)r};
	}
	struct sb_cli gcli = cli;
	gcli.cfg.time_s = cli.cfg.time_s / (double)n_groups;

	/* All groups in one run: their processes take turns, so each group's
	 * span the whole run, not a sixth of it. */
	static struct sb_variant_arms arms[MAX_GROUPS];
	static const struct sb_variant *others[MAX_GROUPS][SB_MAX_ARMS];
	static struct sb_results res[MAX_GROUPS];
	struct sb_group gs[MAX_GROUPS];
	for (size_t g = 0; g < n_groups; g++) {
		gs[g] = (struct sb_group){.others = others[g], .arms = &arms[g], .res = &res[g]};
		for (size_t i = 0; i < sb_lab_count(); i++) {
			const struct sb_lab_info *li = sb_lab_at(i);
			if (li->in_loop != groups[g].in_loop || li->ret != groups[g].ret)
				continue;
			if (li->alt == SB_LAB_BASELINE)
				gs[g].baseline = li->variant;
			else if (gs[g].n_others < SB_MAX_ARMS - 2)
				others[g][gs[g].n_others++] = li->variant;
		}
	}
	rc = sb_measure_groups(&gcli, gs, n_groups);
	/* The record of past runs tells this measurement apart by what changes
	 * its figures. */
	char extra[128], measurement[1024];
	snprintf(extra, sizeof(extra), "shape=%s states=%llu placements=%llu%s", cli.shape,
		 (unsigned long long)cli.states, (unsigned long long)cli.placements, cli.counters ? " counters" : "");
	sb_past_runs_measurement(measurement, sizeof(measurement), "stubbench lab", &cli.cfg, extra);
	struct sb_results *widen[MAX_GROUPS];
	for (size_t g = 0; g < n_groups; g++)
		widen[g] = &res[g];
	if (rc == 0)
		sb_past_runs_apply(stderr, "stubbench lab", measurement, widen, n_groups);
	struct sb_results shape_res[2];
	memset(shape_res, 0, sizeof(shape_res));
	struct sb_results all;
	memset(&all, 0, sizeof(all));
	for (size_t g = 0; g < n_groups; g++) {
		if (rc == 0) {
			for (size_t a = 0; a < arms[g].n; a++) {
				const struct sb_lab_info *li =
					arms[g].ctx[a].v ? sb_lab_info_of(arms[g].ctx[a].v) : NULL;
				if (li)
					arms[g].arms[a].code_bytes = extra_code_bytes(li);
			}
			if (sb_results_append(&shape_res[groups[g].in_loop], &res[g]) || sb_results_append(&all, &res[g]))
				rc = 1;
		}
		sb_results_free(&res[g]);
	}
	/* The SRSO groups' code changes state over longer than a run (where
	 * measured): the CIs say so. */
	const char *note = NULL;
	for (size_t g = 0; g < n_groups; g++)
		if (groups[g].ret == SB_LAB_SRSO)
			note = sb_thunk_time_note(SB_THUNK_SRSO);
	char ci_scope[512];
	if (note)
		snprintf(ci_scope, sizeof(ci_scope), "the srso groups': %s", note);
	int per_shape = cli.cfg.format == SB_FORMAT_TABLE || cli.cfg.format == SB_FORMAT_SEED;
	if (rc == 0 && !per_shape) {
		/* One document for tools; each variant's name says its shape. */
		struct sb_output_meta meta = {.tool = "stubbench lab", .version = SB_VERSION,
					      .seed = cli.cfg.seed, .shape = cli.shape,
					      .config = &cli.cfg, .ci_scope = note ? ci_scope : NULL};
		rc = sb_output_report(stdout, cli.cfg.format, &all, &meta, "stubbench lab");
	}
	if (all.n_cells) {
		sb_output_multimodal_line(stderr, "stubbench lab", &all);
		sb_output_time_line(stderr, "stubbench lab", &all);
		sb_output_cold_line(stderr, "stubbench lab", &all);
		int busy = sb_output_busy_report(stderr, "stubbench lab", &all);
		sb_output_ci_scope_line(stderr, "stubbench lab", note ? ci_scope : NULL);
		if (rc == 0)
			sb_past_runs_remember(stderr, "stubbench lab", measurement, &all, busy);
	}
	if (rc == 0) {
		for (int in_loop = 0; in_loop < 2 && per_shape; in_loop++) {
			if (!shape_res[in_loop].n_cells)
				continue;
			struct sb_output_meta meta = {.tool = "stubbench lab", .version = SB_VERSION,
						      .seed = cli.cfg.seed, .shape = shape_name(in_loop),
						      .config = &cli.cfg, .ci_scope = note ? ci_scope : NULL};
			rc |= sb_output_report(stdout, cli.cfg.format, &shape_res[in_loop], &meta,
					       "stubbench lab");
		}
		if (cli.cfg.format == SB_FORMAT_TABLE)
			print_code_sizes(stdout);
		if (cli.plot)
			rc |= sb_plot_results(&all, "stubbench lab", cli.plot, NULL);
	}
	for (int k = 0; k < 2; k++)
		sb_results_free(&shape_res[k]);
	sb_results_free(&all);
	sb_percpu_thread_fini();
	return rc;
}

const struct sb_subcommand sb_lab_command = {
	.name = "lab",
	.summary = "The codegen lab: alternative private-stack sequences.\n"
		   "Measures baseline, the mainline private stack and the alternative sequences\n"
		   "(reload, callee-saved, spill-once; ret, rethunk, call-depth and SRSO returns).",
	.groups = {&sb_cli_shape_group, &sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_sweep_group,
		   &sb_cli_config_group, &sb_cli_placements_group, &sb_cli_plot_group},
	/* Its 60 variants' copies make each fork dearer; 8, as the kernel run. */
	.default_processes = 8,
	.run = run_lab,
};
