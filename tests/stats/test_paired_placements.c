/* The codegen estimator (sb_paired_over_placements) on synthetic lattices,
 * as the Zen 4 VM's states lie (two levels x a slow state 3 cycles up):
 * - states that the placement selects for both arms: one answer, the
 *   codegen cost, whatever the share of each state, on either side of any
 *   threshold (here the variant's lowest state holds 11-45 % of the blocks,
 *   across the 25 % the old matching rule cut at);
 * - a slow state that only the variant takes at some placements: the
 *   answer moves with that share as the mean does (1 + 3 x share), by a
 *   fraction of a state, never by a whole one;
 * - the CI covers the codegen cost in at least 90 % of seeded datasets, and
 *   a process effect widens it;
 * - no blocks: no figure; no placements given: each block its own;
 * - codegen + layout against vs base: the stderr line names the cell whose
 *   sum's CI misses vs base's, and only it;
 * - the arms in groups of their own (sb_paired_between_placements): the
 *   same lattice with each arm's blocks apart (blocks of their own at the
 *   same placements, in the same processes, and a slow state that a
 *   process takes for both arms) gives the one answer whichever state is
 *   more common, the per-cell means match a hand count, a placement or
 *   process only one arm ran is left out, and the CI covers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness/harness.h"
#include "output/output.h"
#include "stats/paired_placements.h"
#include "stubbench/results.h"
#include "base/rng.h"

#define G 400          /* placements */
#define MAX_BLOCKS (6 * G) /* lattice_apart: up to 2 processes x 3 blocks a placement */
#define N_PROC 16
#define CODEGEN 1.0

static double uniform(struct sb_rng *r)
{
	return (double)(sb_rng_next(r) >> 11) / 9007199254740992.0;
}

struct data {
	double a[MAX_BLOCKS], b[MAX_BLOCKS];
	size_t place[MAX_BLOCKS], proc[MAX_BLOCKS];
	size_t n;
	double lowest_share; /* the variant's blocks in its lowest state */
	double only_share;   /* placements where only the variant is slow */
};

/* A lattice: placement j is at level 15 or 16 (share q at 15) and slow (+3)
 * with share s, for both arms; with share o the variant alone is slow
 * too. 1-3 blocks a placement, each from a random process, noise +-0.02
 * and a process offset of proc_effect x (p / N_PROC - 0.5) on the variant. */
static void lattice(struct data *d, double q, double s, double o, double proc_effect, uint64_t seed)
{
	struct sb_rng r;
	sb_rng_seed(&r, seed);
	d->n = 0;
	size_t lowest = 0, only = 0;
	for (size_t j = 0; j < G; j++) {
		double level = uniform(&r) < q ? 15 : 16;
		double slow = uniform(&r) < s ? 3 : 0;
		int variant_only = uniform(&r) < o;
		only += variant_only;
		size_t nb = 1 + (size_t)sb_rng_below(&r, 3);
		for (size_t k = 0; k < nb; k++) {
			size_t p = (size_t)sb_rng_below(&r, N_PROC);
			double base = level + slow;
			d->b[d->n] = base + 0.04 * (uniform(&r) - 0.5);
			d->a[d->n] = base + CODEGEN + (variant_only && !slow ? 3 : 0) + 0.04 * (uniform(&r) - 0.5) +
				     proc_effect * ((double)p / N_PROC - 0.5);
			lowest += level == 15 && !slow && !variant_only;
			d->place[d->n] = j;
			d->proc[d->n] = p;
			d->n++;
		}
	}
	d->lowest_share = (double)lowest / (double)d->n;
	d->only_share = (double)only / G;
}

static void shared_states_one_answer(void)
{
	static const double qs[] = {0.15, 0.3, 0.6}, ss[] = {0.2, 0.24, 0.26, 0.3, 0.6, 0.8};
	static struct data d;
	double lo_share = 1, hi_share = 0;
	for (size_t i = 0; i < 3; i++)
		for (size_t k = 0; k < 6; k++) {
			lattice(&d, qs[i], ss[k], 0, 0, 100 + i * 10 + k);
			lo_share = fmin(lo_share, d.lowest_share);
			hi_share = fmax(hi_share, d.lowest_share);
			struct sb_paired p;
			CHECK(sb_paired_over_placements(d.a, d.b, d.place, d.proc, d.n, 400, 7, &p) == 0, "no estimate");
			CHECK(fabs(p.mean.value - CODEGEN) < 0.01 && fabs(p.median.value - CODEGEN) < 0.02,
			      "q %.2f s %.2f: mean %+.3f median %+.3f, not %+.1f", qs[i], ss[k], p.mean.value,
			      p.median.value, CODEGEN);
			CHECK(p.mean.lo <= CODEGEN && p.mean.hi >= CODEGEN && p.mean.hi - p.mean.lo < 0.05,
			      "q %.2f s %.2f: CI [%+.3f, %+.3f]", qs[i], ss[k], p.mean.lo, p.mean.hi);
			CHECK(p.n_modes == 1 && fabs(p.modes[0].cycles - CODEGEN) < 0.02, "%zu modes", p.n_modes);
			CHECK(p.n_placements == G && p.n_processes == N_PROC, "%zu placements, %zu processes",
			      p.n_placements, p.n_processes);
		}
	CHECK(lo_share < 0.2 && hi_share > 0.3, "the lowest state's share %.2f-%.2f does not cross 25 %%", lo_share,
	      hi_share);
}

static void variant_only_state_moves_smoothly(void)
{
	static struct data d;
	double last = NAN;
	for (int k = 0; k <= 10; k++) {
		double o = 0.15 + 0.02 * k; /* 15-35 %, across 25 % */
		lattice(&d, 0.3, 0, o, 0, 300 + (uint64_t)k);
		struct sb_paired p;
		sb_paired_over_placements(d.a, d.b, d.place, d.proc, d.n, 200, 9, &p);
		double want = CODEGEN + 3 * d.only_share;
		CHECK(fabs(p.mean.value - want) < 0.01, "o %.2f: mean %+.3f, the shares say %+.3f", o, p.mean.value,
		      want);
		CHECK(p.n_modes == 2 && fabs(p.modes[0].cycles - CODEGEN) < 0.05 && fabs(p.modes[1].cycles - 4) < 0.05 &&
			      fabs(p.modes[1].share - d.only_share) < 1e-9,
		      "o %.2f: %zu modes", o, p.n_modes);
		/* 2 % more placements in the slow state: 0.06 more on average;
		 * the draws add at most a few hundredths either way. */
		if (!isnan(last))
			CHECK(fabs(p.mean.value - last) < 0.25, "o %.2f: moved %+.3f from the last share", o,
			      p.mean.value - last);
		last = p.mean.value;
	}
}

static void coverage_and_processes(void)
{
	static struct data d;
	size_t covered = 0, runs = 100;
	for (size_t i = 0; i < runs; i++) {
		lattice(&d, 0.3, 0.3, 0, 0, 1000 + i);
		struct sb_paired p;
		sb_paired_over_placements(d.a, d.b, d.place, d.proc, d.n, 200, 11 + i, &p);
		/* The noise's mean is 0: the population's codegen cost is CODEGEN. */
		covered += p.mean.lo <= CODEGEN && p.mean.hi >= CODEGEN;
	}
	CHECK(covered >= 90, "the CI covered %zu of %zu", covered, runs);
	printf("the CI covered the codegen cost in %zu of %zu datasets\n", covered, runs);
	/* A process offset of +-0.5 on the variant: the CI with the processes
	 * is wider than one over placements alone. */
	lattice(&d, 0.3, 0.3, 0, 1.0, 77);
	struct sb_paired with, without;
	sb_paired_over_placements(d.a, d.b, d.place, d.proc, d.n, 400, 13, &with);
	sb_paired_over_placements(d.a, d.b, d.place, NULL, d.n, 400, 13, &without);
	CHECK(with.mean.hi - with.mean.lo > 1.2 * (without.mean.hi - without.mean.lo),
	      "with processes [%+.3f, %+.3f], without [%+.3f, %+.3f]", with.mean.lo, with.mean.hi, without.mean.lo,
	      without.mean.hi);
	CHECK(without.n_processes == 1 && with.n_processes == N_PROC, "processes %zu, %zu", without.n_processes,
	      with.n_processes);
}

static void edges(void)
{
	double a[3] = {2, 3, 4}, b[3] = {1, 1, 1};
	struct sb_paired p;
	CHECK(sb_paired_over_placements(a, b, NULL, NULL, 0, 100, 1, &p) == -1 && !p.mean.known, "no blocks");
	CHECK(sb_paired_over_placements(a, b, NULL, NULL, 3, 100, 1, &p) == 0 && p.n_placements == 3 &&
		      fabs(p.mean.value - 2) < 1e-12 && fabs(p.median.value - 2) < 1e-12 && p.mean.lo < p.mean.hi,
	      "each block its own placement: %zu, mean %g", p.n_placements, p.mean.value);
	/* Two blocks at placement 0 (from two processes: each process cell
	 * weighs the same), one at placement 1: (1.5 + 3) / 2. */
	size_t place[3] = {0, 0, 1}, proc[3] = {0, 1, 0};
	CHECK(sb_paired_over_placements(a, b, place, proc, 3, 100, 1, &p) == 0 && fabs(p.mean.value - 2.25) < 1e-12,
	      "placement means: %g", p.mean.value);
	size_t one[3] = {5, 5, 5};
	CHECK(sb_paired_over_placements(a, b, one, NULL, 3, 100, 1, &p) == 0 && p.n_placements == 1 &&
		      isnan(p.mean.lo), "one placement: no CI (%g)", p.mean.lo);
}

static void costs_add_up(void)
{
	struct sb_arm arm = {.name = "private"};
	struct sb_cell cells[2] = {{.arm = &arm, .batch = 512}, {.arm = &arm, .batch = 4096}};
	for (int i = 0; i < 2; i++) {
		cells[i].matched_cycles = sb_estimate_of(0.0, -0.05, 0.05);
		cells[i].layout_cycles = sb_estimate_of(1.8, 1.6, 2.0);
	}
	cells[0].delta_cycles = sb_estimate_of(1.85, 1.7, 2.0);  /* adds up */
	cells[1].delta_cycles = sb_estimate_of(3.0, 2.8, 3.2);   /* 1.8 [1.59, 2.01] misses it */
	CHECK(!sb_cell_costs_disagree(&cells[0]) && sb_cell_costs_disagree(&cells[1]), "disagree %d %d",
	      sb_cell_costs_disagree(&cells[0]), sb_cell_costs_disagree(&cells[1]));
	struct sb_results r = {.cells = cells, .n_cells = 2, .n_batches = 2};
	char line[512] = "";
	FILE *f = fmemopen(line, sizeof(line), "w");
	int said = sb_output_codegen_check_line(f, "stubbench", &r);
	fclose(f);
	/* What it means and what to do, in one line within 100 columns: from
	 * other placements where the loop kept one state, ... */
	CHECK(said && !strcmp(line, "stubbench: codegen + layout != vs base: measured at other placements; quote codegen, "
				    "more --time\n"),
	      "line '%s'", line);
	/* ... a mix of loop states where it took more than one. */
	cells[1].n_modes = 2;
	line[0] = 0;
	f = fmemopen(line, sizeof(line), "w");
	said = sb_output_codegen_check_line(f, "stubbench lab", &r);
	fclose(f);
	CHECK(said && !strcmp(line, "stubbench lab: codegen + layout != vs base: a mix of loop states; quote codegen; "
				    "--time=N for more\n"),
	      "line '%s'", line);
	/* The table's notes mark the cell. */
	char notes[2048] = "";
	f = fmemopen(notes, sizeof(notes), "w");
	sb_output_codegen_note(f, &r);
	fclose(f);
	const char *at512 = strstr(notes, "private@512:"), *at4096 = strstr(notes, "private@4096:");
	const char *mark = strstr(notes, "(does not add up)");
	CHECK(at512 && at4096 && at512 < at4096 && mark > at4096 && !strstr(mark + 1, "(does not add up)"),
	      "notes '%s'", notes);
	cells[1].delta_cycles = cells[0].delta_cycles;
	line[0] = 0;
	f = fmemopen(line, sizeof(line), "w");
	said = sb_output_codegen_check_line(f, "stubbench", &r);
	fclose(f);
	CHECK(!said && line[0] == 0, "said '%s' where they add up", line);
}

/* The lattice with the arms apart: at each placement two processes, and
 * in each the variant's and the baseline's blocks drawn on their own (1-3
 * each, own noise); the placement's state shared, and a slow state (+3)
 * that a process takes at a placement for both arms. */
static void lattice_apart(struct data *a, struct data *b, double q, double s, uint64_t seed)
{
	struct sb_rng r;
	sb_rng_seed(&r, seed);
	a->n = b->n = 0;
	for (size_t j = 0; j < G; j++) {
		double state = (uniform(&r) < q ? 15 : 16) + (uniform(&r) < s ? 3 : 0);
		size_t p0 = (size_t)sb_rng_below(&r, N_PROC);
		for (size_t t = 0; t < 2; t++) {
			size_t proc = (p0 + t * 5) % N_PROC;
			double slow = uniform(&r) < 0.3 ? 3 : 0;
			for (int arm = 0; arm < 2; arm++) {
				struct data *d = arm ? b : a;
				size_t nb = 1 + (size_t)sb_rng_below(&r, 3);
				for (size_t k = 0; k < nb; k++) {
					d->a[d->n] = state + slow + (arm ? 0 : CODEGEN) + 0.04 * (uniform(&r) - 0.5);
					d->place[d->n] = j;
					d->proc[d->n++] = proc;
				}
			}
		}
	}
}

static struct sb_arm_blocks arm_blocks(const struct data *d, int with_proc)
{
	return (struct sb_arm_blocks){.value = d->a, .placement = d->place, .process = with_proc ? d->proc : NULL,
				      .n = d->n};
}

static void apart_one_answer(void)
{
	static struct data a, b;
	static const double qs[] = {0.15, 0.6}, ss[] = {0.2, 0.26, 0.6};
	size_t covered = 0, n = 0;
	for (size_t i = 0; i < 2; i++)
		for (size_t k = 0; k < 3; k++) {
			lattice_apart(&a, &b, qs[i], ss[k], 500 + i * 10 + k);
			struct sb_arm_blocks ba = arm_blocks(&a, 1), bb = arm_blocks(&b, 1);
			struct sb_paired p;
			CHECK(sb_paired_between_placements(&ba, &bb, 400, 21, &p) == 0 && p.mean.known, "no estimate");
			CHECK(fabs(p.mean.value - CODEGEN) < 0.01 && p.n_placements == G && p.n_processes == N_PROC,
			      "apart, q %.2f s %.2f: mean %+.3f over %zu placements, %zu processes", qs[i], ss[k],
			      p.mean.value, p.n_placements, p.n_processes);
			CHECK(p.n_modes == 1 && fabs(p.modes[0].cycles - CODEGEN) < 0.02, "apart: %zu modes", p.n_modes);
			covered += p.mean.lo <= CODEGEN && p.mean.hi >= CODEGEN && p.mean.hi - p.mean.lo < 0.05;
			n++;
		}
	CHECK(covered == n, "apart: the CI covered %zu of %zu", covered, n);
}

static void apart_edges(void)
{
	/* a: placement 0 blocks 2 (process 0) and 4 (process 1), placement 1
	 * block 10, placement 7 (b has none) block 99; b: placement 0 blocks
	 * 1, 1 (process 0), placement 1 block 4. Cells in both: (0, 0) 2 - 1,
	 * (1, 0) 10 - 4; (0, 1) is a's alone. Mean over placements 3.5. */
	double av[4] = {2, 4, 10, 99}, bv[3] = {1, 1, 4};
	size_t apl[4] = {0, 0, 1, 7}, apr[4] = {0, 1, 0, 0}, bpl[3] = {0, 0, 1}, bpr[3] = {0, 0, 0};
	struct sb_arm_blocks a = {.value = av, .placement = apl, .process = apr, .n = 4},
			     b = {.value = bv, .placement = bpl, .process = bpr, .n = 3};
	struct sb_paired p;
	CHECK(sb_paired_between_placements(&a, &b, 100, 1, &p) == 0 && fabs(p.mean.value - 3.5) < 1e-12 &&
		      p.n_placements == 2 && fabs(p.median.value - 3.5) < 1e-12,
	      "apart: mean %g over %zu placements", p.mean.value, p.n_placements);
	size_t bother[3] = {3, 3, 4}; /* no placement in both */
	b.placement = bother;
	CHECK(sb_paired_between_placements(&a, &b, 100, 1, &p) == 0 && !p.mean.known, "apart: none shared");
	size_t bproc[3] = {5, 5, 5}; /* the placements, but not their processes */
	b.placement = bpl, b.process = bproc;
	CHECK(sb_paired_between_placements(&a, &b, 100, 1, &p) == 0 && !p.mean.known, "apart: no process shared");
	b.process = bpr;
	b.n = 0;
	CHECK(sb_paired_between_placements(&a, &b, 100, 1, &p) == -1 && !p.mean.known, "apart: no blocks");
	/* One placement for all (NULL): cells by process. a: process 0
	 * (2 + 10 + 99) / 3 = 37, process 1 4; b: process 0 1, process 1
	 * (1 + 4) / 2. Cells 36 and 1.5: mean 18.75, each cell a placement
	 * of its own, and they resample. */
	size_t bpr2[3] = {0, 1, 1};
	a.placement = b.placement = NULL, b.n = 3, b.process = bpr2;
	CHECK(sb_paired_between_placements(&a, &b, 100, 1, &p) == 0 && p.n_placements == 2 &&
		      fabs(p.mean.value - 18.75) < 1e-12 && p.mean.lo < p.mean.hi,
	      "apart, one placement: %g [%g, %g]", p.mean.value, p.mean.lo, p.mean.hi);
	/* One cell in both: a figure, but no spread to give it a CI. */
	size_t bpr3[3] = {0, 0, 0};
	b.process = bpr3;
	a.process = bpr3, a.n = 3;
	CHECK(sb_paired_between_placements(&a, &b, 100, 1, &p) == 0 && !p.mean.known, "apart: one cell");
}

int main(void)
{
	apart_one_answer();
	apart_edges();
	costs_add_up();
	shared_states_one_answer();
	variant_only_state_moves_smoothly();
	coverage_and_processes();
	edges();
	return check_report("paired_placements");
}
