// SPDX-License-Identifier: GPL-2.0-only
/*
 * The emulated DMA engines: one kernel thread per engine.
 *
 * Submitted jobs wait on a shared list; an idle engine takes the next
 * descriptor of the oldest job, so the descriptors of one large copy are
 * spread over every engine.  A descriptor is a linear copy or a fill with a
 * 1/2/4-byte pattern.  The engine that finishes a job's last
 * descriptor completes it (the "interrupt").  Engines move bytes with
 * device-physical addresses only and never look at the device MMU: each
 * side is HBM or host memory by bus address (ascend_emu_mem_copy()).
 */
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "ascend_drv.h"
#include "ascend_emu.h"
#include "ascend_hw.h"

/**
 * struct ascend_emu_dma - the DMA engines of one emulated NPU
 * @emu: the device
 * @lock: protects @jobs and the @next cursor of every job on it
 * @jobs: jobs with descriptors not yet taken by an engine
 * @wq: idle engines sleep here
 * @nr_engines: entries in @engines
 * @engines: the engine threads
 */
struct ascend_emu_dma {
	struct ascend_emu *emu;
	spinlock_t lock;	/* protects jobs, job->next */
	struct list_head jobs;
	wait_queue_head_t wq;
	unsigned int nr_engines;
	struct task_struct *engines[] __counted_by(nr_engines);
};

static bool ascend_emu_dma_pending(struct ascend_emu_dma *dma)
{
	bool ret;

	spin_lock(&dma->lock);
	ret = !list_empty(&dma->jobs);
	spin_unlock(&dma->lock);
	return ret;
}

/* Take the next descriptor; the job leaves the list with its last one. */
static struct ascend_dma_job *ascend_emu_dma_take(struct ascend_emu_dma *dma,
						  unsigned int *idx)
{
	struct ascend_dma_job *job;

	spin_lock(&dma->lock);
	job = list_first_entry_or_null(&dma->jobs, struct ascend_dma_job, link);
	if (job) {
		*idx = job->next++;
		if (job->next == job->count)
			list_del_init(&job->link);
	}
	spin_unlock(&dma->lock);
	return job;
}

static void ascend_emu_dma_finish(struct ascend_dma_job *job, int err)
{
	if (err)
		cmpxchg(&job->status, 0, err);
	/* Full barrier: the status is visible before the waiter wakes. */
	if (atomic_dec_and_test(&job->remaining))
		complete(&job->done);
}

static int ascend_emu_dma_engine(void *data)
{
	struct ascend_emu_dma *dma = data;

	while (!kthread_should_stop()) {
		const struct ascend_dma_desc *d;
		struct ascend_dma_job *job;
		unsigned int idx;
		int err;

		job = ascend_emu_dma_take(dma, &idx);
		if (!job) {
			wait_event_interruptible(dma->wq,
						 ascend_emu_dma_pending(dma) ||
						 kthread_should_stop());
			continue;
		}

		d = &job->descs[idx];
		switch (d->kind) {
		case ASCEND_DMA_LINEAR:
			err = ascend_emu_mem_copy(dma->emu, d->dst, d->dst_as,
						  d->src, d->src_as, d->len);
			break;
		case ASCEND_DMA_FILL:
			err = ascend_emu_mem_fill(dma->emu, d->dst, d->dst_as,
						  d->len, d->pattern,
						  d->pattern_size);
			break;
		default:
			err = -EIO;
			break;
		}
		ascend_emu_dma_finish(job, err);
	}
	return 0;
}

int ascend_emu_dma_init(struct ascend_emu *emu, unsigned int engines)
{
	struct ascend_emu_dma *dma;
	unsigned int i;
	int ret;

	if (!engines)
		return -EINVAL;

	dma = kzalloc(struct_size(dma, engines, engines), GFP_KERNEL);
	if (!dma)
		return -ENOMEM;
	dma->emu = emu;
	spin_lock_init(&dma->lock);
	INIT_LIST_HEAD(&dma->jobs);
	init_waitqueue_head(&dma->wq);
	dma->nr_engines = engines;

	for (i = 0; i < engines; i++) {
		struct task_struct *t;

		t = kthread_run(ascend_emu_dma_engine, dma, "ascend%u-dma%u",
				emu->adev->index, i);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto err_stop_engines;
		}
		dma->engines[i] = t;
	}

	emu->dma = dma;
	return 0;

err_stop_engines:
	while (i--)
		kthread_stop(dma->engines[i]);
	kfree(dma);
	return ret;
}

void ascend_emu_dma_fini(struct ascend_emu *emu)
{
	struct ascend_emu_dma *dma = emu->dma;
	struct ascend_dma_job *job, *tmp;
	unsigned int i;

	if (!dma)
		return;

	for (i = 0; i < dma->nr_engines; i++)
		kthread_stop(dma->engines[i]);

	/* Callers wait for their jobs, so none should be left; fail any. */
	list_for_each_entry_safe(job, tmp, &dma->jobs, link) {
		list_del_init(&job->link);
		WARN_ON_ONCE(1);
		while (job->next++ < job->count)
			ascend_emu_dma_finish(job, -EIO);
	}

	kfree(dma);
	emu->dma = NULL;
}

void ascend_emu_dma_submit(struct ascend_device *adev,
			   struct ascend_dma_job *job)
{
	struct ascend_emu_dma *dma = to_ascend_emu(adev)->dma;

	job->status = 0;
	job->next = 0;
	init_completion(&job->done);
	atomic_set(&job->remaining, job->count);
	if (!job->count) {
		complete(&job->done);
		return;
	}

	spin_lock(&dma->lock);
	list_add_tail(&job->link, &dma->jobs);
	spin_unlock(&dma->lock);
	wake_up_all(&dma->wq);
}
