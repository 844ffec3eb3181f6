// SPDX-License-Identifier: MIT
/*
 * aclrtMemset, aclrtMemsetAsync, aclrtMemsetD32, aclrtMemsetD32Async on
 * device memory: the bytes (read back with the DeviceRead kernel), stream
 * order, and CANN's argument checks and codes.
 */
#define _GNU_SOURCE
#include "acl_util.h"

static int rep8(int b)
{
	return (int)(0x01010101u * (uint32_t)(b & 0xff));
}

TEST(memset_whole_and_partial)
{
	aclrtStream s = NULL;
	int *p = NULL, v[4];

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	/* Only the low byte of value counts. */
	CHECK_ACL_OK(aclrtMemset(p, 16, 0x1ab, 16));
	REQUIRE(read_dev_ints(s, p, v, 4) == 4);
	CHECK_EQ(v[0], rep8(0xab));
	CHECK_EQ(v[3], rep8(0xab));
	/* Bytes 5..7: the middle of word 1 and nothing else. */
	CHECK_ACL_OK(aclrtMemset((char *)p + 5, 11, 0x11, 3));
	REQUIRE(read_dev_ints(s, p, v, 4) == 4);
	CHECK_EQ(v[0], rep8(0xab));
	CHECK_EQ(v[1], (int)0x111111abu);
	CHECK_EQ(v[2], rep8(0xab));
	CHECK_ACL_OK(aclrtMemset(p, 16, -1, 4));
	REQUIRE(read_dev_ints(s, p, v, 2) == 2);
	CHECK_EQ(v[0], -1);
	CHECK_EQ(v[1], (int)0x111111abu);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(memset_d32)
{
	aclrtStream s = NULL;
	int *p = NULL, v[5];

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 20, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_OK(aclrtMemset(p, 20, 0, 20));
	CHECK_ACL_OK(aclrtMemsetD32(p + 1, 16, 0x12345678, 3));
	REQUIRE(read_dev_ints(s, p, v, 5) == 5);
	CHECK_EQ(v[0], 0);
	CHECK_EQ(v[1], 0x12345678);
	CHECK_EQ(v[3], 0x12345678);
	CHECK_EQ(v[4], 0);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(memset_large_to_the_last_byte)
{
	aclrtStream s = NULL;
	size_t size = (3 << 20) + 100, reserved = 0;
	char *p = NULL;
	int v[2];

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtMemset(p, size, 0x5a, size));
	REQUIRE(read_dev_ints(s, (int *)p, v, 1) == 1);
	CHECK_EQ(v[0], rep8(0x5a));
	REQUIRE(read_dev_ints(s, (int *)(p + size - 4), v, 1) == 1);
	CHECK_EQ(v[0], rep8(0x5a));
	/* The whole reserved range can be filled, not one byte more. */
	REQUIRE_ACL(aclrtMemGetAddressRange(p, NULL, &reserved));
	CHECK_ACL_OK(aclrtMemsetD32(p, reserved, 7, reserved / 4));
	REQUIRE(read_dev_ints(s, (int *)(p + reserved - 4), v, 1) == 1);
	CHECK_EQ(v[0], 7);
	CHECK_ACL_ERR(aclrtMemset(p, reserved + 1, 0, reserved + 1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(memset_async_in_stream_order)
{
	aclrtStream s = NULL;
	int *p = NULL, v[4];

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	/* kernel writes, fill overwrites, kernel writes word 2 again */
	REQUIRE_ACL(launch_write(s, p, 99, 4));
	CHECK_ACL_OK(aclrtMemsetAsync(p, 16, 0x22, 16, s));
	REQUIRE_ACL(launch_write(s, p + 2, 77, 1));
	CHECK_ACL_OK(aclrtMemsetD32Async(p + 3, 4, 0xcafe, 1, s));
	REQUIRE(read_dev_ints(s, p, v, 4) == 4);
	CHECK_EQ(v[0], rep8(0x22));
	CHECK_EQ(v[1], rep8(0x22));
	CHECK_EQ(v[2], 77);
	CHECK_EQ(v[3], 0xcafe);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(memset_async_default_stream)
{
	int *p = NULL, v = 0;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtMemsetD32Async(p, 64, 0x31, 16, NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
	REQUIRE(read_dev_ints(NULL, p + 15, &v, 1) == 1);
	CHECK_EQ(v, 0x31);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(count_zero_is_success_first)
{
	/* Before NULL checks, and even without a device. */
	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_OK(aclrtMemset(NULL, 0, 1, 0));
	CHECK_ACL_OK(aclrtMemsetAsync(NULL, 0, 1, 0, NULL));
	CHECK_ACL_OK(aclrtMemsetD32(NULL, 0, 1, 0));
	CHECK_ACL_OK(aclrtMemsetD32Async(NULL, 0, 1, 0, NULL));
}

TEST(null_100000)
{
	const char *m;

	acl_setup();
	CHECK_EQ(aclrtMemset(NULL, 16, 0, 16), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "aclrtMemset"));
	CHECK_ACL_ERR(aclrtMemsetAsync(NULL, 16, 0, 16, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemsetD32(NULL, 16, 0, 4), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemsetD32Async(NULL, 16, 0, 4, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(count_gt_max_107000)
{
	void *p = NULL;
	const char *m;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_EQ(aclrtMemset(p, 16, 0, 17), ACL_ERROR_RT_PARAM_INVALID);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "aclrtMemset") && strstr(m, "maxCount"));
	CHECK_ACL_ERR(aclrtMemsetAsync(p, 16, 0, 17, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32(p, 15, 0, 4), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32Async(p, 15, 0, 4, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32(p, SIZE_MAX, 0, SIZE_MAX / 2), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(not_device_memory_fails)
{
	char *host = malloc(64);
	char *p = NULL;
	const char *m;

	acl_setup();
	CHECK_EQ(aclrtMemset(host, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "aclrtMemset") && strstr(m, "host memory"));
	CHECK_ACL_ERR(aclrtMemsetAsync(host, 64, 0, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32(host, 64, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	/* Past the end of the allocation (4096 bytes reserved). */
	CHECK_ACL_ERR(aclrtMemset(p + 4000, 200, 0, 200), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetAsync(p + 4000, 200, 0, 200, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtFree(p));
	/* Freed. */
	CHECK_ACL_ERR(aclrtMemset(p, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemsetD32Async(p, 64, 0, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
	free(host);
}

TEST(no_device_107002)
{
	int x;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_ERR(aclrtMemset(&x, 4, 0, 4), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_ACL_ERR(aclrtMemsetAsync(&x, 4, 0, 4, NULL), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(bad_stream)
{
	void *p = NULL;
	int not_a_stream;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_ERR(aclrtMemsetAsync(p, 64, 0, 64, &not_a_stream), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(stream_of_other_device_107003)
{
	aclrtStream s1 = NULL;
	uint32_t n = 0;
	void *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs num_devices=2");
	REQUIRE_ACL(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	CHECK_ACL_ERR(aclrtMemsetAsync(p, 64, 0, 64, s1), ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtFree(p));
}

int main(void)
{
	return tap_main();
}
