// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device MMU: per-file address spaces over a user-registered VA window.
 *
 * A mapping is a drm_mm node in the window (so lookups are interval-tree
 * O(log n)) pointing at the buffer's sorted range array (binary search on
 * the offset, O(log m)).  Each mapping is followed by an unmapped guard, so
 * two mappings are never adjacent and every access lies in one mapping.
 *
 * A reservation (VA_RESERVE) is one such node that maps nothing itself:
 * the mappings made in it (VA_MAP) are nodes of a drm_mm of its own, with
 * no guard, so mappings that abut are one contiguous range, and a
 * translation walks from one to the next (ascend_vm_piece_locked()).
 *
 * Host memory (pinned by ascend_host.c) is mapped at its host address in a
 * second index, an interval tree over [start, last], beside the window; it
 * has no guard (the ranges are the process's own pages), but overlaps are
 * refused, so an access must still lie in one mapping.
 */
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ascend_drv.h"
#include "ascend_hbm.h"
#include "ascend_hw.h"
#include "ascend_peer.h"
#include "ascend_vm.h"

void ascend_vm_init(struct ascend_vm *vm, struct ascend_device *adev)
{
	unsigned int i;

	for (i = 0; i < ASCEND_VM_PARK_CLASSES; i++)
		INIT_LIST_HEAD(&vm->parked[i]);
	vm->nr_parked = 0;
	vm->adev = adev;
	mutex_init(&vm->lock);
	vm->base = 0;
	vm->size = 0;
	vm->host = RB_ROOT_CACHED;
	vm->nr_host = 0;
	vm->resv_hint = NULL;
	ascend_pt_init(&vm->pt, adev);
}

void ascend_vm_fini(struct ascend_vm *vm)
{
	/* Buffer objects unmap themselves; drm_mm_takedown() warns on leaks. */
	WARN_ON(vm->nr_host);
	WARN_ON(vm->nr_parked);
	if (vm->size)
		drm_mm_takedown(&vm->mm);
	vm->size = 0;
	ascend_pt_fini(&vm->pt);
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
	if (vm->size)
		ret = -EBUSY;
	else if (interval_tree_iter_first(&vm->host, base, base + size - 1))
		ret = -EINVAL;	/* host memory is mapped there: not a reservation */
	else	/* page tables first: peers' tables point at the root */
		ret = ascend_pt_ensure(&vm->pt);
	if (!ret) {
		drm_mm_init(&vm->mm, base, size);
		vm->base = base;
		WRITE_ONCE(vm->size, size);
	}
	mutex_unlock(&vm->lock);
	return ret;
}

int ascend_vm_asid(struct ascend_vm *vm, u32 *asid)
{
	int ret;

	mutex_lock(&vm->lock);
	ret = ascend_pt_ensure(&vm->pt);
	*asid = vm->pt.asid;
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
	ret = ascend_vm_set_window(&af->vm, args->base, args->size);
	if (ret)
		return ret;
	/* files linked to this one can reach the window now */
	ascend_peer_window_set(af);
	return 0;
}

/* Write @map's page-table entries at @start; @vm->lock held. */
static int ascend_vm_pt_map(struct ascend_vm *vm, struct ascend_vm_mapping *map,
			    u64 start)
{
	return ascend_pt_map(&vm->pt, start, map->ranges, map->nr_ranges,
			     map->size, map->as, map->readonly);
}

/* Parking class of a mapping of @alloc, or -1 if it is never parked. */
static int ascend_vm_park_class(const struct ascend_hbm_alloc *alloc)
{
	if (alloc->page_size != ASCEND_HBM_PAGE_NORMAL || !alloc->size ||
	    alloc->size > ASCEND_VM_PARK_CLASSES * (u64)ASCEND_HBM_PAGE_NORMAL ||
	    !IS_ALIGNED(alloc->size, ASCEND_HBM_PAGE_NORMAL))
		return -1;
	return alloc->size / ASCEND_HBM_PAGE_NORMAL - 1;
}

/* Point @map at @alloc; the VA range is already @map's. */
static void ascend_vm_set_backing(struct ascend_vm_mapping *map,
				  const struct ascend_hbm_alloc *alloc)
{
	map->size = alloc->size;
	map->ranges = alloc->ranges;
	map->nr_ranges = alloc->nr_ranges;
	map->as = ASCEND_AS_HBM;
	map->readonly = false;
	map->parked = false;
	map->idle = false;
}

struct ascend_vm_mapping *ascend_vm_take_parked_locked(struct ascend_vm *vm,
						       const struct ascend_hbm_alloc *alloc)
{
	struct ascend_vm_mapping *map;
	int c = ascend_vm_park_class(alloc);

	lockdep_assert_held(&vm->lock);
	if (c < 0)
		return NULL;
	map = list_first_entry_or_null(&vm->parked[c],
				       struct ascend_vm_mapping, park);
	if (!map)
		return NULL;
	ascend_vm_set_backing(map, alloc);
	if (ascend_vm_pt_map(vm, map, map->node.start)) {
		/* stays parked; the caller maps a new range */
		map->size = 0;
		map->ranges = NULL;
		map->nr_ranges = 0;
		map->parked = true;
		return NULL;
	}
	list_del(&map->park);
	vm->nr_parked--;
	return map;
}

bool ascend_vm_unmap_park(struct ascend_vm *vm, struct ascend_vm_mapping *map)
{
	struct ascend_hbm_alloc shape = {
		.size = map->size, .page_size = ASCEND_HBM_PAGE_NORMAL,
	};
	int c = -1;

	/* Only ranges that ascend_vm_map() sized exactly, normal pages. */
	if (map->as == ASCEND_AS_HBM && IS_ALIGNED(map->node.start, SZ_4K) &&
	    map->node.size == map->size + ASCEND_VM_GUARD)
		c = ascend_vm_park_class(&shape);

	/* Waits for device accesses in flight: they hold vm->lock. */
	mutex_lock(&vm->lock);
	if (drm_mm_node_allocated(&map->node) && map->size)
		ascend_pt_unmap(&vm->pt, map->node.start, map->size);
	if (c >= 0 && vm->nr_parked < ASCEND_VM_PARK_MAX &&
	    drm_mm_node_allocated(&map->node)) {
		map->size = 0;		/* every access faults from now on */
		map->ranges = NULL;
		map->nr_ranges = 0;
		map->parked = true;
		list_add(&map->park, &vm->parked[c]);
		vm->nr_parked++;
	} else {
		c = -1;
		if (drm_mm_node_allocated(&map->node))
			drm_mm_remove_node(&map->node);
	}
	mutex_unlock(&vm->lock);
	return c >= 0;
}

/* Move the parked mappings to @list, with @vm->lock held. */
static void ascend_vm_unpark_all_locked(struct ascend_vm *vm,
					struct list_head *list)
{
	struct ascend_vm_mapping *map, *next;
	unsigned int i;

	lockdep_assert_held(&vm->lock);
	for (i = 0; i < ASCEND_VM_PARK_CLASSES; i++) {
		list_for_each_entry_safe(map, next, &vm->parked[i], park) {
			drm_mm_remove_node(&map->node);
			list_move_tail(&map->park, list);
		}
	}
	vm->nr_parked = 0;
}

void ascend_vm_unpark_all(struct ascend_vm *vm, struct list_head *list)
{
	mutex_lock(&vm->lock);
	ascend_vm_unpark_all_locked(vm, list);
	mutex_unlock(&vm->lock);
}

int ascend_vm_map(struct ascend_vm *vm, struct ascend_vm_mapping *map,
		  const struct ascend_hbm_alloc *alloc)
{
	u64 span;
	int ret;

	if (check_add_overflow(alloc->size, (u64)ASCEND_VM_GUARD, &span))
		return -ENOSPC;

	memset(&map->node, 0, sizeof(map->node));
	ascend_vm_set_backing(map, alloc);

	mutex_lock(&vm->lock);
	if (!vm->size)
		ret = -ENXIO;
	else
		ret = drm_mm_insert_node_in_range(&vm->mm, &map->node, span,
						  alloc->page_size, 0,
						  vm->base, vm->base + vm->size,
						  DRM_MM_INSERT_BEST);
	if (!ret) {
		ret = ascend_vm_pt_map(vm, map, map->node.start);
		if (ret)
			drm_mm_remove_node(&map->node);
	}
	mutex_unlock(&vm->lock);
	return ret;
}

void ascend_vm_unmap(struct ascend_vm *vm, struct ascend_vm_mapping *map)
{
	/* Waits for device accesses in flight: they hold vm->lock. */
	mutex_lock(&vm->lock);
	if (drm_mm_node_allocated(&map->node)) {
		if (map->size)
			ascend_pt_unmap(&vm->pt, map->node.start, map->size);
		drm_mm_remove_node(&map->node);
	}
	mutex_unlock(&vm->lock);
}

int ascend_vm_reserve(struct ascend_vm *vm, struct ascend_vm_resv *resv,
		      u64 va, u64 size, u64 align)
{
	u64 end;
	int ret;

	memset(resv, 0, sizeof(*resv));
	resv->map.kind = ASCEND_VM_RESV;
	if (!size || check_add_overflow(va, size, &end))
		return -EINVAL;

	mutex_lock(&vm->lock);
	if (!vm->size) {
		ret = -ENXIO;
	} else if (va) {
		if (va < vm->base || end > vm->base + vm->size) {
			ret = -EINVAL;
		} else {
			resv->map.node.start = va;
			resv->map.node.size = size;
			ret = drm_mm_reserve_node(&vm->mm, &resv->map.node);
			if (ret == -ENOSPC)
				ret = -EEXIST;
		}
	} else {
		ret = drm_mm_insert_node_in_range(&vm->mm, &resv->map.node, size,
						  align, 0, vm->base,
						  vm->base + vm->size,
						  DRM_MM_INSERT_BEST);
	}
	if (!ret)
		resv->parts = RB_ROOT_CACHED;
	mutex_unlock(&vm->lock);
	return ret;
}

void ascend_vm_release_locked(struct ascend_vm *vm, struct ascend_vm_resv *resv)
{
	lockdep_assert_held(&vm->lock);
	WARN_ON(resv->nr_parts);
	if (vm->resv_hint == resv)
		vm->resv_hint = NULL;
	drm_mm_remove_node(&resv->map.node);
}

struct ascend_vm_resv *ascend_vm_find_resv_locked(struct ascend_vm *vm,
						  u64 va)
{
	struct ascend_vm_resv *resv = ascend_vm_resv_of_locked(vm, va, 1);

	return resv && resv->map.node.start == va ? resv : NULL;
}

struct ascend_vm_resv *ascend_vm_resv_of_locked(struct ascend_vm *vm,
						u64 va, u64 size)
{
	struct ascend_vm_mapping *map;
	struct drm_mm_node *node;
	u64 end;

	ascend_vm_assert_locked(vm);
	if (!vm->size || !size || check_add_overflow(va, size, &end) ||
	    va < vm->base || va - vm->base >= vm->size)
		return NULL;
	node = vm->resv_hint ? &vm->resv_hint->map.node : NULL;
	if (node && va >= node->start && end <= node->start + node->size)
		return vm->resv_hint;
	node = __drm_mm_interval_first(&vm->mm, va, va);
	if (!drm_mm_node_allocated(node) || end > node->start + node->size)
		return NULL;
	map = container_of(node, struct ascend_vm_mapping, node);
	if (map->kind != ASCEND_VM_RESV)
		return NULL;
	vm->resv_hint = container_of(map, struct ascend_vm_resv, map);
	return vm->resv_hint;
}

struct ascend_vm_mapping *ascend_vm_find_part_locked(struct ascend_vm_resv *resv,
						     u64 va)
{
	struct interval_tree_node *it;

	it = interval_tree_iter_first(&resv->parts, va, va);
	if (!it || it->start != va)
		return NULL;
	return container_of(it, struct ascend_vm_mapping, part);
}

int ascend_vm_map_part_locked(struct ascend_vm *vm, struct ascend_vm_resv *resv,
			      struct ascend_vm_mapping *part, u64 va)
{
	u64 last;
	int ret;

	lockdep_assert_held(&vm->lock);
	if (!part->size || check_add_overflow(va, part->size - 1, &last) ||
	    va < resv->map.node.start ||
	    last - resv->map.node.start >= resv->map.node.size)
		return -EINVAL;
	if (interval_tree_iter_first(&resv->parts, va, last))
		return -EEXIST;
	/* @node holds the range for the code shared with other kinds */
	memset(&part->node, 0, sizeof(part->node));
	part->node.start = va;
	part->node.size = part->size;
	part->kind = ASCEND_VM_PART;
	part->as = ASCEND_AS_HBM;
	if (!part->noaccess) {
		ret = ascend_vm_pt_map(vm, part, va);
		if (ret)
			return ret;
	}
	part->part.start = va;
	part->part.last = last;
	interval_tree_insert(&part->part, &resv->parts);
	resv->nr_parts++;
	return 0;
}

void ascend_vm_unmap_part_locked(struct ascend_vm *vm,
				 struct ascend_vm_resv *resv,
				 struct ascend_vm_mapping *part)
{
	lockdep_assert_held(&vm->lock);
	if (!part->noaccess)
		ascend_pt_unmap(&vm->pt, part->node.start, part->size);
	interval_tree_remove(&part->part, &resv->parts);
	resv->nr_parts--;
}

int ascend_vm_managed_insert(struct ascend_vm *vm,
			     struct ascend_vm_mapping *map, u64 size,
			     const struct ascend_hbm_range *chunks,
			     unsigned int nr_chunks)
{
	int ret;

	memset(map, 0, sizeof(*map));
	map->kind = ASCEND_VM_MANAGED;
	map->as = ASCEND_AS_HBM;
	map->size = size;
	map->ranges = chunks;
	map->nr_ranges = nr_chunks;
	mutex_lock(&vm->lock);
	if (!vm->size) {
		ret = -ENXIO;
	} else {
		ret = drm_mm_insert_node_in_range(&vm->mm, &map->node,
						  size + ASCEND_VM_GUARD, SZ_2M,
						  0, vm->base,
						  vm->base + vm->size,
						  DRM_MM_INSERT_BEST);
		/* the chunks' leaves need the tables' root */
		if (!ret) {
			ret = ascend_pt_ensure(&vm->pt);
			if (ret)
				drm_mm_remove_node(&map->node);
		}
	}
	mutex_unlock(&vm->lock);
	return ret;
}

void ascend_vm_managed_remove_locked(struct ascend_vm *vm,
				     struct ascend_vm_mapping *map)
{
	lockdep_assert_held(&vm->lock);
	if (drm_mm_node_allocated(&map->node))
		drm_mm_remove_node(&map->node);
}

struct ascend_vm_mapping *ascend_vm_mapping_at_locked(struct ascend_vm *vm,
						      u64 va)
{
	struct drm_mm_node *node;

	lockdep_assert_held(&vm->lock);
	if (!vm->size || va < vm->base || va - vm->base >= vm->size)
		return NULL;
	node = __drm_mm_interval_first(&vm->mm, va, va);
	if (!drm_mm_node_allocated(node))
		return NULL;
	return container_of(node, struct ascend_vm_mapping, node);
}

int ascend_vm_managed_map_locked(struct ascend_vm *vm, u64 va,
				 const struct ascend_hbm_alloc *alloc)
{
	lockdep_assert_held(&vm->lock);
	return ascend_pt_map(&vm->pt, va, alloc->ranges, alloc->nr_ranges,
			     alloc->size, ASCEND_AS_HBM, false);
}

void ascend_vm_managed_unmap_locked(struct ascend_vm *vm, u64 va, u64 size)
{
	lockdep_assert_held(&vm->lock);
	ascend_pt_unmap(&vm->pt, va, size);
}

int ascend_vm_protect_part_locked(struct ascend_vm *vm,
				  struct ascend_vm_mapping *part,
				  bool readonly, bool noaccess)
{
	bool was_readonly = part->readonly, was_noaccess = part->noaccess;
	int ret = 0;

	lockdep_assert_held(&vm->lock);
	if (!was_noaccess)
		ascend_pt_unmap(&vm->pt, part->node.start, part->size);
	part->readonly = readonly;
	part->noaccess = noaccess;
	if (!noaccess)
		ret = ascend_vm_pt_map(vm, part, part->node.start);
	if (ret) {
		/* as it was, if the tables can be had; else no access */
		part->readonly = was_readonly;
		part->noaccess = was_noaccess ||
			ascend_vm_pt_map(vm, part, part->node.start);
	}
	return ret;
}

/*
 * May [addr, end) be mapped as host memory?  0, -EINVAL or -EEXIST.
 * Orphaned mappings in the way do not count (ascend_vm_orphan_host()).
 */
static int ascend_vm_check_host_locked(struct ascend_vm *vm, u64 addr,
				       u64 end)
{
	struct interval_tree_node *it;

	if (vm->size && addr < vm->base + vm->size && vm->base < end)
		return -EINVAL;
	for (it = interval_tree_iter_first(&vm->host, addr, end - 1); it;
	     it = interval_tree_iter_next(it, addr, end - 1))
		if (!container_of(it, struct ascend_vm_mapping, host)->orphan)
			return -EEXIST;
	return 0;
}

/* Take orphaned mappings out of [addr, end): a new mapping goes there. */
static void ascend_vm_evict_orphans_locked(struct ascend_vm *vm, u64 addr,
					   u64 end)
{
	struct interval_tree_node *it, *next;

	for (it = interval_tree_iter_first(&vm->host, addr, end - 1); it;
	     it = next) {
		next = interval_tree_iter_next(it, addr, end - 1);
		ascend_pt_unmap(&vm->pt, it->start, it->last - it->start + 1);
		interval_tree_remove(it, &vm->host);
		RB_CLEAR_NODE(&it->rb);
		vm->nr_host--;
	}
}

void ascend_vm_orphan_host(struct ascend_vm *vm, struct ascend_vm_mapping *map)
{
	mutex_lock(&vm->lock);
	map->orphan = true;
	mutex_unlock(&vm->lock);
}

int ascend_vm_check_host(struct ascend_vm *vm, u64 addr, u64 size)
{
	u64 end;
	int ret;

	if (!size || check_add_overflow(addr, size, &end) ||
	    addr > ULONG_MAX || end - 1 > ULONG_MAX)
		return -EINVAL;
	mutex_lock(&vm->lock);
	ret = ascend_vm_check_host_locked(vm, addr, end);
	mutex_unlock(&vm->lock);
	return ret;
}

int ascend_vm_map_host(struct ascend_vm *vm, struct ascend_vm_mapping *map,
		       u64 addr, u64 size)
{
	u64 end;
	int ret = 0;

	if (!size || check_add_overflow(addr, size, &end) ||
	    addr > ULONG_MAX || end - 1 > ULONG_MAX)
		return -EINVAL;

	memset(&map->node, 0, sizeof(map->node));
	RB_CLEAR_NODE(&map->host.rb);
	map->host.start = addr;
	map->host.last = end - 1;
	map->size = size;
	map->as = ASCEND_AS_SYS;
	map->orphan = false;

	mutex_lock(&vm->lock);
	ret = ascend_vm_check_host_locked(vm, addr, end);
	if (!ret) {
		ascend_vm_evict_orphans_locked(vm, addr, end);
		ret = ascend_vm_pt_map(vm, map, addr);
	}
	if (!ret) {
		interval_tree_insert(&map->host, &vm->host);
		vm->nr_host++;
	}
	mutex_unlock(&vm->lock);
	return ret;
}

void ascend_vm_unmap_host(struct ascend_vm *vm, struct ascend_vm_mapping *map)
{
	/* Waits for device accesses in flight: they hold vm->lock. */
	mutex_lock(&vm->lock);
	if (!RB_EMPTY_NODE(&map->host.rb)) {
		ascend_pt_unmap(&vm->pt, map->host.start, map->size);
		interval_tree_remove(&map->host, &vm->host);
		RB_CLEAR_NODE(&map->host.rb);
		vm->nr_host--;
	}
	mutex_unlock(&vm->lock);
}

bool ascend_vm_claims_locked(struct ascend_vm *vm, u64 addr, u64 len)
{
	u64 end;

	ascend_vm_assert_locked(vm);

	if (!len || check_add_overflow(addr, len, &end))
		return true;	/* the MMU path reports -EINVAL */
	if (vm->size && addr < vm->base + vm->size && vm->base < end)
		return true;
	if (addr > ULONG_MAX)
		return false;
	return interval_tree_iter_first(&vm->host, addr,
					min_t(u64, end - 1, ULONG_MAX));
}

/* The host mapping holding all of [va, end), or ERR_PTR(-EFAULT). */
static struct ascend_vm_mapping *ascend_vm_lookup_host(struct ascend_vm *vm,
						       u64 va, u64 end,
						       u64 *offset)
{
	struct interval_tree_node *it;
	struct ascend_vm_mapping *map;

	if (va > ULONG_MAX)
		return ERR_PTR(-EFAULT);
	it = interval_tree_iter_first(&vm->host, va, va);
	if (!it)
		return ERR_PTR(-EFAULT);
	map = container_of(it, struct ascend_vm_mapping, host);
	if (end - 1 > it->last)
		return ERR_PTR(-EFAULT);
	*offset = va - it->start;
	return map;
}

struct ascend_vm_mapping *ascend_vm_lookup_access_locked(struct ascend_vm *vm,
							 u64 va, u64 len,
							 bool write,
							 u64 *offset)
{
	struct ascend_vm_mapping *map;

	map = ascend_vm_lookup_locked(vm, va, len, offset);
	if (!IS_ERR(map) && write && map->readonly)
		return ERR_PTR(-EFAULT);
	return map;
}

/* The part of @resv holding @va, and how much of [va, va + len) it holds. */
static struct ascend_vm_mapping *ascend_vm_part_piece(struct ascend_vm_resv *resv,
						      u64 va, u64 len,
						      u64 *offset, u64 *avail)
{
	struct interval_tree_node *it;
	struct ascend_vm_mapping *part;

	it = interval_tree_iter_first(&resv->parts, va, va);
	if (!it)
		return ERR_PTR(-EFAULT);
	part = container_of(it, struct ascend_vm_mapping, part);
	if (part->noaccess)
		return ERR_PTR(-EFAULT);
	*offset = va - it->start;
	*avail = min(len, part->size - *offset);
	return part;
}

/* Is every chunk of [@off, @off + @len) of managed @map on the device? */
static bool ascend_vm_managed_present(const struct ascend_vm_mapping *map,
				      u64 off, u64 len)
{
	u64 c, last = (off + len - 1) / DRM_ASCEND_MANAGED_CHUNK;

	for (c = off / DRM_ASCEND_MANAGED_CHUNK; c <= last; c++)
		if (map->ranges[c].size != DRM_ASCEND_MANAGED_CHUNK)
			return false;
	return true;
}

/*
 * The mapping holding @va, the offset of @va in it, and how many bytes of
 * [va, va + len) it holds (*@avail): all of them, except for a part of a
 * reservation, whose neighbours may hold the rest (the caller looks them
 * up in turn).  ERR_PTR(-EFAULT) when @va is not mapped or the range runs
 * past a mapping that has no neighbour, ERR_PTR(-EINVAL) for len 0 or
 * overflow.  @vm->lock held.
 */
struct ascend_vm_mapping *ascend_vm_piece_locked(struct ascend_vm *vm,
						 u64 va, u64 len, u64 *offset,
						 u64 *avail)
{
	struct drm_mm_node *node;
	struct ascend_vm_mapping *map;
	u64 end;

	ascend_vm_assert_locked(vm);

	if (!len || check_add_overflow(va, len, &end))
		return ERR_PTR(-EINVAL);
	*avail = len;
	/* Outside the window: pinned host memory, or nothing. */
	if (!vm->size || va < vm->base || va - vm->base >= vm->size)
		return ascend_vm_lookup_host(vm, va, end, offset);

	node = __drm_mm_interval_first(&vm->mm, va, va);
	if (!drm_mm_node_allocated(node))
		return ERR_PTR(-EFAULT);

	map = container_of(node, struct ascend_vm_mapping, node);
	if (map->kind == ASCEND_VM_RESV)
		return ascend_vm_part_piece(container_of(map, struct ascend_vm_resv,
							 map),
					    va, len, offset, avail);
	/* The node's tail is the guard: not mapped.  Freed memory neither. */
	if (va - node->start >= map->size || end - node->start > map->size ||
	    map->idle)
		return ERR_PTR(-EFAULT);
	/* managed memory: only chunks on the device (a range of size 0: not) */
	if (map->kind == ASCEND_VM_MANAGED &&
	    !ascend_vm_managed_present(map, va - node->start, len))
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
			segs[n].as = map->as;
		}
		n++;
		offset += chunk;
		len -= chunk;
	}
	return n;
}

/*
 * Walk [va, va + len) mapping by mapping: fills up to @max_segs entries of
 * @segs (NULL to count) and returns how many the range needs, or -EFAULT
 * / -EINVAL as ascend_vm_piece_locked() (-EFAULT also for a write to a
 * read-only mapping when @write).
 */
static int ascend_vm_walk_locked(struct ascend_vm *vm, u64 va, u64 len,
				 bool write, struct ascend_vm_seg *segs,
				 unsigned int max_segs)
{
	struct ascend_vm_mapping *map;
	unsigned int n = 0;
	u64 offset, avail;

	do {
		map = ascend_vm_piece_locked(vm, va, len, &offset, &avail);
		if (IS_ERR(map))
			return PTR_ERR(map);
		if (write && map->readonly)
			return -EFAULT;
		n += ascend_vm_segments(map, offset, avail,
					segs && n < max_segs ? segs + n : NULL,
					n < max_segs ? max_segs - n : 0);
		/* a part ends inside the window: no wrap */
		va += avail;
		len -= avail;
	} while (len);
	return n;
}

int ascend_vm_translate_locked(struct ascend_vm *vm, u64 va, u64 len,
			       struct ascend_vm_seg *segs, unsigned int max_segs)
{
	int n = ascend_vm_walk_locked(vm, va, len, false, segs, max_segs);

	if (n > (int)max_segs)
		return -E2BIG;
	return n;
}

int ascend_vm_translate_alloc_locked(struct ascend_vm *vm, u64 va, u64 len,
				     struct ascend_vm_seg **segs)
{
	return ascend_vm_translate_access_locked(vm, va, len, false, segs);
}

int ascend_vm_translate_access_locked(struct ascend_vm *vm, u64 va, u64 len,
				      bool write, struct ascend_vm_seg **segs)
{
	int n;

	*segs = NULL;
	n = ascend_vm_walk_locked(vm, va, len, write, NULL, 0);
	if (n < 0)
		return n;
	*segs = kvmalloc_array(n, sizeof(**segs), GFP_KERNEL_ACCOUNT);
	if (!*segs)
		return -ENOMEM;
	return ascend_vm_walk_locked(vm, va, len, write, *segs, n);
}

int ascend_vm_span_locked(struct ascend_vm *vm, u64 va, u64 len, bool write,
			  struct ascend_dma_span *span)
{
	const struct ascend_hbm_range *r;
	struct ascend_vm_mapping *map;
	u64 offset, avail, in;

	map = ascend_vm_piece_locked(vm, va, len, &offset, &avail);
	if (IS_ERR(map))
		return PTR_ERR(map);
	if (write && map->readonly)
		return -EFAULT;
	/* the first segment ascend_vm_segments() would give, without a walk */
	r = &map->ranges[ascend_vm_find_range(map, offset)];
	in = offset - r->offset;
	span->addr = r->addr + in;
	span->len = min(avail, r->size - in);
	span->as = map->as;
	return 0;
}

int ascend_vm_rw(struct ascend_vm *vm, u64 va, void *buf, size_t len,
		 bool write)
{
	int ret;

	mutex_lock(&vm->lock);
	ret = ascend_vm_rw_locked(vm, va, buf, len, write);
	mutex_unlock(&vm->lock);
	return ret;
}

int ascend_vm_rw_locked(struct ascend_vm *vm, u64 va, void *buf, size_t len,
			bool write)
{
	struct ascend_device *adev = vm->adev;
	struct ascend_vm_mapping *map;
	u64 offset, avail;
	unsigned int i;
	int ret;

	/*
	 * The whole range is checked before any byte moves: by the first
	 * look-up when one mapping holds it all (every access but one that
	 * crosses parts of a reservation), else by a walk first.
	 */
	map = ascend_vm_piece_locked(vm, va, len, &offset, &avail);
	if (IS_ERR(map))
		return PTR_ERR(map);
	if (write && map->readonly)
		return -EFAULT;
	if (avail != len) {
		ret = ascend_vm_walk_locked(vm, va, len, write, NULL, 0);
		if (ret < 0)
			return ret;
	}

	while (len) {
		if (!map) {
			map = ascend_vm_piece_locked(vm, va, len, &offset, &avail);
			if (IS_ERR(map))
				return PTR_ERR(map);
		}
		if (map->as == ASCEND_AS_SYS && !adev->hw_ops->sys_rw)
			return -EFAULT;
		va += avail;
		len -= avail;
		i = ascend_vm_find_range(map, offset);
		while (avail) {
			const struct ascend_hbm_range *r = &map->ranges[i++];
			u64 in = offset - r->offset;
			size_t chunk = min_t(u64, avail, r->size - in);

			if (map->as == ASCEND_AS_SYS)
				ret = adev->hw_ops->sys_rw(adev->hw, r->addr + in,
						       buf, chunk, write);
			else
				ret = adev->hw_ops->hbm_rw(adev->hw, r->addr + in,
						       buf, chunk, write);
			if (ret)
				return ret;
			buf += chunk;
			offset += chunk;
			avail -= chunk;
		}
		map = NULL;
	}
	return 0;
}
