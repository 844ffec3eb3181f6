// SPDX-License-Identifier: MIT
/*
 * callback.c - host callbacks in stream order: aclrtSubscribeReport,
 * aclrtLaunchCallback, aclrtProcessReport, aclrtUnSubscribeReport.
 *
 * A subscribed stream gets two hidden kernel events.  Callback number n
 * (1, 2, ...) puts EVENT_RECORD(reached, n) on the stream; a blocking one
 * also puts EVENT_WAIT(done, n), so later work of the stream waits on the
 * device side.  The subscribed thread, inside aclrtProcessReport, sees
 * "reached >= n", runs the function and signals done = n from the host
 * (DRM_IOCTL_ASCEND_EVENT_SIGNAL).
 *
 * Error codes (CANN runtime codes; the ACL-layer 10003x codes are not
 * used): a stream subscribed twice, or unsubscribed while not subscribed
 * -> 107011 ACL_ERROR_RT_STREAM_SUBSCRIBE; aclrtProcessReport from a thread
 * with no subscription, or unsubscribing a stream another thread holds ->
 * 107012 ACL_ERROR_RT_THREAD_SUBSCRIBE; aclrtLaunchCallback on a stream
 * nobody subscribed -> 107015 ACL_ERROR_RT_STREAM_NO_CB_REG;
 * aclrtProcessReport that ran nothing within its timeout -> 507012
 * ACL_ERROR_RT_REPORT_TIMEOUT.  Destroying a stream drops its callbacks
 * that have not run and releases the stream from blocking ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xf86drm.h>

#include "internal.h"

/* Poll interval while several streams (or none yet) have callbacks due. */
#define SLICE_NS	1000000LL

struct cb_item {
	struct cb_item *next;
	aclrtCallback fn;
	void *user_data;
	uint64_t n;
};

struct acl_cb {
	struct acl_cb *next;		/* cb_list */
	struct acl_stream *s;		/* holds a stream reference */
	uint32_t reached, done;		/* kernel events */
	uint64_t thread;		/* subscriber; 0 = none */
	uint64_t next_n;		/* numbers handed out */
	struct cb_item *head, *tail;	/* launched, not yet run */
	/* Serialises LaunchCallback's two ring commands with the numbering,
	 * without holding cb_lock (a full ring waits for ProcessReport). */
	pthread_mutex_t submit_lock;
};

/* Protects cb_list, every acl_cb's fields but submit_lock, and s->cb. */
static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_cond;	/* items added; CLOCK_MONOTONIC */
static pthread_once_t cb_once = PTHREAD_ONCE_INIT;
static struct acl_cb *cb_list;

static void cb_init(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&cb_cond, &a);
	pthread_condattr_destroy(&a);
}

static uint64_t self_id(void)
{
	return (uint64_t)pthread_self();
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void ksignal(int fd, uint32_t handle, uint64_t gen)
{
	struct drm_ascend_event_signal sg = { .handle = handle, .gen = gen };

	drmIoctl(fd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &sg);
}

/* Drop every callback not run yet and let the stream go past blocking
 * ones.  cb_lock held, device rw held. */
static void cb_flush(struct acl_cb *cb)
{
	struct cb_item *it;

	while ((it = cb->head)) {
		cb->head = it->next;
		free(it);
	}
	cb->tail = NULL;
	ksignal(cb->s->dev->fd, cb->done, UINT64_MAX >> 1);
}

void callback_stream_unblock(struct acl_stream *s)
{
	pthread_mutex_lock(&cb_lock);
	if (s->cb) {
		cb_flush(s->cb);
		s->cb->thread = 0;
	}
	pthread_mutex_unlock(&cb_lock);
}

void callback_stream_gone(struct acl_stream *s)
{
	struct acl_cb *cb, **pp;

	pthread_mutex_lock(&cb_lock);
	cb = s->cb;
	if (cb) {
		for (pp = &cb_list; *pp; pp = &(*pp)->next) {
			if (*pp == cb) {
				*pp = cb->next;
				break;
			}
		}
		cb_flush(cb);
		event_kdestroy(s->dev->fd, cb->reached);
		event_kdestroy(s->dev->fd, cb->done);
		s->cb = NULL;
	}
	pthread_mutex_unlock(&cb_lock);
	if (cb) {
		pthread_mutex_destroy(&cb->submit_lock);
		free(cb);
		stream_put(s);
	}
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	struct acl_device *dev;
	struct acl_stream *s;
	struct acl_cb *cb;
	aclError ret;

	API_ENTER();
	if (!threadId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "threadId is 0");
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_EVENTS)) {
		stream_release(s, dev);
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "device %d's driver has no events, which callbacks need", dev->id);
	}
	pthread_mutex_lock(&cb_lock);
	cb = s->cb;
	if (cb && cb->thread) {
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "stream %p is already subscribed by thread %#llx", stream,
			      (unsigned long long)cb->thread);
	} else if (!cb) {
		cb = calloc(1, sizeof(*cb));
		if (!cb)
			ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		if (!ret)
			ret = event_kcreate(dev->fd, 0, &cb->reached);
		if (!ret) {
			ret = event_kcreate(dev->fd, 0, &cb->done);
			if (ret)
				event_kdestroy(dev->fd, cb->reached);
		}
		if (ret) {
			free(cb);
		} else {
			pthread_mutex_init(&cb->submit_lock, NULL);
			__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
			cb->s = s;
			cb->next = cb_list;
			cb_list = cb;
			s->cb = cb;
		}
	}
	if (!ret)
		cb->thread = threadId;
	pthread_mutex_unlock(&cb_lock);
	stream_release(s, dev);
	return ret;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&cb_lock);
	if (!s->cb || !s->cb->thread)
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE, "stream %p is not subscribed", stream);
	else if (s->cb->thread != threadId)
		ret = acl_err(ACL_ERROR_RT_THREAD_SUBSCRIBE,
			      "stream %p is subscribed by thread %#llx, not %#llx", stream,
			      (unsigned long long)s->cb->thread, (unsigned long long)threadId);
	else {
		cb_flush(s->cb);
		s->cb->thread = 0;
	}
	pthread_mutex_unlock(&cb_lock);
	stream_release(s, dev);
	return ret;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
			     aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_EVENT_RECORD };
	struct acl_device *dev;
	struct acl_stream *s;
	struct cb_item *it;
	struct acl_cb *cb;
	aclError ret;

	API_ENTER();
	if (!fn)
		return acl_err(ACL_ERROR_INVALID_PARAM, "fn is NULL");
	if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "blockType %d is neither ACL_CALLBACK_NO_BLOCK (0) nor ACL_CALLBACK_BLOCK (1)",
			       (int)blockType);
	it = calloc(1, sizeof(*it));
	if (!it)
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	it->fn = fn;
	it->user_data = userData;
	ret = stream_acquire(stream, &s, &dev);
	if (ret) {
		free(it);
		return ret;
	}
	pthread_mutex_lock(&cb_lock);
	cb = s->cb;
	if (!cb || !cb->thread) {
		pthread_mutex_unlock(&cb_lock);
		stream_release(s, dev);
		free(it);
		return acl_err(ACL_ERROR_RT_STREAM_NO_CB_REG,
			       "stream %p has no thread subscribed for callbacks (aclrtSubscribeReport)",
			       stream);
	}
	pthread_mutex_unlock(&cb_lock);
	/* cb lives until the stream is destroyed, which our reference and the
	 * device read lock keep from finishing under us. */
	pthread_mutex_lock(&cb->submit_lock);
	pthread_mutex_lock(&cb_lock);
	it->n = ++cb->next_n;
	cmd.event.handle = cb->reached;
	cmd.event.gen = it->n;
	if (cb->tail)
		cb->tail->next = it;
	else
		cb->head = it;
	cb->tail = it;
	pthread_once(&cb_once, cb_init);
	pthread_cond_broadcast(&cb_cond);
	pthread_mutex_unlock(&cb_lock);
	ret = stream_submit(s, &cmd);
	if (!ret && blockType == ACL_CALLBACK_BLOCK) {
		cmd.opcode = ASCEND_CMD_EVENT_WAIT;
		cmd.event.handle = cb->done;
		/* Failing here leaves a non-blocking callback: still in order. */
		ret = stream_submit(s, &cmd);
	} else if (ret) {
		/* Never reached: take it back (still the tail: submit_lock). */
		pthread_mutex_lock(&cb_lock);
		if (cb->tail == it) {
			struct cb_item **pp = &cb->head;

			while (*pp != it)
				pp = &(*pp)->next;
			*pp = NULL;
			cb->tail = NULL;
			for (struct cb_item *p = cb->head; p; p = p->next)
				cb->tail = p;
			cb->next_n--;
			free(it);
		}
		pthread_mutex_unlock(&cb_lock);
	}
	pthread_mutex_unlock(&cb->submit_lock);
	stream_release(s, dev);
	return ret;
}

/*
 * Run the due callbacks of this thread's streams.  cb_lock held (dropped
 * around each callback).  Returns how many ran; *pending says whether
 * some are launched but not reached yet, *nsub how many streams this
 * thread holds.
 */
static int run_due(uint64_t self, bool *pending, int *nsub, struct acl_cb **one)
{
	struct acl_cb *cb;
	int ran = 0;

again:
	*pending = false;
	*nsub = 0;
	*one = NULL;
	for (cb = cb_list; cb; cb = cb->next) {
		struct drm_ascend_event_wait w = { 0 };
		struct cb_item *it;
		int fd;

		if (cb->thread != self)
			continue;
		(*nsub)++;
		*one = cb;
		if (!cb->head)
			continue;
		fd = cb->s->dev->fd;
		w.handle = cb->reached;
		if (drmIoctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, &w) || w.completed < cb->head->n) {
			*pending = true;
			continue;
		}
		it = cb->head;
		cb->head = it->next;
		if (!cb->head)
			cb->tail = NULL;
		pthread_mutex_unlock(&cb_lock);
		it->fn(it->user_data);
		pthread_mutex_lock(&cb_lock);
		/* The stream may have gone meanwhile: signal only if it has
		 * not (while cb is listed, its device file is open). */
		for (struct acl_cb *c = cb_list; c; c = c->next) {
			if (c == cb) {
				ksignal(cb->s->dev->fd, cb->done, it->n);
				break;
			}
		}
		free(it);
		ran++;
		goto again;	/* the list may have changed */
	}
	return ran;
}

aclError aclrtProcessReport(int32_t timeout)
{
	int64_t deadline;
	uint64_t self = self_id();
	struct acl_cb *one;
	bool pending;
	int ran, nsub;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %d is invalid: -1 waits forever, 0 polls, >0 is milliseconds",
			       timeout);
	pthread_once(&cb_once, cb_init);
	deadline = deadline_from_ms(timeout);
	pthread_mutex_lock(&cb_lock);
	for (;;) {
		ran = run_due(self, &pending, &nsub, &one);
		if (!nsub && !ran) {
			ret = acl_err(ACL_ERROR_RT_THREAD_SUBSCRIBE,
				      "this thread (%#llx) has no stream subscribed (aclrtSubscribeReport)",
				      (unsigned long long)self);
			break;
		}
		if (ran)
			break;
		if (deadline == 0 || (deadline != DRM_ASCEND_TIMEOUT_INFINITE &&
				      mono_ns() >= deadline)) {
			ret = acl_err(ACL_ERROR_RT_REPORT_TIMEOUT,
				      "no callback became due within %d ms", timeout);
			break;
		}
		if (nsub == 1 && pending && one->head) {
			/* One stream with a callback on the way: sleep in the
			 * kernel until the device reaches it. */
			struct drm_ascend_event_wait w = {
				.handle = one->reached, .gen = one->head->n,
				.timeout_ns = deadline,
			};
			int fd = one->s->dev->fd;

			pthread_mutex_unlock(&cb_lock);
			drmIoctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, &w);
			pthread_mutex_lock(&cb_lock);
		} else if (!pending) {
			/* Nothing launched yet: sleep until LaunchCallback. */
			int64_t until = deadline == DRM_ASCEND_TIMEOUT_INFINITE ?
					mono_ns() + 3600 * 1000000000LL : deadline;
			struct timespec ts = { until / 1000000000LL, until % 1000000000LL };

			pthread_cond_timedwait(&cb_cond, &cb_lock, &ts);
		} else {
			struct timespec ts = { 0, SLICE_NS };

			pthread_mutex_unlock(&cb_lock);
			nanosleep(&ts, NULL);
			pthread_mutex_lock(&cb_lock);
		}
	}
	pthread_mutex_unlock(&cb_lock);
	return ret;
}
