// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault injection knobs (see ascend_fault.h): per site
 *
 *   fail_<site>      read/write: N > 0 fails the Nth call of the site from
 *                    now on, once; 0 disarms; reading shows what is left
 *   injected_<site>  read-only: failures injected at the site so far
 *   stall_ipc_import read/write: non-zero stalls IPC imports of memory
 *                    (see ascend_fault_stall_import()) until it is 0
 *
 * in the device's debugfs directory, e.g. /sys/kernel/debug/accel/ascend.0/.
 * The countdowns are atomics; no lock is needed.
 */
#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/delay.h>

#include "ascend_drv.h"
#include "ascend_fault.h"

static const char *const ascend_fault_site_names[ASCEND_FAULT_NR_SITES] = {
	[ASCEND_FAULT_SITE_HBM_ALLOC] = "hbm_alloc",
	[ASCEND_FAULT_SITE_PIN] = "pin",
	[ASCEND_FAULT_SITE_DMA_MAP] = "dma_map",
	[ASCEND_FAULT_SITE_DOORBELL] = "doorbell",
	[ASCEND_FAULT_SITE_QUEUE_CREATE] = "queue_create",
	[ASCEND_FAULT_SITE_EVENT_CREATE] = "event_create",
};

/* Sites with a call in the driver; only these get knobs. */
static const unsigned long ascend_fault_wired =
	BIT(ASCEND_FAULT_SITE_HBM_ALLOC) | BIT(ASCEND_FAULT_SITE_PIN) |
	BIT(ASCEND_FAULT_SITE_DMA_MAP) | BIT(ASCEND_FAULT_SITE_DOORBELL) |
	BIT(ASCEND_FAULT_SITE_QUEUE_CREATE) |
	BIT(ASCEND_FAULT_SITE_EVENT_CREATE);

/* After drm_dev_register(): the device's debugfs directory exists then. */
void ascend_fault_debugfs_init(struct ascend_device *adev)
{
	struct dentry *root = adev->drm.debugfs_root;
	char name[32];
	unsigned int i;

	if (IS_ERR_OR_NULL(root))
		return;
	for (i = 0; i < ASCEND_FAULT_NR_SITES; i++) {
		if (!(ascend_fault_wired & BIT(i)))
			continue;
		snprintf(name, sizeof(name), "fail_%s",
			 ascend_fault_site_names[i]);
		debugfs_create_atomic_t(name, 0600, root,
					&adev->fault.countdown[i]);
		snprintf(name, sizeof(name), "injected_%s",
			 ascend_fault_site_names[i]);
		debugfs_create_atomic_t(name, 0400, root,
					&adev->fault.injected[i]);
	}
	debugfs_create_atomic_t("stall_ipc_import", 0600, root,
				&adev->fault.stall_import);
}

/*
 * Lets a test look at the driver while an import is half done (the
 * memory mapped, no handle yet): waits while the knob is set, at most
 * 10 s, so that a test that dies never leaves an importer stuck.
 */
void ascend_fault_stall_import(struct ascend_fault *f)
{
	unsigned int i;

	for (i = 0; i < 500 && atomic_read(&f->stall_import); i++)
		msleep(20);
}
