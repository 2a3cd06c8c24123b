/* identical_layout.h: the identical-layout comparison of --padded, private
 * to src/session (measure.c runs it). Each arm of a shared-offset set (the
 * baseline, each variant, each variant's padded baseline) runs in a group
 * of its own, with the empty stub as every group has and nothing it is
 * compared with interleaved: arms of similar code at the same page offsets,
 * interleaved in one block, slowed each other down at small batch sizes
 * (results/amd-epyc-zen4-vm.md, results/amd-epyc-zen3-vm.md). Every such
 * group places copy j at the same offsets (one table for the run, seeded
 * from cfg->measure.seed), so placement j of one group is placement j of another,
 * and the codegen and layout costs pair them
 * (sb_paired_between_placements). */
#ifndef STUBBENCH_IDENTICAL_LAYOUT_H
#define STUBBENCH_IDENTICAL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/config.h"
#include "jit/placement.h"
#include "session/session.h"
#include "harness/variant_arms.h"

#define SB_LAYOUT_MAX_GROUPS (2 * SB_MAX_ARMS)
/* Placements of the comparison (at most cfg->measure.states): few enough that a
 * placement has kept blocks in every group, or it pairs nothing. On a busy
 * core a group kept 20-30 blocks per batch size in a run of --time=24
 * (results/amd-epyc-zen3-vm.md), and with 300 placements hardly any
 * placement had blocks in both groups of a pair. */
#define SB_LAYOUT_PLACEMENTS 16

struct sb_layout_groups {
	size_t n;
	const struct sb_variant *v[SB_LAYOUT_MAX_GROUPS]; /* what group i runs */
	size_t family[SB_LAYOUT_MAX_GROUPS]; /* 1 + the command's group that asked for it */
	struct sb_group group[SB_LAYOUT_MAX_GROUPS];
	struct sb_variant_arms *arms;       /* [n] */
	struct sb_results *res;             /* [n] */
	struct sb_arm_set_blocks *blocks;      /* [n * n_batches] */
	unsigned *offsets;                  /* the run's table of placements */
	size_t n_placements;                /* its rows */
	/* Placement j's code pages, one set for every group: the same virtual
	 * addresses and physical frames (frames select states:
	 * docs/fresh-processes.md). Group i's copy j is written there, its
	 * bytes kept in saved, and put back before each of group i's
	 * processes (sb_layout_put_code). n_pages 0: each group's copies have
	 * pages of their own (no code arena). */
	size_t n_pages;
	uint8_t **rx, **rw;                 /* [n_placements] */
	uint8_t *saved;                     /* [(i * n_placements + j) * n_pages * 4096] */
	struct sb_layout_put {
		struct sb_layout_groups *lg;
		size_t i;
	} put[SB_LAYOUT_MAX_GROUPS];        /* the hook's context for group i */
};

/* A table of placements for the variants vs[0..n): copy j of every one
 * at offsets[j * SB_PLACE_MAX_FUNCS + f] in its pages, k rows, drawn from
 * the layout stream `table` of the run's seed (sb_seed_stream): 0 for the
 * identical-layout groups' one table, g + 1 for the own table of group g.
 * NULL out of memory. */
unsigned *sb_layout_offsets(const struct sb_variant *const *vs, size_t n, size_t k, uint64_t seed, size_t table);

/* Whether the run makes the comparison: --padded, re-rolled states, no
 * --placements, and a format that has its figures. */
int sb_layout_wanted(const struct sb_config *cfg);

/* The groups of the comparison for the n groups the command measures
 * (those with a baseline): lg zeroed when there are none. Returns 0, or 1
 * out of memory (said on stderr). */
int sb_layout_groups_make(const struct sb_config *cfg, const char *prog, const struct sb_group *groups, size_t n,
			  struct sb_layout_groups *lg);

/* After the run: each variant cell of the n groups gets the codegen cost
 * (its layout group against its padded baseline's, else the baseline's),
 * its median and modes, and the layout cost (padded baseline against the
 * baseline), per batch size. */
void sb_layout_figures(const struct sb_config *cfg, const struct sb_layout_groups *lg, struct sb_group *groups,
		       size_t n);

/* The pages copy j of every group is placed in (policy->pages), when the
 * groups share them; the policy is left as it is when not. */
void sb_layout_pages_policy(const struct sb_layout_groups *lg, size_t j, struct sb_place_policy *policy);

/* After group i's copy j was placed in the shared pages: its bytes kept. */
void sb_layout_keep_code(struct sb_layout_groups *lg, size_t i, size_t j);

/* An sb_run_opts.before_set (ctx: &lg->put[i]): group i's copies written
 * back into the shared pages, before its arms run. Always 0. */
int sb_layout_put_code(void *ctx, char *err, size_t errlen);

void sb_layout_groups_free(struct sb_layout_groups *lg, size_t n_batches);

#endif
