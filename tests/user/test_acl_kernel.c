// SPDX-License-Identifier: MIT
/*
 * Kernel loading and launch through CANN's loader API on the built-in
 * kernel library ("ascend://builtin"): aclrtBinaryLoadFromFile,
 * aclrtBinaryGetFunction, aclrtLaunchKernel, aclrtBinaryUnLoad, and
 * device printf reaching stdout in order by aclrtSynchronizeStream.
 */
#define _GNU_SOURCE
#include "acl_util.h"

TEST(load_and_get_functions)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle w = NULL, r = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &bin));
	REQUIRE(bin != NULL);
	CHECK_ACL_OK(aclrtBinaryGetFunction(bin, "DeviceWrite", &w));
	CHECK_ACL_OK(aclrtBinaryGetFunction(bin, "DeviceRead", &r));
	CHECK(w != NULL);
	CHECK(r != NULL);
	CHECK(w != r);
	CHECK_ACL_OK(aclrtBinaryUnLoad(bin));
}

TEST(unknown_kernel_name)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = NULL;

	acl_setup();
	REQUIRE_ACL(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &bin));
	CHECK_ACL_FAIL(aclrtBinaryGetFunction(bin, "NoSuchKernel", &fn));
	CHECK_ACL_FAIL(aclrtBinaryGetFunction(bin, "", &fn));
	CHECK_ACL_FAIL(aclrtBinaryGetFunction(bin, "DeviceWriteX", &fn));
	CHECK_ACL_ERR(aclrtBinaryGetFunction(bin, NULL, &fn), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtBinaryGetFunction(bin, "DeviceWrite", NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtBinaryUnLoad(bin));
}

TEST(bad_binary_path)
{
	aclrtBinHandle bin = NULL;

	acl_setup();
	CHECK_ACL_FAIL(aclrtBinaryLoadFromFile("/nonexistent/kernel.o", NULL, &bin));
	CHECK_ACL_FAIL(aclrtBinaryLoadFromFile("ascend://nosuchlibrary", NULL, &bin));
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, NULL),
		      ACL_ERROR_INVALID_PARAM);
}

/* A file holding just "ascend://builtin" (what ascendc_fatbin_library
 * writes) loads the built-in library; any other content does not. */
static const char *write_file(const char *name, const char *bytes, size_t n)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/%s.%d", name, (int)getpid());
	f = fopen(path, "wb");
	REQUIRE(f != NULL);
	REQUIRE(fwrite(bytes, 1, n, f) == n);
	fclose(f);
	return path;
}

TEST(builtin_reference_file)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = NULL;
	const char *p;

	acl_setup();
	p = write_file("fatbin_nl", "ascend://builtin\n", 17);
	CHECK_ACL_OK(aclrtBinaryLoadFromFile(p, NULL, &bin));
	CHECK_ACL_OK(aclrtBinaryGetFunction(bin, "DeviceWrite", &fn));
	CHECK(fn != NULL);
	CHECK_ACL_OK(aclrtBinaryUnLoad(bin));
	unlink(p);
	p = write_file("fatbin", "ascend://builtin", 16);
	CHECK_ACL_OK(aclrtBinaryLoadFromFile(p, NULL, &bin));
	CHECK_ACL_OK(aclrtBinaryUnLoad(bin));
	unlink(p);
	p = write_file("fatbin_more", "ascend://builtin\nx", 18);
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile(p, NULL, &bin), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	unlink(p);
	p = write_file("fatbin_elf", "\177ELF\2\1\1", 7);
	CHECK_ACL_ERR(aclrtBinaryLoadFromFile(p, NULL, &bin), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	unlink(p);
}

TEST(launch_null_function)
{
	int *p = NULL;
	struct { int *p; int v; } args = { NULL, 1 };

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	args.p = p;
	CHECK_ACL_ERR(aclrtLaunchKernel(NULL, 1, &args, sizeof(args), NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(launch_num_blocks_zero_100000)
{
	aclrtFuncHandle fn;
	int *p = NULL;
	struct { int *p; int v; } args = { NULL, 1 };

	acl_setup();
	fn = builtin_kernel("DeviceWrite");
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	args.p = p;
	CHECK_ACL_ERR(aclrtLaunchKernel(fn, 0, &args, sizeof(args), NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(launch_args_too_small_100000)
{
	aclrtFuncHandle fn;
	int *p = NULL;
	struct { int *p; int v; } args = { NULL, 1 };

	acl_setup();
	fn = builtin_kernel("DeviceWrite");
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	args.p = p;
	CHECK_ACL_ERR(aclrtLaunchKernel(fn, 1, &args, 4, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtLaunchKernel(fn, 1, &args, 0, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtLaunchKernel(fn, 1, NULL, sizeof(args), NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(launch_args_too_large)
{
	aclrtFuncHandle fn;
	static char big[1 << 16];

	/* More than a ring slot can carry: an error, not a truncation. */
	acl_setup();
	fn = builtin_kernel("DeviceRead");
	CHECK_ACL_FAIL(aclrtLaunchKernel(fn, 1, big, sizeof(big), NULL));
}

TEST(printf_in_order_by_synchronize)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL, v[6], i;
	char *out;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	capture_begin(&c);
	for (i = 0; i < 6; i++)
		REQUIRE_ACL(launch_write(s, p + i, 500 + i, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	out = capture_end(&c);
	CHECK_EQ(parse_values(out, "Source data:", v, 6), 6);
	for (i = 0; i < 6; i++)
		CHECK_EQ(v[i], 500 + i);
	free(out);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(printf_exact_text)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL;
	char *out;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	capture_begin(&c);
	REQUIRE_ACL(launch_write(s, p, 123, 1));
	REQUIRE_ACL(launch_read(s, p, 1));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	out = capture_end(&c);
	CHECK(strcmp(out, "Source data: 123\nDestination data: 123\n") == 0);
	if (strcmp(out, "Source data: 123\nDestination data: 123\n"))
		printf("#   got: \"%s\"\n", out);
	free(out);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(multi_block_write)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL, v[9], i;
	char *out;

	/* numBlocks = N: block i writes p[i]; p[N] is left alone. */
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	write_dev_ints(s, p + 8, (int[]){ 99 }, 1);
	capture_begin(&c);
	REQUIRE_ACL(launch_write(s, p, 7, 8));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	out = capture_end(&c);
	CHECK_EQ(parse_values(out, "Source data:", v, 9), 8);
	free(out);
	REQUIRE(read_dev_ints(s, p, v, 9) == 9);
	for (i = 0; i < 8; i++)
		CHECK_EQ(v[i], 7);
	CHECK_EQ(v[8], 99);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(launch_on_default_stream)
{
	int *p = NULL, v = 0;

	acl_setup();
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	write_dev_ints(NULL, p, (int[]){ 31337 }, 1);
	REQUIRE(read_dev_ints(NULL, p, &v, 1) == 1);
	CHECK_EQ(v, 31337);
	CHECK_ACL_OK(aclrtFree(p));
}

TEST(kernel_fault_reported_not_fatal)
{
	aclrtStream s = NULL;
	struct capture c;
	int *p = NULL, v = 0;
	aclError r;

	/*
	 * A kernel writing outside every allocation faults its stream; the
	 * synchronize reports it, the process lives on and a new stream works.
	 */
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMalloc((void **)&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	capture_begin(&c);
	r = launch_write(s, (int *)(uintptr_t)0x1000, 1, 1);
	if (r == ACL_SUCCESS)
		r = aclrtSynchronizeStream(s);
	free(capture_end(&c));
	CHECK_NE(r, ACL_SUCCESS);
	CHECK(acl_has_errmsg());
	aclrtDestroyStreamForce(s);
	REQUIRE_ACL(aclrtCreateStream(&s));
	write_dev_ints(s, p, (int[]){ 5 }, 1);
	REQUIRE(read_dev_ints(s, p, &v, 1) == 1);
	CHECK_EQ(v, 5);
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(launch_without_device)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = NULL;
	struct { int *p; int v; } args = { (int *)(uintptr_t)0x1000, 1 };

	acl_setup();
	REQUIRE_ACL(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &bin));
	REQUIRE_ACL(aclrtBinaryGetFunction(bin, "DeviceWrite", &fn));
	REQUIRE_ACL(aclrtResetDeviceForce(0));
	CHECK_ACL_FAIL(aclrtLaunchKernel(fn, 1, &args, sizeof(args), NULL));
}

int main(void)
{
	return tap_main();
}
