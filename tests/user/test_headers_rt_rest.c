// SPDX-License-Identifier: MIT
/*
 * test_headers_rt_rest.c - the part of CANN's acl_rt.h that issue 16 added
 * last: its constants, enum values and struct layouts are pinned to CANN's
 * (hicann/runtime include/external/acl at 681ef7610, measured with CANN's
 * header: the numbers below are data, not derived from ours); every
 * function links; the device-id mappings and the system options behave as
 * CANN's runtime does; each function not implemented fails with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT and a message naming it.
 */
#include "acl/acl.h"

#include <stddef.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "../lib/tap.h"
#pragma GCC diagnostic pop

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

_Static_assert(ACL_MEM_ADVISE_SET_READ_MOSTLY == 0, "");
_Static_assert(ACL_MEM_ADVISE_UNSET_READ_MOSTLY == 1, "");
_Static_assert(ACL_MEM_ADVISE_SET_PREFERRED_LOCATION == 2, "");
_Static_assert(ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION == 3, "");
_Static_assert(ACL_MEM_ADVISE_SET_ACCESSED_BY == 4, "");
_Static_assert(ACL_MEM_ADVISE_UNSET_ACCESSED_BY == 5, "");
_Static_assert(ACL_GROUP_AICORE_INT == 0, "");
_Static_assert(ACL_GROUP_AIV_INT == 1, "");
_Static_assert(ACL_GROUP_AIC_INT == 2, "");
_Static_assert(ACL_GROUP_SDMANUM_INT == 3, "");
_Static_assert(ACL_GROUP_ASQNUM_INT == 4, "");
_Static_assert(ACL_GROUP_GROUPID_INT == 5, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY == 1, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION == 2, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY == 3, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE == 4, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID == 5, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION == 6, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE == 7, "");
_Static_assert(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID == 8, "");
_Static_assert(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL == 0, "");
_Static_assert(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL == 1, "");
_Static_assert(ACL_MODEL_RI_CAPTURE_MODE_RELAXED == 2, "");
_Static_assert(ACL_MODEL_RI_CAPTURE_STATUS_NONE == 0, "");
_Static_assert(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE == 1, "");
_Static_assert(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED == 2, "");
_Static_assert(ACL_STREAM_ATTR_FAILURE_MODE == 1, "");
_Static_assert(ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK == 2, "");
_Static_assert(ACL_STREAM_ATTR_USER_CUSTOM_TAG == 3, "");
_Static_assert(ACL_STREAM_ATTR_CACHE_OP_INFO == 4, "");
_Static_assert(ACL_STREAM_ATTR_PRIORITY == 5, "");
_Static_assert(ACL_MODEL_RI_TASK_DEFAULT == 0, "");
_Static_assert(ACL_MODEL_RI_TASK_KERNEL == 1, "");
_Static_assert(ACL_MODEL_RI_TASK_EVENT_RECORD == 2, "");
_Static_assert(ACL_MODEL_RI_TASK_EVENT_WAIT == 3, "");
_Static_assert(ACL_MODEL_RI_TASK_EVENT_RESET == 4, "");
_Static_assert(ACL_MODEL_RI_TASK_VALUE_WRITE == 5, "");
_Static_assert(ACL_MODEL_RI_TASK_VALUE_WAIT == 6, "");
_Static_assert(ACL_RT_EQUAL == 0, "");
_Static_assert(ACL_RT_NOT_EQUAL == 1, "");
_Static_assert(ACL_RT_GREATER == 2, "");
_Static_assert(ACL_RT_GREATER_OR_EQUAL == 3, "");
_Static_assert(ACL_RT_LESS == 4, "");
_Static_assert(ACL_RT_LESS_OR_EQUAL == 5, "");
_Static_assert(ACL_RT_SWITCH_INT32 == 0, "");
_Static_assert(ACL_RT_SWITCH_INT64 == 1, "");
_Static_assert(ACL_RT_DEVICE_TASK_ABORT_PRE == 0, "");
_Static_assert(ACL_RT_DEVICE_TASK_ABORT_POST == 1, "");
_Static_assert(ACL_RT_UPDATE_RANDOM_TASK == 1, "");
_Static_assert(ACL_RT_UPDATE_AIC_AIV_TASK == 2, "");
_Static_assert(ACL_RT_DEVICE_STATE_SET_PRE == 0, "");
_Static_assert(ACL_RT_DEVICE_STATE_SET_POST == 1, "");
_Static_assert(ACL_RT_DEVICE_STATE_RESET_PRE == 2, "");
_Static_assert(ACL_RT_DEVICE_STATE_RESET_POST == 3, "");
_Static_assert(ACL_RT_SNAPSHOT_LOCK_PRE == 0, "");
_Static_assert(ACL_RT_SNAPSHOT_BACKUP_PRE == 1, "");
_Static_assert(ACL_RT_SNAPSHOT_BACKUP_POST == 2, "");
_Static_assert(ACL_RT_SNAPSHOT_RESTORE_PRE == 3, "");
_Static_assert(ACL_RT_SNAPSHOT_RESTORE_POST == 4, "");
_Static_assert(ACL_RT_SNAPSHOT_UNLOCK_POST == 5, "");
_Static_assert(ACL_FUNC_ATTR_KERNEL_TYPE == 1, "");
_Static_assert(ACL_FUNC_ATTR_KERNEL_RATIO == 2, "");
_Static_assert(ACL_FUNC_ATTR_KERNEL_SCHED_MODE == 3, "");
_Static_assert(ACL_KERNEL_TYPE_AICORE == 0, "");
_Static_assert(ACL_KERNEL_TYPE_CUBE == 1, "");
_Static_assert(ACL_KERNEL_TYPE_VECTOR == 2, "");
_Static_assert(ACL_KERNEL_TYPE_MIX == 3, "");
_Static_assert(ACL_KERNEL_TYPE_AICPU == 100, "");
_Static_assert(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE == 0, "");
_Static_assert(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE == 1, "");
_Static_assert(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE == 2, "");
_Static_assert(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE == 4, "");
_Static_assert(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE == 0, "");
_Static_assert(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE == 1, "");
_Static_assert(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE == 2, "");
_Static_assert(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE == 3, "");
_Static_assert(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE == 4, "");
_Static_assert(ACL_RT_HAC_TYPE_STARS == 0, "");
_Static_assert(ACL_RT_HAC_TYPE_AICPU == 1, "");
_Static_assert(ACL_RT_HAC_TYPE_AIC == 2, "");
_Static_assert(ACL_RT_HAC_TYPE_AIV == 3, "");
_Static_assert(ACL_RT_HAC_TYPE_PCIEDMA == 4, "");
_Static_assert(ACL_RT_HAC_TYPE_RDMA == 5, "");
_Static_assert(ACL_RT_HAC_TYPE_SDMA == 6, "");
_Static_assert(ACL_RT_HAC_TYPE_DVPP == 7, "");
_Static_assert(ACL_RT_HAC_TYPE_UDMA == 8, "");
_Static_assert(ACL_RT_HAC_TYPE_CCU == 9, "");
_Static_assert(ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED == 0, "");
_Static_assert(ACL_RT_HOST_MEM_MAP_SUPPORTED == 1, "");
_Static_assert(ACL_RT_MEM_ACCESS_LINK_SIO == 0, "");
_Static_assert(ACL_RT_MEM_ACCESS_LINK_HCCS == 1, "");
_Static_assert(ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH == 2, "");
_Static_assert(ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH == 3, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_SIGNED == 1, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_UNSIGNED == 2, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_REDUCATION == 4, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_REDUCTION == 4, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_SCALAR8 == 8, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_SCALAR16 == 16, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_SCALAR32 == 32, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_SCALAR64 == 64, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_SCALAR128 == 128, "");
_Static_assert(ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 == 256, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_INTEGER_ADD == 0, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_INTEGER_MIN == 1, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_INTEGER_MAX == 2, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT == 3, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT == 4, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_AND == 5, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_OR == 6, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_XOR == 7, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_EXCHANGE == 8, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_CAS == 9, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_FLOAT_ADD == 10, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_FLOAT_MIN == 11, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_FLOAT_MAX == 12, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_DMA_ADD == 30, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_DMA_MIN == 31, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_DMA_MAX == 32, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD == 40, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN == 41, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX == 42, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS == 43, "");
_Static_assert(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH == 44, "");
_Static_assert(ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT == 1, "");
_Static_assert(ACL_MODEL_RI_COND_TYPE_IF == 0, "");
_Static_assert(ACL_MODEL_RI_COND_TYPE_WHILE == 1, "");
_Static_assert(ACL_MODEL_RI_COND_TYPE_SWITCH == 2, "");
_Static_assert(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE == 0, "");
_Static_assert(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE == 1, "");
_Static_assert(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE == 2, "");
_Static_assert(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE == 3, "");
_Static_assert(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE == 4, "");
_Static_assert(ACL_REG_TYPE_ACL_MODEL == 0, "");
_Static_assert(ACL_REG_TYPE_ACL_OP_EXECUTOR == 1, "");
_Static_assert(ACL_REG_TYPE_ACL_OP_CBLAS == 2, "");
_Static_assert(ACL_REG_TYPE_ACL_OP_COMPILER == 3, "");
_Static_assert(ACL_REG_TYPE_ACL_TDT_CHANNEL == 4, "");
_Static_assert(ACL_REG_TYPE_ACL_TDT_QUEUE == 5, "");
_Static_assert(ACL_REG_TYPE_ACL_DVPP == 6, "");
_Static_assert(ACL_REG_TYPE_ACL_RETR == 7, "");
_Static_assert(ACL_REG_TYPE_OTHER == 65535, "");
_Static_assert(ACL_RT_PROCESS_STATE_RUNNING == 0, "");
_Static_assert(ACL_RT_PROCESS_STATE_LOCKED == 1, "");
_Static_assert(ACL_OPT_DETERMINISTIC == 0, "");
_Static_assert(ACL_OPT_ENABLE_DEBUG_KERNEL == 1, "");
_Static_assert(ACL_OPT_STRONG_CONSISTENCY == 2, "");
_Static_assert(ACL_OPT_ENABLE_KERNEL_EARLY_START == 3, "");
_Static_assert(sizeof(aclrtStreamAttrValue) == 16, "");
_Static_assert(offsetof(aclrtStreamAttrValue, failureMode) == 0, "");
_Static_assert(offsetof(aclrtStreamAttrValue, overflowSwitch) == 0, "");
_Static_assert(offsetof(aclrtStreamAttrValue, userCustomTag) == 0, "");
_Static_assert(offsetof(aclrtStreamAttrValue, cacheOpInfoSwitch) == 0, "");
_Static_assert(offsetof(aclrtStreamAttrValue, streamPriority) == 0, "");
_Static_assert(offsetof(aclrtStreamAttrValue, reserve) == 0, "");
_Static_assert(sizeof(aclmdlRIKernelTaskParams) == 88, "");
_Static_assert(offsetof(aclmdlRIKernelTaskParams, funcHandle) == 0, "");
_Static_assert(offsetof(aclmdlRIKernelTaskParams, cfg) == 8, "");
_Static_assert(offsetof(aclmdlRIKernelTaskParams, args) == 16, "");
_Static_assert(offsetof(aclmdlRIKernelTaskParams, isHostArgs) == 24, "");
_Static_assert(offsetof(aclmdlRIKernelTaskParams, argsSize) == 32, "");
_Static_assert(offsetof(aclmdlRIKernelTaskParams, numBlocks) == 40, "");
_Static_assert(offsetof(aclmdlRIKernelTaskParams, rsv) == 44, "");
_Static_assert(sizeof(aclmdlRIEventRecordTaskParams) == 16, "");
_Static_assert(offsetof(aclmdlRIEventRecordTaskParams, event) == 0, "");
_Static_assert(offsetof(aclmdlRIEventRecordTaskParams, eventFlag) == 8, "");
_Static_assert(offsetof(aclmdlRIEventRecordTaskParams, recordFlag) == 12, "");
_Static_assert(sizeof(aclmdlRIEventWaitTaskParams) == 16, "");
_Static_assert(offsetof(aclmdlRIEventWaitTaskParams, event) == 0, "");
_Static_assert(offsetof(aclmdlRIEventWaitTaskParams, eventFlag) == 8, "");
_Static_assert(offsetof(aclmdlRIEventWaitTaskParams, waitFlag) == 12, "");
_Static_assert(sizeof(aclmdlRIEventResetTaskParams) == 16, "");
_Static_assert(offsetof(aclmdlRIEventResetTaskParams, event) == 0, "");
_Static_assert(offsetof(aclmdlRIEventResetTaskParams, eventFlag) == 8, "");
_Static_assert(offsetof(aclmdlRIEventResetTaskParams, resetFlag) == 12, "");
_Static_assert(sizeof(aclmdlRIValueWriteTaskParams) == 16, "");
_Static_assert(offsetof(aclmdlRIValueWriteTaskParams, devAddr) == 0, "");
_Static_assert(offsetof(aclmdlRIValueWriteTaskParams, value) == 8, "");
_Static_assert(sizeof(aclmdlRIValueWaitTaskParams) == 24, "");
_Static_assert(offsetof(aclmdlRIValueWaitTaskParams, devAddr) == 0, "");
_Static_assert(offsetof(aclmdlRIValueWaitTaskParams, value) == 8, "");
_Static_assert(offsetof(aclmdlRIValueWaitTaskParams, flag) == 16, "");
_Static_assert(sizeof(aclmdlRITaskParams) == 200, "");
_Static_assert(offsetof(aclmdlRITaskParams, type) == 0, "");
_Static_assert(offsetof(aclmdlRITaskParams, rsv0) == 4, "");
_Static_assert(offsetof(aclmdlRITaskParams, taskGrp) == 16, "");
_Static_assert(offsetof(aclmdlRITaskParams, opInfoPtr) == 24, "");
_Static_assert(offsetof(aclmdlRITaskParams, opInfoSize) == 32, "");
_Static_assert(offsetof(aclmdlRITaskParams, rsv1) == 40, "");
_Static_assert(offsetof(aclmdlRITaskParams, rsv2) == 72, "");
_Static_assert(offsetof(aclmdlRITaskParams, kernelTaskParams) == 72, "");
_Static_assert(offsetof(aclmdlRITaskParams, eventRecordTaskParams) == 72, "");
_Static_assert(offsetof(aclmdlRITaskParams, eventWaitTaskParams) == 72, "");
_Static_assert(offsetof(aclmdlRITaskParams, eventResetTaskParams) == 72, "");
_Static_assert(offsetof(aclmdlRITaskParams, valueWriteTaskParams) == 72, "");
_Static_assert(offsetof(aclmdlRITaskParams, valueWaitTaskParams) == 72, "");
_Static_assert(sizeof(aclrtBarrierCmoInfo) == 8, "");
_Static_assert(offsetof(aclrtBarrierCmoInfo, cmoType) == 0, "");
_Static_assert(offsetof(aclrtBarrierCmoInfo, barrierId) == 4, "");
_Static_assert(sizeof(aclrtBarrierTaskInfo) == 56, "");
_Static_assert(offsetof(aclrtBarrierTaskInfo, barrierNum) == 0, "");
_Static_assert(offsetof(aclrtBarrierTaskInfo, cmoInfo) == 8, "");
_Static_assert(sizeof(aclrtRandomTaskUpdateAttr) == 32, "");
_Static_assert(offsetof(aclrtRandomTaskUpdateAttr, srcAddr) == 0, "");
_Static_assert(offsetof(aclrtRandomTaskUpdateAttr, size) == 8, "");
_Static_assert(offsetof(aclrtRandomTaskUpdateAttr, rsv) == 16, "");
_Static_assert(sizeof(aclrtAicAivTaskUpdateAttr) == 40, "");
_Static_assert(offsetof(aclrtAicAivTaskUpdateAttr, binHandle) == 0, "");
_Static_assert(offsetof(aclrtAicAivTaskUpdateAttr, funcEntryAddr) == 8, "");
_Static_assert(offsetof(aclrtAicAivTaskUpdateAttr, blockDimAddr) == 16, "");
_Static_assert(offsetof(aclrtAicAivTaskUpdateAttr, rsv) == 24, "");
_Static_assert(sizeof(aclrtUpdateTaskAttrVal) == 40, "");
_Static_assert(offsetof(aclrtUpdateTaskAttrVal, randomTaskAttr) == 0, "");
_Static_assert(offsetof(aclrtUpdateTaskAttrVal, aicAivTaskAttr) == 0, "");
_Static_assert(sizeof(aclrtTaskUpdateInfo) == 48, "");
_Static_assert(offsetof(aclrtTaskUpdateInfo, id) == 0, "");
_Static_assert(offsetof(aclrtTaskUpdateInfo, val) == 8, "");
_Static_assert(sizeof(aclrtSnapShotBackupArgs) == 64, "");
_Static_assert(offsetof(aclrtSnapShotBackupArgs, backupFlags) == 0, "");
_Static_assert(offsetof(aclrtSnapShotBackupArgs, reserved) == 4, "");
_Static_assert(sizeof(aclrtSnapShotRestoreArgs) == 64, "");
_Static_assert(offsetof(aclrtSnapShotRestoreArgs, restoreFlags) == 0, "");
_Static_assert(offsetof(aclrtSnapShotRestoreArgs, reserved) == 4, "");
_Static_assert(sizeof(aclrtUuid) == 16, "");
_Static_assert(offsetof(aclrtUuid, bytes) == 0, "");
_Static_assert(sizeof(aclrtCntNotifyRecordInfo) == 8, "");
_Static_assert(offsetof(aclrtCntNotifyRecordInfo, mode) == 0, "");
_Static_assert(offsetof(aclrtCntNotifyRecordInfo, value) == 4, "");
_Static_assert(sizeof(aclrtCntNotifyWaitInfo) == 16, "");
_Static_assert(offsetof(aclrtCntNotifyWaitInfo, mode) == 0, "");
_Static_assert(offsetof(aclrtCntNotifyWaitInfo, value) == 4, "");
_Static_assert(offsetof(aclrtCntNotifyWaitInfo, timeout) == 8, "");
_Static_assert(offsetof(aclrtCntNotifyWaitInfo, isClear) == 12, "");
_Static_assert(offsetof(aclrtCntNotifyWaitInfo, rsv) == 13, "");
_Static_assert(sizeof(aclmdlRICondTaskParams) == 24, "");
_Static_assert(offsetof(aclmdlRICondTaskParams, handle) == 0, "");
_Static_assert(offsetof(aclmdlRICondTaskParams, type) == 8, "");
_Static_assert(offsetof(aclmdlRICondTaskParams, size) == 12, "");
_Static_assert(offsetof(aclmdlRICondTaskParams, modelRIArray) == 16, "");
_Static_assert(ACL_NOTIFY_DEFAULT == 0ULL, "");
_Static_assert(ACL_NOTIFY_DEVICE_USE_ONLY == 1ULL, "");
_Static_assert(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT == 0ULL, "");
_Static_assert(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION == 2ULL, "");
_Static_assert(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT == 0ULL, "");
_Static_assert(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS == 2ULL, "");
_Static_assert(ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY == 0ULL, "");
_Static_assert(ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE == 1ULL, "");
_Static_assert(ACL_RT_MAX_RECORD_PA_NUM_PER_DEV == 20ULL, "");
_Static_assert(ACL_RT_MEM_LINK_IDX_0 == 0ULL, "");
_Static_assert(ACL_RT_MEM_LINK_IDX_1 == 1ULL, "");
_Static_assert(ACL_HOST_DEVICE_CONNECT_TYPE_PCIE == 0ULL, "");
_Static_assert(ACL_HOST_DEVICE_CONNECT_TYPE_HCCS == 1ULL, "");
_Static_assert(ACL_HOST_DEVICE_CONNECT_TYPE_UB == 2ULL, "");
_Static_assert(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO == 0ULL, "");
_Static_assert(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS == 1ULL, "");
_Static_assert(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH == 2ULL, "");
_Static_assert(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH == 3ULL, "");
_Static_assert(ACL_RT_BINARY_MAGIC_ELF_AICORE == 1129660997ULL, "");
_Static_assert(ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE == 1094799942ULL, "");
_Static_assert(ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE == 1095320387ULL, "");
_Static_assert(ACL_DEVICE_FORM_FACTOR_POD == 0ULL, "");
_Static_assert(ACL_DEVICE_FORM_FACTOR_A_K == 1ULL, "");
_Static_assert(ACL_DEVICE_FORM_FACTOR_A_X == 2ULL, "");
_Static_assert(ACL_DEVICE_FORM_FACTOR_PCIE_CARD == 3ULL, "");
_Static_assert(ACL_RT_CMO_MAX_BARRIER_NUM == 6ULL, "");
_Static_assert(ACL_RT_DEVS_TOPOLOGY_HCCS == 1ULL, "");
_Static_assert(ACL_RT_DEVS_TOPOLOGY_PIX == 2ULL, "");
_Static_assert(ACL_RT_DEVS_TOPOLOGY_PIB == 4ULL, "");
_Static_assert(ACL_RT_DEVS_TOPOLOGY_PHB == 8ULL, "");
_Static_assert(ACL_RT_DEVS_TOPOLOGY_SYS == 16ULL, "");
_Static_assert(ACL_RT_DEVS_TOPOLOGY_SIO == 32ULL, "");
_Static_assert(ACL_RT_DEVS_TOPOLOGY_HCCS_SW == 64ULL, "");

static int msg_names(const char *fn)
{
	const char *m = aclGetRecentErrMsg();

	return m && strstr(m, fn) != NULL;
}

static int has_msg(void)
{
	const char *m = aclGetRecentErrMsg();

	return m && m[0];
}

#define CHECK_UNSUP(call, fn)						\
	do {								\
		CHECK_EQ((call), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);	\
		CHECK(msg_names(fn));					\
	} while (0)

#define CHECK_CODE(call, code)						\
	do {								\
		aclError r_ = (call);					\
		CHECK_EQ(r_, (code));					\
		if (r_ != ACL_SUCCESS)					\
			CHECK(has_msg());				\
	} while (0)

typedef aclError (*map_fn)(const int32_t, int32_t *const);

/* One numbering here: every mapping is the identity over the devices found. */
TEST(device_id_mappings)
{
	static const map_fn fns[] = {
		aclrtGetLogicDevIdByUserDevId, aclrtGetUserDevIdByLogicDevId,
		aclrtGetLogicDevIdByPhyDevId, aclrtGetPhyDevIdByLogicDevId,
		aclrtGetUserDevIdByPhyDevId, aclrtGetPhyDevIdByUserDevId,
	};
	uint32_t n = 0;
	int32_t out;
	size_t f;
	int32_t i;

	CHECK_CODE(aclInit(NULL), ACL_SUCCESS);
	CHECK_CODE(aclrtGetDeviceCount(&n), ACL_SUCCESS);
	for (f = 0; f < sizeof(fns) / sizeof(fns[0]); f++) {
		CHECK_CODE(fns[f](0, NULL), ACL_ERROR_INVALID_PARAM);
		out = 77;
		CHECK_CODE(fns[f](-1, &out), ACL_ERROR_RT_INVALID_DEVICEID);
		CHECK_CODE(fns[f]((int32_t)n, &out), ACL_ERROR_RT_INVALID_DEVICEID);
		CHECK_EQ(out, 77);
		for (i = 0; i < (int32_t)n; i++) {
			out = -1;
			CHECK_CODE(fns[f](i, &out), ACL_SUCCESS);
			CHECK_EQ(out, i);
		}
	}
	CHECK_CODE(aclFinalize(), ACL_SUCCESS);
}

/* CANN's checks: the option (100000), then the value's range (107000). */
TEST(sys_param_opt)
{
	int64_t v = -1;

	CHECK_CODE(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	CHECK_EQ(v, 0);
	CHECK_CODE(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_CODE(aclrtGetSysParamOpt((aclSysParamOpt)4, &v), ACL_ERROR_INVALID_PARAM);
	CHECK_CODE(aclrtSetSysParamOpt((aclSysParamOpt)4, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_CODE(aclrtSetSysParamOpt((aclSysParamOpt)-1, 0), ACL_ERROR_INVALID_PARAM);
	CHECK_CODE(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3), ACL_SUCCESS);
	CHECK_CODE(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_CODE(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, -1), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_CODE(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	CHECK_EQ(v, 3);
	CHECK_CODE(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1), ACL_SUCCESS);
	CHECK_CODE(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_CODE(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_SUCCESS);
	CHECK_CODE(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v), ACL_SUCCESS);
	CHECK_EQ(v, 1);
	CHECK_CODE(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_SUCCESS);
	CHECK_EQ(v, 1);
	/* options are independent */
	CHECK_CODE(aclrtGetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, &v), ACL_SUCCESS);
	CHECK_EQ(v, 0);
	CHECK_CODE(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
	CHECK_CODE(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
	CHECK_EQ(v, 0);
}

/* Every function declared but not implemented: 207000 and its name. */
TEST(rest_unsupported)
{
	CHECK_UNSUP(aclrtHostMemMapCapabilities((uint32_t)0, (aclrtHacType)0, (aclrtHostMemMapCapability *)0), "aclrtHostMemMapCapabilities");
	CHECK_UNSUP(aclrtMemMapSelectedLink((void *)0, (size_t)0, (void *)0, (uint32_t)0), "aclrtMemMapSelectedLink");
	CHECK_UNSUP(aclrtMemMapSetLink((aclrtDrvMemHandle)0, (aclrtMemLinkType)0), "aclrtMemMapSetLink");
	CHECK_UNSUP(aclrtReserveMemAddressNoUCMemory((void **)0, (size_t)0, (size_t)0, (void *)0, (uint64_t)0), "aclrtReserveMemAddressNoUCMemory");
	CHECK_UNSUP(aclrtActiveStream((aclrtStream)0, (aclrtStream)0), "aclrtActiveStream");
	CHECK_UNSUP(aclrtPersistentTaskClean((aclrtStream)0), "aclrtPersistentTaskClean");
	CHECK_UNSUP(aclrtSwitchStream((void *)0, (aclrtCondition)0, (void *)0, (aclrtCompareDataType)0, (aclrtStream)0, (aclrtStream)0, (aclrtStream)0), "aclrtSwitchStream");
	CHECK_UNSUP(aclrtTaskUpdateAsync((aclrtStream)0, (uint32_t)0, (aclrtTaskUpdateInfo *)0, (aclrtStream)0), "aclrtTaskUpdateAsync");
	CHECK_UNSUP(aclmdlFinalizeDump(), "aclmdlFinalizeDump");
	CHECK_UNSUP(aclmdlInitDump(), "aclmdlInitDump");
	CHECK_UNSUP(aclmdlSetDump((const char *)0), "aclmdlSetDump");
	CHECK_UNSUP(aclrtNotifySetImportPidInterServer((aclrtNotify)0, (aclrtServerPid *)0, (size_t)0), "aclrtNotifySetImportPidInterServer");
	CHECK_UNSUP(aclrtAllocBuf((aclrtMbuf *)0, (size_t)0), "aclrtAllocBuf");
	CHECK_UNSUP(aclrtAppendBufChain((aclrtMbuf)0, (aclrtMbuf)0), "aclrtAppendBufChain");
	CHECK_UNSUP(aclrtCopyBufRef((const aclrtMbuf)0, (aclrtMbuf *)0), "aclrtCopyBufRef");
	CHECK_UNSUP(aclrtFreeBuf((aclrtMbuf)0), "aclrtFreeBuf");
	CHECK_UNSUP(aclrtGetBufChainNum((aclrtMbuf)0, (uint32_t *)0), "aclrtGetBufChainNum");
	CHECK_UNSUP(aclrtGetBufData((const aclrtMbuf)0, (void **)0, (size_t *)0), "aclrtGetBufData");
	CHECK_UNSUP(aclrtGetBufDataLen((aclrtMbuf)0, (size_t *)0), "aclrtGetBufDataLen");
	CHECK_UNSUP(aclrtGetBufFromChain((aclrtMbuf)0, (uint32_t)0, (aclrtMbuf *)0), "aclrtGetBufFromChain");
	CHECK_UNSUP(aclrtGetBufUserData((const aclrtMbuf)0, (void *)0, (size_t)0, (size_t)0), "aclrtGetBufUserData");
	CHECK_UNSUP(aclrtSetBufDataLen((aclrtMbuf)0, (size_t)0), "aclrtSetBufDataLen");
	CHECK_UNSUP(aclrtSetBufUserData((aclrtMbuf)0, (const void *)0, (size_t)0, (size_t)0), "aclrtSetBufUserData");
	CHECK_UNSUP(aclrtCmoAsync((void *)0, (size_t)0, (aclrtCmoType)0, (aclrtStream)0), "aclrtCmoAsync");
	CHECK_UNSUP(aclrtCmoAsyncWithBarrier((void *)0, (size_t)0, (aclrtCmoType)0, (uint32_t)0, (aclrtStream)0), "aclrtCmoAsyncWithBarrier");
	CHECK_UNSUP(aclrtCmoAsyncWithDesc((void *)0, (aclrtCmoType)0, (aclrtStream)0, (const void *)0), "aclrtCmoAsyncWithDesc");
	CHECK_UNSUP(aclrtCmoGetDescSize((size_t *)0), "aclrtCmoGetDescSize");
	CHECK_UNSUP(aclrtCmoSetDesc((void *)0, (void *)0, (size_t)0), "aclrtCmoSetDesc");
	CHECK_UNSUP(aclrtCmoWaitBarrier((aclrtBarrierTaskInfo *)0, (aclrtStream)0, (uint32_t)0), "aclrtCmoWaitBarrier");
	CHECK_UNSUP(aclrtDeviceL2CacheFlush((void *)0), "aclrtDeviceL2CacheFlush");
	CHECK_UNSUP(aclrtBinaryGetDevAddress((const aclrtBinHandle)0, (void **)0, (size_t *)0), "aclrtBinaryGetDevAddress");
	CHECK_UNSUP(aclrtBinaryGetFunctionByEntry((aclrtBinHandle)0, (uint64_t)0, (aclrtFuncHandle *)0), "aclrtBinaryGetFunctionByEntry");
	CHECK_UNSUP(aclrtBinaryGetGlobal((aclrtBinHandle)0, (const char *)0, (void **)0, (size_t *)0), "aclrtBinaryGetGlobal");
	CHECK_UNSUP(aclrtBinarySetExceptionCallback((aclrtBinHandle)0, (aclrtOpExceptionCallback)0, (void *)0), "aclrtBinarySetExceptionCallback");
	CHECK_UNSUP(aclrtFunctionGetAvailDynUbufPerBlock((void *)0, (uint32_t)0, (size_t *)0), "aclrtFunctionGetAvailDynUbufPerBlock");
	CHECK_UNSUP(aclrtFunctionGetBinary((const aclrtFuncHandle)0, (aclrtBinHandle *)0), "aclrtFunctionGetBinary");
	CHECK_UNSUP(aclrtFunctionGetParamCount((const void *)0, (size_t *)0), "aclrtFunctionGetParamCount");
	CHECK_UNSUP(aclrtFunctionGetParamInfo((const void *)0, (size_t)0, (size_t *)0, (size_t *)0), "aclrtFunctionGetParamInfo");
	CHECK_UNSUP(aclrtGetFuncBySymbol((const void *)0, (aclrtFuncHandle *)0), "aclrtGetFuncBySymbol");
	CHECK_UNSUP(aclrtGetFunctionAddr((aclrtFuncHandle)0, (void **)0, (void **)0), "aclrtGetFunctionAddr");
	CHECK_UNSUP(aclrtGetFunctionAttribute((aclrtFuncHandle)0, (aclrtFuncAttribute)0, (int64_t *)0), "aclrtGetFunctionAttribute");
	CHECK_UNSUP(aclrtGetFunctionName((aclrtFuncHandle)0, (uint32_t)0, (char *)0), "aclrtGetFunctionName");
	CHECK_UNSUP(aclrtGetFunctionSize((aclrtFuncHandle)0, (size_t *)0, (size_t *)0), "aclrtGetFunctionSize");
	CHECK_UNSUP(aclrtKernelArgsGetHandleMemSize((aclrtFuncHandle)0, (size_t *)0), "aclrtKernelArgsGetHandleMemSize");
	CHECK_UNSUP(aclrtKernelArgsGetMemSize((aclrtFuncHandle)0, (size_t)0, (size_t *)0), "aclrtKernelArgsGetMemSize");
	CHECK_UNSUP(aclrtKernelArgsInitByUserMem((aclrtFuncHandle)0, (aclrtArgsHandle)0, (void *)0, (size_t)0), "aclrtKernelArgsInitByUserMem");
	CHECK_UNSUP(aclrtKernelArgsParaUpdate((aclrtArgsHandle)0, (aclrtParamHandle)0, (void *)0, (size_t)0), "aclrtKernelArgsParaUpdate");
	CHECK_UNSUP(aclrtLaunchKernelWithArgsArray((void *)0, (uint32_t)0, (aclrtStream)0, (aclrtLaunchKernelCfg *)0, (void **)0), "aclrtLaunchKernelWithArgsArray");
	CHECK_UNSUP(aclrtLaunchSIMTKernelWithArgsArray((void *)0, (dim3){0}, (dim3){0}, (size_t)0, (aclrtStream)0, (aclrtLaunchKernelCfg *)0, (void **)0), "aclrtLaunchSIMTKernelWithArgsArray");
	CHECK_UNSUP(aclrtLaunchSIMTKernelWithHostArgs((void *)0, (dim3){0}, (dim3){0}, (size_t)0, (aclrtStream)0, (aclrtLaunchKernelCfg *)0, (void *)0, (size_t)0, (aclrtPlaceHolderInfo *)0, (size_t)0), "aclrtLaunchSIMTKernelWithHostArgs");
	CHECK_UNSUP(aclrtRegisterCpuFunc((const aclrtBinHandle)0, (const char *)0, (const char *)0, (aclrtFuncHandle *)0), "aclrtRegisterCpuFunc");
	CHECK_UNSUP(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)0, (aclrtSnapShotCallBack)0, (void *)0), "aclrtSnapShotCallbackRegister");
	CHECK_UNSUP(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)0, (aclrtSnapShotCallBack)0), "aclrtSnapShotCallbackUnregister");
	CHECK_UNSUP(aclrtSnapShotProcessBackup((int)0, (aclrtSnapShotBackupArgs *)0), "aclrtSnapShotProcessBackup");
	CHECK_UNSUP(aclrtSnapShotProcessLock((int)0, (void *)0), "aclrtSnapShotProcessLock");
	CHECK_UNSUP(aclrtSnapShotProcessRestore((int)0, (aclrtSnapShotRestoreArgs *)0), "aclrtSnapShotProcessRestore");
	CHECK_UNSUP(aclrtSnapShotProcessUnlock((int)0, (void *)0), "aclrtSnapShotProcessUnlock");
	CHECK(aclrtCreateGroupInfo() == NULL);
	CHECK(msg_names("aclrtCreateGroupInfo"));
	CHECK_UNSUP(aclrtDestroyGroupInfo((aclrtGroupInfo *)0), "aclrtDestroyGroupInfo");
	CHECK_UNSUP(aclrtGetAllGroupInfo((aclrtGroupInfo *)0), "aclrtGetAllGroupInfo");
	CHECK_UNSUP(aclrtGetGroupCount((uint32_t *)0), "aclrtGetGroupCount");
	CHECK_UNSUP(aclrtGetGroupInfoDetail((const aclrtGroupInfo *)0, (int32_t)0, (aclrtGroupAttr)0, (void *)0, (size_t)0, (size_t *)0), "aclrtGetGroupInfoDetail");
	CHECK_UNSUP(aclrtSetGroup((int32_t)0), "aclrtSetGroup");
	CHECK_UNSUP(aclrtSetTsDevice((aclrtTsId)0), "aclrtSetTsDevice");
	CHECK_UNSUP(aclrtDeviceTaskAbort((int32_t)0, (uint32_t)0), "aclrtDeviceTaskAbort");
	CHECK_UNSUP(aclrtGetOpExecuteTimeout((uint32_t *)0), "aclrtGetOpExecuteTimeout");
	CHECK_UNSUP(aclrtGetOpTimeOutInterval((uint64_t *)0), "aclrtGetOpTimeOutInterval");
	CHECK_UNSUP(aclrtSetDeviceTaskAbortCallback((const char *)0, (aclrtDeviceTaskAbortCallback)0, (void *)0), "aclrtSetDeviceTaskAbortCallback");
	CHECK_UNSUP(aclrtSetOpExecuteTimeOut((uint32_t)0), "aclrtSetOpExecuteTimeOut");
	CHECK_UNSUP(aclrtSetOpExecuteTimeOutWithMs((uint32_t)0), "aclrtSetOpExecuteTimeOutWithMs");
	CHECK_UNSUP(aclrtSetOpWaitTimeout((uint32_t)0), "aclrtSetOpWaitTimeout");
	CHECK_UNSUP(aclFinalizeCallbackRegister((aclRegisterCallbackType)0, (aclFinalizeCallbackFunc)0, (void *)0), "aclFinalizeCallbackRegister");
	CHECK_UNSUP(aclFinalizeCallbackUnRegister((aclRegisterCallbackType)0, (aclFinalizeCallbackFunc)0), "aclFinalizeCallbackUnRegister");
	CHECK_UNSUP(aclInitCallbackRegister((aclRegisterCallbackType)0, (aclInitCallbackFunc)0, (void *)0), "aclInitCallbackRegister");
	CHECK_UNSUP(aclInitCallbackUnRegister((aclRegisterCallbackType)0, (aclInitCallbackFunc)0), "aclInitCallbackUnRegister");
	CHECK_UNSUP(aclrtRegDeviceStateCallback((const char *)0, (aclrtDeviceStateCallback)0, (void *)0), "aclrtRegDeviceStateCallback");
	CHECK_UNSUP(aclrtCacheLastTaskExtendInfo((const char *)0, (const size_t)0), "aclrtCacheLastTaskExtendInfo");
	CHECK_UNSUP(aclrtCacheLastTaskOpInfo((const void *)0, (const size_t)0), "aclrtCacheLastTaskOpInfo");
	CHECK_UNSUP(aclrtCtxGetSysParamOpt((aclSysParamOpt)0, (int64_t *)0), "aclrtCtxGetSysParamOpt");
	CHECK_UNSUP(aclrtCtxSetSysParamOpt((aclSysParamOpt)0, (int64_t)0), "aclrtCtxSetSysParamOpt");
	CHECK_UNSUP(aclrtDeviceGetByPCIBusId((const char *)0, (int32_t *)0), "aclrtDeviceGetByPCIBusId");
	CHECK_UNSUP(aclrtDeviceGetHostAtomicCapabilities((uint32_t *)0, (const aclrtAtomicOperation *)0, (const uint32_t)0, (int32_t)0), "aclrtDeviceGetHostAtomicCapabilities");
	CHECK_UNSUP(aclrtDeviceGetLimit((aclrtDeviceLimit)0, (size_t *)0), "aclrtDeviceGetLimit");
	CHECK_UNSUP(aclrtDeviceGetP2PAtomicCapabilities((uint32_t *)0, (const aclrtAtomicOperation *)0, (const uint32_t)0, (int32_t)0, (int32_t)0), "aclrtDeviceGetP2PAtomicCapabilities");
	CHECK_UNSUP(aclrtDeviceGetPCIBusId((int32_t)0, (char *)0, (int32_t)0), "aclrtDeviceGetPCIBusId");
	CHECK_UNSUP(aclrtDeviceGetUuid((int32_t)0, (aclrtUuid *)0), "aclrtDeviceGetUuid");
	CHECK_UNSUP(aclrtDeviceSetLimit((aclrtDeviceLimit)0, (size_t)0), "aclrtDeviceSetLimit");
	CHECK_UNSUP(aclrtGetDevicesTopo((uint32_t)0, (uint32_t)0, (uint64_t *)0), "aclrtGetDevicesTopo");
	CHECK_UNSUP(aclrtGetEventAvailNum((uint32_t *)0), "aclrtGetEventAvailNum");
	CHECK_UNSUP(aclrtGetEventId((aclrtEvent)0, (uint32_t *)0), "aclrtGetEventId");
	CHECK_UNSUP(aclrtGetHardwareSyncAddr((void **)0), "aclrtGetHardwareSyncAddr");
	CHECK_UNSUP(aclrtGetMemUceInfo((int32_t)0, (aclrtMemUceInfo *)0, (size_t)0, (size_t *)0), "aclrtGetMemUceInfo");
	CHECK_UNSUP(aclrtGetMemUsageInfo((int32_t)0, (aclrtMemUsageInfo *)0, (size_t)0, (size_t *)0), "aclrtGetMemUsageInfo");
	CHECK_UNSUP(aclrtGetPrimaryCtxState((int32_t)0, (uint32_t *)0, (int32_t *)0), "aclrtGetPrimaryCtxState");
	CHECK_UNSUP(aclrtGetStreamAttribute((aclrtStream)0, (aclrtStreamAttr)0, (aclrtStreamAttrValue *)0), "aclrtGetStreamAttribute");
	CHECK_UNSUP(aclrtGetStreamAvailableNum((uint32_t *)0), "aclrtGetStreamAvailableNum");
	CHECK_UNSUP(aclrtMallocForTaskScheduler((void **)0, (size_t)0, (aclrtMemMallocPolicy)0, (aclrtMallocConfig *)0), "aclrtMallocForTaskScheduler");
	CHECK_UNSUP(aclrtMemUceRepair((int32_t)0, (aclrtMemUceInfo *)0, (size_t)0), "aclrtMemUceRepair");
	CHECK_UNSUP(aclrtProfTrace((void *)0, (int32_t)0, (aclrtStream)0), "aclrtProfTrace");
	CHECK_UNSUP(aclrtSetStreamAttribute((aclrtStream)0, (aclrtStreamAttr)0, (aclrtStreamAttrValue *)0), "aclrtSetStreamAttribute");
}

int main(void)
{
	return tap_main();
}
