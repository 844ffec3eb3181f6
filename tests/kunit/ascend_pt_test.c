// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the device MMU.  ascend_pt_test: the page-table writer
 * (ascend_pt.c) -- descriptors as the datasheet defines them for each leaf
 * size, mixed layouts, boundaries of the 48-bit VA, table pages freed and
 * never leaked, the page-table memory running out, and ascend_vm.c keeping
 * the tables in step with its own bookkeeping.  ascend_smmu_test: the
 * emulated SMMU (ascend_emu_smmu.c) -- translation of each leaf kind,
 * faults, TLB invalidation, peer windows, byte access.
 *
 * Both run on an emulated NPU without DRM: its HBM, its page-table memory
 * above it, its SMMU; the writer reaches the memory only through the
 * backend's hbm_rw, the walker only through the device's own.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_emu.h"
#include "ascend_hbm.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"
#include "ascend_pt.h"
#include "ascend_vm.h"

#define PT_HBM		SZ_64M	/* page-table memory: 16 MiB above it */
#define PT_VA		BIT_ULL(40)

struct pt_dev {
	struct ascend_device adev;
	struct ascend_emu emu;
	struct ascend_pt pt;
};

static void pt_dev_init(struct kunit *test, struct pt_dev *d,
			unsigned int index)
{
	static const struct ascend_emu_config cfg = {
		.hbm_size = PT_HBM,
		.num_dma_engines = 1,
		.num_ai_cores = 1,
	};

	KUNIT_ASSERT_EQ(test, ascend_emu_setup(&d->emu, index, &cfg), 0);
	d->adev.index = index;
	d->adev.hbm.size = PT_HBM;
	d->adev.hw = &d->emu.hw;
	d->adev.hw_ops = d->emu.hw.ops;
	KUNIT_ASSERT_EQ(test, ascend_pt_pool_setup(&d->adev.pt_pool, PT_HBM), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_smmu_init(&d->emu), 0);
	ascend_pt_init(&d->pt, &d->adev);
	/* its peers find it, as after the device's init */
	ascend_emu_set_up(&d->emu, true);
}

static void pt_dev_fini(struct pt_dev *d)
{
	ascend_emu_set_up(&d->emu, false);
	ascend_pt_fini(&d->pt);
	ascend_emu_smmu_fini(&d->emu);
	ascend_pt_pool_release(&d->adev.pt_pool);
	ascend_emu_hbm_release(&d->emu);
}

static struct pt_dev *pt_dev_new(struct kunit *test)
{
	struct pt_dev *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	pt_dev_init(test, d, 0);
	return d;
}

/* Descriptor @idx of the table at @table, read as the device would. */
static u64 pt_desc(struct kunit *test, struct pt_dev *d, u64 table,
		   unsigned int idx)
{
	__le64 v;

	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, table + idx * 8, &v,
						sizeof(v), false), 0);
	return le64_to_cpu(v);
}

/*
 * Walk by hand from the root: the descriptor that maps @va and its level
 * (-1 and 0 when a table descriptor is missing).
 */
static int pt_find(struct kunit *test, struct pt_dev *d, u64 va, u64 *desc)
{
	u64 table = ascend_pt_root_addr(&d->pt), v = 0;
	int level;

	for (level = 0; level < ASCEND_MMU_LEVELS; level++) {
		v = pt_desc(test, d, table, ascend_mmu_index(va, level));
		if (!(v & ASCEND_PTE_VALID)) {
			*desc = 0;
			return -1;
		}
		if (!(v & ASCEND_PTE_TABLE))
			break;
		table = v & ASCEND_PTE_ADDR_MASK;
	}
	*desc = v;
	return level;
}

/* Table pages once the kept empty ones are freed. */
static unsigned long pt_trimmed(struct pt_dev *d)
{
	ascend_pt_trim(&d->pt, 0);
	return d->pt.nr_pages;
}

static int pt_map1(struct pt_dev *d, u64 va, u64 pa, u64 size, u32 as,
		   bool ro)
{
	struct ascend_hbm_range r = { 0, pa, size };

	return ascend_pt_map(&d->pt, va, &r, 1, size, as, ro);
}

/* ---- the writer --------------------------------------------------------- */

/* Each leaf size: the descriptor, its level, the tables it took. */
static void pt_leaf_sizes(struct kunit *test)
{
	static const struct { u64 size; int level; unsigned long pages; } c[] = {
		{ SZ_4K, 3, 4 }, { SZ_2M, 2, 3 }, { SZ_1G, 1, 2 },
	};
	struct pt_dev *d = pt_dev_new(test);
	unsigned int i;
	u64 v;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		u64 pa = 3 * c[i].size;	/* aligned to the leaf, not beyond */

		KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, pa, c[i].size,
					      ASCEND_AS_HBM, false), 0);
		KUNIT_EXPECT_EQ(test, d->pt.nr_pages, c[i].pages);
		KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), c[i].level);
		KUNIT_EXPECT_EQ(test, v, ascend_pte_leaf(pa, ASCEND_AS_HBM, true));
		KUNIT_EXPECT_EQ(test, v, ASCEND_PTE_VALID | ASCEND_PTE_WRITE | pa);
		/* the byte after it: nothing */
		KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + c[i].size, &v), -1);
		ascend_pt_unmap(&d->pt, PT_VA, c[i].size);
		/* the empty tables are kept (bounded) ... */
		KUNIT_EXPECT_EQ(test, d->pt.nr_pages, c[i].pages);
		KUNIT_EXPECT_EQ(test, d->pt.nr_empty, 1U);
		KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), -1);
		/* ... then freed, the root stays */
		KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
		KUNIT_EXPECT_EQ(test, d->pt.nr_empty, 0U);
		KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), -1);
	}
	/* host memory: SYS leaves, read-only */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, 0x7000, SZ_4K, ASCEND_AS_SYS,
				      true), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), 3);
	KUNIT_EXPECT_EQ(test, v, ASCEND_PTE_VALID | 0x7000 |
			((u64)ASCEND_AS_SYS << ASCEND_PTE_AS_SHIFT));
	ascend_pt_unmap(&d->pt, PT_VA, SZ_4K);
	pt_dev_fini(d);
	KUNIT_EXPECT_EQ(test, d->adev.pt_pool.npages, 0UL);
}

/* Does the descriptor found for every page of the range map it to @pa? */
static void pt_check_range(struct kunit *test, struct pt_dev *d, u64 va,
			   u64 size, const struct ascend_hbm_range *r,
			   unsigned int n)
{
	unsigned int i = 0;
	u64 off, v;

	for (off = 0; off < size; off += SZ_4K) {
		int level = pt_find(test, d, va + off, &v);
		u64 span, pa;

		while (i + 1 < n && off >= r[i].offset + r[i].size)
			i++;
		pa = r[i].addr + off - r[i].offset;
		KUNIT_ASSERT_GE_MSG(test, level, 1, "off %llx", off);
		span = BIT_ULL(ASCEND_MMU_SHIFT(level));
		KUNIT_EXPECT_EQ_MSG(test, (v & ASCEND_PTE_ADDR_MASK) +
				    ((va + off) & (span - 1)), pa,
				    "off %llx", off);
	}
}

/*
 * The largest leaf the alignment of both addresses allows: 4 KiB leaves up
 * to a 2 MiB boundary, a 2 MiB leaf, 4 KiB leaves after it; a second
 * piece whose output is aligned to 4 KiB only gets 4 KiB leaves.
 */
static void pt_mixed(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	const u64 va = PT_VA + SZ_2M - 2 * SZ_4K;
	const u64 size = 2 * SZ_4K + SZ_2M + 3 * SZ_4K;
	struct ascend_hbm_range r[2] = {
		{ 0, 0x1000000 + SZ_2M - 2 * SZ_4K, size },
		{ size, 0x3000000 + SZ_4K, SZ_2M },
	};
	u64 v;

	KUNIT_ASSERT_EQ(test, ascend_pt_map(&d->pt, va, r, 1, size,
					    ASCEND_AS_HBM, false), 0);
	pt_check_range(test, d, va, size, r, 1);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, va, &v), 3);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, va + SZ_4K, &v), 3);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, va + 2 * SZ_4K, &v), 2);
	KUNIT_EXPECT_EQ(test, v & ASCEND_PTE_ADDR_MASK, 0x1000000ULL + SZ_2M);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, va + size - SZ_4K, &v), 3);
	/* root, one level-1 and one level-2 table, two level-3 tables */
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 5UL);
	ascend_pt_unmap(&d->pt, va, size);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);

	/* two pieces, the second misaligned to 2 MiB: 4 KiB leaves there */
	KUNIT_ASSERT_EQ(test, ascend_pt_map(&d->pt, va, r, 2, size + SZ_2M,
					    ASCEND_AS_HBM, false), 0);
	pt_check_range(test, d, va, size + SZ_2M, r, 2);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, va + size + SZ_8K, &v), 3);
	ascend_pt_unmap(&d->pt, va, size + SZ_2M);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);

	/* output aligned to 4 KiB only: 512 small leaves, one level-3 table */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, SZ_4K, SZ_2M, ASCEND_AS_HBM,
				      false), 0);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 4UL);
	r[0] = (struct ascend_hbm_range){ 0, SZ_4K, SZ_2M };
	pt_check_range(test, d, PT_VA, SZ_2M, r, 1);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_1M, &v), 3);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_2M);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	pt_dev_fini(d);
}

/* Edges: the top of the VA, misalignment, output addresses, overlaps. */
static void pt_edges(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	const u64 top = BIT_ULL(ASCEND_MMU_VA_BITS);
	struct ascend_hbm_range r = { 0, 0, SZ_8K };
	u64 v;

	KUNIT_EXPECT_EQ(test, pt_map1(d, top - SZ_4K, 0, SZ_4K, ASCEND_AS_HBM,
				      false), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, top - SZ_4K, &v), 3);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 4UL);
	/* the overlap is refused; what is there stays */
	KUNIT_EXPECT_EQ(test, pt_map1(d, top - SZ_4K, SZ_8K, SZ_4K,
				      ASCEND_AS_HBM, false), -EEXIST);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, top - SZ_4K, &v), 3);
	KUNIT_EXPECT_EQ(test, v & ASCEND_PTE_ADDR_MASK, 0ULL);
	ascend_pt_unmap(&d->pt, top - SZ_4K, SZ_4K);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);

	KUNIT_EXPECT_EQ(test, pt_map1(d, top - SZ_4K, 0, SZ_8K, ASCEND_AS_HBM,
				      false), -EINVAL);
	KUNIT_EXPECT_EQ(test, pt_map1(d, top, 0, SZ_4K, ASCEND_AS_HBM, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pt_map1(d, U64_MAX & ~0xfffULL, 0, SZ_4K,
				      ASCEND_AS_HBM, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, pt_map1(d, PT_VA + 1, 0, SZ_4K, ASCEND_AS_HBM,
				      false), -EINVAL);
	KUNIT_EXPECT_EQ(test, pt_map1(d, PT_VA, 0x800, SZ_4K, ASCEND_AS_HBM,
				      false), -EINVAL);
	KUNIT_EXPECT_EQ(test, pt_map1(d, PT_VA, 0, U64_MAX, ASCEND_AS_HBM,
				      false), -EINVAL);
	/* an output address the descriptor cannot hold */
	KUNIT_EXPECT_EQ(test, pt_map1(d, PT_VA, ASCEND_PTE_ADDR_LIMIT, SZ_4K,
				      ASCEND_AS_SYS, false), -EINVAL);
	/* backing shorter than the mapping */
	KUNIT_EXPECT_EQ(test, ascend_pt_map(&d->pt, PT_VA, &r, 1, SZ_8K + 1,
					    ASCEND_AS_HBM, false), -EINVAL);
	/* failures leave nothing behind */
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), -1);

	/* a failure half way undoes the first half */
	{
		struct ascend_hbm_range two[2] = {
			{ 0, 0, SZ_8K }, { SZ_8K, ASCEND_PTE_ADDR_LIMIT, SZ_4K },
		};

		KUNIT_EXPECT_EQ(test, ascend_pt_map(&d->pt, PT_VA, two, 2,
						    3 * SZ_4K, ASCEND_AS_SYS,
						    false), -EINVAL);
		KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), -1);
		KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	}

	/* a mapping ending inside a page maps that page whole */
	KUNIT_EXPECT_EQ(test, pt_map1(d, PT_VA, SZ_1M, 5000, ASCEND_AS_HBM,
				      true), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_4K, &v), 3);
	KUNIT_EXPECT_EQ(test, v, ASCEND_PTE_VALID | (SZ_1M + SZ_4K));
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_8K, &v), -1);
	ascend_pt_unmap(&d->pt, PT_VA, 5000);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);

	/* kept empty tables give way to a larger leaf over them */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, 0, SZ_4K, ASCEND_AS_HBM,
				      false), 0);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_4K);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 4UL);
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, SZ_1G, SZ_1G, ASCEND_AS_HBM,
				      false), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_4K, &v), 1);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 2UL);
	KUNIT_EXPECT_EQ(test, d->pt.nr_empty, 0U);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_1G);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	pt_dev_fini(d);
}

/*
 * Scattered mappings until the page-table memory runs out: -ENOSPC, and
 * unmapping them all gives every table page back (none leaks); so does
 * the address space's end.
 */
/*
 * Walks that start at the table written last (ascend_pt_start()): inside
 * its region, in a neighbour region, and after the hinted table was freed
 * -- by a trim, and by a 1 GiB leaf that took the place of a kept empty
 * level-2 table (a walk from a freed table would write freed memory).
 */
static void pt_hinted_walks(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	u64 v;

	/* the same 1 GiB: the second map starts at the level-2 table */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, 0, SZ_2M, ASCEND_AS_HBM,
				      false), 0);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_2M);
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA + SZ_2M, SZ_4M, SZ_2M,
				      ASCEND_AS_HBM, false), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_2M, &v), 2);
	KUNIT_EXPECT_EQ(test, v & ASCEND_PTE_ADDR_MASK, (u64)SZ_4M);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), -1);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 3UL);
	/* the next 1 GiB: a new level-2 table under the same level-1 one */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA + SZ_1G, SZ_8M, SZ_2M,
				      ASCEND_AS_HBM, false), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_1G, &v), 2);
	KUNIT_EXPECT_EQ(test, v & ASCEND_PTE_ADDR_MASK, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 4UL);
	/* unmapped through the hinted tables, each from its own */
	ascend_pt_unmap(&d->pt, PT_VA + SZ_2M, SZ_2M);
	ascend_pt_unmap(&d->pt, PT_VA + SZ_1G, SZ_2M);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_2M, &v), -1);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_1G, &v), -1);

	/* trimmed: every hint goes with its table, the walk starts at the root */
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, SZ_2M, SZ_2M, ASCEND_AS_HBM,
				      false), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), 2);
	KUNIT_EXPECT_EQ(test, v & ASCEND_PTE_ADDR_MASK, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 3UL);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_2M);

	/* a 1 GiB leaf replaces the kept (and hinted) level-2 table */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, SZ_1G, SZ_1G, ASCEND_AS_HBM,
				      false), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA, &v), 1);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 2UL);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_1G);
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA + SZ_4M, 0, SZ_2M,
				      ASCEND_AS_HBM, false), 0);
	KUNIT_EXPECT_EQ(test, pt_find(test, d, PT_VA + SZ_4M, &v), 2);
	KUNIT_EXPECT_EQ(test, v & ASCEND_PTE_ADDR_MASK, 0ULL);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 3UL);
	ascend_pt_unmap(&d->pt, PT_VA + SZ_4M, SZ_2M);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	pt_dev_fini(d);
}

static void pt_exhaust_and_leaks(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	struct ascend_pt_pool *pool = &d->adev.pt_pool;
	unsigned int n = 0, i;
	int ret = 0;

	KUNIT_ASSERT_EQ(test, pt_map1(d, 0, 0, SZ_4K, ASCEND_AS_HBM, false), 0);
	ascend_pt_unmap(&d->pt, 0, SZ_4K);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	KUNIT_EXPECT_EQ(test, pool->used, 1UL);
	/* each 4 KiB page 1 GiB apart takes a level-2 and a level-3 table */
	while (n < pool->npages) {
		ret = pt_map1(d, (u64)n * SZ_1G, SZ_4K, SZ_4K, ASCEND_AS_HBM,
			      false);
		if (ret)
			break;
		n++;
	}
	KUNIT_EXPECT_EQ(test, ret, -ENOSPC);
	KUNIT_EXPECT_GT(test, n, (unsigned int)(pool->npages / 3));
	KUNIT_EXPECT_EQ(test, pool->used, d->pt.nr_pages);
	KUNIT_EXPECT_GE(test, pool->used + 2, pool->npages);
	for (i = 0; i < n; i++)
		ascend_pt_unmap(&d->pt, (u64)i * SZ_1G, SZ_4K);
	/* a few empty tables are kept, never more than the bound */
	KUNIT_EXPECT_LE(test, d->pt.nr_empty, (unsigned int)ASCEND_PT_KEEP_EMPTY);
	KUNIT_EXPECT_LE(test, d->pt.nr_pages, 1UL + 3 * ASCEND_PT_KEEP_EMPTY);
	KUNIT_EXPECT_EQ(test, pool->used, d->pt.nr_pages);
	KUNIT_EXPECT_EQ(test, pt_trimmed(d), 1UL);
	KUNIT_EXPECT_EQ(test, pool->used, 1UL);

	/* random layouts, then the end of the address space */
	for (i = 0; i < 64; i++) {
		u64 va = PT_VA + (u64)(get_random_u32() % 4096) * SZ_2M;
		u64 size = (u64)(get_random_u32() % 1024 + 1) * SZ_4K;

		ret = pt_map1(d, va, SZ_4K * (get_random_u32() % 8), size,
			      ASCEND_AS_HBM, false);
		if (ret == 0 && (get_random_u32() & 1))
			ascend_pt_unmap(&d->pt, va, size);
		else
			KUNIT_EXPECT_TRUE(test, ret == 0 || ret == -EEXIST);
	}
	ascend_pt_fini(&d->pt);
	KUNIT_EXPECT_EQ(test, pool->used, 0UL);
	KUNIT_EXPECT_EQ(test, d->pt.nr_pages, 0UL);
	pt_dev_fini(d);
}

/* A fake HBM allocation of @n ranges. */
static struct ascend_hbm_alloc *pt_alloc(struct kunit *test, const u64 *addr,
					 const u64 *size, unsigned int n,
					 u64 page_size)
{
	struct ascend_hbm_alloc *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct ascend_hbm_range *r = kunit_kcalloc(test, n, sizeof(*r),
						   GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, a && r);
	for (i = 0; i < n; i++) {
		r[i].offset = a->size;
		r[i].addr = addr[i];
		r[i].size = size[i];
		a->size += size[i];
	}
	a->ranges = r;
	a->nr_ranges = n;
	a->page_size = page_size;
	return a;
}

/*
 * Is what the device's SMMU sees at every page of [va, va + len) what the
 * driver's bookkeeping says (ascend_vm_span_locked()), for reads and
 * writes?  The debug check of the DMA path, as a test.
 */
static void pt_vm_agree(struct kunit *test, struct pt_dev *d,
			struct ascend_vm *vm, u64 va, u64 len)
{
	u64 off;

	mutex_lock(&vm->lock);
	for (off = 0; off < len; off += SZ_4K) {
		struct ascend_dma_span a = {}, b = {};
		bool w;

		for (w = false; ; w = true) {
			int ra = ascend_vm_span_locked(vm, va + off, 1, w, &a);
			int rb = ascend_emu_smmu_xlate(&d->emu, vm->pt.asid,
						       va + off, 1, w, false, &b);

			KUNIT_EXPECT_EQ_MSG(test, ra, rb, "va %llx w %d",
					    va + off, w);
			if (!ra && !rb) {
				KUNIT_EXPECT_EQ(test, a.addr, b.addr);
				KUNIT_EXPECT_EQ(test, a.as, b.as);
			}
			if (w)
				break;
		}
	}
	mutex_unlock(&vm->lock);
}

/* ascend_vm.c writes every kind of mapping it makes, and removes it. */
static void pt_vm_in_step(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	struct ascend_vm *vm = kunit_kzalloc(test, sizeof(*vm), GFP_KERNEL);
	struct ascend_vm_mapping *m = kunit_kcalloc(test, 4, sizeof(*m),
						    GFP_KERNEL);
	static const u64 a1[] = { SZ_4M, SZ_1M }, s1[] = { SZ_2M, 12 * SZ_4K };
	static const u64 a2[] = { 0x40000 }, s2[] = { SZ_8K };
	struct ascend_hbm_range host[2] = {
		{ 0, 0x123000, SZ_4K }, { SZ_4K, 0x9000, SZ_8K },
	};
	struct ascend_hbm_alloc *big, *small;
	const u64 hva = BIT_ULL(36);
	struct ascend_vm_mapping *p;
	LIST_HEAD(parked);

	KUNIT_ASSERT_TRUE(test, vm && m);
	big = pt_alloc(test, a1, s1, 2, SZ_4K);
	small = pt_alloc(test, a2, s2, 1, SZ_4K);
	ascend_vm_init(vm, &d->adev);
	KUNIT_ASSERT_EQ(test, ascend_vm_set_window(vm, PT_VA, SZ_1G), 0);
	KUNIT_EXPECT_NE(test, vm->pt.asid, 0U);

	KUNIT_ASSERT_EQ(test, ascend_vm_map(vm, &m[0], big), 0);
	KUNIT_ASSERT_EQ(test, ascend_vm_map(vm, &m[1], small), 0);
	m[2].ranges = host;
	m[2].nr_ranges = 2;
	m[2].readonly = true;
	KUNIT_ASSERT_EQ(test, ascend_vm_map_host(vm, &m[2], hva, 3 * SZ_4K), 0);
	pt_vm_agree(test, d, vm, m[0].node.start, big->size + SZ_8K);
	pt_vm_agree(test, d, vm, m[1].node.start, small->size + SZ_8K);
	pt_vm_agree(test, d, vm, hva - SZ_4K, 5 * SZ_4K);

	/* parked: the range faults; taken again: the new backing */
	KUNIT_EXPECT_TRUE(test, ascend_vm_unmap_park(vm, &m[1]));
	pt_vm_agree(test, d, vm, m[1].node.start, SZ_8K);
	mutex_lock(&vm->lock);
	p = ascend_vm_take_parked_locked(vm, small);
	mutex_unlock(&vm->lock);
	KUNIT_EXPECT_PTR_EQ(test, p, &m[1]);
	pt_vm_agree(test, d, vm, m[1].node.start, SZ_8K);

	/* an orphan is replaced by a new host mapping of its address */
	ascend_vm_orphan_host(vm, &m[2]);
	m[3].ranges = &host[1];
	m[3].nr_ranges = 1;
	host[1].offset = 0;
	KUNIT_ASSERT_EQ(test, ascend_vm_map_host(vm, &m[3], hva, SZ_8K), 0);
	pt_vm_agree(test, d, vm, hva - SZ_4K, 5 * SZ_4K);
	ascend_vm_unmap_host(vm, &m[2]);	/* the evicted one: nothing */
	pt_vm_agree(test, d, vm, hva, SZ_8K);
	ascend_vm_unmap_host(vm, &m[3]);

	ascend_vm_unmap(vm, &m[0]);
	KUNIT_EXPECT_TRUE(test, ascend_vm_unmap_park(vm, &m[1]));
	ascend_vm_unpark_all(vm, &parked);
	pt_vm_agree(test, d, vm, PT_VA, 8 * SZ_4K);
	/* nothing mapped: a few kept empty tables, then the root alone */
	KUNIT_EXPECT_LE(test, vm->pt.nr_empty, (unsigned int)ASCEND_PT_KEEP_EMPTY);
	ascend_pt_trim(&vm->pt, 0);
	KUNIT_EXPECT_EQ(test, vm->pt.nr_pages, 1UL);
	ascend_vm_fini(vm);
	KUNIT_EXPECT_EQ(test, d->adev.pt_pool.used, 0UL);
	pt_dev_fini(d);
}

static struct kunit_case ascend_pt_test_cases[] = {
	KUNIT_CASE(pt_leaf_sizes),
	KUNIT_CASE(pt_mixed),
	KUNIT_CASE(pt_edges),
	KUNIT_CASE(pt_hinted_walks),
	KUNIT_CASE(pt_exhaust_and_leaks),
	KUNIT_CASE(pt_vm_in_step),
	{}
};

struct kunit_suite ascend_pt_test_suite = {
	.name = "ascend_pt",
	.test_cases = ascend_pt_test_cases,
};

/* ---- the walker --------------------------------------------------------- */

static int sm_xlate(struct pt_dev *d, u64 va, u64 len, bool write,
		    struct ascend_dma_span *s)
{
	return ascend_emu_smmu_xlate(&d->emu, d->pt.asid, va, len, write, true,
				     s);
}

/* Each leaf kind translates, to the piece's end; outside it faults. */
static void sm_leaves(struct kunit *test)
{
	static const u64 sz[] = { SZ_4K, SZ_2M, SZ_1G };
	struct pt_dev *d = pt_dev_new(test);
	struct ascend_dma_span s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sz); i++) {
		u64 va = PT_VA + 4ULL * SZ_1G, pa = 2 * sz[i];

		KUNIT_ASSERT_EQ(test, pt_map1(d, va, pa, sz[i], ASCEND_AS_HBM,
					      false), 0);
		KUNIT_EXPECT_EQ(test, sm_xlate(d, va + 5, 100, false, &s), 0);
		KUNIT_EXPECT_EQ(test, s.addr, pa + 5);
		KUNIT_EXPECT_EQ(test, s.len, 100ULL);
		KUNIT_EXPECT_EQ(test, s.as, (u32)ASCEND_AS_HBM);
		/* a piece ends with the leaf */
		KUNIT_EXPECT_EQ(test, sm_xlate(d, va + sz[i] - 16, 64, true, &s),
				0);
		KUNIT_EXPECT_EQ(test, s.addr, pa + sz[i] - 16);
		KUNIT_EXPECT_EQ(test, s.len, 16ULL);
		KUNIT_EXPECT_EQ(test, sm_xlate(d, va + sz[i], 1, false, &s),
				-EFAULT);
		KUNIT_EXPECT_EQ(test, sm_xlate(d, va - 1, 1, false, &s),
				-EFAULT);
		ascend_pt_unmap(&d->pt, va, sz[i]);
		/* the unmap invalidated what the TLB held */
		KUNIT_EXPECT_EQ(test, sm_xlate(d, va + 5, 1, false, &s),
				-EFAULT);
	}

	/* host memory, read-only: reads to its bus address, writes fault */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, 0xabc000, SZ_8K, ASCEND_AS_SYS,
				      true), 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA + 0x1010, 8, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.addr, 0xabd010ULL);
	KUNIT_EXPECT_EQ(test, s.as, (u32)ASCEND_AS_SYS);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA + 0x1010, 8, true, &s),
			-EFAULT);
	/* no ASID, another ASID, a VA beyond 48 bits */
	KUNIT_EXPECT_EQ(test, ascend_emu_smmu_xlate(&d->emu, 0, PT_VA, 1, false,
						    true, &s), -EFAULT);
	KUNIT_EXPECT_EQ(test, ascend_emu_smmu_xlate(&d->emu, d->pt.asid + 1,
						    PT_VA, 1, false, true, &s),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, BIT_ULL(48) + PT_VA, 1, false, &s),
			-EFAULT);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_8K);
	pt_dev_fini(d);
}

/*
 * Contiguous 4 KiB leaves come back as one piece (one walk reads a burst
 * of descriptors); a discontiguous one ends it.
 */
static void sm_burst(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	struct ascend_hbm_range r[2] = {
		{ 0, 0x10000 + SZ_4K, 5 * SZ_4K }, { 5 * SZ_4K, 0x80000, SZ_4K },
	};
	struct ascend_dma_span s;

	KUNIT_ASSERT_EQ(test, ascend_pt_map(&d->pt, PT_VA, r, 2, 6 * SZ_4K,
					    ASCEND_AS_HBM, false), 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA + 8, 6 * SZ_4K - 8, false, &s),
			0);
	KUNIT_EXPECT_EQ(test, s.addr, 0x11008ULL);
	KUNIT_EXPECT_EQ(test, s.len, 5 * SZ_4K - 8ULL);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA + 5 * SZ_4K, SZ_4K, false, &s),
			0);
	KUNIT_EXPECT_EQ(test, s.addr, 0x80000ULL);
	/* the whole range checked: the unmapped page after it faults */
	{
		u64 fault = 0;

		KUNIT_EXPECT_EQ(test, ascend_emu_smmu_check(&d->emu, d->pt.asid,
							    PT_VA, 7 * SZ_4K,
							    false, true, &fault),
				-EFAULT);
		KUNIT_EXPECT_EQ(test, fault, PT_VA + 6 * SZ_4K);
	}
	ascend_pt_unmap(&d->pt, PT_VA, 6 * SZ_4K);
	pt_dev_fini(d);
}

/*
 * The TLB: a descriptor changed behind its back is not seen until the
 * driver invalidates; invalidating another range or ASID changes nothing;
 * a malformed descriptor faults.
 */
static void sm_tlb_invalidate(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	struct ascend_dma_span s;
	u64 table, v;
	__le64 nv;

	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, 0x5000, SZ_4K, ASCEND_AS_HBM,
				      false), 0);
	KUNIT_ASSERT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.addr, 0x5000ULL);

	/* rewrite the leaf in device memory, as a driver bug would */
	KUNIT_ASSERT_EQ(test, pt_find(test, d, PT_VA, &v), 3);
	table = ascend_pt_root_addr(&d->pt);
	table = pt_desc(test, d, table, ascend_mmu_index(PT_VA, 0)) &
		ASCEND_PTE_ADDR_MASK;
	table = pt_desc(test, d, table, ascend_mmu_index(PT_VA, 1)) &
		ASCEND_PTE_ADDR_MASK;
	table = pt_desc(test, d, table, ascend_mmu_index(PT_VA, 2)) &
		ASCEND_PTE_ADDR_MASK;
	nv = cpu_to_le64(ascend_pte_leaf(0x9000, ASCEND_AS_HBM, false));
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, table +
						ascend_mmu_index(PT_VA, 3) * 8,
						&nv, 8, true), 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.addr, 0x5000ULL);	/* the cached one */
	ascend_emu_mmu_invalidate(&d->emu.hw, d->pt.asid, PT_VA + SZ_4K, SZ_4K);
	ascend_emu_mmu_invalidate(&d->emu.hw, d->pt.asid + 1, PT_VA, SZ_4K);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.addr, 0x5000ULL);
	ascend_emu_mmu_invalidate(&d->emu.hw, d->pt.asid, PT_VA + 100, 1);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.addr, 0x9000ULL);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, true, &s), -EFAULT);

	/* a reserved bit: a fault, not a translation */
	nv = cpu_to_le64(ascend_pte_leaf(0x9000, ASCEND_AS_HBM, true) | BIT_ULL(5));
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, table +
						ascend_mmu_index(PT_VA, 3) * 8,
						&nv, 8, true), 0);
	ascend_emu_mmu_invalidate(&d->emu.hw, d->pt.asid, 0, U64_MAX);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), -EFAULT);
	/* a table bit at level 3 too */
	nv = cpu_to_le64(ascend_pte_table(0x9000));
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, table +
						ascend_mmu_index(PT_VA, 3) * 8,
						&nv, 8, true), 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), -EFAULT);

	/* a context switched off translates nothing, its TLB entries gone */
	nv = cpu_to_le64(ascend_pte_leaf(0x5000, ASCEND_AS_HBM, true));
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, table +
						ascend_mmu_index(PT_VA, 3) * 8,
						&nv, 8, true), 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), 0);
	ascend_emu_mmu_set_context(&d->emu.hw, d->pt.asid, 0, 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), -EFAULT);
	ascend_emu_mmu_set_context(&d->emu.hw, d->pt.asid,
				   ascend_pt_root_addr(&d->pt), 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(d, PT_VA, 1, false, &s), 0);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_4K);
	pt_dev_fini(d);
}

/* A peer window: VAs of device 1's window, walked in device 1's memory. */
static void sm_peer_window(struct kunit *test)
{
	struct pt_dev *d = kunit_kcalloc(test, 2, sizeof(*d), GFP_KERNEL);
	struct ascend_mmu_peer_entry e = {};
	struct ascend_dma_span s;
	const u64 win = PT_VA + 8ULL * SZ_1G;
	u64 fault;

	KUNIT_ASSERT_NOT_NULL(test, d);
	pt_dev_init(test, &d[0], 0);
	pt_dev_init(test, &d[1], 1);
	KUNIT_ASSERT_EQ(test, pt_map1(&d[1], win + SZ_2M, SZ_4M, SZ_2M,
				      ASCEND_AS_HBM, false), 0);
	KUNIT_ASSERT_EQ(test, pt_map1(&d[0], PT_VA, 0, SZ_4K, ASCEND_AS_HBM,
				      false), 0);
	/* without the window the peer's VA faults */
	KUNIT_EXPECT_EQ(test, sm_xlate(&d[0], win + SZ_2M, 1, false, &s),
			-EFAULT);

	e.base = cpu_to_le64(win);
	e.size = cpu_to_le64(SZ_1G);
	e.root = cpu_to_le64(ascend_pt_root_addr(&d[1].pt));
	e.dev = cpu_to_le32(1);
	e.flags = cpu_to_le32(ASCEND_MMU_PEER_VALID);
	KUNIT_ASSERT_EQ(test, ascend_pt_set_peers(&d[0].pt, &e, 1), 0);
	KUNIT_EXPECT_EQ(test, sm_xlate(&d[0], win + SZ_2M + 3, 10, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.addr, SZ_4M + 3ULL);
	KUNIT_EXPECT_EQ(test, s.as, (u32)ASCEND_AS_PEER(1));
	/* unmapped in the peer, outside the window, or not through peers */
	KUNIT_EXPECT_EQ(test, sm_xlate(&d[0], win, 1, false, &s), -EFAULT);
	KUNIT_EXPECT_EQ(test, sm_xlate(&d[0], win + SZ_1G + SZ_2M, 1, false,
				       &s), -EFAULT);
	KUNIT_EXPECT_EQ(test, ascend_emu_smmu_xlate(&d[0].emu, d[0].pt.asid,
						    win + SZ_2M, 1, false,
						    false, &s), -EFAULT);
	/* the local tables first */
	KUNIT_EXPECT_EQ(test, sm_xlate(&d[0], PT_VA, 1, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.as, (u32)ASCEND_AS_HBM);
	/* the peer unmaps: seen at once (peer walks are not cached) */
	ascend_pt_unmap(&d[1].pt, win + SZ_2M, SZ_2M);
	KUNIT_EXPECT_EQ(test, ascend_emu_smmu_check(&d[0].emu, d[0].pt.asid,
						    win + SZ_2M, 8, false, true,
						    &fault), -EFAULT);
	/* the link goes: the table with it */
	KUNIT_EXPECT_EQ(test, ascend_pt_set_peers(&d[0].pt, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, d[0].pt.peers, 0ULL);
	ascend_pt_unmap(&d[0].pt, PT_VA, SZ_4K);
	pt_dev_fini(&d[1]);
	pt_dev_fini(&d[0]);
}

/* Byte access through the SMMU: checked whole before anything moves. */
static void sm_rw(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	struct ascend_hbm_range r[2] = {
		{ 0, 0x30000, SZ_4K }, { SZ_4K, 0x10000, SZ_4K },
	};
	u8 buf[64], back[64];
	unsigned int i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i + 1;
	KUNIT_ASSERT_EQ(test, ascend_pt_map(&d->pt, PT_VA, r, 2, SZ_8K,
					    ASCEND_AS_HBM, false), 0);
	/* across the two pieces */
	KUNIT_EXPECT_EQ(test, ascend_emu_smmu_rw(&d->emu, d->pt.asid,
						 PT_VA + SZ_4K - 32, buf, 64,
						 true, false), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, 0x30000 + SZ_4K - 32,
						back, 32, false), 0);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, 0x10000, back + 32, 32,
						false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, back, 64), 0);
	/* running off the end: -EFAULT and not a byte written */
	memset(back, 0xee, sizeof(back));
	KUNIT_EXPECT_EQ(test, ascend_emu_smmu_rw(&d->emu, d->pt.asid,
						 PT_VA + SZ_8K - 32, back, 64,
						 true, false), -EFAULT);
	KUNIT_ASSERT_EQ(test, ascend_emu_hbm_rw(&d->emu.hw, 0x10000 + SZ_4K - 32,
						buf, 32, false), 0);
	for (i = 0; i < 32; i++)
		KUNIT_EXPECT_EQ(test, buf[i], 0);
	KUNIT_EXPECT_EQ(test, ascend_emu_smmu_rw(&d->emu, d->pt.asid, U64_MAX,
						 buf, 2, false, false), -EINVAL);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_8K);
	pt_dev_fini(d);
}

/* An access section held by another thread for a while. */
struct sm_accessor {
	struct completion begun;
	atomic_t ended;
};

static int sm_access_thread(void *data)
{
	struct sm_accessor *a = data;

	ascend_emu_smmu_access_begin();
	complete(&a->begun);
	msleep(100);
	atomic_set(&a->ended, 1);
	ascend_emu_smmu_access_end();
	return 0;
}

/*
 * mmu_invalidate (and mmu_set_context) return only once the accesses by
 * VA that had begun are over: an unmap may then free the memory.
 */
static void sm_invalidate_waits(struct kunit *test)
{
	struct pt_dev *d = pt_dev_new(test);
	struct sm_accessor a;
	struct task_struct *t;

	init_completion(&a.begun);
	atomic_set(&a.ended, 0);
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, 0x10000, SZ_4K, ASCEND_AS_HBM,
				      false), 0);
	t = kthread_run(sm_access_thread, &a, "sm_access");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&a.begun);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_4K);
	KUNIT_EXPECT_EQ(test, atomic_read(&a.ended), 1);

	/* and with nothing in flight it does not wait */
	KUNIT_ASSERT_EQ(test, pt_map1(d, PT_VA, 0x10000, SZ_4K, ASCEND_AS_HBM,
				      false), 0);
	ascend_pt_unmap(&d->pt, PT_VA, SZ_4K);
	pt_dev_fini(d);
}

static struct kunit_case ascend_smmu_test_cases[] = {
	KUNIT_CASE(sm_leaves),
	KUNIT_CASE(sm_burst),
	KUNIT_CASE(sm_tlb_invalidate),
	KUNIT_CASE(sm_peer_window),
	KUNIT_CASE(sm_rw),
	KUNIT_CASE(sm_invalidate_waits),
	{}
};

struct kunit_suite ascend_smmu_test_suite = {
	.name = "ascend_smmu",
	.test_cases = ascend_smmu_test_cases,
};
