/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Events: per-file objects counting completed generations.  Queue commands
 * (ASCEND_CMD_EVENT_RECORD / _WAIT) and the EVENT_* ioctls complete and
 * wait for generations; see include/uapi/drm/ascend_accel.h.
 */
#ifndef __ASCEND_EVENT_H__
#define __ASCEND_EVENT_H__

#include <linux/kref.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

struct ascend_device;
struct ascend_file;

/**
 * struct ascend_event - one event
 * @ref: references: the handle tables holding it, IPC exports, each ioctl
 *	using the event, and each queue command stalled on it
 * @handles: handles (in the creator's and importers' tables) and IPC
 *	exports naming the event; when the last goes the event is dead
 * @adev: the device (its command processor is kicked on host signals)
 * @flags: DRM_ASCEND_EVENT_* given at creation
 * @lock: protects @completed, @timestamp_ns and @dead
 * @completed: highest generation completed so far
 * @timestamp_ns: ktime_get_ns() when @completed was recorded (with
 *	%DRM_ASCEND_EVENT_TIMESTAMP), else 0
 * @dead: destroyed: waiters leave with -ENOENT, commands fault
 * @wq: host waiters
 */
struct ascend_event {
	struct kref ref;
	refcount_t handles;
	struct ascend_device *adev;
	u32 flags;
	spinlock_t lock;	/* completed, timestamp_ns, dead */
	u64 completed;
	u64 timestamp_ns;
	bool dead;
	wait_queue_head_t wq;
};

/* Per-file event table: called from open and postclose (ascend_drv.c). */
void ascend_event_file_init(struct ascend_file *af);
/* After ascend_queue_file_fini(): no queue command holds a lookup then. */
void ascend_event_file_fini(struct ascend_file *af);

void ascend_event_init(struct ascend_event *e, struct ascend_device *adev,
		       u32 flags);

/* Look up @handle and take a reference, or NULL.  Any context. */
struct ascend_event *ascend_event_get(struct ascend_file *af, u32 handle);
void ascend_event_put(struct ascend_event *e);

/*
 * Sharing (ascend_ipc.c): an IPC export holds a handle and a reference
 * (ascend_event_hold / ascend_event_unhold); an import puts the SAME event
 * in the importer's table (ascend_event_import), so record and wait in
 * either process act on one generation counter and one waitqueue.  The
 * event dies when the last handle or export naming it is gone.
 */
void ascend_event_hold(struct ascend_event *e);
void ascend_event_unhold(struct ascend_event *e);
/* A handle in @af's table for @e (of @af's device): 0, -ENOSPC, -ENOMEM. */
int ascend_event_import(struct ascend_file *af, struct ascend_event *e,
			u32 *handle);

/*
 * completed = max(completed, @gen); the timestamp is taken when @gen is
 * at least the old completed generation.  Wakes host waiters.
 */
void ascend_event_complete(struct ascend_event *e, u64 gen);

/* Has @e completed @gen?  Returns true for a destroyed event too. */
bool ascend_event_reached(struct ascend_event *e, u64 gen);
bool ascend_event_dead(struct ascend_event *e);
/* Surprise removal: wake every host waiter on @adev's events. */
void ascend_event_device_lost(struct ascend_device *adev);

#endif /* __ASCEND_EVENT_H__ */
