/* reporter.h: one interface for every output format of a run, as Google
 * Benchmark's reporters (ConsoleReporter, JSONReporter, CSVReporter) have:
 * one implementation per format, in src/output/reporter_FORMAT.c, named
 * with its kind by a line of formats.def; the measuring commands' ending
 * picks one by --format (sb_reporter_for) and calls it through
 * sb_output_write and sb_output_notes (output.h):
 *
 *   begin     the run's context (the table's "#" lines, CSV's header,
 *             the JSON document's members before its results)
 *   results   a row, line or object per cell
 *   members   the command's own members (sb_output_meta.members), handed
 *             over as a document (json_doc.h); NULL: the format has no
 *             place for them
 *   end       what closes the output (the table's notes, JSON's "}")
 *   notes     what the run says about itself after the report (NULL: as
 *             lines of text, sb_output_text_notes)
 *
 * Each call returns 0, or -1 with errno when it could not write (a
 * document out of memory); sb_output_write then stops. A command's
 * members per result (sb_output_meta.result_members) are the results
 * call's to place. See docs/output-formats.md. */
#ifndef STUBBENCH_REPORTER_H
#define STUBBENCH_REPORTER_H

#include <stdio.h>

#include "base/run_info.h"
#include "output/output_notes.h"

struct sb_doc;
struct sb_cell;
struct sb_results;
struct sb_output_meta;

/* What kind of output a format is: said by its line of formats.def, asked
 * with sb_format_is. The commands ask for a kind, never for a format, so
 * that every decision on formats is here. */
#define SB_OUT_TEXT 1u  /* for people: the summary first, the full table on request */
#define SB_OUT_KEYED 2u /* names each cell by its whole key: placement, padded baseline */
#define SB_OUT_JSON 4u  /* stubbench's JSON document, which a command's own members join */

struct sb_reporter {
	int (*begin)(FILE *f, const struct sb_results *r, const struct sb_output_meta *m);
	int (*results)(FILE *f, const struct sb_results *r, const struct sb_output_meta *m);
	int (*members)(FILE *f, const struct sb_doc *members);
	int (*end)(FILE *f, const struct sb_results *r, const struct sb_output_meta *m);
	/* The notes of which (output_notes.h) on f; returns 1 when they say
	 * the core was busy. */
	int (*notes)(FILE *f, const char *tool, const struct sb_results *r, const struct sb_output_meta *m,
		     enum sb_notes which);
};

/* An output format: a line of formats.def. */
struct sb_format {
	const char *name;
	unsigned kind; /* SB_OUT_* */
	const struct sb_reporter *reporter;
	const char *about;
};

/* The format named name (a struct sb_config's format), the default for
 * NULL or for a name no format has (the command line and sweep files
 * check names with sb_format_find). */
const struct sb_format *sb_format_of(const char *name);
/* The reporter of the format named format (sb_format_of). */
const struct sb_reporter *sb_reporter_for(const char *format);
/* Non-zero when the format named format is of kind (SB_OUT_*). */
int sb_format_is(const char *format, unsigned kind);

/* The names of the formats of kind (0: every format), ", "-separated in
 * the table's order, in buf (cut short to fit len). Returns buf. */
const char *sb_format_list(char *buf, size_t len, unsigned kind);
/* Every format as "NAME (ABOUT)", the default's "NAME (default; ABOUT)",
 * ", "-separated, in buf (--help). Returns buf. */
const char *sb_format_choices(char *buf, size_t len);

/* A JSON document of its own (not a run's: the private-stack probe, the
 * command line's description), value v of a document (json_doc.h) and a
 * newline, written by the JSON reporter. Returns 0, or -1 when the
 * document ran out of memory (nothing written). */
int sb_reporter_json_doc(FILE *f, const struct sb_doc *v);

/* Cells in batch-major order (all variants of batch 1, then of batch 8
 * ...), as the seeds' run script prints them: the i-th, or NULL when r
 * has no arms. */
const struct sb_cell *sb_reporter_cell_at(const struct sb_results *r, size_t i);

#endif
