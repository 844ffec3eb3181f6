// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz.c - ioctl and ring fuzzer for the ascend driver.
 *
 * Every ioctl of include/uapi/drm/ascend_accel.h plus the generic DRM ones
 * (VERSION, GET_CAP, GEM_CLOSE, GEM_FLINK/OPEN, PRIME) gets arguments that
 * are valid-looking (live handles, VAs inside live buffers, sizes that fit)
 * or malformed (flags, pads, sizes 0/huge/overflowing, NULL, kernel,
 * unmapped, read-only and PROT_NONE pointers, stale handles), from several
 * threads sharing one DRM file in each of several processes.  Queue rings
 * get commands of every opcode (and unknown ones) with mutated fields,
 * wptr games (backwards, far ahead) and status-page scribbles, then a
 * doorbell; faulted queues are reset, stalled ones force-destroyed.
 *
 * What each process creates (BOs, host memory, queues, events) is tracked,
 * so close/destroy paths and use-after-close (stale handles, commands
 * naming freed VAs) are exercised too.  Host destinations of copies are
 * only the fuzzer's own scratch buffers or addresses that cannot be
 * written, so the device never scribbles over the fuzzer itself.
 *
 * The fuzzer checks nothing about return values: the verdict is the
 * kernel's (any oops or WARN fails the VM run: panic_on_warn), that every
 * process exits normally and in bounded time, and the caller's leak check
 * (debugfs hbm/clients after the processes exited, module unload).
 *
 * Included by tests/user/test_fuzz_ioctl.c; needs _GNU_SOURCE.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "ascend_accel.h"
#include "fuzz.h"

#define FZ_MAX_BOS	16
#define FZ_MAX_HOST	8
#define FZ_MAX_QUEUES	4
#define FZ_MAX_EVENTS	16
#define FZ_MAX_KEYS	8
#define FZ_MAX_PHYS	8
#define FZ_MAX_RESV	4
#define FZ_MAX_MAPS	256
/*
 * Managed mappings kept: each keeps its allocation (up to 8 MiB of host
 * pages once the chunks went back and forth) alive until the end, so 256 of
 * them could outgrow the test VM's memory into the OOM killer.
 */
#define FZ_MAX_MANAGED_MAPS	4
#define FZ_SCRATCH	(64 * 1024)
#define FZ_REG_PAGES	16
#define FZ_KERNEL_ADDR	0xffff888000000000ULL
#define FZ_WINDOW_HINT	0x10000000000ULL	/* 1 TiB */
#define FZ_MAX_THREADS	64	/* threads a crash report names */
#define FZ_HIST		8	/* ioctls a crash report shows per thread */

/* ---- PRNG (xorshift64*), one state per thread ---------------------------- */

static __thread uint64_t fz_rs;

static uint64_t rnd(void)
{
	fz_rs ^= fz_rs >> 12;
	fz_rs ^= fz_rs << 25;
	fz_rs ^= fz_rs >> 27;
	return fz_rs * 0x2545F4914F6CDD1DULL;
}

static uint64_t rndn(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int pct)
{
	return rndn(100) < pct;
}

/* ---- what each thread is doing, for crash reports ------------------------ */

/* One ioctl of a thread's recent history. */
struct fz_call {
	unsigned long req;
	int ret;			/* 0 or -errno; 1: still running */
	uint64_t arg[8];		/* the argument's first words, before */
};

/*
 * A thread's current operation, its ioctl in progress and its last ioctls,
 * the ring command it wrote last: read by the crash handler (which runs on
 * the crashing thread, and also prints the other threads' records).
 */
struct fz_cur {
	pid_t tid;
	const char *op;			/* current operation */
	struct fz_call hist[FZ_HIST];	/* ring of the last ioctls */
	unsigned int nhist;		/* ioctls made */
	/* op_ring: the queue and the last command written */
	uint32_t q_handle;
	const void *q_st, *q_ring;
	uint32_t q_entries;
	uint64_t q_slot, q_wptr;
	struct ascend_cmd cmd;
	int has_cmd;
	/* COPY_BATCH: the entries handed to the kernel */
	const struct drm_ascend_copy_entry *batch;
	unsigned int batch_n;
};

static __thread struct fz_cur fz_cur;

#define FZ_OP(name) (fz_cur.op = (name))

/* ---- per-process state --------------------------------------------------- */

/*
 * A BO or host object.  Slots are rewritten under fz_proc.lock, but
 * gen_dev_addr() reads addr and size without it (it is also called with it
 * held): fz_obj_set() and fz_obj_get() make that one consistent snapshot.
 * A torn read once paired a host object's address with the size of the
 * slot's previous object, and the device wrote up to 64 KiB past the
 * object, into the fuzzer's own TLS and libc data (a SIGSEGV whose report
 * could not run).
 */
struct fz_obj {
	uint32_t handle;
	int live;
	unsigned int seq;	/* odd while fz_obj_set() rewrites addr/size */
	uint64_t addr;	/* device VA or host address */
	uint64_t size;
};

struct fz_queue {
	uint32_t handle;
	int live;
	uint32_t entries;
	struct ascend_queue_status *st;
	struct ascend_cmd *ring;
};

struct fz_map {
	void *p;
	size_t size;
	int managed;	/* managed memory at its VA, inside our window */
};

struct fz_proc {
	const struct fuzz_opts *o;
	int fd;
	pthread_mutex_t lock;	/* protects everything below */
	uint64_t win_base, win_size;
	struct fz_obj bos[FZ_MAX_BOS];
	struct fz_obj hosts[FZ_MAX_HOST];	/* HOST_ALLOC and HOST_REGISTER */
	struct fz_queue qs[FZ_MAX_QUEUES];
	uint32_t events[FZ_MAX_EVENTS];
	uint64_t event_gen[FZ_MAX_EVENTS];
	char keys[FZ_MAX_KEYS][DRM_ASCEND_IPC_KEY_LEN];	/* our IPC exports */
	struct fz_obj phys[FZ_MAX_PHYS];	/* PHYS_ALLOC: handle, page size */
	struct fz_obj resv[FZ_MAX_RESV];	/* VA_RESERVE ranges */
	uint32_t stale[32];			/* closed handles, for reuse */
	struct fz_map maps[FZ_MAX_MAPS];	/* unmapped at the end */
	unsigned int nmaps;
	unsigned int nmanaged;	/* of @maps, managed ones */
	uint32_t kernel_ids[16];
	unsigned int nkernels;
	uint8_t *scratch;	/* pageable copy buffer */
	uint8_t *regarea;	/* pages for HOST_REGISTER */
	uint8_t *ro_page;	/* PROT_READ */
	uint8_t *none_page;	/* PROT_NONE */
	struct fuzz_totals *tot;	/* this process's slot (shared memory) */
	uint64_t deadline_ns;
	struct drm_ascend_free_ring *fring;	/* the free ring, if mapped */
	uint64_t *activity;			/* the activity bitmap, if mapped */
	uint32_t fring_entries;
	struct fz_cur *cur[FZ_MAX_THREADS];	/* each thread's, for reports */
};

static uint64_t fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int fz_ioctl(struct fz_proc *p, unsigned long req, void *arg)
{
	struct fz_call *c = &fz_cur.hist[fz_cur.nhist % FZ_HIST];
	size_t n = _IOC_SIZE(req);
	int ret;

	c->req = req;
	c->ret = 1;
	memset(c->arg, 0, sizeof(c->arg));
	memcpy(c->arg, arg, n < sizeof(c->arg) ? n : sizeof(c->arg));
	__atomic_store_n(&fz_cur.nhist, fz_cur.nhist + 1, __ATOMIC_RELEASE);
	ret = ioctl(p->fd, req, arg);
	c->ret = ret ? -errno : 0;
	__atomic_add_fetch(&p->tot->calls, 1, __ATOMIC_RELAXED);
	if (ret == 0)
		__atomic_add_fetch(&p->tot->ok, 1, __ATOMIC_RELAXED);
	return c->ret;
}

/*
 * Keep @m mapped until the file is closed (queue areas and host memory
 * stay valid for the threads using them); 0 when kept.  When the table is
 * full the mapping is undone at once and -1 returned: the caller must not
 * record the address anywhere.
 */
static int fz_keep_map(struct fz_proc *p, void *m, size_t size)
{
	if (p->nmaps < FZ_MAX_MAPS) {
		p->maps[p->nmaps].p = m;
		p->maps[p->nmaps].size = size;
		p->maps[p->nmaps].managed = 0;
		p->nmaps++;
		return 0;
	}
	munmap(m, size);
	return -1;
}

/* Rewrite @o's range; the caller holds fz_proc.lock (one writer). */
static void fz_obj_set(struct fz_obj *o, uint64_t addr, uint64_t size)
{
	unsigned int seq = __atomic_load_n(&o->seq, __ATOMIC_RELAXED);

	__atomic_store_n(&o->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&o->addr, addr, __ATOMIC_RELAXED);
	__atomic_store_n(&o->size, size, __ATOMIC_RELAXED);
	__atomic_store_n(&o->seq, seq + 2, __ATOMIC_RELEASE);
}

/* A range @o held at one moment, with or without fz_proc.lock. */
static void fz_obj_get(const struct fz_obj *o, uint64_t *addr, uint64_t *size)
{
	unsigned int seq;

	do {
		seq = __atomic_load_n(&o->seq, __ATOMIC_ACQUIRE);
		*addr = __atomic_load_n(&o->addr, __ATOMIC_RELAXED);
		*size = __atomic_load_n(&o->size, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || seq != __atomic_load_n(&o->seq, __ATOMIC_RELAXED));
}

static void fz_stale(struct fz_proc *p, uint32_t h)
{
	p->stale[rndn(32)] = h;
}

/* ---- argument generators ------------------------------------------------- */

static uint32_t gen_flags32(void)
{
	static const uint32_t v[] = { 0, 0, 0, 0, 1, 2, 0x80000000u, 0xffffffffu };

	return chance(80) ? 0 : v[rndn(8)] | (chance(20) ? (uint32_t)rnd() : 0);
}

static uint64_t gen_size(uint64_t fit)
{
	static const uint64_t edge[] = {
		0, 1, 3, 4095, 4096, 4097, 65536, 1ULL << 21, 1ULL << 30,
		1ULL << 40, ~0ULL, ~0ULL - 4095, 0x8000000000000000ULL,
	};

	if (fit && chance(75))
		return 1 + rndn(fit);
	return chance(50) ? edge[rndn(sizeof(edge) / sizeof(edge[0]))] :
			    1 + rndn(1 << 16);
}

/*
 * Set by gen_dev_addr(): the address it returned is in one of our host
 * objects.  Once that object is closed (by any thread, at any time) the
 * range is plain pageable memory, which a synchronous copy or fill really
 * writes: a destination there must stay within the room given.
 */
static __thread int fz_host_pick;

/* A device address: mostly inside a live BO or host object of ours. */
static uint64_t gen_dev_addr(struct fz_proc *p, uint64_t *room)
{
	struct fz_obj *o;
	uint64_t off, addr, size;

	*room = 0;
	fz_host_pick = 0;
	switch (rndn(12)) {
	case 0: return 0;
	case 1: return FZ_KERNEL_ADDR + rndn(1 << 20);
	case 2:
		if (chance(50)) {	/* inside a reservation: mapped or a hole */
			o = &p->resv[rndn(FZ_MAX_RESV)];
			break;
		}
		return p->win_base + rndn(p->win_size ? p->win_size : 1);
	case 3: return rnd();
	case 4: return (uint64_t)(uintptr_t)p->none_page;
	case 5: /* a stale VA (freed BO) or one past the end */
		fz_obj_get(&p->bos[rndn(FZ_MAX_BOS)], &addr, &size);
		return addr + (chance(50) ? size : 0);
	case 6: case 7:
		o = &p->hosts[rndn(FZ_MAX_HOST)];
		break;
	default:
		o = &p->bos[rndn(FZ_MAX_BOS)];
		break;
	}
	fz_obj_get(o, &addr, &size);
	if (!addr || !size)
		return p->win_base;
	off = chance(70) ? rndn(size) & ~7ULL : rndn(size);
	*room = size - off;
	fz_host_pick = o >= p->hosts && o < p->hosts + FZ_MAX_HOST;
	return addr + off;
}

/*
 * An address for a synchronous COPY: device address, our scratch buffer
 * (pageable), or something that can never be written.  Never any other
 * host memory of ours: the device would scribble over the fuzzer.  *@host
 * says a destination is host memory (scratch, or a host object that may
 * be closed by now): its size must stay within *@room.
 */
static uint64_t gen_copy_addr(struct fz_proc *p, uint64_t *room, int dst,
			      int *host)
{
	uint64_t off;

	*host = 0;
	switch (rndn(8)) {
	case 0: case 1:
		off = rndn(FZ_SCRATCH);
		*room = FZ_SCRATCH - off;
		*host = dst;	/* the kernel cannot bound a pageable range */
		return (uint64_t)(uintptr_t)p->scratch + off;
	case 2:
		*room = 4096;
		return (uint64_t)(uintptr_t)(dst ? p->ro_page : p->none_page);
	default:
		off = gen_dev_addr(p, room);
		*host = dst && fz_host_pick;
		return off;
	}
}

/* Does [@a, @a + @len) start in [@start, @start + @size) and leave it? */
static int fz_runs_past(uint64_t a, uint64_t len, uint64_t start, uint64_t size)
{
	return start && a >= start && a - start < size && len > size - (a - start);
}

/*
 * Does a synchronous write of [@dst, @dst + @len) start in one of our host
 * buffers and run past it?  The device writes pageable memory of ours for
 * real.  Then *@start and *@size name the buffer.
 */
static int fz_dst_past(const struct fz_proc *p, uint64_t dst, uint64_t len,
		       uint64_t *start, uint64_t *size)
{
	unsigned int i;

	*start = 0;
	*size = 0;
	if (fz_runs_past(dst, len, (uintptr_t)p->scratch, FZ_SCRATCH)) {
		*start = (uintptr_t)p->scratch;
		*size = FZ_SCRATCH;
	} else if (fz_runs_past(dst, len, (uintptr_t)p->regarea,
				FZ_REG_PAGES * 4096)) {
		*start = (uintptr_t)p->regarea;
		*size = FZ_REG_PAGES * 4096;
	}
	/*
	 * (managed memory is device memory too: a write past it reaches the
	 * window's guard and reservation, never a host buffer of ours)
	 */
	for (i = 0; !*size && i < p->nmaps && i < FZ_MAX_MAPS; i++)
		if (!p->maps[i].managed &&
		    fz_runs_past(dst, len, (uintptr_t)p->maps[i].p,
				 p->maps[i].size)) {
			*start = (uintptr_t)p->maps[i].p;
			*size = p->maps[i].size;
		}
	return *size != 0;
}

/*
 * Before a synchronous copy or fill writes [@dst, @dst + @len): a
 * destination that starts in one of our buffers must end in it.  Counts
 * (and names, once) each violation -- a bug of the fuzzer's generators;
 * the caller then does not make the ioctl.  Returns 0 when it may go.
 */
static int fz_dst_check(struct fz_proc *p, const char *what, uint64_t dst,
			uint64_t len)
{
	uint64_t start, size;

	if (!fz_dst_past(p, dst, len, &start, &size))
		return 0;
	if (__atomic_add_fetch(&p->tot->self_writes, 1, __ATOMIC_RELAXED) == 1)
		printf("# fuzz[%d]: BUG in the fuzzer: %s of %#" PRIx64
		       " bytes at %#" PRIx64 " runs past our buffer %#" PRIx64
		       "-%#" PRIx64 "\n", (int)getpid(), what, len, dst, start,
		       start + size);
	fflush(stdout);		/* the process ends with _exit() */
	return -1;
}

/*
 * The entries of @b as the kernel reads them (at stride @b->entry_size,
 * which may mix the fields of neighbouring entries): does one write past
 * our buffers?  Counted as a bug only with @count.
 */
static int fz_batch_past(struct fz_proc *p,
			 const struct drm_ascend_copy_batch *b,
			 const struct drm_ascend_copy_entry *e, size_t e_bytes,
			 int count)
{
	struct drm_ascend_copy_entry x;
	uint64_t start, size;
	uint32_t i;
	int bad = 0;

	for (i = 0; b->entries == (uintptr_t)e && b->entry_size >= sizeof(x) &&
	     i < b->count && (uint64_t)i * b->entry_size + sizeof(x) <= e_bytes;
	     i++) {
		memcpy(&x, (const char *)e + (size_t)i * b->entry_size, sizeof(x));
		bad |= count ? fz_dst_check(p, "COPY_BATCH entry", x.dst, x.size) :
			       fz_dst_past(p, x.dst, x.size, &start, &size);
	}
	return bad;
}

static uint32_t gen_handle(struct fz_proc *p, int kind)
{
	switch (rndn(8)) {
	case 0: return 0;
	case 1: return (uint32_t)rnd();
	case 2: return p->stale[rndn(32)];
	case 3: return 1 + rndn(64);
	default: break;
	}
	switch (kind) {
	case 0: return p->bos[rndn(FZ_MAX_BOS)].handle;
	case 1: return p->hosts[rndn(FZ_MAX_HOST)].handle;
	case 2: return p->qs[rndn(FZ_MAX_QUEUES)].handle;
	default: return p->events[rndn(FZ_MAX_EVENTS)];
	}
}

static int64_t gen_timeout(void)
{
	switch (rndn(6)) {
	case 0: return 0;
	case 1: return -1;
	case 2: return (int64_t)(fz_now_ns() - 1000000);
	default: return (int64_t)(fz_now_ns() + rndn(20) * 1000000ULL);
	}
}

/* ---- ioctl families ------------------------------------------------------ */

static void op_query(struct fz_proc *p)
{
	union {
		struct drm_ascend_device_info info;
		uint8_t raw[4096];
	} buf;
	struct drm_ascend_dev_query q = { 0 };
	struct drm_version v = { 0 };
	struct drm_get_cap cap = { 0 };
	char name[64], date[64], desc[64];

	switch (rndn(4)) {
	case 0:
		q.type = chance(80) ? (uint32_t)rndn(3) : (uint32_t)rnd();
		q.size = chance(70) ? (uint32_t)rndn(sizeof(buf)) : (uint32_t)rnd();
		if (q.size > sizeof(buf) && chance(70))
			q.size = sizeof(buf);
		q.data = chance(85) ? (uint64_t)(uintptr_t)&buf :
			 chance(50) ? FZ_KERNEL_ADDR : (uint64_t)(uintptr_t)p->ro_page;
		fz_ioctl(p, DRM_IOCTL_ASCEND_DEV_QUERY, &q);
		break;
	case 1:
		v.name_len = rndn(sizeof(name));
		v.name = name;
		v.date_len = rndn(sizeof(date));
		v.date = chance(90) ? date : (char *)p->ro_page;
		v.desc_len = rndn(sizeof(desc));
		v.desc = desc;
		fz_ioctl(p, DRM_IOCTL_VERSION, &v);
		break;
	case 2:
		cap.capability = rndn(0x20);
		fz_ioctl(p, DRM_IOCTL_GET_CAP, &cap);
		break;
	default:
		/* unknown driver ioctl numbers, sizes and directions */
		memset(&buf, 0, sizeof(buf));
		fz_ioctl(p, DRM_IOWR(DRM_COMMAND_BASE + 0x12 + rndn(0x20),
				     struct drm_ascend_copy), &buf);
		fz_ioctl(p, DRM_IOW(DRM_COMMAND_BASE + rndn(0x14), uint32_t), &buf);
		break;
	}
}

static void op_va_window(struct fz_proc *p)
{
	struct drm_ascend_va_window w = { 0 };

	w.base = chance(60) ? p->win_base : rnd();
	w.size = chance(60) ? p->win_size : gen_size(0);
	w.flags = gen_flags32();
	w.pad = chance(90) ? 0 : 1;
	fz_ioctl(p, DRM_IOCTL_ASCEND_VA_WINDOW, &w);
}

static void op_bo_create(struct fz_proc *p)
{
	struct drm_ascend_bo_create b = { 0 };
	unsigned int i = rndn(FZ_MAX_BOS);

	b.size = chance(85) ? 1 + rndn(256 * 1024) : gen_size(0);
	b.policy = chance(80) ? (chance(60) ? DRM_ASCEND_BO_NORMAL_ONLY : 0) :
		   (uint32_t)rndn(6);
	b.flags = chance(85) ? (chance(20) ? DRM_ASCEND_BO_P2P : 0) : gen_flags32();
	if (chance(30))		/* freed by VA: BO_FREE, the free ring */
		b.flags |= DRM_ASCEND_BO_NO_HANDLE;
	if (fz_ioctl(p, DRM_IOCTL_ASCEND_BO_CREATE, &b))
		return;
	pthread_mutex_lock(&p->lock);
	if (p->bos[i].live && chance(50)) {
		/* drop the old one's tracking: its handle stays open till exit */
		fz_stale(p, p->bos[i].handle);
	} else if (p->bos[i].live) {
		struct drm_gem_close c = { .handle = p->bos[i].handle };

		fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);
		fz_stale(p, c.handle);
	}
	p->bos[i].handle = b.handle;
	fz_obj_set(&p->bos[i], b.va, b.alloc_size);
	p->bos[i].live = 1;
	pthread_mutex_unlock(&p->lock);
}

/*
 * The free ring: create it (or try to, with junk arguments), then scribble
 * on it: VAs of our BOs, stale, foreign and random ones, sane and corrupt
 * tails, the kernel's mirrors; then make the kernel drain it.
 */
static void op_free_ring(struct fz_proc *p)
{
	struct drm_ascend_free_ring_create c = { 0 };
	struct drm_ascend_bo_free f = { 0 };
	struct drm_ascend_free_ring *r;
	uint64_t room, *va;
	unsigned int i, n;
	void *m;

	pthread_mutex_lock(&p->lock);
	if (!p->fring) {
		c.entries = chance(70) ? 1u << rndn(13) : (uint32_t)rnd();
		c.flags = chance(90) ? 0 : gen_flags32();
		c.reserved = chance(90) ? 0 : rnd();
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_FREE_RING_CREATE, &c) == 0) {
			m = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE,
				 MAP_SHARED, p->fd, (off_t)c.mmap_offset);
			if (m != MAP_FAILED && fz_keep_map(p, m, c.mmap_size) == 0) {
				p->fring = m;
				p->fring_entries = c.entries;
			}
		}
		pthread_mutex_unlock(&p->lock);
		return;
	}
	r = p->fring;
	va = (uint64_t *)((char *)r + DRM_ASCEND_FREE_RING_VA_OFFSET);
	n = 1 + rndn(8);
	for (i = 0; i < n; i++) {
		uint64_t t = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
		unsigned int k = rndn(FZ_MAX_BOS);

		va[t & (p->fring_entries - 1)] =
			chance(50) ? p->bos[k].addr : gen_dev_addr(p, &room);
		if (chance(50))
			p->bos[k].live = 0;	/* maybe freed now */
		switch (rndn(10)) {
		case 0: t = rnd(); break;			/* corrupt */
		case 1: t -= 1 + rndn(4); break;		/* behind */
		case 2: r->head = rnd(); break;			/* mirror */
		default: t++; break;
		}
		__atomic_store_n(&r->tail, t, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->lock);
	/* drain: BO_FREE of junk, or a query (which drains every file) */
	f.va = gen_dev_addr(p, &room);
	if (chance(50))
		fz_ioctl(p, DRM_IOCTL_ASCEND_BO_FREE, &f);
}

/*
 * The queue activity bitmap: create it (or try, with junk arguments), then
 * scribble on it (random bits, handles of live and dead queues, all ones),
 * and let a synchronous fill look at it.
 */
static void op_activity(struct fz_proc *p)
{
	struct drm_ascend_queue_activity a = { 0 };
	unsigned int i, n;
	void *m;

	/*
	 * With a bitmap, a drain waits only for the queues marked in it (as
	 * documented): one without the stalled queue's bit would let every
	 * copy pass the stall that fuzzing with o->stall is about.
	 */
	if (p->o->stall)
		return;
	pthread_mutex_lock(&p->lock);
	if (!p->activity) {
		a.flags = chance(90) ? 0 : gen_flags32();
		a.reserved = chance(90) ? 0 : rnd();
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_ACTIVITY, &a) == 0) {
			m = mmap(NULL, a.mmap_size, PROT_READ | PROT_WRITE,
				 MAP_SHARED, p->fd, (off_t)a.mmap_offset);
			if (m != MAP_FAILED && fz_keep_map(p, m, a.mmap_size) == 0)
				p->activity = m;
		}
		pthread_mutex_unlock(&p->lock);
		return;
	}
	n = 1 + rndn(8);
	for (i = 0; i < n; i++) {
		unsigned int w = rndn(DRM_ASCEND_QUEUE_ACTIVITY_SIZE / 8);

		__atomic_store_n(&p->activity[chance(70) ? w % 130 : w],
				 chance(20) ? ~0ULL : rnd(), __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&p->lock);
}

static void op_gem_close(struct fz_proc *p)
{
	struct drm_gem_close c = { 0 };
	unsigned int i = rndn(FZ_MAX_BOS);

	pthread_mutex_lock(&p->lock);
	if (chance(60) && p->bos[i].live) {
		c.handle = p->bos[i].handle;
		p->bos[i].live = 0;	/* addr/size stay: use-after-free VAs */
		fz_stale(p, c.handle);
	} else {
		c.handle = gen_handle(p, (int)rndn(2));
	}
	pthread_mutex_unlock(&p->lock);
	c.pad = chance(95) ? 0 : 1;
	fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);
}

static void op_copy(struct fz_proc *p)
{
	uint64_t dr, sr, size;
	struct drm_ascend_copy c = { 0 };
	struct drm_ascend_fill f = { 0 };
	struct drm_ascend_copy_2d d = { 0 };
	struct drm_ascend_copy_batch b = { 0 };
	/*
	 * A junk count makes the kernel read up to 4096 entries: they must
	 * be zeros (size 0), never stack contents that could name our memory.
	 */
	static __thread struct drm_ascend_copy_entry e[DRM_ASCEND_COPY_BATCH_MAX + 8];
	unsigned int i, n;
	int dh, sh;

	switch (rndn(4)) {
	case 0:
		c.dst = gen_copy_addr(p, &dr, 1, &dh);
		c.src = gen_copy_addr(p, &sr, 0, &sh);
		size = dr < sr ? dr : sr;
		c.size = gen_size(size > 65536 ? 65536 : size);
		if (dh && c.size > dr)
			c.size = dr;
		c.flags = gen_flags32();
		c.pad = chance(95) ? 0 : 7;
		if (!fz_dst_check(p, "COPY", c.dst, c.size))
			fz_ioctl(p, DRM_IOCTL_ASCEND_COPY, &c);
		break;
	case 1:
		f.dst = gen_dev_addr(p, &dr);
		f.pattern_size = chance(85) ? 1u << rndn(3) : (uint32_t)rndn(9);
		f.size = gen_size(dr > 65536 ? 65536 : dr);
		if (fz_host_pick && f.size > dr)
			f.size = dr;
		if (chance(80) && f.pattern_size)
			f.size -= f.size % f.pattern_size;
		f.pattern = rnd();
		f.flags = gen_flags32();
		if (!fz_dst_check(p, "FILL", f.dst, f.size))
			fz_ioctl(p, DRM_IOCTL_ASCEND_FILL, &f);
		break;
	case 2:
		d.dst = gen_copy_addr(p, &dr, 1, &dh);
		d.src = gen_copy_addr(p, &sr, 0, &sh);
		d.width = chance(80) ? 1 + rndn(256) : gen_size(0);
		d.height = chance(80) ? 1 + rndn(16) : gen_size(0);
		d.dpitch = d.width + (chance(70) ? rndn(64) : rnd());
		d.spitch = d.width + (chance(70) ? rndn(64) : rnd());
		if (chance(10))
			d.dpitch = d.width - 1;
		/* rows reach (height - 1) * dpitch + width bytes past dst */
		if (!d.height || d.height - 1 > UINT64_MAX / (d.dpitch ? d.dpitch : 1))
			size = UINT64_MAX;
		else
			size = (d.height - 1) * d.dpitch;
		size = size > UINT64_MAX - d.width ? UINT64_MAX : size + d.width;
		if (dh && size > dr) {
			/* keep the host side inside its buffer: one row */
			d.width = d.width > dr ? dr : d.width;
			d.dpitch = d.width;
			d.height = 1;
			size = d.width;
		}
		d.flags = gen_flags32();
		if (!fz_dst_check(p, "COPY_2D", d.dst, d.height ? size : 0))
			fz_ioctl(p, DRM_IOCTL_ASCEND_COPY_2D, &d);
		break;
	default:
		n = 1 + rndn(8);
		for (i = 0; i < n; i++) {
			e[i].dst = gen_copy_addr(p, &dr, 1, &dh);
			e[i].src = gen_copy_addr(p, &sr, 0, &sh);
			size = dr < sr ? dr : sr;
			e[i].size = chance(10) ? 0 : gen_size(size > 8192 ? 8192 : size);
			if (dh && e[i].size > dr)
				e[i].size = dr;
		}
		b.entries = chance(90) ? (uint64_t)(uintptr_t)e :
			    chance(50) ? 0 : FZ_KERNEL_ADDR;
		b.count = chance(85) ? n : (uint32_t)rnd();
		b.entry_size = chance(80) ? sizeof(e[0]) : (uint32_t)rndn(64);
		if (b.entry_size > sizeof(e[0]) && b.count > n / 2)
			b.count = n / 2;
		b.flags = gen_flags32();
		b.fail_index = (uint32_t)rnd();
		/*
		 * A longer stride makes the kernel read one entry's source
		 * address as another's destination, its address as a size:
		 * only where that writes nothing of ours past its end.
		 */
		if (b.entry_size != sizeof(e[0]) &&
		    fz_batch_past(p, &b, e, sizeof(e), 0))
			b.entry_size = sizeof(e[0]);
		fz_cur.batch = e;
		fz_cur.batch_n = n;
		if (!fz_batch_past(p, &b, e, sizeof(e), 1))
			fz_ioctl(p, DRM_IOCTL_ASCEND_COPY_BATCH, &b);
		fz_cur.batch = NULL;
		break;
	}
}

static void op_host(struct fz_proc *p)
{
	struct drm_ascend_host_alloc a = { 0 };
	struct drm_ascend_host_register r = { 0 };
	struct drm_gem_close c = { 0 };
	unsigned int i = rndn(FZ_MAX_HOST);
	uint64_t start, npg;
	void *m;

	switch (rndn(4)) {
	case 0: /* HOST_ALLOC, then mmap it (or not, or twice) */
		a.size = chance(85) ? 1 + rndn(64 * 1024) :
			 chance(50) ? 1 + rndn(4 << 20) : gen_size(0);
		a.flags = gen_flags32();
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_HOST_ALLOC, &a))
			return;
		m = MAP_FAILED;
		if (chance(85)) {
			m = mmap(NULL, a.alloc_size, PROT_READ | PROT_WRITE,
				 MAP_SHARED, p->fd, (off_t)a.mmap_offset);
			__atomic_add_fetch(&p->tot->calls, 1, __ATOMIC_RELAXED);
		}
		if (chance(10)) {	/* a second mapping: -EBUSY */
			void *m2 = mmap(NULL, a.alloc_size, PROT_READ, MAP_SHARED,
					p->fd, (off_t)a.mmap_offset);

			if (m2 != MAP_FAILED)
				munmap(m2, a.alloc_size);
		}
		pthread_mutex_lock(&p->lock);
		if (p->hosts[i].live && chance(70)) {
			c.handle = p->hosts[i].handle;
			fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);
			fz_stale(p, c.handle);
		}
		if (m != MAP_FAILED && fz_keep_map(p, m, a.alloc_size))
			m = MAP_FAILED;
		p->hosts[i].handle = a.handle;
		p->hosts[i].live = 1;
		fz_obj_set(&p->hosts[i], m == MAP_FAILED ? 0 : (uint64_t)(uintptr_t)m,
			   m == MAP_FAILED ? 0 : a.alloc_size);
		pthread_mutex_unlock(&p->lock);
		break;
	case 1: /* HOST_REGISTER pages of the register area, or junk */
		start = rndn(FZ_REG_PAGES);
		npg = 1 + rndn(FZ_REG_PAGES - start);
		r.addr = (uint64_t)(uintptr_t)p->regarea + start * 4096;
		r.size = npg * 4096;
		if (chance(20)) {
			switch (rndn(6)) {
			case 0: r.addr += 1 + rndn(4095); break;
			case 1: r.size = gen_size(0); break;
			case 2: r.addr = (uint64_t)(uintptr_t)p->none_page; r.size = 4096; break;
			case 3: r.addr = (uint64_t)(uintptr_t)p->ro_page; r.size = 4096; break;
			case 4: r.addr = FZ_KERNEL_ADDR; break;
			default: r.addr = p->win_base; break;
			}
		}
		r.flags = chance(80) ? (chance(30) ? DRM_ASCEND_HOST_REG_READONLY : 0) :
			  gen_flags32();
		if (r.addr == (uint64_t)(uintptr_t)p->ro_page && chance(50))
			r.flags = DRM_ASCEND_HOST_REG_READONLY;
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_HOST_REGISTER, &r))
			return;
		pthread_mutex_lock(&p->lock);
		if (p->hosts[i].live && chance(70)) {
			c.handle = p->hosts[i].handle;
			fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);
			fz_stale(p, c.handle);
		}
		p->hosts[i].handle = r.handle;
		p->hosts[i].live = 1;
		/* read-only or not, the device may only write where we allow:
		 * inside the register area (a junk range may reach past it,
		 * into this process's other memory) */
		fz_obj_set(&p->hosts[i], r.addr,
			   r.addr >= (uint64_t)(uintptr_t)p->regarea &&
			   r.size <= FZ_REG_PAGES * 4096 &&
			   r.addr - (uint64_t)(uintptr_t)p->regarea <=
			   FZ_REG_PAGES * 4096 - r.size ? r.size : 0);
		pthread_mutex_unlock(&p->lock);
		break;
	case 2: /* unregister / free */
		pthread_mutex_lock(&p->lock);
		c.handle = p->hosts[i].live ? p->hosts[i].handle : gen_handle(p, 1);
		p->hosts[i].live = 0;
		fz_stale(p, c.handle);
		pthread_mutex_unlock(&p->lock);
		fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);
		break;
	default: /* mmap with junk offsets/sizes, mmap of a BO */
		npg = 1ULL << rndn(4);
		m = mmap(NULL, npg * 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			 p->fd, (off_t)(chance(50) ? rndn(1u << 20) << 12 : rnd() & ~4095ULL));
		__atomic_add_fetch(&p->tot->calls, 1, __ATOMIC_RELAXED);
		if (m != MAP_FAILED) {
			pthread_mutex_lock(&p->lock);
			fz_keep_map(p, m, npg * 4096);	/* never touched */
			pthread_mutex_unlock(&p->lock);
		}
		break;
	}
}

static void op_event(struct fz_proc *p)
{
	struct drm_ascend_event_create c = { 0 };
	struct drm_ascend_event_destroy d = { 0 };
	struct drm_ascend_event_wait w = { 0 };
	struct drm_ascend_event_signal s = { 0 };
	unsigned int i = rndn(FZ_MAX_EVENTS);

	switch (rndn(4)) {
	case 0:
		c.flags = chance(85) ? (uint32_t)rndn(2) : gen_flags32();
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_EVENT_CREATE, &c))
			return;
		pthread_mutex_lock(&p->lock);
		if (p->events[i] && chance(50)) {
			d.handle = p->events[i];
			fz_ioctl(p, DRM_IOCTL_ASCEND_EVENT_DESTROY, &d);
			fz_stale(p, d.handle);
		}
		p->events[i] = c.handle;
		p->event_gen[i] = 0;
		pthread_mutex_unlock(&p->lock);
		break;
	case 1:
		d.handle = chance(70) ? p->events[i] : gen_handle(p, 3);
		d.pad = chance(95) ? 0 : 1;
		if (!fz_ioctl(p, DRM_IOCTL_ASCEND_EVENT_DESTROY, &d))
			fz_stale(p, d.handle);
		break;
	case 2:
		w.handle = chance(80) ? p->events[i] : gen_handle(p, 3);
		w.flags = gen_flags32();
		w.gen = chance(30) ? 0 : rndn(p->event_gen[i] + 3);
		w.timeout_ns = gen_timeout();
		if (!w.gen && chance(30))
			w.timeout_ns = DRM_ASCEND_TIMEOUT_INFINITE;	/* query only */
		fz_ioctl(p, DRM_IOCTL_ASCEND_EVENT_WAIT, &w);
		break;
	default:
		s.handle = chance(80) ? p->events[i] : gen_handle(p, 3);
		s.pad = chance(95) ? 0 : 1;
		s.gen = chance(80) ? ++p->event_gen[i] : rnd();
		fz_ioctl(p, DRM_IOCTL_ASCEND_EVENT_SIGNAL, &s);
		break;
	}
}

/*
 * IPC: exports of our memory, events and notify words (sizes, alignments,
 * types and flags mostly right), allow-lists with our own, invalid and
 * random pids, imports of our keys (into this same file), of mangled and
 * random ones, and closes.  Imports are left to the file's close (the
 * kernel bounds them by the VA window and the caller's quotas).
 */
static void op_ipc(struct fz_proc *p)
{
	static const uint32_t types[] = {
		DRM_ASCEND_IPC_MEM, DRM_ASCEND_IPC_EVENT, DRM_ASCEND_IPC_NOTIFY,
	};
	unsigned int k = rndn(FZ_MAX_KEYS);
	char key[DRM_ASCEND_IPC_KEY_LEN];
	uint64_t room;

	pthread_mutex_lock(&p->lock);
	memcpy(key, p->keys[k], sizeof(key));
	pthread_mutex_unlock(&p->lock);
	if (!key[0] || chance(10)) {		/* a key of no export */
		snprintf(key, sizeof(key), "%016llx%016llx%016llx%016llx",
			 (unsigned long long)rnd(), (unsigned long long)rnd(),
			 (unsigned long long)rnd(), (unsigned long long)rnd());
	} else if (chance(10)) {
		key[rndn(DRM_ASCEND_IPC_KEY_LEN)] ^= (char)(1 + rndn(255));
	}
	switch (rndn(4)) {
	case 0: {
		struct drm_ascend_ipc_export e = { 0 };

		e.type = chance(90) ? types[rndn(3)] : gen_flags32();
		e.flags = chance(80) ? (uint32_t)rndn(2) : gen_flags32();
		if (e.type == DRM_ASCEND_IPC_EVENT) {
			e.event = gen_handle(p, 3);
		} else {
			e.va = gen_dev_addr(p, &room);
			if (e.type == DRM_ASCEND_IPC_NOTIFY && chance(70))
				e.va &= ~4095ULL;
			e.size = e.type == DRM_ASCEND_IPC_NOTIFY && chance(70) ? 8 :
				 gen_size(room);
		}
		e.pad = chance(95) ? 0 : 1;
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_IPC_EXPORT, &e))
			return;
		pthread_mutex_lock(&p->lock);
		memcpy(p->keys[k], e.key, sizeof(e.key));
		pthread_mutex_unlock(&p->lock);
		break;
	}
	case 1: {
		struct drm_ascend_ipc_set_pid sp = { 0 };
		int32_t pids[4];
		unsigned int i;

		for (i = 0; i < 4; i++)
			pids[i] = chance(60) ? (int32_t)getpid() :
				  chance(50) ? (int32_t)rndn(1 << 22) : (int32_t)rnd();
		memcpy(sp.key, key, sizeof(key));
		sp.pids = chance(90) ? (uintptr_t)pids : gen_dev_addr(p, &room);
		sp.count = chance(90) ? 1 + rndn(4) : gen_flags32();
		sp.pad2 = chance(95) ? 0 : 1;
		fz_ioctl(p, DRM_IOCTL_ASCEND_IPC_SET_PID, &sp);
		break;
	}
	case 2: {
		struct drm_ascend_ipc_import im = { 0 };

		memcpy(im.key, key, sizeof(key));
		im.type = chance(90) ? types[rndn(3)] : gen_flags32();
		im.flags = chance(95) ? 0 : gen_flags32();
		fz_ioctl(p, DRM_IOCTL_ASCEND_IPC_IMPORT, &im);
		break;
	}
	default: {
		struct drm_ascend_ipc_close c = { 0 };

		memcpy(c.key, key, sizeof(key));
		c.pad[0] = chance(95) ? 0 : 1;
		if (!fz_ioctl(p, DRM_IOCTL_ASCEND_IPC_CLOSE, &c) && chance(50)) {
			pthread_mutex_lock(&p->lock);
			p->keys[k][0] = '\0';
			pthread_mutex_unlock(&p->lock);
		}
		break;
	}
	}
}

/*
 * Virtual memory management: physical allocations (sane and junk sizes,
 * policies, flags), reservations (anywhere, at a wanted address inside
 * and outside the window, junk alignments), maps of our allocations and of
 * other handles at aligned and misaligned places inside and across
 * reservations, unmaps and protects of starts and non-starts, releases of
 * reservations still mapped; the physical allocations exported as IPC
 * keys and imported back, and passed through PRIME.  Copies reach the
 * reservations through gen_dev_addr().
 */
/*
 * Managed memory: allocations go into bos[] (the copies and ring commands
 * then use them: synchronous copies bring chunks to the device, ring
 * commands make page requests); the host maps some at their VA (inside
 * our window's reservation) and touches them, against the device's
 * accesses; prefetches and queries with hostile ranges.
 */
static void op_managed(struct fz_proc *p)
{
	unsigned int i = rndn(FZ_MAX_BOS), k;
	uint64_t addr, size;

	fz_obj_get(&p->bos[i], &addr, &size);
	switch (rndn(6)) {
	case 0: case 1: {
		struct drm_ascend_managed_create c = { 0 };
		void *m;

		c.size = chance(85) ? (2ULL << 20) * (1 + rndn(4)) - rndn(4096) :
			 gen_size(0);
		c.flags = chance(95) ? 0 : gen_flags32();
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_MANAGED_CREATE, &c))
			return;
		if (chance(70)) {
			/*
			 * at its VA over our window's reservation (the right
			 * offset: a mapping we keep is this object's, so its
			 * VA is never handed out again while kept), or
			 * anywhere with any offset (refused, or undone)
			 */
			int ours = c.va >= p->win_base &&
				   c.va - p->win_base < p->win_size &&
				   c.alloc_size <= p->win_size - (c.va - p->win_base);

			if (ours && chance(90)) {
				m = mmap((void *)(uintptr_t)c.va, c.alloc_size,
					 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
					 p->fd, c.mmap_offset);
				if (m == MAP_FAILED) {
					/* MAP_FIXED took the reservation: back */
					mmap((void *)(uintptr_t)c.va, c.alloc_size, PROT_NONE,
					     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
					     MAP_FIXED, -1, 0);
				} else {
					pthread_mutex_lock(&p->lock);
					k = p->nmanaged < FZ_MAX_MANAGED_MAPS &&
					    p->nmaps < FZ_MAX_MAPS;
					if (k) {
						fz_keep_map(p, m, c.alloc_size);
						p->maps[p->nmaps - 1].managed = 1;
						p->nmanaged++;
					}
					pthread_mutex_unlock(&p->lock);
					if (k)
						memset(m, (int)rnd(), 4096 * (1 + rndn(64)));
					else
						/*
						 * the reservation back over it in one
						 * step: an munmap first would leave a
						 * hole another thread's mmap (a
						 * queue's ring) could land in
						 */
						mmap(m, c.alloc_size, PROT_NONE,
						     MAP_PRIVATE | MAP_ANONYMOUS |
						     MAP_NORESERVE | MAP_FIXED, -1, 0);
				}
			} else {
				m = mmap(NULL, c.alloc_size, PROT_READ | PROT_WRITE,
					 MAP_SHARED, p->fd,
					 chance(50) ? c.mmap_offset : rnd() & ~4095ULL);
				if (m != MAP_FAILED)
					munmap(m, c.alloc_size);
			}
		}
		pthread_mutex_lock(&p->lock);
		/*
		 * The slot's old object goes: a managed allocation's host
		 * pages are bounded by nothing but memory (like anonymous
		 * memory), so handles left open until exit grew the fuzzers
		 * into the OOM killer in a 1 GiB VM.  (Buffer objects still
		 * leave handles open: the HBM share bounds them.)
		 */
		if (p->bos[i].live) {
			struct drm_gem_close gc = { .handle = p->bos[i].handle };

			fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &gc);
		}
		p->bos[i].handle = c.handle;
		p->bos[i].live = 1;
		fz_obj_set(&p->bos[i], c.va, c.alloc_size);
		pthread_mutex_unlock(&p->lock);
		return;
	}
	case 2: {
		struct drm_ascend_managed_migrate mm = { 0 };

		mm.va = chance(80) ? addr + rndn(size + 1) : rnd();
		mm.size = chance(80) ? rndn(size + 1) : gen_size(0);
		mm.target = chance(90) ? 1 + rndn(2) : (uint32_t)rnd();
		mm.flags = chance(95) ? 0 : gen_flags32();
		fz_ioctl(p, DRM_IOCTL_ASCEND_MANAGED_MIGRATE, &mm);
		return;
	}
	case 3: {
		struct drm_ascend_managed_query q = { 0 };

		q.va = chance(80) ? addr + rndn(size + 1) : rnd();
		q.size = chance(80) ? rndn(size + 1) : gen_size(0);
		q.flags = chance(95) ? 0 : gen_flags32();
		q.pad = chance(95) ? 0 : 1;
		fz_ioctl(p, DRM_IOCTL_ASCEND_MANAGED_QUERY, &q);
		return;
	}
	default: {
		/* the host touches a managed mapping */
		uint8_t *m = NULL;
		size_t n = 0;

		pthread_mutex_lock(&p->lock);
		for (k = rndn(p->nmaps + 1); k < p->nmaps; k++)
			if (p->maps[k].managed) {
				m = p->maps[k].p;
				n = p->maps[k].size;
				break;
			}
		pthread_mutex_unlock(&p->lock);
		if (m && n) {
			size_t at = rndn(n), off = at & ~4095UL;
			size_t len = 4096 * (1 + rndn(16));

			if (len > n - off)
				len = n - off;
			if (chance(50))
				m[at] ^= (uint8_t)rnd();
			else
				memset(m + off, (int)rnd(), len);
		}
		return;
	}
	}
}

static void op_vmm(struct fz_proc *p)
{
	unsigned int i = rndn(FZ_MAX_PHYS), r = rndn(FZ_MAX_RESV);
	uint64_t raddr, rsize, page, handle;

	fz_obj_get(&p->resv[r], &raddr, &rsize);
	pthread_mutex_lock(&p->lock);
	handle = p->phys[i].live ? p->phys[i].handle : gen_handle(p, (int)rndn(2));
	page = p->phys[i].live ? p->phys[i].size : 4096;
	pthread_mutex_unlock(&p->lock);
	switch (rndn(8)) {
	case 0: {
		struct drm_ascend_phys_alloc a = { 0 };

		a.size = chance(85) ? (chance(50) ? 4096 * (1 + rndn(16)) : (2ULL << 20)) :
			 gen_size(0);
		a.policy = chance(85) ? (chance(50) ? DRM_ASCEND_BO_NORMAL_ONLY :
				DRM_ASCEND_BO_HUGE_ONLY) : (uint32_t)rndn(6);
		a.flags = chance(90) ? 0 : gen_flags32();
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_PHYS_ALLOC, &a))
			return;
		pthread_mutex_lock(&p->lock);
		if (p->phys[i].live && chance(70)) {
			struct drm_gem_close c = { .handle = p->phys[i].handle };

			fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);	/* mappings keep it */
		}
		p->phys[i].handle = a.handle;
		p->phys[i].live = 1;
		fz_obj_set(&p->phys[i], a.alloc_size, a.page_size);
		pthread_mutex_unlock(&p->lock);
		return;
	}
	case 1: {
		struct drm_ascend_va_reserve v = { 0 };

		v.size = chance(85) ? (2ULL << 20) * (1 + rndn(8)) : gen_size(0);
		v.align = chance(80) ? 0 : chance(50) ? 1ULL << rndn(40) : rnd();
		v.va = chance(70) ? 0 : chance(60) ? (p->win_base + rndn(p->win_size + 1)) &
						    ~((2ULL << 20) - 1) : rnd();
		v.flags = chance(95) ? 0 : gen_flags32();
		v.pad = chance(95) ? 0 : 1;
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_VA_RESERVE, &v))
			return;
		if (raddr && chance(50)) {
			struct drm_ascend_va_release rel = { .va = raddr };

			fz_ioctl(p, DRM_IOCTL_ASCEND_VA_RELEASE, &rel);
		}
		fz_obj_set(&p->resv[r], v.va, v.size);
		return;
	}
	case 2: {
		struct drm_ascend_va_release rel = { 0 };

		rel.va = chance(80) ? raddr : raddr + rndn(rsize + 1);
		fz_ioctl(p, DRM_IOCTL_ASCEND_VA_RELEASE, &rel);
		return;
	}
	case 3: case 4: {
		struct drm_ascend_va_map m = { 0 };
		uint64_t psize = 0, pg = 0;

		fz_obj_get(&p->phys[i], &psize, &pg);
		if (!pg)
			pg = page;
		m.va = raddr + (chance(80) ? rndn(rsize / (pg ? pg : 1) + 1) * pg : rndn(rsize + 1));
		m.size = chance(80) ? (chance(60) ? psize : pg) : gen_size(rsize);
		m.offset = chance(80) ? 0 : chance(50) ? pg * rndn(4) : rnd();
		m.handle = (uint32_t)handle;
		m.flags = chance(80) ? (uint32_t)rndn(3) & DRM_ASCEND_VA_MAP_READONLY :
			  gen_flags32();
		fz_ioctl(p, DRM_IOCTL_ASCEND_VA_MAP, &m);
		return;
	}
	case 5: {
		struct drm_ascend_va_unmap u = { 0 };
		struct drm_ascend_va_protect pr = { 0 };

		u.va = raddr + (chance(70) ? rndn(rsize / (2ULL << 20) + 1) * (2ULL << 20) :
				rndn(rsize + 1));
		if (chance(60)) {
			fz_ioctl(p, DRM_IOCTL_ASCEND_VA_UNMAP, &u);
			return;
		}
		pr.va = u.va;
		pr.size = chance(70) ? page : gen_size(rsize);
		pr.access = chance(85) ? (uint32_t)rndn(4) : gen_flags32();
		pr.pad = chance(95) ? 0 : 1;
		fz_ioctl(p, DRM_IOCTL_ASCEND_VA_PROTECT, &pr);
		return;
	}
	case 6: {
		struct drm_ascend_ipc_export e = { 0 };
		struct drm_ascend_ipc_import im = { 0 };

		e.type = DRM_ASCEND_IPC_PHYS;
		e.flags = chance(70) ? DRM_ASCEND_IPC_NO_PID_CHECK : 0;
		e.event = (uint32_t)handle;
		if (chance(10))
			e.va = rnd();
		if (fz_ioctl(p, DRM_IOCTL_ASCEND_IPC_EXPORT, &e))
			return;
		memcpy(im.key, e.key, sizeof(im.key));
		im.type = chance(90) ? DRM_ASCEND_IPC_PHYS : DRM_ASCEND_IPC_MEM;
		if (!fz_ioctl(p, DRM_IOCTL_ASCEND_IPC_IMPORT, &im) && chance(50)) {
			struct drm_gem_close c = { .handle = im.handle };

			fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);
		}
		if (chance(50)) {
			struct drm_ascend_ipc_close c = { 0 };

			memcpy(c.key, e.key, sizeof(c.key));
			fz_ioctl(p, DRM_IOCTL_ASCEND_IPC_CLOSE, &c);
		} else {
			pthread_mutex_lock(&p->lock);
			memcpy(p->keys[rndn(FZ_MAX_KEYS)], e.key, sizeof(e.key));
			pthread_mutex_unlock(&p->lock);
		}
		return;
	}
	default: {
		struct drm_prime_handle ph = { .handle = (uint32_t)handle, .flags = DRM_CLOEXEC };

		if (fz_ioctl(p, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph))
			return;
		ph.handle = 0;
		if (!fz_ioctl(p, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph) && chance(30)) {
			struct drm_gem_close c = { .handle = ph.handle };

			fz_ioctl(p, DRM_IOCTL_GEM_CLOSE, &c);
		}
		close(ph.fd);
		return;
	}
	}
}

static void op_prime(struct fz_proc *p)
{
	struct drm_prime_handle ph = { 0 };
	struct drm_gem_flink fl = { 0 };
	struct drm_gem_open go = { 0 };

	switch (rndn(3)) {
	case 0:
		ph.handle = gen_handle(p, (int)rndn(2));
		ph.flags = chance(70) ? DRM_CLOEXEC | (chance(50) ? DRM_RDWR : 0) :
			   gen_flags32();
		if (!fz_ioctl(p, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph))
			close(ph.fd);	/* must not happen: export is refused */
		break;
	case 1:
		/* some fd of ours: the DRM file itself, stdin, a junk number */
		ph.fd = chance(40) ? p->fd : chance(50) ? 0 : (int)rndn(1024);
		ph.flags = gen_flags32();
		if (!fz_ioctl(p, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph))
			fz_stale(p, ph.handle);
		break;
	default:
		fl.handle = gen_handle(p, 0);
		fz_ioctl(p, DRM_IOCTL_GEM_FLINK, &fl);
		go.name = chance(50) ? fl.name : (uint32_t)rndn(16);
		if (!fz_ioctl(p, DRM_IOCTL_GEM_OPEN, &go))
			fz_stale(p, go.handle);
		break;
	}
}

/* ---- queues and rings ---------------------------------------------------- */

static void gen_cmd(struct fz_proc *p, struct ascend_cmd *c);

/* gen_call() is generating a list: no list inside (a CALL there only). */
static __thread int fz_in_list;

/* List commands: SWITCH and JUMP (any of @n), CALL (nesting faults). */
static void gen_list_cmd(struct fz_proc *p, struct ascend_cmd *c, unsigned int n)
{
	uint64_t r1;

	gen_cmd(p, c);
	switch (rndn(6)) {
	case 0:
		memset(c, 0, sizeof(*c));
		c->opcode = ASCEND_CMD_JUMP;
		/* forwards, to the end, past it, or a loop (the step budget) */
		c->jump.target = chance(90) ? (uint32_t)rndn(n + 2) : (uint32_t)rnd();
		c->jump.pad = chance(97) ? 0 : 1;
		break;
	case 1:
		memset(c, 0, sizeof(*c));
		c->opcode = ASCEND_CMD_SWITCH;
		c->label_switch.value = gen_dev_addr(p, &r1) & (chance(80) ? ~7ULL : ~0ULL);
		c->label_switch.table = gen_dev_addr(p, &r1) & (chance(80) ? ~3ULL : ~0ULL);
		c->label_switch.count = chance(85) ? 1 + (uint32_t)rndn(8) : (uint32_t)rnd();
		c->label_switch.value_size = chance(90) ? 4u << rndn(2) : (uint32_t)rndn(16);
		break;
	case 2:
		if (chance(30)) {
			memset(c, 0, sizeof(*c));
			c->opcode = ASCEND_CMD_CALL;
			c->call.list = gen_dev_addr(p, &r1) & ~7ULL;
			c->call.count = 1 + (uint32_t)rndn(4);
		}
		break;
	default:
		break;
	}
}

/*
 * A CALL of 1..8 generated list commands written to our memory (when the
 * address picked has room), or of whatever lies at the address: junk,
 * unmapped, another list.
 */
static void gen_call(struct fz_proc *p, struct ascend_cmd *c)
{
	struct ascend_cmd list[8];
	struct drm_ascend_copy cp = { 0 };
	unsigned int n = 1 + rndn(8), k;
	uint64_t room, addr;

	addr = gen_dev_addr(p, &room) & (chance(90) ? ~7ULL : ~0ULL);
	if (room >= sizeof(list) && chance(85)) {
		fz_in_list = 1;
		for (k = 0; k < n; k++)
			gen_list_cmd(p, &list[k], n);
		fz_in_list = 0;
		cp.dst = addr;
		cp.src = (uintptr_t)list;
		cp.size = n * sizeof(list[0]);
		if (!fz_dst_check(p, "CALL list", cp.dst, cp.size))
			fz_ioctl(p, DRM_IOCTL_ASCEND_COPY, &cp);
	}
	memset(c, 0, sizeof(*c));
	c->opcode = ASCEND_CMD_CALL;
	c->call.list = addr;
	c->call.count = chance(85) ? n : chance(50) ? ASCEND_CALL_MAX_CMDS + 1 : (uint32_t)rnd();
	c->call.pad = chance(97) ? 0 : 1;
}

static void gen_cmd(struct fz_proc *p, struct ascend_cmd *c)
{
	uint64_t r1, r2, size;
	unsigned int i;

	if ((p->o->families & FUZZ_F_CMDLIST) && !fz_in_list && chance(15)) {
		gen_call(p, c);
		return;
	}
	memset(c, 0, sizeof(*c));
	c->opcode = chance(95) ? (uint32_t)rndn(ASCEND_CMD_REDUCE + 1) : (uint32_t)rnd();
	if (chance(3))
		c->flags = (uint32_t)rnd();
	if (chance(3))
		c->reserved = rnd();
	switch (c->opcode) {
	case ASCEND_CMD_LAUNCH:
		c->launch.kernel_id = p->nkernels && chance(85) ?
			p->kernel_ids[rndn(p->nkernels)] : (uint32_t)rnd();
		c->launch.num_blocks = chance(85) ? 1 + rndn(4) : (uint32_t)rnd();
		c->launch.args_size = chance(85) ? (uint32_t)rndn(ASCEND_LAUNCH_ARGS_MAX + 1) :
				      (uint32_t)rnd();
		c->launch.timeout_ms = chance(50) ? 0 : (uint32_t)rndn(100);
		/* arguments: pointers into our memory, small counts, junk */
		for (i = 0; i + 8 <= ASCEND_LAUNCH_ARGS_MAX; i += 8) {
			uint64_t v;

			switch (rndn(4)) {
			case 0: v = gen_dev_addr(p, &r1); break;
			case 1: v = rndn(64); break;
			case 2: v = rnd(); break;
			default: v = 0; break;
			}
			memcpy(&c->launch.args[i], &v, 8);
		}
		break;
	case ASCEND_CMD_COPY:
		c->copy.dst = gen_dev_addr(p, &r1);
		c->copy.src = gen_dev_addr(p, &r2);
		size = r1 < r2 ? r1 : r2;
		c->copy.size = gen_size(size > 65536 ? 65536 : size);
		break;
	case ASCEND_CMD_FILL:
		c->fill.dst = gen_dev_addr(p, &r1);
		c->fill.pattern_size = chance(85) ? 1u << rndn(3) : (uint32_t)rndn(9);
		c->fill.size = gen_size(r1 > 65536 ? 65536 : r1);
		if (c->fill.pattern_size && chance(80))
			c->fill.size -= c->fill.size % c->fill.pattern_size;
		c->fill.pattern = rnd();
		c->fill.pad = chance(95) ? 0 : 1;
		break;
	case ASCEND_CMD_EVENT_RECORD:
	case ASCEND_CMD_EVENT_WAIT:
		i = rndn(FZ_MAX_EVENTS);
		c->event.handle = chance(80) ? p->events[i] : gen_handle(p, 3);
		c->event.gen = chance(80) ? 1 + rndn(p->event_gen[i] + 2) : rnd();
		if (c->opcode == ASCEND_CMD_EVENT_WAIT) {
			c->event.flags = chance(85) ? ASCEND_CMD_EVENT_TIMEOUT : gen_flags32();
			c->event.timeout_ms = (uint32_t)rndn(50);
		} else {
			c->event.flags = chance(95) ? 0 : gen_flags32();
			p->event_gen[i] = c->event.gen;
		}
		break;
	case ASCEND_CMD_WRITE_VALUE:
	case ASCEND_CMD_WAIT_VALUE:
		c->value.addr = gen_dev_addr(p, &r1);
		c->value.value = chance(50) ? rndn(4) : rnd();
		/*
		 * every condition, a notify's wait-and-reset and own limit
		 * half of the time each; writes that store or combine
		 */
		c->value.cond = c->opcode == ASCEND_CMD_WAIT_VALUE ?
			(chance(90) ? (uint32_t)rndn(ASCEND_WAIT_VALUE_ALL + 1) |
			 (chance(50) ? ASCEND_WAIT_VALUE_RESET : 0) |
			 (chance(50) ? ASCEND_WAIT_VALUE_OWN_LIMIT : 0) :
			 (uint32_t)rnd()) :
			(chance(95) ? (uint32_t)rndn(ASCEND_WRITE_VALUE_AND + 1) :
			 (uint32_t)rnd());
		c->value.timeout_ms = c->opcode == ASCEND_CMD_WAIT_VALUE ?
			1 + (uint32_t)rndn(30) : 0;
		break;
	case ASCEND_CMD_COPY_2D:
		c->copy_2d.dst = gen_dev_addr(p, &r1);
		c->copy_2d.src = gen_dev_addr(p, &r2);
		c->copy_2d.width = chance(80) ? 1 + rndn(128) : gen_size(0);
		c->copy_2d.height = chance(80) ? 1 + rndn(8) : gen_size(0);
		c->copy_2d.dpitch = c->copy_2d.width + (chance(80) ? rndn(64) : rnd());
		c->copy_2d.spitch = c->copy_2d.width + (chance(80) ? rndn(64) : rnd());
		break;
	case ASCEND_CMD_COPY_BATCH:
		c->copy_batch.entries = gen_dev_addr(p, &r1);
		c->copy_batch.count = chance(80) ? 1 + (uint32_t)rndn(4) : (uint32_t)rnd();
		c->copy_batch.pad = chance(95) ? 0 : 1;
		break;
	case ASCEND_CMD_COPY_INDIRECT:
		c->copy_indirect.desc = gen_dev_addr(p, &r1) & (chance(80) ? ~63ULL : ~0ULL);
		break;
	case ASCEND_CMD_COPY_OFFSET:
		c->copy_offset.dst_slot = gen_dev_addr(p, &r1) & ~7ULL;
		c->copy_offset.src_slot = gen_dev_addr(p, &r2) & ~7ULL;
		c->copy_offset.dst_offset = chance(70) ? rndn(256) : rnd();
		c->copy_offset.src_offset = chance(70) ? rndn(256) : rnd();
		c->copy_offset.size = chance(80) ? 1 + rndn(256) : gen_size(0);
		break;
	case ASCEND_CMD_REDUCE:
		c->reduce.dst = gen_dev_addr(p, &r1);
		/* now and then the same range, or one overlapping it */
		r2 = r1;
		c->reduce.src = chance(10) ? c->reduce.dst + rndn(3) * 2 : gen_dev_addr(p, &r2);
		size = r1 < r2 ? r1 : r2;
		c->reduce.size = gen_size(size > 65536 ? 65536 : size);
		c->reduce.op = chance(90) ? (uint32_t)rndn(3) : (uint32_t)rnd();
		c->reduce.dtype = chance(90) ? (uint32_t)rndn(7) : (uint32_t)rnd();
		if (chance(80) && c->reduce.dtype < 7) {	/* mostly whole elements */
			static const uint8_t esz[7] = { 1, 2, 4, 4, 2, 4, 2 };
			uint64_t es = esz[c->reduce.dtype];

			c->reduce.size -= c->reduce.size % es;
			c->reduce.dst &= ~(es - 1);
			c->reduce.src &= ~(es - 1);
		}
		c->reduce.flags = chance(95) ? 0 : gen_flags32();
		c->reduce.pad = chance(95) ? 0 : 1;
		break;
	default: /* NOP or unknown: maybe junk in the payload */
		if (chance(30))
			for (i = 0; i < sizeof(c->raw); i++)
				c->raw[i] = (uint8_t)rnd();
		break;
	}
	/* trailing junk past the payload now and then */
	if (chance(3))
		c->raw[sizeof(c->raw) - 1 - rndn(8)] = (uint8_t)rnd();
}

static void op_queue_create(struct fz_proc *p)
{
	struct drm_ascend_queue_create c = { 0 };
	struct drm_ascend_queue_destroy d = { 0 };
	unsigned int i = rndn(FZ_MAX_QUEUES);
	void *m;

	c.ring_entries = chance(85) ? 1u << rndn(8) : (uint32_t)rnd();
	if (chance(20))
		c.ring_entries = 0;
	c.flags = gen_flags32();
	c.pad = chance(95) ? 0 : 1;
	if (fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c))
		return;
	m = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
		 (off_t)c.mmap_offset);
	__atomic_add_fetch(&p->tot->calls, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&p->lock);
	if (p->qs[i].live) {
		d.handle = p->qs[i].handle;
		d.flags = DRM_ASCEND_QUEUE_DESTROY_FORCE;
		fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d);
		fz_stale(p, d.handle);
		p->qs[i].live = 0;
	}
	if (m != MAP_FAILED && fz_keep_map(p, m, c.mmap_size))
		m = MAP_FAILED;
	if (m == MAP_FAILED) {
		/* unusable without its area: destroy it */
		d.handle = c.handle;
		d.flags = DRM_ASCEND_QUEUE_DESTROY_FORCE;
		fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d);
	} else {
		struct ascend_queue_status *st = m;

		/* read once: the page is shared, it may change under us */
		uint32_t entries = __atomic_load_n(&st->ring_entries, __ATOMIC_RELAXED);
		uint64_t off = __atomic_load_n(&st->ring_offset, __ATOMIC_RELAXED);

		p->qs[i].handle = c.handle;
		p->qs[i].st = st;
		p->qs[i].live = entries && off < c.mmap_size &&
				(uint64_t)entries * sizeof(struct ascend_cmd) <=
				c.mmap_size - off;
		p->qs[i].entries = p->qs[i].live ? entries : 0;
		p->qs[i].ring = (struct ascend_cmd *)((char *)m + off);
	}
	pthread_mutex_unlock(&p->lock);
}

/* Write a few commands into a live queue's ring, publish, ring, wait. */
static void op_ring(struct fz_proc *p)
{
	struct drm_ascend_queue_doorbell db = { 0 };
	struct drm_ascend_queue_wait w = { 0 };
	struct drm_ascend_queue_reset r = { 0 };
	struct drm_ascend_queue_destroy d = { 0 };
	unsigned int i = rndn(FZ_MAX_QUEUES), n, k;
	struct ascend_queue_status *st;
	struct ascend_cmd cmd;
	struct fz_queue q;
	uint64_t wp;

	pthread_mutex_lock(&p->lock);
	q = p->qs[i];
	pthread_mutex_unlock(&p->lock);
	/*
	 * Never created: the mapping may be gone otherwise.  No ring size:
	 * the status page said 0 when the queue was made -- it is shared
	 * memory that the other threads' copies and scribbles may reach --
	 * and a ring of 0 slots has no slot to write.
	 */
	if (!q.st || !q.entries)
		return;
	st = q.st;

	fz_cur.q_handle = q.handle;
	fz_cur.q_st = st;
	fz_cur.q_ring = q.ring;
	fz_cur.q_entries = q.entries;

	/* commands (the mapping outlives destroy: writes are harmless) */
	wp = __atomic_load_n(&st->wptr, __ATOMIC_RELAXED);
	n = 1 + rndn(4);
	for (k = 0; k < n; k++) {
		gen_cmd(p, &cmd);
		fz_cur.cmd = cmd;
		fz_cur.has_cmd = 1;
		fz_cur.q_slot = (wp + k) % q.entries;
		memcpy(&q.ring[(wp + k) % q.entries], &cmd, sizeof(cmd));
	}
	switch (rndn(20)) {
	case 0: wp = wp ? wp - 1 - rndn(wp) : 0; break;	/* backwards */
	case 1: wp += q.entries + 1 + rndn(1000); break;	/* past the ring */
	case 2: wp = rnd(); break;
	default: wp += n; break;
	}
	if (chance(3)) {	/* scribble over device-owned fields */
		switch (rndn(4)) {
		case 0: st->rptr = rnd(); break;
		case 1: st->completed = rndn(1000); break;
		case 2: st->flags = (uint32_t)rnd(); break;
		default: st->printf_tail = rnd(); break;
		}
	}
	fz_cur.q_wptr = wp;
	__atomic_store_n(&st->wptr, wp, __ATOMIC_RELEASE);
	__atomic_add_fetch(&p->tot->ring_cmds, n, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	db.handle = chance(90) ? q.handle : gen_handle(p, 2);
	db.pad = chance(97) ? 0 : 1;
	if (chance(90) || (__atomic_load_n(&st->flags, __ATOMIC_ACQUIRE) &
			   ASCEND_QUEUE_STATUS_NEED_WAKEUP))
		fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &db);

	w.handle = chance(90) ? q.handle : gen_handle(p, 2);
	w.flags = chance(97) ? 0 : 1;
	w.seq = chance(80) ? wp : rnd();
	w.timeout_ns = (int64_t)(fz_now_ns() + (5 + rndn(40)) * 1000000ULL);
	if (chance(5))
		w.timeout_ns = gen_timeout();
	if (fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w) == 0 && w.fault) {
		__atomic_add_fetch(&p->tot->faults, 1, __ATOMIC_RELAXED);
		r.handle = q.handle;
		if (!fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_RESET, &r))
			__atomic_add_fetch(&p->tot->resets, 1, __ATOMIC_RELAXED);
	} else if (chance(3)) {
		/* stalled or unlucky: throw it away */
		d.handle = q.handle;
		d.flags = DRM_ASCEND_QUEUE_DESTROY_FORCE;
		fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d);
		pthread_mutex_lock(&p->lock);
		if (p->qs[i].handle == q.handle)
			p->qs[i].live = 0;
		fz_stale(p, q.handle);
		pthread_mutex_unlock(&p->lock);
	}
}

static void op_queue_misc(struct fz_proc *p)
{
	struct drm_ascend_queue_destroy d = { 0 };
	struct drm_ascend_queue_reset r = { 0 };
	struct drm_ascend_queue_wait w = { 0 };
	unsigned int i = rndn(FZ_MAX_QUEUES);

	switch (rndn(3)) {
	case 0:
		pthread_mutex_lock(&p->lock);
		d.handle = chance(70) && p->qs[i].live ? p->qs[i].handle :
			   gen_handle(p, 2);
		if (d.handle == p->qs[i].handle)
			p->qs[i].live = 0;
		pthread_mutex_unlock(&p->lock);
		/*
		 * Never a plain destroy: it waits (killably) for every
		 * published command, and a device-side wait for an event
		 * nobody signals may never end.  Junk flags with FORCE set.
		 */
		d.flags = DRM_ASCEND_QUEUE_DESTROY_FORCE |
			  (chance(90) ? 0 : gen_flags32() & ~1u);
		if (!fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d))
			fz_stale(p, d.handle);
		break;
	case 1:
		r.handle = chance(70) ? p->qs[i].handle : gen_handle(p, 2);
		/* plain, ABORT, STOP, or junk (both, unknown bits) */
		r.flags = chance(60) ? 0 : chance(40) ? DRM_ASCEND_QUEUE_RESET_ABORT :
			  chance(60) ? DRM_ASCEND_QUEUE_RESET_STOP : gen_flags32();
		fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_RESET, &r);
		break;
	default:
		w.handle = chance(70) ? p->qs[i].handle : gen_handle(p, 2);
		w.seq = rndn(4) ? 0 : rnd();
		w.timeout_ns = gen_timeout();
		w.pad = chance(95) ? 0 : 1;
		fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w);
		break;
	}
}

/* ---- crash reports -------------------------------------------------------- */

/*
 * A fuzz process that dies of a signal says where and why first: the
 * faulting address, the signal, what each thread was doing (operation,
 * ioctl in progress and its last ioctls with their arguments, the ring
 * command it wrote last) and where the fuzzer's own buffers are, then
 * /proc/self/maps.  The handler runs on an alternate stack (a stack
 * overflow or a smashed stack pointer is reported too), writes with
 * write(2) only, and re-raises the signal with its default action, so
 * the process still dies of it and the parent reports the signal.
 */
static struct fz_proc *fz_self;	/* this process's state, for the handler */
static int fz_crashing;		/* the first crashing thread reports */

#define FZ_SIGSTACK	(64 * 1024)

struct fz_out {
	char buf[512];
	size_t n;
};

static void fz_out_flush(struct fz_out *o)
{
	size_t off = 0;

	while (off < o->n) {
		ssize_t w = write(STDOUT_FILENO, o->buf + off, o->n - off);

		if (w <= 0)
			break;
		off += w;
	}
	o->n = 0;
}

static void fz_out_s(struct fz_out *o, const char *s)
{
	for (; s && *s; s++) {
		if (o->n == sizeof(o->buf))
			fz_out_flush(o);
		o->buf[o->n++] = *s;
	}
}

static void fz_out_x(struct fz_out *o, uint64_t v)
{
	char t[19];
	int i = 18;

	t[i] = 0;
	do {
		t[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	t[--i] = 'x';
	t[--i] = '0';
	fz_out_s(o, t + i);
}

static void fz_out_d(struct fz_out *o, int64_t v)
{
	char t[24];
	int i = 23;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	t[i] = 0;
	do {
		t[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		t[--i] = '-';
	fz_out_s(o, t + i);
}

/* Start a report line: "# fuzz[pid]: " */
static void fz_out_line(struct fz_out *o)
{
	fz_out_s(o, "# fuzz[");
	fz_out_d(o, getpid());
	fz_out_s(o, "]: ");
}

static void fz_out_end(struct fz_out *o)
{
	fz_out_s(o, "\n");
	fz_out_flush(o);
}

static const char *fz_ioctl_name(unsigned long req)
{
	static const char *const drv[] = {
		"DEV_QUERY", "VA_WINDOW", "BO_CREATE", "COPY", "QUEUE_CREATE",
		"QUEUE_DESTROY", "QUEUE_DOORBELL", "QUEUE_WAIT", "FILL",
		"EVENT_CREATE", "EVENT_DESTROY", "EVENT_WAIT", "EVENT_SIGNAL",
		"QUEUE_RESET", "HOST_ALLOC", "HOST_REGISTER", "COPY_BATCH",
		"COPY_2D", "PEER", "IPC_EXPORT", "IPC_SET_PID", "IPC_IMPORT",
		"IPC_CLOSE", "BO_FREE", "FREE_RING_CREATE", "QUEUE_ACTIVITY",
		"PHYS_ALLOC", "VA_RESERVE", "VA_RELEASE", "VA_MAP", "VA_UNMAP",
		"VA_PROTECT", "MANAGED_CREATE", "MANAGED_MIGRATE", "MANAGED_QUERY",
	};
	unsigned int nr = _IOC_NR(req);

	if (req == DRM_IOCTL_VERSION)
		return "DRM_VERSION";
	if (req == DRM_IOCTL_GET_CAP)
		return "DRM_GET_CAP";
	if (req == DRM_IOCTL_GEM_CLOSE)
		return "GEM_CLOSE";
	if (req == DRM_IOCTL_GEM_FLINK)
		return "GEM_FLINK";
	if (req == DRM_IOCTL_GEM_OPEN)
		return "GEM_OPEN";
	if (req == DRM_IOCTL_PRIME_HANDLE_TO_FD)
		return "PRIME_HANDLE_TO_FD";
	if (req == DRM_IOCTL_PRIME_FD_TO_HANDLE)
		return "PRIME_FD_TO_HANDLE";
	if (nr >= DRM_COMMAND_BASE &&
	    nr - DRM_COMMAND_BASE < sizeof(drv) / sizeof(drv[0]))
		return drv[nr - DRM_COMMAND_BASE];
	return "unknown";
}

static const char *fz_sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	case SIGTRAP: return "SIGTRAP";
	case SIGKILL: return "SIGKILL";
	default: return "signal";
	}
}

static void fz_out_call(struct fz_out *o, const struct fz_call *c)
{
	unsigned int i;

	fz_out_s(o, fz_ioctl_name(c->req));
	fz_out_s(o, c->ret == 1 ? " (running)" : " ret ");
	if (c->ret != 1)
		fz_out_d(o, c->ret);
	fz_out_s(o, " arg");
	for (i = 0; i < 8 && i * 8 < _IOC_SIZE(c->req); i++) {
		fz_out_s(o, " ");
		fz_out_x(o, c->arg[i]);
	}
}

static void fz_out_thread(struct fz_out *o, const struct fz_cur *c, int self)
{
	unsigned int n = __atomic_load_n(&c->nhist, __ATOMIC_ACQUIRE), i, k;

	fz_out_line(o);
	fz_out_s(o, self ? "crashing thread " : "thread ");
	fz_out_d(o, c->tid);
	fz_out_s(o, ": in ");
	fz_out_s(o, c->op ? c->op : "(start)");
	fz_out_end(o);
	for (k = 0; k < FZ_HIST && k < n; k++) {
		i = n - 1 - k;
		fz_out_line(o);
		fz_out_s(o, "  ioctl -");
		fz_out_d(o, k);
		fz_out_s(o, ": ");
		fz_out_call(o, &c->hist[i % FZ_HIST]);
		fz_out_end(o);
	}
	if (c->has_cmd) {
		fz_out_line(o);
		fz_out_s(o, "  last ring command: queue ");
		fz_out_d(o, c->q_handle);
		fz_out_s(o, " status ");
		fz_out_x(o, (uintptr_t)c->q_st);
		fz_out_s(o, " ring ");
		fz_out_x(o, (uintptr_t)c->q_ring);
		fz_out_s(o, " entries ");
		fz_out_d(o, c->q_entries);
		fz_out_s(o, " slot ");
		fz_out_d(o, (int64_t)c->q_slot);
		fz_out_s(o, " wptr ");
		fz_out_x(o, c->q_wptr);
		fz_out_s(o, " cmd");
		for (i = 0; i < 8; i++) {
			uint64_t v;

			memcpy(&v, (const char *)&c->cmd + 8 * i, 8);
			fz_out_s(o, " ");
			fz_out_x(o, v);
		}
		fz_out_end(o);
	}
	if (c->batch) {
		for (i = 0; i < c->batch_n && i < 8; i++) {
			fz_out_line(o);
			fz_out_s(o, "  batch entry ");
			fz_out_d(o, i);
			fz_out_s(o, ": dst ");
			fz_out_x(o, c->batch[i].dst);
			fz_out_s(o, " src ");
			fz_out_x(o, c->batch[i].src);
			fz_out_s(o, " size ");
			fz_out_x(o, c->batch[i].size);
			fz_out_end(o);
		}
	}
}

/* One of the fuzzer's buffers; notes whether @addr is inside it. */
static void fz_out_buf(struct fz_out *o, const char *what, int idx,
		       uint64_t start, uint64_t size, uint64_t addr)
{
	if (!start)
		return;
	fz_out_line(o);
	fz_out_s(o, "  ");
	fz_out_s(o, what);
	if (idx >= 0) {
		fz_out_s(o, "[");
		fz_out_d(o, idx);
		fz_out_s(o, "]");
	}
	fz_out_s(o, " ");
	fz_out_x(o, start);
	fz_out_s(o, "-");
	fz_out_x(o, start + size);
	if (addr >= start && addr - start < size) {
		fz_out_s(o, "   <-- fault address at +");
		fz_out_x(o, addr - start);
	}
	fz_out_end(o);
}

static void fz_out_bufs(struct fz_out *o, const struct fz_proc *p,
			uint64_t addr)
{
	unsigned int i;

	fz_out_line(o);
	fz_out_s(o, "buffers of the fuzzer:");
	fz_out_end(o);
	fz_out_buf(o, "scratch (copy destination)", -1,
		   (uintptr_t)p->scratch, FZ_SCRATCH, addr);
	fz_out_buf(o, "register area", -1, (uintptr_t)p->regarea,
		   FZ_REG_PAGES * 4096, addr);
	fz_out_buf(o, "read-only page", -1, (uintptr_t)p->ro_page, 4096, addr);
	fz_out_buf(o, "PROT_NONE page", -1, (uintptr_t)p->none_page, 4096, addr);
	fz_out_buf(o, "VA window", -1, p->win_base, p->win_size, addr);
	fz_out_buf(o, "free ring", -1, (uintptr_t)p->fring, 4096, addr);
	for (i = 0; i < FZ_MAX_QUEUES; i++) {
		if (!p->qs[i].st)
			continue;
		fz_out_buf(o, p->qs[i].live ? "queue status" : "queue status (dead)",
			   (int)i, (uintptr_t)p->qs[i].st, 4096, addr);
		fz_out_buf(o, "queue ring", (int)i, (uintptr_t)p->qs[i].ring,
			   (uint64_t)p->qs[i].entries * sizeof(struct ascend_cmd),
			   addr);
	}
	for (i = 0; i < FZ_MAX_HOST; i++)
		fz_out_buf(o, p->hosts[i].live ? "host object" :
			   "host object (closed)", (int)i, p->hosts[i].addr,
			   p->hosts[i].size, addr);
	for (i = 0; i < p->nmaps && i < FZ_MAX_MAPS; i++)
		fz_out_buf(o, "kept mapping", (int)i, (uintptr_t)p->maps[i].p,
			   p->maps[i].size, addr);
}

/* /proc/self/maps, line by line, as report lines. */
static void fz_out_maps(struct fz_out *o)
{
	char b[256];
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC), bol = 1;
	ssize_t n, i;

	if (fd < 0)
		return;
	while ((n = read(fd, b, sizeof(b))) > 0) {
		for (i = 0; i < n; i++) {
			char c[2] = { b[i], 0 };

			if (bol) {
				fz_out_line(o);
				fz_out_s(o, "  maps: ");
				bol = 0;
			}
			if (b[i] == '\n') {
				fz_out_end(o);
				bol = 1;
			} else {
				fz_out_s(o, c);
			}
		}
	}
	if (!bol)
		fz_out_end(o);
	close(fd);
}

static void fz_crash_handler(int sig, siginfo_t *si, void *ucv)
{
	struct fz_proc *p = fz_self;
	struct fz_out o = { .n = 0 };
	uint64_t addr = (uintptr_t)si->si_addr;
	unsigned int i;

	(void)ucv;
	if (__atomic_exchange_n(&fz_crashing, 1, __ATOMIC_ACQ_REL)) {
		/* another thread reports; its re-raise ends us all */
		for (;;)
			pause();
	}
	fz_out_line(&o);
	fz_out_s(&o, "thread ");
	fz_out_d(&o, fz_cur.tid);
	fz_out_s(&o, " got ");
	fz_out_s(&o, fz_sig_name(sig));
	fz_out_s(&o, " (");
	fz_out_d(&o, sig);
	fz_out_s(&o, ") code ");
	fz_out_d(&o, si->si_code);
	if (si->si_code <= 0) {
		fz_out_s(&o, " sent by pid ");
		fz_out_d(&o, si->si_pid);
	} else {
		fz_out_s(&o, " fault address ");
		fz_out_x(&o, addr);
	}
#if defined(__x86_64__)
	if (ucv) {
		fz_out_s(&o, " ip ");
		fz_out_x(&o, (uint64_t)((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP]);
	}
#endif
	fz_out_end(&o);
	fz_out_thread(&o, &fz_cur, 1);
	if (p) {
		for (i = 0; i < FZ_MAX_THREADS; i++)
			if (p->cur[i] && p->cur[i] != &fz_cur)
				fz_out_thread(&o, p->cur[i], 0);
		fz_out_bufs(&o, p, si->si_code > 0 ? addr : 0);
	}
	fz_out_maps(&o);

	/* die of it: the default action, on return (a fault) or now */
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int fz_crash_sigs[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP,
};

/*
 * The calling thread's alternate signal stack and record (slot @idx of
 * the process's table: 0 is the main thread); undone by
 * fz_crash_thread_fini() before the thread exits.
 */
static void fz_crash_thread_init(struct fz_proc *p, unsigned int idx)
{
	stack_t ss = { 0 };

	ss.ss_sp = mmap(NULL, FZ_SIGSTACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ss.ss_size = FZ_SIGSTACK;
	if (ss.ss_sp != MAP_FAILED)
		sigaltstack(&ss, NULL);
	memset(&fz_cur, 0, sizeof(fz_cur));
	fz_cur.tid = (pid_t)syscall(SYS_gettid);
	if (idx < FZ_MAX_THREADS)
		__atomic_store_n(&p->cur[idx], &fz_cur, __ATOMIC_RELEASE);
}

static void fz_crash_thread_fini(struct fz_proc *p, unsigned int idx)
{
	stack_t ss = { .ss_flags = SS_DISABLE }, old;

	if (idx < FZ_MAX_THREADS)
		__atomic_store_n(&p->cur[idx], NULL, __ATOMIC_RELEASE);
	if (!sigaltstack(&ss, &old) && !(old.ss_flags & SS_DISABLE))
		munmap(old.ss_sp, old.ss_size);
}

/* Once per fuzz process, on its main thread. */
static void fz_interrupt_handler(int sig);

static void fz_crash_init(struct fz_proc *p)
{
	struct sigaction sa;
	unsigned int i;

	fz_self = p;
	/* the watchdog's interruptions (fz_watch): no SA_RESTART */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fz_interrupt_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fz_crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fz_crash_sigs) / sizeof(fz_crash_sigs[0]); i++)
		sigaction(fz_crash_sigs[i], &sa, NULL);
}

/* ---- process / thread drivers -------------------------------------------- */

static void fz_step(struct fz_proc *p)
{
	unsigned int fam = p->o->families;

	for (;;) {
		switch (rndn(16)) {
		case 0: if (fam & FUZZ_F_QUERY) { FZ_OP("query"); op_query(p); return; } break;
		case 1: if (fam & FUZZ_F_MEM) { FZ_OP("va_window"); op_va_window(p); return; } break;
		case 2: case 3: if (fam & FUZZ_F_MEM) { FZ_OP("bo_create"); op_bo_create(p); return; } break;
		case 4:
			if (fam & FUZZ_F_MEM) {
				if (chance(60)) {
					FZ_OP("gem_close");
					op_gem_close(p);
				} else if (chance(75)) {
					FZ_OP("free_ring");
					op_free_ring(p);
				} else {
					FZ_OP("activity");
					op_activity(p);
				}
				return;
			}
			break;
		case 5: case 6: if (fam & FUZZ_F_MEM) { FZ_OP("copy"); op_copy(p); return; } break;
		case 7: if (fam & FUZZ_F_HOST) { FZ_OP("host"); op_host(p); return; } break;
		case 8: if (fam & FUZZ_F_EVENT) { FZ_OP("event"); op_event(p); return; } break;
		case 9: if (fam & FUZZ_F_PRIME) { FZ_OP("prime"); op_prime(p); return; } break;
		case 10: if (fam & FUZZ_F_QUEUE) { FZ_OP("queue_create"); op_queue_create(p); return; } break;
		case 11: if (fam & FUZZ_F_QUEUE) { FZ_OP("queue_misc"); op_queue_misc(p); return; } break;
		case 12: if (fam & FUZZ_F_IPC) { FZ_OP("ipc"); op_ipc(p); return; } break;
		case 13: if (fam & FUZZ_F_VMM) { FZ_OP("vmm"); op_vmm(p); return; } break;
		case 14: if (fam & FUZZ_F_MANAGED) { FZ_OP("managed"); op_managed(p); return; } break;
		default: if (fam & FUZZ_F_QUEUE) { FZ_OP("ring"); op_ring(p); return; } break;
		}
	}
}

struct fz_thread {
	struct fz_proc *p;
	uint64_t seed;
	unsigned int idx;	/* 1.. (0: the process's main thread) */
	int done;		/* the thread finished (atomic) */
	unsigned int seen;	/* watchdog: its ioctl count last time */
	unsigned int still;	/* watchdog: periods the same ioctl ran */
	int told;		/* watchdog: its overrun was reported */
};

static void *fz_thread_main(void *arg)
{
	struct fz_thread *t = arg;
	struct fz_proc *p = t->p;
	long i;

	fz_crash_thread_init(p, t->idx);
	fz_rs = t->seed | 1;
	for (i = 0; !p->o->iterations || i < p->o->iterations; i++) {
		if (p->deadline_ns && fz_now_ns() >= p->deadline_ns)
			break;
		fz_step(p);
	}
	fz_crash_thread_fini(p, t->idx);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The watchdog: the process's main thread, while its fuzz threads run.
 *
 * A fuzz thread can block in the driver for as long as its own process
 * wants: a ring may hold an EVENT_WAIT without a timeout for a generation
 * nobody records (legal, and the fuzzer makes them), and every synchronous
 * COPY, COPY_2D, COPY_BATCH and FILL first drains the file's queues, so
 * it waits (interruptibly) until the event is recorded, the event or the
 * queue is destroyed, or the thread gets a signal.  When every thread of
 * a process ended up in such a drain, nobody was left to end the wait and
 * the process overran its budget until the parent killed it.
 *
 * So a thread whose ioctl has run for FZ_STUCK_MS, or that is still in one
 * FZ_GRACE_MS past the deadline, gets SIGUSR1 (a handler without
 * SA_RESTART): the wait returns -EINTR, the thread goes on (an interrupted
 * ioctl is a path worth fuzzing too) or sees its deadline and ends.  A
 * process then ends within about FZ_GRACE_MS of its budget, and one the
 * parent still has to kill is blocked uninterruptibly: a driver bug.
 */
#define FZ_WATCH_MS	100
#define FZ_STUCK_MS	2000
#define FZ_GRACE_MS	500

static void fz_interrupt_handler(int sig)
{
	(void)sig;	/* only there to end a blocking ioctl with -EINTR */
}

static void fz_watch(struct fz_proc *p, struct fz_thread *th, pthread_t *tids,
		     int n)
{
	struct timespec ts = { 0, FZ_WATCH_MS * 1000000L };
	int t, alive;

	for (t = 0; t < n; t++) {
		th[t].seen = 0;
		th[t].still = 0;
		th[t].told = 0;
	}
	do {
		uint64_t now;

		nanosleep(&ts, NULL);
		now = fz_now_ns();
		alive = 0;
		for (t = 0; t < n; t++) {
			const struct fz_cur *c;
			unsigned int nh;
			int running, late;

			if (__atomic_load_n(&th[t].done, __ATOMIC_ACQUIRE))
				continue;
			alive++;
			c = th[t].idx < FZ_MAX_THREADS ?
			    __atomic_load_n(&p->cur[th[t].idx], __ATOMIC_ACQUIRE) : NULL;
			if (!c)
				continue;
			nh = __atomic_load_n(&c->nhist, __ATOMIC_ACQUIRE);
			running = nh && __atomic_load_n(&c->hist[(nh - 1) % FZ_HIST].ret,
							__ATOMIC_RELAXED) == 1;
			if (!running || nh != th[t].seen) {
				th[t].seen = nh;
				th[t].still = 0;
				continue;
			}
			th[t].still++;
			late = p->deadline_ns &&
			       now >= p->deadline_ns + FZ_GRACE_MS * 1000000ULL;
			if (!late && th[t].still * FZ_WATCH_MS < FZ_STUCK_MS)
				continue;
			if (late && !th[t].told) {
				th[t].told = 1;
				printf("# fuzz[%d]: thread %d still in %s (%s) past its budget:"
				       " interrupting it\n", (int)getpid(), (int)c->tid,
				       fz_ioctl_name(c->hist[(nh - 1) % FZ_HIST].req),
				       c->op ? c->op : "?");
				fflush(stdout);
			}
			__atomic_add_fetch(&p->tot->interrupts, 1, __ATOMIC_RELAXED);
			pthread_kill(tids[t], SIGUSR1);
			th[t].still = 0;
		}
	} while (alive);
	for (t = 0; t < n; t++)
		pthread_join(tids[t], NULL);
}

/*
 * fuzz_opts.stall: before the threads start, leave a queue stalled for
 * good -- an EVENT_WAIT without a timeout for an event nobody records, on
 * a queue the fuzzer does not track -- so that every synchronous copy
 * blocks in the drain (the deterministic form of the overrun above).  The
 * activity bitmap stays off then (op_activity()).
 */
static void fz_stall_queue(struct fz_proc *p)
{
	struct drm_ascend_event_create e = { 0 };
	struct drm_ascend_queue_create c = { .ring_entries = 4 };
	struct drm_ascend_queue_doorbell db = { 0 };
	struct ascend_queue_status *st;
	struct ascend_cmd *ring;
	void *m;

	if (fz_ioctl(p, DRM_IOCTL_ASCEND_EVENT_CREATE, &e) ||
	    fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c))
		return;
	m = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
		 (off_t)c.mmap_offset);
	if (m == MAP_FAILED || fz_keep_map(p, m, c.mmap_size))
		return;
	st = m;
	ring = (struct ascend_cmd *)((char *)m + st->ring_offset);
	memset(&ring[0], 0, sizeof(ring[0]));
	ring[0].opcode = ASCEND_CMD_EVENT_WAIT;
	ring[0].event.handle = e.handle;
	ring[0].event.gen = 1;		/* never recorded */
	__atomic_store_n(&st->wptr, 1, __ATOMIC_RELEASE);
	db.handle = c.handle;
	fz_ioctl(p, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &db);
}

static uint8_t *fz_mmap(size_t size, int prot)
{
	void *m = mmap(NULL, size, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		perror("fuzz: mmap");
		_exit(3);
	}
	return m;
}

/* Open, query, reserve and register a VA window (most of the time). */
static void fz_open(struct fz_proc *p)
{
	struct drm_ascend_device_info info = { 0 };
	struct drm_ascend_dev_query q = { .type = DRM_ASCEND_QUERY_DEVICE_INFO };
	struct drm_ascend_kernel_info ks[16];
	struct drm_ascend_va_window w = { 0 };
	uint64_t align;
	unsigned int i;
	void *m;

	p->fd = open(p->o->node ? p->o->node : "/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	if (p->fd < 0) {
		perror("fuzz: open");
		_exit(2);
	}
	q.size = sizeof(info);
	q.data = (uintptr_t)&info;
	if (ioctl(p->fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q)) {
		perror("fuzz: DEV_QUERY");
		_exit(2);
	}
	q.type = DRM_ASCEND_QUERY_KERNELS;
	q.size = sizeof(ks);
	q.data = (uintptr_t)ks;
	p->nkernels = 0;
	if (!ioctl(p->fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q))
		for (i = 0; i < q.size / sizeof(ks[0]) && i < 16; i++)
			p->kernel_ids[p->nkernels++] = ks[i].id;

	align = info.va_window_align ? info.va_window_align : 4096;
	p->win_size = info.va_window_min_size;
	if (!p->win_base) {
		/*
		 * Far below everything else: mmap(NULL) takes the highest
		 * free range that fits, so a hole the window's reservation
		 * has for a moment (a failed MAP_FIXED of a managed object
		 * leaves one; so does a re-reservation after munmap) is never
		 * where another thread's ring or malloc arena lands.
		 */
		m = mmap((void *)FZ_WINDOW_HINT, p->win_size + align, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (m == MAP_FAILED) {
			perror("fuzz: window");
			_exit(2);
		}
		p->win_base = ((uint64_t)(uintptr_t)m + align - 1) & ~(align - 1);
	}
	w.base = p->win_base;
	w.size = p->win_size;
	if (chance(95))
		ioctl(p->fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w);
}

/* Forget every object (the file is closed: the kernel frees them). */
static void fz_forget(struct fz_proc *p)
{
	unsigned int i;

	for (i = 0; i < p->nmaps; i++) {
		munmap(p->maps[i].p, p->maps[i].size);
		/* the window's reservation comes back: no hole for others */
		if (p->maps[i].managed)
			mmap(p->maps[i].p, p->maps[i].size, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			     MAP_FIXED, -1, 0);
	}
	p->nmaps = 0;
	p->nmanaged = 0;
	p->fring = NULL;	/* it was one of the maps */
	p->fring_entries = 0;
	p->activity = NULL;	/* so was this */
	for (i = 0; i < FZ_MAX_BOS; i++)
		p->bos[i].live = 0;	/* addresses stay: stale VAs */
	for (i = 0; i < FZ_MAX_HOST; i++)
		memset(&p->hosts[i], 0, sizeof(p->hosts[i]));
	memset(p->qs, 0, sizeof(p->qs));
	memset(p->events, 0, sizeof(p->events));
}

/*
 * Fuzz like an unprivileged process as far as pinning goes: without
 * CAP_IPC_LOCK, under a 32 MiB RLIMIT_MEMLOCK (HOST_ALLOC/REGISTER are
 * charged to it), so the fuzzer cannot pin the VM's memory away.
 */
static void fz_limit_memlock(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	struct rlimit rl = { 32 << 20, 32 << 20 };

	setrlimit(RLIMIT_MEMLOCK, &rl);
	if (syscall(SYS_capget, &hdr, data) == 0) {
		data[0].effective &= ~(1u << CAP_IPC_LOCK);
		data[0].permitted &= ~(1u << CAP_IPC_LOCK);
		data[0].inheritable &= ~(1u << CAP_IPC_LOCK);
		syscall(SYS_capset, &hdr, data);
	}
}

/*
 * Where a process that overran its budget is: each thread's state and
 * kernel stack (readable as root, as in the test VM), so a report says
 * whether it waited in the driver or kept fuzzing.
 */
static void fz_dump_stacks(pid_t pid)
{
	char path[320], line[256];
	struct dirent *e;
	unsigned int i;
	FILE *f;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		printf("# fuzz: process %d thread %s:\n", (int)pid, e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", (int)pid, e->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			printf("#   %s", line);
		if (f)
			fclose(f);
	}
	closedir(d);
	/* and what its queues wait for (debugfs queues: pid first) */
	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/accel/ascend.%u/queues", i);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (atoi(line) == (int)pid)
				printf("#   ascend.%u queue: %s", i, line);
		fclose(f);
	}
	fflush(stdout);
}

static int fz_process(const struct fuzz_opts *o, unsigned int idx,
		      struct fuzz_totals *tot)
{
	struct fz_proc p;
	struct fz_thread *th;
	pthread_t *tids;
	int nthreads = o->threads > 0 ? o->threads : 1, t, round;
	int rounds = o->fd_churn ? 3 : 1;
	uint64_t start;

	memset(&p, 0, sizeof(p));
	fz_crash_init(&p);
	fz_limit_memlock();
	p.o = o;
	p.tot = tot;
	pthread_mutex_init(&p.lock, NULL);
	fz_rs = (o->seed + 0x9e3779b97f4a7c15ULL * (idx + 1)) | 1;
	p.scratch = fz_mmap(FZ_SCRATCH, PROT_READ | PROT_WRITE);
	p.regarea = fz_mmap(FZ_REG_PAGES * 4096, PROT_READ | PROT_WRITE);
	memset(p.regarea, 0x5a, FZ_REG_PAGES * 4096);
	p.ro_page = fz_mmap(4096, PROT_READ);
	p.none_page = fz_mmap(4096, PROT_NONE);
	/* after the buffers: the layout around them stays what it was */
	fz_crash_thread_init(&p, 0);
	th = calloc(nthreads, sizeof(*th));
	tids = calloc(nthreads, sizeof(*tids));
	if (!th || !tids)
		_exit(3);

	start = fz_now_ns();
	for (round = 0; round < rounds; round++) {
		struct fuzz_opts ro = *o;

		/* with churn, each round gets a share of the budget: round r
		 * ends (r + 1) / rounds of the way through it */
		if (o->iterations)
			ro.iterations = o->iterations / rounds + 1;
		p.o = &ro;
		p.deadline_ns = o->seconds ?
			start + (uint64_t)o->seconds * 1000000000ULL *
				(round + 1) / rounds : 0;
		FZ_OP("open");
		fz_open(&p);
		if (o->stall)
			fz_stall_queue(&p);
		for (t = 0; t < nthreads; t++) {
			th[t].p = &p;
			th[t].seed = rnd();
			th[t].idx = t + 1;
			th[t].done = 0;
			if (pthread_create(&tids[t], NULL, fz_thread_main, &th[t]))
				_exit(3);
		}
		fz_watch(&p, th, tids, nthreads);
		/* close with everything still alive: the release path cleans up */
		FZ_OP("close and unmap");
		close(p.fd);
		fz_forget(&p);
		p.o = o;
	}
	return 0;
}

/* Does @line name @pid as a number of its own? */
static int fz_line_names_pid(const char *line, size_t len, pid_t pid)
{
	char num[16];
	size_t n = (size_t)snprintf(num, sizeof(num), "%d", (int)pid), i;

	for (i = 0; i + n <= len; i++)
		if (!memcmp(line + i, num, n) &&
		    (i == 0 || line[i - 1] < '0' || line[i - 1] > '9') &&
		    (i + n == len || line[i + n] < '0' || line[i + n] > '9'))
			return 1;
	return 0;
}

/*
 * A SIGKILL the fuzzer did not send came from the kernel (the OOM killer)
 * or from someone else: print the kernel log's lines naming the process.
 */
static void fz_klog_pid(pid_t pid)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n, found = 0;
	char *buf, *line, *end;

	if (size <= 0 || !(buf = malloc(size)))
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	for (line = buf; n > 0 && line < buf + n; line = end + 1) {
		end = memchr(line, '\n', buf + n - line);
		if (!end)
			end = buf + n;
		if (fz_line_names_pid(line, end - line, pid)) {
			printf("#   kernel: %.*s\n", (int)(end - line), line);
			found++;
		}
	}
	if (n >= 0 && !found)
		printf("#   the kernel log names no process %d (no OOM kill)\n", (int)pid);
	free(buf);
}

/* Why fuzz process @pid ended badly, and who killed it. */
static void fz_report_child(pid_t pid, int status, int we_killed)
{
	if (WIFEXITED(status)) {
		printf("# fuzz: process %d exited %d\n", (int)pid, WEXITSTATUS(status));
		return;
	}
	if (WTERMSIG(status) != SIGKILL) {
		/* its own report (fz_crash_handler) came first */
		printf("# fuzz: process %d killed by signal %d (%s)%s\n", (int)pid,
		       WTERMSIG(status), fz_sig_name(WTERMSIG(status)),
		       WCOREDUMP(status) ? ", core dumped" : "");
		return;
	}
	printf("# fuzz: process %d killed by signal 9 (SIGKILL), %s\n", (int)pid,
	       we_killed ? "sent by the fuzzer: it overran its budget by 60 s"
			 " (its stacks are above)" :
	       "NOT sent by the fuzzer (the OOM killer? someone else?)");
	if (!we_killed)
		fz_klog_pid(pid);
}

/*
 * Run the fuzzer: o->procs processes of o->threads threads; returns when
 * every process exited.  *tot gets the sums; bad_children counts processes
 * that crashed, failed or had to be killed (a hang: 60 s past the budget).
 */
static void fuzz_run(const struct fuzz_opts *o, struct fuzz_totals *tot)
{
	int procs = o->procs > 0 ? o->procs : 1, i, status, left;
	struct fuzz_totals *shared;
	pid_t *pids;
	int *killed;	/* the fuzzer SIGKILLed it (budget overrun) */
	uint64_t limit;

	memset(tot, 0, sizeof(*tot));
	shared = mmap(NULL, sizeof(*shared) * procs, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(procs, sizeof(*pids));
	killed = calloc(procs, sizeof(*killed));
	if (shared == MAP_FAILED || !pids || !killed) {
		tot->bad_children = procs;
		free(pids);
		free(killed);
		return;
	}
	memset(shared, 0, sizeof(*shared) * procs);
	fflush(NULL);
	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(fz_process(o, i, &shared[i]));
		if (pids[i] < 0)
			tot->bad_children++;
	}

	/* reap; a process that outlives its budget by 60 s hangs somewhere */
	limit = fz_now_ns() + ((uint64_t)(o->seconds ? o->seconds : 600) + 60) *
		1000000000ULL;
	left = procs;
	while (left > 0) {
		pid_t w = waitpid(-1, &status, WNOHANG);

		if (w > 0) {
			left--;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				for (i = 0; i < procs && pids[i] != w; i++)
					;
				fz_report_child(w, status, i < procs && killed[i]);
				tot->bad_children++;
			}
			continue;
		}
		if (w < 0)
			break;
		if (fz_now_ns() > limit) {
			printf("# fuzz: processes hang, killing them\n");
			for (i = 0; i < procs; i++)
				if (pids[i] > 0 && !kill(pids[i], 0))
					fz_dump_stacks(pids[i]);
			for (i = 0; i < procs; i++)
				if (pids[i] > 0 && !kill(pids[i], SIGKILL))
					killed[i] = 1;
			limit = ~0ULL;
		}
		usleep(20000);
	}
	for (i = 0; i < procs; i++) {
		tot->calls += shared[i].calls;
		tot->ok += shared[i].ok;
		tot->ring_cmds += shared[i].ring_cmds;
		tot->faults += shared[i].faults;
		tot->resets += shared[i].resets;
		tot->interrupts += shared[i].interrupts;
		tot->self_writes += shared[i].self_writes;
	}
	munmap(shared, sizeof(*shared) * procs);
	free(pids);
	free(killed);
}
