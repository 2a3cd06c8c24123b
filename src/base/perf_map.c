/* perf_map.c: entries of /tmp/perf-<pid>.map; see perf_map.h. */
#include "base/perf_map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/safe_file.h"

static FILE *map_file;
static pid_t map_pid;
static char map_path[64];

const char *sb_perf_map_path(void)
{
	snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", (int)getpid());
	return map_path;
}

/* /tmp is everyone's: the map is opened without following a symbolic link
 * (O_NOFOLLOW), without waiting on a FIFO (O_NONBLOCK), and used only when
 * it is a regular file of this user with one link; it is emptied only
 * after those checks (a file left by an earlier process with the same pid
 * is not this process's map). */
static FILE *open_map(char *err, size_t errlen)
{
	const char *path = sb_perf_map_path();
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0) {
		sb_set_err(err, errlen, "%s: %s%s", path, strerror(errno),
			   errno == ELOOP ? " (a symbolic link: not followed)" : "");
		return NULL;
	}
	struct stat st;
	const char *why = NULL;
	if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = sb_safe_file_kind(st.st_mode);
	else if (st.st_uid != geteuid())
		why = "owned by another user";
	else if (st.st_nlink != 1)
		why = "it has more than one link";
	if (!why && (fcntl(fd, F_SETFL, 0) != 0 || ftruncate(fd, 0) != 0))
		why = strerror(errno);
	FILE *f = why ? NULL : fdopen(fd, "w");
	if (!f) {
		sb_set_err(err, errlen, "%s: not written: %s", path, why ? why : strerror(errno));
		close(fd);
	}
	return f;
}

int sb_perf_map_add(uintptr_t start, size_t size, const char *name, char *err, size_t errlen)
{
	/* Kept open for the process (a fork gets a file of its own); every
	 * line is flushed so that perf sees it whenever it reads. */
	if (!map_file || map_pid != getpid()) {
		map_file = open_map(err, errlen);
		if (!map_file)
			return -1;
		map_pid = getpid();
	}
	if (fprintf(map_file, "%lx %zx %s\n", (unsigned long)start, size, name) < 0 || fflush(map_file) != 0) {
		sb_set_err(err, errlen, "%s: write failed: %s", map_path, strerror(errno));
		return -1;
	}
	return 0;
}
