/* test_image_text.c: JIT images read back from every form they are kept in
 * (image_text.h): bpftool's opcodes text (two functions), --dump-jit's .lst
 * and .bin, a seed's listing, a seed's mail text with two listings under
 * headers; the same bytes from each; bad input named with its line.
 * Argument: tests/data. */
#include "check.h"
#include "jit/image_text.h"

#include <stdlib.h>
#include <string.h>

static const char *data_dir;

static int read_in(const char *name, struct sb_jit_image *img, char *err, size_t errlen)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	return sb_jit_image_read_file(path, img, err, errlen);
}

static void check_forms(void)
{
	char err[256] = "";
	struct sb_jit_image bin, lst, bt, seed;
	CHECK(read_in("jit_v6_18_htab_private.htab_body.bin", &bin, err, sizeof(err)) == 0, "bin: %s", err);
	CHECK(read_in("jit_v6_18_htab_private.htab_body.lst", &lst, err, sizeof(err)) == 0, "lst: %s", err);
	CHECK(read_in("bpftool_v6_18_htab_private_opcodes.txt", &bt, err, sizeof(err)) == 0, "bpftool: %s", err);
	CHECK(read_in("seed001_private_main.lst", &seed, err, sizeof(err)) == 0, "seed: %s", err);
	if (check_failures)
		return;
	CHECK(bin.n == 1 && bin.funcs[0].len == 296 && strcmp(bin.funcs[0].name, "htab_body") == 0 &&
	      strcmp(bin.prog_name, "jit_v6_18_htab_private") == 0, "bin: %zu funcs, '%s' of '%s'", bin.n,
	      bin.funcs[0].name, bin.prog_name);
	CHECK(lst.n == 1 && lst.funcs[0].len == 296 && strcmp(lst.funcs[0].name, "htab_body") == 0 &&
	      strcmp(lst.prog_name, "htab_private") == 0 && lst.funcs[0].ksym == 0xffffffffc0059150ull,
	      "lst: '%s' of '%s' at %#llx", lst.funcs[0].name, lst.prog_name,
	      (unsigned long long)lst.funcs[0].ksym);
	CHECK(memcmp(lst.funcs[0].bytes, bin.funcs[0].bytes, 296) == 0, "lst and bin bytes differ");
	const struct sb_jit_func *body = sb_jit_find(&bt, "htab_body");
	CHECK(bt.n == 2 && strcmp(bt.funcs[0].name, "htab_private") == 0 && bt.funcs[0].len == 27 && body &&
	      body->len == 296 && memcmp(body->bytes, bin.funcs[0].bytes, 296) == 0,
	      "bpftool: %zu funcs, first '%s' %zu bytes", bt.n, bt.funcs[0].name, bt.funcs[0].len);
	CHECK(seed.n == 1 && seed.funcs[0].len == 0x5b && seed.funcs[0].bytes[0] == 0xf3 &&
	      strcmp(seed.funcs[0].name, "seed001_private_main") == 0, "seed: %zu bytes, '%s'",
	      seed.funcs[0].len, seed.funcs[0].name);
	sb_jit_image_free(&bin);
	sb_jit_image_free(&lst);
	sb_jit_image_free(&bt);
	sb_jit_image_free(&seed);
}

/* A seed's mail text with two listings under "subprog:" and "main prog:". */
static void check_blocks(void)
{
	char err[256] = "";
	struct sb_jit_image blk, sub, main_prog;
	CHECK(read_in("seed001_baseline_blocks.txt", &blk, err, sizeof(err)) == 0, "blocks: %s", err);
	CHECK(read_in("seed001_baseline_sub.lst", &sub, err, sizeof(err)) == 0, "sub: %s", err);
	CHECK(read_in("seed001_baseline_main.lst", &main_prog, err, sizeof(err)) == 0, "main: %s", err);
	if (check_failures)
		return;
	const struct sb_jit_func *s = sb_jit_find(&blk, "subprog"), *m = sb_jit_find(&blk, "main prog");
	CHECK(blk.n == 2 && s && m && s->len == sub.funcs[0].len && m->len == main_prog.funcs[0].len &&
	      memcmp(s->bytes, sub.funcs[0].bytes, s->len) == 0 &&
	      memcmp(m->bytes, main_prog.funcs[0].bytes, m->len) == 0,
	      "blocks: %zu functions, not the seed's subprog and main prog", blk.n);
	sb_jit_image_free(&blk);
	sb_jit_image_free(&sub);
	sb_jit_image_free(&main_prog);
	/* Prose between the blocks is named with its line. */
	static const char *prose = "subprog:\n0:  c3   ret\n\nThe following are\nmain prog:\n0:  c3   ret\n";
	CHECK(sb_jit_image_parse_text(prose, "p.txt", &blk, err, sizeof(err)) == -1 &&
	      strstr(err, "p.txt:4: not a listing line: 'The following are'"), "prose: '%s'", err);
}

static void check_bad(void)
{
	char err[256] = "";
	struct sb_jit_image img;
	static const char *no_bytes = "f:\n   0:\tpush %rbp\n\t55 \n   1:\tmov %rsp,%rbp\n   4:\tleave\n\tc9 \n";
	CHECK(sb_jit_image_parse_text(no_bytes, "x.txt", &img, err, sizeof(err)) == -1 &&
	      strstr(err, "x.txt:5: not the bytes of the instruction at 0x1"), "no bytes: '%s'", err);
	static const char *gap = "   0:\tpush %rbp\n\t55 \n   2:\tleave\n\tc9 \n";
	CHECK(sb_jit_image_parse_text(gap, "g.txt", &img, err, sizeof(err)) == -1 &&
	      strstr(err, "g.txt:3: offset 0x2, expected 0x1"), "gap: '%s'", err);
	static const char *last = "   0:\tpush %rbp\n\t55 \n   1:\tleave\n";
	CHECK(sb_jit_image_parse_text(last, "l.txt", &img, err, sizeof(err)) == -1 && strstr(err, "no bytes line"),
	      "last: '%s'", err);
	static const char *empty_func = "a:\n   0:\tret\n\tc3 \n\nb:\n";
	CHECK(sb_jit_image_parse_text(empty_func, "e.txt", &img, err, sizeof(err)) == -1 &&
	      strstr(err, "function b has no instructions"), "empty function: '%s'", err);
	CHECK(sb_jit_image_parse_text("hello\n", "h.txt", &img, err, sizeof(err)) == -1 &&
	      strstr(err, "h.txt:1: not a listing line"), "prose: '%s'", err);
	CHECK(sb_jit_image_read_file("/nonexistent/f.lst", &img, err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent/f.lst: No such file"), "missing: '%s'", err);
	CHECK(!sb_jit_text_is_bpftool("0: 55   push rbp\n1: c3   ret\n"), "a listing taken for bpftool text");
	/* Two functions, ksym and unknown names. */
	static const char *two = "0x00000000deadbeef:\n   0:\tret\n\tc3 \n\nunknown:\n   0:\tint3\n\tcc \n";
	CHECK(sb_jit_image_parse_text(two, "t.txt", &img, err, sizeof(err)) == 0 && img.n == 2 &&
	      img.funcs[0].ksym == 0xdeadbeef && strcmp(img.funcs[1].name, "func1") == 0 &&
	      img.funcs[1].bytes[0] == 0xcc, "two functions: '%s'", err);
	if (img.n == 2)
		sb_jit_image_free(&img);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_image_text DATA_DIR\n");
		return 2;
	}
	data_dir = argv[1];
	check_forms();
	check_blocks();
	check_bad();
	return check_report("image_text");
}
