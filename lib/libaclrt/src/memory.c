// SPDX-License-Identifier: MIT
/*
 * memory.c - device memory: aclrtMalloc*, aclrtFree*.
 *
 * An allocation is device memory the kernel placed in this process's VA
 * window of its device, made without a GEM handle (DRM_ASCEND_BO_NO_HANDLE:
 * cheaper) and freed by its VA with BO_FREE; the address map (addrmap.c)
 * remembers it so that any pointer can be traced back to it in O(log n).
 *
 * aclrtFree of a small allocation makes no system call: the VA goes on the
 * file's free ring (DRM_IOCTL_ASCEND_FREE_RING_CREATE, a page shared with
 * the kernel), which the kernel drains before anything could see the
 * memory still held (the next BO_CREATE or BO_FREE of this file, any
 * process's memory query, an allocation that would fail, close).  Larger
 * allocations keep BO_FREE: the freeing process then pays for discarding
 * their contents, not whoever drains the ring next (possibly another
 * process's aclrtGetMemInfo), and their host backing goes at once.  A
 * kernel without the ring, or a full ring, also means BO_FREE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drm.h>

#include "internal.h"

#define ALIGN_UNIT	32	/* CANN rounds device sizes to 32 bytes */
#define PADDING		32	/* ... and adds 32 bytes for aclrtMalloc */

struct policy { uint32_t bo_policy; uint32_t flags; bool huge1g; const char *name; };

/* CANN policy -> BO policy.  Memory-type and access bits are ignored; an
 * unknown page policy is treated as the default (HUGE_FIRST), as in CANN. */
static struct policy map_policy(aclrtMemMallocPolicy policy)
{
	static const struct policy tab[] = {
		{ DRM_ASCEND_BO_HUGE_FIRST, 0, false, "HUGE_FIRST" },
		{ DRM_ASCEND_BO_HUGE_ONLY, 0, false, "HUGE_ONLY" },
		{ DRM_ASCEND_BO_NORMAL_ONLY, 0, false, "NORMAL_ONLY" },
		{ DRM_ASCEND_BO_HUGE_FIRST, DRM_ASCEND_BO_P2P, false, "HUGE_FIRST_P2P" },
		{ DRM_ASCEND_BO_HUGE_ONLY, DRM_ASCEND_BO_P2P, false, "HUGE_ONLY_P2P" },
		{ DRM_ASCEND_BO_NORMAL_ONLY, DRM_ASCEND_BO_P2P, false, "NORMAL_ONLY_P2P" },
		{ DRM_ASCEND_BO_HUGE1G_ONLY, 0, true, "HUGE1G_ONLY" },
		{ DRM_ASCEND_BO_HUGE1G_ONLY, DRM_ASCEND_BO_P2P, true, "HUGE1G_ONLY_P2P" },
	};
	uint32_t p = (uint32_t)policy & 0xff;

	return tab[p < sizeof(tab) / sizeof(tab[0]) ? p : 0];
}

/* Free an allocation: by VA when it has no GEM handle (handle 0). */
static void bo_free(int fd, uint64_t va, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };
	struct drm_ascend_bo_free f = { .va = va };

	if (handle)
		drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
	else
		drmIoctl(fd, DRM_IOCTL_ASCEND_BO_FREE, &f);
}

/* Allocations at most this large are freed through the ring. */
#define RING_MAX_SIZE	(64u << 10)

/*
 * A device file's free ring.  map/hdr/va/entries change only in
 * devnode_open()/devnode_close() (dev->rw write-held); users hold it for
 * read.  The writers of @tail within the process are serialised by the
 * address map's write lock (addrmap_wrlock()), under which they also
 * removed the allocation they free: one lock for both.
 */
struct free_ring {
	void *map;
	size_t map_size;
	struct drm_ascend_free_ring *hdr;
	uint64_t *va;
	uint32_t entries;
	uint64_t tail;		/* what we last published (we own it) */
};

static struct free_ring g_rings[ACL_MAX_DEVICES];

void memory_ring_open(struct acl_device *dev)
{
	struct drm_ascend_free_ring_create c = { 0 };
	struct free_ring *r = &g_rings[dev->id];
	void *p;

	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c))
		return;		/* an older kernel: BO_FREE for everything */
	p = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		 (off_t)c.mmap_offset);
	if (p == MAP_FAILED)
		return;		/* the kernel drains nothing we never write */
	if (!c.entries || (c.entries & (c.entries - 1)) ||
	    DRM_ASCEND_FREE_RING_VA_OFFSET + (uint64_t)c.entries * 8 > c.mmap_size) {
		munmap(p, c.mmap_size);
		return;
	}
	r->map = p;
	r->map_size = c.mmap_size;
	r->hdr = p;
	r->va = (uint64_t *)((char *)p + DRM_ASCEND_FREE_RING_VA_OFFSET);
	r->entries = c.entries;
	r->tail = 0;
}

void memory_ring_close(struct acl_device *dev)
{
	struct free_ring *r = &g_rings[dev->id];

	if (r->map)
		munmap(r->map, r->map_size);
	r->map = NULL;
	r->hdr = NULL;
	r->va = NULL;
	r->entries = 0;
	r->tail = 0;
}

/*
 * Publish the free of @a, just removed from the address map, on @dev's
 * free ring if it goes there (dev->rw read-held, addrmap_wrlock() held);
 * false: free it otherwise (managed_free() or BO_FREE).
 */
static bool ring_free_locked(struct acl_device *dev, const struct acl_alloc *a)
{
	struct free_ring *r = &g_rings[dev->id];
	uint64_t head;

	if ((a->hflags & DEV_F_MANAGED) || a->handle || a->size > RING_MAX_SIZE || !r->va)
		return false;
	head = __atomic_load_n(&r->hdr->head, __ATOMIC_ACQUIRE);
	if (r->tail - head >= r->entries)
		return false;	/* full: BO_FREE drains it first */
	r->va[r->tail & (r->entries - 1)] = a->va;
	r->tail++;
	__atomic_store_n(&r->hdr->tail, r->tail, __ATOMIC_RELEASE);
	return true;
}

/*
 * Remove the allocation at @va unless it is DEV_F_RESERVED, into *@a,
 * and publish its free on the ring if it goes there (*@queued).
 */
static inline bool remove_and_queue(struct acl_device *dev, uintptr_t va,
				    struct acl_alloc *a, bool *queued)
{
	bool found;

	addrmap_wrlock();
	found = addrmap_remove_unless_locked(va, DEV_F_RESERVED, a);
	*queued = found && ring_free_locked(dev, a);
	addrmap_unlock();
	return found;
}

static aclError oom(struct acl_device *dev, size_t size, size_t asked,
		    const struct policy *pol)
{
	struct drm_ascend_device_info info;
	char largest[48] = "unknown";
	bool tail;

	if (mem_query_info(dev, &info, &tail))
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "out of device memory on device %d: asked for %zu bytes (%zu after rounding, policy %s); free bytes unknown",
			       dev->id, size, asked, pol->name);
	if (tail && (info.hbm_largest_free || !info.hbm_free))
		snprintf(largest, sizeof(largest), "%llu bytes",
			 (unsigned long long)info.hbm_largest_free);
	return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
		       "out of device memory on device %d: asked for %zu bytes (%zu after rounding, policy %s), %llu of %llu bytes free, largest free block %s",
		       dev->id, size, asked, pol->name, (unsigned long long)info.hbm_free,
		       (unsigned long long)info.hbm_total, largest);
}

/* The driver's per-user share of the device's HBM is reached. */
static aclError over_quota(struct acl_device *dev, size_t size, size_t asked)
{
	struct drm_ascend_device_info info;
	bool tail;

	if (mem_query_info(dev, &info, &tail) || !info.hbm_user_quota)
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "device %d: asked for %zu bytes (%zu after rounding): past this user's share of the device memory",
			       dev->id, size, asked);
	return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
		       "device %d: asked for %zu bytes (%zu after rounding): this user (uid) holds %llu of the %llu bytes one user may have on the device (module parameter user_hbm_percent)",
		       dev->id, size, asked, (unsigned long long)info.hbm_used_by_user,
		       (unsigned long long)info.hbm_user_quota);
}

/* Allocate on @dev (rw read-held). */
static aclError bo_alloc(struct acl_device *dev, size_t size, size_t asked,
			 const struct policy *pol, void **out)
{
	struct drm_ascend_bo_create bo = {
		.size = asked, .policy = pol->bo_policy,
		.flags = pol->flags | DRM_ASCEND_BO_NO_HANDLE,
	};
	struct acl_alloc a = { 0 };

	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_BO_CREATE, &bo)) {
		if (errno == ENOSPC || errno == ENOMEM)
			return oom(dev, size, asked, pol);
		if (errno == EDQUOT)
			return over_quota(dev, size, asked);
		return acl_err(acl_drv_code(errno, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			       "device %d: allocating %zu bytes failed: %s", dev->id,
			       asked, strerror(errno));
	}
	a.va = (uintptr_t)bo.va;
	a.size = bo.alloc_size ? bo.alloc_size : asked;
	a.user_size = size;
	a.handle = bo.handle;
	a.page_size = bo.page_size ? bo.page_size : 4096;
	a.dev_id = dev->id;
	a.kind = ALLOC_DEVICE;
	if (addrmap_insert(&a)) {
		bo_free(dev->fd, bo.va, bo.handle);
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	*out = (void *)a.va;
	return ACL_SUCCESS;
}

/* @dev_id < 0: the current device. */
static ACL_HOT aclError dev_malloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
				   bool padding, int dev_id)
{
	struct policy pol = map_policy(policy);
	struct acl_device *dev;
	size_t pad = padding && !pol.huge1g ? PADDING : 0;
	size_t asked;
	aclError ret;

	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	if (size > SIZE_MAX - ALIGN_UNIT - pad)
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "size %zu is larger than any device memory", size);
	asked = (size + pad + ALIGN_UNIT - 1) / ALIGN_UNIT * ALIGN_UNIT;
	ret = dev_id < 0 ? dev_acquire_current(&dev) : dev_acquire(dev_id, &dev);
	if (ret)
		return ret;
	ret = bo_alloc(dev, size, asked, &pol, devPtr);
	dev_release(dev);
	return ret;
}

ACL_HOT aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	API_ENTER();
	return dev_malloc(devPtr, size, policy, true, -1);
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	API_ENTER();
	return dev_malloc(devPtr, size, policy, false, -1);
}

/* Device memory is not cached on the host side here: same as aclrtMalloc. */
aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	API_ENTER();
	return dev_malloc(devPtr, size, policy, true, -1);
}

/*
 * The attributes of aclrtMallocWithCfg and aclrtMallocHostWithCfg.
 * MODULE_ID is accepted and ignored (it tags memory for CANN's
 * statistics), DEVICE_ID names the device (which must have been set),
 * VA_FLAG must be 0 or 1 (there is only one kind of VA here); RSV and
 * unknown attributes are rejected.  *@dev_id stays -1 without DEVICE_ID.
 */
aclError malloc_cfg_parse(const aclrtMallocConfig *cfg, int *dev_id)
{
	size_t i;

	*dev_id = -1;
	if (cfg && cfg->numAttrs && !cfg->attrs)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "cfg->numAttrs is %zu but cfg->attrs is NULL", cfg->numAttrs);
	for (i = 0; cfg && i < cfg->numAttrs; i++) {
		const aclrtMallocAttribute *at = &cfg->attrs[i];

		switch (at->attr) {
		case ACL_RT_MEM_ATTR_MODULE_ID:
			break;
		case ACL_RT_MEM_ATTR_DEVICE_ID:
			if (at->value.deviceId > INT32_MAX || !dev_by_id((int)at->value.deviceId))
				return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
					       "cfg->attrs[%zu]: ACL_RT_MEM_ATTR_DEVICE_ID %u is not a valid device id (%d device(s))",
					       i, at->value.deviceId, dev_count());
			*dev_id = (int)at->value.deviceId;
			break;
		case ACL_RT_MEM_ATTR_VA_FLAG:
			if (at->value.vaFlag > 1)
				return acl_err(ACL_ERROR_INVALID_PARAM,
					       "cfg->attrs[%zu]: ACL_RT_MEM_ATTR_VA_FLAG %u is not 0 or 1",
					       i, at->value.vaFlag);
			break;
		default:
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "cfg->attrs[%zu]: attribute %d is not a valid aclrtMallocAttrType (MODULE_ID 1, DEVICE_ID 2, VA_FLAG 3)",
				       i, (int)at->attr);
		}
	}
	return ACL_SUCCESS;
}

/* aclrtMallocWithCfg: aclrtMalloc with attributes (malloc_cfg_parse()). */
aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
			    aclrtMallocConfig *cfg)
{
	int dev_id;
	aclError err;

	API_ENTER();
	err = malloc_cfg_parse(cfg, &dev_id);
	if (err)
		return err;
	return dev_malloc(devPtr, size, policy, true, dev_id);
}

/* Free the allocation starting at @devPtr; @sync: synchronize its device first. */
static ACL_HOT aclError dev_free(void *devPtr, bool sync)
{
	struct acl_device *dev, *owner;
	bool queued = false;
	struct acl_alloc a;
	aclError ret;

	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	owner = dev_of_va(devPtr);
	if (!owner)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is not device memory (not from aclrtMalloc, or its device was reset)",
			       devPtr);
	ret = dev_acquire(owner->id, &dev);
	if (ret)
		return ret;
	/* Without a sync, removing is the check: one lookup, not two. */
	if (!sync && remove_and_queue(dev, (uintptr_t)devPtr, &a, &queued))
		goto free;
	if (addrmap_find((uintptr_t)devPtr, &a) && (a.hflags & DEV_F_RESERVED)) {
		dev_release(dev);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is in a range from aclrtReserveMemAddress: unmap it with aclrtUnmapMem and release it with aclrtReleaseMemAddress",
			       devPtr);
	}
	if (!addrmap_find((uintptr_t)devPtr, &a) || a.va != (uintptr_t)devPtr) {
		dev_release(dev);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is inside device %d's address range but is not the start of a live aclrtMalloc allocation (freed twice?)",
			       devPtr, owner->id);
	}
	if (sync) {
		ret = dev_sync_all_streams(dev, -1);
		if (ret) {
			dev_release(dev);
			return ret;
		}
	}
	/* Another thread may have freed it meanwhile: remove decides. */
	if (!remove_and_queue(dev, (uintptr_t)devPtr, &a, &queued)) {
		dev_release(dev);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p was freed by another thread meanwhile", devPtr);
	}
free:
	/* else it is on the ring */
	if (!queued && (a.hflags & DEV_F_MANAGED))
		managed_free(dev, &a);
	else if (!queued)
		bo_free(dev->fd, a.va, a.handle);
	dev_release(dev);
	return ACL_SUCCESS;
}

ACL_HOT aclError aclrtFree(void *devPtr)
{
	API_ENTER();
	return dev_free(devPtr, false);
}

aclError aclrtFreeWithDevSync(void *devPtr)
{
	API_ENTER();
	return dev_free(devPtr, true);
}

/* Device reset: forget its allocations (closing the node frees them). */
void memory_release_device(struct acl_device *dev)
{
	struct acl_alloc *list;
	size_t n, i;

	host_release_device(dev);	/* host.c: pinned host memory, staging */
	vmm_release_device(dev);
	n = addrmap_take_device(dev->id, &list);
	for (i = 0; i < n; i++)
		if (list[i].hflags & DEV_F_MANAGED)
			managed_release_device(&list[i]);
		else if (!(list[i].hflags & DEV_F_RESERVED))
			bo_free(dev->fd, list[i].va, list[i].handle);
	free(list);
}
