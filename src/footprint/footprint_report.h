/* footprint_report.h: what `stubbench footprint` says beyond the common
 * writers (output.h): which variant, layout and number of copies each cell
 * measured, its cost added to the baseline in core cycles per call, the
 * footprint table, and the document's members only footprint has.
 *
 * The results hold one cell per layout, copies and variant (each its own
 * arm, named "<variant>@<layout>/<copies>"), in that order: every cell of
 * one (layout, copies) was measured in one interleaved run, the baseline's
 * first. JSON and CSV are the common reporters' (reporter.h); the
 * document gets a "footprint" object in each result
 * (sb_fp_report_cell_members) and "footprint_run"
 * (sb_fp_report_run_members). */
#ifndef STUBBENCH_FOOTPRINT_REPORT_H
#define STUBBENCH_FOOTPRINT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "footprint/footprint.h"
#include "stubbench/results.h"

/* What cell i of the results measured, besides its arm. */
struct sb_fp_cell_key {
	const char *variant;      /* the variant copied (registry name) */
	enum sb_fp_layout layout;
	uint64_t copies;
	size_t baseline;          /* the cell of the baseline at the same layout and copies */
};

struct sb_fp_report {
	const struct sb_results *res;
	const struct sb_fp_cell_key *keys; /* keys[i] for res->cells[i] */
	const char *pages;                 /* lines, each one fact about the pages the copies got; may be NULL */
	const char *perf_map;              /* the perf map naming every copy; may be NULL */
};

/* Cell i's cost added to its baseline, core cycles per call: its
 * interleaved delta (sb_cell.delta_pct and its CI) times the baseline's
 * mean cycles per call. Returns 1 with *d, *lo, *hi (NAN where the CI is
 * not known), or 0 when the cell has none (the baseline itself, or either
 * cell without usable samples). */
int sb_fp_delta_cycles(const struct sb_fp_report *r, size_t i, double *d, double *lo, double *hi);

/* The table: a row per layout, copies and variant with cycles per call,
 * its CI and the delta in cycles; a cell without usable samples says why. */
void sb_fp_report_table(FILE *f, const struct sb_fp_report *r);

/* For sb_output_meta (ctx: the struct sb_fp_report), as data (json_doc.h). members:
 * "footprint_run": the unit, the baseline, the layouts and copies, the
 * pages' lines, the perf map. result_members: "footprint": the
 * variant, layout, copies, baseline and, where there is one, the delta in
 * cycles per call with its CI. */
struct sb_doc;
void sb_fp_report_run_members(struct sb_doc *doc, const void *ctx);
void sb_fp_report_cell_members(struct sb_doc *doc, const struct sb_cell *c, const void *ctx);

#endif
