// SPDX-License-Identifier: MIT
/*
 * test_acl_rt_api.cpp - the C++ overloads of acl_rt_api.h, called: each
 * one reaches the C function it wraps with the arguments in place (bytes
 * arrive, priorities and flags stick, timeouts are honoured), and the ones
 * whose C function is not implemented fail with 207000 and a message.
 */
#include "acl/acl.h"
#include "acl/acl_rt_api.h"

#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "../lib/tap.h"
#pragma GCC diagnostic pop

#define OK(call) CHECK_EQ((call), ACL_SUCCESS)

static void setup()
{
	REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
	REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
}

static bool msg_has(const char *what)
{
	const char *m = aclGetRecentErrMsg();

	return m && std::strstr(m, what) != nullptr;
}

TEST(typed_malloc_and_copies)
{
	int32_t *d = nullptr, *d2 = nullptr, *h = nullptr;
	int32_t src[64], back[64];
	aclrtPtrAttributes attr;
	aclrtStream s = nullptr;

	setup();
	for (int i = 0; i < 64; i++)
		src[i] = i * 3 + 1;
	OK(aclrtMalloc(&d, sizeof(src)));
	OK(aclrtMalloc(&d2, sizeof(src), ACL_MEM_MALLOC_NORMAL_ONLY));
	OK(aclrtMallocHost(&h, sizeof(src)));
	REQUIRE(d && d2 && h);
	OK(aclrtPointerGetAttributes(d, &attr));
	CHECK_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	OK(aclrtPointerGetAttributes(h, &attr));
	CHECK_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_HOST);
	OK(aclrtMemcpy(d, sizeof(src), src, sizeof(src), ACL_MEMCPY_HOST_TO_DEVICE));
	OK(aclrtCreateStream(&s, 2, 0));
	OK(aclrtMemcpyAsync(d2, sizeof(src), d, sizeof(src), ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	OK(aclrtSynchronizeStream(s, 10000));
	/* 2D: 8 rows of 4 ints out of 8-int rows */
	OK(aclrtMemcpy2d(h, 4 * sizeof(int32_t), d2, 8 * sizeof(int32_t), 4 * sizeof(int32_t), 8,
			 ACL_MEMCPY_DEVICE_TO_HOST));
	for (int r = 0; r < 8; r++)
		for (int c = 0; c < 4; c++)
			CHECK_EQ(h[r * 4 + c], src[r * 8 + c]);
	OK(aclrtMemcpy2dAsync(d, 8 * sizeof(int32_t), h, 4 * sizeof(int32_t), 4 * sizeof(int32_t), 8,
			      ACL_MEMCPY_HOST_TO_DEVICE, s));
	OK(aclrtSynchronizeStream(s, -1));
	OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(std::memcmp(back, src, sizeof(src)), 0);
	OK(aclrtDestroyStream(s));
	OK(aclrtFreeHost(h));
	OK(aclrtFree(d));
	OK(aclrtFree(d2));
}

TEST(batch_with_one_attribute)
{
	int32_t *d[2] = { nullptr, nullptr };
	int32_t a[16], b[16], back[16];
	int32_t *src[2] = { a, b };
	size_t destMax[2] = { sizeof(a), sizeof(b) }, sizes[2] = { sizeof(a), sizeof(b) };
	size_t fail = 0;
	aclrtMemcpyBatchAttr attr;
	aclrtStream s = nullptr;

	setup();
	for (int i = 0; i < 16; i++) {
		a[i] = i;
		b[i] = 100 + i;
	}
	OK(aclrtMalloc(&d[0], sizeof(a)));
	OK(aclrtMalloc(&d[1], sizeof(b)));
	std::memset(&attr, 0, sizeof(attr));
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	attr.dstLoc.id = 0;
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	OK(aclrtMemcpyBatch(d, destMax, src, sizes, 2, attr));
	OK(aclrtMemcpy(back, sizeof(back), d[1], sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(std::memcmp(back, b, sizeof(b)), 0);
	/* async, one attribute and a failIndex */
	for (int i = 0; i < 16; i++)
		a[i] = -i;
	OK(aclrtCreateStream(&s));
	OK(aclrtMemcpyBatchAsync(d, destMax, src, sizes, 2, attr, &fail, s));
	OK(aclrtSynchronizeStream(s));
	OK(aclrtMemcpy(back, sizeof(back), d[0], sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(std::memcmp(back, a, sizeof(a)), 0);
	OK(aclrtDestroyStream(s));
	OK(aclrtFree(d[0]));
	OK(aclrtFree(d[1]));
}

TEST(streams_events_and_waits)
{
	aclrtStream s = nullptr, t = nullptr;
	aclrtEvent ev = nullptr;
	uint32_t prio = 0, flags = 9;

	setup();
	OK(aclrtCreateStream(&s, 3, ACL_STREAM_FAST_LAUNCH));
	OK(aclrtStreamGetPriority(s, &prio));
	CHECK_EQ(prio, 3);
	OK(aclrtStreamGetFlags(s, &flags));
	CHECK_EQ(flags, ACL_STREAM_FAST_LAUNCH);
	OK(aclrtCreateStream(&t));
	OK(aclrtCreateEvent(&ev, ACL_EVENT_SYNC));
	OK(aclrtRecordEvent(ev, s));
	OK(aclrtStreamWaitEvent(t, ev, 5000));
	OK(aclrtSynchronizeEvent(ev, 5000));
	OK(aclrtSynchronizeStream(t, 5000));
	OK(aclrtSynchronizeDevice(5000));
	CHECK_EQ(aclrtSynchronizeDevice(-2), ACL_ERROR_INVALID_PARAM);
	OK(aclrtDestroyEvent(ev));
	OK(aclrtDestroyStream(s));
	OK(aclrtDestroyStream(t));
}

TEST(typed_host_register)
{
	long pg = sysconf(_SC_PAGESIZE);
	int32_t *dev = nullptr;
	void *m;

	setup();
	m = mmap(nullptr, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(m != MAP_FAILED);
	int32_t *p = static_cast<int32_t *>(m);
	OK(aclrtHostRegister(p, (uint64_t)pg, ACL_HOST_REGISTER_MAPPED, &dev));
	CHECK(dev != nullptr);
	OK(aclrtHostGetDevicePointer(p, &dev, 0));
	CHECK(dev != nullptr);
	OK(aclrtHostUnregister(p));
	OK(aclrtHostRegister(p, (uint64_t)pg, (uint32_t)ACL_HOST_REG_MAPPED));
	OK(aclrtHostUnregister(p));
	munmap(m, (size_t)pg);
}

static int symbol_var;

TEST(unimplemented_targets_fail_with_207000)
{
	uint64_t actual = 0;
	int32_t *mp = nullptr;
	void *a = nullptr;
	size_t sz = 0;
	int v = 0;

	setup();
	CHECK_EQ(aclrtSetOpExecuteTimeOut(1000, &actual), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(msg_has("aclrtSetOpExecuteTimeOutV2"));
	/* the typed form with its default flag (ACL_RT_MEM_ATTACH_GLOBAL) */
	CHECK_EQ(aclrtMemAllocManaged(&mp, 64), ACL_SUCCESS);
	CHECK(mp != nullptr);
	if (mp) {
		mp[15] = 7;
		CHECK_EQ(mp[15], 7);
		CHECK_EQ(aclrtFree(mp), ACL_SUCCESS);
	}
	CHECK_EQ(aclrtGetSymbolAddress(symbol_var, &a), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_EQ(aclrtGetSymbolSize(symbol_var, &sz), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_EQ(aclrtMemcpyToSymbol(symbol_var, &v, sizeof(v), 0, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_EQ(aclrtMemcpyFromSymbol(&v, sizeof(v), symbol_var, sizeof(v), 0, ACL_MEMCPY_DEVICE_TO_HOST),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(msg_has("aclrtMemcpyFromSymbol"));
}

int main(void)
{
	return tap_main();
}
