// SPDX-License-Identifier: MIT
/*
 * tests/install/sample: one program, linked each way CANN's samples link
 * (CMakeLists.txt).  It prints which libacl_rt it runs with, has the
 * built-in kernel DeviceWrite write a value into 4 blocks of device memory
 * (from ascendc_library()'s launcher, or from the image
 * ascendc_fatbin_library() installed when KERNEL_IMAGE is defined), copies
 * it back and checks it.  Exit status 0 and "OK: ..." when it came back.
 */
#include <dlfcn.h>
#include <cstdio>

#include "acl/acl.h"
#ifndef KERNEL_IMAGE
#include "kernel_func/kernel_ops.h"
#endif

#define CHECK_ACL(call)                                                                \
	do {                                                                           \
		aclError err_ = (call);                                                \
		if (err_ != ACL_SUCCESS) {                                             \
			std::printf("FAIL %s: %d (%s)\n", #call, err_, aclGetRecentErrMsg()); \
			return 1;                                                      \
		}                                                                      \
	} while (0)

#ifdef KERNEL_IMAGE
/* The launcher, here without the kernels library. */
static aclError WriteDo(uint32_t blockDim, void *stream, int *devPtr, int value)
{
	aclrtBinHandle bin = nullptr;
	aclrtFuncHandle fn = nullptr;
	struct {
		int *devPtr;
		int value;
	} args = {devPtr, value};
	aclError ret = aclrtBinaryLoadFromFile(KERNEL_IMAGE, nullptr, &bin);

	if (ret != ACL_SUCCESS)
		return ret;
	ret = aclrtBinaryGetFunction(bin, "DeviceWrite", &fn);
	if (ret == ACL_SUCCESS)
		ret = aclrtLaunchKernel(fn, blockDim, &args, sizeof(args), stream);
	if (ret == ACL_SUCCESS)
		ret = aclrtSynchronizeStream(stream);
	aclError un = aclrtBinaryUnLoad(bin);
	return ret != ACL_SUCCESS ? ret : un;
}
#endif

int main()
{
	const uint32_t blocks = 4;
	int host[blocks] = {0};
	aclrtStream stream = nullptr;
	void *dev = nullptr;
	Dl_info info;

	if (dladdr(reinterpret_cast<void *>(aclInit), &info) && info.dli_fname)
		std::printf("libacl_rt: %s\n", info.dli_fname);
	CHECK_ACL(aclInit(nullptr));
	CHECK_ACL(aclrtSetDevice(0));
	CHECK_ACL(aclrtCreateStream(&stream));
	CHECK_ACL(aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL(WriteDo(blocks, stream, static_cast<int *>(dev), 123));
	CHECK_ACL(aclrtMemcpy(host, sizeof(host), dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
	for (uint32_t i = 0; i < blocks; i++) {
		if (host[i] != 123) {
			std::printf("FAIL: block %u wrote %d, not 123\n", i, host[i]);
			return 1;
		}
	}
	CHECK_ACL(aclrtFree(dev));
	CHECK_ACL(aclrtDestroyStream(stream));
	CHECK_ACL(aclrtResetDevice(0));
	CHECK_ACL(aclFinalize());
	std::printf("OK: DeviceWrite wrote 123 into %u blocks\n", blocks);
	return 0;
}
