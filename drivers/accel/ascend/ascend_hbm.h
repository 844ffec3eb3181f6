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

/**
 * struct ascend_hbm - device memory of one NPU
 * @lock: protects @mm and @used (gpu_buddy leaves locking to its user)
 * @mm: the buddy allocator over [0, @size)
 * @size: bytes of HBM
 * @used: bytes allocated
 */
struct ascend_hbm {
	struct mutex lock;	/* protects mm and used */
	struct gpu_buddy mm;
	u64 size;
	u64 used;
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
 * @size: bytes reserved (the request rounded up to @page_size)
 * @page_size: page class of the backing (ASCEND_HBM_PAGE_*)
 */
struct ascend_hbm_alloc {
	struct list_head blocks;
	struct ascend_hbm_range *ranges;
	unsigned int nr_ranges;
	u64 size;
	u64 page_size;
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
 */
int ascend_hbm_alloc(struct ascend_hbm *hbm, u64 size, u32 policy,
		     struct ascend_hbm_alloc *alloc);
void ascend_hbm_free(struct ascend_hbm *hbm, struct ascend_hbm_alloc *alloc);

u64 ascend_hbm_used(struct ascend_hbm *hbm);

#endif /* __ASCEND_HBM_H__ */
