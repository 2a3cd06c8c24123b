/* ablation.c: a variant's parts against its baseline and the variant with
 * one part taken out; see ablation.h. */
#include "twins/ablation.h"
#include "base/error.h"
#include "code_align.h"
#include "code_layout.h"
#include "private_frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* x86_nops of arch/x86/kernel/alternative.c, the forms the JIT pads with
 * (asm/jit_macros.inc JIT_NOPS has the same). */
static const uint8_t nop_forms[9][8] = {
	{0},
	{0x90},
	{0x66, 0x90},
	{0x0f, 0x1f, 0x00},
	{0x0f, 0x1f, 0x40, 0x00},
	{0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
	{0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
};

void sb_ablation_nops(uint8_t *out, size_t len)
{
	while (len) {
		size_t n = len > 8 ? 8 : len;
		memcpy(out, nop_forms[n], n);
		out += n;
		len -= n;
	}
}

const char *sb_part_kind_name(enum sb_part_kind k)
{
	static const char *names[] = {"r9 load", "gs add", "push/pop r9", "frame", "added"};
	return k <= SB_PART_ADDED ? names[k] : "?";
}

/* in_common[i]: variant instruction i is in a longest common subsequence
 * with the baseline (code_align.h). Returns how many are, or -1 out of
 * memory. */
static long align(const struct sb_code *v, const struct sb_code *b, unsigned char *in_common)
{
	long *match = malloc((v->n + 1) * sizeof(*match));
	long common = match ? sb_code_align(v, b, match) : -1;
	for (size_t i = 0; common >= 0 && i < v->n; i++)
		in_common[i] = match[i] >= 0;
	free(match);
	return common;
}

static struct sb_ablation_part *new_part(struct sb_ablation *a, enum sb_part_kind kind, size_t f, char *err,
					 size_t errlen)
{
	if (a->n_parts == SB_ABLATION_MAX_PARTS) {
		sb_set_err(err, errlen, "more than %d parts", SB_ABLATION_MAX_PARTS);
		return NULL;
	}
	struct sb_ablation_part *p = &a->parts[a->n_parts];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->func = f;
	return p;
}

static int add_row(struct sb_ablation *a, struct sb_ablation_part *p, size_t row, char *err, size_t errlen)
{
	if (p->n_rows == SB_PART_MAX_INSNS) {
		sb_set_err(err, errlen, "a part of more than %d instructions", SB_PART_MAX_INSNS);
		return -1;
	}
	p->rows[p->n_rows++] = row;
	a->rows[row].part = (long)(p - a->parts);
	return 0;
}

/* The name of part p: its kind, where its first instruction lies, and for
 * a part of several instructions that are not a pair, how many. */
static void name_part(struct sb_ablation *a, struct sb_ablation_part *p)
{
	const struct sb_ablation_row *r = &a->rows[p->rows[0]];
	const char *what = p->kind == SB_PART_ADDED ? r->text : sb_part_kind_name(p->kind);
	if (p->kind == SB_PART_FRAME)
		snprintf(p->name, sizeof(p->name), "frame x%zu %s+%#zx", p->n_rows, a->func_names[p->func], r->off);
	else
		snprintf(p->name, sizeof(p->name), "%.40s %s+%#zx", what, a->func_names[p->func], r->off);
}

/* An r9-based access other than the r9 setup and the push/pop r9. */
static int is_frame_access(const struct sb_code_insn *in)
{
	return sb_code_uses_reg(in, ZYDIS_REGISTER_R9) && !sb_is_r9_load(in) && !sb_is_gs_add(in) &&
	       !sb_code_is_push(in, ZYDIS_REGISTER_R9) && !sb_code_is_pop(in, ZYDIS_REGISTER_R9);
}

/* The parts of function f, whose variant instructions start at row first. */
static int parts_of(struct sb_ablation *a, size_t f, size_t first, const struct sb_code *v,
		    const unsigned char *in_common, char *err, size_t errlen)
{
	struct sb_ablation_part *frame = NULL;
	unsigned char *taken = calloc(v->n + 1, 1);
	if (!taken)
		return sb_set_err(err, errlen, "out of memory"), -1;
	int rc = -1;
	/* With frame accesses, the r9 load and the gs add join their part:
	 * either ablated alone would send the accesses through an undefined r9. */
	int has_frame = 0;
	for (size_t i = 0; i < v->n; i++)
		has_frame |= !in_common[i] && is_frame_access(&v->insns[i]);
	for (size_t i = 0; i < v->n; i++) {
		const struct sb_code_insn *in = &v->insns[i];
		if (in_common[i] || taken[i])
			continue;
		struct sb_ablation_part *p;
		if (is_frame_access(in) || (has_frame && (sb_is_r9_load(in) || sb_is_gs_add(in)))) {
			if (!frame && !(frame = new_part(a, SB_PART_FRAME, f, err, errlen)))
				goto out;
			if (add_row(a, frame, first + i, err, errlen))
				goto out;
			if (frame->n_rows == 1)
				a->n_parts++;
			continue;
		}
		enum sb_part_kind kind = sb_is_r9_load(in) ? SB_PART_R9_LOAD : sb_is_gs_add(in) ? SB_PART_R9_GS_ADD
					 : sb_code_is_push(in, ZYDIS_REGISTER_R9) ? SB_PART_CALL_WRAP
										  : SB_PART_ADDED;
		size_t pop = v->n;
		if (kind == SB_PART_CALL_WRAP) {
			for (size_t j = i + 1; j < v->n && pop == v->n; j++)
				if (!in_common[j] && !taken[j] && sb_code_is_pop(&v->insns[j], ZYDIS_REGISTER_R9))
					pop = j;
			if (pop == v->n)
				kind = SB_PART_ADDED;
		}
		if (!(p = new_part(a, kind, f, err, errlen)) || add_row(a, p, first + i, err, errlen))
			goto out;
		if (kind == SB_PART_CALL_WRAP) {
			taken[pop] = 1;
			if (add_row(a, p, first + pop, err, errlen))
				goto out;
		}
		a->n_parts++;
	}
	rc = 0;
out:
	free(taken);
	return rc;
}

static int format_rows(struct sb_ablation *a, size_t f, const struct sb_code *v, char *err, size_t errlen)
{
	ZydisFormatter fmt;
	if (!ZYAN_SUCCESS(ZydisFormatterInit(&fmt, ZYDIS_FORMATTER_STYLE_INTEL)) ||
	    !ZYAN_SUCCESS(ZydisFormatterSetProperty(&fmt, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE)))
		return sb_set_err(err, errlen, "zydis: no formatter"), -1;
	for (size_t i = 0; i < v->n; i++) {
		const struct sb_code_insn *in = &v->insns[i];
		struct sb_ablation_row *r = &a->rows[a->n_rows++];
		*r = (struct sb_ablation_row){.func = f, .off = in->off, .len = in->len, .part = -1};
		memcpy(r->bytes, v->bytes + in->off, in->len);
		if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&fmt, &in->dec, in->ops, in->dec.operand_count_visible,
								  r->text, sizeof(r->text), ZYDIS_RUNTIME_ADDRESS_NONE,
								  NULL)))
			snprintf(r->text, sizeof(r->text), "(?)");
	}
	return 0;
}

/* Function f of both: its rows, its parts. */
static int diff_func(struct sb_ablation *a, size_t f, const struct sb_code_func *base, char *err, size_t errlen)
{
	struct sb_code v, b;
	char sub[256];
	if (sb_code_decode(a->funcs[f].code, a->funcs[f].len, &v, sub, sizeof(sub)))
		return sb_set_err(err, errlen, "the variant's %s: %s", a->func_names[f], sub), -1;
	if (sb_code_decode(base->code, base->len, &b, sub, sizeof(sub))) {
		sb_code_free(&v);
		return sb_set_err(err, errlen, "the baseline's %s: %s", a->func_names[f], sub), -1;
	}
	int rc = -1;
	unsigned char *in_common = malloc(v.n + 1);
	struct sb_ablation_row *rows = realloc(a->rows, (a->n_rows + v.n) * sizeof(*rows));
	if (rows)
		a->rows = rows;
	long common = in_common && rows ? align(&v, &b, in_common) : -1;
	if (common < 0)
		sb_set_err(err, errlen, "out of memory");
	else {
		size_t first = a->n_rows;
		a->baseline_only += b.n - (size_t)common;
		rc = format_rows(a, f, &v, err, errlen) ? -1 : parts_of(a, f, first, &v, in_common, err, errlen);
	}
	free(in_common);
	sb_code_free(&v);
	sb_code_free(&b);
	return rc;
}

int sb_ablation_parts(const struct sb_code_func *var, size_t nv, const struct sb_code_func *base, size_t nb,
		      struct sb_ablation *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (nv != nb || nv == 0 || nv > SB_CODE_VARIANT_MAX_FUNCS) {
		sb_set_err(err, errlen, "the variant has %zu function%s, its baseline %zu: they cannot be aligned", nv,
			   nv == 1 ? "" : "s", nb);
		return -1;
	}
	out->n_funcs = nv;
	for (size_t f = 0; f < nv; f++) {
		out->funcs[f] = var[f];
		if (f == 0)
			snprintf(out->func_names[f], sizeof(out->func_names[f]), "main");
		else
			snprintf(out->func_names[f], sizeof(out->func_names[f]), f == 1 ? "sub" : "sub%zu", f);
		if (diff_func(out, f, &base[f], err, errlen)) {
			sb_ablation_free(out);
			return -1;
		}
	}
	for (size_t k = 0; k < out->n_parts; k++)
		name_part(out, &out->parts[k]);
	if (out->n_parts == 0) {
		sb_set_err(err, errlen, "the variant adds nothing to its baseline (same instructions)");
		sb_ablation_free(out);
		return -1;
	}
	return 0;
}

static int in_part(const struct sb_ablation_part *p, size_t first, size_t i)
{
	for (size_t r = 0; r < p->n_rows; r++)
		if (p->rows[r] == first + i)
			return 1;
	return 0;
}

/* The part's instructions dropped, a frame access re-encoded with rbp. A
 * frame part that holds the r9 setup takes the function's frame back to
 * rsp: the sub rsp of its depth goes where the JIT's prologue puts it, as
 * sb_deprivatize() does, so that the rbp-based accesses stay above rsp. */
static int removed(const struct sb_ablation_part *p, const struct sb_code *c,
		   size_t first, uint8_t **code, size_t *len, size_t *n_removed, char *err, size_t errlen)
{
	struct sb_layout l;
	sb_layout_init(&l, c);
	int rc = -1;
	size_t setup = sb_r9_setup(c), frame_at = c->n;
	uint32_t depth = 0;
	if (p->kind == SB_PART_FRAME && setup < c->n && in_part(p, first, setup)) {
		frame_at = sb_frame_end(c);
		depth = sb_frame_depth(c, setup);
	}
	for (size_t i = 0; i < c->n; i++) {
		if (i == frame_at && depth && sb_frame_encode_sub_rsp(&l, i, depth, err, errlen))
			goto out;
		if (!in_part(p, first, i)) {
			if (sb_layout_keep(&l, i, err, errlen))
				goto out;
			continue;
		}
		if (p->kind != SB_PART_FRAME || sb_is_r9_load(&c->insns[i]) || sb_is_gs_add(&c->insns[i])) {
			(*n_removed)++;
			continue;
		}
		ZydisEncoderRequest req;
		if (sb_code_request_swap_reg(&c->insns[i], ZYDIS_REGISTER_R9, ZYDIS_REGISTER_RBP, &req)) {
			sb_set_err(err, errlen, "+%#zx: zydis cannot re-encode it with rbp", c->insns[i].off);
			goto out;
		}
		if (sb_layout_encode(&l, i, &req, 0, err, errlen))
			goto out;
	}
	rc = sb_layout_finish(&l, code, len, err, errlen);
out:
	sb_layout_free(&l);
	return rc;
}

int sb_ablation_code(const struct sb_ablation *a, size_t k, enum sb_ablate_how how, uint8_t **code, size_t *len,
		     size_t *removed_insns, char *err, size_t errlen)
{
	*code = NULL;
	*removed_insns = 0;
	if (k >= a->n_parts)
		return sb_set_err(err, errlen, "no part %zu", k + 1), -1;
	const struct sb_ablation_part *p = &a->parts[k];
	const struct sb_code_func *fn = &a->funcs[p->func];
	size_t first = 0;
	while (first < a->n_rows && a->rows[first].func != p->func)
		first++;
	if (how == SB_ABLATE_NOP) {
		if (!(*code = malloc(fn->len)))
			return sb_set_err(err, errlen, "out of memory"), -1;
		memcpy(*code, fn->code, fn->len);
		for (size_t r = 0; r < p->n_rows; r++)
			sb_ablation_nops(*code + a->rows[p->rows[r]].off, a->rows[p->rows[r]].len);
		*len = fn->len;
		return 0;
	}
	struct sb_code c;
	if (sb_code_decode(fn->code, fn->len, &c, err, errlen))
		return -1;
	int rc = removed(p, &c, first, code, len, removed_insns, err, errlen);
	sb_code_free(&c);
	return rc;
}

int sb_ablation_all_nops(const struct sb_ablation *a, size_t f, uint8_t **code, size_t *len, char *err,
			 size_t errlen)
{
	if (f >= a->n_funcs || !(*code = malloc(a->funcs[f].len)))
		return sb_set_err(err, errlen, f >= a->n_funcs ? "no function %zu" : "out of memory (function %zu)", f),
		       -1;
	memcpy(*code, a->funcs[f].code, a->funcs[f].len);
	*len = a->funcs[f].len;
	for (size_t r = 0; r < a->n_rows; r++)
		if (a->rows[r].func == f && a->rows[r].part >= 0)
			sb_ablation_nops(*code + a->rows[r].off, a->rows[r].len);
	return 0;
}

void sb_ablation_free(struct sb_ablation *a)
{
	free(a->rows);
	memset(a, 0, sizeof(*a));
}
