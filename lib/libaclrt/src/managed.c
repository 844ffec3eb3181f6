// SPDX-License-Identifier: MIT
/*
 * managed.c - managed (unified) memory: aclrtMemAllocManaged, the
 * prefetches, advice and range attributes.
 *
 * The driver does the work (DRM_IOCTL_ASCEND_MANAGED_*): an allocation has
 * a VA in the device's window, and the process maps the object there, over
 * the window's PROT_NONE reservation, so one pointer works on both sides;
 * its 2 MiB chunks move to whichever side touches them
 * (Documentation/userspace/managed.rst).  The allocation is an ordinary
 * device allocation in the address map (DEV_F_MANAGED), so copies, fills
 * and kernels take it like aclrtMalloc memory, and aclrtFree frees it.
 *
 * A prefetch is a host function on the stream (hostfunc_launch()): it runs
 * after the stream's earlier work and the stream's later work waits for
 * it, as CANN orders the prefetch task.  A prefetch that cannot be done
 * (no device memory) leaves the memory where it is: the device's touch
 * asks for it again.  Advice is recorded per 2 MiB chunk (CANN requires
 * 2 MiB aligned ranges) and reported by aclrtMemManagedGetAttr(s); it does
 * not change where the driver puts memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drm.h>

#include "internal.h"

#define CHUNK		DRM_ASCEND_MANAGED_CHUNK
#define LOC_NONE	(-2)	/* CANN: no common location (or none set) */
#define LOC_HOST	(-1)

/* The advice of one chunk. */
struct chunk_attr {
	uint8_t read_mostly;
	uint8_t pref_type;		/* aclrtMemManagedLocationType, 0: none */
	uint8_t last_type;		/* of the last prefetch, 0: none */
	uint32_t accessed_by;		/* bit d: device d; bit 31: the host */
	int32_t pref_id;
	int32_t last_id;
};

/* A managed allocation's advice; m_lock protects the list and contents. */
struct managed_rec {
	struct managed_rec *next;
	uintptr_t va;
	size_t size;
	struct chunk_attr *attr;	/* size / CHUNK entries */
};

static pthread_mutex_t m_lock = PTHREAD_MUTEX_INITIALIZER;
static struct managed_rec *m_recs;

#define ACCESSED_BY_HOST	(1U << 31)

static void rec_add_locked(struct managed_rec *r)
{
	r->next = m_recs;
	m_recs = r;
}

/* The record of the allocation holding [p, p + size), or NULL. */
static struct managed_rec *rec_of_locked(uintptr_t p, size_t size)
{
	struct managed_rec *r;

	for (r = m_recs; r; r = r->next)
		if (p >= r->va && p - r->va < r->size && size <= r->size - (p - r->va))
			return r;
	return NULL;
}

static void rec_drop(uintptr_t va)
{
	struct managed_rec **pp, *r;

	pthread_mutex_lock(&m_lock);
	for (pp = &m_recs; (r = *pp); pp = &r->next)
		if (r->va == va) {
			*pp = r->next;
			free(r->attr);
			free(r);
			break;
		}
	pthread_mutex_unlock(&m_lock);
}

/* The window's reservation comes back over the allocation's mapping. */
static void unmap_managed(uintptr_t va, size_t size)
{
	mmap((void *)va, size, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag)
{
	struct drm_ascend_managed_create mc = { 0 };
	struct drm_gem_close gc = { 0 };
	struct acl_alloc a = { 0 };
	struct managed_rec *r;
	struct acl_device *dev;
	aclError ret;
	void *p;

	API_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	if (flag != ACL_RT_MEM_ATTACH_GLOBAL)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag %#x is not ACL_RT_MEM_ATTACH_GLOBAL (1), the only one supported",
			       flag);
	if (size > DRM_ASCEND_MANAGED_MAX_BYTES)
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "size %" PRIu64 " is more than the %llu bytes of managed memory one process may hold",
			       size, (unsigned long long)DRM_ASCEND_MANAGED_MAX_BYTES);
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	r = calloc(1, sizeof(*r));
	if (r)
		r->attr = calloc((size + CHUNK - 1) / CHUNK, sizeof(*r->attr));
	if (!r || !r->attr) {
		free(r);
		dev_release(dev);
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	mc.size = size;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_MANAGED_CREATE, &mc)) {
		int e = errno;

		ret = e == EDQUOT || e == ENOSPC || e == ENOMEM ?
		      acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			      "device %d: no room for %" PRIu64 " bytes of managed memory: %s",
			      dev->id, size, e == EDQUOT ?
			      "this process holds too much managed memory already" :
			      strerror(e)) :
		      acl_err(acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			      "device %d: allocating %" PRIu64 " bytes of managed memory failed: %s",
			      dev->id, size, strerror(e));
		goto err_free;
	}
	gc.handle = mc.handle;
	p = mmap((void *)(uintptr_t)mc.va, mc.alloc_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, dev->fd, mc.mmap_offset);
	if (p == MAP_FAILED) {
		ret = acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			      "device %d: mapping %llu bytes of managed memory failed: %s",
			      dev->id, (unsigned long long)mc.alloc_size, strerror(errno));
		goto err_close;
	}
	a.va = (uintptr_t)mc.va;
	a.size = mc.alloc_size;
	a.user_size = size;
	a.handle = mc.handle;
	a.page_size = CHUNK;
	a.dev_id = dev->id;
	a.kind = ALLOC_DEVICE;
	a.hflags = DEV_F_MANAGED;
	r->va = a.va;
	r->size = a.size;
	if (addrmap_insert(&a)) {
		ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		unmap_managed(a.va, a.size);
		goto err_close;
	}
	pthread_mutex_lock(&m_lock);
	rec_add_locked(r);
	pthread_mutex_unlock(&m_lock);
	dev_release(dev);
	*ptr = p;
	return ACL_SUCCESS;

err_close:
	drmIoctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &gc);
err_free:
	free(r->attr);
	free(r);
	dev_release(dev);
	return ret;
}

void managed_free(struct acl_device *dev, const struct acl_alloc *a)
{
	struct drm_gem_close gc = { .handle = a->handle };

	rec_drop(a->va);
	/* the mapping first: the object goes with its last reference */
	unmap_managed(a->va, a->size);
	drmIoctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

void managed_release_device(const struct acl_alloc *a)
{
	/* the node closes next; the mapping would outlive it as host memory */
	rec_drop(a->va);
	unmap_managed(a->va, a->size);
}

/* ------------------------------------------------------------------------ */
/* Prefetch */

struct prefetch {
	int dev_id;
	struct drm_ascend_managed_migrate mm;
};

/* The host function: on the library's thread, in stream order. */
static void prefetch_run(void *arg)
{
	struct prefetch *pf = arg;
	struct acl_device *dev;

	/* a failed prefetch leaves the memory where it was: a hint */
	if (!dev_acquire(pf->dev_id, &dev)) {
		drmIoctl(dev->fd, DRM_IOCTL_ASCEND_MANAGED_MIGRATE, &pf->mm);
		dev_release(dev);
	}
	free(pf);
}

/* Check a location a prefetch or an advice names; *@target the driver's. */
static aclError check_location(const aclrtMemManagedLocation *loc, int dev_id,
			       uint32_t *target)
{
	switch (loc->type) {
	case ACL_MEM_LOCATIONTYPE_DEVICE:
		if (loc->id != dev_id)
			return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
					  "location is device %d, but the memory is device %d's (one device per managed allocation here)",
					  (int)loc->id, dev_id);
		*target = DRM_ASCEND_MANAGED_TO_DEVICE;
		return ACL_SUCCESS;
	case ACL_MEM_LOCATIONTYPE_HOST:
	case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
	case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
		/* one host NUMA node here: every host location is the host */
		*target = DRM_ASCEND_MANAGED_TO_HOST;
		return ACL_SUCCESS;
	default:
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "location type %d is not a device or host location",
				  (int)loc->type);
	}
}

/*
 * [p, p + size) inside one managed allocation, 2 MiB aligned as CANN
 * requires; *@dev_id its device.  m_lock held on success.
 */
static aclError managed_range_locked(const void *p, size_t size, int *dev_id,
				     struct managed_rec **rp)
{
	struct acl_alloc a;

	if (!p)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (!size)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "size is 0");
	if (!addrmap_find((uintptr_t)p, &a) || !(a.hflags & DEV_F_MANAGED))
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "%p is not managed memory (aclrtMemAllocManaged)", p);
	pthread_mutex_lock(&m_lock);
	*rp = rec_of_locked((uintptr_t)p, size);
	if (!*rp) {
		pthread_mutex_unlock(&m_lock);
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "[%p, +%zu) is not inside one managed allocation", p, size);
	}
	*dev_id = a.dev_id;
	return ACL_SUCCESS;
}

static aclError prefetch_one(const void *ptr, size_t size,
			     const aclrtMemManagedLocation *loc, aclrtStream stream)
{
	struct managed_rec *r;
	struct prefetch *pf;
	size_t c, last;
	aclError ret;
	int dev_id;

	ret = managed_range_locked(ptr, size, &dev_id, &r);
	if (ret)
		return ret;
	pf = calloc(1, sizeof(*pf));
	if (!pf) {
		pthread_mutex_unlock(&m_lock);
		return acl_err_at(acl_api_name, ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	ret = check_location(loc, dev_id, &pf->mm.target);
	if (ret) {
		pthread_mutex_unlock(&m_lock);
		free(pf);
		return ret;
	}
	/* what was asked for, whether or not it is done yet (CANN) */
	last = ((uintptr_t)ptr + size - 1 - r->va) / CHUNK;
	for (c = ((uintptr_t)ptr - r->va) / CHUNK; c <= last; c++) {
		r->attr[c].last_type = pf->mm.target == DRM_ASCEND_MANAGED_TO_DEVICE ?
				       ACL_MEM_LOCATIONTYPE_DEVICE : ACL_MEM_LOCATIONTYPE_HOST;
		r->attr[c].last_id = pf->mm.target == DRM_ASCEND_MANAGED_TO_DEVICE ?
				     dev_id : LOC_HOST;
	}
	pthread_mutex_unlock(&m_lock);
	pf->dev_id = dev_id;
	pf->mm.va = (uintptr_t)ptr;
	pf->mm.size = size;
	ret = hostfunc_launch(stream, prefetch_run, pf);
	if (ret)
		free(pf);
	return ret;
}

aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size,
				      aclrtMemManagedLocation location, uint32_t flags,
				      aclrtStream stream)
{
	API_ENTER();
	if (flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags %#x must be 0", flags);
	return prefetch_one(ptr, size, &location, stream);
}

aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
					   aclrtMemManagedLocation *prefetchLocs,
					   size_t *prefetchLocIdxs, size_t numPrefetchLocs,
					   uint64_t flags, aclrtStream stream)
{
	size_t i, k;
	aclError ret;

	API_ENTER();
	if (flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags %#" PRIx64 " must be 0", flags);
	if (!ptrs || !sizes || !prefetchLocs || !prefetchLocIdxs)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptrs, sizes, prefetchLocs and prefetchLocIdxs must not be NULL");
	if (!count || !numPrefetchLocs || numPrefetchLocs > count)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "count %zu and numPrefetchLocs %zu: both > 0, numPrefetchLocs <= count",
			       count, numPrefetchLocs);
	if (prefetchLocIdxs[0])
		return acl_err(ACL_ERROR_INVALID_PARAM, "prefetchLocIdxs[0] is %zu, not 0",
			       prefetchLocIdxs[0]);
	for (k = 1; k < numPrefetchLocs; k++)
		if (prefetchLocIdxs[k] <= prefetchLocIdxs[k - 1] || prefetchLocIdxs[k] >= count)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "prefetchLocIdxs[%zu] is %zu: each entry must be greater than the one before and less than count (%zu)",
				       k, prefetchLocIdxs[k], count);
	/* in order, each on the stream: location k covers its index range */
	for (i = 0, k = 0; i < count; i++) {
		while (k + 1 < numPrefetchLocs && i >= prefetchLocIdxs[k + 1])
			k++;
		ret = prefetch_one(ptrs[i], sizes[i], &prefetchLocs[k], stream);
		if (ret)
			return ret;
	}
	return ACL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Advice and attributes */

static uint32_t location_bit(const aclrtMemManagedLocation *loc)
{
	return loc->type == ACL_MEM_LOCATIONTYPE_DEVICE ? 1U << (loc->id & 15) :
							  ACCESSED_BY_HOST;
}

aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size,
			       aclrtMemManagedAdviseType advise,
			       aclrtMemManagedLocation location)
{
	struct managed_rec *r;
	uint32_t target;
	size_t c, last;
	aclError ret;
	int dev_id;

	API_ENTER();
	if (advise > ACL_MEM_ADVISE_UNSET_ACCESSED_BY)
		return acl_err(ACL_ERROR_INVALID_PARAM, "advise %d is not an aclrtMemManagedAdviseType",
			       (int)advise);
	ret = managed_range_locked(ptr, size, &dev_id, &r);
	if (ret)
		return ret;
	/* READ_MOSTLY names no location (CANN ignores it there) */
	if (advise != ACL_MEM_ADVISE_SET_READ_MOSTLY &&
	    advise != ACL_MEM_ADVISE_UNSET_READ_MOSTLY &&
	    advise != ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION) {
		ret = check_location(&location, dev_id, &target);
		if (ret) {
			pthread_mutex_unlock(&m_lock);
			return ret;
		}
	}
	last = ((uintptr_t)ptr + size - 1 - r->va) / CHUNK;
	for (c = ((uintptr_t)ptr - r->va) / CHUNK; c <= last; c++) {
		struct chunk_attr *at = &r->attr[c];

		switch (advise) {
		case ACL_MEM_ADVISE_SET_READ_MOSTLY:
			at->read_mostly = 1;
			break;
		case ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
			at->read_mostly = 0;
			break;
		case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
			at->pref_type = target == DRM_ASCEND_MANAGED_TO_DEVICE ?
					ACL_MEM_LOCATIONTYPE_DEVICE : ACL_MEM_LOCATIONTYPE_HOST;
			at->pref_id = target == DRM_ASCEND_MANAGED_TO_DEVICE ? dev_id : LOC_HOST;
			break;
		case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
			at->pref_type = 0;
			break;
		case ACL_MEM_ADVISE_SET_ACCESSED_BY:
			at->accessed_by |= location_bit(&location);
			break;
		case ACL_MEM_ADVISE_UNSET_ACCESSED_BY:
			at->accessed_by &= ~location_bit(&location);
			break;
		}
	}
	pthread_mutex_unlock(&m_lock);
	return ACL_SUCCESS;
}

/* One attribute over chunks [c0, c1] of @r into @data; m_lock held. */
static aclError get_attr_locked(const struct managed_rec *r, size_t c0, size_t c1,
				aclrtMemManagedRangeAttribute attribute, void *data,
				size_t size)
{
	bool all_rm = true, same_pref = true, same_last = true;
	const struct chunk_attr *f = &r->attr[c0];
	uint32_t common = ~0U;
	int32_t *out = data;
	size_t c, n, i;

	if (!data)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "data is NULL");
	for (c = c0; c <= c1; c++) {
		const struct chunk_attr *at = &r->attr[c];

		all_rm &= at->read_mostly;
		same_pref &= at->pref_type == f->pref_type && at->pref_id == f->pref_id;
		same_last &= at->last_type == f->last_type && at->last_id == f->last_id;
		common &= at->accessed_by;
	}
	same_pref &= f->pref_type != 0;
	same_last &= f->last_type != 0;
	if (attribute == ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY) {
		if (!size || size % 4)
			return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
					  "dataSize %zu for ACCESSED_BY must be a non-zero multiple of 4",
					  size);
		for (i = 0, n = 0; i < 32 && n < size / 4; i++)
			if (common & (1U << i))
				out[n++] = i == 31 ? LOC_HOST : (int32_t)i;
		while (n < size / 4)
			out[n++] = LOC_NONE;
		return ACL_SUCCESS;
	}
	if (size != 4)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "dataSize %zu must be 4 for attribute %d", size, (int)attribute);
	switch (attribute) {
	case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
		*out = all_rm;
		break;
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
		*out = same_pref ? f->pref_id : LOC_NONE;
		break;
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
		*(aclrtMemManagedLocationType *)data = same_pref ?
			(aclrtMemManagedLocationType)f->pref_type : ACL_MEM_LOCATIONTYPE_INVALID;
		break;
	case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
		*out = same_pref && f->pref_type == ACL_MEM_LOCATIONTYPE_DEVICE ?
		       f->pref_id : LOC_NONE;
		break;
	case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
		*out = same_last ? f->last_id : LOC_NONE;
		break;
	case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
		*(aclrtMemManagedLocationType *)data = same_last ?
			(aclrtMemManagedLocationType)f->last_type : ACL_MEM_LOCATIONTYPE_INVALID;
		break;
	case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
		*out = same_last && f->last_type == ACL_MEM_LOCATIONTYPE_DEVICE ?
		       f->last_id : LOC_NONE;
		break;
	default:
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "attribute %d is not an aclrtMemManagedRangeAttribute",
				  (int)attribute);
	}
	return ACL_SUCCESS;
}

static aclError get_attrs(const aclrtMemManagedRangeAttribute *attributes, size_t n,
			  const void *ptr, size_t size, void **data, const size_t *sizes)
{
	struct managed_rec *r;
	size_t c0, c1, i;
	aclError ret;
	int dev_id;

	ret = managed_range_locked(ptr, size, &dev_id, &r);
	if (ret)
		return ret;
	c0 = ((uintptr_t)ptr - r->va) / CHUNK;
	c1 = ((uintptr_t)ptr + size - 1 - r->va) / CHUNK;
	for (i = 0; i < n && !ret; i++)
		ret = get_attr_locked(r, c0, c1, attributes[i], data[i], sizes[i]);
	pthread_mutex_unlock(&m_lock);
	return ret;
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
				size_t size, void *data, size_t dataSize)
{
	API_ENTER();
	return get_attrs(&attribute, 1, ptr, size, &data, &dataSize);
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes,
				 size_t numAttributes, const void *ptr, size_t size,
				 void **data, size_t *dataSizes)
{
	API_ENTER();
	if (!attributes || !data || !dataSizes)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "attributes, data and dataSizes must not be NULL");
	if (!numAttributes)
		return acl_err(ACL_ERROR_INVALID_PARAM, "numAttributes is 0");
	return get_attrs(attributes, numAttributes, ptr, size, data, dataSizes);
}
