// SPDX-License-Identifier: MIT
/*
 * The free ring (DRM_IOCTL_ASCEND_FREE_RING_CREATE): argument checks, the
 * protocol with raw ioctls, aclrtFree of a small allocation making no
 * system call while every observable number stays exact (GetMemInfo of
 * this and of another process, an allocation of another process on a
 * full device), a hostile ring hurting only its owner, double free, a
 * full ring, and close giving everything back.
 *
 * drmIoctl() is interposed (as ascend-bench does) to count libaclrt's
 * system calls.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <xf86drm.h>

#include "acl_util.h"
#include "ascend_accel.h"
#include "ioctl_util.h"

static unsigned long n_ioctls;

int drmIoctl(int fd, unsigned long request, void *arg)
{
	int ret;

	__atomic_fetch_add(&n_ioctls, 1, __ATOMIC_RELAXED);
	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

struct ring {
	struct drm_ascend_free_ring *hdr;
	uint64_t *va;
	uint32_t entries;
	size_t size;
};

static int ring_create(int fd, uint32_t entries, struct ring *r)
{
	struct drm_ascend_free_ring_create c = { .entries = entries };
	void *p;
	int ret = aioctl(fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c);

	if (ret)
		return ret;
	p = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)c.mmap_offset);
	REQUIRE(p != MAP_FAILED);
	r->hdr = p;
	r->va = (uint64_t *)((char *)p + DRM_ASCEND_FREE_RING_VA_OFFSET);
	r->entries = c.entries;
	r->size = c.mmap_size;
	return 0;
}

static void ring_push(struct ring *r, uint64_t va)
{
	uint64_t t = r->hdr->tail;

	r->va[t & (r->entries - 1)] = va;
	__atomic_store_n(&r->hdr->tail, t + 1, __ATOMIC_RELEASE);
}

static struct drm_ascend_device_info info_of(int fd)
{
	struct drm_ascend_device_info info;

	query_info(fd, &info);
	return info;
}

static uint64_t small_bo(int fd)
{
	struct drm_ascend_bo_create bo;

	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY,
			     DRM_ASCEND_BO_NO_HANDLE, &bo));
	return bo.va;
}

static int bo_free_va(int fd, uint64_t va)
{
	struct drm_ascend_bo_free f = { .va = va };

	return aioctl(fd, DRM_IOCTL_ASCEND_BO_FREE, &f);
}

TEST(create_args)
{
	struct drm_ascend_free_ring_create c;
	struct ring r;
	void *p;
	int fd = open_accel();

	memset(&c, 0, sizeof(c));
	c.flags = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c), EINVAL);
	memset(&c, 0, sizeof(c));
	c.reserved = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c), EINVAL);
	memset(&c, 0, sizeof(c));
	c.entries = 3;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c), EINVAL);
	c.entries = 2 * DRM_ASCEND_FREE_RING_MAX_ENTRIES;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c), EINVAL);

	REQUIRE_OK(ring_create(fd, 0, &r));
	CHECK_EQ(r.entries, DRM_ASCEND_FREE_RING_DEFAULT_ENTRIES);
	CHECK_EQ(r.hdr->entries, r.entries);
	CHECK_EQ(r.hdr->head, 0);
	CHECK_EQ(r.hdr->tail, 0);
	CHECK(r.size >= DRM_ASCEND_FREE_RING_VA_OFFSET + 8 * r.entries);
	/* one per file */
	memset(&c, 0, sizeof(c));
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c), EBUSY);
	/* a private mapping would not be shared with the kernel */
	p = mmap(NULL, r.size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(p == MAP_FAILED);
	close(fd);
	/* the mapping outlives the file */
	r.hdr->tail = 7;
	CHECK_EQ(r.hdr->entries, r.entries);
	munmap(r.hdr, r.size);
}

TEST(raw_protocol)
{
	int fd = open_accel();
	uint64_t a, b, c, used0;
	struct ring r;

	setup_window(fd);
	REQUIRE_OK(ring_create(fd, 8, &r));
	CHECK_EQ(r.entries, 8);
	used0 = info_of(fd).hbm_used_by_file;
	a = small_bo(fd);
	b = small_bo(fd);
	c = small_bo(fd);
	CHECK_EQ(info_of(fd).hbm_used_by_file, used0 + 3 * 4096);
	ring_push(&r, a);
	ring_push(&r, b);
	/* the query drains: exact at once */
	CHECK_EQ(info_of(fd).hbm_used_by_file, used0 + 4096);
	CHECK_EQ(r.hdr->head, 2);
	/* freed through the ring: BO_FREE finds nothing */
	CHECK_ERRNO(bo_free_va(fd, a), EINVAL);
	CHECK_ERRNO(bo_free_va(fd, b), EINVAL);
	/* BO_FREE drains first: c published, then freed by BO_FREE = gone */
	ring_push(&r, c);
	CHECK_ERRNO(bo_free_va(fd, c), EINVAL);
	CHECK_EQ(r.hdr->head, 3);
	CHECK_EQ(info_of(fd).hbm_used_by_file, used0);
	/* wrap around the 8 slots several times, drained by BO_CREATE */
	for (int i = 0; i < 40; i++) {
		a = small_bo(fd);
		ring_push(&r, a);
	}
	CHECK_EQ(info_of(fd).hbm_used_by_file, used0);
	CHECK_EQ(r.hdr->head, r.hdr->tail);
	close(fd);
}

/* A file scribbling its own ring affects nobody else, and not the kernel. */
TEST(hostile_ring)
{
	int victim = open_accel(), fd = open_accel();
	uint64_t theirs[4], used_v, used_f, seed = 0x9e3779b97f4a7c15ULL;
	struct ring r;
	int i, k;

	setup_window(victim);
	setup_window(fd);
	REQUIRE_OK(ring_create(fd, 16, &r));
	for (i = 0; i < 4; i++) {
		theirs[i] = small_bo(victim);
		(void)small_bo(fd);
	}
	used_v = info_of(victim).hbm_used_by_file;
	used_f = info_of(fd).hbm_used_by_file;

	for (k = 0; k < 2000; k++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		switch (seed >> 61) {
		case 0:	/* random tail, way ahead or behind */
			r.hdr->tail = seed ^ (seed << 17);
			break;
		case 1:
			r.hdr->tail = r.hdr->head - 1 - (seed & 7);
			break;
		case 2:	/* scribble the kernel's mirrors: never read back */
			r.hdr->head = seed;
			r.hdr->entries = (uint32_t)seed;
			break;
		default:	/* random VAs, the other file's VAs, kernel ones */
			for (i = 0; i < 16; i++)
				r.va[i] = (i & 3) == 0 ? theirs[i / 4] :
					  (i & 3) == 1 ? KERNEL_ADDR + i * 4096 :
					  (i & 3) == 2 ? theirs[i / 4] + 4096 :
					  seed * (i + 1);
			r.hdr->tail = r.hdr->head + (seed & 31);
			break;
		}
		if (k % 7 == 0)
			(void)info_of(fd);	/* drains every file */
		if (k % 11 == 0)
			(void)bo_free_va(fd, KERNEL_ADDR);
	}
	/* nothing of the victim's was freed; its frees still work */
	CHECK_EQ(info_of(victim).hbm_used_by_file, used_v);
	for (i = 0; i < 4; i++)
		CHECK_EQ(bo_free_va(victim, theirs[i]), 0);
	CHECK_EQ(info_of(victim).hbm_used_by_file, used_v - 4 * 4096);
	/* the scribbler's own allocations were never named: still there */
	CHECK_EQ(info_of(fd).hbm_used_by_file, used_f);
	/* a sane tail again: the ring works for its owner */
	r.hdr->tail = 0;
	(void)info_of(fd);
	close(victim);
	close(fd);
}

TEST(acl_free_no_syscall_meminfo_exact)
{
	size_t f0, f1, sz;
	unsigned long n;
	void *p, *big;

	acl_setup();
	f0 = acl_mem_free(ACL_HBM_MEM);
	REQUIRE_ACL(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	sz = acl_alloc_size(p);
	f1 = acl_mem_free(ACL_HBM_MEM);
	CHECK_EQ(f0 - f1, sz);
	n = n_ioctls;
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_EQ(n_ioctls, n);		/* through the ring */
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), f0);	/* and free at once */

	/* large: BO_FREE, just as exact */
	REQUIRE_ACL(aclrtMalloc(&big, 8 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	sz = acl_alloc_size(big);
	CHECK_EQ(f0 - acl_mem_free(ACL_HBM_MEM), sz);
	CHECK_ACL_OK(aclrtFree(big));
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), f0);
}

TEST(acl_double_free)
{
	void *p;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
	/* and again after the ring was drained */
	(void)acl_mem_free(ACL_HBM_MEM);
	CHECK_ACL_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
}

/* More frees than slots with no other call: the overflow goes by BO_FREE. */
TEST(acl_ring_full)
{
	enum { N = 600 };
	static void *p[N];
	size_t f0;
	int i;

	acl_setup();
	f0 = acl_mem_free(ACL_HBM_MEM);
	for (i = 0; i < N; i++)
		REQUIRE_ACL(aclrtMalloc(&p[i], 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	for (i = 0; i < N; i++)
		CHECK_ACL_OK(aclrtFree(p[i]));
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), f0);
}

static void xwrite(int fd, char c)
{
	REQUIRE(write(fd, &c, 1) == 1);
}

static char xread(int fd)
{
	char c = 0;

	REQUIRE(read(fd, &c, 1) == 1);
	return c;
}

/* Another process's query sees a free made through the ring at once. */
TEST(other_process_sees_ring_free)
{
	int go[2], done[2], st = 0, fd;
	pid_t pid;
	void *p;

	REQUIRE(pipe(go) == 0 && pipe(done) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		uint64_t before, after;

		close(go[1]);
		close(done[0]);
		fd = open_accel();
		xread(go[0]);		/* allocated */
		before = info_of(fd).hbm_free;
		xwrite(done[1], 'q');
		xread(go[0]);		/* freed through the ring */
		after = info_of(fd).hbm_free;
		_exit(after - before == 64 << 10 ? 0 : 1);
	}
	close(go[0]);
	close(done[1]);
	acl_setup();
	REQUIRE_ACL(aclrtMallocAlign32(&p, 64 << 10, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE(acl_alloc_size(p) == 64 << 10);
	xwrite(go[1], 'a');
	xread(done[0]);
	n_ioctls = 0;
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_EQ(n_ioctls, 0);
	xwrite(go[1], 'f');
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/*
 * The device full: this process frees 64 KiB through the ring and makes
 * no further call; another process's allocation of 64 KiB succeeds (its
 * allocation drains every ring before it fails).
 */
TEST(full_device_ring_free_reaches_other_process)
{
	static const struct { size_t size; aclrtMemMallocPolicy pol; } steps[] = {
		{ (size_t)1 << 30, ACL_MEM_MALLOC_HUGE_FIRST },
		{ (size_t)2 << 20, ACL_MEM_MALLOC_HUGE_ONLY },
		{ (size_t)64 << 10, ACL_MEM_MALLOC_NORMAL_ONLY },
		{ (size_t)4 << 10, ACL_MEM_MALLOC_NORMAL_ONLY },
	};
	int go[2], done[2], st = 0, s;
	void *last64, *p;
	size_t n = 0;
	pid_t pid;

	REQUIRE(pipe(go) == 0 && pipe(done) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		void *q;
		aclError e;

		close(go[1]);
		close(done[0]);
		acl_setup();		/* opened before the device fills */
		xwrite(done[1], 'r');
		xread(go[0]);
		e = aclrtMallocAlign32(&q, 64 << 10, ACL_MEM_MALLOC_NORMAL_ONLY);
		if (e)
			printf("#   child: %d %s\n", e, acl_errmsg());
		_exit(e ? 1 : 0);
	}
	close(go[0]);
	close(done[1]);
	xread(done[0]);
	acl_setup();
	/* first, so that it is not the one that fills the last gap */
	REQUIRE_ACL(aclrtMallocAlign32(&last64, 64 << 10, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (s = 0; s < 4; s++) {
		for (;;) {
			aclError e = aclrtMallocAlign32(&p, steps[s].size, steps[s].pol);

			if (e == ACL_ERROR_RT_MEMORY_ALLOCATION)
				break;
			REQUIRE(e == ACL_SUCCESS);
			n++;
		}
	}
	printf("#   %zu allocations fill the device\n", n);
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), 0);
	n_ioctls = 0;
	CHECK_ACL_OK(aclrtFree(last64));	/* through the ring */
	CHECK_EQ(n_ioctls, 0);
	xwrite(go[1], 'g');
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* the other process got the 64 KiB, and gave it back at exit */
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), 64 << 10);
}

/* A process that dies with frees on its ring gives back every byte. */
TEST(exit_with_published_frees)
{
	int st = 0, fd = open_accel();
	uint64_t f0 = info_of(fd).hbm_free;
	pid_t pid = fork();

	REQUIRE(pid >= 0);
	if (pid == 0) {
		void *p[64];
		int i;

		acl_setup();
		for (i = 0; i < 64; i++)
			REQUIRE_ACL(aclrtMalloc(&p[i], 1000 * (i + 1), ACL_MEM_MALLOC_HUGE_FIRST));
		for (i = 0; i < 64; i += 2)
			REQUIRE_ACL(aclrtFree(p[i]));
		_exit(0);
	}
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(info_of(fd).hbm_free, f0);
	close(fd);
}

/*
 * Idle BOs (handle-less, freed whole with no queue) are kept per request
 * and taken back by request: taking one from the middle of those kept
 * leaves the others in place, each comes back at its own VA and reads
 * zeroes, and one more than the file keeps is given up at once.
 */
TEST(idle_bos_by_request)
{
	static const int order[] = { 3, 0, 7, 5, 1, 6, 2, 4, 8 };
	int fd = open_accel(), i, k, n = 9;
	struct drm_ascend_bo_create bo;
	uint64_t va[9], used0, total = 0;
	static char buf[9 * 4096];

	setup_window(fd);
	used0 = info_of(fd).hbm_used_by_file;
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < n; i++) {
		REQUIRE_OK(bo_create(fd, 4096 * (i + 1), DRM_ASCEND_BO_NORMAL_ONLY,
				     DRM_ASCEND_BO_NO_HANDLE, &bo));
		va[i] = bo.va;
		total += 4096 * (i + 1);
		CHECK_EQ(dev_copy(fd, va[i], (uintptr_t)buf, 4096 * (i + 1)), 0);
	}
	/* no statistics query in between: it would give the idle ones up */
	for (i = 0; i < n; i++)
		CHECK_EQ(bo_free_va(fd, va[i]), 0);
	for (k = 0; k < n; k++) {
		i = order[k];
		REQUIRE_OK(bo_create(fd, 4096 * (i + 1), DRM_ASCEND_BO_NORMAL_ONLY,
				     DRM_ASCEND_BO_NO_HANDLE, &bo));
		if (i < n - 1)		/* kept idle: the same BO again */
			CHECK_EQ(bo.va, va[i]);
		va[i] = bo.va;
		memset(buf, 1, sizeof(buf));
		CHECK_EQ(dev_copy(fd, (uintptr_t)buf, va[i], 4096 * (i + 1)), 0);
		CHECK(buf[0] == 0 && !memcmp(buf, buf + 1, 4096 * (i + 1) - 1));
	}
	CHECK_EQ(info_of(fd).hbm_used_by_file, used0 + total);
	for (i = 0; i < n; i++)
		CHECK_EQ(bo_free_va(fd, va[i]), 0);
	/* the query gives the idle ones up: exact */
	CHECK_EQ(info_of(fd).hbm_used_by_file, used0);
	close(fd);
}

int main(void)
{
	return tap_main();
}
