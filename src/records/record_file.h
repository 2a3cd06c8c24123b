/* record_file.h: the files a machine's records are kept in, from run to
 * run: where they live, and how a run adds its lines. The records are the
 * quiet canary levels (quiet_record.h) and the figures of past runs
 * (past_runs.h); each file holds lines of tab-separated fields, '#' lines
 * are comments. */
#ifndef STUBBENCH_RECORD_FILE_H
#define STUBBENCH_RECORD_FILE_H

#include <stddef.h>

/* The default place of the record called name: $XDG_STATE_HOME/stubbench/NAME,
 * else $HOME/.local/state/stubbench/NAME. Returns 0; -1 when neither
 * variable is set; -2 with a one-line reason in buf when that place is
 * not this run's to write: the real and effective users differ, or the
 * directory (or its nearest existing parent) belongs to another user (root
 * under `sudo -E` with the user's HOME), or the path does not fit buf. */
int sb_record_file_default(const char *name, char *buf, size_t len);

/* The text of the record at path into *text, to be freed: at most its
 * newest max_bytes (from the start of a line), a half line at its end (a
 * write cut short by a full disk) left out; read under a shared flock. A
 * missing file is an empty record (*text NULL). A FIFO, device or
 * directory is refused without waiting. Returns 0, or -1 with err naming
 * the file. */
int sb_record_file_read(const char *path, size_t max_bytes, char **text, char *err, size_t errlen);

/* The next line of a record's text at *at, cut off in place (no '\n'),
 * *at moved past it; NULL at the end of the text. */
char *sb_record_file_line(char **at);

/* line cut in place into exactly n tab-separated fields, f[0..n); 0, or
 * -1 with more or fewer. */
int sb_record_file_fields(char *line, char **f, int n);

/* Appends lines (whole lines, each ending in '\n') to the record at path in
 * one write, holding an exclusive flock on it, so that runs finishing
 * together neither mix nor lose lines. A missing file is created with
 * header (one '#' line) and the directories that hold it (mkdir -p); a
 * symbolic link, FIFO or device at path is refused. A file whose first
 * line is neither a "# stubbench " header nor a record line (a saved JSON
 * run named by mistake) is refused and left untouched. A file of max_lines
 * lines or more, one larger than max_bytes, or one ending in a half line
 * is first rewritten (a temporary renamed over it, see safe_file.h) with
 * header, its newest max_lines / 2 whole lines (comments dropped, at most
 * max_bytes / 2 bytes) and lines. Run as root, a file or directory it
 * creates in a directory that is not root's becomes that directory
 * owner's (on the descriptor), and a rewritten file keeps its owner.
 * Returns 0, or -1 with err naming the file or directory. */
int sb_record_file_append(const char *path, const char *header, const char *lines, size_t max_lines,
			  size_t max_bytes, char *err, size_t errlen);

#endif
