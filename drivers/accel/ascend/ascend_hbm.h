/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HBM manager: device memory ranges on gpu_buddy, page-size classes
 * and accounting.
 */
#ifndef __ASCEND_HBM_H__
#define __ASCEND_HBM_H__

#include <linux/gpu_buddy.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

/**
 * struct ascend_hbm - device memory of one NPU
 * @lock: protects @mm and @used (gpu_buddy leaves locking to its user)
 * @mm: the buddy allocator over [0, @size)
 * @size: bytes of HBM
 * @used: bytes allocated
 */
struct ascend_hbm {
	struct mutex lock;
	struct gpu_buddy mm;
	u64 size;
	u64 used;
};

#endif /* __ASCEND_HBM_H__ */
