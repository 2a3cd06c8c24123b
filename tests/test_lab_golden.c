/* Golden bytes of the codegen lab: each lab stub in the linked program equals
 * the listing written by hand (tests/data/lab_*.lst), byte for
 * byte with only movabs imm64 and call/jmp rel32 masked; the masked fields
 * then hold the right counter, batch_iters, frame pointer and targets. */
#include <inttypes.h>
#include <string.h>

#include "check.h"
#include "golden_check.h"
#include "stubbench/lab.h"
#include "stubbench/listing.h"
#include "stubbench/percpu.h"

int sb_lab_sub_ret(void), sb_lab_sub_rethunk(void), sb_lab_sub_calldepth(void);
int sb_x86_return_thunk(void), sb_call_depth_return_thunk(void);
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
	return ret == SB_LAB_RETHUNK ? (void *)sb_x86_return_thunk
	       : ret == SB_LAB_CALLDEPTH ? (void *)sb_call_depth_return_thunk : NULL;
}

/* A lab program against its listing. */
static void program(enum sb_lab_alt alt, enum sb_lab_return ret, int in_loop, const char *file)
{
	const struct sb_lab_info *li = find(alt, ret, in_loop);
	CHECK(li != NULL, "no lab variant %d/%d/%d", alt, ret, in_loop);
	if (!li)
		return;
	char sym[96];
	static const char *const asm_alt[] = {"baseline", "mainline", "reload", "callee", "spill",
					      "control"};
	snprintf(sym, sizeof(sym), "sb_lab_%s_%s_%s", asm_alt[alt], sb_lab_return_name(ret),
		 in_loop ? "inloop" : "perrun");
	struct expect e = {
		.area = li->area,
		.call = sub_of(ret),
		.jmp = thunk_of(ret),
		.n_calls = 3,
		/* setup once, and after each of the 3 calls for reload */
		.n_fp = alt == SB_LAB_BASELINE || alt == SB_LAB_PLACEMENT_CONTROL ? 0
		       : alt == SB_LAB_RELOAD ? 4 : 1,
	};
	if (in_loop) {
		e.rdi[0] = (const void *)li->variant->batch_iters;
		e.rdi[1] = (const void *)li->variant->counter;
	} else {
		e.rdi[0] = (const void *)li->variant->counter;
	}
	golden(sym, (const void *)li->program, file, &e);
	/* The registry's main: the program itself, or the accounting entry. */
	if (ret == SB_LAB_CALLDEPTH)
		CHECK((void *)li->variant->main != (void *)li->program, "%s: no entry", sym);
	else
		CHECK((void *)li->variant->main == (void *)li->program, "%s: main is not the program", sym);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_lab_golden DATA_DIR\n");
		return 2;
	}
	data_dir = argv[1];
	struct expect sub = {.n_calls = 0}, thunk = {.n_calls = 0};
	golden("sb_lab_sub_ret", (void *)sb_lab_sub_ret, "lab_sub_ret.lst", &sub);
	sub.jmp = (void *)sb_x86_return_thunk;
	golden("sb_lab_sub_rethunk", (void *)sb_lab_sub_rethunk, "lab_sub_rethunk.lst", &sub);
	sub.jmp = (void *)sb_call_depth_return_thunk;
	golden("sb_lab_sub_calldepth", (void *)sb_lab_sub_calldepth, "lab_sub_rethunk.lst", &sub);

	static const char *const perrun[] = {"lab_baseline_perrun.lst", "lab_mainline_perrun.lst",
					     "lab_reload_perrun.lst", "lab_callee_perrun.lst",
					     "lab_spill_perrun.lst", "lab_baseline_perrun.lst"};
	static const char *const inloop[] = {"lab_baseline_inloop.lst", "lab_mainline_inloop.lst",
					     "lab_reload_inloop.lst", "lab_callee_inloop.lst",
					     "lab_spill_inloop.lst", "lab_baseline_inloop.lst"};
	for (int a = 0; a < SB_LAB_N_ALTS; a++) {
		program(a, SB_LAB_RET, 0, perrun[a]);
		program(a, SB_LAB_RET, 1, inloop[a]);
	}
	/* The control has the baseline's bytes, at another address. */
	CHECK((void *)find(SB_LAB_PLACEMENT_CONTROL, SB_LAB_RET, 0)->program !=
		      (void *)find(SB_LAB_BASELINE, SB_LAB_RET, 0)->program,
	      "the placement control is the baseline itself");
	program(SB_LAB_MAINLINE, SB_LAB_RETHUNK, 0, "lab_mainline_rethunk_perrun.lst");
	program(SB_LAB_MAINLINE, SB_LAB_CALLDEPTH, 0, "lab_mainline_calldepth_perrun.lst");
	program(SB_LAB_SPILL_ONCE, SB_LAB_CALLDEPTH, 1, "lab_spill_calldepth_inloop.lst");
	program(SB_LAB_RELOAD, SB_LAB_CALLDEPTH, 1, "lab_reload_calldepth_inloop.lst");

	struct expect entry = {.jmp = (void *)find(SB_LAB_MAINLINE, SB_LAB_CALLDEPTH, 0)->program};
	golden("sb_lab_mainline_calldepth_perrun_entry", (void *)sb_lab_mainline_calldepth_perrun_entry,
	       "lab_calldepth_entry.lst", &entry);
	golden("sb_x86_return_thunk", (void *)sb_x86_return_thunk, "lab_return_thunk.lst", &thunk);
	CHECK(((uintptr_t)sb_x86_return_thunk & 63) >= 32,
	      "its_return_thunk must sit in the upper half of a cache line (%p)",
	      (void *)sb_x86_return_thunk);
	thunk.call = NULL; /* the RSB stuffing calls the next instruction + 1 */
	thunk.n_calls = 16;
	golden("sb_call_depth_return_thunk", (void *)sb_call_depth_return_thunk,
	       "lab_call_depth_return_thunk.lst", &thunk);
	return check_report("test_lab_golden");
}
