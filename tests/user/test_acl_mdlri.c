// SPDX-License-Identifier: MIT
/*
 * test_acl_mdlri.c - model run instances (aclmdlRI*) replayed by the
 * device: a captured 3-stream pipeline with events replayed 1000 times,
 * byte for byte; labels switched by a value in device memory on every
 * replay; external event records and waits; work that cannot be recorded
 * failing the capture with CANN's codes and a message; a faulting task in
 * a replay failing its stream only.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl_util.h"
#include "tap.h"

#define N 256

static int *dev_ints(int v)
{
	int *p = NULL;

	REQUIRE_ACL(aclrtMalloc((void **)&p, N * sizeof(int), ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, N * sizeof(int), v, N * sizeof(int)));
	return p;
}

/* Every element of @p equals @v?  Prints the first mismatch. */
static int all_equal(const int *p, int v)
{
	int h[N], i;

	REQUIRE_ACL(aclrtMemcpy(h, sizeof(h), p, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < N; i++)
		if (h[i] != v) {
			printf("#   element %d is %d, expected %d\n", i, h[i], v);
			return 0;
		}
	return 1;
}

static void need_lists(void)
{
	aclmdlRI m = NULL;
	aclrtStream s;
	aclError r;

	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	r = aclmdlRIExecuteAsync(m, s);
	REQUIRE_ACL(aclmdlRIDestroy(m));
	REQUIRE_ACL(aclrtDestroyStream(s));
	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("the driver has no command lists (DRM_ASCEND_CAP_CMD_LIST)");
	REQUIRE_ACL(r);
}

/*
 * s0: a += 1; record e1.  s1 (joins): wait e1; b = a; record e2.
 * s2 (joins): wait e2; c = b + b; record e3.  s0: wait e3; d = c.
 * Replay k leaves a = k and d = 2k, which only holds when every wait
 * held its stream back until the other stream's work of that replay.
 */
TEST(pipeline_3_streams_1000_replays)
{
	aclrtStream s0, s1, s2, x, got[4];
	aclrtEvent e1, e2, e3;
	int *a, *b, *c, *d, *one;
	uint32_t ns = 4;
	aclmdlRI m = NULL;
	int k;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s0));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	REQUIRE_ACL(aclrtCreateStream(&x));
	REQUIRE_ACL(aclrtCreateEvent(&e1));
	REQUIRE_ACL(aclrtCreateEvent(&e2));
	REQUIRE_ACL(aclrtCreateEvent(&e3));
	a = dev_ints(0);
	b = dev_ints(0);
	c = dev_ints(0);
	d = dev_ints(0);
	one = dev_ints(0);
	REQUIRE_ACL(launch_fill32(x, one, 1, N, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(x));

	CHECK_ACL_OK(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(launch_add32(s0, a, one, a, N, 1));
	CHECK_ACL_OK(aclrtRecordEvent(e1, s0));
	CHECK_ACL_OK(aclrtStreamWaitEvent(s1, e1));
	CHECK_ACL_OK(aclrtMemcpyAsync(b, N * sizeof(int), a, N * sizeof(int),
				      ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	CHECK_ACL_OK(aclrtRecordEvent(e2, s1));
	CHECK_ACL_OK(aclrtStreamWaitEvent(s2, e2));
	CHECK_ACL_OK(launch_add32(s2, b, b, c, N, 1));
	CHECK_ACL_OK(aclrtRecordEvent(e3, s2));
	CHECK_ACL_OK(aclrtStreamWaitEvent(s0, e3));
	CHECK_ACL_OK(aclrtMemcpyAsync(d, N * sizeof(int), c, N * sizeof(int),
				      ACL_MEMCPY_DEVICE_TO_DEVICE, s0));
	REQUIRE_ACL(aclmdlRICaptureEnd(s0, &m));
	/* nothing ran while capturing */
	CHECK(all_equal(a, 0));
	CHECK(all_equal(d, 0));
	CHECK_ACL_OK(aclmdlRIGetStreams(m, got, &ns));
	CHECK_EQ(ns, 3u);
	CHECK(got[0] == s0 && got[1] == s1 && got[2] == s2);

	for (k = 1; k <= 1000; k++) {
		REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
		if (k % 100 == 0) {
			REQUIRE_ACL(aclrtSynchronizeStream(x));
			CHECK(all_equal(a, k));
			CHECK(all_equal(b, k));
			CHECK(all_equal(c, 2 * k));
			CHECK(all_equal(d, 2 * k));
		}
	}
	/* the captured streams are the user's again: work runs at once */
	CHECK_ACL_OK(aclrtMemsetAsync(b, 4, 0x7f, 4, s1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_ERR(aclmdlRIExecuteAsync(m, x), ACL_ERROR_INVALID_PARAM);
	aclrtFree(a);
	aclrtFree(b);
	aclrtFree(c);
	aclrtFree(d);
	aclrtFree(one);
}

/*
 * Built with labels: SWITCH on *idx over {l0, l1}; l0: x = 11; l1: y = 22.
 * Each replay follows the value *idx holds then (past the list: l1).
 */
TEST(switch_on_device_value)
{
	static const struct { uint32_t idx; int x; } cases[] = {
		{ 0, 11 }, { 1, 0 }, { 0, 11 }, { 7, 0 }, { 0, 11 },
	};
	aclrtLabel l[2];
	aclrtLabelList ll;
	aclrtStream ls, x;
	uint32_t *idx;
	int *px, *py;
	aclmdlRI m;
	unsigned int i;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStreamWithConfig(&ls, 0, ACL_STREAM_PERSISTENT));
	REQUIRE_ACL(aclrtCreateStream(&x));
	REQUIRE_ACL(aclrtMalloc((void **)&idx, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	px = dev_ints(0);
	py = dev_ints(0);
	REQUIRE_ACL(aclrtCreateLabel(&l[0]));
	REQUIRE_ACL(aclrtCreateLabel(&l[1]));
	REQUIRE_ACL(aclrtCreateLabelList(l, 2, &ll));
	REQUIRE_ACL(aclmdlRIBuildBegin(&m, 0));
	REQUIRE_ACL(aclmdlRIBindStream(m, ls, 0));
	CHECK_ACL_OK(aclrtSwitchLabelByIndex(idx, 2, ll, ls));
	CHECK_ACL_OK(aclrtSetLabel(l[0], ls));
	CHECK_ACL_OK(launch_write(ls, px, 11, 1));
	CHECK_ACL_OK(aclrtSetLabel(l[1], ls));
	CHECK_ACL_OK(launch_write(ls, py, 22, 1));
	CHECK_ACL_ERR(aclrtSetLabel(l[1], ls), ACL_ERROR_RT_PARAM_INVALID);	/* twice */
	CHECK_ACL_OK(aclmdlRIEndTask(m, ls));
	CHECK_ACL_OK(aclmdlRIBuildEnd(m, NULL));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		REQUIRE_ACL(aclrtMemcpy(idx, 4, &cases[i].idx, 4, ACL_MEMCPY_HOST_TO_DEVICE));
		REQUIRE_ACL(aclrtMemset(px, 4, 0, 4));
		REQUIRE_ACL(aclrtMemset(py, 4, 0, 4));
		CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
		CHECK_ACL_OK(aclrtSynchronizeStream(x));
		{
			int hx, hy;

			REQUIRE_ACL(aclrtMemcpy(&hx, 4, px, 4, ACL_MEMCPY_DEVICE_TO_HOST));
			REQUIRE_ACL(aclrtMemcpy(&hy, 4, py, 4, ACL_MEMCPY_DEVICE_TO_HOST));
			CHECK_EQ(hx, cases[i].x);
			CHECK_EQ(hy, 22);
		}
	}
	/* aclmdlRIExecute: its own stream, synchronous */
	REQUIRE_ACL(aclrtMemset(py, 4, 0, 4));
	CHECK_ACL_OK(aclmdlRIExecute(m, -1));
	{
		int hy = 0;

		REQUIRE_ACL(aclrtMemcpy(&hy, 4, py, 4, ACL_MEMCPY_DEVICE_TO_HOST));
		CHECK_EQ(hy, 22);
	}
	CHECK_ACL_OK(aclmdlRIUnbindStream(m, ls));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtDestroyLabelList(ll));
	CHECK_ACL_OK(aclrtDestroyLabel(l[0]));
	CHECK_ACL_OK(aclrtDestroyLabel(l[1]));
	CHECK_ACL_ERR(aclrtDestroyLabel(l[1]), ACL_ERROR_INVALID_PARAM);
	aclrtFree(idx);
	aclrtFree(px);
	aclrtFree(py);
}

/* A label set on another stream than its switch fails the build. */
TEST(label_on_other_stream)
{
	aclrtLabel l;
	aclrtLabelList ll;
	aclrtStream s1, s2;
	uint32_t *idx;
	aclmdlRI m;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	REQUIRE_ACL(aclrtMalloc((void **)&idx, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateLabel(&l));
	REQUIRE_ACL(aclrtCreateLabelList(&l, 1, &ll));
	REQUIRE_ACL(aclmdlRIBuildBegin(&m, 0));
	REQUIRE_ACL(aclmdlRIBindStream(m, s1, 0));
	REQUIRE_ACL(aclmdlRIBindStream(m, s2, 1));
	CHECK_ACL_OK(aclrtSwitchLabelByIndex(idx, 1, ll, s1));
	CHECK_ACL_OK(aclrtSetLabel(l, s2));
	CHECK_EQ(aclmdlRIBuildEnd(m, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "another stream") != NULL);
	CHECK_ACL_ERR(aclrtSwitchLabelByIndex(idx, 2, ll, s1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtDestroyLabelList(ll));
	CHECK_ACL_OK(aclrtDestroyLabel(l));
	aclrtFree(idx);
}

/* External waits and records are real event operations at each replay. */
TEST(external_events)
{
	aclrtStream g, ext;
	aclrtEvent ev;
	int *src, *dst;
	aclmdlRI m;
	int k;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&g));
	REQUIRE_ACL(aclrtCreateStream(&ext));
	REQUIRE_ACL(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
	src = dev_ints(0);
	dst = dev_ints(0);
	CHECK_ACL_OK(aclmdlRICaptureBegin(g, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(aclrtStreamWaitEventWithFlag(g, ev, 0, ACL_EVENT_WAIT_EXTERNAL));
	CHECK_ACL_OK(aclrtMemcpyAsync(dst, N * sizeof(int), src, N * sizeof(int),
				      ACL_MEMCPY_DEVICE_TO_DEVICE, g));
	CHECK_ACL_OK(aclrtRecordEventWithFlag(ev, g, ACL_EVENT_RECORD_EXTERNAL));
	REQUIRE_ACL(aclmdlRICaptureEnd(g, &m));
	for (k = 1; k <= 3; k++) {
		/* ext: spin, then src = k; the replay's copy must wait for it */
		CHECK_ACL_OK(launch_spin(ext, 20000));
		CHECK_ACL_OK(launch_fill32(ext, src, k, N, 1));
		CHECK_ACL_OK(aclrtRecordEvent(ev, ext));
		CHECK_ACL_OK(aclmdlRIExecuteAsync(m, g));
		/* and the replay's own record is what a host sync sees */
		CHECK_ACL_OK(aclrtSynchronizeEvent(ev));
		CHECK(all_equal(dst, k));
	}
	CHECK_ACL_OK(aclrtSynchronizeStream(g));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
	aclrtFree(src);
	aclrtFree(dst);
}

/* Unrecordable work fails the capture; misuse gets CANN's codes. */
TEST(capture_errors)
{
	void *pinned = NULL;
	static char pageable[4096];
	aclmdlRICaptureStatus st;
	aclrtStream s, t;
	aclmdlRI m = NULL, q;
	int *p;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&t));
	p = dev_ints(0);
	CHECK_ACL_ERR(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	CHECK_ACL_ERR(aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)9), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	CHECK_ACL_ERR(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
		      ACL_ERROR_RT_STREAM_CAPTURED);
	CHECK_ACL_OK(aclmdlRICaptureGetInfo(s, &st, &q));
	CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	CHECK_ACL_OK(aclmdlRICaptureGetInfo(t, &st, &q));
	CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	CHECK(q == NULL);
	/* a copy staged through libaclrt's buffers cannot be replayed */
	REQUIRE_ACL(aclrtMallocHost(&pinned, 64));
	CHECK_EQ(aclrtMemcpyAsync(p, 64, pinned, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(strstr(acl_errmsg(), "cannot be recorded") != NULL);
	CHECK_ACL_OK(aclmdlRICaptureGetInfo(s, &st, &q));
	CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
	CHECK_ACL_ERR(aclrtMemsetAsync(p, 4, 1, 4, s), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	CHECK_ACL_ERR(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	/* the stream works again, and nothing of the capture ran */
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK(all_equal(p, 0));

	/* pageable memory: CANN refuses the copy (107000), the capture goes on */
	CHECK_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	CHECK_EQ(aclrtMemcpyAsync(p, 64, pageable, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "pageable") != NULL);
	CHECK_EQ(aclrtMemcpyAsync(pageable, 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(aclrtMemcpy2dAsync(p, 64, pageable, 64, 64, 1, ACL_MEMCPY_HOST_TO_DEVICE, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclmdlRICaptureGetInfo(s, &st, &q));
	CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	CHECK_ACL_OK(aclmdlRICaptureEnd(s, &m));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	m = NULL;

	CHECK_ACL_ERR(aclmdlRIExecuteAsync(NULL, s), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRIDestroy(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRIBuildBegin(&q, 1), ACL_ERROR_INVALID_PARAM);
	aclrtFreeHost(pinned);
	aclrtFree(p);
}

/* A kernel exception inside a replay fails the replaying stream only. */
TEST(fault_in_replay_is_per_stream)
{
	aclrtStream s, x, other;
	aclmdlRI m;
	int *p;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&x));
	REQUIRE_ACL(aclrtCreateStream(&other));
	p = dev_ints(0);
	CHECK_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	CHECK_ACL_OK(launch_trap(s));
	CHECK_ACL_OK(launch_fill32(s, p, 5, N, 1));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_ERR(aclrtSynchronizeStream(x), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK(all_equal(p, 0));			/* the tasks after it did not run */
	CHECK_ACL_OK(launch_fill32(other, p, 9, N, 1));
	CHECK_ACL_OK(aclrtSynchronizeStream(other));
	CHECK(all_equal(p, 9));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));	/* reported once */
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	aclrtFree(p);
}

static int dev_int(const int *p)
{
	int v = -1;

	REQUIRE_ACL(aclrtMemcpy(&v, sizeof(v), p, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
	return v;
}

/*
 * A kernel task's arguments set with aclmdlRITaskSetParams take effect
 * with aclmdlRIUpdate, from the next replay on.
 */
TEST(updated_kernel_argument)
{
	struct {
		int *p;
		int v;
	} args;
	aclmdlRITaskParams tp;
	aclmdlRITaskType type;
	aclmdlRITask tasks[4];
	uint32_t nt = 4;
	aclrtStream s, x;
	aclmdlRI m;
	int *p;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&x));
	p = dev_ints(0);
	CHECK_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	CHECK_ACL_OK(launch_write(s, p, 1, 1));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK_EQ(dev_int(p), 1);

	CHECK_ACL_OK(aclmdlRIGetTasksByStream(s, tasks, &nt));
	CHECK_EQ(nt, 1u);
	CHECK_ACL_OK(aclmdlRITaskGetType(tasks[0], &type));
	CHECK_EQ(type, ACL_MODEL_RI_TASK_KERNEL);
	CHECK_ACL_OK(aclmdlRITaskGetParams(tasks[0], &tp));
	CHECK_EQ(tp.kernelTaskParams.argsSize, sizeof(args));
	CHECK_EQ(tp.kernelTaskParams.numBlocks, 1u);
	memcpy(&args, tp.kernelTaskParams.args, sizeof(args));
	CHECK(args.p == p && args.v == 1);
	args.v = 2;
	tp.kernelTaskParams.args = &args;
	CHECK_ACL_OK(aclmdlRITaskSetParams(tasks[0], &tp));
	/* not in the list before aclmdlRIUpdate */
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK_EQ(dev_int(p), 1);
	CHECK_ACL_OK(aclmdlRIUpdate(m));
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK_EQ(dev_int(p), 2);
	/* a wrong size is refused, the task unchanged */
	tp.kernelTaskParams.argsSize = 3;
	CHECK_ACL_ERR(aclmdlRITaskSetParams(tasks[0], &tp), ACL_ERROR_INVALID_PARAM);
	nt = 0;
	CHECK_ACL_ERR(aclmdlRIGetTasksByStream(s, tasks, &nt), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_ERR(aclmdlRITaskGetType(tasks[0], &type), ACL_ERROR_INVALID_PARAM);
	aclrtFree(p);
}

static int cb_calls[2];
static void *cb_data[2];

static void destroy_cb0(void *data)
{
	cb_calls[0]++;
	cb_data[0] = data;
}

static void destroy_cb1(void *data)
{
	cb_calls[1]++;
	cb_data[1] = data;
}

/* Destroy callbacks: registered once each, run once at destroy. */
TEST(destroy_callbacks)
{
	aclrtStream s;
	aclmdlRI m;
	int tag;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_ACL_ERR(aclmdlRIDestroyRegisterCallback(NULL, destroy_cb0, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRIDestroyRegisterCallback(m, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclmdlRIDestroyRegisterCallback(m, destroy_cb0, &tag));
	CHECK_ACL_ERR(aclmdlRIDestroyRegisterCallback(m, destroy_cb0, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclmdlRIDestroyRegisterCallback(m, destroy_cb1, NULL));
	CHECK_ACL_OK(aclmdlRIDestroyUnregisterCallback(m, destroy_cb1));
	CHECK_ACL_ERR(aclmdlRIDestroyUnregisterCallback(m, destroy_cb1),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclmdlRIDestroyUnregisterCallback(m, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(cb_calls[0], 0);
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_EQ(cb_calls[0], 1);
	CHECK(cb_data[0] == &tag);
	CHECK_EQ(cb_calls[1], 0);
	CHECK_ACL_ERR(aclmdlRIDestroyRegisterCallback(m, destroy_cb0, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/*
 * Sequence ids are the tasks' order on their stream; a disabled task is
 * skipped by the replays after aclmdlRIUpdate, not before.
 */
TEST(task_seq_id_and_disable)
{
	aclmdlRITask tasks[4];
	uint32_t nt = 4, id = 99, k;
	aclmdlRITaskType type;
	aclrtStream s, x;
	int *a, *one;
	aclmdlRI m;
	char path[] = "/tmp/mdlri-json-XXXXXX", buf[4096];
	FILE *f;
	size_t n;
	int fd;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&x));
	a = dev_ints(0);
	one = dev_ints(0);
	REQUIRE_ACL(launch_fill32(x, one, 1, N, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(x));
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(launch_fill32(s, a, 5, N, 1));
	CHECK_ACL_OK(launch_add32(s, a, one, a, N, 1));
	CHECK_ACL_OK(launch_add32(s, a, one, a, N, 1));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	REQUIRE_ACL(aclmdlRIGetTasksByStream(s, tasks, &nt));
	REQUIRE(nt == 3);
	for (k = 0; k < nt; k++) {
		CHECK_ACL_OK(aclmdlRITaskGetSeqId(tasks[k], &id));
		CHECK_EQ(id, k);
	}
	CHECK_ACL_ERR(aclmdlRITaskGetSeqId(tasks[0], NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRITaskGetSeqId((aclmdlRITask)&nt, &id), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRITaskDisable(NULL), ACL_ERROR_INVALID_PARAM);

	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(a, 7));
	CHECK_ACL_OK(aclmdlRITaskDisable(tasks[2]));
	/* not in effect before the update */
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(a, 7));
	CHECK_ACL_OK(aclmdlRIUpdate(m));
	CHECK_ACL_OK(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(a, 6));
	CHECK_ACL_OK(aclmdlRITaskGetType(tasks[2], &type));
	CHECK_EQ(type, ACL_MODEL_RI_TASK_KERNEL);

	/* the debug views name the instance's tasks */
	CHECK_ACL_OK(aclmdlRISetName(m, "seq\"test"));
	/* deprecated in CANN's header, still there */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	CHECK_ACL_OK(aclmdlRIDebugPrint(m));
	CHECK_ACL_ERR(aclmdlRIDebugPrint(NULL), ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic pop
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	close(fd);
	CHECK_ACL_ERR(aclmdlRIDebugJsonPrint(m, NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRIDebugJsonPrint(m, path, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclmdlRIDebugJsonPrint(m, "/nonexistent/dir/x.json", 0),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclmdlRIDebugJsonPrint(m, path, 0));
	f = fopen(path, "r");
	REQUIRE(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	unlink(path);
	buf[n] = '\0';
	CHECK(strstr(buf, "\"name\": \"seq\\\"test\"") != NULL);
	CHECK(strstr(buf, "{\"seq\": 0, \"type\": \"KERNEL\"") != NULL);
	CHECK(strstr(buf, "{\"seq\": 2, \"type\": \"DISABLED\"") != NULL);
	CHECK(strstr(buf, "{\"seq\": 3,") == NULL);
	if (!strstr(buf, "\"type\": \"DISABLED\""))
		printf("#   json: %s\n", buf);

	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_ERR(aclmdlRITaskDisable(tasks[0]), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	aclrtFree(a);
	aclrtFree(one);
}

/*
 * aclmdlRIAbort stops a built instance's replay (the task behind a long
 * kernel never runs); the next replay runs whole.  A captured instance
 * cannot be aborted (CANN).
 */
TEST(abort_built_instance)
{
	aclrtStream ls, x;
	aclmdlRI m, c;
	aclError r;
	int *a;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStreamWithConfig(&ls, 0, ACL_STREAM_PERSISTENT));
	REQUIRE_ACL(aclrtCreateStream(&x));
	a = dev_ints(0);
	REQUIRE_ACL(aclmdlRIBuildBegin(&m, 0));
	REQUIRE_ACL(aclmdlRIBindStream(m, ls, 0));
	CHECK_ACL_OK(launch_spin(ls, 2000000));
	CHECK_ACL_OK(launch_fill32(ls, a, 9, N, 1));
	CHECK_ACL_OK(aclmdlRIEndTask(m, ls));
	REQUIRE_ACL(aclmdlRIBuildEnd(m, NULL));

	CHECK_ACL_ERR(aclmdlRIAbort(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclmdlRIAbort(m));		/* nothing running: a no-op */
	REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
	usleep(200000);
	CHECK_ACL_OK(aclmdlRIAbort(m));
	r = aclrtSynchronizeStream(x);
	CHECK(r == ACL_SUCCESS || r == ACL_ERROR_RT_STREAM_ABORT);
	CHECK(all_equal(a, 0));
	REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(a, 9));
	CHECK_ACL_OK(aclmdlRIUnbindStream(m, ls));
	CHECK_ACL_OK(aclmdlRIDestroy(m));

	REQUIRE_ACL(aclmdlRICaptureBegin(x, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	REQUIRE_ACL(aclmdlRICaptureEnd(x, &c));
	CHECK_ACL_ERR(aclmdlRIAbort(c), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_OK(aclmdlRIDestroy(c));
	CHECK_ACL_OK(aclrtDestroyStream(ls));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	aclrtFree(a);
}

/* A call made on another thread, with that thread's exchange mode. */
struct other_call {
	aclrtContext ctx;
	int set_mode;			/* >= 0: exchange to it first */
	int op;				/* 0: aclrtMemcpy; 1: aclmdlRICaptureEnd */
	int *d;
	aclrtStream s;
	aclmdlRI m;
	aclError r;
};

static void *other_thread(void *p)
{
	struct other_call *c = p;
	aclmdlRICaptureMode mode;
	int h = 3;

	c->r = aclrtSetCurrentContext(c->ctx);
	if (c->r)
		return NULL;
	if (c->set_mode >= 0) {
		mode = (aclmdlRICaptureMode)c->set_mode;
		c->r = aclmdlRICaptureThreadExchangeMode(&mode);
		if (c->r)
			return NULL;
	}
	if (c->op == 0)
		c->r = aclrtMemcpy(c->d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE);
	else
		c->r = aclmdlRICaptureEnd(c->s, &c->m);
	return NULL;
}

static aclError on_other_thread(struct other_call *c)
{
	pthread_t t;

	REQUIRE(pthread_create(&t, NULL, other_thread, c) == 0);
	REQUIRE(pthread_join(t, NULL) == 0);
	return c->r;
}

/*
 * CANN's capture modes: what the unsafe calls (synchronous copies and
 * memsets, pageable asynchronous copies) may do while a capture is
 * active, per thread, and which thread may end the capture.
 */
TEST(capture_modes)
{
	static char pageable[64];
	const aclError no = ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT;
	struct other_call c = { 0 };
	aclmdlRICaptureMode mode;
	aclrtStream s, t;
	aclmdlRI m;
	int h = 5, *d;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&t));
	REQUIRE_ACL(aclrtGetCurrentContext(&c.ctx));
	d = dev_ints(0);
	c.d = d;
	CHECK_ACL_ERR(aclmdlRICaptureThreadExchangeMode(NULL), ACL_ERROR_INVALID_PARAM);
	mode = (aclmdlRICaptureMode)7;
	CHECK_ACL_ERR(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE));

	/* GLOBAL: no thread, unless it exchanges its mode */
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	CHECK_EQ(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE), no);
	CHECK(strstr(acl_errmsg(), "aclmdlRICaptureThreadExchangeMode") != NULL);
	CHECK_ACL_ERR(aclrtMemset(d, 4, 0, 4), no);
	CHECK_ACL_ERR(aclrtMemcpy2d(d, 4, &h, 4, 4, 1, ACL_MEMCPY_HOST_TO_DEVICE), no);
	CHECK_ACL_ERR(aclrtMemcpyAsync(d, 64, pageable, 64, ACL_MEMCPY_HOST_TO_DEVICE, t),
		      ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
	c.set_mode = -1;
	CHECK_EQ(on_other_thread(&c), no);	/* its message is that thread's */
	c.set_mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
	CHECK_ACL_OK(on_other_thread(&c));
	mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	CHECK_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
	CHECK_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
	CHECK_ACL_OK(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
	CHECK_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
	CHECK_ACL_ERR(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE), no);
	/* only its own thread ends a GLOBAL capture */
	c.set_mode = -1;
	c.op = 1;
	c.s = s;
	CHECK_EQ(on_other_thread(&c), ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE));

	/* THREAD_LOCAL: the capturing thread only */
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	CHECK_ACL_ERR(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE), no);
	c.op = 0;
	CHECK_ACL_OK(on_other_thread(&c));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_ACL_OK(aclmdlRIDestroy(m));

	/* RELAXED: everybody, and any thread may end it */
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemset(d, 4, 0, 4));
	CHECK_ACL_OK(on_other_thread(&c));
	c.op = 1;
	CHECK_ACL_OK(on_other_thread(&c));
	CHECK_ACL_OK(aclmdlRIDestroy(c.m));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(t));
	aclrtFree(d);
}

/*
 * A task group's kernels rewritten by a task update on another stream:
 * replays queued before the update use the old arguments, replays after
 * it the new ones; the update must match the group one for one.
 */
TEST(task_group_update)
{
	aclrtStream s, u, x;
	aclrtTaskGrp g = NULL, g2;
	int *a, *b, *one;
	aclmdlRI m, m2;
	int k;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&u));
	REQUIRE_ACL(aclrtCreateStream(&x));
	a = dev_ints(0);
	b = dev_ints(0);
	one = dev_ints(0);
	REQUIRE_ACL(launch_fill32(x, one, 1, N, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(x));

	CHECK_ACL_ERR(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_ERR(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	CHECK_ACL_OK(aclmdlRICaptureTaskGrpBegin(s));
	CHECK_ACL_ERR(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	CHECK_ACL_OK(launch_fill32(s, a, 3, N, 1));
	/* a group holds kernel launches only */
	CHECK_ACL_ERR(aclrtMemsetAsync(b, 4, 0, 4, s), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclmdlRICaptureTaskGrpEnd(s, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclmdlRICaptureTaskGrpEnd(s, &g));
	CHECK(g != NULL);
	CHECK_ACL_OK(launch_add32(s, a, one, b, N, 1));	/* b = a + 1, not in the group */
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));

	CHECK_ACL_ERR(aclmdlRICaptureTaskUpdateBegin(u, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	for (k = 0; k < 3; k++)
		REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
	/* the update: a = 40 from now on */
	CHECK_ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, g));
	CHECK_ACL_ERR(aclmdlRICaptureTaskUpdateBegin(x, g), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	CHECK_ACL_OK(launch_fill32(u, a, 40, N, 1));
	CHECK_ACL_OK(aclmdlRICaptureTaskUpdateEnd(u));
	/* the update's launch did not run; the queued replays used 3 */
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(b, 4));
	REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(a, 40));
	CHECK(all_equal(b, 41));

	/* one for one: too many tasks, or no task, fail and change nothing */
	CHECK_ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, g));
	CHECK_ACL_OK(launch_fill32(u, a, 50, N, 1));
	CHECK_ACL_OK(launch_fill32(u, a, 60, N, 1));
	CHECK_ACL_ERR(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_RT_INTERNAL_ERROR);
	CHECK_ACL_OK(aclmdlRICaptureTaskUpdateBegin(u, g));
	CHECK_ACL_ERR(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_RT_INTERNAL_ERROR);
	REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(b, 41));
	/* the stream runs its work again after an update */
	CHECK_ACL_OK(launch_fill32(u, b, 7, N, 1));
	CHECK_ACL_OK(aclrtSynchronizeStream(u));
	CHECK(all_equal(b, 7));

	/* a capturing stream cannot update; a destroyed instance's group is gone */
	REQUIRE_ACL(aclmdlRICaptureBegin(u, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_ERR(aclmdlRICaptureTaskUpdateBegin(u, g), ACL_ERROR_RT_STREAM_CAPTURED);
	CHECK_ACL_OK(aclmdlRICaptureTaskGrpBegin(u));	/* left open: ends with the capture */
	REQUIRE_ACL(aclmdlRICaptureEnd(u, &m2));
	CHECK_ACL_OK(aclmdlRIDestroy(m2));
	CHECK_ACL_ERR(aclmdlRICaptureTaskGrpEnd(u, &g2), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_ERR(aclmdlRICaptureTaskUpdateBegin(x, g), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(u));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	aclrtFree(a);
	aclrtFree(b);
	aclrtFree(one);
}

/* Capture @fill of @p with @v as body @b, on stream @bs. */
static void capture_fill_body(aclmdlRI b, aclrtStream bs, int *p, int v)
{
	aclmdlRI out = NULL;

	REQUIRE_ACL(aclmdlRICaptureToModelRIBegin(bs, b, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	REQUIRE_ACL(launch_fill32(bs, p, v, N, 1));
	REQUIRE_ACL(aclmdlRICaptureEnd(bs, &out));
	CHECK(out == b);
}

static void set_cond(uint64_t *p, uint64_t v)
{
	REQUIRE_ACL(aclrtMemcpy(p, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
}

/*
 * Conditional tasks, decided by the device at each replay: an if with an
 * else on a condition the host sets, a while whose body counts its
 * condition (reset to its default at each replay) down to 0, and a switch
 * with a selector past its bodies.
 */
TEST(conditional_tasks)
{
	aclmdlRI m, m2, ifb[2], wb[1], sb[3], bad[2];
	aclmdlRICondHandle hi, hw, hs;
	aclmdlRICaptureStatus st;
	uint64_t *pi, *pw, *ps;
	aclrtStream s, bs, x;
	int *px, *py, *pz, *one, *minus1;
	int k;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&bs));
	REQUIRE_ACL(aclrtCreateStream(&x));
	px = dev_ints(0);
	py = dev_ints(0);
	pz = dev_ints(0);
	one = dev_ints(0);
	minus1 = dev_ints(-1);
	REQUIRE_ACL(launch_fill32(x, one, 1, N, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(x));

	CHECK_ACL_ERR(aclmdlRIAddCondTask((aclmdlRICondTaskParams){ 0 }, s, 0),
		      ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	REQUIRE_ACL(aclmdlRICaptureGetInfo(s, &st, &m));
	CHECK_ACL_ERR(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)2, &hi),
		      ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(aclmdlRICondHandleCreate(m, 0, 0, &hi));
	REQUIRE_ACL(aclmdlRICondHandleCreate(m, 3, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &hw));
	REQUIRE_ACL(aclmdlRICondHandleCreate(m, 0, 0, &hs));
	REQUIRE_ACL(aclmdlRICondHandleGetCondPtr(hi, &pi));
	REQUIRE_ACL(aclmdlRICondHandleGetCondPtr(hw, &pw));
	REQUIRE_ACL(aclmdlRICondHandleGetCondPtr(hs, &ps));
	CHECK_ACL_ERR(aclmdlRICondHandleGetCondPtr(hi, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(pi && pw && ps && pi != pw);

	/* if (*pi) x = 10; else x = 20; */
	CHECK_ACL_ERR(aclmdlRIAddCondTask((aclmdlRICondTaskParams){
			hi, ACL_MODEL_RI_COND_TYPE_IF, 3, bad }, s, 0), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclmdlRIAddCondTask((aclmdlRICondTaskParams){
			hi, ACL_MODEL_RI_COND_TYPE_IF, 2, bad }, s, 1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclmdlRIAddCondTask((aclmdlRICondTaskParams){
			hi, ACL_MODEL_RI_COND_TYPE_IF, 2, bad }, x, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	REQUIRE_ACL(aclmdlRIAddCondTask((aclmdlRICondTaskParams){
			hi, ACL_MODEL_RI_COND_TYPE_IF, 2, ifb }, s, 0));
	capture_fill_body(ifb[0], bs, px, 10);
	capture_fill_body(ifb[1], bs, px, 20);
	CHECK_ACL_ERR(aclmdlRICaptureToModelRIBegin(bs, ifb[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
		      ACL_ERROR_RT_MODEL_CAPTURED);
	CHECK_ACL_ERR(aclmdlRICaptureToModelRIBegin(bs, m, ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclmdlRIDestroy(ifb[0]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

	/* while (*pw) { y += 1; *pw -= 1; } with *pw = 3 at each replay */
	REQUIRE_ACL(aclmdlRIAddCondTask((aclmdlRICondTaskParams){
			hw, ACL_MODEL_RI_COND_TYPE_WHILE, 1, wb }, s, 0));
	REQUIRE_ACL(aclmdlRICaptureToModelRIBegin(bs, wb[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	REQUIRE_ACL(launch_add32(bs, py, one, py, N, 1));
	REQUIRE_ACL(launch_add32(bs, (int *)pw, minus1, (int *)pw, 1, 1));
	REQUIRE_ACL(aclmdlRICaptureEnd(bs, &m2));

	/* switch (*ps) { 0: z = 100; 1: z = 101; 2: z = 102; } */
	REQUIRE_ACL(aclmdlRIAddCondTask((aclmdlRICondTaskParams){
			hs, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, sb }, s, 0));
	for (k = 0; k < 3; k++)
		capture_fill_body(sb[k], bs, pz, 100 + k);
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m2));
	CHECK(m2 == m);

	for (k = 0; k < 4; k++) {
		static const uint64_t sel[4] = { 1, 0, 7, 2 };
		static const int zs[4] = { 101, 100, 100, 102 };

		set_cond(pi, k % 2 ? 0 : 0x100000000ULL);	/* only the high word set */
		set_cond(ps, sel[k]);
		REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
		REQUIRE_ACL(aclrtSynchronizeStream(x));
		CHECK(all_equal(px, k % 2 ? 20 : 10));
		CHECK(all_equal(py, 3 * (k + 1)));
		CHECK(all_equal(pz, zs[k]));
	}
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_ERR(aclmdlRICondHandleGetCondPtr(hi, &pi), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclmdlRIDestroy(ifb[0]), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(bs));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	aclrtFree(px);
	aclrtFree(py);
	aclrtFree(pz);
	aclrtFree(one);
	aclrtFree(minus1);
}

/* A body left uncaptured, or spanning two streams, fails the build. */
TEST(conditional_task_errors)
{
	aclmdlRICaptureStatus st;
	aclmdlRICondHandle h;
	aclmdlRI m, m2, b[1];
	aclrtStream s, bs;
	uint64_t *cp;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&bs));
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	REQUIRE_ACL(aclmdlRICaptureGetInfo(s, &st, &m));
	REQUIRE_ACL(aclmdlRICondHandleCreate(m, 0, 0, &h));
	REQUIRE_ACL(aclmdlRIAddCondTask((aclmdlRICondTaskParams){
			h, ACL_MODEL_RI_COND_TYPE_WHILE, 1, b }, s, 0));
	CHECK_ACL_ERR(aclmdlRICaptureEnd(s, &m2), ACL_ERROR_RT_PARAM_INVALID);
	/* the instance is gone, its handle too; the streams work again */
	CHECK_ACL_ERR(aclmdlRICondHandleGetCondPtr(h, &cp), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(bs));
}

/* What the recorded host function sees, replay by replay. */
struct hf_log {
	int *seen;		/* pinned: the device copied its counter here */
	int *answer;		/* pinned: copied to the device after the function */
	int got[8];
	int n;
};

static void log_fn(void *arg)
{
	struct hf_log *l = arg;

	if (l->n < 8)
		l->got[l->n] = *(volatile int *)l->seen;
	l->n++;
	*l->answer = 10 * l->n;
}

/*
 * A host function captured between device work runs at every replay, in
 * stream order: after the copy before it, and the copy after it waits
 * for it.
 */
TEST(host_function_in_replay)
{
	struct hf_log l = { 0 };
	aclrtStream s, x;
	int *d, *e, *one;
	aclmdlRI m;
	int k, v;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&x));
	REQUIRE_ACL(aclrtMallocHost((void **)&l.seen, 64));
	REQUIRE_ACL(aclrtMallocHost((void **)&l.answer, 64));
	d = dev_ints(0);
	e = dev_ints(0);
	one = dev_ints(0);
	REQUIRE_ACL(launch_fill32(x, one, 1, N, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(x));
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(launch_add32(s, d, one, d, N, 1));
	CHECK_ACL_OK(aclrtMemcpyAsync(l.seen, 4, d, 4, ACL_MEMCPY_DEVICE_TO_HOST, s));
	CHECK_ACL_OK(aclrtLaunchHostFunc(s, log_fn, &l));
	CHECK_ACL_OK(aclrtMemcpyAsync(e, 4, l.answer, 4, ACL_MEMCPY_HOST_TO_DEVICE, s));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK_EQ(l.n, 0);	/* recorded, not run */
	for (k = 1; k <= 5; k++) {
		REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
		REQUIRE_ACL(aclrtSynchronizeStream(x));
		CHECK_EQ(l.n, k);
		CHECK_EQ(l.got[k - 1], k);
		REQUIRE_ACL(aclrtMemcpy(&v, 4, e, 4, ACL_MEMCPY_DEVICE_TO_HOST));
		CHECK_EQ(v, 10 * k);
	}
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	aclrtFreeHost(l.seen);
	aclrtFreeHost(l.answer);
	aclrtFree(d);
	aclrtFree(e);
	aclrtFree(one);
}

/*
 * aclmdlRIDestroy of an instance whose replay still runs waits for it
 * (the lists stay until the device is done with them).
 */
TEST(destroy_while_running_waits)
{
	aclrtStream s, x;
	aclmdlRI m;
	int *a;
	aclrtStreamStatus stt = ACL_STREAM_STATUS_NOT_READY;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&x));
	a = dev_ints(0);
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(launch_spin(s, 300000));
	CHECK_ACL_OK(launch_fill32(s, a, 5, N, 1));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	/* the replay was complete when destroy returned */
	CHECK_ACL_OK(aclrtStreamQuery(x, &stt));
	CHECK_EQ(stt, ACL_STREAM_STATUS_COMPLETE);
	CHECK_ACL_OK(aclrtSynchronizeStream(x));
	CHECK(all_equal(a, 5));
	CHECK_ACL_ERR(aclmdlRIExecuteAsync(m, x), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	aclrtFree(a);
}

/*
 * Replays of one 2-stream instance submitted alternately on two streams
 * (and from the default stream) run one after the other: a += 1 on the
 * first stream, b = a on the second, 200 times.
 */
TEST(replays_on_two_streams_are_ordered)
{
	aclrtStream s0, s1, x, y;
	aclrtEvent e;
	int *a, *b, *one;
	aclmdlRI m;
	int k;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s0));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&x));
	REQUIRE_ACL(aclrtCreateStream(&y));
	REQUIRE_ACL(aclrtCreateEvent(&e));
	a = dev_ints(0);
	b = dev_ints(0);
	one = dev_ints(0);
	REQUIRE_ACL(launch_fill32(x, one, 1, N, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(x));
	REQUIRE_ACL(aclmdlRICaptureBegin(s0, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(launch_spin(s0, 2000));
	CHECK_ACL_OK(launch_add32(s0, a, one, a, N, 1));
	CHECK_ACL_OK(aclrtRecordEvent(e, s0));
	CHECK_ACL_OK(aclrtStreamWaitEvent(s1, e));
	CHECK_ACL_OK(aclrtMemcpyAsync(b, N * sizeof(int), a, N * sizeof(int),
				      ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	REQUIRE_ACL(aclmdlRICaptureEnd(s0, &m));
	for (k = 0; k < 200; k++)
		REQUIRE_ACL(aclmdlRIExecuteAsync(m, k % 3 == 0 ? x : k % 3 == 1 ? y : NULL));
	REQUIRE_ACL(aclrtSynchronizeStream(x));
	REQUIRE_ACL(aclrtSynchronizeStream(y));
	REQUIRE_ACL(aclrtSynchronizeStream(NULL));
	CHECK(all_equal(a, 200));
	CHECK(all_equal(b, 200));
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtDestroyEvent(e));
	CHECK_ACL_OK(aclrtDestroyStream(s0));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	CHECK_ACL_OK(aclrtDestroyStream(y));
	aclrtFree(a);
	aclrtFree(b);
	aclrtFree(one);
}

/* A kernel task's recorded timeout; other attributes are not recorded. */
TEST(kernel_task_attributes)
{
	aclrtLaunchKernelAttrValue v;
	aclmdlRITask t[2];
	uint32_t nt = 2;
	aclrtStream s;
	aclmdlRI m;
	int *a;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	a = dev_ints(0);
	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(launch_fill32(s, a, 1, N, 1));
	CHECK_ACL_OK(aclrtMemsetAsync(a, 4, 0, 4, s));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	REQUIRE_ACL(aclmdlRIGetTasksByStream(s, t, &nt));
	REQUIRE(nt == 2);
	memset(&v, 0xff, sizeof(v));
	CHECK_ACL_OK(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &v));
	CHECK_EQ(v.timeout, 0);		/* the device default */
	memset(&v, 0xff, sizeof(v));
	CHECK_ACL_OK(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &v));
	CHECK_EQ(v.timeoutUs.timeoutLow, 0u);
	CHECK_EQ(v.timeoutUs.timeoutHigh, 0u);
	CHECK_ACL_ERR(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &v),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclmdlRIKernelTaskGetAttribute(t[1], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &v),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_ERR(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &v),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	aclrtFree(a);
}

struct racer {
	aclrtStream s;
	int *p;
	volatile int stop;
	int bad;
};

static void *race_submit(void *arg)
{
	struct racer *r = arg;
	aclError e;

	while (!r->stop) {
		e = aclrtMemsetAsync(r->p, 64, 1, 64, r->s);
		/* recorded, run, or refused by a capture that ended badly */
		if (e != ACL_SUCCESS && e != ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
			r->bad++;
	}
	return NULL;
}

/*
 * Submissions from one thread while another begins and ends captures of
 * the same stream: every submission is recorded or runs, nothing hangs
 * (a submission waiting for the instance while the capture ends).
 */
TEST(capture_races_submissions)
{
	struct racer r = { 0 };
	pthread_t t;
	aclmdlRI m;
	int k, ended = 0;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&r.s));
	r.p = dev_ints(0);
	REQUIRE(pthread_create(&t, NULL, race_submit, &r) == 0);
	for (k = 0; k < 300; k++) {
		if (aclmdlRICaptureBegin(r.s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
			continue;
		usleep(50);
		if (aclmdlRICaptureEnd(r.s, &m) == ACL_SUCCESS) {
			ended++;
			CHECK_ACL_OK(aclmdlRIDestroy(m));
		}
	}
	r.stop = 1;
	REQUIRE(pthread_join(t, NULL) == 0);
	CHECK_EQ(r.bad, 0);
	CHECK(ended > 0);
	CHECK_ACL_OK(aclrtSynchronizeStream(r.s));
	CHECK_ACL_OK(aclrtDestroyStream(r.s));
	aclrtFree(r.p);
}

/*
 * Every kind of device task a stream takes, captured once and replayed:
 * a kernel, a 2D copy, a reduce, a batch copy, a notify record and wait,
 * a value write and wait.  Replay k leaves a = k, b = a (2D), c = the sum
 * of 1..k (reduce), and a in pinned host memory (batch), byte for byte.
 */
TEST(every_task_kind_replays)
{
	aclrtMemcpyBatchAttr attr;
	aclrtStream s, x;
	aclrtNotify n;
	int *a, *b, *c, *one, *hp;
	uint64_t *w;
	void *dsts[1], *srcs[1];
	size_t sizes[1], dmax[1], idx = 0, fi = 0;
	aclmdlRI m;
	int i, k;

	acl_setup();
	need_lists();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&x));
	REQUIRE_ACL(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	a = dev_ints(0);
	b = dev_ints(0);
	c = dev_ints(0);
	one = dev_ints(0);
	REQUIRE_ACL(aclrtMalloc((void **)&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(launch_fill32(x, one, 1, N, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(x));
	/* a batch copies host to device or back: into pinned memory here */
	REQUIRE_ACL(aclrtMallocHost((void **)&hp, N * sizeof(int)));
	memset(hp, 0, N * sizeof(int));
	memset(&attr, 0, sizeof(attr));
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	dsts[0] = hp;
	srcs[0] = a;
	sizes[0] = dmax[0] = N * sizeof(int);

	REQUIRE_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	CHECK_ACL_OK(launch_add32(s, a, one, a, N, 1));
	/* 2D: 16 rows of 64 bytes */
	CHECK_ACL_OK(aclrtMemcpy2dAsync(b, 64, a, 64, 64, N * sizeof(int) / 64,
					ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtReduceAsync(c, a, N * sizeof(int), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
				      ACL_INT32, s, NULL));
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(dsts, dmax, srcs, sizes, 1, &attr, &idx, 1, &fi, s));
	CHECK_ACL_OK(aclrtRecordNotify(n, s));
	CHECK_ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
	CHECK_ACL_OK(aclrtValueWrite(w, 5, 0, s));
	CHECK_ACL_OK(aclrtValueWait(w, 5, ACL_STREAM_WAIT_VALUE_EQ, s));
	REQUIRE_ACL(aclmdlRICaptureEnd(s, &m));
	CHECK(all_equal(a, 0));		/* recorded, not run */
	for (k = 1; k <= 3; k++) {
		REQUIRE_ACL(aclmdlRIExecuteAsync(m, x));
		REQUIRE_ACL(aclrtSynchronizeStream(x));
		CHECK(all_equal(a, k));
		CHECK(all_equal(b, k));
		CHECK(all_equal(c, k * (k + 1) / 2));
		for (i = 0; i < N && hp[i] == k; i++)
			;
		CHECK_EQ(i, N);
	}
	CHECK_ACL_OK(aclmdlRIDestroy(m));
	CHECK_ACL_OK(aclrtDestroyNotify(n));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(x));
	aclrtFree(a);
	aclrtFree(b);
	aclrtFree(c);
	aclrtFreeHost(hp);
	aclrtFree(one);
	aclrtFree(w);
}

int main(void)
{
	return tap_main();
}
