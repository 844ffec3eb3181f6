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

static u64 karg_u64(const struct ascend_kctx *k, unsigned int off)
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

/* AddF32(const float *a, const float *b, float *c, u64 n): c = a + b */
static int k_addf32(struct ascend_kctx *k)
{
	const unsigned int step = ASCEND_EMU_SCRATCH_SIZE / 3 / sizeof(u32);
	u64 a = karg_u64(k, 0), b = karg_u64(k, 8), c = karg_u64(k, 16);
	u32 *ba = k->scratch, *bb = ba + step;
	u64 i, start, end, va, vb, vc;
	unsigned int n, j;
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
		for (j = 0; j < n; j++)
			ba[j] = ascend_f32_add(ba[j], bb[j]);
		if (kmem(k, vc, ba, n * sizeof(u32), true))
			return -EIO;
		ret = kpoll(k, i + n);
		if (ret)
			return ret;
		cond_resched();
	}
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
};

static const struct ascend_emu_kernel *ascend_emu_kernel_find(u32 id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ascend_emu_kernels); i++)
		if (ascend_emu_kernels[i].id == id)
			return &ascend_emu_kernels[i];
	return NULL;
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

int ascend_emu_kernel_launch(struct ascend_emu_queue *q,
			     const struct ascend_cmd_launch *l, void *scratch,
			     struct ascend_emu_fault *f)
{
	const struct ascend_emu_kernel *kern;
	u32 b, runs;

	kern = ascend_emu_kernel_prepare(l, &runs);
	if (!kern) {
		f->code = ASCEND_FAULT_BAD_COMMAND;
		f->addr = 0;
		return -EIO;
	}
	for (b = 0; b < runs; b++) {
		if (ascend_emu_kernel_run(q, kern, l, b, scratch, NULL, NULL, f))
			return -EIO;
		cond_resched();
	}
	return 0;
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
