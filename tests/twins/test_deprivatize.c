/* test_deprivatize.c: the de-privatized twin of a private-stack function
 * equals the kernel's own JIT of the same function without a private stack,
 * instruction by instruction with addresses masked (movabs immediates, the gs
 * displacement, call/jmp targets outside the function), and the privatized
 * twin of the non-private function equals the private one. Pairs: seed
 * 003's htab function (July 2024), seed 001's main prog and subprog, and the
 * htab shape's htab_body from the raw_tp and syscall drivers on v6.18
 * (.lst, .bin and bpftool text), and tests/data/twin_pair.bpf.c's three
 * functions (320-byte frame, long loop of helper calls, stack buffer handed
 * to a helper) from its raw_tp and syscall drivers on v6.18; and seed 001's
 * prog_private and sub_big as a kernel that gives raw_tp programs a
 * private stack JITs them (6.18.44-fc-v657) against the same programs as
 * one that gives none JITs them (6.18.44-fc-v1252, the Intel Xeon 0xcf VM:
 * tests/data/jit_v6_18_no_private_stack). Every private-stack function of the dumps
 * comes back byte for byte from its twin's twin; the frame pointer load
 * takes the JIT's forms. Then bad input. Argument: tests/data. */
#include "check.h"
#include "twins/deprivatize.h"
#include "jit/flavour.h"
#include "jit/image_text.h"
#include "jit/listing.h"
#include "code_layout.h"

#include <stdlib.h>
#include <string.h>

static const char *data_dir;

struct func {
	struct sb_listing l;
	uint8_t *code;
	size_t len;
};

static int load(const char *name, struct func *f)
{
	char path[512], err[256];
	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	if (sb_listing_parse_file(path, &f->l, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	sb_jit_mask_listing(&f->l);
	f->len = f->l.size;
	f->code = malloc(f->len);
	for (size_t i = 0; i < f->l.n; i++)
		memcpy(f->code + f->l.insns[i].off, f->l.insns[i].bytes, f->l.insns[i].len);
	return 0;
}

static void drop(struct func *f)
{
	sb_listing_free(&f->l);
	free(f->code);
}

static uint8_t *read_bin(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	uint8_t *buf = malloc(4096);
	*len = fread(buf, 1, 4096, fp);
	fclose(fp);
	return buf;
}

/* The frame pointer and gs displacement of a private function's r9 setup. */
static void r9_setup_of(const struct sb_listing *l, uint64_t *fp, uint32_t *gs)
{
	for (size_t i = 0; i + 1 < l->n; i++) {
		const struct sb_insn *a = &l->insns[i], *b = &l->insns[i + 1];
		if (sb_jit_is_r9_setup(a) && sb_jit_is_gs_add_r9(b)) {
			*fp = 0;
			if (a->len == 10)
				memcpy(fp, a->bytes + 2, 8);
			else if (a->len == 6)
				memcpy(fp, a->bytes + 2, 4);
			memcpy(gs, b->bytes + 5, 4);
			return;
		}
	}
}

/* private -> twin == baseline, and baseline -> privatized twin == private. */
/* The padded twin of p (sb_deprivatize_padded): p's length, and with the
 * NOPs it added dropped (the jumps laid out again) the kernel's own
 * non-private JIT b, as the de-privatized twin is. */
static void check_padded(const char *priv_name, const struct func *p, const struct func *b, uint32_t depth)
{
	char err[256] = "", where[256] = "";
	struct sb_twin t;
	int rc = sb_deprivatize_padded(p->code, p->len, &t, err, sizeof(err));
	CHECK(rc == 0, "%s, padded: %s", priv_name, err);
	if (rc)
		return;
	CHECK(t.len == p->len && t.stack_depth == depth, "%s, padded: %zu bytes (private %zu), depth %#x", priv_name,
	      t.len, p->len, t.stack_depth);
	struct sb_code c;
	rc = sb_code_decode(t.code, t.len, &c, err, sizeof(err));
	CHECK(rc == 0, "%s, padded: %s", priv_name, err);
	if (rc == 0) {
		struct sb_layout l;
		sb_layout_init(&l, &c);
		for (size_t i = 0; i < c.n && rc == 0; i++) {
			const struct sb_code_insn *in = &c.insns[i];
			int own_nop = 0; /* a NOP the private code has at the same offset */
			for (size_t k = 0; k < p->l.n && !own_nop; k++)
				own_nop = p->l.insns[k].off == in->off && p->l.insns[k].len == in->len &&
					  memcmp(p->code + in->off, t.code + in->off, in->len) == 0;
			if (in->dec.mnemonic != ZYDIS_MNEMONIC_NOP || own_nop)
				rc = sb_layout_keep(&l, i, err, sizeof(err));
		}
		uint8_t *code = NULL;
		size_t len = 0;
		if (rc == 0)
			rc = sb_layout_finish(&l, &code, &len, err, sizeof(err));
		CHECK(rc == 0, "%s, padded, NOPs dropped: %s", priv_name, err);
		long d = rc == 0 ? sb_twin_compare(&b->l, code, len, where, sizeof(where)) : 0;
		CHECK(d == -1, "%s, padded with its NOPs dropped, differs from the kernel's: %s", priv_name, where);
		free(code);
		sb_layout_free(&l);
		sb_code_free(&c);
	}
	sb_twin_free(&t);
}

static void check_pair(const char *priv_name, const char *base_name, uint32_t depth, size_t calls)
{
	struct func p, b;
	if (load(priv_name, &p) || load(base_name, &b)) {
		CHECK(0, "%s / %s not readable", priv_name, base_name);
		return;
	}
	char err[256] = "", where[256] = "";
	struct sb_twin t;
	int rc = sb_deprivatize(p.code, p.len, NULL, &t, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", priv_name, err);
	if (rc == 0) {
		long d = sb_twin_compare(&b.l, t.code, t.len, where, sizeof(where));
		CHECK(d == -1, "de-privatized %s differs from %s: %s", priv_name, base_name, where);
		CHECK(t.stack_depth == depth, "%s: depth %#x, expected %#x", priv_name, t.stack_depth, depth);
		CHECK(t.calls_wrapped == calls, "%s: %zu push/pop r9 pairs, expected %zu", priv_name,
		      t.calls_wrapped, calls);
		CHECK(t.len == b.len, "%s: twin %zu bytes, kernel %zu", priv_name, t.len, b.len);
		sb_twin_free(&t);
	}
	check_padded(priv_name, &p, &b, depth);
	uint64_t fp = 0;
	uint32_t gs = 0;
	r9_setup_of(&p.l, &fp, &gs);
	rc = sb_privatize(b.code, b.len, fp, gs, &t, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", base_name, err);
	if (rc == 0) {
		long d = sb_twin_compare(&p.l, t.code, t.len, where, sizeof(where));
		CHECK(d == -1, "privatized %s differs from %s: %s", base_name, priv_name, where);
		CHECK(t.stack_depth == depth && t.calls_wrapped == calls, "%s: depth %#x, %zu calls", base_name,
		      t.stack_depth, t.calls_wrapped);
		sb_twin_free(&t);
	}
	drop(&p);
	drop(&b);
}

/* The recorded .bin of the v6.18 htab_body gives the same twin as its .lst. */
static void check_bin(void)
{
	size_t plen = 0;
	uint8_t *pcode = read_bin("jit_v6_18_htab_private.htab_body.bin", &plen);
	struct func b;
	CHECK(pcode && load("jit_v6_18_htab_baseline.htab_body.lst", &b) == 0, "htab_body dumps not readable");
	if (!pcode)
		return;
	char err[256] = "", where[256] = "";
	struct sb_twin t;
	CHECK(sb_deprivatize(pcode, plen, NULL, &t, err, sizeof(err)) == 0, "htab_body.bin: %s", err);
	CHECK(sb_twin_compare(&b.l, t.code, t.len, where, sizeof(where)) == -1, "htab_body.bin: %s", where);
	CHECK(t.branches_resized == 2, "htab_body: %zu jumps resized, expected je and ja (rel32 -> rel8)",
	      t.branches_resized);
	/* An explicit depth is what sub rsp gets: the twin then differs there. */
	struct sb_twin t2;
	struct sb_deprivatize_opts o = {.stack_depth = 0x61};
	CHECK(sb_deprivatize(pcode, plen, &o, &t2, err, sizeof(err)) == 0, "depth 0x61: %s", err);
	CHECK(t2.stack_depth == 0x68, "depth 0x61 rounds to %#x, expected 0x68", t2.stack_depth);
	CHECK(sb_twin_compare(&b.l, t2.code, t2.len, where, sizeof(where)) == 4,
	      "depth 0x68: expected a difference at sub rsp (instruction 4): %s", where);
	/* The printed listing reads back as the same code. */
	char *text = NULL;
	size_t tlen = 0;
	FILE *mem = open_memstream(&text, &tlen);
	CHECK(sb_twin_print(mem, t.code, t.len, err, sizeof(err)) == 0, "print: %s", err);
	fclose(mem);
	struct sb_listing back;
	CHECK(sb_listing_parse_text(text, "printed twin", &back, err, sizeof(err)) == 0, "%s", err);
	CHECK(sb_listing_compare(&back, t.code, t.len, where, sizeof(where)) == -1, "round trip: %s", where);
	CHECK(strstr(text, "sub rsp, 0x60") && strstr(text, "[rbp-0x60]") && !strstr(text, "r9"),
	      "printed twin:\n%s", text);
	sb_listing_free(&back);
	free(text);
	sb_twin_free(&t);
	sb_twin_free(&t2);
	drop(&b);
	free(pcode);
}

/* run_private.prog_private and run_baseline.prog_baseline are different
 * functions (64 and 8 bytes of stack): the twin has the 64-byte frame. */
static void check_not_a_pair(void)
{
	size_t len = 0;
	uint8_t *code = read_bin("jit_v6_18_run_private.prog_private.bin", &len);
	struct func b;
	CHECK(code && load("jit_v6_18_run_baseline.prog_baseline.lst", &b) == 0, "prog dumps not readable");
	if (!code)
		return;
	char err[256] = "", where[256] = "";
	struct sb_twin t;
	CHECK(sb_deprivatize(code, len, NULL, &t, err, sizeof(err)) == 0, "prog_private: %s", err);
	static const uint8_t sub64[] = {0x48, 0x81, 0xec, 0x40, 0x00, 0x00, 0x00};
	CHECK(t.len > 0x13 && memcmp(t.code + 0xc, sub64, 7) == 0, "prog_private twin: no sub rsp, 0x40 at +0xc");
	CHECK(t.calls_wrapped == 3 && t.frame_insns == 2, "prog_private: %zu calls, %zu frame insns",
	      t.calls_wrapped, t.frame_insns);
	CHECK(sb_twin_compare(&b.l, t.code, t.len, where, sizeof(where)) == 4,
	      "prog_private twin vs prog_baseline: expected the sub rsp to differ (%s)", where);
	sb_twin_free(&t);
	drop(&b);
	free(code);
}

/* privatize(deprivatize(f)) gives f back byte for byte, unmasked, for every
 * private-stack function of the recorded dumps and seeds. */
static void check_round_trip(const char *name)
{
	struct func p;
	if (load(name, &p)) {
		CHECK(0, "%s not readable", name);
		return;
	}
	char err[256] = "";
	struct sb_twin t, back;
	uint64_t fp = 0;
	uint32_t gs = 0;
	r9_setup_of(&p.l, &fp, &gs);
	int ok = sb_deprivatize(p.code, p.len, NULL, &t, err, sizeof(err)) == 0;
	CHECK(ok, "%s: %s", name, err);
	if (ok) {
		ok = sb_privatize(t.code, t.len, fp, gs, &back, err, sizeof(err)) == 0;
		CHECK(ok && back.len == p.len && memcmp(back.code, p.code, p.len) == 0,
		      "%s: round trip gives %zu bytes, not the %zu it started from (%s)", name, back.len, p.len, err);
		if (ok)
			sb_twin_free(&back);
		sb_twin_free(&t);
	}
	drop(&p);
}

/* emit_mov_imm64()'s forms of the frame pointer load, as the JIT picks them. */
static void check_r9_forms(void)
{
	static const uint8_t fn[] = {0x55, 0x48, 0x89, 0xe5, 0x48, 0x81, 0xec, 0x08, 0, 0, 0,
				     0x48, 0x89, 0x7d, 0xf8, 0xc9, 0xc3};
	static const struct {
		uint64_t fp;
		uint8_t bytes[10];
		size_t len;
	} forms[] = {
		{0, {0x45, 0x31, 0xc9}, 3},
		{0x1234, {0x41, 0xb9, 0x34, 0x12, 0, 0}, 6},
		{0xffffffff80001000ull, {0x49, 0xc7, 0xc1, 0x00, 0x10, 0x00, 0x80}, 7},
		{0x600000000008ull, {0x49, 0xb9, 0x08, 0, 0, 0, 0, 0x60, 0, 0}, 10},
	};
	static const uint8_t gs[] = {0x65, 0x4c, 0x03, 0x0c, 0x25, 0x28, 0xc0, 0xb0, 0x83};
	static const uint8_t store[] = {0x49, 0x89, 0x79, 0xf8};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		char err[256] = "";
		struct sb_twin t;
		int ok = sb_privatize(fn, sizeof(fn), forms[i].fp, 0x83b0c028u, &t, err, sizeof(err)) == 0;
		CHECK(ok, "fp %#llx: %s", (unsigned long long)forms[i].fp, err);
		if (!ok)
			continue;
		const uint8_t *c = t.code + 4;
		CHECK(t.len == 4 + forms[i].len + 9 + 4 + 2 && memcmp(c, forms[i].bytes, forms[i].len) == 0 &&
		      memcmp(c + forms[i].len, gs, 9) == 0 && memcmp(c + forms[i].len + 9, store, 4) == 0,
		      "fp %#llx: not the JIT's setup and [r9-8] store", (unsigned long long)forms[i].fp);
		CHECK(t.stack_depth == 8 && t.frame_insns == 1, "fp %#llx: depth %#x", (unsigned long long)forms[i].fp,
		      t.stack_depth);
		sb_twin_free(&t);
	}
}

/* The r9 setup goes after the arena's push r12 and movabs r12; push r9 goes
 * before the call-depth accounting (sarq $5, %gs:...) of a call. */
static void check_arena_and_call_depth(void)
{
	static const uint8_t fn[] = {
		0x55, 0x48, 0x89, 0xe5, 0x48, 0x81, 0xec, 0x08, 0, 0, 0, /* frame, sub rsp, 8 */
		0x41, 0x54, 0x53, 0x49, 0xbc, 0, 0, 0, 0, 0, 0xc9, 0xff, 0xff, /* push r12/rbx, movabs r12 */
		0x48, 0x89, 0x7d, 0xf8,                                  /* mov [rbp-8], rdi */
		0x65, 0x48, 0xc1, 0x3c, 0x25, 0x00, 0x10, 0x00, 0x00, 0x05, /* sarq $5, %gs:0x1000 */
		0xe8, 0x00, 0x01, 0x00, 0x00,                            /* call */
		0x5b, 0x41, 0x5c, 0xc9, 0xc3};
	static const uint8_t want[] = {
		0x55, 0x48, 0x89, 0xe5, 0x41, 0x54, 0x53, 0x49, 0xbc, 0, 0, 0, 0, 0, 0xc9, 0xff, 0xff,
		0x49, 0xb9, 0x08, 0, 0, 0, 0, 0x60, 0, 0, 0x65, 0x4c, 0x03, 0x0c, 0x25, 0x28, 0xc0, 0xb0, 0x83,
		0x49, 0x89, 0x79, 0xf8, 0x41, 0x51,
		0x65, 0x48, 0xc1, 0x3c, 0x25, 0x00, 0x10, 0x00, 0x00, 0x05,
		0xe8, 0xf2, 0x00, 0x00, 0x00, 0x41, 0x59, 0x5b, 0x41, 0x5c, 0xc9, 0xc3};
	char err[256] = "";
	struct sb_twin t, back;
	int ok = sb_privatize(fn, sizeof(fn), 0x600000000008ull, 0x83b0c028u, &t, err, sizeof(err)) == 0;
	CHECK(ok && t.len == sizeof(want) && memcmp(t.code, want, sizeof(want)) == 0 && t.calls_wrapped == 1,
	      "arena and call depth: not the JIT's order (%s)", err);
	if (!ok)
		return;
	ok = sb_deprivatize(t.code, t.len, NULL, &back, err, sizeof(err)) == 0;
	CHECK(ok && back.len == sizeof(fn) && memcmp(back.code, fn, sizeof(fn)) == 0,
	      "arena and call depth: no round trip (%s)", err);
	if (ok)
		sb_twin_free(&back);
	sb_twin_free(&t);
}

/* bpftool's opcodes text of htab_private gives the same twin as the dump. */
static void check_bpftool_text(void)
{
	char path[512], err[256] = "", where[256] = "";
	snprintf(path, sizeof(path), "%s/bpftool_v6_18_htab_private_opcodes.txt", data_dir);
	struct sb_jit_image img;
	struct func b;
	if (sb_jit_image_read_file(path, &img, err, sizeof(err)) || load("jit_v6_18_htab_baseline.htab_body.lst", &b)) {
		CHECK(0, "bpftool text: %s", err);
		return;
	}
	const struct sb_jit_func *f = sb_jit_find(&img, "htab_body");
	struct sb_twin t;
	int ok = f && sb_deprivatize(f->bytes, f->len, NULL, &t, err, sizeof(err)) == 0;
	CHECK(ok, "bpftool htab_body: %s", err);
	if (ok) {
		CHECK(sb_twin_compare(&b.l, t.code, t.len, where, sizeof(where)) == -1, "bpftool htab_body: %s", where);
		sb_twin_free(&t);
	}
	/* The driver has no private stack. */
	CHECK(sb_deprivatize(img.funcs[0].bytes, img.funcs[0].len, NULL, &t, err, sizeof(err)) == -1,
	      "the htab_private driver was de-privatized");
	sb_jit_image_free(&img);
	drop(&b);
}

static void check_bad_input(void)
{
	char err[256] = "";
	struct sb_twin t;
	struct func b;
	if (load("jit_v6_18_htab_baseline.htab_body.lst", &b))
		return;
	CHECK(sb_deprivatize(b.code, b.len, NULL, &t, err, sizeof(err)) == -1 && strstr(err, "no private stack"),
	      "baseline: '%s'", err);
	CHECK(sb_deprivatize(b.code, 0x1d, NULL, &t, err, sizeof(err)) == -1 && strstr(err, "+0x1b: cannot decode"),
	      "cut inside movabs: '%s'", err);
	drop(&b);
	struct func p;
	if (load("jit_v6_18_htab_private.htab_body.lst", &p))
		return;
	CHECK(sb_privatize(p.code, p.len, 1, 2, &t, err, sizeof(err)) == -1 && strstr(err, "already has"),
	      "private: '%s'", err);
	drop(&p);
	/* push rbp; mov rbp,rsp; r9 setup; jmp into the middle of mov rax,rax. */
	static const uint8_t mid[] = {0x55, 0x48, 0x89, 0xe5, 0x49, 0xb9, 1, 0, 0, 0, 1, 0, 0, 0, 0x65, 0x4c,
				      0x03, 0x0c, 0x25, 0, 0, 0, 0, 0xeb, 0x01, 0x48, 0x89, 0xc0, 0xc9, 0xc3};
	CHECK(sb_deprivatize(mid, sizeof(mid), NULL, &t, err, sizeof(err)) == -1 &&
	      strstr(err, "+0x17: jumps to +0x1a, inside an instruction"), "mid-jump: '%s'", err);
	static const uint8_t noframe[] = {0x31, 0xc0, 0xc3};
	CHECK(sb_privatize(noframe, sizeof(noframe), 1, 2, &t, err, sizeof(err)) == -1 && strstr(err, "no rbp frame"),
	      "no frame: '%s'", err);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_deprivatize DATA_DIR\n");
		return 2;
	}
	data_dir = argv[1];
	check_pair("seed003_htab_private.lst", "seed003_htab_baseline.lst", 0x60, 3);
	check_pair("seed001_private_main.lst", "seed001_baseline_main.lst", 0, 3);
	check_pair("seed001_private_sub.lst", "seed001_baseline_sub.lst", 0, 0);
	check_pair("jit_v6_18_htab_private.htab_body.lst", "jit_v6_18_htab_baseline.htab_body.lst", 0x60, 3);
	static const char *pair_funcs[] = {"deep_frame", "long_loop", "stack_args"};
	static const uint32_t pair_depths[] = {0x140, 0x50, 0x48};
	static const size_t pair_calls[] = {0, 5, 1};
	for (size_t i = 0; i < 3; i++) {
		char pn[96], bn[96];
		snprintf(pn, sizeof(pn), "jit_v6_18_pair_private.%s.lst", pair_funcs[i]);
		snprintf(bn, sizeof(bn), "jit_v6_18_pair_baseline.%s.lst", pair_funcs[i]);
		check_pair(pn, bn, pair_depths[i], pair_calls[i]);
		check_round_trip(pn);
	}
	/* The same programs from a kernel that gave them no private stack. */
	check_pair("jit_v6_18_run_private.prog_private.lst", "jit_v6_18_no_private_stack/run_private.prog_private.lst",
		   0x40, 3);
	check_pair("jit_v6_18_run_private.sub_big.lst", "jit_v6_18_no_private_stack/run_private.sub_big.lst", 0x40,
		   0);
	check_bin();
	check_not_a_pair();
	check_bpftool_text();
	check_r9_forms();
	check_arena_and_call_depth();
	static const char *privs[] = {"seed003_htab_private.lst", "seed001_private_main.lst",
				      "seed001_private_sub.lst", "jit_v6_18_htab_private.htab_body.lst",
				      "jit_v6_18_loop_hybrid.loop_hybrid.lst", "jit_v6_18_loop_private.loop_private.lst",
				      "jit_v6_18_loop_private.sub_big.lst", "jit_v6_18_run_hybrid.prog_hybrid.lst",
				      "jit_v6_18_run_private.prog_private.lst", "jit_v6_18_run_private.sub_big.lst"};
	for (size_t i = 0; i < sizeof(privs) / sizeof(privs[0]); i++)
		check_round_trip(privs[i]);
	check_bad_input();
	return check_report("deprivatize");
}
