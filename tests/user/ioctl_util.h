/* SPDX-License-Identifier: MIT */
/*
 * ioctl_util.h - raw uAPI helpers for tests/user/test_ioctl_*.c.
 *
 * These tests talk to /dev/accel/accel0 through libdrm and
 * include/uapi/drm/ascend_accel.h only, never through libaclrt, so they
 * can send what libaclrt never would.  Include after defining _GNU_SOURCE.
 */
#ifndef ASCEND_TESTS_IOCTL_UTIL_H
#define ASCEND_TESTS_IOCTL_UTIL_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <xf86drm.h>

#include "ascend_accel.h"
#include "tap.h"

#define ACCEL_NODE "/dev/accel/accel0"

/* An address in the kernel's direct map: never valid from user space. */
#define KERNEL_ADDR 0xffff888000000000ULL

/* 0 on success, -errno on failure. */
static inline int aioctl(int fd, unsigned long req, void *arg)
{
	return drmIoctl(fd, req, arg) ? -errno : 0;
}

/* The ioctl must fail with errno @e. */
#define CHECK_ERRNO(expr, e) CHECK_EQ((expr), -(e))
#define REQUIRE_OK(expr)						\
	do {								\
		int ret_ = (expr);					\
		if (ret_) {						\
			printf("#   %s:%d: %s failed: %s\n", __FILE__,	\
			       __LINE__, #expr, strerror(-ret_));	\
			fflush(stdout);					\
			_exit(1);					\
		}							\
	} while (0)

static inline int open_accel(void)
{
	int fd = open(ACCEL_NODE, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		printf("#   open %s: %s\n", ACCEL_NODE, strerror(errno));
	REQUIRE(fd >= 0);
	return fd;
}

static inline void query_info(int fd, struct drm_ascend_device_info *info)
{
	struct drm_ascend_dev_query q = {
		.type = DRM_ASCEND_QUERY_DEVICE_INFO,
		.size = sizeof(*info),
		.data = (uintptr_t)info,
	};

	memset(info, 0, sizeof(*info));
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q));
}

/* Kernel id of the built-in kernel @name; its args_size in *args_size. */
static inline uint32_t kernel_id(int fd, const char *name, uint32_t *args_size)
{
	struct drm_ascend_dev_query q = { .type = DRM_ASCEND_QUERY_KERNELS };
	struct drm_ascend_kernel_info *k;
	uint32_t i, n, id = UINT32_MAX;

	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q));
	REQUIRE(q.size > 0 && q.size % sizeof(*k) == 0);
	k = calloc(1, q.size);
	REQUIRE(k);
	q.data = (uintptr_t)k;
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q));
	n = q.size / sizeof(*k);
	for (i = 0; i < n; i++) {
		if (strncmp(k[i].name, name, sizeof(k[i].name)) == 0) {
			id = k[i].id;
			if (args_size)
				*args_size = k[i].args_size;
		}
	}
	free(k);
	if (id == UINT32_MAX)
		printf("#   no built-in kernel %s\n", name);
	REQUIRE(id != UINT32_MAX);
	return id;
}

/*
 * Reserve an aligned PROT_NONE range of @size (0: the minimum) suitable
 * for a VA window; returns its base.
 */
static inline uint64_t reserve_window(const struct drm_ascend_device_info *info,
				      uint64_t size)
{
	uint64_t align = info->va_window_align ? info->va_window_align : 4096;
	void *p;

	if (!size)
		size = info->va_window_min_size;
	p = mmap(NULL, size + align, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	REQUIRE(p != MAP_FAILED);
	return ((uint64_t)(uintptr_t)p + align - 1) & ~(align - 1);
}

/* Register a minimum-size VA window; returns its base. */
static inline uint64_t setup_window(int fd)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_va_window w = { 0 };

	query_info(fd, &info);
	w.size = info.va_window_min_size;
	w.base = reserve_window(&info, w.size);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w));
	return w.base;
}

static inline int bo_create(int fd, uint64_t size, uint32_t policy, uint32_t flags,
			    struct drm_ascend_bo_create *bo)
{
	memset(bo, 0, sizeof(*bo));
	bo->size = size;
	bo->policy = policy;
	bo->flags = flags;
	return aioctl(fd, DRM_IOCTL_ASCEND_BO_CREATE, bo);
}

static inline int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return aioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static inline int dev_copy(int fd, uint64_t dst, uint64_t src, uint64_t size)
{
	struct drm_ascend_copy c = { .dst = dst, .src = src, .size = size };

	return aioctl(fd, DRM_IOCTL_ASCEND_COPY, &c);
}

/* ---- queues ----------------------------------------------------------- */

struct queue {
	int fd;
	uint32_t handle;
	uint32_t entries;
	void *map;
	size_t map_size;
	struct ascend_queue_status *st;
	struct ascend_cmd *ring;
};

static inline int queue_create(int fd, uint32_t entries, struct queue *q)
{
	struct drm_ascend_queue_create c = { .ring_entries = entries };
	int ret;

	memset(q, 0, sizeof(*q));
	ret = aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c);
	if (ret)
		return ret;
	q->fd = fd;
	q->handle = c.handle;
	q->map_size = c.mmap_size;
	q->map = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)c.mmap_offset);
	REQUIRE(q->map != MAP_FAILED);
	q->st = q->map;
	q->entries = q->st->ring_entries;
	q->ring = (struct ascend_cmd *)((char *)q->map + q->st->ring_offset);
	REQUIRE(q->st->cmd_size == sizeof(struct ascend_cmd));
	REQUIRE(q->entries > 0 && (q->entries & (q->entries - 1)) == 0);
	return 0;
}

static inline int queue_doorbell(struct queue *q)
{
	struct drm_ascend_queue_doorbell d = { .handle = q->handle };

	return aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &d);
}

/* Store wptr (release), then ring the doorbell if the device sleeps. */
static inline void queue_publish(struct queue *q, uint64_t wptr)
{
	__atomic_store_n(&q->st->wptr, wptr, __ATOMIC_RELEASE);
	/* Order the wptr store before the flags load (NEED_WAKEUP protocol). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&q->st->flags, __ATOMIC_ACQUIRE) &
	    ASCEND_QUEUE_STATUS_NEED_WAKEUP)
		REQUIRE_OK(queue_doorbell(q));
}

/* Write @cmd into the next slot and publish it; returns its sequence number. */
static inline uint64_t queue_submit(struct queue *q, const struct ascend_cmd *cmd)
{
	uint64_t w = __atomic_load_n(&q->st->wptr, __ATOMIC_RELAXED);

	memcpy(&q->ring[w % q->entries], cmd, sizeof(*cmd));
	queue_publish(q, w + 1);
	return w + 1;
}

static inline int64_t deadline_ns(int seconds)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)(ts.tv_sec + seconds) * 1000000000LL + ts.tv_nsec;
}

/* Wait (bounded: 30 s) until @seq completed or the queue faulted. */
static inline int queue_wait(struct queue *q, uint64_t seq,
			     struct drm_ascend_queue_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->handle = q->handle;
	w->seq = seq;
	w->timeout_ns = deadline_ns(30);
	return aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, w);
}

static inline int queue_destroy(struct queue *q, uint32_t flags)
{
	struct drm_ascend_queue_destroy d = { .handle = q->handle, .flags = flags };
	int ret = aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d);

	if (q->map && q->map != MAP_FAILED)
		munmap(q->map, q->map_size);
	q->map = NULL;
	return ret;
}

static inline void cmd_nop(struct ascend_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_NOP;
}

static inline void cmd_launch(struct ascend_cmd *c, uint32_t kernel, uint32_t blocks,
			      const void *args, uint32_t args_size)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_LAUNCH;
	c->launch.kernel_id = kernel;
	c->launch.num_blocks = blocks;
	c->launch.args_size = args_size;
	memcpy(c->launch.args, args, args_size);
}

/* DeviceWrite / DeviceRead argument blocks, natural alignment. */
struct write_args {
	uint64_t p;
	int32_t v;
	uint32_t pad;
};

struct read_args {
	uint64_t p;
};

/* Take the device printf text produced so far (malloc'd, NUL-terminated). */
static inline char *queue_printf(struct queue *q)
{
	uint64_t head = __atomic_load_n(&q->st->printf_head, __ATOMIC_ACQUIRE);
	uint64_t tail = q->st->printf_tail;
	const char *buf = (const char *)q->map + q->st->printf_offset;
	char *out = malloc(head - tail + 1);
	uint64_t i;

	REQUIRE(out);
	for (i = tail; i < head; i++)
		out[i - tail] = buf[i % q->st->printf_size];
	out[head - tail] = '\0';
	__atomic_store_n(&q->st->printf_tail, head, __ATOMIC_RELEASE);
	return out;
}

#endif /* ASCEND_TESTS_IOCTL_UTIL_H */
