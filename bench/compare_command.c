/* compare_command.c: "stubbench compare A.json B.json": two saved runs
 * side by side (src/compare/compare.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output/figures.h"
#include "compare/compare.h"
#include "saved/run_file.h"

/* The compare group's values. */
static const char *metric_name = "delta";
static int fail_on_change;

enum { KEY_METRIC, KEY_FAIL_ON_CHANGE };

static int parse_compare(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (key == KEY_FAIL_ON_CHANGE) {
		fail_on_change = 1;
		return 0;
	}
	enum sb_compare_metric m;
	if (sb_compare_metric_parse(arg, &m) != 0) {
		snprintf(err, errlen, "--metric: unknown metric '%s' (cycles, %s)", arg, sb_figure_names());
		return -1;
	}
	metric_name = arg;
	return 0;
}

static const struct sb_cli_group compare_group = {
	.title = "Compare",
	.options = (const struct sb_cli_option[]){
		{"metric", "M", KEY_METRIC, "delta (default): % vs the baseline of the same run, change in\n"
				   "percentage points; cycles: core cycles per iteration, change in %;\n"
				   "or any other figure of the results (codegen, layout, next-run ...)"},
		{"fail-on-change", NULL, KEY_FAIL_ON_CHANGE,
		 "exit with status 1 when a row changed beyond its CI (the CIs of A\n"
		 "and B do not overlap)"},
		{NULL},
	},
	.parse = parse_compare,
};

static int run_compare(struct sb_cli *cli)
{
	if (cli->n_operands != 2) {
		fprintf(stderr, "stubbench compare: needs two saved runs, A.json and B.json, got %d (see --help)\n",
			cli->n_operands);
		return EXIT_USAGE;
	}
	enum sb_compare_metric metric;
	sb_compare_metric_parse(metric_name, &metric);
	struct sb_run_file a, b;
	char err[1024];
	int rc = 0;
	if (sb_run_file_load(cli->operands[0], &a, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench compare: %s\n", err);
		rc = EXIT_USAGE;
	} else if (sb_run_file_load(cli->operands[1], &b, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench compare: %s\n", err);
		sb_run_file_free(&a);
		rc = EXIT_USAGE;
	} else {
		if (sb_compare_check(&a, &b, metric, err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench compare: cannot compare: %s\n", err);
			rc = EXIT_USAGE;
		} else if (sb_compare_write(stdout, &a, &b, metric) > 0 && fail_on_change) {
			rc = 1;
		}
		sb_run_file_free(&a);
		sb_run_file_free(&b);
	}
	return rc;
}

const struct sb_subcommand sb_compare_command = {
	.name = "compare",
	.summary = "Compares two saved runs (stubbench, lab or kernel --format=json).\n"
		   "Per variant and batch: A, B and the change with a 95 % CI; '*' where the CIs\n"
		   "do not overlap.",
	.operands = "A.json B.json",
	.groups = {&compare_group},
	.epilog = "exit status: 0 compared (with --fail-on-change: and no row changed beyond its CI);\n"
		  "1 with --fail-on-change, a row changed beyond its CI; 2 bad option, a file that\n"
		  "cannot be read or parsed, or runs that cannot be compared (different kinds,\n"
		  "no cell in common, no samples), said in one line\n",
	.run = run_compare,
};
