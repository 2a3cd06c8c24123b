/* json_writer.h: the JSON scalars every writer of the project needs, and an
 * estimate as an object.
 * One escaping rule and one number rule for all of them: a value that is not
 * finite is written as null, never as nan or inf. */
#ifndef STUBBENCH_JSON_WRITER_H
#define STUBBENCH_JSON_WRITER_H

#include <stdio.h>

/* s as a JSON string, quoted and escaped; NULL writes "". A byte that is
 * not part of well-formed UTF-8 is written as U+FFFD (\ufffd), so the
 * document is UTF-8 whatever bytes the arguments or names held. */
void sb_json_string(FILE *f, const char *s);
/* v with 6 significant digits, or null when v is nan or infinite. */
void sb_json_number(FILE *f, double v);
/* `, "key": {"name": value, "ci95": [lo, hi]}`, or `, "key": null` where
 * e has no figure (estimate.h). */
struct sb_estimate;
void sb_json_estimate_member(FILE *f, const char *key, const char *name, const struct sb_estimate *e);

/* A document's value (json_doc.h) with its layout. Returns 0, or -1 when
 * the document ran out of memory while it was built (nothing written). */
struct sb_doc;
int sb_json_doc(FILE *f, const struct sb_doc *v);
/* The members of object obj as members of an object already open:
 * `,BRK"key": value` each, BRK brk or (NULL) each member's own break
 * (" " without one). Returns as sb_json_doc. */
int sb_json_doc_members(FILE *f, const struct sb_doc *obj, const char *brk);

#endif
