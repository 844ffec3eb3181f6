// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the command processor, the scheduler that feeds the AI
 * cores.  One kernel thread per device serves every started queue
 * round-robin, a bounded batch of commands per queue per round.
 *
 * Per command: copy the ring slot into local memory (user space may rewrite
 * it at any time), advance rptr, validate, execute, then publish the
 * completion.  A bad command faults its queue only; the others carry on.
 *
 * Doorbells follow the NEED_WAKEUP protocol.  With no work the thread polls
 * for poll_us microseconds, then sets NEED_WAKEUP on every queue, issues a
 * full barrier and re-reads every wptr before it sleeps.  User space
 * publishes wptr, issues a full barrier and then reads the flags, so either
 * the thread sees the new wptr or user space sees NEED_WAKEUP and rings.
 */

#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>

#include "ascend_emu.h"
#include "ascend_queue_priv.h"

static unsigned int poll_us = 200;
module_param(poll_us, uint, 0644);
MODULE_PARM_DESC(poll_us,
		 "Microseconds the command processor polls idle queues before it sleeps and asks for doorbells (0: doorbells only; default 200)");

/* Commands one queue may run per round before the next queue's turn. */
#define ASCEND_CP_BATCH	16

/**
 * struct ascend_emu_cp - command processor of one emulated device
 * @emu: the device
 * @thread: the scheduler thread
 * @lock: protects @queues and @running.  Nests outside &ascend_queue.lock.
 * @queues: started queues (&ascend_queue.cp_link), in round-robin order
 * @running: the queue whose commands the thread executes right now (it runs
 *	them without @lock); queue_stop waits until it is not this queue
 * @kicks: doorbells and start events; the thread sleeps until it changes
 * @wake_wq: the thread sleeps here
 * @idle_wq: queue_stop waits here for @running to change
 * @scratch: working memory for the kernels (thread only)
 */
struct ascend_emu_cp {
	struct ascend_emu *emu;
	struct task_struct *thread;
	spinlock_t lock;	/* queues, running */
	struct list_head queues;
	struct ascend_queue *running;
	atomic_t kicks;
	wait_queue_head_t wake_wq;
	wait_queue_head_t idle_wq;
	void *scratch;
};

static void ascend_cp_kick(struct ascend_emu_cp *cp)
{
	atomic_inc(&cp->kicks);
	wake_up(&cp->wake_wq);
}

/* Does @q have something for the thread to do?  Called with cp->lock held. */
static bool ascend_cp_has_work(struct ascend_queue *q)
{
	if (READ_ONCE(q->cp_stop) || ascend_queue_faulted(q))
		return false;
	/* a corrupted wptr is work too: fetching it faults the queue */
	return smp_load_acquire(&q->status->wptr) != q->rptr;
}

static void ascend_cp_exec(struct ascend_emu_cp *cp, struct ascend_queue *q,
			   const struct ascend_cmd *cmd, u64 seq)
{
	struct ascend_emu_fault f = {};

	if (cmd->flags || cmd->reserved) {
		f.code = ASCEND_FAULT_BAD_COMMAND;
	} else {
		switch (cmd->opcode) {
		case ASCEND_CMD_NOP:
			if (memchr_inv(cmd->raw, 0, sizeof(cmd->raw)))
				f.code = ASCEND_FAULT_BAD_COMMAND;
			break;
		case ASCEND_CMD_LAUNCH:
			ascend_emu_kernel_launch(q, &cmd->launch, cp->scratch, &f);
			break;
		default:
			f.code = ASCEND_FAULT_BAD_COMMAND;
			break;
		}
	}

	if (f.code)
		ascend_queue_set_fault(q, f.code, seq, f.addr, cmd->opcode);
	else
		ascend_queue_complete(q, seq);
}

/* Run up to ASCEND_CP_BATCH commands of @q, without cp->lock. */
static void ascend_cp_run_queue(struct ascend_emu_cp *cp,
				struct ascend_queue *q)
{
	struct ascend_cmd cmd;
	unsigned int i;
	u64 wptr, seq;

	for (i = 0; i < ASCEND_CP_BATCH; i++) {
		if (READ_ONCE(q->cp_stop) || ascend_queue_faulted(q))
			return;
		if (ascend_queue_read_wptr(q, &wptr)) {
			ascend_queue_set_fault(q, ASCEND_FAULT_RING, q->rptr + 1,
					       0, 0);
			return;
		}
		if (wptr == q->rptr)
			return;

		/* never execute from shared memory */
		memcpy(&cmd, &q->ring[q->rptr & (q->ring_entries - 1)],
		       sizeof(cmd));
		seq = q->rptr + 1;
		/* release: the slot is copied before user space may reuse it */
		smp_store_release(&q->rptr, seq);
		WRITE_ONCE(q->status->rptr, seq);

		ascend_cp_exec(cp, q, &cmd, seq);
	}
}

/* One round over every queue.  Returns true if any command ran. */
static bool ascend_cp_round(struct ascend_emu_cp *cp)
{
	struct ascend_queue *q;
	unsigned int n, i;
	bool did = false;

	spin_lock(&cp->lock);
	n = list_count_nodes(&cp->queues);
	for (i = 0; i < n && !list_empty(&cp->queues); i++) {
		q = list_first_entry(&cp->queues, struct ascend_queue, cp_link);
		list_move_tail(&q->cp_link, &cp->queues);
		if (!ascend_cp_has_work(q))
			continue;

		WRITE_ONCE(cp->running, q);
		spin_unlock(&cp->lock);

		ascend_cp_run_queue(cp, q);
		did = true;

		spin_lock(&cp->lock);
		WRITE_ONCE(cp->running, NULL);
		wake_up_all(&cp->idle_wq);
	}
	spin_unlock(&cp->lock);
	return did;
}

static bool ascend_cp_any_work(struct ascend_emu_cp *cp)
{
	struct ascend_queue *q;
	bool work = false;

	spin_lock(&cp->lock);
	list_for_each_entry(q, &cp->queues, cp_link) {
		if (ascend_cp_has_work(q)) {
			work = true;
			break;
		}
	}
	spin_unlock(&cp->lock);
	return work;
}

static void ascend_cp_set_need_wakeup(struct ascend_emu_cp *cp, bool on)
{
	struct ascend_queue *q;

	spin_lock(&cp->lock);
	list_for_each_entry(q, &cp->queues, cp_link)
		ascend_queue_set_need_wakeup(q, on);
	spin_unlock(&cp->lock);
}

/* Ask for doorbells and sleep until one rings (or a queue starts). */
static void ascend_cp_sleep(struct ascend_emu_cp *cp)
{
	int seen = atomic_read(&cp->kicks);

	ascend_cp_set_need_wakeup(cp, true);
	/* pairs with user space's barrier between its wptr store and flags load */
	smp_mb();
	if (!ascend_cp_any_work(cp))
		wait_event_idle(cp->wake_wq, atomic_read(&cp->kicks) != seen ||
				kthread_should_stop());
	ascend_cp_set_need_wakeup(cp, false);
}

static int ascend_cp_thread(void *data)
{
	struct ascend_emu_cp *cp = data;
	bool idle = false;
	u64 idle_since = 0;

	while (!kthread_should_stop()) {
		if (ascend_cp_round(cp)) {
			idle = false;
			cond_resched();
			continue;
		}
		if (!idle) {
			idle = true;
			idle_since = ktime_get_ns();
		}
		if (ktime_get_ns() - idle_since <
		    (u64)READ_ONCE(poll_us) * NSEC_PER_USEC) {
			cond_resched();
			cpu_relax();
			continue;
		}
		ascend_cp_sleep(cp);
		idle = false;
	}
	return 0;
}

int ascend_emu_cp_init(struct ascend_emu *emu)
{
	struct ascend_emu_cp *cp;

	cp = kzalloc(sizeof(*cp), GFP_KERNEL);
	if (!cp)
		return -ENOMEM;
	cp->scratch = kmalloc(ASCEND_EMU_SCRATCH_SIZE, GFP_KERNEL);
	if (!cp->scratch) {
		kfree(cp);
		return -ENOMEM;
	}
	cp->emu = emu;
	spin_lock_init(&cp->lock);
	INIT_LIST_HEAD(&cp->queues);
	atomic_set(&cp->kicks, 0);
	init_waitqueue_head(&cp->wake_wq);
	init_waitqueue_head(&cp->idle_wq);

	cp->thread = kthread_run(ascend_cp_thread, cp, "ascend%u-cp",
				 emu->adev->index);
	if (IS_ERR(cp->thread)) {
		int ret = PTR_ERR(cp->thread);

		kfree(cp->scratch);
		kfree(cp);
		return ret;
	}
	emu->cp = cp;
	return 0;
}

void ascend_emu_cp_fini(struct ascend_emu *emu)
{
	struct ascend_emu_cp *cp = emu->cp;

	if (!cp)
		return;
	kthread_stop(cp->thread);
	WARN_ON(!list_empty(&cp->queues));
	kfree(cp->scratch);
	kfree(cp);
	emu->cp = NULL;
}

int ascend_emu_queue_start(struct ascend_device *adev, struct ascend_queue *q)
{
	struct ascend_emu_cp *cp = to_ascend_emu(adev)->cp;

	WRITE_ONCE(q->cp_stop, false);
	spin_lock(&cp->lock);
	list_add_tail(&q->cp_link, &cp->queues);
	spin_unlock(&cp->lock);
	ascend_cp_kick(cp);
	return 0;
}

void ascend_emu_queue_stop(struct ascend_device *adev, struct ascend_queue *q)
{
	struct ascend_emu_cp *cp = to_ascend_emu(adev)->cp;

	/* long-running kernels of @q poll this and bail out */
	WRITE_ONCE(q->cp_stop, true);
	spin_lock(&cp->lock);
	list_del_init(&q->cp_link);
	spin_unlock(&cp->lock);
	/* the thread may be executing @q's commands without the lock */
	wait_event(cp->idle_wq, READ_ONCE(cp->running) != q);
}

void ascend_emu_queue_doorbell(struct ascend_device *adev,
			       struct ascend_queue *q)
{
	ascend_cp_kick(to_ascend_emu(adev)->cp);
}
