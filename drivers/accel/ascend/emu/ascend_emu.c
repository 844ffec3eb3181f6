// SPDX-License-Identifier: GPL-2.0-only
/*
 * The emulated NPU: the hardware-interface ops and its device memory.
 *
 * HBM is backed lazily by host pages, one per 4 KiB of device memory,
 * allocated on the first write and kept in an xarray.  A page never
 * written reads as zero, so a 32 GiB device fits on a small machine as
 * long as little of it is written.  Freed device memory is discarded
 * (pages dropped, kept as spares for the next writes: ascend_emu_spare.c),
 * so the next owner reads zeroes.
 *
 * The backing is capped (module parameter emu_backing_mb, default half of
 * the host's RAM, for all emulated NPUs) and split into equal per-device
 * stores (the bus gives each of the num_devices NPUs its slice,
 * ascend_emu_store_slice()).  A device tells the driver how much of its
 * HBM it can hold written (device property hbm-store-size), and the driver
 * sizes its per-user HBM shares from that: one user alone cannot fill
 * the store of a device.  Page-table memory comes from the same store.
 * Pages are allocated with __GFP_RETRY_MAYFAIL: the emulator's memory
 * belongs to no process, so letting it reach the OOM killer would kill
 * innocent processes without freeing anything.  Past the device's store
 * or the host cap, or when the host has no page, the write fails with
 * -ENOMEM: a DMA job reports -ENOMEM and a queue command faults, like a
 * device memory error on real hardware.
 *
 * Another device's HBM (ASCEND_AS_PEER(n), peer access) is that device's
 * backing store, found by device index: its pages, its backing cap.
 *
 * Host memory (%ASCEND_AS_SYS) is reached the way a device would: from the
 * bus address the DMA-mapping API produced.  The emulated NPU is a platform
 * device without an IOMMU, so that is the physical address (dma-direct,
 * possibly a swiotlb bounce buffer, which is right too); its page is
 * accessed with kmap_local_page(), page by page.
 *
 * A discard waits for the device's accesses in flight (the SMMU's access
 * sections) and runs alone: an access that holds a backing page never
 * sees it freed.  The driver's own accesses by HBM address (its copies)
 * are over before it discards, under its address space's lock.
 *
 * Finding a backing page in the xarray was a third of a small copy's cost
 * on an emulating host, so the pages found last are kept in a small cache
 * (&ascend_emu.page_cache), each tagged with its index.  Only an access to
 * a page puts it there, and a discard, which never overlaps an access to
 * the pages it frees, takes them out before freeing them: a page in the
 * cache is a live backing page of its tag.
 *
 * Most of a graph's or a benchmark's memory is never written, and a lookup
 * that finds nothing walked the xarray to its bottom each time.  A presence
 * bitmap (&ascend_emu.present, one bit per device page) answers that at
 * once: a writer sets the page's bit before it publishes the page, and only
 * a discard, which runs alone, clears it after taking the page out.  A
 * clear bit is therefore a page that does not exist; a set bit sends the
 * lookup to the xarray.
 */
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/highmem.h>
#include <linux/math64.h>
#include <linux/mem_encrypt.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ascend_emu.h"
#include "ascend_hw.h"

/* a backing page is one 4 KiB device page, the smallest the MMU maps */
static_assert(PAGE_SIZE == ASCEND_MMU_TABLE_SIZE);

static unsigned int emu_backing_mb;
module_param(emu_backing_mb, uint, 0444);
MODULE_PARM_DESC(emu_backing_mb,
		 "Host memory all emulated NPUs may use to back written HBM, in MiB, split equally among num_devices (0 = half of RAM)");

/* Host pages backing HBM, across all emulated NPUs. */
static atomic_long_t ascend_emu_backed = ATOMIC_LONG_INIT(0);

static unsigned long ascend_emu_backing_limit(void)
{
	if (emu_backing_mb)
		return (unsigned long)emu_backing_mb << (20 - PAGE_SHIFT);
	return totalram_pages() / 2;
}

u64 ascend_emu_store_slice(unsigned int num_devices)
{
	u64 pages = ascend_emu_backing_limit();

	return div_u64(pages, max(num_devices, 1U)) << PAGE_SHIFT;
}

/*
 * A page for @emu's store, charged to it and to the host budget: cleared
 * when @zero, else the caller writes all of it before the page is found.
 * A spare page first (ascend_emu_spare.c), then the page allocator.
 */
static struct page *ascend_emu_alloc_backing(struct ascend_emu *emu, bool zero)
{
	gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN;
	struct page *page;

	if (atomic_long_inc_return(&emu->backed) > emu->store_pages)
		goto err_uncharge_dev;
	if (atomic_long_inc_return(&ascend_emu_backed) >
	    ascend_emu_backing_limit())
		goto err_uncharge;

	page = ascend_emu_spare_get();
	if (page) {
		if (zero)
			clear_highpage(page);
		return page;
	}
	page = alloc_page(zero ? gfp | __GFP_ZERO : gfp);
	if (!page)
		goto err_uncharge;
	return page;

err_uncharge:
	atomic_long_dec(&ascend_emu_backed);
err_uncharge_dev:
	atomic_long_dec(&emu->backed);
	return NULL;
}

unsigned long ascend_emu_backed_pages(void)
{
	return atomic_long_read(&ascend_emu_backed);
}

/* Spare pages: at most an eighth of the host cap, kept for the next writes. */
static void ascend_emu_free_backing(struct ascend_emu *emu, struct page *page)
{
	atomic_long_dec(&ascend_emu_backed);
	atomic_long_dec(&emu->backed);
	ascend_emu_spare_put(page, ascend_emu_backing_limit() / 8);
}

/*
 * The store of device memory page @idx, which it rebases: HBM pages in
 * @hbm_pages, the page-table memory above the HBM in @table_pages (so the
 * HBM's index stays as shallow as the HBM alone needs).
 */
static struct xarray *ascend_emu_store(struct ascend_emu *emu,
				       unsigned long *idx)
{
	unsigned long hbm = emu->hbm_size >> PAGE_SHIFT;

	if (*idx < hbm)
		return &emu->hbm_pages;
	*idx -= hbm;
	return &emu->table_pages;
}

static struct page **ascend_emu_cache_slot(struct ascend_emu *emu,
					   unsigned long idx)
{
	return &emu->page_cache[idx % ASCEND_EMU_PAGE_CACHE];
}

/* Empty the cache slot of @page (device page @idx) before it is freed. */
static void ascend_emu_cache_drop(struct ascend_emu *emu, unsigned long idx,
				  struct page *page)
{
	cmpxchg(ascend_emu_cache_slot(emu, idx), page, NULL);
}

/*
 * The backing page of device page @idx (HBM, then page-table memory);
 * with @alloc, create it if missing.  With @init too (PAGE_SIZE bytes), a
 * page created here holds @init before it can be found, and *@filled says
 * so: a page about to be written whole is not cleared first.
 */
static struct page *ascend_emu_page_slow(struct ascend_emu *emu,
					 unsigned long idx, bool alloc,
					 const void *init, bool *filled)
{
	struct page **slot = ascend_emu_cache_slot(emu, idx);
	unsigned long *present = emu->present;
	unsigned long tag = idx;
	struct xarray *xa;
	struct page *page, *old;

	xa = ascend_emu_store(emu, &idx);
	/* never written (or discarded since): no page to look for */
	if (!present || test_bit(tag, present)) {
		page = xa_load(xa, idx);
		if (page) {
			/* its tag is visible to whoever finds it in the slot */
			smp_store_release(slot, page);
			return page;
		}
	}
	if (!alloc)
		return NULL;

	page = ascend_emu_alloc_backing(emu, !init);
	if (!page)
		return ERR_PTR(-ENOMEM);
	if (init)
		memcpy(page_address(page), init, PAGE_SIZE);
	set_page_private(page, tag);	/* published by xa_cmpxchg() */
	/* before the page is found: a reader that misses the bit misses it */
	if (present)
		set_bit(tag, present);

	old = xa_cmpxchg(xa, idx, NULL, page,
			 GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (old) {
		/* Lost a race with another writer, or no memory for the node. */
		ascend_emu_free_backing(emu, page);
		if (xa_is_err(old))
			return ERR_PTR(xa_err(old));
		return old;
	}
	/* as above: the tag before the page */
	smp_store_release(slot, page);
	if (init)
		*filled = true;
	return page;
}

/* The same; a page in the cache (most accesses) costs no call. */
static inline struct page *__ascend_emu_page(struct ascend_emu *emu,
					     unsigned long idx, bool alloc,
					     const void *init, bool *filled)
{
	struct page *page = ascend_emu_page_cached(emu, idx);

	if (page)
		return page;
	return ascend_emu_page_slow(emu, idx, alloc, init, filled);
}

static struct page *ascend_emu_page(struct ascend_emu *emu, unsigned long idx,
				    bool alloc)
{
	return __ascend_emu_page(emu, idx, alloc, NULL, NULL);
}

int ascend_emu_hbm_rw(struct ascend_hw_device *hw, u64 addr, void *buf,
		      size_t len, bool write)
{
	struct ascend_emu *emu = to_ascend_emu(hw);

	if (!ascend_emu_in_hbm(emu, addr, len))
		return -EFAULT;

	while (len) {
		unsigned int off = offset_in_page(addr);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		bool whole = write && n == PAGE_SIZE, filled = false;
		struct page *page;
		void *vaddr;

		page = __ascend_emu_page(emu, addr >> PAGE_SHIFT, write,
					 whole ? buf : NULL, &filled);
		if (IS_ERR(page))
			return PTR_ERR(page);

		if (filled) {
			/* a new page, holding @buf's bytes already */
		} else if (!page) {
			memset(buf, 0, n);
		} else {
			vaddr = kmap_local_page(page);
			if (write)
				memcpy(vaddr + off, buf, n);
			else
				memcpy(buf, vaddr + off, n);
			kunmap_local(vaddr);
		}
		addr += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/* hw op hbm_map_page: the backing page, created if need be. */
static void *ascend_emu_hbm_map_page(struct ascend_hw_device *hw, u64 addr)
{
	struct ascend_emu *emu = to_ascend_emu(hw);
	struct page *page;

	if (!IS_ALIGNED(addr, PAGE_SIZE) || !ascend_emu_in_hbm(emu, addr,
							       PAGE_SIZE))
		return NULL;
	page = ascend_emu_page(emu, addr >> PAGE_SHIFT, true);
	/* backing pages are GFP_KERNEL: in the direct map */
	return IS_ERR_OR_NULL(page) ? NULL : page_address(page);
}

/*
 * The host page at bus address @addr (%ASCEND_AS_SYS), or NULL if there is
 * none.  Without a DMA range map (and no IOMMU) dma-direct's bus address is
 * the physical address, less the memory encryption bit; a device with a
 * range map would need translate_dma_to_phys(), which modules cannot use.
 */
static inline struct page *ascend_emu_sys_page(struct ascend_emu *emu,
					       u64 addr)
{
	struct device *dev = emu->dev;
	unsigned long pfn;

	if (dev && dev->dma_range_map)
		return NULL;
	pfn = PHYS_PFN(__sme_clr(addr));
	if (!pfn_valid(pfn))
		return NULL;
	return pfn_to_page(pfn);
}

void *ascend_emu_mem_ptr(struct ascend_emu *emu, u64 addr, bool write)
{
	struct page *page;

	if (!ascend_emu_in_hbm(emu, addr, 1))
		return NULL;
	page = ascend_emu_page(emu, addr >> PAGE_SHIFT, write);
	/* backing pages are GFP_KERNEL: in the direct map */
	return IS_ERR_OR_NULL(page) ? NULL :
	       page_address(page) + offset_in_page(addr);
}

void *ascend_emu_sys_ptr(struct ascend_emu *emu, u64 addr)
{
	struct page *page = ascend_emu_sys_page(emu, addr);

	if (!page || PageHighMem(page))
		return NULL;
	return page_address(page) + offset_in_page(addr);
}

/*
 * The NPUs that are up, by index, for peer address spaces: an entry is
 * written by its device's init (last) and fini (first), which the driver
 * core serialises per device; read with READ_ONCE() inside an access
 * section (ascend_emu_smmu_access_begin()) or by a DMA job the driver
 * built from a peer link (the driver waits for those before it stops the
 * peer).  fini waits for the sections in flight before the memory goes.
 */
static struct ascend_emu *ascend_emu_up[ASCEND_HW_MAX_DEVICES];

void ascend_emu_set_up(struct ascend_emu *emu, bool up)
{
	if (emu->index < ASCEND_HW_MAX_DEVICES)
		WRITE_ONCE(ascend_emu_up[emu->index], up ? emu : NULL);
}

/* The emulated NPU whose HBM the peer address space @as names, or NULL. */
struct ascend_emu *ascend_emu_peer(u32 as)
{
	if (!ascend_as_is_peer(as) ||
	    ascend_as_peer_dev(as) >= ASCEND_HW_MAX_DEVICES)
		return NULL;
	return READ_ONCE(ascend_emu_up[ascend_as_peer_dev(as)]);
}

/*
 * The page holding @addr in address space @as: for HBM, NULL when never
 * written and not @alloc; ERR_PTR(-EIO) for a bad address space or bus
 * address, ERR_PTR(-ENOMEM) when HBM cannot be backed.
 */
static struct page *ascend_emu_mem_page_init(struct ascend_emu *emu, u32 as,
					     u64 addr, bool alloc,
					     const void *init, bool *filled)
{
	struct page *page;

	switch (as) {
	case ASCEND_AS_HBM:
		return __ascend_emu_page(emu, addr >> PAGE_SHIFT, alloc, init,
					 filled);
	case ASCEND_AS_SYS:
		page = ascend_emu_sys_page(emu, addr);
		return page ?: ERR_PTR(-EIO);
	}
	emu = ascend_emu_peer(as);
	if (emu)
		return __ascend_emu_page(emu, addr >> PAGE_SHIFT, alloc, init,
					 filled);
	return ERR_PTR(-EIO);
}

static struct page *ascend_emu_mem_page(struct ascend_emu *emu, u32 as,
					u64 addr, bool alloc)
{
	return ascend_emu_mem_page_init(emu, as, addr, alloc, NULL, NULL);
}

static inline bool ascend_emu_in_as(struct ascend_emu *emu, u32 as, u64 addr,
				    u64 len)
{
	u64 end;

	if (as == ASCEND_AS_SYS)
		return !check_add_overflow(addr, len, &end);
	if (ascend_as_is_peer(as)) {
		emu = ascend_emu_peer(as);
		return emu && ascend_emu_in_hbm(emu, addr, len);
	}
	return as == ASCEND_AS_HBM && ascend_emu_in_hbm(emu, addr, len);
}

int ascend_emu_sys_rw(struct ascend_hw_device *hw, u64 addr, void *buf,
		      size_t len, bool write)
{
	struct ascend_emu *emu = to_ascend_emu(hw);

	if (!ascend_emu_in_as(emu, ASCEND_AS_SYS, addr, len))
		return -EFAULT;

	while (len) {
		unsigned int off = offset_in_page(addr);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page = ascend_emu_sys_page(emu, addr);

		if (!page)
			return -EFAULT;
		if (write)
			memcpy_to_page(page, off, buf, n);
		else
			memcpy_from_page(buf, page, off, n);
		addr += n;
		buf += n;
		len -= n;
	}
	return 0;
}

int ascend_emu_mem_rw(struct ascend_emu *emu, u32 as, u64 addr, void *buf,
		      size_t len, bool write)
{
	if (as == ASCEND_AS_HBM)
		return ascend_emu_hbm_rw(&emu->hw, addr, buf, len, write);
	if (as == ASCEND_AS_SYS)
		return ascend_emu_sys_rw(&emu->hw, addr, buf, len, write);
	/* another device's HBM, through that device's backend */
	emu = ascend_emu_peer(as);
	if (emu)
		return ascend_emu_hbm_rw(&emu->hw, addr, buf, len, write);
	return -EIO;
}

int ascend_emu_mem_copy(struct ascend_emu *emu, u64 dst, u32 dst_as,
			u64 src, u32 src_as, u64 len)
{
	if (!ascend_emu_in_as(emu, dst_as, dst, len) ||
	    !ascend_emu_in_as(emu, src_as, src, len))
		return -EIO;

	while (len) {
		unsigned int soff = offset_in_page(src);
		unsigned int doff = offset_in_page(dst);
		size_t n = min_t(u64, len, PAGE_SIZE - max(soff, doff));
		struct page *sp, *dp;
		void *s, *d;

		sp = ascend_emu_mem_page(emu, src_as, src, false);
		if (IS_ERR(sp))
			return PTR_ERR(sp);
		if (!sp) {
			/* Zeroes onto a never-written page: nothing to do. */
			dp = ascend_emu_mem_page(emu, dst_as, dst, false);
			if (IS_ERR(dp))
				return PTR_ERR(dp);
			if (dp)
				memzero_page(dp, doff, n);
		} else {
			bool filled = false;

			s = kmap_local_page(sp);
			/* a page written whole is born with the bytes */
			dp = ascend_emu_mem_page_init(emu, dst_as, dst, true,
						      n == PAGE_SIZE ? s : NULL,
						      &filled);
			if (IS_ERR(dp)) {
				kunmap_local(s);
				return PTR_ERR(dp);
			}
			if (!filled) {
				d = kmap_local_page(dp);
				memcpy(d + doff, s + soff, n);
				kunmap_local(d);
			}
			kunmap_local(s);
		}
		src += n;
		dst += n;
		len -= n;
		if (len)
			cond_resched();
	}
	return 0;
}

int ascend_emu_hbm_copy(struct ascend_emu *emu, u64 dst, u64 src, u64 len)
{
	return ascend_emu_mem_copy(emu, dst, ASCEND_AS_HBM, src, ASCEND_AS_HBM,
				   len);
}

/*
 * Byte i of [dst, dst + len) becomes byte (i % @pattern_size) of @pattern
 * (little endian).  A zero fill leaves never-written pages unbacked.
 */
int ascend_emu_mem_fill(struct ascend_emu *emu, u64 dst, u32 dst_as,
			u64 len, u64 pattern, u32 pattern_size)
{
	u8 rep[64];
	u64 done = 0;
	bool zero;
	u32 i;

	if (!ascend_emu_in_as(emu, dst_as, dst, len) ||
	    (pattern_size != 1 && pattern_size != 2 && pattern_size != 4))
		return -EIO;
	if (pattern_size < 8)
		pattern &= (1ULL << (pattern_size * 8)) - 1;
	zero = !pattern;

	while (done < len) {
		unsigned int off = offset_in_page(dst + done);
		size_t n = min_t(u64, len - done, PAGE_SIZE - off);
		u32 phase = done % pattern_size;
		struct page *page;
		size_t k;
		u8 *d;

		page = ascend_emu_mem_page(emu, dst_as, dst + done, !zero);
		if (IS_ERR(page))
			return PTR_ERR(page);
		if (page) {
			/* 64 is a multiple of every pattern size. */
			for (i = 0; i < sizeof(rep); i++)
				rep[i] = pattern >>
					 (((phase + i) % pattern_size) * 8);
			d = kmap_local_page(page);
			for (k = 0; k < n; k += sizeof(rep))
				memcpy(d + off + k, rep,
				       min_t(size_t, n - k, sizeof(rep)));
			kunmap_local(d);
		}
		done += n;
		cond_resched();
	}
	return 0;
}

int ascend_emu_hbm_fill(struct ascend_emu *emu, u64 dst, u64 len,
			u64 pattern, u32 pattern_size)
{
	return ascend_emu_mem_fill(emu, dst, ASCEND_AS_HBM, len, pattern,
				   pattern_size);
}

/* No bit of the @nr pages from @first set in @present. */
static inline bool ascend_emu_none_present(const unsigned long *present,
					   unsigned long first,
					   unsigned long nr)
{
	if (nr == 1)
		return !test_bit(first, present);
	return find_next_bit(present, first + nr, first) >= first + nr;
}

/* ascend_emu_hbm_discard(), inline in the hw op (every reuse runs one) */
static __always_inline void __ascend_emu_hbm_discard(struct ascend_emu *emu,
						     u64 addr, u64 len)
{
	struct page *page;
	unsigned long idx;

	if (!len || WARN_ON(!ascend_emu_in_hbm(emu, addr, len)))
		return;

	/* Device memory is managed in whole pages: no partial page here. */
	WARN_ON(!PAGE_ALIGNED(addr) || !PAGE_ALIGNED(len));
	while (len) {
		unsigned long first = addr >> PAGE_SHIFT, last;
		struct xarray *xa = ascend_emu_store(emu, &first);
		u64 n = len;

		/* one store at a time: HBM, then the page-table memory */
		if (xa == &emu->hbm_pages)
			n = min(len, emu->hbm_size - addr);
		last = first + ((n - 1) >> PAGE_SHIFT);
		/*
		 * No bit set: no page to free and no bit to clear (the
		 * common case of memory freed unwritten, or a small block
		 * whose one page is checked at once).
		 */
		if (emu->present &&
		    ascend_emu_none_present(emu->present, addr >> PAGE_SHIFT,
					    last - first + 1)) {
			addr += n;
			len -= n;
			continue;
		}
		xa_for_each_range(xa, idx, page, first, last) {
			xa_erase(xa, idx);
			ascend_emu_cache_drop(emu, page_private(page), page);
			ascend_emu_free_backing(emu, page);
			cond_resched();
		}
		/* alone (see the top): no writer sets a bit meanwhile */
		if (emu->present)
			bitmap_clear(emu->present, addr >> PAGE_SHIFT,
				     n >> PAGE_SHIFT);
		addr += n;
		len -= n;
	}
}

void ascend_emu_hbm_discard(struct ascend_emu *emu, u64 addr, u64 len)
{
	__ascend_emu_hbm_discard(emu, addr, len);
}

/* Bits of the presence bitmap: every page of HBM and page-table memory. */
static unsigned long ascend_emu_pages(const struct ascend_emu *emu)
{
	return (emu->hbm_size + ascend_mmu_table_mem_size(emu->hbm_size)) >>
	       PAGE_SHIFT;
}

/* The presence bitmap, while the device is down (setup, init). */
static int ascend_emu_present_alloc(struct ascend_emu *emu)
{
	if (!emu->present)
		emu->present = bitmap_zalloc(ascend_emu_pages(emu), GFP_KERNEL);
	return emu->present ? 0 : -ENOMEM;
}

void ascend_emu_hbm_release(struct ascend_emu *emu)
{
	struct page *page;
	unsigned long idx;

	/* no access runs: the next init allocates it again */
	bitmap_free(emu->present);
	emu->present = NULL;
	memset(emu->page_cache, 0, sizeof(emu->page_cache));
	xa_for_each(&emu->hbm_pages, idx, page)
		ascend_emu_free_backing(emu, page);
	xa_destroy(&emu->hbm_pages);
	if (!xa_empty(&emu->table_pages)) {
		xa_for_each(&emu->table_pages, idx, page)
			ascend_emu_free_backing(emu, page);
		xa_destroy(&emu->table_pages);
	}
}

static int ascend_emu_init(struct ascend_hw_device *hw)
{
	struct ascend_emu *emu = to_ascend_emu(hw);
	int ret;

	/* a device brought up again after fini: its memory is empty */
	ret = ascend_emu_present_alloc(emu);
	if (ret)
		return ret;

	ret = ascend_emu_smmu_init(emu);
	if (ret)
		return ret;

	ret = ascend_emu_dma_init(emu, emu->num_dma_engines);
	if (ret)
		goto err_smmu_fini;

	ret = ascend_emu_cp_init(emu);
	if (ret)
		goto err_dma_fini;

	ascend_emu_set_up(emu, true);
	return 0;

err_dma_fini:
	ascend_emu_dma_fini(emu);
err_smmu_fini:
	ascend_emu_smmu_fini(emu);
	return ret;
}

static void ascend_emu_fini(struct ascend_hw_device *hw)
{
	struct ascend_emu *emu = to_ascend_emu(hw);

	/* no other NPU's new access finds this one from here on */
	ascend_emu_set_up(emu, false);
	/*
	 * and none in flight still has it (a record through a remote event
	 * entry kicks this one's command processor, which goes next)
	 */
	ascend_emu_smmu_sync();
	/* the driver answers no page request any more */
	ascend_emu_smmu_prq_stop(emu);
	ascend_emu_cp_fini(emu);
	ascend_emu_dma_fini(emu);
	/*
	 * Another NPU's engines may be inside an access that reached this
	 * one's tables or HBM through a peer window (the command processor's
	 * copies hold no driver lock): wait for those in flight before the
	 * memory goes.
	 */
	ascend_emu_smmu_sync();
	ascend_emu_smmu_fini(emu);
	/* a device that went down lost what its memory held */
	ascend_emu_hbm_release(emu);
	WRITE_ONCE(emu->event_notify, 0);
}

/*
 * hw op hbm_discard: accesses in flight finish first -- an access holds a
 * backing page while it moves bytes -- and one that starts afterwards finds
 * no page (reads zeroes, or backs a fresh one).
 */
static void ascend_emu_discard(struct ascend_hw_device *hw, u64 addr, u64 len)
{
	struct ascend_emu *emu = to_ascend_emu(hw);

	/*
	 * Nothing written there since its last discard (every reuse of
	 * memory freed unwritten): no page to drop, so no access section
	 * to wait for either.  A write that had begun and not yet set its
	 * bit can only come from work published after the free (the
	 * driver discards once the owner's earlier work is over, and once
	 * the range is out of every other space), the owner's own use
	 * after free: it lands as if it had begun after the discard.
	 */
	if (emu->present && len && PAGE_ALIGNED(addr) && PAGE_ALIGNED(len) &&
	    ascend_emu_in_hbm(emu, addr, len) &&
	    ascend_emu_none_present(emu->present, addr >> PAGE_SHIFT,
				    len >> PAGE_SHIFT))
		return;
	ascend_emu_smmu_exclusive_begin();
	__ascend_emu_hbm_discard(emu, addr, len);
	ascend_emu_smmu_exclusive_end();
}

/* hw op dma_direct_info: the command processor's own mover */
static void ascend_emu_direct_info(struct ascend_hw_device *hw,
				   struct ascend_dma_engine_info *info)
{
	ascend_emu_dma_direct_info(to_ascend_emu(hw), info);
}

static const struct ascend_hw_ops ascend_emu_ops = {
	.init = ascend_emu_init,
	.fini = ascend_emu_fini,
	.hbm_rw = ascend_emu_hbm_rw,
	.sys_rw = ascend_emu_sys_rw,
	.hbm_discard = ascend_emu_discard,
	.hbm_map_page = ascend_emu_hbm_map_page,
	.dma_submit = ascend_emu_dma_submit,
	.dma_cancel = ascend_emu_dma_cancel,
	.queue_start = ascend_emu_queue_start,
	.queue_stop = ascend_emu_queue_stop,
	.queue_doorbell = ascend_emu_queue_doorbell,
	.queue_info = ascend_emu_queue_info,
	.queue_halt = ascend_emu_queue_halt,
	.query_kernels = ascend_emu_query_kernels,
	.dma_engine_info = ascend_emu_dma_engine_info,
	.dma_direct_info = ascend_emu_direct_info,
	.mmu_set_context = ascend_emu_mmu_set_context,
	.mmu_invalidate = ascend_emu_mmu_invalidate,
	.mmu_page_requests = ascend_emu_mmu_page_requests,
	.mmu_page_response = ascend_emu_mmu_page_response,
	.set_cmd_timeout = ascend_emu_set_cmd_timeout,
	.event_signal = ascend_emu_event_signal,
	.event_sync = ascend_emu_event_sync,
	.set_event_notify = ascend_emu_set_event_notify,
};

int ascend_emu_setup(struct ascend_emu *emu, unsigned int index,
		     const struct ascend_emu_config *cfg)
{
	emu->hw.ops = &ascend_emu_ops;
	emu->index = index;
	emu->hbm_size = cfg->hbm_size;
	emu->num_dma_engines = cfg->num_dma_engines;
	emu->num_ai_cores = cfg->num_ai_cores;
	/* no slice: room for every page of HBM and page-table memory */
	emu->store_pages = (cfg->store_size ?:
			    cfg->hbm_size +
			    ascend_mmu_table_mem_size(cfg->hbm_size)) >> PAGE_SHIFT;
	atomic_long_set(&emu->backed, 0);
	xa_init(&emu->hbm_pages);
	xa_init(&emu->table_pages);
	spin_lock_init(&emu->event_lock);
	atomic_set(&emu->fail_dma_xfer, 0);
	atomic_set(&emu->injected_dma_xfer, 0);
	return ascend_emu_present_alloc(emu);
}

struct ascend_emu *ascend_emu_create(struct device *dev, unsigned int index,
				     const struct ascend_emu_config *cfg,
				     struct dentry *debugfs, unsigned int irq)
{
	struct ascend_emu *emu;

	emu = kzalloc(sizeof(*emu), GFP_KERNEL);
	if (!emu)
		return NULL;
	if (ascend_emu_setup(emu, index, cfg)) {
		kfree(emu);
		return NULL;
	}
	emu->dev = dev;
	emu->irq = irq;
	if (!IS_ERR_OR_NULL(debugfs)) {
		char name[16];

		/* the device's own fault knobs (Documentation/reliability.rst) */
		snprintf(name, sizeof(name), "ascend.%u", index);
		emu->debugfs = debugfs_create_dir(name, debugfs);
		debugfs_create_atomic_t("fail_dma_xfer", 0600, emu->debugfs,
					&emu->fail_dma_xfer);
		debugfs_create_atomic_t("injected_dma_xfer", 0400,
					emu->debugfs, &emu->injected_dma_xfer);
	}
	return emu;
}

/* After the device is gone: its driver's fini has run, nothing is up. */
void ascend_emu_destroy(struct ascend_emu *emu)
{
	if (!emu)
		return;
	debugfs_remove_recursive(emu->debugfs);
	ascend_emu_hbm_release(emu);
	kfree(emu);
}
