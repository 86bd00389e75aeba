/* SPDX-License-Identifier: MIT */
/*
 * gup.h — pinning user pages for DMA (mm/gup.c, Linux 6.12; FOLL_PIN accounting, mm/gup.c):
 * get_user_pages_fast / pin_user_pages_fast and their release, on a
 * user buffer, with the kernel's FOLL_PIN accounting selectable per
 * machine ([machine] foll_pin_accounting).
 *
 * The accounting modes (enum foll_pin_accounting; docs/fio.md says more):
 *
 *   node    6.3 .. 6.12 (and later as far as known): every pin and every
 *           unpin calls node_stat_mod_folio(NR_FOLL_PIN_ACQUIRED/RELEASED)
 *           = mod_node_page_state(): a per-CPU cmpxchg on an s8 diff that
 *           folds into two shared atomics when it passes the threshold
 *   none    before 6.3: block O_DIRECT took plain references (FOLL_GET,
 *           iov_iter_get_pages2 -> get_user_pages_fast) and put_page() at
 *           completion; nothing counted
 *   nostat  FOLL_PIN as in `node` with the two node_stat calls removed:
 *           Jens Axboe's experiment that restored performance, and the
 *           CONFIG_DEBUG_VM-only proposal with DEBUG_VM off (not merged)
 *   percpu  FOLL_PIN, the counts kept as event-style per-CPU counters:
 *           one this_cpu_add per pin/unpin, never folded, summed when
 *           /proc/vmstat is read (a hypothetical alternative)
 */
#ifndef SLOWPATH_MM_GUP_H
#define SLOWPATH_MM_GUP_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/types.h"

struct machine;

/* The zero value is the 6.12 behaviour, the model's reference. */
enum foll_pin_accounting {
	FOLL_PIN_ACCT_NODE,
	FOLL_PIN_ACCT_NONE,
	FOLL_PIN_ACCT_NOSTAT,
	FOLL_PIN_ACCT_PERCPU,
	NR_FOLL_PIN_ACCT
};

/* Option names, index = enum value, NULL-terminated: "node", "none", ... */
extern const char *const foll_pin_accounting_names[NR_FOLL_PIN_ACCT + 1];

/* FOLL_* (include/linux/mm_types.h; FOLL_PIN is mm/internal.h), 6.12 values. */
#define FOLL_WRITE	(1u << 0)
#define FOLL_GET	(1u << 1)
#define FOLL_LONGTERM	(1u << 8)
#define FOLL_PIN	(1u << 19)

/* include/linux/mm.h: a pin of a small folio adds this to its refcount. */
#define GUP_PIN_COUNTING_BIAS	(1u << 10)

/*
 * struct user_buffer — a process's buffer as GUP-fast walks it: nr_pages
 * virtually contiguous pages, PTE-mapped to order-0 folios or PMD-mapped
 * to 2 MiB folios (folio_order HPAGE_PMD_ORDER).  It stands in for the VMA
 * and its page tables until the processes model exists, and it owns the
 * folio fields struct page cannot hold (types.h): _refcount and _pincount.
 *
 *   page index:  0 1 2 3 4 5 ...          (user address = start + i*4 KiB)
 *   folio:       folio_of(i) = i >> folio_order
 *   frame:       folio_pfn[folio] + (i & (folio_nr_pages - 1))
 *
 * Simplification: order-0 buffers are allocated as whole blocks of up to
 * MAX_PAGE_ORDER (typed PGTY_ALLOC, not compound) and every page in them
 * counts as its own order-0 folio, as page-by-page anon faults would give;
 * one allocation per block instead of one per page keeps job start cheap
 * (and mm_check in debug builds).  No LRU, no rmap, no anon accounting.
 */
struct user_buffer {
	unsigned long	nr_pages;
	unsigned int	folio_order;	/* 0 or HPAGE_PMD_ORDER */
	unsigned long	nr_folios;
	pfn_t		*folio_pfn;	/* [nr_folios] head frame of each folio */
	int32_t		*refcount;	/* [nr_folios] folio->_refcount (1 = the mapping's) */
	int32_t		*pincount;	/* [nr_folios] folio->_pincount (large folios only) */
	unsigned int	block_order;	/* order of each allocated block */
	unsigned long	nr_blocks;
	pfn_t		*block_pfn;	/* [nr_blocks] */
};

/*
 * Allocate nr_pages of buffer (GFP_HIGHUSER_MOVABLE, typed PGTY_ALLOC) on
 * the current CPU.  Returns 0, or -ENOMEM (nothing left allocated).
 */
int user_buffer_alloc(struct machine *m, struct user_buffer *ub, unsigned long nr_pages,
		      unsigned int folio_order);
/* Free the buffer; a folio still pinned or referenced is a bug. */
void user_buffer_free(struct machine *m, struct user_buffer *ub);
/* Free only the host memory of the record (the machine is already gone,
 * e.g. a run that stopped with I/O in flight). */
void user_buffer_discard(struct user_buffer *ub);

static inline unsigned long user_folio_of(const struct user_buffer *ub, unsigned long page)
{
	return page >> ub->folio_order;
}

static inline bool user_folio_large(const struct user_buffer *ub)
{
	return ub->folio_order > 0;
}

/*
 * pin_user_pages_fast(start, nr_pages, gup_flags, pages) (6.12) with
 * start = page `first` of the buffer: GUP-fast over the range, FOLL_PIN
 * added to gup_flags (FOLL_WRITE when the device writes the pages, i.e.
 * for reads).  Returns the number of pages pinned (all of them: the
 * buffer is always mapped and writable, so the slow path never runs).
 * get_user_pages_fast() is the same walk with FOLL_GET (plain references,
 * never counted).
 */
long pin_user_pages_fast(struct machine *m, struct user_buffer *ub, unsigned long first,
			 unsigned long nr_pages, unsigned int gup_flags);
long get_user_pages_fast(struct machine *m, struct user_buffer *ub, unsigned long first,
			 unsigned long nr_pages, unsigned int gup_flags);

/* unpin_user_folio(folio, npages), unpin_user_page(page) and
 * unpin_user_pages(pages, npages) for a contiguous run (6.12). */
void unpin_user_folio(struct machine *m, struct user_buffer *ub, unsigned long folio,
		      unsigned long npages);
void unpin_user_page(struct machine *m, struct user_buffer *ub, unsigned long page);
void unpin_user_pages(struct machine *m, struct user_buffer *ub, unsigned long first,
		      unsigned long nr_pages);
/* put_page() for a FOLL_GET reference (the pre-6.3 bio_release_pages). */
void put_page(struct machine *m, struct user_buffer *ub, unsigned long page);

/* folio_maybe_dma_pinned() (include/linux/mm.h, 6.12). */
bool folio_maybe_dma_pinned(const struct user_buffer *ub, unsigned long folio);

#endif /* SLOWPATH_MM_GUP_H */
