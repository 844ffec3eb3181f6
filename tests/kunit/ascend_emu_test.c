// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the emulated NPU's device memory (lazy backing, discard, the
 * per-device store), its
 * DMA engines (jobs of many descriptors, zero sources, bad descriptors,
 * fill descriptors with 1/2/4-byte patterns), its event slots and tables,
 * and its side of a queue context.
 */
#include <linux/completion.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>

#include "ascend_copy.h"
#include "ascend_drv.h"
#include "ascend_emu.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"

#define EMU_HBM_SIZE	SZ_64M
/* device memory ends after the page-table memory above the HBM */
#define EMU_MEM_END	(EMU_HBM_SIZE + ascend_mmu_table_mem_size(EMU_HBM_SIZE))
#define EMU_ENGINES	4

struct emu_ctx {
	struct ascend_emu *emu;
};

static const struct ascend_emu_config emu_cfg = {
	.hbm_size = EMU_HBM_SIZE,
	.num_dma_engines = EMU_ENGINES,
	.num_ai_cores = 1,
};

static int emu_test_init(struct kunit *test)
{
	struct emu_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->emu = kunit_kzalloc(test, sizeof(*ctx->emu), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->emu);

	KUNIT_ASSERT_EQ(test, ascend_emu_setup(ctx->emu, 0, &emu_cfg), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_init(ctx->emu, EMU_ENGINES), 0);

	test->priv = ctx;
	return 0;
}

static void emu_test_exit(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;

	ascend_emu_dma_fini(ctx->emu);
	ascend_emu_hbm_release(ctx->emu);
}

static unsigned long emu_pages(struct ascend_emu *emu)
{
	unsigned long idx, n = 0;
	struct page *page;

	xa_for_each(&emu->hbm_pages, idx, page)
		n++;
	return n;
}

static void emu_vfree(void *p)
{
	vfree(p);
}

/* A vmalloc buffer freed when the test ends, however it ends. */
static void *emu_vzalloc(struct kunit *test, size_t size)
{
	void *p = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, emu_vfree, p), 0);
	return p;
}

static int emu_run(struct ascend_hw_device *hw, const struct ascend_dma_desc *d,
		   unsigned int count)
{
	struct ascend_dma_job job = { .descs = d, .count = count };

	ascend_emu_dma_submit(hw, &job);
	ascend_dma_job_wait(&job);
	return job.status;
}

static void emu_hbm_lazy(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_hw_device *hw = &ctx->emu->hw;
	u8 *buf = kunit_kzalloc(test, SZ_8K, GFP_KERNEL);
	const u8 three[3] = { 0xa1, 0xb2, 0xc3 };
	u8 back[3] = {};
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 0x5a, SZ_8K);

	/* never written: reads zero and allocates nothing */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, SZ_1M, buf, SZ_8K, false),
			0);
	for (i = 0; i < SZ_8K; i++)
		KUNIT_ASSERT_EQ(test, buf[i], 0);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 0UL);

	/* a write across a page boundary backs exactly two pages */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x1ffe, (void *)three, 3,
						true), 0);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 2UL);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x1ffe, back, 3, false),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(back, three, 3), 0);

	/* out of the device memory */
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(hw, EMU_MEM_END - 1, back, 2,
						false), -EFAULT);
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(hw, U64_MAX, back, 2, true),
			-EFAULT);
	/* the page-table memory above the HBM is device memory too */
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(hw, EMU_HBM_SIZE - 1, back, 2,
						false), 0);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 2UL);
}

static void emu_hbm_discard(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	u32 v = 0xdeadbeef, r = 1;

	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, 0x5000, &v, 4, true),
			0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, 0x9000, &v, 4, true),
			0);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 2UL);

	ascend_emu_hbm_discard(ctx->emu, 0x4000, 0x4000);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 1UL);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, 0x5000, &r, 4, false),
			0);
	KUNIT_EXPECT_EQ(test, r, 0U);
	/* the page just past the range keeps its data */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, 0x9000, &r, 4, false),
			0);
	KUNIT_EXPECT_EQ(test, r, v);
}

/*
 * The presence bitmap follows the backing: a write sets a page's bit, a
 * discard clears it, and a page written again after its discard reads
 * what was written (in HBM and in the page-table memory above it).
 */
static void emu_hbm_present(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_hw_device *hw = &ctx->emu->hw;
	const u64 addrs[] = { 0x7000, EMU_HBM_SIZE + 0x3000 };
	u32 v = 0x5a5aa5a5, r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(addrs); i++) {
		unsigned long bit = addrs[i] >> PAGE_SHIFT;

		r = 1;
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, addrs[i], &r, 4,
							false), 0);
		KUNIT_EXPECT_EQ(test, r, 0U);
		KUNIT_EXPECT_FALSE(test, test_bit(bit, ctx->emu->present));
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, addrs[i], &v, 4,
							true), 0);
		KUNIT_EXPECT_TRUE(test, test_bit(bit, ctx->emu->present));

		ascend_emu_hbm_discard(ctx->emu, addrs[i], PAGE_SIZE);
		KUNIT_EXPECT_FALSE(test, test_bit(bit, ctx->emu->present));
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, addrs[i], &r, 4,
							false), 0);
		KUNIT_EXPECT_EQ(test, r, 0U);

		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, addrs[i], &v, 4,
							true), 0);
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, addrs[i], &r, 4,
							false), 0);
		KUNIT_EXPECT_EQ(test, r, v);
	}
	/* one page in HBM, one in the page-table memory: both backed */
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 1UL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ctx->emu->backed), 2L);
}

/*
 * Discarded backing pages are spares for the next writes (the suite keeps
 * a pool): a page taken for a partial write reads zeroes around what was
 * written, one taken for a whole-page write holds exactly that page, never
 * the bytes of the memory it backed before.
 */
static void emu_hbm_spare_reuse(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_hw_device *hw = &ctx->emu->hw;
	u8 *old = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *buf = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	u32 v = 0x12345678;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(old, 0xa5, PAGE_SIZE);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x10000 + i * PAGE_SIZE,
							old, PAGE_SIZE, true), 0);
	ascend_emu_hbm_discard(ctx->emu, 0x10000, 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ctx->emu->backed), 0L);

	/* a partial write: the rest of its page reads zeroes */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x20010, &v, 4, true), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x20000, buf, PAGE_SIZE,
						false), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, 0x10));
	KUNIT_EXPECT_EQ(test, memcmp(buf + 0x10, &v, 4), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf + 0x14, 0, PAGE_SIZE - 0x14));

	/* a whole-page write: exactly its bytes */
	for (i = 0; i < PAGE_SIZE; i++)
		old[i] = i * 7;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x30000, old, PAGE_SIZE,
						true), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x30000, buf, PAGE_SIZE,
						false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, old, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 2UL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ctx->emu->backed), 2L);
}

/*
 * A device holds at most its store of written pages: the next new page
 * fails with -ENOMEM (a written page is rewritten freely), and a discard
 * gives the room back.
 */
static void emu_hbm_store(struct kunit *test)
{
	static const struct ascend_emu_config small = {
		.hbm_size = EMU_HBM_SIZE,
		.num_dma_engines = 1,
		.num_ai_cores = 1,
		.store_size = 2 * PAGE_SIZE,
	};
	struct ascend_emu *emu = kunit_kzalloc(test, sizeof(*emu), GFP_KERNEL);
	u32 v = 0x600dcafe, r = 0;

	KUNIT_ASSERT_NOT_NULL(test, emu);
	KUNIT_ASSERT_EQ(test, ascend_emu_setup(emu, 1, &small), 0);
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(&emu->hw, 0, &v, 4, true), 0);
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(&emu->hw, SZ_1M, &v, 4, true), 0);
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(&emu->hw, SZ_2M, &v, 4, true),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(&emu->hw, 4, &v, 4, true), 0);
	KUNIT_EXPECT_EQ(test, emu_pages(emu), 2UL);
	/* reading an unwritten page takes nothing */
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(&emu->hw, SZ_4M, &r, 4, false), 0);
	KUNIT_EXPECT_EQ(test, r, 0U);

	ascend_emu_hbm_discard(emu, SZ_1M, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(&emu->hw, SZ_2M, &v, 4, true), 0);
	KUNIT_EXPECT_EQ(test, ascend_emu_hbm_rw(&emu->hw, SZ_2M, &r, 4, false), 0);
	KUNIT_EXPECT_EQ(test, r, v);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&emu->backed), 2L);
	ascend_emu_hbm_release(emu);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&emu->backed), 0L);
}

static void emu_dma_many_descs(struct kunit *test)
{
	const unsigned int n = 64, len = SZ_64K + 12;	/* not page multiples */
	const u64 src = 0x3, dst = SZ_16M + 0x801;
	struct emu_ctx *ctx = test->priv;
	struct ascend_dma_desc *d;
	u32 *pattern, *back;
	size_t total = (size_t)n * len;
	unsigned int i;

	pattern = emu_vzalloc(test, total);
	back = emu_vzalloc(test, total);
	d = kunit_kcalloc(test, n, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);

	for (i = 0; i < total / 4; i++)
		pattern[i] = i * 2654435761U;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, src, pattern, total,
						true), 0);

	/* descriptors in reverse order: the engines may run them any way */
	for (i = 0; i < n; i++) {
		d[i].src = src + (u64)(n - 1 - i) * len;
		d[i].dst = dst + (u64)(n - 1 - i) * len;
		d[i].len = len;
	}
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, d, n), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, dst, back, total,
						false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back, pattern, total), 0);
}

static void emu_dma_zero_source(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	u8 data[64], back[64];
	struct ascend_dma_desc d = {
		.dst = SZ_16M + 100, .src = SZ_32M, .len = SZ_8K,
	};
	unsigned long pages;

	memset(data, 0x77, sizeof(data));
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, d.dst + SZ_4K,
						data, sizeof(data), true), 0);
	pages = emu_pages(ctx->emu);

	/* never-written source: the destination reads zero, no new pages */
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, &d, 1), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, d.dst + SZ_4K,
						back, sizeof(back), false), 0);
	memset(data, 0, sizeof(data));
	KUNIT_EXPECT_EQ(test, memcmp(back, data, sizeof(back)), 0);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), pages);
}

static void emu_dma_errors(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	u32 v = 42, r = 0;
	const struct ascend_dma_desc d[] = {
		{ .dst = SZ_8M, .src = 0, .len = 4 },
		{ .dst = EMU_MEM_END - 2, .src = 0, .len = 4 },	/* off the end */
		{ .dst = SZ_8M + 4, .src = 0, .len = 4 },
	};

	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, 0, &v, 4, true), 0);
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, d, ARRAY_SIZE(d)), -EIO);
	/* the good transfers of the job still ran */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, SZ_8M + 4, &r, 4,
						false), 0);
	KUNIT_EXPECT_EQ(test, r, v);

	/* an empty job completes at once */
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, d, 0), 0);
}

/*
 * A small job on idle engines runs in the submitter's context: it has
 * finished when dma_submit() returns (@sync, nothing to wait for), with
 * the same status and engine statistics as on an engine thread.  A job of
 * one descriptor takes no ring slot; a longer one passes through ring 0.
 */
static void emu_dma_inline(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_emu_dma_ring_state before, after;
	u32 v = 0x1234abcd, r = 0;
	struct ascend_dma_desc d = { .dst = SZ_8M, .src = 64, .len = 4 };
	struct ascend_dma_desc bad = { .dst = EMU_MEM_END - 2, .src = 0,
				       .len = 4 };
	struct ascend_dma_desc big = { .dst = SZ_8M, .src = 0, .len = SZ_8K };
	struct ascend_dma_job job = { .descs = &d, .count = 1 };
	struct ascend_dma_desc two[2];

	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, 64, &v, 4, true), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(ctx->emu, 0, &before),
			0);
	ascend_emu_dma_submit(&ctx->emu->hw, &job);
	KUNIT_EXPECT_TRUE(test, job.sync);
	KUNIT_EXPECT_EQ(test, job.status, 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, SZ_8M, &r, 4, false),
			0);
	KUNIT_EXPECT_EQ(test, r, v);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(ctx->emu, 0, &after),
			0);
	KUNIT_EXPECT_EQ(test, after.executed, before.executed + 1);
	KUNIT_EXPECT_EQ(test, after.tail, before.tail);
	KUNIT_EXPECT_EQ(test, after.tail, after.head);
	KUNIT_EXPECT_EQ(test, after.head, after.retired);

	/* two descriptors: through a claimed ring 0, the same statistics */
	two[0] = d;
	two[1] = d;
	two[1].dst += 8;
	before = after;
	job = (struct ascend_dma_job){ .descs = two, .count = 2 };
	ascend_emu_dma_submit(&ctx->emu->hw, &job);
	KUNIT_EXPECT_TRUE(test, job.sync);
	KUNIT_EXPECT_EQ(test, job.status, 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, SZ_8M + 8, &r, 4,
						false), 0);
	KUNIT_EXPECT_EQ(test, r, v);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(ctx->emu, 0, &after),
			0);
	KUNIT_EXPECT_EQ(test, after.executed, before.executed + 2);
	KUNIT_EXPECT_EQ(test, after.tail, before.tail + 2);
	KUNIT_EXPECT_EQ(test, after.tail, after.retired);

	/* a failing small job reports its error the same way */
	job = (struct ascend_dma_job){ .descs = &bad, .count = 1 };
	ascend_emu_dma_submit(&ctx->emu->hw, &job);
	KUNIT_EXPECT_TRUE(test, job.sync);
	KUNIT_EXPECT_EQ(test, job.status, -EIO);

	/* too big for the submitter: the engines run it, the caller waits */
	job = (struct ascend_dma_job){ .descs = &big, .count = 1 };
	ascend_emu_dma_submit(&ctx->emu->hw, &job);
	KUNIT_EXPECT_FALSE(test, job.sync);
	ascend_dma_job_wait(&job);
	KUNIT_EXPECT_EQ(test, job.status, 0);

	/* engines not idle (paused): a small job waits for them too */
	ascend_emu_dma_pause(ctx->emu, true);
	job = (struct ascend_dma_job){ .descs = &d, .count = 1 };
	ascend_emu_dma_submit(&ctx->emu->hw, &job);
	KUNIT_EXPECT_FALSE(test, job.sync);
	KUNIT_EXPECT_FALSE(test, completion_done(&job.done));
	ascend_emu_dma_pause(ctx->emu, false);
	ascend_dma_job_wait(&job);
	KUNIT_EXPECT_EQ(test, job.status, 0);
}

static void emu_dma_concurrent_jobs(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	/* on the heap: the descriptors do not fit the stack frame limit */
	struct ascend_dma_desc (*d)[4] = kunit_kcalloc(test, 8, sizeof(*d),
						       GFP_KERNEL);
	struct ascend_dma_job jobs[8] = {};
	u64 v, r;
	unsigned int i, j;

	KUNIT_ASSERT_NOT_NULL(test, d);

	for (i = 0; i < 8; i++) {
		v = 0x1000 + i;
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, i * SZ_4K,
							&v, 8, true), 0);
		for (j = 0; j < 4; j++) {
			d[i][j].src = i * SZ_4K;
			d[i][j].dst = SZ_32M + (i * 4 + j) * SZ_4K;
			d[i][j].len = 8;
		}
		jobs[i].descs = d[i];
		jobs[i].count = 4;
		ascend_emu_dma_submit(&ctx->emu->hw, &jobs[i]);
	}
	for (i = 0; i < 8; i++) {
		ascend_dma_job_wait(&jobs[i]);
		KUNIT_EXPECT_EQ(test, jobs[i].status, 0);
		for (j = 0; j < 4; j++) {
			KUNIT_ASSERT_EQ(test,
					ascend_emu_hbm_rw(&ctx->emu->hw, d[i][j].dst,
							  &r, 8, false), 0);
			KUNIT_EXPECT_EQ(test, r, 0x1000ULL + i);
		}
	}
}

/*
 * Fill descriptors built by ascend_fill_build() over two segments at odd
 * device addresses with odd lengths: every byte of the fill follows the
 * pattern from the fill's first byte, the bytes around it are untouched.
 */
static void emu_fill_check(struct kunit *test, u64 pattern, u32 psize)
{
	struct emu_ctx *ctx = test->priv;
	const struct ascend_vm_seg segs[] = {
		{ .addr = SZ_16M + 3, .len = 4097 },
		{ .addr = SZ_32M + 1, .len = 5003 },
	};
	const u64 total = 4097 + 5003;		/* 9100: a multiple of 4 */
	struct ascend_dma_desc *dd;
	u8 *buf = emu_vzalloc(test, 6000);
	u64 done = 0;
	unsigned int i, k;
	int n;

	/* a chunk that is no multiple of the pattern: phases must carry */
	n = ascend_fill_build(segs, ARRAY_SIZE(segs), pattern, psize, 1001,
			      NULL, 0);
	KUNIT_ASSERT_GT(test, n, 0);
	dd = kunit_kcalloc(test, n, sizeof(*dd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dd);
	KUNIT_ASSERT_EQ(test, ascend_fill_build(segs, ARRAY_SIZE(segs), pattern,
						psize, 1001, dd, n), n);
	KUNIT_EXPECT_EQ(test, ascend_fill_build(segs, ARRAY_SIZE(segs), pattern,
						psize, 1001, dd, n - 1),
			-E2BIG);

	/* marker bytes just outside both segments */
	buf[0] = 0x5a;
	for (i = 0; i < ARRAY_SIZE(segs); i++) {
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw,
							segs[i].addr - 1, buf,
							1, true), 0);
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw,
							segs[i].addr +
							segs[i].len, buf, 1,
							true), 0);
	}
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, dd, n), 0);

	for (i = 0; i < ARRAY_SIZE(segs); i++) {
		u64 at = segs[i].addr - 1;

		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, at, buf,
							segs[i].len + 2, false),
				0);
		KUNIT_EXPECT_EQ(test, buf[0], 0x5a);
		KUNIT_EXPECT_EQ(test, buf[segs[i].len + 1], 0x5a);
		for (k = 0; k < segs[i].len; k++, done++) {
			u8 want = pattern >> ((done % psize) * 8);

			if (buf[k + 1] != want) {
				KUNIT_FAIL(test, "byte %llu: %#x, want %#x",
					   done, buf[k + 1], want);
				return;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, done, total);
}

static void emu_dma_fill_patterns(struct kunit *test)
{
	emu_fill_check(test, 0xab, 1);
	emu_fill_check(test, 0xbeef, 2);
	emu_fill_check(test, 0x11223344, 4);
	/* bits above pattern_size are ignored */
	emu_fill_check(test, 0xffffffff000000c3ULL, 1);
}

static void emu_dma_fill_lazy(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_dma_desc d = {
		.kind = ASCEND_DMA_FILL, .dst = SZ_8M, .len = SZ_64K,
		.pattern = 0, .pattern_size = 4,
	};
	u32 v = 0x12345678, r;

	/* a zero fill over never-written memory backs nothing */
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, &d, 1), 0);
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 0UL);

	/* over written memory it writes zeroes */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, SZ_8M + SZ_8K, &v, 4,
						true), 0);
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, &d, 1), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, SZ_8M + SZ_8K, &r, 4,
						false), 0);
	KUNIT_EXPECT_EQ(test, r, 0U);

	/* a non-zero fill backs what it writes */
	d.pattern = 1;
	d.pattern_size = 1;
	d.len = SZ_8K;
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, &d, 1), 0);
	/* (the page at SZ_8M + SZ_8K was backed already) */
	KUNIT_EXPECT_EQ(test, emu_pages(ctx->emu), 1UL + SZ_8K / PAGE_SIZE);

	/* bad descriptors: unknown kind, pattern size, off the end */
	d.kind = 7;
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, &d, 1), -EIO);
	d.kind = ASCEND_DMA_FILL;
	d.pattern_size = 3;
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, &d, 1), -EIO);
	d.pattern_size = 1;
	d.dst = EMU_MEM_END - 1;
	d.len = 2;
	KUNIT_EXPECT_EQ(test, emu_run(&ctx->emu->hw, &d, 1), -EIO);
}

/* ------------------------------------------------------------------------ */
/* Events: slots, tables, notifications */

/* Write a 32/64-bit little-endian word of device memory. */
static void emu_put(struct kunit *test, struct ascend_emu *emu, u64 addr,
		    u64 val, size_t size)
{
	__le64 v64 = cpu_to_le64(val);
	__le32 v32 = cpu_to_le32(val);

	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&emu->hw, addr,
						size == 8 ? (void *)&v64 :
						(void *)&v32, size, true), 0);
}

/*
 * A handle finds its slot through the directory and the leaf; a handle
 * of an absent leaf, an empty entry, an out-of-range slot or handle, a
 * reserved bit, a device bit without REMOTE, a remote device that is not
 * up, and no table at all name no event.  A remote entry of a device that
 * is up names that device's slot.
 */
static void emu_event_lookup(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_emu *emu = ctx->emu;
	/* two table pages in the page-table memory, past the event memory */
	u64 dir = EMU_HBM_SIZE + ASCEND_HW_EVENT_MEM_SIZE;
	u64 leaf = dir + ASCEND_MMU_TABLE_SIZE;
	const u32 last = ASCEND_HW_MAX_DEVICES - 1;
	struct ascend_emu_evref ref = { };
	unsigned int index;

	/* leaf 2: handles 2048 .. 3071 */
	emu_put(test, emu, dir + 2 * 8, leaf, 8);
	emu_put(test, emu, leaf + 5 * 4, 77, 4);		/* handle 2053 */
	emu_put(test, emu, leaf + 6 * 4, ASCEND_HW_EVENT_SLOTS, 4);
	emu_put(test, emu, leaf + 7 * 4, 77 | BIT(24), 4);	/* reserved */
	emu_put(test, emu, leaf + 8 * 4, 77 | 1 << 16, 4);	/* no REMOTE */
	emu_put(test, emu, leaf + 9 * 4, ascend_hw_evtab_remote(78, last), 4);
	emu_put(test, emu, leaf + 10 * 4, ascend_hw_evtab_remote(0, last), 4);

	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2053, &ref), 0);
	KUNIT_EXPECT_PTR_EQ(test, ref.owner, emu);
	KUNIT_EXPECT_EQ(test, ref.slot, 77U);
	KUNIT_EXPECT_EQ(test, ref.entry, 77U);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2054, &ref),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2055, &ref),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2056, &ref),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2052, &ref),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 5, &ref),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir,
						      ASCEND_HW_EVTAB_HANDLES,
						      &ref), -ENOENT);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, 0, 2053, &ref),
			-ENOENT);

	/* the last device index is free unless a real device has it */
	if (!ascend_emu_peer(ASCEND_AS_PEER(last))) {
		KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2057,
							      &ref), -ENOENT);
		index = emu->index;
		emu->index = last;
		ascend_emu_set_up(emu, true);
		KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2057,
							      &ref), 0);
		KUNIT_EXPECT_PTR_EQ(test, ref.owner, emu);
		KUNIT_EXPECT_EQ(test, ref.slot, 78U);
		KUNIT_EXPECT_EQ(test, ref.entry,
				ascend_hw_evtab_remote(78, last));
		/* slot 0 is no slot, remote or not */
		KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2058,
							      &ref), -ENOENT);
		ascend_emu_set_up(emu, false);
		emu->index = index;
		KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 2057,
							      &ref), -ENOENT);
	}

	/* a directory entry that is no table page */
	emu_put(test, emu, dir + 3 * 8, leaf + 4, 8);
	KUNIT_EXPECT_EQ(test, ascend_emu_event_lookup(emu, dir, 3 * 1024, &ref),
			-ENOENT);
}

/* The generation of a slot of @emu's own event memory. */
static u64 emu_gen(struct ascend_emu *emu, u32 slot)
{
	struct ascend_emu_evref ref = { .owner = emu, .slot = slot };

	return ascend_emu_event_gen(&ref);
}

/*
 * A record raises the generation (never lowers it), takes the timestamp
 * only for a slot that asks for one, and, when the slot is armed, sets
 * its pending bit and its summary bit in the notification area and
 * disarms it.
 */
static void emu_event_record(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_emu *emu = ctx->emu;
	u64 ts_addr = ascend_hw_event_slot_addr(EMU_HBM_SIZE, 300) + 8;
	__le64 *area = kunit_kzalloc(test, ASCEND_HW_EVENT_NOTIFY_SIZE,
				     GFP_KERNEL);
	__le64 ts;

	KUNIT_ASSERT_NOT_NULL(test, area);
	/* no device behind the test context: the bus address is physical */
	ascend_emu_set_event_notify(&ctx->emu->hw, virt_to_phys(area));

	emu_put(test, emu, ascend_hw_event_slot_addr(EMU_HBM_SIZE, 300) + 16,
		ASCEND_HW_EVENT_TIMESTAMP, 4);
	KUNIT_EXPECT_EQ(test, emu_gen(emu, 300), 0ULL);
	/* nobody on the host armed it: recorded, not notified */
	ascend_emu_event_record(emu, 300, 4);
	KUNIT_EXPECT_EQ(test, emu_gen(emu, 300), 4ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(area[0]), 0ULL);
	/* armed: notified once, and the arm is used up */
	emu_put(test, emu, ascend_hw_event_slot_addr(EMU_HBM_SIZE, 300) + 20,
		1, 4);
	ascend_emu_event_record(emu, 300, 5);
	KUNIT_EXPECT_EQ(test, emu_gen(emu, 300), 5ULL);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw, ts_addr, &ts,
						sizeof(ts), false), 0);
	KUNIT_EXPECT_NE(test, le64_to_cpu(ts), 0ULL);
	/* slot 300: pending word 4 bit 44, summary word 0 bit 4 */
	KUNIT_EXPECT_EQ(test, le64_to_cpu(area[ASCEND_HW_EVENT_SUMMARY + 4]),
			BIT_ULL(44));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(area[0]), BIT_ULL(4));
	area[ASCEND_HW_EVENT_SUMMARY + 4] = 0;
	area[0] = 0;
	ascend_emu_event_record(emu, 300, 6);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(area[0]), 0ULL);

	/* an older generation changes nothing and notifies nobody */
	emu_put(test, emu, ascend_hw_event_slot_addr(EMU_HBM_SIZE, 300) + 20,
		1, 4);
	ascend_emu_event_record(emu, 300, 3);
	KUNIT_EXPECT_EQ(test, emu_gen(emu, 300), 6ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(area[ASCEND_HW_EVENT_SUMMARY + 4]),
			0ULL);

	/* a slot without the timestamp flag keeps 0; slot 65535: last bits */
	emu_put(test, emu, ascend_hw_event_slot_addr(EMU_HBM_SIZE,
						     ASCEND_HW_EVENT_SLOTS - 1) + 20,
		1, 4);
	ascend_emu_event_record(emu, ASCEND_HW_EVENT_SLOTS - 1, 1);
	KUNIT_EXPECT_EQ(test, emu_gen(emu, ASCEND_HW_EVENT_SLOTS - 1), 1ULL);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&ctx->emu->hw,
						ascend_hw_event_slot_addr(EMU_HBM_SIZE,
									  ASCEND_HW_EVENT_SLOTS - 1) + 8,
						&ts, sizeof(ts), false), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(ts), 0ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(area[ASCEND_HW_EVENT_SUMMARY +
						ASCEND_HW_EVENT_SLOTS / 64 - 1]),
			BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(area[ASCEND_HW_EVENT_SUMMARY - 1]),
			BIT_ULL(63));
	/* slot 0 does not exist */
	ascend_emu_event_record(emu, 0, 9);
	KUNIT_EXPECT_EQ(test, emu_gen(emu, 0), 0ULL);
	ascend_emu_set_event_notify(&ctx->emu->hw, 0);
}

/* ------------------------------------------------------------------------ */
/* Queue contexts */

/*
 * The device's side of a queue context: contexts it cannot use are
 * refused; commands come from the ring slot of their number through the
 * page list; the wptr check; the report and the status page mirror; a
 * completion notifies only when armed (and consumes the arm), a fault
 * always and only the first; NEED_WAKEUP keeps the driver's FAULTED bit;
 * area writes cross pages.
 */
static void emu_queue_context(struct kunit *test)
{
	struct emu_ctx *ctx = test->priv;
	struct ascend_emu *emu = ctx->emu;
	struct ascend_hw_queue_ctx c = {}, bad;
	struct ascend_hw_queue_report *rep;
	struct ascend_queue_status *st;
	struct ascend_emu_queue *q;
	struct ascend_cmd cmd, *ring;
	__le64 *list, *area;
	u64 *qword;
	void *pages[3];
	u8 *p0, *p1;
	u64 w;
	int i;

	for (i = 0; i < 3; i++) {
		/* kmalloc of a power of two is naturally aligned: whole pages */
		pages[i] = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	list = kunit_kzalloc(test, 3 * sizeof(*list), GFP_KERNEL);
	rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);
	area = kunit_kzalloc(test, ASCEND_HW_EVENT_NOTIFY_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, list);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	KUNIT_ASSERT_NOT_NULL(test, area);
	/* no device behind the test context: bus addresses are physical */
	for (i = 0; i < 3; i++)
		list[i] = cpu_to_le64(virt_to_phys(pages[i]));
	ascend_emu_set_event_notify(&ctx->emu->hw, virt_to_phys(area));
	qword = (u64 *)&area[ASCEND_HW_NOTIFY_QUEUE_WORD];

	c.pages = virt_to_phys(list);
	c.nr_pages = 3;
	c.ring_entries = 32;
	c.ring_offset = 2 * PAGE_SIZE;
	c.printf_offset = PAGE_SIZE;
	c.printf_size = PAGE_SIZE;
	c.report = virt_to_phys(rep);
	c.start = 5;

	bad = c;
	bad.ring_entries = 64;			/* the ring leaves the area */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_emu_queue_new(emu, 7, &bad)),
			-EINVAL);
	bad = c;
	bad.ring_offset = PAGE_SIZE + 128;	/* not page aligned */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_emu_queue_new(emu, 7, &bad)),
			-EINVAL);
	bad = c;
	bad.printf_offset = 0;			/* over the status page */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_emu_queue_new(emu, 7, &bad)),
			-EINVAL);
	bad = c;
	bad.report = virt_to_phys(pages[0]) + PAGE_SIZE - 32;	/* crosses */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_emu_queue_new(emu, 7, &bad)),
			-EINVAL);
	bad = c;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_emu_queue_new(emu, ASCEND_HW_QUEUES,
							   &bad)), -EINVAL);

	q = ascend_emu_queue_new(emu, 7, &c);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	st = pages[0];

	/* wptr: at most a ring ahead of rptr (5), never behind it */
	WRITE_ONCE(st->wptr, 6);
	KUNIT_EXPECT_EQ(test, ascend_emu_queue_wptr(q, &w), 0);
	KUNIT_EXPECT_EQ(test, w, 6ULL);
	WRITE_ONCE(st->wptr, 4);
	KUNIT_EXPECT_EQ(test, ascend_emu_queue_wptr(q, &w), -EPROTO);
	WRITE_ONCE(st->wptr, 5 + 33);
	KUNIT_EXPECT_EQ(test, ascend_emu_queue_wptr(q, &w), -EPROTO);

	/* command n is in slot n % 32 of the ring page */
	ring = pages[2];
	ring[5].opcode = 0x1234;
	ascend_emu_queue_fetch(q, 5, &cmd);
	KUNIT_EXPECT_EQ(test, cmd.opcode, 0x1234U);
	ascend_emu_queue_fetch(q, 37, &cmd);
	KUNIT_EXPECT_EQ(test, cmd.opcode, 0x1234U);
	ascend_emu_queue_fetched(q, 6);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(rep->rptr), 6ULL);
	KUNIT_EXPECT_EQ(test, st->rptr, 6ULL);

	/* nobody armed: no notification */
	ascend_emu_queue_complete(q, 6);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(rep->completed), 6ULL);
	KUNIT_EXPECT_EQ(test, st->completed, 6ULL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), 0ULL);
	/* armed: one notification, and the arm is used up */
	WRITE_ONCE(rep->irq_armed, cpu_to_le32(1));
	ascend_emu_queue_complete(q, 7);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), BIT_ULL(7));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->irq_armed), 0U);
	WRITE_ONCE(qword[0], 0);
	/* armed for a count: completions before it stay quiet */
	WRITE_ONCE(rep->irq_seq, cpu_to_le64(9));
	WRITE_ONCE(rep->irq_armed, cpu_to_le32(1));
	ascend_emu_queue_complete(q, 8);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), 0ULL);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->irq_armed), 1U);
	ascend_emu_queue_busy(q, true);
	ascend_emu_queue_busy(q, false);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), 0ULL);
	ascend_emu_queue_complete(q, 9);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), BIT_ULL(7));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->irq_armed), 0U);
	WRITE_ONCE(qword[0], 0);
	WRITE_ONCE(rep->irq_seq, 0);
	ascend_emu_queue_busy(q, true);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->busy), 1U);
	ascend_emu_queue_busy(q, false);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->busy), 0U);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), 0ULL);

	/* a fault always notifies; the first one stays */
	ascend_emu_queue_fault(q, ASCEND_FAULT_MMU, 8, 0x1000, 3);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->fault), (u32)ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(rep->fault_seq), 8ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(rep->fault_addr), 0x1000ULL);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->fault_opcode), 3U);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), BIT_ULL(7));
	WRITE_ONCE(qword[0], 0);
	ascend_emu_queue_fault(q, ASCEND_FAULT_BAD_COMMAND, 9, 0, 1);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(rep->fault), (u32)ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, READ_ONCE(qword[0]), 0ULL);

	/* NEED_WAKEUP leaves the FAULTED bit the driver wrote */
	st->flags = ASCEND_QUEUE_STATUS_FAULTED;
	ascend_emu_queue_need_wakeup(q, true);
	KUNIT_EXPECT_EQ(test, st->flags, ASCEND_QUEUE_STATUS_FAULTED |
			ASCEND_QUEUE_STATUS_NEED_WAKEUP);
	ascend_emu_queue_need_wakeup(q, false);
	KUNIT_EXPECT_EQ(test, st->flags, ASCEND_QUEUE_STATUS_FAULTED);

	/* a write across the end of a page continues on the next one */
	ascend_emu_queue_area_write(q, PAGE_SIZE - 2, "abcd", 4);
	p0 = pages[0];
	p1 = pages[1];
	KUNIT_EXPECT_EQ(test, p0[PAGE_SIZE - 2], 'a');
	KUNIT_EXPECT_EQ(test, p0[PAGE_SIZE - 1], 'b');
	KUNIT_EXPECT_EQ(test, p1[0], 'c');
	KUNIT_EXPECT_EQ(test, p1[1], 'd');

	ascend_emu_queue_free(q);
	ascend_emu_set_event_notify(&ctx->emu->hw, 0);
}

static struct kunit_case ascend_emu_test_cases[] = {
	KUNIT_CASE(emu_hbm_lazy),
	KUNIT_CASE(emu_hbm_discard),
	KUNIT_CASE(emu_hbm_present),
	KUNIT_CASE(emu_hbm_store),
	KUNIT_CASE(emu_hbm_spare_reuse),
	KUNIT_CASE(emu_dma_many_descs),
	KUNIT_CASE(emu_dma_zero_source),
	KUNIT_CASE(emu_dma_errors),
	KUNIT_CASE(emu_dma_inline),
	KUNIT_CASE(emu_dma_concurrent_jobs),
	KUNIT_CASE(emu_dma_fill_patterns),
	KUNIT_CASE(emu_dma_fill_lazy),
	KUNIT_CASE(emu_event_lookup),
	KUNIT_CASE(emu_event_record),
	KUNIT_CASE(emu_queue_context),
	{}
};

/* the pool of spare backing pages, as the module has it */
static int emu_suite_init(struct kunit_suite *suite)
{
	return ascend_emu_spare_init();
}

static void emu_suite_exit(struct kunit_suite *suite)
{
	ascend_emu_spare_fini();
}

struct kunit_suite ascend_emu_test_suite = {
	.name = "ascend_emu",
	.suite_init = emu_suite_init,
	.suite_exit = emu_suite_exit,
	.init = emu_test_init,
	.exit = emu_test_exit,
	.test_cases = ascend_emu_test_cases,
};
