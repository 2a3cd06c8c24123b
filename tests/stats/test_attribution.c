/* test_attribution: the attribution's figures on synthetic blocks whose
 * costs are known (placements with their own level, shared by every arm):
 * total, each part, layout and interaction exactly, the lines reconciled;
 * blocks without every arm left out; a missing arm and too few blocks fail. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "stats/attribution.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	struct sb_block_table t = {0};
	/* baseline 10 + level; layout +1; part 1 +2, part 2 +0.5; +0.25 only together. */
	for (size_t place = 0; place < 8; place++)
		for (size_t blk = 0; blk < 4; blk++) {
			double lv = (double)(place % 3), b = 10 + lv, l = b + 1, v = l + 2 + 0.5 + 0.25;
			size_t id = place * 4 + blk;
			sb_block_table_add(&t, 512, 0, blk % 2, id, place, "v", v);
			sb_block_table_add(&t, 512, 0, blk % 2, id, place, "b", b);
			sb_block_table_add(&t, 512, 0, blk % 2, id, place, "v:nop:1", v - 2);
			sb_block_table_add(&t, 512, 0, blk % 2, id, place, "v:nop:2", v - 0.5);
			sb_block_table_add(&t, 512, 0, blk % 2, id, place, "v:del:1", v - 2.5);
			sb_block_table_add(&t, 512, 0, blk % 2, id, place, "v:nop:all", l);
		}
	/* A block without the baseline: left out. */
	sb_block_table_add(&t, 512, 0, 0, 99, 0, "v", 1000);
	struct sb_attribution_arms arms = {.variant = "v", .baseline = "b", .layout = "v:nop:all", .n_parts = 2,
					   .nop = {"v:nop:1", "v:nop:2"}, .removed = {"v:del:1", NULL}};
	struct sb_attribution a;
	char err[256] = "";
	int rc = sb_attribution_compute(&t, &arms, 512, 200, 1, &a, err, sizeof(err));
	CHECK(rc == 0, "%s", err);
	CHECK(a.n_blocks == 32 && a.n_placements == 8 && a.n_processes == 2, "%zu blocks %zu placements %zu processes",
	      a.n_blocks, a.n_placements, a.n_processes);
	CHECK(near(a.total.value, 3.75), "total %g", a.total.value);
	CHECK(near(a.nop[0].value, 2) && near(a.nop[1].value, 0.5), "parts %g %g", a.nop[0].value, a.nop[1].value);
	CHECK(near(a.removed[0].value, 2.5) && !sb_estimate_known(&a.removed[1]), "removed %g", a.removed[0].value);
	CHECK(near(a.layout.value, 1), "layout %g", a.layout.value);
	CHECK(near(a.interaction.value, 0.25), "interaction %g", a.interaction.value);
	CHECK(near(a.sum_parts, 2.5), "sum %g", a.sum_parts);
	CHECK(a.reconciles && !a.parts_explain, "reconciles %d explain %d", a.reconciles, a.parts_explain);
	uint64_t batches[4];
	CHECK(sb_attribution_batches(&t, batches, 4) == 1 && batches[0] == 512, "%s", "batches");
	/* Errors: an arm the table lacks; a batch without blocks. */
	arms.nop[1] = "nowhere";
	CHECK(sb_attribution_compute(&t, &arms, 512, 200, 1, &a, err, sizeof(err)) == -1, "%s", "missing arm");
	CHECK(sb_attribution_compute(&t, &arms, 512, 200, 1, &a, err, sizeof(err)) == -1 &&
	      err[0] && strstr(err, "nowhere"), "%s", err);
	arms.nop[1] = "v:nop:2";
	CHECK(sb_attribution_compute(&t, &arms, 64, 200, 1, &a, err, sizeof(err)) == -1, "%s", "no batch 64");
	sb_block_table_free(&t);
	return check_report("attribution");
}
