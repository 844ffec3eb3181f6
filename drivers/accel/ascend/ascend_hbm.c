// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HBM manager: device memory on the gpu_buddy allocator.
 *
 * The buddy's chunk is the normal page (4 KiB), so every allocation is made
 * of power-of-two blocks of at least its page size; a huge-page allocation
 * asks the buddy for blocks of at least 2 MiB (or 1 GiB), which also makes
 * every block naturally aligned to its page size.
 *
 * Accounting is per page class (normal, huge, 1 GiB) with the P2P part of
 * each; the free space usable by each class is read from the buddy's free
 * trees (ascend_hbm_get_stats()).
 *
 * Small allocations are the common case (a framework's tensors, the
 * aclrtMalloc/aclrtFree churn), and on a fresh device each one splits a
 * large free block down to its size and its free merges all the way back.
 * A freed single block of up to 64 KiB is therefore cached (per order, up
 * to ASCEND_HBM_CACHE_MAX_BYTES) and handed out again as it is.  Cached
 * bytes are free bytes: they never count as used, and an allocation that
 * the buddy cannot satisfy, a statistics snapshot and fini give the whole
 * cache back first, so neither -ENOSPC nor the reported free space depends
 * on it.
 */
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rbtree.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ascend_accel.h"
#include "ascend_hbm.h"

int ascend_hbm_init(struct ascend_hbm *hbm, u64 size)
{
	unsigned int i;
	int ret;

	if (!size || !IS_ALIGNED(size, ASCEND_HBM_PAGE_NORMAL))
		return -EINVAL;

	ret = gpu_buddy_init(&hbm->mm, size, ASCEND_HBM_PAGE_NORMAL);
	if (ret)
		return ret;

	for (i = 0; i < ASCEND_HBM_CACHE_ORDERS; i++)
		INIT_LIST_HEAD(&hbm->cache[i]);
	hbm->cached = 0;

	mutex_init(&hbm->lock);
	hbm->size = size;
	hbm->used = 0;
	memset(hbm->used_class, 0, sizeof(hbm->used_class));
	memset(hbm->used_p2p, 0, sizeof(hbm->used_p2p));
	hbm->nr_allocs = 0;
	return 0;
}

void ascend_hbm_fini(struct ascend_hbm *hbm)
{
	/* Every buffer object must be gone by now: anything left is a leak. */
	WARN(hbm->used, "ascend: %llu bytes of HBM leaked\n", hbm->used);
	mutex_lock(&hbm->lock);
	ascend_hbm_cache_flush_locked(hbm);
	mutex_unlock(&hbm->lock);
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

	/* One block (every small allocation): no array to allocate. */
	if (n == 1)
		alloc->ranges = &alloc->one_range;
	else
		alloc->ranges = kvmalloc_array(n, sizeof(*alloc->ranges),
					       GFP_KERNEL_ACCOUNT);
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

enum ascend_hbm_class ascend_hbm_page_class(u64 page_size)
{
	if (page_size >= ASCEND_HBM_PAGE_HUGE1G)
		return ASCEND_HBM_CLASS_HUGE1G;
	if (page_size >= ASCEND_HBM_PAGE_HUGE)
		return ASCEND_HBM_CLASS_HUGE;
	return ASCEND_HBM_CLASS_NORMAL;
}

/* Count @alloc in (@sign > 0) or out of the counters; hbm->lock held. */
static void ascend_hbm_account(struct ascend_hbm *hbm,
			       const struct ascend_hbm_alloc *alloc, int sign)
{
	enum ascend_hbm_class c = ascend_hbm_page_class(alloc->page_size);
	u64 size = alloc->size;

	lockdep_assert_held(&hbm->lock);
	if (sign > 0) {
		hbm->used += size;
		hbm->used_class[c] += size;
		if (alloc->flags & DRM_ASCEND_BO_P2P)
			hbm->used_p2p[c] += size;
		hbm->nr_allocs++;
	} else {
		hbm->used -= size;
		hbm->used_class[c] -= size;
		if (alloc->flags & DRM_ASCEND_BO_P2P)
			hbm->used_p2p[c] -= size;
		hbm->nr_allocs--;
	}
}

/* Cache order of a block of @size bytes, or -1 when it is not cached. */
static int ascend_hbm_cache_order(u64 size)
{
	int order;

	if (!is_power_of_2(size) || size < ASCEND_HBM_PAGE_NORMAL)
		return -1;
	order = ilog2(size) - ilog2(ASCEND_HBM_PAGE_NORMAL);
	return order < ASCEND_HBM_CACHE_ORDERS ? order : -1;
}

void ascend_hbm_cache_flush_locked(struct ascend_hbm *hbm)
{
	unsigned int i;

	lockdep_assert_held(&hbm->lock);
	if (!hbm->cached)
		return;
	for (i = 0; i < ASCEND_HBM_CACHE_ORDERS; i++)
		gpu_buddy_free_list(&hbm->mm, &hbm->cache[i], 0);
	hbm->cached = 0;
}

/* Take a cached block of exactly @size bytes into @alloc; hbm->lock held. */
static bool ascend_hbm_cache_take(struct ascend_hbm *hbm, u64 size,
				  struct ascend_hbm_alloc *alloc)
{
	int order = ascend_hbm_cache_order(size);
	struct gpu_buddy_block *block;

	if (order < 0)
		return false;
	block = list_first_entry_or_null(&hbm->cache[order],
					 struct gpu_buddy_block, link);
	if (!block)
		return false;
	list_move(&block->link, &alloc->blocks);
	hbm->cached -= size;
	return true;
}

/* Keep the blocks of @alloc in the cache if they qualify; hbm->lock held. */
static bool ascend_hbm_cache_put(struct ascend_hbm *hbm,
				 struct ascend_hbm_alloc *alloc)
{
	struct gpu_buddy_block *block;
	u64 size;
	int order;

	if (!list_is_singular(&alloc->blocks))
		return false;
	block = list_first_entry(&alloc->blocks, struct gpu_buddy_block, link);
	size = gpu_buddy_block_size(&hbm->mm, block);
	order = ascend_hbm_cache_order(size);
	if (order < 0 || hbm->cached + size > ASCEND_HBM_CACHE_MAX_BYTES)
		return false;
	list_move(&block->link, &hbm->cache[order]);
	hbm->cached += size;
	return true;
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
	/*
	 * Past what is free in blocks of this page size the buddy would fail
	 * only after taking (and giving back) blocks: say so at once.
	 */
	if (size > hbm->size - hbm->used) {
		ret = -ENOSPC;
	} else if (page_size == ASCEND_HBM_PAGE_NORMAL &&
		   ascend_hbm_cache_take(hbm, size, alloc)) {
		ret = 0;
	} else {
		ret = gpu_buddy_alloc_blocks(&hbm->mm, 0, hbm->size, size,
					     page_size, &alloc->blocks, 0);
		/* Cached blocks are free memory: give them back, try again. */
		if (ret && ret != -ENOMEM && hbm->cached) {
			ascend_hbm_cache_flush_locked(hbm);
			ret = gpu_buddy_alloc_blocks(&hbm->mm, 0, hbm->size,
						     size, page_size,
						     &alloc->blocks, 0);
		}
	}
	if (!ret) {
		alloc->size = size;
		alloc->page_size = page_size;
		ascend_hbm_account(hbm, alloc, 1);
	}
	mutex_unlock(&hbm->lock);
	/* Anything else from the buddy (-EINVAL: no block that big) is ENOSPC. */
	if (ret && ret != -ENOMEM)
		ret = -ENOSPC;
	return ret;
}

int ascend_hbm_alloc_flags(struct ascend_hbm *hbm, u64 size, u32 policy,
			   u32 flags, struct ascend_hbm_alloc *alloc)
{
	u64 first, fallback, rounded;
	int ret;

	INIT_LIST_HEAD(&alloc->blocks);
	alloc->ranges = NULL;
	alloc->nr_ranges = 0;
	alloc->size = 0;
	alloc->page_size = 0;
	alloc->policy = policy;
	alloc->flags = flags;

	/* BO_CREATE flags that are not about the memory stay in ascend_gem.c */
	if (!size || flags & ~DRM_ASCEND_BO_P2P)
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
	if (!ascend_hbm_cache_put(hbm, alloc))
		gpu_buddy_free_list(&hbm->mm, &alloc->blocks, 0);
	ascend_hbm_account(hbm, alloc, -1);
	mutex_unlock(&hbm->lock);

	INIT_LIST_HEAD(&alloc->blocks);

	if (alloc->ranges != &alloc->one_range)
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

static bool ascend_hbm_order_empty(struct ascend_hbm *hbm, unsigned int order)
{
	unsigned int tree;

	for_each_free_tree(tree)
		if (!RB_EMPTY_ROOT(&hbm->mm.free_trees[tree][order]))
			return false;
	return true;
}

/* Free bytes in the buddy's free trees of order @order; hbm->lock held. */
static u64 ascend_hbm_free_in_order(struct ascend_hbm *hbm,
				    unsigned int order, bool *any)
{
	u64 block_size = hbm->mm.chunk_size << order;
	struct rb_node *node;
	unsigned int tree;
	u64 bytes = 0;

	for_each_free_tree(tree) {
		struct rb_root *root = &hbm->mm.free_trees[tree][order];

		for (node = rb_first(root); node; node = rb_next(node))
			bytes += block_size;
	}
	*any = bytes != 0;
	return bytes;
}

void ascend_hbm_get_stats(struct ascend_hbm *hbm, struct ascend_hbm_stats *st)
{
	unsigned int huge_order = ilog2(ASCEND_HBM_PAGE_HUGE) -
				  ilog2(ASCEND_HBM_PAGE_NORMAL);
	unsigned int huge1g_order = ilog2(ASCEND_HBM_PAGE_HUGE1G) -
				    ilog2(ASCEND_HBM_PAGE_NORMAL);
	unsigned int order;
	u64 bytes;
	bool any;

	memset(st, 0, sizeof(*st));

	mutex_lock(&hbm->lock);
	ascend_hbm_cache_flush_locked(hbm);
	st->total = hbm->size;
	st->used = hbm->used;
	st->free = hbm->size - hbm->used;
	memcpy(st->used_class, hbm->used_class, sizeof(st->used_class));
	memcpy(st->used_p2p, hbm->used_p2p, sizeof(st->used_p2p));
	st->nr_allocs = hbm->nr_allocs;
	st->free_class[ASCEND_HBM_CLASS_NORMAL] = st->free;

	/*
	 * Small orders are never walked: the largest free block is found
	 * from the top, and only blocks of at least 2 MiB count for huge
	 * pages (an aligned free 2 MiB range is always merged into one).
	 */
	for (order = hbm->mm.max_order + 1; order-- > 0; ) {
		if (order < huge_order) {
			if (st->largest_free)
				break;
			if (!ascend_hbm_order_empty(hbm, order))
				st->largest_free = hbm->mm.chunk_size << order;
			continue;
		}
		bytes = ascend_hbm_free_in_order(hbm, order, &any);
		if (any && !st->largest_free)
			st->largest_free = hbm->mm.chunk_size << order;
		st->free_class[ASCEND_HBM_CLASS_HUGE] += bytes;
		if (order >= huge1g_order)
			st->free_class[ASCEND_HBM_CLASS_HUGE1G] += bytes;
	}
	mutex_unlock(&hbm->lock);
}
