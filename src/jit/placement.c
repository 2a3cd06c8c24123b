/* placement.c: random placement of variants' code; see placement.h. */
#define _GNU_SOURCE
#include "jit/placement.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/code_symbols.h"
#include "jit/decode.h"
#include "jit/relocate.h"
#include "jit/listing.h"
#include "jit/return_thunks.h"
#include "base/perf_map.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PAGE 4096UL
/* Copies go 256 MiB to 1.75 GiB above the program, so that rel32 calls to
 * the shared thunks still reach. */
#define WINDOW_BASE 0x10000000UL
#define WINDOW_PAGES 0x60000UL

/* The code arena: one memfd mapped twice over the whole window, executable
 * there and writable elsewhere, so that thousands of copies at random pages
 * are two mappings, not one each: with a mapping per copy, every fork and
 * exit of a fresh process copies thousands of them (measured:
 * results/amd-epyc-zen5-vm.md). Where the window cannot be mapped
 * (something else sits in it), each copy gets a mapping of its own. */
static struct {
	int state;             /* 0: not tried, 1: mapped, -1: not to be had */
	uint8_t *rx, *rw;      /* the window, and the same pages writable */
	size_t size, pages;    /* pages: where a copy may start */
	unsigned char *used;   /* one byte a page */
	int fd;                /* the memfd, kept for sb_place_new_frames */
} arena = {.fd = -1};

/* Room left above the heap's end for it to grow. */
#define HEAP_ROOM (256UL << 20)

/* The arena for code near `near`: the window lies above this program's
 * text (this function's page), and serves every variant within 64 MiB of
 * it, whose rel32 calls then reach as from a window of its own. */
static int arena_open(uintptr_t near)
{
	uintptr_t anchor = (uintptr_t)&arena_open & ~(PAGE - 1);
	if ((near > anchor ? near - anchor : anchor - near) > (64UL << 20))
		return 0;
	if (arena.state)
		return arena.state > 0;
	arena.state = -1;
	/* The window, less what lies below the heap's end and room for it to
	 * grow (the heap of a program without PIE may start inside it). */
	uintptr_t lo = anchor + WINDOW_BASE, hi = lo + WINDOW_PAGES * PAGE;
	uintptr_t brk_end = ((uintptr_t)sbrk(0) + HEAP_ROOM + PAGE - 1) & ~(PAGE - 1);
	if (brk_end > lo && brk_end < hi)
		lo = brk_end;
	if (hi - lo < (64UL << 20))
		return 0;
	size_t pages = (hi - lo) / PAGE, size = (pages + 2) * PAGE;
	int fd = memfd_create("stubbench-code", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	void *rx = MAP_FAILED, *rw = MAP_FAILED;
	if (ftruncate(fd, (off_t)size) == 0) {
		rx = mmap((void *)lo, size, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
		if (rx != MAP_FAILED && (uintptr_t)rx != lo) {
			munmap(rx, size);
			rx = MAP_FAILED;
		}
		if (rx != MAP_FAILED)
			rw = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	unsigned char *used = calloc(pages + 2, 1);
	if (rx == MAP_FAILED || rw == MAP_FAILED || !used) {
		if (rx != MAP_FAILED)
			munmap(rx, size);
		if (rw != MAP_FAILED)
			munmap(rw, size);
		free(used);
		close(fd);
		return 0;
	}
	arena.rx = rx, arena.rw = rw, arena.size = size, arena.pages = pages, arena.used = used, arena.fd = fd;
	arena.state = 1;
	return 1;
}

long sb_place_new_frames(char *err, size_t errlen)
{
	if (arena.state <= 0)
		return 0;
	size_t n = 0;
	for (size_t k = 0; k < arena.pages + 2; k++)
		n += arena.used[k];
	if (!n)
		return 0;
	uint8_t *save = malloc(n * PAGE), *hold = malloc((n + 64) * PAGE);
	if (!save || !hold) {
		free(save);
		free(hold);
		snprintf(err, errlen, "new frames for the placed copies: out of memory");
		return -1;
	}
	for (size_t k = 0, i = 0; k < arena.pages + 2; k++)
		if (arena.used[k])
			memcpy(save + (i++) * PAGE, arena.rw + k * PAGE, PAGE);
	/* STUBBENCH_TEST_NO_PUNCH=1: a kernel without hole punching on memfd
	 * (the test of what a run then says). */
	const char *no_punch = getenv("STUBBENCH_TEST_NO_PUNCH");
	int punched;
	if (no_punch && !strcmp(no_punch, "1")) {
		errno = EOPNOTSUPP;
		punched = -1;
	} else {
		punched = fallocate(arena.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)arena.size);
	}
	if (punched != 0) {
		snprintf(err, errlen, "new frames for the placed copies: fallocate: %s", strerror(errno));
		free(save);
		free(hold);
		return -1;
	}
	/* The frames just freed go to anonymous pages first, so that the
	 * copies land on others, not on the same ones in another order. */
	memset(hold, 1, (n + 64) * PAGE);
	for (size_t k = 0, i = 0; k < arena.pages + 2; k++)
		if (arena.used[k])
			memcpy(arena.rw + k * PAGE, save + (i++) * PAGE, PAGE);
	free(save);
	free(hold);
	return (long)n;
}

int sb_new_frames_between(size_t p, size_t n, char *err, size_t errlen)
{
	static int failed;
	size_t every = n / SB_FRAME_SETS ? n / SB_FRAME_SETS : 1;
	if (failed || p % every)
		return 0;
	/* A kernel that cannot move them: one line, and the run goes on with
	 * the frames it has. */
	if (sb_place_new_frames(err, errlen) < 0) {
		fprintf(stderr, "stubbench: %s; the placed copies keep their frames for the rest of the run\n", err);
		failed = 1;
	}
	return 0;
}

static int in_arena(const void *p)
{
	return arena.state > 0 && (const uint8_t *)p >= arena.rx && (const uint8_t *)p < arena.rx + arena.size;
}

/* pages free pages of the arena from page first, marked used; NULL when
 * they are not all free. */
static uint8_t *arena_take(uint64_t first, size_t pages)
{
	if (first + pages > arena.pages + 2)
		return NULL;
	for (size_t k = 0; k < pages; k++)
		if (arena.used[first + k])
			return NULL;
	memset(arena.used + first, 1, pages);
	return arena.rx + first * PAGE;
}

static int known(const struct sb_placed_variant *p, uintptr_t addr)
{
	for (size_t i = 0; i < p->n_funcs; i++)
		if (p->old_addr[i] == addr)
			return 1;
	return 0;
}

/* Adds the function at addr and, recursively, what it calls or jumps to
 * (except return thunks, which stay shared as in the kernel). */
static int collect(struct sb_placed_variant *p, uintptr_t addr, char *err, size_t errlen)
{
	/* Return thunks are shared kernel text: they stay where they are. */
	if (p->n_funcs > 0 && sb_thunk_is_replica(addr))
		return 0;
	const char *name = NULL;
	size_t size = sb_code_function_size(addr, &name);
	if (!size) {
		snprintf(err, errlen, "%s: no function symbol at %#lx", p->original->name, (unsigned long)addr);
		return -1;
	}
	if (known(p, addr))
		return 0;
	if (p->n_funcs == SB_PLACE_MAX_FUNCS) {
		snprintf(err, errlen, "%s: calls more than %d functions", p->original->name, SB_PLACE_MAX_FUNCS);
		return -1;
	}
	size_t me = p->n_funcs++;
	p->old_addr[me] = addr;
	p->len[me] = size;

	struct sb_listing l;
	char sub[256];
	if (sb_jit_decode((const uint8_t *)addr, size, name, &l, sub, sizeof(sub)) != 0) {
		snprintf(err, errlen, "%s: %s", name, sub);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < l.n && rc == 0; i++) {
		const struct sb_insn *in = &l.insns[i];
		if (strstr(in->text, "rip")) {
			snprintf(err, errlen, "%s+%#zx '%s': RIP-relative data cannot move", name, in->off, in->text);
			rc = -1;
		} else if (in->len == 5 && (in->bytes[0] == 0xe8 || in->bytes[0] == 0xe9)) {
			int32_t rel;
			memcpy(&rel, in->bytes + 1, 4);
			uintptr_t target = addr + in->off + 5 + (intptr_t)rel;
			if (target < addr || target >= addr + size)
				rc = collect(p, target, err, errlen);
		}
	}
	sb_listing_free(&l);
	return rc;
}

int sb_place_collect(const struct sb_variant *v, struct sb_placed_variant *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->original = v;
	return collect(out, (uintptr_t)v->main, err, errlen);
}

/* Pages for a copy of map_len bytes in the window above near: random
 * pages with a generator, without one the first free range upward; in the
 * arena when it is open (a try there is a look at its page map, not a
 * system call). MAP_FAILED with errno when none is free. */
static void *map_window(struct sb_rng *rng, uintptr_t near, size_t map_len, int use_arena)
{
	void *m = MAP_FAILED;
	size_t map_pages = map_len / PAGE;
	uint64_t window_pages = use_arena ? arena.pages : WINDOW_PAGES;
	uint64_t max_tries = use_arena ? 4096 : 64;
	for (uint64_t tries = 0; m == MAP_FAILED && (rng ? tries < max_tries : tries * map_pages < window_pages);
	     tries++) {
		uint64_t page = rng ? sb_rng_below(rng, window_pages) : tries * map_pages;
		if (use_arena) {
			uint8_t *got = arena_take(page, map_pages);
			if (got)
				m = got;
			else
				errno = EEXIST;
			continue;
		}
		uintptr_t at = near + (WINDOW_BASE + page * PAGE);
		m = mmap((void *)at, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			 -1, 0);
		if (m != MAP_FAILED && (uintptr_t)m != at) {
			munmap(m, map_len);
			m = MAP_FAILED;
		}
	}
	return m;
}

/* Where copies of code at addr go: above the program's text, or, for code
 * that is itself in the window above it (made at run time: sb_place_pages),
 * above that text too, so that copies stay in reach of the thunks. */
static uintptr_t near_of(uintptr_t addr)
{
	uintptr_t anchor = (uintptr_t)&arena_open & ~(PAGE - 1);
	uintptr_t page = addr & ~(PAGE - 1);
	if (in_arena((const void *)addr) ||
	    (page >= anchor + WINDOW_BASE && page < anchor + WINDOW_BASE + WINDOW_PAGES * PAGE))
		return anchor;
	return page;
}

void *sb_place_pages_random(uintptr_t near, size_t len, struct sb_rng *rng, uint8_t **rw, char *err, size_t errlen)
{
	size_t map_len = (len + PAGE - 1) & ~(PAGE - 1);
	near = near_of(near);
	int use_arena = arena_open(near);
	void *m = map_window(rng, near, map_len, use_arena);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "no pages for code near the program: %s", strerror(errno));
		return NULL;
	}
	*rw = (uint8_t *)m + (use_arena ? arena.rw - arena.rx : 0);
	return m;
}

void *sb_place_pages(uintptr_t near, size_t len, uint8_t **rw, char *err, size_t errlen)
{
	return sb_place_pages_random(near, len, NULL, rw, err, errlen);
}

int sb_place_pages_seal(void *rx, size_t len, char *err, size_t errlen)
{
	size_t map_len = (len + PAGE - 1) & ~(PAGE - 1);
	if (!in_arena(rx) && mprotect(rx, map_len, PROT_READ | PROT_EXEC) != 0) {
		snprintf(err, errlen, "mprotect: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void sb_place_pages_free(void *rx, size_t len)
{
	struct sb_placed_variant p = {.map = rx, .map_len = (len + PAGE - 1) & ~(PAGE - 1)};
	sb_place_free(&p);
}

/* The copy's names: "<name>@<tag><index>" for the variant, and the same
 * for every copied function in the perf map. */
static void name_copy(const struct sb_variant *v, const char *tag, unsigned index, struct sb_placed_variant *out)
{
	for (size_t i = 0; i < out->n_funcs; i++) {
		const char *sym = NULL;
		char name[160], sub[256];
		sb_code_function_size(out->old_addr[i], &sym);
		snprintf(name, sizeof(name), "%s@%s%u", sym ? sym : v->name, tag, index);
		if (sb_perf_map_add(out->new_addr[i], out->len[i], name, sub, sizeof(sub)) != 0)
			fprintf(stderr, "stubbench: %s\n", sub);
	}
	out->index = index;
	snprintf(out->name, sizeof(out->name), "%s@%s%u", v->name, tag, index);
	snprintf(out->seed_name, sizeof(out->seed_name), "%s@%s%u", v->seed_name, tag, index);
}

int sb_place(const struct sb_variant *v, const struct sb_place_policy *policy, unsigned index,
	     struct sb_placed_variant *out, char *err, size_t errlen)
{
	struct sb_rng *rng = policy->rng;
	if (sb_place_collect(v, out, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < out->n_funcs; i++) {
		if (out->len[i] > PAGE - 128) {
			snprintf(err, errlen, "%s: a function of %zu bytes does not fit a page", v->name, out->len[i]);
			return -1;
		}
		if (!policy->at && !rng && (i >= policy->n_offsets || !policy->page_offsets)) {
			snprintf(err, errlen, "%s: no offset for function %zu and no random generator", v->name, i);
			return -1;
		}
	}
	/* A page per function (two when a given offset, like a kernel load's,
	 * starts too near the end of the first for the function to fit), in
	 * the window above the program. */
	size_t slot = PAGE;
	for (size_t i = 0; policy->page_offsets && i < out->n_funcs && i < policy->n_offsets; i++)
		if (policy->page_offsets[i] % PAGE + out->len[i] > PAGE)
			slot = 2 * PAGE;
	if (policy->at && policy->n_at < out->n_funcs) {
		snprintf(err, errlen, "%s: %zu addresses given for %zu functions", v->name, policy->n_at, out->n_funcs);
		return -1;
	}
	out->map_len = policy->at ? 0 : out->n_funcs * slot;
	if (policy->pages && (out->map_len > policy->pages_len || !in_arena(policy->pages))) {
		snprintf(err, errlen, "%s: %zu bytes of copy do not fit the %zu bytes of code arena given", v->name,
			 out->map_len, policy->pages_len);
		return -1;
	}
	uintptr_t near = near_of((uintptr_t)v->main);
	int use_arena = !policy->at && (policy->pages || arena_open(near));
	void *m = policy->at ? MAP_FAILED : policy->pages ? policy->pages : map_window(policy->rng, near, out->map_len, use_arena);
	if (m == MAP_FAILED && !policy->at) {
		snprintf(err, errlen, "%s: no room for a copy near the program: %s", v->name, strerror(errno));
		return -1;
	}
	/* Where the copy's bytes are written: the arena's writable view. */
	ptrdiff_t to_writable = use_arena ? arena.rw - arena.rx : 0;
	if (!policy->at) {
		out->map = policy->pages ? NULL : m; /* given pages stay the caller's */
		memset((uint8_t *)m + to_writable, 0xcc, out->map_len); /* int3 around the copies, as the JIT pads */
	}
	struct sb_code_map map[SB_PLACE_MAX_FUNCS];
	for (size_t i = 0; i < out->n_funcs; i++) {
		size_t off;
		if (policy->at) {
			out->new_addr[i] = policy->at[i];
			map[i] = (struct sb_code_map){out->old_addr[i], out->len[i], out->new_addr[i]};
			continue;
		}
		if (policy->page_offsets && i < policy->n_offsets) {
			off = policy->page_offsets[i] % PAGE;
		} else {
			/* A random 64-byte chunk of the page, then a random byte
			 * offset in it, as the kernel's random start within the
			 * first chunk. */
			size_t room = PAGE - out->len[i] - 64;
			off = (size_t)sb_rng_below(rng, room / 64) * 64 + (size_t)sb_rng_below(rng, 64);
		}
		out->new_addr[i] = (uintptr_t)m + i * slot + off;
		map[i] = (struct sb_code_map){out->old_addr[i], out->len[i], out->new_addr[i]};
	}
	for (size_t i = 0; i < out->n_funcs; i++) {
		char sub[256];
		if (sb_jit_relocate((const uint8_t *)out->old_addr[i], out->len[i], out->old_addr[i],
				    (uint8_t *)out->new_addr[i] + (policy->at ? 0 : to_writable), out->new_addr[i], map,
				    out->n_funcs, sub, sizeof(sub)) != 0) {
			snprintf(err, errlen, "%s: %s", v->name, sub);
			sb_place_free(out);
			return -1;
		}
	}
	if (!policy->at && !use_arena && mprotect(m, out->map_len, PROT_READ | PROT_EXEC) != 0) {
		snprintf(err, errlen, "%s: mprotect: %s", v->name, strerror(errno));
		sb_place_free(out);
		return -1;
	}
	out->v = *v;
	out->v.main = (sb_stub_fn)out->new_addr[0];
	name_copy(v, policy->tag ? policy->tag : "p", index, out);
	out->v.name = out->name;
	out->v.seed_name = out->seed_name;
	return 0;
}

int sb_place_write(struct sb_placed_variant *p, uintptr_t at, const void *bytes, size_t n, char *err, size_t errlen)
{
	uint8_t *m = p->map;
	if (!m || at < (uintptr_t)m || at + n > (uintptr_t)m + p->map_len) {
		snprintf(err, errlen, "%s: %#lx is not in its own pages", p->name, (unsigned long)at);
		return -1;
	}
	if (in_arena(m)) {
		memcpy((uint8_t *)at + (arena.rw - arena.rx), bytes, n);
		return 0;
	}
	if (mprotect(m, p->map_len, PROT_READ | PROT_WRITE) != 0) {
		snprintf(err, errlen, "%s: mprotect: %s", p->name, strerror(errno));
		return -1;
	}
	memcpy((void *)at, bytes, n);
	if (mprotect(m, p->map_len, PROT_READ | PROT_EXEC) != 0) {
		snprintf(err, errlen, "%s: mprotect: %s", p->name, strerror(errno));
		return -1;
	}
	return 0;
}

void sb_place_free(struct sb_placed_variant *p)
{
	if (p->map && in_arena(p->map)) {
		/* Its pages back to the arena, their memory to the kernel. */
		size_t first = (size_t)((uint8_t *)p->map - arena.rx) / PAGE;
		madvise((uint8_t *)p->map + (arena.rw - arena.rx), p->map_len, MADV_REMOVE);
		memset(arena.used + first, 0, p->map_len / PAGE);
	} else if (p->map) {
		munmap(p->map, p->map_len);
	}
	p->map = NULL;
}
