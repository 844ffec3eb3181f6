// SPDX-License-Identifier: MIT
/*
 * aclrtLaunchKernel's fast path (kernel.c, launch_cached()): a launch of
 * the function on the stream the thread used last writes the command
 * straight into the ring.  These cases launch one function handle again
 * and again (builtin_kernel() of acl_util.h loads a new binary, so a new
 * handle, every time and never reaches the fast path), and check that the
 * fast path puts the same command on the ring (argument sizes that are not
 * a multiple of 8, unaligned argument pointers), keeps every check and
 * message of the full path, waits on a full ring, leaves a capturing
 * stream's launches to the model and is safe from several threads.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "acl_util.h"

static aclrtBinHandle bin;

static aclrtFuncHandle fn_of(const char *name)
{
	aclrtFuncHandle fn = NULL;

	if (!bin)
		REQUIRE_ACL(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &bin));
	REQUIRE_ACL(aclrtBinaryGetFunction(bin, name, &fn));
	return fn;
}

/* DeviceWrite's arguments: it takes 12 bytes (p, v), padded to 16 here */
struct wargs {
	int *p;
	int v;
	int pad;
};

static int dev_int(const int *p)
{
	int v = -1;

	REQUIRE_ACL(aclrtMemcpy(&v, sizeof(v), p, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
	return v;
}

static int *dev_zeroed(size_t n)
{
	int *p = NULL;

	REQUIRE_ACL(aclrtMalloc((void **)&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, n, 0, n));
	return p;
}

TEST(argument_sizes_and_alignment)
{
	static const size_t sizes[] = { 16, 12, 13, 16, 12, 13 };
	unsigned char buf[64] __attribute__((aligned(16)));
	aclrtFuncHandle fn;
	aclrtStream s = NULL;
	struct capture c;
	struct wargs a;
	int *p, i;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	fn = fn_of("DeviceWrite");
	p = dev_zeroed(4096);
	capture_begin(&c);
	/* the first launch takes the full path, the others the fast one */
	for (i = 0; i < 6; i++) {
		a = (struct wargs){ p + i, 100 + i, 0x5a5a5a5a };
		CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, &a, sizes[i], s));
	}
	/* arguments at odd addresses */
	for (i = 6; i < 9; i++) {
		a = (struct wargs){ p + i, 100 + i, 0 };
		memcpy(buf + i - 5, &a, 12);
		CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, buf + i - 5, 12, s));
	}
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	free(capture_end(&c));
	for (i = 0; i < 9; i++)
		CHECK_EQ(dev_int(p + i), 100 + i);
	CHECK_EQ(dev_int(p + 9), 0);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(no_arguments)
{
	aclrtFuncHandle fn;
	aclrtStream s = NULL;
	int i;

	/* Trap takes no arguments: NULL/0 on the fast path, and its fault is
	 * reported by the synchronisation as always */
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	fn = fn_of("Trap");
	for (i = 0; i < 3; i++)
		CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, NULL, 0, s));
	CHECK_ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(checks_and_messages_as_the_full_path)
{
	static char big[97];	/* one more than a command carries */
	aclrtFuncHandle fn;
	aclrtStream s = NULL;
	struct capture c;
	struct wargs a;
	int *p;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	fn = fn_of("DeviceWrite");
	p = dev_zeroed(4096);
	a = (struct wargs){ p, 1, 0 };
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &a, sizeof(a), s));
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &a, sizeof(a), s));
	CHECK_ACL_MSG(aclrtLaunchKernel(fn, 0, &a, sizeof(a), s),
		      ACL_ERROR_INVALID_PARAM, "numBlocks is 0");
	CHECK_ACL_MSG(aclrtLaunchKernel(fn, 1, &a, 8, s),
		      ACL_ERROR_INVALID_PARAM, "smaller than the 12 bytes");
	CHECK_ACL_MSG(aclrtLaunchKernel(fn, 1, NULL, sizeof(a), s),
		      ACL_ERROR_INVALID_PARAM, "argsData is NULL");
	CHECK_ACL_MSG(aclrtLaunchKernel(fn, 1, big, sizeof(big), s),
		      ACL_ERROR_INVALID_PARAM, "exceeds");
	a.v = 2;
	CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, &a, sizeof(a), s));
	capture_begin(&c);	/* DeviceWrite's printf */
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	free(capture_end(&c));
	CHECK_EQ(dev_int(p), 2);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(destroyed_stream_and_unloaded_function)
{
	aclrtFuncHandle fn;
	aclrtStream s = NULL, s2 = NULL;
	uint64_t us = 0;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	fn = fn_of("Spin");
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s));
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s));
	REQUIRE_ACL(aclrtDestroyStream(s));
	CHECK_ACL_MSG(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s),
		      ACL_ERROR_RT_PARAM_INVALID, "not a live stream");
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s2));
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s2));
	REQUIRE_ACL(aclrtBinaryUnLoad(bin));
	bin = NULL;
	CHECK_ACL_MSG(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s2),
		      ACL_ERROR_RT_PARAM_INVALID, "not a live handle");
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

TEST(other_device)
{
	aclrtFuncHandle fn0, fn1;
	aclrtStream s0 = NULL, s1 = NULL;
	uint32_t n = 0;
	uint64_t us = 0;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("one device");
	REQUIRE_ACL(aclrtCreateStream(&s0));
	fn0 = fn_of("Spin");
	REQUIRE_ACL(aclrtLaunchKernel(fn0, 1, &us, sizeof(us), s0));
	REQUIRE_ACL(aclrtLaunchKernel(fn0, 1, &us, sizeof(us), s0));
	/* the cached stream, but not this thread's device now */
	REQUIRE_ACL(aclrtSetDevice(1));
	CHECK_ACL_MSG(aclrtLaunchKernel(fn0, 1, &us, sizeof(us), s0),
		      ACL_ERROR_RT_STREAM_CONTEXT, "current device is 1");
	/* the cached function on a stream of another device */
	REQUIRE_ACL(aclrtCreateStream(&s1));
	{
		aclrtBinHandle b1 = NULL;

		REQUIRE_ACL(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &b1));
		REQUIRE_ACL(aclrtBinaryGetFunction(b1, "Spin", &fn1));
	}
	REQUIRE_ACL(aclrtLaunchKernel(fn1, 1, &us, sizeof(us), s1));
	CHECK_ACL_ERR(aclrtLaunchKernel(fn0, 1, &us, sizeof(us), s1),
		      ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_MSG(aclrtLaunchKernel(fn0, 1, &us, sizeof(us), s1),
		      ACL_ERROR_RT_STREAM_CONTEXT, "was loaded on device 0");
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtLaunchKernel(fn0, 1, &us, sizeof(us), s0));
	CHECK_ACL_OK(aclrtSynchronizeStream(s0));
	CHECK_ACL_OK(aclrtDestroyStream(s0));
	REQUIRE_ACL(aclrtSetDevice(1));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
}

TEST(full_ring_waits)
{
	aclrtFuncHandle fn;
	aclrtStream s = NULL;
	uint64_t us = 100000;
	struct capture c;
	int *p, i;

	/* 3000 launches behind a 100 ms kernel: about three rings' worth */
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	fn = fn_of("Spin");
	p = dev_zeroed(4096);
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s));
	us = 0;
	for (i = 0; i < 3000; i++)
		REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &us, sizeof(us), s));
	capture_begin(&c);
	REQUIRE_ACL(launch_write(s, p, 77, 1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	free(capture_end(&c));
	CHECK_EQ(dev_int(p), 77);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(capturing_stream_records)
{
	aclrtFuncHandle fn;
	aclrtStream s = NULL;
	aclmdlRI m = NULL;
	struct capture c;
	struct wargs a;
	int *p;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	fn = fn_of("DeviceWrite");
	p = dev_zeroed(4096);
	capture_begin(&c);
	a = (struct wargs){ p, 1, 0 };
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &a, sizeof(a), s));
	REQUIRE_ACL(aclrtLaunchKernel(fn, 1, &a, sizeof(a), s));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	a = (struct wargs){ p + 1, 2, 0 };
	CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, &a, sizeof(a), s));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_EQ(dev_int(p + 1), 0);	/* recorded, not run */
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	free(capture_end(&c));
	CHECK_EQ(dev_int(p + 1), 2);
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

#define THREADS	4
#define PER	1500

struct thr {
	aclrtStream s;
	aclrtFuncHandle fill;
	int *p;
	aclError err;
	uint32_t task;
};

static void *launcher(void *arg)
{
	struct thr *t = arg;
	struct { int *p; int v; int pad; uint64_t n; } a = { t->p, 0, 0, 1 };
	int i;

	t->err = aclrtSetDevice(0);
	for (i = 0; i < PER && !t->err; i++) {
		a.v = i + 1;
		t->err = aclrtLaunchKernel(t->fill, 1, &a, sizeof(a), t->s);
	}
	if (!t->err)
		t->err = aclrtGetThreadLastTaskId(&t->task);
	return NULL;
}

TEST(threads_share_a_stream)
{
	struct thr t[THREADS];
	pthread_t th[THREADS];
	aclrtFuncHandle fill;
	aclrtStream s = NULL;
	uint32_t tasks = 0;
	int *p, i;

	/* every thread's launches run, in its order: its cell ends at PER */
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	fill = fn_of("Fill32");
	p = dev_zeroed(4096);
	for (i = 0; i < THREADS; i++) {
		t[i] = (struct thr){ .s = s, .fill = fill, .p = p + i };
		REQUIRE(pthread_create(&th[i], NULL, launcher, &t[i]) == 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_ACL_OK(t[i].err);
		if (t[i].task > tasks)
			tasks = t[i].task;
	}
	CHECK_EQ(tasks, THREADS * PER);	/* the last of all the commands */
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < THREADS; i++)
		CHECK_EQ(dev_int(p + i), PER);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
