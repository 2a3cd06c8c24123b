/* code_layout.c: decode a function with Zydis, lay out an edited copy and
 * fix up its relative jumps and calls (code_layout.h). */
#include "code_layout.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

#define MODE64 ZYDIS_MACHINE_MODE_LONG_64
#define LAYOUT_PASSES 64
#define GROW_ONLY_AFTER 16 /* passes after which a jump may grow but not shrink */

struct sb_layout_item {
	size_t group;
	int branch;            /* a relative jump or call of the original code */
	int wide;              /* branch: rel32 (else rel8) */
	size_t insn;           /* branch: its original instruction */
	ZydisEncoderRequest req;
	uint8_t bytes[ZYDIS_MAX_INSTRUCTION_LENGTH];
	size_t len;
	size_t off;
};

static int decode_one(const ZydisDecoder *d, const uint8_t *code, size_t len, size_t off,
		      struct sb_code_insn *in, char *err, size_t errlen)
{
	memset(in, 0, sizeof(*in));
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(d, code + off, len - off, &in->dec, in->ops))) {
		sb_set_err(err, errlen, "+%#zx: cannot decode byte %02x", off, code[off]);
		return -1;
	}
	in->off = off;
	in->len = in->dec.length;
	for (size_t k = 0; k < in->dec.operand_count_visible; k++) {
		const ZydisDecodedOperand *op = &in->ops[k];
		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY && op->mem.base == ZYDIS_REGISTER_RIP) {
			sb_set_err(err, errlen, "+%#zx: RIP-relative operand: not supported", off);
			return -1;
		}
		if (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op->imm.is_relative) {
			ZyanU64 t;
			if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in->dec, op, off, &t))) {
				sb_set_err(err, errlen, "+%#zx: cannot resolve the jump target", off);
				return -1;
			}
			in->relative = 1;
			in->target = t;
		}
	}
	return 0;
}

/* Marks internal targets and checks that each starts an instruction. */
static int resolve_targets(struct sb_code *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->n; i++) {
		struct sb_code_insn *in = &c->insns[i];
		if (!in->relative || in->target >= c->len)
			continue;
		size_t lo = 0, hi = c->n;
		while (lo + 1 < hi) {
			size_t mid = (lo + hi) / 2;
			if (c->insns[mid].off <= in->target)
				lo = mid;
			else
				hi = mid;
		}
		if (c->insns[lo].off != in->target) {
			sb_set_err(err, errlen, "+%#zx: jumps to +%#llx, inside an instruction", in->off,
				   (unsigned long long)in->target);
			return -1;
		}
		in->internal = 1;
		in->target_insn = lo;
	}
	return 0;
}

int sb_code_decode(const uint8_t *code, size_t len, struct sb_code *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->bytes = code;
	c->len = len;
	ZydisDecoder d;
	if (!ZYAN_SUCCESS(ZydisDecoderInit(&d, MODE64, ZYDIS_STACK_WIDTH_64))) {
		sb_set_err(err, errlen, "zydis: cannot set up an x86-64 decoder");
		return -1;
	}
	size_t cap = 0;
	for (size_t off = 0; off < len;) {
		if (c->n == cap) {
			cap = cap ? 2 * cap : 64;
			struct sb_code_insn *ni = realloc(c->insns, cap * sizeof(*ni));
			if (!ni) {
				sb_set_err(err, errlen, "out of memory");
				goto fail;
			}
			c->insns = ni;
		}
		if (decode_one(&d, code, len, off, &c->insns[c->n], err, errlen))
			goto fail;
		off += c->insns[c->n++].len;
	}
	if (c->n == 0) {
		sb_set_err(err, errlen, "no code");
		goto fail;
	}
	if (resolve_targets(c, err, errlen))
		goto fail;
	return 0;
fail:
	sb_code_free(c);
	return -1;
}

void sb_code_free(struct sb_code *c)
{
	free(c->insns);
	memset(c, 0, sizeof(*c));
}

/* The 64-, 32-, 16- and 8-bit names of the two registers a frame can live in. */
static const ZydisRegister *reg_family(ZydisRegister reg64)
{
	static const ZydisRegister rbp[] = {ZYDIS_REGISTER_RBP, ZYDIS_REGISTER_EBP, ZYDIS_REGISTER_BP,
					    ZYDIS_REGISTER_BPL};
	static const ZydisRegister r9[] = {ZYDIS_REGISTER_R9, ZYDIS_REGISTER_R9D, ZYDIS_REGISTER_R9W,
					   ZYDIS_REGISTER_R9B};
	return reg64 == ZYDIS_REGISTER_RBP ? rbp : reg64 == ZYDIS_REGISTER_R9 ? r9 : NULL;
}

static int in_family(ZydisRegister r, ZydisRegister reg64)
{
	return r != ZYDIS_REGISTER_NONE && ZydisRegisterGetLargestEnclosing(MODE64, r) == reg64;
}

int sb_code_uses_reg(const struct sb_code_insn *in, ZydisRegister reg64)
{
	for (size_t k = 0; k < in->dec.operand_count_visible; k++) {
		const ZydisDecodedOperand *op = &in->ops[k];
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER && in_family(op->reg.value, reg64))
			return 1;
		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    (in_family(op->mem.base, reg64) || in_family(op->mem.index, reg64)))
			return 1;
	}
	return 0;
}

static int is_stack_op(const struct sb_code_insn *in, ZydisMnemonic m, ZydisRegister reg64)
{
	return in->dec.mnemonic == m && in->dec.operand_count_visible == 1 &&
	       in->ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER && in->ops[0].reg.value == reg64;
}

int sb_code_is_push(const struct sb_code_insn *in, ZydisRegister reg64)
{
	return is_stack_op(in, ZYDIS_MNEMONIC_PUSH, reg64);
}

int sb_code_is_pop(const struct sb_code_insn *in, ZydisRegister reg64)
{
	return is_stack_op(in, ZYDIS_MNEMONIC_POP, reg64);
}

static ZydisRegister swap(ZydisRegister r, const ZydisRegister *from, const ZydisRegister *to)
{
	for (int w = 0; w < 4; w++)
		if (r == from[w])
			return to[w];
	return r;
}

int sb_code_request_swap_reg(const struct sb_code_insn *in, ZydisRegister from64, ZydisRegister to64,
			     ZydisEncoderRequest *req)
{
	const ZydisRegister *from = reg_family(from64), *to = reg_family(to64);
	if (!from || !to ||
	    !ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(&in->dec, in->ops,
			in->dec.operand_count_visible, req)))
		return -1;
	for (size_t k = 0; k < req->operand_count; k++) {
		ZydisEncoderOperand *op = &req->operands[k];
		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER)
			op->reg.value = swap(op->reg.value, from, to);
		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY) {
			op->mem.base = swap(op->mem.base, from, to);
			op->mem.index = swap(op->mem.index, from, to);
		}
	}
	return 0;
}

void sb_layout_init(struct sb_layout *l, const struct sb_code *c)
{
	memset(l, 0, sizeof(*l));
	l->code = c;
}

static struct sb_layout_item *add_item(struct sb_layout *l, size_t g, char *err, size_t errlen)
{
	if (l->n && g < l->items[l->n - 1].group) {
		sb_set_err(err, errlen, "layout: items out of order");
		return NULL;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		struct sb_layout_item *ni = realloc(l->items, l->cap * sizeof(*ni));
		if (!ni) {
			sb_set_err(err, errlen, "out of memory");
			return NULL;
		}
		l->items = ni;
	}
	struct sb_layout_item *it = &l->items[l->n++];
	memset(it, 0, sizeof(*it));
	it->group = g;
	return it;
}

int sb_layout_keep(struct sb_layout *l, size_t i, char *err, size_t errlen)
{
	const struct sb_code_insn *in = &l->code->insns[i];
	struct sb_layout_item *it = add_item(l, i, err, errlen);
	if (!it)
		return -1;
	memcpy(it->bytes, l->code->bytes + in->off, in->len);
	it->len = in->len;
	if (!in->relative)
		return 0;
	it->branch = 1;
	it->insn = i;
	if (!ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(&in->dec, in->ops,
			in->dec.operand_count_visible, &it->req))) {
		sb_set_err(err, errlen, "+%#zx: zydis cannot re-encode this jump", in->off);
		return -1;
	}
	return 0;
}

/* Encodes req with its immediate in the 32-bit form: an immediate outside
 * the 8-bit range makes the encoder pick that form, and the decoder tells
 * where the field lies to put the value in. */
static int encode_imm32(ZydisEncoderRequest *req, uint8_t *buf, ZyanUSize *len)
{
	size_t k = 0;
	while (k < req->operand_count && req->operands[k].type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
		k++;
	if (k == req->operand_count)
		return -1;
	int32_t value = (int32_t)req->operands[k].imm.s;
	req->operands[k].imm.s = 0x12345678;
	if (!ZYAN_SUCCESS(ZydisEncoderEncodeInstruction(req, buf, len)))
		return -1;
	req->operands[k].imm.s = value;
	ZydisDecoder d;
	ZydisDecodedInstruction dec;
	if (!ZYAN_SUCCESS(ZydisDecoderInit(&d, MODE64, ZYDIS_STACK_WIDTH_64)) ||
	    !ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d, NULL, buf, *len, &dec)) ||
	    dec.raw.imm[0].size != 32)
		return -1;
	memcpy(buf + dec.raw.imm[0].offset, &value, 4);
	return 0;
}

int sb_layout_encode(struct sb_layout *l, size_t g, ZydisEncoderRequest *req, int imm32,
		     char *err, size_t errlen)
{
	struct sb_layout_item *it = add_item(l, g, err, errlen);
	if (!it)
		return -1;
	ZyanUSize len = sizeof(it->bytes);
	int bad = imm32 ? encode_imm32(req, it->bytes, &len)
			: !ZYAN_SUCCESS(ZydisEncoderEncodeInstruction(req, it->bytes, &len));
	if (bad) {
		sb_set_err(err, errlen, "zydis cannot encode %s (for +%#zx)", ZydisMnemonicGetString(req->mnemonic),
			   g < l->code->n ? l->code->insns[g].off : l->code->len);
		return -1;
	}
	it->len = len;
	return 0;
}

/* Offsets of every item and the start of every group (n + 1 entries: the
 * last is the end of the code). */
static size_t place(struct sb_layout *l, size_t *group_start)
{
	size_t off = 0, g = 0;
	for (size_t i = 0; i < l->n; i++) {
		while (g <= l->items[i].group)
			group_start[g++] = off;
		l->items[i].off = off;
		off += l->items[i].len;
	}
	while (g <= l->code->n)
		group_start[g++] = off;
	return off;
}

/* Encodes a jump at its offset to target, rel8 or rel32. */
static int encode_branch(struct sb_layout_item *it, uint64_t target, uint8_t *buf, ZyanUSize *len)
{
	ZydisEncoderRequest req = it->req;
	req.operands[0].imm.u = target;
	req.branch_type = it->wide ? ZYDIS_BRANCH_TYPE_NEAR : ZYDIS_BRANCH_TYPE_SHORT;
	req.branch_width = it->wide ? ZYDIS_BRANCH_WIDTH_32 : ZYDIS_BRANCH_WIDTH_8;
	*len = ZYDIS_MAX_INSTRUCTION_LENGTH;
	return ZYAN_SUCCESS(ZydisEncoderEncodeInstructionAbsolute(&req, buf, len, it->off)) ? 0 : -1;
}

/* The length of a jump in its current form (encoded as a jump to itself). */
static int size_branch(struct sb_layout_item *it, const struct sb_code *c, char *err, size_t errlen)
{
	uint8_t buf[ZYDIS_MAX_INSTRUCTION_LENGTH];
	ZyanUSize len;
	if (encode_branch(it, it->off, buf, &len)) {
		sb_set_err(err, errlen, "+%#zx: zydis cannot encode this jump in its rel%d form",
			   c->insns[it->insn].off, it->wide ? 32 : 8);
		return -1;
	}
	it->len = len;
	return 0;
}

/* One pass of the JIT's rule: a jump is short when the distance to its
 * target in the previous layout fits 8 bits. Returns 1 when a form changed. */
static int choose_forms(struct sb_layout *l, const size_t *group_start, int grow_only, char *err, size_t errlen)
{
	int changed = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct sb_layout_item *it = &l->items[i];
		const struct sb_code_insn *in = it->branch ? &l->code->insns[it->insn] : NULL;
		if (!in || !in->internal)
			continue;
		int64_t rel = (int64_t)group_start[in->target_insn] - (int64_t)(it->off + it->len);
		int wide = rel < -128 || rel > 127;
		if (wide == it->wide || (grow_only && !wide))
			continue;
		it->wide = wide;
		if (size_branch(it, l->code, err, errlen))
			return -1;
		changed = 1;
	}
	return changed;
}

/* Writes every item at its offset, the jumps with their final targets. */
static int emit(struct sb_layout *l, const size_t *group_start, uint8_t *code, char *err, size_t errlen)
{
	l->resized = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct sb_layout_item *it = &l->items[i];
		if (it->branch) {
			const struct sb_code_insn *in = &l->code->insns[it->insn];
			uint64_t target = in->internal ? group_start[in->target_insn] : in->target;
			ZyanUSize len;
			if (encode_branch(it, target, it->bytes, &len) || len != it->len) {
				sb_set_err(err, errlen, "+%#zx: zydis cannot encode the jump to +%#llx", in->off,
					   (unsigned long long)target);
				return -1;
			}
			l->resized += it->len != in->len;
		}
		memcpy(code + it->off, it->bytes, it->len);
	}
	return 0;
}

/* The JIT's passes: every internal jump starts in its rel32 form (the
 * first pass places every BPF instruction far apart) and becomes rel8 once
 * its distance in the previous pass fits; external targets keep rel32. */
int sb_layout_finish(struct sb_layout *l, uint8_t **code, size_t *len, char *err, size_t errlen)
{
	size_t *group_start = malloc((l->code->n + 1) * sizeof(*group_start));
	if (!group_start) {
		sb_set_err(err, errlen, "out of memory");
		return -1;
	}
	int rc = -1, changed = 1;
	for (size_t i = 0; i < l->n; i++) {
		if (l->items[i].branch) {
			l->items[i].wide = 1;
			if (size_branch(&l->items[i], l->code, err, errlen))
				goto out;
		}
	}
	for (int pass = 0; changed && pass < LAYOUT_PASSES; pass++) {
		place(l, group_start);
		changed = choose_forms(l, group_start, pass >= GROW_ONLY_AFTER, err, errlen);
		if (changed < 0)
			goto out;
	}
	if (changed) {
		sb_set_err(err, errlen, "the jumps did not settle in %d layout passes", LAYOUT_PASSES);
		goto out;
	}
	*len = place(l, group_start);
	*code = malloc(*len ? *len : 1);
	if (!*code) {
		sb_set_err(err, errlen, "out of memory");
		goto out;
	}
	rc = emit(l, group_start, *code, err, errlen);
	if (rc) {
		free(*code);
		*code = NULL;
	}
out:
	free(group_start);
	return rc;
}

void sb_layout_free(struct sb_layout *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}
