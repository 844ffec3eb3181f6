/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host memory the device uses through its MMU: pages the driver allocates
 * (DRM_IOCTL_ASCEND_HOST_ALLOC, aclrtMallocHost) and user memory it pins
 * long-term (DRM_IOCTL_ASCEND_HOST_REGISTER, aclrtHostRegister).  Both are
 * GEM objects of one file, charged to the process's RLIMIT_MEMLOCK and
 * mapped in the file's device MMU at their host address.
 */
#ifndef __ASCEND_HOST_H__
#define __ASCEND_HOST_H__

#include <drm/drm_gem.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/scatterlist.h>
#include <linux/workqueue.h>

#include "ascend_hbm.h"
#include "ascend_queue.h"
#include "ascend_vm.h"

struct ascend_device;
struct ascend_file;

/**
 * struct ascend_host_bo - host memory mapped for the device
 * @base: the GEM object
 * @af: the file that created it, the only one allowed a handle
 * @mm: the mm charged for the pages (mmgrab'd until the charge is gone)
 * @users: the GEM object's retire and, for HOST_ALLOC, the device mapping
 *	made by mmap(); the last one releases pages, charge and memory
 * @pages: the pages
 * @npages: entries in @pages that hold a page (pinned or allocated)
 * @size: bytes, @npages whole pages once set up
 * @user_pages: HOST_REGISTER: @pages are pinned user pages; otherwise
 *	pages the driver allocated
 * @readonly: the device may only read
 * @charged: pages charged to @mm's locked_vm (and pinned_vm when
 *	@user_pages)
 * @sgt: the pages as an sg table, DMA-mapped while @dma_mapped
 * @dma_mapped: @sgt is allocated and DMA-mapped
 * @ranges: bus-address ranges of @sgt for the device MMU
 * @map: the mapping in @af's device MMU at the host address
 * @retire: the GEM object is gone: unmap and drop a user once queued
 *	commands completed
 * @unmap_retire: HOST_ALLOC: the last vma is gone: likewise
 * @mmap_mutex: protects @mmapped
 * @mmapped: HOST_ALLOC: mmap() happened (only one is allowed)
 * @vmas: HOST_ALLOC: vmas that map the object (vma split is refused, a
 *	refused mremap briefly adds one)
 * @uncharge_work: gives the memlock charge back when @mm's mmap_lock was
 *	held at release (munmap, exit), then frees the object
 * @dev_link: in the device's host_bos while @dma_mapped (host_lock)
 */
struct ascend_host_bo {
	struct drm_gem_object base;
	struct ascend_file *af;
	struct mm_struct *mm;
	refcount_t users;
	struct page **pages;
	unsigned long npages;
	u64 size;
	bool user_pages;
	bool readonly;
	bool charged;
	struct sg_table sgt;
	bool dma_mapped;
	struct ascend_hbm_range *ranges;
	struct ascend_vm_mapping map;
	struct ascend_retire retire;
	struct ascend_retire unmap_retire;
	struct mutex mmap_mutex;	/* protects mmapped */
	bool mmapped;
	atomic_t vmas;
	struct work_struct uncharge_work;
	struct list_head dev_link;
};

static inline struct ascend_host_bo *to_ascend_host_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct ascend_host_bo, base);
}

/* Device-level state (the release workqueue): from device creation. */
int ascend_host_init(struct ascend_device *adev);

/*
 * Surprise removal, once the backend is stopped: unmap every host object
 * from the device now (the DMA-mapping API wants no mapping left on a
 * device its driver let go); they are unpinned at their own release.
 */
void ascend_host_device_unmap(struct ascend_device *adev);

/*
 * The DMA-mapped segments of @sgt as device MMU ranges (offset, bus
 * address, size), adjacent ones merged, in an array it allocates (kvfree()
 * it).  Returns the number of ranges or -ENOMEM.
 */
int ascend_host_sgt_ranges(struct sg_table *sgt,
			   struct ascend_hbm_range **ranges);

/* Host object owning the host mapping @map (debugfs). */
static inline struct ascend_host_bo *
ascend_host_bo_of_map(struct ascend_vm_mapping *map)
{
	return container_of(map, struct ascend_host_bo, map);
}

#endif /* __ASCEND_HOST_H__ */
