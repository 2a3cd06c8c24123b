/* A forked child's own data pages (sb_own_pages): the private pages it
 * shares with its parent become its own, resident pages only, but for the
 * spans it is told to skip; shared mappings are not touched. Exact: the kernel's smaps counts, not timings. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "harness/own_pages.h"

#define PAGES 16

/* A field ("Shared_Dirty") of the smaps entry that holds addr, in kB; -1: none. */
static long smaps_kb(void *addr, const char *field)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	int in = 0;
	long kb = -1;
	size_t flen = strlen(field);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = lo <= (unsigned long)addr && (unsigned long)addr < hi;
		else if (in && strncmp(line, field, flen) == 0 && line[flen] == ':')
			kb = strtol(line + flen + 1, NULL, 10);
	}
	fclose(f);
	return kb;
}

static void checks_in_child(char *priv, char *shared, char *untouched, long page_kb)
{
	long total = PAGES * page_kb;
	CHECK(smaps_kb(priv, "Shared_Dirty") == total, "before: %ld kB shared, want %ld",
	      smaps_kb(priv, "Shared_Dirty"), total);
	/* The second half skipped (one byte short of its last page: that
	 * page is not wholly inside, so it is written). */
	long half = PAGES / 2 * page_kb;
	struct sb_span skip = {priv + half * 1024, (size_t)(half * 1024 - 1)};
	long n = sb_own_pages(&skip, 1);
	CHECK(n >= PAGES / 2 + 1, "%ld pages written, want at least %d", n, PAGES / 2 + 1);
	CHECK(smaps_kb(priv, "Shared_Dirty") == half - page_kb, "skipped: %ld kB still shared, want %ld",
	      smaps_kb(priv, "Shared_Dirty"), half - page_kb);
	n = sb_own_pages(NULL, 0);
	CHECK(n >= PAGES / 2 - 1, "%ld pages written, want at least %d", n, PAGES / 2 - 1);
	CHECK(smaps_kb(priv, "Shared_Dirty") == 0, "after: %ld kB still shared", smaps_kb(priv, "Shared_Dirty"));
	CHECK(smaps_kb(priv, "Private_Dirty") == total, "after: %ld kB private, want %ld",
	      smaps_kb(priv, "Private_Dirty"), total);
	for (int i = 0; i < PAGES; i++)
		CHECK(priv[i * page_kb * 1024] == (char)(i + 1), "page %d changed its byte", i);
	CHECK(smaps_kb(untouched, "Rss") == 0, "a never touched mapping became resident: %ld kB",
	      smaps_kb(untouched, "Rss"));
	/* A fork maps MAP_SHARED pages lazily: any access would map them. */
	CHECK(smaps_kb(shared, "Rss") == 0, "MAP_SHARED: %ld kB mapped, so it was accessed", smaps_kb(shared, "Rss"));
	CHECK(shared[0] == 7, "MAP_SHARED: the parent's bytes are not seen");
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	long page_kb = page / 1024;
	/* Three mappings with inaccessible gaps between them, so that the
	 * kernel cannot merge them into one entry. */
	char *area = mmap(NULL, 4 * PAGES * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	char *priv = mmap(area, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	char *untouched = mmap(area + (PAGES + 1) * page, PAGES * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	char *shared = mmap(area + (2 * PAGES + 2) * page, 4 * page, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (priv == MAP_FAILED || shared == MAP_FAILED || untouched == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (int i = 0; i < PAGES; i++)
		priv[i * page] = (char)(i + 1);
	memset(shared, 7, 4 * page);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		checks_in_child(priv, shared, untouched, page_kb);
		int rc = check_report("own_pages (child)");
		fflush(stdout);
		_exit(rc);
	}
	int status = 0;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork or wait failed");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's checks failed (status %#x)", status);
	/* The parent's pages are its own again once the child has left. */
	CHECK(smaps_kb(priv, "Shared_Dirty") == 0, "parent: %ld kB shared after the child left",
	      smaps_kb(priv, "Shared_Dirty"));
	return check_report("own_pages");
}
