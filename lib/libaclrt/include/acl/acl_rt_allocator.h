/* SPDX-License-Identifier: MIT */
/*
 * acl_rt_allocator.h - handle types of CANN's user-supplied stream allocator
 * interface.  The aclrtAllocator* registration functions are not provided by
 * this library (see Documentation/userspace/unsupported.rst); the types are,
 * so that code naming them still compiles.
 */
#ifndef INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_
#define INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_ */
