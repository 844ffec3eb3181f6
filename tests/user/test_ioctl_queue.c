// SPDX-License-Identifier: MIT
/*
 * Queues at the raw uAPI level: QUEUE_CREATE/DESTROY/DOORBELL/WAIT argument
 * checks, the NEED_WAKEUP doorbell protocol, launches through the ring with
 * device printf read from the queue area, and hostile rings (bad opcodes,
 * corrupted wptr, wild device pointers) that must fault only their own
 * queue.
 */
#define _GNU_SOURCE
#include "ioctl_util.h"

static uint32_t max_ring_entries(int fd)
{
	struct drm_ascend_device_info info;

	query_info(fd, &info);
	return info.max_ring_entries;
}

TEST(create_destroy_and_layout)
{
	struct queue q;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	CHECK(q.handle != 0);
	CHECK_EQ(q.st->wptr, 0);
	CHECK_EQ(q.st->rptr, 0);
	CHECK_EQ(q.st->completed, 0);
	CHECK_EQ(q.st->fault, ASCEND_FAULT_NONE);
	CHECK_EQ(q.st->flags & ASCEND_QUEUE_STATUS_FAULTED, 0);
	CHECK_EQ(q.st->cmd_size, ASCEND_CMD_SIZE);
	CHECK(q.st->ring_offset >= sizeof(struct ascend_queue_status));
	CHECK(q.st->printf_size > 0);
	CHECK_EQ(q.st->printf_size & (q.st->printf_size - 1), 0);
	CHECK((uint64_t)q.st->ring_offset + (uint64_t)q.entries * ASCEND_CMD_SIZE <=
	      q.map_size);
	CHECK((uint64_t)q.st->printf_offset + q.st->printf_size <= q.map_size);
	/* ring and printf buffer do not overlap */
	CHECK(q.st->printf_offset + q.st->printf_size <= q.st->ring_offset ||
	      q.st->ring_offset + q.entries * ASCEND_CMD_SIZE <= q.st->printf_offset);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(create_explicit_sizes)
{
	uint32_t max, n;
	struct queue q;
	int fd = open_accel();

	max = max_ring_entries(fd);
	for (n = 1; n <= max && n <= 1024; n <<= 2) {
		REQUIRE_OK(queue_create(fd, n, &q));
		CHECK_EQ(q.entries, n);
		CHECK_EQ(queue_destroy(&q, 0), 0);
	}
	REQUIRE_OK(queue_create(fd, max, &q));
	CHECK_EQ(q.entries, max);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(create_bad_ring_entries_einval)
{
	struct drm_ascend_queue_create c;
	uint32_t bad[] = { 3, 5, 6, 100, 1000, 0x80000001u, 0, 0xffffffffu };
	unsigned int i;
	int fd = open_accel();

	bad[6] = max_ring_entries(fd) * 2;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = (struct drm_ascend_queue_create){ .ring_entries = bad[i] };
		CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), EINVAL);
	}
	close(fd);
}

TEST(create_flags_pad_einval)
{
	struct drm_ascend_queue_create c;
	int fd = open_accel();

	c = (struct drm_ascend_queue_create){ .flags = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), EINVAL);
	c = (struct drm_ascend_queue_create){ .flags = 1u << 31 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), EINVAL);
	c = (struct drm_ascend_queue_create){ .pad = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), EINVAL);
	close(fd);
}

/* Map the file's queue activity bitmap (QUEUE_ACTIVITY). */
static uint64_t *activity_map(int fd)
{
	struct drm_ascend_queue_activity a = { 0 };
	void *p;

	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_ACTIVITY, &a));
	REQUIRE(a.mmap_size == DRM_ASCEND_QUEUE_ACTIVITY_SIZE);
	p = mmap(NULL, a.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	REQUIRE(p != MAP_FAILED);
	return p;
}

/* A Spin of @usec on one block, published without ringing or marking. */
static uint64_t publish_spin(int fd, struct queue *q, uint64_t usec)
{
	struct ascend_cmd c;
	uint64_t w = q->st->wptr;

	cmd_launch(&c, kernel_id(fd, "Spin", NULL), 1, &usec, sizeof(usec));
	memcpy(&q->ring[w % q->entries], &c, sizeof(c));
	__atomic_store_n(&q->st->wptr, w + 1, __ATOMIC_RELEASE);
	return w + 1;
}

/*
 * With an activity bitmap a synchronous copy waits for the queues marked in
 * it (or rung), and only for those: a 3 s Spin published and marked is
 * complete when a 4-byte copy after it returns; the same Spin published
 * on a second queue and neither marked nor rung is still running when the
 * copy returns (the file promised to mark what it publishes); a doorbell
 * marks its queue.  The bits of queues found complete are cleared.
 */
TEST(activity_bitmap_scopes_sync_waits)
{
	struct drm_ascend_queue_activity bad = { .pad = 1 };
	struct drm_ascend_queue_wait w;
	struct drm_ascend_bo_create bo;
	uint64_t *act, seq1, seq2, zero = 0, dev;
	struct queue q1, q2;
	int fd = open_accel();

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, 4096, 0, 0, &bo));
	dev = bo.va;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_ACTIVITY, &bad), EINVAL);
	act = activity_map(fd);
	REQUIRE_OK(queue_create(fd, 16, &q1));
	REQUIRE_OK(queue_create(fd, 16, &q2));

	/* marked, not rung: the copy kicks it and waits for it */
	seq1 = publish_spin(fd, &q1, 300000);
	__atomic_fetch_or(&act[q1.handle / 64], 1ULL << (q1.handle % 64), __ATOMIC_SEQ_CST);
	REQUIRE_OK(dev_copy(fd, dev, (uintptr_t)&zero, sizeof(zero)));
	CHECK_EQ(__atomic_load_n(&q1.st->completed, __ATOMIC_ACQUIRE), seq1);
	/* found complete: cleared */
	CHECK_EQ(act[q1.handle / 64] & (1ULL << (q1.handle % 64)), 0);

	/* neither marked nor rung: not waited for (3 s spin, a 4-byte copy) */
	seq2 = publish_spin(fd, &q2, 3000000);
	REQUIRE_OK(dev_copy(fd, dev, (uintptr_t)&zero, sizeof(zero)));
	CHECK(__atomic_load_n(&q2.st->completed, __ATOMIC_ACQUIRE) < seq2);
	/* a doorbell marks it: the next copy waits */
	REQUIRE_OK(queue_doorbell(&q2));
	CHECK(act[q2.handle / 64] & (1ULL << (q2.handle % 64)));
	REQUIRE_OK(dev_copy(fd, dev, (uintptr_t)&zero, sizeof(zero)));
	CHECK_EQ(__atomic_load_n(&q2.st->completed, __ATOMIC_ACQUIRE), seq2);

	/* garbage bits name no queue: ignored */
	act[100] = ~0ULL;
	REQUIRE_OK(dev_copy(fd, dev, (uintptr_t)&zero, sizeof(zero)));
	CHECK_EQ(act[100], 0);
	REQUIRE_OK(queue_wait(&q2, seq2, &w));
	CHECK_EQ(w.fault, 0);
	queue_destroy(&q1, 0);
	queue_destroy(&q2, 0);
	munmap(act, DRM_ASCEND_QUEUE_ACTIVITY_SIZE);
	close(fd);
}

/* sysfs file of a writable module parameter of the driver */
static const char *param_path(const char *name)
{
	static char path[128];
	const char *drv = getenv("ASCEND_DRIVER");

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 drv && *drv ? drv : "ascend", name);
	return path;
}

static long param_read(const char *name)
{
	FILE *f = fopen(param_path(name), "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int param_write(const char *name, long v)
{
	FILE *f = fopen(param_path(name), "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/*
 * The per-user queue share (user_max_queues, lowered to 24 here) binds
 * unprivileged users (tests/user/test_tenant_shares.c); a caller with
 * CAP_SYS_RESOURCE, like root here, is counted but not refused: 30 queues
 * in one file, all counted, the device's bound reported as its limit.
 */
TEST(queue_share_counts_root_without_refusing)
{
	long old = param_read("user_max_queues");
	struct drm_ascend_device_info info;
	struct drm_ascend_queue_create c;
	uint32_t h[30], i;
	int fd = open_accel();

	if (old < 0 || param_write("user_max_queues", 24))
		SKIP("cannot read/write the driver's user_max_queues parameter");
	for (i = 0; i < 30; i++) {
		c = (struct drm_ascend_queue_create){ .ring_entries = 1 };
		CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), 0);
		h[i] = c.handle;
	}
	query_info(fd, &info);
	CHECK_EQ(info.queues_by_user, 30);
	CHECK_EQ(info.max_queues_by_user, (uint32_t)param_read("max_queues"));
	CHECK_EQ(info.max_queues_per_file, info.max_queues_by_user);
	for (i = 0; i < 30; i++) {
		struct drm_ascend_queue_destroy d = { .handle = h[i] };

		CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d), 0);
	}
	query_info(fd, &info);
	CHECK_EQ(info.queues_by_user, 0);
	param_write("user_max_queues", old);
	close(fd);
}

/*
 * The device-wide bound holds across files (processes): with max_queues
 * lowered to 3, two files share three queues, the fourth gets ENOSPC, and a
 * destroyed queue frees its slot for the other file.
 */
TEST(queue_limit_per_device)
{
	long old = param_read("max_queues");
	struct drm_ascend_queue_create c;
	struct drm_ascend_queue_destroy d = { 0 };
	uint32_t h1[2];
	int fd1 = open_accel(), fd2 = open_accel();
	int i;

	if (old < 0 || param_write("max_queues", 3))
		SKIP("cannot read/write the driver's max_queues parameter");
	for (i = 0; i < 2; i++) {
		c = (struct drm_ascend_queue_create){ .ring_entries = 1 };
		CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), 0);
		h1[i] = c.handle;
	}
	c = (struct drm_ascend_queue_create){ .ring_entries = 1 };
	CHECK_EQ(aioctl(fd2, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), 0);
	c = (struct drm_ascend_queue_create){ .ring_entries = 1 };
	CHECK_ERRNO(aioctl(fd2, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), ENOSPC);
	CHECK_ERRNO(aioctl(fd1, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), ENOSPC);

	d.handle = h1[0];
	CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d), 0);
	c = (struct drm_ascend_queue_create){ .ring_entries = 1 };
	CHECK_EQ(aioctl(fd2, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), 0);

	/* closing a file returns its slots */
	close(fd2);
	c = (struct drm_ascend_queue_create){ .ring_entries = 1 };
	CHECK_EQ(aioctl(fd1, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c), 0);
	CHECK_EQ(param_write("max_queues", old), 0);
	close(fd1);
}

TEST(unknown_handle_enoent)
{
	struct drm_ascend_queue_destroy d = { .handle = 0x7777 };
	struct drm_ascend_queue_doorbell b = { .handle = 0x7777 };
	struct drm_ascend_queue_wait w = { .handle = 0x7777, .seq = 1 };
	int fd = open_accel();

	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d), ENOENT);
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &b), ENOENT);
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), ENOENT);
	d.handle = b.handle = w.handle = 0;
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d), ENOENT);
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &b), ENOENT);
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), ENOENT);
	close(fd);
}

TEST(destroyed_and_foreign_handles_enoent)
{
	struct queue q, other;
	struct drm_ascend_queue_doorbell b;
	struct drm_ascend_queue_wait w;
	int fd = open_accel(), fd2 = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	REQUIRE_OK(queue_create(fd2, 0, &other));
	/* Handles are per file: fd2's handle means nothing on fd... */
	if (other.handle != q.handle) {
		b = (struct drm_ascend_queue_doorbell){ .handle = other.handle };
		CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &b), ENOENT);
	}
	/* ...and a destroyed queue is gone. */
	REQUIRE_OK(queue_destroy(&q, 0));
	b = (struct drm_ascend_queue_doorbell){ .handle = q.handle };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &b), ENOENT);
	w = (struct drm_ascend_queue_wait){ .handle = q.handle, .seq = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), ENOENT);
	CHECK_ERRNO(queue_destroy(&q, 0), ENOENT);
	/* fd2's queue is unaffected. */
	b = (struct drm_ascend_queue_doorbell){ .handle = other.handle };
	CHECK_EQ(aioctl(fd2, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &b), 0);
	CHECK_EQ(queue_destroy(&other, 0), 0);
	close(fd);
	close(fd2);
}

TEST(pad_flags_einval)
{
	struct queue q;
	struct drm_ascend_queue_doorbell b;
	struct drm_ascend_queue_wait w;
	struct drm_ascend_queue_destroy d;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	b = (struct drm_ascend_queue_doorbell){ .handle = q.handle, .pad = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DOORBELL, &b), EINVAL);
	w = (struct drm_ascend_queue_wait){ .handle = q.handle, .flags = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), EINVAL);
	w = (struct drm_ascend_queue_wait){ .handle = q.handle, .pad = 1 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), EINVAL);
	d = (struct drm_ascend_queue_destroy){ .handle = q.handle, .flags = 2 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d), EINVAL);
	d = (struct drm_ascend_queue_destroy){ .handle = q.handle, .flags = 1u << 31 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_DESTROY, &d), EINVAL);
	/* still there after all the rejected calls */
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(nop_need_wakeup_protocol)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	struct queue q;
	uint64_t seq = 0;
	int i;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 4, &q));
	cmd_nop(&c);
	/* More commands than ring slots: the ring wraps. */
	for (i = 0; i < 10; i++) {
		seq = queue_submit(&q, &c);
		CHECK_EQ(seq, (uint64_t)i + 1);
		REQUIRE_OK(queue_wait(&q, seq, &w));
		CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
		CHECK(w.completed >= seq);
	}
	CHECK_EQ(__atomic_load_n(&q.st->completed, __ATOMIC_ACQUIRE), seq);
	CHECK_EQ(q.st->rptr, seq);
	CHECK_EQ(q.st->fault, ASCEND_FAULT_NONE);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(wait_poll_and_timeout)
{
	struct drm_ascend_queue_wait w;
	struct queue q;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	/* seq 0 is complete by definition. */
	w = (struct drm_ascend_queue_wait){ .handle = q.handle, .seq = 0 };
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), 0);
	/* Nothing published: a poll (timeout 0) and an expired deadline give ETIME. */
	w = (struct drm_ascend_queue_wait){ .handle = q.handle, .seq = 1, .timeout_ns = 0 };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), ETIME);
	CHECK_EQ(w.completed, 0);
	w = (struct drm_ascend_queue_wait){ .handle = q.handle, .seq = 1,
					    .timeout_ns = deadline_ns(0) };
	CHECK_ERRNO(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), ETIME);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(launch_copy_read_through_ring)
{
	struct drm_ascend_bo_create a, b;
	struct drm_ascend_queue_wait w;
	struct write_args wa;
	struct read_args ra;
	struct ascend_cmd c;
	struct queue q;
	uint32_t kw, kr;
	uint64_t seq;
	char *text;
	int fd = open_accel();

	/* The CANN sample, by hand: write 123 to a, COPY a->b, read b. */
	setup_window(fd);
	kw = kernel_id(fd, "DeviceWrite", NULL);
	kr = kernel_id(fd, "DeviceRead", NULL);
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(bo_create(fd, 1 << 20, DRM_ASCEND_BO_HUGE_FIRST, 0, &b));
	REQUIRE_OK(queue_create(fd, 0, &q));

	wa = (struct write_args){ .p = a.va, .v = 123 };
	cmd_launch(&c, kw, 1, &wa, sizeof(wa));
	queue_submit(&q, &c);
	/* No wait: COPY is ordered after published commands. */
	REQUIRE_OK(dev_copy(fd, b.va, a.va, 1 << 20));
	ra = (struct read_args){ .p = b.va };
	cmd_launch(&c, kr, 1, &ra, sizeof(ra));
	seq = queue_submit(&q, &c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
	text = queue_printf(&q);
	CHECK(strcmp(text, "Source data: 123\nDestination data: 123\n") == 0);
	if (strcmp(text, "Source data: 123\nDestination data: 123\n"))
		printf("#   printf text: \"%s\"\n", text);
	free(text);
	CHECK_EQ(q.st->printf_dropped, 0);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(printf_overflow_drops_whole_messages)
{
	static const char line[] = "Source data: 7\n";
	const uint64_t len = sizeof(line) - 1;
	struct drm_ascend_bo_create a;
	struct drm_ascend_queue_wait w;
	struct write_args wa;
	struct ascend_cmd c;
	struct queue q;
	uint64_t blocks, kept, i;
	uint32_t kw;
	char *text;
	int fd = open_accel();

	/*
	 * Twice the buffer's worth of printf, never consumed: the device
	 * keeps what fits, drops (and counts) the rest, and never overwrites
	 * unconsumed text.
	 */
	setup_window(fd);
	kw = kernel_id(fd, "DeviceWrite", NULL);
	REQUIRE_OK(queue_create(fd, 0, &q));
	blocks = 2 * q.st->printf_size / len + 1;
	REQUIRE_OK(bo_create(fd, blocks * sizeof(int), DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	wa = (struct write_args){ .p = a.va, .v = 7 };
	cmd_launch(&c, kw, (uint32_t)blocks, &wa, sizeof(wa));
	REQUIRE_OK(queue_wait(&q, queue_submit(&q, &c), &w));
	CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
	kept = q.st->printf_head - q.st->printf_tail;
	CHECK(kept <= q.st->printf_size);
	CHECK_EQ(kept + q.st->printf_dropped, blocks * len);
	CHECK_EQ(kept % len, 0);
	text = queue_printf(&q);
	for (i = 0; i + len <= kept; i += len)
		if (memcmp(text + i, line, len)) {
			CHECK(!"printf text corrupted");
			printf("#   at byte %" PRIu64 ": \"%.*s\"\n", i, (int)len, text + i);
			break;
		}
	free(text);
	/* After consuming, new text gets in again. */
	cmd_launch(&c, kw, 1, &wa, sizeof(wa));
	REQUIRE_OK(queue_wait(&q, queue_submit(&q, &c), &w));
	text = queue_printf(&q);
	CHECK(strcmp(text, line) == 0);
	free(text);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

/* Submit @c on @q and wait: the queue must fault with @fault. */
static void expect_fault(struct queue *q, const struct ascend_cmd *c, uint32_t fault)
{
	struct drm_ascend_queue_wait w;
	uint64_t seq = queue_submit(q, c);

	CHECK_EQ(queue_wait(q, seq, &w), 0);
	CHECK_EQ(w.fault, fault);
	CHECK(w.completed < seq);
	CHECK_EQ(__atomic_load_n(&q->st->fault, __ATOMIC_ACQUIRE), fault);
	CHECK(q->st->flags & ASCEND_QUEUE_STATUS_FAULTED);
	CHECK_EQ(q->st->fault_seq, seq);
	CHECK_EQ(q->st->fault_opcode, c->opcode);
}

/* A NOP on @q completes. */
static void expect_healthy(struct queue *q)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	uint64_t seq;

	cmd_nop(&c);
	seq = queue_submit(q, &c);
	CHECK_EQ(queue_wait(q, seq, &w), 0);
	CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
	CHECK(w.completed >= seq);
}

TEST(garbage_opcode_faults_only_its_queue)
{
	struct queue bad, good;
	struct ascend_cmd c;
	struct drm_ascend_queue_wait w;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &bad));
	REQUIRE_OK(queue_create(fd, 0, &good));
	memset(&c, 0xa5, sizeof(c));
	c.opcode = 0xdead;
	expect_fault(&bad, &c, ASCEND_FAULT_BAD_COMMAND);
	expect_healthy(&good);
	/* Later waits on the faulted queue return the fault at once. */
	w = (struct drm_ascend_queue_wait){ .handle = bad.handle, .seq = 1000,
					    .timeout_ns = DRM_ASCEND_TIMEOUT_INFINITE };
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), 0);
	CHECK_EQ(w.fault, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&bad, 0), 0);
	CHECK_EQ(queue_destroy(&good, 0), 0);
	close(fd);
}

TEST(bad_command_fields_fault)
{
	struct queue q;
	struct ascend_cmd c;
	struct write_args wa = { 0 };
	struct drm_ascend_bo_create a;
	uint32_t kw;
	int fd = open_accel();

	setup_window(fd);
	kw = kernel_id(fd, "DeviceWrite", NULL);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	wa.p = a.va;

	/* NOP with flags */
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_nop(&c);
	c.flags = 1;
	expect_fault(&q, &c, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&q, 0), 0);

	/* NOP with reserved bits */
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_nop(&c);
	c.reserved = 1;
	expect_fault(&q, &c, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&q, 0), 0);

	/* unknown kernel id */
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_launch(&c, 0xfffff, 1, &wa, sizeof(wa));
	expect_fault(&q, &c, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&q, 0), 0);

	/* zero blocks */
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_launch(&c, kw, 0, &wa, sizeof(wa));
	expect_fault(&q, &c, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&q, 0), 0);

	/* args_size too small, and beyond the slot */
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_launch(&c, kw, 1, &wa, 4);
	expect_fault(&q, &c, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_launch(&c, kw, 1, &wa, sizeof(wa));
	c.launch.args_size = ASCEND_LAUNCH_ARGS_MAX + 1;
	expect_fault(&q, &c, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&q, 0), 0);

	/* a non-zero payload byte past the launch structure */
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_launch(&c, kw, 1, &wa, sizeof(wa));
	c.launch.args[ASCEND_LAUNCH_ARGS_MAX - 1] = 0;
	c.reserved = 1;
	expect_fault(&q, &c, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(wptr_far_beyond_faults_ring)
{
	struct drm_ascend_queue_wait w;
	struct queue q, good;
	uint64_t wptr;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 4, &q));
	REQUIRE_OK(queue_create(fd, 0, &good));
	wptr = q.st->rptr + q.entries + 5;
	queue_publish(&q, wptr);
	/* Make sure the device looks even if it claims to be awake. */
	CHECK_EQ(queue_doorbell(&q), 0);
	CHECK_EQ(queue_wait(&q, wptr, &w), 0);
	CHECK_EQ(w.fault, ASCEND_FAULT_RING);
	CHECK_EQ(q.st->fault, ASCEND_FAULT_RING);
	CHECK(q.st->flags & ASCEND_QUEUE_STATUS_FAULTED);
	expect_healthy(&good);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	CHECK_EQ(queue_destroy(&good, 0), 0);
	close(fd);
}

TEST(wptr_moved_backwards_faults_ring)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c;
	struct queue q;
	uint64_t seq;
	int i;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 8, &q));
	cmd_nop(&c);
	for (i = 0; i < 4; i++)
		seq = queue_submit(&q, &c);
	REQUIRE_OK(queue_wait(&q, seq, &w));
	REQUIRE(w.fault == ASCEND_FAULT_NONE);
	/* wptr behind rptr: corrupted by user space. */
	queue_publish(&q, 1);
	CHECK_EQ(queue_doorbell(&q), 0);
	w = (struct drm_ascend_queue_wait){ .handle = q.handle, .seq = seq + 1,
					    .timeout_ns = deadline_ns(30) };
	CHECK_EQ(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w), 0);
	CHECK_EQ(w.fault, ASCEND_FAULT_RING);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

static int queue_reset(struct queue *q)
{
	struct drm_ascend_queue_reset r = { .handle = q->handle };

	return aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r);
}

/*
 * QUEUE_RESET discards what was published: rptr and completed jump to the
 * wptr when it is a plausible one (at most a ring ahead), and stay where
 * they are when it is not.  A wild wptr (2^64 - 2, or far ahead) must not
 * become the completion count: the counters would wrap after a few more
 * commands and every wait and retire would compare across the wrap.
 */
TEST(reset_ignores_wild_wptr)
{
	struct drm_ascend_queue_wait w;
	struct ascend_cmd c, bad;
	uint64_t rp, seq;
	struct queue q;
	unsigned int i;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 4, &q));
	memset(&bad, 0xa5, sizeof(bad));
	bad.opcode = 0xdead;
	cmd_nop(&c);

	/* published work discarded: the counters go to the wptr */
	rp = q.st->rptr;
	queue_submit(&q, &bad);
	queue_submit(&q, &c);
	seq = queue_submit(&q, &c);
	CHECK_EQ(queue_wait(&q, seq, &w), 0);
	CHECK_EQ(w.fault, ASCEND_FAULT_BAD_COMMAND);
	CHECK_EQ(queue_reset(&q), 0);
	CHECK_EQ(q.st->completed, rp + 3);
	CHECK_EQ(q.st->rptr, rp + 3);
	expect_healthy(&q);

	for (i = 0; i < 3; i++) {
		rp = q.st->rptr;
		/* near the wrap, 2^40 ahead, behind */
		queue_publish(&q, i == 0 ? UINT64_MAX - 1 :
				  i == 1 ? rp + (1ULL << 40) : rp - 1);
		CHECK_EQ(queue_doorbell(&q), 0);
		CHECK_EQ(queue_wait(&q, rp + 1, &w), 0);
		CHECK_EQ(w.fault, ASCEND_FAULT_RING);
		CHECK_EQ(queue_reset(&q), 0);
		/* nothing was published: nothing to skip */
		CHECK_EQ(q.st->wptr, rp);
		CHECK_EQ(q.st->rptr, rp);
		CHECK_EQ(q.st->completed, rp);
		seq = queue_submit(&q, &c);
		CHECK_EQ(queue_wait(&q, seq, &w), 0);
		CHECK_EQ(w.fault, ASCEND_FAULT_NONE);
		CHECK_EQ(w.completed, rp + 1);
	}
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(launch_wild_pointer_faults_mmu)
{
	static const uint64_t wild[] = { 0x1000, KERNEL_ADDR, 0 };
	struct drm_ascend_bo_create a;
	struct write_args wa;
	struct ascend_cmd c;
	struct queue q, good;
	unsigned int i;
	uint32_t kw;
	int fd = open_accel();

	setup_window(fd);
	kw = kernel_id(fd, "DeviceWrite", NULL);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(queue_create(fd, 0, &good));
	for (i = 0; i < sizeof(wild) / sizeof(wild[0]) + 1; i++) {
		/* the last case: one past the end of a real allocation */
		uint64_t p = i < sizeof(wild) / sizeof(wild[0]) ? wild[i] :
								  a.va + a.alloc_size;

		REQUIRE_OK(queue_create(fd, 0, &q));
		wa = (struct write_args){ .p = p, .v = 1 };
		cmd_launch(&c, kw, 1, &wa, sizeof(wa));
		expect_fault(&q, &c, ASCEND_FAULT_MMU);
		CHECK_EQ(q.st->fault_addr, p);
		CHECK_EQ(queue_destroy(&q, 0), 0);
	}
	expect_healthy(&good);
	CHECK_EQ(queue_destroy(&good, 0), 0);
	close(fd);
}

TEST(launch_after_gem_close_faults_mmu)
{
	struct drm_ascend_bo_create a;
	struct write_args wa;
	struct ascend_cmd c;
	struct queue q;
	uint32_t kw;
	int fd = open_accel();

	setup_window(fd);
	kw = kernel_id(fd, "DeviceWrite", NULL);
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_HUGE_FIRST, 0, &a));
	REQUIRE_OK(gem_close(fd, a.handle));
	REQUIRE_OK(queue_create(fd, 0, &q));
	wa = (struct write_args){ .p = a.va, .v = 1 };
	cmd_launch(&c, kw, 1, &wa, sizeof(wa));
	expect_fault(&q, &c, ASCEND_FAULT_MMU);
	CHECK_EQ(queue_destroy(&q, 0), 0);
	close(fd);
}

TEST(other_files_queue_unaffected_by_fault)
{
	struct queue bad, good;
	struct ascend_cmd c;
	int fd = open_accel(), fd2 = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &bad));
	REQUIRE_OK(queue_create(fd2, 0, &good));
	memset(&c, 0xff, sizeof(c));
	expect_fault(&bad, &c, ASCEND_FAULT_BAD_COMMAND);
	expect_healthy(&good);
	close(fd);
	expect_healthy(&good);
	close(fd2);
}

TEST(destroy_force_discards)
{
	struct ascend_cmd c;
	struct queue q;
	int i;
	int fd = open_accel();

	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_nop(&c);
	for (i = 0; i < (int)q.entries; i++)
		queue_submit(&q, &c);
	CHECK_EQ(queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE), 0);
	close(fd);
}

TEST(close_with_pending_work)
{
	struct ascend_cmd c;
	struct queue q;
	int i;
	int fd = open_accel();

	/* Closing the file with published work must clean up, not hang. */
	REQUIRE_OK(queue_create(fd, 0, &q));
	cmd_nop(&c);
	for (i = 0; i < (int)q.entries; i++)
		queue_submit(&q, &c);
	munmap(q.map, q.map_size);
	close(fd);
}

TEST(mmap_bad_offset_or_size)
{
	struct drm_ascend_queue_create c = { 0 };
	void *p;
	int fd = open_accel();

	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_CREATE, &c));
	/* Larger than the queue area. */
	p = mmap(NULL, c.mmap_size * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)c.mmap_offset);
	CHECK(p == MAP_FAILED);
	/* An offset nothing lives at. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
		 (off_t)(c.mmap_offset + (1ULL << 40)));
	CHECK(p == MAP_FAILED);
	close(fd);
}

int main(void)
{
	return tap_main();
}
