// SPDX-License-Identifier: MIT
/*
 * smi_dev.c - find the ascend NPUs under /sys/class/accel and ask each
 * node what it is (smi_dev.h).  Ioctls only: no libacl_rt, no libdrm link.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smi_dev.h"

static void query_device(struct smi_dev *d)
{
	struct drm_ascend_dev_query q = { 0 };
	struct drm_version v = { 0 };
	struct stat st;
	int fd;

	fd = open(d->node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		d->open_errno = errno;
		if (stat(d->node, &st) == 0 && S_ISCHR(st.st_mode))
			d->rdev = st.st_rdev;
		return;
	}
	if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode))
		d->rdev = st.st_rdev;
	v.name = d->driver;
	v.name_len = sizeof(d->driver) - 1;
	v.desc = d->driver_desc;
	v.desc_len = sizeof(d->driver_desc) - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v) == 0)
		snprintf(d->driver_version, sizeof(d->driver_version), "%d.%d.%d",
			 v.version_major, v.version_minor, v.version_patchlevel);
	q.type = DRM_ASCEND_QUERY_DEVICE_INFO;
	q.size = sizeof(d->info);
	q.data = (uintptr_t)&d->info;
	if (ioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q) != 0)
		d->query_errno = errno;
	d->info.soc_name[sizeof(d->info.soc_name) - 1] = '\0';
	close(fd);
}

static int cmp_dev(const void *a, const void *b)
{
	const struct smi_dev *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

int smi_scan(struct smi_dev *devs)
{
	DIR *dir = opendir("/sys/class/accel");
	struct dirent *e;
	int i, n = 0;

	if (!dir)
		return 0;
	while ((e = readdir(dir)) && n < SMI_MAX_DEVICES) {
		char link[PATH_MAX], target[PATH_MAX];
		struct smi_dev *d = &devs[n];
		unsigned int idx;
		const char *base;
		char tail;
		ssize_t len;

		if (sscanf(e->d_name, "accel%u%c", &idx, &tail) != 1)
			continue;
		snprintf(link, sizeof(link), "/sys/class/accel/%s/device", e->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		if (strncmp(base, "ascend.", 7) != 0)
			continue;
		memset(d, 0, sizeof(*d));
		d->index = idx;
		snprintf(d->node, sizeof(d->node), "/dev/accel/%.40s", e->d_name);
		snprintf(d->bus, sizeof(d->bus), "%.60s", base);
		n++;
	}
	closedir(dir);
	qsort(devs, n, sizeof(devs[0]), cmp_dev);
	for (i = 0; i < n; i++)
		query_device(&devs[i]);
	return n;
}

const char *smi_health_detail(const struct smi_dev *d)
{
	static char buf[128];

	if (d->open_errno)
		snprintf(buf, sizeof(buf), "open %s: %s", d->node, strerror(d->open_errno));
	else if (d->query_errno)
		snprintf(buf, sizeof(buf), "device query: %s", strerror(d->query_errno));
	else
		snprintf(buf, sizeof(buf), "answers device queries");
	return buf;
}
