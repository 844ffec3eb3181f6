// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host memory for the device: DRM_IOCTL_ASCEND_HOST_ALLOC and
 * DRM_IOCTL_ASCEND_HOST_REGISTER.
 *
 * HOST_REGISTER pins user pages long-term (FOLL_LONGTERM, FOLL_WRITE
 * unless read-only), HOST_ALLOC allocates zeroed pages; either way the
 * pages are charged to the caller's RLIMIT_MEMLOCK (account_locked_vm():
 * VmLck; registered pages show in VmPin too), put in an sg table,
 * DMA-mapped for the device and mapped in the file's device MMU at their
 * host address, so a host pointer is also a device pointer.  HOST_ALLOC
 * memory gets that address from its one mmap(): the device mapping is made
 * there, and removed when the vma goes.
 *
 * Lifetime: the GEM object's free defers (ascend_queue_file_defer()) the
 * device unmap until the commands queued by then have completed, like a
 * buffer object; so does the last munmap of HOST_ALLOC memory.  The pages,
 * the DMA mapping and the charge go with the last of those (@users), so
 * they are released exactly once.  The charge belongs to the mm that made
 * it (mmgrab'd), which may be exiting: giving it back takes that mm's
 * mmap_lock for writing, which munmap and exit already hold when they drop
 * the last vma, so then it is given back from a work item.
 *
 * Lock order: a process's mmap_lock, then vm->lock (munmap and mmap of
 * HOST_ALLOC memory take vm->lock under it).  Nothing here pins or charges
 * with vm->lock held.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_vma_manager.h>

#include "ascend_drv.h"
#include "ascend_host.h"
#include "ascend_hw.h"
#include "ascend_trace.h"

static void ascend_host_wq_fini(struct drm_device *drm, void *arg)
{
	destroy_workqueue(arg);
}

int ascend_host_init(struct ascend_device *adev)
{
	int ret;

	INIT_LIST_HEAD(&adev->host_bos);
	ret = drmm_mutex_init(&adev->drm, &adev->host_lock);
	if (ret)
		return ret;
	adev->host_wq = alloc_workqueue("ascend%u-host", WQ_UNBOUND, 0,
					adev->index);
	if (!adev->host_wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(&adev->drm, ascend_host_wq_fini,
					adev->host_wq);
}

/* Undo ascend_host_map_dma(); @adev->host_lock held. */
static void ascend_host_unmap_dma_locked(struct ascend_device *adev,
					 struct ascend_host_bo *bo)
{
	enum dma_data_direction dir = bo->readonly ? DMA_TO_DEVICE :
				      DMA_BIDIRECTIONAL;

	lockdep_assert_held(&adev->host_lock);
	if (!bo->dma_mapped)
		return;
	dma_sync_sgtable_for_cpu(adev->drm.dev, &bo->sgt, dir);
	dma_unmap_sgtable(adev->drm.dev, &bo->sgt, dir, DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(&bo->sgt);
	bo->dma_mapped = false;
	list_del_init(&bo->dev_link);
}

void ascend_host_device_unmap(struct ascend_device *adev)
{
	struct ascend_host_bo *bo, *tmp;

	mutex_lock(&adev->host_lock);
	list_for_each_entry_safe(bo, tmp, &adev->host_bos, dev_link)
		ascend_host_unmap_dma_locked(adev, bo);
	mutex_unlock(&adev->host_lock);
}

int ascend_host_sgt_ranges(struct sg_table *sgt,
			   struct ascend_hbm_range **ranges)
{
	struct ascend_hbm_range *r;
	struct scatterlist *sg;
	unsigned int i, n = 0;
	u64 offset = 0;

	r = kvmalloc_array(max(sgt->nents, 1U), sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		u64 addr = sg_dma_address(sg), len = sg_dma_len(sg);

		if (!len)
			continue;
		if (n && r[n - 1].addr + r[n - 1].size == addr) {
			r[n - 1].size += len;
		} else {
			r[n].offset = offset;
			r[n].addr = addr;
			r[n].size = len;
			n++;
		}
		offset += len;
	}
	*ranges = r;
	return n;
}

/* Give the memlock charge back, with @mm's mmap_lock held for writing. */
static void ascend_host_uncharge_locked(struct ascend_host_bo *bo)
{
	__account_locked_vm(bo->mm, bo->npages, false, current, true);
	if (bo->user_pages)
		atomic64_sub(bo->npages, &bo->mm->pinned_vm);
}

static void ascend_host_free_bo(struct ascend_host_bo *bo)
{
	mmdrop(bo->mm);
	mutex_destroy(&bo->mmap_mutex);
	kfree(bo);
}

static void ascend_host_uncharge_work(struct work_struct *work)
{
	struct ascend_host_bo *bo = container_of(work, struct ascend_host_bo,
						 uncharge_work);

	mmap_write_lock(bo->mm);
	ascend_host_uncharge_locked(bo);
	mmap_write_unlock(bo->mm);
	ascend_host_free_bo(bo);
}

/*
 * Release everything @bo holds, whatever stage its setup reached: nothing
 * can reach the pages any more.
 */
static void ascend_host_release(struct ascend_host_bo *bo)
{
	struct ascend_device *adev = bo->af->adev;
	unsigned long i;

	/* unless the device's removal did it already */
	mutex_lock(&adev->host_lock);
	ascend_host_unmap_dma_locked(adev, bo);
	mutex_unlock(&adev->host_lock);
	kvfree(bo->ranges);

	if (bo->user_pages) {
		if (bo->npages)
			trace_ascend_unpin(adev->index, current->tgid,
					   bo->map.host.start, bo->npages, true);
		/* The device may have written: dirty them (not if read-only). */
		unpin_user_pages_dirty_lock(bo->pages, bo->npages,
					    !bo->readonly);
	} else {
		for (i = 0; i < bo->npages; i++)
			put_page(bo->pages[i]);
	}
	kvfree(bo->pages);

	if (!bo->charged) {
		ascend_host_free_bo(bo);
		return;
	}
	/*
	 * munmap and exit drop the last vma with the mmap_lock held: then (or
	 * if anyone holds it now) the uncharge must not wait for it here.
	 */
	if (!rwsem_is_locked(&bo->mm->mmap_lock)) {
		mmap_write_lock(bo->mm);
		ascend_host_uncharge_locked(bo);
		mmap_write_unlock(bo->mm);
		ascend_host_free_bo(bo);
		return;
	}
	INIT_WORK(&bo->uncharge_work, ascend_host_uncharge_work);
	queue_work(adev->host_wq, &bo->uncharge_work);
}

static void ascend_host_put(struct ascend_host_bo *bo)
{
	if (refcount_dec_and_test(&bo->users))
		ascend_host_release(bo);
}

/* Retire of the GEM object: queued commands that could use it are done. */
static void ascend_host_retire(struct ascend_retire *r)
{
	struct ascend_host_bo *bo = container_of(r, struct ascend_host_bo,
						 retire);

	ascend_vm_unmap_host(&bo->af->vm, &bo->map);
	atomic64_sub(bo->size, &bo->af->host_pinned);
	ascend_host_put(bo);
}

/* Retire of HOST_ALLOC's device mapping once its last vma went. */
static void ascend_host_unmap_retire(struct ascend_retire *r)
{
	struct ascend_host_bo *bo = container_of(r, struct ascend_host_bo,
						 unmap_retire);

	ascend_vm_unmap_host(&bo->af->vm, &bo->map);
	ascend_host_put(bo);
}

static void ascend_host_bo_free(struct drm_gem_object *obj)
{
	struct ascend_host_bo *bo = to_ascend_host_bo(obj);

	drm_gem_object_release(obj);
	trace_ascend_host_unregister(bo->af->adev->index, current->tgid,
				     bo->map.host.start, bo->size,
				     bo->user_pages, bo->readonly);
	bo->retire.fn = ascend_host_retire;
	/* the address is the process's again; the pages wait for the retire */
	ascend_vm_orphan_host(&bo->af->vm, &bo->map);
	/* May run ascend_host_retire() at once when nothing is queued. */
	ascend_queue_file_defer(bo->af, &bo->retire);
}

/* Host memory lives in one file's address space: no handle elsewhere. */
static int ascend_host_bo_open(struct drm_gem_object *obj,
			       struct drm_file *file)
{
	return to_ascend_file(file) == to_ascend_host_bo(obj)->af ? 0 : -EPERM;
}

static struct dma_buf *ascend_host_bo_export(struct drm_gem_object *obj,
					     int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static void ascend_host_vm_open(struct vm_area_struct *vma)
{
	struct ascend_host_bo *bo = to_ascend_host_bo(vma->vm_private_data);

	atomic_inc(&bo->vmas);
	drm_gem_vm_open(vma);
}

static void ascend_host_vm_close(struct vm_area_struct *vma)
{
	struct ascend_host_bo *bo = to_ascend_host_bo(vma->vm_private_data);

	if (atomic_dec_and_test(&bo->vmas)) {
		/* The object stays alive: the vma holds a GEM reference. */
		ascend_vm_orphan_host(&bo->af->vm, &bo->map);
		bo->unmap_retire.fn = ascend_host_unmap_retire;
		ascend_queue_file_defer(bo->af, &bo->unmap_retire);
	}
	drm_gem_vm_close(vma);
}

/* The device mapping is at the vma's address: it cannot split or move. */
static int ascend_host_vm_may_split(struct vm_area_struct *vma,
				    unsigned long addr)
{
	return -EINVAL;
}

static int ascend_host_vm_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

/*
 * The pages are inserted at mmap; an unplug of the device zaps them
 * (drm_dev_unplug()).  They are host memory the object keeps while it is
 * mapped, so a later touch maps the same page again.
 */
static vm_fault_t ascend_host_vm_fault(struct vm_fault *vmf)
{
	struct ascend_host_bo *bo = to_ascend_host_bo(vmf->vma->vm_private_data);
	unsigned long i = (vmf->address - vmf->vma->vm_start) >> PAGE_SHIFT;

	if (i >= bo->npages)
		return VM_FAULT_SIGBUS;
	return vmf_insert_mixed(vmf->vma, vmf->address & PAGE_MASK,
				page_to_pfn_t(bo->pages[i]));
}

static const struct vm_operations_struct ascend_host_vm_ops = {
	.fault = ascend_host_vm_fault,
	.open = ascend_host_vm_open,
	.close = ascend_host_vm_close,
	.may_split = ascend_host_vm_may_split,
	.mremap = ascend_host_vm_mremap,
};

/*
 * mmap() of HOST_ALLOC memory (the mmap_lock is held for writing): the
 * whole object, shared, once; the device mapping goes at vma->vm_start.
 */
static int ascend_host_bo_mmap(struct drm_gem_object *obj,
			       struct vm_area_struct *vma)
{
	struct ascend_host_bo *bo = to_ascend_host_bo(obj);
	unsigned long num;
	int ret;

	if (bo->user_pages)
		return -EINVAL;
	if (vma->vm_end - vma->vm_start != bo->size ||
	    vma->vm_pgoff != drm_vma_node_start(&obj->vma_node))
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;

	mutex_lock(&bo->mmap_mutex);
	if (bo->mmapped) {
		ret = -EBUSY;
		goto out_unlock;
	}

	refcount_inc(&bo->users);
	ret = ascend_vm_map_host(&bo->af->vm, &bo->map, vma->vm_start,
				 bo->size);
	if (ret)
		goto err_put;

	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	num = bo->npages;
	ret = vm_insert_pages(vma, vma->vm_start, bo->pages, &num);
	if (ret)
		goto err_unmap;

	atomic_set(&bo->vmas, 1);
	bo->mmapped = true;
	mutex_unlock(&bo->mmap_mutex);
	return 0;

err_unmap:
	/* The caller unmaps what was inserted; the vma is never opened. */
	ascend_vm_unmap_host(&bo->af->vm, &bo->map);
err_put:
	refcount_dec(&bo->users);
out_unlock:
	mutex_unlock(&bo->mmap_mutex);
	return ret;
}

static const struct drm_gem_object_funcs ascend_host_bo_funcs = {
	.free = ascend_host_bo_free,
	.open = ascend_host_bo_open,
	.export = ascend_host_bo_export,
	.mmap = ascend_host_bo_mmap,
	.vm_ops = &ascend_host_vm_ops,
};

/*
 * A host object of @size bytes without its page array: that is user-sized,
 * so it is allocated only once the pages are charged (ascend_host_pages()).
 */
static struct ascend_host_bo *ascend_host_bo_new(struct ascend_file *af,
						 u64 size)
{
	struct ascend_host_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return NULL;
	bo->af = af;
	bo->size = size;
	bo->mm = current->mm;
	mmgrab(bo->mm);
	refcount_set(&bo->users, 1);
	mutex_init(&bo->mmap_mutex);
	INIT_LIST_HEAD(&bo->dev_link);
	RB_CLEAR_NODE(&bo->map.host.rb);
	return bo;
}

/*
 * The page array of @bo for @npages pages, after the charge: a request the
 * caller's RLIMIT_MEMLOCK allows costs at most that many pointers (a huge
 * one fails with -ENOMEM, not a WARN).
 */
static int ascend_host_pages(struct ascend_host_bo *bo, unsigned long npages)
{
	bo->pages = kvmalloc_array(npages, sizeof(*bo->pages),
				   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	return bo->pages ? 0 : -ENOMEM;
}

/* Charge @npages to the caller's RLIMIT_MEMLOCK (VmLck; VmPin too if pinned). */
static int ascend_host_charge(struct ascend_host_bo *bo, unsigned long npages,
			      bool pinned)
{
	int ret;

	ret = account_locked_vm(bo->mm, npages, true);
	if (ret == -ENOMEM) {
		/*
		 * Memory released just before may still have its uncharge
		 * queued (ascend_host_release() defers it while anyone holds
		 * the mmap_lock): let those finish before refusing.
		 */
		flush_workqueue(bo->af->adev->host_wq);
		ret = account_locked_vm(bo->mm, npages, true);
	}
	if (ret)
		return ret;
	if (pinned)
		atomic64_add(npages, &bo->mm->pinned_vm);
	return 0;
}

/* Give back a charge ascend_host_charge() made and nothing took over. */
static void ascend_host_uncharge(struct ascend_host_bo *bo,
				 unsigned long npages, bool pinned)
{
	account_locked_vm(bo->mm, npages, false);
	if (pinned)
		atomic64_sub(npages, &bo->mm->pinned_vm);
}

/* sg table, DMA mapping and device MMU ranges of the pages. */
static int ascend_host_map_dma(struct ascend_host_bo *bo)
{
	struct device *dev = bo->af->adev->drm.dev;
	int ret;

	ret = sg_alloc_table_from_pages(&bo->sgt, bo->pages, bo->npages, 0,
					bo->size, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	if (ascend_should_fail(bo->af->adev, ASCEND_FAULT_SITE_DMA_MAP))
		ret = -ENOMEM;
	else
		/* pages may also be in other devices' or copies' mappings */
		ret = dma_map_sgtable(dev, &bo->sgt, bo->readonly ?
				      DMA_TO_DEVICE : DMA_BIDIRECTIONAL,
				      DMA_ATTR_SKIP_CPU_SYNC);
	if (ret) {
		sg_free_table(&bo->sgt);
		return ret;
	}
	dma_sync_sgtable_for_device(dev, &bo->sgt, bo->readonly ?
				    DMA_TO_DEVICE : DMA_BIDIRECTIONAL);
	mutex_lock(&bo->af->adev->host_lock);
	bo->dma_mapped = true;
	list_add_tail(&bo->dev_link, &bo->af->adev->host_bos);
	mutex_unlock(&bo->af->adev->host_lock);

	ret = ascend_host_sgt_ranges(&bo->sgt, &bo->ranges);
	if (ret < 0)
		return ret;
	bo->map.ranges = bo->ranges;
	bo->map.nr_ranges = ret;
	bo->map.readonly = bo->readonly;
	return 0;
}

/*
 * Publish @bo as a GEM object and a handle of @file; with @mmap_offset,
 * give it an mmap offset.  The handle comes last: user space may close it
 * at once.
 */
static int ascend_host_publish(struct drm_device *drm, struct drm_file *file,
			       struct ascend_host_bo *bo, u32 *handle,
			       u64 *mmap_offset)
{
	int ret = 0;

	bo->base.funcs = &ascend_host_bo_funcs;
	drm_gem_private_object_init(drm, &bo->base, bo->size);
	atomic64_add(bo->size, &bo->af->host_pinned);
	/* From here on the object's .free undoes everything. */
	if (mmap_offset) {
		ret = drm_gem_create_mmap_offset(&bo->base);
		if (!ret)
			*mmap_offset = drm_vma_node_offset_addr(&bo->base.vma_node);
	}
	if (!ret)
		ret = drm_gem_handle_create(file, &bo->base, handle);
	drm_gem_object_put(&bo->base);
	return ret;
}

int ascend_ioctl_host_register(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_host_register *args = data;
	struct ascend_host_bo *bo;
	unsigned long npages;
	unsigned int gup;
	u64 end;
	int ret;

	if (!args->size || args->flags & ~DRM_ASCEND_HOST_REG_FLAGS)
		return -EINVAL;
	if (!PAGE_ALIGNED(args->addr) || !PAGE_ALIGNED(args->size))
		return -EINVAL;
	if (check_add_overflow(args->addr, args->size, &end) ||
	    end > TASK_SIZE)
		return -EINVAL;
	npages = args->size >> PAGE_SHIFT;
	if (npages > INT_MAX)
		return -EINVAL;
	/* more pages than the host has can never be pinned */
	if (npages > totalram_pages())
		return -ENOMEM;
	if (!current->mm)
		return -EFAULT;

	/* Cheap checks before pinning; ascend_vm_map_host() makes them sure. */
	ret = ascend_vm_check_host(&af->vm, args->addr, args->size);
	if (ret)
		return ret;

	bo = ascend_host_bo_new(af, args->size);
	if (!bo)
		return -ENOMEM;
	bo->user_pages = true;
	bo->readonly = args->flags & DRM_ASCEND_HOST_REG_READONLY;

	ret = ascend_host_charge(bo, npages, true);
	if (ret)
		goto err_release;
	ret = ascend_host_pages(bo, npages);
	if (ret) {
		ascend_host_uncharge(bo, npages, true);
		goto err_release;
	}

	gup = FOLL_LONGTERM | (bo->readonly ? 0 : FOLL_WRITE);
	if (ascend_should_fail(af->adev, ASCEND_FAULT_SITE_PIN))
		ret = -EFAULT;
	else
		ret = pin_user_pages_fast(args->addr, npages, gup, bo->pages);
	if (ret != npages) {
		/* a partial pin fails: nothing stays pinned or charged */
		if (ret > 0)
			unpin_user_pages(bo->pages, ret);
		ascend_host_uncharge(bo, npages, true);
		ret = ret < 0 ? ret : -EFAULT;
		goto err_release;
	}
	bo->npages = npages;
	bo->charged = true;
	trace_ascend_pin(af->adev->index, current->tgid, args->addr, npages,
			 true);

	ret = ascend_host_map_dma(bo);
	if (ret)
		goto err_release;
	ret = ascend_vm_map_host(&af->vm, &bo->map, args->addr, args->size);
	if (ret)
		goto err_release;

	trace_ascend_host_register(af->adev->index, current->tgid, args->addr,
				   args->size, true, bo->readonly);
	return ascend_host_publish(drm, file, bo, &args->handle, NULL);

err_release:
	ascend_host_release(bo);
	return ret;
}

/* Largest physically contiguous run HOST_ALLOC asks for: 2 MiB with 4K pages */
#define ASCEND_HOST_ALLOC_ORDER	min(9, MAX_PAGE_ORDER)

/*
 * Allocate @npages zeroed pages to @bo->pages (counted in @bo->npages,
 * fewer if memory ran out).  Runs of physically contiguous pages are taken
 * where the allocator has them at once -- each becomes one segment of the
 * sg table and one device MMU range, so copies need fewer descriptors --
 * then split into single pages (mmap, release: page by page as before);
 * single pages otherwise.
 */
static void ascend_host_alloc_pages(struct ascend_host_bo *bo,
				    unsigned long npages)
{
	unsigned int max_order = ASCEND_HOST_ALLOC_ORDER;
	unsigned long i = 0, j;

	while (i < npages) {
		unsigned int order = min_t(unsigned int, max_order,
					   ilog2(npages - i));
		struct page *page = NULL;

		for (; order; order--) {
			page = alloc_pages(GFP_HIGHUSER | __GFP_ACCOUNT | __GFP_ZERO |
					   __GFP_NORETRY | __GFP_NOWARN,
					   order);
			if (page)
				break;
			/* no run this long now: do not ask again */
			max_order = order - 1;
		}
		if (page)
			split_page(page, order);
		else
			page = alloc_page(GFP_HIGHUSER | __GFP_ACCOUNT | __GFP_ZERO |
					  __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
		if (!page)
			return;
		for (j = 0; j < (1UL << order); j++)
			bo->pages[i + j] = nth_page(page, j);
		i += 1UL << order;
		bo->npages = i;
		cond_resched();
	}
}

int ascend_ioctl_host_alloc(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_host_alloc *args = data;
	struct ascend_host_bo *bo;
	unsigned long npages;
	u64 size;
	int ret;

	if (!args->size || args->flags)
		return -EINVAL;
	if (check_add_overflow(args->size, (u64)PAGE_SIZE - 1, &size))
		return -ENOMEM;
	size &= PAGE_MASK;
	npages = size >> PAGE_SHIFT;
	if (npages > INT_MAX || size > TASK_SIZE || npages > totalram_pages())
		return -ENOMEM;
	if (!current->mm)
		return -EFAULT;

	bo = ascend_host_bo_new(af, size);
	if (!bo)
		return -ENOMEM;

	ret = ascend_host_charge(bo, npages, false);
	if (ret)
		goto err_release;
	ret = ascend_host_pages(bo, npages);
	if (ret) {
		ascend_host_uncharge(bo, npages, false);
		goto err_release;
	}
	bo->charged = true;

	ascend_host_alloc_pages(bo, npages);
	/* the charge is given back for bo->npages pages: charge matches */
	if (bo->npages != npages) {
		ascend_host_uncharge(bo, npages - bo->npages, false);
		ret = -ENOMEM;
		goto err_release;
	}

	ret = ascend_host_map_dma(bo);
	if (ret)
		goto err_release;

	ret = ascend_host_publish(drm, file, bo, &args->handle,
				  &args->mmap_offset);
	if (ret)
		return ret;
	args->alloc_size = size;
	trace_ascend_host_alloc(af->adev->index, current->tgid, 0, size, false,
				false);
	return 0;

err_release:
	ascend_host_release(bo);
	return ret;
}
