// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the random-number generator of the RandomNum kernel and
 * the soft-float arithmetic it and the other float kernels share.
 *
 * Everything here is a pure function of its arguments (KUnit tests it on
 * its own).  The generator is Philox-4x32-10 (Salmon et al., "Parallel
 * random numbers: as easy as 1, 2, 3", SC 2011): a 128-bit counter and a
 * 64-bit key give four 32-bit words, so element i of a task depends only
 * on the seed, the task's counter and i, and blocks run in any order.
 * Float results are computed in integer arithmetic (kernel code does not
 * touch the FPU): the transcendental steps of the normal distribution
 * (Box-Muller: log, square root, cosine and sine) in fixed point, the
 * scaling by the distribution's parameters in IEEE binary32 rounded to
 * nearest even, then converted to the result type.
 */

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/math64.h>

#include "ascend_emu.h"

#define PHILOX_M0	0xd2511f53U
#define PHILOX_M1	0xcd9e8d57U
#define PHILOX_W0	0x9e3779b9U
#define PHILOX_W1	0xbb67ae85U

void ascend_philox4x32_10(const u32 ctr[4], const u32 key[2], u32 out[4])
{
	u32 c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
	u32 k0 = key[0], k1 = key[1];
	unsigned int r;
	u64 p0, p1;

	for (r = 0; r < 10; r++) {
		p0 = (u64)PHILOX_M0 * c0;
		p1 = (u64)PHILOX_M1 * c2;
		c0 = (u32)(p1 >> 32) ^ c1 ^ k0;
		c1 = (u32)p1;
		c2 = (u32)(p0 >> 32) ^ c3 ^ k1;
		c3 = (u32)p0;
		k0 += PHILOX_W0;
		k1 += PHILOX_W1;
	}
	out[0] = c0;
	out[1] = c1;
	out[2] = c2;
	out[3] = c3;
}

void ascend_rng_ctr_add(const u32 base[4], u64 n, u32 out[4])
{
	u64 lo = ((u64)base[1] << 32 | base[0]) + n;
	u64 hi = ((u64)base[3] << 32 | base[2]) + (lo < n ? 1 : 0);

	out[0] = (u32)lo;
	out[1] = (u32)(lo >> 32);
	out[2] = (u32)hi;
	out[3] = (u32)(hi >> 32);
}

/* ------------------------------------------------------------------------ */
/* binary32 / binary16 / bfloat16 in integer arithmetic */

static bool f32_is_nan(u32 a)
{
	return (a & 0x7fffffff) > 0x7f800000;
}

/* Round @m right by @shift bits to nearest, ties to even. */
static u64 round_shift(u64 m, unsigned int shift)
{
	u64 q, rem, half;

	if (!shift)
		return m;
	if (shift >= 64)
		return 0;	/* m < 2^63 here: below half of one unit */
	q = m >> shift;
	rem = m & ((1ULL << shift) - 1);
	half = 1ULL << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	return q;
}

/*
 * Sign @s (0 or 0x80000000), magnitude @m * 2^(@e - 150) with @m > 0
 * (any width below 2^62): the nearest binary32.
 */
static u32 f32_pack(u32 s, s32 e, u64 m)
{
	s32 k = fls64(m) - 1, shift = 0;
	u64 q;

	/* q = m * 2^(23 - k) in [2^23, 2^24), exponent e + k - 23 */
	e += k - 23;
	if (k < 23)
		m <<= 23 - k;
	else
		shift = k - 23;
	if (e <= 0) {			/* subnormal: more bits go */
		shift += 1 - e;
		e = 0;
	}
	q = round_shift(m, shift);
	if (!e)
		return s | (u32)q;	/* may round up to the smallest normal */
	if ((u64)(e - 1) * (1ULL << 23) + q >= 0x7f800000)
		return s | 0x7f800000;	/* overflow: inf */
	return s | (u32)((u64)(e - 1) * (1ULL << 23) + q);
}

u32 ascend_f32_mul(u32 a, u32 b)
{
	u32 s = (a ^ b) & 0x80000000;
	s32 ea = (a >> 23) & 0xff, eb = (b >> 23) & 0xff;
	u64 ma = a & 0x7fffff, mb = b & 0x7fffff;

	if (ea == 0xff || eb == 0xff) {
		if (f32_is_nan(a))
			return a | 0x400000;
		if (f32_is_nan(b))
			return b | 0x400000;
		if (!(a << 1) || !(b << 1))
			return 0x7fc00000;		/* inf * 0 */
		return s | 0x7f800000;
	}
	if (!(a << 1) || !(b << 1))
		return s;
	if (ea) {
		ma |= 0x800000;
	} else {
		ea = 1;
		while (!(ma & 0x800000)) {
			ma <<= 1;
			ea--;
		}
	}
	if (eb) {
		mb |= 0x800000;
	} else {
		eb = 1;
		while (!(mb & 0x800000)) {
			mb <<= 1;
			eb--;
		}
	}
	/* ma * mb * 2^(ea + eb - 300) = m * 2^(e - 150), m = ma * mb >> 23 */
	return f32_pack(s, ea + eb - 127 - 23, ma * mb);
}

u32 ascend_f32_from_fixed(s64 v, unsigned int frac)
{
	u32 s = v < 0 ? 0x80000000 : 0;
	u64 m = v < 0 ? -(u64)v : (u64)v;

	if (!m)
		return 0;
	/* m * 2^-frac = m * 2^(e - 150) */
	return f32_pack(s, 150 - (s32)frac, m);
}

bool ascend_f32_lt(u32 a, u32 b)
{
	s64 va, vb;

	if (f32_is_nan(a) || f32_is_nan(b))
		return false;
	va = a & 0x80000000 ? -(s64)(a & 0x7fffffff) : (s64)a;
	vb = b & 0x80000000 ? -(s64)(b & 0x7fffffff) : (s64)b;
	return va < vb;
}

u32 ascend_f16_to_f32(u16 h)
{
	u32 s = (u32)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)
		return s | 0x7f800000 | (m << 13);
	if (!e) {
		if (!m)
			return s;
		e = 1;
		while (!(m & 0x400)) {
			m <<= 1;
			e--;
		}
		m &= 0x3ff;
	}
	return s | ((e + 112) << 23) | (m << 13);
}

u16 ascend_f32_to_f16(u32 f)
{
	u32 s = (f >> 16) & 0x8000, m = f & 0x7fffff;
	s32 e = (f >> 23) & 0xff, he, shift = 13;
	u64 q;

	if (e == 0xff)
		return s | 0x7c00 | (m ? 0x200 | (m >> 13) : 0);
	if (!e)
		return s;	/* binary32 subnormals are far below binary16's */
	m |= 0x800000;
	he = e - 127 + 15;
	if (he <= 0) {
		shift += 1 - he;
		he = 0;
	}
	q = round_shift(m, min(shift, 63));
	if (!he)
		return s | (u16)q;
	if ((u64)(he - 1) * 1024 + q >= 0x7c00)
		return s | 0x7c00;
	return s | (u16)((he - 1) * 1024 + q);
}

u32 ascend_bf16_to_f32(u16 h)
{
	return (u32)h << 16;
}

u16 ascend_f32_to_bf16(u32 f)
{
	if (f32_is_nan(f))
		return (f >> 16) | 0x40;
	return (u16)((f + 0x7fff + ((f >> 16) & 1)) >> 16);
}

/* ------------------------------------------------------------------------ */
/* Fixed-point pieces of the normal distribution */

/* log2(m) in Q32 for 1 <= m <= 2^32 */
static u64 log2_q32(u64 m)
{
	unsigned int k = fls64(m) - 1, i;
	u64 x = k >= 31 ? m >> (k - 31) : m << (31 - k);	/* [1, 2) in Q31 */
	u64 frac = 0;

	for (i = 0; i < 32; i++) {
		x = (x * x) >> 31;
		if (x >= (1ULL << 32)) {
			x >>= 1;
			frac |= 1ULL << (31 - i);
		}
	}
	return ((u64)k << 32) | frac;
}

/* atan(2^-i) in Q30 */
static const u32 cordic_atan[30] = {
	843314857, 497837829, 263043837, 133525159, 67021687, 33543516,
	16775851, 8388437, 4194283, 2097149, 1048576, 524288, 262144, 131072,
	65536, 32768, 16384, 8192, 4096, 2048, 1024, 512, 256, 128, 64, 32,
	16, 8, 4, 2,
};

#define CORDIC_K_Q30	652032874	/* prod 1/sqrt(1 + 2^-2i) */
#define HALF_PI_Q30	1686629713
#define TWO_LN2_Q30	1488522236

/* cos and sin of 2 pi @w / 2^32, in Q30 */
static void cos_sin_q30(u32 w, s64 *c, s64 *s)
{
	s64 x = CORDIC_K_Q30, y = 0, z, t;
	unsigned int i;

	/* a quarter turn: angle in [0, pi/2) in Q30 */
	z = (s64)(((u64)(w & 0x3fffffff) * HALF_PI_Q30) >> 30);
	for (i = 0; i < ARRAY_SIZE(cordic_atan); i++) {
		t = x;
		if (z >= 0) {
			x -= y >> i;
			y += t >> i;
			z -= cordic_atan[i];
		} else {
			x += y >> i;
			y -= t >> i;
			z += cordic_atan[i];
		}
	}
	switch (w >> 30) {
	case 0:
		*c = x;
		*s = y;
		break;
	case 1:
		*c = -y;
		*s = x;
		break;
	case 2:
		*c = -x;
		*s = -y;
		break;
	default:
		*c = y;
		*s = -x;
		break;
	}
}

void ascend_rng_normal2(u32 w0, u32 w1, s64 *z0, s64 *z1)
{
	/* u = (w0 + 1) / 2^32 in (0, 1]; -2 ln u = 2 ln 2 (32 - log2(w0 + 1)) */
	u64 d = (32ULL << 32) - log2_q32((u64)w0 + 1);
	u64 l = mul_u64_u64_shr(d, TWO_LN2_Q30, 30);		/* Q32 */
	u64 r = int_sqrt((unsigned long)((l >> 4) << 28));	/* Q28 */
	s64 c, s;

	cos_sin_q30(w1, &c, &s);
	/* Q28 * Q30 = Q58, rounded to Q32 */
	*z0 = ((s64)r * c + (1LL << 25)) >> 26;
	*z1 = ((s64)r * s + (1LL << 25)) >> 26;
}
