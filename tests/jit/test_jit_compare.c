/* JIT comparator on recorded code, no BPF needed: this machine's kernel
 * dumps (tests/data/jit_v6_18_*) against the twins, the seed 001 listings
 * against their replicas, flavour detection on both, a hand-derived
 * cross-flavour listing, injected mismatches caught and located, and the
 * --dump-jit writer read back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "jit/decode.h"
#include "jit/dump.h"
#include "jit/flavour.h"
#include "jit/jit_compare.h"
#include "kernel/jit_read.h"
#include "jit/relocate.h"
#include "variants/seed001.h"
#include "variants/twin_variants.h"

static const char *data_dir;

static int load(const char *file, struct sb_listing *l)
{
	char path[1024], err[512];
	snprintf(path, sizeof(path), "%s/%s", data_dir, file);
	int rc = sb_listing_parse_file(path, l, err, sizeof(err));
	CHECK(rc == 0, "%s", err);
	if (rc == 0)
		sb_jit_mask_listing(l);
	return rc;
}

static int decode_mem(const void *addr, size_t len, const char *name, struct sb_listing *l)
{
	char err[256];
	int rc = sb_jit_decode(addr, len, name, l, err, sizeof(err));
	CHECK(rc == 0, "%s", err);
	return rc;
}

/* Each recorded kernel function equals its twin: no mismatch, no flavour
 * difference, same size. */
static void dumps_vs_twins(void)
{
	/* program, function, 1 if it has 64 bytes of stack (private stack) */
	static const struct {
		const char *prog, *func;
		int priv;
	} funcs[] = {
		{"run_baseline", "run_baseline", 0}, {"run_baseline", "prog_baseline", 0},
		{"run_baseline", "sub_small", 0},    {"run_private", "run_private", 0},
		{"run_private", "prog_private", 1},  {"run_private", "sub_big", 1},
		{"run_hybrid", "run_hybrid", 0},     {"run_hybrid", "prog_hybrid", 1},
		{"run_hybrid", "sub_small", 0},      {"loop_baseline", "loop_baseline", 0},
		{"loop_baseline", "sub_small", 0},   {"loop_private", "loop_private", 1},
		{"loop_private", "sub_big", 1},      {"loop_hybrid", "loop_hybrid", 1},
		{"loop_hybrid", "sub_small", 0},
	};
	CHECK(sb_twin_count() == sizeof(funcs) / sizeof(funcs[0]), "%zu twin records",
	      sb_twin_count());
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		char file[256];
		snprintf(file, sizeof(file), "jit_v6_18_%s.%s.lst", funcs[i].prog, funcs[i].func);
		struct sb_listing k, t;
		if (load(file, &k))
			continue;
		const struct sb_function *r = sb_twin_find(funcs[i].prog, funcs[i].func);
		CHECK(r != NULL, "no twin for %s.%s", funcs[i].prog, funcs[i].func);
		if (r && decode_mem(r->addr, r->size, funcs[i].func, &t) == 0) {
			struct sb_jit_cmp c;
			sb_jit_compare(&k, &t, &c);
			CHECK(!c.mismatch, "%s: %s", file, c.where);
			CHECK(c.n_flavour == 0, "%s: flavour differences: %s", file, c.flavour);
			CHECK(k.size == r->size, "%s: %zu bytes, twin %llu", file, k.size,
			      (unsigned long long)r->size);
			sb_listing_free(&t);
		}
		/* Flavour of this machine: no IBT, nop3, ITS return thunk, and the
		 * private stack exactly in the functions with 64 bytes of stack. */
		struct sb_jit_flavour f;
		sb_jit_detect_flavour(&k, &f);
		int want_priv = funcs[i].priv;
		CHECK(f.ibt == 0 && f.pad == 3 && f.rethunk == 1, "%s: flavour ibt=%d pad=%d rethunk=%d", file,
		      f.ibt, f.pad, f.rethunk);
		CHECK(f.private_stack == want_priv, "%s: private_stack=%d, expected %d", file, f.private_stack,
		      want_priv);
		if (want_priv)
			CHECK(f.has_gs && f.gs_kernel_addr && (uint64_t)f.gs_disp == 0xffffffff83b0e028ULL,
			      "%s: gs disp %llx", file, (unsigned long long)f.gs_disp);
		sb_listing_free(&k);
	}
}

/* Seed 001 listings: the IBT flavour, and equal to the seed replicas. */
static void seed_listings(void)
{
	static const struct {
		const char *file;
		sb_stub_fn fn;
		int priv;
	} s[] = {
		{"seed001_baseline_sub.lst", sb_seed001_baseline_sub, 0},
		{"seed001_baseline_main.lst", sb_seed001_baseline_main, 0},
		{"seed001_private_sub.lst", sb_seed001_private_sub, 1},
		{"seed001_private_main.lst", sb_seed001_private_main, 1},
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		struct sb_listing l, r;
		if (load(s[i].file, &l))
			continue;
		struct sb_jit_flavour f;
		sb_jit_detect_flavour(&l, &f);
		CHECK(f.ibt == 1 && f.pad == 2 && f.rethunk == 0, "%s: ibt=%d pad=%d rethunk=%d", s[i].file,
		      f.ibt, f.pad, f.rethunk);
		CHECK(f.private_stack == s[i].priv, "%s: private_stack=%d", s[i].file, f.private_stack);
		if (s[i].priv)
			CHECK(f.has_gs && !f.gs_kernel_addr && f.gs_disp == 0x21a00, "%s: gs %llx", s[i].file,
			      (unsigned long long)f.gs_disp);
		char desc[256];
		sb_jit_flavour_describe(&f, desc, sizeof(desc));
		CHECK(strstr(desc, "IBT (endbr64)") && strstr(desc, "66 90"), "%s: described as '%s'",
		      s[i].file, desc);
		if (decode_mem((const void *)s[i].fn, l.size, s[i].file, &r) == 0) {
			struct sb_jit_cmp c;
			sb_jit_compare(&l, &r, &c);
			CHECK(!c.mismatch && c.n_flavour == 0, "%s vs replica: %s %s", s[i].file, c.where,
			      c.flavour);
			sb_listing_free(&r);
		}
		sb_listing_free(&l);
	}
}

/* The seed's private subprog against the same function in this machine's
 * flavour: five flavour differences, no real mismatch; and the flavour
 * descriptions name both. */
static void cross_flavour(void)
{
	struct sb_listing seed, v618;
	if (load("seed001_private_sub.lst", &seed) || load("jit_seed001_private_sub_v6_18_flavour.lst", &v618))
		return;
	struct sb_jit_cmp c;
	sb_jit_compare(&v618, &seed, &c);
	CHECK(!c.mismatch, "cross-flavour: real mismatch %s", c.where);
	CHECK(c.n_flavour == 5, "cross-flavour: %zu flavour differences: %s", c.n_flavour, c.flavour);
	CHECK(strstr(c.flavour, "endbr64 at replica+0x0 only") && strstr(c.flavour, "endbr64 at replica+0xf only") &&
	      strstr(c.flavour, "padding 0f 1f 00 (kernel) vs 66 90 (replica)") &&
	      strstr(c.flavour, "gs displacement") && strstr(c.flavour, "return thunk"),
	      "cross-flavour differences: %s", c.flavour);
	struct sb_jit_flavour f;
	char desc[256];
	sb_jit_detect_flavour(&v618, &f);
	sb_jit_flavour_describe(&f, desc, sizeof(desc));
	CHECK(strcmp(desc, "no IBT, 0f 1f 00 padding, gs:0xffffffff83b0e028 (kernel address, v6.15+), "
			   "return thunk, private stack (r9 setup)") == 0, "described as '%s'", desc);
	sb_listing_free(&seed);
	sb_listing_free(&v618);
}

/* Copies of a recorded dump with one change each. */
static void injected(void)
{
	struct sb_listing k, base;
	if (load("jit_v6_18_run_private.prog_private.lst", &base))
		return;
	struct sb_jit_cmp c;

	/* 1. push r9 (41 51) of the second call turned into push r8 (41 50):
	 * instruction 18 at +0x4d. */
	load("jit_v6_18_run_private.prog_private.lst", &k);
	CHECK(k.insns[18].off == 0x4d && k.insns[18].bytes[1] == 0x51, "layout: insn 18 at %#zx",
	      k.insns[18].off);
	k.insns[18].bytes[1] = 0x50;
	sb_jit_compare(&k, &base, &c);
	CHECK(c.mismatch && c.kernel_idx == 18 && c.replica_idx == 18 && c.kernel_off == 0x4d,
	      "push r8: mismatch=%d at %ld/%ld %#zx", c.mismatch, c.kernel_idx, c.replica_idx, c.kernel_off);
	CHECK(strstr(c.where, "kernel+0x4d [41 50]") && strstr(c.where, "replica+0x4d [41 51]"),
	      "push r8 located as: %s", c.where);
	sb_listing_free(&k);

	/* 2. the frame offset [r9-0x40] of the store changed to [r9-0x38]. */
	load("jit_v6_18_run_private.prog_private.lst", &k);
	CHECK(k.insns[7].off == 0x20 && k.insns[7].bytes[3] == 0xc0, "layout: insn 7");
	k.insns[7].bytes[3] = 0xc8;
	sb_jit_compare(&k, &base, &c);
	CHECK(c.mismatch && c.kernel_idx == 7 && c.kernel_off == 0x20, "frame offset: %s", c.where);
	sb_listing_free(&k);

	/* 3. pop r9 after the first call dropped: the next instruction is out
	 * of step, located at the dropped one's index. */
	load("jit_v6_18_run_private.prog_private.lst", &k);
	CHECK(k.insns[16].bytes[0] == 0x41 && k.insns[16].bytes[1] == 0x59 && k.insns[16].off == 0x48,
	      "layout: insn 16 is pop r9 at +0x48");
	memmove(&k.insns[16], &k.insns[17], (k.n - 17) * sizeof(k.insns[0]));
	k.n--;
	sb_jit_compare(&k, &base, &c);
	CHECK(c.mismatch && c.kernel_idx == 16 && c.replica_idx == 16 && c.replica_off == 0x48 &&
	      strstr(c.where, "replica+0x48 [41 59] pop r9"),
	      "dropped pop: %s", c.where);
	sb_listing_free(&k);

	/* 4. one instruction more at the end. */
	load("jit_v6_18_run_private.prog_private.lst", &k);
	struct sb_listing shorter = base;
	shorter.n--;
	sb_jit_compare(&k, &shorter, &c);
	CHECK(c.mismatch && c.kernel_idx == (long)k.n - 1 && c.replica_idx == -1 &&
	      strstr(c.where, "(end of code)"), "extra instruction: %s", c.where);
	sb_listing_free(&k);

	/* 5. masked fields: imm64 of movabs r9, gs disp32, call rel32 all changed:
	 * not a mismatch, and the gs change is named as a flavour difference. */
	load("jit_v6_18_run_private.prog_private.lst", &k);
	k.insns[5].bytes[4] ^= 0xff;  /* movabs r9 imm64 */
	k.insns[6].bytes[6] ^= 0x10;  /* add r9, gs:[disp32] */
	k.insns[15].bytes[2] ^= 0x01; /* call rel32 */
	sb_jit_compare(&k, &base, &c);
	CHECK(!c.mismatch && c.n_flavour == 1 && strstr(c.flavour, "gs displacement"),
	      "masked fields: mismatch=%d flavour=%zu '%s' %s", c.mismatch, c.n_flavour, c.flavour, c.where);
	sb_listing_free(&k);

	/* 6. the opcode byte of a movabs (masked imm64) still compared:
	 * movabs r9 -> movabs r8 (49 b8). */
	load("jit_v6_18_run_private.prog_private.lst", &k);
	k.insns[5].bytes[1] = 0xb8;
	sb_jit_compare(&k, &base, &c);
	CHECK(c.mismatch && c.kernel_idx == 5 && c.kernel_off == 0xd, "movabs r8: %s", c.where);
	sb_listing_free(&k);
	sb_listing_free(&base);
}

/* The raw dump decodes to the recorded listing (capstone agrees with the
 * instruction boundaries and bytes of the file), and --dump-jit's writer
 * reads back as the same code. */
static void raw_and_dump_writer(void)
{
	static const char *const names[] = {"run_private.prog_private", "loop_private.loop_private"};
	for (size_t i = 0; i < 2; i++) {
		char path[1024], lst[256];
		snprintf(path, sizeof(path), "%s/jit_v6_18_%s.bin", data_dir, names[i]);
		snprintf(lst, sizeof(lst), "jit_v6_18_%s.lst", names[i]);
		FILE *f = fopen(path, "rb");
		CHECK(f != NULL, "%s: %s", path, strerror(errno));
		if (!f)
			continue;
		uint8_t buf[4096];
		size_t n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		struct sb_listing fromraw, recorded;
		if (decode_mem(buf, n, names[i], &fromraw) || load(lst, &recorded))
			continue;
		CHECK(fromraw.n == recorded.n && fromraw.size == recorded.size, "%s: %zu/%zu insns", names[i],
		      fromraw.n, recorded.n);
		for (size_t j = 0; j < fromraw.n && j < recorded.n; j++)
			CHECK(fromraw.insns[j].off == recorded.insns[j].off &&
			      fromraw.insns[j].len == recorded.insns[j].len &&
			      memcmp(fromraw.insns[j].bytes, recorded.insns[j].bytes, fromraw.insns[j].len) == 0,
			      "%s: insn %zu differs", names[i], j);

		/* Write through sb_jit_dump and read the listing back. */
		char dir[] = "/tmp/sb_jit_dump_XXXXXX";
		CHECK(mkdtemp(dir) != NULL, "mkdtemp");
		struct sb_jit_func fn = {.name = "f", .bytes = buf, .len = n};
		struct sb_jit_image img = {.prog_name = "p", .funcs = &fn, .n = 1};
		char err[512];
		CHECK(sb_jit_dump(dir, &img, err, sizeof(err)) == 0, "%s", err);
		char p2[1200];
		snprintf(p2, sizeof(p2), "%s/p.f.lst", dir);
		struct sb_listing back;
		int rc = sb_listing_parse_file(p2, &back, err, sizeof(err));
		CHECK(rc == 0, "dump listing: %s", err);
		if (rc == 0) {
			sb_jit_mask_listing(&back);
			struct sb_jit_cmp c;
			sb_jit_compare(&back, &recorded, &c);
			CHECK(!c.mismatch && c.n_flavour == 0 && back.size == n, "dump round trip: %s", c.where);
			sb_listing_free(&back);
		}
		snprintf(p2, sizeof(p2), "%s/p.f.bin", dir);
		struct stat st;
		CHECK(stat(p2, &st) == 0 && (size_t)st.st_size == n, "raw dump size");
		unlink(p2);
		snprintf(p2, sizeof(p2), "%s/p.f.lst", dir);
		unlink(p2);
		rmdir(dir);
		sb_listing_free(&fromraw);
		sb_listing_free(&recorded);
	}
	/* Bad input: an unwritable dump directory is named in the error. */
	struct sb_jit_func fn = {.name = "f", .bytes = (uint8_t[]){0xc3}, .len = 1};
	struct sb_jit_image img = {.prog_name = "p", .funcs = &fn, .n = 1};
	char err[512];
	CHECK(sb_jit_dump("/proc/nonexistent/dir", &img, err, sizeof(err)) == -1 &&
	      strstr(err, "/proc/nonexistent/dir"), "bad dump dir: %s", err);
	/* Undecodable bytes are located. */
	struct sb_listing l;
	CHECK(sb_jit_decode((const uint8_t[]){0x90, 0x06}, 2, "bad", &l, err, sizeof(err)) == -1 &&
	      strstr(err, "bad+0x1"), "undecodable: %s", err);
}

/* Relocation of a twin: same instructions with rel32 masked, calls re-aimed
 * at the moved subprog, the return-thunk jump still at the thunk; and the
 * two refusals. */
static void relocation(void)
{
	const struct sb_function *loop = sb_twin_find("loop_private", "loop_private");
	const struct sb_function *sub = sb_twin_find("loop_private", "sub_big");
	CHECK(loop && sub, "twin records");
	if (!loop || !sub)
		return;
	static uint8_t buf[2][512];
	uintptr_t new_loop = (uintptr_t)sub->addr + 0x100000 + 0x1c; /* any address in reach */
	uintptr_t new_sub = new_loop + 0x2000 + 0x18;
	struct sb_code_map map[2] = {
		{(uintptr_t)loop->addr, loop->size, new_loop},
		{(uintptr_t)sub->addr, sub->size, new_sub},
	};
	char err[256];
	CHECK(sb_jit_relocate(loop->addr, loop->size, map[0].old_addr, buf[0], new_loop, map, 2, err, sizeof(err)) == 0,
	      "relocate loop: %s", err);
	CHECK(sb_jit_relocate(sub->addr, sub->size, map[1].old_addr, buf[1], new_sub, map, 2, err, sizeof(err)) == 0,
	      "relocate sub: %s", err);
	struct sb_listing orig, moved;
	if (decode_mem(loop->addr, loop->size, "loop", &orig) || decode_mem(buf[0], loop->size, "moved", &moved))
		return;
	struct sb_jit_cmp c;
	sb_jit_compare(&moved, &orig, &c);
	CHECK(!c.mismatch && c.n_flavour == 0, "relocated loop differs: %s", c.where);
	size_t calls = 0, thunks = 0;
	for (size_t i = 0; i < moved.n; i++) {
		const struct sb_insn *in = &moved.insns[i];
		if (in->len != 5 || (in->bytes[0] != 0xe8 && in->bytes[0] != 0xe9))
			continue;
		int32_t rel;
		memcpy(&rel, in->bytes + 1, 4);
		uintptr_t target = new_loop + in->off + 5 + (intptr_t)rel;
		int32_t orel;
		memcpy(&orel, orig.insns[i].bytes + 1, 4);
		uintptr_t otarget = (uintptr_t)loop->addr + in->off + 5 + (intptr_t)orel;
		if (in->bytes[0] == 0xe8) {
			calls++;
			CHECK(target == new_sub, "call at +0x%zx goes to %#lx, not the moved sub %#lx", in->off,
			      (unsigned long)target, (unsigned long)new_sub);
		} else {
			thunks++;
			CHECK(target == otarget, "thunk jump at +0x%zx re-aimed to %#lx", in->off, (unsigned long)target);
		}
	}
	CHECK(calls == 3 && thunks == 1, "%zu calls, %zu thunk jumps", calls, thunks);
	sb_listing_free(&orig);
	sb_listing_free(&moved);

	/* A short jump leaving the function, and a target out of rel32 reach. */
	uint8_t out[8];
	CHECK(sb_jit_relocate((const uint8_t[]){0xeb, 0x10}, 2, 0x1000, out, 0x2000, NULL, 0, err, sizeof(err)) == -1 &&
	      strstr(err, "short jump out"), "short jump out: %s", err);
	CHECK(sb_jit_relocate((const uint8_t[]){0xe8, 0, 0, 0, 0}, 5, 0x1000, out, 0x7f0000000000ULL, NULL, 0, err,
			      sizeof(err)) == -1 && strstr(err, "out of rel32 reach"), "far target: %s", err);
}

int main(int argc, char **argv)
{
	data_dir = argc > 1 ? argv[1] : "tests/data";
	dumps_vs_twins();
	seed_listings();
	cross_flavour();
	injected();
	raw_and_dump_writer();
	relocation();
	return check_report("jit_compare");
}
