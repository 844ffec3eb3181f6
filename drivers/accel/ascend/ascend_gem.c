// SPDX-License-Identifier: GPL-2.0-only
/*
 * HBM buffer objects, DRM_IOCTL_ASCEND_BO_CREATE and the BO side of IPC
 * (export lookup, import).
 *
 * Lifetime: freeing a BO (its last handle closed, or the file closed) must
 * not pull the memory from under commands the file's queues still run or
 * will run: the GEM object goes at once, but the unmap and the release of
 * the buffer are deferred with ascend_queue_file_defer() until every
 * command the file had published by then has completed (or its queue
 * faulted or stopped).  Until then the VA stays mapped, so it cannot be
 * handed out again, and the bytes still count in the file's hbm_used:
 * memory is "used" until the device can no longer touch it.
 * drm_file_free() drops the handles before postclose, which stops the
 * queues and runs whatever is still pending before the address space goes.
 *
 * %DRM_ASCEND_BO_NO_HANDLE allocations skip the GEM object and its handle
 * (a GEM handle is the larger part of a small allocation's cost): the VA
 * names them, BO_FREE starts the same deferred retire as the last
 * reference of a GEM BO, and postclose frees those still live once the
 * queues stopped (ascend_gem_file_fini()).
 *
 * The free ring (ascend_free_ring.c) frees them without a system call:
 * user space publishes VAs, and the kernel "drains" the ring, freeing each
 * entry exactly as BO_FREE would, before anything could observe that the
 * memory is still held: at the start of the owner's BO_CREATE and BO_FREE,
 * for every file of the device before a statistics snapshot and before an
 * allocation fails with -ENOSPC (ascend_gem_drain_device()), and at close.
 * Draining another file's ring runs under the device's filelist_mutex,
 * which keeps that file alive (it leaves the list before postclose), and
 * the ring's own lock; the frees then take vm->lock, the queue and retire
 * locks and the HBM lock as BO_FREE does, so filelist_mutex nests outside
 * all of them.
 *
 * Sharing: the HBM is a refcounted &struct ascend_hbm_buf.  Each file that
 * maps it (the creator, each importer) has its own BO with its own mapping
 * and its own deferred retire on its own queues; IPC exports hold the
 * buffer too.  The HBM is discarded and freed only when the last of them
 * is gone, so the creator's GEM_CLOSE while importers still use the memory
 * only removes the creator's mapping.  The creator's file is charged the
 * whole allocation in hbm_used until its own BO retires; importers are not
 * charged (the device-wide HBM counters count the allocation once).
 *
 * A synchronous copy or fill translates and runs each pass under vm->lock,
 * so an unmap waits for the pass in flight; the device's own accesses (ring
 * commands) take no driver lock: the unmap's MMU invalidation waits for
 * those in flight.
 */
#include <linux/dma-buf.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_vma_manager.h>

#include "ascend_drv.h"
#include "ascend_free_ring.h"
#include "ascend_gem.h"
#include "ascend_hw.h"
#include "ascend_trace.h"
#include "ascend_vmm.h"

/* The last reference is gone: free the memory but not @buf itself. */
static bool ascend_gem_drop_parked(struct ascend_file *af);

static void ascend_hbm_buf_free_mem(struct kref *ref)
{
	struct ascend_hbm_buf *buf = container_of(ref, struct ascend_hbm_buf,
						  ref);
	struct ascend_device *adev = buf->adev;
	unsigned int i;
	int idx;

	/*
	 * Drop the contents, then free: the next owner reads zeroes.  A
	 * removed device has dropped all its memory (hw->fini).
	 */
	if (adev->hw_ops->hbm_discard && drm_dev_enter(&adev->drm, &idx)) {
		for (i = 0; i < buf->mem.nr_ranges; i++)
			adev->hw_ops->hbm_discard(adev->hw, buf->mem.ranges[i].addr,
					      buf->mem.ranges[i].size);
		drm_dev_exit(idx);
	}
	ascend_hbm_free(&adev->hbm, &buf->mem);
	/* after the memory went back, like the file's hbm_used */
	if (buf->user) {
		ascend_user_uncharge_hbm(buf->user, buf->charged);
		ascend_user_put(buf->user);
		buf->user = NULL;
	}
}

/*
 * Charge @bytes more of HBM to @af's user.  Past the share, memory this
 * user freed on some file's ring, or keeps idle here, goes back first.
 */
static int ascend_gem_charge(struct ascend_file *af, u64 bytes)
{
	int ret = ascend_user_charge_hbm(af->user, bytes);

	if (ret == -EDQUOT && (ascend_gem_drain_device(af->adev) |
			       ascend_gem_drop_parked(af)))
		ret = ascend_user_charge_hbm(af->user, bytes);
	return ret;
}

static void ascend_hbm_buf_release(struct kref *ref)
{
	ascend_hbm_buf_free_mem(ref);
	kfree(container_of(ref, struct ascend_hbm_buf, ref));
}

void ascend_hbm_buf_put(struct ascend_hbm_buf *buf)
{
	kref_put(&buf->ref, ascend_hbm_buf_release);
}

int ascend_hbm_sub_ranges(const struct ascend_hbm_alloc *mem, u64 offset,
			  u64 size, struct ascend_hbm_range **out)
{
	struct ascend_hbm_range *r;
	unsigned int i, n = 0;
	u64 end;

	*out = NULL;
	if (!size || check_add_overflow(offset, size, &end) || end > mem->size)
		return -EINVAL;

	for (i = 0; i < mem->nr_ranges; i++)
		if (mem->ranges[i].offset < end &&
		    offset < mem->ranges[i].offset + mem->ranges[i].size)
			n++;
	r = kcalloc(n, sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;

	n = 0;
	for (i = 0; i < mem->nr_ranges; i++) {
		const struct ascend_hbm_range *s = &mem->ranges[i];
		u64 lo = max(offset, s->offset);
		u64 hi = min(end, s->offset + s->size);

		if (lo >= hi)
			continue;
		r[n].offset = lo - offset;
		r[n].addr = s->addr + (lo - s->offset);
		r[n].size = hi - lo;
		n++;
	}
	*out = r;
	return n;
}

/*
 * Keep a retired handle-less BO whole for its file's next BO_CREATE of the
 * same request (see ascend_gem.h, "Idle BOs").  Only a BO that owns all of
 * its memory alone (no importer, no IPC export, no copy holding the
 * buffer) and maps all of it.  Its VA faults in the driver from now on;
 * the device can still reach it through the file's own tables, that is,
 * only the file's own work that uses memory it freed -- never another
 * file's memory.  Returns whether @bo is idle now (uncharged).
 */
static inline bool ascend_bo_idle_park_locked(struct ascend_bo *bo)
{
	struct ascend_file *af = bo->af;
	struct ascend_hbm_buf *buf = bo->buf;

	lockdep_assert_held(&af->vm.lock);
	if (bo->imported || bo->sub_ranges || bo->offset || !bo->req_size ||
	    buf->mem.size > ASCEND_BO_IDLE_SIZE)
		return false;
	/* a reference taken by a look-up would be under this lock */
	if (af->nr_bo_idle >= ASCEND_BO_IDLE_MAX || kref_read(&buf->ref) != 1 ||
	    !drm_mm_node_allocated(&bo->map.node) ||
	    bo->map.size != buf->mem.size || READ_ONCE(af->adev->lost))
		return false;
	/*
	 * Uncharged before the unlock: from then on another thread may take
	 * the BO again, or release it and hand @buf to a new allocation as
	 * the file's spare.
	 */
	atomic64_sub(buf->mem.size, &af->hbm_used);
	bo->map.idle = true;
	af->bo_idle[af->nr_bo_idle++] = bo;
	return true;
}

static bool ascend_bo_idle_park(struct ascend_bo *bo)
{
	struct ascend_file *af = bo->af;
	bool idle;

	mutex_lock(&af->vm.lock);
	idle = ascend_bo_idle_park_locked(bo);
	mutex_unlock(&af->vm.lock);
	return idle;
}

/*
 * Make the mapped handle-less @bo an allocation of @af, with @vm.lock held:
 * the answer of BO_CREATE @args and the charge first, because from the
 * unlock on a BO_FREE or a free-ring entry naming its VA (which user space
 * can guess) may retire it, reuse the VA range and hand the buffer on.
 */
static void ascend_bo_go_live_locked(struct ascend_file *af,
				     struct ascend_bo *bo,
				     struct drm_ascend_bo_create *args)
{
	lockdep_assert_held(&af->vm.lock);
	bo->req_size = args->size;
	bo->req_policy = args->policy;
	bo->req_flags = args->flags;
	args->va = bo->map.node.start;
	args->alloc_size = bo->buf->mem.size;
	args->page_size = bo->buf->mem.page_size;
	args->handle = 0;
	atomic64_add(bo->buf->mem.size, &af->hbm_used);
	bo->live = true;
}

/*
 * An idle BO of @af made for the request @args, live again with its old
 * contents dropped (the next owner reads zeroes), or NULL.  Called inside
 * the ioctl's device section (ascend_ioctl_hw()), which the discard needs:
 * it enters none of its own.
 */
static struct ascend_bo *ascend_bo_idle_take(struct ascend_file *af,
					     struct drm_ascend_bo_create *args)
{
	struct ascend_device *adev = af->adev;
	struct ascend_bo *bo, *found = NULL;
	unsigned int i, n;

	/* Unlocked peek: one parked meanwhile is only a missed reuse. */
	if (!data_race(af->nr_bo_idle))
		return NULL;
	mutex_lock(&af->vm.lock);
	/* the last parked first: most often the one the drain just freed */
	for (n = af->nr_bo_idle; n--; ) {
		bo = af->bo_idle[n];
		if (bo->req_size == args->size &&
		    bo->req_policy == args->policy &&
		    bo->req_flags == args->flags) {
			found = bo;
			break;
		}
	}
	if (found) {
		af->nr_bo_idle--;
		memmove(&af->bo_idle[n], &af->bo_idle[n + 1],
			(af->nr_bo_idle - n) * sizeof(*af->bo_idle));
		/* accesses in flight finish first (ascend_hw.h, hbm_discard) */
		if (adev->hw_ops->hbm_discard) {
			for (i = 0; i < found->buf->mem.nr_ranges; i++)
				adev->hw_ops->hbm_discard(adev->hw,
							  found->buf->mem.ranges[i].addr,
							  found->buf->mem.ranges[i].size);
		}
		found->map.idle = false;
		ascend_bo_go_live_locked(af, found, args);
	}
	mutex_unlock(&af->vm.lock);
	return found;
}

static void ascend_bo_release(struct ascend_bo *bo, bool uncharge);
/*
 * Give up @af's idle BOs: unmapped and freed as any retired BO.  Returns
 * how many there were.  The caller holds no vm, HBM or queue lock.
 */
static unsigned int ascend_bo_idle_release(struct ascend_file *af)
{
	struct ascend_bo *list[ASCEND_BO_IDLE_MAX];
	unsigned int i, n;

	/* Unlocked peek: one parked meanwhile is like a free not yet seen. */
	if (!data_race(af->nr_bo_idle))
		return 0;
	mutex_lock(&af->vm.lock);
	n = af->nr_bo_idle;
	memcpy(list, af->bo_idle, n * sizeof(*list));
	af->nr_bo_idle = 0;
	mutex_unlock(&af->vm.lock);
	for (i = n; i--; )	/* the last parked first, as ever */
		ascend_bo_release(list[i], false);
	return n;
}

/*
 * Unmap @bo and let go of its memory; @uncharge: take it off the file's
 * hbm_used (an idle BO was already).
 */
static void ascend_bo_release(struct ascend_bo *bo, bool uncharge)
{
	struct ascend_file *af = bo->af;
	struct ascend_hbm_buf *buf = bo->buf;
	struct ascend_hbm_range *sub_ranges = bo->sub_ranges;
	bool charged = uncharge && !bo->imported;
	u64 size = buf->mem.size;
	bool parked = false;

	/*
	 * A handle-less BO keeps its VA range parked for the next allocation
	 * of its size, and the object with it (ascend_bo_reuse()): from then
	 * on another BO_CREATE may take it, so @bo is not touched again.
	 */
	if (bo->no_handle)
		parked = ascend_vm_unmap_park(&af->vm, &bo->map);
	else
		ascend_vm_unmap(&af->vm, &bo->map);
	/* The last reference: keep the structure for the file's next one. */
	if (kref_put(&buf->ref, ascend_hbm_buf_free_mem))
		kfree(xchg(&af->spare_buf, buf));
	/*
	 * Uncharged after the memory went back: whoever sees the file's
	 * hbm_used drop sees the device's free memory grow with it.
	 */
	if (charged)
		atomic64_sub(size, &af->hbm_used);
	kfree(sub_ranges);
	if (!parked)
		kfree(bo);
}

/* The retire callback: nothing of this file can reach the memory any more. */
static void ascend_bo_retire(struct ascend_retire *r)
{
	struct ascend_bo *bo = container_of(r, struct ascend_bo, retire);

	if (bo->no_handle && ascend_bo_idle_park(bo))
		return;
	ascend_bo_release(bo, true);
}

/*
 * Free the BOs of @af's parked VA ranges.  Returns whether there were any
 * (a full window is worth another try then).
 */
static bool ascend_gem_drop_parked(struct ascend_file *af)
{
	struct ascend_vm_mapping *map, *next;
	LIST_HEAD(list);

	/* idle BOs hold VA ranges too: they become parked ranges first */
	ascend_bo_idle_release(af);
	ascend_vm_unpark_all(&af->vm, &list);
	if (list_empty(&list))
		return false;
	list_for_each_entry_safe(map, next, &list, park)
		kfree(container_of(map, struct ascend_bo, map));
	return true;
}

/*
 * Map @bo->map in @af's window; a full window first gives up the parked
 * ranges.
 */
static int ascend_gem_map(struct ascend_file *af, struct ascend_bo *bo,
			  const struct ascend_hbm_alloc *mem)
{
	int ret;

	ret = ascend_vm_map(&af->vm, &bo->map, mem);
	if (ret == -ENOSPC && ascend_gem_drop_parked(af))
		ret = ascend_vm_map(&af->vm, &bo->map, mem);
	return ret;
}

/*
 * A handle-less BO for @buf on a parked VA range of @af, if one fits:
 * mapped and live as the answer to @args, or NULL.
 */
static struct ascend_bo *ascend_bo_reuse(struct ascend_file *af,
					 struct ascend_hbm_buf *buf,
					 struct drm_ascend_bo_create *args)
{
	struct ascend_vm_mapping *map;
	struct ascend_bo *bo = NULL;

	mutex_lock(&af->vm.lock);
	map = ascend_vm_take_parked_locked(&af->vm, &buf->mem);
	if (map) {
		bo = container_of(map, struct ascend_bo, map);
		bo->buf = buf;
		bo->offset = 0;
		bo->sub_ranges = NULL;
		bo->imported = false;
		bo->no_handle = true;
		ascend_bo_go_live_locked(af, bo, args);
	}
	mutex_unlock(&af->vm.lock);
	return bo;
}

static void ascend_bo_free(struct drm_gem_object *obj)
{
	struct ascend_bo *bo = to_ascend_bo(obj);

	drm_gem_object_release(obj);
	trace_ascend_bo_free(bo->af->adev->index, current->tgid,
			     bo->map.node.start, bo->map.size,
			     bo->buf->mem.page_size);
	bo->retire.fn = ascend_bo_retire;
	/* May run ascend_bo_retire() at once when nothing is queued. */
	ascend_queue_file_defer(bo->af, &bo->retire);
}

/* A BO lives in one file's address space: no handle in any other file. */
static int ascend_bo_open(struct drm_gem_object *obj, struct drm_file *file)
{
	return to_ascend_file(file) == to_ascend_bo(obj)->af ? 0 : -EPERM;
}

/*
 * PRIME export is refused: sharing goes through IPC keys (ascend_ipc.c),
 * which map the same HBM into the importer's own address space with the
 * pid allow-list CANN requires; a dma-buf fd would bypass that list.
 */
static struct dma_buf *ascend_bo_export(struct drm_gem_object *obj, int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct drm_gem_object_funcs ascend_bo_funcs = {
	.free = ascend_bo_free,
	.open = ascend_bo_open,
	.export = ascend_bo_export,
};

/*
 * Finish a BO whose @map is mapped: make it a GEM object, charge it and
 * give @file a handle.  Consumes the caller's reference on the object.
 */
static int ascend_bo_publish(struct drm_file *file, struct ascend_bo *bo,
			     u64 size, u32 *handle)
{
	struct ascend_file *af = to_ascend_file(file);
	int ret;

	/* From here on the object's .free undoes everything. */
	bo->base.funcs = &ascend_bo_funcs;
	drm_gem_private_object_init(&af->adev->drm, &bo->base,
				    round_up(size, PAGE_SIZE));
	if (!bo->imported)
		atomic64_add(bo->buf->mem.size, &af->hbm_used);

	/* The handle is published last: user space may close it at once. */
	ret = drm_gem_handle_create(file, &bo->base, handle);
	drm_gem_object_put(&bo->base);
	return ret;
}

/*
 * Free @af's live handle-less allocation that starts at @va, as BO_FREE
 * does: -EINVAL if there is none.
 */
static inline int ascend_gem_free_va(struct ascend_file *af, u64 va)
{
	struct ascend_vm_mapping *map;
	struct ascend_bo *bo = NULL;
	bool idle = false;
	u64 off;

	mutex_lock(&af->vm.lock);
	map = ascend_vm_lookup_locked(&af->vm, va, 1, &off);
	if (!IS_ERR(map) && map->kind == ASCEND_VM_BO &&
	    map->as == ASCEND_AS_HBM && !off) {
		bo = container_of(map, struct ascend_bo, map);
		if (bo->no_handle && bo->live)
			bo->live = false;	/* only one free wins */
		else
			bo = NULL;
	}
	if (bo) {
		trace_ascend_bo_free(af->adev->index, current->tgid,
				     bo->map.node.start, bo->map.size,
				     bo->buf->mem.page_size);
		/*
		 * No queue, no work that could use the memory: retire at
		 * once, as ascend_queue_file_defer() would, and park it in
		 * this lock section.  Unlocked peek, as there: a queue
		 * created concurrently holds no command published before
		 * this free.
		 */
		if (data_race(xa_empty(&af->queues)))
			idle = ascend_bo_idle_park_locked(bo);
	}
	mutex_unlock(&af->vm.lock);
	if (!bo)
		return -EINVAL;
	/* idle: another thread may take the BO again at once */
	if (idle)
		return 0;

	bo->retire.fn = ascend_bo_retire;
	/* May run ascend_bo_retire() at once when nothing is queued. */
	ascend_queue_file_defer(af, &bo->retire);
	return 0;
}

static inline int ascend_gem_ring_free(void *ctx, u64 va)
{
	return ascend_gem_free_va(ctx, va);
}

/*
 * Consume @af's free ring, if it has one.  Returns the allocations freed
 * (their retire may still wait for queued work).  Callers hold no vm,
 * HBM or queue lock; a caller that is not @af's owner holds the device's
 * filelist_mutex, which keeps @af (and so its ring) alive.
 */
static __always_inline unsigned int ascend_gem_drain_file(struct ascend_file *af)
{
	/* Pairs with the cmpxchg() that publishes the ring. */
	struct ascend_free_ring *ring = smp_load_acquire(&af->free_ring);

	if (!ring || ascend_free_ring_idle(ring))
		return 0;
	return ascend_free_ring_consume(ring, ascend_gem_ring_free, af);
}

unsigned int ascend_gem_drain_device(struct ascend_device *adev)
{
	struct drm_device *drm = &adev->drm;
	struct drm_file *file;
	unsigned int freed = 0;

	/*
	 * A file leaves the list before its postclose frees the ring, and
	 * joins it after open set driver_priv: every listed file is whole.
	 */
	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead)
		freed += ascend_gem_drain_file(to_ascend_file(file)) +
			 ascend_bo_idle_release(to_ascend_file(file));
	mutex_unlock(&drm->filelist_mutex);
	return freed;
}

int ascend_hbm_buf_create(struct ascend_file *af, u64 size, u32 policy,
			  bool p2p, struct ascend_hbm_buf **out)
{
	struct ascend_device *adev = af->adev;
	struct ascend_hbm_buf *buf;
	int ret;

	buf = xchg(&af->spare_buf, NULL);
	if (buf)
		memset(buf, 0, sizeof(*buf));
	else
		buf = kzalloc(sizeof(*buf), GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	kref_init(&buf->ref);
	buf->adev = adev;

	/* More than the device has is no space, whatever the share. */
	if (size > adev->hbm_size) {
		ret = -ENOSPC;
		goto err_free;
	}
	/* The user's share before the memory: the request, then the rest. */
	ret = ascend_gem_charge(af, size);
	if (ret)
		goto err_free;
	ret = ascend_hbm_alloc_flags(&adev->hbm, size, policy, p2p, &buf->mem);
	/* Never fail while some file's ring still holds freed memory. */
	if (ret == -ENOSPC && ascend_gem_drain_device(adev))
		ret = ascend_hbm_alloc_flags(&adev->hbm, size, policy, p2p,
					     &buf->mem);
	if (ret)
		goto err_uncharge;
	/* the page size rounded the allocation up */
	if (buf->mem.size > size) {
		ret = ascend_gem_charge(af, buf->mem.size - size);
		if (ret)
			goto err_free_mem;
	}
	buf->user = ascend_user_get(af->user);
	buf->charged = buf->mem.size;
	*out = buf;
	return 0;

err_free_mem:
	ascend_hbm_free(&adev->hbm, &buf->mem);
err_uncharge:
	ascend_user_uncharge_hbm(af->user, size);
err_free:
	kfree(buf);
	return ret;
}

int ascend_ioctl_bo_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_bo_create *args = data;
	bool no_handle = args->flags & DRM_ASCEND_BO_NO_HANDLE;
	struct ascend_hbm_buf *buf;
	struct ascend_bo *bo;
	u32 handle;
	u64 end;
	int ret;

	if (!args->size || args->flags & ~DRM_ASCEND_BO_FLAGS ||
	    args->policy > DRM_ASCEND_BO_HUGE1G_ONLY)
		return -EINVAL;
	/* Larger than any window could hold once rounded: no space. */
	if (check_add_overflow(args->size, (u64)ASCEND_HBM_PAGE_HUGE1G, &end))
		return -ENOSPC;
	if (!ascend_vm_has_window(&af->vm))
		return -ENXIO;
	/* Frees published on the ring come first: their memory is reused. */
	ascend_gem_drain_file(af);
	if (ascend_should_fail(adev, ASCEND_FAULT_SITE_HBM_ALLOC))
		return -ENOSPC;
	/*
	 * A handle-less BO is not touched after it went live (a free may
	 * take it at once): the answer in @args is filled in before.
	 */
	if (no_handle && ascend_bo_idle_take(af, args))
		goto out;

	ret = ascend_hbm_buf_create(af, args->size, args->policy,
				    args->flags & DRM_ASCEND_BO_P2P, &buf);
	if (ret)
		return ret;

	if (no_handle && ascend_bo_reuse(af, buf, args))
		goto out;
	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo) {
		ret = -ENOMEM;
		goto err_free_hbm;
	}
	bo->af = af;
	bo->buf = buf;
	bo->no_handle = no_handle;
	ret = ascend_gem_map(af, bo, &buf->mem);
	if (ret)
		goto err_free_bo;
	if (no_handle) {
		mutex_lock(&af->vm.lock);
		ascend_bo_go_live_locked(af, bo, args);
		mutex_unlock(&af->vm.lock);
		goto out;
	}

	args->va = bo->map.node.start;
	args->alloc_size = buf->mem.size;
	args->page_size = buf->mem.page_size;
	ret = ascend_bo_publish(file, bo, buf->mem.size, &handle);
	if (ret)
		return ret;
	args->handle = handle;
out:
	trace_ascend_bo_create(adev->index, current->tgid, args->va,
			       args->alloc_size, args->page_size);
	return 0;

err_free_bo:
	kfree(bo);
err_free_hbm:
	/* never seen by anyone: the release frees and uncharges it */
	ascend_hbm_buf_put(buf);
	return ret;
}

int ascend_ioctl_bo_free(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_bo_free *args = data;

	if (args->flags || args->pad)
		return -EINVAL;
	/* The ring first: what it holds was freed before this. */
	ascend_gem_drain_file(af);
	return ascend_gem_free_va(af, args->va);
}

int ascend_ioctl_free_ring_create(struct drm_device *drm, void *data,
				  struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_free_ring_create *args = data;
	struct ascend_free_ring *ring;
	int ret;

	if (args->flags || args->reserved)
		return -EINVAL;
	if (READ_ONCE(af->free_ring))
		return -EBUSY;

	ring = ascend_free_ring_alloc(drm, args->entries);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	ret = drm_vma_node_allow(&ring->base.vma_node, file);
	if (ret)
		goto err_put;
	/* Published once; fully ordered, so drainers see a whole ring. */
	if (cmpxchg(&af->free_ring, NULL, ring)) {
		ret = -EBUSY;
		goto err_revoke;
	}
	args->entries = ring->entries;
	args->mmap_offset = drm_vma_node_offset_addr(&ring->base.vma_node);
	args->mmap_size = ascend_free_ring_size(ring);
	return 0;

err_revoke:
	drm_vma_node_revoke(&ring->base.vma_node, file);
err_put:
	ascend_free_ring_put(ring);
	return ret;
}

void ascend_gem_free_ring_fini(struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct ascend_free_ring *ring = af->free_ring;

	if (!ring)
		return;
	/* What was published before the close is freed like the rest. */
	ascend_gem_drain_file(af);
	af->free_ring = NULL;
	drm_vma_node_revoke(&ring->base.vma_node, file);
	ascend_free_ring_put(ring);
}

void ascend_gem_file_fini(struct ascend_file *af)
{
	struct drm_mm_node *node, *next;
	struct ascend_vm_mapping *map;
	struct ascend_bo *bo;
	LIST_HEAD(dead);

	/* Collect under the lock, retire (which takes it) after. */
	mutex_lock(&af->vm.lock);
	if (af->vm.size) {
		drm_mm_for_each_node_safe(node, next, &af->vm.mm) {
			/* the window holds BOs and reservations */
			map = container_of(node, struct ascend_vm_mapping, node);
			if (map->kind != ASCEND_VM_BO)
				continue;
			bo = container_of(map, struct ascend_bo, map);
			if (!bo->no_handle || !bo->live)
				continue;
			bo->live = false;
			list_add_tail(&bo->retire.link, &dead);
		}
	}
	mutex_unlock(&af->vm.lock);

	while ((bo = list_first_entry_or_null(&dead, struct ascend_bo,
					      retire.link))) {
		list_del(&bo->retire.link);
		ascend_bo_retire(&bo->retire);
	}
	ascend_gem_drop_parked(af);
	kfree(af->spare_buf);
	af->spare_buf = NULL;
}

int ascend_gem_find_buf(struct ascend_file *af, u64 va, u64 size,
			struct ascend_hbm_buf **buf, u64 *offset)
{
	struct ascend_vm_mapping *map;
	struct ascend_bo *bo;
	u64 off;
	int ret = 0;

	mutex_lock(&af->vm.lock);
	map = ascend_vm_lookup_locked(&af->vm, va, size, &off);
	/* managed memory moves: no buffer to hand out */
	if (IS_ERR(map) || map->as != ASCEND_AS_HBM ||
	    map->kind == ASCEND_VM_MANAGED) {
		ret = -EINVAL;
		goto out;
	}
	/* a mapping in a reservation: its buffer, wherever it came from */
	if (map->kind == ASCEND_VM_PART) {
		*buf = ascend_vmm_part_buf(map, offset);
		ascend_hbm_buf_get(*buf);
		*offset += off;
		goto out;
	}
	/* Every other HBM mapping is a BO's; a freed one waits for its retire. */
	bo = container_of(map, struct ascend_bo, map);
	if (!ascend_bo_live(bo)) {
		ret = -EINVAL;
		goto out;
	}
	ascend_hbm_buf_get(bo->buf);
	*buf = bo->buf;
	*offset = bo->offset + off;
out:
	mutex_unlock(&af->vm.lock);
	return ret;
}

int ascend_gem_import(struct drm_file *file, struct ascend_hbm_buf *buf,
		      u64 offset, u64 size, u64 *va, u32 *handle)
{
	struct ascend_file *af = to_ascend_file(file);
	struct ascend_hbm_alloc part = {};
	struct ascend_bo *bo;
	int n, ret;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return -ENOMEM;

	n = ascend_hbm_sub_ranges(&buf->mem, offset, size, &bo->sub_ranges);
	if (n < 0) {
		ret = n;
		goto err_free;
	}
	/* Aligned like the exporter's VA, as far as the page size goes. */
	part.ranges = bo->sub_ranges;
	part.nr_ranges = n;
	part.size = size;
	part.page_size = buf->mem.page_size;
	if (offset)
		part.page_size = min_t(u64, part.page_size,
				       1ULL << __ffs64(offset));
	part.page_size = max_t(u64, part.page_size, ASCEND_HBM_PAGE_NORMAL);

	/*
	 * Complete before the mapping is visible: the debugfs map and every
	 * other walker of the address space read @buf of what it lists.
	 */
	bo->af = af;
	bo->buf = buf;
	bo->offset = offset;
	bo->imported = true;
	ret = ascend_gem_map(af, bo, &part);
	if (ret)
		goto err_free;
	/* tests: the mapping is visible, the handle not there yet */
	ascend_fault_stall_import(&af->adev->fault);

	ascend_hbm_buf_get(buf);
	*va = bo->map.node.start;
	return ascend_bo_publish(file, bo, size, handle);

err_free:
	kfree(bo->sub_ranges);
	kfree(bo);
	return ret;
}
