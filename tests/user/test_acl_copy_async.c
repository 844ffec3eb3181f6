// SPDX-License-Identifier: MIT
/*
 * test_acl_copy_async.c - aclrtMemcpyAsync / aclrtMemcpyAsyncWithCondition
 * with pinned, registered and pageable host memory: bytes in every
 * direction and size, the pageable host-to-device snapshot (the source may
 * change right after the call), staging-buffer reuse, CANN's kind
 * auto-correction and its codes, async H2H -> 207000, and freeing pinned
 * memory while a copy that uses it is still queued.  64 MiB: pinned and
 * pageable H2D + D2H only.
 */
#define _GNU_SOURCE
#include <string.h>

#include "acl_util.h"

/* The deprecated alias is under test too. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const size_t sizes[] = { 1, 63, 4095, 300, 1 << 20 };

static void async_roundtrip(enum hbuf_type t, size_t n, size_t hoff, uint32_t seed)
{
	struct hbuf src, dst;
	aclrtStream s;
	char *d1, *d2;

	REQUIRE_ACL(aclrtCreateStream(&s));
	hbuf_alloc(&src, t, hoff + n);
	hbuf_alloc(&dst, t, hoff + n);
	REQUIRE_ACL(aclrtMalloc((void **)&d1, n + 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&d2, n + 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	fill_pattern(src.p + hoff, n, seed);
	memset(dst.p, 0xee, hoff + n);
	CHECK_ACL_OK(aclrtMemcpyAsync(d1 + 5, n, src.p + hoff, n, ACL_MEMCPY_HOST_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(d2 + 3, n, d1 + 5, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsyncWithCondition(dst.p + hoff, n, d2 + 3, n,
						   ACL_MEMCPY_DEVICE_TO_HOST, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(check_pattern(dst.p + hoff, n, seed), -1);
	CHECK_EQ(check_bytes(dst.p, hoff, 0xee), -1);
	CHECK_ACL_OK(aclrtFree(d1));
	CHECK_ACL_OK(aclrtFree(d2));
	hbuf_free(&src);
	hbuf_free(&dst);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

static void all_sizes(enum hbuf_type t)
{
	size_t i;

	acl_setup();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		async_roundtrip(t, sizes[i], sizes[i] == 300 ? 4090 : 0, (uint32_t)(t * 10 + i));
}

TEST(pinned_all_sizes)
{
	all_sizes(HB_PINNED);
}

TEST(registered_all_sizes)
{
	all_sizes(HB_REGISTERED);
}

TEST(pageable_all_sizes)
{
	all_sizes(HB_PAGEABLE);
}

TEST(pinned_64mib)
{
	acl_setup();
	async_roundtrip(HB_PINNED, 64 << 20, 0, 640);
}

TEST(pageable_64mib)
{
	acl_setup();
	async_roundtrip(HB_PAGEABLE, 64 << 20, 0, 641);
}

/*
 * Pageable H2D snapshots the source: the stream is busy (a spinning
 * kernel), the call returns, the source is overwritten at once, and the
 * device still gets the old bytes.  Same for HOST_TO_BUF_TO_DEVICE from
 * pinned memory.
 */
TEST(pageable_h2d_snapshot)
{
	size_t n = 3 << 20;	/* several staging chunks */
	char *src = malloc(n), *back = malloc(n), *d;
	struct hbuf pin;
	aclrtStream s;

	acl_setup();
	REQUIRE(src && back);
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&d, 2 * n, ACL_MEM_MALLOC_HUGE_FIRST));
	fill_pattern(src, n, 1);
	REQUIRE_ACL(launch_spin(s, 20000));
	CHECK_ACL_OK(aclrtMemcpyAsync(d, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE, s));
	memset(src, 0x11, n);
	hbuf_alloc(&pin, HB_PINNED, 4096);
	fill_pattern(pin.p, 4096, 2);
	CHECK_ACL_OK(aclrtMemcpyAsync(d + n, 4096, pin.p, 4096,
				      ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s));
	memset(pin.p, 0x22, 4096);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	memset(back, 0, n);
	CHECK_ACL_OK(aclrtMemcpy(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(back, n, 1), -1);
	CHECK_ACL_OK(aclrtMemcpy(back, 4096, d + n, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(back, 4096, 2), -1);
	hbuf_free(&pin);
	CHECK_ACL_OK(aclrtFree(d));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	free(src);
	free(back);
}

/* Many pageable H2D copies in flight: more than the staging pool holds,
 * the source reused for each; every destination gets its own bytes. */
TEST(staging_reuse)
{
	size_t n = 1 << 20;
	int i, copies = 24;
	char *src = malloc(n), *back = malloc(n), *d;
	aclrtStream s;

	acl_setup();
	REQUIRE(src && back);
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&d, n * (size_t)copies, ACL_MEM_MALLOC_HUGE_FIRST));
	for (i = 0; i < copies; i++) {
		fill_pattern(src, n, (uint32_t)(100 + i));
		CHECK_ACL_OK(aclrtMemcpyAsync(d + (size_t)i * n, n, src, n,
					      ACL_MEMCPY_DEFAULT, s));
	}
	/* Small ones too, each with its own value. */
	for (i = 0; i < 200; i++) {
		src[0] = (char)i;
		CHECK_ACL_OK(aclrtMemcpyAsync(d + i, 1, src, 1, ACL_MEMCPY_HOST_TO_DEVICE, s));
	}
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < copies; i++) {
		CHECK_ACL_OK(aclrtMemcpy(back, n, d + (size_t)i * n, n, ACL_MEMCPY_DEVICE_TO_HOST));
		if (i == 0) {
			int j;

			for (j = 0; j < 200; j++)
				CHECK_EQ((unsigned char)back[j], (unsigned char)j);
		} else {
			CHECK_EQ(check_pattern(back, n, (uint32_t)(100 + i)), -1);
		}
	}
	CHECK_ACL_OK(aclrtFree(d));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	free(src);
	free(back);
}

/* Pageable D2H: the CANN way - the stream drains, the bytes are there on return. */
TEST(pageable_d2h_is_synchronous)
{
	char *d, host[256];
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&d, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMemsetAsync(d, 256, 0x77, 256, s));
	memset(host, 0, sizeof(host));
	CHECK_ACL_OK(aclrtMemcpyAsync(host, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST, s));
	CHECK_EQ(check_bytes(host, 256, 0x77), -1);	/* no synchronize needed */
	CHECK_ACL_OK(aclrtFree(d));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* facts §7 "Async kind auto-correction" and async H2H. */
TEST(kind_auto_correction)
{
	struct hbuf p1, p2;
	char *d, *d2, m1[64], m2[64];
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	hbuf_alloc(&p1, HB_PINNED, 64);
	hbuf_alloc(&p2, HB_PINNED, 64);
	REQUIRE_ACL(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&d2, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	fill_pattern(p1.p, 64, 5);
	/* Known pairs: the kind is forced, whatever was passed. */
	CHECK_ACL_OK(aclrtMemcpyAsync(d, 64, p1.p, 64, ACL_MEMCPY_DEVICE_TO_HOST, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(d2, 64, d, 64, ACL_MEMCPY_HOST_TO_HOST, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(p2.p, 64, d2, 64, ACL_MEMCPY_HOST_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(check_pattern(p2.p, 64, 5), -1);
	CHECK_ACL_ERR(aclrtMemcpyAsync(p2.p, 64, p1.p, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);	/* host -> host */
	/* unreg -> dev: {H2D, D2D}, DEFAULT = H2D */
	CHECK_ACL_OK(aclrtMemcpyAsync(d, 64, m1, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(d, 64, m1, 64, ACL_MEMCPY_DEFAULT, s));
	CHECK_ACL_ERR(aclrtMemcpyAsync(d, 64, m1, 64, ACL_MEMCPY_DEVICE_TO_HOST, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(d, 64, m1, 64, ACL_MEMCPY_HOST_TO_HOST, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* dev -> unreg: {D2H, D2D}, DEFAULT = D2H */
	CHECK_ACL_OK(aclrtMemcpyAsync(m2, 64, d, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(m2, 64, d, 64, ACL_MEMCPY_DEFAULT, s));
	CHECK_ACL_ERR(aclrtMemcpyAsync(m2, 64, d, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* host -> unreg: {H2H, H2D}; unreg -> host: {H2H, D2H}; both host: 207000 */
	CHECK_ACL_ERR(aclrtMemcpyAsync(m2, 64, p1.p, 64, ACL_MEMCPY_DEFAULT, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtMemcpyAsync(m2, 64, p1.p, 64, ACL_MEMCPY_DEVICE_TO_HOST, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(p1.p, 64, m1, 64, ACL_MEMCPY_DEVICE_TO_HOST, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtMemcpyAsync(p1.p, 64, m1, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* unreg -> unreg: all four accepted, all host to host -> 207000 */
	CHECK_ACL_ERR(aclrtMemcpyAsync(m2, 64, m1, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithCondition(m2, 64, m1, 64, ACL_MEMCPY_DEFAULT, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* ACL-layer checks first. */
	CHECK_ACL_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, (aclrtMemcpyKind)9, s));
	CHECK_ACL_ERR(aclrtMemcpyAsync(d, 64, p1.p, 64, (aclrtMemcpyKind)6, s),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithCondition(d, 64, p1.p, 64, (aclrtMemcpyKind)7, s),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyAsync(d, 63, p1.p, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtFree(d));
	CHECK_ACL_OK(aclrtFree(d2));
	hbuf_free(&p1);
	hbuf_free(&p2);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/*
 * aclrtFreeHost / aclrtHostUnregister while copies that use the memory
 * are still queued behind a spinning kernel: both succeed, and the queued
 * H2D copies delivered the bytes.
 */
TEST(free_with_queued_copy)
{
	struct hbuf pin, reg;
	char back[8192], *d;
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&d, 16384, ACL_MEM_MALLOC_NORMAL_ONLY));
	hbuf_alloc(&pin, HB_PINNED, 8192);
	hbuf_alloc(&reg, HB_REGISTERED, 8192);
	fill_pattern(pin.p, 8192, 31);
	fill_pattern(reg.p, 8192, 32);
	REQUIRE_ACL(launch_spin(s, 20000));
	CHECK_ACL_OK(aclrtMemcpyAsync(d, 8192, pin.p, 8192, ACL_MEMCPY_HOST_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(d + 8192, 8192, reg.p, 8192, ACL_MEMCPY_HOST_TO_DEVICE, s));
	hbuf_free(&pin);
	hbuf_free(&reg);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtMemcpy(back, 8192, d, 8192, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(back, 8192, 31), -1);
	CHECK_ACL_OK(aclrtMemcpy(back, 8192, d + 8192, 8192, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(back, 8192, 32), -1);
	/* D2H into pinned memory freed while queued: no crash, no error. */
	hbuf_alloc(&pin, HB_PINNED, 8192);
	REQUIRE_ACL(launch_spin(s, 10000));
	CHECK_ACL_OK(aclrtMemcpyAsync(pin.p, 8192, d, 8192, ACL_MEMCPY_DEVICE_TO_HOST, s));
	hbuf_free(&pin);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtFree(d));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* Pinned D2H is truly asynchronous and ordered on its stream. */
TEST(pinned_d2h_in_stream_order)
{
	struct hbuf pin;
	aclrtStream s;
	char *d;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	hbuf_alloc(&pin, HB_PINNED, 4096);
	memset(pin.p, 0, 4096);
	REQUIRE_ACL(aclrtMemsetAsync(d, 4096, 0x42, 4096, s));
	CHECK_ACL_OK(aclrtMemcpyAsync(pin.p, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
	REQUIRE_ACL(aclrtMemsetAsync(d, 4096, 0x43, 4096, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(check_bytes(pin.p, 4096, 0x42), -1);
	hbuf_free(&pin);
	CHECK_ACL_OK(aclrtFree(d));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
