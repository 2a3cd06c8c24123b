/* compare_change.h: the change of one figure (or the cycles) from a run A
 * to a run B, with its CI: what `compare` and its core states' rows
 * (compare.h, compare_states.h) are made of. */
#ifndef STUBBENCH_COMPARE_CHANGE_H
#define STUBBENCH_COMPARE_CHANGE_H

#include "saved/run_file.h"

/* What is compared: the cycles per iteration (change in % of A), or a
 * figure of the figure table (figures.h) by its index there (change B - A
 * in its unit, or in % of A: sb_figure.change_as_difference). */
enum sb_compare_metric {
	SB_METRIC_CYCLES = -1,
	SB_METRIC_DELTA = SB_FIGURE_DELTA, /* % vs the baseline of the same run; change in percentage points */
};

/* "cycles" or a figure's name -> metric; -1 when unknown. */
int sb_compare_metric_parse(const char *s, enum sb_compare_metric *out);
/* The metric's name ("cycles", "delta" ...). */
const char *sb_compare_metric_name(enum sb_compare_metric m);
/* 1: the metric's change is B - A in its unit; 0: B / A - 1 in %. */
int sb_compare_as_difference(enum sb_compare_metric m);

struct sb_change {
	struct sb_estimate a, b;  /* the metric in A and in B */
	struct sb_estimate change; /* B - A (delta, pp) or B / A - 1 in % (cycles), 95 % CI */
	int overlap;              /* the CIs of A and B overlap */
};

/* The change from a to b in metric m. The CI of the change treats A and
 * B as independent and adds the two CIs' half-widths (each side) in
 * quadrature, the normal approximation; for cycles, relative half-widths.
 * Returns 0, or -1 when either row lacks the metric or its CI. */
int sb_compare_change(const struct sb_run_row *a, const struct sb_run_row *b, enum sb_compare_metric m,
		      struct sb_change *out);

#endif
