// SPDX-License-Identifier: MIT
/*
 * test_acl_peer.c - peer access between devices: aclrtDeviceCanAccessPeer,
 * aclrtDeviceEnablePeerAccess / DisablePeerAccess / PeerAccessStatus, and
 * the argument rules CANN documents.
 */
#define _GNU_SOURCE
#include "acl/acl.h"
#include "acl_util.h"
#include "tap.h"

static int32_t ndev(void)
{
	uint32_t n = 0;

	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	return (int32_t)n;
}

/* Enable access from the current device; SKIP if the driver cannot. */
static void enable_or_skip(int32_t peer)
{
	aclError r = aclrtDeviceEnablePeerAccess(peer, 0);

	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("the driver has no peer access (DRM_ASCEND_CAP_PEER)");
	REQUIRE_ACL(r);
}

TEST(can_access_peer)
{
	int32_t can = -1, n, i, j;

	REQUIRE_ACL(aclInit(NULL));
	n = ndev();
	CHECK_ACL_ERR(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtDeviceCanAccessPeer(&can, n, 0), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtDeviceCanAccessPeer(&can, 0, n), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtDeviceCanAccessPeer(&can, -1, 0), ACL_ERROR_RT_INVALID_DEVICEID);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j) {
				can = -1;
				CHECK_ACL_OK(aclrtDeviceCanAccessPeer(&can, i, j));
				CHECK_EQ(can, 1);
			}
}

TEST(enable_disable_status)
{
	int32_t st = -1;

	REQUIRE_ACL(aclInit(NULL));
	if (ndev() < 2)
		SKIP("needs 2 devices");
	/* no current device */
	CHECK_ACL_ERR(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL);
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_ERR(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED);
	CHECK_ACL_ERR(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtDeviceEnablePeerAccess(ndev(), 0), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtDevicePeerAccessStatus(0, 0, &st), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 0);
	/* off already: disabling succeeds and changes nothing */
	CHECK_ACL_OK(aclrtDeviceDisablePeerAccess(1));
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 0);
	CHECK_ACL_ERR(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtDeviceDisablePeerAccess(ndev()), ACL_ERROR_RT_INVALID_DEVICEID);
	/* device 1 was never set: enabling opens it */
	enable_or_skip(1);
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 1);
	/* one direction only */
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &st));
	CHECK_EQ(st, 0);
	CHECK_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));	/* again: fine */
	CHECK_ACL_OK(aclrtDeviceDisablePeerAccess(1));
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 0);
	enable_or_skip(1);
	/* resetting either side removes the link */
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 0);
}

TEST(reset_of_peer_removes_link)
{
	int32_t st = -1;

	REQUIRE_ACL(aclInit(NULL));
	if (ndev() < 2)
		SKIP("needs 2 devices");
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtSetDevice(0));
	enable_or_skip(1);
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 1);
	REQUIRE_ACL(aclrtResetDevice(1));
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 0);
	REQUIRE_ACL(aclrtResetDevice(0));
}

/* CANN's P2P sample: both directions on, device 1 force-reset, then device 0
 * disables its link to 1, which the reset already removed. */
TEST(disable_after_peer_force_reset)
{
	int32_t st = -1;

	REQUIRE_ACL(aclInit(NULL));
	if (ndev() < 2)
		SKIP("needs 2 devices");
	REQUIRE_ACL(aclrtSetDevice(0));
	enable_or_skip(1);
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtDeviceEnablePeerAccess(0, 0));
	CHECK_ACL_OK(aclrtDeviceDisablePeerAccess(0));
	CHECK_ACL_OK(aclrtResetDeviceForce(1));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
	CHECK_EQ(st, 0);
	CHECK_ACL_OK(aclrtDeviceDisablePeerAccess(1));
	CHECK_ACL_OK(aclrtResetDeviceForce(0));
}

/* A kernel on device 1 writes device 0's memory over the peer link only. */
TEST(kernel_reaches_peer_memory)
{
	aclrtStream s1;
	int *p, v = 0;

	REQUIRE_ACL(aclInit(NULL));
	if (ndev() < 2)
		SKIP("needs 2 devices");
	REQUIRE_ACL(aclrtSetDevice(0));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, 4096, 0, 4096));
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	/* no link yet: the kernel's store faults its stream */
	REQUIRE_ACL(launch_fill32(s1, p, 5, 4, 1));
	CHECK_ACL_ERR(aclrtSynchronizeStream(s1), ACL_ERROR_RT_DEVICE_MEM_ERROR);
	REQUIRE_ACL(aclrtDestroyStreamForce(s1));
	enable_or_skip(0);
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(launch_fill32(s1, p + 1, 0x1234, 2, 1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	REQUIRE_ACL(aclrtMemcpy(&v, 4, p + 2, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(v, 0x1234);
	REQUIRE_ACL(aclrtMemcpy(&v, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(v, 0);				/* the faulted fill wrote nothing */
	REQUIRE_ACL(aclrtMemcpy(&v, 4, p + 3, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK_EQ(v, 0);				/* past the fill's two words */
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtFree(p));
}

int main(void)
{
	return tap_main();
}
