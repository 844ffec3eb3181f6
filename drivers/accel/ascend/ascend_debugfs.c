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
 *           address ranges.
 *  clients  one line per open file: pid, command name, HBM held, buffer
 *           objects, queues, host memory pinned for the device (HOST_ALLOC
 *           and HOST_REGISTER), pageable memory pinned now for copies.
 *
 * Locking: drm_device.filelist_mutex keeps the files alive while they are
 * listed; each file's vm->lock keeps its mappings (and so its BOs, which
 * are unmapped before they are freed) alive while they are printed.
 */
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "ascend_drv.h"
#include "ascend_gem.h"
#include "ascend_host.h"

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
		   kref_read(&bo->base.refcount) ? "" : " retiring");
	if (bo->imported)
		seq_printf(m, " import@%#llx+%#llx", bo->offset, bo->map.size);
	for (i = 0; i < mem->nr_ranges; i++)
		seq_printf(m, " %#llx+%#llx", mem->ranges[i].addr,
			   mem->ranges[i].size);
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
				struct ascend_bo *bo;

				bo = container_of(node, struct ascend_bo,
						  map.node);
				ascend_debugfs_bo(m, pid, bo);
			}
		}
		for (it = interval_tree_iter_first(&af->vm.host, 0, ULONG_MAX);
		     it; it = interval_tree_iter_next(it, 0, ULONG_MAX)) {
			struct ascend_vm_mapping *map;

			map = container_of(it, struct ascend_vm_mapping, host);
			ascend_debugfs_host(m, pid, map);
		}
		mutex_unlock(&af->vm.lock);
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
		if (af->vm.size)
			drm_mm_for_each_node(node, &af->vm.mm)
				bos++;
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

void ascend_debugfs_init(struct ascend_device *adev)
{
	drm_debugfs_add_file(&adev->drm, "hbm", ascend_debugfs_hbm, NULL);
	drm_debugfs_add_file(&adev->drm, "clients", ascend_debugfs_clients,
			     NULL);
}
