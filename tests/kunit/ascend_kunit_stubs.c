// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the driver sources compiled into the test module need from parts of
 * the driver that are not: the queue side (ascend_queue.c and the emulated
 * command processor; the kernel table comes with ascend_cmd_test.c).  The
 * suites never reach them: the copy ioctl's drain and the emulator's ops
 * table only reference them.
 */
#include "ascend_emu.h"
#include "ascend_managed.h"
#include "ascend_queue.h"

/* No managed memory in these suites: nothing to bring to the device. */
int __ascend_managed_prepare(struct ascend_file *af, u64 va, u64 len)
{
	return 0;
}

int ascend_queue_file_drain(struct ascend_file *af)
{
	return 0;
}

unsigned int ascend_queue_max(void)
{
	return ASCEND_HW_QUEUES;
}

int ascend_emu_cp_init(struct ascend_emu *emu)
{
	return 0;
}

void ascend_emu_cp_fini(struct ascend_emu *emu)
{
}

int ascend_emu_queue_start(struct ascend_hw_device *hw, u32 qid,
			   const struct ascend_hw_queue_ctx *ctx)
{
	return -ENODEV;
}

void ascend_emu_queue_stop(struct ascend_hw_device *hw, u32 qid)
{
}

void ascend_emu_queue_doorbell(struct ascend_hw_device *hw, u32 qid)
{
}

void ascend_emu_queue_halt(struct ascend_hw_device *hw, u32 qid)
{
}

int ascend_emu_queue_info(struct ascend_hw_device *hw, u32 qid,
			  struct ascend_hw_queue_info *info)
{
	return -ENOENT;
}

void ascend_emu_set_cmd_timeout(struct ascend_hw_device *hw, u32 ms)
{
}

void ascend_emu_cp_kick(struct ascend_emu *emu)
{
}

void ascend_emu_cp_event_recorded(struct ascend_emu *emu)
{
}

/* The groups' DMA share (ascend_emu_cp.c): copies here name no group. */
bool ascend_emu_cp_dma_begin(struct ascend_emu *emu, struct ascend_cp_group *grp,
			     const bool *abort)
{
	return true;
}

void ascend_emu_cp_dma_end(struct ascend_emu *emu, struct ascend_cp_group *grp)
{
}

/* The AI cores' time slicing (ascend_emu_cp.c): kernels run untimed here. */
bool ascend_emu_core_yield_due(struct ascend_emu_slice *sl)
{
	return false;
}

/*
 * The command processor's memory access by VA (ascend_emu_cp.c, not
 * compiled in): the built-in kernels under test run on queues without a
 * device MMU context, where every VA faults.
 */
int ascend_emu_vm_rw(struct ascend_emu_queue *q, u64 va, void *buf,
		     size_t len, bool write)
{
	return -EFAULT;
}
