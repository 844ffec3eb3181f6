// SPDX-License-Identifier: MIT
/*
 * acl_constants.c - the ACL_* values pyACL programs pass, as attributes of
 * the acl module (acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_SUCCESS, ...).
 *
 * pyACL itself leaves these to the program (its samples define them in a
 * constants file of their own, with the values of CANN's C headers); here
 * they are taken from libaclrt's headers, so they cannot drift.  The error
 * codes are every ACL_* code of acl/acl_base_rt.h and
 * acl/error_codes/rt_error_codes.h, listed by the build into
 * acl_error_names.h; the enumerations are listed below.
 */
#include "pyacl.h"

#define PYACL_CONST(name) { #name, (long long)(name) },

struct pyacl_const {
	const char *name;
	long long value;
};

int pyacl_add_constants(PyObject *module)
{
	/* An automatic array: acl_base_rt.h's codes are const ints, not constant expressions. */
	const struct pyacl_const constants[] = {
		/* aclrtMemcpyKind */
		PYACL_CONST(ACL_MEMCPY_HOST_TO_HOST)
		PYACL_CONST(ACL_MEMCPY_HOST_TO_DEVICE)
		PYACL_CONST(ACL_MEMCPY_DEVICE_TO_HOST)
		PYACL_CONST(ACL_MEMCPY_DEVICE_TO_DEVICE)
		PYACL_CONST(ACL_MEMCPY_DEFAULT)
		PYACL_CONST(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		PYACL_CONST(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		PYACL_CONST(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
		/* aclrtMemMallocPolicy */
		PYACL_CONST(ACL_MEM_MALLOC_HUGE_FIRST)
		PYACL_CONST(ACL_MEM_MALLOC_HUGE_ONLY)
		PYACL_CONST(ACL_MEM_MALLOC_NORMAL_ONLY)
		PYACL_CONST(ACL_MEM_MALLOC_HUGE_FIRST_P2P)
		PYACL_CONST(ACL_MEM_MALLOC_HUGE_ONLY_P2P)
		PYACL_CONST(ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
		PYACL_CONST(ACL_MEM_MALLOC_HUGE1G_ONLY)
		PYACL_CONST(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
		PYACL_CONST(ACL_MEM_TYPE_LOW_BAND_WIDTH)
		PYACL_CONST(ACL_MEM_TYPE_HIGH_BAND_WIDTH)
		PYACL_CONST(ACL_MEM_ACCESS_USER_SPACE_READONLY)
		/* aclrtMemAttr */
		PYACL_CONST(ACL_DDR_MEM)
		PYACL_CONST(ACL_HBM_MEM)
		PYACL_CONST(ACL_DDR_MEM_HUGE)
		PYACL_CONST(ACL_DDR_MEM_NORMAL)
		PYACL_CONST(ACL_HBM_MEM_HUGE)
		PYACL_CONST(ACL_HBM_MEM_NORMAL)
		PYACL_CONST(ACL_DDR_MEM_P2P_HUGE)
		PYACL_CONST(ACL_DDR_MEM_P2P_NORMAL)
		PYACL_CONST(ACL_HBM_MEM_P2P_HUGE)
		PYACL_CONST(ACL_HBM_MEM_P2P_NORMAL)
		PYACL_CONST(ACL_HBM_MEM_HUGE1G)
		PYACL_CONST(ACL_HBM_MEM_P2P_HUGE1G)
		PYACL_CONST(ACL_MEM_NORMAL)
		PYACL_CONST(ACL_MEM_HUGE)
		PYACL_CONST(ACL_MEM_HUGE1G)
		PYACL_CONST(ACL_MEM_P2P_NORMAL)
		PYACL_CONST(ACL_MEM_P2P_HUGE)
		PYACL_CONST(ACL_MEM_P2P_HUGE1G)
		/* aclrtMemLocationType (batch copy attributes) */
		PYACL_CONST(ACL_MEM_LOCATION_TYPE_HOST)
		PYACL_CONST(ACL_MEM_LOCATION_TYPE_DEVICE)
		PYACL_CONST(ACL_MEM_LOCATION_TYPE_UNREGISTERED)
		PYACL_CONST(ACL_MEM_LOCATION_TYPE_MANAGED)
		PYACL_CONST(ACL_MEM_LOCATION_TYPE_HOST_NUMA)
		/* event and stream creation flags */
		PYACL_CONST(ACL_EVENT_SYNC)
		PYACL_CONST(ACL_EVENT_CAPTURE_STREAM_PROGRESS)
		PYACL_CONST(ACL_EVENT_TIME_LINE)
		PYACL_CONST(ACL_EVENT_DEVICE_USE_ONLY)
		PYACL_CONST(ACL_EVENT_EXTERNAL)
		PYACL_CONST(ACL_EVENT_IPC)
		PYACL_CONST(ACL_STREAM_FAST_LAUNCH)
		PYACL_CONST(ACL_STREAM_FAST_SYNC)
		/* aclrtEventRecordedStatus, aclrtStreamStatus, aclrtRunMode */
		PYACL_CONST(ACL_EVENT_RECORDED_STATUS_NOT_READY)
		PYACL_CONST(ACL_EVENT_RECORDED_STATUS_COMPLETE)
		PYACL_CONST(ACL_STREAM_STATUS_COMPLETE)
		PYACL_CONST(ACL_STREAM_STATUS_NOT_READY)
		PYACL_CONST(ACL_DEVICE)
		PYACL_CONST(ACL_HOST)
		/* aclrtBinaryLoadOptionType */
		PYACL_CONST(ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD)
		PYACL_CONST(ACL_RT_BINARY_LOAD_OPT_MAGIC)
		PYACL_CONST(ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE)
		/* error codes (generated from the headers) */
#include "acl_error_names.h"
	};
	size_t i;

	for (i = 0; i < sizeof(constants) / sizeof(constants[0]); i++) {
		PyObject *v = PyLong_FromLongLong(constants[i].value);

		if (!v || PyModule_AddObjectRef(module, constants[i].name, v) < 0) {
			Py_XDECREF(v);
			return -1;
		}
		Py_DECREF(v);
	}
	return 0;
}
