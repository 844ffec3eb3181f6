// SPDX-License-Identifier: MIT
/*
 * VA_WINDOW, BO_CREATE, GEM_CLOSE and COPY at the raw uAPI level:
 * every malformed request gets its errno, nothing crashes.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include "ioctl_util.h"

static int va_window(int fd, uint64_t base, uint64_t size, uint32_t flags, uint32_t pad)
{
	struct drm_ascend_va_window w = {
		.base = base, .size = size, .flags = flags, .pad = pad,
	};

	return aioctl(fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w);
}

TEST(va_window_ok)
{
	int fd = open_accel();

	setup_window(fd);
	close(fd);
}

TEST(va_window_flags_pad_einval)
{
	struct drm_ascend_device_info info;
	uint64_t base;
	int fd = open_accel();

	query_info(fd, &info);
	base = reserve_window(&info, 0);
	CHECK_ERRNO(va_window(fd, base, info.va_window_min_size, 1, 0), EINVAL);
	CHECK_ERRNO(va_window(fd, base, info.va_window_min_size, 0x80000000u, 0), EINVAL);
	CHECK_ERRNO(va_window(fd, base, info.va_window_min_size, 0, 1), EINVAL);
	/* The rejected calls did not register anything. */
	CHECK_EQ(va_window(fd, base, info.va_window_min_size, 0, 0), 0);
	close(fd);
}

TEST(va_window_misaligned_einval)
{
	struct drm_ascend_device_info info;
	uint64_t base;
	int fd = open_accel();

	query_info(fd, &info);
	base = reserve_window(&info, info.va_window_min_size + info.va_window_align);
	if (info.va_window_align > 4096) {
		CHECK_ERRNO(va_window(fd, base + 4096, info.va_window_min_size, 0, 0), EINVAL);
		CHECK_ERRNO(va_window(fd, base, info.va_window_min_size + 4096, 0, 0), EINVAL);
	}
	CHECK_ERRNO(va_window(fd, base + 1, info.va_window_min_size, 0, 0), EINVAL);
	CHECK_ERRNO(va_window(fd, base, info.va_window_min_size + 1, 0, 0), EINVAL);
	close(fd);
}

TEST(va_window_too_small_einval)
{
	struct drm_ascend_device_info info;
	uint64_t base;
	int fd = open_accel();

	query_info(fd, &info);
	base = reserve_window(&info, 0);
	CHECK_ERRNO(va_window(fd, base, 0, 0, 0), EINVAL);
	if (info.va_window_min_size > info.va_window_align)
		CHECK_ERRNO(va_window(fd, base, info.va_window_min_size - info.va_window_align,
				      0, 0), EINVAL);
	close(fd);
}

TEST(va_window_outside_user_space_einval)
{
	struct drm_ascend_device_info info;
	uint64_t size, top;
	int fd = open_accel();

	query_info(fd, &info);
	size = info.va_window_min_size;
	CHECK_ERRNO(va_window(fd, 0xffff800000000000ULL, size, 0, 0), EINVAL);
	CHECK_ERRNO(va_window(fd, KERNEL_ADDR & ~(info.va_window_align - 1), size, 0, 0),
		    EINVAL);
	/* Straddling the top of the 47-bit user address space. */
	top = (1ULL << 47) - info.va_window_align;
	CHECK_ERRNO(va_window(fd, top, size > info.va_window_align ? size :
					   2 * info.va_window_align, 0, 0), EINVAL);
	/* base + size wrapping around 2^64. */
	CHECK_ERRNO(va_window(fd, 0ULL - info.va_window_align, size, 0, 0), EINVAL);
	/* Page zero. */
	CHECK_ERRNO(va_window(fd, 0, size, 0, 0), EINVAL);
	close(fd);
}

TEST(va_window_twice_ebusy)
{
	struct drm_ascend_device_info info;
	uint64_t other;
	int fd = open_accel();

	setup_window(fd);
	query_info(fd, &info);
	other = reserve_window(&info, 0);
	CHECK_ERRNO(va_window(fd, other, info.va_window_min_size, 0, 0), EBUSY);
	close(fd);
}

TEST(va_window_per_file)
{
	int fd = open_accel(), fd2 = open_accel();

	/* Each DRM file has its own window. */
	setup_window(fd);
	setup_window(fd2);
	close(fd);
	close(fd2);
}

TEST(bo_create_before_window_enxio)
{
	struct drm_ascend_bo_create bo;
	int fd = open_accel();

	CHECK_ERRNO(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo), ENXIO);
	close(fd);
}

TEST(bo_create_ok_inside_window)
{
	static const struct { uint64_t size; uint32_t policy; uint32_t page; } cases[] = {
		{ 1, DRM_ASCEND_BO_NORMAL_ONLY, 0 },
		{ 4096, DRM_ASCEND_BO_HUGE_FIRST, 0 },
		{ 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0 },
		{ (1 << 20) + 1, DRM_ASCEND_BO_HUGE_FIRST, 2 << 20 },
		{ 3 << 20, DRM_ASCEND_BO_HUGE_ONLY, 2 << 20 },
		{ 3 << 20, DRM_ASCEND_BO_NORMAL_ONLY, 0 },
		{ 4096, DRM_ASCEND_BO_HUGE_FIRST, 0 },
	};
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create bo[sizeof(cases) / sizeof(cases[0])];
	uint64_t base;
	unsigned int i, j;
	int fd = open_accel();

	query_info(fd, &info);
	base = setup_window(fd);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		REQUIRE_OK(bo_create(fd, cases[i].size, cases[i].policy,
				     i == 0 ? DRM_ASCEND_BO_P2P : 0, &bo[i]));
		CHECK(bo[i].va >= base);
		CHECK(bo[i].va + bo[i].alloc_size <= base + info.va_window_min_size);
		CHECK(bo[i].alloc_size >= cases[i].size);
		CHECK_EQ(bo[i].va % 64, 0);
		CHECK(bo[i].handle != 0);
		CHECK(bo[i].page_size == 4096 || bo[i].page_size == 2 << 20 ||
		      bo[i].page_size == 1 << 30);
		if (cases[i].page)
			CHECK_EQ(bo[i].page_size, cases[i].page);
		if (cases[i].policy == DRM_ASCEND_BO_NORMAL_ONLY)
			CHECK_EQ(bo[i].page_size, 4096);
		CHECK_EQ(bo[i].alloc_size % bo[i].page_size, 0);
		for (j = 0; j < i; j++) {
			CHECK(bo[i].va + bo[i].alloc_size <= bo[j].va ||
			      bo[j].va + bo[j].alloc_size <= bo[i].va);
			CHECK(bo[i].handle != bo[j].handle);
		}
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_EQ(gem_close(fd, bo[i].handle), 0);
	close(fd);
}

TEST(bo_create_size_zero_einval)
{
	struct drm_ascend_bo_create bo;
	int fd = open_accel();

	setup_window(fd);
	CHECK_ERRNO(bo_create(fd, 0, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo), EINVAL);
	close(fd);
}

TEST(bo_create_absurd_size_enospc)
{
	struct drm_ascend_bo_create bo;
	int ret;
	int fd = open_accel();

	setup_window(fd);
	CHECK_ERRNO(bo_create(fd, 1ULL << 50, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo), ENOSPC);
	CHECK_ERRNO(bo_create(fd, 1ULL << 50, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo), ENOSPC);
	/* Sizes whose rounding would wrap: refused, one way or the other. */
	ret = bo_create(fd, UINT64_MAX, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo);
	CHECK(ret == -ENOSPC || ret == -EINVAL);
	ret = bo_create(fd, UINT64_MAX - 4095, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo);
	CHECK(ret == -ENOSPC || ret == -EINVAL);
	/* And the device still allocates afterwards. */
	CHECK_EQ(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo), 0);
	close(fd);
}

TEST(bo_create_bad_policy_flags_einval)
{
	struct drm_ascend_bo_create bo;
	int fd = open_accel();

	setup_window(fd);
	CHECK_ERRNO(bo_create(fd, 4096, 4, 0, &bo), EINVAL);
	CHECK_ERRNO(bo_create(fd, 4096, 0xffffffff, 0, &bo), EINVAL);
	CHECK_ERRNO(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 4, &bo), EINVAL);
	CHECK_ERRNO(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0x80000000u, &bo), EINVAL);
	close(fd);
}

static int bo_free(int fd, uint64_t va, uint32_t flags, uint32_t pad)
{
	struct drm_ascend_bo_free f = { .va = va, .flags = flags, .pad = pad };

	return aioctl(fd, DRM_IOCTL_ASCEND_BO_FREE, &f);
}

/* NO_HANDLE allocations: no handle, freed by their first byte, once. */
TEST(bo_free_no_handle)
{
	struct drm_ascend_bo_create a, g, b;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE(bo_create(fd, 4128, DRM_ASCEND_BO_HUGE_FIRST,
			  DRM_ASCEND_BO_NO_HANDLE, &a) == 0);
	CHECK_EQ(a.handle, 0);
	CHECK_EQ(a.alloc_size, 8192);
	REQUIRE(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &g) == 0);
	CHECK(g.handle != 0);

	CHECK_ERRNO(bo_free(fd, a.va, 1, 0), EINVAL);
	CHECK_ERRNO(bo_free(fd, a.va, 0, 1), EINVAL);
	CHECK_ERRNO(bo_free(fd, a.va + 4096, 0, 0), EINVAL);	/* not the start */
	CHECK_ERRNO(bo_free(fd, a.va + 8192, 0, 0), EINVAL);	/* the guard */
	CHECK_ERRNO(bo_free(fd, g.va, 0, 0), EINVAL);		/* has a handle */
	CHECK_ERRNO(bo_free(fd, 0, 0, 0), EINVAL);
	CHECK_ERRNO(bo_free(fd, ~0ULL, 0, 0), EINVAL);
	CHECK_EQ(bo_free(fd, a.va, 0, 0), 0);
	CHECK_ERRNO(bo_free(fd, a.va, 0, 0), EINVAL);		/* freed already */

	/* The same size again: works (and may get the same VA). */
	REQUIRE(bo_create(fd, 4128, DRM_ASCEND_BO_HUGE_FIRST,
			  DRM_ASCEND_BO_NO_HANDLE, &b) == 0);
	CHECK_EQ(bo_free(fd, b.va, 0, 0), 0);
	CHECK_EQ(gem_close(fd, g.handle), 0);
	/* a live NO_HANDLE allocation goes with the file */
	REQUIRE(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY,
			  DRM_ASCEND_BO_NO_HANDLE, &b) == 0);
	close(fd);
}

/*
 * A free that names a VA before BO_CREATE returned it -- user space can
 * guess it, a freed range is handed out again -- finds no allocation yet,
 * or one already charged: the file's hbm_used stays balanced.  Once the
 * create went live after its unlock, and a racing free's retire could
 * hand the buffer on before the create charged it (an unbalanced file hit
 * the WARN in postclose, 1 in ~7 make check runs of the fuzzer).
 */
struct free_racer {
	int fd;
	_Atomic uint64_t va[2];	/* the last of each size */
	_Atomic int stop;
	unsigned long freed;
};

static void *free_racer_run(void *arg)
{
	struct free_racer *r = arg;

	unsigned int i = 0;

	while (!r->stop)
		if (!bo_free(r->fd, r->va[i++ & 1], 0, 0))
			r->freed++;
	return NULL;
}

TEST(bo_free_racing_create_keeps_charge)
{
	static const uint64_t sizes[] = { 4096, 128 << 10 };
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create a;
	struct free_racer r = { .fd = open_accel() };
	unsigned long made = 0;
	int64_t end = deadline_ns(2);
	cpu_set_t saved, one;
	pthread_t t;
	int cpu;

	/*
	 * Both threads on one CPU: under a preemptible kernel (preempt=full)
	 * a tick can stop the creator anywhere in the ioctl and run the
	 * racer, also in a VM that runs its CPUs one at a time.
	 */
	REQUIRE(sched_getaffinity(0, sizeof(saved), &saved) == 0);
	CPU_ZERO(&one);
	cpu = sched_getcpu();
	CPU_SET(cpu > 0 ? cpu : 0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	setup_window(r.fd);
	REQUIRE(pthread_create(&t, NULL, free_racer_run, &r) == 0);
	while (deadline_ns(0) < end) {
		unsigned int k = made & 1;

		if (bo_create(r.fd, sizes[k], DRM_ASCEND_BO_NORMAL_ONLY,
			      DRM_ASCEND_BO_NO_HANDLE, &a))
			continue;
		made++;
		r.va[k] = a.va;
		bo_free(r.fd, a.va, 0, 0);	/* or the racer did */
	}
	r.stop = 1;
	pthread_join(t, NULL);
	sched_setaffinity(0, sizeof(saved), &saved);
	printf("# %lu allocations, %lu freed by the racer\n", made, r.freed);
	CHECK(made > 0);
	query_info(r.fd, &info);
	CHECK_EQ(info.hbm_used_by_file, 0);
	close(r.fd);
}

TEST(gem_close_unknown_handle)
{
	int fd = open_accel();

	setup_window(fd);
	CHECK_ERRNO(gem_close(fd, 0x7777), EINVAL);
	close(fd);
}

TEST(copy_ok)
{
	struct drm_ascend_bo_create a, b;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &b));
	CHECK_EQ(dev_copy(fd, b.va, a.va, 1 << 20), 0);
	CHECK_EQ(dev_copy(fd, b.va + 3, a.va + 5, 17), 0);
	/* Non-overlapping ranges inside one allocation. */
	CHECK_EQ(dev_copy(fd, a.va + 4096, a.va, 4096), 0);
	close(fd);
}

TEST(copy_size_zero_einval)
{
	struct drm_ascend_bo_create a, b;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &b));
	CHECK_ERRNO(dev_copy(fd, b.va, a.va, 0), EINVAL);
	close(fd);
}

TEST(copy_flags_pad_einval)
{
	struct drm_ascend_bo_create a, b;
	struct drm_ascend_copy c;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &b));
	c = (struct drm_ascend_copy){ .dst = b.va, .src = a.va, .size = 64, .flags = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_COPY, &c), EINVAL);
	c = (struct drm_ascend_copy){ .dst = b.va, .src = a.va, .size = 64, .flags = 1u << 31 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_COPY, &c), EINVAL);
	c = (struct drm_ascend_copy){ .dst = b.va, .src = a.va, .size = 64, .pad = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_COPY, &c), EINVAL);
	close(fd);
}

TEST(copy_outside_allocations_efault)
{
	struct drm_ascend_bo_create a, b;
	uint64_t base;
	int fd = open_accel();
	char host[64];

	base = setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	/* One byte past the end on either side. */
	CHECK_ERRNO(dev_copy(fd, b.va, a.va + 1, a.alloc_size), EFAULT);
	CHECK_ERRNO(dev_copy(fd, b.va + 1, a.va, b.alloc_size), EFAULT);
	/* Before the first allocation, or not device memory at all. */
	if (a.va > base && b.va > base)
		CHECK_ERRNO(dev_copy(fd, b.va, base, 64), EFAULT);
	/* Pageable host memory is pinned for the copy (issue #4). */
	memset(host, 0x3c, sizeof(host));
	CHECK_EQ(dev_copy(fd, b.va, (uintptr_t)host, 64), 0);
	CHECK_EQ(dev_copy(fd, (uintptr_t)host, a.va, 64), 0);
	CHECK_ERRNO(dev_copy(fd, b.va, KERNEL_ADDR, 64), EFAULT);
	CHECK_ERRNO(dev_copy(fd, b.va, 0, 64), EFAULT);
	close(fd);
}

TEST(copy_spanning_two_allocations_efault)
{
	struct drm_ascend_bo_create a, b, c;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	REQUIRE_OK(bo_create(fd, 3 * 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &c));
	/* Even if a and b happen to be adjacent, a copy may not run across. */
	if (b.va == a.va + a.alloc_size)
		CHECK_ERRNO(dev_copy(fd, c.va, a.va, a.alloc_size + 64), EFAULT);
	else if (a.va == b.va + b.alloc_size)
		CHECK_ERRNO(dev_copy(fd, c.va, b.va, b.alloc_size + 64), EFAULT);
	close(fd);
}

TEST(copy_wrapping_rejected)
{
	struct drm_ascend_bo_create a, b;
	int ret;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &b));
	ret = dev_copy(fd, b.va, a.va, UINT64_MAX - a.va + 2);	/* src + size wraps */
	CHECK(ret == -EINVAL || ret == -EFAULT);
	ret = dev_copy(fd, b.va, a.va, UINT64_MAX);
	CHECK(ret == -EINVAL || ret == -EFAULT);
	ret = dev_copy(fd, UINT64_MAX - 15, a.va, 64);		/* dst + size wraps */
	CHECK(ret == -EINVAL || ret == -EFAULT);
	close(fd);
}

TEST(copy_overlap_einval)
{
	struct drm_ascend_bo_create a;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 8192, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	CHECK_ERRNO(dev_copy(fd, a.va + 64, a.va, 128), EINVAL);
	CHECK_ERRNO(dev_copy(fd, a.va, a.va + 64, 128), EINVAL);
	CHECK_ERRNO(dev_copy(fd, a.va, a.va, 128), EINVAL);
	close(fd);
}

TEST(copy_after_gem_close_efault)
{
	struct drm_ascend_bo_create a, b;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &b));
	REQUIRE_OK(gem_close(fd, a.handle));
	CHECK_ERRNO(dev_copy(fd, b.va, a.va, 64), EFAULT);
	CHECK_ERRNO(dev_copy(fd, a.va, b.va, 64), EFAULT);
	CHECK_ERRNO(gem_close(fd, a.handle), EINVAL);
	close(fd);
}

TEST(copy_other_files_memory_efault)
{
	struct drm_ascend_bo_create a, b;
	int fd = open_accel(), fd2 = open_accel();

	/* A VA of another DRM file is not mapped in this one. */
	setup_window(fd);
	setup_window(fd2);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(bo_create(fd2, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &b));
	CHECK_ERRNO(dev_copy(fd, a.va, b.va, 64), EFAULT);
	CHECK_ERRNO(dev_copy(fd2, a.va, b.va, 64), EFAULT);
	close(fd);
	close(fd2);
}

TEST(copy_before_window)
{
	int ret;
	int fd = open_accel();

	ret = dev_copy(fd, 0x100000000ULL, 0x200000000ULL, 64);
	CHECK(ret == -EFAULT || ret == -ENXIO);
	close(fd);
}

int main(void)
{
	return tap_main();
}
