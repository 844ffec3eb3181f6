// SPDX-License-Identifier: MIT
/*
 * acl_rt_memory.c - acl.rt: device and pinned host memory, copies, fills,
 * memory information.
 *
 * Pointers are ints, as in pyACL: a host buffer is passed by its address
 * (acl.util.bytes_to_ptr, acl.util.numpy_to_ptr, acl.rt.malloc_host), and
 * the caller keeps the object alive until the copy has finished.
 */
#include "pyacl.h"

#include <stdbool.h>

/* ---- allocation ------------------------------------------------------------ */

/* dev_ptr, ret = acl.rt.malloc(size, policy) */
static PyObject *py_malloc(PyObject *self, PyObject *args)
{
	void *p = NULL;
	size_t size;
	int policy;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&i:malloc", pyacl_conv_size, &size, &policy))
		return NULL;
	PYACL_CALL(ret, aclrtMalloc(&p, size, (aclrtMemMallocPolicy)policy));
	return pyacl_ptr_ret(p, ret);
}

/* ret = acl.rt.free(dev_ptr) */
static PyObject *py_free(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:free", pyacl_conv_ptr, &p))
		return NULL;
	PYACL_CALL(ret, aclrtFree(p));
	return pyacl_ret(ret);
}

/* host_ptr, ret = acl.rt.malloc_host(size) */
static PyObject *py_malloc_host(PyObject *self, PyObject *args)
{
	void *p = NULL;
	size_t size;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:malloc_host", pyacl_conv_size, &size))
		return NULL;
	PYACL_CALL(ret, aclrtMallocHost(&p, size));
	return pyacl_ptr_ret(p, ret);
}

/* ret = acl.rt.free_host(host_ptr) */
static PyObject *py_free_host(PyObject *self, PyObject *args)
{
	void *p;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:free_host", pyacl_conv_ptr, &p))
		return NULL;
	PYACL_CALL(ret, aclrtFreeHost(p));
	return pyacl_ret(ret);
}

/* free, total, ret = acl.rt.get_mem_info(attr) */
static PyObject *py_get_mem_info(PyObject *self, PyObject *args)
{
	size_t free_b = 0, total = 0;
	int attr;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "i:get_mem_info", &attr))
		return NULL;
	PYACL_CALL(ret, aclrtGetMemInfo((aclrtMemAttr)attr, &free_b, &total));
	return Py_BuildValue("(KKi)", (unsigned long long)free_b, (unsigned long long)total,
			     (int)ret);
}

/* ---- copies and fills --------------------------------------------------------- */

/* ret = acl.rt.memcpy(dst, dest_max, src, count, kind) */
static PyObject *py_memcpy(PyObject *self, PyObject *args)
{
	void *dst, *src;
	size_t max, count;
	int kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&i:memcpy", pyacl_conv_ptr, &dst, pyacl_conv_size,
			      &max, pyacl_conv_ptr, &src, pyacl_conv_size, &count, &kind))
		return NULL;
	PYACL_CALL(ret, aclrtMemcpy(dst, max, src, count, (aclrtMemcpyKind)kind));
	return pyacl_ret(ret);
}

/* ret = acl.rt.memcpy_async(dst, dest_max, src, count, kind, stream) */
static PyObject *py_memcpy_async(PyObject *self, PyObject *args)
{
	void *dst, *src, *stream;
	size_t max, count;
	int kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&iO&:memcpy_async", pyacl_conv_ptr, &dst,
			      pyacl_conv_size, &max, pyacl_conv_ptr, &src, pyacl_conv_size, &count,
			      &kind, pyacl_conv_ptr, &stream))
		return NULL;
	PYACL_CALL(ret, aclrtMemcpyAsync(dst, max, src, count, (aclrtMemcpyKind)kind, stream));
	return pyacl_ret(ret);
}

/* ret = acl.rt.memset(dev_ptr, max_count, value, count) */
static PyObject *py_memset(PyObject *self, PyObject *args)
{
	void *p;
	size_t max, count;
	int32_t value;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&iO&:memset", pyacl_conv_ptr, &p, pyacl_conv_size, &max,
			      &value, pyacl_conv_size, &count))
		return NULL;
	PYACL_CALL(ret, aclrtMemset(p, max, value, count));
	return pyacl_ret(ret);
}

/* ret = acl.rt.memset_async(dev_ptr, max_count, value, count, stream) */
static PyObject *py_memset_async(PyObject *self, PyObject *args)
{
	void *p, *stream;
	size_t max, count;
	int32_t value;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&iO&O&:memset_async", pyacl_conv_ptr, &p,
			      pyacl_conv_size, &max, &value, pyacl_conv_size, &count,
			      pyacl_conv_ptr, &stream))
		return NULL;
	PYACL_CALL(ret, aclrtMemsetAsync(p, max, value, count, stream));
	return pyacl_ret(ret);
}

/* ret = acl.rt.memcpy2d(dst, dpitch, src, spitch, width, height, kind) */
static PyObject *py_memcpy2d(PyObject *self, PyObject *args)
{
	void *dst, *src;
	size_t dpitch, spitch, width, height;
	int kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&i:memcpy2d", pyacl_conv_ptr, &dst,
			      pyacl_conv_size, &dpitch, pyacl_conv_ptr, &src, pyacl_conv_size,
			      &spitch, pyacl_conv_size, &width, pyacl_conv_size, &height, &kind))
		return NULL;
	PYACL_CALL(ret, aclrtMemcpy2d(dst, dpitch, src, spitch, width, height,
				      (aclrtMemcpyKind)kind));
	return pyacl_ret(ret);
}

/* ret = acl.rt.memcpy2d_async(dst, dpitch, src, spitch, width, height, kind, stream) */
static PyObject *py_memcpy2d_async(PyObject *self, PyObject *args)
{
	void *dst, *src, *stream;
	size_t dpitch, spitch, width, height;
	int kind;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&O&O&O&O&O&iO&:memcpy2d_async", pyacl_conv_ptr, &dst,
			      pyacl_conv_size, &dpitch, pyacl_conv_ptr, &src, pyacl_conv_size,
			      &spitch, pyacl_conv_size, &width, pyacl_conv_size, &height, &kind,
			      pyacl_conv_ptr, &stream))
		return NULL;
	PYACL_CALL(ret, aclrtMemcpy2dAsync(dst, dpitch, src, spitch, width, height,
					   (aclrtMemcpyKind)kind, stream));
	return pyacl_ret(ret);
}

/* ---- batch copies ----------------------------------------------------------- */

/* {"id": int, "type": int} as an aclrtMemLocation. */
static int get_location(PyObject *attr, const char *key, aclrtMemLocation *loc)
{
	PyObject *d = PyDict_GetItemString(attr, key), *k, *v;	/* borrowed */
	Py_ssize_t pos = 0;
	long type;

	if (!d || !PyDict_Check(d)) {
		PyErr_Format(PyExc_ValueError, "a batch attribute needs \"%s\": {\"id\": ..., \"type\": ...}",
			     key);
		return 0;
	}
	while (PyDict_Next(d, &pos, &k, &v)) {
		if (!PyUnicode_Check(k) || (PyUnicode_CompareWithASCIIString(k, "id") &&
					    PyUnicode_CompareWithASCIIString(k, "type"))) {
			PyErr_Format(PyExc_ValueError, "\"%s\" has an unknown key %R (id, type)", key, k);
			return 0;
		}
	}
	k = PyDict_GetItemString(d, "id");
	v = PyDict_GetItemString(d, "type");
	if (!k || !v) {
		PyErr_Format(PyExc_ValueError, "\"%s\" needs both \"id\" and \"type\"", key);
		return 0;
	}
	if (!pyacl_conv_u32(k, &loc->id))
		return 0;
	type = PyLong_AsLong(v);
	if (type == -1 && PyErr_Occurred())
		return 0;
	if (type < INT32_MIN || type > INT32_MAX) {
		PyErr_Format(PyExc_OverflowError, "\"%s\" type %ld is out of range", key, type);
		return 0;
	}
	loc->type = (aclrtMemLocationType)type;
	return 1;
}

/* A list of {"dstLoc": {...}, "srcLoc": {...}} dicts as aclrtMemcpyBatchAttr[n]. */
static int get_batch_attrs(PyObject *seq, size_t n, aclrtMemcpyBatchAttr **out)
{
	PyObject *fast, *item, *k, *v;
	aclrtMemcpyBatchAttr *a;
	Py_ssize_t pos;
	size_t i;

	if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
		PyErr_SetString(PyExc_TypeError, "attrs must be a list of dicts");
		return 0;
	}
	fast = PySequence_Fast(seq, "attrs");
	if (!fast)
		return 0;
	if ((size_t)PySequence_Fast_GET_SIZE(fast) != n) {
		PyErr_Format(PyExc_ValueError, "attrs has %zd entries, num_attrs says %zu",
			     PySequence_Fast_GET_SIZE(fast), n);
		Py_DECREF(fast);
		return 0;
	}
	a = PyMem_Calloc(n ? n : 1, sizeof(*a));	/* rsv stays zero */
	if (!a) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return 0;
	}
	for (i = 0; i < n; i++) {
		item = PySequence_Fast_GET_ITEM(fast, i);
		if (!PyDict_Check(item)) {
			PyErr_Format(PyExc_TypeError, "attrs[%zu] must be a dict", i);
			goto fail;
		}
		pos = 0;
		while (PyDict_Next(item, &pos, &k, &v)) {
			if (!PyUnicode_Check(k) || (PyUnicode_CompareWithASCIIString(k, "dstLoc") &&
						    PyUnicode_CompareWithASCIIString(k, "srcLoc"))) {
				PyErr_Format(PyExc_ValueError,
					     "attrs[%zu] has an unknown key %R (dstLoc, srcLoc)", i, k);
				goto fail;
			}
		}
		if (!get_location(item, "dstLoc", &a[i].dstLoc) ||
		    !get_location(item, "srcLoc", &a[i].srcLoc))
			goto fail;
	}
	Py_DECREF(fast);
	*out = a;
	return 1;
fail:
	PyMem_Free(a);
	Py_DECREF(fast);
	return 0;
}

/*
 * fail_index, ret = acl.rt.memcpy_batch(dsts, dest_maxs, srcs, sizes, num_batches,
 *                                      attrs, attrs_indexes, num_attrs[, stream])
 * The lists must have num_batches / num_attrs entries; fail_index is
 * SIZE_MAX when libaclrt names no entry.  With @stream: aclrtMemcpyBatchAsync.
 */
static PyObject *batch(PyObject *args, bool async)
{
	PyObject *pdsts, *pmaxs, *psrcs, *psizes, *pattrs, *pidx;
	void **dsts = NULL, **srcs = NULL, *stream = NULL;
	size_t nb, na, *maxs = NULL, *sizes = NULL, *idx = NULL, fail = SIZE_MAX;
	aclrtMemcpyBatchAttr *attrs = NULL;
	PyObject *res = NULL;
	aclError ret;
	int ok;

	if (async)
		ok = PyArg_ParseTuple(args, "OOOOO&OOO&O&:memcpy_batch_async", &pdsts, &pmaxs,
				      &psrcs, &psizes, pyacl_conv_size, &nb, &pattrs, &pidx,
				      pyacl_conv_size, &na, pyacl_conv_ptr, &stream);
	else
		ok = PyArg_ParseTuple(args, "OOOOO&OOO&:memcpy_batch", &pdsts, &pmaxs, &psrcs,
				      &psizes, pyacl_conv_size, &nb, &pattrs, &pidx,
				      pyacl_conv_size, &na);
	if (!ok)
		return NULL;
	if (pyacl_ptr_list(pdsts, "dsts", nb, &dsts) &&
	    pyacl_size_list(pmaxs, "dest_maxs", nb, &maxs) &&
	    pyacl_ptr_list(psrcs, "srcs", nb, &srcs) &&
	    pyacl_size_list(psizes, "sizes", nb, &sizes) &&
	    get_batch_attrs(pattrs, na, &attrs) &&
	    pyacl_size_list(pidx, "attrs_indexes", na, &idx)) {
		if (async)
			PYACL_CALL(ret, aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, nb, attrs, idx,
							      na, &fail, stream));
		else
			PYACL_CALL(ret, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, nb, attrs, idx,
							 na, &fail));
		res = pyacl_size_ret(fail, ret);
	}
	PyMem_Free(dsts);
	PyMem_Free(maxs);
	PyMem_Free(srcs);
	PyMem_Free(sizes);
	PyMem_Free(attrs);
	PyMem_Free(idx);
	return res;
}

static PyObject *py_memcpy_batch(PyObject *self, PyObject *args)
{
	(void)self;
	return batch(args, false);
}

static PyObject *py_memcpy_batch_async(PyObject *self, PyObject *args)
{
	(void)self;
	return batch(args, true);
}

PyMethodDef pyacl_memory_methods[] = {
	{ "malloc", py_malloc, METH_VARARGS, "dev_ptr, ret = malloc(size, policy)" },
	{ "free", py_free, METH_VARARGS, "ret = free(dev_ptr)" },
	{ "malloc_host", py_malloc_host, METH_VARARGS, "host_ptr, ret = malloc_host(size)" },
	{ "free_host", py_free_host, METH_VARARGS, "ret = free_host(host_ptr)" },
	{ "get_mem_info", py_get_mem_info, METH_VARARGS, "free, total, ret = get_mem_info(attr)" },
	{ "memcpy", py_memcpy, METH_VARARGS, "ret = memcpy(dst, dest_max, src, count, kind)" },
	{ "memcpy_async", py_memcpy_async, METH_VARARGS,
	  "ret = memcpy_async(dst, dest_max, src, count, kind, stream)" },
	{ "memset", py_memset, METH_VARARGS, "ret = memset(dev_ptr, max_count, value, count)" },
	{ "memset_async", py_memset_async, METH_VARARGS,
	  "ret = memset_async(dev_ptr, max_count, value, count, stream)" },
	{ "memcpy2d", py_memcpy2d, METH_VARARGS,
	  "ret = memcpy2d(dst, dpitch, src, spitch, width, height, kind)" },
	{ "memcpy2d_async", py_memcpy2d_async, METH_VARARGS,
	  "ret = memcpy2d_async(dst, dpitch, src, spitch, width, height, kind, stream)" },
	{ "memcpy_batch", py_memcpy_batch, METH_VARARGS,
	  "fail_index, ret = memcpy_batch(dsts, dest_maxs, srcs, sizes, num_batches, attrs, "
	  "attrs_indexes, num_attrs)" },
	{ "memcpy_batch_async", py_memcpy_batch_async, METH_VARARGS,
	  "fail_index, ret = memcpy_batch_async(dsts, dest_maxs, srcs, sizes, num_batches, attrs, "
	  "attrs_indexes, num_attrs, stream)" },
	{ NULL, NULL, 0, NULL }
};
