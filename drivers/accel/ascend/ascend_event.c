// SPDX-License-Identifier: GPL-2.0-only
/*
 * Events: the EVENT_* ioctls, the handles queue commands name, and the
 * device's event slots behind them.
 *
 * An event is a slot of the device's event memory (ascend_hw.h): the device
 * alone writes its generation, for EVENT_RECORD commands and for the host's
 * EVENT_SIGNAL (a register write), and raises its notification interrupt,
 * which wakes the host waiters (ascend_irq.c -> ascend_event_notified()).
 * The driver reads the generation through the aperture.
 *
 * A handle lives in its file's xarray (handles from 1) and, for the device,
 * in the file's event table (ascend_evtab.c).  Lookups take a reference
 * under the xarray's lock.  Destroy erases the handle from both tables and
 * drops the table's reference.  The slot goes back only with the last
 * reference, after the device's event_sync: nothing the device looked up
 * can then touch the slot's next owner, and an ioctl still holding the
 * event never signals a slot that is somebody else's.
 *
 * Bounds: at most ASCEND_HW_EVENT_SLOTS - 1 events per device (the slots)
 * and ASCEND_MAX_EVENTS_PER_FILE handles per file (created or imported);
 * the event objects and both xarrays' nodes are charged to the memory
 * cgroup of the caller that allocates them (GFP_KERNEL_ACCOUNT).  A
 * file's event table is device memory (page-table pages, ascend_evtab.c).
 *
 * IPC (ascend_ipc.c) shares one event between files, of its device or of
 * another one: an export and every importer's table hold a "handle"
 * (@handles) besides a reference.  A file of another device gets a remote
 * entry in its event table (ascend_hw.h, "Event tables"): its device's
 * commands record and wait on the owner's slot across the bus, the owner's
 * interrupt wakes the host waiters, and every access goes through the
 * owner's device (e->adev), which each event keeps a reference on.
 * Destroying a handle, or closing its file, kills the event (marks it
 * dead, wakes its waiters) only when it was the last handle or export
 * naming it; a queue parked on a handle its file destroyed faults.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_utils.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "ascend_drv.h"
#include "ascend_event.h"
#include "ascend_hw.h"
#include "ascend_queue.h"

static void ascend_event_slots_fini(struct drm_device *drm, void *arg)
{
	struct xarray *slots = arg;

	WARN_ON(!xa_empty(slots));
	xa_destroy(slots);
}

int ascend_event_device_init(struct ascend_device *adev)
{
	xa_init_flags(&adev->event_slots, XA_FLAGS_ALLOC1);
	return drmm_add_action_or_reset(&adev->drm, ascend_event_slots_fini,
					&adev->event_slots);
}

/* No command of @adev still uses a slot it looked up before. */
static void ascend_event_sync(struct ascend_device *adev)
{
	int idx;

	if (drm_dev_enter(&adev->drm, &idx)) {
		adev->hw_ops->event_sync(adev->hw);
		drm_dev_exit(idx);
	}
}

static void ascend_event_release(struct kref *ref)
{
	struct ascend_event *e = container_of(ref, struct ascend_event, ref);
	struct ascend_device *adev = e->adev;

	/* no command the device looked the slot up for still uses it */
	ascend_event_sync(adev);
	xa_erase(&adev->event_slots, e->slot);
	ascend_user_uncharge_event(e->user);
	ascend_user_put(e->user);
	/* the interrupt handler may still be looking at it */
	kfree_rcu(e, rcu);
	/* a file of another device may have held the last reference */
	drm_dev_put(&adev->drm);
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

/* The completed generation. */
static u64 ascend_event_gen(struct ascend_event *e)
{
	/* acquire: pairs with the device's release of the record */
	return le64_to_cpu(smp_load_acquire(&e->hw->gen));
}

bool ascend_event_reached(struct ascend_event *e, u64 gen)
{
	struct ascend_device *adev = e->adev;
	bool ret;
	int idx;

	if (READ_ONCE(e->dead) || READ_ONCE(adev->lost))
		return true;
	if (!drm_dev_enter(&adev->drm, &idx))
		return true;
	ret = ascend_event_gen(e) >= gen;
	drm_dev_exit(idx);
	return ret;
}

/* The same as a wait condition: arms the slot's notification first. */
static bool ascend_event_wait_reached(struct ascend_event *e, u64 gen)
{
	struct ascend_device *adev = e->adev;
	int idx;

	if (ascend_event_reached(e, gen))
		return true;
	if (drm_dev_enter(&adev->drm, &idx)) {
		WRITE_ONCE(e->hw->irq_armed, cpu_to_le32(1));
		drm_dev_exit(idx);
	}
	/* the arm is seen before the generation is read again */
	smp_mb();
	return ascend_event_reached(e, gen);
}

void ascend_event_notified(struct ascend_device *adev, u32 slot)
{
	struct ascend_event *e = xa_load(&adev->event_slots, slot);

	/* a record nobody waits for on the host skips the wait-queue lock */
	if (e && wq_has_sleeper(&e->wq))
		wake_up_all(&e->wq);
}

void ascend_event_file_init(struct ascend_file *af)
{
	xa_init_flags(&af->events, XA_FLAGS_ALLOC1);
	ascend_evtab_init(&af->evtab);
}

static void ascend_event_kill(struct ascend_event *e)
{
	WRITE_ONCE(e->dead, true);
	wake_up_all(&e->wq);
}

void ascend_event_hold(struct ascend_event *e)
{
	refcount_inc(&e->handles);
	kref_get(&e->ref);
}

bool ascend_event_hold_live(struct ascend_event *e)
{
	if (!refcount_inc_not_zero(&e->handles))
		return false;
	kref_get(&e->ref);
	return true;
}

/* Queues parked on an event re-check it (not once the device is gone). */
static void ascend_event_kick(struct ascend_device *adev)
{
	int idx;

	if (drm_dev_enter(&adev->drm, &idx)) {
		adev->hw_ops->queue_doorbell(adev->hw, ASCEND_HW_QUEUE_ALL);
		drm_dev_exit(idx);
	}
}

/* Drop a handle and its reference; the last handle kills the event. */
void ascend_event_unhold(struct ascend_event *e)
{
	if (refcount_dec_and_test(&e->handles))
		ascend_event_kill(e);
	ascend_event_put(e);
}

void ascend_event_device_lost(struct ascend_device *adev)
{
	struct ascend_event *e;
	unsigned long idx;

	/* adev->lost is set: wake every host waiter so that it sees it */
	rcu_read_lock();
	xa_for_each(&adev->event_slots, idx, e)
		wake_up_all(&e->wq);
	rcu_read_unlock();
}

/* @af's event table entry for @e: a remote one for another device's. */
static u32 ascend_event_entry(struct ascend_file *af, struct ascend_event *e)
{
	return e->adev == af->adev ? e->slot :
	       ascend_hw_evtab_remote(e->slot, e->adev->index);
}

/* Put @e under a new handle of @af, in both tables; holds a handle. */
static int ascend_event_add(struct ascend_file *af, struct ascend_event *e,
			    u32 *handle)
{
	int ret;

	ret = xa_alloc(&af->events, handle, e,
		       XA_LIMIT(1, ASCEND_MAX_EVENTS_PER_FILE), GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret == -EBUSY ? -ENOSPC : ret;
	ret = ascend_evtab_set(af->adev, &af->evtab, *handle,
			       ascend_event_entry(af, e));
	if (ret) {
		xa_erase(&af->events, *handle);
		return ret;
	}
	return 0;
}

int ascend_event_import(struct ascend_file *af, struct ascend_event *e,
			u32 *handle)
{
	/* the caller's hold, taken under the IPC lock, becomes the table's */
	return ascend_event_add(af, e, handle);
}

void ascend_event_file_fini(struct ascend_file *af)
{
	struct ascend_event *e;
	unsigned long idx;

	/* the file's queues are stopped: the device reads its table no more */
	xa_for_each(&af->events, idx, e) {
		xa_erase(&af->events, idx);
		ascend_event_unhold(e);
	}
	xa_destroy(&af->events);
	ascend_evtab_fini(af->adev, &af->evtab);
}

/*
 * A new event with a fresh slot, charged to @user, or an ERR_PTR: -ENOSPC
 * when every slot of the device is taken or @user has its share.  Inside
 * drm_dev_enter().
 */
static struct ascend_event *ascend_event_new(struct ascend_device *adev,
					     struct ascend_user *user, u32 flags)
{
	struct ascend_event *e;
	u64 addr;
	void *page;
	int ret;

	ret = ascend_user_charge_event(user);
	if (ret)
		return ERR_PTR(ret);
	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e) {
		ascend_user_uncharge_event(user);
		return ERR_PTR(-ENOMEM);
	}
	e->user = ascend_user_get(user);
	drm_dev_get(&adev->drm);
	kref_init(&e->ref);
	refcount_set(&e->handles, 1);
	e->adev = adev;
	e->flags = flags;
	init_waitqueue_head(&e->wq);

	ret = xa_alloc(&adev->event_slots, &e->slot, e,
		       XA_LIMIT(1, ASCEND_HW_EVENT_SLOTS - 1),
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		ascend_user_uncharge_event(user);
		ascend_user_put(user);
		drm_dev_put(&adev->drm);
		kfree(e);
		return ERR_PTR(ret == -EBUSY ? -ENOSPC : ret);
	}
	addr = ascend_hw_event_slot_addr(adev->hbm_size, e->slot);
	page = adev->hw_ops->hbm_map_page ?
	       adev->hw_ops->hbm_map_page(adev->hw, round_down(addr, PAGE_SIZE)) : NULL;
	if (!page) {
		xa_erase(&adev->event_slots, e->slot);
		ascend_user_uncharge_event(user);
		ascend_user_put(user);
		drm_dev_put(&adev->drm);
		kfree_rcu(e, rcu);
		return ERR_PTR(-ENOMEM);
	}
	e->hw = page + offset_in_page(addr);
	/* nothing of the device uses a free slot (see the release) */
	WRITE_ONCE(e->hw->gen, 0);
	WRITE_ONCE(e->hw->timestamp, 0);
	WRITE_ONCE(e->hw->flags, cpu_to_le32(flags & DRM_ASCEND_EVENT_TIMESTAMP ?
					     ASCEND_HW_EVENT_TIMESTAMP : 0));
	WRITE_ONCE(e->hw->irq_armed, 0);
	return e;
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

	e = ascend_event_new(to_ascend_device(drm), af->user, args->flags);
	if (IS_ERR(e))
		return PTR_ERR(e);
	ret = ascend_event_add(af, e, &handle);
	if (ret) {
		ascend_event_unhold(e);
		return ret;
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
	/* the device's commands no longer find it under this handle */
	ascend_evtab_set(af->adev, &af->evtab, args->handle, 0);
	/*
	 * The release syncs the owner's device; for another device's event
	 * this device's commands must be done with the slot too.
	 */
	if (e->adev != af->adev)
		ascend_event_sync(af->adev);
	/* queues parked on it re-check and fault */
	ascend_event_kick(af->adev);
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
	int idx;

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
						       ascend_event_wait_reached(e, args->gen) ||
						       READ_ONCE(e->adev->lost),
						       timeout);
		if (ret < 0)
			goto out;
	}

	args->completed = 0;
	args->timestamp_ns = 0;
	/* the slot is in the owner's memory, maybe another device's */
	if (drm_dev_enter(&e->adev->drm, &idx)) {
		args->completed = ascend_event_gen(e);
		if (e->flags & DRM_ASCEND_EVENT_TIMESTAMP)
			args->timestamp_ns = le64_to_cpu(READ_ONCE(e->hw->timestamp));
		drm_dev_exit(idx);
	}

	if (READ_ONCE(e->dead))
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
	int idx;

	if (args->pad)
		return -EINVAL;

	e = ascend_event_get(af, args->handle);
	if (!e)
		return -ENOENT;
	/* the device records it and wakes its own waiters and the host's */
	if (!READ_ONCE(e->dead) && drm_dev_enter(&e->adev->drm, &idx)) {
		e->adev->hw_ops->event_signal(e->adev->hw, e->slot, args->gen);
		drm_dev_exit(idx);
	}
	/* queues of this file's device parked on another device's event */
	if (e->adev != af->adev)
		ascend_event_kick(af->adev);
	ascend_event_put(e);
	return 0;
}
