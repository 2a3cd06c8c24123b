/* batch_data.h: one batch size's rounds and blocks as the harness records
 * them (sampler.c; room for them: batch_data.c) and their statistics
 * (batch_summary.c). Private to
 * src/harness: the public face is harness/harness.h. */
#ifndef STUBBENCH_BATCH_DATA_H
#define STUBBENCH_BATCH_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "harness/arm.h"
#include "stubbench/results.h"

struct block {
	size_t first_round, n_rounds;
	double cpt;                /* core cycles per tick */
	double canary;             /* independent adds per core cycle */
	double window;             /* window canary: core cycles an iteration (sb_time_window) */
	long csw;                  /* context switches during the block */
	int disturbed;
	size_t state;              /* the arms' re-rolled state in this block */
	size_t process;            /* the fresh process that ran it (0 without --processes) */
	int sibling;               /* the SMT sibling beside it: enum sb_sibling_state */
	uint64_t tsc;              /* its first round's start */
};

struct batch_data {
	double *ticks;             /* [arm][round] */
	size_t cap, n_rounds;
	struct block *blocks;
	size_t n_blocks, blocks_cap;
	int capped;                /* a segment stopped at its most rounds, not its time */
};

/* Room for `need` rounds per arm of n_arms, for `need` blocks (doubling,
 * the data kept). Return 0, or -1 out of memory. */
int sb_batch_reserve_rounds(struct batch_data *d, size_t n_arms, size_t need);
int sb_batch_reserve_blocks(struct batch_data *d, size_t need);
/* Frees the rounds and blocks (d zeroed). */
void sb_batch_data_free(struct batch_data *d);

/* The value of every kept block (one with kept rounds) per arm, as the
 * statistics computed it: cycles per iteration, the 20-80 % trimmed mean of
 * its kept samples, the overhead arm's cost removed. */
struct sb_kept_blocks {
	size_t n, stride;
	size_t *block;             /* [k]: its index in batch_data.blocks */
	double *value;             /* [arm * stride + k] */
	double removed;            /* the overhead arm's cycles per iteration, removed from every value */
};
void sb_kept_blocks_free(struct sb_kept_blocks *kb);

/* One batch size's cells (batch index bi of n_batches) into out: per arm
 * but the overhead arm ovh (-1: none), the statistics of its kept samples
 * and blocks, the modes, and against the baseline arm base (-1: none) the
 * delta and the codegen and layout costs with their CIs (each bootstrap a
 * stream of the run's seed, sb_seed_stream). Blocks must be flagged (disturbed) first. kept (may be NULL): the
 * kept blocks' values handed back (free with sb_kept_blocks_free). Returns
 * 0, or -1 out of memory. */
int sb_batch_summarize(const struct sb_arm *arms, size_t n_arms, long ovh, long base, uint64_t batch, size_t bi,
		       size_t n_batches, const struct batch_data *d, double tsc_hz, uint64_t seed,
		       struct sb_results *out, struct sb_kept_blocks *kept);

#endif
