/* run_match.c: the rows and spreads of a saved run sorted by cell, so that
 * finding the same cell in another run takes O(log n) (run_file.h). */
#include "saved/run_match.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}


static int cmp_key(const struct sb_run_row *a, const struct sb_run_row *b)
{
	int c = cmp_u64(a->batch, b->batch);
	if (!c)
		c = sb_cell_key_cmp_code(&a->key, &b->key);
	if (!c)
		c = (a->key.placement > b->key.placement) - (a->key.placement < b->key.placement);
	return c;
}

static int cmp_name(const struct sb_run_row *a, const struct sb_run_row *b)
{
	int c = cmp_u64(a->batch, b->batch);
	return c ? c : strcmp(a->variant, b->variant);
}

/* qsort has no context argument: the rows being sorted. */
static const struct sb_run_row *sorting;

static int by_index(size_t a, size_t b)
{
	return (a > b) - (a < b);
}

static int qsort_key(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = cmp_key(&sorting[a], &sorting[b]);
	return c ? c : by_index(a, b);
}

static int qsort_name(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = cmp_name(&sorting[a], &sorting[b]);
	return c ? c : by_index(a, b);
}

/* The spreads over placements from the index: the copies of one code at
 * one batch (placement >= 0, a delta known) are next to each other in it,
 * so the spreads come out sorted by batch and code. */
static int spreads(struct sb_run_file *f)
{
	free(f->spread);
	f->spread = NULL;
	f->n_spread = 0;
	const struct sb_run_row *prev = NULL;
	for (size_t i = 0; i < f->n_rows; i++) {
		const struct sb_run_row *row = &f->rows[f->by_key[i]];
		const struct sb_estimate *delta = &row->figures[SB_FIGURE_DELTA];
		if (row->key.side == SB_SIDE_NONE || row->key.placement < 0 || !sb_estimate_known(delta))
			continue;
		f->spread_kind = "placements";
		if (prev && prev->batch == row->batch && sb_cell_key_cmp_code(&prev->key, &row->key) == 0) {
			struct sb_run_spread *s = &f->spread[f->n_spread - 1];
			s->min = fmin(s->min, delta->value);
			s->max = fmax(s->max, delta->value);
			s->k++;
			continue;
		}
		prev = row;
		if (!f->spread || !(f->n_spread & (f->n_spread - 1))) {
			size_t cap = f->n_spread ? 2 * f->n_spread : 1;
			struct sb_run_spread *grown = realloc(f->spread, cap * sizeof(*grown));
			if (!grown)
				return -1;
			f->spread = grown;
		}
		struct sb_run_spread *s = &f->spread[f->n_spread++];
		memset(s, 0, sizeof(*s));
		s->key = row->key;
		s->key.placement = -1;
		s->batch = row->batch;
		s->k = 1;
		s->min = s->max = delta->value;
	}
	return 0;
}

/* Rows compared on (batch, side, codegen) then, by depth, family and
 * shape (shape_first: shape before family). */
static int cmp_code_find(const struct sb_run_row *a, const struct sb_run_row *b, int depth, int shape_first)
{
	int c = cmp_u64(a->batch, b->batch);
	if (!c)
		c = (int)a->key.side - (int)b->key.side;
	if (!c)
		c = strcmp(a->key.codegen, b->key.codegen);
	const char *x1 = shape_first ? a->key.shape : a->key.family, *y1 = shape_first ? b->key.shape : b->key.family;
	const char *x2 = shape_first ? a->key.family : a->key.shape, *y2 = shape_first ? b->key.family : b->key.shape;
	if (!c && depth >= 4)
		c = strcmp(x1, y1);
	if (!c && depth >= 5)
		c = strcmp(x2, y2);
	return c;
}

static int qsort_code(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = cmp_code_find(&sorting[a], &sorting[b], 5, 0);
	return c ? c : by_index(a, b);
}

static int qsort_shape(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = cmp_code_find(&sorting[a], &sorting[b], 5, 1);
	return c ? c : by_index(a, b);
}

/* min[i]: the least of idx[i ..] within i's group (rows equal to depth). */
static void suffix_min(const struct sb_run_file *f, const size_t *idx, size_t *min, int depth, int shape_first)
{
	for (size_t i = f->n_code; i-- > 0;) {
		min[i] = idx[i];
		if (i + 1 < f->n_code && cmp_code_find(&f->rows[idx[i]], &f->rows[idx[i + 1]], depth, shape_first) == 0 &&
		    min[i + 1] < min[i])
			min[i] = min[i + 1];
	}
}

static void free_code_index(struct sb_run_file *f)
{
	free(f->by_code), free(f->by_shape), free(f->min_c), free(f->min_cf), free(f->min_cs);
	f->by_code = f->by_shape = f->min_c = f->min_cf = f->min_cs = NULL;
	f->n_code = 0;
}

static int code_index(struct sb_run_file *f)
{
	free_code_index(f);
	size_t n = f->n_rows ? f->n_rows : 1;
	f->by_code = malloc(n * sizeof(size_t));
	f->by_shape = malloc(n * sizeof(size_t));
	f->min_c = malloc(n * sizeof(size_t));
	f->min_cf = malloc(n * sizeof(size_t));
	f->min_cs = malloc(n * sizeof(size_t));
	if (!f->by_code || !f->by_shape || !f->min_c || !f->min_cf || !f->min_cs) {
		free_code_index(f);
		return -1;
	}
	f->host_rows = 0;
	for (size_t i = 0; i < f->n_rows; i++) {
		if (f->rows[i].key.placement < 0)
			f->by_code[f->n_code] = f->by_shape[f->n_code] = i, f->n_code++;
		f->host_rows |= strcmp(f->rows[i].key.family, "replica-host") == 0;
	}
	sorting = f->rows;
	qsort(f->by_code, f->n_code, sizeof(size_t), qsort_code);
	qsort(f->by_shape, f->n_code, sizeof(size_t), qsort_shape);
	suffix_min(f, f->by_code, f->min_c, 3, 0);
	suffix_min(f, f->by_code, f->min_cf, 4, 0);
	suffix_min(f, f->by_shape, f->min_cs, 4, 1);
	return 0;
}

void sb_run_file_index_free(struct sb_run_file *f)
{
	free_code_index(f);
}

const struct sb_run_row *sb_run_file_find_code(const struct sb_run_file *f, int side, const char *family,
					       const char *codegen, const char *shape, uint64_t batch)
{
	if (!f->by_code) {
		for (size_t i = 0; i < f->n_rows; i++) {
			const struct sb_run_row *r = &f->rows[i];
			if ((int)r->key.side == side && r->batch == batch && r->key.placement < 0 &&
			    strcmp(r->key.codegen, codegen) == 0 && (!family || strcmp(r->key.family, family) == 0) &&
			    (!shape || strcmp(r->key.shape, shape) == 0))
				return r;
		}
		return NULL;
	}
	struct sb_run_row like;
	like.batch = batch;
	like.key.side = (enum sb_cell_side)side;
	snprintf(like.key.codegen, sizeof(like.key.codegen), "%s", codegen);
	snprintf(like.key.family, sizeof(like.key.family), "%s", family ? family : "");
	snprintf(like.key.shape, sizeof(like.key.shape), "%s", shape ? shape : "");
	if (strlen(codegen) >= sizeof(like.key.codegen) || (family && strlen(family) >= sizeof(like.key.family)) ||
	    (shape && strlen(shape) >= sizeof(like.key.shape)))
		return NULL;
	int shape_first = !family && shape;
	int depth = family && shape ? 5 : family || shape ? 4 : 3;
	const size_t *idx = shape_first ? f->by_shape : f->by_code;
	const size_t *min = depth == 5 ? idx : shape_first ? f->min_cs : depth == 4 ? f->min_cf : f->min_c;
	size_t lo = 0, hi = f->n_code;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_code_find(&f->rows[idx[mid]], &like, depth, shape_first) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == f->n_code || cmp_code_find(&f->rows[idx[lo]], &like, depth, shape_first) != 0)
		return NULL;
	return &f->rows[min[lo]];
}

int sb_run_file_index(struct sb_run_file *f, int with_spread)
{
	if (code_index(f) != 0)
		return -1;
	free(f->by_key);
	free(f->by_name);
	f->by_key = malloc((f->n_rows ? f->n_rows : 1) * sizeof(size_t));
	f->by_name = malloc((f->n_rows ? f->n_rows : 1) * sizeof(size_t));
	f->n_index = 0;
	if (!f->by_key || !f->by_name)
		return -1;
	for (size_t i = 0; i < f->n_rows; i++)
		f->by_key[i] = f->by_name[i] = i;
	sorting = f->rows;
	qsort(f->by_key, f->n_rows, sizeof(size_t), qsort_key);
	qsort(f->by_name, f->n_rows, sizeof(size_t), qsort_name);
	f->n_index = f->n_rows;
	return with_spread ? spreads(f) : 0;
}

/* The first position in idx (sorted by cmp) whose row is not below like. */
static size_t lower_bound(const struct sb_run_file *f, const size_t *idx, const struct sb_run_row *like,
			  int (*cmp)(const struct sb_run_row *, const struct sb_run_row *))
{
	size_t lo = 0, hi = f->n_index;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp(&f->rows[idx[mid]], like) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first row of the file (in its order) equal to like by cmp, not like
 * itself, keyed or not as want_keyed says (-1: either). */
static const struct sb_run_row *first_equal(const struct sb_run_file *f, const size_t *idx,
					    const struct sb_run_row *like, int want_keyed,
					    int (*cmp)(const struct sb_run_row *, const struct sb_run_row *))
{
	for (size_t i = lower_bound(f, idx, like, cmp); i < f->n_index; i++) {
		const struct sb_run_row *r = &f->rows[idx[i]];
		if (cmp(r, like) != 0)
			break;
		if (r != like && (want_keyed < 0 || (r->key.side != SB_SIDE_NONE) == want_keyed))
			return r;
	}
	return NULL;
}

/* The same cell: by key where both rows have one, else by name. */
static int same_cell(const struct sb_run_row *a, const struct sb_run_row *b)
{
	if (a->batch != b->batch)
		return 0;
	if (a->key.side != SB_SIDE_NONE && b->key.side != SB_SIDE_NONE)
		return sb_cell_key_equal(&a->key, &b->key);
	return strcmp(a->variant, b->variant) == 0;
}

const struct sb_run_row *sb_run_file_match(const struct sb_run_file *f, const struct sb_run_row *like)
{
	if (!f->by_key) {
		for (size_t i = 0; i < f->n_rows; i++)
			if (&f->rows[i] != like && same_cell(&f->rows[i], like))
				return &f->rows[i];
		return NULL;
	}
	const struct sb_run_row *by_key = NULL, *by_name;
	if (like->key.side != SB_SIDE_NONE) {
		by_key = first_equal(f, f->by_key, like, 1, cmp_key);
		by_name = first_equal(f, f->by_name, like, 0, cmp_name);
	} else {
		by_name = first_equal(f, f->by_name, like, -1, cmp_name);
	}
	/* Of the two, the one first in the file (as a walk through it finds). */
	if (by_key && by_name)
		return by_key < by_name ? by_key : by_name;
	return by_key ? by_key : by_name;
}

const struct sb_run_row *sb_run_file_find(const struct sb_run_file *f, const char *variant, uint64_t batch)
{
	struct sb_run_row like;
	like.batch = batch;
	snprintf(like.variant, sizeof(like.variant), "%s", variant);
	if (!f->by_name) {
		for (size_t i = 0; i < f->n_rows; i++)
			if (f->rows[i].batch == batch && strcmp(f->rows[i].variant, variant) == 0)
				return &f->rows[i];
		return NULL;
	}
	return first_equal(f, f->by_name, &like, -1, cmp_name);
}

const struct sb_run_row *sb_run_file_find_if(const struct sb_run_file *f, const char *variant, uint64_t batch,
					     int (*ok)(const struct sb_run_row *))
{
	struct sb_run_row like;
	like.batch = batch;
	snprintf(like.variant, sizeof(like.variant), "%s", variant);
	if (!f->by_name || f->n_index != f->n_rows) {
		for (size_t i = 0; i < f->n_rows; i++)
			if (f->rows[i].batch == batch && strcmp(f->rows[i].variant, variant) == 0 && ok(&f->rows[i]))
				return &f->rows[i];
		return NULL;
	}
	/* Rows equal by (batch, name) are in the file's order in the index. */
	for (size_t i = lower_bound(f, f->by_name, &like, cmp_name); i < f->n_index; i++) {
		const struct sb_run_row *r = &f->rows[f->by_name[i]];
		if (cmp_name(r, &like) != 0)
			break;
		if (ok(r))
			return r;
	}
	return NULL;
}

const struct sb_run_spread *sb_run_file_spread_of(const struct sb_run_file *f, const struct sb_run_row *row)
{
	if (row->key.side == SB_SIDE_NONE || row->key.placement >= 0)
		return NULL;
	size_t lo = 0, hi = f->n_spread;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sb_run_spread *s = &f->spread[mid];
		int c = cmp_u64(s->batch, row->batch);
		if (!c)
			c = sb_cell_key_cmp_code(&s->key, &row->key);
		if (!c)
			return s;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
