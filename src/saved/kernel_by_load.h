/* kernel_by_load.h: a kernel run's figures load by load, from its kept
 * blocks (block_table.h: a live run's, collected while it measured, or its
 * --blocks log read back), whose state is the load: the kernel's arms run
 * load i's programs and the placed twins copies placed like load i
 * (docs/kernel-run.md). Two things the figures over all loads cannot say:
 *
 * - the placed twin against the kernel paired by load: per load, the
 *   placed twin's added cost (its variant less its baseline in the same
 *   block, the mean over the load's blocks) less the kernel's, then the
 *   mean over the loads both have, with the CI of
 *   sb_paired_between_placements (paired_placements.h): the loads resampled,
 *   each load's difference whole, widened for few loads. What sets a load's
 *   cost (its code's placement) is in both sides of its difference and
 *   falls out of it; the figures over all loads each carry it in their CI.
 * - where the kernel's figure's spread comes from (spread_split.h): its
 *   loads differing, or its blocks scattering within each load (the
 *   driver's own spread), for its cost per iteration and what it adds to
 *   its baseline. */
#ifndef STUBBENCH_KERNEL_BY_LOAD_H
#define STUBBENCH_KERNEL_BY_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "stats/block_table.h"
#include "stats/spread_split.h"
#include "stubbench/estimate.h"

/* The arms of one kernel cell at one batch size, by their names in the
 * blocks. */
struct sb_kernel_load_arms {
	uint64_t batch;
	const char *kernel;      /* the kernel's arm */
	const char *kernel_base; /* its baseline; NULL: kernel is the baseline */
	const char *placed;      /* the same variant's twin placed like the loads; NULL: none */
	const char *placed_base; /* that twin's baseline */
};

struct sb_kernel_by_load {
	/* The kernel's cost per iteration and (not the baseline) what it adds
	 * to its baseline, each split between loads and within them. */
	struct sb_spread_split absolute, added;
	/* The placed twin's added cost less the kernel's, paired by load,
	 * cycles per iteration, 95 % CI; absent (with the reason) for the
	 * baseline, without a placed twin, or with fewer than two loads that
	 * both have. */
	struct sb_estimate paired;
	size_t paired_loads;     /* the loads both have */
};

/* The seed of the bootstrap of kernel arm `kernel` at batch in a run
 * seeded with seed: the same live and from the run's log read back. */
uint64_t sb_kernel_by_load_seed(uint64_t seed, const char *kernel, uint64_t batch);

/* The figures of arms a from the blocks in t, the bootstrap seeded from
 * seed. Returns 0, or -1 out of memory. */
int sb_kernel_by_load(const struct sb_block_table *t, const struct sb_kernel_load_arms *a, uint64_t seed,
		      struct sb_kernel_by_load *out);

#endif
