// SPDX-License-Identifier: MIT
/*
 * FILL, the DEVICE_INFO memory fields and BO lifetime at the raw uAPI
 * level: argument checks, patterns landing byte-exact (read back through
 * the DeviceRead kernel), ordering after queued work, a freed BO staying
 * mapped for commands queued before the free, every byte returned when a
 * process is killed.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ioctl_util.h"

static int dev_fill(int fd, uint64_t dst, uint64_t size, uint64_t pattern,
		    uint32_t pattern_size, uint32_t flags)
{
	struct drm_ascend_fill f = {
		.dst = dst, .size = size, .pattern = pattern,
		.pattern_size = pattern_size, .flags = flags,
	};

	return aioctl(fd, DRM_IOCTL_ASCEND_FILL, &f);
}

/* The s32 at device VA @va, read by the DeviceRead kernel on @q. */
static int32_t dev_read32(int fd, struct queue *q, uint64_t va)
{
	uint32_t kr = kernel_id(fd, "DeviceRead", NULL);
	struct read_args ra = { .p = va };
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	char *text, *p;
	int v = 0;

	cmd_launch(&c, kr, 1, &ra, sizeof(ra));
	REQUIRE_OK(queue_wait(q, queue_submit(q, &c), &w));
	REQUIRE(w.fault == ASCEND_FAULT_NONE);
	/* earlier DeviceWrite launches print "Source data: ..." lines */
	text = queue_printf(q);
	p = strstr(text, "Destination data: ");
	REQUIRE(p && sscanf(p, "Destination data: %d", &v) == 1);
	free(text);
	return v;
}

static void host_fill(uint8_t *buf, size_t off, size_t size, uint64_t pattern,
		      unsigned int psize)
{
	size_t i;

	for (i = 0; i < size; i++)
		buf[off + i] = (uint8_t)(pattern >> ((i % psize) * 8));
}

static int32_t host_read32(const uint8_t *buf, size_t off)
{
	int32_t v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

TEST(device_info_memory_fields)
{
	struct drm_ascend_device_info info, after;
	struct drm_ascend_bo_create a;
	int fd = open_accel();

	query_info(fd, &info);
	CHECK(info.capabilities & DRM_ASCEND_CAP_FILL);
	CHECK(info.hbm_largest_free > 0);
	CHECK(info.hbm_largest_free <= info.hbm_free);
	CHECK(info.hbm_free_huge <= info.hbm_free);
	CHECK(info.hbm_free_huge1g <= info.hbm_free_huge);
	CHECK(info.max_events_per_file > 0);

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 3 << 20, DRM_ASCEND_BO_HUGE_ONLY, 0, &a));
	CHECK_EQ(a.alloc_size, 4 << 20);
	query_info(fd, &after);
	CHECK_EQ(after.hbm_free, info.hbm_free - a.alloc_size);
	CHECK_EQ(after.hbm_free_huge, info.hbm_free_huge - a.alloc_size);
	CHECK_EQ(after.hbm_used_by_file, a.alloc_size);
	REQUIRE_OK(gem_close(fd, a.handle));
	query_info(fd, &after);
	CHECK_EQ(after.hbm_free, info.hbm_free);
	CHECK_EQ(after.hbm_used_by_file, 0);
	close(fd);
}

TEST(bo_create_policies_and_p2p)
{
	struct drm_ascend_bo_create a;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	CHECK_EQ(a.page_size, 4096);
	CHECK_EQ(a.alloc_size, 1 << 20);
	CHECK_EQ(gem_close(fd, a.handle), 0);
	REQUIRE_OK(bo_create(fd, (1 << 20) + 1, DRM_ASCEND_BO_HUGE_FIRST,
			     DRM_ASCEND_BO_P2P, &a));
	CHECK_EQ(a.page_size, 2 << 20);
	CHECK_EQ(a.alloc_size, 2 << 20);
	CHECK_EQ(a.va % (2 << 20), 0);
	CHECK_EQ(gem_close(fd, a.handle), 0);
	REQUIRE_OK(bo_create(fd, 5000, DRM_ASCEND_BO_NORMAL_ONLY,
			     DRM_ASCEND_BO_P2P, &a));
	CHECK_EQ(a.alloc_size, 8192);
	CHECK_EQ(gem_close(fd, a.handle), 0);
	close(fd);
}

TEST(fill_bad_args_einval)
{
	struct drm_ascend_bo_create a;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 65536, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	CHECK_EQ(dev_fill(fd, a.va, 16, 0, 1, 0), 0);
	CHECK_ERRNO(dev_fill(fd, a.va, 16, 0, 1, 1), EINVAL);	/* flags */
	CHECK_ERRNO(dev_fill(fd, a.va, 0, 0, 1, 0), EINVAL);	/* size 0 */
	CHECK_ERRNO(dev_fill(fd, a.va, 16, 0, 0, 0), EINVAL);
	CHECK_ERRNO(dev_fill(fd, a.va, 16, 0, 3, 0), EINVAL);
	CHECK_ERRNO(dev_fill(fd, a.va, 16, 0, 8, 0), EINVAL);
	CHECK_ERRNO(dev_fill(fd, a.va, 6, 0, 4, 0), EINVAL);	/* not a multiple */
	CHECK_ERRNO(dev_fill(fd, a.va, 3, 0, 2, 0), EINVAL);
	CHECK_ERRNO(dev_fill(fd, UINT64_MAX - 3, 8, 0, 4, 0), EINVAL);
	close(fd);
}

TEST(fill_outside_allocation_efault)
{
	struct drm_ascend_bo_create a, b;
	uint64_t base;
	int fd = open_accel();

	/* before any window: nothing is mapped */
	CHECK_ERRNO(dev_fill(fd, 0x10000000, 4, 0, 4, 0), EFAULT);
	base = setup_window(fd);
	REQUIRE_OK(bo_create(fd, 65536, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(fd, 65536, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	CHECK_EQ(dev_fill(fd, a.va + 65535, 1, 7, 1, 0), 0);	/* last byte */
	CHECK_ERRNO(dev_fill(fd, a.va + 65535, 2, 7, 1, 0), EFAULT);
	CHECK_ERRNO(dev_fill(fd, a.va + 65536, 1, 7, 1, 0), EFAULT);
	CHECK_ERRNO(dev_fill(fd, a.va - 1, 2, 7, 1, 0), EFAULT);
	CHECK_ERRNO(dev_fill(fd, base - 4096, 4, 0, 4, 0), EFAULT);
	CHECK_ERRNO(dev_fill(fd, KERNEL_ADDR, 4, 0, 4, 0), EFAULT);
	/* one fill never spans two allocations */
	if (b.va > a.va)
		CHECK_ERRNO(dev_fill(fd, a.va, b.va - a.va + 4, 0, 4, 0),
			    EFAULT);
	else
		CHECK_ERRNO(dev_fill(fd, b.va, a.va - b.va + 4, 0, 4, 0),
			    EFAULT);
	REQUIRE_OK(gem_close(fd, a.handle));
	CHECK_ERRNO(dev_fill(fd, a.va, 4, 0, 4, 0), EFAULT);
	close(fd);
}

TEST(fill_patterns_byte_exact)
{
	static const size_t size = 3 * 4096 + 64;
	static const size_t offs[] = { 0, 4, 8, 1000, 4092, 4096, 8188,
				       3 * 4096 + 60 };
	struct drm_ascend_bo_create a;
	struct queue q;
	uint8_t *model = calloc(1, size);
	size_t i;
	int fd = open_accel();

	REQUIRE(model);
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, size, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(queue_create(fd, 0, &q));

	/* never written: reads zero */
	CHECK_EQ(dev_read32(fd, &q, a.va + 4096), 0);

	CHECK_EQ(dev_fill(fd, a.va, size, 0x11223344, 4, 0), 0);
	host_fill(model, 0, size, 0x11223344, 4);
	/* 2-byte pattern at an odd start, across a page boundary */
	CHECK_EQ(dev_fill(fd, a.va + 4091, 10, 0xbeef, 2, 0), 0);
	host_fill(model, 4091, 10, 0xbeef, 2);
	CHECK_EQ(dev_fill(fd, a.va + 5, 6, 0xffffbeef, 2, 0), 0);
	host_fill(model, 5, 6, 0xbeef, 2);
	/* single bytes, odd length; bits above the pattern ignored */
	CHECK_EQ(dev_fill(fd, a.va + 1001, 3, 0x1ab, 1, 0), 0);
	host_fill(model, 1001, 3, 0xab, 1);
	/* 4-byte pattern at an unaligned start, across a page boundary */
	CHECK_EQ(dev_fill(fd, a.va + 8187, 8, 0xa1b2c3d4, 4, 0), 0);
	host_fill(model, 8187, 8, 0xa1b2c3d4, 4);

	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		int32_t got = dev_read32(fd, &q, a.va + offs[i]);

		if (got != host_read32(model, offs[i]))
			printf("#   offset %zu: %#x, want %#x\n", offs[i],
			       (unsigned int)got,
			       (unsigned int)host_read32(model, offs[i]));
		CHECK_EQ(got, host_read32(model, offs[i]));
	}
	CHECK_EQ(queue_destroy(&q, 0), 0);
	free(model);
	close(fd);
}

/* FILL is ordered after what the file published on its queues. */
TEST(fill_ordered_after_queued_work)
{
	struct drm_ascend_bo_create a;
	struct write_args wa;
	struct ascend_cmd c;
	struct queue q;
	uint32_t kw;
	int fd = open_accel();

	setup_window(fd);
	kw = kernel_id(fd, "DeviceWrite", NULL);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(queue_create(fd, 0, &q));
	wa = (struct write_args){ .p = a.va, .v = 123 };
	cmd_launch(&c, kw, 1, &wa, sizeof(wa));
	queue_submit(&q, &c);
	/* no wait: the fill must land after the write */
	CHECK_EQ(dev_fill(fd, a.va, 4, 0x07070707, 4, 0), 0);
	CHECK_EQ(dev_read32(fd, &q, a.va), 0x07070707);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

/*
 * Freeing a BO that queued commands still use: they complete without a
 * fault, the memory counts as used until then, and comes back after.
 */
TEST(free_while_queued_keeps_backing)
{
	struct drm_ascend_device_info before, after;
	struct drm_ascend_bo_create a;
	struct drm_ascend_queue_wait w;
	struct write_args wa;
	struct ascend_cmd c;
	struct queue q;
	uint64_t spin_us = 200000, seq;
	uint32_t kw, ks;
	int fd = open_accel();

	setup_window(fd);
	kw = kernel_id(fd, "DeviceWrite", NULL);
	ks = kernel_id(fd, "Spin", NULL);
	REQUIRE_OK(queue_create(fd, 0, &q));
	query_info(fd, &before);
	REQUIRE_OK(bo_create(fd, 65536, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));

	cmd_launch(&c, ks, 1, &spin_us, sizeof(spin_us));
	queue_submit(&q, &c);
	wa = (struct write_args){ .p = a.va + 65532, .v = 5 };
	cmd_launch(&c, kw, 1, &wa, sizeof(wa));
	seq = queue_submit(&q, &c);
	REQUIRE_OK(gem_close(fd, a.handle));

	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
	CHECK_EQ(w.completed, seq);
	/* retiring may lag the completion a little: poll, bounded */
	for (int i = 0; i < 1000; i++) {
		query_info(fd, &after);
		if (after.hbm_used_by_file == 0)
			break;
		usleep(1000);
	}
	CHECK_EQ(after.hbm_used_by_file, 0);
	CHECK_EQ(after.hbm_free, before.hbm_free);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

/* A process killed with memory and queued work live gives every byte back. */
TEST(killed_process_returns_memory)
{
	struct drm_ascend_device_info before, after;
	int fd = open_accel(), pfd[2], status;
	char ch;
	pid_t pid;

	query_info(fd, &before);
	REQUIRE(pipe(pfd) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct drm_ascend_bo_create a;
		uint64_t spin_us = 5000000;
		struct ascend_cmd c;
		struct queue q;
		int cfd = open_accel();

		setup_window(cfd);
		for (int i = 0; i < 16; i++)
			REQUIRE_OK(bo_create(cfd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST,
					     0, &a));
		REQUIRE_OK(bo_create(cfd, 8 << 20, DRM_ASCEND_BO_HUGE_ONLY, 0, &a));
		REQUIRE_OK(queue_create(cfd, 0, &q));
		cmd_launch(&c, kernel_id(cfd, "Spin", NULL), 1, &spin_us,
			   sizeof(spin_us));
		queue_submit(&q, &c);
		REQUIRE(write(pfd[1], "x", 1) == 1);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	REQUIRE(read(pfd[0], &ch, 1) == 1);
	query_info(fd, &after);
	CHECK(after.hbm_free <= before.hbm_free - (24 << 20));
	kill(pid, SIGKILL);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status));
	/* the file is released once the process is gone */
	for (int i = 0; i < 5000; i++) {
		query_info(fd, &after);
		if (after.hbm_free == before.hbm_free)
			break;
		usleep(1000);
	}
	CHECK_EQ(after.hbm_free, before.hbm_free);
	close(pfd[0]);
	close(fd);
}

/* debugfs lists the allocation and the client (when debugfs is mounted). */
TEST(debugfs_hbm_and_clients)
{
	struct drm_ascend_bo_create a;
	char path[128], line[512], va[32];
	int fd = open_accel(), found = 0, me = 0;
	FILE *f;

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 8192, DRM_ASCEND_BO_NORMAL_ONLY,
			     DRM_ASCEND_BO_P2P, &a));
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/ascend.0/hbm");
	f = fopen(path, "r");
	if (!f) {
		close(fd);
		SKIP("no debugfs file accel/ascend.0/hbm");
	}
	snprintf(va, sizeof(va), "0x%016llx", (unsigned long long)a.va);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, va) && strstr(line, "normal_only") &&
		    strstr(line, "p2p"))
			found = 1;
	fclose(f);
	CHECK(found);

	f = fopen("/sys/kernel/debug/accel/ascend.0/clients", "r");
	REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		int pid;
		char comm[32];
		unsigned long long used;

		if (sscanf(line, "%d %31s %llu", &pid, comm, &used) == 3 &&
		    pid == getpid() && used == 8192)
			me = 1;
	}
	fclose(f);
	CHECK(me);
	close(fd);
}

int main(void)
{
	return tap_main();
}
