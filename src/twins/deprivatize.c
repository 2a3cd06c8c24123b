/* deprivatize.c: a JITed function with its private stack taken out, or put
 * in (deprivatize.h). What the x86-64 JIT does with a private stack
 * (arch/x86/net/bpf_jit_comp.c, v6.13+): emit_prologue() gets stack depth 0
 * (no sub rsp); emit_priv_frame_ptr() loads r9 with the per-CPU frame
 * pointer after the callee-saved pushes (and the arena movabs r12); every
 * BPF_REG_FP operand becomes r9; every call gets push r9 before it (before
 * the call-depth accounting, if any) and pop r9 after it. Undoing that is
 * the same function as the JIT emits it without a private stack. */
#include "twins/deprivatize.h"
#include "jit/decode.h"
#include "base/error.h"
#include "code_layout.h"
#include "private_frame.h"
#include "twins/ablation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void req_init(ZydisEncoderRequest *r, ZydisMnemonic m)
{
	memset(r, 0, sizeof(*r));
	r->machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
	r->mnemonic = m;
}

static void req_reg(ZydisEncoderRequest *r, ZydisRegister reg)
{
	r->operands[r->operand_count].type = ZYDIS_OPERAND_TYPE_REGISTER;
	r->operands[r->operand_count++].reg.value = reg;
}

static void req_imm(ZydisEncoderRequest *r, uint64_t v)
{
	r->operands[r->operand_count].type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
	r->operands[r->operand_count++].imm.u = v;
}

/* Instruction i with its frame register from -> to, re-encoded. */
static int swap_frame(struct sb_layout *l, size_t i, ZydisRegister from, ZydisRegister to,
		      char *err, size_t errlen)
{
	ZydisEncoderRequest req;
	if (sb_code_request_swap_reg(&l->code->insns[i], from, to, &req)) {
		sb_set_err(err, errlen, "+%#zx: zydis cannot turn this instruction into an encoder request",
			   l->code->insns[i].off);
		return -1;
	}
	return sb_layout_encode(l, i, &req, 0, err, errlen);
}

static int finish(struct sb_layout *l, struct sb_twin *out, char *err, size_t errlen)
{
	if (sb_layout_finish(l, &out->code, &out->len, err, errlen))
		return -1;
	out->branches_resized = l->resized;
	return 0;
}

static int deprivatize_body(const struct sb_code *c, size_t frame_at, size_t setup, struct sb_twin *out,
			    char *err, size_t errlen)
{
	struct sb_layout l;
	sb_layout_init(&l, c);
	int rc = -1;
	for (size_t i = 0; i < c->n; i++) {
		const struct sb_code_insn *in = &c->insns[i];
		if (i == frame_at && out->stack_depth &&
		    sb_frame_encode_sub_rsp(&l, i, out->stack_depth, err, errlen))
			goto out;
		if (i == setup || i == setup + 1 || sb_code_is_pop(in, ZYDIS_REGISTER_R9))
			continue;
		if (sb_code_is_push(in, ZYDIS_REGISTER_R9)) {
			out->calls_wrapped++;
			continue;
		}
		if (sb_code_uses_reg(in, ZYDIS_REGISTER_R9)) {
			if (swap_frame(&l, i, ZYDIS_REGISTER_R9, ZYDIS_REGISTER_RBP, err, errlen))
				goto out;
			out->frame_insns++;
		} else if (sb_layout_keep(&l, i, err, errlen))
			goto out;
	}
	rc = finish(&l, out, err, errlen);
out:
	sb_layout_free(&l);
	return rc;
}

/* Instruction i with r9 turned into rbp, encoded alone into buf (at most
 * 15 bytes). Returns its length, or 0 with err. */
static size_t encode_rbp(const struct sb_code *c, size_t i, uint8_t *buf, char *err, size_t errlen)
{
	ZydisEncoderRequest req;
	ZyanUSize n = 15;
	if (sb_code_request_swap_reg(&c->insns[i], ZYDIS_REGISTER_R9, ZYDIS_REGISTER_RBP, &req) ||
	    !ZYAN_SUCCESS(ZydisEncoderEncodeInstruction(&req, buf, &n))) {
		sb_set_err(err, errlen, "+%#zx: zydis cannot re-encode it with rbp", c->insns[i].off);
		return 0;
	}
	return (size_t)n;
}

/* The prologue of sb_deprivatize_padded: the sub rsp where the JIT puts
 * it (frame_at, before the callee-saved pushes, so that they lie below the
 * frame), the pushes after it, NOPs to the end of the r9 setup: the bytes
 * from frame_at to the end of the setup keep their total length. */
static int padded_prologue(const struct sb_code *c, size_t frame_at, size_t setup, uint32_t depth, uint8_t *out,
			   char *err, size_t errlen)
{
	size_t from = c->insns[frame_at].off, to = c->insns[setup + 1].off + c->insns[setup + 1].len;
	for (size_t i = 0; i < c->n; i++)
		if ((i >= frame_at && i < setup && c->insns[i].relative) ||
		    (c->insns[i].internal && c->insns[i].target_insn > frame_at && c->insns[i].target_insn <= setup + 1)) {
			sb_set_err(err, errlen, "+%#zx: a jump in or into the prologue", c->insns[i].off);
			return -1;
		}
	size_t saves = c->insns[setup].off - from, n = 0;
	uint8_t buf[64];
	if (depth) {
		buf[0] = 0x48, buf[1] = 0x81, buf[2] = 0xec; /* sub rsp, imm32 */
		memcpy(buf + 3, &depth, 4);
		n = 7;
	}
	if (n + saves > to - from || saves > sizeof(buf) - n) {
		sb_set_err(err, errlen, "+%#zx: no room for sub rsp in the r9 setup's bytes", from);
		return -1;
	}
	memcpy(buf + n, c->bytes + from, saves);
	n += saves;
	memcpy(out + from, buf, n);
	sb_ablation_nops(out + from + n, to - from - n);
	return 0;
}

/* sb_deprivatize_padded's rewrite of c (its stack depth set). */
static int padded_body(const struct sb_code *c, size_t frame_at, size_t setup, struct sb_twin *out, char *err,
		       size_t errlen)
{
	if (!(out->code = malloc(c->len))) {
		sb_set_err(err, errlen, "out of memory");
		return -1;
	}
	memcpy(out->code, c->bytes, c->len);
	out->len = c->len;
	if (padded_prologue(c, frame_at, setup, out->stack_depth, out->code, err, errlen))
		return -1;
	for (size_t i = setup + 2; i < c->n; i++) {
		const struct sb_code_insn *in = &c->insns[i];
		uint8_t *at = out->code + in->off, buf[16];
		size_t n = 0;
		if (sb_code_is_push(in, ZYDIS_REGISTER_R9) || sb_code_is_pop(in, ZYDIS_REGISTER_R9)) {
			out->calls_wrapped += sb_code_is_push(in, ZYDIS_REGISTER_R9);
		} else if (sb_code_uses_reg(in, ZYDIS_REGISTER_R9)) {
			if (!(n = encode_rbp(c, i, buf, err, errlen)))
				return -1;
			if (n > in->len) {
				sb_set_err(err, errlen, "+%#zx: its rbp form is %zu bytes, longer than its %zu", in->off, n,
					   in->len);
				return -1;
			}
			out->frame_insns++;
		} else {
			continue;
		}
		memcpy(at, buf, n);
		sb_ablation_nops(at + n, in->len - n);
	}
	return 0;
}

/* The code decoded, its private frame found and its stack depth set
 * (opts's, else the deepest frame offset), then rewritten by
 * sb_deprivatize's body or, padded, sb_deprivatize_padded's. */
static int without_private_stack(const uint8_t *code, size_t len, const struct sb_deprivatize_opts *opts,
				 int padded, struct sb_twin *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	struct sb_code c;
	if (sb_code_decode(code, len, &c, err, errlen))
		return -1;
	int rc = -1;
	size_t frame_at, setup;
	if (sb_private_frame_find(&c, &frame_at, &setup, err, errlen) == 0) {
		long d = opts && opts->stack_depth >= 0 ? opts->stack_depth : -1;
		out->stack_depth = d >= 0 ? (uint32_t)((d + 7) & ~7L) : sb_frame_depth(&c, setup);
		rc = padded ? padded_body(&c, frame_at, setup, out, err, errlen)
			    : deprivatize_body(&c, frame_at, setup, out, err, errlen);
	}
	sb_code_free(&c);
	if (rc)
		sb_twin_free(out);
	return rc;
}

int sb_deprivatize(const uint8_t *code, size_t len, const struct sb_deprivatize_opts *opts,
		   struct sb_twin *out, char *err, size_t errlen)
{
	return without_private_stack(code, len, opts, 0, out, err, errlen);
}

int sb_deprivatize_padded(const uint8_t *code, size_t len, struct sb_twin *out, char *err, size_t errlen)
{
	return without_private_stack(code, len, NULL, 1, out, err, errlen);
}

/* The callee-saved pushes (rbx, r12-r15) and the arena movabs r12 after the
 * frame: the index after them, where emit_priv_frame_ptr() goes. */
static size_t after_saves(const struct sb_code *c, size_t i)
{
	static const ZydisRegister saved[] = {ZYDIS_REGISTER_RBX, ZYDIS_REGISTER_R12, ZYDIS_REGISTER_R13,
					      ZYDIS_REGISTER_R14, ZYDIS_REGISTER_R15};
	for (; i < c->n; i++) {
		const struct sb_code_insn *in = &c->insns[i];
		int push = 0;
		for (size_t k = 0; k < sizeof(saved) / sizeof(saved[0]); k++)
			push |= sb_code_is_push(in, saved[k]);
		int arena = in->dec.mnemonic == ZYDIS_MNEMONIC_MOV && sb_code_op_is_reg(sb_code_op(in, 0), ZYDIS_REGISTER_R12) &&
			    sb_code_op_is_imm(sb_code_op(in, 1));
		if (!push && !arena)
			return i;
	}
	return i;
}

static int is_call(const struct sb_code *c, size_t i)
{
	return i < c->n && c->insns[i].dec.mnemonic == ZYDIS_MNEMONIC_CALL;
}

/* The call-depth accounting the JIT puts before a call (sarq $5, %gs:...). */
static int is_depth_accounting(const struct sb_code *c, size_t i)
{
	const ZydisDecodedOperand *m = sb_code_op(&c->insns[i], 0);
	return c->insns[i].dec.mnemonic == ZYDIS_MNEMONIC_SAR && m && m->type == ZYDIS_OPERAND_TYPE_MEMORY &&
	       m->mem.segment == ZYDIS_REGISTER_GS;
}

/* emit_priv_frame_ptr(): r9 = frame_ptr the way emit_mov_imm64() loads it
 * (xor for 0, mov r9d for 32 unsigned bits, mov r9 for 32 signed bits,
 * else movabs), then add r9, gs:[gs_disp]. */
static int emit_r9_setup(struct sb_layout *l, size_t g, uint64_t fp, uint32_t gs_disp, char *err, size_t errlen)
{
	ZydisEncoderRequest r;
	if (fp == 0) {
		req_init(&r, ZYDIS_MNEMONIC_XOR);
		req_reg(&r, ZYDIS_REGISTER_R9D);
		req_reg(&r, ZYDIS_REGISTER_R9D);
	} else {
		req_init(&r, ZYDIS_MNEMONIC_MOV);
		req_reg(&r, fp <= UINT32_MAX ? ZYDIS_REGISTER_R9D : ZYDIS_REGISTER_R9);
		req_imm(&r, fp);
	}
	if (sb_layout_encode(l, g, &r, 0, err, errlen))
		return -1;
	req_init(&r, ZYDIS_MNEMONIC_ADD);
	r.prefixes = ZYDIS_ATTRIB_HAS_SEGMENT_GS;
	req_reg(&r, ZYDIS_REGISTER_R9);
	ZydisEncoderOperand *m = &r.operands[r.operand_count++];
	m->type = ZYDIS_OPERAND_TYPE_MEMORY;
	m->mem.displacement = (int32_t)gs_disp;
	m->mem.size = 8;
	return sb_layout_encode(l, g, &r, 0, err, errlen);
}

static int wrap_r9(struct sb_layout *l, size_t g, ZydisMnemonic m, char *err, size_t errlen)
{
	ZydisEncoderRequest r;
	req_init(&r, m);
	req_reg(&r, ZYDIS_REGISTER_R9);
	return sb_layout_encode(l, g, &r, 0, err, errlen);
}

static int privatize_body(const struct sb_code *c, size_t frame_at, size_t sub_at, uint64_t fp,
			  uint32_t gs_disp, struct sb_twin *out, char *err, size_t errlen)
{
	struct sb_layout l;
	sb_layout_init(&l, c);
	size_t setup_at = after_saves(c, sub_at < c->n ? sub_at + 1 : frame_at);
	int rc = -1;
	for (size_t i = 0; i < c->n; i++) {
		const struct sb_code_insn *in = &c->insns[i];
		if (i == sub_at)
			continue;
		if (i == setup_at && emit_r9_setup(&l, i, fp, gs_disp, err, errlen))
			goto out;
		int push = (is_call(c, i) && !(i > 0 && is_depth_accounting(c, i - 1))) ||
			   (is_depth_accounting(c, i) && is_call(c, i + 1));
		if (push) {
			if (wrap_r9(&l, i, ZYDIS_MNEMONIC_PUSH, err, errlen))
				goto out;
			out->calls_wrapped++;
		}
		if (i >= frame_at && !sb_code_is_pop(in, ZYDIS_REGISTER_RBP) &&
		    sb_code_uses_reg(in, ZYDIS_REGISTER_RBP)) {
			if (swap_frame(&l, i, ZYDIS_REGISTER_RBP, ZYDIS_REGISTER_R9, err, errlen))
				goto out;
			out->frame_insns++;
		} else if (sb_layout_keep(&l, i, err, errlen))
			goto out;
		if (is_call(c, i) && wrap_r9(&l, i, ZYDIS_MNEMONIC_POP, err, errlen))
			goto out;
	}
	rc = finish(&l, out, err, errlen);
out:
	sb_layout_free(&l);
	return rc;
}

int sb_privatize(const uint8_t *code, size_t len, uint64_t frame_ptr, uint32_t gs_disp,
		 struct sb_twin *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	struct sb_code c;
	if (sb_code_decode(code, len, &c, err, errlen))
		return -1;
	int rc = -1;
	size_t frame_at = sb_frame_end(&c);
	if (frame_at == c.n)
		sb_set_err(err, errlen, "no rbp frame (push rbp; mov rbp, rsp)");
	else if (sb_r9_setup(&c) < c.n)
		sb_set_err(err, errlen, "+%#zx: already has a private stack (r9 setup)", c.insns[sb_r9_setup(&c)].off);
	else {
		size_t sub_at = c.n;
		const struct sb_code_insn *s = &c.insns[frame_at];
		if (s->dec.mnemonic == ZYDIS_MNEMONIC_SUB && sb_code_op_is_reg(sb_code_op(s, 0), ZYDIS_REGISTER_RSP) && sb_code_op_is_imm(sb_code_op(s, 1))) {
			sub_at = frame_at;
			out->stack_depth = (uint32_t)sb_code_op(s, 1)->imm.value.u;
		}
		rc = privatize_body(&c, frame_at, sub_at, frame_ptr, gs_disp, out, err, errlen);
	}
	sb_code_free(&c);
	if (rc)
		sb_twin_free(out);
	return rc;
}

void sb_twin_free(struct sb_twin *t)
{
	free(t->code);
	memset(t, 0, sizeof(*t));
}

/* See deprivatize.h. */
long sb_deprivatize_image(const struct sb_jit_image *img, int padded, struct sb_jit_image *out, char *err,
			  size_t errlen)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->prog_name, sizeof(out->prog_name), "%s", img->prog_name);
	if (!(out->funcs = calloc(img->n, sizeof(*out->funcs)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	long n = 0;
	for (size_t i = 0; i < img->n; i++, out->n++) {
		const struct sb_jit_func *f = &img->funcs[i];
		struct sb_jit_func *g = &out->funcs[i];
		snprintf(g->name, sizeof(g->name), "%s", f->name);
		g->ksym = f->ksym;
		struct sb_twin tw;
		char why[200];
		if ((padded ? sb_deprivatize_padded(f->bytes, f->len, &tw, why, sizeof(why))
			    : sb_deprivatize(f->bytes, f->len, NULL, &tw, why, sizeof(why))) == 0) {
			g->bytes = tw.code, g->len = tw.len;
			n++;
			continue;
		}
		if (strncmp(why, "no private stack", 16) != 0) {
			snprintf(err, errlen, "%.60s: %s", f->name, why);
			sb_jit_image_free(out);
			return -1;
		}
		if (!(g->bytes = malloc(f->len ? f->len : 1))) {
			snprintf(err, errlen, "out of memory");
			sb_jit_image_free(out);
			return -1;
		}
		memcpy(g->bytes, f->bytes, f->len);
		g->len = f->len;
	}
	return n;
}
