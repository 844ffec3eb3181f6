// SPDX-License-Identifier: MIT
/*
 * stream.c - streams (one hardware queue each), the lazily created default
 * stream of a device, and the aclrt stream entry points.
 *
 * A stream lives while it is in the handle registry or someone holds a
 * reference: destroy removes it from the registry and the queue from the
 * device, the last reference unmaps the queue area and recycles the memory.
 *
 * Stream memory is type-stable: a dead acl_stream is only ever reused as
 * another acl_stream (its mutex stays initialised) with a new @serial.
 * That lets the submission fast path skip the handle registry for the
 * stream this thread used last: it locks the stream and compares the
 * serial it validated before (see stream_lock_cached()).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Flags CANN accepts for aclrtCreateStreamWithConfig. */
#define STREAM_FLAGS	(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC |	\
			 ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |		\
			 ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)
/* Streams whose synchronisation is a no-op success in CANN. */
#define STREAM_NOSYNC	(ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE |	\
			 ACL_STREAM_DEVICE_USE_ONLY)

/* Recycled stream memory (never freed: see the top of the file). */
static pthread_mutex_t s_pool_lock = PTHREAD_MUTEX_INITIALIZER; /* both below */
static struct acl_stream *s_pool;
static uint64_t s_serial;

/* This thread's last validated stream (internal.h) */
ACL_TLS_HOT struct acl_last_stream acl_t_last;

static struct acl_stream *stream_alloc(void)
{
	struct acl_stream *s;

	pthread_mutex_lock(&s_pool_lock);
	s = s_pool;
	if (s)
		s_pool = s->next;
	pthread_mutex_unlock(&s_pool_lock);
	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (s) {
		pthread_mutex_init(&s->lock, NULL);
		s->dead = true;
	}
	return s;
}

static void stream_recycle(struct acl_stream *s)
{
	pthread_mutex_lock(&s_pool_lock);
	s->next = s_pool;
	s_pool = s;
	pthread_mutex_unlock(&s_pool_lock);
}

/*
 * Create a stream on @dev (rw read-held, dev->lock held); @is_default: a
 * default stream.  One slot of ACL_STREAMS_MAX stays for the device's
 * default stream while it does not exist yet, so that the calls which
 * create it on first use still work when explicit streams took the rest.
 */
static aclError stream_new(struct acl_device *dev, uint32_t flags, uint32_t priority,
			   bool is_default, struct acl_stream **out)
{
	unsigned int limit = ACL_STREAMS_MAX;
	struct acl_stream *s;
	struct acl_queue q;
	aclError ret;

	if (!is_default && !dev->default_stream)
		limit--;
	if (dev->nr_streams >= limit)
		return acl_err(ACL_ERROR_RT_NO_STREAM_RESOURCE,
			       "device %d already has %u streams (default streams included); a process may have at most %u on one device",
			       dev->id, dev->nr_streams, ACL_STREAMS_MAX);
	s = stream_alloc();
	if (!s)
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	ret = queue_create(dev->fd, dev->activity, &q);
	if (ret) {
		stream_recycle(s);
		return ret;
	}
	/* under its lock: a thread holding a stale handle may look at it */
	pthread_mutex_lock(&s->lock);
	s->dev = dev;
	s->flags = flags;
	s->priority = priority;
	s->failure_mode = ACL_CONTINUE_ON_FAILURE;
	s->overflow_switch = 0;
	s->refs = 1;		/* the registry's reference */
	s->is_default = is_default;
	s->q = q;
	s->cb = NULL;
	free(s->tids);
	s->tids = calloc(q.ring_entries ? q.ring_entries : 1, sizeof(*s->tids));
	s->exc_pending = false;
	s->exc_key = 0;
	s->hu.n = 0;
	pthread_mutex_lock(&s_pool_lock);
	s->serial = ++s_serial;
	pthread_mutex_unlock(&s_pool_lock);
	__atomic_store_n(&s->dead, false, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	s->next = dev->streams;
	dev->streams = s;
	dev->nr_streams++;
	handle_add(s, H_STREAM);
	*out = s;
	return ACL_SUCCESS;
}

void stream_put(struct acl_stream *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL))
		return;
	queue_unmap(&s->q);
	stream_recycle(s);	/* @dead stays set */
}

/* The thread's current context changed: NULL no longer means the same
 * stream.  (device.c) */
void stream_forget_cached(void)
{
	acl_t_last.h = NULL;
	acl_t_last.s = NULL;
}

/*
 * Fast path: if @h is the handle this thread validated last and its
 * stream is the same incarnation and alive, return it locked (no
 * reference needed: destroy marks it dead under this lock before it
 * drops the registry's reference).  Type-stable memory makes locking a
 * stale handle's stream safe.  NULL: take stream_ref().
 */
static struct acl_stream *stream_lock_cached(aclrtStream h)
{
	struct acl_stream *s = acl_t_last.s;

	if (!s || h != acl_t_last.h)
		return NULL;
	pthread_mutex_lock(&s->lock);
	if (s->serial == acl_t_last.serial && !s->dead)
		return s;
	pthread_mutex_unlock(&s->lock);
	acl_t_last.s = NULL;
	return NULL;
}

static void stream_remember(aclrtStream h, struct acl_stream *s)
{
	acl_t_last.h = h;
	acl_t_last.s = s;
	acl_t_last.serial = s->serial;	/* stable while we hold a reference */
}

/* The current context's default stream (the device's for the default
 * context, the context's own for an explicit one), created on first use. */
static aclError default_stream(struct acl_stream **out, struct acl_device **dev)
{
	struct acl_context *c;
	struct acl_stream **slot;
	struct acl_device *d;
	aclError ret;

	ret = dev_acquire_current(&d);
	if (ret)
		return ret;
	c = ctx_current();	/* valid: checked under d->rw just now */
	slot = c && !c->is_default ? &c->stream : &d->default_stream;
	pthread_mutex_lock(&d->lock);
	if (!*slot) {
		ret = stream_new(d, 0, 0, true, slot);
	}
	if (!ret)
		__atomic_add_fetch(&(*slot)->refs, 1, __ATOMIC_ACQ_REL);
	*out = *slot;
	pthread_mutex_unlock(&d->lock);
	if (ret) {
		dev_release(d);
		return ret;
	}
	*dev = d;
	return ACL_SUCCESS;
}

/*
 * CANN binds a stream to its context: using a stream of another device than
 * the thread's current one is ACL_ERROR_RT_STREAM_CONTEXT (107003).  A
 * thread with no current device may use any stream (callback and helper
 * threads hand streams around).
 */
aclError stream_check_current(const struct acl_stream *s)
{
	int cur = dev_current();

	if (cur >= 0 && s->dev->id != cur)
		return acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			       "stream %p belongs to device %d, but this thread's current device is %d (switch with aclrtSetDevice/aclrtSetCurrentContext)",
			       (const void *)s, s->dev->id, cur);
	return ACL_SUCCESS;
}

/* Resolve a user stream handle (NULL: the current device's default stream),
 * take a reference and read-lock its device. */
aclError stream_acquire(aclrtStream h, struct acl_stream **out, struct acl_device **dev)
{
	struct acl_stream *s = h;
	aclError ret;

	if (!h)
		return default_stream(out, dev);
	if (!handle_get(h, H_STREAM, &s->refs))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "stream %p is not a live stream (never created, or destroyed)", h);
	ret = stream_check_current(s);
	if (!ret)
		ret = dev_acquire(s->dev->id, dev);
	if (ret) {
		stream_put(s);
		return ret;
	}
	if (__atomic_load_n(&s->dead, __ATOMIC_ACQUIRE)) {
		stream_release(s, *dev);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "stream %p was destroyed", h);
	}
	*out = s;
	return ACL_SUCCESS;
}

void stream_release(struct acl_stream *s, struct acl_device *dev)
{
	stream_put(s);
	dev_release(dev);
}

/*
 * stream_acquire() without keeping the device read-locked, for the
 * submission fast path: the queue and its file stay valid while the
 * stream is not @dead, and @dead is checked under the stream lock, which
 * a device reset takes (stream_kill()) before it closes the file.
 */
aclError stream_ref(aclrtStream h, struct acl_stream **out)
{
	struct acl_stream *s = h;
	struct acl_device *dev;
	aclError ret;

	if (!h) {
		ret = default_stream(out, &dev);
		if (!ret)
			dev_release(dev);
		return ret;
	}
	if (!handle_get(h, H_STREAM, &s->refs))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "stream %p is not a live stream (never created, or destroyed)", h);
	if (__atomic_load_n(&s->dead, __ATOMIC_ACQUIRE)) {
		stream_put(s);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "stream %p was destroyed", h);
	}
	ret = stream_check_current(s);
	if (ret) {
		stream_put(s);
		return ret;
	}
	*out = s;
	return ACL_SUCCESS;
}

/*
 * Fault reporting: CANN reports a failed task once, at the synchronisation
 * that sees it.  Whoever turns a queue fault into an error code (sync,
 * query, a submission that found the ring full) resets the queue at once:
 * the commands behind the faulting one are discarded and the stream is
 * usable again; later synchronisations succeed.
 */
/*
 * A reset restarts the device queue with its overflow switch off (the
 * device keeps it per queue): queue it again when the stream has it on.
 * Stream lock held.  The commands a stop kept run before it.
 */
static void stream_after_reset(struct acl_stream *s)
{
	uint32_t on = 1;

	if (__atomic_load_n(&s->overflow_switch, __ATOMIC_RELAXED) && s->overflow_kid &&
	    builtin_submit_locked(s, s->overflow_kid, &on, sizeof(on)) == ACL_SUCCESS)
		exc_note_submit(s, s->q.wptr);
}

void stream_recover(struct acl_stream *s)
{
	pthread_mutex_lock(&s->lock);
	if (!s->dead && queue_faulted(&s->q) && queue_reset(s->dev->fd, &s->q) == ACL_SUCCESS)
		stream_after_reset(s);
	pthread_mutex_unlock(&s->lock);
	exc_fire(s);
}

aclError stream_submit(struct acl_stream *s, const struct ascend_cmd *cmd)
{
	return stream_submit_seq(s, cmd, NULL);
}

/* Write one command to @s, stream lock held and @s alive. */
static aclError submit_locked(struct acl_stream *s, const void *a, size_t alen,
			      const void *b, size_t blen, uint64_t *seq)
{
	aclError ret;

	if (__atomic_load_n(&s->rec_m, __ATOMIC_ACQUIRE)) {
		/* recorded into a model run instance, not run */
		ret = mdl_record(s, a, alen, b, blen);
		if (ret != MDL_NOT_RECORDING) {
			if (!ret && seq)
				*seq = s->q.wptr;
			return ret;
		}
	}
	ret = queue_submit2(s->dev->fd, &s->q, a, alen, b, blen);
	if (ret && queue_faulted(&s->q)) {
		/* as stream_recover() */
		if (queue_reset(s->dev->fd, &s->q) == ACL_SUCCESS)
			stream_after_reset(s);
	} else if (!ret) {
		exc_note_submit(s, s->q.wptr);
		if (seq)
			*seq = s->q.wptr;
	}
	return ret;
}

static aclError submit(struct acl_stream *s, const void *a, size_t alen, const void *b,
		       size_t blen, uint64_t *seq)
{
	aclError ret;

	pthread_mutex_lock(&s->lock);
	if (s->dead)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID, "stream %p was destroyed", (void *)s);
	else
		ret = submit_locked(s, a, alen, b, blen, seq);
	pthread_mutex_unlock(&s->lock);
	if (ret)
		exc_fire(s);
	return ret;
}

/*
 * One command from @a then @b onto stream handle @h (NULL: the current
 * default stream), in one step: the launch and record fast path.  When
 * @dev_id >= 0 the stream must be on that device (else
 * ACL_ERROR_RT_STREAM_CONTEXT, nothing submitted, no message, @si->s_dev
 * its device).  @si may be NULL; see struct submit_info.
 */
aclError stream_submit_to(aclrtStream h, int dev_id, const void *a, size_t alen,
			  const void *b, size_t blen, struct submit_info *si)
{
	struct acl_stream *s = stream_lock_cached(h);
	bool cached = s;
	aclError ret;

	if (!s) {
		ret = stream_ref(h, &s);
		if (ret)
			return ret;
		pthread_mutex_lock(&s->lock);
		if (s->dead) {
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID, "stream %p was destroyed",
				      (void *)s);
			goto out;
		}
	} else {
		ret = stream_check_current(s);
		if (ret)
			goto out;
	}
	if (dev_id >= 0 && s->dev->id != dev_id) {
		if (si)
			si->s_dev = s->dev->id;
		ret = ACL_ERROR_RT_STREAM_CONTEXT;
		goto out;
	}
	if (si)
		si->resets = __atomic_load_n(&s->q.resets, __ATOMIC_SEQ_CST);
	ret = submit_locked(s, a, alen, b, blen, si ? &si->seq : NULL);
	if (!ret && si && si->want_ref) {
		/* alive and locked: at least the registry's reference is held */
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
		si->s = s;
	}
	if (!ret && !cached)
		stream_remember(h, s);
out:
	pthread_mutex_unlock(&s->lock);
	if (ret)
		exc_fire(s);
	if (!cached)
		stream_put(s);
	return ret;
}

/*
 * The enqueue fast path of the asynchronous copies and fills: the command
 * whose first @len bytes are at @cmd (the rest zero) goes onto @h if it is the stream this thread used last (stream_lock_cached(),
 * no registry, no reference, no device lock), alive, on device @dev_id,
 * usable from this thread (stream_check_current()), and that device has
 * every capability in @caps.  With @host the command's use of that acl host
 * memory is noted in @s->hu, where a loop of copies from one buffer moves
 * it on without the ledger's lock; a use of other memory first puts the
 * previous one in the ledger (host_note_use(), under the stream lock, which
 * keeps the stream and its file alive for it), and whoever waits for the
 * uses of host memory puts them all there first (stream_flush_host_uses()).
 * *@ret: the submission's
 * result.  False, with nothing done and no message: the caller takes its
 * full path, which finds out what is wrong.
 */
bool stream_submit_cached(aclrtStream h, int dev_id, uint64_t caps, const void *cmd,
			  size_t len, const struct acl_alloc *host, aclError *ret)
{
	struct acl_stream *s = stream_lock_cached(h);
	int cur = dev_current();
	uint64_t seq;

	if (!s)
		return false;
	if (s->dev->id != dev_id || (cur >= 0 && cur != dev_id) ||
	    (s->dev->info.capabilities & caps) != caps) {
		pthread_mutex_unlock(&s->lock);
		return false;
	}
	*ret = submit_locked(s, cmd, len, NULL, 0, &seq);
	if (!*ret && host) {
		if (s->hu.n && (s->hu.lo != host->va || s->hu.n != host->size))
			host_note_use(s, s->hu.seq, s->hu.lo, s->hu.n);
		s->hu.lo = host->va;
		s->hu.n = host->size;
		s->hu.seq = seq;
	}
	pthread_mutex_unlock(&s->lock);
	if (*ret)
		exc_fire(s);
	return true;
}

/*
 * Before the ledger is searched for the uses of host memory of @dev (rw
 * read-held): move every stream's noted use (@hu) into it.  Lock order:
 * dev->lock, then the stream lock, then the ledger's.
 */
void stream_flush_host_uses(struct acl_device *dev)
{
	struct acl_stream *s;

	pthread_mutex_lock(&dev->lock);
	for (s = dev->streams; s; s = s->next) {
		pthread_mutex_lock(&s->lock);
		if (s->hu.n && !s->dead)
			host_note_use(s, s->hu.seq, s->hu.lo, s->hu.n);
		s->hu.n = 0;
		pthread_mutex_unlock(&s->lock);
	}
	pthread_mutex_unlock(&dev->lock);
}

/*
 * aclrtSynchronizeStream's fast path: @h is the stream this thread used
 * last, it is healthy and everything published on it completes within the
 * spin (a launch on an idle stream does): no registry, no device lock, no
 * system call.  False: take the full path.
 */
bool stream_sync_cached(aclrtStream h, bool *spun, bool *aborted)
{
	struct acl_stream *s = stream_lock_cached(h);
	struct ascend_queue_status *st;
	uint64_t seq, aborts;
	bool done;

	if (!s)
		return false;
	if (stream_check_current(s) != ACL_SUCCESS || (s->flags & STREAM_NOSYNC)) {
		pthread_mutex_unlock(&s->lock);
		return false;	/* the full path says what is wrong */
	}
	seq = s->q.wptr;
	st = s->q.status;
	aborts = __atomic_load_n(&s->aborts, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);	/* keeps st mapped */
	pthread_mutex_unlock(&s->lock);
	*spun = true;
	done = queue_spin(&s->q, seq) &&
	       __atomic_load_n(&st->printf_head, __ATOMIC_ACQUIRE) ==
	       __atomic_load_n(&st->printf_tail, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->aborts, __ATOMIC_SEQ_CST) != aborts) {
		*aborted = true;
		done = false;
		acl_err_at("aclrtSynchronizeStream", ACL_ERROR_RT_STREAM_ABORT,
			   "stream %p was aborted or stopped while this synchronisation waited",
			   (void *)s);
	}
	stream_put(s);
	return done;
}

/* stream_submit() that also says the command's sequence number. */
aclError stream_submit_seq(struct acl_stream *s, const struct ascend_cmd *cmd, uint64_t *seq)
{
	return submit(s, cmd, sizeof(*cmd), NULL, 0, seq);
}

/* One command from @a then @b (the rest zero), built in its ring slot. */
aclError stream_submit2(struct acl_stream *s, const void *a, size_t alen, const void *b,
			size_t blen)
{
	return submit(s, a, alen, b, blen, NULL);
}

void stream_drain_printf(struct acl_stream *s)
{
	pthread_mutex_lock(&s->lock);
	if (!s->dead)
		queue_drain_printf(&s->q);
	pthread_mutex_unlock(&s->lock);
}

static aclError sync_seq(struct acl_stream *s, int64_t deadline_ns, int32_t timeout_ms,
			 bool spin);

/* Wait for everything published on @s so far; device rw read-held. */
aclError stream_sync(struct acl_stream *s, int64_t deadline_ns, int32_t timeout_ms)
{
	return sync_seq(s, deadline_ns, timeout_ms, true);
}

/* stream_sync(); @spin false: the caller spun already (one spin per call) */
static aclError sync_seq(struct acl_stream *s, int64_t deadline_ns, int32_t timeout_ms,
			 bool spin)
{
	struct ascend_queue_status *st = s->q.status;
	uint64_t seq, aborts;
	bool to;
	aclError ret;

	if (s->flags & STREAM_NOSYNC)
		return ACL_SUCCESS;
	pthread_mutex_lock(&s->lock);
	seq = s->q.wptr;
	aborts = __atomic_load_n(&s->aborts, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&s->lock);
	ret = queue_wait_spin(s->dev->fd, &s->q, seq, deadline_ns, &to, spin);
	stream_drain_printf(s);
	/* CANN: a synchronisation under aclrtStreamAbort fails with STREAM_ABORT */
	if (__atomic_load_n(&s->aborts, __ATOMIC_SEQ_CST) != aborts)
		return acl_err_at("aclrtSynchronizeStream", ACL_ERROR_RT_STREAM_ABORT,
				  "stream %p was aborted or stopped while this synchronisation waited",
				  (void *)s);
	if (ret && !to && queue_faulted(&s->q))
		stream_recover(s);
	if (to)
		return acl_err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
			       "stream %p did not finish within %d ms (%llu of %llu commands completed)",
			       (void *)s, timeout_ms,
			       (unsigned long long)__atomic_load_n(&st->completed, __ATOMIC_ACQUIRE),
			       (unsigned long long)seq);
	return ret;
}

/* Destroy @s: wait (unless @force), drain printf, destroy the queue and drop
 * the registry's reference.  dev rw held (read or write), dev->lock held. */
aclError stream_kill(struct acl_stream *s, bool force)
{
	struct acl_device *dev = s->dev;
	struct acl_stream **pp;
	aclError ret;
	bool to;

	handle_del(s);
	allocator_stream_gone(s);
	callback_stream_unblock(s);	/* blocking callbacks nobody will run */
	pthread_mutex_lock(&s->lock);
	/* A fault is reported by synchronisation, not by destroy. */
	if (!force)
		queue_wait(dev->fd, &s->q, s->q.wptr, DRM_ASCEND_TIMEOUT_INFINITE, &to);
	queue_drain_printf(&s->q);
	ret = queue_destroy(dev->fd, &s->q, force);
	queue_drain_printf(&s->q);	/* what the forced grace period produced */
	callback_stream_gone(s);	/* no command refers to its events now */
	__atomic_store_n(&s->dead, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	for (pp = &dev->streams; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			dev->nr_streams--;
			break;
		}
	}
	if (dev->default_stream == s)
		dev->default_stream = NULL;
	stream_put(s);
	return ret;
}

/* CANN's stream priorities: 0 is the greatest, 7 the least (base_info.hpp
 * in hicann/runtime); values outside are clamped, not refused. */
#define PRIO_GREATEST	0
#define PRIO_LEAST	7

static uint32_t clamp_priority(uint32_t priority)
{
	int32_t p = (int32_t)priority;	/* the runtime takes it as int32_t */

	return p < PRIO_GREATEST ? PRIO_GREATEST : p > PRIO_LEAST ? PRIO_LEAST : (uint32_t)p;
}

static aclError create_stream(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	if (flag & ~STREAM_FLAGS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag %#x has unknown bits %#x (known: %#x)", flag,
			       flag & ~STREAM_FLAGS, STREAM_FLAGS);
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&dev->lock);
	/* One hardware priority level: the value is kept for the getters. */
	ret = stream_new(dev, flag, clamp_priority(priority), false, &s);
	pthread_mutex_unlock(&dev->lock);
	dev_release(dev);
	if (!ret) {
		*stream = s;
		stream_state_notify(s, ACL_RT_STREAM_STATE_CREATE_POST);
	}
	return ret;
}

aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
	API_ENTER();
	return create_stream(stream, priority, flag);
}

aclError aclrtCreateStream(aclrtStream *stream)
{
	API_ENTER();
	return create_stream(stream, 0, 0);
}

static aclError destroy(aclrtStream stream, bool force)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (!s->is_default)
		stream_state_notify(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
	pthread_mutex_lock(&dev->lock);
	if (s == dev->default_stream || s->is_default)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "stream %p is the default stream, it cannot be destroyed", stream);
	else
		ret = stream_kill(s, force);
	pthread_mutex_unlock(&dev->lock);
	stream_release(s, dev);
	return ret;
}

aclError aclrtDestroyStream(aclrtStream stream)
{
	API_ENTER();
	return destroy(stream, false);
}

aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	API_ENTER();
	return destroy(stream, true);
}

static aclError sync_stream(aclrtStream stream, int32_t timeout)
{
	struct acl_device *dev;
	struct acl_stream *s;
	bool spun = false, aborted = false;
	aclError ret;

	if (timeout != 0 && stream_sync_cached(stream, &spun, &aborted))
		return ACL_SUCCESS;
	if (aborted)
		return ACL_ERROR_RT_STREAM_ABORT;	/* the message is set */
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	ret = sync_seq(s, deadline_from_ms(timeout), timeout, !spun);
	stream_release(s, dev);
	return ret;
}

aclError aclrtSynchronizeStream(aclrtStream stream)
{
	API_ENTER();
	return sync_stream(stream, -1);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
	API_ENTER();
	if (timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %d is invalid: -1 waits forever, 0 polls, >0 is milliseconds",
			       timeout);
	return sync_stream(stream, timeout);
}

/*
 * aclrtStreamAbort (@stop false): the device stops the command it runs on
 * the stream and discards everything queued behind it; aclrtStreamStop
 * (@stop true): it stops and drops the running (or waiting) command only,
 * and the queued ones run on.  The stream stays usable either way.  The
 * stream lock is held across the kernel call, so nothing is submitted
 * meanwhile (CANN: tasks submitted during an abort do not take effect);
 * synchronisations that were waiting return ACL_ERROR_RT_STREAM_ABORT
 * (sync_seq()), and a record that was dropped leaves its event
 * EV_DISCARDED (event.c), which aclrtSynchronizeEvent reports the same way.
 */
static aclError stream_clear(aclrtStream stream, bool stop)
{
	const char *fn = stop ? "aclrtStreamStop" : "aclrtStreamAbort";
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;
	int err;

	/* CANN: aclrtStreamStop takes no default stream; Abort takes NULL as it */
	if (stop && !stream)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "aclrtStreamStop does not take the default stream (stream is NULL)");
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (stop && s->is_default) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "aclrtStreamStop does not take the default stream (%p)", stream);
		goto out;
	}
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_QUEUE_ABORT)) {
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "%s: device %d's driver cannot stop a queue's work (no DRM_ASCEND_CAP_QUEUE_ABORT)",
			      fn, dev->id);
		goto out;
	}
	pthread_mutex_lock(&s->lock);
	if (s->dead) {
		pthread_mutex_unlock(&s->lock);
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID, "stream %p was destroyed", stream);
		goto out;
	}
	/* before the kernel call: a waiter that sees the jump sees the count */
	__atomic_add_fetch(&s->aborts, 1, __ATOMIC_SEQ_CST);
	err = queue_clear(dev->fd, &s->q, stop);
	if (!err)
		stream_after_reset(s);
	pthread_mutex_unlock(&s->lock);
	if (err)
		ret = acl_err(acl_drv_code(err, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			      "%s: stopping queue %u of stream %p failed: %s", fn, s->q.handle,
			      (void *)s, strerror(err));
	stream_drain_printf(s);
out:
	stream_release(s, dev);
	return ret;
}

aclError aclrtStreamAbort(aclrtStream stream)
{
	API_ENTER();
	return stream_clear(stream, false);
}

aclError aclrtStreamStop(aclrtStream stream)
{
	API_ENTER();
	return stream_clear(stream, true);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
	struct acl_device *dev;
	struct acl_stream *s;
	uint64_t seq;
	aclError ret;
	bool to;

	API_ENTER();
	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&s->lock);
	seq = s->q.wptr;
	pthread_mutex_unlock(&s->lock);
	ret = queue_wait(dev->fd, &s->q, seq, 0, &to);	/* 0: poll */
	stream_drain_printf(s);
	if (ret && !to && queue_faulted(&s->q))
		stream_recover(s);
	if (to) {
		*status = ACL_STREAM_STATUS_NOT_READY;
		ret = ACL_SUCCESS;
	} else if (ret == ACL_SUCCESS) {
		*status = ACL_STREAM_STATUS_COMPLETE;
	}
	stream_release(s, dev);
	return ret;
}
