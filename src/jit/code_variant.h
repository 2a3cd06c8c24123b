/* code_variant.h: a variant whose code is made at run time from bytes (an
 * ablation of a replica, a twin made from a kernel JIT image, one side of
 * `stubbench diff`), runnable and placeable like any registry variant.
 *
 * The bytes of each function are written to pages of their own near the
 * program (within rel32 reach of the return thunks and of the template's
 * code), every rel32 call or jump re-aimed: a target inside another of the
 * variant's functions goes to that function's new place, any other target
 * stays where it was at the function's origin (the return thunk, a stub).
 * Each function is named in the program's symbol table
 * (sb_code_symbols_add) and in perf's map, so that sb_place() copies the
 * variant as it copies a replica, and the harness runs it unchanged. */
#ifndef STUBBENCH_CODE_VARIANT_H
#define STUBBENCH_CODE_VARIANT_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/registry.h"

#define SB_CODE_VARIANT_MAX_FUNCS 8

/* One function's bytes. origin: the address its relative targets are
 * taken from (where the bytes ran, or would run: for bytes taken from a
 * replica, that replica's address; for a kernel image, its JITed address
 * when its calls were re-aimed to user stubs as if from there). */
struct sb_code_func {
	const uint8_t *code;
	size_t len;
	uintptr_t origin;
	const char *name; /* its symbol ("prog_private.ablate-2"); NULL: the variant's name */
};

struct sb_code_variant {
	struct sb_variant v; /* the template's record; main and program at the new code */
	char name[96], seed_name[96], description[200];
	void *map;
	size_t map_len;
	size_t n_funcs;
	uintptr_t addr[SB_CODE_VARIANT_MAX_FUNCS];
	size_t len[SB_CODE_VARIANT_MAX_FUNCS];
};

/* Makes a variant from funcs[0..n): funcs[0] is the main prog the harness
 * calls (and the program), the others are what it calls. Everything else
 * (counter, batch_iters, shape, private stack area, return thunk, family,
 * insns_per_call) is tmpl's: the caller changes out->v where the new code
 * differs (insns_per_call of an ablation, description). name: the
 * variant's name (--variant=, results, perf map); description may be NULL.
 * Returns 0, or -1 with a one-line reason in err (no pages near the
 * program, a function over a page, a short jump out of its function). */
int sb_code_variant_make(const struct sb_variant *tmpl, const char *name, const char *description,
			 const struct sb_code_func *funcs, size_t n, struct sb_code_variant *out, char *err,
			 size_t errlen);

/* The functions of a registry variant (main prog first, then what it
 * calls, return thunks excluded), as sb_code_funcs pointing at their
 * code: for callers that rewrite some and keep the rest. Returns how many
 * (at most max), or -1 with err. */
long sb_code_variant_funcs_of(const struct sb_variant *v, struct sb_code_func *out, size_t max, char *err,
			      size_t errlen);

/* The functions of a made variant, as it holds them (main prog first), as
 * sb_code_funcs pointing at its code: to copy it or cut it into parts.
 * out holds SB_CODE_VARIANT_MAX_FUNCS. Returns how many. */
size_t sb_code_variant_funcs(const struct sb_code_variant *cv, struct sb_code_func *out);

/* Unmaps the code and removes its symbols. */
void sb_code_variant_free(struct sb_code_variant *cv);

#endif
