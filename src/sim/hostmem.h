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

/*
 * host_prefetch(): ask the host CPU to bring the cache line at `p` in,
 * a hint with no effect on any result.  An asm statement, because GCC 12
 * deletes a __builtin_prefetch that sits under a condition in a loop
 * (measured on compaction.c's skip-bit walk: none was emitted at -O2).
 * The asm names the byte at `p` as an input but reads nothing.
 */
static inline void host_prefetch(const void *p)
{
#if defined(__x86_64__)
	__asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#elif defined(__aarch64__)
	__asm__ volatile("prfm pldl1keep, %0" : : "Q"(*(const char *)p));
#else
	__builtin_prefetch(p);
#endif
}

/* `bytes` of zeroed memory, or NULL when the host refuses. */
void *host_huge_alloc(size_t bytes);
/* Give back what host_huge_alloc(bytes) returned (NULL is a no-op). */
void host_huge_free(void *p, size_t bytes);
/* Move `old_bytes` of `old` (NULL: none) into a new host_huge_alloc of
 * `new_bytes` (the rest zeroed) and free `old`; NULL when the host refuses
 * (then `old` is untouched). */
void *host_huge_grow(void *old, size_t old_bytes, size_t new_bytes);

/*
 * After fork(): give this process private huge pages again.  The parent's
 * transparent huge pages are shared copy-on-write, and the kernel splits
 * each at the child's first write to it and copies only the 4 KiB page
 * written, so a child that goes on with the model (`slowpath run
 * --branch`) would run its random accesses over gigabytes on 4 KiB host
 * pages — measured 2-3 times slower.  Every private anonymous mapping that
 * holds huge pages has the resident part of its whole 2 MiB pieces copied
 * into fresh huge-page memory and moved into place (mremap), byte for
 * byte the same.  Best effort: a piece that cannot be moved stays as it
 * was.  Returns the bytes moved.  A no-op under AddressSanitizer.
 */
size_t host_huge_unshare(void);

/*
 * A pool of equal-sized objects carved from 2 MiB pieces of host huge
 * pages, for small records that are many and touched at random (the page
 * cache's index chunks and map counts): malloc would scatter them over
 * 4 KiB host pages, a host TLB miss per touch.  Freed objects are reused
 * last-in first-out.  Under AddressSanitizer every object is a malloc of
 * its own, so overflows stay visible.  Host layout only.
 */
struct host_pool {
	size_t		size;		/* object size in bytes, a multiple of 16 */
	void		*free;		/* freed objects, linked through their first word */
	unsigned char	*cur, *end;	/* the piece being carved */
	void		**pieces;	/* [npieces] */
	size_t		npieces, cap;
};

void host_pool_init(struct host_pool *hp, size_t size);
/* An object of hp->size bytes, zeroed; NULL when the host refuses. */
void *host_pool_alloc(struct host_pool *hp);
void host_pool_free(struct host_pool *hp, void *obj);
/* Give back every piece.  Free every object first: under AddressSanitizer
 * each is a malloc of its own, which this cannot reach. */
void host_pool_release(struct host_pool *hp);

#endif
