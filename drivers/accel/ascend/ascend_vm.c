// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device MMU: per-file address spaces over a user-registered VA window.
 *
 * A mapping is a drm_mm node in the window (so lookups are interval-tree
 * O(log n)) pointing at the buffer's sorted range array (binary search on
 * the offset, O(log m)).  Each mapping is followed by an unmapped guard, so
 * two mappings are never adjacent and every access lies in one mapping.
 */
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ascend_drv.h"
#include "ascend_hbm.h"
#include "ascend_hw.h"
#include "ascend_vm.h"

void ascend_vm_init(struct ascend_vm *vm, struct ascend_device *adev)
{
	vm->adev = adev;
	mutex_init(&vm->lock);
	vm->base = 0;
	vm->size = 0;
}

void ascend_vm_fini(struct ascend_vm *vm)
{
	/* Buffer objects unmap themselves; drm_mm_takedown() warns on leaks. */
	if (vm->size)
		drm_mm_takedown(&vm->mm);
	vm->size = 0;
	mutex_destroy(&vm->lock);
}

int ascend_vm_check_window(u64 base, u64 size, u32 flags, u32 pad)
{
	u64 end;

	if (flags || pad)
		return -EINVAL;
	if (!base || !IS_ALIGNED(base, ASCEND_VM_WINDOW_ALIGN) ||
	    !IS_ALIGNED(size, ASCEND_VM_WINDOW_ALIGN))
		return -EINVAL;
	if (size < ASCEND_VM_WINDOW_MIN_SIZE)
		return -EINVAL;
	if (check_add_overflow(base, size, &end))
		return -EINVAL;
	/* The window must be user address space: device VAs are host VAs. */
	if (end > TASK_SIZE_MAX || !access_ok(u64_to_user_ptr(base), size))
		return -EINVAL;
	return 0;
}

int ascend_vm_set_window(struct ascend_vm *vm, u64 base, u64 size)
{
	int ret;

	ret = ascend_vm_check_window(base, size, 0, 0);
	if (ret)
		return ret;

	mutex_lock(&vm->lock);
	if (vm->size) {
		ret = -EBUSY;
	} else {
		drm_mm_init(&vm->mm, base, size);
		vm->base = base;
		vm->size = size;
	}
	mutex_unlock(&vm->lock);
	return ret;
}

bool ascend_vm_has_window(struct ascend_vm *vm)
{
	bool ret;

	mutex_lock(&vm->lock);
	ret = vm->size != 0;
	mutex_unlock(&vm->lock);
	return ret;
}

/*
 * The window must be a range the caller reserved: every byte inside one of
 * its mappings.  Then no device VA is, or will be without the process
 * unmapping its own reservation, a host address of anything else.
 */
static int ascend_vm_check_reserved(u64 base, u64 size)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	u64 addr = base, end = base + size;
	int ret = 0;

	if (!mm)
		return -EINVAL;

	mmap_read_lock(mm);
	while (addr < end) {
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr) {
			ret = -EINVAL;
			break;
		}
		addr = vma->vm_end;
	}
	mmap_read_unlock(mm);
	return ret;
}

int ascend_ioctl_va_window(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct drm_ascend_va_window *args = data;
	struct ascend_file *af = to_ascend_file(file);
	int ret;

	ret = ascend_vm_check_window(args->base, args->size, args->flags,
				     args->pad);
	if (ret)
		return ret;
	ret = ascend_vm_check_reserved(args->base, args->size);
	if (ret)
		return ret;
	return ascend_vm_set_window(&af->vm, args->base, args->size);
}

int ascend_vm_map(struct ascend_vm *vm, struct ascend_vm_mapping *map,
		  const struct ascend_hbm_alloc *alloc)
{
	u64 span;
	int ret;

	if (check_add_overflow(alloc->size, (u64)ASCEND_VM_GUARD, &span))
		return -ENOSPC;

	memset(&map->node, 0, sizeof(map->node));
	map->size = alloc->size;
	map->ranges = alloc->ranges;
	map->nr_ranges = alloc->nr_ranges;

	mutex_lock(&vm->lock);
	if (!vm->size)
		ret = -ENXIO;
	else
		ret = drm_mm_insert_node_in_range(&vm->mm, &map->node, span,
						  alloc->page_size, 0,
						  vm->base, vm->base + vm->size,
						  DRM_MM_INSERT_BEST);
	mutex_unlock(&vm->lock);
	return ret;
}

void ascend_vm_unmap(struct ascend_vm *vm, struct ascend_vm_mapping *map)
{
	/* Waits for device accesses in flight: they hold vm->lock. */
	mutex_lock(&vm->lock);
	if (drm_mm_node_allocated(&map->node))
		drm_mm_remove_node(&map->node);
	mutex_unlock(&vm->lock);
}

struct ascend_vm_mapping *ascend_vm_lookup_locked(struct ascend_vm *vm,
						  u64 va, u64 len,
						  u64 *offset)
{
	struct drm_mm_node *node;
	struct ascend_vm_mapping *map;
	u64 end;

	lockdep_assert_held(&vm->lock);

	if (!len || check_add_overflow(va, len, &end))
		return ERR_PTR(-EINVAL);
	if (!vm->size)
		return ERR_PTR(-EFAULT);

	node = __drm_mm_interval_first(&vm->mm, va, va);
	if (!drm_mm_node_allocated(node))
		return ERR_PTR(-EFAULT);

	map = container_of(node, struct ascend_vm_mapping, node);
	/* The node's tail is the guard: not mapped. */
	if (va - node->start >= map->size || end - node->start > map->size)
		return ERR_PTR(-EFAULT);

	*offset = va - node->start;
	return map;
}

/* Index of the range holding byte @offset of @map (binary search). */
static unsigned int ascend_vm_find_range(const struct ascend_vm_mapping *map,
					 u64 offset)
{
	unsigned int lo = 0, hi = map->nr_ranges;

	/* Invariant: ranges[lo].offset <= offset < ranges[hi].offset */
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (map->ranges[mid].offset <= offset)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Walk [offset, offset + len) of @map as segments: fills up to @max_segs
 * entries of @segs (which may be NULL to count) and returns how many the
 * range needs.
 */
static unsigned int ascend_vm_segments(const struct ascend_vm_mapping *map,
				       u64 offset, u64 len,
				       struct ascend_vm_seg *segs,
				       unsigned int max_segs)
{
	unsigned int i = ascend_vm_find_range(map, offset);
	unsigned int n = 0;

	while (len) {
		const struct ascend_hbm_range *r = &map->ranges[i++];
		u64 in = offset - r->offset;
		u64 chunk = min(len, r->size - in);

		if (segs && n < max_segs) {
			segs[n].addr = r->addr + in;
			segs[n].len = chunk;
		}
		n++;
		offset += chunk;
		len -= chunk;
	}
	return n;
}

int ascend_vm_translate_locked(struct ascend_vm *vm, u64 va, u64 len,
			       struct ascend_vm_seg *segs, unsigned int max_segs)
{
	struct ascend_vm_mapping *map;
	unsigned int n;
	u64 offset;

	map = ascend_vm_lookup_locked(vm, va, len, &offset);
	if (IS_ERR(map))
		return PTR_ERR(map);

	n = ascend_vm_segments(map, offset, len, segs, max_segs);
	if (n > max_segs)
		return -E2BIG;
	return n;
}

int ascend_vm_translate_alloc_locked(struct ascend_vm *vm, u64 va, u64 len,
				     struct ascend_vm_seg **segs)
{
	struct ascend_vm_mapping *map;
	unsigned int n;
	u64 offset;

	*segs = NULL;
	map = ascend_vm_lookup_locked(vm, va, len, &offset);
	if (IS_ERR(map))
		return PTR_ERR(map);

	n = ascend_vm_segments(map, offset, len, NULL, 0);
	*segs = kvmalloc_array(n, sizeof(**segs), GFP_KERNEL);
	if (!*segs)
		return -ENOMEM;
	return ascend_vm_segments(map, offset, len, *segs, n);
}

int ascend_vm_rw(struct ascend_vm *vm, u64 va, void *buf, size_t len,
		 bool write)
{
	struct ascend_device *adev = vm->adev;
	struct ascend_vm_mapping *map;
	unsigned int i;
	u64 offset;
	int ret = 0;

	mutex_lock(&vm->lock);
	/* The whole range is checked before any byte moves. */
	map = ascend_vm_lookup_locked(vm, va, len, &offset);
	if (IS_ERR(map)) {
		ret = PTR_ERR(map);
		goto out_unlock;
	}

	i = ascend_vm_find_range(map, offset);
	while (len) {
		const struct ascend_hbm_range *r = &map->ranges[i++];
		u64 in = offset - r->offset;
		size_t chunk = min_t(u64, len, r->size - in);

		ret = adev->hw->hbm_rw(adev, r->addr + in, buf, chunk, write);
		if (ret)
			break;
		buf += chunk;
		offset += chunk;
		len -= chunk;
	}
out_unlock:
	mutex_unlock(&vm->lock);
	return ret;
}
