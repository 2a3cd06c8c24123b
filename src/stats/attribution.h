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

#include "stats/block_table.h"
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

/* What an attribution says of its parts:
 *   ADDITIVE      the interaction's CI holds 0: parts and layout explain the total;
 *   NOT_ADDITIVE  its CI excludes 0, and no state of the loop explains it;
 *   STATE         the cost is a state of the loop: the interaction's CI
 *                 excludes 0, it is opposite in sign to the total less
 *                 layout ("the whole") and at least half of it (the parts
 *                 NOPed one by one overcount it), and 2 or more parts each
 *                 NOPed alone read 0.5 to 2 times the whole with a CI that
 *                 excludes 0: removing any one of them moves the loop into
 *                 its other steady state, so each figure is that one change,
 *                 not the part's own cost, and the figures do not add. */
enum sb_attribution_verdict { SB_ATTRIBUTION_ADDITIVE, SB_ATTRIBUTION_NOT_ADDITIVE, SB_ATTRIBUTION_STATE };

struct sb_attribution_state {
	enum sb_attribution_verdict verdict;
	double whole;                          /* the total less layout (the total without a layout figure) */
	size_t n;                              /* the parts that each read the whole (STATE: 2 or more; else 0) */
	size_t part[SB_ATTRIBUTION_MAX_PARTS]; /* their indexes, in the order of the parts */
	double lo, hi;                         /* the least and the largest of their NOP figures (NAN: none) */
};

/* The verdict on t's figures (the rule above, the only place it is made). */
void sb_attribution_state_of(const struct sb_attribution *t, struct sb_attribution_state *s);
/* t's verdict by name, "additive", "not additive" or "loop state": the
 * JSON's "verdict". */
const char *sb_attribution_verdict_name(const struct sb_attribution *t);

#endif
