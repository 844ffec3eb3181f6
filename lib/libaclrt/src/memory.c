// SPDX-License-Identifier: MIT
/*
 * memory.c - device memory: aclrtMalloc* and aclrtFree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static aclError oom(struct acl_device *dev, size_t size, size_t asked,
		    const struct policy *pol)
{
	struct drm_ascend_device_info info = { 0 };
	uint32_t sz = sizeof(info);

	devnode_query(dev->fd, DRM_ASCEND_QUERY_DEVICE_INFO, &info, &sz);
	return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
		       "out of device memory on device %d: asked for %zu bytes (%zu after rounding, policy %s), %llu of %llu bytes free",
		       dev->id, size, asked, pol->name, (unsigned long long)info.hbm_free,
		       (unsigned long long)info.hbm_total);
}

static aclError bo_alloc(struct acl_device *dev, size_t size, size_t asked,
			 const struct policy *pol, void **out)
{
	struct drm_ascend_bo_create bo = {
		.size = asked, .policy = pol->bo_policy, .flags = pol->flags,
	};
	struct acl_alloc a;

	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_BO_CREATE, &bo)) {
		if (errno == ENOSPC || errno == ENOMEM)
			return oom(dev, size, asked, pol);
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "device %d: allocating %zu bytes failed: %s", dev->id,
			       asked, strerror(errno));
	}
	a.va = (uintptr_t)bo.va;
	a.size = bo.alloc_size ? bo.alloc_size : asked;
	a.user_size = size;
	a.handle = bo.handle;
	a.dev_id = dev->id;
	if (addrmap_insert(&a)) {
		gem_close(dev->fd, bo.handle);
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	*out = (void *)a.va;
	return ACL_SUCCESS;
}

static aclError dev_malloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
			   bool padding)
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
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	ret = bo_alloc(dev, size, asked, &pol, devPtr);
	dev_release(dev);
	return ret;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	API_ENTER();
	return dev_malloc(devPtr, size, policy, true);
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	API_ENTER();
	return dev_malloc(devPtr, size, policy, false);
}

/* Device memory is not cached on the host side here: same as aclrtMalloc. */
aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	API_ENTER();
	return dev_malloc(devPtr, size, policy, true);
}

aclError aclrtFree(void *devPtr)
{
	struct acl_device *dev, *owner;
	struct acl_alloc a;
	aclError ret;

	API_ENTER();
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
	if (!addrmap_remove((uintptr_t)devPtr, &a)) {
		dev_release(dev);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is inside device %d's address range but is not the start of a live aclrtMalloc allocation (freed twice?)",
			       devPtr, owner->id);
	}
	gem_close(dev->fd, a.handle);
	dev_release(dev);
	return ACL_SUCCESS;
}

/* Device reset: forget its allocations (closing the node frees them). */
void memory_release_device(struct acl_device *dev)
{
	struct acl_alloc *list;
	size_t n, i;

	n = addrmap_take_device(dev->id, &list);
	for (i = 0; i < n; i++)
		gem_close(dev->fd, list[i].handle);
	free(list);
}
