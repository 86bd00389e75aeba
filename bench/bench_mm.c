/* SPDX-License-Identifier: MIT */
/*
 * bench_mm.c — the physical-memory model's speed and footprint on the
 * reference machine (384 GiB, 96 CPUs, DMA 4 GiB + Normal, 6 GiB reserved
 * for the memmap):
 *
 *   machine_create time and host bytes per simulated 4 KiB frame, with the
 *   host's own cost of first-touching an anonymous mapping of the frame
 *   array's size as the baseline (page-fault zeroing dominates);
 *   order-0 alloc+free pairs through the pcp lists (the common case);
 *   order-0 alloc+free pairs through the buddy lists (pcp lock held, as
 *   while a remote drain holds it: rmqueue_buddy / free_one_page);
 *   order-9 alloc+free pairs (THP-sized, pcp order-9 lists);
 *   one drain_all_pages of 96 CPUs after each CPU cached pages;
 *   the same cold, as in a checkpoint's dip at full scale: memory filled,
 *     half of it freed in random order, then rounds in which each of the
 *     96 CPUs allocates 2 048 pages (rmqueue_bulk refills from scattered
 *     buddy lists), then each frees them (to its pcp lists, a bulk free
 *     past pcp->high) and drain_all_pages returns them
 *     (free_pcppages_bulk merging with scattered buddies): host time per
 *     page for each of the three;
 *   one mm_check of the whole machine (debug tool, for scale).
 *
 * Wall-clock time is measured here and only here (never in tests).
 * Usage: bench_mm [iterations]   (default 5 000 000 pairs)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "mm/internal.h"
#include "mm/machine.h"
#include "sim/option.h"
#include "sim/sim.h"
#include "bench.h"

static void pairs(struct machine *m, const char *what, gfp_t gfp, unsigned int order, long n)
{
	double t0 = now_s(), dt;

	for (long i = 0; i < n; i++) {
		pfn_t pfn = __alloc_pages(m, gfp, order, NULL);

		if (pfn == PFN_NONE) {
			fprintf(stderr, "bench_mm: %s: allocation failed\n", what);
			exit(1);
		}
		__free_pages(m, pfn, order);
	}
	dt = now_s() - t0;
	printf("%-44s %8.2f M pairs/s  (%.1f ns per alloc+free)\n", what, (double)n / dt / 1e6,
	       dt / (double)n * 1e9);
}

/* The drains of a checkpoint's dip: cold, scattered pcp and buddy lists. */
static void cold_drains(struct machine *m, struct sim *sim)
{
	enum { PER_CPU = 2048, ROUNDS = 10 };
	size_t cap = m->nr_pfns, n = 0;
	pfn_t *all = malloc(cap * sizeof(*all)), *cached = malloc(96 * PER_CPU * sizeof(*cached));
	uint64_t x = 88172645463325252ULL;
	double t_alloc = 0, t_free = 0, t_drain = 0, t0;
	size_t pages = 0;

	if (!all || !cached) {
		fprintf(stderr, "bench_mm: out of host memory\n");
		exit(1);
	}
	sim_set_engine_cpu(sim, 0);
	for (pfn_t pfn; n < cap && (pfn = __alloc_pages(m, __GFP_NOWARN, 0, NULL)) != PFN_NONE;)
		all[n++] = pfn;
	for (size_t i = n - 1; i > 0; i--) {	/* xorshift64 shuffle */
		size_t j;
		pfn_t t;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		j = (size_t)(x % (i + 1));
		t = all[i], all[i] = all[j], all[j] = t;
	}
	for (size_t i = 0; i < n / 2; i++) {
		sim_set_engine_cpu(sim, (unsigned int)(i % 96));
		__free_pages(m, all[i], 0);
	}
	drain_all_pages(m, NULL);
	for (int r = 0; r < ROUNDS; r++) {
		t0 = now_s();
		for (unsigned int cpu = 0; cpu < 96; cpu++) {
			sim_set_engine_cpu(sim, cpu);
			for (int i = 0; i < PER_CPU; i++) {
				cached[cpu * PER_CPU + (unsigned)i] = __alloc_pages(m, __GFP_NOWARN, 0, NULL);
				if (cached[cpu * PER_CPU + (unsigned)i] == PFN_NONE) {
					fprintf(stderr, "bench_mm: cold drains: allocation failed\n");
					exit(1);
				}
			}
		}
		t_alloc += now_s() - t0;
		t0 = now_s();
		for (unsigned int cpu = 0; cpu < 96; cpu++) {
			sim_set_engine_cpu(sim, cpu);
			for (int i = 0; i < PER_CPU; i++)
				__free_pages(m, cached[cpu * PER_CPU + (unsigned)i], 0);
		}
		t_free += now_s() - t0;
		t0 = now_s();
		drain_all_pages(m, NULL);
		t_drain += now_s() - t0;
		pages += 96 * PER_CPU;
	}
	sim_set_engine_cpu(sim, 0);
	printf("cold: 2048 allocations on each CPU (refills)   %8.1f ns per page\n",
	       t_alloc / (double)pages * 1e9);
	printf("cold: their frees, to the pcp lists            %8.1f ns per page\n",
	       t_free / (double)pages * 1e9);
	printf("cold: drain_all_pages of what they cached      %8.1f ns per page  (%zu pages)\n",
	       t_drain / (double)pages * 1e9, pages);
	for (size_t i = n / 2; i < n; i++)
		__free_pages(m, all[i], 0);
	drain_all_pages(m, NULL);
	free(all);
	free(cached);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000000;
	struct machine_config cfg = { 0 };
	struct vm_sysctl sysctl = { 0 };
	struct sim_config sc = { .ncpus = 96, .seed = 1 };
	struct sim *sim;
	struct machine *m;
	char err[256];
	double t0, dt;
	pfn_t *held;

	opt_apply_defaults(machine_options, &cfg);
	opt_apply_defaults(vm_sysctl_options, &sysctl);
	bench_set("bench_mm", machine_options, &cfg, "memory", "384g");
	bench_set("bench_mm", machine_options, &cfg, "cpus", "96");
	bench_set("bench_mm", machine_options, &cfg, "reserved", "6g");
	sim = sim_create(&sc);

	t0 = now_s();
	m = machine_create(sim, &cfg, &sysctl, NULL, err, sizeof(err));
	dt = now_s() - t0;
	if (!m) {
		fprintf(stderr, "bench_mm: %s\n", err);
		return 2;
	}
	printf("machine_create 384 GiB, 96 CPUs, cold            %8.3f s  (%u frames)\n", dt, m->nr_pfns);
	{	/* baseline: the host zeroing the same amount of fresh memory */
		size_t len = m->mem_map_bytes;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		(void)madvise(p, len, MADV_HUGEPAGE);
		t0 = now_s();
		for (size_t i = 0; i < len; i += sizeof(struct page))
			p[i + 14] = 0x30;
		printf("  baseline: host first touch of %.2f GiB          %8.3f s\n",
		       (double)len / (double)(1UL << 30), now_s() - t0);
		munmap(p, len);
	}
	machine_destroy(m);
	t0 = now_s();
	m = machine_create(sim, &cfg, &sysctl, NULL, err, sizeof(err));
	printf("machine_create again, host memory warm            %8.3f s\n", now_s() - t0);
	printf("host bytes per 4 KiB frame at 384 GiB            %8.3f  (struct page %zu B; total %.2f GiB)\n",
	       (double)machine_footprint(m) / (double)m->nr_pfns, sizeof(struct page),
	       (double)machine_footprint(m) / (double)(1UL << 30));

	sim_set_engine_cpu(sim, 0);
	pairs(m, "order-0 alloc+free through the pcp lists", GFP_KERNEL, 0, n);
	{
		struct per_cpu_pages *pcp = &m->node.node_zones[ZONE_NORMAL].per_cpu_pageset[0];

		(void)sim_spin_trylock(sim, &pcp->lock);
		pairs(m, "order-0 alloc+free through the buddy lists", GFP_KERNEL, 0, n);
		sim_spin_unlock(sim, &pcp->lock);
	}
	pairs(m, "order-9 alloc+free (pcp order-9 lists)", GFP_TRANSHUGE_LIGHT, 9, n / 4);
	pairs(m, "order-4 alloc+free (buddy, not pcp-cached)", GFP_HIGHUSER_MOVABLE, 4, n / 4);

	/* every CPU caches some pages, then one drain of all 96 CPUs */
	held = calloc(96 * 64, sizeof(pfn_t));
	for (unsigned int cpu = 0; cpu < 96; cpu++) {
		sim_set_engine_cpu(sim, cpu);
		for (int i = 0; i < 64; i++)
			held[cpu * 64 + (unsigned)i] = __alloc_pages(m, GFP_KERNEL, 0, NULL);
		for (int i = 0; i < 64; i++)
			__free_pages(m, held[cpu * 64 + (unsigned)i], 0);
	}
	sim_set_engine_cpu(sim, 0);
	{
		uint64_t pages = 0;

		for (unsigned int cpu = 0; cpu < 96; cpu++)
			pages += (uint64_t)m->node.node_zones[ZONE_NORMAL].per_cpu_pageset[cpu].count;
		t0 = now_s();
		drain_all_pages(m, NULL);
		dt = now_s() - t0;
		printf("drain_all_pages, 96 CPUs, %6lu pages cached       %8.1f us host time\n",
		       (unsigned long)pages, dt * 1e6);
	}
	free(held);
	cold_drains(m, sim);

	t0 = now_s();
	if (mm_check(m))
		return 1;
	printf("mm_check of the whole machine                     %8.3f s\n", now_s() - t0);

	machine_destroy(m);
	sim_destroy(sim);
	opt_release(machine_options, &cfg);
	opt_release(vm_sysctl_options, &sysctl);
	return 0;
}
