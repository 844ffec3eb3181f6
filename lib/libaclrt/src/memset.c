// SPDX-License-Identifier: MIT
/*
 * memset.c - aclrtMemset, aclrtMemsetAsync, aclrtMemsetD32 and
 * aclrtMemsetD32Async: filling device memory with a byte or a 32-bit word.
 *
 * The synchronous calls use DRM_IOCTL_ASCEND_FILL (ordered after the work
 * this process already queued, like CANN's sync memset on its device); the
 * asynchronous ones put an ASCEND_CMD_FILL on the stream.  Where the memory
 * is comes from the address map: device memory is filled by the device;
 * acl-pinned host memory (aclrtMallocHost, aclrtHostRegister) is filled by
 * the CPU at once in the synchronous calls (CANN: "initialises the memory
 * immediately, no implicit device or stream synchronisation"), and by a
 * ring FILL through the device MMU in the asynchronous ones (in stream
 * order; the memory cannot be freed before the fill ran); host memory acl
 * does not know is refused with 107000 (undefined behaviour in CANN).
 * count > maxCount (memSize < 4 * N for D32) -> 107000; a range running
 * past its allocation -> 107000.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <xf86drm.h>

#include "internal.h"

struct fill_req {
	void *p;
	size_t bytes;
	uint64_t pattern;
	uint32_t pattern_size;		/* 1 or 4 */
};

/* Where @r goes: the allocation holding all of it, or an error. */
static aclError locate(const struct fill_req *r, struct acl_alloc *a)
{
	uintptr_t off, end;

	switch (addrmap_classify(r->p, a)) {
	case ADDR_DEVICE:
	case ADDR_HOST:
		/* The whole reserved range may be filled (test_acl_memset). */
		end = a->size;
		off = (uintptr_t)r->p - a->va;
		if (off > end || r->bytes > end - off)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "[%p, +%zu) runs past the end of its %zu-byte allocation at %#lx",
				       r->p, r->bytes, end, (unsigned long)a->va);
		return ACL_SUCCESS;
	case ADDR_DEVICE_UNALLOCATED:
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is in a device's address range but not in any live allocation (freed?)",
			       r->p);
	default:
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is host memory not allocated by acl; only device memory (aclrtMalloc) and acl host memory (aclrtMallocHost, aclrtHostRegister) can be filled (pageable memory: undefined behaviour in CANN, refused here)",
			       r->p);
	}
}

/* The CPU fills acl host memory. */
static void host_fill(const struct fill_req *r)
{
	uint32_t w = (uint32_t)r->pattern;
	size_t i;

	if (r->pattern_size == 1) {
		memset(r->p, (int)(r->pattern & 0xff), r->bytes);
		return;
	}
	for (i = 0; i < r->bytes / 4; i++)
		memcpy((char *)r->p + 4 * i, &w, 4);
}

static aclError no_fill(const struct acl_device *dev)
{
	return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		       "device %d's kernel driver cannot fill memory (no DRM_ASCEND_CAP_FILL)",
		       dev->id);
}

static aclError fill_sync(const struct fill_req *r)
{
	struct drm_ascend_fill f = {
		.dst = (uintptr_t)r->p, .size = r->bytes,
		.pattern = r->pattern, .pattern_size = r->pattern_size,
	};
	struct acl_device *dev;
	struct acl_alloc a;
	aclError ret;
	int e;

	ret = dev_acquire_current(&dev);	/* CANN needs a context */
	if (ret)
		return ret;
	dev_release(dev);
	ret = locate(r, &a);
	if (ret)
		return ret;
	if (a.kind == ALLOC_HOST) {
		host_fill(r);
		return ACL_SUCCESS;
	}
	ret = dev_acquire(a.dev_id, &dev);
	if (ret)
		return ret;
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_FILL)) {
		ret = no_fill(dev);
	} else if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_FILL, &f)) {
		e = errno;
		ret = acl_err(e == EFAULT || e == EINVAL ? ACL_ERROR_RT_PARAM_INVALID :
			      acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			      "device %d: filling [%p, +%zu) failed: %s",
			      dev->id, r->p, r->bytes, strerror(e));
	}
	dev_release(dev);
	return ret;
}

/*
 * The enqueue fast path of fill_async(): on the stream this thread used
 * last, into device memory of its device or acl host memory that device
 * uses.  The same checks as the full path on the same facts (one look at
 * the address map, no message, no device lock: see stream_submit_cached());
 * it submits only when every one passes.  False: nothing done, the full
 * path decides (and reports).
 */
static bool fill_async_fast(const struct fill_req *r, aclrtStream stream, aclError *ret)
{
	/* the command up to its payload: the ring slot's rest is zeroed */
	struct {
		uint32_t opcode, flags;
		uint64_t reserved;
		struct ascend_cmd_fill fill;
	} cmd = { .opcode = ASCEND_CMD_FILL };
	const struct acl_alloc *host = NULL, *a = addrmap_seen(r->p);
	struct acl_alloc buf;
	uintptr_t off;

	_Static_assert(offsetof(struct ascend_cmd, fill) == offsetof(__typeof__(cmd), fill),
		       "fill head layout");

	if (!a) {
		enum addr_class c = addrmap_classify(r->p, &buf);

		if (c != ADDR_DEVICE && c != ADDR_HOST)
			return false;
		a = &buf;
	}
	/* acl memory: device memory (ADDR_DEVICE) or acl host memory */
	if (a->kind == ALLOC_HOST) {
		/* only what the stream's device reaches: checked there */
		if (a->hflags & HOST_F_ORPHAN)
			return false;
		host = a;
	}
	/* locate(): the whole reserved range may be filled */
	off = (uintptr_t)r->p - a->va;
	if (off > a->size || r->bytes > a->size - off)
		return false;
	cmd.fill.dst = (uintptr_t)r->p;
	cmd.fill.size = r->bytes;
	cmd.fill.pattern = r->pattern;
	cmd.fill.pattern_size = r->pattern_size;
	return stream_submit_cached(stream, a->dev_id, DRM_ASCEND_CAP_FILL, &cmd, sizeof(cmd), host,
				    ret);
}

static aclError fill_async(const struct fill_req *r, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_FILL };
	struct acl_device *dev;
	struct acl_stream *s;
	struct acl_alloc a;
	uint64_t seq;
	aclError ret;

	if (fill_async_fast(r, stream, &ret))
		return ret;
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	ret = locate(r, &a);
	if (ret)
		goto out;
	if (a.kind == ALLOC_HOST && host_usable(&a, dev->id) &&
	    (dev->info.capabilities & DRM_ASCEND_CAP_FILL)) {
		/* Pinned host memory in the stream's device MMU: the DMA
		 * engine fills it in stream order, the call returns at once. */
		cmd.fill.dst = (uintptr_t)r->p;
		cmd.fill.size = r->bytes;
		cmd.fill.pattern = r->pattern;
		cmd.fill.pattern_size = r->pattern_size;
		ret = stream_submit_seq(s, &cmd, &seq);
		if (!ret)
			host_note_use(s, seq, a.va, a.size);
		goto out;
	}
	if (a.kind == ALLOC_HOST) {
		/* Host memory of another device (or orphaned by a reset): as
		 * CANN does for host memory, synchronously, in stream order. */
		ret = stream_sync(s, deadline_from_ms(-1), -1);
		if (!ret)
			host_fill(r);
		goto out;
	}
	if (a.dev_id != dev->id) {
		ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			      "%p is memory of device %d but the stream belongs to device %d",
			      r->p, a.dev_id, dev->id);
		goto out;
	}
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_FILL)) {
		ret = no_fill(dev);
		goto out;
	}
	cmd.fill.dst = (uintptr_t)r->p;
	cmd.fill.size = r->bytes;
	cmd.fill.pattern = r->pattern;
	cmd.fill.pattern_size = r->pattern_size;
	ret = stream_submit(s, &cmd);
out:
	stream_release(s, dev);
	return ret;
}

/* CANN's order: count 0 succeeds first, then NULL, then count > maxCount. */
static aclError memset_args(void *devPtr, size_t maxCount, int32_t value, size_t count,
			    struct fill_req *r)
{
	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	if (count > maxCount)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count %zu is larger than maxCount %zu", count, maxCount);
	r->p = devPtr;
	r->bytes = count;
	r->pattern = (uint32_t)value & 0xff;	/* the low byte, as CANN */
	r->pattern_size = 1;
	return ACL_SUCCESS;
}

static aclError d32_args(void *ptr, size_t memSize, uint32_t value, size_t N,
			 struct fill_req *r)
{
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (N > SIZE_MAX / 4 || N * 4 > memSize)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "N %zu 32-bit words do not fit in memSize %zu bytes", N, memSize);
	r->p = ptr;
	r->bytes = N * 4;
	r->pattern = value;
	r->pattern_size = 4;
	return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
	struct fill_req r;
	aclError ret;

	API_ENTER();
	if (!count)
		return ACL_SUCCESS;
	ret = memset_args(devPtr, maxCount, value, count, &r);
	if (!ret)
		ret = mdl_mode_check("aclrtMemset (a synchronous memset)",
				     ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	return ret ? ret : fill_sync(&r);
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
			  aclrtStream stream)
{
	struct fill_req r;
	aclError ret;

	API_ENTER();
	if (!count)
		return ACL_SUCCESS;
	ret = memset_args(devPtr, maxCount, value, count, &r);
	return ret ? ret : fill_async(&r, stream);
}

aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
	struct fill_req r;
	aclError ret;

	API_ENTER();
	if (!N)
		return ACL_SUCCESS;
	ret = d32_args(ptr, memSize, value, N, &r);
	return ret ? ret : fill_sync(&r);
}

aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
			     aclrtStream stream)
{
	struct fill_req r;
	aclError ret;

	API_ENTER();
	if (!N)
		return ACL_SUCCESS;
	ret = d32_args(ptr, memSize, value, N, &r);
	return ret ? ret : fill_async(&r, stream);
}
