/* footprint_answer.h: stubbench footprint's lines of the summary
 * (answer.h's sb_answer_fn), from a run's rows alone, so that the live run
 * and `stubbench report` of its JSON print the same lines. */
#ifndef SB_FOOTPRINT_ANSWER_H
#define SB_FOOTPRINT_ANSWER_H

#include <stdio.h>

#include "answer/answer.h"

int sb_footprint_answer(FILE *f, const struct sb_run_file *rf, int max_lines);

#endif
