/* output.h: a run's results through the reporter of its format
 * (reporter.h: table, seed lines, JSON, CSV, Google Benchmark JSON). */
#ifndef STUBBENCH_OUTPUT_H
#define STUBBENCH_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "harness/harness.h"
#include "output/output_codegen.h"
#include "output/output_notes.h"
#include "output/output_states.h"
#include "base/run_info.h"

struct sb_reporter;

/* Writes r with rep (begin, results, the command's members, end); a cell with no usable samples is "n/a" in the table with a
 * line saying why, null with a "no_samples_reason" in JSON, empty fields in
 * CSV, and left out of the seed lines with a line on stderr instead.
 * Returns 0, or -1 when writing f failed (errno says why). */
int sb_output_write(FILE *f, const struct sb_reporter *rep, const struct sb_results *r,
		    const struct sb_output_meta *meta);

/* The notes of which (output_notes.h) after the report, on f, as the
 * reporter of the format named format says them (its notes; none: lines of
 * text). Returns 1 when they say the core was busy. */
int sb_output_notes(const char *format, FILE *f, const char *tool, const struct sb_results *r,
		    const struct sb_output_meta *m, enum sb_notes which);

/* Cells of r measured but with no usable samples (sb_cell.no_samples; not
 * those only below the subtracted overhead). */
size_t sb_results_count_empty(const struct sb_results *r);

/* sb_output_write, then one line on stderr (prefixed with prog) when
 * writing failed or when a cell has no usable samples. Returns 0, or 1 in
 * either case: the exit status. */
int sb_output_report(FILE *f, const struct sb_reporter *rep, const struct sb_results *r,
		     const struct sb_output_meta *meta, const char *prog);

/* "PROG: cannot write the results: strerror(err)" on stderr; for f stdout,
 * the exit check (below) then says nothing more. */
void sb_output_write_failed(FILE *f, const char *prog, int err);

/* At exit, closes stdout and checks it: a write error ends the program with
 * "PROG: cannot write the results to standard output: REASON" and status 1.
 * Call once, first thing in main. */
void sb_check_stdout_at_exit(const char *prog);


/* One seed-format line, as upstream's run_common.sh summarize prints it:
 * "%-20s %s (drops %s)" with "NAME-BATCH: " and "X.XXX ± Y.YYYM/s". */
void sb_output_seed_line(FILE *f, const char *name, uint64_t batch, const char *suffix,
			 double mean, double sd);

#endif
