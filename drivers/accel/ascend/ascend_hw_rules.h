/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the device accepts: the rules of the copy formats it executes (ring
 * copy commands, memcpy descriptors read from device memory, batch entries,
 * 2D shapes, fill patterns).  Part of the hardware interface, next to
 * ascend_hw.h: a backend enforces them when a command executes, and the
 * driver checks ioctl arguments by the same rules, so both sides agree on
 * what is malformed.  Documentation/hardware.rst, "Command execution".
 */
#ifndef __ASCEND_HW_RULES_H__
#define __ASCEND_HW_RULES_H__

#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>

#include "ascend_accel.h"

/* [a, a + size) and [b, b + size) overlap (neither wraps: checked before) */
static inline bool ascend_hw_ranges_overlap(u64 a, u64 b, u64 size)
{
	return a < b + size && b < a + size;
}

/*
 * A memcpy descriptor read from device memory: magic, version 1, reserved
 * zero, size > 0, neither range wrapping, no overlap.  0 or -EINVAL.
 */
static inline int ascend_memcpy_desc_check(const struct ascend_memcpy_desc *d)
{
	u64 end;

	if (d->magic != ASCEND_MEMCPY_DESC_MAGIC || d->version != 1 ||
	    memchr_inv(d->reserved, 0, sizeof(d->reserved)) || !d->size)
		return -EINVAL;
	if (check_add_overflow(d->dst, d->size, &end) ||
	    check_add_overflow(d->src, d->size, &end))
		return -EINVAL;
	return ascend_hw_ranges_overlap(d->dst, d->src, d->size) ? -EINVAL : 0;
}

/*
 * The bytes a 2D side covers: @pitch * (@height - 1) + @width into *@span.
 * -EINVAL for width/height 0, pitch < width, or any overflow (also of
 * @addr + span).
 */
static inline int ascend_copy_2d_span(u64 addr, u64 pitch, u64 width,
				      u64 height, u64 *span)
{
	u64 s, end;

	if (!width || !height || pitch < width)
		return -EINVAL;
	if (check_mul_overflow(pitch, height - 1, &s) ||
	    check_add_overflow(s, width, &s) ||
	    check_add_overflow(addr, s, &end))
		return -EINVAL;
	*span = s;
	return 0;
}

static inline int ascend_copy_2d_span_check(u64 addr, u64 pitch, u64 width,
					    u64 height)
{
	u64 span;

	return ascend_copy_2d_span(addr, pitch, width, height, &span);
}

/*
 * A second-level copy: the addresses base + offset of both sides, each
 * range not wrapping, not overlapping, size > 0.  0 or -EINVAL.
 */
static inline int ascend_copy_offset_resolve(u64 dbase, u64 doff, u64 sbase,
					     u64 soff, u64 size, u64 *dst,
					     u64 *src)
{
	u64 end;

	if (!size || check_add_overflow(dbase, doff, dst) ||
	    check_add_overflow(sbase, soff, src) ||
	    check_add_overflow(*dst, size, &end) ||
	    check_add_overflow(*src, size, &end))
		return -EINVAL;
	return ascend_hw_ranges_overlap(*dst, *src, size) ? -EINVAL : 0;
}

/*
 * One batch entry: size 0 is a no-op; otherwise neither range wraps and
 * they do not overlap.  0 or -EINVAL.
 */
static inline int ascend_copy_entry_check(const struct drm_ascend_copy_entry *e)
{
	u64 end;

	if (!e->size)
		return 0;
	if (check_add_overflow(e->dst, e->size, &end) ||
	    check_add_overflow(e->src, e->size, &end))
		return -EINVAL;
	return ascend_hw_ranges_overlap(e->dst, e->src, e->size) ? -EINVAL : 0;
}

/* A fill: pattern of 1, 2 or 4 bytes, size a non-zero multiple of it. */
static inline int ascend_fill_check(u64 dst, u64 size, u32 pattern_size,
				    u32 flags)
{
	u64 end;

	if (flags || !size)
		return -EINVAL;
	if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4)
		return -EINVAL;
	if (size % pattern_size)
		return -EINVAL;
	if (check_add_overflow(dst, size, &end))
		return -EINVAL;
	return 0;
}

/* @pattern (@size bytes, little endian) as seen from byte @phase onward. */
static inline u64 ascend_fill_rotate(u64 pattern, u32 size, u32 phase)
{
	u32 bits = size * 8;

	pattern &= bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	if (!phase)
		return pattern;
	return ((pattern >> (phase * 8)) | (pattern << (bits - phase * 8))) &
	       ((1ULL << bits) - 1);
}

/*
 * A queue's write pointer, as the device reads it: plausible given the read
 * pointer read before (@rp_before) and after (@rp_after) it?  0, or
 * -EPROTO when it is behind or more than a ring ahead.  Correct across
 * wrap-around of the u64 counters: rptr only grows, so a well-behaved
 * wptr is never behind any rptr read before it, and never more than a ring
 * ahead of any rptr read after it.
 */
/* Ring slot of command number @n (counted from 0). */
static inline u32 ascend_ring_slot(u64 n, u32 ring_entries)
{
	return n & (ring_entries - 1);
}

static inline int ascend_ring_check_wptr(u64 rp_before, u64 rp_after,
					 u64 wptr, u32 ring_entries)
{
	if ((s64)(wptr - rp_before) < 0)
		return -EPROTO;
	if ((s64)(wptr - rp_after) > 0 && wptr - rp_after > ring_entries)
		return -EPROTO;
	return 0;
}

#endif /* __ASCEND_HW_RULES_H__ */
