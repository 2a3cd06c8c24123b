/* placement.h: copies of a variant's code at random addresses.
 *
 * Where code sits moves its cost by several cycles on some cores (the lab's
 * placement control and the kernel run's --loads show it), and the kernel
 * itself starts every JITed function at a random offset
 * (bpf_jit_binary_pack_alloc). A placed variant is the same bytes as the
 * original, its main prog and every function it calls copied to fresh pages
 * near the program at a random offset, calls re-aimed (sb_jit_relocate);
 * return thunks stay shared, as in the kernel. Counters, batch_iters and the
 * private stack areas are the original's (absolute movabs addresses).
 */
#ifndef STUBBENCH_PLACEMENT_H
#define STUBBENCH_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "stubbench/registry.h"

#define SB_PLACE_MAX_FUNCS 8

struct sb_placed_variant {
	struct sb_variant v;          /* the copy: main points at the placed main prog */
	char name[96], seed_name[96];
	const struct sb_variant *original;
	unsigned index;               /* the index it was made with (its name's "@<tag><index>") */
	void *map;
	size_t map_len;
	size_t n_funcs;
	uintptr_t old_addr[SB_PLACE_MAX_FUNCS], new_addr[SB_PLACE_MAX_FUNCS];
	size_t len[SB_PLACE_MAX_FUNCS];
};

/* Where the copy's functions start. Functions are numbered main first,
 * then the functions it calls, in the order of the calls. */
struct sb_place_policy {
	/* Random offsets: function i at a random 64-byte chunk of its own
	 * page, then a random byte in it (the kernel's random start within
	 * the first chunk). Also picks the pages. May be NULL when every
	 * function has an offset below. */
	struct sb_rng *rng;
	/* Offsets like a kernel load: function i starts at page_offsets[i]
	 * in its page, as the kernel put the same function (address mod
	 * 4096); NULL or fewer than the functions: the rest are random. */
	const unsigned *page_offsets;
	size_t n_offsets;
	/* Addresses given by the caller: function i goes to at[i], in
	 * writable memory the caller owns and later makes executable (many
	 * copies laid out together: footprint's packed and spread layouts).
	 * NULL: the copy gets pages of its own, as above. */
	const uintptr_t *at;
	size_t n_at;
	/* Pages given by the caller (from sb_place_pages, pages_len bytes):
	 * the copy is written there (function i in page i, at its offset) and
	 * owns none of them, so several copies can take turns in the same
	 * pages, at the same addresses and on the same physical frames (the
	 * identical-layout comparison's groups). NULL: as above. */
	uint8_t *pages;
	size_t pages_len;
	/* The copy and its functions are named "<name>@<tag><index>" (in
	 * the results and in perf's map); NULL: "p". */
	const char *tag;
};

/* The one place copies of code are made: places a copy of v (its main prog
 * and the functions it calls, found by decoding; thunks stay) where the
 * policy says (named as the policy's tag says). Returns 0, or -1 with a
 * one-line reason in err (no symbol for the code, RIP-relative data, a
 * function larger than a page, no room near the program). */
int sb_place(const struct sb_variant *v, const struct sb_place_policy *policy, unsigned index,
	     struct sb_placed_variant *out, char *err, size_t errlen);
void sb_place_free(struct sb_placed_variant *p);
/* Writes n bytes at address at of a copy made in pages of its own (through
 * the arena's writable view, or by making its pages writable for the
 * while): an immediate changed in place. 0, or -1 with err. */
int sb_place_write(struct sb_placed_variant *p, uintptr_t at, const void *bytes, size_t n, char *err, size_t errlen);

/* Moves every copy in the code arena onto other physical frames: the same
 * bytes at the same addresses (the arena's pages are punched out of its
 * memfd and written again while anonymous pages hold the frames just
 * freed). The frames select some copies' states, so a run that keeps one
 * set of frames draws one sample of them (measured:
 * results/amd-epyc-zen5-vm.md; docs/fresh-processes.md). Processes forked
 * afterwards run the copies from the new frames. Returns the pages moved (0: no arena), or -1
 * with err. */
long sb_place_new_frames(char *err, size_t errlen);

/* The frame sets a run's fresh processes share out. */
#define SB_FRAME_SETS 8
/* An sb_run_opts.between_processes: the copies move to new frames
 * (sb_place_new_frames) SB_FRAME_SETS - 1 times in a run of n processes,
 * so that the run draws SB_FRAME_SETS sets of frames, each for n /
 * SB_FRAME_SETS consecutive processes, instead of one for all. Where a
 * move fails it says so in one line on stderr and moves nothing more;
 * it always returns 0. */
int sb_new_frames_between(size_t p, size_t n, char *err, size_t errlen);
/* The functions a copy of v holds (main prog first, then what it calls;
 * return thunks excluded), in out->old_addr/len/n_funcs, nothing placed:
 * for callers that lay copies out themselves (footprint). 0, or -1 with err. */
int sb_place_collect(const struct sb_variant *v, struct sb_placed_variant *out, char *err, size_t errlen);

/* Pages for code made at run time (code_variant.c), len bytes in the
 * window above the program near (the code arena when it is open): the
 * executable address is returned, the writable view of the same pages in
 * *rw (the same address when the pages are a mapping of their own, then
 * writable until sb_place_pages_seal). NULL with err when none is free.
 * Copies of code there are placed in the same window (sb_place). */
void *sb_place_pages(uintptr_t near, size_t len, uint8_t **rw, char *err, size_t errlen);
/* The same at random pages of the window (rng), as sb_place picks a copy's
 * pages: copies whose pages share the window's high address bits share
 * predictor state that other copies do not (the identical-layout groups'
 * shared pages). */
void *sb_place_pages_random(uintptr_t near, size_t len, struct sb_rng *rng, uint8_t **rw, char *err,
			    size_t errlen);
/* Makes the pages executable (nothing to do in the arena). 0, or -1 with err. */
int sb_place_pages_seal(void *rx, size_t len, char *err, size_t errlen);
void sb_place_pages_free(void *rx, size_t len);

#endif
