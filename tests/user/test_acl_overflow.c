// SPDX-License-Identifier: MIT
/*
 * Floating-point overflow status, set by the device's float kernels:
 * an AddF32 whose finite inputs give inf sets it (on a stream whose
 * overflow switch is on), a normal add does not, the switch off records
 * nothing, aclrtResetOverflowStatus clears it, another process never sees
 * it; the FloatOverflow names of the calls and their error codes.  Also the
 * string-printing kernels (PrintString, KernelPrint).
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/wait.h>

#include "acl_util.h"

static void *dev_alloc(size_t n)
{
	void *p = NULL;

	REQUIRE_ACL(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, n, 0, n));
	return p;
}

/* c = a + b for one float pair, on @s */
static void addf32(aclrtStream s, float a, float b)
{
	static float *d;
	struct { float *a, *b, *c; uint64_t n; } args;
	float h[2] = { a, b };

	if (!d)
		d = dev_alloc(16);
	REQUIRE_ACL(aclrtMemcpy(d, 8, h, 8, ACL_MEMCPY_HOST_TO_DEVICE));
	args.a = d;
	args.b = d + 1;
	args.c = d + 2;
	args.n = 1;
	REQUIRE_ACL(aclrtLaunchKernel(builtin_kernel("AddF32"), 1, &args, sizeof(args), s));
}

/* The status word u32 0 of the 64 bytes; the rest must be 0. */
static uint32_t status(aclrtStream s, bool float_name)
{
	static void *out;
	uint8_t h[64];
	uint32_t w;

	if (!out)
		out = dev_alloc(64);
	REQUIRE_ACL(aclrtMemset(out, 64, 0xa5, 64));
	if (float_name)
		REQUIRE_ACL(aclrtGetFloatOverflowStatus(out, 64, s));
	else
		REQUIRE_ACL(aclrtGetOverflowStatus(out, 64, s));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	REQUIRE_ACL(aclrtMemcpy(h, 64, out, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 4; i < 64; i++)
		CHECK_EQ(h[i], 0);
	memcpy(&w, h, 4);
	return w;
}

TEST(addf32_overflow_sets_status)
{
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_EQ(status(s, false), 0u);
	REQUIRE_ACL(aclrtSetStreamOverflowSwitch(s, 1));
	addf32(s, 1.0f, 2.0f);
	CHECK_EQ(status(s, false), 0u);			/* a normal add */
	addf32(s, 3e38f, 3e38f);			/* inf from finite inputs */
	CHECK_EQ(status(s, false), 1u);
	CHECK_EQ(status(s, true), 1u);
	addf32(s, 1.0f, 2.0f);
	CHECK_EQ(status(s, false), 1u);			/* sticky */
	REQUIRE_ACL(aclrtResetOverflowStatus(s));
	CHECK_EQ(status(s, false), 0u);
	addf32(s, -3e38f, -3e38f);
	CHECK_EQ(status(s, false), 1u);
	REQUIRE_ACL(aclrtResetFloatOverflowStatus(s));
	CHECK_EQ(status(s, true), 0u);
	/* inf in, inf out: not an overflow of this add */
	addf32(s, __builtin_inff(), 1.0f);
	CHECK_EQ(status(s, false), 0u);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* A queue reset (a fault, an abort) keeps the stream's switch on. */
TEST(switch_survives_reset)
{
	uint32_t flag = 0;
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtSetStreamOverflowSwitch(s, 1));
	REQUIRE_ACL(aclrtResetOverflowStatus(s));
	REQUIRE_ACL(launch_trap(s));
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK_ACL_OK(aclrtGetStreamOverflowSwitch(s, &flag));
	CHECK_EQ(flag, 1u);
	addf32(s, 3e38f, 3e38f);
	CHECK_EQ(status(s, false), 1u);			/* still recorded */
	REQUIRE_ACL(aclrtResetOverflowStatus(s));
	CHECK_ACL_OK(aclrtStreamAbort(s));
	addf32(s, 3e38f, 3e38f);
	CHECK_EQ(status(s, false), 1u);
	REQUIRE_ACL(aclrtResetOverflowStatus(s));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* The status is per process and device: it shows on every stream. */
TEST(status_is_per_process)
{
	aclrtStream a, b;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&a));
	REQUIRE_ACL(aclrtCreateStream(&b));
	REQUIRE_ACL(aclrtSetStreamOverflowSwitch(a, 1));
	addf32(a, 3e38f, 3e38f);
	REQUIRE_ACL(aclrtSynchronizeStream(a));
	CHECK_EQ(status(b, false), 1u);
	CHECK_EQ(status(NULL, false), 1u);		/* the default stream */
	REQUIRE_ACL(aclrtResetOverflowStatus(b));
	REQUIRE_ACL(aclrtSynchronizeStream(b));
	CHECK_EQ(status(a, false), 0u);
}

TEST(switch_off_records_nothing)
{
	aclrtStream s;
	uint32_t f = 9;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtGetStreamOverflowSwitch(s, &f));
	CHECK_EQ(f, 0u);
	addf32(s, 3e38f, 3e38f);			/* off by default */
	CHECK_EQ(status(s, false), 0u);
	REQUIRE_ACL(aclrtSetStreamOverflowSwitch(s, 1));
	REQUIRE_ACL(aclrtSetStreamOverflowSwitch(s, 0));
	addf32(s, 3e38f, 3e38f);
	CHECK_EQ(status(s, false), 0u);
	REQUIRE_ACL(aclrtSetStreamOverflowSwitch(s, 1));
	addf32(s, 3e38f, 3e38f);
	CHECK_EQ(status(s, false), 1u);
	/* another stream's switch is its own */
	{
		aclrtStream t;

		REQUIRE_ACL(aclrtCreateStream(&t));
		REQUIRE_ACL(aclrtResetOverflowStatus(t));
		addf32(t, 3e38f, 3e38f);
		CHECK_EQ(status(t, false), 0u);
	}
}

/* Another process of the same user never sees this one's status. */
TEST(not_visible_to_another_process)
{
	int go[2], done[2], st;
	char c = 0;
	pid_t pid;

	REQUIRE(pipe(go) == 0 && pipe(done) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		aclrtStream s;

		REQUIRE(read(go[0], &c, 1) == 1);	/* the parent overflowed */
		acl_setup();
		REQUIRE_ACL(aclrtCreateStream(&s));
		if (status(s, false) != 0)
			_exit(2);
		REQUIRE_ACL(aclrtSetStreamOverflowSwitch(s, 1));
		addf32(s, 3e38f, 3e38f);
		if (status(s, false) != 1)
			_exit(3);
		REQUIRE(write(done[1], &c, 1) == 1);
		_exit(0);
	}
	{
		aclrtStream s;

		acl_setup();
		REQUIRE_ACL(aclrtCreateStream(&s));
		REQUIRE_ACL(aclrtResetOverflowStatus(s));
		REQUIRE_ACL(aclrtSetStreamOverflowSwitch(s, 1));
		addf32(s, 3e38f, 3e38f);
		CHECK_EQ(status(s, false), 1u);
		REQUIRE(write(go[1], &c, 1) == 1);
		REQUIRE(read(done[0], &c, 1) == 1);	/* the child overflowed */
		REQUIRE_ACL(aclrtResetOverflowStatus(s));
		CHECK_EQ(status(s, false), 0u);		/* the child's is its own */
		REQUIRE(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
}

TEST(errors)
{
	void *out;

	acl_setup();
	out = dev_alloc(64);
	CHECK_ACL_ERR(aclrtGetOverflowStatus(NULL, 64, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetOverflowStatus(out, 63, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetOverflowStatus(out, 128, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetFloatOverflowStatus(NULL, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetFloatOverflowStatus(out, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetOverflowStatus(out, 64, (aclrtStream)(uintptr_t)0x1234),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtResetOverflowStatus((aclrtStream)(uintptr_t)0x1234),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSetStreamOverflowSwitch(NULL, 2), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtResetDeviceForce(0));
	CHECK_ACL_FAIL(aclrtResetOverflowStatus(NULL));
}

/* PrintString and KernelPrint reach stdout through the device printf. */
TEST(print_string)
{
	static const char msg[] = "hello from the device\n";
	struct { const char *p; uint64_t len; } args;
	struct capture cap;
	aclrtStream s;
	char *text, *d;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	d = dev_alloc(64);
	REQUIRE_ACL(aclrtMemcpy(d, 64, msg, sizeof(msg), ACL_MEMCPY_HOST_TO_DEVICE));
	args.p = d;
	args.len = 64;				/* stops at the NUL */
	capture_begin(&cap);
	REQUIRE_ACL(aclrtLaunchKernel(builtin_kernel("PrintString"), 2, &args, sizeof(args), s));
	args.len = 5;				/* at most len bytes */
	REQUIRE_ACL(aclrtLaunchKernel(builtin_kernel("PrintString"), 1, &args, sizeof(args), s));
	REQUIRE_ACL(aclrtLaunchKernel(builtin_kernel("KernelPrint"), 3, NULL, 0, s));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	text = capture_end(&cap);
	CHECK(strcmp(text, "hello from the device\nhello from the device\nhello"
		      "Hello World\nHello World\nHello World\n") == 0);
	if (strcmp(text, "hello from the device\nhello from the device\nhello"
		   "Hello World\nHello World\nHello World\n"))
		printf("#   got: %s\n", text);
	free(text);
	/* an unmapped string faults the stream */
	args.p = (const char *)(uintptr_t)0x1000;
	REQUIRE_ACL(aclrtLaunchKernel(builtin_kernel("PrintString"), 1, &args, sizeof(args), s));
	CHECK_NE(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

int main(void)
{
	return tap_main();
}
