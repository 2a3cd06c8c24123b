/* json_doc: a document built as data and written by the JSON writer:
 * members after ", " or after their break, a container's tail, integers,
 * booleans, null, a number that is not finite as null, an estimate as
 * {"name": v, "ci95": [lo, hi]} or null, a text's lines but those
 * skipped, a copy with its layout, the
 * members of an object continuing another, and a document that ran out
 * of memory refused whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stubbench/estimate.h"
#include "output/json_doc.h"
#include "output/json_writer.h"

/* What write made of doc, as text (the caller frees it); *rc its status. */
static char *text_of(const struct sb_doc *doc, int members, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	*rc = members ? sb_json_doc_members(f, doc, "\n  ") : sb_json_doc(f, doc);
	fclose(f);
	return text;
}

static void expect(const struct sb_doc *doc, int members, const char *want)
{
	int rc;
	char *got = text_of(doc, members, &rc);
	CHECK(rc == 0 && strcmp(got, want) == 0, "got %s, want %s", got, want);
	free(got);
}

static void values(void)
{
	struct sb_doc *d = sb_doc_new();
	sb_doc_string(d, "s", "a\"b");
	sb_doc_string_or_null(d, "none", "");
	sb_doc_int(d, "i", -3);
	sb_doc_uint(d, "u", 18446744073709551615ULL);
	sb_doc_bool(d, "b", 1);
	sb_doc_number(d, "x", 0.125);
	sb_doc_number(d, "nan", NAN);
	sb_doc_number_fmt(d, "mhz", 2999.7, "%.0f");
	struct sb_estimate e = {.value = 1.5, .lo = 1, .hi = 2, .known = 1};
	sb_doc_estimate(d, "e", "cycles", &e);
	struct sb_estimate none = sb_estimate_absent("not measured");
	sb_doc_estimate(d, "absent", "cycles", &none);
	expect(d, 0, "{\"s\": \"a\\\"b\", \"none\": null, \"i\": -3, \"u\": 18446744073709551615, \"b\": true, "
		     "\"x\": 0.125, \"nan\": null, \"mhz\": 3000, \"e\": {\"cycles\": 1.5, \"ci95\": [1, 2]}, "
		     "\"absent\": null}");
	sb_doc_free(d);
}

static void layout(void)
{
	struct sb_doc *d = sb_doc_new();
	struct sb_doc *rows = sb_doc_array(d, "rows");
	for (int i = 0; i < 2; i++) {
		sb_doc_break(rows, "\n    ");
		sb_doc_int(sb_doc_object(rows, NULL), "row", i);
	}
	sb_doc_tail(rows, "\n  ");
	sb_doc_break(d, "\n  ");
	sb_doc_array(d, "empty");
	expect(d, 0, "{\"rows\": [\n    {\"row\": 0},\n    {\"row\": 1}\n  ],\n  \"empty\": []}");
	/* As members of an object already open, each on a line of its own. */
	expect(d, 1, ",\n  \"rows\": [\n    {\"row\": 0},\n    {\"row\": 1}\n  ],\n  \"empty\": []");
	/* A copy keeps the values and their layout. */
	struct sb_doc *c = sb_doc_new();
	sb_doc_copy(c, "copy", d);
	expect(c, 0, "{\"copy\": {\"rows\": [\n    {\"row\": 0},\n    {\"row\": 1}\n  ],\n  \"empty\": []}}");
	sb_doc_free(c);
	sb_doc_free(d);
}

static void lines(void)
{
	struct sb_doc *d = sb_doc_new();
	sb_doc_lines(d, "all", "a\n\nb", NULL, NULL);
	sb_doc_lines(d, "kept", "skip: x\nc\n", "skip: ", "\n  ");
	expect(d, 0, "{\"all\": [\"a\", \"b\"], \"kept\": [\n  \"c\"]}");
	sb_doc_free(d);
}

static void refused(void)
{
	/* A NULL parent (a container that could not be made) adds nothing. */
	sb_doc_int(NULL, "x", 1);
	CHECK(sb_doc_object(NULL, "o") == NULL, "an object under no parent");
	struct sb_doc *d = sb_doc_new();
	sb_doc_int(d, "x", 1);
	d->failed = 1; /* as when a value could not be allocated */
	int rc;
	char *got = text_of(d, 0, &rc);
	CHECK(rc == -1 && got && got[0] == '\0', "a failed document written: rc %d, '%s'", rc, got);
	free(got);
	sb_doc_free(d);
}

int main(void)
{
	values();
	layout();
	lines();
	refused();
	return check_report("json_doc");
}
