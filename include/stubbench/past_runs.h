/* past_runs.h: this machine's record of past runs' figures, by which a
 * run's CIs also hold what moves whole runs (--past-runs=FILE|none;
 * docs/past-runs.md).
 *
 * A run's CIs come from what varies inside it: its states, processes and
 * blocks. Whole runs move by more than that, whatever the width of their
 * CIs (measured: results/amd-epyc-zen5-vm.md), and nothing inside one run
 * can show it. So each cell's CIs (cycles per iteration, the delta and the
 * matched difference) are widened by how the same cell's figure scattered
 * over this machine's last SB_PAST_RUNS_RECENT runs of the same
 * measurement: each side grows in quadrature by t95(n - 1) x the standard
 * deviation of their n figures (and the nanoseconds' CI in the ratio the
 * cycles' grew). The widened interval is a 95 % range for
 * the next run's figure (this run's error and the next run's, as the past
 * runs scattered), and so a conservative CI of the expected cost. A cell
 * with fewer than SB_PAST_RUNS_MIN past runs keeps its within-run CIs, and
 * the output says so.
 *
 * One line per cell and run:
 *
 *   MACHINE<TAB>DATE<TAB>MEASUREMENT<TAB>VARIANT<TAB>BATCH<TAB>CYCLES<TAB>DELTA<TAB>MATCHED
 *
 * MACHINE: sb_past_runs_machine(); DATE: UTC, ISO 8601; MEASUREMENT:
 * sb_past_runs_measurement(); CYCLES: cycles per iteration; DELTA: % vs the
 * baseline; MATCHED: cycles; '-' where the cell has none. Lines starting
 * with '#' are comments. */
#ifndef STUBBENCH_PAST_RUNS_H
#define STUBBENCH_PAST_RUNS_H

#include <stddef.h>
#include <stdio.h>

#include "stubbench/results.h"

struct sb_config;

/* The past runs of a cell whose spread widens its CIs: the newest ones. */
#define SB_PAST_RUNS_RECENT 20
/* Fewer past runs widen nothing: their spread would say too little. */
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

/* What was measured, as the record tells runs apart: the tool ("stubbench
 * kernel") and every option of c that changes the figures (variants, batch
 * sizes, time or samples, processes, CPU, states, placements, shape,
 * flavour, thunk, loads, counters, the user's object and programs), and
 * extra (what else the tool's figures depend on; may be NULL). Tabs become
 * spaces. */
void sb_past_runs_measurement(char *buf, size_t len, const char *tool, const struct sb_config *c,
			      const char *extra);

/* Widens [*lo, *hi] about est by the spread of past[0..n): each side in
 * quadrature with sb_t95(n - 1) x their sample standard deviation. Returns 1,
 * or 0 (nothing changed) with fewer than SB_PAST_RUNS_MIN values. */
int sb_past_runs_widen_ci(double est, double *lo, double *hi, const double *past, size_t n);

/* Widens every cell of rs[0..n_rs) (sb_cell.past_runs, .past_held) by
 * the runs of machine and measurement in the record at path with the
 * cell's variant and batch size, the newest SB_PAST_RUNS_RECENT of them;
 * the record is read once for all. A missing file is an empty record.
 * Returns 0, or -1 with err naming the file and, for a malformed line, its
 * number (the results unchanged). */
int sb_past_runs_widen(const char *path, const char *machine, const char *measurement, struct sb_results *const *rs,
		       size_t n_rs, char *err, size_t errlen);

/* Adds r's figures (one line per cell with samples) to the record at path.
 * Returns 0, or -1 with err naming the file. */
int sb_past_runs_add(const char *path, const char *machine, const char *measurement, const char *date,
		     const struct sb_results *r, char *err, size_t errlen);

/* The record the run uses (--past-runs; the command line sets it): path,
 * or NULL with why_none saying why there is none (NULL: none asked for). */
void sb_past_runs_use(const char *path, const char *why_none);
const char *sb_past_runs_in_use(const char **why_none);

/* With the record in use: sb_past_runs_widen, and later
 * sb_past_runs_remember adds the run, when it had SB_PAST_RUNS_MIN_BLOCKS
 * blocks and was not busy (sb_output_busy_report said so: its figures need
 * not hold, and kept, they would widen the next 20 runs' CIs by a host
 * that was busy once). A record that cannot be read or written: one line
 * on f ("TOOL: past runs: ..."), and the run goes on without. */
void sb_past_runs_apply(FILE *f, const char *tool, const char *measurement, struct sb_results *const *rs,
			size_t n_rs);
void sb_past_runs_remember(FILE *f, const char *tool, const char *measurement, const struct sb_results *r,
			   int busy);

#endif
