/* Warm rounds: a block's recorded rounds start only after the code has run
 * a few rounds in the block's new state. On the AMD Zen 5 VM the first
 * rounds after a block's canaries read +35 to +44, +14 to +23, +2 to +11 %
 * and the rest level,
 * so the harness runs 4 unrecorded rounds between its canaries and its
 * recorded ones (sampler.c, WARM_ROUNDS).
 *
 * Synthetic arms stand in for such code: the first 4 samples after each
 * set_state are "cold" (they would read high). The after_sample hook,
 * which the harness calls for recorded samples only, counts the cold
 * samples that were recorded: there must be none, in one process and in
 * fresh ones; and every recorded sample must be one the hook saw (the
 * hook is not called for the warm rounds, so counters count only what
 * the statistics use). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness/harness.h"
#include "output/output.h"

#define COLD_SAMPLES 4
#define N_STATES 8

/* The ticks are not this machine's, nor is its clock: no block is
 * disturbed, every clock is 1 cycle per tick. */
static const struct sb_run_test_hooks synthetic_hooks = {.disturb_none = 1, .fixed_clock = 1};

struct synthetic {
	uint64_t ticks;
	size_t since_state; /* samples since the last set_state */
	int last_cold;      /* the last sample was one of the first cold ones */
	size_t cold;        /* how many samples after a state change are cold (0: COLD_SAMPLES) */
	uint64_t cold_extra; /* what a cold sample adds (0: 40 ticks) */
};

struct hook_count {
	struct synthetic *syn;
	unsigned long long recorded, cold_recorded;
};

static uint64_t sample(void *ctx, uint64_t batch)
{
	(void)batch;
	struct synthetic *s = ctx;
	s->last_cold = s->since_state < (s->cold ? s->cold : COLD_SAMPLES);
	s->since_state++;
	return s->ticks + (s->last_cold ? (s->cold_extra ? s->cold_extra : 40) : 0);
}

static void set_state(void *ctx, size_t state)
{
	(void)state;
	struct synthetic *s = ctx;
	s->since_state = 0;
}

static void after_sample(void *hook_ctx, size_t arm, size_t batch_idx)
{
	(void)batch_idx;
	struct hook_count *h = hook_ctx;
	h->recorded++;
	if (h->syn[arm].last_cold)
		h->cold_recorded++;
}

/* The empty stub, the baseline and a third arm, on syn's samples. */
static void arms_init(struct sb_arm arms[3], struct synthetic syn[3], const char *const names[3])
{
	for (int a = 0; a < 3; a++)
		arms[a] = (struct sb_arm){.name = names[a], .seed_name = names[a], .sample = sample,
					  .ctx = &syn[a], .is_overhead = a == 0, .is_baseline = a == 1,
					  .n_states = N_STATES, .set_state = set_state};
}

static void run(size_t processes)
{
	static const char *names[] = {"overhead", "baseline", "other"};
	struct synthetic syn[3] = {{.ticks = 100}, {.ticks = 1100}, {.ticks = 1100}};
	struct hook_count h = {.syn = syn};
	struct sb_arm arms[3];
	arms_init(arms, syn, names);
	static const uint64_t batches[] = {64, 512};
	struct sb_run_opts o = {.batches = batches, .n_batches = 2, .samples = 640, .seed = 5,
				.after_sample = after_sample, .hook_ctx = &h, .processes = processes,
				.test = &synthetic_hooks};
	struct sb_results res;
	char err[256] = "";
	int rc = sb_run_interleaved(arms, 3, &o, &res, err, sizeof(err));
	CHECK(rc == 0, "%zu processes: run failed: %s", processes, err);
	if (rc != 0)
		return;
	/* In fresh processes the hooks run in the children: this process
	 * sees none of their calls, only the results. */
	if (processes <= 1) {
		CHECK(h.cold_recorded == 0, "%llu of %llu recorded samples were among the first %d after a state change",
		      h.cold_recorded, h.recorded, COLD_SAMPLES);
		/* 640 rounds per batch size, 3 arms, 2 batch sizes. */
		CHECK(h.recorded == 640ULL * 3 * 2, "the hook saw %llu samples, want %d (the recorded ones only)",
		      h.recorded, 640 * 3 * 2);
	}
	/* A cold sample kept would add 40 ticks: the cells would not read
	 * exactly (1100 - 100) / batch. */
	for (size_t i = 0; i < res.n_cells; i++) {
		const struct sb_cell *c = &res.cells[i];
		double want = 1000.0 / (double)c->batch;
		CHECK(c->cycles.max < want + 1e-9 && c->cycles.min > want - 1e-9,
		      "%zu processes: %s@%llu read %.4f to %.4f cycles per call, want exactly %.4f", processes,
		      c->arm->name, (unsigned long long)c->batch, c->cycles.min, c->cycles.max, want);
	}
	/* Warm: no cell says it is cold, and no line. */
	for (size_t i = 0; i < res.n_cells; i++)
		CHECK(res.cells[i].first_round_excess == 0, "%zu processes: %s@%llu: first kept sample %+.2f %% over "
		      "the others, want 0", processes, res.cells[i].arm->name, (unsigned long long)res.cells[i].batch,
		      100 * res.cells[i].first_round_excess);
	char buf[512] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f && sb_output_cold_line(f, "t", &res) == 0, "a cold line for warm code");
	if (f)
		fclose(f);
	sb_results_free(&res);
}

/* Code that stays cold for 6 samples after a state change, 2 past the
 * warm rounds, each 60 ticks high (5.5 % of 1100; under the outlier rule's
 * 64, so the samples are kept and count): the first kept sample of
 * every block reads +5.5 %, and the cold line names the arm. */
static void still_cold(void)
{
	static const char *names[] = {"overhead", "baseline", "slow-to-warm"};
	struct synthetic syn[3] = {{.ticks = 100}, {.ticks = 1100}, {.ticks = 1100, .cold = 6, .cold_extra = 60}};
	struct sb_arm arms[3];
	arms_init(arms, syn, names);
	static const uint64_t batches[] = {8, 64};
	struct sb_run_opts o = {.batches = batches, .n_batches = 2, .samples = 640, .seed = 5,
				.test = &synthetic_hooks};
	struct sb_results res;
	char err[256] = "";
	int rc = sb_run_interleaved(arms, 3, &o, &res, err, sizeof(err));
	CHECK(rc == 0, "still cold: run failed: %s", err);
	if (rc != 0)
		return;
	for (size_t i = 0; i < res.n_cells; i++) {
		const struct sb_cell *c = &res.cells[i];
		int slow = strcmp(c->arm->name, "slow-to-warm") == 0;
		double want = slow ? 60.0 / 1100.0 : 0;
		CHECK(fabs(c->first_round_excess - want) < 1e-9, "%s@%llu: first kept sample %+.3f %% over the "
		      "others, want %+.3f %%", c->arm->name, (unsigned long long)c->batch, 100 * c->first_round_excess,
		      100 * want);
	}
	char buf[1024] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	int said = f ? sb_output_cold_line(f, "t", &res) : -1;
	if (f)
		fclose(f);
	/* Batch 8 is below SB_COLD_MIN_BATCH: named at 64 only. */
	CHECK(said == 1 && strstr(buf, "t: still cold: ") && strstr(buf, "+5.5 % (slow-to-warm@64)") &&
	      !strstr(buf, "@8)") && !strstr(buf, "baseline"), "cold line: '%s'", buf);
	sb_results_free(&res);
}

int main(void)
{
	run(1);
	run(3);
	still_cold();
	return check_report("warm_rounds");
}
