/* measure.c: one interleaved measurement of groups of asm variants, with
 * everything around it (pinning, private stacks, re-rolled states,
 * counters, markers, the checks afterwards); see session.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stubbench/session.h"
#include "stubbench/markers.h"
#include "stubbench/percpu.h"
#include "stubbench/perf_counters.h"
#include "stubbench/pin.h"
#include "stubbench/placement.h"
#include "stubbench/placement_stats.h"
#include "stubbench/timer.h"
#include "stubbench/variant_arms.h"

/* likwid marker regions and perf_event counters share the sample hooks:
 * marker start, counters read, sample, counters read, marker stop. */
struct sample_hooks {
	struct sb_markers *markers;
	struct sb_counter_set *counters;
};

static void hooks_before(void *p, size_t arm, size_t bi)
{
	struct sample_hooks *h = p;
	if (h->markers)
		sb_markers_before_sample(h->markers, arm, bi);
	if (h->counters)
		sb_counters_before_sample(h->counters, arm, bi);
}

static void hooks_after(void *p, size_t arm, size_t bi)
{
	struct sample_hooks *h = p;
	if (h->counters)
		sb_counters_after_sample(h->counters, arm, bi);
	if (h->markers)
		sb_markers_after_sample(h->markers, arm, bi);
}

/* Placed copies live until the program ends: the results name them. */
static struct placed_pool {
	struct sb_placed_variant *p;
	size_t n;
	const struct sb_variant **copies;
	struct placed_pool *next;
} *pools;

static void free_pools(void)
{
	while (pools) {
		struct placed_pool *next = pools->next;
		for (size_t i = 0; i < pools->n; i++)
			sb_place_free(&pools->p[i]);
		free(pools->p);
		free(pools->copies);
		free(pools);
		pools = next;
	}
}

/* K placed copies of baseline and of every other variant: baseline@p0 is
 * the harness's baseline, everything else an ordinary arm. */
static int place_all(const struct sb_config *cfg, const char *prog, const struct sb_variant **baseline,
		     const struct sb_variant *const *others, size_t n_others,
		     const struct sb_variant **out, size_t *n_out)
{
	size_t k = cfg->placements, n_vars = n_others;
	int baseline_in_others = 0;
	for (size_t i = 0; i < n_others; i++)
		baseline_in_others |= others[i] == *baseline;
	if (*baseline && !baseline_in_others)
		n_vars++;
	if (k * n_vars > SB_MAX_ARMS - 1) {
		fprintf(stderr, "%s: --placements=%zu x %zu variants is more than %d arms\n", prog, k,
			n_vars, SB_MAX_ARMS - 1);
		return 2;
	}
	struct placed_pool *pool = calloc(1, sizeof(*pool));
	if (pool)
		pool->p = calloc(k * n_vars, sizeof(*pool->p));
	if (!pool || !pool->p) {
		free(pool);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	if (!pools)
		atexit(free_pools);
	pool->next = pools;
	pools = pool;
	struct sb_rng rng;
	sb_rng_seed(&rng, cfg->seed * 7919 + 17);
	char err[512];
	*n_out = 0;
	for (size_t vi = 0; vi < n_others + 1; vi++) {
		const struct sb_variant *v = vi == 0 ? *baseline : others[vi - 1];
		if (!v || (vi > 0 && v == *baseline))
			continue;
		for (unsigned j = 0; j < k; j++) {
			struct sb_placed_variant *p = &pool->p[pool->n];
			struct sb_place_policy random = {.rng = &rng};
			if (sb_place(v, &random, j, p, err, sizeof(err)) != 0) {
				fprintf(stderr, "%s: --placements: %s\n", prog, err);
				return 1;
			}
			pool->n++;
			out[(*n_out)++] = &p->v;
		}
	}
	if (*baseline) {
		*baseline = out[0];
		memmove(out, out + 1, (*n_out - 1) * sizeof(*out));
		(*n_out)--;
	}
	return 0;
}

/* Where copy j of every arm's function f starts in its page, the same for
 * every arm (offsets[j * SB_PLACE_MAX_FUNCS + f]): a random 64-byte chunk
 * that leaves room for the group's longest function f, then a random byte
 * in it (the kernel's random start within the first chunk). With the same
 * start in the page and the cache line, a steady state that the placement
 * selects is shared by all arms, and each placement gives a paired
 * difference. NULL out of memory. */
static unsigned *shared_offsets(const struct sb_variant_arms *a, size_t k, struct sb_rng *rng)
{
	size_t longest[SB_PLACE_MAX_FUNCS] = {0};
	for (size_t i = 0; i < a->n; i++) {
		struct sb_placed_variant funcs;
		char err[256];
		if (!a->ctx[i].v || sb_place_collect(a->ctx[i].v, &funcs, err, sizeof(err)) != 0)
			continue;
		for (size_t f = 0; f < funcs.n_funcs; f++)
			if (funcs.len[f] > longest[f])
				longest[f] = funcs.len[f];
	}
	unsigned *offsets = malloc(k * SB_PLACE_MAX_FUNCS * sizeof(*offsets));
	for (size_t j = 0; offsets && j < k; j++)
		for (size_t f = 0; f < SB_PLACE_MAX_FUNCS; f++) {
			/* A function too long for a page is refused by sb_place. */
			size_t room = longest[f] + 128 <= 4096 ? 4096 - longest[f] - 64 : 64;
			offsets[j * SB_PLACE_MAX_FUNCS + f] =
				(unsigned)(sb_rng_below(rng, room / 64) * 64 + sb_rng_below(rng, 64));
		}
	return offsets;
}

/* The re-rolled states of every arm: cfg->states placed copies of each
 * variant, each at a random place, or with --padded copy j of every arm at
 * the same offsets in its pages (shared_offsets), kept in a pool until the
 * program ends. A variant whose
 * code cannot be copied keeps its own code, said in one line. */
static int give_states(const struct sb_config *cfg, const char *prog, struct sb_variant_arms *a)
{
	size_t k = cfg->states;
	if (!k || cfg->placements)
		return 0;
	struct placed_pool *pool = calloc(1, sizeof(*pool));
	const struct sb_variant **copies = calloc(a->n * k + 1, sizeof(*copies));
	if (pool)
		pool->p = calloc(a->n * k + 1, sizeof(*pool->p));
	/* Each group its own sequence of random pages: with one seed for all,
	 * every group's copies tried the pages the first group's took, and
	 * after a few groups a copy found no free page in 64 tries. */
	static uint64_t groups_placed;
	struct sb_rng rng;
	sb_rng_seed(&rng, cfg->seed * 104729 + 3 + 7919 * groups_placed++);
	unsigned *offsets = pool && pool->p && copies ? shared_offsets(a, k, &rng) : NULL;
	if (!offsets) {
		if (pool)
			free(pool->p);
		free(pool);
		free(copies);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	if (!pools)
		atexit(free_pools);
	pool->copies = copies;
	pool->next = pools;
	pools = pool;
	char err[512];
	for (size_t i = 0; i < a->n; i++) {
		const struct sb_variant *v = a->ctx[i].v;
		if (!v)
			continue;
		const struct sb_variant **mine = copies + i * k;
		size_t made = 0;
		for (unsigned j = 0; j < k; j++) {
			struct sb_placed_variant *p = &pool->p[pool->n];
			/* Identical layout only with --padded: arms of similar code at
			 * the same offsets, interleaved, slow each other down
			 * (measured: results/amd-epyc-zen4-vm.md), so by default
			 * each copy has a random place of its own. */
			struct sb_place_policy shared = {.rng = &rng, .page_offsets = offsets + j * SB_PLACE_MAX_FUNCS,
							 .n_offsets = SB_PLACE_MAX_FUNCS};
			struct sb_place_policy own = {.rng = &rng};
			if (sb_place(v, cfg->padded ? &shared : &own, j, p, err, sizeof(err)) != 0)
				break;
			pool->n++;
			mine[made++] = &p->v;
		}
		if (made < k) {
			fprintf(stderr, "%s: %s keeps its own code, no re-rolled placements: %s\n", prog, v->name, err);
			continue;
		}
		sb_variant_arms_set_states(a, v, mine, k);
	}
	free(offsets);
	return 0;
}

/* others, and after them the padded baseline of each (the baseline laid
 * out as it: sb_variant_padded_baseline_of) that is not among them, in
 * out (room for SB_MAX_ARMS - 1). Returns how many out holds. */
static size_t with_padded_baselines(const struct sb_variant *const *others, size_t n, const struct sb_variant **out)
{
	size_t m = 0;
	for (size_t i = 0; i < n && m < SB_MAX_ARMS - 1; i++)
		out[m++] = others[i];
	for (size_t i = 0; i < n && m < SB_MAX_ARMS - 1; i++) {
		const struct sb_variant *p = sb_variant_padded_baseline_of(others[i]);
		int have = !p;
		for (size_t k = 0; k < m && !have; k++)
			have = out[k] == p;
		if (!have)
			out[m++] = p;
	}
	return m;
}

/* One group while it is measured: its arms' options, hooks and the name of
 * its baseline (before placement renamed it). */
struct group_run {
	struct sb_run_opts ro;
	struct sample_hooks hooks;
	const struct sb_variant *placed[SB_MAX_ARMS];
	const char *baseline_name;
	int ready; /* set up: its hooks are open */
};

/* Placements, arms, states, counters and markers of one group, and the
 * options it runs with. Returns 0, 1 or 2 for bad input (said on stderr). */
static int group_setup(const struct sb_config *cfg, const char *prog, struct sb_group *g,
		       struct group_run *gr)
{
	static int said_markers, said_counters;
	char err[768];
	const struct sb_variant *baseline = g->baseline;
	const struct sb_variant *const *others = g->others;
	size_t n_others = g->n_others;
	gr->baseline_name = baseline ? baseline->name : NULL;
	sb_session_progress(prog, "placing the arms' copies");
	if (cfg->placements) {
		size_t n_placed;
		int prc = place_all(cfg, prog, &baseline, others, n_others, gr->placed, &n_placed);
		if (prc)
			return prc;
		others = gr->placed;
		n_others = n_placed;
	}
	/* With --padded, the padded baselines, for the codegen and layout
	 * costs; not in the seeds' format (upstream's benches) or Google
	 * Benchmark's. */
	const struct sb_variant *with_padded[SB_MAX_ARMS];
	if (cfg->padded && !cfg->placements && cfg->states && baseline && cfg->format != SB_FORMAT_SEED &&
	    cfg->format != SB_FORMAT_GBENCH) {
		n_others = with_padded_baselines(others, n_others, with_padded);
		others = with_padded;
	}
	struct sb_variant_arms *a = g->arms;
	if (sb_variant_arms_build(a, baseline, others, n_others, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	/* The copies' arms carry their originals' keys at their placements. */
	for (size_t i = 0; cfg->placements && pools && i < pools->n; i++)
		sb_variant_arms_mark_copy(a, &pools->p[i].v, pools->p[i].original, pools->p[i].index);
	int src = give_states(cfg, prog, a);
	if (src)
		return src;
	struct sample_hooks *hooks = &gr->hooks;
	gr->ready = 1;
	if (cfg->counters) {
		hooks->counters = sb_counters_open(cfg->counters, err, sizeof(err));
		if (!hooks->counters ||
		    sb_counters_bind(hooks->counters, a->arms, a->n, cfg->batches, cfg->n_batches, err,
				     sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 2;
		}
		if (sb_counters_note(hooks->counters) && !said_counters++)
			fprintf(stderr, "%s: %s\n", prog, sb_counters_note(hooks->counters));
	}
	hooks->markers = sb_markers_open(a->arms, a->n, cfg->batches, cfg->n_batches, err, sizeof(err));
	if (!hooks->markers)
		fprintf(stderr, "%s: likwid markers off: %s\n", prog, err);
	else if (sb_markers_note(hooks->markers) && (cfg->verbose || cfg->counters) && !said_markers++)
		fprintf(stderr, "%s: %s\n", prog, sb_markers_note(hooks->markers));
	else if (cfg->verbose && !said_markers++)
		fprintf(stderr, "%s: %s\n", prog, sb_markers_status(hooks->markers));
	sb_session_run_opts(cfg, &gr->ro);
	gr->ro.before_sample = hooks_before;
	gr->ro.after_sample = hooks_after;
	gr->ro.hook_ctx = hooks;
	/* Counters and live marker regions count in the process that
	 * samples: they keep to this one. */
	if (hooks->counters || (hooks->markers && sb_markers_live(hooks->markers)))
		gr->ro.processes = 1;
	gr->ro.child_check = sb_variant_arms_child_check;
	gr->ro.check_ctx = (void *)a;
	gr->ro.between_processes = sb_new_frames_between;
	return 0;
}

/* After the run: placements summarized, counters read, hooks closed, and
 * the counters and guard words checked. Returns rc, or 1 on a failed check. */
static int group_finish(const struct sb_config *cfg, const char *prog, struct sb_group *g,
			struct group_run *gr, int rc)
{
	char err[768];
	if (!gr->ready)
		return rc;
	if (cfg->placements && rc == 0 && sb_placement_summarize(g->res, gr->baseline_name, cfg->seed) < 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = 1;
	}
	if (gr->hooks.counters) {
		sb_counters_fill(gr->hooks.counters, g->res);
		sb_counters_close(gr->hooks.counters);
	}
	if (gr->hooks.markers)
		sb_markers_close(gr->hooks.markers);
	if (sb_variant_arms_check_counters(g->arms, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		rc = 1;
	}
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "%s: private stack guard words were overwritten\n", prog);
		rc = 1;
	}
	return rc;
}

int sb_measure_groups(const struct sb_config *cfg, const char *prog, struct sb_group *groups, size_t n_groups)
{
	static int said_timer;
	char err[768];
	int cpu;

	for (size_t i = 0; i < n_groups; i++)
		memset(groups[i].res, 0, sizeof(*groups[i].res));
	if (sb_pin_thread(cfg->cpu, &cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	const struct sb_timer_info *ti = sb_timer_probe();
	if (cfg->verbose && !said_timer++)
		fprintf(stderr, "%s: timer %s: %s; TSC %.4f GHz, granularity %llu ticks, read cost %.0f ticks\n", prog,
			sb_timer_kind_name(ti->kind), ti->reason, ti->facts.tsc_hz / 1e9,
			(unsigned long long)ti->facts.granularity, ti->read_cost_ticks);
	struct group_run *grs = calloc(n_groups ? n_groups : 1, sizeof(*grs));
	struct sb_run_part *parts = calloc(n_groups ? n_groups : 1, sizeof(*parts));
	if (!grs || !parts) {
		free(grs), free(parts);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	int rc = 0;
	for (size_t i = 0; i < n_groups && rc == 0; i++) {
		rc = group_setup(cfg, prog, &groups[i], &grs[i]);
		parts[i] = (struct sb_run_part){.arms = groups[i].arms->arms, .n_arms = groups[i].arms->n,
						.opts = &grs[i].ro, .out = groups[i].res};
	}
	/* perf_event counters count whatever runs while they are open: with
	 * them, one group after the other, each with only its own open. */
	size_t together = cfg->counters ? 1 : n_groups;
	for (size_t i = 0; i < n_groups && rc == 0; i += together) {
		int rrc = sb_run_parts(parts + i, together, err, sizeof(err));
		if (rrc == SB_RUN_TOO_SHORT) {
			fprintf(stderr, "%s: --time: %s\n", prog, err);
			rc = 2;
		} else if (rrc != 0) {
			fprintf(stderr, "%s: measurement failed: %s\n", prog, err);
			rc = 1;
		}
	}
	for (size_t i = 0; i < n_groups; i++)
		rc = group_finish(cfg, prog, &groups[i], &grs[i], rc);
	free(grs);
	free(parts);
	return rc;
}

int sb_measure_group(const struct sb_config *cfg, const char *prog, const struct sb_variant *baseline,
		     const struct sb_variant *const *others, size_t n_others,
		     struct sb_variant_arms *arms_out, struct sb_results *res)
{
	struct sb_group g = {.baseline = baseline, .others = others, .n_others = n_others, .arms = arms_out,
			     .res = res};
	return sb_measure_groups(cfg, prog, &g, 1);
}
