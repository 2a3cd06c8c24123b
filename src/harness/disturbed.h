/* disturbed.h: which blocks of a batch size were disturbed, judged by what
 * the harness measured around each (docs/disturbed-blocks.md): a
 * context switch; an add canary below
 * SB_DISTURBED_CANARY of its quiet level; a window canary above
 * SB_DISTURBED_WINDOW of its quiet level; a core clock below 90 % of the
 * blocks' median. The empty stub's spread inside a block, which needs the
 * samples, is judged beside these by the harness (disturbed.c). */
#ifndef STUBBENCH_DISTURBED_H
#define STUBBENCH_DISTURBED_H

#include <stddef.h>

/* A block whose canary is below this fraction of the quiet level is
 * disturbed; a run whose canary median is, ran on a busy core. */
#define SB_DISTURBED_CANARY 0.90
/* A block whose window canary took more than this times its quiet level is
 * disturbed; a run whose window median did, ran on a busy core. */
#define SB_DISTURBED_WINDOW 1.05

/* What was measured around one block. */
struct sb_block_signs {
	double canary; /* independent adds per core cycle */
	double window; /* window canary: core cycles an iteration */
	double clock;  /* core cycles per TSC tick */
	long csw;      /* context switches during the block */
};

/* The quiet levels of n values sorted ascending: the add canary's near the
 * top of its range, the window canary's near the bottom. */
double sb_quiet_canary_level(const double *sorted, size_t n);
double sb_quiet_window_level(const double *sorted, size_t n);

/* Sets disturbed[i] (0 or 1) for each of n blocks and returns how many were
 * flagged; -1 out of memory. */
long sb_judge_blocks(const struct sb_block_signs *b, size_t n, int *disturbed);

#endif
