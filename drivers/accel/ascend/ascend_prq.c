// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page request service.  The device writes a request into a slot of
 * the notification area and sets the slot's bit of the request word; the
 * interrupt handler moves the bits to @pending and queues the work, which
 * reads each slot, asks the managed-memory code to make the range
 * translate, and answers the slot RETRY or FAULT.  One work item per
 * device, so requests are served one at a time; each is bounded (one
 * chunk moved), so one file's requests delay another's only by that.
 */

#include <linux/device.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>

#include "ascend_drv.h"
#include "ascend_hw.h"
#include "ascend_managed.h"
#include "ascend_prq.h"

static void ascend_prq_serve(struct ascend_device *adev, unsigned int slot)
{
	const struct ascend_hw_page_request *r =
		(const void *)adev->event_notify + ASCEND_HW_NOTIFY_PRQ_SLOTS;
	u32 asid, flags, status;
	u64 va;
	int ret;

	r += slot;
	va = le64_to_cpu(READ_ONCE(r->va));
	asid = le32_to_cpu(READ_ONCE(r->asid));
	flags = le32_to_cpu(READ_ONCE(r->flags));
	ret = ascend_managed_page_request(adev, asid, va,
					  flags & ASCEND_HW_PRQ_WRITE);
	status = ret ? ASCEND_HW_PRQ_FAULT : ASCEND_HW_PRQ_RETRY;
	atomic64_inc(ret ? &adev->prq.faulted : &adev->prq.served);
	/* the backend runs until ascend_prq_stop() returned */
	if (!READ_ONCE(adev->prq.stopped))
		adev->hw_ops->mmu_page_response(adev->hw, slot, status);
}

static void ascend_prq_work(struct work_struct *work)
{
	struct ascend_device *adev = container_of(work, struct ascend_device,
						  prq.work);
	unsigned long bits;
	unsigned int slot;

	while ((bits = atomic_long_xchg(&adev->prq.pending, 0))) {
		/* the slots are read after their bits (set after them) */
		smp_rmb();
		for_each_set_bit(slot, &bits, ASCEND_HW_PRQ_SLOTS)
			ascend_prq_serve(adev, slot);
	}
}

bool ascend_prq_irq(struct ascend_device *adev)
{
	__le64 *word = adev->event_notify + ASCEND_HW_NOTIFY_PRQ_WORD;
	unsigned long bits;

	if (!READ_ONCE(*word))
		return false;
	bits = le64_to_cpu(xchg(word, cpu_to_le64(0)));
	if (!bits)
		return false;
	atomic_long_or(bits, &adev->prq.pending);
	queue_work(system_unbound_wq, &adev->prq.work);
	return true;
}

void ascend_prq_stop(struct ascend_device *adev)
{
	WRITE_ONCE(adev->prq.stopped, true);
	cancel_work_sync(&adev->prq.work);
}

static void ascend_prq_fini(void *arg)
{
	struct ascend_device *adev = arg;

	/* after the interrupt went (devres order): nothing queues it now */
	WRITE_ONCE(adev->prq.stopped, true);
	cancel_work_sync(&adev->prq.work);
}

int ascend_prq_init(struct ascend_device *adev)
{
	INIT_WORK(&adev->prq.work, ascend_prq_work);
	atomic_long_set(&adev->prq.pending, 0);
	atomic64_set(&adev->prq.served, 0);
	atomic64_set(&adev->prq.faulted, 0);
	adev->prq.stopped = !adev->hw_ops->mmu_page_response;
	return devm_add_action_or_reset(&adev->pdev->dev, ascend_prq_fini,
					adev);
}
