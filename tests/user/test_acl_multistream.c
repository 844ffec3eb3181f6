// SPDX-License-Identifier: MIT
/*
 * Many streams: 64 streams in each of 4 processes, each stream writing
 * its own value, all checked.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "acl_util.h"

static int child(int id)
{
	enum { N = 64 };
	aclrtStream s[N];
	struct capture c;
	int *p, v[N], i, bad = 0;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, N * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < N; i++)
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
	capture_begin(&c);
	for (i = 0; i < N; i++)
		REQUIRE_ACL(launch_write(s[i], p + i, id * 1000 + i, 1));
	for (i = 0; i < N; i++)
		REQUIRE_ACL(aclrtSynchronizeStream(s[i]));
	free(capture_end(&c));
	if (read_dev_ints(s[0], p, v, N) != N)
		return 2;
	for (i = 0; i < N; i++)
		bad += v[i] != id * 1000 + i;
	for (i = 0; i < N; i++)
		REQUIRE_ACL(aclrtDestroyStream(s[i]));
	return bad ? 3 : 0;
}

/*
 * CANN's per-device limit on Atlas A2/A3 parts: 1984 streams in one
 * process, the default stream included.  1983 created streams and the
 * default one each write their own bytes; the next aclrtCreateStream
 * fails with ACL_ERROR_RT_NO_STREAM_RESOURCE and says why; one destroyed
 * stream makes room for one more.
 */
TEST(streams_1984_per_device_default_included)
{
	enum { N = 1983 };
	static aclrtStream s[N];
	static uint8_t host[(N + 1) * 4];
	aclrtStream extra;
	uint8_t *p;
	int i, bad = 0;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, sizeof(host), ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < N; i++)
		REQUIRE_ACL(aclrtCreateStream(&s[i]));
	for (i = 0; i < N; i++)
		REQUIRE_ACL(aclrtMemsetAsync(p + 4 * i, 4, (i * 7 + 1) & 0xff, 4, s[i]));
	/* the default stream is the 1984th: its slot was kept */
	REQUIRE_ACL(aclrtMemsetAsync(p + 4 * N, 4, 0x5a, 4, NULL));
	CHECK_EQ(aclrtCreateStream(&extra), ACL_ERROR_RT_NO_STREAM_RESOURCE);
	/* the message names the limit (reading it consumes it) */
	CHECK(strstr(acl_errmsg(), "at most 1984") != NULL);
	for (i = 0; i < N; i++)
		REQUIRE_ACL(aclrtSynchronizeStream(s[i]));
	REQUIRE_ACL(aclrtSynchronizeStream(NULL));
	REQUIRE_ACL(aclrtMemcpy(host, sizeof(host), p, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < N * 4; i++)
		bad += host[i] != (((i / 4) * 7 + 1) & 0xff);
	for (i = N * 4; i < (N + 1) * 4; i++)
		bad += host[i] != 0x5a;
	CHECK_EQ(bad, 0);

	REQUIRE_ACL(aclrtDestroyStream(s[0]));
	CHECK_ACL_OK(aclrtCreateStream(&s[0]));
	for (i = 0; i < N; i++)
		CHECK_ACL_OK(aclrtDestroyStream(s[i]));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_ACL_OK(aclFinalize());
}

TEST(streams_64_x_processes_4)
{
	pid_t pid[4];
	int i, st;

	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		REQUIRE(pid[i] >= 0);
		if (pid[i] == 0) {
			fflush(stdout);
			_exit(child(i + 1));
		}
	}
	for (i = 0; i < 4; i++) {
		REQUIRE(waitpid(pid[i], &st, 0) == pid[i]);
		CHECK(WIFEXITED(st));
		CHECK_EQ(WEXITSTATUS(st), 0);
	}
}

int main(void)
{
	return tap_main();
}
