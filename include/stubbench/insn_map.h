/* insn_map.h: one row of an old -> new instruction map, the type that
 * insn_align.h makes and image_diff.h pairs functions with. */
#ifndef STUBBENCH_INSN_MAP_H
#define STUBBENCH_INSN_MAP_H

enum sb_insn_change { SB_INSN_SAME, SB_INSN_CHANGED, SB_INSN_ADDED, SB_INSN_REMOVED };

/* One row of the old -> new map, in the order of both listings. */
struct sb_insn_map_row {
	enum sb_insn_change kind;
	long old_i, new_i; /* instruction indexes; -1 where that side has none */
};

#endif
