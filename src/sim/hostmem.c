/* SPDX-License-Identifier: MIT */
/*
 * hostmem.c — see hostmem.h.  A mapping of at least 2 MiB starts on a
 * 2 MiB boundary (over-reserved by 2 MiB, the unused head and tail
 * unmapped again) and only its whole 2 MiB pieces are marked
 * MADV_HUGEPAGE: the tail stays in 4 KiB pages, so a thousand 3.4 MiB
 * arrays do not each round up to 4 MiB of resident memory.  Smaller
 * mappings are plain anonymous memory.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim/hostmem.h"
#include "sim/internal.h"

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

void *host_huge_grow(void *old, size_t old_bytes, size_t new_bytes)
{
	void *p = host_huge_alloc(new_bytes);

	if (!p)
		return NULL;
	if (old) {
		memcpy(p, old, old_bytes < new_bytes ? old_bytes : new_bytes);
		host_huge_free(old, old_bytes);
	}
	return p;
}

/* ---- after fork ------------------------------------------------------------------ */

#ifndef SIM_ASAN	/* under ASan host_huge_unshare() does nothing */
#define UNSHARE_RUN	((size_t)64 << 20)	/* bytes copied per mremap, at most */
#define UNSHARE_MAX	4096			/* mappings looked at */

struct host_range {
	uintptr_t	start, end;
};

/* The private anonymous mappings with huge pages now, 2 MiB-aligned
 * inside, from /proc/self/smaps (read whole before anything moves). */
static size_t huge_mappings(struct host_range *r, size_t max)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512], perms[8] = "", path[256];
	uintptr_t start = 0, end = 0;
	unsigned long long kb;
	size_t n = 0;
	bool anon = false;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < max) {
		unsigned long a, b, ino;

		path[0] = '\0';
		/* a mapping's header line; no attribute line parses as one */
		if (sscanf(line, "%lx-%lx %7s %*s %*s %lu %255s", &a, &b, perms, &ino, path) >= 4) {
			start = ((uintptr_t)a + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
			end = (uintptr_t)b & ~(HUGE_ALIGN - 1);
			anon = strcmp(perms, "rw-p") == 0 && ino == 0 && path[0] == '\0' && end > start;
			continue;
		}
		if (anon && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1 && kb > 0)
			r[n++] = (struct host_range){ start, end };
	}
	fclose(f);
	return n;
}

/* Copy [p, p + len) into fresh huge-page memory and move it in place. */
static bool move_to_huge(uint8_t *p, size_t len)
{
	uint8_t *raw = mmap(NULL, len + HUGE_ALIGN, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), *q;
	size_t head;

	if (raw == MAP_FAILED)
		return false;
	head = (HUGE_ALIGN - ((uintptr_t)raw & (HUGE_ALIGN - 1))) & (HUGE_ALIGN - 1);
	q = raw + head;
#ifdef MADV_HUGEPAGE
	(void)madvise(q, len, MADV_HUGEPAGE);
#endif
	memcpy(q, p, len);
	if (mremap(q, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, p) == MAP_FAILED) {
		munmap(raw, len + HUGE_ALIGN);
		return false;
	}
	if (head)
		munmap(raw, head);
	munmap(q + len, HUGE_ALIGN - head);	/* q's range was moved away */
	return true;
}
#endif

size_t host_huge_unshare(void)
{
#ifdef SIM_ASAN
	return 0;
#else
	static struct host_range r[UNSHARE_MAX];
	size_t n = huge_mappings(r, UNSHARE_MAX), moved = 0;
	unsigned char vec[HUGE_ALIGN / SMALL_ALIGN];

	for (size_t i = 0; i < n; i++) {
		uintptr_t run = 0;	/* start of the resident run being gathered */

		for (uintptr_t a = r[i].start; a <= r[i].end; a += HUGE_ALIGN) {
			bool resident = false;

			if (a < r[i].end && mincore((void *)a, HUGE_ALIGN, vec) == 0)
				for (size_t k = 0; k < sizeof(vec) && !resident; k++)
					resident = vec[k] & 1;
			if (resident && !run)
				run = a;
			if (run && (!resident || a - run == UNSHARE_RUN)) {
				if (move_to_huge((uint8_t *)run, a - run))
					moved += a - run;
				run = resident ? a : 0;
			}
		}
	}
	return moved;
#endif
}

/* ---- pools ----------------------------------------------------------------------- */

#define POOL_PIECE	HUGE_ALIGN

void host_pool_init(struct host_pool *hp, size_t size)
{
	memset(hp, 0, sizeof(*hp));
	hp->size = (size + 15) & ~(size_t)15;
}

#ifdef SIM_ASAN
void *host_pool_alloc(struct host_pool *hp)
{
	return calloc(1, hp->size);
}

void host_pool_free(struct host_pool *hp, void *obj)
{
	(void)hp;
	free(obj);
}
#else
void *host_pool_alloc(struct host_pool *hp)
{
	void *obj = hp->free;

	if (obj) {
		memcpy(&hp->free, obj, sizeof(void *));
		memset(obj, 0, hp->size);
		return obj;
	}
	if ((size_t)(hp->end - hp->cur) < hp->size) {
		unsigned char *piece;

		if (hp->npieces == hp->cap) {
			size_t cap = hp->cap ? hp->cap * 2 : 16;
			void **pieces = realloc(hp->pieces, cap * sizeof(*pieces));

			if (!pieces)
				return NULL;
			hp->pieces = pieces;
			hp->cap = cap;
		}
		piece = host_huge_alloc(POOL_PIECE);
		if (!piece)
			return NULL;
		hp->pieces[hp->npieces++] = piece;
		hp->cur = piece;
		hp->end = piece + POOL_PIECE;
	}
	obj = hp->cur;			/* fresh from mmap: already zero */
	hp->cur += hp->size;
	return obj;
}

void host_pool_free(struct host_pool *hp, void *obj)
{
	if (!obj)
		return;
	memcpy(obj, &hp->free, sizeof(void *));
	hp->free = obj;
}
#endif

void host_pool_release(struct host_pool *hp)
{
	for (size_t i = 0; i < hp->npieces; i++)
		host_huge_free(hp->pieces[i], POOL_PIECE);
	free(hp->pieces);
	host_pool_init(hp, hp->size);
}
