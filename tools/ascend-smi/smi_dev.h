/* SPDX-License-Identifier: MIT */
/*
 * smi_dev.h - the NPUs as ascend-smi and npu-smi see them: every accel
 * device whose parent is an ascend device, with what the driver answers
 * on its node (DRM_IOCTL_VERSION, DRM_IOCTL_ASCEND_DEV_QUERY).
 */
#ifndef ASCEND_SMI_DEV_H
#define ASCEND_SMI_DEV_H

#include <stdbool.h>
#include <sys/types.h>

#include "ascend_accel.h"

#define SMI_MAX_DEVICES	64
#define SMI_MIB		(1024ULL * 1024ULL)

struct smi_dev {
	unsigned int index;		/* N of /dev/accel/accelN */
	char node[64];
	char bus[64];			/* parent device, e.g. ascend.0 */
	dev_t rdev;			/* the node's device number, 0 if unknown */
	int open_errno;			/* 0 when the node opened */
	int query_errno;		/* 0 when DEV_QUERY answered */
	char driver[32];		/* DRM driver name, version, description */
	char driver_version[32];
	char driver_desc[64];
	struct drm_ascend_device_info info;
};

/*
 * Fill @devs (at most SMI_MAX_DEVICES) with the ascend devices ordered by
 * node index, each queried once; returns how many.  No node stays open.
 */
int smi_scan(struct smi_dev *devs);

/* The device answered its queries: @info is valid. */
static inline bool smi_healthy(const struct smi_dev *d)
{
	return !d->open_errno && !d->query_errno;
}

/* HBM bytes allocated by anyone (valid when smi_healthy()). */
static inline unsigned long long smi_hbm_used(const struct smi_dev *d)
{
	return d->info.hbm_total - d->info.hbm_free;
}

/* What went wrong with @d, or "answers device queries" (static buffer). */
const char *smi_health_detail(const struct smi_dev *d);

#endif /* ASCEND_SMI_DEV_H */
