// SPDX-License-Identifier: MIT
/*
 * The ring REDUCE command at the raw uAPI level: the capability bit, an
 * int32 sum and an fp32 max byte for byte, every invalid payload field
 * (unknown op or type, flags, pad, size 0 or not whole elements,
 * misaligned addresses, partial overlap, junk past the payload) faulting
 * only its queue with ASCEND_FAULT_BAD_COMMAND and changing nothing,
 * unmapped ranges faulting with ASCEND_FAULT_MMU and their address, and a
 * large reduce stopped by QUEUE_RESET (STOP) and by a forced destroy
 * within a bound.
 *
 * A ring command has no ioctl that could return -EINVAL: the device
 * checks it when it executes it, and a bad one faults its queue (the
 * QUEUE_WAIT reports the fault code, the status page its opcode).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioctl_util.h"

#define BO_SIZE (1UL << 20)
#define UNMAPPED(d) ((d).win + (900UL << 20))

struct dev {
	int fd;
	uint64_t win;
	struct drm_ascend_bo_create a, b;
};

static void dev_open(struct dev *d)
{
	struct drm_ascend_device_info info;

	d->fd = open_accel();
	query_info(d->fd, &info);
	if (!(info.capabilities & DRM_ASCEND_CAP_REDUCE))
		SKIP("the driver has no DRM_ASCEND_CAP_REDUCE");
	d->win = setup_window(d->fd);
	REQUIRE_OK(bo_create(d->fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &d->a));
	REQUIRE_OK(bo_create(d->fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &d->b));
}

/* One command on a fresh queue: its fault code (0: completed). */
static uint32_t run_cmd(int fd, const struct ascend_cmd *c, uint64_t *addr, uint32_t *opcode)
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

static void put(struct dev *d, uint64_t va, const void *h, size_t n)
{
	REQUIRE_OK(dev_copy(d->fd, va, (uintptr_t)h, n));
}

static void get(struct dev *d, void *h, uint64_t va, size_t n)
{
	REQUIRE_OK(dev_copy(d->fd, (uintptr_t)h, va, n));
}

static void cmd_reduce(struct ascend_cmd *c, uint64_t dst, uint64_t src, uint64_t size,
		       uint32_t op, uint32_t dtype)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_REDUCE;
	c->reduce.dst = dst;
	c->reduce.src = src;
	c->reduce.size = size;
	c->reduce.op = op;
	c->reduce.dtype = dtype;
}

TEST(cap_and_layout)
{
	struct dev d;

	dev_open(&d);
	CHECK_EQ(sizeof(struct ascend_cmd_reduce), 40);
	CHECK_EQ(offsetof(struct ascend_cmd, reduce), 16);
	CHECK_EQ(sizeof(struct ascend_cmd), ASCEND_CMD_SIZE);
	close(d.fd);
}

TEST(int32_sum_and_fp32_max)
{
	enum { N = 1000 };
	int32_t x[N], y[N], r[N];
	uint32_t fx[4] = { 0xbf800000, 0x7fc00000, 0x80000000, 0x3f800000 };
	uint32_t fy[4] = { 0x3f800000, 0x3f800000, 0x00000000, 0x7f800001 };
	uint32_t fr[4];
	struct ascend_cmd c;
	struct dev d;
	int i, bad = 0;

	dev_open(&d);
	for (i = 0; i < N; i++) {
		x[i] = i * 1000003;
		y[i] = i & 1 ? INT32_MAX : -i;
	}
	put(&d, d.a.va, x, sizeof(x));
	put(&d, d.b.va, y, sizeof(y));
	cmd_reduce(&c, d.a.va, d.b.va, sizeof(x), ASCEND_REDUCE_SUM, ASCEND_REDUCE_INT32);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	get(&d, r, d.a.va, sizeof(r));
	for (i = 0; i < N; i++)
		bad += r[i] != (int32_t)((uint32_t)x[i] + (uint32_t)y[i]);
	CHECK_EQ(bad, 0);

	put(&d, d.a.va + 8192, fx, sizeof(fx));
	put(&d, d.b.va + 8192, fy, sizeof(fy));
	cmd_reduce(&c, d.a.va + 8192, d.b.va + 8192, sizeof(fx), ASCEND_REDUCE_MAX,
		   ASCEND_REDUCE_FP32);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	get(&d, fr, d.a.va + 8192, sizeof(fr));
	CHECK_EQ(fr[0], 0x3f800000u);	/* max(-1, 1) */
	CHECK_EQ(fr[1], 0x7fc00000u);	/* NaN wins */
	CHECK_EQ(fr[2], 0x00000000u);	/* -0 < +0 */
	CHECK_EQ(fr[3], 0x7fc00001u);	/* a signalling NaN, quieted */
	close(d.fd);
}

TEST(invalid_fields_fault_bad_command)
{
	uint8_t before[256], after[256];
	uint32_t op;
	struct ascend_cmd c, good;
	struct queue other;
	struct dev d;
	int i;

	dev_open(&d);
	REQUIRE_OK(queue_create(d.fd, 0, &other));
	for (i = 0; i < 256; i++)
		before[i] = (uint8_t)(i * 7 + 1);
	put(&d, d.a.va, before, sizeof(before));
	cmd_reduce(&good, d.a.va, d.b.va, 64, ASCEND_REDUCE_SUM, ASCEND_REDUCE_FP16);

	for (i = 0; i < 14; i++) {
		c = good;
		switch (i) {
		case 0: c.reduce.op = 3; break;
		case 1: c.reduce.op = 10; break;	/* CANN's numbering */
		case 2: c.reduce.dtype = 7; break;
		case 3: c.reduce.dtype = UINT32_MAX; break;
		case 4: c.reduce.flags = 1; break;
		case 5: c.reduce.pad = 1; break;
		case 6: c.reduce.size = 0; break;
		case 7: c.reduce.size = 63; break;	/* half an element */
		case 8: c.reduce.dst += 1; break;	/* misaligned */
		case 9: c.reduce.src += 1; break;
		case 10: c.reduce.src = c.reduce.dst + 2; break;	/* overlap */
		case 11: c.raw[sizeof(c.reduce)] = 1; break;
		case 12: c.flags = 1; break;
		default: c.reduce.src = UINT64_MAX - 31; break;	/* wraps */
		}
		op = 0;
		CHECK_EQ(run_cmd(d.fd, &c, NULL, &op), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
		CHECK_EQ(op, ASCEND_CMD_REDUCE);
	}
	get(&d, after, d.a.va, sizeof(after));
	CHECK(memcmp(before, after, sizeof(after)) == 0);
	/* only the faulting queues: one made before them still works */
	{
		struct drm_ascend_queue_wait w;
		uint64_t seq;

		c = good;
		c.reduce.dst = d.b.va + 4096;
		c.reduce.src = d.b.va + 8192;
		seq = queue_submit(&other, &c);
		REQUIRE_OK(queue_wait(&other, seq, &w));
		CHECK_EQ(w.fault, 0u);
		CHECK_EQ(w.completed, seq);
		queue_destroy(&other, 0);
	}
	/* the same range is allowed: x + x */
	c = good;
	c.reduce.src = c.reduce.dst;
	c.reduce.dtype = ASCEND_REDUCE_INT8;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	get(&d, after, d.a.va, 64);
	for (i = 0; i < 64; i++)
		CHECK_EQ(after[i], (uint8_t)(before[i] * 2));
	close(d.fd);
}

TEST(unmapped_ranges_fault_mmu)
{
	uint8_t before[4096], after[4096];
	struct ascend_cmd c;
	uint64_t fa = 0;
	struct dev d;

	dev_open(&d);
	memset(before, 0x5a, sizeof(before));
	/* dst runs past the end of a buffer (b if a is just below it) */
	cmd_reduce(&c, d.a.va + BO_SIZE - 4096, d.b.va, 8192, ASCEND_REDUCE_SUM,
		   ASCEND_REDUCE_INT32);
	if (d.a.va + BO_SIZE == d.b.va) {
		c.reduce.dst = d.b.va + BO_SIZE - 4096;
		c.reduce.src = d.a.va;
	}
	put(&d, c.reduce.dst, before, sizeof(before));
	/* nothing written, the range's start reported */
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, c.reduce.dst);
	get(&d, after, c.reduce.dst, sizeof(after));
	CHECK(memcmp(before, after, sizeof(after)) == 0);
	/* an unmapped source */
	cmd_reduce(&c, d.a.va, UNMAPPED(d), 4096, ASCEND_REDUCE_MIN, ASCEND_REDUCE_BF16);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d));
	/* a kernel address */
	cmd_reduce(&c, KERNEL_ADDR, d.b.va, 4096, ASCEND_REDUCE_MAX, ASCEND_REDUCE_INT8);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, KERNEL_ADDR);
	close(d.fd);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A 64 MiB fp32 sum (four jobs of 16 MiB, soft float) is stopped by a
 * QUEUE_RESET with STOP, the next command then runs; and by a forced
 * destroy; both within a bound, far below what the whole sum takes (a
 * 16 MiB one is timed first).  The device still works afterwards.
 */
TEST(large_reduce_stopped)
{
	const uint64_t big = 64ULL << 20;
	struct drm_ascend_bo_create x, y;
	struct drm_ascend_queue_reset rs = { 0 };
	struct drm_ascend_queue_wait w;
	struct drm_ascend_device_info info;
	struct ascend_cmd c;
	struct queue q;
	double t, full;
	uint64_t seq;
	struct dev d;

	dev_open(&d);
	query_info(d.fd, &info);
	REQUIRE_OK(bo_create(d.fd, big, DRM_ASCEND_BO_HUGE_FIRST, 0, &x));
	REQUIRE_OK(bo_create(d.fd, big, DRM_ASCEND_BO_HUGE_FIRST, 0, &y));
	/* real operands (1.1 and 3.3): no shortcut through zeros */
	{
		struct drm_ascend_fill f = { .dst = x.va, .size = big, .pattern = 0x3f8ccccd,
					     .pattern_size = 4 };

		REQUIRE_OK(aioctl(d.fd, DRM_IOCTL_ASCEND_FILL, &f));
		f.dst = y.va;
		f.pattern = 0x40533333;
		REQUIRE_OK(aioctl(d.fd, DRM_IOCTL_ASCEND_FILL, &f));
	}
	REQUIRE_OK(queue_create(d.fd, 0, &q));

	/* a whole 16 MiB for scale */
	cmd_reduce(&c, x.va, y.va, big / 4, ASCEND_REDUCE_SUM, ASCEND_REDUCE_FP32);
	t = now_s();
	seq = queue_submit(&q, &c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	full = now_s() - t;
	CHECK_EQ(w.fault, 0u);
	printf("#   16 MiB fp32 reduce: %.3f s\n", full);

	if (info.capabilities & DRM_ASCEND_CAP_QUEUE_ABORT) {
		cmd_reduce(&c, x.va, y.va, big, ASCEND_REDUCE_SUM, ASCEND_REDUCE_FP32);
		queue_submit(&q, &c);
		cmd_reduce(&c, d.a.va, d.b.va, 4096, ASCEND_REDUCE_SUM, ASCEND_REDUCE_INT8);
		usleep(100000);
		t = now_s();
		rs.handle = q.handle;
		rs.flags = DRM_ASCEND_QUEUE_RESET_STOP;
		REQUIRE_OK(aioctl(d.fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &rs));
		seq = queue_submit(&q, &c);
		REQUIRE_OK(queue_wait(&q, seq, &w));
		t = now_s() - t;
		printf("#   STOP of a running 64 MiB reduce, then a small one: %.3f s\n", t);
		CHECK_EQ(w.fault, 0u);
		CHECK_EQ(w.completed, seq);
		CHECK(t < 10.0);
	}

	cmd_reduce(&c, x.va, y.va, big, ASCEND_REDUCE_SUM, ASCEND_REDUCE_FP32);
	queue_submit(&q, &c);
	usleep(100000);
	t = now_s();
	REQUIRE_OK(queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE));
	t = now_s() - t;
	printf("#   forced destroy of a running 64 MiB reduce: %.3f s\n", t);
	CHECK(t < 10.0);
	CHECK(t < 4 * full || t < 0.5);
	/* the device goes on */
	cmd_reduce(&c, d.a.va, d.b.va, 4096, ASCEND_REDUCE_SUM, ASCEND_REDUCE_INT16);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	close(d.fd);
}

int main(void)
{
	return tap_main();
}
