/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synchronous device-to-device copies (DRM_IOCTL_ASCEND_COPY): argument
 * checks and the split into DMA descriptors, kept free of device state so
 * KUnit can test them.
 */
#ifndef __ASCEND_COPY_H__
#define __ASCEND_COPY_H__

#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/types.h>

struct drm_ascend_copy;
struct ascend_file;
struct sg_table;
struct drm_ascend_fill;
struct ascend_dma_desc;
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

/* flags/pad zero, size > 0, no wrap-around, no overlap: 0 or -EINVAL. */
int ascend_copy_check(const struct drm_ascend_copy *args);

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

/* flags zero, pattern_size 1/2/4, size > 0 and a multiple of it, no wrap. */
int ascend_fill_check(u64 dst, u64 size, u32 pattern_size, u32 flags);
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
 * The DMA path for callers other than the ioctls, e.g. the command
 * processor running ASCEND_CMD_COPY / ASCEND_CMD_FILL.  Each one takes
 * @vm->lock, translates the device VAs, builds the descriptors, submits
 * them to the DMA engines and waits for them, then drops the lock.  It does
 * NOT drain the file's queues (the ioctls do that before calling in).
 * Sleeps; call from process context without @vm->lock held.
 *
 * Returns 0; -EINVAL for bad arguments (size 0, overflow, overlap for copy,
 * pattern_size not 1/2/4 or size not a multiple of it for fill); -EFAULT
 * when a range is not fully inside one mapping of @vm (fault address: the
 * first byte of the offending range); -ENOMEM; -EIO (DMA engine error) or
 * -ENOMEM from the engines (the emulator could not back HBM).
 */
int ascend_dma_copy_va(struct ascend_vm *vm, u64 dst, u64 src, u64 size);

/*
 * The DMA-mapped segments of @sgt as %ASCEND_AS_SYS segments, in an array
 * it allocates (kvfree() it).  Returns their number or -ENOMEM.
 */
int ascend_copy_sgt_segs(struct sg_table *sgt, struct ascend_vm_seg **segs);

/*
 * DRM_IOCTL_ASCEND_COPY's copy: like ascend_dma_copy_va(), but a side the
 * device MMU of @af does not claim is pageable memory of the calling
 * process, pinned window by window for the copy.  -EFAULT when such a
 * range is not user memory that can be pinned (read, or written for the
 * destination), -EINTR when a fatal signal stopped it between windows.
 */
int ascend_copy_user(struct ascend_file *af, u64 dst, u64 src, u64 size);
int ascend_dma_fill_va(struct ascend_vm *vm, u64 dst, u64 size, u64 pattern,
		       u32 pattern_size);

#endif /* __ASCEND_COPY_H__ */
