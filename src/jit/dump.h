/* dump.h: JITed functions written out (--dump-jit): raw bytes and listings. */
#ifndef STUBBENCH_DUMP_H
#define STUBBENCH_DUMP_H

#include <stddef.h>
#include <stdio.h>

#include "jit/decode.h"

/* Writes <dir>/<prog>.<func>.bin (raw bytes) and <dir>/<prog>.<func>.lst
 * (objdump-style, the format listing.h parses) for every function; creates
 * dir. Returns 0, or -1 with the path that failed in err. */
int sb_jit_dump(const char *dir, const struct sb_jit_image *img, char *err, size_t errlen);
/* sb_jit_dump with notes (comment lines, each "# ...\n", or NULL) after
 * each listing's first line: what the program's globals are (kernel --obj). */
int sb_jit_dump_noted(const char *dir, const struct sb_jit_image *img, const char *notes, char *err, size_t errlen);
/* Before anything is loaded: creates dir and checks that a file can be
 * written in it. Returns 0, or -1 with a reason naming dir in err. */
int sb_jit_dump_prepare(const char *dir, char *err, size_t errlen);
/* Writes one decoded function as an objdump-style listing to f. */
int sb_jit_write_listing(FILE *f, const struct sb_listing *l);

#endif
