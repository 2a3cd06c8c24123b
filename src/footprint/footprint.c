/* footprint.c: many placed copies of a variant; see footprint.h. */
#define _GNU_SOURCE
#include "footprint/footprint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/error.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << 26)
#endif

static const char *const layout_names[SB_FP_N_LAYOUTS] = {"packed", "spread"};

const char *sb_fp_layout_name(enum sb_fp_layout l) { return layout_names[l]; }

int sb_fp_layout_parse(const char *s, int want[SB_FP_N_LAYOUTS], char *err, size_t errlen)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", s);
	memset(want, 0, SB_FP_N_LAYOUTS * sizeof(int));
	int any = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int found = 0;
		for (int l = 0; l < SB_FP_N_LAYOUTS; l++)
			if (strcmp(t, layout_names[l]) == 0)
				want[l] = found = any = 1;
		if (!found) {
			sb_set_err(err, errlen, "--layout: unknown layout '%s' (packed, spread)", t);
			return -1;
		}
	}
	if (!any) {
		sb_set_err(err, errlen, "--layout: empty list");
		return -1;
	}
	return 0;
}

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* A region within rel32 reach of the program (the copies still call the
 * shared return thunks), aligned to align. */
static void *map_near(uintptr_t near, size_t len, size_t align, int flags, struct sb_rng *rng)
{
	for (int tries = 0; tries < 64; tries++) {
		uintptr_t at = (near & ~(align - 1)) + 0x10000000UL + sb_rng_below(rng, 0x30000000UL / align) * align;
		void *m = mmap((void *)at, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | flags, -1, 0);
		if (m == MAP_FAILED) {
			if (errno != EEXIST)
				return MAP_FAILED;
			continue;
		}
		if ((uintptr_t)m == at)
			return m;
		munmap(m, len);
	}
	errno = EEXIST;
	return MAP_FAILED;
}

/* AnonHugePages of the mapping at addr, from /proc/self/smaps, in kB (-1
 * when it cannot be read). */
static long anon_huge_kb(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	int in = 0;
	long kb = -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static int map_region(struct sb_fp_copies *fc, size_t len, struct sb_rng *rng, char *err, size_t errlen)
{
	uintptr_t near = fc->old_addr[0];
	fc->mem_len = len;
	if (fc->mem_len > SB_FP_MAX_BYTES) {
		sb_set_err(err, errlen, "%zu copies of %zu variant(s) take %zu MiB in the %s layout, more than %lu MiB",
			   fc->n_copies, fc->n_group, fc->mem_len >> 20, layout_names[fc->layout],
			   SB_FP_MAX_BYTES >> 20);
		return -1;
	}
	void *m = MAP_FAILED;
	if (fc->layout == SB_FP_PACKED) {
		m = map_near(near, fc->mem_len, SB_FP_PACK, MAP_HUGETLB | MAP_HUGE_2MB, rng);
		if (m != MAP_FAILED) {
			fc->pages = SB_FP_PAGES_HUGETLB;
			snprintf(fc->pages_note, sizeof(fc->pages_note), "packed copies on 2 MiB hugetlb pages");
		}
	}
	if (m == MAP_FAILED) {
		m = map_near(near, fc->mem_len, fc->layout == SB_FP_PACKED ? SB_FP_PACK : SB_FP_PAGE, 0, rng);
		if (m == MAP_FAILED) {
			sb_set_err(err, errlen, "%s: no room for %zu bytes of copies near the program: %s",
				   fc->original->name, fc->mem_len, strerror(errno));
			return -1;
		}
		/* Spread copies stay on 4 KiB pages as module_alloc's did;
		 * packed ones ask for transparent huge pages. */
		madvise(m, fc->mem_len, fc->layout == SB_FP_PACKED ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	}
	fc->mem = m;
	memset(m, 0xcc, fc->mem_len); /* int3 around the copies, as the JIT fills holes */
	if (fc->layout == SB_FP_PACKED && fc->pages != SB_FP_PAGES_HUGETLB) {
		long kb = anon_huge_kb(m);
		if (kb >= (long)(SB_FP_PACK >> 10)) {
			fc->pages = SB_FP_PAGES_THP;
			snprintf(fc->pages_note, sizeof(fc->pages_note), "packed copies on transparent huge pages");
		} else {
			snprintf(fc->pages_note, sizeof(fc->pages_note),
				 "packed copies on 4 KiB pages: MAP_HUGETLB refused (no 2 MiB pages reserved) and no "
				 "transparent huge page given (AnonHugePages %ld kB)", kb);
		}
	}
	return 0;
}

/* The functions of v and the size of a copy; the tables of n copies. */
static int prepare(const struct sb_variant *v, size_t n, enum sb_fp_layout layout, struct sb_fp_copies *out,
		   char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->original = v;
	out->layout = layout;
	out->n_copies = n;
	if (n == 0) {
		sb_set_err(err, errlen, "%s: no copies asked for", v->name);
		return -1;
	}
	if (v->batch_iters) {
		sb_set_err(err, errlen, "%s: an in-loop variant; footprint calls per-run main progs", v->name);
		return -1;
	}
	/* The placement engine finds the functions (main prog and what it
	 * calls, return thunks excluded) and checks that they can move. */
	struct sb_placed_variant probe;
	if (sb_place_collect(v, &probe, err, errlen) != 0)
		return -1;
	out->n_funcs = probe.n_funcs;
	for (size_t f = 0; f < probe.n_funcs; f++) {
		out->old_addr[f] = probe.old_addr[f];
		out->len[f] = probe.len[f];
		out->func_off[f] = out->copy_size;
		out->copy_size += round_up(probe.len[f], SB_FP_CHUNK);
	}
	if (out->copy_size > SB_FP_PAGE) {
		sb_set_err(err, errlen, "%s: a copy of %zu bytes does not fit a 4 KiB page", v->name, out->copy_size);
		return -1;
	}
	out->start = calloc(n, sizeof(*out->start));
	out->mains = calloc(n, sizeof(*out->mains));
	if (!out->start || !out->mains) {
		sb_set_err(err, errlen, "out of memory for %zu copies", n);
		sb_fp_free(out);
		return -1;
	}
	return 0;
}

/* Copies every copy of fc into its slot of the region. */
static int fill(struct sb_fp_copies *fc, struct sb_rng *rng, char *err, size_t errlen)
{
	for (size_t c = 0; c < fc->n_copies; c++) {
		uintptr_t slot = fc->region + (c * fc->n_group + fc->group_index) * fc->slot;
		fc->start[c] = fc->layout == SB_FP_PACKED
				       ? slot
				       : slot + (size_t)sb_rng_below(rng, SB_FP_PAGE - fc->copy_size + 1);
		/* The placement engine copies and re-aims the functions at the
		 * addresses of the layout, and names them for perf
		 * ("<symbol>@<layout><copy>"). */
		uintptr_t at[SB_PLACE_MAX_FUNCS];
		for (size_t f = 0; f < fc->n_funcs; f++)
			at[f] = sb_fp_func_addr(fc, c, f);
		struct sb_place_policy policy = {.at = at, .n_at = fc->n_funcs, .tag = layout_names[fc->layout]};
		struct sb_placed_variant placed;
		if (sb_place(fc->original, &policy, (unsigned)c, &placed, err, errlen) != 0)
			return -1;
		fc->mains[c] = placed.v.main;
	}
	return 0;
}

int sb_fp_make_group(const struct sb_variant *const *vars, size_t n_vars, size_t n, enum sb_fp_layout layout,
		     struct sb_rng *rng, struct sb_fp_copies *out, char *err, size_t errlen)
{
	memset(out, 0, n_vars * sizeof(*out));
	size_t slot = layout == SB_FP_SPREAD ? SB_FP_PAGE : 0;
	for (size_t v = 0; v < n_vars; v++) {
		if (prepare(vars[v], n, layout, &out[v], err, errlen) != 0)
			goto fail;
		if (layout == SB_FP_PACKED && out[v].copy_size > slot)
			slot = out[v].copy_size;
	}
	for (size_t v = 0; v < n_vars; v++) {
		out[v].n_group = n_vars;
		out[v].group_index = v;
		out[v].slot = slot;
	}
	size_t len = layout == SB_FP_SPREAD ? n * n_vars * SB_FP_PAGE : round_up(n * n_vars * slot, SB_FP_PACK);
	/* One region for the group: out[0] owns it. */
	if (map_region(&out[0], len, rng, err, errlen) != 0)
		goto fail;
	for (size_t v = 0; v < n_vars; v++) {
		out[v].region = (uintptr_t)out[0].mem;
		out[v].pages = out[0].pages;
		memcpy(out[v].pages_note, out[0].pages_note, sizeof(out[v].pages_note));
	}
	for (size_t v = 0; v < n_vars; v++)
		if (fill(&out[v], rng, err, errlen) != 0)
			goto fail;
	if (mprotect(out[0].mem, out[0].mem_len, PROT_READ | PROT_EXEC) != 0) {
		sb_set_err(err, errlen, "%s: mprotect: %s", vars[0]->name, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	for (size_t v = 0; v < n_vars; v++)
		sb_fp_free(&out[v]);
	return -1;
}

int sb_fp_make(const struct sb_variant *v, size_t n, enum sb_fp_layout layout, struct sb_rng *rng,
	       struct sb_fp_copies *out, char *err, size_t errlen)
{
	return sb_fp_make_group(&v, 1, n, layout, rng, out, err, errlen);
}

uintptr_t sb_fp_func_addr(const struct sb_fp_copies *fc, size_t c, size_t f)
{
	return fc->start[c] + fc->func_off[f];
}

void sb_fp_free(struct sb_fp_copies *fc)
{
	if (fc->mem && fc->mem != MAP_FAILED)
		munmap(fc->mem, fc->mem_len);
	fc->mem = NULL;
	free(fc->start);
	free(fc->mains);
	fc->start = NULL;
	fc->mains = NULL;
}
