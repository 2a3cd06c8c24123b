/* diff_twin.c: one side of `stubbench diff` as an auto-twin; see
 * diff_twin.h. */
#include "twins/diff_twin.h"
#include "base/error.h"
#include "stubbench/registry.h"
#include "code_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variants/insn_trace.h"

#define KERNEL_HALF 0xffff800000000000ULL
#define VALUES SB_DIFF_TWIN_VALUES

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

static ZydisRegister full(ZydisRegister r)
{
	return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
}

/* The offsets of [rD+off] operands after the movabs at k (rD its
 * register) into d->loads[m], until rD is written or control leaves. */
static void note_loads(const struct sb_code *c, size_t k, size_t m, struct sb_diff_twin *d)
{
	ZydisRegister r = full(c->insns[k].ops[0].reg.value);
	for (size_t j = k + 1; j < c->n && j < k + 24; j++) {
		const struct sb_code_insn *in = &c->insns[j];
		int written = 0;
		for (size_t o = 0; o < in->dec.operand_count_visible; o++) {
			const ZydisDecodedOperand *op = &in->ops[o];
			int64_t disp;
			if (mem_at(op, r, &disp) && disp >= 0 && disp + 8 <= VALUES) {
				size_t i = 0;
				while (i < d->n_loads[m] && d->loads[m][i] != disp)
					i++;
				if (i == d->n_loads[m] && i < SB_DIFF_TWIN_LOADS)
					d->loads[m][d->n_loads[m]++] = disp;
			}
			written |= op->type == ZYDIS_OPERAND_TYPE_REGISTER && full(op->reg.value) == r &&
				   (op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE);
		}
		if (written || in->dec.meta.category == ZYDIS_CATEGORY_COND_BR ||
		    in->dec.meta.category == ZYDIS_CATEGORY_UNCOND_BR || in->dec.meta.category == ZYDIS_CATEGORY_CALL ||
		    in->dec.meta.category == ZYDIS_CATEGORY_RET)
			return;
	}
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
		note_loads(&c, k, m, d);
		long off = increment_at(&c, k + 1, in->ops[0].reg.value);
		if (is_main && off >= 0 && counter->map < 0)
			*counter = (struct sb_auto_twin_slot){(int)m, (uint32_t)off};
	}
	sb_code_free(&c);
	return rc;
}

/* sets into the contents of every made-up map whose movabs points at or
 * below each, within its values. Returns 0, or -1 with err naming a set
 * no map holds. */
static int apply_sets(struct sb_diff_twin *d, const struct sb_diff_set *sets, size_t n_sets, char *err,
		      size_t errlen)
{
	for (size_t i = 0; i < n_sets && i < SB_TWIN_MAX_GLOBALS; i++) {
		const struct sb_diff_set *st = &sets[i];
		int held = 0;
		for (size_t m = 0; m < d->n_maps; m++) {
			uint64_t base = d->refs[m].kaddr;
			if (st->kaddr < base || st->kaddr - base + st->size > VALUES)
				continue;
			if (!d->values[m]) {
				d->values[m] = calloc(1, VALUES);
				d->set[m] = calloc(1, VALUES);
				if (!d->values[m] || !d->set[m]) {
					sb_set_err(err, errlen, "out of memory");
					return -1;
				}
				d->maps[m].contents = d->values[m];
				d->maps[m].contents_len = VALUES;
			}
			for (unsigned b = 0; b < st->size; b++) {
				d->values[m][st->kaddr - base + b] = (uint8_t)(st->value >> (8 * b));
				d->set[m][st->kaddr - base + b] = 1;
			}
			held = 1;
		}
		d->held[i] = held;
		if (!held && st->named) {
			sb_set_err(err, errlen, "--global=%s: no movabs of the code points at %#llx or within %u bytes "
				   "below it", st->what, (unsigned long long)st->kaddr, VALUES);
			return -1;
		}
	}
	return 0;
}

int sb_diff_twin_make(const struct sb_jit_image *img, const char *name, enum sb_thunk thunk,
		      const struct sb_diff_set *sets, size_t n_sets, struct sb_diff_twin *d, char *err,
		      size_t errlen)
{
	memset(d, 0, sizeof(*d));
	struct sb_auto_twin_slot counter = {-1, 0};
	for (size_t i = 0; i < img->n; i++)
		if (find_maps(&img->funcs[i], i == 0, d, &counter, err, errlen))
			return -1;
	if (apply_sets(d, sets, n_sets, err, errlen)) {
		sb_diff_twin_free(d);
		return -1;
	}
	/* The seed's per-run baseline: the shape and the harness's record. */
	const struct sb_variant *tmpl = sb_variant_find("baseline");
	if (!tmpl) {
		sb_set_err(err, errlen, "no baseline variant in the registry");
		return -1;
	}
	struct sb_auto_twin_spec s = {.name = name, .img = img, .main = img->n ? img->funcs[0].name : NULL,
				      .maps = d->maps, .n_maps = d->n_maps, .refs = d->refs, .n_refs = d->n_maps,
				      .thunk = thunk, .tmpl = tmpl, .batch_iters = {-1, 0}, .counter = counter};
	if (sb_auto_twin_make(&s, &d->t, err, errlen)) {
		sb_diff_twin_free(d);
		return -1;
	}
	d->counted = counter.map >= 0;
	struct sb_variant *v = &d->t.cv.v;
	v->family = "diff";
	v->flavour_name = name;
	v->listing_file = NULL;
	snprintf(d->t.cv.description, sizeof(d->t.cv.description), "%s: the twin of %s (%s)", name,
		 img->prog_name, img->funcs[0].name);
	v->description = d->t.cv.description;
	sb_auto_twin_fill(&d->t, 1); /* zeroed, --global's values in */
	return 0;
}

void sb_diff_twin_free(struct sb_diff_twin *d)
{
	sb_auto_twin_free(&d->t);
	for (size_t m = 0; m < SB_AUTO_TWIN_MAX_MAPS; m++) {
		free(d->values[m]);
		free(d->set[m]);
	}
	memset(d, 0, sizeof(*d));
}

/* Single steps of one trace: as the auto-twins' path check (auto_twin.c). */
#define MAX_STEPS 100000ULL
/* Traces of the search for where the path reads zeroed memory, and the
 * longest path searched (a single step takes some 30 us: auto_twin.c). */
#define MAX_TRACES 24
#define MAX_SEARCHED 10000

/* Map m's values as measured, with the bytes --global did not set in
 * [from, to) holding 3 in each 4-byte word. */
static void pattern(struct sb_diff_twin *d, size_t m, size_t from, size_t to)
{
	uint8_t *v = sb_auto_twin_slot_addr(&d->t, (struct sb_auto_twin_slot){(int)m, 0});
	for (size_t b = from; v && b < to && b < VALUES; b++)
		if (!d->set[m] || !d->set[m][b])
			v[b] = b % 4 == 0 ? 3 : 0;
}

/* Instructions of one call of the twin, at most max steps: 0 and *n, or
 * -1 with why. */
static int trace(struct sb_diff_twin *d, uint64_t *n, uint64_t max, char *why, size_t len)
{
	uintptr_t lo[SB_CODE_VARIANT_MAX_FUNCS + 1], hi[SB_CODE_VARIANT_MAX_FUNCS + 1];
	size_t nr = sb_auto_twin_ranges(&d->t, lo, hi, SB_CODE_VARIANT_MAX_FUNCS + 1);
	return sb_insn_trace_count(d->t.cv.v.main, lo, hi, nr, max, n, why, len);
}

/* 1 when the path with maps [m0, m1) patterned in [from, to) differs from
 * the measured one (n instructions; a run of 4n + 10,000 steps already
 * does, as a patterned loop bound can run for long); the memory is as
 * measured after. */
static int differs(struct sb_diff_twin *d, size_t m0, size_t m1, size_t from, size_t to, uint64_t n)
{
	char why[200];
	uint64_t k;
	for (size_t m = m0; m < m1; m++)
		pattern(d, m, from, to);
	int rc = trace(d, &k, 4 * n + 10000, why, sizeof(why));
	sb_auto_twin_fill(&d->t, 1);
	return rc != 0 || k != n;
}

void sb_diff_twin_zeroed(struct sb_diff_twin *d, struct sb_diff_zeroed *out)
{
	memset(out, 0, sizeof(*out));
	sb_auto_twin_fill(&d->t, 1);
	if (trace(d, &out->insns, MAX_STEPS, out->why, sizeof(out->why)))
		return;
	out->traced = 1;
	out->depends = differs(d, 0, d->n_maps, 0, VALUES, out->insns);
	int traces = 2;
	for (size_t m = 0; out->depends && out->insns < MAX_SEARCHED && m < d->n_maps && traces < MAX_TRACES; m++) {
		traces++;
		if (!differs(d, m, m + 1, 0, VALUES, out->insns))
			continue;
		out->kaddr = d->refs[m].kaddr;
		for (size_t i = 0; i < d->n_loads[m] && traces < MAX_TRACES; i++, traces++)
			if (differs(d, m, m + 1, (size_t)d->loads[m][i], (size_t)d->loads[m][i] + 8, out->insns)) {
				out->kaddr += (uint64_t)d->loads[m][i];
				break;
			}
		break;
	}
}
