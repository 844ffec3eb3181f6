/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hardware queues: a user-mapped area (status page, device printf buffer,
 * command ring) per queue, a doorbell, and waits on completed sequence
 * numbers.  No dma_fence is published for this work: user space controls
 * the ring, so its completion is not guaranteed (the DRM "indefinite fence"
 * rule); waits go through the queue's own sequence numbers.
 */
#ifndef __ASCEND_QUEUE_H__
#define __ASCEND_QUEUE_H__

#include <linux/list.h>
#include <linux/types.h>

struct ascend_device;
struct drm_file;
struct ascend_file;
struct ascend_queue;

/* Limits reported by DRM_ASCEND_QUERY_DEVICE_INFO. */
#define ASCEND_QUEUE_DEFAULT_RING_ENTRIES	1024
#define ASCEND_QUEUE_MAX_RING_ENTRIES		65536	/* a power of two */
#define ASCEND_MAX_EVENTS_PER_FILE		65536	/* then -ENOSPC */

/*
 * Default limit in ms on how long one queue command may run before the
 * device aborts it with ASCEND_FAULT_TIMEOUT (module parameter
 * cmd_timeout_ms; 0 = no limit).
 */
u32 ascend_queue_cmd_timeout_ms(void);

/* Queues the device serves, all users together (module parameter). */
unsigned int ascend_queue_max(void);

/* Layout of the shared queue area (struct ascend_queue_status first). */
#define ASCEND_QUEUE_STATUS_SIZE		4096
#define ASCEND_QUEUE_PRINTF_SIZE		16384	/* a power of two */

/* Per-file queue state: called from open and postclose (ascend_drv.c). */
void ascend_queue_file_init(struct ascend_file *af);
void ascend_queue_file_fini(struct ascend_file *af);
/* Postclose, after ascend_queue_file_fini(): the file's activity bitmap. */
void ascend_queue_activity_fini(struct drm_file *file);

/*
 * Wait until every command the file's queues had published (their wptr as
 * seen now) has completed or its queue has faulted.  Used to order
 * synchronous operations after earlier asynchronous work.  Interruptible:
 * returns 0 or -ERESTARTSYS.
 */
int ascend_queue_file_drain(struct ascend_file *af);

/*
 * Surprise removal (ascend_drv.c): _lost() marks the device lost and
 * faults every queue (ASCEND_FAULT_DEVICE_LOST), so every wait for one
 * ends; _stop(), once no ioctl is in the hardware any more, stops every
 * queue and waits for the teardowns others started.  Afterwards the
 * device serves no queue and none can be created.
 */
void ascend_queue_device_lost(struct ascend_device *adev);
void ascend_queue_device_stop(struct ascend_device *adev);

/**
 * struct ascend_retire - work to run once a file's queues passed a point
 * @fn: called once, from process context, when every queue of the file has
 *	completed (or faulted, been reset, or stopped) past the wptr it had
 *	published when ascend_queue_file_defer() was called
 * @link: queue-code private
 * @marks: queue-code private: (queue, wptr) snapshot
 * @nr_marks: queue-code private
 *
 * Used to keep memory that queued commands may still use alive until they
 * completed: freeing a buffer object defers its unmap and HBM release.
 */
struct ascend_retire {
	void (*fn)(struct ascend_retire *r);
	struct list_head link;
	void *marks;
	unsigned int nr_marks;
};

/*
 * Snapshot the published wptr of every queue of @af and run @r->fn once
 * they have all completed past it (at once if nothing is outstanding).
 * Never fails: if memory for the snapshot cannot be had it falls back to
 * waiting for the whole file's queues to go idle.  ascend_queue_file_fini()
 * runs every pending retire after it stopped the queues.
 */
void ascend_queue_file_defer(struct ascend_file *af, struct ascend_retire *r);

#endif /* __ASCEND_QUEUE_H__ */
