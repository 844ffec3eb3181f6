// SPDX-License-Identifier: MIT
/*
 * event.c - aclrt events on the kernel's event objects, and the
 * device-side cross-stream wait (aclrtStreamWaitEvent).
 *
 * A kernel event counts generations (uAPI comment block "Events").  This
 * file numbers the records of each event 1, 2, 3, ...: aclrtRecordEvent
 * puts ASCEND_CMD_EVENT_RECORD with gen + 1 on the stream, and every query
 * or wait refers to the generation of the latest record ("capture"
 * semantics: an event that was never recorded, or was reset, is complete).
 *
 * Destroy never blocks (CANN): the kernel object is freed once no command
 * in any ring still names it - until then the event is a "zombie" that
 * later create/destroy calls reap.  For that each event keeps, per stream,
 * the sequence number of its latest command naming the event.
 *
 * IPC events (ACL_EVENT_IPC): aclrtIpcGetEventHandle exports the kernel
 * event under a key (DRM_IOCTL_ASCEND_IPC_EXPORT, any process may import:
 * CANN has no allow-list for events) and puts the key in the 64-byte
 * aclrtIpcEventHandle; aclrtIpcOpenEventHandle imports it into the
 * caller's file.  Both files then name one kernel event, so a wait in the
 * importer completes when the exporter's record executes.  Which
 * generation is "the latest record" is a one-word shared file,
 * /dev/shm/aclrt-ipcev-<hash of the key> (/tmp/... where there is no
 * /dev/shm; mode 0600; the name does not reveal the key), which the
 * exporter creates and importers map: every record, the exporter's or an
 * importer's (CANN's ipcevent sample records in both), takes its
 * generation by an atomic increment of it, and every query or wait reads
 * it first.  The device keeps an event's highest completed generation, so
 * records of two processes may complete in any order.  A record that
 * cannot be submitted gives its generation back if nobody took a later
 * one, and otherwise completes it from the host (a waiter must not wait
 * for a record that never comes).  An importer whose exporter has gone
 * (no shared file) cannot record (207000).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "internal.h"

#define EVENT_FLAGS	(ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |	\
			 ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |	\
			 ACL_EVENT_EXTERNAL | ACL_EVENT_IPC)

/* Host waits sleep in the kernel in slices this long, so that a fault of
 * the recording stream (which never completes the event) is noticed. */
#define SLICE_NS	20000000LL

enum ev_kind { EV_PLAIN, EV_FLAG, EV_EX };

struct acl_event {
	struct acl_event *next;		/* ev_list */
	int dev_id;
	enum ev_kind kind;
	uint32_t flags;			/* ACL_EVENT_* of the create call */
	uint32_t handle;		/* kernel event object */
	bool zombie;			/* destroyed by the user, handle pending */
	bool lost;			/* its device was reset */
	bool recorded;			/* recorded since create / reset */
	int busy;			/* host waits in progress: not reaped */
	uint64_t gen;			/* generation of the latest record */
	uint64_t done_gen;		/* highest generation the kernel said was reached */
	struct acl_stream *rec_s;	/* stream of the latest record (ref) */
	uint64_t rec_seq;		/* its sequence number */
	uint64_t rec_resets;		/* rec_s->q.resets before it was submitted */
	struct stream_uses uses;	/* streams whose commands name it */
	/* IPC: exported (key set) or imported from another process */
	bool imported;
	char ipc_key[DRM_ASCEND_IPC_KEY_LEN];
	uint64_t *ipc_gen;		/* shared: latest recorded generation */
	char ipc_path[64];		/* the exporter unlinks it */
};

/* Protects ev_list and every field of every event.  Lock order:
 * device rw -> ev_lock -> acl_stream.lock. */
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_event *ev_list;

/*
 * Events deleted so far (under ev_lock): an event this thread found live
 * is still live while the count is unchanged, so ev_live() needs no
 * registry lookup for the event a thread used last.
 */
static uint64_t ev_dels;
static ACL_TLS_HOT struct {
	const void *h;
	uint64_t dels;
} t_ev;

/* Is @h a live event handle?  ev_lock held. */
static inline __attribute__((always_inline)) bool ev_live(const void *h)
{
	if (h && h == t_ev.h && t_ev.dels == ev_dels)
		return true;
	if (!handle_ok(h, H_EVENT))
		return false;
	t_ev.h = h;
	t_ev.dels = ev_dels;
	return true;
}

static uint64_t completed_of(struct acl_stream *s)
{
	return __atomic_load_n(&s->q.status->completed, __ATOMIC_ACQUIRE);
}

static void ev_free(struct acl_event *ev)	/* unlinked; ev_lock held */
{
	stream_uses_free(&ev->uses);
	if (ev->rec_s)
		stream_put(ev->rec_s);
	if (ev->ipc_gen)
		munmap(ev->ipc_gen, sizeof(*ev->ipc_gen));
	free(ev);
}

/* The exporter's latest record, as an importer sees it.  ev_lock held. */
static void ipc_refresh(struct acl_event *ev)
{
	uint64_t g;

	if (!ev->ipc_gen)
		return;
	g = __atomic_load_n(ev->ipc_gen, __ATOMIC_ACQUIRE);
	if (g != ev->gen) {
		ev->gen = g;
		ev->recorded = g != 0;
	}
}

aclError event_kcreate(int fd, uint32_t flags, uint32_t *handle)
{
	struct drm_ascend_event_create c = { .flags = flags };

	if (drmIoctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &c)) {
		int e = errno;

		if (e == ENOTTY || e == EOPNOTSUPP)
			return acl_err_at("event", ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
					  "the driver has no event objects (DRM_IOCTL_ASCEND_EVENT_CREATE: %s)",
					  strerror(e));
		return acl_err_at("event", e == ENOSPC || e == ENOMEM ?
				  ACL_ERROR_RT_NO_EVENT_RESOURCE :
				  acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
				  "the driver could not create an event: %s", strerror(e));
	}
	*handle = c.handle;
	return ACL_SUCCESS;
}

void event_kdestroy(int fd, uint32_t handle)
{
	struct drm_ascend_event_destroy d = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_ASCEND_EVENT_DESTROY, &d);
}

/* The kernel's completed generation and its timestamp (ns). */
static int kquery(int fd, uint32_t handle, uint64_t gen, int64_t deadline,
		  uint64_t *completed, uint64_t *ts)
{
	struct drm_ascend_event_wait w = {
		.handle = handle, .gen = gen, .timeout_ns = deadline,
	};

	if (drmIoctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, &w))
		return errno;
	if (completed)
		*completed = w.completed;
	if (ts)
		*ts = w.timestamp_ns;
	return 0;
}

/* Free the kernel objects of @dev's zombies nothing refers to any more.
 * dev rw read-held, ev_lock held. */
static void reap(struct acl_device *dev)
{
	struct acl_event **pp = &ev_list, *ev;

	while ((ev = *pp)) {
		if (ev->zombie && !ev->busy && ev->dev_id == dev->id &&
		    stream_uses_idle(&ev->uses)) {
			*pp = ev->next;
			event_kdestroy(dev->fd, ev->handle);
			ev_free(ev);
		} else {
			pp = &ev->next;
		}
	}
}

/* Device reset: the file (and with it every kernel event) goes away.
 * dev rw write-held. */
void event_release_device(struct acl_device *dev)
{
	struct acl_event **pp = &ev_list, *ev;

	pthread_mutex_lock(&ev_lock);
	while ((ev = *pp)) {
		if (ev->dev_id != dev->id) {
			pp = &ev->next;
			continue;
		}
		stream_uses_drop(&ev->uses);
		if (ev->rec_s)
			stream_put(ev->rec_s);
		ev->rec_s = NULL;
		if (ev->zombie && !ev->busy) {
			*pp = ev->next;
			ev_free(ev);
			continue;
		}
		ev->lost = true;
		pp = &ev->next;
	}
	pthread_mutex_unlock(&ev_lock);
}

static aclError create(aclrtEvent *event, enum ev_kind kind, uint32_t flag)
{
	struct acl_device *dev;
	struct acl_event *ev;
	uint32_t kflags = 0;
	aclError ret;

	if (!event)
		return acl_err_at("event", ACL_ERROR_INVALID_PARAM, "event is NULL");
	if (kind != EV_PLAIN) {
		if (flag & ~EVENT_FLAGS)
			return acl_err_at("event", ACL_ERROR_INVALID_PARAM,
					  "flag %#x has unknown bits %#x (known: %#x)", flag,
					  flag & ~EVENT_FLAGS, EVENT_FLAGS);
		if ((flag & ACL_EVENT_EXTERNAL) && flag != ACL_EVENT_EXTERNAL)
			return acl_err_at("event", ACL_ERROR_INVALID_PARAM,
					  "flag %#x: ACL_EVENT_EXTERNAL cannot be combined with other flags",
					  flag);
	}
	/* Plain events measure elapsed time; flagged ones only with TIME_LINE. */
	if (kind == EV_PLAIN || (flag & ACL_EVENT_TIME_LINE))
		kflags |= DRM_ASCEND_EVENT_TIMESTAMP;
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_EVENTS)) {
		dev_release(dev);
		return acl_err_at("event", ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "device %d's driver has no events", dev->id);
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev) {
		dev_release(dev);
		return acl_err_at("event", ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	pthread_mutex_lock(&ev_lock);
	reap(dev);
	ret = event_kcreate(dev->fd, kflags, &ev->handle);
	if (!ret) {
		ev->dev_id = dev->id;
		ev->kind = kind;
		ev->flags = flag;
		ev->next = ev_list;
		ev_list = ev;
		handle_add(ev, H_EVENT);
		*event = ev;
	}
	pthread_mutex_unlock(&ev_lock);
	dev_release(dev);
	if (ret)
		free(ev);
	return ret;
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
	API_ENTER();
	return create(event, EV_PLAIN, 0);
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
	API_ENTER();
	return create(event, EV_FLAG, flag);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
	API_ENTER();
	return create(event, EV_EX, flag);
}

/*
 * Look up @h and read-lock its device.  Returns with ev_lock held on
 * success; the caller unlocks it and releases the device.
 */
static aclError ev_get(aclrtEvent h, const char *name, struct acl_event **out,
		       struct acl_device **dev)
{
	struct acl_event *ev = h;
	aclError ret;
	int id;

	if (!h)
		return acl_err_at("event", ACL_ERROR_INVALID_PARAM, "%s is NULL", name);
	pthread_mutex_lock(&ev_lock);
	if (!ev_live(h)) {
		pthread_mutex_unlock(&ev_lock);
		return acl_err_at("event", ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p is not a live event (never created, or destroyed)", name, h);
	}
	id = ev->dev_id;
	pthread_mutex_unlock(&ev_lock);
	ret = dev_acquire(id, dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&ev_lock);
	if (!ev_live(h) || ev->lost) {
		pthread_mutex_unlock(&ev_lock);
		dev_release(*dev);
		return acl_err_at("event", ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p is not a live event (destroyed, or its device was reset)",
				  name, h);
	}
	ipc_refresh(ev);
	*out = ev;
	return ACL_SUCCESS;
}

static void ev_put(struct acl_device *dev)
{
	pthread_mutex_unlock(&ev_lock);
	dev_release(dev);
}

aclError aclrtDestroyEvent(aclrtEvent event)
{
	struct acl_device *dev;
	struct acl_event *ev;
	aclError ret;

	API_ENTER();
	ret = ev_get(event, "event", &ev, &dev);
	if (ret)
		return ret;
	ev_dels++;		/* before the handle goes: see ev_live() */
	handle_del(ev);
	ev->zombie = true;
	if (ev->ipc_key[0] && !ev->imported) {
		struct drm_ascend_ipc_close c = { 0 };

		/* no new opens; existing ones keep the kernel event */
		memcpy(c.key, ev->ipc_key, sizeof(c.key));
		drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_CLOSE, &c);
		unlink(ev->ipc_path);
	}
	reap(dev);		/* frees it now if no ring names it */
	ev_put(dev);
	return ACL_SUCCESS;
}

/* Resolve @stream for an operation on @ev (ev_lock NOT held). */
static aclError ev_stream(aclrtStream stream, int dev_id, struct acl_stream **s,
			  struct acl_device **sdev)
{
	aclError ret = stream_acquire(stream, s, sdev);

	if (ret)
		return ret;
	if ((*sdev)->id != dev_id) {
		stream_release(*s, *sdev);
		return acl_err_at("event", ACL_ERROR_RT_STREAM_CONTEXT,
				  "stream %p is on device %d but the event was created on device %d",
				  stream, (*sdev)->id, dev_id);
	}
	return ACL_SUCCESS;
}

/*
 * An IPC event's record of generation @gen was not submitted: take the
 * number back if it is still the latest.  False: another process numbered
 * after it, so the caller completes it from the host.  ev_lock held.
 */
static bool ipc_give_back(struct acl_event *ev, uint64_t gen)
{
	uint64_t want = gen;

	if (!__atomic_compare_exchange_n(ev->ipc_gen, &want, gen - 1, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return false;
	if (ev->gen == gen)
		ev->gen--;
	return true;
}

/* Complete generation @gen of kernel event @handle of device @dev_id. */
static void ipc_complete(int dev_id, uint32_t handle, uint64_t gen)
{
	struct drm_ascend_event_signal sg = { .handle = handle, .gen = gen };
	struct acl_device *dev;

	if (!dev_acquire(dev_id, &dev)) {
		drmIoctl(dev->fd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &sg);
		dev_release(dev);
	}
}

/*
 * The event lock twice and the stream lock once; the stream this thread
 * used last costs no registry lookup (stream_submit_to()).
 */
static aclError record_event(aclrtEvent event, aclrtStream stream, bool external)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_EVENT_RECORD };
	struct submit_info si = { .want_ref = true, .s_dev = -1 };
	struct acl_event *ev = event;
	bool burnt = false;
	aclError ret;
	int id;

	if (!event)
		return acl_err_at("event", ACL_ERROR_INVALID_PARAM, "event is NULL");
	pthread_mutex_lock(&ev_lock);
	if (!ev_live(ev) || ev->lost) {
		pthread_mutex_unlock(&ev_lock);
		return acl_err_at("event", ACL_ERROR_RT_PARAM_INVALID,
				  "event %p is not a live event (never created, destroyed, or its device was reset)",
				  event);
	}
	pthread_mutex_unlock(&ev_lock);
	/* a stream recording into a model run instance */
	if (mdl_event_record(event, stream, external, &ret))
		return ret;
	pthread_mutex_lock(&ev_lock);
	if (!ev_live(ev) || ev->lost) {
		pthread_mutex_unlock(&ev_lock);
		return acl_err_at("event", ACL_ERROR_RT_PARAM_INVALID,
				  "event %p was destroyed", event);
	}
	if (ev->imported && !ev->ipc_gen) {
		pthread_mutex_unlock(&ev_lock);
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event %p was opened with aclrtIpcOpenEventHandle after its exporter's record counter was gone: it cannot be recorded",
			       event);
	}
	/* Not under ev_lock: a full ring may wait for another stream that
	 * waits for an event someone else is about to record. */
	id = ev->dev_id;
	cmd.event.handle = ev->handle;
	/* an IPC event's generations are numbered across its processes */
	cmd.event.gen = ev->ipc_gen ? __atomic_add_fetch(ev->ipc_gen, 1, __ATOMIC_SEQ_CST) :
			++ev->gen;
	ev->gen = cmd.event.gen;
	ev->busy++;			/* not reaped before its ref is noted */
	pthread_mutex_unlock(&ev_lock);
	ret = stream_submit_to(stream, id, &cmd, sizeof(cmd), NULL, 0, &si);
	pthread_mutex_lock(&ev_lock);
	ev->busy--;
	if (ret && ev->ipc_gen) {
		burnt = !ipc_give_back(ev, cmd.event.gen);
	} else if (ret) {
		if (ev->gen == cmd.event.gen)
			ev->gen--;	/* nobody recorded after us */
	} else if (ev->gen == cmd.event.gen) {
		ev->recorded = true;
		if (ev->rec_s)
			stream_put(ev->rec_s);
		__atomic_add_fetch(&si.s->refs, 1, __ATOMIC_ACQ_REL);
		ev->rec_s = si.s;
		ev->rec_seq = si.seq;
		ev->rec_resets = si.resets;
	}
	if (!ret)
		stream_uses_add(&ev->uses, si.s, si.seq);
	pthread_mutex_unlock(&ev_lock);
	if (burnt)	/* not under ev_lock: the device lock comes first */
		ipc_complete(id, cmd.event.handle, cmd.event.gen);
	if (si.s)
		stream_put(si.s);
	if (ret == ACL_ERROR_RT_STREAM_CONTEXT && si.s_dev >= 0)
		ret = acl_err_at("event", ACL_ERROR_RT_STREAM_CONTEXT,
				 "stream %p is on device %d but the event was created on device %d",
				 stream, si.s_dev, id);
	return ret;
}

static aclError stream_wait_event(aclrtStream stream, aclrtEvent event, int32_t timeout,
				  bool external);

/*
 * aclrtRecordEvent's fast path, inline: the event this thread used last
 * (t_ev), a local one (not IPC), recorded on the stream this thread used
 * last (acl_t_last) while no stream anywhere records into a model, with
 * every check of record_event() and stream_submit_to() made on the same
 * facts.  The event lock and then the stream lock (the lock order), each
 * once; the command written in its ring slot with plain stores, and the
 * event's notes updated as the full path does.  Nothing here waits (a
 * full ring takes the full path), so the event lock may stay held.
 * False, with nothing done: the caller takes the full path, which finds
 * out what is wrong and says so.
 */
static inline __attribute__((always_inline)) bool
record_cached(aclrtEvent event, aclrtStream stream)
{
	struct acl_stream *s = acl_t_last.s;
	struct acl_event *ev = event;
	struct ascend_cmd *c;
	struct acl_queue *q;
	uint64_t w, gen, resets, *d;

	if (!ev || ev != t_ev.h || !s || stream != acl_t_last.h ||
	    __atomic_load_n(&mdl_recording, __ATOMIC_SEQ_CST))
		return false;
	pthread_mutex_lock(&ev_lock);
	/* as ev_live(): t_ev is still good while nothing was deleted */
	if (t_ev.dels != ev_dels || ev->lost || ev->imported || ev->ipc_gen) {
		pthread_mutex_unlock(&ev_lock);
		return false;
	}
	c = stream_fast_slot(s, ev->dev_id, &w);
	if (!c) {
		pthread_mutex_unlock(&ev_lock);
		return false;
	}
	q = &s->q;
	gen = ev->gen + 1;
	resets = __atomic_load_n(&q->resets, __ATOMIC_SEQ_CST);
	/* the whole slot: the device reads nothing before wptr moves */
	_Static_assert(sizeof(*c) == 16 * 8 && offsetof(struct ascend_cmd, event) == 16 &&
		       offsetof(struct ascend_cmd, event.gen) == 24,
		       "event record layout");
	d = (uint64_t *)c;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	d[0] = ASCEND_CMD_EVENT_RECORD;		/* opcode, flags 0 */
	d[1] = 0;				/* reserved */
	d[2] = ev->handle;			/* handle, flags 0 */
#else
	d[0] = 0;
	d[1] = 0;
	d[2] = 0;
	c->opcode = ASCEND_CMD_EVENT_RECORD;
	c->event.handle = ev->handle;
#endif
	d[3] = gen;
	d[4] = 0; d[5] = 0; d[6] = 0; d[7] = 0; d[8] = 0; d[9] = 0;
	d[10] = 0; d[11] = 0; d[12] = 0; d[13] = 0; d[14] = 0; d[15] = 0;
	q->wptr = w + 1;
	queue_publish(s->dev->fd, q, w + 1);
	exc_note_submit(s, w + 1);
	pthread_mutex_unlock(&s->lock);
	/* as record_event() after a submission (nobody recorded since) */
	ev->gen = gen;
	ev->recorded = true;
	if (ev->rec_s != s) {
		if (ev->rec_s)
			stream_put(ev->rec_s);
		/* alive (checked under its lock): the registry holds one */
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
		ev->rec_s = s;
	}
	ev->rec_seq = w + 1;
	ev->rec_resets = resets;
	if (ev->uses.n && ev->uses.v[0].s == s)
		ev->uses.v[0].seq = w + 1;	/* as stream_uses_add() does */
	else
		stream_uses_add(&ev->uses, s, w + 1);
	pthread_mutex_unlock(&ev_lock);
	return true;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	API_ENTER();
	if (record_cached(event, stream))
		return ACL_SUCCESS;
	return record_event(event, stream, false);
}

aclError event_record_on(aclrtEvent event, aclrtStream stream)
{
	return record_event(event, stream, false);
}

aclError event_wait_on(aclrtStream stream, aclrtEvent event)
{
	return stream_wait_event(stream, event, -1, false);
}

/*
 * The _EXTERNAL flags say how a record or wait relates to a stream being
 * captured into a model (aclmdlRICapture*): one outside the model.  With
 * no capture in this libaclrt every record and wait is outside one, so the
 * flags only need checking (src/acl/aclrt_impl/event.cpp, stream.cpp in
 * hicann/runtime: other values and a timeout with WAIT_EXTERNAL are
 * ACL_ERROR_INVALID_PARAM).
 */
aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
	API_ENTER();
	if (!event)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event is NULL");
	if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag %#x is neither ACL_EVENT_RECORD_DEFAULT (0) nor ACL_EVENT_RECORD_EXTERNAL (1)",
			       flag);
	return record_event(event, stream, flag == ACL_EVENT_RECORD_EXTERNAL);
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
				      uint32_t flag)
{
	API_ENTER();
	if (!event)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event is NULL");
	if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag %#x is neither ACL_EVENT_WAIT_DEFAULT (0) nor ACL_EVENT_WAIT_EXTERNAL (1)",
			       flag);
	if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %u must be 0 with ACL_EVENT_WAIT_EXTERNAL", timeout);
	return stream_wait_event(stream, event, timeout > INT32_MAX ? INT32_MAX : (int32_t)timeout,
				 flag == ACL_EVENT_WAIT_EXTERNAL);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
	struct acl_device *dev, *sdev;
	struct acl_stream *s;
	struct acl_event *ev;
	aclError ret;
	int id;

	API_ENTER();
	ret = ev_get(event, "event", &ev, &dev);
	if (ret)
		return ret;
	id = ev->dev_id;
	/*
	 * CANN's documentation names only ACL_EVENT_SYNC events, but its
	 * runtime resets aclrtCreateEvent's too (their default flags include
	 * the sync bit) and its multi-stream sample relies on it.
	 */
	if (ev->kind != EV_PLAIN && !(ev->flags & ACL_EVENT_SYNC))
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "event %p was created without ACL_EVENT_SYNC (flag %#x), so it cannot be reset",
			      event, ev->flags);
	ev_put(dev);
	if (ret)
		return ret;
	ret = ev_stream(stream, id, &s, &sdev);
	if (ret)
		return ret;
	/* Waits already queued keep the generation they captured; later
	 * queries and waits see an event that was not recorded. */
	pthread_mutex_lock(&ev_lock);
	if (ev_live(ev))
		ev->recorded = false;
	pthread_mutex_unlock(&ev_lock);
	stream_release(s, sdev);
	return ACL_SUCCESS;
}

static aclError stream_wait_event(aclrtStream stream, aclrtEvent event, int32_t timeout,
				  bool external)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_EVENT_WAIT };
	struct acl_device *dev, *sdev;
	struct acl_stream *s;
	struct acl_event *ev;
	uint64_t seq = 0;
	aclError ret;
	int id;

	if (timeout < -1)
		return acl_err_at("stream_wait_event", ACL_ERROR_INVALID_PARAM,
				  "timeout %d is invalid: -1 or 0 wait forever, >0 is milliseconds",
				  timeout);
	ret = ev_get(event, "event", &ev, &dev);
	if (ret)
		return ret;
	id = ev->dev_id;
	if (ev->kind != EV_PLAIN && !(ev->flags & ACL_EVENT_SYNC))
		ret = acl_err_at("stream_wait_event", ACL_ERROR_RT_PARAM_INVALID,
				 "event %p was created without ACL_EVENT_SYNC (flag %#x), so streams cannot wait for it",
				 event, ev->flags);
	ev_put(dev);
	if (ret)
		return ret;
	/* a stream recording into a model run instance, or joining one */
	if (mdl_event_wait(stream, event, external, &ret))
		return ret;
	ret = ev_stream(stream, id, &s, &sdev);
	if (ret)
		return ret;
	pthread_mutex_lock(&ev_lock);
	if (!ev_live(ev) || ev->lost) {
		ret = acl_err_at("stream_wait_event", ACL_ERROR_RT_PARAM_INVALID,
				 "event %p was destroyed", event);
	} else if (ev->recorded && ev->gen) {
		cmd.event.handle = ev->handle;
		cmd.event.gen = ev->gen;
		if (timeout > 0) {
			cmd.event.flags = ASCEND_CMD_EVENT_TIMEOUT;
			cmd.event.timeout_ms = (uint32_t)timeout;
		}
		ev->busy++;		/* submit outside ev_lock, see record */
		pthread_mutex_unlock(&ev_lock);
		ret = stream_submit_seq(s, &cmd, &seq);
		pthread_mutex_lock(&ev_lock);
		ev->busy--;
		if (!ret)
			stream_uses_add(&ev->uses, s, seq);
	}
	/* else: nothing recorded, nothing to wait for */
	pthread_mutex_unlock(&ev_lock);
	stream_release(s, sdev);
	return ret;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
	API_ENTER();
	return stream_wait_event(stream, event, -1, false);
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
	API_ENTER();
	return stream_wait_event(stream, event, timeout, false);
}

enum ev_state { EV_DONE, EV_PENDING, EV_DISCARDED };

/*
 * Where the latest record of @ev stands.  ev_lock and dev rw held.
 * DISCARDED: its stream got past the record without completing it (a
 * fault reset or a forced destroy threw it away).
 */
static enum ev_state ev_state(struct acl_device *dev, struct acl_event *ev, uint64_t gen,
			      uint64_t *ts, int *err)
{
	uint64_t done = 0;

	*err = 0;
	if (ts)
		*ts = 0;
	if (!gen)
		return EV_DONE;
	*err = kquery(dev->fd, ev->handle, 0, 0, &done, ts);
	if (*err)
		return EV_PENDING;
	if (done > ev->done_gen)
		ev->done_gen = done;
	if (done >= gen)
		return EV_DONE;
	if (ev->rec_s && ev->gen == gen &&
	    (__atomic_load_n(&ev->rec_s->dead, __ATOMIC_ACQUIRE) ||
	     (completed_of(ev->rec_s) >= ev->rec_seq && !queue_faulted(&ev->rec_s->q)))) {
		/* re-read: the record may have completed meanwhile */
		if (!kquery(dev->fd, ev->handle, 0, 0, &done, ts) && done >= gen)
			return EV_DONE;
		return EV_DISCARDED;
	}
	return EV_PENDING;
}

/*
 * Has the latest record's stream got past it (or gone)?  Then one query
 * tells whether it ran or was discarded.  Before that, a wait on the
 * kernel event is the whole answer.  ev_lock held.
 */
static bool rec_passed(const struct acl_event *ev, uint64_t gen)
{
	struct acl_stream *rs = ev->gen == gen ? ev->rec_s : NULL;

	return !rs || __atomic_load_n(&rs->dead, __ATOMIC_ACQUIRE) ||
	       completed_of(rs) >= ev->rec_seq || queue_faulted(&rs->q);
}

/*
 * Did the latest record run, by the status page alone?  Its stream
 * completed it and was not reset since it was submitted (a reset moves the
 * completed count past the commands it discards): then the kernel event
 * reached @gen, and no system call is needed.  ev_lock held.
 */
static inline __attribute__((always_inline)) bool
rec_ran(const struct acl_event *ev, uint64_t gen)
{
	struct acl_stream *rs = ev->gen == gen ? ev->rec_s : NULL;
	uint64_t r;

	if (!rs || __atomic_load_n(&rs->dead, __ATOMIC_ACQUIRE))
		return false;
	r = __atomic_load_n(&rs->q.resets, __ATOMIC_SEQ_CST);
	if (r != ev->rec_resets || completed_of(rs) < ev->rec_seq)
		return false;
	return __atomic_load_n(&rs->q.resets, __ATOMIC_SEQ_CST) == r;
}

/*
 * Spin this long for the latest record to execute before sleeping in the
 * kernel: a record on an idle stream runs within microseconds, and a
 * sleep and wake-up cost more than that.
 */
#define SPIN_NS		5000

static aclError query(aclrtEvent event, bool *complete)
{
	struct acl_device *dev;
	struct acl_event *ev;
	enum ev_state st;
	uint64_t gen;
	aclError ret;
	int err;

	ret = ev_get(event, "event", &ev, &dev);
	if (ret)
		return ret;
	gen = ev->recorded ? ev->gen : 0;
	/*
	 * The device writes the event before it completes the record in the
	 * stream: a wait may have seen the one before the stream shows the
	 * other.  What was seen complete stays complete.
	 */
	if (gen && ev->done_gen >= gen) {
		*complete = true;
		ev_put(dev);
		return ACL_SUCCESS;
	}
	if (gen && !rec_passed(ev, gen)) {
		/* its stream has not executed the record: no system call */
		*complete = false;
		ev_put(dev);
		return ACL_SUCCESS;
	}
	st = ev_state(dev, ev, gen, NULL, &err);
	if (err)
		ret = acl_err_at("event", acl_drv_code(err, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
				 "querying event %p failed: %s", event, strerror(err));
	*complete = st != EV_PENDING;	/* a discarded record never completes */
	ev_put(dev);
	return ret;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
	aclError ret;
	bool done;

	API_ENTER();
	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	ret = query(event, &done);
	if (!ret)
		*status = done ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
	return ret;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	aclError ret;
	bool done;

	API_ENTER();
	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	ret = query(event, &done);
	if (!ret)
		*status = done ? ACL_EVENT_RECORDED_STATUS_COMPLETE :
			ACL_EVENT_RECORDED_STATUS_NOT_READY;
	return ret;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
	aclError ret;
	bool done;

	API_ENTER();
	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	ret = query(event, &done);
	if (!ret)
		*status = done ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
	return ret;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/*
 * Sleep on the kernel event until @gen completes, at most a slice (and
 * not past @deadline).  1: completed; 0: not yet (the deadline has not
 * passed); -1: *@ret is the error.  ev_lock held, dropped while asleep.
 */
static int wait_slice(struct acl_device *dev, struct acl_event *ev, aclrtEvent event,
		      uint64_t gen, int64_t deadline, int32_t timeout, aclError *ret)
{
	int64_t slice = mono_ns() + SLICE_NS;
	uint32_t h = ev->handle;
	uint64_t done = 0;
	int err;

	if (deadline != DRM_ASCEND_TIMEOUT_INFINITE && deadline < slice)
		slice = deadline;
	pthread_mutex_unlock(&ev_lock);
	err = kquery(dev->fd, h, gen, slice, &done, NULL);
	pthread_mutex_lock(&ev_lock);
	if (!err && done >= gen)
		return 1;
	if (err && err != ETIME && err != ETIMEDOUT) {
		*ret = acl_err_at("aclrtSynchronizeEvent",
				  acl_drv_code(err, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
				  "waiting for event %p failed: %s", event, strerror(err));
		return -1;
	}
	if (deadline != DRM_ASCEND_TIMEOUT_INFINITE && mono_ns() >= deadline) {
		*ret = acl_err_at("aclrtSynchronizeEvent", ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
				  "event %p did not complete within %d ms", event, timeout);
		return -1;
	}
	return 0;
}

/*
 * The fast path of a host wait: the latest record of a local event ran,
 * or runs within the spin (a record on an idle stream does).  No device
 * lock, no system call; the event lock once.  False: take the full path.
 */
static inline __attribute__((always_inline)) bool
sync_event_fast(struct acl_event *ev, bool *spun)
{
	struct acl_stream *rs;
	uint64_t gen, seq, resets;
	bool ran = false;
	unsigned int n = 0;
	int64_t end = 0;

	pthread_mutex_lock(&ev_lock);
	if (!ev_live(ev) || ev->lost || ev->imported || !ev->recorded ||
	    !ev->rec_s) {
		pthread_mutex_unlock(&ev_lock);
		return false;
	}
	gen = ev->gen;
	if (rec_ran(ev, gen)) {
		pthread_mutex_unlock(&ev_lock);
		return true;
	}
	rs = ev->rec_s;
	seq = ev->rec_seq;
	resets = ev->rec_resets;
	__atomic_add_fetch(&rs->refs, 1, __ATOMIC_ACQ_REL);	/* status stays mapped */
	pthread_mutex_unlock(&ev_lock);
	*spun = true;
	/* as rec_ran(): completed, and no reset since it was submitted */
	while (!__atomic_load_n(&rs->dead, __ATOMIC_ACQUIRE) && !queue_faulted(&rs->q) &&
	       __atomic_load_n(&rs->q.resets, __ATOMIC_SEQ_CST) == resets) {
		if (completed_of(rs) >= seq) {
			ran = __atomic_load_n(&rs->q.resets, __ATOMIC_SEQ_CST) == resets;
			break;
		}
		/*
		 * The clock costs (a helper call under TCG): every 8th turn,
		 * and not before the first 8 (a record on an idle stream runs
		 * within a pause or two), which start the SPIN_NS.
		 */
		if (++n % 8 == 0) {
			int64_t t = mono_ns();

			if (!end)
				end = t + SPIN_NS;
			else if (t >= end)
				break;
		}
		cpu_pause();
	}
	stream_put(rs);
	return ran;
}

/*
 * One system call in the common cases: a record its stream has not
 * executed yet is waited for with EVENT_WAIT at once (the reply says the
 * event completed); a record the stream got past costs one query.  Faults
 * and discarded records are decided by ev_state() as before.
 */
static aclError sync_event(aclrtEvent event, int32_t timeout, bool spun)
{
	int64_t deadline;
	struct acl_device *dev;
	struct acl_stream *rs;
	struct acl_event *ev;
	enum ev_state st;
	uint64_t gen;
	aclError ret;
	int err, w;

	deadline = deadline_from_ms(timeout);
	ret = ev_get(event, "event", &ev, &dev);
	if (ret)
		return ret;
	gen = ev->recorded ? ev->gen : 0;
	ev->busy++;
	if (!spun && gen && deadline != 0 && !rec_passed(ev, gen)) {
		int64_t end = mono_ns() + SPIN_NS;

		do
			cpu_pause();
		while (!rec_passed(ev, gen) && mono_ns() < end);
	}
	for (;;) {
		if (gen && rec_ran(ev, gen))
			break;		/* executed: no system call */
		if (gen && deadline != 0 && !rec_passed(ev, gen)) {
			/* not executed yet: sleep on the event itself */
			w = wait_slice(dev, ev, event, gen, deadline, timeout, &ret);
			if (w)
				break;
			continue;	/* a slice ended: look at the stream again */
		}
		st = ev_state(dev, ev, gen, NULL, &err);
		if (err) {
			ret = acl_err_at("aclrtSynchronizeEvent",
					 acl_drv_code(err, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
					 "waiting for event %p failed: %s", event, strerror(err));
			break;
		}
		if (st == EV_DONE)
			break;
		rs = ev->gen == gen ? ev->rec_s : NULL;
		if (rs && queue_faulted(&rs->q)) {
			/* the recording stream faulted: report it (once) */
			ret = queue_fault_error(&rs->q, 0);
			__atomic_add_fetch(&rs->refs, 1, __ATOMIC_ACQ_REL);
			pthread_mutex_unlock(&ev_lock);
			stream_recover(rs);
			stream_put(rs);
			pthread_mutex_lock(&ev_lock);
			break;
		}
		if (st == EV_DISCARDED) {
			ret = acl_err_at("aclrtSynchronizeEvent", ACL_ERROR_RT_STREAM_ABORT,
					 "event %p will not complete: its record (generation %llu) was discarded when its stream was reset after a fault or force-destroyed",
					 event, (unsigned long long)gen);
			break;
		}
		if (deadline == 0) {
			ret = acl_err_at("aclrtSynchronizeEvent", ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
					 "event %p did not complete within %d ms", event, timeout);
			break;
		}
		/* pending though its stream got past it (a newer record
		 * replaced the one we wait for): wait on the event */
		if (wait_slice(dev, ev, event, gen, deadline, timeout, &ret))
			break;
	}
	/* complete for this generation, whichever way the wait learnt it */
	if (ret == ACL_SUCCESS && gen > ev->done_gen)
		ev->done_gen = gen;
	ev->busy--;
	ev_put(dev);
	return ret;
}

/* The fast path inline, then the full one (@spun: not again) */
aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	bool spun = false;

	API_ENTER();
	if (event && sync_event_fast(event, &spun))
		return ACL_SUCCESS;
	return sync_event(event, -1, spun);
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
	bool spun = false;

	API_ENTER();
	if (timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %d is invalid: -1 waits forever, 0 polls, >0 is milliseconds",
			       timeout);
	if (event && timeout != 0 && sync_event_fast(event, &spun))
		return ACL_SUCCESS;
	return sync_event(event, timeout, spun);
}

/* Device timestamp (ns) of @ev's latest record, which must be complete. */
static aclError timestamp(aclrtEvent event, const char *name, uint64_t *ns)
{
	struct acl_device *dev;
	struct acl_event *ev;
	enum ev_state st;
	aclError ret;
	int err;

	ret = ev_get(event, name, &ev, &dev);
	if (ret)
		return ret;
	if (!ev->recorded || !ev->gen) {
		ret = acl_err_at("event", ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
				 "%s %p has not been recorded", name, event);
	} else {
		st = ev_state(dev, ev, ev->gen, ns, &err);
		if (err)
			ret = acl_err_at("event", acl_drv_code(err, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
					 "querying %s %p failed: %s", name, event, strerror(err));
		else if (st != EV_DONE)
			ret = acl_err_at("event", ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
					 "%s %p has not completed yet (synchronize it first)",
					 name, event);
		else if (!*ns)
			ret = acl_err_at("event", ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
					 "%s %p takes no timestamps (create it with aclrtCreateEvent or ACL_EVENT_TIME_LINE)",
					 name, event);
	}
	ev_put(dev);
	return ret;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
	uint64_t t0, t1;
	aclError ret;

	API_ENTER();
	if (!ms)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ms is NULL");
	ret = timestamp(startEvent, "startEvent", &t0);
	if (!ret)
		ret = timestamp(endEvent, "endEvent", &t1);
	if (ret)
		return ret;
	if (t1 < t0)
		return acl_err(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
			       "endEvent %p completed %llu ns before startEvent %p",
			       endEvent, (unsigned long long)(t0 - t1), startEvent);
	*ms = (float)((double)(t1 - t0) / 1e6);
	return ACL_SUCCESS;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp_us)
{
	uint64_t ns;
	aclError ret;

	API_ENTER();
	if (!timestamp_us)
		return acl_err(ACL_ERROR_INVALID_PARAM, "timestamp is NULL");
	ret = timestamp(event, "event", &ns);
	if (!ret)
		*timestamp_us = ns / 1000;	/* CANN reports microseconds */
	return ret;
}

/* FNV-1a: names the shared generation word without revealing the key. */
static uint64_t key_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*key) {
		h ^= (unsigned char)*key++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The shared word of @key: created (exporter) or opened (importer). */
static uint64_t *map_gen(const char *key, char path[64], bool create)
{
	static const char *const dirs[] = { "/dev/shm", "/tmp" };
	int fd = -1;
	size_t i;
	void *p;

	for (i = 0; fd < 0 && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, 64, "%s/aclrt-ipcev-%016llx", dirs[i],
			 (unsigned long long)key_hash(key));
		fd = open(path, create ? O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC :
			  O_RDWR | O_CLOEXEC, 0600);
	}
	if (fd < 0)
		return NULL;
	if (create && ftruncate(fd, sizeof(uint64_t))) {
		close(fd);
		unlink(path);
		return NULL;
	}
	p = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		if (create)
			unlink(path);
		return NULL;
	}
	return p;
}

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
	struct acl_device *dev;
	struct acl_event *ev;
	char key[DRM_ASCEND_IPC_KEY_LEN], path[64];
	aclError ret;

	API_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	ret = ev_get(event, "event", &ev, &dev);
	if (ret)
		return ret;
	if (ev->kind == EV_PLAIN || !(ev->flags & ACL_EVENT_IPC) || ev->imported) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "event %p %s", event, ev->imported ?
			      "was itself opened from an IPC handle" :
			      "was not created with ACL_EVENT_IPC (aclrtCreateEventExWithFlag/aclrtCreateEventWithFlag)");
		goto out;
	}
	if (!ev->ipc_key[0]) {
		ret = ipc_export(dev, DRM_ASCEND_IPC_EVENT, DRM_ASCEND_IPC_NO_PID_CHECK, 0, 0,
				 ev->handle, key);
		if (ret)
			goto out;
		ev->ipc_gen = map_gen(key, path, true);
		if (!ev->ipc_gen) {
			struct drm_ascend_ipc_close c = { 0 };

			memcpy(c.key, key, sizeof(c.key));
			drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_CLOSE, &c);
			ret = acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
				      "cannot create the shared record counter in /dev/shm or /tmp: %s",
				      strerror(errno));
			goto out;
		}
		*ev->ipc_gen = ev->recorded ? ev->gen : 0;
		memcpy(ev->ipc_key, key, sizeof(key));
		memcpy(ev->ipc_path, path, sizeof(path));
	}
	memset(handle, 0, sizeof(*handle));
	memcpy(handle->reserved, ev->ipc_key,
	       strnlen(ev->ipc_key, sizeof(handle->reserved)));
out:
	ev_put(dev);
	return ret;
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
	struct drm_ascend_ipc_import im;
	char key[DRM_ASCEND_IPC_KEY_LEN] = { 0 }, path[64];
	struct acl_device *dev;
	struct acl_event *ev;
	aclError ret;

	API_ENTER();
	if (!event)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event is NULL");
	memcpy(key, handle.reserved, sizeof(handle.reserved));
	if (!key[0])
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "handle is empty (not filled by aclrtIpcGetEventHandle)");
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	ret = dev_acquire_current(&dev);
	if (ret) {
		free(ev);
		return ret;
	}
	ret = ipc_import(dev, key, DRM_ASCEND_IPC_EVENT, &im);
	if (ret) {
		dev_release(dev);
		free(ev);
		return ret;
	}
	ev->ipc_gen = map_gen(key, path, false);	/* NULL: exporter gone */
	ev->dev_id = dev->id;
	ev->kind = EV_FLAG;
	ev->flags = ACL_EVENT_SYNC | ACL_EVENT_IPC;
	ev->handle = im.handle;
	ev->imported = true;
	memcpy(ev->ipc_key, key, sizeof(key));
	pthread_mutex_lock(&ev_lock);
	ipc_refresh(ev);
	ev->next = ev_list;
	ev_list = ev;
	handle_add(ev, H_EVENT);
	pthread_mutex_unlock(&ev_lock);
	dev_release(dev);
	*event = ev;
	return ACL_SUCCESS;
}
