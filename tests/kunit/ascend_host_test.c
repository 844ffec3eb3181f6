// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: host memory for the device - page-range math for unaligned
 * ranges, sg tables of unaligned ranges from a page array, the device
 * MMU's host-mapping index (insert, overlap, window rules, lookup, remove,
 * read-only), segment tagging and descriptors with mixed HBM/SYS
 * segments, and the emulated DMA engines copying and filling between host
 * pages (by bus address) and HBM.
 */
#include <linux/completion.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>

#include "ascend_copy.h"
#include "ascend_drv.h"
#include "ascend_emu.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"
#include "ascend_vm.h"

#define HT_WIN_BASE	BIT_ULL(40)
#define HT_WIN_SIZE	(4ULL << 30)
#define HT_HOST		0x10000000ULL	/* host addresses below the window */

static void host_page_span(struct kunit *test)
{
	static const struct {
		u64 addr, len;
		unsigned long first;
		unsigned int count;
	} c[] = {
		{ 0, 1, 0, 1 },
		{ 4095, 1, 0, 1 },
		{ 4095, 2, 0, 2 },
		{ 4096, 4096, 1, 1 },
		{ 4096, 4097, 1, 2 },
		{ 100, 8200, 0, 3 },
		{ 4090, 8200, 0, 4 },
		{ 0x7fff0000, SZ_16M, 0x7fff0, 4096 },
		{ 0x7fff0001, SZ_16M, 0x7fff0, 4097 },
	};
	unsigned int i, count;
	unsigned long first;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		ascend_copy_page_span(c[i].addr, c[i].len, &first, &count);
		KUNIT_EXPECT_EQ_MSG(test, first, c[i].first, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, count, c[i].count, "case %u", i);
	}
	/* a pin window never needs more than this many pages */
	ascend_copy_page_span(PAGE_SIZE - 1, ASCEND_COPY_PIN_WINDOW, &first,
			      &count);
	KUNIT_EXPECT_EQ(test, count, ASCEND_COPY_PIN_WINDOW / PAGE_SIZE + 1);
}

static void host_free_pages(void *p)
{
	struct page **pages = p;
	unsigned int i;

	for (i = 0; pages[i]; i++)
		__free_page(pages[i]);
}

/* @n pages (NULL-terminated array) freed when the test ends. */
static struct page **host_pages(struct kunit *test, unsigned int n)
{
	struct page **pages = kunit_kcalloc(test, n + 1, sizeof(*pages),
					    GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, host_free_pages,
							pages), 0);
	return pages;
}

/* sg tables of unaligned ranges cover exactly the bytes asked for. */
static void host_sgt_unaligned(struct kunit *test)
{
	static const struct { unsigned int off, len, npages; } c[] = {
		{ 0, 1, 1 }, { 4095, 1, 1 }, { 4095, 2, 2 }, { 100, 8200, 3 },
		{ 4090 % PAGE_SIZE, 8200, 4 }, { 0, 4 * PAGE_SIZE, 4 },
	};
	struct page **pages = host_pages(test, 4);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct scatterlist *sg;
		struct sg_table sgt;
		u64 total = 0;
		unsigned int k;

		ascend_copy_page_span(c[i].off, c[i].len, &(unsigned long){0},
				      &k);
		KUNIT_EXPECT_EQ_MSG(test, k, c[i].npages, "case %u", i);
		KUNIT_ASSERT_EQ(test, sg_alloc_table_from_pages(&sgt, pages,
				c[i].npages, c[i].off, c[i].len, GFP_KERNEL), 0);
		KUNIT_EXPECT_EQ_MSG(test, sgt.sgl->offset, c[i].off,
				    "case %u", i);
		KUNIT_EXPECT_PTR_EQ(test, sg_page(sgt.sgl), pages[0]);
		for_each_sgtable_sg(&sgt, sg, k) {
			KUNIT_EXPECT_LE(test, sg->offset + sg->length,
					(u64)PAGE_SIZE * c[i].npages);
			total += sg->length;
		}
		KUNIT_EXPECT_EQ_MSG(test, total, (u64)c[i].len, "case %u", i);
		sg_free_table(&sgt);
	}
}

struct host_vm_ctx {
	struct ascend_device *adev;
	struct ascend_vm vm;
	struct ascend_hbm_range ranges[2];
};

static int host_vm_init(struct kunit *test)
{
	struct host_vm_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	static const struct ascend_hw_ops ops = {};

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->adev = kunit_kzalloc(test, sizeof(*ctx->adev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->adev);
	ctx->adev->hw_ops = &ops;
	ascend_vm_init(&ctx->vm, ctx->adev);
	/* two bus-address pieces: 0x1000 bytes at 0xa000, 0x3000 at 0x50000 */
	ctx->ranges[0] = (struct ascend_hbm_range){ 0, 0xa000, 0x1000 };
	ctx->ranges[1] = (struct ascend_hbm_range){ 0x1000, 0x50000, 0x3000 };
	test->priv = ctx;
	return 0;
}

static void host_vm_exit(struct kunit *test)
{
	struct host_vm_ctx *ctx = test->priv;

	ascend_vm_fini(&ctx->vm);
}

static void host_map_prep(struct host_vm_ctx *ctx,
			  struct ascend_vm_mapping *map, bool ro)
{
	memset(map, 0, sizeof(*map));
	map->ranges = ctx->ranges;
	map->nr_ranges = 2;
	map->readonly = ro;
}

static void host_index(struct kunit *test)
{
	struct host_vm_ctx *ctx = test->priv;
	struct ascend_vm *vm = &ctx->vm;
	struct ascend_vm_mapping a, b, c, d;
	struct ascend_vm_seg *segs;
	u64 off;
	int n;

	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(vm, HT_WIN_BASE,
						   HT_WIN_SIZE), 0);
	host_map_prep(ctx, &a, false);
	host_map_prep(ctx, &b, false);
	host_map_prep(ctx, &c, true);
	host_map_prep(ctx, &d, false);

	KUNIT_ASSERT_EQ(test, ascend_vm_map_host(vm, &a, HT_HOST, 0x4000), 0);
	/* overlaps: any byte */
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &b, HT_HOST, 0x4000),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &b, HT_HOST - 0x1000,
						 0x2000), -EEXIST);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &b, HT_HOST + 0x3000,
						 0x4000), -EEXIST);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_host(vm, HT_HOST + 0x1000,
						   0x1000), -EEXIST);
	/* the window is device address space */
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &b, HT_WIN_BASE, 0x4000),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &b, HT_WIN_BASE - 0x1000,
						 0x4000), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &b, HT_HOST, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &b, U64_MAX - 0xfff,
						 0x2000), -EINVAL);
	/* neighbours on both sides */
	KUNIT_ASSERT_EQ(test, ascend_vm_map_host(vm, &b, HT_HOST + 0x4000,
						 0x4000), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map_host(vm, &c, HT_HOST - 0x4000,
						 0x4000), 0);

	mutex_lock(&vm->lock);
	KUNIT_EXPECT_PTR_EQ(test, ascend_vm_lookup_locked(vm, HT_HOST + 0x3fff,
							  1, &off), &a);
	KUNIT_EXPECT_EQ(test, off, 0x3fffULL);
	KUNIT_EXPECT_PTR_EQ(test, ascend_vm_lookup_locked(vm, HT_HOST + 0x4000,
							  1, &off), &b);
	/* across two mappings: not inside one */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_vm_lookup_locked(vm,
			HT_HOST + 0x3fff, 2, &off)), -EFAULT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_vm_lookup_locked(vm,
			HT_HOST + 0x8000, 1, &off)), -EFAULT);
	/* read-only: reads translate, writes fault */
	KUNIT_EXPECT_PTR_EQ(test, ascend_vm_lookup_access_locked(vm,
			    HT_HOST - 0x10, 8, false, &off), &c);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_vm_lookup_access_locked(vm,
			HT_HOST - 0x10, 8, true, &off)), -EFAULT);
	/* claims: window or any host mapping; pageable otherwise */
	KUNIT_EXPECT_TRUE(test, ascend_vm_claims_locked(vm, HT_HOST + 5, 1));
	KUNIT_EXPECT_TRUE(test, ascend_vm_claims_locked(vm, HT_WIN_BASE, 1));
	KUNIT_EXPECT_TRUE(test, ascend_vm_claims_locked(vm, HT_HOST - 0x5000,
							0x2000));
	KUNIT_EXPECT_FALSE(test, ascend_vm_claims_locked(vm, HT_HOST + 0x8000,
							 0x1000));
	KUNIT_EXPECT_FALSE(test, ascend_vm_claims_locked(vm, 0x1000, 0x1000));

	/* SYS segments, cut at the range boundary */
	n = ascend_vm_translate_access_locked(vm, HT_HOST + 0xff0, 0x20, true,
					      &segs);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0xaff0ULL);
	KUNIT_EXPECT_EQ(test, segs[0].len, 0x10ULL);
	KUNIT_EXPECT_EQ(test, segs[0].as, (u32)ASCEND_AS_SYS);
	KUNIT_EXPECT_EQ(test, segs[1].addr, 0x50000ULL);
	KUNIT_EXPECT_EQ(test, segs[1].len, 0x10ULL);
	KUNIT_EXPECT_EQ(test, segs[1].as, (u32)ASCEND_AS_SYS);
	kvfree(segs);
	mutex_unlock(&vm->lock);

	/* device-side byte access needs the backend's sys_rw (none here) */
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(vm, HT_HOST, &off, 8, false),
			-EFAULT);

	/* removal, idempotent; the range can be mapped again */
	ascend_vm_unmap_host(vm, &a);
	ascend_vm_unmap_host(vm, &a);
	mutex_lock(&vm->lock);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ascend_vm_lookup_locked(vm, HT_HOST, 1,
							      &off)), -EFAULT);
	mutex_unlock(&vm->lock);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_host(vm, &d, HT_HOST + 0x1000,
						 0x2000), 0);
	ascend_vm_unmap_host(vm, &d);
	ascend_vm_unmap_host(vm, &b);
	ascend_vm_unmap_host(vm, &c);
	KUNIT_EXPECT_EQ(test, vm->nr_host, 0UL);
}

/* A window may not be set over host mappings. */
static void host_index_window_later(struct kunit *test)
{
	struct host_vm_ctx *ctx = test->priv;
	struct ascend_vm_mapping a;

	host_map_prep(ctx, &a, false);
	KUNIT_ASSERT_EQ(test, ascend_vm_map_host(&ctx->vm, &a,
						 HT_WIN_BASE + SZ_1M, 0x4000),
			0);
	KUNIT_EXPECT_EQ(test, ascend_vm_set_window(&ctx->vm, HT_WIN_BASE,
						   HT_WIN_SIZE), -EINVAL);
	ascend_vm_unmap_host(&ctx->vm, &a);
	KUNIT_EXPECT_EQ(test, ascend_vm_set_window(&ctx->vm, HT_WIN_BASE,
						   HT_WIN_SIZE), 0);
}

/* Descriptors carry each side's address space. */
static void host_mixed_descs(struct kunit *test)
{
	const struct ascend_vm_seg dst[] = {
		{ 0x100000, 0x1800, ASCEND_AS_HBM },
		{ 0x900000, 0x800, ASCEND_AS_HBM },
	};
	const struct ascend_vm_seg src[] = {
		{ 0xa000, 0x1000, ASCEND_AS_SYS },
		{ 0x50000, 0x1000, ASCEND_AS_SYS },
	};
	struct ascend_dma_desc d[8];
	int n;

	n = ascend_copy_build(dst, 2, src, 2, SZ_1M, d, ARRAY_SIZE(d));
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, d[0].dst, 0x100000ULL);
	KUNIT_EXPECT_EQ(test, d[0].src, 0xa000ULL);
	KUNIT_EXPECT_EQ(test, d[0].len, 0x1000ULL);
	KUNIT_EXPECT_EQ(test, d[1].dst, 0x101000ULL);
	KUNIT_EXPECT_EQ(test, d[1].src, 0x50000ULL);
	KUNIT_EXPECT_EQ(test, d[1].len, 0x800ULL);
	KUNIT_EXPECT_EQ(test, d[2].dst, 0x900000ULL);
	KUNIT_EXPECT_EQ(test, d[2].src, 0x50800ULL);
	for (n = 0; n < 3; n++) {
		KUNIT_EXPECT_EQ(test, d[n].dst_as, (u32)ASCEND_AS_HBM);
		KUNIT_EXPECT_EQ(test, d[n].src_as, (u32)ASCEND_AS_SYS);
	}
	/* the other way round, and fills on SYS */
	n = ascend_copy_build(src, 2, dst, 2, SZ_1M, d, ARRAY_SIZE(d));
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, d[0].dst_as, (u32)ASCEND_AS_SYS);
	KUNIT_EXPECT_EQ(test, d[0].src_as, (u32)ASCEND_AS_HBM);
	n = ascend_fill_build(src, 2, 0xab, 1, SZ_1M, d, ARRAY_SIZE(d));
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, d[1].dst_as, (u32)ASCEND_AS_SYS);
	KUNIT_EXPECT_EQ(test, d[1].dst, 0x50000ULL);
}

static int host_emu_run(struct ascend_hw_device *hw,
			const struct ascend_dma_desc *d, unsigned int count)
{
	struct ascend_dma_job job = { .descs = d, .count = count };

	ascend_emu_dma_submit(hw, &job);
	ascend_dma_job_wait(&job);
	return job.status;
}

/* The DMA engines between host pages (bus = physical) and HBM. */
static void host_emu_dma_sys(struct kunit *test)
{
	static const struct ascend_emu_config cfg = {
		.hbm_size = SZ_16M,
		.num_dma_engines = 2,
		.num_ai_cores = 1,
	};
	struct ascend_emu *emu = kunit_kzalloc(test, sizeof(*emu), GFP_KERNEL);
	struct ascend_hw_device *hw = &emu->hw;
	struct page **pages = host_pages(test, 4);
	u64 p0, p1, p2;
	u8 *v, *back;
	unsigned int i, bad = 0;

	KUNIT_ASSERT_NOT_NULL(test, emu);
	back = kunit_kzalloc(test, 3000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, back);
	KUNIT_ASSERT_EQ(test, ascend_emu_setup(emu, 0, &cfg), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_init(emu, 2), 0);

	p0 = page_to_phys(pages[0]);
	p1 = page_to_phys(pages[1]);
	p2 = page_to_phys(pages[2]);
	v = kmap_local_page(pages[0]);
	for (i = 0; i < PAGE_SIZE; i++)
		v[i] = i * 7 + 1;
	kunmap_local(v);

	{
		/* SYS page 0 [100, 3100) -> HBM 0x1ff00 (page-crossing) */
		const struct ascend_dma_desc d[] = {
			{ .dst = 0x1ff00, .src = p0 + 100, .len = 3000,
			  .dst_as = ASCEND_AS_HBM, .src_as = ASCEND_AS_SYS },
		};

		KUNIT_ASSERT_EQ(test, host_emu_run(hw, d, 1), 0);
	}
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(hw, 0x1ff00, back, 3000,
						false), 0);
	for (i = 0; i < 3000; i++)
		bad += back[i] != (u8)((i + 100) * 7 + 1);
	KUNIT_EXPECT_EQ(test, bad, 0U);

	{
		/* HBM -> SYS pages 1..2 across their boundary; fill SYS */
		const struct ascend_dma_desc d[] = {
			{ .dst = p1 + PAGE_SIZE - 1000, .src = 0x1ff00,
			  .len = 1000, .dst_as = ASCEND_AS_SYS },
			{ .dst = p2, .src = 0x20000 - 0x100 + 1000,
			  .len = 2000, .dst_as = ASCEND_AS_SYS },
			{ .kind = ASCEND_DMA_FILL, .dst = p0, .len = 16,
			  .pattern = 0xbeef, .pattern_size = 2,
			  .dst_as = ASCEND_AS_SYS },
			/* never-written HBM reads as zero into host memory */
			{ .dst = p2 + 3000, .src = 0x800000, .len = 64,
			  .dst_as = ASCEND_AS_SYS },
		};

		v = kmap_local_page(pages[2]);
		memset(v + 3000, 0x77, 64);
		kunmap_local(v);
		KUNIT_ASSERT_EQ(test, host_emu_run(hw, d, ARRAY_SIZE(d)), 0);
	}
	v = kmap_local_page(pages[1]);
	for (i = 0; i < 1000; i++)
		bad += v[PAGE_SIZE - 1000 + i] != back[i];
	kunmap_local(v);
	v = kmap_local_page(pages[2]);
	for (i = 0; i < 2000; i++)
		bad += v[i] != back[1000 + i];
	for (i = 0; i < 64; i++)
		bad += v[3000 + i] != 0;
	kunmap_local(v);
	v = kmap_local_page(pages[0]);
	for (i = 0; i < 16; i++)
		bad += v[i] != (i % 2 ? 0xbe : 0xef);
	bad += v[16] != (u8)(16 * 7 + 1);
	kunmap_local(v);
	KUNIT_EXPECT_EQ(test, bad, 0U);

	{
		/* a bad address space is a DMA error */
		const struct ascend_dma_desc d = {
			.dst = 0, .src = p0, .len = 8, .src_as = 7,
		};

		KUNIT_EXPECT_EQ(test, host_emu_run(hw, &d, 1), -EIO);
	}
	/* device-side byte access to host memory (hw op sys_rw) */
	KUNIT_EXPECT_EQ(test, ascend_emu_sys_rw(hw, p1 + PAGE_SIZE - 2,
						back, 4, false), 0);
	KUNIT_EXPECT_EQ(test, back[0], (u8)((998 + 100) * 7 + 1));

	ascend_emu_dma_fini(emu);
	ascend_emu_hbm_release(emu);
}

static struct kunit_case ascend_host_test_cases[] = {
	KUNIT_CASE(host_page_span),
	KUNIT_CASE(host_sgt_unaligned),
	KUNIT_CASE(host_index),
	KUNIT_CASE(host_index_window_later),
	KUNIT_CASE(host_mixed_descs),
	KUNIT_CASE(host_emu_dma_sys),
	{}
};

struct kunit_suite ascend_host_test_suite = {
	.name = "ascend_host",
	.init = host_vm_init,
	.exit = host_vm_exit,
	.test_cases = ascend_host_test_cases,
};
