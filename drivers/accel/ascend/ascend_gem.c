// SPDX-License-Identifier: GPL-2.0-only
/*
 * HBM buffer objects and DRM_IOCTL_ASCEND_BO_CREATE.
 *
 * drm_file_free() drops the GEM handles before postclose stops the file's
 * queues, so a BO can be freed while a queue still runs commands against
 * it.  That is safe because the device side translates and accesses
 * memory under vm->lock: the unmap below waits for accesses in flight, and
 * later commands naming the freed VA fault.
 */
#include <linux/dma-buf.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_gem.h"
#include "ascend_hw.h"

static void ascend_bo_free(struct drm_gem_object *obj)
{
	struct ascend_bo *bo = to_ascend_bo(obj);
	struct ascend_device *adev = to_ascend_device(obj->dev);
	unsigned int i;

	ascend_vm_unmap(&bo->af->vm, &bo->map);

	/* Nobody can reach the memory now: drop its contents, then free it. */
	if (adev->hw->hbm_discard)
		for (i = 0; i < bo->mem.nr_ranges; i++)
			adev->hw->hbm_discard(adev, bo->mem.ranges[i].addr,
					      bo->mem.ranges[i].size);
	atomic64_sub(bo->mem.size, &bo->af->hbm_used);
	ascend_hbm_free(&adev->hbm, &bo->mem);

	drm_gem_object_release(obj);
	kfree(bo);
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

	ret = ascend_hbm_alloc(&adev->hbm, args->size, args->policy, &bo->mem);
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
