/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "harness.h"
#include "report/load.h"

static const char prof_a[] =
	"{\"schema\": \"slowpath-profile/1\", \"unit\": \"ns\", \"kinds\": [\n"
	" {\"kind\": \"backend\", \"tasks\": 2, \"root\": {\"name\": \"backend\", \"calls\": 0,\n"
	"  \"self\": {\"cpu\": 0, \"spin\": 0, \"sleep\": 0, \"io\": 0, \"runq\": 10},\n"
	"  \"children\": [\n"
	"   {\"name\": \"pwrite\", \"calls\": 4, \"self\": {\"cpu\": 100, \"io\": 50},\n"
	"    \"children\": [{\"name\": \"__alloc_pages\", \"calls\": 4, \"self\": {\"cpu\": 30, \"spin\": 6}}]},\n"
	"   {\"name\": \"fsync\", \"calls\": 1, \"self\": {\"io\": 200}}]}}]}\n";

static const char prof_b[] =
	"{\"schema\": \"slowpath-profile/2\", \"unit\": \"ns\", \"kinds\": [\n"
	" {\"kind\": \"backend\", \"tasks\": 2, \"root\": {\"name\": \"backend\",\n"
	"  \"children\": [\n"
	"   {\"name\": \"pwrite\", \"calls\": 2, \"self\": {\"cpu\": 300},\n"
	"    \"children\": [{\"name\": \"compact_zone\", \"calls\": 1, \"self\": {\"cpu\": 70}}]}]}},\n"
	" {\"kind\": \"kswapd\", \"tasks\": 1, \"root\": {\"name\": \"kswapd\", \"self\": {\"cpu\": 8}}}]}\n";

/* A test that a profile's totals are self plus the children's totals, as
 * perf's "Children" column.  Expect pwrite total cpu 130, io 50, spin 6;
 * backend total cpu 130, io 250, runq 10; first-seen child order. */
TEST(profile_totals)
{
	struct rpt_profile p;
	char err[256];
	uint32_t be, pw, al;

	ASSERT_EQ(rpt_profile_parse("a.json", prof_a, &p, err, sizeof(err)), 0);
	be = rpt_profile_child(&p, 0, "backend", false);
	pw = rpt_profile_child(&p, be, "pwrite", false);
	al = rpt_profile_child(&p, pw, "__alloc_pages", false);
	ASSERT_TRUE(be && pw && al);
	ASSERT_NEAR(p.v[pw].total[RPT_T_CPU], 130, 0);
	ASSERT_NEAR(p.v[pw].total[RPT_T_IO], 50, 0);
	ASSERT_NEAR(p.v[pw].total[RPT_T_SPIN], 6, 0);
	ASSERT_NEAR(p.v[be].total[RPT_T_CPU], 130, 0);
	ASSERT_NEAR(p.v[be].total[RPT_T_IO], 250, 0);
	ASSERT_NEAR(p.v[be].total[RPT_T_RUNQ], 10, 0);
	ASSERT_NEAR(p.v[be].tasks, 2, 0);
	ASSERT_STR_EQ(p.v[p.v[be].first_child].name, "pwrite");
	ASSERT_STR_EQ(p.v[p.v[p.v[be].first_child].next_sibling].name, "fsync");
	rpt_profile_release(&p);
}

/* A test that merging two iterations with weight 1/2 gives the mean per
 * path, with paths of either side kept (union) and new kinds appended.
 * Expect pwrite self cpu (100 + 300) / 2 = 200, calls 3, compact_zone
 * cpu 35 under pwrite, kswapd present with cpu 4. */
TEST(profile_merge_mean)
{
	struct rpt_profile a, b, m;
	char err[256];
	uint32_t be, pw, cz, ks;

	ASSERT_EQ(rpt_profile_parse("a.json", prof_a, &a, err, sizeof(err)), 0);
	ASSERT_EQ(rpt_profile_parse("b.json", prof_b, &b, err, sizeof(err)), 0);
	rpt_profile_init(&m);
	rpt_profile_merge(&m, &a, 0.5);
	rpt_profile_merge(&m, &b, 0.5);
	rpt_profile_totals(&m);
	be = rpt_profile_child(&m, 0, "backend", false);
	pw = rpt_profile_child(&m, be, "pwrite", false);
	cz = rpt_profile_child(&m, pw, "compact_zone", false);
	ks = rpt_profile_child(&m, 0, "kswapd", false);
	ASSERT_TRUE(be && pw && cz && ks);
	ASSERT_NEAR(m.v[pw].self[RPT_T_CPU], 200, 1e-9);
	ASSERT_NEAR(m.v[pw].calls, 3, 1e-9);
	ASSERT_NEAR(m.v[cz].total[RPT_T_CPU], 35, 1e-9);
	ASSERT_NEAR(m.v[ks].total[RPT_T_CPU], 4, 1e-9);
	ASSERT_NEAR(m.v[be].total[RPT_T_CPU], (130 + 370) / 2.0, 1e-9);
	rpt_profile_release(&a);
	rpt_profile_release(&b);
	rpt_profile_release(&m);
}

/* A test that malformed profiles are refused with the file's line.
 * Expect errors for a bad unit, a negative time and broken JSON. */
TEST(profile_errors)
{
	struct rpt_profile p;
	char err[256];

	ASSERT_EQ(rpt_profile_parse("x.json", "{\"schema\": \"slowpath-profile/1\", \"unit\": \"us\", "
				    "\"kinds\": []}", &p, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "x.json: 'unit' must be \"ns\"");
	rpt_profile_release(&p);
	ASSERT_EQ(rpt_profile_parse("x.json", "{\"schema\": \"slowpath-profile/0\"}", &p, err,
				    sizeof(err)), -1);
	ASSERT_STR_EQ(err, "x.json: schema 'slowpath-profile/0' has no valid version");
	rpt_profile_release(&p);
	ASSERT_EQ(rpt_profile_parse("x.json", "{\n\"schema\": \n]", &p, err, sizeof(err)), -1);
	ASSERT_TRUE(strncmp(err, "x.json:3: ", 10) == 0);
	rpt_profile_release(&p);
}

/* A test of the tps.csv reader.  Expect rows read in order, and errors at
 * the offending line for a wrong header, a bad number and a time that
 * does not increase. */
TEST(series_parse)
{
	struct rpt_series s = { 0 };
	char err[256], ok[] = "interval_end_s,tps,lat_avg_ms,lat_max_ms\n10,100.5,2.5,9\n20,90,3,12.25\n";
	char hdr[] = "t,tps\n1,2\n";
	char num[] = "interval_end_s,tps,lat_avg_ms,lat_max_ms\n10,1,2,3\n20,x,2,3\n";
	char mono[] = "interval_end_s,tps,lat_avg_ms,lat_max_ms\n10,1,2,3\n10,1,2,3\n";

	ASSERT_EQ(rpt_series_parse("t.csv", ok, &s, err, sizeof(err)), 0);
	ASSERT_EQ(s.n, 2);
	ASSERT_NEAR(s.t[1], 20, 0);
	ASSERT_NEAR(s.tps[0], 100.5, 0);
	ASSERT_NEAR(s.lat_max[1], 12.25, 0);
	rpt_series_release(&s);
	ASSERT_EQ(rpt_series_parse("t.csv", hdr, &s, err, sizeof(err)), -1);
	ASSERT_TRUE(strncmp(err, "t.csv:1: header", 15) == 0);
	rpt_series_release(&s);
	ASSERT_EQ(rpt_series_parse("t.csv", num, &s, err, sizeof(err)), -1);
	ASSERT_TRUE(strncmp(err, "t.csv:3: field 2", 16) == 0);
	rpt_series_release(&s);
	ASSERT_EQ(rpt_series_parse("t.csv", mono, &s, err, sizeof(err)), -1);
	ASSERT_TRUE(strncmp(err, "t.csv:3: interval_end_s 10 does not increase", 44) == 0);
	rpt_series_release(&s);
}
