/* private_frame.h: where a JITed function's private stack is: its rbp
 * frame, its r9 setup (emit_priv_frame_ptr() of
 * arch/x86/net/bpf_jit_comp.c, v6.13+) and the depth its r9 frame reaches.
 * Internal to src/jit (deprivatize.c, ablation.c). */
#ifndef STUBBENCH_PRIVATE_FRAME_H
#define STUBBENCH_PRIVATE_FRAME_H

#include "code_layout.h"

/* movabs r9, imm64, or the JIT's shorter forms of it (mov r9d, imm32;
 * mov r9, simm32; xor r9d, r9d). */
int sb_is_r9_load(const struct sb_code_insn *in);
/* add r9, gs:[disp32]. */
int sb_is_gs_add(const struct sb_code_insn *in);

/* push rbp; mov rbp, rsp [; endbr64]: the index after it (where the JIT
 * puts sub rsp), or c->n when there is no such frame. */
size_t sb_frame_end(const struct sb_code *c);

/* An r9 load followed by the gs add: the index of the load, or c->n. */
size_t sb_r9_setup(const struct sb_code *c);

/* The deepest frame offset reached through r9 ([r9-N], or "mov X, r9" then
 * "add X, -N", a stack pointer passed to a helper), instructions setup and
 * setup + 1 aside, rounded up to 8 as the JIT rounds the stack depth. */
uint32_t sb_frame_depth(const struct sb_code *c, size_t setup);

/* Both of a private-stack function: *frame_at (sb_frame_end) and *setup
 * (sb_r9_setup). Returns 0, or -1 with err: no rbp frame, no r9 setup, or
 * the setup before the frame. */
int sb_private_frame_find(const struct sb_code *c, size_t *frame_at, size_t *setup, char *err, size_t errlen);

/* "sub rsp, depth" as the JIT's prologue emits it (imm32 form), in group g
 * of l. */
int sb_frame_encode_sub_rsp(struct sb_layout *l, size_t g, uint32_t depth, char *err, size_t errlen);

#endif
