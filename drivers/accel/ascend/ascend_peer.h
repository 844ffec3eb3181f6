/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Peer access between devices of one process (DRM_IOCTL_ASCEND_PEER).
 *
 * A link says "file A (device a) may reach file B (device b)": one
 * direction, between two files the calling process opened.  Links are
 * weak: neither file keeps the other alive; either file's postclose
 * removes every link naming it, so there are no reference cycles.
 */
#ifndef __ASCEND_PEER_H__
#define __ASCEND_PEER_H__

#include <linux/list.h>
#include <linux/rwsem.h>
#include <linux/types.h>

struct ascend_dma_span;
struct ascend_file;
struct ascend_vm;
struct ascend_vm_mapping;
struct ascend_vm_seg;
struct file;

/**
 * struct ascend_peer_link - A may reach B
 * @from: the enabling file (A); the link is in its @peer_links
 * @to: the peer file (B), on another device; the link is in its
 *	@peer_users
 * @from_node: entry in @from->peer_links
 * @to_node: entry in @to->peer_users
 */
struct ascend_peer_link {
	struct ascend_file *from;
	struct ascend_file *to;
	struct list_head from_node;
	struct list_head to_node;
};

/*
 * Protects every file's peer_links and peer_users lists and the links.
 * Users of a link (a copy reaching a peer's memory) hold it for read for
 * as long as they use the peer file; enable, disable and postclose take it
 * for write, so a closing file waits for those users before it goes.
 * Order: this before any ascend_vm.lock; the vm locks of two devices are
 * taken by increasing device index.
 */
extern struct rw_semaphore ascend_peer_rwsem;

/*
 * Surprise removal of a device whose adev->lost is set: returns once no
 * job that may reach its memory through a peer link runs; later ones
 * ignore links to it (ascend_drv.c).
 */
void ascend_peer_barrier(void);

/*
 * @af registered its VA window: rewrite the device MMU's peer window
 * table of every file linked to it.  Takes ascend_peer_rwsem.
 */
void ascend_peer_window_set(struct ascend_file *af);

/* Per-file state: from open and postclose (ascend_drv.c). */
void ascend_peer_file_init(struct ascend_file *af);
/* Removes every link from or to @af; waits for their users. */
void ascend_peer_file_fini(struct ascend_file *af);

/*
 * The state machine behind the ioctl, with ascend_peer_rwsem held for
 * write (ENABLE, DISABLE) or read (QUERY).  @to is a file of another
 * device.  ENABLE: -EEXIST if enabled, -ENOMEM; DISABLE: -ENOENT if not
 * enabled; QUERY: 0.  *@status is 1 if @from may reach @to afterwards.
 */
int ascend_peer_op_locked(struct ascend_file *from, struct ascend_file *to,
			  u32 op, u32 *status);

/* Is there a link @from -> @to?  ascend_peer_rwsem held. */
bool ascend_peer_linked_locked(struct ascend_file *from,
			       struct ascend_file *to);

/*
 * The file @from may reach whose VA window holds [@va, @va + @len), or
 * NULL.  ascend_peer_rwsem held (for read) across the use of the result.
 */
struct ascend_file *ascend_peer_find_locked(struct ascend_file *from,
					    u64 va, u64 len);

/**
 * struct ascend_peer_ctx - the address spaces one copy of a file may reach
 * @af: the file issuing the copy (its queue, or its ioctl)
 * @local: @af's own address space
 * @vms: @local and the address space of every file @af has a link to,
 *	locked, in lock order (device index, then address)
 * @nr: entries in @vms
 * @one: storage for @vms without links
 *
 * ascend_peer_ctx_lock() takes ascend_peer_rwsem for read and every
 * vm->lock of @vms, in order; they stay held until ascend_peer_ctx_unlock(),
 * i.e. across the DMA job: a peer's memory cannot be unmapped (freed) under
 * the engines, and a peer file cannot finish closing.  Holding the locks of
 * every linked peer, not just the ones a copy names, lets the engines
 * translate addresses they read at execution (indirect, offset, batch).
 */
struct ascend_peer_ctx {
	struct ascend_file *af;
	struct ascend_vm *local;
	struct ascend_vm **vms;
	unsigned int nr;
	struct ascend_vm *one;
};

/* 0, or -ENOMEM with nothing held.  Sleeps; no vm->lock may be held. */
int ascend_peer_ctx_lock(struct ascend_peer_ctx *ctx, struct ascend_file *af);
void ascend_peer_ctx_unlock(struct ascend_peer_ctx *ctx);

/* The file whose address space is @vm (every ascend_vm is in a file). */
struct ascend_file *ascend_vm_file(struct ascend_vm *vm);

/*
 * The address space that holds [@va, @va + @len) for @ctx: a linked peer's
 * when its VA window holds the whole range, else the local one.
 */
struct ascend_vm *ascend_peer_ctx_vm(const struct ascend_peer_ctx *ctx,
				     u64 va, u64 len);

/*
 * Lock order of two address spaces (device index, then address): the one
 * taken first compares lower.  For the lock and for KUnit.
 */
int ascend_peer_vm_cmp(const struct ascend_vm *a, const struct ascend_vm *b);

/*
 * Segments of a peer's address space as the issuing device sees them: its
 * HBM becomes ASCEND_AS_PEER(peer index).  -EFAULT for anything else (a
 * peer's window holds only its HBM).
 */
int ascend_peer_retag(struct ascend_vm_seg *segs, int n, unsigned int index);

/*
 * Through @ctx: ascend_vm_claims_locked(), ascend_vm_lookup_access_locked(),
 * ascend_vm_translate_access_locked() and ascend_vm_span_locked(), where a
 * range in a linked peer's window resolves through the peer's MMU into
 * ASCEND_AS_PEER(n) segments.
 */
bool ascend_peer_claims(const struct ascend_peer_ctx *ctx, u64 addr, u64 len);
struct ascend_vm_mapping *ascend_peer_lookup(const struct ascend_peer_ctx *ctx,
					     u64 va, u64 len, bool write,
					     u64 *offset);
int ascend_peer_translate(const struct ascend_peer_ctx *ctx, u64 va, u64 len,
			  bool write, struct ascend_vm_seg **segs);
int ascend_peer_span(const struct ascend_peer_ctx *ctx, u64 va, u64 len,
		     bool write, struct ascend_dma_span *span);

/* ascend_drv.c: the ascend file behind an open @f, or NULL if not ours. */
struct ascend_file *ascend_file_from_file(struct file *f);

#endif /* __ASCEND_PEER_H__ */
