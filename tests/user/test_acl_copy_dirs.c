// SPDX-License-Identifier: MIT
/*
 * test_acl_copy_dirs.c - synchronous aclrtMemcpy in every direction x
 * {pinned (aclrtMallocHost), registered (aclrtHostRegister of mmap'd
 * memory), pageable (malloc)} x sizes {1, 63, 4095, page-crossing
 * unaligned, 1 MiB}, every byte checked, and the device bytes around each
 * copied range checked untouched.  64 MiB only for pinned and pageable
 * H2D + D2H (registered 64 MiB and 64 MiB D2D are left out to keep the
 * VM run short: they use the same kernel paths as the 1 MiB cases).
 */
#define _GNU_SOURCE
#include <string.h>

#include "acl_util.h"

#define GUARD	64
#define DEV_BYTES ((1 << 20) + 3 * 4096)

struct sz { size_t n, hoff, doff; };

/* The sizes; the fourth is unaligned on both sides and crosses pages. */
static const struct sz sizes[] = {
	{ 1, 0, GUARD }, { 63, 0, GUARD }, { 4095, 0, GUARD },
	{ 300, 4090, 4096 - 7 }, { 1 << 20, 0, GUARD },
};

/* H2D from a host buffer of @t, D2D, then D2H into another of @t. */
static void roundtrip(enum hbuf_type t, const struct sz *z, uint32_t seed)
{
	struct hbuf src, dst;
	char *d1, *d2, *win;
	size_t span = z->n + 2 * GUARD;
	long bad;

	hbuf_alloc(&src, t, z->hoff + z->n);
	hbuf_alloc(&dst, t, z->hoff + z->n);
	REQUIRE_ACL(aclrtMalloc((void **)&d1, DEV_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&d2, DEV_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMemset(d1, DEV_BYTES, 0x5a, DEV_BYTES));
	REQUIRE_ACL(aclrtMemset(d2, DEV_BYTES, 0x3c, DEV_BYTES));
	fill_pattern(src.p + z->hoff, z->n, seed);
	memset(dst.p, 0xee, z->hoff + z->n);

	CHECK_ACL_OK(aclrtMemcpy(d1 + z->doff, z->n, src.p + z->hoff, z->n,
				 ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpy(d2 + z->doff, z->n, d1 + z->doff, z->n,
				 ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpy(dst.p + z->hoff, z->n, d2 + z->doff, z->n,
				 ACL_MEMCPY_DEVICE_TO_HOST));
	bad = check_pattern(dst.p + z->hoff, z->n, seed);
	if (bad >= 0)
		printf("#   %s %zu bytes: first bad byte at %ld\n", hbuf_name[t], z->n, bad);
	CHECK_EQ(bad, -1);
	CHECK_EQ(check_bytes(dst.p, z->hoff, 0xee), -1);

	/* The device bytes around the range are untouched (read back the
	 * window through a pageable buffer). */
	win = malloc(span);
	REQUIRE(win);
	CHECK_ACL_OK(aclrtMemcpy(win, span, d1 + z->doff - GUARD, span, ACL_MEMCPY_DEFAULT));
	CHECK_EQ(check_bytes(win, GUARD, 0x5a), -1);
	CHECK_EQ(check_pattern(win + GUARD, z->n, seed), -1);
	CHECK_EQ(check_bytes(win + GUARD + z->n, GUARD, 0x5a), -1);
	CHECK_ACL_OK(aclrtMemcpy(win, span, d2 + z->doff - GUARD, span, ACL_MEMCPY_DEFAULT));
	CHECK_EQ(check_bytes(win, GUARD, 0x3c), -1);
	CHECK_EQ(check_bytes(win + GUARD + z->n, GUARD, 0x3c), -1);
	free(win);

	CHECK_ACL_OK(aclrtFree(d1));
	CHECK_ACL_OK(aclrtFree(d2));
	hbuf_free(&src);
	hbuf_free(&dst);
}

static void all_sizes(enum hbuf_type t)
{
	size_t i;

	acl_setup();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		roundtrip(t, &sizes[i], (uint32_t)(t * 100 + i));
}

TEST(pinned_all_sizes)
{
	all_sizes(HB_PINNED);
}

TEST(registered_all_sizes)
{
	all_sizes(HB_REGISTERED);
}

TEST(pageable_all_sizes)
{
	all_sizes(HB_PAGEABLE);
}

/* Host to host between every pair of kinds, sync (memmove). */
TEST(h2h_every_pair)
{
	struct hbuf a, b;
	int s, d;

	acl_setup();
	for (s = 0; s < HB_NTYPES; s++) {
		for (d = 0; d < HB_NTYPES; d++) {
			hbuf_alloc(&a, (enum hbuf_type)s, 5000);
			hbuf_alloc(&b, (enum hbuf_type)d, 5000);
			fill_pattern(a.p, 5000, (uint32_t)(s * 3 + d));
			memset(b.p, 0, 5000);
			CHECK_ACL_OK(aclrtMemcpy(b.p + 1, 4999, a.p, 4097, ACL_MEMCPY_HOST_TO_HOST));
			CHECK_EQ(check_pattern(b.p + 1, 4097, (uint32_t)(s * 3 + d)), -1);
			CHECK_EQ(b.p[0], 0);
			CHECK_ACL_OK(aclrtMemcpy(b.p, 5000, a.p, 5000, ACL_MEMCPY_DEFAULT));
			CHECK_EQ(check_pattern(b.p, 5000, (uint32_t)(s * 3 + d)), -1);
			hbuf_free(&a);
			hbuf_free(&b);
		}
	}
}

/* Mixed kinds: pinned -> device -> registered, pageable -> device -> pinned. */
TEST(mixed_kinds)
{
	struct hbuf a, b;
	char *d;
	int s, t;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&d, 70000, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (s = 0; s < HB_NTYPES; s++) {
		for (t = 0; t < HB_NTYPES; t++) {
			hbuf_alloc(&a, (enum hbuf_type)s, 70000);
			hbuf_alloc(&b, (enum hbuf_type)t, 70000);
			fill_pattern(a.p, 70000, (uint32_t)(s * 7 + t));
			memset(b.p, 0, 70000);
			CHECK_ACL_OK(aclrtMemcpy(d, 70000, a.p, 70000, ACL_MEMCPY_DEFAULT));
			CHECK_ACL_OK(aclrtMemcpy(b.p, 70000, d, 70000, ACL_MEMCPY_DEFAULT));
			CHECK_EQ(check_pattern(b.p, 70000, (uint32_t)(s * 7 + t)), -1);
			hbuf_free(&a);
			hbuf_free(&b);
		}
	}
	CHECK_ACL_OK(aclrtFree(d));
}

static void big(enum hbuf_type t)
{
	size_t n = 64 << 20;
	struct hbuf a, b;
	char *d;

	acl_setup();
	hbuf_alloc(&a, t, n);
	hbuf_alloc(&b, t, n);
	REQUIRE_ACL(aclrtMalloc((void **)&d, n, ACL_MEM_MALLOC_HUGE_FIRST));
	fill_pattern(a.p, n, 64);
	memset(b.p, 0, n);
	CHECK_ACL_OK(aclrtMemcpy(d, n, a.p, n, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpy(b.p, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(b.p, n, 64), -1);
	CHECK_ACL_OK(aclrtFree(d));
	hbuf_free(&a);
	hbuf_free(&b);
}

TEST(pinned_64mib)
{
	big(HB_PINNED);
}

TEST(pageable_64mib)
{
	big(HB_PAGEABLE);
}

/* CANN's checks and their order; a kind against the pointers -> 107000. */
TEST(codes_and_kinds)
{
	struct hbuf p;
	char host[64], *d;
	const char *m;

	acl_setup();
	hbuf_alloc(&p, HB_PINNED, 64);
	REQUIRE_ACL(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_OK(aclrtMemcpy(NULL, 0, NULL, 0, (aclrtMemcpyKind)7));
	CHECK_ACL_ERR(aclrtMemcpy(d, 64, NULL, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy(d, 64, p.p, 4, (aclrtMemcpyKind)6), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy(d, 64, p.p, 4, (aclrtMemcpyKind)7), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpy(d, 3, p.p, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtMemcpy(p.p, 64, p.p, 64, ACL_MEMCPY_HOST_TO_HOST));
	/* Contradicting kinds name where the memory really is. */
	CHECK_EQ(aclrtMemcpy(d, 64, p.p, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "device memory") && strstr(m, "aclrtMallocHost"));
	CHECK_ACL_ERR(aclrtMemcpy(host, 64, d, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(aclrtMemcpy(host, 64, p.p, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "pageable"));
	/* HOST_TO_BUF_TO_DEVICE is host to device. */
	fill_pattern(p.p, 64, 9);
	CHECK_ACL_OK(aclrtMemcpy(d, 64, p.p, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
	CHECK_ACL_OK(aclrtMemcpy(host, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(host, 64, 9), -1);
	/* Past the end of pinned memory (one page) / of the allocation. */
	CHECK_ACL_ERR(aclrtMemcpy(d, 64, p.p + 4090, 64, ACL_MEMCPY_HOST_TO_DEVICE),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtMemcpy(d, 128, host, 128, ACL_MEMCPY_HOST_TO_DEVICE),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* Unmapped pageable memory. */
	CHECK_ACL_ERR(aclrtMemcpy(d, 64, (void *)(uintptr_t)4096, 64, ACL_MEMCPY_HOST_TO_DEVICE),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtFree(d));
	hbuf_free(&p);
	aclrtResetDevice(0);
	CHECK_ACL_ERR(aclrtMemcpy(host, 64, host + 1, 4, ACL_MEMCPY_HOST_TO_HOST),
		      ACL_ERROR_RT_CONTEXT_NULL);
}

int main(void)
{
	return tap_main();
}
