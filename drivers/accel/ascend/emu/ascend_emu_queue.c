// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the device's side of a queue context (ascend_hw.h,
 * "Queues").  At queue_start the device reads the page list once and keeps
 * CPU addresses of the area's pages and of the report, the way a device
 * caches a context; from then on it reads only wptr, the commands and the
 * printf tail of the area, and writes its own state into the report (which
 * the driver trusts) and a mirror of it into the status page (which user
 * space reads).  Notifications go out through the event notification area
 * (ascend_emu_event.c).
 */

#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ascend_emu.h"

struct ascend_emu_queue *ascend_emu_queue_new(struct ascend_emu *emu, u32 qid,
					      const struct ascend_hw_queue_ctx *ctx)
{
	u64 ring_end, printf_end, area;
	struct ascend_emu_queue *q;
	__le64 bus;
	u32 i;

	if (qid >= ASCEND_HW_QUEUES || !ctx->nr_pages ||
	    ctx->nr_pages > SZ_64M / PAGE_SIZE ||
	    !is_power_of_2(ctx->ring_entries) ||
	    !is_power_of_2(ctx->printf_size) ||
	    !IS_ALIGNED(ctx->ring_offset, PAGE_SIZE) ||
	    ctx->printf_offset < sizeof(struct ascend_queue_status) ||
	    (ctx->flags & ~ASCEND_HW_QUEUE_LIMITED))
		return ERR_PTR(-EINVAL);
	area = (u64)ctx->nr_pages * PAGE_SIZE;
	ring_end = ctx->ring_offset + (u64)ctx->ring_entries * ASCEND_CMD_SIZE;
	printf_end = (u64)ctx->printf_offset + ctx->printf_size;
	if (ring_end > area || printf_end > ctx->ring_offset)
		return ERR_PTR(-EINVAL);

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return ERR_PTR(-ENOMEM);
	q->page_va = kcalloc(ctx->nr_pages, sizeof(*q->page_va), GFP_KERNEL);
	if (!q->page_va) {
		kfree(q);
		return ERR_PTR(-ENOMEM);
	}
	q->emu = emu;
	q->qid = qid;
	q->ctx = *ctx;
	for (i = 0; i < ctx->nr_pages; i++) {
		void *p = ascend_emu_sys_ptr(emu, ctx->pages + i * sizeof(bus));

		if (!p)
			goto bad;
		memcpy(&bus, p, sizeof(bus));
		q->page_va[i] = ascend_emu_sys_ptr(emu, le64_to_cpu(bus));
		if (!q->page_va[i] || offset_in_page(le64_to_cpu(bus)))
			goto bad;
		/* the list may cross a page: resolve each entry on its own */
	}
	q->report = ascend_emu_sys_ptr(emu, ctx->report);
	if (!q->report || offset_in_page(ctx->report) >
	    PAGE_SIZE - sizeof(*q->report))
		goto bad;
	q->status = q->page_va[0];
	q->rptr = ctx->start;
	q->completed = ctx->start;
	q->printf_head = ctx->printf_head;
	q->printf_dropped = ctx->printf_dropped;
	spin_lock_init(&q->printf_lock);
	INIT_LIST_HEAD(&q->cp_link);
	return q;

bad:
	ascend_emu_queue_free(q);
	return ERR_PTR(-EINVAL);
}

void ascend_emu_queue_free(struct ascend_emu_queue *q)
{
	kfree(q->page_va);
	kfree(q);
}

void ascend_emu_queue_notify(struct ascend_emu_queue *q)
{
	struct ascend_emu *emu = q->emu;
	u64 area = READ_ONCE(emu->event_notify);
	unsigned long *word;

	if (!area)
		return;
	word = ascend_emu_sys_ptr(emu, area + (ASCEND_HW_NOTIFY_QUEUE_WORD +
					       q->qid / 64) * sizeof(u64));
	if (!word)
		return;
	/* little-endian words: bit n of the word is bit n of the long */
	set_bit(q->qid % 64, word);
	ascend_emu_raise_irq(emu);
}

void ascend_emu_queue_fault(struct ascend_emu_queue *q, u32 fault, u64 seq,
			    u64 addr, u32 opcode)
{
	struct ascend_hw_queue_report *r = q->report;

	if (READ_ONCE(q->faulted))
		return;
	WRITE_ONCE(q->faulted, true);
	WRITE_ONCE(r->fault_seq, cpu_to_le64(seq));
	WRITE_ONCE(r->fault_addr, cpu_to_le64(addr));
	WRITE_ONCE(r->fault_opcode, cpu_to_le32(opcode));
	/* release: the record is seen with the code that announces it */
	smp_store_release(&r->fault, cpu_to_le32(fault));
	/* a fault is always told: nobody may be waiting, yet it must show */
	WRITE_ONCE(r->irq_armed, 0);
	ascend_emu_queue_notify(q);
}

void ascend_emu_queue_busy(struct ascend_emu_queue *q, bool busy)
{
	WRITE_ONCE(q->report->busy, cpu_to_le32(busy));
	if (!busy)
		ascend_emu_queue_changed(q);
}

void ascend_emu_queue_need_wakeup(struct ascend_emu_queue *q, bool on)
{
	u32 *flags = &q->status->flags;
	u32 old = READ_ONCE(*flags), new;

	/* the driver writes FAULTED in the same word: change only ours */
	do {
		new = on ? old | ASCEND_QUEUE_STATUS_NEED_WAKEUP :
			   old & ~ASCEND_QUEUE_STATUS_NEED_WAKEUP;
		if (new == old)
			return;
	} while (!try_cmpxchg(flags, &old, new));
}

void ascend_emu_queue_area_write(struct ascend_emu_queue *q, u64 off,
				 const void *buf, size_t len)
{
	while (len) {
		size_t n = min_t(size_t, len, PAGE_SIZE - offset_in_page(off));

		memcpy(q->page_va[off >> PAGE_SHIFT] + offset_in_page(off), buf,
		       n);
		off += n;
		buf += n;
		len -= n;
	}
}
