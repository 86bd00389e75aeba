/* SPDX-License-Identifier: MIT */
/* Tests of the host memory helpers (sim/hostmem.c): the object pool that
 * holds the page cache's index records and the growth of a huge-page
 * array.  Host layout only, but a pool that handed out one object twice,
 * or a grow that lost the old contents, would corrupt the model. */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "sim/hostmem.h"
#include "sim/internal.h"

/* A test that a pool hands out distinct, zeroed objects of its size,
 * reuses freed ones (zeroed again) before carving new ones, and spans
 * several 2 MiB pieces.  Expect 3000 distinct non-overlapping 4 KiB
 * objects (more than one piece holds), each zero when handed out, and
 * (outside AddressSanitizer builds, where each object is a malloc) a
 * freed object back on the next allocation. */
TEST(host_pool_objects_distinct_zeroed_reused)
{
	enum { N = 3000, SIZE = 4096 };
	static unsigned char *obj[N];
	struct host_pool hp;
	unsigned char *again;

	host_pool_init(&hp, SIZE);
	ASSERT_EQ(hp.size, SIZE);
	for (int i = 0; i < N; i++) {
		obj[i] = host_pool_alloc(&hp);
		ASSERT_TRUE(obj[i] != NULL);
		for (int k = 0; k < SIZE; k++)
			if (obj[i][k] != 0) {
				ASSERT_TRUE(!"a new object is not zeroed");
				return;
			}
		memset(obj[i], 0xa5, SIZE);
		*(int *)obj[i] = i;
	}
	for (int i = 0; i < N; i++) {
		ASSERT_EQ(*(int *)obj[i], i);		/* no object overlaps another */
		ASSERT_EQ(obj[i][SIZE - 1], 0xa5);
	}
	host_pool_free(&hp, obj[17]);
	again = host_pool_alloc(&hp);
	ASSERT_TRUE(again != NULL);
#ifndef SIM_ASAN
	ASSERT_TRUE(again == obj[17]);		/* last in, first out */
#endif
	for (int k = 0; k < SIZE; k++)
		if (again[k] != 0) {
			ASSERT_TRUE(!"a reused object is not zeroed");
			return;
		}
	for (int i = 0; i < N; i++)
		if (i != 17)
			host_pool_free(&hp, obj[i]);
	host_pool_free(&hp, again);
	host_pool_release(&hp);
	ASSERT_TRUE(hp.npieces == 0 && hp.pieces == NULL);
}

/* A test that sizes round up to 16 bytes (a freed object holds the free
 * list's link) and that a released pool can be used again.  Expect size
 * 272 for 260, and a fresh object after release. */
TEST(host_pool_rounds_size_and_reuses_after_release)
{
	struct host_pool hp;
	void *a;

	host_pool_init(&hp, 260);
	ASSERT_EQ(hp.size, 272);
	a = host_pool_alloc(&hp);
	ASSERT_TRUE(a != NULL);
	host_pool_free(&hp, a);
	host_pool_release(&hp);
	a = host_pool_alloc(&hp);
	ASSERT_TRUE(a != NULL);
	ASSERT_EQ(((unsigned char *)a)[271], 0);
	host_pool_free(&hp, a);
	host_pool_release(&hp);
}

/* A test that growing a huge-page array keeps its contents and zeroes the
 * rest, across the 2 MiB boundary.  Expect the first 3 MiB as written and
 * the next 2 MiB zero. */
TEST(host_huge_grow_keeps_contents)
{
	size_t old = 3u << 20, grown = 5u << 20;
	uint32_t *a = host_huge_grow(NULL, 0, old), *b;

	ASSERT_TRUE(a != NULL);
	for (size_t i = 0; i < old / 4; i++)
		a[i] = (uint32_t)i * 2654435761u;
	b = host_huge_grow(a, old, grown);
	ASSERT_TRUE(b != NULL);
	for (size_t i = 0; i < old / 4; i++)
		if (b[i] != (uint32_t)i * 2654435761u) {
			ASSERT_TRUE(!"grow lost the old contents");
			return;
		}
	for (size_t i = old / 4; i < grown / 4; i++)
		if (b[i] != 0) {
			ASSERT_TRUE(!"grow left the new part unzeroed");
			return;
		}
	host_huge_free(b, grown);
}
