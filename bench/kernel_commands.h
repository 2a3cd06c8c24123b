/* kernel_commands.h: the modes of `stubbench kernel` beside its built-in
 * shapes, each run with the one run configuration (config.h) and ended by
 * the session (session.h). Each returns the exit status, as stubbench
 * kernel's (2 for an object that cannot be opened or loaded or an unknown
 * program). */
#ifndef STUBBENCH_BENCH_KERNEL_COMMANDS_H
#define STUBBENCH_BENCH_KERNEL_COMMANDS_H

#include <stdio.h>

#include "stubbench/config.h"

/* --obj=FILE --prog=NAME,...: a user's programs (kernel_obj_command.c). */
int sb_kernel_obj_run(const struct sb_config *cfg);
/* Its summary lines (answer.h): per program, the kernel's figure, its
 * twin's verdict and its private stack's cost (kernel_obj_answer.c). */
struct sb_run_file;
int sb_kernel_obj_answer(FILE *f, const struct sb_run_file *rf, int max_lines);

#endif
