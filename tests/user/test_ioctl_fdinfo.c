// SPDX-License-Identifier: MIT
/*
 * The driver's DRM usage statistics in /proc/<pid>/fdinfo/<fd>
 * (Documentation/uapi.rst, "Usage statistics"): the keys, the bytes of HBM
 * and pinned host memory a file holds (equal to what DEV_QUERY tells the
 * file, following BO_CREATE, HOST_ALLOC and their release exactly), one
 * drm-client-id per open file shared by its duplicated descriptors, and
 * who may read them: the process's own user and root, not another user.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ioctl_util.h"

#define OTHER_UID 60031
#define MIB (1ULL << 20)

struct stats {
	char driver[32];
	unsigned long long client, hbm, hbm_res, mem, mem_res;
	int keys;		/* how many of the six were there */
};

/* Parse the fdinfo of @pid's descriptor @fd; -errno when it cannot be read. */
static int read_stats(pid_t pid, int fd, struct stats *st)
{
	char path[64], line[256];
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		static const char *const keys[] = {
			"drm-client-id:", "drm-total-hbm:", "drm-resident-hbm:",
			"drm-total-memory:", "drm-resident-memory:",
		};
		unsigned long long *vals[] = {
			&st->client, &st->hbm, &st->hbm_res, &st->mem, &st->mem_res,
		};
		char unit[8] = "";

		if (sscanf(line, "drm-driver: %31s", st->driver) == 1) {
			st->keys++;
			continue;
		}
		for (unsigned int i = 0; i < 5; i++) {
			size_t n = strlen(keys[i]);
			int got;

			if (strncmp(line, keys[i], n))
				continue;
			got = sscanf(line + n, "%llu %7s", vals[i], unit);
			/* bytes, no unit: exact numbers */
			if (got == 1)
				st->keys++;
			else
				printf("#   unexpected: %s", line);
		}
	}
	fclose(f);
	return 0;
}

static void stats_of(int fd, struct stats *st)
{
	REQUIRE(read_stats(getpid(), fd, st) == 0);
}

TEST(keys_of_a_new_file)
{
	int fd = open_accel();
	struct stats st;

	stats_of(fd, &st);
	CHECK_EQ(st.keys, 6);
	CHECK(!strcmp(st.driver, "ascend"));
	CHECK(st.client > 0);
	CHECK_EQ(st.hbm, 0);
	CHECK_EQ(st.hbm_res, 0);
	CHECK_EQ(st.mem, 0);
	CHECK_EQ(st.mem_res, 0);
	close(fd);
}

/* Every step: the bytes of the BOs, what DEV_QUERY says, resident = total. */
TEST(hbm_follows_bo_create_and_free)
{
	struct drm_ascend_bo_create a, b;
	struct drm_ascend_device_info info;
	int fd = open_accel();
	struct stats st;

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 3 * MIB + 1, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	stats_of(fd, &st);
	query_info(fd, &info);
	CHECK_EQ(st.hbm, a.alloc_size);
	CHECK_EQ(st.hbm, info.hbm_used_by_file);
	CHECK_EQ(st.hbm_res, st.hbm);
	CHECK(a.alloc_size >= 3 * MIB + 1);

	REQUIRE_OK(bo_create(fd, 64 * 1024, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	stats_of(fd, &st);
	query_info(fd, &info);
	CHECK_EQ(st.hbm, a.alloc_size + b.alloc_size);
	CHECK_EQ(st.hbm, info.hbm_used_by_file);

	REQUIRE_OK(gem_close(fd, a.handle));
	stats_of(fd, &st);
	query_info(fd, &info);
	CHECK_EQ(st.hbm, b.alloc_size);
	CHECK_EQ(st.hbm, info.hbm_used_by_file);

	REQUIRE_OK(gem_close(fd, b.handle));
	stats_of(fd, &st);
	CHECK_EQ(st.hbm, 0);
	CHECK_EQ(st.hbm_res, 0);
	close(fd);
}

/* A handle-less allocation freed on the free ring is not held any more. */
TEST(hbm_freed_on_the_free_ring)
{
	struct drm_ascend_free_ring_create rc = { 0 };
	struct drm_ascend_free_ring *ring;
	struct drm_ascend_bo_create a;
	int fd = open_accel();
	struct stats st;
	uint64_t *slots;
	void *p;

	setup_window(fd);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &rc));
	p = mmap(NULL, rc.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)rc.mmap_offset);
	REQUIRE(p != MAP_FAILED);
	ring = p;
	slots = (uint64_t *)((char *)p + DRM_ASCEND_FREE_RING_VA_OFFSET);
	REQUIRE_OK(bo_create(fd, 64 * 1024, DRM_ASCEND_BO_NORMAL_ONLY,
			     DRM_ASCEND_BO_NO_HANDLE, &a));
	stats_of(fd, &st);
	CHECK_EQ(st.hbm, a.alloc_size);

	slots[ring->tail % rc.entries] = a.va;
	__atomic_store_n(&ring->tail, ring->tail + 1, __ATOMIC_RELEASE);
	stats_of(fd, &st);
	CHECK_EQ(st.hbm, 0);
	munmap(p, rc.mmap_size);
	close(fd);
}

TEST(pinned_host_memory)
{
	struct drm_ascend_host_alloc h = { .size = 5 * 4096 };
	struct drm_ascend_device_info info;
	struct drm_gem_close c = { 0 };
	int fd = open_accel();
	struct stats st;

	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &h));
	stats_of(fd, &st);
	query_info(fd, &info);
	CHECK_EQ(st.mem, info.host_pinned_by_file);
	CHECK(st.mem >= 5 * 4096);
	CHECK_EQ(st.mem_res, st.mem);
	CHECK_EQ(st.hbm, 0);
	c.handle = h.handle;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_GEM_CLOSE, &c));
	stats_of(fd, &st);
	CHECK_EQ(st.mem, 0);
	close(fd);
}

/* dup()ed descriptors are one file; another open() is another client. */
TEST(one_client_id_per_open_file)
{
	struct drm_ascend_bo_create a;
	int fd = open_accel(), fd2 = dup(fd), other = open_accel();
	struct stats s1, s2, s3;

	REQUIRE(fd2 >= 0);
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, MIB, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	stats_of(fd, &s1);
	stats_of(fd2, &s2);
	stats_of(other, &s3);
	CHECK_EQ(s1.client, s2.client);
	CHECK_NE(s1.client, s3.client);
	CHECK_EQ(s2.hbm, a.alloc_size);
	CHECK_EQ(s3.hbm, 0);
	close(fd);
	close(fd2);
	close(other);
}

static void become(uid_t uid)
{
	REQUIRE(setgroups(0, NULL) == 0);
	REQUIRE(setresgid(uid, uid, uid) == 0);
	REQUIRE(setresuid(uid, uid, uid) == 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/* Another user may not read this process's statistics; root reads theirs. */
TEST(other_users_cannot_read_them)
{
	int fd = open_accel(), pfd[2], qfd[2], st;
	struct { int fd; uint64_t size; } held = { -1, 0 };
	struct stats s;
	struct stat node;
	pid_t pid;
	char c;

	REQUIRE(stat(ACCEL_NODE, &node) == 0);
	REQUIRE(chmod(ACCEL_NODE, 0666) == 0);
	REQUIRE(pipe(pfd) == 0 && pipe(qfd) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct drm_ascend_bo_create a;
		int mine;

		close(pfd[0]);
		close(qfd[1]);
		become(OTHER_UID);
		/* root's file: not readable */
		if (read_stats(getppid(), fd, &s) != -EACCES)
			_exit(1);
		mine = open(ACCEL_NODE, O_RDWR | O_CLOEXEC);
		if (mine < 0)
			_exit(2);
		setup_window(mine);
		if (bo_create(mine, MIB, DRM_ASCEND_BO_HUGE_FIRST, 0, &a))
			_exit(3);
		/* its own: readable */
		if (read_stats(getpid(), mine, &s) || s.hbm != a.alloc_size)
			_exit(4);
		held.fd = mine;
		held.size = a.alloc_size;
		if (write(pfd[1], &held, sizeof(held)) != sizeof(held))
			_exit(5);
		if (read(qfd[0], &c, 1) < 0)
			_exit(6);
		_exit(0);
	}
	close(pfd[1]);
	close(qfd[0]);
	CHECK(read(pfd[0], &held, sizeof(held)) == sizeof(held));
	if (held.fd >= 0) {
		CHECK_EQ(read_stats(pid, held.fd, &s), 0);
		CHECK_EQ(s.hbm, held.size);
		CHECK(held.size >= MIB);
		CHECK(!strcmp(s.driver, "ascend"));
	}
	close(qfd[1]);
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		printf("#   child exit status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	chmod(ACCEL_NODE, node.st_mode & 07777);
	close(fd);
}

int main(void)
{
	return tap_main();
}
