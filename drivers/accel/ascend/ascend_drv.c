// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ascend NPU accel driver: the platform driver, its devices and the DRM
 * driver.
 *
 * An NPU is a platform device "ascend.<index>" (Documentation/hardware.rst):
 * its platform data is the handle of its hardware interface, its device
 * properties describe it.  The emulated NPUs are created by
 * the emulator's bus (emu/ascend_emu_bus.c); probe builds a DRM accel device on each, remove
 * unplugs it.  Removal may come while files are open (sysfs del_device,
 * driver unbind): remove stops every queue and the backend at once, and
 * what the files hold is freed at their last close, when the DRM device's
 * last reference goes and its drmm actions run.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include "ascend_drv.h"
#include "ascend_event.h"
#include "ascend_irq.h"
#include "ascend_gem.h"
#include "ascend_host.h"
#include "ascend_hw.h"
#include "ascend_ipc.h"
#include "ascend_managed.h"
#include "ascend_peer.h"
#include "ascend_queue.h"
#include "ascend_vmm.h"

/*
 * The devices bound, by index, for the CMD_TIMEOUT register writes: written
 * by probe (last) and remove (first) under the lock.
 */
/* protects ascend_devices; serialises the CMD_TIMEOUT writes with probe */
static DEFINE_MUTEX(ascend_devices_lock);
static struct ascend_device *ascend_devices[ASCEND_HW_MAX_DEVICES];

/* Write the command time limit into @adev's register; devices_lock held. */
static void ascend_device_set_cmd_timeout(struct ascend_device *adev, u32 ms)
{
	lockdep_assert_held(&ascend_devices_lock);
	if (adev->hw_ops->set_cmd_timeout)
		adev->hw_ops->set_cmd_timeout(adev->hw, ms);
}

void ascend_devices_set_cmd_timeout(u32 ms)
{
	unsigned int i;

	/* probe and remove change the table under the same lock */
	mutex_lock(&ascend_devices_lock);
	for (i = 0; i < ASCEND_HW_MAX_DEVICES; i++)
		if (ascend_devices[i])
			ascend_device_set_cmd_timeout(ascend_devices[i], ms);
	mutex_unlock(&ascend_devices_lock);
}

void ascend_file_sched_ctx(const struct file *filp, u32 *group, u32 *flags)
{
	/* the opener's, like the file's other credentials */
	*group = __kuid_val(filp->f_cred->uid);
	*flags = file_ns_capable(filp, &init_user_ns, CAP_SYS_ADMIN) ?
		 0 : ASCEND_HW_QUEUE_LIMITED;
}

static int ascend_open(struct drm_device *drm, struct drm_file *file)
{
	struct ascend_file *af;

	af = kzalloc(sizeof(*af), GFP_KERNEL_ACCOUNT);
	if (!af)
		return -ENOMEM;

	af->adev = to_ascend_device(drm);
	af->user = ascend_user_get_current(af->adev);
	if (!af->user) {
		kfree(af);
		return -ENOMEM;
	}
	atomic64_set(&af->hbm_used, 0);
	atomic64_set(&af->host_pinned, 0);
	atomic64_set(&af->copy_pinned, 0);
	INIT_LIST_HEAD(&af->ipc_exports);
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
	ascend_queue_activity_fini(file);
	/* ...free the allocations that had no GEM handle (ring first)... */
	ascend_gem_free_ring_fini(file);
	ascend_managed_file_fini(af);
	ascend_vmm_file_fini(af);
	ascend_gem_file_fini(af);
	ascend_event_file_fini(af);
	/* ...then its address space goes (the GEM handles are already gone). */
	ascend_vm_fini(&af->vm);
	WARN_ON(atomic64_read(&af->hbm_used));
	WARN_ON(atomic64_read(&af->host_pinned));
	WARN_ON(atomic64_read(&af->copy_pinned));
	ascend_user_put(af->user);
	kfree(af);
}

/*
 * Surprise removal: remove calls drm_dev_unplug(), which waits for every
 * drm_dev_enter() section and lets none start after it, and then stops
 * the backend.  So every ioctl that reaches the hardware runs in such a
 * section (ASCEND_IOCTL_HW), and fails with -ENODEV once the device is
 * gone (DRM's own check catches most before they get here).
 *
 * DRM's unplug SRCU is shared by every DRM device, so a section must not
 * wait for the device's progress (an unbounded time): the waits stay
 * outside.  QUEUE_WAIT and EVENT_WAIT only wait, and end when remove
 * faults the queues (ascend_queue_device_lost()); QUEUE_DESTROY owns its
 * queue (claimed), which remove waits for before it stops the backend;
 * the synchronous copies first drain the file's queues outside the
 * section (ASCEND_IOCTL_DRAIN), then copy inside it.
 */
static int ascend_ioctl_hw(struct drm_device *drm, void *data,
			   struct drm_file *file, drm_ioctl_t *fn)
{
	int idx, ret;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	/*
	 * remove marks the device lost (and faults its queues) before it
	 * unplugs: a process that saw the fault must see the loss too
	 */
	if (READ_ONCE(to_ascend_device(drm)->lost))
		ret = -ENODEV;
	else
		ret = fn(drm, data, file);
	drm_dev_exit(idx);
	return ret;
}

static int ascend_ioctl_drained(struct drm_device *drm, void *data,
				struct drm_file *file, drm_ioctl_t *fn)
{
	int ret;

	/* ordered after what the file published: see ascend_copy.c */
	ret = ascend_queue_file_drain(to_ascend_file(file));
	if (ret)
		return ret;
	return ascend_ioctl_hw(drm, data, file, fn);
}

#define ASCEND_HW_FN(fn)						\
static int fn##_hw(struct drm_device *drm, void *data,			\
		   struct drm_file *file)				\
{									\
	return ascend_ioctl_hw(drm, data, file, fn);			\
}

#define ASCEND_DRAIN_FN(fn)						\
static int fn##_hw(struct drm_device *drm, void *data,			\
		   struct drm_file *file)				\
{									\
	return ascend_ioctl_drained(drm, data, file, fn);		\
}

ASCEND_HW_FN(ascend_ioctl_dev_query)
ASCEND_HW_FN(ascend_ioctl_va_window)
ASCEND_HW_FN(ascend_ioctl_bo_create)
ASCEND_DRAIN_FN(ascend_ioctl_copy)
ASCEND_HW_FN(ascend_ioctl_queue_create)
ASCEND_HW_FN(ascend_ioctl_queue_doorbell)
ASCEND_DRAIN_FN(ascend_ioctl_fill)
ASCEND_HW_FN(ascend_ioctl_event_create)
ASCEND_HW_FN(ascend_ioctl_event_destroy)
ASCEND_HW_FN(ascend_ioctl_event_signal)
ASCEND_HW_FN(ascend_ioctl_queue_reset)
ASCEND_HW_FN(ascend_ioctl_host_alloc)
ASCEND_HW_FN(ascend_ioctl_host_register)
ASCEND_DRAIN_FN(ascend_ioctl_copy_batch)
ASCEND_DRAIN_FN(ascend_ioctl_copy_2d)
ASCEND_HW_FN(ascend_ioctl_peer)
ASCEND_HW_FN(ascend_ioctl_ipc_export)
ASCEND_HW_FN(ascend_ioctl_ipc_set_pid)
ASCEND_HW_FN(ascend_ioctl_ipc_import)
ASCEND_HW_FN(ascend_ioctl_ipc_close)
ASCEND_HW_FN(ascend_ioctl_bo_free)
ASCEND_HW_FN(ascend_ioctl_free_ring_create)
ASCEND_HW_FN(ascend_ioctl_queue_activity)
ASCEND_HW_FN(ascend_ioctl_phys_alloc)
ASCEND_HW_FN(ascend_ioctl_va_reserve)
ASCEND_HW_FN(ascend_ioctl_va_release)
ASCEND_HW_FN(ascend_ioctl_va_map)
ASCEND_HW_FN(ascend_ioctl_va_unmap)
ASCEND_HW_FN(ascend_ioctl_va_protect)
ASCEND_HW_FN(ascend_ioctl_managed_create)
ASCEND_HW_FN(ascend_ioctl_managed_migrate)
ASCEND_HW_FN(ascend_ioctl_managed_query)

static const struct drm_ioctl_desc ascend_ioctls[] = {
	DRM_IOCTL_DEF_DRV(ASCEND_DEV_QUERY, ascend_ioctl_dev_query_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_VA_WINDOW, ascend_ioctl_va_window_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_BO_CREATE, ascend_ioctl_bo_create_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_COPY, ascend_ioctl_copy_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_CREATE, ascend_ioctl_queue_create_hw, 0),
	/* waits, then stops its own queue: see above */
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_DESTROY, ascend_ioctl_queue_destroy, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_DOORBELL,
			  ascend_ioctl_queue_doorbell_hw, 0),
	/* waits only */
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_WAIT, ascend_ioctl_queue_wait, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_FILL, ascend_ioctl_fill_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_CREATE, ascend_ioctl_event_create_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_DESTROY,
			  ascend_ioctl_event_destroy_hw, 0),
	/* waits only */
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_WAIT, ascend_ioctl_event_wait, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_EVENT_SIGNAL, ascend_ioctl_event_signal_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_RESET, ascend_ioctl_queue_reset_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_HOST_ALLOC, ascend_ioctl_host_alloc_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_HOST_REGISTER,
			  ascend_ioctl_host_register_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_COPY_BATCH, ascend_ioctl_copy_batch_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_COPY_2D, ascend_ioctl_copy_2d_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_PEER, ascend_ioctl_peer_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_EXPORT, ascend_ioctl_ipc_export_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_SET_PID, ascend_ioctl_ipc_set_pid_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_IMPORT, ascend_ioctl_ipc_import_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_IPC_CLOSE, ascend_ioctl_ipc_close_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_BO_FREE, ascend_ioctl_bo_free_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_FREE_RING_CREATE,
			  ascend_ioctl_free_ring_create_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_QUEUE_ACTIVITY,
			  ascend_ioctl_queue_activity_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_PHYS_ALLOC, ascend_ioctl_phys_alloc_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_VA_RESERVE, ascend_ioctl_va_reserve_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_VA_RELEASE, ascend_ioctl_va_release_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_VA_MAP, ascend_ioctl_va_map_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_VA_UNMAP, ascend_ioctl_va_unmap_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_VA_PROTECT, ascend_ioctl_va_protect_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_MANAGED_CREATE,
			  ascend_ioctl_managed_create_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_MANAGED_MIGRATE,
			  ascend_ioctl_managed_migrate_hw, 0),
	DRM_IOCTL_DEF_DRV(ASCEND_MANAGED_QUERY,
			  ascend_ioctl_managed_query_hw, 0),
};

/* the accel defaults, and usage statistics in fdinfo (ascend_fdinfo.c) */
static const struct file_operations ascend_fops = {
	.owner = THIS_MODULE,
	DRM_ACCEL_FOPS,
	.show_fdinfo = drm_show_fdinfo,
};

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
	.show_fdinfo = ascend_show_fdinfo,
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

static void ascend_users_fini_action(struct drm_device *drm, void *arg)
{
	ascend_users_fini(arg);
}

/*
 * Stop the backend, once: at remove, or at the last reference when probe
 * failed after the init op.  Remove and the DRM release never run together
 * (remove holds a reference until it returns), so no lock.
 */
static void ascend_hw_stop(struct ascend_device *adev)
{
	if (!adev->hw_running)
		return;
	adev->hw_running = false;
	/* the page request service answers nothing after the fini */
	ascend_prq_stop(adev);
	adev->hw_ops->fini(adev->hw);
}

static void ascend_hw_fini_action(struct drm_device *drm, void *arg)
{
	ascend_hw_stop(arg);
}

/* Read and check what the device reports about itself. */
static int ascend_read_properties(struct device *dev,
				  struct ascend_device *adev)
{
	const char *soc;
	u64 hbm_size;
	int ret;

	ret = device_property_read_u64(dev, ASCEND_HW_PROP_HBM_SIZE, &hbm_size);
	if (!ret)
		ret = device_property_read_u32(dev, ASCEND_HW_PROP_DMA_ENGINES,
					       &adev->num_dma_engines);
	if (!ret)
		ret = device_property_read_u32(dev, ASCEND_HW_PROP_AI_CORES,
					       &adev->num_ai_cores);
	if (!ret)
		ret = device_property_read_string(dev, ASCEND_HW_PROP_SOC_NAME,
						  &soc);
	if (ret) {
		dev_err(dev, "device properties missing: %d\n", ret);
		return ret;
	}
	if (!hbm_size || !adev->num_dma_engines ||
	    adev->num_dma_engines > ASCEND_HW_MAX_DMA_ENGINES ||
	    !adev->num_ai_cores || adev->num_ai_cores > ASCEND_HW_MAX_AI_CORES) {
		dev_err(dev, "device properties out of range\n");
		return -EINVAL;
	}
	adev->hbm_size = hbm_size;
	/* optional: silicon holds all of its HBM written */
	if (device_property_read_u64(dev, ASCEND_HW_PROP_HBM_STORE_SIZE,
				     &adev->hbm_store_size) ||
	    !adev->hbm_store_size || adev->hbm_store_size > hbm_size)
		adev->hbm_store_size = hbm_size;
	strscpy(adev->soc_name, soc, sizeof(adev->soc_name));
	return 0;
}

static int ascend_probe(struct platform_device *pdev)
{
	const struct ascend_hw_platform_data *pdata;
	struct device *dev = &pdev->dev;
	struct ascend_device *adev;
	int ret;

	pdata = dev_get_platdata(dev);
	if (!pdata || !pdata->hw || !pdata->hw->ops || pdev->id < 0 ||
	    pdev->id >= ASCEND_HW_MAX_DEVICES)
		return -ENODEV;

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	/* everything below is released when the last reference goes */
	adev = devm_drm_dev_alloc(dev, &ascend_drm_driver,
				  struct ascend_device, drm);
	if (IS_ERR(adev))
		return PTR_ERR(adev);
	adev->pdev = pdev;
	adev->index = pdev->id;
	INIT_LIST_HEAD(&adev->queues);

	ret = ascend_read_properties(dev, adev);
	if (ret)
		return ret;

	/* From here on the drmm actions undo what succeeded, in reverse. */
	ret = drmm_mutex_init(&adev->drm, &adev->queues_lock);
	if (ret)
		return ret;
	ret = ascend_managed_device_init(adev);
	if (ret)
		return ret;

	ascend_users_init(adev);
	ret = drmm_add_action_or_reset(&adev->drm, ascend_users_fini_action,
				       adev);
	if (ret)
		return ret;

	ret = ascend_hbm_init(&adev->hbm, adev->hbm_size);
	if (ret)
		return ret;
	ret = drmm_add_action_or_reset(&adev->drm, ascend_hbm_fini_action,
				       &adev->hbm);
	if (ret)
		return ret;
	ret = ascend_pt_pool_init(adev);
	if (ret)
		return ret;

	ret = ascend_host_init(adev);
	if (ret)
		return ret;
	ret = ascend_event_device_init(adev);
	if (ret)
		return ret;

	ascend_debugfs_init(adev);	/* files appear once registered */

	adev->hw = pdata->hw;
	adev->hw_ops = pdata->hw->ops;
	ret = adev->hw_ops->init(adev->hw);
	if (ret)
		return ret;
	adev->hw_running = true;
	/* before any queue can start; again once the device is listed */
	if (adev->hw_ops->set_cmd_timeout)
		adev->hw_ops->set_cmd_timeout(adev->hw, ascend_queue_cmd_timeout_ms());
	ret = drmm_add_action_or_reset(&adev->drm, ascend_hw_fini_action, adev);
	if (ret)
		return ret;
	ret = ascend_irq_init(adev);
	if (ret)
		return ret;

	ret = drm_dev_register(&adev->drm, 0);
	if (ret)
		return ret;
	ascend_fault_debugfs_init(adev);
	platform_set_drvdata(pdev, adev);

	mutex_lock(&ascend_devices_lock);
	ascend_devices[adev->index] = adev;
	/* under the lock: a change of the limit meanwhile reaches us too */
	ascend_device_set_cmd_timeout(adev, ascend_queue_cmd_timeout_ms());
	mutex_unlock(&ascend_devices_lock);

	drm_info(&adev->drm, "%s: %llu MiB HBM, %u DMA engines, %u AI cores\n",
		 adev->soc_name, adev->hbm_size >> 20, adev->num_dma_engines,
		 adev->num_ai_cores);
	return 0;
}

/*
 * The device is gone, maybe with files open.  Afterwards nothing touches
 * the hardware: every ioctl fails with -ENODEV, queues are faulted
 * (ASCEND_FAULT_DEVICE_LOST) and stopped, CPU mappings of the device's
 * objects are zapped (a later touch maps the same host memory again, see
 * ascend_queue.c), and the backend is stopped.  The rest goes at the last
 * close.
 */
static void ascend_remove(struct platform_device *pdev)
{
	struct ascend_device *adev = platform_get_drvdata(pdev);

	mutex_lock(&ascend_devices_lock);
	ascend_devices[adev->index] = NULL;
	mutex_unlock(&ascend_devices_lock);

	/* waits end: they would hold up the unplug below */
	ascend_queue_device_lost(adev);
	ascend_event_device_lost(adev);
	drm_dev_unplug(&adev->drm);
	/* no ioctl is in the hardware now: stop every queue */
	ascend_queue_device_stop(adev);
	/* no other device's job reaches this device's memory any more */
	ascend_peer_barrier();
	ascend_hw_stop(adev);
	/* the driver lets go of the device: no DMA mapping may stay */
	ascend_host_device_unmap(adev);
	drm_info(&adev->drm, "removed\n");
	/* devres drops the probe's reference next */
}

static struct platform_driver ascend_platform_driver = {
	.probe = ascend_probe,
	.remove = ascend_remove,
	.driver = {
		.name = ASCEND_HW_DEVICE_NAME,
	},
};

static int __init ascend_init(void)
{
	int ret;

	ret = platform_driver_register(&ascend_platform_driver);
	if (ret)
		return ret;
	/* the emulator's devices appear, and the driver binds to them */
	ret = ascend_emu_bus_init();
	if (ret)
		goto err_unregister_driver;
	return 0;

err_unregister_driver:
	platform_driver_unregister(&ascend_platform_driver);
	return ret;
}

static void __exit ascend_exit(void)
{
	ascend_emu_bus_exit();
	platform_driver_unregister(&ascend_platform_driver);
}

module_init(ascend_init);
module_exit(ascend_exit);

MODULE_DESCRIPTION("Huawei Ascend NPU accel driver (emulated NPU backend)");
MODULE_LICENSE("GPL");
