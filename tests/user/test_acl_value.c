// SPDX-License-Identifier: MIT
/*
 * aclrtValueWrite / aclrtValueWait: argument checks and the four wait
 * conditions, each a WAIT_VALUE stream released by a WRITE_VALUE on
 * another stream.
 */
#define _GNU_SOURCE
#include "acl_util.h"

TEST(argument_checks)
{
	uint64_t *p;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_ERR(aclrtValueWrite(NULL, 1, 0, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtValueWrite(p, 1, 1, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtValueWait(p, 1, 4, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtValueWait((char *)p + 4, 1, 0, NULL), ACL_ERROR_RT_ADDR_UNALIGNED);
	CHECK_ACL_ERR(aclrtValueWrite(&p, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
	aclrtFree(p);
}

/* Stream w waits for @cond on *p, then writes 1 to flag; s writes @v. */
static void one_condition(uint32_t cond, uint64_t init, uint64_t v, uint64_t cmp)
{
	aclrtStreamStatus st;
	aclrtStream s, w;
	uint64_t *p;
	int *flag, out = 0;

	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&flag, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&w));
	SKIP_IF_NOT_SUPPORTED(aclrtValueWrite(p, init, 0, s));
	REQUIRE_ACL(launch_write(s, flag, 0, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	REQUIRE_ACL(aclrtValueWait(p, cmp, cond, w));
	REQUIRE_ACL(launch_write(w, flag, 1, 1));
	usleep(20000);
	CHECK_ACL_OK(aclrtStreamQuery(w, &st));
	CHECK_EQ(st, ACL_STREAM_STATUS_NOT_READY);	/* still blocked */
	REQUIRE_ACL(aclrtValueWrite(p, v, 0, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(w));
	CHECK_EQ(read_dev_ints(s, flag, &out, 1), 1);
	CHECK_EQ(out, 1);
	aclrtDestroyStream(s);
	aclrtDestroyStream(w);
	aclrtFree(p);
	aclrtFree(flag);
}

TEST(wait_geq)
{
	acl_setup();
	one_condition(ACL_STREAM_WAIT_VALUE_GEQ, 1, 10, 5);
}

TEST(wait_eq)
{
	acl_setup();
	one_condition(ACL_STREAM_WAIT_VALUE_EQ, 1, 42, 42);
}

TEST(wait_and)
{
	acl_setup();
	one_condition(ACL_STREAM_WAIT_VALUE_AND, 0x1, 0x6, 0x4);
}

TEST(wait_nor)
{
	acl_setup();
	/* ~(x | value) != 0: blocked while x | value is all ones */
	one_condition(ACL_STREAM_WAIT_VALUE_NOR, ~0ULL, 0, 0xff);
}

int main(void)
{
	return tap_main();
}
