// SPDX-License-Identifier: MIT
/*
 * test_ioctl_ipc - raw IPC_EXPORT / IPC_SET_PID / IPC_IMPORT / IPC_CLOSE:
 * device memory and events shared between processes (fork), the pid
 * allow-list enforced by the kernel, the exporter leaving first, an
 * importer killed while it reads, and key guessing that never succeeds
 * and fails exactly like a refused process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ioctl_util.h"

#define BUF_SIZE	(64 * 1024)

/* A file with a window: what every process here starts with. */
static int open_ready(void)
{
	int fd = open_accel();

	setup_window(fd);
	return fd;
}

static void fill_pattern(uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static int check_pattern(const uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(seed + i * 7))
			return 0;
	return 1;
}

/* A BO of @size filled with the pattern of @seed. */
static struct drm_ascend_bo_create make_bo(int fd, size_t size, uint8_t seed)
{
	struct drm_ascend_bo_create bo;
	uint8_t *buf = malloc(size);

	REQUIRE(buf);
	REQUIRE_OK(bo_create(fd, size, DRM_ASCEND_BO_HUGE_FIRST, 0, &bo));
	fill_pattern(buf, size, seed);
	REQUIRE_OK(dev_copy(fd, bo.va, (uintptr_t)buf, size));
	free(buf);
	return bo;
}

/* Does [va, va + n) on @fd hold the pattern of @seed? */
static int dev_has_pattern(int fd, uint64_t va, size_t n, uint8_t seed)
{
	uint8_t *buf = calloc(1, n);
	int ok;

	if (!buf || dev_copy(fd, (uintptr_t)buf, va, n))
		return 0;
	ok = check_pattern(buf, n, seed);
	free(buf);
	return ok;
}

static int ipc_export_mem(int fd, uint64_t va, uint64_t size, uint32_t flags,
			  char key[DRM_ASCEND_IPC_KEY_LEN])
{
	struct drm_ascend_ipc_export e = {
		.type = DRM_ASCEND_IPC_MEM, .flags = flags,
		.va = va, .size = size,
	};
	int ret = aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e);

	if (!ret)
		memcpy(key, e.key, DRM_ASCEND_IPC_KEY_LEN);
	return ret;
}

static int ipc_set_pid(int fd, const char *key, int32_t pid)
{
	struct drm_ascend_ipc_set_pid s = { .pids = (uintptr_t)&pid, .count = 1 };

	memcpy(s.key, key, DRM_ASCEND_IPC_KEY_LEN);
	return aioctl(fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &s);
}

static int ipc_import(int fd, const char *key, uint32_t type,
		      struct drm_ascend_ipc_import *im)
{
	memset(im, 0, sizeof(*im));
	memcpy(im->key, key, DRM_ASCEND_IPC_KEY_LEN);
	im->type = type;
	return aioctl(fd, DRM_IOCTL_ASCEND_IPC_IMPORT, im);
}

static int ipc_close(int fd, const char *key)
{
	struct drm_ascend_ipc_close c = { 0 };

	memcpy(c.key, key, DRM_ASCEND_IPC_KEY_LEN);
	return aioctl(fd, DRM_IOCTL_ASCEND_IPC_CLOSE, &c);
}

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Child: import @key, expect the pattern; exit 0, or a step number. */
/* What the children of the recycled-pid cases import: MEM or PHYS. */
static uint32_t child_type = DRM_ASCEND_IPC_MEM;

static void child_import_check(const char *key, size_t size, uint8_t seed)
{
	struct drm_ascend_ipc_import im;
	int fd = open_ready();

	if (child_type == DRM_ASCEND_IPC_PHYS) {
		/* a handle to the allocation: nothing mapped, no bytes here */
		if (ipc_import(fd, key, DRM_ASCEND_IPC_PHYS, &im))
			_exit(2);
		if (im.size != size || !im.handle || im.va || !im.page_size)
			_exit(3);
		_exit(gem_close(fd, im.handle) ? 6 : 0);
	}
	if (ipc_import(fd, key, DRM_ASCEND_IPC_MEM, &im))
		_exit(2);
	if (im.size != size || !im.handle || !im.va)
		_exit(3);
	if (!dev_has_pattern(fd, im.va, size, seed))
		_exit(4);
	/* writes of the importer are the exporter's bytes too */
	{
		uint8_t b = 0xa5;

		if (dev_copy(fd, im.va, (uintptr_t)&b, 1))
			_exit(5);
	}
	if (gem_close(fd, im.handle))
		_exit(6);
	_exit(0);
}

/* Child: importing @key fails with -ENOENT; also SET_PID/CLOSE on it. */
static void child_import_refused(const char *key)
{
	struct drm_ascend_ipc_import im;
	int fd = open_ready();

	if (ipc_import(fd, key, child_type, &im) != -ENOENT)
		_exit(2);
	/* not the exporting file: no pid setting, no close */
	if (ipc_set_pid(fd, key, getpid()) != -ENOENT)
		_exit(3);
	if (ipc_close(fd, key) != -ENOENT)
		_exit(4);
	_exit(0);
}

TEST(caps)
{
	struct drm_ascend_device_info info;
	int fd = open_accel();

	query_info(fd, &info);
	CHECK(info.capabilities & DRM_ASCEND_CAP_IPC);
	close(fd);
}

TEST(export_args)
{
	int fd = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 1);
	struct drm_ascend_ipc_export e;
	char key[DRM_ASCEND_IPC_KEY_LEN];

	memset(&e, 0, sizeof(e));
	e.type = 3;
	e.va = bo.va;
	e.size = 16;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), EINVAL);
	e.type = DRM_ASCEND_IPC_MEM;
	e.flags = 2;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), EINVAL);
	e.flags = 0;
	e.pad = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), EINVAL);
	e.pad = 0;
	e.size = 0;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), EINVAL);
	/* not inside one allocation */
	CHECK_ERRNO(ipc_export_mem(fd, bo.va, bo.alloc_size + 1, 0, key),
		    EINVAL);
	CHECK_ERRNO(ipc_export_mem(fd, bo.va - 4096, 16, 0, key), EINVAL);
	CHECK_ERRNO(ipc_export_mem(fd, 0x1000, 16, 0, key), EINVAL);
	/* events: an unknown handle */
	memset(&e, 0, sizeof(e));
	e.type = DRM_ASCEND_IPC_EVENT;
	e.event = 12345;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), ENOENT);

	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE, 0, key));
	CHECK_EQ(strlen(key), 64);
	for (int i = 0; i < 64; i++)
		CHECK((key[i] >= '0' && key[i] <= '9') ||
		      (key[i] >= 'a' && key[i] <= 'f'));
	/* bad SET_PID arguments */
	{
		struct drm_ascend_ipc_set_pid s = { 0 };
		int32_t pid = 0;

		memcpy(s.key, key, sizeof(s.key));
		s.pids = (uintptr_t)&pid;
		CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &s), EINVAL);
		s.count = 1;
		CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &s), EINVAL);
		s.count = 1025;
		CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &s), EINVAL);
		s.count = 1;
		s.pids = KERNEL_ADDR;
		CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &s), EFAULT);
	}
	CHECK_EQ(ipc_close(fd, key), 0);
	CHECK_ERRNO(ipc_close(fd, key), ENOENT);
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	close(fd);
}

/* A notify's word: exported as 8 aligned bytes, imported only as a notify. */
TEST(notify_export_import)
{
	int fd = open_ready(), fd2 = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, 4096, 0);
	struct drm_ascend_ipc_export e;
	struct drm_ascend_ipc_import im, mem;
	uint64_t one = 1, got = 0;

	memset(&e, 0, sizeof(e));
	e.type = DRM_ASCEND_IPC_NOTIFY;
	e.va = bo.va;
	e.size = 16;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), EINVAL);
	e.size = 8;
	e.va = bo.va + 8;		/* not at the start of a page */
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), EINVAL);
	e.va = bo.va;
	e.event = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e), EINVAL);
	e.event = 0;
	e.flags = DRM_ASCEND_IPC_NO_PID_CHECK;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e));
	/* a notify key is no memory key, and the other way round */
	CHECK_ERRNO(ipc_import(fd2, e.key, DRM_ASCEND_IPC_MEM, &mem), ENOENT);
	REQUIRE_OK(ipc_import(fd2, e.key, DRM_ASCEND_IPC_NOTIFY, &im));
	CHECK_EQ(im.size, 8);
	/* the importer's word is the exporter's */
	REQUIRE_OK(dev_copy(fd2, im.va, (uintptr_t)&one, 8));
	REQUIRE_OK(dev_copy(fd, (uintptr_t)&got, bo.va, 8));
	CHECK_EQ(got, 1);
	CHECK_EQ(gem_close(fd2, im.handle), 0);
	CHECK_EQ(ipc_close(fd, e.key), 0);
	{
		char key[DRM_ASCEND_IPC_KEY_LEN];

		REQUIRE_OK(ipc_export_mem(fd, bo.va, 4096, DRM_ASCEND_IPC_NO_PID_CHECK, key));
		CHECK_ERRNO(ipc_import(fd2, key, DRM_ASCEND_IPC_NOTIFY, &im), ENOENT);
		CHECK_EQ(ipc_close(fd, key), 0);
	}
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	close(fd2);
	close(fd);
}

/* In one process: a second file imports; the creator frees first. */
TEST(import_same_process)
{
	int fd = open_ready(), fd2 = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 3);
	struct drm_ascend_ipc_import im;
	char key[DRM_ASCEND_IPC_KEY_LEN];

	/* a part of the allocation */
	REQUIRE_OK(ipc_export_mem(fd, bo.va + 4096, 8192, 0, key));
	REQUIRE_OK(ipc_import(fd2, key, DRM_ASCEND_IPC_MEM, &im));
	CHECK_EQ(im.size, 8192);
	CHECK(im.va != bo.va + 4096);
	{
		uint8_t *want = malloc(BUF_SIZE), got[8192];

		REQUIRE(want);
		fill_pattern(want, BUF_SIZE, 3);
		REQUIRE_OK(dev_copy(fd2, (uintptr_t)got, im.va, sizeof(got)));
		CHECK(!memcmp(got, want + 4096, sizeof(got)));
		free(want);
	}
	/* only the exported part is mapped: the next byte faults */
	{
		uint8_t b;

		CHECK_ERRNO(dev_copy(fd2, (uintptr_t)&b, im.va + 8192, 1),
			    EFAULT);
	}
	/* wrong type */
	{
		struct drm_ascend_ipc_import ev;

		CHECK_ERRNO(ipc_import(fd2, key, DRM_ASCEND_IPC_EVENT, &ev),
			    ENOENT);
	}
	/* the exporter frees and withdraws: the import lives on */
	CHECK_EQ(ipc_close(fd, key), 0);
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	{
		struct drm_ascend_ipc_import again;

		CHECK_ERRNO(ipc_import(fd2, key, DRM_ASCEND_IPC_MEM, &again),
			    ENOENT);
	}
	{
		uint8_t *want = malloc(BUF_SIZE), got[8192];

		REQUIRE(want);
		fill_pattern(want, BUF_SIZE, 3);
		REQUIRE_OK(dev_copy(fd2, (uintptr_t)got, im.va, sizeof(got)));
		CHECK(!memcmp(got, want + 4096, sizeof(got)));
		free(want);
	}
	CHECK_EQ(gem_close(fd2, im.handle), 0);
	/* PRIME export of a BO stays refused */
	{
		struct drm_ascend_bo_create b2 = make_bo(fd, 4096, 0);
		int pfd = -1;

		CHECK(drmPrimeHandleToFD(fd, b2.handle, DRM_CLOEXEC, &pfd) != 0);
		gem_close(fd, b2.handle);
	}
	close(fd2);
	close(fd);
}

/* Allow-list: a listed process imports, a third process is refused. */
TEST(pid_validation)
{
	int fd = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 5);
	char key[DRM_ASCEND_IPC_KEY_LEN];
	int go[2];
	pid_t allowed, other;
	char c;

	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE, 0, key));
	REQUIRE(pipe(go) == 0);
	allowed = fork();
	REQUIRE(allowed >= 0);
	if (allowed == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(10);
		child_import_check(key, BUF_SIZE, 5);
	}
	other = fork();
	REQUIRE(other >= 0);
	if (other == 0)
		child_import_refused(key);
	CHECK_EQ(wait_child(other), 0);

	CHECK_EQ(ipc_set_pid(fd, key, allowed), 0);
	REQUIRE(write(go[1], "x", 1) == 1);
	CHECK_EQ(wait_child(allowed), 0);
	/* the importer's write is visible to the exporter */
	{
		uint8_t b = 0;

		REQUIRE_OK(dev_copy(fd, (uintptr_t)&b, bo.va, 1));
		CHECK_EQ(b, 0xa5);
	}
	CHECK_EQ(ipc_close(fd, key), 0);
	gem_close(fd, bo.handle);
	close(fd);
}

/* The bare tgid of the caller (DEV_QUERY), its getpid() outside namespaces. */
TEST(bare_tgid_and_unknown_pids)
{
	struct drm_ascend_device_info info;
	int fd = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 3);
	char key[DRM_ASCEND_IPC_KEY_LEN];
	pid_t gone;

	query_info(fd, &info);
	CHECK_EQ(info.bare_tgid, getpid());
	CHECK_EQ(info.reserved, 0);
	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE, 0, key));
	/* a number of no live process: refused, nothing listed */
	gone = fork();
	REQUIRE(gone >= 0);
	if (gone == 0)
		_exit(0);
	CHECK_EQ(wait_child(gone), 0);
	CHECK_EQ(ipc_set_pid(fd, key, gone), -ESRCH);
	CHECK_EQ(ipc_set_pid(fd, key, getpid()), 0);
	CHECK_EQ(ipc_close(fd, key), 0);
	gem_close(fd, bo.handle);
	close(fd);
}

/* Write @v to /proc/sys/kernel/pid_max; 0 or -1. */
static int set_pid_max(const char *v)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(v, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

/*
 * A listed process exits and another one gets its number: the newcomer is
 * not on the list (the kernel lists processes, not numbers).  pid_max is
 * lowered for the test, first, so that numbers come round within a few
 * hundred forks; it is put back before the verdict.
 */
static void recycled_pid_case(uint32_t type)
{
	int fd = open_ready();
	struct drm_ascend_bo_create bo = { 0 };
	struct drm_ascend_phys_alloc pa = {
		.size = BUF_SIZE, .policy = DRM_ASCEND_BO_NORMAL_ONLY,
	};
	char key[DRM_ASCEND_IPC_KEY_LEN];
	char old_max[32] = "", c;
	int go[2], tries, bad = 0;
	pid_t listed, p = 0;
	size_t size = BUF_SIZE;
	FILE *f;

	child_type = type;
	if (type == DRM_ASCEND_IPC_PHYS) {
		struct drm_ascend_ipc_export e = { .type = DRM_ASCEND_IPC_PHYS };
		struct drm_ascend_device_info info;

		query_info(fd, &info);
		if (!(info.capabilities & DRM_ASCEND_CAP_VMM))
			SKIP("the driver has no DRM_ASCEND_CAP_VMM");
		REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_PHYS_ALLOC, &pa));
		size = pa.alloc_size;
		e.event = pa.handle;
		REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e));
		memcpy(key, e.key, sizeof(key));
	} else {
		bo = make_bo(fd, BUF_SIZE, 4);
		REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE, 0, key));
	}
	REQUIRE(pipe(go) == 0);
	f = fopen("/proc/sys/kernel/pid_max", "r");
	if (!f || !fgets(old_max, sizeof(old_max), f))
		SKIP("no /proc/sys/kernel/pid_max");
	fclose(f);
	if (set_pid_max("400\n"))
		SKIP("cannot lower pid_max");
	/*
	 * Numbers wrap to 300, not below (RESERVED_PIDS): a listed process
	 * below 300 (a fresh VM running this program alone) would never get
	 * its number reused.  Forks until the next number is 300 or more.
	 */
	for (tries = 0; tries < 400; tries++) {
		p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0 || wait_child(p) || p >= 299)
			break;
	}
	p = 0;

	listed = fork();
	if (listed == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(10);
		child_import_check(key, size, 4);
	}
	if (listed < 0 || ipc_set_pid(fd, key, listed) ||
	    write(go[1], "x", 1) != 1 || wait_child(listed))
		bad = 1;	/* it could import, and is gone */
	/* children until one has the listed number; it must be refused */
	for (tries = 0; !bad && tries < 2000 && p != listed; tries++) {
		p = fork();
		if (p < 0) {
			bad = 2;
			break;
		}
		if (p == 0) {
			if (getpid() == listed)
				child_import_refused(key);
			_exit(0);
		}
		if (wait_child(p))
			bad = 3;
	}
	CHECK_EQ(set_pid_max(old_max), 0);
	CHECK_EQ(bad, 0);
	CHECK_EQ(p, listed);
	CHECK_EQ(ipc_close(fd, key), 0);
	gem_close(fd, type == DRM_ASCEND_IPC_PHYS ? pa.handle : bo.handle);
	close(fd);
	child_type = DRM_ASCEND_IPC_MEM;
}

TEST(recycled_pid_refused)
{
	recycled_pid_case(DRM_ASCEND_IPC_MEM);
}

/* The same for a physical allocation (aclrtMemSetPidToShareableHandle). */
TEST(recycled_pid_refused_physical)
{
	recycled_pid_case(DRM_ASCEND_IPC_PHYS);
}

/*
 * The process started by ns_spawn(): pid 1 of a PID namespace of its own.
 * It reads its number in the initial namespace from @rd, checks getpid()
 * is 1 and DEVICE_INFO's bare_tgid is that number, then imports @key
 * (@allowed) or is refused (!@allowed).
 */
static void ns_child(int rd, const char *key, int allowed)
{
	struct drm_ascend_device_info info;
	int32_t global;
	int fd;

	if (read(rd, &global, sizeof(global)) != sizeof(global))
		_exit(20);
	if (getpid() != 1)
		_exit(21);
	fd = open_ready();
	query_info(fd, &info);
	if (info.bare_tgid != global)
		_exit(22);
	close(fd);
	if (allowed)
		child_import_check(key, BUF_SIZE, 4);
	child_import_refused(key);
}

/*
 * Start ns_child() in a new PID namespace: a child unshares and forks it.
 * *@global: its number in our (the initial) namespace; *@wr: where to
 * send it.  Returns the middle child, which exits with its status; 0 when
 * PID namespaces cannot be made (no CAP_SYS_ADMIN).
 */
static pid_t ns_spawn(const char *key, int allowed, pid_t *global, int *wr)
{
	int go[2], rep[2];
	pid_t mid, g;

	REQUIRE(pipe(go) == 0 && pipe(rep) == 0);
	mid = fork();
	REQUIRE(mid >= 0);
	if (mid == 0) {
		if (unshare(CLONE_NEWPID))
			_exit(30);
		g = fork();
		if (g == 0)
			ns_child(go[0], key, allowed);
		/* our namespace is the initial one: g is the global number */
		if (g < 0 || write(rep[1], &g, sizeof(g)) != sizeof(g))
			_exit(31);
		_exit(wait_child(g));
	}
	close(rep[1]);
	if (read(rep[0], global, sizeof(*global)) != sizeof(*global)) {
		REQUIRE(wait_child(mid) == 30);
		return 0;
	}
	*wr = go[1];
	close(go[0]);
	close(rep[0]);
	return mid;
}

/*
 * PID namespaces: two processes, each pid 1 of a namespace of its own
 * (siblings: the same number names different processes).  The allow-list
 * names one of them by its number in the initial namespace, which is what
 * DEVICE_INFO's bare_tgid (and aclrtDeviceGetBareTgid) tells each; that
 * one imports, its sibling is refused.
 */
TEST(pid_namespaces_siblings)
{
	int fd = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 4);
	char key[DRM_ASCEND_IPC_KEY_LEN];
	pid_t ma, mb, ga = 0, gb = 0;
	int wa = -1, wb = -1;

	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE, 0, key));
	ma = ns_spawn(key, 1, &ga, &wa);
	if (!ma)
		SKIP("cannot create PID namespaces");
	mb = ns_spawn(key, 0, &gb, &wb);
	REQUIRE(mb > 0);
	CHECK(ga != gb && ga > 1 && gb > 1);
	CHECK_EQ(ipc_set_pid(fd, key, ga), 0);
	REQUIRE(write(wa, &ga, sizeof(ga)) == sizeof(ga));
	CHECK_EQ(wait_child(ma), 0);
	REQUIRE(write(wb, &gb, sizeof(gb)) == sizeof(gb));
	CHECK_EQ(wait_child(mb), 0);
	close(wa);
	close(wb);
	CHECK_EQ(ipc_close(fd, key), 0);
	gem_close(fd, bo.handle);
	close(fd);
}

TEST(no_pid_check)
{
	int fd = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 7);
	char key[DRM_ASCEND_IPC_KEY_LEN];
	pid_t pid;

	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE,
				  DRM_ASCEND_IPC_NO_PID_CHECK, key));
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		child_import_check(key, BUF_SIZE, 7);
	CHECK_EQ(wait_child(pid), 0);
	CHECK_EQ(ipc_close(fd, key), 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		child_import_refused(key);	/* withdrawn */
	CHECK_EQ(wait_child(pid), 0);
	gem_close(fd, bo.handle);
	close(fd);
}

/* The exporting process frees and exits while we hold an import. */
TEST(exporter_exits_first)
{
	int keyp[2], go[2];
	char key[DRM_ASCEND_IPC_KEY_LEN];
	struct drm_ascend_ipc_import im;
	int fd = open_ready();
	pid_t exporter;
	char c;

	REQUIRE(pipe(keyp) == 0 && pipe(go) == 0);
	exporter = fork();
	REQUIRE(exporter >= 0);
	if (exporter == 0) {
		int efd = open_ready();
		struct drm_ascend_bo_create bo = make_bo(efd, BUF_SIZE, 9);

		if (ipc_export_mem(efd, bo.va, BUF_SIZE, 0, key) ||
		    ipc_set_pid(efd, key, getppid()))
			_exit(2);
		if (write(keyp[1], key, sizeof(key)) != sizeof(key))
			_exit(3);
		if (read(go[0], &c, 1) != 1)
			_exit(4);
		/* aclrtFree without aclrtIpcMemClose, then exit */
		if (gem_close(efd, bo.handle))
			_exit(5);
		_exit(0);
	}
	REQUIRE(read(keyp[0], key, sizeof(key)) == sizeof(key));
	REQUIRE_OK(ipc_import(fd, key, DRM_ASCEND_IPC_MEM, &im));
	REQUIRE(write(go[1], "x", 1) == 1);
	CHECK_EQ(wait_child(exporter), 0);

	CHECK(dev_has_pattern(fd, im.va, BUF_SIZE, 9));
	/* the export went with its file */
	{
		struct drm_ascend_ipc_import again;

		CHECK_ERRNO(ipc_import(fd, key, DRM_ASCEND_IPC_MEM, &again),
			    ENOENT);
	}
	CHECK_EQ(gem_close(fd, im.handle), 0);
	close(fd);
}

/* An importer killed in the middle of reading takes only its mapping. */
TEST(importer_killed_while_reading)
{
	int fd = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 11);
	char key[DRM_ASCEND_IPC_KEY_LEN];
	int ready[2];
	pid_t pid;
	char c;

	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE,
				  DRM_ASCEND_IPC_NO_PID_CHECK, key));
	REQUIRE(pipe(ready) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct drm_ascend_ipc_import im;
		int cfd = open_ready();
		static uint8_t buf[BUF_SIZE];

		if (ipc_import(cfd, key, DRM_ASCEND_IPC_MEM, &im))
			_exit(2);
		if (write(ready[1], "x", 1) != 1)
			_exit(3);
		for (;;)
			if (dev_copy(cfd, (uintptr_t)buf, im.va, BUF_SIZE) ||
			    !check_pattern(buf, BUF_SIZE, 11))
				_exit(4);
	}
	REQUIRE(read(ready[0], &c, 1) == 1);
	kill(pid, SIGKILL);
	CHECK_EQ(wait_child(pid), 128 + SIGKILL);

	CHECK(dev_has_pattern(fd, bo.va, BUF_SIZE, 11));
	/* the export is still there for the next importer */
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		child_import_check(key, BUF_SIZE, 11);
	CHECK_EQ(wait_child(pid), 0);
	CHECK_EQ(ipc_close(fd, key), 0);
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	close(fd);
}

/* 1,000 random keys never import, and fail like a refused process. */
TEST(key_brute_force)
{
	int fd = open_ready();
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 13);
	char key[DRM_ASCEND_IPC_KEY_LEN], open_key[DRM_ASCEND_IPC_KEY_LEN];
	pid_t pid;

	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE, 0, key));
	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE,
				  DRM_ASCEND_IPC_NO_PID_CHECK, open_key));
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct drm_ascend_ipc_import im;
		int cfd = open_ready(), refused, i, j;
		char guess[DRM_ASCEND_IPC_KEY_LEN];

		srand(getpid());
		/* the real key, but this process is not on the list */
		refused = ipc_import(cfd, key, DRM_ASCEND_IPC_MEM, &im);
		if (refused != -ENOENT)
			_exit(2);
		for (i = 0; i < 1000; i++) {
			for (j = 0; j < 64; j++)
				guess[j] = "0123456789abcdef"[rand() % 16];
			guess[64] = '\0';
			if (ipc_import(cfd, guess, DRM_ASCEND_IPC_MEM, &im) !=
			    refused)
				_exit(3);
			if (ipc_import(cfd, guess, DRM_ASCEND_IPC_EVENT, &im) !=
			    refused)
				_exit(4);
		}
		/* malformed: no NUL, empty */
		memset(guess, 'a', sizeof(guess));
		if (ipc_import(cfd, guess, DRM_ASCEND_IPC_MEM, &im) != refused)
			_exit(5);
		memset(guess, 0, sizeof(guess));
		if (ipc_import(cfd, guess, DRM_ASCEND_IPC_MEM, &im) != refused)
			_exit(6);
		/* an open export with one digit changed */
		memcpy(guess, open_key, sizeof(guess));
		guess[63] = guess[63] == '0' ? '1' : '0';
		if (ipc_import(cfd, guess, DRM_ASCEND_IPC_MEM, &im) != refused)
			_exit(7);
		_exit(0);
	}
	CHECK_EQ(wait_child(pid), 0);
	CHECK_EQ(ipc_close(fd, key), 0);
	CHECK_EQ(ipc_close(fd, open_key), 0);
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	close(fd);
}

/* Another process waits on our event: one generation counter. */
TEST(event_wait_across_processes)
{
	int fd = open_ready();
	struct drm_ascend_event_create ec = { 0 };
	struct drm_ascend_ipc_export e = { .type = DRM_ASCEND_IPC_EVENT };
	struct drm_ascend_event_signal sig = { 0 };
	int ready[2], go[2];
	pid_t pid;
	char c;

	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &ec));
	e.event = ec.handle;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e));
	REQUIRE(pipe(ready) == 0 && pipe(go) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct drm_ascend_ipc_import im;
		struct drm_ascend_event_wait w = { 0 };
		int cfd = open_ready();

		if (read(go[0], &c, 1) != 1)
			_exit(2);
		if (ipc_import(cfd, e.key, DRM_ASCEND_IPC_MEM, &im) != -ENOENT)
			_exit(3);
		if (ipc_import(cfd, e.key, DRM_ASCEND_IPC_EVENT, &im))
			_exit(4);
		if (write(ready[1], "x", 1) != 1)
			_exit(5);
		w.handle = im.handle;
		w.gen = 1;
		w.timeout_ns = DRM_ASCEND_TIMEOUT_INFINITE;
		if (aioctl(cfd, DRM_IOCTL_ASCEND_EVENT_WAIT, &w) ||
		    w.completed < 1)
			_exit(6);
		/* our signal is the exporter's too */
		{
			struct drm_ascend_event_signal s = {
				.handle = im.handle, .gen = 2,
			};

			if (aioctl(cfd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s))
				_exit(7);
		}
		_exit(0);
	}
	CHECK_EQ(ipc_set_pid(fd, e.key, pid), 0);
	REQUIRE(write(go[1], "x", 1) == 1);
	REQUIRE(read(ready[0], &c, 1) == 1);
	sig.handle = ec.handle;
	sig.gen = 1;
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &sig), 0);
	CHECK_EQ(wait_child(pid), 0);
	{
		struct drm_ascend_event_wait w = {
			.handle = ec.handle, .gen = 2, .timeout_ns = 0,
		};

		CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, &w), 0);
		CHECK_EQ(w.completed, 2);
	}
	CHECK_EQ(ipc_close(fd, e.key), 0);
	close(fd);
}

/* The generation @fd's @handle has completed (a poll, no sleep). */
static int event_gen_now(int fd, uint32_t handle, uint64_t *completed)
{
	struct drm_ascend_event_wait w = { .handle = handle };
	int ret = aioctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, &w);

	*completed = w.completed;
	return ret;
}

/*
 * An event of device 0 imported into a file of device 1: one slot, which
 * either file signals and waits on; memory still stays on its device; the
 * import keeps the event alive after the creator's handle and the export
 * are gone.
 */
TEST(event_import_into_other_device)
{
	int fd = open_ready(), fd1 = open("/dev/accel/accel1", O_RDWR | O_CLOEXEC);
	struct drm_ascend_event_create ec = { 0 };
	struct drm_ascend_ipc_export e = { .type = DRM_ASCEND_IPC_EVENT };
	struct drm_ascend_event_destroy ed = { 0 };
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create bo;
	struct drm_ascend_ipc_import im;
	char key[DRM_ASCEND_IPC_KEY_LEN];
	uint64_t done = 0;

	if (fd1 < 0)
		SKIP("needs num_devices >= 2 (/dev/accel/accel1)");
	setup_window(fd1);
	query_info(fd1, &info);
	REQUIRE(info.capabilities & DRM_ASCEND_CAP_IPC_EVENT_ANY_DEVICE);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &ec));
	e.event = ec.handle;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &e));
	REQUIRE_OK(ipc_set_pid(fd, e.key, getpid()));
	REQUIRE_OK(ipc_import(fd1, e.key, DRM_ASCEND_IPC_EVENT, &im));

	/* memory is still its device's alone */
	bo = make_bo(fd, BUF_SIZE, 1);
	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE, 0, key));
	REQUIRE_OK(ipc_set_pid(fd, key, getpid()));
	{
		struct drm_ascend_ipc_import mi;

		CHECK_EQ(ipc_import(fd1, key, DRM_ASCEND_IPC_MEM, &mi), -ENOENT);
	}

	/* a signal through either file is the other's generation */
	{
		struct drm_ascend_event_signal s1 = { .handle = im.handle, .gen = 3 };
		struct drm_ascend_event_signal s0 = { .handle = ec.handle, .gen = 5 };

		CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s1), 0);
		CHECK_EQ(event_gen_now(fd, ec.handle, &done), 0);
		CHECK_EQ(done, 3);
		CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s0), 0);
		CHECK_EQ(event_gen_now(fd1, im.handle, &done), 0);
		CHECK_EQ(done, 5);
	}

	/* the creator's handle and the export go; the import lives on */
	ed.handle = ec.handle;
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_DESTROY, &ed), 0);
	CHECK_EQ(ipc_close(fd, e.key), 0);
	{
		struct drm_ascend_event_signal s1 = { .handle = im.handle, .gen = 6 };
		struct drm_ascend_event_wait w = {
			.handle = im.handle, .gen = 6,
			.timeout_ns = DRM_ASCEND_TIMEOUT_INFINITE,
		};

		CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s1), 0);
		CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_EVENT_WAIT, &w), 0);
		CHECK_EQ(w.completed, 6);
	}
	ed.handle = im.handle;
	CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_EVENT_DESTROY, &ed), 0);
	CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_EVENT_DESTROY, &ed), -ENOENT);
	CHECK_EQ(ipc_close(fd, key), 0);
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	close(fd1);
	close(fd);
}

#define HBM_DEBUGFS	"/sys/kernel/debug/accel/ascend.0/hbm"
#define STALL_KNOB	"/sys/kernel/debug/accel/ascend.0/stall_ipc_import"

static int write_knob(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(val, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Does debugfs hbm list an import of process @pid?  -1: unreadable. */
static int hbm_lists_import(pid_t pid)
{
	char line[512], col[16];
	FILE *f = fopen(HBM_DEBUGFS, "r");
	int found = 0;

	if (!f)
		return -1;
	snprintf(col, sizeof(col), "%8d ", (int)pid);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, col, strlen(col)) && strstr(line, " import@"))
			found = 1;
	fclose(f);
	return found;
}

/*
 * debugfs hbm while an import is half done: the memory is mapped in the
 * importer's address space (so the map lists it), the handle not there
 * yet.  The importer is held in that window by the stall_ipc_import knob
 * while this process reads the map; the listed object must be complete.
 */
TEST(debugfs_hbm_during_import)
{
	int fd = open_ready(), seen = 0, i, st;
	struct drm_ascend_bo_create bo = make_bo(fd, BUF_SIZE, 9);
	char key[DRM_ASCEND_IPC_KEY_LEN];
	pid_t pid;

	if (access(HBM_DEBUGFS, R_OK) || write_knob(STALL_KNOB, "1")) {
		close(fd);
		SKIP("no debugfs hbm or stall_ipc_import");
	}
	REQUIRE_OK(ipc_export_mem(fd, bo.va, BUF_SIZE,
				  DRM_ASCEND_IPC_NO_PID_CHECK, key));
	pid = fork();
	REQUIRE(pid >= 0);
	if (!pid)
		child_import_check(key, BUF_SIZE, 9);
	/* the import stalls at most 10 s; look for it for 8 */
	for (i = 0; i < 800 && !seen; i++) {
		seen = hbm_lists_import(pid);
		if (!seen)
			usleep(10000);
	}
	CHECK_EQ(write_knob(STALL_KNOB, "0"), 0);
	CHECK_EQ(seen, 1);
	st = wait_child(pid);
	CHECK_EQ(st, 0);
	CHECK_EQ(ipc_close(fd, key), 0);
	CHECK_EQ(gem_close(fd, bo.handle), 0);
	close(fd);
}

int main(void)
{
	return tap_main();
}
