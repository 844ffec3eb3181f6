// SPDX-License-Identifier: MIT
/*
 * aclInit/aclFinalize and aclGetRecentErrMsg: reference counting rules and
 * error codes as CANN implements them (cann-api-facts.md section 7).
 */
#define _GNU_SOURCE
#include "acl_util.h"

TEST(init_finalize)
{
	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_OK(aclFinalize());
}

TEST(repeat_init_100002)
{
	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	CHECK_ACL_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	/* One aclFinalize undoes any number of aclInit calls. */
	CHECK_ACL_OK(aclFinalize());
	CHECK_ACL_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(repeat_finalize_100037)
{
	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_OK(aclFinalize());
	CHECK_ACL_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(init_after_finalize)
{
	int round;

	for (round = 0; round < 3; round++) {
		CHECK_ACL_OK(aclInit(NULL));
		CHECK_ACL_OK(aclrtSetDevice(0));
		CHECK_ACL_OK(aclrtResetDevice(0));
		CHECK_ACL_OK(aclFinalize());
	}
}

TEST(init_bad_config_path)
{
	/* A config file that does not exist is an error, not a crash. */
	CHECK_ACL_FAIL(aclInit("/nonexistent/acl.json"));
}

TEST(errmsg_names_the_failure)
{
	const char *m;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	m = aclGetRecentErrMsg();
	REQUIRE(m != NULL);
	CHECK(strstr(m, "aclrtSetDevice") != NULL);
	/* Like CANN's, the message is handed out once. */
	m = aclGetRecentErrMsg();
	CHECK(m == NULL || m[0] == '\0');
	aclFinalize();
}

TEST(errmsg_before_any_failure_is_safe)
{
	/* No failure yet: NULL or an empty string, never garbage. */
	const char *m = aclGetRecentErrMsg();

	CHECK(m == NULL || m[0] == '\0');
}

int main(void)
{
	return tap_main();
}
