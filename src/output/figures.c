/* figures.c: the table of a result's figures; see figures.h. To add a
 * figure: compute its estimate into the cell (results.h, batch_summary.c)
 * and add a row here (docs/adding-a-figure.md). */
#include "output/figures.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "stubbench/results.h"

static const struct sb_figure figures[] = {
	{.name = "delta", .title = "% vs baseline", .unit = "%", .column = "vs base",
	 .json = "delta_vs_baseline_pct", .json_ci = "delta_ci95_pct",
	 .csv = "delta_pct", .csv_lo = "delta_ci_lo", .csv_hi = "delta_ci_hi",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, delta_pct), .of_baseline = 1},
	/* The codegen cost at identical layout (results.h); its JSON name is
	 * the matched-state difference's it replaced. */
	{.name = "codegen", .title = "cycles vs baseline at identical layout", .unit = "", .column = "codegen",
	 .json = "matched_delta_cycles", .json_ci = "matched_ci95",
	 .csv = "codegen_cycles", .csv_lo = "codegen_ci_lo", .csv_hi = "codegen_ci_hi",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, matched_cycles), .of_baseline = 1},
	{.name = "layout", .title = "cycles, the longer code's layout alone", .unit = "", .column = "layout",
	 .json = "layout_cost_cycles", .json_ci = "layout_ci95",
	 .csv = "layout_cycles", .csv_lo = "layout_ci_lo", .csv_hi = "layout_ci_hi",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, layout_cycles), .of_baseline = 1},
	{.name = "codegen-median", .title = "cycles vs baseline at identical layout, median over placements",
	 .unit = "", .json = "codegen_median_cycles", .json_ci = "codegen_median_ci95",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, codegen_median), .of_baseline = 1},
	{.name = "codegen-two-state", .title = "% of placements where the loop took two states (--padded)",
	 .unit = "%", .json = "codegen_two_state_placements_pct", .json_ci = "codegen_two_state_ci95",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, codegen_two_state_pct),
	 .of_baseline = 1},
	{.name = "codegen-mean", .title = "cycles vs baseline at identical layout, mean over placements (--padded)",
	 .unit = "", .json = "codegen_mean_cycles", .json_ci = "codegen_mean_ci95",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, codegen_mean), .of_baseline = 1},
	{.name = "vs-reference", .title = "cycles vs the reference (a lab alternative: its mainline)", .unit = "",
	 .json = "vs_reference_cycles", .json_ci = "vs_reference_ci95",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, vs_reference_cycles)},
	{.name = "delta-cycles", .title = "cycles vs baseline", .unit = "", .column = "vs (cyc)",
	 .json = "delta_vs_baseline_cycles", .json_ci = "delta_ci95_cycles",
	 .csv = "delta_cycles", .csv_lo = "delta_cycles_ci_lo", .csv_hi = "delta_cycles_ci_hi",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, delta_cycles), .of_baseline = 1},
	{.name = "next-run", .title = "% vs baseline, range for the next run", .unit = "%", .column = "next run",
	 .json = "next_run_delta_pct", .json_ci = "next_run_range_pct",
	 .csv = "next_run_delta_pct", .csv_lo = "next_run_lo_pct", .csv_hi = "next_run_hi_pct",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, next_run_delta), .of_baseline = 1},
	{.name = "next-run-cycles", .title = "cycles per iteration, range for the next run", .unit = "",
	 .json = "next_run_cycles", .json_ci = "next_run_range_cycles",
	 .change_as_difference = 0, .offset = offsetof(struct sb_cell, next_run_cycles)},
	/* The codegen cost's CI is this run's: whole runs move by more
	 * (results/amd-epyc-zen3-vm.md), which only the record shows. */
	{.name = "next-run-codegen", .title = "cycles vs baseline at identical layout, range for the next run",
	 .unit = "", .json = "next_run_codegen_cycles", .json_ci = "next_run_range_codegen_cycles",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, next_run_codegen), .of_baseline = 1},
	/* A kernel run's figures load by load (kernel_by_load.h): where its
	 * figures' spread comes from, and the placed twin paired by load. */
	{.name = "between-loads", .title = "cycles per iteration, the CI its loads' differing alone gives", .unit = "",
	 .json = "between_loads_cycles", .json_ci = "between_loads_ci95",
	 .change_as_difference = 0, .offset = offsetof(struct sb_cell, between_loads)},
	{.name = "within-loads", .title = "cycles per iteration, the CI its blocks within each load alone give",
	 .unit = "", .json = "within_loads_cycles", .json_ci = "within_loads_ci95",
	 .change_as_difference = 0, .offset = offsetof(struct sb_cell, within_loads)},
	{.name = "between-loads-added", .title = "cycles vs baseline, the CI its loads' differing alone gives",
	 .unit = "", .json = "between_loads_delta_cycles", .json_ci = "between_loads_delta_ci95",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, between_loads_added), .of_baseline = 1},
	{.name = "within-loads-added", .title = "cycles vs baseline, the CI its blocks within each load alone give",
	 .unit = "", .json = "within_loads_delta_cycles", .json_ci = "within_loads_delta_ci95",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, within_loads_added), .of_baseline = 1},
	{.name = "paired-vs-kernel", .title = "cycles vs baseline less the kernel's, paired by load", .unit = "",
	 .json = "paired_vs_kernel_cycles", .json_ci = "paired_vs_kernel_ci95",
	 .change_as_difference = 1, .offset = offsetof(struct sb_cell, paired_vs_kernel), .of_baseline = 1},
};
_Static_assert(sizeof(figures) / sizeof(figures[0]) <= SB_MAX_FIGURES, "SB_MAX_FIGURES holds every figure");
/* figures[SB_FIGURE_DELTA] is "delta" (checked by test_figures). */

size_t sb_figure_count(void)
{
	return sizeof(figures) / sizeof(figures[0]);
}

const struct sb_figure *sb_figure_at(size_t i)
{
	return i < sb_figure_count() ? &figures[i] : NULL;
}

int sb_figure_index(const char *name)
{
	for (size_t i = 0; name && i < sb_figure_count(); i++)
		if (strcmp(figures[i].name, name) == 0)
			return (int)i;
	return -1;
}

const struct sb_figure *sb_figure_find(const char *name)
{
	int i = sb_figure_index(name);
	return i < 0 ? NULL : &figures[i];
}

const struct sb_estimate *sb_figure_of(const struct sb_figure *f, const struct sb_cell *c)
{
	return (const struct sb_estimate *)((const char *)c + f->offset);
}

struct sb_estimate *sb_figure_in(const struct sb_figure *f, struct sb_cell *c)
{
	return (struct sb_estimate *)((char *)c + f->offset);
}

const char *sb_figure_names(void)
{
	static char names[256];
	if (!names[0])
		for (size_t i = 0; i < sb_figure_count(); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "",
				 figures[i].name);
	return names;
}
