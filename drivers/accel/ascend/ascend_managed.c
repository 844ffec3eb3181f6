// SPDX-License-Identifier: GPL-2.0-only
/*
 * Managed memory (aclrtMemAllocManaged): one pointer valid on the host and
 * the device, whose memory moves to the side that touches it.
 *
 * A managed allocation is a GEM object with a VA range in the file's
 * address space (inside the VA window, so the process maps the object at
 * that same address).  Its memory moves in 2 MiB chunks, each in one of
 * three places:
 *
 *  - nowhere: never touched; either side reads zeroes when it first looks;
 *  - host: pages the driver owns (never the process's own memory, never
 *    pinned; charged to its memory cgroup), inserted into the process's
 *    mapping one page at a time by the fault handler; the device tables
 *    have no leaf for the chunk;
 *  - device: one HBM allocation (charged to the user's HBM share), mapped
 *    by the device tables; the process's mapping has no page there.
 *
 * The host's touch of a chunk on the device faults; the handler clears the
 * chunk's leaves (the invalidation waits for the device's accesses in
 * flight), copies it into host pages and frees the HBM.  The device's
 * touch of a chunk not on the device is a page request (ascend_prq.c): the
 * chunk's pages leave the process's mapping first, then move into fresh
 * HBM, which is mapped, and the device translates again.  MANAGED_MIGRATE
 * moves chunks ahead of the touch (CANN's prefetch).
 *
 * Locking: &ascend_managed_space.lock, one per file, protects the chunks
 * and pages of all the file's managed allocations and the space's list and
 * counters.  It is taken inside the process's mmap_lock (fault handler)
 * and inside &ascend_device.managed_lock (page requests), and outside
 * &ascend_vm.lock (the device tables).  Each hold moves at most one chunk,
 * so the page requests of other files wait for at most that.
 */

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_vma_manager.h>
#include <linux/highmem.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_hbm.h"
#include "ascend_managed.h"
#include "ascend_user.h"
#include "ascend_vm.h"

#define ASCEND_MANAGED_CHUNK		DRM_ASCEND_MANAGED_CHUNK
#define ASCEND_MANAGED_CHUNK_PAGES	(ASCEND_MANAGED_CHUNK >> PAGE_SHIFT)

/* &ascend_managed_chunk.loc */
enum ascend_managed_loc {
	ASCEND_MANAGED_NONE = 0,	/* never touched: zeroes */
	ASCEND_MANAGED_HOST,		/* @pages; a missing page is zeroes */
	ASCEND_MANAGED_DEVICE,		/* @hbm, mapped by the device tables */
};

/**
 * struct ascend_managed_chunk - 2 MiB of a managed allocation
 * @hbm: on the device: its memory
 * @pages: on the host: %ASCEND_MANAGED_CHUNK_PAGES page pointers, NULL for
 *	a page never touched
 * @nr_pages: pages in @pages
 * @loc: where it is (&enum ascend_managed_loc)
 */
struct ascend_managed_chunk {
	struct ascend_hbm_alloc *hbm;
	struct page **pages;
	u16 nr_pages;
	u8 loc;
};

/**
 * struct ascend_managed_space - the managed memory of one file
 * @ref: the file's reference and one per allocation
 * @lock: protects everything below and the chunks of @objs
 * @adev: the device
 * @af: the file; NULL once it went (allocations still mapped live on as
 *	host memory)
 * @user: charged for the chunks on the device
 * @objs: the file's allocations (&ascend_managed.link)
 * @asid: the file's address space id, the key of page requests
 * @bytes: size of all allocations, at most %DRM_ASCEND_MANAGED_MAX_BYTES
 * @host_bytes: bytes in host pages now
 * @device_bytes: bytes in HBM now
 * @to_host: bytes moved to the host so far
 * @to_device: bytes moved to the device so far
 */
struct ascend_managed_space {
	struct kref ref;
	struct mutex lock;	/* protects the fields below and the chunks */
	struct ascend_device *adev;
	struct ascend_file *af;
	struct ascend_user *user;
	struct list_head objs;
	u32 asid;
	u64 bytes;
	u64 host_bytes;
	u64 device_bytes;
	u64 to_host;
	u64 to_device;
};

/**
 * struct ascend_managed - a managed allocation
 * @base: the GEM object (handle, mmap offset)
 * @space: the file's managed memory (a reference)
 * @link: in &ascend_managed_space.objs while the file lives
 * @map: its VA range in the file's address space (kind
 *	%ASCEND_VM_MANAGED), until the file goes
 * @va: first VA
 * @size: bytes, a multiple of the chunk size
 * @nr_chunks: chunks in @chunks
 * @chunks: where each chunk is (under &ascend_managed_space.lock)
 * @live: set up, in @space's list (under &ascend_managed_space.lock): the
 *	VA range is found in the address space a moment before
 * @ranges: @map's backing, one entry per chunk: its HBM while on the
 *	device, size 0 otherwise (changed under &ascend_vm.lock too, for the
 *	driver's own look-ups, see ascend_vm.c)
 */
struct ascend_managed {
	struct drm_gem_object base;
	struct ascend_managed_space *space;
	struct list_head link;
	struct ascend_vm_mapping map;
	u64 va;
	u64 size;
	unsigned long nr_chunks;
	struct ascend_managed_chunk *chunks;
	bool live;
	struct ascend_hbm_range *ranges;
};

static struct ascend_managed *to_managed(struct drm_gem_object *obj)
{
	return container_of(obj, struct ascend_managed, base);
}

static void ascend_managed_space_release(struct kref *ref)
{
	struct ascend_managed_space *space =
		container_of(ref, struct ascend_managed_space, ref);

	ascend_user_put(space->user);
	mutex_destroy(&space->lock);
	kfree(space);
}

static void ascend_managed_space_put(struct ascend_managed_space *space)
{
	kref_put(&space->ref, ascend_managed_space_release);
}

/* ------------------------------------------------------------------------ */
/* Moving chunks */

/*
 * Copy the chunk's host @pages to (@to_hbm) or from its HBM @a (one huge
 * page) through the aperture.  A NULL page is skipped when writing: the
 * fresh HBM reads zeroes there already.
 */
static int ascend_managed_copy_chunk(struct ascend_device *adev,
				     const struct ascend_hbm_alloc *a,
				     struct page **pages, bool to_hbm)
{
	u64 addr = a->ranges[0].addr;
	int idx, ret = 0;
	unsigned int i;
	void *va;

	if (a->nr_ranges != 1 || a->ranges[0].size < ASCEND_MANAGED_CHUNK)
		return -EIO;
	if (!drm_dev_enter(&adev->drm, &idx))
		return -ENODEV;
	for (i = 0; i < ASCEND_MANAGED_CHUNK_PAGES && !ret; i++) {
		if (!pages[i])
			continue;
		va = kmap_local_page(pages[i]);
		ret = adev->hw_ops->hbm_rw(adev->hw,
					   addr + ((u64)i << PAGE_SHIFT), va,
					   PAGE_SIZE, to_hbm);
		kunmap_local(va);
	}
	drm_dev_exit(idx);
	return ret;
}

/* Whoever reads @a next reads zeroes (fresh, or freed). */
static void ascend_managed_hbm_discard(struct ascend_device *adev,
				       const struct ascend_hbm_alloc *a)
{
	unsigned int i;
	int idx;

	if (!adev->hw_ops->hbm_discard || !drm_dev_enter(&adev->drm, &idx))
		return;
	for (i = 0; i < a->nr_ranges; i++)
		adev->hw_ops->hbm_discard(adev->hw, a->ranges[i].addr,
					  a->ranges[i].size);
	drm_dev_exit(idx);
}

/* Give back the chunk's HBM, its leaves already cleared. */
static void ascend_managed_hbm_free(struct ascend_managed_space *space,
				    struct ascend_managed_chunk *ch)
{
	struct ascend_device *adev = space->adev;

	ascend_managed_hbm_discard(adev, ch->hbm);
	ascend_hbm_free(&adev->hbm, ch->hbm);
	kfree(ch->hbm);
	ch->hbm = NULL;
	ascend_user_uncharge_hbm(space->user, ASCEND_MANAGED_CHUNK);
	if (space->af)
		atomic64_sub(ASCEND_MANAGED_CHUNK, &space->af->hbm_used);
	space->device_bytes -= ASCEND_MANAGED_CHUNK;
}

static void ascend_managed_pages_free(struct ascend_managed_space *space,
				      struct ascend_managed_chunk *ch)
{
	unsigned int i, n = 0;

	/* the array goes too: packed, its pages go back in one batch */
	for (i = 0; i < ASCEND_MANAGED_CHUNK_PAGES; i++)
		if (ch->pages[i])
			ch->pages[n++] = ch->pages[i];
	release_pages(ch->pages, n);
	space->host_bytes -= (u64)ch->nr_pages << PAGE_SHIFT;
	kvfree(ch->pages);
	ch->pages = NULL;
	ch->nr_pages = 0;
}

/* The process's mapping of chunk @c loses its pages (a touch faults). */
static void ascend_managed_zap(struct ascend_managed *mo, unsigned long c)
{
	struct drm_gem_object *obj = &mo->base;

	unmap_mapping_range(obj->dev->anon_inode->i_mapping,
			    drm_vma_node_offset_addr(&obj->vma_node) +
			    c * ASCEND_MANAGED_CHUNK,
			    ASCEND_MANAGED_CHUNK, 1);
}

/* Chunk @c into HBM, mapped by the device tables; space->lock held. */
static int ascend_managed_to_device(struct ascend_managed *mo, unsigned long c)
{
	struct ascend_managed_space *space = mo->space;
	struct ascend_managed_chunk *ch = &mo->chunks[c];
	struct ascend_device *adev = space->adev;
	struct ascend_file *af = space->af;
	u64 va = mo->va + c * ASCEND_MANAGED_CHUNK;
	struct ascend_hbm_alloc *a;
	int ret;

	lockdep_assert_held(&space->lock);
	if (ch->loc == ASCEND_MANAGED_DEVICE)
		return 0;
	if (!af)
		return -ENODEV;
	a = kzalloc(sizeof(*a), GFP_KERNEL_ACCOUNT);
	if (!a)
		return -ENOMEM;
	ret = ascend_user_charge_hbm(space->user, ASCEND_MANAGED_CHUNK);
	if (ret)
		goto err_free;
	/* one huge page: a chunk is one range for the driver's look-ups */
	ret = ascend_hbm_alloc(&adev->hbm, ASCEND_MANAGED_CHUNK,
			       DRM_ASCEND_BO_HUGE_ONLY, a);
	if (ret)
		goto err_uncharge;
	/*
	 * what the host never touched reads zeroes: freed HBM was discarded
	 * (every ascend_hbm_free() follows an hbm_discard of what it held)
	 */
	if (ch->loc == ASCEND_MANAGED_HOST) {
		/* the process's stores end before the copy starts */
		ascend_managed_zap(mo, c);
		ret = ascend_managed_copy_chunk(adev, a, ch->pages, true);
		if (ret)
			goto err_hbm;
	}
	mutex_lock(&af->vm.lock);
	ret = ascend_vm_managed_map_locked(&af->vm, va, a);
	if (!ret) {
		mo->ranges[c].addr = a->ranges[0].addr;
		mo->ranges[c].size = ASCEND_MANAGED_CHUNK;
	}
	mutex_unlock(&af->vm.lock);
	if (ret)
		goto err_hbm;

	/* the host pages go only now: a failure above kept them */
	if (ch->loc == ASCEND_MANAGED_HOST) {
		space->to_device += (u64)ch->nr_pages << PAGE_SHIFT;
		ascend_managed_pages_free(space, ch);
	}
	ch->hbm = a;
	ch->loc = ASCEND_MANAGED_DEVICE;
	space->device_bytes += ASCEND_MANAGED_CHUNK;
	atomic64_add(ASCEND_MANAGED_CHUNK, &af->hbm_used);
	return 0;

err_hbm:
	ascend_managed_hbm_discard(adev, a);
	ascend_hbm_free(&adev->hbm, a);
err_uncharge:
	ascend_user_uncharge_hbm(space->user, ASCEND_MANAGED_CHUNK);
err_free:
	kfree(a);
	return ret;
}

/* Chunk @c into host pages; space->lock held. */
static int ascend_managed_to_host(struct ascend_managed *mo, unsigned long c)
{
	struct ascend_managed_space *space = mo->space;
	struct ascend_managed_chunk *ch = &mo->chunks[c];
	struct ascend_device *adev = space->adev;
	struct ascend_file *af = space->af;
	struct page **pages;
	unsigned int i;

	lockdep_assert_held(&space->lock);
	if (ch->loc == ASCEND_MANAGED_HOST)
		return 0;
	pages = kvcalloc(ASCEND_MANAGED_CHUNK_PAGES, sizeof(*pages),
			 GFP_KERNEL_ACCOUNT);
	if (!pages)
		return -ENOMEM;
	if (ch->loc == ASCEND_MANAGED_NONE) {
		/* pages come one by one, as the host touches them */
		ch->pages = pages;
		ch->loc = ASCEND_MANAGED_HOST;
		return 0;
	}

	/* every page before anything changes: a failure leaves it as it was */
	for (i = 0; i < ASCEND_MANAGED_CHUNK_PAGES; i++) {
		pages[i] = alloc_page(GFP_HIGHUSER | __GFP_ACCOUNT);
		if (!pages[i])
			goto err_pages;
	}
	/* the device's accesses in flight end before the copy starts */
	if (af) {
		mutex_lock(&af->vm.lock);
		mo->ranges[c].size = 0;
		ascend_vm_managed_unmap_locked(&af->vm,
					       mo->va + c * ASCEND_MANAGED_CHUNK,
					       ASCEND_MANAGED_CHUNK);
		mutex_unlock(&af->vm.lock);
	}
	if (ascend_managed_copy_chunk(adev, ch->hbm, pages, false))
		for (i = 0; i < ASCEND_MANAGED_CHUNK_PAGES; i++)
			clear_highpage(pages[i]);	/* a lost device */
	ascend_managed_hbm_free(space, ch);
	ch->pages = pages;
	ch->nr_pages = ASCEND_MANAGED_CHUNK_PAGES;
	ch->loc = ASCEND_MANAGED_HOST;
	space->host_bytes += ASCEND_MANAGED_CHUNK;
	space->to_host += ASCEND_MANAGED_CHUNK;
	return 0;

err_pages:
	while (i--)
		put_page(pages[i]);
	kvfree(pages);
	return -ENOMEM;
}

/*
 * The allocation of @space's file holding [@va, @va + @size), or NULL;
 * space->lock held (an allocation found so stays until it is dropped,
 * whatever its reference count: its free waits for the lock).
 */
static struct ascend_managed *
ascend_managed_find_locked(struct ascend_managed_space *space, u64 va,
			   u64 size)
{
	struct ascend_file *af = space->af;
	struct ascend_vm_mapping *map;
	struct ascend_managed *mo = NULL;
	u64 end;

	lockdep_assert_held(&space->lock);
	if (!af || !size || check_add_overflow(va, size, &end))
		return NULL;
	mutex_lock(&af->vm.lock);
	map = ascend_vm_mapping_at_locked(&af->vm, va);
	if (map && map->kind == ASCEND_VM_MANAGED) {
		mo = container_of(map, struct ascend_managed, map);
		/* one being created or freed is not there yet, or any more */
		if (!mo->live || va < mo->va || end > mo->va + mo->size)
			mo = NULL;
	}
	mutex_unlock(&af->vm.lock);
	return mo;
}

int ascend_managed_page_request(struct ascend_device *adev, u32 asid, u64 va,
				bool write)
{
	struct ascend_managed_space *space;
	struct ascend_managed *mo;
	int ret = -EFAULT;

	/* every chunk is writable on the device: @write changes nothing */
	mutex_lock(&adev->managed_lock);
	space = xa_load(&adev->managed_spaces, asid);
	if (space) {
		mutex_lock(&space->lock);
		mo = ascend_managed_find_locked(space, va, 1);
		if (mo)
			ret = ascend_managed_to_device(mo, (va - mo->va) /
						       ASCEND_MANAGED_CHUNK);
		mutex_unlock(&space->lock);
	}
	mutex_unlock(&adev->managed_lock);
	return ret;
}

/*
 * Move the chunks [@va, @end) touches to the device (@to_device) or the
 * host, one chunk per hold of space->lock: a page request waits for one
 * move at most.  A byte that is no managed memory ends the walk: -EINVAL
 * when @strict, else 0 (the caller's own checks decide about it).
 */
static int ascend_managed_move(struct ascend_managed_space *space, u64 va,
			       u64 end, bool to_device, bool strict)
{
	struct ascend_managed *mo;
	unsigned long c;
	int ret = 0;

	while (va < end && !ret) {
		if (fatal_signal_pending(current))
			return -EINTR;
		mutex_lock(&space->lock);
		mo = ascend_managed_find_locked(space, va, 1);
		if (mo) {
			c = (va - mo->va) / ASCEND_MANAGED_CHUNK;
			ret = to_device ? ascend_managed_to_device(mo, c) :
					  ascend_managed_to_host(mo, c);
		}
		mutex_unlock(&space->lock);
		if (!mo)
			return strict ? -EINVAL : 0;
		va = round_down(va, ASCEND_MANAGED_CHUNK) + ASCEND_MANAGED_CHUNK;
		cond_resched();
	}
	return ret;
}

int __ascend_managed_prepare(struct ascend_file *af, u64 va, u64 len)
{
	struct ascend_managed_space *space = READ_ONCE(af->managed);
	u64 end;

	if (!space || !len || check_add_overflow(va, len, &end))
		return 0;
	return ascend_managed_move(space, va, end, true, false);
}

/* ------------------------------------------------------------------------ */
/* The GEM object and the process's mapping */

/* Let go of @mo's memory and VA range; space->lock held. */
static void ascend_managed_release_locked(struct ascend_managed *mo)
{
	struct ascend_managed_space *space = mo->space;
	struct ascend_file *af = space->af;
	unsigned long c;

	for (c = 0; c < mo->nr_chunks; c++) {
		struct ascend_managed_chunk *ch = &mo->chunks[c];
		u64 va = mo->va + c * ASCEND_MANAGED_CHUNK;

		if (ch->loc == ASCEND_MANAGED_DEVICE) {
			if (af) {
				mutex_lock(&af->vm.lock);
				mo->ranges[c].size = 0;
				ascend_vm_managed_unmap_locked(&af->vm, va,
							       ASCEND_MANAGED_CHUNK);
				mutex_unlock(&af->vm.lock);
			}
			ascend_managed_hbm_free(space, ch);
		} else if (ch->pages) {
			ascend_managed_pages_free(space, ch);
		}
		ch->loc = ASCEND_MANAGED_NONE;
	}
	if (af) {
		mutex_lock(&af->vm.lock);
		ascend_vm_managed_remove_locked(&af->vm, &mo->map);
		mutex_unlock(&af->vm.lock);
	}
}

static void ascend_managed_free(struct drm_gem_object *obj)
{
	struct ascend_managed *mo = to_managed(obj);
	struct ascend_managed_space *space = mo->space;

	mutex_lock(&space->lock);
	mo->live = false;
	list_del(&mo->link);
	ascend_managed_release_locked(mo);
	space->bytes -= mo->size;
	mutex_unlock(&space->lock);
	ascend_managed_space_put(space);
	drm_gem_object_release(obj);
	kvfree(mo->ranges);
	kvfree(mo->chunks);
	kfree(mo);
}

static vm_fault_t ascend_managed_fault(struct vm_fault *vmf)
{
	struct drm_gem_object *obj = vmf->vma->vm_private_data;
	struct ascend_managed *mo = to_managed(obj);
	struct ascend_managed_space *space = mo->space;
	pgoff_t idx = vmf->pgoff - drm_vma_node_start(&obj->vma_node);
	unsigned long c = idx / ASCEND_MANAGED_CHUNK_PAGES;
	unsigned int i = idx % ASCEND_MANAGED_CHUNK_PAGES;
	struct ascend_managed_chunk *ch;
	struct page *page;
	vm_fault_t ret;

	if (idx >= mo->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	ch = &mo->chunks[c];
	mutex_lock(&space->lock);
	if (ascend_managed_to_host(mo, c)) {
		ret = VM_FAULT_OOM;
		goto out;
	}
	page = ch->pages[i];
	if (!page) {
		page = alloc_page(GFP_HIGHUSER | __GFP_ZERO | __GFP_ACCOUNT);
		if (!page) {
			ret = VM_FAULT_OOM;
			goto out;
		}
		ch->pages[i] = page;
		ch->nr_pages++;
		space->host_bytes += PAGE_SIZE;
	}
	ret = vmf_insert_page(vmf->vma, vmf->address, page);
out:
	mutex_unlock(&space->lock);
	return ret;
}

static const struct vm_operations_struct ascend_managed_vm_ops = {
	.fault = ascend_managed_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static int ascend_managed_mmap(struct drm_gem_object *obj,
			       struct vm_area_struct *vma)
{
	struct ascend_managed *mo = to_managed(obj);

	/* shared, from its start, at its device VA: one pointer, both sides */
	if (!(vma->vm_flags & VM_SHARED) || vma->vm_start != mo->va ||
	    vma->vm_pgoff != drm_vma_node_start(&obj->vma_node))
		return -EINVAL;
	vm_flags_mod(vma, VM_MIXEDMAP | VM_DONTEXPAND | VM_DONTDUMP |
		     VM_DONTCOPY, VM_PFNMAP);
	vma->vm_page_prot = vm_get_page_prot(vma->vm_flags);
	return 0;
}

/* The memory moves under the process: no dma-buf of it. */
static struct dma_buf *ascend_managed_export(struct drm_gem_object *obj,
					     int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct drm_gem_object_funcs ascend_managed_funcs = {
	.free = ascend_managed_free,
	.mmap = ascend_managed_mmap,
	.export = ascend_managed_export,
	.vm_ops = &ascend_managed_vm_ops,
};

/* ------------------------------------------------------------------------ */
/* Files and ioctls */

int ascend_managed_device_init(struct ascend_device *adev)
{
	xa_init(&adev->managed_spaces);
	return drmm_mutex_init(&adev->drm, &adev->managed_lock);
}

/*
 * @af's managed space, created with its first allocation (its address
 * space has an ASID by then), with a reference for the caller.
 */
static struct ascend_managed_space *
ascend_managed_space_get(struct ascend_file *af)
{
	struct ascend_device *adev = af->adev;
	struct ascend_managed_space *space;
	int ret;

	mutex_lock(&adev->managed_lock);
	space = af->managed;
	if (space)
		goto out;
	space = kzalloc(sizeof(*space), GFP_KERNEL_ACCOUNT);
	if (!space) {
		space = ERR_PTR(-ENOMEM);
		goto out;
	}
	kref_init(&space->ref);		/* the file's */
	mutex_init(&space->lock);
	INIT_LIST_HEAD(&space->objs);
	space->adev = adev;
	space->af = af;
	space->user = ascend_user_get(af->user);
	space->asid = af->vm.pt.asid;
	ret = xa_err(xa_store(&adev->managed_spaces, space->asid, space,
			      GFP_KERNEL));
	if (ret) {
		ascend_managed_space_put(space);
		space = ERR_PTR(ret);
		goto out;
	}
	/* from now on the device asks before it faults in this space */
	if (adev->hw_ops->mmu_page_requests)
		adev->hw_ops->mmu_page_requests(adev->hw, space->asid, true);
	WRITE_ONCE(af->managed, space);
out:
	if (!IS_ERR(space))
		kref_get(&space->ref);
	mutex_unlock(&adev->managed_lock);
	return space;
}

void ascend_managed_file_fini(struct ascend_file *af)
{
	struct ascend_managed_space *space = af->managed;
	struct ascend_device *adev = af->adev;
	struct ascend_managed *mo, *next;
	unsigned long c;

	if (!space)
		return;
	/* no page request finds the space any more */
	mutex_lock(&adev->managed_lock);
	xa_erase(&adev->managed_spaces, space->asid);
	mutex_unlock(&adev->managed_lock);

	mutex_lock(&space->lock);
	list_for_each_entry_safe(mo, next, &space->objs, link) {
		for (c = 0; c < mo->nr_chunks; c++) {
			struct ascend_managed_chunk *ch = &mo->chunks[c];

			if (ch->loc != ASCEND_MANAGED_DEVICE ||
			    !ascend_managed_to_host(mo, c))
				continue;
			/* no host memory to keep it in: it reads zeroes */
			mutex_lock(&af->vm.lock);
			mo->ranges[c].size = 0;
			ascend_vm_managed_unmap_locked(&af->vm, mo->va + c *
						       ASCEND_MANAGED_CHUNK,
						       ASCEND_MANAGED_CHUNK);
			mutex_unlock(&af->vm.lock);
			ascend_managed_hbm_free(space, ch);
			ch->loc = ASCEND_MANAGED_NONE;
		}
		mutex_lock(&af->vm.lock);
		ascend_vm_managed_remove_locked(&af->vm, &mo->map);
		mutex_unlock(&af->vm.lock);
		list_del_init(&mo->link);
		mo->live = false;
	}
	space->af = NULL;
	mutex_unlock(&space->lock);
	af->managed = NULL;
	ascend_managed_space_put(space);
}

int ascend_ioctl_managed_create(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_managed_create *args = data;
	struct ascend_managed_space *space;
	struct ascend_managed *mo;
	unsigned long c;
	u32 handle;
	u64 size;
	int ret;

	if (!args->size || args->flags ||
	    args->size > DRM_ASCEND_MANAGED_MAX_BYTES)
		return -EINVAL;
	size = round_up(args->size, ASCEND_MANAGED_CHUNK);

	mo = kzalloc(sizeof(*mo), GFP_KERNEL_ACCOUNT);
	if (!mo)
		return -ENOMEM;
	INIT_LIST_HEAD(&mo->link);
	mo->size = size;
	mo->nr_chunks = size / ASCEND_MANAGED_CHUNK;
	mo->chunks = kvcalloc(mo->nr_chunks, sizeof(*mo->chunks),
			      GFP_KERNEL_ACCOUNT);
	mo->ranges = kvcalloc(mo->nr_chunks, sizeof(*mo->ranges),
			      GFP_KERNEL_ACCOUNT);
	if (!mo->chunks || !mo->ranges) {
		ret = -ENOMEM;
		goto err_free;
	}
	for (c = 0; c < mo->nr_chunks; c++)
		mo->ranges[c].offset = c * ASCEND_MANAGED_CHUNK;
	/* the VA range first: the address space then has its ASID */
	ret = ascend_vm_managed_insert(&af->vm, &mo->map, size, mo->ranges,
				       mo->nr_chunks);
	if (ret)
		goto err_free;
	mo->va = mo->map.node.start;
	space = ascend_managed_space_get(af);
	if (IS_ERR(space)) {
		ret = PTR_ERR(space);
		goto err_remove;
	}
	mo->space = space;
	mutex_lock(&space->lock);
	if (space->bytes + size > DRM_ASCEND_MANAGED_MAX_BYTES) {
		mutex_unlock(&space->lock);
		ret = -EDQUOT;
		goto err_put;
	}
	space->bytes += size;
	list_add_tail(&mo->link, &space->objs);
	mo->live = true;
	mutex_unlock(&space->lock);

	/* from here on the object's free undoes everything */
	mo->base.funcs = &ascend_managed_funcs;
	drm_gem_private_object_init(drm, &mo->base, size);
	ret = drm_gem_create_mmap_offset(&mo->base);
	if (!ret)
		ret = drm_gem_handle_create(file, &mo->base, &handle);
	if (!ret) {
		args->handle = handle;
		args->va = mo->va;
		args->mmap_offset = drm_vma_node_offset_addr(&mo->base.vma_node);
		args->alloc_size = size;
	}
	drm_gem_object_put(&mo->base);
	return ret;

err_put:
	ascend_managed_space_put(space);
err_remove:
	mutex_lock(&af->vm.lock);
	ascend_vm_managed_remove_locked(&af->vm, &mo->map);
	mutex_unlock(&af->vm.lock);
err_free:
	kvfree(mo->ranges);
	kvfree(mo->chunks);
	kfree(mo);
	return ret;
}

int ascend_ioctl_managed_migrate(struct drm_device *drm, void *data,
				 struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_managed_migrate *args = data;
	struct ascend_managed_space *space = READ_ONCE(af->managed);
	bool one;
	u64 end;

	if (args->flags || !args->size ||
	    check_add_overflow(args->va, args->size, &end) ||
	    (args->target != DRM_ASCEND_MANAGED_TO_HOST &&
	     args->target != DRM_ASCEND_MANAGED_TO_DEVICE))
		return -EINVAL;
	if (!space)
		return -EINVAL;
	/* all of it in one allocation, as documented */
	mutex_lock(&space->lock);
	one = ascend_managed_find_locked(space, args->va, args->size);
	mutex_unlock(&space->lock);
	if (!one)
		return -EINVAL;
	return ascend_managed_move(space, args->va, end,
				   args->target == DRM_ASCEND_MANAGED_TO_DEVICE,
				   true);
}

int ascend_ioctl_managed_query(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_managed_query *args = data;
	struct ascend_managed_space *space = READ_ONCE(af->managed);
	struct ascend_managed *mo;
	unsigned long c, last;
	int ret = 0;

	if (args->flags || args->pad || !space)
		return -EINVAL;
	mutex_lock(&space->lock);
	mo = ascend_managed_find_locked(space, args->va, args->size);
	if (!mo) {
		ret = -EINVAL;
		goto out;
	}
	args->host_bytes = 0;
	args->device_bytes = 0;
	last = (args->va + args->size - 1 - mo->va) / ASCEND_MANAGED_CHUNK;
	for (c = (args->va - mo->va) / ASCEND_MANAGED_CHUNK; c <= last; c++) {
		const struct ascend_managed_chunk *ch = &mo->chunks[c];

		if (ch->loc == ASCEND_MANAGED_DEVICE)
			args->device_bytes += ASCEND_MANAGED_CHUNK;
		else
			args->host_bytes += (u64)ch->nr_pages << PAGE_SHIFT;
	}
	args->to_host = space->to_host;
	args->to_device = space->to_device;
out:
	mutex_unlock(&space->lock);
	return ret;
}

void ascend_managed_debugfs_show(struct seq_file *m, struct ascend_file *af)
{
	struct ascend_managed_space *space = READ_ONCE(af->managed);
	struct ascend_managed *mo;
	unsigned long c, dev, host;

	if (!space)
		return;
	mutex_lock(&space->lock);
	seq_printf(m, "  managed %llu bytes: host %llu device %llu, moved to host %llu to device %llu\n",
		   space->bytes, space->host_bytes, space->device_bytes,
		   space->to_host, space->to_device);
	list_for_each_entry(mo, &space->objs, link) {
		dev = 0;
		host = 0;
		for (c = 0; c < mo->nr_chunks; c++) {
			dev += mo->chunks[c].loc == ASCEND_MANAGED_DEVICE;
			host += mo->chunks[c].loc == ASCEND_MANAGED_HOST;
		}
		seq_printf(m, "    %#llx +%llu: %lu chunks on the device, %lu on the host\n",
			   mo->va, mo->size, dev, host);
	}
	mutex_unlock(&space->lock);
}
