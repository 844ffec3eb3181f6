// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM client usage statistics: what one open file of the device holds, in
 * /proc/<pid>/fdinfo/<fd> (keys of the kernel's drm-usage-stats.rst).
 *
 * procfs lets a process's own user (and root) read its fdinfo and nobody
 * else (ptrace read access), which is the visibility per-process usage
 * needs on a device shared by users who do not trust each other: a user
 * sees what its own processes hold without debugfs.  drm_show_fdinfo()
 * prints drm-driver and drm-client-id (one per &struct drm_file, so
 * duplicated and inherited descriptors are counted once); this adds
 *
 *   drm-total-hbm, drm-resident-hbm       device memory (HBM) the file holds
 *   drm-total-memory, drm-resident-memory host memory it holds pinned for
 *                                         the device (HOST_ALLOC, HOST_REGISTER)
 *
 * in bytes, the numbers DEV_QUERY reports to the file itself and debugfs
 * "clients" to root.  HBM and pinned pages are always resident.  As for
 * those snapshots, every file's free ring is drained first, so memory freed
 * on a ring does not count as held.
 */
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "ascend_drv.h"
#include "ascend_gem.h"

static void ascend_fdinfo_region(struct drm_printer *p, const char *region,
				 u64 bytes)
{
	drm_printf(p, "drm-total-%s:\t%llu\n", region, bytes);
	drm_printf(p, "drm-resident-%s:\t%llu\n", region, bytes);
}

void ascend_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);

	/* no lock held here: drm_show_fdinfo() only entered the device */
	ascend_gem_drain_device(af->adev);
	ascend_fdinfo_region(p, "hbm", atomic64_read(&af->hbm_used));
	ascend_fdinfo_region(p, "memory", atomic64_read(&af->host_pinned));
}
