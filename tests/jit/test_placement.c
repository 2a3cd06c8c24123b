/* Random code placement: the copies are the same code at other addresses,
 * calling their own copies of the subprogs, and behave like the original;
 * the summary across placements is exact on known cells. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "jit/decode.h"
#include "jit/listing.h"
#include "variants/percpu.h"
#include "base/perf_map.h"
#include "base/code_symbols.h"
#include "jit/placement.h"
#include "jit/placement_stats.h"
#include "stubbench/stats.h"
#include "variants/seed001.h"
#include "stubbench/registry.h"

uint64_t sb_probe_call_capture_r9(sb_stub_fn fn, uint64_t sentinel);

static void same_code(const struct sb_placed_variant *p)
{
	for (size_t f = 0; f < p->n_funcs; f++) {
		struct sb_listing orig;
		char err[256], where[256];
		CHECK(sb_jit_decode((const uint8_t *)p->old_addr[f], p->len[f], "orig", &orig, err,
				    sizeof(err)) == 0, "%s", err);
		/* Equal but for call targets (rel32 masked). */
		CHECK(sb_listing_compare(&orig, (const uint8_t *)p->new_addr[f], p->len[f], where,
					 sizeof(where)) == -1, "%s function %zu: %s", p->v.name, f, where);
		/* Every call goes to a copy, never back to the original code. */
		for (size_t i = 0; i < orig.n; i++) {
			const uint8_t *c = (const uint8_t *)p->new_addr[f] + orig.insns[i].off;
			if (orig.insns[i].len != 5 || c[0] != 0xe8)
				continue;
			int32_t rel;
			memcpy(&rel, c + 1, 4);
			uintptr_t target = (uintptr_t)c + 5 + rel;
			int to_copy = 0;
			for (size_t g = 0; g < p->n_funcs; g++)
				to_copy |= target == p->new_addr[g];
			CHECK(to_copy, "%s: call at +%#zx goes to %#lx, not to a placed copy", p->v.name,
			      orig.insns[i].off, (unsigned long)target);
		}
		sb_listing_free(&orig);
	}
}

/* The line of the perf map naming [start, start + len), or "" when none. */
static void perf_map_line(uintptr_t start, size_t len, char *out, size_t outlen)
{
	char line[512];
	out[0] = '\0';
	FILE *f = fopen(sb_perf_map_path(), "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, n;
		char name[256];
		if (sscanf(line, "%lx %lx %255s", &s, &n, name) == 3 && s == start && n == len)
			snprintf(out, outlen, "%s", name);
	}
	fclose(f);
}

/* Every copied function is named in the perf map, at its address and size. */
static void perf_map_names(const struct sb_placed_variant *p, unsigned j)
{
	for (size_t f = 0; f < p->n_funcs; f++) {
		const char *sym = NULL;
		char got[256], want[256];
		sb_code_function_size(p->old_addr[f], &sym);
		snprintf(want, sizeof(want), "%s@p%u", sym ? sym : "?", j);
		perf_map_line(p->new_addr[f], p->len[f], got, sizeof(got));
		CHECK(strcmp(got, want) == 0, "perf map at %#lx+%zu: '%s', want '%s'", (unsigned long)p->new_addr[f],
		      p->len[f], got, want);
	}
}

static void replicas(void)
{
	struct sb_rng rng;
	sb_rng_seed(&rng, 5);
	const char *names[] = {"baseline", "private", "hybrid"};
	for (size_t n = 0; n < 3; n++) {
		const struct sb_variant *v = sb_variant_find(names[n]);
		struct sb_placed_variant p[3];
		char err[512];
		for (unsigned j = 0; j < 3; j++) {
			struct sb_place_policy random = {.rng = &rng};
			int rc = sb_place(v, &random, j, &p[j], err, sizeof(err));
			CHECK(rc == 0, "%s: %s", names[n], err);
			if (rc)
				return;
			/* main prog + one subprog */
			CHECK(p[j].n_funcs == 2, "%s: %zu functions placed", names[n], p[j].n_funcs);
			CHECK(p[j].v.main != v->main && (uintptr_t)p[j].v.main == p[j].new_addr[0], "main not moved");
			CHECK(p[j].v.counter == v->counter, "counter not shared");
			char want[64];
			snprintf(want, sizeof(want), "%s@p%u", names[n], j);
			CHECK(strcmp(p[j].v.name, want) == 0, "name %s", p[j].v.name);
			same_code(&p[j]);
			perf_map_names(&p[j], j);
			uint64_t before = *v->counter;
			for (int k = 0; k < 1000; k++)
				p[j].v.main();
			CHECK(*v->counter - before == 1000, "%s: counter +%llu", p[j].v.name,
			      (unsigned long long)(*v->counter - before));
			/* r9 after a private copy is still the original's frame pointer. */
			uint64_t r9 = sb_probe_call_capture_r9(p[j].v.main, 0x5e5e);
			uint64_t want_r9 = sb_probe_call_capture_r9(v->main, 0x5e5e);
			CHECK(r9 == want_r9, "%s: r9 %#llx, original %#llx", p[j].v.name,
			      (unsigned long long)r9, (unsigned long long)want_r9);
		}
		CHECK(p[0].new_addr[0] != p[1].new_addr[0] && p[1].new_addr[0] != p[2].new_addr[0],
		      "copies share an address");
		for (unsigned j = 0; j < 3; j++)
			sb_place_free(&p[j]);
	}
	CHECK(sb_percpu_check_guards() == 0, "guards damaged");
	unlink(sb_perf_map_path());
	CHECK(sb_code_function_size((uintptr_t)sb_seed001_baseline_sub, NULL) == 23,
	      "baseline subprog symbol size");
	CHECK(sb_code_function_size((uintptr_t)sb_seed001_baseline_sub + 1, NULL) == 0,
	      "a size for an address that starts no function");
}

/* An arm named name; codegen and placement >= 0: a copy at that placement. */
static struct sb_arm arm(const char *name, const char *codegen, int placement)
{
	struct sb_arm a;
	memset(&a, 0, sizeof(a));
	a.name = name;
	a.seed_name = name;
	if (codegen) {
		sb_cell_key_set(&a.key, SB_SIDE_REPLICA, "replica", codegen, "f", "ret", "per-run", codegen);
		a.key.placement = placement;
	}
	return a;
}

static void summary(void)
{
	/* Grouped by key, not by name: "plain@p0" is no copy, "y" is a copy of x. */
	struct sb_arm arms[5] = {arm("baseline@p0", "baseline", 0), arm("baseline@p1", "baseline", 1),
				 arm("x@p0", "x", 0), arm("y", "x", 1), arm("plain@p0", "plain", -1)};
	const double means[5] = {10, 12, 16, 17, 99};
	struct sb_cell cells[5];
	memset(cells, 0, sizeof(cells));
	for (int i = 0; i < 5; i++) {
		cells[i].arm = &arms[i];
		cells[i].batch = 64;
		cells[i].cycles.n = 10;
		cells[i].cycles.mean = means[i];
	}
	struct sb_results r;
	memset(&r, 0, sizeof(r));
	r.cells = cells;
	r.n_cells = 5;
	r.n_batches = 1;
	CHECK(sb_placement_summarize(&r, "baseline", 1) == 2, "%zu rows", r.n_placement_rows);
	if (r.n_placement_rows == 2) {
		const struct sb_placement_row *b = &r.placement_rows[0], *x = &r.placement_rows[1];
		CHECK(strcmp(b->variant, "baseline") == 0 && strcmp(x->variant, "x") == 0, "row names");
		CHECK(x->key.placement == -1 && strcmp(x->key.codegen, "x") == 0, "row key");
		CHECK(b->k == 2 && b->mean == 11 && b->min == 10 && b->max == 12, "baseline row");
		CHECK(fabs(b->sd - sqrt(2)) < 1e-12, "baseline sd %g", b->sd);
		CHECK(!b->delta_pct.known, "baseline has a delta");
		CHECK(x->delta_pct.known && fabs(x->delta_pct.value - (16.5 / 11 - 1) * 100) < 1e-9, "delta %g", x->delta_pct.value);
		CHECK(x->delta_pct.lo <= x->delta_pct.value && x->delta_pct.value <= x->delta_pct.hi, "delta outside CI");
		/* Extreme resamples: 16/12 and 17/10. */
		CHECK(x->delta_pct.lo >= (16.0 / 12 - 1) * 100 - 1e-9 && x->delta_pct.hi <= 70 + 1e-9,
		      "CI [%g, %g] outside the possible ratios", x->delta_pct.lo, x->delta_pct.hi);
	}
	r.cells = NULL;
	sb_results_free(&r);
	CHECK(r.placement_rows == NULL, "rows not freed");

	double ratio, lo, hi;
	const double a[] = {2, 2, 2}, b[] = {1, 1};
	CHECK(sb_bootstrap_ratio_unpaired(a, 3, b, 2, 200, 1, &ratio, &lo, &hi) == 0 && ratio == 2 && lo == 2 &&
	      hi == 2, "constant groups");
	CHECK(sb_bootstrap_ratio_unpaired(a, 0, b, 2, 200, 1, &ratio, &lo, &hi) == -1, "empty group");
}

/* The mappings of this process (lines of /proc/self/maps). */
static size_t mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	size_t n = 0;
	int c;
	while (f && (c = fgetc(f)) != EOF)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}

/* Hundreds of copies share the code arena: a few mappings, not one each;
 * every copy runs, sits within rel32 reach above the program, and freed
 * pages are taken again. */
static void arena(void)
{
	enum { N = 300 };
	static struct sb_placed_variant p[N];
	const struct sb_variant *v = sb_variant_find("private");
	struct sb_rng rng;
	sb_rng_seed(&rng, 9);
	size_t before = mappings();
	uint64_t count = *v->counter;
	char err[512];
	for (int round = 0; round < 2; round++) {
		size_t placed = 0;
		for (unsigned j = 0; j < N; j++) {
			struct sb_place_policy random = {.rng = &rng};
			if (sb_place(v, &random, j, &p[j], err, sizeof(err)) != 0) {
				CHECK(0, "copy %u of round %d: %s", j, round, err);
				break;
			}
			placed++;
			p[j].v.main();
			uintptr_t above = p[j].new_addr[0] - (uintptr_t)v->main;
			CHECK(p[j].new_addr[0] > (uintptr_t)v->main && above < (2UL << 30),
			      "copy %u at %#lx, %#lx above the program", j, (unsigned long)p[j].new_addr[0],
			      (unsigned long)above);
		}
		CHECK(*v->counter - count == placed, "round %d: counter +%llu for %zu copies", round,
		      (unsigned long long)(*v->counter - count), placed);
		count = *v->counter;
		size_t after = mappings();
		CHECK(after <= before + 2, "round %d: %zu copies made %zu mappings more", round, placed, after - before);
		for (size_t j = 0; j < placed; j++)
			sb_place_free(&p[j]);
	}
	unlink(sb_perf_map_path());
}

/* The physical frame behind a virtual address (root reads them from
 * /proc/self/pagemap; others read 0). */
static uint64_t frame_of(const void *p)
{
	uint64_t e = 0;
	FILE *f = fopen("/proc/self/pagemap", "rb");
	if (f && fseek(f, (long)((uintptr_t)p / 4096 * 8), SEEK_SET) == 0 && fread(&e, 8, 1, f) != 1)
		e = 0;
	if (f)
		fclose(f);
	return e & ((1ULL << 55) - 1);
}

/* New frames (sb_place_new_frames): the copies keep their bytes and
 * addresses and still run; as root, their pages now sit on other physical
 * frames, and sb_new_frames_between moves them at processes 16, 32, ...,
 * 112 of 128 only, and at every process of 8. */
static void new_frames(void)
{
	enum { N = 40 };
	static struct sb_placed_variant p[N];
	const struct sb_variant *v = sb_variant_find("private");
	struct sb_rng rng;
	sb_rng_seed(&rng, 11);
	char err[512];
	size_t placed = 0;
	uint8_t before[N][64];
	uint64_t frames[N];
	for (unsigned j = 0; j < N; j++) {
		struct sb_place_policy random = {.rng = &rng};
		if (sb_place(v, &random, j, &p[j], err, sizeof(err)) != 0) {
			CHECK(0, "copy %u: %s", j, err);
			break;
		}
		p[j].v.main();
		memcpy(before[j], (const void *)p[j].new_addr[0], 64);
		frames[j] = frame_of((const void *)p[j].new_addr[0]);
		placed++;
	}
	long moved = sb_place_new_frames(err, sizeof(err));
	CHECK(moved >= (long)placed, "%ld pages moved for %zu copies: %s", moved, placed, err);
	uint64_t count = *v->counter;
	size_t same_bytes = 0, same_frame = 0, known = 0;
	for (size_t j = 0; j < placed; j++) {
		same_bytes += memcmp(before[j], (const void *)p[j].new_addr[0], 64) == 0;
		p[j].v.main();
		uint64_t now = frame_of((const void *)p[j].new_addr[0]);
		known += frames[j] && now;
		same_frame += frames[j] && now && now == frames[j];
	}
	CHECK(same_bytes == placed && *v->counter - count == placed, "%zu of %zu copies kept their bytes and ran",
	      same_bytes, placed);
	if (geteuid() == 0)
		CHECK(known == placed && same_frame == 0, "%zu of %zu copies kept their frame (%zu known)", same_frame,
		      placed, known);
	else
		printf("test_placement: not root, so the frames behind the copies are not compared\n");
	/* The cadence: a move shows as a new frame behind copy 0. The kernel
	 * may hand a freed frame straight back (seen once in a loaded ctest
	 * -j2), so a move that shows no new frame is allowed once; a new frame
	 * where no move is due never is. */
	if (geteuid() == 0 && placed) {
		size_t wrong = 0, moves = 0;
		for (size_t q = 1; q < 128; q++) {
			uint64_t f0 = frame_of((const void *)p[0].new_addr[0]);
			CHECK(sb_new_frames_between(q, 128, err, sizeof(err)) == 0, "process %zu: %s", q, err);
			p[0].v.main();
			int moved_now = frame_of((const void *)p[0].new_addr[0]) != f0;
			moves += moved_now && q % 16 == 0;
			wrong += moved_now && q % 16 != 0;
		}
		CHECK(moves >= 6 && wrong == 0, "128 processes: %zu of 7 moves seen, %zu at the wrong process", moves,
		      wrong);
		uint64_t f0 = frame_of((const void *)p[0].new_addr[0]);
		CHECK(sb_new_frames_between(3, 8, err, sizeof(err)) == 0 &&
			      frame_of((const void *)p[0].new_addr[0]) != f0,
		      "8 processes: no move before process 3");
	}
	for (size_t j = 0; j < placed; j++)
		sb_place_free(&p[j]);
}

/* Given pages (sb_place_policy.pages, as the identical-layout groups share
 * them): baseline and private placed in turn in the same pages start at
 * the same address and frame, own none of the pages, and each runs (its
 * own counter advances) once its bytes are written back there. A copy
 * that does not fit the pages given is refused. */
static void given_pages(void)
{
	const struct sb_variant *vs[2] = {sb_variant_find("baseline"), sb_variant_find("private")};
	char err[512];
	uint8_t *rw = NULL;
	size_t len = 2 * 4096;
	uint8_t *rx = sb_place_pages((uintptr_t)vs[0]->main, len, &rw, err, sizeof(err));
	CHECK(rx && rw && rw != rx, "pages in the code arena: %s", rx ? "not in the arena" : err);
	if (!rx || rw == rx)
		return;
	static const unsigned offsets[SB_PLACE_MAX_FUNCS] = {100, 2000};
	struct sb_placed_variant p[2];
	static uint8_t saved[2][2 * 4096];
	for (int i = 0; i < 2; i++) {
		struct sb_place_policy given = {.page_offsets = offsets, .n_offsets = SB_PLACE_MAX_FUNCS,
						.pages = rx, .pages_len = len};
		CHECK(sb_place(vs[i], &given, 0, &p[i], err, sizeof(err)) == 0, "%s in given pages: %s", vs[i]->name,
		      err);
		CHECK(p[i].map == NULL && p[i].new_addr[0] == (uintptr_t)rx + 100,
		      "%s: owns its pages or starts at %#lx, not at the pages' offset 100", vs[i]->name,
		      (unsigned long)p[i].new_addr[0]);
		memcpy(saved[i], rw, len);
	}
	CHECK(memcmp(saved[0], saved[1], len) != 0, "baseline and private wrote the same bytes");
	uint64_t f = 0;
	for (int i = 0; i < 2; i++) {
		memcpy(rw, saved[i], len);
		uint64_t before = *vs[i]->counter, other = *vs[1 - i]->counter;
		p[i].v.main();
		CHECK(*vs[i]->counter == before + 1 && *vs[1 - i]->counter == other,
		      "%s's bytes written back: its counter went %llu -> %llu", vs[i]->name,
		      (unsigned long long)before, (unsigned long long)*vs[i]->counter);
		if (i == 0)
			f = frame_of(rx);
		CHECK(frame_of(rx) == f, "the pages moved to another frame between the copies");
	}
	struct sb_place_policy small = {.page_offsets = offsets, .n_offsets = SB_PLACE_MAX_FUNCS, .pages = rx,
					.pages_len = 4096};
	struct sb_placed_variant q;
	CHECK(sb_place(vs[1], &small, 0, &q, err, sizeof(err)) != 0 && strstr(err, "do not fit"),
	      "a copy of two functions in one given page: '%s'", err);
	for (int i = 0; i < 2; i++)
		sb_place_free(&p[i]);
	sb_place_pages_free(rx, len);
}

int main(void)
{
	char err[256];
	CHECK(sb_percpu_thread_init(err, sizeof(err)) == 0, "%s", err);
	replicas();
	arena();
	new_frames();
	given_pages();
	summary();
	return check_report("test_placement");
}
