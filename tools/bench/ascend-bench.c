// SPDX-License-Identifier: MIT
/*
 * ascend-bench - micro-benchmarks of libaclrt on the ascend accel driver.
 *
 * Every figure is a ratio to a baseline measured in the same run (same VM,
 * same boot): a no-op ioctl round trip (DRM_IOCTL_ASCEND_DEV_QUERY with
 * size 0) for the per-call costs, plain memcpy()/memset() of the same size
 * for the bandwidths.  Absolute times depend on the host and on QEMU TCG
 * and are never judged; only the ratios are (see
 * Documentation/benchmarks.rst).
 *
 * Output (stdout): one line per result, for tools/bench/report:
 *   BENCH {"name": ..., "value": ..., "unit": ..., "baseline": ...,
 *          "baseline_unit": ..., "goal": ..., "direction": ..., "note": ...}
 * "value" is null when the API the benchmark needs is not implemented
 * (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).  Progress and details go to stderr.
 * Exit status: 0 when the benchmarks could run (goals met or not), 1 when
 * the set-up failed (no device, aclInit failed, a call failed unexpectedly).
 *
 * System calls per operation are counted by interposing libdrm's drmIoctl()
 * (libaclrt calls it through the PLT, so this executable's definition wins);
 * the counts explain the ratios (e.g. a doorbell per enqueue).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "ascend_accel.h"

#define NS_PER_SEC	1000000000.0

/* ---- ioctl counting ------------------------------------------------- */

static unsigned long ioctl_count[256];	/* by _IOC_NR(request) */

/* libdrm's drmIoctl, counted: what libaclrt calls for every ioctl. */
int drmIoctl(int fd, unsigned long request, void *arg)
{
	int ret;

	__atomic_fetch_add(&ioctl_count[_IOC_NR(request) & 0xff], 1, __ATOMIC_RELAXED);
	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

struct counts {
	unsigned long total;
	unsigned long doorbell;
	unsigned long wait;
};

static struct counts counts_now(void)
{
	struct counts c = { 0 };
	unsigned int i;

	for (i = 0; i < 256; i++)
		c.total += __atomic_load_n(&ioctl_count[i], __ATOMIC_RELAXED);
	c.doorbell = __atomic_load_n(&ioctl_count[DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_DOORBELL],
				     __ATOMIC_RELAXED);
	c.wait = __atomic_load_n(&ioctl_count[DRM_COMMAND_BASE + DRM_ASCEND_QUEUE_WAIT],
				 __ATOMIC_RELAXED);
	return c;
}

static struct counts counts_since(struct counts a)
{
	struct counts b = counts_now();

	return (struct counts){ b.total - a.total, b.doorbell - a.doorbell, b.wait - a.wait };
}

/* "EVENT_WAIT 1.00, QUEUE_WAIT 0.50" per op since @snap; "none" when 0 */
static const char *ioctl_mix(const unsigned long *snap, double ops)
{
	static const char *const names[] = {
		"DEV_QUERY", "VA_WINDOW", "BO_CREATE", "COPY", "QUEUE_CREATE",
		"QUEUE_DESTROY", "QUEUE_DOORBELL", "QUEUE_WAIT", "FILL", "EVENT_CREATE",
		"EVENT_DESTROY", "EVENT_WAIT", "EVENT_SIGNAL", "QUEUE_RESET",
	};
	static char buf[256];
	size_t len = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < 256 && len < sizeof(buf) - 40; i++) {
		unsigned long d = __atomic_load_n(&ioctl_count[i], __ATOMIC_RELAXED) - snap[i];
		unsigned int nr = i - DRM_COMMAND_BASE;

		if (!d)
			continue;
		if (i >= DRM_COMMAND_BASE && nr < sizeof(names) / sizeof(names[0]))
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s %.2f",
					len ? ", " : "", names[nr], d / ops);
		else
			len += snprintf(buf + len, sizeof(buf) - len, "%sioctl 0x%02x %.2f",
					len ? ", " : "", i, d / ops);
	}
	return len ? buf : "none";
}

static bool counting_works;
static bool verbose;	/* ASCEND_BENCH_VERBOSE set: per-batch details */

/* ---- timing and statistics ------------------------------------------ */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double fc_max(const double *v, int n)
{
	double m = 0;
	int i;

	for (i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- results --------------------------------------------------------- */

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_num(double v, bool valid)
{
	if (valid)
		printf("%.6g", v);
	else
		printf("null");
}

/*
 * One result line.  @value < 0 means "not available".  @goal < 0 means no
 * goal.  @fmt: a note (why not available, ioctls per operation, ...).
 */
static void emit(const char *name, double value, const char *unit, double baseline,
		 const char *baseline_unit, double goal, const char *direction,
		 const char *fmt, ...)
{
	char note[512] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(note, sizeof(note), fmt, ap);
		va_end(ap);
	}
	if (getenv("ASCEND_BENCH_CHILD")) {	/* for bench_in_children() */
		printf("CHILD %s %.6g %.6g %s\n", name, value, baseline, note);
		fflush(stdout);
		return;
	}
	printf("BENCH {\"name\": ");
	json_str(name);
	printf(", \"value\": ");
	json_num(value, value >= 0);
	printf(", \"unit\": ");
	json_str(unit);
	printf(", \"baseline\": ");
	json_num(baseline, baseline > 0);
	printf(", \"baseline_unit\": ");
	json_str(baseline_unit);
	printf(", \"goal\": ");
	json_num(goal, goal >= 0);
	printf(", \"direction\": ");
	json_str(direction);
	printf(", \"note\": ");
	json_str(note);
	printf("}\n");
	fflush(stdout);
}

static void progress(const char *fmt, ...)
{
	va_list ap;

	if (getenv("ASCEND_BENCH_CHILD"))
		return;		/* the parent says what matters */
	va_start(ap, fmt);
	fprintf(stderr, "bench: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static bool not_supported(aclError r)
{
	return r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

static int fail(const char *what, aclError r)
{
	const char *m = aclGetRecentErrMsg();

	fprintf(stderr, "bench: %s failed: %d: %s\n", what, (int)r, m ? m : "(no message)");
	return 1;
}

/* ---- baseline: no-op ioctl ------------------------------------------- */

#define BASE_BATCH	400
#define BASE_BATCHES	15

static int base_fd = -1;	/* the node the no-op ioctl goes to */
static double base_ns;		/* the no-op ioctl at the start of the run */

/*
 * One batch of @n no-op ioctls, in ns each (< 0 on error).  A figure that
 * is a ratio to the no-op times one such batch next to each of its own
 * batches and divides by their median: this VM's speed drifts over a run
 * (the no-op measured 1.5 to 3.1 us within one boot), and a baseline
 * measured at the start alone made a late figure up to twice its ratio.
 */
static double noop_batch_ns(int n)
{
	struct drm_ascend_dev_query q;
	uint64_t t0 = now_ns();
	int i;

	for (i = 0; i < n; i++) {
		memset(&q, 0, sizeof(q));
		q.type = DRM_ASCEND_QUERY_DEVICE_INFO;
		if (ioctl(base_fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q)) {
			perror("bench: DRM_IOCTL_ASCEND_DEV_QUERY");
			return -1;
		}
	}
	return (double)(now_ns() - t0) / n;
}

/*
 * Median ns of one DRM_IOCTL_ASCEND_DEV_QUERY(size 0) on @fd, which
 * becomes the node of every no-op batch; < 0 on error.
 */
static double noop_ioctl_ns(int fd)
{
	double per[BASE_BATCHES], v;
	int b;

	base_fd = fd;
	for (b = -1; b < BASE_BATCHES; b++) {	/* batch -1 is the warm-up */
		v = noop_batch_ns(BASE_BATCH);
		if (v < 0)
			return -1;
		if (b >= 0)
			per[b] = v;
	}
	return median(per, BASE_BATCHES);
}

/*
 * The baseline of the figure being measured: no-op batches timed next to
 * its own batches (near_sample() before each), their median (near_base();
 * the run's start baseline when none was taken).  near_reset() starts a
 * figure.
 */
#define NEAR_MAX	64
#define NEAR_BATCH	200

static double near_ns[NEAR_MAX];
static int near_n;

static void near_reset(void)
{
	near_n = 0;
}

static int near_sample(void)
{
	double v;

	if (near_n == NEAR_MAX)
		return 0;
	v = noop_batch_ns(NEAR_BATCH);
	if (v < 0)
		return -1;
	near_ns[near_n++] = v;
	return 0;
}

static double near_base(void)
{
	return near_n ? median(near_ns, near_n) : base_ns;
}

/* ---- the kernels -------------------------------------------------------- */

struct kern {
	aclrtFuncHandle fn;
	const char *name;
	unsigned char args[16];
	size_t args_size;
};

static aclrtFuncHandle spin_fn;		/* "Spin"(u64 usec), if the device has it */

static aclError kernels_load(void *dev_word, struct kern *k)
{
	aclrtBinHandle bin = NULL;
	uint64_t zero = 0;
	aclError r;

	r = aclrtBinaryLoadFromFile("ascend://builtin", NULL, &bin);
	if (r)
		return r;
	if (aclrtBinaryGetFunction(bin, "Spin", &spin_fn) != ACL_SUCCESS)
		spin_fn = NULL;
	if (spin_fn) {
		/* Spin(0): the most trivial kernel there is */
		k->fn = spin_fn;
		k->name = "Spin(0)";
		memcpy(k->args, &zero, sizeof(zero));
		k->args_size = sizeof(zero);
		return ACL_SUCCESS;
	}
	/* older devices: DeviceWrite(int *p, int v) on one word */
	r = aclrtBinaryGetFunction(bin, "DeviceWrite", &k->fn);
	if (r)
		return r;
	k->name = "DeviceWrite";
	memcpy(k->args, &dev_word, sizeof(dev_word));
	memset(k->args + sizeof(dev_word), 0, sizeof(int));
	k->args_size = sizeof(dev_word) + sizeof(int);
	return ACL_SUCCESS;
}

static aclError launch(const struct kern *k, aclrtStream s)
{
	return aclrtLaunchKernel(k->fn, 1, (void *)k->args, k->args_size, s);
}

static aclError launch_spin(aclrtStream s, uint64_t usec)
{
	return aclrtLaunchKernel(spin_fn, 1, &usec, sizeof(usec), s);
}

/* ---- benchmarks ------------------------------------------------------ */


#define PAIR_SIZE	4096
#define PAIR_BATCH	100
#define PAIR_BATCHES	15

static int bench_malloc_free(void)
{
	double per[PAIR_BATCHES];
	struct counts c0, c;
	uint64_t t0;
	aclError r;
	void *p;
	int b, i;

	near_reset();
	c0 = counts_now();
	for (b = -1; b < PAIR_BATCHES; b++) {
		if (b >= 0 && near_sample())
			return 1;
		t0 = now_ns();
		for (i = 0; i < PAIR_BATCH; i++) {
			r = aclrtMalloc(&p, PAIR_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
			if (r)
				return fail("aclrtMalloc", r);
			r = aclrtFree(p);
			if (r)
				return fail("aclrtFree", r);
		}
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / PAIR_BATCH;
	}
	c = counts_since(c0);
	emit("malloc_free_pair", median(per, PAIR_BATCHES), "ns", near_base(),
	     "ns/no-op ioctl",
	     2, "max", "aclrtMalloc(%d bytes, HUGE_FIRST)+aclrtFree; %.2f ioctls per pair",
	     PAIR_SIZE, (double)c.total / ((PAIR_BATCHES + 1) * PAIR_BATCH));
	return 0;
}

/*
 * map_unmap_2m_pair (#17): aclrtMapMem + aclrtUnmapMem of one 2 MiB
 * physical allocation in a reservation, per pair, in no-op ioctls.
 */
static int bench_map_unmap(void)
{
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h = NULL;
	double per[PAIR_BATCHES];
	void *v = NULL;
	uint64_t t0;
	aclError r;
	int b, i;

	memset(&prop, 0, sizeof(prop));
	prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	prop.memAttr = ACL_HBM_MEM_HUGE;
	r = aclrtMallocPhysical(&h, 2UL << 20, &prop, 0);
	if (r)
		return fail("aclrtMallocPhysical", r);
	r = aclrtReserveMemAddress(&v, 2UL << 20, 0, NULL, 0);
	if (r)
		return fail("aclrtReserveMemAddress", r);
	near_reset();
	for (b = -1; b < PAIR_BATCHES; b++) {
		if (b >= 0 && near_sample())
			return 1;
		t0 = now_ns();
		for (i = 0; i < PAIR_BATCH; i++) {
			r = aclrtMapMem(v, 2UL << 20, 0, h, 0);
			if (r)
				return fail("aclrtMapMem", r);
			r = aclrtUnmapMem(v);
			if (r)
				return fail("aclrtUnmapMem", r);
		}
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / PAIR_BATCH;
	}
	emit("map_unmap_2m_pair", median(per, PAIR_BATCHES), "ns", near_base(),
	     "ns/no-op ioctl",
	     4, "max", "aclrtMapMem+aclrtUnmapMem of a 2 MiB physical allocation");
	aclrtReleaseMemAddress(v);
	aclrtFreePhysical(h);
	return 0;
}

/*
 * What the enqueue path is made of, in this VM: a mutex lock+unlock pair, a
 * full fence (the NEED_WAKEUP handshake) and a 128-byte ring-slot copy, in
 * ns each.  Printed next to the enqueue figure to explain it.
 */
static void calibrate_once(double *mutex_ns, double *fence_ns, double *copy_ns)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	static unsigned char src[128], dst[128];
	const int n = 20000;
	uint64_t t0;
	int i;

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
	}
	*mutex_ns = (double)(now_ns() - t0) / n;
	t0 = now_ns();
	for (i = 0; i < n; i++)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*fence_ns = (double)(now_ns() - t0) / n;
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		src[0] = (unsigned char)i;
		memcpy(dst, src, sizeof(dst));
		__asm__ __volatile__("" : : "r"(dst) : "memory");
	}
	*copy_ns = (double)(now_ns() - t0) / n;
}

/* The best of a few rounds: the first ones pay for QEMU's translation. */
static void calibrate(double *mutex_ns, double *fence_ns, double *copy_ns)
{
	double m, f, c;
	int i;

	*mutex_ns = *fence_ns = *copy_ns = 1e30;
	for (i = 0; i < 4; i++) {
		calibrate_once(&m, &f, &c);
		*mutex_ns = m < *mutex_ns ? m : *mutex_ns;
		*fence_ns = f < *fence_ns ? f : *fence_ns;
		*copy_ns = c < *copy_ns ? c : *copy_ns;
	}
}

#define ENQ_BATCH	1000	/* fits a default ring (1024) behind the spin */
#define ENQ_BATCHES	10
#define ENQ_SPIN_US	300000	/* keeps the stream busy while we enqueue */

static int bench_async_enqueue(const struct kern *k)
{
	double per[ENQ_BATCHES], worst_ms = 0, mutex_ns, fence_ns, copy_ns;
	struct rusage ru0, ru1;
	unsigned long doorbells = 0, ioctls = 0, switches = 0;
	aclrtStream s = NULL;
	struct counts c0, c;
	uint64_t t0, t;
	aclError r;
	int b, i;

	calibrate(&mutex_ns, &fence_ns, &copy_ns);
	r = aclrtCreateStream(&s);
	if (r)
		return fail("aclrtCreateStream", r);
	near_reset();
	for (b = -1; b < ENQ_BATCHES; b++) {
		if (b >= 0 && near_sample())
			return 1;
		/* busy: a long kernel ahead of the batch (or, without Spin, the
		 * batch's own first commands) */
		if (spin_fn) {
			r = launch_spin(s, ENQ_SPIN_US);
			if (r)
				return fail("aclrtLaunchKernel(Spin)", r);
		}
		getrusage(RUSAGE_SELF, &ru0);
		c0 = counts_now();
		t0 = now_ns();
		for (i = 0; i < ENQ_BATCH; i++) {
			r = launch(k, s);
			if (r)
				return fail("aclrtLaunchKernel", r);
		}
		t = now_ns() - t0;
		c = counts_since(c0);
		getrusage(RUSAGE_SELF, &ru1);
		if (verbose)
			progress("enqueue batch %d: %.2f ms, %lu ioctls (%lu doorbells)",
				 b, t / 1e6, c.total, c.doorbell);
		if (b >= 0)
			switches += ru1.ru_nvcsw - ru0.ru_nvcsw + ru1.ru_nivcsw - ru0.ru_nivcsw;
		r = aclrtSynchronizeStream(s);
		if (r)
			return fail("aclrtSynchronizeStream", r);
		if (b < 0)
			continue;
		per[b] = (double)t / ENQ_BATCH;
		doorbells += c.doorbell;
		ioctls += c.total;
		if (t / 1e6 > worst_ms)
			worst_ms = t / 1e6;
	}
	aclrtDestroyStream(s);
	if (spin_fn && worst_ms * 1000 > ENQ_SPIN_US)
		progress("warning: a batch took %.1f ms, longer than the %d ms spin: the stream went idle",
			 worst_ms, ENQ_SPIN_US / 1000);
	emit("async_enqueue_per_op", median(per, ENQ_BATCHES), "ns", near_base(), "ns/no-op ioctl",
	     0.15, "max",
	     "%d x %s per batch behind %s; %.4f ioctls/op (%.4f doorbells/op)%s, %.4f context switches/op; for scale: mutex pair %.0f ns, full fence %.0f ns, 128-byte copy %.0f ns",
	     ENQ_BATCH, k->name, spin_fn ? "a 300 ms Spin" : "the batch itself",
	     (double)ioctls / (ENQ_BATCHES * ENQ_BATCH),
	     (double)doorbells / (ENQ_BATCHES * ENQ_BATCH),
	     counting_works ? "" : " (ioctl counting unavailable)",
	     (double)switches / (ENQ_BATCHES * ENQ_BATCH), mutex_ns, fence_ns, copy_ns);
	return 0;
}

/*
 * The protocol's own floor: NOP commands written straight into a queue of
 * our own (QUEUE_CREATE on the bench's file, no libaclrt), published with
 * the same release store + full fence + NEED_WAKEUP check libaclrt does.
 * The difference to async_enqueue_per_op is libaclrt's per-call overhead.
 */
#define RAW_BATCH	512	/* half the default ring: never full */
#define RAW_BATCHES	10

static int bench_raw_ring(int fd)
{
	struct drm_ascend_queue_create qc = { 0 };
	struct drm_ascend_queue_destroy qd = { 0 };
	struct drm_ascend_queue_doorbell db = { 0 };
	struct drm_ascend_queue_wait qw = { 0 };
	struct ascend_queue_status *st;
	double per[RAW_BATCHES];
	unsigned long rings = 0;
	uint64_t w = 0, t0;
	unsigned char *ring;
	void *area;
	int b, i;

	if (ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &qc)) {
		perror("bench: DRM_IOCTL_ASCEND_QUEUE_CREATE");
		return 1;
	}
	area = mmap(NULL, qc.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)qc.mmap_offset);
	if (area == MAP_FAILED) {
		perror("bench: mmap of the queue");
		return 1;
	}
	st = area;
	ring = (unsigned char *)area + st->ring_offset;
	if (st->ring_entries < 2 * RAW_BATCH || st->cmd_size < sizeof(struct ascend_cmd)) {
		fprintf(stderr, "bench: unexpected queue layout (%u entries of %u bytes)\n",
			st->ring_entries, st->cmd_size);
		return 1;
	}
	db.handle = qc.handle;
	for (b = -1; b < RAW_BATCHES; b++) {
		t0 = now_ns();
		for (i = 0; i < RAW_BATCH; i++) {
			memset(ring + (w % st->ring_entries) * st->cmd_size, 0,
			       sizeof(struct ascend_cmd));	/* ASCEND_CMD_NOP */
			__atomic_store_n(&st->wptr, ++w, __ATOMIC_RELEASE);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			if (__atomic_load_n(&st->flags, __ATOMIC_RELAXED) &
			    ASCEND_QUEUE_STATUS_NEED_WAKEUP) {
				ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &db);
				if (b >= 0)
					rings++;
			}
		}
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / RAW_BATCH;
		memset(&qw, 0, sizeof(qw));
		qw.handle = qc.handle;
		qw.seq = w;
		qw.timeout_ns = DRM_ASCEND_TIMEOUT_INFINITE;
		if (ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &qw) || qw.fault) {
			fprintf(stderr, "bench: waiting for the NOPs failed (fault %u): %s\n",
				qw.fault, strerror(errno));
			return 1;
		}
	}
	munmap(area, qc.mmap_size);
	qd.handle = qc.handle;
	ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &qd);
	emit("raw_ring_enqueue_per_op", median(per, RAW_BATCHES), "ns", base_ns,
	     "ns/no-op ioctl", -1, "max",
	     "%d NOPs per batch written straight into a queue (no libaclrt); %.4f doorbells/op",
	     RAW_BATCH, (double)rings / (RAW_BATCHES * RAW_BATCH));
	return 0;
}

#define RT_BATCH	40
#define RT_BATCHES	9

/* ---- task graphs: a captured model run instance replayed ------------- */

#define GRAPH_TASKS	1000
#define GRAPH_REPLAYS	9

/*
 * A captured graph of GRAPH_TASKS tasks (Spin(0) launches and 64-byte
 * device copies, alternating), replayed: the host time of one
 * aclmdlRIExecuteAsync per task, and the device time per task from the
 * replay's submission to its completion (the synchronisation included).
 */
static int bench_graph_replay(const struct kern *k)
{
	double host[GRAPH_REPLAYS], dev[GRAPH_REPLAYS];
	uint64_t usec = 0, t0, t1, t2;
	aclmdlRI m = NULL;
	aclrtStream s = NULL, x = NULL;
	char *buf = NULL;
	aclError r;
	int b, i;

	if (aclrtCreateStream(&s) || aclrtCreateStream(&x) ||
	    aclrtMalloc((void **)&buf, 128, ACL_MEM_MALLOC_HUGE_FIRST))
		return fail("graph setup", ACL_ERROR_RT_MEMORY_ALLOCATION);
	r = aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
	for (i = 0; i < GRAPH_TASKS && !r; i++)
		r = i % 2 ? aclrtMemcpyAsync(buf + 64, 64, buf, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s) :
		    spin_fn ? aclrtLaunchKernel(spin_fn, 1, &usec, sizeof(usec), s) : launch(k, s);
	if (!r)
		r = aclmdlRICaptureEnd(s, &m);
	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
		emit("graph_replay_per_task", -1, "ns", base_ns, "ns/no-op ioctl", 0.02, "max",
		     "no command lists (DRM_ASCEND_CAP_CMD_LIST)");
		emit("graph_device_per_task", -1, "ns", base_ns, "ns/no-op ioctl", 0.5, "max",
		     "no command lists (DRM_ASCEND_CAP_CMD_LIST)");
		return 0;
	}
	if (r)
		return fail("capturing the graph", r);
	near_reset();
	for (b = -1; b < GRAPH_REPLAYS; b++) {
		if (b >= 0 && near_sample())
			return 1;
		t0 = now_ns();
		r = aclmdlRIExecuteAsync(m, x);
		t1 = now_ns();
		if (!r)
			r = aclrtSynchronizeStream(x);
		t2 = now_ns();
		if (r)
			return fail("replaying the graph", r);
		if (b >= 0) {
			host[b] = (double)(t1 - t0) / GRAPH_TASKS;
			dev[b] = (double)(t2 - t1) / GRAPH_TASKS;
		}
	}
	aclmdlRIDestroy(m);
	aclrtDestroyStream(s);
	aclrtDestroyStream(x);
	aclrtFree(buf);
	emit("graph_replay_per_task", median(host, GRAPH_REPLAYS), "ns", near_base(), "ns/no-op ioctl",
	     0.02, "max", "host time of aclmdlRIExecuteAsync per task: %d tasks (%s and 64 B copies) captured, replayed",
	     GRAPH_TASKS, spin_fn ? "Spin(0)" : k->name);
	emit("graph_device_per_task", median(dev, GRAPH_REPLAYS), "ns", near_base(), "ns/no-op ioctl",
	     0.5, "max", "device time per task from the replay's submission to its synchronisation: %d tasks",
	     GRAPH_TASKS);
	return 0;
}

static int bench_launch_sync(const struct kern *k)
{
	unsigned long snap[256];
	double per[RT_BATCHES];
	aclrtStream s = NULL;
	struct counts c0, c;
	uint64_t t0;
	aclError r;
	int b, i;

	r = aclrtCreateStream(&s);
	if (r)
		return fail("aclrtCreateStream", r);
	memcpy(snap, ioctl_count, sizeof(snap));
	near_reset();
	c0 = counts_now();
	for (b = -1; b < RT_BATCHES; b++) {
		if (b >= 0 && near_sample())
			return 1;
		t0 = now_ns();
		for (i = 0; i < RT_BATCH; i++) {
			r = launch(k, s);
			if (r)
				return fail("aclrtLaunchKernel", r);
			r = aclrtSynchronizeStream(s);
			if (r)
				return fail("aclrtSynchronizeStream", r);
		}
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / RT_BATCH;
	}
	c = counts_since(c0);
	aclrtDestroyStream(s);
	emit("launch_sync_roundtrip", median(per, RT_BATCHES), "ns", near_base(), "ns/no-op ioctl",
	     1.2, "max", "%s + aclrtSynchronizeStream on an idle stream; %.2f ioctls/round trip (%s)",
	     k->name, (double)c.total / ((RT_BATCHES + 1) * RT_BATCH),
	     ioctl_mix(snap, (RT_BATCHES + 1) * RT_BATCH));
	return 0;
}

static int bench_event(void)
{
	unsigned long snap[256];
	double per[RT_BATCHES];
	aclrtStream s = NULL;
	aclrtEvent ev = NULL;
	struct counts c0, c;
	uint64_t t0;
	aclError r;
	int b, i;

	r = aclrtCreateEvent(&ev);
	if (not_supported(r)) {
		emit("event_record_sync", -1, "ns", base_ns, "ns/no-op ioctl", 1.2, "max",
		     "not available: aclrtCreateEvent returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
		return 0;
	}
	if (r)
		return fail("aclrtCreateEvent", r);
	r = aclrtCreateStream(&s);
	if (r)
		return fail("aclrtCreateStream", r);
	memcpy(snap, ioctl_count, sizeof(snap));
	near_reset();
	c0 = counts_now();
	for (b = -1; b < RT_BATCHES; b++) {
		if (b >= 0 && near_sample())
			return 1;
		t0 = now_ns();
		for (i = 0; i < RT_BATCH; i++) {
			r = aclrtRecordEvent(ev, s);
			if (not_supported(r) && b < 0 && i == 0) {
				emit("event_record_sync", -1, "ns", base_ns, "ns/no-op ioctl", 1.2,
				     "max", "not available: aclrtRecordEvent returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
				goto out;
			}
			if (r)
				return fail("aclrtRecordEvent", r);
			r = aclrtSynchronizeEvent(ev);
			if (not_supported(r) && b < 0 && i == 0) {
				emit("event_record_sync", -1, "ns", base_ns, "ns/no-op ioctl", 1.2,
				     "max", "not available: aclrtSynchronizeEvent returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
				goto out;
			}
			if (r)
				return fail("aclrtSynchronizeEvent", r);
		}
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / RT_BATCH;
	}
	c = counts_since(c0);
	emit("event_record_sync", median(per, RT_BATCHES), "ns", near_base(), "ns/no-op ioctl",
	     1.2, "max", "aclrtRecordEvent + aclrtSynchronizeEvent on an idle stream; %.2f ioctls/pair (%s)",
	     (double)c.total / ((RT_BATCHES + 1) * RT_BATCH),
	     ioctl_mix(snap, (RT_BATCHES + 1) * RT_BATCH));
out:
	aclrtSynchronizeStream(s);
	aclrtDestroyStream(s);
	aclrtDestroyEvent(ev);
	return 0;
}

#define BW_SIZE		(16u << 20)
#define BW_REPS		5

/*
 * Bytes/s of host memcpy (or memset when @src is NULL) of @size: median of
 * @reps (<= BW_REPS) after a warm-up.
 */
static double host_bw(void *dst, const void *src, size_t size, int reps)
{
	double per[BW_REPS];
	uint64_t t0;
	int i;

	for (i = -1; i < reps; i++) {
		t0 = now_ns();
		if (src)
			memcpy(dst, src, size);
		else
			memset(dst, 0x5a + i, size);
		/* keep the compiler from dropping the store */
		__asm__ __volatile__("" : : "r"(dst) : "memory");
		if (i >= 0)
			per[i] = (double)(now_ns() - t0);
	}
	return size / (median(per, reps) / NS_PER_SEC);
}

/*
 * Bytes/s of a synchronous aclrtMemcpy of @size of @kind: median of @reps
 * (<= BW_REPS) after a warm-up (which also makes the emulator back device
 * ranges and faults pageable pages in).  0 with *@err set on failure.
 */
static double acl_copy_bw(void *dst, const void *src, size_t size, int reps,
			  aclrtMemcpyKind kind, aclError *err)
{
	double per[BW_REPS];
	uint64_t t0;
	int i;

	for (i = -1; i < reps; i++) {
		t0 = now_ns();
		*err = aclrtMemcpy(dst, size, src, size, kind);
		if (*err)
			return 0;
		if (i >= 0)
			per[i] = (double)(now_ns() - t0);
	}
	return size / (median(per, reps) / NS_PER_SEC);
}

static int bench_bandwidth(void)
{
	double per[BW_REPS], host, bw;
	char *hsrc, *hdst;
	void *dsrc = NULL, *ddst = NULL;
	uint64_t t0;
	aclError r;
	int i;

	hsrc = malloc(BW_SIZE);
	hdst = malloc(BW_SIZE);
	if (!hsrc || !hdst) {
		fprintf(stderr, "bench: out of host memory\n");
		return 1;
	}
	memset(hsrc, 0x3c, BW_SIZE);
	memset(hdst, 0, BW_SIZE);
	r = aclrtMalloc(&dsrc, BW_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r)
		return fail("aclrtMalloc(16 MiB)", r);
	r = aclrtMalloc(&ddst, BW_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r)
		return fail("aclrtMalloc(16 MiB)", r);

	/* D2D copy; the warm-up also makes the emulator back both ranges */
	r = aclrtMemcpy(dsrc, BW_SIZE, hsrc, BW_SIZE, ACL_MEMCPY_HOST_TO_DEVICE);
	if (not_supported(r))
		r = ACL_SUCCESS;	/* the source then reads as never written */
	if (r)
		return fail("aclrtMemcpy(H2D)", r);
	host = host_bw(hdst, hsrc, BW_SIZE, BW_REPS);
	bw = acl_copy_bw(ddst, dsrc, BW_SIZE, BW_REPS, ACL_MEMCPY_DEVICE_TO_DEVICE, &r);
	if (not_supported(r))
		emit("d2d_copy_bandwidth", -1, "MiB/s", host / (1 << 20), "MiB/s host memcpy",
		     -1, "min", "not available: aclrtMemcpy D2D returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	else if (r)
		return fail("aclrtMemcpy(D2D)", r);
	else
		emit("d2d_copy_bandwidth", bw / (1 << 20),
		     "MiB/s", host / (1 << 20), "MiB/s host memcpy", -1, "min",
		     "aclrtMemcpy D2D of 16 MiB / memcpy() of 16 MiB in the guest");

	host = host_bw(hdst, NULL, BW_SIZE, BW_REPS);
	for (i = -1; i < BW_REPS; i++) {
		t0 = now_ns();
		r = aclrtMemset(ddst, BW_SIZE, 0x5a + i, BW_SIZE);
		if (not_supported(r))
			break;
		if (r)
			return fail("aclrtMemset", r);
		if (i >= 0)
			per[i] = (double)(now_ns() - t0);
	}
	if (not_supported(r))
		emit("memset_bandwidth", -1, "MiB/s", host / (1 << 20), "MiB/s host memset",
		     -1, "min", "not available: aclrtMemset returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	else
		emit("memset_bandwidth", BW_SIZE / (median(per, BW_REPS) / NS_PER_SEC) / (1 << 20),
		     "MiB/s", host / (1 << 20), "MiB/s host memset", -1, "min",
		     "aclrtMemset of 16 MiB / memset() of 16 MiB in the guest");

	aclrtFree(dsrc);
	aclrtFree(ddst);
	free(hsrc);
	free(hdst);
	return 0;
}

/* ---- copy API: batch, 2D, memset (issue #6) --------------------------- */

#define BATCH_N		4096
#define BATCH_ENTRY	4096u
#define BATCH_REPS	3

/* ns of one run of @n D2H copies as one batch (@batch) or @n async calls. */
static double batch_run(bool batch, void **dsts, void **srcs, size_t *sizes, size_t n,
			aclrtStream s, aclError *err)
{
	aclrtMemcpyBatchAttr attr;
	size_t idx = 0, fi, i;
	uint64_t t0;

	memset(&attr, 0, sizeof(attr));
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	t0 = now_ns();
	if (batch) {
		*err = aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, n, &attr, &idx, 1, &fi, s);
	} else {
		*err = ACL_SUCCESS;
		for (i = 0; i < n && !*err; i++)
			*err = aclrtMemcpyAsync(dsts[i], sizes[i], srcs[i], sizes[i],
						ACL_MEMCPY_DEVICE_TO_HOST, s);
	}
	if (!*err)
		*err = aclrtSynchronizeStream(s);
	return (double)(now_ns() - t0);
}

static int bench_batch(void)
{
	double tb[BATCH_REPS], ti[BATCH_REPS], tm[BATCH_REPS], entry_ns;
	void **dsts, **srcs;
	size_t *sizes, i;
	char *dev = NULL, *host = NULL, *hsrc;
	struct counts c0;
	double ops_b = 0, ops_i = 0;
	aclrtStream s = NULL;
	aclError r;
	int k;

	dsts = calloc(BATCH_N, sizeof(void *));
	srcs = calloc(BATCH_N, sizeof(void *));
	sizes = calloc(BATCH_N, sizeof(size_t));
	if (!dsts || !srcs || !sizes)
		return fail("calloc", ACL_ERROR_RT_MEMORY_ALLOCATION);
	r = aclrtMalloc((void **)&dev, (size_t)BATCH_N * BATCH_ENTRY, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMallocHost((void **)&host, (size_t)BATCH_N * BATCH_ENTRY);
	if (!r)
		r = aclrtCreateStream(&s);
	if (!r)
		r = aclrtMemset(dev, (size_t)BATCH_N * BATCH_ENTRY, 0x5b,
				(size_t)BATCH_N * BATCH_ENTRY);
	if (r)
		return fail("batch set-up", r);
	for (i = 0; i < BATCH_N; i++) {
		dsts[i] = host + i * BATCH_ENTRY;
		srcs[i] = dev + i * BATCH_ENTRY;
		sizes[i] = BATCH_ENTRY;
	}
	/* the bytes alone: the same 4096 x 4 KiB by memcpy() into the same pinned pages */
	hsrc = malloc((size_t)BATCH_N * BATCH_ENTRY);
	if (!hsrc)
		return fail("malloc", ACL_ERROR_RT_MEMORY_ALLOCATION);
	memset(hsrc, 0x5b, (size_t)BATCH_N * BATCH_ENTRY);
	for (k = -1; k < BATCH_REPS; k++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < BATCH_N; i++)
			memcpy(dsts[i], hsrc + i * BATCH_ENTRY, BATCH_ENTRY);
		__asm__ __volatile__("" : : "r"(host) : "memory");
		tm[k < 0 ? 0 : k] = (double)(now_ns() - t0);
	}
	free(hsrc);
	near_reset();
	for (k = -1; k < BATCH_REPS; k++) {
		if (k >= 0 && near_sample())
			return 1;
		c0 = counts_now();
		tb[k < 0 ? 0 : k] = batch_run(true, dsts, srcs, sizes, BATCH_N, s, &r);
		if (r)
			break;
		ops_b = (double)counts_since(c0).total;
		c0 = counts_now();
		ti[k < 0 ? 0 : k] = batch_run(false, dsts, srcs, sizes, BATCH_N, s, &r);
		if (r)
			break;
		ops_i = (double)counts_since(c0).total;
	}
	if (not_supported(r)) {
		emit("batch_per_entry", -1, "ns", base_ns, "ns/no-op ioctl", 0.2, "max",
		     "not available: aclrtMemcpyBatchAsync returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
		emit("batch_vs_individual", -1, "ms", -1, "ms", -1, "max",
		     "not available: aclrtMemcpyBatchAsync returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	} else if (r) {
		return fail("aclrtMemcpyBatchAsync / aclrtMemcpyAsync", r);
	} else {
		/* what the batch costs beyond its bytes; never below 0 (noise) */
		entry_ns = (median(tb, BATCH_REPS) - median(tm, BATCH_REPS)) / BATCH_N;
		if (entry_ns < 0)
			entry_ns = 0;
		emit("batch_per_entry", entry_ns, "ns", near_base(), "ns/no-op ioctl", 0.2, "max",
		     "4096 x 4 KiB D2H into pinned memory, one aclrtMemcpyBatchAsync + sync: %.2f ms; the same bytes by memcpy(): %.2f ms; ioctls %.0f",
		     median(tb, BATCH_REPS) / 1e6, median(tm, BATCH_REPS) / 1e6, ops_b);
		emit("batch_vs_individual", median(tb, BATCH_REPS) / 1e6, "ms",
		     median(ti, BATCH_REPS) / 1e6, "ms for 4096 aclrtMemcpyAsync", -1, "max",
		     "4096 x 4 KiB D2H into pinned memory: one aclrtMemcpyBatchAsync + sync vs 4096 aclrtMemcpyAsync + sync; ioctls %.0f vs %.0f",
		     ops_b, ops_i);
	}
	aclrtDestroyStream(s);
	aclrtFreeHost(host);
	aclrtFree(dev);
	free(dsts);
	free(srcs);
	free(sizes);
	return 0;
}

#define C2D_WIDTH	(16u << 10)
#define C2D_PITCH	(32u << 10)
#define C2D_HEIGHT	4096u
#define C2D_BYTES	((size_t)C2D_WIDTH * C2D_HEIGHT)	/* 64 MiB moved */
#define C2D_REPS	3

static int bench_copy2d(void)
{
	double t2[C2D_REPS], tl[C2D_REPS];
	char *src = NULL, *dst = NULL;
	aclrtStream s = NULL;
	uint64_t t0;
	aclError r;
	int k;

	r = aclrtMalloc((void **)&src, (size_t)C2D_PITCH * C2D_HEIGHT, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMalloc((void **)&dst, C2D_BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtCreateStream(&s);
	/* written once, so that both copies read backed memory */
	if (!r)
		r = aclrtMemset(src, (size_t)C2D_PITCH * C2D_HEIGHT, 0x2d,
				(size_t)C2D_PITCH * C2D_HEIGHT);
	if (r)
		return fail("2D set-up", r);
	for (k = -1; k < C2D_REPS; k++) {
		t0 = now_ns();
		r = aclrtMemcpy2dAsync(dst, C2D_WIDTH, src, C2D_PITCH, C2D_WIDTH, C2D_HEIGHT,
				       ACL_MEMCPY_DEVICE_TO_DEVICE, s);
		if (!r)
			r = aclrtSynchronizeStream(s);
		if (r)
			break;
		t2[k < 0 ? 0 : k] = (double)(now_ns() - t0);
		t0 = now_ns();
		r = aclrtMemcpyAsync(dst, C2D_BYTES, src, C2D_BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, s);
		if (!r)
			r = aclrtSynchronizeStream(s);
		if (r)
			break;
		tl[k < 0 ? 0 : k] = (double)(now_ns() - t0);
	}
	if (not_supported(r)) {
		emit("copy2d_vs_linear", -1, "MiB/s", -1, "MiB/s", 0.95, "min",
		     "not available: aclrtMemcpy2dAsync returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	} else if (r) {
		return fail("aclrtMemcpy2dAsync / aclrtMemcpyAsync D2D", r);
	} else {
		emit("copy2d_vs_linear",
		     C2D_BYTES / (median(t2, C2D_REPS) / NS_PER_SEC) / (1 << 20), "MiB/s",
		     C2D_BYTES / (median(tl, C2D_REPS) / NS_PER_SEC) / (1 << 20),
		     "MiB/s linear aclrtMemcpyAsync D2D", 0.95, "min",
		     "aclrtMemcpy2dAsync D2D of 4096 rows x 16 KiB at a 32 KiB source pitch vs one 64 MiB aclrtMemcpyAsync D2D (+ sync each)");
	}
	aclrtDestroyStream(s);
	aclrtFree(src);
	aclrtFree(dst);
	return 0;
}

#define MS_BYTES	(64u << 20)
#define MS_REPS		3

static int bench_memset64(void)
{
	double td[MS_REPS], th[MS_REPS];
	char *dev = NULL, *host;
	uint64_t t0;
	aclError r;
	int k;

	host = malloc(MS_BYTES);
	if (!host)
		return fail("malloc(64 MiB)", ACL_ERROR_RT_MEMORY_ALLOCATION);
	r = aclrtMalloc((void **)&dev, MS_BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r)
		return fail("aclrtMalloc(64 MiB)", r);
	for (k = -1; k < MS_REPS; k++) {
		t0 = now_ns();
		memset(host, 0x40 + k, MS_BYTES);
		__asm__ __volatile__("" : : "r"(host) : "memory");
		th[k < 0 ? 0 : k] = (double)(now_ns() - t0);
		t0 = now_ns();
		r = aclrtMemset(dev, MS_BYTES, 0x40 + k, MS_BYTES);
		if (r)
			break;
		td[k < 0 ? 0 : k] = (double)(now_ns() - t0);
	}
	if (not_supported(r))
		emit("memset_64m", -1, "MiB/s", -1, "MiB/s", 0.8, "min",
		     "not available: aclrtMemset returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	else if (r)
		return fail("aclrtMemset(64 MiB)", r);
	else
		emit("memset_64m", MS_BYTES / (median(td, MS_REPS) / NS_PER_SEC) / (1 << 20),
		     "MiB/s", MS_BYTES / (median(th, MS_REPS) / NS_PER_SEC) / (1 << 20),
		     "MiB/s guest memset", 0.8, "min",
		     "aclrtMemset of 64 MiB of device memory / memset() of 64 MiB in the guest");
	aclrtFree(dev);
	free(host);
	return 0;
}

/* ---- host <-> device copies (issue #4) ----------------------------------- */

#define XFER_BYTES	(64u << 20)
#define XFER_REPS	3
#define MIGRATE_REPS	5

/* One 64 MiB aclrtMemcpy bandwidth figure vs guest memcpy (@host, bytes/s). */
static int copy64_figure(const char *name, void *dst, const void *src,
			 aclrtMemcpyKind kind, double host, double goal, const char *what)
{
	aclError r = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	double bw = 0;

	if (dst && src)		/* NULL: aclrtMallocHost not available */
		bw = acl_copy_bw(dst, src, XFER_BYTES, XFER_REPS, kind, &r);
	if (not_supported(r)) {
		emit(name, -1, "MiB/s", host / (1 << 20), "MiB/s guest memcpy", goal, "min",
		     "not available: %s returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT",
		     dst && src ? "aclrtMemcpy" : "aclrtMallocHost");
		return 0;
	}
	if (r)
		return fail(name, r);
	emit(name, bw / (1 << 20), "MiB/s", host / (1 << 20), "MiB/s guest memcpy", goal, "min",
	     "aclrtMemcpy %s of 64 MiB / memcpy() of 64 MiB in the guest, median of %d",
	     what, XFER_REPS);
	return 0;
}

/*
 * managed_migrate_64m (#17): 64 MiB of managed memory written on the host,
 * then prefetched to the device (aclrtMemManagedPrefetchAsync + stream
 * synchronisation), as bandwidth against memcpy() of 64 MiB in the guest.
 */
static int bench_managed_migrate(void)
{
	aclrtMemManagedLocation d0 = { .type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0 };
	double host[MIGRATE_REPS], per[MIGRATE_REPS];
	unsigned char *m = NULL, *a, *b;
	aclrtStream s = NULL;
	uint64_t t0;
	aclError r;
	int i;

	a = malloc(XFER_BYTES);
	b = malloc(XFER_BYTES);
	if (!a || !b)
		return fail("managed_migrate_64m: malloc", ACL_ERROR_BAD_ALLOC);
	memset(a, 1, XFER_BYTES);
	memset(b, 2, XFER_BYTES);
	r = aclrtMemAllocManaged((void **)&m, XFER_BYTES, ACL_RT_MEM_ATTACH_GLOBAL);
	if (!r)
		r = aclrtCreateStream(&s);
	if (r)
		return fail("managed_migrate_64m", r);
	for (i = -1; i < MIGRATE_REPS; i++) {
		double h;

		/* the memcpy it is measured against, next to it (the VM's speed drifts) */
		t0 = now_ns();
		memcpy(b, a, XFER_BYTES);
		__asm__ __volatile__("" : : "r"(b) : "memory");
		h = (double)XFER_BYTES * 1e9 / (double)(now_ns() - t0);
		/* every page on the host, written */
		memset(m, i + 2, XFER_BYTES);
		t0 = now_ns();
		r = aclrtMemManagedPrefetchAsync(m, XFER_BYTES, d0, 0, s);
		if (!r)
			r = aclrtSynchronizeStream(s);
		if (r)
			return fail("aclrtMemManagedPrefetchAsync", r);
		if (i < 0)
			continue;	/* the warm-up */
		host[i] = h;
		per[i] = (double)XFER_BYTES * 1e9 / (double)(now_ns() - t0);
	}
	emit("managed_migrate_64m", median(per, MIGRATE_REPS) / (1 << 20), "MiB/s",
	     median(host, MIGRATE_REPS) / (1 << 20), "MiB/s guest memcpy", 0.5, "min",
	     "64 MiB of managed memory moved host -> device by a prefetch / memcpy() of 64 MiB in the guest, each timed next to the other, median of %d",
	     MIGRATE_REPS);
	aclrtDestroyStream(s);
	aclrtFree(m);
	free(a);
	free(b);
	return 0;
}

#define LAT_BATCH	100
#define LAT_BATCHES	9

/* One 4-byte synchronous aclrtMemcpy latency figure vs the no-op ioctl. */
static int copy4_figure(const char *name, void *dst, const void *src,
			aclrtMemcpyKind kind, const char *what)
{
	unsigned long snap[256];
	double per[LAT_BATCHES];
	uint64_t t0;
	aclError r = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	int b, i;

	memcpy(snap, ioctl_count, sizeof(snap));
	near_reset();
	for (b = -1; dst && src && b < LAT_BATCHES; b++) {
		if (b >= 0 && near_sample())
			return 1;
		t0 = now_ns();
		for (i = 0; i < LAT_BATCH; i++) {
			r = aclrtMemcpy(dst, 4, src, 4, kind);
			if (r)
				break;
		}
		if (r)
			break;
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / LAT_BATCH;
	}
	if (not_supported(r)) {
		emit(name, -1, "ns", base_ns, "ns/no-op ioctl", 2, "max",
		     "not available: %s returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT",
		     dst && src ? "aclrtMemcpy" : "aclrtMallocHost");
		return 0;
	}
	if (r)
		return fail(name, r);
	emit(name, median(per, LAT_BATCHES), "ns", near_base(), "ns/no-op ioctl", 2, "max",
	     "aclrtMemcpy of 4 bytes %s (pinned host memory), %d batches of %d; %s per copy",
	     what, LAT_BATCHES, LAT_BATCH,
	     ioctl_mix(snap, (LAT_BATCHES + 1) * LAT_BATCH));
	return 0;
}

static int bench_host_copies(void)
{
	char *ha, *hb, *hp = NULL, *da = NULL, *db = NULL;
	double host;
	aclError r;
	int ret = 0;

	ha = malloc(XFER_BYTES);
	hb = malloc(XFER_BYTES);
	if (!ha || !hb)
		return fail("malloc(64 MiB)", ACL_ERROR_RT_MEMORY_ALLOCATION);
	memset(ha, 0xa5, XFER_BYTES);
	memset(hb, 0, XFER_BYTES);
	r = aclrtMallocHost((void **)&hp, XFER_BYTES);
	if (not_supported(r))
		hp = NULL;
	else if (r)
		return fail("aclrtMallocHost(64 MiB)", r);
	else
		memset(hp, 0x5a, XFER_BYTES);
	r = aclrtMalloc((void **)&da, XFER_BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMalloc((void **)&db, XFER_BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r)
		return fail("aclrtMalloc(64 MiB)", r);

	host = host_bw(hb, ha, XFER_BYTES, XFER_REPS);
	ret |= copy64_figure("h2d_pinned_64m", db, hp, ACL_MEMCPY_HOST_TO_DEVICE, host, 0.8,
			     "host (aclrtMallocHost) to device");
	ret |= copy64_figure("d2h_pinned_64m", hp, db, ACL_MEMCPY_DEVICE_TO_HOST, host, 0.8,
			     "device to host (aclrtMallocHost)");
	ret |= copy64_figure("d2d_64m", da, db, ACL_MEMCPY_DEVICE_TO_DEVICE, host, 0.8,
			     "device to device");
	ret |= copy64_figure("h2d_pageable_64m", db, ha, ACL_MEMCPY_HOST_TO_DEVICE, host, 0.6,
			     "host (malloc) to device");
	ret |= copy64_figure("d2h_pageable_64m", hb, db, ACL_MEMCPY_DEVICE_TO_HOST, host, 0.6,
			     "device to host (malloc)");
	ret |= copy4_figure("h2d_4b_latency", da, hp, ACL_MEMCPY_HOST_TO_DEVICE,
			    "host to device");
	ret |= copy4_figure("d2h_4b_latency", hp, da, ACL_MEMCPY_DEVICE_TO_HOST,
			    "device to host");

	aclrtFree(da);
	aclrtFree(db);
	if (hp)
		aclrtFreeHost(hp);
	free(ha);
	free(hb);
	return ret;
}

/* ---- async copies, the device's pace, stopping, sharing (issue #14) ---- */

/*
 * The enqueue cost of the asynchronous copy calls: like
 * async_enqueue_per_op, batches of one kind queued behind a long Spin, so
 * the stream is busy and only the calls are timed.  The four kinds take
 * turns batch by batch (drift hits all alike); the figure is the worst of
 * their medians.
 */
#define ACE_BATCH	1000	/* fits a default ring (1024) behind the spin */
#define ACE_BATCHES	11
#define ACE_SPIN_US	100000
#define ACE_SIZE	4096u

enum { ACE_D2D64, ACE_D2D4K, ACE_H2D4K, ACE_SET4K, ACE_KINDS };

static const char *const ace_name[ACE_KINDS] = {
	"D2D 64 B", "D2D 4 KiB", "H2D 4 KiB pinned", "memset 4 KiB",
};

static aclError ace_op(int kind, char *ddst, char *dsrc, char *hsrc, aclrtStream s)
{
	switch (kind) {
	case ACE_D2D64:
		return aclrtMemcpyAsync(ddst, 64, dsrc, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s);
	case ACE_D2D4K:
		return aclrtMemcpyAsync(ddst, ACE_SIZE, dsrc, ACE_SIZE,
					ACL_MEMCPY_DEVICE_TO_DEVICE, s);
	case ACE_H2D4K:
		return aclrtMemcpyAsync(ddst, ACE_SIZE, hsrc, ACE_SIZE,
					ACL_MEMCPY_HOST_TO_DEVICE, s);
	default:
		return aclrtMemsetAsync(ddst, ACE_SIZE, 0x3e, ACE_SIZE, s);
	}
}

static int bench_async_copy_enqueue(void)
{
	double per[ACE_KINDS][ACE_BATCHES], med[ACE_KINDS], worst = 0, worst_ms = 0;
	unsigned long ioctls[ACE_KINDS] = { 0 };
	char *ddst = NULL, *dsrc = NULL, *hsrc = NULL;
	bool have[ACE_KINDS] = { true, true, true, true };
	aclrtStream s = NULL;
	struct counts c0, c;
	uint64_t t0, t;
	aclError r;
	int b, kind, i, wk = -1;

	r = aclrtMalloc((void **)&ddst, ACE_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMalloc((void **)&dsrc, ACE_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMemset(dsrc, ACE_SIZE, 0x5c, ACE_SIZE);
	if (!r)
		r = aclrtCreateStream(&s);
	if (r)
		return fail("async copy set-up", r);
	r = aclrtMallocHost((void **)&hsrc, ACE_SIZE);
	if (not_supported(r))
		have[ACE_H2D4K] = false;
	else if (r)
		return fail("aclrtMallocHost(4 KiB)", r);
	else
		memset(hsrc, 0xc5, ACE_SIZE);

	near_reset();
	for (b = -1; b < ACE_BATCHES; b++) {
		if (b >= 0 && near_sample())
			return 1;
		for (kind = 0; kind < ACE_KINDS; kind++) {
			if (!have[kind])
				continue;
			if (spin_fn) {
				r = launch_spin(s, ACE_SPIN_US);
				if (r)
					return fail("aclrtLaunchKernel(Spin)", r);
			}
			c0 = counts_now();
			t0 = now_ns();
			for (i = 0; i < ACE_BATCH; i++) {
				r = ace_op(kind, ddst, dsrc, hsrc, s);
				if (r)
					break;
			}
			t = now_ns() - t0;
			c = counts_since(c0);
			if (not_supported(r) && b < 0 && i == 0) {
				have[kind] = false;	/* not implemented: say so */
				continue;
			}
			if (r)
				return fail(kind == ACE_SET4K ? "aclrtMemsetAsync" :
					    "aclrtMemcpyAsync", r);
			r = aclrtSynchronizeStream(s);
			if (r)
				return fail("aclrtSynchronizeStream", r);
			if (verbose)
				progress("%s enqueue batch %d: %.2f ms, %lu ioctls",
					 ace_name[kind], b, t / 1e6, c.total);
			if (b < 0)
				continue;
			per[kind][b] = (double)t / ACE_BATCH;
			ioctls[kind] += c.total;
			if (t / 1e6 > worst_ms)
				worst_ms = t / 1e6;
		}
	}
	aclrtDestroyStream(s);
	if (hsrc)
		aclrtFreeHost(hsrc);
	aclrtFree(ddst);
	aclrtFree(dsrc);
	if (spin_fn && worst_ms * 1000 > ACE_SPIN_US)
		progress("warning: a copy batch took %.1f ms, longer than the %d ms spin: the stream went idle",
			 worst_ms, ACE_SPIN_US / 1000);
	for (kind = 0; kind < ACE_KINDS; kind++) {
		med[kind] = have[kind] ? median(per[kind], ACE_BATCHES) : -1;
		if (med[kind] > worst) {
			worst = med[kind];
			wk = kind;
		}
	}
	if (wk < 0) {
		emit("async_copy_enqueue_per_op", -1, "ns", base_ns, "ns/no-op ioctl", 0.3, "max",
		     "not available: aclrtMemcpyAsync and aclrtMemsetAsync return ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
		return 0;
	}
#define ACE_X(k) (have[k] ? med[k] / near_base() : -1.0), \
		 (have[k] ? (double)ioctls[k] / (ACE_BATCHES * ACE_BATCH) : -1.0)
	emit("async_copy_enqueue_per_op", worst, "ns", near_base(), "ns/no-op ioctl", 0.3, "max",
	     "worst: %s; in no-op ioctls (ioctls/op): D2D 64 B %.2f (%.3f), D2D 4 KiB %.2f (%.3f), H2D 4 KiB pinned %.2f (%.3f), memset 4 KiB %.2f (%.3f); %d per batch behind %s, %d batches (-1: n/a)",
	     ace_name[wk], ACE_X(ACE_D2D64), ACE_X(ACE_D2D4K), ACE_X(ACE_H2D4K),
	     ACE_X(ACE_SET4K), ACE_BATCH, spin_fn ? "a 100 ms Spin" : "the batch itself",
	     ACE_BATCHES);
#undef ACE_X
	return 0;
}

/*
 * The device's own time per small copy: Spin(S), an event, DSC_N 64-byte
 * D2D copies and a second event are enqueued while the Spin runs; the
 * device's timestamps of the two events (aclrtEventElapsedTime) give the
 * time the copies took once the stream ran, without the enqueue, the
 * wake-up of the stream or the jitter of the Spin's sleep.  Every copy
 * goes to its own 64 bytes, and the bytes of every run are checked.
 */
#define DSC_N		1000	/* + Spin + 2 records fit a default ring (1024) */
#define DSC_REPS	9
#define DSC_SPIN_US	30000
#define DSC_BYTES	((size_t)DSC_N * 64)

/* Device ns between @a (the Spin's end) and @b (after the DSC_N copies). */
static double dsc_run(char *ddst, char *dsrc, aclrtStream s, aclrtEvent a, aclrtEvent b,
		      double *enq_ms, aclError *err)
{
	uint64_t t0, t1;
	float ms = 0;
	int i;

	t0 = now_ns();
	*err = launch_spin(s, DSC_SPIN_US);
	if (!*err)
		*err = aclrtRecordEvent(a, s);
	for (i = 0; i < DSC_N && !*err; i++)
		*err = aclrtMemcpyAsync(ddst + i * 64, 64, dsrc + i * 64, 64,
					ACL_MEMCPY_DEVICE_TO_DEVICE, s);
	if (!*err)
		*err = aclrtRecordEvent(b, s);
	t1 = now_ns();
	if (!*err)
		*err = aclrtSynchronizeStream(s);
	if (!*err)
		*err = aclrtEventElapsedTime(&ms, a, b);
	if ((t1 - t0) / 1e6 > *enq_ms)
		*enq_ms = (t1 - t0) / 1e6;
	return (double)ms * 1e6;
}

static int bench_device_small_copy(void)
{
	double per[DSC_REPS], enq_ms = 0, v;
	unsigned char *pat, *back;
	char *ddst = NULL, *dsrc = NULL;
	aclrtEvent ea = NULL, eb = NULL;
	aclrtStream s = NULL;
	aclError r;
	size_t i;
	int rep, bad = 0;

	if (!spin_fn) {
		emit("device_small_copy_per_op", -1, "ns", base_ns, "ns/no-op ioctl", 2, "max",
		     "not available: the device has no Spin kernel to start the stream with");
		return 0;
	}
	pat = malloc(DSC_BYTES);
	back = malloc(DSC_BYTES);
	if (!pat || !back)
		return fail("malloc", ACL_ERROR_RT_MEMORY_ALLOCATION);
	for (i = 0; i < DSC_BYTES; i++)
		pat[i] = (unsigned char)(i * 13 + i / 64);
	r = aclrtMalloc((void **)&ddst, DSC_BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMalloc((void **)&dsrc, DSC_BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMemcpy(dsrc, DSC_BYTES, pat, DSC_BYTES, ACL_MEMCPY_HOST_TO_DEVICE);
	if (!r)
		r = aclrtCreateStream(&s);
	if (!r)
		r = aclrtCreateEvent(&ea);
	if (!r)
		r = aclrtCreateEvent(&eb);
	if (r)
		return fail("small copy set-up", r);
	near_reset();
	for (rep = -1; rep < DSC_REPS; rep++) {
		if (rep >= 0 && near_sample())
			return 1;
		r = aclrtMemset(ddst, DSC_BYTES, 0, DSC_BYTES);
		if (r)
			return fail("aclrtMemset", r);
		v = dsc_run(ddst, dsrc, s, ea, eb, &enq_ms, &r);
		if (not_supported(r)) {
			emit("device_small_copy_per_op", -1, "ns", base_ns, "ns/no-op ioctl",
			     2, "max", "not available: aclrtMemcpyAsync D2D or event timestamps return ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
			goto out;
		}
		if (r)
			return fail("Spin + event + aclrtMemcpyAsync D2D + event + sync", r);
		/* a benchmark that copies nothing measures nothing */
		r = aclrtMemcpy(back, DSC_BYTES, ddst, DSC_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
		if (r)
			return fail("aclrtMemcpy D2H", r);
		if (memcmp(back, pat, DSC_BYTES))
			bad++;
		if (verbose)
			progress("small copies rep %d: %d copies in %.3f ms of device time",
				 rep, DSC_N, v / 1e6);
		if (rep >= 0)
			per[rep] = v / DSC_N;
	}
	if (bad) {
		fprintf(stderr, "bench: %d of %d runs of %d 64-byte copies left wrong bytes\n",
			bad, DSC_REPS + 1, DSC_N);
		return 1;
	}
	if (enq_ms * 1000 > DSC_SPIN_US / 2)
		progress("warning: enqueueing %d copies took %.1f ms, not well inside the %d ms spin",
			 DSC_N, enq_ms, DSC_SPIN_US / 1000);
	emit("device_small_copy_per_op", median(per, DSC_REPS), "ns", near_base(), "ns/no-op ioctl",
	     2, "max",
	     "%d x 64 B aclrtMemcpyAsync D2D queued behind Spin(30 ms), timed on the device between an event after the Spin and one after the copies; median of %d; enqueue at most %.1f ms; bytes checked",
	     DSC_N, DSC_REPS, enq_ms);
out:
	aclrtDestroyStream(s);
	aclrtDestroyEvent(ea);
	aclrtDestroyEvent(eb);
	aclrtFree(ddst);
	aclrtFree(dsrc);
	free(pat);
	free(back);
	return 0;
}

/*
 * How long stopping a huge running ring command takes: a queue of our own
 * runs one COPY_BATCH whose entries are a never-written buffer (zero
 * entries: size 0, nothing copied, but each read and checked; the buffer
 * costs no host memory), and QUEUE_DESTROY(FORCE) is timed once the
 * command has run for a while.  Raw ioctls on a file of the bench's own,
 * opened for this (its VA window and buffer go away with it).
 */
#define STOP_BO		(4ULL << 30)
#define STOP_REPS	5
#define STOP_RUN_MS	100

static int open_node(void);

/* An integer module parameter of the driver; -1 if unreadable. */
static long driver_param(const char *name)
{
	const char *mod = getenv("ASCEND_DRIVER");
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 mod && *mod ? mod : "ascend", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Write module parameter @name of the driver: 0, or -1 if it cannot. */
static int driver_param_set(const char *name, long v)
{
	const char *mod = getenv("ASCEND_DRIVER");
	char path[256];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 mod && *mod ? mod : "ascend", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ret = fprintf(f, "%ld\n", v) < 0 ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

/*
 * A file of our own with a VA window of at least @size; its base in
 * *@win (to munmap @win_size of it later).  -1 with errno set on failure.
 */
static int raw_file(uint64_t size, struct drm_ascend_device_info *info, void **win,
		    size_t *win_size)
{
	struct drm_ascend_dev_query q = { 0 };
	struct drm_ascend_va_window w = { 0 };
	uint64_t align;
	void *p;
	int fd, e;

	fd = open_node();
	if (fd < 0)
		return -1;
	memset(info, 0, sizeof(*info));
	q.type = DRM_ASCEND_QUERY_DEVICE_INFO;
	q.size = sizeof(*info);
	q.data = (uintptr_t)info;
	if (ioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q))
		goto err;
	align = info->va_window_align ? info->va_window_align : 4096;
	if (size < info->va_window_min_size)
		size = info->va_window_min_size;
	size = (size + align - 1) & ~(align - 1);
	*win_size = size + align;
	p = mmap(NULL, *win_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		goto err;
	*win = p;
	w.base = ((uint64_t)(uintptr_t)p + align - 1) & ~(align - 1);
	w.size = size;
	if (ioctl(fd, DRM_IOCTL_ASCEND_VA_WINDOW, &w)) {
		e = errno;
		munmap(p, *win_size);
		errno = e;
		goto err;
	}
	return fd;
err:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

static int bench_stop_latency(void)
{
	const uint32_t count = (uint32_t)(STOP_BO / sizeof(struct drm_ascend_copy_entry));
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create bo = { 0 };
	double per[STOP_REPS], run_ms[STOP_REPS];
	long grace = driver_param("force_destroy_grace_ms");
	bool nograce = false;
	size_t win_size = 0;
	void *win = NULL;
	int fd, rep, n = 0, early = 0, err;
	uint64_t t0, t;
	double v;

	fd = raw_file(2 * STOP_BO, &info, &win, &win_size);
	if (fd < 0) {
		perror("bench: a file with a VA window for stop_latency");
		return 1;
	}
	if (!(info.capabilities & DRM_ASCEND_CAP_COPY_EXT) ||
	    !(info.capabilities & DRM_ASCEND_CAP_QUEUES)) {
		emit("stop_latency", -1, "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "not available: the driver has no ring COPY_BATCH (DRM_ASCEND_CAP_COPY_EXT)");
		goto out;
	}
	bo.size = STOP_BO;
	bo.policy = DRM_ASCEND_BO_HUGE_FIRST;
	err = ioctl(fd, DRM_IOCTL_ASCEND_BO_CREATE, &bo) ? errno : 0;
	if (err == ENOSPC) {
		emit("stop_latency", -1, "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "not available: the device has no free 4 GiB for the batch's entries (ENOSPC)");
		goto out;
	}
	if (err) {
		fprintf(stderr, "bench: DRM_IOCTL_ASCEND_BO_CREATE(4 GiB): %s\n", strerror(err));
		close(fd);
		munmap(win, win_size);
		return 1;
	}
	/*
	 * The device's stop, not the driver's grace for published work:
	 * grace 0 while we measure (restored below).
	 */
	nograce = grace > 0 && !driver_param_set("force_destroy_grace_ms", 0);
	for (rep = 0; rep < STOP_REPS; rep++) {
		struct drm_ascend_queue_create qc = { 0 };
		struct drm_ascend_queue_destroy qd = { 0 };
		struct drm_ascend_queue_doorbell db = { 0 };
		struct ascend_queue_status *st;
		struct ascend_cmd *c;
		uint64_t start, end;
		bool running;
		void *area;

		if (ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &qc)) {
			perror("bench: DRM_IOCTL_ASCEND_QUEUE_CREATE");
			goto fail;
		}
		area = mmap(NULL, qc.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			    (off_t)qc.mmap_offset);
		if (area == MAP_FAILED) {
			perror("bench: mmap of the queue");
			goto fail;
		}
		st = area;
		c = (struct ascend_cmd *)((unsigned char *)area + st->ring_offset);
		memset(c, 0, sizeof(*c));
		c->opcode = ASCEND_CMD_COPY_BATCH;
		c->copy_batch.entries = bo.va;
		c->copy_batch.count = count;
		__atomic_store_n(&st->wptr, 1, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		db.handle = qc.handle;
		if (__atomic_load_n(&st->flags, __ATOMIC_ACQUIRE) & ASCEND_QUEUE_STATUS_NEED_WAKEUP)
			ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &db);
		/* started: the device fetched it; then let it run */
		start = now_ns();
		end = start + 5000000000ull;
		while (!__atomic_load_n(&st->rptr, __ATOMIC_ACQUIRE) && now_ns() < end)
			usleep(1000);
		usleep(STOP_RUN_MS * 1000);
		running = __atomic_load_n(&st->rptr, __ATOMIC_ACQUIRE) == 1 &&
			  !__atomic_load_n(&st->completed, __ATOMIC_ACQUIRE) &&
			  !__atomic_load_n(&st->fault, __ATOMIC_ACQUIRE);
		qd.handle = qc.handle;
		qd.flags = DRM_ASCEND_QUEUE_DESTROY_FORCE;
		t0 = now_ns();
		if (ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &qd)) {
			perror("bench: DRM_IOCTL_ASCEND_QUEUE_DESTROY(FORCE)");
			munmap(area, qc.mmap_size);
			goto fail;
		}
		t = now_ns() - t0;
		munmap(area, qc.mmap_size);
		if (verbose)
			progress("stop rep %d: %s after %.1f ms, destroy %.2f ms", rep,
				 running ? "running" : "NOT running", (t0 - start) / 1e6, t / 1e6);
		if (!running) {
			early++;	/* not a running command: not this figure */
			continue;
		}
		run_ms[n] = (t0 - start) / 1e6;
		per[n++] = (double)t;
	}
	if (!n) {
		fprintf(stderr, "bench: stop_latency: the batch of %u entries never was running when destroyed\n",
			count);
		goto fail;
	}
	v = median(per, n);
	emit("stop_latency", v, "ns", base_ns, "ns/no-op ioctl", -1, "max",
	     "QUEUE_DESTROY(FORCE) of a queue running one ring COPY_BATCH of %u entries (never-written 4 GiB) for %.0f ms: median %.1f ms of %d%s (bound: 100 ms); %s",
	     count, median(run_ms, n), v / 1e6, n, early ? " (some batches had ended early)" : "",
	     nograce ? "measured with force_destroy_grace_ms 0 (the driver's grace for published work, default 200 ms, comes on top)" :
		       "includes the driver's grace for published work (force_destroy_grace_ms)");
out:
	if (nograce)
		driver_param_set("force_destroy_grace_ms", grace);
	close(fd);
	munmap(win, win_size);
	return 0;
fail:
	if (nograce)
		driver_param_set("force_destroy_grace_ms", grace);
	close(fd);
	munmap(win, win_size);
	return 1;
}

/*
 * How long another file waits while one file hogs the device: a child
 * process (this program again, ASCEND_BENCH_ATTACKER, with its own open of
 * the device and no libaclrt) loops synchronous COPY_2Ds of millions of
 * 1-byte rows; meanwhile we time 4 KiB synchronous aclrtMemcpy H2D from
 * pinned memory, one by one with a pause after each (so that they spread
 * over the attacker's calls), and the same copies with the device idle.
 * The VM has few vCPUs, so the attacker also takes CPU time from us: a
 * child that only spins on the CPU shows how much of the wait that is.
 */
#define XW_ROWS		(4ULL << 20)	/* 1-byte rows, pitch 2: 8 MiB spans */
#define XW_N		200		/* copies timed each way */
#define XW_PAUSE_US	5000		/* after each copy */
#define XW_SIZE		4096u

/*
 * The attacker (a child process): never returns.  @arg: "2d:FD" or
 * "cpu:FD", FD a pipe.  The 2D attacker tells FD its rows/s once its copy
 * works, then one byte per huge call completed; the CPU hog writes 0 and
 * spins.
 */
static void attacker_main(const char *arg)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create a = { 0 }, b = { 0 };
	struct drm_ascend_copy_2d c = { 0 };
	uint64_t t, rate;
	size_t win_size;
	void *win;
	char *end;
	long wfd;
	int fd;

	if (strncmp(arg, "2d:", 3) && strncmp(arg, "cpu:", 4))
		_exit(2);
	wfd = strtol(strchr(arg, ':') + 1, &end, 10);
	if (*end || end == strchr(arg, ':') + 1 || wfd < 0 || wfd > 1024)
		_exit(2);
	if (arg[0] == 'c') {
		volatile unsigned long spins = 0;

		rate = 0;
		if (write((int)wfd, &rate, sizeof(rate)) != sizeof(rate))
			_exit(6);
		for (;;)
			spins++;
	}
	fd = raw_file(4 * XW_ROWS, &info, &win, &win_size);
	if (fd < 0)
		_exit(3);
	a.size = b.size = 2 * XW_ROWS;
	if (ioctl(fd, DRM_IOCTL_ASCEND_BO_CREATE, &a) ||
	    ioctl(fd, DRM_IOCTL_ASCEND_BO_CREATE, &b))
		_exit(4);
	c.dst = a.va;
	c.src = b.va;
	c.dpitch = 2;
	c.spitch = 2;
	c.width = 1;
	c.height = 16384;
	t = now_ns();
	if (ioctl(fd, DRM_IOCTL_ASCEND_COPY_2D, &c))	/* it works */
		_exit(5);
	t = now_ns() - t;
	rate = c.height * 1000000000ull / (t ? t : 1);
	c.height = XW_ROWS;
	if (write((int)wfd, &rate, sizeof(rate)) != sizeof(rate))
		_exit(6);
	for (;;) {
		if (ioctl(fd, DRM_IOCTL_ASCEND_COPY_2D, &c) && errno != EINTR)
			_exit(7);	/* the parent sees it ended */
		if (write((int)wfd, "c", 1) != 1)
			_exit(8);
	}
}

/*
 * Start an attacker of @mode ("2d", "cpu"); its pid (-1 on failure), its
 * rows/s in *@rate and the read end of its pipe in *@rfd.  Returns once it
 * is attacking.
 */
static pid_t attacker_start(const char *mode, uint64_t *rate, int *rfd)
{
	char self[4096], arg[24];
	struct pollfd pfd;
	ssize_t len;
	int p[2], st = 0;
	pid_t pid, parent = getpid();

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0 || pipe2(p, O_CLOEXEC))
		return -1;
	self[len] = '\0';
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		/* die with us, even if we die first */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		snprintf(arg, sizeof(arg), "%s:%d", mode, p[1]);
		if (fcntl(p[1], F_SETFD, 0) == 0 &&
		    setenv("ASCEND_BENCH_ATTACKER", arg, 1) == 0)
			execl(self, self, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	pfd.fd = p[0];
	pfd.events = POLLIN;
	*rate = 0;
	if (poll(&pfd, 1, 30000) != 1 || read(p[0], rate, sizeof(*rate)) != sizeof(*rate)) {
		close(p[0]);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		fprintf(stderr, "bench: the attacker did not start (status %#x)\n", st);
		return -1;
	}
	*rfd = p[0];
	return pid;
}

/* ns of each of @n 4 KiB copies H2D, in @v. */
static aclError xw_copies(double *v, int n, char *d, char *h)
{
	uint64_t t0;
	aclError r;
	int i;

	for (i = 0; i < n; i++) {
		t0 = now_ns();
		r = aclrtMemcpy(d, XW_SIZE, h, XW_SIZE, ACL_MEMCPY_HOST_TO_DEVICE);
		if (r)
			return r;
		v[i] = (double)(now_ns() - t0);
		usleep(XW_PAUSE_US);
	}
	return ACL_SUCCESS;
}

/*
 * The copies of @v while an attacker of @mode runs; then it is killed and
 * reaped.  *@calls: its huge calls done, *@kill_ms: how long it took to
 * die.  0, or 1 with a message.
 */
static int xw_attacked(const char *mode, double *v, char *d, char *h, uint64_t *rate,
		       unsigned long *calls, double *secs, double *kill_ms)
{
	int st = 0, rfd = -1;
	char buf[64];
	ssize_t got;
	aclError r;
	uint64_t t;
	pid_t pid;

	*calls = 0;
	pid = attacker_start(mode, rate, &rfd);
	if (pid < 0)
		return 1;
	usleep(100000);		/* well inside its first huge call */
	t = now_ns();
	r = xw_copies(v, XW_N, d, h);
	*secs = (now_ns() - t) / 1e9;
	t = now_ns();
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	*kill_ms = (now_ns() - t) / 1e6;
	while ((got = read(rfd, buf, sizeof(buf))) > 0)	/* EOF: it is gone */
		*calls += (unsigned long)got;
	close(rfd);
	if (r)
		return fail("aclrtMemcpy(4 KiB H2D) while another process runs", r);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
		fprintf(stderr, "bench: the %s attacker ended before it was killed (status %#x)\n",
			mode, st);
		return 1;
	}
	return 0;
}

static int bench_cross_file_wait(void)
{
	double idle[XW_N], idle2[XW_N], hog[XW_N], cpu[XW_N], m_idle, m_hog, secs, cpu_secs;
	double kill_ms, cpu_kill_ms;
	unsigned char back[XW_SIZE];
	char *d = NULL, *h = NULL;
	unsigned long calls, cpu_calls;
	uint64_t rate = 0, cpu_rate;
	int ret = 0;
	aclError r;
	size_t i;

	r = aclrtMallocHost((void **)&h, XW_SIZE);
	if (not_supported(r)) {
		emit("cross_file_wait", -1, "ns", -1, "ns idle 4 KiB copy", -1, "max",
		     "not available: aclrtMallocHost returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
		return 0;
	}
	if (!r)
		r = aclrtMalloc((void **)&d, XW_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r)
		return fail("cross_file_wait set-up", r);
	for (i = 0; i < XW_SIZE; i++)
		h[i] = (char)(i * 11 + 5);
	r = xw_copies(idle, 10, d, h);		/* warm-up */
	if (!r)
		r = xw_copies(idle, XW_N, d, h);
	if (r) {
		ret = fail("aclrtMemcpy(4 KiB H2D)", r);
		goto out;
	}
	ret = xw_attacked("2d", hog, d, h, &rate, &calls, &secs, &kill_ms);
	if (!ret)
		ret = xw_attacked("cpu", cpu, d, h, &cpu_rate, &cpu_calls, &cpu_secs,
				  &cpu_kill_ms);
	if (ret)
		goto out;
	r = xw_copies(idle2, XW_N, d, h);
	/* the last copy's bytes arrived */
	memset(back, 0, sizeof(back));
	if (!r)
		r = aclrtMemcpy(back, XW_SIZE, d, XW_SIZE, ACL_MEMCPY_DEVICE_TO_HOST);
	if (r) {
		ret = fail("aclrtMemcpy(4 KiB)", r);
		goto out;
	}
	if (memcmp(back, h, XW_SIZE)) {
		fprintf(stderr, "bench: cross_file_wait: the 4 KiB copies left wrong bytes\n");
		ret = 1;
		goto out;
	}
	m_idle = median(idle, XW_N);
	m_hog = median(hog, XW_N);	/* sorts hog */
	emit("cross_file_wait", m_hog, "ns", m_idle, "ns idle 4 KiB copy", -1, "max",
	     "sync aclrtMemcpy 4 KiB H2D (pinned), %d each way %d ms apart; value: median while another process loops COPY_2D of %llu 1-byte rows (%.1f s each; %lu done in %.1f s), slowest %.2f ms; baseline: idle, before (after: %.0f ns); %ld vCPUs: next to a child that only spins on the CPU %.0f ns; attacker killed in %.1f ms",
	     XW_N, XW_PAUSE_US / 1000, (unsigned long long)XW_ROWS,
	     rate ? (double)XW_ROWS / rate : -1.0, calls, secs, hog[XW_N - 1] / 1e6,
	     median(idle2, XW_N), sysconf(_SC_NPROCESSORS_ONLN), median(cpu, XW_N), kill_ms);
out:
	aclrtFree(d);
	aclrtFreeHost(h);
	return ret;
}

/* ---- main -------------------------------------------------------------- */

/*
 * How long a small kernel of one user waits for an AI core while another
 * user holds every core (issue 15, point 3): a child process drops to
 * FC_UID (the node opened to it meanwhile) and fills every core
 * with a Spin of FC_SPIN_US, one queue each; we time a Fill32 of 32 KiB
 * (too big for the command processor's short path: it runs on a core), 9
 * times, and the same with the device idle.  The device's time slice
 * (sched_slice_us) bounds the wait.
 */
#define FC_UID		65534
#define FC_SPIN_US	20000000ull
#define FC_REPS		9
#define FC_WORDS	8192u

/* A built-in kernel's id by name, on a raw file; UINT32_MAX if none. */
static uint32_t raw_kernel_id(int fd, const char *name)
{
	struct drm_ascend_dev_query q = { .type = DRM_ASCEND_QUERY_KERNELS };
	struct drm_ascend_kernel_info *k;
	uint32_t i, id = UINT32_MAX;

	if (ioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q) || !q.size)
		return UINT32_MAX;
	k = calloc(1, q.size);
	if (!k)
		return UINT32_MAX;
	q.data = (uintptr_t)k;
	if (!ioctl(fd, DRM_IOCTL_ASCEND_DEV_QUERY, &q))
		for (i = 0; i < q.size / sizeof(*k); i++)
			if (!strncmp(k[i].name, name, sizeof(k[i].name)))
				id = k[i].id;
	free(k);
	return id;
}

/* A raw queue: its handle and status page (ring after it). */
struct fc_queue {
	int fd;
	uint32_t handle;
	void *area;
	size_t size;
	struct ascend_queue_status *st;
};

static int fc_queue_create(int fd, struct fc_queue *q)
{
	struct drm_ascend_queue_create qc = { 0 };

	if (ioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &qc))
		return -1;
	q->fd = fd;
	q->handle = qc.handle;
	q->size = qc.mmap_size;
	q->area = mmap(NULL, qc.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)qc.mmap_offset);
	if (q->area == MAP_FAILED)
		return -1;
	q->st = q->area;
	return 0;
}

/* Publish @c as the queue's next command; its sequence number. */
static uint64_t fc_submit(struct fc_queue *q, const struct ascend_cmd *c)
{
	struct ascend_cmd *ring = (struct ascend_cmd *)((char *)q->area + q->st->ring_offset);
	uint64_t w = __atomic_load_n(&q->st->wptr, __ATOMIC_RELAXED);
	struct drm_ascend_queue_doorbell db = { .handle = q->handle };

	memcpy(&ring[w % q->st->ring_entries], c, sizeof(*c));
	__atomic_store_n(&q->st->wptr, w + 1, __ATOMIC_RELEASE);
	/* order the wptr store before the flags load (NEED_WAKEUP protocol) */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&q->st->flags, __ATOMIC_ACQUIRE) & ASCEND_QUEUE_STATUS_NEED_WAKEUP)
		ioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &db);
	return w + 1;
}

/* The other user: fill every core with a long Spin, say so on @wfd, wait. */
static void fc_attacker(int wfd)
{
	struct drm_ascend_device_info info;
	struct ascend_cmd c = { 0 };
	struct fc_queue q;
	uint64_t usec = FC_SPIN_US;
	uint32_t spin, i;
	size_t win_size;
	void *win;
	int fd;

	if (setgroups(0, NULL) || setresgid(FC_UID, FC_UID, FC_UID) ||
	    setresuid(FC_UID, FC_UID, FC_UID))
		_exit(2);
	fd = raw_file(1 << 20, &info, &win, &win_size);
	if (fd < 0)
		_exit(3);
	spin = raw_kernel_id(fd, "Spin");
	if (spin == UINT32_MAX)
		_exit(4);
	c.opcode = ASCEND_CMD_LAUNCH;
	c.launch.kernel_id = spin;
	c.launch.num_blocks = 1;
	c.launch.args_size = sizeof(usec);
	memcpy(c.launch.args, &usec, sizeof(usec));
	for (i = 0; i < info.num_ai_cores; i++) {
		if (fc_queue_create(fd, &q))
			_exit(5);
		fc_submit(&q, &c);
	}
	if (write(wfd, "s", 1) != 1)
		_exit(6);
	for (;;)
		pause();
}

/* ns of each of FC_REPS Fill32 launches of 32 KiB on @q, in @v. */
static int fc_fills(struct fc_queue *q, uint32_t fill, uint64_t va, double *v)
{
	struct drm_ascend_queue_wait w = { 0 };
	struct ascend_cmd c = { 0 };
	struct { uint64_t p; uint32_t v, pad; uint64_t count; } a = { va, 0x5a5a, 0, FC_WORDS };
	uint64_t t0, seq;
	int i;

	c.opcode = ASCEND_CMD_LAUNCH;
	c.launch.kernel_id = fill;
	c.launch.num_blocks = 1;
	c.launch.args_size = sizeof(a);
	memcpy(c.launch.args, &a, sizeof(a));
	for (i = 0; i < FC_REPS; i++) {
		t0 = now_ns();
		seq = fc_submit(q, &c);
		w.handle = q->handle;
		w.seq = seq;
		w.timeout_ns = (int64_t)(now_ns() + 60000000000ull);
		if (ioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w) || w.fault ||
		    w.completed != seq)
			return -1;
		v[i] = (double)(now_ns() - t0);
		usleep(5000);
	}
	return 0;
}

static int bench_fair_cores(void)
{
	struct drm_ascend_device_info info;
	struct drm_ascend_bo_create bo = { 0 };
	double idle[FC_REPS], busy[FC_REPS];
	long slice = driver_param("sched_slice_us");
	struct fc_queue q = { 0 };
	struct pollfd pfd;
	struct stat nst;
	size_t win_size = 0;
	void *win = NULL;
	int fd, p[2], st = 0, ret = 1;
	uint32_t fill;
	char b;
	pid_t pid;

	if (geteuid() != 0 || stat("/dev/accel/accel0", &nst)) {
		emit("fair_core_wait", -1, "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "not available: needs root to run the other user");
		return 0;
	}
	fd = raw_file(1 << 20, &info, &win, &win_size);
	if (fd < 0) {
		perror("bench: a file with a VA window for fair_core_wait");
		return 1;
	}
	fill = raw_kernel_id(fd, "Fill32");
	bo.size = FC_WORDS * 4;
	if (fill == UINT32_MAX || ioctl(fd, DRM_IOCTL_ASCEND_BO_CREATE, &bo) ||
	    fc_queue_create(fd, &q) || fc_fills(&q, fill, bo.va, idle)) {
		fprintf(stderr, "bench: fair_core_wait: the idle Fill32 failed\n");
		goto out;
	}
	if (pipe2(p, O_CLOEXEC))
		goto out;
	/* the other user may open the node until it has (the VM has no udev) */
	if (chmod("/dev/accel/accel0", 0666))
		goto out;
	pid = fork();
	if (pid < 0) {
		chmod("/dev/accel/accel0", nst.st_mode & 07777);
		goto out;
	}
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fc_attacker(p[1]);
	}
	close(p[1]);
	pfd.fd = p[0];
	pfd.events = POLLIN;
	b = poll(&pfd, 1, 30000) == 1 && read(p[0], &b, 1) == 1;
	chmod("/dev/accel/accel0", nst.st_mode & 07777);
	if (!b) {
		fprintf(stderr, "bench: fair_core_wait: the other user did not start\n");
	} else {
		usleep(300000);		/* the cores take the Spins */
		if (fc_fills(&q, fill, bo.va, busy))
			fprintf(stderr, "bench: fair_core_wait: a Fill32 failed\n");
		else
			ret = 0;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(p[0]);
	if (!ret)
		emit("fair_core_wait", median(busy, FC_REPS), "ns", median(idle, FC_REPS),
		     "ns idle device", -1, "max",
		     "32 KiB Fill32 while another uid holds all %u AI cores with Spins: median %.2f ms of %d, slowest %.2f ms; idle device %.2f ms; sched_slice_us %ld (the bound: one slice + one poll interval)",
		     info.num_ai_cores, median(busy, FC_REPS) / 1e6, FC_REPS,
		     fc_max(busy, FC_REPS) / 1e6, median(idle, FC_REPS) / 1e6, slice);
out:
	if (q.area && q.area != MAP_FAILED)
		munmap(q.area, q.size);
	close(fd);
	munmap(win, win_size);
	return ret;
}

static int open_node(void)
{
	const char *path = getenv("ASCEND_BENCH_NODE");
	int fd;

	fd = open(path ? path : "/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		perror("bench: open /dev/accel/accel0");
	return fd;
}

/*
 * Run benchmark @name in CHILDREN fresh processes of this program and
 * report the median of their figures against our baseline.  Under TCG a
 * cross-thread round trip depends on where ASLR placed the process's
 * pages (most likely hot pages evicting each other from QEMU's
 * direct-mapped software TLB): one layout in five costs about 40% more,
 * with no system call or other difference, and with ASLR off every run
 * measures the same.  A figure of one process would report
 * that luck; the median of five reports the driver.
 */
#define CHILDREN	5

static int bench_in_children(const char *name, double goal)
{
	char self[4096], cmd[4400], line[512], note[256] = "", cname[64];
	double v[CHILDREN], base[CHILDREN], x, xb;
	ssize_t len;
	int i, n = 0, off;
	FILE *f;

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		perror("bench: readlink /proc/self/exe");
		return 1;
	}
	self[len] = '\0';
	snprintf(cmd, sizeof(cmd), "ASCEND_BENCH_CHILD=1 ASCEND_BENCH_ONLY=%s '%s'",
		 name, self);
	for (i = 0; i < CHILDREN; i++) {
		f = popen(cmd, "r");
		if (!f) {
			perror("bench: popen");
			return 1;
		}
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "CHILD %63s %lf %lf %n", cname, &x, &xb, &off) < 3 ||
			    strcmp(cname, name) || n == CHILDREN)
				continue;
			snprintf(note, sizeof(note), "%s", line + off);
			note[strcspn(note, "\n")] = '\0';
			if (x >= 0 && xb > 0) {
				v[n] = x;
				base[n++] = xb;	/* its own, timed next to it */
			}
		}
		pclose(f);
	}
	if (!n && note[0]) {	/* "not available": pass the reason on */
		emit(name, -1, "ns", base_ns, "ns/no-op ioctl", goal, "max", "%s", note);
		return 0;
	}
	if (!n) {
		progress("%s: no child process reported a figure", name);
		return 1;
	}
	emit(name, median(v, n), "ns", median(base, n), "ns/no-op ioctl", goal, "max",
	     "%s; median of %d processes (fresh address-space layouts)", note, n);
	return 0;
}

/* ---- curves: cost as the work grows (issue 19) ------------------------ */

/*
 * A curve is a series of figures named "<series>@<x>", one per point, and
 * for the costs that must stay flat a "<series>_growth" figure: the cost
 * at the last point over the cost at the first (goal <= 1.5).
 */
static const size_t cv_sizes[] = {
	4, 64, 4096, 64u << 10, 1u << 20, 16u << 20, 64u << 20, 256u << 20,
};
#define CV_NSIZES	(sizeof(cv_sizes) / sizeof(cv_sizes[0]))

enum { CV_H2D_PIN, CV_D2H_PIN, CV_H2D_PAGE, CV_D2H_PAGE, CV_D2D, CV_MEMSET, CV_2D,
       CV_BATCH, CV_KINDS };

static const struct {
	const char *series;
	const char *what;
	double goal;	/* at >= 64 MiB, where the 64 MiB figures have one */
} cv_kind[CV_KINDS] = {
	{ "h2d_pinned_bandwidth", "aclrtMemcpy pinned host to device", 0.8 },
	{ "d2h_pinned_bandwidth", "aclrtMemcpy device to pinned host", 0.8 },
	{ "h2d_pageable_bandwidth", "aclrtMemcpy malloc memory to device", 0.6 },
	{ "d2h_pageable_bandwidth", "aclrtMemcpy device to malloc memory", 0.6 },
	{ "d2d_bandwidth", "aclrtMemcpy device to device", 0.8 },
	{ "memset_bandwidth", "aclrtMemset", 0.8 },
	{ "copy2d_bandwidth", "aclrtMemcpy2dAsync D2D + sync", -1 },
	{ "batch_bandwidth", "aclrtMemcpyBatchAsync D2H pinned + sync", -1 },
};

struct cv_bufs {
	size_t size;
	char *ha, *hb, *hp, *da, *db;	/* db: size * 5/4, the 2D source */
	size_t w, h, pitch;		/* the 2D shape */
	void **dsts, **srcs;		/* the batch: entries of <= 4 KiB */
	size_t *sizes, n;
	aclrtStream s;
};

static aclError cv_op(int kind, struct cv_bufs *b)
{
	aclrtMemcpyBatchAttr attr;
	size_t S = b->size, idx = 0, fi;
	aclError r;

	switch (kind) {
	case CV_H2D_PIN:
		return aclrtMemcpy(b->db, S, b->hp, S, ACL_MEMCPY_HOST_TO_DEVICE);
	case CV_D2H_PIN:
		return aclrtMemcpy(b->hp, S, b->db, S, ACL_MEMCPY_DEVICE_TO_HOST);
	case CV_H2D_PAGE:
		return aclrtMemcpy(b->db, S, b->ha, S, ACL_MEMCPY_HOST_TO_DEVICE);
	case CV_D2H_PAGE:
		return aclrtMemcpy(b->hb, S, b->db, S, ACL_MEMCPY_DEVICE_TO_HOST);
	case CV_D2D:
		return aclrtMemcpy(b->da, S, b->db, S, ACL_MEMCPY_DEVICE_TO_DEVICE);
	case CV_MEMSET:
		return aclrtMemset(b->da, S, 0x6d, S);
	case CV_2D:
		r = aclrtMemcpy2dAsync(b->da, b->w, b->db, b->pitch, b->w, b->h,
				       ACL_MEMCPY_DEVICE_TO_DEVICE, b->s);
		return r ? r : aclrtSynchronizeStream(b->s);
	default:
		memset(&attr, 0, sizeof(attr));
		attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
		attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		r = aclrtMemcpyBatchAsync(b->dsts, b->sizes, b->srcs, b->sizes, b->n, &attr,
					  &idx, 1, &fi, b->s);
		return r ? r : aclrtSynchronizeStream(b->s);
	}
}

/* Operations per timed batch: enough bytes to time, few for big sizes. */
static int cv_ops(size_t size, size_t bytes, int most)
{
	size_t n = bytes / size;

	return n < 1 ? 1 : n > (size_t)most ? most : (int)n;
}

/* Batches after the warm-up one: fewer for the big sizes. */
static int cv_batches(size_t size)
{
	return size >= (64u << 20) ? 3 : 5;
}

/* Median ns of one host memcpy (@src) or memset (@src NULL) of @size. */
static double cv_host_ns(char *dst, const char *src, size_t size)
{
	int n = cv_ops(size, 16u << 20, 20000), nb = cv_batches(size), b, i;
	double per[5];
	uint64_t t0;

	for (b = -1; b < nb; b++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			if (src)
				memcpy(dst, src, size);
			else
				memset(dst, 0x40 + i, size);
			__asm__ __volatile__("" : : "r"(dst) : "memory");
		}
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / n;
	}
	return median(per, nb);
}

/* Median ns of one operation @kind of b->size; < 0 with *@err on failure. */
static double cv_dev_ns(int kind, struct cv_bufs *b, aclError *err)
{
	int n = cv_ops(b->size, 1u << 20, 100), nb = cv_batches(b->size), k, i;
	double per[5];
	uint64_t t0;

	for (k = -1; k < nb; k++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			*err = cv_op(kind, b);
			if (*err)
				return -1;
		}
		if (k >= 0)
			per[k] = (double)(now_ns() - t0) / n;
	}
	return median(per, nb);
}

static void cv_free(struct cv_bufs *b)
{
	if (b->hp)
		aclrtFreeHost(b->hp);
	aclrtFree(b->da);
	aclrtFree(b->db);
	free(b->ha);
	free(b->hb);
	free(b->dsts);
	free(b->srcs);
	free(b->sizes);
	b->ha = b->hb = b->hp = b->da = b->db = NULL;
	b->dsts = b->srcs = NULL;
	b->sizes = NULL;
}

static aclError cv_alloc(struct cv_bufs *b, size_t S)
{
	size_t e = S < 4096 ? S : 4096, i, span;
	aclError r;

	b->size = S;
	/* 2D: rows of S/64 (16 KiB at most) at a pitch of 5/4 of a row */
	b->w = S <= 64 ? S : S / 64 < 64 ? 64 : S / 64 > (16u << 10) ? 16u << 10 : S / 64;
	b->h = S / b->w;
	b->pitch = b->w + b->w / 4;
	span = b->pitch * b->h;
	b->n = S / e;
	b->ha = malloc(S);
	b->hb = malloc(S);
	b->dsts = calloc(b->n, sizeof(void *));
	b->srcs = calloc(b->n, sizeof(void *));
	b->sizes = calloc(b->n, sizeof(size_t));
	if (!b->ha || !b->hb || !b->dsts || !b->srcs || !b->sizes)
		return ACL_ERROR_BAD_ALLOC;
	memset(b->ha, 0xa1, S);
	memset(b->hb, 0, S);
	r = aclrtMallocHost((void **)&b->hp, S);
	if (!r)
		r = aclrtMalloc((void **)&b->da, S, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!r)
		r = aclrtMalloc((void **)&b->db, span > S ? span : S, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r)
		return r;
	memset(b->hp, 0x5a, S);
	/* every byte any copy reads is written, so the emulator backs it */
	r = aclrtMemset(b->db, span > S ? span : S, 0x3c, span > S ? span : S);
	if (!r)
		r = aclrtMemset(b->da, S, 0x3d, S);
	for (i = 0; i < b->n; i++) {
		b->dsts[i] = b->hp + i * e;
		b->srcs[i] = b->db + i * e;
		b->sizes[i] = e;
	}
	return r;
}

/* Room for the buffers of one size (about 3 S of host memory, 2.25 S of backed HBM)? */
static bool cv_fits(size_t S)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return pages > 0 && (double)pages * psz > 6.0 * S;
}

static int bench_copy_curves(void)
{
	static double dev[CV_KINDS][CV_NSIZES], hcp[CV_NSIZES], hset[CV_NSIZES];
	static aclError err[CV_KINDS][CV_NSIZES];
	static bool skipped[CV_NSIZES];
	struct cv_bufs b;
	unsigned int z;
	int kind;
	aclError r;

	memset(&b, 0, sizeof(b));
	r = aclrtCreateStream(&b.s);
	if (r)
		return fail("aclrtCreateStream", r);
	for (z = 0; z < CV_NSIZES; z++) {
		size_t S = cv_sizes[z];
		uint64_t t0 = now_ns();

		if (!cv_fits(S)) {
			skipped[z] = true;
			progress("copy curves: %zu bytes skipped: too little free memory", S);
			continue;
		}
		r = cv_alloc(&b, S);
		if (r)
			return fail("copy curve set-up", r);
		hcp[z] = cv_host_ns(b.hb, b.ha, S);
		hset[z] = cv_host_ns(b.hb, NULL, S);
		for (kind = 0; kind < CV_KINDS; kind++) {
			dev[kind][z] = cv_dev_ns(kind, &b, &err[kind][z]);
			if (err[kind][z] && !not_supported(err[kind][z]))
				return fail(cv_kind[kind].what, err[kind][z]);
		}
		cv_free(&b);
		progress("copy curves: %zu bytes in %.2f s", S, (now_ns() - t0) / 1e9);
	}
	aclrtDestroyStream(b.s);

	for (kind = 0; kind < CV_KINDS; kind++) {
		for (z = 0; z < CV_NSIZES; z++) {
			size_t S = cv_sizes[z];
			double host = kind == CV_MEMSET ? hset[z] : hcp[z];
			double goal = S >= (64u << 20) ? cv_kind[kind].goal : -1;
			char name[64];

			snprintf(name, sizeof(name), "%s@%zu", cv_kind[kind].series, S);
			if (skipped[z]) {
				emit(name, -1, "MiB/s", -1, "MiB/s", goal, "min",
				     "not measured: the VM has too little free memory for %zu MiB buffers (make bench gives it 3 GiB)",
				     S >> 20);
				continue;
			}
			if (err[kind][z]) {
				emit(name, -1, "MiB/s", S / (hcp[z] / NS_PER_SEC) / (1 << 20), "MiB/s",
				     goal, "min", "not available: %s returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT",
				     cv_kind[kind].what);
				continue;
			}
			emit(name, S / (dev[kind][z] / NS_PER_SEC) / (1 << 20), "MiB/s",
			     S / (host / NS_PER_SEC) / (1 << 20),
			     kind == CV_MEMSET ? "MiB/s guest memset" : "MiB/s guest memcpy",
			     goal, "min", "%s of %zu bytes: %.0f ns; guest %s: %.0f ns%s",
			     cv_kind[kind].what, S, dev[kind][z],
			     kind == CV_MEMSET ? "memset" : "memcpy", host,
			     kind == CV_2D ? " (rows of 1/64, at most 16 KiB, pitch 5/4 row)" :
			     kind == CV_BATCH ? " (entries of 4 KiB at most)" : "");
		}
	}
	return 0;
}

/* ---- aclrtMalloc + aclrtFree against live allocations ------------------ */

static const int ml_counts[] = { 0, 1000, 10000, 100000 };
#define ML_NPOINTS	(sizeof(ml_counts) / sizeof(ml_counts[0]))
#define ML_BUDGET_NS	(90 * 1000000000ull)	/* for building the live set */

static double pair_ns(aclError *err)
{
	double per[PAIR_BATCHES];
	uint64_t t0;
	void *p;
	int b, i;

	for (b = -1; b < PAIR_BATCHES; b++) {
		t0 = now_ns();
		for (i = 0; i < PAIR_BATCH; i++) {
			*err = aclrtMalloc(&p, PAIR_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
			if (!*err)
				*err = aclrtFree(p);
			if (*err)
				return -1;
		}
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / PAIR_BATCH;
	}
	return median(per, PAIR_BATCHES);
}

/*
 * The live set grows to each point (measured on the way up), then shrinks
 * back through them (measured again): a drift of the host hits both
 * passes differently, and the figure is the lower of the two medians.
 */
static int bench_malloc_curve(void)
{
	double up[ML_NPOINTS], down[ML_NPOINTS], v[ML_NPOINTS];
	double build_s[ML_NPOINTS] = { 0 };
	int n = 0, last = (int)ML_NPOINTS;
	uint64_t t0 = now_ns();
	int z;
	char name[64];
	void **live;
	aclError r;

	live = calloc(ml_counts[ML_NPOINTS - 1], sizeof(void *));
	if (!live)
		return fail("calloc", ACL_ERROR_BAD_ALLOC);
	for (z = 0; z < (int)ML_NPOINTS; z++) {
		uint64_t tb = now_ns();

		while (n < ml_counts[z] && now_ns() - t0 < ML_BUDGET_NS) {
			r = aclrtMalloc(&live[n], PAIR_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
			if (r)
				return fail("aclrtMalloc (live set)", r);
			n++;
		}
		build_s[z] = (now_ns() - tb) / 1e9;
		if (n < ml_counts[z]) {		/* O(n) or worse: say so, do not hang */
			last = z;
			progress("malloc curve: only %d live allocations in %.0f s", n,
				 ML_BUDGET_NS / 1e9);
			break;
		}
		up[z] = pair_ns(&r);
		if (r)
			return fail("aclrtMalloc+aclrtFree", r);
	}
	for (z = last - 1; z >= 0; z--) {
		while (n > ml_counts[z])
			aclrtFree(live[--n]);
		down[z] = pair_ns(&r);
		if (r)
			return fail("aclrtMalloc+aclrtFree", r);
		v[z] = up[z] < down[z] ? up[z] : down[z];
	}
	while (n > 0)
		aclrtFree(live[--n]);
	free(live);
	for (z = 0; z < (int)ML_NPOINTS; z++) {
		snprintf(name, sizeof(name), "malloc_free_live@%d", ml_counts[z]);
		if (z >= last)
			emit(name, -1, "ns", base_ns, "ns/no-op ioctl", -1, "max",
			     "not measured: building the live set took longer than %.0f s",
			     ML_BUDGET_NS / 1e9);
		else
			emit(name, v[z], "ns", base_ns, "ns/no-op ioctl", -1, "max",
			     "aclrtMalloc(4 KiB, HUGE_FIRST)+aclrtFree with %d other 4 KiB allocations live, %d batches of %d; the lower median of the way up (%.0f ns) and down (%.0f ns); the live set's last %d took %.2f s to make",
			     ml_counts[z], PAIR_BATCHES, PAIR_BATCH, up[z], down[z],
			     ml_counts[z] - (z ? ml_counts[z - 1] : 0), build_s[z]);
	}
	if (last == (int)ML_NPOINTS)
		emit("malloc_free_live_growth", v[ML_NPOINTS - 1], "ns", v[1], "ns at 1000 live",
		     1.5, "max", "pair cost with %d live / with %d live", ml_counts[ML_NPOINTS - 1],
		     ml_counts[1]);
	else
		emit("malloc_free_live_growth", -1, "ns", -1, "ns at 1000 live", 1.5, "max",
		     "not measured: the live set could not be built in time");
	return 0;
}

/* ---- the CPU time the device side burns --------------------------------- */

/*
 * On-CPU ns of the emulated device's threads (ascend<N>-cp, -aicN, -dmaN):
 * the first field of /proc/<pid>/schedstat.  Work the driver does in the
 * caller's context (ioctls, inline copies) is the caller's, and work items
 * of the ascend<N>-host workqueue run in kworkers: neither is counted here.
 */
static double dev_cpu_ns(int *threads)
{
	char path[300], comm[32];
	unsigned long long ns;
	struct dirent *d;
	double sum = 0;
	DIR *dir;
	FILE *f;

	*threads = 0;
	dir = opendir("/proc");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f) || strncmp(comm, "ascend", 6) ||
		    !strchr(comm, '-')) {
			fclose(f);
			continue;
		}
		fclose(f);
		snprintf(path, sizeof(path), "/proc/%s/schedstat", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &ns) == 1) {
			sum += (double)ns;
			(*threads)++;
		}
		fclose(f);
	}
	closedir(dir);
	return sum;
}

/* Busy and total jiffies of the whole VM, from the "cpu" line of /proc/stat. */
static void vm_cpu(double *busy, double *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*busy = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (int i = 0; i < 8; i++)
			*total += (double)v[i];
		*busy = *total - v[3] - v[4];	/* less idle and iowait */
	}
	fclose(f);
}

#define IDLE_WINDOW_US	1000000

/* CPU-seconds per second the device threads burn over a quiet second. */
static double dev_idle_cpu(double *vm_busy, int *threads)
{
	double c0, c1, b0, b1, t0, t1;
	uint64_t w0;

	usleep(300000);		/* past the command processor's poll_us */
	vm_cpu(&b0, &t0);
	c0 = dev_cpu_ns(threads);
	w0 = now_ns();
	usleep(IDLE_WINDOW_US);
	c1 = dev_cpu_ns(threads);
	vm_cpu(&b1, &t1);
	*vm_busy = t1 > t0 ? (b1 - b0) / (t1 - t0) * sysconf(_SC_NPROCESSORS_ONLN) : -1;
	return c0 < 0 ? -1 : (c1 - c0) / (double)(now_ns() - w0);
}

/* ---- enqueue cost against busy streams ------------------------------------ */

static const int st_counts[] = { 1, 16, 256, 1983 };	/* 1983 + the default: CANN's 1984 */
#define ST_NPOINTS	(sizeof(st_counts) / sizeof(st_counts[0]))
#define ST_BATCH	1000
#define ST_BATCHES	7
#define ST_GATE_US	150000

/*
 * N streams, all held by a device-side wait (aclrtStreamWaitEvent) on an
 * event recorded behind a Spin on the default stream: every one has work
 * queued that cannot run.  Each batch enqueues ST_BATCH trivial launches on
 * one of them (another one each batch) and times the calls only.  Median
 * ns per launch; < 0 on failure.
 */
static double st_point(const struct kern *k, aclrtStream *ss, int n, aclrtEvent ev,
		       double *doorbells, double *worst_ms)
{
	aclrtStream gate = NULL;	/* the default stream */
	double per[ST_BATCHES];
	struct counts c0 = counts_now();
	uint64_t t0, t;
	aclError r;
	int b, i;

	for (b = -1; b < ST_BATCHES; b++) {
		aclrtStream tgt = ss[(b + 1) % n];

		r = launch_spin(gate, ST_GATE_US);
		if (!r)
			r = aclrtRecordEvent(ev, gate);
		for (i = 0; i < n && !r; i++)
			r = aclrtStreamWaitEvent(ss[i], ev);
		if (r)
			return fail("holding the streams", r), -1;
		if (b == 0)
			c0 = counts_now();
		t0 = now_ns();
		for (i = 0; i < ST_BATCH && !r; i++)
			r = launch(k, tgt);
		t = now_ns() - t0;
		if (r)
			return fail("aclrtLaunchKernel", r), -1;
		r = aclrtSynchronizeDevice();
		if (r)
			return fail("aclrtSynchronizeDevice", r), -1;
		if (b >= 0)
			per[b] = (double)t / ST_BATCH;
		if (t / 1e6 > *worst_ms)
			*worst_ms = t / 1e6;
	}
	*doorbells = (double)counts_since(c0).doorbell / (ST_BATCHES * ST_BATCH);
	return median(per, ST_BATCHES);
}

/*
 * The device's pace with N streams: all held behind the gate as above, each
 * gets DT_OPS / N trivial launches (at least one) and an end event; the
 * device time from the gate's opening (event @a) to the latest end event,
 * per launch.  Median ns of DT_REPS; < 0 on failure.  The figure is the
 * device's own pace only if every command was queued before the gate
 * opened: a repetition whose enqueue took more than half the gate is done
 * again with a gate twice as long (1983 streams took 30-200 ms to enqueue,
 * against a gate of 100 ms).
 */
#define DT_OPS		1000	/* fits one ring when N is 1 */
#define DT_REPS		3
#define DT_GATE_US	100000
#define DT_GATE_MAX_US	3200000

static double st_device(const struct kern *k, aclrtStream *ss, int n, aclrtEvent ev,
			aclrtEvent a, aclrtEvent *ends, int *ops)
{
	int per = DT_OPS / n ? DT_OPS / n : 1, rep, i, j;
	static uint64_t gate_us = DT_GATE_US;
	double v[DT_REPS];
	uint64_t t0, t;
	aclError r;
	float ms;

	for (i = 0; i < n; i++) {
		if (!ends[i] && (r = aclrtCreateEvent(&ends[i])))
			return fail("aclrtCreateEvent", r), -1;
	}
	*ops = per * n;
	for (rep = 0; rep < DT_REPS; rep++) {
		t0 = now_ns();
		r = launch_spin(NULL, gate_us);
		if (!r)
			r = aclrtRecordEvent(a, NULL);
		if (!r)
			r = aclrtRecordEvent(ev, NULL);
		for (i = 0; i < n && !r; i++) {
			r = aclrtStreamWaitEvent(ss[i], ev);
			for (j = 0; j < per && !r; j++)
				r = launch(k, ss[i]);
			if (!r)
				r = aclrtRecordEvent(ends[i], ss[i]);
		}
		t = now_ns() - t0;
		if (!r)
			r = aclrtSynchronizeDevice();
		if (!r && t / 1000 > gate_us / 2 && gate_us < DT_GATE_MAX_US) {
			gate_us *= 2;
			progress("device pace, %d streams: the enqueue took %.0f ms; gate now %.0f ms",
				 n, t / 1e6, gate_us / 1e3);
			rep--;
			continue;
		}
		v[rep] = 0;
		for (i = 0; i < n && !r; i++) {
			r = aclrtEventElapsedTime(&ms, a, ends[i]);
			if (!r && ms * 1e6 > v[rep])
				v[rep] = ms * 1e6;
		}
		if (r)
			return fail("device pace with busy streams", r), -1;
		v[rep] /= *ops;
	}
	return median(v, DT_REPS);
}

/*
 * The enqueue cost against busy streams: measured as the streams are
 * created (with the device threads' CPU time over a quiet second with them
 * open and idle), and again as they are destroyed; the figure is the lower
 * of the two medians, so that a drift of the host does not make a slope.
 */
static int bench_stream_curve(const struct kern *k)
{
	double up[ST_NPOINTS], down[ST_NPOINTS], v[ST_NPOINTS], idle[ST_NPOINTS];
	double vmb[ST_NPOINTS], db[ST_NPOINTS], dev[ST_NPOINTS], dbd, worst_ms = 0;
	int made = 0, threads = 0, ops[ST_NPOINTS], cmds[ST_NPOINTS], i, n, z;
	double cmd_ns[ST_NPOINTS];
	aclrtEvent ev = NULL, a = NULL, *ends;
	aclrtStream *ss;
	char name[64];
	aclError r;

	if (!spin_fn) {
		for (z = 0; z < (int)ST_NPOINTS; z++) {
			snprintf(name, sizeof(name), "async_enqueue_streams@%d", st_counts[z]);
			emit(name, -1, "ns", base_ns, "ns/no-op ioctl", -1, "max",
			     "not available: the device has no Spin kernel to hold the streams");
			snprintf(name, sizeof(name), "device_cpu_idle@%d", st_counts[z]);
			emit(name, -1, "CPU-s/s", 1, "CPU", -1, "max", "not available: no Spin");
			snprintf(name, sizeof(name), "device_per_op_streams@%d", st_counts[z]);
			emit(name, -1, "ns", base_ns, "ns/no-op ioctl", -1, "max", "not available: no Spin");
			snprintf(name, sizeof(name), "device_per_cmd_streams@%d", st_counts[z]);
			emit(name, -1, "ns", base_ns, "ns/no-op ioctl", -1, "max", "not available: no Spin");
		}
		emit("async_enqueue_streams_growth", -1, "ns", -1, "ns", 1.5, "max",
		     "not available: no Spin");
		emit("device_per_cmd_streams_growth", -1, "ns", -1, "ns", 1.5, "max",
		     "not available: no Spin");
		return 0;
	}
	ss = calloc(st_counts[ST_NPOINTS - 1], sizeof(*ss));
	ends = calloc(st_counts[ST_NPOINTS - 1], sizeof(*ends));
	if (!ss || !ends)
		return fail("calloc", ACL_ERROR_BAD_ALLOC);
	/* the gate is the default stream: 1983 others + it are CANN's 1984 */
	r = aclrtCreateEvent(&ev);
	if (!r)
		r = aclrtCreateEvent(&a);
	if (r)
		return fail("stream curve set-up", r);
	for (z = 0; z < (int)ST_NPOINTS; z++) {
		n = st_counts[z];
		while (made < n) {
			r = aclrtCreateStream(&ss[made]);
			if (r) {
				fail("aclrtCreateStream", r);
				progress("stream curve: stopped at %d streams", made);
				goto out;
			}
			made++;
		}
		up[z] = st_point(k, ss, n, ev, &db[z], &worst_ms);
		dev[z] = up[z] < 0 ? -1 : st_device(k, ss, n, ev, a, ends, &ops[z]);
		if (up[z] < 0 || dev[z] < 0) {
			r = ACL_ERROR_INTERNAL_ERROR;
			goto out;
		}
		idle[z] = dev_idle_cpu(&vmb[z], &threads);
		progress("stream curve: %d streams: %.0f ns/op, idle device %.4f CPU-s/s", n, up[z],
			 idle[z]);
	}
	for (z = ST_NPOINTS - 1; z >= 0; z--) {
		n = st_counts[z];
		while (made > n)
			aclrtDestroyStream(ss[--made]);
		down[z] = st_point(k, ss, n, ev, &dbd, &worst_ms);
		if (down[z] < 0) {
			r = ACL_ERROR_INTERNAL_ERROR;
			goto out;
		}
		v[z] = up[z] < down[z] ? up[z] : down[z];
	}
	if (worst_ms * 1000 > ST_GATE_US)
		progress("warning: a batch took %.1f ms, longer than the gate's %d ms Spin",
			 worst_ms, ST_GATE_US / 1000);
	for (z = 0; z < (int)ST_NPOINTS; z++) {
		snprintf(name, sizeof(name), "async_enqueue_streams@%d", st_counts[z]);
		emit(name, v[z], "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "%d x %s on one of %d streams, all held by a device-side event wait, %d batches; the lower median of the way up (%.0f ns) and down (%.0f ns); %.4f doorbells/op (the waits' included)",
		     ST_BATCH, k->name, st_counts[z], ST_BATCHES, up[z], down[z], db[z]);
	}
	emit("async_enqueue_streams_growth", v[ST_NPOINTS - 1], "ns", v[0], "ns with 1 stream",
	     1.5, "max", "enqueue cost with %d busy streams / with 1", st_counts[ST_NPOINTS - 1]);
	for (z = 0; z < (int)ST_NPOINTS; z++) {
		snprintf(name, sizeof(name), "device_per_op_streams@%d", st_counts[z]);
		emit(name, dev[z], "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "device time per %s of %d spread over %d streams held behind a gate, from the gate's event to the latest stream's end event; median of %d",
		     k->name, ops[z], st_counts[z], DT_REPS);
	}
	/*
	 * Per command: with N streams the device also runs each stream's
	 * event wait and end record, 2 N commands beside the launches (3 a
	 * launch at 1983 streams, 1.002 at one).
	 */
	for (z = 0; z < (int)ST_NPOINTS; z++) {
		cmds[z] = ops[z] + 2 * st_counts[z];
		cmd_ns[z] = dev[z] * ops[z] / cmds[z];
		snprintf(name, sizeof(name), "device_per_cmd_streams@%d", st_counts[z]);
		emit(name, cmd_ns[z], "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "device_per_op_streams@%d per command: %d %s, %d event waits, %d end records",
		     st_counts[z], ops[z], k->name, st_counts[z], st_counts[z]);
	}
	emit("device_per_cmd_streams_growth", cmd_ns[ST_NPOINTS - 1], "ns", cmd_ns[0],
	     "ns with 1 stream", 1.5, "max", "the device's time per command with %d busy streams / with 1",
	     st_counts[ST_NPOINTS - 1]);
	for (z = 0; z < (int)ST_NPOINTS; z++) {
		snprintf(name, sizeof(name), "device_cpu_idle@%d", st_counts[z]);
		emit(name, idle[z] < 0 ? -1 : idle[z], "CPU-s/s", 1, "CPU", -1, "max",
		     "on-CPU time of the %d device threads (schedstat) over %.1f s with %d idle streams open (+ the default stream); whole VM busy: %.3f CPU-s/s",
		     threads, IDLE_WINDOW_US / 1e6, st_counts[z], vmb[z]);
	}
	r = 0;
out:
	for (i = 0; i < made; i++)
		aclrtDestroyStream(ss[i]);
	for (i = 0; i < st_counts[ST_NPOINTS - 1]; i++)
		if (ends[i])
			aclrtDestroyEvent(ends[i]);
	aclrtDestroyEvent(ev);
	aclrtDestroyEvent(a);
	free(ends);
	free(ss);
	return r ? 1 : 0;
}

/* ---- device CPU time per operation ---------------------------------------- */

#define DC_BATCH	1000	/* fits a default ring (1024) */
#define DC_BATCHES	4

static int dev_cpu_per_op(const char *name, const struct kern *k, char *dbuf, aclrtStream s)
{
	double c0, c1;
	int threads, b, i;
	aclError r = ACL_SUCCESS;

	usleep(300000);
	c0 = dev_cpu_ns(&threads);
	for (b = 0; b < DC_BATCHES && !r; b++) {
		for (i = 0; i < DC_BATCH && !r; i++)
			r = k ? launch(k, s) : aclrtMemcpyAsync(dbuf + 64, 64, dbuf, 64,
								 ACL_MEMCPY_DEVICE_TO_DEVICE, s);
		if (!r)
			r = aclrtSynchronizeStream(s);
	}
	c1 = dev_cpu_ns(&threads);
	if (r)
		return fail(name, r);
	emit(name, c0 < 0 ? -1 : (c1 - c0) / (DC_BATCHES * DC_BATCH), "ns", base_ns,
	     "ns/no-op ioctl", -1, "max",
	     "on-CPU time of the %d device threads (schedstat) per %s, %d batches of %d + sync",
	     threads, k ? k->name : "64 B aclrtMemcpyAsync D2D", DC_BATCHES, DC_BATCH);
	return 0;
}

static int bench_device_cpu(const struct kern *k)
{
	aclrtStream s = NULL;
	char *d = NULL;
	int ret;

	if (aclrtCreateStream(&s) || aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMemset(d, 4096, 1, 4096))
		return fail("device CPU set-up", ACL_ERROR_RT_MEMORY_ALLOCATION);
	ret = dev_cpu_per_op("device_cpu_per_launch", k, d, s);
	ret |= dev_cpu_per_op("device_cpu_per_copy", NULL, d, s);
	aclrtDestroyStream(s);
	aclrtFree(d);
	return ret;
}

/* ---- enqueue cost against processes sharing the device -------------------- */

static const int pr_counts[] = { 1, 2, 4 };
#define PR_NPOINTS	(sizeof(pr_counts) / sizeof(pr_counts[0]))
#define PR_BATCHES	7
#define PR_SPIN_US	100000
#define PR_RUNS		20

/* In a child (ASCEND_BENCH_ONLY=enqueue_worker): its enqueue figures. */
static int bench_enqueue_worker(const struct kern *k)
{
	double per[PR_BATCHES], cpu[PR_BATCHES];
	struct timespec c0, c1;
	aclrtStream s = NULL;
	uint64_t t0;
	aclError r;
	int b, i;

	r = aclrtCreateStream(&s);
	if (r)
		return fail("aclrtCreateStream", r);
	/*
	 * First, while the processes are still in step: the device's pace,
	 * PR_RUNS x ENQ_BATCH launches each followed by a sync, wall time
	 * per launch from the first call to the last sync.
	 */
	t0 = now_ns();
	for (b = 0; b < PR_RUNS && !r; b++) {
		for (i = 0; i < ENQ_BATCH && !r; i++)
			r = launch(k, s);
		if (!r)
			r = aclrtSynchronizeStream(s);
	}
	if (r)
		return fail("enqueue worker: launch + sync", r);
	emit("device_worker", (double)(now_ns() - t0) / (PR_RUNS * ENQ_BATCH), "ns", base_ns,
	     "ns", -1, "max", "0");
	for (b = -1; b < PR_BATCHES; b++) {
		r = launch_spin(s, PR_SPIN_US);
		if (r)
			return fail("aclrtLaunchKernel(Spin)", r);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		t0 = now_ns();
		for (i = 0; i < ENQ_BATCH && !r; i++)
			r = launch(k, s);
		if (b >= 0)
			per[b] = (double)(now_ns() - t0) / ENQ_BATCH;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		if (b >= 0)
			cpu[b] = ((c1.tv_sec - c0.tv_sec) * 1e9 + (c1.tv_nsec - c0.tv_nsec)) /
				 ENQ_BATCH;
		if (!r)
			r = aclrtSynchronizeStream(s);
		if (r)
			return fail("enqueue worker", r);
	}
	aclrtDestroyStream(s);
	emit("enqueue_worker", median(per, PR_BATCHES), "ns", base_ns, "ns", -1, "max",
	     "%.1f", median(cpu, PR_BATCHES));
	return 0;
}

static int bench_procs_curve(void)
{
	double v[PR_NPOINTS], cpu[PR_NPOINTS], thr[PR_NPOINTS], x, c, vals[4], cpus[4];
	double dthr[PR_NPOINTS];
	char self[4096], cmd[4600], line[512], cname[64];
	int start[2], ready[2], i, got, n;
	FILE *f[4];
	unsigned int z;
	ssize_t len;
	char name[64];

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0 || !spin_fn || pipe(start) || pipe(ready)) {
		perror("bench: enqueue against processes");
		return 1;
	}
	self[len] = '\0';
	snprintf(cmd, sizeof(cmd),
		 "ASCEND_BENCH_CHILD=1 ASCEND_BENCH_ONLY=enqueue_worker ASCEND_BENCH_START_FD=%d ASCEND_BENCH_READY_FD=%d '%s'",
		 start[0], ready[1], self);
	for (z = 0; z < PR_NPOINTS; z++) {
		n = pr_counts[z];
		for (i = 0; i < n; i++) {
			f[i] = popen(cmd, "r");
			if (!f[i]) {
				perror("bench: popen");
				return 1;
			}
		}
		/* all initialised, then all at once */
		for (i = 0; i < n; i++) {
			struct pollfd pfd = { .fd = ready[0], .events = POLLIN };
			char ch;

			if (poll(&pfd, 1, 60000) != 1 || read(ready[0], &ch, 1) != 1) {
				progress("enqueue against processes: a child did not start");
				return 1;
			}
		}
		if (write(start[1], "gogo", n) != n)
			return 1;
		got = 0;
		thr[z] = dthr[z] = 0;
		for (i = 0; i < n; i++) {
			while (fgets(line, sizeof(line), f[i])) {
				/* CHILD name value baseline note; the note is a number here */
				if (sscanf(line, "CHILD %63s %lf %*f %lf", cname, &x, &c) != 3 ||
				    x <= 0)
					continue;
				if (!strcmp(cname, "device_worker")) {
					dthr[z] += 1e9 / x;
				} else if (!strcmp(cname, "enqueue_worker") && got < 4) {
					vals[got] = x;
					cpus[got++] = c;
					thr[z] += 1e9 / x;
				}
			}
			pclose(f[i]);
		}
		if (got != n || dthr[z] <= 0) {
			progress("enqueue against processes: %d of %d children reported", got, n);
			return 1;
		}
		v[z] = median(vals, n);
		cpu[z] = median(cpus, n);
	}
	close(start[0]);
	close(start[1]);
	close(ready[0]);
	close(ready[1]);
	for (z = 0; z < PR_NPOINTS; z++) {
		snprintf(name, sizeof(name), "async_enqueue_procs@%d", pr_counts[z]);
		emit(name, v[z], "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "%d processes on one device, each %d x %d trivial launches behind a %d ms Spin at the same time; median of their medians; CPU time %.0f ns/op; together %.0f k launches/s (the VM has %ld vCPUs)",
		     pr_counts[z], PR_BATCHES, ENQ_BATCH, PR_SPIN_US / 1000, cpu[z],
		     thr[z] / 1e3, sysconf(_SC_NPROCESSORS_ONLN));
	}
	for (z = 0; z < PR_NPOINTS; z++) {
		snprintf(name, sizeof(name), "device_per_op_procs@%d", pr_counts[z]);
		emit(name, 1e9 / dthr[z], "ns", base_ns, "ns/no-op ioctl", -1, "max",
		     "%d processes at once, each %d x (%d %s launches + sync): the device's time per launch, all processes together (%.0f k launches/s)",
		     pr_counts[z], PR_RUNS, ENQ_BATCH, spin_fn ? "Spin(0)" : "trivial",
		     dthr[z] / 1e3);
	}
	return 0;
}

/*
 * ASCEND_BENCH_ONLY="name,name": run only these benchmarks (for profiling
 * one of them; make bench runs all).  "bandwidth" selects
 * d2d_copy_bandwidth and memset_bandwidth, "host_copies" the 64 MiB copies.
 */
static bool selected(const char *name)
{
	const char *only = getenv("ASCEND_BENCH_ONLY"), *p;
	size_t n = strlen(name);

	if (!only || !*only)
		return true;
	for (p = only; (p = strstr(p, name)); p += n)
		if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

int main(void)
{
	struct counts c0;
	void *word = NULL;
	struct kern k;
	double base2;
	aclError r;
	int fd, ret = 0;

	if (getenv("ASCEND_BENCH_ATTACKER"))	/* for bench_cross_file_wait() */
		attacker_main(getenv("ASCEND_BENCH_ATTACKER"));
	verbose = getenv("ASCEND_BENCH_VERBOSE") != NULL;
	fd = open_node();
	if (fd < 0)
		return 1;
	/* baseline first, while nothing else runs on the device */
	base_ns = noop_ioctl_ns(fd);
	if (base_ns <= 0)
		return 1;
	progress("no-op ioctl: %.0f ns", base_ns);

	c0 = counts_now();
	r = aclInit(NULL);
	if (r)
		return fail("aclInit", r);
	r = aclrtSetDevice(0);
	if (r)
		return fail("aclrtSetDevice(0)", r);
	counting_works = counts_since(c0).total > 0;
	if (!counting_works)
		progress("warning: drmIoctl interposition saw no ioctl: counts are not available");
	r = aclrtMalloc(&word, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
	if (r)
		return fail("aclrtMalloc", r);
	r = kernels_load(word, &k);
	if (r)
		return fail("loading the built-in kernels", r);
	progress("trivial kernel: %s%s", k.name, spin_fn ? "" : " (no Spin kernel: the stream is busy with the batch itself)");
	if (getenv("ASCEND_BENCH_START_FD")) {	/* bench_procs_curve(): start together */
		char ch = 1;

		if (write(atoi(getenv("ASCEND_BENCH_READY_FD")), &ch, 1) != 1 ||
		    read(atoi(getenv("ASCEND_BENCH_START_FD")), &ch, 1) != 1)
			return 1;
		return bench_enqueue_worker(&k);
	}

	if (selected("malloc_free_pair"))
		ret |= bench_malloc_free();
	if (selected("map_unmap_2m_pair"))
		ret |= bench_map_unmap();
	if (selected("managed_migrate_64m"))
		ret |= bench_managed_migrate();
	if (selected("async_enqueue_per_op"))
		ret |= bench_async_enqueue(&k);
	if (selected("async_copy_enqueue_per_op"))
		ret |= bench_async_copy_enqueue();
	if (selected("device_small_copy_per_op"))
		ret |= bench_device_small_copy();
	if (selected("raw_ring_enqueue_per_op"))
		ret |= bench_raw_ring(fd);
	if (selected("launch_sync_roundtrip"))
		ret |= getenv("ASCEND_BENCH_CHILD") ? bench_launch_sync(&k) :
			bench_in_children("launch_sync_roundtrip", 1.2);
	if (selected("event_record_sync"))
		ret |= getenv("ASCEND_BENCH_CHILD") ? bench_event() :
			bench_in_children("event_record_sync", 1.2);
	if (selected("bandwidth"))
		ret |= bench_bandwidth();
	if (selected("batch_per_entry") || selected("batch_vs_individual"))
		ret |= bench_batch();
	if (selected("copy2d_vs_linear"))
		ret |= bench_copy2d();
	if (selected("memset_64m"))
		ret |= bench_memset64();
	if (selected("host_copies"))
		ret |= bench_host_copies();
	if (selected("stop_latency"))
		ret |= bench_stop_latency();
	if (selected("cross_file_wait"))
		ret |= bench_cross_file_wait();
	if (selected("fair_core_wait"))
		ret |= bench_fair_cores();
	if (selected("graph_replay_per_task"))
		ret |= bench_graph_replay(&k);
	/* the curves (issue 19) */
	if (selected("copy_curves"))
		ret |= bench_copy_curves();
	if (selected("malloc_curve"))
		ret |= bench_malloc_curve();
	if (selected("stream_curve"))
		ret |= bench_stream_curve(&k);
	if (selected("device_cpu"))
		ret |= bench_device_cpu(&k);
	if (selected("procs_curve"))
		ret |= bench_procs_curve();

	/* the baseline again: a drift between the two says the run was noisy */
	base2 = noop_ioctl_ns(fd);
	progress("no-op ioctl at the end: %.0f ns (start: %.0f ns)", base2, base_ns);
	emit("noop_ioctl", base_ns, "ns", base2, "ns at the end of the run", -1, "max",
	     "baseline: DRM_IOCTL_ASCEND_DEV_QUERY(DEVICE_INFO, size 0); ratio = start/end drift");

	aclrtFree(word);
	aclrtResetDevice(0);
	aclFinalize();
	close(fd);
	return ret;
}
