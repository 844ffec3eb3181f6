// SPDX-License-Identifier: MIT
/*
 * acl_util.c - acl.util: host pointers to and from bytes and numpy arrays.
 *
 *   ptr = bytes_to_ptr(b)                 address of a bytes/bytearray's contents
 *   b = ptr_to_bytes(ptr, size)           a copy of size bytes at ptr
 *   ptr = numpy_to_ptr(array)             address of an array's first element
 *   ptr, array = numpy_contiguous_to_ptr(array)
 *                                         the same of a C-contiguous copy (or the array)
 *   array = ptr_to_numpy(ptr, shape, npy_type)
 *                                         an array over the memory at ptr (no copy)
 *
 * numpy is needed only when these run, never to build: arrays are reached
 * through the buffer protocol, and ptr_to_numpy builds its array with
 * numpy.frombuffer over a memoryview.  An address stays valid while its
 * object lives; keeping it alive is the caller's job, as with pyACL.
 *
 * Reading memory at an address the caller gave is what these functions do,
 * and a wrong address (device memory, which the host cannot touch; a freed
 * buffer) must raise, not crash the interpreter: the memory is first read
 * through process_vm_readv(2) on this process, which reports EFAULT
 * instead of faulting.  Where that call is missing (a kernel without
 * CONFIG_CROSS_MEMORY_ATTACH, as make check-debug's) or refused (a seccomp
 * policy), one byte of each page is written into a pipe instead, which
 * reports EFAULT the same way.
 */
#include "pyacl.h"	/* first: Python.h sets the feature macros (_GNU_SOURCE) */

#include <errno.h>
#include <stdbool.h>
#include <sys/uio.h>
#include <unistd.h>

#define PROBE_BATCH 256

/*
 * Copy @size bytes at @src to @dst with process_vm_readv.  Returns 1 when
 * all arrived, 0 when some of the memory is unreadable, -1 when the call is
 * not available here (ENOSYS, or EPERM under a seccomp policy).
 */
static int vm_read(void *dst, const void *src, size_t size)
{
	size_t done = 0;

	while (done < size) {
		struct iovec local = { (char *)dst + done, size - done };
		struct iovec remote = { (char *)src + done, size - done };
		ssize_t r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == ENOSYS || errno == EPERM))
			return -1;
		if (r <= 0)
			return 0;
		done += (size_t)r;
	}
	return 1;
}

/*
 * The same as probe_readable() without process_vm_readv: one byte of every
 * page through a pipe.  1 readable, 0 not, -1 no pipe.
 */
static int probe_readable_pipe(const void *p, size_t size)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p, end = a + size;
	int fds[2], ok = 1;
	char sink;

	if (pg <= 0)
		pg = 4096;
	if (pipe(fds))
		return -1;
	while (ok == 1 && a < end) {
		ssize_t w = write(fds[1], (const void *)a, 1);

		if (w < 0 && errno == EINTR)
			continue;
		if (w != 1)
			ok = 0;
		else if (read(fds[0], &sink, 1) != 1)
			ok = -1;
		a = (a | ((uintptr_t)pg - 1)) + 1;	/* next page */
	}
	close(fds[0]);
	close(fds[1]);
	return ok;
}

/* Is one byte of every page of [@p, @p + @size) readable?  (1, 0, -1 as vm_read) */
static int probe_readable(const void *p, size_t size)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p, end = a + size;
	struct iovec remote[PROBE_BATCH], local;
	char sink[PROBE_BATCH];
	int n;

	if (pg <= 0)
		pg = 4096;
	local.iov_base = sink;
	while (a < end) {
		for (n = 0; n < PROBE_BATCH && a < end; n++) {
			remote[n].iov_base = (void *)a;
			remote[n].iov_len = 1;
			a = (a | ((uintptr_t)pg - 1)) + 1;	/* next page */
		}
		local.iov_len = (size_t)n;
		for (;;) {
			ssize_t r = process_vm_readv(getpid(), &local, 1, remote, (unsigned long)n, 0);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && (errno == ENOSYS || errno == EPERM))
				return probe_readable_pipe(p, size);
			if (r != n)
				return 0;
			break;
		}
	}
	return 1;
}

static int range_ok(const void *p, size_t size)
{
	if (!size)
		return 1;
	if (!p || (uintptr_t)p + size < (uintptr_t)p) {
		PyErr_Format(PyExc_ValueError, "%p + %zu bytes is not host memory", p, size);
		return 0;
	}
	if (probe_readable(p, size) == 0) {
		PyErr_Format(PyExc_ValueError,
			     "%zu bytes at %p are not readable host memory (device memory? "
			     "copy it to the host with acl.rt.memcpy first)", size, p);
		return 0;
	}
	return 1;
}

/* ptr = acl.util.bytes_to_ptr(data) */
static PyObject *py_bytes_to_ptr(PyObject *self, PyObject *args)
{
	PyObject *obj;
	char *p;

	(void)self;
	if (!PyArg_ParseTuple(args, "O:bytes_to_ptr", &obj))
		return NULL;
	if (PyBytes_Check(obj))
		p = PyBytes_AS_STRING(obj);
	else if (PyByteArray_Check(obj))
		p = PyByteArray_AS_STRING(obj);
	else {
		PyErr_Format(PyExc_ValueError, "bytes_to_ptr needs bytes or a bytearray, not %.100s",
			     Py_TYPE(obj)->tp_name);
		return NULL;
	}
	return PyLong_FromVoidPtr(p);
}

/* data = acl.util.ptr_to_bytes(ptr, size) */
static PyObject *py_ptr_to_bytes(PyObject *self, PyObject *args)
{
	PyObject *out;
	size_t size;
	void *p;
	int r;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&:ptr_to_bytes", pyacl_conv_ptr, &p, pyacl_conv_size, &size))
		return NULL;
	if (size > PY_SSIZE_T_MAX) {
		PyErr_SetString(PyExc_OverflowError, "size is larger than a bytes object can be");
		return NULL;
	}
	if (!range_ok(p, size))
		return NULL;
	out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
	if (!out || !size)
		return out;
	r = vm_read(PyBytes_AS_STRING(out), p, size);
	if (r < 0)	/* no process_vm_readv: range_ok probed through a pipe */
		memcpy(PyBytes_AS_STRING(out), p, size);
	else if (r == 0) {
		Py_DECREF(out);
		PyErr_Format(PyExc_ValueError, "%zu bytes at %p are not readable host memory", size, p);
		return NULL;
	}
	return out;
}

/* The address of @obj's buffer; warns when it is not C-contiguous. */
static PyObject *buffer_address(PyObject *obj, const char *fn)
{
	Py_buffer view;
	PyObject *res;

	if (PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO) < 0) {
		PyErr_Clear();
		PyErr_Format(PyExc_ValueError, "%s needs a numpy.ndarray (or another buffer), not %.100s",
			     fn, Py_TYPE(obj)->tp_name);
		return NULL;
	}
	if (!PyBuffer_IsContiguous(&view, 'C') &&
	    PyErr_WarnEx(PyExc_RuntimeWarning,
			 "the array is not C-contiguous: copies from its address take other bytes "
			 "than its elements (use acl.util.numpy_contiguous_to_ptr)", 2) < 0) {
		PyBuffer_Release(&view);
		return NULL;
	}
	res = PyLong_FromVoidPtr(view.buf);
	PyBuffer_Release(&view);
	return res;
}

/* ptr = acl.util.numpy_to_ptr(array) */
static PyObject *py_numpy_to_ptr(PyObject *self, PyObject *args)
{
	PyObject *obj;

	(void)self;
	if (!PyArg_ParseTuple(args, "O:numpy_to_ptr", &obj))
		return NULL;
	return buffer_address(obj, "numpy_to_ptr");
}

/* ptr, array = acl.util.numpy_contiguous_to_ptr(array) */
static PyObject *py_numpy_contiguous_to_ptr(PyObject *self, PyObject *args)
{
	PyObject *obj, *np, *arr, *ptr, *res;

	(void)self;
	if (!PyArg_ParseTuple(args, "O:numpy_contiguous_to_ptr", &obj))
		return NULL;
	np = PyImport_ImportModule("numpy");
	if (!np)
		return NULL;
	arr = PyObject_CallMethod(np, "ascontiguousarray", "O", obj);
	Py_DECREF(np);
	if (!arr)
		return NULL;
	ptr = buffer_address(arr, "numpy_contiguous_to_ptr");
	if (!ptr) {
		Py_DECREF(arr);
		return NULL;
	}
	res = PyTuple_Pack(2, ptr, arr);
	Py_DECREF(ptr);
	Py_DECREF(arr);
	return res;
}

/*
 * numpy's type numbers (the NPY_TYPES enumeration of its C API, which
 * pyACL's ptr_to_numpy takes) as type characters.  7/8 are C long, 9/10
 * long long: both 64 bits on Linux.
 */
static const char *npy_typechar(int t)
{
	static const char *const chars[] = {
		[0] = "?", [1] = "b", [2] = "B", [3] = "h", [4] = "H", [5] = "i", [6] = "I",
		[7] = "l", [8] = "L", [9] = "q", [10] = "Q", [11] = "f", [12] = "d",
		[13] = "g", [14] = "F", [15] = "D", [16] = "G", [23] = "e",
	};

	if (t < 0 || t >= (int)(sizeof(chars) / sizeof(chars[0])))
		return NULL;
	return chars[t];
}

/* array = acl.util.ptr_to_numpy(ptr, shape, npy_type) */
static PyObject *py_ptr_to_numpy(PyObject *self, PyObject *args)
{
	PyObject *pshape, *shape = NULL, *np = NULL, *dtype = NULL, *mv = NULL, *flat = NULL;
	PyObject *res = NULL, *item;
	const char *tc;
	size_t nbytes, itemsize, dim;
	Py_ssize_t i, nd;
	bool empty = false;
	long isz;
	void *p;
	int type;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&Oi:ptr_to_numpy", pyacl_conv_ptr, &p, &pshape, &type))
		return NULL;
	tc = npy_typechar(type);
	if (!tc) {
		PyErr_Format(PyExc_ValueError, "%d is not a numpy type number this module knows", type);
		return NULL;
	}
	if (!PyTuple_Check(pshape) && !PyList_Check(pshape)) {
		PyErr_SetString(PyExc_TypeError, "shape must be a tuple of ints");
		return NULL;
	}
	shape = PySequence_Tuple(pshape);
	if (!shape)
		return NULL;
	np = PyImport_ImportModule("numpy");
	if (!np)
		goto out;
	dtype = PyObject_CallMethod(np, "dtype", "s", tc);
	if (!dtype)
		goto out;
	item = PyObject_GetAttrString(dtype, "itemsize");
	if (!item)
		goto out;
	isz = PyLong_AsLong(item);
	Py_DECREF(item);
	if (isz <= 0) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_ValueError, "bad item size");
		goto out;
	}
	itemsize = (size_t)isz;
	nbytes = itemsize;
	nd = PyTuple_GET_SIZE(shape);
	for (i = 0; i < nd; i++) {
		if (!pyacl_conv_size(PyTuple_GET_ITEM(shape, i), &dim))
			goto out;
		if (!dim)
			empty = true;	/* no memory is read; still check the others */
		else if (nbytes > PY_SSIZE_T_MAX / dim) {
			PyErr_SetString(PyExc_OverflowError, "the shape's size overflows");
			goto out;
		} else
			nbytes *= dim;
	}
	if (empty) {
		res = PyObject_CallMethod(np, "empty", "OO", shape, dtype);
		goto out;
	}
	if (!range_ok(p, nbytes))
		goto out;
	mv = PyMemoryView_FromMemory(p, (Py_ssize_t)nbytes, PyBUF_WRITE);
	if (!mv)
		goto out;
	flat = PyObject_CallMethod(np, "frombuffer", "OO", mv, dtype);
	if (!flat)
		goto out;
	res = PyObject_CallMethod(flat, "reshape", "O", shape);
out:
	Py_XDECREF(flat);
	Py_XDECREF(mv);
	Py_XDECREF(dtype);
	Py_XDECREF(np);
	Py_XDECREF(shape);
	return res;
}

PyMethodDef pyacl_util_methods[] = {
	{ "bytes_to_ptr", py_bytes_to_ptr, METH_VARARGS, "ptr = bytes_to_ptr(data)" },
	{ "ptr_to_bytes", py_ptr_to_bytes, METH_VARARGS, "data = ptr_to_bytes(ptr, size)" },
	{ "numpy_to_ptr", py_numpy_to_ptr, METH_VARARGS, "ptr = numpy_to_ptr(array)" },
	{ "numpy_contiguous_to_ptr", py_numpy_contiguous_to_ptr, METH_VARARGS,
	  "ptr, array = numpy_contiguous_to_ptr(array)" },
	{ "ptr_to_numpy", py_ptr_to_numpy, METH_VARARGS,
	  "array = ptr_to_numpy(ptr, shape, npy_type)" },
	{ NULL, NULL, 0, NULL }
};
