/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of the emulated NPU's own work -- the command processor and
 * the AI cores -- in the driver's TRACE_SYSTEM "ascend" (the same
 * directory of tracefs, Documentation/tracing.rst).  @dev is the device
 * index; @pid and @queue are the labels the driver put in the queue's
 * context (the creating process, the queue's handle): the device gives
 * them no meaning.
 *
 * ascend_emu_trace.c defines the events (CREATE_TRACE_POINTS).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ascend

#if !defined(__ASCEND_EMU_TRACE_H__) || defined(TRACE_HEADER_MULTI_READ)
#define __ASCEND_EMU_TRACE_H__

#include <linux/tracepoint.h>
#include <linux/types.h>

#include "ascend_hw.h"

#define ascend_emu_show_fault(code)					\
	__print_symbolic(code,						\
			 { ASCEND_FAULT_NONE, "none" },			\
			 { ASCEND_FAULT_BAD_COMMAND, "bad_command" },	\
			 { ASCEND_FAULT_MMU, "mmu" },			\
			 { ASCEND_FAULT_KERNEL, "kernel" },		\
			 { ASCEND_FAULT_DMA, "dma" },			\
			 { ASCEND_FAULT_RING, "ring" },			\
			 { ASCEND_FAULT_ABORTED, "aborted" },		\
			 { ASCEND_FAULT_TIMEOUT, "timeout" })

/* --- queues ------------------------------------------------------------ */

/* command number @seq of a queue completed */
TRACE_EVENT(ascend_cmd_complete,
	    TP_PROTO(u32 dev, u32 queue, u64 seq),
	    TP_ARGS(dev, queue, seq),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, queue)
			     __field(u64, seq)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->queue = queue;
			   __entry->seq = seq;),
	    TP_printk("dev=%u queue=%u seq=%llu", __entry->dev, __entry->queue,
		      __entry->seq)
);

/*
 * The command processor goes to sleep with NEED_WAKEUP set on every idle
 * queue (@timeout_us: 0 = until a doorbell, else how long it sleeps
 * while commands are stalled or running) and wakes up again.
 */
DECLARE_EVENT_CLASS(ascend_cp_class,
		    TP_PROTO(u32 dev, u32 timeout_us),
		    TP_ARGS(dev, timeout_us),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(u32, timeout_us)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->timeout_us = timeout_us;),
		    TP_printk("dev=%u timeout_us=%u", __entry->dev,
			      __entry->timeout_us)
);

DEFINE_EVENT(ascend_cp_class, ascend_cp_sleep,
	     TP_PROTO(u32 dev, u32 timeout_us),
	     TP_ARGS(dev, timeout_us)
);

DEFINE_EVENT(ascend_cp_class, ascend_cp_wake,
	     TP_PROTO(u32 dev, u32 timeout_us),
	     TP_ARGS(dev, timeout_us)
);

/* --- ring copies ------------------------------------------------------ */

/*
 * A ring copy command (@opcode: COPY, FILL, COPY_2D, ...) goes to the
 * device's engines (@engines of them), and finishes (@status 0 or -EIO).
 */
TRACE_EVENT(ascend_ring_copy_submit,
	    TP_PROTO(u32 dev, pid_t pid, u32 queue, u32 opcode, u32 engines),
	    TP_ARGS(dev, pid, queue, opcode, engines),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, pid)
			     __field(u32, queue)
			     __field(u32, opcode)
			     __field(u32, engines)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->pid = pid;
			   __entry->queue = queue;
			   __entry->opcode = opcode;
			   __entry->engines = engines;),
	    TP_printk("dev=%u pid=%d queue=%u opcode=%u engines=%u",
		      __entry->dev, __entry->pid, __entry->queue,
		      __entry->opcode, __entry->engines)
);

TRACE_EVENT(ascend_ring_copy_done,
	    TP_PROTO(u32 dev, pid_t pid, u32 queue, u32 opcode, int status),
	    TP_ARGS(dev, pid, queue, opcode, status),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, pid)
			     __field(u32, queue)
			     __field(u32, opcode)
			     __field(int, status)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->pid = pid;
			   __entry->queue = queue;
			   __entry->opcode = opcode;
			   __entry->status = status;),
	    TP_printk("dev=%u pid=%d queue=%u opcode=%u status=%d",
		      __entry->dev, __entry->pid, __entry->queue,
		      __entry->opcode, __entry->status)
);

/* --- kernel launches --------------------------------------------------- */

/* a LAUNCH command is handed to the AI cores */
TRACE_EVENT(ascend_launch,
	    TP_PROTO(u32 dev, pid_t pid, u32 queue, u64 seq, u32 kernel_id,
		     u32 blocks),
	    TP_ARGS(dev, pid, queue, seq, kernel_id, blocks),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, pid)
			     __field(u32, queue)
			     __field(u64, seq)
			     __field(u32, kernel_id)
			     __field(u32, blocks)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->pid = pid;
			   __entry->queue = queue;
			   __entry->seq = seq;
			   __entry->kernel_id = kernel_id;
			   __entry->blocks = blocks;),
	    TP_printk("dev=%u pid=%d queue=%u seq=%llu kernel=%u blocks=%u",
		      __entry->dev, __entry->pid, __entry->queue, __entry->seq,
		      __entry->kernel_id, __entry->blocks)
);

/* the launch finished: @fault is ASCEND_FAULT_* (none: it completed) */
TRACE_EVENT(ascend_launch_done,
	    TP_PROTO(u32 dev, u32 queue, u64 seq, u32 fault),
	    TP_ARGS(dev, queue, seq, fault),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, queue)
			     __field(u64, seq)
			     __field(u32, fault)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->queue = queue;
			   __entry->seq = seq;
			   __entry->fault = fault;),
	    TP_printk("dev=%u queue=%u seq=%llu fault=%s", __entry->dev,
		      __entry->queue, __entry->seq,
		      ascend_emu_show_fault(__entry->fault))
);

#endif /* __ASCEND_EMU_TRACE_H__ */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ascend_emu_trace
#include <trace/define_trace.h>
