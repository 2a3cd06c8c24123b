/* diff_context.h: what stubbench diff's report says beyond the results:
 * both sides, their map and the parts' costs. src/commands/diff.c makes
 * it, diff_report.c prints it. Private to src/commands. */
#ifndef STUBBENCH_COMMANDS_DIFF_CONTEXT_H
#define STUBBENCH_COMMANDS_DIFF_CONTEXT_H

#include "annotate.h"
#include "twins/diff_globals.h"
#include "twins/diff_twin.h"
#include "twins/image_diff.h"
#include "session/session.h"

#define SB_DIFF_TOOL "stubbench diff"

struct sb_diff_context {
	const char *old_files, *new_files;       /* the operands OLD, NEW */
	const struct sb_jit_image *old, *new_img;
	const struct sb_image_diff *d;
	char how[2][300];                        /* how each side's calls were placed (image_diff.h), or "" */
	const struct sb_annotate *an;            /* the parts' costs (annotate.h), or NULL */
	struct sb_image_globals globals[2];      /* the globals each side's files name */
	struct sb_diff_set sets[2][SB_TWIN_MAX_GLOBALS]; /* --global's values on each side */
	size_t n_sets;
	struct sb_diff_zeroed zeroed[2];         /* each twin's path and the memory it zeroes */
};

/* s reports c beside its results: the summary's lines (the saved run's,
 * run_diff.h, from c's JSON members), after the table (--table) every
 * pair's old -> new listing and the parts' listing, and the JSON members
 * "diff" and "annotate". c must outlive s. */
void sb_diff_report_on(struct sb_session *s, const struct sb_diff_context *c);

#endif
