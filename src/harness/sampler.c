/* sampler.c: the sampling loop (see set_run.h).
 *
 * A segment is a share of one batch size's rounds: one round is one sample
 * per arm, the arms' order rotated every round and a random delay before
 * each sample. Rounds are grouped in blocks of about a millisecond; before
 * each block the core clock is measured and the add canary runs
 * (canaries.c), and the thread's context switches are read; before and
 * after it the window canary runs. Between the canaries and the recorded
 * rounds the block runs WARM_ROUNDS unrecorded ones in its state (the
 * canaries leave the measured code cold). Before each block the SMT
 * sibling takes the block's turn (sibling.h: loaded or quiet). Which blocks were disturbed is
 * judged after the run (disturbed.c), the statistics use the kept blocks
 * only (batch_summary.c).
 */
#define _GNU_SOURCE
#include "set_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "harness/sibling.h"
#include "harness/stack_at_offset.h"
#include "base/rng.h"
#include "stubbench/timer.h"

#define STACK_STEPS 256            /* random stack offsets: 0 .. 255 x 16 bytes, a whole page */
#define WARM_ROUNDS 4              /* unrecorded rounds a block runs after its canaries */

/* One sample with the stack moved down by pad bytes: where the stubs'
 * frames fall in the cache lines and sets is part of the hidden state. */
static __attribute__((noinline)) uint64_t sample_with_stack(const struct sb_arm *arm, uint64_t batch,
							     size_t pad)
{
	volatile char room[pad + 16];
	room[0] = 0;
	uint64_t t = arm->sample(arm->ctx, batch);
	room[pad] = room[0];
	return t;
}

uint64_t sb_sample_arm(const struct sb_arm *arm, uint64_t batch, size_t pad, const struct sb_run_opts *o)
{
	if (o->fixed_stack)
		return sb_call_at_stack_offset(arm->sample, arm->ctx, batch, o->stack_rsp_offset);
	return sample_with_stack(arm, batch, pad);
}

/* One round of every arm, its order rotated by `turn`, each sample after a
 * random delay; the ticks go to *t (one per arm) when t is not NULL.
 * Returns the arm that failed, or n_arms. */
static size_t one_round(const struct sb_arm *arms, size_t n_arms, uint64_t batch, size_t bi, size_t turn,
			size_t pad, const struct sb_run_opts *o, struct sb_rng *rng, uint64_t delay_max, double *t,
			size_t stride)
{
	for (size_t k = 0; k < n_arms; k++) {
		size_t a = (k + turn) % n_arms; /* rotate the order */
		sb_spin(sb_rng_below(rng, delay_max));
		if (t && o->before_sample)
			o->before_sample(o->hook_ctx, a, bi);
		uint64_t ticks = sb_sample_arm(&arms[a], batch, pad, o);
		if (t && o->after_sample)
			o->after_sample(o->hook_ctx, a, bi);
		if (ticks == UINT64_MAX)
			return a;
		if (t)
			t[a * stride] = (double)ticks;
	}
	return n_arms;
}

/* Runs one block of rounds in re-rolled state `state` (every arm with
 * states gets state mod its count): the canaries, then WARM_ROUNDS
 * unrecorded rounds in the new state, then the recorded ones; returns -1
 * when an arm failed, -2 when the room for its rounds could not be had. The warm rounds come after the canaries because the
 * canaries' loops leave the measured code cold; without them a cell's
 * delta depends on its blocks' length (measured:
 * results/amd-epyc-zen5-vm.md; docs/harness-steps.md). */
static int run_block(const struct sb_arm *arms, size_t n_arms, uint64_t batch, size_t bi,
		     size_t rounds, size_t state, const struct sb_run_opts *o, struct sb_rng *rng,
		     uint64_t delay_max, struct batch_data *d, size_t *failed_arm)
{
	struct block b;
	memset(&b, 0, sizeof(b));
	b.state = state;
	size_t pad = (size_t)sb_rng_below(rng, STACK_STEPS) * 16;
	if (o->stack_by_state) {
		struct sb_rng at_state;
		sb_rng_seed(&at_state, sb_seed_stream(o->seed, SB_SEED_STACK, state));
		pad = (size_t)sb_rng_below(&at_state, STACK_STEPS) * 16;
	}
	long csw0 = sb_context_switches();
	b.cpt = o->test && o->test->fixed_clock ? 1.0 : sb_block_clock();
	b.canary = sb_measure_canary(b.cpt);
	b.window = sb_measure_window(b.cpt);
	for (size_t a = 0; a < n_arms; a++)
		if (arms[a].set_state && arms[a].n_states > 0)
			arms[a].set_state(arms[a].ctx, state % arms[a].n_states);
	for (size_t w = 0; w < WARM_ROUNDS; w++) {
		size_t failed = one_round(arms, n_arms, batch, bi, w, pad, o, rng, delay_max, NULL, 0);
		if (failed < n_arms) {
			*failed_arm = failed;
			return -1;
		}
	}
	b.first_round = d->n_rounds;
	b.tsc = __rdtsc();
	for (size_t r = 0; r < rounds; r++) {
		if (sb_batch_reserve_rounds(d, n_arms, d->n_rounds + 1) != 0)
			return -2;
		size_t failed = one_round(arms, n_arms, batch, bi, d->n_rounds, pad, o, rng, delay_max,
					  d->ticks + d->n_rounds, d->cap);
		if (failed < n_arms) {
			*failed_arm = failed;
			return -1;
		}
		d->n_rounds++;
	}
	b.n_rounds = rounds;
	/* Again after the block, the higher kept: a sibling that starts or
	 * stops within the block is seen at one end. */
	double w = sb_measure_window(b.cpt);
	if (w > b.window)
		b.window = w;
	b.csw = sb_context_switches() - csw0;
	if (sb_batch_reserve_blocks(d, d->n_blocks + 1) != 0)
		return -2;
	d->blocks[d->n_blocks++] = b;
	return 0;
}

/* x[0..n) in a random order (Fisher-Yates). */
static void shuffle(size_t *x, size_t n, struct sb_rng *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)sb_rng_below(rng, i), t = x[i - 1];
		x[i - 1] = x[j];
		x[j] = t;
	}
}

/* A segment that reached its most rounds before its time ended leaves the
 * rest to the process's next segments (carry), and what the last leaves
 * is waited out: the processes after this one then start when their share
 * of the run does, and a run of --time=T spans T (the host's states change
 * over seconds; a 40 s run of batch 512 alone ended after 5 s). */
void sb_take_carry(struct segment *sg, uint64_t carry)
{
	if (sg->budget_ticks != UINT64_MAX)
		sg->budget_ticks += carry;
}

void sb_wait_out(uint64_t ticks, const struct sb_run_opts *o)
{
	uint64_t end = __rdtsc() + ticks;
	while (ticks && __rdtsc() < end && !(o->stop && o->stop())) {
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
	}
}

/* The message of a block that failed with rc (run_block's): the arm's
 * sample, or the room for the rounds, by its true cause. */
static void block_failed(int rc, const char *arm, uint64_t batch, char *err, size_t errlen)
{
	if (rc == -2)
		sb_set_err(err, errlen, "the rounds of batch %llu: %s", (unsigned long long)batch,
			   sb_errno_cause(ENOMEM));
	else
		sb_run_err(err, errlen, "sample failed", arm);
}

/* See set_run.h. The warm-up block runs without the sample
 * hooks, in state 0. */
int sb_run_segment(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
		   const struct segment *sg, size_t *order, size_t n_states, struct sb_rng *rng,
		   uint64_t delay_max, struct batch_data *d, uint64_t *left, char *err, size_t errlen)
{
	*left = 0;
	size_t failed = 0, first_block = d->n_blocks, first_round = d->n_rounds;
	struct batch_data warm;
	memset(&warm, 0, sizeof(warm));
	/* Without the hooks: counters and marker regions count only the
	 * samples the statistics use. */
	struct sb_run_opts unhooked = *o;
	unhooked.before_sample = unhooked.after_sample = NULL;
	sb_sibling_block(o->sibling, sg->process, 0);
	int rc = run_block(arms, n_arms, sg->batch, sg->bi, sg->block_rounds, 0, &unhooked, rng, delay_max, &warm,
			   &failed);
	sb_batch_data_free(&warm);
	if (rc) {
		block_failed(rc, arms[failed].name, sg->batch, err, errlen);
		return -1;
	}
	/* The order of states from a seed of its own: the same for every part
	 * that takes turns with this one in its process, so that their block
	 * k lies at the same placement. */
	struct sb_rng order_rng, *orng = rng;
	if (sg->order_seed) {
		sb_rng_seed(&order_rng, sg->order_seed);
		orng = &order_rng;
		for (size_t j = 0; j < n_states; j++)
			order[j] = j;
	}
	uint64_t tb = __rdtsc();
	for (;;) {
		size_t rounds = sg->block_rounds, done_rounds = d->n_rounds - first_round;
		if (o->stop && o->stop()) {
			sb_run_err(err, errlen, "interrupted", NULL);
			return -1;
		}
		if (sg->samples) {
			if (done_rounds >= sg->samples)
				break;
			if (sg->samples - done_rounds < rounds)
				rounds = sg->samples - done_rounds;
		} else if (__rdtsc() - tb >= sg->budget_ticks) {
			break;
		} else if (done_rounds >= sg->max_rounds) {
			d->capped = 1; /* said once for the run, by part_finish */
			uint64_t used = __rdtsc() - tb;
			*left = used < sg->budget_ticks ? sg->budget_ticks - used : 0;
			break;
		}
		size_t nb = d->n_blocks - first_block;
		if (nb % n_states == 0)
			shuffle(order, n_states, orng);
		/* The sibling's turn is taken before the block's canaries, which
		 * then read the state the block runs in. */
		enum sb_sibling_state sib = sb_sibling_block(o->sibling, sg->process, nb);
		rc = run_block(arms, n_arms, sg->batch, sg->bi, rounds, order[nb % n_states], o, rng, delay_max, d,
			       &failed);
		if (rc) {
			block_failed(rc, arms[failed].name, sg->batch, err, errlen);
			return -1;
		}
		d->blocks[d->n_blocks - 1].process = sg->process;
		d->blocks[d->n_blocks - 1].sibling = (int)sib;
		if (o->progress) {
			double done = sg->samples ? (double)(d->n_rounds - first_round) / (double)sg->samples
						  : (double)(__rdtsc() - tb) / (double)sg->budget_ticks;
			done = sg->progress_from + sg->progress_span * (done > 1 ? 1 : done);
			fprintf(stderr, "\rstubbench: %3.0f%% of the run (batch %llu)  ", 100.0 * done,
				(unsigned long long)sg->batch);
		}
	}
	if (o->stop && o->stop()) { /* no statistics for a run that ends */
		sb_run_err(err, errlen, "interrupted", NULL);
		return -1;
	}
	return 0;
}
