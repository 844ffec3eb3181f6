/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The queue object, shared between the driver side (ascend_queue.c: ioctls,
 * lifetime) and the device side (the backend's command processor, which
 * fetches, executes and completes the commands).
 *
 * Ownership of the fields:
 *  - the shared area (@status, @printf_buf, @ring) is user-writable; the
 *    device side only mirrors its own state into it and never trusts it;
 *  - @rptr is written by the command processor only, while it holds the
 *    queue (between queue_start and queue_stop); @completed by it or by
 *    the AI core / DMA worker finishing a handed-off command (one writer
 *    at a time: the queue's next command waits for that one); @printf_head
 *    under @printf_lock; QUEUE_RESET rewrites @rptr and @completed while
 *    the queue is stopped.  Others read them with READ_ONCE/acquire;
 *  - the fault record and the status flags are written under @lock by
 *    whoever faults the queue (command processor, ring checks in ioctls,
 *    forced destroy), and by the command processor for NEED_WAKEUP.
 */
#ifndef __ASCEND_QUEUE_PRIV_H__
#define __ASCEND_QUEUE_PRIV_H__

#include <drm/drm_gem.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "ascend_accel.h"
#include "ascend_hw_rules.h"
#include "ascend_queue.h"

struct ascend_device;
struct ascend_file;
struct ascend_vm;

/**
 * enum ascend_queue_state - lifetime of a queue
 * @ASCEND_QUEUE_RUNNING: served by the command processor
 * @ASCEND_QUEUE_STOPPING: a destroy owns the queue and is tearing it down
 * @ASCEND_QUEUE_DEAD: stopped and removed; waiters leave with -ENOENT
 */
enum ascend_queue_state {
	ASCEND_QUEUE_RUNNING,
	ASCEND_QUEUE_STOPPING,
	ASCEND_QUEUE_DEAD,
};

/**
 * struct ascend_queue_area - the GEM object backing the shared queue area
 * @base: the GEM object; mmap()ed through its fake offset
 * @vaddr: vmalloc_user() buffer, freed with the object (the last mapping
 *	may outlive the queue)
 */
struct ascend_queue_area {
	struct drm_gem_object base;
	void *vaddr;
};

/**
 * struct ascend_queue - one hardware queue
 * @ref: references: the handle table, and each ioctl using the queue
 * @adev: the device
 * @af: the owning file; valid while the queue is in its handle table
 * @vm: the owner's device address space: every address a command names
 *	is translated here
 * @asid: @vm's ASID, with which the device translates those addresses
 * @event_table: device address of the file's event table (ascend_evtab.h),
 *	in which the device looks up the events the commands name
 * @file: the DRM file allowed to mmap @area (revoked at destroy)
 * @handle: handle in @af's table
 * @area: the shared area
 * @status: status page inside @area
 * @printf_buf: device printf buffer inside @area
 * @printf_size: its size, a power of two
 * @ring: command ring inside @area
 * @ring_entries: number of ring slots, a power of two
 * @lock: protects @state, the fault record (@fault, @fault_seq,
 *	@fault_addr, @fault_opcode), @status_flags and the writes of the
 *	status page's flags and fault fields
 * @state: &enum ascend_queue_state
 * @status_flags: authoritative ASCEND_QUEUE_STATUS_* bits
 * @fault: ASCEND_FAULT_* once the queue faulted (first fault wins)
 * @fault_seq: sequence number of the faulting command (0: none)
 * @fault_addr: faulting device address, if any
 * @fault_opcode: opcode of the faulting command
 * @rptr: commands fetched (command processor only)
 * @completed: commands completed (command processor only; release)
 * @printf_head: printf bytes produced (command processor only)
 * @printf_dropped: printf bytes dropped (command processor only)
 * @wq: waiters for @completed, @fault and @state changes
 * @dev_link: link in &ascend_device.queues (under its queues_lock)
 * @cp_link: link in the command processor's run list (under its lock)
 * @cp_stop: set by queue_stop; long-running work polls it to bail out
 * @printf_lock: serialises device printf of the blocks of a launch, which
 *	run in parallel on several AI cores
 * @reset_count: bumped by every QUEUE_RESET (under the teardown claim)
 * @cur_state: &enum ascend_cp_cur: what the command processor is doing
 *	with the command at @cur_seq.  Set by the command processor;
 *	RUNNING -> IDLE by whoever finishes the command, under the command
 *	processor's lock, after the completion or fault is published.
 * @cur_seq: sequence number of the stalled or running command
 * @cur_deadline: ktime_get_ns() deadline of that command, 0 = none
 * @cur_cmd: copy of the stalled command (command processor only)
 * @cur_slot: event slot a stalled EVENT_WAIT watches
 * @cur_job: backend job of a running command (under the command
 *	processor's lock)
 */
struct ascend_queue {
	struct kref ref;
	struct ascend_device *adev;
	struct ascend_file *af;
	struct ascend_vm *vm;
	u32 asid;
	u64 event_table;
	struct drm_file *file;
	u32 handle;

	struct ascend_queue_area *area;
	struct ascend_queue_status *status;
	u8 *printf_buf;
	u32 printf_size;
	struct ascend_cmd *ring;
	u32 ring_entries;

	spinlock_t lock;	/* state, fault record, status flags */
	enum ascend_queue_state state;
	u32 status_flags;
	u32 fault;
	u64 fault_seq;
	u64 fault_addr;
	u32 fault_opcode;

	u64 rptr;
	u64 completed;
	u64 printf_head;
	u64 printf_dropped;

	wait_queue_head_t wq;
	struct list_head dev_link;
	struct list_head cp_link;
	bool cp_stop;

	spinlock_t printf_lock;	/* printf_head, printf_dropped, printf_buf */
	u32 reset_count;

	u32 cur_state;
	u64 cur_seq;
	u64 cur_deadline;
	struct ascend_cmd cur_cmd;
	u32 cur_slot;
	void *cur_job;
};

/**
 * enum ascend_cp_cur - state of a queue's current command
 * @ASCEND_CUR_IDLE: none: the command processor fetches the next one
 * @ASCEND_CUR_STALLED: an EVENT_WAIT or WAIT_VALUE whose condition does
 *	not hold yet; re-checked when any queue makes progress, on event
 *	signals and periodically
 * @ASCEND_CUR_RUNNING: handed to AI cores or DMA engines; the queue's
 *	next command waits for it
 */
enum ascend_cp_cur {
	ASCEND_CUR_IDLE,
	ASCEND_CUR_STALLED,
	ASCEND_CUR_RUNNING,
};

/*
 * Device-side helpers (ascend_queue.c), for the backend's command processor.
 */

/* Record the first fault of @q, mirror it, wake waiters. */
void ascend_queue_set_fault(struct ascend_queue *q, u32 fault, u64 seq,
			    u64 addr, u32 opcode);

/* Publish @seq as completed (after its side effects), wake waiters. */
void ascend_queue_complete(struct ascend_queue *q, u64 seq);

/* Set or clear ASCEND_QUEUE_STATUS_NEED_WAKEUP in the status page. */
void ascend_queue_set_need_wakeup(struct ascend_queue *q, bool on);

/*
 * Read the user's wptr and check it against the fetched position: 0 and
 * *@wptr on success, -EPROTO if it is behind rptr or more than a ring ahead.
 */
int ascend_queue_read_wptr(struct ascend_queue *q, u64 *wptr);

/*
 * Something that may let a deferred retire (ascend_queue_file_defer()) go
 * ahead happened on @q: a completion, a fault, a finished job, a reset.
 */
void ascend_queue_poke_retire(struct ascend_queue *q);

/* Ring slot of command number @n (counted from 0). */
static inline u32 ascend_ring_slot(u64 n, u32 ring_entries)
{
	return n & (ring_entries - 1);
}

static inline bool ascend_queue_faulted(struct ascend_queue *q)
{
	return READ_ONCE(q->fault) != ASCEND_FAULT_NONE;
}

/* ascend_emu_kernels.c: run a validated-opcode LAUNCH command */

/**
 * struct ascend_emu_fault - where a command failed
 * @code: ASCEND_FAULT_*
 * @addr: faulting device address (MMU faults), else 0
 */
struct ascend_emu_fault {
	u32 code;
	u64 addr;
};

struct ascend_emu_kernel;

#define ASCEND_EMU_SCRATCH_SIZE	4096

/*
 * Check @l against the kernel table: the kernel, or NULL for a bad
 * command.  *@nr_runs is how many times the kernel body runs (num_blocks,
 * or 1 for kernels that handle the whole launch at once).
 */
const struct ascend_emu_kernel *
ascend_emu_kernel_prepare(const struct ascend_cmd_launch *l, u32 *nr_runs);

/*
 * A launch provably short enough for the command processor to run it
 * itself instead of handing it to the AI cores: a kernel with bounded
 * per-block work, at most ASCEND_EMU_SHORT_BLOCKS blocks and at most
 * ASCEND_EMU_SHORT_BYTES device bytes touched over all of them.
 */
#define ASCEND_EMU_SHORT_BLOCKS	64
#define ASCEND_EMU_SHORT_BYTES	(16 * 1024)
bool ascend_emu_kernel_short(const struct ascend_emu_kernel *kern,
			     const struct ascend_cmd_launch *l);

/*
 * Run block @block of @l on one AI core with @scratch
 * (ASCEND_EMU_SCRATCH_SIZE bytes).  The block bails out with
 * ASCEND_FAULT_ABORTED when @q->cp_stop or *@abort becomes true.
 * Returns 0 or fills @f and returns -EIO.
 */
int ascend_emu_kernel_run(struct ascend_queue *q,
			  const struct ascend_emu_kernel *kern,
			  const struct ascend_cmd_launch *l, u32 block,
			  void *scratch, const bool *abort,
			  struct ascend_emu_fault *f);

/*
 * Execute all of @l on the calling thread, block after block (for tests).
 * Returns 0 or fills @f and returns -EIO.
 */
int ascend_emu_kernel_launch(struct ascend_queue *q,
			     const struct ascend_cmd_launch *l, void *scratch,
			     struct ascend_emu_fault *f);

/* IEEE-754 binary32 a + b, round to nearest even (the AddF32 kernel). */
u32 ascend_f32_add(u32 a, u32 b);

/* Device printf into @q's printf buffer (takes @q->printf_lock). */
__printf(2, 3)
void ascend_emu_printf(struct ascend_queue *q, const char *fmt, ...);

#endif /* __ASCEND_QUEUE_PRIV_H__ */
