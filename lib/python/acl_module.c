// SPDX-License-Identifier: MIT
/*
 * acl_module.c - the acl module: acl.init, acl.finalize and the error
 * message, the submodules acl.rt and acl.util, and the ACL_* constants.
 *
 * pyACL is one extension module whose submodules are attributes of it and
 * entries of sys.modules, so "import acl" then "acl.rt.malloc" works, and
 * so does "from acl import rt"; this one is built the same way.
 */
#include "pyacl.h"

/* ret = acl.init([config_path]) */
static PyObject *py_init(PyObject *self, PyObject *args)
{
	const char *path = NULL;
	aclError ret;

	(void)self;
	if (!PyArg_ParseTuple(args, "|z:init", &path))
		return NULL;
	PYACL_CALL(ret, aclInit(path));
	return pyacl_ret(ret);
}

/* ret = acl.finalize() */
static PyObject *py_finalize(PyObject *self, PyObject *args)
{
	aclError ret;

	(void)self;
	(void)args;
	PYACL_CALL(ret, aclFinalize());
	return pyacl_ret(ret);
}

/* msg = acl.get_recent_err_msg(): the calling thread's last failure, in words */
static PyObject *py_get_recent_err_msg(PyObject *self, PyObject *args)
{
	const char *m = aclGetRecentErrMsg();

	(void)self;
	(void)args;
	return PyUnicode_DecodeUTF8(m ? m : "", m ? (Py_ssize_t)strlen(m) : 0, "replace");
}

/* name = acl.get_soc_name() (None before a device is set) */
static PyObject *py_get_soc_name(PyObject *self, PyObject *args)
{
	const char *name = aclrtGetSocName();

	(void)self;
	(void)args;
	if (!name)
		Py_RETURN_NONE;
	return PyUnicode_FromString(name);
}

static PyMethodDef acl_methods[] = {
	{ "init", py_init, METH_VARARGS, "ret = init([config_path]): aclInit" },
	{ "finalize", py_finalize, METH_NOARGS, "ret = finalize(): aclFinalize" },
	{ "get_recent_err_msg", py_get_recent_err_msg, METH_NOARGS,
	  "msg = get_recent_err_msg(): aclGetRecentErrMsg" },
	{ "get_soc_name", py_get_soc_name, METH_NOARGS, "name = get_soc_name(): aclrtGetSocName" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef acl_module = {
	PyModuleDef_HEAD_INIT, "acl",
	"CANN's pyACL interface (acl, acl.rt, acl.util) on libacl_rt.", -1, acl_methods,
	NULL, NULL, NULL, NULL
};

static struct PyModuleDef rt_module = {
	PyModuleDef_HEAD_INIT, "acl.rt", "The runtime: devices, contexts, streams, events, memory, kernels.",
	-1, NULL, NULL, NULL, NULL, NULL
};

static struct PyModuleDef util_module = {
	PyModuleDef_HEAD_INIT, "acl.util", "Pointers to and from bytes and numpy arrays.",
	-1, NULL, NULL, NULL, NULL, NULL
};

/* Make @def's module, fill it from @tables, hang it on @parent as @name. */
static int add_submodule(PyObject *parent, const char *name, struct PyModuleDef *def,
			 PyMethodDef **tables)
{
	PyObject *sub = PyModule_Create(def), *modules;

	if (!sub)
		return -1;
	for (; *tables; tables++) {
		if (PyModule_AddFunctions(sub, *tables) < 0)
			goto fail;
	}
	modules = PyImport_GetModuleDict();	/* borrowed */
	if (PyDict_SetItemString(modules, def->m_name, sub) < 0)
		goto fail;
	if (PyModule_AddObjectRef(parent, name, sub) < 0)
		goto fail;
	Py_DECREF(sub);
	return 0;
fail:
	Py_DECREF(sub);
	return -1;
}

PyMODINIT_FUNC PyInit_acl(void)
{
	static PyMethodDef *rt_tables[] = {
		pyacl_device_methods, pyacl_stream_methods, pyacl_memory_methods,
		pyacl_kernel_methods, NULL
	};
	static PyMethodDef *util_tables[] = { pyacl_util_methods, NULL };
	PyObject *m = PyModule_Create(&acl_module);

	if (!m)
		return NULL;
	if (add_submodule(m, "rt", &rt_module, rt_tables) < 0 ||
	    add_submodule(m, "util", &util_module, util_tables) < 0 ||
	    pyacl_add_constants(m) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
