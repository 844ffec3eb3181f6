/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The free ring: a per-file ring in shared memory on which user space
 * frees %DRM_ASCEND_BO_NO_HANDLE allocations by VA without a system call
 * (protocol: &struct drm_ascend_free_ring in ascend_accel.h).
 *
 * This file has the ring itself (the mapped area and the consumer, which
 * trusts nothing user space wrote); ascend_gem.c says what freeing an
 * entry means and when rings are drained.
 */
#ifndef __ASCEND_FREE_RING_H__
#define __ASCEND_FREE_RING_H__

#include <drm/drm_gem.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "ascend_accel.h"
#include "ascend_umem.h"

struct ascend_file;

/**
 * struct ascend_free_ring - one file's free ring
 * @base: GEM object that gives the area its mmap offset; the file holds
 *	one reference, each user mapping another
 * @mem: the area's pages (accounted, ascend_umem.h)
 * @shared: the area (@mem's kernel mapping): header, then @va
 * @va: the VA slots, @entries of them
 * @entries: slots (a power of two); the kernel's own copy
 * @lock: protects @head and the counters, and serialises consumers (the
 *	owner's ioctls and other files' statistics snapshots)
 * @head: entries consumed; the kernel's own copy, mirrored to @shared
 * @freed: entries that freed an allocation
 * @ignored: entries that named no live handle-less allocation of the file
 * @bad_tail: drains that found a corrupt tail and consumed nothing
 */
struct ascend_free_ring {
	struct drm_gem_object base;
	struct ascend_umem mem;
	struct drm_ascend_free_ring *shared;
	u64 *va;
	u32 entries;
	struct mutex lock;	/* protects head, freed, ignored, bad_tail */
	u64 head;
	u64 freed;
	u64 ignored;
	u64 bad_tail;
};

/*
 * Free one consumed entry: 0 when @va was the start of a live handle-less
 * allocation of @ctx's file and is freed now, else an error (ignored).
 */
typedef int (*ascend_free_ring_free_fn)(void *ctx, u64 va);

/*
 * A ring of @entries slots (0: the default; else a power of two up to
 * %DRM_ASCEND_FREE_RING_MAX_ENTRIES, -EINVAL otherwise) with an mmap
 * offset on @drm; ERR_PTR on failure.
 */
struct ascend_free_ring *ascend_free_ring_alloc(struct drm_device *drm,
						u32 entries);

/* Drop the creator's reference; user mappings keep the area alive. */
void ascend_free_ring_put(struct ascend_free_ring *ring);

/* Bytes user space maps. */
size_t ascend_free_ring_size(const struct ascend_free_ring *ring);

/*
 * Nothing to consume, without the lock: a hint only (a consumer that
 * races past it finds nothing, or what was published after the check).
 */
static inline bool ascend_free_ring_idle(struct ascend_free_ring *ring)
{
	return READ_ONCE(ring->shared->tail) == READ_ONCE(ring->head);
}

/*
 * Consume what user space published: read the tail (acquire), give up if
 * it is corrupt (behind the head or more than @entries ahead), call @fn
 * once per entry with the VA read once from its slot, then store the new
 * head.  At most @entries calls.  Returns the entries @fn freed.
 *
 * Inline, so that the caller's @fn is a direct call (or inlined): a drain
 * runs at the start of every BO_CREATE of a file with a ring.
 */
static inline unsigned int
ascend_free_ring_consume(struct ascend_free_ring *ring,
			 ascend_free_ring_free_fn fn, void *ctx)
{
	unsigned int freed = 0;
	u64 head, tail, n;

	mutex_lock(&ring->lock);
	head = ring->head;
	/* Pairs with user space's release store of the tail. */
	tail = smp_load_acquire(&ring->shared->tail);
	n = tail - head;	/* behind the head: huge, so corrupt too */
	if (n > ring->entries) {
		ring->bad_tail++;
		goto out;
	}
	for (; n; n--, head++) {
		u64 va = READ_ONCE(ring->va[head & (ring->entries - 1)]);

		if (fn(ctx, va))
			ring->ignored++;
		else
			freed++;
	}
	ring->freed += freed;
	WRITE_ONCE(ring->head, head);
	/* The slots were read before user space may reuse them. */
	smp_store_release(&ring->shared->head, head);
out:
	mutex_unlock(&ring->lock);
	return freed;
}

#endif /* __ASCEND_FREE_RING_H__ */
