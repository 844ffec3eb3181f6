/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fault injection without the kernel's fault-injection framework (Debian's
 * kernel has none): one "fail the Nth call" countdown per call site, armed
 * through debugfs (/sys/kernel/debug/accel/<dev>/fail_<site>).
 *
 * Writing N to fail_<site> makes the Nth call of that site from now on
 * fail once (1 = the next call); 0 disarms.  Reading it returns the
 * countdown still to go; fault_injected lists how many failures each site
 * has injected since the module was loaded.
 *
 * A failing DMA transfer is the device's to inject, not the driver's: the
 * emulated NPU has its own knob (Documentation/reliability.rst).
 */
#ifndef __ASCEND_FAULT_H__
#define __ASCEND_FAULT_H__

#include <linux/atomic.h>
#include <linux/compiler.h>

/**
 * enum ascend_fault_site - where a failure can be injected
 * @ASCEND_FAULT_SITE_HBM_ALLOC: device memory allocation of BO_CREATE (-ENOSPC)
 * @ASCEND_FAULT_SITE_PIN: pin_user_pages of HOST_REGISTER and of pageable
 *	copies (-EFAULT)
 * @ASCEND_FAULT_SITE_DMA_MAP: dma_map_sgtable of host memory (-ENOMEM)
 * @ASCEND_FAULT_SITE_DOORBELL: the doorbell ioctl (-EIO)
 * @ASCEND_FAULT_SITE_QUEUE_CREATE: the queue creation ioctl (-ENOMEM)
 * @ASCEND_FAULT_SITE_EVENT_CREATE: the event creation ioctl (-ENOMEM)
 * @ASCEND_FAULT_NR_SITES: number of sites
 */
enum ascend_fault_site {
	ASCEND_FAULT_SITE_HBM_ALLOC,
	ASCEND_FAULT_SITE_PIN,
	ASCEND_FAULT_SITE_DMA_MAP,
	ASCEND_FAULT_SITE_DOORBELL,
	ASCEND_FAULT_SITE_QUEUE_CREATE,
	ASCEND_FAULT_SITE_EVENT_CREATE,
	ASCEND_FAULT_NR_SITES
};

/**
 * struct ascend_fault - fault-injection state of one device
 * @countdown: per site: the call that fails is the one that brings it from
 *	1 to 0; 0 = disarmed.  Atomic, no lock.
 * @injected: per site: failures injected so far
 * @stall_import: debugfs stall_ipc_import: while non-zero, an IPC import
 *	of memory waits (10 s at most) between mapping the memory in the
 *	importer's address space and giving it a handle
 */
struct ascend_fault {
	atomic_t countdown[ASCEND_FAULT_NR_SITES];
	atomic_t injected[ASCEND_FAULT_NR_SITES];
	atomic_t stall_import;
};

/* True when this call of @site must fail (cheap when disarmed). */
static inline bool ascend_fault_hit(struct ascend_fault *f,
				    enum ascend_fault_site site)
{
	if (likely(!atomic_read(&f->countdown[site])))
		return false;
	if (atomic_dec_if_positive(&f->countdown[site]) != 0)
		return false;
	atomic_inc(&f->injected[site]);
	return true;
}

/*
 * bool ascend_should_fail(struct ascend_device *adev,
 *			   enum ascend_fault_site site)
 * A macro so that this header needs no definition of struct ascend_device.
 */
#define ascend_should_fail(adev, site) ascend_fault_hit(&(adev)->fault, (site))

struct ascend_device;

/* debugfs knobs fail_<site> and fault_injected (ascend_fault.c) */
void ascend_fault_debugfs_init(struct ascend_device *adev);

/* An IPC import's stall point (debugfs stall_ipc_import); may sleep. */
void ascend_fault_stall_import(struct ascend_fault *f);

#endif /* __ASCEND_FAULT_H__ */
