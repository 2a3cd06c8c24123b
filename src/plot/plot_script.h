/* plot_script.h: what the plot writers of run_plot.c share (plot_script.c):
 * the job they draw, text that may go into a gnuplot script (every text of
 * a run through plot_clean_text), the script's first lines, fixed colours
 * and a y range set by the data that matter. Internal to src/plot. */
#ifndef STUBBENCH_PLOT_SCRIPT_H
#define STUBBENCH_PLOT_SCRIPT_H

#include <stddef.h>
#include <stdio.h>

#include "saved/run_file.h"

/* What to draw and where: the script and the data go to files opened by
 * run_plot.c; their names (gp_path, dat_path) and the image's are written
 * into the script so that it reruns by hand. */
struct plot_job {
	const struct sb_run_file *run;
	const char *image, *gp_path, *dat_path;
	const char *term; /* the gnuplot terminal, a printf format taking the height */
	int figure;       /* the figure (figures.h index) the cost panels draw */
};

/* The colours of the script, fixed (gnuplot linetypes 1-8). */
enum plot_colour {
	PLOT_BLUE = 1, PLOT_VERMILLION, PLOT_GREEN, PLOT_PINK, PLOT_ORANGE, PLOT_SKY, PLOT_BLACK, PLOT_GREY
};

/* Only letters, digits, space and -_.,:/+%()[]=@ are kept, anything else
 * (a quote, a newline, a backquote, a backslash, '$', '#', bytes above
 * 0x7f) becomes '_', so that no text of a run can end a string or a line
 * of the script. */
void plot_clean_text(const char *s, char *buf, size_t len);
/* Text of the writers' own in single quotes ('' is a quote). */
void plot_put_quoted(FILE *f, const char *s);
/* A run's text in single quotes, through plot_clean_text. */
void plot_put_label(FILE *f, const char *s);
/* " %.6g", or " NaN". */
void plot_put_num(FILE *f, double v);

/* The script's first lines: where it comes from, the data and image
 * variables, the terminal height pixels tall, the colours, the output, and
 * a multiplot of rows x cols panels under the run's title (tool, machine,
 * kernel, how returns go, date), with gnuplot's layout options (margins,
 * spacing; NULL: none). */
void plot_begin(FILE *gp, const struct plot_job *job, int height, int rows, int cols, const char *layout);
/* The data file's first lines: the run, and what the columns hold. */
void plot_data_header(FILE *dat, const struct plot_job *job, const char *columns);

/* The y range of a panel, from points (value, CI low, CI high): each CI
 * counts up to 3 times the median CI half-width (a CI far wider than the
 * others runs off the axis), zero is included when with_zero, and 8 % of
 * the span is added on each side. */
#define PLOT_RANGE_MAX 256 /* points counted; any more are left out */
struct plot_range {
	int n;
	double v[PLOT_RANGE_MAX], lo[PLOT_RANGE_MAX], hi[PLOT_RANGE_MAX]; /* lo, hi: NAN without a CI */
};
void plot_range_init(struct plot_range *r);
void plot_range_add(struct plot_range *r, double v, double lo, double hi);
/* 0 and [lo, hi] set; -1 when no point was added. */
int plot_range_get(const struct plot_range *r, int with_zero, double *lo, double *hi);

/* The figure's text for an axis: "cycles added per iteration vs baseline" ... */
const char *plot_figure_axis(int figure);

/* The writers: the data to dat, the script to gp. 0, or -1 with one line
 * in err when the run has nothing they draw. */
enum plot_line_kind { PLOT_MAIN, PLOT_KERNEL, PLOT_FOOTPRINT };
int plot_lines(const struct plot_job *job, enum plot_line_kind kind, FILE *dat, FILE *gp, char *err, size_t errlen);
/* The lab (plot_bars.c). */
int plot_bars(const struct plot_job *job, FILE *dat, FILE *gp, char *err, size_t errlen);

#endif
