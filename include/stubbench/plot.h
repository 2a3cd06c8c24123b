/* plot.h: cost vs batch size, one line per arm, one panel per shape, drawn
 * by gnuplot (optional: without it the call fails with a one-line reason). */
#ifndef STUBBENCH_PLOT_H
#define STUBBENCH_PLOT_H

#include <stddef.h>

#include "stubbench/harness.h"

/* Writes path (.svg or .png, by its extension) from r: x = batch (log
 * scale), y = core cycles per iteration (mean, 95 % CI as error bars), a
 * line per arm, a panel per shape ("per-run", "in-loop"; an arm that is no
 * registry variant goes to "other"). Lab arms get a dash type per return
 * flavour. Returns 0, or -1 with a one-line reason in err (gnuplot missing
 * or failing, bad extension, nothing to plot, file not written). */
int sb_plot_write(const struct sb_results *r, const char *path, char *err, size_t errlen);

/* The same with other words on it: the title, the axes, and the panel of
 * arms that are no registry variant (x stays log 2, y core cycles). */
struct sb_plot_labels {
	const char *title, *xlabel, *ylabel, *other_panel;
};
int sb_plot_write_labelled(const struct sb_results *r, const char *path, const struct sb_plot_labels *labels,
			   char *err, size_t errlen);

/* Before measuring: is path a plot file this run can write? Returns 0; -1
 * with a reason (not .svg or .png, cannot be created: bad input); or 1
 * when gnuplot is missing (the run can go on without the plot). Leaves no
 * file behind. */
int sb_plot_check_path(const char *path, char *err, size_t errlen);

/* Non-zero when a gnuplot executable is on PATH. */
int sb_plot_have_gnuplot(void);

#endif
