// SPDX-License-Identifier: MIT
/*
 * test_headers.c - the public headers as a C11 CANN program sees them.
 *
 * "acl/acl.h" is the only library header included: everything a CANN
 * program names must come through it.  Compile-time checks pin enum values,
 * runtime error codes (macros), the types of the ACL/GE constants and the
 * struct layouts to CANN's; the run-time cases re-check representative
 * values and exercise the host-only helpers and the unsupported stubs.
 */
#include "acl/acl.h"

#include <math.h>
#include <stdalign.h>
#include <stdbool.h>

/* tap.h's tap_skip_reason is unused; keep this file warning-free. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "../lib/tap.h"
#pragma GCC diagnostic pop

/* ---- Error codes ---- */

/* Runtime codes are macros in CANN (usable in #if and case labels). */
#if !defined(ACL_RT_SUCCESS) || !defined(ACL_ERROR_RT_PARAM_INVALID) || \
	!defined(ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
#error "runtime error codes must be macros"
#endif
#if ACL_ERROR_RT_PARAM_INVALID != 107000 || ACL_ERROR_RT_CONTEXT_NULL != 107002
#error "107xxx codes"
#endif
/* ...while the [BASE] codes are objects, not macros. */
#if defined(ACL_SUCCESS) || defined(ACL_ERROR_INVALID_PARAM)
#error "ACL_SUCCESS / ACL_ERROR_* are static const int in CANN"
#endif

_Static_assert(_Generic(ACL_SUCCESS, int: 1, default: 0), "ACL codes are int");
_Static_assert(_Generic(ACL_ERROR_REPEAT_FINALIZE, int: 1, default: 0), "ACL codes are int");
_Static_assert(_Generic(ACL_ERROR_GE_PARAM_INVALID, uint32_t: 1, default: 0), "GE codes are uint32_t");
_Static_assert(_Generic((aclError)0, int: 1, default: 0), "aclError is int");

_Static_assert(ACL_RT_SUCCESS == 0, "");
_Static_assert(ACL_ERROR_RT_INVALID_DEVICEID == 107001, "");
_Static_assert(ACL_ERROR_RT_STREAM_CONTEXT == 107003, "");
_Static_assert(ACL_ERROR_RT_ADDR_UNALIGNED == 107008, "");
_Static_assert(ACL_ERROR_RT_WAIT_TIMEOUT == 107019, "");
_Static_assert(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT == 107030, "");
_Static_assert(ACL_ERROR_STREAM_CAPTURE_CONFLICT == 107032, "");
_Static_assert(ACL_ERROR_STREAM_TASK_GROUP_INTR == 107034, "");
_Static_assert(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING == 107045, "");
_Static_assert(ACL_ERROR_RT_FEATURE_NOT_SUPPORT == 207000, "");
_Static_assert(ACL_ERROR_RT_MEMORY_ALLOCATION == 207001, "");
_Static_assert(ACL_ERROR_RT_NO_DEVICE == 207004, "");
_Static_assert(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED == 207021, "");
_Static_assert(ACL_ERROR_RT_INTERNAL_ERROR == 507000, "");
_Static_assert(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT == 507046, "");
_Static_assert(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR == 507057, "");
_Static_assert(ACL_ERROR_RT_DRV_INTERNAL_ERROR == 507899, "");
_Static_assert(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT == 507905, "");
_Static_assert(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED == 507910, "");
_Static_assert(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED == 507911, "");
_Static_assert(ACL_ERROR_RT_CCU_EXCEPTION == 507916, "");

/* ---- Enumerations ---- */

_Static_assert(ACL_MEMCPY_HOST_TO_HOST == 0 && ACL_MEMCPY_HOST_TO_DEVICE == 1, "");
_Static_assert(ACL_MEMCPY_DEVICE_TO_HOST == 2 && ACL_MEMCPY_DEVICE_TO_DEVICE == 3, "");
_Static_assert(ACL_MEMCPY_DEFAULT == 4 && ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE == 5, "");
_Static_assert(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE == 6 && ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7, "");

_Static_assert(ACL_MEM_MALLOC_HUGE_FIRST == 0 && ACL_MEM_MALLOC_NORMAL_ONLY == 2, "");
_Static_assert(ACL_MEM_MALLOC_NORMAL_ONLY_P2P == 5 && ACL_MEM_MALLOC_HUGE1G_ONLY_P2P == 7, "");
_Static_assert(ACL_MEM_TYPE_LOW_BAND_WIDTH == 0x0100 && ACL_MEM_TYPE_HIGH_BAND_WIDTH == 0x1000, "");
_Static_assert(ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000, "");

_Static_assert(ACL_DDR_MEM == 0 && ACL_HBM_MEM == 1 && ACL_HBM_MEM_P2P_HUGE1G == 11, "");
_Static_assert(ACL_MEM_NORMAL == 12 && ACL_MEM_HUGE1G == 14 && ACL_MEM_P2P_HUGE1G == 17, "");

/* Plain enum tags: their enumerators are global names, as in CANN. */
_Static_assert(NORMAL_PAGE_TYPE == 0 && HUGE_PAGE_TYPE == 1 && HUGE1G_PAGE_TYPE == 2, "");
_Static_assert(HBM_TYPE == 0 && DDR_TYPE == 1 && P2P_HBM_TYPE == 2 && P2P_DDR_TYPE == 3, "");
_Static_assert(sizeof(enum aclrtMemPgType) == 4 && sizeof(enum aclrtMemType) == 4, "");

_Static_assert(ACL_MEM_LOCATION_TYPE_HOST == 0 && ACL_MEM_LOCATION_TYPE_DEVICE == 1, "");
_Static_assert(ACL_MEM_LOCATION_TYPE_UNREGISTERED == 2 && ACL_MEM_LOCATION_TYPE_MANAGED == 3, "");
_Static_assert(ACL_MEM_LOCATION_TYPE_HOST_NUMA == 4, "");
_Static_assert(ACL_MEM_LOCATIONTYPE_INVALID == 0 && ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT == 4, "");

_Static_assert(ACL_DEVICE == 0 && ACL_HOST == 1, "");
_Static_assert(ACL_EVENT_STATUS_COMPLETE == 0 && ACL_EVENT_STATUS_NOT_READY == 1, "");
_Static_assert(ACL_EVENT_STATUS_RESERVED == 2, "");
_Static_assert(ACL_EVENT_RECORDED_STATUS_NOT_READY == 0 && ACL_EVENT_RECORDED_STATUS_COMPLETE == 1, "");
_Static_assert(ACL_EVENT_WAIT_STATUS_COMPLETE == 0 && ACL_EVENT_WAIT_STATUS_RESERVED == 0xFFFF, "");
_Static_assert(ACL_STREAM_STATUS_COMPLETE == 0 && ACL_STREAM_STATUS_NOT_READY == 1, "");
_Static_assert(ACL_STREAM_STATUS_RESERVED == 0xFFFF, "");
_Static_assert(ACL_CALLBACK_NO_BLOCK == 0 && ACL_CALLBACK_BLOCK == 1, "");
_Static_assert(ACL_TS_ID_AICORE == 0 && ACL_TS_ID_AIVECTOR == 1 && ACL_TS_ID_RESERVED == 2, "");
_Static_assert(ACL_RT_THREAD_LEVEL == 0, "");
_Static_assert(ACL_HOST_REGISTER_MAPPED == 0 && ACL_HOST_REGISTER_IOMEMORY == 0x04, "");
_Static_assert(ACL_HOST_REGISTER_READONLY == 0x08, "");
_Static_assert(ACL_RT_MEM_ATTR_RSV == 0 && ACL_RT_MEM_ATTR_VA_FLAG == 3, "");
_Static_assert(ACL_MEM_ALLOCATION_TYPE_PINNED == 0, "");
_Static_assert(ACL_MEM_HANDLE_TYPE_NONE == 0 && ACL_MEM_HANDLE_TYPE_POSIX == 2, "");
_Static_assert(ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT == 1 && ACL_MEM_SHARE_HANDLE_TYPE_FABRIC == 2, "");
_Static_assert(ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM == 0, "");
_Static_assert(ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED == 1, "");
_Static_assert(ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF == 0xFFFF, "");
_Static_assert(ACL_RT_MEM_ACCESS_FLAGS_NONE == 0 && ACL_RT_MEM_ACCESS_FLAGS_READ == 1, "");
_Static_assert(ACL_RT_MEM_ACCESS_FLAGS_READWRITE == 3, "");
_Static_assert(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK == 0, "");
_Static_assert(ACL_RT_DEVICE_STATUS_ABNORMAL == 1 && ACL_RT_DEVICE_STATUS_END == 0xFFFF, "");
_Static_assert(ACL_RT_CMO_TYPE_PREFETCH == 0 && ACL_RT_CMO_TYPE_FLUSH == 3, "");
_Static_assert(ACL_RT_ENGINE_TYPE_AIC == 0 && ACL_RT_ENGINE_TYPE_AIV == 1, "");
_Static_assert(ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD == 1 && ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC == 2, "");
_Static_assert(ACL_RT_BINARY_LOAD_OPT_MAGIC == 2 && ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE == 3, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE == 1, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE == 2, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE == 2, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE == 3, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET == 4, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH == 5, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP == 6, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT == 7, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US == 8, "");
_Static_assert(ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING == 9, "");

_Static_assert(ACL_DT_UNDEFINED == -1 && ACL_FLOAT == 0 && ACL_FLOAT16 == 1, "");
_Static_assert(ACL_INT8 == 2 && ACL_INT32 == 3 && ACL_UINT8 == 4 && ACL_INT16 == 6, "");
_Static_assert(ACL_UINT16 == 7 && ACL_UINT32 == 8 && ACL_INT64 == 9 && ACL_UINT64 == 10, "");
_Static_assert(ACL_DOUBLE == 11 && ACL_BOOL == 12 && ACL_STRING == 13, "");
_Static_assert(ACL_COMPLEX64 == 16 && ACL_COMPLEX128 == 17 && ACL_BF16 == 27, "");
_Static_assert(ACL_INT4 == 29 && ACL_UINT1 == 30 && ACL_COMPLEX32 == 33, "");
_Static_assert(ACL_HIFLOAT8 == 34 && ACL_FLOAT8_E5M2 == 35 && ACL_FLOAT8_E4M3FN == 36, "");
_Static_assert(ACL_FLOAT8_E8M0 == 37 && ACL_FLOAT6_E3M2 == 38 && ACL_FLOAT6_E2M3 == 39, "");
_Static_assert(ACL_FLOAT4_E2M1 == 40 && ACL_FLOAT4_E1M2 == 41, "");
_Static_assert(ACL_FORMAT_ND == 2, "");
_Static_assert(ACL_DEBUG == 0 && ACL_INFO == 1 && ACL_WARNING == 2 && ACL_ERROR == 3, "");
_Static_assert(ACL_MEMTYPE_DEVICE == 0 && ACL_MEMTYPE_HOST == 1, "");
_Static_assert(ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT == 2, "");

/* ---- Flag macros ---- */

_Static_assert(ACL_EVENT_SYNC == 0x1U && ACL_EVENT_CAPTURE_STREAM_PROGRESS == 0x2U, "");
_Static_assert(ACL_EVENT_TIME_LINE == 0x8U && ACL_EVENT_DEVICE_USE_ONLY == 0x10U, "");
_Static_assert(ACL_EVENT_EXTERNAL == 0x20U && ACL_EVENT_IPC == 0x40U, "");
_Static_assert(ACL_STREAM_FAST_LAUNCH == 0x1U && ACL_STREAM_FAST_SYNC == 0x2U, "");
_Static_assert(ACL_STREAM_PERSISTENT == 0x4U && ACL_STREAM_HUGE == 0x8U, "");
_Static_assert(ACL_STREAM_CPU_SCHEDULE == 0x10U && ACL_STREAM_DEVICE_USE_ONLY == 0x20U, "");
_Static_assert(ACL_STREAM_WAIT_VALUE_GEQ == 0 && ACL_STREAM_WAIT_VALUE_EQ == 1, "");
_Static_assert(ACL_STREAM_WAIT_VALUE_AND == 2 && ACL_STREAM_WAIT_VALUE_NOR == 3, "");
_Static_assert(ACL_CONTINUE_ON_FAILURE == 0 && ACL_STOP_ON_FAILURE == 1, "");
_Static_assert(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION == 0x1UL, "");
_Static_assert(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS == 0x1UL, "");
_Static_assert(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION == 0x1UL, "");
_Static_assert(ACL_HOST_REG_MAPPED == 0x2UL && ACL_HOST_REG_IOMEMORY == 0x4UL, "");
_Static_assert(ACL_HOST_REG_READONLY == 0x8UL && ACL_HOST_REG_PINNED == 0x10000000UL, "");
_Static_assert(ACL_IPC_EVENT_HANDLE_SIZE == 64U && ACL_RT_MEM_ATTACH_GLOBAL == 1U, "");
_Static_assert(ACL_EVENT_RECORD_EXTERNAL == 1U && ACL_EVENT_WAIT_EXTERNAL == 1U, "");
_Static_assert(ACL_RT_MEM_TYPE_DEV == 0x2U && ACL_RT_MEM_TYPE_DVPP == 0x8U, "");
_Static_assert(ACL_RT_MEM_TYPE_RSVD == 0x10U, "");
_Static_assert(ACL_DEV_FEATURE_SUPPORT == 1 && ACL_DEV_FEATURE_NOT_SUPPORT == 0, "");
_Static_assert(ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17 && ACL_PATCH_VERSION == 0, "");

/* ---- Struct layouts (LP64) ---- */

_Static_assert(sizeof(aclrtMemLocation) == 8 && alignof(aclrtMemLocation) == 4, "");
_Static_assert(offsetof(aclrtMemLocation, id) == 0 && offsetof(aclrtMemLocation, type) == 4, "");

_Static_assert(sizeof(aclrtMemcpyBatchAttr) == 32 && alignof(aclrtMemcpyBatchAttr) == 4, "");
_Static_assert(offsetof(aclrtMemcpyBatchAttr, dstLoc) == 0, "dst first");
_Static_assert(offsetof(aclrtMemcpyBatchAttr, srcLoc) == 8, "");
_Static_assert(offsetof(aclrtMemcpyBatchAttr, rsv) == 16, "");

_Static_assert(sizeof(aclrtPtrAttributes) == 28, "");
_Static_assert(offsetof(aclrtPtrAttributes, pageSize) == 8, "");
_Static_assert(offsetof(aclrtPtrAttributes, rsv) == 12, "");

_Static_assert(sizeof(aclrtMallocAttrValue) == 8, "");
_Static_assert(sizeof(aclrtMallocAttribute) == 12, "");
_Static_assert(offsetof(aclrtMallocAttribute, value) == 4, "");
_Static_assert(sizeof(aclrtMallocConfig) == 16, "");
_Static_assert(offsetof(aclrtMallocConfig, numAttrs) == 8, "");
_Static_assert(sizeof(aclrtServerPid) == 24 && offsetof(aclrtServerPid, pid) == 8, "");

_Static_assert(sizeof(aclrtPhysicalMemProp) == 32 && alignof(aclrtPhysicalMemProp) == 8, "");
_Static_assert(offsetof(aclrtPhysicalMemProp, handleType) == 0, "");
_Static_assert(offsetof(aclrtPhysicalMemProp, allocationType) == 4, "");
_Static_assert(offsetof(aclrtPhysicalMemProp, memAttr) == 8, "");
_Static_assert(offsetof(aclrtPhysicalMemProp, location) == 12, "");
_Static_assert(offsetof(aclrtPhysicalMemProp, reserve) == 24, "");

_Static_assert(sizeof(aclrtMemAccessDesc) == 24, "");
_Static_assert(offsetof(aclrtMemAccessDesc, location) == 4, "");
_Static_assert(sizeof(aclrtMemFabricHandle) == 128, "");
_Static_assert(sizeof(aclrtIpcEventHandle) == 64, "");
_Static_assert(sizeof(aclrtMemUsageInfo) == 112, "");
_Static_assert(offsetof(aclrtMemUsageInfo, curMemSize) == 32, "");
_Static_assert(offsetof(aclrtMemUsageInfo, reserved) == 48, "");
_Static_assert(sizeof(aclrtUtilizationInfo) == 24, "");
_Static_assert(sizeof(aclrtMemManagedLocation) == 8, "");

_Static_assert(sizeof(aclrtLaunchKernelAttrValue) == 16, "");
_Static_assert(sizeof(aclrtLaunchKernelAttr) == 20, "");
_Static_assert(offsetof(aclrtLaunchKernelAttr, value) == 4, "");
_Static_assert(sizeof(aclrtLaunchKernelCfg) == 16, "");
_Static_assert(sizeof(aclrtBinaryLoadOption) == 20, "");
_Static_assert(sizeof(aclrtBinaryLoadOptions) == 16, "");
_Static_assert(sizeof(aclrtPlaceHolderInfo) == 8, "");
_Static_assert(offsetof(aclrtPlaceHolderInfo, dataOffset) == 4, "");
_Static_assert(sizeof(dim3) == 12 && offsetof(dim3, z) == 8, "");

/* Handles are pointers; aclFloat16 is a 16-bit integer. */
_Static_assert(sizeof(aclrtStream) == sizeof(void *), "");
_Static_assert(sizeof(aclrtFuncHandle) == sizeof(void *), "");

/* Streams, versions, errors, limits, overflow (LP64, as CANN's headers give). */
_Static_assert(sizeof(aclrtStreamConfigHandle) == 32, "");
_Static_assert(offsetof(aclrtStreamConfigHandle, workSize) == 8, "");
_Static_assert(offsetof(aclrtStreamConfigHandle, flag) == 16, "");
_Static_assert(offsetof(aclrtStreamConfigHandle, priority) == 24, "");
_Static_assert(ACL_RT_STREAM_WORK_ADDR_PTR == 0 && ACL_RT_STREAM_FLAG == 2 && ACL_RT_STREAM_PRIORITY == 3, "");
_Static_assert(ACL_RT_STREAM_STATE_CREATE_POST == 1 && ACL_RT_STREAM_STATE_DESTROY_PRE == 2, "");
_Static_assert(ACL_PKG_VERSION_MAX_SIZE == 128 && ACL_PKG_VERSION_PARTS_MAX_SIZE == 64, "");
_Static_assert(sizeof(aclCANNPackageVersion) == 512, "");
_Static_assert(offsetof(aclCANNPackageVersion, majorVersion) == 128, "");
_Static_assert(offsetof(aclCANNPackageVersion, patchVersion) == 320, "");
_Static_assert(offsetof(aclCANNPackageVersion, reserved) == 384, "");
_Static_assert(ACL_PKG_NAME_CANN == 0 && ACL_PKG_NAME_DRIVER == 7, "");
_Static_assert(ACL_CANN_ATTR_UNDEFINED == -1 && ACL_CANN_ATTR_JIT_COMPILE == 2, "");
_Static_assert(ACL_DEVICE_INFO_UNDEFINED == -1 && ACL_DEVICE_INFO_L2_SIZE == 2, "");
_Static_assert(ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV == 1, "");
_Static_assert(ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV == 21, "");
_Static_assert(ACL_RT_DEV_RES_CUBE_CORE == 0 && ACL_RT_DEV_RES_VECTOR_CORE == 1, "");
_Static_assert(sizeof(aclrtMemUceInfo) == 128 && sizeof(aclrtMemUceInfoArray) == 2568, "");
_Static_assert(sizeof(aclrtErrorInfoDetail) == 2568, "");
_Static_assert(offsetof(aclrtErrorInfo, errorType) == 4 && offsetof(aclrtErrorInfo, detail) == 8, "");
_Static_assert(sizeof(aclrtErrorInfo) == 2576, "");
_Static_assert(ACL_RT_NO_ERROR == 0 && ACL_RT_ERROR_L3_PORT == 5 && ACL_RT_ERROR_OTHERS == 0xFFFF, "");
_Static_assert(ACL_RT_AICORE_ERROR_HW_LOCAL == 2 && ACL_RT_MEM_UCE_INFO_MAX_NUM == 20, "");
_Static_assert(ACL_RT_OVERFLOW_MODE_SATURATION == 0 && ACL_RT_OVERFLOW_MODE_INFNAN == 1, "");
_Static_assert(ACL_RT_OVERFLOW_MODE_UNDEF == 2, "");
_Static_assert(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM == 10 && ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL == 13, "");
_Static_assert(ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS == 3, "");
_Static_assert(sizeof(aclrtRandomParaInfo) == 16 && sizeof(aclrtRandomNumFuncParaInfo) == 36, "");
_Static_assert(sizeof(aclrtRandomNumTaskInfo) == 104, "");
_Static_assert(offsetof(aclrtRandomNumTaskInfo, randomParaAddr) == 40, "");
_Static_assert(offsetof(aclrtRandomNumTaskInfo, randomSeed) == 64, "");
_Static_assert(offsetof(aclrtRandomNumTaskInfo, rsv) == 96, "");
_Static_assert(_Generic((aclFloat16)0, uint16_t: 1, default: 0), "");

/* A few prototypes, by type compatibility (the C++ test checks them all). */
_Static_assert(_Generic(&aclrtMemcpy,
			aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind): 1,
			default: 0), "aclrtMemcpy");
_Static_assert(_Generic(&aclrtMemcpyBatch,
			aclError (*)(void **, size_t *, void **, size_t *, size_t,
				     aclrtMemcpyBatchAttr *, size_t *, size_t, size_t *): 1,
			default: 0), "aclrtMemcpyBatch");
_Static_assert(_Generic(&aclGetDataBufferSizeV2, size_t (*)(const aclDataBuffer *): 1,
			default: 0), "aclGetDataBufferSizeV2");

/* ---- Run-time cases ---- */

TEST(acl_error_constants)
{
	/* Not constant expressions in C, so checked here. */
	CHECK_EQ(ACL_SUCCESS, 0);
	CHECK_EQ(ACL_ERROR_NONE, 0);
	CHECK_EQ(ACL_ERROR_INVALID_PARAM, 100000);
	CHECK_EQ(ACL_ERROR_UNINITIALIZE, 100001);
	CHECK_EQ(ACL_ERROR_REPEAT_INITIALIZE, 100002);
	CHECK_EQ(ACL_ERROR_INVALID_FILE, 100003);
	CHECK_EQ(ACL_ERROR_FILE_ATTR_INVALID, 100008);
	CHECK_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, 100009);
	CHECK_EQ(ACL_ERROR_MODEL_NOT_DYNAMIC, 100019);
	CHECK_EQ(ACL_ERROR_OP_TYPE_NOT_MATCH, 100020);
	CHECK_EQ(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, 100036);
	CHECK_EQ(ACL_ERROR_REPEAT_FINALIZE, 100037);
	CHECK_EQ(ACL_ERROR_NOT_STATIC_AIPP, 100038);
	CHECK_EQ(ACL_ERROR_DUMP_NOT_RUN, 100045);
	CHECK_EQ(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, 148046);
	CHECK_EQ(ACL_ERROR_INVALID_BUNDLE_MODEL_ID, 148053);
	CHECK_EQ(ACL_ERROR_BAD_ALLOC, 200000);
	CHECK_EQ(ACL_ERROR_API_NOT_SUPPORT, 200001);
	CHECK_EQ(ACL_ERROR_INVALID_DEVICE, 200002);
	CHECK_EQ(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, 200003);
	CHECK_EQ(ACL_ERROR_RESOURCE_NOT_MATCH, 200004);
	CHECK_EQ(ACL_ERROR_INVALID_RESOURCE_HANDLE, 200005);
	CHECK_EQ(ACL_ERROR_FEATURE_UNSUPPORTED, 200006);
	CHECK_EQ(ACL_ERROR_PROF_MODULES_UNSUPPORTED, 200007);
	CHECK_EQ(ACL_ERROR_STORAGE_OVER_LIMIT, 300000);
	CHECK_EQ(ACL_ERROR_INTERNAL_ERROR, 500000);
	CHECK_EQ(ACL_ERROR_FAILURE, 500001);
	CHECK_EQ(ACL_ERROR_GE_FAILURE, 500002);
	CHECK_EQ(ACL_ERROR_RT_FAILURE, 500003);
	CHECK_EQ(ACL_ERROR_DRV_FAILURE, 500004);
	CHECK_EQ(ACL_ERROR_PROFILING_FAILURE, 500005);
	CHECK_EQ(ACL_ERROR_GE_PARAM_INVALID, 145000);
	CHECK_EQ(ACL_ERROR_GE_REDEPLOYING, 545602);
}

TEST(runtime_codes_and_layouts)
{
	aclrtMemcpyBatchAttr attr;

	CHECK_EQ(ACL_ERROR_RT_PARAM_INVALID, 107000);
	CHECK_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000);
	CHECK_EQ(ACL_ERROR_RT_DRV_INTERNAL_ERROR, 507899);
	CHECK_EQ(sizeof(attr), 32);
	CHECK_EQ((char *)&attr.rsv - (char *)&attr, 16);
	CHECK_EQ(sizeof(aclrtPhysicalMemProp), 32);
	CHECK_EQ(sizeof(aclrtMemUsageInfo), 112);
	CHECK_EQ(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, 6);
	CHECK_EQ(ACL_EVENT_WAIT_STATUS_RESERVED, 0xFFFF);
}

/* A CANN-style switch over runtime codes compiles (they are macros). */
static const char *rt_code_name(aclError e)
{
	switch (e) {
	case ACL_RT_SUCCESS:
		return "success";
	case ACL_ERROR_RT_PARAM_INVALID:
		return "param";
	case ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
		return "unsupported";
	default:
		return "other";
	}
}

TEST(runtime_codes_in_switch)
{
	CHECK(strcmp(rt_code_name(207000), "unsupported") == 0);
	CHECK(strcmp(rt_code_name(0), "success") == 0);
}

TEST(data_buffer_round_trip)
{
	char a[16], b[40];
	aclDataBuffer *buf = aclCreateDataBuffer(a, sizeof(a));

	REQUIRE(buf != NULL);
	CHECK(aclGetDataBufferAddr(buf) == a);
	CHECK_EQ(aclGetDataBufferSizeV2(buf), 16);
	CHECK_EQ(aclUpdateDataBuffer(buf, b, sizeof(b)), ACL_SUCCESS);
	CHECK(aclGetDataBufferAddr(buf) == b);
	CHECK_EQ(aclGetDataBufferSizeV2(buf), 40);
	CHECK_EQ(aclDestroyDataBuffer(buf), ACL_SUCCESS);

	/* An empty descriptor is legal (CANN uses it for empty tensors). */
	buf = aclCreateDataBuffer(NULL, 0);
	REQUIRE(buf != NULL);
	CHECK(aclGetDataBufferAddr(buf) == NULL);
	CHECK_EQ(aclDestroyDataBuffer(buf), ACL_SUCCESS);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(data_buffer_size_v1_truncates)
{
	aclDataBuffer *buf = aclCreateDataBuffer(NULL, ((size_t)1 << 32) + 5);

	REQUIRE(buf != NULL);
	CHECK_EQ(aclGetDataBufferSize(buf), 5);
	CHECK_EQ(aclGetDataBufferSizeV2(buf), ((size_t)1 << 32) + 5);
	CHECK_EQ(aclGetDataBufferSize(NULL), 0);
	CHECK_EQ(aclDestroyDataBuffer(buf), ACL_SUCCESS);
}
#pragma GCC diagnostic pop

TEST(data_buffer_null_arguments)
{
	CHECK_EQ(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(aclUpdateDataBuffer(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM);
	CHECK(aclGetDataBufferAddr(NULL) == NULL);
	CHECK_EQ(aclGetDataBufferSizeV2(NULL), 0);
}

TEST(data_type_sizes)
{
	CHECK_EQ(aclDataTypeSize(ACL_FLOAT), 4);
	CHECK_EQ(aclDataTypeSize(ACL_FLOAT16), 2);
	CHECK_EQ(aclDataTypeSize(ACL_BF16), 2);
	CHECK_EQ(aclDataTypeSize(ACL_INT8), 1);
	CHECK_EQ(aclDataTypeSize(ACL_UINT8), 1);
	CHECK_EQ(aclDataTypeSize(ACL_BOOL), 1);
	CHECK_EQ(aclDataTypeSize(ACL_INT16), 2);
	CHECK_EQ(aclDataTypeSize(ACL_INT32), 4);
	CHECK_EQ(aclDataTypeSize(ACL_UINT32), 4);
	CHECK_EQ(aclDataTypeSize(ACL_INT64), 8);
	CHECK_EQ(aclDataTypeSize(ACL_UINT64), 8);
	CHECK_EQ(aclDataTypeSize(ACL_DOUBLE), 8);
	CHECK_EQ(aclDataTypeSize(ACL_COMPLEX64), 8);
	CHECK_EQ(aclDataTypeSize(ACL_COMPLEX128), 16);
	CHECK_EQ(aclDataTypeSize(ACL_FLOAT8_E4M3FN), 1);
	CHECK_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0);
	CHECK_EQ(aclDataTypeSize((aclDataType)1000), 0);
}

TEST(float16_conversion)
{
	CHECK_EQ(aclFloatToFloat16(0.0f), 0x0000);
	CHECK_EQ(aclFloatToFloat16(-0.0f), 0x8000);
	CHECK_EQ(aclFloatToFloat16(1.0f), 0x3c00);
	CHECK_EQ(aclFloatToFloat16(-2.0f), 0xc000);
	CHECK_EQ(aclFloatToFloat16(0.5f), 0x3800);
	CHECK_EQ(aclFloatToFloat16(65504.0f), 0x7bff);   /* largest half */
	CHECK_EQ(aclFloatToFloat16(65520.0f), 0x7c00);   /* rounds to inf */
	CHECK_EQ(aclFloatToFloat16(1e10f), 0x7c00);
	CHECK_EQ(aclFloatToFloat16(INFINITY), 0x7c00);
	CHECK_EQ(aclFloatToFloat16(-INFINITY), 0xfc00);
	CHECK_EQ(aclFloatToFloat16(6.103515625e-05f), 0x0400); /* smallest normal */
	CHECK_EQ(aclFloatToFloat16(5.9604645e-08f), 0x0001);   /* smallest subnormal */
	CHECK_EQ(aclFloatToFloat16(1e-9f), 0x0000);
	CHECK_EQ(aclFloatToFloat16(1.0009765625f), 0x3c01);
	/* ties to even: 1 + 2^-11 is halfway between 0x3c00 and 0x3c01 */
	CHECK_EQ(aclFloatToFloat16(1.00048828125f), 0x3c00);
	CHECK_EQ(aclFloatToFloat16(1.00146484375f), 0x3c02);
	CHECK((aclFloatToFloat16(NAN) & 0x7c00) == 0x7c00 && (aclFloatToFloat16(NAN) & 0x3ff));

	CHECK(aclFloat16ToFloat(0x3c00) == 1.0f);
	CHECK(aclFloat16ToFloat(0xc000) == -2.0f);
	CHECK(aclFloat16ToFloat(0x7bff) == 65504.0f);
	CHECK(aclFloat16ToFloat(0x0001) == 5.9604644775390625e-08f);
	CHECK(aclFloat16ToFloat(0x8000) == 0.0f && signbit(aclFloat16ToFloat(0x8000)));
	CHECK(isinf(aclFloat16ToFloat(0x7c00)) && aclFloat16ToFloat(0x7c00) > 0);
	CHECK(isnan(aclFloat16ToFloat(0x7e00)));
}

TEST(float16_round_trip_all_finite)
{
	unsigned int h, bad = 0;

	for (h = 0; h < 0x10000; h++) {
		if ((h & 0x7c00) == 0x7c00)
			continue;
		if (aclFloatToFloat16(aclFloat16ToFloat((aclFloat16)h)) != h)
			bad++;
	}
	CHECK_EQ(bad, 0);
}

TEST(unsupported_stub_fails_with_name)
{
	aclrtServerPid pid = { 0, NULL, 0 };
	const char *msg;

	CHECK_EQ(aclrtIpcMemImportPidInterServer("k", &pid, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg = aclGetRecentErrMsg();
	REQUIRE(msg != NULL);
	CHECK(strstr(msg, "aclrtIpcMemImportPidInterServer") != NULL);
}

TEST(create_binary_null_fails)
{
	/* Stub or real implementation: an empty image yields no handle. */
	CHECK(aclrtCreateBinary(NULL, 0) == NULL);
}

TEST(app_log_links)
{
	ACL_APP_LOG(ACL_DEBUG, "debug line %d (hidden by default)", 1);
	ACL_APP_LOG(ACL_INFO, "no arguments");
	aclAppLog(ACL_WARNING, __func__, __FILE__, __LINE__, "test line from %s", "test_headers");
	CHECK(true);
}

int main(void)
{
	return tap_main();
}
