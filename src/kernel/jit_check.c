/* jit_check.c: the always-on JIT comparison of `stubbench kernel`.
 * Every function of every selected program is read, decoded, compared with
 * its twin (asm/twins_v6_18.asm) and, with --dump-jit, written out. The
 * flavour is named once; flavour differences are listed apart from real
 * mismatches, of which the first differing instruction is printed. */
#include "jit/decode.h"
#include "jit/dump.h"
#include "jit/flavour.h"
#include "jit/jit_compare.h"
#include "kernel/jit_read.h"
#include "kernel/jit_check.h"
#include "kernel/loader.h"
#include "variants/twin_variants.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>

/* The function of a program that must (private, hybrid) or must not
 * (baseline) set up r9: prog_<v> for per-run, the program itself in-loop. */
static const char *const frame_func[SB_N_SHAPES][SB_N_KVARIANTS] = {
	{"prog_baseline", "prog_private", "prog_hybrid"},
	{"loop_baseline", "loop_private", "loop_hybrid"},
};

/* The kernel's flavour from all functions: prologue and return from any,
 * the gs displacement from one that has it. */
static void merge_flavour(struct sb_jit_flavour *agg, int *have, const struct sb_jit_flavour *f)
{
	if (!*have) {
		*agg = *f;
		agg->private_stack = 0;
		*have = 1;
	}
	if (f->has_gs && !agg->has_gs) {
		agg->has_gs = 1;
		agg->gs_disp = f->gs_disp;
		agg->gs_kernel_addr = f->gs_kernel_addr;
	}
}

static int check_func(const struct sb_jit_image *img, const struct sb_jit_func *fn, FILE *f,
		      struct sb_jit_flavour *flavour)
{
	char err[256];
	struct sb_listing k, t;
	if (sb_jit_decode(fn->bytes, fn->len, fn->name, &k, err, sizeof(err))) {
		fprintf(f, "jit %s.%s: %s\n", img->prog_name, fn->name, err);
		return -1;
	}
	sb_jit_detect_flavour(&k, flavour);
	const struct sb_function *r = sb_twin_find(img->prog_name, fn->name);
	int rc = 0;
	if (!r) {
		fprintf(f, "jit %s.%s: no twin to compare with\n", img->prog_name, fn->name);
		rc = -1;
	} else if (sb_jit_decode(r->addr, r->size, fn->name, &t, err, sizeof(err)) == 0) {
		struct sb_jit_cmp c;
		sb_jit_compare(&k, &t, &c);
		if (c.mismatch) {
			fprintf(f, "jit %s.%s: MISMATCH with its twin at %s\n", img->prog_name, fn->name, c.where);
			rc = -1;
		} else {
			fprintf(f, "jit %s.%s: %zu bytes, %zu instructions, same as its twin%s%s\n",
				img->prog_name, fn->name, fn->len, k.n, c.n_flavour ? "; flavour differences: " : "",
				c.n_flavour ? c.flavour : "");
		}
		sb_listing_free(&t);
	} else {
		fprintf(f, "jit %s.%s: twin: %s\n", img->prog_name, fn->name, err);
		rc = -1;
	}
	sb_listing_free(&k);
	return rc;
}

int sb_kernel_test_no_private_stack(void)
{
	const char *e = getenv("STUBBENCH_TEST_NO_PRIV_STACK");
	return e && (strcmp(e, "1") == 0 || strcmp(e, "raw_tp") == 0);
}

int sb_kernel_test_no_private_stack_for(int prog_type)
{
	const char *e = getenv("STUBBENCH_TEST_NO_PRIV_STACK");
	return e && (strcmp(e, "1") == 0 || (strcmp(e, "raw_tp") == 0 && prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT));
}

/* The type of a loaded program (-1: unknown). */
static int prog_type_of(int prog_fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(prog_fd, &info, &len) ? -1 : (int)info.type;
}

int sb_kernel_test_no_private_stack_of(int prog_fd)
{
	return sb_kernel_test_no_private_stack() && sb_kernel_test_no_private_stack_for(prog_type_of(prog_fd));
}

/* Whether function name of img sets up r9 (1), has an rbp frame (0), or
 * is missing or undecodable (-1). With the test hook for the program's
 * type, never 1. */
static int has_private_stack(const struct sb_jit_image *img, const char *name, int prog_fd)
{
	int r = sb_jit_func_private_stack(img, name);
	return r == 1 && sb_kernel_test_no_private_stack_for(prog_type_of(prog_fd)) ? 0 : r;
}

/* One program's functions against their twins. Returns its status. */
static enum sb_kernel_status check_image(const struct sb_jit_image *img, int s, int v, FILE *f,
					 struct sb_jit_flavour *agg, int *have_flavour, char *why, size_t whylen)
{
	enum sb_kernel_status st = SB_KERNEL_OK;
	int have_frame_func = 0;
	for (size_t i = 0; i < img->n; i++) {
		struct sb_jit_flavour fl;
		memset(&fl, 0, sizeof(fl));
		int bad = check_func(img, &img->funcs[i], f, &fl);
		merge_flavour(agg, have_flavour, &fl);
		if (bad && st == SB_KERNEL_OK) {
			snprintf(why, whylen, "JITed code of %s differs from its twin (see above)", img->prog_name);
			st = SB_KERNEL_FAILED;
		}
		if (strcmp(img->funcs[i].name, frame_func[s][v]) != 0)
			continue;
		have_frame_func = 1;
		if (v == SB_KV_BASELINE && fl.private_stack) {
			snprintf(why, whylen, "%s.%s sets up r9 with 8 bytes of stack: the variants are not what "
				 "they should be", sb_kernel_prog_name(s, v), frame_func[s][v]);
			st = SB_KERNEL_FAILED;
		}
	}
	if (!have_frame_func && st == SB_KERNEL_OK) {
		snprintf(why, whylen, "%s has no JITed function %s (functions not named by BTF?)",
			 sb_kernel_prog_name(s, v), frame_func[s][v]);
		st = SB_KERNEL_FAILED;
	}
	return st;
}

enum sb_kernel_status sb_kernel_check_jit(const struct sb_kernel_obj *o, const int shapes[SB_N_SHAPES],
					  const int want[SB_N_KVARIANTS], const char *dump_dir, FILE *f,
					  int no_priv[SB_N_SHAPES][SB_N_KVARIANTS], char *why, size_t whylen)
{
	enum sb_kernel_status st = SB_KERNEL_OK;
	struct sb_jit_flavour agg;
	int have_flavour = 0;
	memset(&agg, 0, sizeof(agg));
	memset(no_priv, 0, sizeof(int) * SB_N_SHAPES * SB_N_KVARIANTS);
	char err[512];
	int dump_failed = 0, n_no_priv = 0;
	const char *first_no_priv = NULL;
	int first_s = 0, first_v = 0;
	snprintf(why, whylen, "ok");
	if (dump_dir) {
		struct sb_jit_image img;
		if (sb_jit_read(sb_kernel_empty_fd(o), &img, err, sizeof(err)) == 0) {
			if (sb_jit_dump(dump_dir, &img, err, sizeof(err))) {
				snprintf(why, whylen, "%s", err);
				st = SB_KERNEL_FAILED;
				dump_failed = 1;
			}
			sb_jit_image_free(&img);
		}
	}
	for (int s = 0; s < SB_N_SHAPES; s++) {
		if (!shapes[s])
			continue;
		for (int v = 0; v < SB_N_KVARIANTS; v++) {
			if (v != SB_KV_BASELINE && !want[v])
				continue;
			struct sb_jit_image img;
			if (sb_jit_read(sb_kernel_prog_fd(o, s, v), &img, err, sizeof(err))) {
				snprintf(why, whylen, "%s", err);
				if (strstr(err, "no permission"))
					return SB_KERNEL_NO_CAP;
				return strstr(err, "not JITed") ? SB_KERNEL_NO_JIT : SB_KERNEL_FAILED;
			}
			if (dump_dir && !dump_failed && sb_jit_dump(dump_dir, &img, err, sizeof(err))) {
				snprintf(why, whylen, "%s", err);
				st = SB_KERNEL_FAILED;
				dump_failed = 1;
			}
			/* A program meant to have a private stack that has none is
			 * not its twin's code: said once, not compared. */
			if (v != SB_KV_BASELINE && has_private_stack(&img, frame_func[s][v], sb_kernel_prog_fd(o, s, v)) == 0) {
				fprintf(f, "jit %s: no private stack (%s has an rbp frame): not compared with its "
					"twin\n", img.prog_name, frame_func[s][v]);
				no_priv[s][v] = 1;
				if (!n_no_priv++) {
					first_no_priv = frame_func[s][v];
					first_s = s;
					first_v = v;
				}
				sb_jit_image_free(&img);
				continue;
			}
			enum sb_kernel_status ist = check_image(&img, s, v, f, &agg, &have_flavour, err, sizeof(err));
			if (ist != SB_KERNEL_OK && st == SB_KERNEL_OK) {
				snprintf(why, whylen, "%s", err);
				st = ist;
			}
			sb_jit_image_free(&img);
		}
	}
	if (dump_dir && !dump_failed)
		fprintf(f, "jit: dumps written to %s\n", dump_dir);
	if (have_flavour) {
		char desc[256];
		sb_jit_flavour_describe(&agg, desc, sizeof(desc));
		fprintf(f, "jit flavour of this kernel: %s\n", desc);
	}
	if (n_no_priv && st == SB_KERNEL_OK) {
		snprintf(why, whylen, "%s.%s, a %s program's function with 64 bytes of stack",
			 sb_kernel_prog_name(first_s, first_v), first_no_priv,
			 sb_kernel_driver_name(sb_kernel_obj_driver(o)));
		st = SB_KERNEL_NO_PRIV_STACK;
	}
	return st;
}
