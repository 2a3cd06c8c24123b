/* A slower steady state is data, not an outlier: an arm whose samples take
 * 27 % longer in 3 of its 8 re-rolled states keeps those blocks, shows two
 * modes and a delta against the baseline that counts both; only the
 * injected spikes (an interrupt inside a sample) are dropped as outliers.
 * Judged against the batch's median, the slow blocks' samples would be
 * outliers and the delta would read 0.
 * The arms return synthetic tick counts (about 20 cycles per call at
 * batch 64, as the replicas cost), so nothing here depends on how fast
 * this machine is: only the harness's bookkeeping is judged. */
#include <string.h>

#include "check.h"
#include "stubbench/harness.h"

#define N_STATES 8
#define SPIKE_EVERY 997 /* one sample in this many holds a spike */
#define SPIKE_TICKS 20000

struct synthetic {
	uint64_t fast, slow; /* ticks per sample in states 0-4 / 5-7 */
	size_t state;
	unsigned long long n, spikes;
};

static uint64_t sample(void *ctx, uint64_t batch)
{
	(void)batch;
	struct synthetic *s = ctx;
	s->n++;
	uint64_t t = s->state % N_STATES >= 5 ? s->slow : s->fast;
	t += (s->n * 2654435761u >> 7) % 7; /* a few ticks of jitter */
	if (s->n % SPIKE_EVERY == 0) {
		s->spikes++;
		t += SPIKE_TICKS;
	}
	return t;
}

static void set_state(void *ctx, size_t state)
{
	((struct synthetic *)ctx)->state = state;
}

int main(void)
{
	struct synthetic syn[3] = {{.fast = 100, .slow = 100}, {.fast = 1100, .slow = 1100},
				   {.fast = 1100, .slow = 1400}};
	static const char *names[] = {"overhead", "baseline", "two-state"};
	struct sb_arm arms[3];
	for (int a = 0; a < 3; a++)
		arms[a] = (struct sb_arm){.name = names[a], .seed_name = names[a], .sample = sample,
					  .ctx = &syn[a], .is_overhead = a == 0, .is_baseline = a == 1,
					  .n_states = N_STATES, .set_state = set_state};
	static const uint64_t batches[] = {64};
	struct sb_run_opts o = {.batches = batches, .n_batches = 1, .samples = 64000, .seed = 11};
	struct sb_results res;
	char err[256] = "";
	int rc = sb_run_interleaved(arms, 3, &o, &res, err, sizeof(err));
	CHECK(rc == 0, "run failed: %s", err);
	if (rc != 0)
		return check_report("slow_states");
	const struct sb_cell *two = &res.cells[1 * res.n_batches];
	CHECK(strcmp(two->arm->name, "two-state") == 0, "cell 1 is %s", two->arm->name);
	/* Every spike anywhere could at most drop its round: the slow state's
	 * samples, 3/8 of the arm's, must not be among the outliers. */
	unsigned long long spikes = syn[0].spikes + syn[1].spikes + syn[2].spikes;
	CHECK(two->n_outliers <= spikes, "%zu rounds dropped as outliers, %llu spikes injected", two->n_outliers,
	      spikes);
	CHECK(two->n_samples > 0, "no samples kept");
	/* Both states among the modes (the clock measured per block can split
	 * one state into neighbours a cycle apart): the slow one about 30 %
	 * above the fast one, each holding a fair share of the blocks. */
	double fast_share = 0;
	for (size_t m = 0; m < two->n_modes; m++)
		if (two->modes[m].cycles < two->modes[0].cycles * 1.15)
			fast_share += two->modes[m].share;
	CHECK(two->n_modes >= 2 && two->modes[two->n_modes - 1].cycles > two->modes[0].cycles * 1.2,
	      "%zu modes, the highest %.1f cycles, the lowest %.1f", two->n_modes,
	      two->modes[two->n_modes - 1].cycles, two->modes[0].cycles);
	CHECK(fast_share > 0.2 && fast_share < 0.8, "the fast state holds %.2f of the blocks", fast_share);
	/* Against the baseline (1000 ticks net): +30 % in the slow states, 0
	 * in the fast ones, so the delta over both is near 3/8 x 30 %. */
	CHECK(two->has_delta && two->delta_pct > 5 && two->delta_pct < 25, "delta %+.2f %%", two->delta_pct);
	CHECK(two->has_delta && two->delta_lo_pct < two->delta_pct && two->delta_hi_pct > two->delta_pct,
	      "delta CI [%+.2f, %+.2f] leaves out its estimate", two->delta_lo_pct, two->delta_hi_pct);
	/* Matched: both in their lowest state, the fast one: no cost. */
	CHECK(two->has_matched && two->matched_cycles > -1 && two->matched_cycles < 1, "matched %+.2f cycles",
	      two->matched_cycles);
	sb_results_free(&res);
	return check_report("slow_states");
}
