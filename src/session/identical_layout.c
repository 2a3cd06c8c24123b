/* identical_layout.c: the identical-layout comparison of --padded; see
 * identical_layout.h. */
#include "identical_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/paired_placements.h"
#include "stats/placement_states.h"
#include "jit/placement.h"
#include "base/rng.h"
#include "output/reporter.h"

#define N_BOOT 400
#define PAGE_BYTES 4096UL

int sb_layout_wanted(const struct sb_config *cfg)
{
	return cfg->measure.padded && cfg->measure.states && !cfg->measure.placements && sb_format_is(cfg->out.format, SB_OUT_KEYED);
}

static long group_of(const struct sb_layout_groups *lg, const struct sb_variant *v)
{
	for (size_t i = 0; v && i < lg->n; i++)
		if (lg->v[i] == v)
			return (long)i;
	return -1;
}

static void add(struct sb_layout_groups *lg, const struct sb_variant *v, size_t family)
{
	if (v && group_of(lg, v) < 0 && lg->n < SB_LAYOUT_MAX_GROUPS)
		lg->family[lg->n] = family, lg->v[lg->n++] = v;
}

/* The functions the n variants' copies hold (sb_place_collect; a variant
 * whose code cannot be copied counts for none): per function index the
 * longest (longest[SB_PLACE_MAX_FUNCS]), and the most functions one has. */
static size_t functions_of(const struct sb_variant *const *vs, size_t n, size_t longest[SB_PLACE_MAX_FUNCS])
{
	size_t most = 0;
	for (size_t f = 0; f < SB_PLACE_MAX_FUNCS; f++)
		longest[f] = 0;
	for (size_t i = 0; i < n; i++) {
		struct sb_placed_variant funcs;
		char err[256];
		if (!vs[i] || sb_place_collect(vs[i], &funcs, err, sizeof(err)) != 0)
			continue;
		for (size_t f = 0; f < funcs.n_funcs; f++)
			if (funcs.len[f] > longest[f])
				longest[f] = funcs.len[f];
		if (funcs.n_funcs > most)
			most = funcs.n_funcs;
	}
	return most;
}

/* Where copy j of every arm's function f starts in its page, the same for
 * every arm (offsets[j * SB_PLACE_MAX_FUNCS + f]): a random 64-byte chunk
 * that leaves room for the longest function f of the n variants, then a
 * random byte in it (the kernel's random start within the first chunk).
 * With the same start in the page and the cache line, a steady state that
 * the placement selects is shared by all arms, and each placement gives a
 * paired difference. NULL out of memory. */
static unsigned *shared_offsets(const struct sb_variant *const *vs, size_t n, size_t k, struct sb_rng *rng)
{
	size_t longest[SB_PLACE_MAX_FUNCS];
	functions_of(vs, n, longest);
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

unsigned *sb_layout_offsets(const struct sb_variant *const *vs, size_t n, size_t k, uint64_t seed, size_t table)
{
	struct sb_rng rng;
	sb_rng_seed(&rng, sb_seed_stream(seed, SB_SEED_LAYOUT, table));
	return shared_offsets(vs, n, k, &rng);
}

/* Placement j's pages for every group's copy j (lg->rx, rw, saved): as
 * many pages as the variant with the most functions has, at random pages
 * of the code arena (seeded from seed), as the other copies lie. Without the arena (or memory) the groups keep pages of their own,
 * said in one line. Returns 0, or 1 out of memory (said on stderr). */
static int share_pages(const char *prog, uint64_t seed, struct sb_layout_groups *lg)
{
	size_t longest[SB_PLACE_MAX_FUNCS];
	size_t most = functions_of(lg->v, lg->n, longest);
	size_t k = lg->n_placements, len = most * PAGE_BYTES;
	lg->rx = calloc(k + 1, sizeof(*lg->rx));
	lg->rw = calloc(k + 1, sizeof(*lg->rw));
	lg->saved = calloc(lg->n * k * (len ? len : 1), 1);
	if (!lg->rx || !lg->rw || !lg->saved) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	char err[256] = "no function to copy";
	struct sb_rng rng;
	sb_rng_seed(&rng, sb_seed_stream(seed, SB_SEED_PAGES, SB_SEED_LAYOUT_PAGES));
	size_t j = 0;
	for (; most && j < k; j++) {
		lg->rx[j] = sb_place_pages_random((uintptr_t)lg->v[0]->main, len, &rng, &lg->rw[j], err, sizeof(err));
		if (!lg->rx[j])
			break;
		if (lg->rw[j] == lg->rx[j]) {
			snprintf(err, sizeof(err), "no code arena");
			break;
		}
	}
	if (j == k) {
		lg->n_pages = most;
		return 0;
	}
	fprintf(stderr, "%s: --padded: the groups' copies keep frames of their own (%s)\n", prog, err);
	for (size_t m = 0; m <= j && m < k; m++)
		if (lg->rx[m])
			sb_place_pages_free(lg->rx[m], len);
	memset(lg->rx, 0, k * sizeof(*lg->rx));
	return 0;
}

void sb_layout_pages_policy(const struct sb_layout_groups *lg, size_t j, struct sb_place_policy *policy)
{
	if (!lg->n_pages || j >= lg->n_placements)
		return;
	policy->pages = lg->rx[j];
	policy->pages_len = lg->n_pages * PAGE_BYTES;
}

static uint8_t *saved_of(const struct sb_layout_groups *lg, size_t i, size_t j)
{
	return lg->saved + (i * lg->n_placements + j) * lg->n_pages * PAGE_BYTES;
}

void sb_layout_keep_code(struct sb_layout_groups *lg, size_t i, size_t j)
{
	if (lg->n_pages && i < lg->n && j < lg->n_placements)
		memcpy(saved_of(lg, i, j), lg->rw[j], lg->n_pages * PAGE_BYTES);
}

int sb_layout_put_code(void *ctx, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	const struct sb_layout_put *put = ctx;
	const struct sb_layout_groups *lg = put->lg;
	for (size_t j = 0; lg->n_pages && j < lg->n_placements; j++)
		memcpy(lg->rw[j], saved_of(lg, put->i, j), lg->n_pages * PAGE_BYTES);
	return 0;
}

/* The padded baseline of other i of group g: the group's own, else the
 * registry's; NULL without one. */
static const struct sb_variant *padded_of(const struct sb_group *g, const struct sb_variant *v)
{
	for (size_t i = 0; g->padded && i < g->n_others; i++)
		if (g->others[i] == v && g->padded[i])
			return g->padded[i];
	return sb_variant_padded_baseline_of(v);
}

int sb_layout_groups_make(const struct sb_config *cfg, const char *prog, const struct sb_group *groups, size_t n,
			  struct sb_layout_groups *lg)
{
	memset(lg, 0, sizeof(*lg));
	if (!sb_layout_wanted(cfg))
		return 0;
	for (size_t g = 0; g < n; g++) {
		if (!groups[g].baseline || groups[g].no_layout)
			continue;
		add(lg, groups[g].baseline, g + 1);
		for (size_t i = 0; i < groups[g].n_others; i++) {
			add(lg, groups[g].others[i], g + 1);
			add(lg, padded_of(&groups[g], groups[g].others[i]), g + 1);
		}
	}
	if (!lg->n)
		return 0;
	lg->n_placements = cfg->measure.states < SB_LAYOUT_PLACEMENTS ? cfg->measure.states : SB_LAYOUT_PLACEMENTS;
	lg->offsets = sb_layout_offsets(lg->v, lg->n, lg->n_placements, cfg->measure.seed, 0);
	lg->arms = calloc(lg->n, sizeof(*lg->arms));
	lg->res = calloc(lg->n, sizeof(*lg->res));
	lg->blocks = calloc(lg->n * (cfg->measure.n_batches ? cfg->measure.n_batches : 1), sizeof(*lg->blocks));
	if (!lg->offsets || !lg->arms || !lg->res || !lg->blocks) {
		sb_layout_groups_free(lg, 0);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	for (size_t i = 0; i < lg->n; i++) {
		lg->group[i] = (struct sb_group){.others = &lg->v[i], .n_others = 1, .arms = &lg->arms[i],
						 .res = &lg->res[i]};
		lg->put[i] = (struct sb_layout_put){.lg = lg, .i = i};
	}
	if (share_pages(prog, cfg->measure.seed, lg) != 0) {
		sb_layout_groups_free(lg, 0);
		return 1;
	}
	return 0;
}

void sb_layout_groups_free(struct sb_layout_groups *lg, size_t n_batches)
{
	for (size_t i = 0; lg->blocks && i < lg->n * n_batches; i++)
		sb_arm_set_blocks_free(&lg->blocks[i]);
	for (size_t i = 0; lg->res && i < lg->n; i++)
		sb_results_free(&lg->res[i]);
	for (size_t j = 0; lg->rx && lg->n_pages && j < lg->n_placements; j++)
		sb_place_pages_free(lg->rx[j], lg->n_pages * PAGE_BYTES);
	free(lg->rx), free(lg->rw), free(lg->saved);
	free(lg->arms), free(lg->res), free(lg->blocks), free(lg->offsets);
	memset(lg, 0, sizeof(*lg));
}

/* Layout group i's variant (its arm 1: arm 0 is the empty stub) at batch
 * index bi, as the estimator takes it. */
static struct sb_arm_blocks blocks_of(const struct sb_layout_groups *lg, size_t i, size_t bi, size_t n_batches)
{
	const struct sb_arm_set_blocks *pb = &lg->blocks[i * n_batches + bi];
	if (pb->n_arms < 2 || !pb->n)
		return (struct sb_arm_blocks){0};
	return (struct sb_arm_blocks){.value = pb->value + pb->n, .placement = pb->state, .process = pb->process,
				      .n = pb->n, .removed = pb->removed};
}

/* a against b (layout groups; -1: none) at batch index bi into *p: 0, or
 * -1 with p absent. */
static int between(const struct sb_measure_config *cfg, const struct sb_layout_groups *lg, long a, long b, size_t bi,
		   uint64_t seed, struct sb_paired *p)
{
	memset(p, 0, sizeof(*p));
	p->mean = p->median = sb_estimate_absent("no group of its own in the run");
	if (a < 0 || b < 0)
		return -1;
	struct sb_arm_blocks ba = blocks_of(lg, (size_t)a, bi, cfg->n_batches),
			     bb = blocks_of(lg, (size_t)b, bi, cfg->n_batches);
	return sb_paired_between_placements(&ba, &bb, N_BOOT, seed, p) == 0 && p->mean.known ? 0 : -1;
}

/* The % of placements where a or b (layout groups) took more than one
 * state, or absent with the reason. */
static struct sb_estimate two_state(const struct sb_measure_config *cfg, const struct sb_layout_groups *lg, long a, long b,
				    size_t bi)
{
	if (a < 0 || b < 0)
		return sb_estimate_absent("no group of its own in the run");
	struct sb_arm_blocks ba = blocks_of(lg, (size_t)a, bi, cfg->n_batches),
			     bb = blocks_of(lg, (size_t)b, bi, cfg->n_batches);
	struct sb_placement_states ps;
	if (sb_placements_in_states(&ba, &bb, &ps) != 0)
		return sb_estimate_absent("out of memory");
	return ps.share_pct;
}

/* The bootstrap of a cell's codegen (figure 0) or layout cost (figure 1):
 * a stream of the run's seed of its own (sb_seed_stream). */
static uint64_t figure_seed(const struct sb_measure_config *cfg, size_t cell, unsigned figure)
{
	return sb_seed_stream(cfg->seed, SB_SEED_BOOTSTRAP, (uint64_t)cell * 2 + figure);
}

void sb_layout_figures(const struct sb_config *cfg, const struct sb_layout_groups *lg, struct sb_group *groups,
		       size_t n)
{
	for (size_t g = 0; lg->n && g < n; g++) {
		const struct sb_variant_arms *a = groups[g].arms;
		long base = group_of(lg, groups[g].baseline);
		for (size_t i = 0, ci = 0; base >= 0 && i < a->n; i++) {
			const struct sb_variant *v = a->ctx[i].v;
			if (!v)
				continue;
			size_t row = ci++;
			if (v == groups[g].baseline)
				continue;
			const struct sb_variant *pv = padded_of(&groups[g], v);
			long va = group_of(lg, v), pad = group_of(lg, pv);
			for (size_t bi = 0; bi < cfg->measure.n_batches; bi++) {
				struct sb_cell *c = &groups[g].res->cells[row * groups[g].res->n_batches + bi];
				size_t cell = (g * (SB_MAX_ARMS + 1) + row) * cfg->measure.n_batches + bi;
				struct sb_paired p;
				int rc = between(&cfg->measure, lg, va, pad >= 0 ? pad : base, bi, figure_seed(&cfg->measure, cell, 0), &p);
				/* The median over placements: at identical layout the
				 * codegen cost of every placement is one figure but for
				 * cells a busy host disturbed, which move a mean by cycles
				 * (results/amd-epyc-zen3-vm.md); the mean beside it. */
				c->matched_cycles = p.median;
				c->codegen_median = p.median;
				c->codegen_mean = p.mean;
				c->codegen_against = rc == 0 ? (pad >= 0 ? pv : groups[g].baseline)->name : NULL;
				memcpy(c->codegen_modes, p.modes, sizeof(p.modes));
				c->n_codegen_modes = p.n_modes;
				c->codegen_two_state_pct = two_state(&cfg->measure, lg, va, pad >= 0 ? pad : base, bi);
				/* Absent, with the reason, where the groups gave no figure. */
				c->layout_cycles = sb_estimate_absent("no padded baseline in the run");
				if (pad >= 0) {
					between(&cfg->measure, lg, pad, base, bi, figure_seed(&cfg->measure, cell, 1), &p);
					c->layout_cycles = p.mean;
				}
			}
		}
	}
}
