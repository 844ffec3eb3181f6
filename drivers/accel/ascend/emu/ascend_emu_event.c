// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: events (ascend_hw.h, "Event memory", "Event tables",
 * "Interrupts").  The command processor looks a handle up in its queue's
 * event table and reads or records the slot; the driver's EVENT_SIGNAL
 * register records one too.  After a record that raised the generation of
 * a slot the driver armed (a host thread sleeps on it), the device sets
 * the slot's notification bits in host memory and raises its interrupt
 * line; a record nobody on the host waits for costs no interrupt.
 *
 * A remote entry names a slot of another device's event memory: the
 * record is made in that device's memory, with its notification and its
 * interrupt, and its command processor is kicked; a queue parked on a
 * remote slot re-checks it every round, as it does a WAIT_VALUE word.
 *
 * Lookups and the accesses that follow them happen in one access section
 * of the SMMU's (ascend_emu_smmu_access_begin()), so event_sync() is that
 * section barrier: once it returns, no command still holds a slot it
 * found in a table entry the driver had cleared.  The section also keeps
 * the device a remote entry named from going away under the access (its
 * fini waits for the sections in flight before anything is freed).
 */

#include <linux/bitops.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "ascend_emu.h"

/*
 * The lookup and the record are inline here, so that the command
 * processor's EVENT_RECORD (ascend_emu_event_record_handle()) makes one
 * call where it made six: under emulation each was a large part of the
 * command's cost.
 */
static __always_inline int __ascend_emu_event_lookup(struct ascend_emu *emu,
						     u64 table, u32 handle,
						     struct ascend_emu_evref *ref)
{
	unsigned int leaf_idx = handle / ASCEND_HW_EVTAB_LEAF_ENTRIES;
	struct ascend_emu *owner = emu;
	__le64 *dir;
	__le32 *ent;
	u64 leaf;
	u32 e, s;

	BUILD_BUG_ON(ASCEND_HW_EVENT_SLOTS - 1 > ASCEND_HW_EVTAB_SLOT_MASK);
	BUILD_BUG_ON(ASCEND_HW_MAX_DEVICES - 1 >
		     ASCEND_HW_EVTAB_DEV(ASCEND_HW_EVTAB_DEV_MASK));
	if (!table || leaf_idx >= ASCEND_HW_EVTAB_DIR_ENTRIES)
		return -ENOENT;
	dir = ascend_emu_mem_ptr_inline(emu, table + leaf_idx * sizeof(*dir),
					false);
	if (!dir)
		return -ENOENT;
	/* acquire: the leaf was written before the entry naming it */
	leaf = le64_to_cpu(smp_load_acquire(dir));
	if (!leaf || !IS_ALIGNED(leaf, ASCEND_MMU_TABLE_SIZE))
		return -ENOENT;
	ent = ascend_emu_mem_ptr_inline(emu, leaf +
					(handle % ASCEND_HW_EVTAB_LEAF_ENTRIES) *
					sizeof(*ent), false);
	if (!ent)
		return -ENOENT;
	/* acquire: the slot was initialised before the entry naming it */
	e = le32_to_cpu(smp_load_acquire(ent));
	if (e & ASCEND_HW_EVTAB_RSVD_MASK)
		return -ENOENT;
	s = e & ASCEND_HW_EVTAB_SLOT_MASK;
	if (e & ASCEND_HW_EVTAB_REMOTE) {
		/* stays valid to the end of the section (see ascend_emu_up) */
		owner = ascend_emu_peer(ASCEND_AS_PEER(ASCEND_HW_EVTAB_DEV(e)));
		if (!owner)
			return -ENOENT;
	} else if (e & ~ASCEND_HW_EVTAB_SLOT_MASK) {
		return -ENOENT;
	}
	if (!s || s >= ASCEND_HW_EVENT_SLOTS)
		return -ENOENT;
	ref->owner = owner;
	ref->slot = s;
	ref->entry = e;
	return 0;
}

int ascend_emu_event_lookup(struct ascend_emu *emu, u64 table, u32 handle,
			    struct ascend_emu_evref *ref)
{
	return __ascend_emu_event_lookup(emu, table, handle, ref);
}

static struct ascend_hw_event_slot *ascend_emu_slot(struct ascend_emu *emu,
						    u32 slot, bool write)
{
	if (!slot || slot >= ASCEND_HW_EVENT_SLOTS)
		return NULL;
	return ascend_emu_mem_ptr_inline(emu,
					 ascend_hw_event_slot_addr(emu->hbm_size,
								   slot),
					 write);
}

u64 ascend_emu_event_gen(const struct ascend_emu_evref *ref)
{
	struct ascend_hw_event_slot *s = ascend_emu_slot(ref->owner, ref->slot,
							 false);

	if (!s)
		return 0;
	/* acquire: pairs with the release of the record */
	return le64_to_cpu(smp_load_acquire(&s->gen));
}

/*
 * Set the slot's bits in the notification area, pending word before
 * summary word (the driver takes them in the other order), then raise the
 * line.  The line is edge-like: a raise while the handler runs makes it
 * run again, so no notification waits for the next one.
 */
static void ascend_emu_event_notify(struct ascend_emu *emu, u32 slot)
{
	u64 area = READ_ONCE(emu->event_notify);
	unsigned int word = slot / 64;
	unsigned long *pending, *summary;

	if (!area)
		return;
	pending = ascend_emu_sys_ptr(emu, area + (ASCEND_HW_EVENT_SUMMARY +
						  word) * sizeof(u64));
	summary = ascend_emu_sys_ptr(emu, area + word / 64 * sizeof(u64));
	if (!pending || !summary)
		return;
	/* little-endian words: bit n of the word is bit n of the long */
	set_bit(slot % 64, pending);
	set_bit(word % 64, summary);
	ascend_emu_raise_irq(emu);
}

void ascend_emu_raise_irq(struct ascend_emu *emu)
{
	if (emu->irq)
		generic_handle_irq_safe(emu->irq);
}

static __always_inline void
__ascend_emu_event_record(struct ascend_emu *emu, u32 slot, u64 gen)
{
	struct ascend_hw_event_slot *s = ascend_emu_slot(emu, slot, true);
	bool raised = false;

	if (!s)
		return;
	spin_lock(&emu->event_lock);
	if (gen >= le64_to_cpu(s->gen)) {
		if (le32_to_cpu(READ_ONCE(s->flags)) & ASCEND_HW_EVENT_TIMESTAMP)
			WRITE_ONCE(s->timestamp, cpu_to_le64(ktime_get_ns()));
		/* release: what came before the record is seen with it */
		smp_store_release(&s->gen, cpu_to_le64(gen));
		raised = true;
	}
	spin_unlock(&emu->event_lock);
	if (!raised)
		return;
	/* its parked EVENT_WAITs re-check in the next round */
	ascend_emu_cp_event_recorded(emu);
	/* the record is seen before the arm is read (the driver: reverse) */
	smp_mb();
	if (READ_ONCE(s->irq_armed) && xchg(&s->irq_armed, cpu_to_le32(0)))
		ascend_emu_event_notify(emu, slot);
}

void ascend_emu_event_record(struct ascend_emu *emu, u32 slot, u64 gen)
{
	__ascend_emu_event_record(emu, slot, gen);
}

int ascend_emu_event_record_handle(struct ascend_emu *emu, u64 table,
				   u32 handle, u64 gen)
{
	struct ascend_emu_evref ref;

	if (__ascend_emu_event_lookup(emu, table, handle, &ref))
		return -ENOENT;
	__ascend_emu_event_record(ref.owner, ref.slot, gen);
	/* the owner's queues parked on the slot re-check now */
	if (ref.owner != emu)
		ascend_emu_cp_kick(ref.owner);
	return 0;
}

void ascend_emu_event_signal(struct ascend_hw_device *hw, u32 slot, u64 gen)
{
	struct ascend_emu *emu = to_ascend_emu(hw);

	ascend_emu_event_record(emu, slot, gen);
	/* queues parked on the slot re-check now */
	ascend_emu_cp_kick(emu);
}

void ascend_emu_event_sync(struct ascend_hw_device *hw)
{
	ascend_emu_smmu_sync();
}

void ascend_emu_set_event_notify(struct ascend_hw_device *hw, u64 bus_addr)
{
	WRITE_ONCE(to_ascend_emu(hw)->event_notify, bus_addr);
}
