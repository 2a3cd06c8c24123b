/* footprint.h: many placed copies of a variant, laid out as the kernel
 * lays out many loaded BPF programs (stubbench footprint).
 *
 * A copy is the variant's main prog and every function it calls (found and
 * re-aimed at the layout's addresses by the placement engine, sb_place,
 * which also names each in /tmp/perf-<pid>.map as "<symbol>@<layout><copy>");
 * return thunks stay shared. Two layouts:
 *
 *   packed  like bpf_prog_pack (v5.18+): every function in 64-byte chunks,
 *           copies back to back in 2 MiB regions, on huge pages where the
 *           system gives them (MAP_HUGETLB, else transparent huge pages
 *           through madvise), which is what the pack is for;
 *   spread  like module_alloc before the pack: one copy per 4 KiB page, at
 *           a random offset in it (bpf_jit_binary_alloc's random start).
 *
 * The entry points form a table the timed loop calls round-robin, so each
 * call runs a different copy (sb_time_round_robin).
 */
#ifndef STUBBENCH_FOOTPRINT_H
#define STUBBENCH_FOOTPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "jit/placement.h"
#include "base/rng.h"
#include "stubbench/registry.h"

enum sb_fp_layout { SB_FP_PACKED, SB_FP_SPREAD, SB_FP_N_LAYOUTS };

#define SB_FP_CHUNK 64UL            /* bpf_prog_pack's BPF_PROG_CHUNK_SIZE */
#define SB_FP_PACK (2UL << 20)      /* one pack: a huge page */
#define SB_FP_PAGE 4096UL
#define SB_FP_MAX_BYTES (1UL << 30) /* all copies of one measurement */

const char *sb_fp_layout_name(enum sb_fp_layout l); /* "packed", "spread" */
/* "packed", "spread" or a comma-separated list of them; 0, or -1 with err. */
int sb_fp_layout_parse(const char *s, int want[SB_FP_N_LAYOUTS], char *err, size_t errlen);

enum sb_fp_pages { SB_FP_PAGES_4K, SB_FP_PAGES_HUGETLB, SB_FP_PAGES_THP };

struct sb_fp_copies {
	const struct sb_variant *original;
	enum sb_fp_layout layout;
	size_t n_copies, n_funcs;
	uintptr_t old_addr[SB_PLACE_MAX_FUNCS]; /* the original functions, main first */
	size_t len[SB_PLACE_MAX_FUNCS];
	size_t func_off[SB_PLACE_MAX_FUNCS];    /* offset of each function in a copy */
	size_t copy_size;                       /* bytes of one copy (64-byte chunks) */
	uintptr_t *start;                       /* where each copy starts */
	sb_stub_fn *mains;                      /* each copy's main prog: the round-robin table */
	uint64_t cursor;                        /* next copy the timed loop calls */
	/* Copies of the variants of a group share one region, interleaved:
	 * copy c of variant g is in slot c * n_group + g. */
	size_t n_group, group_index;
	size_t slot;                            /* bytes per slot: the largest copy (packed), a page (spread) */
	uintptr_t region;                       /* the region's start; mem is set in the group's first only */
	void *mem;
	size_t mem_len;
	enum sb_fp_pages pages;
	char pages_note[192];                   /* what the packed region got, in one line */
};

/* Makes n copies of v (a per-run variant) in layout, each named in perf's
 * map ("<symbol>@packed<copy>", "<symbol>@spread<copy>"); offsets of spread
 * copies are drawn from rng. Returns 0, or -1 with a one-line reason. */
int sb_fp_make(const struct sb_variant *v, size_t n, enum sb_fp_layout layout, struct sb_rng *rng,
	       struct sb_fp_copies *out, char *err, size_t errlen);
/* n copies of each of n_vars variants (out[0..n_vars-1]) in one region,
 * interleaved (copy c of variant g in slot c * n_vars + g), so that every
 * variant's copies sit on the same kind of pages, mapped at the same time:
 * regions mapped one after the other cost measurably differently here (the
 * first-mapped up to 20 % more per call with 10000 spread copies). */
int sb_fp_make_group(const struct sb_variant *const *vars, size_t n_vars, size_t n, enum sb_fp_layout layout,
		     struct sb_rng *rng, struct sb_fp_copies *out, char *err, size_t errlen);
/* Where function f of copy c runs. */
uintptr_t sb_fp_func_addr(const struct sb_fp_copies *fc, size_t c, size_t f);
void sb_fp_free(struct sb_fp_copies *fc);

#endif
