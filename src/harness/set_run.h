/* set_run.h: a run of arm sets (sb_arm_set; "parts" in the comments below)
 * as the files of the harness share it (private to
 * src/harness; the public face is harness/harness.h):
 *   harness.c     a run of parts: their setup, their segments run, their
 *                 statistics
 *   block_size.c  how many rounds a batch size's blocks hold
 *   schedule.c    which segments run when, in this process or fresh ones,
 *                 and whether the SMT sibling's load runs beside a block
 *   sibling.c     the SMT sibling's load process and its parking
 *   processes.c   a fresh process: fork, its segments, the pipe back,
 *                 the watchdog on it
 *   contain.c     what a contained child may do (seccomp, no root)
 *   sampler.c     segments, blocks and rounds of samples
 *   canaries.c    the core clock and the canaries measured beside blocks
 *   disturbed.c   which blocks were disturbed
 *   results.c     the result containers
 * The rounds and blocks themselves, their statistics and their --blocks
 * rows: batch_data.h. */
#ifndef STUBBENCH_SET_RUN_H
#define STUBBENCH_SET_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "batch_data.h"
#include "base/error.h"
#include "harness/own_pages.h"
#include "stubbench/parse.h"
#include "base/rng.h"
#include "harness/run_opts.h"

#define MAX_ROUNDS_PER_BATCH SB_MAX_SAMPLES /* memory: every sample is kept */

/* err = "name: msg", or msg without a name. */
static inline void sb_run_err(char *err, size_t errlen, const char *msg, const char *name)
{
	sb_set_err(err, errlen, "%s%s%s", name ? name : "", name ? ": " : "", msg);
}

/* A share of one batch size's blocks, run in this process or in a fresh one. */
struct segment {
	uint64_t batch;
	size_t bi, block_rounds, process;
	uint64_t budget_ticks;    /* this segment's time (UINT64_MAX: by samples) */
	uint64_t samples;         /* rounds to run, 0: by time */
	double round_ticks;       /* a round of the arms when sized, TSC ticks (the watchdog's) */
	size_t max_rounds;
	double progress_from, progress_span;
	/* Non-zero: the blocks go through the states in an order drawn from
	 * this seed alone (the parts that share a process: the same order). */
	uint64_t order_seed;
};

/* A batch size across the run: its whole segment and the data of all its
 * processes. */
struct batch_run {
	struct segment sg;
	struct batch_data d;
};

/* One arm set of sb_run_arm_sets while it runs: what its arms need from setup to summary. */
struct set_run {
	const struct sb_arm *arms;
	size_t n_arms;
	const struct sb_run_opts *o;
	struct sb_results *out;
	struct sb_arm_set_blocks *blocks; /* NULL, or the kept blocks handed back, per batch size */
	size_t index;              /* its place among the run's parts */
	long ovh, base;            /* the overhead and baseline arms, -1: none */
	size_t n_states, *order;   /* the re-rolled states and their order */
	uint64_t delay_max;
	double tsc_hz;
	struct sb_rng rng;
	struct batch_run *runs;    /* one per batch size */
	uint64_t ticks;            /* TSC ticks spent on this part */
};

/* canaries.c. One calibration of the core clock, core cycles per TSC tick. */
double sb_core_clock_once(void);
/* A block's clock: the highest of a few calibrations. */
double sb_block_clock(void);
/* The window canary, core cycles an iteration, and the add canary,
 * independent adds per core cycle, at clock cpt. */
double sb_measure_window(double cpt);
double sb_measure_canary(double cpt);

/* block_size.c. Each batch size's whole segment into runs[bi].sg: its
 * blocks' rounds sized from timed rounds of the arms, its time or samples.
 * delay_max: the random delays' most cycles, cpt0 the clock they were
 * measured at. Returns 0, -1 (an arm failed) or SB_RUN_TOO_SHORT, err set. */
int sb_size_blocks(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o, uint64_t delay_max,
		   double cpt0, double tsc_hz, struct batch_run *runs, char *err, size_t errlen);
/* sb_size_blocks in two steps, so that a contained child times the
 * rounds and this process alone makes the segments from what it sent:
 * each batch size's fastest timed round, TSC ticks, into fastest[bi]
 * (returns 0, or -1 with err: an arm failed); then the segments from them
 * (returns 0 or SB_RUN_TOO_SHORT, err set). */
int sb_fastest_rounds(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o, uint64_t *fastest,
		      char *err, size_t errlen);
int sb_segments_sized(size_t n_arms, const struct sb_run_opts *o, const uint64_t *fastest, uint64_t delay_max,
		      double cpt0, double tsc_hz, struct batch_run *runs, char *err, size_t errlen);

/* sampler.c. A segment that reached its most rounds leaves the rest of
 * its time (carry) to the process's next segments; the last one's is
 * waited out (sb_wait_out). */
void sb_take_carry(struct segment *sg, uint64_t carry);
void sb_wait_out(uint64_t ticks, const struct sb_run_opts *o);
/* One warm-up block, discarded, then blocks until the segment's time or
 * rounds are used up, into d; the states in `order` (n_states, reshuffled
 * every n_states blocks). *left: the ticks of its time it did not use
 * because it reached its most rounds first (0 otherwise). Returns 0, or -1
 * with err set. */
int sb_run_segment(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
		   const struct segment *sg, size_t *order, size_t n_states, struct sb_rng *rng,
		   uint64_t delay_max, struct batch_data *d, uint64_t *left, char *err, size_t errlen);

/* One sample of arm: with o->fixed_stack, called with rsp at page offset
 * o->stack_rsp_offset (stack_at_offset.h); otherwise with the stack moved
 * down by pad bytes (the block's random pad). */
uint64_t sb_sample_arm(const struct sb_arm *arm, uint64_t batch, size_t pad, const struct sb_run_opts *o);

/* disturbed.c. Flags the disturbed blocks of d (ovh: the overhead arm, -1:
 * none; test: the tests' switches, may be NULL) and adds their count to
 * *n_disturbed, those flagged by the empty stub's spread alone to *n_spread. */
void sb_flag_disturbed(struct batch_data *d, long ovh, const struct sb_run_test_hooks *test, size_t *n_disturbed,
		       size_t *n_spread);

/* processes.c. One part's share of a fresh process: its segments
 * sgs[0..n_sg) (random draws seeded from seed), each one's rounds and
 * blocks appended to *ds[i]. */
struct sb_child_set {
	const struct sb_arm *arms;
	size_t n_arms;
	const struct sb_run_opts *o;
	const struct segment *sgs;
	size_t n_sg;
	size_t *order, n_states;
	uint64_t seed, delay_max;
	struct batch_data **ds;
};
/* The parts cp[0..n_cp) in one fresh child process: their segments taking
 * turns (segment i of every part, from part `first` on, then segment
 * i + 1, ...; each one's before_set runs, in the child, ahead of its
 * segment); the arms' ctx_size bytes come back. skip:
 * the spans the child leaves shared with this process. Returns 0, or -1
 * with err set. */
int sb_run_in_child(const struct sb_child_set *cp, size_t n_cp, size_t first, const struct sb_span *skip,
		    size_t n_skip, double tsc_hz, char *err, size_t errlen);
/* sb_size_blocks in a contained child (sb_run_opts.contain): the code
 * from files runs first there. Returns as sb_size_blocks, or
 * SB_RUN_CONTAINED. */
int sb_size_blocks_in_child(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
			    uint64_t delay_max, double cpt0, double tsc_hz, struct batch_run *runs, char *err,
			    size_t errlen);

/* contain.c. The page a contained child notes the system call it was
 * stopped at on (nr, -1: none), shared with the parent (mapped before
 * the fork; NULL: out of memory). */
struct sb_trap {
	volatile long nr;
};
struct sb_trap *sb_trap_map(void);
void sb_trap_unmap(struct sb_trap *t);
/* In the child, after its setup: no new privileges, root dropped, the
 * seccomp filter (writes on out_fd and stderr alone). Returns 0, or -1
 * with err set (then nothing measured may run). */
int sb_contain(int out_fd, struct sb_trap *t, char *err, size_t errlen);

/* schedule.c. Every part's segments in this process, the parts one after
 * the other (sb_run_here), or split over n fresh processes taking turns
 * (sb_run_processes). Return 0, or -1 with err set. */
int sb_run_here(struct set_run *parts, size_t n_sets, char *err, size_t errlen);
int sb_run_processes(struct set_run *parts, size_t n_sets, size_t n, char *err, size_t errlen);

#endif
