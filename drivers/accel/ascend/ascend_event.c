// SPDX-License-Identifier: GPL-2.0-only
/*
 * Events: the EVENT_* ioctls and the helpers the command processor uses
 * for ASCEND_CMD_EVENT_RECORD and ASCEND_CMD_EVENT_WAIT.
 *
 * An event lives in its file's xarray (handles from 1).  Lookups take a
 * reference under the xarray's lock, so the table's reference is still
 * held when they do; destroy erases the handle and drops the table's
 * reference.  A queue command stalled on an event holds its own reference.
 *
 * IPC (ascend_ipc.c) shares one event between files of the device: an
 * export and every importer's table hold a "handle" (@handles) besides a
 * reference.  Destroying a handle, or closing its file, kills the event
 * (marks it dead, wakes its waiters, faults stalled commands) only when it
 * was the last handle or export naming it.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_utils.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "ascend_drv.h"
#include "ascend_event.h"
#include "ascend_hw.h"
#include "ascend_queue.h"

void ascend_event_init(struct ascend_event *e, struct ascend_device *adev,
		       u32 flags)
{
	kref_init(&e->ref);
	refcount_set(&e->handles, 1);
	e->adev = adev;
	e->flags = flags;
	spin_lock_init(&e->lock);
	init_waitqueue_head(&e->wq);
}

static void ascend_event_release(struct kref *ref)
{
	kfree(container_of(ref, struct ascend_event, ref));
}

void ascend_event_put(struct ascend_event *e)
{
	kref_put(&e->ref, ascend_event_release);
}

struct ascend_event *ascend_event_get(struct ascend_file *af, u32 handle)
{
	struct ascend_event *e;

	xa_lock(&af->events);
	e = xa_load(&af->events, handle);
	if (e)
		kref_get(&e->ref);
	xa_unlock(&af->events);
	return e;
}

void ascend_event_complete(struct ascend_event *e, u64 gen)
{
	spin_lock(&e->lock);
	if (gen >= e->completed) {
		e->completed = gen;
		if (e->flags & DRM_ASCEND_EVENT_TIMESTAMP)
			e->timestamp_ns = ktime_get_ns();
	}
	spin_unlock(&e->lock);
	/* a record nobody waits for on the host skips the wait-queue lock */
	if (wq_has_sleeper(&e->wq))
		wake_up_all(&e->wq);
}

bool ascend_event_reached(struct ascend_event *e, u64 gen)
{
	bool ret;

	spin_lock(&e->lock);
	ret = e->dead || e->completed >= gen;
	spin_unlock(&e->lock);
	return ret;
}

bool ascend_event_dead(struct ascend_event *e)
{
	return READ_ONCE(e->dead);
}

void ascend_event_file_init(struct ascend_file *af)
{
	xa_init_flags(&af->events, XA_FLAGS_ALLOC1);
}

static void ascend_event_kill(struct ascend_event *e)
{
	spin_lock(&e->lock);
	WRITE_ONCE(e->dead, true);
	spin_unlock(&e->lock);
	wake_up_all(&e->wq);
}

void ascend_event_hold(struct ascend_event *e)
{
	refcount_inc(&e->handles);
	kref_get(&e->ref);
}

/* Queues stalled on an event re-check it (not once the device is gone). */
static void ascend_event_kick(struct ascend_device *adev)
{
	int idx;

	if (drm_dev_enter(&adev->drm, &idx)) {
		adev->hw->queue_doorbell(adev, NULL);
		drm_dev_exit(idx);
	}
}

/* Drop a handle and its reference; the last handle kills the event. */
void ascend_event_unhold(struct ascend_event *e)
{
	if (refcount_dec_and_test(&e->handles)) {
		ascend_event_kill(e);
		/* queues stalled on it re-check and fault */
		ascend_event_kick(e->adev);
	}
	ascend_event_put(e);
}

void ascend_event_device_lost(struct ascend_device *adev)
{
	struct drm_file *file;
	struct ascend_event *e;
	unsigned long idx;

	/*
	 * adev->lost is set: wake every host waiter so that it sees it.  A
	 * file leaves the list before its events go (postclose).
	 */
	mutex_lock(&adev->drm.filelist_mutex);
	list_for_each_entry(file, &adev->drm.filelist, lhead) {
		struct ascend_file *af = to_ascend_file(file);

		xa_lock(&af->events);
		xa_for_each(&af->events, idx, e)
			wake_up_all(&e->wq);
		xa_unlock(&af->events);
	}
	mutex_unlock(&adev->drm.filelist_mutex);
}

int ascend_event_import(struct ascend_file *af, struct ascend_event *e,
			u32 *handle)
{
	int ret;

	ascend_event_hold(e);
	ret = xa_alloc(&af->events, handle, e,
		       XA_LIMIT(1, ASCEND_MAX_EVENTS_PER_FILE), GFP_KERNEL);
	if (ret) {
		ascend_event_unhold(e);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	return 0;
}

void ascend_event_file_fini(struct ascend_file *af)
{
	struct ascend_event *e;
	unsigned long idx;

	xa_for_each(&af->events, idx, e) {
		xa_erase(&af->events, idx);
		ascend_event_unhold(e);
	}
	xa_destroy(&af->events);
}

/* ------------------------------------------------------------------------ */
/* ioctls */

int ascend_ioctl_event_create(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_event_create *args = data;
	struct ascend_event *e;
	u32 handle;
	int ret;

	if (args->flags & ~DRM_ASCEND_EVENT_FLAGS)
		return -EINVAL;
	if (ascend_should_fail(to_ascend_device(drm),
			       ASCEND_FAULT_SITE_EVENT_CREATE))
		return -ENOMEM;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	ascend_event_init(e, to_ascend_device(drm), args->flags);

	ret = xa_alloc(&af->events, &handle, e,
		       XA_LIMIT(1, ASCEND_MAX_EVENTS_PER_FILE), GFP_KERNEL);
	if (ret) {
		kfree(e);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	args->handle = handle;
	return 0;
}

int ascend_ioctl_event_destroy(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_event_destroy *args = data;
	struct ascend_event *e;

	if (args->pad)
		return -EINVAL;

	e = xa_erase(&af->events, args->handle);
	if (!e)
		return -ENOENT;
	ascend_event_unhold(e);
	return 0;
}

int ascend_ioctl_event_wait(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_event_wait *args = data;
	struct ascend_event *e;
	long timeout, ret = 0;

	if (args->flags)
		return -EINVAL;

	e = ascend_event_get(af, args->handle);
	if (!e)
		return -ENOENT;

	if (args->gen) {
		if (args->timeout_ns == DRM_ASCEND_TIMEOUT_INFINITE)
			timeout = MAX_SCHEDULE_TIMEOUT;
		else
			timeout = drm_timeout_abs_to_jiffies(args->timeout_ns);
		/* 0 timeout: evaluates the condition once, never sleeps */
		/* a lost device completes nothing any more */
		ret = wait_event_interruptible_timeout(e->wq,
						       ascend_event_reached(e, args->gen) ||
						       READ_ONCE(e->adev->lost),
						       timeout);
		if (ret < 0)
			goto out;
	}

	spin_lock(&e->lock);
	args->completed = e->completed;
	args->timestamp_ns = e->timestamp_ns;
	spin_unlock(&e->lock);

	if (ascend_event_dead(e))
		ret = -ENOENT;
	else if (args->gen && args->completed < args->gen)
		ret = READ_ONCE(e->adev->lost) ? -ENODEV : -ETIME;
	else
		ret = 0;
out:
	ascend_event_put(e);
	return ret;
}

int ascend_ioctl_event_signal(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_event_signal *args = data;
	struct ascend_event *e;

	if (args->pad)
		return -EINVAL;

	e = ascend_event_get(af, args->handle);
	if (!e)
		return -ENOENT;
	ascend_event_complete(e, args->gen);
	/* queues stalled on the event re-check at once (a hw ioctl) */
	e->adev->hw->queue_doorbell(e->adev, NULL);
	ascend_event_put(e);
	return 0;
}
