/* flavour.h: the codegen flavour JITed code shows, and the fields that differ
 * from load to load. */
#ifndef STUBBENCH_FLAVOUR_H
#define STUBBENCH_FLAVOUR_H

#include <stddef.h>
#include <stdint.h>

#include "jit/listing.h"

/* Marks the fields that differ from load to load as not compared: the
 * imm64 of movabs (addresses), rel32 of call/jmp (targets), and disp32 of
 * "add r9, gs:[disp32]" (&this_cpu_off, a per-build address). */
void sb_jit_mask_insn(struct sb_insn *in);
/* Applies sb_jit_mask_insn() to every instruction. */
void sb_jit_mask_listing(struct sb_listing *l);

/* Instruction classes the flavour and comparison look at. */
int sb_jit_is_endbr64(const struct sb_insn *in);
int sb_jit_is_tail_call_pad(const struct sb_insn *in); /* 66 90, 31 c0, 0f 1f 00, 48 31 c0 */
int sb_jit_is_gs_add_r9(const struct sb_insn *in);     /* 65 4c 03 0c 25 disp32 */
int sb_jit_is_r9_setup(const struct sb_insn *in);      /* movabs r9 or its short forms */

/* The codegen flavour one JITed function shows. */
struct sb_jit_flavour {
	int ibt;             /* 1: endbr64 at entry */
	int pad;             /* 2: "66 90"/"31 c0" (before v6.12), 3: "0f 1f 00"/"48 31 c0", 0: none seen */
	int private_stack;   /* 1: r9 setup (movabs r9 + add r9, gs:[...]) */
	int has_gs;          /* 1: a gs displacement was seen */
	int64_t gs_disp;     /* sign-extended disp32 */
	int gs_kernel_addr;  /* 1: disp is a kernel address (v6.15+ relative per-CPU) */
	int rethunk;         /* 1: returns through jmp rel32 (return thunk), 0: ret */
	int stack_bytes;     /* the prologue's sub rsp, imm32 (48 81 ec): the rbp frame's
			      * round_up(stack_depth, 8); 0 with none (no stack, or a private stack) */
};
void sb_jit_detect_flavour(const struct sb_listing *l, struct sb_jit_flavour *f);
/* "no IBT, 0f 1f 00 padding, gs:0xffffffff83b0c028 (kernel address), ret" */
void sb_jit_flavour_describe(const struct sb_jit_flavour *f, char *buf, size_t len);

#endif
