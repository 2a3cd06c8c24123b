/* ablation.h: what a variant adds or changes against its baseline, in
 * parts, and the variant with one part taken out (docs/annotate.md).
 *
 * The variant's functions are aligned with the baseline's, function i with
 * function i, instruction by instruction (a longest common subsequence of
 * the decoded instructions; movabs immediates, gs displacements and
 * relative targets masked). What the variant has beyond the common
 * subsequence comes in parts:
 *   - the r9 load (movabs r9, imm64, or the JIT's shorter forms);
 *   - the add r9, gs:[...];
 *   - each push r9 ... pop r9 pair around a call (one part per pair);
 *   - the r9-based frame accesses of a function, all of them one part:
 *     they are the same change (rbp -> r9) made wherever the frame is
 *     used, and one arm per access would cost more arms than a run holds
 *     (SB_MAX_ARMS) for a cost below what a run resolves;
 *   - any other added instruction, a part of its own (a planted lfence).
 * An ablation of a part is the variant with the part's instructions
 * replaced by the kernel's NOP forms of the same length (every byte after
 * them where it was), or removed (the jumps laid out again; a changed
 * frame access gets the baseline's form, rbp for r9). */
#ifndef STUBBENCH_ABLATION_H
#define STUBBENCH_ABLATION_H

#include <stddef.h>
#include <stdint.h>

#include "jit/code_variant.h"

#define SB_ABLATION_MAX_PARTS 24
#define SB_PART_MAX_INSNS 32

enum sb_part_kind {
	SB_PART_R9_LOAD,   /* movabs r9, imm64 */
	SB_PART_R9_GS_ADD, /* add r9, gs:[...] */
	SB_PART_CALL_WRAP, /* push r9 / pop r9 around a call */
	SB_PART_FRAME,     /* the r9-based frame accesses (changed) */
	SB_PART_ADDED,     /* any other added instruction */
};

/* One instruction of the variant's listing. */
struct sb_ablation_row {
	size_t func;       /* index of its function */
	size_t off, len;   /* in its function */
	uint8_t bytes[15];
	char text[96];     /* Intel syntax */
	long part;         /* the part it belongs to, -1: common with the baseline */
};

struct sb_ablation_part {
	enum sb_part_kind kind;
	size_t func;
	size_t n_rows;
	size_t rows[SB_PART_MAX_INSNS]; /* indexes into sb_ablation.rows */
	char name[64];     /* "push/pop r9 main+0x3c" */
};

struct sb_ablation {
	size_t n_funcs;
	struct sb_code_func funcs[SB_CODE_VARIANT_MAX_FUNCS]; /* the variant's */
	char func_names[SB_CODE_VARIANT_MAX_FUNCS][16];       /* "main", "f1" ... */
	struct sb_ablation_row *rows; /* every instruction of the variant's functions, in order */
	size_t n_rows;
	struct sb_ablation_part parts[SB_ABLATION_MAX_PARTS];
	size_t n_parts;
	size_t baseline_only;  /* baseline instructions the variant lacks (sub rsp) */
};

enum sb_ablate_how {
	SB_ABLATE_NOP,     /* the part's bytes become NOPs of the same length */
	SB_ABLATE_REMOVE,  /* the part's instructions removed (changed: the baseline's form) */
};

/* The parts of var[0..nv) against base[0..nb) (main prog first, as
 * sb_code_variant_funcs_of gives them; the byte pointers must outlive out).
 * Returns 0, or -1 with err: a different number of functions, code that
 * does not decode, no difference, more parts than SB_ABLATION_MAX_PARTS. */
int sb_ablation_parts(const struct sb_code_func *var, size_t nv, const struct sb_code_func *base, size_t nb,
		      struct sb_ablation *out, char *err, size_t errlen);

/* The variant's function part->func with part k taken out (how), in a
 * malloc'd buffer; *removed_insns: how many instructions it lost. Returns 0,
 * or -1 with err. */
int sb_ablation_code(const struct sb_ablation *a, size_t k, enum sb_ablate_how how, uint8_t **code, size_t *len,
		     size_t *removed_insns, char *err, size_t errlen);

/* Function f of the variant with every part in it NOPed (the variant's
 * layout with none of its own instructions: what its length and placement
 * alone cost against the baseline), malloc'd. Returns 0, or -1 with err. */
int sb_ablation_all_nops(const struct sb_ablation *a, size_t f, uint8_t **code, size_t *len, char *err,
			 size_t errlen);

/* The kernel's NOP forms (x86_nops: 1 to 8 bytes, longer runs in pieces
 * of 8) filling out[0..len). */
void sb_ablation_nops(uint8_t *out, size_t len);

/* "r9 load", "gs add", "push/pop r9", "frame", "added". */
const char *sb_part_kind_name(enum sb_part_kind k);

void sb_ablation_free(struct sb_ablation *a);

#endif
