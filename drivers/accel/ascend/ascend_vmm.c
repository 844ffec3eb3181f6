// SPDX-License-Identifier: GPL-2.0-only
/*
 * Virtual memory management: physical allocations, reservations, mappings
 * (see ascend_vmm.h).
 *
 * Bounds: a file holds at most DRM_ASCEND_VA_MAX_RESERVATIONS reservations
 * and DRM_ASCEND_VA_MAX_MAPPINGS mappings (each costs kernel memory and
 * page tables whatever the memory it maps, since one allocation may be
 * mapped many times); the memory itself is charged to its allocator's
 * share once, when allocated.
 */
#include <linux/dma-buf.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_prime.h>

#include "ascend_drv.h"
#include "ascend_fault.h"
#include "ascend_gem.h"
#include "ascend_hbm.h"
#include "ascend_trace.h"
#include "ascend_vmm.h"

#define ASCEND_VMM_RESV_ALIGN	SZ_2M

static void ascend_phys_free(struct drm_gem_object *obj)
{
	struct ascend_phys *phys = container_of(obj, struct ascend_phys, base);

	drm_gem_object_release(obj);
	ascend_hbm_buf_put(phys->buf);
	kfree(phys);
}

/*
 * A dma-buf of a physical allocation names it between files of its own
 * device (PRIME import finds the same object); no other driver can use
 * device memory, so attaching fails before anything is mapped.
 */
static int ascend_phys_pin(struct drm_gem_object *obj)
{
	return -EOPNOTSUPP;
}

static struct sg_table *ascend_phys_get_sg_table(struct drm_gem_object *obj)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct drm_gem_object_funcs ascend_phys_funcs = {
	.free = ascend_phys_free,
	.pin = ascend_phys_pin,
	.get_sg_table = ascend_phys_get_sg_table,
};

/* Make @buf a physical allocation object with a handle in @file. */
static int ascend_phys_publish(struct drm_file *file, struct ascend_hbm_buf *buf,
			       u32 *handle)
{
	struct ascend_phys *phys;
	int ret;

	phys = kzalloc(sizeof(*phys), GFP_KERNEL_ACCOUNT);
	if (!phys) {
		ascend_hbm_buf_put(buf);
		return -ENOMEM;
	}
	phys->buf = buf;
	/* From here on the object's .free drops @buf. */
	phys->base.funcs = &ascend_phys_funcs;
	drm_gem_private_object_init(&buf->adev->drm, &phys->base,
				    round_up(buf->mem.size, PAGE_SIZE));
	ret = drm_gem_handle_create(file, &phys->base, handle);
	drm_gem_object_put(&phys->base);
	return ret;
}

void ascend_vmm_debugfs_phys(struct seq_file *m, struct drm_file *file,
			     pid_t pid)
{
	struct drm_gem_object *obj;
	struct ascend_hbm_buf *buf;
	unsigned int i;
	int id;

	/* the handles cannot go while the table lock is held */
	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		if (obj->funcs != &ascend_phys_funcs)
			continue;
		buf = container_of(obj, struct ascend_phys, base)->buf;
		/* the object's reference and one per mapping or export */
		seq_printf(m, "%8d %18s %12llu %10llu %-11s handle=%d refs=%u",
			   pid, "-", buf->mem.size, buf->mem.page_size,
			   "physical", id, kref_read(&buf->ref));
		for (i = 0; i < buf->mem.nr_ranges; i++)
			seq_printf(m, " %#llx+%#llx", buf->mem.ranges[i].addr,
				   buf->mem.ranges[i].size);
		seq_putc(m, '\n');
	}
	spin_unlock(&file->table_lock);
}

int ascend_vmm_phys_import(struct drm_file *file, struct ascend_hbm_buf *buf,
			   u32 *handle)
{
	return ascend_phys_publish(file, buf, handle);
}

int ascend_vmm_phys_buf(struct drm_file *file, u32 handle,
			struct ascend_hbm_buf **buf)
{
	struct drm_gem_object *obj = drm_gem_object_lookup(file, handle);
	int ret = 0;

	if (!obj)
		return -ENOENT;
	if (obj->funcs == &ascend_phys_funcs) {
		*buf = container_of(obj, struct ascend_phys, base)->buf;
		ascend_hbm_buf_get(*buf);
	} else {
		ret = -ENOENT;
	}
	drm_gem_object_put(obj);
	return ret;
}

int ascend_ioctl_phys_alloc(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_device *adev = to_ascend_device(drm);
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_phys_alloc *args = data;
	struct ascend_hbm_buf *buf;
	u32 handle;
	u64 end;
	int ret;

	if (!args->size || args->flags & ~DRM_ASCEND_BO_P2P ||
	    args->policy > DRM_ASCEND_BO_HUGE1G_ONLY)
		return -EINVAL;
	if (check_add_overflow(args->size, (u64)ASCEND_HBM_PAGE_HUGE1G, &end))
		return -ENOSPC;
	if (ascend_should_fail(adev, ASCEND_FAULT_SITE_HBM_ALLOC))
		return -ENOSPC;
	ret = ascend_hbm_buf_create(af, args->size, args->policy,
				    args->flags & DRM_ASCEND_BO_P2P, &buf);
	if (ret)
		return ret;
	args->alloc_size = buf->mem.size;
	args->page_size = buf->mem.page_size;
	ret = ascend_phys_publish(file, buf, &handle);
	if (ret)
		return ret;
	args->handle = handle;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* reservations */

int ascend_ioctl_va_reserve(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_va_reserve *args = data;
	struct ascend_vm_resv *resv;
	u64 align = args->align;
	int ret;

	if (args->flags || args->pad || !args->size ||
	    !IS_ALIGNED(args->size, ASCEND_VMM_RESV_ALIGN))
		return -EINVAL;
	if (!align)
		align = args->size >= SZ_1G ? SZ_1G : ASCEND_VMM_RESV_ALIGN;
	if (!is_power_of_2(align) || align < ASCEND_VMM_RESV_ALIGN ||
	    align > SZ_1G || !IS_ALIGNED(args->va, align))
		return -EINVAL;

	if (atomic_inc_return(&af->nr_vmm_resv) > DRM_ASCEND_VA_MAX_RESERVATIONS) {
		ret = -EMFILE;
		goto err_count;
	}
	resv = kzalloc(sizeof(*resv), GFP_KERNEL_ACCOUNT);
	if (!resv) {
		ret = -ENOMEM;
		goto err_count;
	}
	ret = ascend_vm_reserve(&af->vm, resv, args->va, args->size, align);
	if (ret)
		goto err_free;
	args->va = resv->map.node.start;
	return 0;

err_free:
	kfree(resv);
err_count:
	atomic_dec(&af->nr_vmm_resv);
	return ret;
}

int ascend_ioctl_va_release(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_va_release *args = data;
	struct ascend_vm_resv *resv;
	int ret = 0;

	mutex_lock(&af->vm.lock);
	resv = ascend_vm_find_resv_locked(&af->vm, args->va);
	if (!resv)
		ret = -ENOENT;
	else if (resv->nr_parts)
		ret = -EBUSY;
	else
		ascend_vm_release_locked(&af->vm, resv);
	mutex_unlock(&af->vm.lock);
	if (ret)
		return ret;
	kfree(resv);
	atomic_dec(&af->nr_vmm_resv);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* mappings */

static void ascend_vmm_map_free(struct ascend_vmm_map *m)
{
	ascend_hbm_buf_put(m->buf);
	kfree(m->ranges);
	/* the file's spare record if it has none */
	if (cmpxchg(&m->af->vmm_spare, NULL, m))
		kfree(m);
}

int ascend_ioctl_va_map(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_va_map *args = data;
	struct ascend_vm_resv *resv;
	struct ascend_vmm_map *m;
	u64 page, end;
	int n, ret;

	if (args->flags & ~DRM_ASCEND_VA_MAP_FLAGS || !args->size ||
	    check_add_overflow(args->va, args->size, &end) ||
	    check_add_overflow(args->offset, args->size, &end))
		return -EINVAL;

	if (atomic_inc_return(&af->nr_vmm_maps) > DRM_ASCEND_VA_MAX_MAPPINGS) {
		ret = -EMFILE;
		goto err_count;
	}
	m = xchg(&af->vmm_spare, NULL);
	if (m)
		memset(m, 0, sizeof(*m));
	else
		m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m) {
		ret = -ENOMEM;
		goto err_count;
	}
	ret = ascend_vmm_phys_buf(file, args->handle, &m->buf);
	if (ret)
		goto err_free;
	/* whole pages of the backing, at VAs its leaves can map */
	page = m->buf->mem.page_size;
	if (!IS_ALIGNED(args->va | args->size | args->offset, page)) {
		ret = -EINVAL;
		goto err_put;
	}
	if (!args->offset && args->size == m->buf->mem.size) {
		/* all of it: its own ranges, which live as long as @buf */
		m->map.ranges = m->buf->mem.ranges;
		m->map.nr_ranges = m->buf->mem.nr_ranges;
	} else {
		n = ascend_hbm_sub_ranges(&m->buf->mem, args->offset,
					  args->size, &m->ranges);
		if (n < 0) {
			ret = n;
			goto err_put;
		}
		m->map.ranges = m->ranges;
		m->map.nr_ranges = n;
	}
	m->af = af;
	m->offset = args->offset;
	m->map.size = args->size;
	m->map.readonly = args->flags & DRM_ASCEND_VA_MAP_READONLY;
	m->map.noaccess = args->flags & DRM_ASCEND_VA_MAP_NOACCESS;

	mutex_lock(&af->vm.lock);
	/* in the ioctl's device section (ascend_ioctl_hw()) */
	ascend_vm_section_begin_locked(&af->vm);
	resv = ascend_vm_resv_of_locked(&af->vm, args->va, args->size);
	if (resv)
		ret = ascend_vm_map_part_locked(&af->vm, resv, &m->map, args->va);
	else
		ret = -EINVAL;
	ascend_vm_section_end_locked(&af->vm);
	mutex_unlock(&af->vm.lock);
	if (ret)
		goto err_put;
	return 0;

err_put:
	ascend_hbm_buf_put(m->buf);
err_free:
	kfree(m->ranges);
	kfree(m);
err_count:
	atomic_dec(&af->nr_vmm_maps);
	return ret;
}

/* The mapping of @af starting at @va (of @size unless 0); vm.lock held. */
static struct ascend_vmm_map *ascend_vmm_find_locked(struct ascend_file *af,
						     u64 va, u64 size,
						     struct ascend_vm_resv **resv)
{
	struct ascend_vm_mapping *part;

	*resv = ascend_vm_resv_of_locked(&af->vm, va, size ? size : 1);
	if (!*resv)
		return NULL;
	part = ascend_vm_find_part_locked(*resv, va);
	if (!part || (size && part->size != size))
		return NULL;
	return container_of(part, struct ascend_vmm_map, map);
}

int ascend_ioctl_va_unmap(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_va_unmap *args = data;
	struct ascend_vm_resv *resv;
	struct ascend_vmm_map *m;

	/* Waits for device accesses in flight: they hold vm->lock. */
	mutex_lock(&af->vm.lock);
	ascend_vm_section_begin_locked(&af->vm);	/* the ioctl's */
	m = ascend_vmm_find_locked(af, args->va, 0, &resv);
	if (m)
		ascend_vm_unmap_part_locked(&af->vm, resv, &m->map);
	ascend_vm_section_end_locked(&af->vm);
	mutex_unlock(&af->vm.lock);
	if (!m)
		return -ENOENT;
	atomic_dec(&af->nr_vmm_maps);
	/*
	 * The invalidation returned only once the device's accesses through
	 * the old entries were over (hardware.rst, "Device MMU"): queued work
	 * that still names the range faults, and nothing of this file can
	 * reach the memory any more, so the reference goes now.
	 */
	ascend_vmm_map_free(m);
	return 0;
}

int ascend_ioctl_va_protect(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_va_protect *args = data;
	struct ascend_vm_resv *resv;
	struct ascend_vmm_map *m;
	int ret;

	if (args->pad || !args->size ||
	    (args->access != DRM_ASCEND_VA_ACCESS_NONE &&
	     args->access != DRM_ASCEND_VA_ACCESS_READ &&
	     args->access != DRM_ASCEND_VA_ACCESS_READWRITE))
		return -EINVAL;

	mutex_lock(&af->vm.lock);
	m = ascend_vmm_find_locked(af, args->va, args->size, &resv);
	if (m)
		ret = ascend_vm_protect_part_locked(&af->vm, &m->map,
						    args->access == DRM_ASCEND_VA_ACCESS_READ,
						    args->access == DRM_ASCEND_VA_ACCESS_NONE);
	else
		ret = -ENOENT;
	mutex_unlock(&af->vm.lock);
	return ret;
}

void ascend_vmm_file_fini(struct ascend_file *af)
{
	struct interval_tree_node *it, *nit;
	struct drm_mm_node *node, *next;
	struct ascend_vm_mapping *map;
	struct ascend_vm_resv *resv;
	struct ascend_vmm_map *m;
	LIST_HEAD(dead);

	mutex_lock(&af->vm.lock);
	if (af->vm.size) {
		drm_mm_for_each_node_safe(node, next, &af->vm.mm) {
			map = container_of(node, struct ascend_vm_mapping, node);
			if (map->kind != ASCEND_VM_RESV)
				continue;
			resv = container_of(map, struct ascend_vm_resv, map);
			for (it = interval_tree_iter_first(&resv->parts, 0,
							   ULONG_MAX); it; it = nit) {
				nit = interval_tree_iter_next(it, 0, ULONG_MAX);
				m = container_of(it, struct ascend_vmm_map,
						 map.part);
				ascend_vm_unmap_part_locked(&af->vm, resv, &m->map);
				list_add_tail(&m->link, &dead);
			}
			ascend_vm_release_locked(&af->vm, resv);
			kfree(resv);
		}
	}
	mutex_unlock(&af->vm.lock);

	/* the queues are stopped: nothing of this file reaches the memory */
	while ((m = list_first_entry_or_null(&dead, struct ascend_vmm_map,
					     link))) {
		list_del(&m->link);
		ascend_vmm_map_free(m);
	}
	kfree(xchg(&af->vmm_spare, NULL));
	atomic_set(&af->nr_vmm_maps, 0);
	atomic_set(&af->nr_vmm_resv, 0);
}
