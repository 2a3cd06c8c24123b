/* kernel_verdict.h: does a twin stand for the kernel's code? An
 * equivalence test with a stated margin, of the two figures a twin stands
 * for: the absolute cost per iteration of every arm (baseline included)
 * and the cost a variant adds to its baseline.
 *
 * The difference twin - kernel gets a 95 % CI from the two CIs (the two
 * are measured in processes of their own: independent), side by side
 * added in quadrature. The margin is SB_VERDICT_MARGIN_CYCLES or
 * SB_VERDICT_MARGIN_FRACTION of the kernel's figure, whichever is larger:
 *   the CI inside [-margin, +margin]:        agree
 *   the CI entirely outside it:              differ
 *   otherwise (it straddles an edge):        inconclusive
 * so a verdict can fail, and a wide CI never passes for agreement. */
#ifndef STUBBENCH_KERNEL_VERDICT_H
#define STUBBENCH_KERNEL_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include "stubbench/estimate.h"
#include "saved/run_file.h"

#define SB_VERDICT_MARGIN_CYCLES 1.0
#define SB_VERDICT_MARGIN_FRACTION 0.10
/* The rule in words, for every output that prints verdicts. */
#define SB_VERDICT_RULE "twin - kernel, 95 % CI, within ±1 cycle or ±10 % of the kernel, whichever is larger"

/* A kernel figure is resolved where its 95 % CI's half-width is at most
 * SB_KERNEL_RESOLVED_CYCLES or SB_KERNEL_RESOLVED_FRACTION of the base's
 * own cost, whichever is larger, and never more than that cost (the base:
 * the same side's baseline at that batch, cycles per iteration); an added
 * cost whose base is not resolved is not either. Beyond it the figure is
 * no cost: printed "not resolved at batch N: " and where its spread comes
 * from (sb_kernel_unresolved_reason), with no verdict, never the
 * summary's "most". */
#define SB_KERNEL_RESOLVED_CYCLES 10.0
#define SB_KERNEL_RESOLVED_FRACTION 0.10
/* The largest half-width a figure over a base costing base_cost may have. */
double sb_kernel_resolved_bound(double base_cost);
/* Whether e (over base, which may be e itself) is resolved. */
int sb_kernel_resolved(const struct sb_estimate *e, const struct sb_estimate *base);
/* e's CI half-width (the larger side), NAN without a CI. */
double sb_estimate_half_width(const struct sb_estimate *e);

/* Where the spread of a kernel figure not resolved (its CI's half-width
 * half) comes from, by the intervals its loads' differing alone and its
 * blocks within each load alone give it (between, within: kernel_by_load.h;
 * absent in a run that has no figures by load). A source names the spread
 * where its half-width is at least SB_SPREAD_NAMES times the other's and
 * at least SB_SPREAD_SHARE of half (it accounts for the spread):
 *   the loads:  "the loads differ: ±B cycles, ±W within a load"
 *   the blocks: "the driver's own spread is ±H cycles" (also with one
 *               load, where nothing lies between loads)
 * and where neither does, or the run cannot tell them apart, the text
 * gives ±H with what it knows, never naming a cause it did not measure. */
#define SB_SPREAD_NAMES 2.0
#define SB_SPREAD_SHARE 0.5
void sb_kernel_unresolved_reason(char *buf, size_t len, double half, const struct sb_estimate *between,
				 const struct sb_estimate *within);

enum sb_verdict { SB_VERDICT_NONE, SB_VERDICT_AGREE, SB_VERDICT_DIFFER, SB_VERDICT_INCONCLUSIVE };

struct sb_verdict_of {
	enum sb_verdict verdict;    /* NONE: a figure or its CI is missing */
	struct sb_estimate diff;    /* twin - kernel, cycles per iteration */
	double margin;              /* cycles */
};

/* The verdict on twin against kernel (both cycles per iteration). */
struct sb_verdict_of sb_kernel_verdict(const struct sb_estimate *twin, const struct sb_estimate *kernel);

/* The same rule on a difference twin - kernel measured as one figure (diff,
 * with its own CI), the margin from the kernel's figure. */
struct sb_verdict_of sb_kernel_verdict_of_difference(const struct sb_estimate *diff,
						     const struct sb_estimate *kernel);

/* The verdict on a twin's added cost (twin) against the kernel's (kernel):
 * paired by load where the twin is placed like the loads and has the
 * difference load by load (paired: the placed twin's paired_vs_kernel,
 * kernel_by_load.h; *was_paired 1), else from the two CIs as independent
 * figures (*was_paired 0; was_paired may be NULL). */
struct sb_verdict_of sb_kernel_added_verdict(const struct sb_estimate *twin, const struct sb_estimate *kernel,
					     const struct sb_estimate *paired, int *was_paired);

/* "agree", "differ", "inconclusive"; NULL for SB_VERDICT_NONE. */
const char *sb_verdict_name(enum sb_verdict v);

/* Every verdict of a kernel run's rows (the placed twins, else the aligned
 * ones, against the kernel, per shape, arm and batch): how many of each,
 * for the absolute cost (which = 0) and the added cost (which = 1). */
struct sb_verdict_counts {
	size_t n[2][4];             /* [absolute/added][enum sb_verdict] */
	/* The largest |difference| among the differing ones, where it is. */
	struct sb_verdict_of worst[2];
	char worst_where[2][64];
	size_t not_resolved[2];     /* figures with no verdict: the kernel's not resolved */
};
void sb_kernel_verdict_count(const struct sb_run_file *rf, struct sb_verdict_counts *out);

/* The two figures of one arm of a kernel run's rows at batch, from side
 * (SB_SIDE_KERNEL, SB_SIDE_PLACED_TWIN, SB_SIDE_TWIN): its absolute cost,
 * and (not the baseline) the cost it adds to the same side's baseline,
 * both cycles per iteration. 0, or -1 when the side has no such row. */
int sb_kernel_figures(const struct sb_run_file *rf, enum sb_cell_side side, const char *codegen, const char *shape,
		      uint64_t batch, struct sb_estimate *absolute, struct sb_estimate *added);

/* Whether the kernel's figures of an arm at batch are resolved: its
 * absolute cost (and, not the baseline, its base's) into *absolute, its
 * added cost (0 for the baseline) into *added, and of the widest of what
 * is not, its half-width into *spread (NAN: all resolved) and, where
 * why is not NULL, where that spread comes from (sb_kernel_unresolved_reason,
 * room for why_len). 0, or -1 without the arm or its baseline in the
 * kernel's rows. */
int sb_kernel_figures_resolved(const struct sb_run_file *rf, const char *codegen, const char *shape, uint64_t batch,
			       int *absolute, int *added, double *spread, char *why, size_t why_len);

/* The placed twin's added cost less the kernel's, paired by load, of
 * codegen and shape at batch (kernel_by_load.h): absent where the run has
 * none (an aligned twin, a run without figures by load). */
struct sb_estimate sb_kernel_paired_figure(const struct sb_run_file *rf, const char *codegen, const char *shape,
					   uint64_t batch);

/* The kernel run's lines of the summary (answer.h's sb_answer_fn): the
 * kernel's own figures at the largest batch where its baseline has a CI,
 * per shape, and the verdicts; where one differs, a line naming what the
 * twin does not reproduce: its figure below or above the kernel's, by how
 * many cycles per iteration. */
int sb_kernel_answer(FILE *f, const struct sb_run_file *rf, int max_lines);

#endif
