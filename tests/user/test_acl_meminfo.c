// SPDX-License-Identifier: MIT
/*
 * aclrtGetMemInfo: every aclrtMemAttr, argument checks, free memory moving
 * by each allocation's size class and coming back after frees, and after a
 * process holding allocations is killed; small allocations freed by a
 * process that lives on (the kernel's small-block cache) count as free, to
 * it and to other processes, and never make an allocation fail.
 *
 * Device memory is counted per device across processes; the test programs
 * run one after another, so nobody else allocates meanwhile.
 */
#define _GNU_SOURCE
#include <time.h>

#include "acl_util.h"

#define SZ_2M	((size_t)2 << 20)

TEST(every_attr)
{
	size_t f[ACL_MEM_P2P_HUGE1G + 1], t[ACL_MEM_P2P_HUGE1G + 1];
	int a;

	acl_setup();
	for (a = 0; a <= ACL_MEM_P2P_HUGE1G; a++) {
		f[a] = t[a] = 12345;
		CHECK_ACL_OK(aclrtGetMemInfo((aclrtMemAttr)a, &f[a], &t[a]));
		CHECK(f[a] <= t[a]);
	}
	/* The device has no DDR. */
	CHECK_EQ(f[ACL_DDR_MEM], 0);
	CHECK_EQ(t[ACL_DDR_MEM], 0);
	CHECK_EQ(t[ACL_DDR_MEM_HUGE] + t[ACL_DDR_MEM_NORMAL] + t[ACL_DDR_MEM_P2P_HUGE] +
		 t[ACL_DDR_MEM_P2P_NORMAL], 0);
	/* HBM: one total, and the legacy, new and P2P names agree. */
	CHECK(t[ACL_HBM_MEM] > 0);
	CHECK(f[ACL_HBM_MEM] > 0);
	for (a = ACL_HBM_MEM_HUGE; a <= ACL_MEM_P2P_HUGE1G; a++)
		if (a != ACL_DDR_MEM_P2P_HUGE && a != ACL_DDR_MEM_P2P_NORMAL)
			CHECK_EQ(t[a], t[ACL_HBM_MEM]);
	CHECK_EQ(f[ACL_HBM_MEM_NORMAL], f[ACL_HBM_MEM]);
	CHECK_EQ(f[ACL_MEM_NORMAL], f[ACL_HBM_MEM]);
	CHECK_EQ(f[ACL_MEM_P2P_NORMAL], f[ACL_HBM_MEM]);
	CHECK_EQ(f[ACL_HBM_MEM_P2P_NORMAL], f[ACL_HBM_MEM]);
	CHECK_EQ(f[ACL_MEM_HUGE], f[ACL_HBM_MEM_HUGE]);
	CHECK_EQ(f[ACL_MEM_P2P_HUGE], f[ACL_HBM_MEM_HUGE]);
	CHECK_EQ(f[ACL_HBM_MEM_P2P_HUGE], f[ACL_HBM_MEM_HUGE]);
	CHECK_EQ(f[ACL_MEM_HUGE1G], f[ACL_HBM_MEM_HUGE1G]);
	CHECK_EQ(f[ACL_MEM_P2P_HUGE1G], f[ACL_HBM_MEM_HUGE1G]);
	CHECK_EQ(f[ACL_HBM_MEM_P2P_HUGE1G], f[ACL_HBM_MEM_HUGE1G]);
	/* Bigger pages can use at most what smaller ones can. */
	CHECK(f[ACL_HBM_MEM_HUGE] <= f[ACL_HBM_MEM]);
	CHECK(f[ACL_HBM_MEM_HUGE1G] <= f[ACL_HBM_MEM_HUGE]);
	CHECK_EQ(f[ACL_HBM_MEM_HUGE] % SZ_2M, 0);
	CHECK_EQ(f[ACL_HBM_MEM_HUGE1G] % ((size_t)1 << 30), 0);
}

TEST(null_outputs_100000)
{
	size_t f, t;

	acl_setup();
	CHECK_ACL_ERR(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetMemInfo(ACL_HBM_MEM, &f, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(bad_attr_100000)
{
	size_t f, t;

	acl_setup();
	CHECK_ACL_ERR(aclrtGetMemInfo((aclrtMemAttr)(ACL_MEM_P2P_HUGE1G + 1), &f, &t),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetMemInfo((aclrtMemAttr)-1, &f, &t), ACL_ERROR_INVALID_PARAM);
}

TEST(no_device_107002)
{
	size_t f, t;
	const char *m;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "aclrtGetMemInfo"));
	aclFinalize();
}

TEST(moves_by_size_class_and_returns)
{
	size_t start = 0, start_huge = 0, f;
	void *small = NULL, *mid = NULL, *huge = NULL;

	acl_setup();
	start = acl_mem_free(ACL_HBM_MEM);
	start_huge = acl_mem_free(ACL_HBM_MEM_HUGE);

	/* 100 bytes: 160 with rounding and padding, one normal page. */
	REQUIRE_ACL(aclrtMalloc(&small, 100, ACL_MEM_MALLOC_NORMAL_ONLY));
	f = acl_mem_free(ACL_HBM_MEM);
	CHECK_EQ(start - f, 4096);
	CHECK_EQ(start - f, acl_alloc_size(small));

	/* 3 MiB with HUGE_FIRST: two huge pages. */
	REQUIRE_ACL(aclrtMalloc(&mid, 3 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_EQ(f - acl_mem_free(ACL_HBM_MEM), 2 * SZ_2M);
	CHECK_EQ(acl_alloc_size(mid), 2 * SZ_2M);
	f = acl_mem_free(ACL_HBM_MEM);

	/* One byte, HUGE_ONLY: one huge page. */
	REQUIRE_ACL(aclrtMalloc(&huge, 1, ACL_MEM_MALLOC_HUGE_ONLY));
	CHECK_EQ(f - acl_mem_free(ACL_HBM_MEM), SZ_2M);
	CHECK_EQ(acl_alloc_size(huge), SZ_2M);
	CHECK(acl_mem_free(ACL_HBM_MEM_HUGE) <= start_huge - 3 * SZ_2M);

	CHECK_ACL_OK(aclrtFree(mid));
	CHECK_ACL_OK(aclrtFree(small));
	CHECK_ACL_OK(aclrtFreeWithDevSync(huge));
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), start);
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM_HUGE), start_huge);
}

TEST(returns_after_reset)
{
	size_t start;
	void *p;
	int i;

	acl_setup();
	start = acl_mem_free(ACL_HBM_MEM);
	for (i = 0; i < 8; i++)
		REQUIRE_ACL(aclrtMalloc(&p, (size_t)(i + 1) << 19, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(acl_mem_free(ACL_HBM_MEM) < start);
	REQUIRE_ACL(aclrtResetDevice(0));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), start);
}

static void read_full(int fd, void *buf, size_t n)
{
	REQUIRE(read(fd, buf, n) == (ssize_t)n);
}

static void write_full(int fd, const void *buf, size_t n)
{
	REQUIRE(write(fd, buf, n) == (ssize_t)n);
}

/* The kernel frees a killed process's memory when its file is released:
 * poll for it (bounded) rather than assume when that happens. */
static size_t wait_free(size_t want)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	size_t f = 0;
	int i;

	for (i = 0; i < 500; i++) {
		f = acl_mem_free(ACL_HBM_MEM);
		if (f == want)
			break;
		nanosleep(&ts, NULL);
	}
	return f;
}

TEST(returns_after_child_killed)
{
	int go[2], ready[2], status;
	size_t start, during;
	pid_t pid;
	char c = 0;

	REQUIRE(pipe(go) == 0 && pipe(ready) == 0);
	/* The child must not inherit an initialised libaclrt: fork first. */
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		void *p;
		int i;

		read_full(go[0], &c, 1);
		acl_setup();
		/* 4 MiB with the 32 bytes of padding: two huge pages each */
		for (i = 0; i < 3; i++)
			REQUIRE_ACL(aclrtMalloc(&p, (4 << 20) - 32, ACL_MEM_MALLOC_HUGE_ONLY));
		for (i = 0; i < 10; i++)
			REQUIRE_ACL(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
		write_full(ready[1], &c, 1);
		for (;;)
			pause();
	}
	acl_setup();
	start = acl_mem_free(ACL_HBM_MEM);
	write_full(go[1], &c, 1);
	read_full(ready[0], &c, 1);
	during = acl_mem_free(ACL_HBM_MEM);
	CHECK_EQ(start - during, 3 * (4 << 20) + 10 * 4096);
	REQUIRE(kill(pid, SIGKILL) == 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK_EQ(wait_free(start), start);
}

/* Small frees are free at once: for this process and for others. */
TEST(small_frees_seen_by_others)
{
	int go[2], ready[2], done[2], status;
	size_t start, start_huge, total = 0, f = 0;
	pid_t pid;
	char c = 0;

	REQUIRE(pipe(go) == 0 && pipe(ready) == 0 && pipe(done) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		void *p[64];
		size_t s0;
		int i, r;

		read_full(go[0], &c, 1);
		acl_setup();
		s0 = acl_mem_free(ACL_HBM_MEM);
		/* malloc/free churn of small sizes, as the benchmark does */
		for (r = 0; r < 50; r++) {
			for (i = 0; i < 64; i++)
				REQUIRE_ACL(aclrtMalloc(&p[i], 4096 << (i % 5),
							ACL_MEM_MALLOC_HUGE_FIRST));
			REQUIRE(acl_mem_free(ACL_HBM_MEM) < s0);
			for (i = 0; i < 64; i++)
				REQUIRE_ACL(aclrtFree(p[i]));
			REQUIRE(acl_mem_free(ACL_HBM_MEM) == s0);
		}
		/* the same again, and then the VA is reused without faults */
		for (i = 0; i < 1000; i++) {
			REQUIRE_ACL(aclrtMalloc(&p[0], 4096, ACL_MEM_MALLOC_HUGE_FIRST));
			REQUIRE_ACL(aclrtMemset(p[0], 4096, 0x5a, 4096));
			REQUIRE_ACL(aclrtFree(p[0]));
		}
		write_full(ready[1], &c, 1);
		read_full(done[0], &c, 1);	/* stay alive while the parent looks */
		_exit(0);
	}
	acl_setup();
	start = acl_mem_free(ACL_HBM_MEM);
	start_huge = acl_mem_free(ACL_HBM_MEM_HUGE);
	write_full(go[1], &c, 1);
	read_full(ready[0], &c, 1);
	/* the child is alive with everything freed: all of it is free */
	CHECK_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &total));
	CHECK_EQ(f, start);
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM_HUGE), start_huge);
	write_full(done[1], &c, 1);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), start);
}

int main(void)
{
	return tap_main();
}
