/* private_frame.c: where a JITed function's private stack is; see
 * private_frame.h. */
#include "private_frame.h"

#include <string.h>

#include "base/error.h"

int sb_is_r9_load(const struct sb_code_insn *in)
{
	const ZydisDecodedOperand *d = sb_code_op(in, 0), *s = sb_code_op(in, 1);
	return (in->dec.mnemonic == ZYDIS_MNEMONIC_MOV && sb_code_op_is_imm(s) &&
		(sb_code_op_is_reg(d, ZYDIS_REGISTER_R9) || sb_code_op_is_reg(d, ZYDIS_REGISTER_R9D))) ||
	       (in->dec.mnemonic == ZYDIS_MNEMONIC_XOR && sb_code_op_is_reg(d, ZYDIS_REGISTER_R9D) &&
		sb_code_op_is_reg(s, ZYDIS_REGISTER_R9D));
}

int sb_is_gs_add(const struct sb_code_insn *in)
{
	const ZydisDecodedOperand *s = sb_code_op(in, 1);
	return in->dec.mnemonic == ZYDIS_MNEMONIC_ADD && sb_code_op_is_reg(sb_code_op(in, 0), ZYDIS_REGISTER_R9) && s &&
	       s->type == ZYDIS_OPERAND_TYPE_MEMORY && s->mem.segment == ZYDIS_REGISTER_GS;
}

size_t sb_frame_end(const struct sb_code *c)
{
	for (size_t i = 0; i + 1 < c->n; i++) {
		const struct sb_code_insn *m = &c->insns[i + 1];
		if (!sb_code_is_push(&c->insns[i], ZYDIS_REGISTER_RBP) || m->dec.mnemonic != ZYDIS_MNEMONIC_MOV ||
		    !sb_code_op_is_reg(sb_code_op(m, 0), ZYDIS_REGISTER_RBP) || !sb_code_op_is_reg(sb_code_op(m, 1), ZYDIS_REGISTER_RSP))
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
		if (nx && in->dec.mnemonic == ZYDIS_MNEMONIC_MOV && sb_code_op_is_reg(sb_code_op(in, 1), ZYDIS_REGISTER_R9) &&
		    sb_code_op(in, 0)->type == ZYDIS_OPERAND_TYPE_REGISTER && nx->dec.mnemonic == ZYDIS_MNEMONIC_ADD &&
		    sb_code_op_is_reg(sb_code_op(nx, 0), sb_code_op(in, 0)->reg.value) && sb_code_op_is_imm(sb_code_op(nx, 1)) && sb_code_op(nx, 1)->imm.value.s < -deepest)
			deepest = -sb_code_op(nx, 1)->imm.value.s;
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

int sb_private_frame_find(const struct sb_code *c, size_t *frame_at, size_t *setup, char *err, size_t errlen)
{
	*frame_at = sb_frame_end(c);
	*setup = sb_r9_setup(c);
	if (*frame_at == c->n)
		sb_set_err(err, errlen, "no rbp frame (push rbp; mov rbp, rsp)");
	else if (*setup == c->n)
		sb_set_err(err, errlen, "no private stack: no r9 setup (movabs r9 and add r9, gs:[...])");
	else if (*setup < *frame_at)
		sb_set_err(err, errlen, "+%#zx: r9 setup before the rbp frame", c->insns[*setup].off);
	else
		return 0;
	return -1;
}
