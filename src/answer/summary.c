/* summary.c: a run's summary whole: the header, the command's own lines
 * or the per-variant ones, and where a sweep's machine stands in the atlas
 * (answer.h, atlas.h). */
#include "answer/answer.h"

#include <string.h>

#include "answer/atlas.h"

int sb_answer_write(FILE *f, const struct sb_run_file *rf, sb_answer_fn own)
{
	sb_answer_header(f, rf);
	int lines = 1;
	if (rf->not_measured[0]) {
		char line[640];
		snprintf(line, sizeof(line), "not measured: %s", rf->not_measured);
		if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
			memcpy(line + SB_ANSWER_MAX_COLUMNS - 3, "...", 4);
		fprintf(f, "%s\n", line);
		lines++;
	}
	if (own)
		return lines + own(f, rf, SB_ANSWER_MAX_LINES - lines);
	int states = sb_answer_core_states_lines(rf);
	lines += sb_answer_costs(f, rf, SB_ANSWER_MAX_LINES - lines - 1 - states);
	lines += sb_answer_core_states(f, rf, SB_ANSWER_MAX_LINES - lines - 1);
	return lines + sb_atlas_line(f, rf, sb_atlas_dir());
}
