/* kernel_obj_run.h: `stubbench kernel --obj=FILE --prog=NAME,...`, a
 * user's BPF object measured like the project's own programs: loaded
 * --loads times per batch size, its programs run with BPF_PROG_TEST_RUN
 * and their JIT read back; beside them the kernel's own A/B (the programs
 * with a private stack loaded again as syscall programs) and, with the
 * STUBBENCH_DEPRIVATIZE part, their auto-twins and the private stack's
 * cost at identical layout. Ended by the session (session.h); its summary
 * is kernel_obj_answer.h's. */
#ifndef STUBBENCH_KERNEL_OBJ_RUN_H
#define STUBBENCH_KERNEL_OBJ_RUN_H

#include "stubbench/config.h"
#include "kernel/loader.h"

/* The run of cfg->kernel.obj's programs cfg->kernel.progs with the run configuration
 * cfg (one process: the programs' counters are read in it). Returns the
 * exit status of stubbench kernel: SB_KERNEL_USAGE for an object that
 * cannot be opened or loaded or an unknown program, SB_KERNEL_NO_PRIV_STACK
 * where the kernel gave a function with the stack for one no private
 * stack (the rest measured), the others as loader.h says. */
/* driver: an enum sb_kernel_driver, or SB_KERNEL_DRIVER_AUTO (kernel_run.h):
 * test runs of the programs' own types, or where they get no private
 * stack and perf_event programs do, the programs loaded again as
 * perf_event programs, each run by a page fault (said in one line). */
enum sb_kernel_status sb_kernel_obj_run(const struct sb_config *cfg, int driver);

#endif
