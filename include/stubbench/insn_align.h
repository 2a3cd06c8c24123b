/* insn_align.h: two functions' instructions aligned, old -> new (the rows
 * of image_diff.h): a longest common subsequence of the instructions,
 * address fields masked (sb_jit_mask_insn: movabs imm64, rel32, the gs
 * displacement), then within each gap between common instructions an old
 * and a new one of the same mnemonic paired in order as "changed".
 *
 * Minimal glue for `stubbench diff` while branch annotate's alignment
 * (src/jit/ablation.c, which aligns a variant against its baseline the
 * same way) has no entry point that returns the map: one of the two goes
 * when both are on main. */
#ifndef STUBBENCH_INSN_ALIGN_H
#define STUBBENCH_INSN_ALIGN_H

#include <stddef.h>

#include "stubbench/image_diff.h"
#include "stubbench/listing.h"

/* 1 when the two instructions are equal with their address fields masked. */
int sb_insn_same(const struct sb_insn *a, const struct sb_insn *b);

/* The rows of old against new, malloc'd (*n of them). Returns 0, or -1
 * with err (out of memory, functions over 4096 instructions). */
int sb_insn_align(const struct sb_listing *old, const struct sb_listing *new_l, struct sb_insn_map_row **rows,
		  size_t *n, char *err, size_t errlen);

#endif
