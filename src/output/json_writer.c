/* json_writer.c: JSON strings, numbers and estimates, shared by every JSON
 * writer. */
#include "output/json_writer.h"

#include <math.h>
#include <stddef.h>

#include "stubbench/estimate.h"
#include "output/json_doc.h"

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * form, no surrogate, at most U+10FFFF), or 0 when it is not one. */
static size_t utf8_length(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	size_t n;
	unsigned cp, min;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void sb_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		unsigned char c = *p;
		size_t n = utf8_length(p);
		if (n == 0) {
			fputs("\\ufffd", f); /* a byte that is not UTF-8: U+FFFD, the replacement character */
			p++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

void sb_json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

void sb_json_estimate_member(FILE *f, const char *key, const char *name, const struct sb_estimate *e)
{
	fputs(", ", f);
	sb_json_string(f, key);
	if (!sb_estimate_known(e) || !isfinite(e->value)) {
		fputs(": null", f);
		return;
	}
	fputs(": {", f);
	sb_json_string(f, name);
	fputs(": ", f);
	sb_json_number(f, e->value);
	fputs(", \"ci95\": [", f);
	sb_json_number(f, e->lo);
	fputs(", ", f);
	sb_json_number(f, e->hi);
	fputs("]}", f);
}

static void doc_value(FILE *f, const struct sb_doc *v);

/* The children of container c, each after its comma and break, the
 * members with their names. */
static void doc_children(FILE *f, const struct sb_doc *c, const char *brk)
{
	int i = 0;
	for (const struct sb_doc *v = c->first; v; v = v->next, i++) {
		const char *b = brk ? brk : v->brk;
		if (i)
			fputc(',', f);
		fputs(b ? b : i ? " " : "", f);
		if (c->kind == SB_DOC_OBJECT) {
			sb_json_string(f, v->key);
			fputs(": ", f);
		}
		doc_value(f, v);
	}
}

static void doc_value(FILE *f, const struct sb_doc *v)
{
	switch (v->kind) {
	case SB_DOC_NULL:
		fputs("null", f);
		break;
	case SB_DOC_BOOL:
		fputs(v->v.b ? "true" : "false", f);
		break;
	case SB_DOC_INT:
		fprintf(f, "%lld", v->v.i);
		break;
	case SB_DOC_UINT:
		fprintf(f, "%llu", v->v.u);
		break;
	case SB_DOC_NUMBER:
		if (v->fmt && isfinite(v->v.d))
			fprintf(f, v->fmt, v->v.d);
		else
			sb_json_number(f, v->v.d);
		break;
	case SB_DOC_STRING:
		sb_json_string(f, v->v.s);
		break;
	case SB_DOC_OBJECT:
	case SB_DOC_ARRAY:
		fputc(v->kind == SB_DOC_OBJECT ? '{' : '[', f);
		doc_children(f, v, NULL);
		fputs(v->tail ? v->tail : "", f);
		fputc(v->kind == SB_DOC_OBJECT ? '}' : ']', f);
		break;
	}
}

int sb_json_doc(FILE *f, const struct sb_doc *v)
{
	if (sb_doc_failed(v))
		return -1;
	doc_value(f, v);
	return 0;
}

int sb_json_doc_members(FILE *f, const struct sb_doc *obj, const char *brk)
{
	if (sb_doc_failed(obj))
		return -1;
	for (const struct sb_doc *v = obj->first; v; v = v->next) {
		const char *b = brk ? brk : v->brk;
		fputc(',', f);
		fputs(b ? b : " ", f);
		sb_json_string(f, v->key);
		fputs(": ", f);
		doc_value(f, v);
	}
	return 0;
}
