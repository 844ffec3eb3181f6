// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-user shares of one NPU (ascend_user.h).
 *
 * A user is a uid of the initial user namespace, taken from the credentials
 * of the task that opens the device: a file passed to another process
 * keeps charging its opener, like the rest of what the file holds.  The
 * device keeps one &struct ascend_user per user with something on it, in
 * an xarray keyed by that uid; the entry goes when its last file, queue
 * and buffer are gone.
 *
 * Event slots are bounded per user (user_max_events, default 16384 of the
 * device's 65535).  Queues are bounded per user (user_max_queues, default 2048) under the
 * device-wide max_queues (default 8192), so that one user holding many
 * files cannot take every queue: with the defaults four users get their
 * whole share.  HBM is bounded per user to user_hbm_percent of the device
 * (default 50): one user never leaves another less than half of the
 * device.  The percentage is of what the device can hold written
 * (hbm_store_size: less than its HBM on the emulated NPU, whose HBM is
 * backed by a slice of host memory), so that one user writing its whole
 * share leaves the others room to write theirs.  Both are checked before
 * anything is allocated.  A caller with CAP_SYS_RESOURCE is counted but
 * not refused (as for other resource limits), up to what the device has.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "ascend_drv.h"
#include "ascend_user.h"

static unsigned int user_max_queues = 2048;
module_param(user_max_queues, uint, 0644);
MODULE_PARM_DESC(user_max_queues,
		 "Queues the files of one user (uid) may hold on one NPU (default 2048); QUEUE_CREATE fails with -ENOSPC beyond");

static unsigned int user_max_events = 16384;
module_param(user_max_events, uint, 0644);
MODULE_PARM_DESC(user_max_events,
		 "Event slots the files of one user (uid) may hold on one NPU (default 16384 of 65535); EVENT_CREATE fails with -ENOSPC beyond");

static unsigned int user_hbm_percent = 50;
module_param(user_hbm_percent, uint, 0644);
MODULE_PARM_DESC(user_hbm_percent,
		 "Share of an NPU's HBM one user (uid) may hold, in percent (default 50, at most 100); BO_CREATE fails with -EDQUOT beyond");

unsigned int ascend_user_queue_share(void)
{
	return min(READ_ONCE(user_max_queues), ascend_queue_max());
}

u64 ascend_user_hbm_share(struct ascend_device *adev)
{
	unsigned int pct = min(READ_ONCE(user_hbm_percent), 100U);

	/* at most hbm_size: ascend_read_properties() */
	if (pct == 100)
		return adev->hbm_store_size;
	return div_u64(adev->hbm_store_size, 100) * pct;
}

/* Is the calling task above the shares?  Asked without an audit record. */
static bool ascend_user_exempt(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_SYS_RESOURCE);
}

unsigned int ascend_user_max_queues(void)
{
	return ascend_user_exempt() ? ascend_queue_max() :
				      ascend_user_queue_share();
}

u64 ascend_user_hbm_quota(struct ascend_device *adev)
{
	return ascend_user_exempt() ? adev->hbm_size :
				      ascend_user_hbm_share(adev);
}

void ascend_users_init(struct ascend_device *adev)
{
	xa_init(&adev->users);
}

void ascend_users_fini(struct ascend_device *adev)
{
	/* every file, queue and buffer went before the device */
	WARN_ON(!xa_empty(&adev->users));
	xa_destroy(&adev->users);
}

struct ascend_user *ascend_user_get(struct ascend_user *u)
{
	kref_get(&u->ref);
	return u;
}

struct ascend_user *ascend_user_get_current(struct ascend_device *adev)
{
	kuid_t uid = current_uid();
	unsigned long key = from_kuid(&init_user_ns, uid);
	struct ascend_user *u, *old;

	xa_lock(&adev->users);
	u = xa_load(&adev->users, key);
	/* an entry whose last reference is going is replaced below */
	if (u && !kref_get_unless_zero(&u->ref))
		u = NULL;
	xa_unlock(&adev->users);
	if (u)
		return u;

	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (!u)
		return NULL;
	kref_init(&u->ref);
	u->adev = adev;
	u->uid = uid;
	spin_lock_init(&u->lock);

	xa_lock(&adev->users);
	old = __xa_store(&adev->users, key, u, GFP_KERNEL_ACCOUNT);
	if (xa_is_err(old)) {
		xa_unlock(&adev->users);
		kfree(u);
		return NULL;
	}
	/* another opener of the same user was first: use its entry */
	if (old && kref_get_unless_zero(&old->ref)) {
		__xa_store(&adev->users, key, old, 0);
		xa_unlock(&adev->users);
		kfree(u);
		return old;
	}
	xa_unlock(&adev->users);
	return u;
}

static void ascend_user_release(struct kref *ref)
{
	struct ascend_user *u = container_of(ref, struct ascend_user, ref);
	struct ascend_device *adev = u->adev;

	WARN_ON(u->queues || u->events || u->hbm);
	/* a newer entry of the same user may have replaced this one */
	xa_cmpxchg(&adev->users, from_kuid(&init_user_ns, u->uid), u, NULL, 0);
	kfree(u);
}

void ascend_user_put(struct ascend_user *u)
{
	if (u)
		kref_put(&u->ref, ascend_user_release);
}

int ascend_user_charge_queue(struct ascend_user *u)
{
	int ret = 0;

	spin_lock(&u->lock);
	if (u->queues >= ascend_user_max_queues())
		ret = -ENOSPC;
	else
		u->queues++;
	spin_unlock(&u->lock);
	return ret;
}

void ascend_user_uncharge_queue(struct ascend_user *u)
{
	spin_lock(&u->lock);
	if (!WARN_ON(!u->queues))
		u->queues--;
	spin_unlock(&u->lock);
}

unsigned int ascend_user_event_share(void)
{
	return READ_ONCE(user_max_events);
}

int ascend_user_charge_event(struct ascend_user *u)
{
	int ret = 0;

	spin_lock(&u->lock);
	if (u->events >= ascend_user_event_share() && !ascend_user_exempt())
		ret = -ENOSPC;
	else
		u->events++;
	spin_unlock(&u->lock);
	return ret;
}

void ascend_user_uncharge_event(struct ascend_user *u)
{
	if (!u)		/* an event made without a file (KUnit) */
		return;
	spin_lock(&u->lock);
	if (!WARN_ON(!u->events))
		u->events--;
	spin_unlock(&u->lock);
}

int ascend_user_charge_hbm(struct ascend_user *u, u64 bytes)
{
	u64 quota = ascend_user_hbm_quota(u->adev);
	int ret = 0;

	spin_lock(&u->lock);
	if (bytes > quota || u->hbm > quota - bytes)
		ret = -EDQUOT;
	else
		u->hbm += bytes;
	spin_unlock(&u->lock);
	return ret;
}

void ascend_user_uncharge_hbm(struct ascend_user *u, u64 bytes)
{
	spin_lock(&u->lock);
	if (!WARN_ON(u->hbm < bytes))
		u->hbm -= bytes;
	spin_unlock(&u->lock);
}
