/* annotate_run.h: `stubbench annotate`, a variant's listing with what each
 * of its parts costs (docs/annotate.md; src/commands/annotate_run.c). */
#ifndef STUBBENCH_ANNOTATE_RUN_H
#define STUBBENCH_ANNOTATE_RUN_H

#include "stubbench/config.h"

/* What `stubbench annotate` is asked beyond the run configuration. */
struct sb_annotate_options {
	const char *variant;      /* --variant=NAME: the variant annotated against its baseline */
	const char *from_blocks;  /* --from-blocks=FILE: the figures from a --blocks log ("-": stdin); NULL: measured */
};

/* stubbench annotate: o's variant against its baseline (annotate_baseline.h),
 * each part NOPed and removed, measured at identical layout with cfg, or
 * recomputed from o->from_blocks; reported through the session. Returns
 * an sb_status (error.h): OK, FAILED (a failed run or no attribution),
 * USAGE (bad input, said in one line). */
int sb_annotate_run(const struct sb_config *cfg, const struct sb_annotate_options *o);

#endif
