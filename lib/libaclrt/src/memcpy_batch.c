// SPDX-License-Identifier: MIT
/*
 * memcpy_batch.c - aclrtMemcpyBatch, aclrtMemcpyBatchV2, aclrtMemcpyBatchAsync
 * and aclrtMemcpyBatchAsyncV2: many host<->device copies as one submission.
 *
 * CANN's checks in CANN's order (facts §7 "Batch copies"):
 *  1. ACL layer (hicann/runtime src/acl/aclrt_impl/memory.cpp
 *     MemcpyBatchImpl) -> 100000, *failIndex untouched: failIndex NULL
 *     (non-V2), sizes NULL, numBatches 0; then every size 0 -> success with
 *     *failIndex = SIZE_MAX, before any other argument is looked at; then
 *     dsts/destMaxs/srcs/attrs/attrsIndexes NULL, destMaxs[i] < sizes[i], a
 *     non-zero rsv byte in attrs[k].
 *  2. *failIndex = SIZE_MAX.
 *  3. Runtime -> 107000, failIndex SIZE_MAX: numAttrs 0 or > numBatches,
 *     attrsIndexes[0] != 0, attrsIndexes not strictly increasing or not
 *     below numBatches, a synchronous batch of more than 4096 entries.
 *  4. Per entry -> 107000 with *failIndex = the first failing entry: in an
 *     asynchronous batch an entry of size 0 (api_impl.cc
 *     ValidateMemCpyParamsAndAttributes: CANN queues such a batch entry by
 *     entry; a synchronous one skips them); a NULL dst or src of an entry
 *     with bytes to move (src first, as CANN's runtime); the real
 *     location of dst/src (pageable counts as HOST) against the entry's
 *     attribute (HOST_NUMA counts as HOST; DEVICE ids must match), dst and
 *     src on the same side (only H2D or D2H), a direction other than the
 *     first entry's (one direction per batch), a range outside its
 *     allocation.
 *
 * Submission: a synchronous batch is one DRM_IOCTL_ASCEND_COPY_BATCH (the
 * kernel pins pageable entries).  An asynchronous batch is one ring
 * ASCEND_CMD_COPY_BATCH whose entry array is a snapshot in libaclrt's pinned
 * staging memory (host.c; recycled once the command completed); entries
 * with pageable host memory follow CANN's rule: the stream is synchronized
 * (after the ring batch of the pinned entries was queued) and those entries
 * are copied synchronously, so the call returns after they moved.
 *
 * Cost (a batch is thousands of entries, each worth far less than an
 * ioctl): an entry in the same allocations as the one before it, under the
 * same attribute, has only its ranges checked (like_previous()); the others
 * are looked up.  The entry array is written once, from the caller's
 * arrays, straight into the staging buffer (emit()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>

#include "internal.h"

#define ERR(code, ...) acl_err_at(acl_api_name, (code), __VA_ARGS__)

enum { B_H2D, B_D2H };

/* Entries [start, the next run's start) of an asynchronous batch, whose host
 * sides are all pinned (queued on the ring) or all not (copied at once). */
struct run {
	size_t start;
	bool pinned;
};

/* Pinned host allocation [va, +size), read by the pinned entries from the
 * @first-th on (for the ledger: freeing it waits for the ring batch). */
struct host_use {
	uintptr_t va;
	size_t size;
	size_t first;
};

#define B_INLINE 8	/* runs and uses without a malloc (the usual batch) */

/*
 * A checked batch.  Its entries are not copied into arrays of its own: they
 * are read from the caller's arrays when the command is built (straight into
 * the staging buffer), as described by the runs.
 */
struct batch {
	void **dsts, **srcs;
	size_t *sizes, n;			/* the caller's arrays, numBatches */
	bool async;
	struct acl_device *dev;
	int dir;
	/* The sides of the previous entry: a pointer inside the same
	 * allocation is not looked up again (a snapshot taken during this
	 * call is as good as a fresh look-up). */
	struct copy_side ds, ss;
	/* The previous entry passed with bytes to move (else there is none to
	 * go by), and whether its host side was in the device's MMU. */
	bool prev_ok, prev_pinned;
	size_t npin;				/* pinned entries (async) */
	struct run *runs, runs0[B_INLINE];
	size_t nruns, cap_runs;
	struct host_use *uses, uses0[B_INLINE];
	size_t nuses, cap_uses;
};

static void batch_init(struct batch *b, void **dsts, void **srcs, size_t *sizes, size_t n,
		       bool async)
{
	memset(b, 0, sizeof(*b));
	b->dsts = dsts;
	b->srcs = srcs;
	b->sizes = sizes;
	b->n = n;
	b->async = async;
	b->runs = b->runs0;
	b->cap_runs = B_INLINE;
	b->uses = b->uses0;
	b->cap_uses = B_INLINE;
}

static void batch_free(struct batch *b)
{
	if (b->runs != b->runs0)
		free(b->runs);
	if (b->uses != b->uses0)
		free(b->uses);
}

/* @v (*@cap elements of @esz, at first the inline array @inl) with room for
 * element @n: @v itself, a larger copy, or NULL when out of memory. */
static void *room(void *v, size_t n, size_t *cap, size_t esz, const void *inl)
{
	void *p;

	if (n < *cap)
		return v;
	p = v == inl ? malloc(2 * *cap * esz) : realloc(v, 2 * *cap * esz);
	if (!p)
		return NULL;
	if (v == inl)
		memcpy(p, inl, n * esz);
	*cap *= 2;
	return p;
}

static const char *loc_type_name(uint32_t t)
{
	static const char *const n[] = { "HOST", "DEVICE", "UNREGISTERED", "MANAGED",
					 "HOST_NUMA" };

	return t < 5 ? n[t] : "unknown";
}

/* The attribute location matches the real one? */
static bool loc_matches(const aclrtMemLocation *want, const struct copy_side *sd)
{
	uint32_t t = want->type;

	if (t == ACL_MEM_LOCATION_TYPE_HOST_NUMA)
		t = ACL_MEM_LOCATION_TYPE_HOST;
	if (sd->loc == CL_DEV)
		return t == ACL_MEM_LOCATION_TYPE_DEVICE && sd->dev &&
		       want->id == (uint32_t)sd->dev->id;
	return t == ACL_MEM_LOCATION_TYPE_HOST;
}

static aclError entry_fail(size_t *fi, size_t i, aclError code)
{
	*fi = i;
	return code;
}

/* Entry @i of an asynchronous batch, host side @hs, into the runs (and its
 * allocation into the uses when @pinned).  False: out of memory. */
static bool note_entry(struct batch *b, size_t i, const struct copy_side *hs, bool pinned)
{
	struct host_use *u;
	struct run *r;

	if (!b->nruns || b->runs[b->nruns - 1].pinned != pinned) {
		r = room(b->runs, b->nruns, &b->cap_runs, sizeof(*r), b->runs0);
		if (!r)
			return false;
		b->runs = r;
		r[b->nruns++] = (struct run){ .start = i, .pinned = pinned };
	}
	if (!pinned)
		return true;
	if (!b->nuses || b->uses[b->nuses - 1].va != hs->a.va) {
		u = room(b->uses, b->nuses, &b->cap_uses, sizeof(*u), b->uses0);
		if (!u)
			return false;
		b->uses = u;
		u[b->nuses++] = (struct host_use){
			.va = hs->a.va, .size = hs->a.size, .first = b->npin };
	}
	b->npin++;
	return true;
}

/* Step 4 for entry @i. */
static aclError check_entry(struct batch *b, size_t i, const aclrtMemcpyBatchAttr *at,
			    size_t *fi)
{
	void *dst = b->dsts[i];
	const void *src = b->srcs[i];
	size_t size = b->sizes[i];
	const struct copy_side *ds = &b->ds, *ss = &b->ss, *hs;
	struct acl_device *dev;
	aclError ret;
	int dir;

	b->prev_ok = false;
	if (b->async && !size)
		return entry_fail(fi, i, ERR(ACL_ERROR_RT_PARAM_INVALID,
			"entry %zu: size is 0; every entry of an asynchronous batch must copy bytes", i));
	if (size && (!src || !dst))
		return entry_fail(fi, i, ERR(ACL_ERROR_RT_PARAM_INVALID,
			"entry %zu: %s[%zu] is NULL", i, !src ? "srcs" : "dsts", i));
	/* a side without an allocation has a.size 0: always looked up */
	if ((uintptr_t)dst - ds->a.va >= ds->a.size)
		copy_locate(dst, &b->ds);
	if ((uintptr_t)src - ss->a.va >= ss->a.size)
		copy_locate(src, &b->ss);
	if (!loc_matches(&at->dstLoc, ds))
		return entry_fail(fi, i, ERR(ACL_ERROR_RT_PARAM_INVALID,
			"entry %zu: dst %p is %s but its attribute says %s id %u", i, dst,
			copy_loc_name[ds->loc], loc_type_name(at->dstLoc.type), at->dstLoc.id));
	if (!loc_matches(&at->srcLoc, ss))
		return entry_fail(fi, i, ERR(ACL_ERROR_RT_PARAM_INVALID,
			"entry %zu: src %p is %s but its attribute says %s id %u", i, src,
			copy_loc_name[ss->loc], loc_type_name(at->srcLoc.type), at->srcLoc.id));
	if ((ds->loc == CL_DEV) == (ss->loc == CL_DEV))
		return entry_fail(fi, i, ERR(ACL_ERROR_RT_PARAM_INVALID,
			"entry %zu: dst and src are both %s; a batch copies only host to device or device to host",
			i, ds->loc == CL_DEV ? "device memory" : "host memory"));
	dir = ds->loc == CL_DEV ? B_H2D : B_D2H;
	dev = dir == B_H2D ? ds->dev : ss->dev;
	if (!b->dev) {
		b->dev = dev;
		b->dir = dir;
	} else if (dir != b->dir) {
		return entry_fail(fi, i, ERR(ACL_ERROR_RT_PARAM_INVALID,
			"entry %zu is %s but the batch started %s; a batch has one direction",
			i, dir == B_H2D ? "host to device" : "device to host",
			b->dir == B_H2D ? "host to device" : "device to host"));
	} else if (dev != b->dev) {
		return entry_fail(fi, i, ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			"entry %zu uses device %d but the batch started on device %d",
			i, dev->id, b->dev->id));
	}
	if (!size)
		return ACL_SUCCESS;
	if (dir == B_H2D) {
		ret = copy_check_side_range("dst", dst, size, ds);
		if (!ret)
			ret = copy_check_host_side("src", src, size, ss, dev->id, false);
	} else {
		ret = copy_check_side_range("src", src, size, ss);
		if (!ret)
			ret = copy_check_host_side("dst", dst, size, ds, dev->id, true);
	}
	if (ret)
		return entry_fail(fi, i, ret);
	hs = dir == B_H2D ? ss : ds;
	b->prev_pinned = hs->cls == ADDR_HOST && host_usable(&hs->a, dev->id);
	if (b->async && !note_entry(b, i, hs, b->prev_pinned))
		return ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory for %zu entries", b->n);
	b->prev_ok = true;
	return ACL_SUCCESS;
}

/*
 * The entries from @i on (below @end, all under the attribute of entry i - 1)
 * that lie in the allocations of entry i - 1, which passed: every check but
 * those of their ranges answers as it did for it, so only the ranges are
 * checked here (as copy_check_side_range() and copy_check_host_side() would).
 * Returns the first entry that is not such a one: check_entry() decides it,
 * and words any error.
 */
static size_t like_previous(struct batch *b, size_t i, size_t end)
{
	void *const *dsts = b->dsts, *const *srcs = b->srcs;
	const size_t *sizes = b->sizes, start = i;
	uintptr_t dva = b->ds.a.va, sva = b->ss.a.va, doff, soff, off, hoff;
	size_t dsz = b->ds.a.size, ssz = b->ss.a.size, dlim, hlim, size;
	bool h2d = b->dir == B_H2D;

	if (!b->prev_ok)
		return i;
	/* device side: the bytes asked for; host side: a pinned allocation */
	dlim = h2d ? b->ds.a.user_size : b->ss.a.user_size;
	hlim = !b->prev_pinned ? SIZE_MAX : h2d ? ssz : dsz;
	for (; i < end; i++) {
		doff = (uintptr_t)dsts[i] - dva;
		soff = (uintptr_t)srcs[i] - sva;
		size = sizes[i];
		off = h2d ? doff : soff;
		hoff = h2d ? soff : doff;
		if (!size || doff >= dsz || soff >= ssz || off > dlim || size > dlim - off ||
		    size > hlim - hoff)
			break;
	}
	/* same run, same host allocation as entry start - 1 */
	if (b->async && b->prev_pinned)
		b->npin += i - start;
	return i;
}

/* Where emit() goes on: run @r, entry @i. */
struct cursor {
	size_t r, i;
};

/*
 * Up to @max entries of an asynchronous batch whose host side is (not)
 * @pinned, from @c on, into @e (and their indexes into @orig, if given).
 */
static size_t emit(const struct batch *b, bool pinned, struct cursor *c,
		   struct drm_ascend_copy_entry *e, size_t *orig, size_t max)
{
	size_t k = 0, end;

	while (k < max && c->r < b->nruns) {
		end = c->r + 1 < b->nruns ? b->runs[c->r + 1].start : b->n;
		if (b->runs[c->r].pinned != pinned || c->i >= end) {
			if (++c->r < b->nruns)
				c->i = b->runs[c->r].start;
			continue;
		}
		for (; c->i < end && k < max; c->i++, k++) {
			e[k].dst = (uintptr_t)b->dsts[c->i];
			e[k].src = (uintptr_t)b->srcs[c->i];
			e[k].size = b->sizes[c->i];
			if (orig)
				orig[k] = c->i;
		}
	}
	return k;
}

/* One DRM_IOCTL_ASCEND_COPY_BATCH of the @n entries (<= 4096) at @e. */
static aclError ioctl_batch(struct acl_device *dev, const struct drm_ascend_copy_entry *e,
			    const size_t *orig, size_t n, size_t *fi)
{
	struct drm_ascend_copy_batch cb = {
		.entries = (uintptr_t)e, .count = (uint32_t)n,
		.entry_size = sizeof(*e),
	};
	int err;

	if (!drmIoctl(dev->fd, DRM_IOCTL_ASCEND_COPY_BATCH, &cb))
		return ACL_SUCCESS;
	err = errno;
	if ((err == EFAULT || err == EINVAL) && cb.fail_index < n)
		*fi = orig[cb.fail_index];
	if (err == ENOMEM)
		return host_pin_error(err, 0, "pinning pageable memory for a batch copy");
	if (err == ENOTTY)
		return ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			   "device %d's kernel driver has no batch copies", dev->id);
	return ERR(err == EFAULT || err == EINVAL ? ACL_ERROR_RT_PARAM_INVALID :
		   acl_drv_code(err, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
		   "device %d: batch copy of %zu entries failed: %s%s", dev->id, n, strerror(err),
		   cb.fail_index < n ? " (at the entry in *failIndex)" : "");
}

static aclError ioctl_batch_all(struct acl_device *dev, const struct drm_ascend_copy_entry *e,
				const size_t *orig, size_t n, size_t *fi)
{
	size_t off, len;
	aclError ret;

	for (off = 0; off < n; off += len) {
		len = n - off < DRM_ASCEND_COPY_BATCH_MAX ? n - off : DRM_ASCEND_COPY_BATCH_MAX;
		ret = ioctl_batch(dev, e + off, orig + off, len, fi);
		if (ret)
			return ret;
	}
	return ACL_SUCCESS;
}

/* Entry and index arrays for @n entries. */
static aclError entries_alloc(struct drm_ascend_copy_entry **e, size_t **orig, size_t n)
{
	*e = malloc(n * sizeof(**e));
	*orig = malloc(n * sizeof(**orig));
	if (*e && *orig)
		return ACL_SUCCESS;
	free(*e);
	free(*orig);
	*e = NULL;
	*orig = NULL;
	return ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory for %zu entries", n);
}

static aclError no_ext(const struct acl_device *dev)
{
	return ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		   "device %d's kernel driver has no batch copies (no DRM_ASCEND_CAP_COPY_EXT)",
		   dev->id);
}

static aclError run_sync(struct batch *b, size_t *fi)
{
	struct drm_ascend_copy_entry *e;
	struct acl_device *dev;
	size_t *orig, i, k = 0;
	aclError ret;

	/* the entries with bytes to move */
	ret = entries_alloc(&e, &orig, b->n);
	if (ret)
		return ret;
	for (i = 0; i < b->n; i++) {
		if (!b->sizes[i])
			continue;
		e[k] = (struct drm_ascend_copy_entry){ .dst = (uintptr_t)b->dsts[i],
			.src = (uintptr_t)b->srcs[i], .size = b->sizes[i] };
		orig[k++] = i;
	}
	ret = dev_acquire(b->dev->id, &dev);
	if (!ret) {
		if (!(dev->info.capabilities & DRM_ASCEND_CAP_COPY_EXT))
			ret = no_ext(dev);
		else
			ret = ioctl_batch_all(dev, e, orig, k, fi);
		dev_release(dev);
	}
	free(e);
	free(orig);
	return ret;
}

/*
 * A stream recording into a model run instance: the entries go to device
 * memory of their own, which the instance keeps (every replay reads them).
 */
static aclError recorded_batch(struct acl_stream *s, const struct drm_ascend_copy_entry *e,
			       size_t n, uint64_t *seq)
{
	const char *api = acl_api_name;
	size_t bytes = n * sizeof(*e);
	struct ascend_cmd cmd;
	void *d = NULL;
	aclError ret;

	if (n > UINT32_MAX)
		return ERR(ACL_ERROR_RT_PARAM_INVALID, "%zu entries cannot be recorded in one command", n);
	ret = aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!ret)
		ret = mdl_copy_h2d(d, e, bytes);
	acl_api_name = api;
	if (ret) {
		if (d)
			aclrtFree(d);
		acl_api_name = api;
		return ret;
	}
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = ASCEND_CMD_COPY_BATCH;
	cmd.copy_batch.count = (uint32_t)n;
	cmd.copy_batch.entries = (uintptr_t)d;
	mdl_own = d;
	ret = stream_submit_seq(s, &cmd, seq);
	if (mdl_own) {
		/* not recorded after all: it went to the ring, or failed */
		mdl_own = NULL;
		if (!ret)
			ret = stream_sync(s, DRM_ASCEND_TIMEOUT_INFINITE, -1);
		aclrtFree(d);
		acl_api_name = api;
	}
	return ret;
}

struct fill {
	const struct batch *b;
	struct cursor *c;
};

/* host_stage_cmd()'s fill: the next pinned entries, into the staging buffer. */
static void fill_pinned(void *buf, size_t len, void *arg)
{
	struct fill *f = arg;

	emit(f->b, true, f->c, buf, NULL, len / sizeof(struct drm_ascend_copy_entry));
}

/*
 * Queue the pinned entries of @b, from @c on, as ring COPY_BATCH commands
 * (one unless the entry array exceeds a staging buffer).  *@done: entries
 * queued (fewer than b->npin only when staging memory ran out; @c is then
 * at the first one not queued).
 */
static aclError ring_batches(struct acl_stream *s, const struct batch *b, struct cursor *c,
			     uint64_t *seq, size_t *done)
{
	size_t per = host_stage_max() / sizeof(struct drm_ascend_copy_entry), len, n = b->npin;
	struct fill f = { .b = b, .c = c };
	struct drm_ascend_copy_entry *e;
	struct ascend_cmd cmd;
	bool staged;
	aclError ret;
	uint64_t cs;

	if (mdl_stream_records(s)) {
		e = malloc(n * sizeof(*e));
		if (!e)
			return ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory for %zu entries", n);
		emit(b, true, c, e, NULL, n);
		ret = recorded_batch(s, e, n, seq);
		free(e);
		*done = ret ? 0 : n;
		return ret;
	}
	for (*done = 0; *done < n; *done += len) {
		len = n - *done < per ? n - *done : per;
		memset(&cmd, 0, sizeof(cmd));
		cmd.opcode = ASCEND_CMD_COPY_BATCH;
		cmd.copy_batch.count = (uint32_t)len;
		ret = host_stage_cmd(s, len * sizeof(struct drm_ascend_copy_entry), fill_pinned,
				     &f, &cmd, &cmd.copy_batch.entries, &cs, &staged);
		if (ret || !staged)
			return ret;
		*seq = cs;	/* the last command queued: the uses end with it */
	}
	return ACL_SUCCESS;
}

static aclError run_async(struct batch *b, aclrtStream stream, size_t *fi)
{
	struct drm_ascend_copy_entry *pe = NULL;
	size_t *porig = NULL, np = b->n - b->npin, done = 0, k, u;
	struct cursor pc = { 0, 0 }, uc = { 0, 0 };
	struct acl_device *dev;
	struct acl_stream *s;
	uint64_t seq;
	aclError ret;

	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (dev != b->dev) {
		ret = ERR(ACL_ERROR_RT_STREAM_CONTEXT,
			  "stream %p is on device %d but the batch's device memory is on device %d",
			  stream, dev->id, b->dev->id);
		goto out;
	}
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_COPY_EXT)) {
		ret = no_ext(dev);
		goto out;
	}
	if (np) {
		ret = entries_alloc(&pe, &porig, np);
		if (ret)
			goto out;
	}
	if (b->npin) {
		ret = ring_batches(s, b, &pc, &seq, &done);
		for (u = 0; u < b->nuses && b->uses[u].first < done; u++)
			host_note_use(s, seq, b->uses[u].va, b->uses[u].size);
		if (ret)
			goto out;
	}
	if (done < b->npin) {
		/* No staging memory left: the rest go the synchronous way. */
		np += b->npin - done;
		free(pe);
		free(porig);
		ret = entries_alloc(&pe, &porig, np);
		if (ret)
			goto out;
	}
	if (np) {
		k = emit(b, false, &uc, pe, porig, np);
		emit(b, true, &pc, pe + k, porig + k, np - k);
		ret = stream_sync(s, deadline_from_ms(-1), -1);
		if (!ret)
			ret = ioctl_batch_all(dev, pe, porig, np, fi);
	}
out:
	free(pe);
	free(porig);
	stream_release(s, dev);
	return ret;
}

static aclError memcpy_batch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
			     size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			     size_t numAttrs, size_t *failIndex, bool v2, bool async,
			     aclrtStream stream)
{
	struct acl_device *cur;
	struct batch b;
	size_t dummy, *fi = v2 ? &dummy : failIndex, i, k, j;
	bool any = false;
	aclError ret;

	/* 1. the ACL layer */
	if (!fi)
		return ERR(ACL_ERROR_INVALID_PARAM, "failIndex is NULL");
	if (!sizes)
		return ERR(ACL_ERROR_INVALID_PARAM, "sizes is NULL");
	if (!numBatches)
		return ERR(ACL_ERROR_INVALID_PARAM, "numBatches is 0");
	for (i = 0; i < numBatches && !any; i++)
		any = sizes[i] != 0;
	if (!any) {
		*fi = SIZE_MAX;
		return ACL_SUCCESS;
	}
	if (!dsts || !destMaxs || !srcs || !attrs || !attrsIndexes)
		return ERR(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			   !dsts ? "dsts" : !destMaxs ? "destMaxs" : !srcs ? "srcs" :
			   !attrs ? "attrs" : "attrsIndexes");
	for (i = 0; i < numBatches; i++)
		if (destMaxs[i] < sizes[i])
			return ERR(ACL_ERROR_INVALID_PARAM,
				   "entry %zu: sizes[%zu] = %zu is larger than destMaxs[%zu] = %zu",
				   i, i, sizes[i], i, destMaxs[i]);
	for (k = 0; k < numAttrs && k < numBatches; k++)
		for (j = 0; j < sizeof(attrs[k].rsv); j++)
			if (attrs[k].rsv[j])
				return ERR(ACL_ERROR_INVALID_PARAM,
					   "attrs[%zu].rsv[%zu] is %u; reserved bytes must be 0",
					   k, j, attrs[k].rsv[j]);

	/* 2. */
	*fi = SIZE_MAX;

	/* 3. the runtime */
	ret = dev_acquire_current(&cur);
	if (ret)
		return ret;
	dev_release(cur);
	if (!numAttrs)
		return ERR(ACL_ERROR_RT_PARAM_INVALID, "numAttrs is 0");
	if (numAttrs > numBatches)
		return ERR(ACL_ERROR_RT_PARAM_INVALID, "numAttrs %zu is larger than numBatches %zu",
			   numAttrs, numBatches);
	if (attrsIndexes[0])
		return ERR(ACL_ERROR_RT_PARAM_INVALID, "attrsIndexes[0] is %zu, must be 0",
			   attrsIndexes[0]);
	for (k = 1; k < numAttrs; k++)
		if (attrsIndexes[k] <= attrsIndexes[k - 1] || attrsIndexes[k] >= numBatches)
			return ERR(ACL_ERROR_RT_PARAM_INVALID,
				   "attrsIndexes[%zu] = %zu: indexes must increase strictly and stay below numBatches %zu",
				   k, attrsIndexes[k], numBatches);
	if (!async && numBatches > DRM_ASCEND_COPY_BATCH_MAX)
		return ERR(ACL_ERROR_RT_PARAM_INVALID,
			   "a synchronous batch holds at most %d copies, not %zu",
			   DRM_ASCEND_COPY_BATCH_MAX, numBatches);

	/* 4. every entry */
	batch_init(&b, dsts, srcs, sizes, numBatches, async);
	for (i = 0, k = 0; i < numBatches;) {
		while (k + 1 < numAttrs && attrsIndexes[k + 1] <= i)
			k++;
		ret = check_entry(&b, i, &attrs[k], fi);
		if (ret)
			goto out;
		i = like_previous(&b, i + 1, k + 1 < numAttrs ? attrsIndexes[k + 1] : numBatches);
	}
	ret = async ? run_async(&b, stream, fi) : run_sync(&b, fi);
out:
	batch_free(&b);
	return ret;
}

aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
			  size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			  size_t numAttrs, size_t *failIndex)
{
	API_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes,
			    numAttrs, failIndex, false, false, NULL);
}

aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
			    size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			    size_t numAttrs)
{
	API_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes,
			    numAttrs, NULL, true, false, NULL);
}

aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
			       size_t numBatches, aclrtMemcpyBatchAttr *attrs,
			       size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
			       aclrtStream stream)
{
	API_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes,
			    numAttrs, failIndex, false, true, stream);
}

aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
				 size_t numBatches, aclrtMemcpyBatchAttr *attrs,
				 size_t *attrsIndexes, size_t numAttrs, aclrtStream stream)
{
	API_ENTER();
	return memcpy_batch(dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes,
			    numAttrs, NULL, true, true, stream);
}
