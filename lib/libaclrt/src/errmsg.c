// SPDX-License-Identifier: MIT
/*
 * errmsg.c - per-thread error message and last-error code.
 *
 * Everything here is thread-local, so no locking is needed.
 */
#include <pthread.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MSG_LEN 1024

/* The message being built and the one last handed out, so the pointer
 * aclGetRecentErrMsg() returned stays valid until its next call.  On the
 * heap (per thread, at its first error): 2 KiB of TLS would not fit the
 * static TLS block the initial-exec variables need (ACL_TLS_HOT). */
struct msg_bufs {
	char msg[MSG_LEN];
	char out[MSG_LEN];
};

static ACL_TLS_HOT struct msg_bufs *t_bufs;
static ACL_TLS_HOT bool t_have_msg;
static ACL_TLS_HOT aclError t_last_err;
ACL_TLS_HOT const char *acl_api_name;

static pthread_key_t bufs_key;		/* frees t_bufs at thread exit */
static pthread_once_t bufs_once = PTHREAD_ONCE_INIT;

static void bufs_free(void *p)
{
	free(p);
	t_bufs = NULL;
	t_have_msg = false;
}

static void bufs_key_init(void)
{
	pthread_key_create(&bufs_key, bufs_free);
}

static struct msg_bufs *bufs(void)
{
	if (!t_bufs) {
		pthread_once(&bufs_once, bufs_key_init);
		t_bufs = malloc(sizeof(*t_bufs));
		if (t_bufs)
			pthread_setspecific(bufs_key, t_bufs);
	}
	return t_bufs;
}

aclError acl_drv_code(int e, aclError code)
{
	return e == ENODEV ? ACL_ERROR_RT_LOST_HEARTBEAT : code;
}

aclError acl_err_at(const char *func, aclError code, const char *fmt, ...)
{
	struct msg_bufs *b = bufs();
	va_list ap;
	int n;

	t_last_err = code;
	if (!b) {
		t_have_msg = false;	/* out of memory: the code alone */
		return code;
	}
	/* A helper's name means nothing to the caller: use the API's. */
	if (strncmp(func, "acl", 3) != 0 && acl_api_name)
		func = acl_api_name;
	n = snprintf(b->msg, sizeof(b->msg), "%s: ", func);
	if (n < 0 || n >= MSG_LEN)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(b->msg + n, sizeof(b->msg) - n, fmt, ap);
	va_end(ap);
	t_have_msg = true;
	return code;
}

/* Returns the message of the thread's last failure, once; NULL if none. */
const char *aclGetRecentErrMsg(void)
{
	if (!t_have_msg || !t_bufs)
		return NULL;
	memcpy(t_bufs->out, t_bufs->msg, sizeof(t_bufs->out));
	t_have_msg = false;
	return t_bufs->out;
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
