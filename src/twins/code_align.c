/* code_align.c: a longest common subsequence of two functions'
 * instructions; see code_align.h. */
#include "code_align.h"

#include <stdlib.h>

int sb_code_same_insn(const struct sb_code_insn *a, const struct sb_code_insn *b)
{
	if (a->dec.mnemonic != b->dec.mnemonic || a->dec.operand_count_visible != b->dec.operand_count_visible)
		return 0;
	if (a->relative || b->relative)
		return a->relative && b->relative;
	int movabs = a->dec.mnemonic == ZYDIS_MNEMONIC_MOV && a->dec.operand_width == 64;
	for (size_t k = 0; k < a->dec.operand_count_visible; k++) {
		const ZydisDecodedOperand *x = &a->ops[k], *y = &b->ops[k];
		if (x->type != y->type)
			return 0;
		switch (x->type) {
		case ZYDIS_OPERAND_TYPE_REGISTER:
			if (x->reg.value != y->reg.value)
				return 0;
			break;
		case ZYDIS_OPERAND_TYPE_MEMORY:
			if (x->mem.base != y->mem.base || x->mem.index != y->mem.index || x->mem.scale != y->mem.scale ||
			    x->mem.segment != y->mem.segment || x->size != y->size ||
			    (x->mem.segment != ZYDIS_REGISTER_GS && x->mem.disp.value != y->mem.disp.value))
				return 0;
			break;
		case ZYDIS_OPERAND_TYPE_IMMEDIATE:
			if (!movabs && x->imm.value.u != y->imm.value.u)
				return 0;
			break;
		default:
			break;
		}
	}
	return 1;
}


long sb_code_align(const struct sb_code *a, const struct sb_code *b, long *match)
{
	size_t n = a->n, m = b->n;
	for (size_t i = 0; i < n; i++)
		match[i] = -1;
	/* The common prefix and suffix pair one to one (a match is always
	 * taken first, so the table would pair them so); the table spans
	 * only what lies between. */
	size_t p = 0, s = 0;
	while (p < n && p < m && sb_code_same_insn(&a->insns[p], &b->insns[p])) {
		match[p] = (long)p;
		p++;
	}
	while (s < n - p && s < m - p && sb_code_same_insn(&a->insns[n - 1 - s], &b->insns[m - 1 - s]))
		s++;
	size_t an = n - p - s, bm = m - p - s;
	if (an && bm && (double)(an + 1) * (double)(bm + 1) > SB_CODE_ALIGN_MAX_CELLS)
		return -2;
	unsigned *t = calloc((an + 1) * (bm + 1), sizeof(*t));
	if (!t)
		return -1;
	const struct sb_code_insn *x = a->insns + p, *y = b->insns + p;
#define T(i, j) t[(i) * (bm + 1) + (j)]
	for (size_t i = an; i-- > 0;)
		for (size_t j = bm; j-- > 0;)
			T(i, j) = sb_code_same_insn(&x[i], &y[j]) ? T(i + 1, j + 1) + 1
				  : T(i + 1, j) > T(i, j + 1)	    ? T(i + 1, j)
								    : T(i, j + 1);
	long common = (long)(p + s);
	for (size_t i = 0, j = 0; i < an && j < bm;) {
		if (sb_code_same_insn(&x[i], &y[j]) && T(i, j) == T(i + 1, j + 1) + 1) {
			match[p + i++] = (long)(p + j++);
			common++;
		} else if (T(i + 1, j) >= T(i, j + 1))
			i++;
		else
			j++;
	}
#undef T
	for (size_t k = 0; k < s; k++)
		match[n - s + k] = (long)(m - s + k);
	free(t);
	return common;
}
