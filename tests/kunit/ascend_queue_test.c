// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the queue rules (the ring index check of ascend_hw_rules.h and its
 * wrap; the command checker ascend_emu_cmd.c: command validation,
 * WAIT_VALUE conditions, deadlines) and the NEED_WAKEUP handshake.  The
 * device's event slots are ascend_emu_test.c's.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "ascend_emu.h"
#include "ascend_kunit.h"
#include "ascend_queue_priv.h"

/* ------------------------------------------------------------------------ */
/* Ring indices */

static void ring_wptr_check(struct kunit *test)
{
	static const struct {
		u64 before, after, wptr;
		u32 entries;
		int ret;
	} t[] = {
		{ 0, 0, 0, 16, 0 },			/* empty */
		{ 0, 0, 16, 16, 0 },			/* exactly full */
		{ 0, 0, 17, 16, -EPROTO },		/* more than a ring ahead */
		{ 5, 5, 4, 16, -EPROTO },		/* behind rptr */
		{ 5, 9, 20, 16, 0 },			/* rptr moved meanwhile */
		{ 5, 9, 26, 16, -EPROTO },		/* a ring past the newer rptr */
		/* near the wrap of the u64 counters */
		{ U64_MAX - 3, U64_MAX - 3, U64_MAX, 16, 0 },
		{ U64_MAX - 3, U64_MAX - 3, 5, 16, 0 },	/* wrapped: 9 ahead */
		{ U64_MAX - 3, U64_MAX - 3, 13, 16, -EPROTO },
		{ 2, 2, U64_MAX, 16, -EPROTO },		/* "behind" across wrap */
		{ 0, 0, U64_MAX, 65536, -EPROTO },
		{ 0, 0, 1ULL << 63, 16, -EPROTO },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test, ascend_ring_check_wptr(t[i].before,
								 t[i].after,
								 t[i].wptr,
								 t[i].entries),
				    t[i].ret, "case %u", i);
}

static void ring_slot_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ascend_ring_slot(0, 16), 0U);
	KUNIT_EXPECT_EQ(test, ascend_ring_slot(15, 16), 15U);
	KUNIT_EXPECT_EQ(test, ascend_ring_slot(16, 16), 0U);
	KUNIT_EXPECT_EQ(test, ascend_ring_slot(16 * 1000 + 7, 16), 7U);
	KUNIT_EXPECT_EQ(test, ascend_ring_slot(U64_MAX, 1024), 1023U);
	/* the slot sequence continues across the u64 wrap */
	KUNIT_EXPECT_EQ(test, ascend_ring_slot(U64_MAX + 1ULL, 1024), 0U);
	KUNIT_EXPECT_EQ(test, ascend_ring_slot(1ULL << 40, 65536), 0U);
}

/*
 * NEED_WAKEUP: the device side sets the flag, issues a full barrier and
 * re-reads wptr before it sleeps; user space stores wptr, issues a full
 * barrier and reads the flag.  With both barriers, in every interleaving
 * of the two halves either the device sees the new wptr or user space
 * sees the flag and rings.  Sequential model of all six interleavings.
 */
static void need_wakeup_handshake(struct kunit *test)
{
	/* steps: D0 set flag, D1 read wptr; U0 store wptr, U1 read flag */
	static const char *const orders[] = {
		"DDUU", "DUDU", "DUUD", "UDDU", "UDUD", "UUDD",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(orders); i++) {
		struct ascend_queue_status st = {};
		unsigned int d = 0, u = 0, k;
		bool dev_sees = false, rings = false;
		u64 rptr = 0;

		for (k = 0; k < 4; k++) {
			if (orders[i][k] == 'D') {
				if (d++ == 0)
					st.flags |= ASCEND_QUEUE_STATUS_NEED_WAKEUP;
				else
					dev_sees = READ_ONCE(st.wptr) != rptr;
			} else {
				if (u++ == 0)
					WRITE_ONCE(st.wptr, 1);
				else
					rings = st.flags &
						ASCEND_QUEUE_STATUS_NEED_WAKEUP;
			}
		}
		KUNIT_EXPECT_TRUE_MSG(test, dev_sees || rings, "order %s",
				      orders[i]);
		/* and the published command passes the ring check */
		KUNIT_EXPECT_EQ(test, ascend_ring_check_wptr(rptr, rptr,
							     st.wptr, 16), 0);
	}
}

/*
 * The doorbell ioctl clears NEED_WAKEUP before it kicks the device thread,
 * so that submissions made before the thread runs do not ring again.
 * Exhaustive model of every interleaving of the device thread going to
 * sleep (and waking) with two submitters: each publishes a command and,
 * if it sees the flag, rings (clear the flag, then kick).  In every
 * interleaving that ends with the thread asleep it must have seen both
 * commands.  The same model without the kick must find a lost wakeup.
 * A depth-first search over the states, each state visited once.
 */
struct nw_model {
	u64 wptr, seen_w;	/* 0..2 */
	bool flag;
	unsigned int kicks, seen_kicks;	/* 0..2 */
	unsigned int cp_pc, loops;	/* 0..4, 0..6 */
	unsigned int u_pc[2];		/* 0..4 */
	bool kick;		/* doorbells kick after clearing */
	unsigned long *visited;
	unsigned int finals, lost;
};

#define NW_STATES	(3 * 3 * 2 * 3 * 3 * 5 * 7 * 5 * 5)

static unsigned int nw_state(const struct nw_model *m)
{
	unsigned int v = m->wptr;

	v = v * 3 + m->seen_w;
	v = v * 2 + m->flag;
	v = v * 3 + m->kicks;
	v = v * 3 + m->seen_kicks;
	v = v * 5 + m->cp_pc;
	v = v * 7 + m->loops;
	v = v * 5 + m->u_pc[0];
	return v * 5 + m->u_pc[1];
}

static bool nw_cp_step(struct nw_model *m)
{
	switch (m->cp_pc) {
	case 0:		/* about to sleep: note the kicks, set NEED_WAKEUP */
		if (++m->loops > 6)
			return false;
		m->seen_kicks = m->kicks;
		m->flag = true;
		m->cp_pc = 1;
		return true;
	case 1:		/* full barrier, re-read wptr: new work, no sleep */
		if (m->wptr > m->seen_w) {
			m->seen_w = m->wptr;
			m->cp_pc = 3;
		} else {
			m->cp_pc = 2;
		}
		return true;
	case 2:		/* asleep until kicked */
		if (m->kicks == m->seen_kicks)
			return false;
		m->cp_pc = 3;
		return true;
	case 3:		/* awake: clear NEED_WAKEUP */
		m->flag = false;
		m->cp_pc = 4;
		return true;
	default:	/* a round over the queues, then idle again */
		if (m->wptr > m->seen_w)
			m->seen_w = m->wptr;
		m->cp_pc = 0;
		return true;
	}
}

static bool nw_user_step(struct nw_model *m, unsigned int u)
{
	switch (m->u_pc[u]) {
	case 0:		/* publish wptr; full barrier */
		m->wptr++;
		m->u_pc[u] = 1;
		return true;
	case 1:		/* read the flag: ring only when it is set */
		m->u_pc[u] = m->flag ? 2 : 4;
		return true;
	case 2:		/* doorbell ioctl: clear NEED_WAKEUP ... */
		m->flag = false;
		m->u_pc[u] = m->kick ? 3 : 4;
		return true;
	case 3:		/* ... then kick the device thread */
		m->kicks++;
		m->u_pc[u] = 4;
		return true;
	default:
		return false;
	}
}

static void nw_explore(struct nw_model *m)
{
	struct nw_model next;
	bool stepped = false;
	unsigned int a;

	if (__test_and_set_bit(nw_state(m), m->visited))
		return;
	for (a = 0; a < 3; a++) {
		next = *m;
		if (a == 0 ? !nw_cp_step(&next) : !nw_user_step(&next, a - 1))
			continue;
		stepped = true;
		nw_explore(&next);
		m->finals = next.finals;
		m->lost = next.lost;
	}
	if (stepped)
		return;
	/* nobody can move: the thread sleeps, both commands published */
	m->finals++;
	if (m->cp_pc != 2 || m->seen_w != m->wptr)
		m->lost++;
}

static void need_wakeup_doorbell_clears(struct kunit *test)
{
	unsigned long *visited = kunit_kcalloc(test, BITS_TO_LONGS(NW_STATES),
					       sizeof(long), GFP_KERNEL);
	struct nw_model m = { .kick = true, .visited = visited };

	KUNIT_ASSERT_NOT_NULL(test, visited);
	nw_explore(&m);
	KUNIT_EXPECT_GT(test, m.finals, 0U);
	KUNIT_EXPECT_EQ(test, m.lost, 0U);

	/* the model notices a lost wakeup when the kick is missing */
	bitmap_zero(visited, NW_STATES);
	m = (struct nw_model){ .kick = false, .visited = visited };
	nw_explore(&m);
	KUNIT_EXPECT_GT(test, m.lost, 0U);
}

/* ------------------------------------------------------------------------ */
/* Command validation */

static u32 check(struct ascend_cmd *c)
{
	return ascend_cmd_check(c);
}

#define BAD	ASCEND_FAULT_BAD_COMMAND

static void cmd_check_common(struct kunit *test)
{
	struct ascend_cmd c = {};

	KUNIT_EXPECT_EQ(test, check(&c), 0U);		/* NOP */
	c.flags = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.flags = 0;
	c.reserved = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.reserved = 0;
	c.raw[sizeof(c.raw) - 1] = 1;			/* NOP payload */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	memset(&c, 0, sizeof(c));
	c.opcode = 8;					/* unknown */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.opcode = U32_MAX;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
}

static void cmd_check_launch(struct kunit *test)
{
	struct ascend_cmd c = { .opcode = ASCEND_CMD_LAUNCH };

	c.launch.num_blocks = 1;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.launch.args_size = ASCEND_LAUNCH_ARGS_MAX;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.launch.args_size = ASCEND_LAUNCH_ARGS_MAX + 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.launch.args_size = 0;
	c.launch.num_blocks = 0;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
}

static void cmd_check_copy(struct kunit *test)
{
	struct ascend_cmd c = { .opcode = ASCEND_CMD_COPY };

	c.copy.dst = 0x1000;
	c.copy.src = 0x2000;
	c.copy.size = 0x1000;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);		/* adjacent is fine */
	c.copy.size = 0x1001;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* overlap */
	c.copy.size = 0;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.copy.size = 16;
	c.copy.dst = U64_MAX - 8;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* dst wraps */
	c.copy.dst = 0x1000;
	c.copy.src = U64_MAX - 8;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* src wraps */
	c.copy.src = 0x2000;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.raw[sizeof(c.copy)] = 1;			/* unused byte */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
}

static void cmd_check_fill(struct kunit *test)
{
	struct ascend_cmd c = { .opcode = ASCEND_CMD_FILL };
	static const u32 good[] = { 1, 2, 4 }, bad[] = { 0, 3, 8, U32_MAX };
	unsigned int i;

	c.fill.dst = 0x1000;
	c.fill.size = 64;
	c.fill.pattern = 0xdeadbeef;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		c.fill.pattern_size = good[i];
		KUNIT_EXPECT_EQ(test, check(&c), 0U);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c.fill.pattern_size = bad[i];
		KUNIT_EXPECT_EQ(test, check(&c), BAD);
	}
	c.fill.pattern_size = 4;
	c.fill.size = 6;				/* not a multiple */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.fill.size = 0;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.fill.size = 8;
	c.fill.dst = U64_MAX - 3;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.fill.dst = 0x1000;
	c.fill.pad = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.fill.pad = 0;
	c.raw[sizeof(c.fill)] = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
}

static void cmd_check_event(struct kunit *test)
{
	struct ascend_cmd c = { .opcode = ASCEND_CMD_EVENT_RECORD };

	c.event.handle = 1;
	c.event.gen = 1;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.event.flags = ASCEND_CMD_EVENT_TIMEOUT;	/* WAIT only */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.opcode = ASCEND_CMD_EVENT_WAIT;
	c.event.timeout_ms = 5;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.event.flags = 0;				/* timeout without flag */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.event.timeout_ms = 0;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.event.flags = 2;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.event.flags = 0;
	c.event.gen = 0;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.event.gen = 1;
	c.event.handle = 0;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.event.handle = 1;
	c.event.pad = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.event.pad = 0;
	c.raw[sizeof(c.event)] = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
}

static void cmd_check_value(struct kunit *test)
{
	struct ascend_cmd c = { .opcode = ASCEND_CMD_WRITE_VALUE };
	u32 cond;

	c.value.addr = 0x1008;
	c.value.value = U64_MAX;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.value.addr = 0x1004;				/* misaligned */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.value.addr = 0x1008;
	for (cond = 0; cond <= ASCEND_WRITE_VALUE_AND; cond++) {
		c.value.cond = cond;			/* store, add, or, and */
		KUNIT_EXPECT_EQ(test, check(&c), 0U);
	}
	c.value.cond = ASCEND_WRITE_VALUE_AND + 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.value.cond = ASCEND_WAIT_VALUE_RESET;		/* a wait's flag */
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.value.cond = 0;
	c.value.timeout_ms = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.opcode = ASCEND_CMD_WAIT_VALUE;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	for (cond = 0; cond <= ASCEND_WAIT_VALUE_ALL; cond++) {
		c.value.cond = cond;
		KUNIT_EXPECT_EQ(test, check(&c), 0U);
		c.value.cond |= ASCEND_WAIT_VALUE_RESET | ASCEND_WAIT_VALUE_OWN_LIMIT;
		KUNIT_EXPECT_EQ(test, check(&c), 0U);
	}
	c.value.cond = ASCEND_WAIT_VALUE_ALL + 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.value.cond = ASCEND_WAIT_VALUE_EQ | (ASCEND_WAIT_VALUE_OWN_LIMIT << 1);
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.value.cond = 0;
	c.value.addr = 0x1001;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.value.addr = 0x1008;
	c.raw[sizeof(c.value)] = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
}

/* ------------------------------------------------------------------------ */
/* WAIT_VALUE conditions (CANN's ACL_STREAM_WAIT_VALUE_*) */

static void wait_value_conditions(struct kunit *test)
{
	static const struct {
		u64 mem, value;
		u32 cond;
		bool ok;
	} t[] = {
		{ 5, 5, ASCEND_WAIT_VALUE_GEQ, true },
		{ 6, 5, ASCEND_WAIT_VALUE_GEQ, true },
		{ 4, 5, ASCEND_WAIT_VALUE_GEQ, false },
		/* signed difference: a counter that wrapped still counts */
		{ 1, U64_MAX, ASCEND_WAIT_VALUE_GEQ, true },
		{ U64_MAX, 1, ASCEND_WAIT_VALUE_GEQ, false },
		{ 1ULL << 63, 0, ASCEND_WAIT_VALUE_GEQ, false },
		{ 7, 7, ASCEND_WAIT_VALUE_EQ, true },
		{ 7, 8, ASCEND_WAIT_VALUE_EQ, false },
		{ 0x6, 0x2, ASCEND_WAIT_VALUE_AND, true },
		{ 0x4, 0x3, ASCEND_WAIT_VALUE_AND, false },
		{ 0, 0, ASCEND_WAIT_VALUE_AND, false },
		{ 0, 0, ASCEND_WAIT_VALUE_NOR, true },
		{ U64_MAX, 0, ASCEND_WAIT_VALUE_NOR, false },
		{ 0xf0, ~0xf0ULL, ASCEND_WAIT_VALUE_NOR, false },
		{ 0xf0, 0x0f, ASCEND_WAIT_VALUE_NOR, true },
		/* counting notifies: unsigned */
		{ 4, 5, ASCEND_WAIT_VALUE_LT, true },
		{ 5, 5, ASCEND_WAIT_VALUE_LT, false },
		{ U64_MAX, 0, ASCEND_WAIT_VALUE_LT, false },
		{ 6, 5, ASCEND_WAIT_VALUE_GT, true },
		{ 5, 5, ASCEND_WAIT_VALUE_GT, false },
		{ U64_MAX, 1, ASCEND_WAIT_VALUE_GT, true },
		{ 0x37, 0x33, ASCEND_WAIT_VALUE_ALL, true },
		{ 0x35, 0x33, ASCEND_WAIT_VALUE_ALL, false },
		{ 0, 0, ASCEND_WAIT_VALUE_ALL, true },
		/* the flags do not change the condition */
		{ 7, 7, ASCEND_WAIT_VALUE_EQ | ASCEND_WAIT_VALUE_RESET, true },
		{ 5, 5, 7, false },			/* unknown cond */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    ascend_wait_value_satisfied(t[i].mem,
								t[i].value,
								t[i].cond),
				    t[i].ok, "case %u", i);
}

/* WRITE_VALUE's atomic operations (a counting notify's records) */
static void write_value_ops(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ascend_write_value_apply(5, 9, ASCEND_WRITE_VALUE_STORE), 9ULL);
	KUNIT_EXPECT_EQ(test, ascend_write_value_apply(5, 9, ASCEND_WRITE_VALUE_ADD), 14ULL);
	KUNIT_EXPECT_EQ(test, ascend_write_value_apply(U64_MAX, 2, ASCEND_WRITE_VALUE_ADD), 1ULL);
	KUNIT_EXPECT_EQ(test, ascend_write_value_apply(0xf0, 0x0f, ASCEND_WRITE_VALUE_OR), 0xffULL);
	KUNIT_EXPECT_EQ(test, ascend_write_value_apply(0xff, 0x3c, ASCEND_WRITE_VALUE_AND), 0x3cULL);
}

/* ------------------------------------------------------------------------ */
/* Deadlines: the timeout state machine of one command */

static void cmd_deadlines(struct kunit *test)
{
	const u64 now = 1000 * NSEC_PER_SEC;
	u64 d;

	/* no limit at all */
	KUNIT_EXPECT_EQ(test, ascend_cmd_deadline(now, 0, 0), 0ULL);
	KUNIT_EXPECT_FALSE(test, ascend_cmd_expired(U64_MAX, 0));

	/* the command's own limit wins over the default */
	d = ascend_cmd_deadline(now, 5, 10000);
	KUNIT_EXPECT_EQ(test, d, now + 5 * NSEC_PER_MSEC);
	KUNIT_EXPECT_FALSE(test, ascend_cmd_expired(now, d));
	KUNIT_EXPECT_FALSE(test, ascend_cmd_expired(d - 1, d));
	KUNIT_EXPECT_TRUE(test, ascend_cmd_expired(d, d));
	KUNIT_EXPECT_TRUE(test, ascend_cmd_expired(d + NSEC_PER_SEC, d));

	/* 0 takes the default */
	d = ascend_cmd_deadline(now, 0, 10000);
	KUNIT_EXPECT_EQ(test, d, now + 10 * NSEC_PER_SEC);

	/* a deadline computed across the wrap of the clock still works */
	d = ascend_cmd_deadline(U64_MAX - NSEC_PER_MSEC, 2, 0);
	KUNIT_EXPECT_NE(test, d, 0ULL);
	KUNIT_EXPECT_FALSE(test, ascend_cmd_expired(U64_MAX, d));
	KUNIT_EXPECT_TRUE(test, ascend_cmd_expired(d, d));

	/* the largest limit does not overflow */
	d = ascend_cmd_deadline(now, U32_MAX, 0);
	KUNIT_EXPECT_EQ(test, d, now + (u64)U32_MAX * NSEC_PER_MSEC);
}

/* A limited (unprivileged) queue's own limit never exceeds the device's */
static void cmd_limits(struct kunit *test)
{
	/* unlimited queues: the command's own limit wins, 0 takes the device's */
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(0, 10000, false), 10000U);
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(U32_MAX, 10000, false), U32_MAX);
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(5, 0, false), 5U);
	/* limited: clamped, a shorter own limit still counts */
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(U32_MAX, 10000, true), 10000U);
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(5, 10000, true), 5U);
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(0, 10000, true), 10000U);
	/* a device without a limit (cmd_timeout_ms=0) clamps nothing */
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(U32_MAX, 0, true), U32_MAX);
	KUNIT_EXPECT_EQ(test, ascend_cmd_limit_ms(0, 0, true), 0U);
}

/* The AI-core scheduler's policy: who yields, where a waker starts */
static void sched_policy(struct kunit *test)
{
	const u64 slice = 2 * NSEC_PER_MSEC;

	/* wrap-safe order of vtimes */
	KUNIT_EXPECT_TRUE(test, ascend_sched_before(1, 2));
	KUNIT_EXPECT_FALSE(test, ascend_sched_before(2, 2));
	KUNIT_EXPECT_TRUE(test, ascend_sched_before(U64_MAX, 1));

	/* a turn shorter than the slice never yields */
	KUNIT_EXPECT_FALSE(test, ascend_sched_yield(slice - 1, slice, 100, 0));
	/* past the slice: to a poorer or equal group, not to a richer one */
	KUNIT_EXPECT_TRUE(test, ascend_sched_yield(slice, slice, 100, 0));
	KUNIT_EXPECT_TRUE(test, ascend_sched_yield(slice, slice, 100, 100));
	KUNIT_EXPECT_FALSE(test, ascend_sched_yield(10 * slice, slice, 100, 101));
	/* slice 0: no time slicing */
	KUNIT_EXPECT_FALSE(test, ascend_sched_yield(U64_MAX, 0, 100, 0));

	/* an idle group comes back at most one slice ahead of the clock */
	KUNIT_EXPECT_EQ(test, ascend_sched_wake_vtime(0, 100 * slice, slice),
			99 * slice);
	/* a group that used more keeps its debt */
	KUNIT_EXPECT_EQ(test, ascend_sched_wake_vtime(200 * slice, 100 * slice,
						      slice), 200 * slice);
	/* early on (clock below a slice) nothing wraps */
	KUNIT_EXPECT_EQ(test, ascend_sched_wake_vtime(0, slice / 2, slice), 0ULL);
}

static void cmd_check_call(struct kunit *test)
{
	struct ascend_cmd c = { .opcode = ASCEND_CMD_CALL };

	c.call.list = 0x10000;
	c.call.count = 1;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.call.count = ASCEND_CALL_MAX_CMDS;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.call.count = ASCEND_CALL_MAX_CMDS + 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* too long */
	c.call.count = 0;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* empty */
	c.call.count = 2;
	c.call.list = 0x10004;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* misaligned */
	c.call.list = U64_MAX - 127;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* wraps */
	c.call.list = 0x10000;
	c.call.pad = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.call.pad = 0;
	c.raw[sizeof(c.call)] = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* unused byte */
}

static void cmd_check_switch_jump(struct kunit *test)
{
	struct ascend_cmd c = { .opcode = ASCEND_CMD_SWITCH };

	c.label_switch.value = 0x2000;
	c.label_switch.table = 0x3000;
	c.label_switch.count = 2;
	c.label_switch.value_size = 8;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.label_switch.value = 0x2004;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* u64 misaligned */
	c.label_switch.value_size = 4;
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.label_switch.value_size = 2;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.label_switch.value_size = 4;
	c.label_switch.table = 0x3002;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* table misaligned */
	c.label_switch.table = U64_MAX - 3;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);		/* table wraps */
	c.label_switch.table = 0x3000;
	c.label_switch.count = 0;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.label_switch.count = ASCEND_CALL_MAX_CMDS + 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);

	memset(&c, 0, sizeof(c));
	c.opcode = ASCEND_CMD_JUMP;
	c.jump.target = U32_MAX;			/* checked against the list */
	KUNIT_EXPECT_EQ(test, check(&c), 0U);
	c.jump.pad = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);
	c.jump.pad = 0;
	c.raw[sizeof(c.jump)] = 1;
	KUNIT_EXPECT_EQ(test, check(&c), BAD);

	/* a selector past the table picks its last entry */
	KUNIT_EXPECT_EQ(test, ascend_switch_entry(0, 3), 0U);
	KUNIT_EXPECT_EQ(test, ascend_switch_entry(2, 3), 2U);
	KUNIT_EXPECT_EQ(test, ascend_switch_entry(3, 3), 2U);
	KUNIT_EXPECT_EQ(test, ascend_switch_entry(U64_MAX, 3), 2U);
	KUNIT_EXPECT_EQ(test, ascend_switch_entry(1ULL << 32, 1), 0U);
	/* the list's end is a target, past it is not */
	KUNIT_EXPECT_TRUE(test, ascend_list_target_ok(0, 4));
	KUNIT_EXPECT_TRUE(test, ascend_list_target_ok(4, 4));
	KUNIT_EXPECT_FALSE(test, ascend_list_target_ok(5, 4));
	KUNIT_EXPECT_FALSE(test, ascend_list_target_ok(U32_MAX, 4));
}

static struct kunit_case ascend_queue_test_cases[] = {
	KUNIT_CASE(ring_wptr_check),
	KUNIT_CASE(ring_slot_wrap),
	KUNIT_CASE(need_wakeup_handshake),
	KUNIT_CASE(need_wakeup_doorbell_clears),
	KUNIT_CASE(cmd_check_common),
	KUNIT_CASE(cmd_check_launch),
	KUNIT_CASE(cmd_check_copy),
	KUNIT_CASE(cmd_check_fill),
	KUNIT_CASE(cmd_check_event),
	KUNIT_CASE(cmd_check_value),
	KUNIT_CASE(wait_value_conditions),
	KUNIT_CASE(write_value_ops),
	KUNIT_CASE(cmd_deadlines),
	KUNIT_CASE(cmd_limits),
	KUNIT_CASE(sched_policy),
	KUNIT_CASE(cmd_check_call),
	KUNIT_CASE(cmd_check_switch_jump),
	{}
};

struct kunit_suite ascend_queue_test_suite = {
	.name = "ascend_queue",
	.test_cases = ascend_queue_test_cases,
};
