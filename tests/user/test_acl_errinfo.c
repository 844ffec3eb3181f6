// SPDX-License-Identifier: MIT
/*
 * Task exceptions: exception callbacks (aclrtSetExceptionInfoCallback,
 * aclrtExceptionInfoCallbackRegister/Unregister) see the real failed
 * task (its id, stream, submitting thread, device and error code) once;
 * aclrtGetThreadLastTaskId; aclrtGetErrorVerbose / aclrtRepairError.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl_util.h"

struct rec {
	int calls;
	uint32_t task, stream, tid, dev, code;
};

static struct rec r1, r2;

static void take(struct rec *r, aclrtExceptionInfo *info)
{
	r->calls++;
	r->task = aclrtGetTaskIdFromExceptionInfo(info);
	r->stream = aclrtGetStreamIdFromExceptionInfo(info);
	r->tid = aclrtGetThreadIdFromExceptionInfo(info);
	r->dev = aclrtGetDeviceIdFromExceptionInfo(info);
	r->code = aclrtGetErrorCodeFromExceptionInfo(info);
}

static void cb1(aclrtExceptionInfo *info)
{
	take(&r1, info);
}

static void cb2(aclrtExceptionInfo *info)
{
	take(&r2, info);
}

TEST(callback_sees_the_failed_task_once)
{
	uint32_t before = 0, task = 0;
	int32_t sid = -1;
	aclrtStream s;
	int *p;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtStreamGetId(s, &sid));
	CHECK_ACL_OK(aclrtExceptionInfoCallbackRegister(cb1));
	CHECK_ACL_OK(aclrtExceptionInfoCallbackRegister(cb1));	/* once per function */
	REQUIRE_ACL(launch_write(s, p, 1, 1));
	CHECK_ACL_OK(aclrtGetThreadLastTaskId(&before));
	REQUIRE_ACL(launch_trap(s));
	CHECK_ACL_OK(aclrtGetThreadLastTaskId(&task));
	CHECK_EQ(task, before + 1);
	REQUIRE_ACL(launch_write(s, p, 2, 1));	/* discarded behind the trap */
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK_EQ(r1.calls, 1);
	CHECK_EQ(r1.task, task);
	CHECK_EQ(r1.stream, (uint32_t)sid);
	CHECK_EQ(r1.tid, (uint32_t)syscall(SYS_gettid));
	CHECK_EQ(r1.dev, 0);
	CHECK_EQ(r1.code, (uint32_t)ACL_ERROR_RT_AICORE_EXCEPTION);
	/* reported once */
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(r1.calls, 1);
	/* a second fault is a second report, with its own id */
	REQUIRE_ACL(launch_write(s, (int *)(uintptr_t)0x1000, 1, 1));
	CHECK_ACL_OK(aclrtGetThreadLastTaskId(&task));
	CHECK_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_DEVICE_MEM_ERROR);
	CHECK_EQ(r1.calls, 2);
	CHECK_EQ(r1.task, task);
	CHECK_EQ(r1.code, (uint32_t)ACL_ERROR_RT_DEVICE_MEM_ERROR);
	CHECK_ACL_OK(aclrtExceptionInfoCallbackUnregister(cb1));
	REQUIRE_ACL(launch_trap(s));
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK_EQ(r1.calls, 2);
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

struct thr {
	aclrtStream s;
	uint32_t tid;
	uint32_t task;
	aclError r;
};

static void *submitter(void *arg)
{
	struct thr *t = arg;

	t->tid = (uint32_t)syscall(SYS_gettid);
	t->r = aclrtSetDevice(0);
	if (!t->r)
		t->r = launch_trap(t->s);
	if (!t->r)
		t->r = aclrtGetThreadLastTaskId(&t->task);
	return NULL;
}

TEST(module_callback_and_thread_id_of_the_submitter)
{
	struct thr t = { 0 };
	pthread_t th;
	uint32_t id;
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	CHECK_ACL_OK(aclrtSetExceptionInfoCallback(cb2));
	CHECK_ACL_OK(aclrtSetExceptionInfoCallback(cb1));	/* replaces cb2 */
	CHECK_ACL_OK(aclrtExceptionInfoCallbackRegister(cb2));
	t.s = s;
	REQUIRE(pthread_create(&th, NULL, submitter, &t) == 0);
	pthread_join(th, NULL);
	REQUIRE_ACL(t.r);
	/* this thread submitted nothing */
	CHECK_ACL_ERR(aclrtGetThreadLastTaskId(&id), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK_EQ(r1.calls, 1);
	CHECK_EQ(r2.calls, 1);
	CHECK_EQ(r1.tid, t.tid);
	CHECK_NE(r1.tid, (uint32_t)syscall(SYS_gettid));
	CHECK_EQ(r1.task, t.task);
	CHECK_EQ(r2.task, t.task);
	CHECK_ACL_OK(aclrtSetExceptionInfoCallback(NULL));
	CHECK_ACL_OK(aclrtExceptionInfoCallbackUnregister(cb2));
	REQUIRE_ACL(launch_trap(s));
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK_EQ(r1.calls, 1);
	CHECK_EQ(r2.calls, 1);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(error_codes)
{
	aclrtErrorInfo ei;
	uint32_t count = 0;

	CHECK_ACL_ERR(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtExceptionInfoCallbackUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(aclrtGetTaskIdFromExceptionInfo(NULL), 0xFFFFFFFFU);
	CHECK_EQ(aclrtGetStreamIdFromExceptionInfo(NULL), 0xFFFFFFFFU);
	CHECK_EQ(aclrtGetThreadIdFromExceptionInfo(NULL), 0xFFFFFFFFU);
	CHECK_EQ(aclrtGetDeviceIdFromExceptionInfo(NULL), 0xFFFFFFFFU);
	CHECK_EQ(aclrtGetErrorCodeFromExceptionInfo(NULL), 0xFFFFFFFFU);
	CHECK(acl_has_errmsg());
	CHECK_ACL_ERR(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM);
	/* no device-level fault reporting: no error */
	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtGetDeviceCount(&count));
	memset(&ei, 0xff, sizeof(ei));
	CHECK_ACL_OK(aclrtGetErrorVerbose(0, &ei));
	CHECK_EQ(ei.errorType, ACL_RT_NO_ERROR);
	CHECK_EQ(ei.tryRepair, 0);
	CHECK_EQ(ei.hasDetail, 0);
	CHECK_ACL_ERR(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetErrorVerbose((int32_t)count, &ei), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_OK(aclrtRepairError(0, &ei));
	ei.errorType = ACL_RT_ERROR_MEMORY;
	CHECK_ACL_ERR(aclrtRepairError(0, &ei), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtRepairError(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
	aclFinalize();
}

int main(void)
{
	return tap_main();
}
