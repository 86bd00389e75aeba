/* SPDX-License-Identifier: MIT */
/*
 * hostmem.c — see hostmem.h.  A mapping of at least 2 MiB starts on a
 * 2 MiB boundary (over-reserved by 2 MiB, the unused head and tail
 * unmapped again) and only its whole 2 MiB pieces are marked
 * MADV_HUGEPAGE: the tail stays in 4 KiB pages, so a thousand 3.4 MiB
 * arrays do not each round up to 4 MiB of resident memory.  Smaller
 * mappings are plain anonymous memory.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "sim/hostmem.h"

#define HUGE_ALIGN	((size_t)2 << 20)
#define SMALL_ALIGN	((size_t)4096)

static size_t map_len(size_t bytes)
{
	return ((bytes ? bytes : 1) + SMALL_ALIGN - 1) & ~(SMALL_ALIGN - 1);
}

void *host_huge_alloc(size_t bytes)
{
	size_t len = map_len(bytes), slack = len >= HUGE_ALIGN ? HUGE_ALIGN : 0;
	uint8_t *raw, *p;
	size_t head;

	raw = mmap(NULL, len + slack, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	if (!slack)
		return raw;
	head = (HUGE_ALIGN - ((uintptr_t)raw & (HUGE_ALIGN - 1))) & (HUGE_ALIGN - 1);
	p = raw + head;
	if (head)
		munmap(raw, head);
	if (slack - head)
		munmap(p + len, slack - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, len & ~(HUGE_ALIGN - 1), MADV_HUGEPAGE);
#endif
	return p;
}

void host_huge_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, map_len(bytes));
}
