/* perf_map.c: entries of /tmp/perf-<pid>.map; see perf_map.h. */
#include "stubbench/perf_map.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stubbench/error.h"

static FILE *map_file;
static pid_t map_pid;
static char map_path[64];

const char *sb_perf_map_path(void)
{
	snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", (int)getpid());
	return map_path;
}

int sb_perf_map_add(uintptr_t start, size_t size, const char *name, char *err, size_t errlen)
{
	/* Kept open for the process (a fork gets a file of its own); every
	 * line is flushed so that perf sees it whenever it reads. */
	if (!map_file || map_pid != getpid()) {
		/* "w": a file left by an earlier process with the same pid
		 * is not this process's map. */
		map_file = fopen(sb_perf_map_path(), "w");
		if (!map_file) {
			sb_set_err(err, errlen, "%s: %s", map_path, strerror(errno));
			return -1;
		}
		map_pid = getpid();
	}
	if (fprintf(map_file, "%lx %zx %s\n", (unsigned long)start, size, name) < 0 || fflush(map_file) != 0) {
		sb_set_err(err, errlen, "%s: write failed: %s", map_path, strerror(errno));
		return -1;
	}
	return 0;
}
