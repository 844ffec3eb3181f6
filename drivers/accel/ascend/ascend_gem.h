/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HBM buffer objects.
 *
 * Device memory is split in two:
 *
 * - &struct ascend_hbm_buf: the HBM allocation itself, refcounted.  It is
 *   held by every buffer object mapping it and by every IPC export of it
 *   (ascend_ipc.c); when the last holder goes its contents are discarded
 *   (the next owner reads zeroes) and the HBM is freed.
 * - &struct ascend_bo: one file's GEM object for (a part of) a buffer,
 *   mapped once in that file's address space.  BO_CREATE makes the first
 *   one; IPC_IMPORT makes one more per importing file.  With
 *   %DRM_ASCEND_BO_NO_HANDLE, BO_CREATE's object is never made a GEM
 *   object: no handle, freed by its VA (BO_FREE) or at close.  A BO is never
 *   shared between files (no flink, no PRIME export): it dies before its
 *   file's address space does.
 */
#ifndef __ASCEND_GEM_H__
#define __ASCEND_GEM_H__

#include <drm/drm_gem.h>
#include <linux/kref.h>

#include "ascend_hbm.h"
#include "ascend_queue.h"
#include "ascend_vm.h"

struct ascend_device;
struct ascend_file;

/**
 * struct ascend_hbm_buf - an HBM allocation that files may share
 * @ref: holders: buffer objects (until their deferred retire ran) and IPC
 *	exports
 * @adev: the device whose HBM it is
 * @mem: the device memory
 * @user: the user charged with it (a reference; ascend_user.h), until the
 *	memory is freed
 * @charged: the bytes charged
 */
struct ascend_hbm_buf {
	struct kref ref;
	struct ascend_device *adev;
	struct ascend_hbm_alloc mem;
	struct ascend_user *user;
	u64 charged;
};

/**
 * struct ascend_bo - one file's buffer object
 * @base: the GEM object
 * @af: the file that holds it, the only one allowed a handle
 * @buf: the memory (a reference, dropped by the retire)
 * @offset: offset in @buf->mem of the first byte mapped
 * @sub_ranges: when only a part of @buf is mapped (an import of a part):
 *	the ranges of that part, owned by the BO; else NULL and @map uses
 *	@buf->mem.ranges
 * @imported: made by IPC_IMPORT (not charged to @af's hbm_used)
 * @no_handle: created with %DRM_ASCEND_BO_NO_HANDLE: @base is unused
 * @live: for @no_handle: not freed yet (under &ascend_vm.lock of @af)
 * @map: its mapping in @af's address space
 * @retire: once the last GEM reference is gone, the unmap and the
 *	release of @buf wait on this for @af's queued commands to complete
 * @req_size: for @no_handle: the BO_CREATE request it was made for: size,
 * @req_policy: policy
 * @req_flags: and flags (an idle BO serves only the same request)
 *
 * Every node of a file's address space (&ascend_vm.mm) of kind
 * %ASCEND_VM_BO is the @map.node of one of its BOs; debugfs and IPC export
 * rely on that.  The other nodes are reservations (ascend_vmm.h).
 */
struct ascend_bo {
	struct drm_gem_object base;
	struct ascend_file *af;
	struct ascend_hbm_buf *buf;
	u64 offset;
	struct ascend_hbm_range *sub_ranges;
	bool imported;
	bool no_handle;
	bool live;
	struct ascend_vm_mapping map;
	struct ascend_retire retire;
	u64 req_size;
	u32 req_policy;
	u32 req_flags;
};

/*
 * Idle BOs (&ascend_file.bo_idle): a freed handle-less BO of at most
 * ASCEND_BO_IDLE_SIZE that owns its memory alone stays whole -- memory and
 * mapping -- for the file's next BO_CREATE of the same size, policy and
 * flags, which then only has the device drop the old contents.  At most
 * ASCEND_BO_IDLE_MAX per file; every statistics snapshot and every
 * allocation that would fail gives them up first (ascend_gem_drain_device()),
 * so they count as free memory everywhere.
 */
#define ASCEND_BO_IDLE_SIZE	SZ_64K

static inline struct ascend_bo *to_ascend_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct ascend_bo, base);
}

/*
 * Not freed yet (its handle, or for a %DRM_ASCEND_BO_NO_HANDLE one its VA,
 * still names it), with @bo->af->vm.lock held.
 */
static inline bool ascend_bo_live(struct ascend_bo *bo)
{
	return bo->no_handle ? bo->live : kref_read(&bo->base.refcount) != 0;
}

static inline void ascend_hbm_buf_get(struct ascend_hbm_buf *buf)
{
	kref_get(&buf->ref);
}

/*
 * A new buffer of @size bytes of @af's device (@policy, @p2p as for
 * BO_CREATE), charged to @af's user: 0, -ENOSPC, -EDQUOT or -ENOMEM.
 */
int ascend_hbm_buf_create(struct ascend_file *af, u64 size, u32 policy,
			  bool p2p, struct ascend_hbm_buf **out);

/* Drop a reference; the last one discards and frees the HBM.  Sleeps. */
void ascend_hbm_buf_put(struct ascend_hbm_buf *buf);

/*
 * The buffer holding all of [@va, @va + @size) in @af's window, with a
 * reference, and the offset of @va in it.  -EINVAL when the range is not
 * inside one device-memory mapping of @af.
 */
int ascend_gem_find_buf(struct ascend_file *af, u64 va, u64 size,
			struct ascend_hbm_buf **buf, u64 *offset);

/*
 * Map [@offset, @offset + @size) of @buf (a device-memory buffer of
 * @af's device) in @af's window as a new buffer object and give @file a
 * handle to it.  Takes its own reference on @buf.  Returns 0 with the VA
 * and handle, -ENXIO without a window, -ENOSPC when the window is full,
 * -ENOMEM.
 */
int ascend_gem_import(struct drm_file *file, struct ascend_hbm_buf *buf,
		      u64 offset, u64 size, u64 *va, u32 *handle);

/*
 * The ranges of [@offset, @offset + @size) of @mem, offsets relative to
 * @offset, in an array it allocates (kfree() it).  Returns their number,
 * -EINVAL if the part is empty or not inside @mem, -ENOMEM.
 */
int ascend_hbm_sub_ranges(const struct ascend_hbm_alloc *mem, u64 offset,
			  u64 size, struct ascend_hbm_range **out);

/*
 * Free every %DRM_ASCEND_BO_NO_HANDLE allocation @af still has, at once:
 * for postclose, after the file's queues stopped.
 */
void ascend_gem_file_fini(struct ascend_file *af);

/*
 * Drain the free ring of every open file of @adev (filelist_mutex taken
 * here, so no vm, HBM or queue lock may be held).  Returns the
 * allocations freed.
 */
unsigned int ascend_gem_drain_device(struct ascend_device *adev);

/* Drain and release @file's free ring: for postclose, before fini. */
void ascend_gem_free_ring_fini(struct drm_file *file);

#endif /* __ASCEND_GEM_H__ */
