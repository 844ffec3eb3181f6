/* SPDX-License-Identifier: MIT */
/*
 * errmsg.h - per-thread error messages behind aclGetRecentErrMsg().
 *
 * Every failing libaclrt entry point returns through acl_err(), which
 * records a message in words for the calling thread and hands the CANN
 * error code back, so that "return acl_err(...)" is the one way to fail.
 */
#ifndef LIBACLRT_ERRMSG_H
#define LIBACLRT_ERRMSG_H

#include "acl/acl_base.h"

/* Record "<func>: <message>" for this thread and return @code. */
aclError acl_err_at(const char *func, aclError code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define acl_err(code, ...) acl_err_at(__func__, (code), __VA_ARGS__)

/*
 * The CANN code for a driver call that failed with errno @e, @code unless
 * the device was removed (ENODEV: hot-unplug, Documentation/usage.rst):
 * that is ACL_ERROR_RT_LOST_HEARTBEAT, CANN's "the device is gone".
 */
aclError acl_drv_code(int e, aclError code);

/* The error every not-yet-implemented aclrt* function returns. */
#define acl_unsupported()						\
	acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,			\
		"not supported by this libaclrt (see Documentation/"	\
		"userspace/unsupported.rst)")

#endif /* LIBACLRT_ERRMSG_H */
