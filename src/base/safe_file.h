/* safe_file.h: files written whole, and inputs opened without hanging.
 *
 * Writing: the bytes go to a new temporary file in the target's directory
 * (".stubbench-PID-N.tmp", made with O_CREAT|O_EXCL|O_NOFOLLOW, so no
 * symbolic link or file planted at that name is ever followed or reused),
 * are flushed and fsync'd, and the temporary is then renamed over the
 * target. A target that is not a regular file (a symbolic link, FIFO,
 * device, directory, socket) is refused before anything is written. A
 * failing write (ENOSPC, EIO) removes the temporary and the target keeps
 * its old bytes. Ownership is only ever changed on the descriptor
 * (fchown), never by path. Temporaries still open when SIGINT or SIGTERM
 * ends the process are removed (sb_safe_file_remove_temps).
 *
 * Reading: an input is opened with O_NONBLOCK and must be a regular file,
 * so a FIFO or a device is named and refused instead of waited on. */
#ifndef STUBBENCH_SAFE_FILE_H
#define STUBBENCH_SAFE_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The longest path taken, in bytes without the NUL; a longer one is an
 * error naming it, never cut short. */
#define SB_SAFE_FILE_PATH_MAX 4095

/* Run as root, a file new in a directory owned by someone else becomes
 * that directory owner's (a user's record written by an explicit path). */
#define SB_SAFE_FILE_DIR_OWNER 1

struct sb_safe_file {
	FILE *f;  /* the stream to write, over the temporary; NULL once detached */
	int slot; /* in the list of temporaries removed on a signal; -1 none */
	char path[SB_SAFE_FILE_PATH_MAX + 1];
	char tmp[SB_SAFE_FILE_PATH_MAX + 1];
};

/* "a FIFO", "a directory", ... for a file type that is not a regular file. */
const char *sb_safe_file_kind(mode_t mode);

/* 0 when path is short enough, else -1 with err "'PATH...': path longer
 * than N characters" (the start of the path). */
int sb_safe_file_path_ok(const char *path, char *err, size_t errlen);

/* Can path be written whole? It is missing or a regular file (not followed
 * when a symbolic link), and a temporary can be made beside it (made and
 * removed). Returns 0, or -1 with err naming the path and why. */
int sb_safe_file_check(const char *path, char *err, size_t errlen);

/* Starts writing path: sf->f is a stream over a new temporary beside it
 * (mode 0644 under the umask; an existing target's mode, and its owner
 * when run as root, are kept). flags: SB_SAFE_FILE_DIR_OWNER or 0.
 * Returns 0, or -1 with err (nothing made). */
int sb_safe_file_open(struct sb_safe_file *sf, const char *path, int flags, char *err, size_t errlen);

/* Why writes to f failed, where errno no longer says (a stream whose
 * buffered write failed earlier, errno since reset): ENOSPC when the file
 * system of f has no block left for this user, EDQUOT past a quota ...,
 * else EIO. Returns errno itself when it is set. */
int sb_stream_errno(FILE *f);

/* Closes the stream and leaves the temporary (sf->tmp) for another program
 * to write (gnuplot, Google Benchmark); commit or abort it later. Returns
 * 0, or -1 when a write so far failed (err says so; the temporary stays). */
int sb_safe_file_detach(struct sb_safe_file *sf, char *err, size_t errlen);

/* Flushes, fsyncs and renames the temporary over the target. Returns 0, or
 * -1 with err "cannot write 'PATH': why" after removing the temporary. */
int sb_safe_file_commit(struct sb_safe_file *sf, char *err, size_t errlen);

/* Closes and removes the temporary; the target is left as it was. */
void sb_safe_file_abort(struct sb_safe_file *sf);

/* The whole of buf as path, through open and commit. */
int sb_safe_file_write(const char *path, const void *buf, size_t len, int flags, char *err, size_t errlen);

/* Removes every temporary still open; async-signal-safe (for the handlers
 * that end the process on SIGINT and SIGTERM). */
void sb_safe_file_remove_temps(void);

/* Opens path for reading with O_NONBLOCK (cleared afterwards) and checks
 * that it is a regular file. Returns the descriptor, or -1 with the
 * reason alone in err ("it is a FIFO, not a regular file", strerror's
 * words). */
int sb_safe_file_open_input(const char *path, char *err, size_t errlen);

/* sb_safe_file_open_input, closed again: 0 when path is a readable regular
 * file, else -1 with the reason alone in err. */
int sb_safe_file_check_input(const char *path, char *err, size_t errlen);

#endif
