/* error.h: the library's one-line error messages, and the exit statuses
 * every command of the library returns and its front ends exit with.
 * `stubbench kernel` adds its own between 3 and 6 (loader.h, enum
 * sb_kernel_status). */
#ifndef STUBBENCH_ERROR_H
#define STUBBENCH_ERROR_H

#include <stddef.h>

/* printf into err (errlen bytes); does nothing when err is NULL or errlen 0. */
void sb_set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* errno e in words, by its true cause: EMFILE "too many open files
 * (limit 8)" with this process's RLIMIT_NOFILE, ENFILE "too many open
 * files in the system", ENOMEM "out of memory (address-space limit 60
 * MB)" with RLIMIT_AS where one is set; else strerror(e). The text lives
 * until the next call from this thread. */
const char *sb_errno_cause(int e);

/* Whether want more file descriptors can be opened now (a failed load
 * whose errno was lost on the way: libbpf, a map it could not create).
 * 1 yes, 0 no. */
int sb_fd_headroom(int want);

enum sb_status {
	SB_STATUS_OK = 0,
	SB_STATUS_FAILED = 1,         /* an error said on stderr, or a check that failed */
	SB_STATUS_USAGE = 2,          /* bad input, named in one line */
	SB_STATUS_INTERRUPTED = 130,  /* SIGINT or SIGTERM (interrupt.h) */
};

#endif
