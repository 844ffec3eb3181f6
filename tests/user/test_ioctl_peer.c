// SPDX-License-Identifier: MIT
/*
 * test_ioctl_peer - raw DRM_IOCTL_ASCEND_PEER between two devices: the
 * enable / disable / query state and its errors, one direction only,
 * links gone with either file, files of another process refused, copies
 * naming the other device's memory refused while access is off, and with
 * access on: sync COPY / FILL / COPY_2D / COPY_BATCH and ring COPY / FILL /
 * COPY_2D / COPY_BATCH / INDIRECT / OFFSET between the devices in both
 * directions, bytes verified.
 * Needs num_devices >= 2 (make check boots with 2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ioctl_util.h"

static int open_second(void)
{
	int fd = open("/dev/accel/accel1", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		SKIP("needs num_devices >= 2 (/dev/accel/accel1)");
	return fd;
}

static int peer(int fd, int peer_fd, uint32_t op, uint32_t *status)
{
	struct drm_ascend_peer p = { .peer_fd = peer_fd, .op = op };
	int ret = aioctl(fd, DRM_IOCTL_ASCEND_PEER, &p);

	if (status)
		*status = p.status;
	return ret;
}

TEST(errors)
{
	int a = open_accel(), b = open_second(), a2 = open_accel();
	int null = open("/dev/null", O_RDWR);
	struct drm_ascend_peer p = { .peer_fd = b };
	uint32_t st;

	REQUIRE(null >= 0);
	p.pad = 1;
	CHECK_ERRNO(aioctl(a, DRM_IOCTL_ASCEND_PEER, &p), EINVAL);
	CHECK_ERRNO(peer(a, b, 3, NULL), EINVAL);
	CHECK_ERRNO(peer(a, -1, DRM_ASCEND_PEER_QUERY, NULL), EBADF);
	CHECK_ERRNO(peer(a, 1000, DRM_ASCEND_PEER_QUERY, NULL), EBADF);
	CHECK_ERRNO(peer(a, null, DRM_ASCEND_PEER_ENABLE, NULL), EINVAL);
	CHECK_ERRNO(peer(a, a2, DRM_ASCEND_PEER_ENABLE, NULL), EINVAL);
	CHECK_ERRNO(peer(a, a, DRM_ASCEND_PEER_ENABLE, NULL), EINVAL);
	CHECK_EQ(peer(a, b, DRM_ASCEND_PEER_QUERY, &st), 0);
	CHECK_EQ(st, 0);
	CHECK_ERRNO(peer(a, b, DRM_ASCEND_PEER_DISABLE, NULL), ENOENT);
	close(null);
	close(a2);
	close(b);
	close(a);
}

TEST(state)
{
	int a = open_accel(), b = open_second();
	uint32_t st = 9;

	CHECK_EQ(peer(a, b, DRM_ASCEND_PEER_ENABLE, &st), 0);
	CHECK_EQ(st, 1);
	CHECK_ERRNO(peer(a, b, DRM_ASCEND_PEER_ENABLE, &st), EEXIST);
	CHECK_EQ(st, 1);
	CHECK_EQ(peer(a, b, DRM_ASCEND_PEER_QUERY, &st), 0);
	CHECK_EQ(st, 1);
	/* one direction */
	CHECK_EQ(peer(b, a, DRM_ASCEND_PEER_QUERY, &st), 0);
	CHECK_EQ(st, 0);
	CHECK_EQ(peer(b, a, DRM_ASCEND_PEER_ENABLE, &st), 0);
	CHECK_EQ(st, 1);
	CHECK_EQ(peer(a, b, DRM_ASCEND_PEER_DISABLE, &st), 0);
	CHECK_EQ(st, 0);
	CHECK_EQ(peer(a, b, DRM_ASCEND_PEER_QUERY, &st), 0);
	CHECK_EQ(st, 0);
	CHECK_EQ(peer(b, a, DRM_ASCEND_PEER_QUERY, &st), 0);
	CHECK_EQ(st, 1);
	CHECK_ERRNO(peer(a, b, DRM_ASCEND_PEER_DISABLE, NULL), ENOENT);
	close(b);
	close(a);
}

/* Closing the peer removes the link: nothing keeps the file alive. */
TEST(close_removes_link)
{
	int a = open_accel(), b = open_second(), b2;
	uint32_t st;

	CHECK_EQ(peer(a, b, DRM_ASCEND_PEER_ENABLE, &st), 0);
	CHECK_EQ(peer(b, a, DRM_ASCEND_PEER_ENABLE, &st), 0);
	close(b);
	b2 = open_second();
	CHECK_EQ(peer(a, b2, DRM_ASCEND_PEER_QUERY, &st), 0);
	CHECK_EQ(st, 0);
	CHECK_EQ(peer(a, b2, DRM_ASCEND_PEER_ENABLE, &st), 0);
	close(a);	/* the enabling side goes first this time */
	close(b2);
}

/* Files opened by another process (inherited here) are refused. */
TEST(other_process)
{
	int a = open_accel(), b = open_second();
	pid_t pid = fork();
	int status;

	REQUIRE(pid >= 0);
	if (pid == 0) {
		int mine = open_accel();
		uint32_t st;

		if (peer(a, b, DRM_ASCEND_PEER_ENABLE, &st) != -EPERM)
			_exit(2);
		if (peer(a, b, DRM_ASCEND_PEER_QUERY, &st) != -EPERM)
			_exit(3);
		/* our own file naming the parent's */
		if (peer(mine, b, DRM_ASCEND_PEER_ENABLE, &st) != -EPERM)
			_exit(4);
		_exit(0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(b);
	close(a);
}

/* Without peer access a copy on A naming B's memory faults. */
TEST(copy_without_peer_access)
{
	int a = open_accel(), b = open_second();
	struct drm_ascend_bo_create ba, bb;
	uint8_t buf[256];

	setup_window(a);
	setup_window(b);
	REQUIRE_OK(bo_create(a, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &ba));
	REQUIRE_OK(bo_create(b, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &bb));
	memset(buf, 0x5a, sizeof(buf));
	REQUIRE_OK(dev_copy(b, bb.va, (uintptr_t)buf, sizeof(buf)));
	CHECK_ERRNO(dev_copy(a, ba.va, bb.va, sizeof(buf)), EFAULT);
	CHECK_ERRNO(dev_copy(a, bb.va, ba.va, sizeof(buf)), EFAULT);
	gem_close(b, bb.handle);
	gem_close(a, ba.handle);
	close(b);
	close(a);
}

/* ---- copies between the devices ---------------------------------------- */

#define PSIZE	(96 * 1024)

/* Two files, a on device 0 and b on device 1, a buffer on each. */
struct pair {
	int a, b;
	struct drm_ascend_bo_create ba, bb;
};

/* Fill [va, va + len) of @fd with bytes i * mul + add. */
static void pattern(int fd, uint64_t va, size_t len, unsigned int mul,
		    unsigned int add)
{
	uint8_t *h = malloc(len);
	size_t i;

	REQUIRE(h);
	for (i = 0; i < len; i++)
		h[i] = (uint8_t)(i * mul + add);
	REQUIRE_OK(dev_copy(fd, va, (uintptr_t)h, len));
	free(h);
}

/* Does [va, va + len) of @fd hold the bytes of pattern(mul, add)? */
static int holds(int fd, uint64_t va, size_t len, unsigned int mul,
		 unsigned int add)
{
	uint8_t *h = malloc(len);
	size_t i;
	int ok = 1;

	REQUIRE(h);
	REQUIRE_OK(dev_copy(fd, (uintptr_t)h, va, len));
	for (i = 0; i < len && ok; i++)
		if (h[i] != (uint8_t)(i * mul + add))
			ok = 0;
	free(h);
	return ok;
}

static int holds_byte(int fd, uint64_t va, size_t len, uint8_t byte)
{
	uint8_t *h = malloc(len);
	size_t i;
	int ok = 1;

	REQUIRE(h);
	REQUIRE_OK(dev_copy(fd, (uintptr_t)h, va, len));
	for (i = 0; i < len; i++)
		if (h[i] != byte)
			ok = 0;
	free(h);
	return ok;
}

static void pair_open(struct pair *p)
{
	struct drm_ascend_device_info info;

	p->a = open_accel();
	p->b = open_second();
	query_info(p->a, &info);
	if (!(info.capabilities & DRM_ASCEND_CAP_PEER))
		SKIP("the driver has no DRM_ASCEND_CAP_PEER");
	setup_window(p->a);
	setup_window(p->b);
	REQUIRE_OK(bo_create(p->a, PSIZE, DRM_ASCEND_BO_HUGE_FIRST, 0, &p->ba));
	REQUIRE_OK(bo_create(p->b, PSIZE, DRM_ASCEND_BO_HUGE_FIRST, 0, &p->bb));
	pattern(p->a, p->ba.va, PSIZE, 3, 1);
	pattern(p->b, p->bb.va, PSIZE, 5, 2);
}

static void pair_close(struct pair *p)
{
	gem_close(p->b, p->bb.handle);
	gem_close(p->a, p->ba.handle);
	close(p->b);
	close(p->a);
}

/*
 * COPY on a naming b's memory, both directions, odd offsets and sizes
 * across pages; host memory to and from the peer through a; refused again
 * once disabled, and never the other way round.
 */
TEST(copy_sync_between_devices)
{
	const size_t n = 40001;
	struct pair p;
	uint8_t *h;
	uint32_t st;
	size_t i;

	pair_open(&p);
	CHECK_ERRNO(dev_copy(p.a, p.ba.va + 3, p.bb.va + 7, n), EFAULT);
	REQUIRE_OK(peer(p.a, p.b, DRM_ASCEND_PEER_ENABLE, &st));

	/* read the peer: b[7..] -> a[3..] */
	CHECK_EQ(dev_copy(p.a, p.ba.va + 3, p.bb.va + 7, n), 0);
	CHECK(holds(p.a, p.ba.va + 3, n, 5, 7 * 5 + 2));
	CHECK(holds(p.a, p.ba.va + 3 + n, 1000, 3, (3 + n) * 3 + 1));
	/* write the peer: a[0..] -> b[4096 + 1..] */
	pattern(p.a, p.ba.va, PSIZE, 11, 9);
	CHECK_EQ(dev_copy(p.a, p.bb.va + 4097, p.ba.va, n), 0);
	CHECK(holds(p.b, p.bb.va + 4097, n, 11, 9));
	CHECK(holds(p.b, p.bb.va, 4097, 5, 2));
	/* host <-> peer memory through a */
	h = malloc(n);
	REQUIRE(h);
	for (i = 0; i < n; i++)
		h[i] = (uint8_t)(i * 13 + 4);
	CHECK_EQ(dev_copy(p.a, p.bb.va + 50000, (uintptr_t)h, n), 0);
	CHECK(holds(p.b, p.bb.va + 50000, n, 13, 4));
	memset(h, 0, n);
	CHECK_EQ(dev_copy(p.a, (uintptr_t)h, p.bb.va + 50000, n), 0);
	for (i = 0; i < n && h[i] == (uint8_t)(i * 13 + 4); i++)
		;
	CHECK_EQ(i, n);
	free(h);
	/* one direction: b does not reach a */
	CHECK_ERRNO(dev_copy(p.b, p.bb.va, p.ba.va, 100), EFAULT);
	CHECK_ERRNO(dev_copy(p.b, p.ba.va, p.bb.va, 100), EFAULT);
	/* disabled: refused again */
	REQUIRE_OK(peer(p.a, p.b, DRM_ASCEND_PEER_DISABLE, &st));
	CHECK_ERRNO(dev_copy(p.a, p.ba.va, p.bb.va, 100), EFAULT);
	CHECK_ERRNO(dev_copy(p.a, p.bb.va, p.ba.va, 100), EFAULT);
	CHECK(holds(p.b, p.bb.va + 4097, n, 11, 9));
	/* the other direction, enabled from b */
	REQUIRE_OK(peer(p.b, p.a, DRM_ASCEND_PEER_ENABLE, &st));
	pattern(p.b, p.bb.va, PSIZE, 17, 6);
	CHECK_EQ(dev_copy(p.b, p.ba.va + 1, p.bb.va, 5000), 0);
	CHECK(holds(p.a, p.ba.va + 1, 5000, 17, 6));
	pair_close(&p);
}

/* FILL, COPY_2D and COPY_BATCH naming the peer's memory. */
TEST(fill_2d_batch_between_devices)
{
	struct drm_ascend_fill f = { .size = 3000, .pattern = 0x7e,
				     .pattern_size = 1 };
	struct drm_ascend_copy_2d c2 = { .dpitch = 1000, .spitch = 4096,
					 .width = 333, .height = 9 };
	struct drm_ascend_copy_entry e[3];
	struct drm_ascend_copy_batch b = { .count = 3,
					   .entry_size = sizeof(e[0]) };
	struct pair p;
	uint8_t *h;
	uint32_t st, r;
	int ok = 1;

	pair_open(&p);
	f.dst = p.bb.va + 5;
	CHECK_ERRNO(aioctl(p.a, DRM_IOCTL_ASCEND_FILL, &f), EFAULT);
	REQUIRE_OK(peer(p.a, p.b, DRM_ASCEND_PEER_ENABLE, &st));
	CHECK_EQ(aioctl(p.a, DRM_IOCTL_ASCEND_FILL, &f), 0);
	CHECK(holds_byte(p.b, p.bb.va + 5, 3000, 0x7e));
	CHECK(holds(p.b, p.bb.va + 3005, 100, 5, 3005 * 5 + 2));

	/* 2D: peer rows (pitch 4096) -> local rows (pitch 1000) */
	pattern(p.b, p.bb.va, PSIZE, 5, 2);
	c2.dst = p.ba.va + 1;
	c2.src = p.bb.va + 10;
	CHECK_EQ(aioctl(p.a, DRM_IOCTL_ASCEND_COPY_2D, &c2), 0);
	h = malloc(9000);
	REQUIRE(h);
	REQUIRE_OK(dev_copy(p.a, (uintptr_t)h, p.ba.va + 1, 9000));
	for (r = 0; r < 9; r++)
		for (st = 0; st < 333; st++)
			if (h[r * 1000 + st] !=
			    (uint8_t)((10 + r * 4096 + st) * 5 + 2))
				ok = 0;
	CHECK(ok);
	free(h);
	/* and local -> peer rows */
	c2.dst = p.bb.va + 20000;
	c2.dpitch = 4096;
	c2.src = p.ba.va + 1;
	c2.spitch = 1000;
	CHECK_EQ(aioctl(p.a, DRM_IOCTL_ASCEND_COPY_2D, &c2), 0);
	h = malloc(333);
	REQUIRE(h);
	REQUIRE_OK(dev_copy(p.b, (uintptr_t)h, p.bb.va + 20000 + 8 * 4096, 333));
	for (st = 0; st < 333; st++)
		if (h[st] != (uint8_t)((10 + 8 * 4096 + st) * 5 + 2))
			ok = 0;
	CHECK(ok);
	free(h);

	/* batch: peer -> local, local -> peer, peer -> peer */
	pattern(p.a, p.ba.va, PSIZE, 3, 1);
	pattern(p.b, p.bb.va, PSIZE, 5, 2);
	e[0] = (struct drm_ascend_copy_entry){ p.ba.va + 100, p.bb.va, 5000 };
	e[1] = (struct drm_ascend_copy_entry){ p.bb.va + 60000, p.ba.va + 8000,
					       7000 };
	e[2] = (struct drm_ascend_copy_entry){ p.bb.va + 80000, p.bb.va + 9,
					       999 };
	b.entries = (uintptr_t)e;
	CHECK_EQ(aioctl(p.a, DRM_IOCTL_ASCEND_COPY_BATCH, &b), 0);
	CHECK(holds(p.a, p.ba.va + 100, 5000, 5, 2));
	CHECK(holds(p.b, p.bb.va + 60000, 7000, 3, 8000 * 3 + 1));
	CHECK(holds(p.b, p.bb.va + 80000, 999, 5, 9 * 5 + 2));
	/* without the link: the first entry naming the peer fails */
	REQUIRE_OK(peer(p.a, p.b, DRM_ASCEND_PEER_DISABLE, &st));
	CHECK_ERRNO(aioctl(p.a, DRM_IOCTL_ASCEND_COPY_BATCH, &b), EFAULT);
	CHECK_EQ(b.fail_index, 0u);
	CHECK_ERRNO(aioctl(p.a, DRM_IOCTL_ASCEND_COPY_2D, &c2), EFAULT);
	pair_close(&p);
}

/* Run @c on a fresh queue of @fd: its fault code (0 = completed). */
static uint32_t ring_run(int fd, const struct ascend_cmd *c, uint64_t *addr)
{
	struct drm_ascend_queue_wait w;
	struct queue q;
	uint64_t seq;

	REQUIRE_OK(queue_create(fd, 0, &q));
	seq = queue_submit(&q, c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	if (addr)
		*addr = q.st->fault_addr;
	REQUIRE(w.fault || w.completed == seq);
	queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE);
	return w.fault;
}

/* Ring COPY / FILL / COPY_2D / COPY_BATCH / INDIRECT / OFFSET via the peer. */
TEST(ring_commands_between_devices)
{
	struct drm_ascend_copy_entry e[2];
	struct ascend_memcpy_desc md = { .magic = ASCEND_MEMCPY_DESC_MAGIC,
					 .version = 1 };
	struct ascend_cmd c;
	struct pair p;
	uint64_t fa = 0, v[2];
	uint32_t st;

	pair_open(&p);
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY;
	c.copy = (struct ascend_cmd_copy){ p.ba.va + 1, p.bb.va + 2, 20000 };
	CHECK_EQ(ring_run(p.a, &c, &fa), (uint32_t)ASCEND_FAULT_MMU);
	REQUIRE_OK(peer(p.a, p.b, DRM_ASCEND_PEER_ENABLE, &st));
	CHECK_EQ(ring_run(p.a, &c, NULL), 0u);
	CHECK(holds(p.a, p.ba.va + 1, 20000, 5, 2 * 5 + 2));
	c.copy = (struct ascend_cmd_copy){ p.bb.va + 30000, p.ba.va + 1, 20000 };
	CHECK_EQ(ring_run(p.a, &c, NULL), 0u);
	CHECK(holds(p.b, p.bb.va + 30000, 20000, 5, 2 * 5 + 2));

	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_FILL;
	c.fill = (struct ascend_cmd_fill){ .dst = p.bb.va + 3, .size = 4000,
					   .pattern = 0xc3, .pattern_size = 1 };
	CHECK_EQ(ring_run(p.a, &c, NULL), 0u);
	CHECK(holds_byte(p.b, p.bb.va + 3, 4000, 0xc3));

	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_2D;
	c.copy_2d = (struct ascend_cmd_copy_2d){ p.bb.va + 70000, p.ba.va,
						 512, 1024, 100, 7 };
	pattern(p.a, p.ba.va, PSIZE, 3, 1);
	CHECK_EQ(ring_run(p.a, &c, NULL), 0u);
	CHECK(holds(p.b, p.bb.va + 70000 + 6 * 512, 100, 3, 6 * 1024 * 3 + 1));

	/* batch entries kept in the peer's memory, naming both devices */
	pattern(p.b, p.bb.va, PSIZE, 5, 2);
	e[0] = (struct drm_ascend_copy_entry){ p.ba.va + 40000, p.bb.va + 1,
					       3000 };
	e[1] = (struct drm_ascend_copy_entry){ p.bb.va + 50000, p.ba.va + 2,
					       3000 };
	REQUIRE_OK(dev_copy(p.b, p.bb.va + 90000, (uintptr_t)e, sizeof(e)));
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_BATCH;
	c.copy_batch.entries = p.bb.va + 90000;
	c.copy_batch.count = 2;
	CHECK_EQ(ring_run(p.a, &c, NULL), 0u);
	CHECK(holds(p.a, p.ba.va + 40000, 3000, 5, 1 * 5 + 2));
	CHECK(holds(p.b, p.bb.va + 50000, 3000, 3, 2 * 3 + 1));

	/* indirect: descriptor in the peer's memory, peer -> local */
	md.dst = p.ba.va + 60000;
	md.src = p.bb.va + 4;
	md.size = 777;
	REQUIRE_OK(dev_copy(p.b, p.bb.va + 94208, (uintptr_t)&md, sizeof(md)));
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_INDIRECT;
	c.copy_indirect.desc = p.bb.va + 94208;
	CHECK_EQ(ring_run(p.a, &c, NULL), 0u);
	CHECK(holds(p.a, p.ba.va + 60000, 777, 5, 4 * 5 + 2));

	/* offset: base pointers in local slots, destination on the peer */
	v[0] = p.bb.va;
	v[1] = p.ba.va;
	REQUIRE_OK(dev_copy(p.a, p.ba.va + 90000, (uintptr_t)v, sizeof(v)));
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY_OFFSET;
	c.copy_offset = (struct ascend_cmd_copy_offset){ p.ba.va + 90000,
							 p.ba.va + 90008,
							 10, 20, 1500 };
	CHECK_EQ(ring_run(p.a, &c, NULL), 0u);
	CHECK(holds(p.b, p.bb.va + 10, 1500, 3, 20 * 3 + 1));

	/* link gone: the queue faults at the peer's address */
	REQUIRE_OK(peer(p.a, p.b, DRM_ASCEND_PEER_DISABLE, &st));
	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_COPY;
	c.copy = (struct ascend_cmd_copy){ p.ba.va, p.bb.va, 100 };
	fa = 0;
	CHECK_EQ(ring_run(p.a, &c, &fa), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, p.bb.va);
	pair_close(&p);
}

/* Closing the peer file: its memory is gone for the copies too. */
TEST(copy_after_peer_closed)
{
	struct pair p;
	uint32_t st;

	pair_open(&p);
	REQUIRE_OK(peer(p.a, p.b, DRM_ASCEND_PEER_ENABLE, &st));
	CHECK_EQ(dev_copy(p.a, p.ba.va, p.bb.va, 4096), 0);
	gem_close(p.b, p.bb.handle);
	/* unmapped on the peer: a fault, not a crash */
	CHECK_ERRNO(dev_copy(p.a, p.ba.va, p.bb.va, 4096), EFAULT);
	close(p.b);
	CHECK_ERRNO(dev_copy(p.a, p.ba.va, p.bb.va, 4096), EFAULT);
	CHECK(holds(p.a, p.ba.va, 4096, 5, 2));
	gem_close(p.a, p.ba.handle);
	close(p.a);
}

int main(void)
{
	return tap_main();
}
