/* arm.h: what the harness measures (harness.h): an arm, anything that can
 * run `batch` iterations of a variant on demand and time it (a replica main
 * prog in the asm timed loop, a BPF program run with BPF_PROG_TEST_RUN, a
 * lab alternative), with the key of what it measures (cell_key.h). */
#ifndef STUBBENCH_ARM_H
#define STUBBENCH_ARM_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/cell_key.h"

struct sb_arm {
	const char *name;       /* "private" (table, JSON, CSV) */
	const char *seed_name;  /* "private-stack" (--format=seed lines) */
	struct sb_cell_key key; /* what it measures (cell_key.h), set by whoever makes the arm */
	/* Runs `batch` iterations once and returns the elapsed ticks of the
	 * timer the harness chose (sb_timer_*), or UINT64_MAX on failure
	 * (the run stops with the arm's error). */
	uint64_t (*sample)(void *ctx, uint64_t batch);
	void *ctx;
	int is_overhead;        /* 1: the harness's own cost, subtracted from the others */
	int is_baseline;        /* 1: the arm the others are compared with */
	size_t code_bytes;      /* code size per iteration path, 0 if unknown (lab) */
	/* The arm running the baseline padded to this arm's layout (the
	 * baseline's bytes, NOPs where this arm has its extra instructions),
	 * in the same run; NULL: none. The codegen cost is taken against it. */
	const struct sb_arm *padded_baseline;
	/* A second arm this one's paired cost is taken against, in the same
	 * run (a lab alternative: its group's mainline); NULL: none. */
	const struct sb_arm *reference;
	/* Re-rolled states: an arm that can run its code in n_states > 1
	 * different states (placed copies, loads of a program) gets
	 * set_state(ctx, j) before each block, j in [0, n_states); the
	 * harness rotates the states block by block so that every cell is
	 * measured across all of them. */
	size_t n_states;
	void (*set_state)(void *ctx, size_t state);
	/* With sb_run_opts.processes > 1: the bytes of *ctx that a child
	 * process's samples change and that must come back to this process
	 * (run counts checked against a BPF map, which every process shares);
	 * the harness copies them back after each child. 0: nothing comes
	 * back (counts checked against this process's own memory stay
	 * consistent as they are). The ctx must hold no pointer the child
	 * changes. */
	size_t ctx_size;
};

#endif
