/* output_states.c: what the output says about re-rolled states and modes,
 * and about a busy core; see output_states.h. */
#include "output/output_states.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/run_info.h"
#include "harness/arm.h"
#include "harness/disturbed.h"
#include "harness/pin.h"
#include "harness/sibling.h"
#include "output/text_grid.h"
#include "records/past_runs.h"
#include "records/quiet_record.h"

/* The share of the lowest of a cell's modes (1 when unimodal). */
static double low_share(const struct sb_cell *c)
{
	return c->n_modes ? c->modes[0].share : 1;
}

/* Do the cells of this batch spend different shares of their blocks in
 * their lowest state (by more than 10 points)? */
static int shares_differ(const struct sb_results *r, uint64_t batch, double *lo, double *hi)
{
	*lo = 2, *hi = -1;
	int multi = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || c->batch != batch || !c->n_samples)
			continue;
		double s = low_share(c);
		*lo = fmin(*lo, s);
		*hi = fmax(*hi, s);
		multi |= c->n_modes > 1;
	}
	return multi && *hi - *lo > 0.10;
}

/* text and end as '#' comment lines of at most 96 columns, broken at spaces. */
static void comment_wrapped(FILE *f, const char *text, const char *end)
{
	const size_t width = 94;
	size_t n = strlen(text);
	while (n > width) {
		size_t cut = width;
		while (cut > 0 && text[cut] != ' ')
			cut--;
		if (!cut)
			cut = strcspn(text, " ");
		fprintf(f, "# %.*s\n", (int)cut, text);
		text += cut + (text[cut] == ' ');
		n = strlen(text);
	}
	fprintf(f, "# %s%s\n", text, end);
}

void sb_output_past_runs_scope(char *buf, size_t len, const struct sb_results *r)
{
	size_t cells = 0, ranged = 0, fewest = SIZE_MAX, most = 0, held = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || !c->n_samples)
			continue;
		cells++;
		if (c->past_held > held)
			held = c->past_held;
		if (!c->past_runs)
			continue;
		ranged++;
		fewest = c->past_runs < fewest ? c->past_runs : fewest;
		most = c->past_runs > most ? c->past_runs : most;
	}
	const char *why_none, *path = sb_past_runs_in_use(&why_none);
	char runs[48];
	if (fewest == most)
		snprintf(runs, sizeof(runs), "%zu", most);
	else
		snprintf(runs, sizeof(runs), "%zu-%zu", fewest, most);
	int n = snprintf(buf, len, "the CIs hold what varies within this run, not what moves whole runs; ");
	if (n < 0 || (size_t)n >= len)
		return;
	/* A quiet or busy run draws on the record's runs in its state alone. */
	const char *state = sb_past_runs_state();
	int own = state && (!strcmp(state, "quiet") || !strcmp(state, "busy"));
	if (ranged)
		snprintf(buf + n, len - (size_t)n,
			 "'next run' (%zu of %zu cells): a 95 %% range for the next run's figure, this run's CI grown "
			 "by how the last %s %s%sruns of the cell in the record of past runs (%s) scattered",
			 ranged, cells, runs, own ? state : "", own ? " " : "", path ? path : "the record of past runs");
	else if (path)
		snprintf(buf + n, len - (size_t)n,
			 "no 'next run' range yet: the record of past runs (%s) holds %zu of the %d %s%sruns of these "
			 "cells that make one (meanwhile: bench/reproducibility.py, 'next run')",
			 path, held, SB_PAST_RUNS_MIN, own ? state : "", own ? " " : "");
	else
		snprintf(buf + n, len - (size_t)n,
			 "no 'next run' range: no record of past runs%s%s (bench/reproducibility.py, 'next run')",
			 why_none ? ": " : ", --past-runs=none", why_none ? why_none : "");
}

void sb_output_states_note(FILE *f, const struct sb_results *r, int modes)
{
	size_t states = 0, multi = 0, procs = 1;
	for (size_t i = 0; i < r->n_cells; i++)
		if (r->cells[i].arm) {
			if (r->cells[i].n_states > states)
				states = r->cells[i].n_states;
			if (r->cells[i].n_processes > procs)
				procs = r->cells[i].n_processes;
			multi += r->cells[i].n_modes > 1;
		}
	if (procs > 1)
		fprintf(f, "# each cell ran in %zu fresh processes (data pages of their own) and %zu re-rolled states\n"
			   "# (code placement, stack offset); CIs over states and over processes (then blocks),\n"
			   "# added in quadrature;\n", procs, states);
	else
		fprintf(f, "# each cell ran in %zu re-rolled state%s (code placement, stack offset), CIs over states then blocks;\n",
			states, states == 1 ? "" : "s");
	char scope[1536];
	sb_output_past_runs_scope(scope, sizeof(scope), r);
	comment_wrapped(f, scope, ";");
	if (!multi) {
		fprintf(f, "# steady states: one per cell\n");
		return;
	}
	if (!modes) {
		fprintf(f, "# steady states: %zu cells have several (--verbose or JSON 'modes' lists them)\n", multi);
		return;
	}
	fprintf(f, "# multimodal (steady states: cycles per iteration, share of blocks; '(in time)': the\n"
		   "# state changed with time, process by process):");
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (!c->arm || c->n_modes < 2)
			continue;
		fprintf(f, " %s@%llu", c->arm->name, (unsigned long long)c->batch);
		for (size_t k = 0; k < c->n_modes; k++)
			fprintf(f, "%s%.1f (%.0f%%)", k ? " / " : " ", c->modes[k].cycles, 100 * c->modes[k].share);
		fprintf(f, "%s;", c->changed_in_time ? " (in time)" : "");
	}
	fputc('\n', f);
}

/* The busy-core note as one line on f (sb_output_busy_line folds it). */
static int busy_line(FILE *f, const char *tool, const struct sb_results *r,
		     const struct sb_quiet_reference *machine)
{
	int adds = r->canary_quiet > 0 && r->canary_median < SB_DISTURBED_CANARY * r->canary_quiet;
	int window = r->window_quiet > 0 && r->window_median > SB_DISTURBED_WINDOW * r->window_quiet;
	/* Busy throughout: even the run's quiet levels are beyond the machine's. */
	int m_adds = machine && machine->adds > 0 && r->canary_quiet > 0 &&
		     r->canary_quiet < SB_DISTURBED_CANARY * machine->adds;
	int m_window = machine && machine->window > 0 && r->window_quiet > 0 &&
		       r->window_quiet > SB_DISTURBED_WINDOW * machine->window;
	if (!adds && !window && !m_adds && !m_window)
		return 0;
	fprintf(f, "%s: busy core: ", tool);
	if (adds)
		fprintf(f, "the canary ran at %.2f adds per cycle in half the blocks, against %.2f when quiet",
			r->canary_median, r->canary_quiet);
	if (window)
		fprintf(f, "%sthe window canary took %.1f cycles in half the blocks, against %.1f when quiet",
			adds ? "; " : "", r->window_median, r->window_quiet);
	if (m_adds || m_window) {
		fprintf(f, "%seven this run's quietest blocks read ", adds || window ? "; " : "");
		if (m_window)
			fprintf(f, "the window canary at %.1f cycles", r->window_quiet);
		if (m_adds)
			fprintf(f, "%sthe canary at %.2f adds per cycle", m_window ? " and " : "", r->canary_quiet);
		fprintf(f, ", where this machine's quiet runs read ");
		if (m_window)
			fprintf(f, "%.1f", machine->window);
		if (m_adds)
			fprintf(f, "%s%.2f", m_window ? " and " : "", machine->adds);
		/* Where the core has no SMT sibling, no word of one. */
		fprintf(f, " (the second quietest of its %zu runs since %s in %s): busy from start to end, as %s",
			machine->runs, machine->since, machine->path ? machine->path : "the record",
			sb_has_smt_sibling(r->cpu) == 0 ? "on a core another process or the host kept busy"
							 : "beside a busy SMT sibling");
	}
	fprintf(f, "; the figures of a run on a busy core need not hold for the next run: run again when it "
		   "is quiet\n");
	return 1;
}

int sb_output_busy_line(FILE *f, const char *tool, const struct sb_results *r,
			const struct sb_quiet_reference *machine)
{
	FILE *fold = sb_fold_stream(f, SB_TABLE_MAX_COLUMNS);
	int said = busy_line(fold ? fold : f, tool, r, machine);
	if (fold)
		fclose(fold);
	return said;
}

int sb_output_busy_report(FILE *f, const char *tool, const struct sb_results *r)
{
	const char *why_none, *record = sb_quiet_record_in_use(&why_none);
	if (!record) {
		if (why_none)
			fprintf(f, "%s: quiet levels: %s\n", tool, why_none);
		return sb_output_busy_line(f, tool, r, NULL);
	}
	char machine[128], err[1400];
	sb_quiet_record_machine(machine, sizeof(machine));
	struct sb_quiet_reference ref;
	if (sb_quiet_record_read(record, machine, &ref, NULL, err, sizeof(err)) != 0) {
		fprintf(f, "%s: quiet levels: %s; this run is neither compared with earlier ones nor remembered "
			   "(--quiet-levels=FILE names another record, none: no record)\n", tool, err);
		return sb_output_busy_line(f, tool, r, NULL);
	}
	int said = sb_output_busy_line(f, tool, r, &ref);
	/* A sibling loaded on purpose (--sibling) makes busy levels, not the machine's quiet ones. */
	const struct sb_sibling_facts *sib = sb_sibling_facts();
	if (r->n_blocks < SB_QUIET_MIN_BLOCKS || !(r->canary_quiet > 0 || r->window_quiet > 0) || (sib && sib->loaded))
		return said;
	char date[32];
	sb_run_info_date(date, sizeof(date));
	if (sb_quiet_record_add(record, machine, date, r->canary_quiet, r->window_quiet, err,
				sizeof(err)) != 0)
		fprintf(f, "%s: quiet levels: %s; this run is not remembered (--quiet-levels=FILE names "
			   "another record, none: no record)\n", tool, err);
	return said;
}

int sb_output_multimodal_line(FILE *f, const char *tool, const struct sb_results *r)
{
	size_t multi = 0, cells = 0;
	for (size_t i = 0; i < r->n_cells; i++)
		if (r->cells[i].arm) {
			cells++;
			multi += r->cells[i].n_modes > 1;
		}
	if (!multi)
		return 0;
	fprintf(f, "%s: multimodal: %zu of %zu cells have several steady states (", tool, multi, cells);
	size_t said = 0;
	for (size_t i = 0; i < r->n_cells && said < 6; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->arm && c->n_modes > 1)
			fprintf(f, "%s%s@%llu", said++ ? ", " : "", c->arm->name, (unsigned long long)c->batch);
	}
	fprintf(f, "%s); state shares differ between variants at batch", multi > said ? ", ..." : "");
	size_t differ = 0;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = r->cells[k].batch == c->batch;
		double lo, hi;
		if (!c->arm || seen || !shares_differ(r, c->batch, &lo, &hi))
			continue;
		fprintf(f, "%s %llu (lowest state %.0f-%.0f%% of blocks)", differ++ ? "," : "",
			(unsigned long long)c->batch, 100 * lo, 100 * hi);
	}
	fprintf(f, "%s; see 'modes' and 'codegen'\n", differ ? "" : " none");
	return 1;
}

int sb_output_time_line(FILE *f, const char *tool, const struct sb_results *r)
{
	size_t changed = 0;
	for (size_t i = 0; i < r->n_cells; i++)
		changed += r->cells[i].arm && r->cells[i].changed_in_time;
	if (!changed)
		return 0;
	fprintf(f, "%s: states changed with time: ", tool);
	size_t said = 0;
	for (size_t i = 0; i < r->n_cells && said < 6; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->arm && c->changed_in_time)
			fprintf(f, "%s%s@%llu (%zu stretches over %zu processes)", said++ ? ", " : "", c->arm->name,
				(unsigned long long)c->batch, c->time_runs, c->n_processes);
	}
	fprintf(f, "%s; the processes ran one after the other and sat in one steady state for stretches of "
		   "time, which a run shorter than a stretch cannot sample: the next run may sit in another, "
		   "so repeat it minutes later before trusting these cells\n",
		changed > said ? ", ..." : "");
	return 1;
}

static int is_cold(const struct sb_cell *c)
{
	return c->arm && c->batch >= SB_COLD_MIN_BATCH && c->first_round_excess > SB_COLD_EXCESS;
}

int sb_output_cold_line(FILE *f, const char *tool, const struct sb_results *r)
{
	size_t cold = 0;
	for (size_t i = 0; i < r->n_cells; i++)
		cold += is_cold(&r->cells[i]);
	if (!cold)
		return 0;
	fprintf(f, "%s: still cold: a block's first kept sample read ", tool);
	size_t said = 0;
	for (size_t i = 0; i < r->n_cells && said < 6; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (is_cold(c))
			fprintf(f, "%s%+.1f %% (%s@%llu)", said++ ? ", " : "", 100 * c->first_round_excess, c->arm->name,
				(unsigned long long)c->batch);
	}
	fprintf(f, "%s over the block's other samples: the code was not yet warm after the harness's warm "
		   "rounds, so these cells read high\n", cold > said ? ", ..." : "");
	return 1;
}

int sb_output_ci_scope_line(FILE *f, const char *tool, const char *scope)
{
	if (!scope)
		return 0;
	fprintf(f, "%s: CIs: %s\n", tool, scope);
	return 1;
}
