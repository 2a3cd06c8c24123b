/* run_plot.h: a run drawn by gnuplot, from a saved JSON document or from
 * results in memory (sb_run_file_from_results): the main sweep (cost per
 * iteration vs batch per variant, and the delta vs baseline with its CI
 * and the spread over placements or steady states), the kernel run (the
 * delta of kernel, twin and placed twin per shape, with the range over
 * loads), the lab (one panel per shape and return flavour, legend below).
 * Machine, kernel, thunk and date go in the title. IMAGE.gp (the gnuplot
 * script) and IMAGE.dat (its data) are written beside IMAGE, then gnuplot
 * runs the script. */
#ifndef STUBBENCH_RUN_PLOT_H
#define STUBBENCH_RUN_PLOT_H

#include <stddef.h>

#include "stubbench/run_file.h"

/* Returns 0 when IMAGE was written; 2 for bad input (the name does not end
 * in .png or .svg, nothing to plot, a file that cannot be written); 1 when
 * gnuplot is missing or fails (the .gp and .dat are still written). One
 * line saying why in err. */
int sb_run_plot(const struct sb_run_file *run, const char *image, char *err, size_t errlen);

/* Before measuring: can this run write image? Returns 0; -1 with a reason
 * (not .png or .svg, cannot be created: bad input); 1 when gnuplot is
 * missing (the run can go on without the plot). Leaves no file behind. */
int sb_run_plot_check_path(const char *image, char *err, size_t errlen);

#endif
