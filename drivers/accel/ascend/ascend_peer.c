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
 */
#include <linux/file.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_peer.h"

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

void ascend_peer_file_fini(struct ascend_file *af)
{
	struct ascend_peer_link *link, *tmp;

	down_write(&ascend_peer_rwsem);
	list_for_each_entry_safe(link, tmp, &af->peer_links, from_node)
		ascend_peer_unlink(link);
	list_for_each_entry_safe(link, tmp, &af->peer_users, to_node)
		ascend_peer_unlink(link);
	up_write(&ascend_peer_rwsem);
	put_pid(af->owner);
	af->owner = NULL;
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
		link = kzalloc(sizeof(*link), GFP_KERNEL);
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

	lockdep_assert_held(&ascend_peer_rwsem);
	if (!len || check_add_overflow(va, len, &end))
		return NULL;
	list_for_each_entry(link, &from->peer_links, from_node) {
		struct ascend_vm *vm = &link->to->vm;
		u64 base = READ_ONCE(vm->base), size = READ_ONCE(vm->size);

		/* a window, once set, never changes */
		if (size && va >= base && end - base <= size)
			return link->to;
	}
	return NULL;
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
		up_write(&ascend_peer_rwsem);
	}
out_fput:
	fput(f);
	return ret;
}
