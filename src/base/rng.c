/* rng.c: xoshiro256** (Blackman and Vigna), seeded with splitmix64. */
#include "base/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sb_rng_seed(struct sb_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t sb_seed_stream(uint64_t seed, enum sb_seed_use use, uint64_t index)
{
	uint64_t x = seed;
	uint64_t h = splitmix64(&x);
	x = h ^ ((uint64_t)use << 56);
	h = splitmix64(&x);
	x = h ^ index;
	return splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t sb_rng_next(struct sb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t sb_rng_below(struct sb_rng *r, uint64_t n)
{
	/* Lemire's multiply-shift; the bias is below 2^-64 * n, negligible here. */
	return (uint64_t)(((unsigned __int128)sb_rng_next(r) * n) >> 64);
}

double sb_rng_unit(struct sb_rng *r)
{
	return (sb_rng_next(r) >> 11) * 0x1.0p-53;
}
