// SPDX-License-Identifier: MIT
/*
 * stream_info.c - what a stream is rather than what it runs: creation
 * from an aclrtStreamConfigHandle, its id, priority and flags, its failure
 * mode, and the aclrtRegStreamStateCallback registry.
 *
 * Facts from CANN (hicann/runtime): priorities run from 0 (greatest) to 7
 * (least) and out-of-range values given at creation are clamped
 * (src/runtime/core/inc/spec/base_info.hpp, api_error.cc StreamCreate);
 * aclrtSetStreamConfigOpt checks the value size per attribute and a
 * priority <= 7 (src/acl/aclrt_c/runtime/stream.c); a stream cannot go
 * back from stop-on-failure to continue-on-failure (207000), setting the
 * mode it has is a no-op success, and only bit 0 of the mode counts
 * (api_impl.cc StreamSetMode); a state callback registered under a name
 * already taken is 107000, a NULL callback removes the name (NULL name:
 * 107000), and callbacks see every stream after creation and before
 * destruction (stream_state_callback_manager.cc).
 *
 * This device has one queue priority: the priority is kept and reported,
 * it does not reorder work.  A faulting command always stops its queue and
 * the commands behind it are discarded when the fault is reported
 * (stream.c): that is ACL_STOP_ON_FAILURE.  ACL_CONTINUE_ON_FAILURE (CANN's
 * default: the commands after a failed one still run) would need the
 * driver to restart a queue behind the faulting command without
 * discarding the rest; until it can, both modes behave as stop.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PRIO_LEAST	7

aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
	aclrtStreamConfigHandle *h;

	API_ENTER();
	h = calloc(1, sizeof(*h));
	if (!h)
		acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	return h;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
	API_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	free(handle);
	return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
				 const void *attrValue, size_t valueSize)
{
	static const size_t want[] = {
		[ACL_RT_STREAM_WORK_ADDR_PTR] = sizeof(void *),
		[ACL_RT_STREAM_WORK_SIZE] = sizeof(size_t),
		[ACL_RT_STREAM_FLAG] = sizeof(size_t),
		[ACL_RT_STREAM_PRIORITY] = sizeof(uint32_t),
	};
	uint32_t prio;

	API_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	if (!attrValue)
		return acl_err(ACL_ERROR_INVALID_PARAM, "attrValue is NULL");
	if ((unsigned int)attr > ACL_RT_STREAM_PRIORITY)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "attr %d is not an aclrtStreamConfigAttr (0..%d)", (int)attr,
			       ACL_RT_STREAM_PRIORITY);
	/*
	 * CANN's runtime takes the flags as a size_t, but its own
	 * stream/3_stream_config_query sample passes a uint32_t (the type of
	 * every other stream flag): both are taken.
	 */
	if (attr == ACL_RT_STREAM_FLAG && valueSize == sizeof(uint32_t)) {
		uint32_t f;

		memcpy(&f, attrValue, sizeof(f));
		handle->flag = f;
		return ACL_SUCCESS;
	}
	if (valueSize != want[attr])
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "valueSize %zu is wrong for attr %d: it must be %zu", valueSize,
			       (int)attr, want[attr]);
	switch (attr) {
	case ACL_RT_STREAM_WORK_ADDR_PTR:
		memcpy(&handle->workptr, attrValue, sizeof(void *));
		break;
	case ACL_RT_STREAM_WORK_SIZE:
		memcpy(&handle->workSize, attrValue, sizeof(size_t));
		break;
	case ACL_RT_STREAM_FLAG:
		memcpy(&handle->flag, attrValue, sizeof(size_t));
		break;
	case ACL_RT_STREAM_PRIORITY:
		memcpy(&prio, attrValue, sizeof(prio));
		if (prio > PRIO_LEAST)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "priority %u is out of range: it must be 0 (greatest) .. %d (least)",
				       prio, PRIO_LEAST);
		handle->priority = prio;
		break;
	}
	return ACL_SUCCESS;
}

aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
	API_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	if (!handle)
		return aclrtCreateStreamWithConfig(stream, 0, 0);
	/* Stream work memory is for CANN's device-side task scheduler; a
	 * queue here needs none, and ignoring the caller's would hide it. */
	if (handle->workptr || handle->workSize)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "stream work memory (ACL_RT_STREAM_WORK_ADDR_PTR/WORK_SIZE: %p, %zu bytes) is not supported: streams here need none, leave both 0",
			       handle->workptr, handle->workSize);
	if (handle->flag > UINT32_MAX)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag %#zx has unknown bits", handle->flag);
	return aclrtCreateStreamWithConfig(stream, handle->priority, (uint32_t)handle->flag);
}

/* The stream @h names (NULL: the current default stream), referenced. */
static aclError get(aclrtStream h, struct acl_stream **s, struct acl_device **dev)
{
	return stream_acquire(h, s, dev);
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	if (!streamId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "streamId is NULL");
	ret = get(stream, &s, &dev);
	if (ret)
		return ret;
	*streamId = (int32_t)s->q.handle;	/* the device queue's number */
	stream_release(s, dev);
	return ACL_SUCCESS;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	if (!priority)
		return acl_err(ACL_ERROR_INVALID_PARAM, "priority is NULL");
	ret = get(stream, &s, &dev);
	if (ret)
		return ret;
	*priority = s->priority;
	stream_release(s, dev);
	return ACL_SUCCESS;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	if (!flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags is NULL");
	ret = get(stream, &s, &dev);
	if (ret)
		return ret;
	*flags = s->flags;
	stream_release(s, dev);
	return ACL_SUCCESS;
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
	API_ENTER();
	/* Either may be NULL (CANN fills the others). */
	if (leastPriority)
		*leastPriority = PRIO_LEAST;
	if (greatestPriority)
		*greatestPriority = 0;
	return ACL_SUCCESS;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
	struct acl_device *dev;
	struct acl_stream *s;
	uint32_t m = (uint32_t)(mode & ACL_STOP_ON_FAILURE);
	aclError ret;

	API_ENTER();
	ret = get(stream, &s, &dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&s->lock);
	if (s->failure_mode == ACL_STOP_ON_FAILURE && m == ACL_CONTINUE_ON_FAILURE)
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "stream %p is in ACL_STOP_ON_FAILURE mode: it cannot go back to ACL_CONTINUE_ON_FAILURE",
			      (void *)s);
	else
		s->failure_mode = m;
	pthread_mutex_unlock(&s->lock);
	stream_release(s, dev);
	return ret;
}

/* ---- aclrtRegStreamStateCallback ---- */

struct state_cb {
	struct state_cb *next;
	char *name;
	aclrtStreamStateCallback fn;
	void *args;
};

static pthread_mutex_t st_lock = PTHREAD_MUTEX_INITIALIZER;	/* st_list */
static struct state_cb *st_list;

aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback, void *args)
{
	struct state_cb *c, **pp;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!regName)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "regName is NULL");
	pthread_mutex_lock(&st_lock);
	for (pp = &st_list; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->name, regName) == 0)
			break;
	if (!callback) {
		c = *pp;
		if (c) {
			*pp = c->next;
			free(c->name);
			free(c);
		}
	} else if (*pp) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "a stream state callback named \"%s\" is registered already (unregister it with a NULL callback first)",
			      regName);
	} else {
		c = calloc(1, sizeof(*c));
		if (c)
			c->name = strdup(regName);
		if (!c || !c->name) {
			free(c);
			ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		} else {
			c->fn = callback;
			c->args = args;
			*pp = c;	/* at the tail: called in registration order */
		}
	}
	pthread_mutex_unlock(&st_lock);
	return ret;
}

void stream_state_notify(struct acl_stream *s, aclrtStreamState state)
{
	struct state_cb *c;
	struct { aclrtStreamStateCallback fn; void *args; } *v = NULL;
	size_t n = 0, i;

	/* Copy, then call unlocked: a callback may (un)register. */
	pthread_mutex_lock(&st_lock);
	for (c = st_list; c; c = c->next)
		n++;
	if (n)
		v = malloc(n * sizeof(*v));
	for (c = st_list, i = 0; v && c; c = c->next, i++) {
		v[i].fn = c->fn;
		v[i].args = c->args;
	}
	pthread_mutex_unlock(&st_lock);
	for (i = 0; v && i < n; i++)
		v[i].fn(s, state, v[i].args);
	free(v);
}
