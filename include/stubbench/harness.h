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
 * deviations added in quadrature.
 */
#ifndef STUBBENCH_HARNESS_H
#define STUBBENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/stats.h"
#include "stubbench/timer.h"

#define SB_MAX_COUNTERS 8
/* A block whose canary is below this fraction of the quiet level is
 * disturbed; a run whose canary median is, ran on a busy core. */
#define SB_DISTURBED_CANARY 0.90
/* A block whose window canary took more than this times its quiet level is
 * disturbed; a run whose window median did, ran on a busy core. */
#define SB_DISTURBED_WINDOW 1.05
#define SB_MAX_REPS 32

struct sb_arm {
	const char *name;       /* "private" (table, JSON, CSV) */
	const char *seed_name;  /* "private-stack" (--format=seed lines) */
	/* Runs `batch` iterations once and returns the elapsed ticks of the
	 * timer the harness chose (sb_timer_*), or UINT64_MAX on failure
	 * (the run stops with the arm's error). */
	uint64_t (*sample)(void *ctx, uint64_t batch);
	void *ctx;
	int is_overhead;        /* 1: the harness's own cost, subtracted from the others */
	int is_baseline;        /* 1: the arm the others are compared with */
	size_t code_bytes;      /* code size per iteration path, 0 if unknown (lab) */
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

struct sb_run_opts {
	const uint64_t *batches;  /* iterations per sample, e.g. 1 8 64 512 2048 4096 */
	size_t n_batches;
	double time_s;            /* wall time budget for the whole run (0: use samples) */
	uint64_t samples;         /* samples per arm and batch (0: from time_s) */
	uint64_t seed;            /* random delays */
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
};

/* One arm at one batch size. Per-iteration figures have the overhead arm's
 * median removed. */
struct sb_cell {
	const struct sb_arm *arm;
	uint64_t batch;
	size_t n_samples;         /* kept (undisturbed) samples */
	size_t n_disturbed;       /* samples in flagged blocks, excluded */
	size_t n_outliers;        /* rounds dropped because one of their samples was an
				   * outlier (> its block's median + 8 robust SDs: an
				   * interrupt) */
	struct sb_summary cycles; /* core cycles per iteration */
	struct sb_summary ns;     /* nanoseconds per iteration */
	double overhead_cycles;   /* per iteration, subtracted */
	/* Cost ratio to the baseline arm at the same batch, from the
	 * interleaved pairs: (ratio - 1) * 100 with a bootstrap 95 % CI. */
	int has_delta;
	double delta_pct, delta_lo_pct, delta_hi_pct;
	/* Steady states of this cell's block means (sb_find_modes), lowest
	 * first, and the number of re-rolled states it ran in. */
	struct sb_mode modes[SB_MAX_MODES];
	size_t n_modes, n_states;
	size_t n_processes;       /* fresh processes it ran in (1: this one) */
	/* Its steady state changed with time: the processes' modes, in the
	 * order they ran, form fewer runs (time_runs) than chance allows. */
	int changed_in_time;
	size_t time_runs;
	/* The cost in a matched state: the 20-80 % trimmed mean over blocks in which this
	 * arm and the baseline both sat in their matching mode (the lowest
	 * holding at least a quarter of the blocks, else the largest) of this arm's
	 * block mean minus the baseline's (same block: same moment, same
	 * state index), cycles per iteration, two-level bootstrap 95 % CI. */
	int has_matched;
	double matched_cycles, matched_lo, matched_hi;
	double runs_per_s_mean, runs_per_s_sd; /* for --format=seed: M/s of runs */
	/* Hardware/software counters per iteration (filled by the counters
	 * front end after the run; names in sb_results.counter_names). */
	double counters[SB_MAX_COUNTERS];
	/* Repetitions, as Google Benchmark reports them (--format=gbench): the
	 * undisturbed blocks cut into n_reps consecutive slices (at most
	 * SB_MAX_REPS), each slice's cost per iteration and iterations run. */
	size_t n_reps;
	double rep_cycles[SB_MAX_REPS], rep_ns[SB_MAX_REPS];
	uint64_t rep_iterations[SB_MAX_REPS];
	/* Empty when the cell has samples; otherwise why it has none (every
	 * block disturbed ...), and no figure of the cell means anything. */
	char no_samples[96];
};

/* One variant at one batch size across its code placements (--placements):
 * the spread of its cost over placements and its ratio to the baseline's
 * placements, which no single placement's CI can show. */
struct sb_placement_row {
	char variant[96];         /* the original variant's name */
	uint64_t batch;
	size_t k;                 /* placements */
	double mean, sd, min, max; /* of the placements' mean cycles per iteration */
	int has_delta;
	double delta_pct, delta_lo_pct, delta_hi_pct;
};

struct sb_results {
	struct sb_timer_info timer;
	struct sb_cell *cells;    /* measured arm a, batch b at cells[a * n_batches + b];
				   * the overhead arm has no cells */
	size_t n_cells;
	size_t n_batches;
	size_t n_blocks, n_disturbed_blocks;
	double core_ghz_median;   /* core clock from the calibration loops */
	double canary_median;     /* independent adds per core cycle, median of the blocks */
	double canary_quiet;      /* the same, quiet level: 95th percentile of the blocks */
	double window_median;     /* window canary, core cycles an iteration, median of the blocks */
	double window_quiet;      /* the same, quiet level: 5th percentile of the blocks */
	double elapsed_s;
	char cpu_desc[256];       /* machine description for JSON/CSV */
	int cpu;                  /* the CPU pinned to, -1 if not pinned */
	size_t n_counters;        /* columns of sb_cell.counters in use */
	struct sb_placement_row *placement_rows; /* filled with --placements, else NULL */
	size_t n_placement_rows;
	char counter_names[SB_MAX_COUNTERS][32];
};

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
struct sb_run_part {
	const struct sb_arm *arms;
	size_t n_arms;
	const struct sb_run_opts *opts;
	struct sb_results *out;
};
int sb_run_parts(const struct sb_run_part *parts, size_t n_parts, char *err, size_t errlen);
void sb_results_free(struct sb_results *r);
/* Appends the cells and placement rows of part to all (same batch sizes;
 * all zeroed at first, its header then taken from the first part): its
 * blocks and time add up, the canaries fold (sb_results_fold_canary). all
 * owns copies, so part can be freed. Returns 0, or -1 out of memory. */
int sb_results_append(struct sb_results *all, const struct sb_results *part);

/* Results of several runs in one document: all's add canary becomes the
 * lowest median and the highest quiet level of the two, its window canary
 * the highest median and the lowest quiet level, so that a core busy in
 * any part is said of the whole (sb_output_busy_line). */
void sb_results_fold_canary(struct sb_results *all, const struct sb_results *part);

#endif
