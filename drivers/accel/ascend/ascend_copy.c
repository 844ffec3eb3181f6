// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_ASCEND_COPY: a synchronous copy by the DMA engines.
 *
 * DRM_IOCTL_ASCEND_FILL: a synchronous fill (memset) by the DMA engines,
 * with %ASCEND_DMA_FILL descriptors.  Both are also offered to the command
 * processor as ascend_dma_copy_va() / ascend_dma_fill_va().
 *
 * Order of events: check the arguments; drain the file's queues (the copy
 * is ordered after everything the process had published, which is what
 * makes "kernel writes, then aclrtMemcpy without a sync" correct); then,
 * under vm->lock, translate both ranges, build the descriptors, run them
 * and wait.  Holding vm->lock across the DMA keeps a concurrent GEM_CLOSE
 * from freeing the memory under the engines (its unmap waits for us).
 */
#include <linux/completion.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ascend_copy.h"
#include "ascend_drv.h"
#include "ascend_hw.h"
#include "ascend_queue.h"
#include "ascend_vm.h"

int ascend_copy_check(const struct drm_ascend_copy *args)
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

int ascend_copy_build(const struct ascend_vm_seg *dst, unsigned int ndst,
		      const struct ascend_vm_seg *src, unsigned int nsrc,
		      u64 chunk, struct ascend_dma_desc *descs,
		      unsigned int max)
{
	unsigned int di = 0, si = 0, n = 0;
	u64 doff = 0, soff = 0;

	if (!chunk)
		return -EINVAL;

	while (di < ndst && si < nsrc) {
		u64 len = min3(dst[di].len - doff, src[si].len - soff, chunk);

		if (descs) {
			if (n >= max)
				return -E2BIG;
			descs[n] = (struct ascend_dma_desc){
				.kind = ASCEND_DMA_LINEAR,
				.dst = dst[di].addr + doff,
				.src = src[si].addr + soff,
				.len = len,
			};
		}
		n++;

		doff += len;
		soff += len;
		if (doff == dst[di].len) {
			di++;
			doff = 0;
		}
		if (soff == src[si].len) {
			si++;
			soff = 0;
		}
	}
	/* Both sides must run out together (zero-length segments are bugs). */
	if (di != ndst || si != nsrc || doff || soff)
		return -EINVAL;
	return n;
}

int ascend_fill_check(u64 dst, u64 size, u32 pattern_size, u32 flags)
{
	u64 end;

	if (flags || !size)
		return -EINVAL;
	if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4)
		return -EINVAL;
	if (size % pattern_size)
		return -EINVAL;
	if (check_add_overflow(dst, size, &end))
		return -EINVAL;
	return 0;
}

int ascend_fill_args_check(const struct drm_ascend_fill *args)
{
	return ascend_fill_check(args->dst, args->size, args->pattern_size,
				 args->flags);
}

/* @pattern (@size bytes, little endian) as seen from byte @phase onward. */
static u64 ascend_fill_rotate(u64 pattern, u32 size, u32 phase)
{
	u32 bits = size * 8;

	pattern &= bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	if (!phase)
		return pattern;
	return ((pattern >> (phase * 8)) | (pattern << (bits - phase * 8))) &
	       ((1ULL << bits) - 1);
}

int ascend_fill_build(const struct ascend_vm_seg *segs, unsigned int nsegs,
		      u64 pattern, u32 pattern_size, u64 chunk,
		      struct ascend_dma_desc *descs, unsigned int max)
{
	unsigned int i, n = 0;
	u64 done = 0;

	if (!chunk || !pattern_size || pattern_size > 4)
		return -EINVAL;

	for (i = 0; i < nsegs; i++) {
		u64 off;

		for (off = 0; off < segs[i].len; ) {
			u64 len = min(segs[i].len - off, chunk);

			if (descs) {
				if (n >= max)
					return -E2BIG;
				descs[n] = (struct ascend_dma_desc){
					.kind = ASCEND_DMA_FILL,
					.dst = segs[i].addr + off,
					.len = len,
					.pattern_size = pattern_size,
					.pattern = ascend_fill_rotate(pattern,
						pattern_size,
						done % pattern_size),
				};
			}
			n++;
			off += len;
			done += len;
		}
	}
	return n;
}

/* Run @n descriptors on the engines and wait for them. */
static int ascend_dma_run(struct ascend_device *adev,
			  const struct ascend_dma_desc *descs, unsigned int n)
{
	struct ascend_dma_job job = {};

	job.descs = descs;
	job.count = n;
	adev->hw->dma_submit(adev, &job);
	/* The engines own @job until it completes: no way to abandon it. */
	wait_for_completion(&job.done);
	return job.status;
}

int ascend_dma_copy_va(struct ascend_vm *vm, u64 dst, u64 src, u64 size)
{
	struct drm_ascend_copy args = { .dst = dst, .src = src, .size = size };
	struct ascend_vm_seg *dsegs = NULL, *ssegs = NULL;
	struct ascend_dma_desc *descs = NULL;
	int nd, ns, n, ret;

	ret = ascend_copy_check(&args);
	if (ret)
		return ret;

	mutex_lock(&vm->lock);
	nd = ascend_vm_translate_alloc_locked(vm, dst, size, &dsegs);
	if (nd < 0) {
		ret = nd;
		goto out_unlock;
	}
	ns = ascend_vm_translate_alloc_locked(vm, src, size, &ssegs);
	if (ns < 0) {
		ret = ns;
		goto out_unlock;
	}

	n = ascend_copy_build(dsegs, nd, ssegs, ns, ASCEND_COPY_CHUNK, NULL, 0);
	if (n < 0) {
		ret = n;
		goto out_unlock;
	}
	descs = kvmalloc_array(n, sizeof(*descs), GFP_KERNEL);
	if (!descs) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	n = ascend_copy_build(dsegs, nd, ssegs, ns, ASCEND_COPY_CHUNK,
			      descs, n);
	if (WARN_ON(n < 0)) {
		ret = n;
		goto out_unlock;
	}

	/* vm->lock held across the DMA: an unmap waits for it to finish. */
	ret = ascend_dma_run(vm->adev, descs, n);

out_unlock:
	mutex_unlock(&vm->lock);
	kvfree(descs);
	kvfree(ssegs);
	kvfree(dsegs);
	return ret;
}

int ascend_dma_fill_va(struct ascend_vm *vm, u64 dst, u64 size, u64 pattern,
		       u32 pattern_size)
{
	struct ascend_vm_seg *segs = NULL;
	struct ascend_dma_desc *descs = NULL;
	int nsegs, n, ret;

	ret = ascend_fill_check(dst, size, pattern_size, 0);
	if (ret)
		return ret;

	mutex_lock(&vm->lock);
	nsegs = ascend_vm_translate_alloc_locked(vm, dst, size, &segs);
	if (nsegs < 0) {
		ret = nsegs;
		goto out_unlock;
	}
	n = ascend_fill_build(segs, nsegs, pattern, pattern_size,
			      ASCEND_COPY_CHUNK, NULL, 0);
	if (n < 0) {
		ret = n;
		goto out_unlock;
	}
	descs = kvmalloc_array(n, sizeof(*descs), GFP_KERNEL);
	if (!descs) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	n = ascend_fill_build(segs, nsegs, pattern, pattern_size,
			      ASCEND_COPY_CHUNK, descs, n);
	if (WARN_ON(n < 0)) {
		ret = n;
		goto out_unlock;
	}

	ret = ascend_dma_run(vm->adev, descs, n);

out_unlock:
	mutex_unlock(&vm->lock);
	kvfree(descs);
	kvfree(segs);
	return ret;
}

int ascend_ioctl_copy(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_copy *args = data;
	int ret;

	ret = ascend_copy_check(args);
	if (ret)
		return ret;

	ret = ascend_queue_file_drain(af);
	if (ret)
		return ret;

	return ascend_dma_copy_va(&af->vm, args->dst, args->src, args->size);
}

int ascend_ioctl_fill(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_fill *args = data;
	int ret;

	ret = ascend_fill_args_check(args);
	if (ret)
		return ret;

	ret = ascend_queue_file_drain(af);
	if (ret)
		return ret;

	return ascend_dma_fill_va(&af->vm, args->dst, args->size,
				  args->pattern, args->pattern_size);
}
