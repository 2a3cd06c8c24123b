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

#include "stubbench/rng.h"
#include "stubbench/variants.h"

#define SB_PLACE_MAX_FUNCS 8

struct sb_placed_variant {
	struct sb_variant v;          /* the copy: main points at the placed main prog */
	char name[96], seed_name[96];
	const struct sb_variant *original;
	void *map;
	size_t map_len;
	size_t n_funcs;
	uintptr_t old_addr[SB_PLACE_MAX_FUNCS], new_addr[SB_PLACE_MAX_FUNCS];
	size_t len[SB_PLACE_MAX_FUNCS];
};

/* Places a copy of v (its main prog and the functions it calls, found by
 * decoding; thunks stay) at random offsets drawn from rng; the copy is
 * named "<name>@p<index>". Returns 0, or -1 with a one-line reason in err
 * (no symbol for the code, RIP-relative data, no room near the program). */
int sb_place_variant(const struct sb_variant *v, unsigned index, struct sb_rng *rng,
		     struct sb_placed_variant *out, char *err, size_t errlen);
void sb_place_free(struct sb_placed_variant *p);
/* The functions a copy of v holds (main prog first, then what it calls;
 * return thunks excluded), in out->old_addr/len/n_funcs, nothing placed:
 * for callers that lay copies out themselves (footprint). 0, or -1 with err. */
int sb_place_collect(const struct sb_variant *v, struct sb_placed_variant *out, char *err, size_t errlen);

#endif
