/* SPDX-License-Identifier: MIT */
/*
 * bench_pagecache.c — host cost of the page-cache and process paths on a
 * 64 GiB, 96-CPU machine (release build):
 *
 *   buffered writes through ksys_pwrite64 (8 KiB, 64 KiB, 1 MiB,
 *   aligned, into fresh file ranges), then truncate: ns per write and per
 *   page written;
 *   shared-mapping read faults (one per 2 MiB, PTE page + shmem page):
 *   ns per fault, and mm_touch of an already mapped page;
 *   fork + exit of a process with a 4 GiB touched shared mapping.
 *
 * Everything runs in engine context (no tasks, so no writer throttling
 * and no I/O: what is measured is the model's bookkeeping).  Wall-clock
 * time is measured here and only here (never in tests).
 * Usage: bench_pagecache [scale]   (default 1: ~1 GiB written per size)
 */
#include <stdio.h>
#include <stdlib.h>

#include "mm/fs.h"
#include "mm/internal.h"
#include "mm/machine.h"
#include "mm/memory.h"
#include "sim/bdev.h"
#include "sim/option.h"
#include "sim/sim.h"
#include "bench.h"

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	struct machine_config mc = { 0 };
	struct vm_sysctl sc = { 0 };
	struct sim_config simc = { .ncpus = 96, .seed = 1 };
	struct bdev_config bc = { .name = "md0", .lat_mean_ns = 500000, .members = 1 };
	static const unsigned long sizes[] = { 8192, 65536, 1 << 20 };
	struct sim *sim;
	struct machine *m;
	struct super_block *sb;
	char err[256];

	if (scale < 1)
		scale = 1;
	opt_apply_defaults(machine_options, &mc);
	opt_apply_defaults(vm_sysctl_options, &sc);
	bench_set("bench_pagecache", machine_options, &mc, "memory", "64g");
	bench_set("bench_pagecache", machine_options, &mc, "cpus", "96");
	sim = sim_create(&simc);
	m = machine_create(sim, &mc, &sc, NULL, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "bench_pagecache: %s\n", err);
		return 2;
	}
	sb = fs_mount(m, bdev_create(sim, &bc), "md0", 0);
	printf("%-34s %12s %12s\n", "operation", "ns/op", "ns/page");
	for (unsigned int s = 0; s < 3; s++) {
		struct inode *inode = fs_create(sb, "bench");
		unsigned long n = (unsigned long)scale * (1UL << 30) / sizes[s];
		double t0 = now_s(), dt;

		for (unsigned long i = 0; i < n; i++)
			if (ksys_pwrite64(m, inode, (uint64_t)i * sizes[s], sizes[s]) != (long)sizes[s]) {
				fprintf(stderr, "bench_pagecache: write failed\n");
				return 1;
			}
		dt = now_s() - t0;
		printf("pwrite %-7lu aligned, fresh range  %12.1f %12.2f\n", sizes[s], dt * 1e9 / (double)n,
		       dt * 1e9 / (double)(n * (sizes[s] / 4096)));
		t0 = now_s();
		do_unlinkat(m, inode);
		printf("unlink (truncate) %-6lu-byte folios %12.1f\n", sizes[s],
		       (now_s() - t0) * 1e9 / (double)n);
	}
	{
		struct mm_struct *parent = mm_create(m), *child;
		unsigned long S = (unsigned long)scale * (4UL << 30), addr;
		struct shmem_object *shm = shmem_create(m, S, "sb");
		unsigned long n = S / PMD_SIZE;
		double t0, dt;

		addr = mm_mmap(parent, S, VM_READ | VM_WRITE | VM_SHARED, shm, NULL, NULL, 0, 1UL << 30);
		shmem_put(shm);
		child = mm_fork(parent);
		t0 = now_s();
		for (unsigned long a = addr; a < addr + S; a += PMD_SIZE)
			mm_touch(child, a, false);
		dt = now_s() - t0;
		printf("%-34s %12.1f\n", "shmem read fault (new page+PTE pg)", dt * 1e9 / (double)n);
		t0 = now_s();
		for (unsigned long a = addr; a < addr + S; a += PMD_SIZE)
			mm_touch(child, a, false);
		printf("%-34s %12.1f\n", "mm_touch of a mapped page", (now_s() - t0) * 1e9 / (double)n);
		t0 = now_s();
		for (int k = 0; k < 10; k++) {
			struct mm_struct *c2 = mm_fork(parent);

			for (unsigned long a = addr; a < addr + S; a += PMD_SIZE)
				mm_touch(c2, a, false);
			mm_exit(c2);
		}
		printf("%-34s %12.1f\n", "fork + 2048 faults + exit (per fault)", (now_s() - t0) * 1e9 / (10.0 * (double)n));
		mm_exit(child);
		mm_exit(parent);
	}
	machine_destroy(m);
	sim_destroy(sim);
	return 0;
}
