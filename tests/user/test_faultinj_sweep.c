// SPDX-License-Identifier: MIT
/*
 * Fault-injection sweep: for every site of drivers/accel/ascend/ascend_fault.h
 * and the emulated device's own (its DMA engines' transfers, in
 * RELIAB_EMU_DEBUGFS) arm "fail the next call" (debugfs fail_<site> = 1),
 * run a workload that
 * reaches the site, and check
 *  - the clean error: the raw ioctl's errno, and for libaclrt a CANN error
 *    code with a message for aclGetRecentErrMsg();
 *  - that the failure was injected exactly once (injected_<site>);
 *  - no leak: once the files are closed, debugfs hbm/clients of device 0
 *    are empty;
 *  - a working device afterwards: a copy round trip and a kernel launch
 *    on a queue, bytes checked.
 */
#define _GNU_SOURCE
#include "acl_util.h"
#include "ioctl_util.h"
#include "../fuzz/reliab.h"

#define PAGE 4096

/* The directory of @site's knobs: the device's own, or the driver's. */
static const char *site_dir(const char *site)
{
	return strcmp(site, "dma_xfer") ? RELIAB_DEBUGFS : RELIAB_EMU_DEBUGFS;
}

/* Arm @site for its next call; returns its injected count before. */
static long arm(const char *site)
{
	char n[128];
	long before;

	snprintf(n, sizeof(n), "%s/injected_%s", site_dir(site), site);
	before = reliab_debugfs_get(n);
	if (before < 0)
		SKIP("no fault-injection knobs in debugfs");
	snprintf(n, sizeof(n), "%s/fail_%s", site_dir(site), site);
	REQUIRE(reliab_debugfs_set(n, 1) == 0);
	return before;
}

/* The site fired exactly once since arm(); disarm either way. */
static void fired_once(const char *site, long before)
{
	char n[128];

	snprintf(n, sizeof(n), "%s/fail_%s", site_dir(site), site);
	CHECK_EQ(reliab_debugfs_get(n), 0);
	reliab_debugfs_set(n, 0);
	snprintf(n, sizeof(n), "%s/injected_%s", site_dir(site), site);
	CHECK_EQ(reliab_debugfs_get(n), before + 1);
}

/* Copy round trip and a DeviceWrite launch on a fresh file; no leak after. */
static void device_works(void)
{
	struct drm_ascend_bo_create a, b;
	struct drm_ascend_queue_wait w;
	struct write_args wa;
	struct ascend_cmd c;
	struct queue q;
	uint8_t in[PAGE], out[PAGE];
	int32_t v = 0;
	unsigned int i;
	int fd;

	CHECK(reliab_wait_clean(0, 10));
	fd = open_accel();
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	for (i = 0; i < PAGE; i++)
		in[i] = (uint8_t)(i * 13 + 1);
	CHECK_EQ(dev_copy(fd, a.va, (uintptr_t)in, PAGE), 0);
	CHECK_EQ(dev_copy(fd, b.va, a.va, PAGE), 0);
	memset(out, 0, sizeof(out));
	CHECK_EQ(dev_copy(fd, (uintptr_t)out, b.va, PAGE), 0);
	CHECK(memcmp(in, out, PAGE) == 0);

	REQUIRE_OK(queue_create(fd, 0, &q));
	wa = (struct write_args){ .p = a.va, .v = 4242 };
	cmd_launch(&c, kernel_id(fd, "DeviceWrite", NULL), 1, &wa, sizeof(wa));
	REQUIRE_OK(queue_wait(&q, queue_submit(&q, &c), &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
	CHECK_EQ(dev_copy(fd, (uintptr_t)&v, a.va, sizeof(v)), 0);
	CHECK_EQ(v, 4242);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
	CHECK(reliab_wait_clean(0, 10));
}

TEST(hbm_alloc_raw_enospc)
{
	struct drm_ascend_bo_create bo;
	int fd = open_accel();
	long before;

	setup_window(fd);
	before = arm("hbm_alloc");
	CHECK_ERRNO(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo), ENOSPC);
	fired_once("hbm_alloc", before);
	/* the next allocation of the same file works */
	CHECK_EQ(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo), 0);
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	close(fd);
	device_works();
}

TEST(hbm_alloc_acl_malloc)
{
	void *p = NULL;
	long before;

	acl_setup();
	before = arm("hbm_alloc");
	CHECK_ACL_ERR(aclrtMalloc(&p, 1 << 16, ACL_MEM_MALLOC_NORMAL_ONLY),
		      ACL_ERROR_RT_MEMORY_ALLOCATION);
	fired_once("hbm_alloc", before);
	CHECK_EQ(aclrtMalloc(&p, 1 << 16, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
	CHECK_EQ(aclrtFree(p), ACL_SUCCESS);
	CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
	CHECK_EQ(aclFinalize(), ACL_SUCCESS);
	device_works();
}

TEST(pin_host_register_and_pageable_copy)
{
	struct drm_ascend_host_register r = { 0 };
	struct drm_ascend_bo_create bo;
	uint8_t *buf;
	long before;
	int fd = open_accel();

	setup_window(fd);
	buf = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(buf != MAP_FAILED);
	memset(buf, 1, 4 * PAGE);
	r.addr = (uintptr_t)buf;
	r.size = 4 * PAGE;
	before = arm("pin");
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r), EFAULT);
	fired_once("pin", before);

	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	before = arm("pin");
	CHECK_ERRNO(dev_copy(fd, bo.va, (uintptr_t)buf, PAGE), EFAULT);
	fired_once("pin", before);
	/* the same calls work once the knob fired */
	CHECK_EQ(dev_copy(fd, bo.va, (uintptr_t)buf, PAGE), 0);
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r), 0);
	CHECK_EQ(gem_close(fd, r.handle), 0);
	close(fd);
	device_works();
}

TEST(pin_acl_host_register)
{
	void *host, *dev = NULL;
	long before;

	acl_setup();
	host = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(host != MAP_FAILED);
	before = arm("pin");
	CHECK_ACL_FAIL(aclrtHostRegister(host, 4 * PAGE, ACL_HOST_REGISTER_MAPPED, &dev));
	fired_once("pin", before);
	CHECK_EQ(aclrtHostRegister(host, 4 * PAGE, ACL_HOST_REGISTER_MAPPED, &dev),
		 ACL_SUCCESS);
	CHECK_EQ(aclrtHostUnregister(host), ACL_SUCCESS);
	CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
	CHECK_EQ(aclFinalize(), ACL_SUCCESS);
	device_works();
}

TEST(dma_map_host_register_and_pageable_copy)
{
	struct drm_ascend_host_register r = { 0 };
	struct drm_ascend_bo_create bo;
	uint8_t *buf;
	long before;
	int fd = open_accel();

	setup_window(fd);
	buf = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(buf != MAP_FAILED);
	memset(buf, 2, 4 * PAGE);
	r.addr = (uintptr_t)buf;
	r.size = 4 * PAGE;
	before = arm("dma_map");
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r), ENOMEM);
	fired_once("dma_map", before);

	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	before = arm("dma_map");
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)buf, bo.va, PAGE), ENOMEM);
	fired_once("dma_map", before);
	CHECK_EQ(dev_copy(fd, (uintptr_t)buf, bo.va, PAGE), 0);
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r), 0);
	CHECK_EQ(gem_close(fd, r.handle), 0);
	close(fd);
	device_works();
}

TEST(dma_xfer_copy_fails_with_eio)
{
	struct drm_ascend_bo_create a, b;
	long before;
	int fd;

	fd = open_accel();
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	before = arm("dma_xfer");
	CHECK_ERRNO(dev_copy(fd, b.va, a.va, PAGE), EIO);
	fired_once("dma_xfer", before);
	CHECK_EQ(dev_copy(fd, b.va, a.va, PAGE), 0);
	close(fd);
	device_works();
}

TEST(dma_xfer_acl_memcpy)
{
	void *a = NULL, *b = NULL;
	long before;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc(&a, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc(&b, PAGE, ACL_MEM_MALLOC_NORMAL_ONLY));
	before = arm("dma_xfer");
	CHECK_ACL_ERR(aclrtMemcpy(b, PAGE, a, PAGE, ACL_MEMCPY_DEVICE_TO_DEVICE),
		      ACL_ERROR_RT_SYS_DMA);
	fired_once("dma_xfer", before);
	CHECK_EQ(aclrtMemcpy(b, PAGE, a, PAGE, ACL_MEMCPY_DEVICE_TO_DEVICE),
		 ACL_SUCCESS);
	CHECK_EQ(aclrtFree(b), ACL_SUCCESS);
	CHECK_EQ(aclrtFree(a), ACL_SUCCESS);
	CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
	CHECK_EQ(aclFinalize(), ACL_SUCCESS);
	device_works();
}

TEST(doorbell_eio_then_work_runs)
{
	struct drm_ascend_queue_doorbell d = { 0 };
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	struct queue q;
	uint64_t seq;
	long before;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_nop(&c);
	memcpy(&q.ring[0], &c, sizeof(c));
	__atomic_store_n(&q.st->wptr, 1, __ATOMIC_RELEASE);
	seq = 1;
	d.handle = q.handle;
	before = arm("doorbell");
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &d), EIO);
	fired_once("doorbell", before);
	/* a failed doorbell loses nothing: the next one runs the command */
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &d), 0);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
	CHECK_EQ(w.completed, 1);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
	device_works();
}

TEST(queue_create_raw_and_acl_stream)
{
	struct queue q;
	aclrtStream s = NULL;
	long before;
	int fd = open_accel();

	before = arm("queue_create");
	CHECK_ERRNO(queue_create(fd, 0, &q), ENOMEM);
	fired_once("queue_create", before);
	REQUIRE_OK(queue_create(fd, 0, &q));
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);

	acl_setup();
	before = arm("queue_create");
	CHECK_ACL_FAIL(aclrtCreateStream(&s));
	fired_once("queue_create", before);
	CHECK_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
	CHECK_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
	CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
	CHECK_EQ(aclFinalize(), ACL_SUCCESS);
	device_works();
}

TEST(event_create_raw_and_acl_event)
{
	struct drm_ascend_event_create e = { 0 };
	struct drm_ascend_event_destroy d = { 0 };
	aclrtEvent ev = NULL;
	long before;
	int fd = open_accel();

	before = arm("event_create");
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &e), ENOMEM);
	fired_once("event_create", before);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &e));
	d.handle = e.handle;
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_DESTROY, &d), 0);
	close(fd);

	acl_setup();
	before = arm("event_create");
	CHECK_ACL_FAIL(aclrtCreateEvent(&ev));
	fired_once("event_create", before);
	CHECK_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
	CHECK_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
	CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
	CHECK_EQ(aclFinalize(), ACL_SUCCESS);
	device_works();
}

TEST(nth_call_countdown)
{
	struct drm_ascend_bo_create bo[3];
	long before;
	int fd = open_accel();

	setup_window(fd);
	before = reliab_debugfs_get("injected_hbm_alloc");
	REQUIRE(before >= 0);
	REQUIRE(reliab_debugfs_set("fail_hbm_alloc", 3) == 0);
	CHECK_EQ(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo[0]), 0);
	CHECK_EQ(reliab_debugfs_get("fail_hbm_alloc"), 2);
	CHECK_EQ(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo[1]), 0);
	CHECK_ERRNO(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo[2]), ENOSPC);
	CHECK_EQ(reliab_debugfs_get("fail_hbm_alloc"), 0);
	CHECK_EQ(reliab_debugfs_get("injected_hbm_alloc"), before + 1);
	CHECK_EQ(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo[2]), 0);
	/* 0 disarms */
	REQUIRE(reliab_debugfs_set("fail_hbm_alloc", 1) == 0);
	REQUIRE(reliab_debugfs_set("fail_hbm_alloc", 0) == 0);
	CHECK_EQ(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo[0]), 0);
	close(fd);
	CHECK(reliab_wait_clean(0, 10));
}

int main(void)
{
	return tap_main();
}
