/* run_file.c: saved runs read back with json-c; see run_file.h. */
#include "saved/run_file.h"
#include "base/error.h"
#include "saved/run_file.h"
#include "stubbench/config.h"
#include "base/error.h"
#include "base/read_file.h"
#include "harness/harness.h"
#include "stubbench/parse.h"
#include "base/run_info.h"
#include "saved/run_diff.h"
#include "saved/state_figures.h"
#include "run_json.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Saved runs are JSON of a few hundred kilobytes; /dev/zero is not one. */
#define RUN_FILE_MAX_BYTES (64u << 20)

/* The largest magnitude a figure read back may have: a cost of 10^9 cycles
 * per iteration is a second; 1e308 is a broken or forged file. */
#define RUN_FILE_MAX_FIGURE 1e9
/* Samples per cell: rounds times processes or loads, at most. */
#define RUN_FILE_MAX_SAMPLES 1e9

static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	char why[256];
	char *buf = sb_read_file(path, RUN_FILE_MAX_BYTES, len, why, sizeof(why));
	if (!buf)
		sb_set_err(err, errlen, "%s: %s", path, why);
	return buf;
}

/* What is wrong with a figure read back, or NULL: its value beyond
 * +-RUN_FILE_MAX_FIGURE (or not above zero where positive says it is a
 * cost), a CI with one bound, inverted, or not holding its value (a
 * relative 1e-5 allowed for the digits a writer rounds to). */
static const char *estimate_fault(const struct sb_estimate *e, int positive, char *buf, size_t len)
{
	if (!sb_estimate_known(e))
		return NULL;
	double v = e->value, lo = e->lo, hi = e->hi, slack = 1e-5 * fmax(1, fabs(v));
	if (fabs(v) > RUN_FILE_MAX_FIGURE)
		return snprintf(buf, len, "%g is out of range (at most %g in magnitude)", v, RUN_FILE_MAX_FIGURE), buf;
	if (positive && !(v > 0))
		return snprintf(buf, len, "%g is not a positive cycle count", v), buf;
	if (isnan(lo) && isnan(hi))
		return NULL;
	if (isnan(lo) || isnan(hi))
		return "has a CI with one bound";
	if (fabs(lo) > RUN_FILE_MAX_FIGURE || fabs(hi) > RUN_FILE_MAX_FIGURE)
		return snprintf(buf, len, "has a CI bound out of range (at most %g in magnitude)", RUN_FILE_MAX_FIGURE),
		       buf;
	if (lo > hi)
		return snprintf(buf, len, "has an inverted CI [%g, %g]", lo, hi), buf;
	if (v < lo - slack || v > hi + slack)
		return snprintf(buf, len, "%g lies outside its CI [%g, %g]", v, lo, hi), buf;
	return NULL;
}

/* The first number of the document that is not finite (json-c reads NaN
 * and Infinity): its place ("results[2].cycles_per_iter.ci95[0]") into
 * where; 0 when there is none. The tokener's depth limit bounds the
 * recursion. */
static int non_finite(json_object *o, char *where, size_t len, size_t used)
{
	if (json_object_is_type(o, json_type_double))
		return !isfinite(json_object_get_double(o));
	if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);
		for (size_t i = 0; i < n; i++) {
			int k = snprintf(where + used, used < len ? len - used : 0, "[%zu]", i);
			if (non_finite(json_object_array_get_idx(o, i), where, len, used + (size_t)(k > 0 ? k : 0)))
				return 1;
		}
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			int k = snprintf(where + used, used < len ? len - used : 0, "%s%.40s", used ? "." : "", key);
			if (non_finite(v, where, len, used + (size_t)(k > 0 ? k : 0)))
				return 1;
		}
	}
	if (used < len)
		where[used] = 0;
	return 0;
}

/* The document of text[0 .. len): one JSON object and nothing after it
 * but white space (two runs pasted together are not one run). */
static json_object *parse_one(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	if (!tok) {
		sb_set_err(err, errlen, "%s: %s", path, sb_errno_cause(ENOMEM));
		return NULL;
	}
	json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!doc && jerr == json_tokener_success) {
		/* json-c out of memory: no error of the text's. */
		sb_set_err(err, errlen, "%s: %s", path, sb_errno_cause(ENOMEM));
		return NULL;
	}
	if (!doc) {
		sb_set_err(err, errlen, "%s: not JSON: %s", path,
			   jerr == json_tokener_continue ? "it ends inside the document" : json_tokener_error_desc(jerr));
		return NULL;
	}
	while (end < len && (text[end] == ' ' || text[end] == '\n' || text[end] == '\t' || text[end] == '\r'))
		end++;
	if (end < len) {
		sb_set_err(err, errlen, "%s: not one JSON document: more data after the end of the first, at byte %zu",
			   path, end + 1);
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

/* "cpuid": the raw fields the machine's name is made of; id->known stays 0
 * without them or with a field out of range. */
static void read_machine_id(json_object *c, struct sb_machine_id *id)
{
	memset(id, 0, sizeof(*id));
	if (!c)
		return;
	double family = num(c, "family"), model = num(c, "model"), stepping = num(c, "stepping");
	if (!(family >= 0 && family <= 0x10f && model >= 0 && model <= 0xff && stepping >= 0 && stepping <= 0xf))
		return;
	str(c, "vendor", id->sig.vendor, sizeof(id->sig.vendor));
	str(c, "microcode", id->microcode, sizeof(id->microcode));
	str(c, "hypervisor", id->hypervisor, sizeof(id->hypervisor));
	json_object *amx = member(c, "amx");
	id->amx = amx && json_object_get_boolean(amx);
	id->sig.family = (unsigned)family;
	id->sig.model = (unsigned)model;
	id->sig.stepping = (unsigned)stepping;
	id->known = id->sig.vendor[0] != 0;
}

/* A batch size or sample count: a whole number in [min, max]; else -1 with
 * err naming the result. */
static int whole(double x, double min, double max, const char *path, size_t i, const char *what, char *err,
		 size_t errlen)
{
	if (x >= min && x <= max && x == floor(x))
		return 0;
	if (isnan(x))
		sb_set_err(err, errlen, "%s: result %zu has no %s", path, i + 1, what);
	else
		sb_set_err(err, errlen, "%s: result %zu: %s %g is not a whole number in %.0f .. %.0f", path, i + 1,
			   what, x, min, max);
	return -1;
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

/* Every figure of row sane (estimate_fault); else -1 with err naming it. */
static int check_range(const char *path, size_t i, const struct sb_run_row *row, char *err, size_t errlen)
{
	char buf[160];
	const char *bad = estimate_fault(&row->cycles, 1, buf, sizeof(buf));
	const char *what = "cycles_per_iter";
	for (size_t k = 0; !bad && k < sb_figure_count(); k++) {
		bad = estimate_fault(&row->figures[k], 0, buf, sizeof(buf));
		what = sb_figure_at(k)->json;
	}
	if (!bad)
		return 0;
	sb_set_err(err, errlen, "%s: result %zu (%s): %s %s", path, i + 1, row->variant, what, bad);
	return -1;
}

/* The figures of the run's other members (the core states', a diff's
 * parts) sane; else -1 with err naming the member. */
static int check_members(const struct sb_run_file *out, char *err, size_t errlen)
{
	char buf[160];
	const char *bad = NULL;
	for (size_t i = 0; out->states && i < out->states->n && !bad; i++) {
		const struct sb_state_figure *g = &out->states->f[i];
		const struct sb_estimate *e[3] = {&g->codegen, &g->total, &g->vs_base};
		static const char *const names[3] = {"codegen", "total", "vs_base"};
		for (int k = 0; k < 3 && !bad; k++)
			if ((bad = estimate_fault(e[k], 0, buf, sizeof(buf))))
				sb_set_err(err, errlen, "%s: core_states.figures[%zu].%s %s", out->path, i, names[k], bad);
	}
	for (size_t i = 0; out->diff && i < out->diff->n_att && !bad; i++) {
		const struct sb_attribution *t = &out->diff->att[i];
		const struct sb_estimate *e[4] = {&t->total, &t->layout, &t->interaction, NULL};
		for (int k = 0; k < 3 && !bad; k++)
			if ((bad = estimate_fault(e[k], 0, buf, sizeof(buf))))
				sb_set_err(err, errlen, "%s: annotate batch %zu: a figure %s", out->path, i + 1, bad);
		for (size_t p = 0; p < t->n_parts && p < SB_ATTRIBUTION_MAX_PARTS && !bad; p++)
			if ((bad = estimate_fault(&t->nop[p], 0, buf, sizeof(buf))) ||
			    (bad = estimate_fault(&t->removed[p], 0, buf, sizeof(buf))))
				sb_set_err(err, errlen, "%s: annotate batch %zu, part %zu: a figure %s", out->path, i + 1,
					   p + 1, bad);
	}
	return bad ? -1 : 0;
}

/* A figure of result r (at key, or at key inside sub) that is there but
 * is neither a number nor null: the name of the first, else NULL. */
static const char *mistyped(json_object *r)
{
	static char what[96];
	json_object *cyc = member(r, "cycles_per_iter");
	json_object *v = member(cyc, "mean");
	if (v && !json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_null))
		return "cycles_per_iter.mean";
	for (size_t k = 0; k < sb_figure_count(); k++) {
		const struct sb_figure *fig = sb_figure_at(k);
		v = member(r, fig->json);
		if (v && !json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int) &&
		    !json_object_is_type(v, json_type_null)) {
			snprintf(what, sizeof(what), "%s", fig->json);
			return what;
		}
	}
	return NULL;
}

/* Result i of the document as out's next row. Returns 0, or -1 with err. */
static int read_result(struct sb_run_file *out, json_object *r, size_t i, char *err, size_t errlen)
{
	const char *path = out->path;
	json_object *name = member(r, "variant");
	double batch = num(r, "batch");
	if (!name || !json_object_is_type(name, json_type_string)) {
		sb_set_err(err, errlen, "%s: result %zu has no variant name", path, i + 1);
		return -1;
	}
	const char *bad = mistyped(r);
	if (bad) {
		char shown[128];
		sb_run_text(shown, sizeof(shown), json_object_get_string(name));
		sb_set_err(err, errlen, "%s: result %zu (%s): %s is not a number", path, i + 1, shown, bad);
		return -1;
	}
	double samples = num(r, "samples");
	if (whole(batch, 1, (double)SB_MAX_BATCH, path, i, "batch", err, errlen) != 0 ||
	    (!isnan(samples) && whole(samples, 0, RUN_FILE_MAX_SAMPLES, path, i, "samples", err, errlen) != 0))
		return -1;
	struct sb_run_row *row = &out->rows[out->n_rows++];
	sb_run_text(row->variant, sizeof(row->variant), json_object_get_string(name));
	key_of(r, row->variant, &row->key);
	row->batch = (uint64_t)batch;
	row->samples = isfinite(samples) ? (size_t)samples : 0;
	double processes = num(r, "processes"), states = num(r, "states");
	row->processes = processes >= 1 && processes <= SB_MAX_PROCESSES && processes == floor(processes) ?
			 (size_t)processes : 0;
	row->states = states >= 1 && states <= SB_MAX_STATES && states == floor(states) ? (size_t)states : 0;
	json_object *cyc = member(r, "cycles_per_iter");
	row->cycles = read_figure(num(cyc, "mean"), num_at(member(cyc, "ci95"), 0), num_at(member(cyc, "ci95"), 1));
	for (size_t k = 0; k < sb_figure_count(); k++) {
		const struct sb_figure *fig = sb_figure_at(k);
		json_object *ci = member(r, fig->json_ci);
		row->figures[k] = read_figure(num(r, fig->json), num_at(ci, 0), num_at(ci, 1));
	}
	row->mode_min = row->mode_max = NAN;
	json_object *modes = member(r, "modes");
	for (size_t k = 0; modes && json_object_is_type(modes, json_type_array) &&
			   k < json_object_array_length(modes); k++) {
		double m = num(json_object_array_get_idx(modes, k), "cycles");
		if (!isfinite(m) || fabs(m) > RUN_FILE_MAX_FIGURE)
			continue;
		row->mode_min = row->n_modes ? fmin(row->mode_min, m) : m;
		row->mode_max = row->n_modes ? fmax(row->mode_max, m) : m;
		row->n_modes++;
	}
	return check_range(path, i, row, err, errlen);
}

/* A --placements run: each variant also as one row over its placements
 * (mean cost, delta of the placements' means), comparable with a run
 * without placements; not added where a result is the same cell. */
static int read_across(struct sb_run_file *out, json_object *doc, char *err, size_t errlen)
{
	json_object *across = member(doc, "across_placements");
	size_t n_across = across && json_object_is_type(across, json_type_array) ? json_object_array_length(across) : 0;
	if (!n_across)
		return 0;
	struct sb_run_row *grown = realloc(out->rows, (out->n_rows + n_across) * sizeof(*grown));
	if (!grown)
		return -1;
	out->rows = grown;
	if (sb_run_file_index(out, 0) != 0)
		return -1;
	for (size_t i = 0; i < n_across; i++) {
		json_object *p = json_object_array_get_idx(across, i);
		json_object *name = member(p, "variant");
		double batch = num(p, "batch");
		if (!name || !json_object_is_type(name, json_type_string) ||
		    !(batch >= 1 && batch <= (double)SB_MAX_BATCH) || batch != floor(batch))
			continue;
		struct sb_run_row *row = &out->rows[out->n_rows];
		memset(row, 0, sizeof(*row));
		sb_run_text(row->variant, sizeof(row->variant), json_object_get_string(name));
		key_of(p, row->variant, &row->key);
		row->batch = (uint64_t)batch;
		if (sb_run_file_match(out, row))
			continue;
		out->n_rows++;
		/* The spread over placements is no CI. */
		row->cycles = read_figure(num(member(p, "cycles_per_iter"), "mean"), NAN, NAN);
		row->mode_min = row->mode_max = NAN;
		for (size_t k = 0; k < sb_figure_count(); k++)
			row->figures[k] = sb_estimate_absent("not over placements");
		const struct sb_figure *delta = sb_figure_at(SB_FIGURE_DELTA);
		json_object *ci = member(p, delta->json_ci);
		row->figures[SB_FIGURE_DELTA] = read_figure(num(p, delta->json), num_at(ci, 0), num_at(ci, 1));
		if (check_range(out->path, i, row, err, errlen) != 0)
			return -1;
	}
	return 0;
}

/* The run's document: its fields, results, rows over placements, index. */
static int read_doc(struct sb_run_file *out, json_object *doc, char *err, size_t errlen)
{
	const char *path = out->path;
	json_object *results = member(doc, "results");
	char where[200];
	if (non_finite(doc, where, sizeof(where), 0)) {
		sb_set_err(err, errlen, "%s: %s is not a finite number (NaN or Infinity)", path, where);
		return -1;
	}
	if (!json_object_is_type(doc, json_type_object) || !results ||
	    !json_object_is_type(results, json_type_array)) {
		sb_set_err(err, errlen, "%s: no \"results\" array: not a stubbench JSON run", path);
		return -1;
	}
	/* The schema: older ones are read (their missing fields are absent
	 * figures), a newer or missing one is refused by name. */
	json_object *sv = member(doc, "schema_version");
	if (!sv) {
		sb_set_err(err, errlen, "%s: no schema_version: not a stubbench JSON run", path);
		return -1;
	}
	if (!json_object_is_type(sv, json_type_int)) {
		sb_set_err(err, errlen, "%s: schema_version %s is not a whole number", path,
			   json_object_to_json_string(sv));
		return -1;
	}
	int64_t version = json_object_get_int64(sv);
	if (version < 1 || version > SB_JSON_SCHEMA_VERSION) {
		sb_set_err(err, errlen, "%s: schema_version %lld: this stubbench reads 1 to %d%s", path,
			   (long long)version, SB_JSON_SCHEMA_VERSION, version > SB_JSON_SCHEMA_VERSION ?
			   " (a newer stubbench wrote it)" : "");
		return -1;
	}
	str(doc, "tool", out->tool, sizeof(out->tool));
	double cpu = num(doc, "cpu"), seed = num(doc, "seed");
	out->cpu = isfinite(cpu) ? (int)cpu : -1;
	out->seed = isfinite(seed) && seed >= 0 && seed < 18446744073709551616.0 ? (uint64_t)seed : 1;
	str(doc, "machine", out->machine, sizeof(out->machine));
	str(doc, "host", out->host, sizeof(out->host));
	read_machine_id(member(doc, "cpuid"), &out->id);
	/* past_runs.machine is the quiet record's name, "/" and the kernel release. */
	str(member(doc, "past_runs"), "machine", out->quiet_machine, sizeof(out->quiet_machine));
	char *release = strrchr(out->quiet_machine, '/');
	if (release)
		*release = 0;
	else
		out->quiet_machine[0] = 0;
	str(doc, "kernel", out->kernel, sizeof(out->kernel));
	str(doc, "date", out->date, sizeof(out->date));
	str(doc, "git", out->git, sizeof(out->git));
	str(member(doc, "return_thunk"), "name", out->thunk, sizeof(out->thunk));
	str(doc, "not_measured", out->not_measured, sizeof(out->not_measured));
	str(doc, "kernel_driver", out->kernel_driver, sizeof(out->kernel_driver));
	if (!out->thunk[0])
		str(member(doc, "kernel_run"), "jit_flavour", out->thunk, sizeof(out->thunk));
	size_t n = json_object_array_length(results);
	out->rows = calloc(n ? n : 1, sizeof(*out->rows));
	if (!out->rows)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (read_result(out, json_object_array_get_idx(results, i), i, err, errlen) != 0)
			return -1;
	if (read_across(out, doc, err, errlen) != 0)
		return -1;
	/* stubbench diff's members (run_diff.h); other runs have none. */
	if (sb_run_diff_from_doc(doc, &out->diff) != 0)
		return -1;
	/* A sweep's core states (state_figures.h); older runs have none. */
	if (sb_run_states_from_doc(doc, &out->states) != 0)
		return -1;
	if (check_members(out, err, errlen) != 0)
		return -1;
	/* Spread over placements (main, lab: the copies of a variant at
	 * random placements, each with its delta). */
	if (sb_run_file_index(out, 1) != 0)
		return -1;
	if (out->n_rows == 0) {
		sb_set_err(err, errlen, "%s: no results in the run", path);
		return -1;
	}
	return 0;
}

int sb_run_file_load(const char *path, struct sb_run_file *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	sb_set_err(err, errlen, "%s", "");
	if (strcmp(path, "-") == 0)
		return sb_set_err(err, errlen, "'-': a run is a file, standard input is not read"), -1;
	if (strlen(path) >= sizeof(out->path))
		return sb_set_err(err, errlen, "%.60s...: a path longer than %zu characters", path, sizeof(out->path) - 1),
		       -1;
	snprintf(out->path, sizeof(out->path), "%s", path);
	size_t len = 0;
	char *text = slurp(path, &len, err, errlen);
	if (!text)
		return -1;
	json_object *doc = parse_one(path, text, len, err, errlen);
	free(text);
	if (!doc)
		return -1;
	int rc = read_doc(out, doc, err, errlen);
	json_object_put(doc);
	if (rc != 0 && (!err || !err[0]))
		sb_set_err(err, errlen, "%s: %s", path, sb_errno_cause(ENOMEM));
	if (rc != 0)
		sb_run_file_free(out);
	return rc;
}

void sb_run_file_free(struct sb_run_file *f)
{
	free(f->rows);
	free(f->spread);
	free(f->by_key);
	free(f->by_name);
	sb_run_file_index_free(f);
	sb_run_diff_free(f->diff);
	f->diff = NULL;
	if (f->states)
		sb_state_figures_free(f->states);
	free(f->states);
	f->states = NULL;
	f->rows = NULL;
	f->spread = NULL;
	f->by_key = f->by_name = NULL;
	f->n_rows = f->n_spread = f->n_index = 0;
}

int sb_run_file_from_results(const struct sb_results *r, const char *tool, struct sb_run_file *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "(this run)");
	snprintf(out->tool, sizeof(out->tool), "%s", tool);
	snprintf(out->machine, sizeof(out->machine), "%s", r->cpu_desc);
	sb_machine_id(&out->id);
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
		row->states = c->n_states;
		struct sb_estimate cyc = sb_cell_cycles(c);
		row->cycles = read_figure(cyc.value, cyc.lo, cyc.hi);
		for (size_t k = 0; k < sb_figure_count(); k++) {
			struct sb_estimate e = *sb_figure_of(sb_figure_at(k), c);
			/* Without a figure the reason stays (it lives as long as r). */
			row->figures[k] = e.known ? read_figure(e.value, e.lo, e.hi) : e;
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
	return sb_run_file_index(out, 0);
}
