/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device's interrupt: its handler, and the notification area the
 * device writes before it raises it (ascend_hw.h, "Interrupts").
 */
#ifndef __ASCEND_IRQ_H__
#define __ASCEND_IRQ_H__

struct ascend_device;

/*
 * Install the handler and give the device its notification area; after
 * the backend's init (managed: devres frees both after remove).
 */
int ascend_irq_init(struct ascend_device *adev);

#endif /* __ASCEND_IRQ_H__ */
