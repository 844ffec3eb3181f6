/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-user shares of one NPU.  Users who do not trust each other share the
 * device, so what one of them can take is bounded: hardware queues and
 * HBM are charged, per device, to the user (uid) that opened the file, and
 * refused past that user's share (module parameters user_max_queues and
 * user_hbm_percent) before anything is allocated.
 */
#ifndef __ASCEND_USER_H__
#define __ASCEND_USER_H__

#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct ascend_device;

/**
 * struct ascend_user - what one user holds on one device
 * @ref: files, queues and HBM buffers of the user hold references
 * @adev: the device
 * @uid: the user, in the initial user namespace
 * @lock: protects @queues, @events and @hbm
 * @queues: hardware queues the user's files hold
 * @events: device event slots the user's events hold
 * @hbm: bytes of HBM the user's buffers hold (exported memory stays
 *	charged to its allocator while importers use it)
 */
struct ascend_user {
	struct kref ref;
	struct ascend_device *adev;
	kuid_t uid;
	spinlock_t lock;	/* protects queues, events, hbm */
	unsigned int queues;
	unsigned int events;
	u64 hbm;
};

/* Device setup and teardown of the user table (ascend_drv.c). */
void ascend_users_init(struct ascend_device *adev);
void ascend_users_fini(struct ascend_device *adev);

/* The calling task's user on @adev, referenced; NULL without memory. */
struct ascend_user *ascend_user_get_current(struct ascend_device *adev);
struct ascend_user *ascend_user_get(struct ascend_user *u);
void ascend_user_put(struct ascend_user *u);

/* The shares, as the module parameters set them now. */
unsigned int ascend_user_queue_share(void);
u64 ascend_user_hbm_share(struct ascend_device *adev);

/*
 * What applies to the calling task: the shares, or with CAP_SYS_RESOURCE
 * the whole device (counted, not refused, as for other resource limits).
 */
unsigned int ascend_user_max_queues(void);
u64 ascend_user_hbm_quota(struct ascend_device *adev);

/* One queue more: 0, or -ENOSPC past the user's share. */
int ascend_user_charge_queue(struct ascend_user *u);
void ascend_user_uncharge_queue(struct ascend_user *u);

/* One event slot more: 0, or -ENOSPC past the user's share. */
int ascend_user_charge_event(struct ascend_user *u);
void ascend_user_uncharge_event(struct ascend_user *u);
unsigned int ascend_user_event_share(void);

/* @bytes of HBM more: 0, or -EDQUOT past the user's share. */
int ascend_user_charge_hbm(struct ascend_user *u, u64 bytes);
void ascend_user_uncharge_hbm(struct ascend_user *u, u64 bytes);

#endif /* __ASCEND_USER_H__ */
