// SPDX-License-Identifier: MIT
/*
 * Allocation churn from four processes at once: each allocates and frees
 * buffers of mixed sizes and policies, fills them with its own patterns
 * (aclrtMemsetD32, aclrtMemsetAsync and DeviceWrite kernels) and checks a
 * checksum over the words it wrote, read back with DeviceRead.  A process
 * that saw another's bytes, or lost its own, fails.
 */
#define _GNU_SOURCE
#include "acl_util.h"

#define NPROC	4
#define ROUNDS	6
#define SLOTS	5

static const size_t sizes[] = { 64, 1000, 4096, 70000, (1 << 20) + 8, 3 << 20 };
static const aclrtMemMallocPolicy policies[] = {
	ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_NORMAL_ONLY, ACL_MEM_MALLOC_HUGE_ONLY,
};

struct buf {
	int *p;
	size_t words;
	int fill;		/* every word, from aclrtMemsetD32 */
	int mark;		/* word 1, from a DeviceWrite kernel */
};

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Read first, second and last word; add them to the checksums. */
static void sample(aclrtStream s, const struct buf *b, long long *want, long long *got)
{
	int v[3];

	REQUIRE(read_dev_ints(s, b->p, v, 2) == 2);
	REQUIRE(read_dev_ints(s, b->p + b->words - 1, &v[2], 1) == 1);
	*want += (long long)b->fill + b->mark + b->fill;
	*got += (long long)v[0] + v[1] + v[2];
}

static int child(int id)
{
	struct buf bufs[SLOTS] = { { 0 } };
	long long want = 0, got = 0;
	aclrtStream s = NULL;
	uint32_t seed = 0x9e3779b9u * (uint32_t)(id + 1);
	int r, i;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < SLOTS; i++) {
			struct buf *b = &bufs[i];
			size_t size;

			/* Free about half the live buffers, checking them first. */
			if (b->p && (rnd(&seed) & 1)) {
				sample(s, b, &want, &got);
				REQUIRE_ACL(aclrtFree(b->p));
				b->p = NULL;
			}
			if (b->p)
				continue;
			size = sizes[rnd(&seed) % (sizeof(sizes) / sizeof(sizes[0]))];
			REQUIRE_ACL(aclrtMalloc((void **)&b->p, size,
						policies[rnd(&seed) % 3]));
			b->words = size / 4;
			b->fill = (id << 24) | (r << 16) | (i << 8) | 0x5a;
			b->mark = (id << 24) | (r << 16) | (i << 8) | 0xa5;
			if (rnd(&seed) & 1) {
				REQUIRE_ACL(aclrtMemsetD32(b->p, size, (uint32_t)b->fill, b->words));
			} else {
				/* a byte fill first, then the words, in stream order */
				REQUIRE_ACL(aclrtMemsetAsync(b->p, size, 0x77, size, s));
				REQUIRE_ACL(aclrtMemsetD32Async(b->p, size, (uint32_t)b->fill,
								b->words, s));
			}
			write_dev_ints(s, b->p + 1, &b->mark, 1);
		}
	}
	for (i = 0; i < SLOTS; i++) {
		if (!bufs[i].p)
			continue;
		sample(s, &bufs[i], &want, &got);
		REQUIRE_ACL(aclrtFree(bufs[i].p));
	}
	REQUIRE_ACL(aclrtDestroyStream(s));
	if (want != got) {
		printf("#   process %d: checksum %lld, expected %lld\n", id, got, want);
		fflush(stdout);
		return 1;
	}
	return 0;
}

TEST(four_processes)
{
	pid_t pid[NPROC];
	int i, status;

	fflush(stdout);
	for (i = 0; i < NPROC; i++) {
		pid[i] = fork();
		REQUIRE(pid[i] >= 0);
		if (pid[i] == 0)
			_exit(child(i));
	}
	for (i = 0; i < NPROC; i++) {
		REQUIRE(waitpid(pid[i], &status, 0) == pid[i]);
		CHECK(WIFEXITED(status));
		CHECK_EQ(WEXITSTATUS(status), 0);
	}
}

int main(void)
{
	return tap_main();
}
