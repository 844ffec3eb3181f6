// SPDX-License-Identifier: MIT
/*
 * peer.c - peer access between devices: aclrtDeviceCanAccessPeer,
 * aclrtDeviceEnablePeerAccess, aclrtDeviceDisablePeerAccess,
 * aclrtDevicePeerAccessStatus, and the routing of copies between devices.
 *
 * Enabling is one direction, from the thread's current device A to a peer
 * B (CANN: enable from the destination's context): DRM_IOCTL_ASCEND_PEER on
 * A's file naming B's file, after which A's DMA engines and command
 * processor reach B's memory through B's device MMU.  B's node is opened
 * if this process has not set B (it stays open until aclFinalize or B's
 * last reset); closing either file removes the link, and the bookkeeping
 * here (acl_device.peer_mask) follows it.
 *
 * A copy between devices runs on a device that has access to the other:
 * the destination's if it may reach the source, else the source's.  Without
 * either link it is refused with ACL_ERROR_RT_PARAM_INVALID (107000), naming
 * the call that enables it.  Disabling a link that is off succeeds.
 */
#include <errno.h>
#include <string.h>
#include <xf86drm.h>

#include "internal.h"

static uint64_t bit(int id)
{
	return 1ULL << id;
}

bool peer_enabled(int dev, int peer)
{
	struct acl_device *d = dev_by_id(dev);

	return d && peer >= 0 && peer < ACL_MAX_DEVICES &&
	       (__atomic_load_n(&d->peer_mask, __ATOMIC_ACQUIRE) & bit(peer));
}

/* @dev's file is closing: its links, both ways, go with it.  g_lock held. */
void peer_release_device(struct acl_device *dev)
{
	int i, n = dev_count();

	__atomic_store_n(&dev->peer_mask, 0, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		__atomic_and_fetch(&dev_by_id(i)->peer_mask, ~bit(dev->id), __ATOMIC_ACQ_REL);
}

/* The device whose engines can move bytes between @a and @b, or NULL. */
struct acl_device *peer_route(struct acl_device *dst, struct acl_device *src)
{
	if (dst == src || peer_enabled(dst->id, src->id))
		return dst;
	if (peer_enabled(src->id, dst->id))
		return src;
	return NULL;
}

aclError peer_refused(int src, int dst)
{
	return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
			  "copy from device %d to device %d refused: peer access between them is off (call aclrtDeviceEnablePeerAccess(%d, 0) with device %d current, or the reverse)",
			  src, dst, src, dst);
}

static aclError check_pair(int32_t dev, int32_t peer)
{
	int n = dev_count();

	if (dev < 0 || dev >= n)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "deviceId %d is invalid: %d Ascend device(s) found", dev, n);
	if (peer < 0 || peer >= n)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "peerDeviceId %d is invalid: %d Ascend device(s) found", peer, n);
	if (dev == peer)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "deviceId and peerDeviceId are both %d: a device is not its own peer",
			       dev);
	return ACL_SUCCESS;
}

/* Every pair of distinct devices of this driver can be linked. */
aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)
{
	aclError ret;

	API_ENTER();
	if (!canAccessPeer)
		return acl_err(ACL_ERROR_INVALID_PARAM, "canAccessPeer is NULL");
	ret = check_pair(deviceId, peerDeviceId);
	if (ret)
		return ret;
	*canAccessPeer = 1;
	return ACL_SUCCESS;
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status)
{
	aclError ret;

	API_ENTER();
	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	ret = check_pair(deviceId, peerDeviceId);
	if (ret)
		return ret;
	*status = peer_enabled(deviceId, peerDeviceId) ? 1 : 0;
	return ACL_SUCCESS;
}

/* Enable or disable access from the current device to @peerDeviceId. */
aclError peer_set(int32_t peerDeviceId, uint32_t op)
{
	struct drm_ascend_peer p = { .op = op };
	struct acl_device *cur, *peer;
	int id = dev_current(), e;
	aclError ret;

	if (id < 0)
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "no device is set in this thread (call aclrtSetDevice first)");
	ret = check_pair(id, peerDeviceId);
	if (ret)
		return ret;
	cur = dev_by_id(id);
	peer = dev_by_id(peerDeviceId);
	dev_lock();		/* no file opens or closes meanwhile */
	if (!cur->open) {
		ret = acl_err(ACL_ERROR_RT_CONTEXT_NULL, "device %d was reset", id);
		goto out;
	}
	/*
	 * CANN hands a disable straight to its driver, which succeeds when no
	 * link is on; its P2P sample disables after resetting the peer, which
	 * already removed the link here.  So off stays off, successfully.
	 */
	if (op == DRM_ASCEND_PEER_DISABLE && !peer_enabled(id, peerDeviceId))
		goto out;
	if (!(cur->info.capabilities & DRM_ASCEND_CAP_PEER)) {
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "device %d's driver has no peer access (no DRM_ASCEND_CAP_PEER)", id);
		goto out;
	}
	if (op == DRM_ASCEND_PEER_ENABLE) {
		if (peer_enabled(id, peerDeviceId))
			goto out;	/* already on: nothing to do */
		ret = dev_open_locked(peer);
		if (ret)
			goto out;
	}
	p.peer_fd = peer->fd;
	if (drmIoctl(cur->fd, DRM_IOCTL_ASCEND_PEER, &p)) {
		e = errno;
		if (!(op == DRM_ASCEND_PEER_ENABLE && e == EEXIST) &&
		    !(op == DRM_ASCEND_PEER_DISABLE && e == ENOENT)) {
			ret = acl_err(e == ENOTTY || e == EOPNOTSUPP ?
				      ACL_ERROR_RT_FEATURE_NOT_SUPPORT : ACL_ERROR_RT_DRV_INTERNAL_ERROR,
				      "device %d: %s peer access to device %d failed: %s", id,
				      op == DRM_ASCEND_PEER_ENABLE ? "enabling" : "disabling",
				      peerDeviceId, strerror(e));
			goto out;
		}
	}
	if (op == DRM_ASCEND_PEER_ENABLE)
		__atomic_or_fetch(&cur->peer_mask, bit(peerDeviceId), __ATOMIC_ACQ_REL);
	else
		__atomic_and_fetch(&cur->peer_mask, ~bit(peerDeviceId), __ATOMIC_ACQ_REL);
out:
	dev_unlock();
	return ret;
}

/* CANN: one direction, from the current device; flags must be 0 (200006). */
aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
	API_ENTER();
	if (flags)
		return acl_err(ACL_ERROR_FEATURE_UNSUPPORTED,
			       "flags %#x: aclrtDeviceEnablePeerAccess takes flags 0 only", flags);
	return peer_set(peerDeviceId, DRM_ASCEND_PEER_ENABLE);
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
	API_ENTER();
	return peer_set(peerDeviceId, DRM_ASCEND_PEER_DISABLE);
}
