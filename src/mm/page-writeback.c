/* SPDX-License-Identifier: MIT */
/*
 * page-writeback.c — dirty and writeback folio accounting, dirty limits
 * and writer throttling (mm/page-writeback.c, Linux 6.12).  See
 * writeback.h for the folio life cycle and the counters.
 *
 * Dirty limits (global_dirty_limits, domain_dirty_limits):
 *   dirtyable = free pages - totalreserve_pages + active file + inactive file
 *   thresh    = vm.dirty_ratio * PAGE_SIZE / 100 * dirtyable / PAGE_SIZE
 *   bg_thresh = vm.dirty_background_ratio ... (halved if >= thresh)
 * These are what /proc/vmstat prints as nr_dirty_threshold and
 * nr_dirty_background_threshold.
 *
 * Writer throttling (balance_dirty_pages), simplified:
 *   1. A task runs it after dirtying nr_dirtied_pause pages (starting at
 *      32, the kernel's initial nr_dirtied_pause; afterwards
 *      dirty_poll_interval() = 2^(ilog2(thresh - dirty)/2) in free run).
 *   2. dirty = NR_FILE_DIRTY + NR_WRITEBACK.  Above bg_thresh the device's
 *      flusher is asked for background writeback.
 *   3. At or below the free-run ceiling (thresh + bg_thresh)/2 the task
 *      continues.
 *   4. Above it the task sleeps pages_dirtied / task_ratelimit, where
 *      task_ratelimit = write bandwidth x pos_ratio and pos_ratio is the
 *      kernel's global control line: 1 + ((setpoint - dirty) /
 *      (limit - setpoint + 1))^3, clamped to [0, 2], setpoint = (freerun +
 *      limit)/2.  The pause is capped at MAX_PAUSE (200 ms); pauses below
 *      1 ms are skipped (the kernel's min_pause accumulates them).
 *   5. Loop until dirty is below the limit or the pause was served.
 *   Simplified away: the per-wb (bdi) control line and wb_thresh, the
 *   adaptive dirty_ratelimit (the model uses the device's measured write
 *   bandwidth as if there were a single dirtier, so N concurrent writers
 *   are throttled harder only by the hard limit), memcg domains,
 *   strictlimit, laptop mode, the *_bytes sysctls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mm/fs.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/pagemap.h"
#include "mm/swap.h"
#include "mm/vmstat.h"
#include "mm/vmscan.h"
#include "mm/writeback.h"
#include "mm/writeback_internal.h"

#define MAX_PAUSE_NS	(200 * SIM_NSEC_PER_MSEC)	/* MAX_PAUSE = HZ/5 */
#define MIN_PAUSE_NS	(1 * SIM_NSEC_PER_MSEC)

struct wb_domain *wb_domain_get(struct machine *m)
{
	if (!m->wb_domain) {
		m->wb_domain = calloc(1, sizeof(*m->wb_domain));
		if (!m->wb_domain)
			SIM_BUG("out of memory for the writeback domain");
	}
	return m->wb_domain;
}

void writeback_release(struct machine *m)
{
	struct wb_domain *dom = m->wb_domain;

	if (!dom)
		return;
	wb_release_all(m, dom);
	free(dom->task_dirtied);
	free(dom->task_pause);
	free(dom);
	m->wb_domain = NULL;
}

/* ---- folio states ------------------------------------------------------------- */

/* folio_account_dirtied() (6.12). */
static void folio_account_dirtied(struct machine *m, pfn_t pfn, long nr)
{
	__mod_node_page_state(&m->node, NR_FILE_DIRTY, nr);
	__mod_zone_page_state(page_zone(m, pfn), NR_ZONE_WRITE_PENDING, nr);
	__mod_node_page_state(&m->node, NR_DIRTIED, nr);
}

bool folio_mark_dirty_range(struct machine *m, pfn_t pfn, unsigned int first, unsigned int end)
{
	struct page *page = pfn_to_page(m, pfn);
	struct address_space *mapping = page_mapping_of(m, pfn);
	long nr = (long)folio_nr_pages(page);
	struct inode *inode;

	SIM_ASSERT(first < end && end <= (unsigned long)nr);
	if (nr > 1) {			/* the range lives in the first tail page */
		struct page *t = pfn_to_page(m, pfn + 1);

		if (!(page->flags & PG_dirty)) {
			t->next = first;
			t->prev = end;
		} else {
			if (first < t->next)
				t->next = first;
			if (end > t->prev)
				t->prev = end;
		}
	}
	if (page->flags & PG_dirty)
		return false;
	page->flags |= PG_dirty;
	if (!mapping || !mapping_can_writeback(mapping))
		return true;		/* noop_dirty_folio (shmem) */
	folio_account_dirtied(m, pfn, nr);
	pagecache_tag_set(mapping, page->index, PAGECACHE_TAG_DIRTY);
	inode = mapping_inode(mapping);
	if (inode && !(inode->i_state & I_DIRTY_PAGES)) {
		inode->i_state |= I_DIRTY_PAGES;
		wb_inode_dirtied(m, inode);
	}
	return true;
}

bool folio_mark_dirty(struct machine *m, pfn_t pfn)
{
	return folio_mark_dirty_range(m, pfn, 0, folio_nr_pages(pfn_to_page(m, pfn)));
}

void folio_dirty_range(const struct machine *m, pfn_t pfn, unsigned int *first, unsigned int *end)
{
	const struct page *page = pfn_to_page(m, pfn);

	if (folio_nr_pages(page) == 1) {
		*first = 0;
		*end = 1;
		return;
	}
	*first = pfn_to_page(m, pfn + 1)->next;
	*end = pfn_to_page(m, pfn + 1)->prev;
}

bool folio_clear_dirty_for_io(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);

	if (!(page->flags & PG_dirty))
		return false;
	page->flags &= (uint8_t)~PG_dirty;
	return true;
}

/* __folio_start_writeback() (6.12): the folio was dirty (its PG_dirty
 * was just cleared by folio_clear_dirty_for_io); move its accounting. */
void folio_start_writeback(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	struct address_space *mapping = page_mapping_of(m, pfn);
	long nr = (long)folio_nr_pages(page);

	SIM_ASSERT(mapping && !(page->flags & (PG_writeback | PG_dirty)));
	page->flags |= PG_writeback;
	pagecache_tag_clear(mapping, page->index, PAGECACHE_TAG_DIRTY);
	pagecache_tag_set(mapping, page->index, PAGECACHE_TAG_WRITEBACK);
	__mod_node_page_state(&m->node, NR_FILE_DIRTY, -nr);
	__mod_node_page_state(&m->node, NR_WRITEBACK, nr);
}

void folio_end_writeback(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	struct address_space *mapping = page_mapping_of(m, pfn);
	long nr = (long)folio_nr_pages(page);

	SIM_ASSERT(mapping && (page->flags & PG_writeback));
	if (page->flags & PG_reclaim) {
		page->flags &= (uint8_t)~PG_reclaim;
		folio_rotate_reclaimable(m, pfn);
	}
	page->flags &= (uint8_t)~PG_writeback;
	pagecache_tag_clear(mapping, page->index, PAGECACHE_TAG_WRITEBACK);
	__mod_node_page_state(&m->node, NR_WRITEBACK, -nr);
	__mod_zone_page_state(page_zone(m, pfn), NR_ZONE_WRITE_PENDING, -nr);
	__mod_node_page_state(&m->node, NR_WRITTEN, nr);
	mm_charge(m, COST_end_writeback_folio, 1);
	if (sim_waitq_active(&mapping->writeback_wait))
		sim_wake_all(m->sim, &mapping->writeback_wait);
	/* slowpath glue: folio_end_writeback -> acct_reclaim_writeback()
	 * wakes reclaimers throttled on VMSCAN_THROTTLE_WRITEBACK (vmscan.c) */
	acct_reclaim_writeback(m, pfn);
}

/* folio_cancel_dirty() -> folio_account_cleaned() (6.12). */
void folio_cancel_dirty(struct machine *m, pfn_t pfn)
{
	struct page *page = pfn_to_page(m, pfn);
	struct address_space *mapping = page_mapping_of(m, pfn);
	long nr = (long)folio_nr_pages(page);

	if (!(page->flags & PG_dirty))
		return;
	page->flags &= (uint8_t)~PG_dirty;
	if (!mapping || !mapping_can_writeback(mapping))
		return;
	pagecache_tag_clear(mapping, page->index, PAGECACHE_TAG_DIRTY);
	__mod_node_page_state(&m->node, NR_FILE_DIRTY, -nr);
	__mod_zone_page_state(page_zone(m, pfn), NR_ZONE_WRITE_PENDING, -nr);
}

void folio_wait_writeback(struct machine *m, pfn_t pfn)
{
	struct address_space *mapping = page_mapping_of(m, pfn);
	unsigned long index = pfn_to_page(m, pfn)->index;

	if (!mapping)
		return;
	sim_path_push(m->sim, "folio_wait_writeback");
	/* The folio may be freed and reused while we sleep; recheck by
	 * identity (same mapping, same index, still a head under writeback). */
	sim_wait_event_io(m->sim, &mapping->writeback_wait,
		      !(page_mapping_of(m, pfn) == mapping && pfn_to_page(m, pfn)->index == index &&
			(pfn_to_page(m, pfn)->flags & PG_writeback)));
	sim_path_pop(m->sim);
}

/* ---- dirty limits -------------------------------------------------------------- */

unsigned long global_dirtyable_memory(const struct machine *m)
{
	unsigned long x = global_zone_page_state(m, NR_FREE_PAGES);

	x -= x < m->totalreserve_pages ? x : m->totalreserve_pages;
	x += global_node_page_state(m, NR_INACTIVE_FILE);
	x += global_node_page_state(m, NR_ACTIVE_FILE);
	return x + 1;		/* never 0 */
}

/* domain_dirty_limits() for the global domain (no memcg, no *_bytes, not
 * an RT task). */
static void domain_dirty_limits(const struct machine *m, unsigned long avail,
				unsigned long *pbg, unsigned long *pthresh)
{
	unsigned long ratio = ((unsigned long)m->t.vm_dirty_ratio * PAGE_SIZE) / 100;
	unsigned long bg_ratio = ((unsigned long)m->t.dirty_background_ratio * PAGE_SIZE) / 100;
	unsigned long thresh = (ratio * avail) / PAGE_SIZE;
	unsigned long bg_thresh = (bg_ratio * avail) / PAGE_SIZE;

	if (thresh > UINT32_MAX)
		thresh = UINT32_MAX;
	if (bg_thresh >= thresh)
		bg_thresh = thresh / 2;
	*pbg = bg_thresh;
	*pthresh = thresh;
}

void global_dirty_limits(const struct machine *m, unsigned long *pbackground, unsigned long *pdirty)
{
	domain_dirty_limits(m, global_dirtyable_memory(m), pbackground, pdirty);
}

/* node_dirtyable_memory() + node_dirty_limit() + node_dirty_ok() (6.12):
 * consulted by get_page_from_freelist for __GFP_WRITE requests. */
bool node_dirty_ok(struct pglist_data *pgdat)
{
	struct machine *m = pgdat->machine;
	unsigned long nr_pages = 0, limit;

	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (populated_zone(zone))
			nr_pages += zone_page_state(zone, NR_FREE_PAGES);
	}
	nr_pages -= nr_pages < pgdat->totalreserve_pages ? nr_pages : pgdat->totalreserve_pages;
	nr_pages += node_page_state(pgdat, NR_INACTIVE_FILE);
	nr_pages += node_page_state(pgdat, NR_ACTIVE_FILE);
	limit = (unsigned long)m->t.vm_dirty_ratio * nr_pages / 100;
	if (limit > UINT32_MAX)
		limit = UINT32_MAX;
	return node_page_state(pgdat, NR_FILE_DIRTY) + node_page_state(pgdat, NR_WRITEBACK) <= limit;
}

/* ---- throttling --------------------------------------------------------------------- */

static unsigned int ilog2_ul(unsigned long x)
{
	return x ? 63u - (unsigned int)__builtin_clzl(x) : 0;
}

/* dirty_poll_interval() (6.12) */
static unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh)
{
	if (thresh > dirty)
		return 1UL << (ilog2_ul(thresh - dirty) >> 1);
	return 1;
}

/* The global control line of wb_position_ratio() (6.12), as a double
 * in [0, 2]. */
static double pos_ratio_global(unsigned long freerun, unsigned long limit, unsigned long dirty)
{
	double setpoint = ((double)freerun + (double)limit) / 2;
	double x, r;

	if (dirty >= limit)
		return 0;
	x = (setpoint - (double)dirty) / ((double)limit - setpoint + 1);
	r = 1 + x * x * x;
	return r < 0 ? 0 : r > 2 ? 2 : r;
}

static uint32_t *task_slot(struct machine *m, struct wb_domain *dom, uint32_t **arr, uint32_t id)
{
	if (id >= dom->nr_task_slots) {
		uint32_t n = dom->nr_task_slots ? dom->nr_task_slots : 64;

		while (n <= id)
			n *= 2;
		dom->task_dirtied = realloc(dom->task_dirtied, n * sizeof(uint32_t));
		dom->task_pause = realloc(dom->task_pause, n * sizeof(uint32_t));
		if (!dom->task_dirtied || !dom->task_pause)
			SIM_BUG("out of memory for dirty ratelimits");
		for (uint32_t i = dom->nr_task_slots; i < n; i++) {
			dom->task_dirtied[i] = 0;
			dom->task_pause[i] = 32;	/* initial nr_dirtied_pause */
		}
		dom->nr_task_slots = n;
	}
	(void)m;
	return &(*arr)[id];
}

/* balance_dirty_pages() (6.12), simplified as the file head says. */
static uint32_t balance_dirty_pages(struct machine *m, struct bdi_writeback *wb,
				    unsigned long pages_dirtied)
{
	uint32_t nr_dirtied_pause = 32;

	sim_path_push(m->sim, "balance_dirty_pages");
	for (;;) {
		unsigned long bg, thresh, freerun, dirty, bw;
		double pos;
		uint64_t pause;

		mm_charge(m, COST_balance_dirty, 1);
		dirty = global_node_page_state(m, NR_FILE_DIRTY) + global_node_page_state(m, NR_WRITEBACK);
		global_dirty_limits(m, &bg, &thresh);
		freerun = (thresh + bg) / 2;
		if (wb && dirty > bg)
			wb_start_background_writeback(m, wb);
		if (dirty <= freerun) {
			unsigned long iv = dirty_poll_interval(dirty, thresh);

			nr_dirtied_pause = (uint32_t)(iv > UINT32_MAX ? UINT32_MAX : iv);
			break;
		}
		bw = wb ? wb_write_bandwidth(wb) : 0;
		pos = pos_ratio_global(freerun, thresh, dirty);
		if (bw == 0 || pos <= 0)
			pause = MAX_PAUSE_NS;
		else {
			double ns = (double)pages_dirtied / ((double)bw * pos) * 1e9;

			pause = ns >= (double)MAX_PAUSE_NS ? MAX_PAUSE_NS : (uint64_t)ns;
		}
		if (pause < MIN_PAUSE_NS && dirty < thresh)
			break;
		sim_stat_inc(m, SIM_DIRTY_THROTTLE);
		sim_stat_add(m, SIM_DIRTY_THROTTLE_MS, pause / SIM_NSEC_PER_MSEC);
		if (wb)		/* bdi->last_bdp_sleep, which wbt reads */
			bdev_wbt_bdp_sleep(m->sim, wb->bdev);
		sim_sleep(m->sim, pause);
		dirty = global_node_page_state(m, NR_FILE_DIRTY) + global_node_page_state(m, NR_WRITEBACK);
		global_dirty_limits(m, &bg, &thresh);
		if (dirty < thresh)
			break;		/* served a pause and under the limit */
	}
	sim_path_pop(m->sim);
	return nr_dirtied_pause;
}

void balance_dirty_pages_ratelimited(struct machine *m, struct address_space *mapping)
{
	struct wb_domain *dom = wb_domain_get(m);
	struct sim_task *t = sim_current(m->sim);
	struct inode *inode = mapping_inode(mapping);
	uint32_t id, n, pause;

	if (!t || !mapping_can_writeback(mapping))
		return;
	id = sim_task_id(t);
	n = *task_slot(m, dom, &dom->task_dirtied, id);
	if (n < *task_slot(m, dom, &dom->task_pause, id))
		return;
	*task_slot(m, dom, &dom->task_dirtied, id) = 0;
	/* the arrays may grow while this task sleeps: index again after */
	pause = balance_dirty_pages(m, inode ? inode->i_sb->wb : NULL, n);
	*task_slot(m, dom, &dom->task_pause, id) = pause;
}

/* Called by the dirtying paths (iomap.c) with the pages the current task
 * dirtied, the kernel's current->nr_dirtied += nr in folio_account_dirtied. */
void wb_task_dirtied(struct machine *m, unsigned long nr)
{
	struct wb_domain *dom = wb_domain_get(m);
	struct sim_task *t = sim_current(m->sim);
	uint32_t *d;

	if (!t)
		return;
	d = task_slot(m, dom, &dom->task_dirtied, sim_task_id(t));
	*d = (uint32_t)(*d + nr > UINT32_MAX ? UINT32_MAX : *d + nr);
}
