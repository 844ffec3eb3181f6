// SPDX-License-Identifier: MIT
/*
 * ipc.c - sharing device memory between processes: aclrtIpcMemGetExportKey,
 * aclrtIpcMemSetImportPid, aclrtIpcMemImportByKey, aclrtIpcMemClose,
 * aclrtDeviceGetBareTgid; and the key plumbing IPC events use (event.c).
 *
 * The kernel owns the keys (DRM_IOCTL_ASCEND_IPC_*): it makes them from its
 * CSPRNG, keeps the allow-list of processes (unless the export was made
 * with DISABLE_PID_VALIDATION) and refuses an unknown, closed or forbidden
 * key alike with -ENOENT.  This file only remembers which of its device
 * files each key of this process belongs to:
 *  - exports: key -> device, so that SetImportPid and Close reach the
 *    exporter's file;
 *  - imports: key -> device, VA, GEM handle, so that Close releases the
 *    import (the memory stays alive in the kernel while the export or any
 *    import holds it).
 *
 * Errors: an unknown, refused or withdrawn key -> ACL_ERROR_RT_PARAM_INVALID
 * (107000) - the key is a parameter the caller got wrong, and the kernel
 * deliberately does not say which of the reasons applies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "internal.h"

#define KEYLEN	DRM_ASCEND_IPC_KEY_LEN

struct ipc_ent {
	struct ipc_ent *next;
	char key[KEYLEN];
	bool import;
	int dev_id;
	uintptr_t va;		/* import: where it is mapped */
	uint32_t handle;	/* import: GEM handle */
};

/* Protects ipc_list.  Lock order: device rw -> ipc_lock -> addrmap. */
static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ipc_ent *ipc_list;

/* Copy a caller's key; 100000 when NULL, empty or too long. */
static aclError take_key(const char *key, char out[KEYLEN])
{
	size_t n;

	if (!key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "key is NULL");
	n = strnlen(key, KEYLEN);
	if (n == 0 || n == KEYLEN)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key is %s (a key is 1..%d characters and a NUL)",
			       n ? "not NUL-terminated within 65 bytes" : "empty", KEYLEN - 1);
	memset(out, 0, KEYLEN);
	memcpy(out, key, n);
	return ACL_SUCCESS;
}

/* Unlink the entry for @key (of the kind @import); ipc_lock held. */
static struct ipc_ent *take_ent(const char *key, bool import)
{
	struct ipc_ent **pp, *e;

	for (pp = &ipc_list; (e = *pp); pp = &e->next) {
		if (e->import == import && !strncmp(e->key, key, KEYLEN)) {
			*pp = e->next;
			return e;
		}
	}
	return NULL;
}

static int find_dev(const char *key, bool import)
{
	struct ipc_ent *e;
	int id = -1;

	pthread_mutex_lock(&ipc_lock);
	for (e = ipc_list; e; e = e->next)
		if (e->import == import && !strncmp(e->key, key, KEYLEN))
			id = e->dev_id;
	pthread_mutex_unlock(&ipc_lock);
	return id;
}

static void remember(const char *key, bool import, int dev_id, uintptr_t va, uint32_t handle)
{
	struct ipc_ent *e = calloc(1, sizeof(*e));

	if (!e)
		return;		/* Close then says "unknown key" */
	memcpy(e->key, key, KEYLEN);
	e->import = import;
	e->dev_id = dev_id;
	e->va = va;
	e->handle = handle;
	pthread_mutex_lock(&ipc_lock);
	e->next = ipc_list;
	ipc_list = e;
	pthread_mutex_unlock(&ipc_lock);
}

static aclError ipc_errno(int e, struct acl_device *dev, const char *what)
{
	if (e == ENOTTY || e == EOPNOTSUPP)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "device %d's driver cannot share memory between processes (%s: %s)",
				  dev->id, what, strerror(e));
	if (e == ENOMEM || e == ENOSPC)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_MEMORY_ALLOCATION,
				  "device %d: %s: %s", dev->id, what, strerror(e));
	if (e == EINVAL || e == EFAULT || e == ENOENT || e == EPERM)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "device %d: %s: %s", dev->id, what, strerror(e));
	return acl_err_at(acl_api_name, ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			  "device %d: %s: %s", dev->id, what, strerror(e));
}

/* Export @type object on @dev (rw read-held); the key goes to @key. */
aclError ipc_export(struct acl_device *dev, uint32_t type, uint32_t flags, uint64_t va,
		    uint64_t size, uint32_t event, char key[KEYLEN])
{
	struct drm_ascend_ipc_export x = {
		.type = type, .flags = flags, .va = va, .size = size, .event = event,
	};

	if (!(dev->info.capabilities & DRM_ASCEND_CAP_IPC))
		return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "device %d's driver cannot share memory or events between processes (no DRM_ASCEND_CAP_IPC)",
				  dev->id);
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &x))
		return ipc_errno(errno, dev, "exporting failed");
	x.key[KEYLEN - 1] = '\0';
	memcpy(key, x.key, KEYLEN);
	return ACL_SUCCESS;
}

/* Import @key as @type on @dev (rw read-held). */
aclError ipc_import(struct acl_device *dev, const char key[KEYLEN], uint32_t type,
		    struct drm_ascend_ipc_import *out)
{
	int e;

	memset(out, 0, sizeof(*out));
	memcpy(out->key, key, KEYLEN);
	out->type = type;
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_IPC))
		return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				  "device %d's driver cannot share memory or events between processes (no DRM_ASCEND_CAP_IPC)",
				  dev->id);
	if (!drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_IMPORT, out))
		return ACL_SUCCESS;
	e = errno;
	if (e == ENOENT)
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "key \"%.8s...\" is unknown on device %d, was closed by its exporter, names another kind of object, or process %d is not allowed to import it (aclrtIpcMemSetImportPid)",
				  key, dev->id, (int)getpid());
	return ipc_errno(e, dev, "importing failed");
}

/* @pid[0..@num) as the allow-list ioctl takes them: 1..1024 process ids. */
aclError ipc_check_pids(const int32_t *pid, size_t num)
{
	size_t i;

	if (!pid)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "pid is NULL");
	if (num == 0 || num > 1024)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
				  "the number of pids, %zu, is not in 1..1024", num);
	for (i = 0; i < num; i++)
		if (pid[i] <= 0)
			return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM,
					  "pid[%zu] = %d is not a process id", i, pid[i]);
	return ACL_SUCCESS;
}

/* Allow @pid[0..@num) (checked) to import @key, an export on @dev. */
aclError ipc_set_pids(struct acl_device *dev, const char key[KEYLEN], const int32_t *pid,
		      size_t num)
{
	struct drm_ascend_ipc_set_pid sp = { 0 };

	memcpy(sp.key, key, KEYLEN);
	sp.pids = (uintptr_t)pid;
	sp.count = (uint32_t)num;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &sp))
		return ipc_errno(errno, dev, "setting the processes allowed to import failed");
	return ACL_SUCCESS;
}

aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags)
{
	struct acl_device *dev;
	struct acl_alloc a;
	char k[KEYLEN];
	aclError ret;

	API_ENTER();
	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	if (!key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "key is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	if (len < KEYLEN)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "len %zu is too small: a key takes %d bytes", len, KEYLEN);
	if (flags & ~ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags %#llx: only ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT (0) and _DISABLE_PID_VALIDATION (1) are valid",
			       (unsigned long long)flags);
	if (!addrmap_find((uintptr_t)devPtr, &a) || a.kind != ALLOC_DEVICE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devPtr %p is not inside device memory from aclrtMalloc of this process",
			       devPtr);
	if (size > a.size - ((uintptr_t)devPtr - a.va))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "range [%p, +%zu) runs past the end of its %zu-byte allocation",
			       devPtr, size, a.size);
	ret = dev_acquire(a.dev_id, &dev);
	if (ret)
		return ret;
	ret = ipc_export(dev, DRM_ASCEND_IPC_MEM,
			 flags ? DRM_ASCEND_IPC_NO_PID_CHECK : 0, (uintptr_t)devPtr, size, 0, k);
	dev_release(dev);
	if (ret)
		return ret;
	remember(k, false, a.dev_id, 0, 0);
	memcpy(key, k, KEYLEN);
	return ACL_SUCCESS;
}

aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
	struct acl_device *dev;
	char k[KEYLEN];
	aclError ret;
	int id;

	API_ENTER();
	ret = take_key(key, k);
	if (ret)
		return ret;
	ret = ipc_check_pids(pid, num);
	if (ret)
		return ret;
	id = find_dev(k, false);
	if (id < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "key \"%.8s...\" is not a key this process exported (or it was closed)",
			       k);
	ret = dev_acquire(id, &dev);
	if (ret)
		return ret;
	ret = ipc_set_pids(dev, k, pid, num);
	dev_release(dev);
	return ret;
}

/* Import @k on device @id and remember it; *@va on success. */
static aclError import_on(int id, const char k[KEYLEN], bool cur, uintptr_t *va)
{
	struct drm_ascend_ipc_import im;
	struct drm_gem_close gc = { 0 };
	struct acl_alloc a = { 0 };
	struct acl_device *dev;
	aclError ret;

	ret = cur ? dev_acquire_current(&dev) : dev_acquire(id, &dev);
	if (ret)
		return ret;
	ret = ipc_import(dev, k, DRM_ASCEND_IPC_MEM, &im);
	if (!ret) {
		a.va = (uintptr_t)im.va;
		a.size = im.size;
		a.user_size = im.size;
		a.handle = im.handle;
		a.page_size = 4096;
		a.dev_id = dev->id;
		a.kind = ALLOC_DEVICE;
		if (addrmap_insert(&a)) {
			gc.handle = im.handle;
			drmIoctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &gc);
			ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		}
	}
	if (!ret) {
		remember(k, true, dev->id, a.va, a.handle);
		*va = a.va;
	}
	dev_release(dev);
	return ret;
}

/*
 * Import on the current device.  The kernel maps an import only on the
 * exporter's device; a key unknown on the current device is tried on the
 * other devices (opened if needed) that the current one has peer access to
 * (aclrtDeviceEnablePeerAccess), and with ENABLE_PEER_ACCESS on all of them,
 * the current device then getting peer access to the one that knows it, so
 * that copies between the imported memory and the current device's memory
 * work.
 */
aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
	uintptr_t va = 0;
	char k[KEYLEN];
	aclError ret, r, perr = ACL_SUCCESS;
	int cur, i, n;

	API_ENTER();
	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	ret = take_key(key, k);
	if (ret)
		return ret;
	if (flags & ~ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags %#llx: only ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) and _ENABLE_PEER_ACCESS (1) are valid",
			       (unsigned long long)flags);
	cur = dev_current();
	ret = import_on(cur, k, true, &va);
	if (ret != ACL_ERROR_RT_PARAM_INVALID)
		goto out;
	n = dev_count();
	for (i = 0; i < n && ret; i++) {
		if (i == cur)
			continue;
		if (peer_enabled(cur, i)) {	/* the caller linked it already */
			r = import_on(i, k, false, &va);
			if (!r)
				ret = ACL_SUCCESS;
			continue;
		}
		if (!(flags & ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS))
			continue;
		dev_lock();
		r = dev_open_locked(dev_by_id(i));
		dev_unlock();
		if (r || import_on(i, k, false, &va))
			continue;
		ret = peer_set(i, DRM_ASCEND_PEER_ENABLE);
		if (ret) {
			perr = ret;
			aclrtIpcMemClose(k);
			API_ENTER();
		}
	}
	if (ret && perr)
		ret = acl_err(perr, "key \"%.8s...\" is memory of another device, but peer access from device %d to it cannot be enabled",
			      k, cur);
	else if (ret)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "key \"%.8s...\" is unknown on every device device %d can reach (aclrtDeviceEnablePeerAccess, or ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS), was closed by its exporter, or process %d is not allowed to import it (aclrtIpcMemSetImportPid)",
			      k, cur, (int)getpid());
out:
	if (!ret)
		*devPtr = (void *)va;
	return ret;
}

/*
 * The exporter withdraws its key (no new imports; existing ones keep the
 * memory alive, and its own aclrtFree stays safe); an importer releases
 * its import.  A process that did both closes its import first.
 */
aclError aclrtIpcMemClose(const char *key)
{
	struct drm_ascend_ipc_close c = { 0 };
	struct drm_gem_close gc = { 0 };
	struct acl_device *dev;
	struct ipc_ent *e;
	struct acl_alloc a;
	char k[KEYLEN];
	aclError ret;

	API_ENTER();
	ret = take_key(key, k);
	if (ret)
		return ret;
	pthread_mutex_lock(&ipc_lock);
	e = take_ent(k, true);
	if (!e)
		e = take_ent(k, false);
	pthread_mutex_unlock(&ipc_lock);
	if (!e)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "key \"%.8s...\" is neither exported nor imported by this process (or already closed)",
			       k);
	ret = dev_acquire(e->dev_id, &dev);
	if (ret) {
		/* the device was reset: its exports and imports went with it */
		free(e);
		return ACL_SUCCESS;
	}
	if (e->import) {
		/* still ours unless aclrtFree already released it */
		if (addrmap_find(e->va, &a) && a.va == e->va && a.handle == e->handle &&
		    addrmap_remove(e->va, &a)) {
			gc.handle = e->handle;
			drmIoctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &gc);
		}
	} else {
		memcpy(c.key, k, KEYLEN);
		if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_CLOSE, &c) && errno != ENOENT)
			ret = ipc_errno(errno, dev, "withdrawing the export failed");
	}
	dev_release(dev);
	free(e);
	return ret;
}

aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr)
{
	API_ENTER();
	(void)key;
	(void)type;
	(void)attr;
	return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		       "aclrtIpcMemSetAttr: the access link type (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK) has one value here; imports always use the device's own link");
}

aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num)
{
	API_ENTER();
	(void)key;
	(void)serverPids;
	(void)num;
	return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		       "aclrtIpcMemImportPidInterServer: sharing memory with processes on other servers (super pods) is not supported; use aclrtIpcMemSetImportPid for processes of this host");
}

/* The process id the kernel checks import permissions against. */
/*
 * CANN's "bare tgid": this process's number in the initial PID namespace,
 * which the kernel resolves allow-lists in, so that processes in different
 * containers name each other alike.  Asked of the kernel each time (a
 * forked child is another process); getpid() when no device answers (no
 * device, or a kernel before the field), which is the same number outside
 * PID namespaces.
 */
aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
	struct drm_ascend_device_info info;
	struct acl_device *dev;
	uint32_t size = sizeof(info);
	int fd;

	API_ENTER();
	if (!pid)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pid is NULL");
	*pid = (int32_t)getpid();
	dev = dev_by_id(0);
	if (!dev)
		return ACL_SUCCESS;
	fd = open(dev->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return ACL_SUCCESS;
	memset(&info, 0, sizeof(info));
	if (devnode_query(fd, DRM_ASCEND_QUERY_DEVICE_INFO, &info, &size) == 0 &&
	    size >= offsetof(struct drm_ascend_device_info, bare_tgid) +
		    sizeof(info.bare_tgid) && info.bare_tgid > 0)
		*pid = info.bare_tgid;
	close(fd);
	return ACL_SUCCESS;
}
