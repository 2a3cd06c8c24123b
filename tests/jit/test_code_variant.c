/* Variants made at run time from bytes (code_variant.h): a variant made
 * from a replica's own functions is the same code, calls its own copy of
 * the subprog, runs like the replica and can be placed like it; a rewrite
 * of one instruction shows up where it was made; bad input is refused. */
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "base/code_symbols.h"
#include "jit/code_variant.h"
#include "jit/decode.h"
#include "jit/listing.h"
#include "variants/percpu.h"
#include "base/perf_map.h"
#include "jit/placement.h"
#include "stubbench/registry.h"

static uintptr_t call_target(const uint8_t *c)
{
	int32_t rel;
	memcpy(&rel, c + 1, 4);
	return (uintptr_t)c + 5 + rel;
}

static void remade(const char *vname)
{
	const struct sb_variant *v = sb_variant_find(vname);
	CHECK(v != NULL, "no variant %s", vname);
	if (!v)
		return;
	struct sb_code_func f[SB_CODE_VARIANT_MAX_FUNCS];
	char err[512], where[256];
	long n = sb_code_variant_funcs_of(v, f, SB_CODE_VARIANT_MAX_FUNCS, err, sizeof(err));
	CHECK(n == 2, "%s: %ld functions (%s)", vname, n, err);
	if (n < 1)
		return;
	struct sb_code_variant cv;
	char name[64];
	snprintf(name, sizeof(name), "%s.remade", vname);
	int rc = sb_code_variant_make(v, name, NULL, f, (size_t)n, &cv, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", vname, err);
	if (rc)
		return;
	CHECK(strcmp(cv.v.name, name) == 0 && cv.v.counter == v->counter && cv.v.area == v->area,
	      "%s: the record is not the template's", vname);
	CHECK(sb_code_function_size(cv.addr[0], NULL) == f[0].len, "%s: no symbol for the made code", vname);
	for (long i = 0; i < n; i++) {
		struct sb_listing orig;
		CHECK(sb_jit_decode(f[i].code, f[i].len, "orig", &orig, err, sizeof(err)) == 0, "%s", err);
		CHECK(sb_listing_compare(&orig, (const uint8_t *)cv.addr[i], cv.len[i], where, sizeof(where)) == -1,
		      "%s function %ld: %s", vname, i, where);
		/* Calls between the variant's functions go to the made copies,
		 * every other target stays where it was. */
		for (size_t k = 0; k < orig.n; k++) {
			if (orig.insns[k].len != 5 || orig.insns[k].bytes[0] != 0xe8)
				continue;
			uintptr_t was = call_target(f[i].code + orig.insns[k].off);
			uintptr_t now = call_target((const uint8_t *)cv.addr[i] + orig.insns[k].off);
			uintptr_t want = was == f[1].origin ? cv.addr[1] : was;
			CHECK(now == want, "%s: call at +%#zx goes to %#lx, want %#lx", vname, orig.insns[k].off,
			      (unsigned long)now, (unsigned long)want);
		}
		sb_listing_free(&orig);
	}
	uint64_t before = *v->counter;
	for (int k = 0; k < 1000; k++)
		CHECK(cv.v.main() == 0, "%s: returned non-zero", vname);
	CHECK(*v->counter - before == 1000, "%s: counter +%llu", vname, (unsigned long long)(*v->counter - before));

	/* Placed like a replica: two functions, the bytes again, runs. */
	struct sb_rng rng;
	sb_rng_seed(&rng, 3);
	struct sb_place_policy random = {.rng = &rng};
	struct sb_placed_variant p;
	rc = sb_place(&cv.v, &random, 0, &p, err, sizeof(err));
	CHECK(rc == 0 && p.n_funcs == (size_t)n, "%s: placed %d, %zu functions: %s", vname, rc, p.n_funcs, err);
	if (rc == 0) {
		before = *v->counter;
		p.v.main();
		CHECK(*v->counter - before == 1, "%s: the placed copy did not run", vname);
		sb_place_free(&p);
	}
	sb_code_variant_free(&cv);
	CHECK(sb_code_function_size(cv.addr[0], NULL) == 0, "%s: symbol left after free", vname);
}

/* A variant with one instruction rewritten: the main prog's first
 * instruction made one-byte NOPs shows there, and the rest is unchanged. */
static void rewritten(void)
{
	const struct sb_variant *v = sb_variant_find("baseline");
	struct sb_code_func f[SB_CODE_VARIANT_MAX_FUNCS];
	char err[512];
	long n = sb_code_variant_funcs_of(v, f, SB_CODE_VARIANT_MAX_FUNCS, err, sizeof(err));
	if (n < 1)
		return;
	uint8_t copy[4096];
	CHECK(f[0].len <= sizeof(copy), "main prog of %zu bytes", f[0].len);
	memcpy(copy, f[0].code, f[0].len);
	struct sb_listing l;
	CHECK(sb_jit_decode(copy, f[0].len, "baseline", &l, err, sizeof(err)) == 0 && l.n > 1, "%s", err);
	size_t first = l.insns[0].len;
	sb_listing_free(&l);
	memset(copy, 0x90, first);
	f[0].code = copy;
	struct sb_code_variant cv;
	int rc = sb_code_variant_make(v, "baseline.nop0", "first instruction NOPs", f, (size_t)n, &cv, err, sizeof(err));
	CHECK(rc == 0, "%s", err);
	if (rc)
		return;
	const uint8_t *made = (const uint8_t *)cv.addr[0];
	size_t nops = 0;
	while (nops < f[0].len && made[nops] == 0x90)
		nops++;
	CHECK(nops == first, "%zu NOPs made, %zu written", nops, first);
	CHECK(made[first] == copy[first], "the code after the rewrite moved");
	CHECK(strcmp(cv.v.description, "first instruction NOPs") == 0, "description %s", cv.v.description);
	sb_code_variant_free(&cv);
}

static void refused(void)
{
	const struct sb_variant *v = sb_variant_find("baseline");
	struct sb_code_variant cv;
	char err[256] = "";
	CHECK(sb_code_variant_make(v, "none", NULL, NULL, 0, &cv, err, sizeof(err)) == -1 && strstr(err, "none"),
	      "no functions accepted: %s", err);
	/* A short jump out of its function cannot be moved. */
	static const uint8_t out[] = {0xeb, 0x7f, 0xc3};
	struct sb_code_func f = {out, sizeof(out), (uintptr_t)out, NULL};
	err[0] = '\0';
	CHECK(sb_code_variant_make(v, "jumps-out", NULL, &f, 1, &cv, err, sizeof(err)) == -1 && strstr(err, "jumps-out"),
	      "a short jump out accepted: %s", err);
	struct sb_code_func empty = {out, 0, (uintptr_t)out, NULL};
	CHECK(sb_code_variant_make(v, "empty", NULL, &empty, 1, &cv, err, sizeof(err)) == -1, "empty code accepted");
}

int main(void)
{
	char err[256];
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "test_code_variant: %s\n", err);
		return 1;
	}
	remade("baseline");
	remade("private");
	remade("hybrid");
	rewritten();
	refused();
	unlink(sb_perf_map_path());
	return check_report("code_variant");
}
