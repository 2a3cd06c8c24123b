/* test_figures.c: every figure of the figure table (figures.h) reaches
 * every writer and reader: the table (its column and value), JSON (its
 * members, read back by run_file.c with the same value and CI), CSV (its
 * columns), compare (--metric=NAME, the change between two runs) and the
 * plot (--figure=NAME: its values in the plot's data). A figure added to
 * the table without its estimate set in cell_with_figures() fails here. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare/compare.h"
#include "output/figures.h"
#include "harness/harness.h"
#include "output/output.h"
#include "output/reporter.h"
#include "saved/run_file.h"
#include "plot/run_plot.h"

#define OK(cond) CHECK(cond, "%s", "")

static struct sb_arm arms[2] = {
	{.name = "baseline", .seed_name = "no-private-stack", .is_baseline = 1},
	{.name = "private", .seed_name = "private-stack"},
};

/* Figure k of the made-up private cell in run `run` (0 or 1). */
static double value_of(size_t k, int run)
{
	return 1.5 + (double)k + 0.25 * run;
}

/* Every estimate a figure of the table reads, set to value_of() of its
 * index in the table (the table's order). */
static void cell_with_figures(struct sb_cell *c, int run)
{
	struct sb_estimate *set[] = {&c->delta_pct,	 &c->matched_cycles,   &c->layout_cycles,
				     &c->codegen_median, &c->codegen_two_state_pct, &c->codegen_mean,
				     &c->vs_reference_cycles,
				     &c->delta_cycles,	 &c->next_run_delta,   &c->next_run_cycles,
				     &c->next_run_codegen, &c->between_loads, &c->within_loads,
				     &c->between_loads_added, &c->within_loads_added, &c->paired_vs_kernel};
	for (size_t k = 0; k < sizeof(set) / sizeof(set[0]); k++)
		*set[k] = sb_estimate_of(value_of(k, run), value_of(k, run) - 0.5, value_of(k, run) + 0.5);
}

static void results(struct sb_results *r, struct sb_cell cells[2], int run)
{
	memset(r, 0, sizeof(*r));
	memset(cells, 0, 2 * sizeof(*cells));
	for (int a = 0; a < 2; a++) {
		struct sb_cell *c = &cells[a];
		c->arm = &arms[a];
		c->batch = 64;
		c->n_samples = 100;
		c->cycles = (struct sb_summary){.n = 100, .mean = 20 + a, .median = 20 + a, .ci_lo = 19 + a,
						.ci_hi = 21 + a, .sd = 1};
		c->ns = c->cycles;
		c->delta_pct = c->matched_cycles = c->layout_cycles = c->codegen_median = c->codegen_two_state_pct =
			c->vs_reference_cycles =
			c->delta_cycles = c->next_run_delta = c->next_run_cycles = c->next_run_codegen =
			c->between_loads_added = c->within_loads_added = c->paired_vs_kernel =
				sb_estimate_absent("the baseline itself");
		if (a == 1)
			cell_with_figures(c, run);
	}
	r->cells = cells;
	r->n_cells = 2;
	r->n_batches = 1;
	snprintf(r->cpu_desc, sizeof(r->cpu_desc), "made-up CPU");
}

static char *output(const struct sb_results *r, const char *format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sb_output_meta meta = {.tool = "stubbench", .version = "test", .seed = 1};
	sb_output_write(f, sb_reporter_for(format), r, &meta);
	fclose(f);
	return text;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/test_figures.XXXXXX";
	OK(mkdtemp(dir) != NULL);
	OK(sb_figure_count() > 0 && sb_figure_count() <= SB_MAX_FIGURES);
	OK(strcmp(sb_figure_at(SB_FIGURE_DELTA)->name, "delta") == 0);
	OK(strcmp(sb_figure_at(SB_FIGURE_CODEGEN)->name, "codegen") == 0);
	struct sb_cell cells[2][2];
	struct sb_results r[2];
	char path[2][256], err[512];
	for (int run = 0; run < 2; run++) {
		results(&r[run], cells[run], run);
		char *json = output(&r[run], "json");
		snprintf(path[run], sizeof(path[run]), "%s/run%d.json", dir, run);
		write_file(path[run], json);
		free(json);
	}
	struct sb_run_file a, b;
	OK(sb_run_file_load(path[0], &a, err, sizeof(err)) == 0);
	OK(sb_run_file_load(path[1], &b, err, sizeof(err)) == 0);
	const struct sb_run_row *ra = sb_run_file_find(&a, "private", 64), *rb = sb_run_file_find(&b, "private", 64);
	OK(ra && rb);
	char *table = output(&r[0], "table"), *csv = output(&r[0], "csv");
	for (size_t k = 0; k < sb_figure_count() && ra && rb; k++) {
		const struct sb_figure *fig = sb_figure_at(k);
		char want[64];
		/* A name and every member a writer needs. */
		CHECK(fig->name && fig->title && fig->unit && fig->json && fig->json_ci && fig->offset, "%s", fig->name);
		CHECK(sb_figure_find(fig->name) == fig && sb_figure_index(fig->name) == (int)k, "%s", fig->name);
		CHECK(sb_estimate_known(&ra->figures[k]), "%s: not set in cell_with_figures()", fig->name);
		/* JSON, read back. */
		CHECK(fabs(ra->figures[k].value - value_of(k, 0)) < 1e-9 &&
			      fabs(ra->figures[k].lo - (value_of(k, 0) - 0.5)) < 1e-9 &&
			      fabs(ra->figures[k].hi - (value_of(k, 0) + 0.5)) < 1e-9,
		      "%s: JSON read back %g [%g, %g]", fig->name, ra->figures[k].value, ra->figures[k].lo,
		      ra->figures[k].hi);
		/* The table: its column and value. */
		snprintf(want, sizeof(want), "%+.2f%s", value_of(k, 0), fig->unit);
		if (fig->column)
			CHECK(strstr(table, fig->column) && strstr(table, want), "%s: table lacks '%s'", fig->name, want);
		/* CSV: its columns in the header, its value in the row. */
		if (fig->csv) {
			snprintf(want, sizeof(want), ",%s,%s,%s,", fig->csv, fig->csv_lo, fig->csv_hi);
			CHECK(strstr(csv, want) != NULL, "%s: CSV header lacks %s", fig->name, want);
			snprintf(want, sizeof(want), ",%.4f,%.4f,%.4f,", value_of(k, 0), value_of(k, 0) - 0.5,
				 value_of(k, 0) + 0.5);
			CHECK(strstr(csv, want) != NULL, "%s: CSV row lacks %s", fig->name, want);
		}
		/* compare --metric=NAME: the change from run 0 to run 1. */
		enum sb_compare_metric m;
		struct sb_change ch;
		CHECK(sb_compare_metric_parse(fig->name, &m) == 0 && (int)m == (int)k, "%s", fig->name);
		CHECK(sb_compare_change(ra, rb, m, &ch) == 0, "%s: no change", fig->name);
		double expect = fig->change_as_difference ? 0.25 : (value_of(k, 1) / value_of(k, 0) - 1) * 100;
		CHECK(fabs(ch.change.value - expect) < 1e-9, "%s: change %g, want %g", fig->name, ch.change.value,
		      expect);
		/* plot --figure=NAME: its values in the data (gnuplot or not). */
		char image[300], dat[320];
		snprintf(image, sizeof(image), "%s/fig%zu.svg", dir, k);
		snprintf(dat, sizeof(dat), "%s/fig%zu.dat", dir, k);
		sb_run_plot(&a, image, (int)k, err, sizeof(err));
		FILE *f = fopen(dat, "r");
		char line[512];
		int found = 0;
		snprintf(want, sizeof(want), "64 %g %g %g", value_of(k, 0), value_of(k, 0) - 0.5, value_of(k, 0) + 0.5);
		while (f && fgets(line, sizeof(line), f))
			found |= strncmp(line, want, strlen(want)) == 0;
		if (f)
			fclose(f);
		CHECK(found, "%s: the plot's data %s lack '%s' (%s)", fig->name, dat, want, err);
	}
	free(table);
	free(csv);
	sb_run_file_free(&a);
	sb_run_file_free(&b);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (getenv("KEEP") == NULL && system(cmd) != 0)
		fprintf(stderr, "test_figures: could not remove %s\n", dir);
	return check_report("test_figures");
}
