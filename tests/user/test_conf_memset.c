// SPDX-License-Identifier: MIT
/*
 * Conformance: aclrtMemset, aclrtMemsetAsync, aclrtMemsetD32,
 * aclrtMemsetD32Async on device memory and on acl-pinned host memory
 * (aclrtMallocHost, aclrtHostRegister).  One case per documented constraint
 * and error code (CANN facts §7 "Memset"), named after the rule, plus
 * byte-exact fills at odd sizes, unaligned offsets and across pages.
 */
#define _GNU_SOURCE
#include "acl_util.h"
#include "conf_util.h"

static uint8_t *dev, *host;
static aclrtStream s;

static void setup(void)
{
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	dev = dev_alloc(16384);
	host = host_pinned(16384);
}

/* ---- aclrtMemset / aclrtMemsetAsync ------------------------------------ */

TEST(memset_count_zero_is_success_even_with_null)
{
	setup();
	CHECK_ACL_OK(aclrtMemset(NULL, 0, 1, 0));
	CHECK_ACL_OK(aclrtMemsetAsync(NULL, 0, 1, 0, s));
}

TEST(memset_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemset(NULL, 16, 1, 16), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemsetAsync(NULL, 16, 1, 16, s), ACL_ERROR_INVALID_PARAM);
}

TEST(memset_count_gt_maxcount_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemset(dev, 15, 1, 16), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemset(host, 15, 1, 16), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memsetasync_count_gt_maxcount_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemsetAsync(dev, 15, 1, 16, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetAsync(host, 15, 1, 16, s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memset_range_past_allocation_is_107000)
{
	size_t reserved = 0;

	setup();
	/* the allocation's whole reserved range may be filled, no byte more */
	REQUIRE_ACL(aclrtMemGetAddressRange(dev, NULL, &reserved));
	CHECK_ACL_ERR(aclrtMemset(dev + reserved - 384, 1000, 1, 385),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetAsync(dev + reserved - 384, 1000, 1, 385, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32(host + 16384 - 12, 16, 1, 4), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memset_pageable_host_memory_is_refused_107000)
{
	char *pg = malloc(64);
	const char *m;

	setup();
	REQUIRE(pg);
	CHECK_EQ(aclrtMemset(pg, 64, 1, 64), ACL_ERROR_RT_PARAM_INVALID);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "not allocated by acl"));
	CHECK_ACL_ERR(aclrtMemsetAsync(pg, 64, 1, 64, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32(pg, 64, 1, 16), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memset_no_current_device_is_107002)
{
	setup();
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_ERR(aclrtMemset((void *)0x1000, 16, 1, 16), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(memset_uses_the_low_byte_of_value)
{
	uint8_t *got;

	setup();
	CHECK_ACL_OK(aclrtMemset(dev, 16384, 0x12345678, 100));
	CHECK_ACL_OK(aclrtMemset(host, 16384, -2, 100));
	got = dev_get(dev, 100);
	CHECK_EQ(diff_byte(got, 100, 0x78), -1);
	CHECK_EQ(diff_byte(host, 100, 0xfe), -1);
}

TEST(memset_device_odd_size_unaligned_page_crossing_bytes)
{
	uint8_t *got;

	setup();
	dev_put_byte(dev, 16384, 0);
	CHECK_ACL_OK(aclrtMemset(dev + 4093, 16384 - 4093, 0xa5, 8199));
	got = dev_get(dev, 16384);
	CHECK_EQ(diff_byte(got, 4093, 0), -1);
	CHECK_EQ(diff_byte(got + 4093, 8199, 0xa5), -1);
	CHECK_EQ(diff_byte(got + 4093 + 8199, 16384 - 4093 - 8199, 0), -1);
}

TEST(memset_pinned_host_bytes)
{
	setup();
	memset(host, 0, 16384);
	CHECK_ACL_OK(aclrtMemset(host + 1, 16383, 0x3c, 4097));
	CHECK_EQ(host[0], 0);
	CHECK_EQ(diff_byte(host + 1, 4097, 0x3c), -1);
	CHECK_EQ(diff_byte(host + 4098, 16384 - 4098, 0), -1);
}

TEST(memset_registered_host_bytes)
{
	uint8_t *r = aligned_alloc(4096, 8192);
	void *dp = NULL;

	setup();
	REQUIRE(r);
	memset(r, 0, 8192);
	REQUIRE_ACL(aclrtHostRegister(r, 8192, ACL_HOST_REGISTER_MAPPED, &dp));
	CHECK_ACL_OK(aclrtMemset(r + 4000, 4192, 0x6b, 200));
	CHECK_ACL_OK(aclrtMemsetAsync(r + 5000, 3192, 0x6c, 100, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(diff_byte(r, 4000, 0), -1);
	CHECK_EQ(diff_byte(r + 4000, 200, 0x6b), -1);
	CHECK_EQ(diff_byte(r + 5000, 100, 0x6c), -1);
	CHECK_EQ(diff_byte(r + 5100, 8192 - 5100, 0), -1);
	CHECK_ACL_OK(aclrtHostUnregister(r));
}

TEST(memsetasync_device_in_stream_order)
{
	uint8_t *got;

	setup();
	CHECK_ACL_OK(aclrtMemsetAsync(dev, 16384, 0x01, 16384, s));
	CHECK_ACL_OK(aclrtMemsetAsync(dev + 3, 16381, 0x02, 5, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(dev, 16);
	CHECK_EQ(diff_byte(got, 3, 1), -1);
	CHECK_EQ(diff_byte(got + 3, 5, 2), -1);
	CHECK_EQ(diff_byte(got + 8, 8, 1), -1);
}

TEST(memsetasync_pinned_host_in_stream_order)
{
	setup();
	memset(host, 0, 16384);
	CHECK_ACL_OK(aclrtMemsetAsync(dev, 16384, 0x55, 16384, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(host, 16384, dev, 16384, ACL_MEMCPY_DEVICE_TO_HOST, s));
	/* runs after the copy on the same stream: overwrites part of it */
	CHECK_ACL_OK(aclrtMemsetAsync(host + 4095, 12289, 0x66, 4099, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(diff_byte(host, 4095, 0x55), -1);
	CHECK_EQ(diff_byte(host + 4095, 4099, 0x66), -1);
	CHECK_EQ(diff_byte(host + 8194, 16384 - 8194, 0x55), -1);
}

/* ---- aclrtMemsetD32 / aclrtMemsetD32Async ------------------------------- */

TEST(memsetd32_n_zero_is_success_even_with_null)
{
	setup();
	CHECK_ACL_OK(aclrtMemsetD32(NULL, 0, 1, 0));
	CHECK_ACL_OK(aclrtMemsetD32Async(NULL, 0, 1, 0, s));
}

TEST(memsetd32_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemsetD32(NULL, 16, 1, 4), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemsetD32Async(NULL, 16, 1, 4, s), ACL_ERROR_INVALID_PARAM);
}

TEST(memsetd32_memsize_lt_4n_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemsetD32(dev, 15, 1, 4), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32Async(dev, 15, 1, 4, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32(host, 15, 1, 4), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memsetd32_n_times_4_overflow_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemsetD32(dev, SIZE_MAX, 1, SIZE_MAX / 2), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memsetd32_device_words_unaligned_start_page_crossing)
{
	uint8_t *got;
	uint32_t w;
	size_t i;

	setup();
	dev_put_byte(dev, 16384, 0);
	CHECK_ACL_OK(aclrtMemsetD32(dev + 4094, 8192, 0xdeadbeef, 1001));
	got = dev_get(dev, 16384);
	CHECK_EQ(diff_byte(got, 4094, 0), -1);
	for (i = 0; i < 1001; i++) {
		memcpy(&w, got + 4094 + 4 * i, 4);
		if (w != 0xdeadbeef) {
			CHECK_EQ(w, 0xdeadbeef);
			break;
		}
	}
	CHECK_EQ(diff_byte(got + 4094 + 4004, 16384 - 8098, 0), -1);
}

TEST(memsetd32_async_device_and_pinned_host_words)
{
	uint32_t w, *h;
	uint8_t *got;
	size_t i;

	setup();
	memset(host, 0, 16384);
	CHECK_ACL_OK(aclrtMemsetD32Async(dev, 16384, 0x01020304, 4096, s));
	CHECK_ACL_OK(aclrtMemsetD32Async(host + 4, 16380, 0xa0b0c0d0, 1025, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(dev, 16384);
	for (i = 0; i < 4096; i++) {
		memcpy(&w, got + 4 * i, 4);
		if (w != 0x01020304) {
			CHECK_EQ(w, 0x01020304);
			break;
		}
	}
	h = (uint32_t *)host;
	CHECK_EQ(h[0], 0);
	CHECK_EQ(h[1], 0xa0b0c0d0);
	CHECK_EQ(h[1025], 0xa0b0c0d0);
	CHECK_EQ(h[1026], 0);
}

int main(void)
{
	return tap_main();
}
