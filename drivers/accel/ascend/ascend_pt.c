// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page-table writer (see ascend_pt.h and Documentation/hardware.rst,
 * "Device MMU").
 *
 * The driver keeps a record of each table page (struct ascend_pt_node:
 * where it is, which descriptors are valid, its child tables), so it never
 * reads the tables back from device memory; the descriptors themselves are
 * written through the backend's hbm_rw, a run of neighbours at a time.
 *
 * Leaves: at every step the largest of 1 GiB, 2 MiB and 4 KiB to which
 * both the VA and the output address are aligned and that the contiguous
 * rest of the range fills.  A table whose last valid descriptor is cleared
 * stays linked (it maps nothing) among the ASCEND_PT_KEEP_EMPTY most
 * recently emptied ones, for the next mapping nearby; older empty tables
 * are freed after clearing the descriptor that points at them.  The root
 * lives as long as the address space.
 *
 * Bound on table memory: a mapping of B bytes touches at most B / 2 MiB +
 * 2 level-3 tables, B / 1 GiB + 2 level-2 tables and B / 512 GiB + 2
 * level-1 tables, so an address space holds at most 1 + sum over its
 * mappings of (6 + B / 2 MiB + B / 1 GiB + B / 512 GiB) table pages, plus
 * one peer window table and 3 * ASCEND_PT_KEEP_EMPTY kept empty tables
 * and the ancestors they keep.  Every mapping is memory its file is charged for
 * (HBM in hbm_used, host memory in RLIMIT_MEMLOCK, at least 4 KiB each), so
 * table pages grow only with charged memory; they are counted per file in
 * &ascend_pt.nr_pages (debugfs) and come from the device's page-table
 * memory, never from the HBM users allocate.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "ascend_drv.h"
#include "ascend_hbm.h"
#include "ascend_pt.h"

/* ------------------------------------------------------------------------ */
/* Page-table memory */

static void ascend_pt_pool_fini(struct drm_device *drm, void *arg)
{
	struct ascend_pt_pool *pool = arg;

	WARN_ON(pool->used);
	bitmap_free(pool->bitmap);
	ida_destroy(&pool->asids);
}

int ascend_pt_pool_setup(struct ascend_pt_pool *pool, u64 hbm_size)
{
	spin_lock_init(&pool->lock);
	ida_init(&pool->asids);
	/* the event memory comes first (ascend_hw.h) */
	pool->base = hbm_size + ASCEND_HW_EVENT_MEM_SIZE;
	pool->npages = (ascend_mmu_table_mem_size(hbm_size) -
			ASCEND_HW_EVENT_MEM_SIZE) >> PAGE_SHIFT;
	pool->used = 0;
	pool->hint = 0;
	pool->bitmap = bitmap_zalloc(pool->npages, GFP_KERNEL);
	if (!pool->bitmap) {
		pool->npages = 0;
		return -ENOMEM;
	}
	return 0;
}

void ascend_pt_pool_release(struct ascend_pt_pool *pool)
{
	ascend_pt_pool_fini(NULL, pool);
	pool->bitmap = NULL;
	pool->npages = 0;
}

int ascend_pt_pool_init(struct ascend_device *adev)
{
	struct ascend_pt_pool *pool = &adev->pt_pool;
	int ret;

	ret = ascend_pt_pool_setup(pool, adev->hbm.size);
	if (ret)
		return ret;
	return drmm_add_action_or_reset(&adev->drm, ascend_pt_pool_fini, pool);
}

/* Does the device have page-table memory (see ascend_pt.h)? */
static bool ascend_pt_enabled(const struct ascend_pt *pt)
{
	return pt->adev && pt->adev->pt_pool.npages;
}

/* Bytes of VA a table of @level (1..3) maps: a descriptor one level up. */
static u64 ascend_pt_cover(unsigned int level)
{
	return BIT_ULL(ASCEND_MMU_SHIFT(level - 1));
}

/*
 * The device's side of the tables -- its page-table memory, its context
 * and invalidation registers -- exists until the device is removed:
 * drm_dev_unplug(), then the backend's fini, which drops that memory.  Past
 * that, table changes only update the driver's own bookkeeping (the files
 * still open let go of their address spaces then).
 */
static int ascend_pt_hw_write(struct ascend_device *adev, u64 addr,
			      const void *buf, size_t len)
{
	int idx, ret;

	if (!drm_dev_enter(&adev->drm, &idx))
		return 0;
	ret = adev->hw_ops->hbm_rw(adev->hw, addr, (void *)buf, len, true);
	drm_dev_exit(idx);
	return ret;
}

static void ascend_pt_hw_discard(struct ascend_device *adev, u64 addr)
{
	int idx;

	if (adev->hw_ops->hbm_discard && drm_dev_enter(&adev->drm, &idx)) {
		adev->hw_ops->hbm_discard(adev->hw, addr, ASCEND_MMU_TABLE_SIZE);
		drm_dev_exit(idx);
	}
}

static void ascend_pt_hw_context(struct ascend_device *adev, u32 asid,
				 u64 root, u64 peers)
{
	int idx;

	if (adev->hw_ops->mmu_set_context && drm_dev_enter(&adev->drm, &idx)) {
		adev->hw_ops->mmu_set_context(adev->hw, asid, root, peers);
		drm_dev_exit(idx);
	}
}

u64 ascend_pt_pool_page_alloc(struct ascend_device *adev)
{
	struct ascend_pt_pool *pool = &adev->pt_pool;
	unsigned long i;
	u64 addr;

	spin_lock(&pool->lock);
	i = find_next_zero_bit(pool->bitmap, pool->npages, pool->hint);
	if (i >= pool->npages)
		i = find_first_zero_bit(pool->bitmap, pool->npages);
	if (i >= pool->npages) {
		spin_unlock(&pool->lock);
		return 0;
	}
	__set_bit(i, pool->bitmap);
	pool->used++;
	pool->hint = i + 1;
	spin_unlock(&pool->lock);

	addr = pool->base + ((u64)i << PAGE_SHIFT);
	/*
	 * Zeroed already where the backend discards: a freed table page was
	 * discarded, and discarded or never written memory reads as zero.
	 */
	if (!adev->hw_ops->hbm_discard &&
	    ascend_pt_hw_write(adev, addr, page_address(ZERO_PAGE(0)),
			       ASCEND_MMU_TABLE_SIZE)) {
		spin_lock(&pool->lock);
		__clear_bit(i, pool->bitmap);
		pool->used--;
		spin_unlock(&pool->lock);
		return 0;
	}
	return addr;
}

void ascend_pt_pool_page_free(struct ascend_device *adev, u64 addr)
{
	struct ascend_pt_pool *pool = &adev->pt_pool;
	unsigned long i = (addr - pool->base) >> PAGE_SHIFT;

	ascend_pt_hw_discard(adev, addr);
	spin_lock(&pool->lock);
	if (!WARN_ON(i >= pool->npages || !test_bit(i, pool->bitmap))) {
		__clear_bit(i, pool->bitmap);
		pool->used--;
	}
	spin_unlock(&pool->lock);
}

/* A zeroed table page of @pt: its device-physical address, or 0. */
static u64 ascend_pt_page_alloc(struct ascend_pt *pt)
{
	u64 addr = ascend_pt_pool_page_alloc(pt->adev);

	if (addr)
		pt->nr_pages++;
	return addr;
}

static void ascend_pt_page_free(struct ascend_pt *pt, u64 addr)
{
	ascend_pt_pool_page_free(pt->adev, addr);
	pt->nr_pages--;
}

/* ------------------------------------------------------------------------ */
/* Table nodes */

static struct ascend_pt_node *ascend_pt_node_alloc(struct ascend_pt *pt,
						   unsigned int level)
{
	struct ascend_pt_node *node;

	node = kzalloc(sizeof(*node), GFP_KERNEL_ACCOUNT);
	if (!node)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&node->empty);
	if (level < ASCEND_MMU_LEVELS - 1) {
		node->child = kcalloc(ASCEND_MMU_ENTRIES, sizeof(*node->child),
				      GFP_KERNEL_ACCOUNT);
		if (!node->child) {
			kfree(node);
			return ERR_PTR(-ENOMEM);
		}
	}
	node->addr = ascend_pt_page_alloc(pt);
	if (!node->addr) {
		kfree(node->child);
		kfree(node);
		return ERR_PTR(-ENOSPC);
	}
	/* valid while the device is: used inside drm_dev_enter() only */
	if (pt->adev->hw_ops->hbm_map_page)
		node->cpu = pt->adev->hw_ops->hbm_map_page(pt->adev->hw, node->addr);
	return node;
}

static void ascend_pt_node_free(struct ascend_pt *pt,
				struct ascend_pt_node *node)
{
	unsigned int l;

	for (l = 1; l < ASCEND_MMU_LEVELS; l++)
		if (pt->hint[l] == node)
			pt->hint[l] = NULL;
	ascend_pt_page_free(pt, node->addr);
	kfree(node->child);
	kfree(node);
}

/* Free @node and everything below it, without touching the descriptors. */
static void ascend_pt_node_free_tree(struct ascend_pt *pt,
				     struct ascend_pt_node *node)
{
	unsigned int i;

	if (node->child)
		for (i = 0; i < ASCEND_MMU_ENTRIES; i++)
			if (node->child[i])
				ascend_pt_node_free_tree(pt, node->child[i]);
	ascend_pt_node_free(pt, node);
}

/* @node (not the root) has no valid descriptor left: keep it for now. */
static inline void ascend_pt_keep_empty(struct ascend_pt *pt,
					struct ascend_pt_node *node)
{
	if (!node->parent || node->nr_valid || !list_empty(&node->empty))
		return;
	list_add_tail(&node->empty, &pt->empty);
	pt->nr_empty++;
}

/* @node gets a valid descriptor again: no longer an empty one. */
static inline void ascend_pt_node_used(struct ascend_pt *pt,
				       struct ascend_pt_node *node)
{
	if (list_empty(&node->empty))
		return;
	list_del_init(&node->empty);
	pt->nr_empty--;
}

static inline void ascend_pt_clear(struct ascend_pt *pt,
				   struct ascend_pt_node *node,
				   unsigned int idx, unsigned int n);

/* Does the tree at @node hold tables only (kept empty ones), no leaf? */
static bool ascend_pt_leafless(const struct ascend_pt_node *node)
{
	unsigned int i;

	for_each_set_bit(i, node->valid, ASCEND_MMU_ENTRIES)
		if (!node->child || !node->child[i] ||
		    !ascend_pt_leafless(node->child[i]))
			return false;
	return true;
}

/* Free the leafless tree at @node, already unlinked from its parent. */
static void ascend_pt_drop_tree(struct ascend_pt *pt,
				struct ascend_pt_node *node)
{
	unsigned int i;

	for_each_set_bit(i, node->valid, ASCEND_MMU_ENTRIES)
		ascend_pt_drop_tree(pt, node->child[i]);
	ascend_pt_node_used(pt, node);	/* off the list of kept ones */
	ascend_pt_node_free(pt, node);
}

/* Free the oldest kept empty tables beyond @keep; in a section. */
static void ascend_pt_trim_tables(struct ascend_pt *pt, unsigned int keep)
{
	while (pt->nr_empty > keep) {
		struct ascend_pt_node *node, *parent;

		node = list_first_entry(&pt->empty, struct ascend_pt_node,
					empty);
		list_del_init(&node->empty);
		pt->nr_empty--;
		parent = node->parent;
		/* the pointer goes before the page can be reused */
		ascend_pt_clear(pt, parent, node->pidx, 1);
		parent->child[node->pidx] = NULL;
		__clear_bit(node->pidx, parent->valid);
		parent->nr_valid--;
		ascend_pt_node_free(pt, node);
		ascend_pt_keep_empty(pt, parent);
	}
}

/* ascend_pt_trim() inside a section; a test inline, as most have no work */
static inline void ascend_pt_trim_live(struct ascend_pt *pt,
				       unsigned int keep)
{
	if (pt->nr_empty > keep)
		ascend_pt_trim_tables(pt, keep);
}

/*
 * A table update (a public function below that changes descriptors) runs
 * in one drm_dev_enter() section, not one a descriptor write, or in its
 * caller's (ascend_pt_section_begin()): the calls are most of what a small
 * map costs under emulation.  @pt->live says whether the device was there
 * when the section began.  Returns whether this update entered one.
 */
static bool ascend_pt_begin(struct ascend_pt *pt, int *idx)
{
	if (pt->live)
		return false;	/* the caller's */
	pt->live = drm_dev_enter(&pt->adev->drm, idx);
	return pt->live;
}

static void ascend_pt_end(struct ascend_pt *pt, int idx, bool entered)
{
	if (!entered)
		return;
	drm_dev_exit(idx);
	pt->live = false;
}

/* Write descriptors [@idx, @idx + @n) of @node from @val; in a section. */
static inline int ascend_pt_write(struct ascend_pt *pt,
				  struct ascend_pt_node *node, unsigned int idx,
				  const __le64 *val, unsigned int n)
{
	struct ascend_device *adev = pt->adev;
	unsigned int i;

	if (!pt->live)
		return 0;	/* removed: its memory is gone */
	if (node->cpu) {
		/* each descriptor in one store: the device never sees half */
		for (i = 0; i < n; i++)
			WRITE_ONCE(node->cpu[idx + i], val[i]);
		return 0;
	}
	return adev->hw_ops->hbm_rw(adev->hw, node->addr + idx * sizeof(*val),
				    (void *)val, n * sizeof(*val), true);
}

/* Clear descriptors [@idx, @idx + @n) of @node in device memory. */
static inline void ascend_pt_clear(struct ascend_pt *pt,
				   struct ascend_pt_node *node,
				   unsigned int idx, unsigned int n)
{
	WARN_ON_ONCE(ascend_pt_write(pt, node, idx,
				     page_address(ZERO_PAGE(0)), n));
}

void ascend_pt_trim(struct ascend_pt *pt, unsigned int keep)
{
	bool entered;
	int idx;

	entered = ascend_pt_begin(pt, &idx);
	ascend_pt_trim_live(pt, keep);
	ascend_pt_end(pt, idx, entered);
}

/* ------------------------------------------------------------------------ */
/* Mapping */

/* Leaves written with one hbm_rw at most (the cursor lives on the stack). */
#define ASCEND_PT_BATCH		32

/**
 * struct ascend_pt_cursor - where a mapping stands in its backing
 * @r: the backing ranges
 * @n: entries in @r
 * @i: the range holding @off
 * @off: offset in the mapping of the next byte to map
 * @done: offset up to which leaves are written (a prefix of the mapping)
 * @total: bytes mapped: the size rounded up to 4 KiB (the tail of the
 *	last page of a mapping that ends inside one is mapped too)
 * @as: address space of the output addresses
 * @write: leaves are writable
 * @batch: leaves of one table waiting to be written
 * @bstart: index of @batch[0] in its table
 * @bn: entries in @batch
 * @bend: @off after the last leaf in @batch
 */
struct ascend_pt_cursor {
	const struct ascend_hbm_range *r;
	unsigned int n;
	unsigned int i;
	u64 off;
	u64 done;
	u64 total;
	u32 as;
	bool write;
	__le64 batch[ASCEND_PT_BATCH];
	unsigned int bstart;
	unsigned int bn;
	u64 bend;
};

static u64 ascend_pt_cur_addr(const struct ascend_pt_cursor *c)
{
	const struct ascend_hbm_range *r = &c->r[c->i];

	return r->addr + (c->off - r->offset);
}

static u64 ascend_pt_cur_contig(const struct ascend_pt_cursor *c)
{
	const struct ascend_hbm_range *r = &c->r[c->i];

	if (c->i + 1 == c->n)
		return c->total - c->off;
	return r->offset + r->size - c->off;
}

static void ascend_pt_cur_advance(struct ascend_pt_cursor *c, u64 bytes)
{
	c->off += bytes;
	while (c->i + 1 < c->n && c->off >= c->r[c->i].offset + c->r[c->i].size)
		c->i++;
}

/* Write the batched leaves of @node and mark them valid. */
static inline int ascend_pt_flush(struct ascend_pt *pt,
				  struct ascend_pt_node *node,
				  struct ascend_pt_cursor *c)
{
	int ret;

	if (!c->bn)
		return 0;
	ret = ascend_pt_write(pt, node, c->bstart, c->batch, c->bn);
	if (!ret) {
		ascend_pt_node_used(pt, node);
		if (c->bn == 1)
			__set_bit(c->bstart, node->valid);
		else
			bitmap_set(node->valid, c->bstart, c->bn);
		node->nr_valid += c->bn;
		c->done = c->bend;
	}
	c->bn = 0;
	return ret;
}

/*
 * Map [@va, @end) (inside the region @node of level @level covers) from
 * the cursor on.  On failure the leaves written so far stay (the caller
 * unmaps [start, c->done)); tables created for nothing are freed.
 */
static int ascend_pt_map_level(struct ascend_pt *pt,
			       struct ascend_pt_node *node, unsigned int level,
			       u64 va, u64 end, struct ascend_pt_cursor *c)
{
	u64 span = BIT_ULL(ASCEND_MMU_SHIFT(level));
	int ret;

	if (level) {
		pt->hint[level] = node;
		pt->hint_va[level] = round_down(va, ascend_pt_cover(level));
	}
	while (va < end) {
		unsigned int idx = ascend_mmu_index(va, level);
		u64 next = min(end, (va | (span - 1)) + 1);
		u64 pa = ascend_pt_cur_addr(c);
		struct ascend_pt_node *child;
		__le64 desc;

		if (level && next - va == span && IS_ALIGNED(va | pa, span) &&
		    ascend_pt_cur_contig(c) >= span) {
			if (test_bit(idx, node->valid)) {
				/* kept empty tables give way to a leaf */
				child = node->child ? node->child[idx] : NULL;
				if (!child || !ascend_pt_leafless(child)) {
					ret = -EEXIST;
					goto err_flush;
				}
				ret = ascend_pt_flush(pt, node, c);
				if (ret)
					return ret;
				ascend_pt_clear(pt, node, idx, 1);
				node->child[idx] = NULL;
				__clear_bit(idx, node->valid);
				node->nr_valid--;
				ascend_pt_drop_tree(pt, child);
			}
			if (pa >= ASCEND_PTE_ADDR_LIMIT ||
			    span > ASCEND_PTE_ADDR_LIMIT - pa) {
				ret = -EINVAL;
				goto err_flush;
			}
			if (c->bn && (c->bstart + c->bn != idx ||
				      c->bn == ASCEND_PT_BATCH)) {
				ret = ascend_pt_flush(pt, node, c);
				if (ret)
					return ret;
			}
			if (!c->bn)
				c->bstart = idx;
			desc = cpu_to_le64(ascend_pte_leaf(pa, c->as, c->write));
			c->batch[c->bn++] = desc;
			ascend_pt_cur_advance(c, span);
			c->bend = c->off;
			va = next;
			continue;
		}
		if (level == ASCEND_MMU_LEVELS - 1) {
			ret = -EINVAL;	/* not 4 KiB aligned */
			goto err_flush;
		}
		ret = ascend_pt_flush(pt, node, c);
		if (ret)
			return ret;
		child = node->child[idx];
		if (!child) {
			if (test_bit(idx, node->valid))
				return -EEXIST;	/* a leaf covers it */
			child = ascend_pt_node_alloc(pt, level + 1);
			if (IS_ERR(child))
				return PTR_ERR(child);
			desc = cpu_to_le64(ascend_pte_table(child->addr));
			ret = ascend_pt_write(pt, node, idx, &desc, 1);
			if (ret) {
				ascend_pt_node_free(pt, child);
				return ret;
			}
			child->parent = node;
			child->pidx = idx;
			ascend_pt_node_used(pt, node);
			node->child[idx] = child;
			__set_bit(idx, node->valid);
			node->nr_valid++;
		}
		/* on the path now: no trim may free it under us */
		ascend_pt_node_used(pt, child);
		ret = ascend_pt_map_level(pt, child, level + 1, va, next, c);
		if (ret) {
			/* a table made for nothing: freed by the trim */
			ascend_pt_keep_empty(pt, child);
			return ret;
		}
		va = next;
	}
	return ascend_pt_flush(pt, node, c);

err_flush:
	/* what is batched is good: write it, so the caller's undo finds it */
	return ascend_pt_flush(pt, node, c) ?: ret;
}

int ascend_pt_ensure(struct ascend_pt *pt)
{
	struct ascend_device *adev = pt->adev;
	struct ascend_pt_node *root;
	int asid;

	if (pt->root || !ascend_pt_enabled(pt))
		return 0;
	asid = ida_alloc_range(&adev->pt_pool.asids, 1, ASCEND_MMU_ASID_MAX,
			       GFP_KERNEL);
	if (asid < 0)
		return asid;
	root = ascend_pt_node_alloc(pt, 0);
	if (IS_ERR(root)) {
		ida_free(&adev->pt_pool.asids, asid);
		return PTR_ERR(root);
	}
	pt->asid = asid;
	pt->root = root;
	ascend_pt_hw_context(adev, pt->asid, root->addr, pt->peers);
	return 0;
}

/*
 * The deepest table a walk over [va, va + size) may start at: a hinted
 * table whose region holds the range, which is smaller than the region
 * (else a leaf of the level above might map it); the root if none.
 */
static inline unsigned int ascend_pt_start(const struct ascend_pt *pt, u64 va,
					   u64 size,
					   struct ascend_pt_node **node)
{
	unsigned int level;

	for (level = ASCEND_MMU_LEVELS - 1; level; level--) {
		u64 cover = ascend_pt_cover(level);
		u64 off = va - pt->hint_va[level];

		if (pt->hint[level] && off < cover && size < cover &&
		    size <= cover - off) {
			*node = pt->hint[level];
			return level;
		}
	}
	*node = pt->root;
	return 0;
}

static void ascend_pt_unmap_live(struct ascend_pt *pt, u64 va, u64 size);

/* One attempt of ascend_pt_map(): all of it, or nothing mapped. */
static inline int ascend_pt_map_once(struct ascend_pt *pt,
				     struct ascend_pt_cursor *c, u64 va,
				     const struct ascend_hbm_range *ranges,
				     unsigned int nr_ranges, u64 total, u32 as,
				     bool readonly)
{
	struct ascend_pt_node *node;
	unsigned int level;
	int ret;

	c->r = ranges;
	c->n = nr_ranges;
	c->i = 0;
	c->off = 0;
	c->done = 0;
	c->total = total;
	c->as = as;
	c->write = !readonly;
	c->bn = 0;
	/* inside a table written last: no walk down to it */
	level = ascend_pt_start(pt, va, total, &node);
	ret = ascend_pt_map_level(pt, node, level, va, va + total, c);
	if (ret)
		ascend_pt_keep_empty(pt, node);	/* a no-op for the root */
	if (ret && c->done)
		ascend_pt_unmap_live(pt, va, c->done);
	return ret;
}

int ascend_pt_map(struct ascend_pt *pt, u64 va,
		  const struct ascend_hbm_range *ranges, unsigned int nr_ranges,
		  u64 size, u32 as, bool readonly)
{
	const struct ascend_hbm_range *last;
	struct ascend_pt_cursor c;
	bool entered;
	u64 total;
	int idx, ret;

	if (!nr_ranges)
		return -EINVAL;
	last = &ranges[nr_ranges - 1];
	/* the backing covers the mapping; its last page is mapped whole */
	if (!size || !IS_ALIGNED(va, SZ_4K) || ranges[0].offset ||
	    last->offset + last->size < size ||
	    check_add_overflow(size, (u64)SZ_4K - 1, &total))
		return -EINVAL;
	total = round_down(total, SZ_4K);
	if (va >= BIT_ULL(ASCEND_MMU_VA_BITS) ||
	    total > BIT_ULL(ASCEND_MMU_VA_BITS) - va)
		return -EINVAL;
	if (!pt->root) {
		ret = ascend_pt_ensure(pt);
		if (ret || !pt->root)
			return ret;
	}

	entered = ascend_pt_begin(pt, &idx);
	ret = ascend_pt_map_once(pt, &c, va, ranges, nr_ranges, total, as,
				 readonly);
	if (ret == -ENOSPC && pt->nr_empty) {
		/* the address space's own kept tables go first */
		ascend_pt_trim_live(pt, 0);
		ret = ascend_pt_map_once(pt, &c, va, ranges, nr_ranges, total,
					 as, readonly);
	}
	ascend_pt_trim_live(pt, ASCEND_PT_KEEP_EMPTY);
	ascend_pt_end(pt, idx, entered);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Unmapping */

static void ascend_pt_unmap_level(struct ascend_pt *pt,
				  struct ascend_pt_node *node,
				  unsigned int level, u64 va, u64 end)
{
	u64 span = BIT_ULL(ASCEND_MMU_SHIFT(level));
	unsigned int zs = 0, zn = 0;

	while (va < end) {
		unsigned int idx = ascend_mmu_index(va, level);
		u64 next = min(end, (va | (span - 1)) + 1);
		struct ascend_pt_node *child = node->child ? node->child[idx] :
							     NULL;

		if (child) {
			ascend_pt_unmap_level(pt, child, level + 1, va, next);
			ascend_pt_keep_empty(pt, child);
		} else if (test_bit(idx, node->valid)) {
			/* a leaf: mappings go whole, never split */
			WARN_ON_ONCE(next - va != span);
			if (zn && zs + zn != idx) {
				ascend_pt_clear(pt, node, zs, zn);
				zn = 0;
			}
			if (!zn)
				zs = idx;
			zn++;
			__clear_bit(idx, node->valid);
			node->nr_valid--;
		}
		va = next;
	}
	if (zn)
		ascend_pt_clear(pt, node, zs, zn);
}

/* ascend_pt_unmap() inside a section */
static void ascend_pt_unmap_live(struct ascend_pt *pt, u64 va, u64 size)
{
	struct ascend_device *adev = pt->adev;
	struct ascend_pt_node *node;
	unsigned int level;
	u64 end;

	if (!pt->root || !size || va >= BIT_ULL(ASCEND_MMU_VA_BITS))
		return;
	/* as ascend_pt_map(): a partial last page is mapped whole */
	if (size > BIT_ULL(ASCEND_MMU_VA_BITS) - va)
		end = BIT_ULL(ASCEND_MMU_VA_BITS);
	else
		end = round_up(va + size, SZ_4K);
	level = ascend_pt_start(pt, va, end - va, &node);
	ascend_pt_unmap_level(pt, node, level, va, end);
	ascend_pt_keep_empty(pt, node);
	if (pt->live && adev->hw_ops->mmu_invalidate)
		adev->hw_ops->mmu_invalidate(adev->hw, pt->asid, va, end - va);
	ascend_pt_trim_live(pt, ASCEND_PT_KEEP_EMPTY);
}

void ascend_pt_unmap(struct ascend_pt *pt, u64 va, u64 size)
{
	bool entered;
	int idx;

	entered = ascend_pt_begin(pt, &idx);
	ascend_pt_unmap_live(pt, va, size);
	ascend_pt_end(pt, idx, entered);
}

/* ------------------------------------------------------------------------ */
/* Address space */

void ascend_pt_init(struct ascend_pt *pt, struct ascend_device *adev)
{
	pt->adev = adev;
	pt->root = NULL;
	pt->asid = 0;
	pt->peers = 0;
	pt->nr_pages = 0;
	INIT_LIST_HEAD(&pt->empty);
	pt->nr_empty = 0;
	pt->live = false;
	memset(pt->hint, 0, sizeof(pt->hint));
	memset(pt->hint_va, 0, sizeof(pt->hint_va));
}

/* Remove the peer window table: the device reaches no peer any more. */
static void ascend_pt_drop_peers(struct ascend_pt *pt)
{
	struct ascend_device *adev = pt->adev;
	u64 old = pt->peers;

	if (!old)
		return;
	pt->peers = 0;
	ascend_pt_hw_context(adev, pt->asid, ascend_pt_root_addr(pt), 0);
	ascend_pt_page_free(pt, old);
}

int ascend_pt_set_peers(struct ascend_pt *pt,
			const struct ascend_mmu_peer_entry *e, unsigned int n)
{
	struct ascend_device *adev = pt->adev;
	bool fresh = false;
	void *page;
	int ret;

	if (n > ASCEND_MMU_PEER_MAX)
		return -EINVAL;
	if (!ascend_pt_enabled(pt))
		return 0;
	if (!n) {
		ascend_pt_drop_peers(pt);
		return 0;
	}
	ret = ascend_pt_ensure(pt);
	if (ret)
		goto err_drop;
	page = kzalloc(ASCEND_MMU_TABLE_SIZE, GFP_KERNEL_ACCOUNT);
	if (!page) {
		ret = -ENOMEM;
		goto err_drop;
	}
	memcpy(page, e, n * sizeof(*e));
	if (!pt->peers) {
		pt->peers = ascend_pt_page_alloc(pt);
		fresh = true;
	}
	ret = pt->peers ? ascend_pt_hw_write(adev, pt->peers, page,
					     ASCEND_MMU_TABLE_SIZE) :
			  -ENOSPC;
	kfree(page);
	if (ret)
		goto err_drop;
	if (fresh)
		ascend_pt_hw_context(adev, pt->asid, pt->root->addr, pt->peers);
	return 0;

err_drop:
	/*
	 * Whatever the table held is not known to be right: none at all is
	 * safe (a peer's VAs fault) until the next successful write.
	 */
	ascend_pt_drop_peers(pt);
	return ret;
}

void ascend_pt_fini(struct ascend_pt *pt)
{
	struct ascend_device *adev = pt->adev;

	if (!pt->root)
		return;
	/* the device lets go of the tables before they are freed */
	ascend_pt_hw_context(adev, pt->asid, 0, 0);
	if (pt->peers)
		ascend_pt_page_free(pt, pt->peers);
	pt->peers = 0;
	ascend_pt_node_free_tree(pt, pt->root);
	pt->root = NULL;
	INIT_LIST_HEAD(&pt->empty);
	pt->nr_empty = 0;
	ida_free(&adev->pt_pool.asids, pt->asid);
	pt->asid = 0;
	WARN_ON(pt->nr_pages);
}
