/* output.h: results as a table, the seeds' bench lines, JSON or CSV. */
#ifndef STUBBENCH_OUTPUT_H
#define STUBBENCH_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "stubbench/format.h"
#include "stubbench/harness.h"
#include "stubbench/run_info.h"

struct sb_quiet_reference;



/* Writes r; a cell with no usable samples is "n/a" in the table with a
 * line saying why, null with a "no_samples_reason" in JSON, empty fields in
 * CSV, and left out of the seed lines with a line on stderr instead.
 * Returns 0, or -1 when writing f failed (errno says why). */
int sb_output_write(FILE *f, enum sb_format fmt, const struct sb_results *r,
		    const struct sb_output_meta *meta);

/* Cells of r measured but with no usable samples (sb_cell.no_samples; not
 * those only below the subtracted overhead). */
size_t sb_results_count_empty(const struct sb_results *r);

/* sb_output_write, then one line on stderr (prefixed with prog) when
 * writing failed or when a cell has no usable samples. Returns 0, or 1 in
 * either case: the exit status. */
int sb_output_report(FILE *f, enum sb_format fmt, const struct sb_results *r,
		     const struct sb_output_meta *meta, const char *prog);

/* "PROG: cannot write the results: strerror(err)" on stderr; for f stdout,
 * the exit check (below) then says nothing more. */
void sb_output_write_failed(FILE *f, const char *prog, int err);

/* At exit, closes stdout and checks it: a write error ends the program with
 * "PROG: cannot write the results to standard output: REASON" and status 1.
 * Call once, first thing in main. */
void sb_check_stdout_at_exit(const char *prog);

/* Under the table: "# " lines saying in how many re-rolled states each
 * arm ran, what 'matched' is, and (modes) each multimodal cell's modes;
 * without modes, how many cells have several. */
void sb_output_states_note(FILE *f, const struct sb_results *r, int modes);
/* One sentence (no final period) on what r's CIs hold: what varies within
 * the run, and where the record of past runs widened them (past_runs.h),
 * how many runs it drew on; the table's footer and JSON's "ci_scope". */
void sb_output_past_runs_scope(char *buf, size_t len, const struct sb_results *r);
/* One line, when some cell has several steady states, naming the cells and
 * the batches where the state shares differ between variants; nothing
 * otherwise. Goes to stderr so that seed-format stdout stays parseable.
 * Returns 1 when it printed the line. */
int sb_output_multimodal_line(FILE *f, const char *tool, const struct sb_results *r);
/* Under the table: what the codegen, layout and vs-mainline costs are,
 * and one line per cell with a layout cost: "NAME@BATCH: codegen X [CI] +
 * layout Y [CI]; vs base Z [CI]" (cycles per iteration). */
void sb_output_codegen_note(FILE *f, const struct sb_results *r);
/* Cell c's codegen + layout cost disagrees with its vs base in cycles: the
 * sum's CI (the two CIs' deviations in quadrature) and vs base's do not
 * overlap. 0 where any of the three has no CI. */
int sb_cell_costs_disagree(const struct sb_cell *c);
/* The same on the three estimates: codegen g, layout l, vs base v (a
 * saved run's rows). */
struct sb_estimate;
int sb_costs_disagree(const struct sb_estimate *g, const struct sb_estimate *l, const struct sb_estimate *v);
/* One line naming the cells whose costs disagree (sb_cell_costs_disagree);
 * nothing otherwise. Returns 1 when it printed the line. */
int sb_output_codegen_check_line(FILE *f, const char *tool, const struct sb_results *r);
/* One line, when some cell's steady state changed with time (the
 * processes' states in the order they ran clump: sb_states_clump_in_time),
 * naming those cells: their CIs describe this run's stretches of time, not
 * the next run's. Nothing otherwise; returns 1 when it printed the line. */
int sb_output_time_line(FILE *f, const char *tool, const struct sb_results *r);
/* One line, when in some cell at batch >= SB_COLD_MIN_BATCH a block's
 * first kept sample sat more than SB_COLD_EXCESS above its others
 * (sb_cell.first_round_excess): the code was still cold after the warm
 * rounds, so those figures read high (measured:
 * results/amd-epyc-zen5-vm.md). Nothing otherwise; returns 1 when it printed the line. */
#define SB_COLD_MIN_BATCH 64
#define SB_COLD_EXCESS 0.05
int sb_output_cold_line(FILE *f, const char *tool, const struct sb_results *r);

/* One line on f when the core was busy for most of the run (the add
 * canary's median below 90 % of its quiet level: a neighbour took the
 * core's ports or the host preempted it; or the window canary's median
 * above 105 % of its quiet level: a sibling halved the core's out-of-order
 * window), or for all of it: the run's own quiet levels beyond those
 * limits of the machine's (machine: its earlier runs, quiet_record.h; NULL
 * or levels of 0: not known). Such a run's figures describe a busy core
 * and need not hold for the next run. Returns 1 when it said so. */
int sb_output_busy_line(FILE *f, const char *tool, const struct sb_results *r,
			const struct sb_quiet_reference *machine);
/* What every measuring command says at its end about its core: reads the
 * record in use (sb_quiet_record_use), prints the busy-core line against
 * it, then adds the run to it (when it has SB_QUIET_MIN_BLOCKS blocks). A
 * record that cannot be read or written costs one line on f; the run
 * carries on. Returns 1 when it printed a busy-core line. */
int sb_output_busy_report(FILE *f, const char *tool, const struct sb_results *r);

/* One line on f with what the CIs cover (sb_output_meta.ci_scope, "# CIs:"
 * under the table): "TOOL: CIs: SCOPE". Nothing when scope is NULL;
 * returns 1 when it printed the line. */
int sb_output_ci_scope_line(FILE *f, const char *tool, const char *scope);

/* One seed-format line, as upstream's run_common.sh summarize prints it:
 * "%-20s %s (drops %s)" with "NAME-BATCH: " and "X.XXX ± Y.YYYM/s". */
void sb_output_seed_line(FILE *f, const char *name, uint64_t batch, const char *suffix,
			 double mean, double sd);

#endif
