/* SPDX-License-Identifier: MIT */
/*
 * internal.h - libaclrt's private types and the functions its files share.
 *
 * Lock order (outer to inner):
 *   g_lock (device.c)  ->  acl_device.rw  ->  acl_device.lock
 *     ->  acl_stream.lock  ->  handle registry lock, address-map lock
 */
#ifndef LIBACLRT_INTERNAL_H
#define LIBACLRT_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "ascend_accel.h"
#include "errmsg.h"

#define ACL_MAX_DEVICES		64

/*
 * Thread-local state read on every launch, record and synchronisation:
 * the initial-exec model makes each access a plain %fs-relative load
 * instead of a call.  The few hundred bytes of such variables fit the
 * static TLS surplus glibc reserves for dlopen()ed libraries; the big
 * per-thread buffers (error messages) stay in the default model.
 */
#define ACL_TLS_HOT __thread __attribute__((tls_model("initial-exec")))

/*
 * The functions of aclrtMalloc's and aclrtFree's paths: GCC places them
 * together (.text.hot), so their calls stay within a page or two, which an
 * emulator (QEMU's TCG) chains directly instead of looking each one up.
 */
#define ACL_HOT __attribute__((hot))

/* The public function this thread is in, so that messages raised by
 * helpers name the API the caller used (errmsg.c). */
extern ACL_TLS_HOT const char *acl_api_name;
#define API_ENTER()	(acl_api_name = __func__)

struct acl_stream;
struct acl_device;
struct acl_alloc;

/*
 * A CANN context: a device plus a default stream.  Every device has one
 * default context (acl_device.defctx, shared by the threads that set the
 * device); aclrtCreateContext makes explicit ones (context.c), which hold a
 * device reference like aclrtSetDevice and have their own default stream.
 */
struct acl_context {
	struct acl_context *next;	/* dev->contexts; under g_lock */
	struct acl_device *dev;
	bool is_default;		/* &dev->defctx */
	bool dead;			/* its device was force-reset */
	struct acl_stream *stream;	/* explicit: default stream; dev->lock */
};

/*
 * One NPU as seen by this process.  The array of these never moves or
 * shrinks, so a pointer to one stays valid; what it holds is valid only
 * while @open is set, and @open only changes under @rw held for writing.
 */
struct acl_device {
	int id;				/* CANN device id (index of the node) */
	char path[64];			/* /dev/accel/accelN */

	/* Readers use fd, info, VA window, kernels; open/close write-lock. */
	pthread_rwlock_t rw;
	bool open;
	int fd;
	struct drm_ascend_device_info info;
	uintptr_t va_base;
	size_t va_size;
	struct drm_ascend_kernel_info *kernels;
	unsigned int num_kernels;

	int refcount;			/* aclrtSetDevice count; under g_lock */
	struct acl_context defctx;	/* the default context */
	struct acl_context *contexts;	/* explicit contexts; under g_lock */
	/* Devices whose memory this one's engines reach (PEER enabled), a
	 * bit per device id; changed under g_lock, read atomically. */
	uint64_t peer_mask;

	/* aclrtSetDeviceResLimit per aclrtDevResLimitType; cleared when the
	 * node is opened.  Under @lock. */
	bool res_limit_set[2];
	uint32_t res_limit[2];

	/* Protects the stream list and the default stream pointer. */
	pthread_mutex_t lock;
	struct acl_stream *streams;	/* every live stream, default included */
	struct acl_stream *default_stream;
	unsigned int nr_streams;	/* on @streams; at most ACL_STREAMS_MAX */
	/* The node's queue activity bitmap (queue.c); set in devnode_open(). */
	uint64_t *activity;
};

/* Streams one process may have on one device, default streams included:
 * CANN's limit on Atlas A2/A3 (Ascend 910B-class) parts. */
#define ACL_STREAMS_MAX	1984

/* device.c */
int dev_count(void);
struct acl_device *dev_by_id(int id);		/* NULL if id out of range */
int dev_current(void);				/* this thread's, -1 if none */
aclError dev_acquire(int id, struct acl_device **out);	/* read-locks */
struct acl_device *dev_try_acquire_current(void);	/* the same, or NULL */
aclError dev_acquire_current(struct acl_device **out);
void dev_release(struct acl_device *dev);
struct acl_device *dev_of_va(const void *p);	/* window owner or NULL */
void dev_release_all(void);			/* aclFinalize */
void dev_drain_all_printf(void);		/* atexit */
aclError dev_sync_all_streams(struct acl_device *dev, int32_t timeout_ms);
/* 107001 with a message naming @id and the number of devices found. */
aclError dev_bad_id(int32_t id);
/* DEVICE_INFO of device @id, set or not (its own short-lived file);
 * 107001 for a bad id, 507899 if the node cannot be queried. */
aclError dev_read_info(int32_t id, struct drm_ascend_device_info *info);
/* contexts and the device reference count (context.c, peer.c) */
void dev_lock(void);				/* g_lock */
void dev_unlock(void);
aclError dev_retain_locked(struct acl_device *d);	/* opens at 0 -> 1 */
void dev_unref_locked(struct acl_device *d);	/* releases at 1 -> 0 */
aclError dev_open_locked(struct acl_device *d);	/* open, no reference */
struct acl_context *ctx_current(void);		/* this thread's, may be NULL */
void ctx_set_current(struct acl_context *ctx);	/* NULL: none */
bool ctx_valid(const struct acl_context *ctx);	/* live, its device open */
/* The stream of @s may be used in this thread (its device is current). */
aclError stream_check_current(const struct acl_stream *s);
/* peer.c: peer link bookkeeping when @dev's file closes (g_lock held) */
void peer_release_device(struct acl_device *dev);
bool peer_enabled(int dev, int peer);
/* the device whose engines reach both (dst if it can), NULL: no link */
struct acl_device *peer_route(struct acl_device *dst, struct acl_device *src);
aclError peer_refused(int src, int dst);	/* 107000 with how to enable */
aclError peer_set(int32_t peer, uint32_t op);	/* from the current device */

/* devnode.c: opening a node and reserving its VA window */
int devnode_scan(char paths[][64], int max);
aclError devnode_open(struct acl_device *dev);
void devnode_close(struct acl_device *dev);
/* memory.c: the file's free ring, set up and torn down with the node */
void memory_ring_open(struct acl_device *dev);
void memory_ring_close(struct acl_device *dev);
int devnode_query(int fd, uint32_t type, void *buf, uint32_t *size);

/* handle.c: registry of live opaque handles (streams, binaries, ...) */
enum handle_type { H_STREAM = 1, H_BINARY, H_FUNC, H_ARGS, H_EVENT, H_CONTEXT, H_NOTIFY,
		   H_CNT_NOTIFY, H_PHYS, H_MODEL, H_LABEL, H_LABEL_LIST, H_COND };
void handle_add(void *p, enum handle_type type);
void handle_del(void *p);
bool handle_ok(const void *p, enum handle_type type);
bool handle_get(const void *p, enum handle_type type, int *refs);
/* validate and copy the object's first @n bytes under the registry lock */
bool handle_copy(const void *p, enum handle_type type, void *dst, size_t n);

/* queue.c: one kernel queue under a stream */
struct acl_queue {
	uint32_t handle;
	uint32_t ring_entries;
	void *area;
	size_t area_size;
	uint32_t cmd_size;		/* ring slot stride */
	uint64_t wptr;			/* our copy: the shared one is writable */
	struct ascend_queue_status *status;	/* shared: __atomic access */
	uint8_t *ring;
	const uint8_t *printf_buf;
	uint32_t printf_size;
	uint64_t printf_dropped_seen;
	/* QUEUE_RESETs issued, bumped before each (__atomic): a command seen
	 * completed with the count unchanged since its submission ran */
	uint64_t resets;
	/* the file's activity bitmap word of this queue and its bit, marked
	 * after each publish (NULL: the kernel has none) */
	uint64_t *act_word;
	uint64_t act_bit;
	bool ring_pow2;			/* ring_entries is a power of two */
};

/* The ring slot (index) of sequence number @w: no division when it can
 * be a mask (a division is a helper call under TCG). */
static inline uint64_t queue_index(const struct acl_queue *q, uint64_t w)
{
	return q->ring_pow2 ? (w & (q->ring_entries - 1)) : w % q->ring_entries;
}

void queue_doorbell(int fd, struct acl_queue *q);

/*
 * Publish the command just written at sequence number @w - 1 (q->wptr is
 * @w already): the release store of wptr, the full fence of the
 * NEED_WAKEUP handshake, the activity bit and, if the device asked for
 * it, the doorbell.  Always inline (LTO had made this and
 * exc_note_submit() calls of the submission fast paths: a call costs
 * under emulation).
 */
static inline __attribute__((always_inline)) void
queue_publish(int fd, struct acl_queue *q, uint64_t w)
{
	struct ascend_queue_status *st = q->status;

	__atomic_store_n(&st->wptr, w, __ATOMIC_RELEASE);
	/* NEED_WAKEUP: the device sets the flag, then rechecks wptr; we publish
	 * wptr, then read the flag.  The full fence orders the two. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* The file's synchronous operations look only at marked queues: a
	 * bit still set was not yet taken by one (which reads wptr after). */
	if (q->act_word && !(__atomic_load_n(q->act_word, __ATOMIC_RELAXED) & q->act_bit))
		__atomic_fetch_or(q->act_word, q->act_bit, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&st->flags, __ATOMIC_RELAXED) & ASCEND_QUEUE_STATUS_NEED_WAKEUP)
		queue_doorbell(fd, q);
}
/* @activity: the file's activity bitmap (queue_activity_open()), or NULL */
aclError queue_create(int fd, uint64_t *activity, struct acl_queue *q);
/* Map the file's queue activity bitmap: NULL on kernels without one. */
uint64_t *queue_activity_open(int fd);
void queue_activity_close(uint64_t *activity);
aclError queue_destroy(int fd, struct acl_queue *q, bool force);
void queue_unmap(struct acl_queue *q);
/* one command from two pieces (@a then @b), the rest of it zero */
aclError queue_submit2(int fd, struct acl_queue *q, const void *a, size_t alen,
		       const void *b, size_t blen);
aclError queue_wait(int fd, struct acl_queue *q, uint64_t seq, int64_t deadline_ns,
		    bool *timed_out);
aclError queue_wait_spin(int fd, struct acl_queue *q, uint64_t seq, int64_t deadline_ns,
			 bool *timed_out, bool spin);
/* spin briefly on the status page: @seq completed and no fault? */
bool queue_spin(struct acl_queue *q, uint64_t seq);
aclError queue_fault_error(struct acl_queue *q, uint32_t fault);
bool queue_faulted(struct acl_queue *q);
aclError queue_reset(int fd, struct acl_queue *q);
/* QUEUE_RESET(STOP) if @stop, else (ABORT): 0 or an errno */
int queue_clear(int fd, struct acl_queue *q, bool stop);
const char *queue_opcode_name(uint32_t opcode);
void queue_drain_printf(struct acl_queue *q);
int64_t deadline_from_ms(int32_t timeout_ms);

/* errinfo.c: what aclrtExceptionInfo carries about one failed command */
struct acl_exc {
	uint32_t task;		/* the command's sequence number in its stream */
	uint32_t stream;	/* aclrtStreamGetId */
	uint32_t tid;		/* the thread that submitted it (gettid) */
	uint32_t dev;		/* device id */
	aclError code;		/* the error the failure was reported with */
};

/* stream.c */
struct acl_stream {
	struct acl_stream *next;	/* device stream list, dev->lock */
	struct acl_device *dev;
	uint32_t flags;
	int refs;			/* atomic; last put unmaps and recycles */
	pthread_mutex_t lock;		/* ring writes, printf tail, dead, serial */
	bool dead;
	uint64_t serial;		/* incarnation: memory is recycled */
	bool is_default;		/* a context's default stream */
	uint32_t priority;		/* CANN's 0 (highest) .. 7, as created */
	uint32_t failure_mode;		/* ACL_CONTINUE/STOP_ON_FAILURE (bookkeeping) */
	uint32_t overflow_switch;	/* aclrtSetStreamOverflowSwitch, last set (__atomic) */
	uint32_t overflow_kid;		/* OverflowSwitch's kernel id once set, for resets */
	uint64_t aborts;		/* aclrtStreamAbort/Stop calls (__atomic), bumped
					 * before each: a sync that saw it change fails */
	struct acl_queue q;
	struct acl_cb *cb;		/* callback.c: host callbacks, lazily */
	/* errinfo.c: submitter of each ring slot, and the fault being
	 * reported (under errinfo.c's lock but @tids, written under @lock) */
	uint32_t *tids;			/* q.ring_entries entries, or NULL */
	uint64_t exc_key;		/* q.resets + 1 of the last noted fault */
	bool exc_pending;		/* noted, callbacks not yet run */
	struct acl_exc exc;
	/* the last use of acl host memory by a command of the fast path
	 * (stream_submit_cached()), under @lock, not yet in host.c's ledger:
	 * [lo, +n) used up to command @seq; n 0: none */
	struct { uintptr_t lo; size_t n; uint64_t seq; } hu;
	/* model.c: the model run instance this stream records into (its
	 * commands go there, not to the ring) and its index there; written
	 * under model.c's mdl_lock, read with atomic loads */
	struct acl_model *rec_m;
	unsigned int rec_i;
};
/* This thread's last validated stream, for the submission fast paths
 * (stream_lock_cached() in stream.c, the launch in kernel.c): @h is the
 * handle the caller passed (NULL: the current default stream), @s its
 * stream while @s->serial is @serial. */
struct acl_last_stream {
	aclrtStream h;
	struct acl_stream *s;
	uint64_t serial;
};
extern ACL_TLS_HOT struct acl_last_stream acl_t_last;
/*
 * The ring slot of the fast paths (launch_cached() in kernel.c,
 * record_cached() in event.c) on @s, this thread's last stream: @s locked
 * and the slot of *@w returned when the checks stream_submit_to() makes
 * hold for a command of device @dev_id (the same incarnation, alive, not
 * recording into a model, the current device its own, a free slot); else
 * NULL with nothing held, and the caller takes the full path, which finds
 * out what is wrong and says so.
 */
static inline __attribute__((always_inline)) struct ascend_cmd *
stream_fast_slot(struct acl_stream *s, int dev_id, uint64_t *w)
{
	struct acl_queue *q = &s->q;
	int cur;

	pthread_mutex_lock(&s->lock);
	*w = q->wptr;
	cur = dev_current();
	if (s->serial != acl_t_last.serial || s->dead || (cur >= 0 && cur != s->dev->id) ||
	    s->dev->id != dev_id || __atomic_load_n(&s->rec_m, __ATOMIC_ACQUIRE) ||
	    *w - __atomic_load_n(&q->status->completed, __ATOMIC_ACQUIRE) >= q->ring_entries) {
		pthread_mutex_unlock(&s->lock);
		return NULL;
	}
	return (struct ascend_cmd *)(q->ring + (size_t)queue_index(q, *w) * q->cmd_size);
}
aclError stream_acquire(aclrtStream h, struct acl_stream **s,
			struct acl_device **dev);
void stream_release(struct acl_stream *s, struct acl_device *dev);
/* stream_acquire() for submissions: a reference, no device lock (a
 * submission checks @dead under the stream lock); stream_put() it */
aclError stream_ref(aclrtStream h, struct acl_stream **s);
aclError stream_submit2(struct acl_stream *s, const void *a, size_t alen, const void *b,
			size_t blen);
aclError stream_submit(struct acl_stream *s, const struct ascend_cmd *cmd);
/* What stream_submit_to() tells about a submission (all out but @want_ref). */
struct submit_info {
	bool want_ref;			/* in: return the stream, referenced */
	struct acl_stream *s;		/* want_ref: the stream; stream_put() it */
	uint64_t seq;			/* the command's sequence number */
	uint64_t resets;		/* s->q.resets before it was submitted */
	int s_dev;			/* wrong device: the stream's */
};
/* @a+@b onto handle @h in one step; @dev_id >= 0: must be that device's
 * (else ACL_ERROR_RT_STREAM_CONTEXT with no message, @si->s_dev set) */
aclError stream_submit_to(aclrtStream h, int dev_id, const void *a, size_t alen,
			  const void *b, size_t blen, struct submit_info *si);
/* the copy/fill fast path: the command's first @len bytes (the rest zero)
 * submitted on the thread's last stream if it is alive, on @dev_id, usable here, with @caps (*@ret: the result); with
 * @host noting the use of that host memory.  False: nothing done. */
bool stream_submit_cached(aclrtStream h, int dev_id, uint64_t caps, const void *cmd,
			  size_t len, const struct acl_alloc *host, aclError *ret);
/* put the noted host memory uses of @dev's streams in the ledger (rw held) */
void stream_flush_host_uses(struct acl_device *dev);
/* done without the full path?  *@spun: it spun on the status page */
bool stream_sync_cached(aclrtStream h, bool *spun, bool *aborted);
void stream_forget_cached(void);	/* the thread's context changed */
aclError stream_submit_seq(struct acl_stream *s, const struct ascend_cmd *cmd, uint64_t *seq);
aclError stream_sync(struct acl_stream *s, int64_t deadline_ns, int32_t timeout_ms);
void stream_put(struct acl_stream *s);

/* stream_uses.c: the streams whose commands name an object, each with its
 * latest such command (a stream reference each); the owner's lock held */
struct stream_use {
	struct acl_stream *s;
	uint64_t seq;
};
struct stream_uses {
	struct stream_use *v;
	size_t n, cap;
};
void stream_uses_add(struct stream_uses *u, struct acl_stream *s, uint64_t seq);
bool stream_uses_idle(const struct stream_uses *u);	/* every one ran */
/* Has u->s executed (or discarded) command u->seq for good? */
bool stream_use_done(const struct stream_use *u);
void stream_uses_drop(struct stream_uses *u);		/* references put */
void stream_uses_free(struct stream_uses *u);
/* The fault of @s is being reported: reset its queue (report once). */
void stream_recover(struct acl_stream *s);
void stream_drain_printf(struct acl_stream *s);
aclError stream_kill(struct acl_stream *s, bool force);	/* dev->lock held */
/* stream_info.c: run the aclrtRegStreamStateCallback callbacks for @s
 * (no libaclrt lock held) */
void stream_state_notify(struct acl_stream *s, aclrtStreamState state);

/* allocator.c: @s is being destroyed: drop its allocator registration */
void allocator_stream_gone(struct acl_stream *s);

/* errinfo.c: this thread's id and last task (aclrtGetThreadLastTaskId) */
struct acl_task_note {
	uint32_t tid;			/* gettid(), 0: not read yet */
	uint32_t last_task;		/* id of this thread's last task */
	bool have_task;
};
extern ACL_TLS_HOT struct acl_task_note acl_t_task;
uint32_t exc_read_tid(void);	/* sets acl_t_task.tid */

/* errinfo.c: @s's command @seq was just submitted by this thread (s->lock) */
static inline __attribute__((always_inline)) void
exc_note_submit(struct acl_stream *s, uint64_t seq)
{
	uint32_t tid = acl_t_task.tid;

	if (__builtin_expect(!tid, 0))
		tid = exc_read_tid();
	if (s->tids && s->q.ring_entries)
		s->tids[queue_index(&s->q, seq)] = tid;
	acl_t_task.last_task = (uint32_t)seq;
	acl_t_task.have_task = true;
}
/* @q (a stream's) faulted with @code: note it for the exception callbacks */
void exc_note_fault(struct acl_queue *q, uint64_t seq, aclError code);
/* run the exception callbacks for a noted fault of @s (no lock held) */
void exc_fire(struct acl_stream *s);

/* addrmap.c: address -> allocation, O(log n) (an AVL tree) */
enum alloc_kind { ALLOC_DEVICE = 0, ALLOC_HOST };	/* ALLOC_HOST: acl-pinned */
struct acl_alloc {
	uintptr_t va;
	size_t size;		/* bytes reserved by the kernel */
	size_t user_size;	/* bytes the caller asked for */
	uint32_t handle;	/* GEM handle (device memory) */
	uint32_t page_size;	/* 4 KiB, 2 MiB or 1 GiB (device memory) */
	int dev_id;
	enum alloc_kind kind;
	uint32_t hflags;	/* ALLOC_HOST: HOST_F_* (host.c); ALLOC_DEVICE: DEV_F_* */
};
/* How acl host memory came to be (acl_alloc.hflags). */
#define HOST_F_ALLOC		(1U << 0)	/* aclrtMallocHost: driver pages, mmap'd */
#define HOST_F_REGISTERED	(1U << 1)	/* aclrtHostRegister*: the caller's pages */
#define HOST_F_READONLY		(1U << 2)	/* the device may only read it */
#define HOST_F_ORPHAN		(1U << 3)	/* its device was reset: CPU-only now */
/* Device memory flags (acl_alloc.hflags of ALLOC_DEVICE). */
#define DEV_F_RESERVED		(1U << 8)	/* a VA reservation (vmm.c), not aclrtMalloc's */
#define DEV_F_MANAGED		(1U << 9)	/* aclrtMemAllocManaged (managed.c) */
/* What an address is, as far as this process knows. */
enum addr_class {
	ADDR_PAGEABLE = 0,		/* host memory acl does not know */
	ADDR_DEVICE,			/* inside a live device allocation */
	ADDR_HOST,			/* inside acl-pinned/registered host memory */
	ADDR_DEVICE_UNALLOCATED,	/* in a device VA window, no allocation */
};
int addrmap_insert(const struct acl_alloc *a);
bool addrmap_remove(uintptr_t va, struct acl_alloc *out);
/* addrmap_remove(), unless the allocation there has one of @hflags. */
bool addrmap_remove_unless(uintptr_t va, uint32_t hflags, struct acl_alloc *out);
/*
 * The map's write lock, for a caller that does a little more under it
 * than the removal (memory.c: publishing the free on the free ring).
 */
void addrmap_wrlock(void);
void addrmap_unlock(void);
/* addrmap_remove_unless() with addrmap_wrlock() held. */
bool addrmap_remove_unless_locked(uintptr_t va, uint32_t hflags, struct acl_alloc *out);
bool addrmap_find(uintptr_t p, struct acl_alloc *out);	/* containing p */
enum addr_class addrmap_classify(const void *p, struct acl_alloc *out);
/* both sides of a copy under one read lock */
void addrmap_classify2(const void *p, enum addr_class *pc, struct acl_alloc *pa,
		       const void *q, enum addr_class *qc, struct acl_alloc *qa);
/* both inside allocations this thread classified since the map changed:
 * its copies of them, without a lock (addrmap.c) */
bool addrmap_seen2(const void *p, const struct acl_alloc **pa, const void *q,
		   const struct acl_alloc **qa);
const struct acl_alloc *addrmap_seen(const void *p);
size_t addrmap_count(void);
size_t addrmap_take_device(int dev_id, struct acl_alloc **out);
/* Some entry overlaps [lo, lo + n): true and *out = the first such one. */
bool addrmap_overlap(uintptr_t lo, size_t n, struct acl_alloc *out);
/* Device reset: remove @dev_id's registered host memory, orphan its
 * aclrtMallocHost memory (kept, CPU-only); both returned for GEM_CLOSE. */
size_t addrmap_take_host(int dev_id, struct acl_alloc **out);

/* host_overlay.c: registrations over aclrtMallocHost memory (bookkeeping) */
aclError host_overlay_add(void *ptr, uint64_t size, const struct acl_alloc *a, int dev_id);
bool host_overlay_remove(const void *ptr);
void host_overlay_drop(uintptr_t alloc);

/* host.c: pinned host memory, staging for pageable copies, and the ledger
 * of queued commands that use host memory (so that frees wait for them) */
bool host_usable(const struct acl_alloc *a, int dev_id);	/* in dev's MMU */
void host_note_use(struct acl_stream *s, uint64_t seq, uintptr_t lo, size_t n);
aclError host_stage_h2d(struct acl_stream *s, void *dst, const void *src, size_t count,
			bool *staged);
aclError host_pin_error(int e, size_t bytes, const char *what);
void host_release_device(struct acl_device *dev);	/* dev rw write-held */

/* memcpy.c: where the two sides of a copy are, and checks shared by the
 * copy files (memcpy_2d.c, memcpy_batch.c, memcpy_desc.c) */
enum copy_loc { CL_HOST, CL_DEV, CL_UNREG };	/* acl-pinned, device, pageable */
extern const char *const copy_loc_name[];
struct copy_side {
	enum copy_loc loc;
	enum addr_class cls;
	struct acl_alloc a;		/* ADDR_DEVICE, ADDR_HOST */
	struct acl_device *dev;		/* device memory: its device */
};
void copy_locate(const void *p, struct copy_side *sd);
bool copy_dst_readonly(const struct copy_side *sd);
/* [p, +count) inside one device allocation (its requested size), else 107000 */
aclError copy_check_range(const char *name, const void *p, size_t count);
/* copy_check_range() of side @sd as copy_locate() found it (no look-up
 * when it is in a device allocation) */
aclError copy_check_side_range(const char *name, const void *p, size_t count,
			       const struct copy_side *sd);
aclError copy_check_host_range(const char *name, const void *p, size_t count,
			       const struct acl_alloc *a);
aclError copy_check_host_side(const char *name, const void *p, size_t count,
			      const struct copy_side *sd, int dev_id, bool is_dst);
/* one DRM_IOCTL_ASCEND_COPY on @dev (rw read-held) */
aclError copy_ioctl(struct acl_device *dev, void *dst, const void *src, size_t count, bool host);
/* CANN's MemcpyKindAutoCorrect: the corrected kind, or -1 */
int copy_auto_correct(enum copy_loc s, enum copy_loc d, aclrtMemcpyKind kind);

/* host.c: one command whose payload is @len bytes (<= host_stage_max()) in
 * a libaclrt-owned pinned buffer, written there by @fill (no copy of a
 * copy); *@addr_field (inside *@cmd) is set to the buffer's device address
 * before submission; the buffer is recycled once the command completed.
 * *staged false: no staging memory (@fill was not called). */
size_t host_stage_max(void);
aclError host_stage_cmd(struct acl_stream *s, size_t len,
			void (*fill)(void *buf, size_t len, void *arg), void *arg,
			struct ascend_cmd *cmd, __u64 *addr_field, uint64_t *seq,
			bool *staged);

/* memory.c */
aclError malloc_cfg_parse(const aclrtMallocConfig *cfg, int *dev_id);
void memory_release_device(struct acl_device *dev);
/* managed.c: aclrtFree of managed memory (removed from the map already) */
void managed_free(struct acl_device *dev, const struct acl_alloc *a);
/* managed.c: its device is reset; the node's close frees the object */
void managed_release_device(const struct acl_alloc *a);

/* meminfo.c */
int mem_query_info(struct acl_device *dev, struct drm_ascend_device_info *info,
		   bool *tail);

/* kernel.c */
void kernel_release_device(int dev_id);
/* built-in kernel @name of @stream's device: its id, the device's AI cores */
aclError builtin_find(aclrtStream stream, const char *name, uint32_t *id, uint32_t *cores);
/* a launch of built-in kernel @id onto @stream (arguments checked by the caller) */
aclError builtin_submit(aclrtStream stream, uint32_t id, uint32_t num_blocks, const void *args,
			uint32_t args_size);
/* One block of built-in kernel @id on @s, stream lock held: the ring write
 * alone (no reset on failure) */
aclError builtin_submit_locked(struct acl_stream *s, uint32_t id, const void *args,
			       uint32_t args_size);

/* event.c: device reset drops the device's events; dev rw write-held */
void event_release_device(struct acl_device *dev);
/* Kernel event objects for internal use (callbacks); dev rw held. */
aclError event_kcreate(int fd, uint32_t flags, uint32_t *handle);
void event_kdestroy(int fd, uint32_t handle);

/* callback.c: @s is being destroyed (dev->lock held): unblock its queue
 * from blocking callbacks nobody will run, then (queue destroyed) free
 * its callback state */
void callback_stream_unblock(struct acl_stream *s);
void callback_stream_gone(struct acl_stream *s);

/* notify.c: device reset drops the device's notifies; dev rw write-held */
void notify_release_device(struct acl_device *dev);

/* ipc.c: one export / import of a kernel object by key (dev rw held) */
aclError ipc_export(struct acl_device *dev, uint32_t type, uint32_t flags, uint64_t va,
		    uint64_t size, uint32_t event, char key[DRM_ASCEND_IPC_KEY_LEN]);
aclError ipc_import(struct acl_device *dev, const char key[DRM_ASCEND_IPC_KEY_LEN],
		    uint32_t type, struct drm_ascend_ipc_import *out);
aclError ipc_check_pids(const int32_t *pid, size_t num);
aclError ipc_set_pids(struct acl_device *dev, const char key[DRM_ASCEND_IPC_KEY_LEN],
		      const int32_t *pid, size_t num);

/* vmm.c: physical allocations, reservations, their mappings */
void vmm_release_device(struct acl_device *dev);	/* dev rw write-held */
/* The mapping holding @p in a reservation: its start and size. */
bool vmm_mapping_of(const void *p, uintptr_t *base, size_t *size, uint32_t *page_size);

/* model.c: model run instances.  A recording stream's commands go to
 * mdl_record() (stream lock held); event.c hands records and waits on
 * recording streams to mdl_event_record/_wait (true: handled, *@ret).
 * @mdl_norec, set around a submission, says why it cannot be recorded. */
extern ACL_TLS_HOT const char *mdl_norec;
/* @mdl_own, set around a submission: device memory the command reads
 * (aclrtMalloc'd); a recording takes it (freed with the instance) and
 * clears it, so still set afterwards means the command went to the ring. */
extern __thread void *mdl_own;
/* Does @s record into a model run instance now (a hint: it may stop)? */
bool mdl_stream_records(struct acl_stream *s);
/* The library's own synchronous host-to-device copy (no capture mode applies). */
aclError mdl_copy_h2d(void *dst, const void *src, size_t n);
/* mdl_record(): the stream stopped recording meanwhile, submit it normally */
#define MDL_NOT_RECORDING	((aclError)-1)
aclError mdl_record(struct acl_stream *s, const void *a, size_t alen, const void *b,
		    size_t blen);
/* streams recording into a model run instance now (__atomic; 0: none, the
 * submission fast paths need not ask mdl_event_record() and the like) */
extern int mdl_recording;
bool mdl_event_record(aclrtEvent event, aclrtStream stream, bool external, aclError *ret);
bool mdl_event_wait(aclrtStream stream, aclrtEvent event, bool external, aclError *ret);
bool mdl_hostfunc(aclrtStream stream, aclrtHostFunc fn, void *args, aclError *ret);
/* callback.c: a host function on @stream, as aclrtLaunchHostFunc (a replay's) */
aclError hostfunc_launch(aclrtStream stream, aclrtHostFunc fn, void *args);
/* An unsafe call (@what) under the capture modes: 0 or @code, with a message. */
aclError mdl_mode_check(const char *what, aclError code);
/* An asynchronous copy of pageable memory on @s (made synchronous): 0 or why not. */
aclError mdl_pageable_check(struct acl_stream *s, const char *what);
/* event.c: a record / wait as aclrtRecordEvent / aclrtStreamWaitEvent */
aclError event_record_on(aclrtEvent event, aclrtStream stream);
aclError event_wait_on(aclrtStream stream, aclrtEvent event);

/* init.c */
void acl_register_atexit(void);

#endif /* LIBACLRT_INTERNAL_H */
