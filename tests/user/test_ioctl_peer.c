// SPDX-License-Identifier: MIT
/*
 * test_ioctl_peer - raw DRM_IOCTL_ASCEND_PEER between two devices: the
 * enable / disable / query state and its errors, one direction only,
 * links gone with either file, files of another process refused, and
 * copies naming the other device's memory refused while access is off.
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

int main(void)
{
	return tap_main();
}
