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

static struct kunit_case ascend_cmd_test_cases[] = {
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
