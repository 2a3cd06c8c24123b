/* kernel_obj_answer.h: the summary lines of `stubbench kernel --obj`
 * (answer.h's sb_answer_fn), from a run's rows alone, so that the live run
 * and `stubbench report` of its saved JSON print the same. */
#ifndef STUBBENCH_KERNEL_OBJ_ANSWER_H
#define STUBBENCH_KERNEL_OBJ_ANSWER_H

#include <stdio.h>

#include "saved/run_file.h"

/* Per program at the largest batch: the kernel's figure (against the
 * first program), its placed twin's verdict, and its private stack's cost
 * (its twin against its de-privatized self at identical layout, the
 * kernel's own A/B). At most max_lines; returns the lines printed. */
int sb_kernel_obj_answer(FILE *f, const struct sb_run_file *rf, int max_lines);

#endif
