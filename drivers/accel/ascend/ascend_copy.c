// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_ASCEND_COPY: a synchronous copy by the DMA engines.
 *
 * DRM_IOCTL_ASCEND_FILL: a synchronous fill (memset) by the DMA engines,
 * with %ASCEND_DMA_FILL descriptors.  (The ring's COPY and FILL commands
 * are executed by the device itself, on its own engines.)
 *
 * Host memory: each side of a COPY is either claimed by the device MMU (a
 * device VA, or host memory pinned and mapped by ascend_host.c: it is
 * translated, to HBM or SYS segments) or pageable memory of the calling
 * process.  Pageable memory is pinned short-term (no FOLL_LONGTERM; with
 * FOLL_WRITE for the destination), put in an sg table, DMA-mapped, copied
 * and unpinned, %ASCEND_COPY_PIN_WINDOW bytes at a time so a huge copy
 * needs no huge page array and pins a bounded amount.  A fatal signal
 * stops the DMA (dma_cancel()), and the pages are unpinned only once the
 * engines are done with them, also when the process is being killed.
 * Pinning takes the process's mmap_lock, so it happens before vm->lock.
 *
 * Order of events: drain the file's queues (the ioctl table does it,
 * before it enters the device, ascend_drv.c: the copy is ordered after
 * everything the process had published, which is what makes "kernel
 * writes, then aclrtMemcpy without a sync" correct); check the arguments;
 * then,
 * under vm->lock, translate both ranges, build the descriptors, run them
 * and wait.  Holding vm->lock across the DMA keeps a concurrent GEM_CLOSE
 * from freeing the memory under the engines (its unmap waits for us).
 * Large copies and fills go in passes of %ASCEND_COPY_PASS bytes, each
 * translated and run under the lock, which is dropped in between: no one
 * waits for a file's address-space lock longer than one pass, and a fatal
 * signal stops the work between passes and, through dma_cancel(), inside
 * one.
 */
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ascend_copy.h"
#include "ascend_drv.h"
#include "ascend_managed.h"
#include "ascend_hw.h"
#include "ascend_peer.h"
#include "ascend_queue.h"
#include "ascend_trace.h"
#include "ascend_vm.h"

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
				.dst_as = dst[di].as,
				.src_as = src[si].as,
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

int ascend_fill_args_check(const struct drm_ascend_fill *args)
{
	return ascend_fill_check(args->dst, args->size, args->pattern_size,
				 args->flags);
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
					.dst_as = segs[i].as,
				};
			}
			n++;
			off += len;
			done += len;
		}
	}
	return n;
}

/* Bytes the descriptors write, for tracing. */
static u64 ascend_dma_descs_bytes(const struct ascend_dma_desc *descs,
				  unsigned int n)
{
	u64 bytes = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		bytes += ascend_dma_desc_bytes(&descs[i]);
	return bytes;
}

/*
 * Wait for @job; a fatal signal stops it: the engines are told to cancel
 * it, and the wait goes on until they let go of it (one bounded step per
 * engine).  Returns 0 or -EINTR.
 */
static int ascend_dma_wait(struct ascend_device *adev,
			   struct ascend_dma_job *job)
{
	if (job->sync || !wait_for_completion_killable(&job->done))
		return 0;
	adev->hw_ops->dma_cancel(adev->hw, job);
	wait_for_completion(&job->done);
	return -EINTR;
}

int ascend_dma_run_mmu(struct ascend_device *adev,
		       const struct ascend_dma_desc *descs, unsigned int n,
		       const struct ascend_dma_mmu *mmu, u64 *fault_addr)
{
	struct ascend_dma_job job = {};
	u64 bytes = 0;
	int ret;

	job.descs = descs;
	job.count = n;
	job.mmu = mmu;
	if (trace_ascend_dma_submit_enabled() || trace_ascend_dma_done_enabled())
		bytes = ascend_dma_descs_bytes(descs, n);
	trace_ascend_dma_submit(adev->index, n, bytes, adev->num_dma_engines, 0);
	adev->hw_ops->dma_submit(adev->hw, &job);
	/* The engines own @job until it completes, cancelled or not. */
	ret = ascend_dma_wait(adev, &job);
	trace_ascend_dma_done(adev->index, n, bytes, adev->num_dma_engines,
			      ret ?: job.status);
	if (fault_addr)
		*fault_addr = job.fault_addr;
	return ret ?: job.status;
}

/* Run @n descriptors on the engines and wait for them. */
static int ascend_dma_run(struct ascend_device *adev,
			  const struct ascend_dma_desc *descs, unsigned int n)
{
	return ascend_dma_run_mmu(adev, descs, n, NULL, NULL);
}

/* A fill's passes start at multiples of any pattern size (1, 2, 4). */
static_assert(ASCEND_COPY_PASS % 4 == 0);

int ascend_copy_pass_gap(struct ascend_device *adev)
{
	if (fatal_signal_pending(current))
		return -EINTR;
	/* a removal waits for the ioctls inside drm_dev_enter(): end soon */
	if (READ_ONCE(adev->lost))
		return -ENODEV;
	cond_resched();
	return 0;
}

/* Build the descriptors for segments of both sides and run them. */
static int ascend_dma_copy_segs(struct ascend_device *adev,
				const struct ascend_vm_seg *dsegs, int nd,
				const struct ascend_vm_seg *ssegs, int ns)
{
	struct ascend_dma_desc *descs;
	int n, ret;

	n = ascend_copy_build(dsegs, nd, ssegs, ns, ASCEND_COPY_CHUNK, NULL, 0);
	if (n < 0)
		return n;
	descs = kvmalloc_array(n, sizeof(*descs), GFP_KERNEL_ACCOUNT);
	if (!descs)
		return -ENOMEM;
	n = ascend_copy_build(dsegs, nd, ssegs, ns, ASCEND_COPY_CHUNK,
			      descs, n);
	if (WARN_ON(n < 0))
		ret = n;
	else
		ret = ascend_dma_run(adev, descs, n);
	kvfree(descs);
	return ret;
}

/*
 * ascend_peer_span(), with a shortcut: a file without peer links reaches
 * only its own address space (as ascend_peer_ctx_vm() decides), so the
 * look-up goes straight to it.  The links cannot change while @ctx holds
 * ascend_peer_rwsem.
 */
static __always_inline int ascend_copy_span(const struct ascend_peer_ctx *ctx,
					    u64 va, u64 len, bool write,
					    struct ascend_dma_span *span)
{
	if (list_empty(&ctx->af->peer_links))
		return ascend_vm_span_locked(ctx->local, va, len, write, span);
	return ascend_peer_span(ctx, va, len, write, span);
}

/*
 * The common case of a copy between two ranges of the device MMU, @ctx
 * locked: each side is one contiguous span (device memory, pinned host
 * memory) and the copy fits one descriptor -- every small copy.  Such a
 * copy needs no segment arrays: ascend_peer_span() makes the same lookups
 * and access checks as ascend_peer_translate(), and the one descriptor
 * ascend_copy_build() would produce lives on the stack.  Returns false,
 * having done nothing, for any other copy (also when a side does not
 * translate: the caller's full path tells pageable memory from a fault
 * and reports it); true with the copy's result in *@ret.
 */
static bool ascend_dma_copy_span_locked(struct ascend_peer_ctx *ctx, u64 dst,
					u64 src, u64 size, int *ret)
{
	struct ascend_dma_span d, s;
	struct ascend_dma_desc desc;

	if (size > ASCEND_COPY_CHUNK ||
	    ascend_copy_span(ctx, dst, size, true, &d) || d.len != size ||
	    ascend_copy_span(ctx, src, size, false, &s) || s.len != size)
		return false;

	desc = (struct ascend_dma_desc){
		.kind = ASCEND_DMA_LINEAR,
		.dst = d.addr,
		.src = s.addr,
		.len = size,
		.dst_as = d.as,
		.src_as = s.as,
	};
	*ret = ascend_dma_run(ctx->local->adev, &desc, 1);
	return true;
}

/*
 * Copy between two ranges of the device MMU, @ctx locked (and held across
 * the DMA: an unmap waits for it to finish), through segment arrays: any
 * copy, and the one that reports translation errors.
 */
static int ascend_dma_copy_segs_locked(struct ascend_peer_ctx *ctx, u64 dst,
				       u64 src, u64 size)
{
	struct ascend_vm_seg *dsegs = NULL, *ssegs = NULL;
	int nd, ns, ret;

	nd = ascend_peer_translate(ctx, dst, size, true, &dsegs);
	if (nd < 0)
		return nd;
	ns = ascend_peer_translate(ctx, src, size, false, &ssegs);
	if (ns < 0)
		ret = ns;
	else
		ret = ascend_dma_copy_segs(ctx->local->adev, dsegs, nd, ssegs,
					   ns);
	kvfree(ssegs);
	kvfree(dsegs);
	return ret;
}

/* Is each side of a copy one mapping (@dst writable)?  @ctx locked. */
static int ascend_dma_copy_check_locked(struct ascend_peer_ctx *ctx, u64 dst,
					u64 src, u64 size)
{
	struct ascend_vm_mapping *map;
	u64 off;

	map = ascend_peer_lookup(ctx, dst, size, true, &off);
	if (!IS_ERR(map))
		map = ascend_peer_lookup(ctx, src, size, false, &off);
	return PTR_ERR_OR_ZERO(map);
}

/*
 * A copy between two ranges of the device MMU of @af, pass by pass (each
 * with the address-space locks held, dropped in between); every byte of
 * both ranges is checked before the first pass moves anything.
 */
static int ascend_dma_copy_mmu(struct ascend_file *af, u64 dst, u64 src,
			       u64 size)
{
	struct ascend_peer_ctx ctx;
	u64 off, len;
	int ret;

	for (off = 0; off < size; off += len) {
		len = min_t(u64, size - off, ASCEND_COPY_PASS);
		if (off) {
			ret = ascend_copy_pass_gap(af->adev);
			if (ret)
				return ret;
		}
		ret = ascend_peer_ctx_lock(&ctx, af);
		if (ret)
			return ret;
		if (!off && len < size)
			ret = ascend_dma_copy_check_locked(&ctx, dst, src, size);
		if (!ret && !ascend_dma_copy_span_locked(&ctx, dst + off,
							 src + off, len, &ret))
			ret = ascend_dma_copy_segs_locked(&ctx, dst + off,
							  src + off, len);
		ascend_peer_ctx_unlock(&ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/* One pass of a fill: [dst, dst + size) of one mapping, @ctx locked. */
static int ascend_dma_fill_locked(struct ascend_peer_ctx *ctx, u64 dst,
				  u64 size, u64 pattern, u32 pattern_size)
{
	struct ascend_vm_seg *segs = NULL;
	struct ascend_dma_desc *descs = NULL;
	int nsegs, n, ret;

	nsegs = ascend_peer_translate(ctx, dst, size, true, &segs);
	if (nsegs < 0)
		return nsegs;
	n = ascend_fill_build(segs, nsegs, pattern, pattern_size,
			      ASCEND_COPY_CHUNK, NULL, 0);
	if (n < 0) {
		ret = n;
		goto out;
	}
	descs = kvmalloc_array(n, sizeof(*descs), GFP_KERNEL_ACCOUNT);
	if (!descs) {
		ret = -ENOMEM;
		goto out;
	}
	n = ascend_fill_build(segs, nsegs, pattern, pattern_size,
			      ASCEND_COPY_CHUNK, descs, n);
	if (WARN_ON(n < 0))
		ret = n;
	else
		ret = ascend_dma_run(ctx->local->adev, descs, n);
out:
	kvfree(descs);
	kvfree(segs);
	return ret;
}

int ascend_dma_fill_va(struct ascend_vm *vm, u64 dst, u64 size, u64 pattern,
		       u32 pattern_size)
{
	struct ascend_vm_mapping *map;
	struct ascend_peer_ctx ctx;
	u64 off, len, moff;
	int ret;

	ret = ascend_fill_check(dst, size, pattern_size, 0);
	if (ret)
		return ret;

	/* passes start at multiples of the pattern: the phase stays 0 */
	for (off = 0; off < size; off += len) {
		len = min_t(u64, size - off, ASCEND_COPY_PASS);
		if (off) {
			ret = ascend_copy_pass_gap(vm->adev);
			if (ret)
				return ret;
		}
		ret = ascend_peer_ctx_lock(&ctx, ascend_vm_file(vm));
		if (ret)
			return ret;
		/* the whole range is checked before the first pass */
		if (!off && len < size) {
			map = ascend_peer_lookup(&ctx, dst, size, true, &moff);
			ret = PTR_ERR_OR_ZERO(map);
		}
		if (!ret)
			ret = ascend_dma_fill_locked(&ctx, dst + off, len, pattern,
						     pattern_size);
		ascend_peer_ctx_unlock(&ctx);
		if (ret)
			return ret;
	}
	return 0;
}

int ascend_copy_sgt_segs(struct sg_table *sgt, struct ascend_vm_seg **segs)
{
	struct scatterlist *sg;
	unsigned int i, n = 0;

	*segs = kvmalloc_array(max(sgt->nents, 1U), sizeof(**segs), GFP_KERNEL_ACCOUNT);
	if (!*segs)
		return -ENOMEM;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (!sg_dma_len(sg))
			continue;
		(*segs)[n].addr = sg_dma_address(sg);
		(*segs)[n].len = sg_dma_len(sg);
		(*segs)[n].as = ASCEND_AS_SYS;
		n++;
	}
	return n;
}

static enum dma_data_direction ascend_copy_dir(const struct ascend_copy_side *s)
{
	return s->write ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
}

int ascend_copy_alloc_pages(struct ascend_copy_side *d,
			    struct ascend_copy_side *s, unsigned int max_pages)
{
	if (!d->mmu) {
		d->pages = kvmalloc_array(max_pages, sizeof(*d->pages),
					  GFP_KERNEL_ACCOUNT);
		if (!d->pages)
			return -ENOMEM;
	}
	if (!s->mmu) {
		s->pages = kvmalloc_array(max_pages, sizeof(*s->pages),
					  GFP_KERNEL_ACCOUNT);
		if (!s->pages) {
			kvfree(d->pages);
			d->pages = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

void ascend_copy_unpin(struct ascend_file *af, struct ascend_copy_side *s)
{
	if (s->mapped) {
		dma_sync_sgtable_for_cpu(af->adev->drm.dev, &s->sgt,
					 ascend_copy_dir(s));
		dma_unmap_sgtable(af->adev->drm.dev, &s->sgt, ascend_copy_dir(s),
				  DMA_ATTR_SKIP_CPU_SYNC);
		sg_free_table(&s->sgt);
		s->mapped = false;
	}
	if (s->npages) {
		trace_ascend_unpin(af->adev->index, current->tgid, s->addr,
				   s->npages, false);
		unpin_user_pages_dirty_lock(s->pages, s->npages, s->write);
		atomic64_sub((u64)s->npages << PAGE_SHIFT, &af->copy_pinned);
		s->npages = 0;
	}
}

/* Pin [addr, addr + len) of the calling process and map it for the DMA. */
int ascend_copy_pin(struct ascend_file *af, struct ascend_copy_side *s,
		    u64 addr, u64 len)
{
	unsigned long first;
	unsigned int count;
	int ret;

	ascend_copy_page_span(addr, len, &first, &count);
	if (ascend_should_fail(af->adev, ASCEND_FAULT_SITE_PIN))
		return -EFAULT;
	ret = pin_user_pages_fast(first << PAGE_SHIFT, count,
				  s->write ? FOLL_WRITE : 0, s->pages);
	if (ret <= 0)
		return ret ?: -EFAULT;
	s->npages = ret;
	atomic64_add((u64)ret << PAGE_SHIFT, &af->copy_pinned);
	trace_ascend_pin(af->adev->index, current->tgid, addr, ret, false);
	if (ret != count) {
		/* part of the range is not mapped (or not writable) */
		ret = -EFAULT;
		goto err_unpin;
	}

	ret = sg_alloc_table_from_pages(&s->sgt, s->pages, count,
					offset_in_page(addr), len, GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_unpin;
	if (ascend_should_fail(af->adev, ASCEND_FAULT_SITE_DMA_MAP))
		ret = -ENOMEM;
	else
		/*
		 * User pages may be in several copies at once (threads copying
		 * into one buffer): a legal race on the bytes, not a reason for
		 * the DMA API's overlapping-mapping check, so map without the
		 * implicit sync and sync explicitly around the transfer.
		 */
		ret = dma_map_sgtable(af->adev->drm.dev, &s->sgt,
				      ascend_copy_dir(s), DMA_ATTR_SKIP_CPU_SYNC);
	if (ret) {
		sg_free_table(&s->sgt);
		goto err_unpin;
	}
	dma_sync_sgtable_for_device(af->adev->drm.dev, &s->sgt,
				    ascend_copy_dir(s));
	s->mapped = true;
	return 0;

err_unpin:
	ascend_copy_unpin(af, s);
	return ret;
}

/* Segments of @len bytes at @off of side @s, @ctx locked. */
static int ascend_copy_side_segs(struct ascend_peer_ctx *ctx,
				 struct ascend_copy_side *s, u64 off, u64 len,
				 struct ascend_vm_seg **segs)
{
	if (s->mmu)
		return ascend_peer_translate(ctx, s->addr + off, len, s->write,
					     segs);
	return ascend_copy_sgt_segs(&s->sgt, segs);
}

/* One window: [off, off + len) of the copy. */
static int ascend_copy_window(struct ascend_file *af,
			      struct ascend_copy_side *d,
			      struct ascend_copy_side *s, u64 off, u64 len)
{
	struct ascend_vm_seg *dsegs = NULL, *ssegs = NULL;
	struct ascend_peer_ctx ctx;
	int nd, ns, ret = 0;

	if (!d->mmu)
		ret = ascend_copy_pin(af, d, d->addr + off, len);
	if (!ret && !s->mmu)
		ret = ascend_copy_pin(af, s, s->addr + off, len);
	if (!ret)
		ret = ascend_peer_ctx_lock(&ctx, af);
	if (ret)
		goto out_unpin;

	nd = ascend_copy_side_segs(&ctx, d, off, len, &dsegs);
	ns = nd < 0 ? 0 : ascend_copy_side_segs(&ctx, s, off, len, &ssegs);
	if (nd < 0)
		ret = nd;
	else if (ns < 0)
		ret = ns;
	else
		ret = ascend_dma_copy_segs(af->adev, dsegs, nd, ssegs, ns);
	ascend_peer_ctx_unlock(&ctx);
	kvfree(ssegs);
	kvfree(dsegs);

out_unpin:
	/* The engines are done with the pages, even after a fatal signal. */
	ascend_copy_unpin(af, s);
	ascend_copy_unpin(af, d);
	return ret;
}

int ascend_copy_user(struct ascend_file *af, u64 dst, u64 src, u64 size)
{
	struct drm_ascend_copy args = { .dst = dst, .src = src, .size = size };
	struct ascend_copy_side d = { .addr = dst, .write = true };
	struct ascend_copy_side s = { .addr = src };
	/*
	 * Pages of the largest window this copy pins, not of any window: an
	 * array for 16 MiB is a 32 KiB allocation, most of a small copy's
	 * cost.
	 */
	unsigned int max_pages = DIV_ROUND_UP(min_t(u64, size,
						    ASCEND_COPY_PIN_WINDOW),
					      PAGE_SIZE) + 1;
	int chk = ascend_copy_check(&args);
	struct ascend_peer_ctx ctx;
	u64 off, len;
	int ret = 0;

	ret = ascend_peer_ctx_lock(&ctx, af);
	if (ret)
		return ret;
	/* the common case, with one lookup per side */
	if (!chk &&
	    ascend_dma_copy_span_locked(&ctx, dst, src, size, &ret)) {
		ascend_peer_ctx_unlock(&ctx);
		return ret;
	}
	/* a side in the window of a linked peer is that peer's memory */
	d.mmu = ascend_peer_claims(&ctx, dst, size);
	s.mmu = ascend_peer_claims(&ctx, src, size);
	ascend_peer_ctx_unlock(&ctx);
	/* both in the MMU: pass by pass, each under the lock */
	if (d.mmu && s.mmu)
		return chk ?: ascend_dma_copy_mmu(af, dst, src, size);

	if ((!d.mmu && !access_ok(u64_to_user_ptr(dst), size)) ||
	    (!s.mmu && !access_ok(u64_to_user_ptr(src), size)))
		return -EFAULT;

	ret = ascend_copy_alloc_pages(&d, &s, max_pages);
	if (ret)
		return ret;

	for (off = 0; off < size; off += len) {
		len = min_t(u64, size - off, ASCEND_COPY_PIN_WINDOW);
		ret = off ? ascend_copy_pass_gap(af->adev) : 0;
		if (!ret)
			ret = ascend_copy_window(af, &d, &s, off, len);
		if (ret)
			break;
	}

	kvfree(s.pages);
	kvfree(d.pages);
	return ret;
}

static int ascend_copy_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_copy *args = data;
	int ret;

	/* the ioctl table drained the file's queues first (ascend_drv.c) */
	ret = ascend_copy_check(args);
	if (!ret)
		ret = ascend_managed_prepare(af, args->dst, args->size);
	if (!ret)
		ret = ascend_managed_prepare(af, args->src, args->size);
	if (ret)
		return ret;

	return ascend_copy_user(af, args->dst, args->src, args->size);
}

static int ascend_fill_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_fill *args = data;
	int ret;

	/* the ioctl table drained the file's queues first (ascend_drv.c) */
	ret = ascend_fill_args_check(args);
	if (!ret)
		ret = ascend_managed_prepare(af, args->dst, args->size);
	if (ret)
		return ret;

	return ascend_dma_fill_va(&af->vm, args->dst, args->size,
				  args->pattern, args->pattern_size);
}

int ascend_ioctl_copy(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct drm_ascend_copy *args = data;
	int ret;

	trace_ascend_copy_submit(adev->index, current->tgid, ASCEND_TRACE_COPY,
				 0, args->size, 1, adev->num_dma_engines);
	ret = ascend_copy_ioctl(drm, data, file);
	trace_ascend_copy_done(adev->index, current->tgid, ASCEND_TRACE_COPY, 0,
			       args->size, 1, ret);
	return ret;
}

int ascend_ioctl_fill(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct drm_ascend_fill *args = data;
	int ret;

	trace_ascend_copy_submit(adev->index, current->tgid, ASCEND_TRACE_FILL,
				 0, args->size, 1, adev->num_dma_engines);
	ret = ascend_fill_ioctl(drm, data, file);
	trace_ascend_copy_done(adev->index, current->tgid, ASCEND_TRACE_FILL, 0,
			       args->size, 1, ret);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Batch, 2D, indirect and offset copies: the pure rules */

int ascend_copy_2d_check(const struct drm_ascend_copy_2d *args)
{
	u64 span;

	if (args->flags || args->pad)
		return -EINVAL;
	if (ascend_copy_2d_span(args->dst, args->dpitch, args->width,
				args->height, &span) ||
	    ascend_copy_2d_span(args->src, args->spitch, args->width,
				args->height, &span))
		return -EINVAL;
	return 0;
}

int ascend_copy_2d_build(u64 dst, u32 dst_as, u64 dpitch, u64 src, u32 src_as,
			 u64 spitch, u64 width, u64 height, unsigned int parts,
			 struct ascend_dma_desc *descs, unsigned int max)
{
	u64 row = 0, per, extra;
	unsigned int i, n;

	if (!parts || !height)
		return -EINVAL;
	n = min_t(u64, parts, height);
	if (!descs)
		return n;
	if (n > max)
		return -E2BIG;
	per = div64_u64_rem(height, n, &extra);
	for (i = 0; i < n; i++) {
		u64 rows = per + (i < extra);

		descs[i] = (struct ascend_dma_desc){
			.kind = ASCEND_DMA_2D,
			.dst = dst + row * dpitch,
			.src = src + row * spitch,
			.len = width,
			.dpitch = dpitch,
			.spitch = spitch,
			.height = rows,
			.dst_as = dst_as,
			.src_as = src_as,
		};
		row += rows;
	}
	return n;
}

int ascend_copy_batch_args_check(const struct drm_ascend_copy_batch *args)
{
	if (args->flags || !args->count ||
	    args->count > DRM_ASCEND_COPY_BATCH_MAX ||
	    args->entry_size < sizeof(struct drm_ascend_copy_entry) ||
	    args->entry_size > PAGE_SIZE)
		return -EINVAL;
	return 0;
}

int ascend_copy_batch_validate(const struct drm_ascend_copy_entry *e,
			       u32 count,
			       int (*side_ok)(void *ctx, u64 addr, u64 len,
					      bool write),
			       void *ctx, u32 *fail_index)
{
	u32 i;
	int ret;

	*fail_index = U32_MAX;
	for (i = 0; i < count; i++) {
		ret = ascend_copy_entry_check(&e[i]);
		if (!ret && e[i].size) {
			ret = side_ok(ctx, e[i].dst, e[i].size, true);
			if (!ret)
				ret = side_ok(ctx, e[i].src, e[i].size, false);
		}
		if (ret) {
			*fail_index = i;
			return ret;
		}
	}
	return 0;
}
