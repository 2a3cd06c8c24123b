/* The figures held back or explained before printing (figure_checks.h), on
 * made-up cells: one kept sample has no figure; a CI that is not finite
 * has none; a mean below zero after the overhead is "below the subtracted
 * overhead", and the deltas against such a baseline go too; a delta with
 * no finite CI is absent; a delta of 1000 % or more gets its line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/figure_checks.h"
#include "harness/harness.h"

static void cell(struct sb_cell *c, const struct sb_arm *arm, uint64_t batch, size_t n, double mean, double lo,
		 double hi)
{
	memset(c, 0, sizeof(*c));
	c->arm = arm;
	c->batch = batch;
	c->n_samples = n;
	c->cycles.n = n;
	c->cycles.mean = mean;
	c->cycles.ci_lo = lo;
	c->cycles.ci_hi = hi;
	c->overhead_cycles = 90;
}

int main(void)
{
	struct sb_arm base = {.name = "baseline", .is_baseline = 1}, priv = {.name = "private"};
	struct sb_cell cells[6];
	struct sb_results r = {.cells = cells, .n_cells = 6, .n_batches = 3};
	cell(&cells[0], &base, 1, 1, 10, NAN, NAN);        /* one sample */
	cell(&cells[1], &priv, 1, 1, 12, NAN, NAN);
	cells[1].delta_pct = sb_estimate_of(20, NAN, NAN);
	cell(&cells[2], &base, 8, 40, -3.72, -4, -3.4);    /* below the overhead */
	cell(&cells[3], &priv, 8, 40, 5, 4.5, 5.5);
	cells[3].delta_pct = sb_estimate_of(-234, -250, -220);
	cell(&cells[4], &base, 64, 40, 0.02, 0.01, 0.03);  /* near zero: a huge delta */
	cell(&cells[5], &priv, 64, 40, 12.86, 12.5, 13.2);
	cells[5].delta_pct = sb_estimate_of(64200, 60000, 68000);
	cells[5].matched_cycles = sb_estimate_of(12.8, NAN, 13); /* no finite CI */

	CHECK(sb_figure_checks(&r) == 3, "cells that lost their figure");
	CHECK(strcmp(cells[0].no_samples, "1 kept sample: too few for a 95 % CI") == 0, "%s", cells[0].no_samples);
	CHECK(!sb_estimate_known(&cells[1].delta_pct), "a delta of a cell without a figure");
	struct sb_estimate cyc = sb_cell_cycles(&cells[2]);
	CHECK(!sb_estimate_known(&cyc) && strstr(cyc.absent, "below the subtracted overhead (-3.72 cycles"),
	      "%s", cyc.absent ? cyc.absent : "(known)");
	CHECK(cells[2].below_overhead && !cells[0].below_overhead, "below the overhead flagged");
	CHECK(!cells[3].no_samples[0], "private at 8 keeps its cycles");
	CHECK(!sb_estimate_known(&cells[3].delta_pct) && strstr(cells[3].delta_pct.absent, "baseline has no figure"),
	      "a delta against a baseline below the overhead");
	CHECK(sb_estimate_known(&cells[5].delta_pct), "the large delta is kept");
	CHECK(!sb_estimate_known(&cells[5].matched_cycles), "a figure without a finite CI is absent");
	CHECK(sb_figure_checks(&r) == 0, "a second pass changes nothing");

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	sb_figure_large_lines(f, "stubbench", &r);
	fclose(f);
	CHECK(text && strstr(text, "stubbench: private at batch 64: +64200 % vs the baseline") &&
	      strstr(text, "a baseline of 0.02 cycles an iteration after 90.00 of overhead subtracted"), "%s", text);
	CHECK(text && !strchr(strchr(text, '\n') + 1, '\n'), "one line: %s", text);
	free(text);

	/* A cost whose CI reaches below zero after the overhead: flagged. */
	struct sb_cell low[2];
	struct sb_results rl = {.cells = low, .n_cells = 2, .n_batches = 1};
	cell(&low[0], &base, 8, 40, 0.8, -0.6, 2.2);
	cell(&low[1], &priv, 8, 40, 5, 4.5, 5.5);
	CHECK(sb_figure_checks(&rl) == 0, "a mean above zero keeps its figure");
	text = NULL;
	f = open_memstream(&text, &len);
	CHECK(sb_figure_below_zero_lines(f, "stubbench", &rl) == 1, "one cost below zero");
	fclose(f);
	CHECK(text && strstr(text, "stubbench: baseline at batch 8: 0.80 [-0.60, 2.20] cycles an iteration after 90.00 "
				   "of overhead subtracted: the CI reaches below zero") && !strstr(text, "private"),
	      "%s", text ? text : "");
	free(text);
	return check_report("figure_checks");
}
