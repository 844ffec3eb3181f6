// SPDX-License-Identifier: MIT
/*
 * host_overlay.c - aclrtHostRegister / aclrtHostRegisterV2 on memory that
 * came from aclrtMallocHost.
 *
 * CANN's runtime checks a registration only against earlier registrations,
 * so registering aclrtMallocHost memory succeeds there, and its zero-copy
 * sample does exactly that (allocate, register MAPPED, get the device
 * pointer, unregister, free).  Here that memory is pinned and in its
 * device's MMU at its host address already, so a registration over it has
 * nothing to pin: it is bookkeeping only, so that overlapping registrations
 * fail (507910) and aclrtHostUnregister finds it.  The pages stay the
 * allocation's: freeing the allocation drops its registrations.
 */
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

struct overlay {
	uintptr_t va;
	size_t size;
	uintptr_t alloc;	/* start of the aclrtMallocHost allocation */
	struct overlay *next;
};

static pthread_mutex_t ov_lock = PTHREAD_MUTEX_INITIALIZER;
static struct overlay *ov_list;

static bool overlaps(const struct overlay *o, uintptr_t lo, size_t n)
{
	return lo < o->va + o->size && o->va < lo + n;
}

/*
 * Register [ptr, +size), which lies inside the aclrtMallocHost allocation
 * @a, for the current device @dev_id.
 */
aclError host_overlay_add(void *ptr, uint64_t size, const struct acl_alloc *a, int dev_id)
{
	uintptr_t lo = (uintptr_t)ptr;
	struct overlay *o;

	if (!host_usable(a, dev_id))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "[%p, +%llu) is aclrtMallocHost memory of device %d%s; it cannot be registered for device %d",
			       ptr, (unsigned long long)size, a->dev_id,
			       a->hflags & HOST_F_ORPHAN ? ", which was reset" : "", dev_id);
	pthread_mutex_lock(&ov_lock);
	for (o = ov_list; o; o = o->next)
		if (overlaps(o, lo, size)) {
			pthread_mutex_unlock(&ov_lock);
			return acl_err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
				       "[%p, +%llu) overlaps the registered range [%#lx, +%zu) of aclrtMallocHost memory",
				       ptr, (unsigned long long)size, (unsigned long)o->va, o->size);
		}
	o = malloc(sizeof(*o));
	if (!o) {
		pthread_mutex_unlock(&ov_lock);
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	o->va = lo;
	o->size = size;
	o->alloc = a->va;
	o->next = ov_list;
	ov_list = o;
	pthread_mutex_unlock(&ov_lock);
	return ACL_SUCCESS;
}

/* aclrtHostUnregister(@ptr): true if @ptr started such a registration. */
bool host_overlay_remove(const void *ptr)
{
	struct overlay *o, **pp;

	pthread_mutex_lock(&ov_lock);
	for (pp = &ov_list; (o = *pp); pp = &o->next)
		if (o->va == (uintptr_t)ptr) {
			*pp = o->next;
			pthread_mutex_unlock(&ov_lock);
			free(o);
			return true;
		}
	pthread_mutex_unlock(&ov_lock);
	return false;
}

/* The allocation starting at @alloc is being freed: its registrations go. */
void host_overlay_drop(uintptr_t alloc)
{
	struct overlay *o, **pp;

	pthread_mutex_lock(&ov_lock);
	for (pp = &ov_list; (o = *pp);) {
		if (o->alloc == alloc) {
			*pp = o->next;
			free(o);
		} else {
			pp = &o->next;
		}
	}
	pthread_mutex_unlock(&ov_lock);
}
