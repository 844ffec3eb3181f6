/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A file's event table: the handle -> event slot map the device reads for
 * the file's queue commands, in the format of ascend_hw.h ("Event
 * tables"), in page-table memory.  The driver's own handle table stays the
 * file's xarray; this one mirrors it for the device.
 */
#ifndef __ASCEND_EVTAB_H__
#define __ASCEND_EVTAB_H__

#include <linux/mutex.h>
#include <linux/types.h>

#include "ascend_hw.h"
#include "ascend_queue.h"

struct ascend_device;

/* Leaf pages a file can need: handles 1 .. ASCEND_MAX_EVENTS_PER_FILE */
#define ASCEND_EVTAB_LEAVES \
	(ASCEND_MAX_EVENTS_PER_FILE / ASCEND_HW_EVTAB_LEAF_ENTRIES + 1)

/**
 * struct ascend_evtab - one file's event table
 * @lock: protects @dir, @leaves, @leaf_map and the entries the driver
 *	writes (the device only reads them)
 * @dir: device address of the directory page, 0 until first needed
 * @leaves: device addresses of the leaf pages, 0 where none yet
 * @leaf_map: CPU addresses of the leaf pages through the aperture
 */
struct ascend_evtab {
	struct mutex lock;	/* dir, leaves, leaf_map, entries */
	u64 dir;
	u64 leaves[ASCEND_EVTAB_LEAVES];
	__le32 *leaf_map[ASCEND_EVTAB_LEAVES];
};

void ascend_evtab_init(struct ascend_evtab *t);
/* Free the table's pages; no queue of the file may run any more. */
void ascend_evtab_fini(struct ascend_device *adev, struct ascend_evtab *t);

/*
 * The directory's device address (allocated at first use) in *@dir:
 * 0, -ENOSPC (no page-table memory left) or -ENODEV.
 */
int ascend_evtab_dir(struct ascend_device *adev, struct ascend_evtab *t,
		     u64 *dir);

/* Map @handle to @slot (0: unmap).  0, -ENOSPC, -EINVAL or -ENODEV. */
int ascend_evtab_set(struct ascend_device *adev, struct ascend_evtab *t,
		     u32 handle, u32 slot);

#endif /* __ASCEND_EVTAB_H__ */
