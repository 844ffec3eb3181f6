// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HBM manager: device memory on the gpu_buddy allocator.
 *
 * The buddy's chunk is the normal page (4 KiB), so every allocation is made
 * of power-of-two blocks of at least its page size; a huge-page allocation
 * asks the buddy for blocks of at least 2 MiB (or 1 GiB), which also makes
 * every block naturally aligned to its page size.
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ascend_accel.h"
#include "ascend_hbm.h"

int ascend_hbm_init(struct ascend_hbm *hbm, u64 size)
{
	int ret;

	if (!size || !IS_ALIGNED(size, ASCEND_HBM_PAGE_NORMAL))
		return -EINVAL;

	ret = gpu_buddy_init(&hbm->mm, size, ASCEND_HBM_PAGE_NORMAL);
	if (ret)
		return ret;

	mutex_init(&hbm->lock);
	hbm->size = size;
	hbm->used = 0;
	return 0;
}

void ascend_hbm_fini(struct ascend_hbm *hbm)
{
	/* Every buffer object must be gone by now: anything left is a leak. */
	WARN(hbm->used, "ascend: %llu bytes of HBM leaked\n", hbm->used);
	gpu_buddy_fini(&hbm->mm);
	mutex_destroy(&hbm->lock);
}

int ascend_hbm_policy_pages(u32 policy, u64 size, u64 *first, u64 *fallback)
{
	*fallback = 0;

	switch (policy) {
	case DRM_ASCEND_BO_HUGE_FIRST:
		if (size > ASCEND_HBM_HUGE_THRESHOLD) {
			*first = ASCEND_HBM_PAGE_HUGE;
			*fallback = ASCEND_HBM_PAGE_NORMAL;
		} else {
			*first = ASCEND_HBM_PAGE_NORMAL;
		}
		return 0;
	case DRM_ASCEND_BO_HUGE_ONLY:
		*first = ASCEND_HBM_PAGE_HUGE;
		return 0;
	case DRM_ASCEND_BO_NORMAL_ONLY:
		*first = ASCEND_HBM_PAGE_NORMAL;
		return 0;
	case DRM_ASCEND_BO_HUGE1G_ONLY:
		*first = ASCEND_HBM_PAGE_HUGE1G;
		return 0;
	}
	return -EINVAL;
}

/* Turn the block list into ranges sorted by offset, merging neighbours. */
static int ascend_hbm_build_ranges(struct ascend_hbm *hbm,
				   struct ascend_hbm_alloc *alloc)
{
	struct gpu_buddy_block *block;
	struct ascend_hbm_range *r = NULL;
	unsigned int n = 0;
	u64 offset = 0;

	list_for_each_entry(block, &alloc->blocks, link)
		n++;

	alloc->ranges = kvmalloc_array(n, sizeof(*alloc->ranges), GFP_KERNEL);
	if (!alloc->ranges)
		return -ENOMEM;

	n = 0;
	list_for_each_entry(block, &alloc->blocks, link) {
		u64 addr = gpu_buddy_block_offset(block);
		u64 size = gpu_buddy_block_size(&hbm->mm, block);

		if (r && r->addr + r->size == addr) {
			r->size += size;
		} else {
			r = &alloc->ranges[n++];
			r->offset = offset;
			r->addr = addr;
			r->size = size;
		}
		offset += size;
	}
	alloc->nr_ranges = n;
	return 0;
}

/* One attempt with one page size; the size is already rounded to it. */
static int ascend_hbm_try(struct ascend_hbm *hbm, u64 size, u64 page_size,
			  struct ascend_hbm_alloc *alloc)
{
	int ret;

	/* gpu_buddy says -EINVAL for sizes it can never hold: that is ENOSPC. */
	if (size > hbm->size)
		return -ENOSPC;

	mutex_lock(&hbm->lock);
	ret = gpu_buddy_alloc_blocks(&hbm->mm, 0, hbm->size, size, page_size,
				     &alloc->blocks, 0);
	if (!ret)
		hbm->used += size;
	mutex_unlock(&hbm->lock);
	if (ret)
		return ret;

	alloc->size = size;
	alloc->page_size = page_size;
	return 0;
}

int ascend_hbm_alloc(struct ascend_hbm *hbm, u64 size, u32 policy,
		     struct ascend_hbm_alloc *alloc)
{
	u64 first, fallback, rounded;
	int ret;

	INIT_LIST_HEAD(&alloc->blocks);
	alloc->ranges = NULL;
	alloc->nr_ranges = 0;
	alloc->size = 0;
	alloc->page_size = 0;

	if (!size)
		return -EINVAL;
	ret = ascend_hbm_policy_pages(policy, size, &first, &fallback);
	if (ret)
		return ret;

	/* A size that cannot even be rounded up is larger than any HBM. */
	if (check_add_overflow(size, first - 1, &rounded))
		return -ENOSPC;
	ret = ascend_hbm_try(hbm, round_down(rounded, first), first, alloc);
	if (ret == -ENOSPC && fallback) {
		if (check_add_overflow(size, fallback - 1, &rounded))
			return -ENOSPC;
		ret = ascend_hbm_try(hbm, round_down(rounded, fallback),
				     fallback, alloc);
	}
	if (ret)
		return ret;

	ret = ascend_hbm_build_ranges(hbm, alloc);
	if (ret) {
		ascend_hbm_free(hbm, alloc);
		return ret;
	}
	return 0;
}

void ascend_hbm_free(struct ascend_hbm *hbm, struct ascend_hbm_alloc *alloc)
{
	if (!alloc->size)
		return;

	mutex_lock(&hbm->lock);
	gpu_buddy_free_list(&hbm->mm, &alloc->blocks, 0);
	hbm->used -= alloc->size;
	mutex_unlock(&hbm->lock);

	INIT_LIST_HEAD(&alloc->blocks);

	kvfree(alloc->ranges);
	alloc->ranges = NULL;
	alloc->nr_ranges = 0;
	alloc->size = 0;
}

u64 ascend_hbm_used(struct ascend_hbm *hbm)
{
	u64 used;

	mutex_lock(&hbm->lock);
	used = hbm->used;
	mutex_unlock(&hbm->lock);
	return used;
}
