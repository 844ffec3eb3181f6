// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the HBM manager (ascend_hbm.c) - page-size policies, rounding,
 * fallback, exhaustion, free and coalescing, accounting by class, free
 * space by class, the 1 GiB class, concurrent use, the small-block cache
 * (reuse, reclaim before -ENOSPC, exact statistics).
 */
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/sizes.h>

#include "ascend_accel.h"
#include "ascend_hbm.h"
#include "ascend_kunit.h"

/* A manager of @size bytes, torn down (with its leak check) after the test. */
static void hbm_fini_action(void *hbm)
{
	ascend_hbm_fini(hbm);
}

static struct ascend_hbm *hbm_create(struct kunit *test, u64 size)
{
	struct ascend_hbm *hbm = kunit_kzalloc(test, sizeof(*hbm), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, hbm);
	KUNIT_ASSERT_EQ(test, ascend_hbm_init(hbm, size), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hbm_fini_action,
							hbm), 0);
	return hbm;
}

/* The ranges of @a cover [0, size) in order and are page aligned. */
static void expect_ranges_sane(struct kunit *test, struct ascend_hbm *hbm,
			       const struct ascend_hbm_alloc *a)
{
	u64 offset = 0;
	unsigned int i;

	KUNIT_EXPECT_GE(test, a->nr_ranges, 1U);
	for (i = 0; i < a->nr_ranges; i++) {
		const struct ascend_hbm_range *r = &a->ranges[i];

		KUNIT_EXPECT_EQ(test, r->offset, offset);
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED(r->addr, a->page_size));
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED(r->size, a->page_size));
		KUNIT_EXPECT_LE(test, r->addr + r->size, hbm->size);
		/* Neighbours that are physically adjacent are merged. */
		if (i)
			KUNIT_EXPECT_NE(test, a->ranges[i - 1].addr +
					a->ranges[i - 1].size, r->addr);
		offset += r->size;
	}
	KUNIT_EXPECT_EQ(test, offset, a->size);
}

static void hbm_policy_pages(struct kunit *test)
{
	u64 first, fallback;

	KUNIT_EXPECT_EQ(test, ascend_hbm_policy_pages(DRM_ASCEND_BO_HUGE_FIRST,
						      SZ_1M, &first, &fallback), 0);
	KUNIT_EXPECT_EQ(test, first, (u64)SZ_4K);
	KUNIT_EXPECT_EQ(test, fallback, 0ULL);

	KUNIT_EXPECT_EQ(test, ascend_hbm_policy_pages(DRM_ASCEND_BO_HUGE_FIRST,
						      SZ_1M + 1, &first,
						      &fallback), 0);
	KUNIT_EXPECT_EQ(test, first, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, fallback, (u64)SZ_4K);

	KUNIT_EXPECT_EQ(test, ascend_hbm_policy_pages(DRM_ASCEND_BO_HUGE_ONLY,
						      1, &first, &fallback), 0);
	KUNIT_EXPECT_EQ(test, first, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, fallback, 0ULL);

	KUNIT_EXPECT_EQ(test, ascend_hbm_policy_pages(DRM_ASCEND_BO_NORMAL_ONLY,
						      SZ_1G, &first, &fallback), 0);
	KUNIT_EXPECT_EQ(test, first, (u64)SZ_4K);
	KUNIT_EXPECT_EQ(test, fallback, 0ULL);

	KUNIT_EXPECT_EQ(test, ascend_hbm_policy_pages(DRM_ASCEND_BO_HUGE1G_ONLY,
						      1, &first, &fallback), 0);
	KUNIT_EXPECT_EQ(test, first, (u64)SZ_1G);

	KUNIT_EXPECT_EQ(test, ascend_hbm_policy_pages(4, 1, &first, &fallback),
			-EINVAL);
}

struct hbm_round_case {
	u32 policy;
	u64 size;
	u64 alloc_size;
	u64 page_size;
};

static const struct hbm_round_case hbm_round_cases[] = {
	{ DRM_ASCEND_BO_NORMAL_ONLY, 1, SZ_4K, SZ_4K },
	{ DRM_ASCEND_BO_NORMAL_ONLY, SZ_4K, SZ_4K, SZ_4K },
	{ DRM_ASCEND_BO_NORMAL_ONLY, SZ_4K + 1, SZ_8K, SZ_4K },
	{ DRM_ASCEND_BO_HUGE_FIRST, 100, SZ_4K, SZ_4K },
	{ DRM_ASCEND_BO_HUGE_FIRST, SZ_1M, SZ_1M, SZ_4K },
	{ DRM_ASCEND_BO_HUGE_FIRST, SZ_1M + 1, SZ_2M, SZ_2M },
	{ DRM_ASCEND_BO_HUGE_FIRST, 3 * SZ_1M, SZ_4M, SZ_2M },
	{ DRM_ASCEND_BO_HUGE_ONLY, 1, SZ_2M, SZ_2M },
	{ DRM_ASCEND_BO_HUGE_ONLY, SZ_2M + SZ_4K, SZ_4M, SZ_2M },
	{ DRM_ASCEND_BO_HUGE1G_ONLY, 1, SZ_1G, SZ_1G },
};

static void hbm_rounding(struct kunit *test)
{
	/* 2 GiB of HBM is only bookkeeping here: nothing is backed. */
	struct ascend_hbm *hbm = hbm_create(test, SZ_2G);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hbm_round_cases); i++) {
		const struct hbm_round_case *c = &hbm_round_cases[i];
		struct ascend_hbm_alloc a;

		KUNIT_ASSERT_EQ_MSG(test, ascend_hbm_alloc(hbm, c->size,
							   c->policy, &a), 0,
				    "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, a.size, c->alloc_size, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, a.page_size, c->page_size,
				    "case %u", i);
		KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), a.size);
		expect_ranges_sane(test, hbm, &a);
		ascend_hbm_free(hbm, &a);
		KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);
	}
}

static void hbm_bad_args(struct kunit *test)
{
	struct ascend_hbm *hbm = hbm_create(test, SZ_8M);
	struct ascend_hbm_alloc a;

	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, 0,
					       DRM_ASCEND_BO_NORMAL_ONLY, &a),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_4K, 77, &a), -EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);
}

static void hbm_huge_fallback(struct kunit *test)
{
	struct ascend_hbm *hbm = hbm_create(test, SZ_4M);
	struct ascend_hbm_alloc huge, small, a;

	/* One huge page taken, and one 4 KiB page breaks the other. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_2M,
					       DRM_ASCEND_BO_HUGE_ONLY, &huge), 0);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_4K,
					       DRM_ASCEND_BO_NORMAL_ONLY,
					       &small), 0);

	/* No 2 MiB block is left: HUGE_ONLY fails, HUGE_FIRST falls back. */
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_1M + SZ_512K,
					       DRM_ASCEND_BO_HUGE_ONLY, &a),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_1M + SZ_512K,
					       DRM_ASCEND_BO_HUGE_FIRST, &a), 0);
	KUNIT_EXPECT_EQ(test, a.page_size, (u64)SZ_4K);
	KUNIT_EXPECT_EQ(test, a.size, (u64)(SZ_1M + SZ_512K));
	expect_ranges_sane(test, hbm, &a);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm),
			(u64)(SZ_2M + SZ_4K + SZ_1M + SZ_512K));

	ascend_hbm_free(hbm, &a);
	ascend_hbm_free(hbm, &small);
	ascend_hbm_free(hbm, &huge);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);
}

static void hbm_exhaustion(struct kunit *test)
{
	struct ascend_hbm *hbm = hbm_create(test, SZ_8M);
	struct ascend_hbm_alloc all, a;

	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_8M + 1,
					       DRM_ASCEND_BO_NORMAL_ONLY, &a),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, U64_MAX,
					       DRM_ASCEND_BO_HUGE_FIRST, &a),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, 1,
					       DRM_ASCEND_BO_HUGE1G_ONLY, &a),
			-ENOSPC);

	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8M,
					       DRM_ASCEND_BO_NORMAL_ONLY, &all),
			0);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, 1,
					       DRM_ASCEND_BO_NORMAL_ONLY, &a),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_2M,
					       DRM_ASCEND_BO_HUGE_FIRST, &a),
			-ENOSPC);
	/* A failed allocation leaves nothing behind. */
	KUNIT_EXPECT_EQ(test, a.size, 0ULL);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), (u64)SZ_8M);

	ascend_hbm_free(hbm, &all);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);
}

static void hbm_free_coalesces(struct kunit *test)
{
	const unsigned int n = SZ_8M / SZ_4K;
	struct ascend_hbm *hbm = hbm_create(test, SZ_8M);
	struct ascend_hbm_alloc *pages, big;
	unsigned int i;

	pages = kunit_kcalloc(test, n, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_4K,
						       DRM_ASCEND_BO_NORMAL_ONLY,
						       &pages[i]), 0);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), (u64)SZ_8M);

	/* Free every other page: 4 MiB free, but no 2 MiB block. */
	for (i = 0; i < n; i += 2)
		ascend_hbm_free(hbm, &pages[i]);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_2M,
					       DRM_ASCEND_BO_HUGE_ONLY, &big),
			-ENOSPC);
	/* Scattered 4 KiB pages still serve a normal 4 MiB request. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_4M,
					       DRM_ASCEND_BO_NORMAL_ONLY, &big),
			0);
	KUNIT_EXPECT_EQ(test, big.nr_ranges, n / 2);
	expect_ranges_sane(test, hbm, &big);
	ascend_hbm_free(hbm, &big);

	for (i = 1; i < n; i += 2)
		ascend_hbm_free(hbm, &pages[i]);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);

	/* Everything merged back: the whole HBM is one huge allocation. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8M,
					       DRM_ASCEND_BO_HUGE_ONLY, &big), 0);
	KUNIT_EXPECT_EQ(test, big.nr_ranges, 1U);
	KUNIT_EXPECT_EQ(test, big.ranges[0].addr, 0ULL);
	KUNIT_EXPECT_EQ(test, big.ranges[0].size, (u64)SZ_8M);
	ascend_hbm_free(hbm, &big);
}

/* Free-by-class numbers and largest free block through fragmentation. */
static void hbm_stats_fragmentation(struct kunit *test)
{
	const unsigned int n = SZ_8M / SZ_4K;
	struct ascend_hbm *hbm = hbm_create(test, SZ_8M);
	struct ascend_hbm_alloc *pages;
	struct ascend_hbm_stats st;
	unsigned int i;

	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.total, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.free, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.largest_free, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_NORMAL],
			(u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE],
			(u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE1G], 0ULL);
	KUNIT_EXPECT_EQ(test, st.nr_allocs, 0ULL);

	pages = kunit_kcalloc(test, n, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_4K,
						       DRM_ASCEND_BO_NORMAL_ONLY,
						       &pages[i]), 0);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.free, 0ULL);
	KUNIT_EXPECT_EQ(test, st.largest_free, 0ULL);
	KUNIT_EXPECT_EQ(test, st.used_class[ASCEND_HBM_CLASS_NORMAL],
			(u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.nr_allocs, (u64)n);

	/* Alternate pages free: half the memory, no block above 4 KiB. */
	for (i = 0; i < n; i += 2)
		ascend_hbm_free(hbm, &pages[i]);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.free, (u64)SZ_4M);
	KUNIT_EXPECT_EQ(test, st.largest_free, (u64)SZ_4K);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_NORMAL],
			(u64)SZ_4M);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE], 0ULL);

	/* Free the first 2 MiB's odd pages: one 2 MiB block appears. */
	for (i = 1; i < SZ_2M / SZ_4K; i += 2)
		ascend_hbm_free(hbm, &pages[i]);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.free, (u64)(SZ_4M + SZ_1M));
	KUNIT_EXPECT_EQ(test, st.largest_free, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE],
			(u64)SZ_2M);

	for (; i < n; i += 2)
		ascend_hbm_free(hbm, &pages[i]);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.used, 0ULL);
	KUNIT_EXPECT_EQ(test, st.nr_allocs, 0ULL);
	KUNIT_EXPECT_EQ(test, st.used_class[ASCEND_HBM_CLASS_NORMAL], 0ULL);
	/* Fully coalesced: one 8 MiB block again. */
	KUNIT_EXPECT_EQ(test, st.largest_free, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE],
			(u64)SZ_8M);
}

/* The 1 GiB class on a 4 GiB device (never touched: bookkeeping only). */
static void hbm_huge1g(struct kunit *test)
{
	struct ascend_hbm *hbm = hbm_create(test, SZ_4G);
	struct ascend_hbm_alloc g, g2, small, a;
	struct ascend_hbm_stats st;

	/* 1.5 GiB rounds to 2 GiB of 1 GiB pages, naturally aligned. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_1G + SZ_512M,
					       DRM_ASCEND_BO_HUGE1G_ONLY, &g), 0);
	KUNIT_EXPECT_EQ(test, g.page_size, (u64)SZ_1G);
	KUNIT_EXPECT_EQ(test, g.size, (u64)SZ_2G);
	expect_ranges_sane(test, hbm, &g);

	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.used_class[ASCEND_HBM_CLASS_HUGE1G],
			(u64)SZ_2G);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE1G],
			(u64)SZ_2G);

	/* One 4 KiB page breaks one of the two free gigabytes. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, 1,
					       DRM_ASCEND_BO_NORMAL_ONLY,
					       &small), 0);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE1G],
			(u64)SZ_1G);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE],
			(u64)SZ_2G - SZ_2M);
	KUNIT_EXPECT_EQ(test, st.largest_free, (u64)SZ_1G);

	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_1G + 1,
					       DRM_ASCEND_BO_HUGE1G_ONLY, &a),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_1G,
					       DRM_ASCEND_BO_HUGE1G_ONLY, &g2),
			0);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, 1,
					       DRM_ASCEND_BO_HUGE1G_ONLY, &a),
			-ENOSPC);
	/* HUGE_FIRST still finds 2 MiB pages in the broken gigabyte. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_4M,
					       DRM_ASCEND_BO_HUGE_FIRST, &a), 0);
	KUNIT_EXPECT_EQ(test, a.page_size, (u64)SZ_2M);

	ascend_hbm_free(hbm, &a);
	ascend_hbm_free(hbm, &g2);
	ascend_hbm_free(hbm, &small);
	ascend_hbm_free(hbm, &g);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.used, 0ULL);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE1G],
			(u64)SZ_4G);
}

/* Policies by size, the P2P flag recorded and accounted per class. */
static void hbm_policy_classes(struct kunit *test)
{
	struct ascend_hbm *hbm = hbm_create(test, SZ_64M);
	struct ascend_hbm_alloc n1, h1, h2, p, bad;
	struct ascend_hbm_stats st;

	/* HUGE_FIRST: up to 1 MiB normal pages, above that 2 MiB pages */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_1M,
					       DRM_ASCEND_BO_HUGE_FIRST, &n1), 0);
	KUNIT_EXPECT_EQ(test, n1.page_size, (u64)SZ_4K);
	KUNIT_EXPECT_EQ(test, n1.size, (u64)SZ_1M);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_1M + 32,
					       DRM_ASCEND_BO_HUGE_FIRST, &h1), 0);
	KUNIT_EXPECT_EQ(test, h1.page_size, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, h1.size, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, h1.policy, (u32)DRM_ASCEND_BO_HUGE_FIRST);
	/* HUGE_ONLY: 2 MiB pages even for one byte */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc_flags(hbm, 1,
						     DRM_ASCEND_BO_HUGE_ONLY,
						     DRM_ASCEND_BO_P2P, &h2), 0);
	KUNIT_EXPECT_EQ(test, h2.size, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, h2.flags, (u32)DRM_ASCEND_BO_P2P);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc_flags(hbm, SZ_8K + 1,
						     DRM_ASCEND_BO_NORMAL_ONLY,
						     DRM_ASCEND_BO_P2P, &p), 0);
	KUNIT_EXPECT_EQ(test, p.size, (u64)(SZ_8K + SZ_4K));

	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.used_class[ASCEND_HBM_CLASS_NORMAL],
			(u64)(SZ_1M + SZ_8K + SZ_4K));
	KUNIT_EXPECT_EQ(test, st.used_class[ASCEND_HBM_CLASS_HUGE],
			(u64)SZ_4M);
	KUNIT_EXPECT_EQ(test, st.used_p2p[ASCEND_HBM_CLASS_NORMAL],
			(u64)(SZ_8K + SZ_4K));
	KUNIT_EXPECT_EQ(test, st.used_p2p[ASCEND_HBM_CLASS_HUGE], (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, st.used, st.total - st.free);
	KUNIT_EXPECT_EQ(test, st.nr_allocs, 4ULL);

	/* unknown flags */
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc_flags(hbm, SZ_4K,
						     DRM_ASCEND_BO_NORMAL_ONLY,
						     2, &bad), -EINVAL);

	ascend_hbm_free(hbm, &p);
	ascend_hbm_free(hbm, &h2);
	ascend_hbm_free(hbm, &h1);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.used_p2p[ASCEND_HBM_CLASS_NORMAL], 0ULL);
	KUNIT_EXPECT_EQ(test, st.used_p2p[ASCEND_HBM_CLASS_HUGE], 0ULL);
	KUNIT_EXPECT_EQ(test, st.used_class[ASCEND_HBM_CLASS_HUGE], 0ULL);
	KUNIT_EXPECT_EQ(test, st.used, (u64)SZ_1M);
	ascend_hbm_free(hbm, &n1);
}

#define HBM_THREADS	4
#define HBM_THREAD_OPS	2000

struct hbm_thread {
	struct ascend_hbm *hbm;
	struct completion done;
	unsigned int seed;
	int errors;
};

/* Random alloc/free over a small set of slots; everything freed at the end. */
static int hbm_thread_fn(void *data)
{
	struct hbm_thread *t = data;
	struct ascend_hbm_alloc slots[16] = {};
	u32 x = t->seed;
	unsigned int i;

	for (i = 0; i < HBM_THREAD_OPS; i++) {
		struct ascend_hbm_alloc *a;
		int ret;

		x = x * 1103515245 + 12345;
		a = &slots[(x >> 8) % ARRAY_SIZE(slots)];
		if (a->size) {
			ascend_hbm_free(t->hbm, a);
			continue;
		}
		ret = ascend_hbm_alloc(t->hbm, 1 + (x >> 12) % (SZ_4M - 1),
				       (x >> 4) % 3, a);
		/* -ENOSPC is fair when the others hold the memory. */
		if (ret && ret != -ENOSPC)
			t->errors++;
	}
	for (i = 0; i < ARRAY_SIZE(slots); i++)
		ascend_hbm_free(t->hbm, &slots[i]);
	complete(&t->done);
	return 0;
}

static void hbm_concurrent(struct kunit *test)
{
	struct ascend_hbm *hbm = hbm_create(test, SZ_128M);
	struct hbm_thread *t;
	struct ascend_hbm_stats st;
	unsigned int i;

	t = kunit_kcalloc(test, HBM_THREADS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < HBM_THREADS; i++) {
		struct task_struct *task;

		t[i].hbm = hbm;
		t[i].seed = 77 + i * 1000;
		init_completion(&t[i].done);
		task = kthread_run(hbm_thread_fn, &t[i], "hbm_test%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	}
	for (i = 0; i < HBM_THREADS; i++) {
		wait_for_completion(&t[i].done);
		KUNIT_EXPECT_EQ(test, t[i].errors, 0);
	}

	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.used, 0ULL);
	KUNIT_EXPECT_EQ(test, st.nr_allocs, 0ULL);
	for (i = 0; i < ASCEND_HBM_NR_CLASSES; i++)
		KUNIT_EXPECT_EQ(test, st.used_class[i], 0ULL);
	KUNIT_EXPECT_EQ(test, st.largest_free, (u64)SZ_128M);
}

/*
 * The small-block cache: a freed small block is handed out again, counts
 * as free, and is given back to the buddy before an allocation fails or
 * free space is reported.
 */
static void hbm_small_cache(struct kunit *test)
{
	const unsigned int n = SZ_8M / SZ_8K;
	struct ascend_hbm *hbm = hbm_create(test, SZ_8M);
	struct ascend_hbm_alloc *pieces, a, b, big;
	struct ascend_hbm_stats st;
	unsigned int i;
	u64 addr;

	/* A freed 8 KiB block comes back for the next 8 KiB request. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8K,
					       DRM_ASCEND_BO_HUGE_FIRST, &a), 0);
	KUNIT_ASSERT_EQ(test, a.nr_ranges, 1U);
	KUNIT_EXPECT_PTR_EQ(test, a.ranges, &a.one_range);
	addr = a.ranges[0].addr;
	ascend_hbm_free(hbm, &a);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);
	KUNIT_EXPECT_EQ(test, hbm->cached, (u64)SZ_8K);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8K,
					       DRM_ASCEND_BO_NORMAL_ONLY, &a), 0);
	KUNIT_EXPECT_EQ(test, a.ranges[0].addr, addr);
	KUNIT_EXPECT_EQ(test, hbm->cached, 0ULL);
	expect_ranges_sane(test, hbm, &a);

	/* Cached bytes are free bytes, and the snapshot is exact. */
	ascend_hbm_free(hbm, &a);
	KUNIT_EXPECT_NE(test, hbm->cached, 0ULL);
	ascend_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.used, 0ULL);
	KUNIT_EXPECT_EQ(test, st.free, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.largest_free, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, st.free_class[ASCEND_HBM_CLASS_HUGE],
			(u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, hbm->cached, 0ULL);

	/* Fill the device with small pieces and free them all: 4 MiB cached. */
	pieces = kunit_kcalloc(test, n, sizeof(*pieces), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pieces);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8K,
						       DRM_ASCEND_BO_HUGE_FIRST,
						       &pieces[i]), 0);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_4K,
					       DRM_ASCEND_BO_NORMAL_ONLY, &a),
			-ENOSPC);
	for (i = 0; i < n; i++)
		ascend_hbm_free(hbm, &pieces[i]);
	KUNIT_EXPECT_EQ(test, hbm->cached, (u64)ASCEND_HBM_CACHE_MAX_BYTES);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);

	/* The whole device as one block: the cache is reclaimed first. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8M,
					       DRM_ASCEND_BO_HUGE_ONLY, &big), 0);
	KUNIT_EXPECT_EQ(test, big.nr_ranges, 1U);
	KUNIT_EXPECT_EQ(test, hbm->cached, 0ULL);
	ascend_hbm_free(hbm, &big);

	/* -ENOSPC only when the memory is really gone, cache or not. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8M - SZ_8K,
					       DRM_ASCEND_BO_NORMAL_ONLY, &big),
			0);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_8K,
					       DRM_ASCEND_BO_NORMAL_ONLY, &a), 0);
	ascend_hbm_free(hbm, &a);
	KUNIT_EXPECT_EQ(test, hbm->cached, (u64)SZ_8K);
	KUNIT_EXPECT_EQ(test, ascend_hbm_alloc(hbm, SZ_8K + SZ_4K,
					       DRM_ASCEND_BO_NORMAL_ONLY, &b),
			-ENOSPC);
	/* Two 4 KiB pieces out of the cached 8 KiB block. */
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_4K,
					       DRM_ASCEND_BO_NORMAL_ONLY, &a), 0);
	KUNIT_ASSERT_EQ(test, ascend_hbm_alloc(hbm, SZ_4K,
					       DRM_ASCEND_BO_NORMAL_ONLY, &b), 0);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), (u64)SZ_8M);
	ascend_hbm_free(hbm, &a);
	ascend_hbm_free(hbm, &b);
	ascend_hbm_free(hbm, &big);
	KUNIT_EXPECT_EQ(test, ascend_hbm_used(hbm), 0ULL);
}

static struct kunit_case ascend_hbm_test_cases[] = {
	KUNIT_CASE(hbm_policy_pages),
	KUNIT_CASE(hbm_rounding),
	KUNIT_CASE(hbm_bad_args),
	KUNIT_CASE(hbm_huge_fallback),
	KUNIT_CASE(hbm_exhaustion),
	KUNIT_CASE(hbm_free_coalesces),
	KUNIT_CASE(hbm_stats_fragmentation),
	KUNIT_CASE(hbm_huge1g),
	KUNIT_CASE(hbm_policy_classes),
	KUNIT_CASE(hbm_concurrent),
	KUNIT_CASE(hbm_small_cache),
	{}
};

struct kunit_suite ascend_hbm_test_suite = {
	.name = "ascend_hbm",
	.test_cases = ascend_hbm_test_cases,
};
