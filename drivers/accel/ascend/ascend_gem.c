// SPDX-License-Identifier: GPL-2.0-only
/*
 * HBM buffer objects and DRM_IOCTL_ASCEND_BO_CREATE.
 *
 * Lifetime: freeing a BO (its last handle closed, or the file closed) must
 * not pull the memory from under commands the file's queues still run or
 * will run: the GEM object goes at once, but the unmap and the HBM release
 * are deferred with ascend_queue_file_defer() until every command the file
 * had published by then has completed (or its queue faulted or stopped).
 * Until then the VA stays mapped, so it cannot be handed out again, and
 * the bytes still count in hbm_used (device and file): memory is "used"
 * until the device can no longer touch it.  drm_file_free() drops the
 * handles before postclose, which stops the queues and runs whatever is
 * still pending before the address space goes.
 *
 * The device side translates and accesses memory under vm->lock, so the
 * unmap also waits for a synchronous copy or fill in flight.
 */
#include <linux/dma-buf.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_gem.h"
#include "ascend_hw.h"

/* The retire callback: nothing can reach the memory any more. */
static void ascend_bo_retire(struct ascend_retire *r)
{
	struct ascend_bo *bo = container_of(r, struct ascend_bo, retire);
	struct ascend_file *af = bo->af;
	struct ascend_device *adev = af->adev;
	unsigned int i;

	ascend_vm_unmap(&af->vm, &bo->map);

	/* Drop the contents, then free: the next owner reads zeroes. */
	if (adev->hw->hbm_discard)
		for (i = 0; i < bo->mem.nr_ranges; i++)
			adev->hw->hbm_discard(adev, bo->mem.ranges[i].addr,
					      bo->mem.ranges[i].size);
	atomic64_sub(bo->mem.size, &af->hbm_used);
	ascend_hbm_free(&adev->hbm, &bo->mem);
	kfree(bo);
}

static void ascend_bo_free(struct drm_gem_object *obj)
{
	struct ascend_bo *bo = to_ascend_bo(obj);

	drm_gem_object_release(obj);
	bo->retire.fn = ascend_bo_retire;
	/* May run ascend_bo_retire() at once when nothing is queued. */
	ascend_queue_file_defer(bo->af, &bo->retire);
}

/* A BO lives in one file's address space: no handle in any other file. */
static int ascend_bo_open(struct drm_gem_object *obj, struct drm_file *file)
{
	return to_ascend_file(file) == to_ascend_bo(obj)->af ? 0 : -EPERM;
}

/* Device memory is not shareable (yet): PRIME export is refused. */
static struct dma_buf *ascend_bo_export(struct drm_gem_object *obj, int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct drm_gem_object_funcs ascend_bo_funcs = {
	.free = ascend_bo_free,
	.open = ascend_bo_open,
	.export = ascend_bo_export,
};

int ascend_ioctl_bo_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_bo_create *args = data;
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
	if (!bo)
		return -ENOMEM;
	bo->af = af;

	if (ascend_should_fail(adev, ASCEND_FAULT_SITE_HBM_ALLOC))
		ret = -ENOSPC;
	else
		ret = ascend_hbm_alloc_flags(&adev->hbm, args->size,
					     args->policy, args->flags,
					     &bo->mem);
	if (ret)
		goto err_free_bo;

	ret = ascend_vm_map(&af->vm, &bo->map, &bo->mem);
	if (ret)
		goto err_free_hbm;

	/* From here on the object's .free undoes everything above. */
	bo->base.funcs = &ascend_bo_funcs;
	drm_gem_private_object_init(drm, &bo->base, bo->mem.size);
	atomic64_add(bo->mem.size, &af->hbm_used);

	args->va = bo->map.node.start;
	args->alloc_size = bo->mem.size;
	args->page_size = bo->mem.page_size;

	/* The handle is published last: user space may close it at once. */
	ret = drm_gem_handle_create(file, &bo->base, &handle);
	drm_gem_object_put(&bo->base);
	if (ret)
		return ret;

	args->handle = handle;
	return 0;

err_free_hbm:
	ascend_hbm_free(&adev->hbm, &bo->mem);
err_free_bo:
	kfree(bo);
	return ret;
}
