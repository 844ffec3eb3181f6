// SPDX-License-Identifier: MIT
/*
 * Isolation between processes (and DRM files): each attempt to reach what
 * belongs to someone else is refused, and the victim's bytes are unchanged.
 *
 *  - device memory: COPY/FILL naming another process's device VA -> EFAULT;
 *    ring commands naming it -> ASCEND_FAULT_MMU;
 *  - queues: another file's queue handle -> ENOENT; mmap of another file's
 *    queue area -> EACCES;
 *  - events: another file's event handle -> ENOENT;
 *  - host memory registered by one process is not reachable from another's
 *    copies (its address is just unmapped/foreign memory there);
 *  - dma-buf: PRIME export of our objects is refused (EOPNOTSUPP), PRIME
 *    import of a foreign dma-buf (udmabuf) is refused, GEM flink names do
 *    not give access to another file's buffers;
 *  - IPC memory keys: a process not on the exporter's allow-list cannot
 *    import (real key, wrong type, forged allow-list, random keys: ENOENT).
 *
 * The "victim" is a child process with its own DRM file that publishes its
 * VAs, handles and offsets through a pipe and waits; the attacker is the
 * test process.  Both reserve their VA windows at the same address where
 * possible, so a victim VA is a plausible address for the attacker too.
 */
#define _GNU_SOURCE
#include <linux/udmabuf.h>
#include <sys/wait.h>

#include "ioctl_util.h"
#include "../fuzz/reliab.h"

#define PAGE 4096
#define PATTERN 0xa5

struct victim_info {
	uint64_t bo_va, bo_size;
	uint32_t bo_handle, queue_handle, event_handle, flink_name;
	uint64_t queue_offset, queue_size;
	uint64_t win_base, win_size;
	uint64_t host_addr;	/* HOST_REGISTERed memory of the victim */
	uint32_t host_handle, pad;
};

struct victim {
	pid_t pid;
	int to_child, from_child;
	struct victim_info info;
};

/* The victim: allocates, fills, reports, waits for a byte, then checks. */
static void victim_main(int rd, int wr)
{
	struct drm_ascend_host_register r = { 0 };
	struct drm_ascend_event_create e = { 0 };
	struct drm_ascend_queue_create qc = { 0 };
	struct drm_ascend_bo_create bo;
	struct drm_gem_flink fl = { 0 };
	struct victim_info vi = { 0 };
	uint8_t buf[PAGE], *host;
	unsigned int i;
	char c;
	int fd = open(ACCEL_NODE, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		_exit(10);
	vi.win_base = setup_window(fd);
	{
		struct drm_ascend_device_info info;

		query_info(fd, &info);
		vi.win_size = info.va_window_min_size;
	}
	if (bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo))
		_exit(11);
	memset(buf, PATTERN, sizeof(buf));
	if (dev_copy(fd, bo.va, (uintptr_t)buf, PAGE))
		_exit(12);
	vi.bo_va = bo.va;
	vi.bo_size = PAGE;
	vi.bo_handle = bo.handle;
	if (aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &qc))
		_exit(13);
	vi.queue_handle = qc.handle;
	vi.queue_offset = qc.mmap_offset;
	vi.queue_size = qc.mmap_size;
	if (aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &e))
		_exit(14);
	vi.event_handle = e.handle;
	fl.handle = bo.handle;
	if (!aioctl(fd, DRM_IOCTL_GEM_FLINK, &fl))
		vi.flink_name = fl.name;
	host = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (host == MAP_FAILED)
		_exit(15);
	memset(host, PATTERN, PAGE);
	r.addr = (uintptr_t)host;
	r.size = PAGE;
	if (aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r))
		_exit(16);
	vi.host_addr = r.addr;
	vi.host_handle = r.handle;

	if (write(wr, &vi, sizeof(vi)) != sizeof(vi))
		_exit(17);
	if (read(rd, &c, 1) != 1)
		_exit(18);
	/* after the attacks: our bytes are intact */
	memset(buf, 0, sizeof(buf));
	if (dev_copy(fd, (uintptr_t)buf, bo.va, PAGE))
		_exit(19);
	for (i = 0; i < PAGE; i++)
		if (buf[i] != PATTERN || host[i] != PATTERN)
			_exit(20);
	close(fd);
	_exit(0);
}

static void victim_start(struct victim *v)
{
	int down[2], up[2];

	REQUIRE(pipe(down) == 0 && pipe(up) == 0);
	fflush(stdout);
	v->pid = fork();
	REQUIRE(v->pid >= 0);
	if (v->pid == 0) {
		close(down[1]);
		close(up[0]);
		victim_main(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	v->to_child = down[1];
	v->from_child = up[0];
	REQUIRE(read(v->from_child, &v->info, sizeof(v->info)) == sizeof(v->info));
}

/* Let the victim check its bytes and exit; it must exit 0. */
static void victim_finish(struct victim *v)
{
	int st;

	REQUIRE(write(v->to_child, "x", 1) == 1);
	REQUIRE(waitpid(v->pid, &st, 0) == v->pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		printf("#   victim status %#x\n", st);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(v->to_child);
	close(v->from_child);
	CHECK(reliab_wait_clean(0, 10));
}

/*
 * An attacker file whose VA window is at the victim's window address, so
 * the victim's VAs are plausible device addresses here too (never our own
 * pageable memory, which a copy would legitimately reach), with a BO of
 * its own that does not overlap the victim's.
 */
static int attacker(const struct victim *v, struct drm_ascend_bo_create *bo)
{
	struct drm_ascend_va_window w = { 0 };
	int fd = open_accel();
	void *m;

	m = mmap((void *)(uintptr_t)v->info.win_base, v->info.win_size, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
		 -1, 0);
	if (m == MAP_FAILED || (uintptr_t)m != v->info.win_base)
		SKIP("cannot reserve the victim's window address here");
	w.base = v->info.win_base;
	w.size = v->info.win_size;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w));
	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, bo));
	if (bo->va < v->info.bo_va + v->info.bo_size &&
	    v->info.bo_va < bo->va + bo->alloc_size) {
		/* ours took the victim's VA: take another, free this one */
		struct drm_ascend_bo_create first = *bo;

		REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, bo));
		REQUIRE_OK(gem_close(fd, first.handle));
	}
	REQUIRE(!(bo->va < v->info.bo_va + v->info.bo_size &&
		  v->info.bo_va < bo->va + bo->alloc_size));
	return fd;
}

TEST(sync_copy_and_fill_cannot_reach_another_process)
{
	struct drm_ascend_bo_create bo;
	struct drm_ascend_fill f = { 0 };
	struct victim v;
	uint8_t buf[PAGE];
	int fd;

	victim_start(&v);
	fd = attacker(&v, &bo);
	/* read and write the victim's VA; neither is mapped for us */
	CHECK_ERRNO(dev_copy(fd, bo.va, v.info.bo_va, PAGE), EFAULT);
	CHECK_ERRNO(dev_copy(fd, v.info.bo_va, bo.va, PAGE), EFAULT);
	CHECK_ERRNO(dev_copy(fd, (uintptr_t)buf, v.info.bo_va, PAGE), EFAULT);
	f.dst = v.info.bo_va;
	f.size = PAGE;
	f.pattern_size = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_FILL, &f), EFAULT);
	close(fd);
	victim_finish(&v);
}

TEST(ring_commands_cannot_reach_another_process)
{
	struct drm_ascend_bo_create bo;
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	struct queue q;
	struct victim v;
	int fd;

	victim_start(&v);
	fd = attacker(&v, &bo);
	REQUIRE_OK(queue_create(fd, 0, &q));

	memset(&c, 0, sizeof(c));	/* COPY victim -> ours */
	c.opcode = ASCEND_CMD_COPY;
	c.copy.dst = bo.va;
	c.copy.src = v.info.bo_va;
	c.copy.size = PAGE;
	REQUIRE_OK(queue_wait(&q, queue_submit(&q, &c), &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_MMU);
	CHECK_EQ(q.st->fault_addr, v.info.bo_va);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET,
			  &(struct drm_ascend_queue_reset){ .handle = q.handle }));

	memset(&c, 0, sizeof(c));	/* WRITE_VALUE into the victim */
	c.opcode = ASCEND_CMD_WRITE_VALUE;
	c.value.addr = v.info.bo_va;
	c.value.value = 0;
	REQUIRE_OK(queue_wait(&q, queue_submit(&q, &c), &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_MMU);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET,
			  &(struct drm_ascend_queue_reset){ .handle = q.handle }));

	memset(&c, 0, sizeof(c));	/* FILL of the victim's host memory */
	c.opcode = ASCEND_CMD_FILL;
	c.fill.dst = v.info.host_addr;
	c.fill.size = PAGE;
	c.fill.pattern_size = 1;
	REQUIRE_OK(queue_wait(&q, queue_submit(&q, &c), &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_MMU);
	CHECK_EQ(queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE), 0);
	close(fd);
	victim_finish(&v);
}

TEST(queue_handles_and_areas_are_per_file)
{
	struct drm_ascend_queue_doorbell d = { 0 };
	struct drm_ascend_queue_destroy qd = { 0 };
	struct drm_ascend_queue_wait w = { 0 };
	struct drm_ascend_queue_reset r = { 0 };
	struct victim v;
	void *m;
	int fd;

	victim_start(&v);
	fd = open_accel();
	d.handle = v.info.queue_handle;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &d), ENOENT);
	w.handle = v.info.queue_handle;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), ENOENT);
	r.handle = v.info.queue_handle;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r), ENOENT);
	qd.handle = v.info.queue_handle;
	qd.flags = DRM_ASCEND_QUEUE_DESTROY_FORCE;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &qd), ENOENT);
	/* the victim's queue area through our file */
	m = mmap(NULL, v.info.queue_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)v.info.queue_offset);
	CHECK(m == MAP_FAILED);
	if (m == MAP_FAILED)
		CHECK_EQ(errno, EACCES);
	else
		munmap(m, v.info.queue_size);
	close(fd);
	victim_finish(&v);
}

TEST(event_and_gem_handles_are_per_file)
{
	struct drm_ascend_event_signal s = { 0 };
	struct drm_ascend_event_destroy ed = { 0 };
	struct drm_ascend_event_wait ew = { 0 };
	struct drm_gem_open go = { 0 };
	struct victim v;
	int fd;

	victim_start(&v);
	fd = open_accel();
	s.handle = v.info.event_handle;
	s.gen = 1;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s), ENOENT);
	ew.handle = v.info.event_handle;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_WAIT, &ew), ENOENT);
	ed.handle = v.info.event_handle;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_DESTROY, &ed), ENOENT);
	/* the victim's GEM handles mean nothing here */
	CHECK_NE(gem_close(fd, v.info.bo_handle), 0);
	CHECK_NE(gem_close(fd, v.info.host_handle), 0);
	/* flink/open: accel nodes are render-like, GEM_OPEN by name refused */
	if (v.info.flink_name) {
		go.name = v.info.flink_name;
		CHECK_NE(aioctl(fd, DRM_IOCTL_GEM_OPEN, &go), 0);
	}
	close(fd);
	victim_finish(&v);
}

TEST(registered_host_memory_is_not_reachable_from_another_process)
{
	struct drm_ascend_bo_create bo;
	struct victim v;
	int fd;

	victim_start(&v);
	fd = attacker(&v, &bo);
	/*
	 * The victim's registered address means nothing in our process: we
	 * put an inaccessible page there, and copies from and to it fail.
	 */
	if (mmap((void *)(uintptr_t)v.info.host_addr, PAGE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) ==
	    (void *)(uintptr_t)v.info.host_addr) {
		CHECK_ERRNO(dev_copy(fd, bo.va, v.info.host_addr, PAGE), EFAULT);
		CHECK_ERRNO(dev_copy(fd, v.info.host_addr, bo.va, PAGE), EFAULT);
		munmap((void *)(uintptr_t)v.info.host_addr, PAGE);
	} else {
		printf("#   the victim's host address is mapped here: read only\n");
	}
	close(fd);
	victim_finish(&v);
}

TEST(prime_export_refused)
{
	struct drm_ascend_host_alloc ha = { .size = PAGE };
	struct drm_prime_handle ph = { 0 };
	struct drm_ascend_bo_create bo;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	ph.handle = bo.handle;
	ph.flags = DRM_CLOEXEC | DRM_RDWR;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), EOPNOTSUPP);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &ha));
	ph.handle = ha.handle;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), EOPNOTSUPP);
	close(fd);
	CHECK(reliab_wait_clean(0, 10));
}

TEST(prime_import_of_foreign_dmabuf_refused)
{
	struct udmabuf_create uc = { 0 };
	struct drm_prime_handle ph = { 0 };
	int ufd, mfd, dbuf, fd;

	ufd = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (ufd < 0)
		SKIP("no /dev/udmabuf in this kernel");
	mfd = memfd_create("isolation", MFD_ALLOW_SEALING);
	REQUIRE(mfd >= 0);
	REQUIRE(ftruncate(mfd, PAGE) == 0);
	REQUIRE(fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK) == 0);
	uc.memfd = mfd;
	uc.size = PAGE;
	dbuf = ioctl(ufd, UDMABUF_CREATE, &uc);
	if (dbuf < 0)
		SKIP("UDMABUF_CREATE failed");
	fd = open_accel();
	ph.fd = dbuf;
	CHECK_NE(aioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph), 0);
	/* a DRM file is not a dma-buf either */
	ph.fd = fd;
	CHECK_NE(aioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph), 0);
	close(fd);
	close(dbuf);
	close(mfd);
	close(ufd);
	CHECK(reliab_wait_clean(0, 10));
}

/* Import @key into a fresh file of this process: 0 or -errno. */
static int ipc_import(const char *key, uint32_t type, struct drm_ascend_ipc_import *im)
{
	int fd = open_accel();
	int ret;

	setup_window(fd);
	memset(im, 0, sizeof(*im));
	memcpy(im->key, key, DRM_ASCEND_IPC_KEY_LEN);
	im->type = type;
	ret = aioctl(fd, DRM_IOCTL_ASCEND_IPC_IMPORT, im);
	if (!ret && type == DRM_ASCEND_IPC_MEM) {
		uint8_t buf[PAGE];
		unsigned int i;

		/* the imported bytes are the exporter's */
		ret = dev_copy(fd, (uintptr_t)buf, im->va, PAGE) ? -EIO : 0;
		for (i = 0; !ret && i < PAGE; i++)
			if (buf[i] != PATTERN)
				ret = -EBADMSG;
	}
	close(fd);
	return ret;
}

/*
 * An exported key is useless to a process that is not on the exporter's
 * allow-list: the real key, the key for another type, a forged allow-list
 * entry from another file and random keys all fail alike (ENOENT); once
 * the exporter allows the process, the same import succeeds.
 */
TEST(ipc_keys_need_the_exporters_permission)
{
	struct drm_ascend_ipc_export ex = { .type = DRM_ASCEND_IPC_MEM };
	struct drm_ascend_bo_create bo;
	uint8_t buf[PAGE];
	int fd = open_accel(), go[2], done[2];
	char c = 0;
	pid_t pid;
	int st;

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &bo));
	memset(buf, PATTERN, sizeof(buf));
	REQUIRE_OK(dev_copy(fd, bo.va, (uintptr_t)buf, PAGE));
	ex.va = bo.va;
	ex.size = PAGE;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_IPC_EXPORT, &ex));
	REQUIRE(pipe(go) == 0 && pipe(done) == 0);

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct drm_ascend_ipc_set_pid sp = { .count = 1 };
		struct drm_ascend_ipc_import im;
		int32_t me = getpid();
		char key[DRM_ASCEND_IPC_KEY_LEN];
		int i, other = open_accel(), bad = 0;

		/* not allowed yet: the real key, the wrong type, random keys */
		if (ipc_import(ex.key, DRM_ASCEND_IPC_MEM, &im) != -ENOENT)
			bad |= 1;
		if (ipc_import(ex.key, DRM_ASCEND_IPC_EVENT, &im) != -ENOENT)
			bad |= 2;
		for (i = 0; i < 100; i++) {
			unsigned int j;

			for (j = 0; j < DRM_ASCEND_IPC_KEY_LEN - 1; j++)
				key[j] = "0123456789abcdef"[rand() & 15];
			key[j] = 0;
			if (ipc_import(key, DRM_ASCEND_IPC_MEM, &im) != -ENOENT)
				bad |= 4;
		}
		/* only the exporting file may extend the allow-list */
		memcpy(sp.key, ex.key, sizeof(sp.key));
		sp.pids = (uintptr_t)&me;
		if (aioctl(other, DRM_IOCTL_ASCEND_IPC_SET_PID, &sp) != -ENOENT)
			bad |= 8;
		if (ipc_import(ex.key, DRM_ASCEND_IPC_MEM, &im) != -ENOENT)
			bad |= 16;
		close(other);

		/* now the exporter allows us */
		if (write(done[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(100);
		if (ipc_import(ex.key, DRM_ASCEND_IPC_MEM, &im) != 0)
			bad |= 32;
		_exit(bad);
	}
	REQUIRE(read(done[0], &c, 1) == 1);
	{
		struct drm_ascend_ipc_set_pid sp = { .count = 1 };
		int32_t child = pid;

		memcpy(sp.key, ex.key, sizeof(sp.key));
		sp.pids = (uintptr_t)&child;
		CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_IPC_SET_PID, &sp), 0);
	}
	REQUIRE(write(go[1], "g", 1) == 1);
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st));
	if (WIFEXITED(st) && WEXITSTATUS(st))
		printf("#   child failures (bit mask): %d\n", WEXITSTATUS(st));
	CHECK_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0);
	close(fd);
}

int main(void)
{
	return tap_main();
}
