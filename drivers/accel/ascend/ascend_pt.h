/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The page-table writer: the driver's side of the device MMU.
 *
 * Every mapping ascend_vm.c makes (buffer objects, IPC imports, pinned
 * host memory) is also written as descriptors into page tables in device
 * memory, in the format of ascend_hw.h / Documentation/hardware.rst
 * ("Device MMU"), which the device walks.  The VA bookkeeping of
 * ascend_vm.c (drm_mm, interval tree) stays the driver's own; the device
 * never reads it.
 *
 * Table pages come from the page-table memory of the device, a region
 * just above the HBM the buddy allocator manages
 * ([hbm size, hbm size + ascend_mmu_table_mem_size())), so tables never take or
 * fragment memory users allocate, and free-memory figures stay exact.
 *
 * A device without page-table memory (&ascend_pt_pool.npages 0: only the
 * KUnit suites' bookkeeping fakes, which have no device) gets no tables:
 * mapping and unmapping then only keep the driver's bookkeeping.  Probe
 * fails without it, so a real device always has it.
 */
#ifndef __ASCEND_PT_H__
#define __ASCEND_PT_H__

#include <linux/bitmap.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "ascend_hw.h"

struct ascend_device;
struct ascend_hbm_range;

/**
 * struct ascend_pt_pool - the page-table memory of one device
 * @lock: protects @bitmap, @used and @hint
 * @base: device-physical address of the first table page (the HBM size)
 * @npages: table pages in the region
 * @used: table pages allocated
 * @hint: where the next search for a free page starts
 * @bitmap: allocated pages
 * @asids: address space ids in use (1 .. ASCEND_MMU_ASID_MAX)
 */
struct ascend_pt_pool {
	spinlock_t lock;	/* protects bitmap, used, hint */
	u64 base;
	unsigned long npages;
	unsigned long used;
	unsigned long hint;
	unsigned long *bitmap;
	struct ida asids;
};

/**
 * struct ascend_pt_node - the driver's record of one table page
 * @addr: device-physical address of the page
 * @cpu: the page through the aperture (&ascend_hw_ops.hbm_map_page), or
 *	NULL: descriptors are then written with hbm_rw
 * @nr_valid: valid descriptors in it
 * @valid: which descriptors are valid
 * @child: levels 0..2: the next-level table of each table descriptor
 *	(NULL for a leaf or an invalid one); NULL at level 3
 * @parent: the table whose descriptor @pidx points here (NULL: the root)
 * @pidx: that descriptor's index
 * @empty: link in &ascend_pt.empty while the table is empty but kept
 */
struct ascend_pt_node {
	u64 addr;
	__le64 *cpu;
	unsigned int nr_valid;
	DECLARE_BITMAP(valid, ASCEND_MMU_ENTRIES);
	struct ascend_pt_node **child;
	struct ascend_pt_node *parent;
	unsigned int pidx;
	struct list_head empty;
};

/*
 * Empty tables an address space keeps linked for its next mapping nearby
 * (an allocation freed and made again in the same place then writes one
 * descriptor each way instead of creating and freeing up to three
 * tables); the oldest beyond this many are freed.
 */
#define ASCEND_PT_KEEP_EMPTY	8

/**
 * struct ascend_pt - the page tables of one address space
 * @adev: the device
 * @root: the level-0 table, NULL until the first mapping
 * @asid: its address space id, 0 until then
 * @peers: device-physical address of the peer window table, 0 if none
 * @nr_pages: table pages held (the root, the tables, the peer window
 *	table): the file's charge of page-table memory
 * @empty: empty tables kept, oldest first (at most %ASCEND_PT_KEEP_EMPTY
 *	after every map and unmap)
 * @nr_empty: entries in @empty
 * @live: table updates run in a drm_dev_enter() section that began while
 *	the device was there (their own, or their caller's: see
 *	ascend_pt_section_begin()): its memory and registers may be used
 * @hint: per level (1..3): the table of that level last written, or NULL;
 *	a mapping that fits in the region it covers starts its walk there
 *	(a map or unmap of 2 MiB writes one level-2 descriptor and need not
 *	walk levels 0 and 1 again)
 * @hint_va: per level: the first VA that table maps
 *
 * Protected by the lock of the owning address space (&ascend_vm.lock);
 * @peers and its content also by ascend_peer_rwsem held for writing.
 */
struct ascend_pt {
	struct ascend_device *adev;
	struct ascend_pt_node *root;
	u32 asid;
	u64 peers;
	unsigned long nr_pages;
	struct list_head empty;
	unsigned int nr_empty;
	bool live;
	struct ascend_pt_node *hint[ASCEND_MMU_LEVELS];
	u64 hint_va[ASCEND_MMU_LEVELS];
};

/* The device's page-table memory; managed (drmm). */
int ascend_pt_pool_init(struct ascend_device *adev);
/* The same, unmanaged (devices without DRM: KUnit); undo with _release. */
int ascend_pt_pool_setup(struct ascend_pt_pool *pool, u64 hbm_size);
void ascend_pt_pool_release(struct ascend_pt_pool *pool);

void ascend_pt_init(struct ascend_pt *pt, struct ascend_device *adev);

/*
 * The caller holds a drm_dev_enter() section of the device (an ioctl run
 * by ascend_ioctl_hw()) for the table updates it makes until
 * ascend_pt_section_end(): they need none of their own.  Both under the
 * address space's lock.
 */
static inline void ascend_pt_section_begin(struct ascend_pt *pt)
{
	pt->live = true;
}

static inline void ascend_pt_section_end(struct ascend_pt *pt)
{
	pt->live = false;
}

/*
 * A zeroed page of page-table memory for another table the device reads
 * (the event tables): its device-physical address, or 0 when none is
 * free.  Process context.
 */
u64 ascend_pt_pool_page_alloc(struct ascend_device *adev);
void ascend_pt_pool_page_free(struct ascend_device *adev, u64 addr);

/* Frees every table and the ASID; nothing of it may be in use. */
void ascend_pt_fini(struct ascend_pt *pt);

/* Allocate the root and the ASID if not yet done: 0, -ENOSPC, -ENOMEM. */
int ascend_pt_ensure(struct ascend_pt *pt);

/*
 * Map [@va, @va + size of @ranges) to the device-physical @ranges (sorted
 * by offset, covering the range from offset 0 without gaps) in address
 * space @as, writable unless @readonly, with the largest leaves the
 * alignment of VA and output address allows.  Every byte must be
 * unmapped: -EEXIST otherwise (nothing changes then).  -EINVAL for a
 * range beyond the 48-bit VA, a misaligned one or an output address the
 * descriptors cannot hold; -ENOSPC when page-table memory is exhausted;
 * -ENOMEM.  On failure nothing stays mapped.
 */
int ascend_pt_map(struct ascend_pt *pt, u64 va,
		  const struct ascend_hbm_range *ranges, unsigned int nr_ranges,
		  u64 size, u32 as, bool readonly);

/*
 * Remove every leaf in [@va, @va + @size) (which must cover whole leaves),
 * free the tables that become empty (beyond %ASCEND_PT_KEEP_EMPTY kept)
 * and invalidate the device's TLB for the range.  Never fails; unmapped
 * parts are skipped.
 */
void ascend_pt_unmap(struct ascend_pt *pt, u64 va, u64 size);

/* Free the kept empty tables beyond @keep (0: all of them). */
void ascend_pt_trim(struct ascend_pt *pt, unsigned int keep);

/*
 * Write the peer window table: @n entries (at most ASCEND_MMU_PEER_MAX;
 * 0 frees it) and tell the device.  0, -ENOSPC, -ENOMEM, -EINVAL.
 */
int ascend_pt_set_peers(struct ascend_pt *pt,
			const struct ascend_mmu_peer_entry *e, unsigned int n);

/* Device-physical address of the level-0 table (0 if none). */
static inline u64 ascend_pt_root_addr(const struct ascend_pt *pt)
{
	return pt->root ? pt->root->addr : 0;
}

#endif /* __ASCEND_PT_H__ */
