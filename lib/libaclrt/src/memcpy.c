// SPDX-License-Identifier: MIT
/*
 * memcpy.c - aclrtMemcpy: CANN's argument checks in CANN's order, the
 * pointer-based direction, and the synchronous device-to-device copy.
 */
#include <errno.h>
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

static const char *where(const struct acl_device *d)
{
	return d ? "device memory" : "host memory";
}

/* [p, p+count) must lie inside one allocation of this process. */
static aclError check_range(const char *name, const void *p, size_t count)
{
	struct acl_alloc a;

	if (!addrmap_find((uintptr_t)p, &a))
		return acl_err_at("aclrtMemcpy", ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p is in a device's address range but not in any live allocation",
				  name, p);
	/* Against the size the caller asked for: padding is not theirs. */
	if ((uintptr_t)p - a.va > a.user_size || count > a.user_size - ((uintptr_t)p - a.va))
		return acl_err_at("aclrtMemcpy", ACL_ERROR_RT_PARAM_INVALID,
				  "%s range [%p, +%zu) runs past the end of its %zu-byte allocation at %#lx",
				  name, p, count, a.user_size, (unsigned long)a.va);
	return ACL_SUCCESS;
}

static aclError copy_d2d(struct acl_device *dd, void *dst, const void *src, size_t count)
{
	struct drm_ascend_copy c = {
		.dst = (uintptr_t)dst, .src = (uintptr_t)src, .size = count,
	};
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	struct acl_device *dev;
	aclError ret;

	ret = check_range("dst", dst, count);
	if (!ret)
		ret = check_range("src", src, count);
	if (ret)
		return ret;
	if (d < s + count && s < d + count)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "source [%p, +%zu) and destination [%p, +%zu) overlap",
			       src, count, dst, count);
	ret = dev_acquire(dd->id, &dev);
	if (ret)
		return ret;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_COPY, &c)) {
		int e = errno;

		ret = acl_err(e == EFAULT || e == EINVAL ? ACL_ERROR_RT_PARAM_INVALID :
			      ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			      "device %d: copying %zu bytes from %p to %p failed: %s",
			      dev->id, count, src, dst, strerror(e));
	}
	dev_release(dev);
	return ret;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
		     aclrtMemcpyKind kind)
{
	struct acl_device *cur, *dd, *sd;
	int want, have;
	aclError ret;

	API_ENTER();
	if (count == 0)
		return ACL_SUCCESS;
	if (!dst)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dst is NULL");
	if (!src)
		return acl_err(ACL_ERROR_INVALID_PARAM, "src is NULL");
	if ((unsigned int)kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "kind %d is not valid for aclrtMemcpy (0..5: H2H, H2D, D2H, D2D, DEFAULT, HOST_TO_BUF_TO_DEVICE)",
			       (int)kind);
	if (count > destMax)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count %zu is larger than destMax %zu", count, destMax);
	ret = dev_acquire_current(&cur);
	if (ret)
		return ret;
	dev_release(cur);
	if (dst == src)
		return ACL_SUCCESS;

	dd = dev_of_va(dst);
	sd = dev_of_va(src);
	have = dd ? (sd ? D2D : H2D) : (sd ? D2H : H2H);
	want = kind_dir(kind);
	if (want >= 0 && want != have)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "kind %s contradicts the pointers: dst %p is %s, src %p is %s (a %s copy)",
			       kind_name[kind], dst, where(dd), src, where(sd), dir_name[have]);
	switch (have) {
	case H2H:
		memmove(dst, src, count);
		return ACL_SUCCESS;
	case D2D:
		if (dd != sd)
			return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				       "copies between device %d and device %d are not supported yet",
				       sd->id, dd->id);
		return copy_d2d(dd, dst, src, count);
	default:
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "%s copies (dst %p, src %p) need host-memory pinning, which this libaclrt does not support yet",
			       dir_name[have], dst, src);
	}
}

/*
 * aclrtMemcpyAsync: CANN's checks in CANN's order, then the runtime's kind
 * auto-correction (facts §7: a device pair is always D2D; with pageable
 * host memory only the listed kinds are accepted, else 107000).  Device to
 * device on one device is a ring COPY in stream order; every copy that
 * touches host memory needs host pinning (not there yet) -> 207000, and
 * an asynchronous host-to-host copy is 207000 in CANN itself.
 */
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
			  aclrtMemcpyKind kind, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_COPY };
	struct acl_device *cur, *dd, *sd, *dev;
	struct acl_stream *s;
	uintptr_t d = (uintptr_t)dst, sp = (uintptr_t)src;
	int have;
	aclError ret;

	API_ENTER();
	if (count == 0)
		return ACL_SUCCESS;
	if (!dst)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dst is NULL");
	if (!src)
		return acl_err(ACL_ERROR_INVALID_PARAM, "src is NULL");
	if ((unsigned int)kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "kind %d is not valid for aclrtMemcpyAsync (0..5: H2H, H2D, D2H, D2D, DEFAULT, HOST_TO_BUF_TO_DEVICE)",
			       (int)kind);
	if (count > destMax)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count %zu is larger than destMax %zu", count, destMax);
	ret = dev_acquire_current(&cur);
	if (ret)
		return ret;
	dev_release(cur);

	dd = dev_of_va(dst);
	sd = dev_of_va(src);
	have = dd ? (sd ? D2D : H2D) : (sd ? D2H : H2H);
	if (have == H2D && kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_DEVICE &&
	    kind != ACL_MEMCPY_DEFAULT && kind != ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		ret = ACL_ERROR_RT_PARAM_INVALID;
	else if (have == D2H && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
		 kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
		ret = ACL_ERROR_RT_PARAM_INVALID;
	if (ret)
		return acl_err(ret,
			       "kind %s is not accepted for dst %p (%s) and src %p (%s)",
			       kind_name[kind], dst, where(dd), src, where(sd));
	if (have == H2H)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "asynchronous host-to-host copies (dst %p, src %p) are not supported (use aclrtMemcpy)",
			       dst, src);
	if (have != D2D)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "%s copies (dst %p, src %p) need host-memory pinning, which this libaclrt does not support yet",
			       dir_name[have], dst, src);
	if (dd != sd)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "copies between device %d and device %d are not supported yet",
			       sd->id, dd->id);
	ret = check_range("dst", dst, count);
	if (!ret)
		ret = check_range("src", src, count);
	if (ret)
		return ret;
	if (d < sp + count && sp < d + count)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "source [%p, +%zu) and destination [%p, +%zu) overlap",
			       src, count, dst, count);
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (dev != dd)
		ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			      "stream %p is on device %d but the memory is on device %d",
			      stream, dev->id, dd->id);
	else if (!(dev->info.capabilities & DRM_ASCEND_CAP_RING_COPY))
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "device %d's driver cannot copy in stream order", dev->id);
	if (!ret) {
		cmd.copy.dst = d;
		cmd.copy.src = sp;
		cmd.copy.size = count;
		ret = stream_submit(s, &cmd);
	}
	stream_release(s, dev);
	return ret;
}
