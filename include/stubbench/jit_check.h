/* jit_check.h: the kernel's JITed code against its twins. */
#ifndef STUBBENCH_JIT_CHECK_H
#define STUBBENCH_JIT_CHECK_H

#include <stddef.h>
#include <stdio.h>

#include "stubbench/loader.h"

/* JIT check (kernel_jit_check.c): reads every selected program's JIT,
 * names the flavour, compares each function with its twin and, with dir,
 * dumps it. Prints what it finds to f. Returns SB_KERNEL_OK,
 * SB_KERNEL_FAILED (a real mismatch or an unreadable JIT) or
 * SB_KERNEL_NO_PRIV_STACK (no r9 setup where 64 bytes of stack should give
 * one), with one line in why. */
enum sb_kernel_status sb_kernel_check_jit(const struct sb_kernel_obj *o, const int shapes[SB_N_SHAPES],
					  const int want[SB_N_KVARIANTS], const char *dump_dir, FILE *f,
					  char *why, size_t whylen);

#endif
