/* test_auto_twin.c: twins made from the kernel's own JIT image
 * (sb_auto_twin_make) of the six built-in programs, from the recorded
 * v6.18 dumps (tests/data/jit_v6_18_{run,loop}_<v>.*.lst):
 *   - every function's bytes equal its hand-made twin's
 *     (asm/twins_v6_18.asm), instruction by instruction with addresses
 *     masked (sb_jit_compare);
 *   - the addresses are the twin's own: the main function's calls land on
 *     its subprog's twin, returns on the thunk replica, the private-stack
 *     frame on an area of asm/auto_twin_areas.asm, map immediates in the
 *     maps' user buffers;
 *   - it runs: a per-run twin called 5 times counts 5 in the map buffer
 *     its counter movabs points at, an in-loop twin with its loop bound set
 *     to 37 counts 37;
 *   - its path: single-stepped, an in-loop twin runs the instructions its
 *     record says (the thunk's ret apart), and with the loop bound in the
 *     map's contents different from the harness's it is not comparable;
 *   - refusals: an indirect call, a gs access other than this_cpu_off.
 * Arguments: tests/data; or a --dump-jit directory of this kernel's and ""
 * (its files' prefix), for the same checks on the live JIT. */
#include "check.h"
#include "twins/auto_twin.h"
#include "jit/image_text.h"
#include "jit/jit_compare.h"
#include "variants/percpu.h"
#include "jit/return_thunks.h"
#include "variants/twin_variants.h"

#include <stdlib.h>
#include <string.h>

extern const uintptr_t sb_auto_twin_area_fps[];
extern const uint64_t sb_auto_twin_n_areas;

static const char *data_dir;
static const char *prefix = "jit_v6_18_"; /* of the dump files: "" for --dump-jit's */

/* The program's functions, each from its .lst (named, at its JITed address). */
static int read_image(const char *prog, const char *const *funcs, size_t n, struct sb_jit_image *img)
{
	memset(img, 0, sizeof(*img));
	snprintf(img->prog_name, sizeof(img->prog_name), "%s", prog);
	img->funcs = calloc(n, sizeof(*img->funcs));
	for (size_t i = 0; i < n; i++) {
		char path[512], err[256];
		struct sb_jit_image one;
		snprintf(path, sizeof(path), "%s/%s%s.%s.lst", data_dir, prefix, prog, funcs[i]);
		if (sb_jit_image_read_file(path, &one, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return -1;
		}
		img->funcs[img->n++] = one.funcs[0];
		free(one.funcs);
	}
	return 0;
}

/* The imm64 of every movabs but r9's (the private stack's), in order. */
static size_t movabs_imms(const struct sb_jit_func *f, uint64_t *out, size_t max)
{
	struct sb_listing l;
	char err[200];
	size_t n = 0;
	if (sb_jit_decode(f->bytes, f->len, f->name, &l, err, sizeof(err)))
		return 0;
	for (size_t i = 0; i < l.n && n < max; i++) {
		const struct sb_insn *in = &l.insns[i];
		if (in->len == 10 && (in->bytes[0] & 0xf8) == 0x48 && (in->bytes[1] & 0xf8) == 0xb8 &&
		    !(in->bytes[0] == 0x49 && in->bytes[1] == 0xb9))
			memcpy(&out[n++], in->bytes + 2, 8);
	}
	sb_listing_free(&l);
	return n;
}

static int in_buffers(const struct sb_auto_twin *t, uint64_t a)
{
	for (size_t i = 0; i < t->n_maps; i++)
		if (a >= (uintptr_t)t->buf[i] && a < (uintptr_t)t->buf[i] + t->buf_len[i])
			return 1;
	return 0;
}

/* Every call of the main function lands on the subprog's twin, every jmp
 * out on the thunk, every movabs in a map buffer or an auto-twin area. */
static void check_addresses(const struct sb_auto_twin *t, const char *what, size_t want_frames)
{
	struct sb_listing l;
	char err[200];
	uintptr_t at = t->cv.addr[0];
	CHECK(sb_jit_decode((const uint8_t *)at, t->cv.len[0], what, &l, err, sizeof(err)) == 0, "%s", err);
	size_t calls = 0, returns = 0, frames = 0, data = 0;
	for (size_t i = 0; i < l.n; i++) {
		const struct sb_insn *in = &l.insns[i];
		if (in->len == 5 && (in->bytes[0] == 0xe8 || in->bytes[0] == 0xe9)) {
			int32_t rel;
			memcpy(&rel, in->bytes + 1, 4);
			uintptr_t to = at + in->off + 5 + (intptr_t)rel;
			if (in->bytes[0] == 0xe8)
				calls += to == t->cv.addr[1];
			else
				returns += to == (uintptr_t)t->cv.v.return_thunk;
		} else if (in->len == 10 && (in->bytes[1] & 0xf8) == 0xb8) {
			uint64_t imm;
			memcpy(&imm, in->bytes + 2, 8);
			int area = 0;
			for (size_t k = 0; k < sb_auto_twin_n_areas; k++)
				area |= imm == sb_auto_twin_area_fps[k];
			frames += area;
			data += in_buffers(t, imm);
		}
	}
	CHECK(calls == 3, "%s: %zu of 3 calls land on the subprog's twin", what, calls);
	CHECK(returns == 1, "%s: %zu returns reach the thunk replica", what, returns);
	CHECK(frames == want_frames && data >= 1, "%s: %zu private frames (of %zu), %zu map immediates", what,
	      frames, want_frames, data);
	sb_listing_free(&l);
}

static void check_program(const char *shape, const char *variant)
{
	int in_loop = strcmp(shape, "in-loop") == 0;
	char prog[32], main[32];
	snprintf(prog, sizeof(prog), "%s_%s", in_loop ? "loop" : "run", variant);
	snprintf(main, sizeof(main), "%s_%s", in_loop ? "loop" : "prog", variant);
	const char *sub = strcmp(variant, "private") == 0 ? "sub_big" : "sub_small";
	const char *funcs[2] = {main, sub};
	struct sb_jit_image img;
	if (read_image(prog, funcs, 2, &img)) {
		CHECK(0, "%s: cannot read the dumps", prog);
		return;
	}
	/* A map per immediate (of 8 bytes): the loop bound first in-loop,
	 * then the counter. */
	uint64_t imm[4];
	size_t n_imm = movabs_imms(&img.funcs[0], imm, 4);
	CHECK(n_imm == (in_loop ? 2u : 1u), "%s: %zu map immediates", prog, n_imm);
	struct sb_auto_twin_map maps[4];
	struct sb_auto_twin_ref refs[4];
	for (size_t k = 0; k < n_imm; k++) {
		maps[k] = (struct sb_auto_twin_map){.id = (uint32_t)k + 1, .type = 2, .value_size = 8, .max_entries = 1};
		snprintf(maps[k].name, sizeof(maps[k].name), "m%zu", k);
		refs[k] = (struct sb_auto_twin_ref){imm[k], k, 0, 1};
	}
	struct sb_auto_twin_spec s = {
		.name = "auto-test", .img = &img, .main = main, .maps = maps, .n_maps = n_imm, .refs = refs,
		.n_refs = n_imm, .thunk = SB_THUNK_ITS, .tmpl = sb_twin_variant(shape, variant),
		.batch_iters = {in_loop ? 0 : -1, 0}, .counter = {in_loop ? 1 : 0, 0}};
	struct sb_auto_twin t;
	char err[300];
	int rc = sb_auto_twin_make(&s, &t, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", prog, err);
	if (rc) {
		sb_jit_image_free(&img);
		return;
	}
	CHECK(t.cv.n_funcs == 2, "%s: %zu functions", prog, t.cv.n_funcs);
	for (size_t i = 0; i < t.cv.n_funcs && i < 2; i++) {
		const struct sb_function *hand = sb_twin_find(prog, funcs[i]);
		struct sb_listing a, h;
		CHECK(hand != NULL, "%s.%s: no hand-made twin", prog, funcs[i]);
		if (!hand)
			continue;
		sb_jit_decode((const uint8_t *)t.cv.addr[i], t.cv.len[i], funcs[i], &a, err, sizeof(err));
		sb_jit_decode(hand->addr, hand->size, funcs[i], &h, err, sizeof(err));
		struct sb_jit_cmp c;
		sb_jit_compare(&a, &h, &c);
		CHECK(!c.mismatch && t.cv.len[i] == hand->size, "%s.%s: auto vs hand-made: %s", prog, funcs[i],
		      c.where);
		printf("%s.%s: %zu bytes, same as the hand-made twin%s%s\n", prog, funcs[i], t.cv.len[i],
		       c.n_flavour ? "; masked: " : "", c.n_flavour ? c.flavour : "");
		sb_listing_free(&a);
		sb_listing_free(&h);
	}
	check_addresses(&t, prog, strcmp(variant, "baseline") != 0);
	CHECK(t.n_private == (strcmp(variant, "private") == 0 ? 2u : strcmp(variant, "hybrid") == 0),
	      "%s: %zu functions with a private stack", prog, t.n_private);
	/* It runs, and counts where its counter points. */
	sb_auto_twin_fill(&t, 0);
	volatile uint64_t *counter = t.cv.v.counter;
	CHECK(counter != NULL, "%s: no counter", prog);
	if (counter && in_loop) {
		*t.cv.v.batch_iters = 37;
		t.cv.v.main();
		CHECK(*counter == 37, "%s: %llu iterations of 37", prog, (unsigned long long)*counter);
	} else if (counter) {
		for (int k = 0; k < 5; k++)
			t.cv.v.main();
		CHECK(*counter == 5, "%s: %llu runs of 5", prog, (unsigned long long)*counter);
	}
	if (in_loop) {
		/* The loop bound from the map: the kernel's (37) takes the
		 * path of the harness's 37; 50 does not. */
		struct sb_auto_twin_path path;
		uint64_t bound = 37;
		maps[0].contents = (const uint8_t *)&bound;
		maps[0].contents_len = 8;
		CHECK(sb_auto_twin_check_path(&t, 37, &path, err, sizeof(err)) == 0 && path.comparable &&
		      path.stubbed == s.tmpl->insns_fixed - 1 + 37 * (uint64_t)(s.tmpl->insns_per_call - 3),
		      "%s: path with its own bound: %s %s; %llu instructions, the record says %u + 37 x %u "
		      "(thunk rets not counted)", prog, err, path.why, (unsigned long long)path.stubbed,
		      s.tmpl->insns_fixed, s.tmpl->insns_per_call);
		bound = 50;
		CHECK(sb_auto_twin_check_path(&t, 37, &path, err, sizeof(err)) == 0 && !path.comparable &&
		      path.real > path.stubbed, "%s: path with another bound: %llu vs %llu", prog,
		      (unsigned long long)path.stubbed, (unsigned long long)path.real);
		printf("%s: %llu instructions per run at 37 iterations, %llu at 50 (not comparable)\n", prog,
		       (unsigned long long)path.stubbed, (unsigned long long)path.real);
		maps[0].contents = NULL;
	}
	CHECK(sb_percpu_check_guards() == 0, "%s: a private stack guard word was overwritten", prog);
	sb_auto_twin_free(&t);
	sb_jit_image_free(&img);
}

/* A function of the given bytes at a made-up kernel address. */
static int make_from(const uint8_t *code, size_t len, char *err, size_t errlen)
{
	struct sb_jit_func f = {.name = "f", .ksym = 0xffffffffc0001000ULL, .bytes = (uint8_t *)code, .len = len};
	struct sb_jit_image img = {.prog_name = "bad", .funcs = &f, .n = 1};
	struct sb_auto_twin_spec s = {.name = "auto-bad", .img = &img, .thunk = SB_THUNK_ITS,
				      .tmpl = sb_twin_variant("per-run", "baseline"), .batch_iters = {-1, 0},
				      .counter = {-1, 0}};
	struct sb_auto_twin t;
	int rc = sb_auto_twin_make(&s, &t, err, errlen);
	if (rc == 0)
		sb_auto_twin_free(&t);
	return rc;
}

static void check_refusals(void)
{
	char err[300];
	static const uint8_t indirect[] = {0x55, 0x48, 0x89, 0xe5, 0xff, 0xd0, 0xc9, 0xc3}; /* call rax */
	CHECK(make_from(indirect, sizeof(indirect), err, sizeof(err)) != 0 && strstr(err, "indirect call"),
	      "an indirect call: %s", err);
	/* mov rax, gs:[0x1234] */
	static const uint8_t gs_read[] = {0x65, 0x48, 0x8b, 0x04, 0x25, 0x34, 0x12, 0x00, 0x00, 0xc3};
	CHECK(make_from(gs_read, sizeof(gs_read), err, sizeof(err)) != 0 && strstr(err, "gs access"),
	      "a gs read: %s", err);
	static const uint8_t plain[] = {0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0xc9, 0xc3};
	CHECK(make_from(plain, sizeof(plain), err, sizeof(err)) == 0, "a plain function: %s", err);
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: test_auto_twin DATA_DIR [FILE_PREFIX]\n");
		return 2;
	}
	data_dir = argv[1];
	if (argc == 3)
		prefix = argv[2];
	char err[256];
	if (sb_percpu_thread_init(err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	static const char *const shapes[] = {"per-run", "in-loop"};
	static const char *const variants[] = {"baseline", "private", "hybrid"};
	for (size_t s = 0; s < 2; s++)
		for (size_t v = 0; v < 3; v++)
			check_program(shapes[s], variants[v]);
	check_refusals();
	return check_report("test_auto_twin");
}
