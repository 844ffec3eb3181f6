// SPDX-License-Identifier: MIT
/*
 * vmm.c - virtual memory management: aclrtMallocPhysical/aclrtFreePhysical,
 * aclrtReserveMemAddress/aclrtReleaseMemAddress, aclrtMapMem/
 * aclrtMemMapNoAccess/aclrtUnmapMem, aclrtMemSetAccess/aclrtMemGetAccess,
 * aclrtMemRetainAllocationHandle, aclrtMemGetAllocationPropertiesFromHandle,
 * aclrtMemGetAllocationGranularity, and sharing physical memory between
 * processes (aclrtMemExportToShareableHandle(V2),
 * aclrtMemSetPidToShareableHandle(V2), aclrtMemImportFromShareableHandle(V2)).
 *
 * The kernel does the work (DRM_ASCEND_CAP_VMM): a physical allocation is
 * a GEM object with no VA, a reservation a VA range of the device's
 * window, a mapping a part of the one at a VA of the other; mappings hold
 * the memory, so aclrtFreePhysical of a mapped handle frees it at the
 * unmap, as CANN documents.  Here each handle is an acl_phys (its GEM
 * handle, kept open while the caller holds it or a mapping names it), and
 * each reservation is one entry of the address map covering the whole
 * range (DEV_F_RESERVED), so copies, memsets and kernels treat it as device
 * memory of that device: a hole in it faults on the device, like any
 * unmapped address.
 *
 * A shareable handle is the kernel's IPC key of the allocation
 * (DRM_ASCEND_IPC_PHYS), whose 16 significant hex digits are CANN's 64-bit
 * handle; the kernel enforces the allow-list.  The dma-buf form (an fd) is
 * declared in acl/ascend_ext.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "acl/ascend_ext.h"
#include "internal.h"

#define KEYLEN		DRM_ASCEND_IPC_KEY_LEN
#define RESV_ALIGN	(2UL << 20)	/* what the kernel reserves in */

struct acl_phys {
	struct acl_phys *next;		/* v_phys */
	int dev_id;
	uint32_t gem;			/* GEM handle on dev_id's node */
	size_t size;			/* bytes allocated */
	uint32_t page_size;
	aclrtPhysicalMemProp prop;
	int refs;			/* the caller's: 1 + retains */
	int maps;			/* mappings naming it */
	bool lost;			/* its device was reset */
	uint64_t share;			/* exported shareable handle, or 0 */
	char key[KEYLEN];		/* its key, or "" */
};

struct acl_vmap {
	struct acl_vmap *next;		/* acl_resv.maps, by nothing in particular */
	uintptr_t va;
	size_t size;
	struct acl_phys *phys;
	uint32_t access;		/* ACL_RT_MEM_ACCESS_FLAGS_* of its own device */
	uint64_t peers;			/* devices given READWRITE (aclrtMemSetAccess) */
};

struct acl_resv {
	struct acl_resv *next;		/* v_resv */
	int dev_id;
	uintptr_t va;
	size_t size;
	struct acl_vmap *maps;
};

/* Protects v_phys, v_resv and everything they reach.  Order: dev rw -> v_lock. */
static pthread_mutex_t v_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_phys *v_phys;
static struct acl_resv *v_resv;

static aclError need_vmm(struct acl_device *dev)
{
	if (dev->info.capabilities & DRM_ASCEND_CAP_VMM)
		return ACL_SUCCESS;
	return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			  "device %d's driver has no virtual memory management (no DRM_ASCEND_CAP_VMM)",
			  dev->id);
}

static aclError vmm_errno(int e, int dev_id, const char *what)
{
	aclError code = e == ENOSPC || e == EDQUOT || e == ENOMEM ? ACL_ERROR_RT_MEMORY_ALLOCATION :
			e == EMFILE ? ACL_ERROR_RT_RESOURCE_ALLOC_FAIL :
			acl_drv_code(e, ACL_ERROR_RT_PARAM_INVALID);

	return acl_err_at(acl_api_name, code, "device %d: %s: %s", dev_id, what, strerror(e));
}

/* ------------------------------------------------------------------------ */
/* physical allocations */

/* Page policy, P2P and page size of @attr for device memory; false if none. */
static bool attr_policy(aclrtMemAttr attr, uint32_t *policy, bool *p2p, size_t *page)
{
	*p2p = false;
	switch (attr) {
	case ACL_MEM_P2P_NORMAL:
		*p2p = true;
		/* fallthrough */
	case ACL_MEM_NORMAL:
		*policy = DRM_ASCEND_BO_NORMAL_ONLY;
		*page = 4096;
		return true;
	case ACL_MEM_P2P_HUGE:
	case ACL_HBM_MEM_P2P_HUGE:
	case ACL_HBM_MEM_P2P_NORMAL:
		*p2p = true;
		/* fallthrough */
	case ACL_MEM_HUGE:
	case ACL_HBM_MEM_HUGE:
	case ACL_HBM_MEM_NORMAL:	/* CANN: allocated as HBM_MEM_HUGE */
		*policy = DRM_ASCEND_BO_HUGE_ONLY;
		*page = 2UL << 20;
		return true;
	case ACL_MEM_P2P_HUGE1G:
	case ACL_HBM_MEM_P2P_HUGE1G:
		*p2p = true;
		/* fallthrough */
	case ACL_MEM_HUGE1G:
	case ACL_HBM_MEM_HUGE1G:
		*policy = DRM_ASCEND_BO_HUGE1G_ONLY;
		*page = 1UL << 30;
		return true;
	default:
		return false;
	}
}

/* @prop as MallocPhysical and GetAllocationGranularity take it. */
static aclError check_prop(const aclrtPhysicalMemProp *prop, uint32_t *policy, bool *p2p,
			   size_t *page)
{
	if (!prop)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "prop is NULL");
	if (prop->location.type == ACL_MEM_LOCATION_TYPE_HOST ||
	    prop->location.type == ACL_MEM_LOCATION_TYPE_HOST_NUMA)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "physical host memory (location type %d) is not supported: only device memory",
				  (int)prop->location.type);
	if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "prop->location.type %d is not ACL_MEM_LOCATION_TYPE_DEVICE",
				  (int)prop->location.type);
	if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "prop->handleType %d must be ACL_MEM_HANDLE_TYPE_NONE",
				  (int)prop->handleType);
	if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "prop->allocationType %d must be ACL_MEM_ALLOCATION_TYPE_PINNED",
				  (int)prop->allocationType);
	if (!attr_policy(prop->memAttr, policy, p2p, page))
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "prop->memAttr %d is not an attribute of device memory (ACL_MEM_*, ACL_HBM_MEM_HUGE/NORMAL/HUGE1G and their P2P forms)",
				  (int)prop->memAttr);
	return ACL_SUCCESS;
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
					  aclrtMemGranularityOptions option, size_t *granularity)
{
	uint32_t policy;
	size_t page;
	bool p2p;
	aclError ret;

	API_ENTER();
	if (!granularity)
		return acl_err(ACL_ERROR_INVALID_PARAM, "granularity is NULL");
	if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
	    option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "option %d is not ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM or _RECOMMENDED",
			       (int)option);
	ret = check_prop(prop, &policy, &p2p, &page);
	if (ret)
		return ret;
	if (!dev_by_id((int)prop->location.id))
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "prop->location.id %u is not a device (there are %d)",
			       prop->location.id, dev_count());
	/* normal pages: recommended is a huge page's worth, fewer mappings */
	*granularity = option == ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED && page < RESV_ALIGN ?
		       RESV_ALIGN : page;
	return ACL_SUCCESS;
}

static struct acl_phys *phys_new(int dev_id, uint32_t gem, size_t size, uint32_t page_size)
{
	struct acl_phys *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->dev_id = dev_id;
	p->gem = gem;
	p->size = size;
	p->page_size = page_size;
	p->refs = 1;
	return p;
}

/* Link @p as a live handle.  v_lock held. */
static void phys_publish_locked(struct acl_phys *p)
{
	p->next = v_phys;
	v_phys = p;
	handle_add(p, H_PHYS);
}

static void gem_close(int fd, uint32_t gem)
{
	struct drm_gem_close gc = { .handle = gem };

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
			     const aclrtPhysicalMemProp *prop, uint64_t flags)
{
	struct drm_ascend_phys_alloc pa = { 0 };
	struct acl_device *dev;
	struct acl_phys *p;
	uint32_t policy;
	size_t page;
	bool p2p;
	aclError ret;

	API_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	if (flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags %#" PRIx64 " must be 0", flags);
	ret = check_prop(prop, &policy, &p2p, &page);
	if (ret)
		return ret;
	ret = dev_acquire((int)prop->location.id, &dev);
	if (ret)
		return ret;
	ret = need_vmm(dev);
	if (ret)
		goto out;
	pa.size = size;
	pa.policy = policy;
	pa.flags = p2p ? DRM_ASCEND_BO_P2P : 0;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_PHYS_ALLOC, &pa)) {
		ret = vmm_errno(errno, dev->id, "no physical memory of that size and page size");
		goto out;
	}
	p = phys_new(dev->id, pa.handle, pa.alloc_size, pa.page_size);
	if (!p) {
		gem_close(dev->fd, pa.handle);
		ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		goto out;
	}
	p->prop = *prop;
	pthread_mutex_lock(&v_lock);
	phys_publish_locked(p);
	pthread_mutex_unlock(&v_lock);
	*handle = p;
out:
	dev_release(dev);
	return ret;
}

/* Withdraw @p's export (@dev rw read-held, or NULL).  v_lock held. */
static void phys_unexport(struct acl_phys *p, struct acl_device *dev)
{
	struct drm_ascend_ipc_close c = { 0 };

	if (!p->key[0])
		return;
	if (dev && !p->lost) {
		memcpy(c.key, p->key, KEYLEN);
		drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_CLOSE, &c);
	}
	p->key[0] = '\0';
	p->share = 0;
}

/* Free @p if nothing holds it (@dev rw read-held, or NULL).  v_lock held. */
static void phys_put_locked(struct acl_phys *p, struct acl_device *dev)
{
	struct acl_phys **pp;

	if (p->refs || p->maps)
		return;
	for (pp = &v_phys; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	if (dev && !p->lost)
		gem_close(dev->fd, p->gem);
	free(p);
}

/* The live handle @handle with v_lock taken; on failure nothing is held. */
static aclError phys_get(aclrtDrvMemHandle handle, struct acl_phys **out)
{
	pthread_mutex_lock(&v_lock);
	if (!handle || !handle_ok(handle, H_PHYS)) {
		pthread_mutex_unlock(&v_lock);
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "handle %p is not a live physical memory handle (NULL, never allocated, or freed)",
				  handle);
	}
	*out = handle;
	return ACL_SUCCESS;
}

/*
 * The live handle @handle and its device, acquired (dev_acquire()), with
 * v_lock held on success.  A handle whose device was reset is refused:
 * its GEM handle went with the node, and the number may name another
 * object of the node opened since.
 */
static aclError phys_acquire(aclrtDrvMemHandle handle, struct acl_phys **out,
			     struct acl_device **dev)
{
	struct acl_phys *p;
	aclError ret;
	int dev_id;

	/*
	 * Most often the handle is on the thread's current device: lock that
	 * first (the device before v_lock, always) and look the handle up once.
	 */
	*dev = dev_try_acquire_current();
	if (*dev) {
		ret = phys_get(handle, &p);
		if (ret) {
			dev_release(*dev);
			return ret;
		}
		if (!p->lost && p->dev_id == (*dev)->id) {
			*out = p;
			return ACL_SUCCESS;
		}
		pthread_mutex_unlock(&v_lock);
		dev_release(*dev);
	}
	ret = phys_get(handle, &p);
	if (ret)
		return ret;
	dev_id = p->dev_id;
	pthread_mutex_unlock(&v_lock);
	ret = dev_acquire(dev_id, dev);
	if (ret)
		return ret;
	ret = phys_get(handle, &p);
	if (!ret && (p->lost || p->dev_id != dev_id)) {
		pthread_mutex_unlock(&v_lock);
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				 "handle %p was on device %d, which was reset since: free it",
				 handle, dev_id);
	}
	if (ret) {
		dev_release(*dev);
		return ret;
	}
	*out = p;
	return ACL_SUCCESS;
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
	struct acl_device *dev = NULL;
	struct acl_phys *p;
	aclError ret;
	int dev_id;

	API_ENTER();
	ret = phys_get(handle, &p);
	if (ret)
		return ret;
	dev_id = p->dev_id;
	pthread_mutex_unlock(&v_lock);
	if (dev_acquire(dev_id, &dev))
		dev = NULL;	/* reset: its node and handles went with it */
	ret = phys_get(handle, &p);
	if (ret)
		goto out;
	if (--p->refs == 0) {
		handle_del(p);
		/* no new imports; importers keep what they have */
		phys_unexport(p, dev);
		phys_put_locked(p, dev);
	}
	pthread_mutex_unlock(&v_lock);
out:
	if (dev)
		dev_release(dev);
	return ret;
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
						   aclrtPhysicalMemProp *prop)
{
	struct acl_phys *p;
	aclError ret;

	API_ENTER();
	if (!prop)
		return acl_err(ACL_ERROR_INVALID_PARAM, "prop is NULL");
	ret = phys_get(handle, &p);
	if (ret)
		return ret;
	*prop = p->prop;
	pthread_mutex_unlock(&v_lock);
	return ACL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* reservations */

/* The reservation holding [@va, @va + @size).  v_lock held. */
static struct acl_resv *resv_of_locked(uintptr_t va, size_t size)
{
	struct acl_resv *r;

	for (r = v_resv; r; r = r->next)
		if (va >= r->va && va - r->va < r->size && size <= r->size - (va - r->va))
			return r;
	return NULL;
}

aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
				uint64_t flags)
{
	struct drm_ascend_va_reserve vr = { 0 };
	struct drm_ascend_va_release rel = { 0 };
	struct acl_alloc a = { 0 };
	struct acl_device *dev;
	struct acl_resv *r;
	aclError ret;

	API_ENTER();
	if (!virPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	if (flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags %#" PRIx64 " must be 0", flags);
	if (size > SIZE_MAX - RESV_ALIGN)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size %zu is too large", size);
	/* CANN reserves this for later; a power of two of 2 MiB..1 GiB here */
	if (alignment && (alignment & (alignment - 1) || alignment > (1UL << 30)))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "alignment %zu is not 0 or a power of two up to 1 GiB", alignment);
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	ret = need_vmm(dev);
	if (ret)
		goto out;
	vr.size = (size + RESV_ALIGN - 1) & ~(RESV_ALIGN - 1);
	vr.align = alignment && alignment < RESV_ALIGN ? RESV_ALIGN : alignment;
	vr.va = (uintptr_t)expectPtr;
	if (expectPtr && vr.align && (vr.va & (vr.align - 1))) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM, "expectPtr %p is not aligned to %zu",
			      expectPtr, (size_t)vr.align);
		goto out;
	}
	if (expectPtr && !vr.align && (vr.va & (RESV_ALIGN - 1))) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM, "expectPtr %p is not 2 MiB aligned",
			      expectPtr);
		goto out;
	}
	if (expectPtr && !vr.align)
		vr.align = RESV_ALIGN;	/* the kernel's default could be 1 GiB */
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_VA_RESERVE, &vr)) {
		int e = errno;

		if (expectPtr && (e == EEXIST || e == EINVAL))
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
				      "[%p, +%zu) cannot be reserved on device %d: %s",
				      expectPtr, (size_t)vr.size, dev->id,
				      e == EEXIST ? "part of it is in use" :
				      "it is not inside the device's VA window");
		else
			ret = vmm_errno(e, dev->id, "no VA range to reserve");
		goto out;
	}
	r = calloc(1, sizeof(*r));
	a.va = (uintptr_t)vr.va;
	a.size = a.user_size = (size_t)vr.size;
	a.page_size = RESV_ALIGN;
	a.dev_id = dev->id;
	a.kind = ALLOC_DEVICE;
	a.hflags = DEV_F_RESERVED;
	if (!r || addrmap_insert(&a)) {
		free(r);
		rel.va = vr.va;
		drmIoctl(dev->fd, DRM_IOCTL_ASCEND_VA_RELEASE, &rel);
		ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		goto out;
	}
	r->dev_id = dev->id;
	r->va = a.va;
	r->size = a.size;
	pthread_mutex_lock(&v_lock);
	r->next = v_resv;
	v_resv = r;
	pthread_mutex_unlock(&v_lock);
	*virPtr = (void *)a.va;
out:
	dev_release(dev);
	return ret;
}

aclError aclrtReleaseMemAddress(void *virPtr)
{
	struct drm_ascend_va_release rel = { .va = (uintptr_t)virPtr };
	struct acl_resv *r, **pp;
	struct acl_device *dev;
	aclError ret;
	int dev_id = -1;

	API_ENTER();
	if (!virPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
	pthread_mutex_lock(&v_lock);
	r = resv_of_locked((uintptr_t)virPtr, 1);
	if (r && r->va == (uintptr_t)virPtr)
		dev_id = r->dev_id;
	pthread_mutex_unlock(&v_lock);
	if (dev_id < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is not the start of a live reservation (aclrtReserveMemAddress)",
			       virPtr);
	ret = dev_acquire(dev_id, &dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&v_lock);
	for (pp = &v_resv; *pp; pp = &(*pp)->next)
		if ((*pp)->va == (uintptr_t)virPtr && (*pp)->dev_id == dev_id)
			break;
	r = *pp;
	if (!r) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID, "%p was released by another thread meanwhile",
			      virPtr);
	} else if (r->maps) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "[%p, +%zu) still has mappings: unmap them first (aclrtUnmapMem)",
			      virPtr, r->size);
	} else if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_VA_RELEASE, &rel)) {
		ret = vmm_errno(errno, dev_id, "releasing the reservation failed");
	} else {
		*pp = r->next;
		addrmap_remove(r->va, NULL);
		free(r);
	}
	pthread_mutex_unlock(&v_lock);
	dev_release(dev);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* mappings */

/*
 * Records of unmapped mappings kept for the next aclrtMapMem: a pool that
 * grows and shrinks by mapping and unmapping chunks would otherwise pay a
 * calloc and a free per pair, about a sixth of the pair's library time.
 * Both v_lock held.
 */
#define VMAP_SPARES	16
static struct acl_vmap *v_spare;	/* linked by next */
static unsigned int v_nspare;

static struct acl_vmap *vmap_new_locked(void)
{
	struct acl_vmap *m = v_spare;

	if (!m)
		return calloc(1, sizeof(*m));
	v_spare = m->next;
	v_nspare--;
	memset(m, 0, sizeof(*m));
	return m;
}

static void vmap_free_locked(struct acl_vmap *m)
{
	if (v_nspare >= VMAP_SPARES) {
		free(m);
		return;
	}
	m->next = v_spare;
	v_spare = m;
	v_nspare++;
}

static aclError map_mem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
			uint64_t flags, bool noaccess)
{
	struct drm_ascend_va_map vm = { 0 };
	struct acl_device *dev;
	struct acl_vmap *m = NULL;
	struct acl_resv *r;
	struct acl_phys *p;
	aclError ret;
	int dev_id;

	if (!virPtr)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
	if (!size)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "size is 0");
	if (flags)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "flags %#" PRIx64 " must be 0", flags);
	ret = phys_acquire(handle, &p, &dev);
	if (ret)
		return ret;
	dev_id = dev->id;
	r = resv_of_locked((uintptr_t)virPtr, size);
	if (!r) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				 "[%p, +%zu) is not inside one reservation (aclrtReserveMemAddress)",
				 virPtr, size);
	} else if (r->dev_id != p->dev_id) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				 "the reservation at %p is device %d's and the physical memory device %d's",
				 (void *)r->va, r->dev_id, p->dev_id);
	} else if (offset > p->size || size > p->size - offset) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				 "[%zu, +%zu) is not inside the %zu-byte physical allocation",
				 offset, size, p->size);
	} else if (p->page_size && ((uintptr_t)virPtr | size | offset) & (p->page_size - 1)) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				 "virPtr %p, size %zu and offset %zu must be multiples of the allocation's %u-byte pages (aclrtMemGetAllocationGranularity)",
				 virPtr, size, offset, p->page_size);
	} else if (!(m = vmap_new_locked())) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_BAD_ALLOC, "out of host memory");
	} else {
		vm.va = (uintptr_t)virPtr;
		vm.size = size;
		vm.offset = offset;
		vm.handle = p->gem;
		vm.flags = noaccess ? DRM_ASCEND_VA_MAP_NOACCESS : 0;
		if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_VA_MAP, &vm)) {
			int e = errno;

			ret = e == EEXIST ?
			      acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
					 "part of [%p, +%zu) is mapped already", virPtr, size) :
			      vmm_errno(e, dev_id, "mapping failed");
			vmap_free_locked(m);
		}
	}
	if (!ret) {
		m->va = (uintptr_t)virPtr;
		m->size = size;
		m->phys = p;
		m->access = noaccess ? ACL_RT_MEM_ACCESS_FLAGS_NONE :
				       ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
		m->next = r->maps;
		r->maps = m;
		p->maps++;
	}
	pthread_mutex_unlock(&v_lock);
	dev_release(dev);
	return ret;
}

aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
		     uint64_t flags)
{
	API_ENTER();
	return map_mem(virPtr, size, offset, handle, flags, false);
}

aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
			     uint64_t flags)
{
	API_ENTER();
	return map_mem(virPtr, size, offset, handle, flags, true);
}

/* The mapping starting at @va (in *@rp's list).  v_lock held. */
static struct acl_vmap **vmap_at_locked(uintptr_t va, struct acl_resv **rp)
{
	struct acl_resv *r = resv_of_locked(va, 1);
	struct acl_vmap **pp;

	*rp = r;
	if (!r)
		return NULL;
	for (pp = &r->maps; *pp; pp = &(*pp)->next)
		if ((*pp)->va == va)
			return pp;
	return NULL;
}

/* The device of the reservation holding @p, acquired (dev_acquire()). */
static aclError resv_acquire(const void *p, struct acl_device **dev)
{
	struct acl_resv *r;
	int id;

	pthread_mutex_lock(&v_lock);
	r = resv_of_locked((uintptr_t)p, 1);
	id = r ? r->dev_id : -1;
	pthread_mutex_unlock(&v_lock);
	if (id < 0)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%p is not inside a reservation (aclrtReserveMemAddress)", p);
	return dev_acquire(id, dev);
}

aclError aclrtUnmapMem(void *virPtr)
{
	struct drm_ascend_va_unmap um = { .va = (uintptr_t)virPtr };
	struct acl_vmap **pp, *m;
	struct acl_device *dev;
	struct acl_resv *r;
	aclError ret;
	int dev_id;

	API_ENTER();
	if (!virPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
	/* as phys_acquire(): the current device first, most often the one */
	dev = dev_try_acquire_current();
	if (dev) {
		pthread_mutex_lock(&v_lock);
		r = resv_of_locked((uintptr_t)virPtr, 1);
		if (!r || r->dev_id != dev->id) {
			pthread_mutex_unlock(&v_lock);
			dev_release(dev);
			dev = NULL;
		}
	}
	if (!dev) {
		ret = resv_acquire(virPtr, &dev);
		if (ret)
			return ret;
		pthread_mutex_lock(&v_lock);
	}
	dev_id = dev->id;
	pp = vmap_at_locked((uintptr_t)virPtr, &r);
	if (!pp) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "no mapping starts at %p (aclrtMapMem)", virPtr);
	} else if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_VA_UNMAP, &um)) {
		ret = vmm_errno(errno, dev_id, "unmapping failed");
	} else {
		m = *pp;
		*pp = m->next;
		m->phys->maps--;
		phys_put_locked(m->phys, dev);
		vmap_free_locked(m);
	}
	pthread_mutex_unlock(&v_lock);
	dev_release(dev);
	return ret;
}

aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle)
{
	struct acl_vmap **pp;
	struct acl_resv *r;

	API_ENTER();
	if (!virPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	pthread_mutex_lock(&v_lock);
	pp = vmap_at_locked((uintptr_t)virPtr, &r);
	if (!pp) {
		pthread_mutex_unlock(&v_lock);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "no mapping starts at %p (aclrtMapMem)", virPtr);
	}
	/* a handle freed while mapped comes back to life */
	if ((*pp)->phys->refs++ == 0)
		handle_add((*pp)->phys, H_PHYS);
	*handle = (*pp)->phys;
	pthread_mutex_unlock(&v_lock);
	return ACL_SUCCESS;
}

static aclError check_access_flags(uint32_t flags)
{
	if (flags == ACL_RT_MEM_ACCESS_FLAGS_NONE || flags == ACL_RT_MEM_ACCESS_FLAGS_READ ||
	    flags == ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
		return ACL_SUCCESS;
	return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
			  "access flags %#x are not ACL_RT_MEM_ACCESS_FLAGS_NONE, _READ or _READWRITE",
			  flags);
}

/* Can device @id reach device @owner's memory (itself, or peer access)? */
static bool reaches(int id, int owner)
{
	const struct acl_device *d = dev_by_id(id);

	return id == owner ||
	       (d && owner < 64 && (__atomic_load_n(&d->peer_mask, __ATOMIC_ACQUIRE) >> owner & 1));
}

aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count)
{
	struct drm_ascend_va_protect pr = { .va = (uintptr_t)virPtr, .size = size };
	struct acl_device *dev;
	struct acl_vmap **pp, *m;
	struct acl_resv *r;
	aclError ret;
	size_t i;
	int dev_id;

	API_ENTER();
	if (!virPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
	if (!desc)
		return acl_err(ACL_ERROR_INVALID_PARAM, "desc is NULL");
	if (!count)
		return acl_err(ACL_ERROR_INVALID_PARAM, "count is 0");
	for (i = 0; i < count; i++) {
		ret = check_access_flags(desc[i].flags);
		if (ret)
			return ret;
		if (desc[i].location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
			return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				       "desc[%zu]: only devices can be given access (location type %d is not ACL_MEM_LOCATION_TYPE_DEVICE)",
				       i, (int)desc[i].location.type);
		if (!dev_by_id((int)desc[i].location.id))
			return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
				       "desc[%zu].location.id %u is not a device", i,
				       desc[i].location.id);
	}
	ret = resv_acquire(virPtr, &dev);
	if (ret)
		return ret;
	dev_id = dev->id;
	pthread_mutex_lock(&v_lock);
	pp = vmap_at_locked((uintptr_t)virPtr, &r);
	m = pp ? *pp : NULL;
	if (!m || m->size != size) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "[%p, +%zu) is not a mapping (aclrtMapMem's virPtr and size)",
			      virPtr, size);
		goto out;
	}
	/* every entry checked before any takes effect */
	for (i = 0; i < count && !ret; i++) {
		int id = (int)desc[i].location.id;

		if (id == dev_id)
			continue;
		if (!reaches(id, dev_id))
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
				      "device %d has no peer access to device %d (aclrtDeviceEnablePeerAccess first)",
				      id, dev_id);
		else if (desc[i].flags == ACL_RT_MEM_ACCESS_FLAGS_READ)
			ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				      "read-only access for another device (%d) is not supported: peers get READWRITE or NONE",
				      id);
	}
	for (i = 0; i < count && !ret; i++) {
		int id = (int)desc[i].location.id;

		if (id != dev_id) {
			if (desc[i].flags == ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
				m->peers |= 1ULL << id;
			else
				m->peers &= ~(1ULL << id);
			continue;
		}
		pr.access = desc[i].flags;
		if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_VA_PROTECT, &pr))
			ret = vmm_errno(errno, dev_id, "changing the access failed");
		else
			m->access = desc[i].flags;
	}
out:
	pthread_mutex_unlock(&v_lock);
	dev_release(dev);
	return ret;
}

aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag)
{
	struct acl_vmap **pp;
	struct acl_resv *r;
	int id;

	API_ENTER();
	if (!virPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
	if (!location)
		return acl_err(ACL_ERROR_INVALID_PARAM, "location is NULL");
	if (!flag)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag is NULL");
	if (location->type != ACL_MEM_LOCATION_TYPE_DEVICE &&
	    location->type != ACL_MEM_LOCATION_TYPE_HOST)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "location->type %d is not ACL_MEM_LOCATION_TYPE_HOST or _DEVICE",
			       (int)location->type);
	pthread_mutex_lock(&v_lock);
	pp = vmap_at_locked((uintptr_t)virPtr, &r);
	if (!pp) {
		pthread_mutex_unlock(&v_lock);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "no mapping starts at %p (aclrtMapMem)", virPtr);
	}
	id = (int)location->id;
	if (location->type == ACL_MEM_LOCATION_TYPE_HOST)
		*flag = ACL_RT_MEM_ACCESS_FLAGS_NONE;	/* the host never maps it */
	else if (id == r->dev_id)
		*flag = (*pp)->access;
	else
		*flag = id >= 0 && id < 64 && ((*pp)->peers >> id & 1) ?
			ACL_RT_MEM_ACCESS_FLAGS_READWRITE : ACL_RT_MEM_ACCESS_FLAGS_NONE;
	pthread_mutex_unlock(&v_lock);
	return ACL_SUCCESS;
}

bool vmm_mapping_of(const void *p, uintptr_t *base, size_t *size, uint32_t *page_size)
{
	uintptr_t v = (uintptr_t)p;
	struct acl_resv *r;
	struct acl_vmap *m;
	bool found = false;

	pthread_mutex_lock(&v_lock);
	r = resv_of_locked(v, 1);
	for (m = r ? r->maps : NULL; m && !found; m = m->next) {
		if (v - m->va < m->size) {
			*base = m->va;
			*size = m->size;
			*page_size = m->phys->page_size;
			found = true;
		}
	}
	pthread_mutex_unlock(&v_lock);
	return found;
}

/* ------------------------------------------------------------------------ */
/* sharing between processes */

static void key_of_share(uint64_t share, char key[KEYLEN])
{
	snprintf(key, KEYLEN, "%016" PRIx64, share);
	memset(key + DRM_ASCEND_IPC_PHYS_KEY_DIGITS, '0', KEYLEN - 1 - DRM_ASCEND_IPC_PHYS_KEY_DIGITS);
	key[KEYLEN - 1] = '\0';
}

static uint64_t share_of_key(const char key[KEYLEN])
{
	char digits[DRM_ASCEND_IPC_PHYS_KEY_DIGITS + 1];

	memcpy(digits, key, DRM_ASCEND_IPC_PHYS_KEY_DIGITS);
	digits[DRM_ASCEND_IPC_PHYS_KEY_DIGITS] = '\0';
	return strtoull(digits, NULL, 16);
}

static aclError export_phys(aclrtDrvMemHandle handle, uint64_t flags, uint64_t *share)
{
	struct acl_device *dev;
	struct acl_phys *p;
	char key[KEYLEN];
	aclError ret;

	if (!share)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "shareableHandle is NULL");
	if (flags & ~ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "flags %#" PRIx64 " are not ACL_RT_VMM_EXPORT_FLAG_DEFAULT or _DISABLE_PID_VALIDATION",
				  flags);
	ret = phys_acquire(handle, &p, &dev);
	if (ret)
		return ret;
	if (p->key[0]) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				 "handle %p is exported already (as %#" PRIx64 "): one shareable handle per handle",
				 handle, p->share);
	} else {
		ret = ipc_export(dev, DRM_ASCEND_IPC_PHYS,
				 flags ? DRM_ASCEND_IPC_NO_PID_CHECK : 0, 0, 0, p->gem, key);
		if (!ret) {
			memcpy(p->key, key, KEYLEN);
			p->share = share_of_key(key);
			*share = p->share;
		}
	}
	pthread_mutex_unlock(&v_lock);
	dev_release(dev);
	return ret;
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
					 uint64_t flags, uint64_t *shareableHandle)
{
	API_ENTER();
	if (handleType != ACL_MEM_HANDLE_TYPE_NONE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "handleType %d must be ACL_MEM_HANDLE_TYPE_NONE", (int)handleType);
	return export_phys(handle, flags, shareableHandle);
}

static aclError check_share_type(aclrtMemSharedHandleType t, const void *h)
{
	if (!h)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "shareableHandle is NULL");
	if (t == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "fabric handles (sharing across servers) are not supported");
	if (t != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "shareType %d is not ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT", (int)t);
	return ACL_SUCCESS;
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
					   aclrtMemSharedHandleType shareType, void *shareableHandle)
{
	aclError ret;

	API_ENTER();
	ret = check_share_type(shareType, shareableHandle);
	if (ret)
		return ret;
	return export_phys(handle, flags, shareableHandle);
}

static aclError set_pid(uint64_t share, int32_t *pid, size_t num)
{
	struct acl_device *dev;
	struct acl_phys *p;
	char key[KEYLEN];
	aclError ret;
	int dev_id = -1;

	ret = ipc_check_pids(pid, num);
	if (ret)
		return ret;
	pthread_mutex_lock(&v_lock);
	for (p = v_phys; p; p = p->next) {
		if (p->share == share && p->key[0] && !p->lost) {
			dev_id = p->dev_id;
			memcpy(key, p->key, KEYLEN);
			break;
		}
	}
	pthread_mutex_unlock(&v_lock);
	if (dev_id < 0 || !share)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "shareable handle %#" PRIx64 " is not one this process exported (or its handle was freed)",
				  share);
	ret = dev_acquire(dev_id, &dev);
	if (ret)
		return ret;
	ret = ipc_set_pids(dev, key, pid, num);
	dev_release(dev);
	return ret;
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum)
{
	API_ENTER();
	return set_pid(shareableHandle, pid, pidNum);
}

aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType,
					   int32_t *pid, size_t pidNum)
{
	aclError ret;

	API_ENTER();
	ret = check_share_type(shareType, shareableHandle);
	if (ret)
		return ret;
	return set_pid(*(const uint64_t *)shareableHandle, pid, pidNum);
}

static aclError import_phys(uint64_t share, int32_t dev_id, aclrtDrvMemHandle *handle)
{
	struct drm_ascend_ipc_import im;
	struct acl_device *dev;
	struct acl_phys *p;
	char key[KEYLEN];
	aclError ret;

	if (!handle)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "handle is NULL");
	ret = dev_acquire(dev_id, &dev);
	if (ret)
		return ret;
	ret = need_vmm(dev);
	if (ret)
		goto out;
	key_of_share(share, key);
	ret = ipc_import(dev, key, DRM_ASCEND_IPC_PHYS, &im);
	if (ret) {
		if (ret == ACL_ERROR_RT_PARAM_INVALID)
			ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
					 "shareable handle %#" PRIx64 " is unknown on device %d, was freed by its exporter, or process %d is not on its allow-list (aclrtMemSetPidToShareableHandle)",
					 share, dev->id, (int)getpid());
		goto out;
	}
	p = phys_new(dev->id, im.handle, (size_t)im.size, im.page_size);
	if (!p) {
		gem_close(dev->fd, im.handle);
		ret = acl_err_at(acl_api_name, ACL_ERROR_BAD_ALLOC, "out of host memory");
		goto out;
	}
	p->prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p->prop.location.id = (uint32_t)dev->id;
	p->prop.memAttr = p->page_size == 4096 ? ACL_MEM_NORMAL :
			  p->page_size == 1U << 30 ? ACL_MEM_HUGE1G : ACL_MEM_HUGE;
	pthread_mutex_lock(&v_lock);
	phys_publish_locked(p);
	pthread_mutex_unlock(&v_lock);
	*handle = p;
out:
	dev_release(dev);
	return ret;
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
					   aclrtDrvMemHandle *handle)
{
	API_ENTER();
	return import_phys(shareableHandle, deviceId, handle);
}

aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType,
					     uint64_t flags, aclrtDrvMemHandle *handle)
{
	aclError ret;
	int32_t dev_id;

	API_ENTER();
	ret = check_share_type(shareType, shareableHandle);
	if (ret)
		return ret;
	if (flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags %#" PRIx64 " must be 0", flags);
	ret = aclrtGetDevice(&dev_id);
	if (ret)
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "no device is set in this thread (call aclrtSetDevice first)");
	return import_phys(*(const uint64_t *)shareableHandle, dev_id, handle);
}

/* ------------------------------------------------------------------------ */
/* sharing by file descriptor (acl/ascend_ext.h) */

aclError ascendMemExportToFd(aclrtDrvMemHandle handle, int *fd)
{
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC };
	struct acl_device *dev;
	struct acl_phys *p;
	aclError ret;

	API_ENTER();
	if (!fd)
		return acl_err(ACL_ERROR_INVALID_PARAM, "fd is NULL");
	ret = phys_acquire(handle, &p, &dev);
	if (ret)
		return ret;
	ph.handle = p->gem;
	if (drmIoctl(dev->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph))
		ret = vmm_errno(errno, dev->id, "making a dma-buf of the allocation failed");
	else
		*fd = ph.fd;
	pthread_mutex_unlock(&v_lock);
	dev_release(dev);
	return ret;
}

aclError ascendMemImportFromFd(int fd, int32_t deviceId, aclrtDrvMemHandle *handle)
{
	struct drm_prime_handle ph = { .fd = fd };
	struct acl_device *dev;
	struct acl_phys *p;
	aclError ret;
	off_t size;

	API_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	if (fd < 0)
		return acl_err(ACL_ERROR_INVALID_PARAM, "fd %d is not a file descriptor", fd);
	ret = dev_acquire(deviceId, &dev);
	if (ret)
		return ret;
	ret = need_vmm(dev);
	if (ret)
		goto out;
	if (drmIoctl(dev->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph)) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "fd %d is not physical memory of device %d (a dma-buf from ascendMemExportToFd on that device): %s",
			      fd, dev->id, strerror(errno));
		goto out;
	}
	pthread_mutex_lock(&v_lock);
	/* PRIME gives a file one handle per object: it may be one we hold */
	for (p = v_phys; p; p = p->next) {
		if (p->dev_id == dev->id && p->gem == ph.handle && !p->lost) {
			if (p->refs++ == 0)
				handle_add(p, H_PHYS);
			*handle = p;
			pthread_mutex_unlock(&v_lock);
			goto out;
		}
	}
	size = lseek(fd, 0, SEEK_END);
	p = size > 0 ? phys_new(dev->id, ph.handle, (size_t)size, 0) : NULL;
	if (!p) {
		pthread_mutex_unlock(&v_lock);
		gem_close(dev->fd, ph.handle);
		ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		goto out;
	}
	/* the page size is the kernel's to check at each map */
	p->prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p->prop.location.id = (uint32_t)dev->id;
	p->prop.memAttr = ACL_MEM_NORMAL;
	phys_publish_locked(p);
	pthread_mutex_unlock(&v_lock);
	*handle = p;
out:
	dev_release(dev);
	return ret;
}

/* ------------------------------------------------------------------------ */

/* Device reset: its node went, and with it every handle and range on it. */
void vmm_release_device(struct acl_device *dev)
{
	struct acl_resv **rp = &v_resv, *r;
	struct acl_vmap *m;
	struct acl_phys *p;

	pthread_mutex_lock(&v_lock);
	while ((r = *rp)) {
		if (r->dev_id != dev->id) {
			rp = &r->next;
			continue;
		}
		*rp = r->next;
		while ((m = r->maps)) {
			r->maps = m->next;
			m->phys->maps--;
			free(m);
		}
		free(r);	/* the address map entry goes with the device's */
	}
	for (p = v_phys; p; p = p->next) {
		if (p->dev_id == dev->id) {
			p->lost = true;
			p->key[0] = '\0';
			p->share = 0;
		}
	}
	/* handles the caller freed and only mappings held */
	for (p = v_phys; p;) {
		struct acl_phys *next = p->next;

		if (p->lost && !p->refs && !p->maps)
			phys_put_locked(p, NULL);
		p = next;
	}
	pthread_mutex_unlock(&v_lock);
}
