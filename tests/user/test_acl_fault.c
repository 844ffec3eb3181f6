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

/* ---- every fault type through libaclrt, with its CANN code ------------ */

/* sysfs path of the driver's cmd_timeout_ms parameter (default limit of
 * a ring command). */
static const char *timeout_param(void)
{
	static char path[128];
	const char *drv = getenv("ASCEND_DRIVER");

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/cmd_timeout_ms",
		 drv && *drv ? drv : "ascend");
	return path;
}

static long read_param(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int write_param(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/*
 * aclrtValueWait has no limit of its own: the device's default command
 * limit applies (10 s).  Lowered to 50 ms for this one wait, the stream
 * faults with ASCEND_FAULT_TIMEOUT on a WAIT_VALUE -> 107020, and the
 * message names the command and the address.
 */
TEST(value_wait_timeout_107020)
{
	const char *param = timeout_param();
	long old = read_param(param);
	char msg[512], addr[32];
	aclrtStream s;
	uint64_t *w;
	aclError r;
	int *p;

	acl_setup();
	if (old < 0 || write_param(param, old) != 0)
		SKIP("cannot read/write the driver's cmd_timeout_ms parameter");
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&w, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtValueWrite(w, 5, 0, s));
	REQUIRE_ACL(aclrtSynchronizeStream(s));

	REQUIRE(write_param(param, 50) == 0);
	r = aclrtValueWait(w, 6, ACL_STREAM_WAIT_VALUE_EQ, s);	/* never true */
	if (r == ACL_SUCCESS)
		r = aclrtSynchronizeStream(s);
	snprintf(msg, sizeof(msg), "%s", acl_errmsg());
	write_param(param, old);
	CHECK_EQ(r, ACL_ERROR_RT_TASK_TIMEOUT);
	CHECK(strstr(msg, "WAIT_VALUE") != NULL);
	snprintf(addr, sizeof(addr), "%#llx", (unsigned long long)(uintptr_t)w);
	if (!strstr(msg, addr))
		printf("#   message: %s (expected %s in it)\n", msg, addr);
	CHECK(strstr(msg, addr) != NULL);
	CHECK_EQ(read_param(param), old);
	/* reported once, the stream works again */
	check_recovered(s, p);
	aclrtFree(w);
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* A device-side event wait with a limit: 107020 naming EVENT_WAIT. */
TEST(stream_wait_event_timeout_107020)
{
	aclrtStream s, busy;
	aclrtEvent ev;
	int *p;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&busy));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtCreateEvent(&ev));
	REQUIRE_ACL(launch_spin(busy, 500000));
	REQUIRE_ACL(aclrtRecordEvent(ev, busy));
	REQUIRE_ACL(aclrtStreamWaitEventWithTimeout(s, ev, 20));
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT);
	CHECK(strstr(acl_errmsg(), "EVENT_WAIT") != NULL);
	check_recovered(s, p);
	/* the recording stream never noticed */
	CHECK_ACL_OK(aclrtSynchronizeStream(busy));
	CHECK_ACL_OK(aclrtSynchronizeEvent(ev));
	aclrtDestroyEvent(ev);
	aclrtFree(p);
}

/*
 * Work discarded by a forced destroy (ASCEND_FAULT_ABORTED): an event
 * recorded behind it never completes, and synchronising it says so with
 * 107023 ACL_ERROR_RT_STREAM_ABORT instead of hanging.
 */
TEST(destroy_force_aborts_event_107023)
{
	aclrtEventRecordedStatus st;
	aclrtStream s;
	aclrtEvent ev;

	acl_setup();
	need_events();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateEvent(&ev));
	REQUIRE_ACL(launch_spin(s, 20000000));		/* 20 s, aborted */
	REQUIRE_ACL(aclrtRecordEvent(ev, s));
	CHECK_ACL_OK(aclrtDestroyStreamForce(s));
	CHECK_EQ(aclrtSynchronizeEventWithTimeout(ev, 5000), ACL_ERROR_RT_STREAM_ABORT);
	CHECK(strstr(acl_errmsg(), "discarded") != NULL);	/* read-once */
	/* a query does not block either */
	CHECK_ACL_OK(aclrtQueryEventStatus(ev, &st));
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
}

/* Synchronisation limits: -1 waits, 0 polls, >0 ms; stream and device;
 * aclrtCreateStreamWithConfig flags (no-sync kinds succeed at once). */
TEST(sync_timeouts_stream_device_and_config_flags)
{
	aclrtStream s, nosync;
	aclError r;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_FAST_LAUNCH));
	CHECK_ACL_ERR(aclrtCreateStreamWithConfig(&nosync, 0, 0x80000000u),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtCreateStreamWithConfig(&nosync, 0, ACL_STREAM_PERSISTENT));
	CHECK_ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_INVALID_PARAM);

	REQUIRE_ACL(launch_spin(s, 300000));
	CHECK_ACL_ERR(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	CHECK_ACL_OK(aclrtSynchronizeStreamWithTimeout(nosync, 0));
	r = aclrtSynchronizeDeviceWithTimeout(10);
	CHECK(r != ACL_SUCCESS);		/* the spin is still running */
	CHECK(acl_has_errmsg());
	CHECK_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
	CHECK_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 0));
	CHECK_ACL_OK(aclrtSynchronizeDeviceWithTimeout(0));
	REQUIRE_ACL(launch_spin(s, 1000));
	CHECK_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 30000));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(nosync));
}

int main(void)
{
	return tap_main();
}
