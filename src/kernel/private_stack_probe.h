/* private_stack_probe.h: which programs the running kernel gives a
 * private stack, found by loading small programs of four types
 * (bench/bpf/private_stack_probe.bpf.c) and reading their JIT back (needs
 * BPF). What it found is plain data (private_stack_findings.h); the
 * sentence made of it is private_stack_reason.h's. */
#ifndef STUBBENCH_PRIVATE_STACK_PROBE_H
#define STUBBENCH_PRIVATE_STACK_PROBE_H

#include <stddef.h>
#include <stdio.h>

#include "kernel/private_stack_findings.h"

/* Loads every probe program on its own and reads its JIT. Returns 0 (the
 * outcomes filled in, a refused load is an outcome), or -1 with one line
 * in err when nothing could be probed. */
int sb_private_stack_probe_run(struct sb_private_stack_probe *p, char *err, size_t errlen);

/* Runs the probe (its lines on info), and makes the one-line reason why
 * `what` (sb_kernel_check_jit's why) has no private stack into buf; with
 * the test hook STUBBENCH_TEST_NO_PRIV_STACK the line says so. Returns 0
 * with *p filled in, or -1 when the probe could not run (the line then
 * says that). */
int sb_kernel_no_private_stack_reason(const char *what, struct sb_private_stack_probe *p, char *buf, size_t len,
				      FILE *info);

/* The probe run, its lines on info, and the one-line reason on say
 * ("stubbench kernel: no private stack: ..."; stderr, or nowhere when the
 * terminal gets the summary alone). Returns 1 with *p filled in, 0 when
 * the probe could not run. */
int sb_kernel_say_no_private_stack(const char *what, FILE *info, FILE *say, struct sb_private_stack_probe *p);

#endif
