// SPDX-License-Identifier: MIT
/*
 * The AI cores are shared fairly between users, and an unprivileged
 * caller cannot lift the device's command time limit (issue 15, point 3;
 * Documentation/hardware.rst, "AI-core scheduling").
 *
 *  - fill_beside_spin_flood: an attacker uid fills every AI core with a
 *    long Spin launch, one per queue; a victim uid's 32 KiB Fill32 (too
 *    big for the command processor's short path: it needs an AI core)
 *    must complete within VICTIM_BOUND_MS.  The device yields a core to
 *    the victim within one time slice (2 ms) plus a poll interval; first
 *    come, first served it used to wait for a Spin to end (seconds).  The
 *    ceiling is loose (software emulation on a busy host); the figure is
 *    printed and `make bench` measures it.
 *  - copy_beside_copy_flood: the attacker runs ring COPYs of 16 MiB on
 *    COPY_QUEUES queues at once; the victim's 4 KiB ring COPYs (engines
 *    busy: they go to the engines) must each complete within
 *    VICTIM_BOUND_MS.  A group has at most two jobs per engine in the
 *    engines at once, so the victim's turn does not depend on how many
 *    queues the attacker copies on.
 *  - timeout_clamped_unprivileged: with cmd_timeout_ms lowered to 300, an
 *    unprivileged caller's Spin of 20 s naming timeout_ms 0xffffffff faults
 *    ASCEND_FAULT_TIMEOUT long before 20 s; root's (CAP_SYS_ADMIN) own
 *    limit still overrides the device's.
 */
#define _GNU_SOURCE
#define TAP_TIMEOUT 120
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ioctl_util.h"

#define ATTACKER_UID	60011
#define VICTIM_UID	60012
#define SPIN_US		8000000ULL	/* the attacker's launches: 8 s each */
#define VICTIM_BOUND_MS	2000
#define FILL_WORDS	8192		/* 32 KiB */
#define COPY_QUEUES	32
#define COPY_SIZE	(16u << 20)
#define COPY_DEPTH	64		/* per attacker queue: 1 GiB */
#define VICTIM_COPIES	20

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Drop root for good: @uid, its own group, no supplementary groups. */
static void become(uid_t uid)
{
	REQUIRE(setgroups(0, NULL) == 0);
	REQUIRE(setresgid(uid, uid, uid) == 0);
	REQUIRE(setresuid(uid, uid, uid) == 0);
	REQUIRE(geteuid() == uid);
	/* set after the uid change, which clears it: die with the test */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
}

/* The accel node, usable by both uids for the test's duration. */
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

static void *shared_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	REQUIRE(p != MAP_FAILED);
	memset(p, 0, 4096);
	return p;
}

static void cmd_spin(struct ascend_cmd *c, uint32_t id, uint64_t usec,
		     uint32_t timeout_ms)
{
	cmd_launch(c, id, 1, &usec, sizeof(usec));
	c->launch.timeout_ms = timeout_ms;
}

/* sysfs file of a writable module parameter of the driver */
static const char *param_path(const char *name)
{
	static char path[128];
	const char *drv = getenv("ASCEND_DRIVER");

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 drv && *drv ? drv : "ascend", name);
	return path;
}

static long param_read(const char *name)
{
	FILE *f = fopen(param_path(name), "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int param_write(const char *name, long v)
{
	FILE *f = fopen(param_path(name), "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* What the children report through a shared page. */
struct report {
	uint64_t started;	/* attacker: its Spins are submitted */
	uint64_t victim_ns;	/* victim: submit to completion */
	uint32_t victim_fault;
	uint32_t victim_ok;	/* its bytes read back right */
	uint64_t done;
	uint64_t root_ns;	/* root's Spin (timeout test) */
	uint32_t root_fault;
	uint32_t root_done;
};

/* Fill every AI core with a Spin of SPIN_US, one queue each; then wait. */
static void attacker(struct report *r)
{
	struct drm_ascend_device_info info;
	struct ascend_cmd c;
	struct queue q[64];
	uint32_t spin, i, n;
	int fd;

	become(ATTACKER_UID);
	fd = open_accel();
	query_info(fd, &info);
	n = info.num_ai_cores < 64 ? info.num_ai_cores : 64;
	spin = kernel_id(fd, "Spin", NULL);
	for (i = 0; i < n; i++) {
		REQUIRE_OK(queue_create(fd, 0, &q[i]));
		/* the limit it asks for is clamped: it runs its 8 s */
		cmd_spin(&c, spin, SPIN_US, 0xffffffff);
		queue_submit(&q[i], &c);
	}
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
}

/* A 32 KiB Fill32 on a queue of its own, timed; the bytes are checked. */
static void victim(struct report *r)
{
	struct drm_ascend_queue_wait w;
	struct drm_ascend_bo_create bo;
	struct {
		uint64_t p;
		uint32_t v;
		uint32_t pad;
		uint64_t count;
	} args;
	static uint32_t in[FILL_WORDS];
	struct ascend_cmd c;
	struct queue q;
	uint64_t t, seq;
	uint32_t fill, i;
	int fd;

	become(VICTIM_UID);
	fd = open_accel();
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, sizeof(in), 0, 0, &bo));
	REQUIRE_OK(queue_create(fd, 0, &q));
	fill = kernel_id(fd, "Fill32", NULL);
	args.p = bo.va;
	args.v = 0x5a5a1234;
	args.pad = 0;
	args.count = FILL_WORDS;
	cmd_launch(&c, fill, 1, &args, sizeof(args));
	t = now_ns();
	seq = queue_submit(&q, &c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	r->victim_ns = now_ns() - t;
	r->victim_fault = w.fault;
	REQUIRE_OK(dev_copy(fd, (uintptr_t)in, bo.va, sizeof(in)));
	r->victim_ok = w.completed == seq;
	for (i = 0; i < FILL_WORDS; i++)
		if (in[i] != args.v)
			r->victim_ok = 0;
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

static void reap(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

TEST(fill_beside_spin_flood)
{
	struct report *r = shared_page();
	uint64_t end;
	pid_t att, vic;
	int status = 0;

	node_open_up();
	att = fork();
	REQUIRE(att >= 0);
	if (!att)
		attacker(r);
	while (!__atomic_load_n(&r->started, __ATOMIC_ACQUIRE)) {
		if (waitpid(att, &status, WNOHANG) == att) {
			node_restore();
			REQUIRE(!"the attacker ended early");
		}
		usleep(10000);
	}
	/* let the cores take the Spins */
	usleep(300000);

	vic = fork();
	REQUIRE(vic >= 0);
	if (!vic)
		victim(r);
	/* the Spins end after 8 s: a victim still waiting then has lost */
	end = now_ns() + 30 * 1000000000ULL;
	while (waitpid(vic, &status, WNOHANG) == 0 && now_ns() < end)
		usleep(10000);
	reap(vic);
	reap(att);
	node_restore();

	CHECK(__atomic_load_n(&r->done, __ATOMIC_ACQUIRE));
	printf("#   victim's 32 KiB Fill32 beside %s: %.1f ms (bound %d ms)\n",
	       "a full device of Spins", r->victim_ns / 1e6, VICTIM_BOUND_MS);
	CHECK_EQ(r->victim_fault, 0);
	CHECK(r->victim_ok);
	CHECK(r->victim_ns < VICTIM_BOUND_MS * 1000000ULL);
}

/* COPY_QUEUES queues copying 16 MiB back and forth, COPY_DEPTH deep. */
static void copy_attacker(struct report *r)
{
	struct drm_ascend_bo_create a, b;
	struct ascend_cmd c = { 0 };
	struct queue q[COPY_QUEUES];
	uint32_t i, j;
	int fd;

	become(ATTACKER_UID);
	fd = open_accel();
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, COPY_SIZE, 0, 0, &a));
	REQUIRE_OK(bo_create(fd, COPY_SIZE, 0, 0, &b));
	c.opcode = ASCEND_CMD_COPY;
	c.copy.size = COPY_SIZE;
	for (i = 0; i < COPY_QUEUES; i++) {
		REQUIRE_OK(queue_create(fd, 0, &q[i]));
		for (j = 0; j < COPY_DEPTH; j++) {
			c.copy.dst = j & 1 ? a.va : b.va;
			c.copy.src = j & 1 ? b.va : a.va;
			queue_submit(&q[i], &c);
		}
	}
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
}

/* VICTIM_COPIES ring COPYs of 4 KiB, the slowest timed; bytes checked. */
static void copy_victim(struct report *r)
{
	struct drm_ascend_queue_wait w;
	struct drm_ascend_bo_create bo;
	static uint8_t out[4096], in[4096];
	struct ascend_cmd c = { 0 };
	uint64_t t, seq;
	struct queue q;
	unsigned int i, k;
	int fd;

	become(VICTIM_UID);
	fd = open_accel();
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 2 * 4096, 0, 0, &bo));
	REQUIRE_OK(queue_create(fd, 0, &q));
	r->victim_ok = 1;
	for (k = 0; k < VICTIM_COPIES; k++) {
		for (i = 0; i < sizeof(out); i++)
			out[i] = (uint8_t)(i * 13 + k);
		REQUIRE_OK(dev_copy(fd, bo.va, (uintptr_t)out, sizeof(out)));
		c.opcode = ASCEND_CMD_COPY;
		c.copy.dst = bo.va + 4096;
		c.copy.src = bo.va;
		c.copy.size = 4096;
		t = now_ns();
		seq = queue_submit(&q, &c);
		REQUIRE_OK(queue_wait(&q, seq, &w));
		t = now_ns() - t;
		r->victim_ns = t > r->victim_ns ? t : r->victim_ns;
		r->victim_fault |= w.fault;
		REQUIRE_OK(dev_copy(fd, (uintptr_t)in, bo.va + 4096, sizeof(in)));
		if (w.completed != seq || memcmp(in, out, sizeof(in)))
			r->victim_ok = 0;
		usleep(20000);
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

TEST(copy_beside_copy_flood)
{
	struct report *r = shared_page();
	uint64_t end;
	pid_t att, vic;
	int status = 0;

	node_open_up();
	att = fork();
	REQUIRE(att >= 0);
	if (!att)
		copy_attacker(r);
	while (!__atomic_load_n(&r->started, __ATOMIC_ACQUIRE)) {
		if (waitpid(att, &status, WNOHANG) == att) {
			node_restore();
			REQUIRE(!"the attacker ended early");
		}
		usleep(10000);
	}
	usleep(300000);

	vic = fork();
	REQUIRE(vic >= 0);
	if (!vic)
		copy_victim(r);
	end = now_ns() + 60 * 1000000000ULL;
	while (waitpid(vic, &status, WNOHANG) == 0 && now_ns() < end)
		usleep(10000);
	reap(vic);
	reap(att);
	node_restore();

	CHECK(__atomic_load_n(&r->done, __ATOMIC_ACQUIRE));
	printf("#   victim's 4 KiB ring COPY beside %d queues of 16 MiB COPYs: slowest %.1f ms of %d (bound %d ms)\n",
	       COPY_QUEUES, r->victim_ns / 1e6, VICTIM_COPIES, VICTIM_BOUND_MS);
	CHECK_EQ(r->victim_fault, 0);
	CHECK(r->victim_ok);
	CHECK(r->victim_ns < VICTIM_BOUND_MS * 1000000ULL);
}

/* Submit a Spin of @usec naming @timeout_ms; its fault and run time. */
static uint32_t spin_once(uint64_t usec, uint32_t timeout_ms, uint64_t *ns)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	struct queue q;
	uint64_t t, seq;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_spin(&c, kernel_id(fd, "Spin", NULL), usec, timeout_ms);
	t = now_ns();
	seq = queue_submit(&q, &c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	*ns = now_ns() - t;
	queue_destroy(&q, 0);
	close(fd);
	return w.fault;
}

TEST(timeout_clamped_unprivileged)
{
	struct report *r = shared_page();
	long old = param_read("cmd_timeout_ms");
	int status = 0, st = 0;
	pid_t pid, u;

	if (old < 0 || param_write("cmd_timeout_ms", 300))
		SKIP("cannot read/write the driver's cmd_timeout_ms parameter");
	node_open_up();
	/* the work in a child: whatever becomes of it, the limit is restored */
	pid = fork();
	REQUIRE(pid >= 0);
	if (!pid) {
		u = fork();
		REQUIRE(u >= 0);
		if (!u) {
			become(VICTIM_UID);
			r->victim_fault = spin_once(20000000, 0xffffffff,
						    &r->victim_ns);
			__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
			_exit(0);
		}
		waitpid(u, &st, 0);
		/* root: its own limit still wins over the device's */
		r->root_fault = spin_once(1000000, 0xffffffff, &r->root_ns);
		__atomic_store_n(&r->root_done, 1, __ATOMIC_RELEASE);
		_exit(WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	param_write("cmd_timeout_ms", old);
	node_restore();

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(__atomic_load_n(&r->done, __ATOMIC_ACQUIRE));
	printf("#   unprivileged Spin(20 s, timeout 0xffffffff): fault %u after %.1f ms\n",
	       r->victim_fault, r->victim_ns / 1e6);
	CHECK_EQ(r->victim_fault, ASCEND_FAULT_TIMEOUT);
	CHECK(r->victim_ns < 10 * 1000000000ULL);
	CHECK(__atomic_load_n(&r->root_done, __ATOMIC_ACQUIRE));
	printf("#   root's Spin(1 s, timeout 0xffffffff): fault %u after %.1f ms\n",
	       r->root_fault, r->root_ns / 1e6);
	CHECK_EQ(r->root_fault, 0);
	CHECK(r->root_ns >= 1000000000ULL);
}

int main(void)
{
	return tap_main();
}
