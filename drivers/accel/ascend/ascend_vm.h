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
#include <linux/sizes.h>
#include <linux/types.h>

struct ascend_device;
struct ascend_hbm_alloc;
struct ascend_hbm_range;

/*
 * VA window rules (reported in drm_ascend_device_info): the base and size
 * are 2 MiB aligned (a huge page; 1 GiB pages are aligned inside the window
 * by the allocator), and a window holds at least 1 GiB.
 */
#define ASCEND_VM_WINDOW_ALIGN		SZ_2M
#define ASCEND_VM_WINDOW_MIN_SIZE	SZ_1G

/* Unmapped gap after every mapping: a small overrun faults. */
#define ASCEND_VM_GUARD			SZ_4K

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
	struct mutex lock;	/* protects the window and mappings */
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

/**
 * struct ascend_vm_mapping - device memory mapped into an address space
 * @node: the VA range (the mapping plus %ASCEND_VM_GUARD)
 * @size: bytes mapped, from @node.start
 * @ranges: device-physical backing, sorted by offset, covering @size
 * @nr_ranges: entries in @ranges
 */
struct ascend_vm_mapping {
	struct drm_mm_node node;
	u64 size;
	const struct ascend_hbm_range *ranges;
	unsigned int nr_ranges;
};

void ascend_vm_init(struct ascend_vm *vm, struct ascend_device *adev);
void ascend_vm_fini(struct ascend_vm *vm);

/* Window rules without side effects: 0 or -EINVAL. */
int ascend_vm_check_window(u64 base, u64 size, u32 flags, u32 pad);
/* Validate and register the window: -EINVAL, or -EBUSY if already set. */
int ascend_vm_set_window(struct ascend_vm *vm, u64 base, u64 size);
bool ascend_vm_has_window(struct ascend_vm *vm);

/*
 * Map @alloc at a VA chosen in the window, aligned to its page size.
 * -ENXIO without a window, -ENOSPC when the window is full.  @map must
 * stay alive, and @alloc unchanged, until ascend_vm_unmap().
 */
int ascend_vm_map(struct ascend_vm *vm, struct ascend_vm_mapping *map,
		  const struct ascend_hbm_alloc *alloc);
void ascend_vm_unmap(struct ascend_vm *vm, struct ascend_vm_mapping *map);

/*
 * The mapping holding all of [va, va + len), with @vm->lock held; the
 * offset of @va in it goes to @offset.  ERR_PTR(-EFAULT) if any byte is
 * outside one mapping, ERR_PTR(-EINVAL) for len 0 or overflow.
 */
struct ascend_vm_mapping *ascend_vm_lookup_locked(struct ascend_vm *vm,
						  u64 va, u64 len,
						  u64 *offset);

/*
 * Like ascend_vm_translate_locked(), into an array it allocates (free it
 * with kvfree()).  Returns the number of segments or a negative errno.
 */
int ascend_vm_translate_alloc_locked(struct ascend_vm *vm, u64 va, u64 len,
				     struct ascend_vm_seg **segs);

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
