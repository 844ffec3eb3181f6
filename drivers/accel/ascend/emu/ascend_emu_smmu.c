// SPDX-License-Identifier: GPL-2.0-only
/*
 * The emulated NPU's SMMU: page-table walker and TLB.
 *
 * The device translates device VAs (%ASCEND_AS_VA) itself, through the
 * page tables the driver wrote into device memory (format: ascend_hw.h and
 * Documentation/hardware.rst, "Device MMU").  It reads them only through
 * its own memory access (ascend_emu_hbm_rw(), for peer tables the peer
 * device's), never a driver structure.  The context registers (root table
 * and peer window table per ASID) are set by the mmu_set_context
 * operation; the TLB is flushed by mmu_invalidate.
 *
 * The TLB holds ASCEND_EMU_TLB_SIZE entries, each a run of VA mapping to
 * contiguous output addresses with one set of attributes: a leaf, or
 * neighbouring 4 KiB leaves that happen to be contiguous (a miss at level
 * 3 reads up to ASCEND_EMU_SMMU_BURST descriptors at once and installs
 * what they map).  Only valid leaves are cached; translations through a
 * peer window are not cached (the peer's unmaps invalidate the peer's
 * TLB, not this one).  Entries are replaced round robin.  A walk runs
 * without the lock; its result is installed only if no invalidation
 * happened meanwhile (@gen), so an invalidation is never undone by a walk
 * that started before it.  A lookup takes no lock: it reads the entries
 * under @seq and tries again when an insert or a flush ran meanwhile
 * (every access translates, and a lock pair per translation was a fifth
 * of a small copy's cost).
 *
 * An invalidation also waits for the accesses in flight: every access by
 * VA (a step of a DMA transfer, a command processor or AI-core access) is
 * translated and performed inside ascend_emu_smmu_access_begin()/_end(),
 * and mmu_invalidate and mmu_set_context return only once the accesses
 * that had begun are over (like an SMMU's sync command).  So when the
 * driver has cleared a descriptor and invalidated, it may free the memory
 * it mapped: no engine still writes there, and the device needs no driver
 * lock held across its work.  Accesses through a peer window use another
 * device's tables, so the wait covers every emulated NPU: one read-write
 * semaphore for all of them, read by accesses (at most one step long,
 * never nested), written -- taken and let go at once -- by invalidations.
 */
#include <linux/rwsem.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include "ascend_emu.h"
#include "ascend_hw.h"

#define ASCEND_EMU_TLB_SIZE	BITS_PER_LONG	/* 64: one word of @used */
#define ASCEND_EMU_SMMU_BURST	16

/**
 * struct ascend_emu_tlb_entry - one cached translation
 * @va: first VA covered
 * @len: bytes covered; 0 = unused entry
 * @out: output address of @va
 * @asid: address space
 * @as: address space of @out (%ASCEND_AS_HBM, %ASCEND_AS_SYS, a peer)
 * @write: writable
 */
struct ascend_emu_tlb_entry {
	u64 va;
	u64 len;
	u64 out;
	u32 asid;
	u32 as;
	bool write;
};

/**
 * struct ascend_emu_mmu_ctx - the context registers of one ASID
 * @root: device-physical address of the level-0 table
 * @peers: device-physical address of the peer window table, or 0
 * @overflow: the CTX_OVERFLOW status (bit 0: a float kernel overflowed)
 * @prq: register CTX_PRQ: a range that does not translate is requested
 */
struct ascend_emu_mmu_ctx {
	u64 root;
	u64 peers;
	u32 overflow;
	bool prq;
};

/**
 * struct ascend_emu_smmu - the SMMU of one emulated NPU
 * @emu: the device
 * @ctx: ASID -> &struct ascend_emu_mmu_ctx
 * @lock: protects the contents of the @ctx entries, @tlb, @gen, @used and
 *	@next against each other's writers (entries are added to @ctx before
 *	and removed under it)
 * @seq: written with @lock around every change of @tlb and @used, for the
 *	lookups, which take no lock
 * @gen: bumped by every invalidation
 * @used: bit i set: @tlb[i] is in use
 * @next: the TLB entry replaced next
 * @mru: the TLB entries that hit last, most recent first (looked at first:
 *	a copy alternates between its two sides); a hint, written by lookups
 *	without the lock
 * @tlb: the TLB
 * @prq_lock: protects @prq_busy, @prq_done, @prq_gone and @prq_status
 * @prq_busy: bit i: page request slot i holds a request not yet answered
 *	or not yet collected by its requester
 * @prq_done: bit i: slot i was answered, @prq_status[i] holds the answer
 * @prq_gone: bit i: the requester of slot i stopped waiting; the answer
 *	frees the slot
 * @prq_dead: the device is going: requests fault at once
 * @prq_wq: requesters waiting for a slot or an answer
 * @prq_status: the answers
 */
struct ascend_emu_smmu {
	struct ascend_emu *emu;
	struct xarray ctx;
	spinlock_t lock;	/* ctx contents, tlb, gen, used, next */
	seqcount_spinlock_t seq;
	u64 gen;
	unsigned long used;
	unsigned int next;
	unsigned int mru[2];
	struct ascend_emu_tlb_entry tlb[ASCEND_EMU_TLB_SIZE];
	spinlock_t prq_lock;	/* prq_busy, prq_done, prq_gone, prq_status */
	unsigned long prq_busy;
	unsigned long prq_done;
	unsigned long prq_gone;
	bool prq_dead;
	wait_queue_head_t prq_wq;
	u8 prq_status[ASCEND_HW_PRQ_SLOTS];
};

/* Accesses by VA in flight on any emulated NPU (read side, one step each). */
DECLARE_RWSEM(ascend_emu_access_sem);

void ascend_emu_smmu_sync(void)
{
	down_write(&ascend_emu_access_sem);
	up_write(&ascend_emu_access_sem);
}

int ascend_emu_smmu_init(struct ascend_emu *emu)
{
	struct ascend_emu_smmu *smmu;

	/* the request slots are the bits of one word (prq_busy, prq_done) */
	BUILD_BUG_ON(ASCEND_HW_PRQ_SLOTS != BITS_PER_LONG);
	smmu = kzalloc(sizeof(*smmu), GFP_KERNEL);
	if (!smmu)
		return -ENOMEM;
	smmu->emu = emu;
	xa_init(&smmu->ctx);
	spin_lock_init(&smmu->lock);
	seqcount_spinlock_init(&smmu->seq, &smmu->lock);
	spin_lock_init(&smmu->prq_lock);
	init_waitqueue_head(&smmu->prq_wq);
	emu->smmu = smmu;
	return 0;
}

/*
 * Requesters still waiting give up (fault) now.  Called before the
 * engines and the command processor are stopped, so that none of them
 * waits the full timeout for a driver that no longer answers.
 */
void ascend_emu_smmu_prq_stop(struct ascend_emu *emu)
{
	struct ascend_emu_smmu *smmu = emu->smmu;

	if (!smmu)
		return;
	spin_lock(&smmu->prq_lock);
	smmu->prq_dead = true;
	spin_unlock(&smmu->prq_lock);
	wake_up_all(&smmu->prq_wq);
}

void ascend_emu_smmu_fini(struct ascend_emu *emu)
{
	struct ascend_emu_smmu *smmu = emu->smmu;
	struct ascend_emu_mmu_ctx *ctx;
	unsigned long asid;

	if (!smmu)
		return;
	xa_for_each(&smmu->ctx, asid, ctx)
		kfree(ctx);
	xa_destroy(&smmu->ctx);
	kfree(smmu);
	emu->smmu = NULL;
}

/* Drop @asid's entries overlapping [va, va + len); @lock held. */
static inline void ascend_emu_tlb_flush_locked(struct ascend_emu_smmu *smmu,
					       u32 asid, u64 va, u64 len)
{
	u64 end = len > U64_MAX - va ? U64_MAX : va + len;
	unsigned int i;

	write_seqcount_begin(&smmu->seq);
	for_each_set_bit(i, &smmu->used, ASCEND_EMU_TLB_SIZE) {
		struct ascend_emu_tlb_entry *e = &smmu->tlb[i];

		/* entries lie below 2^48: no overflow */
		if (e->asid == asid && e->va < end && va < e->va + e->len) {
			e->len = 0;
			__clear_bit(i, &smmu->used);
		}
	}
	write_seqcount_end(&smmu->seq);
	smmu->gen++;
}

void ascend_emu_mmu_invalidate(struct ascend_hw_device *hw, u32 asid, u64 va,
			       u64 len)
{
	struct ascend_emu *emu = to_ascend_emu(hw);
	struct ascend_emu_smmu *smmu = emu ? emu->smmu : NULL;

	/* a device already torn down holds no translations */
	if (!smmu || !len)
		return;
	spin_lock(&smmu->lock);
	ascend_emu_tlb_flush_locked(smmu, asid, va, len);
	spin_unlock(&smmu->lock);
	ascend_emu_smmu_sync();
}

void ascend_emu_mmu_set_context(struct ascend_hw_device *hw, u32 asid,
				u64 root, u64 peers)
{
	struct ascend_emu *emu = to_ascend_emu(hw);
	struct ascend_emu_smmu *smmu = emu ? emu->smmu : NULL;
	struct ascend_emu_mmu_ctx *ctx, *old;

	if (!smmu)
		return;
	ctx = xa_load(&smmu->ctx, asid);
	if (!root) {
		spin_lock(&smmu->lock);
		old = xa_erase(&smmu->ctx, asid);
		ascend_emu_tlb_flush_locked(smmu, asid, 0, U64_MAX);
		spin_unlock(&smmu->lock);
		kfree(old);
		ascend_emu_smmu_sync();
		return;
	}
	if (!ctx) {
		ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
		/* a context the device cannot hold translates nothing */
		if (!ctx)
			return;
		ctx->root = root;
		ctx->peers = peers;
		old = xa_store(&smmu->ctx, asid, ctx, GFP_KERNEL);
		if (xa_is_err(old)) {
			kfree(ctx);
			return;
		}
	}
	spin_lock(&smmu->lock);
	ctx->root = root;
	ctx->peers = peers;
	ascend_emu_tlb_flush_locked(smmu, asid, 0, U64_MAX);
	spin_unlock(&smmu->lock);
	ascend_emu_smmu_sync();
}

void ascend_emu_mmu_page_requests(struct ascend_hw_device *hw, u32 asid,
				  bool on)
{
	struct ascend_emu *emu = to_ascend_emu(hw);
	struct ascend_emu_smmu *smmu = emu ? emu->smmu : NULL;
	struct ascend_emu_mmu_ctx *ctx;

	if (!smmu)
		return;
	spin_lock(&smmu->lock);
	ctx = xa_load(&smmu->ctx, asid);
	if (ctx)
		ctx->prq = on;
	spin_unlock(&smmu->lock);
}

void ascend_emu_mmu_page_response(struct ascend_hw_device *hw, u32 slot,
				  u32 status)
{
	struct ascend_emu *emu = to_ascend_emu(hw);
	struct ascend_emu_smmu *smmu = emu ? emu->smmu : NULL;

	if (!smmu || slot >= ASCEND_HW_PRQ_SLOTS)
		return;
	spin_lock(&smmu->prq_lock);
	if (test_bit(slot, &smmu->prq_busy) &&
	    !test_bit(slot, &smmu->prq_done)) {
		if (__test_and_clear_bit(slot, &smmu->prq_gone)) {
			__clear_bit(slot, &smmu->prq_busy);
		} else {
			smmu->prq_status[slot] = status;
			__set_bit(slot, &smmu->prq_done);
		}
	}
	spin_unlock(&smmu->prq_lock);
	wake_up_all(&smmu->prq_wq);
}

/* A free request slot, claimed; -EBUSY if none, -ENODEV once going. */
static int ascend_emu_prq_claim(struct ascend_emu_smmu *smmu)
{
	int slot = -EBUSY;

	spin_lock(&smmu->prq_lock);
	if (smmu->prq_dead) {
		slot = -ENODEV;
	} else if (smmu->prq_busy != ~0UL) {
		slot = ffz(smmu->prq_busy);
		__set_bit(slot, &smmu->prq_busy);
	}
	spin_unlock(&smmu->prq_lock);
	return slot;
}

/* Wait (at most @timeout) for a free slot: the slot, or a negative errno. */
static int ascend_emu_prq_wait_slot(struct ascend_emu_smmu *smmu,
				    unsigned long timeout)
{
	int slot = ascend_emu_prq_claim(smmu);

	while (slot == -EBUSY && timeout) {
		timeout = wait_event_timeout(smmu->prq_wq,
					     smmu->prq_busy != ~0UL ||
					     READ_ONCE(smmu->prq_dead), timeout);
		slot = ascend_emu_prq_claim(smmu);
	}
	return slot;
}

static bool ascend_emu_prq_answered(struct ascend_emu_smmu *smmu, int slot)
{
	bool done;

	spin_lock(&smmu->prq_lock);
	done = test_bit(slot, &smmu->prq_done) || smmu->prq_dead;
	spin_unlock(&smmu->prq_lock);
	return done;
}

int ascend_emu_smmu_request(struct ascend_emu *emu, u32 asid, u64 va,
			    bool write)
{
	struct ascend_emu_smmu *smmu = emu->smmu;
	unsigned long timeout = msecs_to_jiffies(ASCEND_HW_PRQ_TIMEOUT_MS);
	struct ascend_hw_page_request *req;
	struct ascend_emu_mmu_ctx *ctx;
	u64 area = READ_ONCE(emu->event_notify);
	unsigned long *word;
	u32 status = ASCEND_HW_PRQ_FAULT;
	bool prq;
	int slot;

	spin_lock(&smmu->lock);
	ctx = xa_load(&smmu->ctx, asid);
	prq = ctx && ctx->prq;
	spin_unlock(&smmu->lock);
	if (!prq || !area)
		return -EFAULT;
	word = ascend_emu_sys_ptr(emu, area + ASCEND_HW_NOTIFY_PRQ_WORD *
				  sizeof(u64));
	req = ascend_emu_sys_ptr(emu, area + ASCEND_HW_NOTIFY_PRQ_SLOTS);
	if (!word || !req)
		return -EFAULT;
	might_sleep();
	slot = ascend_emu_prq_wait_slot(smmu, timeout);
	if (slot < 0)
		return -EFAULT;

	req += slot;
	WRITE_ONCE(req->va, cpu_to_le64(va));
	WRITE_ONCE(req->asid, cpu_to_le32(asid));
	WRITE_ONCE(req->flags, cpu_to_le32(write ? ASCEND_HW_PRQ_WRITE : 0));
	/* the request is seen before its bit (the driver reads after it) */
	smp_mb__before_atomic();
	set_bit(slot, word);
	ascend_emu_raise_irq(emu);
	wait_event_timeout(smmu->prq_wq, ascend_emu_prq_answered(smmu, slot),
			   timeout);

	spin_lock(&smmu->prq_lock);
	if (__test_and_clear_bit(slot, &smmu->prq_done)) {
		status = smmu->prq_status[slot];
		__clear_bit(slot, &smmu->prq_busy);
	} else {
		/* unanswered: the slot is freed by its late answer */
		__set_bit(slot, &smmu->prq_gone);
	}
	spin_unlock(&smmu->prq_lock);
	wake_up_all(&smmu->prq_wq);
	return status == ASCEND_HW_PRQ_RETRY ? 0 : -EFAULT;
}

void ascend_emu_smmu_overflow_set(struct ascend_emu *emu, u32 asid)
{
	struct ascend_emu_smmu *smmu = emu->smmu;
	struct ascend_emu_mmu_ctx *ctx;

	if (!smmu || !asid)
		return;
	spin_lock(&smmu->lock);
	ctx = xa_load(&smmu->ctx, asid);
	if (ctx)
		ctx->overflow |= 1;
	spin_unlock(&smmu->lock);
}

u32 ascend_emu_smmu_overflow_get(struct ascend_emu *emu, u32 asid, bool clear)
{
	struct ascend_emu_smmu *smmu = emu->smmu;
	struct ascend_emu_mmu_ctx *ctx;
	u32 v = 0;

	if (!smmu || !asid)
		return 0;
	spin_lock(&smmu->lock);
	ctx = xa_load(&smmu->ctx, asid);
	if (ctx) {
		v = ctx->overflow;
		if (clear)
			ctx->overflow = 0;
	}
	spin_unlock(&smmu->lock);
	return v;
}

static bool ascend_emu_tlb_hit(const struct ascend_emu_tlb_entry *e, u32 asid,
			       u64 va)
{
	return e->len && e->asid == asid && va - e->va < e->len;
}

/*
 * The TLB entry holding @va for @asid, or -1; copied to @out.  Inside a
 * read section of @seq: what it reads may be torn, and is then not used.
 * Entries are compared where they lie, and only a hit is copied.
 */
static int ascend_emu_tlb_find(struct ascend_emu_smmu *smmu, u32 asid, u64 va,
			       struct ascend_emu_tlb_entry *out)
{
	unsigned long used = READ_ONCE(smmu->used);
	unsigned int i, k;

	for (k = 0; k < ARRAY_SIZE(smmu->mru); k++) {
		i = READ_ONCE(smmu->mru[k]) % ASCEND_EMU_TLB_SIZE;
		if (ascend_emu_tlb_hit(&smmu->tlb[i], asid, va))
			goto hit;
	}
	for_each_set_bit(i, &used, ASCEND_EMU_TLB_SIZE)
		if (ascend_emu_tlb_hit(&smmu->tlb[i], asid, va))
			goto hit;
	return -1;
hit:
	*out = smmu->tlb[i];
	return i;
}

/* A TLB entry holding @va for @asid, copied to @out; no lock needed. */
static bool ascend_emu_tlb_lookup(struct ascend_emu_smmu *smmu, u32 asid,
				  u64 va, struct ascend_emu_tlb_entry *out)
{
	unsigned int seq;
	int i;

	do {
		seq = read_seqcount_begin(&smmu->seq);
		i = ascend_emu_tlb_find(smmu, asid, va, out);
	} while (read_seqcount_retry(&smmu->seq, seq));
	if (i < 0)
		return false;
	if (READ_ONCE(smmu->mru[0]) != i) {
		WRITE_ONCE(smmu->mru[1], READ_ONCE(smmu->mru[0]));
		WRITE_ONCE(smmu->mru[0], i);
	}
	return true;
}

static void ascend_emu_tlb_insert(struct ascend_emu_smmu *smmu,
				  const struct ascend_emu_tlb_entry *e,
				  unsigned int n, u64 gen)
{
	unsigned int i;

	spin_lock(&smmu->lock);
	if (smmu->gen == gen) {
		write_seqcount_begin(&smmu->seq);
		for (i = 0; i < n; i++) {
			smmu->tlb[smmu->next] = e[i];
			__set_bit(smmu->next, &smmu->used);
			smmu->next = (smmu->next + 1) % ASCEND_EMU_TLB_SIZE;
		}
		write_seqcount_end(&smmu->seq);
	}
	spin_unlock(&smmu->lock);
}

/* Is @d a well-formed leaf (at @level)? */
static bool ascend_emu_pte_leaf_ok(u64 d, unsigned int level)
{
	u64 span = BIT_ULL(ASCEND_MMU_SHIFT(level));

	return (d & ASCEND_PTE_VALID) && !(d & ASCEND_PTE_TABLE) &&
	       !(d & ASCEND_PTE_RSVD_MASK) && level &&
	       IS_ALIGNED(d & ASCEND_PTE_ADDR_MASK, span);
}

static void ascend_emu_pte_entry(u64 d, unsigned int level, u64 va, u32 asid,
				 struct ascend_emu_tlb_entry *e)
{
	u64 span = BIT_ULL(ASCEND_MMU_SHIFT(level));

	e->va = va & ~(span - 1);
	e->len = span;
	e->out = d & ASCEND_PTE_ADDR_MASK;
	e->asid = asid;
	e->as = (d & ASCEND_PTE_AS_MASK) >> ASCEND_PTE_AS_SHIFT;
	e->write = d & ASCEND_PTE_WRITE;
}

/*
 * Walk the tables at @root in the memory of @mem for @va.  The leaf goes
 * to @e[0]; at level 3 the following contiguous leaves are merged into it
 * and further ones (up to ASCEND_EMU_SMMU_BURST descriptors, the first
 * invalid one ends them) go to @e[1..]: returns the number of entries
 * filled, or -EFAULT (no leaf, a malformed descriptor, a table outside
 * device memory).
 */
static int ascend_emu_smmu_walk(struct ascend_emu *mem, u64 root, u32 asid,
				u64 va, struct ascend_emu_tlb_entry *e)
{
	__le64 burst[ASCEND_EMU_SMMU_BURST];
	u64 table = root, d;
	unsigned int level, idx, n, i, k;

	if (va >= BIT_ULL(ASCEND_MMU_VA_BITS))
		return -EFAULT;
	for (level = 0; level < ASCEND_MMU_LEVELS; level++) {
		idx = ascend_mmu_index(va, level);
		if (level == ASCEND_MMU_LEVELS - 1)
			break;
		if (ascend_emu_hbm_rw(&mem->hw, table + idx * sizeof(d), &burst[0],
				      sizeof(burst[0]), false))
			return -EFAULT;
		d = le64_to_cpu(burst[0]);
		if (!(d & ASCEND_PTE_VALID) || (d & ASCEND_PTE_RSVD_MASK))
			return -EFAULT;
		if (!(d & ASCEND_PTE_TABLE)) {
			if (!ascend_emu_pte_leaf_ok(d, level))
				return -EFAULT;
			ascend_emu_pte_entry(d, level, va, asid, e);
			return 1;
		}
		if (d & ASCEND_PTE_AS_MASK)
			return -EFAULT;	/* tables are in this memory */
		table = d & ASCEND_PTE_ADDR_MASK;
	}

	/*
	 * level 3: a burst of descriptors from @va's on, in one read; what
	 * they map is cached (a transfer of small pieces walks each table
	 * once per burst, not once per page)
	 */
	n = min_t(u64, ASCEND_MMU_ENTRIES - idx, ASCEND_EMU_SMMU_BURST);
	if (ascend_emu_hbm_rw(&mem->hw, table + idx * sizeof(d), burst,
			      n * sizeof(burst[0]), false))
		return -EFAULT;
	d = le64_to_cpu(burst[0]);
	if (!ascend_emu_pte_leaf_ok(d, level))
		return -EFAULT;
	ascend_emu_pte_entry(d, level, va, asid, &e[0]);
	k = 1;
	for (i = 1; i < n; i++) {
		struct ascend_emu_tlb_entry *last = &e[k - 1];

		d = le64_to_cpu(burst[i]);
		if (!ascend_emu_pte_leaf_ok(d, level))
			break;
		ascend_emu_pte_entry(d, level, (va & ~(u64)(SZ_4K - 1)) +
				     (u64)i * SZ_4K, asid, &e[k]);
		if (e[k].as == last->as && e[k].write == last->write &&
		    e[k].out == last->out + last->len)
			last->len += SZ_4K;	/* contiguous: one entry */
		else
			k++;
	}
	return k;
}

/* Through the peer window table at @peers: -EFAULT if no window has @va. */
static int ascend_emu_smmu_walk_peers(struct ascend_emu *emu, u64 peers,
				      u32 asid, u64 va, u64 len,
				      struct ascend_emu_tlb_entry *e)
{
	struct ascend_mmu_peer_entry pe;
	unsigned int i;

	for (i = 0; i < ASCEND_MMU_PEER_MAX; i++) {
		struct ascend_emu *peer;
		u64 base, size;
		u32 dev;
		int n;

		if (ascend_emu_hbm_rw(&emu->hw, peers + i * sizeof(pe), &pe,
				      sizeof(pe), false))
			return -EFAULT;
		if (!(le32_to_cpu(pe.flags) & ASCEND_MMU_PEER_VALID))
			return -EFAULT;
		base = le64_to_cpu(pe.base);
		size = le64_to_cpu(pe.size);
		if (va - base >= size)
			continue;
		dev = le32_to_cpu(pe.dev);
		peer = ascend_emu_peer(ASCEND_AS_PEER(dev));
		if (!peer || dev >= ASCEND_AS_PEER_MAX)
			return -EFAULT;
		n = ascend_emu_smmu_walk(peer, le64_to_cpu(pe.root), asid,
					 va, e);
		/* a peer's window holds only its HBM */
		if (n < 0 || e[0].as != ASCEND_AS_HBM)
			return -EFAULT;
		e[0].as = ASCEND_AS_PEER(dev);
		return 1;
	}
	return -EFAULT;
}

/*
 * A TLB miss: walk the tables (or the peer windows) into @hit, installing
 * what the walk read.  Apart from the hit path, because its burst of
 * entries is a large stack array, zeroed on every call by a kernel built
 * to initialise its stack.
 */
static noinline int ascend_emu_smmu_miss(struct ascend_emu *emu, u32 asid,
					 u64 va, u64 len, bool peers,
					 struct ascend_emu_tlb_entry *hit)
{
	struct ascend_emu_tlb_entry e[ASCEND_EMU_SMMU_BURST];
	struct ascend_emu_smmu *smmu = emu->smmu;
	struct ascend_emu_mmu_ctx *ctx;
	u64 root, ptab, gen;
	int n;

	spin_lock(&smmu->lock);
	ctx = xa_load(&smmu->ctx, asid);
	root = ctx ? ctx->root : 0;
	ptab = ctx ? ctx->peers : 0;
	gen = smmu->gen;
	spin_unlock(&smmu->lock);
	if (!root)
		return -EFAULT;

	n = ascend_emu_smmu_walk(emu, root, asid, va, e);
	if (n > 0)
		ascend_emu_tlb_insert(smmu, e, n, gen);
	else if (peers && ptab)
		n = ascend_emu_smmu_walk_peers(emu, ptab, asid, va, len, e);
	if (n < 0)
		return n;
	*hit = e[0];
	return 0;
}

int ascend_emu_smmu_xlate(struct ascend_emu *emu, u32 asid, u64 va, u64 len,
			  bool write, bool peers, struct ascend_dma_span *span)
{
	struct ascend_emu_tlb_entry e;
	int ret;

	if (!len || !asid)
		return -EFAULT;
	if (!ascend_emu_tlb_lookup(emu->smmu, asid, va, &e)) {
		ret = ascend_emu_smmu_miss(emu, asid, va, len, peers, &e);
		if (ret)
			return ret;
	}
	if (write && !e.write)
		return -EFAULT;
	span->addr = e.out + (va - e.va);
	span->len = min(len, e.len - (va - e.va));
	span->as = e.as;
	return 0;
}

int ascend_emu_smmu_check_in(struct ascend_emu *emu, u32 asid, u64 va,
			     u64 len, bool write, bool peers, u64 *fault)
{
	struct ascend_dma_span s;
	int ret;

	while (len) {
		ret = ascend_emu_smmu_xlate(emu, asid, va, len, write, peers, &s);
		if (ret) {
			*fault = va;
			return ret;
		}
		va += s.len;
		len -= s.len;
	}
	return 0;
}

int ascend_emu_smmu_check(struct ascend_emu *emu, u32 asid, u64 va, u64 len,
			  bool write, bool peers, u64 *fault)
{
	unsigned int tries = ASCEND_HW_PRQ_RETRIES;
	int ret;

	for (;;) {
		/* a walk reads page-table memory: never beside its discard */
		ascend_emu_smmu_access_begin();
		ret = ascend_emu_smmu_check_in(emu, asid, va, len, write,
					       peers, fault);
		ascend_emu_smmu_access_end();
		if (ret != -EFAULT || !tries--)
			return ret;
		/* a page request, if the address space takes them */
		if (ascend_emu_smmu_request(emu, asid, *fault, write))
			return ret;
	}
}

int ascend_emu_smmu_rw(struct ascend_emu *emu, u32 asid, u64 va, void *buf,
		       size_t len, bool write, bool peers)
{
	unsigned int tries = ASCEND_HW_PRQ_RETRIES;
	struct ascend_dma_span s;
	u64 end, fault;
	int ret;

	if (!len || check_add_overflow(va, (u64)len, &end))
		return -EINVAL;
	ascend_emu_smmu_access_begin();
	/* the whole range is checked before any byte moves */
	ret = ascend_emu_smmu_check_in(emu, asid, va, len, write, peers,
				       &fault);
	while (ret == -EFAULT && tries--) {
		/* a page request, answered outside the access section */
		ascend_emu_smmu_access_end();
		if (ascend_emu_smmu_request(emu, asid, fault, write))
			return ret;
		ascend_emu_smmu_access_begin();
		ret = ascend_emu_smmu_check_in(emu, asid, va, len, write, peers,
					       &fault);
	}
	while (!ret && len) {
		ret = ascend_emu_smmu_xlate(emu, asid, va, len, write, peers,
					    &s);
		if (ret)
			break;
		ret = ascend_emu_mem_rw(emu, s.as, s.addr, buf, s.len, write);
		if (ret == -EIO)
			ret = -EFAULT;
		va += s.len;
		buf += s.len;
		len -= s.len;
	}
	ascend_emu_smmu_access_end();
	return ret;
}

int ascend_emu_smmu_cmpxchg64(struct ascend_emu *emu, u32 asid, u64 va,
			      u64 *old, u64 new, bool peers)
{
	struct ascend_emu *mem = emu;
	struct ascend_dma_span s;
	u64 *word;
	int ret;

	if (!IS_ALIGNED(va, sizeof(u64)))
		return -EINVAL;
	ascend_emu_smmu_access_begin();
	ret = ascend_emu_smmu_xlate(emu, asid, va, sizeof(u64), true, peers,
				    &s);
	if (ret)
		goto out;
	/* device memory only: the word lives in this device's or a peer's HBM */
	if (s.as != ASCEND_AS_HBM)
		mem = ascend_emu_peer(s.as);
	word = mem && s.len == sizeof(u64) ?
	       ascend_emu_mem_ptr(mem, s.addr, true) : NULL;
	if (!word) {
		ret = -EFAULT;
		goto out;
	}
	ret = try_cmpxchg64(word, old, new) ? 0 : -EAGAIN;
out:
	ascend_emu_smmu_access_end();
	return ret;
}
