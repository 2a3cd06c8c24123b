/* across_runs.h: one table of saved runs side by side, a row per run (a
 * machine): its microarchitecture, kernel and return thunk, and per
 * variant what it adds per call at one batch size, in cycles and % with
 * their CIs, and a kernel run's verdicts. What a JIT change costs on every
 * CPU measured (`stubbench report A.json B.json ...`, docs/across-runs.md).
 *
 * Runs of one machine (the same name, kernel and return thunk: a sweep of
 * each flavour, a kernel run) share its row; where some runs are the
 * atlas's, the others are marked "this run" and have rows of their own.
 * Rows that would read alike get their file's name. Runs are matched on what they
 * share: the batch is the largest all have (or the one asked for), the
 * columns the variants of at least two machines (one machine: its own).
 * What cannot be matched is said in one line. */
#ifndef STUBBENCH_ACROSS_RUNS_H
#define STUBBENCH_ACROSS_RUNS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "saved/run_file.h"

enum sb_across_format {
	SB_ACROSS_TEXT,      /* within o->width: blocks of the variant columns that fit */
	SB_ACROSS_MARKDOWN,  /* one GitHub table, every column: for web pages, not mail */
	SB_ACROSS_JSON,
};

struct sb_across_options {
	enum sb_across_format format;
	uint64_t batch;             /* 0: the largest every run has */
	char *const *variants;      /* NULL: the variants at least two runs have */
	size_t n_variants;
	int width;                  /* the text form's columns; 0: SB_ANSWER_MAX_COLUMNS */
};

/* Writes the table of runs[0..n) to f. Returns 0; or 2 with one line in
 * err when nothing matches (no batch every run has, no variant two
 * machines have, or an asked variant no run has); 1 out of memory. */
int sb_across_runs(FILE *f, const struct sb_run_file *runs, size_t n, const struct sb_across_options *o, char *err,
		   size_t errlen);

#endif
