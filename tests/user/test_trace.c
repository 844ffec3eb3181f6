// SPDX-License-Identifier: MIT
/*
 * The driver's tracepoints (TRACE_SYSTEM ascend) and its debugfs views of
 * queues and faults, at the raw uAPI level (TAP).
 *
 * Each case clears the trace buffer, enables events/ascend, does one action
 * of a class (allocation, pinning, copy, doorbell / command-processor sleep
 * and wake, kernel launch, fault, reset) and checks from tracefs that the
 * class's events fired, for this process (pid=) where the event names one.
 * The debugfs views queues, engines and faults are checked while a queue
 * is faulted.  The last case disables the events again.  Needs root and tracefs (mounted
 * here at /sys/kernel/tracing if it is not yet); skips otherwise.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioctl_util.h"

#define PAGE 4096UL

static char tracefs[64];

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Find (or mount) tracefs; SKIP when there is none. */
static const char *tracing(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char p[128];
	unsigned int i;

	if (tracefs[0])
		return tracefs;
	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/trace", dirs[i]);
		if (access(p, F_OK) == 0) {
			snprintf(tracefs, sizeof(tracefs), "%s", dirs[i]);
			return tracefs;
		}
	}
	if (is_dir(dirs[0]) &&
	    mount("tracefs", dirs[0], "tracefs", 0, NULL) == 0) {
		snprintf(tracefs, sizeof(tracefs), "%s", dirs[0]);
		return tracefs;
	}
	if (geteuid() != 0)
		SKIP("not root: tracefs not accessible");
	SKIP("no tracefs");
	return NULL;
}

static int write_str(const char *rel, const char *s)
{
	char p[256];
	int fd, ret = 0;

	snprintf(p, sizeof(p), "%s/%s", tracing(), rel);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		printf("#   open %s: %s\n", p, strerror(errno));
		return -errno;
	}
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s)) {
		ret = -errno;
		printf("#   write %s to %s: %s\n", s, p, strerror(errno));
	}
	close(fd);
	return ret;
}

/* Whole file (malloc'd, NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			REQUIRE(nb);
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Clear the buffer and enable every ascend event. */
static void trace_start(void)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/events/ascend/enable", tracing());
	if (access(p, F_OK) != 0) {
		printf("#   %s missing: ascend.ko without tracepoints?\n", p);
		REQUIRE(0);
	}
	REQUIRE(write_str("tracing_on", "1") == 0);
	REQUIRE(write_str("events/ascend/enable", "1") == 0);
	REQUIRE(write_str("trace", "") == 0);
}

static char *trace_text(void)
{
	char p[256];
	char *t;

	snprintf(p, sizeof(p), "%s/trace", tracing());
	t = slurp(p);
	REQUIRE(t);
	return t;
}

/*
 * Lines of @text for event @ev ("ascend_bo_create") that contain every
 * string of the NULL-terminated list after @ev (e.g. "pid=123").
 */
static int count_events(const char *text, const char *ev, ...)
{
	char key[96];
	int n = 0;

	snprintf(key, sizeof(key), " %s: ", ev);
	for (const char *s = text, *e; *s; s = *e ? e + 1 : e) {
		char line[1024];
		va_list ap;
		const char *want;
		bool ok = true;

		e = strchrnul(s, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
		if (line[0] == '#' || !strstr(line, key))
			continue;
		va_start(ap, ev);
		while ((want = va_arg(ap, const char *)))
			if (!strstr(line, want))
				ok = false;
		va_end(ap);
		n += ok;
	}
	if (!n)
		printf("#   no %s event\n", ev);
	return n;
}

static const char *mypid(void)
{
	static char s[32];

	snprintf(s, sizeof(s), "pid=%d ", (int)getpid());
	return s;
}

/* Print the trace (for the log) and free it. */
static void trace_dump(char *t)
{
	int lines = 0;

	for (char *s = t, *e; *s && lines < 60; s = *e ? e + 1 : e, lines++) {
		e = strchrnul(s, '\n');
		if (*s != '#')
			printf("#   | %.*s\n", (int)(e - s), s);
	}
	free(t);
}

/* debugfs directory of accel0 (/sys/kernel/debug/accel/<bus>), or NULL. */
static const char *debugfs_dir(void)
{
	static char dir[PATH_MAX];
	char target[PATH_MAX];
	ssize_t n;
	const char *bus;

	n = readlink("/sys/class/accel/accel0/device", target, sizeof(target) - 1);
	if (n < 0)
		return NULL;
	target[n] = '\0';
	bus = strrchr(target, '/');
	bus = bus ? bus + 1 : target;
	snprintf(dir, sizeof(dir), "/sys/kernel/debug/accel/%.200s", bus);
	if (!is_dir(dir) && geteuid() == 0)
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	return is_dir(dir) ? dir : NULL;
}

static char *debugfs_file(const char *name)
{
	const char *dir = debugfs_dir();
	char p[PATH_MAX + 32];

	if (!dir)
		return NULL;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return slurp(p);
}

/* ---- the cases ---------------------------------------------------------- */

TEST(tracefs_has_ascend_events)
{
	static const char *const evs[] = {
		"ascend_bo_create", "ascend_bo_free", "ascend_host_alloc",
		"ascend_host_register", "ascend_host_unregister", "ascend_pin",
		"ascend_unpin", "ascend_copy_submit", "ascend_copy_done",
		"ascend_dma_submit", "ascend_dma_done",
		"ascend_queue_create", "ascend_queue_destroy",
		"ascend_queue_doorbell", "ascend_queue_reset",
		"ascend_cmd_complete", "ascend_cp_sleep", "ascend_cp_wake",
		"ascend_launch", "ascend_launch_done", "ascend_queue_fault",
		"ascend_ring_copy_submit", "ascend_ring_copy_done",
	};
	char p[256];
	unsigned int i;
	int fd = open_accel();	/* the module is loaded */

	close(fd);
	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		snprintf(p, sizeof(p), "%s/events/ascend/%s/format", tracing(),
			 evs[i]);
		if (access(p, R_OK) != 0)
			printf("#   missing %s\n", p);
		CHECK(access(p, R_OK) == 0);
	}
}

TEST(allocation_bo_create_free)
{
	struct drm_ascend_bo_create bo;
	char va[64];
	char *t;
	int fd = open_accel();

	setup_window(fd);
	trace_start();
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	REQUIRE_OK(gem_close(fd, bo.handle));
	close(fd);
	t = trace_text();
	snprintf(va, sizeof(va), "va=0x%llx ", (unsigned long long)bo.va);
	CHECK_EQ(count_events(t, "ascend_bo_create", mypid(), va,
			      "size=1048576 ", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_bo_free", va, "size=1048576 ", NULL), 1);
	trace_dump(t);
}

TEST(allocation_and_pinning_host_memory)
{
	struct drm_ascend_host_alloc a = { .size = 3 * PAGE };
	struct drm_ascend_host_register r = { 0 };
	char addr[64];
	void *mem;
	char *t;
	int fd = open_accel();

	setup_window(fd);
	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(mem != MAP_FAILED);
	memset(mem, 1, 2 * PAGE);
	trace_start();
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &a));
	REQUIRE_OK(gem_close(fd, a.handle));
	r.addr = (uintptr_t)mem;
	r.size = 2 * PAGE;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r));
	REQUIRE_OK(gem_close(fd, r.handle));
	close(fd);
	t = trace_text();
	snprintf(addr, sizeof(addr), "addr=%#llx ", (unsigned long long)r.addr);
	CHECK_EQ(count_events(t, "ascend_host_alloc", mypid(), "size=12288 ",
			      "kind=host_alloc", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_host_register", mypid(), addr,
			      "size=8192 ", "kind=host_register", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_host_unregister", "kind=host_alloc",
			      NULL), 1);
	CHECK_EQ(count_events(t, "ascend_host_unregister", "kind=host_register",
			      NULL), 1);
	CHECK_EQ(count_events(t, "ascend_pin", mypid(), addr, "pages=2 ",
			      "long-term", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_unpin", "pages=2 ", "long-term", NULL), 1);
	trace_dump(t);
	munmap(mem, 2 * PAGE);
}

TEST(copy_submit_done_and_short_term_pin)
{
	struct drm_ascend_bo_create bo;
	struct drm_ascend_copy c = { 0 };
	char *buf, *t;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	buf = aligned_alloc(PAGE, 4 * PAGE);
	REQUIRE(buf);
	memset(buf, 0x5a, 4 * PAGE);
	trace_start();
	/* device to device, then pageable host memory to the device */
	REQUIRE_OK(dev_copy(fd, bo.va + 8192, bo.va, 4096));
	c.dst = bo.va;
	c.src = (uintptr_t)buf;
	c.size = 4 * PAGE;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_COPY, &c));
	t = trace_text();
	CHECK(count_events(t, "ascend_copy_submit", mypid(), "kind=copy ",
			   "bytes=4096 ", NULL) >= 1);
	CHECK(count_events(t, "ascend_copy_done", mypid(), "kind=copy ",
			   "status=0", NULL) >= 2);
	CHECK(count_events(t, "ascend_pin", mypid(), "short-term", NULL) >= 1);
	CHECK(count_events(t, "ascend_unpin", "short-term", NULL) >= 1);
	CHECK(count_events(t, "ascend_dma_submit", "bytes=4096 ", NULL) >= 1);
	CHECK(count_events(t, "ascend_dma_done", "bytes=4096 ", "status=0",
			   NULL) >= 1);
	trace_dump(t);
	free(buf);
	close(fd);
}

TEST(copy_fill_2d_batch_and_ring_copy)
{
	struct drm_ascend_fill f = { 0 };
	struct drm_ascend_copy_2d c2 = { 0 };
	struct drm_ascend_copy_entry e[3];
	struct drm_ascend_copy_batch b = { 0 };
	struct drm_ascend_queue_wait w;
	struct drm_ascend_bo_create bo;
	struct ascend_cmd cmd;
	struct queue q;
	uint64_t seq;
	char qs[32];
	char *t;
	int fd = open_accel(), i;

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	REQUIRE_OK(queue_create(fd, 64, &q));
	trace_start();
	f.dst = bo.va;
	f.size = 8192;
	f.pattern = 0xab;
	f.pattern_size = 1;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_FILL, &f));
	c2.dst = bo.va + 65536;
	c2.src = bo.va;
	c2.dpitch = 256;
	c2.spitch = 128;
	c2.width = 100;
	c2.height = 4;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_COPY_2D, &c2));
	for (i = 0; i < 3; i++) {
		e[i].dst = bo.va + 131072 + i * 4096;
		e[i].src = bo.va + i * 512;
		e[i].size = 512;
	}
	b.entries = (uintptr_t)e;
	b.count = 3;
	b.entry_size = sizeof(e[0]);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_COPY_BATCH, &b));
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = ASCEND_CMD_COPY;
	cmd.copy.dst = bo.va + 262144;
	cmd.copy.src = bo.va;
	cmd.copy.size = 4096;
	seq = queue_submit(&q, &cmd);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, 0);
	REQUIRE_OK(queue_destroy(&q, 0));
	close(fd);
	t = trace_text();
	CHECK_EQ(count_events(t, "ascend_copy_submit", mypid(), "kind=fill ",
			      "bytes=8192 ", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_copy_done", mypid(), "kind=fill ",
			      "status=0", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_copy_submit", mypid(), "kind=copy_2d ",
			      "bytes=400 ", "count=4 ", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_copy_done", mypid(), "kind=copy_2d ",
			      "status=0", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_copy_submit", mypid(),
			      "kind=copy_batch ", "count=3 ", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_copy_done", mypid(), "kind=copy_batch ",
			      "status=0", NULL), 1);
	snprintf(qs, sizeof(qs), "queue=%u ", q.handle);
	CHECK_EQ(count_events(t, "ascend_ring_copy_submit", mypid(), qs,
			      "opcode=2 ", NULL), 1);
	CHECK_EQ(count_events(t, "ascend_ring_copy_done", mypid(), qs,
			      "opcode=2 ", "status=0", NULL), 1);
	trace_dump(t);
}

TEST(queue_doorbell_sleep_wake_complete)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd cmd;
	struct queue q;
	char qs[32];
	uint64_t seq;
	char *t;
	int fd = open_accel();

	setup_window(fd);
	trace_start();
	REQUIRE_OK(queue_create(fd, 64, &q));
	/* let the command processor go idle, then kick it */
	usleep(100 * 1000);
	cmd_nop(&cmd);
	seq = queue_submit(&q, &cmd);
	REQUIRE_OK(queue_doorbell(&q));
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, 0);
	REQUIRE_OK(queue_destroy(&q, 0));
	close(fd);
	t = trace_text();
	snprintf(qs, sizeof(qs), "queue=%u ", q.handle);
	CHECK_EQ(count_events(t, "ascend_queue_create", mypid(), qs, NULL), 1);
	CHECK(count_events(t, "ascend_queue_doorbell", mypid(), qs, NULL) >= 1);
	CHECK(count_events(t, "ascend_cmd_complete", qs, "seq=1", NULL) >= 1);
	CHECK(count_events(t, "ascend_cp_sleep", NULL) >= 1);
	CHECK(count_events(t, "ascend_cp_wake", NULL) >= 1);
	CHECK_EQ(count_events(t, "ascend_queue_destroy", mypid(), qs, NULL), 1);
	trace_dump(t);
}

TEST(kernel_launch_and_completion)
{
	struct drm_ascend_queue_wait w;
	struct drm_ascend_bo_create bo;
	struct write_args wa = { 0 };
	struct ascend_cmd cmd;
	struct queue q;
	uint32_t kid, asz;
	char qs[32], ks[32];
	uint64_t seq;
	char *t;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	kid = kernel_id(fd, "DeviceWrite", &asz);
	REQUIRE(asz <= sizeof(wa));
	REQUIRE_OK(queue_create(fd, 64, &q));
	trace_start();
	wa.p = bo.va;
	wa.v = 42;
	cmd_launch(&cmd, kid, 2, &wa, asz);
	seq = queue_submit(&q, &cmd);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, 0);
	REQUIRE_OK(queue_destroy(&q, 0));
	close(fd);
	t = trace_text();
	snprintf(qs, sizeof(qs), "queue=%u ", q.handle);
	snprintf(ks, sizeof(ks), "kernel=%u ", kid);
	CHECK_EQ(count_events(t, "ascend_launch", mypid(), qs, ks, "blocks=2",
			      NULL), 1);
	CHECK_EQ(count_events(t, "ascend_launch_done", qs, "fault=none", NULL), 1);
	trace_dump(t);
}

TEST(fault_reset_and_debugfs_views)
{
	struct drm_ascend_queue_reset r = { 0 };
	struct drm_ascend_queue_wait w;
	struct ascend_cmd cmd;
	struct queue q;
	char qs[32], line[128];
	uint64_t seq;
	char *t, *views;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(queue_create(fd, 64, &q));
	trace_start();
	cmd_nop(&cmd);
	cmd.flags = 0x80;		/* no flag is defined: a bad command */
	seq = queue_submit(&q, &cmd);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_BAD_COMMAND);

	/* debugfs while the queue is faulted */
	views = debugfs_file("queues");
	if (!views) {
		printf("#   no debugfs queues view\n");
		CHECK(0);
	} else {
		printf("#   queues:\n%s", views);
		snprintf(line, sizeof(line), "%8d %6u %7u", (int)getpid(),
			 q.handle, q.entries);
		CHECK(strstr(views, line) != NULL);
		CHECK(strstr(views, "bad_command") != NULL);
		free(views);
	}
	views = debugfs_file("faults");
	if (!views) {
		printf("#   no debugfs faults view\n");
		CHECK(0);
	} else {
		printf("#   faults:\n%s", views);
		snprintf(line, sizeof(line), " %8d %-16s %6u bad_command %10llu ",
			 (int)getpid(), "test_trace", q.handle,
			 (unsigned long long)seq);
		CHECK(strstr(views, line) != NULL);
		free(views);
	}

	views = debugfs_file("engines");
	if (!views) {
		printf("#   no debugfs engines view\n");
		CHECK(0);
	} else {
		struct drm_ascend_device_info info;
		unsigned long long descs, bytes, total = 0;
		unsigned int eng, lines = 0, cp = 0;

		printf("#   engines:\n%s", views);
		query_info(fd, &info);
		for (char *l = strchr(views, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
			if (sscanf(l + 1, "%u %*u %*u %*u %llu %llu", &eng, &descs,
				   &bytes) == 3) {
				CHECK_EQ(eng, lines);
				CHECK_EQ(cp, 0U);	/* the engines come first */
				lines++;
				total += descs;
			} else if (sscanf(l + 1, " cp - - - %llu %llu direct", &descs,
					  &bytes) == 2) {
				cp++;
				total += descs;
			}
		}
		CHECK_EQ(lines, info.num_dma_engines);
		CHECK_EQ(cp, 1U);	/* the command processor's own mover */
		CHECK(total > 0);	/* earlier cases copied */
		free(views);
	}

	r.handle = q.handle;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r));
	REQUIRE_OK(queue_destroy(&q, 0));
	close(fd);
	t = trace_text();
	snprintf(qs, sizeof(qs), "queue=%u ", q.handle);
	snprintf(line, sizeof(line), "seq=%llu ", (unsigned long long)seq);
	CHECK_EQ(count_events(t, "ascend_queue_fault", mypid(), qs,
			      "code=bad_command", line, "opcode=0", NULL), 1);
	snprintf(line, sizeof(line), "completed=%llu", (unsigned long long)seq);
	CHECK_EQ(count_events(t, "ascend_queue_reset", mypid(), qs, line, NULL), 1);
	trace_dump(t);
}

TEST(disable_events)
{
	char p[256];
	char *v;

	REQUIRE(write_str("events/ascend/enable", "0") == 0);
	snprintf(p, sizeof(p), "%s/events/ascend/enable", tracing());
	v = slurp(p);
	REQUIRE(v);
	CHECK(v[0] == '0');
	free(v);
	REQUIRE(write_str("trace", "") == 0);
}

int main(void)
{
	return tap_main();
}
