/* rng.h: a small seedable generator (xoshiro256**, seeded by splitmix64) for
 * random delays and the bootstrap, so that --seed reproduces a run's choices. */
#ifndef STUBBENCH_RNG_H
#define STUBBENCH_RNG_H

#include <stdint.h>

struct sb_rng {
	uint64_t s[4];
};

void sb_rng_seed(struct sb_rng *r, uint64_t seed);
uint64_t sb_rng_next(struct sb_rng *r);
/* Uniform in [0, n) (n > 0). */
uint64_t sb_rng_below(struct sb_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double sb_rng_unit(struct sb_rng *r);

/* The independent streams of choices a run makes, each seeded from --seed
 * by sb_seed_stream: the one way a seed is derived. */
enum sb_seed_use {
	SB_SEED_SPACER = 1,     /* the kernel run's spacer sizes (its programs' placement) */
	SB_SEED_LAYOUT,         /* the states' layout offsets, per group */
	SB_SEED_ORDER,          /* the interleaving order of arms, per process and batch */
	SB_SEED_BOOTSTRAP,      /* a bootstrap's resamples, per figure */
	SB_SEED_FOOTPRINT,      /* footprint's runs, per copy count */
	SB_SEED_PAGES,          /* the pages placed copies go to: 0 the arms', 1 + g group g's, SB_SEED_LAYOUT_PAGES */
	SB_SEED_STACK,          /* a block's stack offset, per re-rolled state */
};

/* SB_SEED_PAGES's index for the identical-layout comparison's pages. */
#define SB_SEED_LAYOUT_PAGES (1ull << 32)

/* The seed of stream use, index (an arm, a batch, a group: what tells the
 * stream's members apart) of a run seeded with seed: both mixed in by
 * splitmix64, so neighbouring seeds and indices give unrelated streams. */
uint64_t sb_seed_stream(uint64_t seed, enum sb_seed_use use, uint64_t index);

#endif
