/* json_doc.c: a JSON document as a tree of values; see json_doc.h. The
 * JSON writer (json_writer.c) writes it. */
#include "output/json_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/estimate.h"

struct sb_doc *sb_doc_new(void)
{
	struct sb_doc *d = calloc(1, sizeof(*d));
	if (d) {
		d->kind = SB_DOC_OBJECT;
		d->root = d;
	}
	return d;
}

static void free_value(struct sb_doc *v)
{
	while (v) {
		struct sb_doc *next = v->next;
		free_value(v->first);
		free(v->key);
		if (v->kind == SB_DOC_STRING)
			free(v->v.s);
		free(v);
		v = next;
	}
}

void sb_doc_free(struct sb_doc *root)
{
	free_value(root);
}

int sb_doc_failed(const struct sb_doc *v)
{
	return !v || v->root->failed;
}

/* A new value of kind at the end of parent's children; NULL (and the
 * document marked failed) out of memory. */
static struct sb_doc *add(struct sb_doc *parent, const char *key, enum sb_doc_kind kind)
{
	if (!parent)
		return NULL;
	struct sb_doc *v = calloc(1, sizeof(*v));
	if (v && key && !(v->key = strdup(key))) {
		free(v);
		v = NULL;
	}
	if (!v) {
		parent->root->failed = 1;
		return NULL;
	}
	v->kind = kind;
	v->root = parent->root;
	v->brk = parent->pending;
	parent->pending = NULL;
	if (parent->last)
		parent->last->next = v;
	else
		parent->first = v;
	parent->last = v;
	return v;
}

struct sb_doc *sb_doc_object(struct sb_doc *parent, const char *key)
{
	return add(parent, key, SB_DOC_OBJECT);
}

struct sb_doc *sb_doc_array(struct sb_doc *parent, const char *key)
{
	return add(parent, key, SB_DOC_ARRAY);
}

void sb_doc_string(struct sb_doc *parent, const char *key, const char *s)
{
	struct sb_doc *v = add(parent, key, SB_DOC_STRING);
	if (v && !(v->v.s = strdup(s ? s : ""))) {
		v->kind = SB_DOC_NULL;
		v->root->failed = 1;
	}
}

void sb_doc_string_or_null(struct sb_doc *parent, const char *key, const char *s)
{
	if (s && *s)
		sb_doc_string(parent, key, s);
	else
		sb_doc_null(parent, key);
}

void sb_doc_number_fmt(struct sb_doc *parent, const char *key, double v, const char *fmt)
{
	struct sb_doc *n = add(parent, key, SB_DOC_NUMBER);
	if (n) {
		n->v.d = v;
		n->fmt = fmt;
	}
}

void sb_doc_number(struct sb_doc *parent, const char *key, double v)
{
	sb_doc_number_fmt(parent, key, v, NULL);
}

void sb_doc_int(struct sb_doc *parent, const char *key, long long v)
{
	struct sb_doc *n = add(parent, key, SB_DOC_INT);
	if (n)
		n->v.i = v;
}

void sb_doc_uint(struct sb_doc *parent, const char *key, unsigned long long v)
{
	struct sb_doc *n = add(parent, key, SB_DOC_UINT);
	if (n)
		n->v.u = v;
}

void sb_doc_bool(struct sb_doc *parent, const char *key, int v)
{
	struct sb_doc *n = add(parent, key, SB_DOC_BOOL);
	if (n)
		n->v.b = v != 0;
}

void sb_doc_null(struct sb_doc *parent, const char *key)
{
	add(parent, key, SB_DOC_NULL);
}

void sb_doc_estimate(struct sb_doc *parent, const char *key, const char *name, const struct sb_estimate *e)
{
	if (!sb_estimate_known(e) || !isfinite(e->value)) {
		sb_doc_null(parent, key);
		return;
	}
	struct sb_doc *o = sb_doc_object(parent, key);
	sb_doc_number(o, name, e->value);
	struct sb_doc *ci = sb_doc_array(o, "ci95");
	sb_doc_number(ci, NULL, e->lo);
	sb_doc_number(ci, NULL, e->hi);
}

struct sb_doc *sb_doc_lines(struct sb_doc *parent, const char *key, const char *text, const char *skip_prefix,
			    const char *brk)
{
	struct sb_doc *a = sb_doc_array(parent, key);
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, "\n");
		if (len && !(skip_prefix && strncmp(p, skip_prefix, strlen(skip_prefix)) == 0)) {
			char line[1024];
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			sb_doc_break(a, brk);
			sb_doc_string(a, NULL, line);
		}
		p += len + (p[len] == '\n');
	}
	return a;
}

struct sb_doc *sb_doc_copy(struct sb_doc *parent, const char *key, const struct sb_doc *v)
{
	if (!v)
		return NULL;
	sb_doc_break(parent, v->brk);
	if (v->kind == SB_DOC_STRING) {
		sb_doc_string(parent, key, v->v.s);
		return parent ? parent->last : NULL;
	}
	struct sb_doc *c = add(parent, key, v->kind);
	if (!c)
		return NULL;
	c->v = v->v;
	c->fmt = v->fmt;
	c->tail = v->tail;
	for (const struct sb_doc *x = v->first; x; x = x->next)
		sb_doc_copy(c, x->key, x);
	return c;
}

void sb_doc_break(struct sb_doc *parent, const char *ws)
{
	if (parent)
		parent->pending = ws;
}

void sb_doc_tail(struct sb_doc *c, const char *ws)
{
	if (c)
		c->tail = ws;
}
