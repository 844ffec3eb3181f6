/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device MMU: one address space per open file.
 *
 * User space reserves a window of its own address space and registers it;
 * device allocations get VAs inside it from a drm_mm, so a device pointer is
 * a unique host address that faults when the host touches it.  Every device
 * access by VA goes through ascend_vm_translate(): an unmapped byte is a
 * device fault (-EFAULT), never a host crash.
 */
#ifndef __ASCEND_VM_H__
#define __ASCEND_VM_H__

#include <drm/drm_mm.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct ascend_device;

/**
 * struct ascend_vm - a device address space
 * @adev: the device
 * @lock: protects @base, @size, @mm and the mappings (the nodes in @mm and
 *	what they point at).  Held by the device side while it translates and
 *	accesses memory, so an unmap waits for accesses in flight.
 * @base: start of the VA window, 0 until registered
 * @size: size of the VA window, 0 until registered
 * @mm: VA allocator over the window; each node is one mapping
 */
struct ascend_vm {
	struct ascend_device *adev;
	struct mutex lock;
	u64 base;
	u64 size;
	struct drm_mm mm;
};

/**
 * struct ascend_vm_seg - a device-physical piece of a translated range
 * @addr: device-physical (HBM) address
 * @len: bytes
 */
struct ascend_vm_seg {
	u64 addr;
	u64 len;
};

void ascend_vm_init(struct ascend_vm *vm, struct ascend_device *adev);
void ascend_vm_fini(struct ascend_vm *vm);

/*
 * Translate [va, va + len) into device-physical segments, with @vm->lock
 * held by the caller.  Returns the number of segments written to @segs, or
 * -EFAULT if any byte is not mapped in @vm, -E2BIG if more than @max_segs
 * segments would be needed, -EINVAL if va + len overflows or len is 0.
 */
int ascend_vm_translate_locked(struct ascend_vm *vm, u64 va, u64 len,
			       struct ascend_vm_seg *segs, unsigned int max_segs);

/*
 * Device-side byte access through the MMU: read or write @len bytes at @va.
 * Takes @vm->lock.  -EFAULT if any byte is unmapped (nothing is written
 * then), -EINVAL on overflow.
 */
int ascend_vm_rw(struct ascend_vm *vm, u64 va, void *buf, size_t len,
		 bool write);

#endif /* __ASCEND_VM_H__ */
