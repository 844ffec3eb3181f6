// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the free ring's consumer (ascend_free_ring.c) - valid entries
 * freed in order, bad, foreign and duplicate VAs skipped and counted, a
 * corrupt tail (ahead by more than the ring, or behind the head) consuming
 * nothing, the user-written mirrors never trusted, wrap-around, and
 * idempotence.
 */
#include <linux/slab.h>

#include "ascend_free_ring.h"
#include "ascend_kunit.h"

#define NR_LIVE	8

/* A fake file: NR_LIVE allocations at 0x10000 + i * 0x1000. */
struct fake_file {
	bool live[NR_LIVE];
	unsigned int calls;
	u64 order[64];
};

static int fake_free(void *ctx, u64 va)
{
	struct fake_file *f = ctx;
	u64 i = (va - 0x10000) / 0x1000;

	if (f->calls < ARRAY_SIZE(f->order))
		f->order[f->calls] = va;
	f->calls++;
	if (va < 0x10000 || va % 0x1000 || i >= NR_LIVE || !f->live[i])
		return -EINVAL;
	f->live[i] = false;
	return 0;
}

static u64 va_of(unsigned int i)
{
	return 0x10000 + i * 0x1000;
}

/* A ring as ascend_free_ring_alloc() makes it, minus the GEM object. */
static struct ascend_free_ring *ring_new(struct kunit *test, u32 entries)
{
	struct ascend_free_ring *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->shared = kunit_kzalloc(test, DRM_ASCEND_FREE_RING_VA_OFFSET +
				  entries * sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->shared);
	r->va = (u64 *)((u8 *)r->shared + DRM_ASCEND_FREE_RING_VA_OFFSET);
	r->entries = entries;
	r->shared->entries = entries;
	mutex_init(&r->lock);
	return r;
}

static struct fake_file *file_new(struct kunit *test)
{
	struct fake_file *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	for (i = 0; i < NR_LIVE; i++)
		f->live[i] = true;
	return f;
}

/* What user space does: slot tail % entries, then tail + 1. */
static void push(struct ascend_free_ring *r, u64 va)
{
	u64 t = r->shared->tail;

	r->va[t & (r->entries - 1)] = va;
	r->shared->tail = t + 1;
}

static void free_ring_valid(struct kunit *test)
{
	struct ascend_free_ring *r = ring_new(test, 8);
	struct fake_file *f = file_new(test);

	push(r, va_of(3));
	push(r, va_of(0));
	push(r, va_of(7));
	KUNIT_EXPECT_TRUE(test, !ascend_free_ring_idle(r));
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 3);
	KUNIT_EXPECT_EQ(test, f->calls, 3);
	KUNIT_EXPECT_EQ(test, f->order[0], va_of(3));
	KUNIT_EXPECT_EQ(test, f->order[1], va_of(0));
	KUNIT_EXPECT_EQ(test, f->order[2], va_of(7));
	KUNIT_EXPECT_FALSE(test, f->live[3] || f->live[0] || f->live[7]);
	KUNIT_EXPECT_TRUE(test, f->live[1]);
	KUNIT_EXPECT_EQ(test, r->head, 3);
	KUNIT_EXPECT_EQ(test, r->shared->head, 3);	/* the mirror */
	KUNIT_EXPECT_EQ(test, r->freed, 3);
	KUNIT_EXPECT_EQ(test, r->ignored, 0);
	KUNIT_EXPECT_TRUE(test, ascend_free_ring_idle(r));
}

static void free_ring_bad_entries(struct kunit *test)
{
	struct ascend_free_ring *r = ring_new(test, 8);
	struct fake_file *f = file_new(test);

	push(r, va_of(2));
	push(r, va_of(2));		/* duplicate */
	push(r, va_of(2) + 8);		/* inside, not the start */
	push(r, 0xdead0000);		/* foreign */
	push(r, 0);
	push(r, U64_MAX);
	push(r, va_of(5));
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 2);
	KUNIT_EXPECT_EQ(test, f->calls, 7);
	KUNIT_EXPECT_EQ(test, r->freed, 2);
	KUNIT_EXPECT_EQ(test, r->ignored, 5);
	KUNIT_EXPECT_EQ(test, r->head, 7);
	KUNIT_EXPECT_FALSE(test, f->live[2] || f->live[5]);
	KUNIT_EXPECT_TRUE(test, f->live[1] && f->live[6]);
}

static void free_ring_corrupt_tail(struct kunit *test)
{
	struct ascend_free_ring *r = ring_new(test, 4);
	struct fake_file *f = file_new(test);
	unsigned int i;

	for (i = 0; i < 4; i++)
		r->va[i] = va_of(i);
	/* ahead by more than the ring */
	r->shared->tail = 5;
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 0);
	r->shared->tail = U64_MAX;
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 0);
	KUNIT_EXPECT_EQ(test, f->calls, 0);
	KUNIT_EXPECT_EQ(test, r->head, 0);
	KUNIT_EXPECT_EQ(test, r->bad_tail, 2);

	/* exactly full is fine */
	r->shared->tail = 4;
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 4);
	KUNIT_EXPECT_EQ(test, r->head, 4);

	/* behind the head */
	r->shared->tail = 2;
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 0);
	KUNIT_EXPECT_EQ(test, f->calls, 4);
	KUNIT_EXPECT_EQ(test, r->head, 4);
	KUNIT_EXPECT_EQ(test, r->bad_tail, 3);

	/* the mirrors are user-writable and never read back */
	r->shared->head = 1000;
	r->shared->entries = 1U << 31;
	r->shared->tail = 4 + 4 + 1;
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 0);
	KUNIT_EXPECT_EQ(test, f->calls, 4);

	/* a sane tail again: the ring works */
	r->va[0] = va_of(4);
	r->shared->tail = 5;
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 1);
	KUNIT_EXPECT_EQ(test, r->head, 5);
	KUNIT_EXPECT_EQ(test, r->shared->head, 5);
	KUNIT_EXPECT_FALSE(test, f->live[4]);
}

static void free_ring_wrap_and_idempotent(struct kunit *test)
{
	struct ascend_free_ring *r = ring_new(test, 2);
	struct fake_file *f = file_new(test);
	unsigned int i;

	for (i = 0; i < NR_LIVE; i++) {
		push(r, va_of(i));
		KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 1);
		/* again: nothing new, no call */
		KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 0);
		KUNIT_EXPECT_EQ(test, f->calls, i + 1);
	}
	KUNIT_EXPECT_EQ(test, r->head, NR_LIVE);
	for (i = 0; i < NR_LIVE; i++)
		KUNIT_EXPECT_FALSE(test, f->live[i]);

	/* the 64-bit counters wrap too */
	r->head = U64_MAX;
	r->shared->tail = U64_MAX;
	f->live[1] = true;
	push(r, va_of(1));
	KUNIT_EXPECT_EQ(test, r->shared->tail, 0);
	KUNIT_EXPECT_EQ(test, ascend_free_ring_consume(r, fake_free, f), 1);
	KUNIT_EXPECT_EQ(test, r->head, 0);
	KUNIT_EXPECT_FALSE(test, f->live[1]);
	KUNIT_EXPECT_EQ(test, r->bad_tail, 0);
}

static struct kunit_case free_ring_cases[] = {
	KUNIT_CASE(free_ring_valid),
	KUNIT_CASE(free_ring_bad_entries),
	KUNIT_CASE(free_ring_corrupt_tail),
	KUNIT_CASE(free_ring_wrap_and_idempotent),
	{}
};

struct kunit_suite ascend_free_ring_test_suite = {
	.name = "ascend_free_ring",
	.test_cases = free_ring_cases,
};
