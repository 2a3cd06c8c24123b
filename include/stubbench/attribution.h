/* attribution.h: a variant's cost against its baseline split over its
 * parts by ablation (ablation.h, docs/annotate.md), from the blocks of a
 * run (block_table.h) in which the variant, the baseline and every
 * ablation ran at the same placements:
 *   total       = variant - baseline
 *   part k      = variant - ablation k (its NOP form; the removed form beside)
 *   layout      = all parts NOPed - baseline: the variant's length and
 *                 placement alone (a NOPed part keeps its bytes' room, so
 *                 no part holds this cost)
 *   interaction = total - sum of the parts (NOP forms) - layout
 * each paired over placements with the estimator of paired_placements.h,
 * the interaction from each block's own total - sum, so that its CI is
 * that of the difference, not a sum of intervals. */
#ifndef STUBBENCH_ATTRIBUTION_H
#define STUBBENCH_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/block_table.h"
#include "stubbench/estimate.h"

#define SB_ATTRIBUTION_MAX_PARTS 24

/* The arms of the table (names) that make the figures: nop[k], removed[k]
 * (removed[k] may be NULL: no such arm). */
struct sb_attribution_arms {
	const char *variant, *baseline;
	const char *layout; /* the arm with every part NOPed; NULL: none (layout in the interaction) */
	const char *nop[SB_ATTRIBUTION_MAX_PARTS], *removed[SB_ATTRIBUTION_MAX_PARTS];
	size_t n_parts;
};

struct sb_attribution {
	uint64_t batch;
	size_t n_blocks, n_placements, n_processes;
	struct sb_estimate total;
	struct sb_estimate nop[SB_ATTRIBUTION_MAX_PARTS], removed[SB_ATTRIBUTION_MAX_PARTS];
	struct sb_estimate layout;  /* absent without a layout arm */
	struct sb_estimate interaction;
	size_t n_parts;
	double sum_parts;      /* sum of the NOP forms' values */
	/* total lies within [sum of the parts' lows + the layout's and the
	 * interaction's lows, the same of the highs]: the lines add up within
	 * their CIs. */
	int reconciles;
	/* the interaction's CI holds 0: the parts alone explain the total. */
	int parts_explain;
};

/* The figures of batch size batch from the blocks of t that hold every arm
 * named in arms (by part, process and block). Returns 0, or -1 with err
 * (an arm not in the table, fewer than 2 such blocks, out of memory). */
int sb_attribution_compute(const struct sb_block_table *t, const struct sb_attribution_arms *arms, uint64_t batch,
			   unsigned n_boot, uint64_t seed, struct sb_attribution *out, char *err, size_t errlen);

/* The batch sizes of t, ascending, at most max. Returns how many. */
size_t sb_attribution_batches(const struct sb_block_table *t, uint64_t *out, size_t max);

#endif
