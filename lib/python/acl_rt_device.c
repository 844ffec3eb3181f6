// SPDX-License-Identifier: MIT
/*
 * acl_rt_device.c - acl.rt: devices and contexts.
 */
#include "pyacl.h"

/* ret = acl.rt.set_device(device_id) */
static PyObject *py_set_device(PyObject *self, PyObject *args)
{
	int32_t id;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "i:set_device", &id))
		return NULL;
	PYACL_CALL(ret, aclrtSetDevice(id));
	return pyacl_ret(ret);
}

/* ret = acl.rt.reset_device(device_id) */
static PyObject *py_reset_device(PyObject *self, PyObject *args)
{
	int32_t id;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "i:reset_device", &id))
		return NULL;
	PYACL_CALL(ret, aclrtResetDevice(id));
	return pyacl_ret(ret);
}

/* ret = acl.rt.reset_device_force(device_id) */
static PyObject *py_reset_device_force(PyObject *self, PyObject *args)
{
	int32_t id;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "i:reset_device_force", &id))
		return NULL;
	PYACL_CALL(ret, aclrtResetDeviceForce(id));
	return pyacl_ret(ret);
}

/* device_id, ret = acl.rt.get_device() */
static PyObject *py_get_device(PyObject *self, PyObject *args)
{
	int32_t id = -1;
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclrtGetDevice(&id));
	return pyacl_int_ret(id, ret);
}

/* count, ret = acl.rt.get_device_count() */
static PyObject *py_get_device_count(PyObject *self, PyObject *args)
{
	uint32_t n = 0;
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclrtGetDeviceCount(&n));
	return pyacl_int_ret(n, ret);
}

/* ret = acl.rt.synchronize_device() */
static PyObject *py_synchronize_device(PyObject *self, PyObject *args)
{
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclrtSynchronizeDevice());
	return pyacl_ret(ret);
}

/* run_mode, ret = acl.rt.get_run_mode() */
static PyObject *py_get_run_mode(PyObject *self, PyObject *args)
{
	aclrtRunMode mode = ACL_HOST;
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclrtGetRunMode(&mode));
	return pyacl_int_ret(mode, ret);
}

/* context, ret = acl.rt.create_context(device_id) */
static PyObject *py_create_context(PyObject *self, PyObject *args)
{
	aclrtContext ctx = NULL;
	int32_t id;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "i:create_context", &id))
		return NULL;
	PYACL_CALL(ret, aclrtCreateContext(&ctx, id));
	return pyacl_ptr_ret(ctx, ret);
}

/* ret = acl.rt.destroy_context(context) */
static PyObject *py_destroy_context(PyObject *self, PyObject *args)
{
	aclrtContext ctx;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:destroy_context", pyacl_conv_ptr, &ctx))
		return NULL;
	PYACL_CALL(ret, aclrtDestroyContext(ctx));
	return pyacl_ret(ret);
}

/* ret = acl.rt.set_context(context) */
static PyObject *py_set_context(PyObject *self, PyObject *args)
{
	aclrtContext ctx;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:set_context", pyacl_conv_ptr, &ctx))
		return NULL;
	PYACL_CALL(ret, aclrtSetCurrentContext(ctx));
	return pyacl_ret(ret);
}

/* context, ret = acl.rt.get_context() */
static PyObject *py_get_context(PyObject *self, PyObject *args)
{
	aclrtContext ctx = NULL;
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclrtGetCurrentContext(&ctx));
	return pyacl_ptr_ret(ctx, ret);
}

PyMethodDef pyacl_device_methods[] = {
	{ "set_device", py_set_device, METH_VARARGS, "ret = set_device(device_id)" },
	{ "reset_device", py_reset_device, METH_VARARGS, "ret = reset_device(device_id)" },
	{ "reset_device_force", py_reset_device_force, METH_VARARGS,
	  "ret = reset_device_force(device_id)" },
	{ "get_device", py_get_device, METH_NOARGS, "device_id, ret = get_device()" },
	{ "get_device_count", py_get_device_count, METH_NOARGS, "count, ret = get_device_count()" },
	{ "synchronize_device", py_synchronize_device, METH_NOARGS, "ret = synchronize_device()" },
	{ "get_run_mode", py_get_run_mode, METH_NOARGS, "run_mode, ret = get_run_mode()" },
	{ "create_context", py_create_context, METH_VARARGS,
	  "context, ret = create_context(device_id)" },
	{ "destroy_context", py_destroy_context, METH_VARARGS, "ret = destroy_context(context)" },
	{ "set_context", py_set_context, METH_VARARGS, "ret = set_context(context)" },
	{ "get_context", py_get_context, METH_NOARGS, "context, ret = get_context()" },
	{ NULL, NULL, 0, NULL }
};
