// SPDX-License-Identifier: MIT
/*
 * errmsg.c - per-thread error message and last-error code.
 *
 * Everything here is thread-local, so no locking is needed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define MSG_LEN 1024

/* The message being built and the one last handed out, so the pointer
 * aclGetRecentErrMsg() returned stays valid until its next call. */
static __thread char t_msg[MSG_LEN];
static __thread char t_msg_out[MSG_LEN];
static __thread bool t_have_msg;
static __thread aclError t_last_err;
__thread const char *acl_api_name;

aclError acl_err_at(const char *func, aclError code, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* A helper's name means nothing to the caller: use the API's. */
	if (strncmp(func, "acl", 3) != 0 && acl_api_name)
		func = acl_api_name;
	n = snprintf(t_msg, sizeof(t_msg), "%s: ", func);
	if (n < 0 || n >= MSG_LEN)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(t_msg + n, sizeof(t_msg) - n, fmt, ap);
	va_end(ap);
	t_have_msg = true;
	t_last_err = code;
	return code;
}

/* Returns the message of the thread's last failure, once; NULL if none. */
const char *aclGetRecentErrMsg(void)
{
	if (!t_have_msg)
		return NULL;
	memcpy(t_msg_out, t_msg, sizeof(t_msg_out));
	t_have_msg = false;
	return t_msg_out;
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
	(void)level;	/* ACL_RT_THREAD_LEVEL is the only level */
	return t_last_err;
}

aclError aclrtGetLastError(aclrtLastErrLevel level)
{
	aclError e = t_last_err;

	(void)level;
	t_last_err = ACL_SUCCESS;
	return e;
}
