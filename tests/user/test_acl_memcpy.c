// SPDX-License-Identifier: MIT
/*
 * aclrtMemcpy device-to-device: the bytes (seen through the DeviceWrite /
 * DeviceRead kernels), ordering after queued kernels, and CANN's argument
 * checks and error codes (cann-api-facts.md 6.3 and 7 "Copies").
 */
#define _GNU_SOURCE
#include "acl_util.h"

struct fixture {
	aclrtStream s;
	int *a, *b;
};

#define BUF_BYTES 4096

static void fixture_init(struct fixture *f)
{
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&f->s));
	REQUIRE_ACL(aclrtMalloc((void **)&f->a, BUF_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMalloc((void **)&f->b, BUF_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
}

static void fixture_fini(struct fixture *f)
{
	CHECK_ACL_OK(aclrtFree(f->a));
	CHECK_ACL_OK(aclrtFree(f->b));
	CHECK_ACL_OK(aclrtDestroyStream(f->s));
}

/* a[i] = 1000 + i for i < 8; b[i] = -1 for i < 9. */
static void fixture_pattern(struct fixture *f)
{
	int vals[8], i;
	struct capture c;

	for (i = 0; i < 8; i++)
		vals[i] = 1000 + i;
	write_dev_ints(f->s, f->a, vals, 8);
	capture_begin(&c);
	REQUIRE_ACL(launch_write(f->s, f->b, -1, 9));	/* 9 blocks: b[0..8] */
	REQUIRE_ACL(aclrtSynchronizeStream(f->s));
	free(capture_end(&c));
}

TEST(d2d_copies_exactly_count_bytes)
{
	struct fixture f;
	int v[9], i;

	fixture_init(&f);
	fixture_pattern(&f);
	CHECK_ACL_OK(aclrtMemcpy(f.b, BUF_BYTES, f.a, 8 * sizeof(int),
				 ACL_MEMCPY_DEVICE_TO_DEVICE));
	REQUIRE(read_dev_ints(f.s, f.b, v, 9) == 9);
	for (i = 0; i < 8; i++)
		CHECK_EQ(v[i], 1000 + i);
	CHECK_EQ(v[8], -1);	/* past count: untouched */
	/* The source is unchanged. */
	REQUIRE(read_dev_ints(f.s, f.a, v, 8) == 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ(v[i], 1000 + i);
	fixture_fini(&f);
}

TEST(d2d_interior_offsets_and_odd_sizes)
{
	struct fixture f;
	int v[9];

	fixture_init(&f);
	fixture_pattern(&f);
	/* b[2..3] = a[5..6], then 1 byte b[6] <- a[1]'s low byte. */
	CHECK_ACL_OK(aclrtMemcpy(f.b + 2, BUF_BYTES - 8, f.a + 5, 8,
				 ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpy(f.b + 6, 1, f.a + 1, 1, ACL_MEMCPY_DEVICE_TO_DEVICE));
	REQUIRE(read_dev_ints(f.s, f.b, v, 9) == 9);
	CHECK_EQ(v[0], -1);
	CHECK_EQ(v[1], -1);
	CHECK_EQ(v[2], 1005);
	CHECK_EQ(v[3], 1006);
	CHECK_EQ(v[4], -1);
	CHECK_EQ(v[5], -1);
	/* little endian: low byte of 1001 (0xe9) over 0xffffffff */
	CHECK_EQ(v[6], (int)0xffffffe9);
	CHECK_EQ(v[7], -1);
	fixture_fini(&f);
}

TEST(d2d_default_kind_infers_direction)
{
	struct fixture f;
	int v[8], i;

	fixture_init(&f);
	fixture_pattern(&f);
	CHECK_ACL_OK(aclrtMemcpy(f.b, BUF_BYTES, f.a, 32, ACL_MEMCPY_DEFAULT));
	REQUIRE(read_dev_ints(f.s, f.b, v, 8) == 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ(v[i], 1000 + i);
	fixture_fini(&f);
}

TEST(d2d_ordered_after_queued_kernel)
{
	struct fixture f;
	struct capture c;
	int round, v = 0;

	/* The seed's pattern: kernel write, then copy with no sync between. */
	fixture_init(&f);
	for (round = 0; round < 4; round++) {
		capture_begin(&c);
		REQUIRE_ACL(launch_write(f.s, f.a, 123 + round, 1));
		REQUIRE_ACL(aclrtMemcpy(f.b, BUF_BYTES, f.a, BUF_BYTES,
					ACL_MEMCPY_DEVICE_TO_DEVICE));
		free(capture_end(&c));
		REQUIRE(read_dev_ints(f.s, f.b, &v, 1) == 1);
		CHECK_EQ(v, 123 + round);
	}
	fixture_fini(&f);
}

TEST(d2d_one_mib_and_chain)
{
	const size_t size = 1 << 20, last = size / sizeof(int) - 1;
	aclrtStream s;
	int *a, *b, *c, v[2];

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&a, size, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMalloc((void **)&b, size, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMalloc((void **)&c, size, ACL_MEM_MALLOC_NORMAL_ONLY));
	write_dev_ints(s, a, (int[]){ 11 }, 1);
	write_dev_ints(s, a + last, (int[]){ 22 }, 1);
	CHECK_ACL_OK(aclrtMemcpy(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpy(c, size, b, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
	REQUIRE(read_dev_ints(s, c, &v[0], 1) == 1);
	REQUIRE(read_dev_ints(s, c + last, &v[1], 1) == 1);
	CHECK_EQ(v[0], 11);
	CHECK_EQ(v[1], 22);
	CHECK_ACL_OK(aclrtFree(a));
	CHECK_ACL_OK(aclrtFree(b));
	CHECK_ACL_OK(aclrtFree(c));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(count_zero_is_success_even_with_null)
{
	acl_setup();
	CHECK_ACL_OK(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpy(NULL, 16, NULL, 0, ACL_MEMCPY_DEVICE_TO_DEVICE));
}

TEST(null_pointers_100000)
{
	struct fixture f;

	fixture_init(&f);
	CHECK_ACL_ERR(aclrtMemcpy(NULL, BUF_BYTES, f.a, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy(f.b, BUF_BYTES, NULL, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
		      ACL_ERROR_INVALID_PARAM);
	fixture_fini(&f);
}

TEST(bad_kind_100000)
{
	static const int kinds[] = { ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
				     ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 8, 99, -1 };
	struct fixture f;
	unsigned int i;

	fixture_init(&f);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		CHECK_ACL_ERR(aclrtMemcpy(f.b, BUF_BYTES, f.a, 16,
					  (aclrtMemcpyKind)kinds[i]),
			      ACL_ERROR_INVALID_PARAM);
	fixture_fini(&f);
}

TEST(count_gt_destmax_107000)
{
	struct fixture f;

	fixture_init(&f);
	CHECK_ACL_ERR(aclrtMemcpy(f.b, 15, f.a, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpy(f.b, 0, f.a, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
		      ACL_ERROR_RT_PARAM_INVALID);
	fixture_fini(&f);
}

TEST(no_device_107002)
{
	char x[16], y[16];

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_ERR(aclrtMemcpy(x, sizeof(x), y, sizeof(y), ACL_MEMCPY_DEVICE_TO_DEVICE),
		      ACL_ERROR_RT_CONTEXT_NULL);
	aclFinalize();
}

TEST(dst_equals_src_is_success)
{
	struct fixture f;
	int v[8], i;

	fixture_init(&f);
	fixture_pattern(&f);
	CHECK_ACL_OK(aclrtMemcpy(f.a, BUF_BYTES, f.a, BUF_BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE));
	REQUIRE(read_dev_ints(f.s, f.a, v, 8) == 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ(v[i], 1000 + i);
	fixture_fini(&f);
}

TEST(range_beyond_allocation_fails)
{
	struct fixture f;
	int v[9], i;

	fixture_init(&f);
	fixture_pattern(&f);
	/* Source runs past the end of a. */
	CHECK_ACL_FAIL(aclrtMemcpy(f.b, BUF_BYTES, f.a + 16, BUF_BYTES,
				   ACL_MEMCPY_DEVICE_TO_DEVICE));
	/* Destination runs past the end of b (destMax lies about it). */
	CHECK_ACL_FAIL(aclrtMemcpy(f.b + 16, BUF_BYTES, f.a, BUF_BYTES,
				   ACL_MEMCPY_DEVICE_TO_DEVICE));
	/* Wrapping the address space. */
	CHECK_ACL_FAIL(aclrtMemcpy(f.b, SIZE_MAX, f.a, SIZE_MAX - 8,
				   ACL_MEMCPY_DEVICE_TO_DEVICE));
	/* Nothing was written by the failed copies. */
	REQUIRE(read_dev_ints(f.s, f.b, v, 9) == 9);
	for (i = 0; i < 9; i++)
		CHECK_EQ(v[i], -1);
	fixture_fini(&f);
}

TEST(freed_and_foreign_pointers_fail)
{
	struct fixture f;
	int *gone;
	char host[64];

	fixture_init(&f);
	REQUIRE_ACL(aclrtMalloc((void **)&gone, BUF_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtFree(gone));
	CHECK_ACL_FAIL(aclrtMemcpy(f.b, BUF_BYTES, gone, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK_ACL_FAIL(aclrtMemcpy(gone, BUF_BYTES, f.a, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	/* A host buffer is not device memory. */
	CHECK_ACL_FAIL(aclrtMemcpy(f.b, BUF_BYTES, host, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	fixture_fini(&f);
}

int main(void)
{
	return tap_main();
}
