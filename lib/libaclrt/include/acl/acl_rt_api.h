/* SPDX-License-Identifier: MIT */
/*
 * acl_rt_api.h - C++ convenience overloads of the runtime API, as in CANN's
 * acl/acl_rt_api.h.  Only C++ programs that include this file explicitly see
 * them; acl.h does not include it.  Each overload forwards to a C function.
 */
#ifndef INC_EXTERNAL_ACL_ACL_RT_API_H_
#define INC_EXTERNAL_ACL_ACL_RT_API_H_

#include "acl_rt.h"

#ifdef __cplusplus

/* aclrtSynchronizeStream with a timeout in ms. */
static inline aclError aclrtSynchronizeStream(aclrtStream stream, int32_t timeout)
{
    return aclrtSynchronizeStreamWithTimeout(stream, timeout);
}

/* aclrtCreateStream with a priority and ACL_STREAM_* flags. */
static inline aclError aclrtCreateStream(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    return aclrtCreateStreamWithConfig(stream, priority, flag);
}

/* aclrtCreateEvent with ACL_EVENT_* flags (re-recordable event). */
static inline aclError aclrtCreateEvent(aclrtEvent *event, uint32_t flag)
{
    return aclrtCreateEventExWithFlag(event, flag);
}

/* Typed aclrtMalloc: HUGE_FIRST policy, optional attributes. */
template <typename T>
static inline aclError aclrtMalloc(T **devPtr, size_t size, aclrtMallocConfig *cfg = nullptr)
{
    return aclrtMallocWithCfg(reinterpret_cast<void **>(devPtr), size, ACL_MEM_MALLOC_HUGE_FIRST, cfg);
}

/* Typed aclrtMemcpy: no void* casts needed. */
template <typename T, typename U>
static inline aclError aclrtMemcpy(T *dst, size_t destMax, const U *src, size_t count, aclrtMemcpyKind kind)
{
    return ::aclrtMemcpy(static_cast<void *>(dst), destMax, static_cast<const void *>(src), count, kind);
}

#endif /* __cplusplus */

#endif /* INC_EXTERNAL_ACL_ACL_RT_API_H_ */
