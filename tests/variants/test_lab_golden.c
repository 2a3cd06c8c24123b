/* Golden bytes of the codegen lab: each lab stub in the linked program equals
 * the listing written by hand (tests/data/lab_*.lst), byte for
 * byte with only movabs imm64 and call/jmp rel32 masked; the masked fields
 * then hold the right counter, batch_iters, frame pointer and targets. */
#include <inttypes.h>
#include <string.h>

#include "check.h"
#include "golden_check.h"
#include "variants/lab_variants.h"
#include "jit/listing.h"
#include "variants/percpu.h"

int sb_lab_sub_ret(void), sb_lab_sub_rethunk(void), sb_lab_sub_calldepth(void);
int sb_its_return_thunk(void), sb_call_depth_return_thunk(void);
int sb_lab_mainline_calldepth_perrun_entry(void);

static const char *data_dir;

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static int32_t rd32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }

struct expect {
	const void *rdi[2];      /* movabs rdi targets in order (batch_iters, hits) */
	const void *area;        /* area template: movabs r9/r12 hold its fp */
	const void *call;        /* every call goes there; NULL: call to next + 1 (thunk) */
	const void *jmp;         /* every jmp rel32 goes there */
	size_t n_calls, n_fp;
};

static const void *area_fp(const void *area)
{
	const struct sb_priv_area *areas;
	size_t n = sb_percpu_areas(&areas);
	for (size_t i = 0; i < n; i++)
		if (areas[i].area == (uintptr_t)area)
			return (const void *)areas[i].fp;
	return NULL;
}

static void check_fields(const char *sym, const uint8_t *code, const struct sb_listing *l,
			 const struct expect *e)
{
	size_t calls = 0, fps = 0, rdis = 0;
	const void *fp = e->area ? area_fp(e->area) : NULL;
	CHECK(!e->area || fp, "%s: area not recorded in sb_areas", sym);
	for (size_t i = 0; i < l->n; i++) {
		const struct sb_insn *in = &l->insns[i];
		const uint8_t *c = code + in->off;
		if (in->len == 10 && c[0] == 0x48 && c[1] == 0xbf) {
			CHECK(rdis < 2 && rd64(c + 2) == (uintptr_t)e->rdi[rdis],
			      "%s+%#zx: movabs rdi holds %#" PRIx64, sym, in->off, rd64(c + 2));
			rdis++;
		}
		if (in->len == 10 && c[0] == 0x49 && (c[1] == 0xb9 || c[1] == 0xbc)) {
			fps++;
			CHECK(rd64(c + 2) == (uintptr_t)fp, "%s+%#zx: movabs holds %#" PRIx64 ", fp %p",
			      sym, in->off, rd64(c + 2), fp);
		}
		if (in->len == 5 && c[0] == 0xe8) {
			calls++;
			const uint8_t *target = c + 5 + rd32(c + 1);
			const uint8_t *want = e->call ? e->call : c + 6;
			CHECK(target == want, "%s+%#zx: call goes to %p, not %p", sym, in->off,
			      (const void *)target, (const void *)want);
		}
		if (in->len == 5 && c[0] == 0xe9) {
			const uint8_t *target = c + 5 + rd32(c + 1);
			CHECK(target == (const uint8_t *)e->jmp, "%s+%#zx: jmp goes to %p, not %p", sym,
			      in->off, (const void *)target, e->jmp);
		}
	}
	size_t want_rdi = (e->rdi[0] != NULL) + (e->rdi[1] != NULL);
	CHECK(rdis == want_rdi, "%s: %zu movabs rdi, want %zu", sym, rdis, want_rdi);
	CHECK(fps == e->n_fp, "%s: %zu frame pointer setups, want %zu", sym, fps, e->n_fp);
	CHECK(calls == e->n_calls, "%s: %zu calls, want %zu", sym, calls, e->n_calls);
}

static void golden(const char *sym, const void *addr, const char *file, const struct expect *e)
{
	char why[768];
	struct sb_listing l;
	memset(&l, 0, sizeof(l));
	int ok = golden_check(data_dir, sym, addr, file, &l, why, sizeof(why)) == 0;
	CHECK(ok, "%s", why);
	if (ok) {
		check_fields(sym, addr, &l, e);
		printf("%-36s %3zu bytes, %2zu instructions match %s\n", sym, l.size, l.n, file);
	}
	if (l.insns)
		sb_listing_free(&l);
}

/* The lab info of one alternative / return / shape. */
static const struct sb_lab_info *find(enum sb_lab_alt alt, enum sb_lab_return ret, int in_loop)
{
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *li = sb_lab_at(i);
		if (li->alt == alt && li->ret == ret && li->in_loop == in_loop)
			return li;
	}
	return NULL;
}

static const void *sub_of(enum sb_lab_return ret)
{
	return ret == SB_LAB_RET ? (void *)sb_lab_sub_ret
	       : ret == SB_LAB_RETHUNK ? (void *)sb_lab_sub_rethunk : (void *)sb_lab_sub_calldepth;
}

static const void *thunk_of(enum sb_lab_return ret)
{
	return ret == SB_LAB_RETHUNK ? (void *)sb_its_return_thunk
	       : ret == SB_LAB_CALLDEPTH ? (void *)sb_call_depth_return_thunk : NULL;
}

/* A lab program against the listing its record names. */
static void program(const struct sb_lab_info *li)
{
	const struct sb_variant *v = li->variant;
	struct expect e = {
		.area = li->area,
		.call = sub_of(li->ret),
		.jmp = thunk_of(li->ret),
		.n_calls = 3,
		/* setup once, and after each of the 3 calls for reload */
		.n_fp = li->alt == SB_LAB_BASELINE || li->alt == SB_LAB_PLACEMENT_CONTROL ? 0
		       : li->alt == SB_LAB_RELOAD ? 4 : 1,
	};
	if (li->in_loop) {
		e.rdi[0] = (const void *)v->batch_iters;
		e.rdi[1] = (const void *)v->counter;
	} else {
		e.rdi[0] = (const void *)v->counter;
	}
	golden(v->symbol, (const void *)li->program, v->listing_file, &e);
	/* The registry's main: the program itself, or the accounting entry. */
	if (li->ret == SB_LAB_CALLDEPTH)
		CHECK((void *)v->main != (void *)li->program, "%s: no entry", v->symbol);
	else
		CHECK((void *)v->main == (void *)li->program, "%s: main is not the program", v->symbol);
}

/* The listing a function's record names. */
static const char *listing_of(const void *addr)
{
	for (size_t i = 0; i < sb_function_count(); i++)
		if (sb_function_at(i)->addr == addr && sb_function_at(i)->listing_file)
			return sb_function_at(i)->listing_file;
	CHECK(0, "function %p has no record with a listing", addr);
	return "none";
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_lab_golden DATA_DIR\n");
		return 2;
	}
	data_dir = argv[1];
	struct expect sub = {.n_calls = 0};
	golden("sb_lab_sub_ret", (void *)sb_lab_sub_ret, listing_of((void *)sb_lab_sub_ret), &sub);
	sub.jmp = (void *)sb_its_return_thunk;
	golden("sb_lab_sub_rethunk", (void *)sb_lab_sub_rethunk, listing_of((void *)sb_lab_sub_rethunk), &sub);
	sub.jmp = (void *)sb_call_depth_return_thunk;
	golden("sb_lab_sub_calldepth", (void *)sb_lab_sub_calldepth,
	       listing_of((void *)sb_lab_sub_calldepth), &sub);

	/* Every lab program whose record names a listing: all of the ret
	 * flavour, and some of the others. */
	size_t n_ret = 0, n_other = 0;
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *li = sb_lab_at(i);
		if (!li->variant->listing_file)
			continue;
		program(li);
		if (li->ret == SB_LAB_RET)
			n_ret++;
		else
			n_other++;
	}
	CHECK(n_ret == 2 * SB_LAB_N_ALTS, "%zu ret-flavour programs with listings, want every one", n_ret);
	CHECK(n_other >= 4, "%zu rethunk and call-depth programs with listings", n_other);
	/* The control has the baseline's bytes, at another address. */
	CHECK((void *)find(SB_LAB_PLACEMENT_CONTROL, SB_LAB_RET, 0)->program !=
		      (void *)find(SB_LAB_BASELINE, SB_LAB_RET, 0)->program,
	      "the placement control is the baseline itself");

	struct expect entry = {.jmp = (void *)find(SB_LAB_MAINLINE, SB_LAB_CALLDEPTH, 0)->program};
	golden("sb_lab_mainline_calldepth_perrun_entry", (void *)sb_lab_mainline_calldepth_perrun_entry,
	       listing_of((void *)sb_lab_mainline_calldepth_perrun_entry), &entry);
	return check_report("test_lab_golden");
}
