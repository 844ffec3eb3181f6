/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HBM buffer objects: device memory allocated by one file and mapped into
 * its device address space.  They are never shared (no flink, no PRIME
 * export), so they die before their file's address space does.
 */
#ifndef __ASCEND_GEM_H__
#define __ASCEND_GEM_H__

#include <drm/drm_gem.h>

#include "ascend_hbm.h"
#include "ascend_queue.h"
#include "ascend_vm.h"

struct ascend_file;

/**
 * struct ascend_bo - an HBM buffer object
 * @base: the GEM object
 * @af: the file that created it, the only one allowed a handle
 * @mem: the device memory
 * @map: its mapping in @af's address space
 * @retire: once the last GEM reference is gone, the unmap and the HBM
 *	release wait on this for the file's queued commands to complete
 *
 * Every node of a file's address space (&ascend_vm.mm) is the @map.node of
 * one of its BOs; debugfs relies on that to list them.
 */
struct ascend_bo {
	struct drm_gem_object base;
	struct ascend_file *af;
	struct ascend_hbm_alloc mem;
	struct ascend_vm_mapping map;
	struct ascend_retire retire;
};

static inline struct ascend_bo *to_ascend_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct ascend_bo, base);
}

#endif /* __ASCEND_GEM_H__ */
