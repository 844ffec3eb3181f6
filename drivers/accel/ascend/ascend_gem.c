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
 * Sharing: the HBM is a refcounted &struct ascend_hbm_buf.  Each file that
 * maps it (the creator, each importer) has its own BO with its own mapping
 * and its own deferred retire on its own queues; IPC exports hold the
 * buffer too.  The HBM is discarded and freed only when the last of them
 * is gone, so the creator's GEM_CLOSE while importers still use the memory
 * only removes the creator's mapping.  The creator's file is charged the
 * whole allocation in hbm_used until its own BO retires; importers are not
 * charged (the device-wide HBM counters count the allocation once).
 *
 * The device side translates and accesses memory under vm->lock, so an
 * unmap also waits for a synchronous copy or fill in flight.
 */
#include <linux/dma-buf.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_gem.h"
#include "ascend_hw.h"
#include "ascend_trace.h"

static void ascend_hbm_buf_release(struct kref *ref)
{
	struct ascend_hbm_buf *buf = container_of(ref, struct ascend_hbm_buf,
						  ref);
	struct ascend_device *adev = buf->adev;
	unsigned int i;

	/* Drop the contents, then free: the next owner reads zeroes. */
	if (adev->hw->hbm_discard)
		for (i = 0; i < buf->mem.nr_ranges; i++)
			adev->hw->hbm_discard(adev, buf->mem.ranges[i].addr,
					      buf->mem.ranges[i].size);
	ascend_hbm_free(&adev->hbm, &buf->mem);
	kfree(buf);
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
	r = kcalloc(n, sizeof(*r), GFP_KERNEL);
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

/* The retire callback: nothing of this file can reach the memory any more. */
static void ascend_bo_retire(struct ascend_retire *r)
{
	struct ascend_bo *bo = container_of(r, struct ascend_bo, retire);
	struct ascend_file *af = bo->af;

	ascend_vm_unmap(&af->vm, &bo->map);
	if (!bo->imported)
		atomic64_sub(bo->buf->mem.size, &af->hbm_used);
	ascend_hbm_buf_put(bo->buf);
	kfree(bo->sub_ranges);
	kfree(bo);
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

int ascend_ioctl_bo_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_bo_create *args = data;
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

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!bo || !buf) {
		ret = -ENOMEM;
		goto err_free;
	}
	bo->af = af;
	bo->buf = buf;
	kref_init(&buf->ref);
	buf->adev = adev;

	if (ascend_should_fail(adev, ASCEND_FAULT_SITE_HBM_ALLOC))
		ret = -ENOSPC;
	else
		ret = ascend_hbm_alloc_flags(&adev->hbm, args->size,
					     args->policy, args->flags,
					     &buf->mem);
	if (ret)
		goto err_free;

	ret = ascend_vm_map(&af->vm, &bo->map, &buf->mem);
	if (ret)
		goto err_free_hbm;

	args->va = bo->map.node.start;
	args->alloc_size = buf->mem.size;
	args->page_size = buf->mem.page_size;

	ret = ascend_bo_publish(file, bo, buf->mem.size, &handle);
	if (ret)
		return ret;
	args->handle = handle;
	trace_ascend_bo_create(adev->index, current->tgid, args->va,
			       args->alloc_size, args->page_size);
	return 0;

err_free_hbm:
	ascend_hbm_free(&adev->hbm, &buf->mem);
err_free:
	kfree(buf);
	kfree(bo);
	return ret;
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
	if (IS_ERR(map) || map->as != ASCEND_AS_HBM) {
		ret = -EINVAL;
		goto out;
	}
	/* Every HBM mapping is a BO's; a freed one waits for its retire. */
	bo = container_of(map, struct ascend_bo, map);
	if (!kref_read(&bo->base.refcount)) {
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

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
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

	ret = ascend_vm_map(&af->vm, &bo->map, &part);
	if (ret)
		goto err_free;

	bo->af = af;
	bo->buf = buf;
	bo->offset = offset;
	bo->imported = true;
	ascend_hbm_buf_get(buf);
	*va = bo->map.node.start;
	return ascend_bo_publish(file, bo, size, handle);

err_free:
	kfree(bo->sub_ranges);
	kfree(bo);
	return ret;
}
