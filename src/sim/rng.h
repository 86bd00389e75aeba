/* SPDX-License-Identifier: MIT */
/*
 * rng.h — deterministic random number streams.
 *
 * Generator: xoshiro256** (Blackman & Vigna, 2018), seeded through
 * SplitMix64.  Every actor owns one stream derived from (scenario seed,
 * stream id) only, so adding an actor never changes the numbers another
 * actor draws.  Stream ids are chosen by the caller from a stable name
 * (rng_stream_id("backend", 17)), never from creation order or pointers.
 */
#ifndef SLOWPATH_SIM_RNG_H
#define SLOWPATH_SIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
};

static inline uint64_t rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Stable 64-bit id for a named stream instance (FNV-1a of the name mixed
 * with the instance number). */
uint64_t rng_stream_id(const char *name, uint64_t instance);

void rng_init(struct sim_rng *r, uint64_t seed, uint64_t stream_id);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift, with rejection). */
uint64_t rng_below(struct sim_rng *r, uint64_t n);

/* Uniform double in [0, 1) with 53 random bits. */
static inline double rng_double(struct sim_rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Exponential with the given mean (> 0). */
double rng_exp(struct sim_rng *r, double mean);
/* Standard normal N(0, 1) (Box-Muller, two uniforms per draw, no state
 * kept between draws so a stream's position depends only on the number of
 * calls). */
double rng_normal(struct sim_rng *r);
/* Bernoulli: 1 with probability p. */
static inline int rng_chance(struct sim_rng *r, double p)
{
	return rng_double(r) < p;
}

#endif
