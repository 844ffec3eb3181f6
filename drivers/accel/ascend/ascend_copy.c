// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_ASCEND_COPY: a synchronous copy by the DMA engines.
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
			descs[n].dst = dst[di].addr + doff;
			descs[n].src = src[si].addr + soff;
			descs[n].len = len;
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

int ascend_ioctl_copy(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_copy *args = data;
	struct ascend_vm_seg *dsegs = NULL, *ssegs = NULL;
	struct ascend_dma_desc *descs = NULL;
	struct ascend_dma_job job = {};
	int nd, ns, n, ret;

	ret = ascend_copy_check(args);
	if (ret)
		return ret;

	ret = ascend_queue_file_drain(af);
	if (ret)
		return ret;

	mutex_lock(&af->vm.lock);
	nd = ascend_vm_translate_alloc_locked(&af->vm, args->dst, args->size,
					      &dsegs);
	if (nd < 0) {
		ret = nd;
		goto out_unlock;
	}
	ns = ascend_vm_translate_alloc_locked(&af->vm, args->src, args->size,
					      &ssegs);
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

	job.descs = descs;
	job.count = n;
	adev->hw->dma_submit(adev, &job);
	/* The engines own @job until it completes: no way to abandon it. */
	wait_for_completion(&job.done);
	ret = job.status;

out_unlock:
	mutex_unlock(&af->vm.lock);
	kvfree(descs);
	kvfree(ssegs);
	kvfree(dsegs);
	return ret;
}
