// SPDX-License-Identifier: MIT
/*
 * Conformance: aclrtMemcpy2d and aclrtMemcpy2dAsync.  One case per
 * documented constraint and error code (CANN facts §7 "2D copies"), named
 * after the rule, plus byte-exact strided copies (odd widths, unaligned
 * starts, rows crossing pages, the gaps between rows untouched) with
 * pinned and pageable host memory.
 */
#define _GNU_SOURCE
#include "acl_util.h"
#include "conf_util.h"

#define H2D ACL_MEMCPY_HOST_TO_DEVICE
#define D2H ACL_MEMCPY_DEVICE_TO_HOST
#define D2D ACL_MEMCPY_DEVICE_TO_DEVICE

static uint8_t *dev, *host;

static void setup(void)
{
	acl_setup();
	dev = dev_alloc(65536);
	host = host_pinned(65536);
}

/* ---- ACL layer: 100000 -------------------------------------------------- */

TEST(memcpy2d_dst_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(NULL, 16, host, 16, 8, 2, H2D), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(NULL, 16, host, 16, 8, 2, H2D, NULL),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(memcpy2d_src_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, NULL, 16, 8, 2, H2D), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 16, NULL, 16, 8, 2, H2D, NULL),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(memcpy2d_kind_not_h2d_d2h_d2d_default_is_100000)
{
	static const int bad[] = { ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
				   ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
				   ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 99, -1 };
	size_t i;

	setup();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, host, 16, 8, 2, (aclrtMemcpyKind)bad[i]),
			      ACL_ERROR_INVALID_PARAM);
		CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 16, host, 16, 8, 2,
						 (aclrtMemcpyKind)bad[i], NULL),
			      ACL_ERROR_INVALID_PARAM);
	}
}

TEST(memcpy2d_width_gt_spitch_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 32, host, 16, 17, 2, H2D), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 32, host, 16, 17, 2, H2D, NULL),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(memcpy2d_width_gt_dpitch_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, host, 32, 17, 2, H2D), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 16, host, 32, 17, 2, H2D, NULL),
		      ACL_ERROR_INVALID_PARAM);
}

/* CANN's ACL layer looks at the widths before the kind (both 100000). */
TEST(memcpy2d_width_checked_before_kind)
{
	setup();
	CHECK_EQ(aclrtMemcpy2d(dev, 16, host, 16, 17, 2, (aclrtMemcpyKind)99),
		 ACL_ERROR_INVALID_PARAM);
	CHECK(strstr(acl_errmsg(), "width") != NULL);
	CHECK_EQ(aclrtMemcpy2dAsync(dev, 16, host, 16, 17, 2, ACL_MEMCPY_HOST_TO_HOST, NULL),
		 ACL_ERROR_INVALID_PARAM);
	CHECK(strstr(acl_errmsg(), "width") != NULL);
}

/* ---- runtime: 107000 ---------------------------------------------------- */

/* A zero pitch never reaches the runtime's check (107000): width 0 is a
 * success first, and a width above the pitch is the ACL layer's 100000. */
TEST(memcpy2d_pitch_zero_is_success_or_100000)
{
	setup();
	CHECK_ACL_OK(aclrtMemcpy2d(dev, 0, host, 16, 0, 2, H2D));
	CHECK_ACL_OK(aclrtMemcpy2dAsync(dev, 16, host, 0, 0, 2, H2D, NULL));
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 0, host, 16, 8, 2, H2D), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 16, host, 0, 8, 2, H2D, NULL),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(memcpy2d_height_over_5242880_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, host, 16, 1, 5242881, H2D),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 16, host, 16, 1, 5242881, H2D, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy2d_width_over_5000000_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 5000001, host, 5000001, 5000001, 1, H2D),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 5000001, host, 5000001, 5000001, 1, H2D, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy2d_span_past_allocation_is_107000)
{
	setup();
	/* 3 rows 32 KiB apart from byte 1: the last row ends past 64 KiB */
	CHECK_ACL_ERR(aclrtMemcpy2d(dev + 1, 32768, host, 16, 16, 3, H2D),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(host, 16, dev + 1, 32768, 16, 3, D2H, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy2d_pitch_times_height_overflow_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, SIZE_MAX / 2, host, 16, 16, 5, H2D),
		      ACL_ERROR_RT_PARAM_INVALID);
}

/* ---- zero sizes, context ------------------------------------------------ */

TEST(memcpy2d_width_zero_or_height_zero_is_success)
{
	setup();
	CHECK_ACL_OK(aclrtMemcpy2d(dev, 16, host, 16, 0, 2, H2D));
	CHECK_ACL_OK(aclrtMemcpy2d(dev, 16, host, 16, 8, 0, H2D));
	CHECK_ACL_OK(aclrtMemcpy2dAsync(dev, 16, host, 16, 0, 2, H2D, NULL));
	CHECK_ACL_OK(aclrtMemcpy2dAsync(dev, 16, host, 16, 8, 0, H2D, NULL));
	/* CANN checks a zero size first, before every other argument */
	CHECK_ACL_OK(aclrtMemcpy2d(NULL, 0, NULL, 0, 0, 2, (aclrtMemcpyKind)99));
	CHECK_ACL_OK(aclrtMemcpy2dAsync(NULL, 0, NULL, 0, 8, 0, (aclrtMemcpyKind)99, NULL));
	CHECK_ACL_OK(aclrtMemcpy2d(dev, 4, host, 4, 0, 2, H2D));	/* width > pitch: not looked at */
}

TEST(memcpy2d_no_current_device_is_107002)
{
	char a[64], b[64];

	REQUIRE_ACL(aclInit(NULL));
	CHECK_ACL_ERR(aclrtMemcpy2d(a, 16, b, 16, 8, 2, H2D), ACL_ERROR_RT_CONTEXT_NULL);
}

/* CANN's runtime refuses a D2D aclrtMemcpy2d before it looks for a context. */
TEST(memcpy2d_sync_device_to_device_is_207000_before_107002)
{
	char a[64], b[64];

	REQUIRE_ACL(aclInit(NULL));
	CHECK_ACL_ERR(aclrtMemcpy2d(a, 16, b, 16, 8, 2, D2D), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtMemcpy2d(a, 16, b, 16, 8, 2, H2D), ACL_ERROR_RT_CONTEXT_NULL);
}

/* ---- supported directions ---------------------------------------------- */

/* CANN's runtime: the synchronous 2D copy takes DEFAULT, H2D or D2H only
 * (207000), and the pointers must make it H2D or D2H (107000). */
TEST(memcpy2d_sync_explicit_device_to_device_is_207000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, dev + 4096, 16, 8, 2, D2D),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* whatever the pointers are */
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, host, 16, 8, 2, D2D), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST(memcpy2d_sync_device_pointers_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, dev + 4096, 16, 8, 2, ACL_MEMCPY_DEFAULT),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, dev + 4096, 16, 8, 2, H2D), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy2d_sync_host_to_host_is_107000)
{
	char pg[64];

	setup();
	CHECK_ACL_ERR(aclrtMemcpy2d(pg, 16, host, 16, 8, 2, ACL_MEMCPY_DEFAULT),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy2d_async_host_to_host_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(host + 4096, 16, host, 16, 8, 2, ACL_MEMCPY_DEFAULT,
					 NULL), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy2d_async_kind_excluded_by_pageable_pointers_is_107000)
{
	char *pg = malloc(64);

	setup();
	REQUIRE(pg);
	/* pageable -> device accepts H2D and D2D only (CANN's auto-correction) */
	CHECK_ACL_ERR(aclrtMemcpy2dAsync(dev, 16, pg, 16, 8, 2, D2H, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

/* The synchronous 2D copy corrects the kind the same way (CANN's
 * MemCopy2DSync): pageable memory keeps a kind it accepts, else 107000. */
TEST(memcpy2d_sync_kind_excluded_by_pageable_pointers_is_107000)
{
	uint8_t *pg = malloc(64), *got;

	setup();
	REQUIRE(pg);
	fill_pat(pg, 64, 5);
	dev_put_byte(dev, 64, 0);
	/* pageable -> device: H2D or DEFAULT, not D2H */
	CHECK_ACL_ERR(aclrtMemcpy2d(dev, 16, pg, 16, 8, 2, D2H), ACL_ERROR_RT_PARAM_INVALID);
	got = dev_get(dev, 64);
	CHECK_EQ(diff_byte(got, 64, 0), -1);
	/* device -> pageable: D2H or DEFAULT, not H2D */
	memset(pg, 0xab, 64);
	CHECK_ACL_ERR(aclrtMemcpy2d(pg, 16, dev, 16, 8, 2, H2D), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(diff_byte(pg, 64, 0xab), -1);
	/* the accepted kinds copy */
	fill_pat(pg, 64, 5);
	CHECK_ACL_OK(aclrtMemcpy2d(dev, 16, pg, 16, 16, 4, H2D));
	got = dev_get(dev, 64);
	CHECK_EQ(diff_pat(got, 64, 5), -1);
	memset(pg, 0, 64);
	CHECK_ACL_OK(aclrtMemcpy2d(pg, 16, dev, 16, 16, 4, ACL_MEMCPY_DEFAULT));
	CHECK_EQ(diff_pat(pg, 64, 5), -1);
	free(pg);
}

TEST(memcpy2d_kind_corrected_from_the_pointers)
{
	uint8_t *got;

	setup();
	fill_pat(host, 64, 3);
	/* The kind says D2H but the pointers are host -> device. */
	CHECK_ACL_OK(aclrtMemcpy2d(dev, 16, host, 16, 16, 4, D2H));
	got = dev_get(dev, 64);
	CHECK_EQ(diff_pat(got, 64, 3), -1);
}

/* ---- data ------------------------------------------------------------- */

/* Rows of @w bytes at pitch @sp from pattern @seed landed at pitch @dp in
 * @got (whose other bytes must be @bg)? */
static long check_rows(const uint8_t *got, size_t dp, const uint8_t *src, size_t sp, size_t w,
		       size_t h, size_t total, uint8_t bg)
{
	size_t i, r, c;

	for (i = 0; i < total; i++) {
		r = i / dp;
		c = i % dp;
		if (r < h && c < w) {
			if (got[i] != src[r * sp + c])
				return (long)i;
		} else if (got[i] != bg) {
			return (long)i;
		}
	}
	return -1;
}

TEST(memcpy2d_sync_h2d_d2h_odd_width_unaligned_page_crossing_bytes)
{
	const size_t w = 1001, sp = 1531, dp = 4099, h = 9;	/* rows cross pages */
	uint8_t *pg = malloc(sp * h), *got, *back;

	setup();
	REQUIRE(pg);
	fill_pat(host, sp * h + 3, 11);
	memcpy(pg, host + 3, sp * h);
	/* pinned source, unaligned start */
	dev_put_byte(dev, 65536, 0xcd);
	CHECK_ACL_OK(aclrtMemcpy2d(dev + 5, dp, host + 3, sp, w, h, H2D));
	got = dev_get(dev + 5, dp * h);
	CHECK_EQ(check_rows(got, dp, host + 3, sp, w, h, dp * h, 0xcd), -1);
	/* pageable source, the same bytes */
	dev_put_byte(dev, 65536, 0xcd);
	CHECK_ACL_OK(aclrtMemcpy2d(dev + 5, dp, pg, sp, w, h, ACL_MEMCPY_DEFAULT));
	got = dev_get(dev + 5, dp * h);
	CHECK_EQ(check_rows(got, dp, pg, sp, w, h, dp * h, 0xcd), -1);
	/* back to pageable memory with the pitches swapped */
	back = malloc(sp * h);
	REQUIRE(back);
	memset(back, 0xab, sp * h);
	CHECK_ACL_OK(aclrtMemcpy2d(back, sp, dev + 5, dp, w, h, D2H));
	CHECK_EQ(check_rows(back, sp, pg, sp, w, h, sp * h, 0xab), -1);
	/* and to pinned memory */
	memset(host, 0xab, sp * h);
	CHECK_ACL_OK(aclrtMemcpy2d(host, sp, dev + 5, dp, w, h, D2H));
	CHECK_EQ(check_rows(host, sp, pg, sp, w, h, sp * h, 0xab), -1);
}

TEST(memcpy2d_async_d2d_bytes)
{
	const size_t w = 333, sp = 512, dp = 777, h = 17;
	uint8_t *src, *got;
	aclrtStream s;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	src = malloc(sp * h);
	REQUIRE(src);
	fill_pat(src, sp * h, 13);
	CHECK_ACL_OK(aclrtMemcpy(dev, sp * h, src, sp * h, H2D));
	dev_put_byte(dev + 32768, 32768, 0);
	CHECK_ACL_OK(aclrtMemcpy2dAsync(dev + 32768 + 1, dp, dev, sp, w, h, D2D, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(dev + 32768 + 1, dp * h);
	CHECK_EQ(check_rows(got, dp, src, sp, w, h, dp * h, 0), -1);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(memcpy2d_async_pinned_in_stream_order)
{
	const size_t w = 100, sp = 128, dp = 300, h = 20;
	aclrtStream s;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	memset(host, 0xab, 65536);
	CHECK_ACL_OK(aclrtMemsetAsync(dev, 65536, 0x42, 65536, s));
	/* device -> pinned host, after the fill on the same stream */
	CHECK_ACL_OK(aclrtMemcpy2dAsync(host, sp, dev, dp, w, h, D2H, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	{
		uint8_t *want = malloc(dp * h);

		REQUIRE(want);
		memset(want, 0x42, dp * h);
		CHECK_EQ(check_rows(host, sp, want, dp, w, h, sp * h, 0xab), -1);
	}
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(memcpy2d_async_pageable_is_done_on_return)
{
	const size_t w = 50, sp = 64, dp = 80, h = 5;
	uint8_t *pg = malloc(sp * h), *want = malloc(dp * h);
	aclrtStream s;

	setup();
	REQUIRE(pg && want);
	REQUIRE_ACL(aclrtCreateStream(&s));
	memset(pg, 0xab, sp * h);
	memset(want, 0x24, dp * h);
	CHECK_ACL_OK(aclrtMemsetAsync(dev, 65536, 0x24, 65536, s));
	CHECK_ACL_OK(aclrtMemcpy2dAsync(pg, sp, dev, dp, w, h, ACL_MEMCPY_DEFAULT, s));
	/* no synchronize: CANN copies pageable memory before returning */
	CHECK_EQ(check_rows(pg, sp, want, dp, w, h, sp * h, 0xab), -1);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(memcpy2d_one_row_equals_linear_copy)
{
	uint8_t *got;

	setup();
	fill_pat(host, 4097, 17);
	CHECK_ACL_OK(aclrtMemcpy2d(dev + 4095, 4097, host, 4097, 4097, 1, H2D));
	got = dev_get(dev + 4095, 4097);
	CHECK_EQ(diff_pat(got, 4097, 17), -1);
}

int main(void)
{
	return tap_main();
}
