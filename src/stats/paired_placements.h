/* paired_placements.h: the cost of one arm against another measured at the
 * same placements (the codegen cost against a padded baseline, the layout
 * cost of the padding, the cost against the baseline).
 *
 * sb_paired_over_placements: every block runs copy j of every arm, all at the same offsets in their
 * pages and with the same stack offset, so a steady state that the
 * placement selects is shared by both arms. Per placement j: the mean
 * over its blocks of (a - b), the same block's values; over placements:
 * their mean (the figure), their median and their modes. The CI is a
 * hierarchical bootstrap: placements drawn with replacement, then within
 * each the processes that ran it, then within each of those its blocks;
 * and, processes being crossed with placements (every process runs many
 * placements, and what a process fixes moves all of them), a second
 * bootstrap over processes then blocks, whose deviations are added to the
 * first's in quadrature on each side. With few placements (a kernel
 * run's loads) the interval is widened by t(g - 1) / 1.96 x sqrt(g / (g - 1)).
 *
 * The mean moves with the share of the placements in each state as the
 * shares move, by a fraction of a state: no threshold decides which
 * blocks count, so no share on either side of one moves it by a whole
 * state. */
#ifndef STUBBENCH_PAIRED_PLACEMENTS_H
#define STUBBENCH_PAIRED_PLACEMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/estimate.h"
#include "stubbench/stats.h"

struct sb_paired {
	struct sb_estimate mean;   /* mean over placements of a - b, 95 % CI */
	struct sb_estimate median; /* median over placements, 95 % CI */
	struct sb_mode modes[SB_MAX_MODES]; /* of the placements' differences (sb_find_modes) */
	size_t n_modes;
	size_t n_placements, n_processes;
};

/* a - b over n blocks (block i: values a[i], b[i], its placement and its
 * process; placement NULL: each block a placement of its own, for a run at
 * one placement, whose CI is then the blocks'; process NULL: one process), n_boot resamples seeded from
 * seed. Returns 0, or -1 when n is 0 or memory runs out (out absent). */
int sb_paired_over_placements(const double *a, const double *b, const size_t *placement, const size_t *process,
			      size_t n, unsigned n_boot, uint64_t seed, struct sb_paired *out);

/* One arm's kept blocks, measured in a group of its own (no other arm of
 * the comparison interleaved with it): block i's value, its placement
 * (NULL: one placement for all) and its process (NULL: one process).
 * removed: the cycles per iteration taken off every value (its group's
 * estimate of the timing loop's own cost, sb_arm_set_blocks.removed), added
 * back before the difference: each group estimates that loop from its own
 * samples, and where the loop has several steady states the estimates
 * differ by a fraction of a cycle that would move every cell of the
 * figure alike (results/amd-epyc-zen3-vm.md, 2026-12-04). */
struct sb_arm_blocks {
	const double *value;
	const size_t *placement, *process;
	size_t n;
	double removed;
};

/* a - b where the two arms ran in groups of their own at the same table of
 * placements, taking turns in the same fresh processes (process p of a is
 * process p of b): per (placement, process) cell that both have, a's mean
 * over its blocks minus b's, so that what a process fixes (its data
 * frames, a state that lasts it) falls out of each difference; then the
 * figures of sb_paired_over_placements over those cells (placements,
 * then their processes). Returns 0 (out->mean absent when fewer than two
 * cells are in both), or -1 when an arm has no blocks or memory runs out. */
int sb_paired_between_placements(const struct sb_arm_blocks *a, const struct sb_arm_blocks *b, unsigned n_boot,
				 uint64_t seed, struct sb_paired *out);

#endif
