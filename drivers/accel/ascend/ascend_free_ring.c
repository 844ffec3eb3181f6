// SPDX-License-Identifier: GPL-2.0-only
/*
 * The free ring's area and its consumer (see ascend_free_ring.h and
 * &struct drm_ascend_free_ring).
 *
 * The area is user-writable, so the consumer trusts nothing in it: the
 * number of slots and the head are the kernel's own copies (the ones in the
 * area are mirrors it never reads back), the tail is read once per drain
 * and checked against them, and each VA is read once and then only looked
 * up (ascend_gem.c), never dereferenced.  A drain consumes at most
 * @entries entries, so a hostile tail cannot make it loop.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_vma_manager.h>

#include "ascend_drv.h"
#include "ascend_free_ring.h"

static_assert(sizeof(struct drm_ascend_free_ring) ==
	      DRM_ASCEND_FREE_RING_VA_OFFSET);
static_assert((DRM_ASCEND_FREE_RING_DEFAULT_ENTRIES &
	       (DRM_ASCEND_FREE_RING_DEFAULT_ENTRIES - 1)) == 0);
static_assert((DRM_ASCEND_FREE_RING_MAX_ENTRIES &
	       (DRM_ASCEND_FREE_RING_MAX_ENTRIES - 1)) == 0);

static struct ascend_free_ring *to_ring(struct drm_gem_object *obj)
{
	return container_of(obj, struct ascend_free_ring, base);
}

static void ascend_free_ring_obj_free(struct drm_gem_object *obj)
{
	struct ascend_free_ring *ring = to_ring(obj);

	drm_gem_object_release(obj);
	mutex_destroy(&ring->lock);
	ascend_umem_free(&ring->mem);
	kfree(ring);
}

static int ascend_free_ring_obj_mmap(struct drm_gem_object *obj,
				     struct vm_area_struct *vma)
{
	return ascend_umem_mmap(&to_ring(obj)->mem, vma);
}

static vm_fault_t ascend_free_ring_fault(struct vm_fault *vmf)
{
	struct ascend_free_ring *ring = to_ring(vmf->vma->vm_private_data);

	return ascend_umem_fault(&ring->mem, vmf);
}

static const struct vm_operations_struct ascend_free_ring_vm_ops = {
	.fault = ascend_free_ring_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs ascend_free_ring_funcs = {
	.free = ascend_free_ring_obj_free,
	.mmap = ascend_free_ring_obj_mmap,
	.vm_ops = &ascend_free_ring_vm_ops,
};

size_t ascend_free_ring_size(const struct ascend_free_ring *ring)
{
	return PAGE_ALIGN(DRM_ASCEND_FREE_RING_VA_OFFSET +
			  (size_t)ring->entries * sizeof(u64));
}

struct ascend_free_ring *ascend_free_ring_alloc(struct drm_device *drm,
						u32 entries)
{
	struct ascend_free_ring *ring;
	int ret;

	if (!entries)
		entries = DRM_ASCEND_FREE_RING_DEFAULT_ENTRIES;
	if (entries > DRM_ASCEND_FREE_RING_MAX_ENTRIES ||
	    !is_power_of_2(entries))
		return ERR_PTR(-EINVAL);

	ring = kzalloc(sizeof(*ring), GFP_KERNEL_ACCOUNT);
	if (!ring)
		return ERR_PTR(-ENOMEM);
	ring->entries = entries;
	mutex_init(&ring->lock);
	if (ascend_umem_alloc(&ring->mem, ascend_free_ring_size(ring))) {
		mutex_destroy(&ring->lock);
		kfree(ring);
		return ERR_PTR(-ENOMEM);
	}
	ring->shared = ring->mem.vaddr;
	ring->va = (u64 *)((u8 *)ring->shared + DRM_ASCEND_FREE_RING_VA_OFFSET);
	ring->shared->entries = entries;

	/* From here on the object's .free undoes everything. */
	ring->base.funcs = &ascend_free_ring_funcs;
	drm_gem_private_object_init(drm, &ring->base,
				    ascend_free_ring_size(ring));
	ret = drm_gem_create_mmap_offset(&ring->base);
	if (ret) {
		drm_gem_object_put(&ring->base);
		return ERR_PTR(ret);
	}
	return ring;
}

void ascend_free_ring_put(struct ascend_free_ring *ring)
{
	drm_gem_object_put(&ring->base);
}
