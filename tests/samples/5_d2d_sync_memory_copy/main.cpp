/**
 * Device-to-device synchronous memory copy, from CANN's
 * example/1_basic_features/memory/5_d2d_sync_memory_copy.
 *
 * The call sequence is the sample's, unchanged: a kernel writes a value into
 * devPtrA, aclrtMemcpy copies devPtrA to devPtrB without any stream
 * synchronisation in between, and a kernel reads devPtrB back.  run.sh
 * compares the values the two kernels print.
 */
#include "acl/acl.h"
#include "kernel_func/kernel_ops.h"
#include "utils.h"
#include <cstdio>

int32_t main()
{
    aclInit(nullptr);
    int32_t deviceId = 0;
    aclrtSetDevice(deviceId);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);

    // Allocate memory on the device
    uint64_t size = 1 * 1024 * 1024;
    int* devPtrA;
    int* devPtrB;
    CHECK_ERROR(aclrtMalloc((void**)&devPtrA, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", devPtrA);
    CHECK_ERROR(aclrtMalloc((void**)&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", devPtrB);

    // Write the data to the virtual address devPtrA
    constexpr uint32_t blockDim = 1;
    int writeValue = 123;
    WriteDo(blockDim, stream, devPtrA, writeValue);
    INFO_LOG("Write the data %d to the virtual memory %p", writeValue, devPtrA);

    // Copy memory from address devPtrA to address devPtrB synchronously
    CHECK_ERROR(aclrtMemcpy(devPtrB, size, devPtrA, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
    INFO_LOG("Copy memory from memory %p to memory %p", devPtrA, devPtrB);

    // Read the value at address devPtrB
    ReadDo(blockDim, stream, devPtrB);

    // Release resource of the device
    aclrtDestroyStreamForce(stream);
    aclrtFree(devPtrA);
    aclrtFree(devPtrB);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}
