/* plot_command.c: "stubbench plot RUN.json -o FILE.png|svg": a saved run
 * drawn by gnuplot (src/plot/run_plot.c). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "output/figures.h"
#include "saved/run_file.h"
#include "plot/run_plot.h"

/* The plot group's value. */
static const char *output; /* -o/--output=FILE */

static int figure = SB_PLOT_FIGURE_DEFAULT; /* --figure=NAME */

enum { K_OUTPUT, K_FIGURE };

static int parse_plot_output(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (key == K_FIGURE) {
		figure = sb_figure_index(arg);
		if (figure < 0) {
			snprintf(err, errlen, "--figure: unknown figure '%s' (%s)", arg, sb_figure_names());
			return -1;
		}
		return 0;
	}
	if (!*arg) {
		snprintf(err, errlen, "-o: empty file name");
		return -1;
	}
	output = arg;
	return 0;
}

static const struct sb_cli_group plot_output_group = {
	.title = "Output",
	.options = (const struct sb_cli_option[]){
		{"o", "FILE", K_OUTPUT, "the image: FILE.png or FILE.svg (also --output=FILE)"},
		{"output", "FILE", K_OUTPUT, "the same as -o"},
		{"figure", "NAME", K_FIGURE, "the figure the cost panels and the lab's bars draw: delta-cycles\n"
					   "(default, where the run has it), delta (%), or any other figure"},
		{NULL},
	},
	.parse = parse_plot_output,
};

static int run_plot(struct sb_cli *cli)
{
	if (cli->n_operands != 1 || !output) {
		fprintf(stderr, "stubbench plot: needs one saved run and -o FILE.png|FILE.svg (see --help)\n");
		return EXIT_USAGE;
	}
	if (sb_run_plot_writes(output, cli->operands[0])) {
		fprintf(stderr, "stubbench plot: %s is one of the files a plot to %s writes (the image, its .gp or "
			"its .dat): it would be replaced\n", cli->operands[0], output);
		return EXIT_USAGE;
	}
	struct sb_run_file run;
	char err[1024];
	if (sb_run_file_load(cli->operands[0], &run, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench plot: %s\n", err);
		return EXIT_USAGE;
	}
	int rc = sb_run_plot(&run, output, figure, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "stubbench %s\n", err);
	else
		fprintf(stderr, "stubbench plot: %s written (script and data beside it)\n", output);
	sb_run_file_free(&run);
	return rc;
}

const struct sb_subcommand sb_plot_command = {
	.name = "plot",
	.summary = "Plots a saved run (stubbench, lab or kernel --format=json) with gnuplot.\n"
		   "The gnuplot script FILE.gp and data FILE.dat are written beside the image.",
	.operands = "RUN.json",
	.groups = {&plot_output_group},
	.epilog = "exit status: 0 written, 1 gnuplot missing or failed, 2 bad option or a file\n"
		  "that cannot be read or parsed\n",
	.run = run_plot,
};
