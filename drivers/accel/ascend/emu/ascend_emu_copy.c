// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the command processor's copy sequencer.  Ring COPY, FILL,
 * COPY_2D, COPY_BATCH, COPY_INDIRECT, COPY_OFFSET and REDUCE are executed by the
 * device itself, on its own DMA engines, with device VAs that the engines
 * translate through the queue's address space (its ASID and peer
 * windows).  Nothing of the driver is called and no driver lock is held:
 * a concurrent unmap clears the descriptors and invalidates, which waits
 * for the engine steps in flight (ascend_emu_smmu.c), so a copy racing a
 * free of its own memory faults instead of touching what the memory
 * became.
 *
 * Every byte a command names is checked to translate before the first one
 * moves (a batch: every entry), then the work goes to the engines in jobs
 * of at most %ASCEND_EMU_COPY_PASS bytes, each spread over the engines in
 * %ASCEND_DMA_STEP descriptors.  Between jobs, and while waiting for one,
 * the command's abort flag is looked at: a deadline, a queue stop or reset
 * stops the command within one step per engine.
 *
 * A copy, fill or 2D copy of at most 4 KiB is executed by the command
 * processor at once (ascend_emu_copy_try_now()), with the engines' own
 * transfer code but beside their rings (ascend_emu_dma_direct()): no
 * hand-off to a worker and back, no ring slot, and no turn behind other
 * users' jobs, which is what a small copy costs most.
 */
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "ascend_emu.h"
#include "ascend_hw.h"

/* Bytes of one job; rows of a 2D band per job (fewer for long rows). */
#define ASCEND_EMU_COPY_PASS	SZ_16M
#define ASCEND_EMU_COPY_ROWS	4096
/* Batch entries read from device memory at a time; abort checks. */
#define ASCEND_EMU_BATCH_READ	256
#define ASCEND_EMU_BATCH_GAP	ASCEND_EMU_BATCH_READ
/* Descriptors of one batch job (many small entries). */
#define ASCEND_EMU_BATCH_DESCS	1024

static_assert(ASCEND_EMU_COPY_PASS % ASCEND_DMA_STEP == 0);
static_assert(ASCEND_DMA_STEP % 4 == 0);	/* fills keep their phase */

/**
 * struct ascend_emu_copy - one ring copy command being executed
 * @emu: the device
 * @mmu: translation of the engines' VAs: the queue's ASID
 * @grp: the queue's scheduling group, whose DMA share its jobs take (NULL:
 *	none)
 * @abort: the command's abort flag
 * @descs: descriptor buffer of @cap entries
 * @cap: entries in @descs
 * @fault_addr: out: the VA of an %ASCEND_FAULT_MMU
 */
struct ascend_emu_copy {
	struct ascend_emu *emu;
	struct ascend_dma_mmu mmu;
	struct ascend_cp_group *grp;
	const bool *abort;
	struct ascend_dma_desc *descs;
	unsigned int cap;
	u64 *fault_addr;
};

/* The fault code of a job status or translation error at @addr. */
static u32 ascend_emu_copy_fault(struct ascend_emu_copy *c, int ret, u64 addr)
{
	switch (ret) {
	case 0:
		return ASCEND_FAULT_NONE;
	case -EFAULT:
		*c->fault_addr = addr;
		return ASCEND_FAULT_MMU;
	case -EINVAL:
		return ASCEND_FAULT_BAD_COMMAND;
	case -ECANCELED:
		return ASCEND_FAULT_TIMEOUT;
	default:
		return ASCEND_FAULT_DMA;
	}
}

/* Between two jobs: stop if the command was aborted, let others run. */
static u32 ascend_emu_copy_gap(struct ascend_emu_copy *c)
{
	if (READ_ONCE(*c->abort))
		return ASCEND_FAULT_TIMEOUT;
	cond_resched();
	return ASCEND_FAULT_NONE;
}

/* Run @n descriptors as one job and wait for it: a fault code. */
static u32 ascend_emu_copy_run(struct ascend_emu_copy *c,
			       const struct ascend_dma_desc *descs,
			       unsigned int n)
{
	struct ascend_dma_job job = {
		.descs = descs,
		.count = n,
		.mmu = &c->mmu,
	};
	int ret;

	/* a place among the group's jobs in the engines, or the abort */
	if (c->grp && !ascend_emu_cp_dma_begin(c->emu, c->grp, c->abort))
		return ASCEND_FAULT_TIMEOUT;
	ret = ascend_emu_dma_run(c->emu, &job, c->abort);
	if (c->grp)
		ascend_emu_cp_dma_end(c->emu, c->grp);
	return ascend_emu_copy_fault(c, ret, job.fault_addr);
}

/* Does all of [va, va + len) translate (for a write when @write)? */
static u32 ascend_emu_copy_check(struct ascend_emu_copy *c, u64 va, u64 len,
				 bool write)
{
	u64 fault;
	int ret;

	ret = ascend_emu_smmu_check(c->emu, c->mmu.asid, va, len, write, true,
				    &fault);
	/* the range that does not translate is reported by its start */
	return ascend_emu_copy_fault(c, ret, va);
}

/*
 * A small linear copy between VAs run at once in the caller's context when
 * the engines are idle, through the engines' own code (no hand-off to an
 * engine thread and back).  True when it ran, with its result in *@code.
 */
static bool ascend_emu_copy_now(struct ascend_emu_copy *c, u64 dst, u64 src,
				u64 len, u32 *code)
{
	struct ascend_dma_desc d = {
		.kind = ASCEND_DMA_LINEAR,
		.dst = dst,
		.src = src,
		.len = len,
		.dst_as = ASCEND_AS_VA,
		.src_as = ASCEND_AS_VA,
	};
	struct ascend_dma_job job = { .descs = &d, .count = 1, .mmu = &c->mmu };

	if (len > ASCEND_EMU_COPY_NOW_BYTES ||
	    !ascend_emu_dma_try_inline(c->emu, &job))
		return false;
	*code = ascend_emu_copy_fault(c, job.status, job.fault_addr);
	return true;
}

/* Descriptors of @len bytes from @dst/@src, one per engine step. */
static unsigned int ascend_emu_copy_linear_descs(struct ascend_dma_desc *d,
						 u64 dst, u64 src, u64 len)
{
	unsigned int n = 0;
	u64 off, step;

	for (off = 0; off < len; off += step) {
		step = min_t(u64, len - off, ASCEND_DMA_STEP);
		d[n++] = (struct ascend_dma_desc){
			.kind = ASCEND_DMA_LINEAR,
			.dst = dst + off,
			.src = src + off,
			.len = step,
			.dst_as = ASCEND_AS_VA,
			.src_as = ASCEND_AS_VA,
		};
	}
	return n;
}

/* A linear copy between VAs, checked already: one job per pass. */
static u32 ascend_emu_copy_linear(struct ascend_emu_copy *c, u64 dst, u64 src,
				  u64 size)
{
	unsigned int n;
	u64 off, len;
	u32 code;

	for (off = 0; off < size; off += len) {
		len = min_t(u64, size - off, ASCEND_EMU_COPY_PASS);
		if (off) {
			code = ascend_emu_copy_gap(c);
			if (code)
				return code;
		}
		n = ascend_emu_copy_linear_descs(c->descs, dst + off,
						 src + off, len);
		code = ascend_emu_copy_run(c, c->descs, n);
		if (code)
			return code;
	}
	return ASCEND_FAULT_NONE;
}

static u32 ascend_emu_copy_copy(struct ascend_emu_copy *c,
				const struct ascend_cmd_copy *cmd)
{
	/* the source is reported when both sides are bad */
	return ascend_emu_copy_check(c, cmd->src, cmd->size, false) ?:
	       ascend_emu_copy_check(c, cmd->dst, cmd->size, true) ?:
	       ascend_emu_copy_linear(c, cmd->dst, cmd->src, cmd->size);
}

/*
 * Run @size bytes of descriptors like @tmpl (its dst, and src when it is a
 * VA, at offset 0) in jobs of a pass, each cut into descriptors of one
 * step.  Passes and steps start at multiples of every element size and
 * fill pattern: each descriptor keeps phase 0.
 */
static u32 ascend_emu_copy_stepped(struct ascend_emu_copy *c,
				   const struct ascend_dma_desc *tmpl, u64 size)
{
	u64 off, len, pos, step;
	unsigned int n;
	u32 code = ASCEND_FAULT_NONE;

	for (off = 0; !code && off < size; off += len) {
		len = min_t(u64, size - off, ASCEND_EMU_COPY_PASS);
		if (off) {
			code = ascend_emu_copy_gap(c);
			if (code)
				break;
		}
		n = 0;
		for (pos = 0; pos < len; pos += step) {
			step = min_t(u64, len - pos, ASCEND_DMA_STEP);
			c->descs[n] = *tmpl;
			c->descs[n].dst += off + pos;
			if (tmpl->src_as == ASCEND_AS_VA)
				c->descs[n].src += off + pos;
			c->descs[n++].len = step;
		}
		code = ascend_emu_copy_run(c, c->descs, n);
	}
	return code;
}

static u32 ascend_emu_copy_fill(struct ascend_emu_copy *c,
				const struct ascend_cmd_fill *f)
{
	const struct ascend_dma_desc d = {
		.kind = ASCEND_DMA_FILL,
		.dst = f->dst,
		.pattern = f->pattern,
		.pattern_size = f->pattern_size,
		.dst_as = ASCEND_AS_VA,
	};

	return ascend_emu_copy_check(c, f->dst, f->size, true) ?:
	       ascend_emu_copy_stepped(c, &d, f->size);
}

/* The descriptor of rows [@row, @row + @h) of the 2D copy @t. */
static struct ascend_dma_desc
ascend_emu_copy_2d_desc(const struct ascend_cmd_copy_2d *t, u64 row, u64 h)
{
	return (struct ascend_dma_desc){
		.kind = ASCEND_DMA_2D,
		.dst = t->dst + row * t->dpitch,
		.src = t->src + row * t->spitch,
		.len = t->width,
		.dpitch = t->dpitch,
		.spitch = t->spitch,
		.height = h,
		.dst_as = ASCEND_AS_VA,
		.src_as = ASCEND_AS_VA,
	};
}

static u32 ascend_emu_copy_2d(struct ascend_emu_copy *c,
			      const struct ascend_cmd_copy_2d *d)
{
	unsigned int parts = min(ascend_emu_dma_engines(c->emu), c->cap);
	u64 dspan, sspan, row, rows, per, extra, r;
	unsigned int i, n;
	u32 code = 0;

	if (ascend_copy_2d_span(d->dst, d->dpitch, d->width, d->height,
				&dspan) ||
	    ascend_copy_2d_span(d->src, d->spitch, d->width, d->height,
				&sspan))
		return ASCEND_FAULT_BAD_COMMAND;
	/* every byte of both spans, before the first row moves */
	code = ascend_emu_copy_check(c, d->dst, dspan, true) ?:
	       ascend_emu_copy_check(c, d->src, sspan, false);

	for (row = 0; !code && row < d->height; row += rows) {
		rows = clamp_t(u64, min_t(u64, ASCEND_EMU_COPY_PASS / d->width,
					  ASCEND_EMU_COPY_ROWS),
			       1, d->height - row);
		if (row) {
			code = ascend_emu_copy_gap(c);
			if (code)
				break;
		}
		/* a row longer than a pass: in passes of its own */
		if (d->width > ASCEND_EMU_COPY_PASS) {
			code = ascend_emu_copy_linear(c,
						      d->dst + row * d->dpitch,
						      d->src + row * d->spitch,
						      d->width);
			continue;
		}
		/* the band's rows shared out over the engines */
		n = min_t(u64, parts, rows);
		per = div64_u64_rem(rows, n, &extra);
		for (i = 0, r = row; i < n; i++) {
			u64 h = per + (i < extra);

			c->descs[i] = ascend_emu_copy_2d_desc(d, r, h);
			r += h;
		}
		code = ascend_emu_copy_run(c, c->descs, n);
	}
	return code;
}

/*
 * The check of the entries of one read: every byte of both sides of each
 * translates.  The checks share access sections of up to a step of bytes
 * (one section per entry was most of a small entry's check); an entry
 * that does not translate is checked again on its own, outside, with page
 * requests, and reported as before.
 */
static u32 ascend_emu_copy_batch_check(struct ascend_emu_copy *c,
				       const struct drm_ascend_copy_entry *buf,
				       u32 n)
{
	u32 asid = c->mmu.asid, k, code = ASCEND_FAULT_NONE;
	u64 fault, span = 0;
	bool in = false;

	for (k = 0; k < n; k++) {
		const struct drm_ascend_copy_entry *e = &buf[k];

		if (ascend_copy_entry_check(e)) {
			code = ASCEND_FAULT_BAD_COMMAND;
			break;
		}
		if (!e->size)
			continue;
		if (in && span > ASCEND_DMA_STEP) {
			ascend_emu_smmu_access_end();
			in = false;
		}
		if (!in) {
			ascend_emu_smmu_access_begin();
			in = true;
			span = 0;
		}
		span += e->size;
		if (!ascend_emu_smmu_check_in(c->emu, asid, e->dst, e->size,
					      true, true, &fault) &&
		    !ascend_emu_smmu_check_in(c->emu, asid, e->src, e->size,
					      false, true, &fault))
			continue;
		/* a page request waits for the driver: not in a section */
		ascend_emu_smmu_access_end();
		in = false;
		code = ascend_emu_copy_check(c, e->dst, e->size, true) ?:
		       ascend_emu_copy_check(c, e->src, e->size, false);
		if (code)
			break;
	}
	if (in)
		ascend_emu_smmu_access_end();
	return code;
}

/*
 * A small entry moved at once: by the engines' direct mover while they are
 * idle (@idle, looked at once per read of entries), else inline as a small
 * job when they still are.  True when it ran, with its result in *@code.
 */
static bool ascend_emu_copy_batch_now(struct ascend_emu_copy *c,
				      const struct drm_ascend_copy_entry *e,
				      bool idle, u32 *code)
{
	int ret;

	if (e->size > ASCEND_EMU_COPY_NOW_BYTES)
		return false;
	if (idle) {
		ret = ascend_emu_dma_direct_copy(c->emu, c->mmu.asid, e->dst,
						 e->src, e->size);
		if (ret != -EAGAIN) {
			/* both sides translated: no MMU fault to report */
			*code = ret ? ASCEND_FAULT_DMA : ASCEND_FAULT_NONE;
			return true;
		}
	}
	/* a side in more than one piece, or a fault: the full path */
	return ascend_emu_copy_now(c, e->dst, e->src, e->size, code);
}

/*
 * A ring COPY_BATCH: check (@run false) or run every entry.  Entries are
 * read from device memory %ASCEND_EMU_BATCH_READ at a time, and checked
 * by the device's rules on every read (user space may rewrite them).  A
 * job holds at most a pass of bytes and @c->cap descriptors.
 */
static u32 ascend_emu_copy_batch_pass(struct ascend_emu_copy *c,
				      const struct ascend_cmd_copy_batch *b,
				      struct drm_ascend_copy_entry *buf,
				      bool run)
{
	unsigned int nd = 0;
	u64 queued = 0, eoff, elen;
	u32 i, k, n, code;
	bool idle;
	int ret;

	for (i = 0; i < b->count; i += n) {
		u64 at = b->entries + (u64)i * sizeof(*buf);

		if (i && !(i % ASCEND_EMU_BATCH_GAP)) {
			code = ascend_emu_copy_gap(c);
			if (code)
				return code;
		}
		n = min_t(u32, b->count - i, ASCEND_EMU_BATCH_READ);
		/* the entries may be in a linked peer's memory too */
		ret = ascend_emu_smmu_rw(c->emu, c->mmu.asid, at, buf,
					 n * sizeof(*buf), false, true);
		if (ret)
			return ascend_emu_copy_fault(c, ret, at);
		if (!run) {
			code = ascend_emu_copy_batch_check(c, buf, n);
			if (code)
				return code;
			continue;
		}
		idle = ascend_emu_dma_idle(c->emu);
		for (k = 0; k < n; k++) {
			const struct drm_ascend_copy_entry *e = &buf[k];

			if (ascend_copy_entry_check(e))
				return ASCEND_FAULT_BAD_COMMAND;
			if (!e->size)
				continue;
			if (ascend_emu_copy_batch_now(c, e, idle, &code)) {
				if (code)
					return code;
				continue;
			}
			for (eoff = 0; eoff < e->size; eoff += elen) {
				elen = min_t(u64, e->size - eoff,
					     ASCEND_EMU_COPY_PASS);
				/* a job holds at most a pass: run it first */
				if (nd && (queued + elen > ASCEND_EMU_COPY_PASS ||
					   nd + DIV_ROUND_UP_ULL(elen,
						ASCEND_DMA_STEP) > c->cap)) {
					code = ascend_emu_copy_run(c, c->descs,
								   nd) ?:
					       ascend_emu_copy_gap(c);
					nd = 0;
					queued = 0;
					if (code)
						return code;
				}
				nd += ascend_emu_copy_linear_descs(c->descs + nd,
								   e->dst + eoff,
								   e->src + eoff,
								   elen);
				queued += elen;
			}
		}
	}
	return nd ? ascend_emu_copy_run(c, c->descs, nd) : ASCEND_FAULT_NONE;
}

static u32 ascend_emu_copy_batch(struct ascend_emu_copy *c,
				 const struct ascend_cmd_copy_batch *b)
{
	struct drm_ascend_copy_entry *buf;
	u32 code;

	buf = kmalloc_array(ASCEND_EMU_BATCH_READ, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ASCEND_FAULT_DMA;
	/* every entry is checked before any byte moves */
	code = ascend_emu_copy_batch_pass(c, b, buf, false) ?:
	       ascend_emu_copy_batch_pass(c, b, buf, true);
	kfree(buf);
	return code;
}

/*
 * REDUCE: both ranges checked first (the source reported when both are
 * bad, as a copy), then jobs of a pass cut into descriptors of one step,
 * each a whole number of elements (a step is a multiple of every size).
 */
static u32 ascend_emu_copy_reduce(struct ascend_emu_copy *c,
				  const struct ascend_cmd_reduce *r)
{
	const struct ascend_dma_desc d = {
		.kind = ASCEND_DMA_REDUCE,
		.dst = r->dst,
		.src = r->src,
		.dst_as = ASCEND_AS_VA,
		.src_as = ASCEND_AS_VA,
		.red_op = r->op,
		.red_type = r->dtype,
	};

	return ascend_emu_copy_check(c, r->src, r->size, false) ?:
	       ascend_emu_copy_check(c, r->dst, r->size, true) ?:
	       ascend_emu_copy_stepped(c, &d, r->size);
}

/* COPY_INDIRECT, COPY_OFFSET: one descriptor, read when it executes. */
static u32 ascend_emu_copy_late(struct ascend_emu_copy *c,
				const struct ascend_cmd *cmd)
{
	struct ascend_dma_desc d = {};

	if (cmd->opcode == ASCEND_CMD_COPY_INDIRECT) {
		d.kind = ASCEND_DMA_INDIRECT;
		d.src = cmd->copy_indirect.desc;
		d.src_as = ASCEND_AS_VA;
	} else {
		d.kind = ASCEND_DMA_OFFSET;
		d.dst = cmd->copy_offset.dst_slot;
		d.src = cmd->copy_offset.src_slot;
		d.dst_as = ASCEND_AS_VA;
		d.src_as = ASCEND_AS_VA;
		d.dst_off = cmd->copy_offset.dst_offset;
		d.src_off = cmd->copy_offset.src_offset;
		d.len = cmd->copy_offset.size;
	}
	return ascend_emu_copy_run(c, &d, 1);
}

/*
 * ascend_emu_copy_try_now() with a descriptor, in full; a COPY_2D of at
 * most %ASCEND_EMU_COPY_NOW_BYTES too (a hand-off to a worker and back was
 * most of a small one's cost)
 */
static noinline bool ascend_emu_copy_now_desc(struct ascend_emu *emu, u32 asid,
					      const struct ascend_cmd *cmd,
					      u32 *code, u64 *fault_addr)
{
	struct ascend_dma_desc d = {};
	struct ascend_emu_copy c = {
		.emu = emu,
		.mmu = { .asid = asid },
		.fault_addr = fault_addr,
	};
	struct ascend_dma_job job = { .descs = &d, .count = 1, .mmu = &c.mmu };
	const struct ascend_cmd_copy_2d *t = &cmd->copy_2d;
	u64 dspan, sspan;

	if (cmd->opcode == ASCEND_CMD_COPY_2D) {
		/* a few bytes in all: one 2D descriptor */
		if (ascend_copy_2d_span(t->dst, t->dpitch, t->width, t->height,
					&dspan) ||
		    ascend_copy_2d_span(t->src, t->spitch, t->width, t->height,
					&sspan) ||
		    t->width > ASCEND_EMU_COPY_NOW_BYTES ||
		    t->height > ASCEND_EMU_COPY_NOW_BYTES / t->width)
			return false;
		/* every byte of both spans before the first row moves */
		*code = ascend_emu_copy_check(&c, t->dst, dspan, true) ?:
			ascend_emu_copy_check(&c, t->src, sspan, false);
		if (*code)
			return true;
		d = ascend_emu_copy_2d_desc(t, 0, t->height);
		if (!ascend_emu_dma_direct(emu, &job))
			return false;
		*code = ascend_emu_copy_fault(&c, job.status, job.fault_addr);
		return true;
	}
	if (cmd->opcode == ASCEND_CMD_COPY &&
	    cmd->copy.size <= ASCEND_EMU_COPY_NOW_BYTES) {
		d.kind = ASCEND_DMA_LINEAR;
		d.dst = cmd->copy.dst;
		d.src = cmd->copy.src;
		d.len = cmd->copy.size;
		d.src_as = ASCEND_AS_VA;
	} else if (cmd->opcode == ASCEND_CMD_FILL &&
		   cmd->fill.size <= ASCEND_EMU_COPY_NOW_BYTES) {
		d.kind = ASCEND_DMA_FILL;
		d.dst = cmd->fill.dst;
		d.len = cmd->fill.size;
		d.pattern = cmd->fill.pattern;
		d.pattern_size = cmd->fill.pattern_size;
	} else {
		return false;
	}
	d.dst_as = ASCEND_AS_VA;
	if (!ascend_emu_dma_direct(emu, &job))
		return false;
	/* a side that did not translate is reported by its start, as below */
	if (job.status == -EFAULT)
		*code = (d.kind == ASCEND_DMA_LINEAR ?
			 ascend_emu_copy_check(&c, d.src, d.len, false) : 0) ?:
			ascend_emu_copy_check(&c, d.dst, d.len, true) ?:
			ascend_emu_copy_fault(&c, job.status, job.fault_addr);
	else
		*code = ascend_emu_copy_fault(&c, job.status, job.fault_addr);
	return true;
}

bool ascend_emu_copy_try_now(struct ascend_emu *emu, u32 asid,
			     const struct ascend_cmd *cmd, u32 *code,
			     u64 *fault_addr)
{
	int ret;

	/* the common case needs no descriptor, whose zeroing costs */
	if (cmd->opcode == ASCEND_CMD_COPY) {
		ret = ascend_emu_dma_direct_copy(emu, asid, cmd->copy.dst,
						 cmd->copy.src, cmd->copy.size);
		if (ret != -EAGAIN) {
			/* both sides translated: no MMU fault to report */
			*code = ret ? ASCEND_FAULT_DMA : ASCEND_FAULT_NONE;
			return true;
		}
	}
	return ascend_emu_copy_now_desc(emu, asid, cmd, code, fault_addr);
}

u32 ascend_emu_copy_cmd(struct ascend_emu *emu, u32 asid,
			struct ascend_cp_group *grp,
			const struct ascend_cmd *cmd, const bool *abort,
			u64 *fault_addr)
{
	struct ascend_dma_desc one;
	struct ascend_emu_copy c = {
		.emu = emu,
		.mmu = { .asid = asid },
		.grp = grp,
		.abort = abort,
		.descs = &one,
		.cap = 1,
		.fault_addr = fault_addr,
	};
	unsigned int cap;
	u32 code;

	switch (cmd->opcode) {
	case ASCEND_CMD_COPY_INDIRECT:
	case ASCEND_CMD_COPY_OFFSET:
		return ascend_emu_copy_late(&c, cmd);
	case ASCEND_CMD_COPY:
		/* a copy of one step needs no descriptor buffer */
		if (cmd->copy.size <= ASCEND_DMA_STEP)
			return ascend_emu_copy_copy(&c, &cmd->copy);
		break;
	case ASCEND_CMD_FILL:
		if (cmd->fill.size <= ASCEND_DMA_STEP)
			return ascend_emu_copy_fill(&c, &cmd->fill);
		break;
	case ASCEND_CMD_REDUCE:
		if (cmd->reduce.size <= ASCEND_DMA_STEP)
			return ascend_emu_copy_reduce(&c, &cmd->reduce);
		break;
	}

	/*
	 * A batch's job holds up to a descriptor per entry, and at least the
	 * steps of one pass (what one entry may need): sized by the count,
	 * a batch of a few entries allocates no 100 KiB buffer (vmalloc and
	 * vfree were most of its cost).
	 */
	cap = max_t(unsigned int, ascend_emu_dma_engines(emu),
		    ASCEND_EMU_COPY_PASS / ASCEND_DMA_STEP);
	if (cmd->opcode == ASCEND_CMD_COPY_BATCH)
		cap = clamp_t(u32, cmd->copy_batch.count, cap,
			      ASCEND_EMU_BATCH_DESCS);
	c.descs = kvmalloc_array(cap, sizeof(*c.descs), GFP_KERNEL);
	if (!c.descs)
		return ASCEND_FAULT_DMA;
	c.cap = cap;
	switch (cmd->opcode) {
	case ASCEND_CMD_COPY:
		code = ascend_emu_copy_copy(&c, &cmd->copy);
		break;
	case ASCEND_CMD_FILL:
		code = ascend_emu_copy_fill(&c, &cmd->fill);
		break;
	case ASCEND_CMD_COPY_2D:
		code = ascend_emu_copy_2d(&c, &cmd->copy_2d);
		break;
	case ASCEND_CMD_COPY_BATCH:
		code = ascend_emu_copy_batch(&c, &cmd->copy_batch);
		break;
	case ASCEND_CMD_REDUCE:
		code = ascend_emu_copy_reduce(&c, &cmd->reduce);
		break;
	default:
		code = ASCEND_FAULT_BAD_COMMAND;
		break;
	}
	kvfree(c.descs);
	return code;
}
