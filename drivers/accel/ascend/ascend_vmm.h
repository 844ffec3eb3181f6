/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Virtual memory management (DRM_ASCEND_CAP_VMM): physical allocations,
 * VA reservations and the mappings between them, as CANN's
 * aclrtMallocPhysical / aclrtReserveMemAddress / aclrtMapMem use them.
 *
 * - &struct ascend_phys: a GEM object holding an HBM buffer
 *   (&struct ascend_hbm_buf) and nothing else: no VA, no file of its own.
 *   Any file of the device may hold a handle to it (PRIME import of its
 *   dma-buf, or an IPC import, which makes a new object for the same
 *   buffer); the user who allocated it stays charged until the buffer is
 *   freed.
 * - reservations (&struct ascend_vm_resv, ascend_vm.c) are VA ranges of a
 *   file's window that map nothing themselves;
 * - &struct ascend_vmm_map: a part of a buffer mapped at a VA inside one
 *   reservation.  It holds a reference on the buffer, so the memory lives
 *   while it is mapped whatever happened to the handles.  An unmap stops
 *   the device at once and drops the reference once the file's work
 *   queued before it has completed.
 */
#ifndef __ASCEND_VMM_H__
#define __ASCEND_VMM_H__

#include <drm/drm_gem.h>
#include <linux/list.h>

#include "ascend_vm.h"

struct ascend_file;
struct ascend_hbm_buf;
struct seq_file;

/**
 * struct ascend_phys - a physical allocation (DRM_IOCTL_ASCEND_PHYS_ALLOC)
 * @base: the GEM object
 * @buf: the memory (a reference, dropped when the object goes)
 */
struct ascend_phys {
	struct drm_gem_object base;
	struct ascend_hbm_buf *buf;
};

/**
 * struct ascend_vmm_map - a mapping inside a reservation
 * @map: the mapping, of kind %ASCEND_VM_PART, in the reservation's parts
 * @af: the file whose address space it is in
 * @buf: the memory (a reference)
 * @offset: first byte of @buf mapped
 * @ranges: the device-physical ranges of the part mapped (owned), NULL
 *	when all of @buf is mapped (&ascend_vm_mapping.ranges are then
 *	@buf's own)
 * @link: in the list of mappings postclose frees
 */
struct ascend_vmm_map {
	struct ascend_vm_mapping map;
	struct ascend_file *af;
	struct ascend_hbm_buf *buf;
	u64 offset;
	struct ascend_hbm_range *ranges;
	struct list_head link;
};

/* The buffer and offset of a mapping of kind %ASCEND_VM_PART. */
static inline struct ascend_hbm_buf *
ascend_vmm_part_buf(const struct ascend_vm_mapping *part, u64 *offset)
{
	const struct ascend_vmm_map *m =
		container_of(part, struct ascend_vmm_map, map);

	*offset = m->offset;
	return m->buf;
}

/* debugfs "hbm": one line per physical allocation @file holds a handle to. */
void ascend_vmm_debugfs_phys(struct seq_file *m, struct drm_file *file,
			     pid_t pid);

/*
 * The buffer of the physical allocation @handle names in @file, with a
 * reference: 0, or -ENOENT if @handle is no physical allocation.
 */
int ascend_vmm_phys_buf(struct drm_file *file, u32 handle,
			struct ascend_hbm_buf **buf);
/*
 * A new physical allocation object for @buf (consuming the caller's
 * reference, also on failure) with a handle in @file.
 */
int ascend_vmm_phys_import(struct drm_file *file, struct ascend_hbm_buf *buf,
			   u32 *handle);

/*
 * Postclose, after the file's queues stopped: remove every mapping and
 * reservation of @af.
 */
void ascend_vmm_file_fini(struct ascend_file *af);

int ascend_ioctl_phys_alloc(struct drm_device *drm, void *data,
			    struct drm_file *file);
int ascend_ioctl_va_reserve(struct drm_device *drm, void *data,
			    struct drm_file *file);
int ascend_ioctl_va_release(struct drm_device *drm, void *data,
			    struct drm_file *file);
int ascend_ioctl_va_map(struct drm_device *drm, void *data,
			struct drm_file *file);
int ascend_ioctl_va_unmap(struct drm_device *drm, void *data,
			  struct drm_file *file);
int ascend_ioctl_va_protect(struct drm_device *drm, void *data,
			    struct drm_file *file);

#endif /* __ASCEND_VMM_H__ */
