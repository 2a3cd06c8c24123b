/* jit_compare.h: kernel code against a replica, instruction by instruction. */
#ifndef STUBBENCH_JIT_COMPARE_H
#define STUBBENCH_JIT_COMPARE_H

#include <stddef.h>

#include "jit/listing.h"

/* Kernel code vs replica, instruction by instruction, masked fields
 * ignored. Differences a kernel flavour explains (endbr64 present on one
 * side only, 66 90 vs 0f 1f 00 padding, gs displacement, ret vs return
 * thunk) are counted and listed apart; the first other difference is a real
 * mismatch, located by instruction index and offset on both sides. */
struct sb_jit_cmp {
	size_t n_flavour;          /* flavour differences seen */
	char flavour[512];         /* "endbr64 at kernel+0x0; padding 66 90 vs 0f 1f 00 ..." */
	int mismatch;              /* 1: a real mismatch */
	long kernel_idx, replica_idx;   /* its instruction indexes (-1: past the end) */
	size_t kernel_off, replica_off; /* and offsets */
	char where[512];           /* "kernel+0x1d 'mov ...' vs replica+0x1d 'mov ...'" */
};
void sb_jit_compare(const struct sb_listing *kernel, const struct sb_listing *replica,
		    struct sb_jit_cmp *out);

#endif
