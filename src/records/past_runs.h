/* past_runs.h: this machine's record of past runs' figures, and the range
 * of the next run's figure drawn from it (--past-runs=FILE|none;
 * docs/past-runs.md).
 *
 * A run's CIs come from what varies inside it (its states, processes and
 * blocks) and never change with the record. Whole runs move by more than
 * that, which nothing inside one run can show: so each cell also gets a
 * separately labelled next-run range (sb_cell.next_run_delta,
 * next_run_cycles, next_run_codegen; "next run" in the table, next_run_*
 * in JSON): this run's CI, each side grown in quadrature by t95(n - 1)
 * x the standard deviation of the same cell's figure over the record's newest
 * SB_PAST_RUNS_RECENT runs of the same measurement on this machine. A
 * cell with fewer than SB_PAST_RUNS_MIN past runs has no range, and says
 * why.
 *
 * One line per cell and run:
 *
 *   MACHINE<TAB>DATE<TAB>MEASUREMENT<TAB>VARIANT<TAB>BATCH<TAB>CYCLES<TAB>DELTA<TAB>MATCHED
 *
 * MACHINE: sb_past_runs_machine(); DATE: UTC, ISO 8601; MEASUREMENT:
 * sb_past_runs_measurement() (the key: what changes the figures), then
 * " core=STATE" where the run classified its blocks (the state its cells'
 * figures were in: quiet, busy, unknown, or "all" for a run that saw
 * several; state_figures.h), none in older records; CYCLES:
 * cycles per iteration; DELTA: % vs the baseline; MATCHED: cycles; '-'
 * where the cell has none. Lines starting with '#' are comments. */
#ifndef STUBBENCH_PAST_RUNS_H
#define STUBBENCH_PAST_RUNS_H

#include <stddef.h>
#include <stdio.h>

#include "stubbench/results.h"

struct sb_config;

/* The past runs of a cell whose spread makes its next-run range: the newest ones. */
#define SB_PAST_RUNS_RECENT 20
/* Fewer past runs make no range: their spread would say too little. */
#define SB_PAST_RUNS_MIN 5
/* A run with fewer blocks is not remembered (a --samples=20 test run). */
#define SB_PAST_RUNS_MIN_BLOCKS 64
/* A record this long (lines) is cut to its newest half when a run is added. */
#define SB_PAST_RUNS_MAX_LINES 16384
/* The largest record read, in bytes (SB_PAST_RUNS_MAX_LINES lines are ~2.5 MB). */
#define SB_PAST_RUNS_MAX_BYTES (8u << 20)

/* This machine in the record: sb_quiet_record_machine() and the kernel
 * release (the kernel's return thunk is in every twin's figure). */
void sb_past_runs_machine(char *buf, size_t len);

/* What was measured, as the record tells runs apart (the key; with the
 * machine): the tool ("stubbench kernel"), the build (the source
 * revision), the CPU the run was pinned to (cpu: resolved, not the option:
 * --cpu=-1 and --cpu=1 are one measurement where -1 resolves to 1) and
 * every option of c that changes the figures (variants, batch sizes, time
 * or samples, processes, states, placements, shape, flavour, thunk, loads,
 * counters, the user's object and programs), and extra (what else the
 * tool's figures depend on; may be NULL). Tabs become spaces. */
void sb_past_runs_measurement(char *buf, size_t len, const char *tool, const struct sb_config *c, int cpu,
			      const char *extra);

/* Widens [*lo, *hi] about est by the spread of past[0..n): each side in
 * quadrature with sb_t95(n - 1) x their sample standard deviation. Returns 1,
 * or 0 (nothing changed) with fewer than SB_PAST_RUNS_MIN values. */
int sb_past_runs_widen_ci(double est, double *lo, double *hi, const double *past, size_t n);

/* The next-run ranges of every cell of rs[0..n_rs) (sb_cell.next_run_*,
 * .past_runs, .past_held) from the runs of machine and measurement in the
 * record at path with the cell's variant and batch size, and, state
 * "quiet" or "busy", in that state (a quiet run drawn on quiet runs, a
 * busy one on busy ones; any other state or NULL: on every run), the newest
 * SB_PAST_RUNS_RECENT of them; the record is read once for all, and no CI
 * changes. A missing file is an empty record. Returns 0, or -1 with err
 * naming the file and, for a malformed line, its number (no range set). */
int sb_past_runs_next_ranges(const char *path, const char *machine, const char *measurement, const char *state,
			     struct sb_results *const *rs, size_t n_rs, char *err, size_t errlen);

/* Adds r's figures (one line per cell with samples) to the record at
 * path, in state (NULL: none said). Returns 0, or -1 with err naming the
 * file. */
int sb_past_runs_add(const char *path, const char *machine, const char *measurement, const char *state,
		     const char *date, const struct sb_results *r, char *err, size_t errlen);

/* With s from a run that saw several core states (its cells' lines are
 * "all"): a line per variant, batch and state (quiet or busy) with that
 * state's codegen as MATCHED (CYCLES and DELTA '-'), so that the next run
 * in one state draws on the share of this run in that state. Nothing for
 * a run in one state or none. Returns 0, or -1 with err naming the file. */
struct sb_state_figures;
int sb_past_runs_add_states(const char *path, const char *machine, const char *measurement, const char *date,
			    const struct sb_state_figures *s, char *err, size_t errlen);

/* The record the run uses (--past-runs; the session sets it): path,
 * or NULL with why_none saying why there is none (NULL: none asked for). */
void sb_past_runs_use(const char *path, const char *why_none);
const char *sb_past_runs_in_use(const char **why_none);

/* With the record in use: sb_past_runs_next_ranges in the run's core
 * state (sb_state_figures_pooled; NULL: not classified), and later
 * sb_past_runs_remember adds the run in that state, when it had
 * SB_PAST_RUNS_MIN_BLOCKS blocks and was not busy (sb_output_busy_report
 * said so: its figures need not hold, and kept, they would widen the next
 * 20 runs' ranges by a host that was busy once) unless its state is busy
 * (kept as busy, it widens busy runs' ranges alone); a run that saw several
 * states also by state (sb_past_runs_add_states, states: its figures per
 * state, NULL: none), and by state alone when it was busy. A record that cannot
 * be read or written: one line on f ("TOOL: past runs: ..."), and the run
 * goes on without. */
void sb_past_runs_next_run(FILE *f, const char *tool, const char *measurement, const char *state,
			   struct sb_results *const *rs, size_t n_rs);
/* The state given to sb_past_runs_next_run (NULL: none). */
const char *sb_past_runs_state(void);
void sb_past_runs_remember(FILE *f, const char *tool, const char *measurement, const struct sb_results *r,
			   const struct sb_state_figures *states, int busy);

#endif
