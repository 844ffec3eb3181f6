// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware queues: the shared area user space maps, the QUEUE_* ioctls,
 * queue lifetime, the context the device serves a queue with, and what
 * the device's notifications do.
 *
 * Nothing in the shared area is trusted: the authoritative rptr,
 * completed count and fault record are the device's report (driver-only
 * memory) and the driver's own record, and the status page only mirrors
 * them.  The one value taken from the page, wptr, is checked against the
 * device's rptr every time it is read.
 *
 * Waiting: the device notifies a queue (an interrupt) after a completion
 * or the end of a handed-off command only when the driver armed its
 * report, and after every fault.  A waiter arms, issues a full barrier and
 * then reads the report; the device writes the report, issues a full
 * barrier and then reads the arm: either the waiter sees the change or the
 * device sees the arm and notifies.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_utils.h>
#include <drm/drm_vma_manager.h>
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/interrupt.h>

#include "ascend_drv.h"
#include "ascend_hw.h"
#include "ascend_queue_priv.h"
#include "ascend_trace.h"

/*
 * DRM_ASCEND_QUEUE_DESTROY_FORCE lets published work run this long before
 * the queue is stopped and the rest is discarded (ASCEND_FAULT_ABORTED).
 * The wait is uninterruptible, so it is capped.
 */
#define ASCEND_QUEUE_GRACE_MAX_MS	10000
static unsigned int force_destroy_grace_ms = 200;
module_param(force_destroy_grace_ms, uint, 0644);
MODULE_PARM_DESC(force_destroy_grace_ms,
		 "Grace period in ms a forced queue destroy gives published work (default 200, at most 10000)");

static unsigned int cmd_timeout_ms = 10000;

/* A new limit goes to every device's command processor at once. */
static int ascend_cmd_timeout_set(const char *val,
				  const struct kernel_param *kp)
{
	int ret = param_set_uint(val, kp);

	if (!ret)
		ascend_devices_set_cmd_timeout(READ_ONCE(cmd_timeout_ms));
	return ret;
}

static const struct kernel_param_ops ascend_cmd_timeout_ops = {
	.set = ascend_cmd_timeout_set,
	.get = param_get_uint,
};
module_param_cb(cmd_timeout_ms, &ascend_cmd_timeout_ops, &cmd_timeout_ms,
		0644);
MODULE_PARM_DESC(cmd_timeout_ms,
		 "Default limit in ms on the run time of one queue command before it is aborted (0: no limit; default 10000)");

/*
 * The device-wide bound on queues, across every process; each user's files
 * hold at most their share of it (user_max_queues, ascend_user.c).
 */
static unsigned int max_queues = ASCEND_HW_QUEUES;
module_param(max_queues, uint, 0644);
MODULE_PARM_DESC(max_queues,
		 "Queues one NPU serves across all processes (default and at most 8192); QUEUE_CREATE fails with -ENOSPC beyond");

u32 ascend_queue_cmd_timeout_ms(void)
{
	return READ_ONCE(cmd_timeout_ms);
}

unsigned int ascend_queue_max(void)
{
	return min(READ_ONCE(max_queues), ASCEND_HW_QUEUES);
}

/* Layout of the shared area: status page, printf buffer, ring. */
#define ASCEND_QUEUE_PRINTF_OFFSET	ASCEND_QUEUE_STATUS_SIZE
#define ASCEND_QUEUE_RING_OFFSET	(ASCEND_QUEUE_PRINTF_OFFSET + \
					 ASCEND_QUEUE_PRINTF_SIZE)

static_assert(sizeof(struct ascend_queue_status) <= ASCEND_QUEUE_STATUS_SIZE);
static_assert(sizeof(struct ascend_cmd) == ASCEND_CMD_SIZE);
static_assert((ASCEND_QUEUE_PRINTF_SIZE & (ASCEND_QUEUE_PRINTF_SIZE - 1)) == 0);
static_assert((ASCEND_QUEUE_DEFAULT_RING_ENTRIES &
	       (ASCEND_QUEUE_DEFAULT_RING_ENTRIES - 1)) == 0);
static_assert((ASCEND_QUEUE_MAX_RING_ENTRIES &
	       (ASCEND_QUEUE_MAX_RING_ENTRIES - 1)) == 0);

/* ------------------------------------------------------------------------ */
/* The shared area: a GEM object over accounted pages (ascend_umem.h) */

static struct ascend_queue_area *to_area(struct drm_gem_object *obj)
{
	return container_of(obj, struct ascend_queue_area, base);
}

static void ascend_queue_area_free(struct drm_gem_object *obj)
{
	struct ascend_queue_area *area = to_area(obj);

	drm_gem_object_release(obj);
	ascend_umem_free(&area->mem);
	kfree(area);
}

static int ascend_queue_area_mmap(struct drm_gem_object *obj,
				  struct vm_area_struct *vma)
{
	/*
	 * drm_gem_mmap() checked the caller may map the object and that the
	 * VMA is not larger than it; vm_pgoff is the fake offset, so map
	 * from the start of the area.
	 */
	return ascend_umem_mmap(&to_area(obj)->mem, vma);
}

/* After an unplug zapped the mapping: the status page stays readable. */
static vm_fault_t ascend_queue_area_fault(struct vm_fault *vmf)
{
	struct drm_gem_object *obj = vmf->vma->vm_private_data;

	return ascend_umem_fault(&to_area(obj)->mem, vmf);
}

static const struct vm_operations_struct ascend_queue_area_vm_ops = {
	.fault = ascend_queue_area_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs ascend_queue_area_funcs = {
	.free = ascend_queue_area_free,
	.mmap = ascend_queue_area_mmap,
	.vm_ops = &ascend_queue_area_vm_ops,
};

static struct ascend_queue_area *ascend_queue_area_create(struct drm_device *drm,
							  size_t size)
{
	struct ascend_queue_area *area;
	int ret;

	area = kzalloc(sizeof(*area), GFP_KERNEL_ACCOUNT);
	if (!area)
		return ERR_PTR(-ENOMEM);

	if (ascend_umem_alloc(&area->mem, size)) {
		kfree(area);
		return ERR_PTR(-ENOMEM);
	}
	area->vaddr = area->mem.vaddr;

	area->base.funcs = &ascend_queue_area_funcs;
	drm_gem_private_object_init(drm, &area->base, size);

	ret = drm_gem_create_mmap_offset(&area->base);
	if (ret) {
		drm_gem_object_put(&area->base);
		return ERR_PTR(ret);
	}
	return area;
}

/* ------------------------------------------------------------------------ */
/* Faults and notifications */

/* Set @bits in the status page's flags; the device writes the same word. */
static void ascend_queue_status_set_flags(struct ascend_queue_status *st,
					  u32 bits)
{
	u32 old = READ_ONCE(st->flags);

	while (!try_cmpxchg(&st->flags, &old, old | bits))
		;
}

static void ascend_queue_status_clear_flags(struct ascend_queue_status *st,
					    u32 bits)
{
	u32 old = READ_ONCE(st->flags);

	while (!try_cmpxchg(&st->flags, &old, old & ~bits))
		;
}

/* A faulted queue runs nothing more, whoever found the fault. */
static void ascend_queue_halt(struct ascend_queue *q)
{
	struct ascend_device *adev = q->adev;
	int idx;

	if (adev->hw_ops->queue_halt && !READ_ONCE(q->report->fault) &&
	    drm_dev_enter(&adev->drm, &idx)) {
		adev->hw_ops->queue_halt(adev->hw, q->qid);
		drm_dev_exit(idx);
	}
}

static void ascend_queue_poke_retire(struct ascend_queue *q);

/* Record the first fault of @q, mirror it, wake waiters.  Process context. */
static void ascend_queue_set_fault(struct ascend_queue *q, u32 fault, u64 seq,
				   u64 addr, u32 opcode)
{
	struct ascend_queue_status *st = q->status;
	bool first = false;

	spin_lock(&q->lock);
	if (q->fault == ASCEND_FAULT_NONE) {
		first = true;
		q->fault_seq = seq;
		q->fault_addr = addr;
		q->fault_opcode = opcode;

		WRITE_ONCE(st->fault_seq, seq);
		WRITE_ONCE(st->fault_addr, addr);
		WRITE_ONCE(st->fault_opcode, opcode);
		WRITE_ONCE(st->fault, fault);
		/* the record is visible before the flag that announces it */
		smp_wmb();
		ascend_queue_status_set_flags(st, ASCEND_QUEUE_STATUS_FAULTED);
		/*
		 * Last, release: whoever sees the fault without the lock (a
		 * waiter that returns it) sees the status page complete too.
		 */
		smp_store_release(&q->fault, fault);
	}
	spin_unlock(&q->lock);
	if (first) {
		ascend_queue_halt(q);
		trace_ascend_queue_fault(q->adev->index, ascend_file_tgid(q->file),
					 q->handle, fault, seq, addr, opcode);
		ascend_debugfs_log_fault(q, fault, seq, addr, opcode);
	}
	wake_up_all(&q->wq);
	ascend_queue_poke_retire(q);
}

/* Take over a fault the device reported.  Process context. */
static void ascend_queue_sync_fault(struct ascend_queue *q)
{
	struct ascend_hw_queue_report *r = q->report;
	u32 fault;

	/* acquire: the record is read after the code that announced it */
	fault = le32_to_cpu(smp_load_acquire(&r->fault));
	/* acquire: a fault taken over already comes with its status page */
	if (fault && smp_load_acquire(&q->fault) == ASCEND_FAULT_NONE)
		ascend_queue_set_fault(q, fault,
				       le64_to_cpu(READ_ONCE(r->fault_seq)),
				       le64_to_cpu(READ_ONCE(r->fault_addr)),
				       le32_to_cpu(READ_ONCE(r->fault_opcode)));
}

static void ascend_queue_fault_work(struct work_struct *work)
{
	ascend_queue_sync_fault(container_of(work, struct ascend_queue,
					     fault_work));
}

void ascend_queue_notified(struct ascend_queue *q)
{
	if (READ_ONCE(q->report->fault) &&
	    READ_ONCE(q->fault) == ASCEND_FAULT_NONE)
		schedule_work(&q->fault_work);
	if (wq_has_sleeper(&q->wq))
		wake_up_all(&q->wq);
	ascend_queue_poke_retire(q);
}

/*
 * Ask the device for a notification once @q has completed @target
 * commands (0: at the next change of the report).  Waiters for different
 * counts share one arm: while it is set the lowest target stays; once the
 * device cleared it (it notified), the next waiter sets its own.  A
 * waiter whose target is later only wakes early and arms again.
 */
static void ascend_queue_arm(struct ascend_queue *q, u64 target)
{
	struct ascend_hw_queue_report *r = q->report;
	unsigned long flags;

	spin_lock_irqsave(&q->arm_lock, flags);
	if (!READ_ONCE(r->irq_armed) ||
	    target < le64_to_cpu(READ_ONCE(r->irq_seq)))
		WRITE_ONCE(r->irq_seq, cpu_to_le64(target));
	/* release: the device reads the target after it sees the arm */
	smp_store_release(&r->irq_armed, cpu_to_le32(1));
	spin_unlock_irqrestore(&q->arm_lock, flags);
	/* the arm is seen before the report is read (the device: the reverse) */
	smp_mb();
}

/*
 * Read the user's wptr and check it against the device's rptr: 0 and
 * *@wptr on success, -EPROTO if it is behind rptr or more than a ring ahead.
 */
static int ascend_queue_read_wptr(struct ascend_queue *q, u64 *wptr)
{
	u64 rp_before, rp_after, w;

	/*
	 * rptr only grows.  A well-behaved wptr is never behind any rptr
	 * read before it, and never more than a ring ahead of any rptr read
	 * after it (user space saw that rptr, or an older one, before it
	 * published).
	 */
	rp_before = ascend_queue_rptr(q);
	/* pairs with the user's release store of wptr */
	w = smp_load_acquire(&q->status->wptr);
	/* the report's rptr is read after wptr */
	smp_rmb();
	rp_after = ascend_queue_rptr(q);

	if (ascend_ring_check_wptr(rp_before, rp_after, w, q->ring_entries))
		return -EPROTO;
	*wptr = w;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Lifetime */

static void ascend_queue_release(struct kref *ref)
{
	struct ascend_queue *q = container_of(ref, struct ascend_queue, ref);

	/* the device let go of both at shutdown (or never had them) */
	kfree(q->page_list);
	kfree(q->page_dma);
	kfree(q->report);
	/* the area may live on in user mappings; they hold their own refs */
	if (q->area)
		drm_gem_object_put(&q->area->base);
	ascend_user_uncharge_queue(q->user);
	ascend_user_put(q->user);
	kfree(q);
}

static void ascend_queue_put(struct ascend_queue *q)
{
	kref_put(&q->ref, ascend_queue_release);
}

/* Look up @handle and take a reference, or NULL. */
static struct ascend_queue *ascend_queue_get(struct ascend_file *af, u32 handle)
{
	struct ascend_queue *q;

	mutex_lock(&af->queues_lock);
	q = xa_load(&af->queues, handle);
	if (q)
		kref_get(&q->ref);
	mutex_unlock(&af->queues_lock);
	return q;
}

/* Has @q completed @target commands, faulted, or died? */
static bool ascend_queue_reached(struct ascend_queue *q, u64 target)
{
	return ascend_queue_completed(q) >= target ||
	       ascend_queue_faulted(q) ||
	       READ_ONCE(q->state) == ASCEND_QUEUE_DEAD;
}

/* The same as a wait condition: arms the notification first. */
static bool ascend_queue_wait_reached(struct ascend_queue *q, u64 target)
{
	if (ascend_queue_reached(q, target))
		return true;
	ascend_queue_arm(q, target);
	return ascend_queue_reached(q, target);
}

/* ------------------------------------------------------------------------ */
/* The device's view: DMA mappings and the context */

/*
 * Map @q's area for the device and fill in its context.  The area's pages
 * and the report are streaming mappings the CPU keeps using (the emulated
 * NPU and x86 are DMA-coherent; a non-coherent device would need coherent
 * memory here); the page list is written once, before it is mapped.
 */
static int ascend_queue_hw_init(struct ascend_queue *q, size_t size)
{
	struct device *dev = q->adev->drm.dev;
	u32 i, n = size >> PAGE_SHIFT;
	dma_addr_t dma;

	q->report = kzalloc(sizeof(*q->report), GFP_KERNEL_ACCOUNT);
	q->page_dma = kcalloc(n, sizeof(*q->page_dma), GFP_KERNEL_ACCOUNT);
	q->page_list = kcalloc(n, sizeof(*q->page_list), GFP_KERNEL_ACCOUNT);
	if (!q->report || !q->page_dma || !q->page_list)
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		struct page *page = q->area->mem.pages[i];

		dma = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, dma))
			goto err_unmap;
		q->page_dma[i] = dma;
		q->page_list[i] = cpu_to_le64(dma);
	}
	q->ctx.nr_pages = n;
	q->ctx.pages = dma_map_single(dev, q->page_list, n * sizeof(__le64),
				      DMA_TO_DEVICE);
	if (dma_mapping_error(dev, q->ctx.pages))
		goto err_unmap;
	q->ctx.report = dma_map_single(dev, q->report, sizeof(*q->report),
				       DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, q->ctx.report)) {
		dma_unmap_single(dev, q->ctx.pages, n * sizeof(__le64),
				 DMA_TO_DEVICE);
		goto err_unmap;
	}
	return 0;

err_unmap:
	while (i--)
		dma_unmap_page(dev, q->page_dma[i], PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
	q->ctx.nr_pages = 0;
	return -ENOMEM;
}

/* Undo ascend_queue_hw_init(); the device no longer serves @q. */
static void ascend_queue_hw_fini(struct ascend_queue *q)
{
	struct device *dev = q->adev->drm.dev;
	u32 i, n = q->ctx.nr_pages;

	if (!n)
		return;
	dma_unmap_single(dev, q->ctx.report, sizeof(*q->report),
			 DMA_BIDIRECTIONAL);
	dma_unmap_single(dev, q->ctx.pages, n * sizeof(__le64), DMA_TO_DEVICE);
	for (i = 0; i < n; i++)
		dma_unmap_page(dev, q->page_dma[i], PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
	q->ctx.nr_pages = 0;
}

/*
 * The device stops serving @q: afterwards it raises nothing for it, no
 * interrupt handler looks at it, and a fault it reported is taken over.
 */
static void ascend_queue_hw_stop(struct ascend_queue *q)
{
	struct ascend_device *adev = q->adev;

	adev->hw_ops->queue_stop(adev->hw, q->qid);
	WRITE_ONCE(adev->hw_queues[q->qid], NULL);
	synchronize_irq(adev->irq);
	cancel_work_sync(&q->fault_work);
	ascend_queue_sync_fault(q);
}

/*
 * The wptr user space has published now, as a wait target.  A corrupted
 * wptr faults the queue (the wait then ends at once).
 */
static u64 ascend_queue_target(struct ascend_queue *q)
{
	u64 wptr;

	if (ascend_queue_read_wptr(q, &wptr)) {
		ascend_queue_set_fault(q, ASCEND_FAULT_RING,
				       ascend_queue_rptr(q) + 1, 0, 0);
		return 0;
	}
	return wptr;
}

/*
 * Stop @q for good and drop the handle table's reference.  The caller owns
 * the teardown (state STOPPING) and holds its own reference.
 */
static void ascend_queue_shutdown(struct ascend_queue *q)
{
	struct ascend_device *adev = q->adev;
	struct ascend_file *af = q->af;

	WRITE_ONCE(q->stopping, true);
	ascend_queue_hw_stop(q);

	/* the device no longer touches @q: whatever is left is discarded */
	if (READ_ONCE(q->status->wptr) != ascend_queue_completed(q))
		ascend_queue_set_fault(q, ASCEND_FAULT_ABORTED,
				       ascend_queue_completed(q) + 1, 0, 0);
	ascend_queue_hw_fini(q);
	ida_free(&adev->qids, q->qid);

	mutex_lock(&adev->queues_lock);
	if (!list_empty(&q->dev_link)) {
		list_del_init(&q->dev_link);
		adev->nr_queues--;
	}
	mutex_unlock(&adev->queues_lock);

	mutex_lock(&af->queues_lock);
	xa_erase(&af->queues, q->handle);
	mutex_unlock(&af->queues_lock);

	spin_lock(&q->lock);
	WRITE_ONCE(q->state, ASCEND_QUEUE_DEAD);
	spin_unlock(&q->lock);
	wake_up_all(&q->wq);

	trace_ascend_queue_destroy(adev->index, ascend_file_tgid(q->file),
				   q->handle, READ_ONCE(q->status->wptr),
				   ascend_queue_rptr(q), ascend_queue_completed(q));
	/* no new mappings; existing ones keep the area alive */
	drm_vma_node_revoke(&q->area->base.vma_node, q->file);
	ascend_queue_put(q);
}

/* Claim the teardown of @q: RUNNING -> STOPPING.  False if already taken. */
static bool ascend_queue_claim(struct ascend_queue *q)
{
	bool ok;

	spin_lock(&q->lock);
	ok = q->state == ASCEND_QUEUE_RUNNING;
	if (ok)
		WRITE_ONCE(q->state, ASCEND_QUEUE_STOPPING);
	spin_unlock(&q->lock);
	return ok;
}

static void ascend_queue_unclaim(struct ascend_queue *q)
{
	spin_lock(&q->lock);
	WRITE_ONCE(q->state, ASCEND_QUEUE_RUNNING);
	spin_unlock(&q->lock);
	/* ascend_queue_device_stop() may wait to claim it */
	wake_up_all(&q->wq);
}

/* Stop @q unless another teardown owns it; then wait until that ends. */
static void ascend_queue_stop_or_wait(struct ascend_queue *q)
{
	if (ascend_queue_claim(q))
		ascend_queue_shutdown(q);
	else
		wait_event(q->wq, READ_ONCE(q->state) != ASCEND_QUEUE_STOPPING);
}

/* The first fault of a queue on a lost device; q->lock not held. */
static void ascend_queue_lose(struct ascend_queue *q)
{
	ascend_queue_set_fault(q, ASCEND_FAULT_DEVICE_LOST,
			       ascend_queue_completed(q) + 1, 0, 0);
}

void ascend_queue_device_lost(struct ascend_device *adev)
{
	struct ascend_queue *q;

	mutex_lock(&adev->queues_lock);
	WRITE_ONCE(adev->lost, true);	/* read unlocked by the ioctls */
	list_for_each_entry(q, &adev->queues, dev_link)
		ascend_queue_lose(q);
	mutex_unlock(&adev->queues_lock);
}

void ascend_queue_device_stop(struct ascend_device *adev)
{
	struct ascend_queue *q;

	/*
	 * A queue leaves the list (shutdown) before it is DEAD; one another
	 * teardown owns (QUEUE_DESTROY, a file's close) is waited for, and
	 * taken over if that teardown gives it back.
	 */
	for (;;) {
		mutex_lock(&adev->queues_lock);
		q = list_first_entry_or_null(&adev->queues, struct ascend_queue,
					     dev_link);
		if (q)
			kref_get(&q->ref);
		mutex_unlock(&adev->queues_lock);
		if (!q)
			break;
		ascend_queue_stop_or_wait(q);
		ascend_queue_put(q);
	}
}

/* ------------------------------------------------------------------------ */
/* Deferred retire */

/**
 * struct ascend_retire_mark - one queue's point a retire waits for
 * @q: the queue (a reference is held)
 * @target: commands that must have completed
 * @reset_count: the queue's reset count when the mark was taken
 */
struct ascend_retire_mark {
	struct ascend_queue *q;
	u64 target;
	u32 reset_count;
};

/*
 * Something that may let a deferred retire (ascend_queue_file_defer()) go
 * ahead happened on @q: a completion, a fault, a finished job, a reset.
 */
static void ascend_queue_poke_retire(struct ascend_queue *q)
{
	struct ascend_file *af = q->af;

	if (af && !list_empty_careful(&af->retires))
		schedule_work(&af->retire_work);
}

/*
 * Has @q passed @m?  A faulted, reset or stopped queue executes nothing
 * published before, once the command it had handed off has returned.
 */
static bool __ascend_retire_mark_passed(const struct ascend_retire_mark *m)
{
	struct ascend_queue *q = m->q;

	if (ascend_queue_completed(q) >= m->target)
		return true;
	if (READ_ONCE(q->report->busy))
		return false;
	return ascend_queue_faulted(q) || READ_ONCE(q->stopping) ||
	       READ_ONCE(q->state) == ASCEND_QUEUE_DEAD ||
	       READ_ONCE(q->reset_count) != m->reset_count;
}

/* The same; when not passed, the queue notifies at its next change. */
static bool ascend_retire_mark_passed(const struct ascend_retire_mark *m)
{
	if (__ascend_retire_mark_passed(m))
		return true;
	/* also a change of busy may pass it: any change */
	ascend_queue_arm(m->q, 0);
	return __ascend_retire_mark_passed(m);
}

static bool ascend_retire_passed(const struct ascend_retire *r)
{
	const struct ascend_retire_mark *marks = r->marks;
	unsigned int i;

	for (i = 0; i < r->nr_marks; i++)
		if (!ascend_retire_mark_passed(&marks[i]))
			return false;
	return true;
}

/* Fallback without marks: has every queue of @af run what it published? */
static bool ascend_queue_file_idle(struct ascend_file *af)
{
	struct ascend_retire_mark m = {};
	struct ascend_queue *q;
	unsigned long idx;
	bool idle = true;

	mutex_lock(&af->queues_lock);
	xa_for_each(&af->queues, idx, q) {
		m.q = q;
		m.reset_count = READ_ONCE(q->reset_count);
		if (ascend_queue_read_wptr(q, &m.target))
			m.target = ascend_queue_rptr(q);
		if (!ascend_retire_mark_passed(&m)) {
			idle = false;
			break;
		}
	}
	mutex_unlock(&af->queues_lock);
	return idle;
}

static void ascend_retire_run(struct ascend_retire *r)
{
	struct ascend_retire_mark *marks = r->marks;
	unsigned int i;

	for (i = 0; i < r->nr_marks; i++)
		ascend_queue_put(marks[i].q);
	kfree(marks);
	r->marks = NULL;
	r->nr_marks = 0;
	r->fn(r);
}

static void ascend_retire_work(struct work_struct *work)
{
	struct ascend_file *af = container_of(work, struct ascend_file,
					      retire_work);
	struct ascend_retire *r, *tmp;
	bool idle = false;
	LIST_HEAD(done);

	spin_lock(&af->retire_lock);
	if (af->retire_fallbacks) {
		spin_unlock(&af->retire_lock);
		idle = ascend_queue_file_idle(af);
		spin_lock(&af->retire_lock);
	}
	list_for_each_entry_safe(r, tmp, &af->retires, link) {
		if (r->marks ? !ascend_retire_passed(r) : !idle)
			continue;
		if (!r->marks)
			af->retire_fallbacks--;
		list_move_tail(&r->link, &done);
	}
	spin_unlock(&af->retire_lock);

	list_for_each_entry_safe(r, tmp, &done, link) {
		list_del_init(&r->link);
		ascend_retire_run(r);
	}
}

/* Outstanding queues ascend_queue_file_defer() snapshots on the stack. */
#define ASCEND_RETIRE_STACK_MARKS	4

/*
 * Take @q's mark in *@m.  Returns true (with a reference on @q) when the
 * queue has work outstanding, false when it has already passed the mark.
 * @af->queues_lock held.
 */
static bool ascend_retire_mark_take(struct ascend_queue *q,
				    struct ascend_retire_mark *m)
{
	m->q = q;
	/* a corrupted wptr faults at the next fetch */
	if (ascend_queue_read_wptr(q, &m->target))
		m->target = ascend_queue_rptr(q);
	m->reset_count = READ_ONCE(q->reset_count);
	if (ascend_retire_mark_passed(m))
		return false;
	kref_get(&q->ref);
	return true;
}

void ascend_queue_file_defer(struct ascend_file *af, struct ascend_retire *r)
{
	struct ascend_retire_mark stack[ASCEND_RETIRE_STACK_MARKS];
	struct ascend_retire_mark *marks = stack, *big;
	unsigned int n = 0, max = ARRAY_SIZE(stack), all, i;
	struct ascend_queue *q, *q2;
	unsigned long idx, idx2;
	bool fallback = false;

	INIT_LIST_HEAD(&r->link);
	/*
	 * No queue, no work that could use the memory.  Unlocked peek: a
	 * queue created concurrently holds no command published before
	 * this free.
	 */
	if (data_race(xa_empty(&af->queues))) {
		r->marks = NULL;
		r->nr_marks = 0;
		ascend_retire_run(r);
		return;
	}

	/* the common case: a few queues, most idle -- no allocation */
	mutex_lock(&af->queues_lock);
	xa_for_each(&af->queues, idx, q) {
		if (n == max) {
			/* more outstanding queues than fit: room for all */
			all = 0;
			xa_for_each(&af->queues, idx2, q2)
				all++;
			big = NULL;
			if (marks == stack && !WARN_ON_ONCE(all <= n))
				big = kmalloc_array(all, sizeof(*big),
						    GFP_KERNEL);
			if (!big) {
				fallback = true;
				break;
			}
			memcpy(big, stack, sizeof(stack));
			marks = big;
			max = all;
		}
		if (ascend_retire_mark_take(q, &marks[n]))
			n++;
	}
	if (!fallback && n && marks == stack) {
		marks = kmalloc_array(n, sizeof(*marks), GFP_KERNEL);
		if (marks)
			memcpy(marks, stack, n * sizeof(*marks));
		else
			fallback = true;
	}
	mutex_unlock(&af->queues_lock);

	if (fallback) {
		/* no memory for the snapshot: wait for the file to go idle */
		if (!marks)
			marks = stack;
		for (i = 0; i < n; i++)
			ascend_queue_put(marks[i].q);
		if (marks != stack)
			kfree(marks);
		n = 0;
	}

	r->marks = n ? marks : NULL;
	r->nr_marks = n;
	if (!n && !fallback) {
		/* nothing outstanding */
		ascend_retire_run(r);
		return;
	}

	spin_lock(&af->retire_lock);
	list_add_tail(&r->link, &af->retires);
	if (fallback)
		af->retire_fallbacks++;
	spin_unlock(&af->retire_lock);
	/* the queues may have passed before the retire was listed */
	schedule_work(&af->retire_work);
}

void ascend_queue_file_init(struct ascend_file *af)
{
	mutex_init(&af->queues_lock);
	xa_init_flags(&af->queues, XA_FLAGS_ALLOC1);
	af->activity = NULL;
	spin_lock_init(&af->retire_lock);
	INIT_LIST_HEAD(&af->retires);
	af->retire_fallbacks = 0;
	INIT_WORK(&af->retire_work, ascend_retire_work);
}

void ascend_queue_file_fini(struct ascend_file *af)
{
	struct ascend_retire *r, *tmp;
	struct ascend_queue *q;
	unsigned long idx;

	/*
	 * The process is gone: nobody will wait, stop everything now.  The
	 * device's removal may be stopping the same queues: the reference is
	 * taken under the lock, and a queue it owns is waited for (its
	 * shutdown still uses this file).
	 */
	for (idx = 0;; idx++) {
		mutex_lock(&af->queues_lock);
		q = xa_find(&af->queues, &idx, ULONG_MAX, XA_PRESENT);
		if (q)
			kref_get(&q->ref);
		mutex_unlock(&af->queues_lock);
		if (!q)
			break;
		ascend_queue_stop_or_wait(q);
		ascend_queue_put(q);
	}

	/* nothing runs any more: every pending retire may go */
	cancel_work_sync(&af->retire_work);
	list_for_each_entry_safe(r, tmp, &af->retires, link) {
		list_del_init(&r->link);
		ascend_retire_run(r);
	}

	xa_destroy(&af->queues);
	mutex_destroy(&af->queues_lock);
}

/* Queues a drain takes references on at a time. */
#define ASCEND_QUEUE_DRAIN_BATCH	16

/*
 * Might @q have published commands it has not completed?  A cheap look
 * (no checks of the user's wptr), under the file's queues_lock.
 */
static bool ascend_queue_maybe_busy(struct ascend_queue *q)
{
	/* user space writes wptr at any time: any value will do here */
	return data_race(READ_ONCE(q->status->wptr)) !=
	       ascend_queue_completed(q) &&
	       !ascend_queue_faulted(q) &&
	       READ_ONCE(q->state) != ASCEND_QUEUE_DEAD;
}

/* Wait for what @q has published now: 0 or -ERESTARTSYS. */
static int ascend_queue_drain_one(struct ascend_queue *q)
{
	u64 target = ascend_queue_target(q);
	int idx;

	/* an idle queue needs no kick and no wait */
	if (ascend_queue_reached(q, target))
		return 0;
	/* run what is published even if nobody rang */
	if (drm_dev_enter(&q->adev->drm, &idx)) {
		q->adev->hw_ops->queue_doorbell(q->adev->hw, q->qid);
		drm_dev_exit(idx);
	}
	return wait_event_interruptible(q->wq,
					ascend_queue_wait_reached(q, target));
}

/* The file's activity bitmap (NULL: none), as its words. */
static u64 *ascend_queue_activity_words(struct ascend_file *af)
{
	/* acquire: set once, after the area it points to was set up */
	struct ascend_queue_area *act = smp_load_acquire(&af->activity);

	return act ? act->vaddr : NULL;
}

/* Words of the bitmap that can name a queue handle. */
#define ASCEND_QUEUE_ACTIVITY_WORDS	(ASCEND_HW_QUEUES / 64 + 1)
static_assert(ASCEND_QUEUE_ACTIVITY_WORDS * sizeof(u64) <=
	      DRM_ASCEND_QUEUE_ACTIVITY_SIZE);

/* Mark @q active in its file's bitmap (a doorbell rang for it). */
static void ascend_queue_mark_active(struct ascend_queue *q)
{
	u64 *words = ascend_queue_activity_words(q->af);

	/* user space writes the same words: atomic, and any value will do */
	if (words)
		atomic64_or(BIT_ULL(q->handle % 64),
			    (atomic64_t *)&words[q->handle / 64]);
}

/*
 * Take the queues @af's bitmap marks active from word *@word on: set bits
 * are cleared, and a queue that is maybe busy is referenced into @qs (at
 * most @max).  Returns how many; *@word is where to go on (the same word
 * again when @qs filled up inside it: its other bits are marked again).
 */
static unsigned int ascend_queue_collect_active(struct ascend_file *af,
						u64 *words, unsigned int *word,
						struct ascend_queue **qs,
						unsigned int max)
{
	struct ascend_queue *q;
	unsigned int n = 0, b;
	u64 bits;

	/* most words are zero: a plain look costs less than an exchange */
	while (*word < ASCEND_QUEUE_ACTIVITY_WORDS && !READ_ONCE(words[*word]))
		(*word)++;
	if (*word == ASCEND_QUEUE_ACTIVITY_WORDS)
		return 0;

	mutex_lock(&af->queues_lock);
	for (; *word < ASCEND_QUEUE_ACTIVITY_WORDS; (*word)++) {
		if (!READ_ONCE(words[*word]))
			continue;
		/* cleared first: a publisher sets its bit after its wptr */
		bits = xchg(&words[*word], 0);
		for (; bits; bits &= bits - 1) {
			if (n == max) {
				/* no room this time: still marked */
				atomic64_or(bits, (atomic64_t *)&words[*word]);
				goto out;
			}
			b = __ffs64(bits);
			q = xa_load(&af->queues, *word * 64 + b);
			if (q && ascend_queue_maybe_busy(q)) {
				kref_get(&q->ref);
				qs[n++] = q;
			}
		}
	}
out:
	mutex_unlock(&af->queues_lock);
	return n;
}

int ascend_queue_file_drain(struct ascend_file *af)
{
	struct ascend_queue *qs[ASCEND_QUEUE_DRAIN_BATCH];
	u64 *words = ascend_queue_activity_words(af);
	unsigned long idx = 0;
	unsigned int n, i, word = 0;
	struct ascend_queue *q;
	int ret = 0;

	/*
	 * A file without queues has published nothing (the usual case of a
	 * process that only copies synchronously).  An unlocked look is
	 * enough: a queue whose commands the caller must follow was created
	 * before the call, and stays in the table until destroy has waited
	 * for its commands.
	 */
	if (data_race(xa_empty(&af->queues)))
		return 0;

	/*
	 * A file may hold thousands of queues, most of them idle.  With an
	 * activity bitmap only the marked ones are looked at; without, the
	 * scan under the lock reads two words per queue.  Either way
	 * references and waits are taken for the busy ones only, a batch at
	 * a time.
	 */
	do {
		if (words) {
			n = ascend_queue_collect_active(af, words, &word, qs,
							ARRAY_SIZE(qs));
		} else {
			n = 0;
			mutex_lock(&af->queues_lock);
			xa_for_each_start(&af->queues, idx, q, idx) {
				if (!ascend_queue_maybe_busy(q))
					continue;
				kref_get(&q->ref);
				qs[n++] = q;
				if (n == ARRAY_SIZE(qs)) {
					idx++;
					break;
				}
			}
			mutex_unlock(&af->queues_lock);
		}

		for (i = 0; i < n; i++) {
			if (!ret)
				ret = ascend_queue_drain_one(qs[i]);
			/* interrupted: the next drain still has to see it */
			if (ret && words)
				ascend_queue_mark_active(qs[i]);
			ascend_queue_put(qs[i]);
		}
	} while (!ret && (words ? word < ASCEND_QUEUE_ACTIVITY_WORDS :
			  n == ARRAY_SIZE(qs)));
	return ret;
}

/* ------------------------------------------------------------------------ */
/* ioctls */

int ascend_ioctl_queue_create(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_queue_create *args = data;
	struct ascend_queue_status *st;
	struct ascend_queue_area *area;
	u32 entries = args->ring_entries;
	struct ascend_queue *q;
	size_t ring_bytes, size;
	u32 handle;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	if (ascend_should_fail(adev, ASCEND_FAULT_SITE_QUEUE_CREATE))
		return -ENOMEM;
	if (!entries)
		entries = ASCEND_QUEUE_DEFAULT_RING_ENTRIES;
	if (!is_power_of_2(entries) || entries > ASCEND_QUEUE_MAX_RING_ENTRIES)
		return -EINVAL;
	if (check_mul_overflow((size_t)entries, (size_t)ASCEND_CMD_SIZE,
			       &ring_bytes) ||
	    check_add_overflow(ring_bytes, (size_t)ASCEND_QUEUE_RING_OFFSET,
			       &size))
		return -EINVAL;
	size = PAGE_ALIGN(size);

	/* the user's share first: nothing is allocated past it */
	ret = ascend_user_charge_queue(af->user);
	if (ret)
		return ret;
	q = kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
	if (!q) {
		ascend_user_uncharge_queue(af->user);
		return -ENOMEM;
	}
	/* from here on the last reference gives the share back */
	kref_init(&q->ref);
	q->user = ascend_user_get(af->user);
	/* the device translates every address the queue names with it */
	ret = ascend_vm_asid(&af->vm, &q->ctx.asid);
	/* and looks up every event the queue names here */
	if (!ret)
		ret = ascend_evtab_dir(adev, &af->evtab, &q->ctx.event_table);
	if (ret)
		goto err_put_queue;

	area = ascend_queue_area_create(drm, size);
	if (IS_ERR(area)) {
		ret = PTR_ERR(area);
		goto err_put_queue;
	}
	ret = drm_vma_node_allow(&area->base.vma_node, file);
	if (ret) {
		drm_gem_object_put(&area->base);
		goto err_put_queue;
	}

	q->adev = adev;
	q->af = af;
	q->file = file;
	q->area = area;
	q->status = area->vaddr;
	q->ring_entries = entries;
	spin_lock_init(&q->lock);
	spin_lock_init(&q->arm_lock);
	q->state = ASCEND_QUEUE_RUNNING;
	init_waitqueue_head(&q->wq);
	INIT_WORK(&q->fault_work, ascend_queue_fault_work);
	INIT_LIST_HEAD(&q->dev_link);

	st = q->status;
	st->ring_entries = entries;
	st->ring_offset = ASCEND_QUEUE_RING_OFFSET;
	st->printf_offset = ASCEND_QUEUE_PRINTF_OFFSET;
	st->printf_size = ASCEND_QUEUE_PRINTF_SIZE;
	st->cmd_size = ASCEND_CMD_SIZE;

	ret = ascend_queue_hw_init(q, size);
	if (ret)
		goto err_put;
	q->ctx.ring_entries = entries;
	q->ctx.ring_offset = ASCEND_QUEUE_RING_OFFSET;
	q->ctx.printf_offset = ASCEND_QUEUE_PRINTF_OFFSET;
	q->ctx.printf_size = ASCEND_QUEUE_PRINTF_SIZE;
	q->ctx.trace_pid = current->tgid;
	ascend_file_sched_ctx(file->filp, &q->ctx.sched_group, &q->ctx.flags);

	/* no per-file limit: the user's share bounds the file's queues */
	mutex_lock(&af->queues_lock);
	ret = xa_alloc(&af->queues, &handle, NULL,
		       XA_LIMIT(1, ASCEND_HW_QUEUES), GFP_KERNEL_ACCOUNT);
	mutex_unlock(&af->queues_lock);
	if (ret) {
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto err_hw;
	}
	q->handle = handle;
	q->ctx.trace_queue = handle;

	/* reserve a slot under the device-wide limit before starting */
	mutex_lock(&adev->queues_lock);
	if (adev->nr_queues >= ascend_queue_max()) {
		mutex_unlock(&adev->queues_lock);
		ret = -ENOSPC;
		goto err_erase;
	}
	adev->nr_queues++;
	mutex_unlock(&adev->queues_lock);

	ret = ida_alloc_max(&adev->qids, ASCEND_HW_QUEUES - 1, GFP_KERNEL);
	if (ret < 0)
		goto err_unreserve;
	q->qid = ret;
	/* the device's notifications find the queue from now on */
	WRITE_ONCE(adev->hw_queues[q->qid], q);
	ret = adev->hw_ops->queue_start(adev->hw, q->qid, &q->ctx);
	if (ret)
		goto err_qid;

	mutex_lock(&adev->queues_lock);
	list_add_tail(&q->dev_link, &adev->queues);
	/* created while the device was being removed: dead on arrival */
	if (adev->lost)
		ascend_queue_lose(q);
	mutex_unlock(&adev->queues_lock);

	/* publish the handle only once the queue is fully set up */
	mutex_lock(&af->queues_lock);
	xa_store(&af->queues, handle, q, GFP_KERNEL);
	mutex_unlock(&af->queues_lock);

	args->handle = handle;
	args->mmap_offset = drm_vma_node_offset_addr(&area->base.vma_node);
	args->mmap_size = size;
	trace_ascend_queue_create(adev->index, current->tgid, handle, entries,
				  0, 0);
	return 0;

err_qid:
	WRITE_ONCE(adev->hw_queues[q->qid], NULL);
	synchronize_irq(adev->irq);
	ida_free(&adev->qids, q->qid);
err_unreserve:
	mutex_lock(&adev->queues_lock);
	adev->nr_queues--;
	mutex_unlock(&adev->queues_lock);
err_erase:
	mutex_lock(&af->queues_lock);
	xa_erase(&af->queues, handle);
	mutex_unlock(&af->queues_lock);
err_hw:
	ascend_queue_hw_fini(q);
err_put:
	drm_vma_node_revoke(&area->base.vma_node, file);
err_put_queue:
	ascend_queue_put(q);
	return ret;
}

void ascend_queue_activity_fini(struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct ascend_queue_area *act = af->activity;

	if (!act)
		return;
	af->activity = NULL;
	/* user mappings keep the pages; the file lets go of its own */
	drm_vma_node_revoke(&act->base.vma_node, file);
	drm_gem_object_put(&act->base);
}

int ascend_ioctl_queue_activity(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_queue_activity *args = data;
	struct ascend_queue_area *act;
	int ret = 0;

	if (args->flags || args->pad || args->reserved)
		return -EINVAL;

	mutex_lock(&af->queues_lock);
	act = af->activity;
	if (!act) {
		act = ascend_queue_area_create(drm, DRM_ASCEND_QUEUE_ACTIVITY_SIZE);
		if (IS_ERR(act)) {
			ret = PTR_ERR(act);
		} else {
			ret = drm_vma_node_allow(&act->base.vma_node, file);
			if (ret)
				drm_gem_object_put(&act->base);
			else	/* release: the area is set up */
				smp_store_release(&af->activity, act);
		}
	}
	mutex_unlock(&af->queues_lock);
	if (ret)
		return ret;
	args->mmap_offset = drm_vma_node_offset_addr(&act->base.vma_node);
	args->mmap_size = DRM_ASCEND_QUEUE_ACTIVITY_SIZE;
	return 0;
}

int ascend_ioctl_queue_destroy(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_queue_destroy *args = data;
	struct ascend_queue *q;
	u64 target;
	int ret;

	if (args->flags & ~DRM_ASCEND_QUEUE_DESTROY_FORCE)
		return -EINVAL;

	q = ascend_queue_get(af, args->handle);
	if (!q)
		return -ENOENT;
	if (!ascend_queue_claim(q)) {
		/* another destroy is tearing it down */
		ascend_queue_put(q);
		return -ENOENT;
	}

	target = ascend_queue_target(q);
	q->adev->hw_ops->queue_doorbell(q->adev->hw, q->qid);

	if (args->flags & DRM_ASCEND_QUEUE_DESTROY_FORCE) {
		unsigned int ms = min(READ_ONCE(force_destroy_grace_ms),
				      ASCEND_QUEUE_GRACE_MAX_MS);

		wait_event_timeout(q->wq, ascend_queue_wait_reached(q, target),
				   msecs_to_jiffies(ms));
	} else {
		ret = wait_event_interruptible(q->wq,
					       ascend_queue_wait_reached(q, target));
		if (ret) {
			/* the queue stays usable; user space may retry */
			ascend_queue_unclaim(q);
			ascend_queue_put(q);
			return ret;
		}
	}

	ascend_queue_shutdown(q);
	ascend_queue_put(q);
	return 0;
}

int ascend_ioctl_queue_doorbell(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_queue_doorbell *args = data;
	struct ascend_queue *q;

	if (args->pad)
		return -EINVAL;
	if (ascend_should_fail(af->adev, ASCEND_FAULT_SITE_DOORBELL))
		return -EIO;

	q = ascend_queue_get(af, args->handle);
	if (!q)
		return -ENOENT;
	/*
	 * Clear NEED_WAKEUP now rather than when the device thread gets to
	 * run: until then every submission would see the flag and ring
	 * again.  No wakeup is lost: the kick below follows the clear, so a
	 * sleeping device side wakes, and it never sleeps again without
	 * setting the flag, a full barrier and a re-read of every wptr -
	 * which sees any wptr whose publisher read the flag clear.
	 */
	trace_ascend_queue_doorbell(af->adev->index, current->tgid, q->handle,
				    READ_ONCE(q->status->wptr),
				    ascend_queue_rptr(q),
				    ascend_queue_completed(q));
	/* a rung queue is active even if user space forgot its bit */
	ascend_queue_mark_active(q);
	/* the device clears NEED_WAKEUP as it answers */
	q->adev->hw_ops->queue_doorbell(q->adev->hw, q->qid);
	ascend_queue_put(q);
	return 0;
}

int ascend_ioctl_queue_wait(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_queue_wait *args = data;
	struct ascend_queue *q;
	long timeout, ret;

	if (args->flags || args->pad)
		return -EINVAL;

	q = ascend_queue_get(af, args->handle);
	if (!q)
		return -ENOENT;

	if (args->timeout_ns == DRM_ASCEND_TIMEOUT_INFINITE)
		timeout = MAX_SCHEDULE_TIMEOUT;
	else
		timeout = drm_timeout_abs_to_jiffies(args->timeout_ns);

	/* 0 timeout: evaluates the condition once, never sleeps */
	ret = wait_event_interruptible_timeout(q->wq,
					       ascend_queue_wait_reached(q, args->seq),
					       timeout);
	if (ret < 0)
		goto out;
	ascend_queue_sync_fault(q);
	args->completed = ascend_queue_completed(q);
	if (READ_ONCE(q->state) == ASCEND_QUEUE_DEAD &&
	    !ascend_queue_faulted(q) && args->completed < args->seq) {
		/* destroyed under the wait, before reaching @seq */
		ret = -ENOENT;
		goto out;
	}

	/* acquire: the caller reads the status page the fault came with */
	args->fault = smp_load_acquire(&q->fault);
	ret = (ret == 0 && !args->fault && args->completed < args->seq) ?
	      -ETIME : 0;
out:
	ascend_queue_put(q);
	return ret;
}

int ascend_ioctl_queue_reset(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_queue_reset *args = data;
	struct ascend_hw_queue_report *r;
	struct ascend_queue_status *st;
	struct ascend_queue *q;
	bool stop_only;
	u64 pos, wptr;
	int ret;

	if (args->flags & ~(DRM_ASCEND_QUEUE_RESET_ABORT |
			    DRM_ASCEND_QUEUE_RESET_STOP) ||
	    hweight32(args->flags) > 1)
		return -EINVAL;

	q = ascend_queue_get(af, args->handle);
	if (!q)
		return -ENOENT;
	/* own the queue against a concurrent destroy or reset */
	if (!ascend_queue_claim(q)) {
		ascend_queue_put(q);
		return -ENOENT;
	}
	/*
	 * Only a plain reset needs a fault; a faulted queue stops as one.
	 * Decided before the stop: the stop itself aborts the running
	 * command, and a fault it raises goes with the dropped command.
	 */
	stop_only = !ascend_queue_faulted(q) &&
		    (args->flags & DRM_ASCEND_QUEUE_RESET_STOP);
	if (!args->flags && !ascend_queue_faulted(q)) {
		ascend_queue_unclaim(q);
		ascend_queue_put(q);
		return -EINVAL;
	}
	/* a queue of a device being removed stays faulted */
	if (READ_ONCE(q->adev->lost)) {
		ascend_queue_unclaim(q);
		ascend_queue_put(q);
		return -ENODEV;
	}

	/* the device lets go of the queue, its handed-off work returns */
	ascend_queue_hw_stop(q);

	/*
	 * Everything published is discarded: rptr and completed jump to the
	 * wptr, never backwards (waiters count on completed growing).  Only
	 * a wptr the ring check accepts is published work; one behind rptr
	 * or more than a ring ahead of it (say 2^64 - 2) is not, and rptr
	 * stays: the counters then grow by at most a ring per reset, never
	 * by what user space wrote, so they do not come near the 2^64 wrap
	 * that the waits and retires compare without.  The wptr is set to
	 * the same point, so the reset queue is consistent instead of
	 * faulting again at once.  The device is stopped: the report is the
	 * driver's to rewrite.
	 */
	st = q->status;
	r = q->report;
	pos = ascend_queue_rptr(q);
	wptr = READ_ONCE(st->wptr);
	/*
	 * STOP drops what the device had fetched (the command it ran or
	 * parked) and keeps what is behind it published.  A wptr the ring
	 * check refuses then faults the restarted queue at its first fetch,
	 * as it would have without the stop.
	 */
	if (!stop_only) {
		if (!ascend_ring_check_wptr(pos, pos, wptr, q->ring_entries))
			pos = wptr;
		WRITE_ONCE(st->wptr, pos);
	}
	WRITE_ONCE(r->rptr, cpu_to_le64(pos));
	WRITE_ONCE(st->rptr, pos);
	/* release: pairs with the waiters' acquire */
	smp_store_release(&r->completed, cpu_to_le64(pos));
	/* the page mirror, for user space's acquire load */
	smp_store_release(&st->completed, pos);
	WRITE_ONCE(r->busy, 0);
	WRITE_ONCE(r->fault_seq, 0);
	WRITE_ONCE(r->fault_addr, 0);
	WRITE_ONCE(r->fault_opcode, 0);
	WRITE_ONCE(r->fault, 0);
	WRITE_ONCE(q->reset_count, q->reset_count + 1);

	spin_lock(&q->lock);
	q->fault_seq = 0;
	q->fault_addr = 0;
	q->fault_opcode = 0;
	WRITE_ONCE(q->fault, ASCEND_FAULT_NONE);
	WRITE_ONCE(st->fault, ASCEND_FAULT_NONE);
	WRITE_ONCE(st->fault_seq, 0);
	WRITE_ONCE(st->fault_addr, 0);
	WRITE_ONCE(st->fault_opcode, 0);
	/* the cleared record is visible before the flag that announced it */
	smp_wmb();
	ascend_queue_status_clear_flags(st, ASCEND_QUEUE_STATUS_FAULTED);
	spin_unlock(&q->lock);

	trace_ascend_queue_reset(q->adev->index, current->tgid, q->handle, pos, pos,
				 pos);
	q->ctx.start = pos;
	q->ctx.printf_head = le64_to_cpu(READ_ONCE(r->printf_head));
	q->ctx.printf_dropped = le64_to_cpu(READ_ONCE(r->printf_dropped));
	WRITE_ONCE(q->adev->hw_queues[q->qid], q);
	ret = q->adev->hw_ops->queue_start(q->adev->hw, q->qid, &q->ctx);
	if (ret)
		/* not served again: its next command never completes */
		ascend_queue_set_fault(q, ASCEND_FAULT_DMA, pos + 1, 0, 0);
	ascend_queue_unclaim(q);
	wake_up_all(&q->wq);
	ascend_queue_poke_retire(q);
	ascend_queue_put(q);
	return 0;
}
