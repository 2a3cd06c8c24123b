/* own_pages.c: a forked child's own copy of its data pages; see own_pages.h. */
#define _GNU_SOURCE
#include "harness/own_pages.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* Larger mappings are reservations, not data the measured code reads:
 * a sanitizer's shadow memory spans terabytes. */
#define MAX_MAPPING (1UL << 30)

/* Which mappings: private and writable, and anonymous, the heap, the stack
 * or the executable's own .data/.bss (not a library's, not a file's). */
static int wanted(const char *perms, const char *path, const char *exe, unsigned long len)
{
	if (perms[0] != 'r' || perms[1] != 'w' || perms[3] != 'p' || len > MAX_MAPPING)
		return 0;
	return path[0] == '\0' || strcmp(path, "[heap]") == 0 || strcmp(path, "[stack]") == 0 ||
	       (exe[0] && strcmp(path, exe) == 0);
}

static int skipped(uintptr_t a, size_t page, const struct sb_span *skip, size_t n_skip)
{
	for (size_t i = 0; i < n_skip; i++) {
		uintptr_t lo = (uintptr_t)skip[i].p;
		if (a >= lo && a + page <= lo + skip[i].len)
			return 1;
	}
	return 0;
}

/* One byte read and written back: the byte is whatever sits at the start
 * of the page (a heap redzone, a freed block), so neither a sanitizer nor
 * valgrind may take it for the program's own access. */
__attribute__((no_sanitize_address)) static void write_back(uintptr_t a)
{
	volatile unsigned char *c = (volatile unsigned char *)a;
	*c = *c;
}

static long own_range(uintptr_t lo, uintptr_t hi, size_t page, const struct sb_span *skip, size_t n_skip)
{
	/* Only resident pages are shared with the parent: a page never touched
	 * gets a fresh one at the child's first access anyway. */
	size_t n = (hi - lo) / page;
	unsigned char vec[256];
	long written = 0;
	for (size_t first = 0; first < n; first += sizeof(vec)) {
		size_t k = n - first < sizeof(vec) ? n - first : sizeof(vec);
		if (mincore((void *)(lo + first * page), k * page, vec) != 0)
			memset(vec, 1, k); /* cannot tell: write them all */
		for (size_t i = 0; i < k; i++)
			if ((vec[i] & 1) && !skipped(lo + (first + i) * page, page, skip, n_skip)) {
				write_back(lo + (first + i) * page);
				written++;
			}
	}
	return written;
}

long sb_own_pages(const struct sb_span *skip, size_t n_skip)
{
	/* Under valgrind the maps list its own memory too, and every byte
	 * written back is an error report; its timings mean nothing anyway. */
	if (RUNNING_ON_VALGRIND)
		return 0;
	char exe[PATH_MAX] = "";
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 0] = '\0';
	FILE *f = fopen("/proc/self/maps", "re");
	if (!f)
		return -1;
	/* Read the whole list first: writing pages can grow the heap, and
	 * the list must not change under the reading. */
	struct { uintptr_t lo, hi; } r[512];
	size_t n = 0;
	char line[PATH_MAX + 128];
	while (n < sizeof(r) / sizeof(r[0]) && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[5];
		int path_at = 0;
		if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &lo, &hi, perms, &path_at) != 3)
			continue;
		char *path = path_at ? line + path_at : line + strlen(line);
		path[strcspn(path, "\n")] = '\0';
		if (wanted(perms, path, exe, hi - lo)) {
			r[n].lo = lo;
			r[n].hi = hi;
			n++;
		}
	}
	fclose(f);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	long written = 0;
	for (size_t i = 0; i < n; i++)
		written += own_range(r[i].lo, r[i].hi, page, skip, n_skip);
	return written;
}
