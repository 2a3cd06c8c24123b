/* placement_states.h: at how many placements a loop takes more than one
 * steady state block by block.
 *
 * At identical layout (--padded) each placement's codegen is one arm's
 * mean over its blocks less its padded baseline's. Where, at one
 * placement, the blocks of either arm fall in two levels (behind the ITS
 * return thunk: 1.5 cycles apart, at a third to two thirds of the
 * placements; results/intel-xeon-0xa7-vm.md, 2026-12-05), that difference
 * is one of two mixtures less another, and the run's figure moves with
 * their shares from run to run by more than its CI says. The share of such
 * placements says how much of the figure is a mixture. */
#ifndef STUBBENCH_PLACEMENT_STATES_H
#define STUBBENCH_PLACEMENT_STATES_H

#include <stddef.h>

#include "stats/paired_placements.h"
#include "stubbench/estimate.h"

/* A placement counts when each arm has at least this many blocks there. */
#define SB_PLACEMENT_STATES_MIN_BLOCKS 4

struct sb_placement_states {
	size_t multi, n; /* placements in more than one state, of those that count */
	struct sb_estimate share_pct; /* multi / n in %, Wilson 95 % CI; absent when n is 0 */
};

/* The placements of a and b (two arms' blocks, each in its group of its
 * own at one table of placements, processes pooled) at which either
 * arm's blocks fall in more than one steady state (sb_find_modes, states
 * 0.3 cycles apart, each of at least two blocks). Returns 0, or -1 out of
 * memory. */
int sb_placements_in_states(const struct sb_arm_blocks *a, const struct sb_arm_blocks *b,
			    struct sb_placement_states *out);

#endif
