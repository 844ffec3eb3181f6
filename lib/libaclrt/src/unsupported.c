/* SPDX-License-Identifier: MIT */
/*
 * unsupported.c - the declared API this libaclrt does not implement.
 *
 * Every function in the public headers must link, so that CANN programs
 * build unchanged; the ones below fail at run time with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT and an aclGetRecentErrMsg() text naming
 * the function.  One ACL_STUB*() line per function, name first, so the list
 * can be extracted for the documentation with:
 *
 *	grep -oE '^ACL_STUB[A-Z_]*\([A-Za-z0-9_]+' lib/libaclrt/src/unsupported.c | sed 's/.*(//'
 *
 * Implementing a function means deleting its line here.  The prototypes
 * come from the public headers, so a stub whose parameters drift from its
 * declaration fails to compile.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_platform.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "errmsg.h"

/* Stubs ignore their arguments by design. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* aclError-returning function: fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
#define ACL_STUB(name, ...)						\
	ACL_FUNC_VISIBILITY aclError name(__VA_ARGS__)			\
	{								\
		return acl_unsupported();				\
	}

/* Handle-returning function: records the same message, returns NULL. */
#define ACL_STUB_NULL(name, type, ...)					\
	ACL_FUNC_VISIBILITY type name(__VA_ARGS__)			\
	{								\
		(void)acl_unsupported();				\
		return NULL;						\
	}

/* Function returning a value of @type: the same message, returns @val. */
#define ACL_STUB_VAL(name, type, val, ...)				\
	ACL_FUNC_VISIBILITY type name(__VA_ARGS__)			\
	{								\
		(void)acl_unsupported();				\
		return (val);						\
	}

/* Function returning nothing: records the same message. */
#define ACL_STUB_VOID(name, ...)					\
	ACL_FUNC_VISIBILITY void name(__VA_ARGS__)			\
	{								\
		(void)acl_unsupported();				\
	}

ACL_STUB(aclrtMemFlush, void *devPtr, size_t size)
ACL_STUB(aclrtMemInvalidate, void *devPtr, size_t size)
ACL_STUB(aclrtMemP2PMap, void *devPtr, size_t size, int32_t dstDevId, uint64_t flags)
ACL_STUB_NULL(aclrtCreateBinary, aclrtBinary, const void *data, size_t dataLen)
ACL_STUB(aclrtDestroyBinary, aclrtBinary binary)
ACL_STUB(aclrtBinaryLoad, const aclrtBinary binary, aclrtBinHandle *binHandle)
ACL_STUB(aclrtLaunchKernelWithHostArgs, aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum)

/* acl_prof.h (profiling: no profiler for the emulated NPU) */
ACL_STUB(aclprofInit, const char *profilerResultPath, size_t length)
ACL_STUB(aclprofFinalize, void)
ACL_STUB(aclprofStart, const aclprofConfig *profilerConfig)
ACL_STUB_NULL(aclprofCreateConfig, aclprofConfig *, uint32_t *deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics, const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig)
ACL_STUB(aclprofDestroyConfig, const aclprofConfig *profilerConfig)
ACL_STUB(aclprofStop, const aclprofConfig *profilerConfig)
ACL_STUB(aclprofSetConfig, aclprofConfigType configType, const char *config, size_t configLength)
ACL_STUB(aclprofModelSubscribe, uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig)
ACL_STUB(aclprofModelUnSubscribe, uint32_t modelId)
ACL_STUB_NULL(aclprofCreateSubscribeConfig, aclprofSubscribeConfig *, int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics, void *fd)
ACL_STUB(aclprofDestroySubscribeConfig, const aclprofSubscribeConfig *profSubscribeConfig)
ACL_STUB(aclprofGetOpDescSize, size_t *opDescSize)
ACL_STUB(aclprofGetOpNum, const void *opInfo, size_t opInfoLen, uint32_t *opNumber)
ACL_STUB(aclprofGetOpTypeLen, const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen)
ACL_STUB(aclprofGetOpType, const void *opInfo, size_t opInfoLen, uint32_t index, char *opType, size_t opTypeLen)
ACL_STUB(aclprofGetOpNameLen, const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen)
ACL_STUB(aclprofGetOpName, const void *opInfo, size_t opInfoLen, uint32_t index, char *opName, size_t opNameLen)
ACL_STUB_VAL(aclprofGetOpStart, uint64_t, 0, const void *opInfo, size_t opInfoLen, uint32_t index)
ACL_STUB_VAL(aclprofGetOpEnd, uint64_t, 0, const void *opInfo, size_t opInfoLen, uint32_t index)
ACL_STUB_VAL(aclprofGetOpDuration, uint64_t, 0, const void *opInfo, size_t opInfoLen, uint32_t index)
ACL_STUB_VAL(aclprofGetModelId, size_t, 0, const void *opInfo, size_t opInfoLen, uint32_t index)
ACL_STUB_VAL(aclprofGetOpFlag, aclprofSubscribeOpFlag, ACL_SUBSCRIBE_NONE, const void *opInfo, size_t opInfoLen, uint32_t index)
ACL_STUB_NULL(aclprofGetOpAttriValue, const char *, const void *opInfo, size_t opInfoLen, uint32_t index, aclprofSubscribeOpAttri attri)
ACL_STUB(aclprofGetStepTimestamp, aclprofStepInfo *stepInfo, aclprofStepTag tag, aclrtStream stream)
ACL_STUB_NULL(aclprofCreateStepInfo, aclprofStepInfo *, void)
ACL_STUB_VOID(aclprofDestroyStepInfo, aclprofStepInfo *stepinfo)
ACL_STUB_NULL(aclprofCreateStamp, void *, void)
ACL_STUB_VOID(aclprofDestroyStamp, void *stamp)
ACL_STUB(aclprofPush, void *stamp)
ACL_STUB(aclprofPop, void)
ACL_STUB(aclprofRangeStart, void *stamp, uint32_t *rangeId)
ACL_STUB(aclprofRangeStop, uint32_t rangeId)
ACL_STUB(aclprofSetStampTraceMessage, void *stamp, const char *msg, uint32_t msgLen)
ACL_STUB(aclprofMark, void *stamp)
ACL_STUB(aclprofMarkEx, const char *msg, size_t msgLen, aclrtStream stream)
ACL_STUB_VAL(aclprofStr2Id, uint64_t, 0, const char *message)
ACL_STUB(aclprofRangePushEx, aclprofEventAttributes *attr)
ACL_STUB(aclprofRangePop, void)

/* acl_dump.h (dump: no dump tools for the emulated NPU) */
ACL_STUB(acldumpRegCallback, int32_t (*const messageCallback)(const acldumpChunk *, int32_t), int32_t flag)
ACL_STUB_VOID(acldumpUnregCallback, void)
ACL_STUB(aclopStartDumpArgs, uint32_t dumpType, const char *path)
ACL_STUB(aclopStopDumpArgs, uint32_t dumpType)
ACL_STUB_NULL(acldumpGetPath, const char *, acldumpType dumpType)
ACL_STUB(acldumpSaveExceptionInfo, const char *fileName, const char *userTag, const acldumpTensorInfo *tensors, size_t tensorCount)
ACL_STUB(acldumpGetExceptionInfoPath, char *path, size_t maxLen)

/* acl_tdt.h (TDT data channels: no device-side channel service) */
ACL_STUB_VAL(acltdtGetTensorTypeFromItem, acltdtTensorType, ACL_TENSOR_DATA_UNDEFINED, const acltdtDataItem *dataItem)
ACL_STUB_VAL(acltdtGetDataTypeFromItem, aclDataType, ACL_DT_UNDEFINED, const acltdtDataItem *dataItem)
ACL_STUB_NULL(acltdtGetDataAddrFromItem, void *, const acltdtDataItem *dataItem)
ACL_STUB_VAL(acltdtGetDataSizeFromItem, size_t, 0, const acltdtDataItem *dataItem)
ACL_STUB_VAL(acltdtGetDimNumFromItem, size_t, 0, const acltdtDataItem *dataItem)
ACL_STUB(acltdtGetSliceInfoFromItem, const acltdtDataItem *dataItem, size_t *sliceNum, size_t *sliceId)
ACL_STUB(acltdtGetDimsFromItem, const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum)
ACL_STUB_NULL(acltdtCreateDataItem, acltdtDataItem *, acltdtTensorType tdtType, const int64_t *dims, size_t dimNum, aclDataType dataType, void *data, size_t size)
ACL_STUB(acltdtDestroyDataItem, acltdtDataItem *dataItem)
ACL_STUB_NULL(acltdtCreateDataset, acltdtDataset *, void)
ACL_STUB(acltdtDestroyDataset, acltdtDataset *dataset)
ACL_STUB_NULL(acltdtGetDataItem, acltdtDataItem *, const acltdtDataset *dataset, size_t index)
ACL_STUB(acltdtAddDataItem, acltdtDataset *dataset, acltdtDataItem *dataItem)
ACL_STUB_VAL(acltdtGetDatasetSize, size_t, 0, const acltdtDataset *dataset)
ACL_STUB_NULL(acltdtGetDatasetName, const char *, const acltdtDataset *dataset)
ACL_STUB(acltdtStopChannel, acltdtChannelHandle *handle)
ACL_STUB_NULL(acltdtCreateChannel, acltdtChannelHandle *, uint32_t deviceId, const char *name)
ACL_STUB_NULL(acltdtCreateChannelWithCapacity, acltdtChannelHandle *, uint32_t deviceId, const char *name, size_t capacity)
ACL_STUB(acltdtDestroyChannel, acltdtChannelHandle *handle)
ACL_STUB(acltdtCleanChannel, acltdtChannelHandle *handle)
ACL_STUB(acltdtSendTensor, const acltdtChannelHandle *handle, const acltdtDataset *dataset, int32_t timeout)
ACL_STUB(acltdtReceiveTensor, const acltdtChannelHandle *handle, acltdtDataset *dataset, int32_t timeout)
ACL_STUB(acltdtQueryChannelSize, const acltdtChannelHandle *handle, size_t *size)

/* acl_tdt_queue.h (TDT queues: no queue-scheduling service) */
ACL_STUB(acltdtCreateQueue, const acltdtQueueAttr *attr, uint32_t *qid)
ACL_STUB(acltdtDestroyQueue, uint32_t qid)
ACL_STUB(acltdtEnqueue, uint32_t qid, acltdtBuf buf, int32_t timeout)
ACL_STUB(acltdtDequeue, uint32_t qid, acltdtBuf *buf, int32_t timeout)
ACL_STUB(acltdtEnqueueData, uint32_t qid, const void *data, size_t dataSize, const void *userData, size_t userDataSize, int32_t timeout, uint32_t rsv)
ACL_STUB(acltdtDequeueData, uint32_t qid, void *data, size_t dataSize, size_t *retDataSize, void *userData, size_t userDataSize, int32_t timeout)
ACL_STUB(acltdtGrantQueue, uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout)
ACL_STUB(acltdtAttachQueue, uint32_t qid, int32_t timeout, uint32_t *permission)
ACL_STUB(acltdtBindQueueRoutes, acltdtQueueRouteList *qRouteList)
ACL_STUB(acltdtUnbindQueueRoutes, acltdtQueueRouteList *qRouteList)
ACL_STUB(acltdtQueryQueueRoutes, const acltdtQueueRouteQueryInfo *queryInfo, acltdtQueueRouteList *qRouteList)
ACL_STUB(acltdtAllocBuf, size_t size, uint32_t type, acltdtBuf *buf)
ACL_STUB(acltdtFreeBuf, acltdtBuf buf)
ACL_STUB(acltdtGetBufData, const acltdtBuf buf, void **dataPtr, size_t *size)
ACL_STUB(acltdtSetBufDataLen, acltdtBuf buf, size_t len)
ACL_STUB(acltdtGetBufDataLen, acltdtBuf buf, size_t *len)
ACL_STUB(acltdtAppendBufChain, acltdtBuf headBuf, acltdtBuf buf)
ACL_STUB(acltdtGetBufChainNum, acltdtBuf headBuf, uint32_t *num)
ACL_STUB(acltdtGetBufFromChain, acltdtBuf headBuf, uint32_t index, acltdtBuf *buf)
ACL_STUB(acltdtGetBufUserData, const acltdtBuf buf, void *dataPtr, size_t size, size_t offset)
ACL_STUB(acltdtSetBufUserData, acltdtBuf buf, const void *dataPtr, size_t size, size_t offset)
ACL_STUB(acltdtCopyBufRef, const acltdtBuf buf, acltdtBuf *newBuf)
ACL_STUB_NULL(acltdtCreateQueueAttr, acltdtQueueAttr *, void)
ACL_STUB(acltdtDestroyQueueAttr, const acltdtQueueAttr *attr)
ACL_STUB(acltdtSetQueueAttr, acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len, const void *param)
ACL_STUB(acltdtGetQueueAttr, const acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len, size_t *paramRetSize, void *param)
ACL_STUB_NULL(acltdtCreateQueueRoute, acltdtQueueRoute *, uint32_t srcId, uint32_t dstId)
ACL_STUB(acltdtDestroyQueueRoute, const acltdtQueueRoute *route)
ACL_STUB(acltdtGetQueueRouteParam, const acltdtQueueRoute *route, acltdtQueueRouteParamType type, size_t len, size_t *paramRetSize, void *param)
ACL_STUB_NULL(acltdtCreateQueueRouteList, acltdtQueueRouteList *, void)
ACL_STUB(acltdtDestroyQueueRouteList, const acltdtQueueRouteList *routeList)
ACL_STUB(acltdtAddQueueRoute, acltdtQueueRouteList *routeList, const acltdtQueueRoute *route)
ACL_STUB(acltdtGetQueueRoute, const acltdtQueueRouteList *routeList, size_t index, acltdtQueueRoute *route)
ACL_STUB_VAL(acltdtGetQueueRouteNum, size_t, 0, const acltdtQueueRouteList *routeList)
ACL_STUB_NULL(acltdtCreateQueueRouteQueryInfo, acltdtQueueRouteQueryInfo *, void)
ACL_STUB(acltdtDestroyQueueRouteQueryInfo, const acltdtQueueRouteQueryInfo *info)
ACL_STUB(acltdtSetQueueRouteQueryInfo, acltdtQueueRouteQueryInfo *param, acltdtQueueRouteQueryInfoParamType type, size_t len, const void *value)

/* acl_platform.h (platform description: use aclrtGetDeviceInfo / aclrtGetSocName) */
ACL_STUB(aclplatformGetDeviceInfo, aclplatformDevInfo infoType, char *value, uint32_t maxLen)
ACL_STUB(aclplatformGetInstructionInfo, aclplatformCoreType type, const char *instruction, char *value, uint32_t maxLen)

/* acl_rt_memory_soma.h (stream-ordered memory pools: not implemented yet) */
ACL_STUB(aclrtMemPoolCreate, aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps)
ACL_STUB(aclrtMemPoolDestroy, const aclrtMemPool memPool)
ACL_STUB(aclrtMemPoolSetAttr, aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
ACL_STUB(aclrtMemPoolGetAttr, aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
ACL_STUB(aclrtMemPoolMallocAsync, void **ptr, size_t size, aclrtMemPool memPool, aclrtStream stream)
ACL_STUB(aclrtMemPoolFreeAsync, void *ptr, aclrtStream stream)
ACL_STUB(aclrtMemPoolTrimTo, aclrtMemPool memPool, size_t minBytesToKeep)

/* acl_rt.h: per-stream core limits (libaclrt keeps per-device ones only) */
ACL_STUB(aclrtGetStreamResLimit, aclrtStream stream, aclrtDevResLimitType type, uint32_t *value)
ACL_STUB(aclrtSetStreamResLimit, aclrtStream stream, aclrtDevResLimitType type, uint32_t value)
ACL_STUB(aclrtResetStreamResLimit, aclrtStream stream)
ACL_STUB(aclrtUseStreamResInCurrentThread, aclrtStream stream)
ACL_STUB(aclrtUnuseStreamResInCurrentThread, aclrtStream stream)
/* deprecated in CANN for aclsysGetVersionStr/Num, which are implemented */
ACL_STUB(aclsysGetCANNVersion, aclCANNPackageName name, aclCANNPackageVersion *version)
/* acl_rt.h: kernel arguments / function of a failed task (the fault record
 * has neither; see errinfo.c) */
ACL_STUB(aclrtGetArgsFromExceptionInfo, const aclrtExceptionInfo *info, void **devArgsPtr, uint32_t *devArgsLen)
ACL_STUB(aclrtGetFuncHandleFromExceptionInfo, const aclrtExceptionInfo *info, aclrtFuncHandle *func)
/* acl_rt.h: the saturation-mode overflow workspace (the device cannot
 * saturate) and the check-mode status calls, whose modes are undocumented
 * (overflow.c implements aclrtGet/ResetOverflowStatus) */
ACL_STUB(aclrtCtxGetFloatOverflowAddr, void **overflowAddr)
ACL_STUB(aclrtNpuGetFloatOverFlowStatus, void *outputAddr, uint64_t outputSize, uint32_t checkMode, aclrtStream stream)
ACL_STUB(aclrtNpuClearFloatOverFlowStatus, uint32_t checkMode, aclrtStream stream)
/* acl_rt.h: functions acl_rt_api.h's overloads forward to; op execution
 * timeouts, managed memory and device symbols are not implemented yet */
ACL_STUB(aclrtSetOpExecuteTimeOutV2, uint64_t timeout, uint64_t *actualTimeout)
ACL_STUB(aclrtGetSymbolAddress, const void *symbol, void **devPtr)
ACL_STUB(aclrtGetSymbolSize, const void *symbol, size_t *size)
ACL_STUB(aclrtMemcpyFromSymbol, void *dst, size_t dstMax, const void *symbol, size_t count, size_t offset, aclrtMemcpyKind kind)
ACL_STUB(aclrtMemcpyFromSymbolAsync, void *dst, size_t dstMax, const void *symbol, size_t count, size_t offset, aclrtMemcpyKind kind, aclrtStream stream)
ACL_STUB(aclrtMemcpyToSymbol, const void *symbol, const void *src, size_t count, size_t offset, aclrtMemcpyKind kind)
ACL_STUB(aclrtMemcpyToSymbolAsync, const void *symbol, const void *src, size_t count, size_t offset, aclrtMemcpyKind kind, aclrtStream stream)

/* ---- the rest of acl_rt.h (issue 16) ---- */
/* acl_rt.h: issue 17: virtual, managed and shareable memory */
ACL_STUB(aclrtHostMemMapCapabilities, uint32_t deviceId, aclrtHacType hacType, aclrtHostMemMapCapability *capabilities)
ACL_STUB(aclrtMemMapSelectedLink, void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx)
ACL_STUB(aclrtMemMapSetLink, aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink)
ACL_STUB(aclrtReserveMemAddressNoUCMemory, void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags)
/* acl_rt.h: issue 18: model run instances, labels and the tasks they hold */
ACL_STUB(aclrtActiveStream, aclrtStream activeStream, aclrtStream stream)
ACL_STUB(aclrtPersistentTaskClean, aclrtStream stream)
ACL_STUB(aclrtSwitchStream, void *leftValue, aclrtCondition cond, void *rightValue, aclrtCompareDataType dataType, aclrtStream trueStream, aclrtStream falseStream, aclrtStream stream)
ACL_STUB(aclrtTaskUpdateAsync, aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info, aclrtStream execStream)
/* acl_rt.h: model dump configuration: no dump tools for the emulated NPU */
ACL_STUB(aclmdlFinalizeDump)
ACL_STUB(aclmdlInitDump)
ACL_STUB(aclmdlSetDump, const char *dumpCfgPath)
/* acl_rt.h: mbufs: no device-side buffer service */
ACL_STUB(aclrtAllocBuf, aclrtMbuf *buf, size_t size)
ACL_STUB(aclrtAppendBufChain, aclrtMbuf headBuf, aclrtMbuf buf)
ACL_STUB(aclrtCopyBufRef, const aclrtMbuf buf, aclrtMbuf *newBuf)
ACL_STUB(aclrtFreeBuf, aclrtMbuf buf)
ACL_STUB(aclrtGetBufChainNum, aclrtMbuf headBuf, uint32_t *num)
ACL_STUB(aclrtGetBufData, const aclrtMbuf buf, void **dataPtr, size_t *size)
ACL_STUB(aclrtGetBufDataLen, aclrtMbuf buf, size_t *len)
ACL_STUB(aclrtGetBufFromChain, aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf)
ACL_STUB(aclrtGetBufUserData, const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset)
ACL_STUB(aclrtSetBufDataLen, aclrtMbuf buf, size_t len)
ACL_STUB(aclrtSetBufUserData, aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset)
/* acl_rt.h: cache maintenance and barriers: no cache operations on the device */
ACL_STUB(aclrtCmoAsync, void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream)
ACL_STUB(aclrtCmoAsyncWithBarrier, void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId, aclrtStream stream)
ACL_STUB(aclrtCmoAsyncWithDesc, void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void *reserve)
ACL_STUB(aclrtCmoGetDescSize, size_t *size)
ACL_STUB(aclrtCmoSetDesc, void *cmoDesc, void *src, size_t size)
ACL_STUB(aclrtCmoWaitBarrier, aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag)
ACL_STUB(aclrtDeviceL2CacheFlush, void *rsv)
/* acl_rt.h: kernel binaries and functions: only the built-in library, which has no such metadata */
ACL_STUB(aclrtBinaryGetDevAddress, const aclrtBinHandle binHandle, void **binAddr, size_t *binSize)
ACL_STUB(aclrtBinaryGetFunctionByEntry, aclrtBinHandle binHandle, uint64_t funcEntry, aclrtFuncHandle *funcHandle)
ACL_STUB(aclrtBinaryGetGlobal, aclrtBinHandle binHandle, const char *name, void **dptr, size_t *size)
ACL_STUB(aclrtBinarySetExceptionCallback, aclrtBinHandle binHandle, aclrtOpExceptionCallback callback, void *userData)
ACL_STUB(aclrtFunctionGetAvailDynUbufPerBlock, void *func, uint32_t flags, size_t *dynamicUbufSize)
ACL_STUB(aclrtFunctionGetBinary, const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle)
ACL_STUB(aclrtFunctionGetParamCount, const void *func, size_t *paramCount)
ACL_STUB(aclrtFunctionGetParamInfo, const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
ACL_STUB(aclrtGetFuncBySymbol, const void *symbol, aclrtFuncHandle *funcHandle)
ACL_STUB(aclrtGetFunctionAddr, aclrtFuncHandle funcHandle, void **aicAddr, void **aivAddr)
ACL_STUB(aclrtGetFunctionAttribute, aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType, int64_t *attrValue)
ACL_STUB(aclrtGetFunctionName, aclrtFuncHandle funcHandle, uint32_t maxLen, char *name)
ACL_STUB(aclrtGetFunctionSize, aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize)
ACL_STUB(aclrtKernelArgsGetHandleMemSize, aclrtFuncHandle funcHandle, size_t *memSize)
ACL_STUB(aclrtKernelArgsGetMemSize, aclrtFuncHandle funcHandle, size_t userArgsSize, size_t *actualArgsSize)
ACL_STUB(aclrtKernelArgsInitByUserMem, aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void *userHostMem, size_t actualArgsSize)
ACL_STUB(aclrtKernelArgsParaUpdate, aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void *param, size_t paramSize)
ACL_STUB(aclrtLaunchKernelWithArgsArray, void *func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args)
ACL_STUB(aclrtLaunchSIMTKernelWithArgsArray, void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize, aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args)
ACL_STUB(aclrtLaunchSIMTKernelWithHostArgs, void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize, aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum)
ACL_STUB(aclrtRegisterCpuFunc, const aclrtBinHandle handle, const char *funcName, const char *kernelName, aclrtFuncHandle *funcHandle)
/* acl_rt.h: snapshots (process backup/restore): not implemented */
ACL_STUB(aclrtSnapShotCallbackRegister, aclrtSnapShotStage stage, aclrtSnapShotCallBack callback, void *args)
ACL_STUB(aclrtSnapShotCallbackUnregister, aclrtSnapShotStage stage, aclrtSnapShotCallBack callback)
ACL_STUB(aclrtSnapShotProcessBackup, int pid, aclrtSnapShotBackupArgs *args)
ACL_STUB(aclrtSnapShotProcessLock, int pid, void *reserve)
ACL_STUB(aclrtSnapShotProcessRestore, int pid, aclrtSnapShotRestoreArgs *args)
ACL_STUB(aclrtSnapShotProcessUnlock, int pid, void *reserve)
/* acl_rt.h: resource groups: the emulated NPU has a single group */
ACL_STUB_NULL(aclrtCreateGroupInfo, aclrtGroupInfo *)
ACL_STUB(aclrtDestroyGroupInfo, aclrtGroupInfo *groupInfo)
ACL_STUB(aclrtGetAllGroupInfo, aclrtGroupInfo *groupInfo)
ACL_STUB(aclrtGetGroupCount, uint32_t *count)
ACL_STUB(aclrtGetGroupInfoDetail, const aclrtGroupInfo *groupInfo, int32_t groupIndex, aclrtGroupAttr attr, void *attrValue, size_t valueLen, size_t *paramRetSize)
ACL_STUB(aclrtSetGroup, int32_t groupId)
ACL_STUB(aclrtSetTsDevice, aclrtTsId tsId)
/* acl_rt.h: op and task timeouts, abort: no per-op timeouts in the driver yet */
ACL_STUB(aclrtDeviceTaskAbort, int32_t deviceId, uint32_t timeout)
ACL_STUB(aclrtGetOpExecuteTimeout, uint32_t *const timeoutMs)
ACL_STUB(aclrtGetOpTimeOutInterval, uint64_t *interval)
ACL_STUB(aclrtSetDeviceTaskAbortCallback, const char *regName, aclrtDeviceTaskAbortCallback callback, void *args)
ACL_STUB(aclrtSetOpExecuteTimeOut, uint32_t timeout)
ACL_STUB(aclrtSetOpExecuteTimeOutWithMs, uint32_t timeout)
ACL_STUB(aclrtSetOpWaitTimeout, uint32_t timeout)
/* acl_rt.h: init/finalize callbacks, device state callbacks */
ACL_STUB(aclFinalizeCallbackRegister, aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc, void *userData)
ACL_STUB(aclFinalizeCallbackUnRegister, aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc)
ACL_STUB(aclInitCallbackRegister, aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void *userData)
ACL_STUB(aclInitCallbackUnRegister, aclRegisterCallbackType type, aclInitCallbackFunc cbFunc)
ACL_STUB(aclrtRegDeviceStateCallback, const char *regName, aclrtDeviceStateCallback callback, void *args)
/* acl_rt.h: device, context, stream, event and memory functions not implemented yet */
ACL_STUB(aclrtCacheLastTaskExtendInfo, const char *const extendInfoPtr, const size_t infoSize)
ACL_STUB(aclrtCacheLastTaskOpInfo, const void *const infoPtr, const size_t infoSize)
ACL_STUB(aclrtCtxGetSysParamOpt, aclSysParamOpt opt, int64_t *value)
ACL_STUB(aclrtCtxSetSysParamOpt, aclSysParamOpt opt, int64_t value)
ACL_STUB(aclrtDeviceGetByPCIBusId, const char *pciBusId, int32_t *deviceId)
ACL_STUB(aclrtDeviceGetHostAtomicCapabilities, uint32_t *capabilities, const aclrtAtomicOperation *operations, const uint32_t count, int32_t deviceId)
ACL_STUB(aclrtDeviceGetLimit, aclrtDeviceLimit limit, size_t *value)
ACL_STUB(aclrtDeviceGetP2PAtomicCapabilities, uint32_t *capabilities, const aclrtAtomicOperation *operations, const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId)
ACL_STUB(aclrtDeviceGetPCIBusId, int32_t deviceId, char *pciBusId, int32_t len)
ACL_STUB(aclrtDeviceGetUuid, int32_t deviceId, aclrtUuid *uuid)
ACL_STUB(aclrtDeviceSetLimit, aclrtDeviceLimit limit, size_t value)
ACL_STUB(aclrtGetDevicesTopo, uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value)
ACL_STUB(aclrtGetEventAvailNum, uint32_t *eventCount)
ACL_STUB(aclrtGetEventId, aclrtEvent event, uint32_t *eventId)
ACL_STUB(aclrtGetHardwareSyncAddr, void **addr)
ACL_STUB(aclrtGetMemUceInfo, int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize, size_t *retSize)
ACL_STUB(aclrtGetMemUsageInfo, int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum, size_t *outputNum)
ACL_STUB(aclrtGetPrimaryCtxState, int32_t deviceId, uint32_t *flags, int32_t *active)
ACL_STUB(aclrtGetStreamAttribute, aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)
ACL_STUB(aclrtGetStreamAvailableNum, uint32_t *streamCount)
ACL_STUB(aclrtMallocForTaskScheduler, void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)
ACL_STUB(aclrtMemUceRepair, int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize)
ACL_STUB(aclrtProfTrace, void *userdata, int32_t length, aclrtStream stream)
ACL_STUB(aclrtSetStreamAttribute, aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)
