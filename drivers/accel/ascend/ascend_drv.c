// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ascend NPU accel driver: module, devices and the DRM driver.
 *
 * Each NPU is a platform device registered by the module itself (there is
 * no bus to enumerate an emulated device), with the vgem-style devres group
 * so its managed resources are released at unload.  The DRM device owns the
 * backend and the HBM manager through drmm actions, which run when its last
 * reference goes: after every file is closed.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include "ascend_drv.h"
#include "ascend_event.h"
#include "ascend_gem.h"
#include "ascend_host.h"
#include "ascend_hw.h"
#include "ascend_ipc.h"
#include "ascend_peer.h"
#include "ascend_queue.h"

#define ASCEND_MAX_DEVICES	16

unsigned int ascend_num_devices = 1;
module_param_named(num_devices, ascend_num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of emulated NPUs (1-16, default 1)");

static unsigned int hbm_size_mb = 32768;
module_param(hbm_size_mb, uint, 0444);
MODULE_PARM_DESC(hbm_size_mb,
		 "Device memory per NPU in MiB, backed lazily by host memory (default 32768)");

static unsigned int dma_engines = 2;
module_param(dma_engines, uint, 0444);
MODULE_PARM_DESC(dma_engines, "DMA engines per NPU (1-64, default 2)");

static unsigned int ai_cores = 8;
module_param(ai_cores, uint, 0444);
MODULE_PARM_DESC(ai_cores, "AI cores per NPU (1-256, default 8)");

static char *soc_name = "Ascend910B4";
module_param(soc_name, charp, 0444);
MODULE_PARM_DESC(soc_name, "SoC name reported to user space (default Ascend910B4)");

static struct ascend_device *ascend_devices[ASCEND_MAX_DEVICES];

/*
 * Written only by module init and exit, when no file is open: a device
 * found here lives as long as any file of the module (they pin it).
 */
struct ascend_device *ascend_device_by_index(unsigned int index)
{
	return index < ASCEND_MAX_DEVICES ? READ_ONCE(ascend_devices[index]) :
					    NULL;
}

static int ascend_open(struct drm_device *drm, struct drm_file *file)
{
	struct ascend_file *af;

	af = kzalloc(sizeof(*af), GFP_KERNEL);
	if (!af)
		return -ENOMEM;

	af->adev = to_ascend_device(drm);
	atomic64_set(&af->hbm_used, 0);
	atomic64_set(&af->host_pinned, 0);
	atomic64_set(&af->copy_pinned, 0);
	ascend_vm_init(&af->vm, af->adev);
	ascend_queue_file_init(af);	/* queues_lock, queues */
	ascend_event_file_init(af);
	ascend_peer_file_init(af);

	file->driver_priv = af;
	return 0;
}

static void ascend_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);

	/* Withdraw its exports and peer links (others' imports live on)... */
	ascend_ipc_file_fini(af);
	ascend_peer_file_fini(af);
	/* ...stop the device touching this file's memory... */
	ascend_queue_file_fini(af);
	/* ...free the allocations that had no GEM handle (ring first)... */
	ascend_gem_free_ring_fini(file);
	ascend_gem_file_fini(af);
	ascend_event_file_fini(af);
	/* ...then its address space goes (the GEM handles are already gone). */
	ascend_vm_fini(&af->vm);
	WARN_ON(atomic64_read(&af->hbm_used));
	WARN_ON(atomic64_read(&af->host_pinned));
	WARN_ON(atomic64_read(&af->copy_pinned));
	kfree(af);
}

static const struct drm_ioctl_desc ascend_ioctls[] = {
	DRM_IOCTL_DEF_DRV(ASCEND_DEV_QUERY, ascend_ioctl_dev_query, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_VA_WINDOW, ascend_ioctl_va_window, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_BO_CREATE, ascend_ioctl_bo_create, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_COPY, ascend_ioctl_copy, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_CREATE, ascend_ioctl_queue_create, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_DESTROY, ascend_ioctl_queue_destroy, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_DOORBELL, ascend_ioctl_queue_doorbell, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_WAIT, ascend_ioctl_queue_wait, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_FILL, ascend_ioctl_fill, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_CREATE, ascend_ioctl_event_create, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_DESTROY, ascend_ioctl_event_destroy, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_WAIT, ascend_ioctl_event_wait, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_SIGNAL, ascend_ioctl_event_signal, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_RESET, ascend_ioctl_queue_reset, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_HOST_ALLOC, ascend_ioctl_host_alloc, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_HOST_REGISTER, ascend_ioctl_host_register, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_COPY_BATCH, ascend_ioctl_copy_batch, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_COPY_2D, ascend_ioctl_copy_2d, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_PEER, ascend_ioctl_peer, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_EXPORT, ascend_ioctl_ipc_export, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_SET_PID, ascend_ioctl_ipc_set_pid, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_IMPORT, ascend_ioctl_ipc_import, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_CLOSE, ascend_ioctl_ipc_close, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_BO_FREE, ascend_ioctl_bo_free, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_FREE_RING_CREATE,
			  ascend_ioctl_free_ring_create, 0),
};

DEFINE_DRM_ACCEL_FOPS(ascend_fops);

struct ascend_file *ascend_file_from_file(struct file *f)
{
	struct drm_file *file;

	if (f->f_op != &ascend_fops)
		return NULL;
	file = f->private_data;
	return file ? to_ascend_file(file) : NULL;
}

static const struct drm_driver ascend_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_COMPUTE_ACCEL,
	.open = ascend_open,
	.postclose = ascend_postclose,
	.ioctls = ascend_ioctls,
	.num_ioctls = ARRAY_SIZE(ascend_ioctls),
	.fops = &ascend_fops,
	.name = ASCEND_DRIVER_NAME,
	.desc = "Huawei Ascend NPU (emulated)",
	.date = "20260101",
	.major = 1,
	.minor = 0,
};

static void ascend_hbm_fini_action(struct drm_device *drm, void *arg)
{
	ascend_hbm_fini(arg);
}

static void ascend_hw_fini_action(struct drm_device *drm, void *arg)
{
	struct ascend_device *adev = arg;

	adev->hw->fini(adev);
}

static int ascend_device_create(unsigned int index, struct ascend_device **out)
{
	struct platform_device *pdev;
	struct ascend_device *adev;
	int ret;

	pdev = platform_device_register_simple(ASCEND_DRIVER_NAME, index,
					       NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);

	/* Nothing binds the device, so its devres is released by hand. */
	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_unregister_pdev;
	}

	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto err_release_devres;

	adev = devm_drm_dev_alloc(&pdev->dev, &ascend_drm_driver,
				  struct ascend_device, drm);
	if (IS_ERR(adev)) {
		ret = PTR_ERR(adev);
		goto err_release_devres;
	}
	adev->pdev = pdev;
	adev->index = index;
	strscpy(adev->soc_name, soc_name, sizeof(adev->soc_name));
	adev->num_dma_engines = dma_engines;
	adev->num_ai_cores = ai_cores;
	INIT_LIST_HEAD(&adev->queues);

	/* From here on the drmm actions undo what succeeded, in reverse. */
	ret = drmm_mutex_init(&adev->drm, &adev->queues_lock);
	if (ret)
		goto err_release_devres;

	ret = ascend_hbm_init(&adev->hbm, (u64)hbm_size_mb * SZ_1M);
	if (ret)
		goto err_release_devres;
	ret = drmm_add_action_or_reset(&adev->drm, ascend_hbm_fini_action,
				       &adev->hbm);
	if (ret)
		goto err_release_devres;
	ret = ascend_pt_pool_init(adev);
	if (ret)
		goto err_release_devres;

	ret = ascend_host_init(adev);
	if (ret)
		goto err_release_devres;

	ascend_debugfs_init(adev);	/* files appear once registered */

	adev->hw = &ascend_emu_ops;
	ret = adev->hw->init(adev);
	if (ret)
		goto err_release_devres;
	ret = drmm_add_action_or_reset(&adev->drm, ascend_hw_fini_action, adev);
	if (ret)
		goto err_release_devres;

	ret = drm_dev_register(&adev->drm, 0);
	if (ret)
		goto err_release_devres;
	ascend_fault_debugfs_init(adev);

	drm_info(&adev->drm, "%s: %u MiB HBM, %u DMA engines, %u AI cores\n",
		 adev->soc_name, hbm_size_mb, dma_engines, ai_cores);
	*out = adev;
	return 0;

err_release_devres:
	devres_release_group(&pdev->dev, NULL);
err_unregister_pdev:
	platform_device_unregister(pdev);
	return ret;
}

static void ascend_device_destroy(struct ascend_device *adev)
{
	struct platform_device *pdev = adev->pdev;

	drm_dev_unregister(&adev->drm);
	/* Drops the last reference: the drmm actions stop the backend. */
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
}

static void ascend_destroy_devices(void)
{
	unsigned int i = ASCEND_MAX_DEVICES;

	while (i--) {
		if (ascend_devices[i])
			ascend_device_destroy(ascend_devices[i]);
		ascend_devices[i] = NULL;
	}
}

static int __init ascend_init(void)
{
	unsigned int i;
	int ret;

	if (!ascend_num_devices || ascend_num_devices > ASCEND_MAX_DEVICES ||
	    !hbm_size_mb || !dma_engines || dma_engines > 64 ||
	    !ai_cores || ai_cores > 256) {
		pr_err("ascend: module parameter out of range\n");
		return -EINVAL;
	}

	for (i = 0; i < ascend_num_devices; i++) {
		ret = ascend_device_create(i, &ascend_devices[i]);
		if (ret)
			goto err_destroy_devices;
	}
	return 0;

err_destroy_devices:
	ascend_destroy_devices();
	return ret;
}

static void __exit ascend_exit(void)
{
	ascend_destroy_devices();
}

module_init(ascend_init);
module_exit(ascend_exit);

MODULE_DESCRIPTION("Huawei Ascend NPU accel driver (emulated NPU backend)");
MODULE_LICENSE("GPL");
