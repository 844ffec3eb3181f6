// SPDX-License-Identifier: MIT
/*
 * The extended copies at the raw uAPI level: COPY_BATCH and COPY_2D ioctls
 * (argument errors, fail_index, byte-exact data across HBM, pinned and
 * pageable host memory with odd sizes, unaligned offsets and page
 * crossings), and the ring commands COPY_2D, COPY_BATCH, COPY_INDIRECT and
 * COPY_OFFSET (faults with their codes and addresses; a descriptor or base
 * pointer rewritten on the device between submission and execution changes
 * what is copied).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioctl_util.h"

#define PAGE 4096UL
#define BO_SIZE (1UL << 20)
/* inside the VA window, far from any allocation of these tests */
#define UNMAPPED(d) ((d).win + (900UL << 20))

struct dev {
	int fd;
	uint64_t win;
	struct drm_ascend_bo_create a, b;	/* two 1 MiB buffers */
};

static void dev_open(struct dev *d)
{
	d->fd = open_accel();
	d->win = setup_window(d->fd);
	REQUIRE_OK(bo_create(d->fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &d->a));
	REQUIRE_OK(bo_create(d->fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &d->b));
}

static void dev_close(struct dev *d)
{
	close(d->fd);
}

static void pattern(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 9));
}

/* Fill device range [va, va + n) with pattern @seed; keeps a host copy. */
static uint8_t *dev_pattern(struct dev *d, uint64_t va, size_t n,
			    unsigned int seed)
{
	uint8_t *h = malloc(n);

	REQUIRE(h);
	pattern(h, n, seed);
	REQUIRE_OK(dev_copy(d->fd, va, (uintptr_t)h, n));
	return h;
}

static uint8_t *dev_read(struct dev *d, uint64_t va, size_t n)
{
	uint8_t *h = malloc(n);

	REQUIRE(h);
	REQUIRE_OK(dev_copy(d->fd, (uintptr_t)h, va, n));
	return h;
}

static int batch(int fd, const void *e, uint32_t count, uint32_t esize,
		 uint32_t flags, uint32_t *fail)
{
	struct drm_ascend_copy_batch b = {
		.entries = (uintptr_t)e, .count = count, .entry_size = esize,
		.flags = flags, .fail_index = 12345,
	};
	int ret = aioctl(fd, DRM_IOCTL_ASCEND_COPY_BATCH, &b);

	if (fail)
		*fail = b.fail_index;
	return ret;
}

static int copy2d(int fd, uint64_t dst, uint64_t dpitch, uint64_t src,
		  uint64_t spitch, uint64_t width, uint64_t height)
{
	struct drm_ascend_copy_2d c = {
		.dst = dst, .src = src, .dpitch = dpitch, .spitch = spitch,
		.width = width, .height = height,
	};

	return aioctl(fd, DRM_IOCTL_ASCEND_COPY_2D, &c);
}

TEST(capability_bit)
{
	struct drm_ascend_device_info info;
	int fd = open_accel();

	query_info(fd, &info);
	CHECK(info.capabilities & DRM_ASCEND_CAP_COPY_EXT);
	close(fd);
}

TEST(batch_argument_errors)
{
	struct drm_ascend_copy_entry e[2] = { 0 };
	struct dev d;
	uint32_t fail;

	dev_open(&d);
	e[0] = (struct drm_ascend_copy_entry){ d.a.va, d.b.va, 64 };
	CHECK_ERRNO(batch(d.fd, e, 0, sizeof(e[0]), 0, &fail), EINVAL);
	CHECK_EQ(fail, 0xffffffffu);
	CHECK_ERRNO(batch(d.fd, e, DRM_ASCEND_COPY_BATCH_MAX + 1, sizeof(e[0]),
			  0, &fail), EINVAL);
	CHECK_ERRNO(batch(d.fd, e, 1, sizeof(e[0]), 1, &fail), EINVAL);
	CHECK_ERRNO(batch(d.fd, e, 1, 16, 0, &fail), EINVAL);
	CHECK_ERRNO(batch(d.fd, (void *)KERNEL_ADDR, 1, sizeof(e[0]), 0, &fail),
		    EFAULT);
	CHECK_EQ(0, batch(d.fd, e, 1, sizeof(e[0]), 0, &fail));
	CHECK_EQ(fail, 0xffffffffu);
	dev_close(&d);
}

TEST(batch_entry_size_extensible)
{
	uint64_t e[3][4];	/* 32-byte entries */
	struct dev d;
	uint8_t *h, *r;
	uint32_t fail;

	dev_open(&d);
	h = dev_pattern(&d, d.a.va, 8192, 1);
	memset(e, 0, sizeof(e));
	e[0][0] = d.b.va;	e[0][1] = d.a.va;	e[0][2] = 100;
	e[1][0] = d.b.va + 200;	e[1][1] = d.a.va + 4000; e[1][2] = 300;
	e[2][0] = d.b.va + 600;	e[2][1] = d.a.va + 7; e[2][2] = 0;
	CHECK_EQ(0, batch(d.fd, e, 3, 32, 0, &fail));
	CHECK_EQ(fail, 0xffffffffu);
	r = dev_read(&d, d.b.va, 1024);
	CHECK(memcmp(r, h, 100) == 0);
	CHECK(memcmp(r + 200, h + 4000, 300) == 0);
	free(r);
	/* a non-zero byte past the known entry */
	e[1][3] = 1;
	CHECK_ERRNO(batch(d.fd, e, 3, 32, 0, &fail), EINVAL);
	CHECK_EQ(fail, 1u);
	free(h);
	dev_close(&d);
}

TEST(batch_fail_index_first_bad_entry_nothing_moves)
{
	struct drm_ascend_copy_entry e[4];
	uint8_t *before, *after;
	uint8_t *host = malloc(4096);
	struct dev d;
	uint32_t fail;

	REQUIRE(host);
	dev_open(&d);
	free(dev_pattern(&d, d.a.va, 4096, 2));
	before = dev_read(&d, d.b.va, 4096);
	e[0] = (struct drm_ascend_copy_entry){ d.b.va, d.a.va, 128 };
	e[1] = (struct drm_ascend_copy_entry){ (uintptr_t)host, d.a.va, 64 };
	/* past the end of the buffer, into the guard gap */
	e[2] = (struct drm_ascend_copy_entry){ d.b.va, d.a.va + BO_SIZE - 8, 64 };
	e[3] = (struct drm_ascend_copy_entry){ KERNEL_ADDR, d.a.va, 8 };
	CHECK_ERRNO(batch(d.fd, e, 4, sizeof(e[0]), 0, &fail), EFAULT);
	CHECK_EQ(fail, 2u);
	after = dev_read(&d, d.b.va, 4096);
	CHECK(memcmp(before, after, 4096) == 0);
	free(after);

	/* a kernel address: -EFAULT at its index */
	e[2] = e[0];
	CHECK_ERRNO(batch(d.fd, e, 4, sizeof(e[0]), 0, &fail), EFAULT);
	CHECK_EQ(fail, 3u);
	/* overlap: -EINVAL at its index */
	e[3] = (struct drm_ascend_copy_entry){ d.a.va + 8, d.a.va, 16 };
	CHECK_ERRNO(batch(d.fd, e, 4, sizeof(e[0]), 0, &fail), EINVAL);
	CHECK_EQ(fail, 3u);
	/* an unmapped pageable range is named too */
	e[3] = (struct drm_ascend_copy_entry){ d.b.va, 4096, 16 };
	CHECK_ERRNO(batch(d.fd, e, 4, sizeof(e[0]), 0, &fail), EFAULT);
	CHECK_EQ(fail, 3u);
	free(before);
	free(host);
	dev_close(&d);
}

TEST(batch_byte_exact_all_kinds)
{
	enum { N = 7 };
	struct drm_ascend_copy_entry e[N];
	struct drm_ascend_host_alloc ha = { .size = 3 * PAGE };
	uint8_t *pg = aligned_alloc(PAGE, 4 * PAGE);
	uint8_t *pg2 = aligned_alloc(PAGE, 4 * PAGE);
	uint8_t *h, *r, *pin;
	struct dev d;
	uint32_t fail;

	REQUIRE(pg && pg2);
	dev_open(&d);
	REQUIRE_OK(aioctl(d.fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &ha));
	pin = mmap(NULL, ha.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   d.fd, (off_t)ha.mmap_offset);
	REQUIRE(pin != MAP_FAILED);
	h = dev_pattern(&d, d.a.va, 3 * PAGE * 4, 3);
	pattern(pg2, 4 * PAGE, 4);
	pattern(pin, 3 * PAGE, 5);
	memset(pg, 0, 4 * PAGE);

	/* D2D odd size, unaligned, page crossing */
	e[0] = (struct drm_ascend_copy_entry){ d.b.va + 4093, d.a.va + 11, 4099 };
	/* D2H pageable, page crossing */
	e[1] = (struct drm_ascend_copy_entry){ (uintptr_t)pg + 4000, d.a.va + 3, 5001 };
	/* H2D pageable */
	e[2] = (struct drm_ascend_copy_entry){ d.b.va + 20000, (uintptr_t)pg2 + 1, 6007 };
	/* H2D pinned */
	e[3] = (struct drm_ascend_copy_entry){ d.b.va + 30001, (uintptr_t)pin + 5, 2 * PAGE - 8 };
	/* empty */
	e[4] = (struct drm_ascend_copy_entry){ 0, 0, 0 };
	/* D2H pinned (last page of the pinned buffer) */
	e[5] = (struct drm_ascend_copy_entry){ (uintptr_t)pin + 2 * PAGE + 1, d.a.va + 9000, 333 };
	/* 1-byte */
	e[6] = (struct drm_ascend_copy_entry){ d.b.va + 40000, d.a.va + 12345, 1 };
	CHECK_EQ(0, batch(d.fd, e, N, sizeof(e[0]), 0, &fail));
	CHECK_EQ(fail, 0xffffffffu);

	r = dev_read(&d, d.b.va, 48 * 1024);
	CHECK(memcmp(r + 4093, h + 11, 4099) == 0);
	CHECK(memcmp(pg + 4000, h + 3, 5001) == 0);
	CHECK(pg[3999] == 0 && pg[9001] == 0);
	CHECK(memcmp(r + 20000, pg2 + 1, 6007) == 0);
	pattern(pg2, 3 * PAGE, 5);	/* what pin held */
	CHECK(memcmp(r + 30001, pg2 + 5, 2 * PAGE - 8) == 0);
	CHECK(memcmp(pin + 2 * PAGE + 1, h + 9000, 333) == 0);
	CHECK_EQ(r[40000], h[12345]);
	CHECK_EQ(r[40001], 0);
	free(r);
	free(h);
	munmap(pin, ha.alloc_size);
	free(pg);
	free(pg2);
	dev_close(&d);
}

TEST(batch_4096_entries_one_submission)
{
	enum { N = DRM_ASCEND_COPY_BATCH_MAX };
	struct drm_ascend_copy_entry *e = calloc(N, sizeof(*e));
	uint8_t *h, *out = malloc(N * 64);
	struct dev d;
	uint32_t fail, i;

	REQUIRE(e && out);
	dev_open(&d);
	h = dev_pattern(&d, d.a.va, N * 64, 6);
	/* reverse the order of 64-byte blocks into pageable memory */
	for (i = 0; i < N; i++)
		e[i] = (struct drm_ascend_copy_entry){
			(uintptr_t)out + (N - 1 - i) * 64, d.a.va + i * 64, 64 };
	CHECK_EQ(0, batch(d.fd, e, N, sizeof(*e), 0, &fail));
	for (i = 0; i < N; i++)
		if (memcmp(out + (N - 1 - i) * 64, h + i * 64, 64))
			break;
	CHECK_EQ(i, (uint32_t)N);
	free(h);
	free(out);
	free(e);
	dev_close(&d);
}

TEST(copy2d_argument_errors)
{
	struct drm_ascend_copy_2d c;
	struct dev d;

	dev_open(&d);
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 64, d.a.va, 64, 0, 4), EINVAL);
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 64, d.a.va, 64, 16, 0), EINVAL);
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 15, d.a.va, 64, 16, 4), EINVAL);
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 64, d.a.va, 15, 16, 4), EINVAL);
	/* pitch * (height - 1) overflows */
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 1ULL << 62, d.a.va, 64, 16, 5), EINVAL);
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 64, d.a.va, UINT64_MAX / 2, 16, 3),
		    EINVAL);
	memset(&c, 0, sizeof(c));
	c = (struct drm_ascend_copy_2d){ d.b.va, d.a.va, 64, 64, 16, 4, 1, 0 };
	CHECK_ERRNO(aioctl(d.fd, DRM_IOCTL_ASCEND_COPY_2D, &c), EINVAL);
	c.flags = 0;
	c.pad = 1;
	CHECK_ERRNO(aioctl(d.fd, DRM_IOCTL_ASCEND_COPY_2D, &c), EINVAL);
	/* the last row runs past the buffer */
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 4096, d.a.va, 64, 64, 257), EFAULT);
	CHECK_ERRNO(copy2d(d.fd, d.b.va, 64, d.a.va, 4096, 64, 257), EFAULT);
	CHECK_ERRNO(copy2d(d.fd, KERNEL_ADDR, 64, d.a.va, 64, 64, 2), EFAULT);
	CHECK_EQ(0, copy2d(d.fd, d.b.va, 4096, d.a.va, 64, 64, 256));
	dev_close(&d);
}

/* Check a 2D copy of @h (source pattern) landed in @r; gaps untouched. */
static int check2d(const uint8_t *r, uint64_t dpitch, const uint8_t *h,
		   uint64_t spitch, uint64_t w, uint64_t hgt, uint8_t gap)
{
	uint64_t i, k;

	for (i = 0; i < hgt; i++) {
		if (memcmp(r + i * dpitch, h + i * spitch, w))
			return 0;
		if (i + 1 < hgt)
			for (k = w; k < dpitch; k++)
				if (r[i * dpitch + k] != gap)
					return 0;
	}
	return 1;
}

TEST(copy2d_byte_exact_every_direction)
{
	const uint64_t w = 1001, sp = 1237, dp = 4099, hgt = 37;
	uint64_t sspan = sp * (hgt - 1) + w, dspan = dp * (hgt - 1) + w;
	uint8_t *h, *r, *pg = malloc(dspan + 8), *src = malloc(sspan + 8);
	struct dev d;

	REQUIRE(pg && src);
	dev_open(&d);
	h = dev_pattern(&d, d.a.va + 5, sspan, 7);

	/* D2D */
	CHECK_EQ(0, copy2d(d.fd, d.b.va + 3, dp, d.a.va + 5, sp, w, hgt));
	r = dev_read(&d, d.b.va + 3, dspan);
	CHECK(check2d(r, dp, h, sp, w, hgt, 0));
	free(r);

	/* D2H pageable, unaligned */
	memset(pg, 0xee, dspan + 8);
	CHECK_EQ(0, copy2d(d.fd, (uintptr_t)pg + 1, dp, d.a.va + 5, sp, w, hgt));
	CHECK(check2d(pg + 1, dp, h, sp, w, hgt, 0xee));
	CHECK_EQ(pg[0], 0xee);

	/* H2D pageable */
	pattern(src, sspan, 8);
	CHECK_EQ(0, copy2d(d.fd, d.b.va + 300000, dp, (uintptr_t)src + 3, sp, w,
			hgt));
	r = dev_read(&d, d.b.va + 300000, dspan);
	CHECK(check2d(r, dp, src + 3, sp, w, hgt, 0));
	free(r);

	/* H2H pageable (both pinned), one row */
	CHECK_EQ(0, copy2d(d.fd, (uintptr_t)pg, 0x10000, (uintptr_t)src, 0x10000,
			777, 1));
	CHECK(memcmp(pg, src, 777) == 0);
	free(h);
	free(pg);
	free(src);
	dev_close(&d);
}

/* ---- ring commands ----------------------------------------------------- */

static void cmd_value(struct ascend_cmd *c, uint32_t op, uint64_t addr,
		      uint64_t value, uint32_t cond)
{
	memset(c, 0, sizeof(*c));
	c->opcode = op;
	c->value.addr = addr;
	c->value.value = value;
	c->value.cond = cond;
}

/* Run one command on a fresh queue: the fault code (0), fault_addr. */
static uint32_t run_cmd(int fd, const struct ascend_cmd *c, uint64_t *addr,
			uint32_t *opcode)
{
	struct drm_ascend_queue_wait w;
	struct queue q;
	uint64_t seq;

	REQUIRE_OK(queue_create(fd, 0, &q));
	seq = queue_submit(&q, c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	if (addr)
		*addr = q.st->fault_addr;
	if (opcode)
		*opcode = q.st->fault_opcode;
	REQUIRE(w.fault || w.completed == seq);
	queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE);
	return w.fault;
}

/*
 * Rows longer than a pass (16 MiB) go row by row, each in passes of its
 * own (Documentation/reliability.rst, "Bounded work"), by the ioctl and
 * by the ring command: every byte arrives, the gaps between rows stay.
 */
TEST(copy_2d_rows_longer_than_a_pass)
{
	const uint64_t w = (16ULL << 20) + 4097, sp = w + 3, dp = w + 4096;
	const uint64_t hgt = 2, span = dp * (hgt - 1) + w;
	struct drm_ascend_bo_create a, b;
	struct ascend_cmd c;
	uint8_t *h, *r;
	unsigned int pass, bad = 0;
	uint64_t i;
	struct dev d;

	dev_open(&d);
	REQUIRE_OK(bo_create(d.fd, span + 8192, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(d.fd, span + 8192, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	h = dev_pattern(&d, a.va, sp * (hgt - 1) + w, 5);
	for (pass = 0; pass < 2; pass++) {
		/* a known background, so the gap between rows is checked */
		r = calloc(1, span);
		REQUIRE(r);
		REQUIRE_OK(dev_copy(d.fd, b.va, (uintptr_t)r, span));
		free(r);
		if (!pass) {
			CHECK_EQ(copy2d(d.fd, b.va, dp, a.va, sp, w, hgt), 0);
		} else {
			memset(&c, 0, sizeof(c));
			c.opcode = ASCEND_CMD_COPY_2D;
			c.copy_2d = (struct ascend_cmd_copy_2d){ b.va, a.va, dp, sp,
								 w, hgt };
			CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
		}
		r = dev_read(&d, b.va, span);
		for (i = 0; i < hgt; i++)
			bad += memcmp(r + i * dp, h + i * sp, w) != 0;
		for (i = w; i < dp; i++)
			bad += r[i] != 0;
		CHECK_EQ(bad, 0u);
		free(r);
	}
	free(h);
	dev_close(&d);
}

TEST(ring_copy_2d)
{
	const uint64_t w = 333, sp = 512, dp = 4096 + 7, hgt = 20;
	struct ascend_cmd c;
	uint8_t *h, *r;
	uint64_t fa;
	uint32_t op;
	struct dev d;

	dev_open(&d);
	h = dev_pattern(&d, d.a.va, sp * hgt, 9);
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_2D;
	c.copy_2d = (struct ascend_cmd_copy_2d){ d.b.va + 1, d.a.va, dp, sp, w,
						 hgt };
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	r = dev_read(&d, d.b.va + 1, dp * hgt);
	CHECK(check2d(r, dp, h, sp, w, hgt, 0));
	free(r);

	/* pitch < width, height 0, overflow, a non-zero unused byte */
	c.copy_2d.dpitch = w - 1;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_2d.dpitch = 1ULL << 60;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_2d.dpitch = dp;
	c.copy_2d.height = 0;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_2d.height = hgt;
	c.raw[sizeof(c.copy_2d)] = 1;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.raw[sizeof(c.copy_2d)] = 0;
	/* the source span leaves the buffer: MMU fault naming the source */
	c.copy_2d.src = d.a.va + BO_SIZE - sp * (hgt - 1);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, &op), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, c.copy_2d.src);
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_COPY_2D);
	free(h);
	dev_close(&d);
}

TEST(ring_copy_batch)
{
	enum { N = 300 };
	struct drm_ascend_copy_entry e[N];
	struct ascend_cmd c;
	uint64_t ents, fa;
	uint8_t *h, *r;
	struct dev d;
	int i;

	dev_open(&d);
	h = dev_pattern(&d, d.a.va, 256 * 1024, 10);
	for (i = 0; i < N; i++)
		e[i] = (struct drm_ascend_copy_entry){
			d.b.va + i * 301, d.a.va + 1 + i * 777, i % 5 ? 299 : 0 };
	ents = d.b.va + BO_SIZE - sizeof(e) - 8;	/* 8-aligned */
	REQUIRE_OK(dev_copy(d.fd, ents, (uintptr_t)e, sizeof(e)));
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_BATCH;
	c.copy_batch.entries = ents;
	c.copy_batch.count = N;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	r = dev_read(&d, d.b.va, N * 301);
	for (i = 0; i < N; i++) {
		if (i % 5 == 0)
			continue;
		if (memcmp(r + i * 301, h + 1 + i * 777, 299))
			break;
	}
	CHECK_EQ(i, N);
	free(r);

	/* misaligned entries, a pad byte: bad command */
	c.copy_batch.entries = ents + 4;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_batch.entries = ents;
	c.copy_batch.pad = 1;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_batch.pad = 0;
	/* the array runs past the mapping: MMU fault */
	c.copy_batch.count = N + 100;
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK(fa >= ents && fa < ents + (N + 100) * sizeof(e[0]));
	/* count * 24 wraps the address space */
	c.copy_batch.entries = UINT64_MAX - 4095;
	c.copy_batch.count = 1000;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);

	/* a bad entry in the middle: fault names its address, nothing moved */
	free(dev_pattern(&d, d.b.va, N * 301, 11));
	e[201].src = UNMAPPED(d) + 16;
	REQUIRE_OK(dev_copy(d.fd, ents, (uintptr_t)e, sizeof(e)));
	c.copy_batch.entries = ents;
	c.copy_batch.count = N;
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d) + 16);
	r = dev_read(&d, d.b.va, N * 301);
	h = realloc(h, N * 301);
	pattern(h, N * 301, 11);
	CHECK(memcmp(r, h, N * 301) == 0);
	free(r);
	free(h);
	dev_close(&d);
}

static void set_desc(struct dev *d, uint64_t at, uint64_t dst, uint64_t src,
		     uint64_t size)
{
	struct ascend_memcpy_desc m = {
		.magic = ASCEND_MEMCPY_DESC_MAGIC, .version = 1,
		.dst = dst, .src = src, .size = size,
	};

	REQUIRE_OK(dev_copy(d->fd, at, (uintptr_t)&m, sizeof(m)));
}

TEST(ring_copy_indirect_errors)
{
	struct ascend_memcpy_desc m;
	struct ascend_cmd c;
	uint64_t desc, fa;
	uint8_t *h, *r;
	struct dev d;

	dev_open(&d);
	h = dev_pattern(&d, d.a.va, 8192, 12);
	desc = d.a.va + 65536;
	set_desc(&d, desc, d.b.va + 3, d.a.va + 5, 5000);
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_INDIRECT;
	c.copy_indirect.desc = desc;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	r = dev_read(&d, d.b.va + 3, 5000);
	CHECK(memcmp(r, h + 5, 5000) == 0);
	free(r);

	c.copy_indirect.desc = desc + 8;	/* not 64-byte aligned */
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_indirect.desc = UNMAPPED(d) + 64;
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d) + 64);
	c.copy_indirect.desc = desc;

	memset(&m, 0, sizeof(m));
	m = (struct ascend_memcpy_desc){ ASCEND_MEMCPY_DESC_MAGIC + 1, 1,
					 d.b.va, d.a.va, 16, { 0 } };
	REQUIRE_OK(dev_copy(d.fd, desc, (uintptr_t)&m, sizeof(m)));
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	m.magic = ASCEND_MEMCPY_DESC_MAGIC;
	m.version = 2;
	REQUIRE_OK(dev_copy(d.fd, desc, (uintptr_t)&m, sizeof(m)));
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	m.version = 1;
	m.reserved[3] = 1;
	REQUIRE_OK(dev_copy(d.fd, desc, (uintptr_t)&m, sizeof(m)));
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	m.reserved[3] = 0;
	m.size = 0;
	REQUIRE_OK(dev_copy(d.fd, desc, (uintptr_t)&m, sizeof(m)));
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	/* the descriptor names an unmapped source: MMU fault with it */
	set_desc(&d, desc, d.b.va, UNMAPPED(d) + 128, 64);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d) + 128);
	free(h);
	dev_close(&d);
}

/*
 * Queue A: WAIT_VALUE(flag == 1), then @c.  Queue B rewrites 8 bytes at
 * @at to @val and then sets the flag: @c must see the new value.
 */
static void run_behind_rewrite(struct dev *d, const struct ascend_cmd *c,
			       uint64_t flag, uint64_t at, uint64_t val)
{
	struct drm_ascend_queue_wait w;
	struct queue qa, qb;
	struct ascend_cmd v;
	uint64_t sa, sb;

	REQUIRE_OK(queue_create(d->fd, 0, &qa));
	REQUIRE_OK(queue_create(d->fd, 0, &qb));
	cmd_value(&v, ASCEND_CMD_WAIT_VALUE, flag, 1, ASCEND_WAIT_VALUE_EQ);
	queue_submit(&qa, &v);
	sa = queue_submit(&qa, c);
	cmd_value(&v, ASCEND_CMD_WRITE_VALUE, at, val, 0);
	queue_submit(&qb, &v);
	cmd_value(&v, ASCEND_CMD_WRITE_VALUE, flag, 1, 0);
	sb = queue_submit(&qb, &v);
	REQUIRE_OK(queue_wait(&qb, sb, &w));
	CHECK_EQ(w.fault, 0u);
	REQUIRE_OK(queue_wait(&qa, sa, &w));
	CHECK_EQ(w.fault, 0u);
	CHECK_EQ(w.completed, sa);
	queue_destroy(&qa, 0);
	queue_destroy(&qb, 0);
}

TEST(ring_copy_indirect_reads_descriptor_at_execution)
{
	uint64_t desc, flag, zero = 0;
	struct ascend_cmd c;
	uint8_t *h, *r, *z;
	struct dev d;

	dev_open(&d);
	h = dev_pattern(&d, d.a.va, 8192, 13);
	desc = d.a.va + 65536;
	flag = d.a.va + 131072;
	REQUIRE_OK(dev_copy(d.fd, flag, (uintptr_t)&zero, 8));
	/* A: a.va[0..100) -> b.va[0..100); B rewrites src to a.va + 1000 */
	set_desc(&d, desc, d.b.va, d.a.va, 100);
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_INDIRECT;
	c.copy_indirect.desc = desc;
	run_behind_rewrite(&d, &c, flag,
			   desc + offsetof(struct ascend_memcpy_desc, src),
			   d.a.va + 1000);
	r = dev_read(&d, d.b.va, 100);
	CHECK(memcmp(r, h + 1000, 100) == 0);
	CHECK(memcmp(r, h, 100) != 0);
	free(r);
	z = dev_read(&d, d.b.va + 100, 16);
	CHECK_EQ(z[0], 0);
	free(z);
	free(h);
	dev_close(&d);
}

TEST(ring_copy_offset)
{
	uint64_t slots, flag, v[2], zero = 0, fa;
	struct ascend_cmd c;
	uint8_t *h, *r;
	struct dev d;

	dev_open(&d);
	h = dev_pattern(&d, d.a.va, 8192, 14);
	slots = d.a.va + 65536;
	flag = slots + 64;
	v[0] = d.b.va;	/* dst base */
	v[1] = d.a.va;	/* src base */
	REQUIRE_OK(dev_copy(d.fd, slots, (uintptr_t)v, sizeof(v)));
	REQUIRE_OK(dev_copy(d.fd, flag, (uintptr_t)&zero, 8));
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_OFFSET;
	c.copy_offset = (struct ascend_cmd_copy_offset){ slots, slots + 8, 7,
							 4093, 3001 };
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	r = dev_read(&d, d.b.va + 7, 3001);
	CHECK(memcmp(r, h + 4093, 3001) == 0);
	free(r);

	/* the source base read at execution: rewritten behind a wait */
	c.copy_offset.dst_offset = 20000;
	run_behind_rewrite(&d, &c, flag, slots + 8, d.a.va + 1);
	r = dev_read(&d, d.b.va + 20000, 3001);
	CHECK(memcmp(r, h + 1 + 4093, 3001) == 0);
	free(r);

	/* misaligned slot, size 0: bad command */
	c.copy_offset.src_slot = slots + 4;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_offset.src_slot = slots + 8;
	c.copy_offset.size = 0;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_offset.size = 3001;
	/* base + offset overflows: bad command */
	c.copy_offset.dst_offset = UINT64_MAX - 10;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	c.copy_offset.dst_offset = 0;
	/* unmapped slot: MMU fault naming it */
	c.copy_offset.dst_slot = UNMAPPED(d) + 8;
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d) + 8);
	/* base + offset outside any mapping: MMU fault naming it */
	c.copy_offset.dst_slot = slots;
	c.copy_offset.dst_offset = BO_SIZE + 4096 * 16;
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, d.b.va + BO_SIZE + 4096 * 16);
	free(h);
	dev_close(&d);
}

/*
 * A ring COPY_BATCH whose entries change while it runs (here: its own
 * entry 0 copies a bad entry over entry 256, which the device reads only
 * after entries 0..255 ran).  The entries were all checked before the
 * first byte moved; the changed one is checked again and translated by
 * the engines when it runs, so it faults the queue with its address, the
 * entries before it have moved, and nothing outside the queue's address
 * space is touched (Documentation/hardware.rst, "Command execution").
 */
TEST(ring_copy_batch_rewritten_while_running)
{
	enum { N = 300, BAD = 256, BIG = 17 };
	struct drm_ascend_copy_entry e[N], bad;
	struct drm_ascend_bo_create big;
	uint64_t ents, badva, fa;
	struct ascend_cmd c;
	uint8_t *h, *r;
	struct dev d;
	int i;

	dev_open(&d);
	REQUIRE_OK(bo_create(d.fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &big));
	h = dev_pattern(&d, d.a.va, 256 * 1024, 12);
	free(dev_pattern(&d, d.b.va, N * 301, 13));
	ents = d.b.va + BO_SIZE - sizeof(e) - 8;	/* 8-aligned */
	badva = ents - 64;
	bad = (struct drm_ascend_copy_entry){ d.b.va + BAD * 301,
					      UNMAPPED(d) + 16, 299 };
	REQUIRE_OK(dev_copy(d.fd, badva, (uintptr_t)&bad, sizeof(bad)));
	e[0] = (struct drm_ascend_copy_entry){ ents + BAD * sizeof(e[0]), badva,
					       sizeof(e[0]) };
	/*
	 * 17 MiB next: more than one job holds, so entry 0 has run (on the
	 * engines, or at once when they were idle) before entry 256 is read
	 */
	for (i = 1; i <= BIG; i++)
		e[i] = (struct drm_ascend_copy_entry){ big.va, d.a.va, BO_SIZE };
	for (; i < N; i++)
		e[i] = (struct drm_ascend_copy_entry){
			d.b.va + i * 301, d.a.va + i * 777, 299 };
	REQUIRE_OK(dev_copy(d.fd, ents, (uintptr_t)e, sizeof(e)));
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_BATCH;
	c.copy_batch.entries = ents;
	c.copy_batch.count = N;
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d) + 16);
	r = dev_read(&d, d.b.va, N * 301);
	for (i = BIG + 1; i < BAD; i++)
		if (memcmp(r + i * 301, h + i * 777, 299))
			break;
	CHECK_EQ(i, BAD);
	free(r);
	free(h);
	dev_close(&d);
}

int main(void)
{
	return tap_main();
}
