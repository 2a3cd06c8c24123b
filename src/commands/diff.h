/* diff.h: `stubbench diff OLD NEW`, what a change to a JIT image costs
 * (docs/diff.md): twins of both sides measured at identical layout with
 * OLD as the baseline, and NEW's parts by ablation (annotate.h). The
 * command is src/commands/diff.c, its report src/commands/diff_report.c,
 * its summary src/answer/diff_answer.c (run_diff.h). */
#ifndef STUBBENCH_DIFF_H
#define STUBBENCH_DIFF_H

#include "stubbench/config.h"

#define SB_DIFF_MAX_GLOBALS 16 /* --global options */

/* What `stubbench diff` is asked beyond the run configuration. */
struct sb_diff_options {
	/* OLD and NEW: FILE[,FILE...], the main prog first (image_diff.h). */
	const char *old_files, *new_files;
	int measure_identical;   /* --measure: measure them even when their code is the same */
	int total_only;          /* --no-parts: OLD and NEW alone, not each part of the change */
	/* --global=NAME=VALUE or 0xKADDR[+OFF]=VALUE, as given: values in both
	 * twins' zeroed memory (src/twins/diff_globals.h). */
	const char *globals[SB_DIFF_MAX_GLOBALS];
	size_t n_globals;
};

/* stubbench diff of o's sides with the run configuration cfg: both read
 * and paired; the same code said in one line on stdout (not measured
 * unless o->measure_identical); else measured and reported through the
 * session. Returns an sb_status (error.h): OK (measured, or no change),
 * FAILED (a failed run or check), USAGE (a file that cannot be read,
 * images with no function in common, code no twin can be made of, a
 * --global that is malformed or names nothing; said in one line). */
int sb_diff_run(const struct sb_config *cfg, const struct sb_diff_options *o);

#endif
