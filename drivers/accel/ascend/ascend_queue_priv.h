/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The queue object of the driver (ascend_queue.c: ioctls, lifetime), and
 * what the rest of the driver (debugfs, the interrupt handler) needs of it.
 *
 * The device serves a queue through a context (ascend_hw.h, "Queues"): it
 * never sees this object.  What it reports, it writes into the queue's
 * report (@report), which only the driver maps and which is trusted;
 * the status page in the shared area is user-writable and only mirrors.
 *
 * Ownership of the fields:
 *  - the report's rptr, completed, busy and fault record are the device's;
 *    the driver reads them (acquire where ordering matters) and rewrites
 *    them only while the queue is stopped (QUEUE_RESET);
 *  - the driver's fault record and the status page's fault fields are
 *    written under @lock by whoever faults the queue first (a device fault
 *    as it is taken over, ring checks in ioctls, forced destroy, device
 *    loss); the FAULTED flag with an atomic update, because the device
 *    writes NEED_WAKEUP in the same word.
 */
#ifndef __ASCEND_QUEUE_PRIV_H__
#define __ASCEND_QUEUE_PRIV_H__

#include <drm/drm_gem.h>
#include <linux/dma-mapping.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ascend_accel.h"
#include "ascend_hw.h"
#include "ascend_hw_rules.h"
#include "ascend_queue.h"
#include "ascend_umem.h"

struct ascend_device;
struct ascend_file;
struct ascend_user;

/**
 * enum ascend_queue_state - lifetime of a queue
 * @ASCEND_QUEUE_RUNNING: served by the command processor
 * @ASCEND_QUEUE_STOPPING: a destroy owns the queue and is tearing it down
 * @ASCEND_QUEUE_DEAD: stopped and removed; waiters leave with -ENOENT
 */
enum ascend_queue_state {
	ASCEND_QUEUE_RUNNING,
	ASCEND_QUEUE_STOPPING,
	ASCEND_QUEUE_DEAD,
};

/**
 * struct ascend_queue_area - the GEM object backing the shared queue area
 * @base: the GEM object; mmap()ed through its fake offset
 * @mem: its pages, freed with the object (the last mapping may outlive
 *	the queue)
 * @vaddr: @mem's kernel mapping
 */
struct ascend_queue_area {
	struct drm_gem_object base;
	struct ascend_umem mem;
	void *vaddr;
};

/**
 * struct ascend_queue - one hardware queue
 * @ref: references: the handle table, and each ioctl using the queue
 * @adev: the device
 * @af: the owning file; valid while the queue is in its handle table
 * @user: the user charged with the queue (a reference), uncharged when
 *	the last reference goes
 * @file: the DRM file allowed to mmap @area (revoked at destroy)
 * @handle: handle in @af's table
 * @qid: the device's queue id (&ascend_device.qids)
 * @area: the shared area
 * @status: status page inside @area
 * @ring_entries: number of ring slots, a power of two
 * @ctx: the context the device is started with (QUEUE_RESET restarts it)
 * @page_dma: bus addresses of @area's pages (DMA-mapped while started)
 * @page_list: the page list the device reads, @ctx.pages its bus address
 * @report: what the device reports (coherent memory of the device's
 *	report pool, @ctx.report its bus address)
 * @lock: protects @state and the fault record (@fault, @fault_seq,
 *	@fault_addr, @fault_opcode) and its mirror on the status page
 * @arm_lock: serialises the driver's writes of the report's @irq_seq and
 *	@irq_armed (waiters arm for different counts: the lowest wins)
 * @state: &enum ascend_queue_state
 * @fault: ASCEND_FAULT_* once the queue faulted (first fault wins)
 * @fault_seq: sequence number of the faulting command (0: none)
 * @fault_addr: faulting device address, if any
 * @fault_opcode: opcode of the faulting command
 * @stopping: set before the device is told to stop serving the queue
 * @wq: waiters for the report, @fault and @state changes
 * @fault_work: takes a fault the device reported over (from the
 *	interrupt, which cannot take @lock's users' locks)
 * @dev_link: link in &ascend_device.queues (under its queues_lock)
 * @reset_count: bumped by every QUEUE_RESET (under the teardown claim)
 */
struct ascend_queue {
	struct kref ref;
	struct ascend_device *adev;
	struct ascend_file *af;
	struct ascend_user *user;
	struct drm_file *file;
	u32 handle;
	u32 qid;

	struct ascend_queue_area *area;
	struct ascend_queue_status *status;
	u32 ring_entries;

	struct ascend_hw_queue_ctx ctx;
	dma_addr_t *page_dma;
	__le64 *page_list;
	struct ascend_hw_queue_report *report;

	spinlock_t lock;	/* state, fault record */
	spinlock_t arm_lock;	/* report irq_seq, irq_armed (driver side) */
	enum ascend_queue_state state;
	u32 fault;
	u64 fault_seq;
	u64 fault_addr;
	u32 fault_opcode;
	bool stopping;

	wait_queue_head_t wq;
	struct work_struct fault_work;
	struct list_head dev_link;
	u32 reset_count;
};

/* The device notified @q (interrupt handler, hard interrupt context). */
void ascend_queue_notified(struct ascend_queue *q);

/* What the device reports: commands fetched, completed (acquire). */
static inline u64 ascend_queue_rptr(struct ascend_queue *q)
{
	return le64_to_cpu(READ_ONCE(q->report->rptr));
}

static inline u64 ascend_queue_completed(struct ascend_queue *q)
{
	/* acquire: pairs with the device's release of the completion */
	return le64_to_cpu(smp_load_acquire(&q->report->completed));
}

/* Has @q faulted, in the driver's record or the device's report? */
static inline bool ascend_queue_faulted(struct ascend_queue *q)
{
	return READ_ONCE(q->fault) != ASCEND_FAULT_NONE ||
	       READ_ONCE(q->report->fault);
}

#endif /* __ASCEND_QUEUE_PRIV_H__ */
