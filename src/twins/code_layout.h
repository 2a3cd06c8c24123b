/* code_layout.h: a function's instructions decoded (Zydis) and laid out
 * again after some are dropped, re-encoded or added: relative jumps and
 * calls keep their targets; an internal jump takes the rel8 or rel32 form
 * the JIT's passes would give it (long first, short once its distance in the
 * previous pass fits), an external one keeps rel32. Internal to src/jit
 * (deprivatize.c). */
#ifndef STUBBENCH_CODE_LAYOUT_H
#define STUBBENCH_CODE_LAYOUT_H

#include <Zydis/Zydis.h>
#include <stddef.h>
#include <stdint.h>

/* One decoded instruction of the original code. */
struct sb_code_insn {
	size_t off;
	size_t len;
	ZydisDecodedInstruction dec;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	int relative;           /* a jump or call with a relative target */
	int internal;           /* relative, target inside the function */
	size_t target_insn;     /* internal: index of the target instruction */
	uint64_t target;        /* relative: target offset from the function start (mod 2^64) */
};

struct sb_code {
	const uint8_t *bytes;
	size_t len;
	struct sb_code_insn *insns;
	size_t n;
};

/* Decodes code; fails on an undecodable byte, a RIP-relative operand (it
 * would need the same fix-up as a jump) or an internal target that is not
 * an instruction's start. */
int sb_code_decode(const uint8_t *code, size_t len, struct sb_code *c, char *err, size_t errlen);
void sb_code_free(struct sb_code *c);

/* Visible operand k of an instruction, or NULL; whether an operand is the
 * register r, or an immediate (NULL: no). */
static inline const ZydisDecodedOperand *sb_code_op(const struct sb_code_insn *in, size_t k)
{
	return k < in->dec.operand_count_visible ? &in->ops[k] : NULL;
}
static inline int sb_code_op_is_reg(const ZydisDecodedOperand *o, ZydisRegister r)
{
	return o && o->type == ZYDIS_OPERAND_TYPE_REGISTER && o->reg.value == r;
}
static inline int sb_code_op_is_imm(const ZydisDecodedOperand *o)
{
	return o && o->type == ZYDIS_OPERAND_TYPE_IMMEDIATE;
}

/* 1 when the instruction names reg (a 64-bit register) or one of its
 * smaller parts in a visible operand, as a register or a memory base/index. */
int sb_code_uses_reg(const struct sb_code_insn *in, ZydisRegister reg64);
/* 1 for "push reg" / "pop reg" of the 64-bit register reg. */
int sb_code_is_push(const struct sb_code_insn *in, ZydisRegister reg64);
int sb_code_is_pop(const struct sb_code_insn *in, ZydisRegister reg64);
/* The encoder request of an instruction with every visible use of from
 * (any width) replaced by to (same width). */
int sb_code_request_swap_reg(const struct sb_code_insn *in, ZydisRegister from64, ZydisRegister to64,
			     ZydisEncoderRequest *req);

/* The new code, item by item. Every item belongs to an original
 * instruction (its group): a jump to instruction j lands on the first item
 * of group j, or where group j would start when all its items were dropped.
 * Items are added in nondecreasing group order. */
struct sb_layout_item;
struct sb_layout {
	const struct sb_code *code;
	struct sb_layout_item *items;
	size_t n, cap;
	size_t resized;          /* relative jumps whose length changed */
};

void sb_layout_init(struct sb_layout *l, const struct sb_code *c);
/* Original instruction i as it was (a relative one gets its target fixed up). */
int sb_layout_keep(struct sb_layout *l, size_t i, char *err, size_t errlen);
/* A new instruction from an encoder request, in group g. imm32: the
 * immediate in its 32-bit form even when it fits 8 bits (the JIT's
 * "sub rsp, imm32"). */
int sb_layout_encode(struct sb_layout *l, size_t g, ZydisEncoderRequest *req, int imm32,
		     char *err, size_t errlen);
/* Lays the items out, fixing up every relative target; the code is malloc'd. */
int sb_layout_finish(struct sb_layout *l, uint8_t **code, size_t *len, char *err, size_t errlen);
void sb_layout_free(struct sb_layout *l);

#endif
