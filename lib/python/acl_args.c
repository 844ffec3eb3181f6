// SPDX-License-Identifier: MIT
/*
 * acl_args.c - Python ints to C pointers and sizes and back, range-checked.
 *
 * A pointer or size that does not fit its C type raises OverflowError
 * rather than being truncated: a truncated pointer would name some other
 * memory, and libaclrt could not tell.
 */
#include "pyacl.h"

/* @obj's __index__ as an unsigned 64-bit value no larger than @max. */
static int index_u64(PyObject *obj, unsigned long long max, const char *what,
		     unsigned long long *out)
{
	PyObject *idx = PyNumber_Index(obj);
	unsigned long long v;

	if (!idx)
		return 0;
	v = PyLong_AsUnsignedLongLong(idx);
	Py_DECREF(idx);
	if (v == (unsigned long long)-1 && PyErr_Occurred()) {
		if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
			PyErr_Clear();
			PyErr_Format(PyExc_OverflowError, "%s must be from 0 to %llu", what, max);
		}
		return 0;
	}
	if (v > max) {
		PyErr_Format(PyExc_OverflowError, "%s must be from 0 to %llu", what, max);
		return 0;
	}
	*out = v;
	return 1;
}

int pyacl_conv_ptr(PyObject *obj, void *out)
{
	unsigned long long v;

	if (!index_u64(obj, UINTPTR_MAX, "a pointer", &v))
		return 0;
	*(void **)out = (void *)(uintptr_t)v;
	return 1;
}

int pyacl_conv_size(PyObject *obj, void *out)
{
	unsigned long long v;

	if (!index_u64(obj, SIZE_MAX, "a size", &v))
		return 0;
	*(size_t *)out = (size_t)v;
	return 1;
}

int pyacl_conv_u32(PyObject *obj, void *out)
{
	unsigned long long v;

	if (!index_u64(obj, UINT32_MAX, "a 32-bit unsigned value", &v))
		return 0;
	*(uint32_t *)out = (uint32_t)v;
	return 1;
}

/* @seq must be a list or tuple of exactly @n items. */
static PyObject *fast_seq(PyObject *seq, const char *what, size_t n)
{
	PyObject *fast;

	if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
		PyErr_Format(PyExc_TypeError, "%s must be a list of ints", what);
		return NULL;
	}
	fast = PySequence_Fast(seq, what);
	if (fast && (size_t)PySequence_Fast_GET_SIZE(fast) != n) {
		PyErr_Format(PyExc_ValueError, "%s has %zd entries, the count says %zu", what,
			     PySequence_Fast_GET_SIZE(fast), n);
		Py_DECREF(fast);
		return NULL;
	}
	return fast;
}

int pyacl_ptr_list(PyObject *seq, const char *what, size_t n, void ***out)
{
	PyObject *fast = fast_seq(seq, what, n);
	void **v;
	size_t i;

	if (!fast)
		return 0;
	v = PyMem_Calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!pyacl_conv_ptr(PySequence_Fast_GET_ITEM(fast, i), &v[i])) {
			PyMem_Free(v);
			Py_DECREF(fast);
			return 0;
		}
	}
	Py_DECREF(fast);
	*out = v;
	return 1;
}

int pyacl_size_list(PyObject *seq, const char *what, size_t n, size_t **out)
{
	PyObject *fast = fast_seq(seq, what, n);
	size_t *v, i;

	if (!fast)
		return 0;
	v = PyMem_Calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!pyacl_conv_size(PySequence_Fast_GET_ITEM(fast, i), &v[i])) {
			PyMem_Free(v);
			Py_DECREF(fast);
			return 0;
		}
	}
	Py_DECREF(fast);
	*out = v;
	return 1;
}

PyObject *pyacl_ret(aclError ret)
{
	return PyLong_FromLong((long)ret);
}

PyObject *pyacl_ptr_ret(const void *value, aclError ret)
{
	return Py_BuildValue("(Ki)", (unsigned long long)(uintptr_t)value, (int)ret);
}

PyObject *pyacl_size_ret(size_t value, aclError ret)
{
	return Py_BuildValue("(Ki)", (unsigned long long)value, (int)ret);
}

PyObject *pyacl_int_ret(long long value, aclError ret)
{
	return Py_BuildValue("(Li)", value, (int)ret);
}
