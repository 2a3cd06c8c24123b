/* lab_rank.h: the lab's alternatives ranked, per return flavour and shape:
 * what each adds to the baseline of its group, in cycles per iteration,
 * against mainline and against the placement control (the baseline's
 * bytes elsewhere: what placement alone moves), from a run's rows.
 *
 * A difference between two alternatives of a group (a - b) takes the two
 * deltas' CIs added in quadrature (conservative: both were measured in the
 * same blocks). An alternative is indistinguishable from the control when
 * the CI of its difference to the control holds 0; the cheapest is the
 * alternative with the lowest cost whose difference to every other
 * alternative's has a CI entirely below 0 (the margin that holds is the
 * upper end of the CI to the next cheapest); else none is cheapest. */
#ifndef STUBBENCH_LAB_RANK_H
#define STUBBENCH_LAB_RANK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stubbench/estimate.h"
#include "saved/run_file.h"

#define SB_LAB_RANK_MAX 8

struct sb_lab_ranked {
	const struct sb_run_row *row;
	struct sb_estimate cost;        /* cycles per iteration added to the baseline */
	struct sb_estimate vs_mainline; /* cost - mainline's */
	struct sb_estimate vs_control;  /* cost - the placement control's */
	int like_control;               /* the CI of vs_control holds 0 */
};

struct sb_lab_rank {
	char ret[16], shape[16];
	uint64_t batch;                 /* the largest where every alternative has a delta CI */
	struct sb_lab_ranked alt[SB_LAB_RANK_MAX]; /* cheapest first; the control not among them */
	size_t n;
	struct sb_lab_ranked control;   /* control.row NULL: none in the run */
	int cheapest;                   /* index into alt, -1: none beyond the CIs */
	struct sb_estimate margin;      /* the next cheapest's cost - the cheapest's */
};

/* The ranking of the group of rows with return ret and shape. Returns 0,
 * or -1 when the run has no such group with delta CIs. */
int sb_lab_rank(const struct sb_run_file *rf, const char *ret, const char *shape, struct sb_lab_rank *out);

/* The lab return flavour ("srso-alias") that returns as thunk does (a
 * thunk's symbol, "ret" or ""); "ret" when it is not one of the lab's. */
const char *sb_lab_rank_return_of(const char *thunk);

/* Every group's ranking as a table ("# lab ranking" and a line per
 * alternative), for --table. */
void sb_lab_rank_table(FILE *f, const struct sb_run_file *rf);

/* Every group's ranking as doc's member "lab_ranking" (json_doc.h): per
 * return and shape, the batch, the cheapest (null: none
 * beyond the CIs), its margin, the control's cost, and per alternative,
 * cheapest first, its cost, vs_mainline, vs_control ({cycles, ci95} or
 * null) and like_control. */
struct sb_doc;
void sb_lab_rank_doc(struct sb_doc *doc, const struct sb_run_file *rf);

/* The lab's lines of the summary (answer.h's sb_answer_fn): the ranking
 * for the return this host's code takes, per shape. */
int sb_lab_answer(FILE *f, const struct sb_run_file *rf, int max_lines);

#endif
