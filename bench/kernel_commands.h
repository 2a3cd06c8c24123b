/* kernel_commands.h: the modes of `stubbench kernel` beside its built-in
 * shapes, each run with the one run configuration (config.h) and ended by
 * the session (session.h). Each returns the exit status, as stubbench
 * kernel's (2 for an object that cannot be opened or loaded or an unknown
 * program). */
#ifndef STUBBENCH_BENCH_KERNEL_COMMANDS_H
#define STUBBENCH_BENCH_KERNEL_COMMANDS_H

#include <stdio.h>

#include "stubbench/config.h"

/* --obj=FILE --prog=NAME,...: a user's programs. */
#include "kernel_commands/kernel_obj_run.h"

#endif
