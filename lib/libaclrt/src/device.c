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
static ACL_TLS_HOT int t_cur = -1;		/* this thread's current device */
/* This thread's current context (t_cur is its device); NULL with t_cur -1. */
static ACL_TLS_HOT struct acl_context *t_ctx;

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
		d->defctx.dev = d;
		d->defctx.is_default = true;
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

aclError dev_bad_id(int32_t id)
{
	return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
		       "device id %d is invalid: %d Ascend device(s) found under /dev/accel",
		       id, dev_count());
}

/*
 * dev_acquire() of the calling thread's current device, without a message
 * when it fails (callers that guess their device, and fall back to the
 * slow path when it was not that one).
 */
struct acl_device *dev_try_acquire_current(void)
{
	struct acl_device *d = dev_by_id(t_cur);

	if (!d)
		return NULL;
	pthread_rwlock_rdlock(&d->rw);
	if (!d->open) {
		pthread_rwlock_unlock(&d->rw);
		return NULL;
	}
	return d;
}

/* Read-lock device @id for use; it must have been set (opened). */
static inline aclError acquire(int id, struct acl_device **out)
{
	struct acl_device *d = dev_by_id(id);

	*out = NULL;	/* never used on failure; says so to the compiler */
	if (!d)
		return dev_bad_id(id);
	pthread_rwlock_rdlock(&d->rw);
	if (!d->open) {
		pthread_rwlock_unlock(&d->rw);
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "device %d is not set (call aclrtSetDevice first) or was reset", id);
	}
	*out = d;
	return ACL_SUCCESS;
}

ACL_HOT aclError dev_acquire(int id, struct acl_device **out)
{
	return acquire(id, out);
}

ACL_HOT aclError dev_acquire_current(struct acl_device **out)
{
	struct acl_context *c = t_ctx;
	aclError ret;

	if (t_cur < 0)
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "no device is set in this thread (call aclrtSetDevice first)");
	ret = acquire(t_cur, out);
	if (ret || !c || c->is_default)
		return ret;
	/* An explicit context is destroyed under the device write lock. */
	if (!handle_ok(c, H_CONTEXT) || c->dead) {
		dev_release(*out);
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "the current context %p of this thread was destroyed (set another one, or call aclrtSetDevice)",
			       (void *)c);
	}
	return ACL_SUCCESS;
}

struct acl_context *ctx_current(void)
{
	return t_ctx;
}

void ctx_set_current(struct acl_context *ctx)
{
	t_ctx = ctx;
	t_cur = ctx ? ctx->dev->id : -1;
	stream_forget_cached();		/* NULL names another stream now */
}

/* @ctx is the default context of an open device or a live explicit one. */
bool ctx_valid(const struct acl_context *ctx)
{
	int i, n = __atomic_load_n(&g_ndev, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (ctx == &g_devs[i].defctx)
			return __atomic_load_n(&g_devs[i].open, __ATOMIC_ACQUIRE);
	return handle_ok(ctx, H_CONTEXT) && !ctx->dead;
}

void dev_lock(void)
{
	pthread_mutex_lock(&g_lock);
}

void dev_unlock(void)
{
	pthread_mutex_unlock(&g_lock);
}

void dev_release(struct acl_device *dev)
{
	pthread_rwlock_unlock(&dev->rw);
}

/* Which device's VA window holds @p, if any.  Windows never overlap. */
ACL_HOT struct acl_device *dev_of_va(const void *p)
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
	struct acl_context *c;

	pthread_rwlock_wrlock(&dev->rw);
	if (dev->open) {
		peer_release_device(dev);
		/* explicit contexts outlive it as dead handles: their
		 * streams die with the others below */
		for (c = dev->contexts; c; c = c->next) {
			c->dead = true;
			c->stream = NULL;
		}
		pthread_mutex_lock(&dev->lock);
		while (dev->streams)
			stream_kill(dev->streams, false);
		pthread_mutex_unlock(&dev->lock);
		kernel_release_device(dev->id);
		notify_release_device(dev);
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
	ctx_set_current(NULL);
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

/* Open @d's node if it is not open; no reference taken.  g_lock held. */
aclError dev_open_locked(struct acl_device *d)
{
	aclError ret = ACL_SUCCESS;

	pthread_rwlock_wrlock(&d->rw);
	if (!d->open) {
		ret = devnode_open(d);
		memset(d->res_limit_set, 0, sizeof(d->res_limit_set));
	}
	pthread_rwlock_unlock(&d->rw);
	if (!ret)
		acl_register_atexit();
	return ret;
}

/* One more reference (aclrtSetDevice, an explicit context).  g_lock held. */
aclError dev_retain_locked(struct acl_device *d)
{
	aclError ret = ACL_SUCCESS;

	if (d->refcount == 0)
		ret = dev_open_locked(d);
	if (!ret)
		d->refcount++;
	return ret;
}

/* Drop a reference; the last one frees the device.  g_lock held. */
void dev_unref_locked(struct acl_device *d)
{
	if (d->refcount > 0 && --d->refcount == 0)
		release_device(d);
}

/*
 * CANN: every aclrtSetDevice counts (per process), every aclrtResetDevice
 * takes one back and the last frees the device; the thread's current
 * context becomes the device's default context.
 */
aclError aclrtSetDevice(int32_t deviceId)
{
	struct acl_device *d = dev_by_id(deviceId);
	aclError ret;

	API_ENTER();
	if (!d)
		return dev_bad_id(deviceId);
	pthread_mutex_lock(&g_lock);
	ret = dev_retain_locked(d);
	if (ret == ACL_SUCCESS)
		ctx_set_current(&d->defctx);
	pthread_mutex_unlock(&g_lock);
	return ret;
}

static aclError reset(int32_t deviceId, bool force)
{
	struct acl_device *d = dev_by_id(deviceId);

	if (!d)
		return dev_bad_id(deviceId);
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
			ctx_set_current(NULL);
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

/*
 * aclrtGetDeviceInfo: the attributes our header declares, from the
 * driver's DEVICE_INFO.  The device need not be set.  The emulated NPU
 * has AI cores only: no AI CPU, no separate vector cores and no L2 cache,
 * so those read 0.  Other attribute values (CANN has more) -> 207000.
 */
aclError dev_read_info(int32_t id, struct drm_ascend_device_info *info)
{
	struct acl_device *d = dev_by_id(id);
	uint32_t size = sizeof(*info);
	int fd, e = 0;

	if (!d)
		return dev_bad_id(id);
	memset(info, 0, sizeof(*info));
	fd = open(d->path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || devnode_query(fd, DRM_ASCEND_QUERY_DEVICE_INFO, info, &size))
		e = 1;
	if (fd >= 0)
		close(fd);
	if (e)
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "cannot read the device information of device %d from %s", id,
			       d->path);
	return ACL_SUCCESS;
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
	struct drm_ascend_device_info info;
	struct acl_device *d;
	aclError ret;

	API_ENTER();
	if (deviceId > INT32_MAX || !(d = dev_by_id((int)deviceId)))
		return dev_bad_id((int32_t)deviceId);
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	switch (attr) {
	case ACL_DEV_ATTR_AICPU_CORE_NUM:
	case ACL_DEV_ATTR_AICORE_CORE_NUM:
	case ACL_DEV_ATTR_VECTOR_CORE_NUM:
	case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
	case ACL_DEV_ATTR_L2_CACHE_SIZE:
		break;
	default:
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "attr %d is not supported (supported: AICPU_CORE_NUM 1, AICORE_CORE_NUM 101, VECTOR_CORE_NUM 201, TOTAL_GLOBAL_MEM_SIZE 301, L2_CACHE_SIZE 302)",
			       (int)attr);
	}
	ret = dev_read_info((int32_t)deviceId, &info);
	if (ret)
		return ret;
	switch (attr) {
	case ACL_DEV_ATTR_AICORE_CORE_NUM:
	case ACL_DEV_ATTR_VECTOR_CORE_NUM:	/* mix cores: the same ones */
		*value = info.num_ai_cores;
		break;
	case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
		*value = (int64_t)info.hbm_total;
		break;
	default:		/* no AI CPU or L2 here */
		*value = 0;
		break;
	}
	return ACL_SUCCESS;
}
