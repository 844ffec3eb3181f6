// SPDX-License-Identifier: MIT
/*
 * Streams: aclrtCreateStream, aclrtDestroyStream[Force],
 * aclrtSynchronizeStream, including bad handles.
 */
#define _GNU_SOURCE
#include "acl_util.h"

TEST(create_destroy)
{
	aclrtStream s = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtCreateStream(&s));
	CHECK(s != NULL);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(create_destroy_force)
{
	aclrtStream s = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
}

TEST(create_many_distinct)
{
	aclrtStream s[8];
	int i, j;

	acl_setup();
	for (i = 0; i < 8; i++)
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
	for (i = 0; i < 8; i++)
		for (j = i + 1; j < 8; j++)
			CHECK(s[i] != s[j]);
	for (i = 0; i < 8; i++)
		CHECK_ACL_OK(aclrtDestroyStream(s[i]));
}

TEST(create_null)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(create_without_device)
{
	aclrtStream s = NULL;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_FAIL(aclrtCreateStream(&s));
	aclFinalize();
}

TEST(destroy_force_null_100000)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(destroy_null)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(synchronize_null_is_default_stream)
{
	acl_setup();
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
}

TEST(destroyed_handle_is_an_error)
{
	aclrtStream s = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtDestroyStream(s));
	CHECK_ACL_FAIL(aclrtSynchronizeStream(s));
	CHECK_ACL_FAIL(aclrtDestroyStream(s));
	CHECK_ACL_FAIL(aclrtDestroyStreamForce(s));
}

TEST(garbage_handle_is_an_error)
{
	int on_stack;
	aclrtStream bad[] = { (aclrtStream)(uintptr_t)0x1, (aclrtStream)&on_stack,
			      (aclrtStream)(uintptr_t)0xdeadbeefcafe0000ULL };
	unsigned int i;

	acl_setup();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ACL_FAIL(aclrtSynchronizeStream(bad[i]));
		CHECK_ACL_FAIL(aclrtDestroyStream(bad[i]));
		CHECK_ACL_FAIL(aclrtDestroyStreamForce(bad[i]));
	}
}

TEST(launch_on_destroyed_stream)
{
	aclrtStream s = NULL;
	int *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtDestroyStream(s));
	CHECK_ACL_FAIL(launch_write(s, p, 1, 1));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(destroy_waits_for_work)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL, v[4];
	char *out;
	int i;

	/* aclrtDestroyStream waits: every launched kernel has run after it. */
	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&s));
	capture_begin(&c);
	for (i = 0; i < 4; i++)
		REQUIRE_ACL(launch_write(s, p + i, 40 + i, 1));
	REQUIRE_ACL(aclrtDestroyStream(s));
	out = capture_end(&c);
	free(out);
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE(read_dev_ints(s, p, v, 4) == 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ(v[i], 40 + i);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(destroy_force_with_pending_work)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL;
	int i;

	/* Force does not wait; whatever ran or not, nothing may break. */
	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&s));
	capture_begin(&c);
	for (i = 0; i < 16; i++)
		REQUIRE_ACL(launch_write(s, p, i, 1));
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
	free(capture_end(&c));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(streams_are_ordered_independently)
{
	aclrtStream a = NULL, b = NULL;
	int *p = NULL, v[2];

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtCreateStream(&a));
	REQUIRE_ACL(aclrtCreateStream(&b));
	write_dev_ints(a, p, (int[]){ 7 }, 1);
	write_dev_ints(b, p + 1, (int[]){ 8 }, 1);
	REQUIRE(read_dev_ints(a, p, v, 2) == 2);
	CHECK_EQ(v[0], 7);
	CHECK_EQ(v[1], 8);
	CHECK_ACL_OK(aclrtDestroyStream(a));
	CHECK_ACL_OK(aclrtDestroyStream(b));
	CHECK_ACL_OK(aclrtFree(p));
}

int main(void)
{
	return tap_main();
}
