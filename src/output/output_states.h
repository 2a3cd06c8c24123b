/* output_states.h: what the output says about a run beside its figures
 * (output.h): the re-rolled states and steady states its cells ran in, a
 * state that changed with time, code still cold, a busy core, and what
 * its CIs cover. */
#ifndef STUBBENCH_OUTPUT_STATES_H
#define STUBBENCH_OUTPUT_STATES_H

#include <stddef.h>
#include <stdio.h>

#include "stubbench/results.h"

struct sb_quiet_reference;

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
 * and need not hold for the next run. The line is folded at spaces within
 * SB_TABLE_MAX_COLUMNS, each further line indented by two (sb_fold_line).
 * Returns 1 when it said so. */
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

#endif
