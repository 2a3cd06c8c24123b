/* deprivatize_command.c: "stubbench deprivatize FILE": a JITed function's
 * twin with the other frame (src/jit/deprivatize.c), printed as a listing,
 * and compared with the kernel's own JIT of it with --against. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stubbench/deprivatize.h"
#include "stubbench/flavour.h"
#include "stubbench/image_text.h"

static const char *func_name;   /* --func=NAME */
static long stack_depth = -1;   /* --stack-depth=N */
static int privatize;           /* --privatize */
static uint64_t frame_ptr;      /* --frame-ptr=ADDR */
static uint32_t gs_disp;        /* --gs-disp=DISP */
static const char *against;     /* --against=FILE */

enum { K_FUNC, K_DEPTH, K_PRIVATIZE, K_FRAME, K_GS, K_AGAINST };

static int parse_number(const char *opt, const char *arg, uint64_t max, uint64_t *v, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(arg, &end, 0);
	if (!*arg || *arg == '-' || *end || errno || x > max) {
		snprintf(err, errlen, "--%s: '%s' is not a number up to %#" PRIx64 " (decimal or 0x hex)", opt, arg,
			 max);
		return -1;
	}
	*v = x;
	return 0;
}

static int parse_twin(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	uint64_t v = 0;
	switch (key) {
	case K_FUNC:
	case K_AGAINST:
		if (!*arg) {
			snprintf(err, errlen, "--%s: empty", key == K_FUNC ? "func" : "against");
			return -1;
		}
		*(key == K_FUNC ? &func_name : &against) = arg;
		return 0;
	case K_PRIVATIZE:
		privatize = 1;
		return 0;
	case K_DEPTH:
		if (parse_number("stack-depth", arg, 512, &v, err, errlen))
			return -1;
		stack_depth = (long)v;
		return 0;
	case K_FRAME:
		return parse_number("frame-ptr", arg, UINT64_MAX, &frame_ptr, err, errlen);
	default:
		if (parse_number("gs-disp", arg, UINT32_MAX, &v, err, errlen))
			return -1;
		gs_disp = (uint32_t)v;
		return 0;
	}
}

static const struct sb_cli_group twin_group = {
	.title = "Twin",
	.options = (const struct sb_cli_option[]){
		{"func", "NAME", K_FUNC, "the function of FILE (default: the first with a private stack, or\n"
					 "with --privatize the first without)"},
		{"stack-depth", "N", K_DEPTH, "sub rsp of the twin, rounded up to 8 (default: the deepest\n"
					      "r9 frame offset the code reaches)"},
		{"privatize", NULL, K_PRIVATIZE, "the reverse: give a function without a private stack one"},
		{"frame-ptr", "ADDR", K_FRAME, "with --privatize: the per-CPU frame pointer r9 is loaded with\n"
					       "(default 0: xor r9d, r9d; the kernel's lie above 4 GiB: movabs)"},
		{"gs-disp", "DISP", K_GS, "with --privatize: the add r9, gs:[DISP] displacement (default 0)"},
		{"against", "FILE", K_AGAINST, "compare the twin with the kernel's JIT of the same function\n"
					       "the other way, instruction by instruction, addresses masked"},
		{NULL},
	},
	.parse = parse_twin,
};

/* The function to rewrite: --func, else the first that has (deprivatize)
 * or lacks (privatize) the r9 setup. */
static const struct sb_jit_func *pick(const struct sb_jit_image *img, const char *path)
{
	if (func_name) {
		const struct sb_jit_func *f = sb_jit_find(img, func_name);
		if (!f)
			fprintf(stderr, "stubbench deprivatize: %s: no function '%s'\n", path, func_name);
		return f;
	}
	for (size_t i = 0; i < img->n; i++) {
		char err[256];
		struct sb_listing l;
		if (sb_jit_decode(img->funcs[i].bytes, img->funcs[i].len, img->funcs[i].name, &l, err, sizeof(err)))
			continue;
		struct sb_jit_flavour fl;
		sb_jit_detect_flavour(&l, &fl);
		sb_listing_free(&l);
		if (fl.private_stack != privatize)
			return &img->funcs[i];
	}
	fprintf(stderr, "stubbench deprivatize: %s: no function %s a private stack\n", path,
		privatize ? "without" : "with");
	return NULL;
}

/* --against: 0 equal, 1 different, 2 unreadable. */
static int compare_with(const struct sb_twin *t)
{
	char err[512], where[256];
	struct sb_jit_image img;
	if (sb_jit_image_read_file(against, &img, err, sizeof(err))) {
		fprintf(stderr, "stubbench deprivatize: %s\n", err);
		return EXIT_USAGE;
	}
	const struct sb_jit_func *f = func_name && sb_jit_find(&img, func_name) ? sb_jit_find(&img, func_name)
										 : &img.funcs[0];
	struct sb_listing l;
	int rc = EXIT_USAGE;
	if (sb_jit_decode(f->bytes, f->len, f->name, &l, err, sizeof(err)) == 0) {
		long d = sb_twin_compare(&l, t->code, t->len, where, sizeof(where));
		if (d == -1)
			printf("# equal to %s (%s): %zu instructions, addresses masked\n", against, f->name, l.n);
		else
			printf("# differs from %s (%s): %s\n", against, f->name, where);
		rc = d == -1 ? 0 : 1;
		sb_listing_free(&l);
	} else
		fprintf(stderr, "stubbench deprivatize: %s: %s\n", against, err);
	sb_jit_image_free(&img);
	return rc;
}

static int run_deprivatize(struct sb_cli *cli)
{
	if (cli->n_operands != 1) {
		fprintf(stderr, "stubbench deprivatize: needs one FILE (see --help)\n");
		return EXIT_USAGE;
	}
	const char *path = cli->operands[0];
	char err[512];
	struct sb_jit_image img;
	if (sb_jit_image_read_file(path, &img, err, sizeof(err))) {
		fprintf(stderr, "stubbench deprivatize: %s\n", err);
		return EXIT_USAGE;
	}
	int rc = EXIT_USAGE;
	const struct sb_jit_func *f = pick(&img, path);
	struct sb_twin t;
	struct sb_deprivatize_opts o = {.stack_depth = stack_depth};
	if (f && (privatize ? sb_privatize(f->bytes, f->len, frame_ptr, gs_disp, &t, err, sizeof(err))
			    : sb_deprivatize(f->bytes, f->len, &o, &t, err, sizeof(err))))
		fprintf(stderr, "stubbench deprivatize: %s (%s): %s\n", path, f->name, err);
	else if (f) {
		printf("# %s twin of %s (%s)\n# %zu -> %zu bytes, stack depth %#x, %zu push/pop r9 pairs %s,\n"
		       "# %zu frame instructions %s, %zu jumps resized\n",
		       privatize ? "privatized" : "de-privatized", f->name, path, f->len, t.len, t.stack_depth,
		       t.calls_wrapped, privatize ? "added" : "removed", t.frame_insns,
		       privatize ? "rbp -> r9" : "r9 -> rbp", t.branches_resized);
		rc = sb_twin_print(stdout, t.code, t.len, err, sizeof(err)) ? 1 : 0;
		if (rc == 0 && against)
			rc = compare_with(&t);
		sb_twin_free(&t);
	}
	sb_jit_image_free(&img);
	return rc;
}

const struct sb_subcommand sb_deprivatize_command = {
	.name = "deprivatize",
	.summary = "Prints the twin of a JITed function with the other frame: a function with a private\n"
		   "stack as the kernel's JIT emits it without one (with --privatize, the reverse).\n"
		   "FILE: --dump-jit's .bin or .lst, a listing like the seeds', or the text of\n"
		   "bpftool prog dump jited PROG opcodes. docs/auto-twins.md says what a twin stands for.",
	.operands = "FILE",
	.groups = {&twin_group},
	.epilog = "exit status: 0 printed (and equal with --against), 1 differs from --against,\n"
		  "2 bad option, or a file that cannot be read or rewritten\n",
	.run = run_deprivatize,
};
