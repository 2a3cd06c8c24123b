/* compare_command.c: "stubbench compare A.json B.json": two saved runs
 * side by side (src/report/compare.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stubbench/figures.h"
#include "stubbench/compare.h"
#include "stubbench/run_file.h"

/* The compare group's value. */
static const char *metric_name = "delta";

static int parse_compare(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	(void)key;
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
		{"metric", "M", 0, "delta (default): % vs the baseline of the same run, change in\n"
				   "percentage points; cycles: core cycles per iteration, change in %;\n"
				   "or any other figure of the results (codegen, layout, next-run ...)"},
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
		sb_compare_write(stdout, &a, &b, metric);
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
	.epilog = "exit status: 0 compared, 2 bad option or a file that cannot be read or parsed\n",
	.run = run_compare,
};
