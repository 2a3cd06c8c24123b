/* insn_align.h: two functions' instructions mapped old -> new (the rows of
 * image_diff.h): paired by the longest common subsequence of the annotate
 * module's alignment (src/twins/code_align.c, addresses masked), then within
 * each gap between two common instructions an old and a new one of the
 * same mnemonic and operand kinds paired in order as "changed", the rest removed (old only)
 * or added (new only). */
#ifndef STUBBENCH_INSN_ALIGN_H
#define STUBBENCH_INSN_ALIGN_H

#include <stddef.h>
#include <stdint.h>

enum sb_insn_change { SB_INSN_SAME, SB_INSN_CHANGED, SB_INSN_ADDED, SB_INSN_REMOVED };

/* One row of the old -> new map, in the order of both listings. */
struct sb_insn_map_row {
	enum sb_insn_change kind;
	long old_i, new_i; /* instruction indexes; -1 where that side has none */
};

/* The rows of old against new code, malloc'd (*n of them), in the order of
 * both. Returns 0, or -1 with err (code that does not decode, out of
 * memory). */
int sb_insn_align(const uint8_t *old, size_t old_len, const uint8_t *new_code, size_t new_len,
		  struct sb_insn_map_row **rows, size_t *n, char *err, size_t errlen);

#endif
