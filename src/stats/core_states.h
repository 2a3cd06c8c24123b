/* core_states.h: the state of the core beside each block, from its add
 * canary (independent adds per cycle, the blocks log's `canary`): quiet,
 * or beside a busy SMT sibling that takes the core's ALUs (docs/core-states.md).
 *
 * The one rule. A block is in the busy state when its canary is below
 * 90 % of the quiet level (the limit a block is judged disturbed by,
 * disturbed.h), else in the quiet state. The quiet level is:
 * - the machine's, from the record of quiet levels (quiet_record.h), when
 *   the caller has one;
 * - else the run's own upper cluster, when its canaries fall in two
 *   clusters with a clear gap between them (a valley in their histogram
 *   on a log scale, 2 % bins, holding at most a tenth of either peak, and
 *   each side holding SB_CORE_MIN_BLOCKS blocks and a twentieth of all);
 * - else none: one cluster, and nothing says whether it is quiet or busy,
 *   so every block is in the state "unknown". */
#ifndef STUBBENCH_CORE_STATES_H
#define STUBBENCH_CORE_STATES_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/estimate.h"

enum sb_core_state { SB_CORE_UNKNOWN, SB_CORE_QUIET, SB_CORE_BUSY, SB_CORE_STATES };

/* A state with fewer blocks gets no figures of its own, and a cluster of
 * fewer makes no second state. */
#define SB_CORE_MIN_BLOCKS 32
/* Below this share of the quiet level a block is busy (disturbed.h's limit). */
#define SB_CORE_BUSY_SHARE 0.90

/* "unknown", "quiet", "busy". */
const char *sb_core_state_name(enum sb_core_state s);

struct sb_core_split {
	const char *basis;  /* "record" (the machine's quiet level), "run" (its own two clusters), "none" */
	double quiet_level; /* adds per cycle; 0 with basis "none" */
	double threshold;   /* SB_CORE_BUSY_SHARE x quiet_level; 0 with basis "none" */
	size_t n[SB_CORE_STATES];        /* blocks in each state */
	double median[SB_CORE_STATES];   /* their canaries' median (0: no block) */
	/* With basis "none", why no quiet level: SB_CORE_RECORD_SHORT (the
	 * record holds no earlier run of this machine yet) or
	 * SB_CORE_RECORD_OFF (no record in use); NULL: not known (a saved
	 * run older than the member). */
	const char *no_level;
};
#define SB_CORE_RECORD_SHORT "record too short"
#define SB_CORE_RECORD_OFF "no record"

/* The state of a block whose canary is canary, by split (made by
 * sb_core_states_split): the rule's one comparison. */
enum sb_core_state sb_core_state_of(const struct sb_core_split *split, double canary);

/* Each of the n blocks' state (state[i], from canary[i]) by the rule
 * above; record_level: the machine's quiet add level (0: no record). A
 * canary that is not a positive number (a log that has none) is in the
 * state unknown. Returns 0, or -1 out of memory. */
int sb_core_states_split(const double *canary, size_t n, double record_level, enum sb_core_state *state,
			 struct sb_core_split *out);

/* A variant's figures at one batch size in one core state, and a run's
 * set of them (state_figures.h makes them from a blocks log; a live sweep
 * from its kept blocks). */
struct sb_state_figure {
	char variant[128], baseline[128], against[128]; /* against: the padded baseline ("": none) */
	uint64_t batch;
	enum sb_core_state state;
	size_t blocks;                     /* the variant's blocks in this state, at this batch */
	struct sb_estimate vs_base, codegen, total;
};

struct sb_state_figures {
	struct sb_core_split split;
	size_t n_blocks;
	struct sb_state_figure *f;
	size_t n;
};

/* The states s saw: those of SB_CORE_MIN_BLOCKS blocks or more, or in a
 * run too short for any, every state with a block. Returns their number,
 * the last of them in *only. */
int sb_state_figures_seen(const struct sb_state_figures *s, int *only);

/* The state a run's pooled figures (its results) were measured in: the
 * one state it saw ("quiet", "busy", "unknown"), or SB_CORE_POOLED where
 * it saw several; NULL where s is NULL or holds no block (a run that did
 * not classify its blocks). */
#define SB_CORE_POOLED "all"
const char *sb_state_figures_pooled(const struct sb_state_figures *s);

#endif
