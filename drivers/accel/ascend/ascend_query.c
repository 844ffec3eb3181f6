// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_ASCEND_DEV_QUERY: size-extensible device information.
 *
 * size 0 asks for the full size; otherwise min(size, full) bytes are
 * written, so older user space gets a prefix and newer user space keeps
 * the tail it did not get.  The answer is always the full size.
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ascend_drv.h"
#include "ascend_gem.h"
#include "ascend_hw.h"
#include "ascend_queue.h"
#include "ascend_vm.h"

#define ASCEND_CAPS	(DRM_ASCEND_CAP_VA_WINDOW | DRM_ASCEND_CAP_SYNC_COPY | \
			 DRM_ASCEND_CAP_QUEUES | DRM_ASCEND_CAP_BUILTIN_KERNELS | \
			 DRM_ASCEND_CAP_DEVICE_PRINTF | DRM_ASCEND_CAP_FILL | \
			 DRM_ASCEND_CAP_EVENTS | DRM_ASCEND_CAP_RING_COPY | \
			 DRM_ASCEND_CAP_VALUES | DRM_ASCEND_CAP_QUEUE_RESET | \
			 DRM_ASCEND_CAP_HOST_MEMORY | DRM_ASCEND_CAP_COPY_EXT | \
			 DRM_ASCEND_CAP_IPC | DRM_ASCEND_CAP_PEER | \
			 DRM_ASCEND_CAP_QUEUE_ABORT | DRM_ASCEND_CAP_REDUCE | \
			 DRM_ASCEND_CAP_NOTIFY | DRM_ASCEND_CAP_VMM | \
			 DRM_ASCEND_CAP_CMD_LIST | \
			 DRM_ASCEND_CAP_IPC_EVENT_ANY_DEVICE | \
			 DRM_ASCEND_CAP_MANAGED)

static int ascend_query_copy_out(struct drm_ascend_dev_query *args,
				 const void *buf, u32 full)
{
	u32 len = min(args->size, full);

	if (args->size && copy_to_user(u64_to_user_ptr(args->data), buf, len))
		return -EFAULT;
	args->size = full;
	return 0;
}

static int ascend_query_device_info(struct ascend_device *adev,
				    struct ascend_file *af,
				    struct drm_ascend_dev_query *args)
{
	struct drm_ascend_device_info info = {};
	struct ascend_hbm_stats st;

	/* size 0 only asks for the size: skip walking the HBM free lists */
	if (!args->size) {
		args->size = sizeof(info);
		return 0;
	}
	/* Memory freed on any file's ring is free in this snapshot. */
	ascend_gem_drain_device(adev);
	ascend_hbm_get_stats(&adev->hbm, &st);

	info.capabilities = ASCEND_CAPS;
	info.hbm_total = st.total;
	info.hbm_free = st.free;
	info.hbm_used_by_file = atomic64_read(&af->hbm_used);
	info.va_window_align = ASCEND_VM_WINDOW_ALIGN;
	info.va_window_min_size = ASCEND_VM_WINDOW_MIN_SIZE;
	info.device_index = adev->index;
	info.num_dma_engines = adev->num_dma_engines;
	info.num_ai_cores = adev->num_ai_cores;
	info.max_queues_per_file = ascend_user_max_queues();
	info.cmd_size = ASCEND_CMD_SIZE;
	info.max_ring_entries = ASCEND_QUEUE_MAX_RING_ENTRIES;
	strscpy(info.soc_name, adev->soc_name, sizeof(info.soc_name));
	info.hbm_largest_free = st.largest_free;
	info.hbm_free_huge = st.free_class[ASCEND_HBM_CLASS_HUGE];
	info.hbm_free_huge1g = st.free_class[ASCEND_HBM_CLASS_HUGE1G];
	info.max_events_per_file = ASCEND_MAX_EVENTS_PER_FILE;
	info.cmd_timeout_ms = ascend_queue_cmd_timeout_ms();
	info.host_pinned_by_file = atomic64_read(&af->host_pinned);
	/* the global number: what IPC allow-lists are resolved in */
	info.bare_tgid = task_tgid_nr(current);
	spin_lock(&af->user->lock);
	info.queues_by_user = af->user->queues;
	info.hbm_used_by_user = af->user->hbm;
	spin_unlock(&af->user->lock);
	info.max_queues_by_user = info.max_queues_per_file;
	info.hbm_user_quota = ascend_user_hbm_quota(adev);

	return ascend_query_copy_out(args, &info, sizeof(info));
}

static int ascend_query_kernels(struct ascend_device *adev,
				struct drm_ascend_dev_query *args)
{
	const u32 esize = sizeof(struct drm_ascend_kernel_info);
	struct drm_ascend_kernel_info *table;
	u32 count, full;
	int ret;

	if (args->size % esize)
		return -EINVAL;

	count = adev->hw_ops->query_kernels(adev->hw, NULL, 0);
	full = count * esize;
	if (!args->size || !count) {
		args->size = full;
		return 0;
	}

	table = kcalloc(count, esize, GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	/* The table is static, but never trust the second answer blindly. */
	count = min(count, adev->hw_ops->query_kernels(adev->hw, table, count));
	full = count * esize;
	ret = ascend_query_copy_out(args, table, full);
	kfree(table);
	return ret;
}

int ascend_ioctl_dev_query(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct drm_ascend_dev_query *args = data;

	switch (args->type) {
	case DRM_ASCEND_QUERY_DEVICE_INFO:
		return ascend_query_device_info(adev, to_ascend_file(file),
						args);
	case DRM_ASCEND_QUERY_KERNELS:
		return ascend_query_kernels(adev, args);
	}
	return -EINVAL;
}
