// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: synchronous copy (ascend_copy.c) - argument checks and the split
 * of a copy into DMA descriptors at chunk and segment boundaries; the same
 * for fills, whose pattern must stay in phase across descriptors.
 */
#include <linux/sizes.h>

#include "ascend_accel.h"
#include "ascend_copy.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"
#include "ascend_vm.h"

static void copy_check_args(struct kunit *test)
{
	struct drm_ascend_copy c = {
		.dst = 0x10000, .src = 0x20000, .size = 0x1000,
	};

	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), 0);

	c.size = 0;
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.size = 0x1000;

	c.flags = 1;
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.flags = 0;
	c.pad = 1;
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.pad = 0;

	/* wrap-around of either range */
	c.dst = U64_MAX - 0x10;
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.dst = 0x10000;
	c.src = U64_MAX - 0xfff;
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.src = U64_MAX - 0x1000;	/* ends exactly at U64_MAX */
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), 0);
}

static void copy_check_overlap(struct kunit *test)
{
	struct drm_ascend_copy c = { .size = 0x1000 };

	c.src = 0x10000;
	c.dst = 0x10000;
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.dst = 0x10fff;			/* last byte of src */
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.dst = 0x10000 - 0xfff;		/* dst's last byte is src's first */
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), -EINVAL);
	c.dst = 0x11000;			/* adjacent above */
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), 0);
	c.dst = 0xf000;				/* adjacent below */
	KUNIT_EXPECT_EQ(test, ascend_copy_check(&c), 0);
}

static void copy_split_chunks(struct kunit *test)
{
	const struct ascend_vm_seg dst = { 0x10000000, 3 * SZ_1M + 5 };
	const struct ascend_vm_seg src = { 0x20000000, 3 * SZ_1M + 5 };
	struct ascend_dma_desc d[8];
	int i, n;

	n = ascend_copy_build(&dst, 1, &src, 1, SZ_1M, NULL, 0);
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_ASSERT_EQ(test, ascend_copy_build(&dst, 1, &src, 1, SZ_1M, d, 8),
			4);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, d[i].dst, dst.addr + (u64)i * SZ_1M);
		KUNIT_EXPECT_EQ(test, d[i].src, src.addr + (u64)i * SZ_1M);
		KUNIT_EXPECT_EQ(test, d[i].len, (u64)SZ_1M);
	}
	KUNIT_EXPECT_EQ(test, d[3].dst, dst.addr + 3 * SZ_1M);
	KUNIT_EXPECT_EQ(test, d[3].src, src.addr + 3 * SZ_1M);
	KUNIT_EXPECT_EQ(test, d[3].len, 5ULL);

	/* not enough room */
	KUNIT_EXPECT_EQ(test, ascend_copy_build(&dst, 1, &src, 1, SZ_1M, d, 3),
			-E2BIG);
	/* the chunk size is a real limit */
	KUNIT_EXPECT_EQ(test, ascend_copy_build(&dst, 1, &src, 1, 0, d, 8),
			-EINVAL);
}

static void copy_split_segments(struct kunit *test)
{
	/* dst: 12 KiB + 4 KiB, src: 4 KiB + 12 KiB */
	const struct ascend_vm_seg dst[] = { { 0xa000, 0x3000 },
					     { 0xb0000, 0x1000 } };
	const struct ascend_vm_seg src[] = { { 0xc000, 0x1000 },
					     { 0xd0000, 0x3000 } };
	struct ascend_dma_desc d[4];

	KUNIT_ASSERT_EQ(test, ascend_copy_build(dst, 2, src, 2, SZ_1M, d, 4),
			3);
	KUNIT_EXPECT_EQ(test, d[0].dst, 0xa000ULL);
	KUNIT_EXPECT_EQ(test, d[0].src, 0xc000ULL);
	KUNIT_EXPECT_EQ(test, d[0].len, 0x1000ULL);
	KUNIT_EXPECT_EQ(test, d[1].dst, 0xb000ULL);
	KUNIT_EXPECT_EQ(test, d[1].src, 0xd0000ULL);
	KUNIT_EXPECT_EQ(test, d[1].len, 0x2000ULL);
	KUNIT_EXPECT_EQ(test, d[2].dst, 0xb0000ULL);
	KUNIT_EXPECT_EQ(test, d[2].src, 0xd2000ULL);
	KUNIT_EXPECT_EQ(test, d[2].len, 0x1000ULL);

	/* totals that differ are a bug, not a short copy */
	KUNIT_EXPECT_EQ(test, ascend_copy_build(dst, 2, src, 1, SZ_1M, d, 4),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_copy_build(dst, 1, src, 2, SZ_1M, NULL, 0),
			-EINVAL);
}

/* Chunks and segment cuts together: every byte once, in order, bounded. */
static void copy_split_mixed(struct kunit *test)
{
	const struct ascend_vm_seg dst[] = { { 0x100000000ULL, 5 * SZ_512K } };
	const struct ascend_vm_seg src[] = { { 0x200000000ULL, 3 * SZ_512K },
					     { 0x300000000ULL, SZ_1M } };
	struct ascend_dma_desc d[16];
	u64 done = 0;
	int i, n;

	n = ascend_copy_build(dst, 1, src, 2, SZ_1M, d, ARRAY_SIZE(d));
	/* 1M | 512K (src cut) | 1M (chunk) */
	KUNIT_ASSERT_EQ(test, n, 3);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_LE(test, d[i].len, (u64)SZ_1M);
		KUNIT_EXPECT_EQ(test, d[i].dst, dst[0].addr + done);
		if (done < src[0].len)
			KUNIT_EXPECT_EQ(test, d[i].src, src[0].addr + done);
		else
			KUNIT_EXPECT_EQ(test, d[i].src,
					src[1].addr + done - src[0].len);
		done += d[i].len;
	}
	KUNIT_EXPECT_EQ(test, done, (u64)(5 * SZ_512K));
	KUNIT_EXPECT_EQ(test, d[1].len, (u64)SZ_512K);
}

static void fill_check_args(struct kunit *test)
{
	struct drm_ascend_fill f = {
		.dst = 0x10001, .size = 6, .pattern = 0x1234, .pattern_size = 2,
	};

	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), 0);
	f.flags = 1;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.flags = 0;
	f.size = 0;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.size = 7;				/* not a multiple of 2 */
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.size = 8;
	f.pattern_size = 3;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.pattern_size = 0;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.pattern_size = 8;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.pattern_size = 4;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), 0);
	f.dst = U64_MAX - 3;			/* wraps */
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.dst = U64_MAX - 7;			/* ends exactly at 2^64 */
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), -EINVAL);
	f.dst = U64_MAX - 8;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), 0);
	f.size = 1;
	f.pattern_size = 1;
	KUNIT_EXPECT_EQ(test, ascend_fill_args_check(&f), 0);
}

/* Descriptors keep the pattern in phase across chunks and segments. */
static void fill_split_phase(struct kunit *test)
{
	const struct ascend_vm_seg segs[] = {
		{ .addr = 0x1000, .len = 3 },
		{ .addr = 0x9001, .len = 9 },
	};
	struct ascend_dma_desc d[8];

	KUNIT_ASSERT_EQ(test, ascend_fill_build(segs, 2, 0xaabbccdd, 4, 5,
						NULL, 0), 3);
	KUNIT_ASSERT_EQ(test, ascend_fill_build(segs, 2, 0xaabbccdd, 4, 5,
						d, 8), 3);
	KUNIT_EXPECT_EQ(test, d[0].kind, (u32)ASCEND_DMA_FILL);
	KUNIT_EXPECT_EQ(test, d[0].dst, 0x1000ULL);
	KUNIT_EXPECT_EQ(test, d[0].len, 3ULL);
	KUNIT_EXPECT_EQ(test, d[0].pattern, 0xaabbccddULL);
	KUNIT_EXPECT_EQ(test, d[0].pattern_size, 4U);
	/* byte 3 of the fill: pattern byte 3 (0xaa) first */
	KUNIT_EXPECT_EQ(test, d[1].dst, 0x9001ULL);
	KUNIT_EXPECT_EQ(test, d[1].len, 5ULL);
	KUNIT_EXPECT_EQ(test, d[1].pattern, 0xbbccddaaULL);
	/* byte 8: back in phase */
	KUNIT_EXPECT_EQ(test, d[2].dst, 0x9006ULL);
	KUNIT_EXPECT_EQ(test, d[2].len, 4ULL);
	KUNIT_EXPECT_EQ(test, d[2].pattern, 0xaabbccddULL);

	/* 2-byte pattern, odd phase; high bits dropped */
	KUNIT_ASSERT_EQ(test, ascend_fill_build(segs, 2, 0xffff1234, 2, 64,
						d, 8), 2);
	KUNIT_EXPECT_EQ(test, d[0].pattern, 0x1234ULL);
	KUNIT_EXPECT_EQ(test, d[1].pattern, 0x3412ULL);

	KUNIT_EXPECT_EQ(test, ascend_fill_build(segs, 2, 0, 1, 0, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_fill_build(segs, 2, 0, 1, 2, d, 2),
			-E2BIG);
}

static struct kunit_case ascend_copy_test_cases[] = {
	KUNIT_CASE(copy_check_args),
	KUNIT_CASE(copy_check_overlap),
	KUNIT_CASE(copy_split_chunks),
	KUNIT_CASE(copy_split_segments),
	KUNIT_CASE(copy_split_mixed),
	KUNIT_CASE(fill_check_args),
	KUNIT_CASE(fill_split_phase),
	{}
};

struct kunit_suite ascend_copy_test_suite = {
	.name = "ascend_copy",
	.test_cases = ascend_copy_test_cases,
};
