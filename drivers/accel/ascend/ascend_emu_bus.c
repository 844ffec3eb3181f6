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
 * the handle of its hardware interface (&ascend_emu_ops) and whose device
 * properties are what the device reports about itself: HBM size, DMA
 * engines, AI cores, SoC name (from the module parameters below, read
 * when the device is created).  The driver binds to it like to any other
 * device (ascend_drv.c); removing the device unbinds it.
 */
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

static const struct ascend_hw_platform_data ascend_emu_pdata = {
	.ops = &ascend_emu_ops,
};

/*
 * The emulator's devices.  The lock serialises creation and removal
 * (sysfs writers, module init and exit).
 */
static DEFINE_MUTEX(ascend_emu_bus_lock);	/* protects ascend_emu_devs */
static struct platform_device *ascend_emu_devs[ASCEND_HW_MAX_DEVICES];
static struct platform_device *ascend_emu_parent;

/*
 * The interrupt lines of the NPUs: an interrupt domain of the emulator,
 * hardware interrupt N for NPU N.  The device raises its line from its
 * own threads (ascend_emu_raise_irq()); there is no controller to mask.
 */
static struct fwnode_handle *ascend_emu_irq_fwnode;
static struct irq_domain *ascend_emu_irq_domain;
static unsigned int ascend_emu_irqs[ASCEND_HW_MAX_DEVICES];

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

unsigned int ascend_emu_bus_irq(unsigned int index)
{
	return index < ASCEND_HW_MAX_DEVICES ? ascend_emu_irqs[index] : 0;
}

/* Create NPU @index and let the driver bind; caller holds the lock. */
static int ascend_emu_dev_new(unsigned int index)
{
	struct property_entry props[] = {
		PROPERTY_ENTRY_U64(ASCEND_HW_PROP_HBM_SIZE,
				   (u64)hbm_size_mb * SZ_1M),
		PROPERTY_ENTRY_U32(ASCEND_HW_PROP_DMA_ENGINES, dma_engines),
		PROPERTY_ENTRY_U32(ASCEND_HW_PROP_AI_CORES, ai_cores),
		PROPERTY_ENTRY_STRING(ASCEND_HW_PROP_SOC_NAME, soc_name),
		{ }
	};
	struct platform_device_info info = {
		.parent = &ascend_emu_parent->dev,
		.name = ASCEND_HW_DEVICE_NAME,
		.id = index,
		.data = &ascend_emu_pdata,
		.size_data = sizeof(ascend_emu_pdata),
		.properties = props,
		.dma_mask = DMA_BIT_MASK(64),
	};
	struct platform_device *pdev;
	struct resource res;
	unsigned int virq;
	bool bound;

	lockdep_assert_held(&ascend_emu_bus_lock);
	if (index >= ASCEND_HW_MAX_DEVICES)
		return -EINVAL;
	if (ascend_emu_devs[index])
		return -EEXIST;

	virq = irq_create_mapping(ascend_emu_irq_domain, index);
	if (!virq)
		return -ENOMEM;
	res = (struct resource)DEFINE_RES_IRQ(virq);
	info.res = &res;
	info.num_res = 1;
	/* the device finds its line here when the driver brings it up */
	WRITE_ONCE(ascend_emu_irqs[index], virq);

	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev)) {
		WRITE_ONCE(ascend_emu_irqs[index], 0);
		irq_dispose_mapping(virq);
		return PTR_ERR(pdev);
	}

	/* The driver probes it synchronously; a device nobody took is gone. */
	device_lock(&pdev->dev);
	bound = device_is_bound(&pdev->dev);
	device_unlock(&pdev->dev);
	if (!bound) {
		platform_device_unregister(pdev);
		WRITE_ONCE(ascend_emu_irqs[index], 0);
		irq_dispose_mapping(virq);
		return -ENODEV;
	}
	ascend_emu_devs[index] = pdev;
	return 0;
}

/* Remove NPU @index; caller holds the lock. */
static int ascend_emu_dev_del(unsigned int index)
{
	lockdep_assert_held(&ascend_emu_bus_lock);
	if (index >= ASCEND_HW_MAX_DEVICES)
		return -EINVAL;
	if (!ascend_emu_devs[index])
		return -ENOENT;
	/* unbinds the driver: its remove unplugs the device */
	platform_device_unregister(ascend_emu_devs[index]);
	ascend_emu_devs[index] = NULL;
	irq_dispose_mapping(ascend_emu_irqs[index]);
	WRITE_ONCE(ascend_emu_irqs[index], 0);
	return 0;
}

static ssize_t new_device_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	unsigned int index;
	int ret;

	ret = kstrtouint(buf, 10, &index);
	if (ret)
		return ret;
	mutex_lock(&ascend_emu_bus_lock);
	ret = ascend_emu_dev_new(index);
	mutex_unlock(&ascend_emu_bus_lock);
	return ret ?: count;
}
static DEVICE_ATTR_WO(new_device);

static ssize_t del_device_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	unsigned int index;
	int ret;

	ret = kstrtouint(buf, 10, &index);
	if (ret)
		return ret;
	mutex_lock(&ascend_emu_bus_lock);
	ret = ascend_emu_dev_del(index);
	mutex_unlock(&ascend_emu_bus_lock);
	return ret ?: count;
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

	ascend_emu_irq_fwnode = irq_domain_alloc_named_fwnode("ascend-emu");
	if (!ascend_emu_irq_fwnode)
		return -ENOMEM;
	ascend_emu_irq_domain = irq_domain_create_linear(ascend_emu_irq_fwnode,
							 ASCEND_HW_MAX_DEVICES,
							 &ascend_emu_irq_ops,
							 NULL);
	if (!ascend_emu_irq_domain) {
		ret = -ENOMEM;
		goto err_free_fwnode;
	}

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
	irq_domain_remove(ascend_emu_irq_domain);
err_free_fwnode:
	irq_domain_free_fwnode(ascend_emu_irq_fwnode);
	return ret;
}

void ascend_emu_bus_exit(void)
{
	/* waits for writers in flight; none can start after it */
	sysfs_remove_group(&ascend_emu_parent->dev.kobj, &ascend_emu_bus_group);
	ascend_emu_del_all();
	platform_device_unregister(ascend_emu_parent);
	irq_domain_remove(ascend_emu_irq_domain);
	irq_domain_free_fwnode(ascend_emu_irq_fwnode);
	/* every device is gone: so is every page that backed its HBM */
	WARN(ascend_emu_backed_pages(), "ascend: %lu HBM backing pages leaked\n",
	     ascend_emu_backed_pages());
}
