// SPDX-License-Identifier: MIT
/*
 * errinfo.c - task exception information: the aclrtExceptionInfo handed
 * to exception callbacks (aclrtSetExceptionInfoCallback,
 * aclrtExceptionInfoCallbackRegister/Unregister), its getters, the task id
 * of a thread's last submission (aclrtGetThreadLastTaskId), and the
 * device-level error report (aclrtGetErrorVerbose / aclrtRepairError).
 *
 * A task is one command on a stream's queue; its id is the command's
 * sequence number, which the device reports as fault_seq.  The thread id
 * is the submitting thread's (gettid), remembered per ring slot.  A fault
 * is noted where it becomes an error code (queue_fault_error()), once per
 * fault, and the callbacks run right after in the thread that reported it,
 * once no libaclrt lock is held (stream_recover(), a failed submission).
 *
 * Facts from CANN (hicann/runtime src/acl/aclrt_impl/callback.cpp): the
 * getters return 0xFFFFFFFF for a NULL info; a NULL callback to
 * Register/Unregister is 107000; aclrtSetExceptionInfoCallback holds one
 * callback (a later call replaces it, NULL removes it) besides the
 * registered ones.  aclrtGetErrorVerbose reports device faults (HBM
 * uncorrectable errors, link errors), not task exceptions
 * (api_impl.cc GetErrorVerbose): the emulated NPU has neither, so it
 * reports ACL_RT_NO_ERROR.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#define INVALID_EXCEPTION_INFO	0xFFFFFFFFU

struct rtExceptionInfo {
	struct acl_exc e;
};

/* the thread's id and last task; exc_note_submit() (internal.h) fills it */
ACL_TLS_HOT struct acl_task_note acl_t_task;

static pthread_mutex_t exc_lock = PTHREAD_MUTEX_INITIALIZER;	/* below, s->exc* */
static aclrtExceptionInfoCallback exc_module_cb;	/* aclrtSetExceptionInfoCallback */
#define MAX_EXC_CB 32
static aclrtExceptionInfoCallback exc_cbs[MAX_EXC_CB];	/* registered */
static unsigned int exc_ncbs;

uint32_t exc_read_tid(void)
{
	acl_t_task.tid = (uint32_t)syscall(SYS_gettid);
	return acl_t_task.tid;
}

void exc_note_fault(struct acl_queue *q, uint64_t seq, aclError code)
{
	struct acl_stream *s = (struct acl_stream *)((char *)q - offsetof(struct acl_stream, q));
	uint64_t key = __atomic_load_n(&q->resets, __ATOMIC_SEQ_CST) + 1;

	pthread_mutex_lock(&exc_lock);
	if (s->exc_key != key) {	/* a fault not noted yet */
		s->exc_key = key;
		s->exc_pending = true;
		s->exc.task = (uint32_t)seq;
		s->exc.stream = q->handle;
		s->exc.tid = s->tids && q->ring_entries ? s->tids[seq % q->ring_entries] : 0;
		s->exc.dev = (uint32_t)s->dev->id;
		s->exc.code = code;
	}
	pthread_mutex_unlock(&exc_lock);
}

void exc_fire(struct acl_stream *s)
{
	aclrtExceptionInfoCallback cbs[MAX_EXC_CB + 1];
	struct rtExceptionInfo info;
	unsigned int n = 0, i;

	pthread_mutex_lock(&exc_lock);
	if (s->exc_pending) {
		s->exc_pending = false;
		info.e = s->exc;
		if (exc_module_cb)
			cbs[n++] = exc_module_cb;
		for (i = 0; i < exc_ncbs; i++)
			cbs[n++] = exc_cbs[i];
	}
	pthread_mutex_unlock(&exc_lock);
	for (i = 0; i < n; i++)
		cbs[i](&info);
}

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
	API_ENTER();
	pthread_mutex_lock(&exc_lock);
	exc_module_cb = callback;
	pthread_mutex_unlock(&exc_lock);
	return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
	aclError ret = ACL_SUCCESS;
	unsigned int i;

	API_ENTER();
	if (!callback)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "callback is NULL");
	pthread_mutex_lock(&exc_lock);
	for (i = 0; i < exc_ncbs && exc_cbs[i] != callback; i++)
		;
	if (i == exc_ncbs) {	/* registered once per function */
		if (exc_ncbs < MAX_EXC_CB)
			exc_cbs[exc_ncbs++] = callback;
		else
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
				      "%d exception callbacks are registered already", MAX_EXC_CB);
	}
	pthread_mutex_unlock(&exc_lock);
	return ret;
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
	unsigned int i;

	API_ENTER();
	if (!callback)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "callback is NULL");
	pthread_mutex_lock(&exc_lock);
	for (i = 0; i < exc_ncbs; i++) {
		if (exc_cbs[i] == callback) {
			memmove(&exc_cbs[i], &exc_cbs[i + 1], (exc_ncbs - i - 1) * sizeof(exc_cbs[0]));
			exc_ncbs--;
			break;
		}
	}
	pthread_mutex_unlock(&exc_lock);
	return ACL_SUCCESS;
}

#define INFO_GETTER(fn, field)							\
	uint32_t fn(const aclrtExceptionInfo *info)				\
	{									\
		API_ENTER();							\
		if (!info) {							\
			acl_err(ACL_ERROR_INVALID_PARAM, "info is NULL");	\
			return INVALID_EXCEPTION_INFO;				\
		}								\
		return (uint32_t)info->e.field;					\
	}

INFO_GETTER(aclrtGetTaskIdFromExceptionInfo, task)
INFO_GETTER(aclrtGetStreamIdFromExceptionInfo, stream)
INFO_GETTER(aclrtGetThreadIdFromExceptionInfo, tid)
INFO_GETTER(aclrtGetDeviceIdFromExceptionInfo, dev)
INFO_GETTER(aclrtGetErrorCodeFromExceptionInfo, code)

aclError aclrtGetThreadLastTaskId(uint32_t *taskId)
{
	API_ENTER();
	if (!taskId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "taskId is NULL");
	if (!acl_t_task.have_task)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "this thread has not submitted any task yet");
	*taskId = acl_t_task.last_task;
	return ACL_SUCCESS;
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
	API_ENTER();
	if (!errorInfo)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "errorInfo is NULL");
	if (!dev_by_id(deviceId))
		return dev_bad_id(deviceId);
	/* No HBM uncorrectable-error or link-fault reporting on this device. */
	errorInfo->tryRepair = 0;
	errorInfo->hasDetail = 0;
	errorInfo->errorType = ACL_RT_NO_ERROR;
	return ACL_SUCCESS;
}

aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo)
{
	API_ENTER();
	if (!errorInfo)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "errorInfo is NULL");
	if (!dev_by_id(deviceId))
		return dev_bad_id(deviceId);
	if (errorInfo->errorType != ACL_RT_NO_ERROR)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "errorType %d: device %d reports no such fault to repair",
			       (int)errorInfo->errorType, deviceId);
	return ACL_SUCCESS;
}
