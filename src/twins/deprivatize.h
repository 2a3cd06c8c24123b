/* deprivatize.h: a JITed function's twin with the other frame. From the
 * bytes of a function the x86-64 BPF JIT gave a private stack, the same
 * function as the JIT emits it without one (rbp frame, sub rsp of the stack
 * depth, no r9 setup, no push/pop r9 around calls), and the reverse. The
 * instructions that change are re-encoded with Zydis and the jumps laid out
 * again (docs/auto-twins.md says what such a twin stands for). */
#ifndef STUBBENCH_DEPRIVATIZE_H
#define STUBBENCH_DEPRIVATIZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jit/listing.h"

/* What a rewrite did, and the code it made. */
struct sb_twin {
	uint8_t *code;          /* malloc'd; sb_twin_free() */
	size_t len;
	uint32_t stack_depth;   /* the sub rsp value (0: none) */
	size_t frame_insns;     /* instructions whose frame register changed */
	size_t calls_wrapped;   /* push/pop r9 pairs removed or added */
	size_t branches_resized;/* jumps whose rel8/rel32 form changed */
};

/* Options of sb_deprivatize(). */
struct sb_deprivatize_opts {
	/* The BPF stack depth for sub rsp; -1: the deepest frame offset the
	 * code reaches ([r9-N], or r9 copied then added -N), rounded up to 8 as
	 * the JIT rounds it. */
	long stack_depth;
};

/* The function without a private stack. Fails (-1, one line in err) when the
 * code has no r9 setup (movabs r9 + add r9, gs:[...]) or no push rbp; mov
 * rbp,rsp, does not decode, or jumps into the middle of an instruction. */
int sb_deprivatize(const uint8_t *code, size_t len, const struct sb_deprivatize_opts *opts,
		   struct sb_twin *out, char *err, size_t errlen);

/* The function without its private stack at the private function's
 * layout: what sb_deprivatize() gives, but with every instruction after
 * the r9 setup at its offset. The sub rsp of the depth goes where the JIT
 * puts it (after mov rbp, rsp) with the callee-saved pushes after it,
 * inside the bytes the r9 setup took, NOPs filling the rest; each push/pop
 * r9 becomes NOPs; each r9 frame access its rbp form, padded with NOPs to
 * its length. What the de-privatized code costs where the private code
 * lies: the private stack's own instructions against its layout (a
 * --padded baseline). Fails (-1, err) without an rbp frame or an r9
 * setup, with a jump into the prologue, or where an rbp form is longer
 * than its r9 form. */
int sb_deprivatize_padded(const uint8_t *code, size_t len, struct sb_twin *out, char *err, size_t errlen);

/* The function with a private stack whose frame pointer is frame_ptr (the
 * per-CPU address the movabs r9 loads) and whose add r9, gs:[...] reads
 * gs_disp (the low 32 bits of &this_cpu_off). The stack depth comes from
 * the sub rsp of the prologue (none: depth 0). */
int sb_privatize(const uint8_t *code, size_t len, uint64_t frame_ptr, uint32_t gs_disp,
		 struct sb_twin *out, char *err, size_t errlen);

void sb_twin_free(struct sb_twin *t);

/* img with every function that has a private stack de-privatized
 * (sb_deprivatize; padded: at its layout, sb_deprivatize_padded) and the
 * others copied, into out (free with sb_jit_image_free, whatever it
 * returns). Returns how many were de-privatized (0: out holds the copies),
 * or -1 with err naming the function. */
struct sb_jit_image;
long sb_deprivatize_image(const struct sb_jit_image *img, int padded, struct sb_jit_image *out, char *err,
			  size_t errlen);

/* Compares code with a kernel listing instruction by instruction, masked as
 * sb_jit_mask_insn() masks (movabs immediates, the gs displacement, call and
 * jmp rel32), except that a call or jmp whose target lies inside the
 * function is compared. Returns -1 when equal, else the index of the first
 * differing instruction, described in where. */
long sb_twin_compare(const struct sb_listing *kernel, const uint8_t *code, size_t len,
		     char *where, size_t wlen);

/* Prints code as a listing ("off: bytes   mnemonic", the format
 * sb_listing_parse_text() reads back), Intel syntax, offsets from 0. */
int sb_twin_print(FILE *f, const uint8_t *code, size_t len, char *err, size_t errlen);

#endif
