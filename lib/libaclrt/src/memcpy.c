// SPDX-License-Identifier: MIT
/*
 * memcpy.c - aclrtMemcpy, aclrtMemcpyAsync, aclrtMemcpyAsyncWithCondition:
 * CANN's argument checks in CANN's order, the direction from the pointers,
 * and the copy itself in every direction.
 *
 * Synchronous: host to host is memmove(); everything else is one
 * DRM_IOCTL_ASCEND_COPY on the device's file.  The kernel reaches pinned
 * host memory (aclrtMallocHost, aclrtHostRegister) through the device MMU
 * and pins pageable memory for the duration of the copy.
 *
 * Asynchronous (CANN's runtime rules, facts §7): the kind is auto-corrected
 * from the real locations of the pointers; pinned host memory and device
 * memory are copied by a ring COPY in stream order (returns once queued).
 * Pageable memory: device to host synchronizes the stream, then copies
 * synchronously, as CANN does; host to device (and every
 * ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE copy) snapshots the source into pinned
 * staging buffers and queues ring COPYs from them, without draining the
 * stream - a documented difference from CANN, whose pageable H2D also waits.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <xf86drm.h>

#include "internal.h"

enum dir { H2H, H2D, D2H, D2D };

static const char *const dir_name[] = { "host to host", "host to device",
					"device to host", "device to device" };
static const char *const kind_name[] = {
	"ACL_MEMCPY_HOST_TO_HOST", "ACL_MEMCPY_HOST_TO_DEVICE",
	"ACL_MEMCPY_DEVICE_TO_HOST", "ACL_MEMCPY_DEVICE_TO_DEVICE",
	"ACL_MEMCPY_DEFAULT", "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
};

/* The direction a kind asks for; -1 for DEFAULT (from the pointers). */
static int kind_dir(aclrtMemcpyKind kind)
{
	static const int tab[] = { H2H, H2D, D2H, D2D, -1, H2D };

	return tab[kind];
}

/* What CANN's location check sees (enum copy_loc, internal.h). */
const char *const copy_loc_name[] = {
	"acl host memory (aclrtMallocHost/aclrtHostRegister)", "device memory",
	"pageable host memory (not registered with acl)",
};

/* The rest of copy_locate(), once sd->cls and sd->a are known. */
static inline void copy_side_set(const void *p, struct copy_side *sd)
{
	switch (sd->cls) {
	case ADDR_DEVICE:
		sd->loc = CL_DEV;
		sd->dev = dev_by_id(sd->a.dev_id);
		break;
	case ADDR_DEVICE_UNALLOCATED:
		sd->loc = CL_DEV;
		sd->dev = dev_of_va(p);
		break;
	case ADDR_HOST:
		sd->loc = CL_HOST;
		break;
	default:
		sd->loc = CL_UNREG;
		break;
	}
}

void copy_locate(const void *p, struct copy_side *sd)
{
	memset(sd, 0, sizeof(*sd));
	sd->cls = addrmap_classify(p, &sd->a);
	copy_side_set(p, sd);
}

/* copy_locate() of both sides, with one look at the address map. */
static void copy_locate2(const void *dst, struct copy_side *ds, const void *src,
			 struct copy_side *ss)
{
	memset(ds, 0, sizeof(*ds));
	memset(ss, 0, sizeof(*ss));
	addrmap_classify2(dst, &ds->cls, &ds->a, src, &ss->cls, &ss->a);
	copy_side_set(dst, ds);
	copy_side_set(src, ss);
}

bool copy_dst_readonly(const struct copy_side *sd)
{
	return sd->loc == CL_HOST && (sd->a.hflags & HOST_F_READONLY);
}

/* [p, p+count) must lie inside device allocation @a, which holds p. */
static aclError copy_check_alloc_range(const char *name, const void *p, size_t count,
				       const struct acl_alloc *a)
{
	/* Against the size the caller asked for: padding is not theirs. */
	if ((uintptr_t)p - a->va > a->user_size || count > a->user_size - ((uintptr_t)p - a->va))
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%s range [%p, +%zu) runs past the end of its %zu-byte allocation at %#lx",
				  name, p, count, a->user_size, (unsigned long)a->va);
	return ACL_SUCCESS;
}

/* [p, p+count) must lie inside one device allocation of this process. */
aclError copy_check_range(const char *name, const void *p, size_t count)
{
	struct acl_alloc a;

	if (!addrmap_find((uintptr_t)p, &a) || a.kind != ALLOC_DEVICE)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p is in a device's address range but not in any live allocation",
				  name, p);
	return copy_check_alloc_range(name, p, count, &a);
}

/*
 * copy_check_range() for side @sd of the copy, as copy_locate() found it:
 * a device allocation found there needs no second look-up.
 */
aclError copy_check_side_range(const char *name, const void *p, size_t count,
			       const struct copy_side *sd)
{
	if (sd->cls == ADDR_DEVICE && sd->a.kind == ALLOC_DEVICE)
		return copy_check_alloc_range(name, p, count, &sd->a);
	return copy_check_range(name, p, count);
}

/* Pinned host memory used through the device MMU must hold the range. */
aclError copy_check_host_range(const char *name, const void *p, size_t count,
				 const struct acl_alloc *a)
{
	uintptr_t off = (uintptr_t)p - a->va;

	if (count > a->size - off)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%s range [%p, +%zu) runs past the end of its %zu-byte pinned host memory at %#lx",
				  name, p, count, a->size, (unsigned long)a->va);
	return ACL_SUCCESS;
}

/* Checks of the host side of a copy with device @dev_id. */
aclError copy_check_host_side(const char *name, const void *p, size_t count,
			     const struct copy_side *sd, int dev_id, bool is_dst)
{
	if (is_dst && copy_dst_readonly(sd))
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "dst %p is host memory registered read-only for the device", p);
	if (sd->loc == CL_HOST && host_usable(&sd->a, dev_id))
		return copy_check_host_range(name, p, count, &sd->a);
	return ACL_SUCCESS;
}

/* One DRM_IOCTL_ASCEND_COPY on @dev (rw read-held). */
aclError copy_ioctl(struct acl_device *dev, void *dst, const void *src, size_t count, bool host)
{
	struct drm_ascend_copy c = {
		.dst = (uintptr_t)dst, .src = (uintptr_t)src, .size = count,
	};
	int e;

	if (host && !(dev->info.capabilities & DRM_ASCEND_CAP_HOST_MEMORY))
		return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "device %d's kernel driver cannot copy to or from host memory (no DRM_ASCEND_CAP_HOST_MEMORY)",
				  dev->id);
	if (!drmIoctl(dev->fd, DRM_IOCTL_ASCEND_COPY, &c))
		return ACL_SUCCESS;
	e = errno;
	if (e == ENOMEM)
		return host_pin_error(e, count, "pinning pageable memory for a copy");
	return acl_err_at(acl_api_name,
			  e == EFAULT || e == EINVAL ? ACL_ERROR_RT_PARAM_INVALID :
			  e == EIO ? ACL_ERROR_RT_SYS_DMA :
			  acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			  "device %d: copying %zu bytes from %p to %p failed: %s%s",
			  dev->id, count, src, dst, strerror(e),
			  e == EFAULT ? " (memory not mapped, or not writable)" :
			  e == EIO ? " (the DMA engine reported an error)" : "");
}

static bool overlap(const void *a, const void *b, size_t n)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return x < y + n && y < x + n;
}

/*
 * A synchronous copy between host memory and device memory, or D2D.  @cur
 * is the current device, read-held by the caller and released here: a copy
 * on it (the usual case) needs no second acquisition; a copy on another
 * device releases it first, so no thread holds two devices.
 */
static aclError copy_sync(int dir, void *dst, const void *src, size_t count,
			  const struct copy_side *ds, const struct copy_side *ss,
			  struct acl_device *cur)
{
	struct acl_device *owner = dir == D2H ? ss->dev : ds->dev, *dev;
	aclError ret;

	/* between devices: on the one that has peer access to the other */
	if (dir == D2D && ds->dev != ss->dev) {
		owner = peer_route(ds->dev, ss->dev);
		if (!owner) {
			dev_release(cur);
			return peer_refused(ss->dev->id, ds->dev->id);
		}
	}
	if (owner != cur) {
		dev_release(cur);
		cur = NULL;
	}
	ret = dir == D2H ? ACL_SUCCESS : copy_check_side_range("dst", dst, count, ds);
	if (!ret && dir != H2D)
		ret = copy_check_side_range("src", src, count, ss);
	if (!ret && dir == H2D)
		ret = copy_check_host_side("src", src, count, ss, owner->id, false);
	if (!ret && dir == D2H)
		ret = copy_check_host_side("dst", dst, count, ds, owner->id, true);
	if (!ret && dir == D2D && overlap(dst, src, count))
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				 "source [%p, +%zu) and destination [%p, +%zu) overlap",
				 src, count, dst, count);
	if (cur) {
		if (!ret)
			ret = copy_ioctl(cur, dst, src, count, dir != D2D);
		dev_release(cur);
		return ret;
	}
	if (ret)
		return ret;
	ret = dev_acquire(owner->id, &dev);
	if (ret)
		return ret;
	ret = copy_ioctl(dev, dst, src, count, dir != D2D);
	dev_release(dev);
	return ret;
}

/*
 * CANN's ACL-layer checks, in CANN's order, shared by every variant.  On
 * success the current device is read-held in *@cur: dev_release() it.
 */
static aclError common_checks_hold(void *dst, size_t destMax, const void *src, size_t count,
				   aclrtMemcpyKind kind, struct acl_device **cur)
{
	if (!dst)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "dst is NULL");
	if (!src)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "src is NULL");
	if ((unsigned int)kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "kind %d is not valid (0..5: H2H, H2D, D2H, D2D, DEFAULT, HOST_TO_BUF_TO_DEVICE)",
				  (int)kind);
	if (count > destMax)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "count %zu is larger than destMax %zu", count, destMax);
	return dev_acquire_current(cur);
}

static aclError common_checks(void *dst, size_t destMax, const void *src, size_t count,
			      aclrtMemcpyKind kind)
{
	struct acl_device *cur;
	aclError ret;

	ret = common_checks_hold(dst, destMax, src, count, kind, &cur);
	if (ret)
		return ret;
	dev_release(cur);
	return ACL_SUCCESS;
}

/*
 * The kind is advisory: DEFAULT infers the direction from the pointers, and
 * HOST_TO_BUF_TO_DEVICE is host to device.  A kind that contradicts the
 * pointers -> 107000 naming where they really are.
 */
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
		     aclrtMemcpyKind kind)
{
	struct acl_device *cur;
	struct copy_side ds, ss;
	int want, have;
	aclError ret;

	API_ENTER();
	if (count == 0)
		return ACL_SUCCESS;
	ret = mdl_mode_check("aclrtMemcpy (a synchronous copy)",
			     ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	if (ret)
		return ret;
	/* the current device stays read-held into copy_sync() */
	ret = common_checks_hold(dst, destMax, src, count, kind, &cur);
	if (ret)
		return ret;
	if (dst == src)
		goto out;

	copy_locate2(dst, &ds, src, &ss);
	have = ds.loc == CL_DEV ? (ss.loc == CL_DEV ? D2D : H2D) : (ss.loc == CL_DEV ? D2H : H2H);
	want = kind_dir(kind);
	if (want >= 0 && want != have) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "kind %s contradicts the pointers: dst %p is %s, src %p is %s (a %s copy)",
			      kind_name[kind], dst, copy_loc_name[ds.loc], src, copy_loc_name[ss.loc],
			      dir_name[have]);
		goto out;
	}
	if (have != H2H)
		return copy_sync(have, dst, src, count, &ds, &ss, cur);
	dev_release(cur);
	if (copy_dst_readonly(&ds))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dst %p is host memory registered read-only", dst);
	memmove(dst, src, count);
	return ACL_SUCCESS;
out:
	dev_release(cur);
	return ret;
}

/*
 * CANN's MemcpyKindAutoCorrect (facts §7).  Known pairs force the kind;
 * pairs with pageable memory accept a set of kinds and map DEFAULT.
 * HOST_TO_BUF_TO_DEVICE is host to device only, never corrected.  Returns the
 * kind, or -1.
 */
int copy_auto_correct(enum copy_loc s, enum copy_loc d, aclrtMemcpyKind kind)
{
	int k = (int)kind;
	unsigned int ok;
	int def;

	/* Not corrected: the source must be host memory (pinned or pageable)
	 * and the destination device memory (CANN's runtime:
	 * MemcpyAsyncCheckExLocation in api_error.cc). */
	if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		return s != CL_DEV && d == CL_DEV ? ACL_MEMCPY_HOST_TO_DEVICE : -1;
	if (s != CL_UNREG && d != CL_UNREG)
		return s == CL_HOST ? (d == CL_HOST ? ACL_MEMCPY_HOST_TO_HOST :
				      ACL_MEMCPY_HOST_TO_DEVICE) :
				     (d == CL_HOST ? ACL_MEMCPY_DEVICE_TO_HOST :
				      ACL_MEMCPY_DEVICE_TO_DEVICE);
#define B(x) (1U << (x))
	if (s == CL_UNREG && d == CL_DEV) {
		ok = B(ACL_MEMCPY_HOST_TO_DEVICE) | B(ACL_MEMCPY_DEVICE_TO_DEVICE);
		def = ACL_MEMCPY_HOST_TO_DEVICE;
	} else if (s == CL_DEV) {		/* dev -> unreg */
		ok = B(ACL_MEMCPY_DEVICE_TO_HOST) | B(ACL_MEMCPY_DEVICE_TO_DEVICE);
		def = ACL_MEMCPY_DEVICE_TO_HOST;
	} else if (s == CL_HOST) {		/* host -> unreg */
		ok = B(ACL_MEMCPY_HOST_TO_HOST) | B(ACL_MEMCPY_HOST_TO_DEVICE);
		def = ACL_MEMCPY_HOST_TO_HOST;
	} else if (d == CL_HOST) {		/* unreg -> host */
		ok = B(ACL_MEMCPY_HOST_TO_HOST) | B(ACL_MEMCPY_DEVICE_TO_HOST);
		def = ACL_MEMCPY_HOST_TO_HOST;
	} else {				/* unreg -> unreg */
		ok = B(ACL_MEMCPY_HOST_TO_HOST) | B(ACL_MEMCPY_HOST_TO_DEVICE) |
		     B(ACL_MEMCPY_DEVICE_TO_HOST) | B(ACL_MEMCPY_DEVICE_TO_DEVICE);
		def = ACL_MEMCPY_HOST_TO_HOST;
	}
#undef B
	if (k == ACL_MEMCPY_DEFAULT)
		return def;
	return ok & (1U << k) ? k : -1;
}

/* Stream order for a pageable copy the CANN way: drain, then copy. */
static aclError sync_then_copy(struct acl_stream *s, int dir, void *dst, const void *src,
			       size_t count)
{
	aclError ret = stream_sync(s, deadline_from_ms(-1), -1);

	return ret ? ret : copy_ioctl(s->dev, dst, src, count, dir != D2D);
}

static aclError ring_copy(struct acl_stream *s, void *dst, const void *src, size_t count,
			  const struct copy_side *host)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_COPY };
	uint64_t seq;
	aclError ret;

	cmd.copy.dst = (uintptr_t)dst;
	cmd.copy.src = (uintptr_t)src;
	cmd.copy.size = count;
	ret = stream_submit_seq(s, &cmd, &seq);
	if (!ret && host)
		host_note_use(s, seq, host->a.va, host->a.size);
	return ret;
}

/* Does [p, +count) lie inside device allocation @a (its requested size)? */
static bool alloc_holds(const struct acl_alloc *a, const void *p, size_t count)
{
	uintptr_t off = (uintptr_t)p - a->va;

	return off <= a->user_size && count <= a->user_size - off;
}

/*
 * The enqueue fast path of memcpy_async() for the common cases: device to
 * device on one device, and between device memory and acl host memory that
 * device uses (no staging), on the stream this thread used last, from the
 * default context of the current device.  It runs the same checks as the
 * full path on the same facts (one look at the address map, no message, no
 * device lock: the stream lock of a live stream keeps its device open, see
 * stream_submit_cached()), and submits only when every one passes -- then
 * the full path would have submitted the same command.  Anything else
 * (an error to report, a case it does not cover) returns false with
 * nothing done, and the full path decides.
 */
static bool memcpy_async_fast(void *dst, size_t destMax, const void *src, size_t count,
			      aclrtMemcpyKind kind, aclrtStream stream, aclError *ret)
{
	/* the command up to its payload: the ring slot's rest is zeroed */
	struct {
		uint32_t opcode, flags;
		uint64_t reserved;
		struct ascend_cmd_copy copy;
	} cmd = { .opcode = ASCEND_CMD_COPY };
	uint64_t caps = DRM_ASCEND_CAP_RING_COPY;
	const struct acl_alloc *host = NULL, *da, *sa;
	const struct acl_context *c = ctx_current();
	struct acl_alloc dbuf, sbuf;
	enum addr_class dc, sc;
	int dev_id = dev_current();

	/* common_checks(), and its current device in the default context */
	if (!dst || !src || (unsigned int)kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE ||
	    count > destMax || dev_id < 0 || (c && !c->is_default) || dst == src ||
	    kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)	/* stages, or an error */
		return false;
	if (!addrmap_seen2(dst, &da, src, &sa)) {
		addrmap_classify2(dst, &dc, &dbuf, src, &sc, &sbuf);
		if ((dc != ADDR_DEVICE && dc != ADDR_HOST) || (sc != ADDR_DEVICE && sc != ADDR_HOST))
			return false;
		da = &dbuf;
		sa = &sbuf;
	}
	/* both are acl memory: device memory (ADDR_DEVICE) or acl host memory */
	if (da->kind == ALLOC_DEVICE && sa->kind == ALLOC_DEVICE) {
		/* D2D: every kind left is corrected to it */
		if (da->dev_id != dev_id || sa->dev_id != dev_id ||
		    !alloc_holds(da, dst, count) || !alloc_holds(sa, src, count) ||
		    overlap(dst, src, count))
			return false;
	} else if (da->kind == ALLOC_DEVICE) {
		/* H2D from pinned memory */
		if (da->dev_id != dev_id || !alloc_holds(da, dst, count) ||
		    !host_usable(sa, dev_id) || count > sa->size - ((uintptr_t)src - sa->va))
			return false;
		host = sa;
	} else if (sa->kind == ALLOC_DEVICE) {
		/* D2H to pinned memory the device may write */
		if (sa->dev_id != dev_id || !alloc_holds(sa, src, count) ||
		    (da->hflags & HOST_F_READONLY) || !host_usable(da, dev_id) ||
		    count > da->size - ((uintptr_t)dst - da->va))
			return false;
		host = da;
	} else {
		return false;
	}
	if (host)
		caps |= DRM_ASCEND_CAP_HOST_MEMORY;
	cmd.copy.dst = (uintptr_t)dst;
	cmd.copy.src = (uintptr_t)src;
	cmd.copy.size = count;
	_Static_assert(offsetof(struct ascend_cmd, copy) == offsetof(__typeof__(cmd), copy),
		       "copy head layout");
	return stream_submit_cached(stream, dev_id, caps, &cmd, sizeof(cmd), host, ret);
}

static aclError memcpy_async(void *dst, size_t destMax, const void *src, size_t count,
			     aclrtMemcpyKind kind, aclrtStream stream)
{
	struct acl_device *dev, *ddev;
	struct acl_stream *s;
	struct copy_side ds, ss;
	bool staged, pinned;
	int k, dir;
	aclError ret;

	if (count == 0)
		return ACL_SUCCESS;
	if (memcpy_async_fast(dst, destMax, src, count, kind, stream, &ret))
		return ret;
	ret = common_checks(dst, destMax, src, count, kind);
	if (ret)
		return ret;

	/* one look at the address map for both sides */
	copy_locate2(dst, &ds, src, &ss);
	k = copy_auto_correct(ss.loc, ds.loc, kind);
	if (k < 0)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "kind %s is not accepted for src %p (%s) and dst %p (%s)",
				  kind_name[kind], src, copy_loc_name[ss.loc], dst, copy_loc_name[ds.loc]);
	if (ss.loc != CL_DEV && ds.loc != CL_DEV)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "asynchronous host-to-host copies (dst %p, src %p) are not supported (use aclrtMemcpy)",
				  dst, src);
	/* CANN: after the kind and location checks, dst == src succeeds
	 * without a copy (api_error.cc MemcpyAsync in hicann/runtime). */
	if (dst == src)
		return ACL_SUCCESS;
	dir = ds.loc == CL_DEV ? (ss.loc == CL_DEV ? D2D : H2D) : D2H;
	ret = dir == D2H ? ACL_SUCCESS : copy_check_side_range("dst", dst, count, &ds);
	if (!ret && dir != H2D)
		ret = copy_check_side_range("src", src, count, &ss);
	if (ret)
		return ret;
	if (dir == D2D && overlap(dst, src, count))
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "source [%p, +%zu) and destination [%p, +%zu) overlap",
				  src, count, dst, count);

	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	ddev = dir == D2H ? ss.dev : ds.dev;
	if (dir == D2D && ds.dev != ss.dev && (dev == ss.dev || dev == ds.dev)) {
		/* between devices: the stream's device must reach the other */
		if (!peer_enabled(dev->id, (dev == ds.dev ? ss.dev : ds.dev)->id)) {
			ret = peer_refused(ss.dev->id, ds.dev->id);
			goto out;
		}
	} else if (dev != ddev) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_STREAM_CONTEXT,
				 "stream %p is on device %d but the device memory is on device %d",
				 stream, dev->id, ddev->id);
		goto out;
	}
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_RING_COPY)) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				 "device %d's driver cannot copy in stream order", dev->id);
		goto out;
	}
	if (dir == D2D) {
		ret = ring_copy(s, dst, src, count, NULL);
		goto out;
	}
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_HOST_MEMORY)) {
		ret = acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				 "device %d's kernel driver cannot copy to or from host memory (no DRM_ASCEND_CAP_HOST_MEMORY)",
				 dev->id);
		goto out;
	}
	if (dir == H2D) {
		pinned = ss.loc == CL_HOST && host_usable(&ss.a, dev->id);
		if (pinned && kind != ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
			ret = copy_check_host_range("src", src, count, &ss.a);
			if (!ret)
				ret = ring_copy(s, dst, src, count, &ss);
			goto out;
		}
		ret = pinned ? ACL_SUCCESS :
		      mdl_pageable_check(s, "an asynchronous host-to-device copy");
		if (!ret)
			ret = host_stage_h2d(s, dst, src, count, &staged);
		if (!ret && !staged)	/* no staging memory: the CANN way */
			ret = sync_then_copy(s, dir, dst, src, count);
		goto out;
	}
	/* D2H */
	ret = copy_check_host_side("dst", dst, count, &ds, dev->id, true);
	if (ret)
		goto out;
	if (ds.loc == CL_HOST && host_usable(&ds.a, dev->id)) {
		ret = ring_copy(s, dst, src, count, &ds);
	} else {
		ret = mdl_pageable_check(s, "an asynchronous device-to-host copy");
		if (!ret)
			ret = sync_then_copy(s, dir, dst, src, count);
	}
out:
	stream_release(s, dev);
	return ret;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
			  aclrtMemcpyKind kind, aclrtStream stream)
{
	API_ENTER();
	return memcpy_async(dst, destMax, src, count, kind, stream);
}

/* Deprecated in CANN; the same as aclrtMemcpyAsync. */
aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
				       aclrtMemcpyKind kind, aclrtStream stream)
{
	API_ENTER();
	return memcpy_async(dst, destMax, src, count, kind, stream);
}
