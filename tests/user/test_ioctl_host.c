// SPDX-License-Identifier: MIT
/*
 * Host memory at the raw uAPI level: HOST_REGISTER and HOST_ALLOC argument
 * checks and errno values, RLIMIT_MEMLOCK, VmPin/VmLck returning to zero,
 * the one-mmap rule, COPY in every direction with pinned, registered and
 * pageable memory (every byte checked, guards around the destination),
 * read-only registrations refusing device writes, and a process killed
 * during a large pageable copy leaving nothing behind.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ioctl_util.h"

#define PAGE 4096UL
#define SZ_2M_ (2UL << 20)

static int host_register(int fd, uint64_t addr, uint64_t size, uint32_t flags,
			 uint32_t *handle)
{
	struct drm_ascend_host_register r = {
		.addr = addr, .size = size, .flags = flags,
	};
	int ret = aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r);

	if (!ret && handle)
		*handle = r.handle;
	return ret;
}

static int host_alloc(int fd, uint64_t size, struct drm_ascend_host_alloc *a)
{
	memset(a, 0, sizeof(*a));
	a->size = size;
	return aioctl(fd, DRM_IOCTL_ASCEND_HOST_ALLOC, a);
}

/* HOST_ALLOC + mmap: the pointer is the host and the device address. */
static void *host_alloc_map(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_ascend_host_alloc a;
	void *p;

	REQUIRE_OK(host_alloc(fd, size, &a));
	p = mmap(NULL, a.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	REQUIRE(p != MAP_FAILED);
	*handle = a.handle;
	return p;
}

/* Page-aligned anonymous memory. */
static void *anon(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	REQUIRE(p != MAP_FAILED);
	return p;
}

/* A "Vm...:" line of /proc/self/status in kB, -1 if missing. */
static long status_kb(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	REQUIRE(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return v;
}

static uint64_t pinned_by_file(int fd)
{
	struct drm_ascend_device_info info;

	query_info(fd, &info);
	return info.host_pinned_by_file;
}

static void fill_pattern(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 12));
}

TEST(capability_bit)
{
	struct drm_ascend_device_info info;
	int fd = open_accel();

	query_info(fd, &info);
	CHECK(info.capabilities & DRM_ASCEND_CAP_HOST_MEMORY);
	CHECK_EQ(info.host_pinned_by_file, 0);
	close(fd);
}

TEST(register_errors)
{
	int fd = open_accel();
	uint64_t win = setup_window(fd);
	uint8_t *p = anon(8 * PAGE);
	uint64_t a = (uintptr_t)p;
	uint32_t h, h2;

	CHECK_ERRNO(host_register(fd, a + 1, PAGE, 0, &h), EINVAL);
	CHECK_ERRNO(host_register(fd, a, PAGE + 1, 0, &h), EINVAL);
	CHECK_ERRNO(host_register(fd, a, 0, 0, &h), EINVAL);
	CHECK_ERRNO(host_register(fd, a, PAGE, 2, &h), EINVAL);
	CHECK_ERRNO(host_register(fd, a, UINT64_MAX & ~(PAGE - 1), 0, &h),
		    EINVAL);
	CHECK_ERRNO(host_register(fd, KERNEL_ADDR, PAGE, 0, &h), EINVAL);
	/* inside the VA window: device addresses, not host memory */
	CHECK_ERRNO(host_register(fd, win, PAGE, 0, &h), EINVAL);
	CHECK_ERRNO(host_register(fd, win - PAGE, 2 * PAGE, 0, &h), EINVAL);

	REQUIRE_OK(host_register(fd, a + 2 * PAGE, 4 * PAGE, 0, &h));
	/* any page of it again: already registered */
	CHECK_ERRNO(host_register(fd, a + 2 * PAGE, 4 * PAGE, 0, &h2), EEXIST);
	CHECK_ERRNO(host_register(fd, a, 3 * PAGE, 0, &h2), EEXIST);
	CHECK_ERRNO(host_register(fd, a + 5 * PAGE, 3 * PAGE, 0, &h2), EEXIST);
	/* neighbours are fine */
	REQUIRE_OK(host_register(fd, a, 2 * PAGE, 0, &h2));
	REQUIRE_OK(gem_close(fd, h2));
	REQUIRE_OK(gem_close(fd, h));
	/* unregistered: registering again works */
	REQUIRE_OK(host_register(fd, a + 2 * PAGE, 4 * PAGE, 0, &h));
	REQUIRE_OK(gem_close(fd, h));

	/* not mapped memory */
	memset(p, 1, 4 * PAGE);
	munmap(p + 4 * PAGE, 4 * PAGE);
	CHECK_ERRNO(host_register(fd, a + 2 * PAGE, 4 * PAGE, 0, &h), EFAULT);
	CHECK_ERRNO(host_register(fd, a + 4 * PAGE, PAGE, 0, &h), EFAULT);
	CHECK_EQ(pinned_by_file(fd), 0);
	/* a read-only mapping cannot be pinned for device writes... */
	REQUIRE(mprotect(p, 4 * PAGE, PROT_READ) == 0);
	CHECK_ERRNO(host_register(fd, a, PAGE, 0, &h), EFAULT);
	/* ...but for device reads */
	REQUIRE_OK(host_register(fd, a, PAGE, DRM_ASCEND_HOST_REG_READONLY, &h));
	REQUIRE_OK(gem_close(fd, h));
	CHECK_EQ(status_kb("VmPin:"), 0);
	close(fd);
}

TEST(vmpin_vmlck_back_to_zero)
{
	int fd = open_accel();
	size_t size = 64 * PAGE;
	uint8_t *p = anon(size);
	uint32_t h;
	void *q;

	memset(p, 1, size);
	CHECK_EQ(status_kb("VmPin:"), 0);
	REQUIRE_OK(host_register(fd, (uintptr_t)p, size, 0, &h));
	CHECK_EQ(status_kb("VmPin:"), (long)(size / 1024));
	CHECK_EQ(status_kb("VmLck:"), (long)(size / 1024));
	CHECK_EQ(pinned_by_file(fd), size);
	REQUIRE_OK(gem_close(fd, h));
	CHECK_EQ(status_kb("VmPin:"), 0);
	CHECK_EQ(status_kb("VmLck:"), 0);
	CHECK_EQ(pinned_by_file(fd), 0);

	q = host_alloc_map(fd, size, &h);
	CHECK_EQ(status_kb("VmLck:"), (long)(size / 1024));
	CHECK_EQ(pinned_by_file(fd), size);
	REQUIRE(munmap(q, size) == 0);
	REQUIRE_OK(gem_close(fd, h));
	CHECK_EQ(status_kb("VmLck:"), 0);
	CHECK_EQ(pinned_by_file(fd), 0);

	/* closing the handle first, munmap last */
	q = host_alloc_map(fd, size, &h);
	REQUIRE_OK(gem_close(fd, h));
	CHECK_EQ(pinned_by_file(fd), size);	/* the mapping holds it */
	REQUIRE(munmap(q, size) == 0);
	CHECK_EQ(pinned_by_file(fd), 0);
	/* given back from a work item when munmap held the mmap_lock */
	for (int i = 0; i < 200 && status_kb("VmLck:"); i++)
		usleep(10000);
	CHECK_EQ(status_kb("VmLck:"), 0);
	close(fd);
}

/* Without CAP_IPC_LOCK, RLIMIT_MEMLOCK bounds pinned memory. */
TEST(memlock_limit)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[2] = {};
	struct rlimit rl = { .rlim_cur = 16 * PAGE, .rlim_max = 16 * PAGE };
	struct drm_ascend_host_alloc a;
	int fd = open_accel();
	uint8_t *p = anon(32 * PAGE);
	uint32_t h;

	REQUIRE(syscall(SYS_capset, &hdr, caps) == 0);
	REQUIRE(setrlimit(RLIMIT_MEMLOCK, &rl) == 0);

	CHECK_ERRNO(host_register(fd, (uintptr_t)p, 32 * PAGE, 0, &h), ENOMEM);
	CHECK_ERRNO(host_alloc(fd, 17 * PAGE, &a), ENOMEM);
	CHECK_EQ(status_kb("VmLck:"), 0);
	CHECK_EQ(status_kb("VmPin:"), 0);
	REQUIRE_OK(host_register(fd, (uintptr_t)p, 8 * PAGE, 0, &h));
	CHECK_ERRNO(host_alloc(fd, 9 * PAGE, &a), ENOMEM);
	REQUIRE_OK(host_alloc(fd, 8 * PAGE, &a));
	CHECK_EQ(status_kb("VmLck:"), 64);
	REQUIRE_OK(gem_close(fd, a.handle));
	REQUIRE_OK(gem_close(fd, h));
	CHECK_EQ(status_kb("VmLck:"), 0);
	close(fd);
}

/*
 * More pages than the host has can never be pinned: refused at once, before
 * anything is allocated or charged (as root, whom RLIMIT_MEMLOCK does not
 * bound: a page array or page allocation of that size would reach the OOM
 * killer).
 */
TEST(larger_than_ram_refused_at_once)
{
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * PAGE;
	struct drm_ascend_host_alloc a;
	int fd = open_accel();
	uint32_t h;
	void *p;

	REQUIRE(ram > 0);
	CHECK_ERRNO(host_alloc(fd, 2 * ram, &a), ENOMEM);
	/* an address range that large, reserved but never backed */
	p = mmap(NULL, 2 * ram, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	REQUIRE(p != MAP_FAILED);
	CHECK_ERRNO(host_register(fd, (uintptr_t)p, 2 * ram, 0, &h), ENOMEM);
	CHECK_EQ(status_kb("VmLck:"), 0);
	CHECK_EQ(status_kb("VmPin:"), 0);
	munmap(p, 2 * ram);
	/* the device still pins what fits */
	REQUIRE_OK(host_alloc(fd, 4 * PAGE, &a));
	REQUIRE_OK(gem_close(fd, a.handle));
	close(fd);
}

TEST(host_alloc_mmap_rules)
{
	struct drm_ascend_host_alloc a;
	int fd = open_accel();
	uint8_t *p, *q;
	size_t i;

	CHECK_ERRNO(host_alloc(fd, 0, &a), EINVAL);
	a = (struct drm_ascend_host_alloc){ .size = PAGE, .flags = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &a), EINVAL);

	REQUIRE_OK(host_alloc(fd, 10000, &a));
	CHECK_EQ(a.alloc_size, 3 * PAGE);
	CHECK_EQ(pinned_by_file(fd), 3 * PAGE);
	/* private, partial or offset mappings are refused */
	CHECK(mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		   (off_t)a.mmap_offset) == MAP_FAILED);
	CHECK(mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)a.mmap_offset) == MAP_FAILED);
	CHECK(mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)a.mmap_offset + PAGE) == MAP_FAILED);
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	REQUIRE(p != MAP_FAILED);
	for (i = 0; i < 3 * PAGE; i++)
		if (p[i])
			break;
	CHECK_EQ(i, 3 * PAGE);	/* zeroed */
	memset(p, 0x5a, 3 * PAGE);
	/* one mapping only: its address is the device address */
	q = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	CHECK(q == MAP_FAILED && errno == EBUSY);
	/* it cannot be split (the device mapping would be left behind) */
	CHECK(munmap(p + PAGE, PAGE) != 0);
	/* registering it: already mapped for the device */
	CHECK_ERRNO(host_register(fd, (uintptr_t)p, PAGE, 0, NULL), EEXIST);
	REQUIRE(munmap(p, 3 * PAGE) == 0);
	/* unmapped: the device mapping went with it */
	{
		uint8_t buf[16];

		CHECK_ERRNO(dev_copy(fd, (uintptr_t)buf, (uintptr_t)p, 16),
			    EFAULT);
	}
	REQUIRE_OK(gem_close(fd, a.handle));
	CHECK_EQ(pinned_by_file(fd), 0);
	close(fd);
}

enum kind { PAGEABLE, REGISTERED, ALLOCATED, NR_KINDS };
static const char *const kind_name[] = { "pageable", "registered", "allocated" };

/* A host buffer of @kind with room for @size bytes at offset @off. */
struct hbuf {
	uint8_t *base;
	size_t len;
	uint32_t handle;
	enum kind kind;
};

static void hbuf_get(int fd, struct hbuf *b, enum kind kind, size_t need)
{
	b->kind = kind;
	b->len = (need + 2 * PAGE) & ~(PAGE - 1);
	b->handle = 0;
	switch (kind) {
	case PAGEABLE:
		b->base = anon(b->len);
		break;
	case REGISTERED:
		b->base = anon(b->len);
		REQUIRE_OK(host_register(fd, (uintptr_t)b->base, b->len, 0,
					 &b->handle));
		break;
	default:
		b->base = host_alloc_map(fd, b->len, &b->handle);
		break;
	}
}

static void hbuf_put(int fd, struct hbuf *b)
{
	munmap(b->base, b->len);
	if (b->handle)
		REQUIRE_OK(gem_close(fd, b->handle));
}

/* Copy @size bytes host(@sk) -> device -> device -> host(@dk), check all. */
static void round_trip(int fd, uint64_t dev, enum kind sk, enum kind dk,
		       size_t size, size_t soff, size_t doff, unsigned int seed)
{
	struct hbuf s, d, h2;
	size_t i, bad = 0;

	hbuf_get(fd, &s, sk, soff + size);
	hbuf_get(fd, &d, dk, doff + size);
	fill_pattern(s.base + soff, size, seed);
	memset(d.base, 0xee, d.len);

	/* H2D, D2D, D2H */
	REQUIRE_OK(dev_copy(fd, dev + 3, (uintptr_t)(s.base + soff), size));
	REQUIRE_OK(dev_copy(fd, dev + SZ_2M_ + 5, dev + 3, size));
	REQUIRE_OK(dev_copy(fd, (uintptr_t)(d.base + doff), dev + SZ_2M_ + 5,
			    size));
	for (i = 0; i < size; i++)
		bad += d.base[doff + i] != s.base[soff + i];
	for (i = 0; i < doff; i++)
		bad += d.base[i] != 0xee;
	for (i = doff + size; i < d.len; i++)
		bad += d.base[i] != 0xee;
	if (bad)
		printf("#   %s -> %s size %zu soff %zu doff %zu: %zu bad bytes\n",
		       kind_name[sk], kind_name[dk], size, soff, doff, bad);
	CHECK_EQ(bad, 0);

	/* H2H: host to host through the DMA engines */
	hbuf_get(fd, &h2, (enum kind)((sk + 1) % NR_KINDS), size + doff);
	memset(h2.base, 0, h2.len);
	REQUIRE_OK(dev_copy(fd, (uintptr_t)(h2.base + doff),
			    (uintptr_t)(s.base + soff), size));
	CHECK_EQ(memcmp(h2.base + doff, s.base + soff, size), 0);
	hbuf_put(fd, &h2);

	hbuf_put(fd, &s);
	hbuf_put(fd, &d);
}

TEST(copy_every_direction_and_kind)
{
	static const struct { size_t size, soff, doff; } cases[] = {
		{ 1, 0, 0 }, { 63, 1, 17 }, { 4095, 0, 1 },
		{ 8200, 4090, 4001 },	/* page-crossing, unaligned */
		{ 1 << 20, 5, 0 },
	};
	struct drm_ascend_bo_create bo;
	int fd = open_accel();
	unsigned int c, sk, dk, seed = 1;

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 2 * SZ_2M_, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo));
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		for (sk = 0; sk < NR_KINDS; sk++)
			for (dk = 0; dk < NR_KINDS; dk++)
				round_trip(fd, bo.va, sk, dk, cases[c].size,
					   cases[c].soff, cases[c].doff,
					   seed++);
	CHECK_EQ(status_kb("VmPin:"), 0);
	CHECK_EQ(pinned_by_file(fd), 0);
	REQUIRE_OK(gem_close(fd, bo.handle));
	close(fd);
}

TEST(copy_errors)
{
	struct drm_ascend_bo_create bo;
	int fd = open_accel();
	uint64_t win = setup_window(fd);
	uint8_t *p = anon(4 * PAGE);
	uint8_t *ro = anon(PAGE);

	REQUIRE_OK(bo_create(fd, 8192, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	/* kernel addresses, unmapped host memory, window holes */
	CHECK_ERRNO(dev_copy(fd, bo.va, KERNEL_ADDR, 16), EFAULT);
	CHECK_ERRNO(dev_copy(fd, KERNEL_ADDR, bo.va, 16), EFAULT);
	munmap(p + 2 * PAGE, 2 * PAGE);
	CHECK_ERRNO(dev_copy(fd, bo.va, (uintptr_t)(p + PAGE), 2 * PAGE),
		    EFAULT);
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)(p + PAGE), bo.va, 2 * PAGE),
		    EFAULT);
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)p, win + SZ_2M_ * 100, 16),
		    EFAULT);
	/* a range that starts in pageable memory and runs into the window */
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)p, win - 8, 16), EFAULT);
	/* pageable read-only memory cannot be a destination */
	REQUIRE(mprotect(ro, PAGE, PROT_READ) == 0);
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)ro, bo.va, 16), EFAULT);
	REQUIRE_OK(dev_copy(fd, bo.va, (uintptr_t)ro, 16));
	/* overlap stays -EINVAL for host addresses too */
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)p, (uintptr_t)p + 8, 16), EINVAL);
	CHECK_EQ(status_kb("VmPin:"), 0);
	close(fd);
}

/*
 * Unregistering while queued commands may still use the memory defers the
 * unpin, but the address is the process's again at once: registering the
 * same range (or mmap'ing new HOST_ALLOC memory there) must not fail with
 * EEXIST because the old registration is still retiring.
 */
TEST(reregister_while_old_registration_retires)
{
	struct drm_ascend_queue_wait w;
	struct drm_ascend_bo_create bo;
	struct ascend_cmd c = { .opcode = ASCEND_CMD_WAIT_VALUE };
	struct queue q, q2;
	uint32_t h1 = 0, h2 = 0;
	uint64_t seq, seq2;
	uint8_t *buf = anon(2 * 4096);
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	REQUIRE_OK(queue_create(fd, 0, &q));
	REQUIRE_OK(queue_create(fd, 0, &q2));
	/* a queue stalled on a value: every retire of this file must wait */
	c.value.addr = bo.va;
	c.value.value = 1;
	c.value.cond = ASCEND_WAIT_VALUE_EQ;
	seq = queue_submit(&q, &c);
	queue_doorbell(&q);

	REQUIRE_OK(host_register(fd, (uintptr_t)buf, 2 * 4096, 0, &h1));
	CHECK_EQ(gem_close(fd, h1), 0);
	CHECK_EQ(host_register(fd, (uintptr_t)buf, 2 * 4096, 0, &h2), 0);
	/* still refused while the new registration is live */
	CHECK_EQ(host_register(fd, (uintptr_t)buf, 4096, 0, NULL), -EEXIST);

	/* release the stall from another queue: the old one retires */
	c = (struct ascend_cmd){ .opcode = ASCEND_CMD_WRITE_VALUE };
	c.value.addr = bo.va;
	c.value.value = 1;
	seq2 = queue_submit(&q2, &c);
	queue_doorbell(&q2);
	CHECK_EQ(queue_wait(&q2, seq2, &w), 0);
	CHECK_EQ(w.fault, 0);
	CHECK_EQ(queue_wait(&q, seq, &w), 0);
	CHECK_EQ(w.fault, 0);
	CHECK_EQ(w.completed, seq);
	CHECK_EQ(gem_close(fd, h2), 0);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	CHECK_EQ(queue_destroy(&q2, 0), 0);
	close(fd);
}

TEST(readonly_registration)
{
	struct drm_ascend_bo_create bo;
	struct drm_ascend_fill f = { .size = 64, .pattern_size = 1 };
	int fd = open_accel();
	uint8_t *p = anon(2 * PAGE), back[64];
	uint32_t h;

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 8192, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	fill_pattern(p, 2 * PAGE, 3);
	REQUIRE_OK(host_register(fd, (uintptr_t)p, 2 * PAGE,
				 DRM_ASCEND_HOST_REG_READONLY, &h));
	/* the device reads it... */
	REQUIRE_OK(dev_copy(fd, bo.va, (uintptr_t)p + 100, 64));
	REQUIRE_OK(dev_copy(fd, (uintptr_t)back, bo.va, 64));
	CHECK_EQ(memcmp(back, p + 100, 64), 0);
	/* ...and never writes it */
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)p, bo.va, 64), EFAULT);
	f.dst = (uintptr_t)p;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_FILL, &f), EFAULT);
	CHECK_EQ(memcmp(back, p + 100, 64), 0);
	REQUIRE_OK(gem_close(fd, h));
	close(fd);
}

/* FILL reaches pinned host memory through the device MMU. */
TEST(fill_host_memory)
{
	struct drm_ascend_fill f = { .size = 3 * PAGE + 12, .pattern_size = 4,
				     .pattern = 0x11223344 };
	int fd = open_accel();
	uint32_t h;
	uint8_t *p = host_alloc_map(fd, 4 * PAGE, &h);
	size_t i, bad = 0;

	f.dst = (uintptr_t)p + 8;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_FILL, &f));
	for (i = 0; i < 4 * PAGE; i++) {
		uint8_t want = i < 8 || i >= 8 + f.size ? 0 :
			       (uint8_t)(0x11223344u >> (((i - 8) % 4) * 8));

		bad += p[i] != want;
	}
	CHECK_EQ(bad, 0);
	munmap(p, 4 * PAGE);
	REQUIRE_OK(gem_close(fd, h));
	close(fd);
}

/* One 64 MiB pageable round trip: windows of pinning, every byte. */
TEST(copy_64m_pageable)
{
	size_t size = 64UL << 20;
	struct drm_ascend_bo_create bo;
	int fd = open_accel();
	uint8_t *s = anon(size), *d = anon(size);

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, size, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo));
	fill_pattern(s, size, 9);
	REQUIRE_OK(dev_copy(fd, bo.va, (uintptr_t)s, size));
	REQUIRE_OK(dev_copy(fd, (uintptr_t)d, bo.va, size));
	CHECK_EQ(memcmp(s, d, size), 0);
	CHECK_EQ(status_kb("VmPin:"), 0);
	REQUIRE_OK(gem_close(fd, bo.handle));
	close(fd);
}

/* debugfs clients line of @pid: 1 if listed (-1 without debugfs). */
static int client_listed(pid_t pid)
{
	FILE *f = fopen("/sys/kernel/debug/accel/ascend.0/clients", "r");
	char line[512];
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int p;

		if (sscanf(line, "%d", &p) == 1 && p == pid)
			found = 1;
	}
	fclose(f);
	return found;
}

TEST(killed_during_pageable_copy)
{
	struct drm_ascend_device_info before, after;
	int fd = open_accel(), pfd[2], i;
	char c;
	pid_t pid;

	query_info(fd, &before);
	REQUIRE(pipe(pfd) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		size_t size = 32UL << 20;
		struct drm_ascend_bo_create bo;
		int cfd = open_accel();
		uint8_t *s = anon(size);

		setup_window(cfd);
		REQUIRE_OK(bo_create(cfd, size, DRM_ASCEND_BO_HUGE_FIRST, 0,
				     &bo));
		memset(s, 7, size);
		REQUIRE(write(pfd[1], "x", 1) == 1);
		for (;;) {
			dev_copy(cfd, bo.va, (uintptr_t)s, size);
			dev_copy(cfd, (uintptr_t)s, bo.va, size);
		}
	}
	REQUIRE(read(pfd[0], &c, 1) == 1);
	usleep(200000);
	kill(pid, SIGKILL);
	REQUIRE(waitpid(pid, NULL, 0) == pid);

	/* its file is closed: gone from the clients, its HBM back */
	for (i = 0; i < 500 && client_listed(pid) == 1; i++)
		usleep(10000);
	CHECK(client_listed(pid) != 1);
	for (i = 0; i < 500; i++) {
		query_info(fd, &after);
		if (after.hbm_free == before.hbm_free)
			break;
		usleep(10000);
	}
	CHECK_EQ(after.hbm_free, before.hbm_free);
	CHECK_EQ(status_kb("VmPin:"), 0);
	CHECK_EQ(after.host_pinned_by_file, 0);
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
}

int main(void)
{
	return tap_main();
}
