// SPDX-License-Identifier: MIT
/*
 * Faults: each fault type surfaces at the next synchronisation with its
 * CANN code and a message naming the command, sequence number and
 * address; it is reported once, the stream is reset and usable again,
 * and other streams are not affected.
 */
#define _GNU_SOURCE
#include "acl_util.h"

/* After a reported fault: the stream must work again (QUEUE_RESET). */
static void check_recovered(aclrtStream s, int *p)
{
	aclError r = aclrtSynchronizeStream(s);
	int v = 0;

	if (r != ACL_SUCCESS && strstr(acl_errmsg(), "faulted"))
		SKIP("the driver cannot reset a faulted queue yet (QUEUE_RESET)");
	CHECK_EQ(r, ACL_SUCCESS);
	write_dev_ints(s, p, (int[]){ 9 }, 1);
	CHECK_EQ(read_dev_ints(s, p, &v, 1), 1);
	CHECK_EQ(v, 9);
}

TEST(mmu_fault_507053)
{
	aclrtStream s, other;
	struct capture c;
	int *p, v = 0;
	char msg[512];
	aclError r;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&other));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	capture_begin(&c);
	REQUIRE_ACL(launch_write(s, (int *)(uintptr_t)0x1000, 1, 1));
	REQUIRE_ACL(launch_write(s, p, 3, 1));		/* discarded */
	r = aclrtSynchronizeStream(s);
	free(capture_end(&c));
	CHECK_EQ(r, ACL_ERROR_RT_DEVICE_MEM_ERROR);
	snprintf(msg, sizeof(msg), "%s", acl_errmsg());	/* read-once */
	CHECK(strstr(msg, "LAUNCH") != NULL);
	CHECK(strstr(msg, "0x1000") != NULL);
	CHECK(strstr(msg, "#1 ") != NULL);
	/* the other stream never noticed */
	write_dev_ints(other, p, (int[]){ 4 }, 1);
	CHECK_EQ(read_dev_ints(other, p, &v, 1), 1);
	CHECK_EQ(v, 4);
	check_recovered(s, p);
	aclrtFree(p);
}

TEST(kernel_trap_507015)
{
	aclrtStream s;
	int *p;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(launch_trap(s));
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK(strstr(acl_errmsg(), "AI-core") != NULL);
	check_recovered(s, p);
	aclrtFree(p);
}

TEST(fault_in_stream_query_and_device_sync)
{
	aclrtStreamStatus st;
	aclrtStream s;
	int *p;
	aclError r;
	int i;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(launch_trap(s));
	r = aclrtSynchronizeDevice();
	CHECK_EQ(r, ACL_ERROR_RT_AICORE_EXCEPTION);
	check_recovered(s, p);
	REQUIRE_ACL(launch_trap(s));
	for (i = 0; i < 1000; i++) {
		r = aclrtStreamQuery(s, &st);
		if (r != ACL_SUCCESS || st == ACL_STREAM_STATUS_COMPLETE)
			break;
		usleep(1000);
	}
	CHECK_EQ(r, ACL_ERROR_RT_AICORE_EXCEPTION);
	aclrtFree(p);
}

TEST(kernel_timeout_507014)
{
	aclrtLaunchKernelAttr attr = { .id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US };
	aclrtLaunchKernelCfg cfg = { &attr, 1 };
	uint64_t usec = 5000000;	/* 5 s, aborted after 50 ms */
	aclrtStream s;
	int *p;
	aclError r;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	attr.value.timeoutUs.timeoutLow = 50000;
	REQUIRE_ACL(aclrtLaunchKernelV2(builtin_kernel("Spin"), 1, &usec, sizeof(usec), &cfg, s));
	r = aclrtSynchronizeStreamWithTimeout(s, 3000);
	if (r == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || r == ACL_ERROR_RT_INTERNAL_ERROR)
		SKIP("the driver has no launch time limits yet");
	CHECK_EQ(r, ACL_ERROR_RT_AICORE_TIMEOUT);
	CHECK(strstr(acl_errmsg(), "time limit") != NULL);
	check_recovered(s, p);
	aclrtFree(p);
}

TEST(sync_timeout_then_complete)
{
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(launch_spin(s, 300000));
	CHECK_ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	CHECK_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(destroy_force_while_busy)
{
	aclrtStream s;
	int i;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	for (i = 0; i < 20; i++)
		REQUIRE_ACL(launch_spin(s, 1000000));	/* 20 s of work */
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
	CHECK_ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
	/* the device still works */
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(launch_spin(s, 10));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
}

int main(void)
{
	return tap_main();
}
