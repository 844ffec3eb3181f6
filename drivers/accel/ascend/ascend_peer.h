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

struct ascend_file;
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

/* ascend_drv.c: the ascend file behind an open @f, or NULL if not ours. */
struct ascend_file *ascend_file_from_file(struct file *f);

#endif /* __ASCEND_PEER_H__ */
