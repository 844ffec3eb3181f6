// SPDX-License-Identifier: MIT
/*
 * Host functions: aclrtLaunchHostFunc runs a function on a host thread in
 * stream order (after the stream's earlier work, before its later work)
 * with no subscription; aclrtSubscribeHostFunc / aclrtProcessHostFunc /
 * aclrtUnSubscribeHostFunc let a thread of the caller's run them.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "acl_util.h"

struct hf {
	volatile int *in;	/* pinned host memory the device wrote */
	volatile int *out;	/* pinned host memory the device reads next */
	int seen;		/* *in when the function ran */
	int calls;
	int order[16];
	int norder;
	int *counter;
	pthread_t thread;
};

static void hf_fn(void *args)
{
	struct hf *h = args;

	h->seen = *h->in;
	*h->out = h->seen + 100;
	h->thread = pthread_self();
	h->calls++;
}

static void hf_count(void *args)
{
	struct hf *h = args;

	h->order[h->norder++ % 16] = (*h->counter)++;
	h->thread = pthread_self();
}

TEST(runs_in_stream_order_on_another_thread)
{
	struct hf h = { 0 };
	aclrtStream s;
	int *pin, v = 0;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMallocHost((void **)&pin, 64));
	pin[0] = 0;
	pin[1] = 0;
	h.in = &pin[0];
	h.out = &pin[1];
	/* device writes 7 after a while; the function must see it */
	REQUIRE_ACL(launch_spin(s, 20000));
	REQUIRE_ACL(launch_write(s, &pin[0], 7, 1));
	CHECK_ACL_OK(aclrtLaunchHostFunc(s, hf_fn, &h));
	/* the device reads what the function wrote: later work waited */
	CHECK_EQ(read_dev_ints(s, &pin[1], &v, 1), 1);
	CHECK_EQ(v, 107);
	CHECK_EQ(h.calls, 1);
	CHECK_EQ(h.seen, 7);
	CHECK(!pthread_equal(h.thread, pthread_self()));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	aclrtFreeHost(pin);
}

TEST(synchronize_waits_for_the_function)
{
	struct hf a = { 0 }, b = { 0 };
	int counter = 0, ca = 0, cb = 0, i;
	aclrtStream s[2];

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s[0]));
	REQUIRE_ACL(aclrtCreateStream(&s[1]));
	a.counter = &ca;
	b.counter = &cb;
	for (i = 0; i < 5; i++) {
		REQUIRE_ACL(launch_spin(s[0], 1000));
		CHECK_ACL_OK(aclrtLaunchHostFunc(s[0], hf_count, &a));
		CHECK_ACL_OK(aclrtLaunchHostFunc(s[1], hf_count, &b));
	}
	CHECK_ACL_OK(aclrtSynchronizeStream(s[0]));
	CHECK_ACL_OK(aclrtSynchronizeStream(s[1]));
	CHECK_EQ(a.norder, 5);
	CHECK_EQ(b.norder, 5);
	for (i = 0; i < 5; i++) {
		CHECK_EQ(a.order[i], i);
		CHECK_EQ(b.order[i], i);
	}
	/* the default stream (NULL) works too */
	counter = 0;
	a.counter = &counter;
	a.norder = 0;
	CHECK_ACL_OK(aclrtLaunchHostFunc(NULL, hf_count, &a));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
	CHECK_EQ(counter, 1);
	CHECK_ACL_OK(aclrtDestroyStream(s[0]));
	CHECK_ACL_OK(aclrtDestroyStream(s[1]));
}

static void nop(void *args)
{
	(void)args;
}

TEST(error_codes)
{
	uint64_t self = (uint64_t)pthread_self();
	aclrtStream s, t;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&t));
	CHECK_ACL_ERR(aclrtLaunchHostFunc(s, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	/* a stream a thread takes callbacks of takes no host functions */
	REQUIRE_ACL(aclrtSubscribeReport(self, s));
	CHECK_ACL_ERR(aclrtLaunchHostFunc(s, nop, NULL), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	CHECK_ACL_OK(aclrtUnSubscribeReport(self, s));
	/* a stream only the library's thread holds takes no callbacks */
	CHECK_ACL_OK(aclrtLaunchHostFunc(t, nop, NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(t));
	CHECK_ACL_ERR(aclrtLaunchCallback(nop, NULL, ACL_CALLBACK_BLOCK, t), ACL_ERROR_RT_STREAM_NO_CB_REG);
	CHECK_ACL_ERR(aclrtUnSubscribeReport(self, t), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	/* ...until a thread subscribes: nothing pending, it takes it over */
	CHECK_ACL_OK(aclrtSubscribeReport(self, t));
	CHECK_ACL_OK(aclrtUnSubscribeReport(self, t));
	CHECK_ACL_ERR(aclrtLaunchHostFunc((aclrtStream)(uintptr_t)0x10, nop, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSubscribeHostFunc(0, s), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtProcessHostFunc(-2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(t));
}

TEST(subscribed_thread_runs_them)
{
	uint64_t self = (uint64_t)pthread_self();
	struct hf h = { 0 };
	aclrtStream s;
	int counter = 0;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	h.counter = &counter;
	CHECK_ACL_OK(aclrtSubscribeHostFunc(self, s));
	CHECK_ACL_ERR(aclrtSubscribeHostFunc(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
	CHECK_ACL_ERR(aclrtProcessHostFunc(10), ACL_ERROR_RT_REPORT_TIMEOUT);	/* none yet */
	REQUIRE_ACL(launch_spin(s, 5000));
	CHECK_ACL_OK(aclrtLaunchHostFunc(s, hf_count, &h));
	CHECK_ACL_OK(aclrtLaunchHostFunc(s, hf_count, &h));
	CHECK_ACL_OK(aclrtProcessHostFunc(-1));
	CHECK(h.norder >= 1);
	if (h.norder < 2)
		CHECK_ACL_OK(aclrtProcessHostFunc(60000));
	CHECK_EQ(h.norder, 2);
	CHECK(pthread_equal(h.thread, pthread_self()));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_ERR(aclrtUnSubscribeHostFunc(self + 1, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	CHECK_ACL_OK(aclrtUnSubscribeHostFunc(self, s));
	/* back to the library's thread */
	CHECK_ACL_OK(aclrtLaunchHostFunc(s, hf_count, &h));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(h.norder, 3);
	CHECK(!pthread_equal(h.thread, pthread_self()));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
