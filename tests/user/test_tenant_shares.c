// SPDX-License-Identifier: MIT
/*
 * Per-user shares of one NPU (Documentation/threat-model.rst): hardware
 * queues and HBM are charged to the user (uid) that opened the file and
 * refused past that user's share, so one user holding many files cannot
 * take what another user needs; the host memory a user causes (queue
 * areas, page arrays, pinned host pages) is charged to its memory cgroup.
 *
 * The shares are module parameters; each case lowers one for its run and
 * puts it back.  Attacker and victim are different unprivileged uids.
 */
#define _GNU_SOURCE
#define TAP_TIMEOUT 200
#include <dirent.h>
#include <grp.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ioctl_util.h"
#include "acl/acl.h"

#define ATTACKER_UID	60011
#define VICTIM_UID	60012
#define PARAM_DIR	"/sys/module/ascend/parameters/"

static long read_param(const char *name)
{
	char path[128];
	FILE *f;
	long v = -1;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int write_param(const char *name, long v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Drop root for good: @uid, its own group, no supplementary groups. */
static void become(uid_t uid)
{
	REQUIRE(setgroups(0, NULL) == 0);
	REQUIRE(setresgid(uid, uid, uid) == 0);
	REQUIRE(setresuid(uid, uid, uid) == 0);
	REQUIRE(geteuid() == uid);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
}

static mode_t node_mode;

static void node_open_up(void)
{
	struct stat st;

	REQUIRE(stat(ACCEL_NODE, &st) == 0);
	node_mode = st.st_mode & 07777;
	REQUIRE(chmod(ACCEL_NODE, 0666) == 0);
}

static void node_restore(void)
{
	chmod(ACCEL_NODE, node_mode);
}

/* Shared with the children: what they saw. */
struct report {
	int created;		/* queues / buffers that succeeded */
	int last_err;		/* the errno of the first refusal */
	uint32_t queues_by_user;
	uint32_t max_queues_by_user;
	uint64_t hbm_used_by_user;
	uint64_t hbm_user_quota;
	uint64_t unit;		/* the size of one buffer or stream */
	int victim_ok;
	volatile int ready;
	volatile int release;
};

static struct report *report_new(void)
{
	struct report *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	REQUIRE(r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	return r;
}

static void wait_child(pid_t pid)
{
	int status;

	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void wait_flag(volatile int *flag)
{
	int i;

	for (i = 0; i < 60000 && !*flag; i++)
		usleep(1000);
	REQUIRE(*flag);
}

/*
 * An attacker child that took what it could: tell the parent, keep it
 * while the victim runs, then exit (closing its files gives it back).
 */
static void __attribute__((noreturn)) hold_until_released(struct report *r)
{
	r->ready = 1;
	wait_flag(&r->release);
	_exit(0);
}

/*
 * One file is not limited to 64 queues any more (the user's share is the
 * bound): 100 queues in one file, each one working.
 */
TEST(one_file_holds_more_than_64_queues)
{
	static struct queue q[100];
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	int fd = open_accel(), i;
	uint64_t seq;

	for (i = 0; i < 100; i++)
		REQUIRE_OK(queue_create(fd, 16, &q[i]));
	for (i = 0; i < 100; i++) {
		cmd_nop(&c);
		seq = queue_submit(&q[i], &c);
		REQUIRE_OK(queue_wait(&q[i], seq, &w));
		CHECK_EQ(w.fault, 0);
		CHECK_EQ(w.completed, seq);
	}
	for (i = 0; i < 100; i++)
		CHECK_EQ(queue_destroy(&q[i], 0), 0);
	close(fd);
}

/*
 * The attacker's files together get user_max_queues queues, then -ENOSPC;
 * the victim still creates and uses a queue; the attacker's count goes
 * back to 0 once its files are closed.
 */
TEST(queue_share_per_user)
{
	long old = read_param("user_max_queues");
	struct report *r = report_new();
	pid_t att, vic;

	if (old < 0)
		SKIP("no user_max_queues parameter");
	node_open_up();
	REQUIRE(write_param("user_max_queues", 8) == 0);

	att = fork();
	REQUIRE(att >= 0);
	if (att == 0) {
		struct drm_ascend_device_info info;
		static struct queue q[16];
		int fds[4], i, ret;

		become(ATTACKER_UID);
		for (i = 0; i < 4; i++)
			fds[i] = open_accel();
		/* four files, as many queues as each gets */
		for (i = 0; i < 16; i++) {
			ret = queue_create(fds[i % 4], 16, &q[i]);
			if (ret) {
				r->last_err = -ret;
				break;
			}
			r->created++;
		}
		query_info(fds[0], &info);
		r->queues_by_user = info.queues_by_user;
		r->max_queues_by_user = info.max_queues_by_user;
		hold_until_released(r);
	}
	wait_flag(&r->ready);

	vic = fork();
	REQUIRE(vic >= 0);
	if (vic == 0) {
		struct drm_ascend_queue_wait w;
		struct ascend_cmd c;
		struct queue q;
		uint64_t seq;
		int fd;

		become(VICTIM_UID);
		fd = open_accel();
		REQUIRE_OK(queue_create(fd, 16, &q));
		cmd_nop(&c);
		seq = queue_submit(&q, &c);
		REQUIRE_OK(queue_wait(&q, seq, &w));
		r->victim_ok = w.fault == 0 && w.completed == seq;
		queue_destroy(&q, 0);
		close(fd);
		_exit(0);
	}
	wait_child(vic);
	r->release = 1;
	wait_child(att);

	CHECK_EQ(r->created, 8);
	CHECK_EQ(r->last_err, ENOSPC);
	CHECK_EQ(r->queues_by_user, 8);
	CHECK_EQ(r->max_queues_by_user, 8);
	CHECK(r->victim_ok);

	write_param("user_max_queues", old);
	node_restore();
	munmap(r, sizeof(*r));
}

/*
 * HBM: the attacker's files together get at most user_hbm_percent of what
 * the device can hold written (10 %), then -EDQUOT (never-written
 * buffers: no host memory needed); the victim still allocates; the
 * attacker's charge is visible in the query and goes when its buffers do.
 * The buffers are an eighth of the share, whatever the machine's memory
 * makes the share.
 */
TEST(hbm_quota_per_user)
{
	long old = read_param("user_hbm_percent");
	struct report *r = report_new();
	uint64_t unit;
	pid_t att, vic;

	if (old < 0)
		SKIP("no user_hbm_percent parameter");
	node_open_up();
	REQUIRE(write_param("user_hbm_percent", 10) == 0);

	att = fork();
	REQUIRE(att >= 0);
	if (att == 0) {
		struct drm_ascend_device_info info;
		struct drm_ascend_bo_create bo;
		int fds[2], i, ret;

		become(ATTACKER_UID);
		for (i = 0; i < 2; i++) {
			fds[i] = open_accel();
			setup_window(fds[i]);
		}
		/* the share as this uid sees it (root's is the whole device) */
		query_info(fds[0], &info);
		unit = (info.hbm_user_quota / 8) & ~((2ULL << 20) - 1);
		r->unit = unit;
		for (i = 0; unit && i < 1024; i++) {
			ret = bo_create(fds[i % 2], unit, 0, 0, &bo);
			if (ret) {
				r->last_err = -ret;
				break;
			}
			r->created++;
		}
		query_info(fds[0], &info);
		r->hbm_used_by_user = info.hbm_used_by_user;
		r->hbm_user_quota = info.hbm_user_quota;
		/* one byte more than the rest of the share is refused too */
		if (bo_create(fds[0], info.hbm_user_quota - info.hbm_used_by_user + 1,
			      0, 0, &bo) != -EDQUOT)
			r->created += 1000;
		hold_until_released(r);
	}
	wait_flag(&r->ready);
	unit = r->unit;
	REQUIRE(unit > 0);

	vic = fork();
	REQUIRE(vic >= 0);
	if (vic == 0) {
		struct drm_ascend_device_info info;
		struct drm_ascend_bo_create bo;
		int fd;

		become(VICTIM_UID);
		fd = open_accel();
		setup_window(fd);
		r->victim_ok = bo_create(fd, unit, 0, 0, &bo) == 0;
		query_info(fd, &info);
		if (info.hbm_used_by_user != bo.alloc_size)
			r->victim_ok = 0;
		close(fd);
		_exit(0);
	}
	wait_child(vic);
	r->release = 1;
	wait_child(att);

	REQUIRE(r->hbm_user_quota > 0);
	CHECK_EQ(r->last_err, EDQUOT);
	/* the share in buffers of an eighth of it, all it fits */
	CHECK_EQ((uint64_t)r->created, r->hbm_user_quota / unit);
	CHECK_EQ(r->hbm_used_by_user, (uint64_t)r->created * unit);
	CHECK(r->victim_ok);

	/* the attacker's charge went with its files */
	{
		struct drm_ascend_device_info info;
		int fd = open_accel();

		query_info(fd, &info);
		CHECK_EQ(info.hbm_used_by_user, 0);
		close(fd);
	}
	write_param("user_hbm_percent", old);
	node_restore();
	munmap(r, sizeof(*r));
}

/*
 * Written HBM takes host memory on the emulated NPU, and each device has
 * its slice of it (emu_backing_mb / num_devices).  The share is a part of
 * that slice, so an attacker that writes every byte of its share (the
 * default 50 %) leaves the victim room: its buffer takes the pattern and
 * reads it back.  With the share a part of the HBM (32 GiB) instead, the
 * attacker's fill would take all the host memory the device may use and
 * the victim's write would fail.
 */
TEST(hbm_written_share_leaves_room)
{
	struct report *r = report_new();
	pid_t att, vic;

	node_open_up();
	att = fork();
	REQUIRE(att >= 0);
	if (att == 0) {
		struct drm_ascend_device_info info;
		struct drm_ascend_bo_create bo;
		struct drm_ascend_fill f = { .pattern = 0xa5, .pattern_size = 1 };
		struct drm_ascend_va_window w = { 0 };
		uint64_t unit, align;
		int fd, i;

		become(ATTACKER_UID);
		fd = open_accel();
		query_info(fd, &info);
		r->hbm_user_quota = info.hbm_user_quota;
		unit = (info.hbm_user_quota / 8) & ~((2ULL << 20) - 1);
		if (unit > (64ULL << 20))
			unit = 64ULL << 20;
		/* a window for the whole share */
		align = info.va_window_align ? info.va_window_align : 4096;
		w.size = (info.hbm_user_quota + align - 1) & ~(align - 1);
		if (w.size < info.va_window_min_size)
			w.size = info.va_window_min_size;
		w.base = reserve_window(&info, w.size);
		REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w));
		for (i = 0; unit && i < 4096 &&
			    r->hbm_used_by_user + unit <= info.hbm_user_quota; i++) {
			if (bo_create(fd, unit, 0, 0, &bo)) {
				r->last_err = errno;
				break;
			}
			f.dst = bo.va;
			f.size = bo.alloc_size;
			if (aioctl(fd, DRM_IOCTL_ASCEND_FILL, &f)) {
				r->last_err = errno;
				break;
			}
			r->hbm_used_by_user += bo.alloc_size;
		}
		r->unit = unit;
		hold_until_released(r);
	}
	wait_flag(&r->ready);

	vic = fork();
	REQUIRE(vic >= 0);
	if (vic == 0) {
		enum { SIZE = 8 << 20 };
		static uint8_t back[SIZE];
		void *dev = NULL;
		size_t i;

		become(VICTIM_UID);
		if (aclInit(NULL) || aclrtSetDevice(0))
			_exit(2);
		if (aclrtMalloc(&dev, SIZE, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
		    aclrtMemset(dev, SIZE, 0x5a, SIZE) == ACL_SUCCESS &&
		    aclrtMemcpy(back, SIZE, dev, SIZE, ACL_MEMCPY_DEVICE_TO_HOST) ==
		    ACL_SUCCESS) {
			r->victim_ok = 1;
			for (i = 0; i < SIZE; i++)
				if (back[i] != 0x5a)
					r->victim_ok = 0;
		}
		aclrtFree(dev);
		aclrtResetDevice(0);
		aclFinalize();
		_exit(0);
	}
	wait_child(vic);
	r->release = 1;
	wait_child(att);

	printf("#   the attacker wrote %llu of its %llu bytes\n",
	       (unsigned long long)r->hbm_used_by_user,
	       (unsigned long long)r->hbm_user_quota);
	CHECK_EQ(r->last_err, 0);
	/* all the share but less than a buffer, every byte written */
	CHECK(r->unit > 0);
	CHECK(r->hbm_used_by_user + r->unit > r->hbm_user_quota);
	CHECK(r->victim_ok);
	node_restore();
	munmap(r, sizeof(*r));
}

/*
 * Event slots: the attacker's files together get user_max_events events,
 * then -ENOSPC; the victim still creates one.
 */
TEST(event_share_per_user)
{
	long old = read_param("user_max_events");
	struct report *r = report_new();
	pid_t att, vic;

	if (old < 0)
		SKIP("no user_max_events parameter");
	node_open_up();
	REQUIRE(write_param("user_max_events", 8) == 0);

	att = fork();
	REQUIRE(att >= 0);
	if (att == 0) {
		struct drm_ascend_event_create e;
		int fds[2], i, ret;

		become(ATTACKER_UID);
		fds[0] = open_accel();
		fds[1] = open_accel();
		for (i = 0; i < 16; i++) {
			memset(&e, 0, sizeof(e));
			ret = aioctl(fds[i % 2], DRM_IOCTL_ASCEND_EVENT_CREATE, &e);
			if (ret) {
				r->last_err = -ret;
				break;
			}
			r->created++;
		}
		hold_until_released(r);
	}
	wait_flag(&r->ready);

	vic = fork();
	REQUIRE(vic >= 0);
	if (vic == 0) {
		struct drm_ascend_event_create e = { 0 };
		int fd;

		become(VICTIM_UID);
		fd = open_accel();
		r->victim_ok = aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &e) == 0;
		close(fd);
		_exit(0);
	}
	wait_child(vic);
	r->release = 1;
	wait_child(att);

	CHECK_EQ(r->created, 8);
	CHECK_EQ(r->last_err, ENOSPC);
	CHECK(r->victim_ok);
	write_param("user_max_events", old);
	node_restore();
	munmap(r, sizeof(*r));
}

/* ---- memory cgroups ----------------------------------------------------- */

#define CG_ROOT	"/sys/fs/cgroup"
#define CG	CG_ROOT "/ascend-test"

static int cg_write(const char *file, const char *val)
{
	char path[160];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", file[0] == '/' ? "" : CG, file);
	f = fopen(file[0] == '/' ? file : path, "w");
	if (!f)
		return -1;
	ok = fputs(val, f) >= 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

static long long cg_read(const char *file)
{
	char path[160];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), CG "/%s", file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* A cgroup v2 group with the memory controller and @max bytes, or SKIP. */
static void cg_setup(long long max)
{
	char buf[32];
	struct stat st;

	mkdir(CG_ROOT, 0755);
	if (stat(CG_ROOT "/cgroup.controllers", &st) != 0 &&
	    mount("none", CG_ROOT, "cgroup2", 0, NULL) != 0)
		SKIP("no cgroup v2");
	if (cg_write(CG_ROOT "/cgroup.subtree_control", "+memory") != 0)
		SKIP("no memory controller");
	rmdir(CG);
	REQUIRE(mkdir(CG, 0755) == 0);
	snprintf(buf, sizeof(buf), "%lld", max);
	REQUIRE(cg_write("memory.max", buf) == 0);
	/* no swap to fall back on, where the kernel has swap at all */
	cg_write("memory.swap.max", "0");
}

static void cg_enter(void)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", getpid());
	REQUIRE(cg_write("cgroup.procs", buf) == 0);
}

/*
 * Queue areas are charged to the caller's memory cgroup: under a 24 MiB
 * memory.max, queues of 64 Ki entries (4 MiB of ring each) are refused
 * with -ENOMEM long before the user's queue share, memory.current shows
 * them while they live, and the memory goes back when they are destroyed.
 */
TEST(memcg_charges_queue_areas)
{
	struct report *r = report_new();
	long long before, held;
	pid_t pid;

	cg_setup(24LL << 20);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		static struct queue q[64];
		long long base;
		int fd, i, ret;

		cg_enter();
		fd = open_accel();
		base = cg_read("memory.current");
		for (i = 0; i < 64; i++) {
			ret = queue_create(fd, 65536, &q[i]);
			if (ret) {
				r->last_err = -ret;
				break;
			}
			r->created++;
		}
		held = cg_read("memory.current") - base;
		r->hbm_used_by_user = held > 0 ? (uint64_t)held : 0;
		for (i = 0; i < r->created; i++)
			queue_destroy(&q[i], 0);
		close(fd);
		_exit(0);
	}
	wait_child(pid);
	before = cg_read("memory.current");

	CHECK_EQ(r->last_err, ENOMEM);
	CHECK(r->created >= 1 && r->created < 6);
	/* every live queue's 4 MiB ring was in the group */
	CHECK(r->hbm_used_by_user >= (uint64_t)r->created * (4ULL << 20));
	/* and nothing of it stays behind (the child is gone: its pages too) */
	CHECK(before >= 0 && before < (4LL << 20));
	rmdir(CG);
	munmap(r, sizeof(*r));
}

/*
 * HOST_ALLOC pages are charged to the caller's memory cgroup too: 64 MiB
 * under a 16 MiB memory.max fails with -ENOMEM (root: no memlock limit
 * applies first), 4 MiB works and shows in memory.current.
 */
TEST(memcg_charges_host_alloc)
{
	struct report *r = report_new();
	pid_t pid;

	cg_setup(16LL << 20);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct drm_ascend_host_alloc big = { .size = 64ULL << 20 };
		struct drm_ascend_host_alloc small = { .size = 4ULL << 20 };
		long long base;
		int fd;

		cg_enter();
		fd = open_accel();
		base = cg_read("memory.current");
		r->last_err = -aioctl(fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &big);
		r->created = aioctl(fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &small) == 0;
		r->hbm_used_by_user = (uint64_t)(cg_read("memory.current") - base);
		close(fd);
		_exit(0);
	}
	wait_child(pid);
	CHECK_EQ(r->last_err, ENOMEM);
	CHECK_EQ(r->created, 1);
	CHECK(r->hbm_used_by_user >= (4ULL << 20));
	rmdir(CG);
	munmap(r, sizeof(*r));
}

/*
 * What the group's memory holds, from memory.stat: memory.current also
 * counts pages charged ahead of use into per-CPU caches (up to a batch
 * per CPU), which a charge that finds the group full drains and uses.
 */
static long long cg_usage(void)
{
	long long sum = 0, v;
	char line[128], key[64];
	FILE *f = fopen(CG "/memory.stat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", key, &v) == 2 &&
		    (!strcmp(key, "anon") || !strcmp(key, "file") ||
		     !strcmp(key, "kernel") || !strcmp(key, "sock")))
			sum += v;
	fclose(f);
	return sum;
}

/*
 * Every thread of the process on the CPU the caller runs on.  A memory
 * cgroup caches charged pages per CPU; a charge that finds the group full
 * empties this CPU's cache at once but other CPUs' only later (work items),
 * so pages another CPU cached would be room now and then.
 */
static int pin_to_this_cpu(void)
{
	cpu_set_t one;
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	dir = opendir("/proc/self/task");
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.' &&
		    sched_setaffinity(atoi(d->d_name), sizeof(one), &one))
			ret = -1;
	closedir(dir);
	return ret;
}

/*
 * The same through libaclrt: when the memory cgroup cannot hold another
 * stream's queue area, aclrtCreateStream fails with CANN's code and a
 * message, and so does a host allocation larger than what is left.
 *
 * A group filled to its last page OOM-kills its next page fault, whoever
 * takes it (the memcg contract, not the driver's), so the limit leaves
 * room for exactly three more streams plus half a stream for the
 * process's own faults, both measured from what the group holds, with
 * every thread on one CPU (pin_to_this_cpu()).  The
 * first stream is made before the process joins the group: the code and
 * heap it faults in are charged elsewhere, so that reclaim in the group
 * finds no page cache to give back and stretch the room.  The test holds
 * whatever the kernel's slab sizes are.
 */
TEST(memcg_cann_codes)
{
	struct report *r = report_new();
	pid_t pid;

	cg_setup(512LL << 20);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		enum { WARM = 8, MAX = 64 };
		static aclrtStream s[1 + WARM + MAX];
		long long start, per_stream;
		const char *m;
		char buf[32];
		void *host;
		aclError e = ACL_SUCCESS;
		int i, n = 0;

		if (aclInit(NULL) || aclrtSetDevice(0))
			_exit(2);
		if (aclrtCreateStream(&s[n++]) || pin_to_this_cpu())
			_exit(3);
		cg_enter();
		start = cg_usage();
		for (i = 0; i < WARM; i++)
			if (aclrtCreateStream(&s[n++]))
				_exit(4);
		per_stream = (cg_usage() - start) / WARM;
		r->unit = (uint64_t)per_stream;
		snprintf(buf, sizeof(buf), "%lld",
			 cg_usage() + 3 * per_stream + per_stream / 2);
		if (start < 0 || per_stream <= 0 || cg_write("memory.max", buf) != 0)
			_exit(5);
		for (i = 0; i < MAX; i++) {
			e = aclrtCreateStream(&s[n]);
			if (e)
				break;
			n++;
			r->created++;
		}
		m = aclGetRecentErrMsg();
		r->last_err = e;
		r->victim_ok = m && strstr(m, "hardware queue") != NULL;
		while (n > 0)
			aclrtDestroyStream(s[--n]);
		e = aclrtMallocHost(&host, 64ULL << 20);
		r->queues_by_user = e;
		m = aclGetRecentErrMsg();
		r->max_queues_by_user = m && m[0];
		aclrtResetDevice(0);
		aclFinalize();
		_exit(0);
	}
	wait_child(pid);
	printf("#   a stream costs %llu bytes of the group\n",
	       (unsigned long long)r->unit);
	CHECK_EQ(r->last_err, ACL_ERROR_RT_NO_STREAM_RESOURCE);
	CHECK_EQ(r->created, 3);
	CHECK(r->victim_ok);
	CHECK_EQ(r->queues_by_user, ACL_ERROR_RT_MEMORY_ALLOCATION);
	CHECK(r->max_queues_by_user);
	rmdir(CG);
	munmap(r, sizeof(*r));
}

int main(void)
{
	return tap_main();
}
