// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs: what the device memory is doing, under the accel device's
 * directory (/sys/kernel/debug/accel/<unique>/, e.g. accel/ascend.0/).
 *
 *  hbm      totals, used and free bytes by page class, the largest free
 *           block, then one line per buffer object of every open file:
 *           pid, VA, size, page size, policy, flags, device-physical ranges
 *           ("retiring" once freed by user space but still waiting for
 *           queued commands); then one line per host mapping (pinned host
 *           memory in the device MMU): pid, host address, size, page
 *           size, "host_alloc" or "host_register", "ro" or "-", bus
 *           address ranges; then one line per physical allocation a file
 *           holds a handle to (DRM_IOCTL_ASCEND_PHYS_ALLOC or imported):
 *           pid, "-", size, page size, "physical", the GEM handle, the
 *           references to the memory (this object's, and one per mapping,
 *           IPC export or other object of it), device-physical ranges.
 *  clients  one line per open file: pid, command name, HBM held, buffer
 *           objects, queues, host memory pinned for the device (HOST_ALLOC
 *           and HOST_REGISTER), pageable memory pinned now for copies.
 *  queues   one line per queue of every process: owner pid, handle, ring
 *           entries, wptr (as user space wrote it), rptr, completed,
 *           state, fault code/seq/addr/opcode of a faulted queue, and what
 *           the command processor does with its current command: "idle",
 *           "running" (handed to AI cores or DMA engines) or "parked" on an
 *           event generation or a 64-bit value.
 *  engines  one line per DMA engine: ring tail, head (next to execute)
 *           and retired indices (free-running), descriptors and bytes
 *           done, "busy" while descriptors wait on its ring, else "idle".
 *  free_rings  one line per open file with a free ring: pid, command
 *           name, slots, head (entries consumed), tail (as user space wrote
 *           it), entries that freed an allocation, entries ignored (no live
 *           handle-less allocation of the file at that VA), drains that
 *           found a corrupt tail.  Read without draining.
 *  faults   the last ASCEND_FAULT_LOG_SIZE queue faults of the device,
 *           oldest first: time (seconds since boot, the clock of the
 *           kernel log and of the trace buffer), pid, command name, queue
 *           handle, fault code, sequence number, faulting address, opcode
 *           of the faulting command.
 *  users    the per-user shares (queues, events, HBM), then one line per
 *           user with something on the device: uid, queues, event slots
 *           and HBM bytes held.
 *
 * "hbm" and "clients" first drain every file's free ring, so the memory
 * freed on them is free here (ascend_gem_drain_device()).
 *
 * Locking: drm_device.filelist_mutex keeps the files alive while they are
 * listed; each file's vm->lock keeps its mappings (and so its BOs, which
 * are unmapped before they are freed) alive while they are printed.
 * ascend_device.queues_lock keeps the listed queues (and so their files:
 * a file stops its queues before it goes) alive; each queue's lock gives a
 * consistent fault record.  The fault log has its own spinlock.
 */
#include <linux/math64.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "ascend_drv.h"
#include "ascend_managed.h"
#include "ascend_free_ring.h"
#include "ascend_gem.h"
#include "ascend_host.h"
#include "ascend_hw.h"
#include "ascend_queue_priv.h"
#include "ascend_vmm.h"

static const char *const ascend_policy_names[] = {
	[DRM_ASCEND_BO_HUGE_FIRST] = "huge_first",
	[DRM_ASCEND_BO_HUGE_ONLY] = "huge_only",
	[DRM_ASCEND_BO_NORMAL_ONLY] = "normal_only",
	[DRM_ASCEND_BO_HUGE1G_ONLY] = "huge1g_only",
};

static const char *const ascend_class_names[ASCEND_HBM_NR_CLASSES] = {
	[ASCEND_HBM_CLASS_NORMAL] = "normal",
	[ASCEND_HBM_CLASS_HUGE] = "huge",
	[ASCEND_HBM_CLASS_HUGE1G] = "huge1g",
};

/* pid and command name of the process that uses @file (0, "?" if gone) */
static pid_t ascend_file_pid(struct drm_file *file, char comm[TASK_COMM_LEN])
{
	struct task_struct *task;
	struct pid *pid;
	pid_t nr = 0;

	strscpy(comm, "?", TASK_COMM_LEN);
	rcu_read_lock();
	pid = rcu_dereference(file->pid);
	task = pid_task(pid, PIDTYPE_TGID);
	if (task) {
		nr = task_tgid_nr(task);
		strscpy(comm, task->comm, TASK_COMM_LEN);
	}
	rcu_read_unlock();
	return nr;
}

pid_t ascend_file_tgid(struct drm_file *file)
{
	pid_t nr;

	rcu_read_lock();
	nr = pid_nr(rcu_dereference(file->pid));
	rcu_read_unlock();
	return nr;
}

static void ascend_debugfs_bo(struct seq_file *m, pid_t pid,
			      struct ascend_bo *bo)
{
	const struct ascend_hbm_alloc *mem = &bo->buf->mem;
	unsigned int i;

	seq_printf(m, "%8d 0x%016llx %12llu %10llu %-11s %s%s", pid,
		   bo->map.node.start, mem->size, mem->page_size,
		   mem->policy < ARRAY_SIZE(ascend_policy_names) ?
		   ascend_policy_names[mem->policy] : "?",
		   mem->flags & DRM_ASCEND_BO_P2P ? "p2p" : "-",
		   ascend_bo_live(bo) ? "" : " retiring");
	if (bo->imported)
		seq_printf(m, " import@%#llx+%#llx", bo->offset, bo->map.size);
	for (i = 0; i < mem->nr_ranges; i++)
		seq_printf(m, " %#llx+%#llx", mem->ranges[i].addr,
			   mem->ranges[i].size);
	seq_putc(m, '\n');
}

/*
 * A reservation, then each mapping in it: "reserved", and "mapped" with
 * the physical allocation's page size, the part of it mapped and access.
 */
static void ascend_debugfs_resv(struct seq_file *m, pid_t pid,
				struct ascend_vm_mapping *map)
{
	struct ascend_vm_resv *resv = container_of(map, struct ascend_vm_resv,
						   map);
	struct interval_tree_node *it;
	unsigned int i;

	seq_printf(m, "%8d 0x%016llx %12llu %10s %-11s -\n", pid,
		   map->node.start, map->node.size, "-", "reserved");
	for (it = interval_tree_iter_first(&resv->parts, 0, ULONG_MAX); it;
	     it = interval_tree_iter_next(it, 0, ULONG_MAX)) {
		struct ascend_vm_mapping *part;
		struct ascend_hbm_buf *buf;
		u64 offset;

		part = container_of(it, struct ascend_vm_mapping, part);
		buf = ascend_vmm_part_buf(part, &offset);
		seq_printf(m, "%8d 0x%016llx %12llu %10llu %-11s %s phys@%#llx+%#llx",
			   pid, part->node.start, part->size, buf->mem.page_size,
			   "mapped", part->noaccess ? "none" :
			   part->readonly ? "ro" : "rw", offset, buf->mem.size);
		for (i = 0; i < part->nr_ranges; i++)
			seq_printf(m, " %#llx+%#llx", part->ranges[i].addr,
				   part->ranges[i].size);
		seq_putc(m, '\n');
	}
}

/*
 * A managed allocation: the HBM of its chunks now on the device (the
 * chunks' ranges change under the VM lock too; the rest: the managed file).
 */
static void ascend_debugfs_managed_map(struct seq_file *m, pid_t pid,
				       struct ascend_vm_mapping *map)
{
	unsigned int i;

	seq_printf(m, "%8d 0x%016llx %12llu %10llu %-11s -", pid,
		   map->node.start, map->size, DRM_ASCEND_MANAGED_CHUNK,
		   "managed");
	for (i = 0; i < map->nr_ranges; i++)
		if (map->ranges[i].size)
			seq_printf(m, " %#llx+%#llx", map->ranges[i].addr,
				   map->ranges[i].size);
	seq_putc(m, '\n');
}

static void ascend_debugfs_host(struct seq_file *m, pid_t pid,
				struct ascend_vm_mapping *map)
{
	struct ascend_host_bo *bo = ascend_host_bo_of_map(map);
	unsigned int i;

	seq_printf(m, "%8d 0x%016lx %12llu %10lu %-11s %s%s", pid,
		   map->host.start, map->size, PAGE_SIZE,
		   bo->user_pages ? "host_register" : "host_alloc",
		   map->readonly ? "ro" : "-",
		   kref_read(&bo->base.refcount) ? "" : " retiring");
	for (i = 0; i < map->nr_ranges; i++)
		seq_printf(m, " %#llx+%#llx", map->ranges[i].addr,
			   map->ranges[i].size);
	seq_putc(m, '\n');
}

static int ascend_debugfs_hbm(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct drm_device *drm = entry->dev;
	struct ascend_device *adev = to_ascend_device(drm);
	struct ascend_hbm_stats st;
	char comm[TASK_COMM_LEN];
	struct drm_file *file;
	unsigned int c;

	ascend_gem_drain_device(adev);
	ascend_hbm_get_stats(&adev->hbm, &st);
	seq_printf(m, "total:        %llu\n", st.total);
	seq_printf(m, "used:         %llu\n", st.used);
	seq_printf(m, "free:         %llu\n", st.free);
	seq_printf(m, "largest_free: %llu\n", st.largest_free);
	seq_printf(m, "allocations:  %llu\n", st.nr_allocs);
	for (c = 0; c < ASCEND_HBM_NR_CLASSES; c++)
		seq_printf(m, "%-7s used %llu (p2p %llu) free %llu\n",
			   ascend_class_names[c], st.used_class[c],
			   st.used_p2p[c], st.free_class[c]);

	seq_printf(m, "\n%8s %18s %12s %10s %-11s %s\n", "pid", "va", "size",
		   "page_size", "policy", "flags ranges(addr+size)");
	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead) {
		struct ascend_file *af = to_ascend_file(file);
		struct interval_tree_node *it;
		struct drm_mm_node *node;
		pid_t pid = ascend_file_pid(file, comm);

		mutex_lock(&af->vm.lock);
		if (af->vm.size) {
			drm_mm_for_each_node(node, &af->vm.mm) {
				struct ascend_vm_mapping *map;

				/* BOs, reservations and managed allocations */
				map = container_of(node, struct ascend_vm_mapping,
						   node);
				if (map->kind == ASCEND_VM_RESV)
					ascend_debugfs_resv(m, pid, map);
				else if (map->kind == ASCEND_VM_MANAGED)
					ascend_debugfs_managed_map(m, pid, map);
				else if (!map->parked) /* free VA, kept */
					ascend_debugfs_bo(m, pid,
							  container_of(map, struct ascend_bo,
								       map));
			}
		}
		for (it = interval_tree_iter_first(&af->vm.host, 0, ULONG_MAX);
		     it; it = interval_tree_iter_next(it, 0, ULONG_MAX)) {
			struct ascend_vm_mapping *map;

			map = container_of(it, struct ascend_vm_mapping, host);
			ascend_debugfs_host(m, pid, map);
		}
		mutex_unlock(&af->vm.lock);
		ascend_vmm_debugfs_phys(m, file, pid);
	}
	mutex_unlock(&drm->filelist_mutex);
	return 0;
}

static int ascend_debugfs_clients(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct drm_device *drm = entry->dev;
	char comm[TASK_COMM_LEN];
	struct drm_file *file;

	ascend_gem_drain_device(to_ascend_device(drm));
	seq_printf(m, "%8s %-16s %14s %8s %6s %14s %14s\n", "pid", "command",
		   "hbm_used", "bos", "queues", "host_pinned", "copy_pinned");
	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead) {
		struct ascend_file *af = to_ascend_file(file);
		unsigned long bos = 0, queues = 0, idx;
		struct drm_mm_node *node;
		pid_t pid = ascend_file_pid(file, comm);
		void *q;

		mutex_lock(&af->vm.lock);
		if (af->vm.size) {
			drm_mm_for_each_node(node, &af->vm.mm) {
				struct ascend_vm_mapping *map;

				map = container_of(node, struct ascend_vm_mapping,
						   node);
				bos += map->kind == ASCEND_VM_BO && !map->parked;
			}
		}
		mutex_unlock(&af->vm.lock);

		/* xa_for_each() is RCU-safe: a snapshot count is enough. */
		xa_for_each(&af->queues, idx, q)
			queues++;

		seq_printf(m, "%8d %-16s %14lld %8lu %6lu %14lld %14lld\n", pid,
			   comm, (long long)atomic64_read(&af->hbm_used), bos,
			   queues, (long long)atomic64_read(&af->host_pinned),
			   (long long)atomic64_read(&af->copy_pinned));
	}
	mutex_unlock(&drm->filelist_mutex);
	return 0;
}

/* The page requests served, then each file's managed memory. */
static int ascend_debugfs_managed(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct drm_device *drm = entry->dev;
	struct ascend_device *adev = to_ascend_device(drm);
	char comm[TASK_COMM_LEN];
	struct drm_file *file;

	seq_printf(m, "page requests: %lld retried, %lld faulted\n",
		   (long long)atomic64_read(&adev->prq.served),
		   (long long)atomic64_read(&adev->prq.faulted));
	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead) {
		struct ascend_file *af = to_ascend_file(file);
		pid_t pid = ascend_file_pid(file, comm);

		if (!READ_ONCE(af->managed))
			continue;
		seq_printf(m, "%8d %-16s\n", pid, comm);
		ascend_managed_debugfs_show(m, af);
	}
	mutex_unlock(&drm->filelist_mutex);
	return 0;
}

static int ascend_debugfs_free_rings(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct drm_device *drm = entry->dev;
	char comm[TASK_COMM_LEN];
	struct drm_file *file;

	seq_printf(m, "%8s %-16s %7s %12s %12s %12s %10s %8s\n", "pid",
		   "command", "entries", "head", "tail", "freed", "ignored",
		   "bad_tail");
	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead) {
		struct ascend_file *af = to_ascend_file(file);
		struct ascend_free_ring *ring;
		pid_t pid;

		/* Pairs with the cmpxchg() that publishes the ring. */
		ring = smp_load_acquire(&af->free_ring);
		if (!ring)
			continue;
		pid = ascend_file_pid(file, comm);
		mutex_lock(&ring->lock);
		seq_printf(m, "%8d %-16s %7u %12llu %12llu %12llu %10llu %8llu\n",
			   pid, comm, ring->entries, ring->head,
			   READ_ONCE(ring->shared->tail), ring->freed,
			   ring->ignored, ring->bad_tail);
		mutex_unlock(&ring->lock);
	}
	mutex_unlock(&drm->filelist_mutex);
	return 0;
}

static const char *const ascend_fault_names[] = {
	[ASCEND_FAULT_NONE] = "-",
	[ASCEND_FAULT_BAD_COMMAND] = "bad_command",
	[ASCEND_FAULT_MMU] = "mmu",
	[ASCEND_FAULT_KERNEL] = "kernel",
	[ASCEND_FAULT_DMA] = "dma",
	[ASCEND_FAULT_RING] = "ring",
	[ASCEND_FAULT_ABORTED] = "aborted",
	[ASCEND_FAULT_TIMEOUT] = "timeout",
	[ASCEND_FAULT_DEVICE_LOST] = "device_lost",
};

static const char *ascend_fault_name(u32 code)
{
	return code < ARRAY_SIZE(ascend_fault_names) ?
	       ascend_fault_names[code] : "?";
}

static const char *const ascend_queue_state_names[] = {
	[ASCEND_QUEUE_RUNNING] = "running",
	[ASCEND_QUEUE_STOPPING] = "stopping",
	[ASCEND_QUEUE_DEAD] = "dead",
};

/* What the command processor does with @q's current command. */
static void ascend_debugfs_queue_cur(struct seq_file *m, struct ascend_queue *q)
{
	struct ascend_device *adev = q->adev;
	struct ascend_hw_queue_info info;
	const struct ascend_cmd *cmd = &info.cmd;
	int idx;

	if (!adev->hw_ops->queue_info || !drm_dev_enter(&adev->drm, &idx)) {
		seq_puts(m, " ?");
		return;
	}
	if (adev->hw_ops->queue_info(adev->hw, q->qid, &info))
		info.state = ASCEND_HW_QUEUE_IDLE;
	drm_dev_exit(idx);

	switch (info.state) {
	case ASCEND_HW_QUEUE_RUNNING:
		seq_printf(m, " running seq=%llu", info.seq);
		return;
	case ASCEND_HW_QUEUE_STALLED:
		if (cmd->opcode == ASCEND_CMD_EVENT_WAIT)
			seq_printf(m, " parked seq=%llu event=%u gen=%llu",
				   info.seq, cmd->event.handle, cmd->event.gen);
		else
			seq_printf(m, " parked seq=%llu value@0x%llx cond=%u value=%#llx",
				   info.seq, cmd->value.addr, cmd->value.cond,
				   cmd->value.value);
		return;
	default:
		seq_puts(m, " idle");
	}
}

static int ascend_debugfs_queues(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct ascend_device *adev = to_ascend_device(entry->dev);
	struct ascend_queue *q;

	seq_printf(m, "%8s %6s %7s %12s %12s %12s %-8s %-11s %10s %18s %6s %s\n",
		   "pid", "handle", "entries", "wptr", "rptr", "completed",
		   "state", "fault", "fault_seq", "fault_addr", "opcode",
		   "current");
	mutex_lock(&adev->queues_lock);
	list_for_each_entry(q, &adev->queues, dev_link) {
		u32 state, fault, opcode;
		u64 fseq, faddr;

		spin_lock(&q->lock);
		state = q->state;
		fault = q->fault;
		fseq = q->fault_seq;
		faddr = q->fault_addr;
		opcode = q->fault_opcode;
		spin_unlock(&q->lock);

		seq_printf(m, "%8d %6u %7u %12llu %12llu %12llu %-8s %-11s %10llu 0x%016llx %6u",
			   ascend_file_tgid(q->file), q->handle,
			   q->ring_entries, READ_ONCE(q->status->wptr),
			   ascend_queue_rptr(q), ascend_queue_completed(q),
			   state < ARRAY_SIZE(ascend_queue_state_names) ?
			   ascend_queue_state_names[state] : "?",
			   ascend_fault_name(fault), fseq, faddr, opcode);
		ascend_debugfs_queue_cur(m, q);
		seq_putc(m, '\n');
	}
	mutex_unlock(&adev->queues_lock);
	return 0;
}

static int ascend_debugfs_engines(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct ascend_device *adev = to_ascend_device(entry->dev);
	struct ascend_dma_engine_info info;
	unsigned int i;

	if (!adev->hw_ops->dma_engine_info)
		return -ENODEV;
	seq_printf(m, "%6s %10s %10s %10s %14s %18s %s\n", "engine", "tail",
		   "head", "retired", "descs_done", "bytes_done", "state");
	for (i = 0; i < adev->num_dma_engines; i++) {
		if (adev->hw_ops->dma_engine_info(adev->hw, i, &info))
			break;
		seq_printf(m, "%6u %10u %10u %10u %14llu %18llu %s\n", i,
			   info.tail, info.head, info.retired, info.descs_done,
			   info.bytes_done,
			   info.head != info.tail ? "busy" : "idle");
	}
	/* the command processor's small copies, moved beside the rings */
	if (adev->hw_ops->dma_direct_info) {
		adev->hw_ops->dma_direct_info(adev->hw, &info);
		seq_printf(m, "%6s %10s %10s %10s %14llu %18llu %s\n", "cp",
			   "-", "-", "-", info.descs_done, info.bytes_done,
			   "direct");
	}
	return 0;
}

void ascend_debugfs_log_fault(struct ascend_queue *q, u32 code, u64 seq,
			      u64 addr, u32 opcode)
{
	struct ascend_fault_log *log = &q->adev->fault_log;
	struct ascend_fault_rec rec = {
		.time_ns = local_clock(),
		.queue = q->handle,
		.code = code,
		.opcode = opcode,
		.seq = seq,
		.addr = addr,
	};
	unsigned long flags;

	rec.pid = ascend_file_pid(q->file, rec.comm);
	spin_lock_irqsave(&log->lock, flags);
	log->recs[log->count % ASCEND_FAULT_LOG_SIZE] = rec;
	log->count++;
	spin_unlock_irqrestore(&log->lock, flags);
}

static int ascend_debugfs_faults(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct ascend_device *adev = to_ascend_device(entry->dev);
	struct ascend_fault_log *log = &adev->fault_log;
	struct ascend_fault_rec *recs;
	u64 count, first, i;

	recs = kmalloc_array(ASCEND_FAULT_LOG_SIZE, sizeof(*recs), GFP_KERNEL);
	if (!recs)
		return -ENOMEM;
	spin_lock_irq(&log->lock);
	count = log->count;
	memcpy(recs, log->recs, sizeof(log->recs));
	spin_unlock_irq(&log->lock);

	first = count > ASCEND_FAULT_LOG_SIZE ? count - ASCEND_FAULT_LOG_SIZE : 0;
	seq_printf(m, "faults: %llu (the last %u kept)\n", count,
		   ASCEND_FAULT_LOG_SIZE);
	seq_printf(m, "%17s %8s %-16s %6s %-11s %10s %18s %6s\n", "time", "pid",
		   "command", "queue", "code", "seq", "addr", "opcode");
	for (i = first; i < count; i++) {
		const struct ascend_fault_rec *r = &recs[i % ASCEND_FAULT_LOG_SIZE];
		u32 rem;
		u64 sec = div_u64_rem(r->time_ns, NSEC_PER_SEC, &rem);

		seq_printf(m, "%10llu.%06u %8d %-16s %6u %-11s %10llu 0x%016llx %6u\n",
			   sec, rem / 1000, r->pid, r->comm, r->queue,
			   ascend_fault_name(r->code), r->seq, r->addr,
			   r->opcode);
	}
	kfree(recs);
	return 0;
}

/* "users": each user's holdings against its shares (ascend_user.c). */
static int ascend_debugfs_users(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct ascend_device *adev = to_ascend_device(entry->dev);
	struct ascend_user *u;
	unsigned long uid;

	seq_printf(m, "shares: queues %u of %u per user, events %u per user, hbm %llu bytes per user of %llu the device holds written\n",
		   ascend_user_queue_share(), ascend_queue_max(),
		   ascend_user_event_share(), ascend_user_hbm_share(adev),
		   adev->hbm_store_size);
	seq_printf(m, "%10s %8s %8s %16s\n", "uid", "queues", "events", "hbm");
	xa_lock(&adev->users);
	xa_for_each(&adev->users, uid, u) {
		spin_lock(&u->lock);
		seq_printf(m, "%10lu %8u %8u %16llu\n", uid, u->queues, u->events,
			   u->hbm);
		spin_unlock(&u->lock);
	}
	xa_unlock(&adev->users);
	return 0;
}

void ascend_debugfs_init(struct ascend_device *adev)
{
	spin_lock_init(&adev->fault_log.lock);
	drm_debugfs_add_file(&adev->drm, "hbm", ascend_debugfs_hbm, NULL);
	drm_debugfs_add_file(&adev->drm, "clients", ascend_debugfs_clients,
			     NULL);
	drm_debugfs_add_file(&adev->drm, "queues", ascend_debugfs_queues, NULL);
	drm_debugfs_add_file(&adev->drm, "engines", ascend_debugfs_engines,
			     NULL);
	drm_debugfs_add_file(&adev->drm, "free_rings",
			     ascend_debugfs_free_rings, NULL);
	drm_debugfs_add_file(&adev->drm, "managed", ascend_debugfs_managed,
			     NULL);
	drm_debugfs_add_file(&adev->drm, "faults", ascend_debugfs_faults, NULL);
	drm_debugfs_add_file(&adev->drm, "users", ascend_debugfs_users, NULL);
}
