// SPDX-License-Identifier: MIT
/*
 * test_acl_ipc.c - device memory and events shared between processes:
 * aclrtIpcMemGetExportKey / SetImportPid / ImportByKey / Close,
 * aclrtIpcGetEventHandle / aclrtIpcOpenEventHandle.
 *
 * The other processes are this binary re-executed with a role in argv
 * (fresh processes with their own device files, as CANN programs are):
 *	test_acl_ipc import KEY SIZE BYTE NEWBYTE   import, check, write, close
 *	test_acl_ipc refused KEY                    import must fail (107000)
 *	test_acl_ipc export FD SIZE BYTE            export, write key to FD, wait
 *	                                            for a line on stdin, exit
 *	test_acl_ipc reader KEY FD                  import, then copy forever
 *	                                            (one byte to FD once going)
 *	test_acl_ipc evwait HEXHANDLE FD MODE       open the event, say "r" on
 *	                                            FD, wait (MODE s: host sync,
 *	                                            w: stream wait), say "d"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl_util.h"
#include "tap.h"

#define KEYLEN 65
#define SIZE 8192

static void *filled(size_t size, int byte)
{
	void *p = NULL;

	REQUIRE_ACL(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, size, byte, size));
	return p;
}

static int all_bytes(const void *dev, size_t size, int byte)
{
	unsigned char *h = malloc(size);
	size_t i;
	int ok = 1;

	if (!h || aclrtMemcpy(h, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST))
		ok = 0;
	for (i = 0; ok && i < size; i++)
		ok = h[i] == (unsigned char)byte;
	free(h);
	return ok;
}

/* Export @p; SKIP the case when the driver cannot. */
static void export_or_skip(void *p, size_t size, char *key, uint64_t flags)
{
	aclError r = aclrtIpcMemGetExportKey(p, size, key, KEYLEN, flags);

	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("the driver has no IPC (DRM_ASCEND_CAP_IPC)");
	REQUIRE_ACL(r);
}

/* ---- child roles ---------------------------------------------------- */

static int role_import(char **av)
{
	size_t size = strtoul(av[3], NULL, 0);
	aclError r;
	void *p;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 10;
	r = aclrtIpcMemImportByKey(&p, av[2], ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS);
	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		return 77;	/* no peer access in the driver */
	if (r)
		return 11;
	if (!all_bytes(p, size, atoi(av[4])))
		return 12;
	if (aclrtMemset(p, size, atoi(av[5]), size))
		return 13;
	if (aclrtIpcMemClose(av[2]))
		return 14;
	/* closed: a second close is an error */
	if (aclrtIpcMemClose(av[2]) != ACL_ERROR_RT_PARAM_INVALID)
		return 15;
	return 0;
}

static int role_refused(char **av)
{
	void *p = NULL;
	aclError r;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 10;
	r = aclrtIpcMemImportByKey(&p, av[2], 0);
	if (r != ACL_ERROR_RT_PARAM_INVALID)
		return 20;
	return acl_has_errmsg() ? 0 : 21;
}

static int role_export(char **av)
{
	int fd = atoi(av[2]);
	size_t size = strtoul(av[3], NULL, 0);
	char key[KEYLEN], line[8];
	void *p;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 10;
	if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMemset(p, size, atoi(av[4]), size))
		return 11;
	if (aclrtIpcMemGetExportKey(p, size, key, sizeof(key),
				    ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION))
		return 12;
	if (write(fd, key, KEYLEN) != KEYLEN)
		return 13;
	close(fd);
	if (read(0, line, sizeof(line)) < 0)
		return 14;
	/* exit without close or free: the kernel keeps the imports alive */
	_exit(0);
}

static int role_reader(char **av)
{
	int fd = atoi(av[3]);
	unsigned char h[SIZE];
	void *p;

	if (aclInit(NULL) || aclrtSetDevice(0))
		return 10;
	if (aclrtIpcMemImportByKey(&p, av[2], 0))
		return 11;
	if (write(fd, "g", 1) != 1)
		return 12;
	for (;;)
		if (aclrtMemcpy(h, SIZE, p, SIZE, ACL_MEMCPY_DEVICE_TO_HOST))
			return 13;
}

static int role_evwait(char **av)
{
	aclrtIpcEventHandle h;
	aclrtEvent ev;
	aclrtStream s;
	int fd = atoi(av[3]);
	unsigned int b;
	size_t i;

	memset(&h, 0, sizeof(h));
	for (i = 0; i < sizeof(h.reserved) && sscanf(av[2] + 2 * i, "%2x", &b) == 1; i++)
		h.reserved[i] = (char)b;
	/* mode: 's' (host wait) or 'w' (stream wait), then the device */
	if (aclInit(NULL) || aclrtSetDevice(av[4][1] ? av[4][1] - '0' : 0))
		return 10;
	if (aclrtIpcOpenEventHandle(h, &ev))
		return 11;
	if (write(fd, "r", 1) != 1)
		return 13;
	if (av[4][0] == 's') {
		if (aclrtSynchronizeEvent(ev))
			return 14;
	} else {
		if (aclrtCreateStream(&s) || aclrtStreamWaitEvent(s, ev) ||
		    aclrtSynchronizeStream(s))
			return 15;
	}
	if (write(fd, "d", 1) != 1)
		return 16;
	/* an importer records too (CANN's ipcevent sample), behind a kernel */
	if (aclrtCreateStream(&s) || launch_spin(s, 100000) || aclrtRecordEvent(ev, s))
		return 12;
	if (aclrtSynchronizeEvent(ev))
		return 18;
	return aclrtDestroyEvent(ev) ? 17 : 0;
}

/* ---- cases ---------------------------------------------------------- */

TEST(ipc_args)
{
	char key[KEYLEN] = { 0 };
	void *p, *q;
	int32_t pid = 1;

	acl_setup();
	p = filled(SIZE, 1);
	CHECK_ACL_ERR(aclrtIpcMemGetExportKey(NULL, SIZE, key, KEYLEN, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemGetExportKey(p, SIZE, NULL, KEYLEN, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemGetExportKey(p, 0, key, KEYLEN, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemGetExportKey(p, SIZE, key, 64, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemGetExportKey(p, SIZE, key, KEYLEN, 2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemGetExportKey(key, 8, key, KEYLEN, 0), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtIpcMemGetExportKey(p, SIZE * 4, key, KEYLEN, 0),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtIpcMemImportByKey(NULL, "abc", 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemImportByKey(&q, NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemImportByKey(&q, "abc", 2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemClose(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemClose("nosuchkey"), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtIpcMemSetImportPid("nosuchkey", &pid, 1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtIpcMemSetImportPid("k", NULL, 1), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemSetImportPid("k", &pid, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcMemSetAttr("k", ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtIpcMemImportPidInterServer("k", NULL, 0),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	export_or_skip(p, SIZE, key, 0);
	CHECK_EQ(strlen(key) > 0 && strlen(key) < KEYLEN, 1);
	CHECK_ACL_OK(aclrtIpcMemClose(key));
	CHECK_ACL_ERR(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtFree(p));
}

/* DISABLE_PID_VALIDATION: any process imports; it sees and changes bytes. */
TEST(export_import_no_pid_check)
{
	char key[KEYLEN];
	void *p;
	pid_t c;

	acl_setup();
	p = filled(SIZE, 0x5a);
	export_or_skip(p, SIZE, key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	c = spawn((char *[]){ "t", "import", key, "8192", "90", "165", NULL });
	CHECK_EQ(wait_exit(c), 0);
	CHECK(all_bytes(p, SIZE, 165));
	CHECK_ACL_OK(aclrtIpcMemClose(key));
	/* closed: a new importer is refused */
	c = spawn((char *[]){ "t", "refused", key, NULL });
	CHECK_EQ(wait_exit(c), 0);
	CHECK_ACL_OK(aclrtFree(p));
}

/* Memory of device 1 imported by a process on device 0 (ENABLE_PEER_ACCESS). */
TEST(import_from_another_device)
{
	char key[KEYLEN];
	uint32_t n = 0;
	void *p;
	pid_t c;
	int st;

	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs 2 devices");
	REQUIRE_ACL(aclrtSetDevice(1));
	p = filled(SIZE, 0x31);
	export_or_skip(p, SIZE, key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	c = spawn((char *[]){ "t", "import", key, "8192", "49", "50", NULL });
	st = wait_exit(c);
	if (st == 77)
		SKIP("the driver has no peer access (DRM_ASCEND_CAP_PEER)");
	CHECK_EQ(st, 0);
	CHECK(all_bytes(p, SIZE, 50));
	CHECK_ACL_OK(aclrtIpcMemClose(key));
	CHECK_ACL_OK(aclrtFree(p));
}

/* Default export: only processes on the allow-list import. */
TEST(export_import_pid_validation)
{
	char key[KEYLEN];
	int32_t pid;
	void *p;
	pid_t c;

	acl_setup();
	p = filled(SIZE, 7);
	export_or_skip(p, SIZE, key, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
	/* not on the list (nobody is yet): refused */
	c = spawn((char *[]){ "t", "refused", key, NULL });
	CHECK_EQ(wait_exit(c), 0);
	/* a child stopped before exec, allowed by pid, then let go */
	c = fork();
	if (c == 0) {
		raise(SIGSTOP);
		execv("/proc/self/exe", (char *[]){ "t", "import", key, "8192", "7", "9", NULL });
		_exit(127);
	}
	REQUIRE(c > 0);
	waitpid(c, NULL, WUNTRACED);
	pid = c;
	CHECK_ACL_OK(aclrtIpcMemSetImportPid(key, &pid, 1));
	kill(c, SIGCONT);
	CHECK_EQ(wait_exit(c), 0);
	CHECK(all_bytes(p, SIZE, 9));
	/* a third process, not on the list, is still refused */
	c = spawn((char *[]){ "t", "refused", key, NULL });
	CHECK_EQ(wait_exit(c), 0);
	CHECK_ACL_OK(aclrtIpcMemClose(key));
	CHECK_ACL_OK(aclrtFree(p));
}

/* The exporter exits while we hold an import: the memory stays. */
TEST(exporter_exits_first)
{
	char key[KEYLEN] = { 0 }, fdarg[16];
	int kp[2], in[2];
	void *p = NULL;
	pid_t c;

	acl_setup();
	REQUIRE(pipe(kp) == 0 && pipe(in) == 0);
	snprintf(fdarg, sizeof(fdarg), "%d", kp[1]);
	c = fork();
	if (c == 0) {
		dup2(in[0], 0);
		close(in[1]);
		close(kp[0]);
		execv("/proc/self/exe", (char *[]){ "t", "export", fdarg, "8192", "66", NULL });
		_exit(127);
	}
	close(kp[1]);
	close(in[0]);
	if (read(kp[0], key, KEYLEN) != KEYLEN) {
		close(in[1]);
		CHECK_EQ(wait_exit(c), 0);
		SKIP("exporter failed (no IPC in the driver?)");
	}
	REQUIRE_ACL(aclrtIpcMemImportByKey(&p, key, 0));
	CHECK(all_bytes(p, SIZE, 66));
	close(in[1]);			/* exporter exits */
	CHECK_EQ(wait_exit(c), 0);
	CHECK(all_bytes(p, SIZE, 66));
	CHECK_ACL_OK(aclrtMemset(p, SIZE, 67, SIZE));
	CHECK(all_bytes(p, SIZE, 67));
	CHECK_ACL_OK(aclrtIpcMemClose(key));
}

/* An importer killed in the middle of copies leaves the exporter fine. */
TEST(importer_killed_while_reading)
{
	char key[KEYLEN], fdarg[16], b;
	size_t fr0, fr1, tot;
	int gp[2];
	void *p;
	pid_t c;

	acl_setup();
	p = filled(SIZE, 3);
	export_or_skip(p, SIZE, key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	REQUIRE(pipe(gp) == 0);
	snprintf(fdarg, sizeof(fdarg), "%d", gp[1]);
	c = spawn((char *[]){ "t", "reader", key, fdarg, NULL });
	close(gp[1]);
	REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &fr0, &tot));
	CHECK_EQ(read(gp[0], &b, 1), 1);
	kill(c, SIGKILL);
	CHECK_EQ(wait_exit(c), 128 + SIGKILL);
	CHECK(all_bytes(p, SIZE, 3));
	CHECK_ACL_OK(aclrtMemset(p, SIZE, 4, SIZE));
	CHECK(all_bytes(p, SIZE, 4));
	CHECK_ACL_OK(aclrtIpcMemClose(key));
	CHECK_ACL_OK(aclrtFree(p));
	REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &fr1, &tot));
	CHECK(fr1 >= fr0);		/* nothing of ours is left */
}

/* 1,000 random keys never import anything. */
TEST(key_brute_force)
{
	static const char al[] = "0123456789abcdefABCDEF";
	char key[KEYLEN], guess[KEYLEN];
	void *p, *q;
	int i, j, hits = 0, other = 0;
	aclError r;

	acl_setup();
	p = filled(SIZE, 1);
	export_or_skip(p, SIZE, key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
	srand((unsigned int)getpid());
	for (i = 0; i < 1000; i++) {
		int n = i % 2 ? (int)strlen(key) : 1 + rand() % 64;

		for (j = 0; j < n; j++)
			guess[j] = al[rand() % (int)(sizeof(al) - 1)];
		guess[n] = '\0';
		if (i == 999) {		/* one character off the real key */
			strcpy(guess, key);
			guess[0] = guess[0] == 'a' ? 'b' : 'a';
		}
		r = aclrtIpcMemImportByKey(&q, guess, 0);
		if (r == ACL_SUCCESS)
			hits++;
		else if (r != ACL_ERROR_RT_PARAM_INVALID)
			other++;
	}
	CHECK_EQ(hits, 0);
	CHECK_EQ(other, 0);
	CHECK_ACL_OK(aclrtIpcMemClose(key));
	CHECK_ACL_OK(aclrtFree(p));
}

static void ipc_event_case(const char *mode)
{
	aclrtIpcEventHandle h;
	aclrtEvent ev;
	aclrtStream s;
	char hex[2 * sizeof(h.reserved) + 1], fdarg[16], b = 0;
	struct pollfd pf;
	uint64_t *flag;
	int rp[2];
	size_t i;
	pid_t c;
	aclError r;

	acl_setup();
	if (mode[1]) {	/* the importer on another device */
		uint32_t n = 0;

		REQUIRE_ACL(aclrtGetDeviceCount(&n));
		if (n < 2)
			SKIP("needs two devices (num_devices=2)");
	}
	REQUIRE_ACL(aclrtCreateEventWithFlag(&ev, ACL_EVENT_SYNC | ACL_EVENT_IPC));
	r = aclrtIpcGetEventHandle(ev, &h);
	if (r == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		SKIP("the driver has no IPC (DRM_ASCEND_CAP_IPC)");
	REQUIRE_ACL(r);
	/* a stream held back on device memory, then the record */
	REQUIRE_ACL(aclrtMalloc((void **)&flag, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(flag, 64, 0, 64));
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
	REQUIRE_ACL(aclrtRecordEvent(ev, s));
	for (i = 0; i < sizeof(h.reserved); i++)
		sprintf(hex + 2 * i, "%02x", (unsigned char)h.reserved[i]);
	REQUIRE(pipe(rp) == 0);
	snprintf(fdarg, sizeof(fdarg), "%d", rp[1]);
	c = spawn((char *[]){ "t", "evwait", hex, fdarg, (char *)mode, NULL });
	close(rp[1]);
	CHECK_EQ(read(rp[0], &b, 1), 1);
	CHECK_EQ(b, 'r');
	/* the record has not run: the waiter must not be done */
	pf.fd = rp[0];
	pf.events = POLLIN;
	CHECK_EQ(poll(&pf, 1, 200), 0);
	REQUIRE_ACL(aclrtValueWrite(flag, 1, 0, NULL));
	CHECK_EQ(read(rp[0], &b, 1), 1);
	CHECK_EQ(b, 'd');
	CHECK_EQ(wait_exit(c), 0);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	/* the importer's record is the latest one now, and it completed */
	{
		aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;

		CHECK_ACL_OK(aclrtQueryEventStatus(ev, &st));
		CHECK_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
		CHECK_ACL_OK(aclrtSynchronizeEvent(ev));
	}
	/* and the exporter records after it */
	REQUIRE_ACL(aclrtRecordEvent(ev, s));
	CHECK_ACL_OK(aclrtSynchronizeEvent(ev));
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
	CHECK_ACL_OK(aclrtFree(flag));
}

TEST(ipc_event_host_wait)
{
	ipc_event_case("s");
}

TEST(ipc_event_stream_wait)
{
	ipc_event_case("w");
}

/* The importer on device 1 (CANN's ipcevent multi-device sample). */
TEST(ipc_event_other_device_host_wait)
{
	ipc_event_case("s1");
}

TEST(ipc_event_other_device_stream_wait)
{
	ipc_event_case("w1");
}

TEST(ipc_event_args)
{
	aclrtIpcEventHandle h;
	aclrtEvent ev, ev2;

	acl_setup();
	memset(&h, 0, sizeof(h));
	REQUIRE_ACL(aclrtCreateEventWithFlag(&ev, ACL_EVENT_SYNC));
	CHECK_ACL_ERR(aclrtIpcGetEventHandle(ev, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcGetEventHandle(ev, &h), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtIpcOpenEventHandle(h, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtIpcOpenEventHandle(h, &ev2), ACL_ERROR_INVALID_PARAM);
	memset(h.reserved, 'x', sizeof(h.reserved));
	CHECK_ACL_FAIL(aclrtIpcOpenEventHandle(h, &ev2));
	CHECK_ACL_OK(aclrtDestroyEvent(ev));
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "import") && argc == 6)
		return role_import(argv);
	if (argc == 3 && !strcmp(argv[1], "refused"))
		return role_refused(argv);
	if (argc == 5 && !strcmp(argv[1], "export"))
		return role_export(argv);
	if (argc == 4 && !strcmp(argv[1], "reader"))
		return role_reader(argv);
	if (argc == 5 && !strcmp(argv[1], "evwait"))
		return role_evwait(argv);
	return tap_main();
}
