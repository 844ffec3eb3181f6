// SPDX-License-Identifier: MIT
/*
 * What a stream is: aclrtCreateStreamConfigHandle / aclrtSetStreamConfigOpt
 * / aclrtCreateStreamV2, aclrtStreamGetId / GetPriority / GetFlags,
 * aclrtDeviceGetStreamPriorityRange, aclrtSetStreamFailureMode,
 * aclrtRegStreamStateCallback, and aclrtRecordEventWithFlag /
 * aclrtStreamWaitEventWithFlag.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "acl_util.h"

static int msg_has(const char *what)
{
	const char *m = aclGetRecentErrMsg();

	return m && strstr(m, what) != NULL;
}

TEST(config_handle_creates_stream_with_flag_and_priority)
{
	aclrtStreamConfigHandle *h;
	size_t flag = ACL_STREAM_FAST_LAUNCH;
	uint32_t prio = 3, got = 99;
	aclrtStream s = NULL;

	acl_setup();
	h = aclrtCreateStreamConfigHandle();
	REQUIRE(h != NULL);
	CHECK_EQ(h->flag, 0);
	CHECK_EQ(h->priority, 0);
	CHECK_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)));
	CHECK_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)));
	CHECK_EQ(h->flag, ACL_STREAM_FAST_LAUNCH);
	CHECK_EQ(h->priority, 3);
	REQUIRE_ACL(aclrtCreateStreamV2(&s, h));
	CHECK_ACL_OK(aclrtStreamGetPriority(s, &got));
	CHECK_EQ(got, 3);
	CHECK_ACL_OK(aclrtStreamGetFlags(s, &got));
	CHECK_EQ(got, ACL_STREAM_FAST_LAUNCH);
	/* it is a working stream */
	CHECK_ACL_OK(launch_spin(s, 10));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStreamConfigHandle(h));
	/* no handle: defaults */
	REQUIRE_ACL(aclrtCreateStreamV2(&s, NULL));
	CHECK_ACL_OK(aclrtStreamGetPriority(s, &got));
	CHECK_EQ(got, 0);
	CHECK_ACL_OK(aclrtStreamGetFlags(s, &got));
	CHECK_EQ(got, 0);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(config_handle_errors)
{
	aclrtStreamConfigHandle *h;
	uint32_t prio = 8, u32 = 0;
	size_t sz = 0;
	void *ptr = (void *)(uintptr_t)0x1000;
	aclrtStream s = NULL;

	acl_setup();
	h = aclrtCreateStreamConfigHandle();
	REQUIRE(h != NULL);
	CHECK_ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &sz, sizeof(sz)),
		      ACL_ERROR_INVALID_PARAM);
	/* the flags as a size_t (CANN's runtime) or a uint32_t (its sample) */
	u32 = ACL_STREAM_FAST_LAUNCH;
	CHECK_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &u32, sizeof(u32)));
	CHECK_EQ(h->flag, (size_t)ACL_STREAM_FAST_LAUNCH);
	CHECK_ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &u32, 2),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)4, &u32, sizeof(u32)),
		 ACL_ERROR_INVALID_PARAM);
	CHECK(msg_has("attr 4"));
	CHECK_ACL_ERR(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_FLAG, &sz, sizeof(sz)),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, NULL, sizeof(sz)),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(h->priority, 0);	/* nothing was set */
	CHECK_ACL_ERR(aclrtCreateStreamV2(NULL, h), ACL_ERROR_INVALID_PARAM);
	/* unknown stream flag bits, as aclrtCreateStreamWithConfig */
	sz = 0x80000;
	CHECK_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &sz, sizeof(sz)));
	CHECK_ACL_ERR(aclrtCreateStreamV2(&s, h), ACL_ERROR_INVALID_PARAM);
	sz = 0;
	CHECK_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &sz, sizeof(sz)));
	/* stream work memory is not used here: refused, not ignored */
	CHECK_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &ptr, sizeof(ptr)));
	CHECK_EQ(h->workptr, ptr);
	CHECK_EQ(aclrtCreateStreamV2(&s, h), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(msg_has("work memory"));
	CHECK_ACL_ERR(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDestroyStreamConfigHandle(h));
}

TEST(priority_is_clamped_to_0_7)
{
	aclrtStream s;
	uint32_t p = 99;
	int32_t least = -1, greatest = -1;

	acl_setup();
	CHECK_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
	CHECK_EQ(least, 7);
	CHECK_EQ(greatest, 0);
	CHECK_ACL_OK(aclrtDeviceGetStreamPriorityRange(NULL, &greatest));
	CHECK_ACL_OK(aclrtDeviceGetStreamPriorityRange(NULL, NULL));
	REQUIRE_ACL(aclrtCreateStreamWithConfig(&s, 9, 0));
	CHECK_ACL_OK(aclrtStreamGetPriority(s, &p));
	CHECK_EQ(p, 7);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	REQUIRE_ACL(aclrtCreateStreamWithConfig(&s, UINT32_MAX, 0));	/* -1 */
	CHECK_ACL_OK(aclrtStreamGetPriority(s, &p));
	CHECK_EQ(p, 0);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	REQUIRE_ACL(aclrtCreateStreamWithConfig(&s, 5, ACL_STREAM_FAST_SYNC));
	CHECK_ACL_OK(aclrtStreamGetPriority(s, &p));
	CHECK_EQ(p, 5);
	CHECK_ACL_OK(aclrtStreamGetFlags(s, &p));
	CHECK_EQ(p, ACL_STREAM_FAST_SYNC);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(stream_ids_distinct_default_included)
{
	aclrtStream s[4];
	int32_t id[5];
	int i, j;

	acl_setup();
	for (i = 0; i < 4; i++) {
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
		CHECK_ACL_OK(aclrtStreamGetId(s[i], &id[i]));
		CHECK(id[i] >= 0);
	}
	CHECK_ACL_OK(aclrtStreamGetId(NULL, &id[4]));	/* the default stream */
	for (i = 0; i < 5; i++)
		for (j = i + 1; j < 5; j++)
			CHECK_NE(id[i], id[j]);
	/* stable */
	CHECK_ACL_OK(aclrtStreamGetId(s[0], &id[4]));
	CHECK_EQ(id[4], id[0]);
	CHECK_ACL_ERR(aclrtStreamGetId(s[0], NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtStreamGetPriority(s[0], NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtStreamGetFlags(s[0], NULL), ACL_ERROR_INVALID_PARAM);
	for (i = 0; i < 4; i++)
		CHECK_ACL_OK(aclrtDestroyStream(s[i]));
	CHECK_ACL_ERR(aclrtStreamGetId(s[0], &id[0]), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(failure_mode_stop_is_one_way)
{
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE));
	CHECK_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
	CHECK_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));	/* same: ok */
	CHECK_EQ(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(msg_has("cannot go back"));
	CHECK_EQ(aclrtSetStreamFailureMode(s, 2), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);	/* bit 0 only */
	CHECK_ACL_OK(aclrtSetStreamFailureMode(s, 3));
	CHECK_ACL_OK(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE));	/* default stream */
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_ERR(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(stop_on_failure_skips_the_rest)
{
	aclrtStream s;
	struct capture c;
	int *p, v = -1;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	write_dev_ints(s, p, (int[]){ 1 }, 1);
	capture_begin(&c);
	REQUIRE_ACL(launch_trap(s));
	REQUIRE_ACL(launch_write(s, p, 2, 1));	/* behind the failure: not run */
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	free(capture_end(&c));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(read_dev_ints(s, p, &v, 1), 1);
	CHECK_EQ(v, 1);
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

struct seen {
	int n;
	aclrtStream stm[8];
	aclrtStreamState state[8];
	void *args[8];
};

static void state_cb(aclrtStream stm, aclrtStreamState state, void *args)
{
	struct seen *z = args;

	if (z->n < 8) {
		z->stm[z->n] = stm;
		z->state[z->n] = state;
		z->args[z->n] = args;
	}
	z->n++;
}

TEST(stream_state_callback_create_and_destroy)
{
	struct seen z = { 0 }, z2 = { 0 };
	aclrtStream s;

	acl_setup();
	CHECK_ACL_OK(aclrtRegStreamStateCallback("test", state_cb, &z));
	CHECK_ACL_ERR(aclrtRegStreamStateCallback("test", state_cb, &z2), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtRegStreamStateCallback(NULL, state_cb, &z2), ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE(z.n == 1);
	CHECK_EQ(z.stm[0], s);
	CHECK_EQ(z.state[0], ACL_RT_STREAM_STATE_CREATE_POST);
	CHECK_EQ(z.args[0], &z);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	REQUIRE(z.n == 2);
	CHECK_EQ(z.stm[1], s);
	CHECK_EQ(z.state[1], ACL_RT_STREAM_STATE_DESTROY_PRE);
	/* a failed destroy (not a stream) reports nothing */
	CHECK_ACL_FAIL(aclrtDestroyStream((aclrtStream)(uintptr_t)0x10));
	CHECK_EQ(z.n, 2);
	CHECK_ACL_OK(aclrtRegStreamStateCallback("test", NULL, NULL));
	CHECK_ACL_OK(aclrtRegStreamStateCallback("test", NULL, NULL));	/* gone: still ok */
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_EQ(z.n, 2);
	/* the name is free again */
	CHECK_ACL_OK(aclrtRegStreamStateCallback("test", state_cb, &z2));
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_EQ(z2.n, 1);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_EQ(z2.n, 2);
	CHECK_ACL_OK(aclrtRegStreamStateCallback("test", NULL, NULL));
}

TEST(record_and_wait_with_flag)
{
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	aclrtStream a, b;
	aclrtEvent ev;
	int *p, v = 0;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&a));
	REQUIRE_ACL(aclrtCreateStream(&b));
	REQUIRE_ACL(aclrtCreateEvent(&ev));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_ERR(aclrtRecordEventWithFlag(ev, a, 2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtRecordEventWithFlag(NULL, a, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtStreamWaitEventWithFlag(b, ev, 0, 2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtStreamWaitEventWithFlag(b, ev, 5, ACL_EVENT_WAIT_EXTERNAL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtStreamWaitEventWithFlag(b, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
	/* a writes 5 after a spin, records; b waits, then reads */
	REQUIRE_ACL(launch_spin(a, 20000));
	REQUIRE_ACL(launch_write(a, p, 5, 1));
	CHECK_ACL_OK(aclrtRecordEventWithFlag(ev, a, ACL_EVENT_RECORD_EXTERNAL));
	CHECK_ACL_OK(aclrtStreamWaitEventWithFlag(b, ev, 0, ACL_EVENT_WAIT_EXTERNAL));
	CHECK_EQ(read_dev_ints(b, p, &v, 1), 1);
	CHECK_EQ(v, 5);
	CHECK_ACL_OK(aclrtQueryEventStatus(ev, &st));
	CHECK_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	/* default flags and a timeout */
	REQUIRE_ACL(launch_write(a, p, 6, 1));
	CHECK_ACL_OK(aclrtRecordEventWithFlag(ev, a, ACL_EVENT_RECORD_DEFAULT));
	CHECK_ACL_OK(aclrtStreamWaitEventWithFlag(b, ev, 60000, ACL_EVENT_WAIT_DEFAULT));
	CHECK_EQ(read_dev_ints(b, p, &v, 1), 1);
	CHECK_EQ(v, 6);
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
	CHECK_ACL_OK(aclrtDestroyStream(a));
	CHECK_ACL_OK(aclrtDestroyStream(b));
}

/* aclrtReduceAsync's EQUAL kind: undocumented, not done (test_acl_reduce.c: the rest). */
TEST(reduce_unsupported)
{
	aclrtStream s;
	void *p;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_ERR(aclrtReduceAsync(p, (char *)p + 32, 32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT,
				       s, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* the stream still works */
	CHECK_ACL_OK(launch_spin(s, 10));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
