/* state_figures.h: a recorded sweep estimated again from its blocks log
 * (--blocks) and its JSON, per state of the core beside its blocks
 * (core_states.h): `stubbench report RUN.json --from-blocks=LOG`
 * (docs/core-states.md).
 *
 * Per variant, batch size and state that holds SB_CORE_MIN_BLOCKS blocks:
 * - vs base: the variant against its baseline, interleaved in the same
 *   blocks (the log's parts with a baseline), the mean over placements;
 * - with --padded, from the groups of their own at identical layout:
 *   codegen, the variant against its padded baseline (the median over
 *   placements, as the run takes it), and total, against the baseline (the
 *   mean over placements);
 * each with its CI (sb_paired_over_placements, sb_paired_between_placements).
 * A log does not carry each group's estimate of the timing loop, which the
 * run adds back (paired_placements.h): the figures here take none off. */
#ifndef STUBBENCH_STATE_FIGURES_H
#define STUBBENCH_STATE_FIGURES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/block_table.h"
#include "stats/core_states.h"
#include "stubbench/estimate.h"

/* The figures of the blocks in t (read from a log, block_table.h), their
 * states by record_level (the machine's quiet add level; 0: none); the
 * bootstraps seeded from seed. Returns 0, or -1 with err (no variant with
 * a baseline in the log, out of memory). */
int sb_state_figures_compute(const struct sb_block_table *t, double record_level, uint64_t seed,
			     struct sb_state_figures *out, char *err, size_t errlen);

/* The same for a live run's blocks (collected while it measured): a
 * run with no figure (no state of SB_CORE_MIN_BLOCKS blocks) keeps its
 * split, out->n 0. Returns 0, or -1 out of memory. */
int sb_state_figures_of_blocks(const struct sb_block_table *t, double record_level, uint64_t seed,
			       struct sb_state_figures *out);

/* The report: text (its first lines the answer) or, json non-zero, one
 * JSON document; run and log name the files, record the quiet-levels
 * record the level came from (NULL: none, or why_none says why). */
void sb_state_figures_write(FILE *f, const struct sb_state_figures *s, int json, const char *run, const char *log,
			    const char *record, const char *why_none);

/* A run's core states as parent's member key (json_doc.h; the run's
 * "core_states"): basis, record (record, where the level came from one),
 * quiet level, busy_below, the states seen (every state with a block:
 * blocks, canary median) and, figures_inside non-zero, the figures. */
struct sb_doc;
void sb_state_figures_doc(struct sb_doc *parent, const char *key, const struct sb_state_figures *s,
			  const char *record, int figures_inside);

/* `stubbench report RUN --from-blocks=LOG [--quiet-levels=FILE]
 * [--variant=LIST]`: run (its JSON: the machine its record line is looked
 * up by) and log read, the log checked to be the run's (its batch sizes
 * the run's, its arms among the run's variants, its processes within each
 * cell's), the figures computed (of the n_variants variants only, where
 * variants is not NULL: each must have one) and written to f. Returns 0,
 * 1 when f cannot be written, or 2 (bad input: one line on stderr naming
 * the file). */
int sb_report_from_blocks(FILE *f, const char *run, const char *log, const char *quiet_levels, int json,
			  char *const *variants, size_t n_variants);

void sb_state_figures_free(struct sb_state_figures *s);

#endif
