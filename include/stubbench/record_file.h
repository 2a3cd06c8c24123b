/* record_file.h: the files a machine's records are kept in, from run to
 * run: where they live, and how a run adds its lines. The records are the
 * quiet canary levels (quiet_record.h) and the figures of past runs
 * (past_runs.h); each file holds lines of tab-separated fields, '#' lines
 * are comments. */
#ifndef STUBBENCH_RECORD_FILE_H
#define STUBBENCH_RECORD_FILE_H

#include <stddef.h>

/* The default place of the record called name: $XDG_STATE_HOME/stubbench/NAME,
 * else $HOME/.local/state/stubbench/NAME. Returns 0, or -1 when neither
 * variable is set. */
int sb_record_file_default(const char *name, char *buf, size_t len);

/* The text of the record at path (at most max_bytes) into *text, to be
 * freed; a missing file is an empty record (*text NULL). Returns 0, or -1
 * with err naming the file. */
int sb_record_file_read(const char *path, size_t max_bytes, char **text, char *err, size_t errlen);

/* The next line of a record's text at *at, cut off in place (no '\n'),
 * *at moved past it; NULL at the end of the text. */
char *sb_record_file_line(char **at);

/* line cut in place into exactly n tab-separated fields, f[0..n); 0, or
 * -1 with more or fewer. */
int sb_record_file_fields(char *line, char **f, int n);

/* Appends lines (whole lines, each ending in '\n') to the record at path in
 * one write, so that runs finishing together do not mix their lines. A
 * missing file is created with header (one '#' line) and the directories
 * that hold it (mkdir -p). A file of max_lines lines or more is first cut to
 * its newest max_lines / 2 (comments dropped, header kept) through a
 * rename. Run as root, what it creates in a directory that is not root's
 * (a user's home under `sudo -E`) becomes that directory owner's. Returns
 * 0, or -1 with err naming the file or directory. */
int sb_record_file_append(const char *path, const char *header, const char *lines, size_t max_lines,
			  size_t max_bytes, char *err, size_t errlen);

#endif
