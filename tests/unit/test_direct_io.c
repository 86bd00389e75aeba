/* SPDX-License-Identifier: MIT */
/* test_direct_io.c — the kernel side of O_DIRECT to a raw block device
 * (mm/direct-io.c): which GUP flavour each mode uses, what completion
 * releases, and the CPU cost of each step to the nanosecond. */
#include "mm_test.h"
#include "mm/direct-io.h"

struct dio_env {
	struct mm_env	e;
	struct machine	*m;
	struct bdev	*bdev;
	struct user_buffer ub;
	int		done;
};

static int dio_env_create(struct dio_env *d, const char *mode)
{
	char acct[64];
	const char *kv[] = { "memory=64m", "zones=Normal:rest", "cpus=2", acct, NULL };
	struct bdev_config bc = { .name = "nvme0", .lat_mean_ns = 10000, .members = 1 };

	memset(d, 0, sizeof(*d));
	snprintf(acct, sizeof(acct), "foll_pin_accounting=%s", mode);
	d->m = mm_env_create(&d->e, kv);
	if (!d->m)
		return -1;
	d->m->node.per_cpu_nodestats[0].stat_threshold = 125;
	d->bdev = bdev_create(d->e.sim, &bc);
	return user_buffer_alloc(d->m, &d->ub, 64, 0);
}

static void dio_env_destroy(struct dio_env *d)
{
	user_buffer_free(d->m, &d->ub);
	mm_env_destroy(&d->e);
}

static void dio_end(struct sim *sim, void *arg, int error)
{
	(void)sim;
	(void)error;
	((struct dio_env *)arg)->done++;
}

/* One request submitted and completed in engine context; the ns charged
 * at submission and at completion. */
static void dio_once(struct dio_env *d, struct dio *dio, uint64_t *sub_ns, uint64_t *comp_ns)
{
	uint64_t t0 = sim_engine_ns(d->e.sim);
	sim_time_t done = blkdev_direct_IO_async(d->m, d->bdev, dio, dio_end, d);

	*sub_ns = sim_engine_ns(d->e.sim) - t0;
	sim_run(d->e.sim, done);
	t0 = sim_engine_ns(d->e.sim);
	blkdev_dio_complete(d->m, dio);
	*comp_ns = sim_engine_ns(d->e.sim) - t0;
}

/*
 * A test of a 4 KiB libaio read under each accounting mode, to the
 * nanosecond (one small page; the first update of each counter, so no
 * fold).  Submission: io_submit_one, bio_alloc, the GUP call around
 * gup_fast (walk, PTE, try_get + referenced; FOLL_PIN adds the bias
 * atomic, a barrier and the accounting), bio_add_page, bio_set_pages_dirty
 * (one folio: iterator + lock + unlock), submit_bio.  Completion: the
 * interrupt, aio_complete, bio_check_pages_dirty (one folio), the release
 * (iterator + unpin or put_page).  Expect those sums, the device called
 * back once at the completion time returned, BIO_PAGE_PINNED
 * (BIO_PAGE_REFFED for none) and the buffer's reference back to 1.
 */
TEST(read_costs_per_mode)
{
	for (int mode = 0; mode < NR_FOLL_PIN_ACCT; mode++) {
		struct dio_env d;
		struct dio dio;
		const struct cost_table *c;
		uint64_t sub, comp, want_sub, want_comp, acct = 0;

		ASSERT_EQ(dio_env_create(&d, foll_pin_accounting_names[mode]), 0);
		c = sim_costs(d.e.sim);
		dio = (struct dio){ .ub = &d.ub, .first_page = 5, .nr_pages = 1, .op = BIO_READ,
				    .offset = 8192, .len = 4096, .iface = DIO_LIBAIO };
		if (mode == FOLL_PIN_ACCT_NODE)
			acct = cost_ns(c, COST_percpu_cmpxchg, 1);
		else if (mode == FOLL_PIN_ACCT_PERCPU)
			acct = cost_ns(c, COST_percpu_add, 1);
		want_sub = cost_ns(c, COST_aio_submit_one, 1) + cost_ns(c, COST_bio_alloc, 1) +
			   cost_ns(c, COST_iov_iter_extract, 1) + cost_ns(c, COST_gup_fast_walk, 1) +
			   cost_ns(c, COST_gup_fast_pte, 1) + cost_ns(c, COST_atomic_local, 2) +
			   cost_ns(c, COST_bio_add_page, 1) + cost_ns(c, COST_bio_folio_iter, 1) +
			   cost_ns(c, COST_atomic_local, 2) + cost_ns(c, COST_submit_bio, 1);
		want_comp = cost_ns(c, COST_blk_mq_complete_irq, 1) + cost_ns(c, COST_aio_complete, 1) +
			    cost_ns(c, COST_bio_folio_iter, 2) + cost_ns(c, COST_atomic_local, 1);
		if (mode != FOLL_PIN_ACCT_NONE) {
			want_sub += cost_ns(c, COST_atomic_local, 1) + cost_ns(c, COST_smp_mb, 1) + acct;
			want_comp += acct;
		}
		dio_once(&d, &dio, &sub, &comp);
		ASSERT_U64_EQ(sub, want_sub);
		ASSERT_U64_EQ(comp, want_comp);
		ASSERT_EQ(d.done, 1);
		ASSERT_EQ(dio.pages_grabbed, 1);
		ASSERT_EQ(d.ub.refcount[5], 1);
		ASSERT_EQ(mode == FOLL_PIN_ACCT_NONE ? d.m->gup_put : d.m->gup_unpinned, 1);
		dio_env_destroy(&d);
	}
}

/*
 * A test of the state a request holds between submission and
 * completion: a 16 KiB read pins four pages (refcount 1 + 1024 each) and
 * flags the bio BIO_PAGE_PINNED | DIO_SHOULD_DIRTY; a write pins without
 * the dirty flag; completion releases everything.  Expect exactly that.
 */
TEST(pins_held_while_in_flight)
{
	struct dio_env d;
	struct dio rd, wr;
	sim_time_t t1, t2;

	ASSERT_EQ(dio_env_create(&d, "node"), 0);
	rd = (struct dio){ .ub = &d.ub, .first_page = 0, .nr_pages = 4, .op = BIO_READ,
			   .offset = 0, .len = 16384, .iface = DIO_IO_URING };
	wr = (struct dio){ .ub = &d.ub, .first_page = 4, .nr_pages = 4, .op = BIO_WRITE,
			   .offset = 65536, .len = 16384, .iface = DIO_IO_URING };
	t1 = blkdev_direct_IO_async(d.m, d.bdev, &rd, dio_end, &d);
	t2 = blkdev_direct_IO_async(d.m, d.bdev, &wr, dio_end, &d);
	ASSERT_EQ(rd.flags, BIO_PAGE_PINNED | DIO_SHOULD_DIRTY);
	ASSERT_EQ(wr.flags, BIO_PAGE_PINNED);
	for (int p = 0; p < 8; p++)
		ASSERT_TRUE(folio_maybe_dma_pinned(&d.ub, (unsigned long)p));
	ASSERT_EQ(node_page_state_snapshot(&d.m->node, NR_FOLL_PIN_ACQUIRED), 8);
	sim_run(d.e.sim, t1 > t2 ? t1 : t2);
	ASSERT_EQ(d.done, 2);
	blkdev_dio_complete(d.m, &rd);
	blkdev_dio_complete(d.m, &wr);
	for (int p = 0; p < 8; p++)
		ASSERT_EQ(d.ub.refcount[p], 1);
	ASSERT_EQ(node_page_state_snapshot(&d.m->node, NR_FOLL_PIN_RELEASED), 8);
	dio_env_destroy(&d);
}

/*
 * A test of a registered buffer (io_uring fixedbufs: an ITER_BVEC
 * iterator): no GUP, no dirtying, nothing to release, under every mode.
 * Polled completion.  Expect submission = io_uring_sqe + bio_alloc +
 * submit_bio, completion = blk_mq_poll + io_uring_cqe, and no pin.
 */
TEST(fixed_buffer_skips_pinning)
{
	for (int mode = 0; mode < NR_FOLL_PIN_ACCT; mode++) {
		struct dio_env d;
		struct dio dio;
		const struct cost_table *c;
		uint64_t sub, comp;

		ASSERT_EQ(dio_env_create(&d, foll_pin_accounting_names[mode]), 0);
		c = sim_costs(d.e.sim);
		dio = (struct dio){ .ub = &d.ub, .first_page = 0, .nr_pages = 1, .op = BIO_READ,
				    .offset = 0, .len = 512, .iface = DIO_IO_URING, .fixed = true,
				    .polled = true };
		dio_once(&d, &dio, &sub, &comp);
		ASSERT_U64_EQ(sub, cost_ns(c, COST_io_uring_sqe, 1) + cost_ns(c, COST_bio_alloc, 1) +
				   cost_ns(c, COST_submit_bio, 1));
		ASSERT_U64_EQ(comp, cost_ns(c, COST_blk_mq_poll, 1) + cost_ns(c, COST_io_uring_cqe, 1));
		ASSERT_EQ(dio.pages_grabbed, 0);
		ASSERT_EQ(d.m->gup_pinned + d.m->gup_got, 0);
		dio_env_destroy(&d);
	}
}

/*
 * A test of a PMD-mapped buffer: a 128 KiB read inside one 2 MiB folio is
 * one grab of 32 refs (one gup_fast_pmd_leaf step, one bio_vec, one
 * accounting update of +32) and one unpin_user_folio(folio, 32).  Expect
 * pincount 32 while in flight, the node counter diff +32 from a single
 * update, and 0 after completion.
 */
TEST(thp_buffer_one_grab_per_folio)
{
	struct dio_env d;
	struct dio dio;
	struct user_buffer huge;
	sim_time_t t;

	ASSERT_EQ(dio_env_create(&d, "node"), 0);
	ASSERT_EQ(user_buffer_alloc(d.m, &huge, 512, HPAGE_PMD_ORDER), 0);
	dio = (struct dio){ .ub = &huge, .first_page = 64, .nr_pages = 32, .op = BIO_READ,
			    .offset = 0, .len = 131072, .iface = DIO_LIBAIO };
	t = blkdev_direct_IO_async(d.m, d.bdev, &dio, dio_end, &d);
	ASSERT_EQ(huge.pincount[0], 32);
	ASSERT_EQ(huge.refcount[0], 33);
	ASSERT_EQ(d.m->node.per_cpu_nodestats[0].vm_node_stat_diff[NR_FOLL_PIN_ACQUIRED], 32);
	sim_run(d.e.sim, t);
	blkdev_dio_complete(d.m, &dio);
	ASSERT_EQ(huge.pincount[0], 0);
	ASSERT_EQ(huge.refcount[0], 1);
	ASSERT_EQ(d.m->node.per_cpu_nodestats[0].vm_node_stat_diff[NR_FOLL_PIN_RELEASED], 32);
	user_buffer_free(d.m, &huge);
	dio_env_destroy(&d);
}
