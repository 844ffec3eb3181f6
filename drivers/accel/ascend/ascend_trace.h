/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of the Ascend accel driver: TRACE_SYSTEM "ascend", under
 * /sys/kernel/tracing/events/ascend/ (trace-cmd record -e ascend,
 * perf record -e 'ascend:*'; Documentation/tracing.rst).  The events of
 * the emulated device's own work are in ascend_emu_trace.h, in the same
 * system.
 *
 * Every event carries @dev, the device index, and most carry @pid, the
 * process (thread group id) the work belongs to: the caller of the ioctl,
 * or the owner of the queue for work the device side does.  Queues are
 * named by their handle in the owner's file.
 *
 * ascend_trace.c defines the events (CREATE_TRACE_POINTS).  The KUnit
 * module compiles driver sources with NOTRACE, which turns every
 * trace_ascend_*() into an empty inline.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ascend

#if !defined(__ASCEND_TRACE_H__) || defined(TRACE_HEADER_MULTI_READ)
#define __ASCEND_TRACE_H__

#include <linux/tracepoint.h>
#include <linux/types.h>

#include "ascend_accel.h"

/* Kinds of copy work in ascend_copy_submit and ascend_copy_done. */
#define ASCEND_TRACE_COPY		0	/* DRM_IOCTL_ASCEND_COPY */
#define ASCEND_TRACE_FILL		1	/* DRM_IOCTL_ASCEND_FILL */
#define ASCEND_TRACE_COPY_BATCH		2	/* DRM_IOCTL_ASCEND_COPY_BATCH */
#define ASCEND_TRACE_COPY_2D		3	/* DRM_IOCTL_ASCEND_COPY_2D */

#define ascend_show_copy_kind(kind)					\
	__print_symbolic(kind,						\
			 { ASCEND_TRACE_COPY, "copy" },			\
			 { ASCEND_TRACE_FILL, "fill" },			\
			 { ASCEND_TRACE_COPY_BATCH, "copy_batch" },	\
			 { ASCEND_TRACE_COPY_2D, "copy_2d" })

#define ascend_show_fault(code)						\
	__print_symbolic(code,						\
			 { ASCEND_FAULT_NONE, "none" },			\
			 { ASCEND_FAULT_BAD_COMMAND, "bad_command" },	\
			 { ASCEND_FAULT_MMU, "mmu" },			\
			 { ASCEND_FAULT_KERNEL, "kernel" },		\
			 { ASCEND_FAULT_DMA, "dma" },			\
			 { ASCEND_FAULT_RING, "ring" },			\
			 { ASCEND_FAULT_ABORTED, "aborted" },		\
			 { ASCEND_FAULT_TIMEOUT, "timeout" })

/* --- allocation -------------------------------------------------------- */

DECLARE_EVENT_CLASS(ascend_bo,
		    TP_PROTO(u32 dev, pid_t pid, u64 va, u64 size,
			     u64 page_size),
		    TP_ARGS(dev, pid, va, size, page_size),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(pid_t, pid)
				     __field(u64, va)
				     __field(u64, size)
				     __field(u64, page_size)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->pid = pid;
				   __entry->va = va;
				   __entry->size = size;
				   __entry->page_size = page_size;),
		    TP_printk("dev=%u pid=%d va=0x%llx size=%llu page_size=%llu",
			      __entry->dev, __entry->pid, __entry->va,
			      __entry->size, __entry->page_size)
);

/* BO_CREATE succeeded: @size bytes of HBM at device VA @va */
DEFINE_EVENT(ascend_bo, ascend_bo_create,
	     TP_PROTO(u32 dev, pid_t pid, u64 va, u64 size, u64 page_size),
	     TP_ARGS(dev, pid, va, size, page_size)
);

/* the last handle of a BO went (its HBM retires once queues pass) */
DEFINE_EVENT(ascend_bo, ascend_bo_free,
	     TP_PROTO(u32 dev, pid_t pid, u64 va, u64 size, u64 page_size),
	     TP_ARGS(dev, pid, va, size, page_size)
);

DECLARE_EVENT_CLASS(ascend_host_mem,
		    TP_PROTO(u32 dev, pid_t pid, u64 addr, u64 size,
			     bool registered, bool readonly),
		    TP_ARGS(dev, pid, addr, size, registered, readonly),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(pid_t, pid)
				     __field(u64, addr)
				     __field(u64, size)
				     __field(bool, registered)
				     __field(bool, readonly)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->pid = pid;
				   __entry->addr = addr;
				   __entry->size = size;
				   __entry->registered = registered;
				   __entry->readonly = readonly;),
		    TP_printk("dev=%u pid=%d addr=0x%llx size=%llu kind=%s%s",
			      __entry->dev, __entry->pid, __entry->addr,
			      __entry->size,
			      __entry->registered ? "host_register" : "host_alloc",
			      __entry->readonly ? " ro" : "")
);

/* HOST_ALLOC: pinned pages for user space to mmap (@addr: 0) */
DEFINE_EVENT(ascend_host_mem, ascend_host_alloc,
	     TP_PROTO(u32 dev, pid_t pid, u64 addr, u64 size, bool registered,
		      bool readonly),
	     TP_ARGS(dev, pid, addr, size, registered, readonly)
);

/* HOST_REGISTER: user memory at @addr pinned and mapped for the device */
DEFINE_EVENT(ascend_host_mem, ascend_host_register,
	     TP_PROTO(u32 dev, pid_t pid, u64 addr, u64 size, bool registered,
		      bool readonly),
	     TP_ARGS(dev, pid, addr, size, registered, readonly)
);

/* the last handle of host memory of either kind went */
DEFINE_EVENT(ascend_host_mem, ascend_host_unregister,
	     TP_PROTO(u32 dev, pid_t pid, u64 addr, u64 size, bool registered,
		      bool readonly),
	     TP_ARGS(dev, pid, addr, size, registered, readonly)
);

/* --- pinning ----------------------------------------------------------- */

DECLARE_EVENT_CLASS(ascend_pin_class,
		    TP_PROTO(u32 dev, pid_t pid, u64 addr, u64 pages,
			     bool longterm),
		    TP_ARGS(dev, pid, addr, pages, longterm),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(pid_t, pid)
				     __field(u64, addr)
				     __field(u64, pages)
				     __field(bool, longterm)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->pid = pid;
				   __entry->addr = addr;
				   __entry->pages = pages;
				   __entry->longterm = longterm;),
		    TP_printk("dev=%u pid=%d addr=0x%llx pages=%llu %s",
			      __entry->dev, __entry->pid, __entry->addr,
			      __entry->pages,
			      __entry->longterm ? "long-term" : "short-term")
);

/* user pages pinned: long-term by HOST_REGISTER, short-term for a copy */
DEFINE_EVENT(ascend_pin_class, ascend_pin,
	     TP_PROTO(u32 dev, pid_t pid, u64 addr, u64 pages, bool longterm),
	     TP_ARGS(dev, pid, addr, pages, longterm)
);

DEFINE_EVENT(ascend_pin_class, ascend_unpin,
	     TP_PROTO(u32 dev, pid_t pid, u64 addr, u64 pages, bool longterm),
	     TP_ARGS(dev, pid, addr, pages, longterm)
);

/* --- copies ------------------------------------------------------------ */

/*
 * A copy request of an ioctl (the caller's pid; ring copies are the
 * device's, ascend_emu_trace.h).  @kind: ASCEND_TRACE_*; @opcode: 0;
 * @bytes: bytes to write (0: not known yet, batches); @count: batch
 * entries, 2D rows, else 1; @engines: DMA engines the work may be spread
 * over.
 */
TRACE_EVENT(ascend_copy_submit,
	    TP_PROTO(u32 dev, pid_t pid, u32 kind, u32 opcode, u64 bytes,
		     u32 count, u32 engines),
	    TP_ARGS(dev, pid, kind, opcode, bytes, count, engines),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, pid)
			     __field(u32, kind)
			     __field(u32, opcode)
			     __field(u64, bytes)
			     __field(u32, count)
			     __field(u32, engines)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->pid = pid;
			   __entry->kind = kind;
			   __entry->opcode = opcode;
			   __entry->bytes = bytes;
			   __entry->count = count;
			   __entry->engines = engines;),
	    TP_printk("dev=%u pid=%d kind=%s opcode=%u bytes=%llu count=%u engines=%u",
		      __entry->dev, __entry->pid,
		      ascend_show_copy_kind(__entry->kind), __entry->opcode,
		      __entry->bytes, __entry->count, __entry->engines)
);

/* the request finished: @status is 0 or a negative errno */
TRACE_EVENT(ascend_copy_done,
	    TP_PROTO(u32 dev, pid_t pid, u32 kind, u32 opcode, u64 bytes,
		     u32 count, int status),
	    TP_ARGS(dev, pid, kind, opcode, bytes, count, status),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, pid)
			     __field(u32, kind)
			     __field(u32, opcode)
			     __field(u64, bytes)
			     __field(u32, count)
			     __field(int, status)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->pid = pid;
			   __entry->kind = kind;
			   __entry->opcode = opcode;
			   __entry->bytes = bytes;
			   __entry->count = count;
			   __entry->status = status;),
	    TP_printk("dev=%u pid=%d kind=%s opcode=%u bytes=%llu count=%u status=%d",
		      __entry->dev, __entry->pid,
		      ascend_show_copy_kind(__entry->kind), __entry->opcode,
		      __entry->bytes, __entry->count, __entry->status)
);

/*
 * One DMA job of a copy request: @descs descriptors moving @bytes
 * bytes, spread over the rings of @engines engines; @status of the
 * completed job (0 at submission).
 */
DECLARE_EVENT_CLASS(ascend_dma_job,
		    TP_PROTO(u32 dev, u32 descs, u64 bytes, u32 engines,
			     int status),
		    TP_ARGS(dev, descs, bytes, engines, status),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(u32, descs)
				     __field(u64, bytes)
				     __field(u32, engines)
				     __field(int, status)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->descs = descs;
				   __entry->bytes = bytes;
				   __entry->engines = engines;
				   __entry->status = status;),
		    TP_printk("dev=%u descs=%u bytes=%llu engines=%u status=%d",
			      __entry->dev, __entry->descs, __entry->bytes,
			      __entry->engines, __entry->status)
);

DEFINE_EVENT(ascend_dma_job, ascend_dma_submit,
	     TP_PROTO(u32 dev, u32 descs, u64 bytes, u32 engines, int status),
	     TP_ARGS(dev, descs, bytes, engines, status)
);

DEFINE_EVENT(ascend_dma_job, ascend_dma_done,
	     TP_PROTO(u32 dev, u32 descs, u64 bytes, u32 engines, int status),
	     TP_ARGS(dev, descs, bytes, engines, status)
);

/* --- queues ------------------------------------------------------------ */

DECLARE_EVENT_CLASS(ascend_queue_class,
		    TP_PROTO(u32 dev, pid_t pid, u32 queue, u64 wptr, u64 rptr,
			     u64 completed),
		    TP_ARGS(dev, pid, queue, wptr, rptr, completed),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(pid_t, pid)
				     __field(u32, queue)
				     __field(u64, wptr)
				     __field(u64, rptr)
				     __field(u64, completed)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->pid = pid;
				   __entry->queue = queue;
				   __entry->wptr = wptr;
				   __entry->rptr = rptr;
				   __entry->completed = completed;),
		    TP_printk("dev=%u pid=%d queue=%u wptr=%llu rptr=%llu completed=%llu",
			      __entry->dev, __entry->pid, __entry->queue,
			      __entry->wptr, __entry->rptr, __entry->completed)
);

/* QUEUE_CREATE (@wptr: the ring entries) */
DEFINE_EVENT(ascend_queue_class, ascend_queue_create,
	     TP_PROTO(u32 dev, pid_t pid, u32 queue, u64 wptr, u64 rptr,
		      u64 completed),
	     TP_ARGS(dev, pid, queue, wptr, rptr, completed)
);

/* the queue stopped for good (destroy, or its file closed) */
DEFINE_EVENT(ascend_queue_class, ascend_queue_destroy,
	     TP_PROTO(u32 dev, pid_t pid, u32 queue, u64 wptr, u64 rptr,
		      u64 completed),
	     TP_ARGS(dev, pid, queue, wptr, rptr, completed)
);

/* QUEUE_DOORBELL; @wptr is the user's, as read (unchecked) */
DEFINE_EVENT(ascend_queue_class, ascend_queue_doorbell,
	     TP_PROTO(u32 dev, pid_t pid, u32 queue, u64 wptr, u64 rptr,
		      u64 completed),
	     TP_ARGS(dev, pid, queue, wptr, rptr, completed)
);

/* QUEUE_RESET: what was published is discarded up to @completed */
DEFINE_EVENT(ascend_queue_class, ascend_queue_reset,
	     TP_PROTO(u32 dev, pid_t pid, u32 queue, u64 wptr, u64 rptr,
		      u64 completed),
	     TP_ARGS(dev, pid, queue, wptr, rptr, completed)
);

/* --- faults ------------------------------------------------------------ */

/* the first fault of a queue: later ones are not recorded */
TRACE_EVENT(ascend_queue_fault,
	    TP_PROTO(u32 dev, pid_t pid, u32 queue, u32 code, u64 seq, u64 addr,
		     u32 opcode),
	    TP_ARGS(dev, pid, queue, code, seq, addr, opcode),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, pid)
			     __field(u32, queue)
			     __field(u32, code)
			     __field(u64, seq)
			     __field(u64, addr)
			     __field(u32, opcode)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->pid = pid;
			   __entry->queue = queue;
			   __entry->code = code;
			   __entry->seq = seq;
			   __entry->addr = addr;
			   __entry->opcode = opcode;),
	    TP_printk("dev=%u pid=%d queue=%u code=%s seq=%llu addr=0x%llx opcode=%u",
		      __entry->dev, __entry->pid, __entry->queue,
		      ascend_show_fault(__entry->code), __entry->seq,
		      __entry->addr, __entry->opcode)
);

#endif /* __ASCEND_TRACE_H__ */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ascend_trace
#include <trace/define_trace.h>
