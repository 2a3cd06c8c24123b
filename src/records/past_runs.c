/* past_runs.c: see past_runs.h. */
#include "records/past_runs.h"
#include "records/past_runs.h"
#include "stubbench/parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "stubbench/config.h"
#include "stats/core_states.h"
#include "harness/harness.h"
#include "records/quiet_record.h"
#include "records/record_file.h"
#include "base/run_info.h"
#include "stubbench/stats.h"

#define N_FIGURES 3 /* cycles, delta, matched */

static const char header[] = "# stubbench past runs: one line per cell and run: machine, date (UTC), measurement, "
			     "variant, batch, cycles per iteration, delta vs baseline (%), matched (cycles); "
			     "' core=STATE' after a measurement: the core state of the run's blocks\n";

void sb_past_runs_machine(char *buf, size_t len)
{
	sb_quiet_record_machine(buf, len);
	struct utsname u;
	size_t n = strlen(buf);
	if (uname(&u) == 0 && n < len)
		snprintf(buf + n, len - n, "/%s", u.release);
}

void sb_past_runs_measurement(char *buf, size_t len, const char *tool, const struct sb_config *c, int cpu,
			      const char *extra)
{
	size_t n = 0;
#define PUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	PUT("%s variants=%s batches=", tool, c->measure.variants ? c->measure.variants : "-");
	for (size_t b = 0; b < c->measure.n_batches; b++)
		PUT("%s%llu", b ? "," : "", (unsigned long long)c->measure.batches[b]);
	if (c->measure.samples)
		PUT(" samples=%llu", (unsigned long long)c->measure.samples);
	else
		PUT(" time=%g", c->measure.time_s);
	PUT(" processes=%llu cpu=%d build=%s", (unsigned long long)c->measure.processes, cpu, sb_run_info_git());
	PUT(" states=%llu placements=%llu shape=%s flavour=%s thunk=%s loads=%llu", (unsigned long long)c->measure.states,
	    (unsigned long long)c->measure.placements, c->measure.shape ? c->measure.shape : "-", c->measure.flavour ? c->measure.flavour : "-",
	    c->measure.thunk ? c->measure.thunk : "host's", (unsigned long long)c->kernel.loads);
	if (c->measure.counters)
		PUT(" counters=%s", c->measure.counters);
	if (c->kernel.obj) {
		PUT(" obj=%s progs=", c->kernel.obj);
		for (size_t i = 0; i < c->kernel.n_progs; i++)
			PUT("%s%s", i ? "," : "", c->kernel.progs[i]);
	}
	if (extra && *extra)
		PUT(" %s", extra);
#undef PUT
	for (char *p = buf; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
}

int sb_past_runs_widen_ci(double est, double *lo, double *hi, const double *past, size_t n)
{
	if (n < SB_PAST_RUNS_MIN)
		return 0;
	struct sb_summary s;
	if (sb_summarize(past, n, NULL, 0, &s) != 0 || !isfinite(s.sd))
		return 0;
	double w = sb_t95(n - 1) * s.sd;
	*lo = est - hypot(est - *lo, w);
	*hi = est + hypot(*hi - est, w);
	return 1;
}

/* A record line's fields, pointing into line (which it changes). */
struct line {
	const char *machine, *date, *measurement, *variant;
	unsigned long long batch;
	double v[N_FIGURES]; /* NAN: '-' */
};

static int number(const char *s, double *v)
{
	if (strcmp(s, "-") == 0) {
		*v = NAN;
		return 0;
	}
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno || !isfinite(*v) ? -1 : 0;
}

/* "MACHINE\tDATE\tMEASUREMENT\tVARIANT\tBATCH\tCYCLES\tDELTA\tMATCHED" into
 * l. 0, or -1 malformed. */
static int split(char *text, struct line *l)
{
	char *f[8];
	if (sb_record_file_fields(text, f, 8) != 0)
		return -1;
	for (int i = 0; i < 8; i++)
		if (!*f[i])
			return -1;
	char *end;
	errno = 0;
	l->batch = strtoull(f[4], &end, 10);
	if (*end || errno || f[4][0] == '-')
		return -1;
	if (l->batch < 1 || l->batch > SB_MAX_BATCH)
		return -1;
	/* Figures within physical bounds: cycles within +-1e9 (a second per
	 * iteration; below zero where the overhead taken off exceeded a cell's
	 * mean), a delta within +-1e6 %; a forged 1e200 would give the next run
	 * a range of that size. */
	for (int k = 0; k < N_FIGURES; k++)
		if (number(f[5 + k], &l->v[k]) != 0 || (isfinite(l->v[k]) && fabs(l->v[k]) > (k == 1 ? 1e6 : 1e9)))
			return -1;
	l->machine = f[0], l->date = f[1], l->measurement = f[2], l->variant = f[3];
	return 0;
}

/* The record's measurement field: the key, then " core=STATE" where the
 * run classified its blocks (core_states.h; SB_CORE_POOLED for a run that
 * saw several states). Lines of older runs have no state. */
#define STATE_MARK " core="

/* Does line measurement m hold the key measurement, and in which state
 * (*state: after the mark; NULL: none said)? */
static int same_measurement(const char *m, const char *measurement, const char **state)
{
	size_t n = strlen(measurement);
	*state = NULL;
	if (strncmp(m, measurement, n))
		return 0;
	if (!m[n])
		return 1;
	if (strncmp(m + n, STATE_MARK, strlen(STATE_MARK)) || strchr(m + n + strlen(STATE_MARK), ' '))
		return 0;
	*state = m + n + strlen(STATE_MARK);
	return 1;
}

/* A run in state run (NULL: not classified) draws on a past line in
 * state line: a quiet run on quiet runs, a busy one on busy ones; a run
 * in no single known state (unknown, several, not classified) on all. */
static int draws_on(const char *run, const char *line)
{
	if (!run || (strcmp(run, "quiet") && strcmp(run, "busy")))
		return 1;
	return line && !strcmp(run, line);
}

#define STR_(x) #x
#define STR(x) STR_(x)
#define FEWER_THAN_MIN "the record holds fewer than " STR(SB_PAST_RUNS_MIN) " past runs of this cell"

/* Cell c's figure k (cycles, delta, codegen: the record's matched
 * column), and where its next-run range goes; NULL: none. */
static struct sb_estimate *figure(struct sb_cell *c, int k, struct sb_estimate *now)
{
	switch (k) {
	case 0:
		*now = c->n_samples ? sb_estimate_of(c->cycles.mean, c->cycles.ci_lo, c->cycles.ci_hi)
				    : sb_estimate_absent("no samples");
		return &c->next_run_cycles;
	case 1:
		*now = c->delta_pct;
		return &c->next_run_delta;
	case 2:
		*now = c->matched_cycles;
		return &c->next_run_codegen;
	default:
		return NULL;
	}
}

int sb_past_runs_next_ranges(const char *path, const char *machine, const char *measurement, const char *state,
			     struct sb_results *const *rs, size_t n_rs, char *err, size_t errlen)
{
	char *text;
	if (sb_record_file_read(path, SB_PAST_RUNS_MAX_BYTES, &text, err, errlen) != 0)
		return -1;
	if (!text)
		return 0;
	/* Every cell of every results, and per cell and figure the newest
	 * SB_PAST_RUNS_RECENT values in a ring. */
	size_t nc = 0;
	for (size_t j = 0; j < n_rs; j++)
		nc += rs[j]->n_cells;
	struct sb_cell **cell = calloc(nc + 1, sizeof(*cell));
	double *ring = calloc(nc * N_FIGURES * SB_PAST_RUNS_RECENT + 1, sizeof(*ring));
	size_t *count = calloc(nc * N_FIGURES + 1, sizeof(*count));
	size_t *runs = calloc(nc + 1, sizeof(*runs));
	int rc = 0;
	if (!cell || !ring || !count || !runs) {
		snprintf(err, errlen, "reading '%s': out of memory", path);
		rc = -1;
	}
	for (size_t j = 0, i = 0; rc == 0 && j < n_rs; j++)
		for (size_t k = 0; k < rs[j]->n_cells; k++)
			cell[i++] = &rs[j]->cells[k];
	size_t number_of_line = 0;
	for (char *at = text, *line; rc == 0 && (line = sb_record_file_line(&at));) {
		number_of_line++;
		if (line[0] == '#' || !line[0])
			continue;
		struct line l;
		if (split(line, &l) != 0) {
			snprintf(err, errlen,
				 "'%s' line %zu: not a record line (machine, date, measurement, variant, batch, cycles, "
				 "delta, matched, tab-separated; '-' for none)", path, number_of_line);
			rc = -1;
			break;
		}
		const char *line_state;
		if (strcmp(l.machine, machine) || !same_measurement(l.measurement, measurement, &line_state) ||
		    !draws_on(state, line_state))
			continue;
		for (size_t i = 0; i < nc; i++) {
			if (!cell[i]->arm || cell[i]->batch != l.batch || strcmp(cell[i]->arm->name, l.variant))
				continue;
			runs[i]++;
			for (int k = 0; k < N_FIGURES; k++)
				if (!isnan(l.v[k])) {
					size_t *n = &count[i * N_FIGURES + k];
					ring[(i * N_FIGURES + k) * SB_PAST_RUNS_RECENT + *n % SB_PAST_RUNS_RECENT] = l.v[k];
					(*n)++;
				}
		}
	}
	for (size_t i = 0; rc == 0 && i < nc; i++) {
		struct sb_cell *c = cell[i];
		if (!c->arm)
			continue;
		c->past_held = runs[i];
		c->past_runs = 0;
		for (int k = 0; k < N_FIGURES; k++) {
			struct sb_estimate now, *next = figure(c, k, &now);
			if (!next)
				continue;
			size_t n = count[i * N_FIGURES + k];
			if (n > SB_PAST_RUNS_RECENT)
				n = SB_PAST_RUNS_RECENT;
			*next = sb_estimate_absent(FEWER_THAN_MIN);
			double lo = now.lo, hi = now.hi;
			if (sb_estimate_has_ci(&now) &&
			    sb_past_runs_widen_ci(now.value, &lo, &hi, ring + (i * N_FIGURES + k) * SB_PAST_RUNS_RECENT, n)) {
				*next = sb_estimate_of(now.value, lo, hi);
				if (n > c->past_runs)
					c->past_runs = n;
			}
		}
	}
	free(cell);
	free(ring);
	free(count);
	free(runs);
	free(text);
	return rc;
}

/* A figure for the record: "%.6g", or "-" when the cell has none. */
static void put_figure(char *buf, size_t len, int has, double v)
{
	if (has && isfinite(v))
		snprintf(buf, len, "%.6g", v);
	else
		snprintf(buf, len, "-");
}

/* The lines a run adds, gathered in memory and appended to the record at
 * once (sb_record_file_append: whole or not at all). */
struct new_lines {
	FILE *f;
	char *text;
	size_t len, n;
};

static int lines_open(struct new_lines *l, const char *path, char *err, size_t errlen)
{
	*l = (struct new_lines){0};
	if (!(l->f = open_memstream(&l->text, &l->len))) {
		snprintf(err, errlen, "cannot write '%s': out of memory", path);
		return -1;
	}
	return 0;
}

/* One line of the record (its format: past_runs.h); state NULL: none said. */
static void put_line(struct new_lines *l, const char *machine, const char *date, const char *measurement,
		     const char *state, const char *variant, uint64_t batch, const char v[N_FIGURES][32])
{
	fprintf(l->f, "%s\t%s\t%s%s%s\t%s\t%llu\t%s\t%s\t%s\n", machine, date, measurement, state ? STATE_MARK : "",
		state ? state : "", variant, (unsigned long long)batch, v[0], v[1], v[2]);
	l->n++;
}

/* Appends the lines (none: nothing) and frees them. Returns 0, or -1 with err. */
static int lines_append(struct new_lines *l, const char *path, char *err, size_t errlen)
{
	int rc = 0;
	if (fclose(l->f) != 0) {
		snprintf(err, errlen, "cannot write '%s': out of memory", path);
		rc = -1;
	} else if (l->n) {
		rc = sb_record_file_append(path, header, l->text, SB_PAST_RUNS_MAX_LINES, SB_PAST_RUNS_MAX_BYTES, err,
					   errlen);
	}
	free(l->text);
	return rc;
}

int sb_past_runs_add(const char *path, const char *machine, const char *measurement, const char *state,
		     const char *date, const struct sb_results *r, char *err, size_t errlen)
{
	struct new_lines l;
	if (lines_open(&l, path, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || !c->n_samples)
			continue;
		char v[N_FIGURES][32];
		put_figure(v[0], sizeof(v[0]), 1, c->cycles.mean);
		put_figure(v[1], sizeof(v[1]), sb_estimate_known(&c->delta_pct), c->delta_pct.value);
		put_figure(v[2], sizeof(v[2]), sb_estimate_known(&c->matched_cycles), c->matched_cycles.value);
		put_line(&l, machine, date, measurement, state, c->arm->name, c->batch, v);
	}
	return lines_append(&l, path, err, errlen);
}

int sb_past_runs_add_states(const char *path, const char *machine, const char *measurement, const char *date,
			    const struct sb_state_figures *s, char *err, size_t errlen)
{
	const char *pooled = sb_state_figures_pooled(s);
	if (!pooled || strcmp(pooled, SB_CORE_POOLED) != 0)
		return 0;
	struct new_lines l;
	if (lines_open(&l, path, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct sb_state_figure *g = &s->f[i];
		if (g->state == SB_CORE_UNKNOWN || !sb_estimate_known(&g->codegen) || !isfinite(g->codegen.value))
			continue;
		char v[N_FIGURES][32] = {"-", "-"};
		put_figure(v[2], sizeof(v[2]), 1, g->codegen.value);
		put_line(&l, machine, date, measurement, sb_core_state_name(g->state), g->variant, g->batch, v);
	}
	return lines_append(&l, path, err, errlen);
}

static const char *record_in_use, *record_missing;
static const char *state_in_use; /* the run's core state (sb_past_runs_next_run) */
static int record_unreadable; /* said by sb_past_runs_apply: not written to either */

void sb_past_runs_use(const char *path, const char *why_none)
{
	record_in_use = path;
	record_missing = path ? NULL : why_none;
	record_unreadable = 0;
}

const char *sb_past_runs_in_use(const char **why_none)
{
	*why_none = record_missing;
	return record_in_use;
}

const char *sb_past_runs_state(void)
{
	return state_in_use;
}

void sb_past_runs_next_run(FILE *f, const char *tool, const char *measurement, const char *state,
			   struct sb_results *const *rs, size_t n_rs)
{
	const char *why_none, *path = sb_past_runs_in_use(&why_none);
	state_in_use = state;
	if (!path)
		return;
	char machine[192], err[1400];
	sb_past_runs_machine(machine, sizeof(machine));
	if (sb_past_runs_next_ranges(path, machine, measurement, state, rs, n_rs, err, sizeof(err)) != 0) {
		fprintf(f, "%s: past runs: %s; no next-run ranges, and the run is not remembered "
			   "(--past-runs=FILE names another record, none: no record)\n", tool, err);
		record_unreadable = 1;
	}
}

void sb_past_runs_remember(FILE *f, const char *tool, const char *measurement, const struct sb_results *r,
			   const struct sb_state_figures *states, int busy)
{
	const char *why_none, *path = sb_past_runs_in_use(&why_none);
	/* A busy core is remembered only as the busy state it is: a run in
	 * one state, busy, as a whole; a run that saw several, by state alone
	 * (its pooled figures mix them). */
	int as_busy = state_in_use && !strcmp(state_in_use, "busy");
	int pooled = !(busy && !as_busy);
	if (!path || record_unreadable || r->n_blocks < SB_PAST_RUNS_MIN_BLOCKS)
		return;
	char machine[192], date[32], err[1400];
	sb_past_runs_machine(machine, sizeof(machine));
	sb_run_info_date(date, sizeof(date));
	if ((pooled && sb_past_runs_add(path, machine, measurement, state_in_use, date, r, err, sizeof(err)) != 0) ||
	    sb_past_runs_add_states(path, machine, measurement, date, states, err, sizeof(err)) != 0)
		fprintf(f, "%s: past runs: %s; this run is not remembered (--past-runs=FILE names another "
			   "record, none: no record)\n", tool, err);
}
