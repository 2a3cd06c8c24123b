/* run_states.c: a saved sweep's "core_states" member read back (the
 * states its blocks were in and its figures per state, state_figures.h),
 * for its summary; see run_json.h. */
#include <stdlib.h>
#include <string.h>

#include "run_json.h"
#include "stubbench/parse.h"
#include "saved/state_figures.h"

/* More figures than a sweep writes (variants x batch sizes x states). */
#define MAX_STATE_FIGURES 4096
/* More blocks than any run keeps. */
#define MAX_BLOCKS 1e12

/* The state named by o[key]; -1 where it names none. */
static int state_of(json_object *o, const char *key)
{
	char name[16];
	str(o, key, name, sizeof(name));
	for (int s = 0; s < SB_CORE_STATES; s++)
		if (!strcmp(name, sb_core_state_name((enum sb_core_state)s)))
			return s;
	return -1;
}

/* A count o[key]: a whole number in [0, MAX_BLOCKS]; 0 where it is not one. */
static size_t count_of(json_object *o, const char *key)
{
	double x = num(o, key);
	return x >= 0 && x <= MAX_BLOCKS && x == floor(x) ? (size_t)x : 0;
}

/* An estimate member {"cycles": x, "ci95": [lo, hi]}; absent where it is none. */
static struct sb_estimate estimate_of(json_object *o, const char *key)
{
	json_object *e = member(o, key);
	double v = num(e, "cycles");
	if (!isfinite(v) || fabs(v) > 1e9)
		return sb_estimate_absent("not in the file");
	return read_figure(v, num_at(member(e, "ci95"), 0), num_at(member(e, "ci95"), 1));
}

/* The split: basis, level, states seen. */
static void read_split(json_object *cs, struct sb_core_split *sp)
{
	char basis[16];
	str(cs, "basis", basis, sizeof(basis));
	sp->basis = !strcmp(basis, "record") ? "record" : !strcmp(basis, "run") ? "run" : "none";
	char why[32] = "";
	str(cs, "no_quiet_level", why, sizeof(why));
	sp->no_level = !strcmp(why, SB_CORE_RECORD_SHORT) ? SB_CORE_RECORD_SHORT
		       : !strcmp(why, SB_CORE_RECORD_OFF)  ? SB_CORE_RECORD_OFF
							   : NULL;
	double level = num(cs, "quiet_level"), below = num(cs, "busy_below");
	sp->quiet_level = isfinite(level) && level > 0 && level < 1e3 ? level : 0;
	sp->threshold = isfinite(below) && below > 0 && below < 1e3 ? below : 0;
	json_object *seen = member(cs, "seen");
	size_t n = seen && json_object_is_type(seen, json_type_array) ? json_object_array_length(seen) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(seen, i);
		int s = state_of(o, "state");
		double m = num(o, "canary_median");
		if (s < 0)
			continue;
		sp->n[s] = count_of(o, "blocks");
		sp->median[s] = isfinite(m) && m > 0 && m < 1e3 ? m : 0;
	}
}

/* Figure o into g. Returns 0, or -1 when o is not one (skipped). */
static int read_state_figure(json_object *o, struct sb_state_figure *g)
{
	double batch = num(o, "batch");
	int s = state_of(o, "state");
	memset(g, 0, sizeof(*g));
	str(o, "variant", g->variant, sizeof(g->variant));
	if (!g->variant[0] || s < 0 || !(batch >= 1 && batch <= (double)SB_MAX_BATCH) || batch != floor(batch))
		return -1;
	str(o, "baseline", g->baseline, sizeof(g->baseline));
	str(o, "codegen_against", g->against, sizeof(g->against));
	g->batch = (uint64_t)batch;
	g->state = (enum sb_core_state)s;
	g->blocks = count_of(o, "blocks");
	g->codegen = estimate_of(o, "codegen");
	g->total = estimate_of(o, "total");
	g->vs_base = estimate_of(o, "vs_base");
	return 0;
}

int sb_run_states_from_doc(json_object *doc, struct sb_state_figures **out)
{
	*out = NULL;
	json_object *cs = member(doc, "core_states");
	if (!cs || !json_object_is_type(cs, json_type_object))
		return 0;
	struct sb_state_figures *s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	read_split(cs, &s->split);
	s->n_blocks = s->split.n[0] + s->split.n[1] + s->split.n[2];
	json_object *figs = member(cs, "figures");
	size_t n = figs && json_object_is_type(figs, json_type_array) ? json_object_array_length(figs) : 0;
	n = n < MAX_STATE_FIGURES ? n : MAX_STATE_FIGURES;
	s->f = calloc(n ? n : 1, sizeof(*s->f));
	if (!s->f)
		return free(s), -1;
	for (size_t i = 0; i < n; i++)
		s->n += read_state_figure(json_object_array_get_idx(figs, i), &s->f[s->n]) == 0;
	*out = s;
	return 0;
}
