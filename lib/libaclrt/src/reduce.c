// SPDX-License-Identifier: MIT
/*
 * reduce.c - aclrtReduceAsync: one ring REDUCE command on the stream, run
 * by the device's DMA engines (dst[i] = op(dst[i], src[i]) over count
 * bytes of elements; Documentation/hardware.rst, "Reduce").
 *
 * CANN facts (hicann/runtime: src/acl/aclrt_impl/memory.cpp and the
 * runtime's reduce checks): dst or src NULL, reserve not NULL, or a data
 * type CANN does not map to a device type is ACL_ERROR_INVALID_PARAM; a
 * count of 0, a kind outside SUM..EQUAL or a SUM of more than 4 GiB is
 * ACL_ERROR_RT_PARAM_INVALID; a
 * kind or mapped type the SoC's DMA engines do not reduce is
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (EQUAL only exists on some SoCs and is
 * documented nowhere, so this device does not do it); dst or src not
 * aligned to the element size is ACL_ERROR_RT_ADDR_UNALIGNED.  Ours beyond that: count must be whole
 * elements (ACL_ERROR_INVALID_PARAM), both ranges must lie in live device
 * allocations of the stream's device (a host pointer is refused up front
 * with ACL_ERROR_RT_PARAM_INVALID rather than faulting the stream), and they
 * must be the same range or not overlap (ACL_ERROR_RT_PARAM_INVALID).
 */
#include <string.h>

#include "internal.h"

/* CANN's limit on a SUM reduce (its runtime's largest D2D copy). */
#define RED_SUM_MAX	(4ULL << 30)

/* The device's type code and element size of @t; -1: not reducible here. */
static int red_type(aclDataType t, unsigned int *size)
{
	switch (t) {
	case ACL_INT8:
		*size = 1;
		return ASCEND_REDUCE_INT8;
	case ACL_INT16:
		*size = 2;
		return ASCEND_REDUCE_INT16;
	case ACL_INT32:
		*size = 4;
		return ASCEND_REDUCE_INT32;
	case ACL_UINT32:
		*size = 4;
		return ASCEND_REDUCE_UINT32;
	case ACL_FLOAT16:
		*size = 2;
		return ASCEND_REDUCE_FP16;
	case ACL_FLOAT:
		*size = 4;
		return ASCEND_REDUCE_FP32;
	case ACL_BF16:
		*size = 2;
		return ASCEND_REDUCE_BF16;
	default:
		return -1;
	}
}

/* Types CANN maps to a device type that no DMA engine here reduces. */
static bool red_type_cann_only(aclDataType t)
{
	return t == ACL_INT4 || t == ACL_UINT8 || t == ACL_UINT16;
}

/* [p, +count) inside one live device allocation; its device in *@dev_id. */
static aclError red_side(const char *name, const void *p, uint64_t count, int *dev_id)
{
	struct acl_alloc a;
	uintptr_t off;

	enum addr_class c = addrmap_classify(p, &a);

	if (c == ADDR_DEVICE_UNALLOCATED)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s %p is in a device's address range but not in any live allocation",
			       name, p);
	if (c != ADDR_DEVICE || a.kind != ALLOC_DEVICE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s %p is host memory: the DMA engines reduce device memory of the stream's device only",
			       name, p);
	off = (uintptr_t)p - a.va;
	if (off > a.user_size || count > a.user_size - off)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s range [%p, +%llu) runs past the end of its %zu-byte allocation at %#lx",
			       name, p, (unsigned long long)count, a.user_size,
			       (unsigned long)a.va);
	*dev_id = a.dev_id;
	return ACL_SUCCESS;
}

aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
			  aclDataType type, aclrtStream stream, void *reserve)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_REDUCE };
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	struct acl_device *dev;
	struct acl_stream *st;
	unsigned int size = 0;
	int dtype, ddev = -1, sdev = -1;
	aclError ret;

	API_ENTER();
	if (!dst)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dst is NULL");
	if (!src)
		return acl_err(ACL_ERROR_INVALID_PARAM, "src is NULL");
	if (reserve)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "reserve is %p: it is a reserved parameter and must be NULL", reserve);
	dtype = red_type(type, &size);
	if (dtype < 0 && !red_type_cann_only(type))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "data type %d is not supported: ACL_INT8, ACL_INT16, ACL_INT32, ACL_UINT32, ACL_FLOAT16, ACL_FLOAT or ACL_BF16",
			       (int)type);
	if (!count)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "count is 0: it must not be");
	if ((unsigned int)kind < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM ||
	    (unsigned int)kind > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "kind %d is not an aclrtReduceKind (%d to %d)", (int)kind,
			       (int)ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
			       (int)ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL);
	if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && count > RED_SUM_MAX)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count %llu is above 4 GiB, the most one SUM reduce takes",
			       (unsigned long long)count);
	if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is not supported: its element semantics are not documented, and this device's DMA engines reduce only SUM, MAX and MIN");
	if (dtype < 0)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "data type %d (int4, uint8 or uint16) cannot be reduced by this device's DMA engines",
			       (int)type);
	if (count % size)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "count %llu is not a whole number of %u-byte elements",
			       (unsigned long long)count, size);
	if ((d | s) % size)
		return acl_err(ACL_ERROR_RT_ADDR_UNALIGNED,
			       "%s %p is not aligned to the %u-byte element size",
			       d % size ? "dst" : "src", d % size ? dst : src, size);
	ret = red_side("dst", dst, count, &ddev);
	if (!ret)
		ret = red_side("src", src, count, &sdev);
	if (ret)
		return ret;
	/* both lie in allocations: no sum wraps */
	if (d != s && d < s + count && s < d + count)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "source [%p, +%llu) and destination [%p, +%llu) overlap (only the same range may)",
			       src, (unsigned long long)count, dst, (unsigned long long)count);

	ret = stream_acquire(stream, &st, &dev);
	if (ret)
		return ret;
	if (ddev != dev->id || sdev != dev->id) {
		ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			      "stream %p is on device %d but %s is on device %d: dst and src must be on the stream's device",
			      stream, dev->id, ddev != dev->id ? "dst" : "src",
			      ddev != dev->id ? ddev : sdev);
	} else if (!(dev->info.capabilities & DRM_ASCEND_CAP_REDUCE)) {
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "device %d's kernel driver cannot reduce (no DRM_ASCEND_CAP_REDUCE)",
			      dev->id);
	} else {
		cmd.reduce.dst = d;
		cmd.reduce.src = s;
		cmd.reduce.size = count;
		cmd.reduce.op = (uint32_t)(kind - ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM);
		cmd.reduce.dtype = (uint32_t)dtype;
		_Static_assert(ASCEND_REDUCE_SUM == 0 && ASCEND_REDUCE_MAX == 1 &&
			       ASCEND_REDUCE_MIN == 2, "kind - SUM is the device's op");
		ret = stream_submit(st, &cmd);
	}
	stream_release(st, dev);
	return ret;
}
