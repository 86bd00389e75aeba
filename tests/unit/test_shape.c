/* SPDX-License-Identifier: MIT */
/*
 * test_shape.c — the free-memory shape (src/report/shape.c): the kernel's
 * unusable-free-space and fragmentation indices (mm/vmstat.c
 * fill_contig_page_info, unusable_free_index, __fragmentation_index) on
 * counts worked out by hand, the window mean and last sample of a result
 * folder's monitors, and the --shape-windows parser.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "report/shape.h"

/* The Normal zone of tests/fixtures/proc/linux-6.18/buddyinfo. */
static const uint64_t normal[11] = { 1117, 1445, 1726, 1523, 1743, 1494, 1259, 1247, 1173, 893, 4055 };

TEST(contig_info_by_hand)
{
	struct rpt_contig_info ci;

	/* free pages: 1117 + 2*1445 + 4*1726 + 8*1523 + 16*1743 + 32*1494 + 64*1259
	 * + 128*1247 + 256*1173 + 512*893 + 1024*4055 = 5248807 */
	rpt_contig_info(normal, 11, 9, &ci);
	ASSERT_EQ(ci.free_pages, 5248807);
	ASSERT_EQ(ci.free_blocks_total, 17675);
	ASSERT_EQ(ci.free_blocks_suitable, 893 + 2 * 4055);
}

TEST(unusable_index_by_hand)
{
	struct rpt_contig_info ci;

	/* order 0: every free page is usable */
	rpt_contig_info(normal, 11, 0, &ci);
	ASSERT_EQ(rpt_unusable_index(0, &ci), 0);
	/* order 3: pages in orders 0-2 = 1117 + 2890 + 6904 = 10911;
	 * 10911 * 1000 / 5248807 = 2.08 -> 2 */
	rpt_contig_info(normal, 11, 3, &ci);
	ASSERT_EQ(rpt_unusable_index(3, &ci), 2);
	/* order 9: 5248807 - (893*512 + 4055*1024) = 639271; * 1000 / 5248807 = 121.8 -> 121 */
	rpt_contig_info(normal, 11, 9, &ci);
	ASSERT_EQ(rpt_unusable_index(9, &ci), 121);
	/* order 10: 5248807 - 4152320 = 1096487; * 1000 / 5248807 = 208.9 -> 208 */
	rpt_contig_info(normal, 11, 10, &ci);
	ASSERT_EQ(rpt_unusable_index(10, &ci), 208);
	/* nothing free: all of it unusable */
	rpt_contig_info((const uint64_t[11]){ 0 }, 11, 4, &ci);
	ASSERT_EQ(rpt_unusable_index(4, &ci), 1000);
}

TEST(extfrag_index_by_hand)
{
	static const uint64_t small[4] = { 10, 5, 2, 0 };
	struct rpt_contig_info ci;

	/* free pages 10 + 10 + 8 = 28, 17 blocks.  Order 3 has no suitable
	 * block: 1000 - (1000 + 28 * 1000 / 8) / 17 = 1000 - 4500 / 17
	 * = 1000 - 264 = 736 */
	rpt_contig_info(small, 4, 3, &ci);
	ASSERT_EQ(ci.free_blocks_suitable, 0);
	ASSERT_EQ(rpt_extfrag_index(3, &ci), 736);
	ASSERT_EQ(rpt_unusable_index(3, &ci), 1000);
	/* order 2 would succeed: the sentinel; unusable (28 - 8) * 1000 / 28 = 714 */
	rpt_contig_info(small, 4, 2, &ci);
	ASSERT_EQ(rpt_extfrag_index(2, &ci), RPT_EXTFRAG_SUCCEEDS);
	ASSERT_EQ(rpt_unusable_index(2, &ci), 714);
	/* nothing free: 0 (the kernel's "no free blocks") */
	rpt_contig_info((const uint64_t[4]){ 0 }, 4, 1, &ci);
	ASSERT_EQ(rpt_extfrag_index(1, &ci), 0);
	/* the fixture's Normal zone has an order-10 block: every order succeeds */
	rpt_contig_info(normal, 11, 10, &ci);
	ASSERT_EQ(rpt_extfrag_index(10, &ci), RPT_EXTFRAG_SUCCEEDS);
	/* one order-0 block, order 1: 1000 - (1000 + 1000 / 2) / 1 = -500:
	 * the kernel's formula goes below 0 when little is free, as it does */
	rpt_contig_info((const uint64_t[2]){ 1, 0 }, 2, 1, &ci);
	ASSERT_EQ(rpt_extfrag_index(1, &ci), -500);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

TEST(folder_window_mean_and_last)
{
	char dir[] = "/tmp/test_shape.XXXXXX", path[256], err[512];
	struct rpt_shape sh;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/proc-buddyinfo", dir);
	/* two nodes' Normal rows are summed; orders 0-3 */
	write_file(path,
		"time: 100\n"
		"Node 0, zone   Normal     10      5      2      0 \n"
		"Node 1, zone   Normal      0      0      0      0 \n"
		"time: 101\n"
		"Node 0, zone   Normal     20      5      2      1 \n"
		"Node 1, zone   Normal      0      0      0      1 \n"
		"time: 102\n"
		"Node 0, zone   Normal      0      0      0      0 \n"
		"Node 1, zone   Normal      0      0      0      0 \n");
	ASSERT_EQ(rpt_shape_load(dir, 0, 1, &sh, err, sizeof(err)), 0);
	ASSERT_EQ(sh.samples, 2);
	ASSERT_EQ(sh.nr_zones, 1);
	ASSERT_TRUE(strcmp(sh.z[0].zone, "Normal") == 0);
	ASSERT_EQ(sh.z[0].nr_orders, 4);
	ASSERT_EQ(sh.z[0].blocks[0] * 10, 150);		/* (10 + 20) / 2 */
	ASSERT_EQ(sh.z[0].blocks[3] * 10, 10);		/* (0 + 2) / 2 */
	/* extfrag at order 3: 0.736 in the first sample (above), the second
	 * has order-3 blocks: the mean is over the one sample where defined */
	ASSERT_EQ(sh.z[0].extfrag_n[3], 1);
	ASSERT_EQ((int)(sh.z[0].extfrag[3] * 1000 + 0.5), 736);
	/* unusable order 3: 1.000 in the first sample; the second has
	 * 20 + 2*5 + 4*2 + 8*2 = 54 free pages, 16 of them in order-3 blocks:
	 * (54 - 16) * 1000 / 54 = 703 -> mean 0.8515 */
	ASSERT_TRUE(fabs(sh.z[0].unusable[3] - 0.8515) < 1e-9);
	ASSERT_FALSE(sh.has_types);	/* no proc-pagetypeinfo */
	/* the last sample */
	ASSERT_EQ(rpt_shape_load(dir, 0, -1, &sh, err, sizeof(err)), 0);
	ASSERT_EQ(sh.samples, 1);
	ASSERT_EQ((int)sh.last_time, 2);
	ASSERT_EQ((int)(sh.z[0].unusable[0] * 1000), 1000);
	/* a window without samples */
	ASSERT_EQ(rpt_shape_load(dir, 5, 9, &sh, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "no sample between 5 s and 9 s") != NULL);
	/* a malformed sample: the line of the whole file */
	write_file(path, "time: 1\nNode 0, zone   Normal     1 \ntime: 2\nNode 0, zone Normal x\n");
	ASSERT_EQ(rpt_shape_load(dir, 0, 10, &sh, err, sizeof(err)), -1);
	ASSERT_TRUE(strncmp(err, path, strlen(path)) == 0);
	ASSERT_TRUE(strstr(err, ":4:") != NULL);
	unlink(path);
	/* no buddyinfo at all */
	ASSERT_EQ(rpt_shape_load(dir, 0, 10, &sh, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "no such file") != NULL);
	rmdir(dir);
}

TEST(windows_parse)
{
	struct rpt_window w[4];
	unsigned int n;
	char err[256];

	ASSERT_EQ(rpt_parse_windows("0-14,15-34.5,35-end", w, 4, &n, err, sizeof(err)), 0);
	ASSERT_EQ(n, 3);
	ASSERT_EQ(w[1].from, 15);
	ASSERT_EQ(w[1].to * 10, 345);
	ASSERT_TRUE(isinf(w[2].to));
	ASSERT_EQ(rpt_parse_windows("5-3", w, 4, &n, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "'5-3' is not a window") != NULL);
	ASSERT_EQ(rpt_parse_windows("end-5", w, 4, &n, err, sizeof(err)), -1);
	ASSERT_EQ(rpt_parse_windows("1-2,", w, 4, &n, err, sizeof(err)), -1);
	ASSERT_EQ(rpt_parse_windows("-1-2", w, 4, &n, err, sizeof(err)), -1);
	ASSERT_EQ(rpt_parse_windows("0-1,1-2,2-3,3-4,4-5", w, 4, &n, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "at most 4") != NULL);
}
