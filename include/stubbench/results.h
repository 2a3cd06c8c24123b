/* results.h: what a measurement hands back: one cell per measured arm and
 * batch size (its cycles and nanoseconds per iteration with their CIs, its
 * steady states, its delta, codegen and layout costs against the baseline,
 * its repetitions and counters), the placement rows of --placements, and
 * the run's header (timer, core clock, canaries, machine); and the calls
 * that free, append and fold results. The runs that fill them are in
 * harness.h; the output and report code reads them.
 */
#ifndef STUBBENCH_RESULTS_H
#define STUBBENCH_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/cell_key.h"
#include "stubbench/estimate.h"
#include "stubbench/stats.h"
#include "stubbench/timer.h"

struct sb_arm;

#define SB_MAX_COUNTERS 8
#define SB_MAX_REPS 32

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
	 * interleaved pairs: (ratio - 1) * 100 with a bootstrap 95 % CI;
	 * absent for the baseline itself and without kept blocks. */
	struct sb_estimate delta_pct;
	/* Steady states of this cell's block means (sb_find_modes), lowest
	 * first, and the number of re-rolled states it ran in. */
	struct sb_mode modes[SB_MAX_MODES];
	size_t n_modes, n_states;
	size_t n_processes;       /* fresh processes it ran in (1: this one) */
	/* Its steady state changed with time: the processes' modes, in the
	 * order they ran, form fewer runs (time_runs) than chance allows. */
	int changed_in_time;
	size_t time_runs;
	/* How far a block's first kept sample (the outlier rule drops some)
	 * sat above the median of its other kept samples, as a fraction (the 20-80 % trimmed mean over
	 * blocks; NAN: too few blocks to say): near 0 when the harness's warm
	 * rounds left the code warm. */
	double first_round_excess;
	/* The codegen cost (JSON matched_delta_cycles, the table's "codegen"):
	 * this arm against codegen_against, its padded baseline (the
	 * baseline's bytes with NOPs where this arm has its extra
	 * instructions) or, without one, the baseline, paired at identical
	 * layout: per placement the mean of this arm's block values minus the
	 * other's (the same blocks), then the mean over placements, cycles per
	 * iteration, hierarchical bootstrap 95 % CI (paired_placements.h);
	 * absent for the baseline and without kept blocks. */
	struct sb_estimate matched_cycles;
	/* The delta in core cycles per iteration: delta_pct of the baseline's
	 * mean over placements (sb_estimate_pct_to_cycles): what codegen +
	 * layout must add up to. */
	struct sb_estimate delta_cycles;
	const char *codegen_against;           /* the arm it is taken against */
	struct sb_estimate codegen_median;     /* median over placements */
	/* With --padded (groups at identical layout, where matched_cycles is
	 * the median over placements: a cell a busy host disturbed moves a
	 * mean by cycles), the mean over placements; absent otherwise. */
	struct sb_estimate codegen_mean;
	struct sb_mode codegen_modes[SB_MAX_MODES]; /* modes of the placements' differences */
	/* With --padded, the % of placements at which this arm or the one
	 * its codegen is taken against fell in more than one steady state
	 * block by block (placement_states.h), Wilson 95 % CI: how much of
	 * the codegen is a mixture of states; absent otherwise. */
	struct sb_estimate codegen_two_state_pct;
	size_t n_codegen_modes;
	/* The layout cost: the padded baseline against the baseline over the
	 * same placements, what the longer code's layout alone costs; absent
	 * without a padded baseline. codegen + layout is the cost against the
	 * baseline (vs base, in cycles). */
	struct sb_estimate layout_cycles;
	/* The same paired cost against the arm's reference (a lab alternative:
	 * its group's mainline), and that arm's name; absent without one. */
	struct sb_estimate vs_reference_cycles;
	const char *reference_against;
	/* The range of the next run's figure (past_runs.h): this run's CI,
	 * each side grown in quadrature by how this cell's figure scattered
	 * over the record's last past_runs runs of it; absent, with the reason,
	 * where the record holds fewer than SB_PAST_RUNS_MIN. The CIs above
	 * never change with the record. past_held: the runs of this cell the
	 * record holds. */
	struct sb_estimate next_run_delta, next_run_cycles, next_run_codegen;
	size_t past_runs, past_held;
	/* A kernel run's figures load by load (kernel_by_load.h), absent in
	 * other runs. On the kernel's cells: the cost per iteration and (not
	 * the baseline) the cost added to the baseline, each over the loads
	 * with the interval that its loads' differing alone gives it
	 * (between_loads) and that its blocks' scatter within each load alone
	 * gives it (within_loads). On a placed twin's cells: its added cost
	 * less the kernel's, paired by load, with the CI over the loads. */
	struct sb_estimate between_loads, within_loads, between_loads_added, within_loads_added;
	struct sb_estimate paired_vs_kernel;
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
	/* Its samples were fine, but its mean fell below zero once the
	 * overhead was subtracted (figure_checks.h): no figure either, said as
	 * such in no_samples, and not counted as a cell without samples. */
	int below_overhead;
};

/* One variant at one batch size across its code placements (--placements):
 * the spread of its cost over placements and its ratio to the baseline's
 * placements, which no single placement's CI can show. */
struct sb_placement_row {
	char variant[96];         /* the original variant's name */
	struct sb_cell_key key;   /* its key, at no placement */
	uint64_t batch;
	size_t k;                 /* placements */
	double mean, sd, min, max; /* of the placements' mean cycles per iteration */
	struct sb_estimate delta_pct; /* ratio of means to the baseline's placements, % */
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

/* Cell c's cycles and nanoseconds per iteration as estimates: absent, for
 * the cell's reason, when it has no samples or a no_samples reason; without
 * a CI from one. */
struct sb_estimate sb_cell_cycles(const struct sb_cell *c);
struct sb_estimate sb_cell_ns(const struct sb_cell *c);

/* The cell of r whose arm is named arm at batch, or NULL (r may be NULL). */
const struct sb_cell *sb_results_cell(const struct sb_results *r, const char *arm, uint64_t batch);

/* Frees the cells and placement rows of r and leaves it empty. */
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
