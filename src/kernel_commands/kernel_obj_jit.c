/* kernel_obj_jit.c: the JIT of a `stubbench kernel --obj` run's programs
 * read back: flavour, whether each function got a private stack (an r9
 * frame), --dump-jit; see kernel_obj.h. */
#include "kernel_obj.h"

#include <string.h>

#include "jit/decode.h"
#include "jit/dump.h"
#include "kernel/auto_twin_source.h"
#include "jit/flavour.h"
#include "kernel/jit_check.h"
#include "kernel/jit_read.h"
#include "output/json_doc.h"
#include "jit/listing.h"
#ifdef SB_AUTO_TWINS
#include "twins/deprivatize.h"
#endif

/* Function f's JIT flavour (whether it sets up r9, a private stack,
 * among it) into *fl, f of the program prog_fd: 0, or -1 when it does not
 * decode. */
static int func_flavour(const struct sb_jit_func *f, int prog_fd, struct sb_jit_flavour *fl)
{
	struct sb_listing l;
	char err[256];
	memset(fl, 0, sizeof(*fl));
	if (sb_jit_decode(f->bytes, f->len, f->name, &l, err, sizeof(err)) != 0)
		return -1;
	sb_jit_detect_flavour(&l, fl);
	sb_listing_free(&l);
	/* The test hook (for the program's type): an r9 frame seen as none,
	 * of a stack not known (-1). */
	if (fl->private_stack && sb_kernel_test_no_private_stack_of(prog_fd)) {
		fl->private_stack = 0;
		fl->stack_bytes = -1;
	}
	return 0;
}

/* The depth of a private-stack function's r9 frame: the deepest offset
 * its code reaches through r9, rounded up to 8 (twins/deprivatize.h); -1
 * where it cannot be read (no auto-twins in this build, or no frame). */
static int r9_frame_depth(const struct sb_jit_func *fn)
{
#ifdef SB_AUTO_TWINS
	struct sb_twin t;
	char err[256];
	if (sb_deprivatize(fn->bytes, fn->len, NULL, &t, err, sizeof(err)) != 0)
		return -1;
	int depth = (int)t.stack_depth;
	sb_twin_free(&t);
	return depth;
#else
	(void)fn;
	return -1;
#endif
}

/* Upstream (v6.13+) gives a function a private stack from
 * round_up(stack_depth, 16) >= 64; the rbp frame's sub rsp is
 * round_up(stack_depth, 8), so from 56 bytes of it on. */
#define SB_PRIV_STACK_MIN_FRAME 49

/* A function's stack in words: its depth, whether it got a private stack
 * and why or why not (what its JIT shows, and upstream's threshold; never
 * a cause the run did not establish). *depth: bytes, or -1 not known. */
static void frame_words(const struct sb_jit_func *fn, int decoded, const struct sb_jit_flavour *fl, int *depth,
			char *buf, size_t len)
{
	*depth = -1;
	if (!decoded) {
		snprintf(buf, len, "not decodable: its stack not known");
	} else if (fl->private_stack) {
		*depth = r9_frame_depth(fn);
		if (*depth >= 0)
			snprintf(buf, len, "%d bytes of stack (its r9 frame's deepest access), private stack: "
				 "r9 setup in its JIT", *depth);
		else
			snprintf(buf, len, "private stack: r9 setup in its JIT (depth not read)");
	} else if (fl->stack_bytes < 0) {
		snprintf(buf, len, "no private stack (the test hook's), stack not known");
	} else if (fl->stack_bytes == 0) {
		*depth = 0;
		snprintf(buf, len, "0 bytes of stack, no private stack: no stack to move");
	} else if (fl->stack_bytes < SB_PRIV_STACK_MIN_FRAME) {
		*depth = fl->stack_bytes;
		snprintf(buf, len, "%d bytes of stack (rbp frame), no private stack: below the 64 bytes "
			 "(rounded up to 16) the kernel gives one from", fl->stack_bytes);
	} else {
		*depth = fl->stack_bytes;
		snprintf(buf, len, "%d bytes of stack (rbp frame), no private stack although 64 bytes or more: "
			 "the kernel's choice, why not established here (kernel --probe: which program types get "
			 "one)", fl->stack_bytes);
	}
}

/* Function i of img: its stack in one line into f and its object
 * into funcs (json_doc.h); the first one with the stack for a private stack but none into
 * r->no_priv_what; the flavour of function 0 into desc. Returns 1 when it
 * has a private stack. */
static int check_func(struct sb_obj_run *r, const struct sb_jit_image *img, int prog_fd, size_t i, char *desc,
		      size_t desclen, FILE *f, struct sb_doc *funcs)
{
	const struct sb_jit_func *fn = &img->funcs[i];
	struct sb_jit_flavour fl;
	int decoded = func_flavour(fn, prog_fd, &fl) == 0;
	if (decoded && i == 0) {
		struct sb_jit_flavour shown = fl;
		shown.private_stack = 0;
		sb_jit_flavour_describe(&shown, desc, desclen);
	}
	/* An rbp frame of round_up(depth, 16) >= 64 bytes: where v6.13+
	 * upstream gives a private stack to raw_tp programs. */
	int big = decoded && !fl.private_stack && (fl.stack_bytes >= SB_PRIV_STACK_MIN_FRAME || fl.stack_bytes < 0);
	char words[256];
	int depth;
	frame_words(fn, decoded, &fl, &depth, words, sizeof(words));
	if (big && !r->no_priv_what[0] && fl.stack_bytes < 0)
		snprintf(r->no_priv_what, sizeof(r->no_priv_what), "%s.%s (the test hook's)", img->prog_name, fn->name);
	else if (big && !r->no_priv_what[0])
		snprintf(r->no_priv_what, sizeof(r->no_priv_what), "%s.%s, whose rbp frame holds %d bytes",
			 img->prog_name, fn->name, fl.stack_bytes);
	fprintf(f, "jit %s.%s: %zu bytes of code; %s\n", img->prog_name, fn->name, fn->len, words);
	struct sb_doc *o = sb_doc_object(funcs, NULL);
	sb_doc_string(o, "name", fn->name);
	sb_doc_uint(o, "bytes", fn->len);
	if (decoded)
		sb_doc_bool(o, "private_stack", fl.private_stack);
	else
		sb_doc_null(o, "private_stack");
	if (decoded && !fl.private_stack && fl.stack_bytes >= 0)
		sb_doc_int(o, "rbp_stack_bytes", fl.stack_bytes);
	else
		sb_doc_null(o, "rbp_stack_bytes");
	/* The depth either frame shows (rbp: sub rsp; r9: its deepest access),
	 * and the line's words on it. */
	if (depth >= 0)
		sb_doc_int(o, "stack_bytes", depth);
	else
		sb_doc_null(o, "stack_bytes");
	sb_doc_string(o, "stack", words);
	return decoded && fl.private_stack;
}

/* --dump-jit of img (of prog fd), each listing's header naming the
 * program's globals and their kernel addresses, so that `stubbench diff
 * --global=NAME=VALUE` can set them in the twins of the listings. */
static int dump_with_globals(const char *dir, int fd, const struct sb_jit_image *img, char *err, size_t errlen)
{
	static struct sb_auto_twin_source src;
	char notes[2048] = "", sub[256];
	if (sb_auto_twin_source_read(fd, &src, sub, sizeof(sub)) == 0) {
		sb_auto_twin_source_globals(&src, notes, sizeof(notes));
		sb_auto_twin_source_free(&src);
	}
	return sb_jit_dump_noted(dir, img, notes, err, errlen);
}

int sb_obj_check_jit(struct sb_obj_run *r, FILE *f, struct sb_doc *doc)
{
	const struct sb_config *cfg = r->cfg;
	char err[512];
	int rc = 0;
	struct sb_doc *uo = sb_doc_object(doc, "user_object");
	sb_doc_string(uo, "path", cfg->kernel.obj);
	sb_doc_bool(uo, "batch_iters", r->has_batch_iters);
	struct sb_doc *progs = sb_doc_array(uo, "programs");
	for (size_t p = 0; p < cfg->kernel.n_progs; p++) {
		int fd = sb_user_obj_prog_fd(r->objs[0], cfg->kernel.progs[p]);
		struct sb_jit_image img;
		sb_doc_break(progs, "\n    ");
		struct sb_doc *prog = sb_doc_object(progs, NULL);
		sb_doc_string(prog, "name", cfg->kernel.progs[p]);
		sb_doc_uint(prog, "id", sb_kernel_prog_id(fd));
		struct sb_doc *funcs = sb_doc_array(prog, "functions");
		if (sb_jit_read(fd, &img, err, sizeof(err)) != 0) {
			fprintf(f, "jit %s: %s\n", cfg->kernel.progs[p], err);
			sb_doc_null(prog, "jit_flavour");
			rc = -1;
			continue;
		}
		if (cfg->kernel.dump_dir && dump_with_globals(cfg->kernel.dump_dir, fd, &img, err, sizeof(err)) != 0) {
			fprintf(f, "jit %s: %s\n", cfg->kernel.progs[p], err);
			r->dump_failed = 1;
			rc = -1;
		}
		char desc[256] = "unknown";
		int private = 0;
		for (size_t i = 0; i < img.n; i++)
			private |= check_func(r, &img, fd, i, desc, sizeof(desc), f, funcs);
		fprintf(f, "jit %s: flavour %s\n", img.prog_name, desc);
		if (private)
			r->private_progs[r->n_private_progs++] = cfg->kernel.progs[p];
		sb_doc_string(prog, "jit_flavour", desc);
		sb_jit_image_free(&img);
	}
	return rc;
}

int sb_obj_jit_private(struct sb_user_obj *obj, const char *prog)
{
	struct sb_jit_image img;
	char err[512];
	int fd = sb_user_obj_prog_fd(obj, prog);
	if (sb_jit_read(fd, &img, err, sizeof(err)) != 0)
		return -1;
	int private = 0;
	for (size_t i = 0; i < img.n && !private; i++) {
		struct sb_jit_flavour fl;
		private = func_flavour(&img.funcs[i], fd, &fl) == 0 && fl.private_stack;
	}
	sb_jit_image_free(&img);
	return private;
}
