// SPDX-License-Identifier: MIT
/*
 * Host callbacks: aclrtSubscribeReport, aclrtLaunchCallback (in stream
 * order, blocking and not), aclrtProcessReport and its error codes; a
 * report thread and a host-function thread sharing one stream.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include "acl_util.h"

static int order[16], norder;

static void record_cb(void *ud)
{
	order[norder++] = (int)(intptr_t)ud;
}

TEST(error_codes)
{
	aclrtStream s;
	uint64_t self = (uint64_t)pthread_self();

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_ERR(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);	/* CANN: -1 or > 0 */
	CHECK_ACL_ERR(aclrtProcessReport(1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	CHECK_ACL_ERR(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtLaunchCallback(record_cb, NULL, ACL_CALLBACK_BLOCK, s),
		      ACL_ERROR_RT_STREAM_NO_CB_REG);
	CHECK_ACL_ERR(aclrtUnSubscribeReport(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	SKIP_IF_NOT_SUPPORTED(aclrtSubscribeReport(self, s));
	CHECK_ACL_ERR(aclrtSubscribeReport(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	CHECK_ACL_ERR(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, s),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtLaunchCallback(record_cb, NULL, (aclrtCallbackBlockType)2, s),
		      ACL_ERROR_INVALID_PARAM);
	/* nothing launched: a short wait times out */
	CHECK_ACL_ERR(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT);
	CHECK_ACL_ERR(aclrtUnSubscribeReport(self + 1, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	CHECK_ACL_OK(aclrtUnSubscribeReport(self, s));
	aclrtDestroyStream(s);
}

TEST(order_and_blocking)
{
	aclrtStreamStatus st;
	aclrtStream s;
	int *p, v = 0, i;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtSubscribeReport((uint64_t)pthread_self(), s));
	REQUIRE_ACL(launch_spin(s, 20000));
	REQUIRE_ACL(aclrtLaunchCallback(record_cb, (void *)1, ACL_CALLBACK_NO_BLOCK, s));
	REQUIRE_ACL(aclrtLaunchCallback(record_cb, (void *)2, ACL_CALLBACK_BLOCK, s));
	REQUIRE_ACL(launch_write(s, p, 5, 1));
	/* the blocking callback has not run: the write waits behind it */
	usleep(100000);
	CHECK_ACL_OK(aclrtStreamQuery(s, &st));
	CHECK_EQ(st, ACL_STREAM_STATUS_NOT_READY);
	for (i = 0; i < 10 && norder < 2; i++)
		CHECK_ACL_OK(aclrtProcessReport(2000));
	CHECK_EQ(norder, 2);
	CHECK_EQ(order[0], 1);
	CHECK_EQ(order[1], 2);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(read_dev_ints(s, p, &v, 1), 1);
	CHECK_EQ(v, 5);
	CHECK_ACL_OK(aclrtUnSubscribeReport((uint64_t)pthread_self(), s));
	aclrtFree(p);
	aclrtDestroyStream(s);
}

TEST(destroy_with_unrun_blocking_callback)
{
	aclrtStream s;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtSubscribeReport((uint64_t)pthread_self(), s));
	REQUIRE_ACL(aclrtLaunchCallback(record_cb, (void *)1, ACL_CALLBACK_BLOCK, s));
	CHECK_ACL_OK(aclrtDestroyStream(s));	/* does not hang */
	CHECK_EQ(norder, 0);
}

/*
 * One thread subscribed to several streams: NO_BLOCK callbacks never hold
 * their streams back (every stream completes before the thread processes
 * a report), and the thread then runs each callback exactly once, in
 * stream order within each stream.
 */
static int seen[3][2], nseen;

static void multi_cb(void *ud)
{
	int v = (int)(intptr_t)ud;

	seen[v / 10][v % 10]++;
	/* within a stream, callback 0 comes before callback 1 */
	if (v % 10 == 1 && !seen[v / 10][0])
		seen[v / 10][1] += 100;
	nseen++;
}

TEST(no_block_callbacks_several_streams_one_thread)
{
	uint64_t self = (uint64_t)pthread_self();
	aclrtStream s[3];
	int *p, v[3], i, j;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < 3; i++) {
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
		REQUIRE_ACL(aclrtSubscribeReport(self, s[i]));
	}
	for (i = 0; i < 3; i++) {
		REQUIRE_ACL(launch_spin(s[i], 1000 * (3 - i)));
		REQUIRE_ACL(aclrtLaunchCallback(multi_cb, (void *)(intptr_t)(i * 10),
						ACL_CALLBACK_NO_BLOCK, s[i]));
		REQUIRE_ACL(aclrtLaunchCallback(multi_cb, (void *)(intptr_t)(i * 10 + 1),
						ACL_CALLBACK_NO_BLOCK, s[i]));
		REQUIRE_ACL(launch_write(s[i], p + i, 40 + i, 1));
	}
	/* nothing waits for the thread: every stream completes */
	for (i = 0; i < 3; i++)
		CHECK_ACL_OK(aclrtSynchronizeStreamWithTimeout(s[i], 20000));
	CHECK_EQ(nseen, 0);
	for (i = 0; i < 20 && nseen < 6; i++) {
		aclError r = aclrtProcessReport(1000);

		CHECK(r == ACL_SUCCESS || r == ACL_ERROR_RT_REPORT_TIMEOUT);
	}
	CHECK_EQ(nseen, 6);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			CHECK_EQ(seen[i][j], 1);
	/* all run: another report times out */
	CHECK_ACL_ERR(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(read_dev_ints(s[i], p + i, &v[i], 1), 1);
		CHECK_EQ(v[i], 40 + i);
		CHECK_ACL_OK(aclrtUnSubscribeReport(self, s[i]));
		CHECK_ACL_OK(aclrtDestroyStream(s[i]));
	}
	aclrtFree(p);
}

/* ---- a report thread and a host-function thread on one stream ---- */

static uint64_t ran_on[8];
static volatile int stop_threads;

static void who_cb(void *ud)
{
	int i = (int)(intptr_t)ud;

	order[norder++] = i;
	ran_on[i] = (uint64_t)pthread_self();
}

static void *report_loop(void *ctx)
{
	aclrtSetCurrentContext(ctx);
	while (!stop_threads)
		aclrtProcessReport(50);
	return NULL;
}

static void *hostfunc_loop(void *ctx)
{
	aclrtSetCurrentContext(ctx);
	while (!stop_threads)
		aclrtProcessHostFunc(50);
	return NULL;
}

/* CANN's simple_callback sample: both kinds interleaved, each on its thread. */
TEST(report_and_hostfunc_threads)
{
	pthread_t rt, ht;
	aclrtContext ctx;
	aclrtStream s;

	acl_setup();
	need_events();
	norder = 0;
	REQUIRE_ACL(aclrtGetCurrentContext(&ctx));
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE(pthread_create(&rt, NULL, report_loop, ctx) == 0);
	REQUIRE(pthread_create(&ht, NULL, hostfunc_loop, ctx) == 0);
	REQUIRE_ACL(aclrtSubscribeReport((uint64_t)rt, s));
	/* the same thread twice is refused, another kind is not */
	CHECK_ACL_ERR(aclrtSubscribeReport((uint64_t)ht, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	REQUIRE_ACL(aclrtSubscribeHostFunc((uint64_t)ht, s));
	CHECK_ACL_ERR(aclrtSubscribeHostFunc((uint64_t)rt, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	REQUIRE_ACL(launch_spin(s, 20000));
	REQUIRE_ACL(aclrtLaunchCallback(who_cb, (void *)0, ACL_CALLBACK_BLOCK, s));
	REQUIRE_ACL(aclrtLaunchHostFunc(s, who_cb, (void *)1));
	REQUIRE_ACL(aclrtLaunchCallback(who_cb, (void *)2, ACL_CALLBACK_BLOCK, s));
	REQUIRE_ACL(aclrtLaunchHostFunc(s, who_cb, (void *)3));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(norder, 4);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(order[i], i);			/* stream order */
	CHECK(ran_on[0] == (uint64_t)rt && ran_on[2] == (uint64_t)rt);
	CHECK(ran_on[1] == (uint64_t)ht && ran_on[3] == (uint64_t)ht);
	/* each subscription is let go by its own thread only */
	CHECK_ACL_ERR(aclrtUnSubscribeHostFunc((uint64_t)rt, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	CHECK_ACL_OK(aclrtUnSubscribeHostFunc((uint64_t)ht, s));
	/* callbacks only now: host functions are refused */
	CHECK_ACL_ERR(aclrtLaunchHostFunc(s, who_cb, (void *)4), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	CHECK_ACL_OK(aclrtUnSubscribeReport((uint64_t)rt, s));
	stop_threads = 1;
	pthread_join(rt, NULL);
	pthread_join(ht, NULL);
	aclrtDestroyStream(s);
}

int main(void)
{
	return tap_main();
}
