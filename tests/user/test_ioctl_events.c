// SPDX-License-Identifier: MIT
/*
 * Events, values, ring COPY/FILL, parallel launches, timeouts and
 * QUEUE_RESET at the raw uAPI level.  Memory contents are checked on the
 * device side with WAIT_VALUE EQ and a limit: a wrong value faults the
 * checking command with ASCEND_FAULT_TIMEOUT.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ioctl_util.h"

static int ev_create(int fd, uint32_t flags, uint32_t *handle)
{
	struct drm_ascend_event_create c = { .flags = flags };
	int ret = aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &c);

	*handle = c.handle;
	return ret;
}

static int ev_destroy(int fd, uint32_t handle)
{
	struct drm_ascend_event_destroy d = { .handle = handle };

	return aioctl(fd, DRM_IOCTL_ASCEND_EVENT_DESTROY, &d);
}

static int ev_wait(int fd, uint32_t handle, uint64_t gen, int64_t timeout,
		   struct drm_ascend_event_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->handle = handle;
	w->gen = gen;
	w->timeout_ns = timeout;
	return aioctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, w);
}

static int ev_signal(int fd, uint32_t handle, uint64_t gen)
{
	struct drm_ascend_event_signal s = { .handle = handle, .gen = gen };

	return aioctl(fd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s);
}

static int queue_reset(struct queue *q)
{
	struct drm_ascend_queue_reset r = { .handle = q->handle };

	return aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r);
}

static void cmd_event(struct ascend_cmd *c, uint32_t op, uint32_t handle,
		      uint64_t gen)
{
	memset(c, 0, sizeof(*c));
	c->opcode = op;
	c->event.handle = handle;
	c->event.gen = gen;
}

static void cmd_value(struct ascend_cmd *c, uint32_t op, uint64_t addr,
		      uint64_t value, uint32_t cond, uint32_t timeout_ms)
{
	memset(c, 0, sizeof(*c));
	c->opcode = op;
	c->value.addr = addr;
	c->value.value = value;
	c->value.cond = cond;
	c->value.timeout_ms = timeout_ms;
}

static void cmd_fill(struct ascend_cmd *c, uint64_t dst, uint64_t size,
		     uint64_t pattern, uint32_t psize)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_FILL;
	c->fill.dst = dst;
	c->fill.size = size;
	c->fill.pattern = pattern;
	c->fill.pattern_size = psize;
}

static void cmd_copy(struct ascend_cmd *c, uint64_t dst, uint64_t src,
		     uint64_t size)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_COPY;
	c->copy.dst = dst;
	c->copy.src = src;
	c->copy.size = size;
}

/* Submit and wait; returns the queue's fault (0 when @c completed). */
static uint32_t run(struct queue *q, const struct ascend_cmd *c)
{
	struct drm_ascend_queue_wait w;
	uint64_t seq = queue_submit(q, c);

	REQUIRE_OK(queue_wait(q, seq, &w));
	if (!w.fault && w.completed < seq)
		return UINT32_MAX;
	return w.fault;
}

/* The 64-bit word at @addr must be @v (checked on the device side). */
static void expect_u64(struct queue *q, uint64_t addr, uint64_t v)
{
	struct ascend_cmd c;
	uint32_t f;

	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, addr, v, ASCEND_WAIT_VALUE_EQ, 2000);
	f = run(q, &c);
	CHECK_EQ(f, 0);
	if (f) {
		printf("#   word at 0x%" PRIx64 " is not 0x%" PRIx64 "\n", addr, v);
		REQUIRE_OK(queue_reset(q));
	}
}

/* A NOP completes on @q. */
static void expect_healthy(struct queue *q)
{
	struct ascend_cmd c;

	cmd_nop(&c);
	CHECK_EQ(run(q, &c), 0);
}

TEST(event_ioctl_arguments)
{
	struct drm_ascend_event_destroy d = { 0 };
	struct drm_ascend_event_wait w;
	struct drm_ascend_event_signal s = { 0 };
	uint32_t h, h2;
	int fd = open_accel();

	CHECK_ERRNO(ev_create(fd, 2, &h), EINVAL);
	REQUIRE_OK(ev_create(fd, 0, &h));
	REQUIRE_OK(ev_create(fd, DRM_ASCEND_EVENT_TIMESTAMP, &h2));
	CHECK(h != 0 && h2 != 0 && h != h2);
	d.handle = h;
	d.pad = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_DESTROY, &d), EINVAL);
	s.handle = h;
	s.pad = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s), EINVAL);
	memset(&w, 0, sizeof(w));
	w.handle = h;
	w.flags = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, &w), EINVAL);
	CHECK_ERRNO(ev_destroy(fd, 12345), ENOENT);
	CHECK_ERRNO(ev_signal(fd, 12345, 1), ENOENT);
	CHECK_ERRNO(ev_wait(fd, 12345, 0, 0, &w), ENOENT);
	REQUIRE_OK(ev_destroy(fd, h));
	CHECK_ERRNO(ev_destroy(fd, h), ENOENT);
	CHECK_ERRNO(ev_wait(fd, h, 0, 0, &w), ENOENT);
	REQUIRE_OK(ev_destroy(fd, h2));
	close(fd);
}

TEST(event_host_signal_and_wait)
{
	struct drm_ascend_event_wait w;
	uint32_t h;
	int fd = open_accel();

	REQUIRE_OK(ev_create(fd, DRM_ASCEND_EVENT_TIMESTAMP, &h));
	CHECK_EQ(ev_wait(fd, h, 0, 0, &w), 0);		/* query */
	CHECK_EQ(w.completed, 0);
	CHECK_EQ(w.timestamp_ns, 0);
	CHECK_ERRNO(ev_wait(fd, h, 1, 0, &w), ETIME);	/* poll */
	CHECK_ERRNO(ev_wait(fd, h, 1, deadline_ns(0), &w), ETIME);
	REQUIRE_OK(ev_signal(fd, h, 3));
	CHECK_EQ(ev_wait(fd, h, 2, DRM_ASCEND_TIMEOUT_INFINITE, &w), 0);
	CHECK_EQ(w.completed, 3);
	CHECK(w.timestamp_ns != 0);
	REQUIRE_OK(ev_signal(fd, h, 1));		/* never backwards */
	CHECK_EQ(ev_wait(fd, h, 0, 0, &w), 0);
	CHECK_EQ(w.completed, 3);
	REQUIRE_OK(ev_destroy(fd, h));
	close(fd);
}

TEST(event_record_on_a_device_wait_on_b)
{
	struct drm_ascend_bo_create bo;
	struct drm_ascend_queue_wait qw;
	struct drm_ascend_event_wait w;
	struct ascend_cmd c;
	struct queue a, b;
	uint64_t seq;
	uint32_t h;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	REQUIRE_OK(ev_create(fd, DRM_ASCEND_EVENT_TIMESTAMP, &h));
	REQUIRE_OK(queue_create(fd, 0, &a));
	REQUIRE_OK(queue_create(fd, 0, &b));

	/* B waits for generation 1, then writes 42 */
	cmd_event(&c, ASCEND_CMD_EVENT_WAIT, h, 1);
	queue_submit(&b, &c);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va, 42, 0, 0);
	seq = queue_submit(&b, &c);
	/* nothing recorded yet: B cannot have passed its wait */
	memset(&qw, 0, sizeof(qw));
	qw.handle = b.handle;
	qw.seq = seq;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &qw), ETIME);
	CHECK_EQ(qw.completed, 0);
	CHECK_ERRNO(ev_wait(fd, h, 1, 0, &w), ETIME);

	/* A records: B goes on, the host wait ends */
	cmd_event(&c, ASCEND_CMD_EVENT_RECORD, h, 1);
	CHECK_EQ(run(&a, &c), 0);
	CHECK_EQ(ev_wait(fd, h, 1, deadline_ns(30), &w), 0);
	CHECK_EQ(w.completed, 1);
	CHECK(w.timestamp_ns != 0);
	REQUIRE_OK(queue_wait(&b, seq, &qw));
	CHECK_EQ(qw.fault, 0);
	CHECK_EQ(qw.completed, seq);
	expect_u64(&a, bo.va, 42);

	/* a host signal releases a device-side wait too */
	cmd_event(&c, ASCEND_CMD_EVENT_WAIT, h, 5);
	seq = queue_submit(&b, &c);
	REQUIRE_OK(ev_signal(fd, h, 5));
	REQUIRE_OK(queue_wait(&b, seq, &qw));
	CHECK_EQ(qw.fault, 0);
	CHECK_EQ(qw.completed, seq);

	CHECK_EQ(queue_destroy(&a, 0), 0);
	CHECK_EQ(queue_destroy(&b, 0), 0);
	REQUIRE_OK(ev_destroy(fd, h));
	close(fd);
}

TEST(event_faults_timeout_unknown_destroyed_then_reset)
{
	struct drm_ascend_queue_reset r = { 0 };
	struct ascend_cmd c;
	struct queue q;
	uint32_t h;
	int fd = open_accel();

	REQUIRE_OK(ev_create(fd, 0, &h));
	REQUIRE_OK(queue_create(fd, 0, &q));

	CHECK_ERRNO(queue_reset(&q), EINVAL);		/* not faulted */
	r.handle = 999;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r), ENOENT);
	r.handle = q.handle;
	r.flags = 1U << 2;				/* unknown flag */
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r), EINVAL);
	r.flags = DRM_ASCEND_QUEUE_RESET_ABORT | DRM_ASCEND_QUEUE_RESET_STOP;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r), EINVAL);

	/* device-side wait with a limit */
	cmd_event(&c, ASCEND_CMD_EVENT_WAIT, h, 1);
	c.event.flags = ASCEND_CMD_EVENT_TIMEOUT;
	c.event.timeout_ms = 10;
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_TIMEOUT);
	CHECK_EQ(q.st->fault_opcode, ASCEND_CMD_EVENT_WAIT);
	REQUIRE_OK(queue_reset(&q));
	CHECK_EQ(q.st->fault, 0);
	CHECK_EQ(q.st->flags & ASCEND_QUEUE_STATUS_FAULTED, 0);
	CHECK_EQ(q.st->completed, q.st->wptr);
	expect_healthy(&q);

	/* unknown handle */
	cmd_event(&c, ASCEND_CMD_EVENT_RECORD, 999, 1);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));

	/* destroyed under a device-side wait */
	cmd_event(&c, ASCEND_CMD_EVENT_WAIT, h, 1);
	queue_submit(&q, &c);
	REQUIRE_OK(ev_destroy(fd, h));
	cmd_nop(&c);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	expect_healthy(&q);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

static int queue_reset_flags(struct queue *q, uint32_t flags)
{
	struct drm_ascend_queue_reset r = { .handle = q->handle, .flags = flags };

	return aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * QUEUE_RESET(STOP) drops the command the device runs or has parked and
 * keeps the ones behind it; QUEUE_RESET(ABORT) discards everything
 * published.  Neither needs a fault, and the queue works afterwards.
 */
TEST(queue_reset_stop_and_abort)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_queue_wait w;
	struct drm_ascend_bo_create bo;
	uint64_t usec = 20 * 1000 * 1000, seq, t0;
	struct ascend_cmd c;
	struct queue q;
	int fd = open_accel();

	query_info(fd, &info);
	REQUIRE(info.capabilities & DRM_ASCEND_CAP_QUEUE_ABORT);
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	REQUIRE_OK(queue_create(fd, 0, &q));

	/* an idle healthy queue: both are harmless */
	CHECK_EQ(0, queue_reset_flags(&q, DRM_ASCEND_QUEUE_RESET_STOP));
	CHECK_EQ(0, queue_reset_flags(&q, DRM_ASCEND_QUEUE_RESET_ABORT));
	expect_healthy(&q);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 8, 1, 0, 0);
	CHECK_EQ(run(&q, &c), 0);

	/* STOP: the parked wait goes, the write behind it runs */
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va, 42, ASCEND_WAIT_VALUE_EQ, 0);
	queue_submit(&q, &c);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 8, 5, 0, 0);
	seq = queue_submit(&q, &c);
	usleep(20000);
	CHECK_EQ(q.st->completed, seq - 2);		/* the wait holds the queue */
	CHECK_EQ(0, queue_reset_flags(&q, DRM_ASCEND_QUEUE_RESET_STOP));
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, 0);
	CHECK_EQ(w.completed, seq);
	expect_u64(&q, bo.va + 8, 5);

	/* ABORT: the parked wait and the write behind it are both discarded */
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va, 42, ASCEND_WAIT_VALUE_EQ, 0);
	queue_submit(&q, &c);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 8, 9, 0, 0);
	seq = queue_submit(&q, &c);
	usleep(20000);
	CHECK_EQ(0, queue_reset_flags(&q, DRM_ASCEND_QUEUE_RESET_ABORT));
	CHECK_EQ(q.st->completed, seq);
	CHECK_EQ(q.st->wptr, seq);
	CHECK_EQ(q.st->fault, 0);
	expect_u64(&q, bo.va + 8, 5);			/* the write never ran */

	/* a running 20 s kernel is stopped at once, by either */
	cmd_launch(&c, kernel_id(fd, "Spin", NULL), 1, &usec, sizeof(usec));
	queue_submit(&q, &c);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 8, 6, 0, 0);
	seq = queue_submit(&q, &c);
	usleep(20000);
	t0 = mono_ms();
	CHECK_EQ(0, queue_reset_flags(&q, DRM_ASCEND_QUEUE_RESET_STOP));
	CHECK(mono_ms() - t0 < 5000);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, 0);
	CHECK_EQ(w.completed, seq);
	expect_u64(&q, bo.va + 8, 6);			/* ran after the stop */
	cmd_launch(&c, kernel_id(fd, "Spin", NULL), 1, &usec, sizeof(usec));
	seq = queue_submit(&q, &c);
	usleep(20000);
	t0 = mono_ms();
	CHECK_EQ(0, queue_reset_flags(&q, DRM_ASCEND_QUEUE_RESET_ABORT));
	CHECK(mono_ms() - t0 < 5000);
	CHECK_EQ(q.st->completed, seq);
	expect_healthy(&q);

	/* a plain reset still wants a fault */
	CHECK_ERRNO(queue_reset(&q), EINVAL);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(values_write_wait_conditions_faults)
{
	struct drm_ascend_bo_create bo;
	struct ascend_cmd c;
	struct queue q;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	REQUIRE_OK(queue_create(fd, 0, &q));

	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 8, 0x6, 0, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 8, 5, ASCEND_WAIT_VALUE_GEQ, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 8, 6, ASCEND_WAIT_VALUE_EQ, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 8, 2, ASCEND_WAIT_VALUE_AND, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 8, 1, ASCEND_WAIT_VALUE_NOR, 0);
	CHECK_EQ(run(&q, &c), 0);

	/* not satisfied within its limit */
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 8, 7, ASCEND_WAIT_VALUE_GEQ, 10);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_TIMEOUT);
	REQUIRE_OK(queue_reset(&q));

	/* a second queue's write releases a waiting one */
	{
		struct drm_ascend_queue_wait w;
		struct queue q2;
		uint64_t seq;

		REQUIRE_OK(queue_create(fd, 0, &q2));
		cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 8, 9, ASCEND_WAIT_VALUE_EQ, 0);
		seq = queue_submit(&q, &c);
		cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 8, 9, 0, 0);
		CHECK_EQ(run(&q2, &c), 0);
		REQUIRE_OK(queue_wait(&q, seq, &w));
		CHECK_EQ(w.fault, 0);
		CHECK_EQ(w.completed, seq);
		CHECK_EQ(queue_destroy(&q2, 0), 0);
	}

	/* unmapped: MMU fault naming the address; misaligned: bad command */
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + bo.alloc_size, 1, 0, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_MMU);
	CHECK_EQ(q.st->fault_addr, bo.va + bo.alloc_size);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, 0x1000, 1, ASCEND_WAIT_VALUE_EQ, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_MMU);
	CHECK_EQ(q.st->fault_addr, 0x1000);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 4, 1, 0, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	expect_healthy(&q);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

/*
 * A notify's wait: EQ with RESET swaps the word for 0 when it matches; a
 * counting notify's atomic writes and unsigned conditions.
 */
TEST(wait_value_reset)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create bo;
	struct ascend_cmd c;
	struct queue q;
	int fd = open_accel();

	query_info(fd, &info);
	REQUIRE(info.capabilities & DRM_ASCEND_CAP_NOTIFY);
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	REQUIRE_OK(queue_create(fd, 0, &q));

	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 1, 0, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 1,
		  ASCEND_WAIT_VALUE_EQ | ASCEND_WAIT_VALUE_RESET, 0);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, bo.va + 16, 0);			/* consumed */
	/* without a match it waits, with its own limit */
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 1,
		  ASCEND_WAIT_VALUE_EQ | ASCEND_WAIT_VALUE_RESET, 50);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_TIMEOUT);
	CHECK_EQ(q.st->fault_addr, bo.va + 16);
	REQUIRE_OK(queue_reset(&q));
	/* GEQ with RESET: any value past the bound is taken */
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 9, 0, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 3,
		  ASCEND_WAIT_VALUE_GEQ | ASCEND_WAIT_VALUE_RESET, 0);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, bo.va + 16, 0);
	/* no other flag bit, no RESET on a write, no condition past NOR */
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 0,
		  ASCEND_WAIT_VALUE_EQ | (1U << 10), 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 0, ASCEND_WAIT_VALUE_RESET, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 0,
		  (ASCEND_WAIT_VALUE_ALL + 1) | ASCEND_WAIT_VALUE_RESET, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	/* the atomic writes and the unsigned conditions of counting notifies */
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 0xf0, ASCEND_WRITE_VALUE_STORE, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 0x0f, ASCEND_WRITE_VALUE_OR, 0);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, bo.va + 16, 0xff);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 0x3c, ASCEND_WRITE_VALUE_AND, 0);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, bo.va + 16, 0x3c);
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, ~0ULL, ASCEND_WRITE_VALUE_ADD, 0);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, bo.va + 16, 0x3b);		/* mod 2^64 */
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 0x3c, ASCEND_WAIT_VALUE_LT, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 0x3a, ASCEND_WAIT_VALUE_GT, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 0x33, ASCEND_WAIT_VALUE_ALL, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 0x3b, ASCEND_WAIT_VALUE_GT, 30);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_TIMEOUT);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 0x3f, ASCEND_WAIT_VALUE_ALL |
		  ASCEND_WAIT_VALUE_OWN_LIMIT, 30);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_TIMEOUT);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 1, ASCEND_WRITE_VALUE_AND + 1, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + 16, 1, ASCEND_WAIT_VALUE_ALL + 1, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + bo.alloc_size, 1, ASCEND_WRITE_VALUE_ADD, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_MMU);
	REQUIRE_OK(queue_reset(&q));
	/* unmapped: an MMU fault naming the address */
	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, bo.va + 16, 1, 0, 0);
	CHECK_EQ(run(&q, &c), 0);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, bo.va + bo.alloc_size, 1,
		  ASCEND_WAIT_VALUE_EQ | ASCEND_WAIT_VALUE_RESET, 0);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_MMU);
	CHECK_EQ(q.st->fault_addr, bo.va + bo.alloc_size);
	REQUIRE_OK(queue_reset(&q));
	expect_healthy(&q);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(ring_fill_and_copy)
{
	struct drm_ascend_bo_create a, b;
	struct ascend_cmd c;
	struct queue q;
	const uint64_t size = 256 * 1024;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, size, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(fd, size, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	REQUIRE_OK(queue_create(fd, 0, &q));

	cmd_fill(&c, a.va, size, 0x11223344, 4);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, a.va, 0x1122334411223344ULL);
	expect_u64(&q, a.va + size - 8, 0x1122334411223344ULL);
	cmd_fill(&c, a.va + 8, 8, 0xab, 1);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, a.va + 8, 0xababababababababULL);

	cmd_copy(&c, b.va, a.va, size);
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, b.va, 0x1122334411223344ULL);
	expect_u64(&q, b.va + 8, 0xababababababababULL);
	expect_u64(&q, b.va + size - 8, 0x1122334411223344ULL);

	/* one byte past the source: MMU fault at the source */
	cmd_copy(&c, b.va, a.va + 8, size);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_MMU);
	CHECK_EQ(q.st->fault_addr, a.va + 8);
	REQUIRE_OK(queue_reset(&q));
	/* overlap, bad pattern size: bad command */
	cmd_copy(&c, a.va + 8, a.va, 64);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	cmd_fill(&c, a.va, 64, 0, 3);
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_BAD_COMMAND);
	REQUIRE_OK(queue_reset(&q));
	expect_healthy(&q);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(parallel_blocks_addf32_copy_fill32)
{
	struct drm_ascend_bo_create x, y, z;
	struct {
		uint64_t a, b, c, n;
	} add;
	struct {
		uint64_t dst, src, bytes;
	} cp;
	struct ascend_cmd c;
	struct queue q;
	const uint64_t n = 10000;	/* floats */
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, n * 4, DRM_ASCEND_BO_NORMAL_ONLY, 0, &x));
	REQUIRE_OK(bo_create(fd, n * 4, DRM_ASCEND_BO_NORMAL_ONLY, 0, &y));
	REQUIRE_OK(bo_create(fd, n * 4, DRM_ASCEND_BO_NORMAL_ONLY, 0, &z));
	REQUIRE_OK(queue_create(fd, 0, &q));

	cmd_fill(&c, x.va, n * 4, 0x3f800000, 4);	/* 1.0f */
	queue_submit(&q, &c);
	cmd_fill(&c, y.va, n * 4, 0x40000000, 4);	/* 2.0f */
	queue_submit(&q, &c);
	add.a = x.va;
	add.b = y.va;
	add.c = z.va;
	add.n = n;
	cmd_launch(&c, kernel_id(fd, "AddF32", NULL), 37, &add, sizeof(add));
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, z.va, 0x4040000040400000ULL);		/* 3.0f */
	expect_u64(&q, z.va + n * 4 - 8, 0x4040000040400000ULL);
	expect_u64(&q, z.va + 4 * 5000, 0x4040000040400000ULL);

	/* Copy kernel: x = z, by 64 blocks */
	cp.dst = x.va;
	cp.src = z.va;
	cp.bytes = n * 4;
	cmd_launch(&c, kernel_id(fd, "Copy", NULL), 64, &cp, sizeof(cp));
	CHECK_EQ(run(&q, &c), 0);
	expect_u64(&q, x.va + n * 4 - 8, 0x4040000040400000ULL);
	expect_u64(&q, x.va + 1000, 0x4040000040400000ULL);

	/* a fault in one block of many faults the launch once */
	/* the last element one past the end of z's allocation */
	add.c = z.va + z.alloc_size - n * 4 + 4;
	cmd_launch(&c, kernel_id(fd, "AddF32", NULL), 16, &add, sizeof(add));
	CHECK_EQ(run(&q, &c), ASCEND_FAULT_MMU);
	REQUIRE_OK(queue_reset(&q));
	expect_healthy(&q);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(launch_timeout_aborts_and_reset_recovers)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	struct queue q, other;
	uint64_t usec = 30ULL * 1000 * 1000, seq;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	REQUIRE_OK(queue_create(fd, 0, &other));
	cmd_launch(&c, kernel_id(fd, "Spin", NULL), 4, &usec, sizeof(usec));
	c.launch.timeout_ms = 20;
	seq = queue_submit(&q, &c);
	cmd_nop(&c);
	queue_submit(&q, &c);				/* discarded by reset */
	/* the other queue is served while the spin runs */
	expect_healthy(&other);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_TIMEOUT);
	CHECK_EQ(q.st->fault_seq, seq);
	CHECK_EQ(q.st->fault_opcode, ASCEND_CMD_LAUNCH);
	REQUIRE_OK(queue_reset(&q));
	CHECK_EQ(q.st->rptr, seq + 1);
	CHECK_EQ(q.st->completed, seq + 1);
	expect_healthy(&q);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	CHECK_EQ(queue_destroy(&other, 0), 0);
	close(fd);
}

/* ---- memory cgroup accounting ------------------------------------------ */

#define CG_ROOT		"/tmp/ascend-cg"
#define CG_TEST		CG_ROOT "/events"
#define CG_EVENTS	32768
#define CG_EXPORTS	4096	/* per file: ASCEND_IPC_MAX_EXPORTS */

static int cg_write(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	close(fd);
	return ok ? 0 : -1;
}

static long long cg_current(void)
{
	FILE *f = fopen(CG_TEST "/memory.current", "r");
	long long v = -1;

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Child, in CG_TEST: events, then IPC exports; the charges via @out. */
static void cg_child(int out)
{
	char pid[32], key[DRM_ASCEND_IPC_KEY_LEN];
	long long d[2], c0, c1;
	uint32_t h = 0;
	int fd[2], i, j;

	snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (cg_write(CG_TEST "/cgroup.procs", pid))
		_exit(2);
	fd[0] = open_accel();
	fd[1] = open_accel();
	c0 = cg_current();
	for (i = 0; i < CG_EVENTS; i++)
		if (ev_create(fd[0], 0, &h))
			_exit(3);
	c1 = cg_current();
	d[0] = c1 - c0;
	for (j = 0; j < 2; j++) {
		if (ev_create(fd[j], 0, &h))
			_exit(4);
		for (i = 0; i < CG_EXPORTS; i++) {
			struct drm_ascend_ipc_export e = {
				.type = DRM_ASCEND_IPC_EVENT, .event = h,
			};

			if (aioctl(fd[j], DRM_IOCTL_ASCEND_IPC_EXPORT, &e))
				_exit(5);
			memcpy(key, e.key, sizeof(key));
		}
	}
	d[1] = cg_current() - c1;
	if (write(out, d, sizeof(d)) != sizeof(d))
		_exit(6);
	_exit(0);
}

/*
 * Events, their handle tables and IPC exports are charged to the memory
 * cgroup of the process that makes them (memory.current grows by at least
 * 64 bytes an event and 128 an export; uncharged, it would not move).
 */
TEST(events_and_exports_charged_to_memcg)
{
	long long d[2] = { 0, 0 };
	int p[2], st;
	pid_t pid;

	mkdir(CG_ROOT, 0755);
	if (mount("none", CG_ROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		SKIP("no cgroup2");
	if (cg_write(CG_ROOT "/cgroup.subtree_control", "+memory")) {
		umount(CG_ROOT);
		SKIP("no memory controller");
	}
	rmdir(CG_TEST);
	REQUIRE(mkdir(CG_TEST, 0755) == 0);
	REQUIRE(pipe(p) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (!pid) {
		close(p[0]);
		cg_child(p[1]);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], d, sizeof(d)), (ssize_t)sizeof(d));
	close(p[0]);
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	printf("#   memory.current: +%lld bytes for %d events, +%lld for %d exports\n",
	       d[0], CG_EVENTS, d[1], 2 * CG_EXPORTS);
	CHECK(d[0] >= 64LL * CG_EVENTS);
	CHECK(d[1] >= 128LL * 2 * CG_EXPORTS);
	CHECK_EQ(rmdir(CG_TEST), 0);
	umount(CG_ROOT);
	rmdir(CG_ROOT);
}

int main(void)
{
	return tap_main();
}
