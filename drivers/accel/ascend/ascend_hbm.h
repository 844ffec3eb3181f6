/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HBM manager: device memory ranges on gpu_buddy, page-size classes
 * and accounting.
 *
 * Pure bookkeeping: it hands out device-physical ranges and never touches
 * the memory itself, so it is tested by KUnit without a device.
 */
#ifndef __ASCEND_HBM_H__
#define __ASCEND_HBM_H__

#include <linux/gpu_buddy.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/types.h>

/* Page classes of device memory. */
#define ASCEND_HBM_PAGE_NORMAL	SZ_4K
#define ASCEND_HBM_PAGE_HUGE	SZ_2M
#define ASCEND_HBM_PAGE_HUGE1G	SZ_1G

/* HUGE_FIRST uses huge pages only for requests above this size. */
#define ASCEND_HBM_HUGE_THRESHOLD	SZ_1M

/*
 * Small-block cache: a freed allocation that is a single buddy block of at
 * most 64 KiB is kept off the buddy allocator (up to 4 MiB per device), so
 * the next allocation of that size takes it back without splitting a large
 * free block down and merging it up again.  Cached blocks are free memory:
 * they are in no counter of used bytes, and they go back to the buddy
 * before any allocation would fail and before free space is reported.
 */
#define ASCEND_HBM_CACHE_ORDERS		5	/* 4 KiB .. 64 KiB */
#define ASCEND_HBM_CACHE_MAX_BYTES	SZ_4M

/* Accounting classes: one per page size. */
enum ascend_hbm_class {
	ASCEND_HBM_CLASS_NORMAL,
	ASCEND_HBM_CLASS_HUGE,
	ASCEND_HBM_CLASS_HUGE1G,
	ASCEND_HBM_NR_CLASSES,
};

/* &ascend_hbm_alloc.flags: DRM_ASCEND_BO_* flags, recorded as given. */

/**
 * struct ascend_hbm - device memory of one NPU
 * @lock: protects @mm, @used, @used_class, @used_p2p, @nr_allocs, @cache
 *	and @cached (gpu_buddy leaves locking to its user)
 * @mm: the buddy allocator over [0, @size)
 * @size: bytes of HBM
 * @used: bytes allocated
 * @used_class: bytes allocated per &enum ascend_hbm_class
 * @used_p2p: bytes allocated per class with %DRM_ASCEND_BO_P2P
 * @nr_allocs: live allocations
 * @cache: free blocks kept off the buddy, by order (one list per order of
 *	the normal page, linked through &gpu_buddy_block.link)
 * @cached: bytes in @cache (free memory, counted in no used counter)
 */
struct ascend_hbm {
	struct mutex lock;	/* protects mm and the counters */
	struct gpu_buddy mm;
	u64 size;
	u64 used;
	u64 used_class[ASCEND_HBM_NR_CLASSES];
	u64 used_p2p[ASCEND_HBM_NR_CLASSES];
	u64 nr_allocs;
	struct list_head cache[ASCEND_HBM_CACHE_ORDERS];
	u64 cached;
};

/**
 * struct ascend_hbm_stats - a consistent snapshot of the HBM manager
 * @total: bytes of HBM
 * @used: bytes allocated
 * @free: bytes not allocated
 * @used_class: bytes allocated per &enum ascend_hbm_class
 * @used_p2p: of those, bytes allocated with %DRM_ASCEND_BO_P2P
 * @free_class: free bytes usable by each class: all free bytes for
 *	normal pages, free bytes in buddy blocks of at least 2 MiB for huge
 *	pages, of at least 1 GiB for 1 GiB pages.  An allocation of N bytes
 *	of a class succeeds iff N rounded to the class's page size is at most
 *	this (the buddy allocator need not return contiguous memory).
 * @largest_free: bytes in the largest free buddy block (the largest
 *	physically contiguous allocation possible right now)
 * @nr_allocs: live allocations
 */
struct ascend_hbm_stats {
	u64 total;
	u64 used;
	u64 free;
	u64 used_class[ASCEND_HBM_NR_CLASSES];
	u64 used_p2p[ASCEND_HBM_NR_CLASSES];
	u64 free_class[ASCEND_HBM_NR_CLASSES];
	u64 largest_free;
	u64 nr_allocs;
};

/**
 * struct ascend_hbm_range - a physically contiguous piece of an allocation
 * @offset: offset of the piece inside the allocation
 * @addr: device-physical (HBM) address
 * @size: bytes
 */
struct ascend_hbm_range {
	u64 offset;
	u64 addr;
	u64 size;
};

/**
 * struct ascend_hbm_alloc - one allocation
 * @blocks: the gpu_buddy blocks, owned by the allocation
 * @ranges: the blocks as ranges sorted by @offset, physically adjacent
 *	blocks merged; they cover [0, @size) without gaps
 * @nr_ranges: entries in @ranges
 * @one_range: storage for @ranges when there is only one (no allocation)
 * @size: bytes reserved (the request rounded up to @page_size)
 * @page_size: page class of the backing (ASCEND_HBM_PAGE_*)
 * @policy: the &enum drm_ascend_bo_policy it was allocated under
 * @flags: DRM_ASCEND_BO_* flags it was allocated with
 */
struct ascend_hbm_alloc {
	struct list_head blocks;
	struct ascend_hbm_range *ranges;
	unsigned int nr_ranges;
	struct ascend_hbm_range one_range;
	u64 size;
	u64 page_size;
	u32 policy;
	u32 flags;
};

int ascend_hbm_init(struct ascend_hbm *hbm, u64 size);
void ascend_hbm_fini(struct ascend_hbm *hbm);

/*
 * Page size tried first for @policy and @size, and the fallback page size
 * (0 if none).  -EINVAL for an unknown policy.
 */
int ascend_hbm_policy_pages(u32 policy, u64 size, u64 *first, u64 *fallback);

/*
 * Allocate @size bytes (> 0) under the page-size @policy (enum
 * drm_ascend_bo_policy) into @alloc.  -ENOSPC when the device memory cannot
 * satisfy it, -EINVAL for a bad policy or size, -ENOMEM without kernel memory.
 *
 * Rounding: the size is rounded up to the page size chosen (4 KiB, 2 MiB or
 * 1 GiB); CANN's 32-byte rounding and padding are user space's business
 * (libaclrt asks for the padded size).  Policies, as CANN documents them:
 * HUGE_FIRST gives normal pages to requests up to 1 MiB, tries huge pages
 * for larger ones and falls back to normal pages when no huge block is
 * free; HUGE_ONLY and HUGE1G_ONLY fail rather than fall back.
 *
 * @flags: %DRM_ASCEND_BO_P2P or 0 (anything else is -EINVAL): accepted,
 * recorded and accounted; every allocation is peer-accessible memory on
 * this device, so P2P changes nothing else.
 */
int ascend_hbm_alloc_flags(struct ascend_hbm *hbm, u64 size, u32 policy,
			   u32 flags, struct ascend_hbm_alloc *alloc);
static inline int ascend_hbm_alloc(struct ascend_hbm *hbm, u64 size,
				   u32 policy, struct ascend_hbm_alloc *alloc)
{
	return ascend_hbm_alloc_flags(hbm, size, policy, 0, alloc);
}

void ascend_hbm_free(struct ascend_hbm *hbm, struct ascend_hbm_alloc *alloc);

u64 ascend_hbm_used(struct ascend_hbm *hbm);

/* Accounting class of a page size (ASCEND_HBM_PAGE_*). */
enum ascend_hbm_class ascend_hbm_page_class(u64 page_size);

/*
 * Give every cached block back to the buddy allocator (see
 * ASCEND_HBM_CACHE_ORDERS); hbm->lock held.
 */
void ascend_hbm_cache_flush_locked(struct ascend_hbm *hbm);

/*
 * Snapshot the counters and the free space by class.  Flushes the
 * small-block cache first, so the free space by class and the largest free
 * block are exact.  Walks the buddy's
 * free trees of orders >= 2 MiB under the lock: at most size / 2 MiB
 * blocks, so bounded by the device and independent of how many small
 * allocations are live.
 */
void ascend_hbm_get_stats(struct ascend_hbm *hbm, struct ascend_hbm_stats *st);

#endif /* __ASCEND_HBM_H__ */
