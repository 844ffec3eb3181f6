// SPDX-License-Identifier: MIT
/*
 * Streams: aclrtCreateStream, aclrtDestroyStream[Force],
 * aclrtSynchronizeStream, including bad handles.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "acl_util.h"

TEST(create_destroy)
{
	aclrtStream s = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtCreateStream(&s));
	CHECK(s != NULL);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(create_destroy_force)
{
	aclrtStream s = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
}

TEST(create_many_distinct)
{
	aclrtStream s[8];
	int i, j;

	acl_setup();
	for (i = 0; i < 8; i++)
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
	for (i = 0; i < 8; i++)
		for (j = i + 1; j < 8; j++)
			CHECK(s[i] != s[j]);
	for (i = 0; i < 8; i++)
		CHECK_ACL_OK(aclrtDestroyStream(s[i]));
}

TEST(create_null)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(create_without_device)
{
	aclrtStream s = NULL;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_FAIL(aclrtCreateStream(&s));
	aclFinalize();
}

TEST(destroy_force_null_100000)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(destroy_null)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(synchronize_null_is_default_stream)
{
	acl_setup();
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
}

TEST(destroyed_handle_is_an_error)
{
	aclrtStream s = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtDestroyStream(s));
	CHECK_ACL_FAIL(aclrtSynchronizeStream(s));
	CHECK_ACL_FAIL(aclrtDestroyStream(s));
	CHECK_ACL_FAIL(aclrtDestroyStreamForce(s));
}

TEST(garbage_handle_is_an_error)
{
	int on_stack;
	aclrtStream bad[] = { (aclrtStream)(uintptr_t)0x1, (aclrtStream)&on_stack,
			      (aclrtStream)(uintptr_t)0xdeadbeefcafe0000ULL };
	unsigned int i;

	acl_setup();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ACL_FAIL(aclrtSynchronizeStream(bad[i]));
		CHECK_ACL_FAIL(aclrtDestroyStream(bad[i]));
		CHECK_ACL_FAIL(aclrtDestroyStreamForce(bad[i]));
	}
}

TEST(launch_on_destroyed_stream)
{
	aclrtStream s = NULL;
	int *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtDestroyStream(s));
	CHECK_ACL_FAIL(launch_write(s, p, 1, 1));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(destroy_waits_for_work)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL, v[4];
	char *out;
	int i;

	/* aclrtDestroyStream waits: every launched kernel has run after it. */
	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&s));
	capture_begin(&c);
	for (i = 0; i < 4; i++)
		REQUIRE_ACL(launch_write(s, p + i, 40 + i, 1));
	REQUIRE_ACL(aclrtDestroyStream(s));
	out = capture_end(&c);
	free(out);
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE(read_dev_ints(s, p, v, 4) == 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ(v[i], 40 + i);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(destroy_force_with_pending_work)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL;
	int i;

	/* Force does not wait; whatever ran or not, nothing may break. */
	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&s));
	capture_begin(&c);
	for (i = 0; i < 16; i++)
		REQUIRE_ACL(launch_write(s, p, i, 1));
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
	free(capture_end(&c));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(streams_are_ordered_independently)
{
	aclrtStream a = NULL, b = NULL;
	int *p = NULL, v[2];

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&a));
	REQUIRE_ACL(aclrtCreateStream(&b));
	write_dev_ints(a, p, (int[]){ 7 }, 1);
	write_dev_ints(b, p + 1, (int[]){ 8 }, 1);
	REQUIRE(read_dev_ints(a, p, v, 2) == 2);
	CHECK_EQ(v[0], 7);
	CHECK_EQ(v[1], 8);
	CHECK_ACL_OK(aclrtDestroyStream(a));
	CHECK_ACL_OK(aclrtDestroyStream(b));
	CHECK_ACL_OK(aclrtFree(p));
}

/*
 * The launch, record and synchronise fast paths remember the stream and
 * the function this thread used last; a destroyed or unloaded one must
 * still be refused, from this thread and after another thread freed it.
 */
TEST(used_then_destroyed_stream_is_refused)
{
	aclrtFuncHandle fn;
	aclrtStream s = NULL, s2 = NULL;
	aclrtEvent ev = NULL;
	uint64_t zero = 0;

	acl_setup();
	fn = builtin_kernel("Spin");
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&ev));
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &zero, sizeof(zero), s));
	REQUIRE_ACL(aclrtRecordEvent(ev, s));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	REQUIRE_ACL(aclrtSynchronizeEvent(ev));
	REQUIRE_ACL(aclrtDestroyStream(s));
	CHECK_ACL_ERR(aclrtLaunchKernel(fn, 1, &zero, sizeof(zero), s),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtRecordEvent(ev, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
	/* its last record ran before the stream went */
	CHECK_ACL_OK(aclrtSynchronizeEvent(ev));
	/* a new stream may get the old one's memory: then that value is live */
	REQUIRE_ACL(aclrtCreateStream(&s2));
	CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, &zero, sizeof(zero), s2));
	CHECK_ACL_OK(aclrtRecordEvent(ev, s2));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_ACL_OK(aclrtSynchronizeEvent(ev));
	if (s2 != s)
		CHECK_ACL_ERR(aclrtLaunchKernel(fn, 1, &zero, sizeof(zero), s),
			      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtDestroyStream(s2));
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
}

static void *destroy_stream_thread(void *arg)
{
	return (void *)(intptr_t)aclrtDestroyStream(*(aclrtStream *)arg);
}

TEST(stream_destroyed_by_another_thread_is_refused)
{
	aclrtStream s = NULL;
	pthread_t t;
	void *r = NULL;
	int *p = NULL, v = 0;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&s));
	write_dev_ints(s, p, (int[]){ 41 }, 1);
	REQUIRE(pthread_create(&t, NULL, destroy_stream_thread, &s) == 0);
	REQUIRE(pthread_join(t, &r) == 0);
	CHECK_EQ((intptr_t)r, ACL_SUCCESS);
	CHECK_ACL_ERR(launch_write(s, p, 42, 1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
	/* nothing of the refused launch ran */
	CHECK_ACL_OK(aclrtMemcpy(&v, sizeof(v), p, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(v, 41);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(unloaded_function_is_refused_after_use)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = NULL;
	uint64_t zero = 0;

	acl_setup();
	REQUIRE_ACL(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &bin));
	REQUIRE_ACL(aclrtBinaryGetFunction(bin, "Spin", &fn));
	CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, &zero, sizeof(zero), NULL));
	CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, &zero, sizeof(zero), NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
	REQUIRE_ACL(aclrtBinaryUnLoad(bin));
	CHECK_ACL_ERR(aclrtLaunchKernel(fn, 1, &zero, sizeof(zero), NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

/* NULL is the current context's default stream, also right after a switch. */
TEST(null_stream_follows_the_current_device)
{
	aclrtFuncHandle fn0, fn1;
	uint64_t zero = 0;
	uint32_t n = 0;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs 2 devices");
	fn0 = builtin_kernel("Spin");
	CHECK_ACL_OK(aclrtLaunchKernel(fn0, 1, &zero, sizeof(zero), NULL));
	REQUIRE_ACL(aclrtSetDevice(1));
	CHECK_ACL_ERR(aclrtLaunchKernel(fn0, 1, &zero, sizeof(zero), NULL),
		      ACL_ERROR_RT_STREAM_CONTEXT);
	fn1 = builtin_kernel("Spin");
	CHECK_ACL_OK(aclrtLaunchKernel(fn1, 1, &zero, sizeof(zero), NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_ERR(aclrtLaunchKernel(fn1, 1, &zero, sizeof(zero), NULL),
		      ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_OK(aclrtLaunchKernel(fn0, 1, &zero, sizeof(zero), NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
	CHECK_ACL_OK(aclrtResetDevice(1));
}

int main(void)
{
	return tap_main();
}
