/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "sim/rng.h"

uint64_t rng_stream_id(const char *name, uint64_t instance)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a 64 */

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	h ^= instance + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

void rng_init(struct sim_rng *r, uint64_t seed, uint64_t stream_id)
{
	uint64_t x = seed;
	uint64_t y = rng_splitmix64(&x) ^ stream_id;

	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&y);
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

uint64_t rng_below(struct sim_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t t = -n % n;

		while (lo < t) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double rng_exp(struct sim_rng *r, double mean)
{
	double u = rng_double(r);

	return -mean * log1p(-u);
}

double rng_normal(struct sim_rng *r)
{
	double u1 = 1.0 - rng_double(r);	/* (0, 1]: log stays finite */
	double u2 = rng_double(r);

	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925 * u2);
}
