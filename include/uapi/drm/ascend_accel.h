/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Ascend NPU accel driver: the user-space interface.
 *
 * This header is the only contract between drivers/accel/ascend and user
 * space (libaclrt).  Rules every structure here follows:
 *
 *  - all structures are 64-bit aligned and sized, with explicit padding;
 *  - pointers and sizes are __u64;
 *  - every flags, pad and reserved field is checked: unknown flag bits and
 *    non-zero pad/reserved fields are rejected with -EINVAL;
 *  - structures only grow at the end; the DRM core zero-extends an older,
 *    shorter structure, so a zero in a new field must keep the old meaning.
 *
 * Device memory is named by device virtual addresses (VAs) that live inside
 * a "VA window" the process reserved in its own address space and registered
 * with %DRM_IOCTL_ASCEND_VA_WINDOW.  A device VA is therefore a unique,
 * non-dereferenceable host address, and pointer arithmetic inside an
 * allocation works on both sides.
 *
 * Work is submitted through hardware queues: a queue is a shared memory area
 * (status page, device printf buffer, command ring) that the process maps
 * with mmap() on the DRM file at the offset %DRM_IOCTL_ASCEND_QUEUE_CREATE
 * returns.  User space writes commands (&struct ascend_cmd) into the ring,
 * publishes them by advancing &ascend_queue_status.wptr, and rings the
 * doorbell (%DRM_IOCTL_ASCEND_QUEUE_DOORBELL) only when the status page says
 * the device side is asleep (%ASCEND_QUEUE_STATUS_NEED_WAKEUP).  The device
 * trusts nothing in the ring: every command is copied, validated and every
 * address translated through the submitting file's device MMU when it runs.
 */
#ifndef _UAPI_ASCEND_ACCEL_H_
#define _UAPI_ASCEND_ACCEL_H_

#if defined(__KERNEL__)
#include <drm/drm.h>
#else
#include "drm.h"
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* Driver ioctl numbers, relative to DRM_COMMAND_BASE.  Append only. */
#define DRM_ASCEND_DEV_QUERY		0x00
#define DRM_ASCEND_VA_WINDOW		0x01
#define DRM_ASCEND_BO_CREATE		0x02
#define DRM_ASCEND_COPY			0x03
#define DRM_ASCEND_QUEUE_CREATE		0x04
#define DRM_ASCEND_QUEUE_DESTROY	0x05
#define DRM_ASCEND_QUEUE_DOORBELL	0x06
#define DRM_ASCEND_QUEUE_WAIT		0x07
#define DRM_ASCEND_FILL			0x08
#define DRM_ASCEND_EVENT_CREATE		0x09
#define DRM_ASCEND_EVENT_DESTROY	0x0a
#define DRM_ASCEND_EVENT_WAIT		0x0b
#define DRM_ASCEND_EVENT_SIGNAL		0x0c
#define DRM_ASCEND_QUEUE_RESET		0x0d
#define DRM_ASCEND_HOST_ALLOC		0x0e
#define DRM_ASCEND_HOST_REGISTER	0x0f
#define DRM_ASCEND_COPY_BATCH		0x10
#define DRM_ASCEND_COPY_2D		0x11
#define DRM_ASCEND_PEER			0x12
#define DRM_ASCEND_IPC_EXPORT		0x13
#define DRM_ASCEND_IPC_SET_PID		0x14
#define DRM_ASCEND_IPC_IMPORT		0x15
#define DRM_ASCEND_IPC_CLOSE		0x16
#define DRM_ASCEND_BO_FREE		0x17
#define DRM_ASCEND_FREE_RING_CREATE	0x18
#define DRM_ASCEND_QUEUE_ACTIVITY	0x19
#define DRM_ASCEND_PHYS_ALLOC		0x1a
#define DRM_ASCEND_VA_RESERVE		0x1b
#define DRM_ASCEND_VA_RELEASE		0x1c
#define DRM_ASCEND_VA_MAP		0x1d
#define DRM_ASCEND_VA_UNMAP		0x1e
#define DRM_ASCEND_VA_PROTECT		0x1f
#define DRM_ASCEND_MANAGED_CREATE	0x20
#define DRM_ASCEND_MANAGED_MIGRATE	0x21
#define DRM_ASCEND_MANAGED_QUERY	0x22

#define DRM_IOCTL_ASCEND_DEV_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_DEV_QUERY, struct drm_ascend_dev_query)
#define DRM_IOCTL_ASCEND_VA_WINDOW \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_VA_WINDOW, struct drm_ascend_va_window)
#define DRM_IOCTL_ASCEND_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_BO_CREATE, struct drm_ascend_bo_create)
#define DRM_IOCTL_ASCEND_COPY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_COPY, struct drm_ascend_copy)
#define DRM_IOCTL_ASCEND_QUEUE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_CREATE, struct drm_ascend_queue_create)
#define DRM_IOCTL_ASCEND_QUEUE_DESTROY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_DESTROY, struct drm_ascend_queue_destroy)
#define DRM_IOCTL_ASCEND_QUEUE_DOORBELL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_DOORBELL, struct drm_ascend_queue_doorbell)
#define DRM_IOCTL_ASCEND_QUEUE_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_WAIT, struct drm_ascend_queue_wait)
#define DRM_IOCTL_ASCEND_FILL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_FILL, struct drm_ascend_fill)
#define DRM_IOCTL_ASCEND_EVENT_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_EVENT_CREATE, struct drm_ascend_event_create)
#define DRM_IOCTL_ASCEND_EVENT_DESTROY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_EVENT_DESTROY, struct drm_ascend_event_destroy)
#define DRM_IOCTL_ASCEND_EVENT_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_EVENT_WAIT, struct drm_ascend_event_wait)
#define DRM_IOCTL_ASCEND_EVENT_SIGNAL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_EVENT_SIGNAL, struct drm_ascend_event_signal)
#define DRM_IOCTL_ASCEND_QUEUE_RESET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_RESET, struct drm_ascend_queue_reset)
#define DRM_IOCTL_ASCEND_HOST_ALLOC \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_HOST_ALLOC, struct drm_ascend_host_alloc)
#define DRM_IOCTL_ASCEND_HOST_REGISTER \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_HOST_REGISTER, struct drm_ascend_host_register)
#define DRM_IOCTL_ASCEND_COPY_BATCH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_COPY_BATCH, struct drm_ascend_copy_batch)
#define DRM_IOCTL_ASCEND_COPY_2D \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_COPY_2D, struct drm_ascend_copy_2d)
#define DRM_IOCTL_ASCEND_PEER \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_PEER, struct drm_ascend_peer)
#define DRM_IOCTL_ASCEND_IPC_EXPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_IPC_EXPORT, struct drm_ascend_ipc_export)
#define DRM_IOCTL_ASCEND_IPC_SET_PID \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_IPC_SET_PID, struct drm_ascend_ipc_set_pid)
#define DRM_IOCTL_ASCEND_IPC_IMPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_IPC_IMPORT, struct drm_ascend_ipc_import)
#define DRM_IOCTL_ASCEND_IPC_CLOSE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_IPC_CLOSE, struct drm_ascend_ipc_close)
#define DRM_IOCTL_ASCEND_BO_FREE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ASCEND_BO_FREE, struct drm_ascend_bo_free)
#define DRM_IOCTL_ASCEND_FREE_RING_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_FREE_RING_CREATE, \
		 struct drm_ascend_free_ring_create)
#define DRM_IOCTL_ASCEND_QUEUE_ACTIVITY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_ACTIVITY, \
		 struct drm_ascend_queue_activity)
#define DRM_IOCTL_ASCEND_PHYS_ALLOC \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_PHYS_ALLOC, struct drm_ascend_phys_alloc)
#define DRM_IOCTL_ASCEND_VA_RESERVE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_VA_RESERVE, struct drm_ascend_va_reserve)
#define DRM_IOCTL_ASCEND_VA_RELEASE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ASCEND_VA_RELEASE, struct drm_ascend_va_release)
#define DRM_IOCTL_ASCEND_VA_MAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ASCEND_VA_MAP, struct drm_ascend_va_map)
#define DRM_IOCTL_ASCEND_VA_UNMAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ASCEND_VA_UNMAP, struct drm_ascend_va_unmap)
#define DRM_IOCTL_ASCEND_VA_PROTECT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ASCEND_VA_PROTECT, struct drm_ascend_va_protect)
#define DRM_IOCTL_ASCEND_MANAGED_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_MANAGED_CREATE, \
		 struct drm_ascend_managed_create)
#define DRM_IOCTL_ASCEND_MANAGED_MIGRATE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ASCEND_MANAGED_MIGRATE, \
		struct drm_ascend_managed_migrate)
#define DRM_IOCTL_ASCEND_MANAGED_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ASCEND_MANAGED_QUERY, \
		 struct drm_ascend_managed_query)

/* ------------------------------------------------------------------------ */
/* DEV_QUERY */

/**
 * enum drm_ascend_query_type - what %DRM_IOCTL_ASCEND_DEV_QUERY returns
 * @DRM_ASCEND_QUERY_DEVICE_INFO: &struct drm_ascend_device_info
 * @DRM_ASCEND_QUERY_KERNELS: an array of &struct drm_ascend_kernel_info, one
 *	per built-in device kernel; &drm_ascend_dev_query.size is a multiple of
 *	sizeof(struct drm_ascend_kernel_info)
 */
enum drm_ascend_query_type {
	DRM_ASCEND_QUERY_DEVICE_INFO = 0,
	DRM_ASCEND_QUERY_KERNELS = 1,
};

/**
 * struct drm_ascend_dev_query - size-extensible device query
 * @type: one of &enum drm_ascend_query_type
 * @size: in: size of the buffer at @data in bytes; 0 asks for the size the
 *	kernel would write.  out: number of bytes the full answer takes.  The
 *	kernel writes min(in size, full size) bytes, so an older, smaller
 *	structure gets a prefix and a newer, larger one keeps its tail.
 * @data: user pointer to the answer buffer (ignored when @size is 0)
 */
struct drm_ascend_dev_query {
	__u32 type;
	__u32 size;
	__u64 data;
};

/* Capability bits in &drm_ascend_device_info.capabilities. */
#define DRM_ASCEND_CAP_VA_WINDOW	(1ULL << 0)	/* VA_WINDOW, BO_CREATE */
#define DRM_ASCEND_CAP_SYNC_COPY	(1ULL << 1)	/* COPY, device to device */
#define DRM_ASCEND_CAP_QUEUES		(1ULL << 2)	/* QUEUE_* and ring commands */
#define DRM_ASCEND_CAP_BUILTIN_KERNELS	(1ULL << 3)	/* QUERY_KERNELS, ASCEND_CMD_LAUNCH */
#define DRM_ASCEND_CAP_DEVICE_PRINTF	(1ULL << 4)	/* queue printf buffer */
#define DRM_ASCEND_CAP_FILL		(1ULL << 5)	/* FILL, ASCEND_CMD_FILL */
#define DRM_ASCEND_CAP_EVENTS		(1ULL << 6)	/* EVENT_*, event commands */
#define DRM_ASCEND_CAP_RING_COPY	(1ULL << 7)	/* ASCEND_CMD_COPY */
#define DRM_ASCEND_CAP_VALUES		(1ULL << 8)	/* WRITE_VALUE, WAIT_VALUE */
#define DRM_ASCEND_CAP_QUEUE_RESET	(1ULL << 9)	/* QUEUE_RESET */
#define DRM_ASCEND_CAP_HOST_MEMORY	(1ULL << 10)	/* HOST_ALLOC, HOST_REGISTER,
							 * host addresses in COPY */
#define DRM_ASCEND_CAP_PEER		(1ULL << 12)	/* PEER, copies between devices */
#define DRM_ASCEND_CAP_IPC		(1ULL << 13)	/* IPC_* for memory and events */
#define DRM_ASCEND_CAP_COPY_EXT		(1ULL << 11)	/* COPY_BATCH, COPY_2D, ring
							 * COPY_2D/_BATCH/_INDIRECT/_OFFSET */
#define DRM_ASCEND_CAP_QUEUE_ABORT	(1ULL << 14)	/* QUEUE_RESET's ABORT and
							 * STOP flags */
#define DRM_ASCEND_CAP_REDUCE		(1ULL << 15)	/* ASCEND_CMD_REDUCE */
#define DRM_ASCEND_CAP_NOTIFY		(1ULL << 16)	/* WAIT_VALUE's RESET
							 * and LT/GT/ALL,
							 * WRITE_VALUE's
							 * atomic ops, value
							 * commands through
							 * peer windows, IPC
							 * of notify words */
#define DRM_ASCEND_CAP_VMM		(1ULL << 17)	/* PHYS_ALLOC, VA_RESERVE,
							 * VA_RELEASE, VA_MAP,
							 * VA_UNMAP, VA_PROTECT,
							 * IPC of physical
							 * memory, PRIME export
							 * of it */
#define DRM_ASCEND_CAP_IPC_EVENT_ANY_DEVICE (1ULL << 19) /* IPC import of an
							 * event into a file
							 * of another device */
#define DRM_ASCEND_CAP_MANAGED		(1ULL << 20)	/* MANAGED_CREATE,
							 * MANAGED_MIGRATE,
							 * MANAGED_QUERY */

#define DRM_ASCEND_SOC_NAME_LEN		32

/**
 * struct drm_ascend_device_info - answer to %DRM_ASCEND_QUERY_DEVICE_INFO
 * @capabilities: DRM_ASCEND_CAP_* bits
 * @hbm_total: bytes of device memory (HBM) the device has
 * @hbm_free: bytes of device memory not allocated by anyone
 * @hbm_used_by_file: bytes of device memory this DRM file holds
 * @va_window_align: required alignment of the VA window base and size
 * @va_window_min_size: smallest VA window the driver accepts
 * @device_index: index of the device: N of its platform device ascend.N
 *	(after a hot-unplug, not necessarily N of /dev/accel/accelN)
 * @num_dma_engines: number of DMA engines
 * @num_ai_cores: number of AI cores that run kernels
 * @max_queues_per_file: queues one DRM file may create: its user's share
 *	(&queues_by_user counts what the user's files hold already)
 * @cmd_size: size of one &struct ascend_cmd ring slot in bytes
 * @max_ring_entries: largest ring a queue may have (a power of two)
 * @soc_name: NUL-terminated SoC name, e.g. "Ascend910B4"
 * @hbm_largest_free: bytes in the largest free contiguous block of HBM
 * @hbm_free_huge: free bytes in blocks of at least 2 MiB (usable by huge pages)
 * @hbm_free_huge1g: free bytes in blocks of at least 1 GiB
 * @max_events_per_file: events one DRM file may create
 * @cmd_timeout_ms: default limit on how long one queue command may run
 *	before the device aborts it (%ASCEND_FAULT_TIMEOUT); 0 = no limit
 * @host_pinned_by_file: bytes of host memory this DRM file holds pinned
 *	for the device (%DRM_IOCTL_ASCEND_HOST_ALLOC and
 *	%DRM_IOCTL_ASCEND_HOST_REGISTER objects not yet released)
 * @bare_tgid: the calling process's thread-group id in the initial PID
 *	namespace, as %DRM_IOCTL_ASCEND_IPC_SET_PID expects it (also inside
 *	a PID namespace, where getpid() differs); 0 from kernels before it
 * @reserved: 0
 * @queues_by_user: hardware queues the files of this file's user (the uid
 *	that opened it) hold on the device
 * @max_queues_by_user: the most that user may hold (QUEUE_CREATE fails
 *	with -ENOSPC beyond, or earlier when the device has no queue left);
 *	for a caller with CAP_SYS_RESOURCE, who is not held to the share,
 *	the device's limit
 * @hbm_used_by_user: bytes of HBM the buffers of that user hold
 * @hbm_user_quota: the most that user may hold (BO_CREATE fails with
 *	-EDQUOT beyond; a request larger than the device fails with -ENOSPC
 *	first); with CAP_SYS_RESOURCE the device's size
 *
 * A kernel older than a field answers a shorter size (see
 * %DRM_IOCTL_ASCEND_DEV_QUERY); the fields from @queues_by_user on are
 * absent before the per-user shares.
 */
struct drm_ascend_device_info {
	__u64 capabilities;
	__u64 hbm_total;
	__u64 hbm_free;
	__u64 hbm_used_by_file;
	__u64 va_window_align;
	__u64 va_window_min_size;
	__u32 device_index;
	__u32 num_dma_engines;
	__u32 num_ai_cores;
	__u32 max_queues_per_file;
	__u32 cmd_size;
	__u32 max_ring_entries;
	char soc_name[DRM_ASCEND_SOC_NAME_LEN];
	__u64 hbm_largest_free;
	__u64 hbm_free_huge;
	__u64 hbm_free_huge1g;
	__u32 max_events_per_file;
	__u32 cmd_timeout_ms;
	__u64 host_pinned_by_file;
	__s32 bare_tgid;
	__u32 reserved;
	__u32 queues_by_user;
	__u32 max_queues_by_user;
	__u64 hbm_used_by_user;
	__u64 hbm_user_quota;
};

#define DRM_ASCEND_KERNEL_NAME_LEN	48

/**
 * struct drm_ascend_kernel_info - one built-in device kernel
 * @name: NUL-terminated kernel name, as passed to aclrtBinaryGetFunction()
 * @id: value for &ascend_cmd_launch.kernel_id
 * @args_size: minimum size in bytes of the packed argument block
 * @pad: zero
 */
struct drm_ascend_kernel_info {
	char name[DRM_ASCEND_KERNEL_NAME_LEN];
	__u32 id;
	__u32 args_size;
	__u64 pad;
};

/* ------------------------------------------------------------------------ */
/* VA_WINDOW */

/**
 * struct drm_ascend_va_window - register the device VA window of this file
 * @base: start of a range the process reserved (mmap(PROT_NONE)); aligned
 *	to &drm_ascend_device_info.va_window_align
 * @size: size of the range, aligned likewise, at least
 *	&drm_ascend_device_info.va_window_min_size
 * @flags: must be 0
 * @pad: must be 0
 *
 * Once per file: a second call returns -EBUSY.  The range must lie inside
 * the user address space; -EINVAL otherwise.
 */
struct drm_ascend_va_window {
	__u64 base;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/*
 * BO_CREATE: device memory.  Freed with DRM_IOCTL_GEM_CLOSE, or with
 * DRM_IOCTL_ASCEND_BO_FREE when created with DRM_ASCEND_BO_NO_HANDLE.
 */

/**
 * enum drm_ascend_bo_policy - page-size policy of a device allocation
 * @DRM_ASCEND_BO_HUGE_FIRST: huge (2 MiB) pages for sizes above 1 MiB,
 *	falling back to normal pages; normal pages otherwise
 * @DRM_ASCEND_BO_HUGE_ONLY: huge pages only, -ENOSPC rather than fall back
 * @DRM_ASCEND_BO_NORMAL_ONLY: normal (4 KiB-class) pages only
 * @DRM_ASCEND_BO_HUGE1G_ONLY: 1 GiB pages only
 */
enum drm_ascend_bo_policy {
	DRM_ASCEND_BO_HUGE_FIRST = 0,
	DRM_ASCEND_BO_HUGE_ONLY = 1,
	DRM_ASCEND_BO_NORMAL_ONLY = 2,
	DRM_ASCEND_BO_HUGE1G_ONLY = 3,
};

/* &drm_ascend_bo_create.flags */
#define DRM_ASCEND_BO_P2P	(1U << 0)	/* usable by a peer device later */
/*
 * No GEM handle: &drm_ascend_bo_create.handle is 0 and the allocation is
 * freed by its VA with DRM_IOCTL_ASCEND_BO_FREE (or when the file is
 * closed).  Saves the handle's creation and removal; everything else
 * (lifetime, accounting, IPC export) is the same.
 */
#define DRM_ASCEND_BO_NO_HANDLE	(1U << 1)
#define DRM_ASCEND_BO_FLAGS	(DRM_ASCEND_BO_P2P | DRM_ASCEND_BO_NO_HANDLE)

/**
 * struct drm_ascend_bo_create - allocate device memory and map it
 * @size: in: bytes requested, > 0
 * @policy: in: one of &enum drm_ascend_bo_policy
 * @flags: in: DRM_ASCEND_BO_* flags
 * @va: out: device VA of the allocation, inside the VA window
 * @alloc_size: out: bytes actually reserved (rounded to the page class)
 * @handle: out: GEM handle; DRM_IOCTL_GEM_CLOSE frees the allocation.  0
 *	with %DRM_ASCEND_BO_NO_HANDLE
 * @page_size: out: page size of the backing (4 KiB, 2 MiB or 1 GiB)
 *
 * Needs a registered VA window (-ENXIO otherwise).  -ENOSPC when the device
 * memory cannot satisfy the request.
 */
struct drm_ascend_bo_create {
	__u64 size;
	__u32 policy;
	__u32 flags;
	__u64 va;
	__u64 alloc_size;
	__u32 handle;
	__u32 page_size;
};

/**
 * struct drm_ascend_bo_free - free a %DRM_ASCEND_BO_NO_HANDLE allocation
 * @va: in: the VA BO_CREATE returned (the first byte of the allocation)
 * @flags: in: must be 0
 * @pad: must be 0
 *
 * Like DRM_IOCTL_GEM_CLOSE of a handle: the VA stops being usable at once,
 * the memory stays mapped and backed until the commands the file's queues
 * had published complete, then it is free.  -EINVAL when @va is not the
 * start of a live %DRM_ASCEND_BO_NO_HANDLE allocation of this file (an
 * import, a GEM-handle allocation, a freed one).
 */
struct drm_ascend_bo_free {
	__u64 va;
	__u32 flags;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/*
 * FREE_RING_CREATE: a ring in shared memory on which user space frees
 * %DRM_ASCEND_BO_NO_HANDLE allocations without a system call.
 */

#define DRM_ASCEND_FREE_RING_DEFAULT_ENTRIES	256
#define DRM_ASCEND_FREE_RING_MAX_ENTRIES	4096
/* Offset of the VA array in the mapped ring (after the header). */
#define DRM_ASCEND_FREE_RING_VA_OFFSET		64

/**
 * struct drm_ascend_free_ring_create - create the file's free ring
 * @flags: in: must be 0
 * @entries: in: slots wanted, a power of two from 1 to
 *	%DRM_ASCEND_FREE_RING_MAX_ENTRIES, or 0 for
 *	%DRM_ASCEND_FREE_RING_DEFAULT_ENTRIES; out: slots of the ring
 * @mmap_offset: out: offset to mmap() the ring at on this file (shared,
 *	read-write)
 * @mmap_size: out: bytes to map
 * @reserved: must be 0
 *
 * One ring per file: -EBUSY for a second one.  The mapped area starts with
 * &struct drm_ascend_free_ring; the VAs follow at
 * %DRM_ASCEND_FREE_RING_VA_OFFSET, an array of @entries __u64.
 */
struct drm_ascend_free_ring_create {
	__u32 flags;
	__u32 entries;
	__u64 mmap_offset;
	__u64 mmap_size;
	__u64 reserved;
};

/**
 * struct drm_ascend_free_ring - header of a free ring (shared memory)
 * @head: entries the kernel has consumed, counting from 0; written only
 *	by the kernel (a mirror: the kernel keeps its own copy and never
 *	reads this one)
 * @tail: entries user space has published, counting from 0; written only
 *	by user space
 * @entries: slots in the ring (a power of two), written by the kernel at
 *	creation (a mirror, like @head)
 * @pad: 0
 * @reserved: 0
 *
 * Protocol.  To free an allocation, user space checks that the ring is
 * not full (@tail - @head < @entries, @head read with acquire semantics),
 * stores the allocation's VA (the first byte BO_CREATE returned) in slot
 * @tail % @entries of the VA array, then publishes it by storing @tail + 1
 * with release semantics.  User space serialises its own writers.  The
 * VA must not be used again from then on; the slot may be rewritten only
 * once @head has passed it.
 *
 * The kernel consumes the entries published so far ("drains" the ring)
 * at the start of every %DRM_IOCTL_ASCEND_BO_CREATE and
 * %DRM_IOCTL_ASCEND_BO_FREE of the file, before any statistics snapshot
 * of the device (%DRM_ASCEND_QUERY_DEVICE_INFO with a size, by any file;
 * debugfs), before an allocation on the device would fail for lack of
 * memory, and when the file is closed.  Each entry is freed exactly as
 * %DRM_IOCTL_ASCEND_BO_FREE frees it (deferred while commands the file's
 * queues had published may still use it).  An entry that is not the start
 * of a live %DRM_ASCEND_BO_NO_HANDLE allocation of the file is skipped
 * (and counted in debugfs "free_rings").  A @tail that is behind the
 * kernel's head or more than @entries ahead of it is corrupt: nothing is
 * consumed until user space stores a sane one.  A full ring: free with
 * %DRM_IOCTL_ASCEND_BO_FREE, which drains the ring first.
 */
struct drm_ascend_free_ring {
	__u64 head;
	__u64 tail;
	__u32 entries;
	__u32 pad;
	__u64 reserved[5];
};

/* ------------------------------------------------------------------------ */
/* COPY: synchronous copy by a DMA engine */

/**
 * struct drm_ascend_copy - synchronous copy by a DMA engine
 * @dst: destination address
 * @src: source address
 * @size: bytes to copy, > 0
 * @flags: must be 0
 * @pad: must be 0
 *
 * Each address is either mapped in the file's device MMU (a device VA, or
 * host memory from %DRM_IOCTL_ASCEND_HOST_ALLOC / %DRM_IOCTL_ASCEND_HOST_REGISTER
 * at its host address), or any other (pageable) host address of the
 * calling process, which the kernel pins for the duration of the copy and
 * unpins when the DMA completed.  A mapped range must lie inside one
 * mapping.
 *
 * Ordered after every command this file had published on its queues when
 * the ioctl was entered: the copy starts only once those have completed.
 * Returns when the bytes have moved.  -EFAULT when a range is neither fully
 * inside one mapping nor valid pageable memory of the process; -EINVAL for
 * size 0 or overlap.
 */
struct drm_ascend_copy {
	__u64 dst;
	__u64 src;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/* COPY_BATCH and COPY_2D: synchronous batch and strided copies */

/* Most entries one synchronous batch may hold (CANN's limit). */
#define DRM_ASCEND_COPY_BATCH_MAX	4096

/**
 * struct drm_ascend_copy_entry - one copy of a batch
 * @dst: destination address (as in &struct drm_ascend_copy)
 * @src: source address
 * @size: bytes; 0 is allowed and copies nothing
 */
struct drm_ascend_copy_entry {
	__u64 dst;
	__u64 src;
	__u64 size;
};

/**
 * struct drm_ascend_copy_batch - many copies as one submission
 * @entries: user pointer to @count entries of @entry_size bytes each
 * @count: number of entries, 1..%DRM_ASCEND_COPY_BATCH_MAX
 * @entry_size: sizeof(struct drm_ascend_copy_entry) as user space knows
 *	it; a larger size is accepted if the extra bytes are zero
 * @flags: must be 0
 * @fail_index: out: index of the first entry whose range is invalid
 *	(-EFAULT/-EINVAL returned), or 0xffffffff when no single entry is at
 *	fault
 *
 * Addresses follow &struct drm_ascend_copy (device VAs, pinned host memory,
 * or pageable host memory pinned for the duration).  Every entry is checked
 * before any byte moves; then all entries run on the DMA engines, in any
 * order, and the ioctl returns when all bytes moved.  Ordered after the
 * file's published queue work, like COPY.
 */
struct drm_ascend_copy_batch {
	__u64 entries;
	__u32 count;
	__u32 entry_size;
	__u32 flags;
	__u32 fail_index;
};

/**
 * struct drm_ascend_copy_2d - synchronous strided copy
 * @dst: destination address of the first row
 * @src: source address of the first row
 * @dpitch: bytes between the starts of destination rows, >= @width
 * @spitch: bytes between the starts of source rows, >= @width
 * @width: bytes per row, > 0
 * @height: rows, > 0
 * @flags: must be 0
 * @pad: must be 0
 *
 * Each side's whole span (pitch * (height - 1) + width, overflow-checked)
 * must be valid as in &struct drm_ascend_copy.  Ordered like COPY.
 */
struct drm_ascend_copy_2d {
	__u64 dst;
	__u64 src;
	__u64 dpitch;
	__u64 spitch;
	__u64 width;
	__u64 height;
	__u32 flags;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/* Peer access between devices of one process */

/* &drm_ascend_peer.op */
#define DRM_ASCEND_PEER_ENABLE		0
#define DRM_ASCEND_PEER_DISABLE		1
#define DRM_ASCEND_PEER_QUERY		2

/**
 * struct drm_ascend_peer - let this file's device reach a peer device
 * @peer_fd: in: an open file of another ascend device, in the same process
 * @op: in: DRM_ASCEND_PEER_*
 * @status: out: 1 if access to the peer is enabled (after the op), else 0
 * @pad: must be 0
 *
 * One direction: after ENABLE on device A's file naming device B's file,
 * A's DMA engines and command processor may read and write B's memory, and
 * addresses in B's VA window resolve through B's device MMU in A's
 * commands and copies.  -EINVAL for a file of the same device or not an
 * ascend file; -EPERM for a file of another process; -EEXIST if already
 * enabled (ENABLE), -ENOSPC when the file has 128 links already (the
 * device's peer window table), -ENOENT if not enabled (DISABLE).  Closing
 * either file removes the link.
 */
struct drm_ascend_peer {
	__s32 peer_fd;
	__u32 op;
	__u32 status;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/* Inter-process sharing of device memory and events */

/* Length of a key including its terminating NUL (CANN passes 65 bytes). */
#define DRM_ASCEND_IPC_KEY_LEN		65

/* &drm_ascend_ipc_export.type, &drm_ascend_ipc_import.type */
#define DRM_ASCEND_IPC_MEM		0
#define DRM_ASCEND_IPC_EVENT		1
#define DRM_ASCEND_IPC_NOTIFY		2	/* a notify's word: memory of 8
						 * bytes, imported only as a
						 * notify */
#define DRM_ASCEND_IPC_PHYS		3	/* a physical allocation
						 * (PHYS_ALLOC), imported as
						 * one (%DRM_ASCEND_CAP_VMM) */
/*
 * Keys of %DRM_ASCEND_IPC_PHYS exports carry their meaning in the first
 * 16 digits (8 of the index, 8 random); the other 48 are '0'.  So a key
 * fits CANN's 64-bit shareable handle: the 16 digits read as hex.
 */
#define DRM_ASCEND_IPC_PHYS_KEY_DIGITS	16

/* &drm_ascend_ipc_export.flags */
#define DRM_ASCEND_IPC_NO_PID_CHECK	(1U << 0)	/* any process may import */

/**
 * struct drm_ascend_ipc_export - export memory or an event under a key
 * @type: in: DRM_ASCEND_IPC_MEM, DRM_ASCEND_IPC_EVENT or
 *	DRM_ASCEND_IPC_NOTIFY (%DRM_ASCEND_CAP_NOTIFY)
 * @flags: in: DRM_ASCEND_IPC_* flags
 * @va: in (MEM, NOTIFY): device VA inside an allocation of this file
 *	(NOTIFY: 4 KiB aligned; the importer maps that page, so nothing else
 *	should live in it)
 * @size: in (MEM): bytes from @va, inside the same allocation, > 0;
 *	(NOTIFY): 8
 * @event: in (EVENT): event handle of this file; (PHYS): GEM handle of a
 *	physical allocation this file holds (%DRM_IOCTL_ASCEND_PHYS_ALLOC or
 *	an import), all of which is exported; @va and @size must be 0
 * @pad: must be 0
 * @key: out: NUL-terminated key of 64 lowercase hex digits, unguessable:
 *	224 of its bits come from the kernel's CSPRNG (the rest number the
 *	export, so that a look-up costs the same however many there are).
 *	PHYS: 32 random bits only (%DRM_ASCEND_IPC_PHYS_KEY_DIGITS), since
 *	CANN's handle has 64 bits: keep the pid check on, or pass a dma-buf
 *	fd (PRIME) instead
 * @pad2: must be 0
 *
 * Without %DRM_ASCEND_IPC_NO_PID_CHECK only processes added with
 * %DRM_IOCTL_ASCEND_IPC_SET_PID may import; the kernel enforces it.  The
 * exported memory stays alive while the export or any import holds it.
 */
struct drm_ascend_ipc_export {
	__u32 type;
	__u32 flags;
	__u64 va;
	__u64 size;
	__u32 event;
	__u32 pad;
	char key[DRM_ASCEND_IPC_KEY_LEN];
	__u8 pad2[7];
};

/**
 * struct drm_ascend_ipc_set_pid - allow processes to import a key
 * @key: in: key of an export of this file
 * @pad: must be 0
 * @pids: in: user pointer to @count __s32 process ids (thread-group ids as
 *	the initial PID namespace sees them: &drm_ascend_device_info.bare_tgid
 *	of each process)
 * @count: in: number of pids, 1..1024
 * @pad2: must be 0
 *
 * The kernel lists the processes, not their numbers: a listed process that
 * exits stays listed as itself, and a process that gets its number later
 * is not on the list.  -ENOENT if @key is not an export of this file,
 * -ESRCH if a pid names no live process (nothing is added then), -EINVAL
 * for a pid <= 0.
 */
struct drm_ascend_ipc_set_pid {
	char key[DRM_ASCEND_IPC_KEY_LEN];
	__u8 pad[7];
	__u64 pids;
	__u32 count;
	__u32 pad2;
};

/**
 * struct drm_ascend_ipc_import - import an exported object into this file
 * @key: in: the exporter's key
 * @pad: must be 0
 * @type: in: what the caller expects, DRM_ASCEND_IPC_MEM, _EVENT, _NOTIFY
 *	or _PHYS
 * @flags: in: must be 0
 * @va: out (MEM, NOTIFY): device VA of the memory (NOTIFY: of the word) in
 *	this file's VA window; (PHYS): 0, nothing is mapped
 * @size: out (MEM, NOTIFY, PHYS): bytes
 * @handle: out: GEM handle (MEM, NOTIFY; DRM_IOCTL_GEM_CLOSE releases the
 *	import), GEM handle of a physical allocation (PHYS; map it with
 *	%DRM_IOCTL_ASCEND_VA_MAP, close it with DRM_IOCTL_GEM_CLOSE)
 *	or event handle (EVENT; DRM_IOCTL_ASCEND_EVENT_DESTROY releases it)
 * @page_size: in: must be 0; out (PHYS): page size of the allocation (was
 *	a pad, which had to be 0)
 *
 * For MEM, NOTIFY and PHYS the importer's file must be on the exporter's
 * device.  An EVENT may be imported into a file of any device
 * (%DRM_ASCEND_CAP_IPC_EVENT_ANY_DEVICE): that file's queues record and
 * wait on the exporter's device's event, and its EVENT_WAIT and
 * EVENT_SIGNAL act on it too.  An unknown key, a closed export, a key of
 * another type, another device and a process not allowed to import all
 * fail alike with -ENOENT, so guessing learns nothing.
 */
struct drm_ascend_ipc_import {
	char key[DRM_ASCEND_IPC_KEY_LEN];
	__u8 pad[7];
	__u32 type;
	__u32 flags;
	__u64 va;
	__u64 size;
	__u32 handle;
	__u32 page_size;
};

/**
 * struct drm_ascend_ipc_close - withdraw an export
 * @key: in: key of an export of this file
 * @pad: must be 0
 *
 * No new imports succeed afterwards; existing imports keep the object
 * alive.  -ENOENT if @key is not an export of this file.
 */
struct drm_ascend_ipc_close {
	char key[DRM_ASCEND_IPC_KEY_LEN];
	__u8 pad[7];
};

/* ------------------------------------------------------------------------ */
/*
 * Virtual memory management (%DRM_ASCEND_CAP_VMM): physical allocations
 * without a VA, VA reservations inside the VA window, and mappings of
 * the one into the other, as CANN's aclrtMallocPhysical /
 * aclrtReserveMemAddress / aclrtMapMem use them.
 *
 * A physical allocation is a GEM object of its own kind: DRM_IOCTL_GEM_CLOSE
 * drops the handle, and the memory lives on while any mapping, IPC export
 * or dma-buf (DRM_IOCTL_PRIME_HANDLE_TO_FD; importing the fd into a file
 * of the same device gives a handle to the same allocation) holds it.  It
 * is charged to the user who allocated it until the memory is freed.
 */

/**
 * struct drm_ascend_phys_alloc - allocate device memory without mapping it
 * @size: in: bytes, > 0; rounded up to the page size
 * @policy: in: one of &enum drm_ascend_bo_policy
 * @flags: in: %DRM_ASCEND_BO_P2P or 0
 * @alloc_size: out: bytes reserved (a multiple of @page_size)
 * @handle: out: GEM handle of the allocation
 * @page_size: out: page size of the backing; mappings of it are aligned to
 *	it in VA, size and offset
 *
 * -ENOSPC when the device memory cannot satisfy it, -EDQUOT beyond the
 * user's share.
 */
struct drm_ascend_phys_alloc {
	__u64 size;
	__u32 policy;
	__u32 flags;
	__u64 alloc_size;
	__u32 handle;
	__u32 page_size;
};

/* Most reservations one file holds, and mappings in all of them. */
#define DRM_ASCEND_VA_MAX_RESERVATIONS	4096
#define DRM_ASCEND_VA_MAX_MAPPINGS	65536

/**
 * struct drm_ascend_va_reserve - reserve a range of the VA window
 * @va: in: the start wanted (0: any), aligned to @align; out: the start
 * @size: in: bytes, > 0, a multiple of 2 MiB
 * @align: in: a power of two from 2 MiB to 1 GiB, or 0 (2 MiB; 1 GiB for
 *	sizes of 1 GiB and more)
 * @flags: in: must be 0
 * @pad: must be 0
 *
 * Nothing in the range is mapped: every device access to it faults until
 * %DRM_IOCTL_ASCEND_VA_MAP maps memory there.  -ENXIO without a VA window,
 * -ENOSPC when the window has no such free range, -EEXIST when the wanted
 * range is not free, -EINVAL when it is not inside the window, -EMFILE
 * beyond %DRM_ASCEND_VA_MAX_RESERVATIONS.
 */
struct drm_ascend_va_reserve {
	__u64 va;
	__u64 size;
	__u64 align;
	__u32 flags;
	__u32 pad;
};

/**
 * struct drm_ascend_va_release - give a reservation back
 * @va: in: its start
 *
 * -ENOENT if no reservation starts at @va, -EBUSY while anything is still
 * mapped in it.
 */
struct drm_ascend_va_release {
	__u64 va;
};

/* &drm_ascend_va_map.flags */
#define DRM_ASCEND_VA_MAP_READONLY	(1U << 0)	/* the device may only read */
#define DRM_ASCEND_VA_MAP_NOACCESS	(1U << 1)	/* mapped, every access faults
							 * until VA_PROTECT */
#define DRM_ASCEND_VA_MAP_FLAGS		(DRM_ASCEND_VA_MAP_READONLY | \
					 DRM_ASCEND_VA_MAP_NOACCESS)

/**
 * struct drm_ascend_va_map - map a physical allocation into a reservation
 * @va: in: where, inside one reservation
 * @size: in: bytes, > 0
 * @offset: in: first byte of the allocation mapped
 * @handle: in: GEM handle of a physical allocation
 * @flags: in: DRM_ASCEND_VA_MAP_* flags
 *
 * @va, @size and @offset are multiples of the allocation's page size;
 * [@offset, @offset + @size) lies inside it.  Mappings are contiguous to
 * each other where they abut: a copy or a kernel may run across them.
 * One allocation may be mapped any number of times, in any reservation.
 * -EINVAL for misalignment or a range outside the allocation or outside
 * one reservation, -ENOENT for a handle that is no physical allocation,
 * -EEXIST if part of the range is mapped already, -EMFILE beyond
 * %DRM_ASCEND_VA_MAX_MAPPINGS.
 */
struct drm_ascend_va_map {
	__u64 va;
	__u64 size;
	__u64 offset;
	__u32 handle;
	__u32 flags;
};

/**
 * struct drm_ascend_va_unmap - remove a mapping
 * @va: in: the start of a mapping made by %DRM_IOCTL_ASCEND_VA_MAP
 *
 * The range faults for the device at once: work queued before the unmap
 * that still names it faults on its own queue.  The mapping's hold on the
 * memory goes at once too (the device can no longer reach it), so a
 * physical allocation freed while mapped is freed here.
 * -ENOENT if no mapping starts at @va.
 */
struct drm_ascend_va_unmap {
	__u64 va;
};

/* &drm_ascend_va_protect.access */
#define DRM_ASCEND_VA_ACCESS_NONE	0	/* every access faults */
#define DRM_ASCEND_VA_ACCESS_READ	1	/* reads only */
#define DRM_ASCEND_VA_ACCESS_READWRITE	3	/* reads and writes */

/**
 * struct drm_ascend_va_protect - change what the device may do to a mapping
 * @va: in: the start of a mapping
 * @size: in: its size
 * @access: in: DRM_ASCEND_VA_ACCESS_*
 * @pad: must be 0
 *
 * -ENOENT if no mapping is exactly [@va, @va + @size).
 */
struct drm_ascend_va_protect {
	__u64 va;
	__u64 size;
	__u32 access;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/*
 * Managed memory (%DRM_ASCEND_CAP_MANAGED), as CANN's aclrtMemAllocManaged
 * uses it: one pointer valid on the host and the device.  The memory moves
 * in 2 MiB chunks to the side that touches it: the host's touch (a page
 * fault of the process's mapping) brings a chunk into host pages the
 * driver owns (never pinned, charged to the process's memory cgroup); the
 * device's touch (a page request, Documentation/hardware.rst) brings it
 * into HBM (charged to the user's HBM share).  A chunk never touched reads
 * zeroes on either side.  An access of both sides to one chunk at the same
 * time has no defined result (the device's may fault its queue).
 */

/* Largest total of managed allocations one file may hold. */
#define DRM_ASCEND_MANAGED_MAX_BYTES	(256ULL << 30)
#define DRM_ASCEND_MANAGED_CHUNK	(2ULL << 20)

/**
 * struct drm_ascend_managed_create - allocate managed memory
 * @size: in: bytes, > 0; rounded up to %DRM_ASCEND_MANAGED_CHUNK
 * @flags: in: must be 0
 * @handle: out: GEM handle; DRM_IOCTL_GEM_CLOSE drops it (the memory goes
 *	once the handle is closed and the mapping is gone)
 * @va: out: the allocation's device VA, in the file's VA window
 * @mmap_offset: out: offset to mmap() on the DRM file, MAP_SHARED, at @va
 *	exactly (MAP_FIXED over the window's reservation): the same pointer
 *	then works on both sides.  A mapping elsewhere is refused (-EINVAL)
 * @alloc_size: out: bytes allocated (@size rounded up)
 *
 * -ENXIO without a VA window, -ENOSPC when the window has no room,
 * -EDQUOT past %DRM_ASCEND_MANAGED_MAX_BYTES for the file, -EINVAL for
 * other arguments.  No device memory is taken until the device touches it.
 */
struct drm_ascend_managed_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 va;
	__u64 mmap_offset;
	__u64 alloc_size;
};

/* &drm_ascend_managed_migrate.target */
#define DRM_ASCEND_MANAGED_TO_HOST	1
#define DRM_ASCEND_MANAGED_TO_DEVICE	2

/**
 * struct drm_ascend_managed_migrate - move managed memory now (prefetch)
 * @va: in: first byte; [@va, @va + @size) lies in one managed allocation
 * @size: in: bytes, > 0; every chunk it touches moves
 * @target: in: %DRM_ASCEND_MANAGED_TO_HOST or %DRM_ASCEND_MANAGED_TO_DEVICE
 * @flags: in: must be 0
 *
 * Synchronous: on return the chunks are on @target (those already there
 * stay).  -EINVAL if the range is not one managed allocation's, -EDQUOT /
 * -ENOSPC when the device memory cannot take a chunk (the chunks moved
 * before it stay moved), -ENOMEM without host memory, -EINTR on a fatal
 * signal (between chunks).
 */
struct drm_ascend_managed_migrate {
	__u64 va;
	__u64 size;
	__u32 target;
	__u32 flags;
};

/**
 * struct drm_ascend_managed_query - where managed memory is
 * @va: in: first byte; [@va, @va + @size) lies in one managed allocation
 * @size: in: bytes, > 0
 * @host_bytes: out: bytes of the chunks the range touches that are in host
 *	pages (counted by page: only the pages the host touched exist)
 * @device_bytes: out: bytes of those chunks in HBM (whole chunks)
 * @to_host: out: bytes the file's managed memory moved to the host so far
 * @to_device: out: bytes it moved to the device so far
 * @flags: in: must be 0
 * @pad: must be 0
 */
struct drm_ascend_managed_query {
	__u64 va;
	__u64 size;
	__u64 host_bytes;
	__u64 device_bytes;
	__u64 to_host;
	__u64 to_device;
	__u32 flags;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/* Host memory the device can use (pinned, mapped in the device MMU) */

/**
 * struct drm_ascend_host_alloc - allocate pinned host memory (aclrtMallocHost)
 * @size: in: bytes, > 0; rounded up to the page size
 * @flags: in: must be 0
 * @handle: out: GEM handle; DRM_IOCTL_GEM_CLOSE releases it (the pages go
 *	once the handle is closed, every mapping is gone and queued commands
 *	that may use them completed)
 * @mmap_offset: out: offset to mmap() on the DRM file (MAP_SHARED, the
 *	whole size).  The first mapping's address becomes the memory's device
 *	address too, so the same pointer works on the host and the device; a
 *	second mapping is refused with -EBUSY.  munmap() removes the device
 *	mapping.
 * @alloc_size: out: bytes allocated
 *
 * The pages are charged to the caller's RLIMIT_MEMLOCK (-ENOMEM past it,
 * unless CAP_IPC_LOCK) before anything of their size is allocated; more
 * pages than the host has are refused at once (-ENOMEM).
 */
struct drm_ascend_host_alloc {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 mmap_offset;
	__u64 alloc_size;
};

/* &drm_ascend_host_register.flags */
#define DRM_ASCEND_HOST_REG_READONLY	(1U << 0)	/* device may only read */
#define DRM_ASCEND_HOST_REG_FLAGS	(DRM_ASCEND_HOST_REG_READONLY)

/**
 * struct drm_ascend_host_register - pin user memory for the device
 * @addr: in: page-aligned start of memory the process has mapped
 * @size: in: page-aligned size, > 0
 * @flags: in: DRM_ASCEND_HOST_REG_* flags
 * @handle: out: GEM handle; DRM_IOCTL_GEM_CLOSE unregisters (the pages are
 *	unpinned, exactly once, when queued commands that may use them
 *	completed)
 *
 * Pins the pages long-term (FOLL_LONGTERM), charges them to RLIMIT_MEMLOCK
 * (-ENOMEM past it, unless CAP_IPC_LOCK; checked before anything of their
 * size is allocated; more pages than the host has: -ENOMEM at once) and
 * maps them in the file's device MMU at their host address.  -EEXIST if any page of the range is already
 * registered or allocated with %DRM_IOCTL_ASCEND_HOST_ALLOC in this file;
 * -EINVAL for misalignment or a range inside the VA window; -EFAULT if the
 * range is not mapped memory that can be pinned.
 */
struct drm_ascend_host_register {
	__u64 addr;
	__u64 size;
	__u32 flags;
	__u32 handle;
};

/* ------------------------------------------------------------------------ */
/* FILL: synchronous memset by a DMA engine */

/**
 * struct drm_ascend_fill - fill device memory with a repeated pattern
 * @dst: destination device VA
 * @size: bytes to fill, > 0, a multiple of @pattern_size
 * @pattern: the low @pattern_size bytes (little endian) are repeated
 * @pattern_size: 1, 2 or 4
 * @flags: must be 0
 *
 * Ordered like %DRM_IOCTL_ASCEND_COPY: after the file's published queue
 * work.  -EFAULT when the range is not fully inside one allocation.
 */
struct drm_ascend_fill {
	__u64 dst;
	__u64 size;
	__u64 pattern;
	__u32 pattern_size;
	__u32 flags;
};

/* ------------------------------------------------------------------------ */
/* Events
 *
 * An event is a kernel object of the file that counts generations: user
 * space numbers its records 1, 2, 3, ... and puts %ASCEND_CMD_EVENT_RECORD
 * with that generation on a queue; when the command executes (after every
 * earlier command of its queue completed) the event's completed generation
 * becomes max(completed, gen) and the device timestamp is taken.
 * %ASCEND_CMD_EVENT_WAIT stalls its queue on the device side until the
 * event reached a generation; %DRM_IOCTL_ASCEND_EVENT_WAIT does the same
 * for the host, and %DRM_IOCTL_ASCEND_EVENT_SIGNAL completes a generation
 * from the host (used for blocking host callbacks).
 */

/* &drm_ascend_event_create.flags */
#define DRM_ASCEND_EVENT_TIMESTAMP	(1U << 0)	/* take timestamps */
#define DRM_ASCEND_EVENT_FLAGS		(DRM_ASCEND_EVENT_TIMESTAMP)

/**
 * struct drm_ascend_event_create - create an event
 * @flags: in: DRM_ASCEND_EVENT_* flags
 * @handle: out: event handle (non-zero); -ENOSPC past
 *	&drm_ascend_device_info.max_events_per_file, or when the device's
 *	65535 event slots, shared by every file of the device, are all taken
 */
struct drm_ascend_event_create {
	__u32 flags;
	__u32 handle;
};

/**
 * struct drm_ascend_event_destroy - destroy an event
 * @handle: event handle; commands still referring to it fault with
 *	%ASCEND_FAULT_BAD_COMMAND when they execute, waits end with -ENOENT
 * @pad: must be 0
 */
struct drm_ascend_event_destroy {
	__u32 handle;
	__u32 pad;
};

/**
 * struct drm_ascend_event_wait - query or wait for an event generation
 * @handle: in: event handle
 * @flags: in: must be 0
 * @gen: in: generation to wait for; 0 only queries
 * @timeout_ns: in: absolute CLOCK_MONOTONIC deadline; 0 polls;
 *	%DRM_ASCEND_TIMEOUT_INFINITE waits forever.  -ETIME when it expires.
 * @completed: out: the event's completed generation
 * @timestamp_ns: out: device time (ns) when @completed was recorded, 0
 *	without %DRM_ASCEND_EVENT_TIMESTAMP or before the first record
 */
struct drm_ascend_event_wait {
	__u32 handle;
	__u32 flags;
	__u64 gen;
	__s64 timeout_ns;
	__u64 completed;
	__u64 timestamp_ns;
};

/**
 * struct drm_ascend_event_signal - complete a generation from the host
 * @handle: event handle
 * @pad: must be 0
 * @gen: the event's completed generation becomes max(completed, @gen)
 */
struct drm_ascend_event_signal {
	__u32 handle;
	__u32 pad;
	__u64 gen;
};

/* ------------------------------------------------------------------------ */
/* Queues */

/**
 * struct drm_ascend_queue_create - create a hardware queue
 * @ring_entries: in: number of command slots, a power of two up to
 *	&drm_ascend_device_info.max_ring_entries; 0 picks the default
 * @flags: in: must be 0
 * @handle: out: queue handle (non-zero)
 * @pad: must be 0
 * @mmap_offset: out: offset to mmap() on the DRM file to map the queue area
 * @mmap_size: out: size of the queue area
 *
 * The queue area starts with &struct ascend_queue_status; its fields say
 * where the printf buffer and the command ring are.
 */
struct drm_ascend_queue_create {
	__u32 ring_entries;
	__u32 flags;
	__u32 handle;
	__u32 pad;
	__u64 mmap_offset;
	__u64 mmap_size;
};

/* Bytes of the activity bitmap: one bit per queue handle (bit 0 unused). */
#define DRM_ASCEND_QUEUE_ACTIVITY_SIZE	4096

/**
 * struct drm_ascend_queue_activity - the file's queue activity bitmap
 * @flags: in: must be 0
 * @pad: must be 0
 * @mmap_offset: out: offset to mmap() the bitmap at on this file (shared,
 *	read-write)
 * @mmap_size: out: bytes to map, %DRM_ASCEND_QUEUE_ACTIVITY_SIZE
 * @reserved: must be 0
 *
 * Synchronous operations of a file (COPY, FILL, COPY_2D, COPY_BATCH, ...)
 * first wait for the commands its queues had published.  Without an
 * activity bitmap that means looking at every queue of the file.  With one,
 * the file promises: after publishing a wptr, set bit @handle (little-endian
 * __u64 word @handle / 64, bit @handle % 64) of the bitmap with an atomic OR
 * (a full barrier between the wptr store and reading the word, as for
 * NEED_WAKEUP, lets a bit found set be left alone).  From then on those
 * waits look only at queues whose bit is set or that were rung with
 * %DRM_IOCTL_ASCEND_QUEUE_DOORBELL, and clear the bits of queues they
 * found complete.  A bit user space forgets costs only its own ordering.
 * One bitmap per file: a second call returns the same one.
 */
struct drm_ascend_queue_activity {
	__u32 flags;
	__u32 pad;
	__u64 mmap_offset;
	__u64 mmap_size;
	__u64 reserved;
};

/* &drm_ascend_queue_destroy.flags */
#define DRM_ASCEND_QUEUE_DESTROY_FORCE	(1U << 0)

/**
 * struct drm_ascend_queue_destroy - destroy a queue
 * @handle: queue handle
 * @flags: 0 waits for every published command to complete (interruptible);
 *	%DRM_ASCEND_QUEUE_DESTROY_FORCE gives published work a short grace
 *	period (documented in Documentation/) and then discards the rest
 */
struct drm_ascend_queue_destroy {
	__u32 handle;
	__u32 flags;
};

/**
 * struct drm_ascend_queue_doorbell - wake the device side of a queue
 * @handle: queue handle
 * @pad: must be 0
 */
struct drm_ascend_queue_doorbell {
	__u32 handle;
	__u32 pad;
};

/* &drm_ascend_queue_reset.flags */
#define DRM_ASCEND_QUEUE_RESET_ABORT	(1U << 0)
#define DRM_ASCEND_QUEUE_RESET_STOP	(1U << 1)

/**
 * struct drm_ascend_queue_reset - make a faulted queue usable again, or
 *	stop a healthy one's work
 * @handle: queue handle
 * @flags: 0: the queue must have faulted (-EINVAL otherwise); discards
 *	every command published but not executed (rptr, completed and the
 *	status page's wptr all become the wptr when it is at most
 *	ring_entries ahead of rptr, and stay at rptr otherwise: a wptr that
 *	user space moved behind rptr or more than a ring ahead of it
 *	published nothing and is brought back), clears the fault and
 *	restarts the queue.  Commands published while the reset runs are
 *	discarded too.
 *	%DRM_ASCEND_QUEUE_RESET_ABORT: the same on a queue that need not
 *	have faulted: the device stops the command it is running (its
 *	QUEUE_STOP, Documentation/hardware.rst: a copy within one step per
 *	engine, a kernel at its next poll point), and everything published
 *	is discarded.
 *	%DRM_ASCEND_QUEUE_RESET_STOP: the device stops the command it is
 *	running (or has parked) and drops it; the commands behind it stay
 *	published and run after the restart.  On a faulted queue, as 0.
 *	At most one of the two; other bits: -EINVAL.  Both need
 *	%DRM_ASCEND_CAP_QUEUE_ABORT.
 *
 * Either way completed grows to the restart point, so a waiter for a
 * dropped command returns as if it had completed: user space that must
 * tell the two apart counts its own resets.
 */
struct drm_ascend_queue_reset {
	__u32 handle;
	__u32 flags;
};

/* Absolute timeout meaning "wait forever". */
#define DRM_ASCEND_TIMEOUT_INFINITE	0x7fffffffffffffffLL

/**
 * struct drm_ascend_queue_wait - wait for queue progress
 * @handle: in: queue handle
 * @flags: in: must be 0
 * @seq: in: wait until this many commands have completed (sequence numbers
 *	count commands from 1; wptr after publishing command N is N)
 * @timeout_ns: in: absolute CLOCK_MONOTONIC deadline in ns; 0 polls;
 *	%DRM_ASCEND_TIMEOUT_INFINITE waits forever.  -ETIME when it expires.
 * @completed: out: commands completed so far
 * @fault: out: ASCEND_FAULT_* of the queue, 0 if healthy.  A faulted queue
 *	ends the wait at once with 0 returned and @fault set.
 * @pad: must be 0
 */
struct drm_ascend_queue_wait {
	__u32 handle;
	__u32 flags;
	__u64 seq;
	__s64 timeout_ns;
	__u64 completed;
	__u32 fault;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/* The shared queue area */

/* &ascend_queue_status.flags, written by the device side only */
#define ASCEND_QUEUE_STATUS_NEED_WAKEUP	(1U << 0)	/* ring the doorbell */
#define ASCEND_QUEUE_STATUS_FAULTED	(1U << 1)	/* stopped by a fault */

/* Fault codes (&ascend_queue_status.fault, &drm_ascend_queue_wait.fault) */
#define ASCEND_FAULT_NONE		0
#define ASCEND_FAULT_BAD_COMMAND	1	/* unknown opcode, bad flags/fields */
#define ASCEND_FAULT_MMU		2	/* address not mapped for this file */
#define ASCEND_FAULT_KERNEL		3	/* AI-core exception in a kernel */
#define ASCEND_FAULT_DMA		4	/* DMA engine error */
#define ASCEND_FAULT_RING		5	/* wptr/rptr corrupted by user space */
#define ASCEND_FAULT_ABORTED		6	/* discarded by forced destroy */
#define ASCEND_FAULT_TIMEOUT		7	/* command ran past its time limit */
#define ASCEND_FAULT_DEVICE_LOST	8	/* the device was removed */

/**
 * struct ascend_queue_status - first page of the queue area
 * @wptr: written by user space: number of commands published.  Commands
 *	live at ring slot (n % ring_entries).  Publish with a release store
 *	after the command is written.
 * @rptr: written by the device: number of commands fetched
 * @completed: written by the device: number of commands completed
 * @flags: written by the device: ASCEND_QUEUE_STATUS_* bits
 * @fault: written by the device: ASCEND_FAULT_* once the queue faulted
 * @fault_seq: sequence number of the faulting command
 * @fault_addr: device address that faulted, if any
 * @fault_opcode: opcode of the faulting command
 * @ring_entries: number of ring slots
 * @ring_offset: offset of the command ring from the start of the area
 * @printf_offset: offset of the device printf buffer
 * @printf_size: size of the device printf buffer (a power of two)
 * @cmd_size: size of one ring slot
 * @printf_head: written by the device: bytes of printf text produced so far;
 *	text byte n is at printf_offset + (n % printf_size)
 * @printf_tail: written by user space: bytes of printf text consumed.  The
 *	device drops text (and counts it in @printf_dropped) rather than
 *	overwrite unconsumed bytes.
 * @printf_dropped: written by the device: bytes of printf text dropped
 * @reserved: zero
 */
struct ascend_queue_status {
	__u64 wptr;
	__u64 rptr;
	__u64 completed;
	__u32 flags;
	__u32 fault;
	__u64 fault_seq;
	__u64 fault_addr;
	__u32 fault_opcode;
	__u32 ring_entries;
	__u32 ring_offset;
	__u32 printf_offset;
	__u32 printf_size;
	__u32 cmd_size;
	__u64 printf_head;
	__u64 printf_tail;
	__u64 printf_dropped;
	__u64 reserved[4];
};

/* Command opcodes (&ascend_cmd.opcode) */
#define ASCEND_CMD_NOP		0	/* completes, does nothing */
#define ASCEND_CMD_LAUNCH	1	/* run a built-in kernel */
#define ASCEND_CMD_COPY		2	/* DMA copy between device VAs */
#define ASCEND_CMD_FILL		3	/* DMA fill of device memory */
#define ASCEND_CMD_EVENT_RECORD	4	/* complete an event generation */
#define ASCEND_CMD_EVENT_WAIT	5	/* stall until an event generation */
#define ASCEND_CMD_WRITE_VALUE	6	/* 64-bit store to a device VA */
#define ASCEND_CMD_WAIT_VALUE	7	/* stall until a 64-bit value matches */
#define ASCEND_CMD_COPY_2D	8	/* strided copy */
#define ASCEND_CMD_COPY_BATCH	9	/* entries read from device-visible memory */
#define ASCEND_CMD_COPY_INDIRECT 10	/* descriptor read from device memory */
#define ASCEND_CMD_COPY_OFFSET	11	/* base pointers read from device slots */
#define ASCEND_CMD_REDUCE	12	/* dst[i] = op(dst[i], src[i]) by the DMA engines */

#define ASCEND_CMD_SIZE		128
#define ASCEND_LAUNCH_ARGS_MAX	96

/**
 * struct ascend_cmd_launch - %ASCEND_CMD_LAUNCH payload
 * @kernel_id: &drm_ascend_kernel_info.id of the kernel
 * @num_blocks: number of blocks (block_idx runs 0..num_blocks-1), > 0;
 *	blocks run in parallel across the device's AI cores
 * @args_size: bytes used in @args, at least the kernel's args_size
 * @timeout_ms: limit on the kernel's run time; 0 = the device default
 *	(&drm_ascend_device_info.cmd_timeout_ms); on a file opened without
 *	CAP_SYS_ADMIN at most the device default (a larger value is clamped)
 * @args: packed kernel arguments, each at its natural alignment
 */
struct ascend_cmd_launch {
	__u32 kernel_id;
	__u32 num_blocks;
	__u32 args_size;
	__u32 timeout_ms;
	__u8 args[ASCEND_LAUNCH_ARGS_MAX];
};

/**
 * struct ascend_cmd_copy - %ASCEND_CMD_COPY payload
 * @dst: destination device VA
 * @src: source device VA
 * @size: bytes, > 0; ranges must not overlap
 */
struct ascend_cmd_copy {
	__u64 dst;
	__u64 src;
	__u64 size;
};

/**
 * struct ascend_cmd_fill - %ASCEND_CMD_FILL payload
 * @dst: destination device VA
 * @size: bytes, > 0, a multiple of @pattern_size
 * @pattern: the low @pattern_size bytes are repeated
 * @pattern_size: 1, 2 or 4
 * @pad: zero
 */
struct ascend_cmd_fill {
	__u64 dst;
	__u64 size;
	__u64 pattern;
	__u32 pattern_size;
	__u32 pad;
};

/**
 * struct ascend_cmd_copy_2d - %ASCEND_CMD_COPY_2D payload
 * @dst: destination address of the first row (MMU-mapped)
 * @src: source address of the first row (MMU-mapped)
 * @dpitch: destination pitch, >= @width
 * @spitch: source pitch, >= @width
 * @width: bytes per row, > 0
 * @height: rows, > 0
 */
struct ascend_cmd_copy_2d {
	__u64 dst;
	__u64 src;
	__u64 dpitch;
	__u64 spitch;
	__u64 width;
	__u64 height;
};

/**
 * struct ascend_cmd_copy_batch - %ASCEND_CMD_COPY_BATCH payload
 * @entries: MMU-mapped address (device memory or pinned host memory) of
 *	@count &struct drm_ascend_copy_entry, read when the command executes;
 *	8-byte aligned
 * @count: number of entries, > 0 (no upper limit beyond the mapping)
 * @pad: zero
 *
 * Every entry is translated before any byte moves; an invalid entry faults
 * the queue (fault_addr = the entry's address field that failed).  That
 * holds for entries left alone until the command completes: the device
 * reads them once to check them all and again to run them.  An entry
 * changed in between (by user space or by the batch's own copies) is
 * checked by the same rules and translated by the DMA engines when it
 * runs, so a bad one faults the queue there, after the entries before it
 * moved; no byte outside the queue's address space is ever touched.
 */
struct ascend_cmd_copy_batch {
	__u64 entries;
	__u32 count;
	__u32 pad;
};

/* &ascend_memcpy_desc.magic */
#define ASCEND_MEMCPY_DESC_MAGIC	0x44435341	/* "ASCD" little endian */
#define ASCEND_MEMCPY_DESC_SIZE		64
#define ASCEND_MEMCPY_DESC_ALIGN	64

/**
 * struct ascend_memcpy_desc - a copy descriptor kept in device memory
 * @magic: %ASCEND_MEMCPY_DESC_MAGIC
 * @version: 1
 * @dst: destination device VA
 * @src: source device VA
 * @size: bytes, > 0
 * @reserved: zero
 *
 * aclrtSetMemcpyDesc writes it; %ASCEND_CMD_COPY_INDIRECT reads it when the
 * command executes, so device code may rewrite it in between.  A malformed
 * descriptor faults the queue with %ASCEND_FAULT_BAD_COMMAND.
 */
struct ascend_memcpy_desc {
	__u32 magic;
	__u32 version;
	__u64 dst;
	__u64 src;
	__u64 size;
	__u64 reserved[4];
};

/**
 * struct ascend_cmd_copy_indirect - %ASCEND_CMD_COPY_INDIRECT payload
 * @desc: device VA of a &struct ascend_memcpy_desc, 64-byte aligned
 */
struct ascend_cmd_copy_indirect {
	__u64 desc;
};

/**
 * struct ascend_cmd_copy_offset - %ASCEND_CMD_COPY_OFFSET payload
 * @dst_slot: device VA of a 64-bit destination base pointer, 8-byte aligned
 * @src_slot: device VA of a 64-bit source base pointer, 8-byte aligned
 * @dst_offset: added to the destination base read at execution time
 * @src_offset: added to the source base read at execution time
 * @size: bytes, > 0
 *
 * Copies @size bytes from *@src_slot + @src_offset to *@dst_slot +
 * @dst_offset, both pointers read when the command executes.
 */
struct ascend_cmd_copy_offset {
	__u64 dst_slot;
	__u64 src_slot;
	__u64 dst_offset;
	__u64 src_offset;
	__u64 size;
};

/* &ascend_cmd_reduce.op */
#define ASCEND_REDUCE_SUM	0	/* dst + src: integers wrap, floats IEEE */
#define ASCEND_REDUCE_MAX	1	/* the larger; a NaN operand wins */
#define ASCEND_REDUCE_MIN	2	/* the smaller; a NaN operand wins */

/* &ascend_cmd_reduce.dtype: element types, little endian */
#define ASCEND_REDUCE_INT8	0	/* two's complement, 1 byte */
#define ASCEND_REDUCE_INT16	1	/* two's complement, 2 bytes */
#define ASCEND_REDUCE_INT32	2	/* two's complement, 4 bytes */
#define ASCEND_REDUCE_UINT32	3	/* unsigned, 4 bytes */
#define ASCEND_REDUCE_FP16	4	/* IEEE-754 binary16 */
#define ASCEND_REDUCE_FP32	5	/* IEEE-754 binary32 */
#define ASCEND_REDUCE_BF16	6	/* bfloat16: the top half of a binary32 */

/**
 * struct ascend_cmd_reduce - %ASCEND_CMD_REDUCE payload
 * @dst: destination device VA, aligned to the element size; read and
 *	written
 * @src: source device VA, aligned to the element size
 * @size: bytes, > 0, a multiple of the element size
 * @op: ASCEND_REDUCE_SUM, _MAX or _MIN
 * @dtype: ASCEND_REDUCE_INT8 ... _BF16
 * @flags: zero
 * @pad: zero
 *
 * For every element i of the @size bytes, dst[i] = @op(dst[i], src[i]),
 * performed by the DMA engines (read both, combine, write dst).  @src and
 * @dst are the same range or do not overlap at all.  Float sums round to
 * nearest even (binary16 and bfloat16: computed in binary32, then rounded
 * once to the element type, which gives the correctly rounded sum).  MAX
 * and MIN order -0 below +0 and return a quiet NaN when either operand is
 * a NaN (the destination's first).  Every byte of both ranges must
 * translate (the destination for writing) before the first one changes.
 */
struct ascend_cmd_reduce {
	__u64 dst;
	__u64 src;
	__u64 size;
	__u32 op;
	__u32 dtype;
	__u32 flags;
	__u32 pad;
};

/* &ascend_cmd_event.flags */
#define ASCEND_CMD_EVENT_TIMEOUT	(1U << 0)	/* @timeout_ms is valid */

/**
 * struct ascend_cmd_event - %ASCEND_CMD_EVENT_RECORD / _WAIT payload
 * @handle: event handle of the submitting file
 * @flags: ASCEND_CMD_EVENT_* (WAIT only; 0 for RECORD)
 * @gen: generation to complete (RECORD) or to wait for (WAIT), > 0
 * @timeout_ms: WAIT with %ASCEND_CMD_EVENT_TIMEOUT: fault the queue with
 *	%ASCEND_FAULT_TIMEOUT if the generation is not reached in time
 * @pad: zero
 */
struct ascend_cmd_event {
	__u32 handle;
	__u32 flags;
	__u64 gen;
	__u32 timeout_ms;
	__u32 pad;
};

/**
 * struct ascend_cmd_value - %ASCEND_CMD_WRITE_VALUE / _WAIT_VALUE payload
 * @addr: device VA of a naturally aligned 64-bit word; with
 *	%DRM_ASCEND_CAP_NOTIFY also inside the window of a linked peer
 *	(%DRM_IOCTL_ASCEND_PEER)
 * @value: value to store or combine (WRITE) or to compare with (WAIT)
 * @cond: WAIT: one of ASCEND_WAIT_VALUE_*, optionally with
 *	%ASCEND_WAIT_VALUE_RESET; WRITE: one of ASCEND_WRITE_VALUE_* (0: a
 *	plain store)
 * @timeout_ms: WAIT: 0 = the device default command timeout; on a file
 *	opened without CAP_SYS_ADMIN at most the device default.  WAIT with
 *	%ASCEND_WAIT_VALUE_OWN_LIMIT (a notify's wait): this limit alone, 0 =
 *	none, as an EVENT_WAIT's
 */
struct ascend_cmd_value {
	__u64 addr;
	__u64 value;
	__u32 cond;
	__u32 timeout_ms;
};

/* &ascend_cmd_value.cond: the values of CANN's ACL_STREAM_WAIT_VALUE_* */
#define ASCEND_WAIT_VALUE_GEQ	0	/* (__s64)(*addr - value) >= 0 */
#define ASCEND_WAIT_VALUE_EQ	1	/* *addr == value */
#define ASCEND_WAIT_VALUE_AND	2	/* (*addr & value) != 0 */
#define ASCEND_WAIT_VALUE_NOR	3	/* ~(*addr | value) != 0 */
/* With %DRM_ASCEND_CAP_NOTIFY (a counting notify's waits), unsigned: */
#define ASCEND_WAIT_VALUE_LT	4	/* *addr < value */
#define ASCEND_WAIT_VALUE_GT	5	/* *addr > value */
#define ASCEND_WAIT_VALUE_ALL	6	/* (*addr & value) == value */

/*
 * &ascend_cmd_value.cond of a WRITE_VALUE (%DRM_ASCEND_CAP_NOTIFY for all
 * but STORE): a store, or an atomic read-modify-write of the word, which
 * must then be device memory (a counting notify's record).
 */
#define ASCEND_WRITE_VALUE_STORE	0	/* *addr = value */
#define ASCEND_WRITE_VALUE_ADD	1	/* *addr += value (mod 2^64) */
#define ASCEND_WRITE_VALUE_OR	2	/* *addr |= value */
#define ASCEND_WRITE_VALUE_AND	3	/* *addr &= value */

/*
 * Flag of &ascend_cmd_value.cond (%DRM_ASCEND_CAP_NOTIFY): when the
 * condition holds, the device stores 0 to the word in the same atomic step
 * (a notify's wait-and-reset: a store that lands after the check is kept).
 * The word must be device memory.
 */
#define ASCEND_WAIT_VALUE_RESET	(1U << 8)
/*
 * Flag of &ascend_cmd_value.cond (%DRM_ASCEND_CAP_NOTIFY): @timeout_ms is
 * the wait's own limit, 0 = none, not capped by the device's command
 * timeout (a parked wait holds no core or engine, like an EVENT_WAIT).
 */
#define ASCEND_WAIT_VALUE_OWN_LIMIT	(1U << 9)
#define ASCEND_WAIT_VALUE_COND_MASK	0xffU

/*
 * ------------------------------------------------------------------------
 * Command lists (task graphs, %DRM_ASCEND_CAP_CMD_LIST)
 *
 * %ASCEND_CMD_CALL runs a list of commands kept in device-visible memory,
 * as if they had been written to the ring in its place: the command
 * processor fetches each list command when it reaches it (a copy, as from
 * the ring), checks it by the ring's rules and executes it.  The CALL
 * completes when the last list command completes; a list command that
 * faults faults the queue with the CALL's sequence number and the list
 * command's opcode and address.  Lists do not nest: a CALL inside a list
 * faults %ASCEND_FAULT_BAD_COMMAND.  %ASCEND_CMD_SWITCH and %ASCEND_CMD_JUMP
 * move within the running list and fault on the ring.
 * ------------------------------------------------------------------------
 */
#define DRM_ASCEND_CAP_CMD_LIST		(1ULL << 18)	/* ASCEND_CMD_CALL,
							 * _SWITCH, _JUMP
							 */

#define ASCEND_CMD_CALL		13	/* run a command list from device memory */
#define ASCEND_CMD_SWITCH	14	/* list only: jump by a value in memory */
#define ASCEND_CMD_JUMP		15	/* list only: jump to a list index */

/* Most commands in one list. */
#define ASCEND_CALL_MAX_CMDS	65536
/*
 * Most list commands one CALL executes (jumps may run a command again);
 * the next one faults the queue with %ASCEND_FAULT_TIMEOUT.
 */
#define ASCEND_CALL_MAX_STEPS	(4U * ASCEND_CALL_MAX_CMDS)

/**
 * struct ascend_cmd_call - %ASCEND_CMD_CALL payload
 * @list: MMU-mapped address of @count &struct ascend_cmd, 8-byte aligned;
 *	every command is read when it is reached, so the list may be
 *	rewritten between two CALLs (not while one runs it)
 * @count: number of commands, 1 ... %ASCEND_CALL_MAX_CMDS
 * @pad: zero
 */
struct ascend_cmd_call {
	__u64 list;
	__u32 count;
	__u32 pad;
};

/**
 * struct ascend_cmd_switch - %ASCEND_CMD_SWITCH payload
 * @value: MMU-mapped address of the selector, naturally aligned, read when
 *	the command executes
 * @table: MMU-mapped address of @count __u32 list indices (the labels),
 *	4-byte aligned
 * @count: entries in @table, 1 ... %ASCEND_CALL_MAX_CMDS
 * @value_size: 4 (a __u32 selector) or 8 (a __u64 selector)
 *
 * The list goes on at index @table[min(selector, @count - 1)] of the
 * running list (a selector past the table picks its last entry).  An index
 * past the end of the list faults %ASCEND_FAULT_BAD_COMMAND with
 * fault_addr = the table entry; an index equal to the list's count ends
 * the CALL.
 */
struct ascend_cmd_switch {
	__u64 value;
	__u64 table;
	__u32 count;
	__u32 value_size;
};

/**
 * struct ascend_cmd_jump - %ASCEND_CMD_JUMP payload
 * @target: list index to go on at; the list's count ends the CALL, more
 *	faults %ASCEND_FAULT_BAD_COMMAND
 * @pad: zero
 */
struct ascend_cmd_jump {
	__u32 target;
	__u32 pad;
};

/* ------------------------------------------------------------------------ */

/**
 * struct ascend_cmd - one ring slot (%ASCEND_CMD_SIZE bytes)
 * @opcode: ASCEND_CMD_*
 * @flags: must be 0
 * @reserved: zero
 * @launch: payload of %ASCEND_CMD_LAUNCH
 * @copy: payload of %ASCEND_CMD_COPY
 * @fill: payload of %ASCEND_CMD_FILL
 * @event: payload of %ASCEND_CMD_EVENT_RECORD and %ASCEND_CMD_EVENT_WAIT
 * @value: payload of %ASCEND_CMD_WRITE_VALUE and %ASCEND_CMD_WAIT_VALUE
 * @copy_2d: payload of %ASCEND_CMD_COPY_2D
 * @copy_batch: payload of %ASCEND_CMD_COPY_BATCH
 * @copy_indirect: payload of %ASCEND_CMD_COPY_INDIRECT
 * @copy_offset: payload of %ASCEND_CMD_COPY_OFFSET
 * @reduce: payload of %ASCEND_CMD_REDUCE
 * @call: payload of %ASCEND_CMD_CALL
 * @label_switch: payload of %ASCEND_CMD_SWITCH
 * @jump: payload of %ASCEND_CMD_JUMP
 * @raw: payload bytes; every byte past the opcode's payload must be zero
 */
struct ascend_cmd {
	__u32 opcode;
	__u32 flags;
	__u64 reserved;
	union {
		struct ascend_cmd_launch launch;
		struct ascend_cmd_copy copy;
		struct ascend_cmd_fill fill;
		struct ascend_cmd_event event;
		struct ascend_cmd_value value;
		struct ascend_cmd_copy_2d copy_2d;
		struct ascend_cmd_copy_batch copy_batch;
		struct ascend_cmd_copy_indirect copy_indirect;
		struct ascend_cmd_copy_offset copy_offset;
		struct ascend_cmd_reduce reduce;
		struct ascend_cmd_call call;
		struct ascend_cmd_switch label_switch;
		struct ascend_cmd_jump jump;
		__u8 raw[ASCEND_CMD_SIZE - 16];
	};
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_ASCEND_ACCEL_H_ */
