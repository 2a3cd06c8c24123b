/* run_diff.c: a saved diff run's "diff" and "annotate" members read back
 * with json-c; see run_diff.h. A member or field that is missing or of
 * another type reads as absent (run_json.h): the summary then says less. */
#include "saved/run_diff.h"

#include <stdlib.h>
#include <string.h>

#include "run_json.h"
#include "base/error.h"

/* The whole number o[key], 0 where there is none or it is not one. */
static size_t count(json_object *o, const char *key)
{
	double x = num(o, key);
	return x >= 0 && x <= 1e15 ? (size_t)x : 0;
}

/* o[key] as `{"cycles": value, "ci95": [lo, hi]}` (json_writer.h's
 * estimate member); absent where it is null or missing. */
static struct sb_estimate estimate(json_object *o, const char *key)
{
	json_object *e = member(o, key);
	json_object *ci = member(e, "ci95");
	return read_figure(num(e, "cycles"), num_at(ci, 0), num_at(ci, 1));
}

/* The summary's mark of a row's "change" (image_diff.h's names). */
static char mark_of(json_object *row)
{
	static const struct {
		const char *change;
		char mark;
	} marks[] = {{"added", '+'}, {"changed", '~'}, {"removed", '-'}};
	char change[16];
	str(row, "change", change, sizeof(change));
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strcmp(change, marks[i].change) == 0)
			return marks[i].mark;
	return 0;
}

/* A row: NEW's instruction, or OLD's where NEW has none (removed). */
static void read_row(json_object *r, struct sb_run_diff_row *out)
{
	out->mark = mark_of(r);
	out->from_old = !isfinite(num(r, "new_off"));
	out->off = count(r, out->from_old ? "old_off" : "new_off");
	str(r, out->from_old ? "old" : "new", out->text, sizeof(out->text));
}

/* A pair of functions with its rows. Returns 0, or -1 out of memory. */
static int read_pair(json_object *p, struct sb_run_diff_pair *out)
{
	str(p, "old", out->old_name, sizeof(out->old_name));
	str(p, "new", out->new_name, sizeof(out->new_name));
	out->added = count(p, "added");
	out->changed = count(p, "changed");
	out->removed = count(p, "removed");
	json_object *rows = member(p, "rows");
	size_t n = rows && json_object_is_type(rows, json_type_array) ? json_object_array_length(rows) : 0;
	out->rows = calloc(n ? n : 1, sizeof(*out->rows));
	if (!out->rows)
		return -1;
	for (out->n_rows = 0; out->n_rows < n; out->n_rows++)
		read_row(json_object_array_get_idx(rows, out->n_rows), &out->rows[out->n_rows]);
	return 0;
}

/* One batch size of the annotate member into *t, its parts' names into
 * names. */
static void read_batch(json_object *b, struct sb_attribution *t, char (*names)[64])
{
	t->batch = count(b, "batch");
	t->n_blocks = count(b, "blocks");
	t->n_placements = count(b, "placements");
	t->n_processes = count(b, "processes");
	t->total = estimate(b, "total");
	t->layout = estimate(b, "layout");
	t->interaction = estimate(b, "interaction");
	t->sum_parts = num(b, "parts_sum_cycles");
	t->reconciles = json_object_get_boolean(member(b, "reconciles"));
	t->parts_explain = json_object_get_boolean(member(b, "parts_explain"));
	json_object *parts = member(b, "parts");
	size_t n = parts && json_object_is_type(parts, json_type_array) ? json_object_array_length(parts) : 0;
	for (t->n_parts = 0; t->n_parts < n && t->n_parts < SB_ATTRIBUTION_MAX_PARTS; t->n_parts++) {
		json_object *q = json_object_array_get_idx(parts, t->n_parts);
		str(q, "name", names[t->n_parts], sizeof(names[0]));
		t->nop[t->n_parts] = estimate(q, "nop");
		t->removed[t->n_parts] = estimate(q, "removed");
	}
}

/* The annotate member's batch sizes. Returns 0, or -1 out of memory. */
static int read_annotate(json_object *doc, struct sb_run_diff *d)
{
	json_object *batches = member(member(doc, "annotate"), "batches");
	size_t n = batches && json_object_is_type(batches, json_type_array) ? json_object_array_length(batches) : 0;
	if (!n)
		return 0;
	d->att = calloc(n, sizeof(*d->att));
	if (!d->att)
		return -1;
	for (d->n_att = 0; d->n_att < n; d->n_att++)
		read_batch(json_object_array_get_idx(batches, d->n_att), &d->att[d->n_att], d->part_names);
	return 0;
}

/* A side's "path" and "globals_set" (diff_report.c) into *p. */
static void read_path(json_object *side, struct sb_run_diff_path *p)
{
	json_object *o = member(side, "path"), *set = member(side, "globals_set");
	p->traced = json_object_get_boolean(member(o, "traced"));
	p->insns = num(o, "insns_per_run");
	p->reads_zeroed = json_object_get_boolean(member(o, "reads_zeroed"));
	str(o, "zeroed_at", p->at, sizeof(p->at));
	str(o, "zeroed_global", p->global, sizeof(p->global));
	p->n_set = set && json_object_is_type(set, json_type_array) ? json_object_array_length(set) : 0;
}

int sb_run_diff_from_doc(json_object *doc, struct sb_run_diff **out)
{
	*out = NULL;
	json_object *pairs = member(member(doc, "diff"), "pairs");
	if (!pairs || !json_object_is_type(pairs, json_type_array))
		return 0;
	struct sb_run_diff *d = calloc(1, sizeof(*d));
	size_t n = json_object_array_length(pairs);
	if (!d || !(d->pairs = calloc(n ? n : 1, sizeof(*d->pairs)))) {
		free(d);
		return -1;
	}
	*out = d;
	read_path(member(member(doc, "diff"), "old"), &d->path[0]);
	read_path(member(member(doc, "diff"), "new"), &d->path[1]);
	for (; d->n_pairs < n; d->n_pairs++) {
		struct sb_run_diff_pair *p = &d->pairs[d->n_pairs];
		if (read_pair(json_object_array_get_idx(pairs, d->n_pairs), p) != 0)
			return -1;
		d->added += p->added;
		d->changed += p->changed;
		d->removed += p->removed;
	}
	return read_annotate(doc, d);
}

int sb_run_diff_parse(const char *text, struct sb_run_diff **out, char *err, size_t errlen)
{
	*out = NULL;
	json_object *doc = json_tokener_parse(text);
	if (!doc) {
		sb_set_err(err, errlen, "the diff's members are not JSON");
		return -1;
	}
	int rc = sb_run_diff_from_doc(doc, out);
	json_object_put(doc);
	if (rc != 0) {
		sb_run_diff_free(*out);
		*out = NULL;
		sb_set_err(err, errlen, "out of memory");
	}
	return rc;
}

void sb_run_diff_free(struct sb_run_diff *d)
{
	if (!d)
		return;
	for (size_t k = 0; k < d->n_pairs; k++)
		free(d->pairs[k].rows);
	free(d->pairs);
	free(d->att);
	free(d);
}
