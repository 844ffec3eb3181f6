// SPDX-License-Identifier: MIT
/*
 * host.c - host memory the device can use: aclrtMallocHost (driver pages,
 * DRM_IOCTL_ASCEND_HOST_ALLOC + mmap), aclrtHostRegister* (the caller's
 * pages, DRM_IOCTL_ASCEND_HOST_REGISTER), their frees, and two helpers of
 * the copies in memcpy.c:
 *
 *  - the staging pool: pinned buffers (HOST_ALLOC) into which an
 *    asynchronous copy from pageable memory snapshots its source before it
 *    queues a ring COPY from the buffer.  A buffer is reused only once the
 *    command that reads it completed (its stream's completed count reached
 *    the command's sequence number), the stream was destroyed, or the queue
 *    faulted (a faulted queue runs nothing more; its reset discards).
 *
 *  - the ledger: (stream, sequence number, host range) of every queued
 *    command that reads or writes acl host memory, so that aclrtFreeHost and
 *    aclrtHostUnregister wait for those commands before the memory goes
 *    (munmap removes the device mapping).  Nothing else waits: freeing
 *    memory no queued command uses never blocks.
 *
 * Host memory is made usable by one device: the current one when it is
 * allocated or registered (each device file has its own device MMU).  With
 * that device the same pointer works on both sides; other devices see it
 * as pageable memory.  aclrtResetDevice of that device unregisters its
 * registered ranges and leaves its aclrtMallocHost memory mapped for the
 * CPU only (aclrtFreeHost still unmaps it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <xf86drm.h>

#include "internal.h"

#define STAGE_MIN	4096UL		/* smallest staging buffer */
#define STAGE_CHUNK	(1UL << 20)	/* largest; bigger copies go in chunks */
#define STAGE_MAX	(8UL << 20)	/* staging bytes per device */

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	if (handle)
		drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

/* kB of "<key>" in /proc/self/status, 0 if absent. */
static unsigned long long status_kb(const char *key)
{
	char line[256];
	unsigned long long v = 0;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtoull(line + n + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/*
 * Pinning @bytes failed with @e.  ENOMEM is RLIMIT_MEMLOCK (or, rarely, no
 * memory at all): ACL_ERROR_RT_MEMORY_ALLOCATION, the code CANN uses for
 * an allocation the system cannot satisfy, with the limit and the request
 * in the message.  Anything else is a driver error (507899).
 */
aclError host_pin_error(int e, size_t bytes, const char *what)
{
	struct rlimit rl = { 0, 0 };
	char lim[40];

	if (e != ENOMEM)
		return acl_err(acl_drv_code(e, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
			       "%s of %zu bytes failed: %s", what, bytes, strerror(e));
	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(lim, sizeof(lim), "unlimited");
	else
		snprintf(lim, sizeof(lim), "%llu bytes", (unsigned long long)rl.rlim_cur);
	return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
		       "%s of %zu bytes failed: pinned memory is limited by RLIMIT_MEMLOCK (current limit %s; this process has %llu KiB locked (VmLck) and %llu KiB pinned (VmPin)), or the system is out of memory; raise the limit (ulimit -l, setrlimit) or grant CAP_IPC_LOCK",
		       what, bytes, lim, status_kb("VmLck"), status_kb("VmPin"));
}

static aclError no_host_memory(const struct acl_device *dev)
{
	return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		       "device %d's kernel driver has no host-memory support (no DRM_ASCEND_CAP_HOST_MEMORY)",
		       dev->id);
}

bool host_usable(const struct acl_alloc *a, int dev_id)
{
	return a->kind == ALLOC_HOST && !(a->hflags & HOST_F_ORPHAN) && a->dev_id == dev_id;
}

/* ---- completion of queued commands ------------------------------------ */

/* Command @seq of @s will not touch memory any more. */
static bool cmd_done(struct acl_stream *s, uint64_t seq)
{
	return __atomic_load_n(&s->dead, __ATOMIC_ACQUIRE) || queue_faulted(&s->q) ||
	       __atomic_load_n(&s->q.status->completed, __ATOMIC_ACQUIRE) >= seq;
}

/* Wait for it; the device of @s must be read-held by the caller. */
static void cmd_wait(struct acl_stream *s, uint64_t seq)
{
	bool to;

	if (!cmd_done(s, seq))
		queue_wait(s->dev->fd, &s->q, seq, DRM_ASCEND_TIMEOUT_INFINITE, &to);
}

static void stream_get(struct acl_stream *s)
{
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
}

/* ---- the ledger -------------------------------------------------------- */

struct use {
	struct acl_stream *s;		/* a reference */
	uint64_t seq;
	uintptr_t lo, hi;		/* [lo, hi) */
};

/* u_lock protects u_tab, u_n and u_cap. */
static pthread_mutex_t u_lock = PTHREAD_MUTEX_INITIALIZER;
static struct use *u_tab;
static size_t u_n, u_cap;

/* Drop finished entries (and, with @dev, every entry of @dev).  u_lock held. */
static void ledger_prune(const struct acl_device *dev)
{
	size_t i, k = 0;

	for (i = 0; i < u_n; i++) {
		if ((dev && u_tab[i].s->dev == dev) || cmd_done(u_tab[i].s, u_tab[i].seq))
			stream_put(u_tab[i].s);
		else
			u_tab[k++] = u_tab[i];
	}
	u_n = k;
}

/* Command @seq of @s uses [lo, lo + n) of acl host memory. */
void host_note_use(struct acl_stream *s, uint64_t seq, uintptr_t lo, size_t n)
{
	struct use *t;
	size_t i;

	pthread_mutex_lock(&u_lock);
	/*
	 * The same memory used again on the same stream (a loop of copies
	 * from one buffer): the entry moves on.  Finished entries are pruned
	 * only when the table would grow: they are harmless until then.
	 */
	for (i = 0; i < u_n; i++) {
		if (u_tab[i].s == s && u_tab[i].lo == lo && u_tab[i].hi == lo + n) {
			if (seq > u_tab[i].seq)
				u_tab[i].seq = seq;
			goto out;
		}
	}
	ledger_prune(NULL);
	if (u_n == u_cap) {
		t = realloc(u_tab, (u_cap ? 2 * u_cap : 64) * sizeof(*t));
		if (!t) {
			/* Cannot remember it: make it safe now instead. */
			pthread_mutex_unlock(&u_lock);
			cmd_wait(s, seq);
			return;
		}
		u_tab = t;
		u_cap = u_cap ? 2 * u_cap : 64;
	}
	stream_get(s);
	u_tab[u_n++] = (struct use){ .s = s, .seq = seq, .lo = lo, .hi = lo + n };
out:
	pthread_mutex_unlock(&u_lock);
}

/* Wait until no queued command of @dev uses [lo, lo + n).  dev read-held. */
static void ledger_wait(struct acl_device *dev, uintptr_t lo, size_t n)
{
	struct acl_stream *s;
	uint64_t seq;
	size_t i;

	stream_flush_host_uses(dev);	/* the uses the streams noted */

	for (;;) {
		s = NULL;
		pthread_mutex_lock(&u_lock);
		ledger_prune(NULL);
		for (i = 0; i < u_n; i++) {
			if (u_tab[i].s->dev == dev && u_tab[i].lo < lo + n && lo < u_tab[i].hi) {
				s = u_tab[i].s;
				seq = u_tab[i].seq;
				stream_get(s);
				break;
			}
		}
		pthread_mutex_unlock(&u_lock);
		if (!s)
			return;
		cmd_wait(s, seq);
		/* Done now (or dead/faulted): the next prune drops it. */
		stream_put(s);
	}
}

/* ---- the staging pool -------------------------------------------------- */

struct stage {
	struct stage *next;
	struct acl_device *dev;
	void *p;
	size_t size;
	uint32_t handle;
	bool taken;			/* being filled by a thread */
	struct acl_stream *s;		/* last reader, a reference, or NULL */
	uint64_t seq;
};

/* st_lock protects st_list and every field of its entries. */
static pthread_mutex_t st_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stage *st_list;

/* A new pinned buffer of @size bytes on @dev (rw read-held). */
static struct stage *stage_new(struct acl_device *dev, size_t size)
{
	struct drm_ascend_host_alloc ha = { .size = size };
	struct stage *b = calloc(1, sizeof(*b));
	void *p;

	if (!b)
		return NULL;
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &ha))
		goto fail;
	p = mmap(NULL, ha.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		 (off_t)ha.mmap_offset);
	if (p == MAP_FAILED) {
		gem_close(dev->fd, ha.handle);
		goto fail;
	}
	b->dev = dev;
	b->p = p;
	b->size = ha.alloc_size;
	b->handle = ha.handle;
	b->taken = true;
	return b;
fail:
	free(b);
	return NULL;
}

static void stage_free(struct stage *b)
{
	if (b->s)
		stream_put(b->s);
	munmap(b->p, b->size);
	gem_close(b->dev->fd, b->handle);
	free(b);
}

/* Nobody reads @b any more?  Drops the stream reference then.  st_lock held. */
static bool stage_idle(struct stage *b)
{
	if (b->taken)
		return false;
	if (b->s && !cmd_done(b->s, b->seq))
		return false;
	if (b->s)
		stream_put(b->s);
	b->s = NULL;
	return true;
}

/*
 * A staging buffer of at least @need (<= STAGE_CHUNK) bytes on @dev (rw
 * read-held), marked taken: a free one, a new one while the device's pool
 * is below STAGE_MAX, else the first busy one once its reader completed.
 * NULL only when the pool has nothing and no buffer can be allocated.
 */
static struct stage *stage_get(struct acl_device *dev, size_t need)
{
	struct stage *b, *best, *busy, *small, **pp;
	struct acl_stream *s;
	size_t total;
	uint64_t seq;

	pthread_mutex_lock(&st_lock);
	for (;;) {
		best = busy = small = NULL;
		total = 0;
		for (b = st_list; b; b = b->next) {
			if (b->dev != dev)
				continue;
			total += b->size;
			if (!stage_idle(b)) {
				if (!b->taken && !busy)
					busy = b;
				continue;
			}
			if (b->size >= need) {
				if (!best || b->size < best->size)
					best = b;
			} else {
				small = b;
			}
		}
		if (best) {
			best->taken = true;
			pthread_mutex_unlock(&st_lock);
			return best;
		}
		if (total + need > STAGE_MAX && small) {
			for (pp = &st_list; *pp != small; pp = &(*pp)->next)
				;
			*pp = small->next;
			total -= small->size;
			stage_free(small);
		}
		if (total + need <= STAGE_MAX || !busy) {
			pthread_mutex_unlock(&st_lock);
			b = stage_new(dev, need);
			if (!b)
				return NULL;
			pthread_mutex_lock(&st_lock);
			b->next = st_list;
			st_list = b;
			pthread_mutex_unlock(&st_lock);
			return b;
		}
		s = busy->s;
		seq = busy->seq;
		stream_get(s);
		pthread_mutex_unlock(&st_lock);
		cmd_wait(s, seq);
		stream_put(s);
		pthread_mutex_lock(&st_lock);
	}
}

/* @b was handed to command @seq of @s (@s NULL: submission failed). */
static void stage_put(struct stage *b, struct acl_stream *s, uint64_t seq)
{
	pthread_mutex_lock(&st_lock);
	if (s)
		stream_get(s);
	b->s = s;
	b->seq = seq;
	b->taken = false;
	pthread_mutex_unlock(&st_lock);
}

static size_t stage_class(size_t len)
{
	size_t c = STAGE_MIN;

	while (c < len)
		c <<= 1;
	return c;
}

/*
 * Asynchronous host-to-device copy through staging: snapshot @src chunk by
 * chunk into pinned buffers and queue a ring COPY from each.  Returns once
 * queued; the caller may change or free @src at once.  *staged false:
 * nothing was queued because no staging memory could be had (the caller
 * falls back to a synchronous copy).  Stream acquired, device read-held.
 */
aclError host_stage_h2d(struct acl_stream *s, void *dst, const void *src, size_t count,
			bool *staged)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_COPY };
	size_t off, len;
	struct stage *b;
	uint64_t seq;
	aclError ret;

	*staged = false;
	for (off = 0; off < count; off += len) {
		len = count - off < STAGE_CHUNK ? count - off : STAGE_CHUNK;
		b = stage_get(s->dev, stage_class(len));
		if (!b) {
			if (!off)
				return ACL_SUCCESS;
			return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
				       "no staging memory for the rest of a %zu-byte copy", count);
		}
		*staged = true;
		memcpy(b->p, (const char *)src + off, len);
		cmd.copy.dst = (uintptr_t)dst + off;
		cmd.copy.src = (uintptr_t)b->p;
		cmd.copy.size = len;
		mdl_norec = "a copy from pageable host memory (staged)";
		ret = stream_submit_seq(s, &cmd, &seq);
		mdl_norec = NULL;
		stage_put(b, ret ? NULL : s, seq);
		if (ret)
			return ret;
	}
	return ACL_SUCCESS;
}

/* ---- aclrtMallocHost / aclrtFreeHost ----------------------------------- */

static aclError host_alloc(void **ptr, uint64_t size, int dev_id)
{
	struct drm_ascend_host_alloc ha = { .size = size };
	struct acl_alloc a = { 0 };
	struct acl_device *dev;
	aclError ret;
	void *p;

	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	if (size > SIZE_MAX - page_size())
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "size %llu is larger than the address space",
			       (unsigned long long)size);
	ret = dev_id < 0 ? dev_acquire_current(&dev) : dev_acquire(dev_id, &dev);
	if (ret)
		return ret;
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_HOST_MEMORY)) {
		ret = no_host_memory(dev);
		goto out;
	}
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &ha)) {
		ret = host_pin_error(errno, size, "allocating pinned host memory");
		goto out;
	}
	p = mmap(NULL, ha.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		 (off_t)ha.mmap_offset);
	if (p == MAP_FAILED) {
		int e = errno;

		gem_close(dev->fd, ha.handle);
		ret = acl_err(e == ENOMEM ? ACL_ERROR_RT_MEMORY_ALLOCATION :
			      ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			      "mapping %llu bytes of pinned host memory failed: %s",
			      (unsigned long long)ha.alloc_size, strerror(e));
		goto out;
	}
	a.va = (uintptr_t)p;
	a.size = ha.alloc_size;
	a.user_size = size;
	a.handle = ha.handle;
	a.page_size = (uint32_t)page_size();
	a.dev_id = dev->id;
	a.kind = ALLOC_HOST;
	a.hflags = HOST_F_ALLOC;
	if (addrmap_insert(&a)) {
		munmap(p, ha.alloc_size);
		gem_close(dev->fd, ha.handle);
		ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		goto out;
	}
	*ptr = p;
out:
	dev_release(dev);
	return ret;
}

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
	API_ENTER();
	return host_alloc(hostPtr, size, -1);
}

/*
 * aclrtMallocHostWithCfg: attributes as aclrtMallocWithCfg checks them
 * (malloc_cfg_parse());
 * DEVICE_ID makes the memory usable by that device (which must be set)
 * instead of the current one.
 */
aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
	int dev_id;
	aclError err;

	API_ENTER();
	err = malloc_cfg_parse(cfg, &dev_id);
	if (err)
		return err;
	return host_alloc(ptr, size, dev_id);
}

/*
 * Look up the acl host memory starting at @p with @flag (HOST_F_ALLOC or
 * HOST_F_REGISTERED) and read-lock its device; *dev NULL for an orphan
 * (device reset).  Returns false if @p is not such memory.
 */
static bool host_lookup(const void *p, uint32_t flag, struct acl_alloc *a,
			struct acl_device **dev)
{
	int tries;

	for (tries = 0; tries < 2; tries++) {
		if (addrmap_classify(p, a) != ADDR_HOST || a->va != (uintptr_t)p ||
		    !(a->hflags & flag))
			return false;
		*dev = NULL;
		if (a->hflags & HOST_F_ORPHAN)
			return true;
		if (!dev_acquire(a->dev_id, dev))
			return true;
		/* Its device is being reset: look again (orphaned by now). */
	}
	return false;
}

static aclError free_host(void *hostPtr, bool sync)
{
	struct acl_device *dev;
	struct acl_alloc a;
	aclError ret = ACL_SUCCESS;

	if (!hostPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
	if (!host_lookup(hostPtr, HOST_F_ALLOC, &a, &dev)) {
		if (addrmap_classify(hostPtr, &a) == ADDR_HOST && (a.hflags & HOST_F_REGISTERED))
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "%p is memory registered with aclrtHostRegister, not from aclrtMallocHost (use aclrtHostUnregister)",
				       hostPtr);
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%p is not the start of live aclrtMallocHost memory (freed twice, or not from aclrtMallocHost?)",
			       hostPtr);
	}
	if (sync && dev)
		ret = dev_sync_all_streams(dev, -1);
	if (ret)
		goto out;
	if (!addrmap_remove(a.va, &a)) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "%p was freed by another thread meanwhile", hostPtr);
		goto out;
	}
	host_overlay_drop(a.va);
	if (dev)
		ledger_wait(dev, a.va, a.size);
	munmap((void *)a.va, a.size);
	if (dev)
		gem_close(dev->fd, a.handle);
out:
	if (dev)
		dev_release(dev);
	return ret;
}

aclError aclrtFreeHost(void *hostPtr)
{
	API_ENTER();
	return free_host(hostPtr, false);
}

aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
	API_ENTER();
	return free_host(hostPtr, true);
}

/* ---- registration ------------------------------------------------------ */

static aclError do_register(void *ptr, uint64_t size, uint32_t kflags)
{
	struct drm_ascend_host_register r = {
		.addr = (uintptr_t)ptr, .size = size, .flags = kflags,
	};
	struct acl_alloc a = { 0 }, o;
	struct acl_device *dev;
	size_t pg = page_size();
	aclError ret;
	int e;

	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	/*
	 * CANN's runtime asks for the current context right after the
	 * argument checks, before it looks at the range: with no current
	 * device (or a destroyed context) it is 107002, whatever the memory.
	 */
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	if ((uintptr_t)ptr % pg || size % pg) {
		ret = acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			      "ptr %p and size %llu must both be multiples of the %zu-byte page size",
			      ptr, (unsigned long long)size, pg);
		goto out;
	}
	if (size > UINTPTR_MAX - (uintptr_t)ptr) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "[%p, +%llu) wraps around the address space", ptr,
			      (unsigned long long)size);
		goto out;
	}
	if (addrmap_overlap((uintptr_t)ptr, size, &o)) {
		/* inside one aclrtMallocHost allocation: CANN accepts it */
		if (o.kind == ALLOC_HOST && (o.hflags & HOST_F_ALLOC) &&
		    (uintptr_t)ptr >= o.va && (uintptr_t)ptr + size <= o.va + o.size)
			ret = host_overlay_add(ptr, size, &o, dev->id);
		else if (o.kind == ALLOC_HOST)
			ret = acl_err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
				      "[%p, +%llu) overlaps pinned host memory [%#lx, +%zu) (%s)",
				      ptr, (unsigned long long)size, (unsigned long)o.va, o.size,
				      o.hflags & HOST_F_ALLOC ? "from aclrtMallocHost" :
				      "already registered");
		else
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
				      "[%p, +%llu) overlaps device memory; only host memory can be registered",
				      ptr, (unsigned long long)size);
		goto out;
	}
	if (dev_of_va(ptr) || dev_of_va((char *)ptr + size - 1)) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "[%p, +%llu) is in a device's address range; only host memory can be registered",
			      ptr, (unsigned long long)size);
		goto out;
	}
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_HOST_MEMORY)) {
		ret = no_host_memory(dev);
		goto out;
	}
	if (drmIoctl(dev->fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &r)) {
		e = errno;
		if (e == EEXIST)
			ret = acl_err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
				      "[%p, +%llu) is already registered with device %d",
				      ptr, (unsigned long long)size, dev->id);
		else if (e == EFAULT || e == EINVAL)
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
				      "[%p, +%llu) is not mapped memory of this process that can be pinned: %s",
				      ptr, (unsigned long long)size, strerror(e));
		else
			ret = host_pin_error(e, size, "registering (pinning) host memory");
		goto out;
	}
	a.va = (uintptr_t)ptr;
	a.size = size;
	a.user_size = size;
	a.handle = r.handle;
	a.page_size = (uint32_t)pg;
	a.dev_id = dev->id;
	a.kind = ALLOC_HOST;
	a.hflags = HOST_F_REGISTERED |
		   (kflags & DRM_ASCEND_HOST_REG_READONLY ? HOST_F_READONLY : 0);
	if (addrmap_insert(&a)) {
		gem_close(dev->fd, r.handle);
		ret = acl_err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
			      "%p was registered by another thread meanwhile", ptr);
	}
out:
	dev_release(dev);
	return ret;
}

/*
 * aclrtHostRegister: pin and map for the current device; the device
 * pointer is the host pointer.  Only ACL_HOST_REGISTER_MAPPED:
 * IOMEMORY and READONLY are documented as reserved (207000).
 */
aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type,
			   void **devPtr)
{
	aclError ret;

	API_ENTER();
	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	if (type == ACL_HOST_REGISTER_IOMEMORY || type == ACL_HOST_REGISTER_READONLY)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "type %s is reserved; only ACL_HOST_REGISTER_MAPPED is supported",
			       type == ACL_HOST_REGISTER_IOMEMORY ? "ACL_HOST_REGISTER_IOMEMORY" :
			       "ACL_HOST_REGISTER_READONLY");
	if (type != ACL_HOST_REGISTER_MAPPED)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "type %d is not an aclrtHostRegisterType", (int)type);
	ret = do_register(ptr, size, 0);
	if (!ret)
		*devPtr = ptr;
	return ret;
}

#define REG_V2_FLAGS	(ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | \
			 ACL_HOST_REG_PINNED)

/*
 * aclrtHostRegisterV2: PINNED and MAPPED are one thing here (pinned pages
 * are always mapped for the device at their host address); READONLY lets the device only read them; IOMEMORY is not
 * supported (207000).  Memory that is already registered -> 507910;
 * aclrtMallocHost memory may be registered once (host_overlay.c).
 */
aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
	API_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size is 0");
	/* CANN's runtime check: at least one known bit, no other (107000) */
	if (!(flag & REG_V2_FLAGS) || (flag & ~(uint32_t)REG_V2_FLAGS))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "flag %#x is not a combination of ACL_HOST_REG_MAPPED (0x2), _IOMEMORY (0x4), _READONLY (0x8) and _PINNED (0x10000000)",
			       flag);
	if (flag & ACL_HOST_REG_IOMEMORY)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "ACL_HOST_REG_IOMEMORY is not supported");
	return do_register(ptr, size,
			   flag & ACL_HOST_REG_READONLY ? DRM_ASCEND_HOST_REG_READONLY : 0);
}

aclError aclrtHostUnregister(void *ptr)
{
	struct acl_device *dev;
	struct acl_alloc a;

	API_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (host_overlay_remove(ptr))
		return ACL_SUCCESS;
	if (!host_lookup(ptr, HOST_F_REGISTERED, &a, &dev) || !dev)
		return acl_err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
			       "%p is not the start of memory registered with aclrtHostRegister",
			       ptr);
	if (!addrmap_remove(a.va, &a)) {
		dev_release(dev);
		return acl_err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
			       "%p was unregistered by another thread meanwhile", ptr);
	}
	ledger_wait(dev, a.va, a.size);
	gem_close(dev->fd, a.handle);
	dev_release(dev);
	return ACL_SUCCESS;
}

/* The device address of pinned host memory: the same address. */
aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
	struct acl_alloc a;

	API_ENTER();
	if (!pHost)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pHost is NULL");
	if (!pDevice)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pDevice is NULL");
	if (flag)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag is %u, must be 0", flag);
	if (addrmap_classify(pHost, &a) != ADDR_HOST || (a.hflags & HOST_F_ORPHAN))
		return acl_err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
			       "%p is not in registered or aclrtMallocHost memory", pHost);
	*pDevice = pHost;
	return ACL_SUCCESS;
}

/* ---- device reset ------------------------------------------------------ */

void host_release_device(struct acl_device *dev)
{
	struct stage *b, **pp;
	struct acl_alloc *list;
	size_t n, i;

	n = addrmap_take_host(dev->id, &list);
	for (i = 0; i < n; i++)
		gem_close(dev->fd, list[i].handle);
	free(list);

	pthread_mutex_lock(&st_lock);
	for (pp = &st_list; (b = *pp);) {
		if (b->dev == dev) {
			*pp = b->next;
			stage_free(b);
		} else {
			pp = &b->next;
		}
	}
	pthread_mutex_unlock(&st_lock);

	pthread_mutex_lock(&u_lock);
	ledger_prune(dev);
	pthread_mutex_unlock(&u_lock);
}

/* ---- commands reading a pinned snapshot (batch entry arrays) ----------- */

size_t host_stage_max(void)
{
	return STAGE_CHUNK;
}

aclError host_stage_cmd(struct acl_stream *s, size_t len,
			void (*fill)(void *buf, size_t len, void *arg), void *arg,
			struct ascend_cmd *cmd, __u64 *addr_field, uint64_t *seq,
			bool *staged)
{
	struct stage *b;
	aclError ret;

	*staged = false;
	*seq = 0;
	if (!len || len > STAGE_CHUNK)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "%zu bytes cannot be staged", len);
	b = stage_get(s->dev, stage_class(len));
	if (!b)
		return ACL_SUCCESS;
	*staged = true;
	fill(b->p, len, arg);
	*addr_field = (uintptr_t)b->p;
	mdl_norec = "a command staged through libaclrt's host buffers";
	ret = stream_submit_seq(s, cmd, seq);
	mdl_norec = NULL;
	stage_put(b, ret ? NULL : s, *seq);
	return ret;
}
