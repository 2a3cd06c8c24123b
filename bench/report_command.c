/* report_command.c: "stubbench report RUN.json": the summary a measuring
 * command prints first (answer.h), from a saved run's JSON document, as
 * the run itself printed it; "stubbench report A.json B.json ...": the
 * runs side by side, a row per machine (across_runs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "compare/across_runs.h"
#include "stubbench/parse.h"
#include "answer/answer.h"
#include "saved/run_file.h"
#include "saved/state_figures.h"


/* The report group's values: the table across runs. */
static struct sb_across_options across;
static int across_asked, format_given, batch_given;
static char *variant_buf, **variant_items;
/* --from-blocks, --quiet-levels: one run estimated again from its blocks log. */
static const char *from_blocks, *quiet_levels;

enum { KEY_FORMAT, KEY_BATCH, KEY_VARIANT, KEY_FROM, KEY_QUIET, KEY_WIDTH };

static int parse_report(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (key == KEY_FROM || key == KEY_QUIET) {
		if (!*arg)
			return snprintf(err, errlen, "--%s: needs a file name", key == KEY_FROM ? "from-blocks" :
				       "quiet-levels"), -1;
		*(key == KEY_FROM ? &from_blocks : &quiet_levels) = arg;
		return 0;
	}
	across_asked = 1;
	if (key == KEY_FORMAT) {
		format_given = 1;
		static const char *const names[] = {"text", "markdown", "json"};
		for (int i = 0; i < 3; i++)
			if (strcmp(arg, names[i]) == 0) {
				across.format = (enum sb_across_format)i;
				return 0;
			}
		snprintf(err, errlen, "--format: unknown format '%s' (text, markdown, json)", arg);
		return -1;
	}
	if (key == KEY_WIDTH) {
		uint64_t w;
		if (sb_parse_u64_range("--width", arg, 40, 1000, &w, err, errlen) != 0)
			return -1;
		across.width = (int)w;
		return 0;
	}
	if (key == KEY_BATCH) {
		batch_given = 1;
		if (sb_parse_u64_range("--batch", arg, 1, 1u << 20, &across.batch, err, errlen) != 0)
			return -1;
		return 0;
	}
	int n = sb_parse_names("--variant", arg, &variant_buf, &variant_items, err, errlen);
	if (n < 0)
		return -1;
	across.variants = variant_items;
	across.n_variants = (size_t)n;
	return 0;
}

static const struct sb_cli_group report_group = {
	.title = "Runs side by side (two runs or more, or any of these)",
	.options = (const struct sb_cli_option[]){
		{"format", "F", KEY_FORMAT, "text (default: within --width, for a mail), markdown (for web pages:\n"
					    "one wide table with every CI) or json"},
		{"width", "N", KEY_WIDTH, "the text form within N columns (default 100; 80 for a mail\n"
					  "reply: a row then takes two lines)"},
		{"batch", "N", KEY_BATCH, "the batch size to compare at (default: the largest all runs have;\n"
					  "none: the one most have, the runs without it named and left out)"},
		{"variant", "LIST", KEY_VARIANT, "the variants to put side by side (default: those two runs have)"},
		{"from-blocks", "LOG", KEY_FROM, "estimate the run again from LOG, its --blocks log, per state of\n"
						 "the core beside its blocks (docs/core-states.md); a kernel run:\n"
						 "its summary with the figures by load (docs/kernel-verdict.md)"},
		{"quiet-levels", "FILE", KEY_QUIET, "with --from-blocks: the record of quiet canary levels that\n"
						    "says which state is quiet (default: none)"},
		{NULL},
	},
	.parse = parse_report,
};

/* The index of an operand before i that is the same file as operand i
 * (the same device and inode: the same path, a hard link, a symbolic
 * link), or -1. */
static int same_file_before(const struct stat *st, int i)
{
	for (int k = 0; k < i; k++)
		if (st[k].st_ino && st[k].st_dev == st[i].st_dev && st[k].st_ino == st[i].st_ino)
			return k;
	return -1;
}

static int report_across(struct sb_cli *cli)
{
	struct sb_run_file *runs = calloc((size_t)cli->n_operands, sizeof(*runs));
	struct stat *st = calloc((size_t)cli->n_operands, sizeof(*st));
	char err[1024];
	int rc = runs && st ? 0 : 1, loaded = 0;
	if (!runs || !st)
		fprintf(stderr, "stubbench report: out of memory\n");
	/* One run given twice is one run: counted once, said in one line. */
	for (int i = 0; rc == 0 && i < cli->n_operands; i++) {
		if (stat(cli->operands[i], &st[i]) != 0)
			memset(&st[i], 0, sizeof(st[i]));
		int k = same_file_before(st, i);
		if (k >= 0) {
			fprintf(stderr, "stubbench report: %s is %s (the same file): counted once\n", cli->operands[i],
				cli->operands[k]);
			continue;
		}
		if (sb_run_file_load(cli->operands[i], &runs[loaded], err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench report: %s\n", err);
			rc = EXIT_USAGE;
			break;
		}
		loaded++;
	}
	if (rc == 0 && (rc = sb_across_runs(stdout, runs, (size_t)loaded, &across, err, sizeof(err))) != 0)
		fprintf(stderr, "stubbench report: %s\n", err);
	for (int i = 0; runs && i < loaded; i++)
		sb_run_file_free(&runs[i]);
	free(runs);
	free(st);
	free(variant_buf);
	free(variant_items);
	return rc ? rc : fflush(stdout) == 0 ? 0 : 1;
}

static int run_report(struct sb_cli *cli)
{
	if (cli->n_operands < 1) {
		fprintf(stderr, "stubbench report: needs a saved run (a --format=json document), or several\n");
		return EXIT_USAGE;
	}
	if ((from_blocks && cli->n_operands > 1) || (quiet_levels && !from_blocks)) {
		fprintf(stderr, "stubbench report: %s\n", quiet_levels && !from_blocks ?
			"--quiet-levels: only with --from-blocks" : "--from-blocks: one run (RUN.json) and its log");
		return EXIT_USAGE;
	}
	/* What --from-blocks does not apply to is refused, never ignored. */
	if (from_blocks && (batch_given || (format_given && across.format == SB_ACROSS_MARKDOWN))) {
		fprintf(stderr, "stubbench report: %s does not apply with --from-blocks (every batch size is "
				"reported; formats: text, json)\n", batch_given ? "--batch" : "--format=markdown");
		return EXIT_USAGE;
	}
	if (from_blocks) {
		int rc = sb_report_from_blocks(stdout, cli->operands[0], from_blocks, quiet_levels,
					       across.format == SB_ACROSS_JSON, variant_items, across.n_variants);
		free(variant_buf);
		free(variant_items);
		return rc;
	}
	if (cli->n_operands > 1 || across_asked)
		return report_across(cli);
	struct sb_run_file run;
	char err[1024];
	if (sb_run_file_load(cli->operands[0], &run, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench report: %s\n", err);
		return EXIT_USAGE;
	}
	sb_answer_write(stdout, &run, sb_answer_of_tool(run.tool));
	sb_run_file_free(&run);
	return fflush(stdout) == 0 ? 0 : 1;
}

const struct sb_subcommand sb_report_command = {
	.name = "report",
	.summary = "Prints the summary of a saved run (stubbench, lab, kernel or diff --format=json),\n"
		   "as the run printed it first. Given several runs, one table of them side by side:\n"
		   "a row per machine, what each variant adds per call at one batch size.",
	.operands = "RUN.json [RUN.json ...]",
	.groups = {&report_group},
	.epilog = "exit status: 0 printed, 1 cannot write, 2 a file that cannot be read or parsed, or\n"
		  "runs with nothing to put side by side (no batch all have, no variant two have)\n",
	.run = run_report,
};
