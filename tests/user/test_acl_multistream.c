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
