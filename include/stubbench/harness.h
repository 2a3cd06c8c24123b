/* harness.h: interleaved, calibrated measurement of "arms".
 *
 * An arm is anything that can run `batch` iterations of a variant on demand
 * and time it: a replica main prog in the asm timed loop, a BPF program run
 * with BPF_PROG_TEST_RUN, a lab alternative. The harness knows nothing of
 * what an arm is; it interleaves the arms sample by sample with a random
 * delay before each sample, measures the core clock beside every block,
 * removes the cost of the overhead arm (the empty stub loop, the empty BPF
 * driver), flags disturbed blocks, and computes the statistics.
 *
 * A single process sees one point of the machine's hidden state (where the
 * code sits, the stack's offset, the predictors' history). Each block
 * therefore runs in a re-rolled state: the next of the arms' states (see
 * sb_arm.n_states) and a random stack offset, after one unrecorded round.
 * The CIs resample states, then blocks within them; with
 * sb_run_opts.processes > 1 the blocks run in that many fresh processes per
 * batch size, and the CIs also resample processes, then blocks, the two
 * deviations added in quadrature. What a run hands back (struct sb_results)
 * is declared in results.h.
 */
#ifndef STUBBENCH_HARNESS_H
#define STUBBENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/results.h"

/* A block whose canary is below this fraction of the quiet level is
 * disturbed; a run whose canary median is, ran on a busy core. */
#define SB_DISTURBED_CANARY 0.90
/* A block whose window canary took more than this times its quiet level is
 * disturbed; a run whose window median did, ran on a busy core. */
#define SB_DISTURBED_WINDOW 1.05

struct sb_arm {
	const char *name;       /* "private" (table, JSON, CSV) */
	const char *seed_name;  /* "private-stack" (--format=seed lines) */
	struct sb_cell_key key; /* what it measures (results.h), set by whoever makes the arm */
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

/* Switches for the tests, which make the harness's judgement exact
 * whatever the machine is doing (the CLI sets them from the environment
 * variables named, "1": on).
 * disturb_all (STUBBENCH_TEST_DISTURB_ALL) flags every block disturbed: the
 * tests of what a run with no usable samples reports.
 * disturb_none (STUBBENCH_TEST_DISTURB_NONE) flags none: the tests of
 * synthetic arms, whose ticks do not come from this machine, and the smoke
 * runs that check what a run writes keep every block.
 * spread_only (STUBBENCH_TEST_SPREAD_ONLY) leaves only the empty stub's
 * spread to flag blocks: the tests of that rule on synthetic arms.
 * fixed_clock (STUBBENCH_TEST_FIXED_CLOCK) gives every block a clock of
 * exactly 1 core cycle per tick: synthetic ticks are not this machine's,
 * and a clock measured per block on a loaded machine split one synthetic
 * state into several modes. */
struct sb_run_test_hooks {
	int disturb_all, disturb_none, spread_only, fixed_clock;
};

struct sb_run_opts {
	const uint64_t *batches;  /* iterations per sample, e.g. 1 8 64 512 2048 4096 */
	size_t n_batches;
	double time_s;            /* wall time budget for the whole run (0: use samples) */
	uint64_t samples;         /* samples per arm and batch (0: from time_s) */
	uint64_t seed;            /* random delays */
	/* 1: a block's stack offset is a function of its re-rolled state and
	 * seed, the same in every part that has that state (the arms of the
	 * identical-layout comparison); 0: drawn afresh for each block. */
	int stack_by_state;
	int progress;             /* progress on stderr */
	int verbose;
	/* Called around every sample, outside the timed region (likwid marker
	 * regions, perf_event counters); arm indexes the arms array, batch_idx
	 * the batches array. Any may be NULL. */
	void (*before_sample)(void *hook_ctx, size_t arm, size_t batch_idx);
	void (*after_sample)(void *hook_ctx, size_t arm, size_t batch_idx);
	void *hook_ctx;
	/* Polled before every block (about a millisecond): non-zero stops the
	 * run with "interrupted" (SIGINT/SIGTERM). May be NULL. */
	int (*stop)(void);
	/* Fresh processes per batch size (0 or 1: this one). With n > 1 each
	 * batch size's time is split over n child processes run one after
	 * the other (fork), and the CIs also resample the processes, then
	 * the blocks within them (added in quadrature to the states'):
	 * whatever a process fixes for its whole life (its kernel stack, its
	 * pages, the predictors' history) is then part of the CI, as it is
	 * of the next run. The sample hooks then run in
	 * the children and their effects stay there: leave n at 1 when they
	 * count something. child_check (may be NULL) runs in each child after
	 * its blocks, before it reports; non-zero fails the run with err. */
	size_t processes;
	int (*child_check)(void *check_ctx, char *err, size_t errlen);
	void *check_ctx;
	/* Runs in this process before fresh process p of n (p from 1) is
	 * forked, once for all the parts of an sb_run_parts (the first
	 * part's); may be NULL. Non-zero fails the run with err. It moves
	 * what the processes share from the parent and a run would otherwise
	 * fix: sb_new_frames_between. */
	int (*between_processes)(size_t p, size_t n, char *err, size_t errlen);
	/* Runs in this process before this part's arms run: before its blocks
	 * are sized, before each of its fresh processes is forked, and (in one
	 * process) before the part runs. It puts in place code the part takes
	 * turns with other parts in (the identical-layout comparison's shared
	 * pages: sb_layout_put_code). May be NULL; non-zero fails the run. */
	int (*before_part)(void *part_ctx, char *err, size_t errlen);
	void *part_ctx;
	/* Non-zero: with fresh processes, this part runs in the same processes
	 * as the parts next to it with the same key, taking turns with them
	 * batch size by batch size (before_part ahead of each turn), so that
	 * what a process fixes is the same for all of them: the
	 * identical-layout comparison's groups of one command group, paired
	 * within a process. 0: processes of its own. */
	size_t process_key;
	/* The tests' switches; NULL (a measurement): all off. */
	const struct sb_run_test_hooks *test;
	/* With fresh processes and time_s: the time_s of all the parts
	 * together bounds this process's wall time from its start
	 * (wall_clock.h), setup and the processes' start and end included:
	 * each process's share shrinks (or grows) to what the time left holds
	 * after what the processes so far cost beyond their shares, and
	 * SB_FINISH_RESERVE of it stays for the statistics. 0: time_s is the
	 * measuring time alone. */
	int time_is_wall;
};
/* The share of --time left for the statistics after the last process,
 * for a run of n_parts parts measured together: SB_FINISH_RESERVE plus
 * SB_FINISH_RESERVE_PART a part, at most SB_FINISH_RESERVE_MAX. On an
 * Intel Xeon VM they took 15 to 21 % of --time for the sweep's 2 parts,
 * about 20 % for the kernel run's 6 and 25 % for the lab's 10, and little
 * for one batch size alone (results/intel-xeon-0xa7-vm.md). */
#define SB_FINISH_RESERVE 0.10
#define SB_FINISH_RESERVE_PART 0.015
#define SB_FINISH_RESERVE_MAX 0.30

/* Voluntary plus involuntary context switches of the calling thread so far
 * (getrusage): a sample or block during which it moved was disturbed. */
long sb_context_switches(void);

/* Runs the arms; returns 0, or -1 with a one-line reason in err, or
 * SB_RUN_TOO_SHORT when time_s cannot hold one round of a batch size (bad
 * input: the message says so). */
#define SB_RUN_TOO_SHORT (-2)
int sb_run_interleaved(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *opts,
		       struct sb_results *out, char *err, size_t errlen);

/* Several runs of arms in one: each part has its own arms, options (batch
 * sizes, time, seed, child_check ...) and results, as if run by
 * sb_run_interleaved, but with fresh processes their processes take turns
 * (process 1 of every part, then process 2 of every part, ...), so each
 * part's processes span the whole run's time rather than a share of it:
 * host states that last seconds fall into every part's spread between
 * processes. The processes are the largest opts->processes of the parts.
 * Returns as sb_run_interleaved; every out is set (free each). */
struct sb_part_blocks;
struct sb_run_part {
	const struct sb_arm *arms;
	size_t n_arms;
	const struct sb_run_opts *opts;
	struct sb_results *out;
	/* NULL, or room for opts->n_batches: each batch size's kept blocks
	 * handed back (free each with sb_part_blocks_free), for figures taken
	 * across parts. */
	struct sb_part_blocks *blocks;
};
/* A part's kept blocks of one batch size (blocks with kept rounds): per
 * arm its value in cycles per iteration, the overhead arm's cost removed
 * (as the statistics computed it: `removed`, one figure for the part's
 * batch size), and each block's re-rolled state and fresh process. */
struct sb_part_blocks {
	size_t n, n_arms;
	double *value;             /* [arm * n + k] */
	size_t *state, *process;   /* [k] */
	double removed;            /* cycles per iteration removed from every value */
};
void sb_part_blocks_free(struct sb_part_blocks *pb);

int sb_run_parts(const struct sb_run_part *parts, size_t n_parts, char *err, size_t errlen);

/* The index of batch in batches[0..n) (what a sampler's batch argument is
 * among the run's batch sizes), or -1. */
long sb_batch_index(const uint64_t *batches, size_t n, uint64_t batch);

#endif
