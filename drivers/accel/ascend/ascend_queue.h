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

#include <linux/types.h>

struct ascend_file;
struct ascend_queue;

/* Limits reported by DRM_ASCEND_QUERY_DEVICE_INFO. */
#define ASCEND_QUEUE_MAX_PER_FILE		64	/* then -ENOSPC */
#define ASCEND_QUEUE_DEFAULT_RING_ENTRIES	1024
#define ASCEND_QUEUE_MAX_RING_ENTRIES		65536	/* a power of two */

/* Layout of the shared queue area (struct ascend_queue_status first). */
#define ASCEND_QUEUE_STATUS_SIZE		4096
#define ASCEND_QUEUE_PRINTF_SIZE		16384	/* a power of two */

/* Per-file queue state: called from open and postclose (ascend_drv.c). */
void ascend_queue_file_init(struct ascend_file *af);
void ascend_queue_file_fini(struct ascend_file *af);

/*
 * Wait until every command the file's queues had published (their wptr as
 * seen now) has completed or its queue has faulted.  Used to order
 * synchronous operations after earlier asynchronous work.  Interruptible:
 * returns 0 or -ERESTARTSYS.
 */
int ascend_queue_file_drain(struct ascend_file *af);

#endif /* __ASCEND_QUEUE_H__ */
