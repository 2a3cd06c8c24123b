/* jit.h: the kernel's JITed code. Reading it (bpf_obj_get_info_by_fd:
 * jited_prog_insns split by jited_func_lens), decoding it (capstone),
 * naming its codegen flavour, comparing it instruction by instruction with
 * a replica, and dumping it (--dump-jit). Decoded code is a struct
 * sb_listing (listing.h), so recorded dumps, seed listings, replica
 * symbols and live kernel code all compare the same way. */
#ifndef STUBBENCH_JIT_H
#define STUBBENCH_JIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stubbench/listing.h"

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

/* Reads the JITed image of a loaded program. Returns 0, or -1 with a
 * one-line reason (no JIT, bytes zeroed without permission, ...) in err. */
int sb_jit_read(int prog_fd, struct sb_jit_image *out, char *err, size_t errlen);
void sb_jit_image_free(struct sb_jit_image *img);
/* The function called name, or NULL. */
const struct sb_jit_func *sb_jit_find(const struct sb_jit_image *img, const char *name);

/* Decodes x86-64 code into a listing (capstone, Intel syntax); every
 * instruction gets the masks of sb_jit_mask_insn(). Returns 0, or -1 with
 * the offset of the undecodable byte in err. */
int sb_jit_decode(const uint8_t *code, size_t len, const char *name, struct sb_listing *out,
		  char *err, size_t errlen);

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
};
void sb_jit_detect_flavour(const struct sb_listing *l, struct sb_jit_flavour *f);
/* "no IBT, 0f 1f 00 padding, gs:0xffffffff83b0c028 (kernel address), ret" */
void sb_jit_flavour_describe(const struct sb_jit_flavour *f, char *buf, size_t len);

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

/* Writes <dir>/<prog>.<func>.bin (raw bytes) and <dir>/<prog>.<func>.lst
 * (objdump-style, the format listing.h parses) for every function; creates
 * dir. Returns 0, or -1 with the path that failed in err. */
int sb_jit_dump(const char *dir, const struct sb_jit_image *img, char *err, size_t errlen);
/* Before anything is loaded: creates dir and checks that a file can be
 * written in it. Returns 0, or -1 with a reason naming dir in err. */
int sb_jit_dump_prepare(const char *dir, char *err, size_t errlen);
/* Writes one decoded function as an objdump-style listing to f. */
int sb_jit_write_listing(FILE *f, const struct sb_listing *l);

/* Code moved to another address (jit_relocate.c), as the kernel's
 * bpf_jit_binary_pack_alloc() places every JITed function at a random
 * offset of its first 64-byte chunk. */
struct sb_code_map {
	uintptr_t old_addr;  /* where the function is now */
	size_t len;
	uintptr_t new_addr;  /* where its copy will run */
};
/* Copies len bytes of code from code (running at old_addr) to dst (to run
 * at new_addr), re-aiming every rel32 call/jmp: a target inside a function
 * of map goes to that function's new place, any other target (the return
 * thunk) stays where it is; rel8 jumps must stay inside the function.
 * Returns 0, or -1 with the offending instruction in err. */
int sb_jit_relocate(const uint8_t *code, size_t len, uintptr_t old_addr, uint8_t *dst, uintptr_t new_addr,
		    const struct sb_code_map *map, size_t n_map, char *err, size_t errlen);

#endif
