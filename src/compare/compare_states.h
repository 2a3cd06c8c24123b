/* compare_states.h: two saved runs' core states in `compare`: like is
 * compared with like (docs/core-states.md). */
#ifndef STUBBENCH_COMPARE_STATES_H
#define STUBBENCH_COMPARE_STATES_H

#include <stdio.h>

#include "saved/run_file.h"

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
