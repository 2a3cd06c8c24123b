/* plot_command.c: "stubbench plot RUN.json -o FILE.png|svg": a saved run
 * drawn by gnuplot (src/report/run_plot.c). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "stubbench/run_file.h"
#include "stubbench/run_plot.h"

int sb_plot_results(const struct sb_results *r, const char *tool, const char *path)
{
	struct sb_run_file run;
	char err[1024];
	int rc = 0;
	if (sb_run_file_from_results(r, tool, &run) != 0) {
		fprintf(stderr, "%s: no plot: out of memory\n", tool);
		return 1;
	}
	if (sb_run_plot(&run, path, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: no %s\n", tool, err);
		rc = 1;
	} else {
		fprintf(stderr, "%s: plot written to %s (script and data beside it)\n", tool, path);
	}
	sb_run_file_free(&run);
	return rc;
}

/* Before measuring: a --plot that cannot be written is bad input (status
 * 2); without gnuplot the run goes on and says so (*path becomes NULL). */
int sb_plot_check_option(const char *tool, const char **path)
{
	char err[1024];
	int rc = *path ? sb_run_plot_check_path(*path, err, sizeof(err)) : 0;
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", tool, err);
		return 2;
	}
	if (rc > 0) {
		fprintf(stderr, "%s: %s; measuring without it\n", tool, err);
		*path = NULL;
	}
	return 0;
}

int sb_plot_command(int argc, char **argv)
{
	struct sb_cli cli;
	int rc = sb_cli_parse(argc, argv, SB_MODE_PLOT, &cli);
	if (rc) {
		free(cli.files);
		return rc;
	}
	if (cli.help || cli.version) {
		if (cli.help)
			sb_cli_usage(stdout, SB_MODE_PLOT);
		else
			printf("stubbench %s\n", SB_VERSION);
		free(cli.files);
		return 0;
	}
	if (cli.n_files != 1 || !cli.output) {
		fprintf(stderr, "stubbench plot: needs one saved run and -o FILE.png|FILE.svg (see --help)\n");
		free(cli.files);
		return EXIT_USAGE;
	}
	struct sb_run_file run;
	char err[1024];
	if (sb_run_file_load(cli.files[0], &run, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench plot: %s\n", err);
		free(cli.files);
		return EXIT_USAGE;
	}
	rc = sb_run_plot(&run, cli.output, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "stubbench %s\n", err);
	else
		fprintf(stderr, "stubbench plot: %s written (script and data beside it)\n", cli.output);
	sb_run_file_free(&run);
	free(cli.files);
	return rc;
}
