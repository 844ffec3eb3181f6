// SPDX-License-Identifier: MIT
/*
 * test_acl_notify.c - notifies: aclrtCreateNotify / DestroyNotify,
 * aclrtRecordNotify, aclrtWaitAndResetNotify, aclrtGetNotifyId,
 * aclrtNotifyBatchReset, notifies shared between processes
 * (aclrtNotifyGetExportKey / SetImportPid / ImportByKey), on one device
 * and across two; and counting notifies (aclrtCntNotify*).
 *
 * The other processes are this binary re-executed with a role in argv:
 *	test_acl_notify record KEY DEV FLAGS   import on DEV, record, exit 0
 *	test_acl_notify refused KEY            import must fail with 107000
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl_util.h"
#include "tap.h"

#define KEYLEN 65

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static aclrtNotify new_notify(void)
{
	aclrtNotify n = NULL;
	aclError r = aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT);

	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("the driver has no notifies (DRM_ASCEND_CAP_NOTIFY)");
	REQUIRE_ACL(r);
	REQUIRE(n != NULL);
	return n;
}

static int *dev_ints(int n, int v)
{
	int *p = NULL;

	REQUIRE_ACL(aclrtMalloc((void **)&p, n * sizeof(int), ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, n * sizeof(int), v, n * sizeof(int)));
	return p;
}

static int dev_int(const int *p)
{
	int v = -1;

	REQUIRE_ACL(aclrtMemcpy(&v, sizeof(v), p, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
	return v;
}

/*
 * On @s2: wait for @n, then copy *@src to *@dst.  The copy sees what @s1
 * wrote before its record, or the wait did not hold it back.
 */
static void wait_then_copy(aclrtNotify n, aclrtStream s2, int *dst, const int *src,
			   uint32_t timeout)
{
	REQUIRE_ACL(aclrtWaitAndResetNotify(n, s2, timeout));
	REQUIRE_ACL(aclrtMemcpyAsync(dst, sizeof(int), src, sizeof(int),
				     ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
}

/* @r must be @code, and the message must name @part. */
static void check_err_msg(aclError r, aclError code, const char *part)
{
	const char *m = aclGetRecentErrMsg();

	CHECK_EQ(r, code);
	CHECK(m && strstr(m, part));
	if (!m || !strstr(m, part))
		printf("#   message: %s\n", m ? m : "(none)");
}

/* ---- child roles ---------------------------------------------------- */

static int role_record(char **av)
{
	aclrtNotify n = NULL;
	aclrtStream s;
	aclError r;

	if (aclInit(NULL) || aclrtSetDevice(atoi(av[3])) || aclrtCreateStream(&s))
		return 10;
	r = aclrtNotifyImportByKey(&n, av[2], strtoull(av[4], NULL, 0));
	if (r) {
		fprintf(stderr, "import: %d %s\n", r, aclGetRecentErrMsg());
		return 11;
	}
	if (aclrtRecordNotify(n, s) || aclrtSynchronizeStream(s))
		return 12;
	if (aclrtDestroyNotify(n))
		return 13;
	return 0;
}

static int role_refused(char **av)
{
	aclrtNotify n = NULL;
	aclError r;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 10;
	r = aclrtNotifyImportByKey(&n, av[2], 0);
	return r == ACL_ERROR_RT_PARAM_INVALID && !n ? 0 : 20;
}

/* ---- one process ---------------------------------------------------- */

/* CANN's sample pattern: stream 2 waits for stream 1's long task. */
TEST(record_orders_two_streams)
{
	aclrtStream s1, s2;
	aclrtNotify n;
	int *p, *q;

	acl_setup();
	n = new_notify();
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	p = dev_ints(1, 0);
	q = dev_ints(1, 0);
	REQUIRE_ACL(launch_spin(s1, 100000));		/* 100 ms */
	REQUIRE_ACL(launch_fill32(s1, p, 41, 1, 1));
	REQUIRE_ACL(aclrtRecordNotify(n, s1));
	wait_then_copy(n, s2, q, p, 0);
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_EQ(dev_int(q), 41);
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclrtDestroyNotify(n));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtFree(q));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

/* A record before the wait stays set; the wait consumes it. */
TEST(wait_consumes_the_record)
{
	aclrtStream s1, s2;
	aclrtNotify n;
	double t0;

	acl_setup();
	n = new_notify();
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	REQUIRE_ACL(aclrtRecordNotify(n, s1));
	REQUIRE_ACL(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	/* reset by the first wait: a second one times out (1 s) */
	t0 = now_ms();
	CHECK_ACL_OK(aclrtWaitAndResetNotify(n, s2, 1));
	check_err_msg(aclrtSynchronizeStream(s2), ACL_ERROR_RT_TASK_TIMEOUT, "WAIT_VALUE");
	CHECK(now_ms() - t0 >= 900);
	/* a record after the timeout makes the next wait pass */
	REQUIRE_ACL(aclrtRecordNotify(n, s1));
	REQUIRE_ACL(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclrtWaitAndResetNotify(n, s2, 5));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_ACL_OK(aclrtDestroyNotify(n));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

/* 200 rounds of record on s1 / wait on s2, each round's bytes checked. */
TEST(ping_pong_rounds)
{
	aclrtStream s1, s2;
	aclrtNotify a, b;
	int *p, *q, round;

	acl_setup();
	a = new_notify();
	b = new_notify();
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	p = dev_ints(1, 0);
	q = dev_ints(200, 0xff);
	for (round = 0; round < 200; round++) {
		/* s1 writes round, tells s2; s2 copies it out, tells s1 */
		REQUIRE_ACL(launch_fill32(s1, p, round, 1, 1));
		REQUIRE_ACL(aclrtRecordNotify(a, s1));
		wait_then_copy(a, s2, q + round, p, 10);
		REQUIRE_ACL(aclrtRecordNotify(b, s2));
		REQUIRE_ACL(aclrtWaitAndResetNotify(b, s1, 10));
	}
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	{
		int h[200], bad = 0;

		REQUIRE_ACL(aclrtMemcpy(h, sizeof(h), q, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST));
		for (round = 0; round < 200; round++)
			bad += h[round] != round;
		CHECK_EQ(bad, 0);
	}
	CHECK_ACL_OK(aclrtDestroyNotify(a));
	CHECK_ACL_OK(aclrtDestroyNotify(b));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtFree(q));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

/* A host reset clears a record; it does not wait for parked streams. */
TEST(batch_reset)
{
	aclrtNotify n[3];
	aclrtStream s1, s2;
	double t0;
	int i;

	acl_setup();
	for (i = 0; i < 3; i++)
		n[i] = new_notify();
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	for (i = 0; i < 3; i++)
		REQUIRE_ACL(aclrtRecordNotify(n[i], s1));
	REQUIRE_ACL(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclrtNotifyBatchReset(n, 2));
	/* n[2] was not reset: its wait passes; n[0]'s times out */
	CHECK_ACL_OK(aclrtWaitAndResetNotify(n[2], s2, 0));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_ACL_OK(aclrtWaitAndResetNotify(n[0], s2, 1));
	CHECK_ACL_ERR(aclrtSynchronizeStream(s2), ACL_ERROR_RT_TASK_TIMEOUT);
	/* s2 parked on n[1] with no limit: a reset returns at once */
	CHECK_ACL_OK(aclrtWaitAndResetNotify(n[1], s2, 0));
	t0 = now_ms();
	CHECK_ACL_OK(aclrtNotifyBatchReset(n, 3));
	CHECK(now_ms() - t0 < 2000);
	REQUIRE_ACL(aclrtRecordNotify(n[1], s1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	/* bad arguments */
	CHECK_ACL_ERR(aclrtNotifyBatchReset(NULL, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtNotifyBatchReset(n, 0), ACL_ERROR_INVALID_PARAM);
	for (i = 0; i < 3; i++)
		CHECK_ACL_OK(aclrtDestroyNotify(n[i]));
	CHECK_ACL_ERR(aclrtNotifyBatchReset(n, 1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

/* Destroying a notify that queued commands name faults nothing. */
TEST(destroy_while_queued)
{
	aclrtStream s1, s2;
	aclrtNotify n;
	int *p, *q;

	acl_setup();
	n = new_notify();
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	p = dev_ints(1, 0);
	q = dev_ints(1, 0);
	REQUIRE_ACL(launch_spin(s1, 100000));
	REQUIRE_ACL(launch_fill32(s1, p, 5, 1, 1));
	REQUIRE_ACL(aclrtRecordNotify(n, s1));
	wait_then_copy(n, s2, q, p, 0);
	CHECK_ACL_OK(aclrtDestroyNotify(n));		/* both still queued */
	CHECK_ACL_ERR(aclrtDestroyNotify(n), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtRecordNotify(n, s1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	CHECK_EQ(dev_int(q), 5);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtFree(q));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

TEST(ids_and_arguments)
{
	aclrtNotify a, b, c, none = NULL;
	uint32_t ia = 99, ib = 99, ic = 99;
	char key[KEYLEN];
	int32_t pid = getpid();

	acl_setup();
	a = new_notify();
	b = new_notify();
	CHECK_ACL_OK(aclrtGetNotifyId(a, &ia));
	CHECK_ACL_OK(aclrtGetNotifyId(b, &ib));
	CHECK_NE(ia, ib);
	CHECK_ACL_OK(aclrtDestroyNotify(a));
	CHECK_ACL_ERR(aclrtGetNotifyId(a, &ia), ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(aclrtCreateNotify(&c, ACL_NOTIFY_DEVICE_USE_ONLY));
	CHECK_ACL_OK(aclrtGetNotifyId(c, &ic));
	CHECK_EQ(ic, ia);				/* the lowest free id again */
	CHECK_ACL_ERR(aclrtGetNotifyId(b, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM);
	check_err_msg(aclrtCreateNotify(&none, 4), ACL_ERROR_INVALID_PARAM, "flag");
	CHECK_ACL_ERR(aclrtRecordNotify(NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtWaitAndResetNotify(b, NULL, 5000000), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtDestroyNotify(NULL), ACL_ERROR_RT_PARAM_INVALID);
	/* IPC arguments */
	CHECK_ACL_ERR(aclrtNotifyGetExportKey(b, NULL, KEYLEN, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtNotifyGetExportKey(b, key, 64, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtNotifyGetExportKey(b, key, KEYLEN, 1), ACL_ERROR_INVALID_PARAM);
	check_err_msg(aclrtNotifySetImportPid(b, &pid, 1), ACL_ERROR_INVALID_PARAM,
		      "aclrtNotifyGetExportKey");
	CHECK_ACL_ERR(aclrtNotifyImportByKey(&none, "nokey", 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtNotifyImportByKey(NULL, "nokey", 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtNotifySetImportPidInterServer(b, NULL, 0),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_OK(aclrtDestroyNotify(b));
	CHECK_ACL_OK(aclrtDestroyNotify(c));
}

/* The exporter's key twice is one key; a memory key is no notify key. */
TEST(export_key_kinds)
{
	char k1[KEYLEN], k2[KEYLEN], mk[KEYLEN];
	aclrtNotify n, m = NULL;
	void *p;

	acl_setup();
	n = new_notify();
	REQUIRE_ACL(aclrtNotifyGetExportKey(n, k1, KEYLEN, 0));
	REQUIRE_ACL(aclrtNotifyGetExportKey(n, k2, KEYLEN, 0));
	CHECK_EQ(strlen(k1), (size_t)KEYLEN - 1);
	CHECK(!strcmp(k1, k2));
	REQUIRE_ACL(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtIpcMemGetExportKey(p, 4096, mk, KEYLEN,
					    ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
	CHECK_ACL_ERR(aclrtNotifyImportByKey(&m, mk, 0), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(m == NULL);
	CHECK_ACL_OK(aclrtIpcMemClose(mk));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyNotify(n));
}

/* ---- counting notifies ---------------------------------------------- */

static aclrtCntNotify new_cnt(void)
{
	aclrtCntNotify c = NULL;
	aclError r = aclrtCntNotifyCreate(&c, 0);

	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("the driver has no notifies (DRM_ASCEND_CAP_NOTIFY)");
	REQUIRE_ACL(r);
	return c;
}

static aclError cnt_record(aclrtCntNotify c, aclrtStream s, aclrtCntNotifyRecordMode mode,
			   uint32_t v)
{
	aclrtCntNotifyRecordInfo info = { .mode = mode, .value = v };

	return aclrtCntNotifyRecord(c, s, &info);
}

static aclError cnt_wait(aclrtCntNotify c, aclrtStream s, aclrtCntNotifyWaitMode mode,
			 uint32_t v, uint32_t timeout, uint8_t clear)
{
	aclrtCntNotifyWaitInfo info = { .mode = mode, .value = v, .timeout = timeout,
					.isClear = clear };

	return aclrtCntNotifyWaitWithTimeout(c, s, &info);
}

/* Three producers' adds release a wait for 3, which clears the count. */
TEST(cnt_adds_release_a_wait)
{
	aclrtStream s1, s2;
	aclrtCntNotify c;
	int *p, *q, i;

	acl_setup();
	c = new_cnt();
	REQUIRE_ACL(aclrtCreateStream(&s1));
	REQUIRE_ACL(aclrtCreateStream(&s2));
	p = dev_ints(1, 0);
	q = dev_ints(1, 0);
	REQUIRE_ACL(launch_spin(s1, 100000));
	for (i = 0; i < 3; i++) {
		REQUIRE_ACL(launch_fill32(s1, p, 10 + i, 1, 1));
		REQUIRE_ACL(cnt_record(c, s1, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1));
	}
	REQUIRE_ACL(cnt_wait(c, s2, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, 10, 1));
	REQUIRE_ACL(aclrtMemcpyAsync(q, 4, p, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_EQ(dev_int(q), 12);			/* after the third add */
	/* cleared: EQUAL 0 passes at once, BIGGER 0 times out */
	CHECK_ACL_OK(cnt_wait(c, s2, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 5, 0));
	CHECK_ACL_OK(aclrtSynchronizeStream(s2));
	CHECK_ACL_OK(cnt_wait(c, s2, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 0, 1, 0));
	CHECK_ACL_ERR(aclrtSynchronizeStream(s2), ACL_ERROR_RT_TASK_TIMEOUT);
	CHECK_ACL_OK(aclrtCntNotifyDestroy(c));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtFree(q));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s2));
}

/* Every record and wait mode on known counts. */
TEST(cnt_modes)
{
	aclrtCntNotify c;
	aclrtStream s;

	acl_setup();
	c = new_cnt();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0xf0));
	REQUIRE_ACL(cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x0f));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0xff, 5, 0));
	REQUIRE_ACL(cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x3c));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x34, 5, 0));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 0x3d, 5, 0));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 0x3b, 5, 0));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x3c, 5, 0));
	REQUIRE_ACL(cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 0xffffffffu));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 0xfffffffeu, 5, 0));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	/* a bit the count lacks: the bitmask wait times out */
	REQUIRE_ACL(aclrtCntNotifyReset(c, s));
	REQUIRE_ACL(cnt_record(c, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0x5));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x7, 1, 0));
	CHECK_ACL_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_TASK_TIMEOUT);
	/* after the fault's reset: Reset stores 0 in stream order */
	REQUIRE_ACL(aclrtCntNotifyReset(c, s));
	CHECK_ACL_OK(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 1, 5, 0));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtCntNotifyDestroy(c));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(cnt_arguments)
{
	aclrtCntNotifyRecordInfo ri = { .mode = ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, .value = 1 };
	aclrtCntNotify c, d, none = NULL;
	uint32_t ic = 99, id = 99;
	aclrtNotify n;
	aclrtStream s;

	acl_setup();
	c = new_cnt();
	d = new_cnt();
	n = new_notify();
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtCntNotifyGetId(c, &ic));
	CHECK_ACL_OK(aclrtCntNotifyGetId(d, &id));
	CHECK_NE(ic, id);
	CHECK_ACL_ERR(aclrtCntNotifyGetId(c, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCntNotifyCreate(NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCntNotifyCreate(&none, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtCntNotifyRecord(c, s, NULL), ACL_ERROR_INVALID_PARAM);
	ri.mode = (aclrtCntNotifyRecordMode)3;
	check_err_msg(aclrtCntNotifyRecord(c, s, &ri), ACL_ERROR_INVALID_PARAM, "mode");
	CHECK_ACL_ERR(aclrtCntNotifyWaitWithTimeout(c, s, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(cnt_wait(c, s, (aclrtCntNotifyWaitMode)5, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(cnt_wait(c, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0, 2),
		      ACL_ERROR_INVALID_PARAM);
	/* the two kinds do not mix */
	check_err_msg(aclrtCntNotifyReset((aclrtCntNotify)n, s), ACL_ERROR_RT_PARAM_INVALID,
		      "counting notify");
	CHECK_ACL_ERR(aclrtRecordNotify((aclrtNotify)c, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtCntNotifyDestroy((aclrtCntNotify)n), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtNotifyBatchReset((aclrtNotify *)&c, 1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtCntNotifyDestroy(c));
	CHECK_ACL_ERR(aclrtCntNotifyDestroy(c), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtCntNotifyDestroy(d));
	CHECK_ACL_OK(aclrtDestroyNotify(n));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* ---- between processes ---------------------------------------------- */

/* Another process records; this one's stream waits for it. */
static void ipc_case(int child_dev, bool pid_check)
{
	char key[KEYLEN], dev[8];
	aclrtStream s;
	aclrtNotify n;
	int *p, *q;
	int32_t pid;
	pid_t c;

	n = new_notify();
	REQUIRE_ACL(aclrtCreateStream(&s));
	p = dev_ints(1, 0);
	q = dev_ints(1, 0);
	REQUIRE_ACL(launch_fill32(s, p, 77, 1, 1));
	REQUIRE_ACL(aclrtNotifyGetExportKey(n, key, KEYLEN, pid_check ? 0 :
					    ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
	wait_then_copy(n, s, q, p, 30);
	snprintf(dev, sizeof(dev), "%d", child_dev);
	if (pid_check) {
		/* a stranger is refused; an allowed child (stopped) imports */
		CHECK_EQ(wait_exit(spawn((char *[]){ "t", "refused", key, NULL })), 0);
		c = fork();
		if (c == 0) {
			raise(SIGSTOP);
			execv("/proc/self/exe", (char *[]){ "t", "record", key, dev, "2", NULL });
			_exit(127);
		}
		REQUIRE(c > 0);
		waitpid(c, NULL, WUNTRACED);
		pid = c;
		CHECK_ACL_OK(aclrtNotifySetImportPid(n, &pid, 1));
		kill(c, SIGCONT);
	} else {
		c = spawn((char *[]){ "t", "record", key, dev, "2", NULL });
	}
	CHECK_EQ(wait_exit(c), 0);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(dev_int(q), 77);
	CHECK_ACL_OK(aclrtDestroyNotify(n));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtFree(q));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(ipc_without_pid_check)
{
	acl_setup();
	ipc_case(0, false);
}

TEST(ipc_with_pid_check)
{
	acl_setup();
	ipc_case(0, true);
}

/* The recorder is on another device: its record crosses the peer link. */
TEST(ipc_from_another_device)
{
	uint32_t n = 0;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs 2 devices");
	ipc_case(1, true);
}

/* A local notify used from another device's stream needs peer access. */
TEST(other_device_stream_needs_peer_access)
{
	aclrtStream s1;
	aclrtNotify nt;
	uint32_t n = 0;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs 2 devices");
	nt = new_notify();			/* on device 0 */
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	check_err_msg(aclrtRecordNotify(nt, s1), ACL_ERROR_RT_STREAM_CONTEXT,
		      "aclrtDeviceEnablePeerAccess");
	REQUIRE_ACL(aclrtDeviceEnablePeerAccess(0, 0));
	CHECK_ACL_OK(aclrtRecordNotify(nt, s1));
	CHECK_ACL_OK(aclrtSynchronizeStream(s1));
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	REQUIRE_ACL(aclrtSetDevice(0));
	{
		aclrtStream s0;

		REQUIRE_ACL(aclrtCreateStream(&s0));
		CHECK_ACL_OK(aclrtWaitAndResetNotify(nt, s0, 5));
		CHECK_ACL_OK(aclrtSynchronizeStream(s0));
		CHECK_ACL_OK(aclrtDestroyStream(s0));
	}
	CHECK_ACL_OK(aclrtDestroyNotify(nt));
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "record"))
		return role_record(argv);
	if (argc == 3 && !strcmp(argv[1], "refused"))
		return role_refused(argv);
	return tap_main();
}
