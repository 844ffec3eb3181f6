// SPDX-License-Identifier: MIT
/*
 * aclrtReduceAsync on the DMA engines' REDUCE command, byte for byte:
 * SUM, MAX and MIN of every supported type (int8, int16, int32, uint32,
 * fp16, fp32, bf16) against a host reference (float sums computed exactly
 * in double, then rounded to nearest even to the element's precision by
 * this file's own rounding), the rounding cases by their bits (ties to
 * even, overflow to infinity, subnormals, inf - inf), integer wrap-around,
 * NaN and signed-zero rules of MAX/MIN, in-place reduce, a range spanning
 * many pages (3 MiB + an odd number of elements, unaligned to pages),
 * stream order with async copies, and every error code with its message.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl_util.h"

#define SUM ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM
#define MAX ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX
#define MIN ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN

static aclrtStream stream;

static void setup(void)
{
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&stream));
}

static void *dev_alloc(size_t n)
{
	void *p = NULL;

	REQUIRE_ACL(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
	return p;
}

static void to_dev(void *d, const void *h, size_t n)
{
	REQUIRE_ACL(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE));
}

static void to_host(void *h, const void *d, size_t n)
{
	REQUIRE_ACL(aclrtMemcpy(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
}

/* dst = op(dst, src) on the device for @n bytes of host data. */
static aclError reduce_bytes(void *hdst, const void *hsrc, size_t n, aclrtReduceKind k,
			     aclDataType t)
{
	void *d = dev_alloc(n), *s = dev_alloc(n);
	aclError ret;

	to_dev(d, hdst, n);
	to_dev(s, hsrc, n);
	ret = aclrtReduceAsync(d, s, n, k, t, stream, NULL);
	if (!ret)
		ret = aclrtSynchronizeStream(stream);
	if (!ret)
		to_host(hdst, d, n);
	aclrtFree(d);
	aclrtFree(s);
	return ret;
}

/* ---- host reference ---------------------------------------------------- */

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static double f16_val(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);

	return h & 0x8000 ? -v : v;
}

/*
 * @x (exactly representable in double, finite, in the normal range of
 * the target) rounded to nearest even with @p significant bits: frexp's
 * mantissa scaled to p bits and rounded by rint() (the default rounding
 * mode is to nearest, ties to even).
 */
static double round_p(double x, int p)
{
	int e;
	double m = frexp(x, &e);

	return ldexp(rint(ldexp(m, p)), e - p);
}

static uint16_t f16_from(double x)
{
	double r = round_p(x, 11), a = fabs(r);
	int e;
	uint16_t s = signbit(r) ? 0x8000 : 0;

	if (a == 0)
		return s;
	if (a < ldexp(1, -14))	/* subnormal: exact here, a multiple of 2^-24 */
		return s | (uint16_t)ldexp(a, 24);
	if (a >= 65536.0 - 16)	/* beyond the largest finite: inf (not reached) */
		return s | 0x7c00;
	frexp(a, &e);		/* a = m * 2^e, m in [0.5, 1) */
	return s | (uint16_t)(((e + 14) << 10) | ((uint32_t)ldexp(a, 11 - e) & 0x3ff));
}

static uint16_t bf16_from(double x)
{
	return (uint16_t)(f2u((float)round_p(x, 8)) >> 16);
}

static double bf16_val(uint16_t h)
{
	return u2f((uint32_t)h << 16);
}

/* The float order of MAX/MIN for non-NaN values: -0 below +0. */
static int fcmp(double a, double b)
{
	if (a != b)
		return a < b ? -1 : 1;
	return signbit(a) == signbit(b) ? 0 : (signbit(a) ? -1 : 1);
}

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r)
{
	r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(r->s >> 33);
}

/* A finite fp16 of moderate exponent (sums stay normal and finite). */
static uint16_t rnd_f16(struct rng *r)
{
	uint32_t v = rnd(r);

	return (uint16_t)((v & 0x8000) | ((15 + v % 7) << 10) | ((v >> 4) & 0x3ff));
}

static uint16_t rnd_bf16(struct rng *r)
{
	uint32_t v = rnd(r);

	return (uint16_t)((v & 0x8000) | ((110 + v % 30) << 7) | ((v >> 4) & 0x7f));
}

static uint32_t rnd_f32(struct rng *r)
{
	uint32_t v = rnd(r), w = rnd(r);

	return (v & 0x80000000) | ((100 + v % 50) << 23) | (w & 0x7fffff);
}

/* ---- every type and kind against the reference ------------------------- */

#define N 4099	/* elements: not a power of two */

static void check_type(aclDataType t, unsigned int es)
{
	static const aclrtReduceKind kinds[] = { SUM, MAX, MIN };
	uint8_t *a = malloc(N * es), *b = malloc(N * es), *r = malloc(N * es);
	struct rng g = { 12345 + (uint64_t)t };
	unsigned int k, i, bad;

	REQUIRE(a && b && r);
	for (k = 0; k < 3; k++) {
		for (i = 0; i < N * es; i++) {
			a[i] = (uint8_t)rnd(&g);
			b[i] = (uint8_t)rnd(&g);
		}
		for (i = 0; i < N && (t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_FLOAT); i++) {
			uint16_t x, y;
			uint32_t u, v;

			if (t == ACL_FLOAT) {
				u = rnd_f32(&g);
				v = i % 5 ? rnd_f32(&g) : u ^ 0x80000000;	/* x + -x */
				memcpy(a + 4 * i, &u, 4);
				memcpy(b + 4 * i, &v, 4);
				continue;
			}
			x = t == ACL_FLOAT16 ? rnd_f16(&g) : rnd_bf16(&g);
			y = t == ACL_FLOAT16 ? rnd_f16(&g) : rnd_bf16(&g);
			memcpy(a + 2 * i, &x, 2);
			memcpy(b + 2 * i, &y, 2);
		}
		memcpy(r, a, N * es);
		CHECK_ACL_OK(reduce_bytes(r, b, N * es, kinds[k], t));
		bad = 0;
		for (i = 0; i < N; i++) {
			int64_t x = 0, y = 0, want;
			uint64_t got = 0;
			double dx, dy;
			int c;

			memcpy(&got, r + es * i, es);
			switch (t) {
			case ACL_INT8:
				x = (int8_t)a[i];
				y = (int8_t)b[i];
				break;
			case ACL_INT16:
				x = (int16_t)(a[2 * i] | a[2 * i + 1] << 8);
				y = (int16_t)(b[2 * i] | b[2 * i + 1] << 8);
				break;
			case ACL_INT32: {
				int32_t p, q;

				memcpy(&p, a + 4 * i, 4);
				memcpy(&q, b + 4 * i, 4);
				x = p;
				y = q;
				break;
			}
			case ACL_UINT32: {
				uint32_t p, q;

				memcpy(&p, a + 4 * i, 4);
				memcpy(&q, b + 4 * i, 4);
				x = p;
				y = q;
				break;
			}
			default: {
				uint32_t p = 0, q = 0;

				memcpy(&p, a + es * i, es);
				memcpy(&q, b + es * i, es);
				dx = t == ACL_FLOAT ? u2f(p) : t == ACL_FLOAT16 ? f16_val(p) :
				     bf16_val(p);
				dy = t == ACL_FLOAT ? u2f(q) : t == ACL_FLOAT16 ? f16_val(q) :
				     bf16_val(q);
				c = fcmp(dx, dy);
				if (kinds[k] == SUM) {
					double s = dx + dy;	/* exact */

					want = t == ACL_FLOAT ? f2u((float)round_p(s, 24)) :
					       t == ACL_FLOAT16 ? f16_from(s) : bf16_from(s);
					if (s == 0)
						want = 0;	/* x + -x = +0 */
				} else {
					want = (kinds[k] == MAX) == (c > 0) ? p : q;
					if (c == 0)
						want = p;
				}
				bad += got != (uint64_t)want;
				if (got != (uint64_t)want && bad < 4)
					printf("#   type %d kind %d element %u: %#llx, want %#llx\n",
					       (int)t, (int)kinds[k], i, (unsigned long long)got,
					       (unsigned long long)want);
				continue;
			}
			}
			want = kinds[k] == SUM ? x + y : kinds[k] == MAX ? (x > y ? x : y) :
			       (x < y ? x : y);
			want &= (int64_t)(es == 4 ? 0xffffffffULL : (1ULL << (8 * es)) - 1);
			bad += got != (uint64_t)want;
			if (got != (uint64_t)want && bad < 4)
				printf("#   type %d kind %d element %u: %#llx, want %#llx\n", (int)t,
				       (int)kinds[k], i, (unsigned long long)got,
				       (unsigned long long)want);
		}
		CHECK_EQ(bad, 0);
	}
	free(a);
	free(b);
	free(r);
}

TEST(int8_all_kinds) { setup(); check_type(ACL_INT8, 1); }
TEST(int16_all_kinds) { setup(); check_type(ACL_INT16, 2); }
TEST(int32_all_kinds) { setup(); check_type(ACL_INT32, 4); }
TEST(uint32_all_kinds) { setup(); check_type(ACL_UINT32, 4); }
TEST(fp16_all_kinds) { setup(); check_type(ACL_FLOAT16, 2); }
TEST(fp32_all_kinds) { setup(); check_type(ACL_FLOAT, 4); }
TEST(bf16_all_kinds) { setup(); check_type(ACL_BF16, 2); }

/* ---- the edge cases, by their bits ------------------------------------- */

struct case16 {
	aclrtReduceKind k;
	uint16_t a, b, want;
};

static void run16(aclDataType t, const struct case16 *c, unsigned int n)
{
	uint16_t d[32], s[32];
	unsigned int i, k;

	REQUIRE(n <= 32);
	for (k = SUM; k <= MIN; k++) {
		unsigned int m = 0;

		for (i = 0; i < n; i++)
			if (c[i].k == (aclrtReduceKind)k) {
				d[m] = c[i].a;
				s[m++] = c[i].b;
			}
		if (!m)
			continue;
		CHECK_ACL_OK(reduce_bytes(d, s, m * 2, (aclrtReduceKind)k, t));
		for (i = 0, m = 0; i < n; i++) {
			if (c[i].k != (aclrtReduceKind)k)
				continue;
			if (d[m] != c[i].want)
				printf("#   type %d kind %u %#x, %#x: %#x, want %#x\n", (int)t, k,
				       c[i].a, c[i].b, d[m], c[i].want);
			CHECK_EQ(d[m], c[i].want);
			m++;
		}
	}
}

TEST(fp16_rounding_and_specials)
{
	static const struct case16 c[] = {
		{ SUM, 0x3c00, 0x1000, 0x3c00 },	/* 1 + 2^-11: tie, even */
		{ SUM, 0x3c01, 0x1000, 0x3c02 },	/* tie, up to even */
		{ SUM, 0x3c00, 0x1001, 0x3c01 },	/* above the tie */
		{ SUM, 0x7bff, 0x7bff, 0x7c00 },	/* 65504 + 65504: inf */
		{ SUM, 0x7bff, 0x4c00, 0x7c00 },	/* 65504 + 16: tie, to inf */
		{ SUM, 0x7bff, 0x4bfc, 0x7bff },	/* just below the tie */
		{ SUM, 0x0001, 0x0001, 0x0002 },	/* subnormals */
		{ SUM, 0x03ff, 0x0001, 0x0400 },	/* to the first normal */
		{ SUM, 0x8001, 0x0001, 0x0000 },	/* x + -x = +0 */
		{ SUM, 0x8000, 0x8000, 0x8000 },	/* -0 + -0 = -0 */
		{ SUM, 0x7c00, 0xfc00, 0x7e00 },	/* inf - inf: NaN */
		{ SUM, 0x7e01, 0x3c00, 0x7e01 },	/* NaN propagates */
		{ SUM, 0x3c00, 0x4000, 0x4200 },	/* 1 + 2 = 3 */
		{ MAX, 0x8000, 0x0000, 0x0000 },	/* -0 < +0 */
		{ MAX, 0xbc00, 0xc000, 0xbc00 },
		{ MAX, 0x7e00, 0x3c00, 0x7e00 },	/* a NaN wins */
		{ MAX, 0x3c00, 0x7c01, 0x7e01 },	/* quieted */
		{ MAX, 0xfc00, 0x0001, 0x0001 },
		{ MIN, 0x0000, 0x8000, 0x8000 },
		{ MIN, 0xbc00, 0xc000, 0xc000 },
		{ MIN, 0x7c00, 0x7bff, 0x7bff },
		{ MIN, 0xfe00, 0xfc00, 0xfe00 },
	};

	setup();
	run16(ACL_FLOAT16, c, sizeof(c) / sizeof(c[0]));
}

TEST(bf16_rounding_and_specials)
{
	static const struct case16 c[] = {
		{ SUM, 0x3f80, 0x3b80, 0x3f80 },	/* 1 + 2^-8: tie, even */
		{ SUM, 0x3f81, 0x3b80, 0x3f82 },	/* tie, up to even */
		{ SUM, 0x3f80, 0x3b81, 0x3f81 },	/* above the tie */
		{ SUM, 0x7f7f, 0x7f7f, 0x7f80 },	/* overflow: inf */
		{ SUM, 0x0001, 0x0001, 0x0002 },	/* subnormals */
		{ SUM, 0x3f80, 0x4000, 0x4040 },	/* 1 + 2 = 3 */
		{ SUM, 0x7f80, 0xff80, 0x7fc0 },	/* inf - inf: NaN */
		{ SUM, 0xbf80, 0x3f80, 0x0000 },	/* x + -x = +0 */
		{ MAX, 0xff80, 0x0001, 0x0001 },
		{ MAX, 0x8000, 0x0000, 0x0000 },
		{ MIN, 0x7f81, 0x0000, 0x7fc1 },	/* NaN wins, quieted */
		{ MIN, 0x8000, 0x0000, 0x8000 },
		{ MIN, 0xc000, 0xbf80, 0xc000 },
	};

	setup();
	run16(ACL_BF16, c, sizeof(c) / sizeof(c[0]));
}

TEST(fp32_rounding_and_specials)
{
	uint32_t d[] = { 0x3f800000, 0x3f800001, 0x7f7fffff, 0x7f800000, 0x3f800000, 0x00000001,
			 0x7fc00001 };
	const uint32_t s[] = { 0x33800000, 0x33800000, 0x7f7fffff, 0xff800000, 0xbf800000,
			       0x00000001, 0x3f800000 };
	const uint32_t want[] = { 0x3f800000, 0x3f800002, 0x7f800000, 0x7fc00000, 0x00000000,
				  0x00000002, 0x7fc00001 };
	uint32_t m[] = { 0x80000000, 0xbf800000, 0x7f800000, 0x3f800000 };
	const uint32_t ms[] = { 0x00000000, 0x3f800000, 0xff800000, 0xff800001 };
	const uint32_t wmax[] = { 0x00000000, 0x3f800000, 0x7f800000, 0xffc00001 };
	unsigned int i;

	setup();
	CHECK_ACL_OK(reduce_bytes(d, s, sizeof(d), SUM, ACL_FLOAT));
	for (i = 0; i < sizeof(d) / 4; i++)
		CHECK_EQ(d[i], want[i]);
	CHECK_ACL_OK(reduce_bytes(m, ms, sizeof(m), MAX, ACL_FLOAT));
	for (i = 0; i < sizeof(m) / 4; i++)
		CHECK_EQ(m[i], wmax[i]);
}

TEST(integer_wrap)
{
	int8_t a8[2] = { 127, -128 }, b8[2] = { 1, -1 };
	int16_t a16[2] = { 32767, -32768 }, b16[2] = { 1, -1 };
	int32_t a32[2] = { INT32_MAX, INT32_MIN }, b32[2] = { 1, -1 };
	uint32_t au[2] = { 0xffffffffu, 5 }, bu[2] = { 1, 0xfffffffbu };

	setup();
	CHECK_ACL_OK(reduce_bytes(a8, b8, sizeof(a8), SUM, ACL_INT8));
	CHECK_EQ(a8[0], -128);
	CHECK_EQ(a8[1], 127);
	CHECK_ACL_OK(reduce_bytes(a16, b16, sizeof(a16), SUM, ACL_INT16));
	CHECK_EQ(a16[0], -32768);
	CHECK_EQ(a16[1], 32767);
	CHECK_ACL_OK(reduce_bytes(a32, b32, sizeof(a32), SUM, ACL_INT32));
	CHECK_EQ(a32[0], INT32_MIN);
	CHECK_EQ(a32[1], INT32_MAX);
	CHECK_ACL_OK(reduce_bytes(au, bu, sizeof(au), SUM, ACL_UINT32));
	CHECK_EQ(au[0], 0);
	CHECK_EQ(au[1], 0);
	/* uint32 orders unsigned, int32 signed */
	au[0] = 0xffffffffu;
	bu[0] = 1;
	CHECK_ACL_OK(reduce_bytes(au, bu, 4, MAX, ACL_UINT32));
	CHECK_EQ(au[0], 0xffffffffu);
	a32[0] = -1;
	b32[0] = 1;
	CHECK_ACL_OK(reduce_bytes(a32, b32, 4, MAX, ACL_INT32));
	CHECK_EQ(a32[0], 1);
}

/* ---- sizes, placement, order ------------------------------------------- */

/*
 * 3 MiB + 333 int32 elements (many pages, several engine steps), at
 * offsets that are not page-aligned, then an fp16 MAX of 3 MiB + 1001
 * elements over the same memory: every byte checked, the bytes around
 * the range untouched.
 */
TEST(many_pages_odd_remainder)
{
	const size_t n32 = (3u << 20) / 4 + 333, bytes = n32 * 4;
	const size_t n16 = (3u << 20) / 2 + 1001, b16 = n16 * 2, pad = 64;
	const size_t len = b16 + 2 * pad;	/* b16 > bytes */
	uint8_t *hd = malloc(len), *hs = malloc(len), *out = malloc(len), *o2 = malloc(len);
	uint8_t *d, *s;
	size_t i, bad = 0;

	setup();
	REQUIRE(hd && hs && out && o2);
	d = dev_alloc(len + 4096);
	s = dev_alloc(len + 4096);
	for (i = 0; i < len; i++) {
		hd[i] = (uint8_t)(i * 31 + 7);
		hs[i] = (uint8_t)(i * 17 + (i >> 12));
	}
	to_dev(d + 4000, hd, len);
	to_dev(s + 12, hs, len);
	CHECK_ACL_OK(aclrtReduceAsync(d + 4000 + pad, s + 12 + pad, bytes, SUM, ACL_INT32, stream,
				      NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(stream));
	to_host(out, d + 4000, len);
	for (i = 0; i < pad; i++)
		bad += out[i] != hd[i];
	for (i = pad + bytes; i < len; i++)
		bad += out[i] != hd[i];
	CHECK_EQ(bad, 0);
	for (i = 0; i < n32; i++) {
		uint32_t x, y, z;

		memcpy(&x, hd + pad + 4 * i, 4);
		memcpy(&y, hs + pad + 4 * i, 4);
		memcpy(&z, out + pad + 4 * i, 4);
		bad += z != x + y;
	}
	CHECK_EQ(bad, 0);

	/* fp16 MAX over 3 MiB + 1001 elements of what is there now */
	CHECK_ACL_OK(aclrtReduceAsync(d + 4000 + pad, s + 12 + pad, b16, MAX, ACL_FLOAT16, stream,
				      NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(stream));
	to_host(o2, d + 4000, len);
	for (i = 0; i < n16; i++) {
		uint16_t x, y, z, w;

		memcpy(&x, out + pad + 2 * i, 2);
		memcpy(&y, hs + pad + 2 * i, 2);
		memcpy(&z, o2 + pad + 2 * i, 2);
		if ((x & 0x7fff) > 0x7c00)
			w = x | 0x200;
		else if ((y & 0x7fff) > 0x7c00)
			w = y | 0x200;
		else
			w = fcmp(f16_val(x), f16_val(y)) >= 0 ? x : y;
		bad += z != w;
	}
	CHECK_EQ(bad, 0);
	bad = memcmp(o2, out, pad) != 0;
	CHECK_EQ(bad, 0);
	aclrtFree(d);
	aclrtFree(s);
	free(hd);
	free(hs);
	free(out);
	free(o2);
}

TEST(in_place_and_stream_order)
{
	int32_t h[256], r[256];
	void *d, *pinned;
	int i;

	setup();
	for (i = 0; i < 256; i++)
		h[i] = i - 100;
	d = dev_alloc(sizeof(h));
	REQUIRE_ACL(aclrtMallocHost(&pinned, sizeof(h)));
	memcpy(pinned, h, sizeof(h));
	/* copy in, x + x, x + x, copy out: one stream, one sync */
	CHECK_ACL_OK(aclrtMemcpyAsync(d, sizeof(h), pinned, sizeof(h), ACL_MEMCPY_HOST_TO_DEVICE,
				      stream));
	CHECK_ACL_OK(aclrtReduceAsync(d, d, sizeof(h), SUM, ACL_INT32, stream, NULL));
	CHECK_ACL_OK(aclrtReduceAsync(d, d, sizeof(h), SUM, ACL_INT32, stream, NULL));
	CHECK_ACL_OK(aclrtMemcpyAsync(pinned, sizeof(h), d, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST,
				      stream));
	CHECK_ACL_OK(aclrtSynchronizeStream(stream));
	memcpy(r, pinned, sizeof(r));
	for (i = 0; i < 256; i++)
		CHECK_EQ(r[i], 4 * h[i]);
	aclrtFreeHost(pinned);
	aclrtFree(d);
}

/* ---- errors ------------------------------------------------------------ */

/* The call fails with @code and its message (read once: reading clears it) names @what. */
#define CHECK_ERR_MSG(call, code, what)					\
	do {								\
		aclError r_ = (call);					\
		const char *m_ = aclGetRecentErrMsg();			\
		CHECK_EQ(r_, (code));					\
		if (!m_ || !strstr(m_, (what)))				\
			printf("#   message: %s\n", m_ ? m_ : "(null)");	\
		CHECK(m_ && strstr(m_, (what)));			\
	} while (0)

TEST(errors)
{
	char *d, *s, *host = malloc(4096);
	void *pinned;
	int i;

	setup();
	REQUIRE(host);
	d = dev_alloc(4096);
	s = dev_alloc(4096);
	REQUIRE_ACL(aclrtMallocHost(&pinned, 4096));

	/* ACL_ERROR_INVALID_PARAM: NULLs, reserve, unknown type, partial element */
	CHECK_ACL_ERR(aclrtReduceAsync(NULL, s, 64, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtReduceAsync(d, NULL, 64, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ERR_MSG(aclrtReduceAsync(d, s, 64, SUM, ACL_FLOAT, stream, d),
		      ACL_ERROR_INVALID_PARAM, "reserve");
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, SUM, ACL_DOUBLE, stream, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, SUM, ACL_INT64, stream, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, SUM, (aclDataType)-1, stream, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ERR_MSG(aclrtReduceAsync(d, s, 6, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_INVALID_PARAM, "whole number of 4-byte elements");
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 3, MAX, ACL_BF16, stream, NULL),
		      ACL_ERROR_INVALID_PARAM);

	/* ACL_ERROR_RT_PARAM_INVALID: kind, count 0, placement (alignment: 107008) */
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, (aclrtReduceKind)9, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, (aclrtReduceKind)14, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, (aclrtReduceKind)0, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 0, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* CANN's 4 GiB limit on SUM, before the ranges are looked at */
	CHECK_ERR_MSG(aclrtReduceAsync(d, s, (4ULL << 30) + 4, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID, "4 GiB");
	CHECK_ERR_MSG(aclrtReduceAsync(d, s, (4ULL << 30) + 4, MAX, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID, "past the end");
	CHECK_ACL_ERR(aclrtReduceAsync(d + 2, s, 64, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_ADDR_UNALIGNED);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s + 1, 64, SUM, ACL_INT16, stream, NULL),
		      ACL_ERROR_RT_ADDR_UNALIGNED);
	/* host memory, pageable or pinned, is refused up front */
	CHECK_ERR_MSG(aclrtReduceAsync(host, s, 64, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID, "host memory");
	CHECK_ACL_ERR(aclrtReduceAsync(d, pinned, 64, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtReduceAsync(pinned, s, 64, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* past the end of the allocation; partial overlap */
	CHECK_ACL_ERR(aclrtReduceAsync(d + 4000, s, 128, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 8192, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ERR_MSG(aclrtReduceAsync(d + 64, d, 128, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID, "overlap");
	CHECK_ACL_ERR(aclrtReduceAsync(d, d + 64, 128, SUM, ACL_FLOAT, stream, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);

	/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT: EQUAL, types CANN maps but no engine does */
	CHECK_ERR_MSG(aclrtReduceAsync(d, s, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT,
				       stream, NULL),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "EQUAL");
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, SUM, ACL_UINT8, stream, NULL),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, SUM, ACL_UINT16, stream, NULL),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtReduceAsync(d, s, 64, SUM, ACL_INT4, stream, NULL),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

	/* after all that the stream works */
	for (i = 0; i < 1024; i++)
		((int32_t *)host)[i] = i;
	to_dev(d, host, 4096);
	to_dev(s, host, 4096);
	CHECK_ACL_OK(aclrtReduceAsync(d, s, 4096, SUM, ACL_INT32, stream, NULL));
	CHECK_ACL_OK(aclrtSynchronizeStream(stream));
	to_host(host, d, 4096);
	for (i = 0; i < 1024; i++)
		CHECK_EQ(((int32_t *)host)[i], 2 * i);
	aclrtFreeHost(pinned);
	aclrtFree(d);
	aclrtFree(s);
	free(host);
}

/* dst and src must be on the stream's device. */
TEST(other_device)
{
	aclrtStream s1;
	uint32_t n = 0;
	void *d, *s;

	setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&n));
	if (n < 2)
		SKIP("needs two devices (num_devices=2)");
	d = dev_alloc(4096);
	s = dev_alloc(4096);
	REQUIRE_ACL(aclrtSetDevice(1));
	REQUIRE_ACL(aclrtCreateStream(&s1));
	CHECK_ERR_MSG(aclrtReduceAsync(d, s, 64, SUM, ACL_FLOAT, s1, NULL),
		      ACL_ERROR_RT_STREAM_CONTEXT, "stream's device");
	CHECK_ACL_OK(aclrtDestroyStream(s1));
	REQUIRE_ACL(aclrtSetDevice(0));
	aclrtFree(d);
	aclrtFree(s);
}

int main(void)
{
	return tap_main();
}
