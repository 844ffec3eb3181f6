// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the extended copies.  Memcpy descriptor decoding (magic, version,
 * reserved), 2D span validation with overflow, the split of 2D copies
 * across engines, base + offset resolution, batch validation
 * (fail_index of the first bad entry), ring command checks of COPY_2D /
 * BATCH / INDIRECT / OFFSET, and the emulated engines' descriptor rings
 * (least-loaded choice, full rings, wrap-around) and their VA descriptors
 * (2D, indirect, offset) through a device MMU, and the device's own
 * execution of ring copy commands (ascend_emu_copy.c).
 */
#include <linux/completion.h>
#include <linux/sizes.h>

#include "ascend_copy.h"
#include "ascend_drv.h"
#include "ascend_emu.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"
#include "ascend_queue_priv.h"

static void cx_memcpy_desc(struct kunit *test)
{
	struct ascend_memcpy_desc d = {
		.magic = ASCEND_MEMCPY_DESC_MAGIC, .version = 1,
		.dst = 0x10000, .src = 0x20000, .size = 0x100,
	};

	KUNIT_EXPECT_EQ(test, sizeof(d), (size_t)ASCEND_MEMCPY_DESC_SIZE);
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), 0);
	d.magic++;
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), -EINVAL);
	d.magic--;
	d.version = 2;
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), -EINVAL);
	d.version = 1;
	d.reserved[2] = 1;
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), -EINVAL);
	d.reserved[2] = 0;
	d.size = 0;
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), -EINVAL);
	d.size = 0x100;
	d.src = U64_MAX - 0x10;
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), -EINVAL);
	d.src = 0x10080;	/* overlaps dst */
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), -EINVAL);
	d.src = 0x10100;	/* adjacent */
	KUNIT_EXPECT_EQ(test, ascend_memcpy_desc_check(&d), 0);
}

static void cx_2d_span(struct kunit *test)
{
	u64 span = 0;

	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0x1000, 64, 16, 4, &span), 0);
	KUNIT_EXPECT_EQ(test, span, 64ULL * 3 + 16);
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0, 16, 16, 1, &span), 0);
	KUNIT_EXPECT_EQ(test, span, 16ULL);
	/* height 1: the pitch does not matter beyond >= width */
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0, U64_MAX, 16, 1, &span), 0);
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0, 64, 0, 4, &span), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0, 64, 16, 0, &span), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0, 15, 16, 4, &span), -EINVAL);
	/* pitch * (height - 1) overflows */
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0, 1ULL << 62, 16, 5, &span),
			-EINVAL);
	/* + width overflows */
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(0, U64_MAX / 2, U64_MAX / 2,
						  3, &span), -EINVAL);
	/* addr + span wraps */
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(U64_MAX - 50, 64, 16, 2,
						  &span), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_span(U64_MAX - 80, 64, 16, 2,
						  &span), 0);
}

static void cx_2d_split(struct kunit *test)
{
	struct ascend_dma_desc d[8];
	u64 rows = 0;
	int n, i;

	KUNIT_EXPECT_EQ(test, ascend_copy_2d_build(0, 0, 100, 0, 0, 50, 10, 10,
						   0, d, 8), -EINVAL);
	n = ascend_copy_2d_build(0x1000, ASCEND_AS_VA, 100, 0x9000,
				 ASCEND_AS_VA, 50, 10, 10, 4, d, 8);
	KUNIT_ASSERT_EQ(test, n, 4);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, d[i].kind, (u32)ASCEND_DMA_2D);
		KUNIT_EXPECT_EQ(test, d[i].dst, 0x1000 + rows * 100);
		KUNIT_EXPECT_EQ(test, d[i].src, 0x9000 + rows * 50);
		KUNIT_EXPECT_EQ(test, d[i].len, 10ULL);
		KUNIT_EXPECT_EQ(test, d[i].dst_as, (u32)ASCEND_AS_VA);
		rows += d[i].height;
	}
	/* bands of 3, 3, 2, 2 rows */
	KUNIT_EXPECT_EQ(test, d[0].height, 3ULL);
	KUNIT_EXPECT_EQ(test, d[1].height, 3ULL);
	KUNIT_EXPECT_EQ(test, d[3].height, 2ULL);
	KUNIT_EXPECT_EQ(test, rows, 10ULL);
	/* fewer rows than engines: one band per row */
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_build(0, 0, 1, 0, 0, 1, 1, 3, 8,
						   NULL, 0), 3);
	KUNIT_EXPECT_EQ(test, ascend_copy_2d_build(0, 0, 1, 0, 0, 1, 1, 3, 8,
						   d, 2), -E2BIG);
}

static void cx_offset(struct kunit *test)
{
	u64 dst, src;

	KUNIT_EXPECT_EQ(test, ascend_copy_offset_resolve(0x1000, 8, 0x8000, 16,
							 64, &dst, &src), 0);
	KUNIT_EXPECT_EQ(test, dst, 0x1008ULL);
	KUNIT_EXPECT_EQ(test, src, 0x8010ULL);
	KUNIT_EXPECT_EQ(test, ascend_copy_offset_resolve(U64_MAX - 4, 8, 0, 0,
							 1, &dst, &src),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_copy_offset_resolve(0, 0, U64_MAX - 70, 8,
							 64, &dst, &src),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_copy_offset_resolve(0x1000, 0, 0x1000, 32,
							 64, &dst, &src),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_copy_offset_resolve(0x1000, 0, 0x2000, 0,
							 0, &dst, &src),
			-EINVAL);
}

/* A fake address check: [0x10000, 0x20000) valid, 0x18000.. read-only. */
static int cx_side_ok(void *ctx, u64 addr, u64 len, bool write)
{
	(*(int *)ctx)++;
	if (addr < 0x10000 || addr + len > 0x20000)
		return -EFAULT;
	if (write && addr + len > 0x18000)
		return -EFAULT;
	return 0;
}

static void cx_batch_validate(struct kunit *test)
{
	struct drm_ascend_copy_entry e[5] = {
		{ 0x10000, 0x11000, 0x100 },
		{ 0x12000, 0x19000, 0x100 },
		{ 0, 0, 0 },			/* empty: not checked */
		{ 0x13000, 0x30000, 0x10 },	/* bad source */
		{ 0x19000, 0x10000, 0x10 },	/* bad (read-only) dst */
	};
	struct drm_ascend_copy_batch args = {
		.count = 5, .entry_size = sizeof(e[0]),
	};
	u32 fail = 0;
	int calls = 0;

	KUNIT_EXPECT_EQ(test, ascend_copy_batch_validate(e, 3, cx_side_ok,
							 &calls, &fail), 0);
	KUNIT_EXPECT_EQ(test, fail, U32_MAX);
	KUNIT_EXPECT_EQ(test, calls, 4);
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_validate(e, 5, cx_side_ok,
							 &calls, &fail),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, fail, 3U);
	e[1].src = e[1].dst + 0x80;	/* overlap wins: earlier entry */
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_validate(e, 5, cx_side_ok,
							 &calls, &fail),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fail, 1U);
	e[1].src = 0x19000;
	e[3].src = 0x14000;
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_validate(e, 5, cx_side_ok,
							 &calls, &fail),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, fail, 4U);

	KUNIT_EXPECT_EQ(test, ascend_copy_batch_args_check(&args), 0);
	args.count = 0;
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_args_check(&args), -EINVAL);
	args.count = DRM_ASCEND_COPY_BATCH_MAX + 1;
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_args_check(&args), -EINVAL);
	args.count = DRM_ASCEND_COPY_BATCH_MAX;
	args.entry_size = 16;
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_args_check(&args), -EINVAL);
	args.entry_size = 32;
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_args_check(&args), 0);
	args.flags = 1;
	KUNIT_EXPECT_EQ(test, ascend_copy_batch_args_check(&args), -EINVAL);
}

static void cx_cmd_check(struct kunit *test)
{
	const u32 bad = ASCEND_FAULT_BAD_COMMAND;
	struct ascend_cmd c = {};

	c.opcode = ASCEND_CMD_COPY_2D;
	c.copy_2d = (struct ascend_cmd_copy_2d){ 0x1000, 0x9000, 64, 32, 32, 4 };
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	c.copy_2d.spitch = 31;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_2d.spitch = 1ULL << 63;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_2d.spitch = 32;
	c.raw[sizeof(c.copy_2d)] = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);

	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_BATCH;
	c.copy_batch.entries = 0x1000;
	c.copy_batch.count = 100;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	c.copy_batch.count = 0;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_batch.count = U32_MAX;
	c.copy_batch.entries = U64_MAX - 4095;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_batch.count = 1;
	c.copy_batch.entries = 0x1004;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_batch.entries = 0x1000;
	c.copy_batch.pad = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);

	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_INDIRECT;
	c.copy_indirect.desc = 0x1040;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	c.copy_indirect.desc = 0x1020;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_indirect.desc = U64_MAX & ~63ULL;	/* desc + 64 wraps */
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_indirect.desc = 0x1040;
	c.raw[8] = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);

	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_OFFSET;
	c.copy_offset = (struct ascend_cmd_copy_offset){ 0x1000, 0x1008,
							 U64_MAX, 5, 1 };
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	c.copy_offset.size = 0;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_offset.size = 1;
	c.copy_offset.src_slot = 0x1004;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.copy_offset.src_slot = 0x1008;
	c.raw[sizeof(c.copy_offset)] = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
}

static void cx_ring_pick(struct kunit *test)
{
	u32 used[4] = { 3, 1, 1, 2 };

	KUNIT_EXPECT_EQ(test, ascend_dma_pick_ring(used, 4, 64), 1U);
	used[1] = 64;
	KUNIT_EXPECT_EQ(test, ascend_dma_pick_ring(used, 4, 64), 2U);
	used[0] = used[2] = used[3] = 64;
	KUNIT_EXPECT_EQ(test, ascend_dma_pick_ring(used, 4, 64), 4U);
	/* free-running indices across the u32 wrap */
	KUNIT_EXPECT_EQ(test, ascend_dma_ring_used(5, U32_MAX - 2), 8U);
	KUNIT_EXPECT_EQ(test, ascend_dma_ring_slot(U32_MAX), ASCEND_DMA_RING_SIZE - 1);
	KUNIT_EXPECT_EQ(test, ascend_dma_ring_slot(ASCEND_DMA_RING_SIZE + 3), 3U);
}

/* ---- the emulated engines ---------------------------------------------- */

#define CX_ENGINES	2
#define CX_HBM		SZ_8M

struct cx_emu {
	struct ascend_device *adev;
	struct ascend_emu *emu;
	struct ascend_pt pt;
	struct ascend_dma_mmu mmu;
};

static const struct ascend_emu_config cx_cfg = {
	.hbm_size = CX_HBM,
	.num_dma_engines = CX_ENGINES,
	.num_ai_cores = 1,
};

static struct cx_emu *cx_emu_new(struct kunit *test)
{
	struct cx_emu *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->adev = kunit_kzalloc(test, sizeof(*c->adev), GFP_KERNEL);
	c->emu = kunit_kzalloc(test, sizeof(*c->emu), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->adev);
	KUNIT_ASSERT_NOT_NULL(test, c->emu);
	c->adev->hbm.size = CX_HBM;
	c->adev->num_dma_engines = CX_ENGINES;
	KUNIT_ASSERT_EQ(test, ascend_emu_setup(c->emu, 0, &cx_cfg), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_init(c->emu, CX_ENGINES), 0);
	return c;
}

static void cx_emu_free(struct cx_emu *c)
{
	ascend_emu_dma_fini(c->emu);
	if (c->emu->smmu) {
		ascend_pt_fini(&c->pt);
		ascend_emu_smmu_fini(c->emu);
		ascend_pt_pool_release(&c->adev->pt_pool);
	}
	ascend_emu_hbm_release(c->emu);
}

static void cx_ring_full_and_wrap(struct kunit *test)
{
	struct cx_emu *c = cx_emu_new(test);
	struct ascend_emu_dma_ring_state st[CX_ENGINES];
	const unsigned int n = 300;
	struct ascend_dma_desc *d;
	struct ascend_dma_job job = {};
	u8 buf[16];
	unsigned int i;
	u64 total = 0;

	d = kunit_kcalloc(test, n, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	for (i = 0; i < n; i++)
		d[i] = (struct ascend_dma_desc){ .kind = ASCEND_DMA_FILL,
			.dst = i * 16, .len = 16, .pattern = i & 0xff,
			.pattern_size = 1 };

	ascend_emu_dma_pause(c->emu, true);
	job.descs = d;
	job.count = n;
	ascend_emu_dma_submit(&c->emu->hw, &job);
	/* every ring full, the rest of the job waiting for slots */
	for (i = 0; i < CX_ENGINES; i++) {
		KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(c->emu, i, &st[i]), 0);
		KUNIT_EXPECT_EQ(test, st[i].tail - st[i].retired,
				(u32)ASCEND_DMA_RING_SIZE);
		KUNIT_EXPECT_EQ(test, st[i].head, 0U);
	}
	KUNIT_EXPECT_EQ(test, job.next, CX_ENGINES * ASCEND_DMA_RING_SIZE);
	KUNIT_EXPECT_FALSE(test, completion_done(&job.done));

	ascend_emu_dma_pause(c->emu, false);
	ascend_dma_job_wait(&job);
	KUNIT_EXPECT_EQ(test, job.status, 0);
	for (i = 0; i < CX_ENGINES; i++) {
		KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(c->emu, i, &st[i]), 0);
		KUNIT_EXPECT_EQ(test, st[i].tail, st[i].head);
		KUNIT_EXPECT_EQ(test, st[i].head, st[i].retired);
		total += st[i].executed;
	}
	KUNIT_EXPECT_EQ(test, total, (u64)n);
	/* the rings wrapped: more descriptors than slots went through */
	KUNIT_EXPECT_GT(test, st[0].tail + st[1].tail,
			2U * ASCEND_DMA_RING_SIZE);
	for (i = 0; i < n; i += 37) {
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, i * 16, buf,
							sizeof(buf), false), 0);
		KUNIT_EXPECT_EQ(test, buf[0], (u8)i);
		KUNIT_EXPECT_EQ(test, buf[15], (u8)i);
	}
	cx_emu_free(c);
}

/*
 * A device MMU: VA 0x100000000 + x is HBM x for x < CX_HBM / 2 and nothing
 * else, in page tables the writer puts in the device's table memory.
 */
#define CX_VA	0x100000000ULL

static void cx_emu_map(struct kunit *test, struct cx_emu *c)
{
	static const struct ascend_hbm_range r = { 0, 0, CX_HBM / 2 };

	c->adev->hw = &c->emu->hw;
	c->adev->hw_ops = c->emu->hw.ops;
	KUNIT_ASSERT_EQ(test, ascend_pt_pool_setup(&c->adev->pt_pool, CX_HBM), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_smmu_init(c->emu), 0);
	ascend_pt_init(&c->pt, c->adev);
	KUNIT_ASSERT_EQ(test, ascend_pt_map(&c->pt, CX_VA, &r, 1, CX_HBM / 2,
					    ASCEND_AS_HBM, false), 0);
	c->mmu.asid = c->pt.asid;
}

static int cx_run(struct cx_emu *c, const struct ascend_dma_desc *d,
		  unsigned int n, u64 *fault)
{
	struct ascend_dma_job job = { .descs = d, .count = n, .mmu = &c->mmu };

	ascend_emu_dma_submit(&c->emu->hw, &job);
	ascend_dma_job_wait(&job);
	*fault = job.fault_addr;
	return job.status;
}

static void cx_va_descriptors(struct kunit *test)
{
	struct cx_emu *c = cx_emu_new(test);
	struct ascend_memcpy_desc md = {
		.magic = ASCEND_MEMCPY_DESC_MAGIC, .version = 1,
		.dst = CX_VA + 0x30000, .src = CX_VA + 7, .size = 777,
	};
	struct ascend_dma_desc d[2] = {};
	u8 *src, *out;
	u64 fault = 0, bases[2];
	unsigned int i, r;

	cx_emu_map(test, c);
	src = kunit_kmalloc(test, 8192, GFP_KERNEL);
	out = kunit_kzalloc(test, 8192, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < 8192; i++)
		src[i] = i * 13 + 1;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0, src, 8192, true), 0);

	/* 2D: 9 rows of 250 bytes, pitches 300 / 512, as two bands */
	KUNIT_ASSERT_EQ(test, ascend_copy_2d_build(CX_VA + 0x10000, ASCEND_AS_VA,
						   512, CX_VA, ASCEND_AS_VA,
						   300, 250, 9, 2, d, 2), 2);
	KUNIT_EXPECT_EQ(test, cx_run(c, d, 2, &fault), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x10000, out, 512 * 9,
						false), 0);
	for (r = 0; r < 9; r++) {
		KUNIT_EXPECT_EQ(test, memcmp(out + r * 512, src + r * 300, 250), 0);
		KUNIT_EXPECT_EQ(test, out[r * 512 + 250], 0);
	}

	/*
	 * 2D in runs of rows: 8 rows of 1000 bytes, source pitch 4096, the
	 * fourth row running off the end of the mapping.  The three rows
	 * before it arrive, the fault names its first byte that does not
	 * translate, nothing after it is written.
	 */
	{
		const u64 edge = CX_HBM / 2, base = edge - 3 * 4096 - 500;
		u8 *rows = kunit_kmalloc(test, edge - base, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, rows);
		for (i = 0; i < edge - base; i++)
			rows[i] = i * 7 + 3;
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, base, rows,
							edge - base, true), 0);
		memset(d, 0, sizeof(d));
		KUNIT_ASSERT_EQ(test, ascend_copy_2d_build(CX_VA + 0x60000,
							   ASCEND_AS_VA, 1024,
							   CX_VA + base,
							   ASCEND_AS_VA, 4096,
							   1000, 8, 1, d, 2),
				1);
		KUNIT_EXPECT_EQ(test, cx_run(c, d, 1, &fault), -EFAULT);
		KUNIT_EXPECT_EQ(test, fault, CX_VA + edge);
		KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x60000,
							out, 8 * 1024, false),
				0);
		for (r = 0; r < 3; r++)
			KUNIT_EXPECT_EQ(test, memcmp(out + r * 1024,
						     rows + r * 4096, 1000), 0);
		for (i = 3 * 1024; i < 8 * 1024; i++)
			if (out[i])
				break;
		KUNIT_EXPECT_EQ(test, i, 8 * 1024U);
	}

	/* INDIRECT: the descriptor at VA 0x20000, read when it runs */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x20000, &md,
						sizeof(md), true), 0);
	memset(d, 0, sizeof(d));
	d[0].kind = ASCEND_DMA_INDIRECT;
	d[0].src = CX_VA + 0x20000;
	d[0].src_as = ASCEND_AS_VA;
	KUNIT_EXPECT_EQ(test, cx_run(c, d, 1, &fault), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x30000, out, 777,
						false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, src + 7, 777), 0);
	md.reserved[0] = 5;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x20000, &md,
						sizeof(md), true), 0);
	KUNIT_EXPECT_EQ(test, cx_run(c, d, 1, &fault), -EINVAL);
	md.reserved[0] = 0;
	md.src = CX_VA + CX_HBM;	/* not mapped */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x20000, &md,
						sizeof(md), true), 0);
	KUNIT_EXPECT_EQ(test, cx_run(c, d, 1, &fault), -EFAULT);
	KUNIT_EXPECT_EQ(test, fault, CX_VA + CX_HBM);
	d[0].src = CX_VA + CX_HBM;	/* the descriptor itself unmapped */
	KUNIT_EXPECT_EQ(test, cx_run(c, d, 1, &fault), -EFAULT);
	KUNIT_EXPECT_EQ(test, fault, CX_VA + CX_HBM);

	/* OFFSET: bases in slots at 0x40000 / 0x40008 */
	bases[0] = CX_VA + 0x50000;
	bases[1] = CX_VA + 0x100;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x40000, bases,
						sizeof(bases), true), 0);
	memset(d, 0, sizeof(d));
	d[0] = (struct ascend_dma_desc){ .kind = ASCEND_DMA_OFFSET,
		.dst = CX_VA + 0x40000, .src = CX_VA + 0x40008,
		.dst_as = ASCEND_AS_VA, .src_as = ASCEND_AS_VA,
		.dst_off = 3, .src_off = 5, .len = 1001 };
	KUNIT_EXPECT_EQ(test, cx_run(c, d, 1, &fault), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x50003, out, 1001,
						false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, src + 0x105, 1001), 0);
	d[0].dst_off = U64_MAX;
	KUNIT_EXPECT_EQ(test, cx_run(c, d, 1, &fault), -EINVAL);
	/* without an MMU the engine cannot run VA descriptors */
	{
		struct ascend_dma_job job = { .descs = d, .count = 1 };

		ascend_emu_dma_submit(&c->emu->hw, &job);
		ascend_dma_job_wait(&job);
		KUNIT_EXPECT_EQ(test, job.status, -EIO);
	}
	cx_emu_free(c);
}

/* A ring command run by the device's copy sequencer; its fault code. */
static u32 cx_cmd(struct cx_emu *c, struct ascend_cmd *cmd, bool *abort,
		  u64 *fault)
{
	*fault = 0;
	return ascend_emu_copy_cmd(c->emu, c->mmu.asid, NULL, cmd, abort, fault);
}

static void cx_hbm_expect(struct kunit *test, struct cx_emu *c, u64 addr,
			  const u8 *want, size_t len, u8 *tmp)
{
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, addr, tmp, len, false),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(tmp, want, len), 0);
}

/*
 * The device executes ring copy commands itself (ascend_emu_copy.c): the
 * bytes that arrive, the whole range checked before any byte moves, the
 * fault address reported, fills in phase, batches checked entry by entry
 * first, and an abort that stops a command whose engines are stalled.
 */
static void cx_device_copies(struct kunit *test)
{
	const size_t big = SZ_1M + SZ_512K + 3;	/* two steps and a bit */
	struct cx_emu *c = cx_emu_new(test);
	struct drm_ascend_copy_entry e[3];
	struct ascend_cmd cmd = {};
	bool abort = false;
	u8 *src, *out, *zero;
	u64 fault;
	size_t i;

	cx_emu_map(test, c);
	src = kunit_kmalloc(test, big, GFP_KERNEL);
	out = kunit_kmalloc(test, big, GFP_KERNEL);
	zero = kunit_kzalloc(test, SZ_4K, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, zero);
	for (i = 0; i < big; i++)
		src[i] = i * 7 + 3;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0, src, big, true), 0);

	/* COPY over several descriptors */
	cmd.opcode = ASCEND_CMD_COPY;
	cmd.copy.dst = CX_VA + SZ_2M;
	cmd.copy.src = CX_VA;
	cmd.copy.size = big;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_NONE);
	cx_hbm_expect(test, c, SZ_2M, src, big, out);

	/* a destination running past the mapping: nothing moves */
	cmd.copy.dst = CX_VA + 0x381000;
	cmd.copy.size = SZ_1M;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, fault, CX_VA + 0x381000);
	cx_hbm_expect(test, c, 0x381000, zero, SZ_4K, out);
	/* both sides bad: the source is reported */
	cmd.copy.src = CX_VA + CX_HBM;
	cmd.copy.dst = CX_VA + CX_HBM + SZ_1M;
	cmd.copy.size = 64;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, fault, CX_VA + CX_HBM);

	/* FILL of a 2-byte pattern from an odd address: byte 0 at dst */
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = ASCEND_CMD_FILL;
	cmd.fill.dst = CX_VA + 0x390001;
	cmd.fill.size = 2 * SZ_4K + 2;
	cmd.fill.pattern = 0xbeef;
	cmd.fill.pattern_size = 2;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_NONE);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x390000, out,
						2 * SZ_4K + 4, false), 0);
	KUNIT_EXPECT_EQ(test, out[0], 0);
	for (i = 0; i < 2 * SZ_4K + 2; i++)
		KUNIT_EXPECT_EQ(test, out[i + 1], i % 2 ? 0xbe : 0xef);
	KUNIT_EXPECT_EQ(test, out[2 * SZ_4K + 3], 0);

	/* COPY_2D: 5 rows of 100 bytes, pitches 200 -> 128 */
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = ASCEND_CMD_COPY_2D;
	cmd.copy_2d.dst = CX_VA + 0x3a0000;
	cmd.copy_2d.src = CX_VA;
	cmd.copy_2d.dpitch = 128;
	cmd.copy_2d.spitch = 200;
	cmd.copy_2d.width = 100;
	cmd.copy_2d.height = 5;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_NONE);
	for (i = 0; i < 5; i++)
		cx_hbm_expect(test, c, 0x3a0000 + i * 128, src + i * 200, 100,
			      out);
	cx_hbm_expect(test, c, 0x3a0000 + 100, zero, 28, out);

	/* COPY_BATCH: entries in device memory, a size-0 one skipped */
	e[0] = (struct drm_ascend_copy_entry){ CX_VA + 0x3b0000, CX_VA + 10,
					       300 };
	e[1] = (struct drm_ascend_copy_entry){ CX_VA + 0x3b1000, CX_VA, 0 };
	e[2] = (struct drm_ascend_copy_entry){ CX_VA + 0x3b2000, CX_VA + 999,
					       4000 };
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x3c0000, e,
						sizeof(e), true), 0);
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = ASCEND_CMD_COPY_BATCH;
	cmd.copy_batch.entries = CX_VA + 0x3c0000;
	cmd.copy_batch.count = 3;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_NONE);
	cx_hbm_expect(test, c, 0x3b0000, src + 10, 300, out);
	cx_hbm_expect(test, c, 0x3b1000, zero, 64, out);
	cx_hbm_expect(test, c, 0x3b2000, src + 999, 4000, out);
	/* an overlapping entry after a good one: nothing moves */
	e[0].dst = CX_VA + 0x3d0000;
	e[2].dst = e[2].src + 1;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x3c0000, e,
						sizeof(e), true), 0);
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault),
			ASCEND_FAULT_BAD_COMMAND);
	cx_hbm_expect(test, c, 0x3d0000, zero, 300, out);
	/* an unmapped entry array */
	cmd.copy_batch.entries = CX_VA + CX_HBM;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, fault, CX_VA + CX_HBM);

	/*
	 * The abort flag set: a 2D copy of 5000 one-byte rows is two jobs
	 * (4096 rows, then the rest); the first may be cut short (its wait
	 * looks at the flag every 5 ms), the second never starts.
	 */
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = ASCEND_CMD_COPY_2D;
	cmd.copy_2d.dst = CX_VA + 0x3e0000;
	cmd.copy_2d.src = CX_VA;
	cmd.copy_2d.dpitch = 1;
	cmd.copy_2d.spitch = 1;
	cmd.copy_2d.width = 1;
	cmd.copy_2d.height = 5000;
	abort = true;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault),
			ASCEND_FAULT_TIMEOUT);
	cx_hbm_expect(test, c, 0x3e0000 + 4096, zero, 904, out);
	cx_emu_free(c);
}

/*
 * A ring batch of many small entries, over more than one read of entries:
 * while the engines are idle each entry is moved by the direct mover (the
 * bytes arrive, the mover counts every entry, no engine runs one); an
 * entry that does not translate, in a later read, is reported by its
 * address before any entry moved.
 */
static void cx_batch_small_entries(struct kunit *test)
{
	struct cx_emu *c = cx_emu_new(test);
	struct ascend_dma_engine_info before, after;
	struct ascend_emu_dma_ring_state ring0, ring1;
	struct drm_ascend_copy_entry *e;
	struct ascend_cmd cmd = {};
	const u32 n = 600, len = 64;
	u8 *src, out[64], zero[64] = {};
	bool abort = false;
	u64 fault = 0;
	u32 i;

	e = kunit_kcalloc(test, n, sizeof(*e), GFP_KERNEL);
	src = kunit_kmalloc(test, n * len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_NOT_NULL(test, src);
	cx_emu_map(test, c);
	for (i = 0; i < n * len; i++)
		src[i] = (u8)(i * 7 + 3);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x100000, src,
						n * len, true), 0);
	/* entry i: 64 bytes to 100 * i past 0x200000 (unaligned places) */
	for (i = 0; i < n; i++)
		e[i] = (struct drm_ascend_copy_entry){
			CX_VA + 0x200000 + 100 * i, CX_VA + 0x100000 + len * i,
			len };
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x300000, e,
						n * sizeof(*e), true), 0);
	ascend_emu_dma_direct_info(c->emu, &before);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(c->emu, 0, &ring0), 0);
	cmd.opcode = ASCEND_CMD_COPY_BATCH;
	cmd.copy_batch.entries = CX_VA + 0x300000;
	cmd.copy_batch.count = n;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_NONE);
	for (i = 0; i < n; i++)
		cx_hbm_expect(test, c, 0x200000 + 100 * i, src + len * i, len,
			      out);
	ascend_emu_dma_direct_info(c->emu, &after);
	KUNIT_EXPECT_EQ(test, after.descs_done, before.descs_done + n);
	KUNIT_EXPECT_EQ(test, after.bytes_done, before.bytes_done + n * len);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(c->emu, 0, &ring1), 0);
	KUNIT_EXPECT_EQ(test, ring1.executed, ring0.executed);

	/* entry 520 (third read) reads past the mapping: nothing moves */
	for (i = 0; i < n; i++)
		e[i].dst = CX_VA + 0x280000 + 100 * i;
	e[520].src = CX_VA + CX_HBM / 2 - 32;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x300000, e,
						n * sizeof(*e), true), 0);
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, fault, e[520].src);
	cx_hbm_expect(test, c, 0x280000, zero, len, out);
	cx_emu_free(c);
}

/*
 * A small COPY or FILL is moved by the command processor itself, beside
 * the engines' rings (ascend_emu_copy_try_now()): the bytes arrive, the
 * cp counters count it and no engine does; a copy that does not translate
 * in one piece takes the full path and reports its MMU fault with nothing
 * moved; injected transfer failures apply to it as to the engines.
 */
static void cx_direct_copies(struct kunit *test)
{
	struct cx_emu *c = cx_emu_new(test);
	struct ascend_dma_engine_info before, after;
	struct ascend_emu_dma_ring_state ring0, ring1;
	const u64 end = CX_HBM / 2;	/* the mapping's end, in HBM */
	struct ascend_cmd cmd = {};
	u8 src[64], out[64], zero[64] = {};
	u64 fault = 0;
	u32 code = ~0U;
	unsigned int i;

	cx_emu_map(test, c);
	for (i = 0; i < sizeof(src); i++)
		src[i] = 0xc0 + i;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0x1000, src,
						sizeof(src), true), 0);
	ascend_emu_dma_direct_info(c->emu, &before);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(c->emu, 0, &ring0), 0);

	cmd.opcode = ASCEND_CMD_COPY;
	cmd.copy.dst = CX_VA + 0x2010;
	cmd.copy.src = CX_VA + 0x1000;
	cmd.copy.size = sizeof(src);
	KUNIT_ASSERT_TRUE(test, ascend_emu_copy_try_now(c->emu, c->mmu.asid,
							&cmd, &code, &fault));
	KUNIT_EXPECT_EQ(test, code, ASCEND_FAULT_NONE);
	cx_hbm_expect(test, c, 0x2010, src, sizeof(src), out);
	ascend_emu_dma_direct_info(c->emu, &after);
	KUNIT_EXPECT_EQ(test, after.descs_done, before.descs_done + 1);
	KUNIT_EXPECT_EQ(test, after.bytes_done, before.bytes_done + sizeof(src));
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_ring_state(c->emu, 0, &ring1), 0);
	KUNIT_EXPECT_EQ(test, ring1.executed, ring0.executed);

	/* the destination runs past the mapping: its start is reported */
	cmd.copy.dst = CX_VA + end - 32;
	KUNIT_ASSERT_TRUE(test, ascend_emu_copy_try_now(c->emu, c->mmu.asid,
							&cmd, &code, &fault));
	KUNIT_EXPECT_EQ(test, code, ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, fault, CX_VA + end - 32);
	cx_hbm_expect(test, c, end - 32, zero, 32, out);

	/* an injected failure of the transfer */
	atomic_set(&c->emu->fail_dma_xfer, 1);
	cmd.copy.dst = CX_VA + 0x3000;
	KUNIT_ASSERT_TRUE(test, ascend_emu_copy_try_now(c->emu, c->mmu.asid,
							&cmd, &code, &fault));
	KUNIT_EXPECT_EQ(test, code, ASCEND_FAULT_DMA);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->emu->injected_dma_xfer), 1);

	/* a FILL, through a descriptor */
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = ASCEND_CMD_FILL;
	cmd.fill.dst = CX_VA + 0x4000;
	cmd.fill.size = sizeof(out);
	cmd.fill.pattern = 0x5a;
	cmd.fill.pattern_size = 1;
	ascend_emu_dma_direct_info(c->emu, &before);
	KUNIT_ASSERT_TRUE(test, ascend_emu_copy_try_now(c->emu, c->mmu.asid,
							&cmd, &code, &fault));
	KUNIT_EXPECT_EQ(test, code, ASCEND_FAULT_NONE);
	memset(src, 0x5a, sizeof(src));
	cx_hbm_expect(test, c, 0x4000, src, sizeof(src), out);
	ascend_emu_dma_direct_info(c->emu, &after);
	KUNIT_EXPECT_EQ(test, after.descs_done, before.descs_done + 1);

	/* larger than the mover takes: the caller hands it to the engines */
	cmd.fill.size = SZ_8K;
	KUNIT_EXPECT_FALSE(test, ascend_emu_copy_try_now(c->emu, c->mmu.asid,
							 &cmd, &code, &fault));
	cx_emu_free(c);
}

/*
 * REDUCE run by the device: int32 sums over two steps (a descriptor each),
 * an in-place MAX (dst == src), and a destination running past the
 * mapping that faults with nothing changed.
 */
static void cx_device_reduce(struct kunit *test)
{
	const size_t n = SZ_1M / 4 + 3;	/* two steps and three elements */
	struct cx_emu *c = cx_emu_new(test);
	struct ascend_cmd cmd = {};
	bool abort = false;
	u32 *a, *b, *out;
	u64 fault;
	size_t i;

	cx_emu_map(test, c);
	a = kunit_kmalloc_array(test, n, 4, GFP_KERNEL);
	b = kunit_kmalloc_array(test, n, 4, GFP_KERNEL);
	out = kunit_kmalloc_array(test, n, 4, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < n; i++) {
		a[i] = i;
		b[i] = i & 1 ? 0x7fffffff : 3 * i + 7;
	}
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0, a, n * 4, true), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, SZ_2M, b, n * 4,
						true), 0);

	cmd.opcode = ASCEND_CMD_REDUCE;
	cmd.reduce.dst = CX_VA;
	cmd.reduce.src = CX_VA + SZ_2M;
	cmd.reduce.size = n * 4;
	cmd.reduce.op = ASCEND_REDUCE_SUM;
	cmd.reduce.dtype = ASCEND_REDUCE_INT32;
	KUNIT_ASSERT_EQ(test, ascend_cmd_check(&cmd), 0U);
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_NONE);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0, out, n * 4, false),
			0);
	for (i = 0; i < n; i++)
		if (out[i] != (u32)(a[i] + b[i])) {
			KUNIT_FAIL(test, "element %zu: %#x, want %#x", i, out[i],
				   (u32)(a[i] + b[i]));
			break;
		}

	/* in place: MAX(x, x) = x */
	cmd.reduce.src = CX_VA;
	cmd.reduce.op = ASCEND_REDUCE_MAX;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_NONE);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&c->emu->hw, 0, a, n * 4, false),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(a, out, n * 4), 0);

	/* the destination runs past the mapping: nothing changes */
	cmd.reduce.dst = CX_VA + CX_HBM / 2 - SZ_4K;
	cmd.reduce.src = CX_VA + SZ_2M;
	cmd.reduce.size = 2 * SZ_4K;
	KUNIT_EXPECT_EQ(test, cx_cmd(c, &cmd, &abort, &fault), ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, fault, CX_VA + CX_HBM / 2 - SZ_4K);
	memset(b, 0, SZ_4K);
	cx_hbm_expect(test, c, CX_HBM / 2 - SZ_4K, (u8 *)b, SZ_4K, (u8 *)out);
	cx_emu_free(c);
}

static struct kunit_case ascend_copyext_test_cases[] = {
	KUNIT_CASE(cx_memcpy_desc),
	KUNIT_CASE(cx_2d_span),
	KUNIT_CASE(cx_2d_split),
	KUNIT_CASE(cx_offset),
	KUNIT_CASE(cx_batch_validate),
	KUNIT_CASE(cx_cmd_check),
	KUNIT_CASE(cx_ring_pick),
	KUNIT_CASE(cx_ring_full_and_wrap),
	KUNIT_CASE(cx_va_descriptors),
	KUNIT_CASE(cx_device_copies),
	KUNIT_CASE(cx_direct_copies),
	KUNIT_CASE(cx_batch_small_entries),
	KUNIT_CASE(cx_device_reduce),
	{}
};

struct kunit_suite ascend_copyext_test_suite = {
	.name = "ascend_copyext",
	.test_cases = ascend_copyext_test_cases,
};
