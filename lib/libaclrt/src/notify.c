// SPDX-License-Identifier: MIT
/*
 * notify.c - notifies: aclrtCreateNotify, aclrtDestroyNotify,
 * aclrtRecordNotify, aclrtWaitAndResetNotify, aclrtGetNotifyId,
 * aclrtNotifyBatchReset, and sharing them between processes
 * (aclrtNotifyGetExportKey, aclrtNotifySetImportPid, aclrtNotifyImportByKey);
 * and counting notifies (aclrtCntNotify*), the same object with a count.
 *
 * A notify is a 64-bit word of device memory with a page of its own (an
 * allocation outside the address map: no pointer of the caller's reaches
 * it, and an importer maps nothing else).  Fresh device memory reads as
 * zero: the device discards what is freed.  A record is a ring
 * WRITE_VALUE of 1; a wait is a ring WAIT_VALUE for 1 with
 * ASCEND_WAIT_VALUE_RESET, so the command processor parks the queue until
 * the word is 1 and swaps it for 0 in one atomic step (a record that lands
 * after the check stays for the next wait).  A stream of another device
 * reaches the word through a peer link: its device must have peer access
 * to the word's (aclrtDeviceEnablePeerAccess).
 *
 * A counting notify's word holds its count: a record stores, adds, ors or
 * ands its value (WRITE_VALUE with an ASCEND_WRITE_VALUE_* operation, an
 * atomic read-modify-write on the device), a wait compares it (LT, EQ, GT,
 * GEQ, ALL, with RESET when it clears), a reset stores 0 in stream order.
 * The count is the 64-bit word: past 2^32 - 1 it goes on counting.
 *
 * Sharing: the export is the kernel's DRM_ASCEND_IPC_NOTIFY of the word,
 * whose allow-list the kernel enforces (unless the exporter disabled it);
 * an import maps the word on the exporter's device, found as
 * aclrtIpcMemImportByKey finds it (the current device first, then the
 * others, opened if need be), and with ENABLE_PEER_ACCESS the current
 * device gets peer access to it.
 *
 * Destroying withdraws the export at once; the word is freed when every
 * command that named it has executed (checked at the next create or
 * destroy on that device, and at its reset), so a destroy never faults a
 * stream that still waits or records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "internal.h"

#define KEYLEN		DRM_ASCEND_IPC_KEY_LEN
#define NT_MAX		8192	/* per device and process: CANN's A2/A3 limit */
#define NT_BYTES	4096	/* a page of its own */
#define NT_FLAGS	(ACL_NOTIFY_DEFAULT | ACL_NOTIFY_DEVICE_USE_ONLY)

struct acl_notify {
	struct acl_notify *next;	/* nt_list */
	int dev_id;			/* device whose memory holds the word */
	uint64_t va;			/* the word */
	uint32_t handle;		/* import: GEM handle; own memory: 0 */
	uint32_t id;			/* aclrtGetNotifyId */
	bool imported;
	bool counting;			/* aclrtCntNotify */
	bool zombie;			/* destroyed, commands still pending */
	bool lost;			/* its device was reset */
	int busy;			/* submissions in progress */
	char key[KEYLEN];		/* the export's key, or "" */
	struct stream_uses uses;	/* streams whose commands name the word */
};

/* Protects nt_list and every notify.  Lock order: device rw -> nt_lock. */
static pthread_mutex_t nt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_notify *nt_list;

static bool nt_idle(const struct acl_notify *n)
{
	return !n->busy && stream_uses_idle(&n->uses);
}

/* Give back @n's word (@dev rw read-held, or NULL: the file is gone). */
static void nt_release_word(struct acl_notify *n, struct acl_device *dev)
{
	struct drm_gem_close gc = { .handle = n->handle };
	struct drm_ascend_bo_free bf = { .va = n->va };

	if (!dev || n->lost)
		return;
	if (n->imported)
		drmIoctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	else
		drmIoctl(dev->fd, DRM_IOCTL_ASCEND_BO_FREE, &bf);
}

static void nt_free(struct acl_notify *n)	/* unlinked; nt_lock held */
{
	stream_uses_free(&n->uses);
	free(n);
}

/* Free @dev's zombies nothing uses any more.  rw read-held, nt_lock held. */
static void reap(struct acl_device *dev)
{
	struct acl_notify **pp = &nt_list, *n;

	while ((n = *pp)) {
		if (n->zombie && n->dev_id == dev->id && nt_idle(n)) {
			*pp = n->next;
			nt_release_word(n, dev);
			nt_free(n);
		} else {
			pp = &n->next;
		}
	}
}

/* Device reset: the file and every word on it went.  rw write-held. */
void notify_release_device(struct acl_device *dev)
{
	struct acl_notify **pp = &nt_list, *n;

	pthread_mutex_lock(&nt_lock);
	while ((n = *pp)) {
		if (n->dev_id != dev->id) {
			pp = &n->next;
			continue;
		}
		stream_uses_drop(&n->uses);
		n->lost = true;
		n->key[0] = '\0';
		if (n->zombie && !n->busy) {
			*pp = n->next;
			nt_free(n);
		} else {
			pp = &n->next;
		}
	}
	pthread_mutex_unlock(&nt_lock);
}

/* The lowest id no live notify of @dev_id has, or -1.  nt_lock held. */
static int nt_free_id(int dev_id, bool counting)
{
	uint64_t used[NT_MAX / 64] = { 0 };
	const struct acl_notify *n;
	int count = 0, i;

	for (n = nt_list; n; n = n->next) {
		if (n->dev_id != dev_id || n->counting != counting)
			continue;
		used[n->id / 64] |= 1ULL << (n->id % 64);
		count++;
	}
	if (count >= NT_MAX)
		return -1;
	for (i = 0; i < NT_MAX; i++)
		if (!(used[i / 64] & (1ULL << (i % 64))))
			return i;
	return -1;
}

/* Link a new notify of @dev holding @va.  *@out on success. */
static aclError nt_publish(struct acl_device *dev, uint64_t va, uint32_t handle,
			   bool imported, bool counting, aclrtNotify *out)
{
	struct acl_notify *n = calloc(1, sizeof(*n));
	int id;

	if (!n)
		return acl_err_at(acl_api_name, ACL_ERROR_BAD_ALLOC, "out of host memory");
	pthread_mutex_lock(&nt_lock);
	reap(dev);
	id = nt_free_id(dev->id, counting);
	if (id < 0) {
		pthread_mutex_unlock(&nt_lock);
		free(n);
		return acl_err_at(acl_api_name, ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
				  "device %d already has %d %snotifies in this process (destroy some)",
				  dev->id, NT_MAX, counting ? "counting " : "");
	}
	n->dev_id = dev->id;
	n->va = va;
	n->handle = handle;
	n->imported = imported;
	n->counting = counting;
	n->id = (uint32_t)id;
	n->next = nt_list;
	nt_list = n;
	handle_add(n, counting ? H_CNT_NOTIFY : H_NOTIFY);
	pthread_mutex_unlock(&nt_lock);
	*out = n;
	return ACL_SUCCESS;
}

static aclError need_cap(struct acl_device *dev)
{
	if (dev->info.capabilities & DRM_ASCEND_CAP_NOTIFY)
		return ACL_SUCCESS;
	return acl_err_at(acl_api_name, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			  "device %d's driver has no notifies (no DRM_ASCEND_CAP_NOTIFY)", dev->id);
}

/* A new notify's word on the current device. */
static aclError nt_create(void **notify, bool counting)
{
	struct drm_ascend_bo_create bo = {
		.size = NT_BYTES, .policy = DRM_ASCEND_BO_NORMAL_ONLY,
		.flags = DRM_ASCEND_BO_NO_HANDLE,
	};
	struct drm_ascend_bo_free bf = { 0 };
	struct acl_device *dev;
	aclError ret;
	int e;

	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	ret = need_cap(dev);
	if (ret)
		goto out;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_BO_CREATE, &bo)) {
		e = errno;
		ret = acl_err_at(acl_api_name, e == ENOSPC || e == ENOMEM || e == EDQUOT ?
			      ACL_ERROR_RT_NO_NOTIFY_RESOURCE :
			      acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			      "device %d: no device memory for a notify's word: %s", dev->id,
			      strerror(e));
		goto out;
	}
	ret = nt_publish(dev, bo.va, 0, false, counting, notify);
	if (ret) {
		bf.va = bo.va;
		drmIoctl(dev->fd, DRM_IOCTL_ASCEND_BO_FREE, &bf);
	}
out:
	dev_release(dev);
	return ret;
}

aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
	API_ENTER();
	if (!notify)
		return acl_err(ACL_ERROR_INVALID_PARAM, "notify is NULL");
	if (flag & ~(uint64_t)NT_FLAGS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag %#llx: only ACL_NOTIFY_DEFAULT (0) and ACL_NOTIFY_DEVICE_USE_ONLY (1) are valid",
			       (unsigned long long)flag);
	return nt_create(notify, false);
}

/* Withdraw @n's export on @dev (rw read-held).  nt_lock held. */
static void nt_unexport(struct acl_notify *n, struct acl_device *dev)
{
	struct drm_ascend_ipc_close c = { 0 };

	if (!n->key[0])
		return;
	memcpy(c.key, n->key, KEYLEN);
	drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_CLOSE, &c);
	n->key[0] = '\0';
}

static const char *nt_name(enum handle_type type)
{
	return type == H_CNT_NOTIFY ? "counting notify" : "notify";
}

/* A live notify of @type, nt_lock taken; on failure nothing is held. */
static aclError nt_get_type(void *notify, enum handle_type type, struct acl_notify **out)
{
	pthread_mutex_lock(&nt_lock);
	if (!notify || !handle_ok(notify, type)) {
		pthread_mutex_unlock(&nt_lock);
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p is not a live %s (NULL, never created, or destroyed)",
				  nt_name(type), notify, nt_name(type));
	}
	*out = notify;
	if ((*out)->lost) {
		pthread_mutex_unlock(&nt_lock);
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p was on device %d, which was reset since: destroy it",
				  nt_name(type), notify, (*out)->dev_id);
	}
	return ACL_SUCCESS;
}

static aclError nt_get(aclrtNotify notify, struct acl_notify **out)
{
	return nt_get_type(notify, H_NOTIFY, out);
}

static aclError nt_destroy(void *notify, enum handle_type type)
{
	struct acl_notify *n, **pp;
	struct acl_device *dev = NULL;
	int dev_id;

	pthread_mutex_lock(&nt_lock);
	if (!notify || !handle_ok(notify, type)) {
		pthread_mutex_unlock(&nt_lock);
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p is not a live %s (NULL, never created, or destroyed)",
				  nt_name(type), notify, nt_name(type));
	}
	n = notify;
	dev_id = n->dev_id;
	pthread_mutex_unlock(&nt_lock);

	/* a reset device's file is gone: nothing to free there */
	if (dev_acquire(dev_id, &dev))
		dev = NULL;
	pthread_mutex_lock(&nt_lock);
	if (!handle_ok(notify, type)) {	/* another thread was first */
		pthread_mutex_unlock(&nt_lock);
		if (dev)
			dev_release(dev);
		return acl_err_at(acl_api_name, ACL_ERROR_RT_PARAM_INVALID,
				  "%s %p was destroyed meanwhile", nt_name(type), notify);
	}
	handle_del(n);
	if (dev && !n->lost)
		nt_unexport(n, dev);
	n->zombie = true;
	if (dev)
		reap(dev);
	else if (n->lost && !n->busy) {
		for (pp = &nt_list; *pp; pp = &(*pp)->next) {
			if (*pp == n) {
				*pp = n->next;
				nt_free(n);
				break;
			}
		}
	}
	pthread_mutex_unlock(&nt_lock);
	if (dev)
		dev_release(dev);
	return ACL_SUCCESS;
}

aclError aclrtDestroyNotify(aclrtNotify notify)
{
	API_ENTER();
	return nt_destroy(notify, H_NOTIFY);
}

/* Submit @cmd naming the word of @notify (of @type) on @stream. */
static aclError nt_submit(void *notify, enum handle_type type, aclrtStream stream,
			  struct ascend_cmd *cmd)
{
	struct acl_device *sdev;
	struct acl_notify *n;
	struct acl_stream *s;
	uint64_t seq = 0;
	aclError ret;
	int wid;

	ret = stream_acquire(stream, &s, &sdev);
	if (ret)
		return ret;
	ret = need_cap(sdev);
	if (!ret)
		ret = nt_get_type(notify, type, &n);
	if (ret) {
		stream_release(s, sdev);
		return ret;
	}
	wid = n->dev_id;
	if (wid != sdev->id && !peer_enabled(sdev->id, wid)) {
		pthread_mutex_unlock(&nt_lock);
		stream_release(s, sdev);
		return acl_err_at(acl_api_name, ACL_ERROR_RT_STREAM_CONTEXT,
				  "%s %p is on device %d but the stream is on device %d, which has no peer access to it (aclrtDeviceEnablePeerAccess(%d, 0) with device %d current)",
				  nt_name(type), notify, wid, sdev->id, wid, sdev->id);
	}
	cmd->value.addr = n->va;
	n->busy++;	/* not reaped while the command is being written */
	pthread_mutex_unlock(&nt_lock);
	/* not under nt_lock: a full ring waits for the device */
	ret = stream_submit_seq(s, cmd, &seq);
	pthread_mutex_lock(&nt_lock);
	n->busy--;
	if (!ret)
		stream_uses_add(&n->uses, s, seq);
	pthread_mutex_unlock(&nt_lock);
	stream_release(s, sdev);
	return ret;
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WRITE_VALUE };

	API_ENTER();
	cmd.value.value = 1;
	return nt_submit(notify, H_NOTIFY, stream, &cmd);
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WAIT_VALUE };

	API_ENTER();
	/* CANN's timeout is in seconds, 0 = no limit */
	if (timeout > UINT32_MAX / 1000)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %u s is longer than the device can time (at most %u s)",
			       timeout, UINT32_MAX / 1000);
	cmd.value.value = 1;
	cmd.value.cond = ASCEND_WAIT_VALUE_EQ | ASCEND_WAIT_VALUE_RESET |
			 ASCEND_WAIT_VALUE_OWN_LIMIT;
	cmd.value.timeout_ms = timeout * 1000;
	return nt_submit(notify, H_NOTIFY, stream, &cmd);
}

static aclError nt_get_id(void *notify, enum handle_type type, uint32_t *notifyId)
{
	struct acl_notify *n;
	aclError ret;

	if (!notifyId)
		return acl_err_at(acl_api_name, ACL_ERROR_INVALID_PARAM, "notifyId is NULL");
	ret = nt_get_type(notify, type, &n);
	if (ret)
		return ret;
	*notifyId = n->id;
	pthread_mutex_unlock(&nt_lock);
	return ACL_SUCCESS;
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
	API_ENTER();
	return nt_get_id(notify, H_NOTIFY, notifyId);
}

/*
 * Reset @num words of device @dev (rw read-held) on a queue of its own:
 * not behind the streams (a stream may be parked on one of them), and
 * done when this returns.
 */
static aclError reset_words(struct acl_device *dev, const uint64_t *va, size_t num)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WRITE_VALUE };
	struct acl_queue q;
	aclError ret, r;
	bool to;
	size_t i;

	ret = queue_create(dev->fd, NULL, &q);
	if (ret)
		return ret;
	for (i = 0; i < num && !ret; i++) {
		cmd.value.addr = va[i];
		ret = queue_submit2(dev->fd, &q, &cmd, sizeof(cmd), NULL, 0);
	}
	if (!ret && i)
		ret = queue_wait(dev->fd, &q, q.wptr, DRM_ASCEND_TIMEOUT_INFINITE, &to);
	r = queue_destroy(dev->fd, &q, ret != ACL_SUCCESS);
	queue_unmap(&q);
	return ret ? ret : r;
}

aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num)
{
	struct acl_notify *n;
	struct acl_device *dev;
	uint64_t *va;
	int *dev_of;
	aclError ret = ACL_SUCCESS;
	size_t i, k, m;

	API_ENTER();
	if (!notifies)
		return acl_err(ACL_ERROR_INVALID_PARAM, "notifies is NULL");
	if (!num)
		return acl_err(ACL_ERROR_INVALID_PARAM, "num is 0");
	va = calloc(num, sizeof(*va));
	dev_of = calloc(num, sizeof(*dev_of));
	if (!va || !dev_of) {
		free(va);
		free(dev_of);
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	/* every handle is checked before any word is reset */
	for (i = 0; i < num && !ret; i++) {
		ret = nt_get(notifies[i], &n);
		if (ret)
			break;
		dev_of[i] = n->dev_id;
		pthread_mutex_unlock(&nt_lock);
	}
	/* device by device: the words of each on a queue of its own */
	for (i = 0; i < num && !ret; i++) {
		if (dev_of[i] < 0)
			continue;	/* its device was done with an earlier one */
		ret = dev_acquire(dev_of[i], &dev);
		if (ret)
			break;
		pthread_mutex_lock(&nt_lock);
		for (m = 0, k = i; k < num; k++) {
			if (dev_of[k] != dev->id)
				continue;
			dev_of[k] = -1;
			n = notifies[k];
			if (handle_ok(n, H_NOTIFY) && !n->lost)
				va[m++] = n->va;
		}
		pthread_mutex_unlock(&nt_lock);
		ret = need_cap(dev);
		if (!ret && m)
			ret = reset_words(dev, va, m);
		dev_release(dev);
	}
	free(va);
	free(dev_of);
	return ret;
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags)
{
	struct acl_notify *n;
	struct acl_device *dev;
	char k[KEYLEN];
	aclError ret;
	int id;

	API_ENTER();
	if (!key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "key is NULL");
	if (len < KEYLEN)
		return acl_err(ACL_ERROR_INVALID_PARAM, "len %zu is shorter than a key (%d bytes)",
			       len, KEYLEN);
	if (flags & ~(uint64_t)ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags %#llx: only ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (0) and _DISABLE_PID_VALIDATION (2) are valid",
			       (unsigned long long)flags);
	ret = nt_get(notify, &n);
	if (ret)
		return ret;
	if (n->imported) {
		pthread_mutex_unlock(&nt_lock);
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "notify %p was imported (aclrtNotifyImportByKey): only its creator exports it",
			       notify);
	}
	id = n->dev_id;
	pthread_mutex_unlock(&nt_lock);
	ret = dev_acquire(id, &dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&nt_lock);
	if (!handle_ok(notify, H_NOTIFY) || n->lost) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM, "notify %p was destroyed meanwhile", notify);
	} else if (n->key[0]) {
		memcpy(key, n->key, KEYLEN);	/* CANN: the same key again */
	} else {
		ret = ipc_export(dev, DRM_ASCEND_IPC_NOTIFY,
				 flags & ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION ?
				 DRM_ASCEND_IPC_NO_PID_CHECK : 0, n->va, sizeof(uint64_t), 0, k);
		if (!ret) {
			memcpy(n->key, k, KEYLEN);
			memcpy(key, k, KEYLEN);
		}
	}
	pthread_mutex_unlock(&nt_lock);
	dev_release(dev);
	return ret;
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num)
{
	struct drm_ascend_ipc_set_pid sp = { 0 };
	struct acl_notify *n;
	struct acl_device *dev;
	aclError ret;
	int id, e;

	API_ENTER();
	if (!pid)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pid is NULL");
	if (!num || num > 1024)
		return acl_err(ACL_ERROR_INVALID_PARAM, "num %zu is not in 1..1024", num);
	ret = nt_get(notify, &n);
	if (ret)
		return ret;
	id = n->dev_id;
	if (!n->key[0]) {
		pthread_mutex_unlock(&nt_lock);
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "notify %p is not exported: call aclrtNotifyGetExportKey first", notify);
	}
	memcpy(sp.key, n->key, KEYLEN);
	pthread_mutex_unlock(&nt_lock);
	sp.pids = (uintptr_t)pid;
	sp.count = (uint32_t)num;
	ret = dev_acquire(id, &dev);
	if (ret)
		return ret;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &sp)) {
		e = errno;
		if (e == ESRCH)
			ret = acl_err(ACL_ERROR_INVALID_PARAM,
				      "a pid of the list names no live process (nothing was added)");
		else if (e == EINVAL)
			ret = acl_err(ACL_ERROR_INVALID_PARAM,
				      "a pid of the list is not a process id (<= 0)");
		else if (e == ENOENT)
			ret = acl_err(ACL_ERROR_INVALID_PARAM,
				      "the export of notify %p was withdrawn", notify);
		else
			ret = acl_err(acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
				      "setting the import pids failed: %s", strerror(e));
	}
	dev_release(dev);
	return ret;
}

aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids,
					    size_t num)
{
	(void)notify;
	(void)serverPids;
	(void)num;
	API_ENTER();
	return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		       "aclrtNotifySetImportPidInterServer is for super-node servers (Atlas A3); this host is one server: use aclrtNotifySetImportPid");
}

/* Import @k as a notify on device @id; *@out on success. */
static aclError import_on(int id, const char k[KEYLEN], aclrtNotify *out)
{
	struct drm_ascend_ipc_import im;
	struct drm_gem_close gc = { 0 };
	struct acl_device *dev;
	aclError ret;

	ret = dev_acquire(id, &dev);
	if (ret)
		return ret;
	ret = need_cap(dev);
	if (!ret)
		ret = ipc_import(dev, k, DRM_ASCEND_IPC_NOTIFY, &im);
	if (!ret) {
		ret = nt_publish(dev, im.va, im.handle, true, false, out);
		if (ret) {
			gc.handle = im.handle;
			drmIoctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &gc);
		}
	}
	dev_release(dev);
	return ret;
}

aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags)
{
	aclrtNotify n = NULL;
	char k[KEYLEN];
	aclError ret = ACL_ERROR_RT_PARAM_INVALID;
	int cur, i, count;

	API_ENTER();
	if (!notify)
		return acl_err(ACL_ERROR_INVALID_PARAM, "notify is NULL");
	if (!key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "key is NULL");
	if (strnlen(key, KEYLEN) != KEYLEN - 1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key is not a notify key (%d characters from aclrtNotifyGetExportKey)",
			       KEYLEN - 1);
	memcpy(k, key, KEYLEN);
	if (flags & ~(uint64_t)ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags %#llx: only ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT (0) and _ENABLE_PEER_ACCESS (2) are valid",
			       (unsigned long long)flags);
	cur = dev_current();
	if (cur < 0)
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "no current device: call aclrtSetDevice first");
	/* the exporter's device maps it: the current one first */
	count = dev_count();
	for (i = -1; i < count && ret; i++) {
		int id = i < 0 ? cur : i;

		if (i == cur)
			continue;
		if (id != cur) {
			dev_lock();
			ret = dev_open_locked(dev_by_id(id));
			dev_unlock();
			if (ret) {
				ret = ACL_ERROR_RT_PARAM_INVALID;
				continue;
			}
		}
		ret = import_on(id, k, &n);
		if (ret && ret != ACL_ERROR_RT_PARAM_INVALID)
			return ret;
		if (!ret && id != cur &&
		    (flags & ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS) &&
		    !peer_enabled(cur, id)) {
			ret = peer_set(id, DRM_ASCEND_PEER_ENABLE);
			if (ret) {
				aclrtDestroyNotify(n);
				API_ENTER();
				return acl_err(ret,
					       "key \"%.8s...\" is a notify of device %d, but peer access from device %d to it cannot be enabled",
					       k, id, cur);
			}
		}
	}
	if (ret)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "key \"%.8s...\" is no notify on any device, was withdrawn by its exporter, or process %d is not allowed to import it (aclrtNotifySetImportPid)",
			       k, (int)getpid());
	*notify = n;
	return ACL_SUCCESS;
}

/* ---- counting notifies --------------------------------------------- */

aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag)
{
	API_ENTER();
	if (!cntNotify)
		return acl_err(ACL_ERROR_INVALID_PARAM, "cntNotify is NULL");
	if (flag)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag %#llx is reserved and must be 0",
			       (unsigned long long)flag);
	return nt_create(cntNotify, true);
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify)
{
	API_ENTER();
	return nt_destroy(cntNotify, H_CNT_NOTIFY);
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId)
{
	API_ENTER();
	return nt_get_id(cntNotify, H_CNT_NOTIFY, notifyId);
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
			      aclrtCntNotifyRecordInfo *info)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WRITE_VALUE };

	API_ENTER();
	if (!info)
		return acl_err(ACL_ERROR_INVALID_PARAM, "info is NULL");
	switch (info->mode) {
	case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE:
		cmd.value.cond = ASCEND_WRITE_VALUE_STORE;
		break;
	case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE:
		cmd.value.cond = ASCEND_WRITE_VALUE_ADD;
		break;
	case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE:
		cmd.value.cond = ASCEND_WRITE_VALUE_OR;
		break;
	case ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE:
		cmd.value.cond = ASCEND_WRITE_VALUE_AND;
		break;
	default:
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "info->mode %d is not an aclrtCntNotifyRecordMode (SET_VALUE 0, ADD 1, BIT_OR 2, BIT_AND 4)",
			       (int)info->mode);
	}
	cmd.value.value = info->value;
	return nt_submit(cntNotify, H_CNT_NOTIFY, stream, &cmd);
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
				       aclrtCntNotifyWaitInfo *info)
{
	static const uint32_t conds[] = {
		[ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE] = ASCEND_WAIT_VALUE_LT,
		[ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE] = ASCEND_WAIT_VALUE_EQ,
		[ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE] = ASCEND_WAIT_VALUE_GT,
		[ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE] = ASCEND_WAIT_VALUE_GEQ,
		[ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE] = ASCEND_WAIT_VALUE_ALL,
	};
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WAIT_VALUE };

	API_ENTER();
	if (!info)
		return acl_err(ACL_ERROR_INVALID_PARAM, "info is NULL");
	if ((unsigned int)info->mode >= sizeof(conds) / sizeof(conds[0]))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "info->mode %d is not an aclrtCntNotifyWaitMode (0..4)",
			       (int)info->mode);
	if (info->isClear > 1)
		return acl_err(ACL_ERROR_INVALID_PARAM, "info->isClear %u is neither 0 nor 1",
			       info->isClear);
	/* seconds, 0 = no limit */
	if (info->timeout > UINT32_MAX / 1000)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "info->timeout %u s is longer than the device can time (at most %u s)",
			       info->timeout, UINT32_MAX / 1000);
	/*
	 * GEQ is the device's wrapping comparison, (s64)(count - value) >= 0:
	 * for a count and a value below 2^63 it is the unsigned one.
	 */
	cmd.value.value = info->value;
	cmd.value.cond = conds[info->mode] | ASCEND_WAIT_VALUE_OWN_LIMIT |
			 (info->isClear ? ASCEND_WAIT_VALUE_RESET : 0);
	cmd.value.timeout_ms = info->timeout * 1000;
	return nt_submit(cntNotify, H_CNT_NOTIFY, stream, &cmd);
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WRITE_VALUE };

	API_ENTER();
	return nt_submit(cntNotify, H_CNT_NOTIFY, stream, &cmd);
}
