/* private_frame.c: where a JITed function's private stack is; see
 * private_frame.h. */
#include "private_frame.h"

#include <string.h>

static const ZydisDecodedOperand *op(const struct sb_code_insn *in, size_t k)
{
	return k < in->dec.operand_count_visible ? &in->ops[k] : NULL;
}

static int is_reg(const ZydisDecodedOperand *o, ZydisRegister r)
{
	return o && o->type == ZYDIS_OPERAND_TYPE_REGISTER && o->reg.value == r;
}

static int is_imm(const ZydisDecodedOperand *o)
{
	return o && o->type == ZYDIS_OPERAND_TYPE_IMMEDIATE;
}

int sb_is_r9_load(const struct sb_code_insn *in)
{
	const ZydisDecodedOperand *d = op(in, 0), *s = op(in, 1);
	return (in->dec.mnemonic == ZYDIS_MNEMONIC_MOV && is_imm(s) &&
		(is_reg(d, ZYDIS_REGISTER_R9) || is_reg(d, ZYDIS_REGISTER_R9D))) ||
	       (in->dec.mnemonic == ZYDIS_MNEMONIC_XOR && is_reg(d, ZYDIS_REGISTER_R9D) &&
		is_reg(s, ZYDIS_REGISTER_R9D));
}

int sb_is_gs_add(const struct sb_code_insn *in)
{
	const ZydisDecodedOperand *s = op(in, 1);
	return in->dec.mnemonic == ZYDIS_MNEMONIC_ADD && is_reg(op(in, 0), ZYDIS_REGISTER_R9) && s &&
	       s->type == ZYDIS_OPERAND_TYPE_MEMORY && s->mem.segment == ZYDIS_REGISTER_GS;
}

size_t sb_frame_end(const struct sb_code *c)
{
	for (size_t i = 0; i + 1 < c->n; i++) {
		const struct sb_code_insn *m = &c->insns[i + 1];
		if (!sb_code_is_push(&c->insns[i], ZYDIS_REGISTER_RBP) || m->dec.mnemonic != ZYDIS_MNEMONIC_MOV ||
		    !is_reg(op(m, 0), ZYDIS_REGISTER_RBP) || !is_reg(op(m, 1), ZYDIS_REGISTER_RSP))
			continue;
		size_t j = i + 2;
		if (j < c->n && c->insns[j].dec.mnemonic == ZYDIS_MNEMONIC_ENDBR64)
			j++;
		return j;
	}
	return c->n;
}

size_t sb_r9_setup(const struct sb_code *c)
{
	for (size_t i = 0; i + 1 < c->n; i++)
		if (sb_is_r9_load(&c->insns[i]) && sb_is_gs_add(&c->insns[i + 1]))
			return i;
	return c->n;
}

uint32_t sb_frame_depth(const struct sb_code *c, size_t setup)
{
	int64_t deepest = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct sb_code_insn *in = &c->insns[i];
		if (i == setup || i == setup + 1)
			continue;
		for (size_t k = 0; k < in->dec.operand_count_visible; k++) {
			const ZydisDecodedOperand *o = &in->ops[k];
			if (o->type == ZYDIS_OPERAND_TYPE_MEMORY && o->mem.base == ZYDIS_REGISTER_R9 &&
			    o->mem.disp.value < -deepest)
				deepest = -o->mem.disp.value;
		}
		const struct sb_code_insn *nx = i + 1 < c->n ? &c->insns[i + 1] : NULL;
		if (nx && in->dec.mnemonic == ZYDIS_MNEMONIC_MOV && is_reg(op(in, 1), ZYDIS_REGISTER_R9) &&
		    op(in, 0)->type == ZYDIS_OPERAND_TYPE_REGISTER && nx->dec.mnemonic == ZYDIS_MNEMONIC_ADD &&
		    is_reg(op(nx, 0), op(in, 0)->reg.value) && is_imm(op(nx, 1)) && op(nx, 1)->imm.value.s < -deepest)
			deepest = -op(nx, 1)->imm.value.s;
	}
	return (uint32_t)((deepest + 7) & ~(int64_t)7);
}

int sb_frame_encode_sub_rsp(struct sb_layout *l, size_t g, uint32_t depth, char *err, size_t errlen)
{
	ZydisEncoderRequest r;
	memset(&r, 0, sizeof(r));
	r.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
	r.mnemonic = ZYDIS_MNEMONIC_SUB;
	r.operand_count = 2;
	r.operands[0].type = ZYDIS_OPERAND_TYPE_REGISTER;
	r.operands[0].reg.value = ZYDIS_REGISTER_RSP;
	r.operands[1].type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
	r.operands[1].imm.u = depth;
	return sb_layout_encode(l, g, &r, 1, err, errlen);
}
