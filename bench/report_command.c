/* report_command.c: "stubbench report RUN.json": the summary a measuring
 * command prints first (answer.h), from a saved run's JSON document, as
 * the run itself printed it. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "stubbench/answer.h"
#include "stubbench/run_file.h"

/* stubbench kernel --obj's (bench/kernel_obj_answer.c, in the kernel part). */
extern int sb_kernel_obj_answer(FILE *f, const struct sb_run_file *rf, int max_lines) __attribute__((weak));

/* The command's own summary lines, by the tool that wrote the file. */
static sb_answer_fn answer_of(const char *tool)
{
	if (strcmp(tool, "stubbench kernel --obj") == 0)
		return sb_kernel_obj_answer;
	return sb_answer_of(tool);
}

static int run_report(struct sb_cli *cli)
{
	if (cli->n_operands != 1) {
		fprintf(stderr, "stubbench report: needs one saved run (a --format=json document)\n");
		return EXIT_USAGE;
	}
	struct sb_run_file run;
	char err[1024];
	if (sb_run_file_load(cli->operands[0], &run, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench report: %s\n", err);
		return EXIT_USAGE;
	}
	sb_answer_write(stdout, &run, answer_of(run.tool));
	sb_run_file_free(&run);
	return fflush(stdout) == 0 ? 0 : 1;
}

const struct sb_subcommand sb_report_command = {
	.name = "report",
	.summary = "Prints the summary of a saved run (stubbench, lab, kernel or diff --format=json),\n"
		   "as the run printed it first.",
	.operands = "RUN.json",
	.epilog = "exit status: 0 printed, 1 cannot write, 2 a file that cannot be read or parsed\n",
	.run = run_report,
};
