/* output_core_states.h: the states of the core beside a run's blocks
 * (sb_output_meta.core_states, state_figures.h) in the table. */
#ifndef STUBBENCH_OUTPUT_CORE_STATES_H
#define STUBBENCH_OUTPUT_CORE_STATES_H

#include <stdio.h>

struct sb_state_figures;

/* The table's "#" line on them: the one state every row was in, or the
 * states seen where there are several (the rows pool them); nothing
 * where s is NULL (the run did not classify its blocks). */
void sb_output_core_states_header(FILE *f, const struct sb_state_figures *s);

/* Where the run saw several states: a row per variant, batch and state
 * with its blocks, codegen and vs base (cycles per call), each with its
 * CI; nothing otherwise. */
void sb_output_core_states_rows(FILE *f, const struct sb_state_figures *s);

#endif
