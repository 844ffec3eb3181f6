/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device MMU: one address space per open file.
 *
 * User space reserves a window of its own address space and registers it;
 * device allocations get VAs inside it from a drm_mm, so a device pointer is
 * a unique host address that faults when the host touches it.  Every device
 * access by VA goes through ascend_vm_translate(): an unmapped byte is a
 * device fault (-EFAULT), never a host crash.
 *
 * Pinned host memory (ascend_host.c) is mapped too, at its host address,
 * outside the window: a second index (an interval tree keyed by host
 * address) holds those mappings.  Translation yields segments tagged with
 * their address space: HBM offsets, or bus addresses of host pages (SYS).
 */
#ifndef __ASCEND_VM_H__
#define __ASCEND_VM_H__

#include <drm/drm_mm.h>
#include <linux/err.h>
#include <linux/interval_tree.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include "ascend_hw.h"
#include "ascend_pt.h"

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

/*
 * Parked VA ranges: the node of a freed normal-page mapping of at most
 * 64 KiB stays in the drm_mm (faulting: it maps nothing) for the next
 * mapping of the same size, which then costs no drm_mm insert and remove.
 * At most ASCEND_VM_PARK_MAX per address space; they are given up when
 * the window is full and before the address space goes.
 */
#define ASCEND_VM_PARK_CLASSES		16	/* 4 KiB .. 64 KiB */
#define ASCEND_VM_PARK_MAX		256

/**
 * struct ascend_vm - a device address space
 * @adev: the device
 * @lock: protects @base, @size, @mm, @host, @parked, @nr_parked,
 *	@resv_hint, @pt and the mappings (the nodes in @mm and @host and what
 *	they point at).  Never held while taking a process's mmap_lock
 *	(munmap of pinned host memory takes it under the mmap_lock).
 * @base: start of the VA window, 0 until registered
 * @size: size of the VA window, 0 until registered
 * @mm: VA allocator over the window; each node is one mapping
 * @host: host-memory mappings by host address (interval tree, O(log n));
 *	they never overlap each other or the window
 * @nr_host: mappings in @host
 * @parked: parked mappings (&ascend_vm_mapping.park) by size class
 * @nr_parked: mappings in @parked
 * @resv_hint: the reservation found last, or NULL: looked at first (a
 *	pool maps and unmaps in the same reservation again and again)
 * @pt: the page tables the device walks (ascend_pt.h): every mapping in
 *	@mm and @host is written there too, under @lock
 */
struct ascend_vm {
	struct ascend_device *adev;
	struct mutex lock;	/* protects the window and mappings */
	u64 base;
	u64 size;
	struct drm_mm mm;
	struct rb_root_cached host;
	unsigned long nr_host;
	struct list_head parked[ASCEND_VM_PARK_CLASSES];
	unsigned int nr_parked;
	struct ascend_vm_resv *resv_hint;
	struct ascend_pt pt;
};

/**
 * struct ascend_vm_seg - a device-physical piece of a translated range
 * @addr: device-physical address in address space @as
 * @len: bytes
 * @as: %ASCEND_AS_HBM (an HBM offset; zero, so {addr, len} means HBM) or
 *	%ASCEND_AS_SYS (a bus address of pinned host memory)
 */
struct ascend_vm_seg {
	u64 addr;
	u64 len;
	u32 as;
};

/**
 * struct ascend_vm_mapping - memory mapped into an address space
 * @node: device memory: the VA range (the mapping plus %ASCEND_VM_GUARD)
 * @host: host memory: the host range [start, last] in &ascend_vm.host
 * @part: a part of a reservation (%ASCEND_VM_PART): its VA range
 *	[start, last] in &ascend_vm_resv.parts
 * @size: bytes mapped, from the start (@node.start or @host.start)
 * @ranges: device-physical backing, sorted by offset, covering @size
 * @nr_ranges: entries in @ranges
 * @as: address space of @ranges (%ASCEND_AS_HBM or %ASCEND_AS_SYS)
 * @readonly: the device may only read (translation for a write faults)
 * @orphan: host memory the process gave up (unregistered, or its last
 *	mmap gone) whose removal waits for queued commands: a new host
 *	mapping of the same address replaces it (under &ascend_vm.lock)
 * @parked: the VA range is parked: @size is 0 (every access faults) and
 *	@park links it in &ascend_vm.parked
 * @idle: mapped, but its memory was freed and is kept for a reuse
 *	(ascend_gem.c): the driver's look-ups fault (under &ascend_vm.lock)
 * @noaccess: a mapping in a reservation whose access is NONE: its page
 *	tables are empty and the driver's look-ups fault
 * @kind: what the mapping is (&enum ascend_vm_kind)
 * @park: link in &ascend_vm.parked
 */
struct ascend_vm_mapping {
	struct drm_mm_node node;
	union {
		struct interval_tree_node host;
		struct interval_tree_node part;
	};
	u64 size;
	const struct ascend_hbm_range *ranges;
	unsigned int nr_ranges;
	u32 as;
	bool readonly;
	bool orphan;
	bool parked;
	bool idle;
	bool noaccess;
	u8 kind;
	struct list_head park;
};

/**
 * enum ascend_vm_kind - what an &ascend_vm_mapping is
 * @ASCEND_VM_BO: a buffer object's (ascend_gem.c) or pinned host memory
 *	(ascend_host.c); the default, 0
 * @ASCEND_VM_RESV: the VA range of a reservation (&struct ascend_vm_resv):
 *	maps nothing itself (size 0); its parts do
 * @ASCEND_VM_PART: a mapping inside a reservation (ascend_vmm.c), a node
 *	of &ascend_vm_resv.parts, with no guard: parts that abut form one
 *	contiguous range
 * @ASCEND_VM_MANAGED: the VA range of a managed allocation
 *	(ascend_managed.c): @ranges has one entry per 2 MiB chunk, of size 0
 *	while the chunk is not on the device (the driver's look-ups fault
 *	there); the managed code writes the chunks' leaves
 */
enum ascend_vm_kind {
	ASCEND_VM_BO = 0,
	ASCEND_VM_RESV,
	ASCEND_VM_PART,
	ASCEND_VM_MANAGED,
};

/**
 * struct ascend_vm_resv - a reserved VA range (DRM_IOCTL_ASCEND_VA_RESERVE)
 * @map: its node in &ascend_vm.mm, of kind %ASCEND_VM_RESV
 * @parts: the mappings inside it, an interval tree of their
 *	&ascend_vm_mapping.part (under &ascend_vm.lock): lighter than a
 *	drm_mm, whose hole bookkeeping was a fifth of a map + unmap pair and
 *	buys nothing here, where every range is given
 * @nr_parts: nodes in @parts
 */
struct ascend_vm_resv {
	struct ascend_vm_mapping map;
	struct rb_root_cached parts;
	unsigned int nr_parts;
};

/*
 * Reserve [@va, @va + @size) of the window (@va 0: anywhere, aligned to
 * @align).  -ENXIO without a window, -EINVAL outside it, -EEXIST if a
 * wanted range is taken, -ENOSPC if no range is free.
 */
int ascend_vm_reserve(struct ascend_vm *vm, struct ascend_vm_resv *resv,
		      u64 va, u64 size, u64 align);
/* Give @resv back (it has no parts left); @vm->lock held. */
void ascend_vm_release_locked(struct ascend_vm *vm, struct ascend_vm_resv *resv);
/* The reservation starting at @va, or NULL; @vm->lock held. */
struct ascend_vm_resv *ascend_vm_find_resv_locked(struct ascend_vm *vm,
						  u64 va);
/*
 * The reservation holding all of [@va, @va + @size), or NULL; @vm->lock
 * held.
 */
/*
 * The caller is in a drm_dev_enter() section of the device until
 * ascend_vm_section_end_locked(): the table updates need none of their own
 * (ascend_pt_section_begin()).
 */
static inline void ascend_vm_section_begin_locked(struct ascend_vm *vm)
{
	ascend_pt_section_begin(&vm->pt);
}

static inline void ascend_vm_section_end_locked(struct ascend_vm *vm)
{
	ascend_pt_section_end(&vm->pt);
}

struct ascend_vm_resv *ascend_vm_resv_of_locked(struct ascend_vm *vm,
						u64 va, u64 size);
/* The part of @resv starting at @va, or NULL; @vm->lock held. */
struct ascend_vm_mapping *ascend_vm_find_part_locked(struct ascend_vm_resv *resv,
						     u64 va);
/*
 * Map @part, which is not mapped anywhere (its @ranges, @nr_ranges, @size
 * and @readonly / @noaccess set by the caller), at @va inside @resv, with
 * @vm->lock held: -EEXIST if part of the range is mapped, -ENOMEM for
 * page tables.
 */
int ascend_vm_map_part_locked(struct ascend_vm *vm, struct ascend_vm_resv *resv,
			      struct ascend_vm_mapping *part, u64 va);
/* Undo ascend_vm_map_part_locked(); the device faults there at once. */
void ascend_vm_unmap_part_locked(struct ascend_vm *vm,
				 struct ascend_vm_resv *resv,
				 struct ascend_vm_mapping *part);
/*
 * A managed allocation's VA range: @size bytes (a multiple of 2 MiB, so
 * aligned) plus the guard, in @map, of kind %ASCEND_VM_MANAGED, backed by
 * @chunks (one HBM range per 2 MiB chunk, offsets set; size 0 for a chunk
 * not on the device, which the driver's look-ups fault on).  -ENXIO
 * without a window, -ENOSPC if no range is free, -ENOMEM
 * for the page tables' root.
 */
int ascend_vm_managed_insert(struct ascend_vm *vm,
			     struct ascend_vm_mapping *map, u64 size,
			     const struct ascend_hbm_range *chunks,
			     unsigned int nr_chunks);
/* Give the range back; its chunks were unmapped; @vm->lock held. */
void ascend_vm_managed_remove_locked(struct ascend_vm *vm,
				     struct ascend_vm_mapping *map);
/* The mapping whose VA range (guard included) holds @va, or NULL. */
struct ascend_vm_mapping *ascend_vm_mapping_at_locked(struct ascend_vm *vm,
						      u64 va);
/* Write / clear the leaves of HBM @alloc at @va (a managed chunk). */
int ascend_vm_managed_map_locked(struct ascend_vm *vm, u64 va,
				 const struct ascend_hbm_alloc *alloc);
void ascend_vm_managed_unmap_locked(struct ascend_vm *vm, u64 va, u64 size);

/* Rewrite @part's page tables for @readonly / @noaccess; @vm->lock held. */
int ascend_vm_protect_part_locked(struct ascend_vm *vm,
				  struct ascend_vm_mapping *part,
				  bool readonly, bool noaccess);

/* Start address of @map in its address space (VA or host address). */
static inline u64 ascend_vm_mapping_start(const struct ascend_vm_mapping *map)
{
	return map->as == ASCEND_AS_HBM ? map->node.start : map->host.start;
}

void ascend_vm_init(struct ascend_vm *vm, struct ascend_device *adev);
void ascend_vm_fini(struct ascend_vm *vm);

/* Window rules without side effects: 0 or -EINVAL. */
int ascend_vm_check_window(u64 base, u64 size, u32 flags, u32 pad);
/* Validate and register the window: -EINVAL, or -EBUSY if already set. */
int ascend_vm_set_window(struct ascend_vm *vm, u64 base, u64 size);

static inline bool ascend_vm_has_window(struct ascend_vm *vm)
{
	/* Set once, under the lock; mapping rechecks it there. */
	return READ_ONCE(vm->size) != 0;
}

/*
 * The ASID the device translates @vm's addresses with, its page tables
 * set up if they were not yet: fixed until the address space goes.
 * 0 and *@asid, or -ENOMEM / -ENOSPC.
 */
int ascend_vm_asid(struct ascend_vm *vm, u32 *asid);

/*
 * Map @alloc at a VA chosen in the window, aligned to its page size.
 * -ENXIO without a window, -ENOSPC when the window is full.  @map must
 * stay alive, and @alloc unchanged, until ascend_vm_unmap().
 */
int ascend_vm_map(struct ascend_vm *vm, struct ascend_vm_mapping *map,
		  const struct ascend_hbm_alloc *alloc);
void ascend_vm_unmap(struct ascend_vm *vm, struct ascend_vm_mapping *map);

/*
 * Unmap @map but keep its VA range parked for a later mapping of the same
 * size (ascend_vm_take_parked_locked()).  Returns false, with @map fully
 * unmapped as by ascend_vm_unmap(), when it does not qualify or the
 * address space has enough parked already.  A parked @map must stay
 * allocated until ascend_vm_unpark_all() hands it back.
 */
bool ascend_vm_unmap_park(struct ascend_vm *vm, struct ascend_vm_mapping *map);

/*
 * A parked mapping whose VA range fits @alloc, mapping @alloc now (as
 * ascend_vm_map() would), or NULL; with @vm->lock held.
 */
struct ascend_vm_mapping *ascend_vm_take_parked_locked(struct ascend_vm *vm,
						       const struct ascend_hbm_alloc *alloc);

/*
 * Remove every parked range from the address space and move the mappings
 * to @list (linked by &ascend_vm_mapping.park) for their owner to free.
 */
void ascend_vm_unpark_all(struct ascend_vm *vm, struct list_head *list);

/*
 * Map pinned host memory at its host address [@addr, @addr + @size): the
 * caller filled @map->ranges / @map->nr_ranges (bus addresses) and
 * @map->readonly.  -EINVAL if the range is empty, wraps or touches the VA
 * window; -EEXIST if it overlaps another host mapping.  Undo with
 * ascend_vm_unmap_host() (idempotent).
 */
int ascend_vm_map_host(struct ascend_vm *vm, struct ascend_vm_mapping *map,
		       u64 addr, u64 size);
/* The checks of ascend_vm_map_host() alone: 0, -EINVAL or -EEXIST. */
int ascend_vm_check_host(struct ascend_vm *vm, u64 addr, u64 size);
void ascend_vm_unmap_host(struct ascend_vm *vm, struct ascend_vm_mapping *map);

/*
 * The process gave up the host memory of @map: until its deferred unmap
 * runs, a new host mapping of an overlapping address takes its place (the
 * process may reuse the address at once).  The old pages stay pinned until
 * then, but are no longer reachable through this address space.
 */
void ascend_vm_orphan_host(struct ascend_vm *vm, struct ascend_vm_mapping *map);

/*
 * The *_locked lookups run with @vm->lock held, but not always by the
 * calling task: the DMA engines translate on behalf of the task that
 * submitted the job, which holds the lock for the job's whole duration
 * (ascend_copy.c).  So assert that the lock is held, not by whom.
 */
#define ascend_vm_assert_locked(vm) lockdep_assert(mutex_is_locked(&(vm)->lock))

/*
 * Does any byte of [addr, addr + len) fall in the VA window or a host
 * mapping of @vm, with @vm->lock held?  Such a range must be accessed
 * through the MMU; any other range is pageable host memory.
 */
bool ascend_vm_claims_locked(struct ascend_vm *vm, u64 addr, u64 len);

/*
 * Like ascend_vm_lookup_locked(), for an access that writes when @write:
 * ERR_PTR(-EFAULT) for a write to a read-only mapping.
 */
struct ascend_vm_mapping *ascend_vm_lookup_access_locked(struct ascend_vm *vm,
							 u64 va, u64 len,
							 bool write,
							 u64 *offset);

/*
 * The mapping holding @va and how many bytes of [va, va + len) it holds
 * (*@avail): see ascend_vm.c.  @vm->lock held.
 */
struct ascend_vm_mapping *ascend_vm_piece_locked(struct ascend_vm *vm,
						 u64 va, u64 len, u64 *offset,
						 u64 *avail);

/*
 * The mapping holding all of [va, va + len), with @vm->lock held; the
 * offset of @va in it goes to @offset.  ERR_PTR(-EFAULT) if any byte is
 * outside one mapping, ERR_PTR(-EINVAL) for len 0 or overflow.  Inline:
 * every free of an allocation looks it up.
 */
static inline struct ascend_vm_mapping *
ascend_vm_lookup_locked(struct ascend_vm *vm, u64 va, u64 len, u64 *offset)
{
	struct ascend_vm_mapping *map;
	u64 avail;

	map = ascend_vm_piece_locked(vm, va, len, offset, &avail);
	if (!IS_ERR(map) && avail != len)
		return ERR_PTR(-EFAULT);
	return map;
}

/*
 * Like ascend_vm_translate_locked(), into an array it allocates (free it
 * with kvfree()).  Returns the number of segments or a negative errno.
 */
int ascend_vm_translate_alloc_locked(struct ascend_vm *vm, u64 va, u64 len,
				     struct ascend_vm_seg **segs);
/* The same for an access that writes when @write (read-only faults). */
int ascend_vm_translate_access_locked(struct ascend_vm *vm, u64 va, u64 len,
				      bool write, struct ascend_vm_seg **segs);

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
 * Takes @vm->lock.  -EFAULT if any byte is unmapped or a write hits a
 * read-only mapping (nothing is written then), -EINVAL on overflow.
 */
int ascend_vm_rw(struct ascend_vm *vm, u64 va, void *buf, size_t len,
		 bool write);
/* The same with @vm->lock held by the caller. */
int ascend_vm_rw_locked(struct ascend_vm *vm, u64 va, void *buf, size_t len,
			bool write);

/*
 * The first device-physical piece of [va, va + len) (all of which must be
 * in one mapping, writable when @write), with @vm->lock held: -EFAULT,
 * -EINVAL as ascend_vm_lookup_access_locked().  For the DMA engines'
 * translation of %ASCEND_AS_VA.
 */
int ascend_vm_span_locked(struct ascend_vm *vm, u64 va, u64 len, bool write,
			  struct ascend_dma_span *span);

#endif /* __ASCEND_VM_H__ */
