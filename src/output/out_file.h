/* out_file.h: where a report goes (--output): standard output; a
 * character device or FIFO (/dev/null, /dev/stdout), written in place and
 * never replaced; or a regular file written whole through safe_file.h (a
 * temporary of its own beside it, renamed over it at the end, the old
 * file's mode and owner kept, a symbolic link refused), so that FILE is
 * never half a report. */
#ifndef STUBBENCH_OUT_FILE_H
#define STUBBENCH_OUT_FILE_H

#include <stdio.h>

#include "base/safe_file.h"

struct sb_out {
	FILE *f;          /* where to write */
	int kind;         /* 0: stdout, 1: a device or FIFO in place, 2: a file written whole */
	struct sb_safe_file sf;
	char path[SB_SAFE_FILE_PATH_MAX + 1];
	const char *tool;
};

/* Whether path can take a report (before anything is measured): a
 * character device or FIFO, a symbolic link to one, or a regular file or
 * none that can be written whole. Returns 0, or -1 with err naming it. */
int sb_out_check(const char *path, char *err, size_t errlen);
/* Opens path (NULL: stdout). Returns 0, or -1 with one line
 * "TOOL: --output: REASON" on stderr. */
int sb_out_open(struct sb_out *o, const char *path, const char *tool);
/* Flushes; a file written whole is committed. Returns 0, or -1 with one
 * line on stderr naming the reason (the target left as it was). */
int sb_out_close(struct sb_out *o);

#endif
