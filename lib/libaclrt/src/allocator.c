// SPDX-License-Identifier: MIT
/*
 * allocator.c - the registry of acl_rt_allocator.h: a descriptor holds a
 * user allocator object and its callbacks; registering it with a stream
 * lets code that runs work on that stream (operator libraries) find it
 * with aclrtAllocatorGetByStream.
 *
 * As in CANN (hicann/runtime src/acl/aclrt_impl/allocator.cpp) the runtime
 * itself never allocates through it: the registry is a lookup service.
 * Registering copies the descriptor's contents (later changes to the
 * descriptor do not change the registration; GetByStream hands back the
 * descriptor itself and the copied callbacks); registering needs the
 * object, alloc, free and get-address callbacks (the advise one is
 * optional); a stream registered again is replaced; every NULL argument
 * is ACL_ERROR_INVALID_PARAM, and so is looking up a stream with no
 * registration.  Unlike CANN, a registration ends when its stream is
 * destroyed: stream memory is reused, and a new stream must not inherit
 * another's allocator.
 */
#include <stdlib.h>

#include "internal.h"

struct alloc_desc {
	aclrtAllocator obj;
	aclrtAllocatorAllocFunc alloc;
	aclrtAllocatorFreeFunc free;
	aclrtAllocatorAllocAdviseFunc advise;
	aclrtAllocatorGetAddrFromBlockFunc addr;
};

struct alloc_reg {
	struct alloc_reg *next;
	aclrtStream stream;
	aclrtAllocatorDesc user;	/* what was registered */
	struct alloc_desc copy;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;	/* reg_list */
static struct alloc_reg *reg_list;

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
	struct alloc_desc *d;

	API_ENTER();
	d = calloc(1, sizeof(*d));
	if (!d)
		acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	return d;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
	API_ENTER();
	if (!allocatorDesc)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
	free(allocatorDesc);
	return ACL_SUCCESS;
}

#define DESC_SETTER(fn, type, field, what)					\
	aclError fn(aclrtAllocatorDesc allocatorDesc, type v)			\
	{									\
		API_ENTER();							\
		if (!allocatorDesc)						\
			return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL"); \
		if (!v)								\
			return acl_err(ACL_ERROR_INVALID_PARAM, what " is NULL"); \
		((struct alloc_desc *)allocatorDesc)->field = v;		\
		return ACL_SUCCESS;						\
	}

DESC_SETTER(aclrtAllocatorSetObjToDesc, aclrtAllocator, obj, "allocator")
DESC_SETTER(aclrtAllocatorSetAllocFuncToDesc, aclrtAllocatorAllocFunc, alloc, "func")
DESC_SETTER(aclrtAllocatorSetFreeFuncToDesc, aclrtAllocatorFreeFunc, free, "func")
DESC_SETTER(aclrtAllocatorSetAllocAdviseFuncToDesc, aclrtAllocatorAllocAdviseFunc, advise, "func")
DESC_SETTER(aclrtAllocatorSetGetAddrFromBlockFuncToDesc, aclrtAllocatorGetAddrFromBlockFunc, addr, "func")

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
	const struct alloc_desc *d = allocatorDesc;
	struct alloc_reg *r;

	API_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "stream is NULL: an allocator is registered with an explicit stream");
	if (!d)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
	if (!d->obj)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc->obj is NULL");
	if (!d->alloc)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc->allocFunc is NULL");
	if (!d->free)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc->freeFunc is NULL");
	if (!d->addr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc->getAddrFromBlockFunc is NULL");
	pthread_mutex_lock(&reg_lock);
	for (r = reg_list; r && r->stream != stream; r = r->next)
		;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r) {
			pthread_mutex_unlock(&reg_lock);
			return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		}
		r->stream = stream;
		r->next = reg_list;
		reg_list = r;
	}
	r->user = allocatorDesc;
	r->copy = *d;
	pthread_mutex_unlock(&reg_lock);
	return ACL_SUCCESS;
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
				   aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
				   aclrtAllocatorFreeFunc *freeFunc,
				   aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
				   aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
	struct alloc_reg *r;

	API_ENTER();
	if (!allocatorDesc)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	pthread_mutex_lock(&reg_lock);
	for (r = reg_list; r && r->stream != stream; r = r->next)
		;
	if (r) {
		*allocatorDesc = r->user;
		if (allocator)
			*allocator = r->copy.obj;
		if (allocFunc)
			*allocFunc = r->copy.alloc;
		if (freeFunc)
			*freeFunc = r->copy.free;
		if (allocAdviseFunc)
			*allocAdviseFunc = r->copy.advise;
		if (getAddrFromBlockFunc)
			*getAddrFromBlockFunc = r->copy.addr;
	}
	pthread_mutex_unlock(&reg_lock);
	if (!r)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "stream %p has no allocator registered (aclrtAllocatorRegister)", stream);
	return ACL_SUCCESS;
}

static void unregister(aclrtStream stream)
{
	struct alloc_reg *r, **pp;

	pthread_mutex_lock(&reg_lock);
	for (pp = &reg_list; (r = *pp); pp = &r->next) {
		if (r->stream == stream) {
			*pp = r->next;
			free(r);
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
}

aclError aclrtAllocatorUnregister(aclrtStream stream)
{
	API_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	unregister(stream);
	return ACL_SUCCESS;
}

void allocator_stream_gone(struct acl_stream *s)
{
	unregister(s);
}
