/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page requests from the device (Documentation/hardware.rst, "Page
 * requests"): the interrupt handler takes the request bits, a work item
 * serves each request (ascend_managed_page_request()) and answers its
 * slot.
 */
#ifndef __ASCEND_PRQ_H__
#define __ASCEND_PRQ_H__

#include <linux/atomic.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct ascend_device;

/**
 * struct ascend_prq - the page request service of a device
 * @work: serves the slots in @pending
 * @pending: slots the interrupt handler took and @work has not served
 * @stopped: the backend is stopping: answer nothing more
 * @served: requests answered RETRY
 * @faulted: requests answered FAULT
 */
struct ascend_prq {
	struct work_struct work;
	atomic_long_t pending;
	bool stopped;
	atomic64_t served;
	atomic64_t faulted;
};

/* Set up @adev->prq; the work is cancelled when the device goes. */
int ascend_prq_init(struct ascend_device *adev);
/* From the interrupt handler: take the request word.  True if it had bits. */
bool ascend_prq_irq(struct ascend_device *adev);
/* Before the backend's fini: no answer after this returns. */
void ascend_prq_stop(struct ascend_device *adev);

#endif /* __ASCEND_PRQ_H__ */
