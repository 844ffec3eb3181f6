// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: built-in kernel launch validation, fault reporting and device
 * printf (ascend_emu_kernels.c), on a fake queue with an empty device MMU.
 *
 * The driver source is compiled into this file (it exports nothing); it
 * needs ascend_vm_rw(), which drv_vm.c provides in the same module.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ascend_emu_kernels.c"
#include "ascend_kunit.h"

#define TEST_PRINTF_SIZE	64

struct cmd_test_ctx {
	struct ascend_emu_queue q;
	struct ascend_queue_status st;
	struct ascend_hw_queue_report report;
	void *page_va[1];
	u8 pbuf[TEST_PRINTF_SIZE];
	u8 scratch[ASCEND_EMU_SCRATCH_SIZE];
};

static int cmd_test_init(struct kunit *test)
{
	struct cmd_test_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	/* ASID 0: every address faults; the printf buffer is the one page */
	c->q.status = &c->st;
	c->q.report = &c->report;
	c->page_va[0] = c->pbuf;
	c->q.page_va = c->page_va;
	c->q.ctx.printf_offset = 0;
	c->q.ctx.printf_size = TEST_PRINTF_SIZE;
	spin_lock_init(&c->q.printf_lock);
	test->priv = c;
	return 0;
}

static u32 kernel_id(struct kunit *test, const char *name)
{
	struct drm_ascend_kernel_info info[16];
	u32 n = ascend_emu_query_kernels(NULL, info, ARRAY_SIZE(info)), i;

	for (i = 0; i < n; i++)
		if (!strcmp(info[i].name, name))
			return info[i].id;
	KUNIT_FAIL(test, "no kernel %s", name);
	return 0;
}

static u32 launch(struct kunit *test, struct ascend_cmd_launch *l,
		  struct ascend_emu_fault *f)
{
	struct cmd_test_ctx *c = test->priv;

	memset(f, 0, sizeof(*f));
	ascend_emu_kernel_launch(&c->q, l, c->scratch, f);
	return f->code;
}

static void cmd_query_kernels(struct kunit *test)
{
	struct drm_ascend_kernel_info info[16];
	u32 n = ascend_emu_query_kernels(NULL, NULL, 0);

	KUNIT_EXPECT_GE(test, n, 6U);
	KUNIT_EXPECT_EQ(test, ascend_emu_query_kernels(NULL, info, 1), n);
	KUNIT_EXPECT_STREQ(test, info[0].name, "DeviceWrite");
	KUNIT_EXPECT_EQ(test, info[0].args_size, 12U);
	KUNIT_EXPECT_EQ(test, info[0].pad, 0ULL);
	KUNIT_EXPECT_NE(test, kernel_id(test, "DeviceRead"), 0U);
	KUNIT_EXPECT_NE(test, kernel_id(test, "Trap"), 0U);
}

static void cmd_launch_validation(struct kunit *test)
{
	struct ascend_cmd_launch l = {
		.kernel_id = kernel_id(test, "DeviceWrite"),
		.num_blocks = 1,
		.args_size = 12,
	};
	struct ascend_emu_fault f;

	l.kernel_id = 0xdead;
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_BAD_COMMAND);
	l.kernel_id = kernel_id(test, "DeviceWrite");

	l.num_blocks = 0;
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_BAD_COMMAND);
	l.num_blocks = ASCEND_EMU_MAX_BLOCKS + 1;
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_BAD_COMMAND);
	l.num_blocks = 1;

	l.args_size = 11;
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_BAD_COMMAND);
	l.args_size = ASCEND_LAUNCH_ARGS_MAX + 1;
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_BAD_COMMAND);
	l.args_size = 12;
}

static void cmd_launch_faults(struct kunit *test)
{
	struct cmd_test_ctx *c = test->priv;
	struct ascend_cmd_launch l = {
		.kernel_id = kernel_id(test, "DeviceWrite"),
		.num_blocks = 4,
		.args_size = 12,
	};
	u64 p = 0x7f0000001000ULL;
	struct ascend_emu_fault f;

	/* unmapped: MMU fault at the address of block 0, nothing printed */
	memcpy(l.args, &p, sizeof(p));
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_MMU);
	KUNIT_EXPECT_EQ(test, f.addr, p);
	KUNIT_EXPECT_EQ(test, c->q.printf_head, 0ULL);

	/* p[block_idx] overflowing the address space is an MMU fault too */
	p = U64_MAX - 1;
	memcpy(l.args, &p, sizeof(p));
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_MMU);

	l.kernel_id = kernel_id(test, "Trap");
	l.args_size = 0;
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_KERNEL);

	/* a stopped queue aborts long work */
	l.kernel_id = kernel_id(test, "Spin");
	l.args_size = 8;
	p = 10 * USEC_PER_SEC;
	memcpy(l.args, &p, sizeof(p));
	WRITE_ONCE(c->q.cp_stop, true);
	KUNIT_EXPECT_EQ(test, launch(test, &l, &f), ASCEND_FAULT_ABORTED);
}

static void cmd_printf_wrap(struct kunit *test)
{
	struct cmd_test_ctx *c = test->priv;
	u64 i;

	/* 60 bytes, consume 50, then 20 bytes wrap around the end */
	ascend_emu_printf(&c->q, "%060d", 0);
	KUNIT_EXPECT_EQ(test, c->st.printf_head, 60ULL);
	c->st.printf_tail = 50;
	ascend_emu_printf(&c->q, "%s", "ABCDEFGHIJKLMNOPQRST");
	KUNIT_EXPECT_EQ(test, c->st.printf_head, 80ULL);
	KUNIT_EXPECT_EQ(test, c->st.printf_dropped, 0ULL);
	for (i = 60; i < 80; i++)
		KUNIT_EXPECT_EQ(test, c->pbuf[i % TEST_PRINTF_SIZE],
				(u8)('A' + i - 60));
}

static void cmd_printf_drop(struct kunit *test)
{
	struct cmd_test_ctx *c = test->priv;

	ascend_emu_printf(&c->q, "%060d", 0);
	/* 10 bytes do not fit in the 4 free ones: dropped whole */
	ascend_emu_printf(&c->q, "0123456789");
	KUNIT_EXPECT_EQ(test, c->st.printf_head, 60ULL);
	KUNIT_EXPECT_EQ(test, c->st.printf_dropped, 10ULL);
	KUNIT_EXPECT_EQ(test, c->pbuf[0], (u8)'0');

	/* a tail beyond the head is clamped to the head, not trusted */
	c->st.printf_tail = 1000;
	ascend_emu_printf(&c->q, "0123456789");
	KUNIT_EXPECT_EQ(test, c->st.printf_head, 70ULL);

	/* a tail far behind counts as a full buffer */
	c->st.printf_tail = 0;
	ascend_emu_printf(&c->q, "x");
	KUNIT_EXPECT_EQ(test, c->st.printf_head, 70ULL);
	KUNIT_EXPECT_EQ(test, c->st.printf_dropped, 11ULL);
}

/* AddF32's IEEE-754 binary32 addition, bit patterns in and out */
static void cmd_f32_add(struct kunit *test)
{
	static const struct { u32 a, b, sum; } t[] = {
		{ 0x3f800000, 0x40000000, 0x40400000 },	/* 1 + 2 = 3 */
		{ 0x3dcccccd, 0x3e4ccccd, 0x3e99999a },	/* 0.1 + 0.2 */
		{ 0x3f800000, 0xbf800000, 0x00000000 },	/* 1 - 1 = +0 */
		{ 0x80000000, 0x80000000, 0x80000000 },	/* -0 + -0 = -0 */
		{ 0x00000000, 0x80000000, 0x00000000 },	/* +0 + -0 = +0 */
		{ 0x00000001, 0x00000001, 0x00000002 },	/* subnormals */
		{ 0x007fffff, 0x00000001, 0x00800000 },	/* to the smallest normal */
		{ 0x3f800000, 0x33800000, 0x3f800000 },	/* tie: to even */
		{ 0x3f800001, 0x33800000, 0x3f800002 },	/* tie: to even, up */
		{ 0x3f800000, 0x33800001, 0x3f800001 },	/* above the tie */
		{ 0x7f7fffff, 0x7f7fffff, 0x7f800000 },	/* overflow: inf */
		{ 0x7f800000, 0x3f800000, 0x7f800000 },	/* inf + 1 */
		{ 0x7f800000, 0xff800000, 0x7fc00000 },	/* inf - inf: NaN */
		{ 0x7f800001, 0x3f800000, 0x7fc00001 },	/* NaN quieted */
		{ 0xc0400000, 0x3f800000, 0xc0000000 },	/* -3 + 1 = -2 */
		{ 0x4b800000, 0x3f800000, 0x4b800000 },	/* 2^24 + 1 */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ascend_f32_add(t[i].a, t[i].b),
				    t[i].sum, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ascend_f32_add(t[i].b, t[i].a),
				    t[i].sum, "case %u swapped", i);
	}
}

/* Philox-4x32-10: the known-answer vectors of its authors (Random123) */
static void cmd_philox(struct kunit *test)
{
	static const struct { u32 ctr[4], key[2], out[4]; } t[] = {
		{ { 0, 0, 0, 0 }, { 0, 0 },
		  { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
		{ { ~0U, ~0U, ~0U, ~0U }, { ~0U, ~0U },
		  { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } },
		{ { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 },
		  { 0xa4093822, 0x299f31d0 },
		  { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } },
	};
	static const u32 base[4] = { ~0U, ~0U, 5, 0 };
	u32 out[4], c[4];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ascend_philox4x32_10(t[i].ctr, t[i].key, out);
		for (j = 0; j < 4; j++)
			KUNIT_EXPECT_EQ_MSG(test, out[j], t[i].out[j],
					    "vector %u word %u", i, j);
	}
	/* the 128-bit counter carries */
	ascend_rng_ctr_add(base, 1, c);
	KUNIT_EXPECT_EQ(test, c[0], 0U);
	KUNIT_EXPECT_EQ(test, c[1], 0U);
	KUNIT_EXPECT_EQ(test, c[2], 6U);
	KUNIT_EXPECT_EQ(test, c[3], 0U);
}

/* binary32 multiplication and the conversions of the random kernel */
static void cmd_soft_float(struct kunit *test)
{
	static const struct { u32 a, b, p; } mul[] = {
		{ 0x40000000, 0x40400000, 0x40c00000 },	/* 2 * 3 = 6 */
		{ 0x3dcccccd, 0x41200000, 0x3f800000 },	/* 0.1 * 10 */
		{ 0xbf800000, 0x00000000, 0x80000000 },	/* -1 * 0 = -0 */
		{ 0x7f7fffff, 0x40000000, 0x7f800000 },	/* overflow */
		{ 0x00800000, 0x3f000000, 0x00400000 },	/* to a subnormal */
		{ 0x00000001, 0x3f000000, 0x00000000 },	/* tie to even: 0 */
		{ 0x00000003, 0x3f000000, 0x00000002 },	/* tie to even: up */
		{ 0x00000001, 0x4b000000, 0x00800000 },	/* subnormal in */
		{ 0x7f800000, 0x00000000, 0x7fc00000 },	/* inf * 0 */
		{ 0x7f800001, 0x3f800000, 0x7fc00001 },	/* NaN quieted */
		{ 0x3f800001, 0x3f800001, 0x3f800002 },	/* rounding */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mul); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ascend_f32_mul(mul[i].a, mul[i].b),
				    mul[i].p, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ascend_f32_mul(mul[i].b, mul[i].a),
				    mul[i].p, "case %u swapped", i);
	}
	KUNIT_EXPECT_EQ(test, ascend_f32_to_f16(0x3f800000), 0x3c00);
	KUNIT_EXPECT_EQ(test, ascend_f32_to_f16(0x477fe000), 0x7bff);	/* 65504 */
	KUNIT_EXPECT_EQ(test, ascend_f32_to_f16(0x477ff000), 0x7c00);	/* rounds to inf */
	KUNIT_EXPECT_EQ(test, ascend_f32_to_f16(0x33800000), 0x0001);	/* 2^-24 */
	KUNIT_EXPECT_EQ(test, ascend_f32_to_f16(0x33000000), 0x0000);	/* tie: 0 */
	KUNIT_EXPECT_EQ(test, ascend_f16_to_f32(0x0001), 0x33800000U);
	KUNIT_EXPECT_EQ(test, ascend_f16_to_f32(0xc000), 0xc0000000U);
	KUNIT_EXPECT_EQ(test, ascend_f32_to_bf16(0x3f808000), 0x3f80);	/* tie: even */
	KUNIT_EXPECT_EQ(test, ascend_f32_to_bf16(0x3f818000), 0x3f82);
	KUNIT_EXPECT_EQ(test, ascend_f32_from_fixed(3LL << 31, 32), 0x3fc00000U);
	KUNIT_EXPECT_EQ(test, ascend_f32_from_fixed(-1, 0), 0xbf800000U);
	KUNIT_EXPECT_EQ(test, ascend_f32_from_fixed(0x1000001, 0), 0x4b800000U);
	KUNIT_EXPECT_TRUE(test, ascend_f32_lt(0xbf800000, 0x00000000));
	KUNIT_EXPECT_FALSE(test, ascend_f32_lt(0x80000000, 0x00000000));
	KUNIT_EXPECT_FALSE(test, ascend_f32_lt(0x7fc00000, 0x3f800000));
	KUNIT_EXPECT_EQ(test, rng_dropout_thr(0x3f000000), 1ULL << 31);	/* 0.5 */
	KUNIT_EXPECT_EQ(test, rng_dropout_thr(0x3f800000), 1ULL << 32);
	KUNIT_EXPECT_EQ(test, rng_dropout_thr(0xbf000000), 0ULL);
}

/* Box-Muller in fixed point: exact points of the transform */
static void cmd_normal(struct kunit *test)
{
	s64 z0, z1;

	/* u = 1: radius 0 */
	ascend_rng_normal2(~0U, 0, &z0, &z1);
	KUNIT_EXPECT_EQ(test, z0, 0LL);
	KUNIT_EXPECT_EQ(test, z1, 0LL);
	/* u = 2^-1: radius sqrt(2 ln 2) = 1.17741; angle 0, then 90 deg */
	ascend_rng_normal2(0x7fffffff, 0, &z0, &z1);
	KUNIT_EXPECT_LT(test, abs(z0 - 5056937541LL), 64LL);
	KUNIT_EXPECT_LT(test, abs(z1), 64LL);
	ascend_rng_normal2(0x7fffffff, 0x40000000, &z0, &z1);
	KUNIT_EXPECT_LT(test, abs(z0), 64LL);
	KUNIT_EXPECT_LT(test, abs(z1 - 5056937541LL), 64LL);
	/* angle 180 + 45 deg: both -1.17741 / sqrt(2) */
	ascend_rng_normal2(0x7fffffff, 0xa0000000, &z0, &z1);
	KUNIT_EXPECT_LT(test, abs(z0 + 3575794827LL), 64LL);
	KUNIT_EXPECT_LT(test, abs(z1 + 3575794827LL), 64LL);
}

static struct kunit_case ascend_cmd_test_cases[] = {
	KUNIT_CASE(cmd_philox),
	KUNIT_CASE(cmd_soft_float),
	KUNIT_CASE(cmd_normal),
	KUNIT_CASE(cmd_f32_add),
	KUNIT_CASE(cmd_query_kernels),
	KUNIT_CASE(cmd_launch_validation),
	KUNIT_CASE(cmd_launch_faults),
	KUNIT_CASE(cmd_printf_wrap),
	KUNIT_CASE(cmd_printf_drop),
	{}
};

struct kunit_suite ascend_cmd_test_suite = {
	.name = "ascend_cmd",
	.init = cmd_test_init,
	.test_cases = ascend_cmd_test_cases,
};
