// SPDX-License-Identifier: MIT
/*
 * test_hotplug.c - NPUs created and removed at run time through the
 * emulator's sysfs files (/sys/devices/platform/ascend-emu/new_device,
 * del_device), and surprise removal of a device in use.
 *
 * Device 1 (make check boots 2) is removed while two processes have
 * streams on it with a kernel running and asynchronous copies queued
 * behind it, device memory and mapped pinned host memory: both see
 * ACL_ERROR_RT_LOST_HEARTBEAT from the stream wait and later calls, can
 * still use their host memory, and exit cleanly; the removal returns in
 * bounded time; the device's HBM backing goes at once; a new process sees
 * one device.  Device 1 is then added again and copies bytes that are
 * checked, and device 0 was never disturbed (clients, HBM back to 0).
 * A process whose device 0 has peer access to device 1 sees its copies
 * that touch device 1 fail once it is gone, and device 0 keep working.
 * Every case leaves device 1 present for the tests that follow.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define TAP_TIMEOUT 300
#include "acl_util.h"
#include "../fuzz/reliab.h"

#define EMU "/sys/devices/platform/ascend-emu"
#define SZ (1 << 20)

/* Write @s to sysfs file @path: 0 or -errno. */
static int sysfs_write(const char *path, const char *s)
{
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	e = n < 0 ? -errno : 0;
	close(fd);
	return e;
}

static long sysfs_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Lines of a debugfs "clients" file after its header; -1 if unreadable. */
static int clients_of(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

static int have_dev1(void)
{
	struct stat st;

	return stat("/sys/bus/platform/devices/ascend.1/accel", &st) == 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The check VM has two devices; the cases need the emulator's files. */
static void need_two(void)
{
	if (access(EMU "/new_device", W_OK) != 0)
		SKIP("no writable " EMU "/new_device (root, ascend loaded?)");
	if (!have_dev1())
		SKIP("needs num_devices=2");
}

/* Put device 1 back if a case left it removed. */
static void restore_dev1(void)
{
	if (!have_dev1())
		CHECK_EQ(sysfs_write(EMU "/new_device", "1"), 0);
}

/* In a new process: how many devices libaclrt sees. */
static int count_in_child(void)
{
	int st;
	pid_t pid = fork();

	REQUIRE(pid >= 0);
	if (pid == 0) {
		uint32_t n = 0;

		if (aclInit(NULL) || aclrtGetDeviceCount(&n))
			_exit(255);
		_exit((int)n);
	}
	REQUIRE(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(sysfs_bad_requests_fail)
{
	need_two();
	CHECK_EQ(sysfs_write(EMU "/new_device", "0"), -EEXIST);
	CHECK_EQ(sysfs_write(EMU "/new_device", "1"), -EEXIST);
	CHECK_EQ(sysfs_write(EMU "/new_device", "16"), -EINVAL);
	CHECK_EQ(sysfs_write(EMU "/new_device", "x"), -EINVAL);
	CHECK_EQ(sysfs_write(EMU "/del_device", "16"), -EINVAL);
	CHECK_EQ(sysfs_write(EMU "/del_device", "-1"), -EINVAL);
	CHECK_EQ(sysfs_write(EMU "/del_device", "9"), -ENOENT);
	CHECK_EQ(sysfs_write(EMU "/del_device", "\n"), -EINVAL);
	CHECK(have_dev1());
	CHECK_EQ(count_in_child(), 2);
}

/* Remove and add again with no user: the device works afterwards. */
TEST(remove_idle_and_add_again)
{
	need_two();
	CHECK_EQ(sysfs_write(EMU "/del_device", "1"), 0);
	CHECK(!have_dev1());
	CHECK_EQ(sysfs_write(EMU "/del_device", "1"), -ENOENT);
	CHECK_EQ(count_in_child(), 1);
	CHECK_EQ(sysfs_write(EMU "/new_device", "1"), 0);
	CHECK(have_dev1());
	CHECK_EQ(count_in_child(), 2);
	restore_dev1();
}

/* ---- surprise removal --------------------------------------------------- */

#define USER_FAIL(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("#   user %d: %s:%d: %s (last message: %s)\n",\
			       (int)getpid(), __FILE__, __LINE__, #cond,	\
			       acl_errmsg());				\
			fails++;					\
		}							\
	} while (0)

/*
 * A process using device 1: memory, pinned host memory it maps, two
 * streams each with a 3 s kernel and copies queued behind it.  Tells the
 * parent it is ready, then waits on a stream while the device goes.
 */
static int user_main(int ready)
{
	unsigned char *h, *h2;
	aclrtStream s1, s2;
	aclrtEvent ev;
	int fails = 0, i;
	void *d, *d2;
	aclError r;
	char c = 'r';

	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtMalloc(&d, SZ, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMalloc(&d2, SZ, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMallocHost((void **)&h, SZ));
	REQUIRE_ACL(aclrtMallocHost((void **)&h2, SZ));
	memset(h, 0x5a, SZ);
	/* written HBM: the device backs it with host pages */
	REQUIRE_ACL(aclrtMemcpy(d, SZ, h, SZ, ACL_MEMCPY_HOST_TO_DEVICE));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	REQUIRE_ACL(launch_spin(s1, 3000000));
	REQUIRE_ACL(launch_spin(s2, 3000000));
	for (i = 0; i < 4; i++) {
		REQUIRE_ACL(aclrtMemcpyAsync(d2, SZ, h, SZ, ACL_MEMCPY_HOST_TO_DEVICE, s1));
		REQUIRE_ACL(aclrtMemcpyAsync(h2, SZ, d, SZ, ACL_MEMCPY_DEVICE_TO_HOST, s2));
	}
	REQUIRE_ACL(aclrtCreateEvent(&ev));
	REQUIRE_ACL(aclrtRecordEvent(ev, s2));
	REQUIRE(write(ready, &c, 1) == 1);

	/* the device goes while this waits */
	r = aclrtSynchronizeStream(s1);
	USER_FAIL(r == ACL_ERROR_RT_LOST_HEARTBEAT);
	if (r != ACL_ERROR_RT_LOST_HEARTBEAT)
		printf("#   user %d: stream sync returned %d: %s\n", (int)getpid(), r,
		       acl_errmsg());
	/* an event behind the lost work never completes: the wait fails */
	USER_FAIL(aclrtSynchronizeEvent(ev) != ACL_SUCCESS);
	USER_FAIL(aclrtSynchronizeStream(s2) == ACL_ERROR_RT_LOST_HEARTBEAT);
	USER_FAIL(aclrtMemcpy(d, SZ, h, SZ, ACL_MEMCPY_HOST_TO_DEVICE) ==
		  ACL_ERROR_RT_LOST_HEARTBEAT);
	USER_FAIL(aclrtMemset(d, SZ, 0, SZ) == ACL_ERROR_RT_LOST_HEARTBEAT);
	USER_FAIL(aclrtMalloc(&d2, SZ, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_RT_LOST_HEARTBEAT);
	/* pinned host memory is the host's: still there, still writable */
	USER_FAIL(h[0] == 0x5a && h[SZ - 1] == 0x5a);
	memset(h, 0x33, SZ);
	USER_FAIL(h[SZ / 2] == 0x33);
	/* tearing down must not crash; codes are not checked */
	aclrtDestroyEvent(ev);
	aclrtDestroyStream(s1);
	aclrtDestroyStream(s2);
	aclrtFree(d);
	aclrtFreeHost(h);
	aclrtFreeHost(h2);
	aclrtResetDevice(1);
	aclFinalize();
	fflush(stdout);
	return fails ? 1 : 0;
}

/* Add device 1 again and move bytes through it, in a new process. */
static int replug_user(void)
{
	unsigned char *h = malloc(SZ), *back = malloc(SZ);
	uint32_t n = 0;
	void *d;

	REQUIRE(h && back);
	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	REQUIRE(n == 2);
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtMalloc(&d, SZ, ACL_MEM_MALLOC_HUGE_FIRST));
	fill_pattern(h, SZ, 77);
	REQUIRE_ACL(aclrtMemcpy(d, SZ, h, SZ, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(back, 0, SZ);
	REQUIRE_ACL(aclrtMemcpy(back, SZ, d, SZ, ACL_MEMCPY_DEVICE_TO_HOST));
	REQUIRE(check_pattern(back, SZ, 77) < 0);
	REQUIRE_ACL(aclrtFree(d));
	REQUIRE_ACL(aclrtResetDevice(1));
	REQUIRE_ACL(aclFinalize());
	return 0;
}

TEST(unplug_in_use_then_replug)
{
	enum { NU = 2 };
	long backed0, backed1;
	pid_t users[NU], pid;
	int p[2], i, st;
	double t0, t1;
	char c;

	need_two();
	REQUIRE(pipe(p) == 0);
	backed0 = sysfs_long(EMU "/backed_pages");
	REQUIRE(backed0 >= 0);
	for (i = 0; i < NU; i++) {
		users[i] = fork();
		REQUIRE(users[i] >= 0);
		if (users[i] == 0) {
			close(p[0]);
			_exit(user_main(p[1]));
		}
	}
	close(p[1]);
	for (i = 0; i < NU; i++)
		REQUIRE(read(p[0], &c, 1) == 1);
	close(p[0]);
	backed1 = sysfs_long(EMU "/backed_pages");
	CHECK(backed1 >= backed0 + 2 * (SZ / 4096));
	usleep(300 * 1000);	/* both wait on their streams */

	t0 = now_s();
	CHECK_EQ(sysfs_write(EMU "/del_device", "1"), 0);
	t1 = now_s();
	printf("# del_device with 2 users: %.2f s\n", t1 - t0);
	CHECK(t1 - t0 < 20);
	CHECK(!have_dev1());
	/* the device's memory went with it, files still open or not */
	CHECK(sysfs_long(EMU "/backed_pages") <= backed0);

	for (i = 0; i < NU; i++) {
		REQUIRE(waitpid(users[i], &st, 0) == users[i]);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		if (!WIFEXITED(st))
			printf("#   user %d: signal %d\n", (int)users[i], WTERMSIG(st));
	}
	CHECK_EQ(count_in_child(), 1);
	CHECK(access("/sys/kernel/debug/accel/ascend.1", F_OK) != 0);
	CHECK(reliab_wait_clean(0, 30));
	CHECK(sysfs_long(EMU "/backed_pages") <= backed0);

	/* replug: same index, a working device */
	CHECK_EQ(sysfs_write(EMU "/new_device", "1"), 0);
	REQUIRE(have_dev1());
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(replug_user());
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(clients_of("/sys/kernel/debug/accel/ascend.1/clients"), 0);
	for (i = 0; i < 50 && sysfs_long(EMU "/backed_pages") > backed0; i++)
		usleep(100 * 1000);	/* deferred retire of the last free */
	CHECK(sysfs_long(EMU "/backed_pages") <= backed0);
	restore_dev1();
}

/*
 * A process with peer access 0 -> 1 (device 0's copies reach device 1's
 * memory through the link): device 1 goes; copies touching device 1 fail
 * cleanly, device 0 still copies, the process exits cleanly.
 */
static int peer_user(int ready, int go)
{
	unsigned char *h = malloc(SZ), *back = malloc(SZ);
	void *d0, *d1;
	int fails = 0;
	aclError r;
	char c = 'r';

	REQUIRE(h && back);
	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtMalloc(&d1, SZ, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtMalloc(&d0, SZ, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
	r = aclrtDeviceEnablePeerAccess(1, 0);
	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		_exit(TAP_EXIT_SKIP);
	REQUIRE_ACL(r);
	fill_pattern(h, SZ, 5);
	REQUIRE_ACL(aclrtMemcpy(d0, SZ, h, SZ, ACL_MEMCPY_HOST_TO_DEVICE));
	REQUIRE_ACL(aclrtMemcpy(d1, SZ, d0, SZ, ACL_MEMCPY_DEVICE_TO_DEVICE));
	REQUIRE(write(ready, &c, 1) == 1);
	REQUIRE(read(go, &c, 1) == 1);	/* device 1 is gone now */

	USER_FAIL(aclrtMemcpy(d1, SZ, d0, SZ, ACL_MEMCPY_DEVICE_TO_DEVICE) != ACL_SUCCESS);
	USER_FAIL(aclrtMemcpy(d0, SZ, d1, SZ, ACL_MEMCPY_DEVICE_TO_DEVICE) != ACL_SUCCESS);
	/* device 0 is untouched: its memory still holds the bytes */
	memset(back, 0, SZ);
	USER_FAIL(aclrtMemcpy(back, SZ, d0, SZ, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
	USER_FAIL(check_pattern(back, SZ, 5) < 0);
	USER_FAIL(aclrtFree(d0) == ACL_SUCCESS);
	aclrtFree(d1);
	aclrtResetDevice(1);
	USER_FAIL(aclrtResetDevice(0) == ACL_SUCCESS);
	aclFinalize();
	fflush(stdout);
	return fails ? 1 : 0;
}

TEST(unplug_peer_of_a_linked_device)
{
	int ready[2], go[2], st;
	pid_t pid;
	char c = 'g';

	need_two();
	REQUIRE(pipe(ready) == 0 && pipe(go) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		close(go[1]);
		_exit(peer_user(ready[1], go[0]));
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) == 1) {
		CHECK_EQ(sysfs_write(EMU "/del_device", "1"), 0);
		CHECK(write(go[1], &c, 1) == 1);
	}
	REQUIRE(waitpid(pid, &st, 0) == pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == TAP_EXIT_SKIP) {
		restore_dev1();
		SKIP("the driver has no peer access");
	}
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(reliab_wait_clean(0, 30));
	restore_dev1();
	CHECK_EQ(count_in_child(), 2);
}

/*
 * An IPC event of device 1 opened on device 0 (a remote entry in device
 * 0's event table): device 1 goes; a host wait on it ends with an error,
 * a device-0 stream recording or waiting on it fails instead of hanging,
 * device 0 still works, and the last handle, closed after device 1 is
 * gone, frees the event without touching the removed device.
 */
static int remote_event_user(int ready, int go)
{
	aclrtEvent ev1, ev0;
	aclrtStream s1, s0;
	aclrtIpcEventHandle h;
	unsigned char *hb = malloc(SZ), *back = malloc(SZ);
	void *d0;
	int fails = 0;
	char c = 'r';

	REQUIRE(hb && back);
	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateEventExWithFlag(&ev1, ACL_EVENT_IPC));
	REQUIRE_ACL(aclrtIpcGetEventHandle(ev1, &h));
	REQUIRE_ACL(aclrtRecordEvent(ev1, s1));
	REQUIRE_ACL(aclrtSynchronizeStream(s1));
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtIpcOpenEventHandle(h, &ev0));
	REQUIRE_ACL(aclrtCreateStream(&s0));
	REQUIRE_ACL(aclrtMalloc(&d0, SZ, ACL_MEM_MALLOC_HUGE_FIRST));
	/* before: device 0's stream waits on device 1's record */
	REQUIRE_ACL(aclrtStreamWaitEvent(s0, ev0));
	REQUIRE_ACL(aclrtSynchronizeStream(s0));
	REQUIRE(write(ready, &c, 1) == 1);
	REQUIRE(read(go, &c, 1) == 1);	/* device 1 is gone now */

	USER_FAIL(aclrtRecordEvent(ev0, s0) != ACL_SUCCESS ||
		  aclrtSynchronizeStream(s0) != ACL_SUCCESS);
	USER_FAIL(aclrtSynchronizeEvent(ev0) != ACL_SUCCESS);
	/* device 1's handle goes first: device 0's is the last */
	aclrtDestroyEvent(ev1);
	aclrtResetDevice(1);
	aclrtDestroyStream(s0);
	/* device 0 itself is untouched */
	REQUIRE_ACL(aclrtCreateStream(&s0));
	fill_pattern(hb, SZ, 9);
	USER_FAIL(aclrtMemcpyAsync(d0, SZ, hb, SZ, ACL_MEMCPY_HOST_TO_DEVICE, s0) ==
		  ACL_SUCCESS);
	USER_FAIL(aclrtSynchronizeStream(s0) == ACL_SUCCESS);
	memset(back, 0, SZ);
	USER_FAIL(aclrtMemcpy(back, SZ, d0, SZ, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
	USER_FAIL(check_pattern(back, SZ, 9) < 0);
	USER_FAIL(aclrtFree(d0) == ACL_SUCCESS);
	USER_FAIL(aclrtDestroyEvent(ev0) == ACL_SUCCESS);
	USER_FAIL(aclrtResetDevice(0) == ACL_SUCCESS);
	aclFinalize();
	fflush(stdout);
	return fails ? 1 : 0;
}

TEST(unplug_owner_of_an_imported_event)
{
	int ready[2], go[2], st;
	pid_t pid;
	char c = 'g';

	need_two();
	REQUIRE(pipe(ready) == 0 && pipe(go) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		close(go[1]);
		_exit(remote_event_user(ready[1], go[0]));
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) == 1) {
		CHECK_EQ(sysfs_write(EMU "/del_device", "1"), 0);
		CHECK(write(go[1], &c, 1) == 1);
	}
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(reliab_wait_clean(0, 30));
	restore_dev1();
	CHECK_EQ(count_in_child(), 2);
}

int main(void)
{
	return tap_main();
}
