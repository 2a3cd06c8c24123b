/* run_info.c: see run_info.h. */
#include "base/run_info.h"

#include <stdio.h>
#include <sys/utsname.h>
#include <time.h>

#include "git_revision.h" /* SB_GIT_REVISION, written at every build */

static int saved_argc;
static char *const *saved_argv;

void sb_run_info_set_argv(int argc, char *const *argv)
{
	saved_argc = argc;
	saved_argv = argv;
}

void sb_run_info_argv(int *argc, char *const **argv)
{
	*argc = saved_argc;
	*argv = saved_argv;
}

void sb_run_info_date(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	if (!len)
		return;
	buf[0] = '\0';
	if (gmtime_r(&now, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void sb_run_info_kernel(char *buf, size_t len)
{
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(buf, len, "%s %s %s", u.sysname, u.release, u.version);
	else
		snprintf(buf, len, "unknown");
}

const char *sb_run_info_git(void)
{
	return SB_GIT_REVISION;
}
