/* annotate.h: what the commands share of `stubbench annotate` (the command
 * itself: annotate_run.h): a variant's parts and their attribution, their
 * measurement by ablation, also used by stubbench diff and stubbench kernel
 * --obj (annotate_measure.c), and its report (annotate_report.c);
 * docs/annotate.md. Internal to src/commands. */
#ifndef STUBBENCH_COMMANDS_ANNOTATE_H
#define STUBBENCH_COMMANDS_ANNOTATE_H

#include <stdint.h>
#include <stdio.h>

#include "twins/ablation.h"
#include "stats/attribution.h"
#include "commands/annotate_run.h"
#include "stubbench/config.h"

#define SB_ANNOTATE_MAX_BATCHES SB_MAX_BATCHES

struct sb_annotate {
	const char *variant, *baseline;      /* their names */
	struct sb_ablation ab;               /* the variant's parts */
	char nop_name[SB_ABLATION_MAX_PARTS][112], removed_name[SB_ABLATION_MAX_PARTS][112];
	char layout_name[112];               /* every part NOPed */
	struct sb_attribution att[SB_ANNOTATE_MAX_BATCHES];
	size_t n_att;
	char pmu[200];                       /* one line: the PMU, or why there is none */
	const char *source;                  /* "live", or the block log read */
};

/* The arms' names of the attribution: VARIANT, BASELINE, VARIANT:nop:K,
 * VARIANT:del:K (K from 1) and VARIANT:nop:all, in a. */
void sb_annotate_arm_names(struct sb_annotate *a);

/* The attribution of every batch size of t. Returns 0, or -1 said on
 * stderr with tool. */
int sb_annotate_compute(struct sb_annotate *a, const struct sb_block_table *t, uint64_t seed, const char *tool);

/* a->pmu: one line, a PMU to sample on, or why there is none. */
void sb_annotate_probe_pmu(struct sb_annotate *a);

/* Measures the variant v (a->ab's parts against b), its baseline b and
 * every ablation in one group at identical layout (--padded's shared
 * offsets), the kept blocks collected, and computes a's attribution
 * (sb_annotate_compute), with the run configuration cfg; tool prefixes what
 * it says. Returns SB_STATUS_OK, SB_STATUS_FAILED (a failed run or no
 * attribution) or SB_STATUS_USAGE; res must be freed (sb_session_finish).
 * Used by stubbench annotate, stubbench diff and stubbench kernel --obj. */
struct sb_code_variant;
struct sb_results;
struct sb_variant;
int sb_annotate_measure(const struct sb_config *cfg, const char *tool, struct sb_annotate *a,
			const struct sb_variant *v, const struct sb_variant *b, struct sb_results *res);

/* a's parts: the code variant v's against b's, function i with function i
 * (sb_ablation_parts), named by their variants, the PMU probed. Returns 0,
 * or -1 with err (no parts, more than a run holds arms for). */
int sb_annotate_parts_of_code(struct sb_annotate *a, const struct sb_code_variant *v, const struct sb_code_variant *b,
			      char *err, size_t errlen);

/* The variant v with every part of a NOPed (a->layout_name), runnable:
 * v's code at v's length, its added instructions gone, what a padded
 * baseline is to the sweep (its counter and records v's). Returns 0, or -1
 * said on stderr with tool. */
int sb_annotate_make_layout(const char *tool, const struct sb_variant *v, struct sb_annotate *a,
			    struct sb_code_variant *out);

/* The summary's lines (at most max, within 100 columns). Returns how many. */
int sb_annotate_summary(FILE *f, const struct sb_annotate *a, int max);
/* The listing with a cost column per part, batch by batch. */
void sb_annotate_listing(FILE *f, const struct sb_annotate *a);
/* doc's member "annotate" (json_doc.h): every row, every part's figures
 * per batch. */
struct sb_doc;
void sb_annotate_doc(struct sb_doc *doc, const struct sb_annotate *a);

#endif
