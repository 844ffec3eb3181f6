// SPDX-License-Identifier: MIT
/*
 * acl_rt_stream.c - acl.rt: streams and events.
 */
#include "pyacl.h"

/* A function of one handle returning only the error code. */
#define HANDLE_FN(pyname, cfn)						\
	static PyObject *py_##pyname(PyObject *self, PyObject *args)	\
	{								\
		void *h;						\
		aclError ret;						\
									\
		(void)self;						\
		if (!PyArg_ParseTuple(args, "O&:" #pyname, pyacl_conv_ptr, &h)) \
			return NULL;					\
		PYACL_CALL(ret, cfn(h));				\
		return pyacl_ret(ret);					\
	}

/* A function of two handles returning only the error code. */
#define HANDLE2_FN(pyname, cfn)						\
	static PyObject *py_##pyname(PyObject *self, PyObject *args)	\
	{								\
		void *a, *b;						\
		aclError ret;						\
									\
		(void)self;						\
		if (!PyArg_ParseTuple(args, "O&O&:" #pyname, pyacl_conv_ptr, &a, \
				      pyacl_conv_ptr, &b))		\
			return NULL;					\
		PYACL_CALL(ret, cfn(a, b));				\
		return pyacl_ret(ret);					\
	}

/* A handle and an int32 timeout (ms), returning only the error code. */
#define TIMEOUT_FN(pyname, cfn)						\
	static PyObject *py_##pyname(PyObject *self, PyObject *args)	\
	{								\
		void *h;						\
		int32_t timeout;					\
		aclError ret;						\
									\
		(void)self;						\
		if (!PyArg_ParseTuple(args, "O&i:" #pyname, pyacl_conv_ptr, &h, &timeout)) \
			return NULL;					\
		PYACL_CALL(ret, cfn(h, timeout));			\
		return pyacl_ret(ret);					\
	}

/* ---- streams -------------------------------------------------------------- */

/* stream, ret = acl.rt.create_stream() */
static PyObject *py_create_stream(PyObject *self, PyObject *args)
{
	aclrtStream s = NULL;
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclrtCreateStream(&s));
	return pyacl_ptr_ret(s, ret);
}

/* stream, ret = acl.rt.create_stream_with_config(priority, flag) */
static PyObject *py_create_stream_with_config(PyObject *self, PyObject *args)
{
	aclrtStream s = NULL;
	uint32_t prio, flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:create_stream_with_config", pyacl_conv_u32, &prio,
			      pyacl_conv_u32, &flag))
		return NULL;
	PYACL_CALL(ret, aclrtCreateStreamWithConfig(&s, prio, flag));
	return pyacl_ptr_ret(s, ret);
}

HANDLE_FN(destroy_stream, aclrtDestroyStream)
HANDLE_FN(destroy_stream_force, aclrtDestroyStreamForce)
HANDLE_FN(synchronize_stream, aclrtSynchronizeStream)
TIMEOUT_FN(synchronize_stream_with_timeout, aclrtSynchronizeStreamWithTimeout)
HANDLE2_FN(stream_wait_event, aclrtStreamWaitEvent)

/* status, ret = acl.rt.stream_query(stream) */
static PyObject *py_stream_query(PyObject *self, PyObject *args)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	aclrtStream s;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:stream_query", pyacl_conv_ptr, &s))
		return NULL;
	PYACL_CALL(ret, aclrtStreamQuery(s, &st));
	return pyacl_int_ret(st, ret);
}

/* ---- events --------------------------------------------------------------- */

/* event, ret = acl.rt.create_event() */
static PyObject *py_create_event(PyObject *self, PyObject *args)
{
	aclrtEvent e = NULL;
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclrtCreateEvent(&e));
	return pyacl_ptr_ret(e, ret);
}

/* event, ret = acl.rt.create_event_with_flag(flag) */
static PyObject *py_create_event_with_flag(PyObject *self, PyObject *args)
{
	aclrtEvent e = NULL;
	uint32_t flag;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:create_event_with_flag", pyacl_conv_u32, &flag))
		return NULL;
	PYACL_CALL(ret, aclrtCreateEventWithFlag(&e, flag));
	return pyacl_ptr_ret(e, ret);
}

HANDLE_FN(destroy_event, aclrtDestroyEvent)
HANDLE2_FN(record_event, aclrtRecordEvent)
HANDLE2_FN(reset_event, aclrtResetEvent)
HANDLE_FN(synchronize_event, aclrtSynchronizeEvent)
TIMEOUT_FN(synchronize_event_with_timeout, aclrtSynchronizeEventWithTimeout)

/* status, ret = acl.rt.query_event_status(event) */
static PyObject *py_query_event_status(PyObject *self, PyObject *args)
{
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	aclrtEvent e;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:query_event_status", pyacl_conv_ptr, &e))
		return NULL;
	PYACL_CALL(ret, aclrtQueryEventStatus(e, &st));
	return pyacl_int_ret(st, ret);
}

/* ms, ret = acl.rt.event_elapsed_time(start, end) */
static PyObject *py_event_elapsed_time(PyObject *self, PyObject *args)
{
	aclrtEvent start, end;
	float ms = 0.0f;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:event_elapsed_time", pyacl_conv_ptr, &start,
			      pyacl_conv_ptr, &end))
		return NULL;
	PYACL_CALL(ret, aclrtEventElapsedTime(&ms, start, end));
	return Py_BuildValue("(di)", (double)ms, (int)ret);
}

PyMethodDef pyacl_stream_methods[] = {
	{ "create_stream", py_create_stream, METH_NOARGS, "stream, ret = create_stream()" },
	{ "create_stream_with_config", py_create_stream_with_config, METH_VARARGS,
	  "stream, ret = create_stream_with_config(priority, flag)" },
	{ "destroy_stream", py_destroy_stream, METH_VARARGS, "ret = destroy_stream(stream)" },
	{ "destroy_stream_force", py_destroy_stream_force, METH_VARARGS,
	  "ret = destroy_stream_force(stream)" },
	{ "synchronize_stream", py_synchronize_stream, METH_VARARGS,
	  "ret = synchronize_stream(stream)" },
	{ "synchronize_stream_with_timeout", py_synchronize_stream_with_timeout, METH_VARARGS,
	  "ret = synchronize_stream_with_timeout(stream, timeout_ms)" },
	{ "stream_query", py_stream_query, METH_VARARGS, "status, ret = stream_query(stream)" },
	{ "stream_wait_event", py_stream_wait_event, METH_VARARGS,
	  "ret = stream_wait_event(stream, event)" },
	{ "create_event", py_create_event, METH_NOARGS, "event, ret = create_event()" },
	{ "create_event_with_flag", py_create_event_with_flag, METH_VARARGS,
	  "event, ret = create_event_with_flag(flag)" },
	{ "destroy_event", py_destroy_event, METH_VARARGS, "ret = destroy_event(event)" },
	{ "record_event", py_record_event, METH_VARARGS, "ret = record_event(event, stream)" },
	{ "reset_event", py_reset_event, METH_VARARGS, "ret = reset_event(event, stream)" },
	{ "synchronize_event", py_synchronize_event, METH_VARARGS,
	  "ret = synchronize_event(event)" },
	{ "synchronize_event_with_timeout", py_synchronize_event_with_timeout, METH_VARARGS,
	  "ret = synchronize_event_with_timeout(event, timeout_ms)" },
	{ "query_event_status", py_query_event_status, METH_VARARGS,
	  "status, ret = query_event_status(event)" },
	{ "event_elapsed_time", py_event_elapsed_time, METH_VARARGS,
	  "ms, ret = event_elapsed_time(start, end)" },
	{ NULL, NULL, 0, NULL }
};
