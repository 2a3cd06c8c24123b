/* Footprint copies: how many, where (packed back to back in 64-byte
 * chunks, spread one per 4 KiB page), that each is the original's bytes
 * but for the re-aimed rel32 of calls and jumps, and that the round-robin
 * loop calls every copy in turn. Footprint's report on known cells: the
 * delta in cycles, the members it adds to the common JSON, its table. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "footprint/footprint.h"
#include "stubbench/estimate.h"
#include "footprint/footprint_report.h"
#include "harness/harness.h"
#include "output/output.h"
#include "output/reporter.h"
#include "jit/decode.h"
#include "jit/listing.h"
#include "stubbench/timer.h"
#include "stubbench/registry.h"

int sb_test_fp_probe(void);
extern uint64_t sb_test_fp_log[];
extern volatile uint64_t sb_test_fp_calls;

static const struct sb_variant probe = {
	.name = "fp-probe",
	.seed_name = "fp-probe",
	.shape = "per-run",
	.main = sb_test_fp_probe,
	.counter = &sb_test_fp_calls,
};

/* Which original function holds addr, or -1. */
static long func_of(const struct sb_fp_copies *fc, uintptr_t addr)
{
	for (size_t f = 0; f < fc->n_funcs; f++)
		if (addr >= fc->old_addr[f] && addr < fc->old_addr[f] + fc->len[f])
			return (long)f;
	return -1;
}

/* Copy c is the original byte for byte, except the rel32 of call/jmp
 * leaving its function: into a function of the variant it lands at the
 * same place in this copy's function, elsewhere (return thunks) at the same
 * address as the original's. */
static void same_bytes(const struct sb_fp_copies *fc, size_t c)
{
	for (size_t f = 0; f < fc->n_funcs; f++) {
		const uint8_t *orig = (const uint8_t *)fc->old_addr[f];
		const uint8_t *copy = (const uint8_t *)sb_fp_func_addr(fc, c, f);
		struct sb_listing l;
		char err[256];
		CHECK(sb_jit_decode(orig, fc->len[f], "orig", &l, err, sizeof(err)) == 0, "%s", err);
		uint8_t *masked = calloc(fc->len[f], 1);
		memcpy(masked, copy, fc->len[f]);
		for (size_t i = 0; i < l.n; i++) {
			const struct sb_insn *in = &l.insns[i];
			if (in->len != 5 || (in->bytes[0] != 0xe8 && in->bytes[0] != 0xe9))
				continue;
			int32_t ro, rc;
			memcpy(&ro, orig + in->off + 1, 4);
			memcpy(&rc, copy + in->off + 1, 4);
			uintptr_t to = fc->old_addr[f] + in->off + 5 + (intptr_t)ro;
			uintptr_t tc = (uintptr_t)copy + in->off + 5 + (intptr_t)rc;
			long g = func_of(fc, to);
			uintptr_t want = g < 0 ? to : sb_fp_func_addr(fc, c, (size_t)g) + (to - fc->old_addr[g]);
			CHECK(tc == want, "%s copy %zu function %zu +%#zx: rel32 goes to %#lx, want %#lx", fc->original->name,
			      c, f, in->off, (unsigned long)tc, (unsigned long)want);
			memcpy(masked + in->off + 1, orig + in->off + 1, 4);
		}
		CHECK(memcmp(masked, orig, fc->len[f]) == 0, "%s copy %zu function %zu: bytes differ beyond rel32",
		      fc->original->name, c, f);
		free(masked);
		sb_listing_free(&l);
	}
}

static void layout_exact(const struct sb_fp_copies *fc, size_t n, enum sb_fp_layout layout)
{
	CHECK(fc->n_copies == n, "%zu copies, want %zu", fc->n_copies, n);
	size_t off = 0;
	for (size_t f = 0; f < fc->n_funcs; f++) {
		CHECK(fc->func_off[f] == off, "function %zu at +%zu in a copy, want +%zu", f, fc->func_off[f], off);
		off += (fc->len[f] + SB_FP_CHUNK - 1) / SB_FP_CHUNK * SB_FP_CHUNK;
	}
	CHECK(fc->copy_size == off, "copy of %zu bytes, want %zu", fc->copy_size, off);
	uintptr_t base = (uintptr_t)fc->mem;
	for (size_t c = 0; c < n; c++) {
		if (layout == SB_FP_PACKED) {
			CHECK(fc->start[c] == base + c * fc->copy_size, "packed copy %zu at +%#lx, want +%#lx", c,
			      (unsigned long)(fc->start[c] - base), (unsigned long)(c * fc->copy_size));
		} else {
			uintptr_t page = base + c * SB_FP_PAGE;
			CHECK(fc->start[c] >= page && fc->start[c] + fc->copy_size <= page + SB_FP_PAGE,
			      "spread copy %zu at +%#lx is not inside page %zu", c, (unsigned long)(fc->start[c] - base), c);
		}
		CHECK(fc->mains[c] == (sb_stub_fn)sb_fp_func_addr(fc, c, 0), "copy %zu: table entry is not its main", c);
	}
	if (layout == SB_FP_PACKED)
		CHECK(base % SB_FP_PACK == 0 && fc->mem_len % SB_FP_PACK == 0, "packed region not in whole 2 MiB packs");
	else
		CHECK(fc->mem_len == n * SB_FP_PAGE, "spread region of %zu bytes for %zu copies", fc->mem_len, n);
}


/* Occurrences of needle in hay. */
static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* What f wrote (open_memstream), NUL-terminated; the caller frees it. */
static char *written(void (*write)(FILE *, const void *), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return strdup("");
	write(f, ctx);
	fclose(f);
	return buf;
}

static const struct sb_fp_report *report_of;

static void json_of(FILE *f, const void *ctx)
{
	const struct sb_output_meta *m = ctx;
	sb_output_write(f, sb_reporter_for("json"), report_of->res, m);
}

static void table_of(FILE *f, const void *ctx) { sb_fp_report_table(f, ctx); }

/* Four known cells: packed x10 baseline (40 cycles per call) and private
 * (+5 %, CI +2.5 to +10 %); spread x10 baseline without samples and
 * private with a delta whose baseline has none. */
static void report_checks(void)
{
	static const char *names[4] = {"twin-per-run-baseline@packed/10", "twin-per-run-private@packed/10",
				       "twin-per-run-baseline@spread/10", "twin-per-run-private@spread/10"};
	struct sb_arm arms[4];
	struct sb_cell cells[4];
	memset(arms, 0, sizeof(arms));
	memset(cells, 0, sizeof(cells));
	struct sb_fp_cell_key keys[4];
	for (size_t i = 0; i < 4; i++) {
		arms[i] = (struct sb_arm){.name = names[i], .seed_name = names[i], .is_baseline = i % 2 == 0,
					  .code_bytes = 192};
		cells[i] = (struct sb_cell){.arm = &arms[i], .batch = 2048, .n_samples = 100};
		cells[i].cycles = (struct sb_summary){.n = 100, .mean = 40 + (double)i, .ci_lo = 39, .ci_hi = 41};
		cells[i].n_modes = 1;
		keys[i] = (struct sb_fp_cell_key){i % 2 ? "twin-per-run-private" : "twin-per-run-baseline",
						  i < 2 ? SB_FP_PACKED : SB_FP_SPREAD, 10, i < 2 ? 0 : 2};
	}
	cells[0].cycles.mean = 40;
	cells[1].delta_pct = sb_estimate_of(5, 2.5, 10);
	cells[3].delta_pct = sb_estimate_of(1, 0, 2);
	cells[2].n_samples = 0;
	snprintf(cells[2].no_samples, sizeof(cells[2].no_samples), "every block disturbed");
	struct sb_results res = {.cells = cells, .n_cells = 4, .n_batches = 1, .cpu = 1};
	snprintf(res.cpu_desc, sizeof(res.cpu_desc), "test machine");
	struct sb_fp_report rep = {&res, keys, "packed copies on 4 KiB pages\nspread copies on 4 KiB pages\n",
				   "/tmp/perf-1.map"};
	double d = 0, lo = 0, hi = 0;
	CHECK(sb_fp_delta_cycles(&rep, 1, &d, &lo, &hi) == 1 && fabs(d - 2.0) < 1e-9 && fabs(lo - 1.0) < 1e-9 &&
	      fabs(hi - 4.0) < 1e-9,
	      "private's delta: %g [%g, %g], want 2 [1, 4] (5 %% of 40)", d, lo, hi);
	CHECK(sb_fp_delta_cycles(&rep, 0, &d, &lo, &hi) == 0, "the baseline has a delta");
	CHECK(sb_fp_delta_cycles(&rep, 3, &d, &lo, &hi) == 0, "a delta against a baseline without samples");

	struct sb_output_meta meta = {.tool = "stubbench footprint", .version = "test",
				      .members = sb_fp_report_run_members,
				      .result_members = sb_fp_report_cell_members, .members_ctx = &rep};
	report_of = &rep;
	char *json = written(json_of, &meta);
	CHECK(strstr(json, "\"schema_version\": 4,") && count_of(json, "\"results\": [") == 1,
	      "the common document: %.200s", json);
	CHECK(count_of(json, "\"footprint\": {\"variant\": ") == 4, "a footprint object per result: %s", json);
	CHECK(strstr(json, "\"footprint\": {\"variant\": \"twin-per-run-private\", \"layout\": \"packed\", "
			   "\"copies\": 10, \"baseline\": \"twin-per-run-baseline\", \"delta_cycles\": 2, "
			   "\"delta_ci95_cycles\": [1, 4]}}"),
	      "private's footprint object: %s", json);
	CHECK(strstr(json, "\"no_samples_reason\": \"every block disturbed\",\n     \"footprint\": {\"variant\": "
			   "\"twin-per-run-baseline\", \"layout\": \"spread\", \"copies\": 10, "
			   "\"baseline\": \"twin-per-run-baseline\"}}"),
	      "the footprint object of a cell without samples: %s", json);
	CHECK(count_of(json, "delta_cycles") == 1, "delta_cycles where there is none: %s", json);
	CHECK(strstr(json, "\"footprint_run\": {\"unit\": \"core cycles per call\", \"baseline\": "
			   "\"twin-per-run-baseline\", \"layouts\": [\"packed\", \"spread\"], \"copies\": [10],\n"
			   "    \"pages\": [\"packed copies on 4 KiB pages\", \"spread copies on 4 KiB pages\"], "
			   "\"perf_map\": \"/tmp/perf-1.map\"}\n}\n"),
	      "footprint_run: %s", json);
	free(json);

	char *table = written(table_of, &rep);
	CHECK(strstr(table, "packed        10  twin-per-run-private         41.00  [39.00, 41.00]       "
			    "+2.00 [+1.00, +4.00]\n"), "table, private packed: %s", table);
	CHECK(strstr(table, "spread        10  twin-per-run-baseline     n/a: every block disturbed\n"),
	      "table, a cell without samples: %s", table);
	CHECK(count_of(table, "\n") == 8, "table: 4 header lines and 4 rows: %s", table);
	free(table);
}

int main(void)
{
	report_checks();
	struct sb_rng rng;
	sb_rng_seed(&rng, 7);
	char err[512];
	const size_t ns[] = {1, 37, 300};
	for (int l = 0; l < SB_FP_N_LAYOUTS; l++)
		for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
			size_t n = ns[k];
			struct sb_fp_copies fc;
			CHECK(sb_fp_make(&probe, n, l, &rng, &fc, err, sizeof(err)) == 0, "%s", err);
			if (!fc.mem)
				continue;
			CHECK(fc.n_funcs == 1, "probe: %zu functions, want 1", fc.n_funcs);
			layout_exact(&fc, n, l);
			for (size_t c = 0; c < n; c++)
				same_bytes(&fc, c);
			/* Packed: one line saying what pages the region got, and
			 * "4 KiB pages" in it exactly when no huge page was given. */
			if (l == SB_FP_PACKED)
				CHECK(fc.pages_note[0] && (fc.pages == SB_FP_PAGES_4K) == (strstr(fc.pages_note, "4 KiB pages") != NULL),
				      "pages %d, note '%s'", (int)fc.pages, fc.pages_note);
			else
				CHECK(fc.pages == SB_FP_PAGES_4K && !fc.pages_note[0], "spread copies on %d pages", (int)fc.pages);
			/* Round-robin: 3n + 5 calls from copy 0 reach copy i % n
			 * at call i, and leave the cursor at (3n + 5) % n. */
			sb_test_fp_log[0] = 0;
			uint64_t calls0 = sb_test_fp_calls;
			uint64_t cursor = 0, calls = 3 * n + 5;
			sb_time_round_robin(fc.mains, n, &cursor, calls);
			CHECK(sb_test_fp_log[0] == calls, "%llu calls logged, want %llu", (unsigned long long)sb_test_fp_log[0],
			      (unsigned long long)calls);
			CHECK(sb_test_fp_calls - calls0 == calls, "counter advanced by %llu",
			      (unsigned long long)(sb_test_fp_calls - calls0));
			CHECK(cursor == calls % n, "cursor %llu, want %llu", (unsigned long long)cursor,
			      (unsigned long long)(calls % n));
			size_t wrong = 0;
			for (uint64_t i = 0; i < calls; i++)
				wrong += sb_test_fp_log[1 + i] != (uint64_t)fc.start[i % n] + 5;
			CHECK(wrong == 0, "%s, %zu copies: %zu calls ran another copy than the next in turn",
			      sb_fp_layout_name(l), n, wrong);
			sb_fp_free(&fc);
		}

	/* A real variant: main prog and subprog, return thunk shared. */
	const struct sb_variant *twin = sb_variant_find("twin-per-run-private");
	CHECK(twin != NULL, "no twin-per-run-private in the registry");
	if (twin) {
		for (int l = 0; l < SB_FP_N_LAYOUTS; l++) {
			struct sb_fp_copies fc;
			CHECK(sb_fp_make(twin, 50, l, &rng, &fc, err, sizeof(err)) == 0, "%s", err);
			if (!fc.mem)
				continue;
			CHECK(fc.n_funcs == 2, "%s: %zu functions copied, want main prog and subprog", twin->name, fc.n_funcs);
			layout_exact(&fc, 50, l);
			for (size_t c = 0; c < 50; c++)
				same_bytes(&fc, c);
			sb_fp_free(&fc);
		}
	}

	/* A group: baseline and private twins interleaved in one region,
	 * copy c of variant g in slot 2c + g. */
	const struct sb_variant *pair[2] = {sb_variant_find("twin-per-run-baseline"), twin};
	CHECK(pair[0] != NULL, "no twin-per-run-baseline in the registry");
	if (pair[0] && twin) {
		for (int l = 0; l < SB_FP_N_LAYOUTS; l++) {
			struct sb_fp_copies g[2];
			CHECK(sb_fp_make_group(pair, 2, 20, l, &rng, g, err, sizeof(err)) == 0, "%s", err);
			if (!g[0].mem)
				continue;
			size_t slot = l == SB_FP_SPREAD ? SB_FP_PAGE
							: (g[0].copy_size > g[1].copy_size ? g[0].copy_size : g[1].copy_size);
			CHECK(g[0].slot == slot && g[1].slot == slot && !g[1].mem && g[1].region == (uintptr_t)g[0].mem,
			      "group: slot %zu/%zu, want %zu; one region", g[0].slot, g[1].slot, slot);
			for (size_t c = 0; c < 20; c++)
				for (int k = 0; k < 2; k++) {
					uintptr_t want = g[0].region + (2 * c + (size_t)k) * slot;
					int ok = l == SB_FP_PACKED ? g[k].start[c] == want
								   : g[k].start[c] >= want &&
									     g[k].start[c] + g[k].copy_size <= want + SB_FP_PAGE;
					CHECK(ok, "%s group: copy %zu of variant %d at +%#lx, slot at +%#lx", sb_fp_layout_name(l),
					      c, k, (unsigned long)(g[k].start[c] - g[0].region),
					      (unsigned long)(want - g[0].region));
					same_bytes(&g[k], c);
				}
			sb_fp_free(&g[1]);
			sb_fp_free(&g[0]);
		}
	}

	/* Bad input and limits: one clear line each. */
	int want[SB_FP_N_LAYOUTS];
	CHECK(sb_fp_layout_parse("packed,spread", want, err, sizeof(err)) == 0 && want[0] && want[1], "both layouts");
	CHECK(sb_fp_layout_parse("spread", want, err, sizeof(err)) == 0 && !want[0] && want[1], "spread alone");
	CHECK(sb_fp_layout_parse("dense", want, err, sizeof(err)) == -1 && strstr(err, "unknown layout 'dense'"),
	      "bad layout: %s", err);
	struct sb_fp_copies big;
	CHECK(sb_fp_make(&probe, 300000, SB_FP_SPREAD, &rng, &big, err, sizeof(err)) == -1 &&
	      strstr(err, "more than 1024 MiB"), "over 1 GiB: %s", err);
	const struct sb_variant *in_loop = sb_variant_find("twin-in-loop-private");
	CHECK(in_loop && sb_fp_make(in_loop, 2, SB_FP_PACKED, &rng, &big, err, sizeof(err)) == -1 &&
	      strstr(err, "in-loop"), "in-loop variant: %s", err);
	return check_report("footprint");
}
