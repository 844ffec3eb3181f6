// SPDX-License-Identifier: MIT
/*
 * Users who do not trust each other share the device: what one user asks
 * of it is bounded for everyone else (Documentation/reliability.rst,
 * "Bounded work").  Each case runs an attacker and a victim as two
 * processes with different unprivileged uids, each with its own DRM file:
 *
 *  - the attacker loops synchronous COPY_2D ioctls of millions of 1-byte
 *    rows between two of its buffers (one such call used to hold its
 *    address-space lock, and with it the shared command processor and
 *    every other file's statistics, for 30 s);
 *  - the attacker runs ring COPY_BATCHes of ~270 M entries in all, read
 *    from a never-written buffer as large as its HBM share allows (one
 *    such batch of 8 GiB used to run 44 s past the command limit, with
 *    soft lockups, and QUEUE_DESTROY(FORCE) blocked 29 s).
 *
 * Meanwhile the victim opens the device, queries it, allocates, copies
 * 4 KiB both ways (the bytes are checked) and runs a ring copy on a queue
 * of its own.  Each of those must finish within VICTIM_BOUND_S (loose:
 * software emulation on a busy host; the figures are printed, and
 * `make bench` measures the tight ones), the attacker must die within
 * KILL_BOUND_S of SIGKILL, and a forced queue destroy must return within
 * KILL_BOUND_S.  The VM fails the run on any soft lockup or hung task.
 */
#define _GNU_SOURCE
#define TAP_TIMEOUT 200
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ioctl_util.h"
#include "../fuzz/reliab.h"

#define ATTACKER_UID	60001
#define VICTIM_UID	60002
#define VICTIM_BOUND_S	5
#define KILL_BOUND_S	3
#define VICTIM_ROUNDS	4

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

/* ---- the victim --------------------------------------------------------- */

enum { V_OPEN, V_QUERY, V_ALLOC, V_COPY, V_RING, V_OPS };
static const char *const v_names[V_OPS] = {
	"open", "DEV_QUERY", "BO_CREATE", "4 KiB copy H2D+D2H", "ring COPY",
};

struct victim_report {
	uint64_t max_ns[V_OPS];
	int bytes_ok;
	int done;
};

/* One round of ordinary work; the slowest of each kind goes to @r. */
static void victim_round(struct victim_report *r, unsigned int round)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create bo;
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c = { 0 };
	uint8_t out[4096], in[4096];
	uint64_t t, seq;
	struct queue q;
	unsigned int i;
	int fd;

	t = now_ns();
	fd = open(ACCEL_NODE, O_RDWR | O_CLOEXEC);
	REQUIRE(fd >= 0);
	t = now_ns() - t;
	r->max_ns[V_OPEN] = t > r->max_ns[V_OPEN] ? t : r->max_ns[V_OPEN];

	t = now_ns();
	query_info(fd, &info);
	t = now_ns() - t;
	r->max_ns[V_QUERY] = t > r->max_ns[V_QUERY] ? t : r->max_ns[V_QUERY];

	setup_window(fd);
	t = now_ns();
	REQUIRE_OK(bo_create(fd, 2 * 4096, 0, 0, &bo));
	t = now_ns() - t;
	r->max_ns[V_ALLOC] = t > r->max_ns[V_ALLOC] ? t : r->max_ns[V_ALLOC];

	for (i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 7 + round);
	memset(in, 0, sizeof(in));
	t = now_ns();
	REQUIRE_OK(dev_copy(fd, bo.va, (uintptr_t)out, sizeof(out)));
	REQUIRE_OK(dev_copy(fd, (uintptr_t)in, bo.va, sizeof(in)));
	t = now_ns() - t;
	r->max_ns[V_COPY] = t > r->max_ns[V_COPY] ? t : r->max_ns[V_COPY];
	if (memcmp(in, out, sizeof(in)))
		r->bytes_ok = 0;

	/* a ring copy of the same bytes to the second page, then read back */
	REQUIRE_OK(queue_create(fd, 0, &q));
	c.opcode = ASCEND_CMD_COPY;
	c.copy.dst = bo.va + 4096;
	c.copy.src = bo.va;
	c.copy.size = 4096;
	t = now_ns();
	seq = queue_submit(&q, &c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	t = now_ns() - t;
	r->max_ns[V_RING] = t > r->max_ns[V_RING] ? t : r->max_ns[V_RING];
	if (w.fault || w.completed != seq)
		r->bytes_ok = 0;
	memset(in, 0, sizeof(in));
	REQUIRE_OK(dev_copy(fd, (uintptr_t)in, bo.va + 4096, sizeof(in)));
	if (memcmp(in, out, sizeof(in)))
		r->bytes_ok = 0;
	queue_destroy(&q, 0);
	close(fd);
}

/* Run the victim as VICTIM_UID; its report arrives through @r (shared). */
static pid_t victim_start(struct victim_report *r)
{
	pid_t pid = fork();
	unsigned int i;

	REQUIRE(pid >= 0);
	if (pid)
		return pid;
	become(VICTIM_UID);
	r->bytes_ok = 1;
	for (i = 0; i < VICTIM_ROUNDS; i++)
		victim_round(r, i);
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

/* Wait for the victim (at most @limit_s); checks its report. */
static void victim_check(pid_t pid, struct victim_report *r, int limit_s)
{
	uint64_t end = now_ns() + (uint64_t)limit_s * 1000000000ULL;
	int status = 0, i;
	pid_t w;

	while ((w = waitpid(pid, &status, WNOHANG)) == 0 && now_ns() < end)
		usleep(20000);
	if (w == 0) {
		printf("#   the victim did not finish in %d s\n", limit_s);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	CHECK(w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(r->done);
	CHECK(r->bytes_ok);
	for (i = 0; i < V_OPS; i++) {
		printf("#   victim %-20s slowest %8.1f ms\n", v_names[i],
		       r->max_ns[i] / 1e6);
		CHECK(r->max_ns[i] < VICTIM_BOUND_S * 1000000000ULL);
	}
}

/* Wait until @flag is set by @pid; false if @pid ended first. */
static int wait_flag(volatile uint64_t *flag, pid_t pid)
{
	int status;

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			printf("#   the attacker ended early (status %#x)\n",
			       status);
			return 0;
		}
		usleep(10000);
	}
	return 1;
}

static void *shared_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	REQUIRE(p != MAP_FAILED);
	memset(p, 0, 4096);
	return p;
}

/* SIGKILL @pid; it must be gone within KILL_BOUND_S. */
static void kill_check(pid_t pid, const char *what)
{
	uint64_t t = now_ns(), end = t + KILL_BOUND_S * 1000000000ULL;
	int status = 0;
	pid_t w;

	CHECK_EQ(kill(pid, SIGKILL), 0);	/* still alive: still attacking */
	while ((w = waitpid(pid, &status, WNOHANG)) == 0 && now_ns() < end)
		usleep(2000);
	printf("#   %s died %.1f ms after SIGKILL\n", what, (now_ns() - t) / 1e6);
	CHECK(w == pid);
	if (w == 0)
		waitpid(pid, &status, 0);	/* reap it, however long */
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* ---- attacker 1: synchronous COPY_2D of millions of rows --------------- */

#define ROWS_MAX	(16ULL << 20)	/* 1-byte rows, pitch 2: 32 MiB spans */

static void attacker_2d(volatile uint64_t *started, volatile uint64_t *rate)
{
	struct drm_ascend_bo_create a, b;
	struct drm_ascend_copy_2d c = { 0 };
	uint64_t t, rows;
	int fd;

	become(ATTACKER_UID);
	fd = open_accel();
	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 2 * ROWS_MAX, 0, 0, &a));
	REQUIRE_OK(bo_create(fd, 2 * ROWS_MAX, 0, 0, &b));
	c.dst = a.va;
	c.src = b.va;
	c.dpitch = 2;
	c.spitch = 2;
	c.width = 1;
	c.height = 65536;
	t = now_ns();
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_COPY_2D, &c));
	t = now_ns() - t;
	rows = 65536ULL * 1000000000ULL / (t ? t : 1);
	*rate = rows;
	c.height = ROWS_MAX;
	*started = now_ns();
	for (;;)
		aioctl(fd, DRM_IOCTL_ASCEND_COPY_2D, &c);
}

TEST(huge_sync_2d_copy_leaves_other_users_bounded)
{
	volatile uint64_t *sh = shared_page();
	struct victim_report *r = (struct victim_report *)(sh + 8);
	pid_t att, vic;

	node_open_up();
	att = fork();
	REQUIRE(att >= 0);
	if (!att)
		attacker_2d(&sh[0], &sh[1]);
	REQUIRE(wait_flag(&sh[0], att));
	printf("#   attacker: %llu rows/s, so one call of %llu rows takes %.1f s\n",
	       (unsigned long long)sh[1], (unsigned long long)ROWS_MAX,
	       sh[1] ? (double)ROWS_MAX / sh[1] : 0.0);
	usleep(300000);		/* well inside its first huge call */
	vic = victim_start(r);
	victim_check(vic, r, 60);
	kill_check(att, "the 2D attacker");
	node_restore();
	CHECK(reliab_wait_clean(0, 20));
}

/* ---- attacker 2: a ring COPY_BATCH of ~270 M entries -------------------- */

#define BATCH_BYTES	(8ULL << 30)	/* of entries in all, ~270 M */

/*
 * The entries are a never-written buffer (it costs no host memory) of at
 * most the caller's HBM share, which on the emulated NPU is a part of its
 * store and so can be far less than 8 GiB: the batch is then that many
 * commands, each reading the whole buffer.
 */
static uint64_t batch_bo_size;

/* A VA window with room for the batch's buffer. */
static void big_window(int fd)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_va_window w = { 0 };

	query_info(fd, &info);
	batch_bo_size = info.hbm_user_quota & ~((2ULL << 20) - 1);
	if (batch_bo_size > BATCH_BYTES)
		batch_bo_size = BATCH_BYTES;
	REQUIRE(batch_bo_size > 0);
	w.size = 2 * batch_bo_size;
	if (w.size < info.va_window_min_size)
		w.size = info.va_window_min_size;
	w.base = reserve_window(&info, w.size);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w));
}

static uint64_t batch_buffer(int fd)
{
	struct drm_ascend_bo_create bo;

	REQUIRE_OK(bo_create(fd, batch_bo_size, 0, 0, &bo));
	return bo.va;
}

/*
 * Queue the batch on a fresh queue of @fd (entries: zero-sized, each
 * still read and checked); the sequence number of its last command.
 */
static uint64_t batch_submit(int fd, uint64_t va, struct queue *q)
{
	uint64_t n = (BATCH_BYTES + batch_bo_size - 1) / batch_bo_size, seq = 0;
	struct ascend_cmd c = { 0 };

	REQUIRE_OK(queue_create(fd, 0, q));
	REQUIRE(n < q->entries);
	c.opcode = ASCEND_CMD_COPY_BATCH;
	c.copy_batch.entries = va;
	c.copy_batch.count = (uint32_t)(batch_bo_size /
					sizeof(struct drm_ascend_copy_entry));
	while (n--)
		seq = queue_submit(q, &c);
	return seq;
}

/*
 * The attacker's queue runs the batch; the victim works; the attacker
 * destroys its queue with FORCE (bounded), queues another batch and is
 * killed in the middle of it (bounded).
 */
static void attacker_batch(volatile uint64_t *sh)
{
	struct queue q1, q2;
	uint64_t t, va;
	int fd;

	become(ATTACKER_UID);
	fd = open_accel();
	big_window(fd);
	va = batch_buffer(fd);
	batch_submit(fd, va, &q1);
	sh[0] = now_ns();
	while (!__atomic_load_n(&sh[2], __ATOMIC_ACQUIRE))	/* victim done */
		usleep(10000);
	t = now_ns();
	queue_destroy(&q1, DRM_ASCEND_QUEUE_DESTROY_FORCE);
	sh[3] = now_ns() - t;
	batch_submit(fd, va, &q2);
	sh[4] = 1;
	for (;;)
		pause();
}

TEST(huge_ring_batch_is_stoppable_and_leaves_other_users_bounded)
{
	volatile uint64_t *sh = shared_page();
	struct victim_report *r = (struct victim_report *)(sh + 8);
	long saved = reliab_param_get("cmd_timeout_ms");
	pid_t att, vic;

	node_open_up();
	/* the batch must outlive the victim's work: no early timeout */
	if (saved >= 0)
		reliab_param_set("cmd_timeout_ms", 120000);
	att = fork();
	REQUIRE(att >= 0);
	if (!att)
		attacker_batch(sh);
	REQUIRE(wait_flag(&sh[0], att));
	usleep(300000);
	vic = victim_start(r);
	victim_check(vic, r, 60);
	__atomic_store_n(&sh[2], 1, __ATOMIC_RELEASE);
	REQUIRE(wait_flag(&sh[4], att));
	printf("#   QUEUE_DESTROY(FORCE) of the running batch: %.1f ms\n",
	       sh[3] / 1e6);
	CHECK(sh[3] < KILL_BOUND_S * 1000000000ULL);
	usleep(300000);		/* the second batch runs */
	kill_check(att, "the batch attacker");
	if (saved >= 0)
		reliab_param_set("cmd_timeout_ms", saved);
	node_restore();
	CHECK(reliab_wait_clean(0, 20));
}

/* The command limit ends the batch on its own, within a bound. */
TEST(huge_ring_batch_times_out)
{
	long saved = reliab_param_get("cmd_timeout_ms");
	struct drm_ascend_queue_wait w;
	struct queue q;
	uint64_t t, va;
	int fd;

	REQUIRE(saved >= 0);
	memset(&w, 0, sizeof(w));
	reliab_param_set("cmd_timeout_ms", 1000);
	fd = open_accel();
	big_window(fd);
	va = batch_buffer(fd);
	t = now_ns();
	w.seq = batch_submit(fd, va, &q);
	w.handle = q.handle;
	w.timeout_ns = deadline_ns(30);
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), 0);
	t = now_ns() - t;
	printf("#   the 1 s command limit ended the batch after %.1f ms (fault %u)\n",
	       t / 1e6, w.fault);
	CHECK_EQ(w.fault, (uint32_t)ASCEND_FAULT_TIMEOUT);
	CHECK(t < (1 + KILL_BOUND_S) * 1000000000ULL);
	queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE);
	close(fd);
	reliab_param_set("cmd_timeout_ms", saved);
	CHECK(reliab_wait_clean(0, 20));
}

int main(void)
{
	return tap_main();
}
