/* Golden bytes of every declared function: each variant's program, and each
 * recorded function (subprogs, thunks, entries, twin functions), that names
 * a listing equals it byte for byte in the linked program, with only imm64
 * and rel32 masked; the masked fields then hold what the record says:
 *   movabs imm64  a variant: its counter, batch_iters or its area's frame
 *                 pointer, each of those at least once; a function: its
 *                 area's frame pointer in r9/r12
 *   call rel32    the record's callee (no callee: the next instruction + 1,
 *                 the RSB stuffing of a return thunk)
 *   jmp rel32     the variant's return thunk, the function's jump target
 * The listing files and expectations come from the registry (the asm
 * records), so a new variant is checked as soon as it is declared.
 * usage: test_golden DATA_DIR [VARIANT]   (VARIANT: only that variant, which
 * must name a listing) */
#include <inttypes.h>
#include <string.h>

#include "check.h"
#include "golden_check.h"
#include "jit/listing.h"
#include "variants/percpu.h"
#include "stubbench/registry.h"

static const char *data_dir;

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static int32_t rd32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }

/* What the masked fields of one function must hold. */
struct expect {
	const void *imm[3];     /* movabs values allowed (counter, batch_iters, fp) */
	int imm_required;       /* each non-NULL imm[] must appear */
	int imm_any_reg;        /* 0: check only movabs r9/r12 (functions) */
	const void *callee;     /* calls go there; NULL: next instruction + 1 */
	const void *jmp;        /* jmp rel32 go there */
};

static const void *area_fp(const char *sym, const void *area)
{
	if (!area)
		return NULL;
	const struct sb_priv_area *areas;
	size_t n = sb_percpu_areas(&areas);
	for (size_t i = 0; i < n; i++)
		if (areas[i].area == (uintptr_t)area)
			return (const void *)areas[i].fp;
	CHECK(0, "%s: area %p not recorded in sb_areas", sym, area);
	return NULL;
}

static void check_fields(const char *sym, const uint8_t *code, const struct sb_listing *l,
			 const struct expect *e)
{
	int seen[3] = {0, 0, 0};
	for (size_t i = 0; i < l->n; i++) {
		const struct sb_insn *in = &l->insns[i];
		const uint8_t *c = code + in->off;
		int movabs = in->len == 10 && (c[0] == 0x48 || c[0] == 0x49) && c[1] >= 0xb8 && c[1] <= 0xbf;
		int fp_reg = movabs && c[0] == 0x49 && (c[1] == 0xb9 || c[1] == 0xbc);
		if (movabs && (e->imm_any_reg || fp_reg)) {
			int ok = 0;
			for (int k = 0; k < 3; k++)
				if (e->imm[k] && rd64(c + 2) == (uintptr_t)e->imm[k])
					ok = seen[k] = 1;
			CHECK(ok, "%s+%#zx: movabs holds %#" PRIx64 ", none of the record's addresses", sym,
			      in->off, rd64(c + 2));
		}
		if (in->len == 5 && c[0] == 0xe8) {
			const uint8_t *target = c + 5 + rd32(c + 1);
			const uint8_t *want = e->callee ? e->callee : c + 6;
			CHECK(target == want, "%s+%#zx: call goes to %p, not %p", sym, in->off,
			      (const void *)target, (const void *)want);
		}
		if (in->len == 5 && c[0] == 0xe9) {
			const uint8_t *target = c + 5 + rd32(c + 1);
			CHECK(e->jmp && target == (const uint8_t *)e->jmp, "%s+%#zx: jmp goes to %p, not %p",
			      sym, in->off, (const void *)target, e->jmp);
		}
	}
	if (e->imm_required)
		for (int k = 0; k < 3; k++)
			CHECK(!e->imm[k] || seen[k], "%s: no movabs of the record's address %p", sym,
			      e->imm[k]);
}

/* One function against its listing; returns its size, 0 when it differs. */
static size_t golden(const char *sym, const void *addr, const char *file, const struct expect *e)
{
	char why[768];
	struct sb_listing l;
	memset(&l, 0, sizeof(l));
	int ok = golden_check(data_dir, sym, addr, file, &l, why, sizeof(why)) == 0;
	CHECK(ok, "%s", why);
	size_t size = ok ? l.size : 0;
	if (ok) {
		check_fields(sym, addr, &l, e);
		printf("%-40s %3zu bytes, %2zu instructions match %s\n", sym, l.size, l.n, file);
	}
	if (l.insns)
		sb_listing_free(&l);
	return size;
}

static void check_variant(const struct sb_variant *v)
{
	struct expect e = {
		.imm = {(const void *)v->counter, (const void *)v->batch_iters, area_fp(v->name, v->area)},
		.imm_required = 1,
		.imm_any_reg = 1,
		.callee = v->callee,
		.jmp = v->return_thunk,
	};
	size_t size = golden(v->symbol, (const void *)v->program, v->listing_file, &e);
	CHECK(!size || size == v->code_bytes, "%s: record says %u code bytes, listing %zu", v->name,
	      v->code_bytes, size);
	CHECK(v->counter != NULL, "%s: no counter", v->name);
	CHECK(strcmp(v->shape, "in-loop") == 0 ? v->batch_iters != NULL : v->batch_iters == NULL,
	      "%s: %s shape with batch_iters %p", v->name, v->shape, (const void *)v->batch_iters);
}

static void check_function(const struct sb_function *f)
{
	struct expect e = {
		.imm = {area_fp(f->name, f->area)},
		.callee = f->callee,
		.jmp = f->jmp_target,
	};
	golden(f->name, f->addr, f->listing_file, &e);
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: test_golden DATA_DIR [VARIANT]\n");
		return 2;
	}
	data_dir = argv[1];
	size_t variants = 0, functions = 0;
	if (argc == 3) {
		const struct sb_variant *v = sb_variant_find(argv[2]);
		CHECK(v && v->listing_file, "%s: not a variant with a listing file", argv[2]);
		if (v && v->listing_file) {
			check_variant(v);
			variants++;
		}
	} else {
		for (size_t i = 0; i < sb_variant_count(); i++)
			if (sb_variant_at(i)->listing_file) {
				check_variant(sb_variant_at(i));
				variants++;
			}
		for (size_t i = 0; i < sb_function_count(); i++)
			if (sb_function_at(i)->listing_file) {
				check_function(sb_function_at(i));
				functions++;
			}
		/* the seed replicas and their subprogs are all there */
		CHECK(variants >= 3 && functions >= 2, "%zu variants, %zu functions with listings",
		      variants, functions);
	}
	printf("%zu variants and %zu functions against their listings\n", variants, functions);
	return check_report("test_golden");
}
