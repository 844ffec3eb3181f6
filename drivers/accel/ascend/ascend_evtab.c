// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event tables (ascend_evtab.h).  Pages come from the page-table memory
 * and are written through the aperture mapping (hbm_map_page) with single
 * 32/64-bit stores, so the device never reads a torn entry.  Unmapping an
 * entry does not wait for the device: whoever frees the slot behind it
 * calls the device's event_sync first (ascend_event.c).
 */

#include <drm/drm_drv.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "ascend_drv.h"
#include "ascend_evtab.h"
#include "ascend_pt.h"

void ascend_evtab_init(struct ascend_evtab *t)
{
	mutex_init(&t->lock);
	t->dir = 0;
	memset(t->leaves, 0, sizeof(t->leaves));
	memset(t->leaf_map, 0, sizeof(t->leaf_map));
}

void ascend_evtab_fini(struct ascend_device *adev, struct ascend_evtab *t)
{
	unsigned int i;

	for (i = 0; i < ASCEND_EVTAB_LEAVES; i++)
		if (t->leaves[i])
			ascend_pt_pool_page_free(adev, t->leaves[i]);
	if (t->dir)
		ascend_pt_pool_page_free(adev, t->dir);
	ascend_evtab_init(t);
	mutex_destroy(&t->lock);
}

/* A zeroed page and its CPU address through the aperture. */
static u64 ascend_evtab_page(struct ascend_device *adev, void **map)
{
	u64 addr;

	if (!adev->hw_ops->hbm_map_page)
		return 0;
	addr = ascend_pt_pool_page_alloc(adev);
	if (!addr)
		return 0;
	*map = adev->hw_ops->hbm_map_page(adev->hw, addr);
	if (!*map) {
		ascend_pt_pool_page_free(adev, addr);
		return 0;
	}
	return addr;
}

/* @t->lock held, inside drm_dev_enter(). */
static int ascend_evtab_dir_locked(struct ascend_device *adev,
				   struct ascend_evtab *t)
{
	void *map;

	if (t->dir)
		return 0;
	t->dir = ascend_evtab_page(adev, &map);
	return t->dir ? 0 : -ENOSPC;
}

int ascend_evtab_dir(struct ascend_device *adev, struct ascend_evtab *t,
		     u64 *dir)
{
	int idx, ret;

	if (!drm_dev_enter(&adev->drm, &idx))
		return -ENODEV;
	mutex_lock(&t->lock);
	ret = ascend_evtab_dir_locked(adev, t);
	*dir = t->dir;
	mutex_unlock(&t->lock);
	drm_dev_exit(idx);
	return ret;
}

int ascend_evtab_set(struct ascend_device *adev, struct ascend_evtab *t,
		     u32 handle, u32 slot)
{
	unsigned int leaf = handle / ASCEND_HW_EVTAB_LEAF_ENTRIES;
	__le64 *dir_map;
	void *map;
	int idx, ret = 0;

	if (leaf >= ASCEND_EVTAB_LEAVES)
		return -EINVAL;
	if (!drm_dev_enter(&adev->drm, &idx))
		return -ENODEV;
	mutex_lock(&t->lock);
	if (!slot && !t->leaves[leaf])
		goto out;	/* nothing mapped there */
	ret = ascend_evtab_dir_locked(adev, t);
	if (ret)
		goto out;
	if (!t->leaves[leaf]) {
		t->leaves[leaf] = ascend_evtab_page(adev, &map);
		if (!t->leaves[leaf]) {
			ret = -ENOSPC;
			goto out;
		}
		t->leaf_map[leaf] = map;
		dir_map = adev->hw_ops->hbm_map_page(adev->hw, t->dir);
		if (WARN_ON(!dir_map)) {
			ret = -ENODEV;
			goto out;
		}
		/* the leaf is zeroed before the directory points at it */
		smp_wmb();
		WRITE_ONCE(dir_map[leaf], cpu_to_le64(t->leaves[leaf]));
	}
	/* a new slot's initial contents are visible before its entry */
	smp_wmb();
	WRITE_ONCE(t->leaf_map[leaf][handle % ASCEND_HW_EVTAB_LEAF_ENTRIES],
		   cpu_to_le32(slot));
out:
	mutex_unlock(&t->lock);
	drm_dev_exit(idx);
	return ret;
}
