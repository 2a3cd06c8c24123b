/* run_opts.h: how a run of arms is asked for (harness.h): its batch sizes,
 * time or samples, seed, fresh processes and the hooks around its samples,
 * parts and processes; the tests' switches; the share of its time kept for
 * the statistics; and what it returns when that time is too short. */
#ifndef STUBBENCH_RUN_OPTS_H
#define STUBBENCH_RUN_OPTS_H

#include <stddef.h>
#include <stdint.h>

struct sb_sibling;

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
 * state into several modes.
 * sibling_cpu (STUBBENCH_TEST_SIBLING_CPU=N, force_sibling set) makes CPU N
 * stand in for the measured CPU's SMT sibling (sibling.h): on a machine
 * without SMT, the load process, its parking and the blocks' turns run
 * for real beside a CPU that is not a sibling. */
struct sb_run_test_hooks {
	int disturb_all, disturb_none, spread_only, fixed_clock;
	int force_sibling, sibling_cpu;
	/* STUBBENCH_TEST_CHILD_REPORT=sizing:FILE or segments:FILE: a
	 * contained child of that kind sends FILE's bytes in place of its
	 * report (the parent's checks on hostile reports; NULL: off). */
	const char *child_report;
	int child_report_sizing;
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
	/* Non-zero: every sample is called with rsp at page offset
	 * stack_rsp_offset (16-byte aligned; stack_at_offset.h) instead of at
	 * a random pad, so that the measured code's frames sit at one chosen
	 * page offset in every block: the twins placed like a kernel load,
	 * whose rbp frame takes the page offset of the kernel's (the kernel
	 * run, kernel_measure.c). 0 (every other part): the pad. */
	int fixed_stack;
	unsigned stack_rsp_offset;
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
	 * forked, once for all the parts of an sb_run_arm_sets (the first
	 * part's); may be NULL. Non-zero fails the run with err. It moves
	 * what the processes share from the parent and a run would otherwise
	 * fix: sb_new_frames_between. */
	int (*between_processes)(size_t p, size_t n, char *err, size_t errlen);
	/* Runs in this process before this part's arms run: before its blocks
	 * are sized, before each of its fresh processes is forked, and (in one
	 * process) before the part runs. It puts in place code the part takes
	 * turns with other parts in (the identical-layout comparison's shared
	 * pages: sb_layout_put_code). May be NULL; non-zero fails the run. */
	int (*before_set)(void *set_ctx, char *err, size_t errlen);
	void *set_ctx;
	/* Non-zero: with fresh processes, this part runs in the same processes
	 * as the parts next to it with the same key, taking turns with them
	 * batch size by batch size (before_set ahead of each turn), so that
	 * what a process fixes is the same for all of them: the
	 * identical-layout comparison's groups of one command group, paired
	 * within a process. 0: processes of its own. */
	size_t process_key;
	/* The measured core's SMT sibling (sibling.h): its load taking each
	 * block's turn, and every block recording its state. NULL: none
	 * managed; the blocks record quiet or none as the topology has it. */
	struct sb_sibling *sibling;
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
	/* Non-zero: the arms run code read from files. Every sample then
	 * runs in a contained child (no new privileges, no root, a seccomp
	 * filter; docs/security-model.md), the block sizing included, even
	 * with processes <= 1: a system call there ends the run with
	 * SB_RUN_CONTAINED. */
	int contain;
};
/* The share of --time left for the statistics after the last process,
 * for a run of n_sets parts measured together: SB_FINISH_RESERVE plus
 * SB_FINISH_RESERVE_SET a part (parts that share each process, as the
 * identical-layout groups of a command group do, count once), at most
 * SB_FINISH_RESERVE_MAX. On an
 * Intel Xeon VM they took 15 to 21 % of --time for the sweep's 2 parts,
 * about 20 % for the kernel run's 6 and 25 % for the lab's 10, and little
 * for one batch size alone (results/intel-xeon-0xa7-vm.md). */
#define SB_FINISH_RESERVE 0.10
#define SB_FINISH_RESERVE_SET 0.015
#define SB_FINISH_RESERVE_MAX 0.30

/* What a run returns when time_s cannot hold one round of a batch size
 * (bad input: the message says so). */
#define SB_RUN_TOO_SHORT (-2)
/* What a run returns when the measured code made a system call its
 * contained process may not make, or ran far past its time (bad input:
 * the message says which). */
#define SB_RUN_CONTAINED (-3)

#endif
