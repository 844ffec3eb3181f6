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
 *
 * Host functions (aclrtLaunchHostFunc) are blocking callbacks that need no
 * subscription: as in CANN (api_impl.cc LaunchHostFunc in hicann/runtime),
 * a stream nobody subscribed is handed to a libaclrt thread that runs
 * them, started at the first launch.  A thread may take the host functions
 * of a stream itself with aclrtSubscribeHostFunc / aclrtProcessHostFunc /
 * aclrtUnSubscribeHostFunc (taking it over from the library's thread when
 * none of its host functions is pending, else 107011).  A stream has two
 * subscriptions, one for callbacks (aclrtSubscribeReport) and one for host
 * functions, which may be two threads (CANN's simple_callback sample);
 * each item waits for its own thread, in stream order.  A stream
 * subscribed for callbacks takes no host functions unless a thread also
 * subscribed it for them (CANN: 107011), and aclrtLaunchCallback needs a
 * thread of the caller's, not the library's (107015).  Unsubscribing
 * either drops every item not run yet and lets the stream go past them.
 */
#include <errno.h>
#include <signal.h>
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
	bool hostfunc;			/* served by the host-function thread */
};

/* Which of a stream's subscriptions. */
enum sub_kind {
	SUB_REPORT = 1,		/* aclrtSubscribeReport: callbacks */
	SUB_HOSTFUNC,		/* aclrtSubscribeHostFunc: host functions */
};

struct acl_cb {
	struct acl_cb *next;		/* cb_list */
	struct acl_stream *s;		/* holds a stream reference */
	uint32_t reached, done;		/* kernel events */
	uint64_t rep;			/* callbacks' subscriber; 0 = none */
	uint64_t hf;			/* host functions'; 0 = none */
	bool hf_internal;		/* @hf is libaclrt's thread */
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
	/* Release the callbacks launched so far, not later ones: a stream
	 * subscribed again must block on its new blocking callbacks. */
	ksignal(cb->s->dev->fd, cb->done, cb->next_n);
}

void callback_stream_unblock(struct acl_stream *s)
{
	pthread_mutex_lock(&cb_lock);
	if (s->cb) {
		cb_flush(s->cb);
		s->cb->rep = 0;
		s->cb->hf = 0;
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

/* @s's callback state, created on first use.  cb_lock held. */
static aclError cb_get(struct acl_stream *s, struct acl_device *dev, struct acl_cb **out)
{
	struct acl_cb *cb = s->cb;
	aclError ret = ACL_SUCCESS;

	if (!cb) {
		cb = calloc(1, sizeof(*cb));
		if (!cb)
			return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		ret = event_kcreate(dev->fd, 0, &cb->reached);
		if (!ret) {
			ret = event_kcreate(dev->fd, 0, &cb->done);
			if (ret)
				event_kdestroy(dev->fd, cb->reached);
		}
		if (ret) {
			free(cb);
			return ret;
		}
		pthread_mutex_init(&cb->submit_lock, NULL);
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
		cb->s = s;
		cb->next = cb_list;
		cb_list = cb;
		s->cb = cb;
	}
	*out = cb;
	return ACL_SUCCESS;
}

static aclError need_events(struct acl_device *dev)
{
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_EVENTS))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "device %d's driver has no events, which callbacks need", dev->id);
	return ACL_SUCCESS;
}

/* Has @cb items not run yet of the host-function (@hostfunc) kind or not? */
static bool has_items(const struct acl_cb *cb, bool hostfunc)
{
	const struct cb_item *it;

	for (it = cb->head; it; it = it->next)
		if (it->hostfunc == hostfunc)
			return true;
	return false;
}

static aclError subscribe(uint64_t threadId, aclrtStream stream, enum sub_kind kind)
{
	struct acl_device *dev;
	struct acl_stream *s;
	struct acl_cb *cb;
	aclError ret;

	if (!threadId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "threadId is 0");
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	ret = need_events(dev);
	if (ret) {
		stream_release(s, dev);
		return ret;
	}
	pthread_mutex_lock(&cb_lock);
	ret = cb_get(s, dev, &cb);
	if (!ret && kind == SUB_REPORT && cb->rep) {
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "stream %p is already subscribed for callbacks by thread %#llx",
			      stream, (unsigned long long)cb->rep);
	} else if (!ret && kind == SUB_HOSTFUNC && cb->hf) {
		if (!cb->hf_internal)
			ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
				      "stream %p is already subscribed for host functions by thread %#llx",
				      stream, (unsigned long long)cb->hf);
		else if (has_items(cb, true))
			ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
				      "stream %p has host functions (aclrtLaunchHostFunc) pending on libaclrt's thread; subscribe after they ran",
				      stream);
	}
	if (!ret && kind == SUB_REPORT) {
		cb->rep = threadId;
	} else if (!ret) {
		cb->hf = threadId;
		cb->hf_internal = false;
	}
	pthread_mutex_unlock(&cb_lock);
	stream_release(s, dev);
	return ret;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	API_ENTER();
	return subscribe(threadId, stream, SUB_REPORT);
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
	API_ENTER();
	return subscribe(hostFuncThreadId, exeStream, SUB_HOSTFUNC);
}

static aclError unsubscribe(uint64_t threadId, aclrtStream stream, enum sub_kind kind)
{
	const char *what = kind == SUB_REPORT ? "callbacks" : "host functions";
	struct acl_device *dev;
	struct acl_stream *s;
	uint64_t *holder;
	aclError ret;

	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&cb_lock);
	holder = !s->cb ? NULL : kind == SUB_REPORT ? &s->cb->rep : &s->cb->hf;
	if (!holder || !*holder || (kind == SUB_HOSTFUNC && s->cb->hf_internal))
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE, "stream %p is not subscribed for %s",
			      stream, what);
	else if (*holder != threadId)
		ret = acl_err(ACL_ERROR_RT_THREAD_SUBSCRIBE,
			      "stream %p is subscribed for %s by thread %#llx, not %#llx", stream,
			      what, (unsigned long long)*holder, (unsigned long long)threadId);
	else {
		cb_flush(s->cb);
		*holder = 0;
	}
	pthread_mutex_unlock(&cb_lock);
	stream_release(s, dev);
	return ret;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	API_ENTER();
	return unsubscribe(threadId, stream, SUB_REPORT);
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
	API_ENTER();
	return unsubscribe(hostFuncThreadId, exeStream, SUB_HOSTFUNC);
}

static uint64_t hf_start(void);

/*
 * Queue @fn on @stream.  Callbacks need a subscribed thread of the
 * caller's; host functions (@hostfunc) go to the thread that took the
 * stream with aclrtSubscribeHostFunc, else to libaclrt's thread.
 */
static aclError launch(aclrtCallback fn, void *userData, bool block, aclrtStream stream,
		       bool hostfunc)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_EVENT_RECORD };
	struct acl_device *dev;
	struct acl_stream *s;
	struct cb_item *it;
	struct acl_cb *cb = NULL;
	aclError ret;

	it = calloc(1, sizeof(*it));
	if (!it)
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	it->fn = fn;
	it->user_data = userData;
	it->hostfunc = hostfunc;
	ret = stream_acquire(stream, &s, &dev);
	if (ret) {
		free(it);
		return ret;
	}
	if (hostfunc) {
		uint64_t hf = 0;

		ret = need_events(dev);
		if (!ret)
			hf = hf_start();
		if (!ret && !hf)
			ret = acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
				      "cannot start the host-function thread");
		pthread_mutex_lock(&cb_lock);
		if (!ret)
			ret = cb_get(s, dev, &cb);
		/* no thread of the caller's for them: libaclrt's own */
		if (!ret && !cb->hf && !cb->rep) {
			cb->hf = hf;
			cb->hf_internal = true;
		}
		pthread_mutex_unlock(&cb_lock);
	} else {
		pthread_mutex_lock(&cb_lock);
		cb = s->cb;
		if (!cb || !cb->rep)
			ret = acl_err(ACL_ERROR_RT_STREAM_NO_CB_REG,
				      "stream %p has no thread subscribed for callbacks (aclrtSubscribeReport)",
				      stream);
		pthread_mutex_unlock(&cb_lock);
	}
	if (ret) {
		stream_release(s, dev);
		free(it);
		return ret;
	}
	/* cb lives until the stream is destroyed, which our reference and the
	 * device read lock keep from finishing under us. */
	pthread_mutex_lock(&cb->submit_lock);
	pthread_mutex_lock(&cb_lock);
	/* checked where the item is queued: the subscription may change */
	if (hostfunc && !cb->hf && cb->rep) {
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "stream %p is subscribed for callbacks by thread %#llx (aclrtSubscribeReport) and no thread took its host functions (aclrtSubscribeHostFunc): they cannot be launched on it",
			      stream, (unsigned long long)cb->rep);
	} else if (hostfunc ? !cb->hf : !cb->rep) {
		ret = acl_err(hostfunc ? ACL_ERROR_RT_STREAM_SUBSCRIBE : ACL_ERROR_RT_STREAM_NO_CB_REG,
			      "stream %p was unsubscribed meanwhile", stream);
	}
	if (ret) {
		pthread_mutex_unlock(&cb_lock);
		pthread_mutex_unlock(&cb->submit_lock);
		stream_release(s, dev);
		free(it);
		return ret;
	}
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
	if (!ret && block) {
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

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
			     aclrtStream stream)
{
	API_ENTER();
	if (!fn)
		return acl_err(ACL_ERROR_INVALID_PARAM, "fn is NULL");
	if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "blockType %d is neither ACL_CALLBACK_NO_BLOCK (0) nor ACL_CALLBACK_BLOCK (1)",
			       (int)blockType);
	return launch(fn, userData, blockType == ACL_CALLBACK_BLOCK, stream, false);
}

/* CANN: the stream's later work waits for the function (a blocking
 * callback); fn NULL is 107000 (api_error.cc LaunchHostFunc). */
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
	aclError ret;

	API_ENTER();
	if (!fn)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "fn is NULL");
	/* on a stream recording into a model run instance: at each replay */
	if (mdl_hostfunc(stream, fn, args, &ret))
		return ret;
	return launch(fn, args, true, stream, true);
}

aclError hostfunc_launch(aclrtStream stream, aclrtHostFunc fn, void *args)
{
	return launch(fn, args, true, stream, true);
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

		if (cb->rep != self && cb->hf != self)
			continue;
		(*nsub)++;
		*one = cb;
		/* in stream order: the head waits for its own thread */
		if (!cb->head || (cb->head->hostfunc ? cb->hf : cb->rep) != self)
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
		/* the stream's next item may be another thread's */
		pthread_cond_broadcast(&cb_cond);
		goto again;	/* the list may have changed */
	}
	return ran;
}

/*
 * Run this thread's due callbacks: the first batch that becomes due
 * before @deadline (absolute ns, 0 polls).  @internal: libaclrt's own
 * thread, for which holding no stream is no error (it waits).
 */
static aclError process(int64_t deadline, int32_t timeout, bool internal)
{
	uint64_t self = self_id();
	struct acl_cb *one;
	bool pending;
	int ran, nsub;
	aclError ret = ACL_SUCCESS;

	pthread_once(&cb_once, cb_init);
	pthread_mutex_lock(&cb_lock);
	for (;;) {
		ran = run_due(self, &pending, &nsub, &one);
		if (!nsub && !ran && !internal) {
			ret = acl_err(ACL_ERROR_RT_THREAD_SUBSCRIBE,
				      "this thread (%#llx) has no stream subscribed (aclrtSubscribeReport)",
				      (unsigned long long)self);
			break;
		}
		if (ran)
			break;
		if (deadline == 0 || (deadline != DRM_ASCEND_TIMEOUT_INFINITE &&
				      mono_ns() >= deadline)) {
			ret = internal ? ACL_ERROR_RT_REPORT_TIMEOUT :
			      acl_err(ACL_ERROR_RT_REPORT_TIMEOUT,
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

static aclError process_report(int32_t timeout)
{
	if (timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %d is invalid: -1 waits forever, 0 polls, >0 is milliseconds",
			       timeout);
	return process(deadline_from_ms(timeout), timeout, false);
}

/* CANN's ACL layer refuses timeout 0 here (src/acl/aclrt_impl/callback.cpp
 * aclrtProcessReportImpl: -1 or > 0 only). */
aclError aclrtProcessReport(int32_t timeout)
{
	API_ENTER();
	if (timeout == 0)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout 0 is invalid: -1 waits forever, >0 is milliseconds");
	return process_report(timeout);
}

aclError aclrtProcessHostFunc(int32_t timeout)
{
	API_ENTER();
	return process_report(timeout);
}

/* ---- libaclrt's host-function thread ---- */

static pthread_once_t hf_once = PTHREAD_ONCE_INIT;
static uint64_t hf_id;		/* 0: could not start */

static void *hf_main(void *arg)
{
	(void)arg;
	for (;;)	/* slices keep a wait from pinning a dead stream's file */
		process(mono_ns() + 50 * 1000000LL, 50, true);
	return NULL;
}

static void hf_create(void)
{
	sigset_t all, old;
	pthread_attr_t a;
	pthread_t t;

	/* signals stay with the application's threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &a, hf_main, NULL) == 0)
		hf_id = (uint64_t)t;
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The thread's id (as pthread_self() there), started once; 0: failed. */
static uint64_t hf_start(void)
{
	pthread_once(&hf_once, hf_create);
	return hf_id;
}
