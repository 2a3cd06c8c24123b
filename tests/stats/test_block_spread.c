/* Interference inside a block: on arms that return synthetic tick counts
 * (batch 64, 1 cycle per tick: sb_run_test_hooks.fixed_clock), with only the
 * empty stub's spread judging blocks (sb_run_test_hooks.spread_only: the
 * canaries, which measure this machine, stay out of it).
 * - Every tenth block has 60 % of every arm's samples 600 ticks late: the
 *   outlier rule, judged against the block's median (now a late sample),
 *   keeps them, its trimmed means rise by about 6 cycles per call, and the
 *   canaries (run before and after it) would not see it. Those blocks are
 *   flagged and the estimate is the clean one, 1000 ticks / 64 = 15.625
 *   cycles; kept, they would add about 0.6. (Fewer than half the samples
 *   late are the outlier rule's: they are dropped round by round.)
 * - An empty stub in two steady states (100 or 300 ticks by state) moves
 *   whole blocks, not the spread within them: nothing is flagged. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness/harness.h"

#define N_STATES 4

struct synthetic {
	uint64_t ticks[N_STATES];
	size_t state;
	unsigned long long n;
	int noisy;          /* every tenth block: 60 % of samples 600 ticks late */
	unsigned *blocks;   /* blocks begun, counted by the overhead arm */
};

static uint64_t sample(void *ctx, uint64_t batch)
{
	(void)batch;
	struct synthetic *s = ctx;
	s->n++;
	uint64_t t = s->ticks[s->state % N_STATES] + (s->n * 2654435761u >> 7) % 5;
	if (s->noisy && *s->blocks % 10 == 3 && s->n % 5 < 3)
		t += 600;
	return t;
}

static void set_state(void *ctx, size_t state)
{
	struct synthetic *s = ctx;
	s->state = state;
	if (s->ticks[0] < 500) /* the overhead arm: a block begins */
		(*s->blocks)++;
}

static const struct sb_cell *run(struct synthetic syn[3], struct sb_results *res)
{
	static const char *names[] = {"overhead", "baseline", "other"};
	static struct sb_arm arms[3];
	for (int a = 0; a < 3; a++)
		arms[a] = (struct sb_arm){.name = names[a], .seed_name = names[a], .sample = sample,
					  .ctx = &syn[a], .is_overhead = a == 0, .is_baseline = a == 1,
					  .n_states = N_STATES, .set_state = set_state};
	static const uint64_t batches[] = {64};
	/* Only the empty stub's spread judges blocks, at 1 cycle per tick. */
	static const struct sb_run_test_hooks spread_only = {.spread_only = 1, .fixed_clock = 1};
	struct sb_run_opts o = {.batches = batches, .n_batches = 1, .samples = 100000, .seed = 3,
				.test = &spread_only};
	char err[256] = "";
	int rc = sb_run_interleaved(arms, 3, &o, res, err, sizeof(err));
	CHECK(rc == 0, "run failed: %s", err);
	return rc == 0 ? &res->cells[1 * res->n_batches] : NULL;
}

int main(void)
{
	unsigned blocks = 0;

	struct synthetic noisy[3] = {
		{.ticks = {100, 100, 100, 100}, .noisy = 1, .blocks = &blocks},
		{.ticks = {1100, 1100, 1100, 1100}, .noisy = 1, .blocks = &blocks},
		{.ticks = {1100, 1100, 1100, 1100}, .noisy = 1, .blocks = &blocks},
	};
	struct sb_results res;
	const struct sb_cell *c = run(noisy, &res);
	if (c) {
		CHECK(fabs(c->cycles.mean - 1000.0 / 64) < 0.05, "other: %.3f cycles per call, want 15.625 (the noisy "
		      "blocks kept?)", c->cycles.mean);
		/* A tenth of the blocks, give or take the first (warm-up) ones. */
		double share = (double)c->n_disturbed / (double)(c->n_disturbed + c->n_samples + c->n_outliers);
		CHECK(share > 0.05 && share < 0.15, "%.3f of the rounds in flagged blocks, want about 0.1", share);
		sb_results_free(&res);
	}

	blocks = 0;
	struct synthetic states[3] = {
		{.ticks = {100, 300, 100, 300}, .blocks = &blocks},
		{.ticks = {1100, 1300, 1100, 1300}, .blocks = &blocks},
		{.ticks = {1100, 1300, 1100, 1300}, .blocks = &blocks},
	};
	c = run(states, &res);
	if (c) {
		CHECK(c->n_disturbed == 0, "%zu rounds flagged: a steady state of the empty stub is not a spread",
		      c->n_disturbed);
		sb_results_free(&res);
	}
	return check_report("block_spread");
}
