// SPDX-License-Identifier: MIT
/*
 * DRM_IOCTL_ASCEND_DEV_QUERY at the raw uAPI level: size negotiation,
 * malformed requests and wild user pointers.
 */
#define _GNU_SOURCE
#include "ioctl_util.h"

TEST(device_info_sane)
{
	struct drm_ascend_device_info info;
	int fd = open_accel();

	query_info(fd, &info);
	CHECK(info.capabilities & DRM_ASCEND_CAP_VA_WINDOW);
	CHECK(info.capabilities & DRM_ASCEND_CAP_SYNC_COPY);
	CHECK(info.capabilities & DRM_ASCEND_CAP_QUEUES);
	CHECK(info.capabilities & DRM_ASCEND_CAP_BUILTIN_KERNELS);
	CHECK(info.hbm_total > 0);
	CHECK(info.hbm_free <= info.hbm_total);
	CHECK_EQ(info.hbm_used_by_file, 0);
	CHECK(info.va_window_align >= 4096);
	CHECK_EQ(info.va_window_align & (info.va_window_align - 1), 0);
	CHECK(info.va_window_min_size >= info.va_window_align);
	CHECK_EQ(info.device_index, 0);
	CHECK(info.num_dma_engines > 0);
	CHECK(info.num_ai_cores > 0);
	CHECK(info.max_queues_per_file > 0);
	CHECK_EQ(info.cmd_size, ASCEND_CMD_SIZE);
	CHECK(info.max_ring_entries > 0);
	CHECK_EQ(info.max_ring_entries & (info.max_ring_entries - 1), 0);
	CHECK(memchr(info.soc_name, '\0', sizeof(info.soc_name)) != NULL);
	CHECK(strncmp(info.soc_name, "Ascend", 6) == 0);
	close(fd);
}

TEST(size_zero_returns_needed_size)
{
	struct drm_ascend_dev_query q = { .type = DRM_ASCEND_QUERY_DEVICE_INFO };
	int fd = open_accel();

	/* data is ignored when size is 0, even a wild pointer */
	q.data = 0x1;
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), 0);
	CHECK_EQ(q.size, sizeof(struct drm_ascend_device_info));
	q.type = DRM_ASCEND_QUERY_KERNELS;
	q.size = 0;
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), 0);
	CHECK(q.size >= 2 * sizeof(struct drm_ascend_kernel_info));
	CHECK_EQ(q.size % sizeof(struct drm_ascend_kernel_info), 0);
	close(fd);
}

TEST(short_buffer_gets_prefix)
{
	struct drm_ascend_device_info full, part;
	struct drm_ascend_dev_query q = {
		.type = DRM_ASCEND_QUERY_DEVICE_INFO,
		.size = 8,
		.data = (uintptr_t)&part,
	};
	int fd = open_accel();

	query_info(fd, &full);
	memset(&part, 0xa5, sizeof(part));
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), 0);
	CHECK_EQ(q.size, sizeof(full));	/* the full answer's size */
	CHECK_EQ(part.capabilities, full.capabilities);
	CHECK_EQ(part.hbm_total, 0xa5a5a5a5a5a5a5a5ULL);	/* not written */
	close(fd);
}

TEST(long_buffer_keeps_tail)
{
	struct {
		struct drm_ascend_device_info info;
		uint8_t tail[64];
	} big;
	struct drm_ascend_dev_query q = {
		.type = DRM_ASCEND_QUERY_DEVICE_INFO,
		.size = sizeof(big),
		.data = (uintptr_t)&big,
	};
	unsigned int i;
	int fd = open_accel();

	memset(&big, 0x5a, sizeof(big));
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), 0);
	CHECK_EQ(q.size, sizeof(big.info));
	for (i = 0; i < sizeof(big.tail); i++)
		CHECK_EQ(big.tail[i], 0x5a);
	close(fd);
}

TEST(unknown_type_einval)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_dev_query q = { .size = sizeof(info), .data = (uintptr_t)&info };
	static const uint32_t types[] = { 2, 3, 0x100, 0xffffffff };
	unsigned int i;
	int fd = open_accel();

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		q.type = types[i];
		q.size = sizeof(info);
		CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), EINVAL);
	}
	close(fd);
}

TEST(kernels_size_not_multiple_einval)
{
	struct drm_ascend_kernel_info k[64];
	struct drm_ascend_dev_query q = {
		.type = DRM_ASCEND_QUERY_KERNELS,
		.data = (uintptr_t)k,
	};
	int fd = open_accel();

	q.size = sizeof(k[0]) + 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), EINVAL);
	q.size = sizeof(k[0]) - 8;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), EINVAL);
	close(fd);
}

TEST(kernels_list_has_seed_kernels)
{
	struct drm_ascend_dev_query q = { .type = DRM_ASCEND_QUERY_KERNELS };
	struct drm_ascend_kernel_info *k;
	uint32_t i, j, n;
	int fd = open_accel();
	int write_found = 0, read_found = 0;

	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q));
	n = q.size / sizeof(*k);
	k = calloc(n, sizeof(*k));
	REQUIRE(k);
	q.data = (uintptr_t)k;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q));
	for (i = 0; i < n; i++) {
		CHECK(memchr(k[i].name, '\0', sizeof(k[i].name)) != NULL);
		CHECK(k[i].name[0] != '\0');
		CHECK_EQ(k[i].pad, 0);
		CHECK(k[i].args_size <= ASCEND_LAUNCH_ARGS_MAX);
		for (j = 0; j < i; j++)
			CHECK(k[i].id != k[j].id);
		if (!strcmp(k[i].name, "DeviceWrite")) {
			write_found = 1;
			CHECK(k[i].args_size >= 12 && k[i].args_size <= 16);
		}
		if (!strcmp(k[i].name, "DeviceRead")) {
			read_found = 1;
			CHECK_EQ(k[i].args_size, 8);
		}
	}
	CHECK(write_found);
	CHECK(read_found);
	free(k);
	close(fd);
}

TEST(kernels_short_buffer_gets_prefix)
{
	struct drm_ascend_kernel_info k[2];
	struct drm_ascend_dev_query q = {
		.type = DRM_ASCEND_QUERY_KERNELS,
		.size = sizeof(k[0]),
		.data = (uintptr_t)k,
	};
	int fd = open_accel();

	memset(k, 0x77, sizeof(k));
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), 0);
	CHECK(q.size >= 2 * sizeof(k[0]));
	CHECK(k[0].name[0] != 0x77);
	CHECK_EQ(k[1].id, 0x77777777);
	close(fd);
}

TEST(wild_data_pointer_efault)
{
	struct drm_ascend_dev_query q = { .size = sizeof(struct drm_ascend_device_info) };
	int fd = open_accel();

	q.type = DRM_ASCEND_QUERY_DEVICE_INFO;
	q.data = 0x1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), EFAULT);
	q.data = KERNEL_ADDR;
	q.size = sizeof(struct drm_ascend_device_info);
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), EFAULT);
	q.type = DRM_ASCEND_QUERY_KERNELS;
	q.size = sizeof(struct drm_ascend_kernel_info);
	q.data = KERNEL_ADDR;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q), EFAULT);
	close(fd);
}

TEST(wild_ioctl_argument_efault)
{
	int fd = open_accel();

	/* The DRM core copies the argument in: a bad arg pointer is EFAULT. */
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, (void *)(uintptr_t)0x1), EFAULT);
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_VA_WINDOW, (void *)(uintptr_t)KERNEL_ADDR),
		    EFAULT);
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, (void *)(uintptr_t)0x1), EFAULT);
	close(fd);
}

TEST(unknown_driver_ioctl_rejected)
{
	uint8_t arg[64] = { 0 };
	int fd = open_accel();
	int ret;

	ret = aioctl(fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3f, uint8_t[64]), arg);
	CHECK(ret == -EINVAL || ret == -ENOTTY);
	close(fd);
}

TEST(info_per_file_accounting)
{
	struct drm_ascend_device_info a, b;
	struct drm_ascend_bo_create bo;
	int fd = open_accel(), fd2 = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo));
	query_info(fd, &a);
	query_info(fd2, &b);
	CHECK(a.hbm_used_by_file >= 1 << 20);
	CHECK_EQ(b.hbm_used_by_file, 0);
	CHECK(a.hbm_free <= a.hbm_total - (1 << 20));
	REQUIRE_OK(gem_close(fd, bo.handle));
	query_info(fd, &a);
	CHECK_EQ(a.hbm_used_by_file, 0);
	close(fd);
	close(fd2);
}

TEST(hbm_returned_after_close)
{
	struct drm_ascend_device_info before, after;
	struct drm_ascend_bo_create bo;
	int fd = open_accel(), fd2 = open_accel();
	int i;

	query_info(fd, &before);
	setup_window(fd2);
	for (i = 0; i < 4; i++)
		REQUIRE_OK(bo_create(fd2, 3 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo));
	query_info(fd, &after);
	CHECK(after.hbm_free <= before.hbm_free - (12 << 20));
	/* Closing the file frees everything it held, without GEM_CLOSE. */
	close(fd2);
	query_info(fd, &after);
	CHECK_EQ(after.hbm_free, before.hbm_free);
	close(fd);
}

TEST(second_device_index)
{
	struct drm_ascend_device_info info;
	int fd = open("/dev/accel/accel1", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		SKIP("no /dev/accel/accel1 (module loaded with num_devices=1)");
	query_info(fd, &info);
	CHECK_EQ(info.device_index, 1);
	close(fd);
}

int main(void)
{
	return tap_main();
}
