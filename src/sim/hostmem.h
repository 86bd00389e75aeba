/* SPDX-License-Identifier: MIT */
/*
 * hostmem.h — host memory for the model's big arrays (mem_map, the
 * page-table mirrors' flat windows, PostgreSQL's buffer descriptors):
 * zeroed anonymous memory, reserved without commit (MAP_NORESERVE: only
 * the pages written become resident), aligned to 2 MiB and marked
 * MADV_HUGEPAGE so random accesses into gigabytes of it cost fewer host
 * TLB misses and page faults.  Host layout only: nothing simulated
 * depends on where or how the memory was obtained.
 */
#ifndef SLOWPATH_SIM_HOSTMEM_H
#define SLOWPATH_SIM_HOSTMEM_H

#include <stddef.h>

/* `bytes` of zeroed memory, or NULL when the host refuses. */
void *host_huge_alloc(size_t bytes);
/* Give back what host_huge_alloc(bytes) returned (NULL is a no-op). */
void host_huge_free(void *p, size_t bytes);

#endif
