// SPDX-License-Identifier: MIT
/*
 * test_headers_cxx.cpp - the public headers as a C++ program sees them.
 *
 * Checks at compile time that every prototype CANN documents has exactly
 * CANN's type (std::is_same on the function pointer type, so argument types,
 * const-ness and return type must match, not just be convertible), that the
 * ACL error constants have CANN's C++ types and values, the C++-only dim3
 * constructor and acl_rt_api.h overloads; then reports run-time cases.
 */
#include "acl/acl.h"
/* The headers acl.h does not include compile as C++ too. */
#include "acl/acl_dump.h"
#include "acl/acl_platform.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

/* tap.h's tap_skip_reason is unused; C++ warns about that, C does not. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "../lib/tap.h"
#pragma GCC diagnostic pop

#define ACL_SIG(name, ret, args) \
	static_assert(std::is_same<decltype(&name), ret(*) args>::value, #name " has CANN's prototype")

/*
 * Prototypes, transcribed from CANN's acl_rt.h / acl_base_rt.h.  Checked
 * before acl_rt_api.h adds C++ overloads of some of these names.  Taking
 * the address of a deprecated function is fine here.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
ACL_SIG(aclrtGetSocName, const char*, (void));
ACL_SIG(aclInit, aclError, (const char*));
ACL_SIG(aclFinalize, aclError, (void));
ACL_SIG(aclFinalizeReference, aclError, (uint64_t*));
ACL_SIG(aclGetRecentErrMsg, const char*, (void));
ACL_SIG(aclrtGetLastError, aclError, (aclrtLastErrLevel));
ACL_SIG(aclrtPeekAtLastError, aclError, (aclrtLastErrLevel));
ACL_SIG(aclrtGetVersion, aclError, (int32_t*, int32_t*, int32_t*));
ACL_SIG(aclrtSetDevice, aclError, (int32_t));
ACL_SIG(aclrtResetDevice, aclError, (int32_t));
ACL_SIG(aclrtResetDeviceForce, aclError, (int32_t));
ACL_SIG(aclrtGetDevice, aclError, (int32_t*));
ACL_SIG(aclrtGetDeviceCount, aclError, (uint32_t*));
ACL_SIG(aclrtGetRunMode, aclError, (aclrtRunMode*));
ACL_SIG(aclrtSynchronizeDevice, aclError, (void));
ACL_SIG(aclrtSynchronizeDeviceWithTimeout, aclError, (int32_t));
ACL_SIG(aclrtGetDeviceInfo, aclError, (uint32_t, aclrtDevAttr, int64_t*));
ACL_SIG(aclrtDeviceCanAccessPeer, aclError, (int32_t*, int32_t, int32_t));
ACL_SIG(aclrtDeviceEnablePeerAccess, aclError, (int32_t, uint32_t));
ACL_SIG(aclrtDeviceDisablePeerAccess, aclError, (int32_t));
ACL_SIG(aclrtDevicePeerAccessStatus, aclError, (int32_t, int32_t, int32_t*));
ACL_SIG(aclrtDeviceGetBareTgid, aclError, (int32_t*));
ACL_SIG(aclrtCreateContext, aclError, (aclrtContext*, int32_t));
ACL_SIG(aclrtDestroyContext, aclError, (aclrtContext));
ACL_SIG(aclrtSetCurrentContext, aclError, (aclrtContext));
ACL_SIG(aclrtGetCurrentContext, aclError, (aclrtContext*));
ACL_SIG(aclrtCtxGetCurrentDefaultStream, aclError, (aclrtStream*));
ACL_SIG(aclrtCreateStream, aclError, (aclrtStream*));
ACL_SIG(aclrtCreateStreamWithConfig, aclError, (aclrtStream*, uint32_t, uint32_t));
ACL_SIG(aclrtDestroyStream, aclError, (aclrtStream));
ACL_SIG(aclrtDestroyStreamForce, aclError, (aclrtStream));
ACL_SIG(aclrtSynchronizeStream, aclError, (aclrtStream));
ACL_SIG(aclrtSynchronizeStreamWithTimeout, aclError, (aclrtStream, int32_t));
ACL_SIG(aclrtStreamQuery, aclError, (aclrtStream, aclrtStreamStatus*));
ACL_SIG(aclrtStreamWaitEvent, aclError, (aclrtStream, aclrtEvent));
ACL_SIG(aclrtStreamWaitEventWithTimeout, aclError, (aclrtStream, aclrtEvent, int32_t));
ACL_SIG(aclrtLaunchCallback, aclError, (aclrtCallback, void*, aclrtCallbackBlockType, aclrtStream));
ACL_SIG(aclrtSubscribeReport, aclError, (uint64_t, aclrtStream));
ACL_SIG(aclrtProcessReport, aclError, (int32_t));
ACL_SIG(aclrtUnSubscribeReport, aclError, (uint64_t, aclrtStream));
ACL_SIG(aclrtCreateEvent, aclError, (aclrtEvent*));
ACL_SIG(aclrtCreateEventWithFlag, aclError, (aclrtEvent*, uint32_t));
ACL_SIG(aclrtCreateEventExWithFlag, aclError, (aclrtEvent*, uint32_t));
ACL_SIG(aclrtDestroyEvent, aclError, (aclrtEvent));
ACL_SIG(aclrtRecordEvent, aclError, (aclrtEvent, aclrtStream));
ACL_SIG(aclrtResetEvent, aclError, (aclrtEvent, aclrtStream));
ACL_SIG(aclrtQueryEvent, aclError, (aclrtEvent, aclrtEventStatus*));
ACL_SIG(aclrtQueryEventStatus, aclError, (aclrtEvent, aclrtEventRecordedStatus*));
ACL_SIG(aclrtQueryEventWaitStatus, aclError, (aclrtEvent, aclrtEventWaitStatus*));
ACL_SIG(aclrtSynchronizeEvent, aclError, (aclrtEvent));
ACL_SIG(aclrtSynchronizeEventWithTimeout, aclError, (aclrtEvent, int32_t));
ACL_SIG(aclrtEventElapsedTime, aclError, (float*, aclrtEvent, aclrtEvent));
ACL_SIG(aclrtEventGetTimestamp, aclError, (aclrtEvent, uint64_t*));
ACL_SIG(aclrtMalloc, aclError, (void**, size_t, aclrtMemMallocPolicy));
ACL_SIG(aclrtMallocAlign32, aclError, (void**, size_t, aclrtMemMallocPolicy));
ACL_SIG(aclrtMallocCached, aclError, (void**, size_t, aclrtMemMallocPolicy));
ACL_SIG(aclrtMallocWithCfg, aclError, (void**, size_t, aclrtMemMallocPolicy, aclrtMallocConfig*));
ACL_SIG(aclrtMallocHost, aclError, (void**, size_t));
ACL_SIG(aclrtMallocHostWithCfg, aclError, (void**, uint64_t, aclrtMallocConfig*));
ACL_SIG(aclrtFree, aclError, (void*));
ACL_SIG(aclrtFreeHost, aclError, (void*));
ACL_SIG(aclrtFreeWithDevSync, aclError, (void*));
ACL_SIG(aclrtFreeHostWithDevSync, aclError, (void*));
ACL_SIG(aclrtGetMemInfo, aclError, (aclrtMemAttr, size_t*, size_t*));
ACL_SIG(aclrtPointerGetAttributes, aclError, (const void*, aclrtPtrAttributes*));
ACL_SIG(aclrtHostRegister, aclError, (void*, uint64_t, aclrtHostRegisterType, void**));
ACL_SIG(aclrtHostRegisterV2, aclError, (void*, uint64_t, uint32_t));
ACL_SIG(aclrtHostGetDevicePointer, aclError, (void*, void**, uint32_t));
ACL_SIG(aclrtHostUnregister, aclError, (void*));
ACL_SIG(aclrtMemFlush, aclError, (void*, size_t));
ACL_SIG(aclrtMemInvalidate, aclError, (void*, size_t));
ACL_SIG(aclrtCheckMemType, aclError, (void**, uint32_t, uint32_t, uint32_t*, uint32_t));
ACL_SIG(aclrtMemGetAddressRange, aclError, (void*, void**, size_t*));
ACL_SIG(aclrtMemcpy, aclError, (void*, size_t, const void*, size_t, aclrtMemcpyKind));
ACL_SIG(aclrtMemcpyAsync, aclError, (void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream));
ACL_SIG(aclrtMemcpyAsyncWithCondition, aclError, (void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream));
ACL_SIG(aclrtMemcpy2d, aclError, (void*, size_t, const void*, size_t, size_t, size_t, aclrtMemcpyKind));
ACL_SIG(aclrtMemcpy2dAsync, aclError, (void*, size_t, const void*, size_t, size_t, size_t, aclrtMemcpyKind, aclrtStream));
ACL_SIG(aclrtMemcpyBatch, aclError, (void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t, size_t*));
ACL_SIG(aclrtMemcpyBatchV2, aclError, (void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t));
ACL_SIG(aclrtMemcpyBatchAsync, aclError, (void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t, size_t*, aclrtStream));
ACL_SIG(aclrtMemcpyBatchAsyncV2, aclError, (void**, size_t*, void**, size_t*, size_t, aclrtMemcpyBatchAttr*, size_t*, size_t, aclrtStream));
ACL_SIG(aclrtGetMemcpyDescSize, aclError, (aclrtMemcpyKind, size_t*));
ACL_SIG(aclrtSetMemcpyDesc, aclError, (void*, aclrtMemcpyKind, void*, void*, size_t, void*));
ACL_SIG(aclrtMemcpyAsyncWithDesc, aclError, (void*, aclrtMemcpyKind, aclrtStream));
ACL_SIG(aclrtMemcpyAsyncWithOffset, aclError, (void**, size_t, size_t, const void**, size_t, size_t, aclrtMemcpyKind, aclrtStream));
ACL_SIG(aclrtMemset, aclError, (void*, size_t, int32_t, size_t));
ACL_SIG(aclrtMemsetAsync, aclError, (void*, size_t, int32_t, size_t, aclrtStream));
ACL_SIG(aclrtMemsetD32, aclError, (void*, size_t, uint32_t, size_t));
ACL_SIG(aclrtMemsetD32Async, aclError, (void*, size_t, uint32_t, size_t, aclrtStream));
ACL_SIG(aclrtValueWrite, aclError, (void*, uint64_t, uint32_t, aclrtStream));
ACL_SIG(aclrtValueWait, aclError, (void*, uint64_t, uint32_t, aclrtStream));
ACL_SIG(aclrtIpcMemGetExportKey, aclError, (void*, size_t, char*, size_t, uint64_t));
ACL_SIG(aclrtIpcMemImportByKey, aclError, (void**, const char*, uint64_t));
ACL_SIG(aclrtIpcMemClose, aclError, (const char*));
ACL_SIG(aclrtIpcMemSetImportPid, aclError, (const char*, int32_t*, size_t));
ACL_SIG(aclrtIpcMemSetAttr, aclError, (const char*, aclrtIpcMemAttrType, uint64_t));
ACL_SIG(aclrtIpcMemImportPidInterServer, aclError, (const char*, aclrtServerPid*, size_t));
ACL_SIG(aclrtMemGetAllocationGranularity, aclError, (aclrtPhysicalMemProp*, aclrtMemGranularityOptions, size_t*));
ACL_SIG(aclrtMallocPhysical, aclError, (aclrtDrvMemHandle*, size_t, const aclrtPhysicalMemProp*, uint64_t));
ACL_SIG(aclrtFreePhysical, aclError, (aclrtDrvMemHandle));
ACL_SIG(aclrtReserveMemAddress, aclError, (void**, size_t, size_t, void*, uint64_t));
ACL_SIG(aclrtReleaseMemAddress, aclError, (void*));
ACL_SIG(aclrtMapMem, aclError, (void*, size_t, size_t, aclrtDrvMemHandle, uint64_t));
ACL_SIG(aclrtUnmapMem, aclError, (void*));
ACL_SIG(aclrtMemSetAccess, aclError, (void*, size_t, aclrtMemAccessDesc*, size_t));
ACL_SIG(aclrtMemExportToShareableHandle, aclError, (aclrtDrvMemHandle, aclrtMemHandleType, uint64_t, uint64_t*));
ACL_SIG(aclrtMemImportFromShareableHandle, aclError, (uint64_t, int32_t, aclrtDrvMemHandle*));
ACL_SIG(aclrtMemSetPidToShareableHandle, aclError, (uint64_t, int32_t*, size_t));
ACL_SIG(aclrtMemExportToShareableHandleV2, aclError, (aclrtDrvMemHandle, uint64_t, aclrtMemSharedHandleType, void*));
ACL_SIG(aclrtMemImportFromShareableHandleV2, aclError, (void*, aclrtMemSharedHandleType, uint64_t, aclrtDrvMemHandle*));
ACL_SIG(aclrtCreateBinary, aclrtBinary, (const void*, size_t));
ACL_SIG(aclrtDestroyBinary, aclError, (aclrtBinary));
ACL_SIG(aclrtBinaryLoad, aclError, (const aclrtBinary, aclrtBinHandle*));
ACL_SIG(aclrtBinaryLoadFromFile, aclError, (const char*, aclrtBinaryLoadOptions*, aclrtBinHandle*));
ACL_SIG(aclrtBinaryLoadFromData, aclError, (const void*, size_t, const aclrtBinaryLoadOptions*, aclrtBinHandle*));
ACL_SIG(aclrtBinaryUnLoad, aclError, (aclrtBinHandle));
ACL_SIG(aclrtBinaryGetFunction, aclError, (const aclrtBinHandle, const char*, aclrtFuncHandle*));
ACL_SIG(aclrtLaunchKernel, aclError, (aclrtFuncHandle, uint32_t, const void*, size_t, aclrtStream));
ACL_SIG(aclrtLaunchKernelV2, aclError, (aclrtFuncHandle, uint32_t, const void*, size_t, aclrtLaunchKernelCfg*, aclrtStream));
ACL_SIG(aclrtLaunchKernelWithConfig, aclError, (aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, aclrtArgsHandle, void*));
ACL_SIG(aclrtLaunchKernelWithHostArgs, aclError, (aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t, aclrtPlaceHolderInfo*, size_t));
ACL_SIG(aclrtKernelArgsInit, aclError, (aclrtFuncHandle, aclrtArgsHandle*));
ACL_SIG(aclrtKernelArgsAppend, aclError, (aclrtArgsHandle, void*, size_t, aclrtParamHandle*));
ACL_SIG(aclrtKernelArgsAppendPlaceHolder, aclError, (aclrtArgsHandle, aclrtParamHandle*));
ACL_SIG(aclrtKernelArgsGetPlaceHolderBuffer, aclError, (aclrtArgsHandle, aclrtParamHandle, size_t, void**));
ACL_SIG(aclrtKernelArgsFinalize, aclError, (aclrtArgsHandle));
/* Declared here with types given by CANN's documentation. */
ACL_SIG(aclrtIpcGetEventHandle, aclError, (aclrtEvent, aclrtIpcEventHandle*));
ACL_SIG(aclrtIpcOpenEventHandle, aclError, (aclrtIpcEventHandle, aclrtEvent*));
ACL_SIG(aclrtMemP2PMap, aclError, (void*, size_t, int32_t, uint64_t));
ACL_SIG(aclCreateDataBuffer, aclDataBuffer*, (void*, size_t));
ACL_SIG(aclDestroyDataBuffer, aclError, (const aclDataBuffer*));
ACL_SIG(aclGetDataBufferSizeV2, size_t, (const aclDataBuffer*));
ACL_SIG(aclDataTypeSize, size_t, (aclDataType));
ACL_SIG(aclFloat16ToFloat, float, (aclFloat16));
ACL_SIG(aclFloatToFloat16, aclFloat16, (float));
#pragma GCC diagnostic pop

/* The C++-only overloads, included after the checks above on purpose. */
#include "acl/acl_rt_api.h"

/* Error constants: [BASE] codes are "static const int", GE codes uint32_t. */
static_assert(std::is_same<decltype(ACL_SUCCESS), const int>::value, "ACL_SUCCESS is a const int");
static_assert(std::is_same<decltype(ACL_ERROR_INVALID_PARAM), const int>::value, "const int");
static_assert(std::is_same<decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t>::value, "const uint32_t");
static_assert(ACL_SUCCESS == 0 && ACL_ERROR_NONE == 0, "success");
static_assert(ACL_ERROR_INVALID_PARAM == 100000, "");
static_assert(ACL_ERROR_UNINITIALIZE == 100001, "");
static_assert(ACL_ERROR_REPEAT_INITIALIZE == 100002, "");
static_assert(ACL_ERROR_FILE_ATTR_INVALID == 100008, "");
static_assert(ACL_ERROR_MODEL_NOT_DYNAMIC == 100019, "");
static_assert(ACL_ERROR_WAIT_CALLBACK_TIMEOUT == 100036, "");
static_assert(ACL_ERROR_REPEAT_FINALIZE == 100037, "");
static_assert(ACL_ERROR_DUMP_NOT_RUN == 100045, "");
static_assert(ACL_ERROR_PROF_REPEAT_SUBSCRIBE == 148046, "");
static_assert(ACL_ERROR_INVALID_BUNDLE_MODEL_ID == 148053, "");
static_assert(ACL_ERROR_BAD_ALLOC == 200000, "");
static_assert(ACL_ERROR_FEATURE_UNSUPPORTED == 200006, "");
static_assert(ACL_ERROR_PROF_MODULES_UNSUPPORTED == 200007, "");
static_assert(ACL_ERROR_STORAGE_OVER_LIMIT == 300000, "");
static_assert(ACL_ERROR_INTERNAL_ERROR == 500000, "");
static_assert(ACL_ERROR_PROFILING_FAILURE == 500005, "");
static_assert(ACL_ERROR_GE_PARAM_INVALID == 145000U, "");
static_assert(ACL_ERROR_GE_REDEPLOYING == 545602U, "");
static_assert(ACL_ERROR_RT_FEATURE_NOT_SUPPORT == 207000, "");
static_assert(ACL_ERROR_RT_CCU_EXCEPTION == 507916, "");

/* Enumerations used as C++ types. */
static_assert(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7, "");
static_assert(ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000, "");
static_assert(ACL_MEM_P2P_HUGE1G == 17, "");
static_assert(HUGE1G_PAGE_TYPE == 2 && P2P_DDR_TYPE == 3, "plain enum tags");
static_assert(std::is_enum<enum aclrtMemPgType>::value && std::is_enum<enum aclrtMemType>::value, "");
static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING == 9, "");
static_assert(ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE == 3, "");
static_assert(ACL_DT_UNDEFINED == -1 && ACL_FLOAT4_E1M2 == 41, "");
static_assert(ACL_FORMAT_ND == 2, "");

/* Layouts (LP64). */
static_assert(sizeof(aclrtMemcpyBatchAttr) == 32 && offsetof(aclrtMemcpyBatchAttr, rsv) == 16, "");
static_assert(offsetof(aclrtMemcpyBatchAttr, dstLoc) == 0 && offsetof(aclrtMemcpyBatchAttr, srcLoc) == 8, "");
static_assert(sizeof(aclrtPtrAttributes) == 28, "");
static_assert(sizeof(aclrtMallocConfig) == 16 && sizeof(aclrtMallocAttribute) == 12, "");
static_assert(sizeof(aclrtPhysicalMemProp) == 32 && alignof(aclrtPhysicalMemProp) == 8, "");
static_assert(sizeof(aclrtIpcEventHandle) == 64 && sizeof(aclrtMemUsageInfo) == 112, "");
static_assert(sizeof(aclrtLaunchKernelAttr) == 20 && sizeof(aclrtLaunchKernelCfg) == 16, "");
static_assert(sizeof(aclrtBinaryLoadOption) == 20 && sizeof(aclrtMemAccessDesc) == 24, "");
static_assert(sizeof(dim3) == 12, "");

/* dim3 in C++ has a constexpr constructor defaulting to 1. */
static constexpr dim3 grid_default;
static constexpr dim3 grid_2d(4, 2);
static_assert(grid_default.x == 1 && grid_default.y == 1 && grid_default.z == 1, "dim3 defaults");
static_assert(grid_2d.x == 4 && grid_2d.y == 2 && grid_2d.z == 1, "dim3(x, y)");

/* acl_rt_api.h overloads resolve to the C functions they wrap. */
static_assert(std::is_same<decltype(aclrtSynchronizeStream(nullptr, 1)), aclError>::value, "");
static_assert(std::is_same<decltype(aclrtCreateStream(static_cast<aclrtStream *>(nullptr), 0U, 0U)),
			   aclError>::value, "");
static_assert(std::is_same<decltype(aclrtMalloc(static_cast<float **>(nullptr), 4)), aclError>::value, "");

static_assert(std::is_same<decltype(aclrtMemcpy(static_cast<int *>(nullptr), 4, static_cast<const int *>(nullptr),
					       4, ACL_MEMCPY_DEVICE_TO_DEVICE)), aclError>::value, "");

/*
 * CANN's 5_d2d_sync_memory_copy sample (example/1_basic_features/memory),
 * minus its AscendC kernel launches and utils.h macros: it must compile as
 * is.  Never run here (it needs a device); the memcpy tests run such code.
 */
#define CHECK_ERROR(x) do { if ((x) != ACL_SUCCESS) return -1; } while (0)
[[maybe_unused]] static int32_t cann_d2d_sync_sample_main()
{
	aclInit(nullptr);
	int32_t deviceId = 0;
	aclrtSetDevice(deviceId);
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
	uint64_t size = 1 * 1024 * 1024;
	int *devPtrA;
	int *devPtrB;
	CHECK_ERROR(aclrtMalloc((void **)&devPtrA, size, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ERROR(aclrtMalloc((void **)&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ERROR(aclrtMemcpy(devPtrB, size, devPtrA, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
	aclrtDestroyStreamForce(stream);
	aclrtFree(devPtrA);
	aclrtFree(devPtrB);
	aclrtResetDeviceForce(deviceId);
	aclFinalize();
	return 0;
}

TEST(cxx_error_values_at_run_time)
{
	CHECK_EQ(ACL_ERROR_INVALID_PARAM, 100000);
	CHECK_EQ(ACL_ERROR_RT_PARAM_INVALID, 107000);
	CHECK_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000);
	CHECK_EQ(ACL_ERROR_GE_MEMORY_ALLOCATION, 245000U);
}

TEST(cxx_dim3_and_layouts)
{
	dim3 d;
	dim3 e(8);

	CHECK_EQ(d.x * d.y * d.z, 1);
	CHECK_EQ(e.x, 8);
	CHECK_EQ(e.y, 1);
	CHECK_EQ(sizeof(aclrtMemcpyBatchAttr), 32);
	CHECK_EQ(offsetof(aclrtPhysicalMemProp, reserve), 24);
}

TEST(cxx_data_buffer)
{
	char mem[24];
	aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));

	REQUIRE(b != nullptr);
	CHECK(aclGetDataBufferAddr(b) == mem);
	CHECK_EQ(aclGetDataBufferSizeV2(b), 24);
	CHECK_EQ(aclDestroyDataBuffer(b), ACL_SUCCESS);
}

TEST(cxx_unsupported_stub_links_and_fails)
{
	aclrtServerPid pids = {};

	CHECK_EQ(aclrtIpcMemImportPidInterServer("key", &pids, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(std::strstr(aclGetRecentErrMsg(), "aclrtIpcMemImportPidInterServer") != nullptr);
}

int main(void)
{
	return tap_main();
}
