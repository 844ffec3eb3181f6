// SPDX-License-Identifier: MIT
/*
 * acl_rt_kernel.c - acl.rt: kernel images and launches.
 *
 * The built-in kernels of the emulated NPU load with
 * acl.rt.binary_load_from_file("ascend://builtin", []); arguments are one
 * packed buffer passed by address and size, as in aclrtLaunchKernel:
 *
 *     args = struct.pack("<QQQQ", a, b, c, n)
 *     acl.rt.launch_kernel(fn, blocks, acl.util.bytes_to_ptr(args), len(args), stream)
 */
#include "pyacl.h"

/*
 * [{"type": int, "value": int}, ...] as aclrtBinaryLoadOptions (value is
 * the union's 32-bit member: isLazyLoad, magic, cpuKernelMode).  An empty
 * list gives NULL options, as in pyACL.
 */
static int get_load_options(PyObject *seq, aclrtBinaryLoadOptions *opts,
			    aclrtBinaryLoadOption **store)
{
	PyObject *fast, *item, *t, *v;
	aclrtBinaryLoadOption *o;
	Py_ssize_t n, i;
	long type;
	uint32_t value;

	*store = NULL;
	opts->options = NULL;
	opts->numOpt = 0;
	if (!seq || seq == Py_None)
		return 1;
	if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
		PyErr_SetString(PyExc_TypeError, "options must be a list of {\"type\": ..., \"value\": ...}");
		return 0;
	}
	fast = PySequence_Fast(seq, "options");
	if (!fast)
		return 0;
	n = PySequence_Fast_GET_SIZE(fast);
	o = PyMem_Calloc(n ? (size_t)n : 1, sizeof(*o));
	if (!o) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return 0;
	}
	for (i = 0; i < n; i++) {
		item = PySequence_Fast_GET_ITEM(fast, i);
		t = PyDict_Check(item) ? PyDict_GetItemString(item, "type") : NULL;
		v = PyDict_Check(item) ? PyDict_GetItemString(item, "value") : NULL;
		if (!t || !v || PyDict_Size(item) != 2) {
			PyErr_Format(PyExc_ValueError,
				     "options[%zd] must be {\"type\": int, \"value\": int}", i);
			goto fail;
		}
		type = PyLong_AsLong(t);
		if (type == -1 && PyErr_Occurred())
			goto fail;
		if (type < INT32_MIN || type > INT32_MAX) {
			PyErr_Format(PyExc_OverflowError, "options[%zd] type is out of range", i);
			goto fail;
		}
		if (!pyacl_conv_u32(v, &value))
			goto fail;
		o[i].type = (aclrtBinaryLoadOptionType)type;
		o[i].value.isLazyLoad = value;
	}
	Py_DECREF(fast);
	if (n) {
		opts->options = o;
		opts->numOpt = (size_t)n;
	}
	*store = o;
	return 1;
fail:
	PyMem_Free(o);
	Py_DECREF(fast);
	return 0;
}

/* bin_handle, ret = acl.rt.binary_load_from_file(path[, options]) */
static PyObject *py_binary_load_from_file(PyObject *self, PyObject *args)
{
	aclrtBinaryLoadOption *store;
	aclrtBinaryLoadOptions opts;
	aclrtBinHandle bin = NULL;
	PyObject *popts = NULL, *path;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&|O:binary_load_from_file", PyUnicode_FSConverter, &path,
			      &popts))
		return NULL;
	if (!get_load_options(popts, &opts, &store)) {
		Py_DECREF(path);
		return NULL;
	}
	PYACL_CALL(ret, aclrtBinaryLoadFromFile(PyBytes_AS_STRING(path),
						opts.numOpt ? &opts : NULL, &bin));
	PyMem_Free(store);
	Py_DECREF(path);
	return pyacl_ptr_ret(bin, ret);
}

/* bin_handle, ret = acl.rt.binary_load_from_data(data_ptr, length[, options]) */
static PyObject *py_binary_load_from_data(PyObject *self, PyObject *args)
{
	aclrtBinaryLoadOption *store;
	aclrtBinaryLoadOptions opts;
	aclrtBinHandle bin = NULL;
	PyObject *popts = NULL;
	size_t len;
	void *data;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&|O:binary_load_from_data", pyacl_conv_ptr, &data,
			      pyacl_conv_size, &len, &popts))
		return NULL;
	if (!get_load_options(popts, &opts, &store))
		return NULL;
	PYACL_CALL(ret, aclrtBinaryLoadFromData(data, len, opts.numOpt ? &opts : NULL, &bin));
	PyMem_Free(store);
	return pyacl_ptr_ret(bin, ret);
}

/* ret = acl.rt.binary_unload(bin_handle) */
static PyObject *py_binary_unload(PyObject *self, PyObject *args)
{
	aclrtBinHandle bin;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:binary_unload", pyacl_conv_ptr, &bin))
		return NULL;
	PYACL_CALL(ret, aclrtBinaryUnLoad(bin));
	return pyacl_ret(ret);
}

/* func_handle, ret = acl.rt.binary_get_function(bin_handle, kernel_name) */
static PyObject *py_binary_get_function(PyObject *self, PyObject *args)
{
	aclrtFuncHandle fn = NULL;
	aclrtBinHandle bin;
	const char *name;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&s:binary_get_function", pyacl_conv_ptr, &bin, &name))
		return NULL;
	PYACL_CALL(ret, aclrtBinaryGetFunction(bin, name, &fn));
	return pyacl_ptr_ret(fn, ret);
}

/* ret = acl.rt.launch_kernel(func_handle, block_dim, args_ptr, args_size, stream) */
static PyObject *py_launch_kernel(PyObject *self, PyObject *args)
{
	aclrtFuncHandle fn;
	void *argp, *stream;
	uint32_t blocks;
	size_t size;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&:launch_kernel", pyacl_conv_ptr, &fn,
			      pyacl_conv_u32, &blocks, pyacl_conv_ptr, &argp, pyacl_conv_size, &size,
			      pyacl_conv_ptr, &stream))
		return NULL;
	PYACL_CALL(ret, aclrtLaunchKernel(fn, blocks, argp, size, stream));
	return pyacl_ret(ret);
}

PyMethodDef pyacl_kernel_methods[] = {
	{ "binary_load_from_file", py_binary_load_from_file, METH_VARARGS,
	  "bin_handle, ret = binary_load_from_file(path[, options])" },
	{ "binary_load_from_data", py_binary_load_from_data, METH_VARARGS,
	  "bin_handle, ret = binary_load_from_data(data_ptr, length[, options])" },
	{ "binary_unload", py_binary_unload, METH_VARARGS, "ret = binary_unload(bin_handle)" },
	{ "binary_get_function", py_binary_get_function, METH_VARARGS,
	  "func_handle, ret = binary_get_function(bin_handle, kernel_name)" },
	{ "launch_kernel", py_launch_kernel, METH_VARARGS,
	  "ret = launch_kernel(func_handle, block_dim, args_ptr, args_size, stream)" },
	{ NULL, NULL, 0, NULL }
};
