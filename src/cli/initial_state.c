/* SPDX-License-Identifier: MIT */
/*
 * initial_state.c — [machine] initial_state=DIR: read a recorded snapshot
 * of a real kernel's memory into struct mm_initial_state (docs/initial-state.md).
 *
 * DIR is either
 *   - a `slowpath record` result folder: proc-pagetypeinfo and
 *     proc-buddyinfo (required), proc-meminfo, proc-vmstat (optional), in
 *     mmtests' monitor layout; the LAST sample of each is used, and the
 *     last buddyinfo and pagetypeinfo samples must carry the same time; or
 *   - a directory of plain copies: pagetypeinfo and buddyinfo (required),
 *     meminfo, vmstat (optional).
 * The parsers are report/procfs.c's; their "path:line" errors are rebased
 * to lines of the whole monitor file.
 *
 * What is taken from each file:
 *   pagetypeinfo  free blocks per zone, migratetype and order (the shape),
 *                 pageblocks per migratetype; nodes summed by zone name;
 *                 Isolate and CMA counted as Movable (isolation is
 *                 transient; CMA pageblocks hold only movable pages);
 *   buddyinfo     a check: per zone and order its count must match the sum
 *                 of pagetypeinfo's types within max(32 blocks, 10 %) —
 *                 the two files are read one after the other and
 *                 pagetypeinfo drops zone->lock between orders, so counts
 *                 that moved meanwhile differ a little; files of different
 *                 moments or machines differ by far more.  A pagetypeinfo
 *                 count of exactly 100000 is the kernel's cap (">100000"):
 *                 if one type is capped at an order, it gets buddyinfo's
 *                 count minus the other types';
 *   meminfo       the split of allocated memory: Active(file) +
 *                 Inactive(file) : Active(anon) + Inactive(anon) in
 *                 movable pageblocks, PageTables : SUnreclaim + KernelStack
 *                 in unmovable ones;
 *   vmstat        the same split when meminfo is missing (nr_*_file,
 *                 nr_*_anon, nr_page_table_pages, nr_slab_unreclaimable +
 *                 nr_kernel_stack); neither: movable content is page cache,
 *                 unmovable content kernel memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/initial_state.h"
#include "report/load.h"
#include "report/procfs.h"
#include "sim/xalloc.h"

#define PTYPE_CAP	100000	/* pagetypeinfo_showfree_print() stops counting here */

/* One recorded file: its text, or the text of its last sample. */
struct snap_file {
	char		*path;
	char		*whole;
	const char	*text;
	unsigned int	first_line;	/* line of text's first line in the file */
	double		time;
	bool		monitor;
	struct proc_monitor mon;
};

static void snap_release(struct snap_file *f)
{
	free(f->path);
	free(f->whole);
	if (f->monitor)
		proc_monitor_release(&f->mon);
	memset(f, 0, sizeof(*f));
}

/* "path:N: msg" from a parser of one sample -> line N + first_line - 1 of the file. */
static void rebase(char *err, size_t errlen, const struct snap_file *f)
{
	size_t pl = strlen(f->path);
	char *end, rest[1024];
	unsigned long rel;

	if (f->first_line <= 1 || strncmp(err, f->path, pl) != 0 || err[pl] != ':')
		return;
	rel = strtoul(err + pl + 1, &end, 10);
	if (end == err + pl + 1 || *end != ':')
		return;
	snprintf(rest, sizeof(rest), "%s", end);
	snprintf(err, errlen, "%s:%lu%s", f->path, rel + f->first_line - 1, rest);
}

/* 1 loaded, 0 absent (and optional), -1 error. */
static int snap_load(const char *dir, const char *name, bool monitor, bool required,
		     struct snap_file *f, char *err, size_t errlen)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	struct stat sb;

	memset(f, 0, sizeof(*f));
	f->path = xmalloc(n);
	snprintf(f->path, n, "%s/%s", dir, name);
	if (stat(f->path, &sb) != 0 && errno == ENOENT && !required)
		return 0;
	f->whole = rpt_read_file(f->path, NULL, err, errlen);
	if (!f->whole)
		return -1;
	f->text = f->whole;
	f->first_line = 1;
	if (!monitor)
		return 1;
	f->monitor = true;
	if (proc_parse_monitor(f->path, f->whole, &f->mon, err, errlen)) {
		f->monitor = false;
		return -1;
	}
	f->text = f->mon.s[f->mon.n - 1].text;
	f->first_line = f->mon.s[f->mon.n - 1].first_line;
	f->time = f->mon.s[f->mon.n - 1].time;
	return 1;
}

/*
 * Line (in the whole file) of the first "Node N, zone NAME" row, of the
 * given type when `type` is set (pagetypeinfo's free table); 0 if none.
 */
static unsigned int zone_line(const struct snap_file *f, int node, const char *zone, const char *type)
{
	unsigned int line = f->first_line;

	for (const char *p = f->text; *p; line++) {
		const char *nl = strchr(p, '\n');
		char z[32], t[32];
		int nd, used = 0;

		if (sscanf(p, "Node %d, zone %31[A-Za-z0-9_]%n", &nd, z, &used) == 2 && nd == node &&
		    strcmp(z, zone) == 0) {
			if (!type)
				return line;
			if (sscanf(p + used, ", type %31s", t) == 1 && strcmp(t, type) == 0)
				return line;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static unsigned int text_line(const struct snap_file *f, const char *prefix)
{
	unsigned int line = f->first_line;

	for (const char *p = f->text; *p; line++) {
		const char *nl = strchr(p, '\n');

		if (strncmp(p, prefix, strlen(prefix)) == 0)
			return line;
		if (!nl)
			break;
		p = nl + 1;
	}
	return f->first_line;
}

static int zone_index(const char *name)
{
	static const char *const names[] = { "DMA", "DMA32", "Normal", "Movable", "Device" };

	for (int i = 0; i < MM_IS_NR_ZONES; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* Migratetype of a pagetypeinfo column, folded as the header says; -1 unknown. */
static int type_index(const char *name)
{
	static const struct { const char *name; int mt; } map[] = {
		{ "Unmovable", MIGRATE_UNMOVABLE }, { "Movable", MIGRATE_MOVABLE },
		{ "Reclaimable", MIGRATE_RECLAIMABLE }, { "HighAtomic", MIGRATE_HIGHATOMIC },
		{ "Isolate", MIGRATE_MOVABLE }, { "CMA", MIGRATE_MOVABLE },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(name, map[i].name) == 0)
			return map[i].mt;
	return -1;
}

static uint64_t abs_diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* buddyinfo against pagetypeinfo, zone by zone and order by order. */
static int check_buddyinfo(const struct snap_file *bf, const struct proc_buddyinfo *bi,
			   const struct snap_file *pf, struct proc_pagetypeinfo *pi,
			   char *err, size_t errlen)
{
	for (unsigned int i = 0; i < bi->nr; i++) {
		const struct proc_buddyinfo_zone *b = &bi->z[i];
		struct proc_pagetypeinfo_zone *p = NULL;

		for (unsigned int j = 0; j < pi->nr && !p; j++)
			if (pi->z[j].node == b->node && strcmp(pi->z[j].zone, b->zone) == 0)
				p = &pi->z[j];
		if (!p)
			return rpt_errf(err, errlen, "%s:%u: node %d zone '%s' has no rows in %s", bf->path,
					zone_line(bf, b->node, b->zone, NULL), b->node, b->zone, pf->path);
		if (b->nr_orders != pi->nr_orders)
			return rpt_errf(err, errlen, "%s:%u: %u orders, but %s has %u", bf->path,
					zone_line(bf, b->node, b->zone, NULL), b->nr_orders, pf->path,
					pi->nr_orders);
		for (unsigned int o = 0; o < b->nr_orders; o++) {
			uint64_t sum = 0, others = 0, tol;
			int capped = -1, nr_capped = 0;

			for (unsigned int t = 0; t < pi->nr_types; t++) {
				sum += p->free[t][o];
				if (p->free[t][o] == PTYPE_CAP) {
					capped = (int)t;
					nr_capped++;
				} else {
					others += p->free[t][o];
				}
			}
			if (nr_capped == 1 && b->free[o] >= others + PTYPE_CAP) {
				p->free[capped][o] = b->free[o] - others;
				continue;
			}
			tol = (b->free[o] > sum ? b->free[o] : sum) / 10;
			if (tol < 32)
				tol = 32;
			if (abs_diff(b->free[o], sum) > tol)
				return rpt_errf(err, errlen, "%s:%u: node %d zone '%s' order %u: %" PRIu64
						" free blocks, but %s:%u counts %" PRIu64 " over its migrate "
						"types; the files disagree by more than reads one after the "
						"other explain (32 blocks or 10 %%): were they taken at the "
						"same time, on the same machine?", bf->path,
						zone_line(bf, b->node, b->zone, NULL), b->node, b->zone, o,
						b->free[o], pf->path,
						zone_line(pf, p->node, p->zone, pi->types[0]), sum);
		}
	}
	for (unsigned int j = 0; j < pi->nr; j++) {
		bool found = false;

		for (unsigned int i = 0; i < bi->nr && !found; i++)
			found = bi->z[i].node == pi->z[j].node && strcmp(bi->z[i].zone, pi->z[j].zone) == 0;
		if (!found)
			return rpt_errf(err, errlen, "%s:%u: node %d zone '%s' has no row in %s", pf->path,
					zone_line(pf, pi->z[j].node, pi->z[j].zone, pi->types[0]),
					pi->z[j].node, pi->z[j].zone, bf->path);
	}
	return 0;
}

static int64_t get(const struct rpt_counters *c, const char *name)
{
	bool found;
	int64_t v = rpt_counters_get(c, name, &found);

	return found && v > 0 ? v : 0;
}

/* The split of allocated memory from meminfo (kB) or vmstat (pages). */
static int read_split(const char *dir, bool record, struct mm_initial_state *st, char *err,
		      size_t errlen)
{
	struct snap_file f;
	struct rpt_counters c = { 0 };
	int rc = snap_load(dir, record ? "proc-meminfo" : "meminfo", record, false, &f, err, errlen);

	if (rc > 0) {
		if (proc_parse_meminfo(f.path, f.text, &c, err, errlen)) {
			rebase(err, errlen, &f);
			rc = -1;
		} else {
			st->file = (uint64_t)(get(&c, "Active(file)") + get(&c, "Inactive(file)"));
			st->anon = (uint64_t)(get(&c, "Active(anon)") + get(&c, "Inactive(anon)"));
			st->pgtable = (uint64_t)get(&c, "PageTables");
			st->kernel = (uint64_t)(get(&c, "SUnreclaim") + get(&c, "KernelStack"));
		}
		rpt_counters_release(&c);
		snap_release(&f);
		return rc < 0 ? -1 : 0;
	}
	snap_release(&f);
	if (rc < 0)
		return -1;
	rc = snap_load(dir, record ? "proc-vmstat" : "vmstat", record, false, &f, err, errlen);
	if (rc > 0) {
		if (proc_parse_vmstat(f.path, f.text, &c, err, errlen)) {
			rebase(err, errlen, &f);
			rc = -1;
		} else {
			st->file = (uint64_t)(get(&c, "nr_active_file") + get(&c, "nr_inactive_file"));
			st->anon = (uint64_t)(get(&c, "nr_active_anon") + get(&c, "nr_inactive_anon"));
			st->pgtable = (uint64_t)get(&c, "nr_page_table_pages");
			st->kernel = (uint64_t)(get(&c, "nr_slab_unreclaimable") +
						get(&c, "nr_kernel_stack") / 4);	/* kB */
		}
		rpt_counters_release(&c);
	}
	snap_release(&f);
	return rc < 0 ? -1 : 0;
}

int scn_initial_state_read(const char *dir, struct mm_initial_state *st, char *err, size_t errlen)
{
	struct snap_file pf, bf;
	struct proc_pagetypeinfo *pi = NULL;
	struct proc_buddyinfo *bi = NULL;
	struct stat sb;
	char probe[4096];
	bool record;
	int rc = -1, mt_of[PROC_MAX_MT];

	memset(st, 0, sizeof(*st));
	memset(&pf, 0, sizeof(pf));
	memset(&bf, 0, sizeof(bf));
	if (stat(dir, &sb) != 0) {
		rpt_errf(err, errlen, "initial_state '%s': %s", dir, strerror(errno));
		return -2;
	}
	if (!S_ISDIR(sb.st_mode)) {
		rpt_errf(err, errlen, "initial_state '%s': not a directory (a `slowpath record` folder "
			 "or a directory with copies of /proc/buddyinfo and /proc/pagetypeinfo)", dir);
		return -2;
	}
	snprintf(probe, sizeof(probe), "%s/proc-pagetypeinfo", dir);
	record = stat(probe, &sb) == 0;
	snprintf(probe, sizeof(probe), "%s/pagetypeinfo", dir);
	if (!record && stat(probe, &sb) != 0) {
		rpt_errf(err, errlen, "initial_state '%s': neither a `slowpath record` folder "
			 "(no proc-pagetypeinfo) nor a directory of /proc copies (no pagetypeinfo)", dir);
		return -2;
	}
	if (snap_load(dir, record ? "proc-pagetypeinfo" : "pagetypeinfo", record, true, &pf, err,
		      errlen) < 0 ||
	    snap_load(dir, record ? "proc-buddyinfo" : "buddyinfo", record, true, &bf, err, errlen) < 0)
		goto out;
	if (record && pf.time != bf.time) {
		rpt_errf(err, errlen, "%s:%u: the last sample is at time %.3f, but the last one of %s:%u "
			 "is at %.3f: the folder's last sample is incomplete", bf.path, bf.first_line - 1,
			 bf.time, pf.path, pf.first_line - 1, pf.time);
		goto out;
	}
	pi = xzalloc(sizeof(*pi));
	bi = xzalloc(sizeof(*bi));
	if (proc_parse_pagetypeinfo(pf.path, pf.text, pi, err, errlen)) {
		rebase(err, errlen, &pf);
		goto out;
	}
	if (proc_parse_buddyinfo(bf.path, bf.text, bi, err, errlen)) {
		rebase(err, errlen, &bf);
		goto out;
	}
	if (pi->pageblock_order != PAGEBLOCK_ORDER) {
		rpt_errf(err, errlen, "%s:%u: page block order %u, the model's is %d (4 KiB pages, "
			 "2 MiB pageblocks)", pf.path, text_line(&pf, "Page block order:"),
			 pi->pageblock_order, PAGEBLOCK_ORDER);
		goto out;
	}
	if (pi->nr_orders > NR_PAGE_ORDERS) {
		rpt_errf(err, errlen, "%s:%u: %u orders, the model has %d (MAX_PAGE_ORDER %d)", pf.path,
			 text_line(&pf, "Free pages count"), pi->nr_orders, NR_PAGE_ORDERS, MAX_PAGE_ORDER);
		goto out;
	}
	for (unsigned int t = 0; t < pi->nr_types; t++) {
		mt_of[t] = type_index(pi->types[t]);
		if (mt_of[t] < 0) {
			rpt_errf(err, errlen, "%s:%u: unknown migrate type '%s' (expected Unmovable, Movable, "
				 "Reclaimable, HighAtomic, Isolate or CMA)", pf.path,
				 text_line(&pf, "Number of blocks type"), pi->types[t]);
			goto out;
		}
	}
	if (check_buddyinfo(&bf, bi, &pf, pi, err, errlen))
		goto out;
	snprintf(st->source, sizeof(st->source), "%s", pf.path);
	for (unsigned int j = 0; j < pi->nr; j++) {
		const struct proc_pagetypeinfo_zone *p = &pi->z[j];
		int z = zone_index(p->zone);
		struct mm_initial_state_zone *sz;

		if (z < 0) {
			rpt_errf(err, errlen, "%s:%u: unknown zone '%s' (the model has DMA, DMA32, Normal, "
				 "Movable)", pf.path, zone_line(&pf, p->node, p->zone, pi->types[0]),
				 p->zone);
			goto out;
		}
		sz = &st->zone[z];
		if (!sz->present) {
			sz->present = true;
			snprintf(sz->where, sizeof(sz->where), "%s:%u", pf.path,
				 zone_line(&pf, p->node, p->zone, pi->types[0]));
		}
		for (unsigned int t = 0; t < pi->nr_types; t++) {
			sz->blocks[mt_of[t]] += p->blocks[t];
			for (unsigned int o = 0; o < pi->nr_orders; o++)
				sz->free[mt_of[t]][o] += p->free[t][o];
		}
	}
	/* a zone with no pageblocks at all is not populated (ZONE_DEVICE, an
	 * empty Movable): pagetypeinfo prints only populated zones anyway */
	for (int z = 0; z < MM_IS_NR_ZONES; z++) {
		uint64_t blocks = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			blocks += st->zone[z].blocks[mt];
		if (!blocks)
			st->zone[z].present = false;
	}
	rc = read_split(dir, record, st, err, errlen);
out:
	free(pi);
	free(bi);
	snap_release(&pf);
	snap_release(&bf);
	return rc;
}
