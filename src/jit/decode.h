/* decode.h: the kernel's JITed code as functions of bytes, and x86-64 code
 * decoded (capstone) into a struct sb_listing (listing.h), so recorded dumps,
 * seed listings, replica symbols and live kernel code all compare the same way. */
#ifndef STUBBENCH_DECODE_H
#define STUBBENCH_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "jit/listing.h"

/* One JITed function of a program (main prog first, then subprogs). */
struct sb_jit_func {
	char name[64];     /* from the program's BTF func_info, else "func<i>" */
	uint64_t ksym;     /* kernel address (0 without permission) */
	uint8_t *bytes;
	size_t len;
};

struct sb_jit_image {
	char prog_name[64];
	struct sb_jit_func *funcs;
	size_t n;
};
/* Frees every function's bytes and the functions (src/jit/image_text.c). */
void sb_jit_image_free(struct sb_jit_image *img);
/* The function called name, or NULL. */
const struct sb_jit_func *sb_jit_find(const struct sb_jit_image *img, const char *name);
/* Whether function name of img sets up r9 (a private stack): 1, 0 (an
 * rbp frame), or -1 (no such function, or it does not decode)
 * (src/jit/func_frame.c). */
int sb_jit_func_private_stack(const struct sb_jit_image *img, const char *name);

/* Decodes x86-64 code into a listing (capstone, Intel syntax); every
 * instruction gets the masks of sb_jit_mask_insn(). Returns 0, or -1 with
 * the offset of the undecodable byte in err. */
int sb_jit_decode(const uint8_t *code, size_t len, const char *name, struct sb_listing *out,
		  char *err, size_t errlen);

#endif
