/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Events: per-file handles of device event slots counting completed
 * generations.  Queue commands (ASCEND_CMD_EVENT_RECORD / _WAIT) and the
 * EVENT_* ioctls complete and wait for generations; see
 * include/uapi/drm/ascend_accel.h.  The generation lives in the device's
 * event memory (ascend_hw.h, "Event memory"): the device writes it, the
 * driver reads it, and the device's notification interrupt wakes host
 * waiters (ascend_irq.c).
 */
#ifndef __ASCEND_EVENT_H__
#define __ASCEND_EVENT_H__

#include <linux/kref.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "ascend_hw.h"

struct ascend_device;
struct ascend_user;
struct ascend_file;

/**
 * struct ascend_event - one event
 * @ref: references: the handle tables holding it, IPC exports and each
 *	ioctl using the event; the last gives the slot back
 * @handles: handles (in the creator's and importers' tables) and IPC
 *	exports naming the event; when the last goes the event is dead
 * @adev: the device
 * @user: the creator's user, charged with the slot (a reference)
 * @flags: DRM_ASCEND_EVENT_* given at creation
 * @slot: the device event slot (1 .. ASCEND_HW_EVENT_SLOTS - 1)
 * @hw: the slot, through the aperture (valid while the device is there)
 * @dead: destroyed: waiters leave with -ENOENT, commands fault
 * @wq: host waiters, woken by the device's notifications
 * @rcu: the interrupt handler finds the event under RCU
 */
struct ascend_event {
	struct kref ref;
	refcount_t handles;
	struct ascend_device *adev;
	struct ascend_user *user;
	u32 flags;
	u32 slot;
	struct ascend_hw_event_slot *hw;
	bool dead;
	wait_queue_head_t wq;
	struct rcu_head rcu;
};

/* The device's slot map: called from probe (managed). */
int ascend_event_device_init(struct ascend_device *adev);
/* Per-file event table: called from open and postclose (ascend_drv.c). */
void ascend_event_file_init(struct ascend_file *af);
/* After ascend_queue_file_fini(): no queue command uses the table then. */
void ascend_event_file_fini(struct ascend_file *af);

/* Look up @handle and take a reference, or NULL. */
struct ascend_event *ascend_event_get(struct ascend_file *af, u32 handle);
void ascend_event_put(struct ascend_event *e);

/*
 * Sharing (ascend_ipc.c): an IPC export holds a handle and a reference
 * (ascend_event_hold / ascend_event_unhold); an import puts the SAME event
 * in the importer's table (ascend_event_import), so record and wait in
 * either process act on one slot.  The event dies when the last handle or
 * export naming it is gone.
 */
void ascend_event_hold(struct ascend_event *e);
/*
 * The same for an event found by a reference alone (a table look-up): it
 * may have lost its last handle since; false then, and nothing is held.
 */
bool ascend_event_hold_live(struct ascend_event *e);
void ascend_event_unhold(struct ascend_event *e);
/*
 * Put @e (of @af's device), on which the caller holds a handle
 * (ascend_event_hold(), taken while an export still held its own), under a
 * new handle of @af: on success the table owns that hold, on failure the
 * caller still does.  0, -ENOSPC, -ENOMEM.
 */
int ascend_event_import(struct ascend_file *af, struct ascend_event *e,
			u32 *handle);

/* Has @e completed @gen?  True for a destroyed event and a lost device. */
bool ascend_event_reached(struct ascend_event *e, u64 gen);

/* Device notification for @slot (interrupt handler, RCU held). */
void ascend_event_notified(struct ascend_device *adev, u32 slot);
/* Surprise removal: wake every host waiter on @adev's events. */
void ascend_event_device_lost(struct ascend_device *adev);

#endif /* __ASCEND_EVENT_H__ */
