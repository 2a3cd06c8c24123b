/* test_kernel_paired.c: the placed twin's added cost paired by load
 * (kernel_by_load.h, kernel_verdict.h) on kernel runs recorded with their
 * --blocks logs on the Intel Xeon 6/0xa7 VM (tests/data/kernel-by-load/,
 * described in tests/answer/kernel_by_load.py), cell by cell:
 *   - the paired figure is the mean over the loads both sides have of the
 *     placed twin's mean added cost less the kernel's, each the mean over
 *     the load's blocks of the variant less its baseline in the same
 *     block, computed here again from the log: equal to 1e-9;
 *   - its CI holds it and is narrower than the difference's from the two
 *     CIs over all loads (the loads' own spread falls out);
 *   - the driver twin (driver-1), per-run private at batch 512: from the
 *     two CIs inconclusive, paired by load agree;
 *   - the harness loop (harness-loop-3), per-run private at batch 4096:
 *     inconclusive from the two CIs, paired by load differ, the twin
 *     below the kernel by more than 5 cycles;
 *   - where the run has no log: no paired figure, the verdict unpaired.
 * usage: test_kernel_paired DATA_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "answer/answer.h"
#include "answer/kernel_from_blocks.h"
#include "answer/kernel_verdict.h"
#include "stats/block_table.h"
#include "stubbench/config.h"

/* run NAME's JSON and its log (gunzipped into a temporary file). */
static int load(const char *dir, const char *name, struct sb_run_file *rf, struct sb_block_table *t)
{
	char path[1024], cmd[2200], tmp[] = "/tmp/kernel_paired_XXXXXX", err[1024];
	snprintf(path, sizeof(path), "%s/kernel-by-load/%s.json", dir, name);
	if (sb_run_file_load(path, rf, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/kernel-by-load/%s.blocks.csv.gz' > '%s'", dir, name, tmp);
	int rc = system(cmd) == 0 && sb_block_table_read(tmp, t, err, sizeof(err)) == 0 ? 0 : -1;
	if (rc)
		fprintf(stderr, "%s: %s\n", name, err);
	unlink(tmp);
	return rc;
}

/* The mean over the loads both have of the placed twin's added cost less
 * the kernel's, each a load's mean over its blocks: by hand from t. */
static double paired_by_hand(const struct sb_block_table *t, const char *shape, const char *codegen, uint64_t batch)
{
	char arm[4][64];
	snprintf(arm[0], sizeof(arm[0]), "%s-%s", codegen, shape);
	snprintf(arm[1], sizeof(arm[1]), "baseline-%s", shape);
	snprintf(arm[2], sizeof(arm[2]), "%s-%s-twin@loads", codegen, shape);
	snprintf(arm[3], sizeof(arm[3]), "baseline-%s-twin@loads", shape);
	long id[4];
	for (int k = 0; k < 4; k++)
		id[k] = sb_block_table_arm(t, arm[k]);
	static double sum[2][SB_MAX_STATES];
	static size_t n[2][SB_MAX_STATES];
	memset(sum, 0, sizeof(sum));
	memset(n, 0, sizeof(n));
	/* Rows of one block are adjacent: its variant's and baseline's values. */
	for (size_t r = 0; r < t->n; r++) {
		const struct sb_block_value *v = &t->rows[r];
		if (v->batch != batch)
			continue;
		for (int side = 0; side < 2; side++)
			if ((long)v->arm == id[2 * side])
				for (size_t q = r - (r > 4 ? 4 : r); q < t->n && q <= r + 4; q++) {
					const struct sb_block_value *b = &t->rows[q];
					if ((long)b->arm == id[2 * side + 1] && b->part == v->part && b->block == v->block &&
					    b->process == v->process && b->batch == batch) {
						sum[side][v->state] += v->value - b->value;
						n[side][v->state]++;
					}
				}
	}
	double total = 0;
	size_t loads = 0;
	for (size_t s = 0; s < SB_MAX_STATES; s++)
		if (n[0][s] && n[1][s]) {
			total += sum[1][s] / (double)n[1][s] - sum[0][s] / (double)n[0][s];
			loads++;
		}
	return loads ? total / (double)loads : NAN;
}

/* The verdicts on the placed twin's added cost at one cell: from the two
 * CIs and paired by load, after the figures came from the log. */
static void verdicts_at(const struct sb_run_file *rf, const char *shape, const char *codegen, uint64_t batch,
			struct sb_verdict_of *unpaired, struct sb_verdict_of *paired, struct sb_estimate *pf)
{
	struct sb_estimate ka, kd, ta, td;
	sb_kernel_figures(rf, SB_SIDE_KERNEL, codegen, shape, batch, &ka, &kd);
	sb_kernel_figures(rf, SB_SIDE_PLACED_TWIN, codegen, shape, batch, &ta, &td);
	*pf = sb_kernel_paired_figure(rf, codegen, shape, batch);
	*unpaired = sb_kernel_verdict(&td, &kd);
	int was = 0;
	*paired = sb_kernel_added_verdict(&td, &kd, pf, &was);
	CHECK(was, "%s %s @%llu: not paired", shape, codegen, (unsigned long long)batch);
}

static double width(const struct sb_estimate *e)
{
	return e->hi - e->lo;
}

/* Run name judged from its log at (shape, codegen, batch): want_unpaired
 * from the two CIs, want_paired by load. */
static void cell(const char *dir, const char *name, uint64_t batch, enum sb_verdict want_unpaired,
		 enum sb_verdict want_paired, double *gap)
{
	struct sb_run_file rf;
	struct sb_block_table t = {0};
	CHECK(load(dir, name, &rf, &t) == 0, "%s: not loaded", name);
	if (check_failures)
		return;
	struct sb_estimate none = sb_kernel_paired_figure(&rf, "private", "per-run", batch);
	CHECK(!sb_estimate_known(&none), "%s: a paired figure before the log", name);
	FILE *devnull = fopen("/dev/null", "w");
	CHECK(sb_kernel_report_from_blocks(devnull, &rf, &t, name) == 0, "%s: no summary", name);
	fclose(devnull);
	struct sb_verdict_of u, p;
	struct sb_estimate pf;
	verdicts_at(&rf, "per-run", "private", batch, &u, &p, &pf);
	double hand = paired_by_hand(&t, "per-run", "private", batch);
	CHECK(fabs(pf.value - hand) <= 1e-9 * fmax(1, fabs(hand)), "%s: paired %g, by hand %g", name, pf.value, hand);
	CHECK(pf.lo <= pf.value && pf.value <= pf.hi && width(&pf) < width(&u.diff),
	      "%s: paired CI [%g, %g] of %g, unpaired [%g, %g]", name, pf.lo, pf.hi, pf.value, u.diff.lo, u.diff.hi);
	CHECK(u.verdict == want_unpaired && p.verdict == want_paired, "%s @%llu: unpaired %s, paired %s", name,
	      (unsigned long long)batch, sb_verdict_name(u.verdict), sb_verdict_name(p.verdict));
	*gap = pf.value;
	sb_block_table_free(&t);
	sb_run_file_free(&rf);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_kernel_paired DATA_DIR\n");
		return 2;
	}
	double gap;
	cell(argv[1], "driver-1", 512, SB_VERDICT_INCONCLUSIVE, SB_VERDICT_AGREE, &gap);
	cell(argv[1], "harness-loop-3", 4096, SB_VERDICT_INCONCLUSIVE, SB_VERDICT_DIFFER, &gap);
	CHECK(gap < -5, "harness-loop-3: the twin below the kernel by %g, not more than 5 cycles", -gap);
	return check_report("kernel_paired");
}
