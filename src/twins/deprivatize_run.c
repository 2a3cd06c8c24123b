/* deprivatize_run.c: `stubbench deprivatize`; see deprivatize_run.h. */
#include "twins/deprivatize_run.h"

#include <stdio.h>

#include "twins/deprivatize.h"
#include "jit/flavour.h"
#include "jit/image_text.h"

#define TOOL "stubbench deprivatize"

/* The function to rewrite: --func, else the first that has (deprivatize)
 * or lacks (privatize) the r9 setup. */
static const struct sb_jit_func *pick(const struct sb_jit_image *img, const struct sb_deprivatize_run_opts *o)
{
	if (o->func) {
		const struct sb_jit_func *f = sb_jit_find(img, o->func);
		if (!f)
			fprintf(stderr, TOOL ": %s: no function '%s'\n", o->path, o->func);
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
		if (fl.private_stack != o->privatize)
			return &img->funcs[i];
	}
	fprintf(stderr, TOOL ": %s: no function %s a private stack\n", o->path, o->privatize ? "without" : "with");
	return NULL;
}

/* --against: SB_STATUS_OK equal, _FAILED different, _USAGE unreadable. */
static int compare_with(const struct sb_twin *t, const struct sb_deprivatize_run_opts *o)
{
	char err[512], where[256];
	struct sb_jit_image img;
	if (sb_jit_image_read_file(o->against, &img, err, sizeof(err))) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_USAGE;
	}
	const struct sb_jit_func *f = o->func && sb_jit_find(&img, o->func) ? sb_jit_find(&img, o->func) : &img.funcs[0];
	struct sb_listing l;
	int rc = SB_STATUS_USAGE;
	if (sb_jit_decode(f->bytes, f->len, f->name, &l, err, sizeof(err)) == 0) {
		long d = sb_twin_compare(&l, t->code, t->len, where, sizeof(where));
		if (d == -1)
			printf("# equal to %s (%s): %zu instructions, addresses masked\n", o->against, f->name, l.n);
		else
			printf("# differs from %s (%s): %s\n", o->against, f->name, where);
		rc = d == -1 ? SB_STATUS_OK : SB_STATUS_FAILED;
		sb_listing_free(&l);
	} else
		fprintf(stderr, TOOL ": %s: %s\n", o->against, err);
	sb_jit_image_free(&img);
	return rc;
}

/* f's twin into t: de-privatized, or privatized with o's frame pointer
 * and gs displacement. Returns 0, or -1 with err. */
static int make_twin(const struct sb_jit_func *f, const struct sb_deprivatize_run_opts *o, struct sb_twin *t,
		     char *err, size_t errlen)
{
	if (o->privatize)
		return sb_privatize(f->bytes, f->len, o->frame_ptr, o->gs_disp, t, err, errlen);
	struct sb_deprivatize_opts d = {.stack_depth = o->stack_depth};
	return sb_deprivatize(f->bytes, f->len, &d, t, err, errlen);
}

/* The twin t of f on stdout, under a header saying what changed, then
 * compared with --against. */
static int print_twin(const struct sb_jit_func *f, const struct sb_deprivatize_run_opts *o, const struct sb_twin *t)
{
	char err[512];
	printf("# %s twin of %s (%s)\n# %zu -> %zu bytes, stack depth %#x, %zu push/pop r9 pairs %s,\n"
	       "# %zu frame instructions %s, %zu jumps resized\n",
	       o->privatize ? "privatized" : "de-privatized", f->name, o->path, f->len, t->len, t->stack_depth,
	       t->calls_wrapped, o->privatize ? "added" : "removed", t->frame_insns,
	       o->privatize ? "rbp -> r9" : "r9 -> rbp", t->branches_resized);
	int rc = sb_twin_print(stdout, t->code, t->len, err, sizeof(err)) ? SB_STATUS_FAILED : SB_STATUS_OK;
	if (rc == SB_STATUS_OK && o->against)
		rc = compare_with(t, o);
	return rc;
}

enum sb_status sb_deprivatize_run(const struct sb_deprivatize_run_opts *o)
{
	char err[512];
	struct sb_jit_image img;
	if (sb_jit_image_read_file(o->path, &img, err, sizeof(err))) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_USAGE;
	}
	int rc = SB_STATUS_USAGE;
	const struct sb_jit_func *f = pick(&img, o);
	struct sb_twin t;
	if (f && make_twin(f, o, &t, err, sizeof(err)))
		fprintf(stderr, TOOL ": %s (%s): %s\n", o->path, f->name, err);
	else if (f) {
		rc = print_twin(f, o, &t);
		sb_twin_free(&t);
	}
	sb_jit_image_free(&img);
	return rc;
}
