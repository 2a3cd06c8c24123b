/* perf_map.h: /tmp/perf-<pid>.map, where perf looks up the names of code
 * that has no ELF symbol (JITs write it; so does every placed copy here). */
#ifndef STUBBENCH_PERF_MAP_H
#define STUBBENCH_PERF_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Appends "START SIZE name" (hex, perf's format) to /tmp/perf-<pid>.map.
 * Returns 0, or -1 with a one-line reason in err. */
int sb_perf_map_add(uintptr_t start, size_t size, const char *name, char *err, size_t errlen);
/* The file's path for this process. */
const char *sb_perf_map_path(void);

#endif
