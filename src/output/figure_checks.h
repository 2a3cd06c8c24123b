/* figure_checks.h: figures that would mean nothing as printed, held back
 * or explained before any format sees them (every measuring command, in
 * sb_session_finish):
 *   - a cell whose cycles per iteration have no finite 95 % CI (one kept
 *     sample, or too few blocks) has no figure: its no_samples says why, so
 *     it is n/a in the table, null in JSON, empty in CSV, and the run ends
 *     with status 1;
 *   - a cell whose mean is below zero after the overhead arm's cost was
 *     subtracted (a program cheaper than the empty one) has none either,
 *     "below the subtracted overhead" (sb_cell.below_overhead: the run's
 *     samples were fine, so this alone does not make its status 1);
 *   - a figure of a cell (delta, matched ...) with a value but no finite
 *     CI is absent, and so are the deltas against a baseline without one;
 *   - a delta of 1000 % or more gets a line of its own saying why it is
 *     that large (a baseline near zero after the overhead). */
#ifndef STUBBENCH_FIGURE_CHECKS_H
#define STUBBENCH_FIGURE_CHECKS_H

#include <stdio.h>

#include "stubbench/results.h"

/* The deltas at or above this many % are explained (sb_figure_large_lines). */
#define SB_LARGE_DELTA_PCT 1000.0

/* Applies the rules above to every cell of r. Returns the cells that lost
 * their figure. */
size_t sb_figure_checks(struct sb_results *r);

/* One line on f per delta of SB_LARGE_DELTA_PCT % or more (at most 5, then
 * how many more): the baseline's cost it is a ratio to, and the overhead
 * subtracted from it. */
void sb_figure_large_lines(FILE *f, const char *tool, const struct sb_results *r);

/* A line per cell (the first five, then a count) whose cycles have a mean
 * of zero or more but a CI that reaches below zero once the overhead is
 * subtracted: a cost not told apart from the overhead's, flagged, never
 * quoted as a cost alone. Returns how many. */
size_t sb_figure_below_zero_lines(FILE *f, const char *tool, const struct sb_results *r);

#endif
