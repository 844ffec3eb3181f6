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

ACL_STUB(aclrtSetExceptionInfoCallback, aclrtExceptionInfoCallback callback)
ACL_STUB(aclrtMemFlush, void *devPtr, size_t size)
ACL_STUB(aclrtMemInvalidate, void *devPtr, size_t size)
ACL_STUB(aclrtMemGetAllocationGranularity, aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option, size_t *granularity)
ACL_STUB(aclrtMallocPhysical, aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags)
ACL_STUB(aclrtFreePhysical, aclrtDrvMemHandle handle)
ACL_STUB(aclrtReserveMemAddress, void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags)
ACL_STUB(aclrtReleaseMemAddress, void *virPtr)
ACL_STUB(aclrtMapMem, void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags)
ACL_STUB(aclrtUnmapMem, void *virPtr)
ACL_STUB(aclrtMemSetAccess, void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count)
ACL_STUB(aclrtMemExportToShareableHandle, aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags, uint64_t *shareableHandle)
ACL_STUB(aclrtMemImportFromShareableHandle, uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle)
ACL_STUB(aclrtMemSetPidToShareableHandle, uint64_t shareableHandle, int32_t *pid, size_t pidNum)
ACL_STUB(aclrtMemExportToShareableHandleV2, aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType shareType, void *shareableHandle)
ACL_STUB(aclrtMemImportFromShareableHandleV2, void *shareableHandle, aclrtMemSharedHandleType shareType, uint64_t flags, aclrtDrvMemHandle *handle)
ACL_STUB(aclrtMemP2PMap, void *devPtr, size_t size, int32_t dstDevId, uint64_t flags)
ACL_STUB_NULL(aclrtCreateBinary, aclrtBinary, const void *data, size_t dataLen)
ACL_STUB(aclrtDestroyBinary, aclrtBinary binary)
ACL_STUB(aclrtBinaryLoad, const aclrtBinary binary, aclrtBinHandle *binHandle)
ACL_STUB(aclrtLaunchKernelWithHostArgs, aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum)
