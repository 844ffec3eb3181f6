// SPDX-License-Identifier: MIT
/*
 * test_acl_multidev.c - copies between every pair of devices, with and
 * without peer access (sync and async, bytes verified), and per-device
 * memory accounting with aclrtGetMemInfo.  Works with any number of
 * devices (make check boots 2; try num_devices=4 by hand).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_util.h"
#include "tap.h"

#define SIZE (64 * 1024)

static int32_t ndev(void)
{
	uint32_t n = 0;

	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	return (int32_t)n;
}

/* One buffer per device, filled with its own pattern. */
static void setup_bufs(int32_t n, void **buf, unsigned char *host)
{
	int32_t i;

	for (i = 0; i < n; i++) {
		REQUIRE_ACL(aclrtSetDevice(i));
		REQUIRE_ACL(aclrtMalloc(&buf[i], SIZE, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
		memset(host, 0x10 + i, SIZE);
		REQUIRE_ACL(aclrtMemcpy(buf[i], SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
	}
}

static int holds(int32_t dev, void *p, int byte, unsigned char *host)
{
	size_t i;

	REQUIRE_ACL(aclrtSetDevice(dev));
	REQUIRE_ACL(aclrtMemcpy(host, SIZE, p, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < SIZE; i++)
		if (host[i] != (unsigned char)byte)
			return 0;
	return 1;
}

TEST(copies_refused_without_peer_access)
{
	void *buf[64];
	unsigned char *host = malloc(SIZE);
	int32_t n, i, j;
	aclrtStream s;
	const char *m;

	REQUIRE(host);
	REQUIRE_ACL(aclInit(NULL));
	n = ndev();
	if (n < 2)
		SKIP("needs 2 devices");
	setup_bufs(n, buf, host);
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			if (i == j)
				continue;
			REQUIRE_ACL(aclrtSetDevice(j));
			CHECK_EQ(aclrtMemcpy(buf[j], SIZE, buf[i], SIZE,
					     ACL_MEMCPY_DEVICE_TO_DEVICE),
				 ACL_ERROR_RT_PARAM_INVALID);
			m = aclGetRecentErrMsg();
			CHECK(m && strstr(m, "aclrtDeviceEnablePeerAccess") != NULL);
			REQUIRE_ACL(aclrtCreateStream(&s));
			CHECK_ACL_ERR(aclrtMemcpyAsync(buf[j], SIZE, buf[i], SIZE,
						       ACL_MEMCPY_DEVICE_TO_DEVICE, s),
				      ACL_ERROR_RT_PARAM_INVALID);
			CHECK_ACL_OK(aclrtDestroyStream(s));
		}
	}
	for (i = 0; i < n; i++)
		CHECK(holds(i, buf[i], 0x10 + i, host));
	free(host);
}

TEST(copies_between_every_pair)
{
	void *buf[64];
	unsigned char *host = malloc(SIZE);
	int32_t n, i, j;
	aclrtStream s;
	aclError r;

	REQUIRE(host);
	REQUIRE_ACL(aclInit(NULL));
	n = ndev();
	if (n < 2)
		SKIP("needs 2 devices");
	setup_bufs(n, buf, host);
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			if (i == j)
				continue;
			/* from the destination's context, as CANN documents */
			REQUIRE_ACL(aclrtSetDevice(j));
			r = aclrtDeviceEnablePeerAccess(i, 0);
			if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
				SKIP("the driver has no peer access");
			REQUIRE_ACL(r);
			/* sync: i -> j */
			CHECK_ACL_OK(aclrtMemcpy(buf[j], SIZE, buf[i], SIZE,
						 ACL_MEMCPY_DEVICE_TO_DEVICE));
			CHECK(holds(j, buf[j], 0x10 + i, host));
			/* sync the other way also runs on j's engines: j -> i */
			REQUIRE_ACL(aclrtSetDevice(j));
			memset(host, 0x80 + j, SIZE);
			REQUIRE_ACL(aclrtMemcpy(buf[j], SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
			CHECK_ACL_OK(aclrtMemcpy(buf[i], SIZE, buf[j], SIZE, ACL_MEMCPY_DEFAULT));
			CHECK(holds(i, buf[i], 0x80 + j, host));
			/* async on a stream of j, half of the buffer, i -> j */
			REQUIRE_ACL(aclrtSetDevice(j));
			REQUIRE_ACL(aclrtCreateStream(&s));
			CHECK_ACL_OK(aclrtMemcpyAsync(buf[j], SIZE, buf[i], SIZE,
						      ACL_MEMCPY_DEVICE_TO_DEVICE, s));
			CHECK_ACL_OK(aclrtSynchronizeStream(s));
			CHECK_ACL_OK(aclrtDestroyStream(s));
			CHECK(holds(j, buf[j], 0x80 + j, host));
			/* restore both patterns and drop the link */
			memset(host, 0x10 + i, SIZE);
			REQUIRE_ACL(aclrtSetDevice(i));
			REQUIRE_ACL(aclrtMemcpy(buf[i], SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
			memset(host, 0x10 + j, SIZE);
			REQUIRE_ACL(aclrtSetDevice(j));
			REQUIRE_ACL(aclrtMemcpy(buf[j], SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
			REQUIRE_ACL(aclrtSetDevice(j));
			CHECK_ACL_OK(aclrtDeviceDisablePeerAccess(i));
			CHECK_ACL_ERR(aclrtMemcpy(buf[j], SIZE, buf[i], SIZE,
						  ACL_MEMCPY_DEVICE_TO_DEVICE),
				      ACL_ERROR_RT_PARAM_INVALID);
		}
	}
	free(host);
}

/* A stream of a third device cannot carry a copy between two others. */
TEST(async_stream_of_third_device)
{
	void *buf[64];
	unsigned char *host = malloc(SIZE);
	aclrtStream s;
	int32_t n;

	REQUIRE(host);
	REQUIRE_ACL(aclInit(NULL));
	n = ndev();
	if (n < 3)
		SKIP("needs 3 devices");
	setup_bufs(n, buf, host);
	REQUIRE_ACL(aclrtSetDevice(2));
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_ERR(aclrtMemcpyAsync(buf[1], SIZE, buf[0], SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	free(host);
}

/* Memory is charged to the device it lives on, and only to it. */
TEST(per_device_memory_accounting)
{
	size_t fr[64], tot[64], f, t;
	int32_t n, i, j;
	void *p;

	REQUIRE_ACL(aclInit(NULL));
	n = ndev();
	for (i = 0; i < n; i++) {
		REQUIRE_ACL(aclrtSetDevice(i));
		REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &fr[i], &tot[i]));
		CHECK(tot[i] > 0 && fr[i] <= tot[i]);
	}
	for (i = 0; i < n; i++) {
		REQUIRE_ACL(aclrtSetDevice(i));
		REQUIRE_ACL(aclrtMalloc(&p, 4 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
		for (j = 0; j < n; j++) {
			REQUIRE_ACL(aclrtSetDevice(j));
			REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
			CHECK_EQ(t, tot[j]);
			if (j == i)
				CHECK(f + (4 << 20) <= fr[j]);
			else
				CHECK_EQ(f, fr[j]);
		}
		REQUIRE_ACL(aclrtSetDevice(i));
		REQUIRE_ACL(aclrtFree(p));
		REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
		CHECK_EQ(f, fr[i]);
	}
}

int main(void)
{
	return tap_main();
}
