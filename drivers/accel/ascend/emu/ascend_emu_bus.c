// SPDX-License-Identifier: GPL-2.0-only
/*
 * The emulated NPU's devices: where they come from.
 *
 * Real NPUs are found by a bus; the emulated ones are created here, the
 * way netdevsim creates its simulated network devices.  A parent platform
 * device "ascend-emu" (/sys/devices/platform/ascend-emu/) carries two
 * write-only files:
 *
 *   new_device    "<index>": create NPU <index> (0-15)
 *   del_device    "<index>": remove it (surprise removal for its users)
 *   backed_pages  read: host pages backing written HBM of all NPUs; a
 *                 removed NPU gives its pages back at once
 *
 * At load, NPUs 0..num_devices-1 are created.  Each NPU is a platform
 * device "ascend.<index>", a child of ascend-emu, whose platform data is
 * the handle of its hardware interface (the &struct ascend_hw_device in
 * its struct ascend_emu) and whose device properties are what the device
 * reports about itself: HBM size, how much of it the device can hold
 * written (its slice of emu_backing_mb, 1/num_devices of it), DMA engines,
 * AI cores, SoC name (from the module parameters below, read when the
 * device is created).  An NPU added with new_device beyond num_devices
 * gets a slice of the same size: the slices then overcommit the host
 * budget, which still caps them all.  The
 * driver binds to it like to any other device (ascend_drv.c); removing
 * the device unbinds it.  The bus owns each device's state: created
 * before the platform device is added, freed after it is gone, so the
 * handle outlives every call the driver makes.
 *
 * Each NPU also has debugfs files of its own, the device's fault knobs, in
 * /sys/kernel/debug/ascend-emu/ascend.<index>/.
 */
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/sizes.h>

#include "ascend_emu.h"
#include "ascend_hw.h"

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of emulated NPUs created at load (1-16, default 1)");

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

/*
 * The emulator's devices.  The lock serialises creation and removal
 * (sysfs writers, module init and exit).
 */
static DEFINE_MUTEX(ascend_emu_bus_lock);	/* protects the two arrays */
static struct platform_device *ascend_emu_devs[ASCEND_HW_MAX_DEVICES];
static struct ascend_emu *ascend_emu_state[ASCEND_HW_MAX_DEVICES];
static struct platform_device *ascend_emu_parent;
static struct dentry *ascend_emu_debugfs;

/*
 * The interrupt lines of the NPUs: an interrupt domain of the emulator,
 * hardware interrupt N for NPU N.  The device raises its line from its
 * own threads (ascend_emu_raise_irq()); there is no controller to mask.
 */
static struct fwnode_handle *ascend_emu_irq_fwnode;
static struct irq_domain *ascend_emu_irq_domain;

static int ascend_emu_irq_map(struct irq_domain *d, unsigned int virq,
			      irq_hw_number_t hw)
{
	irq_set_chip_and_handler(virq, &dummy_irq_chip, handle_edge_irq);
	return 0;
}

static const struct irq_domain_ops ascend_emu_irq_ops = {
	.map = ascend_emu_irq_map,
	.xlate = irq_domain_xlate_onecell,
};

/* Describe NPU @emu in @pdev, not added yet: resources, data, properties. */
static int ascend_emu_pdev_describe(struct ascend_emu *emu,
				    struct platform_device *pdev)
{
	struct property_entry props[] = {
		PROPERTY_ENTRY_U64(ASCEND_HW_PROP_HBM_SIZE, emu->hbm_size),
		PROPERTY_ENTRY_U64(ASCEND_HW_PROP_HBM_STORE_SIZE,
				   min_t(u64, emu->hbm_size,
					 (u64)emu->store_pages << PAGE_SHIFT)),
		PROPERTY_ENTRY_U32(ASCEND_HW_PROP_DMA_ENGINES,
				   emu->num_dma_engines),
		PROPERTY_ENTRY_U32(ASCEND_HW_PROP_AI_CORES, emu->num_ai_cores),
		PROPERTY_ENTRY_STRING(ASCEND_HW_PROP_SOC_NAME, soc_name),
		{ }
	};
	struct ascend_hw_platform_data pdata = { .hw = &emu->hw };
	struct resource res = DEFINE_RES_IRQ(emu->irq);
	int ret;

	pdev->dev.parent = &ascend_emu_parent->dev;
	/* a 64-bit DMA device without an IOMMU (ascend_emu.c) */
	pdev->platform_dma_mask = DMA_BIT_MASK(64);
	pdev->dev.dma_mask = &pdev->platform_dma_mask;
	pdev->dev.coherent_dma_mask = DMA_BIT_MASK(64);
	ret = platform_device_add_resources(pdev, &res, 1);
	if (!ret)
		ret = platform_device_add_data(pdev, &pdata, sizeof(pdata));
	if (!ret)
		ret = device_create_managed_software_node(&pdev->dev, props,
							  NULL);
	return ret;
}

/* Create NPU @index and let the driver bind; caller holds the lock. */
static int ascend_emu_dev_new(unsigned int index)
{
	const struct ascend_emu_config cfg = {
		.hbm_size = (u64)hbm_size_mb * SZ_1M,
		.num_dma_engines = dma_engines,
		.num_ai_cores = ai_cores,
		.store_size = ascend_emu_store_slice(num_devices),
	};
	struct platform_device *pdev;
	struct ascend_emu *emu;
	unsigned int virq;
	bool bound;
	int ret;

	lockdep_assert_held(&ascend_emu_bus_lock);
	if (index >= ASCEND_HW_MAX_DEVICES)
		return -EINVAL;
	if (ascend_emu_devs[index])
		return -EEXIST;

	virq = irq_create_mapping(ascend_emu_irq_domain, index);
	if (!virq)
		return -ENOMEM;
	pdev = platform_device_alloc(ASCEND_HW_DEVICE_NAME, index);
	if (!pdev) {
		ret = -ENOMEM;
		goto err_dispose_irq;
	}
	/* the device's state exists before the driver can see the device */
	emu = ascend_emu_create(&pdev->dev, index, &cfg, ascend_emu_debugfs,
				virq);
	if (!emu) {
		ret = -ENOMEM;
		goto err_put_pdev;
	}
	ret = ascend_emu_pdev_describe(emu, pdev);
	if (ret)
		goto err_destroy_emu;
	ret = platform_device_add(pdev);
	if (ret)
		goto err_destroy_emu;

	/* The driver probes it synchronously; a device nobody took is gone. */
	device_lock(&pdev->dev);
	bound = device_is_bound(&pdev->dev);
	device_unlock(&pdev->dev);
	if (!bound) {
		platform_device_unregister(pdev);
		ascend_emu_destroy(emu);
		irq_dispose_mapping(virq);
		return -ENODEV;
	}
	ascend_emu_devs[index] = pdev;
	ascend_emu_state[index] = emu;
	return 0;

err_destroy_emu:
	ascend_emu_destroy(emu);
err_put_pdev:
	platform_device_put(pdev);
err_dispose_irq:
	irq_dispose_mapping(virq);
	return ret;
}

/* Remove NPU @index; caller holds the lock. */
static int ascend_emu_dev_del(unsigned int index)
{
	struct ascend_emu *emu;

	lockdep_assert_held(&ascend_emu_bus_lock);
	if (index >= ASCEND_HW_MAX_DEVICES)
		return -EINVAL;
	if (!ascend_emu_devs[index])
		return -ENOENT;
	emu = ascend_emu_state[index];
	/* unbinds the driver: its remove unplugs the device */
	platform_device_unregister(ascend_emu_devs[index]);
	ascend_emu_devs[index] = NULL;
	ascend_emu_state[index] = NULL;
	/* the driver's remove has returned: nobody holds the handle now */
	irq_dispose_mapping(emu->irq);
	ascend_emu_destroy(emu);
	return 0;
}

/* A sysfs write "<index>": @op on that NPU under the bus lock. */
static ssize_t ascend_emu_bus_store(const char *buf, size_t count,
				    int (*op)(unsigned int index))
{
	unsigned int index;
	int ret;

	ret = kstrtouint(buf, 10, &index);
	if (ret)
		return ret;
	mutex_lock(&ascend_emu_bus_lock);
	ret = op(index);
	mutex_unlock(&ascend_emu_bus_lock);
	return ret ?: count;
}

static ssize_t new_device_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	return ascend_emu_bus_store(buf, count, ascend_emu_dev_new);
}
static DEVICE_ATTR_WO(new_device);

static ssize_t del_device_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	return ascend_emu_bus_store(buf, count, ascend_emu_dev_del);
}
static DEVICE_ATTR_WO(del_device);

static ssize_t backed_pages_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", ascend_emu_backed_pages());
}
static DEVICE_ATTR_RO(backed_pages);

static struct attribute *ascend_emu_bus_attrs[] = {
	&dev_attr_new_device.attr,
	&dev_attr_del_device.attr,
	&dev_attr_backed_pages.attr,
	NULL
};

static const struct attribute_group ascend_emu_bus_group = {
	.attrs = ascend_emu_bus_attrs,
};

static void ascend_emu_del_all(void)
{
	unsigned int i = ASCEND_HW_MAX_DEVICES;

	mutex_lock(&ascend_emu_bus_lock);
	while (i--)
		if (ascend_emu_devs[i])
			ascend_emu_dev_del(i);
	mutex_unlock(&ascend_emu_bus_lock);
}

int ascend_emu_bus_init(void)
{
	unsigned int i;
	int ret = 0;

	if (!num_devices || num_devices > ASCEND_HW_MAX_DEVICES ||
	    !hbm_size_mb || !dma_engines ||
	    dma_engines > ASCEND_HW_MAX_DMA_ENGINES ||
	    !ai_cores || ai_cores > ASCEND_HW_MAX_AI_CORES) {
		pr_err("ascend: module parameter out of range\n");
		return -EINVAL;
	}

	ret = ascend_emu_spare_init();
	if (ret)
		return ret;
	ascend_emu_irq_fwnode = irq_domain_alloc_named_fwnode("ascend-emu");
	if (!ascend_emu_irq_fwnode) {
		ret = -ENOMEM;
		goto err_spare;
	}
	ascend_emu_irq_domain = irq_domain_create_linear(ascend_emu_irq_fwnode,
							 ASCEND_HW_MAX_DEVICES,
							 &ascend_emu_irq_ops,
							 NULL);
	if (!ascend_emu_irq_domain) {
		ret = -ENOMEM;
		goto err_free_fwnode;
	}

	/* the devices' own fault knobs; none if debugfs is off */
	ascend_emu_debugfs = debugfs_create_dir("ascend-emu", NULL);

	ascend_emu_parent = platform_device_register_simple("ascend-emu",
							    PLATFORM_DEVID_NONE,
							    NULL, 0);
	if (IS_ERR(ascend_emu_parent)) {
		ret = PTR_ERR(ascend_emu_parent);
		goto err_remove_domain;
	}

	mutex_lock(&ascend_emu_bus_lock);
	for (i = 0; i < num_devices; i++) {
		ret = ascend_emu_dev_new(i);
		if (ret)
			break;
	}
	mutex_unlock(&ascend_emu_bus_lock);
	if (ret)
		goto err_del_devices;

	/* last: no sysfs writer races with the devices of the load */
	ret = sysfs_create_group(&ascend_emu_parent->dev.kobj,
				 &ascend_emu_bus_group);
	if (ret)
		goto err_del_devices;
	return 0;

err_del_devices:
	ascend_emu_del_all();
	platform_device_unregister(ascend_emu_parent);
err_remove_domain:
	debugfs_remove_recursive(ascend_emu_debugfs);
	irq_domain_remove(ascend_emu_irq_domain);
err_free_fwnode:
	irq_domain_free_fwnode(ascend_emu_irq_fwnode);
err_spare:
	ascend_emu_spare_fini();
	return ret;
}

void ascend_emu_bus_exit(void)
{
	/* waits for writers in flight; none can start after it */
	sysfs_remove_group(&ascend_emu_parent->dev.kobj, &ascend_emu_bus_group);
	ascend_emu_del_all();
	platform_device_unregister(ascend_emu_parent);
	debugfs_remove_recursive(ascend_emu_debugfs);
	irq_domain_remove(ascend_emu_irq_domain);
	irq_domain_free_fwnode(ascend_emu_irq_fwnode);
	/* every device is gone: so is every page that backed its HBM */
	WARN(ascend_emu_backed_pages(), "ascend: %lu HBM backing pages leaked\n",
	     ascend_emu_backed_pages());
	ascend_emu_spare_fini();
}
