// SPDX-License-Identifier: MIT
/*
 * test_acl_copy_kill.c - a child killed (SIGKILL) in the middle of 64 MiB
 * copies - synchronous pageable ones (pinned by the kernel for the copy)
 * and asynchronous ones from pinned and registered memory queued on a
 * stream - leaves nothing behind: the parent sees the device's free memory
 * back at its start value, its own VmPin/VmLck unchanged, and the device
 * still copies for it.
 */
#define _GNU_SOURCE
#include <string.h>
#include <time.h>

#include "acl_util.h"

#define BIG	(64UL << 20)

static void read_full(int fd, void *p, size_t n)
{
	REQUIRE(read(fd, p, n) == (ssize_t)n);
}

static void write_full(int fd, const void *p, size_t n)
{
	REQUIRE(write(fd, p, n) == (ssize_t)n);
}

/* Freed memory may come back a little later (deferred retire). */
static size_t wait_free(size_t want)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	size_t f = 0;
	int i;

	for (i = 0; i < 500; i++) {
		f = acl_mem_free(ACL_HBM_MEM);
		if (f == want)
			break;
		nanosleep(&ts, NULL);
	}
	return f;
}

static long status_kb(const char *key)
{
	char line[256];
	long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");

	REQUIRE(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

static void child(int go, int ready, int mode)
{
	char *pin = NULL, *reg, *page, *d;
	aclrtStream s;
	void *dp;
	char c;
	int i;

	read_full(go, &c, 1);
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&d, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	page = malloc(BIG);
	REQUIRE(page);
	memset(page, 1, BIG);
	if (mode) {
		REQUIRE_ACL(aclrtMallocHost((void **)&pin, BIG));
		reg = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		REQUIRE(reg != MAP_FAILED);
		REQUIRE_ACL(aclrtHostRegister(reg, BIG, ACL_HOST_REGISTER_MAPPED, &dp));
		for (i = 0; i < 3; i++) {
			REQUIRE_ACL(aclrtMemcpyAsync(d, BIG, pin, BIG, ACL_MEMCPY_HOST_TO_DEVICE, s));
			REQUIRE_ACL(aclrtMemcpyAsync(reg, BIG, d, BIG, ACL_MEMCPY_DEVICE_TO_HOST, s));
		}
	}
	write_full(ready, &c, 1);
	for (;;) {
		aclrtMemcpy(d, BIG, page, BIG, ACL_MEMCPY_HOST_TO_DEVICE);
		aclrtMemcpy(page, BIG, d, BIG, ACL_MEMCPY_DEVICE_TO_HOST);
	}
}

static void killed_mid_copy(int mode)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int go[2], ready[2], status;
	long pin0, lck0;
	size_t start;
	char c = 0, *d, *h;
	pid_t pid;

	REQUIRE(pipe(go) == 0 && pipe(ready) == 0);
	pid = fork();	/* before the parent initialises libaclrt */
	REQUIRE(pid >= 0);
	if (pid == 0)
		child(go[0], ready[1], mode);
	acl_setup();
	start = acl_mem_free(ACL_HBM_MEM);
	pin0 = status_kb("VmPin");
	lck0 = status_kb("VmLck");
	write_full(go[1], &c, 1);
	read_full(ready[0], &c, 1);
	nanosleep(&ts, NULL);
	REQUIRE(kill(pid, SIGKILL) == 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK_EQ(wait_free(start), start);
	CHECK_EQ(status_kb("VmPin"), pin0);
	CHECK_EQ(status_kb("VmLck"), lck0);
	/* The device still serves the parent. */
	REQUIRE_ACL(aclrtMalloc((void **)&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMallocHost((void **)&h, 1 << 20));
	fill_pattern(h, 1 << 20, 99);
	CHECK_ACL_OK(aclrtMemcpy(d, 1 << 20, h, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(h, 0, 1 << 20);
	CHECK_ACL_OK(aclrtMemcpy(h, 1 << 20, d, 1 << 20, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(h, 1 << 20, 99), -1);
	CHECK_ACL_OK(aclrtFreeHost(h));
	CHECK_ACL_OK(aclrtFree(d));
	CHECK_EQ(wait_free(start), start);
}

TEST(killed_during_pageable_sync_copy)
{
	killed_mid_copy(0);
}

TEST(killed_with_pinned_async_copies_queued)
{
	killed_mid_copy(1);
}

int main(void)
{
	return tap_main();
}
