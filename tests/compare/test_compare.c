/* test_compare.c: saved runs read back (main, --placements, kernel with
 * loads) and the change between two runs, on synthetic documents whose
 * answers are known. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare/compare.h"
#include "saved/run_file.h"

#define OK(cond) CHECK(cond, "%s", "")

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_compare DATA_DIR\n");
		return 2;
	}
	char pa[1024], pb[1024], pk[1024], err[1024];
	snprintf(pa, sizeof(pa), "%s/run_a.json", argv[1]);
	snprintf(pb, sizeof(pb), "%s/run_b.json", argv[1]);
	snprintf(pk, sizeof(pk), "%s/run_kernel.json", argv[1]);
	struct sb_run_file a, b, k;
	OK(sb_run_file_load(pa, &a, err, sizeof(err)) == 0);
	OK(sb_run_file_load(pb, &b, err, sizeof(err)) == 0);
	OK(sb_run_file_load(pk, &k, err, sizeof(err)) == 0);

	/* Metadata and rows; nulls are NAN. */
	OK(strcmp(a.tool, "stubbench") == 0 && strcmp(a.git, "0123456789ab") == 0);
	OK(strcmp(a.date, "2026-12-01T06:00:00Z") == 0 && strcmp(a.kernel, "Linux 6.18.0") == 0);
	OK(a.n_rows == 3 && a.n_spread == 0 && a.spread_kind == NULL);
	const struct sb_run_row *base = sb_run_file_find(&a, "baseline", 8);
	OK(base && near(base->cycles.value, 10) && near(base->cycles.lo, 9) && !base->figures[SB_FIGURE_DELTA].known &&
	   isnan(base->figures[SB_FIGURE_DELTA].value) && strcmp(base->figures[SB_FIGURE_DELTA].absent, "not in the file") == 0);
	const struct sb_run_row *hyb = sb_run_file_find(&a, "hybrid", 8);
	OK(hyb && near(hyb->figures[SB_FIGURE_DELTA].value, 5) && isnan(hyb->figures[SB_FIGURE_DELTA].lo) && isnan(hyb->cycles.hi));
	OK(sb_run_file_find(&a, "private", 64) == NULL);

	/* --placements: the copies, one row per variant over them, and the
	 * spread of the copies' deltas. */
	OK(b.n_rows == 6);
	const struct sb_run_row *bp = sb_run_file_find(&b, "private", 8);
	OK(bp && near(bp->figures[SB_FIGURE_DELTA].value, 25) && near(bp->figures[SB_FIGURE_DELTA].lo, 24) && isnan(bp->cycles.lo) &&
	   near(bp->cycles.value, 12.5));
	OK(b.spread_kind && strcmp(b.spread_kind, "placements") == 0 && b.n_spread == 1);
	OK(strcmp(b.spread[0].key.codegen, "private") == 0 && b.spread[0].key.placement == -1 && b.spread[0].k == 2);
	/* The keys read back: a copy's placement, the row over placements without one. */
	const struct sb_run_row *bp1 = sb_run_file_find(&b, "private@p1", 8);
	OK(bp1 && bp1->key.side == SB_SIDE_REPLICA && bp1->key.placement == 1 && strcmp(bp1->key.ret, "ret") == 0);
	OK(bp->key.side == SB_SIDE_REPLICA && bp->key.placement == -1 && strcmp(bp->key.shape, "per-run") == 0);
	OK(sb_run_file_spread_of(&b, bp) == &b.spread[0] && sb_run_file_spread_of(&b, bp1) == NULL);
	/* A run without keys (schema 2) matches by name; with keys, by key. */
	OK(a.rows[0].key.side == SB_SIDE_NONE && sb_run_file_match(&b, sb_run_file_find(&a, "private", 8)) == bp);
	struct sb_run_row renamed = *bp1;
	snprintf(renamed.variant, sizeof(renamed.variant), "another name");
	OK(sb_run_file_match(&b, &renamed) == bp1);
	renamed.key.placement = 0;
	OK(sb_run_file_match(&b, &renamed) == sb_run_file_find(&b, "private@p0", 8));
	OK(near(b.spread[0].min, 24) && near(b.spread[0].max, 26));

	/* Kernel: the flavour, and the steady states over the loads (modes). */
	OK(strcmp(k.thunk, "return thunk") == 0);
	const struct sb_run_row *kp = sb_run_file_find(&k, "private-per-run", 64);
	OK(kp && kp->key.side == SB_SIDE_KERNEL && strcmp(kp->key.codegen, "private") == 0 && !kp->key.flavour[0]);
	OK(kp && kp->n_modes == 3 && near(kp->mode_min, 21) && near(kp->mode_max, 25));
	OK(k.n_spread == 0 && sb_run_file_find(&k, "baseline-per-run", 64)->n_modes == 0);

	/* Delta metric: change in percentage points, CI sides in quadrature. */
	struct sb_change c;
	const struct sb_run_row *ap = sb_run_file_find(&a, "private", 8);
	OK(sb_compare_change(ap, bp, SB_METRIC_DELTA, &c) == 0);
	OK(near(c.change.value, 5) && near(c.change.lo, 5 - hypot(1, 3)) && near(c.change.hi, 5 + hypot(1, 3)));
	OK(c.overlap == 0); /* [17, 23] vs [24, 26] */
	/* Without a CI there is no change to report; baseline has no delta. */
	OK(sb_compare_change(hyb, hyb, SB_METRIC_DELTA, &c) == -1);
	OK(sb_compare_change(base, base, SB_METRIC_DELTA, &c) == -1);
	/* Cycles metric: B / A - 1 in %, relative half-widths in quadrature. */
	const struct sb_run_row *bb = sb_run_file_find(&b, "baseline@p0", 8);
	OK(sb_compare_change(base, bb, SB_METRIC_CYCLES, &c) == 0);
	OK(near(c.change.value, 0) && near(c.change.lo, -100 * hypot(0.05, 0.1)) &&
	   near(c.change.hi, 100 * hypot(0.05, 0.1)));
	OK(c.overlap == 1);
	enum sb_compare_metric m;
	OK(sb_compare_metric_parse("cycles", &m) == 0 && m == SB_METRIC_CYCLES);
	OK(sb_compare_metric_parse("nope", &m) == -1);

	/* The table: one compared row (private-8), flagged. */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	OK(sb_compare_write(f, &a, &b, SB_METRIC_DELTA) == 1);
	fclose(f);
	OK(strstr(text, "+5.00pp") && strstr(text, "1 of 1 compared rows differ"));
	OK(strstr(text, "# only in A: hybrid-8"));
	free(text);

	/* Bad files: one line naming the file. */
	sb_run_file_free(&a);
	OK(sb_run_file_load("/nonexistent/run.json", &a, err, sizeof(err)) == -1);
	OK(strstr(err, "/nonexistent/run.json: No such file"));
	sb_run_file_free(&b);
	sb_run_file_free(&k);
	return check_report("compare");
}
