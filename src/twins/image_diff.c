/* image_diff.c: two JIT images of one program read, paired and mapped
 * instruction by instruction; see image_diff.h. */
#include "twins/image_diff.h"
#include "base/error.h"
#include "jit/image_text.h"
#include "twins/insn_align.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the main prog of an image without addresses is placed: a made-up
 * address in the kernel's module area, as the JIT's programs are. */
#define MADE_UP_KSYM 0xffffffffc0100000ULL

int sb_jit_image_read_files(const char *list, struct sb_jit_image *img, char *err, size_t errlen)
{
	memset(img, 0, sizeof(*img));
	char *copy = strdup(list), *save = NULL;
	if (!copy) {
		sb_set_err(err, errlen, "out of memory");
		return -1;
	}
	int rc = 0;
	size_t files = 0;
	for (char *p = strtok_r(copy, ",", &save); p && rc == 0; p = strtok_r(NULL, ",", &save), files++) {
		struct sb_jit_image one;
		if (sb_jit_image_read_file(p, &one, err, errlen)) {
			rc = -1;
			break;
		}
		struct sb_jit_func *nf = realloc(img->funcs, (img->n + one.n) * sizeof(*nf));
		if (!nf) {
			sb_jit_image_free(&one);
			sb_set_err(err, errlen, "%s: out of memory", p);
			rc = -1;
			break;
		}
		img->funcs = nf;
		memcpy(img->funcs + img->n, one.funcs, one.n * sizeof(*nf));
		img->n += one.n;
		if (files == 0)
			snprintf(img->prog_name, sizeof(img->prog_name), "%s", one.prog_name);
		free(one.funcs);
	}
	if (rc == 0 && files == 0) {
		sb_set_err(err, errlen, "'%s': no file named", list);
		rc = -1;
	}
	free(copy);
	if (rc)
		sb_jit_image_free(img);
	return rc;
}

/* The distinct targets of f's calls leaving f, offsets from its start
 * (mod 2^64), in the order of their first call. */
static int call_targets(const struct sb_jit_func *f, uint64_t *out, size_t max, size_t *n, char *err, size_t errlen)
{
	struct sb_listing l;
	if (sb_jit_decode(f->bytes, f->len, f->name, &l, err, errlen))
		return -1;
	*n = 0;
	for (size_t i = 0; i < l.n; i++) {
		const struct sb_insn *in = &l.insns[i];
		if (in->len != 5 || in->bytes[0] != 0xe8)
			continue;
		int32_t rel;
		memcpy(&rel, in->bytes + 1, 4);
		uint64_t t = in->off + 5 + (uint64_t)(int64_t)rel;
		if (t < f->len)
			continue;
		int have = 0;
		for (size_t k = 0; k < *n && !have; k++)
			have = out[k] == t;
		if (!have && *n < max)
			out[(*n)++] = t;
	}
	sb_listing_free(&l);
	return 0;
}

int sb_jit_image_place_calls(struct sb_jit_image *img, char *how, size_t howlen, char *err, size_t errlen)
{
	if (howlen)
		how[0] = 0;
	int addressed = 0;
	for (size_t i = 0; i < img->n; i++)
		addressed |= img->funcs[i].ksym != 0;
	if (addressed || img->n == 0)
		return 0;
	if (img->n == 1) {
		img->funcs[0].ksym = MADE_UP_KSYM;
		snprintf(how, howlen, "%s: no kernel address; %s's calls taken as helpers'", img->prog_name,
			 img->funcs[0].name);
		return 0;
	}
	uint64_t t[SB_CODE_VARIANT_MAX_FUNCS + 1];
	size_t n;
	char sub[200];
	if (call_targets(&img->funcs[0], t, SB_CODE_VARIANT_MAX_FUNCS + 1, &n, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "%s: %s", img->funcs[0].name, sub);
		return -1;
	}
	if (n != img->n - 1) {
		sb_set_err(err, errlen, "%s: no kernel addresses, and %s's calls go to %zu targets for %zu other "
			   "functions: which call goes to which function cannot be told (use --dump-jit's .lst, "
			   "which has them)", img->prog_name, img->funcs[0].name, n, img->n - 1);
		return -1;
	}
	img->funcs[0].ksym = MADE_UP_KSYM;
	for (size_t k = 0; k < n; k++)
		img->funcs[k + 1].ksym = MADE_UP_KSYM + t[k];
	if (n == 1)
		snprintf(how, howlen, "%s: no kernel addresses; every call of %s goes to one target, taken as %s",
			 img->prog_name, img->funcs[0].name, img->funcs[1].name);
	else
		snprintf(how, howlen, "%s: no kernel addresses; the %zu targets of %s's calls taken as the other "
			 "functions, in the order of the files", img->prog_name, n, img->funcs[0].name);
	return 0;
}

/* Pairs by name, then the rest by order when as many are left. */
static int pair(const struct sb_jit_image *old, const struct sb_jit_image *nw, struct sb_image_diff *d, char *err,
		size_t errlen)
{
	int used_o[64] = {0}, used_n[64] = {0};
	if (old->n > 64 || nw->n > 64) {
		sb_set_err(err, errlen, "more than 64 functions");
		return -1;
	}
	for (size_t i = 0; i < old->n; i++)
		for (size_t j = 0; j < nw->n; j++)
			if (!used_n[j] && !used_o[i] && strcmp(old->funcs[i].name, nw->funcs[j].name) == 0) {
				used_o[i] = used_n[j] = 1;
				if (d->n == SB_CODE_VARIANT_MAX_FUNCS)
					goto too_many;
				d->f[d->n++] = (struct sb_func_diff){.old_fn = i, .new_fn = j, .by_name = 1};
			}
	size_t left_o = old->n - d->n, left_n = nw->n - d->n;
	if (left_o == left_n)
		for (size_t i = 0, j = 0; i < old->n; i++) {
			if (used_o[i])
				continue;
			while (used_n[j])
				j++;
			used_o[i] = used_n[j] = 1;
			if (d->n == SB_CODE_VARIANT_MAX_FUNCS)
				goto too_many;
			d->f[d->n++] = (struct sb_func_diff){.old_fn = i, .new_fn = j++, .by_name = 0};
		}
	d->old_unpaired = old->n - d->n;
	d->new_unpaired = nw->n - d->n;
	if (d->n == 0) {
		sb_set_err(err, errlen, "no function in common: %zu functions against %zu, no name in both", old->n,
			   nw->n);
		return -1;
	}
	/* The main progs (each image's first function) pair with each other. */
	if (d->f[0].old_fn != 0 || d->f[0].new_fn != 0) {
		size_t k = 0;
		while (k < d->n && !(d->f[k].old_fn == 0 && d->f[k].new_fn == 0))
			k++;
		if (k == d->n) {
			sb_set_err(err, errlen, "the main progs (%s, %s) do not pair: different programs?",
				   old->funcs[0].name, nw->funcs[0].name);
			return -1;
		}
		struct sb_func_diff m = d->f[k];
		memmove(d->f + 1, d->f, k * sizeof(m));
		d->f[0] = m;
	}
	return 0;
too_many:
	sb_set_err(err, errlen, "more than %d function pairs", SB_CODE_VARIANT_MAX_FUNCS);
	return -1;
}

static int map_pair(const struct sb_jit_image *old, const struct sb_jit_image *nw, struct sb_func_diff *f, char *err,
		    size_t errlen)
{
	const struct sb_jit_func *a = &old->funcs[f->old_fn], *b = &nw->funcs[f->new_fn];
	char sub[200];
	if (sb_jit_decode(a->bytes, a->len, a->name, &f->old_l, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "old %s: %s", a->name, sub);
		return -1;
	}
	if (sb_jit_decode(b->bytes, b->len, b->name, &f->new_l, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "new %s: %s", b->name, sub);
		return -1;
	}
	if (sb_insn_align(a->bytes, a->len, b->bytes, b->len, &f->rows, &f->n_rows, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "%s: %s", a->name, sub);
		return -1;
	}
	size_t n_old = 0, n_new = 0;
	for (size_t i = 0; i < f->n_rows; i++) {
		f->n[f->rows[i].kind]++;
		n_old += f->rows[i].old_i >= 0;
		n_new += f->rows[i].new_i >= 0;
	}
	/* The rows index the listings (capstone's text): both decoders must
	 * see the same instructions. */
	if (n_old != f->old_l.n || n_new != f->new_l.n) {
		sb_set_err(err, errlen, "%s: the decoders disagree on its instructions", a->name);
		return -1;
	}
	return 0;
}

int sb_image_diff_make(const struct sb_jit_image *old, const struct sb_jit_image *nw, struct sb_image_diff *d,
		       char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	if (pair(old, nw, d, err, errlen))
		return -1;
	for (size_t k = 0; k < d->n; k++)
		if (map_pair(old, nw, &d->f[k], err, errlen)) {
			sb_image_diff_free(d);
			return -1;
		}
	return 0;
}

size_t sb_image_diff_count(const struct sb_image_diff *d, enum sb_insn_change kind)
{
	size_t n = 0;
	for (size_t k = 0; k < d->n; k++)
		n += d->f[k].n[kind];
	return n;
}

int sb_image_diff_identical(const struct sb_image_diff *d)
{
	return !d->old_unpaired && !d->new_unpaired && sb_image_diff_count(d, SB_INSN_CHANGED) == 0 &&
	       sb_image_diff_count(d, SB_INSN_ADDED) == 0 && sb_image_diff_count(d, SB_INSN_REMOVED) == 0;
}

void sb_image_diff_free(struct sb_image_diff *d)
{
	for (size_t k = 0; k < d->n; k++) {
		sb_listing_free(&d->f[k].old_l);
		sb_listing_free(&d->f[k].new_l);
		free(d->f[k].rows);
	}
	memset(d, 0, sizeof(*d));
}

const char *sb_insn_change_name(enum sb_insn_change k)
{
	static const char *const names[] = {"same", "changed", "added", "removed"};
	return (unsigned)k < 4 ? names[k] : "?";
}
