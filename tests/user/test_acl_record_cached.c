// SPDX-License-Identifier: MIT
/*
 * aclrtRecordEvent's fast path (event.c, record_cached()): a record of
 * the event this thread used last on the stream it used last writes the
 * command straight into the ring, and aclrtSynchronizeEvent's fast path
 * spins on the recording stream.  These cases record events again and
 * again and check that the fast paths number and complete the records
 * as the full path does (events and streams alternating, records behind
 * a long kernel, timestamps and status), keep every check and message of
 * the full path (destroyed event or stream, another device, an exported
 * IPC event), wait on a full ring, leave a capturing stream's records to
 * the model and are safe from several threads.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "acl_util.h"

static aclrtEventRecordedStatus status_of(aclrtEvent e)
{
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;

	REQUIRE_ACL(aclrtQueryEventStatus(e, &st));
	return st;
}

static int dev_int(const int *p)
{
	int v = -1;

	REQUIRE_ACL(aclrtMemcpy(&v, sizeof(v), p, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
	return v;
}

TEST(events_and_streams_alternate)
{
	aclrtStream s[2] = { NULL, NULL };
	aclrtEvent e[2] = { NULL, NULL };
	uint64_t last[2] = { 0, 0 }, t;
	int i, k;

	acl_setup();
	need_events();
	for (i = 0; i < 2; i++) {
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
		REQUIRE_ACL(aclrtCreateEvent(&e[i]));
	}
	/* the same event and stream again (the fast path), then the other
	 * event, the other stream, both: each record completes and takes a
	 * later timestamp than the one before */
	for (k = 0; k < 40; k++) {
		int ei = (k / 2) % 2, si = (k / 4) % 2;

		CHECK_ACL_OK(aclrtRecordEvent(e[ei], s[si]));
		CHECK_ACL_OK(aclrtSynchronizeEvent(e[ei]));
		CHECK_EQ(status_of(e[ei]), ACL_EVENT_RECORDED_STATUS_COMPLETE);
		t = 0;
		CHECK_ACL_OK(aclrtEventGetTimestamp(e[ei], &t));
		CHECK(t >= last[ei] && t >= last[!ei]);
		last[ei] = t;
	}
	/* behind a long kernel: pending until its stream gets there */
	for (k = 0; k < 3; k++) {
		REQUIRE_ACL(aclrtRecordEvent(e[0], s[0]));
		REQUIRE_ACL(launch_spin(s[0], 100000));	/* 100 ms */
		CHECK_ACL_OK(aclrtRecordEvent(e[0], s[0]));
		CHECK_EQ(status_of(e[0]), ACL_EVENT_RECORDED_STATUS_NOT_READY);
		CHECK_ACL_ERR(aclrtSynchronizeEventWithTimeout(e[0], 1),
			      ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
		/* the other event, recorded on the idle stream, is done */
		CHECK_ACL_OK(aclrtRecordEvent(e[1], s[1]));
		CHECK_ACL_OK(aclrtSynchronizeEvent(e[1]));
		CHECK_ACL_OK(aclrtSynchronizeEvent(e[0]));
		CHECK_EQ(status_of(e[0]), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	}
	for (i = 0; i < 2; i++) {
		CHECK_ACL_OK(aclrtDestroyEvent(e[i]));
		CHECK_ACL_OK(aclrtDestroyStream(s[i]));
	}
}

TEST(timestamps_and_reset)
{
	aclrtEvent a = NULL, b = NULL, notime = NULL;
	aclrtStream s = NULL;
	float ms = -1;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&a));
	REQUIRE_ACL(aclrtCreateEvent(&b));
	REQUIRE_ACL(aclrtCreateEventWithFlag(&notime, ACL_EVENT_SYNC));
	REQUIRE_ACL(aclrtRecordEvent(b, s));
	REQUIRE_ACL(aclrtRecordEvent(b, s));
	/* a, 20 ms of kernel, b (which the fast path records) */
	CHECK_ACL_OK(aclrtRecordEvent(a, s));
	REQUIRE_ACL(launch_spin(s, 20000));
	CHECK_ACL_OK(aclrtRecordEvent(b, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(b));
	CHECK_ACL_OK(aclrtEventElapsedTime(&ms, a, b));
	CHECK(ms >= 19.0f);
	CHECK_ACL_ERR(aclrtEventElapsedTime(&ms, b, a), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL);
	/* an event without timestamps, recorded twice */
	CHECK_ACL_OK(aclrtRecordEvent(notime, s));
	CHECK_ACL_OK(aclrtRecordEvent(notime, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(notime));
	CHECK_ACL_ERR(aclrtEventElapsedTime(&ms, a, notime), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	/* reset: not recorded (complete) until recorded again */
	REQUIRE_ACL(launch_spin(s, 50000));
	CHECK_ACL_OK(aclrtRecordEvent(notime, s));
	CHECK_ACL_OK(aclrtResetEvent(notime, s));
	CHECK_EQ(status_of(notime), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	CHECK_ACL_OK(aclrtRecordEvent(notime, s));
	CHECK_EQ(status_of(notime), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	CHECK_ACL_OK(aclrtSynchronizeEvent(notime));
	CHECK_EQ(status_of(notime), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	CHECK_ACL_OK(aclrtDestroyEvent(a));
	CHECK_ACL_OK(aclrtDestroyEvent(b));
	CHECK_ACL_OK(aclrtDestroyEvent(notime));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(destroyed_event_and_stream)
{
	aclrtEvent e = NULL, e2 = NULL;
	aclrtStream s = NULL, s2 = NULL;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	REQUIRE_ACL(aclrtCreateEvent(&e2));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	/* the cached event, destroyed (its record may still be pending) */
	REQUIRE_ACL(aclrtDestroyEvent(e));
	CHECK_ACL_MSG(aclrtRecordEvent(e, s), ACL_ERROR_RT_PARAM_INVALID, "not a live event");
	CHECK_ACL_MSG(aclrtSynchronizeEvent(e), ACL_ERROR_RT_PARAM_INVALID, "not a live event");
	CHECK_ACL_MSG(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM, "event is NULL");
	/* the cached stream, destroyed */
	REQUIRE_ACL(aclrtRecordEvent(e2, s));
	REQUIRE_ACL(aclrtRecordEvent(e2, s));
	REQUIRE_ACL(aclrtDestroyStream(s));
	CHECK_ACL_MSG(aclrtRecordEvent(e2, s), ACL_ERROR_RT_PARAM_INVALID, "not a live stream");
	/* the destroyed stream's record ran: the event is complete */
	CHECK_ACL_OK(aclrtSynchronizeEvent(e2));
	CHECK_ACL_OK(aclrtRecordEvent(e2, s2));
	CHECK_ACL_OK(aclrtRecordEvent(e2, s2));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e2));
	CHECK_ACL_OK(aclrtDestroyEvent(e2));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

TEST(other_device)
{
	aclrtStream s0 = NULL, s1 = NULL;
	aclrtEvent e0 = NULL, e1 = NULL;
	uint32_t n = 0;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("one device");
	REQUIRE_ACL(aclrtCreateStream(&s0));
	REQUIRE_ACL(aclrtCreateEvent(&e0));
	REQUIRE_ACL(aclrtRecordEvent(e0, s0));
	REQUIRE_ACL(aclrtRecordEvent(e0, s0));
	/* the cached event and stream, but not this thread's device now */
	REQUIRE_ACL(aclrtSetDevice(1));
	CHECK_ACL_MSG(aclrtRecordEvent(e0, s0), ACL_ERROR_RT_STREAM_CONTEXT,
		      "current device is 1");
	/* the cached event on a stream of another device */
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateEvent(&e1));
	REQUIRE_ACL(aclrtRecordEvent(e1, s1));
	CHECK_ACL_ERR(aclrtRecordEvent(e0, s1), ACL_ERROR_RT_STREAM_CONTEXT);
	CHECK_ACL_MSG(aclrtRecordEvent(e0, s1), ACL_ERROR_RT_STREAM_CONTEXT,
		      "but the event was created on device 0");
	CHECK_ACL_OK(aclrtRecordEvent(e1, s1));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e1));
	CHECK_ACL_OK(aclrtDestroyEvent(e1));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtRecordEvent(e0, s0));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e0));
	CHECK_ACL_OK(aclrtDestroyEvent(e0));
	CHECK_ACL_OK(aclrtDestroyStream(s0));
}

TEST(ipc_event_takes_the_full_path)
{
	aclrtIpcEventHandle h;
	aclrtStream s = NULL;
	aclrtEvent e = NULL;
	int k;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_IPC));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	/* exported: its generations are numbered in the shared counter */
	SKIP_IF_NOT_SUPPORTED(aclrtIpcGetEventHandle(e, &h));
	for (k = 0; k < 3; k++) {
		REQUIRE_ACL(launch_spin(s, 20000));
		CHECK_ACL_OK(aclrtRecordEvent(e, s));
		CHECK_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
		CHECK_ACL_OK(aclrtSynchronizeEvent(e));
		CHECK_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	}
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(full_ring_waits)
{
	aclrtStream s = NULL;
	aclrtEvent e = NULL;
	int i;

	/* 3000 records behind a 100 ms kernel: about three rings' worth */
	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	REQUIRE_ACL(launch_spin(s, 100000));
	for (i = 0; i < 3000; i++)
		REQUIRE_ACL(aclrtRecordEvent(e, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e));
	CHECK_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(capturing_stream_records)
{
	struct { int *p; int v; } wa;
	aclrtStream s = NULL, x = NULL;
	aclrtFuncHandle write;
	aclrtEvent e = NULL;
	aclmdlRI m = NULL;
	struct capture c;
	int *p = NULL;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&x));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	write = builtin_kernel("DeviceWrite");
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, 4096, 0, 4096));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	REQUIRE_ACL(aclrtRecordEvent(e, s));
	REQUIRE_ACL(aclrtSynchronizeEvent(e));
	/* s busy for 200 ms, then captured: a record put on its ring would
	 * be pending behind the kernel; one that went to the model is not
	 * the event's latest record (ending the capture copies the lists
	 * to the device, which waits for the kernel: look before that) */
	REQUIRE_ACL(launch_spin(s, 200000));
	capture_begin(&c);	/* DeviceWrite's printf */
	CHECK_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	wa.p = p;
	wa.v = 5;
	CHECK_ACL_OK(aclrtLaunchKernel(write, 1, &wa, sizeof(wa), s));
	CHECK_ACL_OK(aclrtRecordEvent(e, s));
	CHECK_ACL_OK(aclrtRecordEvent(e, s));
	CHECK_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_EQ(dev_int(p), 0);	/* recorded, not run */
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK_EQ(dev_int(p), 5);
	free(capture_end(&c));
	/* the stream is the user's again: records go to its ring */
	CHECK_ACL_OK(aclrtRecordEvent(e, s));
	CHECK_ACL_OK(aclrtRecordEvent(e, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(e));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(x));
}

#define THREADS	4
#define PER	1500

struct thr {
	aclrtStream own, shared;
	aclrtEvent ev, shared_ev;
	aclError err;
};

static void *recorder(void *arg)
{
	struct thr *t = arg;
	int i;

	t->err = aclrtSetDevice(0);
	for (i = 0; i < PER && !t->err; i++) {
		/* mostly the fast path: the same event and stream again */
		t->err = aclrtRecordEvent(t->ev, t->own);
		if (!t->err && i % 3 == 0)
			t->err = aclrtSynchronizeEvent(t->ev);
		/* and one event, one stream shared by every thread */
		if (!t->err && i % 10 == 0)
			t->err = aclrtRecordEvent(t->shared_ev, t->shared);
		if (!t->err && i % 20 == 0)
			t->err = aclrtSynchronizeEvent(t->shared_ev);
	}
	if (!t->err)
		t->err = aclrtSynchronizeEvent(t->ev);
	return NULL;
}

TEST(threads)
{
	struct thr t[THREADS];
	pthread_t th[THREADS];
	aclrtStream shared = NULL;
	aclrtEvent shared_ev = NULL;
	int i;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&shared));
	REQUIRE_ACL(aclrtCreateEvent(&shared_ev));
	for (i = 0; i < THREADS; i++) {
		t[i] = (struct thr){ .shared = shared, .shared_ev = shared_ev };
		REQUIRE_ACL(aclrtCreateStream(&t[i].own));
		REQUIRE_ACL(aclrtCreateEvent(&t[i].ev));
		REQUIRE(pthread_create(&th[i], NULL, recorder, &t[i]) == 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_ACL_OK(t[i].err);
		CHECK_EQ(status_of(t[i].ev), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	}
	CHECK_ACL_OK(aclrtSynchronizeEvent(shared_ev));
	CHECK_EQ(status_of(shared_ev), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	for (i = 0; i < THREADS; i++) {
		CHECK_ACL_OK(aclrtDestroyEvent(t[i].ev));
		CHECK_ACL_OK(aclrtDestroyStream(t[i].own));
	}
	CHECK_ACL_OK(aclrtDestroyEvent(shared_ev));
	CHECK_ACL_OK(aclrtDestroyStream(shared));
}

int main(void)
{
	return tap_main();
}
