// SPDX-License-Identifier: GPL-2.0
/*
 * kunit_oot.c - task -> running KUnit test table for the out-of-tree kunit.ko.
 *
 * Stands in for task_struct::kunit_test, which only exists with CONFIG_KUNIT.
 * KUnit runs each case in its own kthread; a slot is reused once its kthread
 * has exited, so a handful of slots is plenty.
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#define KUNIT_OOT_SLOTS 64

struct kunit_oot_slot {
	/* The pid guards against a freed task_struct being reused by another task. */
	const struct task_struct *task;
	pid_t pid;
	struct kunit *test;
};

/* Protects kunit_oot_slots; taken from any context the test code runs in. */
static DEFINE_SPINLOCK(kunit_oot_lock);
static struct kunit_oot_slot kunit_oot_slots[KUNIT_OOT_SLOTS];

static struct kunit_oot_slot *kunit_oot_find(const struct task_struct *t)
{
	int i;

	for (i = 0; i < KUNIT_OOT_SLOTS; i++)
		if (kunit_oot_slots[i].task == t && kunit_oot_slots[i].pid == t->pid)
			return &kunit_oot_slots[i];
	return NULL;
}

/*
 * A slot whose task is gone: its pid no longer names it.  KUnit sets the
 * test of each case's kthread but nothing clears it when the kthread exits,
 * so without this the table fills after KUNIT_OOT_SLOTS cases and later
 * cases run without a current test (kunit_fail_current_test() then reports
 * nothing).  The task pointer is only compared, never dereferenced.
 */
static bool kunit_oot_stale(const struct kunit_oot_slot *slot)
{
	bool stale;

	rcu_read_lock();
	stale = pid_task(find_pid_ns(slot->pid, &init_pid_ns), PIDTYPE_PID) != slot->task;
	rcu_read_unlock();
	return stale;
}

static struct kunit_oot_slot *kunit_oot_free_slot(void)
{
	int i;

	for (i = 0; i < KUNIT_OOT_SLOTS; i++)
		if (!kunit_oot_slots[i].task)
			return &kunit_oot_slots[i];
	for (i = 0; i < KUNIT_OOT_SLOTS; i++)
		if (kunit_oot_stale(&kunit_oot_slots[i]))
			return &kunit_oot_slots[i];
	return NULL;
}

struct kunit *kunit_oot_get_current(void)
{
	struct kunit_oot_slot *slot;
	struct kunit *test = NULL;
	unsigned long flags;

	spin_lock_irqsave(&kunit_oot_lock, flags);
	slot = kunit_oot_find(current);
	if (slot)
		test = slot->test;
	spin_unlock_irqrestore(&kunit_oot_lock, flags);
	return test;
}
EXPORT_SYMBOL_GPL(kunit_oot_get_current);

void kunit_oot_set_current(struct kunit *test)
{
	struct kunit_oot_slot *slot;
	unsigned long flags;
	bool full = false;

	spin_lock_irqsave(&kunit_oot_lock, flags);
	slot = kunit_oot_find(current);
	if (!test) {
		if (slot)
			memset(slot, 0, sizeof(*slot));
	} else {
		if (!slot)
			slot = kunit_oot_free_slot();
		if (slot) {
			slot->task = current;
			slot->pid = task_pid_nr(current);	/* as init_pid_ns sees it */
			slot->test = test;
		} else {
			full = true;
		}
	}
	spin_unlock_irqrestore(&kunit_oot_lock, flags);
	if (full)
		pr_err("kunit_oot: task table full, current test of pid %d lost\n",
		       current->pid);
}
EXPORT_SYMBOL_GPL(kunit_oot_set_current);
