/* jit_check.h: the kernel's JITed code against its twins. */
#ifndef STUBBENCH_JIT_CHECK_H
#define STUBBENCH_JIT_CHECK_H

#include <stddef.h>
#include <stdio.h>

#include "kernel/loader.h"

/* JIT check (jit_check.c): reads every selected program's JIT, names
 * the flavour, compares each function with its twin and, with dir, dumps
 * it. Prints what it finds to f. A private or hybrid program whose
 * function with 64 bytes of stack has no r9 setup (the kernel gave it no
 * private stack) is marked in no_priv[shape][variant] and not compared.
 * Returns SB_KERNEL_OK; SB_KERNEL_FAILED (a real mismatch or an unreadable
 * JIT) with one line in why; or SB_KERNEL_NO_PRIV_STACK, every other
 * program as its twin, with what has no private stack in why
 * ("run_private.prog_private, a raw_tp program's function with 64 bytes
 * of stack"): the run measures the rest (docs/no-private-stack.md). */
enum sb_kernel_status sb_kernel_check_jit(const struct sb_kernel_obj *o, const int shapes[SB_N_SHAPES],
					  const int want[SB_N_KVARIANTS], const char *dump_dir, FILE *f,
					  int no_priv[SB_N_SHAPES][SB_N_KVARIANTS], char *why, size_t whylen);

/* The test hook STUBBENCH_TEST_NO_PRIV_STACK=1: every JIT check (kernel,
 * --shape=htab, --obj, the probe) sees no private stack anywhere, as on a
 * kernel that gives none, so the carry-on path runs on any machine;
 * =raw_tp: none in raw_tp programs alone, as on a kernel that gives one to
 * perf_event programs (the kernel run then takes that driver). */
int sb_kernel_test_no_private_stack(void);
/* The hook for a program of BPF type prog_type. */
int sb_kernel_test_no_private_stack_for(int prog_type);
/* The same for the loaded program prog_fd (its type read back). */
int sb_kernel_test_no_private_stack_of(int prog_fd);

#endif
