/* output_codegen.h: what the output says about the codegen and layout
 * costs (output.h): the note under the table and the check that they add
 * up to the cost against the baseline. */
#ifndef STUBBENCH_OUTPUT_CODEGEN_H
#define STUBBENCH_OUTPUT_CODEGEN_H

#include <stdio.h>

#include "stubbench/results.h"

/* Under the table: what the codegen, layout and vs-mainline costs are,
 * and one line per cell with a layout cost: "NAME@BATCH: codegen X [CI] +
 * layout Y [CI]; vs base Z [CI]" (cycles per iteration). */
void sb_output_codegen_note(FILE *f, const struct sb_results *r);
/* Cell c's codegen + layout cost disagrees with its vs base in cycles: the
 * sum's CI (the two CIs' deviations in quadrature) and vs base's do not
 * overlap. 0 where any of the three has no CI. */
int sb_cell_costs_disagree(const struct sb_cell *c);
/* The same on the three estimates: codegen g, layout l, vs base v (a
 * saved run's rows). */
struct sb_estimate;
int sb_costs_disagree(const struct sb_estimate *g, const struct sb_estimate *l, const struct sb_estimate *v);
/* One line naming the cells whose costs disagree (sb_cell_costs_disagree);
 * nothing otherwise. Returns 1 when it printed the line. */
int sb_output_codegen_check_line(FILE *f, const char *tool, const struct sb_results *r);

#endif
