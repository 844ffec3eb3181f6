// SPDX-License-Identifier: MIT
/*
 * memcpy_2d.c - aclrtMemcpy2d and aclrtMemcpy2dAsync: strided (matrix)
 * copies, @height rows of @width bytes, rows @spitch apart in the source and
 * @dpitch apart in the destination.
 *
 * Checks in CANN's order (hicann/runtime src/acl/aclrt_impl/memory.cpp
 * CheckMemcpy2dParam, api_error.cc MemCopy2DCheckParam/Sync/Async): width 0
 * or height 0 -> success, before anything else; NULL dst/src, width > spitch
 * or width > dpitch, a kind other than H2D/D2H/D2D/DEFAULT -> 100000 (ACL
 * layer); dpitch or spitch 0, height > 5242880, width > 5000000 -> 107000
 * (runtime); no current device -> 107002.  Each side's span,
 * pitch * (height - 1) + width, must lie in one allocation (device memory,
 * acl-pinned host memory) or be pageable memory.
 *
 * aclrtMemcpy2d: an explicit ACL_MEMCPY_DEVICE_TO_DEVICE -> 207000 (the
 * synchronous 2D copy is host to device or device to host only; checked
 * before the current device); the kind is auto-corrected from the pointers
 * as for aclrtMemcpyAsync (107000 for a kind pageable pointers exclude),
 * and pointers that make it anything but H2D or D2H -> 107000; one
 * DRM_IOCTL_ASCEND_COPY_2D.  aclrtMemcpy2dAsync: the same auto-correction,
 * host to host -> 107000; device memory and pinned host memory -> one ring
 * ASCEND_CMD_COPY_2D; pageable host memory -> CANN's rule: synchronize the
 * stream, then copy synchronously.
 */
#include <errno.h>
#include <string.h>
#include <xf86drm.h>

#include "internal.h"

#define ERR(code, ...) acl_err_at(acl_api_name, (code), __VA_ARGS__)

#define MAX_2D_HEIGHT	(5UL * 1024 * 1024)	/* RT_MAX_MEMCPY2D_HEIGHT */
#define MAX_2D_WIDTH	5000000UL		/* RT_MAX_MEMCPY2D_WIDTH */

enum { D_H2D, D_D2H, D_D2D };

struct req2d {
	void *dst;
	const void *src;
	size_t dpitch, spitch, width, height;
	size_t dspan, sspan;
};

/*
 * CANN's argument checks, before any address is looked at; *nothing: a
 * 0-sized copy (success before every other check).
 */
static aclError args_2d(const struct req2d *r, aclrtMemcpyKind kind, bool *nothing)
{
	*nothing = false;
	if (!r->width || !r->height) {
		*nothing = true;
		return ACL_SUCCESS;
	}
	if (!r->dst)
		return ERR(ACL_ERROR_INVALID_PARAM, "dst is NULL");
	if (!r->src)
		return ERR(ACL_ERROR_INVALID_PARAM, "src is NULL");
	if (r->width > r->spitch || r->width > r->dpitch)
		return ERR(ACL_ERROR_INVALID_PARAM,
			   "width %zu is larger than %s %zu", r->width,
			   r->width > r->spitch ? "spitch" : "dpitch",
			   r->width > r->spitch ? r->spitch : r->dpitch);
	if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
	    kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
		return ERR(ACL_ERROR_INVALID_PARAM,
			   "kind %d is not supported by 2D copies (HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE, DEFAULT)",
			   (int)kind);
	if (!r->dpitch || !r->spitch)
		return ERR(ACL_ERROR_RT_PARAM_INVALID, "%s is 0", !r->dpitch ? "dpitch" : "spitch");
	if (r->height > MAX_2D_HEIGHT)
		return ERR(ACL_ERROR_RT_PARAM_INVALID, "height %zu is larger than %lu",
			   r->height, MAX_2D_HEIGHT);
	if (r->width > MAX_2D_WIDTH)
		return ERR(ACL_ERROR_RT_PARAM_INVALID, "width %zu is larger than %lu",
			   r->width, MAX_2D_WIDTH);
	return ACL_SUCCESS;
}

/* A current device, then each side's span. */
static aclError spans_2d(struct req2d *r)
{
	struct acl_device *cur;
	aclError ret;

	ret = dev_acquire_current(&cur);
	if (ret)
		return ret;
	dev_release(cur);
	if (__builtin_mul_overflow(r->dpitch, r->height - 1, &r->dspan) ||
	    __builtin_add_overflow(r->dspan, r->width, &r->dspan) ||
	    __builtin_mul_overflow(r->spitch, r->height - 1, &r->sspan) ||
	    __builtin_add_overflow(r->sspan, r->width, &r->sspan))
		return ERR(ACL_ERROR_RT_PARAM_INVALID,
			   "pitch * (height - 1) + width overflows (dpitch %zu, spitch %zu, height %zu)",
			   r->dpitch, r->spitch, r->height);
	return ACL_SUCCESS;
}

/* The ranges of both sides for direction @dir with device @dev_id. */
static aclError ranges_2d(const struct req2d *r, int dir, const struct copy_side *ds,
			  const struct copy_side *ss, int dev_id)
{
	aclError ret = ACL_SUCCESS;

	if (dir != D_D2H)
		ret = copy_check_range("dst", r->dst, r->dspan);
	if (!ret && dir != D_H2D)
		ret = copy_check_range("src", r->src, r->sspan);
	if (!ret && dir == D_H2D)
		ret = copy_check_host_side("src", r->src, r->sspan, ss, dev_id, false);
	if (!ret && dir == D_D2H)
		ret = copy_check_host_side("dst", r->dst, r->dspan, ds, dev_id, true);
	return ret;
}

static aclError no_ext(const struct acl_device *dev)
{
	return ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		   "device %d's kernel driver has no 2D copies (no DRM_ASCEND_CAP_COPY_EXT)",
		   dev->id);
}

/* One DRM_IOCTL_ASCEND_COPY_2D on @dev (rw read-held). */
static aclError ioctl_2d(struct acl_device *dev, const struct req2d *r)
{
	struct drm_ascend_copy_2d c = {
		.dst = (uintptr_t)r->dst, .src = (uintptr_t)r->src,
		.dpitch = r->dpitch, .spitch = r->spitch,
		.width = r->width, .height = r->height,
	};
	int e;

	if (!(dev->info.capabilities & DRM_ASCEND_CAP_COPY_EXT))
		return no_ext(dev);
	if (!drmIoctl(dev->fd, DRM_IOCTL_ASCEND_COPY_2D, &c))
		return ACL_SUCCESS;
	e = errno;
	if (e == ENOMEM)
		return host_pin_error(e, r->sspan, "pinning pageable memory for a 2D copy");
	if (e == ENOTTY)
		return no_ext(dev);
	return ERR(e == EFAULT || e == EINVAL ? ACL_ERROR_RT_PARAM_INVALID :
		   acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
		   "device %d: 2D copy of %zu rows of %zu bytes from %p to %p failed: %s",
		   dev->id, r->height, r->width, r->src, r->dst, strerror(e));
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
		       size_t height, aclrtMemcpyKind kind)
{
	struct req2d r = { dst, src, dpitch, spitch, width, height, 0, 0 };
	struct copy_side ds, ss;
	struct acl_device *dev;
	bool nothing;
	aclError ret;
	int dir;

	API_ENTER();
	ret = args_2d(&r, kind, &nothing);
	if (ret || nothing)
		return ret;
	/* CANN's runtime refuses the kind before it looks for a context */
	if (kind == ACL_MEMCPY_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "kind ACL_MEMCPY_DEVICE_TO_DEVICE: aclrtMemcpy2d copies only host to device or device to host (aclrtMemcpy2dAsync copies device to device)");
	ret = mdl_mode_check("aclrtMemcpy2d (a synchronous copy)",
			     ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	if (ret)
		return ret;
	ret = spans_2d(&r);
	if (ret)
		return ret;
	copy_locate(dst, &ds);
	copy_locate(src, &ss);
	/* CANN corrects the kind as for async copies, then wants H2D or D2H */
	if (copy_auto_correct(ss.loc, ds.loc, kind) < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "kind %d is not accepted for src %p (%s) and dst %p (%s)", (int)kind,
			       src, copy_loc_name[ss.loc], dst, copy_loc_name[ds.loc]);
	if ((ds.loc == CL_DEV) == (ss.loc == CL_DEV))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dst %p and src %p are both %s; aclrtMemcpy2d copies only host to device or device to host%s",
			       dst, src, ds.loc == CL_DEV ? "device memory" : "host memory",
			       ds.loc == CL_DEV ? " (aclrtMemcpy2dAsync copies device to device)" : "");
	dir = ds.loc == CL_DEV ? D_H2D : D_D2H;
	dev = dir == D_H2D ? ds.dev : ss.dev;
	ret = ranges_2d(&r, dir, &ds, &ss, dev->id);
	if (ret)
		return ret;
	ret = dev_acquire(dev->id, &dev);
	if (ret)
		return ret;
	ret = ioctl_2d(dev, &r);
	dev_release(dev);
	return ret;
}

static aclError ring_2d(struct acl_stream *s, const struct req2d *r, const struct copy_side *host)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_COPY_2D };
	uint64_t seq;
	aclError ret;

	cmd.copy_2d.dst = (uintptr_t)r->dst;
	cmd.copy_2d.src = (uintptr_t)r->src;
	cmd.copy_2d.dpitch = r->dpitch;
	cmd.copy_2d.spitch = r->spitch;
	cmd.copy_2d.width = r->width;
	cmd.copy_2d.height = r->height;
	ret = stream_submit_seq(s, &cmd, &seq);
	if (!ret && host)
		host_note_use(s, seq, host->a.va, host->a.size);
	return ret;
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
			    size_t width, size_t height, aclrtMemcpyKind kind, aclrtStream stream)
{
	struct req2d r = { dst, src, dpitch, spitch, width, height, 0, 0 };
	struct acl_device *dev, *owner;
	const struct copy_side *host;
	struct copy_side ds, ss;
	struct acl_stream *s;
	bool nothing;
	aclError ret;
	int k, dir;

	API_ENTER();
	ret = args_2d(&r, kind, &nothing);
	if (!ret && !nothing)
		ret = spans_2d(&r);
	if (ret || nothing)
		return ret;
	copy_locate(dst, &ds);
	copy_locate(src, &ss);
	k = copy_auto_correct(ss.loc, ds.loc, kind);
	if (k < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "kind %d is not accepted for src %p (%s) and dst %p (%s)", (int)kind,
			       src, copy_loc_name[ss.loc], dst, copy_loc_name[ds.loc]);
	if (ss.loc != CL_DEV && ds.loc != CL_DEV)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "asynchronous host-to-host 2D copies (dst %p, src %p) are not supported: only host to device, device to host and device to device",
			       dst, src);
	dir = ds.loc == CL_DEV ? (ss.loc == CL_DEV ? D_D2D : D_H2D) : D_D2H;
	owner = dir == D_D2H ? ss.dev : ds.dev;
	if (dir == D_D2D && ds.dev != ss.dev)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "2D copies between device %d and device %d are not supported",
			       ss.dev->id, ds.dev->id);
	ret = ranges_2d(&r, dir, &ds, &ss, owner->id);
	if (ret)
		return ret;

	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (dev != owner) {
		ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			      "stream %p is on device %d but the device memory is on device %d",
			      stream, dev->id, owner->id);
		goto out;
	}
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_COPY_EXT)) {
		ret = no_ext(dev);
		goto out;
	}
	if (dir == D_D2D) {
		ret = ring_2d(s, &r, NULL);
		goto out;
	}
	host = dir == D_H2D ? &ss : &ds;
	if (host->loc == CL_HOST && host_usable(&host->a, dev->id)) {
		ret = ring_2d(s, &r, host);
		goto out;
	}
	/* Pageable host memory: CANN synchronizes the stream and copies. */
	ret = mdl_pageable_check(s, "an asynchronous 2D copy");
	if (!ret)
		ret = stream_sync(s, deadline_from_ms(-1), -1);
	if (!ret)
		ret = ioctl_2d(dev, &r);
out:
	stream_release(s, dev);
	return ret;
}
