/* SPDX-License-Identifier: MIT */
/* test_mm_vmstat.c — the counter machinery (per-CPU diffs, thresholds,
 * folding, costs) and the /proc renderers' layouts against a real 6.18
 * kernel's files (tests/fixtures/proc/linux-6.18). */
#include <ctype.h>

#include "mm_test.h"

#define FIXTURES "tests/fixtures/proc/linux-6.18/"

static bool is_number(const char *t, size_t n)
{
	size_t i = 0;

	if (i < n && t[i] == '>')
		i++;
	if (i == n)
		return false;
	for (; i < n; i++)
		if (!isdigit((unsigned char)t[i]))
			return false;
	return true;
}

/* A token with its digit runs replaced by '#': "(0," and "(3840," agree. */
static void shape(const char *t, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < outlen; i++) {
		if (isdigit((unsigned char)t[i])) {
			out[o++] = '#';
			while (i + 1 < n && isdigit((unsigned char)t[i + 1]))
				i++;
		} else {
			out[o++] = t[i];
		}
	}
	out[o] = '\0';
}

/*
 * Do two lines have the same layout?  Tokens are maximal runs of
 * non-blanks.  Words must be equal; numbers may differ, but the blanks
 * before a number must keep it in the same column: the same number of
 * blanks (left-aligned "%lu" after a label) or the same end column
 * (right-aligned "%6lu"); a fixture number too long for an 8-wide field
 * ("%8lu kB") may start the field.  Punctuated numbers ("(0,") compare by
 * shape.  Trailing blanks must match.
 */
static bool same_layout_line(const char *a, size_t alen, const char *b, size_t blen, char *why, size_t wl)
{
	size_t i = 0, j = 0;

	for (;;) {
		size_t wa = 0, wb = 0, ta, tb;
		const char *sa, *sb;

		while (i < alen && a[i] == ' ')
			i++, wa++;
		while (j < blen && b[j] == ' ')
			j++, wb++;
		if (i == alen || j == blen) {
			if (i == alen && j == blen && wa == wb)
				return true;
			snprintf(why, wl, "line ends differ");
			return false;
		}
		sa = a + i;
		sb = b + j;
		for (ta = 0; i < alen && a[i] != ' '; i++)
			ta++;
		for (tb = 0; j < blen && b[j] != ' '; j++)
			tb++;
		if (is_number(sa, ta) && is_number(sb, tb)) {
			if (wa != wb && wa + ta != wb + tb && !(ta > 8 && wb + tb == wa + 8) &&
			    !(tb > 8 && wa + ta == wb + 8)) {
				snprintf(why, wl, "number '%.*s' vs '%.*s' not aligned", (int)ta, sa, (int)tb, sb);
				return false;
			}
		} else {
			char x[128], y[128];

			shape(sa, ta, x, sizeof(x));
			shape(sb, tb, y, sizeof(y));
			if (wa != wb || strcmp(x, y) != 0) {
				snprintf(why, wl, "token '%.*s' vs '%.*s'", (int)ta, sa, (int)tb, sb);
				return false;
			}
		}
	}
}

/* Compare the first `lines` lines (all if 0) of fixture and model text. */
static int same_layout(const char *fix, const char *mod, int lines, char *why, size_t wl)
{
	int line = 1;

	while (*fix && (lines == 0 || line <= lines)) {
		const char *fe = strchr(fix, '\n'), *me = strchr(mod, '\n');
		char w[256];

		if (!fe || !me) {
			snprintf(why, wl, "line %d: %s", line, !me ? "model text ends early" : "no newline");
			return -1;
		}
		if (!same_layout_line(fix, (size_t)(fe - fix), mod, (size_t)(me - mod), w, sizeof(w))) {
			snprintf(why, wl, "line %d: %s\n  fixture: %.*s\n  model:   %.*s", line, w,
				 (int)(fe - fix), fix, (int)(me - mod), mod);
			return -1;
		}
		fix = fe + 1;
		mod = me + 1;
		line++;
	}
	if (lines == 0 && *mod) {
		snprintf(why, wl, "model has more lines than the fixture (line %d)", line);
		return -1;
	}
	return 0;
}

/* The fixture machine's shape: 2 CPUs, DMA + DMA32 + Normal populated. */
static struct machine *fixture_shaped(struct mm_env *e)
{
	static const char *const kv[] = { "memory=64m", "zones=DMA:4m,DMA32:12m,Normal:rest", "cpus=2", NULL };
	struct machine *m = mm_env_create(e, kv);

	if (!m)
		return NULL;
	/* some traffic so numbers of several widths appear */
	for (int i = 0; i < 200; i++) {
		pfn_t p = __alloc_pages(m, i % 3 ? GFP_KERNEL : GFP_HIGHUSER_MOVABLE, (unsigned)(i % 4), NULL);

		if (i % 5 == 0 && p != PFN_NONE)
			__free_pages(m, p, (unsigned)(i % 4));
	}
	return m;
}

static void check_layout(const char *fixture, void (*show)(const struct machine *, FILE *), int lines)
{
	struct mm_env e;
	struct machine *m = fixture_shaped(&e);
	char *fix = slurp(fixture), *mod;
	char why[1024];

	if (!m || !fix) {
		harness_fail(__FILE__, __LINE__, "setup: %s", !fix ? fixture : e.err);
		free(fix);
		mm_env_destroy(&e);
		return;
	}
	mod = mm_render(m, show);
	if (same_layout(fix, mod, lines, why, sizeof(why)))
		harness_fail(__FILE__, __LINE__, "%s: %s", fixture, why);
	free(fix);
	free(mod);
	mm_env_destroy(&e);
}

/* A test that the layout comparator itself rejects wrong layouts: a
 * misaligned column, a renamed counter, a missing line.  Expect each
 * mismatch found. */
TEST(layout_comparator_catches_mismatch)
{
	char why[256];

	ASSERT_EQ(same_layout("Node 0, zone      DMA      0      1 \n",
			      "Node 0, zone      DMA   1117   1445 \n", 0, why, sizeof(why)), 0);
	ASSERT_EQ(same_layout("Node 0, zone      DMA      0 \n",
			      "Node 0, zone      DMA     0 \n", 0, why, sizeof(why)), -1);
	ASSERT_EQ(same_layout("nr_free_pages 5\n", "nr_free_page 5\n", 0, why, sizeof(why)), -1);
	ASSERT_EQ(same_layout("a 1\nb 2\n", "a 1\n", 0, why, sizeof(why)), -1);
	ASSERT_EQ(same_layout("        protection: (0, 3019, 24090)\n",
			      "        protection: (0, 0, 7)\n", 0, why, sizeof(why)), 0);
	ASSERT_EQ(same_layout("x 1\n", "x 1\ny 2\n", 0, why, sizeof(why)), -1);
}

/* A test that /proc/buddyinfo is rendered in the kernel's layout.  Expect
 * the fixture's line structure and column alignment. */
TEST(layout_buddyinfo)
{
	check_layout(FIXTURES "buddyinfo", mm_show_buddyinfo, 0);
}

/* A test that /proc/pagetypeinfo is rendered in the kernel's layout (free
 * counts per migratetype and order, "Number of blocks type").  Expect the
 * fixture's layout. */
TEST(layout_pagetypeinfo)
{
	check_layout(FIXTURES "pagetypeinfo", mm_show_pagetypeinfo, 0);
}

/* A test that /proc/zoneinfo is rendered in the 6.18 layout (per-node
 * stats in the first populated zone, watermarks, protection, zone and NUMA
 * counters, pagesets with high_min/high_max, short blocks for empty
 * zones).  Expect the fixture's layout. */
TEST(layout_zoneinfo)
{
	check_layout(FIXTURES "zoneinfo", mm_show_zoneinfo, 0);
}

/* A test that /proc/meminfo is rendered in the 6.18 layout.  Expect the
 * fixture's layout. */
TEST(layout_meminfo)
{
	check_layout(FIXTURES "meminfo", mm_show_meminfo, 0);
}

/* A test that /proc/vmstat has the kernel's names in the 6.18 order, then
 * only sim_* lines.  Expect the fixture's 192 lines, then the model-only
 * counters, and the snapshot walking the same names in the same order. */
TEST(layout_vmstat)
{
	struct mm_env e;
	struct machine *m;
	char *mod, *p;
	int lines = 0;

	check_layout(FIXTURES "vmstat", mm_show_vmstat, 192);
	m = fixture_shaped(&e);
	ASSERT_TRUE(m != NULL);
	mod = mm_render(m, mm_show_vmstat);
	for (p = mod; *p; p = strchr(p, '\n') + 1) {
		if (++lines > 192)
			ASSERT_TRUE(strncmp(p, "sim_", 4) == 0);
	}
	ASSERT_EQ(lines, 192 + NR_SIM_STAT_ITEMS);
	free(mod);
	mm_env_destroy(&e);
}

struct name_list { const char *names[400]; int n; };

static void collect(void *ctx, const char *name, int64_t value)
{
	struct name_list *l = ctx;

	(void)value;
	if (l->n < 400)
		l->names[l->n++] = name;
}

/* A test that mm_vmstat_snapshot() yields what /proc/vmstat prints, in
 * order.  Expect equal name sequences and pgalloc_normal/pgfree values. */
TEST(snapshot_matches_render)
{
	struct mm_env e;
	struct machine *m = fixture_shaped(&e);
	struct name_list l = { .n = 0 };
	char *mod, *p;

	ASSERT_TRUE(m != NULL);
	mm_vmstat_snapshot(m, collect, &l);
	mod = mm_render(m, mm_show_vmstat);
	p = mod;
	for (int i = 0; i < l.n; i++) {
		size_t n = strlen(l.names[i]);

		ASSERT_TRUE(strncmp(p, l.names[i], n) == 0 && p[n] == ' ');
		p = strchr(p, '\n') + 1;
	}
	ASSERT_EQ(*p, '\0');
	ASSERT_TRUE(strstr(mod, "\npgfree ") != NULL);
	free(mod);
	mm_env_destroy(&e);
}

static struct machine *vm_machine(struct mm_env *e)
{
	static const char *const kv[] = { "memory=64m", "zones=Normal:rest", "cpus=2", NULL };

	return mm_env_create(e, kv);
}

/*
 * A test of __mod_zone_page_state folding (mod_node_page_state, mm/vmstat.c): the per-CPU s8 diff
 * absorbs updates until |diff| > threshold, then the whole value goes to
 * the zone and global counters.  Threshold set to 10.  Expect the cheap
 * read unchanged for 10 single-page increments and +11 at the 11th, the
 * snapshot always exact, and each CPU's diff separate.
 */
TEST(zone_state_fold_at_threshold)
{
	struct mm_env e;
	struct machine *m = vm_machine(&e);
	struct zone *z;
	unsigned long base;

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	z->per_cpu_zonestats[0].stat_threshold = 10;
	z->per_cpu_zonestats[1].stat_threshold = 10;
	base = zone_page_state(z, NR_ZONE_ACTIVE_FILE);
	for (int i = 1; i <= 10; i++) {
		__mod_zone_page_state(z, NR_ZONE_ACTIVE_FILE, 1);
		ASSERT_EQ(zone_page_state(z, NR_ZONE_ACTIVE_FILE), base);
		ASSERT_EQ(zone_page_state_snapshot(z, NR_ZONE_ACTIVE_FILE), base + (unsigned long)i);
	}
	__mod_zone_page_state(z, NR_ZONE_ACTIVE_FILE, 1);
	ASSERT_EQ(zone_page_state(z, NR_ZONE_ACTIVE_FILE), base + 11);
	ASSERT_EQ(global_zone_page_state(m, NR_ZONE_ACTIVE_FILE), base + 11);
	ASSERT_EQ(z->per_cpu_zonestats[0].vm_stat_diff[NR_ZONE_ACTIVE_FILE], 0);
	sim_set_engine_cpu(e.sim, 1);
	__mod_zone_page_state(z, NR_ZONE_ACTIVE_FILE, -5);
	ASSERT_EQ(z->per_cpu_zonestats[1].vm_stat_diff[NR_ZONE_ACTIVE_FILE], -5);
	ASSERT_EQ(zone_page_state_snapshot(z, NR_ZONE_ACTIVE_FILE), base + 6);
	__mod_zone_page_state(z, NR_ZONE_ACTIVE_FILE, -6);
	ASSERT_EQ(zone_page_state(z, NR_ZONE_ACTIVE_FILE), base);
	mm_env_destroy(&e);
}

/*
 * A test of the overstep rule of inc_node_state (mod_node_page_state, mm/vmstat.c): with
 * threshold t = 125, the first fold comes at the 126th increment and adds
 * 126 + 62, leaving the diff at -62; afterwards a fold every 188 (~1.5 t)
 * increments.  dec mirrors it.  Expect folds after 126, 314, 502
 * increments, and the node counter + diff always equal to the count.
 */
TEST(node_state_inc_overstep)
{
	struct mm_env e;
	struct machine *m = vm_machine(&e);
	pg_data_t *pgdat;
	int folds = 0;
	long last = 0;

	ASSERT_TRUE(m != NULL);
	pgdat = &m->node;
	pgdat->per_cpu_nodestats[0].stat_threshold = 125;
	for (int i = 1; i <= 502; i++) {
		inc_node_state(pgdat, NR_WRITTEN);
		if ((long)node_page_state(pgdat, NR_WRITTEN) != last) {
			folds++;
			last = (long)node_page_state(pgdat, NR_WRITTEN);
			ASSERT_TRUE(i == 126 || i == 314 || i == 502);
			ASSERT_EQ(pgdat->per_cpu_nodestats[0].vm_node_stat_diff[NR_WRITTEN], -62);
		}
		ASSERT_EQ(node_page_state_snapshot(pgdat, NR_WRITTEN), (unsigned long)i);
	}
	ASSERT_EQ(folds, 3);
	ASSERT_EQ(last, 502 + 62);
	dec_node_state(pgdat, NR_WRITTEN);
	ASSERT_EQ(node_page_state_snapshot(pgdat, NR_WRITTEN), 501);
	mm_env_destroy(&e);
}

/*
 * A test of what the O_DIRECT pin-accounting case measures: each
 * mod_node_page_state(NR_FOLL_PIN_ACQUIRED, 1) costs one per-CPU cmpxchg,
 * and every threshold+1 calls (overstep 0) a fold of two shared atomics.
 * Expect, for 1000 calls at threshold 125, exactly
 * 1000 x percpu_cmpxchg + 7 x 2 x atomic_shared ns charged, and an event
 * counter costing one per-CPU add with no fold.
 */
TEST(pin_accounting_costs)
{
	struct mm_env e;
	struct machine *m = vm_machine(&e);
	const struct cost_table *c;
	uint64_t ns;

	ASSERT_TRUE(m != NULL);
	c = sim_costs(e.sim);
	m->node.per_cpu_nodestats[0].stat_threshold = 125;
	ns = sim_engine_ns(e.sim);
	for (int i = 0; i < 1000; i++)
		mod_node_page_state(&m->node, NR_FOLL_PIN_ACQUIRED, 1);
	ASSERT_EQ(sim_engine_ns(e.sim) - ns,
		  cost_ns(c, COST_percpu_cmpxchg, 1000) + cost_ns(c, COST_atomic_shared, 14));
	ASSERT_EQ(node_page_state(&m->node, NR_FOLL_PIN_ACQUIRED), 7 * 126);
	ASSERT_EQ(node_page_state_snapshot(&m->node, NR_FOLL_PIN_ACQUIRED), 1000);
	ns = sim_engine_ns(e.sim);
	for (int i = 0; i < 1000; i++)
		count_vm_event(m, PGFAULT);
	ASSERT_EQ(sim_engine_ns(e.sim) - ns, cost_ns(c, COST_percpu_add, 1000));
	ASSERT_EQ(sum_vm_event(m, PGFAULT), 1000);
	mm_env_destroy(&e);
}

/*
 * A test of refresh_cpu_vm_stats (vmstat_update): one CPU's non-zero diffs
 * are folded into the zone, node and global counters, the other CPU's
 * stay.  Expect CPU 0's diffs 0, CPU 1's unchanged, cheap reads = exact
 * minus CPU 1's diffs, and a second refresh reporting no change.
 */
TEST(refresh_folds_one_cpu)
{
	struct mm_env e;
	struct machine *m = vm_machine(&e);
	struct zone *z;

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	sim_set_engine_cpu(e.sim, 0);
	__mod_zone_page_state(z, NR_MLOCK, 3);
	__mod_node_page_state(&m->node, NR_FILE_PAGES, 4);
	sim_set_engine_cpu(e.sim, 1);
	__mod_zone_page_state(z, NR_MLOCK, 2);
	ASSERT_EQ(zone_page_state(z, NR_MLOCK), 0);
	ASSERT_TRUE(refresh_cpu_vm_stats(m, 0, false));
	ASSERT_EQ(z->per_cpu_zonestats[0].vm_stat_diff[NR_MLOCK], 0);
	ASSERT_EQ(z->per_cpu_zonestats[1].vm_stat_diff[NR_MLOCK], 2);
	ASSERT_EQ(zone_page_state(z, NR_MLOCK), 3);
	ASSERT_EQ(global_zone_page_state(m, NR_MLOCK), 3);
	ASSERT_EQ(global_node_page_state(m, NR_FILE_PAGES), 4);
	ASSERT_EQ(zone_page_state_snapshot(z, NR_MLOCK), 5);
	ASSERT_FALSE(refresh_cpu_vm_stats(m, 0, false));
	vmstat_update(m, 1);
	ASSERT_EQ(zone_page_state(z, NR_MLOCK), 5);
	ASSERT_MM_OK(m);
	mm_env_destroy(&e);
}

/*
 * A test that event counters are per CPU and summed when read, never
 * folded, and that pgpgin/pgpgout print in KiB from sectors.  Expect
 * per-CPU values kept apart and the sums in /proc/vmstat.
 */
TEST(events_per_cpu)
{
	struct mm_env e;
	struct machine *m = vm_machine(&e);
	char *text;

	ASSERT_TRUE(m != NULL);
	sim_set_engine_cpu(e.sim, 0);
	__count_vm_events(m, PGPGIN, 10);
	count_vm_event(m, COMPACTSTALL);
	sim_set_engine_cpu(e.sim, 1);
	__count_vm_events(m, PGPGIN, 6);
	ASSERT_EQ(m->vm_event_states[PGPGIN], 10);
	ASSERT_EQ(m->vm_event_states[NR_VM_EVENT_ITEMS + PGPGIN], 6);
	ASSERT_EQ(sum_vm_event(m, PGPGIN), 16);
	text = mm_render(m, mm_show_vmstat);
	ASSERT_TRUE(strstr(text, "\npgpgin 8\n") != NULL);
	ASSERT_TRUE(strstr(text, "\ncompact_stall 1\n") != NULL);
	free(text);
	mm_env_destroy(&e);
}

/* A test of the kswapd pressure-threshold hook: set_pgdat_percpu_threshold
 * changes only zones with a percpu_drift_mark.  Expect no change without
 * a mark; with one, every CPU's threshold = calculate_pressure_threshold. */
TEST(pressure_threshold_hook)
{
	struct mm_env e;
	struct machine *m = vm_machine(&e);
	struct zone *z;
	int normal;

	ASSERT_TRUE(m != NULL);
	z = mm_zone(m, ZONE_NORMAL);
	normal = z->per_cpu_zonestats[0].stat_threshold;
	ASSERT_EQ(normal, calculate_normal_threshold(z));
	ASSERT_EQ(z->percpu_drift_mark, 0);
	set_pgdat_percpu_threshold(&m->node, calculate_pressure_threshold);
	ASSERT_EQ(z->per_cpu_zonestats[0].stat_threshold, normal);
	z->percpu_drift_mark = 1;
	set_pgdat_percpu_threshold(&m->node, calculate_pressure_threshold);
	ASSERT_EQ(z->per_cpu_zonestats[1].stat_threshold, calculate_pressure_threshold(z));
	set_pgdat_percpu_threshold(&m->node, calculate_normal_threshold);
	ASSERT_EQ(z->per_cpu_zonestats[1].stat_threshold, normal);
	mm_env_destroy(&e);
}
