// SPDX-License-Identifier: MIT
/*
 * aclrtStreamAbort and aclrtStreamStop on the device queue: a running
 * kernel is stopped at once; Abort discards what is queued behind it,
 * Stop lets it run; a synchronisation that was waiting returns
 * ACL_ERROR_RT_STREAM_ABORT, and the stream stays usable.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "acl_util.h"

#define LONG_SPIN_US	(20u * 1000 * 1000)	/* far longer than the test */
#define BUF		4096

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct waiter {
	pthread_t t;
	aclrtStream s;
	aclrtEvent ev;		/* NULL: synchronise the stream */
	aclError ret;
	int ctx_dev;
};

static void *wait_main(void *arg)
{
	struct waiter *w = arg;

	if (aclrtSetDevice(w->ctx_dev) != ACL_SUCCESS) {
		w->ret = -1;
		return NULL;
	}
	w->ret = w->ev ? aclrtSynchronizeEvent(w->ev) : aclrtSynchronizeStream(w->s);
	return NULL;
}

static void waiter_start(struct waiter *w, aclrtStream s, aclrtEvent ev)
{
	w->s = s;
	w->ev = ev;
	w->ret = -1;
	w->ctx_dev = 0;
	REQUIRE(pthread_create(&w->t, NULL, wait_main, w) == 0);
}

/* Device bytes of @d all @v? */
static long dev_bytes(const void *d, unsigned char v)
{
	static unsigned char h[BUF];

	if (aclrtMemcpy(h, BUF, d, BUF, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
		return -2;
	return check_bytes(h, BUF, v);
}

TEST(abort_stops_the_kernel_and_discards_the_queue)
{
	struct waiter ws, we;
	aclrtStream s;
	aclrtEvent ev;
	uint64_t t0;
	void *d;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&ev));
	REQUIRE_ACL(aclrtMalloc(&d, BUF, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMemset(d, BUF, 0x11, BUF));

	REQUIRE_ACL(launch_spin(s, LONG_SPIN_US));
	REQUIRE_ACL(aclrtMemsetAsync(d, BUF, 0x5a, BUF, s));
	REQUIRE_ACL(aclrtRecordEvent(ev, s));
	waiter_start(&ws, s, NULL);
	waiter_start(&we, NULL, ev);
	usleep(100 * 1000);

	t0 = mono_ms();
	CHECK_ACL_OK(aclrtStreamAbort(s));
	CHECK(mono_ms() - t0 < 5000);
	pthread_join(ws.t, NULL);
	pthread_join(we.t, NULL);
	CHECK(mono_ms() - t0 < 5000);		/* not the 20 s of the kernel */
	CHECK_EQ(ws.ret, ACL_ERROR_RT_STREAM_ABORT);
	CHECK_EQ(we.ret, ACL_ERROR_RT_STREAM_ABORT);
	CHECK_EQ(dev_bytes(d, 0x11), -1);	/* the memset behind it never ran */

	/* the stream works again, and a later sync is clean */
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtMemsetAsync(d, BUF, 0x22, BUF, s));
	CHECK_ACL_OK(aclrtRecordEvent(ev, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(ev));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(dev_bytes(d, 0x22), -1);

	aclrtFree(d);
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(stop_drops_only_the_running_kernel)
{
	struct waiter ws;
	aclrtStream s;
	uint64_t t0;
	void *d;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc(&d, BUF, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMemset(d, BUF, 0x11, BUF));

	REQUIRE_ACL(launch_spin(s, LONG_SPIN_US));
	REQUIRE_ACL(aclrtMemsetAsync(d, BUF, 0x77, BUF, s));
	waiter_start(&ws, s, NULL);
	usleep(100 * 1000);

	t0 = mono_ms();
	CHECK_ACL_OK(aclrtStreamStop(s));
	pthread_join(ws.t, NULL);
	CHECK(mono_ms() - t0 < 5000);
	CHECK_EQ(ws.ret, ACL_ERROR_RT_STREAM_ABORT);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(dev_bytes(d, 0x77), -1);	/* the task behind it ran */

	/* nothing running: a no-op; the stream goes on */
	CHECK_ACL_OK(aclrtStreamStop(s));
	CHECK_ACL_OK(aclrtMemsetAsync(d, BUF, 0x78, BUF, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(dev_bytes(d, 0x78), -1);

	aclrtFree(d);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(stop_abort_arguments)
{
	aclrtStream s, dflt = NULL;

	acl_setup();
	/* CANN: Stop refuses the default stream, Abort takes NULL as it */
	CHECK_EQ(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "default stream") != NULL);
	CHECK_ACL_OK(aclrtCtxGetCurrentDefaultStream(&dflt));
	if (dflt)
		CHECK_ACL_ERR(aclrtStreamStop(dflt), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtStreamAbort(NULL));
	CHECK_ACL_OK(launch_spin(NULL, 10));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));

	/* idle: harmless */
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtStreamAbort(s));
	CHECK_ACL_OK(aclrtStreamStop(s));
	CHECK_ACL_OK(launch_spin(s, 10));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));

	/* a destroyed stream */
	CHECK_ACL_ERR(aclrtStreamAbort(s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtStreamStop(s), ACL_ERROR_RT_PARAM_INVALID);
}

int main(void)
{
	return tap_main();
}
