// SPDX-License-Identifier: MIT
/*
 * Events: creation flags, record/query/synchronize, elapsed time and
 * timestamps, reset rules, destroy before completion, and cross-stream
 * dependencies executed on the device (aclrtStreamWaitEvent).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "acl_util.h"

TEST(create_flag_variants)
{
	static const uint32_t ok[] = {
		0, ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_CAPTURE_STREAM_PROGRESS,
		ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL,
		ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE,
	};
	aclrtEvent e = NULL;
	unsigned int i;

	acl_setup();
	need_events();
	CHECK_ACL_OK(aclrtCreateEvent(&e));
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_ACL_OK(aclrtCreateEventWithFlag(&e, ok[i]));
		CHECK_ACL_OK(aclrtDestroyEvent(e));
		CHECK_ACL_OK(aclrtCreateEventExWithFlag(&e, ok[i]));
		CHECK_ACL_OK(aclrtDestroyEvent(e));
	}
	CHECK_ACL_ERR(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCreateEventWithFlag(&e, 0x80000000u), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC),
		      ACL_ERROR_INVALID_PARAM);
	/* IPC events exist now (test_acl_ipc.c) */
	CHECK_ACL_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_IPC));
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	CHECK_ACL_ERR(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(query_before_record_is_complete)
{
	aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	aclrtEventStatus st = ACL_EVENT_STATUS_NOT_READY;
	aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_NOT_READY;
	aclrtEvent e;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
	CHECK_ACL_OK(aclrtQueryEventStatus(e, &rs));
	CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	CHECK_ACL_OK(aclrtQueryEvent(e, &st));
#pragma GCC diagnostic pop
	CHECK_EQ(st, ACL_EVENT_STATUS_COMPLETE);
	CHECK_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
	CHECK_EQ(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
	CHECK_ACL_OK(aclrtSynchronizeEvent(e));
	CHECK_ACL_ERR(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDestroyEvent(e));
}

TEST(record_query_synchronize)
{
	aclrtEventRecordedStatus rs;
	aclrtStream s;
	aclrtEvent e;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	REQUIRE_ACL(launch_spin(s, 200000));	/* 200 ms */
	CHECK_ACL_OK(aclrtRecordEvent(e, s));
	CHECK_ACL_OK(aclrtQueryEventStatus(e, &rs));
	CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	CHECK_ACL_ERR(aclrtSynchronizeEventWithTimeout(e, 1), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
	CHECK_ACL_OK(aclrtSynchronizeEvent(e));
	CHECK_ACL_OK(aclrtQueryEventStatus(e, &rs));
	CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	CHECK_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 0));
	CHECK_ACL_ERR(aclrtSynchronizeEventWithTimeout(e, -2), ACL_ERROR_INVALID_PARAM);
	/* re-record on the default stream */
	CHECK_ACL_OK(aclrtRecordEvent(e, NULL));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e));
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(elapsed_time_and_timestamps)
{
	aclrtEvent e0, e1, e2, notime;
	uint64_t t0 = 0, t1 = 0;
	float ms = -1, ms2 = -1;
	aclrtStream s;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&e0));
	REQUIRE_ACL(aclrtCreateEventWithFlag(&e1, ACL_EVENT_TIME_LINE));
	REQUIRE_ACL(aclrtCreateEvent(&e2));
	REQUIRE_ACL(aclrtCreateEventWithFlag(&notime, ACL_EVENT_SYNC));
	/* not recorded yet */
	CHECK_ACL_ERR(aclrtEventElapsedTime(&ms, e0, e1), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	CHECK_ACL_ERR(aclrtEventElapsedTime(NULL, e0, e1), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtRecordEvent(e0, s));
	REQUIRE_ACL(launch_spin(s, 2000));
	REQUIRE_ACL(aclrtRecordEvent(e1, s));
	REQUIRE_ACL(launch_spin(s, 2000));
	REQUIRE_ACL(aclrtRecordEvent(e2, s));
	REQUIRE_ACL(aclrtRecordEvent(notime, s));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtEventElapsedTime(&ms, e0, e1));
	CHECK(ms >= 0.0f);
	CHECK_ACL_OK(aclrtEventElapsedTime(&ms2, e0, e2));
	CHECK(ms2 >= ms);
	CHECK_ACL_OK(aclrtEventGetTimestamp(e0, &t0));
	CHECK_ACL_OK(aclrtEventGetTimestamp(e2, &t1));
	CHECK(t1 >= t0);
	CHECK_ACL_ERR(aclrtEventElapsedTime(&ms, e2, e0), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL);
	CHECK_ACL_ERR(aclrtEventElapsedTime(&ms, e0, notime), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	CHECK_ACL_ERR(aclrtEventGetTimestamp(e0, NULL), ACL_ERROR_INVALID_PARAM);
	aclrtDestroyEvent(e0);
	aclrtDestroyEvent(e1);
	aclrtDestroyEvent(e2);
	aclrtDestroyEvent(notime);
	aclrtDestroyStream(s);
}

TEST(elapsed_time_not_complete)
{
	aclrtEvent a, b;
	aclrtStream s;
	float ms;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&a));
	REQUIRE_ACL(aclrtCreateEvent(&b));
	REQUIRE_ACL(aclrtRecordEvent(a, s));
	REQUIRE_ACL(launch_spin(s, 300000));
	REQUIRE_ACL(aclrtRecordEvent(b, s));
	CHECK_ACL_ERR(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtEventElapsedTime(&ms, a, b));
	aclrtDestroyEvent(a);
	aclrtDestroyEvent(b);
	aclrtDestroyStream(s);
}

TEST(reset_rules)
{
	aclrtEvent plain, nosync, sync;
	aclrtEventRecordedStatus rs;
	aclrtStream s;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&plain));
	REQUIRE_ACL(aclrtCreateEventWithFlag(&nosync, ACL_EVENT_TIME_LINE));
	REQUIRE_ACL(aclrtCreateEventWithFlag(&sync, ACL_EVENT_SYNC));
	CHECK_ACL_ERR(aclrtResetEvent(nosync, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtStreamWaitEvent(s, nosync), ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(launch_spin(s, 200000));
	REQUIRE_ACL(aclrtRecordEvent(sync, s));
	CHECK_ACL_OK(aclrtResetEvent(sync, s));
	/* after a reset the event counts as not recorded */
	CHECK_ACL_OK(aclrtQueryEventStatus(sync, &rs));
	CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	/* aclrtCreateEvent's events reset too, as CANN's runtime does */
	REQUIRE_ACL(launch_spin(s, 200000));
	REQUIRE_ACL(aclrtRecordEvent(plain, s));
	CHECK_ACL_OK(aclrtQueryEventStatus(plain, &rs));
	CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	CHECK_ACL_OK(aclrtResetEvent(plain, s));
	CHECK_ACL_OK(aclrtQueryEventStatus(plain, &rs));
	CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	aclrtDestroyEvent(plain);
	aclrtDestroyEvent(nosync);
	aclrtDestroyEvent(sync);
	aclrtDestroyStream(s);
}

TEST(destroy_before_completion_does_not_block_or_fault)
{
	aclrtStream s, w;
	aclrtEvent e;
	int *p, v = 0;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&w));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	REQUIRE_ACL(launch_spin(s, 300000));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	REQUIRE_ACL(aclrtStreamWaitEvent(w, e));
	REQUIRE_ACL(launch_write(w, p, 77, 1));
	CHECK_ACL_OK(aclrtDestroyEvent(e));	/* returns at once */
	CHECK_ACL_ERR(aclrtRecordEvent(e, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtSynchronizeStream(w));
	/* a new event may reuse resources: both streams keep working */
	REQUIRE_ACL(aclrtCreateEvent(&e));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e));
	CHECK_EQ(read_dev_ints(w, p, &v, 1), 1);
	CHECK_EQ(v, 77);
	aclrtDestroyEvent(e);
	aclrtFree(p);
	aclrtDestroyStream(s);
	aclrtDestroyStream(w);
}

TEST(wait_on_never_recorded_event_is_noop)
{
	aclrtStream s;
	aclrtEvent e;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	CHECK_ACL_OK(aclrtStreamWaitEvent(s, e));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_ERR(aclrtStreamWaitEventWithTimeout(s, e, -2), ACL_ERROR_INVALID_PARAM);
	aclrtDestroyEvent(e);
	aclrtDestroyStream(s);
}

/*
 * Eight streams, stream i waits (on the device) for the event of stream
 * i-1: x = fill(1); then x = x + x on each stream in turn -> 2^8 * 1 after
 * the chain, with a spin at the front so the waits really stall.
 */
TEST(dependency_chain_across_8_streams)
{
	enum { N = 8, LEN = 64 };
	aclrtStream s[N];
	aclrtEvent e[N];
	int *x, *y, v[4];
	int i;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtMalloc((void **)&x, LEN * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&y, LEN * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < N; i++) {
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
		REQUIRE_ACL(aclrtCreateEvent(&e[i]));
	}
	REQUIRE_ACL(launch_spin(s[0], 100000));
	REQUIRE_ACL(launch_fill32(s[0], x, 1, LEN, 2));
	REQUIRE_ACL(aclrtRecordEvent(e[0], s[0]));
	for (i = 1; i < N; i++) {
		REQUIRE_ACL(aclrtStreamWaitEvent(s[i], e[i - 1]));
		/* y = x + x; x = copy of y (ring COPY) */
		REQUIRE_ACL(launch_add32(s[i], x, x, y, LEN, 2));
		REQUIRE_ACL(aclrtMemcpyAsync(x, LEN * 4, y, LEN * 4, ACL_MEMCPY_DEVICE_TO_DEVICE,
					     s[i]));
		REQUIRE_ACL(aclrtRecordEvent(e[i], s[i]));
	}
	REQUIRE_ACL(aclrtSynchronizeEvent(e[N - 1]));
	CHECK_EQ(read_dev_ints(s[0], x, v, 1), 1);
	CHECK_EQ(v[0], 1 << (N - 1));
	CHECK_EQ(read_dev_ints(s[0], x + LEN - 1, v, 1), 1);
	CHECK_EQ(v[0], 1 << (N - 1));
	for (i = 0; i < N; i++) {
		CHECK_ACL_OK(aclrtDestroyEvent(e[i]));
		CHECK_ACL_OK(aclrtDestroyStream(s[i]));
	}
	aclrtFree(x);
	aclrtFree(y);
}

TEST(event_of_other_device_stream_context)
{
	aclrtEvent e;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateEvent(&e));
	CHECK_ACL_ERR(aclrtRecordEvent((aclrtEvent)&e, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	CHECK_ACL_ERR(aclrtDestroyEvent(e), ACL_ERROR_RT_PARAM_INVALID);
}

/* Record and synchronise remember the event a thread used last; a
 * destroyed one must still be refused, also by another thread's destroy. */
static void *destroy_event_thread(void *arg)
{
	return (void *)(intptr_t)aclrtDestroyEvent(*(aclrtEvent *)arg);
}

TEST(used_then_destroyed_event_is_refused)
{
	aclrtEvent e = NULL, e2 = NULL;
	aclrtStream s = NULL;
	pthread_t t;
	void *r = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	REQUIRE_ACL(aclrtSynchronizeEvent(e));
	REQUIRE(pthread_create(&t, NULL, destroy_event_thread, &e) == 0);
	REQUIRE(pthread_join(t, &r) == 0);
	CHECK_EQ((intptr_t)r, ACL_SUCCESS);
	CHECK_ACL_ERR(aclrtRecordEvent(e, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSynchronizeEvent(e), ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(aclrtCreateEvent(&e2));
	CHECK_ACL_OK(aclrtRecordEvent(e2, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e2));
	if (e2 != e)
		CHECK_ACL_ERR(aclrtSynchronizeEvent(e), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtDestroyEvent(e2));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
