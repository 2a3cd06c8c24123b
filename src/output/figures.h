/* figures.h: the figures of a result that every writer and reader knows,
 * one row of one table each (figures.c): the table's columns, JSON's
 * members, CSV's columns, a saved run's rows read back (run_file.h),
 * `compare --metric=NAME` and `plot --figure=NAME` all go through it.
 * A figure is an estimate (estimate.h) of a cell: a value with its 95 %
 * CI, or none. docs/adding-a-figure.md adds one. (The cycles and
 * nanoseconds per iteration are summaries with more than a CI, written
 * beside the figures.) */
#ifndef STUBBENCH_FIGURES_H
#define STUBBENCH_FIGURES_H

#include <stddef.h>

#include "stubbench/estimate.h"

struct sb_cell;

/* At most this many figures (a saved run's row holds one estimate each). */
#define SB_MAX_FIGURES 16
/* The first figure of the table: the cost against the baseline, % (the
 * one --placements spreads are drawn from). */
#define SB_FIGURE_DELTA 0
/* The second: the codegen cost at identical layout, cycles. */
#define SB_FIGURE_CODEGEN 1

struct sb_figure {
	const char *name;      /* "delta": what compare --metric and plot --figure take */
	const char *title;     /* "% vs baseline": axes, compare's header */
	const char *unit;      /* after the table's value: "%", or "" (cycles) */
	const char *column;    /* the table's header; NULL: not in the table */
	const char *json;      /* the JSON member of the value: "delta_vs_baseline_pct" */
	const char *json_ci;   /* the JSON member of its [lo, hi]: "delta_ci95_pct" */
	const char *csv;       /* CSV columns NAME, then csv_lo, csv_hi; NULL: not in the CSV */
	const char *csv_lo, *csv_hi;
	/* compare: 1, the change is B - A in the figure's unit (a delta is
	 * already relative); 0, B / A - 1 in %. */
	int change_as_difference;
	/* Where a cell holds it: offsetof(struct sb_cell, its estimate). */
	size_t offset;
	/* 1: a cost against the baseline (none where the baseline has none). */
	int of_baseline;
};

size_t sb_figure_count(void);
const struct sb_figure *sb_figure_at(size_t i);
/* By name; NULL when unknown. */
const struct sb_figure *sb_figure_find(const char *name);
/* Its index in the table (for sb_run_row.figures); -1 when unknown. */
int sb_figure_index(const char *name);
/* The names, comma-separated, for messages ("delta, codegen, ..."). */
const char *sb_figure_names(void);
/* Figure f of cell c (absent where c has none); and where c holds it. */
const struct sb_estimate *sb_figure_of(const struct sb_figure *f, const struct sb_cell *c);
struct sb_estimate *sb_figure_in(const struct sb_figure *f, struct sb_cell *c);

#endif
