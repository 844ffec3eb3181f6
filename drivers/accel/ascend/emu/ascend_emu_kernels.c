// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emulated NPU: the built-in kernel library run on "AI cores", and device
 * printf.
 *
 * A launch runs the kernel once per block, block_idx 0..num_blocks-1; the
 * command processor spreads the blocks over the AI-core threads
 * (ascend_emu_cp.c), so blocks run in parallel; a provably short launch
 * (ascend_emu_kernel_short()) runs on the command processor itself, block
 * after block.  Arguments come from the command the command processor
 * copied out of the ring; every memory access goes through the submitting
 * file's device MMU, so an unmapped address is an ASCEND_FAULT_MMU of that
 * queue, never a host access.
 */

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "ascend_emu.h"

/* Blocks one launch may ask for. */
#define ASCEND_EMU_MAX_BLOCKS	65535

/* Longest single device printf, terminating NUL included. */
#define ASCEND_EMU_PRINTF_MAX	256

/**
 * struct ascend_kctx - what a running block sees
 * @q: the queue the launch came from (its owner's MMU)
 * @args: packed arguments (inside the copied command)
 * @block_idx: this block
 * @num_blocks: blocks in the launch
 * @scratch: ASCEND_EMU_SCRATCH_SIZE bytes of working memory
 * @abort: set when the launch is aborted (timeout, a fault of another
 *	block); NULL when nobody aborts
 * @sl: the block's turn on an AI core, which it may yield at a poll point
 *	(NULL: it never yields)
 * @f: where a fault is reported
 */
struct ascend_kctx {
	struct ascend_emu_queue *q;
	const u8 *args;
	u32 block_idx;
	u32 num_blocks;
	void *scratch;
	const bool *abort;
	struct ascend_emu_slice *sl;
	struct ascend_emu_fault *f;
};

/**
 * struct ascend_emu_kernel - one built-in kernel
 * @name: name user space looks up
 * @id: &ascend_cmd_launch.kernel_id
 * @args_size: minimum argument block size
 * @whole_launch: @run is called once for the launch, not once per block
 * @block_bytes: device bytes each block touches whatever the arguments
 * @count_off: offset of the u64 element count in the arguments (with
 *	@elem_bytes)
 * @elem_bytes: device bytes touched per counted element, over all blocks
 *	(0: no count); for Spin, whose count is microseconds, any count
 *	is over the budget, so only Spin(0) is short
 * @run: runs one block; 0 or -EIO with the fault filled in
 */
struct ascend_emu_kernel {
	const char *name;
	u32 id;
	u32 args_size;
	bool whole_launch;
	u8 block_bytes;
	u8 count_off;
	u32 elem_bytes;
	int (*run)(struct ascend_kctx *k);
};

/* ------------------------------------------------------------------------ */
/* Helpers */

static inline u64 karg_u64(const struct ascend_kctx *k, unsigned int off)
{
	u64 v;

	memcpy(&v, k->args + off, sizeof(v));
	return v;
}

static u32 karg_u32(const struct ascend_kctx *k, unsigned int off)
{
	u32 v;

	memcpy(&v, k->args + off, sizeof(v));
	return v;
}

static int kfault(struct ascend_kctx *k, u32 code, u64 addr)
{
	k->f->code = code;
	k->f->addr = addr;
	return -EIO;
}

/* Device address of element @idx of @elem_size bytes at @base. */
static int kaddr(struct ascend_kctx *k, u64 base, u64 idx, u32 elem_size,
		 u64 *va)
{
	u64 off;

	if (check_mul_overflow(idx, (u64)elem_size, &off) ||
	    check_add_overflow(base, off, va))
		return kfault(k, ASCEND_FAULT_MMU, base);
	return 0;
}

static int kmem(struct ascend_kctx *k, u64 va, void *buf, size_t len,
		bool write)
{
	if (ascend_emu_vm_rw(k->q, va, buf, len, write))
		return kfault(k, ASCEND_FAULT_MMU, va);
	return 0;
}

/* Has the queue been stopped under this launch? */
static int kcheck_stop(struct ascend_kctx *k)
{
	if (READ_ONCE(k->q->cp_stop) || (k->abort && READ_ONCE(*k->abort)))
		return kfault(k, ASCEND_FAULT_ABORTED, 0);
	return 0;
}

/*
 * A poll point after the block's work up to @pos: -EIO when it is to stop,
 * -EAGAIN when it yields its AI core (it resumes at @pos later), else 0.
 */
static int kpoll(struct ascend_kctx *k, u64 pos)
{
	if (kcheck_stop(k))
		return -EIO;
	if (k->sl && ascend_emu_core_yield_due(k->sl)) {
		k->sl->pos = pos;
		return -EAGAIN;
	}
	return 0;
}

/* Where the block (re)starts: @start, or where it yielded. */
static u64 kresume(const struct ascend_kctx *k, u64 start)
{
	return k->sl && k->sl->pos ? k->sl->pos : start;
}

/* This block's share [*start, *end) of @count elements. */
static void kshare(const struct ascend_kctx *k, u64 count, u64 *start,
		   u64 *end)
{
	u64 per = div_u64(count, k->num_blocks);
	u32 rem = count - per * k->num_blocks;
	u32 b = k->block_idx;

	/* the first @rem blocks take one extra element */
	*start = per * b + min(b, rem);
	*end = *start + per + (b < rem ? 1 : 0);
}

/* ------------------------------------------------------------------------ */
/* The kernels */

/* DeviceWrite(int *p, int v): p[block_idx] = v; printf("Source data: %d\n", v) */
static int k_device_write(struct ascend_kctx *k)
{
	s32 v = (s32)karg_u32(k, 8);
	u64 va;

	if (kaddr(k, karg_u64(k, 0), k->block_idx, sizeof(v), &va) ||
	    kmem(k, va, &v, sizeof(v), true))
		return -EIO;
	ascend_emu_printf(k->q, "Source data: %d\n", v);
	return 0;
}

/* DeviceRead(int *p): printf("Destination data: %d\n", p[block_idx]) */
static int k_device_read(struct ascend_kctx *k)
{
	s32 v;
	u64 va;

	if (kaddr(k, karg_u64(k, 0), k->block_idx, sizeof(v), &va) ||
	    kmem(k, va, &v, sizeof(v), false))
		return -EIO;
	ascend_emu_printf(k->q, "Destination data: %d\n", v);
	return 0;
}

/* Fill32(u32 *p, u32 v, u64 count): each block fills its share of p */
static int k_fill32(struct ascend_kctx *k)
{
	const unsigned int step = ASCEND_EMU_SCRATCH_SIZE / sizeof(u32);
	u64 p = karg_u64(k, 0), count = karg_u64(k, 16);
	u32 v = karg_u32(k, 8), *buf = k->scratch;
	u64 i, start, end, va;
	unsigned int n, j;
	int ret;

	kshare(k, count, &start, &end);
	for (j = 0; j < step; j++)
		buf[j] = v;
	for (i = kresume(k, start); i < end; i += n) {
		n = min_t(u64, end - i, step);
		if (kaddr(k, p, i, sizeof(u32), &va) ||
		    kmem(k, va, buf, n * sizeof(u32), true))
			return -EIO;
		ret = kpoll(k, i + n);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/* Add32(const i32 *a, const i32 *b, i32 *c, u64 n): c = a + b, by shares */
static int k_add32(struct ascend_kctx *k)
{
	const unsigned int step = ASCEND_EMU_SCRATCH_SIZE / 3 / sizeof(s32);
	u64 a = karg_u64(k, 0), b = karg_u64(k, 8), c = karg_u64(k, 16);
	s32 *ba = k->scratch, *bb = ba + step;
	u64 i, start, end, va, vb, vc;
	unsigned int n, j;
	int ret;

	kshare(k, karg_u64(k, 24), &start, &end);
	for (i = kresume(k, start); i < end; i += n) {
		n = min_t(u64, end - i, step);
		if (kaddr(k, a, i, sizeof(s32), &va) ||
		    kaddr(k, b, i, sizeof(s32), &vb) ||
		    kaddr(k, c, i, sizeof(s32), &vc) ||
		    kmem(k, va, ba, n * sizeof(s32), false) ||
		    kmem(k, vb, bb, n * sizeof(s32), false))
			return -EIO;
		for (j = 0; j < n; j++)
			ba[j] = (s32)((u32)ba[j] + (u32)bb[j]);
		if (kmem(k, vc, ba, n * sizeof(s32), true))
			return -EIO;
		ret = kpoll(k, i + n);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/* Copy(void *dst, const void *src, u64 bytes): memcpy, by shares */
static int k_copy(struct ascend_kctx *k)
{
	u64 dst = karg_u64(k, 0), src = karg_u64(k, 8), bytes = karg_u64(k, 16);
	u64 i, start, end, vd, vs;
	unsigned int n;
	int ret;

	kshare(k, bytes, &start, &end);
	for (i = kresume(k, start); i < end; i += n) {
		n = min_t(u64, end - i, ASCEND_EMU_SCRATCH_SIZE);
		if (kaddr(k, src, i, 1, &vs) || kaddr(k, dst, i, 1, &vd) ||
		    kmem(k, vs, k->scratch, n, false) ||
		    kmem(k, vd, k->scratch, n, true))
			return -EIO;
		ret = kpoll(k, i + n);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/*
 * IEEE-754 binary32 addition, round to nearest even, in integer
 * arithmetic: kernel code may not use the FPU without kernel_fpu_begin(),
 * and this keeps the emulated AI core portable and its results exact.
 */
u32 ascend_f32_add(u32 a, u32 b)
{
	u32 sa = a >> 31, sb = b >> 31, ma = a & 0x7fffff, mb = b & 0x7fffff;
	s32 ea = (a >> 23) & 0xff, eb = (b >> 23) & 0xff, e;
	u64 xa, xb, m;
	u32 d, round;

	if (ea == 0xff || eb == 0xff) {
		if (ea == 0xff && ma)
			return a | 0x400000;		/* quiet the NaN */
		if (eb == 0xff && mb)
			return b | 0x400000;
		if (ea == 0xff && eb == 0xff && sa != sb)
			return 0x7fc00000;		/* inf - inf */
		return ea == 0xff ? a : b;
	}
	if (!(a << 1))
		return (b << 1) ? b : (a & b);		/* -0 + -0 = -0 */
	if (!(b << 1))
		return a;

	/* implicit bit; subnormals scale like exponent 1 */
	if (ea)
		ma |= 0x800000;
	else
		ea = 1;
	if (eb)
		mb |= 0x800000;
	else
		eb = 1;
	/* a is the larger magnitude */
	if (ea < eb || (ea == eb && ma < mb)) {
		swap(sa, sb);
		swap(ea, eb);
		swap(ma, mb);
	}
	/* 8 guard bits, then align b with a sticky bit */
	xa = (u64)ma << 8;
	xb = (u64)mb << 8;
	d = ea - eb;
	if (d >= 40)
		xb = xb != 0;
	else if (d)
		xb = (xb >> d) | ((xb & ((1ULL << d) - 1)) != 0);
	m = sa == sb ? xa + xb : xa - xb;
	if (!m)
		return 0;				/* x - x = +0 */
	e = ea;
	while (m >= (1ULL << 32)) {
		m = (m >> 1) | (m & 1);
		e++;
	}
	while (m < (1ULL << 31) && e > 1) {
		m <<= 1;
		e--;
	}
	round = m & 0xff;
	m >>= 8;
	if (round > 0x80 || (round == 0x80 && (m & 1)))
		m++;
	if (m >= (1ULL << 24)) {
		m >>= 1;
		e++;
	}
	if (e >= 0xff)
		return (sa << 31) | 0x7f800000;		/* overflow: inf */
	/* exponent field 0 when the result stayed subnormal */
	return (sa << 31) | ((m & 0x800000) ? (u32)e << 23 : 0) |
	       (u32)(m & 0x7fffff);
}

/* inf or NaN */
static bool f32_special(u32 x)
{
	return ((x >> 23) & 0xff) == 0xff;
}

/*
 * A float kernel's result overflowed (inf or NaN from finite inputs):
 * record it in the queue owner's status, if the queue's switch is on.
 */
static void kovf(struct ascend_kctx *k)
{
	if (READ_ONCE(k->q->ovf_detect))
		ascend_emu_smmu_overflow_set(k->q->emu, k->q->ctx.asid);
}

/*
 * AddF32(const float *a, const float *b, float *c, u64 n): c = a + b; an
 * inf or NaN sum of finite inputs is a floating-point overflow (kovf)
 */
static int k_addf32(struct ascend_kctx *k)
{
	const unsigned int step = ASCEND_EMU_SCRATCH_SIZE / 3 / sizeof(u32);
	u64 a = karg_u64(k, 0), b = karg_u64(k, 8), c = karg_u64(k, 16);
	u32 *ba = k->scratch, *bb = ba + step;
	u64 i, start, end, va, vb, vc;
	unsigned int n, j;
	bool ovf = false;
	int ret;

	kshare(k, karg_u64(k, 24), &start, &end);
	for (i = kresume(k, start); i < end; i += n) {
		n = min_t(u64, end - i, step);
		if (kaddr(k, a, i, sizeof(u32), &va) ||
		    kaddr(k, b, i, sizeof(u32), &vb) ||
		    kaddr(k, c, i, sizeof(u32), &vc) ||
		    kmem(k, va, ba, n * sizeof(u32), false) ||
		    kmem(k, vb, bb, n * sizeof(u32), false))
			return -EIO;
		for (j = 0; j < n; j++) {
			u32 r = ascend_f32_add(ba[j], bb[j]);

			if (f32_special(r) && !f32_special(ba[j]) &&
			    !f32_special(bb[j]))
				ovf = true;
			ba[j] = r;
		}
		if (kmem(k, vc, ba, n * sizeof(u32), true))
			return -EIO;
		if (ovf) {
			kovf(k);
			ovf = false;
		}
		ret = kpoll(k, i + n);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Random numbers (RandomNum, RandomAdvance): see Documentation/hardware.rst */

/* Argument block of RandomNum and RandomAdvance */
#define RNG_RESULT	0	/* u64 VA of the results */
#define RNG_COUNTER	8	/* u64 VA of the 128-bit counter */
#define RNG_PARA	16	/* u64 VA of the 16-byte parameter block, or 0 */
#define RNG_SEED	24	/* u64 seed, or its VA */
#define RNG_NUM		32	/* u64 count, or its VA */
#define RNG_P1		40	/* first parameter (ratio, min, mean), or its VA */
#define RNG_P2		48	/* second parameter (max, stddev), or its VA */
#define RNG_FUNC	56	/* u32 ASCEND_RNG_* */
#define RNG_TYPE	60	/* u32 ASCEND_RNG_T_* */
#define RNG_FLAGS	64	/* u32: which of seed, num, p1, p2 are VAs */
#define RNG_ARGS	72

enum {
	ASCEND_RNG_DROPOUT, ASCEND_RNG_UNIFORM, ASCEND_RNG_NORMAL,
	ASCEND_RNG_TRUNC_NORMAL, ASCEND_RNG_FUNCS
};

enum {
	ASCEND_RNG_T_F32, ASCEND_RNG_T_F16, ASCEND_RNG_T_BF16,
	ASCEND_RNG_T_I32, ASCEND_RNG_T_U32, ASCEND_RNG_T_I64,
	ASCEND_RNG_T_U64, ASCEND_RNG_TYPES
};

#define RNG_SEED_VA	BIT(0)
#define RNG_NUM_VA	BIT(1)
#define RNG_P1_VA	BIT(2)
#define RNG_P2_VA	BIT(3)

/* Truncated normal: redraws of an element before it gives up (0). */
#define RNG_TRUNC_TRIES	16

static const u8 rng_type_size[ASCEND_RNG_TYPES] = { 4, 2, 2, 4, 4, 8, 8 };

/**
 * struct ascend_rng - one RandomNum task as a block sees it
 * @func: ASCEND_RNG_*
 * @type: ASCEND_RNG_T_*
 * @num: elements (bits of a dropout mask)
 * @key: Philox key: the seed
 * @ctr: the task's counter
 * @p1: first parameter, as binary32 for float types (raw for integers)
 * @p2: second parameter
 * @thr: dropout: a word below it drops its element
 * @special: a float parameter is inf or NaN (no overflow then)
 */
struct ascend_rng {
	u32 func, type;
	u64 num;
	u32 key[2];
	u32 ctr[4];
	u64 p1, p2;
	u64 thr;
	bool special;
};

/* A u64 argument that is a value, or (when @va) the @size bytes at it. */
static int krng_val(struct ascend_kctx *k, unsigned int off, bool va,
		    unsigned int size, u64 *v)
{
	u64 x = karg_u64(k, off);

	if (!va) {
		*v = size < 8 ? x & ((1ULL << (size * 8)) - 1) : x;
		return 0;
	}
	*v = 0;
	return kmem(k, x, v, size, false);	/* little endian */
}

static u32 rng_to_f32(u32 type, u64 v)
{
	if (type == ASCEND_RNG_T_F16)
		return ascend_f16_to_f32((u16)v);
	if (type == ASCEND_RNG_T_BF16)
		return ascend_bf16_to_f32((u16)v);
	return (u32)v;
}

/* P(drop) = ratio: the word threshold ratio * 2^32, clamped to [0, 2^32] */
static u64 rng_dropout_thr(u32 r)
{
	s32 e = (r >> 23) & 0xff;
	u64 m = (r & 0x7fffff) | (e ? 0x800000 : 0);

	if ((r & 0x7fffffff) > 0x7f800000 || (r >> 31) || !(r << 1))
		return 0;			/* NaN, negative, zero: keep all */
	if (!ascend_f32_lt(r, 0x3f800000))
		return 1ULL << 32;		/* ratio >= 1: drop all */
	/* r = m * 2^(e - 150), times 2^32 */
	if (!e)
		e = 1;
	return e - 118 >= 0 ? m << (e - 118) :
	       (e - 118 > -64 ? m >> (118 - e) : 0);
}

static int krng_setup(struct ascend_kctx *k, struct ascend_rng *g)
{
	u32 flags = karg_u32(k, RNG_FLAGS);
	unsigned int size;
	u64 seed;

	g->func = karg_u32(k, RNG_FUNC);
	g->type = karg_u32(k, RNG_TYPE);
	if (g->func >= ASCEND_RNG_FUNCS || g->type >= ASCEND_RNG_TYPES ||
	    (flags & ~(RNG_SEED_VA | RNG_NUM_VA | RNG_P1_VA | RNG_P2_VA)) ||
	    karg_u32(k, RNG_FLAGS + 4) ||
	    (g->func != ASCEND_RNG_UNIFORM && g->type > ASCEND_RNG_T_BF16))
		return kfault(k, ASCEND_FAULT_BAD_COMMAND, 0);
	size = rng_type_size[g->type];
	if (krng_val(k, RNG_SEED, flags & RNG_SEED_VA, 8, &seed) ||
	    krng_val(k, RNG_NUM, flags & RNG_NUM_VA, 8, &g->num) ||
	    krng_val(k, RNG_P1, flags & RNG_P1_VA, size, &g->p1) ||
	    krng_val(k, RNG_P2, flags & RNG_P2_VA, size, &g->p2) ||
	    kmem(k, karg_u64(k, RNG_COUNTER), g->ctr, sizeof(g->ctr), false))
		return -EIO;
	g->key[0] = (u32)seed;
	g->key[1] = (u32)(seed >> 32);
	le32_to_cpus(&g->ctr[0]);
	le32_to_cpus(&g->ctr[1]);
	le32_to_cpus(&g->ctr[2]);
	le32_to_cpus(&g->ctr[3]);
	if (g->type <= ASCEND_RNG_T_BF16) {
		g->p1 = rng_to_f32(g->type, g->p1);
		g->p2 = rng_to_f32(g->type, g->p2);
		g->special = f32_special(g->p1) || f32_special(g->p2);
	}
	if (g->func == ASCEND_RNG_DROPOUT)
		g->thr = rng_dropout_thr(g->p1);
	return 0;
}

/* Elements one Philox block (four words) serves. */
static u32 rng_per_block(const struct ascend_rng *g)
{
	if (g->func == ASCEND_RNG_TRUNC_NORMAL)
		return 1;
	if (g->func == ASCEND_RNG_UNIFORM && g->type >= ASCEND_RNG_T_I64)
		return 2;
	return 4;
}

/* The four words of Philox block @n of the task (with @try as key offset). */
static void rng_block(const struct ascend_rng *g, u64 n, u32 try, u32 w[4])
{
	u32 c[4], key[2] = { g->key[0], g->key[1] + try };

	ascend_rng_ctr_add(g->ctr, n, c);
	ascend_philox4x32_10(c, key, w);
}

/* The largest value of the type below @x (binary32 / binary16 bits). */
static u32 f32_below(u32 x)
{
	if (!(x << 1))
		return 0x80000001;
	return x & 0x80000000 ? x + 1 : x - 1;
}

static u16 f16_below(u16 x)
{
	if (!(x & 0x7fff))
		return 0x8001;
	return x & 0x8000 ? x + 1 : x - 1;
}

/* binary32 @f into element @i of @out as the task's float type */
static bool rng_store_float(const struct ascend_rng *g, void *out,
			    unsigned int i, u32 f, bool clamp)
{
	u16 h;

	if (g->type == ASCEND_RNG_T_F32) {
		/* uniform: [min, max) */
		if (clamp && !ascend_f32_lt(f, (u32)g->p2))
			f = f32_below((u32)g->p2);
		if (clamp && ascend_f32_lt(f, (u32)g->p1))
			f = (u32)g->p1;
		((u32 *)out)[i] = f;
		return f32_special(f);
	}
	if (g->type == ASCEND_RNG_T_F16) {
		h = ascend_f32_to_f16(f);
		if (clamp && !ascend_f32_lt(ascend_f16_to_f32(h), (u32)g->p2))
			h = f16_below(ascend_f32_to_f16((u32)g->p2));
	} else {
		h = ascend_f32_to_bf16(f);
		if (clamp && !ascend_f32_lt(ascend_bf16_to_f32(h), (u32)g->p2))
			h = f16_below(ascend_f32_to_bf16((u32)g->p2));
	}
	if (clamp && ascend_f32_lt(rng_to_f32(g->type, h), (u32)g->p1))
		h = g->type == ASCEND_RNG_T_F16 ? ascend_f32_to_f16((u32)g->p1) :
		    ascend_f32_to_bf16((u32)g->p1);
	((u16 *)out)[i] = h;
	return f32_special(rng_to_f32(g->type, h));
}

/* Uniform element @i into @out[@j]; true: a float result overflowed. */
static bool rng_uniform(const struct ascend_rng *g, const u32 w[4], u64 i,
			void *out, unsigned int j)
{
	u64 range, r;
	u32 u, f;

	switch (g->type) {
	case ASCEND_RNG_T_I32:
	case ASCEND_RNG_T_U32: {
		u32 lo = (u32)g->p1, hi = (u32)g->p2;
		bool less = g->type == ASCEND_RNG_T_I32 ? (s32)lo < (s32)hi :
			    lo < hi;

		range = less ? (u32)(hi - lo) : 0;
		((u32 *)out)[j] = lo + (u32)(((u64)w[i & 3] * range) >> 32);
		return false;
	}
	case ASCEND_RNG_T_I64:
	case ASCEND_RNG_T_U64: {
		bool less = g->type == ASCEND_RNG_T_I64 ?
			    (s64)g->p1 < (s64)g->p2 : g->p1 < g->p2;

		range = less ? g->p2 - g->p1 : 0;
		r = (u64)w[(i & 1) * 2 + 1] << 32 | w[(i & 1) * 2];
		((u64 *)out)[j] = g->p1 + mul_u64_u64_shr(r, range, 64);
		return false;
	}
	}
	/* float: min + u (max - min), u = k / 2^24 in [0, 1) */
	if (!ascend_f32_lt((u32)g->p1, (u32)g->p2))
		return rng_store_float(g, out, j, (u32)g->p1, false) &&
		       !g->special;
	u = ascend_f32_from_fixed(w[i & 3] >> 8, 24);
	f = ascend_f32_add((u32)g->p1,
			   ascend_f32_mul(u, ascend_f32_add((u32)g->p2,
							    (u32)g->p1 ^ 0x80000000)));
	return rng_store_float(g, out, j, f, true) && !g->special;
}

/* Normal element @i (truncated: |z| <= 2) into @out[@j]. */
static bool rng_normal(const struct ascend_rng *g, const u32 w[4], u64 i,
		       void *out, unsigned int j)
{
	unsigned int t, x;
	u32 f = 0, v[4];
	s64 z[4];

	if (g->func == ASCEND_RNG_NORMAL) {
		/* words 0, 1 give elements 4n, 4n + 1; words 2, 3 the others */
		ascend_rng_normal2(w[i & 2], w[(i & 2) + 1], &z[0], &z[1]);
		f = ascend_f32_from_fixed(z[i & 1], 32);
	} else {
		/*
		 * the first of the block's four values within two stddev; a
		 * block without one is drawn again with the key's high word
		 * plus 1, 2, ...
		 */
		memcpy(v, w, sizeof(v));
		for (t = 0; t < RNG_TRUNC_TRIES; t++) {
			ascend_rng_normal2(v[0], v[1], &z[0], &z[1]);
			ascend_rng_normal2(v[2], v[3], &z[2], &z[3]);
			for (x = 0; x < 4; x++)
				if (abs(z[x]) <= (2LL << 32))
					break;
			if (x < 4) {
				f = ascend_f32_from_fixed(z[x], 32);
				break;
			}
			rng_block(g, i, t + 1, v);
		}
	}
	f = ascend_f32_add((u32)g->p1, ascend_f32_mul(f, (u32)g->p2));
	return rng_store_float(g, out, j, f, false) && !g->special;
}

/* Dropout mask byte @i: bit b keeps element 8 i + b (1) or drops it (0). */
static u8 rng_dropout_byte(const struct ascend_rng *g, u64 i)
{
	u32 w[8];
	unsigned int b;
	u8 v = 0;

	rng_block(g, 2 * i, 0, w);
	rng_block(g, 2 * i + 1, 0, w + 4);
	for (b = 0; b < 8 && 8 * i + b < g->num; b++)
		if (w[b] >= g->thr)
			v |= 1 << b;
	return v;
}

/*
 * RandomNum: the task's results, by shares of elements (of mask bytes for
 * a dropout mask); the counter is left to RandomAdvance
 */
static int k_random(struct ascend_kctx *k)
{
	u64 res = karg_u64(k, RNG_RESULT), i, start, end, units, va, blk;
	struct ascend_rng g;
	unsigned int esize, step, n, j;
	bool ovf = false;
	u32 w[4];
	int ret;

	if (krng_setup(k, &g))
		return -EIO;
	if (g.func == ASCEND_RNG_DROPOUT) {
		esize = 1;
		units = DIV_ROUND_UP_ULL(g.num, 8);
	} else {
		esize = rng_type_size[g.type];
		units = g.num;
	}
	step = ASCEND_EMU_SCRATCH_SIZE / esize;
	kshare(k, units, &start, &end);
	for (i = kresume(k, start); i < end; i += n) {
		n = min_t(u64, end - i, step);
		blk = U64_MAX;
		for (j = 0; j < n; j++) {
			u64 e = i + j;

			if (g.func == ASCEND_RNG_DROPOUT) {
				((u8 *)k->scratch)[j] = rng_dropout_byte(&g, e);
				continue;
			}
			if (div_u64(e, rng_per_block(&g)) != blk) {
				blk = div_u64(e, rng_per_block(&g));
				rng_block(&g, blk, 0, w);
			}
			if (g.func == ASCEND_RNG_UNIFORM)
				ovf |= rng_uniform(&g, w, e, k->scratch, j);
			else
				ovf |= rng_normal(&g, w, e, k->scratch, j);
		}
		if (kaddr(k, res, i, esize, &va) ||
		    kmem(k, va, k->scratch, (size_t)n * esize, true))
			return -EIO;
		if (ovf) {
			kovf(k);
			ovf = false;
		}
		ret = kpoll(k, i + n);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/*
 * RandomAdvance: after RandomNum, in stream order: the parameter block
 * (when named) and the counter advanced by the Philox blocks the task used
 */
static int k_random_advance(struct ascend_kctx *k)
{
	u64 para = karg_u64(k, RNG_PARA), blocks, pb[2];
	u32 c[4], per;
	struct ascend_rng g;

	if (krng_setup(k, &g))
		return -EIO;
	if (g.func == ASCEND_RNG_DROPOUT) {
		/* two blocks per mask byte */
		blocks = 2 * DIV_ROUND_UP_ULL(g.num, 8);
	} else {
		per = rng_per_block(&g);
		blocks = div_u64(g.num, per) + (g.num % per ? 1 : 0);
	}
	if (para) {
		pb[0] = cpu_to_le64(karg_u64(k, RNG_P1));
		pb[1] = cpu_to_le64(karg_u64(k, RNG_P2));
		if (kmem(k, para, pb, sizeof(pb), true))
			return -EIO;
	}
	ascend_rng_ctr_add(g.ctr, blocks, c);
	cpu_to_le32s(&c[0]);
	cpu_to_le32s(&c[1]);
	cpu_to_le32s(&c[2]);
	cpu_to_le32s(&c[3]);
	return kmem(k, karg_u64(k, RNG_COUNTER), c, sizeof(c), true);
}

/* ------------------------------------------------------------------------ */
/* Overflow status and printing */

/* OverflowSwitch(u32 on): the queue's float kernels record overflows */
static int k_overflow_switch(struct ascend_kctx *k)
{
	WRITE_ONCE(k->q->ovf_detect, karg_u32(k, 0) != 0);
	return 0;
}

/*
 * OverflowStatus(void *dst, u64 size): the queue owner's status as
 * @size (at most 64) bytes: u32 0 is the status word, the rest 0
 */
static int k_overflow_status(struct ascend_kctx *k)
{
	u64 size = karg_u64(k, 8);
	__le32 buf[16] = { 0 };

	if (size > sizeof(buf))
		return kfault(k, ASCEND_FAULT_BAD_COMMAND, 0);
	buf[0] = cpu_to_le32(ascend_emu_smmu_overflow_get(k->q->emu,
							  k->q->ctx.asid,
							  false));
	if (!size)
		return 0;
	return kmem(k, karg_u64(k, 0), buf, size, true);
}

/* OverflowReset(): clear the queue owner's status */
static int k_overflow_reset(struct ascend_kctx *k)
{
	ascend_emu_smmu_overflow_get(k->q->emu, k->q->ctx.asid, true);
	return 0;
}

/* PrintString(const char *s, u64 len): printf("%s") of at most len bytes */
static int k_print_string(struct ascend_kctx *k)
{
	u64 len = min_t(u64, karg_u64(k, 8), ASCEND_EMU_PRINTF_MAX - 1);
	char *buf = k->scratch;

	if (!len)
		return 0;
	if (kmem(k, karg_u64(k, 0), buf, len, false))
		return -EIO;
	buf[len] = 0;
	ascend_emu_printf(k->q, "%s", buf);
	return 0;
}

/* KernelPrint(): printf("Hello World\n"), CANN's sample print kernel */
static int k_kernel_print(struct ascend_kctx *k)
{
	ascend_emu_printf(k->q, "Hello World\n");
	return 0;
}

/*
 * Spin(u64 usec): the blocks run in parallel, so the launch takes usec.
 * Its progress (the microseconds spun) is its resume point.
 */
static int k_spin(struct ascend_kctx *k)
{
	u64 total = karg_u64(k, 0), done = kresume(k, 0);
	unsigned long step;
	int ret;

	while (done < total) {
		ret = kpoll(k, done);
		if (ret)
			return ret;
		step = min_t(u64, total - done, 1000);
		usleep_range(step, step + 50);
		done += step;
	}
	return 0;
}

/* Trap(): raises an AI-core exception */
static int k_trap(struct ascend_kctx *k)
{
	return kfault(k, ASCEND_FAULT_KERNEL, 0);
}

static const struct ascend_emu_kernel ascend_emu_kernels[] = {
	{ "DeviceWrite", 1, 12, false, 4,  0,  0, k_device_write },
	{ "DeviceRead",  2,  8, false, 4,  0,  0, k_device_read },
	{ "Fill32",      3, 24, false, 0, 16,  4, k_fill32 },
	{ "Add32",       4, 32, false, 0, 24, 12, k_add32 },
	{ "Spin",        5,  8, true,  0,  0, ASCEND_EMU_SHORT_BYTES + 1,
	  k_spin },
	{ "Trap",        6,  0, false, 0,  0,  0, k_trap },
	{ "Copy",        7, 24, false, 0, 16,  2, k_copy },
	{ "AddF32",      8, 32, false, 0, 24, 12, k_addf32 },
	{ "RandomNum",   9, RNG_ARGS, false, 48, RNG_NUM, 16, k_random },
	{ "RandomAdvance", 10, RNG_ARGS, true, 64, 0, 0, k_random_advance },
	{ "OverflowSwitch", 11, 4, true, 0, 0, 0, k_overflow_switch },
	{ "OverflowStatus", 12, 16, true, 64, 0, 0, k_overflow_status },
	{ "OverflowReset", 13, 0, true, 0, 0, 0, k_overflow_reset },
	{ "PrintString", 14, 16, false, 255, 0, 0, k_print_string },
	{ "KernelPrint", 15, 0, false, 0, 0, 0, k_kernel_print },
};

/* The kernel with @id: ids are numbered from 1 in table order. */
static const struct ascend_emu_kernel *ascend_emu_kernel_find(u32 id)
{
	const struct ascend_emu_kernel *kern;

	if (!id || id > ARRAY_SIZE(ascend_emu_kernels))
		return NULL;
	kern = &ascend_emu_kernels[id - 1];
	return WARN_ON_ONCE(kern->id != id) ? NULL : kern;
}

const struct ascend_emu_kernel *
ascend_emu_kernel_prepare(const struct ascend_cmd_launch *l, u32 *nr_runs)
{
	const struct ascend_emu_kernel *kern = ascend_emu_kernel_find(l->kernel_id);

	if (!kern || !l->num_blocks ||
	    l->num_blocks > ASCEND_EMU_MAX_BLOCKS ||
	    l->args_size > ASCEND_LAUNCH_ARGS_MAX ||
	    l->args_size < kern->args_size)
		return NULL;
	*nr_runs = kern->whole_launch ? 1 : l->num_blocks;
	return kern;
}

bool ascend_emu_kernel_short(const struct ascend_emu_kernel *kern,
			     const struct ascend_cmd_launch *l)
{
	u64 count = 0, bytes, elems;

	if (l->num_blocks > ASCEND_EMU_SHORT_BLOCKS)
		return false;
	if (kern->elem_bytes)
		memcpy(&count, l->args + kern->count_off, sizeof(count));
	if (check_mul_overflow(count, (u64)kern->elem_bytes, &elems) ||
	    check_add_overflow(elems, (u64)l->num_blocks * kern->block_bytes,
			       &bytes))
		return false;
	return bytes <= ASCEND_EMU_SHORT_BYTES;
}

int ascend_emu_kernel_run(struct ascend_emu_queue *q,
			  const struct ascend_emu_kernel *kern,
			  const struct ascend_cmd_launch *l, u32 block,
			  void *scratch, const bool *abort,
			  struct ascend_emu_slice *sl,
			  struct ascend_emu_fault *f)
{
	struct ascend_kctx k = {
		.q = q,
		.args = l->args,
		.block_idx = block,
		.num_blocks = l->num_blocks,
		.scratch = scratch,
		.abort = abort,
		.sl = sl,
		.f = f,
	};
	int ret;

	if (kcheck_stop(&k))
		return -EIO;
	ret = kern->run(&k);
	if (ret)
		return ret;	/* -EIO, or -EAGAIN: it yielded */
	return kcheck_stop(&k);
}

int ascend_emu_kernel_run_all(struct ascend_emu_queue *q,
			      const struct ascend_emu_kernel *kern,
			      const struct ascend_cmd_launch *l, u32 runs,
			      void *scratch, struct ascend_emu_fault *f)
{
	u32 b;

	for (b = 0; b < runs; b++) {
		if (ascend_emu_kernel_run(q, kern, l, b, scratch, NULL, NULL, f))
			return -EIO;
		if (b + 1 < runs)
			cond_resched();
	}
	return 0;
}

int ascend_emu_kernel_launch(struct ascend_emu_queue *q,
			     const struct ascend_cmd_launch *l, void *scratch,
			     struct ascend_emu_fault *f)
{
	const struct ascend_emu_kernel *kern;
	u32 runs;

	kern = ascend_emu_kernel_prepare(l, &runs);
	if (!kern) {
		f->code = ASCEND_FAULT_BAD_COMMAND;
		f->addr = 0;
		return -EIO;
	}
	return ascend_emu_kernel_run_all(q, kern, l, runs, scratch, f);
}

u32 ascend_emu_query_kernels(struct ascend_hw_device *hw,
			     struct drm_ascend_kernel_info *out, u32 max)
{
	u32 i, n = min_t(u32, max, ARRAY_SIZE(ascend_emu_kernels));

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		strscpy(out[i].name, ascend_emu_kernels[i].name,
			sizeof(out[i].name));
		out[i].id = ascend_emu_kernels[i].id;
		out[i].args_size = ascend_emu_kernels[i].args_size;
	}
	return ARRAY_SIZE(ascend_emu_kernels);
}

/* ------------------------------------------------------------------------ */
/* Device printf */

void ascend_emu_printf(struct ascend_emu_queue *q, const char *fmt, ...)
{
	struct ascend_queue_status *st = q->status;
	u32 size = q->ctx.printf_size;
	char buf[ASCEND_EMU_PRINTF_MAX];
	u64 head, tail, off;
	size_t len, first;
	va_list ap;

	va_start(ap, fmt);
	len = vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!len)
		return;

	/* blocks of one launch print from several AI cores at once */
	spin_lock(&q->printf_lock);
	head = q->printf_head;

	/* user space owns the tail: clamp it into [head - size, head] */
	tail = smp_load_acquire(&st->printf_tail);
	if (tail > head)
		tail = head;
	if (head - tail > size)
		tail = head - size;

	/* never overwrite unconsumed text: drop the whole message */
	if (len > size - (head - tail)) {
		q->printf_dropped += len;
		WRITE_ONCE(q->report->printf_dropped,
			   cpu_to_le64(q->printf_dropped));
		WRITE_ONCE(st->printf_dropped, q->printf_dropped);
		spin_unlock(&q->printf_lock);
		return;
	}

	off = head & (size - 1);
	first = min_t(size_t, len, size - off);
	ascend_emu_queue_area_write(q, q->ctx.printf_offset + off, buf, first);
	ascend_emu_queue_area_write(q, q->ctx.printf_offset, buf + first,
				    len - first);

	q->printf_head = head + len;
	WRITE_ONCE(q->report->printf_head, cpu_to_le64(q->printf_head));
	/* the text before the head that covers it */
	smp_store_release(&st->printf_head, q->printf_head);
	spin_unlock(&q->printf_lock);
}
