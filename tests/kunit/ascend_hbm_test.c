// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the HBM manager (ascend_hbm.c) - page-size policies, rounding,
 * fallback, exhaustion, free and coalescing, accounting.
 */
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

static struct kunit_case ascend_hbm_test_cases[] = {
	KUNIT_CASE(hbm_policy_pages),
	KUNIT_CASE(hbm_rounding),
	KUNIT_CASE(hbm_bad_args),
	KUNIT_CASE(hbm_huge_fallback),
	KUNIT_CASE(hbm_exhaustion),
	KUNIT_CASE(hbm_free_coalesces),
	{}
};

struct kunit_suite ascend_hbm_test_suite = {
	.name = "ascend_hbm",
	.test_cases = ascend_hbm_test_cases,
};
