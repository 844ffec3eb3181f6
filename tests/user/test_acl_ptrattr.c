// SPDX-License-Identifier: MIT
/*
 * Pointer questions: aclrtPointerGetAttributes, aclrtMemGetAddressRange and
 * aclrtCheckMemType, at allocation edges (first byte, last byte, one past),
 * for host memory, freed memory and a second device.
 */
#define _GNU_SOURCE
#include "acl_util.h"

#define SZ_2M	((size_t)2 << 20)

static aclrtPtrAttributes attrs(const void *p)
{
	aclrtPtrAttributes a;

	memset(&a, 0xa5, sizeof(a));
	REQUIRE_ACL(aclrtPointerGetAttributes(p, &a));
	return a;
}

static void check_device(const void *p, uint32_t dev, uint32_t page)
{
	aclrtPtrAttributes a = attrs(p);

	CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	CHECK_EQ(a.location.id, dev);
	CHECK_EQ(a.pageSize, page);
}

static void check_range(void *p, void *base, size_t size)
{
	void *b = NULL;
	size_t s = 0;

	CHECK_ACL_OK(aclrtMemGetAddressRange(p, &b, &s));
	CHECK(b == base);
	CHECK_EQ(s, size);
}

TEST(device_edges)
{
	static const struct {
		size_t size;
		aclrtMemMallocPolicy policy;
		size_t page, reserved;
	} cases[] = {
		{ 1, ACL_MEM_MALLOC_NORMAL_ONLY, 4096, 4096 },
		/* + 32 bytes padding, rounded to 32, then to the page */
		{ 4096 - 32, ACL_MEM_MALLOC_HUGE_FIRST, 4096, 4096 },
		{ 4096 - 31, ACL_MEM_MALLOC_HUGE_FIRST, 4096, 8192 },
		{ (1 << 20) - 64, ACL_MEM_MALLOC_HUGE_FIRST, 4096, 1 << 20 },
		{ 3 << 20, ACL_MEM_MALLOC_HUGE_FIRST, SZ_2M, 2 * SZ_2M },
		{ 100, ACL_MEM_MALLOC_HUGE_ONLY_P2P, SZ_2M, SZ_2M },
	};
	unsigned int i;

	acl_setup();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = NULL;
		void *b = NULL;
		size_t s = 0;

		REQUIRE_ACL(aclrtMalloc((void **)&p, cases[i].size, cases[i].policy));
		check_device(p, 0, cases[i].page);
		check_device(p + cases[i].size / 2, 0, cases[i].page);
		check_device(p + cases[i].reserved - 1, 0, cases[i].page);
		check_range(p, p, cases[i].reserved);
		check_range(p + cases[i].reserved - 1, p, cases[i].reserved);
		/* One past the end is not this allocation. */
		if (aclrtMemGetAddressRange(p + cases[i].reserved, &b, &s) == ACL_SUCCESS)
			CHECK(b != p);
		else
			CHECK(acl_has_errmsg());
		CHECK_ACL_OK(aclrtFree(p));
		/* Freed: no longer device memory anyone holds. */
		CHECK_EQ(attrs(p).location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
		CHECK_ACL_ERR(aclrtMemGetAddressRange(p, &b, &s), ACL_ERROR_RT_PARAM_INVALID);
	}
}

TEST(neighbours_are_told_apart)
{
	char *p[8];
	int i, j;

	acl_setup();
	for (i = 0; i < 8; i++)
		REQUIRE_ACL(aclrtMalloc((void **)&p[i], 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < 8; i++) {
		void *b;
		size_t s;

		REQUIRE_ACL(aclrtMemGetAddressRange(p[i] + 999, &b, &s));
		CHECK(b == p[i]);
		for (j = 0; j < 8; j++)
			if (j != i)
				CHECK(p[j] < (char *)b || p[j] >= (char *)b + s);
	}
	for (i = 0; i < 8; i++)
		CHECK_ACL_OK(aclrtFree(p[i]));
}

TEST(host_memory_is_unregistered)
{
	char *heap = malloc(100);
	int on_stack = 0;
	aclrtPtrAttributes a;

	acl_setup();
	a = attrs(heap);
	CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	CHECK_EQ(a.pageSize, (uint32_t)sysconf(_SC_PAGESIZE));
	CHECK_EQ(attrs(&on_stack).location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	CHECK_EQ(attrs((void *)(uintptr_t)16).location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	CHECK_ACL_ERR(aclrtMemGetAddressRange(heap, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	free(heap);
}

TEST(attributes_need_no_device)
{
	int x;

	/* A host pointer can be asked about before any aclrtSetDevice. */
	CHECK_ACL_OK(aclInit(NULL));
	CHECK_EQ(attrs(&x).location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

TEST(attributes_null_100000)
{
	aclrtPtrAttributes a;
	void *p = NULL;
	const char *m;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_EQ(aclrtPointerGetAttributes(NULL, &a), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "aclrtPointerGetAttributes"));
	CHECK_ACL_ERR(aclrtPointerGetAttributes(p, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(address_range_optional_outputs)
{
	char *p = NULL;
	void *b = NULL;
	size_t s = 0;
	const char *m;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 5000, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_OK(aclrtMemGetAddressRange(p + 17, &b, NULL));
	CHECK(b == p);
	CHECK_ACL_OK(aclrtMemGetAddressRange(p + 17, NULL, &s));
	CHECK_EQ(s, 8192);
	CHECK_ACL_OK(aclrtMemGetAddressRange(p + 17, NULL, NULL));
	CHECK_EQ(aclrtMemGetAddressRange(NULL, &b, &s), ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "aclrtMemGetAddressRange"));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(check_mem_type)
{
	void *list[4], *mixed[3];
	int host;
	uint32_t r;
	int i;

	acl_setup();
	for (i = 0; i < 4; i++)
		REQUIRE_ACL(aclrtMalloc(&list[i], (size_t)(i + 1) * 3000, ACL_MEM_MALLOC_HUGE_FIRST));
	r = 7;
	CHECK_ACL_OK(aclrtCheckMemType(list, 4, ACL_RT_MEM_TYPE_DEV, &r, 0));
	CHECK_EQ(r, 1);
	/* Interior pointers are device memory too. */
	list[2] = (char *)list[2] + 100;
	r = 7;
	CHECK_ACL_OK(aclrtCheckMemType(list, 4, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, &r, 0));
	CHECK_EQ(r, 1);
	list[2] = (char *)list[2] - 100;
	/* No DVPP memory here. */
	r = 7;
	CHECK_ACL_OK(aclrtCheckMemType(list, 4, ACL_RT_MEM_TYPE_DVPP, &r, 0));
	CHECK_EQ(r, 0);
	mixed[0] = list[0];
	mixed[1] = &host;
	mixed[2] = list[1];
	r = 7;
	CHECK_ACL_OK(aclrtCheckMemType(mixed, 3, ACL_RT_MEM_TYPE_DEV, &r, 0));
	CHECK_EQ(r, 0);

	CHECK_ACL_ERR(aclrtCheckMemType(NULL, 4, ACL_RT_MEM_TYPE_DEV, &r, 0),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCheckMemType(list, 4, ACL_RT_MEM_TYPE_DEV, NULL, 0),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &r, 0),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCheckMemType(list, 4, ACL_RT_MEM_TYPE_DEV, &r, 1),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCheckMemType(list, 4, 0, &r, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCheckMemType(list, 4, 0x1, &r, 0), ACL_ERROR_INVALID_PARAM);

	for (i = 0; i < 4; i++)
		CHECK_ACL_OK(aclrtFree(list[i]));
	r = 7;
	CHECK_ACL_OK(aclrtCheckMemType(list, 4, ACL_RT_MEM_TYPE_DEV, &r, 0));
	CHECK_EQ(r, 0);
}

TEST(second_device)
{
	uint32_t n = 0;
	void *p0 = NULL, *p1 = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs num_devices=2");
	REQUIRE_ACL(aclrtMalloc(&p0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtMalloc(&p1, 3 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	check_device(p0, 0, 4096);
	check_device(p1, 1, SZ_2M);
	check_range(p1, p1, 2 * SZ_2M);
	CHECK_ACL_OK(aclrtFree(p0));
	CHECK_ACL_OK(aclrtFree(p1));
}

int main(void)
{
	return tap_main();
}
