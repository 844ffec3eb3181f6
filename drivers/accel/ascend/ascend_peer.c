// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_ASCEND_PEER: one-directional peer links between files of
 * different devices opened by one process (see ascend_peer.h).
 *
 * The peer is named by a file descriptor.  It is resolved with fget(),
 * must be a file of this driver (its f_op is ours) on another device, and
 * both files must have been opened by the calling process (the thread
 * group recorded at open): a file received from, or inherited by, another
 * process gives no access to that process's memory (-EPERM).
 *
 * Copies of a file with links (ascend_copy.c, ascend_copy_ext.c) lock the
 * address spaces of every peer it links to (struct ascend_peer_ctx); a
 * range in a peer's VA window translates through the peer's MMU into the
 * peer's HBM, address space ASCEND_AS_PEER(peer device index), which the
 * DMA engines reach through the peer device's backend.
 */
#include <linux/file.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_hw.h"
#include "ascend_peer.h"
#include "ascend_pt.h"
#include "ascend_vm.h"

DECLARE_RWSEM(ascend_peer_rwsem);

void ascend_peer_file_init(struct ascend_file *af)
{
	INIT_LIST_HEAD(&af->peer_links);
	INIT_LIST_HEAD(&af->peer_users);
	af->owner = get_pid(task_tgid(current));
}

static void ascend_peer_unlink(struct ascend_peer_link *link)
{
	list_del(&link->from_node);
	list_del(&link->to_node);
	kfree(link);
}

/*
 * Rewrite the peer window table of @from's device MMU from its links: one
 * entry per linked file with a VA window (ascend_hw.h).  ascend_peer_rwsem
 * held for writing: no copy of @from runs, so the device walks no entry
 * while it changes.
 */
static int ascend_peer_pt_refresh_locked(struct ascend_file *from)
{
	struct ascend_mmu_peer_entry *e;
	struct ascend_peer_link *link;
	unsigned int n = 0;
	int ret;

	lockdep_assert_held_write(&ascend_peer_rwsem);
	e = kcalloc(ASCEND_MMU_PEER_MAX, sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e) {
		/* no table is safe: the peers' VAs fault */
		mutex_lock(&from->vm.lock);
		ascend_pt_set_peers(&from->vm.pt, NULL, 0);
		mutex_unlock(&from->vm.lock);
		return -ENOMEM;
	}
	list_for_each_entry(link, &from->peer_links, from_node) {
		struct ascend_vm *vm = &link->to->vm;

		if (n == ASCEND_MMU_PEER_MAX)
			break;	/* ENABLE refuses more links */
		/* the window and the root are set together, once */
		mutex_lock(&vm->lock);
		if (vm->size && vm->pt.root &&
		    link->to->adev->index < ASCEND_AS_PEER_MAX) {
			e[n].base = cpu_to_le64(vm->base);
			e[n].size = cpu_to_le64(vm->size);
			e[n].root = cpu_to_le64(ascend_pt_root_addr(&vm->pt));
			e[n].dev = cpu_to_le32(link->to->adev->index);
			e[n].flags = cpu_to_le32(ASCEND_MMU_PEER_VALID);
			n++;
		}
		mutex_unlock(&vm->lock);
	}
	mutex_lock(&from->vm.lock);
	ret = ascend_pt_set_peers(&from->vm.pt, e, n);
	mutex_unlock(&from->vm.lock);
	kfree(e);
	return ret;
}

void ascend_peer_window_set(struct ascend_file *af)
{
	struct ascend_peer_link *link;

	down_write(&ascend_peer_rwsem);
	/* without the table page the peer's VAs fault, as before the link */
	list_for_each_entry(link, &af->peer_users, to_node)
		if (ascend_peer_pt_refresh_locked(link->from))
			pr_warn_ratelimited("ascend: no memory for a peer window table\n");
	up_write(&ascend_peer_rwsem);
}

void ascend_peer_file_fini(struct ascend_file *af)
{
	struct ascend_peer_link *link, *tmp;
	struct ascend_file *from;

	down_write(&ascend_peer_rwsem);
	list_for_each_entry_safe(link, tmp, &af->peer_links, from_node)
		ascend_peer_unlink(link);
	/* the device stops reaching @af's tables before they go */
	list_for_each_entry_safe(link, tmp, &af->peer_users, to_node) {
		from = link->from;
		ascend_peer_unlink(link);
		ascend_peer_pt_refresh_locked(from);
	}
	up_write(&ascend_peer_rwsem);
	put_pid(af->owner);
	af->owner = NULL;
}

/*
 * A link to a removed device leads nowhere: its memory is not reached any
 * more (-EFAULT, as for an address of no mapping).  @lost is set before
 * ascend_peer_barrier(), so whoever takes the rwsem after it sees it.
 */
static bool ascend_peer_link_lost(const struct ascend_peer_link *link)
{
	return READ_ONCE(link->to->adev->lost);
}

static struct ascend_peer_link *ascend_peer_link_find(struct ascend_file *from,
						      struct ascend_file *to)
{
	struct ascend_peer_link *link;

	list_for_each_entry(link, &from->peer_links, from_node)
		if (link->to == to)
			return link;
	return NULL;
}

bool ascend_peer_linked_locked(struct ascend_file *from,
			       struct ascend_file *to)
{
	lockdep_assert_held(&ascend_peer_rwsem);
	return ascend_peer_link_find(from, to);
}

int ascend_peer_op_locked(struct ascend_file *from, struct ascend_file *to,
			  u32 op, u32 *status)
{
	struct ascend_peer_link *link;
	int ret = 0;

	lockdep_assert_held(&ascend_peer_rwsem);
	if (from == to || from->adev == to->adev)
		return -EINVAL;

	link = ascend_peer_link_find(from, to);
	switch (op) {
	case DRM_ASCEND_PEER_ENABLE:
		if (link) {
			ret = -EEXIST;
			break;
		}
		if (list_count_nodes(&from->peer_links) >= ASCEND_MMU_PEER_MAX)
			return -ENOSPC;	/* the device's peer window table */
		link = kzalloc(sizeof(*link), GFP_KERNEL_ACCOUNT);
		if (!link)
			return -ENOMEM;
		link->from = from;
		link->to = to;
		list_add_tail(&link->from_node, &from->peer_links);
		list_add_tail(&link->to_node, &to->peer_users);
		break;
	case DRM_ASCEND_PEER_DISABLE:
		if (!link) {
			ret = -ENOENT;
			break;
		}
		ascend_peer_unlink(link);
		link = NULL;
		break;
	case DRM_ASCEND_PEER_QUERY:
		break;
	default:
		return -EINVAL;
	}
	*status = ascend_peer_link_find(from, to) ? 1 : 0;
	return ret;
}

struct ascend_file *ascend_peer_find_locked(struct ascend_file *from,
					    u64 va, u64 len)
{
	struct ascend_peer_link *link;
	u64 end;

	/* DMA engines call this for the submitter, who holds the rwsem */
	lockdep_assert(rwsem_is_locked(&ascend_peer_rwsem));
	if (!len || check_add_overflow(va, len, &end))
		return NULL;
	list_for_each_entry(link, &from->peer_links, from_node) {
		struct ascend_vm *vm = &link->to->vm;
		u64 base = READ_ONCE(vm->base), size = READ_ONCE(vm->size);

		if (ascend_peer_link_lost(link))
			continue;

		/* a window, once set, never changes */
		if (size && va >= base && end - base <= size)
			return link->to;
	}
	return NULL;
}

void ascend_peer_barrier(void)
{
	/* jobs reaching a peer's memory hold the rwsem for read throughout */
	down_write(&ascend_peer_rwsem);
	up_write(&ascend_peer_rwsem);
}

/* ------------------------------------------------------------------------ */
/* Copies reaching a peer's memory */

struct ascend_file *ascend_vm_file(struct ascend_vm *vm)
{
	return container_of(vm, struct ascend_file, vm);
}

int ascend_peer_vm_cmp(const struct ascend_vm *a, const struct ascend_vm *b)
{
	if (a->adev->index != b->adev->index)
		return a->adev->index < b->adev->index ? -1 : 1;
	if (a == b)
		return 0;
	return (uintptr_t)a < (uintptr_t)b ? -1 : 1;
}

/* Insert @vm into the sorted @vms[0..n). */
static void ascend_peer_ctx_insert(struct ascend_vm **vms, unsigned int n,
				   struct ascend_vm *vm)
{
	while (n && ascend_peer_vm_cmp(vm, vms[n - 1]) < 0) {
		vms[n] = vms[n - 1];
		n--;
	}
	vms[n] = vm;
}

int ascend_peer_ctx_lock(struct ascend_peer_ctx *ctx, struct ascend_file *af)
{
	struct ascend_peer_link *link;
	unsigned int n = 1, i;

	ctx->af = af;
	ctx->local = &af->vm;
	down_read(&ascend_peer_rwsem);
	list_for_each_entry(link, &af->peer_links, from_node)
		if (!ascend_peer_link_lost(link))
			n++;
	if (n == 1) {
		ctx->one = &af->vm;
		ctx->vms = &ctx->one;
	} else {
		ctx->vms = kmalloc_array(n, sizeof(*ctx->vms), GFP_KERNEL_ACCOUNT);
		if (!ctx->vms) {
			up_read(&ascend_peer_rwsem);
			return -ENOMEM;
		}
		i = 0;
		ascend_peer_ctx_insert(ctx->vms, i++, &af->vm);
		list_for_each_entry(link, &af->peer_links, from_node)
			if (!ascend_peer_link_lost(link))
				ascend_peer_ctx_insert(ctx->vms, i++,
						       &link->to->vm);
	}
	ctx->nr = n;
	/*
	 * Increasing device index: every path taking two address space locks
	 * holds ascend_peer_rwsem and goes through here, so there is one
	 * global order (lockdep sees them as nested under the rwsem).
	 */
	for (i = 0; i < n; i++)
		mutex_lock_nest_lock(&ctx->vms[i]->lock, &ascend_peer_rwsem);
	return 0;
}

void ascend_peer_ctx_unlock(struct ascend_peer_ctx *ctx)
{
	unsigned int i = ctx->nr;

	while (i--)
		mutex_unlock(&ctx->vms[i]->lock);
	if (ctx->vms != &ctx->one)
		kfree(ctx->vms);
	ctx->vms = NULL;
	ctx->nr = 0;
	up_read(&ascend_peer_rwsem);
}

struct ascend_vm *ascend_peer_ctx_vm(const struct ascend_peer_ctx *ctx,
				     u64 va, u64 len)
{
	struct ascend_file *peer;

	/* the file's own mappings first: they never resolve elsewhere */
	if (list_empty(&ctx->af->peer_links) ||
	    ascend_vm_claims_locked(ctx->local, va, len))
		return ctx->local;
	peer = ascend_peer_find_locked(ctx->af, va, len);
	return peer ? &peer->vm : ctx->local;
}

int ascend_peer_retag(struct ascend_vm_seg *segs, int n, unsigned int index)
{
	int i;

	if (index >= ASCEND_AS_PEER_MAX)
		return -EFAULT;
	for (i = 0; i < n; i++) {
		if (segs[i].as != ASCEND_AS_HBM)
			return -EFAULT;
		segs[i].as = ASCEND_AS_PEER(index);
	}
	return n;
}

bool ascend_peer_claims(const struct ascend_peer_ctx *ctx, u64 addr, u64 len)
{
	return ascend_vm_claims_locked(ctx->local, addr, len) ||
	       ascend_peer_ctx_vm(ctx, addr, len) != ctx->local;
}

struct ascend_vm_mapping *ascend_peer_lookup(const struct ascend_peer_ctx *ctx,
					     u64 va, u64 len, bool write,
					     u64 *offset)
{
	return ascend_vm_lookup_access_locked(ascend_peer_ctx_vm(ctx, va, len),
					      va, len, write, offset);
}

int ascend_peer_translate(const struct ascend_peer_ctx *ctx, u64 va, u64 len,
			  bool write, struct ascend_vm_seg **segs)
{
	struct ascend_vm *vm = ascend_peer_ctx_vm(ctx, va, len);
	int n;

	n = ascend_vm_translate_access_locked(vm, va, len, write, segs);
	if (n < 0 || vm == ctx->local)
		return n;
	n = ascend_peer_retag(*segs, n, vm->adev->index);
	if (n < 0) {
		kvfree(*segs);
		*segs = NULL;
	}
	return n;
}

int ascend_peer_span(const struct ascend_peer_ctx *ctx, u64 va, u64 len,
		     bool write, struct ascend_dma_span *span)
{
	struct ascend_vm *vm = ascend_peer_ctx_vm(ctx, va, len);
	int ret;

	ret = ascend_vm_span_locked(vm, va, len, write, span);
	if (ret || vm == ctx->local)
		return ret;
	if (span->as != ASCEND_AS_HBM ||
	    vm->adev->index >= ASCEND_AS_PEER_MAX)
		return -EFAULT;
	span->as = ASCEND_AS_PEER(vm->adev->index);
	return 0;
}

int ascend_ioctl_peer(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct ascend_file *af = to_ascend_file(file);
	struct drm_ascend_peer *args = data;
	struct ascend_file *peer;
	struct pid *me;
	struct file *f;
	int ret;

	if (args->pad || args->op > DRM_ASCEND_PEER_QUERY)
		return -EINVAL;

	f = fget(args->peer_fd);
	if (!f)
		return -EBADF;
	peer = ascend_file_from_file(f);
	if (!peer || peer->adev == af->adev) {
		ret = -EINVAL;
		goto out_fput;
	}
	me = task_tgid(current);
	if (af->owner != me || peer->owner != me) {
		ret = -EPERM;
		goto out_fput;
	}

	if (args->op == DRM_ASCEND_PEER_QUERY) {
		down_read(&ascend_peer_rwsem);
		ret = ascend_peer_op_locked(af, peer, args->op, &args->status);
		up_read(&ascend_peer_rwsem);
	} else {
		down_write(&ascend_peer_rwsem);
		ret = ascend_peer_op_locked(af, peer, args->op, &args->status);
		/* the link changed: tell the device (peer window table) */
		if (!ret) {
			ret = ascend_peer_pt_refresh_locked(af);
			if (ret && args->op == DRM_ASCEND_PEER_ENABLE) {
				/* it could not be told: no link */
				ascend_peer_op_locked(af, peer,
						      DRM_ASCEND_PEER_DISABLE,
						      &args->status);
				ascend_peer_pt_refresh_locked(af);
			}
		}
		up_write(&ascend_peer_rwsem);
	}
out_fput:
	fput(f);
	return ret;
}
