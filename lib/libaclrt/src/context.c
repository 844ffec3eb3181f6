// SPDX-License-Identifier: MIT
/*
 * context.c - CANN contexts: aclrtCreateContext, aclrtDestroyContext,
 * aclrtSetCurrentContext, aclrtGetCurrentContext,
 * aclrtCtxGetCurrentDefaultStream.
 *
 * Every device has a default context (acl_device.defctx), the one
 * aclrtSetDevice makes current; all threads that set the device share it
 * and its default stream.  An explicit context holds a reference on its
 * device (as aclrtSetDevice does, so the device stays open until the
 * context is destroyed), has its own default stream (created on first
 * use), and becomes the calling thread's current context.  The current
 * context is per thread; setting one switches the thread's device too.
 *
 * A force reset of the device (or aclFinalize) kills the streams of its
 * explicit contexts and leaves the contexts as dead handles that only
 * aclrtDestroyContext accepts.
 */
#include <stdlib.h>

#include "internal.h"

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
	struct acl_device *d;
	struct acl_context *c;
	aclError ret;

	API_ENTER();
	if (!context)
		return acl_err(ACL_ERROR_INVALID_PARAM, "context is NULL");
	d = dev_by_id(deviceId);
	if (!d)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "device id %d is invalid: %d Ascend device(s) found", deviceId,
			       dev_count());
	c = calloc(1, sizeof(*c));
	if (!c)
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	c->dev = d;
	dev_lock();
	ret = dev_retain_locked(d);
	if (ret) {
		dev_unlock();
		free(c);
		return ret;
	}
	c->next = d->contexts;
	d->contexts = c;
	handle_add(c, H_CONTEXT);
	ctx_set_current(c);
	dev_unlock();
	*context = c;
	return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context)
{
	struct acl_context *c = context, **pp;
	struct acl_device *d;
	bool dead;

	API_ENTER();
	if (!context)
		return acl_err(ACL_ERROR_INVALID_PARAM, "context is NULL");
	dev_lock();
	if (!handle_ok(c, H_CONTEXT)) {
		dev_unlock();
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "context %p is not a context from aclrtCreateContext (a default context cannot be destroyed; use aclrtResetDevice)",
			       context);
	}
	d = c->dev;
	pthread_rwlock_wrlock(&d->rw);
	handle_del(c);
	dead = c->dead;
	if (!dead && c->stream) {
		pthread_mutex_lock(&d->lock);
		stream_kill(c->stream, false);	/* waits for its work */
		pthread_mutex_unlock(&d->lock);
		c->stream = NULL;
	}
	for (pp = &d->contexts; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	pthread_rwlock_unlock(&d->rw);
	if (!dead)
		dev_unref_locked(d);
	if (ctx_current() == c)
		ctx_set_current(NULL);
	dev_unlock();
	free(c);
	return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context)
{
	struct acl_context *c = context;

	API_ENTER();
	if (!context)
		return acl_err(ACL_ERROR_INVALID_PARAM, "context is NULL");
	dev_lock();
	if (!ctx_valid(c)) {
		dev_unlock();
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "context %p is not a live context (destroyed, its device reset, or never created)",
			       context);
	}
	ctx_set_current(c);
	dev_unlock();
	return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext *context)
{
	struct acl_device *d;
	aclError ret;

	API_ENTER();
	if (!context)
		return acl_err(ACL_ERROR_INVALID_PARAM, "context is NULL");
	ret = dev_acquire_current(&d);	/* 107002 without a live one */
	if (ret)
		return ret;
	*context = ctx_current();
	dev_release(d);
	return ACL_SUCCESS;
}

/*
 * The default stream of the current context, created if needed.  The
 * handle is what NULL stands for in every stream parameter; it is a real
 * stream handle, but it cannot be destroyed.
 */
aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	ret = stream_ref(NULL, &s);
	if (ret)
		return ret;
	*stream = s;
	stream_put(s);
	return ACL_SUCCESS;
}
