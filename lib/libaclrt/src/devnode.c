// SPDX-License-Identifier: MIT
/*
 * devnode.c - finding the Ascend accel nodes, opening one, reserving and
 * registering its device VA window, and reading its built-in kernel table.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>

#include "internal.h"

/*
 * Device ids: the present devices in increasing device index (the N of the
 * kernel's ascend.N), numbered from 0.  With every device present that is
 * the order of the accel minors; after a device was removed (hot-unplug)
 * the ids stay dense, as aclrtGetDeviceCount() promises, and a device
 * added again takes its place by index even when it got a new minor.
 */
struct node { unsigned int index, minor; char path[64]; };

static int node_cmp(const void *a, const void *b)
{
	const struct node *x = a, *y = b;

	if (x->index != y->index)
		return (x->index > y->index) - (x->index < y->index);
	return (x->minor > y->minor) - (x->minor < y->minor);
}

static bool is_ascend(const char *path, struct node *n)
{
	struct drm_ascend_device_info info;
	uint32_t size = sizeof(info);
	drmVersionPtr v;
	struct stat st;
	bool ok = false;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode)) {
		v = drmGetVersion(fd);
		if (v) {
			ok = v->name && strcmp(v->name, "ascend") == 0;
			drmFreeVersion(v);
		}
		n->minor = minor(st.st_rdev);
		/* a node that cannot answer is going away: no device */
		memset(&info, 0, sizeof(info));
		if (ok && devnode_query(fd, DRM_ASCEND_QUERY_DEVICE_INFO, &info, &size))
			ok = false;
		n->index = info.device_index;
	}
	close(fd);
	return ok;
}

/* Fill @paths with the ascend nodes ordered by device index; returns how many. */
int devnode_scan(char paths[][64], int max)
{
	struct node nodes[ACL_MAX_DEVICES];
	struct dirent *de;
	int n = 0, i;
	DIR *d;

	d = opendir("/dev/accel");
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL && n < ACL_MAX_DEVICES) {
		if (strncmp(de->d_name, "accel", 5) != 0)
			continue;
		if (strlen(de->d_name) > 32)
			continue;
		snprintf(nodes[n].path, sizeof(nodes[n].path), "/dev/accel/%.32s",
			 de->d_name);
		if (is_ascend(nodes[n].path, &nodes[n]))
			n++;
	}
	closedir(d);
	qsort(nodes, n, sizeof(nodes[0]), node_cmp);
	for (i = 0; i < n && i < max; i++)
		memcpy(paths[i], nodes[i].path, 64);
	return i;
}

/* DEV_QUERY; returns 0 or -errno.  @size in: buffer size, out: full size. */
int devnode_query(int fd, uint32_t type, void *buf, uint32_t *size)
{
	struct drm_ascend_dev_query q = {
		.type = type, .size = *size, .data = (uintptr_t)buf,
	};

	if (drmIoctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q))
		return -errno;
	*size = q.size;
	return 0;
}

static size_t round_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/* Reserve an aligned PROT_NONE range and register it as the VA window. */
static aclError reserve_window(struct acl_device *dev)
{
	size_t align = dev->info.va_window_align ? dev->info.va_window_align : 4096;
	size_t size = 2 * dev->info.hbm_total;
	struct drm_ascend_va_window w = { 0 };
	uintptr_t raw, base;
	void *p;

	if (size < dev->info.va_window_min_size)
		size = dev->info.va_window_min_size;
	size = round_up(size ? size : align, align);
	p = mmap(NULL, size + align, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return acl_err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
			       "cannot reserve a %zu-byte device VA window for device %d: %s",
			       size, dev->id, strerror(errno));
	raw = (uintptr_t)p;
	base = round_up(raw, align);
	if (base > raw)
		munmap(p, base - raw);
	if (raw + align > base)
		munmap((void *)(base + size), raw + align - base);
	w.base = base;
	w.size = size;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w)) {
		int e = errno;

		munmap((void *)base, size);
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "device %d refused VA window [%#lx, +%#zx): %s",
			       dev->id, (unsigned long)base, size, strerror(e));
	}
	dev->va_base = base;
	dev->va_size = size;
	return ACL_SUCCESS;
}

static void load_kernels(struct acl_device *dev)
{
	uint32_t size = 0;
	void *buf;

	dev->kernels = NULL;
	dev->num_kernels = 0;
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_BUILTIN_KERNELS))
		return;
	if (devnode_query(dev->fd, DRM_ASCEND_QUERY_KERNELS, NULL, &size) || !size)
		return;
	buf = calloc(1, size);
	if (!buf)
		return;
	if (devnode_query(dev->fd, DRM_ASCEND_QUERY_KERNELS, buf, &size)) {
		free(buf);
		return;
	}
	dev->kernels = buf;
	dev->num_kernels = size / sizeof(struct drm_ascend_kernel_info);
}

/* Open @dev's node and set up what every later call needs.  rw held. */
aclError devnode_open(struct acl_device *dev)
{
	uint32_t size = sizeof(dev->info);
	aclError ret;
	int e;

	dev->fd = open(dev->path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID, "cannot open %s for device %d: %s",
			       dev->path, dev->id, strerror(errno));
	memset(&dev->info, 0, sizeof(dev->info));
	e = devnode_query(dev->fd, DRM_ASCEND_QUERY_DEVICE_INFO, &dev->info, &size);
	if (e) {
		ret = acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			      "device info query on %s failed: %s", dev->path, strerror(-e));
		goto err_close;
	}
	ret = reserve_window(dev);
	if (ret)
		goto err_close;
	load_kernels(dev);
	memory_ring_open(dev);	/* optional: aclrtFree without a system call */
	dev->activity = queue_activity_open(dev->fd);	/* optional: cheap syncs */
	dev->open = true;
	return ACL_SUCCESS;

err_close:
	close(dev->fd);
	dev->fd = -1;
	return ret;
}

/* Close the node (frees every BO and queue of this file) and the window. */
void devnode_close(struct acl_device *dev)
{
	memory_ring_close(dev);
	queue_activity_close(dev->activity);
	dev->activity = NULL;
	close(dev->fd);
	dev->fd = -1;
	if (dev->va_size)
		munmap((void *)dev->va_base, dev->va_size);
	dev->va_base = 0;
	dev->va_size = 0;
	free(dev->kernels);
	dev->kernels = NULL;
	dev->num_kernels = 0;
	dev->open = false;
}
