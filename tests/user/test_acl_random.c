// SPDX-License-Identifier: MIT
/*
 * aclrtRandomNumAsync on the device's RandomNum kernel: every distribution
 * and data type, determinism for one seed and counter, the counter's
 * advance (two tasks continue one sequence), the value-or-address forms of
 * the parameters, the parameter block at randomParaAddr, and every error
 * code.  The statistical checks use fixed seeds and bounds of six standard
 * errors for their sample size, so they pass (or fail) deterministically.
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "acl_util.h"

#define N 65536

/* acl_setup() once: the cases allocate in their declarations */
static void setup(void)
{
	static bool done;

	if (!done)
		acl_setup();
	done = true;
}

static void *dev_alloc(size_t n)
{
	void *p = NULL;

	setup();
	REQUIRE_ACL(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
	REQUIRE_ACL(aclrtMemset(p, n, 0, n));
	return p;
}

static void to_host(void *h, const void *d, size_t n)
{
	REQUIRE_ACL(aclrtMemcpy(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
}

static void to_dev(void *d, const void *h, size_t n)
{
	REQUIRE_ACL(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE));
}

static void val(aclrtRandomParaInfo *p, const void *v, uint8_t size)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->valueOrAddr, v, size);
	p->size = size;
}

static void addr(aclrtRandomParaInfo *p, const void *dev)
{
	uint64_t a = (uintptr_t)dev;

	memset(p, 0, sizeof(*p));
	memcpy(p->valueOrAddr, &a, 8);
	p->size = 8;
	p->isAddr = 1;
}

static aclrtRandomNumTaskInfo task(aclDataType t, aclrtRandomNumFuncType f, uint64_t seed,
				   uint64_t num, void *ctr, void *out)
{
	aclrtRandomNumTaskInfo ti;

	memset(&ti, 0, sizeof(ti));
	ti.dataType = t;
	ti.randomNumFuncParaInfo.funcType = f;
	ti.randomCounterAddr = ctr;
	ti.randomResultAddr = out;
	val(&ti.randomSeed, &seed, 8);
	val(&ti.randomNum, &num, 8);
	return ti;
}

static void run(const aclrtRandomNumTaskInfo *ti, aclrtStream s)
{
	REQUIRE_ACL(aclrtRandomNumAsync(ti, s, NULL));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
}

static void counter_is(void *ctr, uint64_t lo, uint64_t hi)
{
	uint64_t c[2];

	to_host(c, ctr, sizeof(c));
	CHECK_EQ(c[0], lo);
	CHECK_EQ(c[1], hi);
}

static void counter_set(void *ctr, uint64_t lo, uint64_t hi)
{
	uint64_t c[2] = { lo, hi };

	to_dev(ctr, c, sizeof(c));
}

static float bf16f(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static float f16f(uint16_t h)
{
	_Float16 x;

	memcpy(&x, &h, 2);
	return (float)x;
}

static void moments(const double *v, size_t n, double *mean, double *sd)
{
	double s = 0, s2 = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	for (size_t i = 0; i < n; i++)
		s2 += (v[i] - *mean) * (v[i] - *mean);
	*sd = sqrt(s2 / (n - 1));
}

/* uniform floats: [min, max), mean, repeatable, counter + N / 4 */
TEST(uniform_f32)
{
	float lo = 1.0f, hi = 2.0f, *a = malloc(N * 4), *b = malloc(N * 4);
	void *out = dev_alloc(N * 4), *ctr = dev_alloc(16);
	static double v[N];
	double mean, sd;
	aclrtRandomNumTaskInfo ti;
	aclrtStream s;
	long bad = 0;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	ti = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 42, N, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
	run(&ti, s);
	to_host(a, out, N * 4);
	counter_is(ctr, N / 4, 0);
	for (int i = 0; i < N; i++) {
		if (!(a[i] >= lo && a[i] < hi))
			bad++;
		v[i] = a[i];
	}
	CHECK_EQ(bad, 0);
	moments(v, N, &mean, &sd);
	/* sd of U(1,2) is 0.2887; standard error of the mean 0.0011 */
	CHECK(fabs(mean - 1.5) < 0.007);
	CHECK(fabs(sd - 0.2887) < 0.005);

	/* the same seed and counter: the same numbers */
	counter_set(ctr, 0, 0);
	run(&ti, s);
	to_host(b, out, N * 4);
	CHECK(memcmp(a, b, N * 4) == 0);

	/* another seed: others */
	counter_set(ctr, 0, 0);
	val(&ti.randomSeed, &(uint64_t){ 43 }, 8);
	run(&ti, s);
	to_host(b, out, N * 4);
	CHECK(memcmp(a, b, N * 4) != 0);
	free(a);
	free(b);
}

/* Two tasks on one counter continue one sequence; the counter carries. */
TEST(counter_continues)
{
	uint32_t *all = malloc(N * 4), *part = malloc(N * 4), lo = 0, hi = 0xffffffff;
	void *out = dev_alloc(N * 4), *ctr = dev_alloc(16);
	aclrtRandomNumTaskInfo ti;
	aclrtStream s;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	ti = task(ACL_UINT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 7, N, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
	counter_set(ctr, ~0ULL - 100, 5);
	run(&ti, s);
	to_host(all, out, N * 4);
	counter_is(ctr, N / 4 - 101, 6);	/* carried into the high half */

	counter_set(ctr, ~0ULL - 100, 5);
	val(&ti.randomNum, &(uint64_t){ N / 2 }, 8);
	run(&ti, s);
	counter_is(ctr, N / 8 - 101, 6);	/* carried too */
	run(&ti, s);
	to_host(part, out, N / 2 * 4);
	CHECK(memcmp(part, all + N / 2, N / 2 * 4) == 0);
	CHECK(memcmp(all, all + N / 2, N / 2 * 4) != 0);
	free(all);
	free(part);
}

/* normal f32: mean and standard deviation; fp16 and bf16 too */
TEST(normal)
{
	float mean = 3.0f, sd = 2.0f, *f = malloc(N * 4);
	uint16_t *h = malloc(N * 2), m16 = 0x4200, s16 = 0x3c00;	/* 3, 1 */
	void *out = dev_alloc(N * 4), *ctr = dev_alloc(16);
	static double v[N];
	double m, d;
	aclrtRandomNumTaskInfo ti;
	aclrtStream s;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	ti = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 1234, N, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &sd, 4);
	run(&ti, s);
	counter_is(ctr, N / 4, 0);
	to_host(f, out, N * 4);
	for (int i = 0; i < N; i++)
		v[i] = f[i];
	moments(v, N, &m, &d);
	/* standard errors: mean 2 / 256, stddev 2 / sqrt(2 N) = 0.0055 */
	CHECK(fabs(m - 3.0) < 0.047);
	CHECK(fabs(d - 2.0) < 0.034);

	ti.dataType = ACL_FLOAT16;
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &m16, 2);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &s16, 2);
	run(&ti, s);
	to_host(h, out, N * 2);
	for (int i = 0; i < N; i++)
		v[i] = f16f(h[i]);
	moments(v, N, &m, &d);
	CHECK(fabs(m - 3.0) < 0.024);
	CHECK(fabs(d - 1.0) < 0.017);

	ti.dataType = ACL_BF16;
	m16 = 0xc080;	/* -4 */
	s16 = 0x3f00;	/* 0.5 */
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &m16, 2);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &s16, 2);
	run(&ti, s);
	to_host(h, out, N * 2);
	for (int i = 0; i < N; i++)
		v[i] = bf16f(h[i]);
	moments(v, N, &m, &d);
	CHECK(fabs(m + 4.0) < 0.015);	/* bf16 rounding: 1/64 near 4 */
	CHECK(fabs(d - 0.5) < 0.01);
	free(f);
	free(h);
}

/* truncated normal: within two stddev, mean, stddev 0.88 sigma */
TEST(truncated_normal)
{
	uint16_t *h = malloc(N * 2), m16 = 0x3f80, s16 = 0x4000;	/* bf16 1, 2 */
	float mean = -1.0f, sd = 0.5f, *f = malloc(N * 4);
	void *out = dev_alloc(N * 4), *ctr = dev_alloc(16);
	static double v[N];
	double m, d;
	aclrtRandomNumTaskInfo ti;
	aclrtStream s;
	long bad = 0;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	ti = task(ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, 99, N, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &m16, 2);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &s16, 2);
	run(&ti, s);
	counter_is(ctr, N, 0);		/* one Philox block per element */
	to_host(h, out, N * 2);
	for (int i = 0; i < N; i++) {
		v[i] = bf16f(h[i]);
		if (v[i] < -3.0 || v[i] > 5.0)
			bad++;
	}
	CHECK_EQ(bad, 0);
	moments(v, N, &m, &d);
	CHECK(fabs(m - 1.0) < 0.05);
	CHECK(fabs(d - 2 * 0.8796) < 0.04);

	ti.dataType = ACL_FLOAT;
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &sd, 4);
	run(&ti, s);
	to_host(f, out, N * 4);
	bad = 0;
	for (int i = 0; i < N; i++) {
		v[i] = f[i];
		if (f[i] < -2.0f || f[i] > 0.0f)
			bad++;
	}
	CHECK_EQ(bad, 0);
	moments(v, N, &m, &d);
	CHECK(fabs(m + 1.0) < 0.012);
	CHECK(fabs(d - 0.5 * 0.8796) < 0.01);
	free(h);
	free(f);
}

/* dropout mask: one bit per element, 1 kept with probability 1 - ratio */
TEST(dropout_bitmask)
{
	const uint64_t num = 80003;		/* 10001 bytes, 3 bits in the last */
	const size_t bytes = (num + 7) / 8;
	uint8_t *m = malloc(bytes + 8);
	void *out = dev_alloc(bytes + 8), *ctr = dev_alloc(16);
	float ratio = 0.25f, zero = 0.0f, one = 1.0f;
	uint16_t half = 0x3800;		/* fp16 0.5 */
	aclrtRandomNumTaskInfo ti;
	aclrtStream s;
	long ones = 0;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtMemset(out, bytes + 8, 0xee, bytes + 8));
	ti = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 5, num, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ratio, 4);
	run(&ti, s);
	counter_is(ctr, 2 * bytes, 0);
	to_host(m, out, bytes + 8);
	for (size_t i = 0; i < bytes; i++)
		ones += __builtin_popcount(m[i]);
	/* 0.75 kept; standard error sqrt(0.1875 / num) = 0.0015 */
	CHECK(fabs((double)ones / num - 0.75) < 0.01);
	CHECK_EQ(m[bytes - 1] & 0xf8, 0);	/* bits past num are 0 */
	CHECK_EQ(m[bytes], 0xee);		/* nothing past the mask */

	counter_set(ctr, 0, 0);
	val(&ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &zero, 4);
	run(&ti, s);
	to_host(m, out, bytes);
	CHECK_EQ(m[0], 0xff);
	CHECK_EQ(m[bytes / 2], 0xff);
	val(&ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &one, 4);
	run(&ti, s);
	to_host(m, out, bytes);
	CHECK_EQ(m[0], 0);
	CHECK_EQ(m[bytes / 2], 0);

	ti.dataType = ACL_FLOAT16;
	val(&ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &half, 2);
	run(&ti, s);
	to_host(m, out, bytes);
	ones = 0;
	for (size_t i = 0; i < bytes; i++)
		ones += __builtin_popcount(m[i]);
	CHECK(fabs((double)ones / num - 0.5) < 0.011);
	free(m);
}

/* integer and half-precision uniform results */
TEST(uniform_types)
{
	void *out = dev_alloc(N * 8), *ctr = dev_alloc(16);
	int32_t *i32 = malloc(N * 8), lo32 = -50, hi32 = 50;
	int64_t *i64 = (int64_t *)i32, lo64 = -5, hi64 = 5;
	uint64_t *u64 = (uint64_t *)i32, ulo = 1ULL << 40, uhi = (1ULL << 40) + 10;
	uint16_t *h = (uint16_t *)i32, hlo = 0x3c00, hhi = 0x4000;	/* fp16 1, 2 */
	aclrtRandomNumTaskInfo ti;
	int seen[100] = { 0 }, hits = 0;
	aclrtStream s;
	long bad = 0;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	ti = task(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 3, N, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo32, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi32, 4);
	run(&ti, s);
	to_host(i32, out, N * 4);
	for (int i = 0; i < N; i++) {
		if (i32[i] < lo32 || i32[i] >= hi32)
			bad++;
		else
			seen[i32[i] - lo32]++;
	}
	CHECK_EQ(bad, 0);
	for (int i = 0; i < 100; i++)
		hits += seen[i] > 0;
	CHECK_EQ(hits, 100);

	counter_set(ctr, 0, 0);
	ti.dataType = ACL_INT64;
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo64, 8);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi64, 8);
	run(&ti, s);
	counter_is(ctr, N / 2, 0);	/* two 64-bit values per block */
	to_host(i64, out, N * 8);
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += i64[i] < lo64 || i64[i] >= hi64;
	CHECK_EQ(bad, 0);
	CHECK(i64[0] != i64[1] || i64[1] != i64[2] || i64[2] != i64[3]);

	ti.dataType = ACL_UINT64;
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &ulo, 8);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &uhi, 8);
	run(&ti, s);
	to_host(u64, out, N * 8);
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += u64[i] < ulo || u64[i] >= uhi;
	CHECK_EQ(bad, 0);

	/* max <= min: every result is min */
	ti.dataType = ACL_UINT32;
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &(uint32_t){ 9 }, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &(uint32_t){ 9 }, 4);
	run(&ti, s);
	to_host(i32, out, N * 4);
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += i32[i] != 9;
	CHECK_EQ(bad, 0);

	ti.dataType = ACL_FLOAT16;
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &hlo, 2);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hhi, 2);
	run(&ti, s);
	to_host(h, out, N * 2);
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += !(f16f(h[i]) >= 1.0f && f16f(h[i]) < 2.0f);
	CHECK_EQ(bad, 0);
	ti.dataType = ACL_BF16;
	hlo = 0xbf80;	/* -1 */
	hhi = 0x0000;	/* 0 */
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &hlo, 2);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hhi, 2);
	run(&ti, s);
	to_host(h, out, N * 2);
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += !(bf16f(h[i]) >= -1.0f && bf16f(h[i]) < 0.0f);
	CHECK_EQ(bad, 0);
	free(i32);
}

/* parameters by device address give what values give; randomParaAddr */
TEST(parameters_by_address)
{
	void *out = dev_alloc(4096), *ctr = dev_alloc(16), *pars = dev_alloc(64);
	void *pblock = dev_alloc(16);
	uint64_t seed = 77, num = 1000, pb[2];
	float mean = 10.0f, sd = 3.0f, a[1000], b[1000];
	uint8_t hp[64] = { 0 };
	aclrtRandomNumTaskInfo ti;
	aclrtStream s;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	ti = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, seed, num, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &sd, 4);
	ti.randomParaAddr = pblock;
	run(&ti, s);
	to_host(a, out, sizeof(a));
	to_host(pb, pblock, sizeof(pb));
	CHECK_EQ(pb[0], 0x41200000ULL);		/* 10.0f, the block of values */
	CHECK_EQ(pb[1], 0x40400000ULL);		/* 3.0f */

	memcpy(hp, &seed, 8);
	memcpy(hp + 8, &num, 8);
	memcpy(hp + 16, &mean, 4);
	memcpy(hp + 24, &sd, 4);
	to_dev(pars, hp, sizeof(hp));
	addr(&ti.randomSeed, pars);
	addr(&ti.randomNum, (char *)pars + 8);
	addr(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, (char *)pars + 16);
	addr(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, (char *)pars + 24);
	ti.randomParaAddr = NULL;
	counter_set(ctr, 0, 0);
	REQUIRE_ACL(aclrtMemset(out, 4096, 0, 4096));
	run(&ti, s);
	counter_is(ctr, 250, 0);
	to_host(b, out, sizeof(b));
	CHECK(memcmp(a, b, sizeof(a)) == 0);
}

/* Every error code of the argument checks. */
TEST(errors)
{
	void *out = dev_alloc(64), *ctr = dev_alloc(16);
	aclrtRandomNumTaskInfo ti, t;
	float lo = 0, hi = 1;

	setup();
	ti = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 16, ctr, out);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
	CHECK_ACL_OK(aclrtRandomNumAsync(&ti, NULL, NULL));

	CHECK_ACL_ERR(aclrtRandomNumAsync(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	t = ti;
	t.dataType = ACL_DOUBLE;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	t = ti;
	t.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)4;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.dataType = ACL_INT32;
	t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomCounterAddr = NULL;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomResultAddr = NULL;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomSeed.isAddr = 2;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomSeed.size = 0;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomNum.size = 9;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 8;	/* > 4 bytes */
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.isAddr = 3;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
	t.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev.size = 0;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t = ti;
	t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK;
	t.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation.size = 5;
	CHECK_ACL_ERR(aclrtRandomNumAsync(&t, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtRandomNumAsync(&ti, (aclrtStream)(uintptr_t)0x1234, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtSynchronizeDevice());
}

/* A result address outside the address space faults the stream. */
TEST(bad_result_address_faults)
{
	void *ctr = dev_alloc(16);
	aclrtRandomNumTaskInfo ti;
	aclrtStream s;
	float lo = 0, hi = 1;

	setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	ti = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 16, ctr,
		  (void *)(uintptr_t)0x1000);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
	val(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
	CHECK_ACL_OK(aclrtRandomNumAsync(&ti, s, NULL));
	CHECK_NE(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

int main(void)
{
	return tap_main();
}
