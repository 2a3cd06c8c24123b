/* How the harness treats steady states, on arms that return synthetic
 * tick counts (about 16 cycles per call at batch 64, as the replicas
 * cost), so nothing here depends on how fast this machine is: only the
 * harness's bookkeeping is judged (no block is flagged disturbed,
 * sb_run_test_hooks.disturb_none, and every block's clock is 1 cycle per
 * tick, sb_run_test_hooks.fixed_clock).
 * - A slower steady state is data, not an outlier: an arm 27 % slower in 3
 *   of its 8 re-rolled states keeps those blocks, shows both states among
 *   its modes and a delta that counts both; only the injected spikes (an
 *   interrupt inside a sample) are dropped. Judged against the batch's
 *   median, the slow blocks' samples would be outliers and the delta 0.
 * - The codegen cost is paired by placement: an arm slower than the
 *   baseline in 3 of 8 placements costs 3/8 of that on average, the
 *   placements' differences in two modes (0 and the slow state's); a fast
 *   state that both arms share at one placement (a mode of 12 % of the
 *   blocks, found in one run and missed in the next) costs nothing.
 * - A state that changes with time is said to: an arm slow in the later
 *   of 8 fresh processes (they run one after the other) is flagged and
 *   named on the stderr line; one slow in every other process is not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "harness/harness.h"
#include "output/output.h"

#define N_STATES 8
#define SPIKE_EVERY 997 /* one sample in this many holds a spike */
#define SPIKE_TICKS 20000

struct synthetic {
	uint64_t ticks[N_STATES]; /* per sample in each state */
	size_t state;
	unsigned long long n, spikes;
	/* 0: ticks by state; else by fresh process, in the order they ran:
	 * 'l' ticks[1] from the fifth on (later), 'a' in every other one. */
	char by_process;
};

/* The fresh processes seen so far, counted across them. */
static struct {
	pid_t last;
	unsigned count;
} *processes_seen;

static unsigned process_index(void)
{
	if (processes_seen->last != getpid()) {
		processes_seen->last = getpid();
		processes_seen->count++;
	}
	return processes_seen->count;
}

static uint64_t sample(void *ctx, uint64_t batch)
{
	(void)batch;
	struct synthetic *s = ctx;
	s->n++;
	uint64_t t = s->ticks[s->state % N_STATES];
	if (s->by_process)
		t = s->ticks[s->by_process == 'l' ? process_index() > 5 : process_index() % 2];
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

/* Runs the overhead (100 ticks), the baseline and one more arm at batch
 * 64 in N_STATES states; the other arm's cell into *cell (res to free). */
static int run(struct synthetic syn[3], size_t processes, struct sb_results *res, const struct sb_cell **cell)
{
	static const char *names[] = {"overhead", "baseline", "other"};
	static struct sb_arm arms[3]; /* the cells point at them */
	for (int a = 0; a < 3; a++)
		arms[a] = (struct sb_arm){.name = names[a], .seed_name = names[a], .sample = sample,
					  .ctx = &syn[a], .is_overhead = a == 0, .is_baseline = a == 1,
					  .n_states = N_STATES, .set_state = set_state};
	static const uint64_t batches[] = {64};
	/* The ticks are not this machine's, nor is its clock. */
	static const struct sb_run_test_hooks synthetic = {.disturb_none = 1, .fixed_clock = 1};
	struct sb_run_opts o = {.batches = batches, .n_batches = 1, .samples = 200000, .seed = 11,
				.processes = processes, .test = &synthetic};
	char err[256] = "";
	int rc = sb_run_interleaved(arms, 3, &o, res, err, sizeof(err));
	CHECK(rc == 0, "run failed: %s", err);
	if (rc == 0) {
		*cell = &res->cells[1 * res->n_batches];
		CHECK(strcmp((*cell)->arm->name, "other") == 0, "cell 1 is %s", (*cell)->arm->name);
	}
	return rc;
}

static void slow_state_kept(void)
{
	struct synthetic syn[3] = {
		{.ticks = {100, 100, 100, 100, 100, 100, 100, 100}},
		{.ticks = {1100, 1100, 1100, 1100, 1100, 1100, 1100, 1100}},
		{.ticks = {1100, 1100, 1100, 1100, 1100, 1400, 1400, 1400}},
	};
	struct sb_results res;
	const struct sb_cell *two;
	if (run(syn, 0, &res, &two) != 0)
		return;
	/* Every spike anywhere could at most drop its round: the slow state's
	 * samples, 3/8 of the arm's, must not be among the outliers. */
	unsigned long long spikes = syn[0].spikes + syn[1].spikes + syn[2].spikes;
	CHECK(two->n_outliers <= spikes, "%zu rounds dropped as outliers, %llu spikes injected", two->n_outliers,
	      spikes);
	CHECK(two->n_samples > 0, "no samples kept");
	/* Both states among the modes (the modes within 15 % of the lowest
	 * count as the fast state): the slow one about 30 % above the fast
	 * one, each holding a fair share of the blocks. */
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
	CHECK(two->delta_pct.known && two->delta_pct.value > 5 && two->delta_pct.value < 25, "delta %+.2f %%", two->delta_pct.value);
	CHECK(two->delta_pct.known && two->delta_pct.lo < two->delta_pct.value && two->delta_pct.hi > two->delta_pct.value,
	      "delta CI [%+.2f, %+.2f] leaves out its estimate", two->delta_pct.lo, two->delta_pct.hi);
	/* Codegen, paired by placement: 300 ticks (4.69 cycles a call at batch
	 * 64) in 3 of the 8 placements, 0 in the others: 3/8 of it on average,
	 * the median 0, the placements' differences in two modes. */
	double slow = 300.0 / 64;
	CHECK(two->matched_cycles.known && fabs(two->matched_cycles.value - 3 * slow / 8) < 0.1,
	      "codegen %+.2f cycles, expected %+.2f", two->matched_cycles.value, 3 * slow / 8);
	CHECK(two->matched_cycles.lo < two->matched_cycles.value && two->matched_cycles.hi > two->matched_cycles.value,
	      "codegen CI [%+.2f, %+.2f] leaves out its estimate", two->matched_cycles.lo, two->matched_cycles.hi);
	CHECK(two->codegen_median.known && fabs(two->codegen_median.value) < 0.1, "median %+.2f",
	      two->codegen_median.value);
	CHECK(two->n_codegen_modes == 2 && fabs(two->codegen_modes[0].cycles) < 0.1 &&
		      fabs(two->codegen_modes[1].cycles - slow) < 0.1 && fabs(two->codegen_modes[1].share - 3.0 / 8) < 0.01,
	      "%zu modes of the differences, %+.2f and %+.2f", two->n_codegen_modes, two->codegen_modes[0].cycles,
	      two->codegen_modes[1].cycles);
	CHECK(two->codegen_against && strcmp(two->codegen_against, "baseline") == 0, "codegen against %s",
	      two->codegen_against ? two->codegen_against : "nothing");
	CHECK(!two->layout_cycles.known, "a layout cost without a padded baseline");
	sb_results_free(&res);
}

static void shared_rare_state_costs_nothing(void)
{
	struct synthetic syn[3] = {
		{.ticks = {100, 100, 100, 100, 100, 100, 100, 100}},
		{.ticks = {800, 1100, 1100, 1100, 1100, 1100, 1100, 1100}},
		{.ticks = {800, 1100, 1100, 1100, 1100, 1100, 1100, 1100}},
	};
	struct sb_results res;
	const struct sb_cell *other;
	if (run(syn, 0, &res, &other) != 0)
		return;
	const struct sb_cell *base = &res.cells[0];
	CHECK(base->n_modes >= 2 && base->modes[0].share < 0.25, "the baseline's %zu modes, the lowest %.2f of blocks",
	      base->n_modes, base->modes[0].share);
	/* The same code in the same state costs the same: codegen 0, not the
	 * 4.7 cycles the rare fast state is below the rest. */
	CHECK(other->matched_cycles.known && fabs(other->matched_cycles.value) < 0.05, "codegen %+.2f cycles (has %d)",
	      other->matched_cycles.value, other->matched_cycles.known);
	sb_results_free(&res);
}

/* The stderr line for res, into buf. */
static int time_line(const struct sb_results *res, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	int said = sb_output_time_line(f, "stubbench", res);
	fclose(f);
	return said;
}

static void states_in_time(void)
{
	processes_seen = mmap(NULL, sizeof(*processes_seen), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			      -1, 0);
	CHECK(processes_seen != MAP_FAILED, "no shared page");
	if (processes_seen == MAP_FAILED)
		return;
	static const char kinds[] = {'l', 'a'};
	for (int k = 0; k < 2; k++) {
		struct synthetic syn[3] = {
			{.ticks = {100, 100}},
			{.ticks = {1100, 1100}},
			{.ticks = {1100, 1400}, .by_process = kinds[k]},
		};
		memset(processes_seen, 0, sizeof(*processes_seen));
		struct sb_results res;
		const struct sb_cell *other;
		if (run(syn, 8, &res, &other) != 0)
			continue;
		char line[1024] = "";
		int said = time_line(&res, line, sizeof(line));
		CHECK(other->n_processes == 8 && other->n_modes >= 2, "%zu processes, %zu modes", other->n_processes,
		      other->n_modes);
		if (kinds[k] == 'l') {
			CHECK(other->changed_in_time && other->time_runs == 2, "later processes slow: flagged %d, %zu runs",
			      other->changed_in_time, other->time_runs);
			CHECK(!res.cells[0].changed_in_time, "the baseline, one state throughout, is flagged");
			CHECK(said && strstr(line, "states changed with time: other@64 (2 stretches over 8 processes)") &&
				      strchr(line, '\n') == line + strlen(line) - 1,
			      "line: '%s'", line);
		} else {
			CHECK(!other->changed_in_time && other->time_runs == 8, "every other process slow: flagged %d, "
			      "%zu runs", other->changed_in_time, other->time_runs);
			CHECK(!said && line[0] == 0, "line printed: '%s'", line);
		}
		sb_results_free(&res);
	}
	munmap(processes_seen, sizeof(*processes_seen));
}

int main(void)
{
	slow_state_kept();
	shared_rare_state_costs_nothing();
	states_in_time();
	return check_report("steady_states");
}
