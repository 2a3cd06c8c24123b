/* Golden bytes: each replica's symbol in the linked program equals the seed
 * listing it copies, byte for byte, with only imm64 and rel32 masked; the
 * masked fields then hold the right addresses. */
#include <inttypes.h>
#include <string.h>

#include "check.h"
#include "golden_check.h"
#include "stubbench/listing.h"
#include "stubbench/percpu.h"
#include "stubbench/seed001.h"

static const char *data_dir;

struct golden {
	const char *symbol;
	void *addr;
	const char *listing; /* file in tests/data */
};

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static int32_t rd32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }

/* Checks the addresses the masked fields hold: movabs rdi -> counter,
 * movabs r9 -> the area's frame pointer, calls -> the subprog. */
static void check_fields(const char *sym, const uint8_t *code, const struct sb_listing *l,
			 const void *counter, const void *area_fp, const void *callee)
{
	size_t calls = 0, r9 = 0, rdi = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct sb_insn *in = &l->insns[i];
		const uint8_t *c = code + in->off;
		if (in->len == 10 && c[0] == 0x48 && c[1] == 0xbf) {
			rdi++;
			CHECK(rd64(c + 2) == (uintptr_t)counter, "%s: movabs rdi holds %#" PRIx64, sym, rd64(c + 2));
		}
		if (in->len == 10 && c[0] == 0x49 && c[1] == 0xb9) {
			r9++;
			CHECK(rd64(c + 2) == (uintptr_t)area_fp, "%s: movabs r9 holds %#" PRIx64 ", area fp %p",
			      sym, rd64(c + 2), area_fp);
		}
		if (in->len == 5 && c[0] == 0xe8) {
			calls++;
			const uint8_t *target = c + 5 + rd32(c + 1);
			CHECK(target == (const uint8_t *)callee, "%s: call at %#zx goes to %p, not %p", sym,
			      in->off, (const void *)target, callee);
		}
	}
	CHECK(rdi == (counter ? 1u : 0u), "%s: %zu movabs rdi", sym, rdi);
	CHECK(r9 == (area_fp ? 1u : 0u), "%s: %zu movabs r9", sym, r9);
	CHECK(calls == (callee ? 3u : 0u), "%s: %zu calls", sym, calls);
}

static void golden(const char *sym, void *addr, const char *file, const void *counter,
		   const char *area, const void *callee)
{
	char why[768];
	struct sb_listing l;
	memset(&l, 0, sizeof(l));
	int ok = golden_check(data_dir, sym, addr, file, &l, why, sizeof(why)) == 0;
	CHECK(ok, "%s", why);
	if (ok) {
		const void *fp = NULL;
		if (area) {
			const struct sb_priv_area *areas;
			size_t n = sb_percpu_areas(&areas);
			for (size_t i = 0; i < n; i++)
				if (areas[i].area == (uintptr_t)area)
					fp = (const void *)areas[i].fp;
			CHECK(fp != NULL, "%s: area not recorded in sb_areas", sym);
		}
		check_fields(sym, addr, &l, counter, fp, callee);
		printf("%-28s %3zu bytes, %2zu instructions match %s\n", sym, l.size, l.n, file);
	}
	if (l.insns)
		sb_listing_free(&l);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_golden DATA_DIR\n");
		return 2;
	}
	data_dir = argv[1];
	golden("sb_seed001_baseline_sub", (void *)sb_seed001_baseline_sub,
	       "seed001_baseline_sub.lst", NULL, NULL, NULL);
	golden("sb_seed001_baseline_main", (void *)sb_seed001_baseline_main,
	       "seed001_baseline_main.lst", (void *)&sb_seed001_baseline_hits, NULL,
	       (void *)sb_seed001_baseline_sub);
	golden("sb_seed001_private_sub", (void *)sb_seed001_private_sub,
	       "seed001_private_sub.lst", NULL, sb_seed001_private_sub_area, NULL);
	golden("sb_seed001_private_main", (void *)sb_seed001_private_main,
	       "seed001_private_main.lst", (void *)&sb_seed001_private_hits,
	       sb_seed001_private_main_area, (void *)sb_seed001_private_sub);
	/* The hybrid is the private main prog's code calling the baseline subprog. */
	golden("sb_seed001_hybrid_main", (void *)sb_seed001_hybrid_main,
	       "seed001_private_main.lst", (void *)&sb_seed001_hybrid_hits,
	       sb_seed001_hybrid_main_area, (void *)sb_seed001_baseline_sub);
	return check_report("test_golden");
}
