// SPDX-License-Identifier: MIT
/*
 * aclrtMalloc / aclrtFree: argument checks, CANN error codes, alignment,
 * distinct allocations, and device pointers not being host memory.
 */
#define _GNU_SOURCE
#include "acl_util.h"

static const aclrtMemMallocPolicy all_policies[] = {
	ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY,
	ACL_MEM_MALLOC_NORMAL_ONLY, ACL_MEM_MALLOC_HUGE_FIRST_P2P,
	ACL_MEM_MALLOC_HUGE_ONLY_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
};

TEST(malloc_free)
{
	void *p = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(p != NULL);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(malloc_every_policy)
{
	unsigned int i;
	void *p;

	acl_setup();
	for (i = 0; i < sizeof(all_policies) / sizeof(all_policies[0]); i++) {
		p = NULL;
		CHECK_ACL_OK(aclrtMalloc(&p, 3 << 20, all_policies[i]));
		CHECK(p != NULL);
		if (p)
			CHECK_ACL_OK(aclrtFree(p));
	}
}

TEST(malloc_size_zero_100000)
{
	void *p = NULL;

	acl_setup();
	CHECK_ACL_ERR(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
}

TEST(malloc_null_ptr_100000)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtMalloc(NULL, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(malloc_without_device_107002)
{
	void *p = NULL;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_ERR(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
		      ACL_ERROR_RT_CONTEXT_NULL);
	aclFinalize();
}

TEST(malloc_after_reset_107002)
{
	void *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_ERR(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
		      ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(malloc_beyond_hbm_207001)
{
	void *p = NULL;

	acl_setup();
	/* 64 TiB: more than any device has. */
	CHECK_ACL_ERR(aclrtMalloc(&p, (size_t)1 << 46, ACL_MEM_MALLOC_HUGE_FIRST),
		      ACL_ERROR_RT_MEMORY_ALLOCATION);
	CHECK_ACL_ERR(aclrtMalloc(&p, (size_t)1 << 46, ACL_MEM_MALLOC_NORMAL_ONLY),
		      ACL_ERROR_RT_MEMORY_ALLOCATION);
}

TEST(malloc_size_overflow)
{
	void *p = NULL;

	/* Rounding SIZE_MAX up must not wrap into a small allocation. */
	acl_setup();
	CHECK_ACL_FAIL(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_FAIL(aclrtMalloc(&p, SIZE_MAX - 31, ACL_MEM_MALLOC_NORMAL_ONLY));
}

TEST(malloc_oom_is_recoverable)
{
	void *p = NULL;

	acl_setup();
	CHECK_ACL_FAIL(aclrtMalloc(&p, (size_t)1 << 46, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(malloc_64_byte_aligned)
{
	static const size_t sizes[] = { 1, 31, 33, 64, 65, 4095, 4097, (1 << 20) + 1,
					(2 << 20) + 7 };
	void *p[sizeof(sizes) / sizeof(sizes[0])];
	unsigned int i;

	acl_setup();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		REQUIRE_ACL(aclrtMalloc(&p[i], sizes[i], ACL_MEM_MALLOC_HUGE_FIRST));
		CHECK_EQ((uintptr_t)p[i] % 64, 0);
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		CHECK_ACL_OK(aclrtFree(p[i]));
}

TEST(malloc_distinct_non_overlapping)
{
	enum { N = 24 };
	size_t size[N];
	char *p[N];
	int i, j;

	acl_setup();
	for (i = 0; i < N; i++) {
		size[i] = (size_t)(i % 6 + 1) * 1000 + (i % 3 ? 0 : (3 << 20));
		REQUIRE_ACL(aclrtMalloc((void **)&p[i], size[i],
					i % 2 ? ACL_MEM_MALLOC_NORMAL_ONLY :
						ACL_MEM_MALLOC_HUGE_FIRST));
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			if (i != j)
				CHECK(p[i] + size[i] <= p[j] || p[j] + size[j] <= p[i]);
	for (i = 0; i < N; i++)
		CHECK_ACL_OK(aclrtFree(p[i]));
}

TEST(malloc_free_cycle)
{
	void *p;
	int i;

	acl_setup();
	for (i = 0; i < 16; i++) {
		REQUIRE_ACL(aclrtMalloc(&p, 16 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
		REQUIRE_ACL(aclrtFree(p));
	}
}

static int touch_in_child(volatile char *p, int write)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (write)
			*p = 1;
		else
			(void)*p;
		_exit(0);
	}
	REQUIRE(pid > 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

TEST(device_pointer_not_host_memory)
{
	char *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_EQ(touch_in_child(p, 0), SIGSEGV);
	CHECK_EQ(touch_in_child(p, 1), SIGSEGV);
	CHECK_EQ(touch_in_child(p + (1 << 20) - 1, 0), SIGSEGV);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(free_null_100000)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(double_free)
{
	void *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_FAIL(aclrtFree(p));
}

TEST(free_foreign_pointers)
{
	char *p = NULL;
	char *host = malloc(64);
	int on_stack;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_FAIL(aclrtFree(host));
	CHECK_ACL_FAIL(aclrtFree(&on_stack));
	CHECK_ACL_FAIL(aclrtFree((void *)(uintptr_t)0x1000));
	/* An interior pointer is not an allocation. */
	CHECK_ACL_FAIL(aclrtFree(p + 64));
	/* The allocation itself is intact after all that. */
	CHECK_ACL_OK(aclrtFree(p));
	free(host);
}

TEST(memory_survives_other_frees)
{
	aclrtStream s = NULL;
	int *a = NULL, *b = NULL, v = 0;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMalloc((void **)&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	write_dev_ints(s, a, (int[]){ 4242 }, 1);
	CHECK_ACL_OK(aclrtFree(b));
	REQUIRE(read_dev_ints(s, a, &v, 1) == 1);
	CHECK_EQ(v, 4242);
	CHECK_ACL_OK(aclrtFree(a));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(oom_message_says_sizes)
{
	const char *m;
	void *p = NULL;

	acl_setup();
	CHECK_EQ(aclrtMalloc(&p, (size_t)1 << 46, ACL_MEM_MALLOC_HUGE_FIRST),
		 ACL_ERROR_RT_MEMORY_ALLOCATION);
	m = aclGetRecentErrMsg();
	REQUIRE(m);
	printf("# %s\n", m);
	CHECK(strstr(m, "aclrtMalloc"));
	CHECK(strstr(m, "70368744177664"));	/* what was asked */
	CHECK(strstr(m, "free"));
	CHECK(strstr(m, "largest free block"));
}

TEST(malloc_with_cfg)
{
	aclrtMallocAttribute at[3];
	aclrtMallocConfig cfg = { at, 3 };
	void *p = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtMallocWithCfg(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
	CHECK_ACL_OK(aclrtFree(p));
	memset(at, 0, sizeof(at));
	at[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
	at[0].value.moduleId = 7;
	at[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	at[1].value.deviceId = 0;
	at[2].attr = ACL_RT_MEM_ATTR_VA_FLAG;
	at[2].value.vaFlag = 0;
	p = NULL;
	CHECK_ACL_OK(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg));
	CHECK(p != NULL);
	CHECK_ACL_OK(aclrtFree(p));
	cfg.numAttrs = 0;
	CHECK_ACL_OK(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg));
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(malloc_with_cfg_errors)
{
	aclrtMallocAttribute at;
	aclrtMallocConfig cfg = { &at, 1 };
	aclrtMallocConfig nulls = { NULL, 2 };
	const char *m;
	void *p = NULL;

	acl_setup();
	CHECK_EQ(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &nulls),
		 ACL_ERROR_INVALID_PARAM);
	m = aclGetRecentErrMsg();
	CHECK(m && strstr(m, "aclrtMallocWithCfg"));
	memset(&at, 0, sizeof(at));
	at.attr = ACL_RT_MEM_ATTR_RSV;
	CHECK_ACL_ERR(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg),
		      ACL_ERROR_INVALID_PARAM);
	at.attr = (aclrtMallocAttrType)42;
	CHECK_ACL_ERR(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg),
		      ACL_ERROR_INVALID_PARAM);
	at.attr = ACL_RT_MEM_ATTR_VA_FLAG;
	at.value.vaFlag = 2;
	CHECK_ACL_ERR(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg),
		      ACL_ERROR_INVALID_PARAM);
	at.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	at.value.deviceId = 1000;
	CHECK_ACL_ERR(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg),
		      ACL_ERROR_RT_INVALID_DEVICEID);
	at.value.deviceId = 0;
	CHECK_ACL_ERR(aclrtMallocWithCfg(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, &cfg),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMallocWithCfg(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(malloc_with_cfg_device_id)
{
	aclrtMallocAttribute at;
	aclrtMallocConfig cfg = { &at, 1 };
	aclrtPtrAttributes pa;
	uint32_t n = 0;
	void *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs num_devices=2");
	memset(&at, 0, sizeof(at));
	at.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	at.value.deviceId = 1;
	/* Device 1 not set yet: no context for it. */
	CHECK_ACL_ERR(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg),
		      ACL_ERROR_RT_CONTEXT_NULL);
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	REQUIRE_ACL(aclrtPointerGetAttributes(p, &pa));
	CHECK_EQ(pa.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	CHECK_EQ(pa.location.id, 1);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(free_with_dev_sync)
{
	aclrtStream s = NULL;
	int *a = NULL, v = 0;
	struct capture c;
	void *p = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	/* Queued work on the device; the free waits for it. */
	capture_begin(&c);
	REQUIRE_ACL(launch_write(s, a, 31, 1));
	CHECK_ACL_OK(aclrtFreeWithDevSync(p));
	free(capture_end(&c));
	CHECK_ACL_ERR(aclrtFreeWithDevSync(p), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtFreeWithDevSync(&v), ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE(read_dev_ints(s, a, &v, 1) == 1);
	CHECK_EQ(v, 31);
	CHECK_ACL_OK(aclrtFreeWithDevSync(a));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
