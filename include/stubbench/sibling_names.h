/* sibling_names.h: the SMT sibling's modes, loads and block states, their
 * names and the options' parsing (src/base/sibling_names.c), for the run
 * configuration and the block log; the sibling itself: sibling.h. */
#ifndef STUBBENCH_SIBLING_NAMES_H
#define STUBBENCH_SIBLING_NAMES_H

#include <stddef.h>

enum sb_sibling_mode { SB_SIBLING_QUIET, SB_SIBLING_BUSY, SB_SIBLING_BOTH };
enum sb_sibling_load { SB_SIBLING_LOAD_SPIN, SB_SIBLING_LOAD_SAME };

/* A block's sibling, as recorded; UNRECORDED: a block log written before
 * the column existed. */
enum sb_sibling_state { SB_SIBLING_UNRECORDED, SB_SIBLING_NONE, SB_SIBLING_IS_QUIET, SB_SIBLING_IS_BUSY };
#define SB_SIBLING_STATES 4

/* "quiet", "busy", "both" / "spin", "same" / "quiet", "busy", "none" ("" unrecorded). */
const char *sb_sibling_mode_name(enum sb_sibling_mode m);
const char *sb_sibling_load_name(enum sb_sibling_load l);
const char *sb_sibling_state_name(enum sb_sibling_state s);
/* The state a name gives, or -1. */
int sb_sibling_state_from_name(const char *s);

/* Parse option opt's value. Return 0, or -1 with err naming opt and the value. */
int sb_sibling_parse_mode(const char *opt, const char *s, enum sb_sibling_mode *m, char *err, size_t errlen);
int sb_sibling_parse_load(const char *opt, const char *s, enum sb_sibling_load *l, char *err, size_t errlen);

#endif
