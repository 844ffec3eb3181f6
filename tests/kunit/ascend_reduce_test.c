// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the reduce descriptor's element operations (ascend_emu_reduce.c)
 * and the command checker's rules for ring REDUCE (ascend_emu_cmd.c):
 * integer wrap-around and order, IEEE sums rounded to nearest even in
 * binary32, binary16 and bfloat16 (ties, overflow, subnormals, inf - inf),
 * RMAX/RMIN with -0 below +0 and NaN operands winning (quieted), whole
 * buffers of little-endian elements, and every payload field checked.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "ascend_emu.h"
#include "ascend_hw.h"
#include "ascend_kunit.h"

struct red_case {
	u32 op, type, a, b, want;
};

#define RSUM	ASCEND_REDUCE_SUM
#define RMAX	ASCEND_REDUCE_MAX
#define RMIN	ASCEND_REDUCE_MIN

static const struct red_case red_cases[] = {
	/* integers wrap; RMAX/RMIN are signed except for uint32 */
	{ RSUM, ASCEND_REDUCE_INT8, 0x7f, 0x01, 0x80 },
	{ RSUM, ASCEND_REDUCE_INT8, 0xff, 0x01, 0x00 },
	{ RMAX, ASCEND_REDUCE_INT8, 0xff, 0x01, 0x01 },
	{ RMIN, ASCEND_REDUCE_INT8, 0x80, 0x7f, 0x80 },
	{ RSUM, ASCEND_REDUCE_INT16, 0x7fff, 0x0001, 0x8000 },
	{ RMAX, ASCEND_REDUCE_INT16, 0x8000, 0x7fff, 0x7fff },
	{ RMIN, ASCEND_REDUCE_INT16, 0x8000, 0x7fff, 0x8000 },
	{ RSUM, ASCEND_REDUCE_INT32, 0x7fffffff, 1, 0x80000000 },
	{ RMAX, ASCEND_REDUCE_INT32, 0xffffffff, 0, 0 },
	{ RMIN, ASCEND_REDUCE_INT32, 0xffffffff, 0, 0xffffffff },
	{ RSUM, ASCEND_REDUCE_UINT32, 0xffffffff, 2, 1 },
	{ RMAX, ASCEND_REDUCE_UINT32, 0xffffffff, 0, 0xffffffff },
	{ RMIN, ASCEND_REDUCE_UINT32, 0xffffffff, 0, 0 },
	/* binary32: ties to even, inf - inf, NaN */
	{ RSUM, ASCEND_REDUCE_FP32, 0x3f800000, 0x33800000, 0x3f800000 },
	{ RSUM, ASCEND_REDUCE_FP32, 0x3f800001, 0x33800000, 0x3f800002 },
	{ RSUM, ASCEND_REDUCE_FP32, 0x7f800000, 0xff800000, 0x7fc00000 },
	{ RSUM, ASCEND_REDUCE_FP32, 0x3f800000, 0xbf800000, 0x00000000 },
	{ RMAX, ASCEND_REDUCE_FP32, 0xbf800000, 0x3f800000, 0x3f800000 },
	{ RMIN, ASCEND_REDUCE_FP32, 0x7f800000, 0xff800000, 0xff800000 },
	{ RMIN, ASCEND_REDUCE_FP32, 0x7f800001, 0x00000000, 0x7fc00001 },
	{ RMAX, ASCEND_REDUCE_FP32, 0x3f800000, 0xffc00005, 0xffc00005 },
	{ RMAX, ASCEND_REDUCE_FP32, 0x80000000, 0x00000000, 0x00000000 },
	{ RMIN, ASCEND_REDUCE_FP32, 0x00000000, 0x80000000, 0x80000000 },
	/* binary16: via binary32, one rounding */
	{ RSUM, ASCEND_REDUCE_FP16, 0x3c00, 0x1000, 0x3c00 },	/* tie: even */
	{ RSUM, ASCEND_REDUCE_FP16, 0x3c01, 0x1000, 0x3c02 },	/* tie: even */
	{ RSUM, ASCEND_REDUCE_FP16, 0x3c00, 0x1001, 0x3c01 },	/* above */
	{ RSUM, ASCEND_REDUCE_FP16, 0x7bff, 0x7bff, 0x7c00 },	/* overflow */
	{ RSUM, ASCEND_REDUCE_FP16, 0x0001, 0x0001, 0x0002 },	/* subnormal */
	{ RSUM, ASCEND_REDUCE_FP16, 0x8001, 0x0001, 0x0000 },	/* x - x = +0 */
	{ RSUM, ASCEND_REDUCE_FP16, 0x7c00, 0xfc00, 0x7e00 },	/* inf - inf */
	{ RSUM, ASCEND_REDUCE_FP16, 0x3c00, 0x4000, 0x4200 },	/* 1 + 2 = 3 */
	{ RMAX, ASCEND_REDUCE_FP16, 0x8000, 0x0000, 0x0000 },
	{ RMIN, ASCEND_REDUCE_FP16, 0x8000, 0x0000, 0x8000 },
	{ RMAX, ASCEND_REDUCE_FP16, 0xbc00, 0xc000, 0xbc00 },
	{ RMIN, ASCEND_REDUCE_FP16, 0xbc00, 0xc000, 0xc000 },
	{ RMAX, ASCEND_REDUCE_FP16, 0x7e00, 0x3c00, 0x7e00 },
	{ RMAX, ASCEND_REDUCE_FP16, 0x3c00, 0x7c01, 0x7e01 },	/* quieted */
	{ RMIN, ASCEND_REDUCE_FP16, 0x7c00, 0x7bff, 0x7bff },
	/* bfloat16 */
	{ RSUM, ASCEND_REDUCE_BF16, 0x3f80, 0x3b80, 0x3f80 },	/* tie: even */
	{ RSUM, ASCEND_REDUCE_BF16, 0x3f81, 0x3b80, 0x3f82 },	/* tie: even */
	{ RSUM, ASCEND_REDUCE_BF16, 0x3f80, 0x3b81, 0x3f81 },	/* above */
	{ RSUM, ASCEND_REDUCE_BF16, 0x7f7f, 0x7f7f, 0x7f80 },	/* overflow */
	{ RSUM, ASCEND_REDUCE_BF16, 0x3f80, 0x4000, 0x4040 },	/* 1 + 2 = 3 */
	{ RMAX, ASCEND_REDUCE_BF16, 0xff80, 0x0001, 0x0001 },
	{ RMIN, ASCEND_REDUCE_BF16, 0x7f81, 0x0000, 0x7fc1 },
	{ RMIN, ASCEND_REDUCE_BF16, 0x8000, 0x0000, 0x8000 },
};

static void red_elements(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(red_cases); i++) {
		const struct red_case *t = &red_cases[i];

		KUNIT_EXPECT_EQ_MSG(test, ascend_reduce_one(t->op, t->type, t->a,
							    t->b), t->want,
				    "case %u: op %u type %u %#x, %#x", i, t->op,
				    t->type, t->a, t->b);
	}
}

static void red_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(ASCEND_REDUCE_INT8), 1U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(ASCEND_REDUCE_INT16), 2U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(ASCEND_REDUCE_INT32), 4U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(ASCEND_REDUCE_UINT32), 4U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(ASCEND_REDUCE_FP16), 2U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(ASCEND_REDUCE_FP32), 4U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(ASCEND_REDUCE_BF16), 2U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(7), 0U);
	KUNIT_EXPECT_EQ(test, ascend_reduce_elem_size(U32_MAX), 0U);
	KUNIT_EXPECT_TRUE(test, ascend_reduce_op_valid(ASCEND_REDUCE_MIN));
	KUNIT_EXPECT_FALSE(test, ascend_reduce_op_valid(3));
	KUNIT_EXPECT_FALSE(test, ascend_reduce_op_valid(13));
}

/* A buffer of little-endian elements; a trailing partial element untouched. */
static void red_buffers(struct kunit *test)
{
	u8 d[7] = { 0x00, 0x3c, 0xff, 0x7b, 0x00, 0x80, 0x55 };
	const u8 s[7] = { 0x00, 0x40, 0xff, 0x7b, 0x00, 0x00, 0x66 };
	u8 i8d[3] = { 100, 0x80, 5 }, i8s[3] = { 100, 0xff, 0xfb };
	__le32 w[2] = { cpu_to_le32(0x7fffffff), cpu_to_le32(5) };
	const __le32 v[2] = { cpu_to_le32(1), cpu_to_le32(0xfffffffb) };

	ascend_reduce_apply(RSUM, ASCEND_REDUCE_FP16, d, s, sizeof(d));
	/* 1 + 2 = 3, 65504 + 65504 = inf, -0 + +0 = +0 */
	KUNIT_EXPECT_EQ(test, d[0], 0x00);
	KUNIT_EXPECT_EQ(test, d[1], 0x42);
	KUNIT_EXPECT_EQ(test, d[2], 0x00);
	KUNIT_EXPECT_EQ(test, d[3], 0x7c);
	KUNIT_EXPECT_EQ(test, d[4], 0x00);
	KUNIT_EXPECT_EQ(test, d[5], 0x00);
	KUNIT_EXPECT_EQ(test, d[6], 0x55);

	ascend_reduce_apply(RSUM, ASCEND_REDUCE_INT8, i8d, i8s, sizeof(i8d));
	KUNIT_EXPECT_EQ(test, i8d[0], 200);	/* 100 + 100 wraps to -56 */
	KUNIT_EXPECT_EQ(test, i8d[1], 0x7f);	/* -128 + -1 wraps */
	KUNIT_EXPECT_EQ(test, i8d[2], 0);

	ascend_reduce_apply(RSUM, ASCEND_REDUCE_INT32, w, v, sizeof(w));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(w[0]), 0x80000000U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(w[1]), 0U);
	/* an unknown op or type changes nothing */
	ascend_reduce_apply(9, ASCEND_REDUCE_INT32, w, v, sizeof(w));
	ascend_reduce_apply(RSUM, 9, w, v, sizeof(w));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(w[0]), 0x80000000U);
}

static void red_cmd_check(struct kunit *test)
{
	const u32 bad = ASCEND_FAULT_BAD_COMMAND;
	struct ascend_cmd c = {};

	c.opcode = ASCEND_CMD_REDUCE;
	c.reduce = (struct ascend_cmd_reduce){ .dst = 0x10000, .src = 0x20000,
		.size = 0x100, .op = RMAX, .dtype = ASCEND_REDUCE_FP32 };
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	c.reduce.flags = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.flags = 0;
	c.reduce.pad = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.pad = 0;
	c.reduce.op = 3;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.op = 10;	/* CANN's numbering is not the device's */
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.op = RSUM;
	c.reduce.dtype = 7;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.dtype = ASCEND_REDUCE_FP32;
	c.reduce.size = 0;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.size = 6;	/* not whole binary32 elements */
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.dtype = ASCEND_REDUCE_FP16;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	c.reduce.dst = 0x10001;	/* misaligned */
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.dtype = ASCEND_REDUCE_INT8;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	/* the same range is fine, a partial overlap is not */
	c.reduce.dst = c.reduce.src;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	c.reduce.dst = c.reduce.src + 5;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.dst = c.reduce.src - 5;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.dst = c.reduce.src + 6;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	/* wrapping ranges */
	c.reduce.src = U64_MAX - 2;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.src = 0x20000;
	c.reduce.dst = U64_MAX - 2;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.reduce.dst = 0x10000;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), 0U);
	/* junk past the payload, and the command's own fields */
	c.raw[sizeof(c.reduce)] = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.raw[sizeof(c.reduce)] = 0;
	c.flags = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	c.flags = 0;
	c.reserved = 1;
	KUNIT_EXPECT_EQ(test, ascend_cmd_check(&c), bad);
	/* the payload layout user space relies on */
	KUNIT_EXPECT_EQ(test, sizeof(struct ascend_cmd_reduce), (size_t)40);
	KUNIT_EXPECT_EQ(test, offsetof(struct ascend_cmd, reduce), (size_t)16);
}

static struct kunit_case ascend_reduce_test_cases[] = {
	KUNIT_CASE(red_elements),
	KUNIT_CASE(red_sizes),
	KUNIT_CASE(red_buffers),
	KUNIT_CASE(red_cmd_check),
	{}
};

struct kunit_suite ascend_reduce_test_suite = {
	.name = "ascend_reduce",
	.test_cases = ascend_reduce_test_cases,
};
