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

struct sb_diff_twin {
	struct sb_auto_twin t;            /* t.cv.v: what the harness runs */
	struct sb_auto_twin_map maps[SB_AUTO_TWIN_MAX_MAPS];
	struct sb_auto_twin_ref refs[SB_AUTO_TWIN_MAX_MAPS];
	size_t n_maps;
	int counted;                      /* 1: a counter was found */
};

/* Makes the twin of img called name ("old", "new"), its family "diff".
 * out must not move while the twin lives. Returns 0, or -1 with err naming
 * the function and instruction. */
int sb_diff_twin_make(const struct sb_jit_image *img, const char *name, enum sb_thunk thunk,
		      struct sb_diff_twin *out, char *err, size_t errlen);
void sb_diff_twin_free(struct sb_diff_twin *d);

#endif
