/* measure.c: one interleaved measurement of groups of asm variants, with
 * everything around it (pinning, private stacks, re-rolled states,
 * counters, markers, the checks afterwards); see session.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/session.h"
#include "session/budget.h"
#include "counters/markers.h"
#include "variants/percpu.h"
#include "base/rng.h"
#include "counters/perf_counters.h"
#include "harness/pin.h"
#include "jit/placement.h"
#include "jit/placement_stats.h"
#include "harness/sibling.h"
#include "stubbench/timer.h"
#include "harness/variant_arms.h"

#include "identical_layout.h"

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
static int place_all(const struct sb_measure_config *cfg, const char *prog, const struct sb_variant **baseline,
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
	sb_rng_seed(&rng, sb_seed_stream(cfg->seed, SB_SEED_PAGES, 0));
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

/* The re-rolled states of every arm: cfg->measure.states placed copies of each
 * variant, each at a random place, or (offsets given: an arm of the
 * identical-layout comparison) n_offsets copies, copy j at the offsets of
 * placement j in its pages, kept in a pool until the program ends. A variant whose code
 * cannot be copied keeps its own code, said in one line. */
static int give_states(const struct sb_measure_config *cfg, const char *prog, struct sb_variant_arms *a,
		       const unsigned *offsets, size_t n_offsets, struct sb_layout_put *put)
{
	size_t k = offsets ? n_offsets : cfg->states;
	if (!k || cfg->placements)
		return 0;
	struct placed_pool *pool = calloc(1, sizeof(*pool));
	const struct sb_variant **copies = calloc(a->n * k + 1, sizeof(*copies));
	if (pool)
		pool->p = calloc(a->n * k + 1, sizeof(*pool->p));
	if (!pool || !pool->p || !copies) {
		if (pool)
			free(pool->p);
		free(pool);
		free(copies);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	/* Each group its own sequence of random pages: with one seed for all,
	 * every group's copies tried the pages the first group's took, and
	 * after a few groups a copy found no free page in 64 tries. */
	static uint64_t groups_placed;
	struct sb_rng rng;
	sb_rng_seed(&rng, sb_seed_stream(cfg->seed, SB_SEED_PAGES, 1 + groups_placed++));
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
			struct sb_place_policy shared = {.rng = &rng,
							 .page_offsets = offsets ? offsets + j * SB_PLACE_MAX_FUNCS : NULL,
							 .n_offsets = SB_PLACE_MAX_FUNCS};
			struct sb_place_policy own = {.rng = &rng};
			if (put) /* a layout group: its one variant in the pages every group shares */
				sb_layout_pages_policy(put->lg, j, &shared);
			if (sb_place(v, offsets ? &shared : &own, j, p, err, sizeof(err)) != 0)
				break;
			if (put)
				sb_layout_keep_code(put->lg, put->i, j);
			pool->n++;
			mine[made++] = &p->v;
		}
		put = NULL;
		if (made < k) {
			fprintf(stderr, "%s: %s keeps its own code, no re-rolled placements: %s\n", prog, v->name, err);
			continue;
		}
		sb_variant_arms_set_states(a, v, mine, k);
	}
	return 0;
}

/* The run's groups, one of them being checked. */
struct all_groups {
	const struct sb_group *g;
	size_t n, self;
};

/* The iterations the other groups' arms ran on counter (a variant of the
 * identical-layout comparison runs in its own group and in the command's). */
static uint64_t iterations_elsewhere(const void *ctx, const volatile uint64_t *counter)
{
	const struct all_groups *ag = ctx;
	uint64_t n = 0;
	for (size_t i = 0; i < ag->n; i++)
		for (size_t k = 0; i != ag->self && k < ag->g[i].arms->n; k++)
			if (ag->g[i].arms->ctx[k].v && ag->g[i].arms->ctx[k].v->counter == counter)
				n += ag->g[i].arms->ctx[k].iterations;
	return n;
}

/* For sb_run_opts.child_check (ctx: the group's all_groups): in each fresh
 * process, after its blocks, the counters as group_finish checks them and
 * the private stacks' guard words. */
static int child_check(void *ctx, char *err, size_t errlen)
{
	const struct all_groups *ag = ctx;
	if (sb_variant_arms_check_counters_with(ag->g[ag->self].arms, iterations_elsewhere, ag, err, errlen) != 0)
		return -1;
	return sb_percpu_guards_intact(err, errlen);
}

/* One group while it is measured: its arms' options, hooks and the name of
 * its baseline (before placement renamed it). */
struct group_run {
	struct sb_run_opts ro;
	struct sample_hooks hooks;
	const struct sb_variant *placed[SB_MAX_ARMS];
	const char *baseline_name;
	const unsigned *offsets; /* an arm of the identical-layout comparison: the run's table; else NULL */
	size_t n_offsets;        /* its placements */
	struct sb_layout_put *put; /* a group of that comparison: its turn in the shared pages; else NULL */
	struct all_groups ag;    /* the run's groups, this one ag.self */
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
	if (cfg->measure.placements) {
		size_t n_placed;
		int prc = place_all(&cfg->measure, prog, &baseline, others, n_others, gr->placed, &n_placed);
		if (prc)
			return prc;
		others = gr->placed;
		n_others = n_placed;
	}
	struct sb_variant_arms *a = g->arms;
	if (sb_variant_arms_build(a, baseline, others, n_others, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	/* The copies' arms carry their originals' keys at their placements. */
	for (size_t i = 0; cfg->measure.placements && pools && i < pools->n; i++)
		sb_variant_arms_mark_copy(a, &pools->p[i].v, pools->p[i].original, pools->p[i].index);
	int src = give_states(&cfg->measure, prog, a, gr->offsets, gr->n_offsets, gr->put);
	if (src)
		return src;
	struct sample_hooks *hooks = &gr->hooks;
	gr->ready = 1;
	/* Counters read in the process that samples, by system calls a
	 * contained one may not make (docs/security-model.md). */
	if (cfg->measure.counters && cfg->measure.contain) {
		fprintf(stderr, "%s: --counters: not with code read from files, which runs in a contained process "
			"(docs/security-model.md)\n", prog);
		return 2;
	}
	if (cfg->measure.counters) {
		hooks->counters = sb_counters_open(cfg->measure.counters, err, sizeof(err));
		if (!hooks->counters ||
		    sb_counters_bind(hooks->counters, a->arms, a->n, cfg->measure.batches, cfg->measure.n_batches, err,
				     sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 2;
		}
		if (sb_counters_note(hooks->counters) && !said_counters++)
			fprintf(stderr, "%s: %s\n", prog, sb_counters_note(hooks->counters));
	}
	hooks->markers = sb_markers_open(a->arms, a->n, cfg->measure.batches, cfg->measure.n_batches, err, sizeof(err));
	if (!hooks->markers)
		fprintf(stderr, "%s: likwid markers off: %s\n", prog, err);
	else if (sb_markers_note(hooks->markers) && (cfg->out.verbose || (cfg->measure.counters && !said_counters)) &&
		 !said_markers++) /* with --counters, its own line says what counts: one line */
		fprintf(stderr, "%s: %s\n", prog, sb_markers_note(hooks->markers));
	else if (cfg->out.verbose && !said_markers++)
		fprintf(stderr, "%s: %s\n", prog, sb_markers_status(hooks->markers));
	sb_session_run_opts(cfg, &gr->ro);
	gr->ro.stack_by_state = gr->offsets != NULL; /* placement j: one stack offset in every group */
	gr->ro.before_sample = hooks_before;
	gr->ro.after_sample = hooks_after;
	gr->ro.hook_ctx = hooks;
	/* Counters and live marker regions count in the process that
	 * samples: they keep to this one. */
	if (hooks->counters || (hooks->markers && sb_markers_live(hooks->markers)))
		gr->ro.processes = 1;
	gr->ro.child_check = child_check;
	gr->ro.check_ctx = &gr->ag;
	gr->ro.between_processes = sb_new_frames_between;
	if (gr->put) {
		gr->ro.before_set = sb_layout_put_code;
		gr->ro.set_ctx = gr->put;
		gr->ro.process_key = gr->put->lg->family[gr->put->i]; /* one command group's arms */
	}
	return 0;
}

/* After the run: placements summarized, counters read, hooks closed, and
 * the counters (ag: all the run's groups) and guard words checked. Returns
 * rc, or 1 on a failed check. */
static int group_finish(const struct sb_measure_config *cfg, const char *prog, struct sb_group *g,
			struct group_run *gr, const struct all_groups *ag, int rc)
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
	if (sb_variant_arms_check_counters_with(g->arms, iterations_elsewhere, ag, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		rc = 1;
	}
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "%s: private stack guard words were overwritten\n", prog);
		rc = 1;
	}
	return rc;
}

/* The command's n groups and, after them, those of the identical-layout
 * comparison (lg): 0, or 1 out of memory. */
static int all_groups_of(const struct sb_group *groups, size_t n, const struct sb_layout_groups *lg,
			 struct sb_group **all)
{
	*all = calloc(n + lg->n + 1, sizeof(**all));
	if (!*all)
		return 1;
	memcpy(*all, groups, n * sizeof(*groups));
	memcpy(*all + n, lg->group, lg->n * sizeof(*groups));
	return 0;
}

/* Runs the set-up parts, together (fresh processes taking turns) or, with
 * counters, one after the other. Returns 0, 1 or 2. */
static int run_all(const struct sb_measure_config *cfg, const char *prog, struct sb_arm_set *parts, size_t n)
{
	char err[768];
	/* perf_event counters count whatever runs while they are open: with
	 * them, one group after the other, each with only its own open. */
	size_t together = cfg->counters ? 1 : n;
	for (size_t i = 0; i < n; i += together) {
		int rrc = sb_run_arm_sets(parts + i, together, err, sizeof(err));
		if (rrc == SB_RUN_TOO_SHORT) {
			fprintf(stderr, "%s: --time: %s\n", prog, err);
			return 2;
		} else if (rrc == SB_RUN_CONTAINED) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 2;
		} else if (rrc != 0) {
			fprintf(stderr, "%s: measurement failed: %s\n", prog, err);
			return 1;
		}
	}
	return 0;
}

/* The table of placements of each group that asks for the same offsets
 * for all its arms (sb_group.same_offsets), in (*out)[g]; NULL for the
 * others. Returns 0, or 1 out of memory (said on stderr). */
static int same_offsets_of(const struct sb_measure_config *cfg, const char *prog, const struct sb_group *groups, size_t n,
			   unsigned ***out)
{
	*out = calloc(n, sizeof(**out));
	if (!*out) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	for (size_t g = 0; g < n; g++) {
		if (!groups[g].same_offsets || !cfg->states || cfg->placements)
			continue;
		const struct sb_variant *vs[SB_MAX_ARMS + 1];
		size_t m = 0;
		if (groups[g].baseline)
			vs[m++] = groups[g].baseline;
		for (size_t i = 0; i < groups[g].n_others && m < SB_MAX_ARMS + 1; i++)
			vs[m++] = groups[g].others[i];
		(*out)[g] = sb_layout_offsets(vs, m, cfg->states, cfg->seed, g + 1);
		if (!(*out)[g]) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 1;
		}
	}
	return 0;
}

/* The run's SMT sibling (--sibling): found, its load started (the same
 * load runs the command's groups' variants), a line said when there is
 * something to say. Returns 0, or 1 with the reason said. */
static int start_sibling(const struct sb_config *cfg, const char *prog, int cpu, const struct sb_group *groups,
			 size_t n_groups, struct sb_sibling **sib)
{
	const struct sb_variant *same[SB_MAX_ARMS];
	size_t n = 0;
	for (size_t g = 0; g < n_groups; g++) {
		if (groups[g].baseline && n < SB_MAX_ARMS)
			same[n++] = groups[g].baseline;
		for (size_t i = 0; i < groups[g].n_others && n < SB_MAX_ARMS; i++)
			same[n++] = groups[g].others[i];
	}
	const struct sb_run_test_hooks *t = cfg->test;
	struct sb_sibling_request rq = {.mode = cfg->measure.sibling, .load = cfg->measure.sibling_load, .cpu = cpu,
					.forced_pu = t && t->force_sibling ? t->sibling_cpu : -1, .same = same,
					.n_same = n, .contain = cfg->measure.contain};
	char note[400], err[300];
	static char said[400];
	int rc = sb_sibling_start(&rq, sib, note, sizeof(note), err, sizeof(err));
	if (note[0] && strcmp(note, said) != 0) { /* once per command, not per call */
		fprintf(stderr, "%s: %s\n", prog, note);
		snprintf(said, sizeof(said), "%s", note);
	}
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", prog, err);
	return rc != 0;
}

int sb_measure_groups(const struct sb_config *cfg, const char *prog, struct sb_group *groups, size_t n_groups)
{
	static int said_timer;
	char err[768];
	int cpu;

	for (size_t i = 0; i < n_groups; i++)
		memset(groups[i].res, 0, sizeof(*groups[i].res));
	if (sb_pin_thread(cfg->measure.cpu, &cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	const struct sb_timer_info *ti = sb_timer_probe();
	if (cfg->out.verbose && !said_timer++)
		fprintf(stderr, "%s: timer %s: %s; TSC %.4f GHz, granularity %llu ticks, read cost %.0f ticks\n", prog,
			sb_timer_kind_name(ti->kind), ti->reason, ti->facts.tsc_hz / 1e9,
			(unsigned long long)ti->facts.granularity, ti->read_cost_ticks);
	struct sb_layout_groups lg;
	if (sb_layout_groups_make(cfg, prog, groups, n_groups, &lg) != 0)
		return 1;
	unsigned **own_offsets = NULL;
	size_t n_all = n_groups + lg.n;
	struct sb_group *all = NULL;
	struct group_run *grs = calloc(n_all, sizeof(*grs));
	struct sb_arm_set *parts = calloc(n_all, sizeof(*parts));
	if (!grs || !parts || all_groups_of(groups, n_groups, &lg, &all) != 0) {
		free(grs), free(parts), free(all);
		sb_layout_groups_free(&lg, cfg->measure.n_batches);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	int rc = same_offsets_of(&cfg->measure, prog, groups, n_groups, &own_offsets);
	for (size_t i = 0; i < n_all && rc == 0; i++) {
		grs[i].offsets = i < n_groups ? (groups[i].same_offsets ? own_offsets[i] : NULL) : lg.offsets;
		grs[i].n_offsets = i < n_groups ? cfg->measure.states : lg.n_placements;
		grs[i].put = i < n_groups ? NULL : &lg.put[i - n_groups];
		grs[i].ag = (struct all_groups){.g = all, .n = n_all, .self = i};
		rc = group_setup(cfg, prog, &all[i], &grs[i]);
		parts[i] = (struct sb_arm_set){.arms = all[i].arms->arms, .n_arms = all[i].arms->n,
						.opts = &grs[i].ro, .out = all[i].res,
						.blocks = i < n_groups ? NULL : &lg.blocks[(i - n_groups) * cfg->measure.n_batches]};
	}
	/* The step's seconds (the session's budget) are for all its groups
	 * together: each group an equal share; with the groups of the
	 * comparison, each part's share by its arms (the empty stub's counted
	 * in each): an arm of a command group gets as much time as the one arm
	 * of a comparison group, so that the placed cost keeps as many blocks
	 * per arm as the codegen. */
	double total_s = sb_budget_seconds(&cfg->measure), arms = 0;
	for (size_t i = 0; i < n_all && rc == 0; i++)
		arms += (double)all[i].arms->n;
	for (size_t i = 0; i < n_all && rc == 0 && arms > 0; i++)
		grs[i].ro.time_s = lg.n ? total_s * (double)all[i].arms->n / arms : total_s / (double)n_groups;
	struct sb_sibling *sib = NULL;
	if (rc == 0)
		rc = start_sibling(cfg, prog, cpu, groups, n_groups, &sib);
	for (size_t i = 0; i < n_all && rc == 0; i++)
		grs[i].ro.sibling = sib;
	if (rc == 0)
		rc = run_all(&cfg->measure, prog, parts, n_all);
	char sib_err[300];
	if (sb_sibling_stop(sib, sib_err, sizeof(sib_err)) != 0 && rc != 2) { /* 2: said already */
		fprintf(stderr, "%s: %s\n", prog, sib_err);
		rc = 2;
	}
	for (size_t i = 0; i < n_all; i++)
		rc = group_finish(&cfg->measure, prog, &all[i], &grs[i], &grs[i].ag, rc);
	if (rc == 0)
		sb_layout_figures(cfg, &lg, groups, n_groups);
	sb_layout_groups_free(&lg, cfg->measure.n_batches);
	for (size_t i = 0; own_offsets && i < n_groups; i++)
		free(own_offsets[i]);
	free(own_offsets);
	free(grs), free(parts), free(all);
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
