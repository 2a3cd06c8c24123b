/* private_stack_probe.h: which programs the running kernel gives a
 * private stack, found by loading small programs of four types
 * (bench/bpf/private_stack_probe.bpf.c) and reading their JIT back, and
 * the one-line reason a run gives when its own programs got none: what
 * was established, never a version or architecture guessed as the cause.
 *
 * The reading (sb_private_stack_probe_run) needs BPF; what it found and
 * the sentence made of it (sb_private_stack_probe_reason) are plain data,
 * so the sentence is tested on made-up findings. */
#ifndef STUBBENCH_PRIVATE_STACK_PROBE_H
#define STUBBENCH_PRIVATE_STACK_PROBE_H

#include <stddef.h>
#include <stdio.h>

#include "stubbench/loader.h"

enum sb_probe_type {
	SB_PROBE_RAW_TP,
	SB_PROBE_TRACEPOINT,
	SB_PROBE_KPROBE,
	SB_PROBE_PERF_EVENT,
	SB_PROBE_N_TYPES
};

/* The function with the big stack: a static subprog of 64 or 256 bytes,
 * the program itself with 64, a global subprog with 64, or the program
 * with 64 and a tail call (given none upstream). */
enum sb_probe_shape {
	SB_PROBE_S64,
	SB_PROBE_S256,
	SB_PROBE_M64,
	SB_PROBE_G64,
	SB_PROBE_TAIL,
	SB_PROBE_N_SHAPES
};

/* One probe program's outcome. */
enum sb_probe_outcome {
	SB_PROBE_NOT_RUN = 0,
	SB_PROBE_PRIVATE,   /* its big function sets up r9 */
	SB_PROBE_RBP,       /* loaded, JITed, no r9 setup: an rbp frame */
	SB_PROBE_REFUSED,   /* the load failed (errno kept) */
	SB_PROBE_UNREAD,    /* loaded, but its JIT could not be read */
};

/* What bpf_jit_supports_private_stack() is in this kernel's text. */
enum sb_probe_jit_support {
	SB_JIT_SUPPORT_UNKNOWN = 0, /* not read (no kallsyms addresses, no BPF) */
	SB_JIT_SUPPORT_ABSENT,      /* no such symbol in /proc/kallsyms */
	SB_JIT_SUPPORT_TRUE,        /* its text starts with mov eax, 1 */
	SB_JIT_SUPPORT_FALSE,       /* its text starts with xor eax, eax */
	SB_JIT_SUPPORT_OTHER,       /* present, its text neither of those */
};

struct sb_private_stack_probe {
	enum sb_probe_outcome outcome[SB_PROBE_N_TYPES][SB_PROBE_N_SHAPES];
	int load_errno[SB_PROBE_N_TYPES][SB_PROBE_N_SHAPES];
	enum sb_probe_jit_support jit_support;
	char release[65]; /* uname -r */
};

const char *sb_probe_type_name(enum sb_probe_type t);    /* "raw_tp", "tracepoint", ... */
const char *sb_probe_shape_name(enum sb_probe_shape s);  /* "s64", "s256", "m64", "g64", "tail" */
/* "static subprog, 64 bytes", ... */
const char *sb_probe_shape_describe(enum sb_probe_shape s);

/* Loads every probe program on its own and reads its JIT. Returns 0 (the
 * outcomes filled in, a refused load is an outcome), or -1 with one line
 * in err when nothing could be probed. */
int sb_private_stack_probe_run(struct sb_private_stack_probe *p, char *err, size_t errlen);

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

/* Runs the probe (its lines on info), and makes the one-line reason why
 * `what` (sb_kernel_check_jit's why) has no private stack into buf; with
 * the test hook STUBBENCH_TEST_NO_PRIV_STACK the line says so. Returns 0
 * with *p filled in, or -1 when the probe could not run (the line then
 * says that). */
int sb_kernel_no_private_stack_reason(const char *what, struct sb_private_stack_probe *p, char *buf, size_t len,
				      FILE *info);

/* The probe run, its lines on info, and the one-line reason on stderr
 * ("stubbench kernel: no private stack: ..."). Returns 1 with *p filled
 * in, 0 when the probe could not run. */
int sb_kernel_say_no_private_stack(const char *what, FILE *info, struct sb_private_stack_probe *p);

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
