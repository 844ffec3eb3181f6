// SPDX-License-Identifier: MIT
/*
 * test_acl_context.c - CANN contexts (create/destroy/set/get, per-thread
 * current context, a default stream per context), streams bound to their
 * device (107003), aclrtGetDeviceInfo, per-device reference counting of
 * aclrtSetDevice/aclrtResetDevice, aclrtDeviceGetBareTgid.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl_util.h"
#include "tap.h"

static uint32_t ndev(void)
{
	uint32_t n = 0;

	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	return n;
}

TEST(context_null_args)
{
	aclrtContext c;
	aclrtStream s;

	REQUIRE_ACL(aclInit(NULL));
	CHECK_ACL_ERR(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCreateContext(&c, 999), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtCreateContext(&c, -1), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM);
	/* nothing current yet */
	CHECK_ACL_ERR(aclrtGetCurrentContext(&c), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_ACL_ERR(aclrtCtxGetCurrentDefaultStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_ACL_ERR(aclrtDestroyContext((aclrtContext)&c), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSetCurrentContext((aclrtContext)&c), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(default_context_of_set_device)
{
	aclrtContext c1, c2, c3;
	aclrtStream s1, s2;

	acl_setup();
	REQUIRE_ACL(aclrtGetCurrentContext(&c1));
	CHECK(c1 != NULL);
	REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&s1));
	CHECK(s1 != NULL);
	/* the default stream is what NULL means, and cannot be destroyed */
	CHECK_ACL_ERR(aclrtDestroyStream(s1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	/* a second SetDevice keeps the same default context and stream */
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtGetCurrentContext(&c2));
	CHECK(c1 == c2);
	REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&s2));
	CHECK(s1 == s2);
	/* a default context can be made current again but not destroyed */
	CHECK_ACL_ERR(aclrtDestroyContext(c1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtSetCurrentContext(c1));
	REQUIRE_ACL(aclrtGetCurrentContext(&c3));
	CHECK(c3 == c1);
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_ACL_OK(aclrtResetDevice(0));
	/* released: the context is gone */
	CHECK_ACL_ERR(aclrtSetCurrentContext(c1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetCurrentContext(&c3), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(explicit_context_lifecycle)
{
	aclrtContext dc, c, cur;
	aclrtStream ds, cs, cs2;
	int32_t dev = -1;
	int *p;
	int v[4] = { 1, 2, 3, 4 }, r[4] = { 0 };

	acl_setup();
	REQUIRE_ACL(aclrtGetCurrentContext(&dc));
	REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&ds));
	REQUIRE_ACL(aclrtCreateContext(&c, 0));
	CHECK(c != dc);
	/* CANN: the new context becomes current */
	REQUIRE_ACL(aclrtGetCurrentContext(&cur));
	CHECK(cur == c);
	REQUIRE_ACL(aclrtGetDevice(&dev));
	CHECK_EQ(dev, 0);
	REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&cs));
	CHECK(cs != ds);
	REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&cs2));
	CHECK(cs == cs2);
	CHECK_ACL_ERR(aclrtDestroyStream(cs), ACL_ERROR_RT_PARAM_INVALID);
	/* work on the context's default stream (NULL) */
	REQUIRE_ACL(aclrtMalloc((void **)&p, sizeof(v), ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemcpyAsync(p, sizeof(v), v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE, NULL));
	REQUIRE_ACL(aclrtSynchronizeStream(NULL));
	REQUIRE_ACL(aclrtMemcpy(r, sizeof(r), p, sizeof(r), ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK(!memcmp(r, v, sizeof(v)));
	/* back to the default context and its stream */
	REQUIRE_ACL(aclrtSetCurrentContext(dc));
	REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&cs2));
	CHECK(cs2 == ds);
	REQUIRE_ACL(aclrtSetCurrentContext(c));
	REQUIRE_ACL(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyContext(c));
	/* the thread's current context is gone */
	CHECK_ACL_ERR(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_ACL_ERR(aclrtDestroyContext(c), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSetCurrentContext(c), ACL_ERROR_RT_PARAM_INVALID);
	/* the device is still set (SetDevice's reference) */
	CHECK_ACL_OK(aclrtSetCurrentContext(dc));
	CHECK_ACL_OK(aclrtResetDevice(0));
}

/* An explicit context keeps its device open after the last reset. */
TEST(context_holds_device_reference)
{
	aclrtContext c;
	void *p;

	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtCreateContext(&c, 0));
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_OK(aclrtSetCurrentContext(c));
	CHECK_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyContext(c));
	/* now the device is released */
	CHECK_ACL_ERR(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL);
}

/* A context created without aclrtSetDevice works on its own. */
TEST(context_without_set_device)
{
	aclrtContext c;
	aclrtStream s;
	int32_t d = -1;

	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtCreateContext(&c, 0));
	REQUIRE_ACL(aclrtGetDevice(&d));
	CHECK_EQ(d, 0);
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyContext(c));
}

static aclrtContext g_ctx;
static aclrtContext g_seen;
static aclError g_ret1, g_ret2;

static void *thr_ctx(void *arg)
{
	(void)arg;
	/* a new thread has no current context */
	g_ret1 = aclrtGetCurrentContext(&g_seen);
	g_ret2 = aclrtSetCurrentContext(g_ctx);
	if (!g_ret2)
		g_ret2 = aclrtGetCurrentContext(&g_seen);
	return NULL;
}

TEST(current_context_is_per_thread)
{
	aclrtContext c, dc, cur;
	pthread_t t;

	acl_setup();
	REQUIRE_ACL(aclrtGetCurrentContext(&dc));
	REQUIRE_ACL(aclrtCreateContext(&c, 0));
	g_ctx = dc;
	REQUIRE(pthread_create(&t, NULL, thr_ctx, NULL) == 0);
	pthread_join(t, NULL);
	CHECK_EQ(g_ret1, ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(g_ret2, ACL_SUCCESS);
	CHECK(g_seen == dc);
	/* the other thread's switch did not touch ours */
	REQUIRE_ACL(aclrtGetCurrentContext(&cur));
	CHECK(cur == c);
	CHECK_ACL_OK(aclrtDestroyContext(c));
}

/* Threads that set the same device share its default context. */
static void *thr_setdev(void *arg)
{
	aclrtContext *out = arg;

	if (aclrtSetDevice(0) == ACL_SUCCESS)
		aclrtGetCurrentContext(out);
	aclrtResetDevice(0);
	return NULL;
}

TEST(threads_share_default_context)
{
	aclrtContext a = NULL, b = NULL;
	pthread_t t;

	acl_setup();
	REQUIRE_ACL(aclrtGetCurrentContext(&a));
	REQUIRE(pthread_create(&t, NULL, thr_setdev, &b) == 0);
	pthread_join(t, NULL);
	CHECK(a == b);
	/* the other thread's reset did not release our reference */
	CHECK_ACL_OK(aclrtSynchronizeDevice());
	CHECK_ACL_OK(aclrtResetDevice(0));
}

TEST(set_device_refcount)
{
	void *p;

	REQUIRE_ACL(aclInit(NULL));
	CHECK_ACL_ERR(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL);
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_ACL_OK(aclrtResetDevice(0));
	/* one reference left: the memory and device are still usable */
	CHECK_ACL_OK(aclrtMemset(p, 64, 0, 64));
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_ACL_ERR(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_ACL_ERR(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
	/* force: one call releases every reference */
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtResetDeviceForce(0));
	CHECK_ACL_ERR(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_ACL_ERR(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_NULL);
}

/* Force-resetting a device with an explicit context leaves a dead handle. */
TEST(force_reset_kills_contexts)
{
	aclrtContext c;
	aclrtStream s;

	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtCreateContext(&c, 0));
	REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&s));
	CHECK_ACL_OK(aclrtResetDeviceForce(0));
	CHECK_ACL_ERR(aclrtSetCurrentContext(c), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtDestroyContext(c));
}

TEST(stream_of_another_device)
{
	aclrtStream s1;
	aclrtEvent ev;
	int32_t d;
	void *p0, *h;
	char buf[64];

	if (ndev() < 2)
		SKIP("needs 2 devices");
	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtGetDevice(&d));
	CHECK_EQ(d, 0);
	REQUIRE_ACL(aclrtMalloc(&p0, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMallocHost(&h, 64));
	REQUIRE_ACL(aclrtCreateEvent(&ev));
	CHECK_ACL_ERR(aclrtSynchronizeStream(s1), ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_ERR(aclrtMemcpyAsync(p0, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, s1),
		      ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_ERR(aclrtMemsetAsync(p0, 64, 0, 64, s1), ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_ERR(aclrtRecordEvent(ev, s1), ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_ERR(aclrtStreamWaitEvent(s1, ev), ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_ERR(aclrtDestroyStream(s1), ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_ERR(launch_write(s1, (int *)p0, 1, 1), ACL_ERROR_RT_STREAM_CONTEXT);
	/* back on device 1 the stream works */
	REQUIRE_ACL(aclrtSetDevice(1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	(void)buf;
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
	CHECK_ACL_OK(aclrtFree(p0));
	CHECK_ACL_OK(aclrtFreeHost(h));
}

/* aclrtSetCurrentContext switches the thread's device too. */
TEST(set_context_switches_device)
{
	aclrtContext c0, c1;
	int32_t d = -1;

	if (ndev() < 2)
		SKIP("needs 2 devices");
	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtCreateContext(&c1, 1));
	REQUIRE_ACL(aclrtGetDevice(&d));
	CHECK_EQ(d, 1);
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtGetCurrentContext(&c0));
	REQUIRE_ACL(aclrtGetDevice(&d));
	CHECK_EQ(d, 0);
	REQUIRE_ACL(aclrtSetCurrentContext(c1));
	REQUIRE_ACL(aclrtGetDevice(&d));
	CHECK_EQ(d, 1);
	REQUIRE_ACL(aclrtSetCurrentContext(c0));
	REQUIRE_ACL(aclrtGetDevice(&d));
	CHECK_EQ(d, 0);
	CHECK_ACL_OK(aclrtDestroyContext(c1));
	CHECK_ACL_OK(aclrtResetDevice(0));
}

TEST(device_info)
{
	int64_t v = -1;
	size_t fr, tot;
	uint32_t i, n;

	REQUIRE_ACL(aclInit(NULL));
	n = ndev();
	CHECK_ACL_ERR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetDeviceInfo(n, ACL_DEV_ATTR_AICORE_CORE_NUM, &v),
		      ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtGetDeviceInfo(0, (aclrtDevAttr)12345, &v),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	for (i = 0; i < n; i++) {
		/* no aclrtSetDevice needed */
		REQUIRE_ACL(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
		CHECK(v > 0);
		REQUIRE_ACL(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
		CHECK(v > 0);
		REQUIRE_ACL(aclrtSetDevice((int32_t)i));
		REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot));
		CHECK((size_t)v >= tot);
		REQUIRE_ACL(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_AICPU_CORE_NUM, &v));
		CHECK_EQ(v, 0);
		REQUIRE_ACL(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
		CHECK(v > 0);				/* the AI cores: mix cores */
		REQUIRE_ACL(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
		CHECK(v >= 0);
	}
}

TEST(bare_tgid)
{
	int32_t pid = 0;

	REQUIRE_ACL(aclInit(NULL));
	CHECK_ACL_ERR(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDeviceGetBareTgid(&pid));
	CHECK_EQ(pid, (int32_t)getpid());
}

int main(void)
{
	return tap_main();
}
