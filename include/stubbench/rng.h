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

#endif
