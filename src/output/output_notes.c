/* output_notes.c: the run's notes as lines of text; see output_notes.h. */
#include "output/output_notes.h"

#include "output/figure_checks.h"
#include "output/output_codegen.h"
#include "output/output_states.h"
#include "output/text_grid.h"

static int text_notes(FILE *f, const char *tool, const struct sb_results *r, const struct sb_output_meta *m,
		      enum sb_notes which)
{
	if (which == SB_NOTES_BUSY)
		return sb_output_busy_report(f, tool, r);
	if (which == SB_NOTES_VERBOSE)
		sb_output_multimodal_line(f, tool, r);
	sb_output_codegen_check_line(f, tool, r);
	sb_output_time_line(f, tool, r);
	sb_output_cold_line(f, tool, r);
	int busy = sb_output_busy_report(f, tool, r);
	sb_output_ci_scope_line(f, tool, m->ci_scope);
	sb_figure_large_lines(f, tool, r);
	sb_figure_below_zero_lines(f, tool, r);
	return busy;
}

int sb_output_text_notes(FILE *f, const char *tool, const struct sb_results *r, const struct sb_output_meta *m,
			 enum sb_notes which)
{
	/* Each note folded within the table's width, continued two columns in
	 * (where the fold cannot be opened: as written). */
	FILE *fold = sb_fold_stream(f, SB_TABLE_MAX_COLUMNS);
	int busy = text_notes(fold ? fold : f, tool, r, m, which);
	if (fold)
		fclose(fold);
	return busy;
}
