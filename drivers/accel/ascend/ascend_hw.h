/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware interface: the operations a chip backend provides.
 *
 * Everything above this interface is driver code that would run unchanged
 * against silicon; the emulated NPU (emu/) is one backend, which includes
 * nothing of the driver but this interface.  Keep it
 * small: HBM aperture access, DMA engines, the command processor that runs
 * queues, and the device's built-in kernel table.
 *
 * Addresses crossing this interface are device-physical: HBM offsets for
 * the aperture and the DMA engines, or bus addresses of host memory (what
 * the DMA-mapping API returned for pinned host pages), tagged with their
 * address space (%ASCEND_AS_HBM / %ASCEND_AS_SYS), or device virtual
 * addresses (%ASCEND_AS_VA) that the device translates itself through the
 * page tables the driver wrote for the address space (ASID) of the job or
 * queue: see "The device MMU" below.
 *
 * ascend_hw_rules.h, included here, holds the rules of the copy formats the
 * device executes (shared with the driver's checks); the ring's command
 * layout is the uAPI's (ascend_accel.h, included here too).  A backend
 * includes this header and nothing else of the driver.
 */
#ifndef __ASCEND_HW_H__
#define __ASCEND_HW_H__

#include <asm/byteorder.h>
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include "ascend_accel.h"
/* the rules of the copy formats the device executes: part of the interface */
#include "ascend_hw_rules.h"

struct ascend_hw_ops;
struct drm_ascend_kernel_info;

/**
 * struct ascend_hw_device - the handle of one device's hardware interface
 * @ops: what the device implements; every op takes this handle
 *
 * A backend embeds it in its own state and finds that state from it
 * (container_of); the driver sees nothing but the handle.  The bus that
 * created the device owns it: it lives from before the device is added
 * until after the device is gone (its remove has returned).
 */
struct ascend_hw_device {
	const struct ascend_hw_ops *ops;
};

/* &ascend_dma_desc.kind; zero is a linear copy so old users need no change */
#define ASCEND_DMA_LINEAR	0	/* copy @len bytes from @src to @dst */
#define ASCEND_DMA_FILL		1	/* repeat @pattern over @len bytes at @dst */
#define ASCEND_DMA_2D		2	/* strided copy, rows */
#define ASCEND_DMA_INDIRECT	3	/* memcpy descriptor read at execution */
#define ASCEND_DMA_OFFSET	4	/* base pointers read at execution */
#define ASCEND_DMA_REDUCE	5	/* dst = op(dst, src) element-wise, VAs */

/*
 * %ASCEND_DMA_2D: @height rows of @len bytes, row r from @src + r * @spitch
 * to @dst + r * @dpitch.  %ASCEND_DMA_INDIRECT: read a struct
 * ascend_memcpy_desc at VA @src and perform it.  %ASCEND_DMA_OFFSET: read
 * the 64-bit bases in the slots at VAs @dst and @src, copy @len bytes from
 * src base + @src_off to dst base + @dst_off.  %ASCEND_DMA_REDUCE: for the
 * @len bytes at VAs @dst and @src (both %ASCEND_AS_VA, aligned to the
 * element size, @len a multiple of it), dst[i] = @red_op(dst[i], src[i])
 * with the element type @red_type (ASCEND_REDUCE_* of the uAPI).
 */

/* Address spaces of a device-physical address; zero is HBM. */
#define ASCEND_AS_HBM		0	/* device memory: an HBM offset */
#define ASCEND_AS_SYS		1	/* host memory: a DMA (bus) address */
#define ASCEND_AS_VA		2	/* a device VA: see below */
/*
 * HBM of another device N (peer access): an HBM offset on device N, the
 * address space ASCEND_AS_PEER_HBM + N.  The engines reach it through that
 * device's backend; the driver produces it only for a range of a peer the
 * issuing file has a link to (ascend_peer.c), with the peer's address
 * space lock held across the job.
 */
#define ASCEND_AS_PEER_HBM	0x100
#define ASCEND_AS_PEER_MAX	256	/* devices an address space can name */
#define ASCEND_AS_PEER(dev)	(ASCEND_AS_PEER_HBM + (dev))

static inline bool ascend_as_is_peer(u32 as)
{
	return as >= ASCEND_AS_PEER_HBM &&
	       as - ASCEND_AS_PEER_HBM < ASCEND_AS_PEER_MAX;
}

/* The device index of a peer address space. */
static inline unsigned int ascend_as_peer_dev(u32 as)
{
	return as - ASCEND_AS_PEER_HBM;
}

/*
 * %ASCEND_AS_VA addresses are translated by the engine when the descriptor
 * executes, through the device MMU context &ascend_dma_job.mmu names.
 */

/*
 * Descriptors in each engine's hardware ring (a power of two).  A job may
 * hold any number of descriptors: the driver side feeds the rings as the
 * engines free slots.
 */
#define ASCEND_DMA_RING_SIZE	64

/**
 * struct ascend_dma_desc - one DMA transfer
 * @dst: device-physical destination address, in address space @dst_as
 * @src: device-physical source address, in address space @src_as
 *	(%ASCEND_DMA_LINEAR only)
 * @len: bytes to write at @dst
 * @kind: %ASCEND_DMA_LINEAR, %ASCEND_DMA_FILL, %ASCEND_DMA_2D,
 *	%ASCEND_DMA_INDIRECT, %ASCEND_DMA_OFFSET or %ASCEND_DMA_REDUCE
 * @pattern_size: %ASCEND_DMA_FILL: 1, 2 or 4 (@len need not be a multiple)
 * @pattern: %ASCEND_DMA_FILL: the low @pattern_size bytes (little endian)
 *	are repeated, starting with byte 0 of the pattern at @dst
 * @dst_as: %ASCEND_AS_HBM, %ASCEND_AS_SYS, %ASCEND_AS_VA or
 *	ASCEND_AS_PEER(device index) (a fill too)
 * @src_as: likewise (%ASCEND_DMA_LINEAR and %ASCEND_DMA_2D only)
 * @dpitch: %ASCEND_DMA_2D: bytes between destination rows, >= @len
 * @spitch: %ASCEND_DMA_2D: bytes between source rows, >= @len
 * @height: %ASCEND_DMA_2D: rows, > 0
 * @dst_off: %ASCEND_DMA_OFFSET: added to the destination base read
 * @src_off: %ASCEND_DMA_OFFSET: added to the source base read
 * @red_op: %ASCEND_DMA_REDUCE: ASCEND_REDUCE_SUM, _MAX or _MIN
 * @red_type: %ASCEND_DMA_REDUCE: ASCEND_REDUCE_INT8 ... _BF16
 *
 * A %ASCEND_AS_SYS range is host memory the driver pinned and mapped for
 * the device with the DMA-mapping API; it stays so until the job completed.
 * %ASCEND_DMA_INDIRECT and %ASCEND_DMA_OFFSET read device memory by VA at
 * execution time, and what they read names VAs: they need a job with @mmu.
 * Their @dst/@src are VAs (the slots, the descriptor).
 */
struct ascend_dma_desc {
	u64 dst;
	u64 src;
	u64 len;
	u32 kind;
	u32 pattern_size;
	u64 pattern;
	u32 dst_as;
	u32 src_as;
	u64 dpitch;
	u64 spitch;
	u64 height;
	u64 dst_off;
	u64 src_off;
	u32 red_op;
	u32 red_type;
};

/**
 * struct ascend_dma_span - a contiguous device-physical piece
 * @addr: device-physical address in @as (%ASCEND_AS_HBM, %ASCEND_AS_SYS or
 *	a peer's HBM, ASCEND_AS_PEER(device index))
 * @len: contiguous bytes from @addr
 * @as: address space
 */
struct ascend_dma_span {
	u64 addr;
	u64 len;
	u32 as;
};

/* ------------------------------------------------------------------------ */
/*
 * The device MMU (SMMU): page tables the driver writes into device memory,
 * one tree per address space (ASID), walked by the device.  The datasheet
 * is Documentation/hardware.rst, section "Device MMU"; in short:
 *
 * A 48-bit device VA is translated by a 4-level radix tree of 4 KiB table
 * pages of 512 little-endian 64-bit descriptors.  Level l (0..3) is indexed
 * by VA bits [ASCEND_MMU_SHIFT(l) + 8, ASCEND_MMU_SHIFT(l)]; a leaf at level
 * 1, 2 or 3 maps 1 GiB, 2 MiB or 4 KiB.  Level 0 holds table descriptors
 * only; level 3 holds leaves only.
 */
#define ASCEND_MMU_VA_BITS	48
#define ASCEND_MMU_LEVELS	4
#define ASCEND_MMU_ENTRIES	512
#define ASCEND_MMU_TABLE_SIZE	SZ_4K
#define ASCEND_MMU_SHIFT(l)	(39 - 9 * (l))	/* 39, 30, 21, 12 */

#define ASCEND_PTE_VALID	BIT_ULL(0)	/* the descriptor is in use */
#define ASCEND_PTE_TABLE	BIT_ULL(1)	/* points to a next-level table */
#define ASCEND_PTE_WRITE	BIT_ULL(2)	/* leaf: the device may write */
#define ASCEND_PTE_ADDR_MASK	GENMASK_ULL(51, 12)	/* output / table address */
#define ASCEND_PTE_AS_SHIFT	52
#define ASCEND_PTE_AS_MASK	GENMASK_ULL(61, 52)	/* leaf: ASCEND_AS_* */
/* bits 3..11, 62 and 63 are reserved: a descriptor with any set faults */
#define ASCEND_PTE_RSVD_MASK	(GENMASK_ULL(11, 3) | GENMASK_ULL(63, 62))

/*
 * Device memory: HBM at [0, hbm size), then the page-table memory, of
 * ascend_mmu_table_mem_size(hbm size) bytes, which starts with the event
 * memory (see "Event memory" below) and then holds the driver's table
 * pages (1/128 of the HBM, at least 16 MiB: mapping all of HBM with 4 KiB
 * leaves takes 1/512).  The HBM manager hands out only the HBM.
 */
static inline u64 ascend_mmu_table_mem_size(u64 hbm_size)
{
	return max_t(u64, SZ_16M, round_up(hbm_size / 128, SZ_4K));
}

/* The largest output address a descriptor can hold, plus one. */
#define ASCEND_PTE_ADDR_LIMIT	BIT_ULL(52)

/*
 * Event memory: the first ASCEND_HW_EVENT_MEM_SIZE bytes of the page-table
 * memory hold the device's event slots (the table pages follow them).
 * Slot 0 is never used.  Only the device writes a slot while it is in use:
 * EVENT_RECORD commands and the driver's event_signal() register write set
 * @gen to max(@gen, generation), and when that raised it and @flags has
 * %ASCEND_HW_EVENT_TIMESTAMP, @timestamp to the device clock (ns, the
 * emulated NPU's is ktime_get_ns()) first; then, if @irq_armed is set
 * (read after a full barrier), it clears it and sends a notification.  The
 * driver initialises a slot before it hands the slot out, reads it through
 * the aperture, and arms it (stores 1 to @irq_armed, then a full barrier,
 * then reads @gen) when a host thread is about to sleep on it.
 */
#define ASCEND_HW_EVENT_SLOTS		65536
#define ASCEND_HW_EVENT_TIMESTAMP	BIT(0)

struct ascend_hw_event_slot {
	__le64 gen;
	__le64 timestamp;
	__le32 flags;
	__le32 irq_armed;
	__le64 rsvd1;
};

#define ASCEND_HW_EVENT_MEM_SIZE \
	(ASCEND_HW_EVENT_SLOTS * sizeof(struct ascend_hw_event_slot))

/* Device address of event slot @slot on a device with @hbm_size of HBM. */
static inline u64 ascend_hw_event_slot_addr(u64 hbm_size, u32 slot)
{
	return hbm_size + (u64)slot * sizeof(struct ascend_hw_event_slot);
}

/*
 * Event tables: which slots the commands of a queue may name.  A ring
 * command names an event by the handle its file knows it by; the queue's
 * event table (a device address, see queue_start) maps the handle to a
 * slot.  The table is a directory page of ASCEND_HW_EVTAB_DIR_ENTRIES
 * little-endian 64-bit device addresses of leaf pages (0: none), each leaf
 * ASCEND_HW_EVTAB_LEAF_ENTRIES little-endian 32-bit slot numbers (0: no
 * event); handle h is entry h % LEAF_ENTRIES of leaf h / LEAF_ENTRIES.  A
 * handle without a slot faults the command (ASCEND_FAULT_BAD_COMMAND).
 *
 * An entry is a slot number of this device's event memory, or, with
 * %ASCEND_HW_EVTAB_REMOTE set, slot (entry & %ASCEND_HW_EVTAB_SLOT_MASK) of
 * the event memory of device ASCEND_HW_EVTAB_DEV(entry), reached through
 * that device's backend like a peer's HBM: a record there is that device's
 * record (its notification and interrupt, its parked queues re-check); a
 * wait re-checks the remote slot every round of the command processor.
 * An entry with a reserved bit set, or naming a device that is not up,
 * names no event.
 */
#define ASCEND_HW_EVTAB_DIR_ENTRIES	512
#define ASCEND_HW_EVTAB_LEAF_ENTRIES	1024
#define ASCEND_HW_EVTAB_HANDLES \
	(ASCEND_HW_EVTAB_DIR_ENTRIES * ASCEND_HW_EVTAB_LEAF_ENTRIES)
#define ASCEND_HW_EVTAB_SLOT_MASK	GENMASK(15, 0)
#define ASCEND_HW_EVTAB_DEV_MASK	GENMASK(23, 16)
#define ASCEND_HW_EVTAB_RSVD_MASK	GENMASK(30, 24)
#define ASCEND_HW_EVTAB_REMOTE		BIT(31)
#define ASCEND_HW_EVTAB_DEV(entry)	(((entry) & ASCEND_HW_EVTAB_DEV_MASK) >> 16)

/* The entry for @slot of device @dev's event memory (a remote one). */
static inline u32 ascend_hw_evtab_remote(u32 slot, u32 dev)
{
	return ASCEND_HW_EVTAB_REMOTE | (dev << 16 & ASCEND_HW_EVTAB_DEV_MASK) |
	       (slot & ASCEND_HW_EVTAB_SLOT_MASK);
}

/*
 * Interrupts.  The device has one interrupt line (the platform device's
 * IRQ resource 0) and raises it after it wrote a notification:
 *
 * Event notifications: after a slot's @gen changed while the slot was
 * armed (see "Event memory") the device sets bit
 * (slot % 64) of word (slot / 64) of the event pending bitmap, then bit
 * (slot / 64) % 64 of summary word (slot / 4096), with atomic ORs, in host
 * memory at the bus address set_event_notify() gave: ASCEND_HW_EVENT_SUMMARY
 * little-endian 64-bit summary words followed by ASCEND_HW_EVENT_SLOTS / 64
 * pending words.  The driver clears what it consumed with atomic
 * exchanges, summary word first.
 */
#define ASCEND_HW_EVENT_SUMMARY	(ASCEND_HW_EVENT_SLOTS / 64 / 64)

/*
 * Queue notifications: after it wrote a queue's report (below) with the
 * report's @irq_armed set, or a fault, the device sets bit (qid % 64) of
 * queue word (qid / 64), which follow the event pending words, and raises
 * the line.
 */
#define ASCEND_HW_QUEUES		8192	/* queue ids 0 .. 8191 */
#define ASCEND_HW_QUEUE_WORDS		(ASCEND_HW_QUEUES / 64)
#define ASCEND_HW_NOTIFY_QUEUE_WORD \
	(ASCEND_HW_EVENT_SUMMARY + ASCEND_HW_EVENT_SLOTS / 64)

/*
 * Page requests: for an ASID whose page requests are on
 * (mmu_page_requests()), a range that does not translate before an
 * access starts (no leaf, or a leaf without W for a write) is not a fault
 * at once.  The device writes a request (struct ascend_hw_page_request)
 * to a free one of ASCEND_HW_PRQ_SLOTS request slots, which follow the
 * page request word, sets bit (slot) of that word (it follows the queue
 * words) and raises the line, then waits for the driver's answer to the
 * slot (mmu_page_response()).  ASCEND_HW_PRQ_RETRY: translate again;
 * ASCEND_HW_PRQ_FAULT, no answer within ASCEND_HW_PRQ_TIMEOUT_MS, or more
 * than ASCEND_HW_PRQ_RETRIES requests for one access: the fault it would
 * have been.  The slot is free again once answered.
 */
#define ASCEND_HW_PRQ_SLOTS		64
#define ASCEND_HW_NOTIFY_PRQ_WORD \
	(ASCEND_HW_NOTIFY_QUEUE_WORD + ASCEND_HW_QUEUE_WORDS)
#define ASCEND_HW_NOTIFY_PRQ_SLOTS \
	((ASCEND_HW_NOTIFY_PRQ_WORD + 1) * sizeof(u64))
#define ASCEND_HW_PRQ_TIMEOUT_MS	2000
#define ASCEND_HW_PRQ_RETRIES		4
#define ASCEND_HW_PRQ_RETRY		0
#define ASCEND_HW_PRQ_FAULT		1

/* &ascend_hw_page_request.flags */
#define ASCEND_HW_PRQ_WRITE		BIT(0)	/* the access writes */

/**
 * struct ascend_hw_page_request - a page request slot (little endian)
 * @va: first VA of the range that did not translate
 * @asid: its address space
 * @flags: %ASCEND_HW_PRQ_WRITE or 0
 */
struct ascend_hw_page_request {
	__le64 va;
	__le32 asid;
	__le32 flags;
};

#define ASCEND_HW_EVENT_NOTIFY_SIZE \
	(ASCEND_HW_NOTIFY_PRQ_SLOTS + \
	 ASCEND_HW_PRQ_SLOTS * sizeof(struct ascend_hw_page_request))

/*
 * Queues.  A queue is a context the driver gives the command processor
 * with queue_start(): where its memory is, and where to report.  The
 * queue's area is host memory of whole 4 KiB pages that user space maps
 * too: the status page (struct ascend_queue_status) at offset 0, the
 * printf buffer and the command ring; the device reaches it through the
 * page list, ASCEND_AS_SYS bus addresses the driver mapped.  From the
 * area the device reads only wptr and the commands (each copied before it
 * is checked) and the printf tail; it writes rptr, completed, the printf
 * head and text, and the NEED_WAKEUP flag (atomically: the driver writes
 * the FAULTED flag and the fault fields of the same page).
 *
 * The report is host memory only the driver maps: the authoritative rptr,
 * completed count and first fault, written by the device.
 */

/**
 * struct ascend_hw_queue_ctx - a queue's context (queue_start)
 * @pages: bus address of the page list: @nr_pages little-endian 64-bit bus
 *	addresses of the area's pages, in order
 * @nr_pages: pages of the area
 * @ring_entries: ring slots (a power of two) of ASCEND_CMD_SIZE bytes
 * @ring_offset: the ring's offset in the area (page aligned)
 * @printf_offset: the printf buffer's offset in the area
 * @printf_size: its size (a power of two)
 * @asid: the address space the queue's commands name addresses in
 * @event_table: device address of the event table of its commands
 * @report: bus address of the queue's struct ascend_hw_queue_report
 * @start: commands fetched and completed before: the first command the
 *	device fetches is number @start + 1, in slot @start % @ring_entries
 * @printf_head: printf bytes produced before (the report's, carried over)
 * @printf_dropped: printf bytes dropped before
 * @trace_pid: a label the device puts in its trace records (the driver
 *	gives the creating process's pid); no meaning to the device
 * @trace_queue: likewise (the driver gives the queue's handle)
 * @sched_group: the scheduling group the queue's AI-core time is charged
 *	to: the AI cores are shared fairly between groups, queues of one
 *	group share one share (the driver gives the creator's uid; any 32-bit
 *	key, the device hashes it)
 * @flags: ASCEND_HW_QUEUE_LIMITED: the commands' own time limits are
 *	clamped to the register CMD_TIMEOUT (unprivileged callers)
 */
struct ascend_hw_queue_ctx {
	u64 pages;
	u32 nr_pages;
	u32 ring_entries;
	u32 ring_offset;
	u32 printf_offset;
	u32 printf_size;
	u32 asid;
	u64 event_table;
	u64 report;
	u64 start;
	u64 printf_head;
	u64 printf_dropped;
	u32 trace_pid;
	u32 trace_queue;
	u32 sched_group;
	u32 flags;
};

/* &ascend_hw_queue_ctx.flags: own time limits never exceed CMD_TIMEOUT */
#define ASCEND_HW_QUEUE_LIMITED		BIT(0)

/**
 * struct ascend_hw_queue_report - what the device reports of a queue
 * @rptr: commands fetched
 * @completed: commands completed, in order (release: the commands' side
 *	effects are visible before it)
 * @fault_seq: the first fault's command number
 * @fault_addr: its device address, if any
 * @printf_head: printf bytes produced
 * @printf_dropped: printf bytes dropped
 * @fault: ASCEND_FAULT_* of the first fault, written last (release); the
 *	queue then fetches nothing more
 * @fault_opcode: the faulting command's opcode
 * @busy: 1 while a fetched command still executes on AI cores or engines
 * @irq_armed: written by the driver: notify (and clear it) at a change of
 *	@completed or @busy after which @completed >= @irq_seq; the device
 *	reads it after a full barrier that follows its write, the driver
 *	reads the report after a full barrier that follows its store of 1
 * @irq_seq: written by the driver before it arms: the completion count a
 *	waiter needs (0: any change will do); the device reads it after
 *	@irq_armed
 */
struct ascend_hw_queue_report {
	__le64 rptr;
	__le64 completed;
	__le64 fault_seq;
	__le64 fault_addr;
	__le64 printf_head;
	__le64 printf_dropped;
	__le32 fault;
	__le32 fault_opcode;
	__le32 busy;
	__le32 irq_armed;
	__le64 irq_seq;
};

/* What the command processor is doing with a queue (queue_info). */
#define ASCEND_HW_QUEUE_IDLE		0	/* fetching, or nothing to do */
#define ASCEND_HW_QUEUE_STALLED		1	/* a wait whose condition is false */
#define ASCEND_HW_QUEUE_RUNNING		2	/* a command on cores/engines */

/**
 * struct ascend_hw_queue_info - a snapshot of a queue (debugfs)
 * @state: ASCEND_HW_QUEUE_*
 * @seq: number of the stalled or running command
 * @cmd: the stalled command (a copy)
 */
struct ascend_hw_queue_info {
	u32 state;
	u64 seq;
	struct ascend_cmd cmd;
};

/* queue_doorbell(): every stalled queue re-checks its condition */
#define ASCEND_HW_QUEUE_ALL		U32_MAX

/*
 * The peer window table of an address space: one 4 KiB page of
 * ASCEND_MMU_PEER_MAX entries, the first with @flags 0 ends it.  A VA that
 * has no leaf in the address space's own tables, inside [@base, @base +
 * @size) of an entry, is translated by the tables at @root in the HBM of
 * device @dev; their HBM leaves become ASCEND_AS_PEER(@dev).
 */
#define ASCEND_MMU_PEER_MAX	128
#define ASCEND_MMU_PEER_VALID	BIT(0)

struct ascend_mmu_peer_entry {
	__le64 base;
	__le64 size;
	__le64 root;
	__le32 dev;
	__le32 flags;
};

/* Build a leaf descriptor (the caller checked the alignment). */
static inline u64 ascend_pte_leaf(u64 addr, u32 as, bool write)
{
	return ASCEND_PTE_VALID | (write ? ASCEND_PTE_WRITE : 0) |
	       (addr & ASCEND_PTE_ADDR_MASK) |
	       ((u64)as << ASCEND_PTE_AS_SHIFT & ASCEND_PTE_AS_MASK);
}

static inline u64 ascend_pte_table(u64 addr)
{
	return ASCEND_PTE_VALID | ASCEND_PTE_TABLE |
	       (addr & ASCEND_PTE_ADDR_MASK);
}

/* Index of @va in a table of level @level. */
static inline unsigned int ascend_mmu_index(u64 va, unsigned int level)
{
	return (va >> ASCEND_MMU_SHIFT(level)) & (ASCEND_MMU_ENTRIES - 1);
}

/*
 * ASIDs: 1 .. ASCEND_MMU_ASID_MAX; 0 names no address space (a job with
 * ASID 0 cannot use %ASCEND_AS_VA).
 */
#define ASCEND_MMU_ASID_MAX	0xffff

/**
 * struct ascend_dma_window - pinned pageable host memory for one job
 * @va: the user address of the range
 * @len: its bytes
 * @segs: its bus addresses (%ASCEND_AS_SYS), in order, covering @len
 * @offs: offset of each of @segs in the range
 * @nr_segs: entries in @segs and @offs
 *
 * The job's descriptor list carries it (like a scatter list handed to the
 * engines); the engines look a VA up here before the page tables.
 */
struct ascend_dma_window {
	u64 va;
	u64 len;
	const struct ascend_dma_span *segs;
	const u64 *offs;
	unsigned int nr_segs;
};

/**
 * struct ascend_dma_mmu - how an engine translates %ASCEND_AS_VA
 * @asid: the address space whose page tables (and peer windows) translate
 *	the job's VAs; 0 = none (every VA faults)
 * @windows: pinned pageable ranges of this job, looked up first
 * @nr_windows: entries in @windows
 *
 * Data only: the engines translate with the device MMU, step by step; an
 * mmu_invalidate() waits for the steps in flight, so a range unmapped
 * while the job runs faults from then on and is never touched after the
 * invalidation returned.
 */
struct ascend_dma_mmu {
	u32 asid;
	unsigned int nr_windows;
	const struct ascend_dma_window *windows;
};

/**
 * struct ascend_dma_job - a list of transfers handed to the DMA engines
 * @descs: the transfers; the engines may run them in any order
 * @count: number of entries in @descs
 * @mmu: translation of %ASCEND_AS_VA addresses, NULL if none are used
 * @status: set by the backend before @done completes: 0; -EIO for a bad
 *	transfer; -ENOMEM when the emulated NPU could not back device
 *	memory it had to write (its HBM is allocated lazily from host RAM);
 *	-EFAULT when a VA did not translate (@fault_addr says which);
 *	-EINVAL when what a descriptor read at execution time was malformed
 *	(bad memcpy descriptor, base + offset overflowing)
 * @fault_addr: with -EFAULT: the VA that failed to translate
 * @done: completed by the backend when every transfer has finished, unless
 *	@sync is set
 * @sync: set by dma_submit() when the job had finished before it returned
 *	(an empty job, or a small one the backend ran in the caller's
 *	context); @done is then not used and the caller must not wait for it
 * @link: backend-private list linkage while the job is queued
 * @remaining: backend-private count of transfers not yet finished
 * @next: backend-private index of the next transfer to hand to an engine
 * @cancel: backend-private: dma_cancel() was called
 *
 * dma_submit() initialises @status, @fault_addr, @sync, @done, @remaining,
 * @next and @cancel itself.  The first error wins.
 *
 * Every transfer is executed in bounded steps: a 2D descriptor in runs of
 * whole rows of at most %ASCEND_DMA_STEP bytes (or one row), a translated
 * (%ASCEND_AS_VA) range at most %ASCEND_DMA_STEP bytes at a time; a linear
 * or fill descriptor with device-physical addresses is one step, so the
 * driver keeps those at most %ASCEND_DMA_STEP long.  Between
 * steps an engine notices dma_cancel(), and the engines take waiting jobs
 * in turn, one descriptor each: a job of any size delays another job by
 * at most the descriptors already on the rings.
 */
struct ascend_dma_job {
	const struct ascend_dma_desc *descs;
	unsigned int count;
	const struct ascend_dma_mmu *mmu;
	int status;
	u64 fault_addr;
	struct completion done;
	bool sync;
	struct list_head link;
	atomic_t remaining;
	unsigned int next;
	bool cancel;
};

/* Longest step of a transfer between two looks at dma_cancel(). */
#define ASCEND_DMA_STEP		SZ_1M

/* Wait for @job after dma_submit(): a @sync job has finished already. */
static inline void ascend_dma_job_wait(struct ascend_dma_job *job)
{
	if (!job->sync)
		wait_for_completion(&job->done);
}

/* Bytes @d writes (2D: every row); saturates, for statistics and tracing. */
static inline u64 ascend_dma_desc_bytes(const struct ascend_dma_desc *d)
{
	u64 bytes;

	if (d->kind != ASCEND_DMA_2D)
		return d->len;
	return check_mul_overflow(d->len, d->height, &bytes) ? U64_MAX : bytes;
}

/**
 * struct ascend_dma_engine_info - a snapshot of one DMA engine (debugfs)
 * @tail: next ring slot the driver writes (free-running)
 * @head: next ring slot the engine executes
 * @retired: next executed slot the driver retires
 * @descs_done: descriptors the engine executed
 * @bytes_done: bytes those descriptors wrote (ascend_dma_desc_bytes(); an
 *	indirect or offset descriptor counts what it names, 0 if unknown)
 */
struct ascend_dma_engine_info {
	u32 tail;
	u32 head;
	u32 retired;
	u64 descs_done;
	u64 bytes_done;
};

/**
 * struct ascend_hw_ops - what a backend implements
 * @init: bring the device up; called once from probe before anything else
 * @fini: tear it down; every queue is stopped and every DMA job finished.
 *	Called by remove (also on surprise removal, while files are still
 *	open) or when probe fails after @init; no op is called after it
 * @hbm_rw: CPU access to device memory through the aperture, for the
 *	driver's own use and for device-side execution of commands
 * @sys_rw: optional: device-side access to pinned host memory by bus
 *	address (%ASCEND_AS_SYS), for device-side execution of commands that
 *	touch host memory mapped in the device MMU; -EFAULT when absent
 * @hbm_discard: the range of device memory was freed; the next owner must
 *	read zeroes there (the emulated NPU drops its backing pages).  The
 *	range may still be mapped (the driver hands it to the same address
 *	space again): accesses in flight finish before it, and those that
 *	start after it read zeroes.  The driver calls it only once the
 *	owner's work published before the free is over and the range is out
 *	of every other address space, so a range nothing was written to
 *	since its last discard may return at once: a write still in flight
 *	there is the owner's own use after free
 * @hbm_map_page: optional: a CPU address of the 4 KiB page of device memory
 *	at @addr through the aperture (like a mapped BAR), or NULL; valid
 *	until that page is discarded or the device goes.  For the page-table
 *	writer's descriptor stores; hbm_rw reaches the same memory
 * @dma_submit: queue @job on the DMA engines; never fails, reports errors
 *	in @job->status and completes @job->done (or sets @job->sync)
 * @dma_cancel: stop @job, submitted and not yet completed: transfers not
 *	started are dropped, a running one stops at its next step; @job->done
 *	still completes (soon: within one step per engine), with
 *	-ECANCELED if anything was dropped or stopped and no error came
 *	first (0 if every transfer had run).  The submitter waits for it
 *	before it frees anything the job names.  (The emulated NPU's test
 *	hook that pauses its engines delays that completion too.)
 * @queue_start: serve queue @qid (< ASCEND_HW_QUEUES, not started) with
 *	context @ctx, which the device copies; it reads the page list then.
 *	0, or -ENOMEM / -EINVAL (a context it cannot use)
 * @queue_stop: stop serving @qid; on return the device no longer touches
 *	its area or report, a command it had handed off has returned, and it
 *	raises no notification for it any more
 * @queue_doorbell: wake the command processor for @qid, whose
 *	NEED_WAKEUP flag it clears; ASCEND_HW_QUEUE_ALL: every stalled queue
 *	re-checks
 * @queue_info: optional: a snapshot of @qid (debugfs); -ENOENT if stopped
 * @queue_halt: the driver faulted @qid (a broken wptr it saw, the device's
 *	loss): fetch nothing more from it, as after a fault of its own,
 *	without a report; a command it had handed off still returns
 * @query_kernels: copy up to @max entries of the built-in kernel table to
 *	@out (which may be NULL when @max is 0); returns the table's length
 * @dma_engine_info: optional: state of DMA engine @engine (0 or -EINVAL)
 * @dma_direct_info: optional: what the command processor moved itself
 *	(small copies and fills, beside the engines' rings): @descs_done and
 *	@bytes_done of @info, the ring indices 0
 * @mmu_set_context: point ASID @asid at the level-0 table at HBM address
 *	@root and its peer window table at @peers (0: none); @root 0
 *	disables the ASID.  Drops the ASID's TLB entries.  The register
 *	interface of Documentation/hardware.rst ("Device MMU")
 * @set_cmd_timeout: the command processor's limit in ms on the run time of
 *	one command that names none of its own (register CMD_TIMEOUT; 0: no
 *	limit).  Written at probe, before any queue starts, and whenever the
 *	driver's limit changes; applies to commands started afterwards
 * @event_signal: register EVENT_SIGNAL: record generation @gen in event
 *	slot @slot as an EVENT_RECORD command would (notification included)
 * @event_sync: on return no command still uses an event table entry or a
 *	slot it looked up before the call, its own or a remote one: a slot
 *	the driver took out of every table may be handed out again
 * @set_event_notify: register EVENT_NOTIFY: the bus address of the event
 *	notification area (%ASCEND_HW_EVENT_NOTIFY_SIZE bytes of host memory
 *	the driver mapped for the device), 0: none.  Written at probe after
 *	the interrupt handler was installed
 * @mmu_invalidate: drop TLB entries of @asid that overlap [@va, @va +
 *	@len) (@len U64_MAX: every entry of @asid); on return no later
 *	translation uses a descriptor the driver changed before the call, and
 *	every access by VA that had begun is over (mmu_set_context too)
 * @mmu_page_requests: optional: register CTX_PRQ: page requests on (or
 *	off) for @asid, whose context must be set; off again when the
 *	context is disabled (mmu_set_context with @root 0)
 * @mmu_page_response: register PRQ_RESPONSE: answer page request slot
 *	@slot with @status (%ASCEND_HW_PRQ_RETRY or %ASCEND_HW_PRQ_FAULT); a
 *	slot with no request pending ignores it
 */
struct ascend_hw_ops {
	int (*init)(struct ascend_hw_device *hw);
	void (*fini)(struct ascend_hw_device *hw);
	int (*hbm_rw)(struct ascend_hw_device *hw, u64 addr, void *buf,
		      size_t len, bool write);
	int (*sys_rw)(struct ascend_hw_device *hw, u64 addr, void *buf,
		      size_t len, bool write);
	void (*hbm_discard)(struct ascend_hw_device *hw, u64 addr, u64 len);
	void *(*hbm_map_page)(struct ascend_hw_device *hw, u64 addr);
	void (*dma_submit)(struct ascend_hw_device *hw, struct ascend_dma_job *job);
	void (*dma_cancel)(struct ascend_hw_device *hw, struct ascend_dma_job *job);
	int (*queue_start)(struct ascend_hw_device *hw, u32 qid,
			   const struct ascend_hw_queue_ctx *ctx);
	void (*queue_stop)(struct ascend_hw_device *hw, u32 qid);
	void (*queue_doorbell)(struct ascend_hw_device *hw, u32 qid);
	int (*queue_info)(struct ascend_hw_device *hw, u32 qid,
			  struct ascend_hw_queue_info *info);
	void (*queue_halt)(struct ascend_hw_device *hw, u32 qid);
	u32 (*query_kernels)(struct ascend_hw_device *hw,
			     struct drm_ascend_kernel_info *out, u32 max);
	int (*dma_engine_info)(struct ascend_hw_device *hw, unsigned int engine,
			       struct ascend_dma_engine_info *info);
	void (*dma_direct_info)(struct ascend_hw_device *hw,
				struct ascend_dma_engine_info *info);
	void (*mmu_set_context)(struct ascend_hw_device *hw, u32 asid, u64 root,
				u64 peers);
	void (*mmu_invalidate)(struct ascend_hw_device *hw, u32 asid, u64 va,
			       u64 len);
	void (*set_cmd_timeout)(struct ascend_hw_device *hw, u32 ms);
	void (*event_signal)(struct ascend_hw_device *hw, u32 slot, u64 gen);
	void (*event_sync)(struct ascend_hw_device *hw);
	void (*set_event_notify)(struct ascend_hw_device *hw, u64 bus_addr);
	void (*mmu_page_requests)(struct ascend_hw_device *hw, u32 asid,
				  bool on);
	void (*mmu_page_response)(struct ascend_hw_device *hw, u32 slot,
				  u32 status);
};

/*
 * Device discovery: what the bus tells the driver about an NPU
 * (Documentation/hardware.rst, "Device discovery and resources").
 *
 * An NPU is a platform device named ASCEND_HW_DEVICE_NAME whose id is its
 * device index.  Its platform data (struct ascend_hw_platform_data) is the
 * handle of its hardware interface; its device properties describe it.
 */
#define ASCEND_HW_DEVICE_NAME		"ascend"
#define ASCEND_HW_MAX_DEVICES		16	/* device indexes 0..15 */

/* Device properties (device_property_read_*()) */
#define ASCEND_HW_PROP_HBM_SIZE		"hbm-size"	/* u64, bytes */
/* optional u64, bytes of HBM the device can hold written at once */
#define ASCEND_HW_PROP_HBM_STORE_SIZE	"hbm-store-size"
#define ASCEND_HW_PROP_DMA_ENGINES	"dma-engines"	/* u32, 1-64 */
#define ASCEND_HW_PROP_AI_CORES		"ai-cores"	/* u32, 1-256 */
#define ASCEND_HW_PROP_SOC_NAME		"soc-name"	/* string */

#define ASCEND_HW_MAX_DMA_ENGINES	64
#define ASCEND_HW_MAX_AI_CORES		256

/**
 * struct ascend_hw_platform_data - platform data of an NPU device
 * @hw: the handle of its hardware interface; the driver calls nothing else
 *	of the device, and only between its probe and the end of its remove
 */
struct ascend_hw_platform_data {
	struct ascend_hw_device *hw;
};

/*
 * The emulator's devices (emu/ascend_emu_bus.c): init creates the module's
 * num_devices NPUs and the sysfs files new_device and del_device; exit
 * removes them all.  The only link between the driver and the emulator:
 * the module loads both.
 */
int ascend_emu_bus_init(void);
void ascend_emu_bus_exit(void);

#endif /* __ASCEND_HW_H__ */
