/* deprivatize_run.h: `stubbench deprivatize FILE`: a JITed function's twin
 * with the other frame (deprivatize.h), printed as a listing on stdout
 * under a header saying what changed, and compared with the kernel's own
 * JIT of it the other way when asked. */
#ifndef STUBBENCH_DEPRIVATIZE_RUN_H
#define STUBBENCH_DEPRIVATIZE_RUN_H

#include <stdint.h>

#include "base/error.h"

/* What to rewrite and how. */
struct sb_deprivatize_run_opts {
	const char *path;    /* FILE: --dump-jit's .bin or .lst, a listing, or bpftool's opcodes text */
	const char *func;    /* --func: the function of FILE; NULL: the first with a private stack
			      * (privatize: without one) */
	long stack_depth;    /* --stack-depth: sub rsp of the twin; -1: the deepest r9 frame offset */
	int privatize;       /* --privatize: the reverse, give a function a private stack */
	uint64_t frame_ptr;  /* --frame-ptr: with privatize, the per-CPU frame pointer r9 is loaded with */
	uint32_t gs_disp;    /* --gs-disp: with privatize, the add r9, gs:[DISP] displacement */
	const char *against; /* --against: the kernel's JIT of the function the other way; NULL: none */
};

/* Prints the twin. Returns SB_STATUS_OK (printed, and equal to against),
 * SB_STATUS_FAILED (differs from against, or could not be printed), or
 * SB_STATUS_USAGE after one line on stderr (a file that cannot be read or
 * rewritten, no such function). */
enum sb_status sb_deprivatize_run(const struct sb_deprivatize_run_opts *o);

#endif
