/* diff_twin.c: one side of `stubbench diff` as an auto-twin; see
 * diff_twin.h. */
#include "twins/diff_twin.h"
#include "stubbench/error.h"
#include "stubbench/registry.h"
#include "code_layout.h"

#include <stdio.h>
#include <string.h>

#define KERNEL_HALF 0xffff800000000000ULL
#define VALUES 4096u /* bytes of each made-up map's values */

static int is_movabs_reg(const struct sb_code_insn *in)
{
	return in->dec.mnemonic == ZYDIS_MNEMONIC_MOV && in->dec.operand_count_visible == 2 &&
	       in->ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER && in->ops[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
	       in->dec.raw.imm[0].size == 64;
}

static int is_gs(const struct sb_code_insn *in)
{
	for (size_t k = 0; k < in->dec.operand_count_visible; k++)
		if (in->ops[k].type == ZYDIS_OPERAND_TYPE_MEMORY && in->ops[k].mem.segment == ZYDIS_REGISTER_GS)
			return 1;
	return 0;
}

/* A memory operand [base + disp] with no index. */
static int mem_at(const ZydisDecodedOperand *o, ZydisRegister base, int64_t *disp)
{
	if (o->type != ZYDIS_OPERAND_TYPE_MEMORY || o->mem.base != base || o->mem.index != ZYDIS_REGISTER_NONE)
		return 0;
	*disp = o->mem.disp.value;
	return 1;
}

/* mov rX, [rD+off]; add rX, 1; mov [rD+off], rX from instruction k on:
 * the offset, or -1. */
static long increment_at(const struct sb_code *c, size_t k, ZydisRegister d)
{
	if (k + 3 > c->n)
		return -1;
	const struct sb_code_insn *ld = &c->insns[k], *add = &c->insns[k + 1], *st = &c->insns[k + 2];
	int64_t o1, o2;
	if (ld->dec.mnemonic != ZYDIS_MNEMONIC_MOV || add->dec.mnemonic != ZYDIS_MNEMONIC_ADD ||
	    st->dec.mnemonic != ZYDIS_MNEMONIC_MOV || ld->ops[0].type != ZYDIS_OPERAND_TYPE_REGISTER ||
	    !mem_at(&ld->ops[1], d, &o1) || !mem_at(&st->ops[0], d, &o2) || o1 != o2 || o1 < 0 ||
	    o1 + 8 > VALUES)
		return -1;
	ZydisRegister x = ld->ops[0].reg.value;
	if (add->ops[0].type != ZYDIS_OPERAND_TYPE_REGISTER || add->ops[0].reg.value != x ||
	    add->ops[1].type != ZYDIS_OPERAND_TYPE_IMMEDIATE || add->ops[1].imm.value.u != 1 ||
	    st->ops[1].type != ZYDIS_OPERAND_TYPE_REGISTER || st->ops[1].reg.value != x)
		return -1;
	return (long)o1;
}

/* A made-up map per kernel address of f's movabs, and the counter. */
static int find_maps(const struct sb_jit_func *f, int is_main, struct sb_diff_twin *d, struct sb_auto_twin_slot *counter,
		     char *err, size_t errlen)
{
	struct sb_code c;
	char sub[200];
	if (sb_code_decode(f->bytes, f->len, &c, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "%s: %s", f->name, sub);
		return -1;
	}
	int rc = 0;
	for (size_t k = 0; k < c.n && rc == 0; k++) {
		const struct sb_code_insn *in = &c.insns[k];
		if (!is_movabs_reg(in) || in->ops[1].imm.value.u < KERNEL_HALF || (k + 1 < c.n && is_gs(&c.insns[k + 1])))
			continue;
		uint64_t imm = in->ops[1].imm.value.u;
		size_t m = 0;
		while (m < d->n_maps && d->refs[m].kaddr != imm)
			m++;
		if (m == d->n_maps) {
			if (m == SB_AUTO_TWIN_MAX_MAPS) {
				sb_set_err(err, errlen, "%s+%#zx: more than %d kernel addresses", f->name, in->off,
					   SB_AUTO_TWIN_MAX_MAPS);
				rc = -1;
				break;
			}
			d->maps[m] = (struct sb_auto_twin_map){.id = (uint32_t)m + 1, .type = 2 /* array */,
							       .value_size = VALUES, .max_entries = 1};
			snprintf(d->maps[m].name, sizeof(d->maps[m].name), "kaddr%zu", m);
			d->refs[m] = (struct sb_auto_twin_ref){.kaddr = imm, .map = m, .off = 0, .is_value = 1};
			d->n_maps++;
		}
		long off = increment_at(&c, k + 1, in->ops[0].reg.value);
		if (is_main && off >= 0 && counter->map < 0)
			*counter = (struct sb_auto_twin_slot){(int)m, (uint32_t)off};
	}
	sb_code_free(&c);
	return rc;
}

int sb_diff_twin_make(const struct sb_jit_image *img, const char *name, enum sb_thunk thunk,
		      struct sb_diff_twin *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	struct sb_auto_twin_slot counter = {-1, 0};
	for (size_t i = 0; i < img->n; i++)
		if (find_maps(&img->funcs[i], i == 0, d, &counter, err, errlen))
			return -1;
	/* The seed's per-run baseline: the shape and the harness's record. */
	const struct sb_variant *tmpl = sb_variant_find("baseline");
	if (!tmpl) {
		sb_set_err(err, errlen, "no baseline variant in the registry");
		return -1;
	}
	struct sb_auto_twin_spec s = {.name = name, .img = img, .main = img->n ? img->funcs[0].name : NULL,
				      .maps = d->maps, .n_maps = d->n_maps, .refs = d->refs, .n_refs = d->n_maps,
				      .thunk = thunk, .tmpl = tmpl, .batch_iters = {-1, 0}, .counter = counter};
	if (sb_auto_twin_make(&s, &d->t, err, errlen))
		return -1;
	d->counted = counter.map >= 0;
	struct sb_variant *v = &d->t.cv.v;
	v->family = "diff";
	v->flavour_name = name;
	v->listing_file = NULL;
	snprintf(d->t.cv.description, sizeof(d->t.cv.description), "%s: the twin of %s (%s)", name,
		 img->prog_name, img->funcs[0].name);
	v->description = d->t.cv.description;
	sb_auto_twin_fill(&d->t, 0);
	return 0;
}

void sb_diff_twin_free(struct sb_diff_twin *d)
{
	sb_auto_twin_free(&d->t);
	memset(d, 0, sizeof(*d));
}
