// SPDX-License-Identifier: MIT
/*
 * The loader family and the launch variants: aclrtBinaryLoadFromData /
 * LoadFromFile / GetFunction / UnLoad and their CANN codes,
 * aclrtLaunchKernelV2 with launch attributes (time limits honoured,
 * unknown ids refused), the aclrtKernelArgs* builder with place-holders
 * whose buffer the kernel really reads, and every built-in kernel of the
 * table with more blocks than the device has AI cores (8 by default),
 * checked element by element.
 */
#define _GNU_SOURCE
#include "acl_util.h"

#define MANY_BLOCKS 37	/* > the default 8 AI cores, and not a divisor of n */

TEST(load_from_data)
{
	static const char path[] = ACL_BUILTIN_BINARY;
	static const unsigned char elf[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
	aclrtBinHandle a = NULL, b = NULL, x = NULL;
	aclrtFuncHandle fn = NULL;
	char buf[64];

	acl_setup();
	/* without and with the terminating NUL */
	CHECK_ACL_OK(aclrtBinaryLoadFromData(path, strlen(path), NULL, &a));
	CHECK_ACL_OK(aclrtBinaryLoadFromData(path, sizeof(path), NULL, &b));
	REQUIRE(a != NULL && b != NULL);
	CHECK(a != b);
	CHECK_ACL_OK(aclrtBinaryGetFunction(a, "Fill32", &fn));
	CHECK_ACL_OK(aclrtBinaryGetFunction(b, "AddF32", &fn));

	/* anything else is a kernel image this NPU cannot run */
	CHECK_ACL_ERR(aclrtBinaryLoadFromData(elf, sizeof(elf), NULL, &x),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtBinaryLoadFromData(path, strlen(path) - 1, NULL, &x),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	snprintf(buf, sizeof(buf), "%sX", path);	/* one byte more, no NUL */
	CHECK_ACL_ERR(aclrtBinaryLoadFromData(buf, strlen(buf), NULL, &x),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtBinaryLoadFromData(buf, strlen(buf) + 1, NULL, &x),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	memcpy(buf, "ascend://builtiN", sizeof(path));
	CHECK_ACL_ERR(aclrtBinaryLoadFromData(buf, strlen(buf), NULL, &x),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(x == NULL);

	CHECK_ACL_ERR(aclrtBinaryLoadFromData(NULL, 16, NULL, &x), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtBinaryLoadFromData(path, 0, NULL, &x), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtBinaryLoadFromData(path, sizeof(path), NULL, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtBinaryUnLoad(a));
	CHECK_ACL_OK(aclrtBinaryUnLoad(b));
}

TEST(load_from_file_errors)
{
	aclrtBinHandle bin = NULL;

	acl_setup();
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile("/nonexistent/kernel.o", NULL, &bin),
		      ACL_ERROR_RT_FILE_OPEN);
	/* a readable file that is not the built-in library */
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile("/proc/self/exe", NULL, &bin),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK(bin == NULL);
}

TEST(get_function_unload)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = NULL, fn2 = NULL;
	uint64_t usec = 1;

	acl_setup();
	REQUIRE_ACL(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &bin));
	/* aclGetRecentErrMsg() is read-once: look at the message here */
	CHECK_EQ(aclrtBinaryGetFunction(bin, "NoSuchKernel", &fn), ACL_ERROR_RT_KERNEL_LOOKUP);
	CHECK(strstr(acl_errmsg(), "NoSuchKernel") != NULL);
	CHECK_ACL_ERR(aclrtBinaryGetFunction(bin, "spin", &fn), ACL_ERROR_RT_KERNEL_LOOKUP);
	CHECK_ACL_OK(aclrtBinaryGetFunction(bin, "Spin", &fn));
	CHECK_ACL_OK(aclrtBinaryGetFunction(bin, "Spin", &fn2));
	CHECK(fn == fn2);
	CHECK_ACL_OK(aclrtLaunchKernel(fn, 1, &usec, sizeof(usec), NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(NULL));

	CHECK_ACL_OK(aclrtBinaryUnLoad(bin));
	CHECK_ACL_ERR(aclrtBinaryUnLoad(bin), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtBinaryUnLoad(NULL), ACL_ERROR_INVALID_PARAM);
	/* the binary's functions went with it */
	CHECK_ACL_ERR(aclrtBinaryGetFunction(bin, "Spin", &fn2), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtLaunchKernel(fn, 1, &usec, sizeof(usec), NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(launch_v2_attributes)
{
	aclrtLaunchKernelAttr attrs[3];
	aclrtLaunchKernelCfg cfg = { attrs, 1 };
	aclrtFuncHandle spin;
	uint64_t usec;
	aclrtStream s;
	int *p, v = 0;
	aclError r;

	acl_setup();
	spin = builtin_kernel("Spin");
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	memset(attrs, 0, sizeof(attrs));

	/* attributes that mean nothing here are accepted, NULL cfg too */
	attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
	attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
	attrs[1].value.dynUBufSize = 1024;
	attrs[2].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING;
	cfg.numAttrs = 3;
	usec = 10;
	CHECK_ACL_OK(aclrtLaunchKernelV2(spin, 1, &usec, sizeof(usec), &cfg, s));
	CHECK_ACL_OK(aclrtLaunchKernelV2(spin, 1, &usec, sizeof(usec), NULL, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));

	/* unknown id, attrs NULL with a count: 100000, nothing queued */
	attrs[1].id = (aclrtLaunchKernelAttrId)99;
	CHECK_ACL_ERR(aclrtLaunchKernelV2(spin, 1, &usec, sizeof(usec), &cfg, s),
		      ACL_ERROR_INVALID_PARAM);
	cfg.attrs = NULL;
	CHECK_ACL_ERR(aclrtLaunchKernelV2(spin, 1, &usec, sizeof(usec), &cfg, s),
		      ACL_ERROR_INVALID_PARAM);
	cfg.attrs = attrs;

	/* a generous limit does not stop a short kernel */
	memset(attrs, 0, sizeof(attrs));
	attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
	attrs[0].value.timeoutUs.timeoutLow = 20 * 1000 * 1000;
	cfg.numAttrs = 1;
	usec = 20000;
	CHECK_ACL_OK(aclrtLaunchKernelV2(spin, 1, &usec, sizeof(usec), &cfg, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));

	/* TIMEOUT_US (the high word counts too: 2^32 us is not 0) */
	attrs[0].value.timeoutUs.timeoutLow = 50000;
	usec = 10ULL * 1000 * 1000;
	REQUIRE_ACL(aclrtLaunchKernelV2(spin, MANY_BLOCKS, &usec, sizeof(usec), &cfg, s));
	r = aclrtSynchronizeStream(s);
	CHECK_EQ(r, ACL_ERROR_RT_AICORE_TIMEOUT);
	CHECK(strstr(acl_errmsg(), "LAUNCH") != NULL);

	/* TIMEOUT in seconds */
	attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
	attrs[0].value.timeout = 1;
	REQUIRE_ACL(aclrtLaunchKernelV2(spin, 1, &usec, sizeof(usec), &cfg, s));
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT);

	/* the stream was reset and works */
	write_dev_ints(s, p, (int[]){ 77 }, 1);
	CHECK_EQ(read_dev_ints(s, p, &v, 1), 1);
	CHECK_EQ(v, 77);
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(kernel_args_builder)
{
	aclrtFuncHandle wr, rd;
	aclrtArgsHandle args = NULL, other = NULL;
	aclrtParamHandle hp = NULL, hv = NULL;
	aclrtStream s;
	int *p, val = 4242, v[3] = { 0 };
	void *buf = NULL;

	acl_setup();
	wr = builtin_kernel("DeviceWrite");
	rd = builtin_kernel("DeviceRead");
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));

	CHECK_ACL_ERR(aclrtKernelArgsInit(NULL, &args), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtKernelArgsInit(wr, NULL), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtKernelArgsInit(wr, &args));
	CHECK_ACL_ERR(aclrtKernelArgsAppend(args, NULL, 8, &hp), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtKernelArgsAppend(args, &p, 0, &hp), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtKernelArgsAppend(args, &p, sizeof(p), &hp));
	REQUIRE_ACL(aclrtKernelArgsAppend(args, &val, sizeof(val), &hv));
	/* not a place-holder: no buffer */
	CHECK_ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, hp, 8, &buf),
		      ACL_ERROR_RT_PARAM_INVALID);
	REQUIRE_ACL(aclrtKernelArgsFinalize(args));
	CHECK_ACL_ERR(aclrtKernelArgsAppend(args, &val, sizeof(val), NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* 3 blocks: p[0..2] = 4242 */
	CHECK_ACL_OK(aclrtLaunchKernelWithConfig(wr, 3, s, NULL, args, NULL));
	/* an args handle of another function */
	CHECK_ACL_ERR(aclrtLaunchKernelWithConfig(rd, 1, s, NULL, args, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtLaunchKernelWithConfig(wr, 1, s, NULL, NULL, NULL),
		      ACL_ERROR_INVALID_PARAM);
	{
		struct capture c;

		capture_begin(&c);
		CHECK_ACL_OK(aclrtSynchronizeStream(s));
		free(capture_end(&c));
	}
	CHECK_EQ(read_dev_ints(s, p, v, 3), 3);
	CHECK_EQ(v[0], 4242);
	CHECK_EQ(v[1], 4242);
	CHECK_EQ(v[2], 4242);

	/* the same handle launched again, no args: every slot is copied */
	REQUIRE_ACL(aclrtKernelArgsInit(rd, &other));
	REQUIRE_ACL(aclrtKernelArgsAppend(other, &p, sizeof(p), NULL));
	REQUIRE_ACL(aclrtKernelArgsFinalize(other));
	CHECK_ACL_OK(aclrtLaunchKernelWithConfig(rd, 1, s, NULL, other, NULL));
	{
		struct capture c;
		char *out;

		capture_begin(&c);
		CHECK_ACL_OK(aclrtSynchronizeStream(s));
		out = capture_end(&c);
		CHECK(strstr(out, "Destination data: 4242") != NULL);
		free(out);
	}
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* Copy(dst, src = place-holder, bytes): the kernel reads the buffer. */
TEST(placeholder_buffer_read_by_kernel)
{
	aclrtFuncHandle cp;
	aclrtLaunchKernelAttr attr = { .id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT };
	aclrtLaunchKernelCfg cfg = { &attr, 1 };
	aclrtArgsHandle args = NULL;
	aclrtParamHandle ph = NULL, ph2 = NULL;
	uint64_t bytes = 6 * sizeof(int);
	aclrtStream s;
	int *dst, v[7], i, *buf = NULL;
	void *again = NULL;

	acl_setup();
	cp = builtin_kernel("Copy");
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&dst, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	write_dev_ints(s, dst, (int[]){ 0, 0, 0, 0, 0, 0, -1 }, 7);
	attr.value.timeout = 30;

	REQUIRE_ACL(aclrtKernelArgsInit(cp, &args));
	REQUIRE_ACL(aclrtKernelArgsAppend(args, &dst, sizeof(dst), NULL));
	CHECK_ACL_ERR(aclrtKernelArgsAppendPlaceHolder(args, NULL), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtKernelArgsAppendPlaceHolder(args, &ph));
	REQUIRE_ACL(aclrtKernelArgsAppend(args, &bytes, sizeof(bytes), NULL));
	CHECK_ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 0, (void **)&buf),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 24, NULL),
		      ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, bytes, (void **)&buf));
	REQUIRE(buf != NULL);
	for (i = 0; i < 6; i++)
		buf[i] = 1000 + i * 11;
	REQUIRE_ACL(aclrtKernelArgsFinalize(args));
	CHECK_ACL_OK(aclrtLaunchKernelWithConfig(cp, MANY_BLOCKS, s, &cfg, args, NULL));
	REQUIRE(read_dev_ints(s, dst, v, 7) == 7);
	for (i = 0; i < 6; i++)
		CHECK_EQ(v[i], 1000 + i * 11);
	CHECK_EQ(v[6], -1);

	/* new contents, same handle: the next launch carries them */
	REQUIRE_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, bytes, &again));
	CHECK(again == buf);
	for (i = 0; i < 6; i++)
		buf[i] = -7 * i;
	CHECK_ACL_OK(aclrtLaunchKernelWithConfig(cp, 2, s, NULL, args, NULL));
	REQUIRE(read_dev_ints(s, dst, v, 7) == 7);
	for (i = 0; i < 6; i++)
		CHECK_EQ(v[i], -7 * i);
	CHECK_EQ(v[6], -1);

	/* another args handle's param is not this one's place-holder */
	{
		aclrtArgsHandle b = NULL;

		REQUIRE_ACL(aclrtKernelArgsInit(cp, &b));
		REQUIRE_ACL(aclrtKernelArgsAppendPlaceHolder(b, &ph2));
		CHECK_ACL_ERR(aclrtKernelArgsGetPlaceHolderBuffer(args, ph2, 8, &again),
			      ACL_ERROR_RT_PARAM_INVALID);
	}
	aclrtFree(dst);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/*
 * Fill32, Add32, Copy, DeviceWrite, DeviceRead with more blocks than AI
 * cores; every element checked, and the word past the end untouched.
 */
TEST(int_kernels_many_blocks)
{
	enum { N = 100 };
	aclrtStream s;
	int *a, *b, *c, *d, vals[N + 1], got[N + 1], i, n;
	struct capture cap;
	char *out;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&a, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&b, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&c, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < N; i++)
		vals[i] = i * 7 - 300;
	vals[N] = 555;
	write_dev_ints(s, a, vals, N + 1);
	write_dev_ints(s, d + N, (int[]){ 666 }, 1);
	write_dev_ints(s, b + N, (int[]){ 777 }, 1);

	REQUIRE_ACL(launch_fill32(s, b, 1000, N, MANY_BLOCKS));
	REQUIRE_ACL(launch_add32(s, a, b, c, N, MANY_BLOCKS));
	{
		struct {
			int *dst, *src;
			uint64_t bytes;
		} args = { d, c, N * sizeof(int) };

		REQUIRE_ACL(aclrtLaunchKernel(builtin_kernel("Copy"), MANY_BLOCKS, &args,
					      sizeof(args), s));
	}
	REQUIRE(read_dev_ints(s, b, got, N + 1) == N + 1);
	for (i = 0; i < N; i++)
		CHECK_EQ(got[i], 1000);
	CHECK_EQ(got[N], 777);
	REQUIRE(read_dev_ints(s, d, got, N + 1) == N + 1);
	for (i = 0; i < N; i++)
		CHECK_EQ(got[i], vals[i] + 1000);
	CHECK_EQ(got[N], 666);

	/* DeviceWrite / DeviceRead: block i touches p[i] */
	capture_begin(&cap);
	REQUIRE_ACL(launch_write(s, c, -9, MANY_BLOCKS));
	REQUIRE_ACL(launch_read(s, c, MANY_BLOCKS + 1));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	out = capture_end(&cap);
	CHECK_EQ(parse_values(out, "Source data:", got, N), MANY_BLOCKS);
	n = parse_values(out, "Destination data:", got, N);
	CHECK_EQ(n, MANY_BLOCKS + 1);
	{
		int minus9 = 0, rest = 0;

		for (i = 0; i < n && i < N; i++) {
			if (got[i] == -9)
				minus9++;
			else if (got[i] == vals[MANY_BLOCKS] + 1000)
				rest++;
		}
		CHECK_EQ(minus9, MANY_BLOCKS);
		CHECK_EQ(rest, 1);
	}
	free(out);
	aclrtFree(a);
	aclrtFree(b);
	aclrtFree(c);
	aclrtFree(d);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

static int f2i(float f)
{
	int i;

	memcpy(&i, &f, sizeof(i));
	return i;
}

TEST(addf32_exact)
{
	/* a, b, expected bits of a + b (IEEE-754 binary32, round to nearest even) */
	static const struct {
		uint32_t a, b, sum;
	} t[] = {
		{ 0x3f800000, 0x40000000, 0x40400000 },	/* 1 + 2 = 3 */
		{ 0x3dcccccd, 0x3e4ccccd, 0x3e99999a },	/* 0.1f + 0.2f */
		{ 0x3f800000, 0x33800000, 0x3f800000 },	/* 1 + 2^-24: tie to even */
		{ 0x3f800001, 0x33800000, 0x3f800002 },	/* tie rounds up to even */
		{ 0x7f7fffff, 0x7f7fffff, 0x7f800000 },	/* overflow: +inf */
		{ 0x80000000, 0x80000000, 0x80000000 },	/* -0 + -0 = -0 */
		{ 0x3f800000, 0xbf800000, 0x00000000 },	/* 1 - 1 = +0 */
		{ 0x00000001, 0x00000001, 0x00000002 },	/* subnormals */
		{ 0x00800000, 0x80000001, 0x007fffff },	/* down to subnormal */
		{ 0x7f800000, 0x3f800000, 0x7f800000 },	/* inf + 1 */
		{ 0x7f800000, 0xff800000, 0x7fc00000 },	/* inf - inf: NaN */
		{ 0x7fc00001, 0x3f800000, 0x7fc00001 },	/* quiet NaN through */
		{ 0xc0490fdb, 0x40490fdb, 0x00000000 },	/* -pi + pi */
	};
	enum { N = sizeof(t) / sizeof(t[0]) };
	int av[N + 1], bv[N + 1], got[N + 1], i;
	aclrtStream s;
	int *a, *b, *c;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&a, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&b, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
	REQUIRE_ACL(aclrtMalloc((void **)&c, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < N; i++) {
		av[i] = (int)t[i].a;
		bv[i] = (int)t[i].b;
	}
	/* the host agrees on the finite, non-NaN cases */
	CHECK_EQ(f2i(0.1f + 0.2f), 0x3e99999a);
	write_dev_ints(s, a, av, N);
	write_dev_ints(s, b, bv, N);
	write_dev_ints(s, c + N, (int[]){ 12345 }, 1);
	{
		struct {
			int *a, *b, *c;
			uint64_t n;
		} args = { a, b, c, N };

		REQUIRE_ACL(aclrtLaunchKernel(builtin_kernel("AddF32"), MANY_BLOCKS, &args,
					      sizeof(args), s));
	}
	REQUIRE(read_dev_ints(s, c, got, N + 1) == N + 1);
	for (i = 0; i < N; i++) {
		if ((uint32_t)got[i] != t[i].sum)
			printf("#   case %d: %08x + %08x = %08x, expected %08x\n", i, t[i].a,
			       t[i].b, (uint32_t)got[i], t[i].sum);
		CHECK_EQ((uint32_t)got[i], t[i].sum);
	}
	CHECK_EQ(got[N], 12345);
	aclrtFree(a);
	aclrtFree(b);
	aclrtFree(c);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(spin_and_trap_many_blocks)
{
	aclrtStream s;
	uint64_t usec = 2000;
	int *p, v = 0;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_OK(aclrtLaunchKernel(builtin_kernel("Spin"), MANY_BLOCKS, &usec,
				       sizeof(usec), s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtLaunchKernel(builtin_kernel("Trap"), MANY_BLOCKS, NULL, 0, s));
	CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
	CHECK(strstr(acl_errmsg(), "LAUNCH") != NULL);
	/* reported once; the stream works again */
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	write_dev_ints(s, p, (int[]){ 3 }, 1);
	CHECK_EQ(read_dev_ints(s, p, &v, 1), 1);
	CHECK_EQ(v, 3);
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
