/* compare.h: two saved runs side by side: per variant and batch, A, B and
 * the change with a 95 % CI, flagged where the two CIs do not overlap. */
#ifndef STUBBENCH_COMPARE_H
#define STUBBENCH_COMPARE_H

#include <stdio.h>

#include "compare/compare_change.h"
#include "compare/compare_states.h"
#include "saved/run_file.h"

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

#endif
