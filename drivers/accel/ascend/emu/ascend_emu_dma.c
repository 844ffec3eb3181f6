// SPDX-License-Identifier: GPL-2.0-only
/*
 * The emulated DMA engines: descriptor rings, one kernel thread per engine.
 *
 * Each engine owns a ring of ASCEND_DMA_RING_SIZE hardware descriptor
 * slots with free-running u32 indices, like silicon:
 *
 *   retired <= head <= tail,  tail - retired <= ASCEND_DMA_RING_SIZE
 *
 *   [retired, head)  executed, status written, not yet retired
 *   [head, tail)     written by the driver side, not yet executed
 *
 * The driver side ("feeder", under @lock) writes descriptors of submitted
 * jobs at @tail of the least-loaded rings (fewest slots in use) and rings
 * those engines' doorbells (wakes them).  An engine executes the slot at
 * @head, then, in one locked section, writes its status and advances
 * @head and runs the completion "interrupt": it retires the executed slots
 * -- the last descriptor of a job completes the job -- and feeds the freed
 * slots.
 * So a job of any size is spread over every engine, a few ring slots at a
 * time, and jobs start in submission order.
 *
 * Small jobs (ascend_emu_dma_inline()) complete at once, like a transfer
 * the hardware finishes before the driver looks again: when no job waits
 * and every ring is idle, the submitter writes the job's descriptors to a
 * ring, claims that ring for itself (@claimed: its engine thread does not
 * touch it), executes them there with the engine's code, then retires them
 * as the completion "interrupt" would, in one locked section.  No thread is
 * woken and nothing waits (the job is marked &ascend_dma_job.sync instead
 * of completing &ascend_dma_job.done), which matters on a slow single-CPU
 * host; statistics, fault injection and the job's status are the same as
 * on the engine thread.  A job of one descriptor needs no ring: the
 * submitter looks at the rings without the lock (ascend_emu_dma_idle_seen())
 * and executes it beside them, counted on engine 0
 * (ascend_emu_dma_exec_one()); a job submitted meanwhile from another
 * context may run beside it, as concurrent jobs have no order.
 *
 * The command processor has a mover of its own for its small copies and
 * fills (ascend_emu_dma_direct()): the same transfer code, run at once
 * beside the rings whatever they hold, counted apart from the engines.
 *
 * Descriptors: linear copy, fill, 2D strided copy (runs of rows), indirect
 * (a struct ascend_memcpy_desc read from device memory when the descriptor
 * executes), second-level pointer (two base pointers read from device
 * slots when it executes) and reduce (dst = op(dst, src) element-wise, in
 * chunks read into the engine, combined and written back).  Addresses
 * are device-physical (HBM or host bus addresses) or, with %ASCEND_AS_VA,
 * device VAs that the engine translates as it goes: through the job's
 * pinned pageable windows, then the SMMU (ascend_emu_smmu.c) with the
 * job's ASID (&ascend_dma_job.mmu).
 */
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "ascend_emu.h"
#include "ascend_hw.h"

/**
 * struct ascend_emu_dma_slot - one hardware descriptor slot of a ring
 * @desc: the descriptor, copied in by the driver side
 * @job: the job it belongs to (the completion cookie)
 * @status: written by the engine: 0 or a negative errno
 * @fault_addr: written by the engine with -EFAULT: the VA that failed
 */
struct ascend_emu_dma_slot {
	struct ascend_dma_desc desc;
	struct ascend_dma_job *job;
	int status;
	u64 fault_addr;
};

/**
 * struct ascend_emu_dma_ring - one engine and its descriptor ring
 * @dma: the engines of the device
 * @id: engine number
 * @thread: the engine
 * @wq: the engine sleeps here until its doorbell rings
 * @tail: next slot the driver side writes (its doorbell value)
 * @head: next slot the engine executes
 * @retired: next executed slot the driver side retires
 * @claimed: the submitter executes [head, tail) itself; the engine waits
 * @executed: descriptors this engine has executed (statistics; atomic)
 * @bytes: bytes those descriptors wrote (statistics; atomic)
 * @slots: the ring
 *
 * @tail, @head, @retired, @claimed and the slots are under
 * &ascend_emu_dma.lock, except that whoever executes the slots from [head]
 * on (the engine, or the submitter with @claimed) reads them without the
 * lock, and that a submitter looks at the indices and @claimed without it
 * (ascend_emu_dma_idle_seen()).
 */
struct ascend_emu_dma_ring {
	struct ascend_emu_dma *dma;
	unsigned int id;
	struct task_struct *thread;
	wait_queue_head_t wq;
	u32 tail;
	u32 head;
	u32 retired;
	bool claimed;
	atomic64_t executed;
	atomic64_t bytes;
	struct ascend_emu_dma_slot slots[ASCEND_DMA_RING_SIZE];
};

/**
 * struct ascend_emu_dma - the DMA engines of one emulated NPU
 * @emu: the device
 * @lock: protects @jobs, @paused, the @next cursor of every job on @jobs,
 *	and every ring's indices and slots
 * @jobs: jobs with descriptors not yet written to a ring; the feeder takes
 *	one descriptor of the first and moves it to the tail (they take turns)
 * @paused: test hook: engines execute nothing while set
 * @direct_descs: descriptors the command processor moved itself
 *	(ascend_emu_dma_direct(); atomic, no lock)
 * @direct_bytes: bytes they wrote
 * @nr_engines: entries in @rings
 * @rings: the engines
 */
struct ascend_emu_dma {
	struct ascend_emu *emu;
	spinlock_t lock;	/* jobs, paused, job->next, ring indices/slots */
	struct list_head jobs;
	bool paused;
	atomic64_t direct_descs;
	atomic64_t direct_bytes;
	unsigned int nr_engines;
	struct ascend_emu_dma_ring *rings[] __counted_by(nr_engines);
};

/* ------------------------------------------------------------------------ */
/* Driver side: feeding the rings, retiring completions */

/* Write descriptors of waiting jobs to the least-loaded rings.  @lock held. */
static void ascend_emu_dma_feed(struct ascend_emu_dma *dma)
{
	u32 used[64];
	unsigned int i;

	for (i = 0; i < dma->nr_engines; i++)
		used[i] = ascend_dma_ring_used(dma->rings[i]->tail,
					       dma->rings[i]->retired);

	while (!list_empty(&dma->jobs)) {
		struct ascend_dma_job *job;
		struct ascend_emu_dma_ring *r;
		struct ascend_emu_dma_slot *slot;

		i = ascend_dma_pick_ring(used, dma->nr_engines,
					 ASCEND_DMA_RING_SIZE);
		if (i >= dma->nr_engines)
			break;	/* every ring is full */
		r = dma->rings[i];
		job = list_first_entry(&dma->jobs, struct ascend_dma_job, link);
		slot = &r->slots[ascend_dma_ring_slot(r->tail)];
		slot->desc = job->descs[job->next++];
		slot->job = job;
		slot->status = 0;
		slot->fault_addr = 0;
		/* waiting jobs take turns: one descriptor each */
		if (job->next == job->count)
			list_del_init(&job->link);
		else
			list_move_tail(&job->link, &dma->jobs);
		r->tail++;
		used[i]++;
		/* the doorbell */
		wake_up(&r->wq);
	}
}

/* Retire the executed slots of @r: the "interrupt".  @lock held. */
static __always_inline void ascend_emu_dma_retire(struct ascend_emu_dma_ring *r)
{
	while (r->retired != r->head) {
		struct ascend_emu_dma_slot *slot;
		struct ascend_dma_job *job;

		slot = &r->slots[ascend_dma_ring_slot(r->retired++)];
		job = slot->job;
		slot->job = NULL;
		if (slot->status && !job->status) {
			job->status = slot->status;
			job->fault_addr = slot->fault_addr;
		}
		/*
		 * @job may be freed by its waiter right after the last one;
		 * a job run inline (@sync) has no waiter: its submitter is
		 * the one retiring it.
		 */
		if (atomic_dec_and_test(&job->remaining) && !job->sync)
			complete(&job->done);
	}
}

/* ------------------------------------------------------------------------ */
/* Engine side: executing one descriptor */

/* @va in one of the job's pinned pageable windows: 0, -EFAULT, -ENOENT */
static int ascend_emu_dma_window(const struct ascend_dma_mmu *mmu, u64 va,
				 u64 len, struct ascend_dma_span *span)
{
	unsigned int i;

	for (i = 0; i < mmu->nr_windows; i++) {
		const struct ascend_dma_window *w = &mmu->windows[i];
		unsigned int lo = 0, hi = w->nr_segs;
		u64 off;

		if (!w->nr_segs || va - w->va >= w->len)
			continue;
		off = va - w->va;
		if (len > w->len - off)
			return -EFAULT;
		while (hi - lo > 1) {
			unsigned int mid = lo + (hi - lo) / 2;

			if (w->offs[mid] <= off)
				lo = mid;
			else
				hi = mid;
		}
		off -= w->offs[lo];
		if (off >= w->segs[lo].len)
			return -EIO;
		span->addr = w->segs[lo].addr + off;
		span->len = min(len, w->segs[lo].len - off);
		span->as = w->segs[lo].as;
		return 0;
	}
	return -ENOENT;
}

/*
 * Translate @va for the job: its pinned pageable windows, then the device
 * MMU (the job's ASID and its peer windows).  On failure *@fault = @va.
 */
static int ascend_emu_dma_xlate(struct ascend_emu *emu,
				struct ascend_dma_job *job, u64 va, u64 len,
				bool write, struct ascend_dma_span *span,
				u64 *fault)
{
	const struct ascend_dma_mmu *mmu = job->mmu;
	int ret;

	if (!mmu)
		return -EIO;
	ret = mmu->nr_windows ? ascend_emu_dma_window(mmu, va, len, span) :
				-ENOENT;
	if (ret == -ENOENT)
		ret = ascend_emu_smmu_xlate(emu, mmu->asid, va, len, write,
					    true, span);
	if (!ret && (!span->len || span->len > len))
		ret = -EIO;	/* a broken translation: never run past it */
	if (ret == -EFAULT)
		*fault = va;
	return ret;
}

/*
 * A page request for @va of the job's address space (outside an access
 * section): 0 when the driver answered that it may translate now.
 */
static int ascend_emu_dma_request(struct ascend_emu *emu,
				  struct ascend_dma_job *job, u64 va, bool write)
{
	if (!job->mmu || !job->mmu->asid)
		return -EFAULT;
	return ascend_emu_smmu_request(emu, job->mmu->asid, va, write);
}

/*
 * Does all of [va, va + len) translate?  Checked before any byte moves,
 * inside the caller's access section.
 */
static int ascend_emu_dma_check(struct ascend_emu *emu,
				struct ascend_dma_job *job, u64 va, u64 len,
				bool write, u64 *fault)
{
	struct ascend_dma_span s;
	int ret;

	while (len) {
		ret = ascend_emu_dma_xlate(emu, job, va, len, write, &s, fault);
		if (ret)
			return ret;
		va += s.len;
		len -= s.len;
	}
	return 0;
}

/*
 * Move @len bytes between @buf and VA @va inside an access section the
 * caller holds (a descriptor read; a reduce chunk: both reads and the
 * write in one section).
 */
static int ascend_emu_dma_va_io(struct ascend_emu *emu,
				struct ascend_dma_job *job, u64 va, void *buf,
				size_t len, bool write, u64 *fault)
{
	int ret;

	while (len) {
		struct ascend_dma_span s;

		ret = ascend_emu_dma_xlate(emu, job, va, len, write, &s, fault);
		if (ret)
			return ret;
		ret = ascend_emu_mem_rw(emu, s.as, s.addr, buf, s.len, write);
		if (ret)
			return ret == -EFAULT ? -EIO : ret;
		va += s.len;
		buf += s.len;
		len -= s.len;
	}
	return 0;
}

/* Read @len bytes at device VA @va (descriptors, base pointers). */
static int ascend_emu_dma_read_va(struct ascend_emu *emu,
				  struct ascend_dma_job *job, u64 va,
				  void *buf, size_t len, u64 *fault)
{
	int ret;

	ascend_emu_smmu_access_begin();
	ret = ascend_emu_dma_va_io(emu, job, va, buf, len, false, fault);
	ascend_emu_smmu_access_end();
	return ret;
}

/*
 * One step of a transfer with a VA side: translate both sides and move at
 * most %ASCEND_DMA_STEP bytes, in one access section (an invalidation
 * waits for it).  On the @first step, every byte of both sides must
 * translate, or none moves: when the first pieces do not cover the
 * transfer, the rest is checked before anything is copied.  Returns the
 * bytes moved, or a negative errno.
 */
static s64 ascend_emu_dma_step(struct ascend_emu *emu,
			       struct ascend_dma_job *job, u64 dst, u32 dst_as,
			       u64 src, u32 src_as, u64 len, bool first,
			       u64 *fault)
{
	struct ascend_dma_span d = { dst, len, dst_as };
	struct ascend_dma_span s = { src, len, src_as };
	u64 n = 0;
	int ret;

	ascend_emu_smmu_access_begin();
	if (dst_as == ASCEND_AS_VA) {
		ret = ascend_emu_dma_xlate(emu, job, dst, len, true, &d, fault);
		if (ret)
			goto out;
	}
	if (src_as == ASCEND_AS_VA) {
		ret = ascend_emu_dma_xlate(emu, job, src, len, false, &s,
					   fault);
		if (ret)
			goto out;
	}
	if (first && d.len < len) {
		ret = ascend_emu_dma_check(emu, job, dst + d.len, len - d.len,
					   true, fault);
		if (ret)
			goto out;
	}
	if (first && s.len < len) {
		ret = ascend_emu_dma_check(emu, job, src + s.len, len - s.len,
					   false, fault);
		if (ret)
			goto out;
	}
	n = min3(d.len, s.len, (u64)ASCEND_DMA_STEP);
	ret = ascend_emu_mem_copy(emu, d.addr, d.as, s.addr, s.as, n);
out:
	ascend_emu_smmu_access_end();
	return ret ?: (s64)n;
}

/* Copy @len bytes; either side may be a VA, translated step by step. */
static int ascend_emu_dma_xfer(struct ascend_emu *emu,
			       struct ascend_dma_job *job, u64 dst, u32 dst_as,
			       u64 src, u32 src_as, u64 len, u64 *fault)
{
	unsigned int tries = ASCEND_HW_PRQ_RETRIES;
	bool first = true;
	s64 n;

	if (dst_as != ASCEND_AS_VA && src_as != ASCEND_AS_VA)
		return ascend_emu_mem_copy(emu, dst, dst_as, src, src_as, len);

	while (len) {
		/* a step at a time: dma_cancel() is seen between steps */
		if (READ_ONCE(job->cancel))
			return -ECANCELED;
		n = ascend_emu_dma_step(emu, job, dst, dst_as, src, src_as, len,
					first, fault);
		/* before the first byte moved: a page request, then again */
		if (n == -EFAULT && first && tries-- &&
		    !ascend_emu_dma_request(emu, job, *fault,
					    dst_as == ASCEND_AS_VA &&
					    *fault - dst < len))
			continue;
		if (n < 0)
			return n;
		first = false;
		dst += n;
		src += n;
		len -= n;
	}
	return 0;
}

/*
 * Fill @len bytes at VA @dst with @pattern (@pattern_size bytes, byte 0 at
 * @dst), step by step; every byte must translate for a write before the
 * first one is written.
 */
static int ascend_emu_dma_fill_va(struct ascend_emu *emu,
				  struct ascend_dma_job *job, u64 dst, u64 len,
				  u64 pattern, u32 pattern_size, u64 *fault)
{
	unsigned int tries = ASCEND_HW_PRQ_RETRIES;
	u64 done = 0;
	int ret;

	do {
		ascend_emu_smmu_access_begin();
		ret = ascend_emu_dma_check(emu, job, dst, len, true, fault);
		ascend_emu_smmu_access_end();
	} while (ret == -EFAULT && tries-- &&
		 !ascend_emu_dma_request(emu, job, *fault, true));
	while (!ret && done < len) {
		struct ascend_dma_span d;
		u64 n;

		if (READ_ONCE(job->cancel))
			return -ECANCELED;
		ascend_emu_smmu_access_begin();
		ret = ascend_emu_dma_xlate(emu, job, dst + done, len - done,
					   true, &d, fault);
		if (!ret) {
			u64 p = ascend_fill_rotate(pattern, pattern_size,
						   done % pattern_size);

			n = min_t(u64, d.len, ASCEND_DMA_STEP);
			ret = ascend_emu_mem_fill(emu, d.addr, d.as, n, p,
						  pattern_size);
			done += n;
		}
		ascend_emu_smmu_access_end();
	}
	return ret;
}

/*
 * One side of a run of 2D rows from @va (@pitch apart, @width each, @nr of
 * them): its translation in *@span, and how many whole rows it holds (0
 * when not even the first).  In the caller's access section.
 */
static u64 ascend_emu_dma_2d_side(struct ascend_emu *emu,
				  struct ascend_dma_job *job, u64 va, u32 as,
				  u64 pitch, u64 width, u64 nr, bool write,
				  struct ascend_dma_span *span)
{
	u64 len = (nr - 1) * pitch + width, fault;

	*span = (struct ascend_dma_span){ va, len, as };
	if (as == ASCEND_AS_VA &&
	    ascend_emu_dma_xlate(emu, job, va, len, write, span, &fault))
		return 0;
	if (span->len < width)
		return 0;
	return min(nr, (span->len - width) / pitch + 1);
}

/*
 * Rows [@r, ...) of a 2D descriptor whose sides each translate to one
 * contiguous piece, copied in one access section: one translation per side
 * for up to %ASCEND_DMA_STEP bytes, not one per row (4096 rows of 16 KiB
 * cost 15 % more than one linear copy of the same bytes).  Returns the
 * rows copied, 0 when row @r must take the row-by-row path (a row that
 * does not translate whole, unusual pitches), or a negative errno.
 */
static s64 ascend_emu_dma_2d_run(struct ascend_emu *emu,
				 struct ascend_dma_job *job,
				 const struct ascend_dma_desc *d, u64 r)
{
	struct ascend_dma_span ds, ss;
	u64 nr, i;
	int ret = 0;

	if (!d->len || d->dpitch < d->len || d->spitch < d->len)
		return 0;
	nr = min(d->height - r, ASCEND_DMA_STEP / d->len);
	if (nr < 2)
		return 0;
	ascend_emu_smmu_access_begin();
	nr = ascend_emu_dma_2d_side(emu, job, d->dst + r * d->dpitch,
				    d->dst_as, d->dpitch, d->len, nr, true,
				    &ds);
	if (nr)
		nr = ascend_emu_dma_2d_side(emu, job, d->src + r * d->spitch,
					    d->src_as, d->spitch, d->len, nr,
					    false, &ss);
	for (i = 0; i < nr && !ret; i++)
		ret = ascend_emu_mem_copy(emu, ds.addr + i * d->dpitch, ds.as,
					  ss.addr + i * d->spitch, ss.as,
					  d->len);
	ascend_emu_smmu_access_end();
	return ret ?: (s64)nr;
}

static int ascend_emu_dma_2d(struct ascend_emu *emu, struct ascend_dma_job *job,
			     const struct ascend_dma_desc *d, u64 *fault)
{
	u64 r;
	s64 n;
	int ret;

	/* the submitter checked the spans: no row address overflows */
	if (ascend_copy_2d_span_check(d->dst, d->dpitch, d->len, d->height) ||
	    ascend_copy_2d_span_check(d->src, d->spitch, d->len, d->height))
		return -EIO;
	for (r = 0; r < d->height; r += n) {
		if (READ_ONCE(job->cancel))
			return -ECANCELED;
		n = ascend_emu_dma_2d_run(emu, job, d, r);
		if (n < 0)
			return n;
		if (!n) {
			/* row by row: faults, page requests, their address */
			ret = ascend_emu_dma_xfer(emu, job,
						  d->dst + r * d->dpitch,
						  d->dst_as,
						  d->src + r * d->spitch,
						  d->src_as, d->len, fault);
			if (ret)
				return ret;
			n = 1;
		}
		cond_resched();
	}
	return 0;
}

/* INDIRECT: the memcpy descriptor at VA @d->src, read now. */
static int ascend_emu_dma_indirect(struct ascend_emu *emu,
				   struct ascend_dma_job *job,
				   const struct ascend_dma_desc *d, u64 *fault)
{
	struct ascend_memcpy_desc md;
	int ret;

	ret = ascend_emu_dma_read_va(emu, job, d->src, &md, sizeof(md), fault);
	if (ret)
		return ret;
	ret = ascend_memcpy_desc_check(&md);
	if (ret)
		return ret;
	return ascend_emu_dma_xfer(emu, job, md.dst, ASCEND_AS_VA, md.src,
				   ASCEND_AS_VA, md.size, fault);
}

/* OFFSET: base pointers in the slots at VAs @d->dst / @d->src, read now. */
static int ascend_emu_dma_offset(struct ascend_emu *emu,
				 struct ascend_dma_job *job,
				 const struct ascend_dma_desc *d, u64 *fault)
{
	u64 dbase, sbase, dst, src;
	int ret;

	ret = ascend_emu_dma_read_va(emu, job, d->dst, &dbase, sizeof(dbase),
				     fault);
	if (!ret)
		ret = ascend_emu_dma_read_va(emu, job, d->src, &sbase,
					     sizeof(sbase), fault);
	if (ret)
		return ret;
	ret = ascend_copy_offset_resolve(dbase, d->dst_off, sbase, d->src_off,
					 d->len, &dst, &src);
	if (ret)
		return ret;
	return ascend_emu_dma_xfer(emu, job, dst, ASCEND_AS_VA, src,
				   ASCEND_AS_VA, d->len, fault);
}

/* Bytes of a reduce descriptor read, combined and written at a time. */
#define ASCEND_EMU_REDUCE_CHUNK	SZ_16K

/*
 * REDUCE: dst = op(dst, src) over @d->len bytes at VAs @d->dst/@d->src, in
 * chunks of %ASCEND_EMU_REDUCE_CHUNK: read both, combine, write dst, each
 * chunk in one access section (an unmap's invalidation waits for it).
 * Every byte of both sides must translate before the first one changes.
 * The command checker made the addresses and the length whole elements,
 * so a chunk (a multiple of every element size) never splits one.
 */
static int ascend_emu_dma_reduce(struct ascend_emu *emu,
				 struct ascend_dma_job *job,
				 const struct ascend_dma_desc *d, u64 *fault)
{
	unsigned int es = ascend_reduce_elem_size(d->red_type);
	u64 off, n;
	u8 *buf;
	int ret;

	if (!es || !ascend_reduce_op_valid(d->red_op) ||
	    d->dst_as != ASCEND_AS_VA || d->src_as != ASCEND_AS_VA ||
	    ((d->dst | d->src | d->len) & (es - 1)))
		return -EIO;
	ascend_emu_smmu_access_begin();
	ret = ascend_emu_dma_check(emu, job, d->src, d->len, false, fault) ?:
	      ascend_emu_dma_check(emu, job, d->dst, d->len, true, fault);
	ascend_emu_smmu_access_end();
	if (ret)
		return ret;
	buf = kvmalloc(2 * ASCEND_EMU_REDUCE_CHUNK, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (off = 0; off < d->len; off += n) {
		if (READ_ONCE(job->cancel)) {
			ret = -ECANCELED;
			break;
		}
		n = min_t(u64, d->len - off, ASCEND_EMU_REDUCE_CHUNK);
		ascend_emu_smmu_access_begin();
		ret = ascend_emu_dma_va_io(emu, job, d->src + off,
					   buf + ASCEND_EMU_REDUCE_CHUNK, n,
					   false, fault) ?:
		      ascend_emu_dma_va_io(emu, job, d->dst + off, buf, n,
					   false, fault);
		if (!ret) {
			ascend_reduce_apply(d->red_op, d->red_type, buf,
					    buf + ASCEND_EMU_REDUCE_CHUNK, n);
			ret = ascend_emu_dma_va_io(emu, job, d->dst + off, buf,
						   n, true, fault);
		}
		ascend_emu_smmu_access_end();
		if (ret)
			break;
		cond_resched();
	}
	kvfree(buf);
	return ret;
}

/* ascend_emu_dma_exec() for every other descriptor */
static noinline int ascend_emu_dma_exec_other(struct ascend_emu_dma *dma,
					      struct ascend_dma_job *job,
					      const struct ascend_dma_desc *d,
					      u64 *fault)
{
	struct ascend_emu *emu = dma->emu;

	switch (d->kind) {
	case ASCEND_DMA_LINEAR:
		return ascend_emu_dma_xfer(emu, job, d->dst, d->dst_as, d->src,
					   d->src_as, d->len, fault);
	case ASCEND_DMA_FILL:
		if (d->dst_as == ASCEND_AS_VA)
			return ascend_emu_dma_fill_va(emu, job, d->dst, d->len,
						      d->pattern,
						      d->pattern_size, fault);
		return ascend_emu_mem_fill(emu, d->dst, d->dst_as, d->len,
					   d->pattern, d->pattern_size);
	case ASCEND_DMA_2D:
		return ascend_emu_dma_2d(emu, job, d, fault);
	case ASCEND_DMA_INDIRECT:
		return ascend_emu_dma_indirect(emu, job, d, fault);
	case ASCEND_DMA_OFFSET:
		return ascend_emu_dma_offset(emu, job, d, fault);
	case ASCEND_DMA_REDUCE:
		return ascend_emu_dma_reduce(emu, job, d, fault);
	default:
		return -EIO;
	}
}

/*
 * Execute one descriptor: the engine's transfer function.  Returns 0 or a
 * negative errno for the slot's status (*@fault: the VA of an -EFAULT).
 * A linear copy between device-physical addresses, the small synchronous
 * copy's descriptor, goes straight to the memory; function calls are what
 * a tiny transfer costs on a slow (emulating) host.
 */
static __always_inline int ascend_emu_dma_exec(struct ascend_emu_dma *dma,
					       struct ascend_dma_job *job,
					       const struct ascend_dma_desc *d,
					       u64 *fault)
{
	if (d->kind == ASCEND_DMA_LINEAR && d->dst_as != ASCEND_AS_VA &&
	    d->src_as != ASCEND_AS_VA)
		return ascend_emu_mem_copy(dma->emu, d->dst, d->dst_as, d->src,
					   d->src_as, d->len);
	return ascend_emu_dma_exec_other(dma, job, d, fault);
}

/* The next slot for @r to execute, or NULL.  @lock held. */
static struct ascend_emu_dma_slot *
ascend_emu_dma_next(struct ascend_emu_dma_ring *r)
{
	if (r->dma->paused || r->claimed || r->head == r->tail)
		return NULL;
	return &r->slots[ascend_dma_ring_slot(r->head)];
}

static bool ascend_emu_dma_ready(struct ascend_emu_dma_ring *r)
{
	bool ret;

	spin_lock(&r->dma->lock);
	ret = ascend_emu_dma_next(r);
	spin_unlock(&r->dma->lock);
	return ret;
}

/*
 * Execute @slot, one of @r's slots from its head on.  The caller owns those
 * slots: it is @r's engine, or the submitter with @r->claimed.  Returns
 * the slot's status; *@fault is the VA of an -EFAULT.
 */
static __always_inline int
ascend_emu_dma_run_slot(struct ascend_emu_dma_ring *r,
			struct ascend_emu_dma_slot *slot, u64 *fault)
{
	struct ascend_emu_dma *dma = r->dma;
	int err;

	/* slots [head, tail) belong to the engine: no lock needed */
	*fault = 0;
	if (READ_ONCE(slot->job->cancel))
		return -ECANCELED;
	err = ascend_emu_dma_exec(dma, slot->job, &slot->desc, fault);
	if (!err && ascend_emu_fail_xfer(dma->emu))
		err = -EIO;
	return err;
}

/* Write the status of @slot, the one at @r's head, and advance the head. */
static void ascend_emu_dma_slot_done(struct ascend_emu_dma_ring *r,
				     struct ascend_emu_dma_slot *slot,
				     int err, u64 fault)
{
	lockdep_assert_held(&r->dma->lock);
	slot->status = err;
	slot->fault_addr = fault;
	r->head++;
	if (err == -ECANCELED)	/* skipped or stopped: not counted */
		return;
	atomic64_inc(&r->executed);
	atomic64_add(ascend_dma_desc_bytes(&slot->desc), &r->bytes);
}

static int ascend_emu_dma_engine(void *data)
{
	struct ascend_emu_dma_ring *r = data;
	struct ascend_emu_dma *dma = r->dma;

	while (!kthread_should_stop()) {
		struct ascend_emu_dma_slot *slot;
		u64 fault;
		int err;

		spin_lock(&dma->lock);
		slot = ascend_emu_dma_next(r);
		spin_unlock(&dma->lock);
		if (!slot) {
			wait_event_interruptible(r->wq,
						 ascend_emu_dma_ready(r) ||
						 kthread_should_stop());
			continue;
		}

		err = ascend_emu_dma_run_slot(r, slot, &fault);

		/* status, then the completion "interrupt", in one go */
		spin_lock(&dma->lock);
		ascend_emu_dma_slot_done(r, slot, err, fault);
		ascend_emu_dma_retire(r);
		ascend_emu_dma_feed(dma);
		spin_unlock(&dma->lock);
	}
	return 0;
}

/* ------------------------------------------------------------------------ */

int ascend_emu_dma_init(struct ascend_emu *emu, unsigned int engines)
{
	struct ascend_emu_dma *dma;
	unsigned int i;
	int ret = -ENOMEM;

	if (!engines || engines > 64)
		return -EINVAL;

	dma = kzalloc(struct_size(dma, rings, engines), GFP_KERNEL);
	if (!dma)
		return -ENOMEM;
	dma->emu = emu;
	spin_lock_init(&dma->lock);
	INIT_LIST_HEAD(&dma->jobs);
	dma->nr_engines = engines;

	for (i = 0; i < engines; i++) {
		struct ascend_emu_dma_ring *r;

		r = kzalloc(sizeof(*r), GFP_KERNEL);
		if (!r)
			goto err_stop_engines;
		r->dma = dma;
		r->id = i;
		init_waitqueue_head(&r->wq);
		dma->rings[i] = r;
	}
	for (i = 0; i < engines; i++) {
		struct task_struct *t;

		t = kthread_run(ascend_emu_dma_engine, dma->rings[i],
				"ascend%u-dma%u", emu->index, i);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto err_stop_engines;
		}
		dma->rings[i]->thread = t;
	}

	emu->dma = dma;
	return 0;

err_stop_engines:
	for (i = 0; i < engines; i++) {
		if (dma->rings[i] && dma->rings[i]->thread)
			kthread_stop(dma->rings[i]->thread);
		kfree(dma->rings[i]);
	}
	kfree(dma);
	return ret;
}

void ascend_emu_dma_fini(struct ascend_emu *emu)
{
	struct ascend_emu_dma *dma = emu->dma;
	struct ascend_dma_job *job, *tmp;
	unsigned int i;

	if (!dma)
		return;

	for (i = 0; i < dma->nr_engines; i++)
		kthread_stop(dma->rings[i]->thread);

	/* Callers wait for their jobs, so none should be left; fail any. */
	spin_lock(&dma->lock);
	for (i = 0; i < dma->nr_engines; i++) {
		struct ascend_emu_dma_ring *r = dma->rings[i];

		while (r->head != r->tail) {
			WARN_ON_ONCE(1);
			r->slots[ascend_dma_ring_slot(r->head++)].status = -EIO;
		}
		ascend_emu_dma_retire(r);
	}
	list_for_each_entry_safe(job, tmp, &dma->jobs, link) {
		list_del_init(&job->link);
		WARN_ON_ONCE(1);
		if (!job->status)
			job->status = -EIO;
		while (job->next++ < job->count)
			if (atomic_dec_and_test(&job->remaining))
				complete(&job->done);
	}
	spin_unlock(&dma->lock);

	for (i = 0; i < dma->nr_engines; i++)
		kfree(dma->rings[i]);
	kfree(dma);
	emu->dma = NULL;
}

/* Jobs the submitter may execute itself: a few bytes of copy or fill. */
#define ASCEND_EMU_DMA_INLINE_DESCS	4
#define ASCEND_EMU_DMA_INLINE_BYTES	SZ_4K

static inline bool ascend_emu_dma_small(const struct ascend_dma_job *job)
{
	u64 bytes = 0, n;
	unsigned int i;

	if (job->count > ASCEND_EMU_DMA_INLINE_DESCS)
		return false;
	for (i = 0; i < job->count; i++) {
		const struct ascend_dma_desc *d = &job->descs[i];

		/* indirect / offset copies: the size is read when they run */
		if (d->kind != ASCEND_DMA_LINEAR && d->kind != ASCEND_DMA_FILL &&
		    d->kind != ASCEND_DMA_2D)
			return false;
		/* a 2D descriptor's rows count (U64_MAX if they overflow) */
		n = ascend_dma_desc_bytes(d);
		if (n > ASCEND_EMU_DMA_INLINE_BYTES)
			return false;
		bytes += n;
	}
	return bytes <= ASCEND_EMU_DMA_INLINE_BYTES;
}

/*
 * No job waits, no ring holds or runs one, not paused?  Exact with @lock
 * held (a ring is claimed under it); without it, what the caller sees: a
 * job submitted before the caller's (its dma_submit() ordered before by
 * whatever ordered the two callers) is seen, one submitted at the same
 * time from another context may not be, and then runs beside the
 * caller's -- the two have no order anyway.
 */
static bool ascend_emu_dma_idle_seen(struct ascend_emu_dma *dma)
{
	unsigned int i;

	/* without the lock, plain reads of fields written under it */
	if (READ_ONCE(dma->paused) || !list_empty(&dma->jobs))
		return false;
	for (i = 0; i < dma->nr_engines; i++) {
		struct ascend_emu_dma_ring *r = dma->rings[i];

		if (READ_ONCE(r->claimed) ||
		    READ_ONCE(r->tail) != READ_ONCE(r->retired))
			return false;
	}
	return true;
}

bool ascend_emu_dma_idle(struct ascend_emu *emu)
{
	return ascend_emu_dma_idle_seen(emu->dma);
}

/*
 * Execute the one small descriptor of @job in the caller's context with
 * the engines' transfer code, their fault injection and status, and count
 * it in @descs/@bytes.  The job is finished (@sync) on return.
 */
static void ascend_emu_dma_exec_one(struct ascend_emu_dma *dma,
				    struct ascend_dma_job *job,
				    atomic64_t *descs, atomic64_t *bytes)
{
	const struct ascend_dma_desc *d = job->descs;
	u64 fault = 0;
	int err;

	job->sync = true;
	err = ascend_emu_dma_exec(dma, job, d, &fault);
	if (!err && ascend_emu_fail_xfer(dma->emu))
		err = -EIO;
	job->status = err;
	job->fault_addr = err ? fault : 0;
	job->next = 1;
	atomic_set(&job->remaining, 0);
	atomic64_inc(descs);
	atomic64_add(ascend_dma_desc_bytes(d), bytes);
}

/*
 * Execute a small @job in the submitter's context when nothing else is
 * queued or running (see the top of the file).  Returns false when the job
 * must go to the engines instead.  @job is initialised.
 */
static bool ascend_emu_dma_inline(struct ascend_emu_dma *dma,
				  struct ascend_dma_job *job)
{
	u64 fault[ASCEND_EMU_DMA_INLINE_DESCS];
	int err[ASCEND_EMU_DMA_INLINE_DESCS];
	struct ascend_emu_dma_slot *slot;
	struct ascend_emu_dma_ring *r;
	unsigned int i;
	u32 first;

	if (!ascend_emu_dma_small(job) || !ascend_emu_dma_idle_seen(dma))
		return false;
	/*
	 * One descriptor needs no ring: run beside them, counted on
	 * engine 0 as the claimed ring would count it.
	 */
	if (job->count == 1) {
		ascend_emu_dma_exec_one(dma, job, &dma->rings[0]->executed,
					&dma->rings[0]->bytes);
		return true;
	}

	spin_lock(&dma->lock);
	if (!ascend_emu_dma_idle_seen(dma))	/* exact: under the lock */
		goto busy;
	r = dma->rings[0];
	r->claimed = true;
	job->sync = true;	/* retiring it completes nothing */
	first = r->tail;
	while (job->next < job->count) {
		slot = &r->slots[ascend_dma_ring_slot(r->tail++)];
		slot->desc = job->descs[job->next++];
		slot->job = job;
		slot->status = 0;
		slot->fault_addr = 0;
	}
	spin_unlock(&dma->lock);

	/*
	 * ours: [first, first + count) = [head, ...); others may feed after.
	 * The statuses wait in @err until the one locked section below.
	 */
	for (i = 0; i < job->count; i++) {
		slot = &r->slots[ascend_dma_ring_slot(first + i)];
		err[i] = ascend_emu_dma_run_slot(r, slot, &fault[i]);
	}

	spin_lock(&dma->lock);
	for (i = 0; i < job->count; i++) {
		slot = &r->slots[ascend_dma_ring_slot(first + i)];
		ascend_emu_dma_slot_done(r, slot, err[i], fault[i]);
	}
	r->claimed = false;
	ascend_emu_dma_retire(r);	/* finishes @job */
	if (!list_empty(&dma->jobs))
		ascend_emu_dma_feed(dma);
	/* slots fed behind ours while the ring was claimed: the doorbell */
	if (r->head != r->tail)
		wake_up(&r->wq);
	spin_unlock(&dma->lock);
	return true;

busy:
	spin_unlock(&dma->lock);
	return false;
}

/* What dma_submit() initialises of @job. */
static void ascend_emu_dma_job_init(struct ascend_dma_job *job)
{
	job->status = 0;
	job->fault_addr = 0;
	job->next = 0;
	job->sync = false;
	job->cancel = false;
	INIT_LIST_HEAD(&job->link);	/* on no list: dma_cancel() drops nothing */
	atomic_set(&job->remaining, job->count);
}

bool ascend_emu_dma_try_inline(struct ascend_emu *emu,
			       struct ascend_dma_job *job)
{
	ascend_emu_dma_job_init(job);
	return job->count && ascend_emu_dma_inline(emu->dma, job);
}

/*
 * The command processor's own mover: one linear copy or fill of at most
 * ASCEND_EMU_DMA_INLINE_BYTES, moved by the caller with the engines'
 * transfer code but beside their rings -- no slot, no lock, no turn behind
 * the jobs on them, which is most of what a small copy costs.  Fault
 * injection and the status are those of an engine; the bytes are counted
 * apart from the engines'.
 */
bool ascend_emu_dma_direct(struct ascend_emu *emu, struct ascend_dma_job *job)
{
	struct ascend_emu_dma *dma = emu->dma;

	ascend_emu_dma_job_init(job);
	if (job->count != 1 || !ascend_emu_dma_small(job))
		return false;
	ascend_emu_dma_exec_one(dma, job, &dma->direct_descs,
				&dma->direct_bytes);
	return true;
}

int ascend_emu_dma_direct_copy(struct ascend_emu *emu, u32 asid, u64 dst,
			       u64 src, u64 len)
{
	struct ascend_emu_dma *dma = emu->dma;
	struct ascend_dma_span d, s;
	int ret;

	if (!len || len > ASCEND_EMU_DMA_INLINE_BYTES)
		return -EAGAIN;
	/* what one step of ascend_emu_dma_xfer() does, without its loop */
	ascend_emu_smmu_access_begin();
	if (ascend_emu_smmu_xlate(emu, asid, dst, len, true, true, &d) ||
	    ascend_emu_smmu_xlate(emu, asid, src, len, false, true, &s) ||
	    d.len != len || s.len != len) {
		ascend_emu_smmu_access_end();
		return -EAGAIN;
	}
	ret = ascend_emu_mem_copy(emu, d.addr, d.as, s.addr, s.as, len);
	ascend_emu_smmu_access_end();
	if (!ret && ascend_emu_fail_xfer(emu))
		ret = -EIO;
	atomic64_inc(&dma->direct_descs);
	atomic64_add(len, &dma->direct_bytes);
	return ret;
}

void ascend_emu_dma_direct_info(struct ascend_emu *emu,
				struct ascend_dma_engine_info *info)
{
	struct ascend_emu_dma *dma = emu->dma;

	memset(info, 0, sizeof(*info));
	if (!dma)
		return;
	info->descs_done = atomic64_read(&dma->direct_descs);
	info->bytes_done = atomic64_read(&dma->direct_bytes);
}

void ascend_emu_dma_submit(struct ascend_hw_device *hw,
			   struct ascend_dma_job *job)
{
	struct ascend_emu_dma *dma = to_ascend_emu(hw)->dma;

	ascend_emu_dma_job_init(job);
	if (!job->count) {
		job->sync = true;
		return;
	}
	if (ascend_emu_dma_inline(dma, job))
		return;

	init_completion(&job->done);
	spin_lock(&dma->lock);
	list_add_tail(&job->link, &dma->jobs);
	ascend_emu_dma_feed(dma);
	spin_unlock(&dma->lock);
}

/*
 * dma_cancel(): descriptors still waiting for a ring are dropped here; those
 * on a ring are skipped or stopped by their engine (ascend_emu_dma_run_slot()
 * and the step loops check @job->cancel), and their retire completes the
 * job as usual.
 */
void ascend_emu_dma_cancel(struct ascend_hw_device *hw,
			   struct ascend_dma_job *job)
{
	struct ascend_emu_dma *dma = to_ascend_emu(hw)->dma;
	unsigned int dropped;

	spin_lock(&dma->lock);
	WRITE_ONCE(job->cancel, true);
	if (!list_empty(&job->link) && job->next < job->count) {
		dropped = job->count - job->next;
		job->next = job->count;
		list_del_init(&job->link);
		if (!job->status)
			job->status = -ECANCELED;
		if (atomic_sub_and_test(dropped, &job->remaining) && !job->sync)
			complete(&job->done);
	}
	spin_unlock(&dma->lock);
}

void ascend_emu_dma_pause(struct ascend_emu *emu, bool pause)
{
	struct ascend_emu_dma *dma = emu->dma;
	unsigned int i;

	spin_lock(&dma->lock);
	dma->paused = pause;
	spin_unlock(&dma->lock);
	if (!pause)
		for (i = 0; i < dma->nr_engines; i++)
			wake_up(&dma->rings[i]->wq);
}

int ascend_emu_dma_ring_state(struct ascend_emu *emu, unsigned int engine,
			      struct ascend_emu_dma_ring_state *st)
{
	struct ascend_emu_dma *dma = emu->dma;
	struct ascend_emu_dma_ring *r;

	if (engine >= dma->nr_engines)
		return -EINVAL;
	r = dma->rings[engine];
	spin_lock(&dma->lock);
	st->tail = r->tail;
	st->head = r->head;
	st->retired = r->retired;
	st->executed = atomic64_read(&r->executed);
	spin_unlock(&dma->lock);
	return 0;
}

int ascend_emu_dma_engine_info(struct ascend_hw_device *hw, unsigned int engine,
			       struct ascend_dma_engine_info *info)
{
	struct ascend_emu_dma *dma = to_ascend_emu(hw)->dma;
	struct ascend_emu_dma_ring *r;

	if (!dma || engine >= dma->nr_engines)
		return -EINVAL;
	r = dma->rings[engine];
	spin_lock(&dma->lock);
	info->tail = r->tail;
	info->head = r->head;
	info->retired = r->retired;
	info->descs_done = atomic64_read(&r->executed);
	info->bytes_done = atomic64_read(&r->bytes);
	spin_unlock(&dma->lock);
	return 0;
}

unsigned int ascend_emu_dma_engines(struct ascend_emu *emu)
{
	return emu->dma->nr_engines;
}

int ascend_emu_dma_run(struct ascend_emu *emu, struct ascend_dma_job *job,
		       const bool *abort)
{
	ascend_emu_dma_submit(&emu->hw, job);
	if (job->sync)
		return job->status;
	while (!wait_for_completion_timeout(&job->done,
					    ASCEND_EMU_DMA_ABORT_POLL)) {
		if (READ_ONCE(*abort)) {
			ascend_emu_dma_cancel(&emu->hw, job);
			wait_for_completion(&job->done);
			return -ECANCELED;
		}
	}
	return job->status;
}
