/* private_stack_reason.h: the one-line reason a run gives when its own
 * programs got no private stack, made of what the probe found
 * (private_stack_findings.h): what was established, never a version or
 * architecture guessed as the cause. Plain data in, text out, so the
 * sentence is tested on made-up findings. */
#ifndef STUBBENCH_PRIVATE_STACK_REASON_H
#define STUBBENCH_PRIVATE_STACK_REASON_H

#include <stddef.h>
#include <stdio.h>

#include "kernel/loader.h"
#include "kernel/private_stack_findings.h"

const char *sb_probe_type_name(enum sb_probe_type t);    /* "raw_tp", "tracepoint", ... */
const char *sb_probe_shape_name(enum sb_probe_shape s);  /* "s64", "s256", "m64", "g64", "tail" */
/* "static subprog, 64 bytes", ... */
const char *sb_probe_shape_describe(enum sb_probe_shape s);

/* The sentence that says why `what` (e.g. "run_private.prog_private, a
 * raw_tp program with 64 bytes of stack") has no private stack, from what
 * the probe established: which types got one, which did not, what the
 * JIT's support function returns, and the release only where it predates
 * v6.13 (a fact, not a guess). Always one line. */
void sb_private_stack_probe_reason(const struct sb_private_stack_probe *p, const char *what, char *buf,
				   size_t len);

/* One line per program type: "private-stack probe: raw_tp: s64 rbp, s256 rbp, ...". */
void sb_private_stack_probe_lines(FILE *f, const struct sb_private_stack_probe *p);

/* The probe as parent's member key (json_doc.h): {"release": ...,
 * "jit_supports": ..., "programs": [{"type", "shape", "outcome",
 * "errno"}...]}. */
struct sb_doc;
void sb_private_stack_probe_doc(struct sb_doc *parent, const char *key, const struct sb_private_stack_probe *p);

/* The same in a few words, for a summary line: "given to perf_event
 * programs only", "given to no program type tried". */
void sb_private_stack_probe_short(const struct sb_private_stack_probe *p, char *buf, size_t len);

/* "WHAT_NOT: no private stack (given to perf_event programs only)", the
 * summary's "not measured" text; p NULL: without the parenthesis. */
void sb_kernel_not_measured_as(const char *what_not, const struct sb_private_stack_probe *p, char *buf,
			       size_t len);

/* The summary's "not measured" text of a run whose programs no_priv[shape]
 * [variant] got no private stack: "private, hybrid in the kernel: no
 * private stack (given to perf_event programs only)". p
 * may be NULL (no probe). */
void sb_kernel_not_measured(const int no_priv[SB_N_SHAPES][SB_N_KVARIANTS], const int shapes[SB_N_SHAPES], const struct sb_private_stack_probe *p,
			    char *buf, size_t len);

/* parent's member key: {"without": [programs], "given": bool, "probe":
 * {...} or null}. */
void sb_kernel_private_stack_doc(struct sb_doc *parent, const char *key, const int no_priv[SB_N_SHAPES][SB_N_KVARIANTS], const int shapes[SB_N_SHAPES],
				  const struct sb_private_stack_probe *p);

/* Whether programs of type t get a private stack: 1 (some shape without a
 * tail call did), 0 (every such shape loaded and got none), -1 (unknown). */
int sb_private_stack_probe_type_gets(const struct sb_private_stack_probe *p, enum sb_probe_type t);

#endif
