/* percpu.c: per-thread private stack copies reached through GS; see percpu.h. */
#define _GNU_SOURCE
#include "variants/percpu.h"
#include "base/error.h"

#include <asm/prctl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* Provided by the linker for the sections the asm macros fill. Weak so that
 * a program without any private-stack stub still links. */
extern char __start_sb_percpu[] __attribute__((weak));
extern char __stop_sb_percpu[] __attribute__((weak));
extern const struct sb_priv_area __start_sb_areas[] __attribute__((weak));
extern const struct sb_priv_area __stop_sb_areas[] __attribute__((weak));
extern const int64_t __start_sb_gsdisp[] __attribute__((weak));
extern const int64_t __stop_sb_gsdisp[] __attribute__((weak));

#define MAX_SLOT_PAGES 16
#define PAGE 4096UL

static __thread struct {
	int ready;
	char *map;           /* guard page | copy | guard page */
	size_t map_len;
	char *copy;          /* this thread's copy of the template */
	uintptr_t gs_base;
	void *slot_pages[MAX_SLOT_PAGES];
	size_t n_slot_pages;
} tls;

size_t sb_percpu_areas(const struct sb_priv_area **areas)
{
	*areas = __start_sb_areas;
	if (!__start_sb_areas)
		return 0;
	return (size_t)(__stop_sb_areas - __start_sb_areas);
}

size_t sb_percpu_gs_disps(const int64_t **disps)
{
	*disps = __start_sb_gsdisp;
	if (!__start_sb_gsdisp)
		return 0;
	return (size_t)(__stop_sb_gsdisp - __start_sb_gsdisp);
}

static size_t template_size(void)
{
	if (!__start_sb_percpu)
		return 0;
	return (size_t)(__stop_sb_percpu - __start_sb_percpu);
}

unsigned sb_percpu_page_offset(const void *template_addr)
{
	size_t size = template_size();
	uintptr_t off = (uintptr_t)((const char *)template_addr - __start_sb_percpu);
	/* copy = a page boundary + (rw - size), rw a multiple of the page */
	return (unsigned)((off - size) & (PAGE - 1));
}

void *sb_percpu_ptr(const void *template_addr)
{
	if (!tls.ready)
		return NULL;
	return tls.copy + ((const char *)template_addr - __start_sb_percpu);
}

uintptr_t sb_percpu_frame_pointer(const void *area_template)
{
	const struct sb_priv_area *areas;
	size_t n = sb_percpu_areas(&areas);
	for (size_t i = 0; i < n; i++)
		if (areas[i].area == (uintptr_t)area_template)
			return (uintptr_t)sb_percpu_ptr((const void *)areas[i].fp);
	return 0;
}

static void unmap_slots(void)
{
	for (size_t i = 0; i < tls.n_slot_pages; i++)
		munmap(tls.slot_pages[i], 2 * PAGE);
	tls.n_slot_pages = 0;
}

static int have_slot_page(uintptr_t page)
{
	for (size_t i = 0; i < tls.n_slot_pages; i++) {
		uintptr_t p = (uintptr_t)tls.slot_pages[i];
		if (page >= p && page + 8 <= p + 2 * PAGE)
			return 1;
	}
	return 0;
}

/* Maps a slot page for every displacement, relative to a GS base near hint. */
static int map_slots(uintptr_t hint, const int64_t *disps, size_t n, int *err_no)
{
	char *first = mmap((void *)hint, 2 * PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (first == MAP_FAILED) {
		*err_no = errno;
		return -1;
	}
	tls.slot_pages[tls.n_slot_pages++] = first;
	/* Place the first slot in the first page at the displacement's page offset. */
	uintptr_t d0 = (uintptr_t)disps[0];
	tls.gs_base = (uintptr_t)first + (d0 & (PAGE - 1)) - d0;

	for (size_t i = 1; i < n; i++) {
		uintptr_t slot = tls.gs_base + (uintptr_t)disps[i];
		uintptr_t page = slot & ~(PAGE - 1);
		if (have_slot_page(slot))
			continue;
		if (tls.n_slot_pages == MAX_SLOT_PAGES) {
			*err_no = ENOSPC;
			return -1;
		}
		void *p = mmap((void *)page, 2 * PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED || (uintptr_t)p != page) {
			*err_no = p == MAP_FAILED ? errno : EEXIST;
			if (p != MAP_FAILED)
				munmap(p, 2 * PAGE);
			return -1;
		}
		tls.slot_pages[tls.n_slot_pages++] = p;
	}
	return 0;
}

int sb_percpu_thread_init(char *err, size_t errlen)
{
	if (tls.ready)
		return 0;

	size_t size = template_size();
	size_t rw = (size + PAGE - 1) & ~(PAGE - 1);
	if (rw == 0)
		rw = PAGE;
	tls.map_len = rw + 2 * PAGE;
	tls.map = mmap(NULL, tls.map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (tls.map == MAP_FAILED) {
		sb_set_err(err, errlen, "private stack: mmap of %zu bytes failed: %s",
			tls.map_len, strerror(errno));
		return -1;
	}
	if (mprotect(tls.map + PAGE, rw, PROT_READ | PROT_WRITE) != 0) {
		sb_set_err(err, errlen, "private stack: mprotect failed: %s", strerror(errno));
		munmap(tls.map, tls.map_len);
		return -1;
	}
	/* The copy ends where the upper guard page starts: an overflow faults. */
	tls.copy = tls.map + PAGE + (rw - size);
	uint64_t this_cpu_off = (uint64_t)(uintptr_t)tls.copy - (uint64_t)(uintptr_t)__start_sb_percpu;

	const struct sb_priv_area *areas;
	size_t n_areas = sb_percpu_areas(&areas);
	for (size_t i = 0; i < n_areas; i++) {
		char *lo = tls.copy + ((char *)areas[i].area - __start_sb_percpu);
		char *hi = tls.copy + ((char *)areas[i].fp - __start_sb_percpu);
		*(volatile uint64_t *)lo = SB_PRIV_STACK_GUARD_VAL;
		*(volatile uint64_t *)hi = SB_PRIV_STACK_GUARD_VAL;
	}

	const int64_t *disps;
	size_t n_disps = sb_percpu_gs_disps(&disps);
	if (n_disps == 0) {
		/* No stub reads gs: still give GS a harmless base. */
		static const int64_t none[1] = {0};
		disps = none;
		n_disps = 1;
	}
	/* A base in the middle of the address space leaves room for the
	 * +-2 GiB displacements; try a few places if one is taken. */
	int err_no = 0, mapped = 0;
	for (unsigned try = 0; try < 32 && !mapped; try++) {
		uintptr_t hint = 0x200000000000ULL + (uintptr_t)try * 0x100000000ULL +
				 (((uintptr_t)getpid() & 0xff) << 24);
		if (map_slots(hint, disps, n_disps, &err_no) == 0)
			mapped = 1;
		else
			unmap_slots();
	}
	if (!mapped) {
		sb_set_err(err, errlen, "private stack: cannot map the gs:[this_cpu_off] slots: %s",
			strerror(err_no));
		munmap(tls.map, tls.map_len);
		return -1;
	}
	for (size_t i = 0; i < n_disps; i++)
		*(volatile uint64_t *)(tls.gs_base + (uintptr_t)disps[i]) = this_cpu_off;

	if (syscall(SYS_arch_prctl, ARCH_SET_GS, tls.gs_base) != 0) {
		sb_set_err(err, errlen, "private stack: arch_prctl(ARCH_SET_GS, %#lx) failed: %s",
			(unsigned long)tls.gs_base, strerror(errno));
		unmap_slots();
		munmap(tls.map, tls.map_len);
		return -1;
	}
	tls.ready = 1;
	return 0;
}

void sb_percpu_thread_fini(void)
{
	if (!tls.ready)
		return;
	syscall(SYS_arch_prctl, ARCH_SET_GS, 0UL);
	unmap_slots();
	munmap(tls.map, tls.map_len);
	memset(&tls, 0, sizeof(tls));
}

int sb_percpu_thread_ready(void)
{
	return tls.ready;
}

uintptr_t sb_percpu_gs_base(void)
{
	unsigned long base = 0;
	if (syscall(SYS_arch_prctl, ARCH_GET_GS, &base) != 0)
		return 0;
	return base;
}

uint64_t sb_percpu_read_gs_slot(int32_t disp)
{
	uint64_t v;
	int64_t d = disp;
	__asm__ volatile("movq %%gs:(%1), %0" : "=r"(v) : "r"(d) : "memory");
	return v;
}

size_t sb_percpu_check_guards(void)
{
	const struct sb_priv_area *areas;
	size_t n = sb_percpu_areas(&areas), bad = 0;
	if (!tls.ready)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (*(volatile uint64_t *)sb_percpu_ptr((void *)areas[i].area) != SB_PRIV_STACK_GUARD_VAL)
			bad++;
		if (*(volatile uint64_t *)sb_percpu_ptr((void *)areas[i].fp) != SB_PRIV_STACK_GUARD_VAL)
			bad++;
	}
	return bad;
}

int sb_percpu_guards_intact(char *err, size_t errlen)
{
	if (sb_percpu_check_guards() == 0)
		return 0;
	snprintf(err, errlen, "private stack guard words were overwritten");
	return -1;
}
