// SPDX-License-Identifier: MIT
/*
 * device.c - the device table, the per-thread current device, and the
 * aclrt device-management entry points.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* Protects g_ndev/scan, every acl_device.refcount, and open/close. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_device g_devs[ACL_MAX_DEVICES];
static int g_ndev = -1;			/* -1: not scanned yet */
static __thread int t_cur = -1;		/* this thread's current device */

static void scan_locked(void)
{
	static char paths[ACL_MAX_DEVICES][64];
	int i, n;

	if (g_ndev >= 0)
		return;
	n = devnode_scan(paths, ACL_MAX_DEVICES);
	for (i = 0; i < n; i++) {
		struct acl_device *d = &g_devs[i];

		d->id = i;
		memcpy(d->path, paths[i], sizeof(d->path));
		d->fd = -1;
		pthread_rwlock_init(&d->rw, NULL);
		pthread_mutex_init(&d->lock, NULL);
	}
	__atomic_store_n(&g_ndev, n, __ATOMIC_RELEASE);
}

int dev_count(void)
{
	int n = __atomic_load_n(&g_ndev, __ATOMIC_ACQUIRE);

	if (n >= 0)
		return n;
	pthread_mutex_lock(&g_lock);
	scan_locked();
	n = g_ndev;
	pthread_mutex_unlock(&g_lock);
	return n;
}

struct acl_device *dev_by_id(int id)
{
	return id >= 0 && id < dev_count() ? &g_devs[id] : NULL;
}

int dev_current(void)
{
	return t_cur;
}

static aclError bad_id(int32_t id)
{
	return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
		       "device id %d is invalid: %d Ascend device(s) found under /dev/accel",
		       id, dev_count());
}

/* Read-lock device @id for use; it must have been set (opened). */
aclError dev_acquire(int id, struct acl_device **out)
{
	struct acl_device *d = dev_by_id(id);

	if (!d)
		return bad_id(id);
	pthread_rwlock_rdlock(&d->rw);
	if (!d->open) {
		pthread_rwlock_unlock(&d->rw);
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "device %d is not set (call aclrtSetDevice first) or was reset", id);
	}
	*out = d;
	return ACL_SUCCESS;
}

aclError dev_acquire_current(struct acl_device **out)
{
	if (t_cur < 0)
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "no device is set in this thread (call aclrtSetDevice first)");
	return dev_acquire(t_cur, out);
}

void dev_release(struct acl_device *dev)
{
	pthread_rwlock_unlock(&dev->rw);
}

/* Which device's VA window holds @p, if any.  Windows never overlap. */
struct acl_device *dev_of_va(const void *p)
{
	int i, n = __atomic_load_n(&g_ndev, __ATOMIC_ACQUIRE);
	uintptr_t a = (uintptr_t)p;

	for (i = 0; i < n; i++) {
		uintptr_t base = __atomic_load_n(&g_devs[i].va_base, __ATOMIC_ACQUIRE);
		size_t size = __atomic_load_n(&g_devs[i].va_size, __ATOMIC_ACQUIRE);

		if (size && a >= base && a - base < size)
			return &g_devs[i];
	}
	return NULL;
}

/* Sync every stream of @dev against one deadline.  rw read-held. */
aclError dev_sync_all_streams(struct acl_device *dev, int32_t timeout_ms)
{
	int64_t deadline = deadline_from_ms(timeout_ms);
	struct acl_stream **list = NULL, *s;
	size_t n = 0, i;
	aclError ret = ACL_SUCCESS, r;

	pthread_mutex_lock(&dev->lock);
	for (s = dev->streams; s; s = s->next)
		n++;
	list = n ? calloc(n, sizeof(*list)) : NULL;
	if (n && !list) {
		pthread_mutex_unlock(&dev->lock);
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	for (i = 0, s = dev->streams; s; s = s->next, i++) {
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
		list[i] = s;
	}
	pthread_mutex_unlock(&dev->lock);
	for (i = 0; i < n; i++) {
		r = stream_sync(list[i], deadline, timeout_ms);
		if (r && !ret)
			ret = r;
		stream_put(list[i]);
	}
	free(list);
	return ret;
}

/* Free everything @dev holds in this process.  g_lock held. */
static void release_device(struct acl_device *dev)
{
	pthread_rwlock_wrlock(&dev->rw);
	if (dev->open) {
		pthread_mutex_lock(&dev->lock);
		while (dev->streams)
			stream_kill(dev->streams, false);
		pthread_mutex_unlock(&dev->lock);
		kernel_release_device(dev->id);
		memory_release_device(dev);
		devnode_close(dev);
	}
	dev->refcount = 0;
	pthread_rwlock_unlock(&dev->rw);
}

void dev_release_all(void)
{
	int i;

	pthread_mutex_lock(&g_lock);
	for (i = 0; i < (g_ndev > 0 ? g_ndev : 0); i++)
		release_device(&g_devs[i]);
	pthread_mutex_unlock(&g_lock);
	t_cur = -1;
}

/* At exit: hand out whatever device printf text is left.  Never block. */
void dev_drain_all_printf(void)
{
	int i, n = __atomic_load_n(&g_ndev, __ATOMIC_ACQUIRE);
	struct acl_stream *s;

	for (i = 0; i < n; i++) {
		struct acl_device *d = &g_devs[i];

		if (pthread_rwlock_tryrdlock(&d->rw))
			continue;
		if (d->open && pthread_mutex_trylock(&d->lock) == 0) {
			for (s = d->streams; s; s = s->next) {
				if (pthread_mutex_trylock(&s->lock))
					continue;
				if (!s->dead)
					queue_drain_printf(&s->q);
				pthread_mutex_unlock(&s->lock);
			}
			pthread_mutex_unlock(&d->lock);
		}
		pthread_rwlock_unlock(&d->rw);
	}
}

aclError aclrtGetDeviceCount(uint32_t *count)
{
	int n;

	API_ENTER();
	if (!count)
		return acl_err(ACL_ERROR_INVALID_PARAM, "count is NULL");
	n = dev_count();
	*count = (uint32_t)n;
	if (n == 0)
		return acl_err(ACL_ERROR_RT_NO_DEVICE,
			       "no Ascend device found (no /dev/accel/accel* node of driver \"ascend\"; is ascend.ko loaded?)");
	return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId)
{
	struct acl_device *d = dev_by_id(deviceId);
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!d)
		return bad_id(deviceId);
	pthread_mutex_lock(&g_lock);
	if (d->refcount == 0) {
		pthread_rwlock_wrlock(&d->rw);
		if (!d->open)
			ret = devnode_open(d);
		pthread_rwlock_unlock(&d->rw);
	}
	if (ret == ACL_SUCCESS) {
		d->refcount++;
		t_cur = deviceId;
		acl_register_atexit();
	}
	pthread_mutex_unlock(&g_lock);
	return ret;
}

static aclError reset(int32_t deviceId, bool force)
{
	struct acl_device *d = dev_by_id(deviceId);

	if (!d)
		return bad_id(deviceId);
	pthread_mutex_lock(&g_lock);
	if (d->refcount == 0) {
		pthread_mutex_unlock(&g_lock);
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "device %d is not set in this process or was already reset",
			       deviceId);
	}
	if (force || --d->refcount == 0) {
		release_device(d);
		if (t_cur == deviceId)
			t_cur = -1;
	}
	pthread_mutex_unlock(&g_lock);
	return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId)
{
	API_ENTER();
	return reset(deviceId, false);
}

aclError aclrtResetDeviceForce(int32_t deviceId)
{
	API_ENTER();
	return reset(deviceId, true);
}

aclError aclrtGetDevice(int32_t *deviceId)
{
	struct acl_device *d;
	aclError ret;

	API_ENTER();
	if (!deviceId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
	ret = dev_acquire_current(&d);
	if (ret)
		return ret;
	*deviceId = d->id;
	dev_release(d);
	return ACL_SUCCESS;
}

/* Device 0's SoC name; NULL when there is no device or it cannot be read. */
const char *aclrtGetSocName(void)
{
	static char name[DRM_ASCEND_SOC_NAME_LEN];
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* name */
	struct drm_ascend_device_info info;
	uint32_t size = sizeof(info);
	const char *ret = NULL;
	int fd;

	API_ENTER();
	pthread_mutex_lock(&lock);
	if (name[0]) {
		ret = name;
	} else if (dev_count() > 0) {
		fd = open(g_devs[0].path, O_RDWR | O_CLOEXEC);
		memset(&info, 0, sizeof(info));
		if (fd >= 0 && devnode_query(fd, DRM_ASCEND_QUERY_DEVICE_INFO, &info, &size) == 0) {
			memcpy(name, info.soc_name, sizeof(name) - 1);
			ret = name[0] ? name : NULL;
		}
		if (fd >= 0)
			close(fd);
	}
	pthread_mutex_unlock(&lock);
	if (!ret)
		acl_err(ACL_ERROR_RT_NO_DEVICE, "cannot read the SoC name of device 0");
	return ret;
}

aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
	API_ENTER();
	if (!runMode)
		return acl_err(ACL_ERROR_INVALID_PARAM, "runMode is NULL");
	*runMode = ACL_HOST;
	return ACL_SUCCESS;
}

static aclError sync_device(int32_t timeout)
{
	struct acl_device *d;
	aclError ret;

	ret = dev_acquire_current(&d);
	if (ret)
		return ret;
	ret = dev_sync_all_streams(d, timeout);
	dev_release(d);
	return ret;
}

aclError aclrtSynchronizeDevice(void)
{
	API_ENTER();
	return sync_device(-1);
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
	API_ENTER();
	if (timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %d is invalid: -1 waits forever, 0 polls, >0 is milliseconds",
			       timeout);
	return sync_device(timeout);
}
