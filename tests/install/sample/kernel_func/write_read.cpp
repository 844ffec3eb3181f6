// SPDX-License-Identifier: MIT
/*
 * The "kernel" source of tests/install/sample: the host-side launcher of the
 * built-in kernel DeviceWrite, which is what ascendc_library() compiles on
 * this stack (no AscendC device code: see the installed ascendc.cmake).
 */
#include "kernel_func/kernel_ops.h"

namespace {

aclError Launch(const char *image, uint32_t blockDim, void *stream, int *devPtr, int value)
{
	aclrtBinHandle bin = nullptr;
	aclrtFuncHandle fn = nullptr;
	struct {
		int *devPtr;
		int value;
	} args = {devPtr, value};
	aclError ret = aclrtBinaryLoadFromFile(image, nullptr, &bin);

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

} // namespace

aclError WriteDo(uint32_t blockDim, void *stream, int *devPtr, int value)
{
	return Launch("ascend://builtin", blockDim, stream, devPtr, value);
}

aclError WriteDoFrom(const char *path, uint32_t blockDim, void *stream, int *devPtr, int value)
{
	return Launch(path, blockDim, stream, devPtr, value);
}
