// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: copies between devices.  The lock order of the address spaces a
 * copy holds (device index, then address), the translation of a linked
 * peer's VA into ASCEND_AS_PEER(n) segments (and -EFAULT without a link),
 * and the emulated DMA engines of one device reading and writing another
 * device's HBM through its backend.
 */
#include <linux/completion.h>
#include <linux/sizes.h>

#include "ascend_drv.h"
#include "ascend_emu.h"
#include "ascend_hbm.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"
#include "ascend_peer.h"
#include "ascend_vm.h"

#define PT_WIN(i)	(BIT_ULL(40) + (u64)(i) * SZ_1G)

struct peer_test_file {
	struct ascend_device adev;
	struct ascend_file af;
};

static void peer_test_file_init(struct peer_test_file *f, unsigned int index)
{
	f->adev.index = index;
	f->af.adev = &f->adev;
	ascend_vm_init(&f->af.vm, &f->adev);
	ascend_peer_file_init(&f->af);
}

static void peer_test_file_fini(struct peer_test_file *f)
{
	struct drm_mm_node *node, *next;

	ascend_peer_file_fini(&f->af);
	if (f->af.vm.size)
		drm_mm_for_each_node_safe(node, next, &f->af.vm.mm)
			drm_mm_remove_node(node);
	ascend_vm_fini(&f->af.vm);
}

static void peer_test_link(struct kunit *test, struct ascend_file *from,
			   struct ascend_file *to)
{
	u32 st;

	down_write(&ascend_peer_rwsem);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(from, to,
						    DRM_ASCEND_PEER_ENABLE,
						    &st), 0);
	up_write(&ascend_peer_rwsem);
}

/* Every address space of a copy is locked, by increasing device index. */
static void peer_lock_order(struct kunit *test)
{
	struct peer_test_file *f = kunit_kcalloc(test, 4, sizeof(*f),
						 GFP_KERNEL);
	struct ascend_peer_ctx ctx;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	/* the issuing file on device 1; peers on 2, 0 and 0 again */
	peer_test_file_init(&f[0], 1);
	peer_test_file_init(&f[1], 2);
	peer_test_file_init(&f[2], 0);
	peer_test_file_init(&f[3], 0);

	KUNIT_EXPECT_LT(test, ascend_peer_vm_cmp(&f[2].af.vm, &f[0].af.vm), 0);
	KUNIT_EXPECT_GT(test, ascend_peer_vm_cmp(&f[1].af.vm, &f[0].af.vm), 0);
	KUNIT_EXPECT_EQ(test, ascend_peer_vm_cmp(&f[0].af.vm, &f[0].af.vm), 0);
	KUNIT_EXPECT_NE(test, ascend_peer_vm_cmp(&f[2].af.vm, &f[3].af.vm), 0);

	/* no links: the file's own lock only */
	KUNIT_ASSERT_EQ(test, ascend_peer_ctx_lock(&ctx, &f[0].af), 0);
	KUNIT_EXPECT_EQ(test, ctx.nr, 1U);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&f[0].af.vm.lock));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&f[1].af.vm.lock));
	ascend_peer_ctx_unlock(&ctx);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&f[0].af.vm.lock));

	peer_test_link(test, &f[0].af, &f[1].af);
	peer_test_link(test, &f[0].af, &f[2].af);
	peer_test_link(test, &f[0].af, &f[3].af);
	KUNIT_ASSERT_EQ(test, ascend_peer_ctx_lock(&ctx, &f[0].af), 0);
	KUNIT_EXPECT_EQ(test, ctx.nr, 4U);
	for (i = 0; i < ctx.nr; i++) {
		KUNIT_EXPECT_TRUE(test, mutex_is_locked(&ctx.vms[i]->lock));
		if (i)
			KUNIT_EXPECT_LT(test, ascend_peer_vm_cmp(ctx.vms[i - 1],
								 ctx.vms[i]),
					0);
	}
	KUNIT_EXPECT_EQ(test, ctx.vms[0]->adev->index, 0U);
	KUNIT_EXPECT_EQ(test, ctx.vms[1]->adev->index, 0U);
	KUNIT_EXPECT_PTR_EQ(test, ctx.vms[2], &f[0].af.vm);
	KUNIT_EXPECT_PTR_EQ(test, ctx.vms[3], &f[1].af.vm);
	ascend_peer_ctx_unlock(&ctx);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_FALSE(test, mutex_is_locked(&f[i].af.vm.lock));

	for (i = 0; i < 4; i++)
		peer_test_file_fini(&f[i]);
}

/* A linked peer's VA becomes its HBM, tagged with its device index. */
static void peer_translate_tags(struct kunit *test)
{
	struct peer_test_file *f = kunit_kcalloc(test, 2, sizeof(*f),
						 GFP_KERNEL);
	struct ascend_hbm_range ra = { 0, 0x10000, SZ_64K };
	struct ascend_hbm_range rb = { 0, 0x30000, SZ_64K };
	struct ascend_hbm_alloc aa = { .size = SZ_64K, .page_size = SZ_4K,
				       .ranges = &ra, .nr_ranges = 1 };
	struct ascend_hbm_alloc ab = aa;
	struct ascend_vm_mapping *ma, *mb;
	struct ascend_dma_span span;
	struct ascend_peer_ctx ctx;
	struct ascend_vm_seg *segs;
	u64 va_a, va_b;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, f);
	ma = kunit_kzalloc(test, sizeof(*ma), GFP_KERNEL);
	mb = kunit_kzalloc(test, sizeof(*mb), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, ma && mb);
	ab.ranges = &rb;
	peer_test_file_init(&f[0], 0);
	peer_test_file_init(&f[1], 3);
	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&f[0].af.vm, PT_WIN(0),
						   SZ_1G), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&f[1].af.vm, PT_WIN(1),
						   SZ_1G), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&f[0].af.vm, ma, &aa), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&f[1].af.vm, mb, &ab), 0);
	va_a = ma->node.start;
	va_b = mb->node.start;

	/* without a link the peer's VA is nothing here */
	KUNIT_ASSERT_EQ(test, ascend_peer_ctx_lock(&ctx, &f[0].af), 0);
	KUNIT_EXPECT_FALSE(test, ascend_peer_claims(&ctx, va_b + 16, 16));
	KUNIT_EXPECT_EQ(test, ascend_peer_translate(&ctx, va_b, 16, false,
						    &segs), -EFAULT);
	n = ascend_peer_translate(&ctx, va_a + 8, 16, true, &segs);
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, segs[0].as, (u32)ASCEND_AS_HBM);
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0x10008ULL);
	kvfree(segs);
	ascend_peer_ctx_unlock(&ctx);

	peer_test_link(test, &f[0].af, &f[1].af);
	KUNIT_ASSERT_EQ(test, ascend_peer_ctx_lock(&ctx, &f[0].af), 0);
	KUNIT_EXPECT_TRUE(test, ascend_peer_claims(&ctx, va_b + 16, 16));
	KUNIT_EXPECT_PTR_EQ(test, ascend_peer_ctx_vm(&ctx, va_b, 16),
			    &f[1].af.vm);
	KUNIT_EXPECT_PTR_EQ(test, ascend_peer_ctx_vm(&ctx, va_a, 16),
			    &f[0].af.vm);
	n = ascend_peer_translate(&ctx, va_b + 0x100, 0x200, true, &segs);
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, segs[0].as, (u32)ASCEND_AS_PEER(3));
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0x30100ULL);
	KUNIT_EXPECT_EQ(test, segs[0].len, 0x200ULL);
	kvfree(segs);
	KUNIT_EXPECT_EQ(test, ascend_peer_span(&ctx, va_b + 4, 8, false,
					       &span), 0);
	KUNIT_EXPECT_EQ(test, span.as, (u32)ASCEND_AS_PEER(3));
	KUNIT_EXPECT_EQ(test, span.addr, 0x30004ULL);
	/* past the peer's mapping: its guard faults */
	KUNIT_EXPECT_EQ(test, ascend_peer_translate(&ctx, va_b + SZ_64K - 8,
						    16, false, &segs),
			-EFAULT);
	KUNIT_EXPECT_TRUE(test, ascend_as_is_peer(ASCEND_AS_PEER(3)));
	KUNIT_EXPECT_FALSE(test, ascend_as_is_peer(ASCEND_AS_VA));
	KUNIT_EXPECT_EQ(test, ascend_as_peer_dev(ASCEND_AS_PEER(3)), 3U);
	ascend_peer_ctx_unlock(&ctx);

	/* one direction: the peer does not reach us */
	KUNIT_ASSERT_EQ(test, ascend_peer_ctx_lock(&ctx, &f[1].af), 0);
	KUNIT_EXPECT_EQ(test, ascend_peer_translate(&ctx, va_a, 16, false,
						    &segs), -EFAULT);
	ascend_peer_ctx_unlock(&ctx);

	ascend_vm_unmap(&f[1].af.vm, mb);
	ascend_vm_unmap(&f[0].af.vm, ma);
	peer_test_file_fini(&f[1]);
	peer_test_file_fini(&f[0]);
}

/* Two emulated devices: engines of one reach the other's HBM. */
struct peer_emu {
	struct ascend_emu emu;
};

static void peer_emu_init(struct kunit *test, struct peer_emu *d,
			  unsigned int index)
{
	static const struct ascend_emu_config cfg = {
		.hbm_size = SZ_16M,
		.num_dma_engines = 2,
		.num_ai_cores = 1,
	};

	KUNIT_ASSERT_EQ(test, ascend_emu_setup(&d->emu, index, &cfg), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_dma_init(&d->emu, 2), 0);
	/* its peers find it, as after the device's init */
	ascend_emu_set_up(&d->emu, true);
}

static void peer_emu_fini(struct peer_emu *d)
{
	ascend_emu_set_up(&d->emu, false);
	ascend_emu_dma_fini(&d->emu);
	ascend_emu_hbm_release(&d->emu);
}

static int peer_emu_run(struct ascend_hw_device *hw,
			const struct ascend_dma_desc *d, unsigned int count)
{
	struct ascend_dma_job job = { .descs = d, .count = count };

	ascend_emu_dma_submit(hw, &job);
	ascend_dma_job_wait(&job);
	return job.status;
}

static void peer_emu_copy(struct kunit *test)
{
	struct peer_emu *d = kunit_kcalloc(test, 2, sizeof(*d), GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, 3000, GFP_KERNEL);
	u8 *back = kunit_kzalloc(test, 3000, GFP_KERNEL);
	struct ascend_dma_desc desc[2] = {};
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, d && buf && back);
	peer_emu_init(test, &d[0], 0);
	peer_emu_init(test, &d[1], 1);
	for (i = 0; i < 3000; i++)
		buf[i] = i * 7 + 1;
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d[1].emu.hw, 0x1ffe, buf, 3000,
						true), 0);

	/* device 0 reads device 1's HBM into its own (page-crossing) */
	desc[0] = (struct ascend_dma_desc){
		.kind = ASCEND_DMA_LINEAR, .dst = 0x5003, .src = 0x1ffe,
		.len = 3000, .dst_as = ASCEND_AS_HBM,
		.src_as = ASCEND_AS_PEER(1) };
	KUNIT_EXPECT_EQ(test, peer_emu_run(&d[0].emu.hw, desc, 1), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d[0].emu.hw, 0x5003, back, 3000,
						false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, back, 3000), 0);

	/* and writes it: a copy and a fill, on device 0's engines */
	desc[0] = (struct ascend_dma_desc){
		.kind = ASCEND_DMA_LINEAR, .dst = 0x9000, .src = 0x5003,
		.len = 3000, .dst_as = ASCEND_AS_PEER(1),
		.src_as = ASCEND_AS_HBM };
	desc[1] = (struct ascend_dma_desc){
		.kind = ASCEND_DMA_FILL, .dst = 0xc000, .len = 64,
		.pattern = 0xa5, .pattern_size = 1,
		.dst_as = ASCEND_AS_PEER(1) };
	KUNIT_EXPECT_EQ(test, peer_emu_run(&d[0].emu.hw, desc, 2), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d[1].emu.hw, 0x9000, back, 3000,
						false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, back, 3000), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d[1].emu.hw, 0xc000, back, 64,
						false), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(back, 0xa5, 64));
	/* device 0's own HBM at those offsets untouched */
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d[0].emu.hw, 0xc000, back, 64,
						false), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(back, 0, 64));

	/* no device 2, and past device 1's memory: the transfer fails */
	desc[0].dst_as = ASCEND_AS_PEER(2);
	KUNIT_EXPECT_EQ(test, peer_emu_run(&d[0].emu.hw, desc, 1), -EIO);
	desc[0].dst_as = ASCEND_AS_PEER(1);
	desc[0].dst = SZ_16M + ascend_mmu_table_mem_size(SZ_16M) - 16;
	KUNIT_EXPECT_EQ(test, peer_emu_run(&d[0].emu.hw, desc, 1), -EIO);

	peer_emu_fini(&d[1]);
	peer_emu_fini(&d[0]);
}

static struct kunit_case ascend_peer_test_cases[] = {
	KUNIT_CASE(peer_lock_order),
	KUNIT_CASE(peer_translate_tags),
	KUNIT_CASE(peer_emu_copy),
	{}
};

struct kunit_suite ascend_peer_test_suite = {
	.name = "ascend_peer",
	.test_cases = ascend_peer_test_cases,
};
