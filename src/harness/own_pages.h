/* own_pages.h: a forked child's own copy of every data page it still
 * shares with its parent.
 *
 * After fork, parent and child share each private page until one of them
 * writes it (copy on write). A page the child only reads is the parent's
 * physical page in every child of one exec, so whatever it selects is fixed
 * per exec however many children run (measured:
 * results/amd-epyc-zen5-vm.md; docs/fresh-processes.md). */
#ifndef STUBBENCH_OWN_PAGES_H
#define STUBBENCH_OWN_PAGES_H

#include <stddef.h>

/* Memory that sb_own_pages leaves alone (the harness's sample buffers:
 * the child does not read them, and copying them costs milliseconds). */
struct sb_span {
	const void *p;
	size_t len;
};

/* Writes back one byte of every resident page of the process's private
 * writable anonymous mappings, heap, stack and the executable's own data,
 * so that each becomes a page of this process alone; pages wholly inside
 * one of the n_skip spans are left alone. Shared mappings (BPF maps,
 * MAP_SHARED), libraries' data and mappings over 1 GiB (a sanitizer's
 * shadow) are left alone too. Returns the number
 * of pages written, or -1 if /proc/self/maps cannot be read. */
long sb_own_pages(const struct sb_span *skip, size_t n_skip);

#endif
