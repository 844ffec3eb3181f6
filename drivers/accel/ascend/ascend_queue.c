// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware queues: the shared area user space maps, the QUEUE_* ioctls,
 * queue lifetime, and the helpers the backend's command processor uses to
 * complete and fault the commands it runs.
 *
 * Nothing in the shared area is trusted: the authoritative rptr, completed
 * count and fault record live in struct ascend_queue, and the status page
 * is only their mirror.  The one value taken from the page, wptr, is
 * checked against the kernel's rptr every time it is read.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_utils.h>
#include <drm/drm_vma_manager.h>
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

/* The device-wide bound on queues, across every process. */
static unsigned int max_queues = 1024;
module_param(max_queues, uint, 0644);
MODULE_PARM_DESC(max_queues,
		 "Queues one NPU serves across all processes (default 1024); QUEUE_CREATE fails with -ENOSPC beyond");

u32 ascend_queue_cmd_timeout_ms(void)
{
	return READ_ONCE(cmd_timeout_ms);
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
/* The shared area: a GEM object over a vmalloc_user() buffer */

static struct ascend_queue_area *to_area(struct drm_gem_object *obj)
{
	return container_of(obj, struct ascend_queue_area, base);
}

static void ascend_queue_area_free(struct drm_gem_object *obj)
{
	struct ascend_queue_area *area = to_area(obj);

	drm_gem_object_release(obj);
	vfree(area->vaddr);
	kfree(area);
}

static int ascend_queue_area_mmap(struct drm_gem_object *obj,
				  struct vm_area_struct *vma)
{
	/*
	 * drm_gem_mmap() checked the caller may map the object and that the
	 * VMA is not larger than it; vm_pgoff is the fake offset, so map
	 * from the start of the buffer.  A private (copy-on-write) mapping
	 * would silently stop sharing the ring with the device: refuse it.
	 */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	return remap_vmalloc_range(vma, to_area(obj)->vaddr, 0);
}

/* After an unplug zapped the mapping: the status page stays readable. */
static vm_fault_t ascend_queue_area_fault(struct vm_fault *vmf)
{
	struct drm_gem_object *obj = vmf->vma->vm_private_data;

	return ascend_vmalloc_fault(vmf, to_area(obj)->vaddr, obj->size);
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

	area = kzalloc(sizeof(*area), GFP_KERNEL);
	if (!area)
		return ERR_PTR(-ENOMEM);

	area->vaddr = vmalloc_user(size);
	if (!area->vaddr) {
		kfree(area);
		return ERR_PTR(-ENOMEM);
	}

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
/* Device-side helpers */

void ascend_queue_set_fault(struct ascend_queue *q, u32 fault, u64 seq,
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
		WRITE_ONCE(q->fault, fault);
		q->status_flags |= ASCEND_QUEUE_STATUS_FAULTED;

		WRITE_ONCE(st->fault_seq, seq);
		WRITE_ONCE(st->fault_addr, addr);
		WRITE_ONCE(st->fault_opcode, opcode);
		WRITE_ONCE(st->fault, fault);
		/* the record is visible before the flag that announces it */
		smp_store_release(&st->flags, q->status_flags);
	}
	spin_unlock(&q->lock);
	if (first) {
		trace_ascend_queue_fault(q->adev->index, ascend_file_tgid(q->file),
					 q->handle, fault, seq, addr, opcode);
		ascend_debugfs_log_fault(q, fault, seq, addr, opcode);
	}
	wake_up_all(&q->wq);
	ascend_queue_poke_retire(q);
}

void ascend_queue_complete(struct ascend_queue *q, u64 seq)
{
	/*
	 * Release: the command's side effects (memory, printf text) are
	 * visible before the completion, in the kernel and on the page.
	 */
	smp_store_release(&q->completed, seq);
	/* the page mirror, for user space's acquire load */
	smp_store_release(&q->status->completed, seq);
	trace_ascend_cmd_complete(q->adev->index, q->handle, seq);
	if (wq_has_sleeper(&q->wq))
		wake_up_all(&q->wq);
	ascend_queue_poke_retire(q);
}

void ascend_queue_set_need_wakeup(struct ascend_queue *q, bool on)
{
	spin_lock(&q->lock);
	if (on)
		q->status_flags |= ASCEND_QUEUE_STATUS_NEED_WAKEUP;
	else
		q->status_flags &= ~ASCEND_QUEUE_STATUS_NEED_WAKEUP;
	WRITE_ONCE(q->status->flags, q->status_flags);
	spin_unlock(&q->lock);
}

int ascend_queue_read_wptr(struct ascend_queue *q, u64 *wptr)
{
	u64 rp_before, rp_after, w;

	/*
	 * rptr only grows.  A well-behaved wptr is never behind any rptr
	 * read before it, and never more than a ring ahead of any rptr read
	 * after it (user space saw that rptr, or an older one, before it
	 * published).  The acquires order the three reads, and the one on
	 * wptr pairs with user space's release store of it.
	 */
	rp_before = smp_load_acquire(&q->rptr);
	/* pairs with the user's release store of wptr */
	w = smp_load_acquire(&q->status->wptr);
	rp_after = READ_ONCE(q->rptr);

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

	/* the area may live on in user mappings; they hold their own refs */
	drm_gem_object_put(&q->area->base);
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
	/* acquire: pairs with ascend_queue_complete() */
	return smp_load_acquire(&q->completed) >= target ||
	       ascend_queue_faulted(q) ||
	       READ_ONCE(q->state) == ASCEND_QUEUE_DEAD;
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
				       READ_ONCE(q->rptr) + 1, 0, 0);
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

	WRITE_ONCE(q->cp_stop, true);
	adev->hw->queue_stop(adev, q);

	/* the device no longer touches @q: whatever is left is discarded */
	if (READ_ONCE(q->status->wptr) != q->completed)
		ascend_queue_set_fault(q, ASCEND_FAULT_ABORTED, q->completed + 1,
				       0, 0);

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
				   q->handle, READ_ONCE(q->status->wptr), q->rptr,
				   q->completed);
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
			       READ_ONCE(q->completed) + 1, 0, 0);
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

void ascend_queue_poke_retire(struct ascend_queue *q)
{
	struct ascend_file *af = q->af;

	if (af && !list_empty_careful(&af->retires))
		schedule_work(&af->retire_work);
}

/*
 * Has @q passed @m?  A faulted, reset or stopped queue executes nothing
 * published before, once the command it had handed off has returned.
 */
static bool ascend_retire_mark_passed(const struct ascend_retire_mark *m)
{
	struct ascend_queue *q = m->q;

	/* acquire: pairs with ascend_queue_complete() */
	if (smp_load_acquire(&q->completed) >= m->target)
		return true;
	if (READ_ONCE(q->cur_state) == ASCEND_CUR_RUNNING)
		return false;
	return ascend_queue_faulted(q) || READ_ONCE(q->cp_stop) ||
	       READ_ONCE(q->state) == ASCEND_QUEUE_DEAD ||
	       READ_ONCE(q->reset_count) != m->reset_count;
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
			m.target = READ_ONCE(q->rptr);
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
		m->target = READ_ONCE(q->rptr);
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

int ascend_queue_file_drain(struct ascend_file *af)
{
	struct ascend_queue *qs[ASCEND_QUEUE_MAX_PER_FILE];
	unsigned int n = 0, i;
	struct ascend_queue *q;
	unsigned long idx;
	int ret = 0, dev_idx;
	u64 target;

	/*
	 * A file without queues has published nothing (the usual case of a
	 * process that only copies synchronously).  An unlocked look is
	 * enough: a queue whose commands the caller must follow was created
	 * before the call, and stays in the table until destroy has waited
	 * for its commands.
	 */
	if (data_race(xa_empty(&af->queues)))
		return 0;

	mutex_lock(&af->queues_lock);
	xa_for_each(&af->queues, idx, q) {
		if (WARN_ON_ONCE(n == ARRAY_SIZE(qs)))
			break;
		kref_get(&q->ref);
		qs[n++] = q;
	}
	mutex_unlock(&af->queues_lock);

	for (i = 0; i < n; i++) {
		q = qs[i];
		target = ret ? 0 : ascend_queue_target(q);
		/* an idle queue needs no kick and no wait (the common case) */
		if (!ret && !ascend_queue_reached(q, target)) {
			/* run what is published even if nobody rang */
			if (drm_dev_enter(&q->adev->drm, &dev_idx)) {
				q->adev->hw->queue_doorbell(q->adev, q);
				drm_dev_exit(dev_idx);
			}
			ret = wait_event_interruptible(q->wq,
						       ascend_queue_reached(q, target));
		}
		ascend_queue_put(q);
	}
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

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	/* the device translates every address the queue names with it */
	ret = ascend_vm_asid(&af->vm, &q->asid);
	/* and looks up every event the queue names here */
	if (!ret)
		ret = ascend_evtab_dir(adev, &af->evtab, &q->event_table);
	if (ret) {
		kfree(q);
		return ret;
	}

	area = ascend_queue_area_create(drm, size);
	if (IS_ERR(area)) {
		kfree(q);
		return PTR_ERR(area);
	}
	ret = drm_vma_node_allow(&area->base.vma_node, file);
	if (ret) {
		drm_gem_object_put(&area->base);
		kfree(q);
		return ret;
	}

	kref_init(&q->ref);
	q->adev = adev;
	q->af = af;
	q->vm = &af->vm;
	q->file = file;
	q->area = area;
	q->status = area->vaddr;
	q->printf_buf = (u8 *)area->vaddr + ASCEND_QUEUE_PRINTF_OFFSET;
	q->printf_size = ASCEND_QUEUE_PRINTF_SIZE;
	q->ring = (struct ascend_cmd *)((u8 *)area->vaddr +
					ASCEND_QUEUE_RING_OFFSET);
	q->ring_entries = entries;
	spin_lock_init(&q->lock);
	spin_lock_init(&q->printf_lock);
	q->state = ASCEND_QUEUE_RUNNING;
	init_waitqueue_head(&q->wq);
	INIT_LIST_HEAD(&q->dev_link);
	INIT_LIST_HEAD(&q->cp_link);

	st = q->status;
	st->ring_entries = entries;
	st->ring_offset = ASCEND_QUEUE_RING_OFFSET;
	st->printf_offset = ASCEND_QUEUE_PRINTF_OFFSET;
	st->printf_size = ASCEND_QUEUE_PRINTF_SIZE;
	st->cmd_size = ASCEND_CMD_SIZE;

	/* the handle limit is the per-file queue limit */
	mutex_lock(&af->queues_lock);
	ret = xa_alloc(&af->queues, &handle, NULL,
		       XA_LIMIT(1, ASCEND_QUEUE_MAX_PER_FILE), GFP_KERNEL);
	mutex_unlock(&af->queues_lock);
	if (ret) {
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto err_put;
	}
	q->handle = handle;

	/* reserve a slot under the device-wide limit before starting */
	mutex_lock(&adev->queues_lock);
	if (adev->nr_queues >= READ_ONCE(max_queues)) {
		mutex_unlock(&adev->queues_lock);
		ret = -ENOSPC;
		goto err_erase;
	}
	adev->nr_queues++;
	mutex_unlock(&adev->queues_lock);

	ret = adev->hw->queue_start(adev, q);
	if (ret)
		goto err_unreserve;

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

err_unreserve:
	mutex_lock(&adev->queues_lock);
	adev->nr_queues--;
	mutex_unlock(&adev->queues_lock);
err_erase:
	mutex_lock(&af->queues_lock);
	xa_erase(&af->queues, handle);
	mutex_unlock(&af->queues_lock);
err_put:
	drm_vma_node_revoke(&area->base.vma_node, file);
	ascend_queue_put(q);
	return ret;
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
	q->adev->hw->queue_doorbell(q->adev, q);

	if (args->flags & DRM_ASCEND_QUEUE_DESTROY_FORCE) {
		unsigned int ms = min(READ_ONCE(force_destroy_grace_ms),
				      ASCEND_QUEUE_GRACE_MAX_MS);

		wait_event_timeout(q->wq, ascend_queue_reached(q, target),
				   msecs_to_jiffies(ms));
	} else {
		ret = wait_event_interruptible(q->wq,
					       ascend_queue_reached(q, target));
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
	ascend_queue_set_need_wakeup(q, false);
	trace_ascend_queue_doorbell(af->adev->index, current->tgid, q->handle,
				    READ_ONCE(q->status->wptr), READ_ONCE(q->rptr),
				    READ_ONCE(q->completed));
	q->adev->hw->queue_doorbell(q->adev, q);
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
					       ascend_queue_reached(q, args->seq),
					       timeout);
	if (ret < 0)
		goto out;
	/* acquire: pairs with ascend_queue_complete() */
	args->completed = smp_load_acquire(&q->completed);
	if (READ_ONCE(q->state) == ASCEND_QUEUE_DEAD &&
	    !ascend_queue_faulted(q) && args->completed < args->seq) {
		/* destroyed under the wait, before reaching @seq */
		ret = -ENOENT;
		goto out;
	}

	args->fault = READ_ONCE(q->fault);
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
	struct ascend_queue_status *st;
	struct ascend_queue *q;
	u64 pos;

	if (args->pad)
		return -EINVAL;

	q = ascend_queue_get(af, args->handle);
	if (!q)
		return -ENOENT;
	/* own the queue against a concurrent destroy or reset */
	if (!ascend_queue_claim(q)) {
		ascend_queue_put(q);
		return -ENOENT;
	}
	if (!ascend_queue_faulted(q)) {
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
	q->adev->hw->queue_stop(q->adev, q);

	/*
	 * Everything published is discarded: rptr and completed jump to the
	 * wptr, never backwards (waiters count on completed growing).  A wptr
	 * left behind rptr by user space is set to the same point, so the
	 * reset queue is consistent instead of faulting again at once.
	 */
	st = q->status;
	pos = max(READ_ONCE(st->wptr), q->rptr);
	WRITE_ONCE(st->wptr, pos);
	/* release: pairs with ascend_queue_read_wptr()'s acquire */
	smp_store_release(&q->rptr, pos);
	WRITE_ONCE(st->rptr, pos);
	/* release: pairs with the waiters' acquire, as in _complete() */
	smp_store_release(&q->completed, pos);
	/* the page mirror, for user space's acquire load */
	smp_store_release(&st->completed, pos);
	WRITE_ONCE(q->reset_count, q->reset_count + 1);

	spin_lock(&q->lock);
	q->fault_seq = 0;
	q->fault_addr = 0;
	q->fault_opcode = 0;
	WRITE_ONCE(q->fault, ASCEND_FAULT_NONE);
	q->status_flags &= ~ASCEND_QUEUE_STATUS_FAULTED;
	WRITE_ONCE(st->fault, ASCEND_FAULT_NONE);
	WRITE_ONCE(st->fault_seq, 0);
	WRITE_ONCE(st->fault_addr, 0);
	WRITE_ONCE(st->fault_opcode, 0);
	/* the cleared record is visible before the flag that announced it */
	smp_store_release(&st->flags, q->status_flags);
	spin_unlock(&q->lock);

	trace_ascend_queue_reset(q->adev->index, current->tgid, q->handle, pos, pos,
				 pos);
	q->adev->hw->queue_start(q->adev, q);
	ascend_queue_unclaim(q);
	wake_up_all(&q->wq);
	ascend_queue_poke_retire(q);
	ascend_queue_put(q);
	return 0;
}
