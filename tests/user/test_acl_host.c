// SPDX-License-Identifier: MIT
/*
 * test_acl_host.c - pinned host memory: aclrtMallocHost / FreeHost /
 * WithCfg / WithDevSync, aclrtHostRegister / V2 / Unregister /
 * GetDevicePointer with CANN's codes (507899 misaligned, 507910 already
 * registered, 507911 not registered), pointer attributes of host memory,
 * memset on pinned memory, RLIMIT_MEMLOCK (a child without CAP_IPC_LOCK and
 * a low limit gets 207001 and a message naming the limit), and device reset.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "acl_util.h"

static size_t pg(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static void *map_pages(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	REQUIRE(p != MAP_FAILED);
	return p;
}

static aclrtPtrAttributes attrs(const void *p)
{
	aclrtPtrAttributes a;

	memset(&a, 0xff, sizeof(a));
	REQUIRE_ACL(aclrtPointerGetAttributes(p, &a));
	return a;
}

TEST(malloc_host_basics)
{
	char *p = NULL, *q = NULL;
	size_t i;

	acl_setup();
	CHECK_ACL_ERR(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMallocHost((void **)&p, 0), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtMallocHost((void **)&p, 100));
	REQUIRE_ACL(aclrtMallocHost((void **)&q, 3 * pg() + 1));
	CHECK_EQ((uintptr_t)p % 64, 0);
	CHECK_EQ((uintptr_t)q % 64, 0);
	memset(p, 0xab, 100);
	for (i = 0; i < 3 * pg() + 1; i++)
		q[i] = (char)i;
	CHECK_EQ(check_bytes(p, 100, 0xab), -1);
	CHECK_EQ(q[3 * pg()], (char)(3 * pg()));
	CHECK_ACL_ERR(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtFreeHost(p + 64), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtFreeHost(p));
	CHECK_ACL_ERR(aclrtFreeHost(p), ACL_ERROR_RT_PARAM_INVALID);	/* twice */
	CHECK_ACL_OK(aclrtFreeHostWithDevSync(q));
	p = malloc(64);
	CHECK_EQ(aclrtFreeHost(p), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "aclrtMallocHost") != NULL);
	free(p);
}

TEST(malloc_host_with_cfg)
{
	aclrtMallocAttribute at[2];
	aclrtMallocConfig cfg = { at, 2 };
	void *p = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtMallocHostWithCfg(&p, 4096, NULL));
	CHECK_ACL_OK(aclrtFreeHost(p));
	at[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
	at[0].value.moduleId = 7;
	at[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	at[1].value.deviceId = 0;
	CHECK_ACL_OK(aclrtMallocHostWithCfg(&p, 4096, &cfg));
	CHECK_EQ(attrs(p).location.type, ACL_MEM_LOCATION_TYPE_HOST);
	CHECK_ACL_OK(aclrtFreeHost(p));
	at[1].value.deviceId = 1000;
	CHECK_ACL_ERR(aclrtMallocHostWithCfg(&p, 4096, &cfg), ACL_ERROR_RT_INVALID_DEVICEID);
	at[1].attr = ACL_RT_MEM_ATTR_RSV;
	CHECK_ACL_ERR(aclrtMallocHostWithCfg(&p, 4096, &cfg), ACL_ERROR_INVALID_PARAM);
	cfg.attrs = NULL;
	CHECK_ACL_ERR(aclrtMallocHostWithCfg(&p, 4096, &cfg), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMallocHostWithCfg(&p, 0, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(register_and_errors)
{
	size_t n = 4 * pg();
	char *m = map_pages(n), *h = NULL;
	void *dp = NULL;

	acl_setup();
	CHECK_ACL_ERR(aclrtHostRegister(m, n, ACL_HOST_REGISTER_MAPPED, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtHostRegister(NULL, n, ACL_HOST_REGISTER_MAPPED, &dp),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtHostRegister(m, 0, ACL_HOST_REGISTER_MAPPED, &dp),
		      ACL_ERROR_INVALID_PARAM);
	/* Not page aligned -> the driver error CANN reports (507899). */
	CHECK_ACL_ERR(aclrtHostRegister(m + 64, pg(), ACL_HOST_REGISTER_MAPPED, &dp),
		      ACL_ERROR_RT_DRV_INTERNAL_ERROR);
	CHECK_ACL_ERR(aclrtHostRegister(m, pg() + 1, ACL_HOST_REGISTER_MAPPED, &dp),
		      ACL_ERROR_RT_DRV_INTERNAL_ERROR);
	CHECK_ACL_ERR(aclrtHostRegisterV2(m + 1, pg(), ACL_HOST_REG_PINNED),
		      ACL_ERROR_RT_DRV_INTERNAL_ERROR);
	CHECK_ACL_ERR(aclrtHostRegister(m, n, ACL_HOST_REGISTER_IOMEMORY, &dp),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtHostRegister(m, n, ACL_HOST_REGISTER_READONLY, &dp),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtHostRegister(m, n, (aclrtHostRegisterType)3, &dp),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtHostRegisterV2(m, n, 0x40), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtHostRegisterV2(m, n, ACL_HOST_REG_MAPPED | 0x40),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtHostRegisterV2(m, n, 0), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtHostRegisterV2(NULL, n, 0x40), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtHostRegisterV2(m, 0, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);

	REQUIRE_ACL(aclrtHostRegister(m, n, ACL_HOST_REGISTER_MAPPED, &dp));
	CHECK(dp == m);
	CHECK_EQ(attrs(m + 5).location.type, ACL_MEM_LOCATION_TYPE_HOST);
	/* Already pinned: the same range, a part of it, an overlap. */
	CHECK_ACL_ERR(aclrtHostRegister(m, n, ACL_HOST_REGISTER_MAPPED, &dp),
		      ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_ACL_ERR(aclrtHostRegisterV2(m + pg(), pg(), ACL_HOST_REG_PINNED),
		      ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_ACL_ERR(aclrtHostRegisterV2(m - pg(), 2 * pg(), ACL_HOST_REG_MAPPED),
		      ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	/* aclrtMallocHost memory is not registered until registered. */
	REQUIRE_ACL(aclrtMallocHost((void **)&h, pg()));
	CHECK_ACL_ERR(aclrtHostUnregister(h), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_ACL_ERR(aclrtFreeHost(m), ACL_ERROR_RT_PARAM_INVALID);
	/* Device pointers. */
	dp = NULL;
	CHECK_ACL_OK(aclrtHostGetDevicePointer(m + 100, &dp, 0));
	CHECK(dp == m + 100);
	CHECK_ACL_OK(aclrtHostGetDevicePointer(h, &dp, 0));
	CHECK(dp == h);
	CHECK_ACL_ERR(aclrtHostGetDevicePointer(m, &dp, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtHostGetDevicePointer(m, NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtHostGetDevicePointer(m + n, &dp, 0),
		      ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	/* Unregister: only the start, only once. */
	CHECK_ACL_ERR(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtHostUnregister(m + pg()), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_ACL_OK(aclrtHostUnregister(m));
	CHECK_ACL_ERR(aclrtHostUnregister(m), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_ACL_ERR(aclrtHostGetDevicePointer(m, &dp, 0), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_EQ(attrs(m).location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	/* V2 flags: PINNED, MAPPED, READONLY; again after unregister. */
	CHECK_ACL_OK(aclrtHostRegisterV2(m, n, ACL_HOST_REG_PINNED));
	CHECK_ACL_OK(aclrtHostUnregister(m));
	CHECK_ACL_OK(aclrtHostRegisterV2(m, n, ACL_HOST_REG_MAPPED | ACL_HOST_REG_READONLY));
	CHECK_ACL_OK(aclrtHostUnregister(m));
	CHECK_ACL_ERR(aclrtHostRegisterV2(m, n, ACL_HOST_REG_IOMEMORY),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* Unmapped memory cannot be pinned. */
	munmap(m, n);
	CHECK_ACL_FAIL(aclrtHostRegister(m, n, ACL_HOST_REGISTER_MAPPED, &dp));
	CHECK_ACL_OK(aclrtFreeHost(h));
}

/*
 * CANN's zero-copy sample: aclrtMallocHost memory registered MAPPED, used by
 * the device through aclrtHostGetDevicePointer, unregistered, freed.
 */
TEST(register_malloc_host)
{
	size_t n = 4 * pg();
	char *h = NULL, *h2 = NULL, *d = NULL;
	void *dp = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtMallocHost((void **)&h, n));
	CHECK_ACL_OK(aclrtHostRegisterV2(h, n, ACL_HOST_REG_MAPPED));
	/* the same range, a part of it, again: already registered */
	CHECK_ACL_ERR(aclrtHostRegisterV2(h, n, ACL_HOST_REG_MAPPED),
		      ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_ACL_ERR(aclrtHostRegisterV2(h + pg(), pg(), ACL_HOST_REG_PINNED),
		      ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_ACL_ERR(aclrtHostRegister(h, pg(), ACL_HOST_REGISTER_MAPPED, &dp),
		      ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_ACL_OK(aclrtHostGetDevicePointer(h, &dp, 0));
	CHECK(dp == h);
	/* the device reaches it: bytes through the mapped pointer */
	REQUIRE_ACL(aclrtMalloc((void **)&d, n, ACL_MEM_MALLOC_NORMAL_ONLY));
	fill_pattern(h, n, 31);
	CHECK_ACL_OK(aclrtMemcpy(d, n, dp, n, ACL_MEMCPY_DEFAULT));
	memset(h, 0, n);
	CHECK_ACL_OK(aclrtMemcpy(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(h, n, 31), -1);
	CHECK_ACL_ERR(aclrtHostUnregister(h + pg()), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_ACL_OK(aclrtHostUnregister(h));
	CHECK_ACL_ERR(aclrtHostUnregister(h), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	/* a part may be registered, and again after unregistering */
	CHECK_ACL_OK(aclrtHostRegisterV2(h + pg(), 2 * pg(), ACL_HOST_REG_PINNED));
	/* crossing the allocation's end is not inside it */
	CHECK_ACL_ERR(aclrtHostRegisterV2(h + 2 * pg(), n, ACL_HOST_REG_MAPPED),
		      ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	/* freeing the allocation drops its registration */
	CHECK_ACL_OK(aclrtFreeHost(h));
	CHECK_ACL_ERR(aclrtHostUnregister(h + pg()), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	REQUIRE_ACL(aclrtMallocHost((void **)&h2, n));
	CHECK_ACL_OK(aclrtHostRegisterV2(h2, n, ACL_HOST_REG_MAPPED));
	CHECK_ACL_OK(aclrtHostUnregister(h2));
	CHECK_ACL_OK(aclrtFreeHost(h2));
	CHECK_ACL_OK(aclrtFree(d));
}

/*
 * A thread with no current device: CANN's runtime asks for the current
 * context before it looks at the memory, so registering is 107002 for
 * aclrtMallocHost memory, for plain pages and for a misaligned range alike
 * (the argument checks, NULL and size 0, still come first).
 */
struct noctx_arg {
	char *h;	/* aclrtMallocHost memory of device 0 */
	char *m;	/* plain mmap pages */
	aclError v1, v2, plain, misaligned, null_ptr;
	int msgs;	/* how many of them left a message (in that thread) */
};

static void *noctx_thread(void *p)
{
	struct noctx_arg *a = p;
	void *dp = NULL;

	a->v1 = aclrtHostRegister(a->h, pg(), ACL_HOST_REGISTER_MAPPED, &dp);
	a->msgs += acl_has_errmsg();
	a->v2 = aclrtHostRegisterV2(a->h, pg(), ACL_HOST_REG_MAPPED);
	a->msgs += acl_has_errmsg();
	a->plain = aclrtHostRegisterV2(a->m, pg(), ACL_HOST_REG_PINNED);
	a->msgs += acl_has_errmsg();
	a->misaligned = aclrtHostRegisterV2(a->m + 1, pg(), ACL_HOST_REG_PINNED);
	a->msgs += acl_has_errmsg();
	a->null_ptr = aclrtHostRegisterV2(NULL, pg(), ACL_HOST_REG_MAPPED);
	a->msgs += acl_has_errmsg();
	return NULL;
}

TEST(register_without_context)
{
	struct noctx_arg a = { 0 };
	pthread_t t;

	acl_setup();
	REQUIRE_ACL(aclrtMallocHost((void **)&a.h, 2 * pg()));
	a.m = map_pages(2 * pg());
	REQUIRE(pthread_create(&t, NULL, noctx_thread, &a) == 0);
	REQUIRE(pthread_join(t, NULL) == 0);
	CHECK_EQ(a.v1, ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(a.v2, ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(a.plain, ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(a.misaligned, ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(a.null_ptr, ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(a.msgs, 5);
	/* nothing was registered: the device's thread registers it now */
	CHECK_ACL_OK(aclrtHostRegisterV2(a.h, pg(), ACL_HOST_REG_MAPPED));
	CHECK_ACL_OK(aclrtHostUnregister(a.h));
	CHECK_ACL_OK(aclrtHostRegisterV2(a.m, pg(), ACL_HOST_REG_PINNED));
	CHECK_ACL_OK(aclrtHostUnregister(a.m));
	CHECK_ACL_OK(aclrtFreeHost(a.h));
	munmap(a.m, 2 * pg());
}

/* Registered memory stays the caller's: data before and after survives. */
TEST(register_keeps_contents)
{
	size_t n = 2 * pg();
	char *m = map_pages(n), *d;

	acl_setup();
	fill_pattern(m, n, 77);
	REQUIRE_ACL(aclrtHostRegisterV2(m, n, ACL_HOST_REG_PINNED));
	CHECK_EQ(check_pattern(m, n, 77), -1);
	REQUIRE_ACL(aclrtMalloc((void **)&d, n, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_OK(aclrtMemcpy(d, n, m, n, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(m, 0, n);
	CHECK_ACL_OK(aclrtMemcpy(m, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_ACL_OK(aclrtHostUnregister(m));
	CHECK_EQ(check_pattern(m, n, 77), -1);
	CHECK_ACL_OK(aclrtFree(d));
	munmap(m, n);
}

TEST(pointer_attributes)
{
	char *p = NULL, *heap = malloc(64);
	aclrtPtrAttributes a;

	acl_setup();
	REQUIRE_ACL(aclrtMallocHost((void **)&p, 10000));
	a = attrs(p);
	CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
	CHECK_EQ(a.pageSize, pg());
	CHECK_EQ(attrs(p + 9999).location.type, ACL_MEM_LOCATION_TYPE_HOST);
	CHECK_EQ(attrs(heap).location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	CHECK_ACL_OK(aclrtFreeHost(p));
	CHECK_EQ(attrs(p).location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	free(heap);
}

TEST(memset_pinned)
{
	char *p = NULL;
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMallocHost((void **)&p, 256));
	CHECK_ACL_OK(aclrtMemset(p, 256, 0x5c, 256));
	CHECK_EQ(check_bytes(p, 256, 0x5c), -1);
	CHECK_ACL_OK(aclrtMemsetAsync(p, 256, 0x11, 128, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(check_bytes(p, 128, 0x11), -1);
	CHECK_EQ(check_bytes(p + 128, 128, 0x5c), -1);
	CHECK_ACL_OK(aclrtMemsetD32(p, 256, 0x01020304, 64));
	CHECK_EQ(((uint32_t *)p)[63], 0x01020304u);
	CHECK_ACL_OK(aclrtFreeHost(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* Drop CAP_IPC_LOCK so that RLIMIT_MEMLOCK applies to root too. */
static void drop_ipc_lock(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	REQUIRE(syscall(SYS_capget, &h, d) == 0);
	d[CAP_IPC_LOCK / 32].effective &= ~(1U << (CAP_IPC_LOCK % 32));
	d[CAP_IPC_LOCK / 32].permitted &= ~(1U << (CAP_IPC_LOCK % 32));
	d[CAP_IPC_LOCK / 32].inheritable &= ~(1U << (CAP_IPC_LOCK % 32));
	REQUIRE(syscall(SYS_capset, &h, d) == 0);
}

TEST(memlock_limit)
{
	struct rlimit rl = { 256 * 1024, 256 * 1024 };
	size_t big = 4 << 20;
	char *m, *p = NULL, *small = NULL, *d;
	const char *msg;
	void *dp;

	drop_ipc_lock();
	REQUIRE(setrlimit(RLIMIT_MEMLOCK, &rl) == 0);
	acl_setup();
	CHECK_EQ(aclrtMallocHost((void **)&p, big), ACL_ERROR_RT_MEMORY_ALLOCATION);
	msg = acl_errmsg();
	printf("#   %s\n", msg);
	CHECK(strstr(msg, "RLIMIT_MEMLOCK") && strstr(msg, "262144") && strstr(msg, "4194304"));
	m = map_pages(big);
	CHECK_EQ(aclrtHostRegister(m, big, ACL_HOST_REGISTER_MAPPED, &dp),
		 ACL_ERROR_RT_MEMORY_ALLOCATION);
	CHECK(strstr(acl_errmsg(), "RLIMIT_MEMLOCK") != NULL);
	/* Within the limit it works, and it is given back. */
	REQUIRE_ACL(aclrtMallocHost((void **)&small, 64 * 1024));
	CHECK_ACL_OK(aclrtFreeHost(small));
	CHECK_ACL_OK(aclrtHostRegister(m, 128 * 1024, ACL_HOST_REGISTER_MAPPED, &dp));
	CHECK_ACL_OK(aclrtHostUnregister(m));
	REQUIRE_ACL(aclrtMallocHost((void **)&small, 200 * 1024));
	CHECK_ACL_OK(aclrtFreeHost(small));
	/* Pageable copies pin only for the copy: larger than the limit is fine. */
	REQUIRE_ACL(aclrtMalloc((void **)&d, big, ACL_MEM_MALLOC_HUGE_FIRST));
	fill_pattern(m, big, 3);
	CHECK_ACL_OK(aclrtMemcpy(d, big, m, big, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(m, 0, big);
	CHECK_ACL_OK(aclrtMemcpy(m, big, d, big, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_pattern(m, big, 3), -1);
	CHECK_ACL_OK(aclrtFree(d));
	munmap(m, big);
}

/* aclrtResetDevice: registrations go, aclrtMallocHost memory stays
 * readable and writable by the CPU until aclrtFreeHost. */
TEST(device_reset)
{
	size_t n = pg();
	char *m = map_pages(n), *p = NULL;
	void *dp;

	acl_setup();
	REQUIRE_ACL(aclrtMallocHost((void **)&p, 100));
	REQUIRE_ACL(aclrtHostRegister(m, n, ACL_HOST_REGISTER_MAPPED, &dp));
	memset(p, 7, 100);
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_EQ(check_bytes(p, 100, 7), -1);
	p[0] = 1;
	CHECK_ACL_ERR(aclrtHostUnregister(m), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_ACL_OK(aclrtFreeHost(p));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtHostRegister(m, n, ACL_HOST_REGISTER_MAPPED, &dp));
	CHECK_ACL_OK(aclrtHostUnregister(m));
	munmap(m, n);
}

int main(void)
{
	return tap_main();
}
