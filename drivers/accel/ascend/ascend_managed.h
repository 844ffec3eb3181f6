/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Managed memory (aclrtMemAllocManaged): one pointer valid on the host and
 * the device, whose 2 MiB chunks move to the side that touches them.  See
 * ascend_managed.c and Documentation/usage.rst, "Managed memory".
 */
#ifndef __ASCEND_MANAGED_H__
#define __ASCEND_MANAGED_H__

#include <linux/types.h>

#include "ascend_drv.h"

struct ascend_device;
struct ascend_file;
struct drm_device;
struct drm_file;
struct seq_file;

/* The device's table of managed spaces (probe). */
int ascend_managed_device_init(struct ascend_device *adev);

/*
 * The file goes (postclose, its queues stopped): no page request finds it
 * any more, chunks on the device come back to host pages for the mappings
 * that outlive the file, and the VA ranges are given back.
 */
void ascend_managed_file_fini(struct ascend_file *af);

/*
 * Serve a page request: make [@va, ...) of address space @asid translate
 * on @adev if it is managed memory (the chunk moves to HBM).  0: it
 * translates now; an errno: the access faults.
 */
int ascend_managed_page_request(struct ascend_device *adev, u32 asid, u64 va,
				bool write);

int __ascend_managed_prepare(struct ascend_file *af, u64 va, u64 len);

/*
 * Before a copy or fill the driver translates itself (the synchronous
 * ioctls): the managed chunks [@va, @va + @len) touches come to the device
 * (and stay unless the host touches them meanwhile).  0, or the errno of a
 * chunk that could not move; a range that is not managed memory is left to
 * the copy's own checks.  The test is inline: most files have no managed
 * memory, and a small copy made two calls for nothing.
 */
static inline int ascend_managed_prepare(struct ascend_file *af, u64 va,
					 u64 len)
{
	if (!READ_ONCE(af->managed))
		return 0;
	return __ascend_managed_prepare(af, va, len);
}

/* debugfs "managed": the file's allocations and where their chunks are */
void ascend_managed_debugfs_show(struct seq_file *m, struct ascend_file *af);

int ascend_ioctl_managed_create(struct drm_device *drm, void *data,
				struct drm_file *file);
int ascend_ioctl_managed_migrate(struct drm_device *drm, void *data,
				 struct drm_file *file);
int ascend_ioctl_managed_query(struct drm_device *drm, void *data,
			       struct drm_file *file);

#endif /* __ASCEND_MANAGED_H__ */
