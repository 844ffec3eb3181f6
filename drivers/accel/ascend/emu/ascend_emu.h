/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated NPU: a software device behind the hardware interface.
 *
 *  ascend_emu.c          ops table, device bring-up, lazily backed HBM
 *  ascend_emu_dma.c      DMA engines: kernel threads walking job lists
 *  ascend_emu_copy.c     the command processor's copy sequencer: ring
 *                        copy commands on the device's own engines
 *  ascend_emu_smmu.c     SMMU: page-table walker and TLB
 *  ascend_emu_cp.c       command processor: serves queues, executes ring
 *                        commands, NEED_WAKEUP doorbell protocol
 *  ascend_emu_cmd.c      the command processor's command checker
 *  ascend_emu_kernels.c  the built-in kernel library run on "AI cores",
 *                        device printf
 *  ascend_emu_queue.c    the device's side of a queue context
 *  ascend_emu_event.c    event memory, event-table look-ups, interrupts
 *  ascend_emu_trace.c    the device's tracepoints
 *  ascend_emu_bus.c      where the devices come from: the emulated bus
 *
 * The emulator is its own part: of the driver it includes only the
 * hardware interface header, ascend_hw.h (which brings the copy rules and
 * the uAPI's command layout with it), and the driver reaches it only through the ops of the handle
 * in the platform data (tools/check-boundary checks both).
 */
#ifndef __ASCEND_EMU_H__
#define __ASCEND_EMU_H__

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/rwsem.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "ascend_hw.h"

struct ascend_cmd;
struct ascend_dma_job;
struct drm_ascend_kernel_info;
struct ascend_emu_dma;
struct ascend_emu_cp;
struct ascend_cp_group;
struct ascend_emu_smmu;

struct dentry;
struct device;

/**
 * struct ascend_emu_config - what an emulated NPU is made of
 * @hbm_size: bytes of HBM (a multiple of 4 KiB)
 * @num_dma_engines: DMA engines, 1 .. ASCEND_HW_MAX_DMA_ENGINES
 * @num_ai_cores: AI cores, 1 .. ASCEND_HW_MAX_AI_CORES
 * @store_size: host memory the device may use to back written HBM and
 *	page-table memory, in bytes (ascend_emu_store_slice()); 0: all of it
 */
struct ascend_emu_config {
	u64 hbm_size;
	u32 num_dma_engines;
	u32 num_ai_cores;
	u64 store_size;
};

/**
 * struct ascend_emu - state of one emulated NPU
 * @hw: the handle of its hardware interface, given to the driver as
 *	platform data; every op finds the device from it (to_ascend_emu())
 * @dev: the platform device (for its DMA configuration), NULL in KUnit
 * @index: the device index
 * @hbm_size: bytes of HBM; the page-table memory follows it
 * @num_dma_engines: DMA engines
 * @num_ai_cores: AI cores
 * @hbm_pages: HBM page index -> struct page *, allocated on first write;
 *	never-written pages read as zero.  The xarray's own lock serialises
 *	insertion; page contents are not locked (like real memory).
 * @table_pages: the same for the page-table memory above the HBM, indexed
 *	from its start (a separate index: the HBM's stays shallow)
 * @store_pages: pages of @hbm_pages and @table_pages the device may hold
 * @page_cache: backing pages found last, slot = device page index modulo
 *	%ASCEND_EMU_PAGE_CACHE, each tagged with its index (page_private());
 *	a discard empties the slots of the pages it frees (ascend_emu.c)
 * @present: one bit per device page (HBM, then page-table memory): clear
 *	when the page has no backing (never written, or discarded); set by a
 *	writer before it publishes the page, cleared only by a discard
 *	(ascend_emu.c).  Allocated by setup and init, freed by hbm_release.
 * @backed: pages they hold now (atomic, no lock)
 * @dma: DMA engine state (ascend_emu_dma.c), while up
 * @cp: command processor state (ascend_emu_cp.c), while up
 * @smmu: SMMU state (ascend_emu_smmu.c), while up
 * @irq: the Linux interrupt of the device's line (ascend_emu_bus.c)
 * @event_lock: serialises the device's writes of event slots
 * @event_notify: register EVENT_NOTIFY (bus address, 0: none)
 * @debugfs: the device's directory, ascend-emu/ascend.<index> (or NULL)
 * @fail_dma_xfer: debugfs countdown: the transfer that brings it from 1 to
 *	0 fails with -EIO; 0 = disarmed (atomic, no lock)
 * @injected_dma_xfer: transfers failed that way
 *
 * The bus allocates it before the platform device exists and frees it
 * after the device is gone; the init op brings up the parts, fini takes
 * them down (a driver bound again brings them up again).
 */
struct ascend_emu {
	struct ascend_hw_device hw;
	struct device *dev;
	unsigned int index;
	u64 hbm_size;
	u32 num_dma_engines;
	u32 num_ai_cores;
	struct xarray hbm_pages;
	struct xarray table_pages;
	unsigned long store_pages;
#define ASCEND_EMU_PAGE_CACHE	64
	struct page *page_cache[ASCEND_EMU_PAGE_CACHE];
	unsigned long *present;
	atomic_long_t backed;
	struct ascend_emu_dma *dma;
	struct ascend_emu_cp *cp;
	struct ascend_emu_smmu *smmu;
	unsigned int irq;
	spinlock_t event_lock;	/* event slot writes */
	u64 event_notify;
	struct dentry *debugfs;
	atomic_t fail_dma_xfer;
	atomic_t injected_dma_xfer;
};

static inline struct ascend_emu *to_ascend_emu(struct ascend_hw_device *hw)
{
	return container_of(hw, struct ascend_emu, hw);
}

/* True when this transfer must fail (debugfs fail_dma_xfer). */
static inline bool ascend_emu_fail_xfer(struct ascend_emu *emu)
{
	if (likely(!atomic_read(&emu->fail_dma_xfer)))
		return false;
	if (atomic_dec_if_positive(&emu->fail_dma_xfer) != 0)
		return false;
	atomic_inc(&emu->injected_dma_xfer);
	return true;
}

/*
 * ascend_emu.c: a device's state.  create: allocate NPU @index of @cfg,
 * for platform device @dev (its parent until then), interrupt @irq, with
 * its debugfs files under @debugfs (may be NULL); destroy frees it, after
 * the device is gone.  setup initialises @emu in place (KUnit; no debugfs),
 * 0 or -ENOMEM; hbm_release frees what it allocated.
 */
struct ascend_emu *ascend_emu_create(struct device *dev, unsigned int index,
				     const struct ascend_emu_config *cfg,
				     struct dentry *debugfs, unsigned int irq);
void ascend_emu_destroy(struct ascend_emu *emu);
int ascend_emu_setup(struct ascend_emu *emu, unsigned int index,
		     const struct ascend_emu_config *cfg);

/* ascend_emu.c: HBM backing store, byte access and page-wise helpers */
int ascend_emu_hbm_rw(struct ascend_hw_device *hw, u64 addr, void *buf,
		      size_t len, bool write);
int ascend_emu_hbm_copy(struct ascend_emu *emu, u64 dst, u64 src, u64 len);
int ascend_emu_hbm_fill(struct ascend_emu *emu, u64 dst, u64 len,
			u64 pattern, u32 pattern_size);
/* The same between address spaces (HBM, SYS, a peer's HBM); -EIO: none. */
int ascend_emu_mem_rw(struct ascend_emu *emu, u32 as, u64 addr, void *buf,
		      size_t len, bool write);
int ascend_emu_mem_copy(struct ascend_emu *emu, u64 dst, u32 dst_as,
			u64 src, u32 src_as, u64 len);
int ascend_emu_mem_fill(struct ascend_emu *emu, u64 dst, u32 dst_as,
			u64 len, u64 pattern, u32 pattern_size);
/* The emulated NPU a peer address space ASCEND_AS_PEER(n) names, or NULL. */
struct ascend_emu *ascend_emu_peer(u32 as);
/* List @emu as up (its peers find it) or not; init and fini do it. */
void ascend_emu_set_up(struct ascend_emu *emu, bool up);
/* Device-side access to host memory by bus address (hw op sys_rw). */
int ascend_emu_sys_rw(struct ascend_hw_device *hw, u64 addr, void *buf,
		      size_t len, bool write);
/*
 * The CPU address of device memory at @addr (HBM or page-table memory),
 * backed first when @write; NULL when out of range, never written (and not
 * @write) or out of backing memory.  Valid within the page, until it is
 * discarded.  For the device's word-sized (atomic) accesses.
 */
void *ascend_emu_mem_ptr(struct ascend_emu *emu, u64 addr, bool write);

/* Is [@addr, @addr + @len) device memory (HBM, then page-table memory)? */
static inline bool ascend_emu_in_hbm(struct ascend_emu *emu, u64 addr, u64 len)
{
	u64 end;

	return !check_add_overflow(addr, len, &end) &&
	       end <= emu->hbm_size +
		      ascend_mmu_table_mem_size(emu->hbm_size);
}

/*
 * The backing page of device page @idx if @emu->page_cache holds it, else
 * NULL (the look-up in ascend_emu.c fills the cache).
 */
static inline struct page *ascend_emu_page_cached(struct ascend_emu *emu,
						  unsigned long idx)
{
	struct page *page;

	/* pairs with the cache's release stores: the tag was written before */
	page = smp_load_acquire(&emu->page_cache[idx % ASCEND_EMU_PAGE_CACHE]);
	return page && page_private(page) == idx ? page : NULL;
}

/*
 * ascend_emu_mem_ptr(), inline when the page is in @emu->page_cache, else
 * the call: an EVENT_RECORD makes three of these, and a call each was a
 * large part of its cost under emulation.
 */
static inline void *ascend_emu_mem_ptr_inline(struct ascend_emu *emu,
					      u64 addr, bool write)
{
	struct page *page;

	if (!ascend_emu_in_hbm(emu, addr, 1))
		return NULL;
	page = ascend_emu_page_cached(emu, addr >> PAGE_SHIFT);
	if (likely(page))
		return page_address(page) + offset_in_page(addr);
	return ascend_emu_mem_ptr(emu, addr, write);
}

/* The CPU address of host memory at bus address @addr, or NULL. */
void *ascend_emu_sys_ptr(struct ascend_emu *emu, u64 addr);
void ascend_emu_hbm_discard(struct ascend_emu *emu, u64 addr, u64 len);
/* Host pages backing the HBM of every emulated NPU now. */
unsigned long ascend_emu_backed_pages(void);

/* ascend_emu_spare.c: pages of discarded HBM, for the next writes */
int ascend_emu_spare_init(void);
void ascend_emu_spare_fini(void);
struct page *ascend_emu_spare_get(void);
void ascend_emu_spare_put(struct page *page, unsigned long max);
/* Bytes of host memory each of @num_devices NPUs may use for its store. */
u64 ascend_emu_store_slice(unsigned int num_devices);
void ascend_emu_hbm_release(struct ascend_emu *emu);

/* ascend_emu_dma.c */
int ascend_emu_dma_init(struct ascend_emu *emu, unsigned int engines);
void ascend_emu_dma_fini(struct ascend_emu *emu);
void ascend_emu_dma_submit(struct ascend_hw_device *hw,
			   struct ascend_dma_job *job);
void ascend_emu_dma_cancel(struct ascend_hw_device *hw,
			   struct ascend_dma_job *job);

/*
 * The device's own use of its engines (the command processor's copies):
 * submit @job, wait for it, cancel it when *@abort becomes true (looked at
 * every %ASCEND_EMU_DMA_ABORT_POLL).  The job's status, or -ECANCELED.
 */
#define ASCEND_EMU_DMA_ABORT_POLL	msecs_to_jiffies(5)
int ascend_emu_dma_run(struct ascend_emu *emu, struct ascend_dma_job *job,
		       const bool *abort);
unsigned int ascend_emu_dma_engines(struct ascend_emu *emu);
/*
 * Run a small @job (at most 4 linear or fill descriptors, 4 KiB) at once
 * in the caller's context if every engine is idle, as dma_submit() does;
 * true when it ran (its status is final), false when it was not started.
 */
bool ascend_emu_dma_try_inline(struct ascend_emu *emu,
			       struct ascend_dma_job *job);
/*
 * Move a @job of one small descriptor (as above) at once in the caller's
 * context, beside the engines' rings whatever they hold: the command
 * processor's own mover.  True when it ran (its status is final).
 */
bool ascend_emu_dma_direct(struct ascend_emu *emu, struct ascend_dma_job *job);
/*
 * Its common case, with no descriptor to build: a linear copy of @len
 * bytes (at most 4 KiB) between VAs of @asid that translate in one piece
 * each.  0 or the transfer's errno; -EAGAIN when it is not that case
 * (nothing moved): ascend_emu_dma_direct() runs it in full.
 */
int ascend_emu_dma_direct_copy(struct ascend_emu *emu, u32 asid, u64 dst,
			       u64 src, u64 len);
/*
 * Are the engines idle (no job waiting or on a ring, not paused)?  A hint
 * for a caller about to move many small pieces with the mover above: it
 * may change right after.
 */
bool ascend_emu_dma_idle(struct ascend_emu *emu);
/* What the command processor's own mover did (descs_done, bytes_done). */
void ascend_emu_dma_direct_info(struct ascend_emu *emu,
				struct ascend_dma_engine_info *info);

/* Slot of free-running ring index @idx (ASCEND_DMA_RING_SIZE, power of 2). */
static inline u32 ascend_dma_ring_slot(u32 idx)
{
	return idx & (ASCEND_DMA_RING_SIZE - 1);
}

/* Slots in use between the driver's @tail and its @retired (u32 wrap). */
static inline u32 ascend_dma_ring_used(u32 tail, u32 retired)
{
	return tail - retired;
}

/*
 * The ring a new descriptor goes to: the one with the fewest slots in use
 * (@used[i] of @n rings), the lowest index on a tie; @n when every ring
 * has @cap slots in use (all full).
 */
static inline unsigned int ascend_dma_pick_ring(const u32 *used,
						unsigned int n, u32 cap)
{
	unsigned int i, best = n;

	for (i = 0; i < n; i++)
		if (used[i] < cap && (best == n || used[i] < used[best]))
			best = i;
	return best;
}

/**
 * struct ascend_emu_dma_ring_state - a snapshot of one engine's ring
 * @tail: next slot the driver writes
 * @head: next slot the engine executes
 * @retired: next executed slot to retire
 * @executed: descriptors the engine executed so far
 */
struct ascend_emu_dma_ring_state {
	u32 tail;
	u32 head;
	u32 retired;
	u64 executed;
};

/* Test hooks: stop/restart execution; read a ring's indices. */
void ascend_emu_dma_pause(struct ascend_emu *emu, bool pause);
int ascend_emu_dma_ring_state(struct ascend_emu *emu, unsigned int engine,
			      struct ascend_emu_dma_ring_state *st);
/* hw op dma_engine_info */
int ascend_emu_dma_engine_info(struct ascend_hw_device *hw, unsigned int engine,
			       struct ascend_dma_engine_info *info);

/* ascend_emu_smmu.c */
int ascend_emu_smmu_init(struct ascend_emu *emu);
void ascend_emu_smmu_fini(struct ascend_emu *emu);
/* hw ops mmu_set_context, mmu_invalidate */
void ascend_emu_mmu_set_context(struct ascend_hw_device *hw, u32 asid,
				u64 root, u64 peers);
void ascend_emu_mmu_invalidate(struct ascend_hw_device *hw, u32 asid, u64 va,
			       u64 len);
/* hw ops mmu_page_requests, mmu_page_response */
void ascend_emu_mmu_page_requests(struct ascend_hw_device *hw, u32 asid,
				  bool on);
void ascend_emu_mmu_page_response(struct ascend_hw_device *hw, u32 slot,
				  u32 status);
/*
 * A page request for @va of @asid, which did not translate: called
 * outside any access section (the driver may change tables and invalidate
 * before it answers), may sleep.  0: the driver answered RETRY, translate
 * again; -EFAULT: fault (no page requests for @asid, FAULT, no answer).
 */
int ascend_emu_smmu_request(struct ascend_emu *emu, u32 asid, u64 va,
			    bool write);
/* Page requests still waiting fault; new ones fault at once (fini). */
void ascend_emu_smmu_prq_stop(struct ascend_emu *emu);
/*
 * The first contiguous piece of [@va, @va + @len) in address space @asid
 * (through its peer windows too when @peers), for a write when @write:
 * 0 with @span filled (1 <= @span->len <= @len), or -EFAULT.
 */
int ascend_emu_smmu_xlate(struct ascend_emu *emu, u32 asid, u64 va, u64 len,
			  bool write, bool peers, struct ascend_dma_span *span);
/*
 * ascend_emu_smmu_check() inside the caller's access section, without page
 * requests: many small ranges under one section.
 */
int ascend_emu_smmu_check_in(struct ascend_emu *emu, u32 asid, u64 va,
			     u64 len, bool write, bool peers, u64 *fault);
/* Does all of [@va, @va + @len) translate?  0, or -EFAULT and *@fault. */
int ascend_emu_smmu_check(struct ascend_emu *emu, u32 asid, u64 va, u64 len,
			  bool write, bool peers, u64 *fault);
/*
 * Device-side byte access by VA (command processor, AI cores), through the
 * address space's own tables (and its peer windows when @peers): the whole
 * range is checked first, and the access is one access section.  -EFAULT,
 * -EINVAL (empty or wrapping range), or the memory's error.
 */
int ascend_emu_smmu_rw(struct ascend_emu *emu, u32 asid, u64 va, void *buf,
		       size_t len, bool write, bool peers);
/*
 * The device's atomic compare-and-exchange of the naturally aligned 64-bit
 * word at @va, which must be device memory (this device's or, with @peers,
 * a linked peer's HBM): 0 when the word held *@old and now holds @new;
 * -EAGAIN with *@old set to what it holds otherwise; -EFAULT, -EINVAL
 * (unaligned), or the memory's error.  One access section.
 */
int ascend_emu_smmu_cmpxchg64(struct ascend_emu *emu, u32 asid, u64 va,
			      u64 *old, u64 new, bool peers);
/*
 * An access by VA: its translation and the bytes it moves happen between
 * these two; an invalidation waits for the sections that had begun.  Keep
 * a section to one step (%ASCEND_DMA_STEP bytes) and never nest them.
 * Inline: every small command makes one.
 */
extern struct rw_semaphore ascend_emu_access_sem;

static inline void ascend_emu_smmu_access_begin(void)
{
	down_read(&ascend_emu_access_sem);
}

static inline void ascend_emu_smmu_access_end(void)
{
	up_read(&ascend_emu_access_sem);
}

/* Wait until every access section that began before the call is over. */
void ascend_emu_smmu_sync(void);
/*
 * No access section runs between these two (none may be held around them).
 * Inline: a discard (every reuse of freed memory) is one.
 */
static inline void ascend_emu_smmu_exclusive_begin(void)
{
	down_write(&ascend_emu_access_sem);
}

static inline void ascend_emu_smmu_exclusive_end(void)
{
	up_write(&ascend_emu_access_sem);
}

/*
 * The floating-point overflow status of address space @asid (the context
 * registers' CTX_OVERFLOW, see Documentation/hardware.rst): set by the
 * float kernels of its queues, read (and cleared when @clear) by the
 * status kernels.  It lives and dies with the ASID's context: a CTX_ROOT
 * of 0 drops it, so a new owner of the ASID starts clean.  No context: the
 * set does nothing and the get reads 0.
 */
void ascend_emu_smmu_overflow_set(struct ascend_emu *emu, u32 asid);
u32 ascend_emu_smmu_overflow_get(struct ascend_emu *emu, u32 asid, bool clear);

/* ascend_emu_cmd.c: the command checker */
/*
 * Check a copied command's fields: flags, reserved and every payload byte
 * the opcode does not use must be zero, lengths must not wrap, addresses
 * of values must be 8-byte aligned.  Returns 0 or ASCEND_FAULT_BAD_COMMAND.
 * Kernel-specific launch checks are the kernel table's.
 */
u32 ascend_cmd_check(const struct ascend_cmd *cmd);
/*
 * A SWITCH's table entry for @selector: a selector past the table's
 * @count (> 0) entries picks the last one.
 */
u32 ascend_switch_entry(u64 selector, u32 count);
/* May a list of @count commands go on at index @target (count: the end)? */
bool ascend_list_target_ok(u32 target, u32 count);

/* What a WRITE_VALUE of ASCEND_WRITE_VALUE_@op makes of a word holding @mem. */
u64 ascend_write_value_apply(u64 mem, u64 value, u32 op);
/* Does a 64-bit word holding @mem satisfy ASCEND_WAIT_VALUE_@cond @value? */
bool ascend_wait_value_satisfied(u64 mem, u64 value, u32 cond);

/*
 * Deadline (ns) of a command started at @now_ns with @timeout_ms, or with
 * @default_ms when that is 0; 0 when both are 0 (no limit).
 */
u64 ascend_cmd_deadline(u64 now_ns, u32 timeout_ms, u32 default_ms);
/*
 * The time limit (ms, 0: none) of a command naming @own_ms (0: none of its
 * own) on a device whose CMD_TIMEOUT is @device_ms: its own, else the
 * device's; on a queue started with ASCEND_HW_QUEUE_LIMITED (@limited) at
 * most the device's, unless that is 0.
 */
u32 ascend_cmd_limit_ms(u32 own_ms, u32 device_ms, bool limited);

/*
 * The AI-core scheduler's policy (ascend_emu_cmd.c, pure): scheduling
 * groups are charged the core time their blocks use (vtime, ns); a free
 * core goes to the waiting group with the least.
 *
 * ascend_sched_before: has vtime @a used less than @b (wrap-safe)?
 * ascend_sched_wake_vtime: the vtime of a group that starts waiting after
 * a pause, when the device's clock (the vtime of the group served last)
 * is @clock: no credit for the time it was idle beyond one slice.
 * ascend_sched_yield: should a block whose turn has lasted @ran_ns yield
 * its core, its group being at @mine and the best waiting other group at
 * @other?
 */
bool ascend_sched_before(u64 a, u64 b);
u64 ascend_sched_wake_vtime(u64 vtime, u64 clock, u64 slice_ns);
bool ascend_sched_yield(u64 ran_ns, u64 slice_ns, u64 mine, u64 other);
bool ascend_cmd_expired(u64 now_ns, u64 deadline_ns);

/* ascend_emu_copy.c */
/*
 * Execute ring copy command @cmd (COPY, FILL, COPY_2D, COPY_BATCH,
 * COPY_INDIRECT, COPY_OFFSET, REDUCE; checked by the command checker) of a queue
 * whose address space is @asid, on the device's engines, its jobs counted
 * in scheduling group @grp (NULL: none).  Stops when *@abort becomes true.
 * Returns ASCEND_FAULT_NONE or the fault code, with *@fault_addr for
 * ASCEND_FAULT_MMU.
 */
u32 ascend_emu_copy_cmd(struct ascend_emu *emu, u32 asid,
			struct ascend_cp_group *grp,
			const struct ascend_cmd *cmd, const bool *abort,
			u64 *fault_addr);

/*
 * The DMA share of a scheduling group (ascend_emu_cp.c): at most
 * ASCEND_EMU_GROUP_DMA_JOBS jobs per engine of one group wait in the
 * engines at once, so a group's turns there do not grow with its queues.
 * ascend_emu_cp_dma_begin() waits for a place (looking at *@abort every
 * 5 ms: false when it was set), ascend_emu_cp_dma_end() gives it back.
 */
#define ASCEND_EMU_GROUP_DMA_JOBS	2
bool ascend_emu_cp_dma_begin(struct ascend_emu *emu, struct ascend_cp_group *grp,
			     const bool *abort);
void ascend_emu_cp_dma_end(struct ascend_emu *emu, struct ascend_cp_group *grp);

/*
 * A COPY, FILL or COPY_2D of at most %ASCEND_EMU_COPY_NOW_BYTES, executed
 * at once by the caller (the command processor itself,
 * ascend_emu_dma_direct()):
 * true with the fault code in *@code (and *@fault_addr), false when it
 * must go to ascend_emu_copy_cmd() instead.
 */
#define ASCEND_EMU_COPY_NOW_BYTES	SZ_4K
bool ascend_emu_copy_try_now(struct ascend_emu *emu, u32 asid,
			     const struct ascend_cmd *cmd, u32 *code,
			     u64 *fault_addr);

/* ascend_emu_queue.c: the device's side of a queue context */

/**
 * struct ascend_emu_queue - a started queue, as the command processor
 *	holds it (its context cache and execution state)
 * @emu: the device
 * @qid: the queue id
 * @ctx: the context queue_start latched
 * @page_va: CPU addresses of the area's pages (the emulator's view of the
 *	bus addresses of the page list, resolved once at start)
 * @status: the status page (page 0 of the area)
 * @report: the report, at @ctx.report
 * @rptr: commands fetched (command processor only)
 * @completed: commands completed (command processor or the finishing job)
 * @faulted: the queue faulted (or the driver halted it): nothing more is
 *	fetched
 * @printf_lock: serialises device printf of a launch's parallel blocks
 * @printf_head: printf bytes produced (under @printf_lock)
 * @printf_dropped: printf bytes dropped (under @printf_lock)
 * @cp_link: link in one of the command processor's lists, by what it
 *	waits for (&ascend_emu_cp.queues, .busy, .evwait or .asleep; under
 *	its lock)
 * @cp_asleep: on &ascend_emu_cp.asleep: NEED_WAKEUP is set and only a
 *	doorbell brings it back (under the command processor's lock)
 * @cp_stop: set by queue_stop; long-running work polls it to bail out
 * @cur_state: ASCEND_HW_QUEUE_*: what the command processor does with
 *	the command at @cur_seq; RUNNING -> IDLE by whoever finishes it,
 *	under the command processor's lock, after its completion or fault
 * @cur_seq: number of the stalled or running command
 * @cur_deadline: ktime_get_ns() deadline of that command, 0 = none
 * @cur_cmd: copy of the stalled command (command processor only)
 * @cur_entry: event table entry a stalled EVENT_WAIT watches
 * @cur_job: job of a running command (under the command processor's lock)
 * @grp: the scheduling group of &ascend_hw_queue_ctx.sched_group, held
 *	from queue_start to queue_stop
 */
/**
 * struct ascend_emu_call - the command list a queue runs (ASCEND_CMD_CALL)
 * @active: a CALL runs: the queue fetches from @list, not from the ring
 * @list: device VA of the list
 * @count: its commands
 * @pc: index of the list command to fetch next (while one runs: its own)
 * @next: where the list goes on when the running one completes (pc + 1
 *	unless a SWITCH or JUMP set it)
 * @steps: list commands fetched by this CALL
 * @seq: sequence number of the CALL
 * @win_first: list index of @win[0]
 * @win_n: commands in @win (0: none)
 * @win: list commands read ahead in one access (a list does not change
 *	while a CALL runs it, uAPI "Command lists")
 *
 * Used by the command processor thread, and by a job finishing the list
 * command handed off (the queue does not fetch while it runs).
 */
#define ASCEND_EMU_CALL_WINDOW	16

struct ascend_emu_call {
	bool active;
	u64 list;
	u32 count;
	u32 pc;
	u32 next;
	u32 steps;
	u64 seq;
	u32 win_first;
	u32 win_n;
	struct ascend_cmd win[ASCEND_EMU_CALL_WINDOW];
};

struct ascend_emu_queue {
	struct ascend_emu *emu;
	u32 qid;
	struct ascend_hw_queue_ctx ctx;
	void **page_va;
	struct ascend_queue_status *status;
	struct ascend_hw_queue_report *report;

	u64 rptr;
	u64 completed;
	bool faulted;

	bool ovf_detect;	/* the OverflowSwitch kernel's state */

	spinlock_t printf_lock;	/* printf_head, printf_dropped, the text */
	u64 printf_head;
	u64 printf_dropped;

	struct list_head cp_link;
	bool cp_asleep;
	bool cp_stop;
	u32 cur_state;
	u64 cur_seq;
	u64 cur_deadline;
	struct ascend_cmd cur_cmd;
	u32 cur_entry;
	void *cur_job;
	struct ascend_cp_group *grp;

	struct ascend_emu_call call;
};

/*
 * Latch @ctx and resolve its memory: a new queue, or an ERR_PTR (-EINVAL
 * for a context the device cannot use, -ENOMEM).
 */
struct ascend_emu_queue *ascend_emu_queue_new(struct ascend_emu *emu, u32 qid,
					      const struct ascend_hw_queue_ctx *ctx);
void ascend_emu_queue_free(struct ascend_emu_queue *q);

/*
 * The command processor's reads of a ring, inline: a call each was a tenth
 * of a small command's cost under emulation.
 *
 * Read the published wptr and check it against rptr: 0 and *@wptr, or
 * -EPROTO when it is behind rptr or more than a ring ahead.
 */
static inline int ascend_emu_queue_wptr(struct ascend_emu_queue *q, u64 *wptr)
{
	/* pairs with the user's release store of wptr */
	u64 w = smp_load_acquire(&q->status->wptr);

	/* the command processor alone moves rptr: one read of it will do */
	if (ascend_ring_check_wptr(q->rptr, q->rptr, w, q->ctx.ring_entries))
		return -EPROTO;
	*wptr = w;
	return 0;
}

/* Copy command number @n (from 0) out of the ring. */
static inline void ascend_emu_queue_fetch(struct ascend_emu_queue *q, u64 n,
					  struct ascend_cmd *cmd)
{
	u64 off = q->ctx.ring_offset +
		  (u64)ascend_ring_slot(n, q->ctx.ring_entries) * ASCEND_CMD_SIZE;

	/* a slot never crosses a page: the ring is page aligned */
	memcpy(cmd, q->page_va[off >> PAGE_SHIFT] + offset_in_page(off),
	       sizeof(*cmd));
}

/* @seq fetched: rptr in the report and on the status page. */
static inline void ascend_emu_queue_fetched(struct ascend_emu_queue *q,
					    u64 seq)
{
	/* release: the slot is copied before user space may reuse it */
	smp_store_release(&q->rptr, seq);
	WRITE_ONCE(q->report->rptr, cpu_to_le64(seq));
	WRITE_ONCE(q->status->rptr, seq);
}

/* Set the queue's notification bit and raise the line. */
void ascend_emu_queue_notify(struct ascend_emu_queue *q);

/*
 * After a change the driver may wait for: notify if it armed the report
 * for a completion count reached now.  The full barrier orders the change
 * before the reads of @irq_armed and @irq_seq; the driver orders its
 * stores of them before its read of the report.  Inline, with the
 * completion below: every command ends here.
 */
static inline void ascend_emu_queue_changed(struct ascend_emu_queue *q)
{
	struct ascend_hw_queue_report *r = q->report;

	/* the change is seen before the arm is read (the driver: reverse) */
	smp_mb();
	/* acquire: the target stored before the arm is read after it */
	if (smp_load_acquire(&r->irq_armed) &&
	    le64_to_cpu(READ_ONCE(r->irq_seq)) <= q->completed &&
	    xchg(&r->irq_armed, cpu_to_le32(0)))
		ascend_emu_queue_notify(q);
}

/* @seq completed (after its side effects); notifies if armed. */
static inline void ascend_emu_queue_complete(struct ascend_emu_queue *q,
					     u64 seq)
{
	WRITE_ONCE(q->completed, seq);
	/* release: the command's side effects are seen with its completion */
	smp_store_release(&q->report->completed, cpu_to_le64(seq));
	/* the page mirror, for user space's acquire load */
	smp_store_release(&q->status->completed, seq);
	ascend_emu_queue_changed(q);
}

/* The first fault: into the report, then always a notification. */
void ascend_emu_queue_fault(struct ascend_emu_queue *q, u32 fault, u64 seq,
			    u64 addr, u32 opcode);
/* A handed-off command started (@busy) or returned; notifies if armed. */
void ascend_emu_queue_busy(struct ascend_emu_queue *q, bool busy);
/* Set or clear NEED_WAKEUP on the status page. */
void ascend_emu_queue_need_wakeup(struct ascend_emu_queue *q, bool on);
/* Write @len bytes at offset @off of the area (wraps nothing). */
void ascend_emu_queue_area_write(struct ascend_emu_queue *q, u64 off,
				 const void *buf, size_t len);

/* ascend_emu_cp.c */
/*
 * The command processor's and AI cores' access to memory by VA in @q's
 * address space: ascend_emu_smmu_rw() with the queue's ASID and its peer
 * windows.
 */
int ascend_emu_vm_rw(struct ascend_emu_queue *q, u64 va, void *buf,
		     size_t len, bool write);
int ascend_emu_cp_init(struct ascend_emu *emu);
void ascend_emu_cp_fini(struct ascend_emu *emu);
/* hw ops queue_start, queue_stop, queue_doorbell, queue_info */
int ascend_emu_queue_start(struct ascend_hw_device *hw, u32 qid,
			   const struct ascend_hw_queue_ctx *ctx);
void ascend_emu_queue_stop(struct ascend_hw_device *hw, u32 qid);
void ascend_emu_queue_doorbell(struct ascend_hw_device *hw, u32 qid);
int ascend_emu_queue_info(struct ascend_hw_device *hw, u32 qid,
			  struct ascend_hw_queue_info *info);
void ascend_emu_queue_halt(struct ascend_hw_device *hw, u32 qid);
/* hw op set_cmd_timeout */
void ascend_emu_set_cmd_timeout(struct ascend_hw_device *hw, u32 ms);

/* ascend_emu_event.c: event slots, event tables, notifications */
/**
 * struct ascend_emu_evref - an event slot a table entry names
 * @owner: the device whose event memory holds it (this one or a remote)
 * @slot: the slot there
 * @entry: the entry itself, to tell whether a handle still names it
 */
struct ascend_emu_evref {
	struct ascend_emu *owner;
	u32 slot;
	u32 entry;
};

/*
 * The slot event @handle names in the event table at @table: 0 and
 * *@ref, or -ENOENT (no such event).  Inside an access section, so that
 * event_sync() waits for the use of what it found, and @ref->owner stays
 * valid until the section ends.
 */
int ascend_emu_event_lookup(struct ascend_emu *emu, u64 table, u32 handle,
			    struct ascend_emu_evref *ref);
/* Record @gen in @slot of @emu's event memory (max), then notify. */
void ascend_emu_event_record(struct ascend_emu *emu, u32 slot, u64 gen);
/*
 * An EVENT_RECORD of @emu's command processor: ascend_emu_event_lookup()
 * of @handle in @table, then ascend_emu_event_record() of @gen in the slot
 * found, kicking its owner if that is another device, in one call.  0, or
 * -ENOENT (no such event).  Inside an access section.
 */
int ascend_emu_event_record_handle(struct ascend_emu *emu, u64 table,
				   u32 handle, u64 gen);
/* The generation the slot completed (acquire). */
u64 ascend_emu_event_gen(const struct ascend_emu_evref *ref);
/* hw ops event_signal, event_sync, set_event_notify */
void ascend_emu_event_signal(struct ascend_hw_device *hw, u32 slot, u64 gen);
void ascend_emu_event_sync(struct ascend_hw_device *hw);
void ascend_emu_set_event_notify(struct ascend_hw_device *hw, u64 bus_addr);
/* Raise the device's interrupt line (after setting notification bits). */
void ascend_emu_raise_irq(struct ascend_emu *emu);
/* Wake the command processor: parked queues re-check (ascend_emu_cp.c). */
void ascend_emu_cp_kick(struct ascend_emu *emu);
/* A slot of @emu's event memory reached a new generation (after the store). */
void ascend_emu_cp_event_recorded(struct ascend_emu *emu);

/* ascend_emu_kernels.c: the built-in kernels, device printf */
u32 ascend_emu_query_kernels(struct ascend_hw_device *hw,
			     struct drm_ascend_kernel_info *out, u32 max);

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

/**
 * struct ascend_emu_slice - a block's turn on an AI core (time slicing)
 * @pos: where the block resumes: 0 at its start, else the progress a
 *	kernel stored when it yielded (its own loop cursor: the kernels'
 *	state between poll points is that cursor alone)
 * @start: ktime_get_ns() when the turn, or its last extension, began
 * @charged: up to when its core time was charged to its group
 */
struct ascend_emu_slice {
	u64 pos;
	u64 start;
	u64 charged;
};

/*
 * At a poll point of a block running on an AI core (ascend_emu_cp.c): has
 * its turn lasted a time slice while a group with no more core time than
 * its own waits for a core?  Then it yields.  Cheap while nobody waits.
 */
bool ascend_emu_core_yield_due(struct ascend_emu_slice *sl);

/*
 * Run block @block of @l on one AI core with @scratch
 * (ASCEND_EMU_SCRATCH_SIZE bytes).  The block bails out with
 * ASCEND_FAULT_ABORTED when @q->cp_stop or *@abort becomes true.  With
 * @sl it resumes at @sl->pos and may yield its core at a poll point.
 * Returns 0, -EAGAIN when it yielded (@sl->pos says where it resumes), or
 * fills @f and returns -EIO.
 */
int ascend_emu_kernel_run(struct ascend_emu_queue *q,
			  const struct ascend_emu_kernel *kern,
			  const struct ascend_cmd_launch *l, u32 block,
			  void *scratch, const bool *abort,
			  struct ascend_emu_slice *sl,
			  struct ascend_emu_fault *f);

/*
 * Execute all of @l on the calling thread, block after block: launch
 * checks it first (for tests), run_all takes what prepare returned.
 * Returns 0 or fills @f and returns -EIO.
 */
int ascend_emu_kernel_launch(struct ascend_emu_queue *q,
			     const struct ascend_cmd_launch *l, void *scratch,
			     struct ascend_emu_fault *f);
int ascend_emu_kernel_run_all(struct ascend_emu_queue *q,
			      const struct ascend_emu_kernel *kern,
			      const struct ascend_cmd_launch *l, u32 runs,
			      void *scratch, struct ascend_emu_fault *f);

/* IEEE-754 binary32 a + b, round to nearest even (the AddF32 kernel). */
u32 ascend_f32_add(u32 a, u32 b);

/* ascend_emu_rng.c: the RandomNum kernel's generator and soft float */
/* Philox-4x32-10 of counter @ctr under key @key. */
void ascend_philox4x32_10(const u32 ctr[4], const u32 key[2], u32 out[4]);
/* @out = 128-bit little-endian @base + @n. */
void ascend_rng_ctr_add(const u32 base[4], u64 n, u32 out[4]);
/* binary32 a * b, round to nearest even. */
u32 ascend_f32_mul(u32 a, u32 b);
/* The binary32 nearest @v * 2^-@frac. */
u32 ascend_f32_from_fixed(s64 v, unsigned int frac);
/* a < b (false when either is NaN; -0 == +0). */
bool ascend_f32_lt(u32 a, u32 b);
u32 ascend_f16_to_f32(u16 h);
u16 ascend_f32_to_f16(u32 f);		/* round to nearest even */
u32 ascend_bf16_to_f32(u16 h);
u16 ascend_f32_to_bf16(u32 f);		/* round to nearest even */
/* Two standard normal values (Q32 fixed point) from two uniform words. */
void ascend_rng_normal2(u32 w0, u32 w1, s64 *z0, s64 *z1);

/* ascend_emu_reduce.c: the element operations of ASCEND_DMA_REDUCE */
/* Bytes of one element of ASCEND_REDUCE_* type @dtype; 0: no such type. */
unsigned int ascend_reduce_elem_size(u32 dtype);
/* Is @op one of ASCEND_REDUCE_SUM, _MAX, _MIN? */
bool ascend_reduce_op_valid(u32 op);
/* @op(@a, @b) of one element of type @dtype (in the low bits). */
u32 ascend_reduce_one(u32 op, u32 dtype, u32 a, u32 b);
/* dst[i] = @op(dst[i], src[i]) over @bytes (whole elements) of @dtype. */
void ascend_reduce_apply(u32 op, u32 dtype, void *dst, const void *src,
			 size_t bytes);

/* Device printf into @q's printf buffer (takes @q->printf_lock). */
__printf(2, 3)
void ascend_emu_printf(struct ascend_emu_queue *q, const char *fmt, ...);

#endif /* __ASCEND_EMU_H__ */
