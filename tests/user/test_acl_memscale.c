// SPDX-License-Identifier: MIT
/*
 * Many live allocations: ACL_MEMSCALE_N (default 20000) small allocations,
 * every one found again at its first byte, last byte and one past its end,
 * then freed in an order that is neither the allocation order nor its
 * reverse.  Run with ACL_MEMSCALE_N=100000 (and time it) to check the
 * 100,000-allocation goal; the elapsed times are printed, never judged.
 */
#define _GNU_SOURCE
#include <time.h>

#include "acl_util.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static size_t count(void)
{
	const char *e = getenv("ACL_MEMSCALE_N");

	return e && atol(e) > 0 ? (size_t)atol(e) : 20000;
}

TEST(many_live_allocations)
{
	size_t n = count(), i, j, size, step;
	size_t f0 = 0, f1 = 0, t = 0;
	char **p = calloc(n, sizeof(*p));
	double t0, t1, t2, t3;
	aclrtPtrAttributes a;
	void *b;

	REQUIRE(p);
	acl_setup();
	REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &f0, &t));
	t0 = now();
	for (i = 0; i < n; i++)
		REQUIRE_ACL(aclrtMalloc((void **)&p[i], 1 + i % 3000, ACL_MEM_MALLOC_NORMAL_ONLY));
	t1 = now();
	REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t));
	CHECK_EQ(f0 - f1, n * 4096);

	for (i = 0; i < n; i++) {
		REQUIRE_ACL(aclrtMemGetAddressRange(p[i], &b, &size));
		if (b != p[i] || size != 4096) {
			CHECK(b == p[i]);
			CHECK_EQ(size, 4096);
			break;
		}
		REQUIRE_ACL(aclrtMemGetAddressRange(p[i] + size - 1, &b, NULL));
		CHECK(b == p[i]);
		REQUIRE_ACL(aclrtPointerGetAttributes(p[i] + size - 1, &a));
		CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
		/* One past the end: some other allocation, or none. */
		if (aclrtMemGetAddressRange(p[i] + size, &b, NULL) == ACL_SUCCESS)
			CHECK(b == p[i] + size);
		else
			(void)aclGetRecentErrMsg();
	}
	t2 = now();

	/* Free with a stride coprime to n: a scattered order. */
	for (step = 7919; gcd(n, step) != 1; step++)
		;
	for (i = 0, j = n / 3; i < n; i++, j = (j + step) % n) {
		REQUIRE(p[j] != NULL);
		REQUIRE_ACL(aclrtFree(p[j]));
		p[j] = NULL;
	}
	t3 = now();
	REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t));
	CHECK_EQ(f1, f0);
	CHECK_ACL_ERR(aclrtMemGetAddressRange(p, &b, NULL), ACL_ERROR_RT_PARAM_INVALID);
	printf("# %zu allocations: malloc %.3f s, 3 lookups each %.3f s, free %.3f s\n",
	       n, t1 - t0, t2 - t1, t3 - t2);
	free(p);
}

int main(void)
{
	return tap_main();
}
