/* run_file.c: saved runs read back with json-c; see run_file.h. */
#include "stubbench/run_file.h"
#include "stubbench/error.h"
#include "stubbench/read_file.h"
#include "stubbench/harness.h"
#include "stubbench/run_info.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double num(json_object *o, const char *key)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v))
		return NAN;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return NAN;
	return json_object_get_double(v);
}

static double at(json_object *arr, size_t i)
{
	if (!arr || !json_object_is_type(arr, json_type_array) || json_object_array_length(arr) <= i)
		return NAN;
	json_object *v = json_object_array_get_idx(arr, i);
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return NAN;
	return json_object_get_double(v);
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static void str(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v = member(o, key);
	snprintf(buf, len, "%s", v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

/* Saved runs are JSON of a few hundred kilobytes; /dev/zero is not one. */
#define RUN_FILE_MAX_BYTES (64u << 20)

static char *slurp(const char *path, char *err, size_t errlen)
{
	char why[256];
	char *buf = sb_read_file(path, RUN_FILE_MAX_BYTES, NULL, why, sizeof(why));
	if (!buf)
		sb_set_err(err, errlen, "%s: %s", path, why);
	return buf;
}

/* A figure read back: absent when the file has no number for it. */
static struct sb_estimate figure(double value, double lo, double hi)
{
	return isfinite(value) ? sb_estimate_of(value, lo, hi) : sb_estimate_absent("not in the file");
}

/* A result's key fields (schema 3); side SB_SIDE_NONE when it has none. */
static void key_of(json_object *r, const char *name, struct sb_cell_key *k)
{
	char side[24], family[24], codegen[48], flavour[40], ret[16], shape[16];
	str(r, "side", side, sizeof(side));
	str(r, "family", family, sizeof(family));
	str(r, "codegen", codegen, sizeof(codegen));
	str(r, "flavour", flavour, sizeof(flavour));
	str(r, "return", ret, sizeof(ret));
	str(r, "shape", shape, sizeof(shape));
	sb_cell_key_set(k, sb_cell_side_from_name(side), family, codegen, flavour, ret, shape, name);
	double placement = num(r, "placement");
	if (placement >= 0 && placement < 1e9)
		k->placement = (int)placement;
}

static int spread_add(struct sb_run_file *f, const struct sb_cell_key *key, uint64_t batch, double delta)
{
	for (size_t i = 0; i < f->n_spread; i++) {
		struct sb_run_spread *s = &f->spread[i];
		if (s->batch == batch && sb_cell_key_same_code(&s->key, key)) {
			s->min = fmin(s->min, delta);
			s->max = fmax(s->max, delta);
			s->k++;
			return 0;
		}
	}
	struct sb_run_spread *grown = realloc(f->spread, (f->n_spread + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	f->spread = grown;
	struct sb_run_spread *s = &f->spread[f->n_spread++];
	memset(s, 0, sizeof(*s));
	s->key = *key;
	s->key.placement = -1;
	s->batch = batch;
	s->k = 1;
	s->min = s->max = delta;
	return 0;
}

int sb_run_file_load(const char *path, struct sb_run_file *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	sb_set_err(err, errlen, "%s", "");
	snprintf(out->path, sizeof(out->path), "%s", path);
	char *text = slurp(path, err, errlen);
	if (!text)
		return -1;
	enum json_tokener_error jerr = json_tokener_success;
	json_object *doc = json_tokener_parse_verbose(text, &jerr);
	free(text);
	if (!doc) {
		sb_set_err(err, errlen, "%s: not JSON: %s", path, json_tokener_error_desc(jerr));
		return -1;
	}
	json_object *results = member(doc, "results");
	if (!json_object_is_type(doc, json_type_object) || !results ||
	    !json_object_is_type(results, json_type_array)) {
		sb_set_err(err, errlen, "%s: no \"results\" array: not a stubbench JSON run", path);
		json_object_put(doc);
		return -1;
	}
	str(doc, "tool", out->tool, sizeof(out->tool));
	double cpu = num(doc, "cpu");
	out->cpu = isfinite(cpu) ? (int)cpu : -1;
	str(doc, "machine", out->machine, sizeof(out->machine));
	str(doc, "kernel", out->kernel, sizeof(out->kernel));
	str(doc, "date", out->date, sizeof(out->date));
	str(doc, "git", out->git, sizeof(out->git));
	str(member(doc, "return_thunk"), "name", out->thunk, sizeof(out->thunk));
	if (!out->thunk[0])
		str(member(doc, "kernel_run"), "jit_flavour", out->thunk, sizeof(out->thunk));
	size_t n = json_object_array_length(results);
	out->rows = calloc(n ? n : 1, sizeof(*out->rows));
	int rc = out->rows ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		json_object *r = json_object_array_get_idx(results, i);
		json_object *name = member(r, "variant");
		double batch = num(r, "batch");
		if (!name || !json_object_is_type(name, json_type_string) || !(batch >= 1)) {
			sb_set_err(err, errlen, "%s: result %zu has no variant name or batch", path, i + 1);
			rc = -1;
			break;
		}
		struct sb_run_row *row = &out->rows[out->n_rows++];
		snprintf(row->variant, sizeof(row->variant), "%s", json_object_get_string(name));
		key_of(r, row->variant, &row->key);
		row->batch = (uint64_t)batch;
		double samples = num(r, "samples");
		row->samples = isfinite(samples) ? (size_t)samples : 0;
		json_object *cyc = member(r, "cycles_per_iter");
		row->cycles = figure(num(cyc, "mean"), at(member(cyc, "ci95"), 0), at(member(cyc, "ci95"), 1));
		for (size_t k = 0; k < sb_figure_count(); k++) {
			const struct sb_figure *fig = sb_figure_at(k);
			json_object *ci = member(r, fig->json_ci);
			row->figures[k] = figure(num(r, fig->json), at(ci, 0), at(ci, 1));
		}
		row->mode_min = row->mode_max = NAN;
		json_object *modes = member(r, "modes");
		for (size_t k = 0; modes && json_object_is_type(modes, json_type_array) &&
				   k < json_object_array_length(modes); k++) {
			double m = num(json_object_array_get_idx(modes, k), "cycles");
			if (!isfinite(m))
				continue;
			row->mode_min = row->n_modes ? fmin(row->mode_min, m) : m;
			row->mode_max = row->n_modes ? fmax(row->mode_max, m) : m;
			row->n_modes++;
		}
	}
	/* A --placements run: each variant also as one row over its placements
	 * (mean cost, delta of the placements' means), comparable with a run
	 * without placements. */
	json_object *across = member(doc, "across_placements");
	size_t n_across = across && json_object_is_type(across, json_type_array) ? json_object_array_length(across) : 0;
	if (rc == 0 && n_across) {
		struct sb_run_row *grown = realloc(out->rows, (out->n_rows + n_across) * sizeof(*grown));
		if (!grown)
			rc = -1;
		else
			out->rows = grown;
	}
	for (size_t i = 0; i < n_across && rc == 0; i++) {
		json_object *p = json_object_array_get_idx(across, i);
		json_object *name = member(p, "variant");
		double batch = num(p, "batch");
		if (!name || !json_object_is_type(name, json_type_string) || !(batch >= 1))
			continue;
		struct sb_run_row *row = &out->rows[out->n_rows];
		memset(row, 0, sizeof(*row));
		snprintf(row->variant, sizeof(row->variant), "%s", json_object_get_string(name));
		key_of(p, row->variant, &row->key);
		row->batch = (uint64_t)batch;
		if (sb_run_file_match(out, row))
			continue;
		out->n_rows++;
		row->batch = (uint64_t)batch;
		/* The spread over placements is no CI. */
		row->cycles = figure(num(member(p, "cycles_per_iter"), "mean"), NAN, NAN);
		row->mode_min = row->mode_max = NAN;
		for (size_t k = 0; k < sb_figure_count(); k++)
			row->figures[k] = sb_estimate_absent("not over placements");
		const struct sb_figure *delta = sb_figure_at(SB_FIGURE_DELTA);
		json_object *ci = member(p, delta->json_ci);
		row->figures[SB_FIGURE_DELTA] = figure(num(p, delta->json), at(ci, 0), at(ci, 1));
	}
	/* Spread over placements (main, lab: the copies of a variant at
	 * random placements, each with its delta). */
	for (size_t i = 0; i < out->n_rows && rc == 0; i++) {
		const struct sb_run_row *row = &out->rows[i];
		const struct sb_estimate *delta = &row->figures[SB_FIGURE_DELTA];
		if (row->key.side == SB_SIDE_NONE || row->key.placement < 0 || !sb_estimate_known(delta))
			continue;
		out->spread_kind = "placements";
		rc = spread_add(out, &row->key, row->batch, delta->value);
	}
	json_object_put(doc);
	if (rc == 0 && out->n_rows == 0) {
		sb_set_err(err, errlen, "%s: no results in the run", path);
		rc = -1;
	} else if (rc != 0 && (!err || !err[0])) {
		sb_set_err(err, errlen, "%s: out of memory", path);
	}
	if (rc != 0)
		sb_run_file_free(out);
	return rc;
}

void sb_run_file_free(struct sb_run_file *f)
{
	free(f->rows);
	free(f->spread);
	f->rows = NULL;
	f->spread = NULL;
	f->n_rows = f->n_spread = 0;
}

const struct sb_run_row *sb_run_file_find(const struct sb_run_file *f, const char *variant, uint64_t batch)
{
	for (size_t i = 0; i < f->n_rows; i++)
		if (f->rows[i].batch == batch && strcmp(f->rows[i].variant, variant) == 0)
			return &f->rows[i];
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
	for (size_t i = 0; i < f->n_rows; i++)
		if (&f->rows[i] != like && same_cell(&f->rows[i], like))
			return &f->rows[i];
	return NULL;
}

const struct sb_run_spread *sb_run_file_spread_of(const struct sb_run_file *f, const struct sb_run_row *row)
{
	for (size_t i = 0; row->key.side != SB_SIDE_NONE && row->key.placement < 0 && i < f->n_spread; i++)
		if (f->spread[i].batch == row->batch && sb_cell_key_same_code(&f->spread[i].key, &row->key))
			return &f->spread[i];
	return NULL;
}

int sb_run_file_from_results(const struct sb_results *r, const char *tool, struct sb_run_file *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "(this run)");
	snprintf(out->tool, sizeof(out->tool), "%s", tool);
	snprintf(out->machine, sizeof(out->machine), "%s", r->cpu_desc);
	out->cpu = r->cpu;
	sb_run_info_kernel(out->kernel, sizeof(out->kernel));
	sb_run_info_date(out->date, sizeof(out->date));
	snprintf(out->git, sizeof(out->git), "%s", sb_run_info_git());
	out->rows = calloc(r->n_cells ? r->n_cells : 1, sizeof(*out->rows));
	if (!out->rows)
		return -1;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || !c->arm->name)
			continue;
		struct sb_run_row *row = &out->rows[out->n_rows++];
		snprintf(row->variant, sizeof(row->variant), "%s", c->arm->name);
		row->key = c->arm->key;
		row->batch = c->batch;
		row->samples = c->n_samples;
		struct sb_estimate cyc = sb_cell_cycles(c);
		row->cycles = figure(cyc.value, cyc.lo, cyc.hi);
		for (size_t k = 0; k < sb_figure_count(); k++) {
			struct sb_estimate e = sb_figure_at(k)->of_cell(c);
			row->figures[k] = figure(e.known ? e.value : NAN, e.lo, e.hi);
		}
		row->mode_min = row->mode_max = NAN;
		for (size_t k = 0; k < c->n_modes; k++) {
			double m = c->modes[k].cycles;
			if (!isfinite(m))
				continue;
			row->mode_min = row->n_modes ? fmin(row->mode_min, m) : m;
			row->mode_max = row->n_modes ? fmax(row->mode_max, m) : m;
			row->n_modes++;
		}
	}
	return 0;
}
