// SPDX-License-Identifier: MIT
/*
 * queue.c - one hardware queue: create/map, the ring writer with the
 * NEED_WAKEUP doorbell protocol, waits, fault decoding and device printf.
 *
 * The caller serialises writers (acl_stream.lock); waits need no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <xf86drm.h>

#include "internal.h"

#define LOAD(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)

int64_t deadline_from_ms(int32_t timeout_ms)
{
	struct timespec ts;

	if (timeout_ms < 0)
		return DRM_ASCEND_TIMEOUT_INFINITE;
	if (timeout_ms == 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec +
	       (int64_t)timeout_ms * 1000000LL;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The area must hold the ring and the printf buffer the status page names. */
static bool layout_ok(const struct ascend_queue_status *st, uint64_t size)
{
	uint64_t cmd = st->cmd_size ? st->cmd_size : ASCEND_CMD_SIZE;

	return st->ring_entries && cmd >= sizeof(struct ascend_cmd) &&
	       st->ring_offset + cmd * st->ring_entries <= size &&
	       (st->printf_size == 0 ||
		(pow2(st->printf_size) && (uint64_t)st->printf_offset + st->printf_size <= size));
}

uint64_t *queue_activity_open(int fd)
{
	struct drm_ascend_queue_activity a = { 0 };
	void *p;

	if (drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_ACTIVITY, &a) ||
	    a.mmap_size != DRM_ASCEND_QUEUE_ACTIVITY_SIZE)
		return NULL;	/* an older kernel looks at every queue itself */
	p = mmap(NULL, a.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	/* without the mapping the file's syncs would miss our work: unusable */
	if (p == MAP_FAILED)
		return NULL;
	return p;
}

void queue_activity_close(uint64_t *activity)
{
	if (activity)
		munmap(activity, DRM_ASCEND_QUEUE_ACTIVITY_SIZE);
}

aclError queue_create(int fd, uint64_t *activity, struct acl_queue *q)
{
	struct drm_ascend_queue_create c = { 0 };
	struct ascend_queue_status *st;
	void *area;
	int e;

	memset(q, 0, sizeof(*q));
	if (drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c)) {
		e = errno;
		return acl_err(e == ENOSPC || e == EBUSY || e == ENOMEM ?
			       ACL_ERROR_RT_NO_STREAM_RESOURCE :
			       acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			       "the driver could not create a hardware queue: %s", strerror(e));
	}
	area = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)c.mmap_offset);
	if (area == MAP_FAILED) {
		struct drm_ascend_queue_destroy d = { .handle = c.handle,
						      .flags = DRM_ASCEND_QUEUE_DESTROY_FORCE };
		e = errno;
		drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d);
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "cannot map queue %u (%llu bytes): %s", c.handle,
			       (unsigned long long)c.mmap_size, strerror(e));
	}
	st = area;
	if (!layout_ok(st, c.mmap_size)) {
		struct drm_ascend_queue_destroy d = { .handle = c.handle,
						      .flags = DRM_ASCEND_QUEUE_DESTROY_FORCE };
		munmap(area, c.mmap_size);
		drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d);
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "queue %u has an inconsistent layout (%u entries x %u bytes at %u, printf %u bytes at %u, area %llu bytes)",
			       c.handle, st->ring_entries, st->cmd_size, st->ring_offset,
			       st->printf_size, st->printf_offset, (unsigned long long)c.mmap_size);
	}
	q->handle = c.handle;
	q->area = area;
	q->area_size = c.mmap_size;
	q->status = st;
	q->ring_entries = st->ring_entries;
	q->cmd_size = st->cmd_size ? st->cmd_size : ASCEND_CMD_SIZE;
	q->ring = (uint8_t *)area + st->ring_offset;
	q->printf_buf = (const uint8_t *)area + st->printf_offset;
	q->printf_size = st->printf_size;
	q->wptr = st->wptr;
	q->printf_dropped_seen = LOAD(&st->printf_dropped);
	q->ring_pow2 = pow2(q->ring_entries);
	if (activity) {
		q->act_word = &activity[c.handle / 64];
		q->act_bit = 1ULL << (c.handle % 64);
	}
	return ACL_SUCCESS;
}

aclError queue_destroy(int fd, struct acl_queue *q, bool force)
{
	struct drm_ascend_queue_destroy d = {
		.handle = q->handle,
		.flags = force ? DRM_ASCEND_QUEUE_DESTROY_FORCE : 0,
	};

	if (drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d))
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "destroying hardware queue %u failed: %s", q->handle,
			       strerror(errno));
	return ACL_SUCCESS;
}

void queue_unmap(struct acl_queue *q)
{
	if (q->area)
		munmap(q->area, q->area_size);
	q->area = NULL;
	q->status = NULL;
}

static const char *fault_name(uint32_t fault)
{
	static const char *const names[] = {
		"none", "bad command", "device MMU fault (address not mapped)",
		"AI-core exception in a kernel", "DMA engine error",
		"ring pointers corrupted", "work discarded by forced destroy",
		"command ran past its time limit", "the device was removed",
	};

	return fault < sizeof(names) / sizeof(names[0]) ? names[fault] : "unknown fault";
}

const char *queue_opcode_name(uint32_t opcode)
{
	static const char *const names[] = {
		"NOP", "LAUNCH", "COPY", "FILL", "EVENT_RECORD", "EVENT_WAIT",
		"WRITE_VALUE", "WAIT_VALUE", "COPY_2D", "COPY_BATCH", "COPY_INDIRECT",
		"COPY_OFFSET", "REDUCE", "CALL", "SWITCH", "JUMP",
	};

	_Static_assert(ASCEND_CMD_JUMP == 15, "one name per opcode");

	return opcode < sizeof(names) / sizeof(names[0]) ? names[opcode] : "unknown opcode";
}

/*
 * CANN's code for a fault: a timed-out kernel is an AI-core timeout, any
 * other timed-out command (event or value wait, copy) a task timeout;
 * garbage in the ring is an internal error.
 */
static aclError fault_code(uint32_t fault, uint32_t opcode)
{
	switch (fault) {
	case ASCEND_FAULT_MMU:		return ACL_ERROR_RT_DEVICE_MEM_ERROR;
	case ASCEND_FAULT_KERNEL:	return ACL_ERROR_RT_AICORE_EXCEPTION;
	case ASCEND_FAULT_DMA:		return ACL_ERROR_RT_SYS_DMA;
	case ASCEND_FAULT_ABORTED:	return ACL_ERROR_RT_STREAM_ABORT;
	case ASCEND_FAULT_DEVICE_LOST:	return ACL_ERROR_RT_LOST_HEARTBEAT;
	case ASCEND_FAULT_TIMEOUT:
		return opcode == ASCEND_CMD_LAUNCH ? ACL_ERROR_RT_AICORE_TIMEOUT :
		       ACL_ERROR_RT_TASK_TIMEOUT;
	default:			return ACL_ERROR_RT_INTERNAL_ERROR;
	}
}

/* The CANN error for a faulted queue, with the status page's details. */
aclError queue_fault_error(struct acl_queue *q, uint32_t fault)
{
	struct ascend_queue_status *st = q->status;
	uint32_t opcode = LOAD(&st->fault_opcode);

	aclError code;

	if (!fault)
		fault = LOAD(&st->fault);
	code = fault_code(fault, opcode);
	exc_note_fault(q, LOAD(&st->fault_seq), code);
	return acl_err_at("stream", code,
			  "queue %u faulted: %s; command #%llu (%s, opcode %u), device address %#llx",
			  q->handle, fault_name(fault),
			  (unsigned long long)LOAD(&st->fault_seq), queue_opcode_name(opcode),
			  opcode, (unsigned long long)LOAD(&st->fault_addr));
}

/* Has the device stopped this queue on a fault? */
bool queue_faulted(struct acl_queue *q)
{
	return q->status && (LOAD(&q->status->fault) ||
			     (LOAD(&q->status->flags) & ASCEND_QUEUE_STATUS_FAULTED));
}

/* Discard what the fault left in the ring and restart the queue. */
aclError queue_reset(int fd, struct acl_queue *q)
{
	struct drm_ascend_queue_reset r = { .handle = q->handle };

	/* before the reset moves the completed count past discarded commands */
	__atomic_add_fetch(&q->resets, 1, __ATOMIC_SEQ_CST);
	if (drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r) && errno != EINVAL)
		return acl_err_at("stream", ACL_ERROR_RT_DRV_INTERNAL_ERROR,
				  "resetting faulted queue %u failed: %s", q->handle,
				  strerror(errno));
	return ACL_SUCCESS;
}

/* Spin this long on the status page before sleeping in the kernel. */
#define SPIN_NS		5000

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Done and healthy within SPIN_NS?  No system call. */
bool queue_spin(struct acl_queue *q, uint64_t seq)
{
	struct ascend_queue_status *st = q->status;
	unsigned int n = 0;
	int64_t end = 0;

	for (;;) {
		if (LOAD(&st->fault))
			return false;
		if (LOAD(&st->completed) >= seq)
			return true;
		if (!end)
			end = now_ns() + SPIN_NS;
		else if (++n % 8 == 0 && now_ns() >= end)	/* the clock costs */
			return false;
		cpu_relax();
	}
}

/* Wait until @seq commands completed or @deadline_ns (absolute) passed. */
aclError queue_wait(int fd, struct acl_queue *q, uint64_t seq, int64_t deadline_ns,
		    bool *timed_out)
{
	return queue_wait_spin(fd, q, seq, deadline_ns, timed_out, true);
}

/* queue_wait(); @spin false: the caller has just spun (queue_spin()). */
aclError queue_wait_spin(int fd, struct acl_queue *q, uint64_t seq, int64_t deadline_ns,
			 bool *timed_out, bool spin)
{
	struct drm_ascend_queue_wait w = {
		.handle = q->handle, .seq = seq, .timeout_ns = deadline_ns,
	};

	*timed_out = false;
	/* Done and healthy: no system call.  Spin a few microseconds first. */
	if (LOAD(&q->status->completed) >= seq && !LOAD(&q->status->fault))
		return ACL_SUCCESS;
	if (spin && deadline_ns != 0 && !LOAD(&q->status->fault)) {
		int64_t end = now_ns() + SPIN_NS;

		do {
			cpu_relax();
			if (LOAD(&q->status->completed) >= seq && !LOAD(&q->status->fault))
				return ACL_SUCCESS;
		} while (now_ns() < end);
	}
	if (drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w)) {
		if (errno == ETIME || errno == ETIMEDOUT) {
			*timed_out = true;
			return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
		}
		return acl_err(acl_drv_code(errno, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			       "waiting for command %llu on queue %u failed: %s",
			       (unsigned long long)seq, q->handle, strerror(errno));
	}
	if (w.fault)
		return queue_fault_error(q, w.fault);
	return ACL_SUCCESS;
}

/*
 * Stop the command the device runs on @q and drop it (@stop), or discard
 * everything published (!@stop); the queue goes on.  0 or an errno.
 */
int queue_clear(int fd, struct acl_queue *q, bool stop)
{
	struct drm_ascend_queue_reset r = {
		.handle = q->handle,
		.flags = stop ? DRM_ASCEND_QUEUE_RESET_STOP : DRM_ASCEND_QUEUE_RESET_ABORT,
	};
	int err = 0;

	/* before the reset moves the completed count past dropped commands */
	__atomic_add_fetch(&q->resets, 1, __ATOMIC_SEQ_CST);
	if (drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r))
		err = errno;
	if (!stop && !err)
		q->wptr = __atomic_load_n(&q->status->wptr, __ATOMIC_ACQUIRE);
	return err;
}

void queue_doorbell(int fd, struct acl_queue *q)
{
	struct drm_ascend_queue_doorbell db = { .handle = q->handle };

	drmIoctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &db);
}

/*
 * Append a command made of @a (@alen bytes) followed by @b (@blen bytes),
 * zero after that, to the ring and make sure the device side will see
 * it.  The command is written straight into its ring slot.
 */
aclError queue_submit2(int fd, struct acl_queue *q, const void *a, size_t alen,
		       const void *b, size_t blen)
{
	struct ascend_queue_status *st = q->status;
	uint64_t w = q->wptr;
	uint8_t *slot;
	bool to;
	aclError ret;

	/* A faulted queue still takes commands: the next synchronisation
	 * reports the fault and the reset discards them, as CANN drops the
	 * tasks after a failed one.  Full ring: wait for the oldest slot
	 * instead of overwriting it (a fault ends that wait with its code). */
	if (w - LOAD(&st->completed) >= q->ring_entries) {
		ret = queue_wait(fd, q, w + 1 - q->ring_entries,
				 DRM_ASCEND_TIMEOUT_INFINITE, &to);
		if (ret)
			return ret;
	}
	/* callers pass at most sizeof(struct ascend_cmd) <= cmd_size bytes */
	slot = q->ring + (size_t)queue_index(q, w) * q->cmd_size;
	memcpy(slot, a, alen);
	if (blen)
		memcpy(slot + alen, b, blen);
	if (alen + blen < sizeof(struct ascend_cmd))
		memset(slot + alen + blen, 0, sizeof(struct ascend_cmd) - alen - blen);
	q->wptr = w + 1;
	queue_publish(fd, q, w + 1);
	return ACL_SUCCESS;
}

/* Copy new device printf text to stdout.  Caller serialises drains. */
void queue_drain_printf(struct acl_queue *q)
{
	struct ascend_queue_status *st = q->status;
	uint64_t head, tail, dropped, n, off, chunk;
	uint32_t size = q->printf_size;

	if (!st || !size)
		return;
	head = LOAD(&st->printf_head);
	tail = __atomic_load_n(&st->printf_tail, __ATOMIC_RELAXED);
	if (head == tail && LOAD(&st->printf_dropped) == q->printf_dropped_seen)
		return;		/* nothing new: no stdio call */
	if (head - tail > size)		/* never trust the shared page */
		tail = head - size;
	for (n = head - tail; n; n -= chunk, tail += chunk) {
		off = tail & (size - 1);
		chunk = n < size - off ? n : size - off;
		fwrite(q->printf_buf + off, 1, chunk, stdout);
	}
	fflush(stdout);
	__atomic_store_n(&st->printf_tail, head, __ATOMIC_RELEASE);
	dropped = LOAD(&st->printf_dropped);
	if (dropped != q->printf_dropped_seen) {
		fprintf(stderr, "libaclrt: device printf buffer full, %llu bytes dropped\n",
			(unsigned long long)(dropped - q->printf_dropped_seen));
		q->printf_dropped_seen = dropped;
	}
}
