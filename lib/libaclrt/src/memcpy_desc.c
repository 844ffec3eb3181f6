// SPDX-License-Identifier: MIT
/*
 * memcpy_desc.c - copies the device describes to itself:
 * aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc
 * (a 64-byte struct ascend_memcpy_desc kept in device memory, read by the
 * DMA engine when the ring COPY_INDIRECT command executes) and
 * aclrtMemcpyAsyncWithOffset (both base pointers read from device memory
 * when the ring COPY_OFFSET command executes).
 *
 * Codes (facts §7 "Descriptor copies"): NULL pointers, a kind outside the
 * enum (0..7), count 0 in aclrtSetMemcpyDesc, a non-NULL config and a NULL
 * stream for aclrtMemcpyAsyncWithDesc -> 100000 (ACL layer).  A kind inside
 * the enum other than ACL_MEMCPY_INNER_DEVICE_TO_DEVICE -> 207000 (the only
 * kind CANN supports here; checked before the current device, as CANN's
 * runtime does).  A descriptor not 64-byte aligned -> 107000 (CANN's
 * runtime: api_error.cc SetMemcpyDesc, MemcpyAsyncPtr; for
 * aclrtSetMemcpyDesc before the current device too); a base
 * pointer slot not 8-byte aligned -> 107008 (our device reads 8-byte
 * slots; CANN has no such check); a descriptor, slot or range not inside a
 * device allocation, count > 4 GiB, count > destMax -> 107000; memory of
 * another device than the stream's -> 107003.
 *
 * aclrtMemcpyAsyncWithOffset follows CANN's order (api_c_standard_soc.cc
 * rtMemcpyAsyncWithOffset, api_error.cc MemcpyAsync/MemcpyAsyncCheckAddrCfg):
 * count 0 succeeds; any kind but INNER_DEVICE_TO_DEVICE, NULL slots,
 * count > destMax, count > 4 GiB, an offset above 2^48 - 1,
 * dstDataOffset >= destMax and count > destMax - dstDataOffset are all
 * 107000; then the device checks.  destMax is the size of the memory at
 * the destination base, which the offset and count must fit in.
 *
 * aclrtSetMemcpyDesc writes the descriptor with a synchronous host to device
 * copy of its 64 bytes (ordered after the work this process queued, like
 * every synchronous copy), so a later aclrtSetMemcpyDesc or a device-side
 * write of the same memory before the COPY_INDIRECT executes changes what
 * is copied.
 */
#include <string.h>

#include "internal.h"

#define ERR(code, ...) acl_err_at(acl_api_name, (code), __VA_ARGS__)

#define MAX_DESC_COPY	(4ULL << 30)	/* MAX_MEMCPY_SIZE_OF_D2D */
#define MAX_OFFSET	0xFFFFFFFFFFFFULL	/* CANN's limit on copy offsets */

_Static_assert(sizeof(struct ascend_memcpy_desc) == ASCEND_MEMCPY_DESC_SIZE,
	       "descriptor layout");

/* The kind checks shared by all four functions. */
static aclError check_kind(aclrtMemcpyKind kind)
{
	if ((unsigned int)kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
		return ERR(ACL_ERROR_INVALID_PARAM, "kind %d is not a valid aclrtMemcpyKind",
			   (int)kind);
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		return ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			   "kind %d is not supported; only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE (%d)",
			   (int)kind, (int)ACL_MEMCPY_INNER_DEVICE_TO_DEVICE);
	return ACL_SUCCESS;
}

/*
 * @p must be @align-aligned device memory holding @n bytes; its device in
 * *@dev (not acquired).
 */
static aclError check_dev_obj(const char *name, const void *p, size_t n, size_t align,
			      aclError misaligned, struct acl_device **dev)
{
	struct copy_side sd;

	if ((uintptr_t)p % align)
		return ERR(misaligned, "%s %p is not %zu-byte aligned", name, p, align);
	copy_locate(p, &sd);
	if (sd.loc != CL_DEV)
		return ERR(ACL_ERROR_RT_PARAM_INVALID,
			   "%s %p is %s; it must be device memory (aclrtMalloc)", name, p,
			   copy_loc_name[sd.loc]);
	*dev = sd.dev;
	return copy_check_range(name, p, n);
}

/* @p is memory of @dev (ranges: checked by the device when it copies). */
static aclError check_same_dev(const char *name, const void *p, const struct acl_device *dev)
{
	struct copy_side sd;

	copy_locate(p, &sd);
	if (sd.loc != CL_DEV)
		return ERR(ACL_ERROR_RT_PARAM_INVALID,
			   "%s %p is %s; descriptor copies are device to device", name, p,
			   copy_loc_name[sd.loc]);
	if (sd.dev != dev)
		return ERR(ACL_ERROR_RT_PARAM_INVALID,
			   "%s %p is memory of device %d, the descriptor is on device %d", name, p,
			   sd.dev ? sd.dev->id : -1, dev->id);
	return ACL_SUCCESS;
}

static aclError no_ext(const struct acl_device *dev)
{
	return ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		   "device %d's kernel driver cannot copy by descriptor (no DRM_ASCEND_CAP_COPY_EXT)",
		   dev->id);
}

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize)
{
	aclError ret;

	API_ENTER();
	if (!descSize)
		return acl_err(ACL_ERROR_INVALID_PARAM, "descSize is NULL");
	ret = check_kind(kind);
	if (ret)
		return ret;
	*descSize = ASCEND_MEMCPY_DESC_SIZE;
	return ACL_SUCCESS;
}

aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
			    size_t count, void *config)
{
	struct ascend_memcpy_desc d = {
		.magic = ASCEND_MEMCPY_DESC_MAGIC, .version = 1,
		.dst = (uintptr_t)dstAddr, .src = (uintptr_t)srcAddr, .size = count,
	};
	struct acl_device *dev, *cur;
	aclError ret;

	API_ENTER();
	if (!desc)
		return acl_err(ACL_ERROR_INVALID_PARAM, "desc is NULL");
	if ((unsigned int)kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM, "kind %d is not a valid aclrtMemcpyKind",
			       (int)kind);
	if (!srcAddr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "srcAddr is NULL");
	if (!dstAddr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dstAddr is NULL");
	if (!count)
		return acl_err(ACL_ERROR_INVALID_PARAM, "count is 0");
	if (config)
		return acl_err(ACL_ERROR_INVALID_PARAM, "config must be NULL (reserved)");
	/* CANN's runtime: the kind, the count and the alignment, then the
	 * memory (api_error.cc SetMemcpyDesc) */
	ret = check_kind(kind);
	if (ret)
		return ret;
	if (count > MAX_DESC_COPY)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count %zu is larger than 4 GiB, the most a descriptor copies", count);
	if ((uintptr_t)desc % ASCEND_MEMCPY_DESC_ALIGN)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "desc %p is not %d-byte aligned", desc,
			       ASCEND_MEMCPY_DESC_ALIGN);
	ret = dev_acquire_current(&cur);
	if (ret)
		return ret;
	dev_release(cur);
	ret = check_dev_obj("desc", desc, ASCEND_MEMCPY_DESC_SIZE, ASCEND_MEMCPY_DESC_ALIGN,
			    ACL_ERROR_RT_PARAM_INVALID, &dev);
	if (!ret)
		ret = check_same_dev("srcAddr", srcAddr, dev);
	if (!ret)
		ret = check_same_dev("dstAddr", dstAddr, dev);
	if (!ret)
		ret = copy_check_range("srcAddr", srcAddr, count);
	if (!ret)
		ret = copy_check_range("dstAddr", dstAddr, count);
	if (ret)
		return ret;
	ret = dev_acquire(dev->id, &dev);
	if (ret)
		return ret;
	ret = copy_ioctl(dev, desc, &d, sizeof(d), true);
	dev_release(dev);
	return ret;
}

/* Common tail: @cmd onto @stream, whose device must be @owner. */
static aclError submit_on(aclrtStream stream, struct acl_device *owner,
			  const struct ascend_cmd *cmd)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (dev != owner)
		ret = ERR(ACL_ERROR_RT_STREAM_CONTEXT,
			  "stream %p is on device %d but the memory is on device %d",
			  stream, dev->id, owner->id);
	else if (!(dev->info.capabilities & DRM_ASCEND_CAP_COPY_EXT))
		ret = no_ext(dev);
	else
		ret = stream_submit(s, cmd);
	stream_release(s, dev);
	return ret;
}

aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_COPY_INDIRECT };
	struct acl_device *dev, *cur;
	aclError ret;

	API_ENTER();
	if (!desc)
		return acl_err(ACL_ERROR_INVALID_PARAM, "desc is NULL");
	if ((unsigned int)kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM, "kind %d is not a valid aclrtMemcpyKind",
			       (int)kind);
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "stream is NULL; descriptor copies need an explicit stream");
	ret = check_kind(kind);		/* before the context, as CANN's runtime */
	if (ret)
		return ret;
	ret = dev_acquire_current(&cur);
	if (ret)
		return ret;
	dev_release(cur);
	ret = check_dev_obj("desc", desc, ASCEND_MEMCPY_DESC_SIZE, ASCEND_MEMCPY_DESC_ALIGN,
			    ACL_ERROR_RT_PARAM_INVALID, &dev);
	if (ret)
		return ret;
	cmd.copy_indirect.desc = (uintptr_t)desc;
	return submit_on(stream, dev, &cmd);
}

aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
				    const void **src, size_t count, size_t srcDataOffset,
				    aclrtMemcpyKind kind, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_COPY_OFFSET };
	struct acl_device *dev, *sdev, *cur;
	aclError ret;

	API_ENTER();
	if (!count)
		return ACL_SUCCESS;
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "kind %d is not ACL_MEMCPY_INNER_DEVICE_TO_DEVICE (%d), the only kind supported",
			       (int)kind, (int)ACL_MEMCPY_INNER_DEVICE_TO_DEVICE);
	if (!dst)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "dst is NULL");
	if (!src)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "src is NULL");
	if (count > destMax)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "count %zu is larger than destMax %zu",
			       count, destMax);
	if (count > MAX_DESC_COPY)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count %zu is larger than 4 GiB, the most one device copy moves", count);
	if (srcDataOffset > MAX_OFFSET || dstDataOffset > MAX_OFFSET)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s %zu is above the largest offset %#llx",
			       srcDataOffset > MAX_OFFSET ? "srcDataOffset" : "dstDataOffset",
			       srcDataOffset > MAX_OFFSET ? srcDataOffset : dstDataOffset, MAX_OFFSET);
	if (dstDataOffset >= destMax)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dstDataOffset %zu is not inside destMax %zu", dstDataOffset, destMax);
	if (count > destMax - dstDataOffset)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count %zu does not fit destMax %zu after dstDataOffset %zu", count,
			       destMax, dstDataOffset);
	ret = dev_acquire_current(&cur);
	if (ret)
		return ret;
	dev_release(cur);
	ret = check_dev_obj("dst", dst, sizeof(uint64_t), sizeof(uint64_t), ACL_ERROR_RT_ADDR_UNALIGNED,
			    &dev);
	if (!ret)
		ret = check_dev_obj("src", src, sizeof(uint64_t), sizeof(uint64_t),
				    ACL_ERROR_RT_ADDR_UNALIGNED, &sdev);
	if (ret)
		return ret;
	if (sdev != dev)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dst %p is on device %d but src %p on device %d", (void *)dst,
			       dev->id, (const void *)src, sdev->id);
	cmd.copy_offset.dst_slot = (uintptr_t)dst;
	cmd.copy_offset.src_slot = (uintptr_t)src;
	cmd.copy_offset.dst_offset = dstDataOffset;
	cmd.copy_offset.src_offset = srcDataOffset;
	cmd.copy_offset.size = count;
	return submit_on(stream, dev, &cmd);
}
