// SPDX-License-Identifier: MIT
/*
 * Conformance: aclrtMemcpy and aclrtMemcpyAsync.  One case per documented
 * constraint and error code (CANN facts §6.3 and §7 "Copies"), named after
 * the rule, plus byte-exact copies at odd sizes, unaligned offsets and
 * across pages with pinned, registered and pageable host memory.
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

TEST(memcpy_count_zero_is_success_even_with_null)
{
	setup();
	CHECK_ACL_OK(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
}

TEST(memcpy_dst_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy(NULL, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyAsync(NULL, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(memcpy_src_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy(dev, 16, NULL, 16, ACL_MEMCPY_HOST_TO_DEVICE),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyAsync(dev, 16, NULL, 16, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(memcpy_kind_inner_inter_or_out_of_range_is_100000)
{
	static const int bad[] = { ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
				   ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 8, -1 };
	size_t i;

	setup();
	for (i = 0; i < 4; i++) {
		CHECK_ACL_ERR(aclrtMemcpy(dev, 16, host, 16, (aclrtMemcpyKind)bad[i]),
			      ACL_ERROR_INVALID_PARAM);
		CHECK_ACL_ERR(aclrtMemcpyAsync(dev, 16, host, 16, (aclrtMemcpyKind)bad[i], s),
			      ACL_ERROR_INVALID_PARAM);
	}
}

TEST(memcpy_count_gt_destmax_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy(dev, 15, host, 16, ACL_MEMCPY_HOST_TO_DEVICE),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(dev, 15, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy_no_current_device_is_107002)
{
	char a[16], b[16];

	REQUIRE_ACL(aclInit(NULL));
	CHECK_ACL_ERR(aclrtMemcpy(a, 16, b, 16, ACL_MEMCPY_HOST_TO_HOST),
		      ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(memcpy_dst_equals_src_is_success)
{
	setup();
	CHECK_ACL_OK(aclrtMemcpy(dev, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_DEVICE));
}

/* CANN: async dst == src succeeds once kind and locations check out. */
TEST(memcpyasync_dst_equals_src_is_success)
{
	uint8_t *got;

	setup();
	dev_put_pat(dev, 64, 7);
	CHECK_ACL_OK(aclrtMemcpyAsync(dev, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(dev, 16, dev, 16, ACL_MEMCPY_DEFAULT, s));
	/* device memory on both sides: the kind is corrected to D2D first */
	CHECK_ACL_OK(aclrtMemcpyAsync(dev, 16, dev, 16, ACL_MEMCPY_HOST_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(dev, 64);
	CHECK_EQ(diff_pat(got, 64, 7), -1);
	/* the checks before it still apply */
	CHECK_ACL_ERR(aclrtMemcpyAsync(dev, 8, dev, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(host, 16, host, 16, ACL_MEMCPY_HOST_TO_HOST, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

/* CANN does not correct HOST_TO_BUF_TO_DEVICE: the source must be host
 * memory and the destination device memory, else 107000. */
TEST(memcpyasync_host_to_buf_to_device_wrong_locations_is_107000)
{
	char *pg = malloc(64);
	uint8_t *got;

	setup();
	REQUIRE(pg);
	fill_pat(pg, 64, 9);
	memset(host, 0x11, 64);
	dev_put_byte(dev + 64, 64, 0);
	dev_put_pat(dev, 64, 3);
	CHECK_ACL_ERR(aclrtMemcpyAsync(host, 64, dev, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(dev + 64, 64, dev, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(pg, 64, host, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* dst == src is no exception: the locations are checked first */
	CHECK_ACL_ERR(aclrtMemcpyAsync(dev, 64, dev, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* nothing was copied */
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(dev, 128);
	CHECK_EQ(diff_pat(got, 64, 3), -1);
	CHECK_EQ(diff_byte(got + 64, 64, 0), -1);
	CHECK_EQ(diff_byte(host, 64, 0x11), -1);
	CHECK_EQ(diff_pat(pg, 64, 9), -1);
	/* the right way round, pinned or pageable */
	CHECK_ACL_OK(aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(dev + 64, 64, pg, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(dev, 128);
	CHECK_EQ(diff_byte(got, 64, 0x11), -1);
	CHECK_EQ(diff_pat(got + 64, 64, 9), -1);
	free(pg);
}

TEST(memcpyasync_host_to_host_is_207000)
{
	char *a = malloc(64), *b = malloc(64);

	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsync(a, 64, b, 64, ACL_MEMCPY_HOST_TO_HOST, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtMemcpyAsync(host, 64, host + 64, 64, ACL_MEMCPY_DEFAULT, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST(memcpyasync_kind_excluded_by_pageable_pointers_is_107000)
{
	char *pg = malloc(64);

	setup();
	/* device -> pageable accepts D2H and D2D only */
	CHECK_ACL_ERR(aclrtMemcpyAsync(pg, 64, dev, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(memcpy_range_past_allocation_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpy(dev + 16380, 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE),
		      ACL_ERROR_RT_PARAM_INVALID);
}

/* Round trip of [off, +len) through device memory, from @src to @dst. */
static void round_trip(uint8_t *dst, uint8_t *src, size_t off, size_t len, unsigned int seed,
		       bool async)
{
	uint8_t *got;

	fill_pat(src, off + len, seed);
	memset(dst, 0, off + len + 1);
	dev_put_byte(dev, 16384, 0);
	if (async) {
		CHECK_ACL_OK(aclrtMemcpyAsync(dev + off, len, src + off, len, ACL_MEMCPY_DEFAULT,
					      s));
		CHECK_ACL_OK(aclrtMemcpyAsync(dst + off, len, dev + off, len, ACL_MEMCPY_DEFAULT,
					      s));
		CHECK_ACL_OK(aclrtSynchronizeStream(s));
	} else {
		CHECK_ACL_OK(aclrtMemcpy(dev + off, len, src + off, len, ACL_MEMCPY_DEFAULT));
		CHECK_ACL_OK(aclrtMemcpy(dst + off, len, dev + off, len, ACL_MEMCPY_DEFAULT));
	}
	got = dev_get(dev, 16384);
	CHECK_EQ(diff_byte(got, off, 0), -1);
	CHECK_EQ(memcmp(got + off, src + off, len), 0);
	CHECK_EQ(diff_byte(got + off + len, 16384 - off - len, 0), -1);
	CHECK_EQ(diff_byte(dst, off, 0), -1);
	CHECK_EQ(memcmp(dst + off, src + off, len), 0);
	CHECK_EQ(dst[off + len], 0);
}

TEST(memcpy_pinned_odd_sizes_unaligned_page_crossing_bytes)
{
	uint8_t *h2;

	setup();
	h2 = host_pinned(16384);
	round_trip(h2, host, 1, 1, 1, false);
	round_trip(h2, host, 4095, 3, 2, false);
	round_trip(h2, host, 4093, 8199, 3, false);
	round_trip(h2, host, 7, 4099, 4, true);
}

TEST(memcpy_pageable_odd_sizes_unaligned_page_crossing_bytes)
{
	uint8_t *a = malloc(16384), *b = malloc(16384);

	setup();
	REQUIRE(a && b);
	round_trip(b, a, 3, 5, 5, false);
	round_trip(b, a, 4094, 4101, 6, false);
	round_trip(b, a, 4094, 4101, 7, true);
}

TEST(memcpy_registered_odd_sizes_unaligned_page_crossing_bytes)
{
	uint8_t *r = aligned_alloc(4096, 16384), *pg = malloc(16384);
	void *dp;

	setup();
	REQUIRE(r && pg);
	REQUIRE_ACL(aclrtHostRegister(r, 16384, ACL_HOST_REGISTER_MAPPED, &dp));
	round_trip(pg, r, 4097, 4095, 8, false);
	round_trip(r, pg, 11, 12001, 9, true);
	CHECK_ACL_OK(aclrtHostUnregister(r));
}

int main(void)
{
	return tap_main();
}
