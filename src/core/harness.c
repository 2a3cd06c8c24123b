/* harness.c: the interleaved runner; see harness.h.
 *
 * For each batch size: rounds of one sample per arm, the arms' order rotated
 * every round and a random delay before each sample. Rounds are grouped in
 * blocks of about a millisecond; before each block the core clock is
 * measured (dependent adds: core cycles per TSC tick) and the interference
 * canary runs (independent adds per cycle), and the thread's context switches
 * are read; before and after it the window canary runs (cycles an iteration
 * of a loop bound by the out-of-order window). Between the canaries and the
 * recorded rounds the block runs WARM_ROUNDS unrecorded ones in its state
 * (the canaries leave the measured code cold). A block whose add canary or
 * clock falls well below the run's level, whose window canary rises well
 * above it, or in which the thread was switched out, is disturbed: its
 * samples are excluded and counted. Statistics use the kept blocks only
 * (batch_summary.c).
 */
#define _GNU_SOURCE
#include "stubbench/harness.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <x86intrin.h>

#include "batch_data.h"
#include "stubbench/own_pages.h"
#include "stubbench/pin.h"

#include "stubbench/disturbed.h"
#include "stubbench/parse.h"
#include "stubbench/rng.h"

#define CAL_LOOPS 300              /* x 64 adds: about 6 us per calibration */
#define CAL_TRIES 3                /* calibrations per block, the highest clock kept */
#define WINDOW_LOOPS 40            /* window canary iterations: about 3000 cycles */
#define BLOCK_TARGET_S 0.001       /* a block lasts about this long */
#define MAX_ROUNDS_PER_BATCH SB_MAX_SAMPLES /* memory: every sample is kept */
#define SPREAD_FACTOR 8.0          /* the empty stub's spread in a block, over the blocks' median */
#define SPREAD_MIN_CYCLES 64.0     /* ... and at least this much (cycles per sample) */
#define SPREAD_MIN_ROUNDS 10       /* blocks with fewer rounds are not judged by it */
#define STACK_STEPS 256            /* random stack offsets: 0 .. 255 x 16 bytes, a whole page */
#define SIZING_ROUNDS 3            /* timed rounds a batch size's block length comes from */
#define MIN_BLOCKS 16              /* blocks a process runs of a batch size, at least, if rounds are capped */
#define WARM_ROUNDS 4              /* unrecorded rounds a block runs after its canaries */

static void set_err(char *err, size_t errlen, const char *msg, const char *name)
{
	if (err && errlen)
		snprintf(err, errlen, "%s%s%s", name ? name : "", name ? ": " : "", msg);
}

long sb_context_switches(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* Room for `need` rounds per arm (doubling). */
static int reserve_rounds(struct batch_data *d, size_t n_arms, size_t need)
{
	if (need <= d->cap)
		return 0;
	size_t cap = d->cap ? d->cap * 2 : 4096;
	while (cap < need)
		cap *= 2;
	double *t = calloc(cap * n_arms, sizeof(*t));
	if (!t)
		return -1;
	for (size_t a = 0; a < n_arms && d->n_rounds; a++)
		memcpy(t + a * cap, d->ticks + a * d->cap, d->n_rounds * sizeof(*t));
	free(d->ticks);
	d->ticks = t;
	d->cap = cap;
	return 0;
}

/* Room for `need` blocks (doubling). */
static int reserve_blocks(struct batch_data *d, size_t need)
{
	if (need <= d->blocks_cap)
		return 0;
	size_t cap = d->blocks_cap ? d->blocks_cap * 2 : 256;
	while (cap < need)
		cap *= 2;
	struct block *nb = realloc(d->blocks, cap * sizeof(*nb));
	if (!nb)
		return -1;
	d->blocks = nb;
	d->blocks_cap = cap;
	return 0;
}

/* The block's clock, core cycles per TSC tick: the highest of CAL_TRIES
 * calibrations. A host that takes the CPU for a few microseconds inside
 * one makes its ticks longer and its clock lower, never higher, and the
 * block's cycles (ticks x clock) and canaries with it (measured:
 * results/amd-epyc-zen1-vm.md). */
static double block_clock(void)
{
	double best = 0;
	for (int i = 0; i < CAL_TRIES; i++) {
		double c = sb_core_cycles_per_tick(CAL_LOOPS);
		if (c > best)
			best = c;
	}
	return best;
}

/* The window canary, core cycles an iteration: the lower of two timings
 * (a host stall inside one makes it read high). */
static double measure_window(double cpt)
{
	uint64_t t = sb_time_window(WINDOW_LOOPS), u = sb_time_window(WINDOW_LOOPS);
	return (double)(u < t ? u : t) * cpt / WINDOW_LOOPS;
}

static double measure_canary(double cpt)
{
	uint64_t t = sb_time_indep_adds(CAL_LOOPS);
	return cpt > 0 && t > 0 ? (double)(CAL_LOOPS * 64) / ((double)t * cpt) : 0;
}

/* STUBBENCH_TEST_DISTURB_ALL=1 flags every block disturbed: the tests of
 * what a run with no usable samples reports, made exact.
 * STUBBENCH_TEST_DISTURB_NONE=1 flags none: the tests of synthetic arms,
 * whose ticks do not come from this machine, and the smoke runs that check
 * what a run writes keep every block whatever the machine is doing.
 * STUBBENCH_TEST_SPREAD_ONLY=1 leaves only the empty stub's spread to flag
 * blocks: the tests of that rule on synthetic arms, whatever the canaries
 * read on this machine.
 * STUBBENCH_TEST_FIXED_CLOCK=1 gives every block a clock of exactly 1 core
 * cycle per tick: synthetic ticks are not this machine's, and a clock
 * measured per block on a loaded machine split one synthetic state into
 * several modes. */
static int test_env(const char *name)
{
	const char *e = getenv(name);
	return e && strcmp(e, "1") == 0;
}

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
		uint64_t ticks = sample_with_stack(&arms[a], batch, pad);
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
 * when an arm failed. The warm rounds come after the canaries because the
 * canaries' loops leave the measured code cold; without them a cell's
 * delta depends on its blocks' length (measured:
 * results/amd-epyc-zen5-vm.md; docs/measurement-design.md). */
static int run_block(const struct sb_arm *arms, size_t n_arms, uint64_t batch, size_t bi,
		     size_t rounds, size_t state, const struct sb_run_opts *o, struct sb_rng *rng,
		     uint64_t delay_max, struct batch_data *d, size_t *failed_arm)
{
	struct block b;
	memset(&b, 0, sizeof(b));
	b.state = state;
	size_t pad = (size_t)sb_rng_below(rng, STACK_STEPS) * 16;
	long csw0 = sb_context_switches();
	b.cpt = test_env("STUBBENCH_TEST_FIXED_CLOCK") ? 1.0 : block_clock();
	b.canary = measure_canary(b.cpt);
	b.window = measure_window(b.cpt);
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
		if (reserve_rounds(d, n_arms, d->n_rounds + 1) != 0)
			return -1;
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
	double w = measure_window(b.cpt);
	if (w > b.window)
		b.window = w;
	b.csw = sb_context_switches() - csw0;
	if (reserve_blocks(d, d->n_blocks + 1) != 0)
		return -1;
	d->blocks[d->n_blocks++] = b;
	return 0;
}

static void shuffle(size_t *x, size_t n, struct sb_rng *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)sb_rng_below(rng, i), t = x[i - 1];
		x[i - 1] = x[j];
		x[j] = t;
	}
}

/* The empty stub's spread within block b: the 80th minus the 20th
 * percentile of its samples, core cycles (tmp: scratch of its rounds); 0
 * for a block of fewer than SPREAD_MIN_ROUNDS, where two samples decide it. */
static double block_spread(const struct batch_data *d, const struct block *b, long ovh, double *tmp)
{
	if (b->n_rounds < SPREAD_MIN_ROUNDS)
		return 0;
	for (size_t r = 0; r < b->n_rounds; r++)
		tmp[r] = d->ticks[(size_t)ovh * d->cap + b->first_round + r] * b->cpt;
	double p80 = sb_percentile_select(tmp, b->n_rounds, 80);
	return p80 - sb_percentile_select(tmp, b->n_rounds, 20);
}

/* Flags the disturbed blocks (see the top of this file) and counts them;
 * *n_spread: those flagged by the empty stub's spread (ovh: the overhead
 * arm, -1: none) and by nothing else. */
static void flag_disturbed(struct batch_data *d, long ovh, size_t *n_disturbed, size_t *n_spread)
{
	size_t max_rounds = 1;
	for (size_t i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].n_rounds > max_rounds)
			max_rounds = d->blocks[i].n_rounds;
	struct sb_block_signs *signs = malloc((d->n_blocks + 1) * sizeof(*signs));
	int *judged = malloc((d->n_blocks + 1) * sizeof(*judged));
	double *sp = calloc(d->n_blocks + 1, sizeof(*sp)); /* 0 without an overhead arm */
	double *tmp = malloc((max_rounds + 1) * sizeof(*tmp));
	if (!signs || !judged || !sp || !tmp) {
		free(signs), free(judged), free(sp), free(tmp);
		return;
	}
	for (size_t i = 0; i < d->n_blocks; i++) {
		const struct block *b = &d->blocks[i];
		signs[i] = (struct sb_block_signs){b->canary, b->window, b->cpt, b->csw};
	}
	if (sb_judge_blocks(signs, d->n_blocks, judged) < 0) {
		free(signs), free(judged), free(sp), free(tmp);
		return;
	}
	/* Interference inside a block (an interrupt storm, the host taking
	 * the core for a fraction of each millisecond) can hit half of its
	 * samples or more, which the outlier rule (judged against the block's
	 * median) keeps and which moves its trimmed means, while the canaries,
	 * run before and after it, read quiet (measured:
	 * results/amd-epyc-zen5-vm.md). Such a block shows as a spread of the
	 * empty stub's samples many times the blocks' usual one; a steady
	 * state moves every sample of a block alike and leaves the spread
	 * alone. */
	double lim_spread = INFINITY;
	if (ovh >= 0 && d->n_blocks) {
		for (size_t i = 0; i < d->n_blocks; i++)
			sp[i] = block_spread(d, &d->blocks[i], ovh, tmp);
		lim_spread = fmax(SPREAD_FACTOR * sb_median(sp, d->n_blocks), SPREAD_MIN_CYCLES);
	}
	int none = test_env("STUBBENCH_TEST_DISTURB_NONE"), all = test_env("STUBBENCH_TEST_DISTURB_ALL");
	int spread_only = test_env("STUBBENCH_TEST_SPREAD_ONLY");
	for (size_t i = 0; i < d->n_blocks; i++) {
		struct block *b = &d->blocks[i];
		b->disturbed = !none && !spread_only && (judged[i] || all);
		if (!none && !b->disturbed && sp[i] > lim_spread) {
			b->disturbed = 1;
			(*n_spread)++;
		}
		if (b->disturbed)
			(*n_disturbed)++;
	}
	free(signs), free(judged), free(sp), free(tmp);
}

/* A share of one batch size's blocks, run in this process or in a fresh one. */
struct segment {
	uint64_t batch;
	size_t bi, block_rounds, process;
	uint64_t budget_ticks;    /* this segment's time (UINT64_MAX: by samples) */
	uint64_t samples;         /* rounds to run, 0: by time */
	size_t max_rounds;
	double progress_from, progress_span;
};

/* A segment that reached its most rounds before its time ended leaves the
 * rest to the process's next segments (carry), and what the last leaves
 * is waited out: the processes after this one then start when their share
 * of the run does, and a run of --time=T spans T (the host's states change
 * over seconds; a 40 s run of batch 512 alone ended after 5 s). */
static void take_carry(struct segment *sg, uint64_t carry)
{
	if (sg->budget_ticks != UINT64_MAX)
		sg->budget_ticks += carry;
}

static void wait_out(uint64_t ticks, const struct sb_run_opts *o)
{
	uint64_t end = __rdtsc() + ticks;
	while (ticks && __rdtsc() < end && !(o->stop && o->stop())) {
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
	}
}

/* One warm-up block, discarded, then blocks until the segment's time or
 * rounds are used up; *left: the ticks of its time it did not use because
 * it reached its most rounds first (0 otherwise). Returns 0, or -1 with
 * err set. */
static int run_segment(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
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
	int rc = run_block(arms, n_arms, sg->batch, sg->bi, sg->block_rounds, 0, &unhooked, rng, delay_max, &warm,
			   &failed);
	free(warm.ticks);
	free(warm.blocks);
	if (rc) {
		set_err(err, errlen, "sample failed", arms[failed].name);
		return -1;
	}
	uint64_t tb = __rdtsc();
	for (;;) {
		size_t rounds = sg->block_rounds, done_rounds = d->n_rounds - first_round;
		if (o->stop && o->stop()) {
			set_err(err, errlen, "interrupted", NULL);
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
			shuffle(order, n_states, rng);
		if (run_block(arms, n_arms, sg->batch, sg->bi, rounds, order[nb % n_states], o, rng, delay_max, d,
			      &failed)) {
			set_err(err, errlen, "sample failed", arms[failed].name);
			return -1;
		}
		d->blocks[d->n_blocks - 1].process = sg->process;
		if (o->progress) {
			double done = sg->samples ? (double)(d->n_rounds - first_round) / (double)sg->samples
						  : (double)(__rdtsc() - tb) / (double)sg->budget_ticks;
			done = sg->progress_from + sg->progress_span * (done > 1 ? 1 : done);
			fprintf(stderr, "\rstubbench: %3.0f%% of the run (batch %llu)  ", 100.0 * done,
				(unsigned long long)sg->batch);
		}
	}
	if (o->stop && o->stop()) { /* no statistics for a run that ends */
		set_err(err, errlen, "interrupted", NULL);
		return -1;
	}
	return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads from the child; a signal that stops the run (the child's own
 * pid may not have got it) is passed on, so the child stops at its next
 * block and reports "interrupted". */
static int read_all(int fd, void *p, size_t n, const struct sb_run_opts *o, pid_t child, int *passed_on)
{
	char *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR) {
			if (o->stop && o->stop() && !*passed_on) {
				kill(child, SIGINT);
				*passed_on = 1;
			}
			continue;
		}
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

struct segment_header {
	int rc, capped;
	size_t n_rounds, n_blocks;
	char err[256];
};

/* The segments in one fresh child process (fork: a new task, kernel
 * stack, data pages of its own, predictor history that starts over):
 * whatever one process fixes for all its blocks is re-rolled. The child
 * runs them one after the other, then sends each one's rounds and blocks
 * back through a pipe (nothing is written while it measures, so the
 * parent sleeps in read meanwhile) and leaves with _exit. One fork per
 * process and not per segment: with a thousand placed copies the address
 * space has ~3000 mappings, and each fork and exit cost ~20 ms. */
static int run_in_child(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
			const struct segment *sgs, size_t n_sg, size_t *order, size_t n_states, uint64_t child_seed,
			uint64_t delay_max, struct batch_data **ds, const struct sb_span *skip, size_t n_skip,
			char *err, size_t errlen)
{
	int fds[2];
	if (pipe(fds) != 0) {
		set_err(err, errlen, strerror(errno), "pipe");
		return -1;
	}
	fflush(NULL);
	malloc_trim(0); /* freed memory stays out of the child's pages */
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		set_err(err, errlen, strerror(errno), "fork");
		return -1;
	}
	if (pid == 0) {
		/* A parent that ends (a signal's _exit) takes the child along. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		close(fds[0]);
		/* Its own data pages: the ones it would only read are still the
		 * parent's physical pages, the same in every child of this exec
		 * (but for the parent's sample buffers, which it does not read). */
		sb_own_pages(skip, n_skip);
		struct sb_rng rng;
		sb_rng_seed(&rng, child_seed);
		struct batch_data *cd = calloc(n_sg ? n_sg : 1, sizeof(*cd));
		struct segment_header *h = calloc(n_sg ? n_sg : 1, sizeof(*h));
		if (!cd || !h)
			_exit(1);
		size_t ran = 0;
		uint64_t carry = 0;
		for (int rc = 0; ran < n_sg && rc == 0; ran++) {
			struct segment sg = sgs[ran];
			take_carry(&sg, carry);
			rc = h[ran].rc = run_segment(arms, n_arms, o, &sg, order, n_states, &rng, delay_max,
						     &cd[ran], &carry, h[ran].err, sizeof(h[ran].err));
			if (rc == 0 && ran + 1 == n_sg)
				wait_out(carry, o);
			if (rc == 0 && ran + 1 == n_sg && o->child_check &&
			    o->child_check(o->check_ctx, h[ran].err, sizeof(h[ran].err)) != 0)
				h[ran].rc = -1;
		}
		int bad = 0;
		for (size_t i = 0; i < ran && !bad; i++) {
			h[i].capped = cd[i].capped;
			h[i].n_rounds = h[i].rc ? 0 : cd[i].n_rounds;
			h[i].n_blocks = h[i].rc ? 0 : cd[i].n_blocks;
			bad = write_all(fds[1], &h[i], sizeof(h[i]));
			for (size_t a = 0; a < n_arms && !bad && h[i].n_rounds; a++)
				bad = write_all(fds[1], cd[i].ticks + a * cd[i].cap, h[i].n_rounds * sizeof(*cd[i].ticks));
			if (!bad && h[i].n_blocks)
				bad = write_all(fds[1], cd[i].blocks, h[i].n_blocks * sizeof(*cd[i].blocks));
			if (h[i].rc)
				break;
		}
		for (size_t a = 0; a < n_arms && !bad; a++)
			if (arms[a].ctx_size)
				bad = write_all(fds[1], arms[a].ctx, arms[a].ctx_size);
		_exit(bad ? 1 : 0);
	}
	close(fds[1]);
	int passed_on = 0, rc = 0;
	struct segment_header h;
	memset(&h, 0, sizeof(h));
	const struct segment *at = sgs;
	for (size_t i = 0; i < n_sg && rc == 0 && h.rc == 0; i++) {
		at = &sgs[i];
		struct batch_data *d = ds[i];
		rc = read_all(fds[0], &h, sizeof(h), o, pid, &passed_on);
		size_t base = d->n_rounds;
		if (rc == 0 && h.rc == 0) {
			rc = reserve_rounds(d, n_arms, base + h.n_rounds) || reserve_blocks(d, d->n_blocks + h.n_blocks)
				     ? -1 : 0;
			for (size_t a = 0; a < n_arms && rc == 0; a++)
				rc = read_all(fds[0], d->ticks + a * d->cap + base, h.n_rounds * sizeof(*d->ticks), o,
					      pid, &passed_on);
			if (rc == 0 && h.n_blocks)
				rc = read_all(fds[0], d->blocks + d->n_blocks, h.n_blocks * sizeof(*d->blocks), o, pid,
					      &passed_on);
			if (rc == 0) {
				for (size_t k = 0; k < h.n_blocks; k++)
					d->blocks[d->n_blocks + k].first_round += base;
				d->n_blocks += h.n_blocks;
				d->n_rounds = base + h.n_rounds;
				d->capped |= h.capped;
			}
		}
	}
	for (size_t a = 0; a < n_arms && rc == 0 && h.rc == 0; a++)
		if (arms[a].ctx_size)
			rc = read_all(fds[0], arms[a].ctx, arms[a].ctx_size, o, pid, &passed_on);
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc != 0) {
		if (WIFSIGNALED(status))
			snprintf(err, errlen, "the measuring process of batch %llu ended by signal %d",
				 (unsigned long long)at->batch, WTERMSIG(status));
		else
			snprintf(err, errlen, "the measuring process of batch %llu sent no results",
				 (unsigned long long)at->batch);
		return -1;
	}
	if (h.rc != 0) {
		set_err(err, errlen, h.err, NULL);
		return -1;
	}
	return 0;
}

/* Share p of n of a batch size's time or rounds (0 rounds: nothing to run). */
static struct segment share_of(const struct segment *whole, size_t p, size_t n)
{
	struct segment sg = *whole;
	sg.process = p;
	sg.budget_ticks = whole->budget_ticks == UINT64_MAX ? UINT64_MAX : whole->budget_ticks / n;
	sg.samples = whole->samples ? (whole->samples * (p + 1)) / n - (whole->samples * p) / n : 0;
	sg.max_rounds = whole->max_rounds / n;
	return sg;
}

/* A batch size across the run: its whole segment and the data of all its
 * processes. */
struct batch_run {
	struct segment sg;
	struct batch_data d;
};

/* One sb_run_part while it runs: what its arms need from setup to summary. */
struct part_run {
	const struct sb_arm *arms;
	size_t n_arms;
	const struct sb_run_opts *o;
	struct sb_results *out;
	size_t index;              /* its place among the run's parts */
	long ovh, base;            /* the overhead and baseline arms, -1: none */
	size_t n_states, *order;   /* the re-rolled states and their order */
	uint64_t delay_max;
	double tsc_hz;
	struct sb_rng rng;
	struct batch_run *runs;    /* one per batch size */
	uint64_t ticks;            /* TSC ticks spent on this part */
};

/* Every part's batch sizes' blocks split over n fresh processes, one after
 * the other on the same CPU, taking the parts and, within a part, the batch
 * sizes in turn (process 1 of each part, each running its share of every
 * batch size, then process 2 of each, ...): the processes of one cell are
 * spread over the whole run, so whatever drifts on the host over seconds
 * is sampled by every cell's spread between processes instead of falling
 * on one cell's (or one part's) processes all at once. */
static int run_processes(struct part_run *parts, size_t n_parts, size_t n, char *err, size_t errlen)
{
	size_t max_nb = 0, n_spans = 0;
	for (size_t q = 0; q < n_parts; q++) {
		n_spans += 2 * parts[q].o->n_batches;
		if (parts[q].o->n_batches > max_nb)
			max_nb = parts[q].o->n_batches;
	}
	struct sb_span *skip = calloc(n_spans + 1, sizeof(*skip));
	struct segment *sgs = calloc(max_nb + 1, sizeof(*sgs));
	struct batch_data **ds = calloc(max_nb + 1, sizeof(*ds));
	if (!skip || !sgs || !ds) {
		free(skip), free(sgs), free(ds);
		set_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	int rc = 0;
	for (size_t p = 0; p < n && rc == 0; p++) {
		if (p > 0 && parts[0].o->between_processes && parts[0].o->between_processes(p, n, err, errlen) != 0) {
			rc = -1;
			break;
		}
		for (size_t q = 0; q < n_parts && rc == 0; q++) {
			struct part_run *pr = &parts[q];
			const struct sb_run_opts *o = pr->o;
			size_t nb = o->n_batches;
			if (o->stop && o->stop()) {
				set_err(err, errlen, "interrupted", NULL);
				rc = -1;
				break;
			}
			/* Process p of part q: its share of every batch size, in turn. */
			size_t n_sg = 0;
			for (size_t bi = 0; bi < nb; bi++) {
				struct segment sg = share_of(&pr->runs[bi].sg, p, n);
				if (pr->runs[bi].sg.samples && sg.samples == 0)
					continue;
				sg.progress_from = (double)((p * n_parts + q) * nb + bi) / (double)(n * n_parts * nb);
				sg.progress_span = 1.0 / (double)(n * n_parts * nb);
				sgs[n_sg] = sg;
				ds[n_sg++] = &pr->runs[bi].d;
			}
			if (n_sg == 0)
				continue;
			/* Every part's sample buffers stay the parent's pages. */
			size_t k = 0;
			for (size_t r = 0; r < n_parts; r++)
				for (size_t bi = 0; bi < parts[r].o->n_batches; bi++) {
					const struct batch_data *d = &parts[r].runs[bi].d;
					skip[k++] = (struct sb_span){d->ticks, d->cap * parts[r].n_arms * sizeof(*d->ticks)};
					skip[k++] = (struct sb_span){d->blocks, d->blocks_cap * sizeof(*d->blocks)};
				}
			uint64_t t0 = __rdtsc();
			rc = run_in_child(pr->arms, pr->n_arms, o, sgs, n_sg, pr->order, pr->n_states, sb_rng_next(&pr->rng),
					  pr->delay_max, ds, skip, k, err, errlen);
			pr->ticks += __rdtsc() - t0;
		}
	}
	free(sgs);
	free(ds);
	free(skip);
	for (size_t q = 0; q < n_parts && rc == 0; q++)
		if (parts[q].o->stop && parts[q].o->stop()) {
			set_err(err, errlen, "interrupted", NULL);
			rc = -1;
		}
	return rc;
}

/* A part's setup: its cells, states, random delays, and each batch size's
 * blocks sized from one timed round (which also warms up), all before any
 * is measured. Returns 0, -1 or SB_RUN_TOO_SHORT with err set. */
static int part_prepare(struct part_run *pr, char *err, size_t errlen)
{
	const struct sb_arm *arms = pr->arms;
	size_t n_arms = pr->n_arms;
	const struct sb_run_opts *o = pr->o;
	struct sb_results *out = pr->out;
	uint64_t t_start = __rdtsc();
	memset(out, 0, sizeof(*out));
	pr->ovh = pr->base = -1;
	/* The results say where they were measured: the CPU this (pinned)
	 * thread runs on and the machine. */
	out->cpu = sched_getcpu();
	sb_machine_description(out->cpu_desc, sizeof(out->cpu_desc));
	if (n_arms == 0 || o->n_batches == 0) {
		set_err(err, errlen, "nothing to measure", NULL);
		return -1;
	}
	const struct sb_timer_info *ti = sb_timer_probe();
	out->timer = *ti;
	double tsc_hz = pr->tsc_hz = ti->facts.tsc_hz;
	long ovh = -1, base = -1;
	for (size_t a = 0; a < n_arms; a++) {
		if (arms[a].is_overhead && ovh < 0)
			ovh = (long)a;
		else if (arms[a].is_baseline && base < 0)
			base = (long)a;
	}
	pr->ovh = ovh, pr->base = base;
	size_t n_measured = n_arms - (ovh >= 0);
	out->n_cells = n_measured * o->n_batches;
	out->n_batches = o->n_batches;
	out->cells = calloc(out->n_cells, sizeof(*out->cells));
	if (!out->cells) {
		set_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	sb_rng_seed(&pr->rng, o->seed);
	/* The re-rolled states: blocks go through them in a new random order
	 * every n_states blocks. */
	size_t n_states = 1;
	for (size_t a = 0; a < n_arms; a++)
		if (arms[a].set_state && arms[a].n_states > n_states)
			n_states = arms[a].n_states;
	pr->n_states = n_states;
	size_t *order = pr->order = malloc(n_states * sizeof(*order));
	if (!order) {
		set_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	for (size_t j = 0; j < n_states; j++)
		order[j] = j;
	/* Random delay: a few TSC granules' worth of core cycles, at least 64. */
	double cpt0 = sb_core_cycles_per_tick(CAL_LOOPS);
	uint64_t delay_max = (uint64_t)(4.0 * (double)ti->facts.granularity * (cpt0 > 0 ? cpt0 : 2));
	if (delay_max < 64)
		delay_max = 64;
	pr->delay_max = delay_max;
	int rc = 0;
	struct batch_run *runs = pr->runs = calloc(o->n_batches, sizeof(*runs));
	if (!runs) {
		set_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	/* Each batch size's blocks sized from the fastest of SIZING_ROUNDS
	 * timed rounds after a first, cold one: the cold round alone (page
	 * faults, cold caches) read up to 50 times a warm one, so a block's
	 * length, and with it the run, changed from run to run. */
	for (size_t bi = 0; bi < o->n_batches && rc == 0; bi++) {
		uint64_t batch = o->batches[bi];
		size_t failed = 0;
		uint64_t fastest = UINT64_MAX;
		for (int r = 0; r <= SIZING_ROUNDS && rc == 0; r++) {
			uint64_t t0 = __rdtsc();
			for (size_t a = 0; a < n_arms; a++)
				if (arms[a].sample(arms[a].ctx, batch) == UINT64_MAX) {
					failed = a;
					rc = -1;
				}
			uint64_t t = __rdtsc() - t0;
			if (r > 0 && t < fastest)
				fastest = t;
		}
		if (rc) {
			set_err(err, errlen, "sample failed", arms[failed].name);
			break;
		}
		double round_ticks = (double)fastest + (double)n_arms * delay_max / (cpt0 > 0 ? cpt0 : 2);
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
		double budget_s = o->time_s / (double)o->n_batches;
		if (!o->samples && budget_s * tsc_hz < round_ticks) {
			if (err && errlen)
				snprintf(err, errlen,
					 "%.3g s per batch size cannot hold one round of batch %llu (%.3g s): "
					 "give more --time or use --samples",
					 budget_s, (unsigned long long)batch, round_ticks / tsc_hz);
			rc = SB_RUN_TOO_SHORT;
			break;
		}
		runs[bi].sg = (struct segment){
			.batch = batch,
			.bi = bi,
			.block_rounds = block_rounds,
			.budget_ticks = o->samples ? UINT64_MAX : (uint64_t)(budget_s * tsc_hz),
			.samples = o->samples,
			.max_rounds = MAX_ROUNDS_PER_BATCH,
			.progress_from = (double)bi / (double)o->n_batches,
			.progress_span = 1.0 / (double)o->n_batches,
		};
	}
	pr->ticks += __rdtsc() - t_start;
	return rc;
}

/* A part's statistics from the blocks it ran (rc: how the run went; a
 * failed run is only freed), and everything it held freed. */
static int part_finish(struct part_run *pr, int rc, char *err, size_t errlen)
{
	const struct sb_arm *arms = pr->arms;
	size_t n_arms = pr->n_arms;
	const struct sb_run_opts *o = pr->o;
	struct sb_results *out = pr->out;
	long ovh = pr->ovh, base = pr->base;
	double tsc_hz = pr->tsc_hz;
	struct batch_run *runs = pr->runs;
	uint64_t t_start = __rdtsc();
	double *ghz = NULL, *canaries = NULL, *windows = NULL;
	size_t n_ghz = 0, ghz_cap = 0;
	for (size_t bi = 0; runs && bi < o->n_batches && rc == 0; bi++) {
		uint64_t batch = o->batches[bi];
		struct batch_data *d = &runs[bi].d;
		if (d->n_blocks == 0) {
			for (size_t a = 0, ci = 0; a < n_arms; a++) {
				if ((long)a == ovh)
					continue;
				struct sb_cell *c = &out->cells[ci++ * o->n_batches + bi];
				c->arm = &arms[a];
				c->batch = batch;
				snprintf(c->no_samples, sizeof(c->no_samples), "no rounds ran");
			}
			continue;
		}
		size_t nd = 0, nspread = 0;
		flag_disturbed(d, ovh, &nd, &nspread);
		out->n_blocks += d->n_blocks;
		out->n_disturbed_blocks += nd;
		if (n_ghz + d->n_blocks > ghz_cap) {
			ghz_cap = (n_ghz + d->n_blocks) * 2;
			ghz = realloc(ghz, ghz_cap * sizeof(*ghz));
			canaries = realloc(canaries, ghz_cap * sizeof(*canaries));
			windows = realloc(windows, ghz_cap * sizeof(*windows));
		}
		for (size_t k = 0; k < d->n_blocks; k++) {
			ghz[n_ghz] = d->blocks[k].cpt * tsc_hz / 1e9;
			windows[n_ghz] = d->blocks[k].window;
			canaries[n_ghz++] = d->blocks[k].canary;
		}
		if (o->verbose)
			fprintf(stderr, "stubbench: batch %llu: %zu rounds in %zu blocks of %zu, %zu disturbed (%zu by "
				"the empty stub's spread alone)\n", (unsigned long long)batch, d->n_rounds, d->n_blocks,
				runs[bi].sg.block_rounds, nd, nspread);
		if (sb_batch_summarize(arms, n_arms, ovh, base, batch, bi, o->n_batches, d, tsc_hz, o->seed, pr->index,
				    out) != 0) {
			set_err(err, errlen, "out of memory", NULL);
			rc = -1;
		} else if (o->verbose) {
			const struct sb_cell *worst = NULL;
			for (size_t ci = 0; ci < n_arms - (ovh >= 0); ci++) {
				const struct sb_cell *c = &out->cells[ci * o->n_batches + bi];
				if (c->arm && isfinite(c->first_round_excess) &&
				    (!worst || c->first_round_excess > worst->first_round_excess))
					worst = c;
			}
			if (worst)
				fprintf(stderr, "stubbench: batch %llu: a block's first kept sample %+.1f %% over its "
					"others (the most of any arm: %s)\n", (unsigned long long)batch,
					100 * worst->first_round_excess, worst->arm->name);
		}
	}
	/* Fast small batches reach the most rounds kept before their time. */
	char capped[256] = "";
	for (size_t bi = 0, n = 0; runs && bi < o->n_batches && rc == 0; bi++)
		if (runs[bi].d.capped && n < sizeof(capped))
			n += (size_t)snprintf(capped + n, sizeof(capped) - n, "%s%llu", n ? ", " : "",
					      (unsigned long long)o->batches[bi]);
	if (capped[0])
		fprintf(stderr, "%sstubbench: batch %s: reached %llu rounds per batch size, the most kept, before "
			"their share of the time ended; the rest went to the next batch sizes, or was waited out, "
			"so the run still spans its time\n", o->progress ? "\r" : "", capped,
			(unsigned long long)MAX_ROUNDS_PER_BATCH);
	for (size_t bi = 0; runs && bi < o->n_batches; bi++) {
		free(runs[bi].d.ticks);
		free(runs[bi].d.blocks);
	}
	free(runs);
	pr->runs = NULL;
	pr->ticks += __rdtsc() - t_start;
	if (tsc_hz > 0)
		out->elapsed_s = (double)pr->ticks / tsc_hz;
	if (n_ghz) {
		out->core_ghz_median = sb_median(ghz, n_ghz);
		out->canary_median = sb_median(canaries, n_ghz);
		sb_sort(canaries, n_ghz);
		out->canary_quiet = sb_quiet_canary_level(canaries, n_ghz);
		out->window_median = sb_median(windows, n_ghz);
		sb_sort(windows, n_ghz);
		out->window_quiet = sb_quiet_window_level(windows, n_ghz);
	}
	free(ghz);
	free(canaries);
	free(windows);
	free(pr->order);
	pr->order = NULL;
	return rc;
}

int sb_run_parts(const struct sb_run_part *parts, size_t n_parts, char *err, size_t errlen)
{
	struct part_run *prs = calloc(n_parts ? n_parts : 1, sizeof(*prs));
	if (!prs) {
		set_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	size_t n_processes = 1;
	int rc = 0;
	for (size_t q = 0; q < n_parts; q++) {
		memset(parts[q].out, 0, sizeof(*parts[q].out));
		prs[q] = (struct part_run){.arms = parts[q].arms, .n_arms = parts[q].n_arms, .o = parts[q].opts,
					   .out = parts[q].out, .index = q};
		if (parts[q].opts->processes > n_processes)
			n_processes = parts[q].opts->processes;
	}
	for (size_t q = 0; q < n_parts && rc == 0; q++)
		rc = part_prepare(&prs[q], err, errlen);
	if (rc == 0 && n_processes > 1)
		rc = run_processes(prs, n_parts, n_processes, err, errlen);
	for (size_t q = 0; q < n_parts && rc == 0 && n_processes == 1; q++) {
		struct part_run *pr = &prs[q];
		uint64_t t0 = __rdtsc(), carry = 0;
		for (size_t bi = 0; bi < pr->o->n_batches && rc == 0; bi++) {
			struct segment sg = pr->runs[bi].sg;
			sg.progress_from = (q + sg.progress_from) / (double)n_parts;
			sg.progress_span /= (double)n_parts;
			take_carry(&sg, carry);
			rc = run_segment(pr->arms, pr->n_arms, pr->o, &sg, pr->order, pr->n_states, &pr->rng,
					 pr->delay_max, &pr->runs[bi].d, &carry, err, errlen);
		}
		if (rc == 0)
			wait_out(carry, pr->o);
		pr->ticks += __rdtsc() - t0;
	}
	for (size_t q = 0; q < n_parts; q++) {
		int frc = part_finish(&prs[q], rc, err, errlen);
		if (rc == 0)
			rc = frc;
	}
	if (n_parts && prs[0].o->progress)
		fprintf(stderr, "\r%60s\r", "");
	free(prs);
	return rc;
}

int sb_run_interleaved(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
		       struct sb_results *out, char *err, size_t errlen)
{
	struct sb_run_part part = {.arms = arms, .n_arms = n_arms, .opts = o, .out = out};
	return sb_run_parts(&part, 1, err, errlen);
}

void sb_results_fold_canary(struct sb_results *all, const struct sb_results *part)
{
	if (!part->n_cells || !(part->canary_quiet > 0))
		return;
	if (!(all->canary_quiet > 0) || part->canary_median < all->canary_median)
		all->canary_median = part->canary_median;
	if (part->canary_quiet > all->canary_quiet)
		all->canary_quiet = part->canary_quiet;
	if (part->window_quiet > 0) {
		if (!(all->window_quiet > 0) || part->window_median > all->window_median)
			all->window_median = part->window_median;
		if (!(all->window_quiet > 0) || part->window_quiet < all->window_quiet)
			all->window_quiet = part->window_quiet;
	}
}

int sb_results_append(struct sb_results *all, const struct sb_results *g)
{
	struct sb_cell *c = realloc(all->cells, (all->n_cells + g->n_cells) * sizeof(*c));
	if (!c)
		return -1;
	all->cells = c;
	struct sb_placement_row *p = realloc(all->placement_rows,
					     (all->n_placement_rows + g->n_placement_rows + 1) * sizeof(*p));
	if (!p)
		return -1;
	all->placement_rows = p;
	if (all->n_cells == 0) {
		struct sb_results keep = *all;
		*all = *g;
		all->cells = keep.cells;
		all->placement_rows = keep.placement_rows;
		all->n_cells = 0;
		all->n_placement_rows = 0;
		all->n_blocks = all->n_disturbed_blocks = 0;
		all->elapsed_s = 0;
	}
	if (g->n_cells)
		memcpy(all->cells + all->n_cells, g->cells, g->n_cells * sizeof(*c));
	all->n_cells += g->n_cells;
	if (g->n_placement_rows)
		memcpy(all->placement_rows + all->n_placement_rows, g->placement_rows,
		       g->n_placement_rows * sizeof(*p));
	all->n_placement_rows += g->n_placement_rows;
	all->n_blocks += g->n_blocks;
	all->n_disturbed_blocks += g->n_disturbed_blocks;
	all->elapsed_s += g->elapsed_s;
	sb_results_fold_canary(all, g);
	return 0;
}

void sb_results_free(struct sb_results *r)
{
	free(r->placement_rows);
	r->placement_rows = NULL;
	r->n_placement_rows = 0;
	free(r->cells);
	r->cells = NULL;
	r->n_cells = 0;
}
