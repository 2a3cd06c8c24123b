/* compare.h: two saved runs side by side: per variant and batch, A, B and
 * the change with a 95 % CI, flagged where the two CIs do not overlap. */
#ifndef STUBBENCH_COMPARE_H
#define STUBBENCH_COMPARE_H

#include <stdio.h>

#include "stubbench/run_file.h"

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

/* Can a and b be compared in metric m? Not when they are runs of different
 * kinds (tools), when either has no result with samples, when no cell is
 * in both, or when no cell in both has the metric with a CI in both.
 * Returns 0, or -1 with err saying which (one line). */
int sb_compare_check(const struct sb_run_file *a, const struct sb_run_file *b, enum sb_compare_metric m,
		     char *err, size_t errlen);

/* The table of every cell found in both runs (A's order; the same key and
 * batch, or the same name where a run has no keys), then those found in
 * one only (one line each, cut at about 100 columns); a change in % of 1000
 * or more gets a line saying why it is that large. Returns the number of
 * flagged rows (their CIs do not overlap). */
size_t sb_compare_write(FILE *f, const struct sb_run_file *a, const struct sb_run_file *b,
			enum sb_compare_metric m);

/* Were a's and b's rows measured in one core state (state_figures.h)?
 * Yes where both saw the same one, or either did not say (an older run,
 * or unknown); no where they saw different ones, or either saw several
 * (its rows pool them). */
int sb_compare_same_state(const struct sb_run_file *a, const struct sb_run_file *b);

/* The core states in the comparison: where a and b were in one state,
 * nothing (or, where one run has no states, one line saying so);
 * otherwise a line naming each run's states, then per variant, batch and
 * state both runs have figures in, A -> B and the change (codegen, else
 * vs base, cycles per call, B - A with its CI; '*': the CIs do not
 * overlap), and a line per state only one run saw. Returns the number of
 * flagged rows. */
size_t sb_compare_states_write(FILE *f, const struct sb_run_file *a, const struct sb_run_file *b);

#endif
