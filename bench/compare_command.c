/* compare_command.c: "stubbench compare A.json B.json": two saved runs
 * side by side (src/report/compare.c). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "stubbench/compare.h"
#include "stubbench/run_file.h"

int sb_compare_command(int argc, char **argv)
{
	struct sb_cli cli;
	int rc = sb_cli_parse(argc, argv, SB_MODE_COMPARE, &cli);
	if (rc) {
		free(cli.files);
		return rc;
	}
	if (cli.help || cli.version) {
		if (cli.help)
			sb_cli_usage(stdout, SB_MODE_COMPARE);
		else
			printf("stubbench %s\n", SB_VERSION);
		free(cli.files);
		return 0;
	}
	if (cli.n_files != 2) {
		fprintf(stderr, "stubbench compare: needs two saved runs, A.json and B.json, got %d (see --help)\n",
			cli.n_files);
		free(cli.files);
		return EXIT_USAGE;
	}
	enum sb_compare_metric metric;
	sb_compare_metric_parse(cli.metric, &metric);
	struct sb_run_file a, b;
	char err[1024];
	rc = 0;
	if (sb_run_file_load(cli.files[0], &a, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench compare: %s\n", err);
		rc = EXIT_USAGE;
	} else if (sb_run_file_load(cli.files[1], &b, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench compare: %s\n", err);
		sb_run_file_free(&a);
		rc = EXIT_USAGE;
	} else {
		sb_compare_write(stdout, &a, &b, metric);
		sb_run_file_free(&a);
		sb_run_file_free(&b);
	}
	free(cli.files);
	return rc;
}
