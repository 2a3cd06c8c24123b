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
 * deviations added in quadrature. An arm is declared in arm.h, the options
 * of a run in run_opts.h, what a run hands back (struct sb_results) in
 * results.h.
 */
#ifndef STUBBENCH_HARNESS_H
#define STUBBENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/arm.h"
#include "harness/disturbed.h"
#include "stubbench/results.h"
#include "harness/run_opts.h"

/* Runs the arms; returns 0, or -1 with a one-line reason in err, or
 * SB_RUN_TOO_SHORT (run_opts.h). */
int sb_run_interleaved(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *opts,
		       struct sb_results *out, char *err, size_t errlen);

/* Several runs of arms in one: each arm set has its own arms, options
 * (batch sizes, time, seed, child_check ...) and results, as if run by
 * sb_run_interleaved, but with fresh processes their processes take turns
 * (process 1 of every set, then process 2 of every set, ...), so each
 * set's processes span the whole run's time rather than a share of it:
 * host states that last seconds fall into every set's spread between
 * processes. The processes are the largest opts->processes of the sets.
 * Returns as sb_run_interleaved; every out is set (free each). (An arm set
 * is the harness's; a session's sections and an ablation's parts are
 * other things.) */
struct sb_arm_set_blocks;
struct sb_arm_set {
	const struct sb_arm *arms;
	size_t n_arms;
	const struct sb_run_opts *opts;
	struct sb_results *out;
	/* NULL, or room for opts->n_batches: each batch size's kept blocks
	 * handed back (free each with sb_arm_set_blocks_free), for figures taken
	 * across parts. */
	struct sb_arm_set_blocks *blocks;
};
/* A part's kept blocks of one batch size (blocks with kept rounds): per
 * arm its value in cycles per iteration, the overhead arm's cost removed
 * (as the statistics computed it: `removed`, one figure for the part's
 * batch size), and each block's re-rolled state and fresh process. */
struct sb_arm_set_blocks {
	size_t n, n_arms;
	double *value;             /* [arm * n + k] */
	size_t *state, *process;   /* [k] */
	double removed;            /* cycles per iteration removed from every value */
};
void sb_arm_set_blocks_free(struct sb_arm_set_blocks *pb);

int sb_run_arm_sets(const struct sb_arm_set *parts, size_t n_sets, char *err, size_t errlen);

/* The index of batch in batches[0..n) (what a sampler's batch argument is
 * among the run's batch sizes), or -1. */
long sb_batch_index(const uint64_t *batches, size_t n, uint64_t batch);

#endif
