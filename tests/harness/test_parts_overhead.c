/* Two parts' figures compared across parts (sb_run_arm_sets with its kept
 * blocks handed back, then sb_paired_between_placements, as --padded
 * compares an arm with its padded baseline), on arms that return
 * synthetic tick counts (batch 64, 1 cycle per tick).
 *
 * Each part has its own empty stub (overhead arm) and one arm of 1100
 * ticks per sample in every state. The empty stub has two steady states,
 * 100 and 300 ticks, in shares that differ between the parts: a quarter
 * of part A's states at 300, three quarters of part B's. Each part removes
 * its own estimate of the empty stub from its values, so the arms' values
 * differ by a whole-part constant; the difference across parts adds the
 * removed figure back, and reads the raw difference, 0.
 * - sb_arm_set_blocks.removed is the part's cell's overhead_cycles_per_iter;
 * - across parts the figure is 0 within the samples' jitter (< 0.05 cycle);
 * - with the removed figures left out it reads the empty stub's difference
 *   (more than 0.5 cycle): what the check above guards;
 * - an arm's own cycles CI holds its part's empty-stub spread (part A,
 *   wider than a cycle), and only the jitter where the stub is steady
 *   (part C, a constant 100 ticks: narrower than 0.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness/harness.h"
#include "stats/paired_placements.h"

#define N_STATES 4
#define BATCH 64

struct synthetic {
	uint64_t ticks[N_STATES];
	size_t state;
	unsigned long long n;
};

static uint64_t sample(void *ctx, uint64_t batch)
{
	(void)batch;
	struct synthetic *s = ctx;
	s->n++;
	return s->ticks[s->state % N_STATES] + (s->n * 2654435761u >> 7) % 5;
}

static void set_state(void *ctx, size_t state)
{
	((struct synthetic *)ctx)->state = state;
}

static struct sb_arm_blocks arm_of(const struct sb_arm_set_blocks *pb, double removed)
{
	/* Arm 1: arm 0 is the empty stub. */
	return (struct sb_arm_blocks){.value = pb->value + pb->n, .placement = pb->state, .process = pb->process,
				      .n = pb->n, .removed = removed};
}

int main(void)
{
	struct synthetic syn[3][2] = {
		{{.ticks = {100, 100, 100, 300}}, {.ticks = {1100, 1100, 1100, 1100}}},
		{{.ticks = {100, 300, 300, 300}}, {.ticks = {1100, 1100, 1100, 1100}}},
		{{.ticks = {100, 100, 100, 100}}, {.ticks = {1100, 1100, 1100, 1100}}},
	};
	static const char *names[] = {"overhead", "arm"};
	struct sb_arm arms[3][2];
	for (int p = 0; p < 3; p++)
		for (int a = 0; a < 2; a++)
			arms[p][a] = (struct sb_arm){.name = names[a], .seed_name = names[a], .sample = sample,
						     .ctx = &syn[p][a], .is_overhead = a == 0, .is_baseline = a == 1,
						     .n_states = N_STATES, .set_state = set_state};
	static const uint64_t batches[] = {BATCH};
	static const struct sb_run_test_hooks hooks = {.spread_only = 1, .fixed_clock = 1};
	struct sb_run_opts o = {.batches = batches, .n_batches = 1, .samples = 20000, .seed = 5, .test = &hooks};
	struct sb_results res[3];
	struct sb_arm_set_blocks pb[3];
	memset(pb, 0, sizeof(pb));
	struct sb_arm_set parts[3];
	for (int p = 0; p < 3; p++)
		parts[p] = (struct sb_arm_set){.arms = arms[p], .n_arms = 2, .opts = &o, .out = &res[p],
						.blocks = &pb[p]};
	char err[256] = "";
	int rc = sb_run_arm_sets(parts, 3, err, sizeof(err));
	CHECK(rc == 0, "run failed: %s", err);
	if (rc != 0)
		return check_report("parts_overhead");

	for (int p = 0; p < 3; p++) {
		const struct sb_cell *c = &res[p].cells[0];
		CHECK(pb[p].n > 0 && fabs(pb[p].removed - c->overhead_cycles) < 1e-12,
		      "part %d: %zu blocks, removed %.4f, its cell's overhead %.4f", p, pb[p].n, pb[p].removed,
		      c->overhead_cycles);
	}
	CHECK(pb[1].removed - pb[0].removed > 0.5, "the parts' empty stubs: %.3f and %.3f cycles per call, want "
	      "them apart by more than 0.5 (the test's premise)", pb[0].removed, pb[1].removed);

	struct sb_paired with, without;
	struct sb_arm_blocks a = arm_of(&pb[1], pb[1].removed), b = arm_of(&pb[0], pb[0].removed);
	CHECK(sb_paired_between_placements(&a, &b, 200, 7, &with) == 0 && with.mean.known &&
		      fabs(with.mean.value) < 0.05 && fabs(with.median.value) < 0.05,
	      "across parts: %+.3f (median %+.3f), want 0: the same arm's raw ticks", with.mean.value,
	      with.median.value);
	a.removed = b.removed = 0;
	CHECK(sb_paired_between_placements(&a, &b, 200, 7, &without) == 0 && without.mean.known &&
		      fabs(without.mean.value + (pb[1].removed - pb[0].removed)) < 0.05,
	      "the removed figures left out: %+.3f, want -(%.3f - %.3f)", without.mean.value, pb[1].removed,
	      pb[0].removed);

	/* An arm's own cycles: its CI takes the empty stub's estimate's in
	 * quadrature. Part A's stub sits at 0 or +3.1 cycles per call by state
	 * (its CI over 4 states spans cycles), part C's is constant. */
	const struct sb_summary *ca = &res[0].cells[0].cycles, *cc = &res[2].cells[0].cycles;
	CHECK(ca->ci_hi - ca->ci_lo > 1 && ca->ci_lo < ca->mean && ca->ci_hi > ca->mean,
	      "part A's arm: %.3f [%.3f, %.3f], want the empty stub's spread in its CI", ca->mean, ca->ci_lo,
	      ca->ci_hi);
	CHECK(cc->ci_hi - cc->ci_lo < 0.2, "part C's arm: %.3f [%.3f, %.3f], want only the jitter", cc->mean,
	      cc->ci_lo, cc->ci_hi);

	for (int p = 0; p < 3; p++) {
		sb_arm_set_blocks_free(&pb[p]);
		sb_results_free(&res[p]);
	}
	return check_report("parts_overhead");
}
