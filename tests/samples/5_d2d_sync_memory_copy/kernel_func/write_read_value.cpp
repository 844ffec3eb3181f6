/**
 * WriteDo/ReadDo: launch the sample's device kernels.
 *
 * On real hardware these kernels are AscendC code compiled by ascendc_library
 * and launched with the <<<>>> syntax (WriteDo calls
 * DeviceWrite<<<blockDim, nullptr, stream>>>(devPtr, value)).  The device
 * code of CANN's example/kernel_func/write_read_value.cpp is:
 *
 *   extern "C" __global__ __aicore__ void DeviceWrite(__gm__ int* devPtr, int value)
 *   {
 *       int32_t idx = block_idx;
 *       devPtr[idx] = value;
 *       AscendC::printf("Source data: %d\n", value);
 *   }
 *
 *   extern "C" __global__ __aicore__ void DeviceRead(__gm__ int* devPtr)
 *   {
 *       int32_t idx = block_idx;
 *       int value = devPtr[idx];
 *       AscendC::printf("Destination data: %d\n", value);
 *   }
 *
 * AscendC cannot be compiled here, so the emulated NPU carries these two
 * kernels built in.  They are reached through CANN's own loader API with the
 * reserved path "ascend://builtin", and launched with aclrtLaunchKernel on an
 * argument block packed the way the AscendC launcher packs it: each argument
 * at its natural alignment.
 */
#include "kernel_ops.h"

#include <cstdio>
#include "acl/acl.h"

namespace {

aclrtFuncHandle GetBuiltinKernel(const char* name)
{
    static aclrtBinHandle bin = nullptr;
    aclrtFuncHandle fn = nullptr;
    aclError ret;

    if (bin == nullptr) {
        ret = aclrtBinaryLoadFromFile("ascend://builtin", nullptr, &bin);
        if (ret != ACL_SUCCESS) {
            fprintf(stderr, "[ERROR]  aclrtBinaryLoadFromFile failed: %d (%s)\n", ret,
                    aclGetRecentErrMsg());
            bin = nullptr;
            return nullptr;
        }
    }
    ret = aclrtBinaryGetFunction(bin, name, &fn);
    if (ret != ACL_SUCCESS) {
        fprintf(stderr, "[ERROR]  aclrtBinaryGetFunction(%s) failed: %d (%s)\n", name, ret,
                aclGetRecentErrMsg());
        return nullptr;
    }
    return fn;
}

void Launch(const char* name, uint32_t blockDim, void* stream, const void* args,
            size_t argsSize)
{
    aclrtFuncHandle fn = GetBuiltinKernel(name);
    if (fn == nullptr)
        return;
    aclError ret = aclrtLaunchKernel(fn, blockDim, args, argsSize, stream);
    if (ret != ACL_SUCCESS)
        fprintf(stderr, "[ERROR]  aclrtLaunchKernel(%s) failed: %d (%s)\n", name, ret,
                aclGetRecentErrMsg());
}

} // namespace

void WriteDo(uint32_t blockDim, void* stream, int* devPtr, int value)
{
    struct {
        int* devPtr;
        int value;
    } args = {devPtr, value};

    Launch("DeviceWrite", blockDim, stream, &args, sizeof(args));
}

void ReadDo(uint32_t blockDim, void* stream, int* devPtr)
{
    struct {
        int* devPtr;
    } args = {devPtr};

    Launch("DeviceRead", blockDim, stream, &args, sizeof(args));
}
