/* block_size.c: how long a batch size's blocks are (see
 * set_run.h): about a millisecond of rounds, timed before any
 * block is measured, within bounds that keep enough blocks for the CIs. */
#include "set_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#define BLOCK_TARGET_S 0.001       /* a block lasts about this long */
#define SIZING_ROUNDS 3            /* timed rounds a batch size's block length comes from */
#define MIN_BLOCKS 16              /* blocks a process runs of a batch size, at least, if rounds are capped */

/* The fastest of SIZING_ROUNDS timed rounds of the arms at batch after a
 * first, cold one, TSC ticks; UINT64_MAX when an arm failed (*failed: the
 * arm). The cold round alone (page faults, cold caches) read up to 50
 * times a warm one, so a block's length, and with it the run, changed from
 * run to run. */
static uint64_t fastest_round(const struct sb_arm *arms, size_t n_arms, uint64_t batch, size_t *failed)
{
	int rc = 0;
	uint64_t fastest = UINT64_MAX;
	for (int r = 0; r <= SIZING_ROUNDS && rc == 0; r++) {
		uint64_t t0 = __rdtsc();
		for (size_t a = 0; a < n_arms; a++)
			if (arms[a].sample(arms[a].ctx, batch) == UINT64_MAX) {
				*failed = a;
				rc = -1;
			}
		uint64_t t = __rdtsc() - t0;
		if (r > 0 && t < fastest)
			fastest = t;
	}
	return rc ? UINT64_MAX : fastest;
}

/* Rounds per block for rounds of round_ticks each. */
static size_t block_rounds_for(const struct sb_run_opts *o, double round_ticks, double tsc_hz)
{
	size_t block_rounds = (size_t)(BLOCK_TARGET_S * tsc_hz / round_ticks);
	/* When a batch size's rounds reach their cap before its time
	 * ends (batch 1, 8 and 64 in the default sweep), each process still
	 * gets MIN_BLOCKS blocks, each in a state of its own. */
	size_t procs = o->processes > 1 ? o->processes : 1;
	if (block_rounds > MAX_ROUNDS_PER_BATCH / (procs * MIN_BLOCKS))
		block_rounds = MAX_ROUNDS_PER_BATCH / (procs * MIN_BLOCKS);
	if (block_rounds < 4)
		block_rounds = 4;
	if (block_rounds > 4096)
		block_rounds = 4096;
	/* A fixed sample count still gets enough blocks for the CIs. */
	if (o->samples && block_rounds > (o->samples + 15) / 16)
		block_rounds = (o->samples + 15) / 16 < 4 ? 4 : (o->samples + 15) / 16;
	return block_rounds;
}

int sb_fastest_rounds(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o, uint64_t *fastest,
		      char *err, size_t errlen)
{
	for (size_t bi = 0; bi < o->n_batches; bi++) {
		size_t failed = 0;
		fastest[bi] = fastest_round(arms, n_arms, o->batches[bi], &failed);
		if (fastest[bi] == UINT64_MAX) {
			sb_run_err(err, errlen, "sample failed", arms[failed].name);
			return -1;
		}
	}
	return 0;
}

int sb_segments_sized(size_t n_arms, const struct sb_run_opts *o, const uint64_t *fastest, uint64_t delay_max,
		      double cpt0, double tsc_hz, struct batch_run *runs, char *err, size_t errlen)
{
	for (size_t bi = 0; bi < o->n_batches; bi++) {
		uint64_t batch = o->batches[bi];
		double round_ticks = (double)fastest[bi] + (double)n_arms * delay_max / (cpt0 > 0 ? cpt0 : 2);
		double budget_s = o->time_s / (double)o->n_batches;
		if (!o->samples && budget_s * tsc_hz < round_ticks) {
			sb_set_err(err, errlen,
				   "%.3g s per batch size cannot hold one round of batch %llu (%.3g s): "
				   "give more --time or use --samples",
				   budget_s, (unsigned long long)batch, round_ticks / tsc_hz);
			return SB_RUN_TOO_SHORT;
		}
		runs[bi].sg = (struct segment){
			.batch = batch,
			.bi = bi,
			.block_rounds = block_rounds_for(o, round_ticks, tsc_hz),
			.round_ticks = round_ticks,
			.budget_ticks = o->samples ? UINT64_MAX : (uint64_t)(budget_s * tsc_hz),
			.samples = o->samples,
			.max_rounds = MAX_ROUNDS_PER_BATCH,
			.progress_from = (double)bi / (double)o->n_batches,
			.progress_span = 1.0 / (double)o->n_batches,
		};
	}
	return 0;
}

int sb_size_blocks(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o, uint64_t delay_max,
		   double cpt0, double tsc_hz, struct batch_run *runs, char *err, size_t errlen)
{
	uint64_t *fastest = calloc(o->n_batches + 1, sizeof(*fastest));
	if (!fastest)
		return sb_run_err(err, errlen, "out of memory", NULL), -1;
	int rc = sb_fastest_rounds(arms, n_arms, o, fastest, err, errlen);
	if (rc == 0)
		rc = sb_segments_sized(n_arms, o, fastest, delay_max, cpt0, tsc_hz, runs, err, errlen);
	free(fastest);
	return rc;
}
