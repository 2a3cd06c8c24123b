/* atlas.h: results/atlas, one saved run per machine kind met (a JSON
 * document each, added by bench/atlas.py), and the line that places this
 * run's machine among them at the end of a sweep's summary:
 *
 *   host-private elsewhere (cycles, a run each): Zen 4 +2.82, Emerald Rapids -0.53
 *
 * docs/atlas.md says how an entry is made. */
#ifndef STUBBENCH_ATLAS_H
#define STUBBENCH_ATLAS_H

#include <stdio.h>

#include "saved/run_file.h"

/* The atlas's folder: $STUBBENCH_ATLAS ("none": no atlas, NULL), else the
 * source tree's results/atlas. */
const char *sb_atlas_dir(void);

/* 1 when the file at path is one of the atlas folder dir's runs (dir NULL:
 * never), whatever way either path names it. */
int sb_atlas_holds(const char *dir, const char *path);

/* The line for rf (at most SB_ANSWER_MAX_COLUMNS): the cost per call of
 * the variant its summary shows first, at the same batch, on every other
 * machine kind of the atlas in dir that has it. Returns 1 when it printed
 * it, 0 when there is none (no atlas, no other machine with that variant). */
int sb_atlas_line(FILE *f, const struct sb_run_file *rf, const char *dir);

#endif
