// SPDX-License-Identifier: MIT
/*
 * Stress: multi-process, multi-thread load with processes SIGKILLed at
 * random points, and module unload/reload loops.
 *
 * Workers (2 threads each) allocate and free device memory, allocate and
 * register pinned host memory, copy pageable memory, create queues and
 * launch kernels on them; the parent SIGKILLs a random worker every
 * 50-400 ms and starts a new one.  Two survivor processes meanwhile move
 * checksummed data host -> device -> device -> host and on a queue, and
 * must see every byte intact.  Afterwards HBM and clients (debugfs) are
 * back to nothing, and each survivor's VmPin (/proc/self/status) is 0 once
 * it released its memory (pins and memlock charges returned).
 *
 * STRESS_SECONDS=<n> (default 12) sets the duration: `make stress` runs it
 * long.  STRESS_SEED=<n> fixes the kill schedule.
 *
 * module_reload: rmmod ascend && modprobe ascend with the parameters it had,
 * three times, with no file open; the parameters and the devices survive.
 */
#define _GNU_SOURCE
#define TAP_TIMEOUT 3600
#include <dirent.h>
#include <pthread.h>
#include <signal.h>

#include "ioctl_util.h"
#include "../fuzz/reliab.h"

#define PAGE 4096
#define CHUNK (64 * 1024)

static int stress_seconds = 12;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ---- workers (killed at random) ----------------------------------------- */

struct wctx {
	int fd;
	uint32_t kw;
	uint64_t seed;
};

static void *worker_thread(void *arg)
{
	struct wctx *w = arg;
	struct drm_ascend_bo_create bos[8];
	uint8_t *buf = malloc(CHUNK);
	struct queue q;
	int nq = 0, i;

	memset(bos, 0, sizeof(bos));
	if (!buf)
		return NULL;
	memset(buf, 0x11, CHUNK);
	for (;;) {
		uint64_t r = xs(&w->seed);
		struct drm_ascend_bo_create *b = &bos[r % 8];

		switch ((r >> 8) % 6) {
		case 0:
			if (b->handle)
				gem_close(w->fd, b->handle);
			if (bo_create(w->fd, 1 + (r >> 16) % CHUNK,
				      (r >> 40) % 2 ? DRM_ASCEND_BO_NORMAL_ONLY : 0, 0, b))
				b->handle = 0;
			break;
		case 1: /* pageable host <-> device */
			if (b->handle) {
				dev_copy(w->fd, b->va, (uintptr_t)buf,
					 b->size < CHUNK ? b->size : CHUNK);
				dev_copy(w->fd, (uintptr_t)buf, b->va,
					 b->size < CHUNK ? b->size : CHUNK);
			}
			break;
		case 2: { /* pinned host memory, left for the kill to clean */
			struct drm_ascend_host_alloc ha = { .size = PAGE << (r % 4) };

			if (!aioctl(w->fd, DRM_IOCTL_ASCEND_HOST_ALLOC, &ha)) {
				void *m = mmap(NULL, ha.alloc_size, PROT_READ | PROT_WRITE,
					       MAP_SHARED, w->fd, (off_t)ha.mmap_offset);

				if (m != MAP_FAILED && b->handle)
					dev_copy(w->fd, b->va, (uintptr_t)m, PAGE);
				if ((r >> 20) % 2) {
					if (m != MAP_FAILED)
						munmap(m, ha.alloc_size);
					gem_close(w->fd, ha.handle);
				}
			}
			break;
		}
		case 3: { /* register part of the buffer */
			struct drm_ascend_host_register hr = {
				.addr = ((uintptr_t)buf + PAGE - 1) & ~(uintptr_t)(PAGE - 1),
				.size = PAGE * (1 + r % 4),
			};

			if (!aioctl(w->fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &hr) &&
			    (r >> 20) % 2)
				gem_close(w->fd, hr.handle);
			break;
		}
		default: /* launches on a queue */
			if (!nq && !queue_create(w->fd, 64, &q))
				nq = 1;
			if (nq && b->handle) {
				struct write_args wa = { .p = b->va, .v = (int32_t)r };
				struct drm_ascend_queue_wait wt;
				struct ascend_cmd c;
				uint64_t seq = 0;

				cmd_launch(&c, w->kw, 1 + (r >> 30) % 2, &wa, sizeof(wa));
				for (i = 0; i < 4; i++)
					seq = queue_submit(&q, &c);
				if ((r >> 24) % 2 && !queue_wait(&q, seq, &wt) && wt.fault) {
					queue_destroy(&q, DRM_ASCEND_QUEUE_DESTROY_FORCE);
					nq = 0;	/* a BO freed by a sibling thread */
				}
			}
			break;
		}
	}
	return NULL;
}

static void worker_main(uint64_t seed)
{
	struct wctx w[2];
	pthread_t t[2];
	int fd = open(ACCEL_NODE, O_RDWR | O_CLOEXEC), i;

	if (fd < 0)
		_exit(2);
	setup_window(fd);
	for (i = 0; i < 2; i++) {
		w[i].fd = fd;
		w[i].kw = kernel_id(fd, "DeviceWrite", NULL);
		w[i].seed = seed * 2 + i + 1;
		pthread_create(&t[i], NULL, worker_thread, &w[i]);
	}
	pthread_join(t[0], NULL);	/* never returns: killed */
	_exit(0);
}

/* ---- survivors: checked data ----------------------------------------- */

static long vm_pin_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static int survivor_main(uint64_t seed, uint64_t end_ms)
{
	struct drm_ascend_bo_create a, b;
	struct drm_ascend_host_register hr = { 0 };
	struct drm_ascend_queue_wait wt;
	struct ascend_cmd c;
	struct queue q;
	uint32_t *in, *out, *reg;
	unsigned int i, rounds = 0, bad = 0;
	int fd = open(ACCEL_NODE, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 2;
	setup_window(fd);
	in = malloc(CHUNK);
	out = malloc(CHUNK);
	reg = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!in || !out || reg == MAP_FAILED ||
	    bo_create(fd, CHUNK, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a) ||
	    bo_create(fd, CHUNK, 0, 0, &b) || queue_create(fd, 0, &q))
		return 3;
	hr.addr = (uintptr_t)reg;
	hr.size = CHUNK;
	if (aioctl(fd, DRM_IOCTL_ASCEND_HOST_REGISTER, &hr))
		return 4;
	while (now_ms() < end_ms || rounds < 3) {
		for (i = 0; i < CHUNK / 4; i++)
			in[i] = (uint32_t)xs(&seed);
		/* pageable -> a -> b (DMA), b -> registered (ring copy), -> out */
		if (dev_copy(fd, a.va, (uintptr_t)in, CHUNK) ||
		    dev_copy(fd, b.va, a.va, CHUNK))
			bad++;
		memset(&c, 0, sizeof(c));
		c.opcode = ASCEND_CMD_COPY;
		c.copy.dst = (uintptr_t)reg;
		c.copy.src = b.va;
		c.copy.size = CHUNK;
		if (queue_wait(&q, queue_submit(&q, &c), &wt) || wt.fault)
			bad++;
		memcpy(out, reg, CHUNK);
		if (memcmp(in, out, CHUNK)) {
			printf("#   survivor %d: data corrupted in round %u\n",
			       (int)getpid(), rounds);
			bad++;
		}
		rounds++;
	}
	queue_destroy(&q, 0);
	gem_close(fd, hr.handle);
	close(fd);
	/* the unpin may be deferred to a worker: give it a moment */
	for (i = 0; i < 50 && vm_pin_kb() != 0; i++)
		usleep(100000);
	if (vm_pin_kb() != 0) {
		printf("#   survivor %d: VmPin %ld kB after release\n", (int)getpid(),
		       vm_pin_kb());
		bad++;
	}
	printf("#   survivor %d: %u rounds, %u bad\n", (int)getpid(), rounds, bad);
	return bad ? 1 : 0;
}

TEST(kill_workers_survivors_intact_nothing_leaks)
{
	enum { NW = 3, NS = 2 };
	uint64_t seed = getenv("STRESS_SEED") ? strtoull(getenv("STRESS_SEED"), NULL, 0) :
			(uint64_t)time(NULL);
	uint64_t end = now_ms() + (uint64_t)stress_seconds * 1000, next;
	pid_t workers[NW], surv[NS];
	unsigned int kills = 0;
	int i, st;

	printf("# stress: %d s, seed %" PRIu64 "\n", stress_seconds, seed);
	fflush(stdout);
	for (i = 0; i < NS; i++) {
		surv[i] = fork();
		REQUIRE(surv[i] >= 0);
		if (surv[i] == 0)
			_exit(survivor_main(seed + 1000 + i, end));
	}
	for (i = 0; i < NW; i++) {
		workers[i] = fork();
		REQUIRE(workers[i] >= 0);
		if (workers[i] == 0)
			worker_main(xs(&seed));
	}
	next = now_ms() + 50 + xs(&seed) % 350;
	while (now_ms() < end) {
		usleep(10000);
		if (now_ms() < next)
			continue;
		i = (int)(xs(&seed) % NW);
		kill(workers[i], SIGKILL);
		waitpid(workers[i], &st, 0);
		kills++;
		fflush(stdout);
		workers[i] = fork();
		REQUIRE(workers[i] >= 0);
		if (workers[i] == 0)
			worker_main(xs(&seed));
		next = now_ms() + 50 + xs(&seed) % 350;
	}
	for (i = 0; i < NW; i++) {
		kill(workers[i], SIGKILL);
		waitpid(workers[i], &st, 0);
	}
	for (i = 0; i < NS; i++) {
		REQUIRE(waitpid(surv[i], &st, 0) == surv[i]);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	printf("# stress: %u workers killed\n", kills);
	CHECK(kills > 0);
	CHECK(reliab_wait_clean(0, 30));
}

/* ---- module reload ------------------------------------------------------ */

struct param {
	char name[64];
	char value[128];
};

static int read_params(struct param *p, int max)
{
	DIR *d = opendir(RELIAB_PARAMS);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		char path[512];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), RELIAB_PARAMS "/%s", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		snprintf(p[n].name, sizeof(p[n].name), "%.63s", e->d_name);
		if (!fgets(p[n].value, sizeof(p[n].value), f))
			p[n].value[0] = '\0';
		p[n].value[strcspn(p[n].value, "\n")] = '\0';
		fclose(f);
		n++;
	}
	closedir(d);
	return n;
}

static int count_nodes(void)
{
	char path[64];
	int i, n = 0;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/dev/accel/accel%d", i);
		if (access(path, F_OK) == 0)
			n++;
	}
	return n;
}

TEST(module_reload_keeps_parameters)
{
	struct param before[32], after[32];
	char cmd[4096];
	int n, m, i, j, round, nodes;
	size_t len;

	if (getuid() != 0)
		SKIP("needs root");
	n = read_params(before, 32);
	if (n <= 0)
		SKIP("ascend is not a loaded module here");
	nodes = count_nodes();
	for (round = 0; round < 3; round++) {
		REQUIRE(reliab_wait_clean(0, 10));
		len = (size_t)snprintf(cmd, sizeof(cmd), "rmmod ascend && modprobe ascend");
		for (i = 0; i < n && len < sizeof(cmd) - 200; i++)
			len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, " %s='%s'",
						before[i].name, before[i].value);
		if (round == 0)
			printf("# %s\n", cmd);
		REQUIRE(system(cmd) == 0);
		/* udev may take a moment to create the nodes */
		for (i = 0; i < 50 && count_nodes() != nodes; i++)
			usleep(100000);
		CHECK_EQ(count_nodes(), nodes);
		m = read_params(after, 32);
		CHECK_EQ(m, n);
		for (i = 0; i < n; i++) {
			for (j = 0; j < m; j++)
				if (!strcmp(before[i].name, after[j].name))
					break;
			CHECK(j < m);
			if (j < m && strcmp(before[i].value, after[j].value)) {
				printf("#   %s: %s -> %s\n", before[i].name,
				       before[i].value, after[j].value);
				CHECK(!"parameter changed");
			}
		}
	}
	/* the reloaded driver works */
	{
		int fd = open_accel();
		struct drm_ascend_bo_create a;
		uint32_t x = 0x12345678, y = 0;

		setup_window(fd);
		REQUIRE_OK(bo_create(fd, PAGE, DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
		CHECK_EQ(dev_copy(fd, a.va, (uintptr_t)&x, sizeof(x)), 0);
		CHECK_EQ(dev_copy(fd, (uintptr_t)&y, a.va, sizeof(y)), 0);
		CHECK_EQ(y, x);
		close(fd);
	}
	CHECK(reliab_wait_clean(0, 10));
}

int main(void)
{
	if (getenv("STRESS_SECONDS") && atoi(getenv("STRESS_SECONDS")) > 0)
		stress_seconds = atoi(getenv("STRESS_SECONDS"));
	return tap_main();
}
