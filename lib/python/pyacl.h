/* SPDX-License-Identifier: MIT */
/*
 * pyacl.h - what the files of the acl Python extension share.
 *
 * The extension is one module, acl (acl.init, acl.finalize, ...), with the
 * submodules acl.rt (the runtime) and acl.util (pointer helpers), as
 * pyACL is.  Its calling conventions are pyACL's: every handle and pointer
 * is a Python int; a function that produces values returns them followed by
 * the CANN error code, "value, ret = acl.rt.f(...)", and one that produces
 * nothing returns the code alone.  Arguments of the wrong type or out of
 * their C type's range raise TypeError or OverflowError (pyACL raises on
 * arguments it cannot parse too); everything else is libaclrt's to judge,
 * and its error code is returned.
 */
#ifndef ASCEND_PYACL_H
#define ASCEND_PYACL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "acl/acl.h"

/*
 * Call libaclrt without the GIL: copies, synchronisations and launches may
 * wait for the device, and other Python threads must run meanwhile.  The
 * arguments are plain C values by then, so nothing Python-owned is touched.
 */
#define PYACL_CALL(ret, call)						\
	do {								\
		Py_BEGIN_ALLOW_THREADS					\
		(ret) = (call);						\
		Py_END_ALLOW_THREADS					\
	} while (0)

/*
 * "O&" converters for PyArg_ParseTuple: any object with __index__ (int,
 * numpy integers), range-checked for the C type.
 */
int pyacl_conv_ptr(PyObject *obj, void *out);	/* void **: 0 .. UINTPTR_MAX */
int pyacl_conv_size(PyObject *obj, void *out);	/* size_t *: 0 .. SIZE_MAX */
int pyacl_conv_u32(PyObject *obj, void *out);	/* uint32_t *: 0 .. UINT32_MAX */

/* A list (or tuple) of ints as a new C array of @n pointers / sizes. */
int pyacl_ptr_list(PyObject *seq, const char *what, size_t n, void ***out);
int pyacl_size_list(PyObject *seq, const char *what, size_t n, size_t **out);

/* Return values: "ret", "(value, ret)". */
PyObject *pyacl_ret(aclError ret);
PyObject *pyacl_ptr_ret(const void *value, aclError ret);
PyObject *pyacl_size_ret(size_t value, aclError ret);
PyObject *pyacl_int_ret(long long value, aclError ret);

/* The method tables, one per file; NULL-terminated. */
extern PyMethodDef pyacl_device_methods[];	/* acl_rt_device.c: devices, contexts */
extern PyMethodDef pyacl_stream_methods[];	/* acl_rt_stream.c: streams, events */
extern PyMethodDef pyacl_memory_methods[];	/* acl_rt_memory.c: allocation, copies */
extern PyMethodDef pyacl_kernel_methods[];	/* acl_rt_kernel.c: kernel images, launch */
extern PyMethodDef pyacl_util_methods[];	/* acl_util.c: acl.util */

/* acl_constants.c: the ACL_* values pyACL programs pass, as module attributes. */
int pyacl_add_constants(PyObject *module);

#endif /* ASCEND_PYACL_H */
