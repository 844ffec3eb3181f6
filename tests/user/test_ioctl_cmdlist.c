// SPDX-License-Identifier: MIT
/*
 * Command lists at the raw uAPI level (DRM_ASCEND_CAP_CMD_LIST): a CALL
 * runs a list from device memory byte for byte and completes with its last
 * command, calls of the same list repeat its effects, a SWITCH picks its
 * branch from a value in device memory on every call (a selector past the
 * table picks the last label), and hostile lists (nested CALL, SWITCH or
 * JUMP on the ring, targets past the list, a table entry past the list,
 * unmapped lists, selectors and tables, an endless loop) fault only their
 * own queue with the documented code and address while another queue of
 * the same file goes on; a list freed while a CALL runs it.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioctl_util.h"

#define BO_SIZE (1UL << 20)
#define UNMAPPED(d) ((d).win + (900UL << 20))

struct dev {
	int fd;
	uint64_t win;
	struct drm_ascend_bo_create list, data;
};

static void dev_open(struct dev *d)
{
	struct drm_ascend_device_info info;

	d->fd = open_accel();
	query_info(d->fd, &info);
	if (!(info.capabilities & DRM_ASCEND_CAP_CMD_LIST))
		SKIP("the driver has no DRM_ASCEND_CAP_CMD_LIST");
	d->win = setup_window(d->fd);
	REQUIRE_OK(bo_create(d->fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &d->list));
	REQUIRE_OK(bo_create(d->fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &d->data));
}

static void put(struct dev *d, uint64_t va, const void *h, size_t n)
{
	REQUIRE_OK(dev_copy(d->fd, va, (uintptr_t)h, n));
}

static void get(struct dev *d, void *h, uint64_t va, size_t n)
{
	REQUIRE_OK(dev_copy(d->fd, (uintptr_t)h, va, n));
}

static uint64_t get64(struct dev *d, uint64_t va)
{
	uint64_t v;

	get(d, &v, va, sizeof(v));
	return v;
}

static void cmd_call(struct ascend_cmd *c, uint64_t list, uint32_t count)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_CALL;
	c->call.list = list;
	c->call.count = count;
}

static void cmd_write(struct ascend_cmd *c, uint64_t addr, uint64_t value, uint32_t op)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_WRITE_VALUE;
	c->value.addr = addr;
	c->value.value = value;
	c->value.cond = op;
}

static void cmd_jump(struct ascend_cmd *c, uint32_t target)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_JUMP;
	c->jump.target = target;
}

static void cmd_switch(struct ascend_cmd *c, uint64_t value, uint32_t size, uint64_t table,
		       uint32_t count)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_SWITCH;
	c->label_switch.value = value;
	c->label_switch.value_size = size;
	c->label_switch.table = table;
	c->label_switch.count = count;
}

/* Submit @c (a CALL) then a NOP on @q: the fault code (0: both completed). */
static uint32_t run_on(struct queue *q, const struct ascend_cmd *c, uint64_t *addr,
		       uint32_t *opcode, uint64_t *fseq)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd nop;
	uint64_t seq;

	cmd_nop(&nop);
	queue_submit(q, c);
	seq = queue_submit(q, &nop);
	REQUIRE_OK(queue_wait(q, seq, &w));
	if (addr)
		*addr = q->st->fault_addr;
	if (opcode)
		*opcode = q->st->fault_opcode;
	if (fseq)
		*fseq = q->st->fault_seq;
	REQUIRE(w.fault || w.completed == seq);
	return w.fault;
}

/* One CALL (and a NOP) on a fresh queue. */
static uint32_t run_cmd(int fd, const struct ascend_cmd *c, uint64_t *addr, uint32_t *opcode)
{
	struct queue q;
	uint32_t f;

	REQUIRE_OK(queue_create(fd, 0, &q));
	f = run_on(&q, c, addr, opcode, NULL);
	queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE);
	return f;
}

TEST(cap_and_layout)
{
	struct dev d;

	dev_open(&d);
	CHECK_EQ(sizeof(struct ascend_cmd_call), 16);
	CHECK_EQ(sizeof(struct ascend_cmd_switch), 24);
	CHECK_EQ(sizeof(struct ascend_cmd_jump), 8);
	CHECK_EQ(offsetof(struct ascend_cmd, call), 16);
	CHECK_EQ(sizeof(struct ascend_cmd), ASCEND_CMD_SIZE);
	close(d.fd);
}

/* FILL, COPY, WRITE_VALUE from a list; the CALL completes after them. */
TEST(call_runs_list)
{
	struct ascend_cmd l[3], c;
	uint8_t buf[256], want[256];
	struct dev d;
	uint64_t a, b, w;

	dev_open(&d);
	a = d.data.va;
	b = d.data.va + 4096;
	w = d.data.va + 8192;
	memset(buf, 0, sizeof(buf));
	put(&d, a, buf, sizeof(buf));
	put(&d, b, buf, sizeof(buf));
	memset(&l[0], 0, sizeof(l[0]));
	l[0].opcode = ASCEND_CMD_FILL;
	l[0].fill.dst = a;
	l[0].fill.size = sizeof(buf);
	l[0].fill.pattern = 0x5a;
	l[0].fill.pattern_size = 1;
	memset(&l[1], 0, sizeof(l[1]));
	l[1].opcode = ASCEND_CMD_COPY;
	l[1].copy.dst = b;
	l[1].copy.src = a;
	l[1].copy.size = 128;
	cmd_write(&l[2], w, 0x1122334455667788ULL, ASCEND_WRITE_VALUE_STORE);
	put(&d, d.list.va, l, sizeof(l));

	cmd_call(&c, d.list.va, 3);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	memset(want, 0x5a, 128);
	memset(want + 128, 0, 128);
	get(&d, buf, b, sizeof(buf));
	CHECK(memcmp(buf, want, sizeof(buf)) == 0);
	CHECK_EQ(get64(&d, w), 0x1122334455667788ULL);
	close(d.fd);
}

/* 200 CALLs of one list: its effect 200 times, the last seq completes. */
TEST(calls_repeat)
{
	enum { N = 200 };
	struct drm_ascend_queue_wait wt;
	struct ascend_cmd l[2], c;
	struct queue q;
	struct dev d;
	uint64_t w, zero = 0, seq = 0;
	int i;

	dev_open(&d);
	w = d.data.va;
	put(&d, w, &zero, sizeof(zero));
	cmd_write(&l[0], w, 1, ASCEND_WRITE_VALUE_ADD);
	cmd_write(&l[1], w, 2, ASCEND_WRITE_VALUE_ADD);
	put(&d, d.list.va, l, sizeof(l));
	REQUIRE_OK(queue_create(d.fd, 0, &q));
	cmd_call(&c, d.list.va, 2);
	for (i = 0; i < N; i++) {
		/* the ring has its own size: wait before it could wrap */
		if (i && i % 32 == 0)
			REQUIRE_OK(queue_wait(&q, seq, &wt));
		seq = queue_submit(&q, &c);
	}
	REQUIRE_OK(queue_wait(&q, seq, &wt));
	CHECK_EQ(wt.fault, 0u);
	CHECK_EQ(wt.completed, seq);
	CHECK_EQ(get64(&d, w), 3ULL * N);
	queue_destroy(&q, 0);
	close(d.fd);
}

/*
 * 0: SWITCH sel -> {1, 3}; 1: x = 1; 2: JUMP 4; 3: x = 2; 4: y += 1.
 * Each selector picks its branch; a selector past the table the last one.
 */
TEST(switch_picks_branch)
{
	static const struct { uint64_t sel; uint32_t size; uint64_t x; } cases[] = {
		{ 0, 4, 1 }, { 1, 4, 2 }, { 0, 8, 1 }, { 1, 8, 2 }, { 7, 4, 2 },
		{ 1ULL << 32, 8, 2 }, { 1ULL << 32, 4, 1 },
	};
	struct ascend_cmd l[5], c;
	uint32_t table[2] = { 1, 3 };
	uint64_t x, y, sel, tab, zero = 0;
	struct queue q;
	struct dev d;
	unsigned int i;

	dev_open(&d);
	x = d.data.va;
	y = d.data.va + 8;
	sel = d.data.va + 64;
	tab = d.data.va + 128;
	put(&d, y, &zero, sizeof(zero));
	put(&d, tab, table, sizeof(table));
	REQUIRE_OK(queue_create(d.fd, 0, &q));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cmd_switch(&l[0], sel, cases[i].size, tab, 2);
		cmd_write(&l[1], x, 1, ASCEND_WRITE_VALUE_STORE);
		cmd_jump(&l[2], 4);
		cmd_write(&l[3], x, 2, ASCEND_WRITE_VALUE_STORE);
		cmd_write(&l[4], y, 1, ASCEND_WRITE_VALUE_ADD);
		put(&d, d.list.va, l, sizeof(l));
		put(&d, x, &zero, sizeof(zero));
		put(&d, sel, &cases[i].sel, sizeof(cases[i].sel));
		cmd_call(&c, d.list.va, 5);
		CHECK_EQ(run_on(&q, &c, NULL, NULL, NULL), 0u);
		CHECK_EQ(get64(&d, x), cases[i].x);
		CHECK_EQ(get64(&d, y), (uint64_t)i + 1);
	}
	queue_destroy(&q, 0);
	close(d.fd);
}

/* A table entry equal to the list's count ends the CALL there. */
TEST(switch_to_end)
{
	struct ascend_cmd l[2], c;
	uint32_t table[1] = { 2 };
	uint64_t x, sel, tab, zero = 0;
	struct dev d;

	dev_open(&d);
	x = d.data.va;
	sel = d.data.va + 64;
	tab = d.data.va + 128;
	put(&d, x, &zero, sizeof(zero));
	put(&d, sel, &zero, sizeof(zero));
	put(&d, tab, table, sizeof(table));
	cmd_switch(&l[0], sel, 8, tab, 1);
	cmd_write(&l[1], x, 9, ASCEND_WRITE_VALUE_STORE);
	put(&d, d.list.va, l, sizeof(l));
	cmd_call(&c, d.list.va, 2);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), 0u);
	CHECK_EQ(get64(&d, x), 0ULL);
	close(d.fd);
}

/* Bad CALL payloads, and list-only commands on the ring. */
TEST(bad_call_fields)
{
	struct ascend_cmd c;
	uint32_t op;
	struct dev d;

	dev_open(&d);
	cmd_call(&c, d.list.va, 0);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	cmd_call(&c, d.list.va, ASCEND_CALL_MAX_CMDS + 1);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	cmd_call(&c, d.list.va + 4, 1);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	cmd_call(&c, d.list.va, 1);
	c.call.pad = 1;
	CHECK_EQ(run_cmd(d.fd, &c, NULL, NULL), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	cmd_jump(&c, 0);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, &op), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_JUMP);
	cmd_switch(&c, d.data.va, 8, d.data.va + 64, 1);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, &op), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_SWITCH);
	close(d.fd);
}

/*
 * Hostile lists fault their queue with the right code, opcode and address
 * (the CALL's seq), after the commands before the bad one ran.
 */
TEST(hostile_lists)
{
	struct ascend_cmd l[3], c;
	uint32_t table[1] = { 4 };
	uint64_t x, sel, tab, fa, fseq, zero = 0;
	uint32_t op;
	struct queue q;
	struct dev d;

	dev_open(&d);
	x = d.data.va;
	sel = d.data.va + 64;
	tab = d.data.va + 128;
	put(&d, sel, &zero, sizeof(zero));
	put(&d, tab, table, sizeof(table));

	/* nested CALL */
	put(&d, x, &zero, sizeof(zero));
	cmd_write(&l[0], x, 5, ASCEND_WRITE_VALUE_STORE);
	cmd_call(&l[1], d.list.va, 1);
	put(&d, d.list.va, l, 2 * sizeof(l[0]));
	cmd_call(&c, d.list.va, 2);
	REQUIRE_OK(queue_create(d.fd, 0, &q));
	CHECK_EQ(run_on(&q, &c, NULL, &op, &fseq), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_CALL);
	CHECK_EQ(fseq, 1ULL);				/* the CALL's seq */
	CHECK_EQ(get64(&d, x), 5ULL);			/* l[0] ran */
	queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE);

	/* JUMP past the list's end */
	cmd_jump(&l[0], 2);
	put(&d, d.list.va, l, sizeof(l[0]));
	cmd_call(&c, d.list.va, 1);
	CHECK_EQ(run_cmd(d.fd, &c, NULL, &op), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_JUMP);

	/* a table entry past the list: fault_addr is the entry */
	cmd_switch(&l[0], sel, 8, tab, 1);
	put(&d, d.list.va, l, sizeof(l[0]));
	cmd_call(&c, d.list.va, 3);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, &op), (uint32_t)ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_SWITCH);
	CHECK_EQ(fa, tab);

	/* unmapped selector, unmapped table */
	cmd_switch(&l[0], UNMAPPED(d), 8, tab, 1);
	put(&d, d.list.va, l, sizeof(l[0]));
	cmd_call(&c, d.list.va, 1);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d));
	cmd_switch(&l[0], sel, 8, UNMAPPED(d), 1);
	put(&d, d.list.va, l, sizeof(l[0]));
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d));

	/* an unmapped list */
	cmd_call(&c, UNMAPPED(d), 4);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, &op), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, UNMAPPED(d));
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_CALL);

	/* a list running off the end of its buffer: the first entry past it */
	put(&d, x, &zero, sizeof(zero));
	cmd_write(&l[0], x, 6, ASCEND_WRITE_VALUE_STORE);
	put(&d, d.list.va + BO_SIZE - sizeof(l[0]), l, sizeof(l[0]));
	cmd_call(&c, d.list.va + BO_SIZE - sizeof(l[0]), 2);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(fa, d.list.va + BO_SIZE);
	CHECK_EQ(get64(&d, x), 6ULL);

	/* an endless loop runs out of steps */
	cmd_jump(&l[0], 0);
	put(&d, d.list.va, l, sizeof(l[0]));
	cmd_call(&c, d.list.va, 1);
	CHECK_EQ(run_cmd(d.fd, &c, &fa, &op), (uint32_t)ASCEND_FAULT_TIMEOUT);
	CHECK_EQ(op, (uint32_t)ASCEND_CMD_CALL);
	CHECK_EQ(fa, d.list.va);
	close(d.fd);
}

/* A faulting list faults its queue only: another queue's CALL completes. */
TEST(fault_is_per_queue)
{
	struct ascend_cmd bad, good, l;
	struct queue q1, q2;
	struct dev d;
	uint64_t x, zero = 0;

	dev_open(&d);
	x = d.data.va;
	put(&d, x, &zero, sizeof(zero));
	cmd_write(&l, x, 77, ASCEND_WRITE_VALUE_STORE);
	put(&d, d.list.va, &l, sizeof(l));
	REQUIRE_OK(queue_create(d.fd, 0, &q1));
	REQUIRE_OK(queue_create(d.fd, 0, &q2));
	cmd_call(&bad, UNMAPPED(d), 1);
	cmd_call(&good, d.list.va, 1);
	CHECK_EQ(run_on(&q1, &bad, NULL, NULL, NULL), (uint32_t)ASCEND_FAULT_MMU);
	CHECK_EQ(run_on(&q2, &good, NULL, NULL, NULL), 0u);
	CHECK_EQ(get64(&d, x), 77ULL);
	queue_destroy(&q1, DRM_ASCEND_QUEUE_DESTROY_FORCE);
	queue_destroy(&q2, 0);
	close(d.fd);
}

/*
 * A list freed (GEM_CLOSE) while a CALL runs it: the queue completes it
 * or faults on the unmapped list, nothing else happens, and the file and
 * another queue go on (a replay racing a destroy).
 */
TEST(list_freed_while_called)
{
	struct drm_ascend_bo_create lb;
	struct ascend_cmd l[3], c;
	struct queue q, q2;
	uint64_t x, zero = 0, usec = 200000;
	uint32_t spin, sz, f;
	struct dev d;

	dev_open(&d);
	x = d.data.va;
	put(&d, x, &zero, sizeof(zero));
	spin = kernel_id(d.fd, "Spin", &sz);
	REQUIRE(sz >= sizeof(usec));
	REQUIRE_OK(bo_create(d.fd, BO_SIZE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &lb));
	cmd_launch(&l[0], spin, 1, &usec, sizeof(usec));
	cmd_write(&l[1], x, 5, ASCEND_WRITE_VALUE_STORE);
	cmd_write(&l[2], x + 8, 6, ASCEND_WRITE_VALUE_STORE);
	put(&d, lb.va, l, sizeof(l));
	REQUIRE_OK(queue_create(d.fd, 0, &q));
	REQUIRE_OK(queue_create(d.fd, 0, &q2));
	cmd_call(&c, lb.va, 3);
	queue_submit(&q, &c);
	usleep(20000);		/* the CALL is in its first command */
	CHECK_EQ(gem_close(d.fd, lb.handle), 0);
	{
		struct drm_ascend_queue_wait w;
		struct ascend_cmd nop;
		uint64_t seq;

		cmd_nop(&nop);
		seq = queue_submit(&q, &nop);
		REQUIRE_OK(queue_wait(&q, seq, &w));
		f = w.fault;
	}
	CHECK(f == 0 || f == ASCEND_FAULT_MMU);
	if (f == 0) {
		CHECK_EQ(get64(&d, x), 5ULL);
		CHECK_EQ(get64(&d, x + 8), 6ULL);
	}
	/* the other queue and the file are untouched */
	cmd_write(&l[0], x + 16, 7, ASCEND_WRITE_VALUE_STORE);
	put(&d, d.list.va, &l[0], sizeof(l[0]));
	cmd_call(&c, d.list.va, 1);
	CHECK_EQ(run_on(&q2, &c, NULL, NULL, NULL), 0u);
	CHECK_EQ(get64(&d, x + 16), 7ULL);
	queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE);
	queue_destroy(&q2, 0);
	close(d.fd);
}

int main(void)
{
	return tap_main();
}
