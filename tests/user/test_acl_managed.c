// SPDX-License-Identifier: MIT
/*
 * test_acl_managed.c - managed memory: aclrtMemAllocManaged, touched by
 * the host and the device in turn, prefetches, advice and attributes, and
 * the driver's MANAGED_* ioctls underneath (where the chunks are, what
 * moved, the arguments it refuses).
 *
 * The driver's own figures are read with DRM_IOCTL_ASCEND_MANAGED_QUERY on
 * libaclrt's file of device 0 (found in /proc/self/fd): the counters are
 * per file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl_util.h"
#include "ascend_accel.h"
#include "tap.h"

#define MB2	(2UL << 20)

/* libaclrt's open file of the device: the highest /dev/accel fd. */
static int lib_fd(void)
{
	char path[300], link[128];
	struct dirent *e;
	int fd = -1;
	DIR *d;

	d = opendir("/proc/self/fd");
	REQUIRE(d != NULL);
	while ((e = readdir(d))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (strstr(link, "/dev/accel/accel") && atoi(e->d_name) > fd)
			fd = atoi(e->d_name);
	}
	closedir(d);
	REQUIRE(fd >= 0);
	return fd;
}

static struct drm_ascend_managed_query query(const void *p, size_t size)
{
	struct drm_ascend_managed_query q = { .va = (uintptr_t)p, .size = size };

	REQUIRE(ioctl(lib_fd(), DRM_IOCTL_ASCEND_MANAGED_QUERY, &q) == 0);
	return q;
}

static void *managed(size_t size)
{
	void *p = NULL;
	aclError r = aclrtMemAllocManaged(&p, size, ACL_RT_MEM_ATTACH_GLOBAL);

	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("no managed memory (DRM_ASCEND_CAP_MANAGED)");
	REQUIRE_ACL(r);
	REQUIRE(p != NULL);
	return p;
}

static aclrtMemManagedLocation loc(aclrtMemManagedLocationType type, int id)
{
	aclrtMemManagedLocation l = { .type = type, .id = id };

	return l;
}

TEST(alloc_and_arguments)
{
	void *p = NULL;
	unsigned char *m;

	acl_setup();
	CHECK_ACL_ERR(aclrtMemAllocManaged(NULL, 4096, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemAllocManaged(&p, 0, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemAllocManaged(&p, 4096, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemAllocManaged(&p, 1ULL << 50, 1), ACL_ERROR_RT_MEMORY_ALLOCATION);

	m = managed(3 * MB2 + 1);
	/* rounded to 2 MiB chunks; never touched reads zeroes on both sides */
	CHECK_EQ(query(m, 1).host_bytes, 0);
	CHECK_EQ(query(m, 1).device_bytes, 0);
	CHECK_EQ(check_bytes(m, 4 * MB2, 0), -1);
	m[4 * MB2 - 1] = 7;
	CHECK_EQ(m[4 * MB2 - 1], 7);
	/* an ordinary device pointer for the rest of the API */
	CHECK_EQ(acl_alloc_size(m) >= 4 * MB2, 1);
	CHECK_ACL_OK(aclrtFree(m));
	CHECK_ACL_ERR(aclrtFree(m), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(host_and_device_in_turn)
{
	struct drm_ascend_managed_query q0, q;
	unsigned char *m, *h;
	aclrtStream s;
	int i, round;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	m = managed(4 * MB2);
	h = malloc(4 * MB2);
	REQUIRE(h != NULL);
	q0 = query(m, 4 * MB2);

	for (round = 0; round < 3; round++) {
		/* the host writes all of it: every chunk comes to host pages */
		fill_pattern(m, 4 * MB2, 100 + round);
		q = query(m, 4 * MB2);
		CHECK_EQ(q.host_bytes, 4 * MB2);
		CHECK_EQ(q.device_bytes, 0);
		/* the device reads it (a copy) and writes part of it (a kernel) */
		REQUIRE_ACL(aclrtMemcpy(h, 4 * MB2, m, 4 * MB2, ACL_MEMCPY_DEVICE_TO_HOST));
		CHECK_EQ(check_pattern(h, 4 * MB2, 100 + round), -1);
		CHECK_ACL_OK(launch_fill32(s, (int *)(m + MB2 - 64), 0x5a5a0000 + round, 64, 2));
		CHECK_ACL_OK(aclrtSynchronizeStream(s));
		q = query(m, 4 * MB2);
		CHECK_EQ(q.device_bytes, 4 * MB2);
		CHECK_EQ(q.host_bytes, 0);
		/* the host reads what the device wrote, byte for byte */
		for (i = 0; i < 64; i++)
			CHECK_EQ(((int *)(m + MB2 - 64))[i], 0x5a5a0000 + round);
		CHECK_EQ(check_pattern(m, MB2 - 64, 100 + round), -1);
		/* the bytes after the kernel's: the pattern, seen at its offset */
		fill_pattern(h, 4 * MB2, 100 + round);
		CHECK(!memcmp(m + MB2 + 192, h + MB2 + 192, 3 * MB2 - 192));
	}
	q = query(m, 4 * MB2);
	/* three rounds of 4 MiB each way (the first read of a chunk on the
	 * host moves it whole) */
	CHECK_EQ(q.to_device - q0.to_device, 3 * 4 * MB2);
	CHECK_EQ(q.to_host - q0.to_host, 3 * 4 * MB2);
	CHECK_ACL_OK(aclrtFree(m));
	free(h);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(device_first_touch)
{
	aclrtStream s;
	int *m, i;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	m = managed(MB2);
	/* a memset, a kernel and a device-to-device copy, nothing on the host */
	CHECK_ACL_OK(aclrtMemset(m, MB2, 0xcd, MB2));
	CHECK_ACL_OK(launch_fill32(s, m, 42, 16, 1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtMemcpy(m + 1024, 64, m, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK_EQ(query(m, MB2).device_bytes, MB2);
	for (i = 0; i < 16; i++) {
		CHECK_EQ(m[i], 42);
		CHECK_EQ(m[1024 + i], 42);
	}
	CHECK_EQ(check_bytes(m + 16, 1024 * 4 - 64, 0xcd), -1);
	CHECK_ACL_OK(aclrtFree(m));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* Work on a stream touches host chunks: the device's page requests. */
TEST(device_page_requests)
{
	unsigned char *m;
	aclrtStream s;
	int i, *k;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	m = managed(3 * MB2);
	fill_pattern(m, 3 * MB2, 21);
	CHECK_EQ(query(m, 3 * MB2).host_bytes, 3 * MB2);
	/* a kernel writes chunk 1, an async copy moves chunk 0 into chunk 2 */
	k = (int *)(m + MB2);
	CHECK_ACL_OK(launch_fill32(s, k, 77, 1024, 4));
	CHECK_ACL_OK(aclrtMemcpyAsync(m + 2 * MB2, MB2, m, MB2,
				      ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(query(m, 3 * MB2).device_bytes, 3 * MB2);
	for (i = 0; i < 1024; i++)
		CHECK_EQ(k[i], 77);
	CHECK_EQ(check_pattern(m + 2 * MB2, MB2, 21), -1);
	CHECK_EQ(check_pattern(m, MB2, 21), -1);
	CHECK_ACL_OK(aclrtFree(m));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(prefetch)
{
	struct drm_ascend_managed_query q;
	aclrtMemManagedLocation d0 = loc(ACL_MEM_LOCATIONTYPE_DEVICE, 0);
	aclrtMemManagedLocation host = loc(ACL_MEM_LOCATIONTYPE_HOST, 0);
	const void *ptrs[2];
	size_t sizes[2], idx[2] = { 0, 1 };
	aclrtMemManagedLocation locs[2];
	unsigned char *m;
	aclrtStream s;
	int32_t v;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	m = managed(4 * MB2);
	fill_pattern(m, 4 * MB2, 9);
	CHECK_ACL_OK(aclrtMemManagedPrefetchAsync(m, 4 * MB2, d0, 0, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	q = query(m, 4 * MB2);
	CHECK_EQ(q.device_bytes, 4 * MB2);
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
					    m, 4 * MB2, &v, 4));
	CHECK_EQ(v, 0);
	/* a batch: the first 2 MiB to the host, the rest stays */
	ptrs[0] = m;
	sizes[0] = MB2;
	ptrs[1] = m + MB2;
	sizes[1] = MB2;
	locs[0] = host;
	locs[1] = d0;
	CHECK_ACL_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(query(m, MB2).host_bytes, MB2);
	CHECK_EQ(query(m + MB2, MB2).device_bytes, MB2);
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
					    m, MB2, &v, 4));
	CHECK_EQ(v, -1);
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
					    m, 2 * MB2, &v, 4));
	CHECK_EQ(v, -2);
	CHECK_EQ(check_pattern(m, 4 * MB2, 9), -1);

	/* refused: flags, a pointer that is not managed, another device */
	CHECK_ACL_ERR(aclrtMemManagedPrefetchAsync(m, MB2, d0, 1, s), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemManagedPrefetchAsync(&v, 4, d0, 0, s), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemManagedPrefetchAsync(m, 5 * MB2, d0, 0, s),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemManagedPrefetchAsync(m, MB2, loc(ACL_MEM_LOCATIONTYPE_DEVICE, 5),
						   0, s), ACL_ERROR_INVALID_PARAM);
	idx[1] = 0;
	CHECK_ACL_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtFree(m));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(advice_and_attributes)
{
	aclrtMemManagedLocation d0 = loc(ACL_MEM_LOCATIONTYPE_DEVICE, 0);
	aclrtMemManagedLocation host = loc(ACL_MEM_LOCATIONTYPE_HOST, 0);
	aclrtMemManagedRangeAttribute at[2] = {
		ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
		ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
	};
	aclrtMemManagedLocationType type = ACL_MEM_LOCATIONTYPE_INVALID;
	int32_t v, id, by[3];
	void *data[2] = { &type, &id };
	size_t sz[2] = { sizeof(type), 4 };
	unsigned char *m;

	acl_setup();
	m = managed(4 * MB2);
	CHECK_ACL_OK(aclrtMemManagedAdvise(m, MB2, ACL_MEM_ADVISE_SET_READ_MOSTLY, d0));
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, MB2, &v, 4));
	CHECK_EQ(v, 1);
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MB2,
					    &v, 4));
	CHECK_EQ(v, 0);
	CHECK_ACL_OK(aclrtMemManagedAdvise(m, MB2, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, d0));
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, MB2, &v, 4));
	CHECK_EQ(v, 0);

	CHECK_ACL_OK(aclrtMemManagedAdvise(m, 4 * MB2, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, d0));
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m,
					    4 * MB2, &v, 4));
	CHECK_EQ(v, 0);
	CHECK_ACL_OK(aclrtMemManagedGetAttrs(at, 2, m, 4 * MB2, data, sz));
	CHECK_EQ(type, ACL_MEM_LOCATIONTYPE_DEVICE);
	CHECK_EQ(id, 0);
	CHECK_ACL_OK(aclrtMemManagedAdvise(m + MB2, MB2, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
					   host));
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m + MB2,
					    MB2, &v, 4));
	CHECK_EQ(v, -1);
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m,
					    4 * MB2, &v, 4));
	CHECK_EQ(v, -2);

	CHECK_ACL_OK(aclrtMemManagedAdvise(m, 4 * MB2, ACL_MEM_ADVISE_SET_ACCESSED_BY, d0));
	CHECK_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4 * MB2,
					    by, sizeof(by)));
	CHECK_EQ(by[0], 0);
	CHECK_EQ(by[1], -2);
	CHECK_EQ(by[2], -2);

	/* refused: a size that is not 4, a pointer that is not managed */
	CHECK_ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, MB2, &v, 8),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, &v, 4, &v, 4),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)99, m, MB2, &v, 4),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemManagedAdvise(m, MB2, (aclrtMemManagedAdviseType)9, d0),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtFree(m));
}

/* Larger than RLIMIT_MEMLOCK: nothing of it is pinned. */
TEST(beyond_memlock)
{
	struct rlimit rl = { 1 << 20, 1 << 20 };
	unsigned char *m, *h;
	size_t n = 32 * MB2;

	REQUIRE(setrlimit(RLIMIT_MEMLOCK, &rl) == 0);
	acl_setup();
	m = managed(n);
	h = malloc(n);
	REQUIRE(h != NULL);
	fill_pattern(m, n, 5);
	CHECK_ACL_OK(aclrtMemcpy(m + n / 2, n / 2, m, n / 2, ACL_MEMCPY_DEVICE_TO_DEVICE));
	fill_pattern(h, n / 2, 5);
	CHECK(!memcmp(m + n / 2, h, n / 2));
	CHECK(!memcmp(m, h, n / 2));
	CHECK_ACL_OK(aclrtFree(m));
	free(h);
}

/* The errno of a refused ioctl, 0 if it succeeded. */
static int ioctl_errno(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

/* The raw ioctls: what the driver refuses. */
TEST(ioctl_arguments)
{
	struct drm_ascend_managed_create mc = { .size = MB2 };
	struct drm_ascend_managed_migrate mm = { 0 };
	struct drm_ascend_managed_query q = { 0 };
	struct drm_gem_close gc = { 0 };
	void *p;
	int fd;

	acl_setup();
	REQUIRE_ACL(aclrtSetDevice(0));
	fd = lib_fd();
	mc.flags = 1;
	CHECK_EQ(ioctl_errno(fd, DRM_IOCTL_ASCEND_MANAGED_CREATE, &mc), EINVAL);
	mc.flags = 0;
	mc.size = DRM_ASCEND_MANAGED_MAX_BYTES + 1;
	CHECK_EQ(ioctl_errno(fd, DRM_IOCTL_ASCEND_MANAGED_CREATE, &mc), EINVAL);
	mc.size = MB2;
	REQUIRE(ioctl(fd, DRM_IOCTL_ASCEND_MANAGED_CREATE, &mc) == 0);
	CHECK_EQ(mc.alloc_size, MB2);
	gc.handle = mc.handle;
	/* private, or anywhere but its VA: refused */
	p = mmap(NULL, MB2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mc.mmap_offset);
	CHECK(p == MAP_FAILED);
	p = mmap((void *)(uintptr_t)mc.va, MB2, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED, fd, mc.mmap_offset);
	CHECK(p == MAP_FAILED);
	mm.va = mc.va;
	mm.size = MB2;
	mm.target = 3;
	CHECK_EQ(ioctl_errno(fd, DRM_IOCTL_ASCEND_MANAGED_MIGRATE, &mm), EINVAL);
	mm.target = DRM_ASCEND_MANAGED_TO_DEVICE;
	mm.size = MB2 + 1;
	CHECK_EQ(ioctl_errno(fd, DRM_IOCTL_ASCEND_MANAGED_MIGRATE, &mm), EINVAL);
	mm.size = MB2;
	mm.flags = 2;
	CHECK_EQ(ioctl_errno(fd, DRM_IOCTL_ASCEND_MANAGED_MIGRATE, &mm), EINVAL);
	mm.flags = 0;
	CHECK_EQ(ioctl(fd, DRM_IOCTL_ASCEND_MANAGED_MIGRATE, &mm), 0);
	q.va = mc.va;
	q.size = MB2;
	q.pad = 1;
	CHECK_EQ(ioctl_errno(fd, DRM_IOCTL_ASCEND_MANAGED_QUERY, &q), EINVAL);
	q.pad = 0;
	CHECK_EQ(ioctl(fd, DRM_IOCTL_ASCEND_MANAGED_QUERY, &q), 0);
	CHECK_EQ(q.device_bytes, MB2);
	/* no dma-buf of memory that moves */
	{
		struct drm_prime_handle ph = { .handle = mc.handle, .flags = DRM_CLOEXEC };

		CHECK_EQ(ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), -1);
	}
	CHECK_EQ(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	/* the handle was the last reference: the range is gone */
	CHECK_EQ(ioctl_errno(fd, DRM_IOCTL_ASCEND_MANAGED_QUERY, &q), EINVAL);
}

/* Free HBM of device 0 as a fresh process sees it (no state shared). */
static size_t free_in_child(void)
{
	size_t v = 0;
	int fds[2];
	pid_t pid;

	REQUIRE(pipe(fds) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		size_t f = 0, t = 0;

		if (aclInit(NULL) || aclrtSetDevice(0) ||
		    aclrtGetMemInfo(ACL_HBM_MEM, &f, &t))
			_exit(2);
		_exit(write(fds[1], &f, sizeof(f)) == sizeof(f) ? 0 : 3);
	}
	close(fds[1]);
	REQUIRE(wait_exit(pid) == 0);
	REQUIRE(read(fds[0], &v, sizeof(v)) == sizeof(v));
	close(fds[0]);
	return v;
}

/* A process killed while the device holds its managed memory leaks none. */
TEST(kill_leaks_nothing)
{
	size_t before, after;
	aclrtStream s;
	pid_t pid;
	int *m;

	before = free_in_child();
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s))
			_exit(2);
		if (aclrtMemAllocManaged((void **)&m, 8 * MB2, 1))
			_exit(3);
		m[0] = 1;
		if (launch_fill32(s, m, 3, 8 * MB2 / 4, 4) || aclrtSynchronizeStream(s))
			_exit(4);
		if (m[8 * MB2 / 4 - 1] != 3)
			_exit(5);
		/* the device has it all again when the process is killed */
		if (launch_fill32(s, m, 4, 8 * MB2 / 4, 4) || aclrtSynchronizeStream(s))
			_exit(6);
		kill(getpid(), SIGKILL);
		_exit(7);
	}
	CHECK_EQ(wait_exit(pid), 128 + SIGKILL);
	after = free_in_child();
	CHECK_EQ(after, before);
}

int main(void)
{
	return tap_main();
}
