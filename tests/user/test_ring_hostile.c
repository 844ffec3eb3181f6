// SPDX-License-Identifier: MIT
/*
 * A hostile ring writer: this process maps its own queue through the raw
 * uAPI and scribbles random commands, pointers, status-page fields and
 * write pointers into it for a bounded number of rounds, resetting the
 * queue (QUEUE_RESET) after every fault and force-destroying it when a
 * command stalls.  Meanwhile a well-behaved queue of the same DRM file
 * and a libaclrt stream in a child process keep producing correct bytes
 * (checked with WAIT_VALUE EQ on the device, and DeviceRead output), and
 * never see a fault.  A kernel bug shows up as an oops/WARN, which fails
 * the whole VM run.
 *
 * HOSTILE_SEED=<n> replays a run (the seed is printed); HOSTILE_ROUNDS=<n>
 * changes the number of rounds (default 300).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <poll.h>
#include <time.h>

#include "acl_util.h"
#include "ioctl_util.h"

/* ---- PRNG (xorshift64*) ----------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t rndn(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* ---- what the hostile queue may point at ------------------------------ */

struct arena {
	uint64_t win_base, win_end;
	uint64_t good_va, good_end;	/* never touched by hostile commands */
	uint64_t bad_va, bad_size;	/* the hostile queue's own BO */
	uint32_t event;			/* a real event handle of the file */
	void *host;			/* a host buffer, not mapped for the device */
	void *qmap;			/* the hostile queue area itself */
};

static struct arena ar;

/* Keep hostile pointers out of [window base, end of the good BO): the good
 * BO lies below the hostile one, so upward walks from anything the hostile
 * queue may name cannot reach it. */
static uint64_t sanitize(uint64_t p)
{
	if (p >= ar.win_base && p < ar.good_end)
		return ar.bad_va + (p & 0xfff);
	return p;
}

static uint64_t gen_ptr(void)
{
	uint64_t p;

	switch (rndn(10)) {
	case 0:
	case 1:
	case 2:
		p = ar.bad_va + rndn(ar.bad_size);
		if (rndn(2))
			p &= ~7ULL;
		break;
	case 3:
		p = ar.bad_va + ar.bad_size + rndn(64) - (rndn(2) ? 8 : 0);
		break;
	case 4:
		p = ar.good_end + rndn(ar.win_end - ar.good_end);
		break;
	case 5:
		p = KERNEL_ADDR + rndn(1 << 20);
		if (rndn(2))
			p = 0xffffffff81000000ULL + rndn(1 << 16);
		break;
	case 6:
		p = rnd();
		break;
	case 7:
		p = rndn(3) == 0 ? (uint64_t)(uintptr_t)ar.host :
		    rndn(2) ? (uint64_t)(uintptr_t)ar.qmap : (uint64_t)(uintptr_t)&p;
		break;
	case 8:
		p = rndn(3) == 0 ? 0 : 0x1000 * rndn(16);
		break;
	default:
		p = ar.win_end - rndn(64);
		break;
	}
	return sanitize(p);
}

static uint64_t gen_size(void)
{
	static const uint64_t edge[] = {
		0, 1, 3, 4, 8, 64, 4096, 1ULL << 32, 1ULL << 63, ~0ULL, ~0ULL - 7,
	};

	switch (rndn(4)) {
	case 0:
		return edge[rndn(sizeof(edge) / sizeof(edge[0]))];
	case 1:
		return rnd();
	default:
		return rndn(ar.bad_size + 64);
	}
}

/* Kernel table ids 1..8; args laid out as u64 slots. */
static void gen_launch(struct ascend_cmd *c)
{
	static const uint32_t blocks[] = { 0, 1, 2, 8, 9, 37, 65535, 65536 };
	uint64_t *a = (uint64_t *)c->launch.args;
	unsigned int i;

	c->launch.kernel_id = rndn(8) ? 1 + rndn(8) : (uint32_t)rnd();
	c->launch.num_blocks = rndn(4) ? blocks[rndn(8)] : (uint32_t)rnd();
	c->launch.args_size = rndn(4) ? 32 : (uint32_t)rndn(130);
	c->launch.timeout_ms = rndn(2) ? 0 : 1 + rndn(30);
	for (i = 0; i < ASCEND_LAUNCH_ARGS_MAX / 8; i++)
		a[i] = rndn(2) ? gen_ptr() : gen_size();
	if (c->launch.kernel_id == 5) {		/* Spin: mostly short */
		a[0] = rndn(3000);
		if (!rndn(16)) {
			a[0] = rnd();
			c->launch.timeout_ms = 1 + rndn(20);
		}
	}
	if (rndn(8) == 0)			/* garbage past args_size */
		c->launch.args[ASCEND_LAUNCH_ARGS_MAX - 1] = (uint8_t)rnd();
}

static void gen_cmd(struct ascend_cmd *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	switch (rndn(8)) {
	case 0:			/* fully random slot */
		for (i = 0; i < sizeof(*c) / 8; i++)
			((uint64_t *)c)[i] = rnd();
		if (rndn(2))
			c->opcode = (uint32_t)rndn(10);
		return;
	case 1:			/* known opcode, random payload */
		c->opcode = (uint32_t)rndn(9);
		for (i = 0; i < sizeof(c->raw) / 8; i++)
			((uint64_t *)c->raw)[i] = rnd();
		return;
	default:
		break;
	}

	c->opcode = (uint32_t)rndn(8);
	switch (c->opcode) {
	case ASCEND_CMD_NOP:
		break;
	case ASCEND_CMD_LAUNCH:
		gen_launch(c);
		break;
	case ASCEND_CMD_COPY:
		c->copy.dst = gen_ptr();
		c->copy.src = gen_ptr();
		c->copy.size = gen_size();
		break;
	case ASCEND_CMD_FILL: {
		static const uint32_t ps[] = { 1, 2, 4, 1, 2, 4, 0, 3, 8 };

		c->fill.dst = gen_ptr();
		c->fill.size = gen_size();
		c->fill.pattern = rnd();
		c->fill.pattern_size = rndn(8) ? ps[rndn(9)] : (uint32_t)rnd();
		break;
	}
	case ASCEND_CMD_EVENT_RECORD:
	case ASCEND_CMD_EVENT_WAIT:
		c->event.handle = rndn(4) ? ar.event : rndn(2) ? 0 : (uint32_t)rnd();
		c->event.gen = rndn(8) ? 1 + rndn(1000) : rnd();
		if (c->opcode == ASCEND_CMD_EVENT_WAIT && rndn(4)) {
			c->event.flags = ASCEND_CMD_EVENT_TIMEOUT;
			c->event.timeout_ms = 1 + rndn(20);
		}
		if (!rndn(16))
			c->event.flags = (uint32_t)rnd();
		if (!rndn(16))
			c->event.timeout_ms = (uint32_t)rnd();
		break;
	case ASCEND_CMD_WRITE_VALUE:
	case ASCEND_CMD_WAIT_VALUE:
		c->value.addr = gen_ptr();
		c->value.value = rndn(2) ? rnd() : rndn(4);
		if (c->opcode == ASCEND_CMD_WAIT_VALUE) {
			c->value.cond = (uint32_t)rndn(5);
			c->value.timeout_ms = rndn(32) ? 1 + rndn(20) : 0;
		} else if (!rndn(16)) {
			c->value.cond = 1;
		}
		break;
	}
	if (!rndn(32))
		c->flags = (uint32_t)rnd();
	if (!rndn(32))
		c->reserved = rnd();
	if (!rndn(32))
		c->raw[sizeof(c->raw) - 1 - rndn(16)] = (uint8_t)(1 + rndn(255));
}

/* ---- the hostile queue --------------------------------------------------- */

static int queue_reset_ioctl(struct queue *q)
{
	struct drm_ascend_queue_reset r = { .handle = q->handle };

	return aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_RESET, &r);
}

static int64_t ms_from_now(int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec + (int64_t)ms * 1000000;
}

struct stats {
	unsigned int rounds, completed, resets, recreated, faults[8], other;
};

/* Poll @q; reset it if it faulted.  Returns the kernel's completed count. */
static uint64_t settle(struct queue *q, struct stats *st)
{
	struct drm_ascend_queue_wait w = { .handle = q->handle };

	REQUIRE_OK(aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w));
	if (w.fault) {
		st->faults[w.fault < 8 ? w.fault : 0]++;
		REQUIRE_OK(queue_reset_ioctl(q));
		st->resets++;
		memset(&w, 0, sizeof(w));
		w.handle = q->handle;
		REQUIRE_OK(aioctl(q->fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w));
		CHECK_EQ(w.fault, 0);
	}
	return w.completed;
}

static void hostile_new(int fd, struct queue *h)
{
	REQUIRE_OK(queue_create(fd, 16, h));
	ar.qmap = h->map;
}

static void hostile_recreate(int fd, struct queue *h, struct stats *st)
{
	CHECK_EQ(queue_destroy(h, DRM_ASCEND_QUEUE_DESTROY_FORCE), 0);
	hostile_new(fd, h);
	st->recreated++;
}

/* Scribble some status-page fields the device owns or reads. */
static void scribble_status(struct queue *h)
{
	struct ascend_queue_status *s = h->st;

	switch (rndn(6)) {
	case 0:
		s->rptr = rnd();
		s->completed = rnd();
		break;
	case 1:
		s->flags = (uint32_t)rnd();
		s->fault = (uint32_t)rndn(9);
		break;
	case 2:
		s->printf_tail = rndn(2) ? rnd() : s->printf_head + rndn(8192);
		break;
	case 3:
		s->ring_entries = (uint32_t)rnd();
		s->ring_offset = (uint32_t)rnd();
		s->cmd_size = (uint32_t)rnd();
		break;
	case 4:
		s->printf_offset = (uint32_t)rnd();
		s->printf_size = (uint32_t)rnd();
		s->printf_head = rnd();
		break;
	default:
		s->reserved[rndn(4)] = rnd();
		s->fault_seq = rnd();
		break;
	}
}

/* One round: k random slots, a (mostly) plausible wptr, wait a little. */
static void hostile_round(int fd, struct queue *h, struct stats *st)
{
	struct drm_ascend_queue_wait w;
	uint64_t base = settle(h, st), wptr;
	uint32_t k, i;
	int ret;

	if (base > (1ULL << 62)) {	/* a reset jumped far: start afresh */
		hostile_recreate(fd, h, st);
		base = 0;
	}
	k = 1 + (uint32_t)rndn(h->entries);
	for (i = 0; i < k; i++)
		gen_cmd(&h->ring[(base + i) % h->entries]);

	switch (rndn(12)) {
	case 0:
		wptr = base + h->entries + 1 + rndn(100);	/* past a full ring */
		break;
	case 1:
		wptr = base - 1 - rndn(5);			/* backwards */
		break;
	case 2:
		wptr = rnd();
		break;
	case 3:
		wptr = base + h->entries;			/* exactly full */
		for (i = k; i < h->entries; i++)
			gen_cmd(&h->ring[(base + i) % h->entries]);
		break;
	default:
		wptr = base + k;
		break;
	}
	if (!rndn(8))
		scribble_status(h);
	__atomic_store_n(&h->st->wptr, wptr, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* the flags may be scribbled: always ring */
	REQUIRE_OK(queue_doorbell(h));

	memset(&w, 0, sizeof(w));
	w.handle = h->handle;
	w.seq = wptr;
	w.timeout_ns = ms_from_now(300);
	ret = aioctl(fd, DRM_IOCTL_ASCEND_QUEUE_WAIT, &w);
	if (ret == -ETIME) {
		/* a long kernel or an unsatisfied wait: throw the queue away */
		hostile_recreate(fd, h, st);
		return;
	}
	CHECK_EQ(ret, 0);
	if (w.fault) {
		settle(h, st);
		return;
	}
	if (w.completed >= wptr)
		st->completed++;
	else
		st->other++;
}

/* ---- the well-behaved queue ------------------------------------------- */

#define GOOD_WORDS 32

static uint64_t marker(unsigned int round)
{
	return 0x600d000000000000ULL | ((uint64_t)round << 8) | (round % GOOD_WORDS);
}

static void cmd_value(struct ascend_cmd *c, uint32_t op, uint64_t addr, uint64_t v,
		      uint32_t cond, uint32_t timeout_ms)
{
	memset(c, 0, sizeof(*c));
	c->opcode = op;
	c->value.addr = addr;
	c->value.value = v;
	c->value.cond = cond;
	c->value.timeout_ms = timeout_ms;
}

/* Store this round's marker, check it on the device; returns the seq. */
static uint64_t good_submit(struct queue *g, unsigned int round)
{
	uint64_t addr = ar.good_va + 8 * (round % GOOD_WORDS);
	struct ascend_cmd c;

	cmd_value(&c, ASCEND_CMD_WRITE_VALUE, addr, marker(round), 0, 0);
	queue_submit(g, &c);
	cmd_value(&c, ASCEND_CMD_WAIT_VALUE, addr, marker(round), ASCEND_WAIT_VALUE_EQ, 5000);
	return queue_submit(g, &c);
}

static void good_check(struct queue *g, uint64_t seq, unsigned int round)
{
	struct drm_ascend_queue_wait w;

	REQUIRE_OK(queue_wait(g, seq, &w));
	if (w.fault || w.completed < seq)
		printf("#   good queue, round %u: fault %u at #%llu (opcode %u, addr %#llx), completed %llu of %llu\n",
		       round, w.fault, (unsigned long long)g->st->fault_seq,
		       g->st->fault_opcode, (unsigned long long)g->st->fault_addr,
		       (unsigned long long)w.completed, (unsigned long long)seq);
	REQUIRE(w.fault == 0);
	REQUIRE(w.completed >= seq);
}

/* ---- the libaclrt child ------------------------------------------------- */

static void child_loop(int stopfd)
{
	struct pollfd pfd = { .fd = stopfd, .events = POLLIN };
	aclrtFuncHandle wr, rd;
	unsigned int it;
	aclrtStream s;
	int *p;

	acl_setup();
	wr = builtin_kernel("DeviceWrite");
	rd = builtin_kernel("DeviceRead");
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (it = 0; it < 100000; it++) {
		struct { int *p; int v; } wa;
		struct { int *p; } ra;
		struct capture cap;
		int got[4], i, n;
		char *out;

		capture_begin(&cap);
		for (i = 0; i < 4; i++) {
			wa.p = p + i;
			wa.v = (int)(it * 4 + i) ^ 0x5a5a;
			REQUIRE_ACL(aclrtLaunchKernel(wr, 1, &wa, sizeof(wa), s));
		}
		for (i = 0; i < 4; i++) {
			ra.p = p + i;
			REQUIRE_ACL(aclrtLaunchKernel(rd, 1, &ra, sizeof(ra), s));
		}
		REQUIRE_ACL(aclrtSynchronizeStream(s));
		out = capture_end(&cap);
		n = parse_values(out, "Destination data:", got, 4);
		if (n != 4)
			printf("#   child: iteration %u printed %d values: %s\n", it, n, out);
		REQUIRE(n == 4);
		for (i = 0; i < 4; i++) {
			if (got[i] != ((int)(it * 4 + i) ^ 0x5a5a))
				printf("#   child: iteration %u word %d is %d\n", it, i, got[i]);
			REQUIRE(got[i] == ((int)(it * 4 + i) ^ 0x5a5a));
		}
		free(out);
		if (poll(&pfd, 1, 0) > 0)
			break;
	}
	printf("#   child: %u clean iterations on its libaclrt stream\n", it + 1);
	fflush(stdout);
	_exit(0);
}

TEST(hostile_ring_only_faults_its_own_queue)
{
	struct drm_ascend_bo_create b1, b2, *good, *bad;
	struct drm_ascend_device_info info;
	struct drm_ascend_event_create ec = { 0 };
	struct stats st = { 0 };
	struct queue h, g;
	const char *env;
	unsigned int rounds = 300, r, i;
	int fd, pipefd[2], status;
	uint64_t seed;
	pid_t child;

	env = getenv("HOSTILE_SEED");
	seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	if (!seed)
		seed = 1;
	env = getenv("HOSTILE_ROUNDS");
	if (env)
		rounds = (unsigned int)strtoul(env, NULL, 0);
	printf("#   seed %" PRIu64 " (HOSTILE_SEED=%" PRIu64 " replays it), %u rounds\n",
	       seed, seed, rounds);
	rng_state = seed;

	REQUIRE(pipe(pipefd) == 0);
	fflush(stdout);
	child = fork();
	REQUIRE(child >= 0);
	if (child == 0) {
		close(pipefd[1]);
		child_loop(pipefd[0]);
	}
	close(pipefd[0]);

	fd = open_accel();
	query_info(fd, &info);
	ar.win_base = setup_window(fd);
	ar.win_end = ar.win_base + info.va_window_min_size;
	REQUIRE_OK(bo_create(fd, 4096, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b1));
	REQUIRE_OK(bo_create(fd, 8192, DRM_ASCEND_BO_NORMAL_ONLY, 0, &b2));
	good = b1.va < b2.va ? &b1 : &b2;	/* the good BO is the lower one */
	bad = good == &b1 ? &b2 : &b1;
	ar.good_va = good->va;
	ar.good_end = good->va + good->alloc_size;
	ar.bad_va = bad->va;
	ar.bad_size = bad->alloc_size;
	REQUIRE(ar.good_end <= ar.bad_va);
	REQUIRE_OK(aioctl(fd, DRM_IOCTL_ASCEND_EVENT_CREATE, &ec));
	ar.event = ec.handle;
	ar.host = calloc(1, 8192);
	REQUIRE(ar.host);

	REQUIRE_OK(queue_create(fd, 0, &g));
	hostile_new(fd, &h);

	for (r = 0; r < rounds; r++) {
		uint64_t seq = good_submit(&g, r);

		hostile_round(fd, &h, &st);
		good_check(&g, seq, r);
		st.rounds++;
	}

	/* every marker the good queue left is intact */
	for (i = 0; i < GOOD_WORDS && i < rounds; i++) {
		unsigned int last = rounds - 1 - ((rounds - 1 - i) % GOOD_WORDS);
		struct ascend_cmd c;
		uint64_t seq;

		cmd_value(&c, ASCEND_CMD_WAIT_VALUE, ar.good_va + 8 * (last % GOOD_WORDS),
			  marker(last), ASCEND_WAIT_VALUE_EQ, 5000);
		seq = queue_submit(&g, &c);
		good_check(&g, seq, last);
	}

	printf("#   %u rounds: %u completed, %u faults (bad command %u, mmu %u, kernel %u, dma %u, ring %u, aborted %u, timeout %u), %u resets, %u queues thrown away, %u other\n",
	       st.rounds, st.completed,
	       st.faults[1] + st.faults[2] + st.faults[3] + st.faults[4] + st.faults[5] +
	       st.faults[6] + st.faults[7], st.faults[1], st.faults[2], st.faults[3],
	       st.faults[4], st.faults[5], st.faults[6], st.faults[7], st.resets,
	       st.recreated, st.other);
	CHECK(st.resets > 0);
	CHECK_EQ(st.faults[0], 0);

	CHECK_EQ(queue_destroy(&h, DRM_ASCEND_QUEUE_DESTROY_FORCE), 0);
	CHECK_EQ(queue_destroy(&g, 0), 0);
	close(fd);

	close(pipefd[1]);		/* the child stops */
	REQUIRE(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("#   child status %#x\n", status);
	free(ar.host);
}

int main(void)
{
	return tap_main();
}
