/* run_plot.h: a run drawn by gnuplot, from a saved JSON document or from
 * results in memory (sb_run_file_from_results): the main sweep (cost per
 * iteration vs batch per variant, and its cost vs the baseline, with
 * CIs), the kernel run (per shape and codegen, the cost added in the
 * kernel, in the twin and in the placed twin, one colour per side), the
 * lab (ranked bars: per return flavour and shape, the alternatives' cost
 * vs their baseline, cheapest first). Axes are set by batch >= 64 when
 * the small batches sit far apart; docs/plots.md shows each. Machine,
 * kernel, thunk and date go in the title. IMAGE.gp (the gnuplot script)
 * and IMAGE.dat (its data) are written beside IMAGE, then gnuplot runs
 * the script. */
#ifndef STUBBENCH_RUN_PLOT_H
#define STUBBENCH_RUN_PLOT_H

#include <stddef.h>

#include "saved/run_file.h"

/* The cost panels' figure when none is asked for: the cycles vs baseline
 * ("delta-cycles") where the run has them, else the % ("delta"). */
#define SB_PLOT_FIGURE_DEFAULT (-1)

/* Returns 0 when IMAGE was written; 2 for bad input (the name does not end
 * in .png or .svg, nothing to plot, a file that cannot be written); 1 when
 * gnuplot is missing or fails (the .gp and .dat are still written). One
 * line saying why in err. figure: the figure (figures.h index) the cost
 * panels and the lab's bars draw, or SB_PLOT_FIGURE_DEFAULT. */
int sb_run_plot(const struct sb_run_file *run, const char *image, int figure, char *err, size_t errlen);

/* Before measuring: can this run write image? Returns 0; -1 with a reason
 * (not .png or .svg, cannot be created: bad input); 1 when gnuplot is
 * missing (the run can go on without the plot). Leaves no file behind. */
int sb_run_plot_check_path(const char *image, char *err, size_t errlen);
/* 1 when path is one of the files a plot of image writes (the image, its
 * .gp script, its .dat data), 0 otherwise. */
int sb_run_plot_writes(const char *image, const char *path);

/* --plot=FILE of a run just measured (plot_results.c): r drawn as
 * sb_run_plot draws a saved run, thunk (may be NULL) in the title; says on
 * stderr what it wrote or why not, prefixed with tool. Returns 0, or 1
 * when the plot was not written. */
struct sb_results;
struct sb_return_thunk;
int sb_plot_results(const struct sb_results *r, const char *tool, const char *path,
		    const struct sb_return_thunk *thunk);
/* Before measuring: --plot=*path must be a .png or .svg file that can be
 * written (else one line, returns 2); without gnuplot it says so and sets
 * *path to NULL, and the run goes on. Returns 0 otherwise. */
int sb_plot_check_option(const char *tool, const char **path);

#endif
