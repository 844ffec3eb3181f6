// SPDX-License-Identifier: MIT
/*
 * meminfo.c - questions about memory: aclrtGetMemInfo,
 * aclrtPointerGetAttributes, aclrtMemGetAddressRange, aclrtCheckMemType.
 */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define SZ_2M	(2ULL << 20)
#define SZ_1G	(1ULL << 30)

/*
 * DEVICE_INFO of @dev (rw read-held).  *tail says whether the kernel filled
 * the fields from hbm_largest_free on (older kernels answer a shorter
 * structure; the rest is then zero).  Returns 0 or -errno.
 */
int mem_query_info(struct acl_device *dev, struct drm_ascend_device_info *info, bool *tail)
{
	uint32_t size = sizeof(*info);
	int ret;

	memset(info, 0, sizeof(*info));
	ret = devnode_query(dev->fd, DRM_ASCEND_QUERY_DEVICE_INFO, info, &size);
	*tail = !ret && size >= offsetof(struct drm_ascend_device_info, hbm_free_huge1g) +
				sizeof(info->hbm_free_huge1g);
	return ret;
}

enum mem_class { MC_NONE, MC_ALL, MC_HUGE, MC_HUGE1G };

/*
 * Which part of HBM an aclrtMemAttr asks about.  The device has HBM and no
 * DDR: DDR attributes get 0/0, as CANN answers for memory a device lacks.
 * P2P variants are the same memory as their plain counterparts.  The
 * legacy HBM attributes and the newer "runtime picks" ACL_MEM_* ones agree.
 * Returns -1 for a value that is not an aclrtMemAttr.
 */
static int attr_class(aclrtMemAttr attr)
{
	switch (attr) {
	case ACL_DDR_MEM:
	case ACL_DDR_MEM_HUGE:
	case ACL_DDR_MEM_NORMAL:
	case ACL_DDR_MEM_P2P_HUGE:
	case ACL_DDR_MEM_P2P_NORMAL:
		return MC_NONE;
	case ACL_HBM_MEM:
	case ACL_HBM_MEM_NORMAL:
	case ACL_HBM_MEM_P2P_NORMAL:
	case ACL_MEM_NORMAL:
	case ACL_MEM_P2P_NORMAL:
		return MC_ALL;
	case ACL_HBM_MEM_HUGE:
	case ACL_HBM_MEM_P2P_HUGE:
	case ACL_MEM_HUGE:
	case ACL_MEM_P2P_HUGE:
		return MC_HUGE;
	case ACL_HBM_MEM_HUGE1G:
	case ACL_HBM_MEM_P2P_HUGE1G:
	case ACL_MEM_HUGE1G:
	case ACL_MEM_P2P_HUGE1G:
		return MC_HUGE1G;
	}
	return -1;
}

/*
 * free: bytes an allocation of that page class could still get: all free
 * HBM for normal pages, free bytes in blocks of >= 2 MiB for huge pages,
 * in blocks of >= 1 GiB for 1 GiB pages.  total: the device's HBM.  On a
 * kernel that does not report the per-class numbers, free is all free HBM
 * rounded down to the page size (an upper bound).
 */
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *freeSize, size_t *totalSize)
{
	struct drm_ascend_device_info info;
	struct acl_device *dev;
	int cls = attr_class(attr);
	bool tail;
	aclError ret;
	int e;

	API_ENTER();
	if (!freeSize)
		return acl_err(ACL_ERROR_INVALID_PARAM, "free is NULL");
	if (!totalSize)
		return acl_err(ACL_ERROR_INVALID_PARAM, "total is NULL");
	if (cls < 0)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "attr %d is not an aclrtMemAttr (0..%d)", (int)attr,
			       (int)ACL_MEM_P2P_HUGE1G);
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	e = mem_query_info(dev, &info, &tail);
	dev_release(dev);
	if (e)
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "device %d: querying memory failed: %s", dev->id, strerror(-e));
	switch (cls) {
	case MC_NONE:
		*freeSize = 0;
		*totalSize = 0;
		return ACL_SUCCESS;
	case MC_ALL:
		*freeSize = info.hbm_free;
		break;
	case MC_HUGE:
		*freeSize = tail ? info.hbm_free_huge : info.hbm_free / SZ_2M * SZ_2M;
		break;
	default:
		*freeSize = tail ? info.hbm_free_huge1g : info.hbm_free / SZ_1G * SZ_1G;
		break;
	}
	*totalSize = info.hbm_total;
	return ACL_SUCCESS;
}

/*
 * Device memory: DEVICE, its device id and the page size backing the
 * allocation.  acl host memory (aclrtMallocHost, aclrtHostRegister*):
 * HOST, id 0, the host page size.  Anything else (malloc'd, stack, device
 * addresses no live allocation covers): UNREGISTERED with the host page
 * size.  No current device is needed.
 */
aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
	struct acl_alloc a;

	API_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (!attributes)
		return acl_err(ACL_ERROR_INVALID_PARAM, "attributes is NULL");
	memset(attributes, 0, sizeof(*attributes));
	switch (addrmap_classify(ptr, &a)) {
	case ADDR_DEVICE:
		attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		attributes->location.id = (uint32_t)a.dev_id;
		attributes->pageSize = a.page_size;
		if (a.hflags & DEV_F_RESERVED) {	/* the mapping's pages */
			uintptr_t base;
			size_t size;

			vmm_mapping_of(ptr, &base, &size, &attributes->pageSize);
		}
		break;
	case ADDR_HOST:
		attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
		attributes->pageSize = (uint32_t)sysconf(_SC_PAGESIZE);
		break;
	default:
		attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
		attributes->pageSize = (uint32_t)sysconf(_SC_PAGESIZE);
		break;
	}
	return ACL_SUCCESS;
}

/*
 * Base and size of the device allocation containing @ptr.  The size is what
 * the device reserved: the request rounded as aclrtMalloc documents, then
 * up to the allocation's page size.
 */
aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
	struct acl_alloc a;

	API_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (addrmap_classify(ptr, &a) != ADDR_DEVICE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is not inside a live device allocation", ptr);
	/* in a reservation: the mapping holding it (CANN's "mapped block") */
	if ((a.hflags & DEV_F_RESERVED) &&
	    !vmm_mapping_of(ptr, &a.va, &a.size, &a.page_size))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is inside a reservation but not mapped (aclrtMapMem)", ptr);
	if (pbase)
		*pbase = (void *)a.va;
	if (psize)
		*psize = a.size;
	return ACL_SUCCESS;
}

#define MEM_TYPES	(ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD)

/*
 * *checkResult = 1 if every address of @addrList is memory of one of the
 * ACL_RT_MEM_TYPE_* bits in @memType, else 0.  Device memory from
 * aclrtMalloc* is DEV; this runtime has no DVPP memory and no reserved
 * (aclrtReserveMemAddress) ranges, so those bits never match.
 */
aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType,
			   uint32_t *checkResult, uint32_t reserve)
{
	uint32_t i;

	API_ENTER();
	if (!addrList)
		return acl_err(ACL_ERROR_INVALID_PARAM, "addrList is NULL");
	if (!checkResult)
		return acl_err(ACL_ERROR_INVALID_PARAM, "checkResult is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	if (reserve)
		return acl_err(ACL_ERROR_INVALID_PARAM, "reserve is %u, must be 0", reserve);
	if (!memType || (memType & ~MEM_TYPES))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "memType %#x is not a combination of ACL_RT_MEM_TYPE_DEV (0x2), _DVPP (0x8) and _RSVD (0x10)",
			       memType);
	*checkResult = 1;
	for (i = 0; i < size; i++) {
		bool dev = addrmap_classify(addrList[i], NULL) == ADDR_DEVICE;

		if (!(dev && (memType & ACL_RT_MEM_TYPE_DEV))) {
			*checkResult = 0;
			break;
		}
	}
	return ACL_SUCCESS;
}
