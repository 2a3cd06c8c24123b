/* diff_twin.h: the twin of one side of `stubbench diff` (docs/diff.md): an
 * auto-twin (auto_twin.h) of a JIT image read from a file, which says
 * nothing of the program's maps. So:
 *   - every kernel address a movabs loads (but the private stack's frame,
 *     movabs r9 before add r9, gs:) is a map value of its own: a zeroed
 *     page, the auto-twin's stubbed state;
 *   - the counter the harness checks is the first such value the main prog
 *     increments in place (mov rX, [rD+off]; add rX, 1; mov [rD+off], rX
 *     after movabs rD); a program without one runs unchecked (said);
 *   - calls leaving the program go to the stub that returns 0 (no kallsyms
 *     names them), returns through the thunk given (plain ret stays ret);
 *   - the shape is per-run: the harness calls the main prog batch times.
 * Call sb_jit_image_place_calls() on an image without kernel addresses
 * first (image_diff.h). */
#ifndef STUBBENCH_DIFF_TWIN_H
#define STUBBENCH_DIFF_TWIN_H

#include <stddef.h>

#include "twins/auto_twin.h"
#include "twins/diff_globals.h"

#define SB_DIFF_TWIN_VALUES 4096u /* bytes of each made-up map's values */
#define SB_DIFF_TWIN_LOADS 8 /* offsets read through one made-up map's movabs, kept */

struct sb_diff_twin {
	struct sb_auto_twin t;            /* t.cv.v: what the harness runs */
	struct sb_auto_twin_map maps[SB_AUTO_TWIN_MAX_MAPS];
	struct sb_auto_twin_ref refs[SB_AUTO_TWIN_MAX_MAPS];
	size_t n_maps;
	int counted;                      /* 1: a counter was found */
	/* --global's values (contents of maps[m]) and which bytes they set. */
	uint8_t *values[SB_AUTO_TWIN_MAX_MAPS], *set[SB_AUTO_TWIN_MAX_MAPS];
	/* Offsets the code reads through each map's movabs register. */
	long loads[SB_AUTO_TWIN_MAX_MAPS][SB_DIFF_TWIN_LOADS];
	size_t n_loads[SB_AUTO_TWIN_MAX_MAPS];
	int held[SB_TWIN_MAX_GLOBALS];    /* set i is in one of the maps or more */
};

/* Does the twin's path depend on the memory it zeroes? One call of its
 * main function single-stepped (insn_trace.h) with its memory as it is
 * measured (zeroed, --global's values in), once more with every byte
 * --global did not set holding 3 in each 4-byte word: a different count
 * of instructions, or a fault, and it does. Then where: the first map (a
 * movabs's kernel address) whose bytes alone make the difference, and the
 * first offset the code reads through it that alone does (searched on
 * paths under 10,000 instructions, in at most 24 traces). */
struct sb_diff_zeroed {
	int traced;          /* 0: the trace failed (why) */
	uint64_t insns;      /* instructions of one call, as measured */
	int depends;         /* 1: the path changes with the zeroed memory's values */
	uint64_t kaddr;      /* where (0: not found): a movabs's address + the offset read */
	char why[200];
};
void sb_diff_twin_zeroed(struct sb_diff_twin *d, struct sb_diff_zeroed *out);

/* Makes the twin of img called name ("old", "new"), its family "diff",
 * with sets[0..n_sets) in its memory (each where a movabs of img points at
 * or below it, within the made-up map; out->held says which were). out
 * must not move while the twin lives. Returns 0, or -1 with err naming
 * the function and instruction, or a named set (a global of img's files)
 * no movabs points near. */
int sb_diff_twin_make(const struct sb_jit_image *img, const char *name, enum sb_thunk thunk,
		      const struct sb_diff_set *sets, size_t n_sets, struct sb_diff_twin *out, char *err,
		      size_t errlen);
void sb_diff_twin_free(struct sb_diff_twin *d);

#endif
