/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synchronous device-to-device copies (DRM_IOCTL_ASCEND_COPY): argument
 * checks and the split into DMA descriptors, kept free of device state so
 * KUnit can test them.
 */
#ifndef __ASCEND_COPY_H__
#define __ASCEND_COPY_H__

#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include "ascend_accel.h"
#include "ascend_hw_rules.h"

struct drm_ascend_copy_2d;
struct drm_ascend_copy_batch;
struct drm_ascend_copy_entry;
struct ascend_memcpy_desc;
struct ascend_file;
struct sg_table;
struct drm_ascend_fill;
struct ascend_dma_desc;
struct ascend_dma_mmu;
struct ascend_device;
struct ascend_vm;
struct ascend_vm_seg;

/*
 * Largest transfer in one descriptor: a big copy becomes many descriptors
 * that the DMA engines share.
 */
#define ASCEND_COPY_CHUNK	SZ_1M

/*
 * Pageable host memory is pinned for a copy this many bytes at a time (a
 * window needs at most ASCEND_COPY_PIN_WINDOW / PAGE_SIZE + 1 pages).
 */
#define ASCEND_COPY_PIN_WINDOW	SZ_16M

/*
 * Bytes a copy or fill moves in one pass with the address-space locks
 * held (they are dropped between passes), and rows of a 2D copy per pass
 * (ASCEND_COPY_2D_PASS_ROWS, fewer if the band would move more than
 * ASCEND_COPY_PASS bytes): the longest anyone waits for a file's
 * address-space lock.
 */
#define ASCEND_COPY_PASS	SZ_16M
#define ASCEND_COPY_2D_PASS_ROWS	4096

/*
 * Between two passes of a long copy or fill: 0, or why to stop: -EINTR (a
 * fatal signal), -ENODEV (the device is being removed).
 */
int ascend_copy_pass_gap(struct ascend_device *adev);

/*
 * The pages [*first, *first + *count) that hold [addr, addr + len), len > 0
 * and addr + len not wrapping: page numbers, not addresses.
 */
static inline void ascend_copy_page_span(u64 addr, u64 len,
					 unsigned long *first,
					 unsigned int *count)
{
	*first = addr >> PAGE_SHIFT;
	*count = ((addr + len - 1) >> PAGE_SHIFT) - *first + 1;
}

/*
 * flags/pad zero, size > 0, no wrap-around, no overlap: 0 or -EINVAL.
 * Inlined: it is on the synchronous copy's hot path.
 */
static __always_inline int ascend_copy_check(const struct drm_ascend_copy *args)
{
	u64 dst_end, src_end;

	if (args->flags || args->pad || !args->size)
		return -EINVAL;
	if (check_add_overflow(args->dst, args->size, &dst_end) ||
	    check_add_overflow(args->src, args->size, &src_end))
		return -EINVAL;
	/* CANN's memcpy forbids overlap; memmove semantics are not offered. */
	if (args->dst < src_end && args->src < dst_end)
		return -EINVAL;
	return 0;
}

/*
 * Pair @dst and @src (device-physical segments of the same total length)
 * into descriptors of at most @chunk bytes, cut at every segment boundary
 * of either side.  Writes up to @max descriptors to @descs (NULL to count)
 * and returns the number needed; -EINVAL if the totals differ or @chunk
 * is 0, -E2BIG if @max is too small.
 */
int ascend_copy_build(const struct ascend_vm_seg *dst, unsigned int ndst,
		      const struct ascend_vm_seg *src, unsigned int nsrc,
		      u64 chunk, struct ascend_dma_desc *descs,
		      unsigned int max);
int ascend_fill_args_check(const struct drm_ascend_fill *args);

/*
 * Split the device-physical segments @segs into %ASCEND_DMA_FILL
 * descriptors of at most @chunk bytes.  Each descriptor's pattern is
 * rotated so the pattern stays in phase with the start of the whole fill
 * (segments need not be multiples of @pattern_size).  Writes up to @max
 * descriptors to @descs (NULL to count); returns the number needed,
 * -EINVAL if @chunk is 0, -E2BIG if @max is too small.
 */
int ascend_fill_build(const struct ascend_vm_seg *segs, unsigned int nsegs,
		      u64 pattern, u32 pattern_size, u64 chunk,
		      struct ascend_dma_desc *descs, unsigned int max);

/*
 * The DMA-mapped segments of @sgt as %ASCEND_AS_SYS segments, in an array
 * it allocates (kvfree() it).  Returns their number or -ENOMEM.
 */
int ascend_copy_sgt_segs(struct sg_table *sgt, struct ascend_vm_seg **segs);

/*
 * DRM_IOCTL_ASCEND_COPY's copy, after the file's queues were drained: a
 * side the device MMU of @af claims is translated (-EFAULT when it is not
 * inside one mapping), any other side is pageable memory of the calling
 * process, pinned window by window for the copy.  -EFAULT when such a
 * range is not user memory that can be pinned (read, or written for the
 * destination), -EINTR when a fatal signal stopped it between windows.
 */
int ascend_copy_user(struct ascend_file *af, u64 dst, u64 src, u64 size);
/*
 * DRM_IOCTL_ASCEND_FILL's fill of [@dst, @dst + @size) in @vm, pass by
 * pass under @vm->lock: 0, -EINVAL (bad arguments), -EFAULT (not inside
 * one writable mapping), -EINTR (a fatal signal), -ENOMEM or -EIO.
 */
int ascend_dma_fill_va(struct ascend_vm *vm, u64 dst, u64 size, u64 pattern,
		       u32 pattern_size);

/**
 * struct ascend_copy_side - one side of a copy from an ioctl
 * @addr: the user's address
 * @mmu: claimed by the device MMU: translated, never pinned here
 * @write: the destination (pinned with FOLL_WRITE, dirtied on unpin)
 * @pages: pageable: page array for one window
 * @npages: pageable: pages pinned now
 * @sgt: pageable: the pinned window, DMA-mapped while @mapped
 * @mapped: @sgt is allocated and DMA-mapped
 */
struct ascend_copy_side {
	u64 addr;
	bool mmu;
	bool write;
	struct page **pages;
	unsigned int npages;
	struct sg_table sgt;
	bool mapped;
};

/*
 * Pin [addr, addr + len) of the calling process for side @s (whose @pages
 * has room for the span's pages) and DMA-map it; undo with
 * ascend_copy_unpin() (also fine when nothing is pinned).
 */
int ascend_copy_pin(struct ascend_file *af, struct ascend_copy_side *s,
		    u64 addr, u64 len);
void ascend_copy_unpin(struct ascend_file *af, struct ascend_copy_side *s);

/*
 * Page arrays of @max_pages entries for the pageable (non-MMU) sides of a
 * copy; on failure nothing stays allocated.  Freed with kvfree().
 */
int ascend_copy_alloc_pages(struct ascend_copy_side *d,
			    struct ascend_copy_side *s, unsigned int max_pages);

/*
 * Run @n descriptors as one job (%ASCEND_AS_VA translated by @mmu) and
 * wait killably: a fatal signal cancels the job, and the call returns
 * -EINTR once the engines let go of it.  Else the job's status, with its
 * fault address in *@fault_addr.
 */
int ascend_dma_run_mmu(struct ascend_device *adev,
		       const struct ascend_dma_desc *descs, unsigned int n,
		       const struct ascend_dma_mmu *mmu, u64 *fault_addr);

/* ------------------------------------------------------------------------ */
/* Batch, 2D, indirect and offset copies (ascend_copy_ext.c uses these) */

/* DRM_IOCTL_ASCEND_COPY_2D's argument rules: 0 or -EINVAL. */
int ascend_copy_2d_check(const struct drm_ascend_copy_2d *args);

/*
 * Split a 2D copy of @height rows into at most @parts %ASCEND_DMA_2D
 * descriptors of consecutive row bands (sizes differ by at most one row),
 * addresses in @dst_as / @src_as.  Writes up to @max descriptors (NULL to
 * count); returns the number, -EINVAL if @parts is 0, -E2BIG if @max is
 * too small.
 */
int ascend_copy_2d_build(u64 dst, u32 dst_as, u64 dpitch, u64 src, u32 src_as,
			 u64 spitch, u64 width, u64 height, unsigned int parts,
			 struct ascend_dma_desc *descs, unsigned int max);

/* count 1..DRM_ASCEND_COPY_BATCH_MAX, entry_size >= 24, flags 0. */
int ascend_copy_batch_args_check(const struct drm_ascend_copy_batch *args);

/*
 * Every entry's rules, then each side of each non-empty entry through
 * @side_ok(@ctx, addr, size, write) (0 or a negative errno).  Stops at the
 * first bad entry: its index goes to *@fail_index (else 0xffffffff).
 */
int ascend_copy_batch_validate(const struct drm_ascend_copy_entry *e,
			       u32 count,
			       int (*side_ok)(void *ctx, u64 addr, u64 len,
					      bool write),
			       void *ctx, u32 *fail_index);

#endif /* __ASCEND_COPY_H__ */
