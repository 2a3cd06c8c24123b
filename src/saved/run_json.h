/* run_json.h: the members of a saved run's JSON document as the readers of
 * src/saved take them (run_file.c, run_diff.c): a member that is missing
 * or of another type reads as absent (NULL, NAN, "", no figure), never as
 * an error of its own. Private to src/saved. */
#ifndef STUBBENCH_REPORT_RUN_JSON_H
#define STUBBENCH_REPORT_RUN_JSON_H

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>

#include "saved/run_text.h"
#include "stubbench/estimate.h"

/* The number o[key]; NAN where there is none. */
static inline double num(json_object *o, const char *key)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v))
		return NAN;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return NAN;
	return json_object_get_double(v);
}

/* The number arr[i]; NAN where there is none. */
static inline double num_at(json_object *arr, size_t i)
{
	if (!arr || !json_object_is_type(arr, json_type_array) || json_object_array_length(arr) <= i)
		return NAN;
	json_object *v = json_object_array_get_idx(arr, i);
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return NAN;
	return json_object_get_double(v);
}

/* o[key], of any type; NULL where there is none. */
static inline json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}


/* The string o[key] into buf (sb_run_text); "" where there is none. */
static inline void str(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v = member(o, key);
	sb_run_text(buf, len, v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

/* A figure read back: absent when the file has no number for it. */
static inline struct sb_estimate read_figure(double value, double lo, double hi)
{
	return isfinite(value) ? sb_estimate_of(value, lo, hi) : sb_estimate_absent("not in the file");
}

struct sb_run_diff;
/* A diff run's members of doc (run_diff.c, run_diff.h) into *out, NULL
 * where doc has no diff member. Returns 0, or -1 out of memory (*out,
 * when set, is freed by sb_run_diff_free). */
int sb_run_diff_from_doc(json_object *doc, struct sb_run_diff **out);

struct sb_state_figures;
/* A sweep's "core_states" member of doc (state_figures.h) into *out, NULL
 * where doc has none (or one that is not an object). Returns 0, or -1 out
 * of memory. */
int sb_run_states_from_doc(json_object *doc, struct sb_state_figures **out);

#endif
