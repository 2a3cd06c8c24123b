/* annotate.h: `stubbench annotate`, a variant's listing with what each of
 * its parts costs (docs/annotate.md): the command (annotate_command.c)
 * and its report (annotate_report.c). */
#ifndef STUBBENCH_BENCH_ANNOTATE_H
#define STUBBENCH_BENCH_ANNOTATE_H

#include <stdio.h>

#include "stubbench/ablation.h"
#include "stubbench/attribution.h"
#include "stubbench/config.h"

#define ANNOTATE_MAX_BATCHES SB_MAX_BATCHES

struct annotate {
	const char *variant, *baseline;      /* their names */
	struct sb_ablation ab;               /* the variant's parts */
	char nop_name[SB_ABLATION_MAX_PARTS][112], removed_name[SB_ABLATION_MAX_PARTS][112];
	char layout_name[112];               /* every part NOPed */
	struct sb_attribution att[ANNOTATE_MAX_BATCHES];
	size_t n_att;
	char pmu[200];                       /* one line: the PMU, or why there is none */
	const char *source;                  /* "live", or the block log read */
};

/* The arms' names of the attribution: VARIANT, BASELINE, VARIANT:nop:K,
 * VARIANT:del:K (K from 1) and VARIANT:nop:all, in a. */
void annotate_arm_names(struct annotate *a);

/* The attribution of every batch size of t. Returns 0, or -1 said on
 * stderr with tool. */
int annotate_compute(struct annotate *a, const struct sb_block_table *t, uint64_t seed, const char *tool);

/* a->pmu: one line, a PMU to sample on, or why there is none. */
void annotate_probe_pmu(struct annotate *a);

/* Measures the variant v (a->ab's parts against b), its baseline b and
 * every ablation in one group at identical layout (--padded's shared
 * offsets), the kept blocks collected, and computes a's attribution
 * (annotate_compute), with the run configuration cfg; tool prefixes what
 * it says. Returns 0, 1 (a failed run or no attribution) or EXIT_USAGE;
 * res must be freed (sb_session_finish). Used by stubbench annotate,
 * stubbench diff and stubbench kernel --obj. */
struct sb_cli;
struct sb_code_variant;
struct sb_results;
struct sb_variant;
int annotate_measure(const struct sb_config *cfg, const char *tool, struct annotate *a, const struct sb_variant *v,
		     const struct sb_variant *b, struct sb_results *res);

/* a's parts: the code variant v's against b's, function i with function i
 * (sb_ablation_parts), named by their variants, the PMU probed. Returns 0,
 * or -1 with err (no parts, more than a run holds arms for). */
int annotate_parts_of_code(struct annotate *a, const struct sb_code_variant *v, const struct sb_code_variant *b,
			   char *err, size_t errlen);

/* The variant v with every part of a NOPed (a->layout_name), runnable:
 * v's code at v's length, its added instructions gone, what a padded
 * baseline is to the sweep (its counter and records v's). Returns 0, or -1
 * said on stderr with tool. */
int annotate_make_layout(const char *tool, const struct sb_variant *v, struct annotate *a,
			 struct sb_code_variant *out);

/* The summary's lines (at most max, within 100 columns). Returns how many. */
int annotate_summary(FILE *f, const struct annotate *a, int max);
/* The listing with a cost column per part, batch by batch. */
void annotate_listing(FILE *f, const struct annotate *a);
/* `,\n  "annotate": {...}`: every row, every part's figures per batch. */
void annotate_json(FILE *f, const struct annotate *a);

#endif
