// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device's interrupt.  The device sets bits of the notification area
 * in host memory and then raises its line; the handler takes the bits
 * with atomic exchanges (a summary word, then the pending words it names)
 * and wakes whoever waits on what they name: the queues named in the queue
 * words, the events of the slots in the event words.  It runs in hard
 * interrupt context and does nothing that can sleep: a look-up and a
 * wake-up per notification (a queue's fault is taken over by a work item).
 */

#include <linux/bitops.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/platform_device.h>
#include <linux/rcupdate.h>

#include "ascend_drv.h"
#include "ascend_event.h"
#include "ascend_hw.h"
#include "ascend_irq.h"
#include "ascend_prq.h"
#include "ascend_queue_priv.h"

/* Consume one pending word of the event bitmap. */
static void ascend_irq_events(struct ascend_device *adev, unsigned int word)
{
	__le64 *pending = adev->event_notify + ASCEND_HW_EVENT_SUMMARY;
	unsigned long bits = le64_to_cpu(xchg(&pending[word], cpu_to_le64(0)));
	unsigned int b;

	for_each_set_bit(b, &bits, 64)
		ascend_event_notified(adev, word * 64 + b);
}

/* Consume the queue words: wake the queues' waiters. */
static bool ascend_irq_queues(struct ascend_device *adev)
{
	__le64 *words = adev->event_notify + ASCEND_HW_NOTIFY_QUEUE_WORD;
	struct ascend_queue *q;
	unsigned long bits;
	unsigned int i, b;
	bool any = false;

	for (i = 0; i < ASCEND_HW_QUEUE_WORDS; i++) {
		if (!READ_ONCE(words[i]))
			continue;
		bits = le64_to_cpu(xchg(&words[i], cpu_to_le64(0)));
		for_each_set_bit(b, &bits, 64) {
			q = READ_ONCE(adev->hw_queues[i * 64 + b]);
			if (q)
				ascend_queue_notified(q);
		}
		any = true;
	}
	return any;
}

static irqreturn_t ascend_irq_handler(int irq, void *data)
{
	struct ascend_device *adev = data;
	__le64 *summary = adev->event_notify;
	irqreturn_t ret = IRQ_NONE;
	unsigned long bits;
	unsigned int i, b;

	if (ascend_irq_queues(adev))
		ret = IRQ_HANDLED;
	if (ascend_prq_irq(adev))
		ret = IRQ_HANDLED;
	rcu_read_lock();
	for (i = 0; i < ASCEND_HW_EVENT_SUMMARY; i++) {
		if (!READ_ONCE(summary[i]))
			continue;
		/* the summary first: a bit set after this is seen next time */
		bits = le64_to_cpu(xchg(&summary[i], cpu_to_le64(0)));
		for_each_set_bit(b, &bits, 64)
			ascend_irq_events(adev, i * 64 + b);
		ret = IRQ_HANDLED;
	}
	rcu_read_unlock();
	return ret;
}

static void ascend_irq_qids_fini(void *arg)
{
	ida_destroy(arg);
}

int ascend_irq_init(struct ascend_device *adev)
{
	struct device *dev = &adev->pdev->dev;
	int ret;

	ida_init(&adev->qids);
	ret = devm_add_action_or_reset(dev, ascend_irq_qids_fini, &adev->qids);
	if (ret)
		return ret;
	adev->hw_queues = devm_kcalloc(dev, ASCEND_HW_QUEUES,
				       sizeof(*adev->hw_queues), GFP_KERNEL);
	if (!adev->hw_queues)
		return -ENOMEM;
	adev->irq = platform_get_irq(adev->pdev, 0);
	if (adev->irq < 0)
		return adev->irq;
	adev->event_notify = dmam_alloc_coherent(dev,
						 ASCEND_HW_EVENT_NOTIFY_SIZE,
						 &adev->event_notify_bus,
						 GFP_KERNEL);
	if (!adev->event_notify)
		return -ENOMEM;
	/* its work is cancelled after the handler went */
	ret = ascend_prq_init(adev);
	if (ret)
		return ret;
	ret = devm_request_irq(dev, adev->irq, ascend_irq_handler, 0,
			       dev_name(dev), adev);
	if (ret)
		return ret;
	adev->hw_ops->set_event_notify(adev->hw, adev->event_notify_bus);
	return 0;
}
