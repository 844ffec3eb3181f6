// SPDX-License-Identifier: MIT
/*
 * test_acl_vmm.c - virtual memory management: aclrtMallocPhysical,
 * aclrtReserveMemAddress, aclrtMapMem / aclrtMemMapNoAccess /
 * aclrtUnmapMem, aclrtMemSetAccess / GetAccess, aclrtMemRetainAllocationHandle,
 * and physical memory shared between processes
 * (aclrtMemExportToShareableHandle / SetPid / ImportFromShareableHandle).
 *
 * The other processes are this binary re-executed with a role in argv:
 *	test_acl_vmm import SHARE FD      import, map, read the pattern, write
 *					  0x5a over it, write "ok" to FD
 *	test_acl_vmm refused SHARE        the import must fail with 107000
 *	test_acl_vmm hold SHARE FD        import and map, write "ok", sleep
 *	test_acl_vmm fd SOCK              receive a dma-buf fd on SOCK, import
 *					  it, check and overwrite as "import"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/ascend_ext.h"
#include "acl_util.h"
#include "tap.h"

#define MB2	(2UL << 20)

static aclrtPhysicalMemProp dev_prop(int dev, aclrtMemAttr attr)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = (uint32_t)dev;
	p.memAttr = attr;
	return p;
}

static aclrtDrvMemHandle phys(size_t size)
{
	aclrtPhysicalMemProp p = dev_prop(0, ACL_HBM_MEM_HUGE);
	aclrtDrvMemHandle h = NULL;
	aclError r = aclrtMallocPhysical(&h, size, &p, 0);

	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("the driver has no virtual memory management (DRM_ASCEND_CAP_VMM)");
	REQUIRE_ACL(r);
	REQUIRE(h != NULL);
	return h;
}

static void *reserve(size_t size)
{
	void *v = NULL;

	REQUIRE_ACL(aclrtReserveMemAddress(&v, size, 0, NULL, 0));
	REQUIRE(v != NULL);
	return v;
}

static void put_pattern(void *dev, size_t n, uint32_t seed)
{
	unsigned char *b = malloc(n);

	REQUIRE(b != NULL);
	fill_pattern(b, n, seed);
	REQUIRE_ACL(aclrtMemcpy(dev, n, b, n, ACL_MEMCPY_HOST_TO_DEVICE));
	free(b);
}

/* -1 when [dev, +n) holds fill_pattern(seed), else the first bad index. */
static long get_pattern(const void *dev, size_t n, uint32_t seed)
{
	unsigned char *b = malloc(n);
	long bad;

	REQUIRE(b != NULL);
	REQUIRE_ACL(aclrtMemcpy(b, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST));
	bad = check_pattern(b, n, seed);
	free(b);
	return bad;
}

static void check_err_msg(aclError r, aclError code, const char *part)
{
	const char *m = aclGetRecentErrMsg();

	CHECK_EQ(r, code);
	CHECK(m && strstr(m, part));
	if (!(m && strstr(m, part)))
		printf("#   message: %s\n", m ? m : "(none)");
}

TEST(granularity)
{
	aclrtPhysicalMemProp p = dev_prop(0, ACL_HBM_MEM_NORMAL);
	size_t g = 0;

	acl_setup();
	CHECK_ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
	CHECK_EQ(g, MB2);	/* HBM_MEM_NORMAL is allocated as huge pages */
	p.memAttr = ACL_MEM_NORMAL;
	CHECK_ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
	CHECK_EQ(g, 4096);
	CHECK_ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
	CHECK_EQ(g, MB2);
	p.memAttr = ACL_MEM_HUGE1G;
	CHECK_ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
	CHECK_EQ(g, 1UL << 30);
	CHECK_ACL_ERR(aclrtMemGetAllocationGranularity(NULL, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &g),
		      ACL_ERROR_INVALID_PARAM);
	p.memAttr = ACL_DDR_MEM_HUGE;
	check_err_msg(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
		      ACL_ERROR_INVALID_PARAM, "memAttr");
	p.memAttr = ACL_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	check_err_msg(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "host");
}

/*
 * A pool that grows: 1 GiB reserved, 2 MiB chunks mapped one after
 * another from separate allocations; copies, a memset and a kernel run
 * across chunk boundaries; a chunk unmapped leaves a hole that faults;
 * mapped again (another allocation), it works again.
 */
TEST(growable_pool)
{
	aclrtDrvMemHandle h[4], h2;
	unsigned char *base;
	aclrtStream s;
	size_t off;
	int i, v = 0;

	acl_setup();
	h[0] = phys(MB2);
	base = reserve(1UL << 30);
	for (i = 1; i < 4; i++)
		h[i] = phys(MB2);
	for (i = 0; i < 4; i++)
		REQUIRE_ACL(aclrtMapMem(base + i * MB2, MB2, 0, h[i], 0));
	REQUIRE_ACL(aclrtCreateStream(&s));

	/* one copy over all four chunks, in and out */
	put_pattern(base + 100, 4 * MB2 - 200, 7);
	CHECK_EQ(get_pattern(base + 100, 4 * MB2 - 200, 7), -1);
	/* device to device across a boundary, into another boundary */
	CHECK_ACL_OK(aclrtMemcpy(base + 3 * MB2 - 4096, 8192, base + MB2 - 4096, 8192,
				 ACL_MEMCPY_DEVICE_TO_DEVICE));
	{
		unsigned char want[8192], got[8192];
		unsigned char *all = malloc(4 * MB2);

		REQUIRE(all != NULL);
		fill_pattern(all, 4 * MB2 - 200, 7);
		memcpy(want, all + MB2 - 4096 - 100, sizeof(want));
		free(all);
		REQUIRE_ACL(aclrtMemcpy(got, sizeof(got), base + 3 * MB2 - 4096, sizeof(got),
					ACL_MEMCPY_DEVICE_TO_HOST));
		CHECK(!memcmp(want, got, sizeof(got)));
	}
	/* a memset and a kernel over a boundary */
	CHECK_ACL_OK(aclrtMemset(base + 2 * MB2 - 16, 32, 0xab, 32));
	{
		unsigned char got[32];

		REQUIRE_ACL(aclrtMemcpy(got, 32, base + 2 * MB2 - 16, 32, ACL_MEMCPY_DEVICE_TO_HOST));
		CHECK_EQ(check_bytes(got, 32, 0xab), -1);
	}
	CHECK_ACL_OK(launch_fill32(s, (int *)(base + MB2 - 64), 0x1234, 32, 2));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	{
		int got[32];

		REQUIRE_ACL(aclrtMemcpy(got, sizeof(got), base + MB2 - 64, sizeof(got),
					ACL_MEMCPY_DEVICE_TO_HOST));
		for (i = 0; i < 32; i++)
			CHECK_EQ(got[i], 0x1234);
	}

	/* a hole: the copy into it fails, the rest of the pool is intact */
	CHECK_ACL_OK(aclrtUnmapMem(base + MB2));
	CHECK(aclrtMemcpy(base + MB2 + 8, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
	CHECK(aclrtMemcpy(&v, 4, base + 2 * MB2 - 4, 8, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
	CHECK_ACL_OK(aclrtMemcpy(&v, 4, base + 3 * MB2, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	/* a kernel writing into the hole faults its stream only */
	CHECK(launch_fill32(s, (int *)(base + MB2), 1, 16, 1) != ACL_SUCCESS ||
	      aclrtSynchronizeStream(s) != ACL_SUCCESS);
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
	REQUIRE_ACL(aclrtCreateStream(&s));

	/* filled again from a new allocation */
	h2 = phys(MB2);
	CHECK_ACL_OK(aclrtMapMem(base + MB2, MB2, 0, h2, 0));
	put_pattern(base, 4 * MB2, 9);
	CHECK_EQ(get_pattern(base, 4 * MB2, 9), -1);
	/* the freed chunk's memory went back: nothing leaks across */
	for (off = 0; off < 4 * MB2; off += MB2)
		CHECK_ACL_OK(aclrtUnmapMem(base + off));
	check_err_msg(aclrtUnmapMem(base), ACL_ERROR_RT_PARAM_INVALID, "no mapping");
	for (i = 0; i < 4; i++)
		CHECK_ACL_OK(aclrtFreePhysical(h[i]));
	CHECK_ACL_OK(aclrtFreePhysical(h2));
	CHECK_ACL_OK(aclrtReleaseMemAddress(base));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* Wrong calls: each with its code and a message saying what was wrong. */
TEST(argument_checks)
{
	aclrtPhysicalMemProp p = dev_prop(0, ACL_HBM_MEM_HUGE);
	aclrtDrvMemHandle h, small;
	unsigned char *v, *w;
	void *x = NULL;

	acl_setup();
	h = phys(MB2);
	v = reserve(4 * MB2);
	CHECK_ACL_ERR(aclrtMallocPhysical(NULL, MB2, &p, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMallocPhysical(&small, 0, &p, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMallocPhysical(&small, MB2, &p, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMallocPhysical(&small, MB2, NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtReserveMemAddress(NULL, MB2, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtReserveMemAddress(&x, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtReserveMemAddress(&x, MB2, 3, NULL, 0), ACL_ERROR_INVALID_PARAM);
	/* a wanted address that is taken */
	check_err_msg(aclrtReserveMemAddress(&x, MB2, 0, v + MB2, 0), ACL_ERROR_RT_PARAM_INVALID,
		      "in use");
	/* a wanted address that is free: given exactly */
	CHECK_ACL_OK(aclrtReserveMemAddress(&x, MB2, 0, v + 8 * MB2, 0));
	CHECK(x == v + 8 * MB2);
	CHECK_ACL_OK(aclrtReleaseMemAddress(x));

	check_err_msg(aclrtMapMem(v + 4096, MB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID,
		      "multiples");
	check_err_msg(aclrtMapMem(v + 3 * MB2, 2 * MB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID,
		      "reservation");
	check_err_msg(aclrtMapMem(v, MB2, MB2, h, 0), ACL_ERROR_RT_PARAM_INVALID,
		      "physical allocation");
	check_err_msg(aclrtMapMem(v, MB2, 0, (aclrtDrvMemHandle)&p, 0), ACL_ERROR_RT_PARAM_INVALID,
		      "not a live physical memory handle");
	CHECK_ACL_ERR(aclrtMapMem(v, MB2, 0, h, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtMapMem(v, MB2, 0, h, 0));
	check_err_msg(aclrtMapMem(v, MB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "mapped already");
	/* neither aclrtFree nor release while mapped */
	check_err_msg(aclrtFree(v), ACL_ERROR_RT_PARAM_INVALID, "aclrtReleaseMemAddress");
	check_err_msg(aclrtReleaseMemAddress(v), ACL_ERROR_RT_PARAM_INVALID, "still has mappings");
	check_err_msg(aclrtReleaseMemAddress(v + MB2), ACL_ERROR_RT_PARAM_INVALID,
		      "not the start");
	/* memory from aclrtMalloc is no reservation */
	REQUIRE_ACL(aclrtMalloc((void **)&w, MB2, ACL_MEM_MALLOC_HUGE_ONLY));
	check_err_msg(aclrtMapMem(w, MB2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID, "reservation");
	CHECK_ACL_OK(aclrtFree(w));
	CHECK_ACL_OK(aclrtUnmapMem(v));
	CHECK_ACL_OK(aclrtReleaseMemAddress(v));
	CHECK_ACL_OK(aclrtFreePhysical(h));
	check_err_msg(aclrtFreePhysical(h), ACL_ERROR_RT_PARAM_INVALID,
		      "not a live physical memory handle");
}

/*
 * One allocation in two places: what is written through one mapping is
 * read through the other.  Freed while mapped, the memory stays until the
 * unmap; aclrtMemRetainAllocationHandle gives the handle back.
 */
TEST(alias_and_free_while_mapped)
{
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h, r = NULL;
	unsigned char *v;

	acl_setup();
	h = phys(MB2);
	v = reserve(8 * MB2);
	REQUIRE_ACL(aclrtMapMem(v, MB2, 0, h, 0));
	REQUIRE_ACL(aclrtMapMem(v + 5 * MB2, MB2, 0, h, 0));
	put_pattern(v + 4000, 100000, 3);
	CHECK_EQ(get_pattern(v + 5 * MB2 + 4000, 100000, 3), -1);
	CHECK_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &prop));
	CHECK_EQ(prop.memAttr, ACL_HBM_MEM_HUGE);
	CHECK_EQ(prop.location.id, 0);

	CHECK_ACL_OK(aclrtFreePhysical(h));
	CHECK_EQ(get_pattern(v + 4000, 100000, 3), -1);
	CHECK_ACL_OK(aclrtMemRetainAllocationHandle(v + 5 * MB2, &r));
	CHECK(r == h);
	CHECK_ACL_ERR(aclrtMemRetainAllocationHandle(v + 4096, &r), ACL_ERROR_RT_PARAM_INVALID);
	{
		void *base = NULL;
		size_t size = 0;

		CHECK_ACL_OK(aclrtMemGetAddressRange(v + 5 * MB2 + 77, &base, &size));
		CHECK(base == v + 5 * MB2);
		CHECK_EQ(size, MB2);
	}
	CHECK_ACL_OK(aclrtUnmapMem(v));
	CHECK_ACL_OK(aclrtUnmapMem(v + 5 * MB2));
	CHECK_ACL_OK(aclrtFreePhysical(r));
	CHECK_ACL_OK(aclrtReleaseMemAddress(v));
}

/*
 * An unmap while the stream still has a kernel queued on the range: the
 * invalidation ends the device's reach, so the freed handle's memory goes
 * back at once, while the stream still runs; the queued kernel then faults
 * its stream, and whoever holds memory by then keeps its bytes.
 */
TEST(unmap_while_queued)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
	aclrtDrvMemHandle h, h2;
	aclrtStream s, s2;
	unsigned char *v, *w;
	size_t before;
	int got[64], i, j, bad = 0;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	before = acl_mem_free(ACL_HBM_MEM);
	h = phys(MB2);
	v = reserve(MB2);
	w = reserve(MB2);
	REQUIRE_ACL(aclrtMapMem(v, MB2, 0, h, 0));
	/* a second's Spin, then a fill of the mapping behind it */
	REQUIRE_ACL(launch_spin(s, 1000000));
	REQUIRE_ACL(launch_fill32(s, (int *)v, 0x5a5a, MB2 / 4, 1));
	CHECK_ACL_OK(aclrtFreePhysical(h));
	CHECK_ACL_OK(aclrtUnmapMem(v));
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), before);

	/* new memory is written on another stream while the first still spins */
	h2 = phys(MB2);
	REQUIRE_ACL(aclrtMapMem(w, MB2, 0, h2, 0));
	CHECK_ACL_OK(launch_fill32(s2, (int *)w, 0x77, MB2 / 4, 1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_ACL_OK(aclrtStreamQuery(s, &st));
	CHECK_EQ(st, ACL_STREAM_STATUS_NOT_READY);
	/* the fill into the hole faults its stream, and writes nothing */
	CHECK(aclrtSynchronizeStream(s) != ACL_SUCCESS);
	for (i = 0; i < 32; i++) {
		REQUIRE_ACL(aclrtMemcpy(got, sizeof(got), w + (size_t)i * (MB2 / 32), sizeof(got),
					ACL_MEMCPY_DEVICE_TO_HOST));
		for (j = 0; j < 64; j++)
			bad += got[j] != 0x77;
	}
	CHECK_EQ(bad, 0);
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
	CHECK_ACL_OK(aclrtUnmapMem(w));
	CHECK_ACL_OK(aclrtFreePhysical(h2));
	CHECK_ACL_OK(aclrtReleaseMemAddress(v));
	CHECK_ACL_OK(aclrtReleaseMemAddress(w));
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), before);
}

/* aclrtMemSetAccess: READ refuses writes, NONE everything; NoAccess maps. */
TEST(access)
{
	aclrtMemAccessDesc d;
	aclrtMemLocation loc = { 0, ACL_MEM_LOCATION_TYPE_DEVICE };
	aclrtDrvMemHandle h;
	unsigned char *v;
	uint64_t flag = 99;
	int x = 5;

	acl_setup();
	h = phys(MB2);
	v = reserve(MB2);
	memset(&d, 0, sizeof(d));
	d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = 0;

	REQUIRE_ACL(aclrtMemMapNoAccess(v, MB2, 0, h, 0));
	CHECK_ACL_OK(aclrtMemGetAccess(v, &loc, &flag));
	CHECK_EQ(flag, ACL_RT_MEM_ACCESS_FLAGS_NONE);
	CHECK(aclrtMemcpy(v, 4, &x, 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	CHECK_ACL_OK(aclrtMemSetAccess(v, MB2, &d, 1));
	CHECK_ACL_OK(aclrtMemcpy(v, 4, &x, 4, ACL_MEMCPY_HOST_TO_DEVICE));

	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
	CHECK_ACL_OK(aclrtMemSetAccess(v, MB2, &d, 1));
	CHECK_ACL_OK(aclrtMemGetAccess(v, &loc, &flag));
	CHECK_EQ(flag, ACL_RT_MEM_ACCESS_FLAGS_READ);
	x = 0;
	CHECK_ACL_OK(aclrtMemcpy(&x, 4, v, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(x, 5);
	CHECK(aclrtMemcpy(v, 4, &x, 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
	CHECK(aclrtMemset(v, 4, 0, 4) != ACL_SUCCESS);

	d.flags = ACL_RT_MEM_ACCESS_FLAGS_NONE;
	CHECK_ACL_OK(aclrtMemSetAccess(v, MB2, &d, 1));
	CHECK(aclrtMemcpy(&x, 4, v, 4, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	CHECK_ACL_OK(aclrtMemSetAccess(v, MB2, &d, 1));
	x = 0;
	CHECK_ACL_OK(aclrtMemcpy(&x, 4, v, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(x, 5);	/* the memory kept its bytes through it all */

	check_err_msg(aclrtMemSetAccess(v, 4096, &d, 1), ACL_ERROR_RT_PARAM_INVALID,
		      "not a mapping");
	d.flags = 2;
	CHECK_ACL_ERR(aclrtMemSetAccess(v, MB2, &d, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemSetAccess(v, MB2, NULL, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtUnmapMem(v));
	CHECK_ACL_OK(aclrtReleaseMemAddress(v));
	CHECK_ACL_OK(aclrtFreePhysical(h));
}

/* One allocation of device 0, reached by device 1's stream with access. */
TEST(mapped_for_two_devices)
{
	aclrtMemAccessDesc d[2];
	aclrtDrvMemHandle h;
	unsigned char *v;
	aclrtStream s1;
	uint32_t n = 0;
	int *q, got = 0;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs 2 devices");
	h = phys(MB2);
	v = reserve(MB2);
	REQUIRE_ACL(aclrtMapMem(v, MB2, 0, h, 0));
	memset(d, 0, sizeof(d));
	d[0].flags = d[1].flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	d[0].location.type = d[1].location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	d[1].location.id = 1;
	check_err_msg(aclrtMemSetAccess(v, MB2, d, 2), ACL_ERROR_RT_PARAM_INVALID,
		      "aclrtDeviceEnablePeerAccess");
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtDeviceEnablePeerAccess(0, 0));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtMemSetAccess(v, MB2, d, 2));
	put_pattern(v, 64, 11);

	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtMalloc((void **)&q, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(launch_fill32(s1, (int *)(v + 64), 4242, 1, 1));
	CHECK_ACL_OK(aclrtMemcpyAsync(q, 64, v, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	CHECK_EQ(get_pattern(q, 64, 11), -1);
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtMemcpy(&got, 4, v + 64, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(got, 4242);
	REQUIRE_ACL(aclrtSetDevice(1));
	CHECK_ACL_OK(aclrtFree(q));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	/* device 0's handle and reservation, mapped while device 1 is current */
	CHECK_ACL_OK(aclrtUnmapMem(v));
	check_err_msg(aclrtUnmapMem(v), ACL_ERROR_RT_PARAM_INVALID, "no mapping");
	CHECK_ACL_OK(aclrtMapMem(v, MB2, 0, h, 0));
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtMemcpy(&got, 4, v + 64, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(got, 4242);
	CHECK_ACL_OK(aclrtUnmapMem(v));
	CHECK_ACL_OK(aclrtReleaseMemAddress(v));
	CHECK_ACL_OK(aclrtFreePhysical(h));
}

/* ---- between processes ---------------------------------------------- */

/* One fd over a UNIX socket (SCM_RIGHTS); -1 on failure. */
static int recv_fd(int sock)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = { &c, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;
	int fd;

	m.msg_iov = &io;
	m.msg_iovlen = 1;
	m.msg_control = ctl;
	m.msg_controllen = sizeof(ctl);
	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
	return fd;
}

static int send_fd(int sock, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = { &c, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;

	memset(ctl, 0, sizeof(ctl));
	m.msg_iov = &io;
	m.msg_iovlen = 1;
	m.msg_control = ctl;
	m.msg_controllen = sizeof(ctl);
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(fd));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

/*
 * "PID:FD": take descriptor FD of process PID (pidfd_getfd), the way to
 * hand a descriptor on without a socket.
 */
static int take_fd(const char *spec)
{
	int pid, num, pfd, fd;

	if (sscanf(spec, "%d:%d", &pid, &num) != 2)
		return -1;
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0)
		return -1;
	fd = (int)syscall(SYS_pidfd_getfd, pfd, num, 0);
	close(pfd);
	return fd;
}

static int role_import(char **argv, bool hold)
{
	bool by_fd = !strcmp(argv[1], "fd");
	uint64_t share = by_fd ? 0 : strtoull(argv[2], NULL, 16);
	int fd = atoi(argv[by_fd ? 2 : 3]), dmabuf;
	aclrtDrvMemHandle h = NULL, h2 = NULL;
	unsigned char *b;
	void *v = NULL;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 2;
	if (by_fd) {
		/* over the socket, or taken from the parent (see share_by_fd) */
		dmabuf = argv[3] ? take_fd(argv[3]) : recv_fd(fd);
		if (dmabuf < 0 || ascendMemImportFromFd(dmabuf, 0, &h))
			return 3;
		/* the same allocation again: the same handle, counted */
		if (ascendMemImportFromFd(dmabuf, 0, &h2) || h2 != h || aclrtFreePhysical(h2))
			return 10;
		close(dmabuf);
	} else if (aclrtMemImportFromShareableHandle(share, 0, &h)) {
		return 3;
	}
	if (aclrtReserveMemAddress(&v, MB2, 0, NULL, 0) || aclrtMapMem(v, MB2, 0, h, 0))
		return 4;
	if (hold) {
		if (write(fd, "ok", 2) != 2)
			return 5;
		pause();
		return 0;
	}
	b = malloc(MB2);
	if (!b || aclrtMemcpy(b, MB2, v, MB2, ACL_MEMCPY_DEVICE_TO_HOST))
		return 6;
	if (check_pattern(b, MB2, 21) != -1)
		return 7;
	if (aclrtMemset(v, MB2, 0x5a, MB2))
		return 8;
	if (aclrtUnmapMem(v) || aclrtReleaseMemAddress(v) || aclrtFreePhysical(h))
		return 9;
	free(b);
	if (write(fd, "ok", 2) != 2)
		return 5;
	aclrtResetDeviceForce(0);
	aclFinalize();
	return 0;
}

static int role_refused(char **argv)
{
	uint64_t share = strtoull(argv[2], NULL, 16);
	aclrtDrvMemHandle h = NULL;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 2;
	return aclrtMemImportFromShareableHandle(share, 0, &h) == ACL_ERROR_RT_PARAM_INVALID ? 0 : 1;
}

static void share_case(bool pid_check)
{
	aclrtDrvMemHandle h;
	char hex[24], fdnum[12], ok[3] = { 0 };
	uint64_t share = 0, again;
	unsigned char *v, *b;
	int fds[2];
	int32_t pid;
	pid_t c;

	h = phys(MB2);
	v = reserve(MB2);
	REQUIRE_ACL(aclrtMapMem(v, MB2, 0, h, 0));
	put_pattern(v, MB2, 21);
	REQUIRE_ACL(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
						    pid_check ? ACL_RT_VMM_EXPORT_FLAG_DEFAULT :
						    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
						    &share));
	CHECK(share != 0);
	check_err_msg(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &again),
		      ACL_ERROR_RT_PARAM_INVALID, "exported already");
	snprintf(hex, sizeof(hex), "%" PRIx64, share);
	REQUIRE(pipe(fds) == 0);
	snprintf(fdnum, sizeof(fdnum), "%d", fds[1]);
	if (pid_check) {
		CHECK_EQ(wait_exit(spawn((char *[]){ "t", "refused", hex, NULL })), 0);
		c = fork();
		if (c == 0) {
			raise(SIGSTOP);
			execv("/proc/self/exe", (char *[]){ "t", "import", hex, fdnum, NULL });
			_exit(127);
		}
		REQUIRE(c > 0);
		waitpid(c, NULL, WUNTRACED);
		pid = c;
		CHECK_ACL_OK(aclrtMemSetPidToShareableHandle(share, &pid, 1));
		check_err_msg(aclrtMemSetPidToShareableHandle(share + 1, &pid, 1),
			      ACL_ERROR_RT_PARAM_INVALID, "not one this process exported");
		kill(c, SIGCONT);
	} else {
		c = spawn((char *[]){ "t", "import", hex, fdnum, NULL });
	}
	CHECK_EQ(wait_exit(c), 0);
	CHECK_EQ(read(fds[0], ok, 2), 2);
	close(fds[0]);
	close(fds[1]);
	b = malloc(MB2);
	REQUIRE(b != NULL);
	REQUIRE_ACL(aclrtMemcpy(b, MB2, v, MB2, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_bytes(b, MB2, 0x5a), -1);	/* what the importer wrote */
	free(b);
	CHECK_ACL_OK(aclrtUnmapMem(v));
	CHECK_ACL_OK(aclrtReleaseMemAddress(v));
	CHECK_ACL_OK(aclrtFreePhysical(h));
	/* freed: the shareable handle is withdrawn */
	CHECK_EQ(wait_exit(spawn((char *[]){ "t", "refused", hex, NULL })), 0);
}

TEST(share_with_pid_check)
{
	acl_setup();
	share_case(true);
}

TEST(share_without_pid_check)
{
	acl_setup();
	share_case(false);
}

/* The fd form: a dma-buf passed over a socket, no allow-list needed. */
TEST(share_by_fd)
{
	aclrtDrvMemHandle h;
	char num[12], ok[3] = { 0 };
	unsigned char *v, *b;
	int sv[2], fd = -1, bad = -1;
	pid_t c;

	acl_setup();
	h = phys(MB2);
	v = reserve(MB2);
	REQUIRE_ACL(aclrtMapMem(v, MB2, 0, h, 0));
	put_pattern(v, MB2, 21);
	REQUIRE_ACL(ascendMemExportToFd(h, &fd));
	CHECK(fd >= 0);
	CHECK_ACL_ERR(ascendMemExportToFd(h, NULL), ACL_ERROR_INVALID_PARAM);
	check_err_msg(ascendMemImportFromFd(0, 0, &h), ACL_ERROR_RT_PARAM_INVALID, "dma-buf");
	CHECK_ACL_ERR(ascendMemImportFromFd(bad, 0, &h), ACL_ERROR_INVALID_PARAM);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
		snprintf(num, sizeof(num), "%d", sv[1]);
		c = spawn((char *[]){ "t", "fd", num, NULL });
		CHECK_EQ(send_fd(sv[0], fd), 0);
		close(fd);
		CHECK_EQ(wait_exit(c), 0);
	} else {
		/* a kernel without sockets (the debug lane's): pidfd_getfd */
		char spec[32];

		printf("#   socketpair: %s; the fd goes by pidfd_getfd\n", strerror(errno));
		REQUIRE(pipe(sv) == 0);
		snprintf(num, sizeof(num), "%d", sv[1]);
		snprintf(spec, sizeof(spec), "%d:%d", (int)getpid(), fd);
		c = spawn((char *[]){ "t", "fd", num, spec, NULL });
		CHECK_EQ(wait_exit(c), 0);
		close(fd);
	}
	CHECK_EQ(read(sv[0], ok, 2), 2);
	close(sv[0]);
	close(sv[1]);
	b = malloc(MB2);
	REQUIRE(b != NULL);
	REQUIRE_ACL(aclrtMemcpy(b, MB2, v, MB2, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(check_bytes(b, MB2, 0x5a), -1);
	free(b);
	CHECK_ACL_OK(aclrtUnmapMem(v));
	CHECK_ACL_OK(aclrtReleaseMemAddress(v));
	CHECK_ACL_OK(aclrtFreePhysical(h));
}

/* A process killed while it holds an imported, mapped handle leaks nothing. */
TEST(kill_importer_leaks_nothing)
{
	char hex[24], fdnum[12], ok[3] = { 0 };
	aclrtDrvMemHandle h;
	uint64_t share = 0;
	size_t before;
	int fds[2];
	pid_t c;

	acl_setup();
	before = acl_mem_free(ACL_HBM_MEM);
	h = phys(MB2);
	REQUIRE_ACL(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
						    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
						    &share));
	snprintf(hex, sizeof(hex), "%" PRIx64, share);
	REQUIRE(pipe(fds) == 0);
	snprintf(fdnum, sizeof(fdnum), "%d", fds[1]);
	c = spawn((char *[]){ "t", "hold", hex, fdnum, NULL });
	CHECK_EQ(read(fds[0], ok, 2), 2);
	CHECK_ACL_OK(aclrtFreePhysical(h));
	/* the importer's mapping holds the memory */
	CHECK(acl_mem_free(ACL_HBM_MEM) < before);
	kill(c, SIGKILL);
	CHECK_EQ(wait_exit(c), 128 + SIGKILL);
	close(fds[0]);
	close(fds[1]);
	CHECK_EQ(acl_mem_free(ACL_HBM_MEM), before);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "import"))
		return role_import(argv, false);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "fd"))
		return role_import(argv, false);
	if (argc == 4 && !strcmp(argv[1], "hold"))
		return role_import(argv, true);
	if (argc == 3 && !strcmp(argv[1], "refused"))
		return role_refused(argv);
	return tap_main();
}
