/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inter-process sharing of device memory and events: a module-wide table
 * of exports named by unguessable keys (DRM_IOCTL_ASCEND_IPC_*).
 */
#ifndef __ASCEND_IPC_H__
#define __ASCEND_IPC_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "ascend_accel.h"

struct ascend_device;
struct ascend_event;
struct ascend_file;
struct ascend_hbm_buf;

/* A key: 64 lowercase hex digits and a NUL. */
#define ASCEND_IPC_KEY_HEX	(DRM_ASCEND_IPC_KEY_LEN - 1)
/* Its first 8 digits: the export's index in the table; the rest random. */
#define ASCEND_IPC_KEY_INDEX_HEX	8
/* Most processes one export's allow-list holds (then -ENOSPC). */
#define ASCEND_IPC_MAX_PIDS	1024
/* Most live exports of one file (then -ENOSPC). */
#define ASCEND_IPC_MAX_EXPORTS	4096

/**
 * struct ascend_ipc_export - one exported object
 * @file_link: entry in the exporting file's ipc_exports (the table lock
 *	protects it)
 * @index: the export's index in &ascend_ipc_table.exports (the first
 *	%ASCEND_IPC_KEY_INDEX_HEX digits of @key)
 * @key: the key, NUL-terminated
 * @owner: the exporting file; compared, never dereferenced outside its
 *	own ioctls (its postclose withdraws its exports first)
 * @adev: the device of the object; imports only on files of it
 * @owner_tgid: the exporting process, which may always import (a
 *	reference: a recycled pid number is another struct pid)
 * @type: DRM_ASCEND_IPC_MEM or DRM_ASCEND_IPC_EVENT
 * @flags: DRM_ASCEND_IPC_* export flags
 * @buf: MEM: the memory (a reference)
 * @offset: MEM: first byte exported, in @buf
 * @size: MEM: bytes exported
 * @event: EVENT: the event (a handle and a reference)
 * @pids: allow-list of thread groups, as references (a process that
 *	exits stays on the list as a dead identity no new process can have)
 * @nr_pids: entries in @pids
 */
struct ascend_ipc_export {
	struct list_head file_link;
	u32 index;
	char key[DRM_ASCEND_IPC_KEY_LEN];
	const struct ascend_file *owner;
	struct ascend_device *adev;
	struct pid *owner_tgid;
	u32 type;
	u32 flags;
	struct ascend_hbm_buf *buf;
	u64 offset;
	u64 size;
	struct ascend_event *event;
	struct pid **pids;
	unsigned int nr_pids;
};

/**
 * struct ascend_ipc_table - the exports of the module
 * @lock: protects @exports, @nr, every export's @pids/@nr_pids and every
 *	file's nr_ipc_exports and ipc_exports
 * @exports: live exports by index (a lookup compares the one candidate's
 *	key in constant time)
 * @next: the next index to try (xa_alloc_cyclic())
 * @nr: entries in @exports
 */
struct ascend_ipc_table {
	struct mutex lock;	/* protects exports, next, nr, allow-lists */
	struct xarray exports;
	u32 next;
	unsigned long nr;
};

/* Fill @key with a fresh key from the kernel's CSPRNG. */
void ascend_ipc_key_generate(char key[DRM_ASCEND_IPC_KEY_LEN]);
/* Is @key well formed (64 lowercase hex digits, then NUL)? */
bool ascend_ipc_key_valid(const char key[DRM_ASCEND_IPC_KEY_LEN]);
/* The table index @key names (its first digits); false if malformed. */
bool ascend_ipc_key_index(const char *key, u32 *index);

void ascend_ipc_table_init(struct ascend_ipc_table *t);

/*
 * The export named @key, or NULL; with @owner non-NULL only an export of
 * that file.  One xarray look-up by the index in @key, then
 * crypto_memneq() against the one candidate's key, so the time taken says
 * nothing about how close a guess of the random digits came.  @t->lock
 * held.
 */
struct ascend_ipc_export *ascend_ipc_find_locked(struct ascend_ipc_table *t,
						 const char *key,
						 const struct ascend_file *owner);

/*
 * List @exp under a free index and give it its key (the index, then
 * random digits): 0, -ENOSPC (every 32-bit index taken) or -ENOMEM.
 * @t->lock held.
 */
int ascend_ipc_insert_locked(struct ascend_ipc_table *t,
			     struct ascend_ipc_export *exp);
/* Take @exp out of the table (not off its file's list).  @t->lock held. */
void ascend_ipc_remove_locked(struct ascend_ipc_table *t,
			      struct ascend_ipc_export *exp);

/*
 * Add @n thread groups to @exp's allow-list, skipping ones already there;
 * consumes the caller's references in @pids either way.  0, -ENOSPC
 * beyond %ASCEND_IPC_MAX_PIDS (nothing added then), -ENOMEM.  @t->lock
 * held.
 */
int ascend_ipc_add_pids_locked(struct ascend_ipc_export *exp,
			       struct pid **pids, unsigned int n);

/* May thread group @tgid import @exp?  @t->lock held. */
bool ascend_ipc_may_import_locked(const struct ascend_ipc_export *exp,
				  const struct pid *tgid);

/**
 * struct ascend_ipc_take - what an import takes from an export
 * @buf: MEM: the memory (a reference)
 * @offset: MEM: first byte exported, in @buf
 * @size: MEM: bytes exported
 * @event: EVENT: the event, with a handle and a reference
 *	(ascend_event_hold()), taken while the export still held its own
 */
struct ascend_ipc_take {
	struct ascend_hbm_buf *buf;
	u64 offset;
	u64 size;
	struct ascend_event *event;
};

/*
 * The first half of an import: find @key's export of @type on @adev that
 * thread group @tgid may import and take its object in *@take.  0, or
 * -ENOENT for every refusal.  @t->lock held; the export may be withdrawn
 * as soon as it is dropped.
 */
int ascend_ipc_import_take_locked(struct ascend_ipc_table *t,
				  const char *key, u32 type,
				  const struct ascend_device *adev,
				  const struct pid *tgid,
				  struct ascend_ipc_take *take);
/* Drop what is left in *@take. */
void ascend_ipc_take_drop(struct ascend_ipc_take *take);

/* Free an export that is no longer listed: drops what it holds. */
void ascend_ipc_export_free(struct ascend_ipc_export *exp);

/* Postclose: withdraw every export of @af (imports live on). */
void ascend_ipc_file_fini(struct ascend_file *af);

#endif /* __ASCEND_IPC_H__ */
