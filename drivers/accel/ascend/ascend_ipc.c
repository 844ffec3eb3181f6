// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inter-process sharing: DRM_IOCTL_ASCEND_IPC_EXPORT / _SET_PID / _IMPORT
 * / _CLOSE for device memory and events.
 *
 * Why not dma-buf/PRIME: a dma-buf is a file descriptor, and whoever holds
 * it may import; CANN's model is a printable key plus an allow-list of
 * processes that the kernel must enforce, and memory that the importer
 * sees in its own device address space.  So exports live in one
 * module-wide table holding kernel references (an &ascend_hbm_buf or an
 * &ascend_event); an import maps the same HBM at a new VA of the
 * importer's window with its own GEM handle (ascend_gem_import()), or
 * puts the same event in the importer's event table.
 *
 * Keys are 64 hex digits: the first 8 are the export's index in the
 * table (an xarray, indices handed out cyclically, so a withdrawn key's
 * index is not soon reused), the other 56 are 224 random bits from
 * get_random_bytes().  A lookup is one xarray look-up by the index and
 * one crypto_memneq() of the whole key against that one export's, however
 * many exports there are.  An unknown key, a withdrawn export, a key of
 * another type or device, and a process not on the allow-list all fail
 * with -ENOENT.  The index is no secret (it tells roughly how many
 * exports were made); the 224 bits are, and neither the answer nor the
 * time of a lookup tells a guesser anything about them.  Export objects,
 * their allow-lists and the xarray's nodes (dense indices: a few bytes an
 * export) are charged to the caller's memory cgroup; a file has at most
 * %ASCEND_IPC_MAX_EXPORTS.
 *
 * Lifetime: an export holds the object; IPC_CLOSE or the exporting file's
 * postclose withdraws it (existing imports keep the object alive).  Only
 * the exporting file may set pids on or close its exports.
 */
#include <crypto/utils.h>
#include <linux/ctype.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ascend_drv.h"
#include "ascend_event.h"
#include "ascend_gem.h"
#include "ascend_hbm.h"
#include "ascend_ipc.h"
#include "ascend_vmm.h"

static struct ascend_ipc_table ascend_ipc = {
	.lock = __MUTEX_INITIALIZER(ascend_ipc.lock),
	.exports = XARRAY_INIT(ascend_ipc.exports,
			       XA_FLAGS_ALLOC | XA_FLAGS_ACCOUNT),
};

void ascend_ipc_table_init(struct ascend_ipc_table *t)
{
	mutex_init(&t->lock);
	xa_init_flags(&t->exports, XA_FLAGS_ALLOC | XA_FLAGS_ACCOUNT);
	t->next = 0;
	t->nr = 0;
}

void ascend_ipc_key_generate(char key[DRM_ASCEND_IPC_KEY_LEN])
{
	u8 raw[ASCEND_IPC_KEY_HEX / 2];

	get_random_bytes(raw, sizeof(raw));
	bin2hex(key, raw, sizeof(raw));
	key[ASCEND_IPC_KEY_HEX] = '\0';
	memzero_explicit(raw, sizeof(raw));
}

bool ascend_ipc_key_valid(const char key[DRM_ASCEND_IPC_KEY_LEN])
{
	unsigned int i;

	for (i = 0; i < ASCEND_IPC_KEY_HEX; i++)
		if (!isdigit(key[i]) && !(key[i] >= 'a' && key[i] <= 'f'))
			return false;
	return key[ASCEND_IPC_KEY_HEX] == '\0';
}

bool ascend_ipc_key_index(const char *key, u32 *index)
{
	u32 v = 0;
	int d, i;

	for (i = 0; i < ASCEND_IPC_KEY_INDEX_HEX; i++) {
		/* lowercase only, as the keys are written */
		d = isupper(key[i]) ? -1 : hex_to_bin(key[i]);
		if (d < 0)
			return false;
		v = v << 4 | d;
	}
	*index = v;
	return true;
}

struct ascend_ipc_export *ascend_ipc_find_locked(struct ascend_ipc_table *t,
						 const char *key,
						 const struct ascend_file *owner)
{
	struct ascend_ipc_export *exp;
	u32 index;

	lockdep_assert_held(&t->lock);
	if (!ascend_ipc_key_index(key, &index))
		return NULL;
	exp = xa_load(&t->exports, index);
	/* the one candidate, compared in constant time */
	if (!exp || crypto_memneq(exp->key, key, DRM_ASCEND_IPC_KEY_LEN))
		return NULL;
	if (owner && exp->owner != owner)
		return NULL;
	return exp;
}

int ascend_ipc_insert_locked(struct ascend_ipc_table *t,
			     struct ascend_ipc_export *exp)
{
	char idx[ASCEND_IPC_KEY_INDEX_HEX + 1];
	int ret;

	lockdep_assert_held(&t->lock);
	/* 1: the indices wrapped, which is fine */
	ret = xa_alloc_cyclic(&t->exports, &exp->index, exp, xa_limit_32b,
			      &t->next, GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;
	/* the index, then random digits: unique, and unguessable */
	ascend_ipc_key_generate(exp->key);
	snprintf(idx, sizeof(idx), "%08x", exp->index);
	memcpy(exp->key, idx, ASCEND_IPC_KEY_INDEX_HEX);
	/* a physical allocation's key must fit CANN's 64-bit handle */
	if (exp->type == DRM_ASCEND_IPC_PHYS)
		memset(exp->key + DRM_ASCEND_IPC_PHYS_KEY_DIGITS, '0',
		       ASCEND_IPC_KEY_HEX - DRM_ASCEND_IPC_PHYS_KEY_DIGITS);
	t->nr++;
	return 0;
}

void ascend_ipc_remove_locked(struct ascend_ipc_table *t,
			      struct ascend_ipc_export *exp)
{
	lockdep_assert_held(&t->lock);
	xa_erase(&t->exports, exp->index);
	t->nr--;
}

static bool ascend_ipc_has_pid(const struct ascend_ipc_export *exp,
			       const struct pid *pid)
{
	unsigned int i;

	for (i = 0; i < exp->nr_pids; i++)
		if (exp->pids[i] == pid)
			return true;
	return false;
}

int ascend_ipc_add_pids_locked(struct ascend_ipc_export *exp,
			       struct pid **pids, unsigned int n)
{
	unsigned int i, j, fresh = 0;
	struct pid **list;
	int ret = 0;

	for (i = 0; i < n; i++) {
		if (ascend_ipc_has_pid(exp, pids[i]))
			continue;
		for (j = 0; j < i && pids[j] != pids[i]; j++)
			;
		if (j == i)
			fresh++;
	}
	if (!fresh)
		goto out;
	if (exp->nr_pids + fresh > ASCEND_IPC_MAX_PIDS) {
		ret = -ENOSPC;
		goto out;
	}
	list = krealloc_array(exp->pids, exp->nr_pids + fresh, sizeof(*list),
			      GFP_KERNEL_ACCOUNT);
	if (!list) {
		ret = -ENOMEM;
		goto out;
	}
	exp->pids = list;
	for (i = 0; i < n; i++) {
		if (ascend_ipc_has_pid(exp, pids[i]))
			continue;
		/* the list takes this reference */
		exp->pids[exp->nr_pids++] = pids[i];
		pids[i] = NULL;
	}
out:
	for (i = 0; i < n; i++)
		put_pid(pids[i]);
	return ret;
}

bool ascend_ipc_may_import_locked(const struct ascend_ipc_export *exp,
				  const struct pid *tgid)
{
	if (exp->flags & DRM_ASCEND_IPC_NO_PID_CHECK)
		return true;
	return tgid == exp->owner_tgid || ascend_ipc_has_pid(exp, tgid);
}

void ascend_ipc_export_free(struct ascend_ipc_export *exp)
{
	if (exp->buf)
		ascend_hbm_buf_put(exp->buf);
	if (exp->event)
		ascend_event_unhold(exp->event);
	while (exp->nr_pids)
		put_pid(exp->pids[--exp->nr_pids]);
	kfree(exp->pids);
	put_pid(exp->owner_tgid);
	memzero_explicit(exp->key, sizeof(exp->key));
	kfree(exp);
}

void ascend_ipc_file_fini(struct ascend_file *af)
{
	struct ascend_ipc_export *exp, *tmp;
	LIST_HEAD(gone);

	/* the file's own list: no walk over other files' exports */
	mutex_lock(&ascend_ipc.lock);
	list_for_each_entry_safe(exp, tmp, &af->ipc_exports, file_link) {
		ascend_ipc_remove_locked(&ascend_ipc, exp);
		list_move(&exp->file_link, &gone);
	}
	af->nr_ipc_exports = 0;
	mutex_unlock(&ascend_ipc.lock);

	list_for_each_entry_safe(exp, tmp, &gone, file_link)
		ascend_ipc_export_free(exp);
}

/* ------------------------------------------------------------------------ */
/* ioctls */

static bool ascend_ipc_zero(const void *p, size_t n)
{
	return !memchr_inv(p, 0, n);
}

int ascend_ioctl_ipc_export(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_ipc_export *args = data;
	struct ascend_ipc_export *exp;
	struct ascend_event *e;
	int ret;

	if (args->flags & ~DRM_ASCEND_IPC_NO_PID_CHECK || args->pad ||
	    !ascend_ipc_zero(args->pad2, sizeof(args->pad2)))
		return -EINVAL;
	if (args->type == DRM_ASCEND_IPC_MEM) {
		if (args->event || !args->size)
			return -EINVAL;
	} else if (args->type == DRM_ASCEND_IPC_NOTIFY) {
		/*
		 * One word at the start of a page: an import maps the page
		 * (the granule of the device MMU), so the exporter keeps
		 * nothing else there.
		 */
		if (args->event || args->size != sizeof(u64) ||
		    !IS_ALIGNED(args->va, ASCEND_HBM_PAGE_NORMAL))
			return -EINVAL;
	} else if (args->type == DRM_ASCEND_IPC_EVENT ||
		   args->type == DRM_ASCEND_IPC_PHYS) {
		if (args->va || args->size)
			return -EINVAL;
	} else {
		return -EINVAL;
	}

	exp = kzalloc(sizeof(*exp), GFP_KERNEL_ACCOUNT);
	if (!exp)
		return -ENOMEM;
	exp->owner = af;
	exp->adev = af->adev;
	exp->owner_tgid = get_pid(task_tgid(current));
	exp->type = args->type;
	exp->flags = args->flags;

	if (args->type == DRM_ASCEND_IPC_PHYS) {
		ret = ascend_vmm_phys_buf(file, args->event, &exp->buf);
		if (ret)
			goto err_free;
		exp->size = exp->buf->mem.size;
	} else if (args->type != DRM_ASCEND_IPC_EVENT) {
		ret = ascend_gem_find_buf(af, args->va, args->size, &exp->buf,
					  &exp->offset);
		if (ret)
			goto err_free;
		exp->size = args->size;
	} else {
		e = ascend_event_get(af, args->event);
		if (!e) {
			ret = -ENOENT;
			goto err_free;
		}
		/*
		 * A reference is no handle: an EVENT_DESTROY of the last one
		 * may have run since the look-up (it killed the event).
		 */
		if (!ascend_event_hold_live(e)) {
			ascend_event_put(e);
			ret = -ENOENT;
			goto err_free;
		}
		ascend_event_put(e);
		exp->event = e;
	}

	mutex_lock(&ascend_ipc.lock);
	if (af->nr_ipc_exports >= ASCEND_IPC_MAX_EXPORTS) {
		mutex_unlock(&ascend_ipc.lock);
		ret = -ENOSPC;
		goto err_free;
	}
	ret = ascend_ipc_insert_locked(&ascend_ipc, exp);
	if (ret) {
		mutex_unlock(&ascend_ipc.lock);
		goto err_free;
	}
	list_add_tail(&exp->file_link, &af->ipc_exports);
	af->nr_ipc_exports++;
	memcpy(args->key, exp->key, sizeof(args->key));
	mutex_unlock(&ascend_ipc.lock);
	return 0;

err_free:
	ascend_ipc_export_free(exp);
	return ret;
}

/*
 * The live thread group @nr names in the initial PID namespace (CANN's
 * "bare tgid", what aclrtDeviceGetBareTgid() gives every process, in a
 * container too), with a reference; NULL if there is none.
 */
static struct pid *ascend_ipc_find_tgid(s32 nr)
{
	struct pid *pid;

	rcu_read_lock();
	pid = find_pid_ns(nr, &init_pid_ns);
	if (pid && !pid_has_task(pid, PIDTYPE_TGID))
		pid = NULL;
	pid = get_pid(pid);
	rcu_read_unlock();
	return pid;
}

int ascend_ioctl_ipc_set_pid(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_ipc_set_pid *args = data;
	struct ascend_ipc_export *exp;
	struct pid **refs;
	unsigned int i;
	s32 *pids;
	int ret;

	if (!ascend_ipc_zero(args->pad, sizeof(args->pad)) || args->pad2 ||
	    !args->count || args->count > ASCEND_IPC_MAX_PIDS)
		return -EINVAL;

	pids = memdup_array_user(u64_to_user_ptr(args->pids), args->count,
				 sizeof(*pids));
	if (IS_ERR(pids))
		return PTR_ERR(pids);
	refs = kcalloc(args->count, sizeof(*refs), GFP_KERNEL_ACCOUNT);
	if (!refs) {
		ret = -ENOMEM;
		goto out_free;
	}
	/* the processes now, by identity: a number recycled later is not them */
	for (i = 0; i < args->count; i++) {
		ret = pids[i] > 0 ? 0 : -EINVAL;
		if (!ret) {
			refs[i] = ascend_ipc_find_tgid(pids[i]);
			ret = refs[i] ? 0 : -ESRCH;
		}
		if (ret)
			goto out_put;
	}

	mutex_lock(&ascend_ipc.lock);
	exp = ascend_ipc_find_locked(&ascend_ipc, args->key, af);
	if (!exp) {
		mutex_unlock(&ascend_ipc.lock);
		ret = -ENOENT;
		goto out_put;
	}
	ret = ascend_ipc_add_pids_locked(exp, refs, args->count);
	mutex_unlock(&ascend_ipc.lock);
	goto out_free;

out_put:
	for (i = 0; i < args->count; i++)
		put_pid(refs[i]);
out_free:
	kfree(refs);
	kfree(pids);
	return ret;
}

int ascend_ipc_import_take_locked(struct ascend_ipc_table *t,
				  const char *key, u32 type,
				  const struct ascend_device *adev,
				  const struct pid *tgid,
				  struct ascend_ipc_take *take)
{
	struct ascend_ipc_export *exp;

	lockdep_assert_held(&t->lock);
	memset(take, 0, sizeof(*take));
	exp = ascend_ipc_find_locked(t, key, NULL);
	/*
	 * Every refusal is the same refusal.  An event may go to a file of
	 * another device (its table entry names the owner's slot); memory
	 * is mapped by the importer's MMU and must be its device's.
	 */
	if (!exp || exp->type != type ||
	    (exp->adev != adev && type != DRM_ASCEND_IPC_EVENT) ||
	    !ascend_ipc_may_import_locked(exp, tgid))
		return -ENOENT;
	if (exp->buf) {
		take->buf = exp->buf;
		ascend_hbm_buf_get(take->buf);
		take->offset = exp->offset;
		take->size = exp->size;
	} else {
		/*
		 * A handle, not only a reference: the export holds one while
		 * it is listed, so the count is not 0 here, and an IPC_CLOSE
		 * right after the lock is dropped cannot kill the event
		 * before the importer's table holds it.
		 */
		take->event = exp->event;
		ascend_event_hold(take->event);
	}
	return 0;
}

void ascend_ipc_take_drop(struct ascend_ipc_take *take)
{
	if (take->buf)
		ascend_hbm_buf_put(take->buf);
	if (take->event)
		ascend_event_unhold(take->event);
	memset(take, 0, sizeof(*take));
}

int ascend_ioctl_ipc_import(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_ipc_import *args = data;
	struct ascend_ipc_take take;
	int ret;

	if (!ascend_ipc_zero(args->pad, sizeof(args->pad)) || args->page_size ||
	    args->flags || (args->type != DRM_ASCEND_IPC_MEM &&
			    args->type != DRM_ASCEND_IPC_EVENT &&
			    args->type != DRM_ASCEND_IPC_NOTIFY &&
			    args->type != DRM_ASCEND_IPC_PHYS))
		return -EINVAL;

	mutex_lock(&ascend_ipc.lock);
	ret = ascend_ipc_import_take_locked(&ascend_ipc, args->key, args->type,
					    af->adev, task_tgid(current), &take);
	mutex_unlock(&ascend_ipc.lock);
	if (ret)
		return ret;

	if (args->type == DRM_ASCEND_IPC_PHYS) {
		args->va = 0;
		args->size = take.size;
		args->page_size = take.buf->mem.page_size;
		/* the object takes the reference, also when it fails */
		ret = ascend_vmm_phys_import(file, take.buf, &args->handle);
		take.buf = NULL;
	} else if (take.buf) {
		ret = ascend_gem_import(file, take.buf, take.offset, take.size,
					&args->va, &args->handle);
		if (!ret)
			args->size = take.size;
	} else {
		ret = ascend_event_import(af, take.event, &args->handle);
		if (!ret)	/* the importer's table has the handle now */
			take.event = NULL;
	}
	ascend_ipc_take_drop(&take);
	return ret;
}

int ascend_ioctl_ipc_close(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_ipc_close *args = data;
	struct ascend_ipc_export *exp;

	if (!ascend_ipc_zero(args->pad, sizeof(args->pad)))
		return -EINVAL;

	mutex_lock(&ascend_ipc.lock);
	exp = ascend_ipc_find_locked(&ascend_ipc, args->key, af);
	if (exp) {
		ascend_ipc_remove_locked(&ascend_ipc, exp);
		list_del(&exp->file_link);
		af->nr_ipc_exports--;
	}
	mutex_unlock(&ascend_ipc.lock);
	if (!exp)
		return -ENOENT;
	ascend_ipc_export_free(exp);
	return 0;
}
