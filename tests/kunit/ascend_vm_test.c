// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the device MMU (ascend_vm.c) - window rules, mapping, translation
 * hits, misses and boundaries, lookups among many mappings, and byte access
 * that checks the whole range before writing.
 */
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "ascend_drv.h"
#include "ascend_hbm.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"
#include "ascend_vm.h"

#define TEST_WIN_BASE	BIT_ULL(40)	/* 1 TiB: inside any x86-64 user space */
#define TEST_WIN_SIZE	(4ULL << 30)
#define TEST_HBM_SIZE	SZ_1M

/* A fake backend whose HBM is a plain buffer (tests run one at a time). */
static u8 *test_hbm;

static int test_hbm_rw(struct ascend_hw_device *hw, u64 addr, void *buf,
		       size_t len, bool write)
{
	if (addr + len > TEST_HBM_SIZE)
		return -EFAULT;
	if (write)
		memcpy(test_hbm + addr, buf, len);
	else
		memcpy(buf, test_hbm + addr, len);
	return 0;
}

static const struct ascend_hw_ops test_hw_ops = {
	.hbm_rw = test_hbm_rw,
};

struct vm_test_ctx {
	struct ascend_device *adev;
	struct ascend_vm vm;
};

static int vm_test_init(struct kunit *test)
{
	struct vm_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->adev = kunit_kzalloc(test, sizeof(*ctx->adev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->adev);
	ctx->adev->hw_ops = &test_hw_ops;
	test_hbm = kunit_kzalloc(test, TEST_HBM_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, test_hbm);

	ascend_vm_init(&ctx->vm, ctx->adev);
	test->priv = ctx;
	return 0;
}

static void vm_test_exit(struct kunit *test)
{
	struct vm_test_ctx *ctx = test->priv;
	struct drm_mm_node *node, *next;

	/* A failed assertion may leave mappings: drop them quietly. */
	if (ctx->vm.size)
		drm_mm_for_each_node_safe(node, next, &ctx->vm.mm)
			drm_mm_remove_node(node);
	ascend_vm_fini(&ctx->vm);
	test_hbm = NULL;
}

/* A fake allocation made of @n ranges of the given sizes and addresses. */
static struct ascend_hbm_alloc *fake_alloc(struct kunit *test,
					   const u64 *addr, const u64 *size,
					   unsigned int n)
{
	struct ascend_hbm_alloc *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct ascend_hbm_range *r;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, a);
	r = kunit_kcalloc(test, n, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < n; i++) {
		r[i].offset = a->size;
		r[i].addr = addr[i];
		r[i].size = size[i];
		a->size += size[i];
	}
	a->ranges = r;
	a->nr_ranges = n;
	a->page_size = SZ_4K;
	return a;
}

static void vm_window_rules(struct kunit *test)
{
	const u64 b = TEST_WIN_BASE, s = SZ_1G;

	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(b, s, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(b, s, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(b, s, 0, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(0, s, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(b + SZ_4K, s, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(b, s + SZ_4K, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(b, s - SZ_2M, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(b, s + SZ_2M, 0, 0), 0);
	/* base + size wraps around */
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(round_down(U64_MAX, SZ_2M),
						     s, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(SZ_2M,
						     round_down(U64_MAX, SZ_2M),
						     0, 0), -EINVAL);
	/* kernel addresses and the end of user space */
	KUNIT_EXPECT_EQ(test, ascend_vm_check_window(0xffff800000000000ULL, s,
						     0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			ascend_vm_check_window(round_down(TASK_SIZE_MAX, SZ_2M)
					       - SZ_2M, s, 0, 0), -EINVAL);
}

static void vm_window_once(struct kunit *test)
{
	struct vm_test_ctx *ctx = test->priv;
	u64 addr = 0, size = SZ_4K;
	struct ascend_hbm_alloc *a = fake_alloc(test, &addr, &size, 1);
	struct ascend_vm_mapping map;

	KUNIT_EXPECT_FALSE(test, ascend_vm_has_window(&ctx->vm));
	KUNIT_EXPECT_EQ(test, ascend_vm_map(&ctx->vm, &map, a), -ENXIO);
	KUNIT_EXPECT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE + 1,
						   TEST_WIN_SIZE), -EINVAL);
	KUNIT_EXPECT_FALSE(test, ascend_vm_has_window(&ctx->vm));
	KUNIT_EXPECT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), 0);
	KUNIT_EXPECT_TRUE(test, ascend_vm_has_window(&ctx->vm));
	KUNIT_EXPECT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), -EBUSY);
	KUNIT_EXPECT_EQ(test, ascend_vm_set_window(&ctx->vm, 2 * TEST_WIN_BASE,
						   TEST_WIN_SIZE), -EBUSY);
}

static int translate(struct ascend_vm *vm, u64 va, u64 len,
		     struct ascend_vm_seg *segs, unsigned int max)
{
	int ret;

	mutex_lock(&vm->lock);
	ret = ascend_vm_translate_locked(vm, va, len, segs, max);
	mutex_unlock(&vm->lock);
	return ret;
}

static void vm_translate(struct kunit *test)
{
	struct vm_test_ctx *ctx = test->priv;
	/* two non-adjacent blocks: 8 KiB at 0x10000, 4 KiB at 0x40000 */
	const u64 addr[] = { 0x10000, 0x40000 }, size[] = { 0x2000, 0x1000 };
	struct ascend_hbm_alloc *a = fake_alloc(test, addr, size, 2);
	struct ascend_vm_mapping map;
	struct ascend_vm_seg segs[4];
	u64 va;

	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &map, a), 0);
	va = map.node.start;
	KUNIT_EXPECT_GE(test, va, TEST_WIN_BASE);
	KUNIT_EXPECT_LE(test, va + a->size, TEST_WIN_BASE + TEST_WIN_SIZE);
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(va, SZ_4K));

	/* the whole allocation: two segments */
	KUNIT_ASSERT_EQ(test, translate(&ctx->vm, va, 0x3000, segs, 4), 2);
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0x10000ULL);
	KUNIT_EXPECT_EQ(test, segs[0].len, 0x2000ULL);
	KUNIT_EXPECT_EQ(test, segs[1].addr, 0x40000ULL);
	KUNIT_EXPECT_EQ(test, segs[1].len, 0x1000ULL);

	/* spanning the block boundary */
	KUNIT_ASSERT_EQ(test, translate(&ctx->vm, va + 0x1ff0, 0x20, segs, 4),
			2);
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0x11ff0ULL);
	KUNIT_EXPECT_EQ(test, segs[0].len, 0x10ULL);
	KUNIT_EXPECT_EQ(test, segs[1].addr, 0x40000ULL);
	KUNIT_EXPECT_EQ(test, segs[1].len, 0x10ULL);

	/* first and last byte; inside the second block only */
	KUNIT_ASSERT_EQ(test, translate(&ctx->vm, va, 1, segs, 4), 1);
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0x10000ULL);
	KUNIT_ASSERT_EQ(test, translate(&ctx->vm, va + 0x2fff, 1, segs, 4), 1);
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0x40fffULL);
	KUNIT_ASSERT_EQ(test, translate(&ctx->vm, va + 0x2000, 0x1000, segs, 4),
			1);
	KUNIT_EXPECT_EQ(test, segs[0].addr, 0x40000ULL);
	KUNIT_EXPECT_EQ(test, segs[0].len, 0x1000ULL);

	/* misses: past the end (the guard), before the start, unmapped */
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va + 0x3000, 1, segs, 4),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, 0x3001, segs, 4),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va - 1, 2, segs, 4), -EFAULT);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, TEST_WIN_BASE + SZ_1G, 1,
					segs, 4), -EFAULT);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, 0x1000, 1, segs, 4), -EFAULT);

	/* bad lengths, too few segments */
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, 0, segs, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, U64_MAX, segs, 4),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, 0x3000, segs, 1), -E2BIG);

	/* after unmap every byte faults */
	ascend_vm_unmap(&ctx->vm, &map);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, 1, segs, 4), -EFAULT);
}

static void vm_guard_between_mappings(struct kunit *test)
{
	struct vm_test_ctx *ctx = test->priv;
	u64 addr = 0, size = SZ_4K;
	struct ascend_hbm_alloc *a = fake_alloc(test, &addr, &size, 1);
	struct ascend_vm_mapping m1, m2;
	struct ascend_vm_seg seg;

	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &m1, a), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &m2, a), 0);

	/* Two mappings are never adjacent: a range never spans both. */
	KUNIT_EXPECT_GE(test, max(m1.node.start, m2.node.start) -
			min(m1.node.start, m2.node.start),
			(u64)(SZ_4K + ASCEND_VM_GUARD));
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, m1.node.start + SZ_4K - 1, 2,
					&seg, 1), -EFAULT);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, m2.node.start + SZ_4K - 1, 2,
					&seg, 1), -EFAULT);
	ascend_vm_unmap(&ctx->vm, &m2);
	ascend_vm_unmap(&ctx->vm, &m1);
}

static void vm_many_mappings(struct kunit *test)
{
	const unsigned int nmaps = 4096, nranges = 1024;
	struct vm_test_ctx *ctx = test->priv;
	struct ascend_vm_mapping *maps;
	struct ascend_hbm_alloc **allocs, *frag;
	struct ascend_vm_mapping fmap;
	struct ascend_vm_seg seg;
	u64 *addr, *size;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), 0);

	maps = kunit_kcalloc(test, nmaps, sizeof(*maps), GFP_KERNEL);
	allocs = kunit_kcalloc(test, nmaps, sizeof(*allocs), GFP_KERNEL);
	addr = kunit_kcalloc(test, nranges, sizeof(*addr), GFP_KERNEL);
	size = kunit_kcalloc(test, nranges, sizeof(*size), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, maps);
	KUNIT_ASSERT_NOT_NULL(test, allocs);
	KUNIT_ASSERT_NOT_NULL(test, addr);
	KUNIT_ASSERT_NOT_NULL(test, size);

	for (i = 0; i < nmaps; i++) {
		u64 a = (u64)i * SZ_4K, s = SZ_4K;

		allocs[i] = fake_alloc(test, &a, &s, 1);
		KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &maps[i],
						    allocs[i]), 0);
	}
	/* one mapping of 1024 scattered 4 KiB blocks, in reverse order */
	for (i = 0; i < nranges; i++) {
		addr[i] = (u64)(2 * (nranges - i)) * SZ_4K;
		size[i] = SZ_4K;
	}
	frag = fake_alloc(test, addr, size, nranges);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &fmap, frag), 0);

	for (i = 0; i < nmaps; i++) {
		KUNIT_ASSERT_EQ(test, translate(&ctx->vm,
						maps[i].node.start + 100, 8,
						&seg, 1), 1);
		KUNIT_EXPECT_EQ(test, seg.addr, (u64)i * SZ_4K + 100);
		KUNIT_EXPECT_EQ(test, seg.len, 8ULL);
	}
	for (i = 0; i < nranges; i++) {
		KUNIT_ASSERT_EQ(test, translate(&ctx->vm,
						fmap.node.start +
						(u64)i * SZ_4K + 7, 1,
						&seg, 1), 1);
		KUNIT_EXPECT_EQ(test, seg.addr, addr[i] + 7);
	}

	/* unmapping every other mapping leaves the rest translatable */
	for (i = 0; i < nmaps; i += 2)
		ascend_vm_unmap(&ctx->vm, &maps[i]);
	for (i = 0; i < nmaps; i++)
		KUNIT_EXPECT_EQ(test, translate(&ctx->vm, maps[i].node.start,
						1, &seg, 1),
				i % 2 ? 1 : -EFAULT);

	for (i = 1; i < nmaps; i += 2)
		ascend_vm_unmap(&ctx->vm, &maps[i]);
	ascend_vm_unmap(&ctx->vm, &fmap);
}

static void vm_rw_checks_first(struct kunit *test)
{
	struct vm_test_ctx *ctx = test->priv;
	const u64 addr[] = { 0x8000, 0x2000 }, size[] = { 0x1000, 0x1000 };
	struct ascend_hbm_alloc *a = fake_alloc(test, addr, size, 2);
	struct ascend_vm_mapping map;
	u8 buf[64], out[64];
	unsigned int i;
	u64 va;

	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &map, a), 0);
	va = map.node.start;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i + 1;

	/* a write across the two blocks lands in both */
	KUNIT_ASSERT_EQ(test, ascend_vm_rw(&ctx->vm, va + 0x1000 - 32, buf,
					   sizeof(buf), true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(test_hbm + 0x9000 - 32, buf, 32), 0);
	KUNIT_EXPECT_EQ(test, memcmp(test_hbm + 0x2000, buf + 32, 32), 0);
	memset(out, 0, sizeof(out));
	KUNIT_ASSERT_EQ(test, ascend_vm_rw(&ctx->vm, va + 0x1000 - 32, out,
					   sizeof(out), false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, buf, sizeof(buf)), 0);

	/* a write running off the end changes nothing at all */
	memset(buf, 0xee, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va + 0x2000 - 32, buf,
					   sizeof(buf), true), -EFAULT);
	for (i = 0; i < 32; i++)
		KUNIT_EXPECT_EQ(test, test_hbm[0x3000 - 32 + i], 0);
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va, buf, 0, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va - 8, buf, 16, true),
			-EFAULT);

	ascend_vm_unmap(&ctx->vm, &map);
}

/* A parked VA range faults, is reused for the same size, and goes back. */
static void vm_park(struct kunit *test)
{
	struct vm_test_ctx *ctx = test->priv;
	u64 addr = 0, size = SZ_8K, big_size = SZ_128K;
	struct ascend_hbm_alloc *a = fake_alloc(test, &addr, &size, 1);
	struct ascend_hbm_alloc *big = fake_alloc(test, &addr, &big_size, 1);
	struct ascend_vm_mapping m1, m2, *got;
	struct ascend_vm_seg seg;
	LIST_HEAD(list);
	u64 va;

	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &m1, a), 0);
	va = m1.node.start;
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, 1, &seg, 1), 1);

	/* Parked: still in the drm_mm, but every byte faults. */
	KUNIT_ASSERT_TRUE(test, ascend_vm_unmap_park(&ctx->vm, &m1));
	KUNIT_EXPECT_TRUE(test, drm_mm_node_allocated(&m1.node));
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, 1, &seg, 1), -EFAULT);
	KUNIT_EXPECT_EQ(test, ctx->vm.nr_parked, 1U);

	/* Another size does not take it; the same size does. */
	mutex_lock(&ctx->vm.lock);
	KUNIT_EXPECT_NULL(test, ascend_vm_take_parked_locked(&ctx->vm, big));
	got = ascend_vm_take_parked_locked(&ctx->vm, a);
	mutex_unlock(&ctx->vm.lock);
	KUNIT_ASSERT_PTR_EQ(test, got, &m1);
	KUNIT_EXPECT_EQ(test, m1.node.start, va);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va + SZ_8K - 1, 1, &seg, 1),
			1);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va + SZ_8K, 1, &seg, 1),
			-EFAULT);

	/* Too large to park: unmapped for good. */
	KUNIT_ASSERT_EQ(test, ascend_vm_map(&ctx->vm, &m2, big), 0);
	KUNIT_EXPECT_FALSE(test, ascend_vm_unmap_park(&ctx->vm, &m2));
	KUNIT_EXPECT_FALSE(test, drm_mm_node_allocated(&m2.node));

	/* Giving the parked ranges up empties the address space. */
	KUNIT_ASSERT_TRUE(test, ascend_vm_unmap_park(&ctx->vm, &m1));
	ascend_vm_unpark_all(&ctx->vm, &list);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&list));
	KUNIT_EXPECT_FALSE(test, drm_mm_node_allocated(&m1.node));
	KUNIT_EXPECT_EQ(test, ctx->vm.nr_parked, 0U);
	KUNIT_EXPECT_TRUE(test, drm_mm_clean(&ctx->vm.mm));
}

/*
 * A reservation maps nothing itself; parts mapped in it abut without a
 * guard, and a translation or byte access walks from one into the next;
 * a hole between parts faults.
 */
static void vm_reservation_parts(struct kunit *test)
{
	struct vm_test_ctx *ctx = test->priv;
	u64 addr[2] = { 0, 3 * SZ_4K }, size[2] = { SZ_4K, SZ_4K };
	struct ascend_hbm_alloc *a = fake_alloc(test, &addr[0], &size[0], 1);
	struct ascend_hbm_alloc *b = fake_alloc(test, &addr[1], &size[1], 1);
	struct ascend_vm_resv resv, other;
	struct ascend_vm_mapping p1 = {}, p2 = {}, p3 = {};
	struct ascend_vm_seg segs[4];
	u8 in[8] = "abcdefg", out[8] = {};
	u64 va;

	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(&ctx->vm, TEST_WIN_BASE,
						   TEST_WIN_SIZE), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_reserve(&ctx->vm, &resv, 0, SZ_4M,
						SZ_2M), 0);
	va = resv.map.node.start;
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(va, SZ_2M));
	/* taken, or outside the window */
	KUNIT_EXPECT_EQ(test, ascend_vm_reserve(&ctx->vm, &other, va + SZ_2M,
						SZ_2M, SZ_2M), -EEXIST);
	KUNIT_EXPECT_EQ(test, ascend_vm_reserve(&ctx->vm, &other,
						TEST_WIN_BASE + TEST_WIN_SIZE,
						SZ_2M, SZ_2M), -EINVAL);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va, 1, segs, 4), -EFAULT);

	p1.ranges = a->ranges;
	p1.nr_ranges = 1;
	p1.size = SZ_4K;
	p2.ranges = b->ranges;
	p2.nr_ranges = 1;
	p2.size = SZ_4K;
	mutex_lock(&ctx->vm.lock);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_part_locked(&ctx->vm, &resv, &p1,
							va), 0);
	KUNIT_EXPECT_EQ(test, ascend_vm_map_part_locked(&ctx->vm, &resv, &p2,
							va + SZ_4K), 0);
	p3 = p2;
	KUNIT_EXPECT_EQ(test, ascend_vm_map_part_locked(&ctx->vm, &resv, &p3,
							va), -EEXIST);
	/* over a part and a free page, or past the reservation's end */
	p3.size = 2 * SZ_4K;
	KUNIT_EXPECT_EQ(test, ascend_vm_map_part_locked(&ctx->vm, &resv, &p3,
							va + SZ_4K), -EEXIST);
	p3.size = SZ_4K;
	KUNIT_EXPECT_EQ(test, ascend_vm_map_part_locked(&ctx->vm, &resv, &p3,
							va + SZ_4M), -EINVAL);
	KUNIT_EXPECT_EQ(test, resv.nr_parts, 2U);
	KUNIT_EXPECT_PTR_EQ(test, ascend_vm_find_part_locked(&resv, va + SZ_4K),
			    &p2);
	KUNIT_EXPECT_NULL(test, ascend_vm_find_part_locked(&resv, va + 8));
	KUNIT_EXPECT_PTR_EQ(test, ascend_vm_find_resv_locked(&ctx->vm, va),
			    &resv);
	mutex_unlock(&ctx->vm.lock);

	/* across the two: two segments, each in its own backing */
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va + SZ_4K - 2, 4, segs, 4), 2);
	KUNIT_EXPECT_EQ(test, segs[0].addr, (u64)SZ_4K - 2);
	KUNIT_EXPECT_EQ(test, segs[0].len, 2ULL);
	KUNIT_EXPECT_EQ(test, segs[1].addr, 3ULL * SZ_4K);
	KUNIT_EXPECT_EQ(test, segs[1].len, 2ULL);
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va + SZ_4K - 4, in, 8, true), 0);
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va + SZ_4K - 4, out, 8, false), 0);
	KUNIT_EXPECT_MEMEQ(test, in, out, 8);
	KUNIT_EXPECT_MEMEQ(test, test_hbm + 3 * SZ_4K, in + 4, 4);
	/* past the second part: the hole faults, and nothing was written */
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va + 2 * SZ_4K - 1, 2, segs, 4),
			-EFAULT);
	memset(out, 0, sizeof(out));
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va + 2 * SZ_4K - 4, in, 8,
					   true), -EFAULT);
	KUNIT_EXPECT_MEMEQ(test, test_hbm + 4 * SZ_4K - 4, out, 4);

	/* no access: the part is there, every look-up faults */
	mutex_lock(&ctx->vm.lock);
	KUNIT_EXPECT_EQ(test, ascend_vm_protect_part_locked(&ctx->vm, &p2, false,
							    true), 0);
	mutex_unlock(&ctx->vm.lock);
	KUNIT_EXPECT_EQ(test, translate(&ctx->vm, va + SZ_4K, 1, segs, 4), -EFAULT);
	mutex_lock(&ctx->vm.lock);
	KUNIT_EXPECT_EQ(test, ascend_vm_protect_part_locked(&ctx->vm, &p2, true,
							    false), 0);
	mutex_unlock(&ctx->vm.lock);
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va + SZ_4K, in, 1, true),
			-EFAULT);	/* read-only */
	KUNIT_EXPECT_EQ(test, ascend_vm_rw(&ctx->vm, va + SZ_4K, out, 1, false), 0);

	mutex_lock(&ctx->vm.lock);
	ascend_vm_unmap_part_locked(&ctx->vm, &resv, &p1);
	ascend_vm_unmap_part_locked(&ctx->vm, &resv, &p2);
	KUNIT_EXPECT_EQ(test, resv.nr_parts, 0U);
	ascend_vm_release_locked(&ctx->vm, &resv);
	mutex_unlock(&ctx->vm.lock);
	KUNIT_EXPECT_TRUE(test, drm_mm_clean(&ctx->vm.mm));
}

static struct kunit_case ascend_vm_test_cases[] = {
	KUNIT_CASE(vm_window_rules),
	KUNIT_CASE(vm_window_once),
	KUNIT_CASE(vm_translate),
	KUNIT_CASE(vm_guard_between_mappings),
	KUNIT_CASE(vm_many_mappings),
	KUNIT_CASE(vm_rw_checks_first),
	KUNIT_CASE(vm_park),
	KUNIT_CASE(vm_reservation_parts),
	{}
};

struct kunit_suite ascend_vm_test_suite = {
	.name = "ascend_vm",
	.init = vm_test_init,
	.exit = vm_test_exit,
	.test_cases = ascend_vm_test_cases,
};
