// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the element operations of the DMA engines' reduce
 * descriptor (ring command REDUCE): dst[i] = op(dst[i], src[i]) over a
 * buffer of little-endian elements.  Pure functions of their arguments, so
 * KUnit tests them on their own; the engine (ascend_emu_dma.c) reads both
 * sides into buffers, calls ascend_reduce_apply() and writes dst back.
 *
 * Integers wrap (two's complement; uint32 modulo 2^32).  Float sums are
 * IEEE-754 with round to nearest even, in integer arithmetic (kernel code
 * does not touch the FPU): binary32 directly, binary16 and bfloat16 by
 * widening both operands to binary32 (exact), adding there and rounding
 * once back.  binary32 has more than twice the precision of either narrow
 * type plus two bits, so the rounding to binary32 never changes the final
 * result: the narrow sum is the correctly rounded one.  MAX and MIN order
 * -0 below +0 and return a quiet NaN when an operand is a NaN: the
 * destination's when it is one, else the source's.
 */

#include <linux/kernel.h>
#include <linux/unaligned.h>

#include "ascend_emu.h"

unsigned int ascend_reduce_elem_size(u32 dtype)
{
	switch (dtype) {
	case ASCEND_REDUCE_INT8:
		return 1;
	case ASCEND_REDUCE_INT16:
	case ASCEND_REDUCE_FP16:
	case ASCEND_REDUCE_BF16:
		return 2;
	case ASCEND_REDUCE_INT32:
	case ASCEND_REDUCE_UINT32:
	case ASCEND_REDUCE_FP32:
		return 4;
	default:
		return 0;
	}
}

bool ascend_reduce_op_valid(u32 op)
{
	return op == ASCEND_REDUCE_SUM || op == ASCEND_REDUCE_MAX ||
	       op == ASCEND_REDUCE_MIN;
}

/* A float of @bits bits (sign, then @mbits of mantissa at the bottom). */
static bool red_is_nan(u32 v, unsigned int bits, unsigned int mbits)
{
	u32 mag = v & ((1U << (bits - 1)) - 1);
	u32 inf = ((1U << (bits - 1 - mbits)) - 1) << mbits;

	return mag > inf;
}

/* A key whose unsigned order is the float order, -0 below +0. */
static u32 red_key(u32 v, unsigned int bits)
{
	u32 sign = 1U << (bits - 1);
	u32 all = bits == 32 ? ~0U : (1U << bits) - 1;

	return v & sign ? ~v & all : v | sign;
}

/* MAX or MIN of two floats of @bits bits; a NaN operand wins, quieted. */
static u32 red_fminmax(u32 op, u32 a, u32 b, unsigned int bits,
		       unsigned int mbits)
{
	u32 quiet = 1U << (mbits - 1);
	bool a_gt;

	if (red_is_nan(a, bits, mbits))
		return a | quiet;
	if (red_is_nan(b, bits, mbits))
		return b | quiet;
	a_gt = red_key(a, bits) > red_key(b, bits);
	if (op == ASCEND_REDUCE_MAX)
		return a_gt ? a : b;
	return a_gt ? b : a;
}

static s64 red_iminmax(u32 op, s64 a, s64 b)
{
	if (op == ASCEND_REDUCE_MAX)
		return max(a, b);
	return min(a, b);
}

u32 ascend_reduce_one(u32 op, u32 dtype, u32 a, u32 b)
{
	switch (dtype) {
	case ASCEND_REDUCE_INT8:
		if (op == ASCEND_REDUCE_SUM)
			return (u8)(a + b);
		return (u8)red_iminmax(op, (s8)a, (s8)b);
	case ASCEND_REDUCE_INT16:
		if (op == ASCEND_REDUCE_SUM)
			return (u16)(a + b);
		return (u16)red_iminmax(op, (s16)a, (s16)b);
	case ASCEND_REDUCE_INT32:
		if (op == ASCEND_REDUCE_SUM)
			return a + b;
		return (u32)red_iminmax(op, (s32)a, (s32)b);
	case ASCEND_REDUCE_UINT32:
		if (op == ASCEND_REDUCE_SUM)
			return a + b;
		return (u32)red_iminmax(op, a, b);
	case ASCEND_REDUCE_FP16:
		if (op == ASCEND_REDUCE_SUM)
			return ascend_f32_to_f16(ascend_f32_add(ascend_f16_to_f32(a),
								ascend_f16_to_f32(b)));
		return red_fminmax(op, a, b, 16, 10);
	case ASCEND_REDUCE_BF16:
		if (op == ASCEND_REDUCE_SUM)
			return ascend_f32_to_bf16(ascend_f32_add(ascend_bf16_to_f32(a),
								 ascend_bf16_to_f32(b)));
		return red_fminmax(op, a, b, 16, 7);
	case ASCEND_REDUCE_FP32:
		if (op == ASCEND_REDUCE_SUM)
			return ascend_f32_add(a, b);
		return red_fminmax(op, a, b, 32, 23);
	default:
		return a;
	}
}

void ascend_reduce_apply(u32 op, u32 dtype, void *dst, const void *src,
			 size_t bytes)
{
	unsigned int es = ascend_reduce_elem_size(dtype);
	u8 *d = dst;
	const u8 *s = src;
	size_t i;

	if (!es || !ascend_reduce_op_valid(op))
		return;
	for (i = 0; i + es <= bytes; i += es) {
		switch (es) {
		case 1:
			d[i] = ascend_reduce_one(op, dtype, d[i], s[i]);
			break;
		case 2:
			put_unaligned_le16(ascend_reduce_one(op, dtype,
							     get_unaligned_le16(d + i),
							     get_unaligned_le16(s + i)),
					   d + i);
			break;
		default:
			put_unaligned_le32(ascend_reduce_one(op, dtype,
							     get_unaligned_le32(d + i),
							     get_unaligned_le32(s + i)),
					   d + i);
			break;
		}
	}
}
