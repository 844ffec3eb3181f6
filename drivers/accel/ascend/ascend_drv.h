/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Core structures of the Ascend accel driver: the device and the per-open
 * file context, plus the ioctl entry points each part of the driver provides.
 */
#ifndef __ASCEND_DRV_H__
#define __ASCEND_DRV_H__

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <linux/atomic.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pfn_t.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "ascend_accel.h"
#include "ascend_evtab.h"
#include "ascend_fault.h"
#include "ascend_hbm.h"
#include "ascend_prq.h"
#include "ascend_pt.h"
#include "ascend_user.h"
#include "ascend_vm.h"

#define ASCEND_DRIVER_NAME	"ascend"

struct ascend_free_ring;
struct ascend_hbm_buf;
struct ascend_hw_ops;
struct ascend_queue;
struct ascend_queue_area;
struct platform_device;

#define ASCEND_FAULT_LOG_SIZE	32	/* queue faults kept per device */

/**
 * struct ascend_fault_rec - one queue fault, as debugfs "faults" shows it
 * @time_ns: local_clock() when the queue faulted
 * @pid: the queue owner's pid
 * @comm: its command name
 * @queue: the queue's handle in the owner's file
 * @code: ASCEND_FAULT_*
 * @opcode: opcode of the faulting command
 * @seq: sequence number of the faulting command
 * @addr: faulting device address, if any
 */
struct ascend_fault_rec {
	u64 time_ns;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	u32 queue;
	u32 code;
	u32 opcode;
	u64 seq;
	u64 addr;
};

/**
 * struct ascend_fault_log - ring of the last queue faults of a device
 * @lock: protects @count and @recs
 * @count: faults recorded since the device came up; the newest is in
 *	@recs[(@count - 1) % ASCEND_FAULT_LOG_SIZE]
 * @recs: the records
 */
struct ascend_fault_log {
	spinlock_t lock;	/* protects count, recs */
	u64 count;
	struct ascend_fault_rec recs[ASCEND_FAULT_LOG_SIZE];
};

/**
 * struct ascend_device - one NPU
 * @drm: the DRM device (accel minor /dev/accel/accelN)
 * @pdev: the platform device it is bound to
 * @index: device index, the platform device's id (0-15)
 * @soc_name: SoC name reported to user space
 * @num_dma_engines: DMA engines the backend provides
 * @num_ai_cores: AI cores the backend provides
 * @hbm_size: bytes of device memory the device reports
 * @hbm_store_size: bytes of it the device can hold written at once
 *	(hbm-store-size; @hbm_size when absent, never above it): the base
 *	of the per-user HBM share
 * @hbm: device memory manager
 * @pt_pool: page-table memory and ASIDs of the device MMU (ascend_pt.h)
 * @hw: the handle of the device's hardware interface (its platform data):
 *	the argument of every op; owned by the bus, gone after remove
 * @hw_ops: @hw's operations, copied at probe: a backend's static table,
 *	so that "has the device this op" can be asked after remove too
 * @hw_running: between a successful init and fini of @hw (probe, remove
 *	or the last reference; ascend_drv.c)
 * @queues_lock: protects @queues, @nr_queues and @lost
 * @queues: every live &struct ascend_queue of every file, for debugfs and
 *	for teardown
 * @nr_queues: queues started on the device (at most the max_queues
 *	module parameter)
 * @lost: set once by remove: the device is going away; a queue that
 *	joins @queues afterwards is faulted at once (ascend_queue.c).  Read
 *	without the lock by waits that end on it (READ_ONCE()).
 * @host_wq: gives memlock charges of released host memory back when the
 *	owner's mmap_lock was held (ascend_host.c); flushed at device release
 * @host_lock: protects @host_bos and their dma_mapped
 * @host_bos: host objects DMA-mapped on the device (ascend_host.c)
 * @fault: fault-injection countdowns (ascend_fault.h; atomics, no lock)
 * @fault_log: the last queue faults, for debugfs "faults"
 * @event_slots: event slot -> &struct ascend_event: allocates the slots
 *	(from 1) and lets the interrupt handler find an event (RCU)
 * @irq: the device's interrupt (ascend_irq.c)
 * @event_notify: the event notification area the device writes
 *	(ascend_hw.h, "Interrupts"), coherent DMA memory
 * @event_notify_bus: its bus address
 * @qids: allocates the device's queue ids (its own lock)
 * @hw_queues: queue id -> &struct ascend_queue while the device may notify
 *	it: set before queue_start, cleared after queue_stop and
 *	synchronize_irq(), read by the interrupt handler
 * @users: uid -> &struct ascend_user with something on the device
 *	(ascend_user.c; the xarray's own lock protects it)
 * @prq: the page request service (ascend_prq.c)
 * @managed_lock: protects @managed_spaces; held while a page request is
 *	served, so that the space it finds stays (ascend_managed.c)
 * @managed_spaces: ASID -> &struct ascend_managed_space of the files with
 *	managed memory
 */
struct ascend_device {
	struct drm_device drm;
	struct platform_device *pdev;
	unsigned int index;
	char soc_name[DRM_ASCEND_SOC_NAME_LEN];
	u32 num_dma_engines;
	u32 num_ai_cores;
	u64 hbm_size;
	u64 hbm_store_size;
	struct ascend_hbm hbm;
	struct ascend_pt_pool pt_pool;
	struct ascend_hw_device *hw;
	const struct ascend_hw_ops *hw_ops;
	bool hw_running;
	struct mutex queues_lock;	/* protects queues, nr_queues, lost */
	struct list_head queues;
	unsigned int nr_queues;
	bool lost;
	struct workqueue_struct *host_wq;
	struct mutex host_lock;		/* protects host_bos */
	struct list_head host_bos;
	struct ascend_fault fault;
	struct ascend_fault_log fault_log;
	struct xarray event_slots;
	int irq;
	__le64 *event_notify;
	dma_addr_t event_notify_bus;
	struct ida qids;
	struct ascend_queue **hw_queues;
	struct xarray users;
	struct ascend_prq prq;
	struct mutex managed_lock;	/* protects managed_spaces */
	struct xarray managed_spaces;
};

static inline struct ascend_device *to_ascend_device(struct drm_device *drm)
{
	return container_of(drm, struct ascend_device, drm);
}

/**
 * struct ascend_file - per-open context (one process's view of the device)
 * @adev: the device
 * @user: the user who opened the file, charged with its queues and HBM
 *	(ascend_user.h); a reference
 * @vm: the device MMU address space of this file
 * @queues_lock: protects @queues and the creation of @activity
 * @queues: queue handle -> &struct ascend_queue (allocated from 1)
 * @activity: the queue activity bitmap user space marks its published
 *	queues in (QUEUE_ACTIVITY; ascend_queue.c), or NULL; set once
 *	(release), read with acquire, released by postclose
 * @hbm_used: bytes of HBM held by this file's buffer objects
 * @host_pinned: bytes of host memory held pinned for the device by this
 *	file's host objects (HOST_ALLOC pages and HOST_REGISTER pins), until
 *	they are released
 * @copy_pinned: bytes of pageable host memory pinned right now for copies
 * @events: event handle -> &struct ascend_event (allocated from 1; the
 *	xarray's own lock protects it, ascend_event.c)
 * @evtab: the same map as the device reads it (ascend_evtab.h)
 * @retire_lock: protects @retires and @retire_fallbacks
 * @retires: pending &struct ascend_retire (ascend_queue_file_defer())
 * @retire_fallbacks: entries of @retires without a queue snapshot
 * @retire_work: runs the retires whose queues have passed their marks
 * @owner: thread group that opened the file (ascend_peer.c: a peer link
 *	needs both files opened by the calling process)
 * @peer_links: &struct ascend_peer_link this file enabled (ascend_peer.c;
 *	ascend_peer_rwsem protects it)
 * @peer_users: links of other files naming this one (ascend_peer_rwsem)
 * @nr_ipc_exports: live IPC exports of this file (ascend_ipc.c; its table
 *	lock protects it and @ipc_exports)
 * @ipc_exports: those exports (&struct ascend_ipc_export.file_link)
 * @spare_buf: a &struct ascend_hbm_buf whose memory its file's last
 *	retire freed, kept for the next BO_CREATE (taken and given with
 *	xchg(); freed by postclose)
 * @bo_idle: handle-less BOs freed whole, memory and mapping kept for the
 *	next BO_CREATE of the same request (ascend_gem.c), the last parked
 *	last; @vm.lock protects it and @nr_bo_idle.  An array, not a list:
 *	the drain of BO_CREATE parks one and its take unparks it again
 * @nr_bo_idle: entries used in @bo_idle
 * @free_ring: the file's free ring (ascend_free_ring.h), or NULL; set once
 *	with cmpxchg() by FREE_RING_CREATE, read with acquire, released in
 *	postclose (after the file left the device's file list)
 * @nr_vmm_resv: VA reservations of the file (ascend_vmm.c), at most
 *	%DRM_ASCEND_VA_MAX_RESERVATIONS
 * @nr_vmm_maps: mappings in them, at most %DRM_ASCEND_VA_MAX_MAPPINGS
 * @vmm_spare: the record of the last mapping unmapped, or NULL: taken by
 *	the next VA_MAP (a pool that maps and unmaps chunks pays no
 *	allocation); xchg()/cmpxchg(), no lock; freed in postclose
 * @managed: the file's managed memory (ascend_managed.c), NULL until its
 *	first managed allocation; set under &ascend_device.managed_lock
 */
/* Idle BOs a file keeps at most (ascend_gem.h, "Idle BOs"). */
#define ASCEND_BO_IDLE_MAX	8

struct ascend_file {
	struct ascend_device *adev;
	struct ascend_user *user;
	struct ascend_vm vm;
	struct mutex queues_lock;	/* protects queues, activity creation */
	struct xarray queues;
	struct ascend_queue_area *activity;
	atomic64_t hbm_used;
	atomic64_t host_pinned;
	atomic64_t copy_pinned;
	struct xarray events;
	struct ascend_evtab evtab;
	spinlock_t retire_lock;	/* protects retires, retire_fallbacks */
	struct list_head retires;
	unsigned int retire_fallbacks;
	struct work_struct retire_work;
	struct pid *owner;
	struct list_head peer_links;
	struct list_head peer_users;
	unsigned int nr_ipc_exports;
	struct list_head ipc_exports;
	struct ascend_hbm_buf *spare_buf;
	struct ascend_bo *bo_idle[ASCEND_BO_IDLE_MAX];
	unsigned int nr_bo_idle;
	struct ascend_free_ring *free_ring;
	atomic_t nr_vmm_resv;
	atomic_t nr_vmm_maps;
	struct ascend_vmm_map *vmm_spare;
	struct ascend_managed_space *managed;
};

static inline struct ascend_file *to_ascend_file(struct drm_file *file)
{
	return file->driver_priv;
}

/* Write @ms into the CMD_TIMEOUT register of every device present. */
void ascend_devices_set_cmd_timeout(u32 ms);

/*
 * The scheduling identity of a queue created through @filp, for its
 * context: *@group the opener's uid (every file and process of one user
 * shares one fair share of the AI cores), *@flags ASCEND_HW_QUEUE_LIMITED
 * unless the opener had CAP_SYS_ADMIN (own time limits clamped to the
 * device's).
 */
void ascend_file_sched_ctx(const struct file *filp, u32 *group, u32 *flags);

/* debugfs files of the device (ascend_debugfs.c) */
void ascend_debugfs_init(struct ascend_device *adev);
/* pid (thread group id) of the process using @file, 0 if it is gone */
pid_t ascend_file_tgid(struct drm_file *file);
/* the first fault of @q: into the device's fault log (any context) */
void ascend_debugfs_log_fault(struct ascend_queue *q, u32 code, u64 seq,
			      u64 addr, u32 opcode);

struct drm_printer;

/* fdinfo: the usage statistics of @file (ascend_fdinfo.c) */
void ascend_show_fdinfo(struct drm_printer *p, struct drm_file *file);

/* ioctl entry points */
int ascend_ioctl_dev_query(struct drm_device *drm, void *data,
			   struct drm_file *file);		/* ascend_query.c */
int ascend_ioctl_va_window(struct drm_device *drm, void *data,
			   struct drm_file *file);		/* ascend_vm.c */
int ascend_ioctl_bo_create(struct drm_device *drm, void *data,
			   struct drm_file *file);		/* ascend_gem.c */
int ascend_ioctl_bo_free(struct drm_device *drm, void *data,
			 struct drm_file *file);		/* ascend_gem.c */
int ascend_ioctl_free_ring_create(struct drm_device *drm, void *data,
				  struct drm_file *file);	/* ascend_gem.c */
int ascend_ioctl_copy(struct drm_device *drm, void *data,
		      struct drm_file *file);			/* ascend_copy.c */
int ascend_ioctl_fill(struct drm_device *drm, void *data,
		      struct drm_file *file);			/* ascend_copy.c */
int ascend_ioctl_copy_batch(struct drm_device *drm, void *data,
			    struct drm_file *file);		/* ascend_copy_ext.c */
int ascend_ioctl_copy_2d(struct drm_device *drm, void *data,
			 struct drm_file *file);		/* ascend_copy_ext.c */
int ascend_ioctl_queue_create(struct drm_device *drm, void *data,
			      struct drm_file *file);		/* ascend_queue.c */
int ascend_ioctl_queue_activity(struct drm_device *drm, void *data,
				struct drm_file *file);
int ascend_ioctl_queue_destroy(struct drm_device *drm, void *data,
			       struct drm_file *file);		/* ascend_queue.c */
int ascend_ioctl_queue_doorbell(struct drm_device *drm, void *data,
				struct drm_file *file);		/* ascend_queue.c */
int ascend_ioctl_queue_wait(struct drm_device *drm, void *data,
			    struct drm_file *file);		/* ascend_queue.c */
int ascend_ioctl_queue_reset(struct drm_device *drm, void *data,
			     struct drm_file *file);		/* ascend_queue.c */
int ascend_ioctl_event_create(struct drm_device *drm, void *data,
			      struct drm_file *file);		/* ascend_event.c */
int ascend_ioctl_event_destroy(struct drm_device *drm, void *data,
			       struct drm_file *file);		/* ascend_event.c */
int ascend_ioctl_event_wait(struct drm_device *drm, void *data,
			    struct drm_file *file);		/* ascend_event.c */
int ascend_ioctl_event_signal(struct drm_device *drm, void *data,
			      struct drm_file *file);		/* ascend_event.c */
int ascend_ioctl_host_alloc(struct drm_device *drm, void *data,
			    struct drm_file *file);		/* ascend_host.c */
int ascend_ioctl_host_register(struct drm_device *drm, void *data,
			       struct drm_file *file);		/* ascend_host.c */
int ascend_ioctl_peer(struct drm_device *drm, void *data,
		      struct drm_file *file);			/* ascend_peer.c */
int ascend_ioctl_ipc_export(struct drm_device *drm, void *data,
			    struct drm_file *file);		/* ascend_ipc.c */
int ascend_ioctl_ipc_set_pid(struct drm_device *drm, void *data,
			     struct drm_file *file);		/* ascend_ipc.c */
int ascend_ioctl_ipc_import(struct drm_device *drm, void *data,
			    struct drm_file *file);		/* ascend_ipc.c */
int ascend_ioctl_ipc_close(struct drm_device *drm, void *data,
			   struct drm_file *file);		/* ascend_ipc.c */

#endif /* __ASCEND_DRV_H__ */
