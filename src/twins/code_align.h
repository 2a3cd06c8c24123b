/* code_align.h: two functions' decoded instructions (code_layout.h)
 * aligned by a longest common subsequence, addresses masked: what a
 * variant adds to its baseline (ablation.c) and the old -> new map of
 * `stubbench diff` (insn_align.c) are both read from it. Internal to
 * src/jit. */
#ifndef STUBBENCH_CODE_ALIGN_H
#define STUBBENCH_CODE_ALIGN_H

#include "code_layout.h"

/* 1 when a and b are the same instruction with addresses masked: the
 * immediate of a mov of 64 bits (movabs: a counter's, a frame's address),
 * a gs displacement (&this_cpu_off) and the target of a relative jump or
 * call. */
int sb_code_same_insn(const struct sb_code_insn *a, const struct sb_code_insn *b);

/* The largest table of the part of two functions that is not a common
 * prefix or suffix (16M cells, 64 MB): beyond it the alignment is refused,
 * not made in gigabytes. */
#define SB_CODE_ALIGN_MAX_CELLS (16.0 * 1024 * 1024)

/* match[i] (room for a->n): the instruction of b that a's instruction i is
 * paired with in a longest common subsequence, or -1 (ties broken towards
 * the earliest match). Returns how many are paired, -1 out of memory, or
 * -2 when the parts between a common prefix and suffix are too large
 * (SB_CODE_ALIGN_MAX_CELLS). */
long sb_code_align(const struct sb_code *a, const struct sb_code *b, long *match);

#endif
