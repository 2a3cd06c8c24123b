/* kernel_obj_jit.c: the JIT of a `stubbench kernel --obj` run's programs
 * read back: flavour, whether each function got a private stack (an r9
 * frame), --dump-jit; see kernel_obj.h. */
#include "kernel_obj.h"

#include <string.h>

#include "stubbench/decode.h"
#include "stubbench/dump.h"
#include "stubbench/flavour.h"
#include "stubbench/jit_check.h"
#include "stubbench/jit_read.h"
#include "stubbench/json_writer.h"
#include "stubbench/listing.h"

/* Function f's JIT flavour (whether it sets up r9, a private stack,
 * among it) into *fl: 0, or -1 when it does not decode. */
static int func_flavour(const struct sb_jit_func *f, struct sb_jit_flavour *fl)
{
	struct sb_listing l;
	char err[256];
	memset(fl, 0, sizeof(*fl));
	if (sb_jit_decode(f->bytes, f->len, f->name, &l, err, sizeof(err)) != 0)
		return -1;
	sb_jit_detect_flavour(&l, fl);
	sb_listing_free(&l);
	/* The test hook: an r9 frame seen as none, of a stack not known (-1). */
	if (sb_kernel_test_no_private_stack() && fl->private_stack) {
		fl->private_stack = 0;
		fl->stack_bytes = -1;
	}
	return 0;
}

/* Function i of img: its frame in one line into f and its JSON object
 * into j; the first one with the stack for a private stack but none into
 * r->no_priv_what; the flavour of function 0 into desc. Returns 1 when it
 * has a private stack. */
static int check_func(struct sb_obj_run *r, const struct sb_jit_image *img, size_t i, char *desc, size_t desclen,
		      FILE *f, FILE *j)
{
	const struct sb_jit_func *fn = &img->funcs[i];
	struct sb_jit_flavour fl;
	int decoded = func_flavour(fn, &fl) == 0;
	if (decoded && i == 0) {
		struct sb_jit_flavour shown = fl;
		shown.private_stack = 0;
		sb_jit_flavour_describe(&shown, desc, desclen);
	}
	/* An rbp frame of round_up(depth, 16) >= 64 bytes: where v6.13+
	 * upstream gives a private stack to raw_tp programs. */
	int big = decoded && !fl.private_stack && (fl.stack_bytes >= 49 || fl.stack_bytes < 0);
	char frame[96];
	if (!decoded)
		snprintf(frame, sizeof(frame), "not decodable");
	else if (fl.private_stack)
		snprintf(frame, sizeof(frame), "private stack (r9 frame)");
	else if (fl.stack_bytes < 0)
		snprintf(frame, sizeof(frame), "no private stack (the test hook's)");
	else
		snprintf(frame, sizeof(frame), "no private stack (rbp frame, %d bytes of stack)", fl.stack_bytes);
	if (big && !r->no_priv_what[0] && fl.stack_bytes < 0)
		snprintf(r->no_priv_what, sizeof(r->no_priv_what), "%s.%s (the test hook's)", img->prog_name, fn->name);
	else if (big && !r->no_priv_what[0])
		snprintf(r->no_priv_what, sizeof(r->no_priv_what), "%s.%s, whose rbp frame holds %d bytes",
			 img->prog_name, fn->name, fl.stack_bytes);
	fprintf(f, "jit %s.%s: %zu bytes, %s\n", img->prog_name, fn->name, fn->len, frame);
	fprintf(j, "%s{\"name\": ", i ? ", " : "");
	sb_json_string(j, fn->name);
	fprintf(j, ", \"bytes\": %zu, \"private_stack\": %s, \"rbp_stack_bytes\": ", fn->len,
		!decoded ? "null" : fl.private_stack ? "true" : "false");
	if (decoded && !fl.private_stack && fl.stack_bytes >= 0)
		fprintf(j, "%d}", fl.stack_bytes);
	else
		fputs("null}", j);
	return decoded && fl.private_stack;
}

int sb_obj_check_jit(struct sb_obj_run *r, FILE *f, FILE *j)
{
	const struct sb_config *cfg = r->cfg;
	char err[512];
	int rc = 0;
	fputs(",\n  \"user_object\": {\"path\": ", j);
	sb_json_string(j, cfg->obj);
	fprintf(j, ", \"batch_iters\": %s, \"programs\": [", r->has_batch_iters ? "true" : "false");
	for (size_t p = 0; p < cfg->n_progs; p++) {
		int fd = sb_user_obj_prog_fd(r->objs[0], cfg->progs[p]);
		struct sb_jit_image img;
		fprintf(j, "%s\n    {\"name\": ", p ? "," : "");
		sb_json_string(j, cfg->progs[p]);
		fprintf(j, ", \"id\": %u, \"functions\": [", sb_kernel_prog_id(fd));
		if (sb_jit_read(fd, &img, err, sizeof(err)) != 0) {
			fprintf(f, "jit %s: %s\n", cfg->progs[p], err);
			fputs("], \"jit_flavour\": null}", j);
			rc = -1;
			continue;
		}
		if (cfg->dump_dir && sb_jit_dump(cfg->dump_dir, &img, err, sizeof(err)) != 0) {
			fprintf(f, "jit %s: %s\n", cfg->progs[p], err);
			rc = -1;
		}
		char desc[256] = "unknown";
		int private = 0;
		for (size_t i = 0; i < img.n; i++)
			private |= check_func(r, &img, i, desc, sizeof(desc), f, j);
		fprintf(f, "jit %s: flavour %s\n", img.prog_name, desc);
		if (private)
			r->private_progs[r->n_private_progs++] = cfg->progs[p];
		fputs("], \"jit_flavour\": ", j);
		sb_json_string(j, desc);
		fputs("}", j);
		sb_jit_image_free(&img);
	}
	fputs("]", j);
	return rc;
}

int sb_obj_jit_private(struct sb_user_obj *obj, const char *prog)
{
	struct sb_jit_image img;
	char err[512];
	if (sb_jit_read(sb_user_obj_prog_fd(obj, prog), &img, err, sizeof(err)) != 0)
		return -1;
	int private = 0;
	for (size_t i = 0; i < img.n && !private; i++) {
		struct sb_jit_flavour fl;
		private = func_flavour(&img.funcs[i], &fl) == 0 && fl.private_stack;
	}
	sb_jit_image_free(&img);
	return private;
}
