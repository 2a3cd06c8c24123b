/* test_image_diff.c: what `stubbench diff` reads and maps, exactly (no
 * timing):
 *   - seed 001's main-prog listings with their subprogs (baseline ->
 *     private): two pairs by order, the subprog placed where the main
 *     prog's calls go, and the old -> new map: which old instruction is
 *     which new one, which are added (the r9 setup, the push/pop r9 pairs);
 *   - the v6.18 dumps: run_baseline -> run_private (functions with their
 *     kernel addresses), pair_baseline.deep_frame -> pair_private (the
 *     rbp frame accesses "changed" to r9's, sub rsp removed), functions
 *     paired by name across files, and a listing against itself
 *     identical;
 *   - the twins of both seed 001 sides (diff_twin.h) equal the hand-made
 *     replicas, baseline and private (asm/replicas_seed001_v2.asm),
 *     instruction by instruction with addresses masked, count their calls
 *     where the replicas do, and run;
 *   - errors: an unreadable file named, no function in common, main progs
 *     that do not pair, calls to more targets than functions.
 * Argument: tests/data. */
#include "check.h"
#include "base/code_symbols.h"
#include "twins/diff_twin.h"
#include "twins/image_diff.h"
#include "jit/jit_compare.h"
#include "variants/percpu.h"
#include "stubbench/registry.h"

#include <stdlib.h>
#include <string.h>

static const char *dir;

static int side(const char *files, struct sb_jit_image *img, char *how, size_t howlen)
{
	char list[2048] = "", err[512];
	char *copy = strdup(files), *save = NULL;
	for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s/%s", list[0] ? "," : "", dir, p);
	free(copy);
	int rc = sb_jit_image_read_files(list, img, err, sizeof(err));
	if (rc == 0)
		rc = sb_jit_image_place_calls(img, how, howlen, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", files, err);
	return rc;
}

/* The rows of pair f as "o>n" (same), "o~n" (changed), "+n", "-o". */
static void rows_text(const struct sb_func_diff *f, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t r = 0; r < f->n_rows && at < len; r++) {
		const struct sb_insn_map_row *w = &f->rows[r];
		const char *sep = r ? " " : "";
		switch (w->kind) {
		case SB_INSN_SAME:
			at += (size_t)snprintf(buf + at, len - at, "%s%ld>%ld", sep, w->old_i, w->new_i);
			break;
		case SB_INSN_CHANGED:
			at += (size_t)snprintf(buf + at, len - at, "%s%ld~%ld", sep, w->old_i, w->new_i);
			break;
		case SB_INSN_ADDED:
			at += (size_t)snprintf(buf + at, len - at, "%s+%ld", sep, w->new_i);
			break;
		default:
			at += (size_t)snprintf(buf + at, len - at, "%s-%ld", sep, w->old_i);
		}
	}
}

static void check_seed001(void)
{
	struct sb_jit_image old, nw;
	char how[2][300], rows[1024], err[512];
	if (side("seed001_baseline_main.lst,seed001_baseline_sub.lst", &old, how[0], sizeof(how[0])) ||
	    side("seed001_private_main.lst,seed001_private_sub.lst", &nw, how[1], sizeof(how[1])))
		return;
	CHECK(old.n == 2 && nw.n == 2, "%zu, %zu functions", old.n, nw.n);
	/* Without addresses: the subprog where the main prog's calls go. */
	CHECK(old.funcs[1].ksym - old.funcs[0].ksym == 0x9c, "baseline sub at main%+lld",
	      (long long)(old.funcs[1].ksym - old.funcs[0].ksym));
	CHECK(nw.funcs[1].ksym - nw.funcs[0].ksym == 0xffffffffe1512389ULL, "private sub at main+%#llx",
	      (unsigned long long)(nw.funcs[1].ksym - nw.funcs[0].ksym));
	CHECK(strstr(how[0], "every call of seed001_baseline_main goes to one target, taken as seed001_baseline_sub") !=
	      NULL, "how: %s", how[0]);
	struct sb_image_diff d;
	CHECK(sb_image_diff_make(&old, &nw, &d, err, sizeof(err)) == 0, "%s", err);
	CHECK(d.n == 2 && !d.f[0].by_name && d.f[0].old_fn == 0 && d.f[1].new_fn == 1, "%zu pairs", d.n);
	rows_text(&d.f[0], rows, sizeof(rows));
	CHECK(strcmp(rows, "0>0 1>1 2>2 3>3 4>4 5>5 +6 +7 6>8 7>9 8>10 9>11 +12 10>13 +14 +15 11>16 +17 +18 12>19 "
			   "+20 13>21 14>22 15>23") == 0, "main: %s", rows);
	rows_text(&d.f[1], rows, sizeof(rows));
	CHECK(strcmp(rows, "0>0 1>1 2>2 3>3 4>4 5>5 +6 +7 6>8 7>9 8>10") == 0, "sub: %s", rows);
	CHECK(sb_image_diff_count(&d, SB_INSN_ADDED) == 10 && sb_image_diff_count(&d, SB_INSN_CHANGED) == 0 &&
	      sb_image_diff_count(&d, SB_INSN_REMOVED) == 0 && !sb_image_diff_identical(&d), "counts");
	CHECK(strncmp(d.f[0].new_l.insns[6].text, "movabs r9", 9) == 0 &&
	      strncmp(d.f[0].new_l.insns[12].text, "push r9", 7) == 0, "added: %s, %s", d.f[0].new_l.insns[6].text,
	      d.f[0].new_l.insns[12].text);
	sb_image_diff_free(&d);
	/* A side against itself: no change. */
	CHECK(sb_image_diff_make(&old, &old, &d, err, sizeof(err)) == 0 && sb_image_diff_identical(&d) &&
	      sb_image_diff_count(&d, SB_INSN_SAME) == 25, "identical: %s", err);
	sb_image_diff_free(&d);
	sb_jit_image_free(&old);
	sb_jit_image_free(&nw);
}

static void check_map(const char *old_files, const char *new_files, size_t pair, int by_name, const char *want)
{
	struct sb_jit_image old, nw;
	char how[300], rows[2048], err[512];
	if (side(old_files, &old, how, sizeof(how)) || side(new_files, &nw, how, sizeof(how)))
		return;
	struct sb_image_diff d;
	int rc = sb_image_diff_make(&old, &nw, &d, err, sizeof(err));
	CHECK(rc == 0 && d.n > pair, "%s -> %s: %s", old_files, new_files, err);
	if (rc == 0 && d.n > pair) {
		rows_text(&d.f[pair], rows, sizeof(rows));
		CHECK(strcmp(rows, want) == 0, "%s -> %s, pair %zu:\n  got  %s\n  want %s", old_files, new_files, pair,
		      rows, want);
		CHECK(d.f[pair].by_name == by_name, "%s: paired by %s", old_files, d.f[pair].by_name ? "name" : "order");
		sb_image_diff_free(&d);
	}
	sb_jit_image_free(&old);
	sb_jit_image_free(&nw);
}

static void check_v6_18(void)
{
	const char *run_b = "jit_v6_18_run_baseline.prog_baseline.lst,jit_v6_18_run_baseline.sub_small.lst";
	const char *run_p = "jit_v6_18_run_private.prog_private.lst,jit_v6_18_run_private.sub_big.lst";
	/* push rbx stays, sub rsp goes, the frame accesses move from rbp to r9. */
	check_map(run_b, run_p, 0, 0,
		  "0>0 1>1 2>2 3>3 -4 5>4 +5 +6 6~7 7~8 8>9 9>10 10>11 11>12 12>13 +14 13>15 +16 14>17 +18 15>19 "
		  "+20 16>21 +22 17>23 +24 18>25 19>26 20>27 21>28");
	check_map(run_b, run_p, 1, 0, "0>0 1>1 2>2 3>3 -4 +4 +5 5~6 6~7 7>8 8>9");
	const char *pb = "jit_v6_18_pair_baseline.deep_frame.lst,jit_v6_18_pair_baseline.long_loop.lst";
	const char *pp = "jit_v6_18_pair_private.deep_frame.lst,jit_v6_18_pair_private.long_loop.lst";
	check_map(pb, pp, 0, 1,
		  "0>0 1>1 2>2 3>3 -4 +4 +5 5>6 6>7 7~8 8~9 9~10 10~11 11~12 12>13 13>14 14>15 15>16 16>17 17>18 "
		  "18>19 19>20");
	/* With kernel addresses, nothing is placed. */
	struct sb_jit_image img;
	char how[300] = "x";
	if (side(run_b, &img, how, sizeof(how)) == 0) {
		CHECK(how[0] == 0, "an image with addresses placed: %s", how);
		CHECK(img.funcs[0].ksym != 0 && img.funcs[1].ksym != 0, "ksyms %#llx %#llx",
		      (unsigned long long)img.funcs[0].ksym, (unsigned long long)img.funcs[1].ksym);
		sb_jit_image_free(&img);
	}
	/* One function without an address (.bin): the made-up one. */
	if (side("jit_v6_18_htab_private.htab_body.bin", &img, how, sizeof(how)) == 0) {
		CHECK(img.n == 1 && img.funcs[0].ksym == 0xffffffffc0100000ULL && strstr(how, "taken as helpers'"),
		      "a .bin placed at %#llx: %s", (unsigned long long)img.funcs[0].ksym, how);
		sb_jit_image_free(&img);
	}
}

static void expect_error(const char *old_files, const char *new_files, const char *want)
{
	struct sb_jit_image old = {0}, nw = {0};
	char how[300], err[768] = "";
	char list[2][2048] = {"", ""};
	const char *files[2] = {old_files, new_files};
	for (int s = 0; s < 2; s++) {
		char *copy = strdup(files[s]), *save = NULL;
		for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
			snprintf(list[s] + strlen(list[s]), sizeof(list[s]) - strlen(list[s]), "%s%s/%s",
				 list[s][0] ? "," : "", dir, p);
		free(copy);
	}
	int rc = sb_jit_image_read_files(list[0], &old, err, sizeof(err));
	if (rc == 0)
		rc = sb_jit_image_place_calls(&old, how, sizeof(how), err, sizeof(err));
	if (rc == 0)
		rc = sb_jit_image_read_files(list[1], &nw, err, sizeof(err));
	if (rc == 0)
		rc = sb_jit_image_place_calls(&nw, how, sizeof(how), err, sizeof(err));
	struct sb_image_diff d;
	if (rc == 0) {
		rc = sb_image_diff_make(&old, &nw, &d, err, sizeof(err));
		if (rc == 0)
			sb_image_diff_free(&d);
	}
	CHECK(rc != 0 && strstr(err, want), "%s -> %s: want an error with '%s', got %d '%s'", old_files, new_files,
	      want, rc, err);
	sb_jit_image_free(&old);
	sb_jit_image_free(&nw);
}

static void check_errors(void)
{
	expect_error("no_such_file.lst", "seed001_private_main.lst", "no_such_file.lst");
	expect_error("seed001_baseline_main.lst,seed001_baseline_sub.lst", "jit_v6_18_pair_private.deep_frame.lst",
		     "no function in common");
	expect_error("jit_v6_18_pair_baseline.deep_frame.lst,jit_v6_18_pair_baseline.long_loop.lst",
		     "jit_v6_18_pair_private.long_loop.lst,jit_v6_18_pair_private.deep_frame.lst",
		     "the main progs (deep_frame, long_loop) do not pair");
	expect_error("seed001_baseline_main.lst,seed001_baseline_sub.lst,seed001_private_sub.lst",
		     "seed001_private_main.lst", "go to 1 targets for 2 other functions");
	expect_error(",", "seed001_private_main.lst", "no file named");
}

/* The size of the code at addr (its symbol's). */
static size_t code_size(const void *addr)
{
	return sb_code_function_size((uintptr_t)addr, NULL);
}

/* Both sides' twins against the hand-made replicas, and run. */
static void check_twins(void)
{
	static const char *const files[2] = {"seed001_baseline_main.lst,seed001_baseline_sub.lst",
					     "seed001_private_main.lst,seed001_private_sub.lst"};
	static const char *const replicas[2] = {"baseline", "private"};
	char err[512], how[300];
	CHECK(sb_percpu_thread_init(err, sizeof(err)) == 0, "%s", err);
	for (int s = 0; s < 2; s++) {
		struct sb_jit_image img;
		if (side(files[s], &img, how, sizeof(how)))
			continue;
		static struct sb_diff_twin tw;
		int rc = sb_diff_twin_make(&img, s ? "new" : "old", SB_THUNK_RET, NULL, 0, &tw, err, sizeof(err));
		CHECK(rc == 0, "%s: %s", files[s], err);
		if (rc) {
			sb_jit_image_free(&img);
			continue;
		}
		const struct sb_variant *r = sb_variant_find(replicas[s]);
		const void *hand[2] = {(const void *)r->main, r->callee};
		CHECK(tw.t.cv.n_funcs == 2 && tw.counted, "%s: %zu functions, counter %d", files[s], tw.t.cv.n_funcs,
		      tw.counted);
		for (size_t i = 0; i < 2 && i < tw.t.cv.n_funcs; i++) {
			struct sb_listing a, h;
			sb_jit_decode((const uint8_t *)tw.t.cv.addr[i], tw.t.cv.len[i], "twin", &a, err, sizeof(err));
			sb_jit_decode(hand[i], code_size(hand[i]), "replica", &h, err, sizeof(err));
			struct sb_jit_cmp c;
			sb_jit_compare(&a, &h, &c);
			/* The gs displacement is the user GS base's first (auto_twin.h), an
			 * address field as masked as the others. */
			size_t gs = 0;
			for (const char *p = c.flavour; (p = strstr(p, "gs displacement")); p++)
				gs++;
			CHECK(!c.mismatch && c.n_flavour == gs && gs == (s ? 1u : 0u) && tw.t.cv.len[i] == code_size(hand[i]),
			      "%s function %zu: twin vs replica %s: %s%s (%zu vs %zu bytes)", files[s], i, replicas[s],
			      c.where, c.flavour, tw.t.cv.len[i], code_size(hand[i]));
			/* The main prog's calls land on the subprog's twin. */
			size_t calls = 0;
			for (size_t k = 0; i == 0 && k < a.n; k++)
				if (a.insns[k].len == 5 && a.insns[k].bytes[0] == 0xe8) {
					int32_t rel;
					memcpy(&rel, a.insns[k].bytes + 1, 4);
					calls += tw.t.cv.addr[0] + a.insns[k].off + 5 + (intptr_t)rel == tw.t.cv.addr[1];
				}
			CHECK(i != 0 || calls == 3, "%s: %zu of 3 calls land on the subprog's twin", files[s], calls);
			sb_listing_free(&a);
			sb_listing_free(&h);
		}
		CHECK(tw.t.n_private == (s ? 2u : 0u), "%s: %zu private frames", files[s], tw.t.n_private);
		uint64_t before = *tw.t.cv.v.counter;
		for (int k = 0; k < 7; k++)
			tw.t.cv.v.main();
		CHECK(*tw.t.cv.v.counter - before == 7, "%s: 7 runs counted %llu", files[s],
		      (unsigned long long)(*tw.t.cv.v.counter - before));
		CHECK(strcmp(tw.t.cv.v.family, "diff") == 0 && strcmp(tw.t.cv.v.name, s ? "new" : "old") == 0, "key");
		sb_diff_twin_free(&tw);
		sb_jit_image_free(&img);
	}
	CHECK(sb_percpu_check_guards() == 0, "a private stack guard word was overwritten");
	sb_percpu_thread_fini();
}

int main(int argc, char **argv)
{
	dir = argc > 1 ? argv[1] : "tests/data";
	check_seed001();
	check_v6_18();
	check_errors();
	check_twins();
	return check_report("image_diff");
}
