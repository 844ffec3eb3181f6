// SPDX-License-Identifier: MIT
/*
 * test_headers_ext.c - the CANN headers beyond acl.h: acl_prof.h,
 * acl_dump.h, acl_tdt.h, acl_tdt_queue.h, acl_platform.h and
 * acl_rt_memory_soma.h.  Including them from C11 must compile; enum values
 * and struct layouts are pinned to CANN's (hicann/runtime
 * include/external/acl); every function links, and the unsupported ones
 * fail with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and a message naming them.
 */
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_platform.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

#include <stddef.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "../lib/tap.h"
#pragma GCC diagnostic pop

/* ---- acl_platform.h ---- */
_Static_assert(ACL_PLATFORM_AICORE_CNT == 0 && ACL_PLATFORM_L1_SIZE == 12, "");
_Static_assert(ACL_PLATFORM_NPU_ARCH == 15 && ACL_PLATFORM_MEMORY_TYPE == 16, "");
_Static_assert(ACL_PLATFORM_CORE_TYPE_VECTOR_CORE == 1, "");
_Static_assert(DAV_2201 == 2201 && DAV_3510 == 3510 && DAV_5162 == 5162 && DAV_RESV == 0xFFFF, "");
_Static_assert(L0_A == 0 && L1 == 3 && UB == 5 && HBM == 6, "");

/* ---- acl_rt_memory_soma.h ---- */
_Static_assert(ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES == 1, "");
_Static_assert(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD == 4 && ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH == 8, "");
_Static_assert(offsetof(aclrtMemPoolProps, handleType) == 4, "");
_Static_assert(offsetof(aclrtMemPoolProps, location) == 8, "");
_Static_assert(offsetof(aclrtMemPoolProps, maxSize) == 16, "");
_Static_assert(offsetof(aclrtMemPoolProps, reserved) == 24, "");
_Static_assert(sizeof(aclrtMemPoolProps) == 56, "");

/* ---- acl_dump.h ---- */
_Static_assert(ACL_DUMP_MAX_FILE_PATH_LENGTH == 4096 && ACL_DUMP_MAX_SHAPE_NUM == 25, "");
_Static_assert(ACL_OP_DUMP_OP_AICORE_ARGS == 1U, "");
_Static_assert(AIC_ERR_BRIEF_DUMP == 1 && DATA_DUMP == 4 && OVERFLOW_DUMP == 5, "");
_Static_assert(ACL_DUMP_TENSOR_WORKSPACE == 2 && ACL_DUMP_ADDR_RAW == 2 && ACL_DUMP_PLACEMENT_END == 2, "");
_Static_assert(offsetof(acldumpChunk, bufLen) == 4096, "");
_Static_assert(offsetof(acldumpChunk, offset) == 4104, "");
_Static_assert(offsetof(acldumpChunk, flag) == 4112, "");
_Static_assert(offsetof(acldumpChunk, dataBuf) == 4116, "");
_Static_assert(sizeof(acldumpChunk) == 4120, "");
_Static_assert(offsetof(acldumpTensorInfo, tensorSize) == 8, "");
_Static_assert(offsetof(acldumpTensorInfo, tensorAddr) == 24, "");
_Static_assert(offsetof(acldumpTensorInfo, argsOffset) == 40, "");
_Static_assert(offsetof(acldumpTensorInfo, shape) == 56, "");
_Static_assert(offsetof(acldumpTensorInfo, originShape) == 256, "");
_Static_assert(sizeof(acldumpTensorInfo) == 456, "");

/* ---- acl_prof.h ---- */
_Static_assert(ACL_PROF_ACL_API == 0x1ULL && ACL_PROF_TASK_TIME_L0 == 0x800ULL, "");
_Static_assert(ACL_PROF_GE_API_L1 == 0x01000000ULL && ACL_PROF_AICORE_SHAPE == 0x800000000ULL, "");
_Static_assert(ACL_PROF_MAX_OP_NAME_LEN == 257 && ACL_PROF_MAX_OP_TYPE_LEN == 65, "");
_Static_assert(ACL_PROF_TENSOR_DATA_SHAPE_LEN == 8 && ACL_PROF_EVENT_ATTR_VERSION == 1, "");
_Static_assert(ACL_AICORE_MEMORY_ACCESS == 8 && ACL_AICORE_NONE == 0xFF, "");
_Static_assert(ACL_SUBSCRIBE_OP_THREAD == 2 && ACL_SUBSCRIBE_NONE == 0xFF, "");
_Static_assert(ACL_SUBSCRIBE_ATTRI_NONE == 1, "");
_Static_assert(ACL_PROF_STORAGE_LIMIT == 1 && ACL_PROF_SYS_HARDWARE_MEM_FREQ == 3, "");
_Static_assert(ACL_PROF_PATH == 16 && ACL_PROF_ARGS_MAX == 17, "");
_Static_assert(sizeof(aclprofTensor) == 48, "");
_Static_assert(offsetof(aclprofTensorInfo, stream) == 32, "");
_Static_assert(offsetof(aclprofTensorInfo, tensors) == 40, "");
_Static_assert(sizeof(aclprofTensorInfo) == 48, "");
_Static_assert(offsetof(aclprofEventAttributes, messageType) == 4, "");
_Static_assert(offsetof(aclprofEventAttributes, message) == 8, "");
_Static_assert(sizeof(aclprofEventAttributes) == 16, "");

/* ---- acl_tdt.h / acl_tdt_queue.h ---- */
_Static_assert(ACL_TENSOR_DATA_UNDEFINED == -1 && ACL_TENSOR_DATA_TENSOR == 0, "");
_Static_assert(ACL_TENSOR_DATA_END_TENSOR == 4, "");
_Static_assert(ACL_TDT_QUEUE_PERMISSION_ENQUEUE == 4 && ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL == 2, "");
_Static_assert(ACL_TDT_QUEUE_DEPTH_UINT32 == 1 && ACL_TDT_QUEUE_ROUTE_STATUS_INT32 == 2, "");
_Static_assert(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL == 100 && ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32 == 2, "");
_Static_assert(ACL_TDT_DVPP_MEM == 1, "");

static int msg_names(const char *fn)
{
	const char *m = aclGetRecentErrMsg();

	return m && strstr(m, fn) != NULL;
}

#define CHECK_UNSUP(call, fn)						\
	do {								\
		CHECK_EQ((call), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);	\
		CHECK(msg_names(fn));					\
	} while (0)

TEST(prof_unsupported)
{
	aclprofEventAttributes attr = { 0 };
	uint32_t dev = 0, id = 0;

	CHECK_UNSUP(aclprofInit("/tmp", 4), "aclprofInit");
	CHECK_UNSUP(aclprofFinalize(), "aclprofFinalize");
	CHECK_UNSUP(aclprofStart(NULL), "aclprofStart");
	CHECK(aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL);
	CHECK(msg_names("aclprofCreateConfig"));
	CHECK(aclprofCreateStamp() == NULL);
	CHECK(msg_names("aclprofCreateStamp"));
	CHECK_EQ(aclprofStr2Id("x"), 0);
	CHECK(msg_names("aclprofStr2Id"));
	CHECK_EQ(aclprofGetOpFlag(NULL, 0, 0), ACL_SUBSCRIBE_NONE);
	CHECK_UNSUP(aclprofRangeStart(NULL, &id), "aclprofRangeStart");
	CHECK_UNSUP(aclprofRangePushEx(&attr), "aclprofRangePushEx");
	CHECK_UNSUP(aclprofMarkEx("m", 1, NULL), "aclprofMarkEx");
	aclprofDestroyStamp(NULL);
	CHECK(msg_names("aclprofDestroyStamp"));
}

TEST(dump_unsupported)
{
	char path[64];

	CHECK_UNSUP(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, "/tmp"), "aclopStartDumpArgs");
	CHECK_UNSUP(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), "aclopStopDumpArgs");
	CHECK_UNSUP(acldumpRegCallback(NULL, 0), "acldumpRegCallback");
	CHECK(acldumpGetPath(DATA_DUMP) == NULL);
	CHECK(msg_names("acldumpGetPath"));
	CHECK_UNSUP(acldumpGetExceptionInfoPath(path, sizeof(path)), "acldumpGetExceptionInfoPath");
	CHECK_UNSUP(acldumpSaveExceptionInfo("f", "t", NULL, 0), "acldumpSaveExceptionInfo");
	acldumpUnregCallback();
	CHECK(msg_names("acldumpUnregCallback"));
}

TEST(tdt_unsupported)
{
	acltdtBuf buf = NULL;
	uint32_t qid = 0;

	CHECK(acltdtCreateChannel(0, "c") == NULL);
	CHECK(msg_names("acltdtCreateChannel"));
	CHECK(acltdtCreateDataset() == NULL);
	CHECK_EQ(acltdtGetTensorTypeFromItem(NULL), ACL_TENSOR_DATA_UNDEFINED);
	CHECK_EQ(acltdtGetDataTypeFromItem(NULL), ACL_DT_UNDEFINED);
	CHECK_UNSUP(acltdtSendTensor(NULL, NULL, -1), "acltdtSendTensor");
	CHECK_UNSUP(acltdtCreateQueue(NULL, &qid), "acltdtCreateQueue");
	CHECK_UNSUP(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &buf), "acltdtAllocBuf");
	CHECK(acltdtCreateQueueRouteList() == NULL);
	CHECK_EQ(acltdtGetQueueRouteNum(NULL), 0);
	CHECK(msg_names("acltdtGetQueueRouteNum"));
}

TEST(platform_and_pool_unsupported)
{
	aclrtMemPoolProps props;
	aclrtMemPool pool = NULL;
	char v[32];

	memset(&props, 0, sizeof(props));
	CHECK_UNSUP(aclplatformGetDeviceInfo(ACL_PLATFORM_AICORE_CNT, v, sizeof(v)), "aclplatformGetDeviceInfo");
	CHECK_UNSUP(aclplatformGetInstructionInfo(ACL_PLATFORM_CORE_TYPE_AI_CORE, "mmad", v, sizeof(v)),
		    "aclplatformGetInstructionInfo");
	CHECK_UNSUP(aclrtMemPoolCreate(&pool, &props), "aclrtMemPoolCreate");
	CHECK_UNSUP(aclrtMemPoolTrimTo(pool, 0), "aclrtMemPoolTrimTo");
}

int main(void)
{
	return tap_main();
}
