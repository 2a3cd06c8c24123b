/* json_doc.h: a JSON document as data. A command fills a tree of values
 * (its own members of a run's document: the kernel run's findings,
 * annotate's listing ...) and the JSON reporter (reporter.h) writes it
 * with json_writer.h; no command writes JSON text itself.
 *
 * The tree keeps the layout the documents have always had: each value
 * may carry the whitespace written before it (after the comma: "\n    "
 * puts it on a line of its own), each object or array the whitespace
 * before its closing bracket. Without them, values follow each other
 * after ", ". Layout strings are kept by pointer: string literals only.
 *
 * Every adder takes a NULL parent and does nothing then, so that a
 * document that ran out of memory is built to its end without checks;
 * sb_doc_failed says so and the writer refuses it. */
#ifndef STUBBENCH_JSON_DOC_H
#define STUBBENCH_JSON_DOC_H

#include <stdint.h>

struct sb_estimate;

enum sb_doc_kind {
	SB_DOC_NULL,
	SB_DOC_BOOL,
	SB_DOC_INT,
	SB_DOC_UINT,
	SB_DOC_NUMBER,
	SB_DOC_STRING,
	SB_DOC_OBJECT,
	SB_DOC_ARRAY,
};

struct sb_doc {
	enum sb_doc_kind kind;
	char *key;           /* a member's name; NULL in an array */
	const char *brk;     /* whitespace before it; NULL: " " after a comma, "" first */
	const char *tail;    /* object, array: whitespace before the closing bracket */
	const char *fmt;     /* number: printf format; NULL: "%.6g" */
	union {
		int b;
		long long i;
		unsigned long long u;
		double d;
		char *s;
	} v;
	struct sb_doc *first, *last, *next; /* children, in order; the next sibling */
	struct sb_doc *root;
	const char *pending; /* object, array: brk of the next child added */
	int failed;          /* root: some value could not be added (out of memory) */
};

/* An empty object: the root of a document; NULL out of memory. */
struct sb_doc *sb_doc_new(void);
/* The document of root, every value in it. */
void sb_doc_free(struct sb_doc *root);
/* 1 when some value of the document could not be added. */
int sb_doc_failed(const struct sb_doc *v);

/* A value added to parent (an object: key names it; an array: key is
 * NULL). Containers are returned to be filled; NULL out of memory. */
struct sb_doc *sb_doc_object(struct sb_doc *parent, const char *key);
struct sb_doc *sb_doc_array(struct sb_doc *parent, const char *key);
void sb_doc_string(struct sb_doc *parent, const char *key, const char *s); /* NULL: "" */
void sb_doc_string_or_null(struct sb_doc *parent, const char *key, const char *s); /* NULL, "": null */
void sb_doc_number(struct sb_doc *parent, const char *key, double v); /* not finite: null */
void sb_doc_number_fmt(struct sb_doc *parent, const char *key, double v, const char *fmt);
void sb_doc_int(struct sb_doc *parent, const char *key, long long v);
void sb_doc_uint(struct sb_doc *parent, const char *key, unsigned long long v);
void sb_doc_bool(struct sb_doc *parent, const char *key, int v);
void sb_doc_null(struct sb_doc *parent, const char *key);
/* key: {"name": value, "ci95": [lo, hi]}, or null where e has no figure
 * (estimate.h). */
void sb_doc_estimate(struct sb_doc *parent, const char *key, const char *name, const struct sb_estimate *e);

/* parent's member key: an array of text's non-empty lines (each cut at
 * 1023 bytes), but those that start with skip_prefix (NULL: none
 * skipped), each after brk (NULL: ", " between them). */
struct sb_doc *sb_doc_lines(struct sb_doc *parent, const char *key, const char *text, const char *skip_prefix,
			    const char *brk);

/* A copy of value v (of another document, with its layout) added to
 * parent as key; returns the copy, NULL out of memory or v NULL. */
struct sb_doc *sb_doc_copy(struct sb_doc *parent, const char *key, const struct sb_doc *v);

/* The next value added to parent is written after ws ("\n      "). */
void sb_doc_break(struct sb_doc *parent, const char *ws);
/* Container c closes after ws ("\n  ]"). */
void sb_doc_tail(struct sb_doc *c, const char *ws);

#endif
