// SPDX-License-Identifier: GPL-2.0-only
/*
 * The complete copy API on the DMA engines:
 *
 *  DRM_IOCTL_ASCEND_COPY_2D     synchronous strided copy: %ASCEND_DMA_2D
 *                               descriptors (row bands, one per engine)
 *  DRM_IOCTL_ASCEND_COPY_BATCH  synchronous batch: every entry checked
 *                               first, then jobs of at most a pass each
 *
 * (The ring's copy commands are executed by the device itself, on its own
 * engines: see the backend.)
 *
 * The strided, indirect and offset descriptors carry device VAs
 * (%ASCEND_AS_VA): the engines translate them through the file's MMU when
 * they execute (struct ascend_copy_mmu), and the submitter holds vm->lock
 * across the job so no mapping changes under them.  Pageable host sides of
 * the ioctls are pinned (span by span, bounded by %ASCEND_COPY_PIN_WINDOW)
 * and found by the same translation through their sg tables.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ascend_copy.h"
#include "ascend_drv.h"
#include "ascend_managed.h"
#include "ascend_hw.h"
#include "ascend_peer.h"
#include "ascend_queue.h"
#include "ascend_trace.h"
#include "ascend_vm.h"

/* Descriptors one job of a batch holds at most (bounds its memory). */
#define ASCEND_BATCH_JOB_DESCS	16384

/**
 * struct ascend_copy_pinned - a pinned pageable range, as DMA segments
 * @addr: user address of the range
 * @len: bytes
 * @segs: its DMA segments (%ASCEND_AS_SYS), in order
 * @offs: offset of each segment in the range
 * @n: entries in @segs; 0 = unused
 */
struct ascend_copy_pinned {
	u64 addr;
	u64 len;
	struct ascend_dma_span *segs;
	u64 *offs;
	int n;
};

/**
 * struct ascend_copy_mmu - translation of %ASCEND_AS_VA for one job
 * @mmu: what the engines get: the file's ASID and @win
 * @ctx: the file's address space and its linked peers'; locked across
 *	the job
 * @pin: pinned pageable sides (not in @ctx)
 * @win: @pin as the engines see them
 */
struct ascend_copy_mmu {
	struct ascend_dma_mmu mmu;
	struct ascend_peer_ctx *ctx;
	struct ascend_copy_pinned pin[2];
	struct ascend_dma_window win[2];
};

static void ascend_copy_mmu_init(struct ascend_copy_mmu *cm,
				 struct ascend_peer_ctx *ctx)
{
	memset(cm, 0, sizeof(*cm));
	cm->ctx = ctx;
	cm->mmu.windows = cm->win;
}

/*
 * The device MMU context of @cm's jobs, @cm->ctx locked: the file's ASID
 * (set with its first mapping, then fixed) and the pinned windows.
 */
static const struct ascend_dma_mmu *ascend_copy_mmu(struct ascend_copy_mmu *cm)
{
	unsigned int i, n = 0;

	cm->mmu.asid = cm->ctx->local->pt.asid;
	for (i = 0; i < ARRAY_SIZE(cm->pin); i++) {
		const struct ascend_copy_pinned *p = &cm->pin[i];

		if (!p->n)
			continue;
		cm->win[n] = (struct ascend_dma_window){
			.va = p->addr, .len = p->len, .segs = p->segs,
			.offs = p->offs, .nr_segs = p->n,
		};
		n++;
	}
	cm->mmu.nr_windows = n;
	return &cm->mmu;
}

static void ascend_copy_pinned_free(struct ascend_copy_pinned *p)
{
	kvfree(p->segs);
	kvfree(p->offs);
	memset(p, 0, sizeof(*p));
}

/* Describe the pinned side @s ([addr, addr + len)) for the translation. */
static int ascend_copy_pinned_init(struct ascend_copy_pinned *p,
				   struct ascend_copy_side *s, u64 addr,
				   u64 len)
{
	struct ascend_vm_seg *segs;
	u64 off = 0;
	int i, n;

	n = ascend_copy_sgt_segs(&s->sgt, &segs);
	if (n < 0)
		return n;
	p->segs = kvmalloc_array(max(n, 1), sizeof(*p->segs), GFP_KERNEL_ACCOUNT);
	p->offs = kvmalloc_array(max(n, 1), sizeof(*p->offs), GFP_KERNEL_ACCOUNT);
	if (!p->segs || !p->offs) {
		kvfree(segs);
		ascend_copy_pinned_free(p);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		p->segs[i] = (struct ascend_dma_span){
			.addr = segs[i].addr, .len = segs[i].len,
			.as = segs[i].as,
		};
		p->offs[i] = off;
		off += segs[i].len;
	}
	kvfree(segs);
	if (off != len) {
		ascend_copy_pinned_free(p);
		return -EIO;
	}
	p->addr = addr;
	p->len = len;
	p->n = n;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* COPY_2D */

/* A row longer than a pin window is longer than a pass too. */
static_assert(ASCEND_COPY_PIN_WINDOW <= ASCEND_COPY_PASS);

/* Rows of @width bytes one pass of a 2D copy moves (at least one). */
static u64 ascend_copy_2d_pass_rows(u64 width, u64 rows)
{
	u64 n = ASCEND_COPY_PASS / max_t(u64, width, 1);

	return clamp_t(u64, min_t(u64, n, ASCEND_COPY_2D_PASS_ROWS), 1, rows);
}

/* Rows from @row on whose span fits a pin window (at least one). */
static u64 ascend_copy_2d_band(u64 pitch, u64 width, u64 rows)
{
	u64 n;

	if (width >= ASCEND_COPY_PIN_WINDOW)
		return 1;
	n = (ASCEND_COPY_PIN_WINDOW - width) / pitch + 1;
	return min(n, rows);
}

/* Rows [row, row + rows) of @a; pageable sides pinned for the band. */
static int ascend_copy_2d_rows(struct ascend_file *af,
			       const struct drm_ascend_copy_2d *a,
			       struct ascend_copy_side *d,
			       struct ascend_copy_side *s, u64 row, u64 rows)
{
	struct ascend_device *adev = af->adev;
	u64 dst = a->dst + row * a->dpitch, src = a->src + row * a->spitch;
	u64 dspan = a->dpitch * (rows - 1) + a->width;
	u64 sspan = a->spitch * (rows - 1) + a->width;
	struct ascend_dma_desc *descs;
	struct ascend_peer_ctx ctx;
	struct ascend_copy_mmu cm;
	int n, ret = 0;

	ascend_copy_mmu_init(&cm, &ctx);
	descs = kcalloc(adev->num_dma_engines, sizeof(*descs), GFP_KERNEL_ACCOUNT);
	if (!descs)
		return -ENOMEM;
	if (!d->mmu) {
		ret = ascend_copy_pin(af, d, dst, dspan);
		if (!ret)
			ret = ascend_copy_pinned_init(&cm.pin[0], d, dst, dspan);
	}
	if (!ret && !s->mmu) {
		ret = ascend_copy_pin(af, s, src, sspan);
		if (!ret)
			ret = ascend_copy_pinned_init(&cm.pin[1], s, src, sspan);
	}
	if (ret)
		goto out;

	n = ascend_copy_2d_build(dst, ASCEND_AS_VA, a->dpitch, src,
				 ASCEND_AS_VA, a->spitch, a->width, rows,
				 adev->num_dma_engines, descs,
				 adev->num_dma_engines);
	if (n < 0) {
		ret = n;
		goto out;
	}
	ret = ascend_peer_ctx_lock(&ctx, af);
	if (ret)
		goto out;
	ret = ascend_dma_run_mmu(adev, descs, n, ascend_copy_mmu(&cm), NULL);
	ascend_peer_ctx_unlock(&ctx);
out:
	ascend_copy_pinned_free(&cm.pin[0]);
	ascend_copy_pinned_free(&cm.pin[1]);
	ascend_copy_unpin(af, s);
	ascend_copy_unpin(af, d);
	kfree(descs);
	return ret;
}

static int ascend_copy_2d_ioctl(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	unsigned int max_pages;
	struct drm_ascend_copy_2d *a = data;
	struct ascend_copy_side d = { .addr = a->dst, .write = true };
	struct ascend_copy_side s = { .addr = a->src };
	struct ascend_vm_mapping *map;
	struct ascend_peer_ctx ctx;
	u64 dspan, sspan, row, rows, off;
	int ret;

	ret = ascend_copy_2d_check(a);
	if (ret)
		return ret;
	ascend_copy_2d_span(a->dst, a->dpitch, a->width, a->height, &dspan);
	ascend_copy_2d_span(a->src, a->spitch, a->width, a->height, &sspan);
	ret = ascend_managed_prepare(af, a->dst, dspan);
	if (!ret)
		ret = ascend_managed_prepare(af, a->src, sspan);
	if (ret)
		return ret;

	/* the ioctl table drained the file's queues first (ascend_drv.c) */
	/* every byte of both spans is checked before any moves */
	ret = ascend_peer_ctx_lock(&ctx, af);
	if (ret)
		return ret;
	d.mmu = ascend_peer_claims(&ctx, a->dst, dspan);
	s.mmu = ascend_peer_claims(&ctx, a->src, sspan);
	if (d.mmu) {
		map = ascend_peer_lookup(&ctx, a->dst, dspan, true, &off);
		if (IS_ERR(map))
			ret = PTR_ERR(map);
	}
	if (!ret && s.mmu) {
		map = ascend_peer_lookup(&ctx, a->src, sspan, false, &off);
		if (IS_ERR(map))
			ret = PTR_ERR(map);
	}
	ascend_peer_ctx_unlock(&ctx);
	if (ret)
		return ret;
	if ((!d.mmu && !access_ok(u64_to_user_ptr(a->dst), dspan)) ||
	    (!s.mmu && !access_ok(u64_to_user_ptr(a->src), sspan)))
		return -EFAULT;

	/*
	 * a row longer than a pass (or a pin window): row by row, each in
	 * passes (or windows) of its own
	 */
	if (a->width > ASCEND_COPY_PIN_WINDOW) {
		for (row = 0; row < a->height && !ret; row++) {
			ret = row ? ascend_copy_pass_gap(af->adev) : 0;
			if (!ret)
				ret = ascend_copy_user(af, a->dst + row * a->dpitch,
						       a->src + row * a->spitch,
						       a->width);
		}
		return ret;
	}

	if (d.mmu && s.mmu) {
		/* band by band, each under the lock (ascend_copy_2d_rows()) */
		for (row = 0; row < a->height && !ret; row += rows) {
			rows = ascend_copy_2d_pass_rows(a->width,
							a->height - row);
			if (row) {
				ret = ascend_copy_pass_gap(af->adev);
				if (ret)
					return ret;
			}
			ret = ascend_copy_2d_rows(af, a, &d, &s, row, rows);
		}
		return ret;
	}

	/* a band pins at most a window, and no more than the larger span */
	max_pages = DIV_ROUND_UP(min_t(u64, max(dspan, sspan),
				       ASCEND_COPY_PIN_WINDOW), PAGE_SIZE) + 2;
	ret = ascend_copy_alloc_pages(&d, &s, max_pages);
	if (ret)
		return ret;
	for (row = 0; row < a->height; row += rows) {
		rows = ascend_copy_2d_pass_rows(a->width, a->height - row);
		if (!d.mmu)
			rows = ascend_copy_2d_band(a->dpitch, a->width, rows);
		if (!s.mmu)
			rows = ascend_copy_2d_band(a->spitch, a->width, rows);
		ret = row ? ascend_copy_pass_gap(af->adev) : 0;
		if (!ret)
			ret = ascend_copy_2d_rows(af, a, &d, &s, row, rows);
		if (ret)
			break;
	}
	kvfree(s.pages);
	kvfree(d.pages);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* COPY_BATCH */

/* Side of an entry: bit 0 dst pageable, bit 1 src pageable. */
#define ASCEND_BATCH_DST_PAGEABLE	1
#define ASCEND_BATCH_SRC_PAGEABLE	2

/**
 * struct ascend_batch - a COPY_BATCH in progress
 * @af: the file
 * @e: the entries
 * @count: number of entries
 * @pageable: per entry ASCEND_BATCH_*_PAGEABLE bits
 * @descs: descriptors of the job being built
 * @n: descriptors in @descs
 * @cap: room in @descs
 * @ctx: the address spaces, while locked
 */
struct ascend_batch {
	struct ascend_file *af;
	struct ascend_peer_ctx ctx;
	struct drm_ascend_copy_entry *e;
	u32 count;
	u8 *pageable;
	struct ascend_dma_desc *descs;
	unsigned int n;
	unsigned int cap;
};

/* The MMU check of one side, b->ctx locked; pageable sides only noted. */
static int ascend_batch_side_mmu(void *ctx, u64 addr, u64 len, bool write)
{
	struct ascend_batch *b = ctx;
	struct ascend_vm_mapping *map;
	u64 off;

	if (!ascend_peer_claims(&b->ctx, addr, len))
		return access_ok(u64_to_user_ptr(addr), len) ? 0 : -EFAULT;
	map = ascend_peer_lookup(&b->ctx, addr, len, write, &off);
	return IS_ERR(map) ? PTR_ERR(map) : 0;
}

/* Is [addr, addr + len) mapped in the process, readable (and writable)? */
static bool ascend_batch_vma_ok(struct mm_struct *mm, u64 addr, u64 len,
				bool write)
{
	u64 end = addr + len;

	while (addr < end) {
		struct vm_area_struct *vma = vma_lookup(mm, addr);

		if (!vma || (vma->vm_flags & (VM_IO | VM_PFNMAP)) ||
		    !(vma->vm_flags & VM_READ) ||
		    (write && !(vma->vm_flags & VM_WRITE)))
			return false;
		addr = vma->vm_end;
	}
	return true;
}

/*
 * Classify and check every entry: MMU sides under vm->lock, then the
 * pageable ones against the process's mappings.  *@fail: the first bad one.
 */
static int ascend_batch_validate(struct ascend_batch *b, u32 *fail)
{
	struct mm_struct *mm = current->mm;
	int ret, ret2 = 0;
	u32 i, limit;

	ret = ascend_peer_ctx_lock(&b->ctx, b->af);
	if (ret)
		return ret;
	ret = ascend_copy_batch_validate(b->e, b->count, ascend_batch_side_mmu,
					 b, fail);
	limit = ret ? *fail : b->count;
	for (i = 0; i < limit; i++) {
		const struct drm_ascend_copy_entry *e = &b->e[i];

		if (!e->size)
			continue;
		if (!ascend_peer_claims(&b->ctx, e->dst, e->size))
			b->pageable[i] |= ASCEND_BATCH_DST_PAGEABLE;
		if (!ascend_peer_claims(&b->ctx, e->src, e->size))
			b->pageable[i] |= ASCEND_BATCH_SRC_PAGEABLE;
	}
	ascend_peer_ctx_unlock(&b->ctx);

	/* an earlier entry with a bad pageable side is the first bad one */
	mmap_read_lock(mm);
	for (i = 0; i < limit; i++) {
		const struct drm_ascend_copy_entry *e = &b->e[i];

		if (((b->pageable[i] & ASCEND_BATCH_DST_PAGEABLE) &&
		     !ascend_batch_vma_ok(mm, e->dst, e->size, true)) ||
		    ((b->pageable[i] & ASCEND_BATCH_SRC_PAGEABLE) &&
		     !ascend_batch_vma_ok(mm, e->src, e->size, false))) {
			*fail = i;
			ret2 = -EFAULT;
			break;
		}
	}
	mmap_read_unlock(mm);
	return ret2 ?: ret;
}

/* Translate one side of entry @i: MMU or its pinned sg table. */
static int ascend_batch_segs(struct ascend_batch *b, u64 addr, u64 len,
			     bool write, struct ascend_copy_side *side,
			     struct ascend_vm_seg **segs)
{
	if (!side)
		return ascend_peer_translate(&b->ctx, addr, len, write, segs);
	return ascend_copy_sgt_segs(&side->sgt, segs);
}

/* Append entry @i's descriptors to @b->descs (growing it). */
static int ascend_batch_add(struct ascend_batch *b, u32 i,
			    struct ascend_copy_side *ds,
			    struct ascend_copy_side *ss)
{
	const struct drm_ascend_copy_entry *e = &b->e[i];
	struct ascend_vm_seg *dsegs = NULL, *ssegs = NULL;
	int nd, ns, n, ret;

	nd = ascend_batch_segs(b, e->dst, e->size, true, ds, &dsegs);
	if (nd < 0)
		return nd;
	ns = ascend_batch_segs(b, e->src, e->size, false, ss, &ssegs);
	if (ns < 0) {
		ret = ns;
		goto out;
	}
	n = ascend_copy_build(dsegs, nd, ssegs, ns, ASCEND_COPY_CHUNK, NULL,
			      0);
	if (n < 0) {
		ret = n;
		goto out;
	}
	if (b->n + n > b->cap) {
		unsigned int cap = max(b->cap * 2, b->n + n);
		struct ascend_dma_desc *nd_;

		nd_ = kvmalloc_array(cap, sizeof(*nd_), GFP_KERNEL_ACCOUNT);
		if (!nd_) {
			ret = -ENOMEM;
			goto out;
		}
		if (b->n)
			memcpy(nd_, b->descs, b->n * sizeof(*nd_));
		kvfree(b->descs);
		b->descs = nd_;
		b->cap = cap;
	}
	ret = ascend_copy_build(dsegs, nd, ssegs, ns, ASCEND_COPY_CHUNK,
				b->descs + b->n, n);
	if (ret >= 0) {
		b->n += ret;
		ret = 0;
	}
out:
	kvfree(ssegs);
	kvfree(dsegs);
	return ret;
}

/*
 * Entries [first, last): pin their pageable sides, translate, run them as
 * one job.  *@fail names an entry that failed now (a mapping vanished).
 */
static int ascend_batch_group(struct ascend_batch *b, u32 first, u32 last,
			      u32 *fail)
{
	struct ascend_file *af = b->af;
	struct ascend_copy_side *sides;
	u32 i, k = last - first;
	int ret = 0;

	sides = kvcalloc(2 * k, sizeof(*sides), GFP_KERNEL_ACCOUNT);
	if (!sides)
		return -ENOMEM;
	for (i = first; i < last && !ret; i++) {
		const struct drm_ascend_copy_entry *e = &b->e[i];
		struct ascend_copy_side *sd = &sides[2 * (i - first)];
		unsigned long pfirst;
		unsigned int j, count;

		for (j = 0; j < 2 && !ret; j++) {
			u64 addr = j ? e->src : e->dst;

			if (!(b->pageable[i] & (1 << j)))
				continue;
			sd[j].addr = addr;
			sd[j].write = !j;
			ascend_copy_page_span(addr, e->size, &pfirst, &count);
			sd[j].pages = kvmalloc_array(count,
						     sizeof(*sd[j].pages),
						     GFP_KERNEL_ACCOUNT);
			if (!sd[j].pages)
				ret = -ENOMEM;
			else
				ret = ascend_copy_pin(af, &sd[j], addr,
						      e->size);
			if (ret == -EFAULT)
				*fail = i;
		}
	}
	if (ret)
		goto out;

	b->n = 0;
	ret = ascend_peer_ctx_lock(&b->ctx, af);
	if (ret)
		goto out;
	for (i = first; i < last && !ret; i++) {
		struct ascend_copy_side *sd = &sides[2 * (i - first)];

		if (!b->e[i].size)
			continue;
		ret = ascend_batch_add(b, i,
				       (b->pageable[i] & 1) ? &sd[0] : NULL,
				       (b->pageable[i] & 2) ? &sd[1] : NULL);
		if (ret == -EFAULT)
			*fail = i;
	}
	if (!ret)
		ret = ascend_dma_run_mmu(af->adev, b->descs, b->n, NULL, NULL);
	ascend_peer_ctx_unlock(&b->ctx);
out:
	for (i = 0; i < 2 * k; i++) {
		ascend_copy_unpin(af, &sides[i]);
		kvfree(sides[i].pages);
	}
	kvfree(sides);
	return ret;
}

/* Run the validated batch in groups bounded in pinned bytes and size. */
static int ascend_batch_run(struct ascend_batch *b, u32 *fail)
{
	u32 first = 0, i;
	u64 pinned = 0, descs = 0, bytes = 0;
	int ret;

	for (i = 0; i < b->count; i++) {
		const struct drm_ascend_copy_entry *e = &b->e[i];
		u64 pin = 0;

		if (b->pageable[i] & ASCEND_BATCH_DST_PAGEABLE)
			pin += e->size;
		if (b->pageable[i] & ASCEND_BATCH_SRC_PAGEABLE)
			pin += e->size;
		/*
		 * a huge pageable entry, or one longer than a pass: alone,
		 * through the windowed / pass-by-pass copy
		 */
		if (pin > ASCEND_COPY_PIN_WINDOW || e->size > ASCEND_COPY_PASS) {
			if (first < i) {
				ret = ascend_batch_group(b, first, i, fail);
				if (ret)
					return ret;
			}
			ret = ascend_copy_user(b->af, e->dst, e->src, e->size);
			if (ret) {
				*fail = i;
				return ret;
			}
			first = i + 1;
			pinned = 0;
			descs = 0;
			bytes = 0;
			continue;
		}
		if (first < i &&
		    (pinned + pin > ASCEND_COPY_PIN_WINDOW ||
		     bytes + e->size > ASCEND_COPY_PASS ||
		     descs >= ASCEND_BATCH_JOB_DESCS)) {
			ret = ascend_batch_group(b, first, i, fail);
			if (ret)
				return ret;
			first = i;
			pinned = 0;
			descs = 0;
			bytes = 0;
		}
		pinned += pin;
		bytes += e->size;
		descs += div64_u64(e->size + ASCEND_COPY_CHUNK - 1,
				   ASCEND_COPY_CHUNK) + 1;
		ret = ascend_copy_pass_gap(b->af->adev);
		if (ret)
			return ret;
	}
	if (first < b->count)
		return ascend_batch_group(b, first, b->count, fail);
	return 0;
}

static int ascend_copy_batch_ioctl(struct drm_device *drm, void *data,
				   struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_copy_batch *a = data;
	struct ascend_batch b = { .af = af };
	u32 fail = U32_MAX, i;
	int ret;

	a->fail_index = U32_MAX;
	ret = ascend_copy_batch_args_check(a);
	if (ret)
		return ret;

	b.count = a->count;
	b.e = kvmalloc_array(a->count, sizeof(*b.e), GFP_KERNEL_ACCOUNT);
	b.pageable = kvzalloc(a->count, GFP_KERNEL_ACCOUNT);
	if (!b.e || !b.pageable) {
		ret = -ENOMEM;
		goto out;
	}
	if (a->entry_size == sizeof(*b.e)) {
		if (copy_from_user(b.e, u64_to_user_ptr(a->entries),
				   array_size(a->count, sizeof(*b.e)))) {
			ret = -EFAULT;
			goto out;
		}
	} else {
		for (i = 0; i < a->count; i++) {
			u64 at = a->entries + (u64)i * a->entry_size;

			ret = copy_struct_from_user(&b.e[i], sizeof(b.e[i]),
						    u64_to_user_ptr(at),
						    a->entry_size);
			if (ret) {
				/* non-zero bytes past the known entry */
				if (ret == -E2BIG) {
					ret = -EINVAL;
					fail = i;
				}
				goto out;
			}
		}
	}

	/* managed memory the entries name comes to the device first */
	for (i = 0; i < a->count; i++) {
		ret = ascend_managed_prepare(b.af, b.e[i].dst, b.e[i].size);
		if (!ret)
			ret = ascend_managed_prepare(b.af, b.e[i].src,
						     b.e[i].size);
		if (ret) {
			fail = i;
			goto out;
		}
	}
	/* the ioctl table drained the file's queues first (ascend_drv.c) */
	ret = ascend_batch_validate(&b, &fail);
	if (!ret)
		ret = ascend_batch_run(&b, &fail);
out:
	a->fail_index = ret ? fail : U32_MAX;
	kvfree(b.descs);
	kvfree(b.pageable);
	kvfree(b.e);
	return ret;
}

int ascend_ioctl_copy_2d(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct drm_ascend_copy_2d *a = data;
	u64 bytes;
	u32 rows = min_t(u64, a->height, U32_MAX);
	int ret;

	if (check_mul_overflow(a->width, a->height, &bytes))
		bytes = U64_MAX;
	trace_ascend_copy_submit(adev->index, current->tgid,
				 ASCEND_TRACE_COPY_2D, 0, bytes, rows,
				 adev->num_dma_engines);
	ret = ascend_copy_2d_ioctl(drm, data, file);
	trace_ascend_copy_done(adev->index, current->tgid, ASCEND_TRACE_COPY_2D,
			       0, bytes, rows, ret);
	return ret;
}

int ascend_ioctl_copy_batch(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct drm_ascend_copy_batch *a = data;
	u32 count = a->count;
	int ret;

	trace_ascend_copy_submit(adev->index, current->tgid,
				 ASCEND_TRACE_COPY_BATCH, 0, 0, count,
				 adev->num_dma_engines);
	ret = ascend_copy_batch_ioctl(drm, data, file);
	trace_ascend_copy_done(adev->index, current->tgid,
			       ASCEND_TRACE_COPY_BATCH, 0, 0, count, ret);
	return ret;
}
