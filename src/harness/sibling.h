/* sibling.h: the measured core's SMT sibling, quiet or loaded on purpose
 * (--sibling=quiet|busy|both, --sibling-load=spin|same; docs/sibling.md).
 *
 * The sibling is the other PU of the measured CPU's core in hwloc's
 * topology. `busy` runs a load process pinned there for the whole run;
 * `both` parks it between blocks, the blocks taking turns between a quiet
 * and a loaded sibling (sb_sibling_turn_busy); `quiet` runs nothing there
 * (the default). Every block records which it was (the --blocks column
 * `sibling`: quiet, busy or none, where the core has no reachable
 * sibling). The load is a process forked from the measuring one, so its
 * counters and private stacks are its own copies: the measured arms'
 * checks count the measuring process's calls alone. */
#ifndef STUBBENCH_SIBLING_H
#define STUBBENCH_SIBLING_H

#include <stddef.h>

#include "stubbench/sibling_names.h"

/* The schedule (sibling.c): non-zero when block `block` (from 0, its
 * index in its segment) of fresh process `process` runs beside a loaded
 * sibling. quiet: never; busy: always; both: every other block, process
 * p starting with a quiet one when p is even, a loaded one when odd. */
int sb_sibling_turn_busy(enum sb_sibling_mode m, size_t process, size_t block);

/* What a run was asked for and what it found; JSON config.sibling. */
struct sb_sibling_facts {
	enum sb_sibling_mode mode;
	enum sb_sibling_load load;
	int cpu;          /* the measured CPU */
	int pu;           /* its sibling's OS index, -1: none reachable */
	int forced;       /* pu named by STUBBENCH_TEST_SIBLING_CPU, not found in the topology */
	int loaded;       /* a load process runs there (busy or both, with a pu) */
	char why[200];    /* with pu < 0: why none */
};


/* The facts of the run's sibling (the last sb_sibling_start), or NULL
 * when none was started in this process. */
const struct sb_sibling_facts *sb_sibling_facts(void);

/* The state of the blocks of a run without a managed sibling: quiet where
 * the measured CPU (this thread's) has a reachable sibling, none where not. */
enum sb_sibling_state sb_sibling_unmanaged_state(void);

/* A run's sibling while it measures. */
struct sb_variant;
struct sb_sibling;
struct sb_sibling_request {
	enum sb_sibling_mode mode;
	enum sb_sibling_load load;
	int cpu;                 /* the measured CPU, this thread pinned to it */
	int forced_pu;           /* >= 0: use this PU as the sibling (a test hook); -1: hwloc's */
	/* The same load: these variants' main progs called in turn, batch 64. */
	const struct sb_variant *const *same;
	size_t n_same;
	/* Non-zero: those variants run code read from files; the same load's
	 * process is then contained as the measuring children are
	 * (sb_contain; docs/security-model.md). */
	int contain;
};

/* Finds the sibling and, for busy or both with one, forks the load process,
 * pinned there (running for busy, parked for both). *out is always set.
 * note: a line to say (no sibling for busy or both, or a forced one), or
 * "". Returns 0, or -1 with err (fork, mmap or pinning failed). */
int sb_sibling_start(const struct sb_sibling_request *rq, struct sb_sibling **out, char *note, size_t notelen,
		     char *err, size_t errlen);
/* Before a block: the load made to run (busy non-zero) or parked, waiting
 * until it has; returns the block's state. s NULL: the unmanaged state. */
enum sb_sibling_state sb_sibling_enter(struct sb_sibling *s, int busy);
/* sb_sibling_enter for block `block` of fresh process `process`, its
 * turn as sb_sibling_turn_busy gives it for the run's mode. */
enum sb_sibling_state sb_sibling_block(struct sb_sibling *s, size_t process, size_t block);
/* Ends the load process and frees s (NULL: nothing). Returns 0, or
 * SB_RUN_CONTAINED with err set when a contained load had ended on its own
 * before: a forbidden system call, a signal, an early exit. */
int sb_sibling_stop(struct sb_sibling *s, char *err, size_t errlen);

#endif
