/* out_file.h: where a report goes (--output): standard output, or a file
 * written whole: the report goes to FILE.tmp, which is renamed to FILE
 * when everything was written, so that FILE is never half a report. */
#ifndef STUBBENCH_OUT_FILE_H
#define STUBBENCH_OUT_FILE_H

#include <stdio.h>

struct sb_out {
	FILE *f;          /* where to write: stdout, or the temporary file */
	char path[4096];  /* "" for stdout */
	char tmp[4100];
	const char *tool;
};

/* Opens path's temporary file (path NULL: stdout). Returns 0, or -1 with
 * one line "TOOL: --output: cannot write PATH.tmp: REASON" on stderr. */
int sb_out_open(struct sb_out *o, const char *path, const char *tool);
/* Flushes; a file is closed and renamed to its path. Returns 0, or -1 with
 * one line on stderr naming the reason (the temporary file removed). */
int sb_out_close(struct sb_out *o);

#endif
