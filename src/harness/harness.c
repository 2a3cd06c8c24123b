/* harness.c: the interleaved runner; see harness.h.
 *
 * A run of parts: each part's setup (its cells, re-rolled states, random
 * delays and block sizes, block_size.c), then its segments in this process
 * or in fresh ones (schedule.c, processes.c, the samples themselves:
 * sampler.c), then per batch size the disturbed blocks flagged
 * (disturbed.c), the statistics of the kept ones (batch_summary.c) and
 * their --blocks rows (blocks_log.h), and the run's clock and canary
 * levels.
 */
#define _GNU_SOURCE
#include "harness/harness.h"
#include "set_run.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "stats/blocks_log.h"
#include "harness/disturbed.h"
#include "harness/pin.h"
#include "stubbench/stats.h"

/* The overhead and baseline arms (-1: none) and the most re-rolled states
 * of any arm. */
static void find_roles(struct set_run *pr)
{
	const struct sb_arm *arms = pr->arms;
	long ovh = -1, base = -1;
	for (size_t a = 0; a < pr->n_arms; a++) {
		if (arms[a].is_overhead && ovh < 0)
			ovh = (long)a;
		else if (arms[a].is_baseline && base < 0)
			base = (long)a;
	}
	pr->ovh = ovh, pr->base = base;
	size_t n_states = 1;
	for (size_t a = 0; a < pr->n_arms; a++)
		if (arms[a].set_state && arms[a].n_states > n_states)
			n_states = arms[a].n_states;
	pr->n_states = n_states;
}

/* A part's setup: its cells, states, random delays, and each batch size's
 * blocks sized from timed rounds (which also warm up), all before any is
 * measured. Returns 0, -1 or SB_RUN_TOO_SHORT with err set. */
static int part_prepare(struct set_run *pr, char *err, size_t errlen)
{
	const struct sb_run_opts *o = pr->o;
	struct sb_results *out = pr->out;
	uint64_t t_start = __rdtsc();
	memset(out, 0, sizeof(*out));
	pr->ovh = pr->base = -1;
	/* The results say where they were measured: the CPU this (pinned)
	 * thread runs on and the machine. */
	out->cpu = sched_getcpu();
	sb_machine_description(out->cpu_desc, sizeof(out->cpu_desc));
	if (pr->n_arms == 0 || o->n_batches == 0) {
		sb_run_err(err, errlen, "nothing to measure", NULL);
		return -1;
	}
	const struct sb_timer_info *ti = sb_timer_probe();
	out->timer = *ti;
	pr->tsc_hz = ti->facts.tsc_hz;
	find_roles(pr);
	out->n_cells = (pr->n_arms - (pr->ovh >= 0)) * o->n_batches;
	out->n_batches = o->n_batches;
	out->cells = calloc(out->n_cells, sizeof(*out->cells));
	if (!out->cells) {
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	sb_rng_seed(&pr->rng, o->seed);
	/* The re-rolled states: blocks go through them in a new random order
	 * every n_states blocks. */
	size_t *order = pr->order = malloc(pr->n_states * sizeof(*order));
	if (!order) {
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	for (size_t j = 0; j < pr->n_states; j++)
		order[j] = j;
	/* Random delay: a few TSC granules' worth of core cycles, at least 64. */
	double cpt0 = sb_core_clock_once();
	uint64_t delay_max = (uint64_t)(4.0 * (double)ti->facts.granularity * (cpt0 > 0 ? cpt0 : 2));
	if (delay_max < 64)
		delay_max = 64;
	pr->delay_max = delay_max;
	pr->runs = calloc(o->n_batches, sizeof(*pr->runs));
	if (!pr->runs) {
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	if (o->before_set && o->before_set(o->set_ctx, err, errlen) != 0)
		return -1;
	int rc = (o->contain ? sb_size_blocks_in_child : sb_size_blocks)(pr->arms, pr->n_arms, o, delay_max, cpt0,
									   pr->tsc_hz, pr->runs, err, errlen);
	pr->ticks += __rdtsc() - t_start;
	return rc;
}

/* The clocks (GHz) and canaries of a part's blocks, gathered over its batch
 * sizes for the run's levels. */
struct block_levels {
	double *ghz, *canaries, *windows;
	size_t n, cap;
};

static void levels_add(struct block_levels *lv, const struct batch_data *d, double tsc_hz)
{
	if (lv->n + d->n_blocks > lv->cap) {
		lv->cap = (lv->n + d->n_blocks) * 2;
		lv->ghz = realloc(lv->ghz, lv->cap * sizeof(*lv->ghz));
		lv->canaries = realloc(lv->canaries, lv->cap * sizeof(*lv->canaries));
		lv->windows = realloc(lv->windows, lv->cap * sizeof(*lv->windows));
	}
	for (size_t k = 0; k < d->n_blocks; k++) {
		lv->ghz[lv->n] = d->blocks[k].cpt * tsc_hz / 1e9;
		lv->windows[lv->n] = d->blocks[k].window;
		lv->canaries[lv->n++] = d->blocks[k].canary;
	}
}

/* The run's clock and canary levels into out (blocks seen), lv freed. */
static void levels_finish(struct block_levels *lv, struct sb_results *out)
{
	if (lv->n) {
		out->core_ghz_median = sb_median(lv->ghz, lv->n);
		out->canary_median = sb_median(lv->canaries, lv->n);
		sb_sort(lv->canaries, lv->n);
		out->canary_quiet = sb_quiet_canary_level(lv->canaries, lv->n);
		out->window_median = sb_median(lv->windows, lv->n);
		sb_sort(lv->windows, lv->n);
		out->window_quiet = sb_quiet_window_level(lv->windows, lv->n);
	}
	free(lv->ghz);
	free(lv->canaries);
	free(lv->windows);
}

/* With --verbose: the arm whose blocks' first kept sample sat most above
 * their others at batch index bi. */
static void say_first_round(const struct set_run *pr, size_t bi)
{
	const struct sb_cell *worst = NULL;
	size_t n_batches = pr->o->n_batches;
	for (size_t ci = 0; ci < pr->n_arms - (pr->ovh >= 0); ci++) {
		const struct sb_cell *c = &pr->out->cells[ci * n_batches + bi];
		if (c->arm && isfinite(c->first_round_excess) &&
		    (!worst || c->first_round_excess > worst->first_round_excess))
			worst = c;
	}
	if (worst)
		fprintf(stderr, "stubbench: batch %llu: a block's first kept sample %+.1f %% over its "
			"others (the most of any arm: %s)\n", (unsigned long long)pr->o->batches[bi],
			100 * worst->first_round_excess, worst->arm->name);
}

/* The cells of a batch size that ran no rounds say so. */
static void no_rounds(const struct set_run *pr, size_t bi)
{
	for (size_t a = 0, ci = 0; a < pr->n_arms; a++) {
		if ((long)a == pr->ovh)
			continue;
		struct sb_cell *c = &pr->out->cells[ci++ * pr->o->n_batches + bi];
		c->arm = &pr->arms[a];
		c->batch = pr->o->batches[bi];
		snprintf(c->no_samples, sizeof(c->no_samples), "no rounds ran");
	}
}

void sb_arm_set_blocks_free(struct sb_arm_set_blocks *pb)
{
	free(pb->value), free(pb->state), free(pb->process);
	memset(pb, 0, sizeof(*pb));
}

/* The kept blocks kb of batch data d as a part's blocks handed back (out).
 * 0, or -1 out of memory. */
static int hand_back(const struct set_run *pr, const struct batch_data *d, const struct sb_kept_blocks *kb,
		     struct sb_arm_set_blocks *out)
{
	size_t n = kb->n;
	*out = (struct sb_arm_set_blocks){.n = n, .n_arms = pr->n_arms, .removed = kb->removed};
	out->value = malloc((n * pr->n_arms + 1) * sizeof(*out->value));
	out->state = malloc((n + 1) * sizeof(*out->state));
	out->process = malloc((n + 1) * sizeof(*out->process));
	if (!out->value || !out->state || !out->process) {
		sb_arm_set_blocks_free(out);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		out->state[k] = d->blocks[kb->block[k]].state;
		out->process[k] = d->blocks[kb->block[k]].process;
		for (size_t a = 0; a < pr->n_arms; a++)
			out->value[a * n + k] = kb->value[a * kb->stride + k];
	}
	return 0;
}

/* A batch size's kept blocks, while a --blocks log is open or a table
 * collects them: per block one row of every arm (blocks_log.h). */
static void log_kept_blocks(const struct set_run *pr, const struct batch_data *d, const struct sb_kept_blocks *kb,
			    uint64_t batch)
{
	if (!sb_blocks_log_active())
		return;
	for (size_t k = 0; k < kb->n; k++) {
		const struct block *b = &d->blocks[kb->block[k]];
		struct sb_block_row row = {b->tsc, pr->index, batch, b->process, kb->block[k], b->state,
					   b->cpt, b->canary, b->window, b->sibling};
		for (size_t a = 0; a < pr->n_arms; a++) {
			const struct sb_arm *arm = &pr->arms[a];
			enum sb_block_role role = arm->is_overhead   ? SB_BLOCK_OVERHEAD
						  : arm->is_baseline ? SB_BLOCK_BASELINE
								     : SB_BLOCK_VARIANT;
			sb_blocks_log_row(&row, pr->tsc_hz, arm->name, role, kb->value[a * kb->stride + k]);
		}
	}
}

/* Batch index bi of a part: its disturbed blocks flagged and counted, its
 * levels gathered, its cells' statistics, its --blocks rows. Returns 0, or
 * -1 with err set. */
static int summarize_batch(struct set_run *pr, size_t bi, struct block_levels *lv, char *err, size_t errlen)
{
	const struct sb_run_opts *o = pr->o;
	struct sb_results *out = pr->out;
	uint64_t batch = o->batches[bi];
	struct batch_data *d = &pr->runs[bi].d;
	if (d->n_blocks == 0) {
		no_rounds(pr, bi);
		return 0;
	}
	size_t nd = 0, nspread = 0;
	sb_flag_disturbed(d, pr->ovh, o->test, &nd, &nspread);
	out->n_blocks += d->n_blocks;
	out->n_disturbed_blocks += nd;
	levels_add(lv, d, pr->tsc_hz);
	if (o->verbose)
		fprintf(stderr, "stubbench: batch %llu: %zu rounds in %zu blocks of %zu, %zu disturbed (%zu by "
			"the empty stub's spread alone)\n", (unsigned long long)batch, d->n_rounds, d->n_blocks,
			pr->runs[bi].sg.block_rounds, nd, nspread);
	struct sb_kept_blocks kept = {0};
	if (sb_batch_summarize(pr->arms, pr->n_arms, pr->ovh, pr->base, batch, bi, o->n_batches, d, pr->tsc_hz,
			       o->seed, out, sb_blocks_log_active() || pr->blocks ? &kept : NULL) != 0 ||
	    (pr->blocks && hand_back(pr, d, &kept, &pr->blocks[bi]) != 0)) {
		sb_kept_blocks_free(&kept);
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	log_kept_blocks(pr, d, &kept, batch);
	sb_kept_blocks_free(&kept);
	if (o->verbose)
		say_first_round(pr, bi);
	return 0;
}

/* Fast small batches reach the most rounds kept before their time: said
 * once for the part, with --verbose. */
static void say_capped(const struct set_run *pr)
{
	const struct sb_run_opts *o = pr->o;
	char capped[256] = "";
	for (size_t bi = 0, n = 0; bi < o->n_batches; bi++)
		if (pr->runs[bi].d.capped && n < sizeof(capped))
			n += (size_t)snprintf(capped + n, sizeof(capped) - n, "%s%llu", n ? ", " : "",
					      (unsigned long long)o->batches[bi]);
	if (capped[0])
		fprintf(stderr, "%sstubbench: batch %s: reached %llu rounds per batch size, the most kept, before "
			"their share of the time ended; the rest went to the next batch sizes, or was waited out, "
			"so the run still spans its time\n", o->progress ? "\r" : "", capped,
			(unsigned long long)MAX_ROUNDS_PER_BATCH);
}

/* A part's statistics from the blocks it ran (rc: how the run went; a
 * failed run is only freed), and everything it held freed. */
static int part_finish(struct set_run *pr, int rc, char *err, size_t errlen)
{
	const struct sb_run_opts *o = pr->o;
	struct batch_run *runs = pr->runs;
	uint64_t t_start = __rdtsc();
	struct block_levels lv = {0};
	for (size_t bi = 0; runs && bi < o->n_batches && rc == 0; bi++)
		rc = summarize_batch(pr, bi, &lv, err, errlen);
	if (runs && rc == 0 && o->verbose)
		say_capped(pr);
	for (size_t bi = 0; runs && bi < o->n_batches; bi++)
		sb_batch_data_free(&runs[bi].d);
	free(runs);
	pr->runs = NULL;
	pr->ticks += __rdtsc() - t_start;
	if (pr->tsc_hz > 0)
		pr->out->elapsed_s = (double)pr->ticks / pr->tsc_hz;
	levels_finish(&lv, pr->out);
	free(pr->order);
	pr->order = NULL;
	return rc;
}

int sb_run_arm_sets(const struct sb_arm_set *parts, size_t n_sets, char *err, size_t errlen)
{
	struct set_run *prs = calloc(n_sets ? n_sets : 1, sizeof(*prs));
	if (!prs) {
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	size_t n_processes = 1;
	int rc = 0, contain = 0;
	for (size_t q = 0; q < n_sets; q++) {
		contain |= parts[q].opts->contain;
		memset(parts[q].out, 0, sizeof(*parts[q].out));
		prs[q] = (struct set_run){.arms = parts[q].arms, .n_arms = parts[q].n_arms, .o = parts[q].opts,
					   .out = parts[q].out, .blocks = parts[q].blocks, .index = q};
		if (parts[q].opts->processes > n_processes)
			n_processes = parts[q].opts->processes;
	}
	for (size_t q = 0; q < n_sets && rc == 0; q++)
		rc = part_prepare(&prs[q], err, errlen);
	if (rc == 0)
		/* Code from files runs in contained children only, one at least. */
		rc = n_processes > 1 || contain ? sb_run_processes(prs, n_sets, n_processes, err, errlen)
						: sb_run_here(prs, n_sets, err, errlen);
	for (size_t q = 0; q < n_sets; q++) {
		int frc = part_finish(&prs[q], rc, err, errlen);
		if (rc == 0)
			rc = frc;
	}
	if (n_sets && prs[0].o->progress)
		fprintf(stderr, "\r%60s\r", "");
	free(prs);
	return rc;
}

int sb_run_interleaved(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
		       struct sb_results *out, char *err, size_t errlen)
{
	struct sb_arm_set part = {.arms = arms, .n_arms = n_arms, .opts = o, .out = out};
	return sb_run_arm_sets(&part, 1, err, errlen);
}

long sb_batch_index(const uint64_t *batches, size_t n, uint64_t batch)
{
	for (size_t i = 0; i < n; i++)
		if (batches[i] == batch)
			return (long)i;
	return -1;
}
