/* error.c: see error.h. */
#include "base/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

void sb_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *sb_errno_cause(int e)
{
	static __thread char buf[128];
	struct rlimit rl;
	if (e == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(buf, sizeof(buf), "too many open files (limit %llu)", (unsigned long long)rl.rlim_cur);
	else if (e == EMFILE)
		snprintf(buf, sizeof(buf), "too many open files");
	else if (e == ENFILE)
		snprintf(buf, sizeof(buf), "too many open files in the system");
	else if (e == ENOMEM && getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(buf, sizeof(buf), "out of memory (address-space limit %llu MB)",
			 (unsigned long long)(rl.rlim_cur >> 20));
	else if (e == ENOMEM)
		snprintf(buf, sizeof(buf), "out of memory (no address-space limit: the kernel's own)");
	else
		return strerror(e);
	return buf;
}

int sb_fd_headroom(int want)
{
	int fds[64], n = 0;
	want = want > 64 ? 64 : want;
	while (n < want && (fds[n] = dup(2)) >= 0)
		n++;
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return n == want;
}
