// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_trouble - kernel trouble on purpose, for the test VM's harness only.
 *
 * Built by `make check` for the test VM and never installed: it lets
 * tests/harness/check-trouble prove that tools/vm/run reports each kind of
 * kernel trouble as a failed run, with the report's first line.
 *
 * Writing anything to /sys/kernel/debug/vm_trouble/<kind> triggers <kind>
 * in the writing task:
 *
 *   warn        WARN() (panic_on_warn=1 turns it into a panic)
 *   bug         BUG() (an Oops; oops=panic)
 *   softlockup  spins with preemption disabled for up to 120 s
 *   rcu_stall   spins inside an RCU read-side section, preemption disabled,
 *               for up to 120 s (set /proc/sys/kernel/soft_watchdog to 0
 *               first, so that the stall and not a soft lockup is reported)
 *   hung_task   sleeps uninterruptibly for up to 300 s
 *
 * The harness lowers the detectors' thresholds (watchdog_thresh,
 * rcu_cpu_stall_timeout, hung_task_timeout_secs) before triggering, so that
 * each report comes within seconds.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

static struct dentry *vm_trouble_dir;

/* Busy for @secs seconds without giving the CPU to anyone. */
static void vm_trouble_spin(unsigned int secs)
{
	u64 end = ktime_get_mono_fast_ns() + (u64)secs * NSEC_PER_SEC;

	while (ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

static ssize_t vm_trouble_write(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	const char *kind = file->f_path.dentry->d_name.name;

	pr_info("vm_trouble: triggering %s on purpose\n", kind);
	if (!strcmp(kind, "warn")) {
		WARN(1, "vm_trouble: deliberate WARN\n");
	} else if (!strcmp(kind, "bug")) {
		BUG();
	} else if (!strcmp(kind, "softlockup")) {
		preempt_disable();
		vm_trouble_spin(120);
		preempt_enable();
	} else if (!strcmp(kind, "rcu_stall")) {
		rcu_read_lock();
		preempt_disable();
		vm_trouble_spin(120);
		preempt_enable();
		rcu_read_unlock();
	} else if (!strcmp(kind, "hung_task")) {
		schedule_timeout_uninterruptible(300 * HZ);
	}
	return len;
}

static const struct file_operations vm_trouble_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = vm_trouble_write,
	.llseek = noop_llseek,
};

static int __init vm_trouble_init(void)
{
	static const char * const kinds[] = {
		"warn", "bug", "softlockup", "rcu_stall", "hung_task",
	};
	unsigned int i;

	vm_trouble_dir = debugfs_create_dir("vm_trouble", NULL);
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		debugfs_create_file(kinds[i], 0200, vm_trouble_dir, NULL,
				    &vm_trouble_fops);
	return 0;
}

static void __exit vm_trouble_exit(void)
{
	debugfs_remove_recursive(vm_trouble_dir);
}

module_init(vm_trouble_init);
module_exit(vm_trouble_exit);
MODULE_DESCRIPTION("Kernel trouble on purpose, for the test VM's harness only");
MODULE_LICENSE("GPL");
