// SPDX-License-Identifier: MIT
/*
 * Ordering on one stream: 1,000 interleaved kernel launches and async
 * device-to-device copies, and more commands than the ring has slots
 * (wrap-around), checked through the final bytes.
 */
#define _GNU_SOURCE
#include "acl_util.h"

/*
 * a[0] = i (DeviceWrite), then b = a (ring COPY); 500 rounds = 1,000
 * commands.  Each round's copy must see its own write: b ends with the
 * last value and a trail of Add32 sums shows none was skipped.
 */
TEST(interleaved_launches_and_copies)
{
	enum { ROUNDS = 500 };
	aclrtFuncHandle wr;
	aclrtStream s;
	struct capture c;
	int *a, *b, *sum, v[2] = { 0 };
	int i;

	acl_setup();
	wr = builtin_kernel("DeviceWrite");
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&a, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&b, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&sum, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(launch_fill32(s, sum, 0, 1, 1));
	SKIP_IF_NOT_SUPPORTED(aclrtMemcpyAsync(b, 4, sum, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	capture_begin(&c);
	for (i = 1; i <= ROUNDS; i++) {
		struct { int *p; int v; } args = { a, i };

		REQUIRE_ACL(aclrtLaunchKernel(wr, 1, &args, sizeof(args), s));
		REQUIRE_ACL(aclrtMemcpyAsync(b, 4, a, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
		if (i % 50 == 0)	/* sum += b, in order */
			REQUIRE_ACL(launch_add32(s, sum, b, sum, 1, 1));
	}
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	free(capture_end(&c));
	CHECK_EQ(read_dev_ints(s, b, &v[0], 1), 1);
	CHECK_EQ(v[0], ROUNDS);
	CHECK_EQ(read_dev_ints(s, sum, &v[1], 1), 1);
	CHECK_EQ(v[1], 50 + 100 + 150 + 200 + 250 + 300 + 350 + 400 + 450 + 500);
	aclrtFree(a);
	aclrtFree(b);
	aclrtFree(sum);
	aclrtDestroyStream(s);
}

TEST(memcpy_async_checks)
{
	aclrtStream s;
	int *a, *b, host[4];

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&a, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&b, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_ERR(aclrtMemcpyAsync(NULL, 4, b, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyAsync(a, 4, b, 4, (aclrtMemcpyKind)6, s),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyAsync(a, 2, b, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(host, 16, host + 2, 8, ACL_MEMCPY_HOST_TO_HOST, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* Pageable host to device: staged, queued (issue #4). */
	CHECK_ACL_OK(aclrtMemcpyAsync(a, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, s));
	CHECK_ACL_ERR(aclrtMemcpyAsync(a, 16, host, 16, ACL_MEMCPY_DEVICE_TO_HOST, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpyAsync(a, 64, a + 4, 32, ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);	/* overlap */
	aclrtFree(a);
	aclrtFree(b);
	aclrtDestroyStream(s);
}

/* More commands than ring slots, with no synchronisation in between. */
TEST(ring_wrap_around)
{
	aclrtStream s;
	struct capture c;
	int *p, v = 0, i;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	capture_begin(&c);
	for (i = 0; i < 3000; i++)
		REQUIRE_ACL(launch_write(s, p, i, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	free(capture_end(&c));
	CHECK_EQ(read_dev_ints(s, p, &v, 1), 1);
	CHECK_EQ(v, 2999);
	aclrtFree(p);
	aclrtDestroyStream(s);
}

int main(void)
{
	return tap_main();
}
