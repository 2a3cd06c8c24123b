/* output_notes.h: what a run says about itself after its report, on the
 * terminal: a multimodal cell, the codegen check, a state that changed with
 * time, code still cold, a busy core, what the CIs cover, large deltas and
 * costs not told apart from the overhead. The session says which notes
 * (sb_notes), the format's reporter how they look (reporter.h's notes;
 * sb_output_notes, output.h). */
#ifndef STUBBENCH_OUTPUT_NOTES_H
#define STUBBENCH_OUTPUT_NOTES_H

#include <stdio.h>

#include "base/run_info.h"
#include "stubbench/results.h"

/* Which notes a run says. */
enum sb_notes {
	SB_NOTES_BUSY,    /* a busy core alone (the summary alone was asked for) */
	SB_NOTES_ALL,     /* every note but the multimodal cells (the full report) */
	SB_NOTES_VERBOSE, /* every note (--verbose) */
};

/* The notes of which as lines of text on f, each "TOOL: ..." (the lines of
 * output_states.h, output_codegen.h and figure_checks.h); what a reporter
 * without notes of its own says. Returns 1 when the core was busy. */
int sb_output_text_notes(FILE *f, const char *tool, const struct sb_results *r, const struct sb_output_meta *m,
			 enum sb_notes which);

#endif
