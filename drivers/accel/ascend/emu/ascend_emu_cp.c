// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the command processor, the scheduler that feeds the AI
 * cores.  One kernel thread per device serves every started queue
 * round-robin, a bounded batch of commands per queue per round.
 *
 * A round visits only the queues that may have work (cp->queues): polled
 * idle ones and parked ones.  A queue whose command was handed off waits on
 * cp->busy until its job's end moves it back, and an idle queue that was
 * asked for doorbells waits on cp->asleep until its doorbell: neither costs
 * a round anything, so the cost per command does not grow with the number
 * of queues that wait for an AI core or sleep.
 *
 * Per command: copy the ring slot into local memory (user space may rewrite
 * it at any time), advance rptr, validate, execute, then publish the
 * completion.  A bad command faults its queue only; the others carry on.
 *
 * Short commands (NOP, EVENT_RECORD, WRITE_VALUE, provably short launches:
 * see ascend_cp_launch()) run on the thread.  Long ones are handed off and
 * the queue waits for them (ASCEND_HW_QUEUE_RUNNING) while the thread serves the
 * other queues: a launch's blocks go to the
 * AI-core threads (num_ai_cores per device, time-sliced between the
 * scheduling groups of the queues: see "AI-core scheduling" below),
 * COPY, FILL, COPY_2D, COPY_BATCH, COPY_INDIRECT, COPY_OFFSET and REDUCE go to a
 * worker that drives the DMA engines (the last two
 * read their descriptor / base pointers when the engine executes them).
 * Waits (EVENT_WAIT, WAIT_VALUE) park the queue
 * (ASCEND_HW_QUEUE_STALLED); the thread re-checks parked queues every round,
 * so after any progress of any queue, on event signals (a kick) and every
 * tick while something is parked or running.  An EVENT_WAIT on a slot of
 * this device with no time limit is re-checked only in a round after a
 * record on this device, a doorbell to every queue, or at the latest
 * ASCEND_CP_EV_PERIOD after its last re-check: nothing else moves its slot,
 * and a thousand streams held by one event would otherwise cost every
 * round a thousand look-ups.  Deadlines: a running command
 * past its deadline is aborted at the first round a tick after the last
 * check (its blocks poll the abort flag) and faults ASCEND_FAULT_TIMEOUT
 * when it returns; a parked one faults at its next re-check.
 *
 * A CALL switches the queue's fetch from the ring to a command list in
 * device memory (struct ascend_emu_call): every list command is copied in
 * through the queue's MMU (ASCEND_EMU_CALL_WINDOW of them per access, read
 * ahead: the translation of a 128-byte fetch was half of a short command's
 * cost) and runs exactly as a ring command would, under the CALL's
 * sequence number, which completes with the last of them.
 * SWITCH and JUMP only move the list's position; a step budget bounds
 * what one CALL may run.
 *
 * Doorbells follow the NEED_WAKEUP protocol.  With no work the thread polls
 * for poll_us microseconds, then sets NEED_WAKEUP on every polled idle
 * queue, issues a full barrier and re-reads their wptrs before it sleeps.
 * User space publishes wptr, issues a full barrier and then reads the
 * flags, so either the thread sees the new wptr or user space sees
 * NEED_WAKEUP and rings.  The flag of a queue found empty stays set after
 * the thread wakes, until that queue's doorbell clears it and makes it
 * polled again; a queue whose command is parked or handed off needs none
 * (the thread looks at its wptr when the command is done).
 */

#include <linux/hashtable.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ascend_emu.h"
#include "ascend_emu_trace.h"

static unsigned int poll_us = 200;
module_param(poll_us, uint, 0644);
MODULE_PARM_DESC(poll_us,
		 "Microseconds the command processor polls idle queues before it sleeps and asks for doorbells (0: doorbells only; default 200)");

static unsigned int sched_slice_us = 2000;
module_param(sched_slice_us, uint, 0644);
MODULE_PARM_DESC(sched_slice_us,
		 "AI-core time slice in microseconds: a block that ran this long yields its core to a waiting scheduling group that has used no more core time (0: no time slicing; default 2000)");

/* Commands one queue may run per round before the next queue's turn. */
#define ASCEND_CP_BATCH	16

/* Re-check period of parked queues and deadlines while the thread sleeps. */
#define ASCEND_CP_TICK	msecs_to_jiffies(2)

/* Re-check period of the event waits when no record happened. */
#define ASCEND_CP_EV_PERIOD	msecs_to_jiffies(100)

struct ascend_cp_job;

/**
 * struct ascend_cp_block - a block that yielded its AI core
 * @link: in &ascend_cp_group.yielded
 * @job: its launch
 * @run: which block
 * @pos: where it resumes (&ascend_emu_slice.pos)
 */
struct ascend_cp_block {
	struct list_head link;
	struct ascend_cp_job *job;
	u32 run;
	u64 pos;
};

/**
 * struct ascend_cp_group - a scheduling group: the started queues of one
 *	&ascend_hw_queue_ctx.sched_group, which share one fair share of the
 *	AI cores
 * @node: in &ascend_emu_cp.groups, hashed by @key
 * @key: the context's sched_group
 * @refs: started queues in the group
 * @launches: its launches with blocks no core has taken yet, oldest first
 * @yielded: its blocks that yielded their core, oldest first
 * @ready_link: in &ascend_emu_cp.ready while @launches or @yielded is not
 *	empty
 * @ready: it is on &ascend_emu_cp.ready (also read without the lock)
 * @active_link: in &ascend_emu_cp.active while @ready or @running
 * @running: its blocks on cores now
 * @dma_jobs: its ring copies' jobs in the DMA engines now (atomic, no lock)
 * @vtime: core time (ns) its blocks used, raised when it becomes active
 *	after a pause (ascend_sched_wake_vtime())
 *
 * All under &ascend_emu_cp.core_lock.
 */
struct ascend_cp_group {
	struct hlist_node node;
	u32 key;
	unsigned int refs;
	struct list_head launches;
	struct list_head yielded;
	struct list_head ready_link;
	bool ready;
	struct list_head active_link;
	unsigned int running;
	atomic_t dma_jobs;
	u64 vtime;
};

/**
 * struct ascend_emu_core - one AI core: a thread running blocks
 * @cp: the command processor feeding it
 * @thread: the thread
 * @scratch: ASCEND_EMU_SCRATCH_SIZE bytes of working memory
 * @grp: the group of the block it runs (core thread only)
 * @slice: the block's turn (core thread only)
 * @spare: a record for the block should it yield (core thread only)
 */
struct ascend_emu_core {
	struct ascend_emu_cp *cp;
	struct task_struct *thread;
	void *scratch;
	struct ascend_cp_group *grp;
	struct ascend_emu_slice slice;
	struct ascend_cp_block *spare;
};

/**
 * struct ascend_emu_cp - command processor of one emulated device
 * @emu: the device
 * @stop: set before the thread is stopped: its loop tests this, not
 *	kthread_should_stop(), which is a call a round
 * @thread: the scheduler thread
 * @lock: protects the lists @queues, @busy, @asleep and @evwait,
 *	@busy_checked, @ev_checked and @running,
 *	each queue's cp_link, cp_asleep and cur_job, and the RUNNING -> IDLE
 *	change of its cur_state
 * @queues: the queues a round visits, in round-robin order: idle ones the
 *	thread polls (NEED_WAKEUP clear) and parked ones
 * @busy: queues whose command runs on AI cores or engines: the finishing
 *	job moves them back to @queues; a round only checks their deadlines
 * @asleep: idle queues with NEED_WAKEUP set and an empty ring when it was
 *	set: only their doorbell moves them back to @queues
 * @evwait: queues parked on an EVENT_WAIT of a slot of this device with no
 *	time limit: only a record on this device (@ev_epoch) or a doorbell to
 *	every queue (the driver's after an event dies) can end the wait, so a
 *	round re-checks them only then, or ASCEND_CP_EV_PERIOD after the last
 *	time
 * @busy_checked: jiffies of the last deadline check of @busy
 * @ev_checked: jiffies of the last re-check of @evwait
 * @ev_epoch: raised after every record that raised a slot of this device's
 *	event memory, and by the doorbell to every queue (atomic, no lock)
 * @ev_seen: @ev_epoch as of the last re-check of @evwait (thread only)
 * @qids: queue id -> started queue; its lock also keeps a queue found in
 *	it alive (queue_stop erases it before it frees the queue)
 * @running: the queue whose commands the thread executes right now (it runs
 *	them without @lock); queue_stop waits until it is not this queue
 * @kicks: doorbells, start events, finished jobs, event signals; the
 *	thread sleeps until it changes
 * @wake_wq: the thread sleeps here
 * @idle_wq: queue_stop waits here for @running and the queue's job to go
 * @scratch: working memory for launches run on the thread itself (when a
 *	job cannot be allocated)
 * @core_lock: protects @groups, @ready, @active, @vclock, every
 *	&ascend_cp_group, &ascend_cp_job.next_run and the cores' @grp and
 *	slice @charged
 * @groups: the scheduling groups of started queues, by key
 * @ready: groups with blocks waiting for a core
 * @nr_ready: groups on @ready (also read without the lock)
 * @active: groups with blocks waiting or running
 * @vclock: the least vtime of the active groups, as last seen when a
 *	group became active (monotonic)
 * @core_wq: idle AI cores sleep here
 * @dma_wq: ring copies waiting for their group's DMA share sleep here
 * @nr_cores: number of AI cores
 * @cores: the AI cores
 * @cmd_timeout_ms: register CMD_TIMEOUT: the limit of a command naming
 *	none of its own (0: none), written by set_cmd_timeout
 */
struct ascend_emu_cp {
	struct ascend_emu *emu;
	bool stop;
	struct task_struct *thread;
	spinlock_t lock;	/* the queue lists, running, queue cur_job */
	struct list_head queues;
	struct list_head busy;
	struct list_head asleep;
	struct list_head evwait;
	unsigned long busy_checked;
	unsigned long ev_checked;
	atomic_t ev_epoch;
	int ev_seen;
	struct xarray qids;
	struct ascend_emu_queue *running;
	atomic_t kicks;
	wait_queue_head_t wake_wq;
	wait_queue_head_t idle_wq;
	void *scratch;

	spinlock_t core_lock;	/* groups, ready, active, vclock, next_run, ... */
	DECLARE_HASHTABLE(groups, 6);
	struct list_head ready;
	struct list_head active;
	unsigned int nr_ready;
	u64 vclock;
	wait_queue_head_t core_wq;
	wait_queue_head_t dma_wq;
	unsigned int nr_cores;
	struct ascend_emu_core *cores;
	u32 cmd_timeout_ms;
};

/**
 * struct ascend_cp_job - a command handed off by the command processor
 * @cp: the command processor
 * @q: the queue; it waits (ASCEND_HW_QUEUE_RUNNING) until the job finished
 * @cmd: the copied, validated command
 * @seq: its sequence number
 * @deadline: ktime_get_ns() deadline, 0 = none
 * @kern: LAUNCH: the kernel
 * @nr_runs: LAUNCH: kernel runs (blocks) in the launch
 * @grp: LAUNCH: the queue's scheduling group
 * @next_run: LAUNCH: next block to hand to a core (under core_lock)
 * @runs_left: LAUNCH: blocks not finished; the core finishing the last one
 *	finishes the job
 * @abort: set on the first fault or at the deadline; blocks poll it
 * @fault_lock: protects @f
 * @f: the first fault (code 0: none)
 * @link: in &ascend_cp_group.launches
 * @work: COPY, FILL and the extended copies: runs on system_unbound_wq
 */
struct ascend_cp_job {
	struct ascend_emu_cp *cp;
	struct ascend_emu_queue *q;
	struct ascend_cmd cmd;
	u64 seq;
	u64 deadline;
	const struct ascend_emu_kernel *kern;
	struct ascend_cp_group *grp;
	u32 nr_runs;
	u32 next_run;
	atomic_t runs_left;
	bool abort;
	spinlock_t fault_lock;	/* f */
	struct ascend_emu_fault f;
	struct list_head link;
	struct work_struct work;
};

static void ascend_cp_kick(struct ascend_emu_cp *cp)
{
	atomic_inc(&cp->kicks);
	wake_up(&cp->wake_wq);
}

void ascend_emu_cp_kick(struct ascend_emu *emu)
{
	if (emu->cp)
		ascend_cp_kick(emu->cp);
}

void ascend_emu_cp_event_recorded(struct ascend_emu *emu)
{
	struct ascend_emu_cp *cp = READ_ONCE(emu->cp);

	/* the slot's new generation is seen before the raised epoch */
	smp_mb__before_atomic();
	if (cp)
		atomic_inc(&cp->ev_epoch);
}

/*
 * @seq completed: the report, the status page, the trace.  A list command
 * (@seq is its CALL's) moves the list on instead; the CALL completes with
 * the last one.
 */
static __always_inline void ascend_cp_complete(struct ascend_emu_queue *q,
					       u64 seq)
{
	struct ascend_emu_call *c = &q->call;

	if (READ_ONCE(c->active)) {
		c->pc = c->next;
		if (c->pc < c->count)
			return;
		WRITE_ONCE(c->active, false);
	}
	ascend_emu_queue_complete(q, seq);
	trace_ascend_cmd_complete(q->emu->index, q->ctx.trace_queue, seq);
}

/* Can the thread fetch from @q?  Called with cp->lock held. */
static bool ascend_cp_has_work(struct ascend_emu_queue *q)
{
	if (READ_ONCE(q->cp_stop) || READ_ONCE(q->faulted) ||
	    READ_ONCE(q->cur_state) != ASCEND_HW_QUEUE_IDLE)
		return false;
	if (READ_ONCE(q->call.active))
		return true;
	/* a corrupted wptr is work too: fetching it faults the queue */
	return smp_load_acquire(&q->status->wptr) != q->rptr;
}

/*
 * Is @q parked on an EVENT_WAIT that only a record on this device can end
 * (a local slot, no time limit)?  Called with cp->lock held.
 */
static bool ascend_cp_waits_event(struct ascend_emu_queue *q)
{
	return !READ_ONCE(q->cp_stop) && !READ_ONCE(q->faulted) &&
	       q->cur_state == ASCEND_HW_QUEUE_STALLED &&
	       q->cur_cmd.opcode == ASCEND_CMD_EVENT_WAIT && !q->cur_deadline &&
	       !(q->cur_entry & ASCEND_HW_EVTAB_REMOTE);
}

/* Is a command of @q parked or running?  Called with cp->lock held. */
static bool ascend_cp_has_pending(struct ascend_emu_queue *q)
{
	return !READ_ONCE(q->cp_stop) &&
	       READ_ONCE(q->cur_state) != ASCEND_HW_QUEUE_IDLE;
}

/* ------------------------------------------------------------------------ */
/* Jobs: launches on the AI cores, DMA commands on a worker */

/* Record the first fault of @job and tell its other blocks to stop. */
static void ascend_cp_job_fault(struct ascend_cp_job *job, u32 code, u64 addr)
{
	spin_lock(&job->fault_lock);
	if (!job->f.code) {
		job->f.code = code;
		job->f.addr = addr;
	}
	spin_unlock(&job->fault_lock);
	WRITE_ONCE(job->abort, true);
}

static void ascend_cp_job_finish(struct ascend_cp_job *job)
{
	struct ascend_emu_cp *cp = job->cp;
	struct ascend_emu_queue *q = job->q;

	if (job->cmd.opcode == ASCEND_CMD_LAUNCH)
		trace_ascend_launch_done(q->emu->index, q->ctx.trace_queue, job->seq,
					 job->f.code);
	else
		trace_ascend_ring_copy_done(q->emu->index,
					    q->ctx.trace_pid,
					    q->ctx.trace_queue, job->cmd.opcode,
					    job->f.code ? -EIO : 0);
	if (job->f.code)
		ascend_emu_queue_fault(q, job->f.code, job->seq, job->f.addr,
				       job->cmd.opcode);
	else
		ascend_cp_complete(q, job->seq);

	spin_lock(&cp->lock);
	WRITE_ONCE(q->cur_state, ASCEND_HW_QUEUE_IDLE);
	/* the next round fetches its next command (a stopped one is off) */
	if (!READ_ONCE(q->cp_stop))
		list_move_tail(&q->cp_link, &cp->queues);
	spin_unlock(&cp->lock);
	/* after the completion or fault: a retire may go ahead now */
	ascend_emu_queue_busy(q, false);
	ascend_cp_kick(cp);

	/* queue_stop waits for this: @q may be gone right after */
	spin_lock(&cp->lock);
	if (q->cur_job == job)
		WRITE_ONCE(q->cur_job, NULL);
	spin_unlock(&cp->lock);
	wake_up_all(&cp->idle_wq);
	kfree(job);
}

/* Hand @job to the queue's current-command slot.  Thread only. */
static void ascend_cp_job_publish(struct ascend_emu_cp *cp,
				  struct ascend_cp_job *job)
{
	struct ascend_emu_queue *q = job->q;

	ascend_emu_queue_busy(q, true);
	spin_lock(&cp->lock);
	q->cur_seq = job->seq;
	WRITE_ONCE(q->cur_job, job);
	WRITE_ONCE(q->cur_state, ASCEND_HW_QUEUE_RUNNING);
	spin_unlock(&cp->lock);
}

static struct ascend_cp_job *ascend_cp_job_alloc(struct ascend_emu_cp *cp,
						 struct ascend_emu_queue *q,
						 const struct ascend_cmd *cmd,
						 u64 seq, u32 timeout_ms)
{
	struct ascend_cp_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	if (!job)
		return NULL;
	job->cp = cp;
	job->q = q;
	job->cmd = *cmd;
	job->seq = seq;
	timeout_ms = ascend_cmd_limit_ms(timeout_ms,
					 READ_ONCE(cp->cmd_timeout_ms),
					 q->ctx.flags & ASCEND_HW_QUEUE_LIMITED);
	job->deadline = ascend_cmd_deadline(ktime_get_ns(), timeout_ms, 0);
	spin_lock_init(&job->fault_lock);
	INIT_LIST_HEAD(&job->link);
	return job;
}

/* ------------------------------------------------------------------------ */
/*
 * AI-core scheduling.  Launches wait in their queue's scheduling group; a
 * free core goes to the waiting group that has used the least core time
 * (its vtime), and takes that group's oldest yielded block, else the next
 * block of its oldest launch.  A block whose turn has lasted sched_slice_us
 * while a group with no more vtime than its own waits yields its core at
 * its next poll point (ascend_emu_core_yield_due()): the kernel stores its
 * loop cursor, the block goes back to its group and resumes later, on any
 * core.  So a group that starts waiting, having used less than the others,
 * gets a core within one slice plus one poll interval of a kernel.
 */

static u64 ascend_cp_slice_ns(void)
{
	return (u64)READ_ONCE(sched_slice_us) * NSEC_PER_USEC;
}

/* The waiting group with the least vtime other than @skip.  core_lock. */
static struct ascend_cp_group *ascend_cp_pick(struct ascend_emu_cp *cp,
					      struct ascend_cp_group *skip)
{
	struct ascend_cp_group *g, *best = NULL;

	list_for_each_entry(g, &cp->ready, ready_link)
		if (g != skip &&
		    (!best || ascend_sched_before(g->vtime, best->vtime)))
			best = g;
	return best;
}

/* Charge @g the core time of turn @sl up to @now.  core_lock. */
static void ascend_cp_charge(struct ascend_cp_group *g,
			     struct ascend_emu_slice *sl, u64 now)
{
	/* a waker may have charged up to a later clock reading already */
	if (ascend_sched_before(sl->charged, now)) {
		g->vtime += now - sl->charged;
		sl->charged = now;
	}
}

/*
 * @g becomes active after a pause: charge the blocks on cores up to now,
 * then start @g no more than one slice below the least vtime of the active
 * groups: no credit for the time it was idle.  core_lock.
 */
static void ascend_cp_group_wake(struct ascend_emu_cp *cp,
				 struct ascend_cp_group *g)
{
	struct ascend_cp_group *a;
	u64 now = ktime_get_ns(), least = 0;
	unsigned int i;
	bool any = false;

	for (i = 0; i < cp->nr_cores; i++) {
		struct ascend_emu_core *core = &cp->cores[i];

		if (core->grp)
			ascend_cp_charge(core->grp, &core->slice, now);
	}
	list_for_each_entry(a, &cp->active, active_link)
		if (!any || ascend_sched_before(a->vtime, least)) {
			least = a->vtime;
			any = true;
		}
	if (any && ascend_sched_before(cp->vclock, least))
		cp->vclock = least;
	g->vtime = ascend_sched_wake_vtime(g->vtime, cp->vclock,
					   ascend_cp_slice_ns());
	list_add_tail(&g->active_link, &cp->active);
}

/* One block of @g left its core.  core_lock. */
static void ascend_cp_group_left(struct ascend_cp_group *g)
{
	if (!--g->running && !g->ready)
		list_del_init(&g->active_link);
}

/* @g has blocks waiting: make it ready.  core_lock. */
static void ascend_cp_group_ready(struct ascend_emu_cp *cp,
				  struct ascend_cp_group *g)
{
	if (g->ready)
		return;
	if (!g->running)
		ascend_cp_group_wake(cp, g);
	list_add_tail(&g->ready_link, &cp->ready);
	WRITE_ONCE(g->ready, true);
	WRITE_ONCE(cp->nr_ready, cp->nr_ready + 1);
}

/*
 * Take the next block of the best waiting group for a core: *@run, *@n
 * blocks (all that are left of an aborted launch), *@pos where it resumes.
 * NULL when nothing waits.  core_lock.
 */
static struct ascend_cp_job *ascend_cp_take(struct ascend_emu_cp *cp,
					    struct ascend_emu_core *core,
					    u32 *run, u32 *n, u64 *pos)
{
	struct ascend_cp_group *g = ascend_cp_pick(cp, NULL);
	struct ascend_cp_block *blk;
	struct ascend_cp_job *job;

	if (!g)
		return NULL;
	if (!list_empty(&g->yielded)) {
		blk = list_first_entry(&g->yielded, struct ascend_cp_block,
				       link);
		list_del(&blk->link);
		job = blk->job;
		*run = blk->run;
		*n = 1;
		*pos = blk->pos;
		if (!core->spare)
			core->spare = blk;
		else
			kfree(blk);
	} else {
		job = list_first_entry(&g->launches, struct ascend_cp_job, link);
		*run = job->next_run;
		/* an aborted launch: take every block left at once */
		*n = READ_ONCE(job->abort) ? job->nr_runs - *run : 1;
		*pos = 0;
		job->next_run += *n;
		if (job->next_run == job->nr_runs)
			list_del_init(&job->link);
	}
	if (list_empty(&g->yielded) && list_empty(&g->launches)) {
		list_del_init(&g->ready_link);
		WRITE_ONCE(g->ready, false);
		WRITE_ONCE(cp->nr_ready, cp->nr_ready - 1);
	}
	g->running++;
	core->grp = g;
	core->slice.start = ktime_get_ns();
	core->slice.charged = core->slice.start;
	return job;
}

bool ascend_emu_core_yield_due(struct ascend_emu_slice *sl)
{
	struct ascend_emu_core *core = container_of(sl, struct ascend_emu_core,
						    slice);
	struct ascend_emu_cp *cp = core->cp;
	struct ascend_cp_group *g = core->grp, *other;
	u64 slice = ascend_cp_slice_ns(), now;
	bool yield;

	/*
	 * Nobody else waits: no clock, no lock.  Racy reads: a group that
	 * starts waiting right now is seen at the next poll point.
	 */
	if (!slice || READ_ONCE(cp->nr_ready) <= (READ_ONCE(g->ready) ? 1 : 0))
		return false;
	now = ktime_get_ns();
	if (now - sl->start < slice)
		return false;
	/* the record it goes back to its group with; none: run on */
	if (!core->spare)
		core->spare = kmalloc(sizeof(*core->spare), GFP_KERNEL);
	if (!core->spare)
		return false;

	spin_lock(&cp->core_lock);
	ascend_cp_charge(g, sl, now);
	other = ascend_cp_pick(cp, g);
	yield = other && ascend_sched_yield(now - sl->start, slice, g->vtime,
					    other->vtime);
	spin_unlock(&cp->core_lock);
	if (!yield)
		sl->start = now;	/* nobody poorer waits: another turn */
	return yield;
}

/* Run one block of @job on @core.  Returns ascend_emu_kernel_run()'s. */
static int ascend_core_run(struct ascend_emu_core *core,
			   struct ascend_cp_job *job, u32 run)
{
	struct ascend_emu_cp *cp = core->cp;
	struct ascend_cp_group *g = core->grp;
	struct ascend_emu_fault f = {};
	struct ascend_cp_block *blk;
	int ret;
	u64 now;

	ret = ascend_emu_kernel_run(job->q, job->kern, &job->cmd.launch, run,
				    core->scratch, &job->abort, &core->slice,
				    &f);
	if (ret == -EIO)
		ascend_cp_job_fault(job, f.code, f.addr);
	now = ktime_get_ns();

	spin_lock(&cp->core_lock);
	ascend_cp_charge(g, &core->slice, now);
	if (ret == -EAGAIN) {
		/* yield_due() made sure of the record */
		blk = core->spare;
		core->spare = NULL;
		blk->job = job;
		blk->run = run;
		blk->pos = core->slice.pos;
		list_add_tail(&blk->link, &g->yielded);
		ascend_cp_group_ready(cp, g);
	}
	ascend_cp_group_left(g);
	core->grp = NULL;
	spin_unlock(&cp->core_lock);
	/* the block waits again: a core that went to sleep meanwhile takes it */
	if (ret == -EAGAIN && wq_has_sleeper(&cp->core_wq))
		wake_up(&cp->core_wq);
	return ret;
}

static int ascend_core_thread(void *data)
{
	struct ascend_emu_core *core = data;
	struct ascend_emu_cp *cp = core->cp;
	struct ascend_cp_job *job;
	u32 run = 0, n = 0;
	u64 pos = 0;

	while (!kthread_should_stop()) {
		spin_lock(&cp->core_lock);
		job = ascend_cp_take(cp, core, &run, &n, &pos);
		spin_unlock(&cp->core_lock);

		if (!job) {
			wait_event_idle(cp->core_wq,
					READ_ONCE(cp->nr_ready) ||
					kthread_should_stop());
			continue;
		}

		if (n == 1 && !READ_ONCE(job->abort)) {
			core->slice.pos = pos;
			if (ascend_core_run(core, job, run) == -EAGAIN) {
				cond_resched();
				continue;	/* back in its group */
			}
		} else {
			spin_lock(&cp->core_lock);
			ascend_cp_group_left(core->grp);
			core->grp = NULL;
			spin_unlock(&cp->core_lock);
		}
		if (atomic_sub_and_test(n, &job->runs_left))
			ascend_cp_job_finish(job);
		cond_resched();
	}
	return 0;
}

/*
 * LAUNCH on the thread itself, block after block.  Returns true when it
 * completed (the queue may go on).  Thread only.
 */
static inline bool ascend_cp_launch_here(struct ascend_emu_cp *cp,
					 struct ascend_emu_queue *q,
					 const struct ascend_emu_kernel *kern,
					 u32 runs, const struct ascend_cmd *cmd,
					 u64 seq)
{
	struct ascend_emu_fault f = {};

	if (ascend_emu_kernel_run_all(q, kern, &cmd->launch, runs, cp->scratch,
				      &f)) {
		trace_ascend_launch_done(q->emu->index, q->ctx.trace_queue, seq,
					 f.code);
		ascend_emu_queue_fault(q, f.code, seq, f.addr, cmd->opcode);
		return false;
	}
	trace_ascend_launch_done(q->emu->index, q->ctx.trace_queue, seq, 0);
	ascend_cp_complete(q, seq);
	return true;
}

/*
 * LAUNCH: spread the blocks over the AI cores.  Returns true when the
 * launch already completed (run on the thread).  Thread only.
 *
 * A provably short launch (ascend_emu_kernel_short(): a kernel with
 * bounded work per block, at most ASCEND_EMU_SHORT_BLOCKS blocks touching
 * at most ASCEND_EMU_SHORT_BYTES of device memory) runs here instead: the
 * hand-off to an AI core and the wake-up back are most of a small
 * launch's latency, and the other queues wait at most that bounded time.
 * Faults, printf, queue stop and completion are those of the AI-core path
 * (its blocks just run one after the other); a deadline cannot expire
 * within the bound, so it is not checked.  Long or unbounded launches
 * (Spin, large Fill32/Copy/Add32/AddF32) go to the AI cores.
 */
static bool ascend_cp_launch(struct ascend_emu_cp *cp, struct ascend_emu_queue *q,
			     const struct ascend_cmd *cmd, u64 seq)
{
	const struct ascend_emu_kernel *kern;
	struct ascend_cp_job *job;
	u32 runs;

	kern = ascend_emu_kernel_prepare(&cmd->launch, &runs);
	if (!kern) {
		ascend_emu_queue_fault(q, ASCEND_FAULT_BAD_COMMAND, seq, 0,
				       cmd->opcode);
		return false;
	}

	/* the pid lookup is not free: only when someone traces */
	if (trace_ascend_launch_enabled())
		trace_ascend_launch(q->emu->index, q->ctx.trace_pid,
				    q->ctx.trace_queue, seq, cmd->launch.kernel_id,
				    cmd->launch.num_blocks);
	if (ascend_emu_kernel_short(kern, &cmd->launch))
		return ascend_cp_launch_here(cp, q, kern, runs, cmd, seq);

	job = ascend_cp_job_alloc(cp, q, cmd, seq, cmd->launch.timeout_ms);
	if (!job)	/* no memory for the hand-off: run it here */
		return ascend_cp_launch_here(cp, q, kern, runs, cmd, seq);
	job->kern = kern;
	job->grp = q->grp;
	job->nr_runs = runs;
	atomic_set(&job->runs_left, runs);
	ascend_cp_job_publish(cp, job);

	spin_lock(&cp->core_lock);
	list_add_tail(&job->link, &job->grp->launches);
	ascend_cp_group_ready(cp, job->grp);
	spin_unlock(&cp->core_lock);
	wake_up_all(&cp->core_wq);
	return false;
}

int ascend_emu_vm_rw(struct ascend_emu_queue *q, u64 va, void *buf, size_t len,
		     bool write)
{
	/*
	 * The SMMU translates, with the queue's ASID and its peer windows (a
	 * notify or a kernel's buffer on a linked device), in one access
	 * section: an unmap's invalidation waits for the access to finish
	 * before the memory can go.
	 */
	return ascend_emu_smmu_rw(q->emu, q->ctx.asid,
				  va, buf, len, write, true);
}

/* Attempts of a wait-and-reset against a word that keeps changing. */
#define ASCEND_CP_RESET_TRIES	8

/*
 * Does the word of a parked WAIT_VALUE satisfy it?  With
 * %ASCEND_WAIT_VALUE_RESET a satisfying word is swapped for 0 atomically;
 * a word that changes under every attempt counts as not yet satisfied
 * (the next round tries again).
 */
static int ascend_cp_value_check(struct ascend_emu_queue *q,
				 const struct ascend_cmd_value *v, bool *done)
{
	unsigned int tries = ASCEND_CP_RESET_TRIES;
	u64 mem;
	int ret;

	ret = ascend_emu_vm_rw(q, v->addr, &mem, sizeof(mem), false);
	if (ret)
		return ret;
	*done = ascend_wait_value_satisfied(mem, v->value, v->cond);
	if (!*done || !(v->cond & ASCEND_WAIT_VALUE_RESET))
		return 0;
	while (tries--) {
		ret = ascend_emu_smmu_cmpxchg64(q->emu, q->ctx.asid, v->addr,
						&mem, 0, true);
		if (ret != -EAGAIN)
			return ret;
		if (!ascend_wait_value_satisfied(mem, v->value, v->cond))
			break;
	}
	*done = false;
	return 0;
}

/* Attempts of a read-modify-write against a word that keeps changing. */
#define ASCEND_CP_RMW_TRIES	1024

/*
 * A WRITE_VALUE with an ASCEND_WRITE_VALUE_* op: read, combine, and
 * compare-and-exchange until no other store came in between.  Every failed
 * exchange is another writer's success, so the loop ends; a word that
 * changed under every attempt faults the command (-EBUSY: a DMA fault).
 */
static int ascend_cp_value_rmw(struct ascend_emu_queue *q,
			       const struct ascend_cmd_value *v)
{
	unsigned int tries = ASCEND_CP_RMW_TRIES;
	u64 mem;
	int ret;

	ret = ascend_emu_vm_rw(q, v->addr, &mem, sizeof(mem), false);
	while (!ret && tries--) {
		ret = ascend_emu_smmu_cmpxchg64(q->emu, q->ctx.asid, v->addr,
						&mem,
						ascend_write_value_apply(mem,
									 v->value,
									 v->cond),
						true);
		if (ret != -EAGAIN)
			return ret;
		ret = 0;
	}
	return ret ?: -EBUSY;
}

/* The copy commands: the device's own copy sequencer, on its engines. */
static void ascend_cp_dma_work(struct work_struct *work)
{
	struct ascend_cp_job *job = container_of(work, struct ascend_cp_job,
						 work);
	struct ascend_emu_queue *q = job->q;
	u64 addr = 0;
	u32 code;

	code = ascend_emu_copy_cmd(q->emu, q->ctx.asid, q->grp,
				   &job->cmd, &job->abort, &addr);
	if (code)
		ascend_cp_job_fault(job, code, addr);
	ascend_cp_job_finish(job);
}

/*
 * COPY, FILL and the extended copies (2D, BATCH, INDIRECT, OFFSET): a small
 * copy or fill runs at once when the engines are idle; anything else goes
 * to a worker that drives the DMA engines, and the queue waits for it, so
 * its commands complete in order.  Returns true when the queue may go on
 * now.  Thread only.
 */
static bool ascend_cp_dma(struct ascend_emu_cp *cp, struct ascend_emu_queue *q,
			  const struct ascend_cmd *cmd, u64 seq)
{
	struct ascend_cp_job *job;
	u64 addr = 0;
	u32 code;

	trace_ascend_ring_copy_submit(q->emu->index, q->ctx.trace_pid,
				      q->ctx.trace_queue, cmd->opcode,
				      q->emu->num_dma_engines);
	/* a small one, engines idle: done here and now */
	if (ascend_emu_copy_try_now(cp->emu, q->ctx.asid, cmd, &code,
				    &addr)) {
		trace_ascend_ring_copy_done(q->emu->index,
					    q->ctx.trace_pid,
					    q->ctx.trace_queue, cmd->opcode,
					    code ? -EIO : 0);
		if (code) {
			ascend_emu_queue_fault(q, code, seq, addr, cmd->opcode);
			return false;
		}
		ascend_cp_complete(q, seq);
		return true;
	}
	job = ascend_cp_job_alloc(cp, q, cmd, seq, 0);
	if (!job) {
		ascend_emu_queue_fault(q, ASCEND_FAULT_DMA, seq, 0, cmd->opcode);
		return false;
	}
	INIT_WORK(&job->work, ascend_cp_dma_work);
	ascend_cp_job_publish(cp, job);
	queue_work(system_unbound_wq, &job->work);
	return false;
}

/* Past its deadline?  Abort it.  Called with cp->lock held. */
static void ascend_cp_check_job(struct ascend_emu_queue *q, u64 now)
{
	struct ascend_cp_job *job = q->cur_job;

	if (job && !READ_ONCE(job->abort) &&
	    ascend_cmd_expired(now, job->deadline))
		ascend_cp_job_fault(job, ASCEND_FAULT_TIMEOUT, 0);
}

/* ------------------------------------------------------------------------ */
/* Commands run by the thread */

/* Fault code for an error of a device access through the MMU. */
static u32 ascend_cp_mem_fault(int err)
{
	return err == -ENOMEM || err == -EBUSY ? ASCEND_FAULT_DMA :
	       ASCEND_FAULT_MMU;
}

/*
 * Events: the queue's event table maps the command's handle to a slot.
 * Every lookup and the slot access after it are one access section, so
 * that the driver's event_sync() waits for them.
 */
static int ascend_cp_event_find(struct ascend_emu_queue *q, u32 handle,
				u32 *entry)
{
	struct ascend_emu_evref ref;
	int ret;

	ascend_emu_smmu_access_begin();
	ret = ascend_emu_event_lookup(q->emu, q->ctx.event_table, handle, &ref);
	ascend_emu_smmu_access_end();
	if (!ret)
		*entry = ref.entry;
	return ret;
}

static u32 ascend_cp_event_record(struct ascend_emu_queue *q,
				  const struct ascend_cmd *cmd)
{
	int ret;

	ascend_emu_smmu_access_begin();
	ret = ascend_emu_event_record_handle(q->emu, q->ctx.event_table,
					     cmd->event.handle, cmd->event.gen);
	ascend_emu_smmu_access_end();
	return ret ? ASCEND_FAULT_BAD_COMMAND : ASCEND_FAULT_NONE;
}

/*
 * A parked EVENT_WAIT: has its slot reached the generation?  A handle
 * that no longer names the slot it parked on (the event was destroyed)
 * faults the command.
 */
static u32 ascend_cp_event_check(struct ascend_emu_queue *q,
				 const struct ascend_cmd *cmd, bool *done)
{
	struct ascend_emu *emu = q->emu;
	struct ascend_emu_evref ref;
	u32 code = ASCEND_FAULT_NONE;

	ascend_emu_smmu_access_begin();
	if (ascend_emu_event_lookup(emu, q->ctx.event_table,
				    cmd->event.handle, &ref) ||
	    ref.entry != q->cur_entry)
		code = ASCEND_FAULT_BAD_COMMAND;
	else
		*done = ascend_emu_event_gen(&ref) >= cmd->event.gen;
	ascend_emu_smmu_access_end();
	return code;
}

/*
 * Re-check the parked command of @q.  Returns true when it completed (the
 * queue goes on), false when it still waits or faulted.  Thread only.
 */
static bool ascend_cp_recheck(struct ascend_emu_queue *q)
{
	const struct ascend_cmd *cmd = &q->cur_cmd;
	bool done = false;
	u64 addr = 0;
	u32 code = 0;
	int ret;

	if (cmd->opcode == ASCEND_CMD_EVENT_WAIT) {
		code = ascend_cp_event_check(q, cmd, &done);
	} else {
		ret = ascend_cp_value_check(q, &cmd->value, &done);
		if (ret) {
			code = ascend_cp_mem_fault(ret);
			addr = cmd->value.addr;
		}
	}
	if (!code && !done) {
		if (!ascend_cmd_expired(ktime_get_ns(), q->cur_deadline))
			return false;
		code = ASCEND_FAULT_TIMEOUT;
		/* name the word a timed-out WAIT_VALUE was watching */
		if (cmd->opcode == ASCEND_CMD_WAIT_VALUE)
			addr = cmd->value.addr;
	}

	WRITE_ONCE(q->cur_state, ASCEND_HW_QUEUE_IDLE);
	if (code) {
		ascend_emu_queue_fault(q, code, q->cur_seq, addr, cmd->opcode);
		return false;
	}
	ascend_cp_complete(q, q->cur_seq);
	return true;
}

/* EVENT_WAIT, WAIT_VALUE: park the queue, then check once. */
static bool ascend_cp_park(struct ascend_emu_cp *cp, struct ascend_emu_queue *q,
			   const struct ascend_cmd *cmd, u64 seq)
{
	u32 timeout_ms;

	if (cmd->opcode == ASCEND_CMD_EVENT_WAIT) {
		if (ascend_cp_event_find(q, cmd->event.handle, &q->cur_entry)) {
			ascend_emu_queue_fault(q, ASCEND_FAULT_BAD_COMMAND, seq,
					       0, cmd->opcode);
			return false;
		}
		/* no limit unless the command asks for one */
		q->cur_deadline = 0;
		if (cmd->event.flags & ASCEND_CMD_EVENT_TIMEOUT)
			q->cur_deadline = ascend_cmd_deadline(ktime_get_ns(),
							      cmd->event.timeout_ms,
							      0) ?: 1;
	} else if (cmd->value.cond & ASCEND_WAIT_VALUE_OWN_LIMIT) {
		/* a notify's wait: no limit unless it asks, like EVENT_WAIT */
		q->cur_deadline = 0;
		if (cmd->value.timeout_ms)
			q->cur_deadline = ascend_cmd_deadline(ktime_get_ns(),
							      cmd->value.timeout_ms,
							      0) ?: 1;
	} else {
		timeout_ms = ascend_cmd_limit_ms(cmd->value.timeout_ms,
						 READ_ONCE(cp->cmd_timeout_ms),
						 q->ctx.flags &
						 ASCEND_HW_QUEUE_LIMITED);
		q->cur_deadline = ascend_cmd_deadline(ktime_get_ns(), timeout_ms,
						      0);
	}
	q->cur_cmd = *cmd;
	q->cur_seq = seq;
	WRITE_ONCE(q->cur_state, ASCEND_HW_QUEUE_STALLED);
	return ascend_cp_recheck(q);
}

/* ------------------------------------------------------------------------ */
/* Command lists: CALL, and SWITCH and JUMP inside a list */

/*
 * CALL from the ring: the queue fetches from the list from now on.  Its
 * commands carry the CALL's @seq; the last one's completion is the CALL's.
 */
static u32 ascend_cp_call(struct ascend_emu_queue *q,
			  const struct ascend_cmd_call *call, u64 seq)
{
	/* lists do not nest */
	if (q->call.active)
		return ASCEND_FAULT_BAD_COMMAND;
	q->call.list = call->list;
	q->call.count = call->count;
	q->call.seq = seq;
	q->call.pc = 0;
	q->call.next = 0;
	q->call.steps = 0;
	q->call.win_n = 0;	/* nothing of another list */
	WRITE_ONCE(q->call.active, true);
	return 0;
}

/*
 * Copy the next list command into @cmd, as ascend_emu_queue_fetch() copies
 * a ring slot: through the queue's MMU, never executed in place.  Returns
 * false when the queue faulted (the list does not translate, or the CALL
 * ran out of steps).  Thread only.
 */
static bool ascend_cp_call_fetch(struct ascend_emu_queue *q,
				 struct ascend_cmd *cmd)
{
	struct ascend_emu_call *c = &q->call;
	u64 addr = c->list + (u64)c->pc * sizeof(*cmd);
	u32 n;
	int ret;

	if (++c->steps > ASCEND_CALL_MAX_STEPS) {
		ascend_emu_queue_fault(q, ASCEND_FAULT_TIMEOUT, c->seq, addr,
				       ASCEND_CMD_CALL);
		return false;
	}
	if (c->pc - c->win_first < c->win_n) {
		*cmd = c->win[c->pc - c->win_first];
		c->next = c->pc + 1;
		return true;
	}
	/*
	 * Read ahead: one MMU access for the next few commands.  When that
	 * does not translate, the command alone decides (its own fault).
	 */
	n = min_t(u32, c->count - c->pc, ASCEND_EMU_CALL_WINDOW);
	c->win_n = 0;
	if (n > 1 && !ascend_emu_vm_rw(q, addr, c->win, n * sizeof(*cmd), false)) {
		c->win_first = c->pc;
		c->win_n = n;
		*cmd = c->win[0];
		c->next = c->pc + 1;
		return true;
	}
	ret = ascend_emu_vm_rw(q, addr, cmd, sizeof(*cmd), false);
	if (ret) {
		ascend_emu_queue_fault(q, ascend_cp_mem_fault(ret), c->seq, addr,
				       ASCEND_CMD_CALL);
		return false;
	}
	c->next = c->pc + 1;
	return true;
}

/*
 * SWITCH: read the selector and its table entry (both through the MMU,
 * when the command executes) and set where the list goes on.
 */
static u32 ascend_cp_switch(struct ascend_emu_queue *q,
			    const struct ascend_cmd_switch *w, u64 *addr)
{
	__le64 sel64 = 0;
	__le32 sel32 = 0, ent;
	u64 sel;
	u32 target;
	int ret;

	*addr = w->value;
	if (w->value_size == 8) {
		ret = ascend_emu_vm_rw(q, w->value, &sel64, sizeof(sel64), false);
		sel = le64_to_cpu(sel64);
	} else {
		ret = ascend_emu_vm_rw(q, w->value, &sel32, sizeof(sel32), false);
		sel = le32_to_cpu(sel32);
	}
	if (ret)
		return ascend_cp_mem_fault(ret);

	*addr = w->table + (u64)ascend_switch_entry(sel, w->count) * sizeof(ent);
	ret = ascend_emu_vm_rw(q, *addr, &ent, sizeof(ent), false);
	if (ret)
		return ascend_cp_mem_fault(ret);
	target = le32_to_cpu(ent);
	if (!ascend_list_target_ok(target, q->call.count))
		return ASCEND_FAULT_BAD_COMMAND;
	q->call.next = target;
	return 0;
}

/*
 * Execute one command of @q.  Returns true when the queue may go on with
 * its next command now.
 */
static bool ascend_cp_exec(struct ascend_emu_cp *cp, struct ascend_emu_queue *q,
			   const struct ascend_cmd *cmd, u64 seq)
{
	u32 code;
	u64 addr = 0;
	int ret;

	code = ascend_cmd_check(cmd);
	if (code)
		goto fault;

	switch (cmd->opcode) {
	case ASCEND_CMD_NOP:
		break;
	case ASCEND_CMD_LAUNCH:
		return ascend_cp_launch(cp, q, cmd, seq);
	case ASCEND_CMD_COPY:
	case ASCEND_CMD_FILL:
	case ASCEND_CMD_COPY_2D:
	case ASCEND_CMD_COPY_BATCH:
	case ASCEND_CMD_COPY_INDIRECT:
	case ASCEND_CMD_COPY_OFFSET:
	case ASCEND_CMD_REDUCE:
		return ascend_cp_dma(cp, q, cmd, seq);
	case ASCEND_CMD_EVENT_RECORD:
		code = ascend_cp_event_record(q, cmd);
		if (code)
			goto fault;
		break;
	case ASCEND_CMD_EVENT_WAIT:
	case ASCEND_CMD_WAIT_VALUE:
		return ascend_cp_park(cp, q, cmd, seq);
	case ASCEND_CMD_CALL:
		code = ascend_cp_call(q, &cmd->call, seq);
		if (code)
			goto fault;
		return true;
	case ASCEND_CMD_SWITCH:
		code = q->call.active ?
		       ascend_cp_switch(q, &cmd->label_switch, &addr) :
		       ASCEND_FAULT_BAD_COMMAND;
		if (code)
			goto fault;
		break;
	case ASCEND_CMD_JUMP:
		if (!q->call.active ||
		    !ascend_list_target_ok(cmd->jump.target, q->call.count)) {
			code = ASCEND_FAULT_BAD_COMMAND;
			goto fault;
		}
		q->call.next = cmd->jump.target;
		break;
	case ASCEND_CMD_WRITE_VALUE:
		ret = cmd->value.cond ? ascend_cp_value_rmw(q, &cmd->value) :
		      ascend_emu_vm_rw(q, cmd->value.addr,
				       (void *)&cmd->value.value,
				       sizeof(cmd->value.value), true);
		if (ret) {
			code = ascend_cp_mem_fault(ret);
			addr = cmd->value.addr;
			goto fault;
		}
		break;
	default:
		code = ASCEND_FAULT_BAD_COMMAND;
		goto fault;
	}
	ascend_cp_complete(q, seq);
	return true;

fault:
	ascend_emu_queue_fault(q, code, seq, addr, cmd->opcode);
	return false;
}

/*
 * Serve @q without cp->lock: re-check its parked command, then run up to
 * ASCEND_CP_BATCH commands.  Returns true if it made progress; *@more is
 * set when it stopped at the batch's end (the queue may have more).
 */
static bool ascend_cp_run_queue(struct ascend_emu_cp *cp,
				struct ascend_emu_queue *q, bool *more)
{
	/* each fetch writes it whole before it is read: no zeroing */
	struct ascend_cmd cmd __uninitialized;
	bool did = false;
	unsigned int i;
	u64 wptr, seq;

	if (READ_ONCE(q->cur_state) == ASCEND_HW_QUEUE_STALLED) {
		if (!ascend_cp_recheck(q))
			return false;
		did = true;
	}

	for (i = 0; i < ASCEND_CP_BATCH; i++) {
		if (READ_ONCE(q->cp_stop) || READ_ONCE(q->faulted))
			break;
		if (q->call.active) {
			/* a list runs: its commands first */
			did = true;
			if (!ascend_cp_call_fetch(q, &cmd))
				break;
			if (!ascend_cp_exec(cp, q, &cmd, q->call.seq))
				break;
			continue;
		}
		if (ascend_emu_queue_wptr(q, &wptr)) {
			ascend_emu_queue_fault(q, ASCEND_FAULT_RING, q->rptr + 1,
					       0, 0);
			break;
		}
		if (wptr == q->rptr)
			break;

		/* never execute from shared memory */
		ascend_emu_queue_fetch(q, q->rptr, &cmd);
		seq = q->rptr + 1;
		ascend_emu_queue_fetched(q, seq);
		did = true;

		if (!ascend_cp_exec(cp, q, &cmd, seq))
			break;
	}
	if (i == ASCEND_CP_BATCH)
		*more = true;
	return did;
}

/*
 * Deadlines of the handed-off commands: checked once a tick, not every
 * round (the queues waiting for a core would make a round cost O(queues)).
 * Called with cp->lock held.
 */
static void ascend_cp_check_busy(struct ascend_emu_cp *cp)
{
	struct ascend_emu_queue *q;
	u64 now;

	if (list_empty(&cp->busy) ||
	    time_before(jiffies, cp->busy_checked + ASCEND_CP_TICK))
		return;
	cp->busy_checked = jiffies;
	now = ktime_get_ns();
	list_for_each_entry(q, &cp->busy, cp_link)
		ascend_cp_check_job(q, now);
}

/*
 * One round over the queues that may have work (@cp->queues): queues
 * waiting for a handed-off command or asleep are not visited.  Returns
 * true if any queue made progress; *@more as for ascend_cp_run_queue(),
 * for any of them.
 */
static bool ascend_cp_round(struct ascend_emu_cp *cp, bool *more)
{
	struct ascend_emu_queue *q;
	LIST_HEAD(round);
	bool did = false;
	int epoch;

	spin_lock(&cp->lock);
	ascend_cp_check_busy(cp);
	epoch = atomic_read(&cp->ev_epoch);
	/* now and then regardless: a table change nobody announced */
	if (epoch != cp->ev_seen ||
	    (!list_empty(&cp->evwait) &&
	     time_after(jiffies, cp->ev_checked + ASCEND_CP_EV_PERIOD))) {
		cp->ev_seen = epoch;
		cp->ev_checked = jiffies;
		/* the epoch is read before the slots the re-checks read */
		smp_rmb();
		list_splice_tail_init(&cp->evwait, &cp->queues);
	}
	/* queues that come back meanwhile wait for the next round */
	list_splice_init(&cp->queues, &round);
	while (!list_empty(&round)) {
		q = list_first_entry(&round, struct ascend_emu_queue, cp_link);
		list_move_tail(&q->cp_link, &cp->queues);
		if (READ_ONCE(q->cp_stop))
			continue;
		if (q->cur_state == ASCEND_HW_QUEUE_RUNNING) {
			list_move_tail(&q->cp_link, &cp->busy);
			continue;
		}
		if (READ_ONCE(q->faulted)) {
			/* it never fetches again: off every list */
			list_del_init(&q->cp_link);
			continue;
		}
		if (q->cur_state == ASCEND_HW_QUEUE_IDLE && !ascend_cp_has_work(q))
			continue;

		WRITE_ONCE(cp->running, q);
		spin_unlock(&cp->lock);

		did |= ascend_cp_run_queue(cp, q, more);

		spin_lock(&cp->lock);
		WRITE_ONCE(cp->running, NULL);
		/* handed off: its job's end brings it back */
		if (q->cur_state == ASCEND_HW_QUEUE_RUNNING &&
		    !READ_ONCE(q->cp_stop))
			list_move_tail(&q->cp_link, &cp->busy);
		else if (ascend_cp_waits_event(q))
			list_move_tail(&q->cp_link, &cp->evwait);
		/* only a queue stop waits here: skip the lock otherwise */
		if (wq_has_sleeper(&cp->idle_wq))
			wake_up_all(&cp->idle_wq);
	}
	spin_unlock(&cp->lock);
	return did;
}

/*
 * Before sleeping: ask every polled idle queue for doorbells.  Sets
 * NEED_WAKEUP on each, issues a full barrier (pairing with user space's
 * between its wptr store and its flags load), then re-reads the wptrs: a
 * queue with work keeps being polled (flag cleared), an empty one goes to
 * @cp->asleep with the flag left set, and stays there until its doorbell,
 * so a wake-up clears nothing and the next sleep does not visit it again.
 * Returns true if any queue has fetchable work; *@pending: a command is
 * parked or handed off (the sleep is then at most a tick).
 */
static bool ascend_cp_ask_doorbells(struct ascend_emu_cp *cp, bool *pending)
{
	struct ascend_emu_queue *q, *tmp;
	bool work = false;

	spin_lock(&cp->lock);
	list_for_each_entry(q, &cp->queues, cp_link)
		if (q->cur_state == ASCEND_HW_QUEUE_IDLE)
			ascend_emu_queue_need_wakeup(q, true);
	/* pairs with user space's barrier between its wptr store and flags load */
	smp_mb();
	/* a tick for the deadlines; the event waits cost it nothing */
	*pending = !list_empty(&cp->busy) || !list_empty(&cp->evwait);
	list_for_each_entry_safe(q, tmp, &cp->queues, cp_link) {
		if (ascend_cp_has_pending(q))
			*pending = true;
		if (q->cur_state != ASCEND_HW_QUEUE_IDLE)
			continue;
		if (ascend_cp_has_work(q)) {
			ascend_emu_queue_need_wakeup(q, false);
			work = true;
		} else if (!READ_ONCE(q->cp_stop)) {
			/* faulted ones too: they never fetch again */
			list_move_tail(&q->cp_link, &cp->asleep);
			q->cp_asleep = true;
		}
	}
	spin_unlock(&cp->lock);
	return work;
}

/*
 * Ask for doorbells and sleep until one rings (or a queue starts, a job
 * finishes, an event is signalled); with parked or running commands, at
 * most a tick.
 */
static void ascend_cp_sleep(struct ascend_emu_cp *cp)
{
	int seen = atomic_read(&cp->kicks);
	bool pending;

	if (ascend_cp_ask_doorbells(cp, &pending))
		return;
	trace_ascend_cp_sleep(cp->emu->index,
			      pending ? jiffies_to_usecs(ASCEND_CP_TICK) : 0);
	if (pending)
		wait_event_idle_timeout(cp->wake_wq,
					atomic_read(&cp->kicks) != seen ||
					kthread_should_stop(),
					ASCEND_CP_TICK);
	else
		wait_event_idle(cp->wake_wq,
				atomic_read(&cp->kicks) != seen ||
				kthread_should_stop());
	trace_ascend_cp_wake(cp->emu->index, 0);
}

static int ascend_cp_thread(void *data)
{
	struct ascend_emu_cp *cp = data;
	unsigned int polls = 0;
	bool idle = false;
	u64 idle_since = 0;

	while (!READ_ONCE(cp->stop)) {
		bool more = false;

		if (ascend_cp_round(cp, &more)) {
			idle = false;
			cond_resched();
			/*
			 * A poller's pause lets a waiter see the completion
			 * (single-threaded TCG hands it the CPU), but costs
			 * microseconds there: not while a queue has more.
			 */
			if (!more)
				cpu_relax();
			continue;
		}
		if (!idle) {
			idle = true;
			idle_since = ktime_get_ns();
			polls = 0;
		}
		/* the clock is not free (emulated TSC): read it every 16th poll */
		if (READ_ONCE(poll_us) && ++polls % 16 &&
		    !READ_ONCE(cp->nr_ready)) {
			cond_resched();
			cpu_relax();
			continue;
		}
		/*
		 * No polling while launch blocks wait for an AI core: a core
		 * thread woken onto this CPU would wait for the poll to end
		 * (about 300 us per launch with multi-threaded TCG).  The
		 * finishing job kicks us.
		 */
		if (ktime_get_ns() - idle_since <
		    (u64)READ_ONCE(poll_us) * NSEC_PER_USEC &&
		    !READ_ONCE(cp->nr_ready)) {
			cond_resched();
			cpu_relax();
			continue;
		}
		ascend_cp_sleep(cp);
		idle = false;
	}
	return 0;
}

static void ascend_cp_free_cores(struct ascend_emu_cp *cp)
{
	unsigned int i;

	for (i = 0; i < cp->nr_cores; i++) {
		if (!IS_ERR_OR_NULL(cp->cores[i].thread))
			kthread_stop(cp->cores[i].thread);
		kfree(cp->cores[i].scratch);
		kfree(cp->cores[i].spare);
	}
	kfree(cp->cores);
}

static void ascend_cp_free(struct ascend_emu_cp *cp)
{
	if (cp->cores)
		ascend_cp_free_cores(cp);
	kfree(cp->scratch);
	kfree(cp);
}

int ascend_emu_cp_init(struct ascend_emu *emu)
{
	unsigned int index = emu->index, i;
	struct ascend_emu_cp *cp;
	int ret = -ENOMEM;

	cp = kzalloc(sizeof(*cp), GFP_KERNEL);
	if (!cp)
		return -ENOMEM;
	cp->emu = emu;
	spin_lock_init(&cp->lock);
	INIT_LIST_HEAD(&cp->queues);
	INIT_LIST_HEAD(&cp->busy);
	INIT_LIST_HEAD(&cp->asleep);
	INIT_LIST_HEAD(&cp->evwait);
	/* jiffies start near a wrap on 32-bit: not 0 */
	cp->busy_checked = jiffies;
	cp->ev_checked = jiffies;
	xa_init(&cp->qids);
	atomic_set(&cp->kicks, 0);
	init_waitqueue_head(&cp->wake_wq);
	init_waitqueue_head(&cp->idle_wq);
	spin_lock_init(&cp->core_lock);
	hash_init(cp->groups);
	INIT_LIST_HEAD(&cp->ready);
	INIT_LIST_HEAD(&cp->active);
	init_waitqueue_head(&cp->core_wq);
	init_waitqueue_head(&cp->dma_wq);

	cp->scratch = kmalloc(ASCEND_EMU_SCRATCH_SIZE, GFP_KERNEL);
	cp->nr_cores = max(emu->num_ai_cores, 1U);
	cp->cores = kcalloc(cp->nr_cores, sizeof(*cp->cores), GFP_KERNEL);
	if (!cp->scratch || !cp->cores)
		goto err;
	for (i = 0; i < cp->nr_cores; i++) {
		struct ascend_emu_core *core = &cp->cores[i];

		core->cp = cp;
		core->scratch = kmalloc(ASCEND_EMU_SCRATCH_SIZE, GFP_KERNEL);
		if (!core->scratch)
			goto err;
		core->thread = kthread_run(ascend_core_thread, core,
					   "ascend%u-aic%u", index, i);
		if (IS_ERR(core->thread)) {
			ret = PTR_ERR(core->thread);
			goto err;
		}
	}

	cp->thread = kthread_run(ascend_cp_thread, cp, "ascend%u-cp", index);
	if (IS_ERR(cp->thread)) {
		ret = PTR_ERR(cp->thread);
		goto err;
	}
	emu->cp = cp;
	return 0;

err:
	ascend_cp_free(cp);
	return ret;
}

void ascend_emu_cp_fini(struct ascend_emu *emu)
{
	struct ascend_emu_cp *cp = emu->cp;

	if (!cp)
		return;
	WRITE_ONCE(cp->stop, true);
	kthread_stop(cp->thread);
	WARN_ON(!list_empty(&cp->queues));
	WARN_ON(!list_empty(&cp->busy));
	WARN_ON(!list_empty(&cp->asleep));
	WARN_ON(!list_empty(&cp->evwait));
	WARN_ON(!xa_empty(&cp->qids));
	WARN_ON(!list_empty(&cp->ready));
	WARN_ON(!hash_empty(cp->groups));
	ascend_cp_free(cp);
	emu->cp = NULL;
}

/* ------------------------------------------------------------------------ */
/* The DMA share of a group: its jobs in the engines at once */

static int ascend_cp_dma_share(struct ascend_emu *emu)
{
	return ASCEND_EMU_GROUP_DMA_JOBS * max(emu->num_dma_engines, 1U);
}

bool ascend_emu_cp_dma_begin(struct ascend_emu *emu, struct ascend_cp_group *g,
			     const bool *abort)
{
	struct ascend_emu_cp *cp = emu->cp;
	int share = ascend_cp_dma_share(emu);

	while (!atomic_add_unless(&g->dma_jobs, 1, share)) {
		if (READ_ONCE(*abort))
			return false;
		wait_event_idle_timeout(cp->dma_wq,
					atomic_read(&g->dma_jobs) < share ||
					READ_ONCE(*abort),
					msecs_to_jiffies(5));
	}
	return true;
}

void ascend_emu_cp_dma_end(struct ascend_emu *emu, struct ascend_cp_group *g)
{
	struct ascend_emu_cp *cp = emu->cp;

	atomic_dec(&g->dma_jobs);
	/* its full barrier orders the decrement before the look for sleepers */
	if (wq_has_sleeper(&cp->dma_wq))
		wake_up(&cp->dma_wq);
}

/* Join @q to the group of its context's sched_group (made if new). */
static int ascend_cp_group_get(struct ascend_emu_cp *cp,
			       struct ascend_emu_queue *q)
{
	struct ascend_cp_group *g, *new;
	u32 key = q->ctx.sched_group;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	spin_lock(&cp->core_lock);
	hash_for_each_possible(cp->groups, g, node, key)
		if (g->key == key)
			break;
	if (!g) {
		g = new;
		new = NULL;
		g->key = key;
		INIT_LIST_HEAD(&g->launches);
		INIT_LIST_HEAD(&g->yielded);
		INIT_LIST_HEAD(&g->ready_link);
		INIT_LIST_HEAD(&g->active_link);
		atomic_set(&g->dma_jobs, 0);
		hash_add(cp->groups, &g->node, key);
	}
	g->refs++;
	q->grp = g;
	spin_unlock(&cp->core_lock);
	kfree(new);
	return 0;
}

/* @q has stopped and has no job left: leave its group. */
static void ascend_cp_group_put(struct ascend_emu_cp *cp,
				struct ascend_emu_queue *q)
{
	struct ascend_cp_group *g = q->grp;

	if (!g)
		return;
	spin_lock(&cp->core_lock);
	if (--g->refs) {
		g = NULL;
	} else {
		/* no queue, so no launch and no block of the group is left */
		WARN_ON(g->ready || g->running);
		hash_del(&g->node);
	}
	spin_unlock(&cp->core_lock);
	kfree(g);
	q->grp = NULL;
}

int ascend_emu_queue_start(struct ascend_hw_device *hw, u32 qid,
			   const struct ascend_hw_queue_ctx *ctx)
{
	struct ascend_emu_cp *cp = to_ascend_emu(hw)->cp;
	struct ascend_emu_queue *q;
	int ret;

	q = ascend_emu_queue_new(cp->emu, qid, ctx);
	if (IS_ERR(q))
		return PTR_ERR(q);
	ret = ascend_cp_group_get(cp, q);
	if (ret) {
		ascend_emu_queue_free(q);
		return ret;
	}
	ret = xa_insert(&cp->qids, qid, q, GFP_KERNEL);
	if (ret) {
		ascend_cp_group_put(cp, q);
		ascend_emu_queue_free(q);
		return ret == -EBUSY ? -EINVAL : ret;
	}
	spin_lock(&cp->lock);
	/* polled from now on: a flag left from before a reset would be stale */
	ascend_emu_queue_need_wakeup(q, false);
	list_add_tail(&q->cp_link, &cp->queues);
	spin_unlock(&cp->lock);
	ascend_cp_kick(cp);
	return 0;
}

void ascend_emu_queue_stop(struct ascend_hw_device *hw, u32 qid)
{
	struct ascend_emu_cp *cp = to_ascend_emu(hw)->cp;
	struct ascend_emu_queue *q;

	q = xa_erase(&cp->qids, qid);
	if (!q)
		return;
	/* long-running kernels of @q poll this and bail out */
	WRITE_ONCE(q->cp_stop, true);
	spin_lock(&cp->lock);
	list_del_init(&q->cp_link);
	if (q->cur_job)
		ascend_cp_job_fault(q->cur_job, ASCEND_FAULT_ABORTED, 0);
	spin_unlock(&cp->lock);
	/*
	 * The thread may be executing @q's commands without the lock, and
	 * a handed-off command finishes on its own.
	 */
	wait_event(cp->idle_wq, READ_ONCE(cp->running) != q &&
		   !READ_ONCE(q->cur_job));
	ascend_cp_group_put(cp, q);
	/* a parked command is dropped with the queue */
	ascend_emu_queue_free(q);
}

void ascend_emu_queue_doorbell(struct ascend_hw_device *hw, u32 qid)
{
	struct ascend_emu_cp *cp = to_ascend_emu(hw)->cp;
	struct ascend_emu_queue *q;

	if (qid != ASCEND_HW_QUEUE_ALL) {
		/* the doorbell answers NEED_WAKEUP: submitters need not ring */
		xa_lock(&cp->qids);
		q = xa_load(&cp->qids, qid);
		if (q) {
			/*
			 * Under cp->lock: a sleep that would set the flag
			 * again sees the queue polled, never asleep with its
			 * flag clear.
			 */
			spin_lock(&cp->lock);
			ascend_emu_queue_need_wakeup(q, false);
			if (q->cp_asleep) {
				q->cp_asleep = false;
				list_move_tail(&q->cp_link, &cp->queues);
			}
			spin_unlock(&cp->lock);
		}
		xa_unlock(&cp->qids);
	} else {
		/* every parked queue re-checks, the event waits too */
		atomic_inc(&cp->ev_epoch);
	}
	ascend_cp_kick(cp);
}

void ascend_emu_queue_halt(struct ascend_hw_device *hw, u32 qid)
{
	struct ascend_emu_cp *cp = to_ascend_emu(hw)->cp;
	struct ascend_emu_queue *q;

	xa_lock(&cp->qids);
	q = xa_load(&cp->qids, qid);
	if (q)
		WRITE_ONCE(q->faulted, true);
	xa_unlock(&cp->qids);
}

int ascend_emu_queue_info(struct ascend_hw_device *hw, u32 qid,
			  struct ascend_hw_queue_info *info)
{
	struct ascend_emu_cp *cp = to_ascend_emu(hw)->cp;
	struct ascend_emu_queue *q;
	int ret = -ENOENT;

	xa_lock(&cp->qids);
	q = xa_load(&cp->qids, qid);
	if (q) {
		info->state = READ_ONCE(q->cur_state);
		info->seq = READ_ONCE(q->cur_seq);
		/* a racing unpark gives at worst a stale copy */
		memcpy(&info->cmd, &q->cur_cmd, sizeof(info->cmd));
		ret = 0;
	}
	xa_unlock(&cp->qids);
	return ret;
}

void ascend_emu_set_cmd_timeout(struct ascend_hw_device *hw, u32 ms)
{
	struct ascend_emu *emu = to_ascend_emu(hw);

	if (emu && emu->cp)
		WRITE_ONCE(emu->cp->cmd_timeout_ms, ms);
}
