/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synchronous device-to-device copies (DRM_IOCTL_ASCEND_COPY): argument
 * checks and the split into DMA descriptors, kept free of device state so
 * KUnit can test them.
 */
#ifndef __ASCEND_COPY_H__
#define __ASCEND_COPY_H__

#include <linux/sizes.h>
#include <linux/types.h>

struct drm_ascend_copy;
struct ascend_dma_desc;
struct ascend_vm_seg;

/*
 * Largest transfer in one descriptor: a big copy becomes many descriptors
 * that the DMA engines share.
 */
#define ASCEND_COPY_CHUNK	SZ_1M

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

#endif /* __ASCEND_COPY_H__ */
