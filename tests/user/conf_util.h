/* SPDX-License-Identifier: MIT */
/*
 * conf_util.h - helpers of the copy-API conformance suite (test_conf_*.c):
 * patterned buffers, reading device memory back with aclrtMemcpy D2H, and
 * the failIndex sentinel.
 *
 * Include after acl_util.h.
 */
#ifndef ASCEND_TESTS_CONF_UTIL_H
#define ASCEND_TESTS_CONF_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A value no check writes: failIndex must keep it on ACL-layer errors. */
#define FI_UNTOUCHED ((size_t)0x5a5a5a5a)

/* Byte i of pattern @seed. */
static inline uint8_t pat(unsigned int seed, size_t i)
{
	return (uint8_t)(seed * 131u + i * 7u + (i >> 8) * 13u + 1u);
}

static inline void fill_pat(void *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		((uint8_t *)p)[i] = pat(seed, i);
}

/* Index of the first byte of @p that differs from pattern @seed, or -1. */
static inline long diff_pat(const void *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (((const uint8_t *)p)[i] != pat(seed, i))
			return (long)i;
	return -1;
}

/* Index of the first byte of @p that is not @b, or -1. */
static inline long diff_byte(const void *p, size_t n, uint8_t b)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (((const uint8_t *)p)[i] != b)
			return (long)i;
	return -1;
}

static inline void *dev_alloc(size_t n)
{
	void *p = NULL;

	REQUIRE_ACL(aclrtMalloc(&p, n, ACL_MEM_MALLOC_NORMAL_ONLY));
	return p;
}

static inline void *host_pinned(size_t n)
{
	void *p = NULL;

	REQUIRE_ACL(aclrtMallocHost(&p, n));
	return p;
}

/* Device memory [p, +n) filled with pattern @seed (synchronously). */
static inline void dev_put_pat(void *p, size_t n, unsigned int seed)
{
	void *h = malloc(n);

	REQUIRE(h);
	fill_pat(h, n, seed);
	REQUIRE_ACL(aclrtMemcpy(p, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE));
	free(h);
}

/* Device memory [p, +n) set to byte @b. */
static inline void dev_put_byte(void *p, size_t n, uint8_t b)
{
	void *h = malloc(n);

	REQUIRE(h);
	memset(h, b, n);
	REQUIRE_ACL(aclrtMemcpy(p, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE));
	free(h);
}

/* A malloc'd copy of device memory [p, +n); free() it. */
static inline uint8_t *dev_get(const void *p, size_t n)
{
	uint8_t *h = malloc(n);

	REQUIRE(h);
	REQUIRE_ACL(aclrtMemcpy(h, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST));
	return h;
}

static inline aclrtMemcpyBatchAttr batch_attr(aclrtMemLocationType dt, uint32_t did,
					      aclrtMemLocationType st, uint32_t sid)
{
	aclrtMemcpyBatchAttr a;

	memset(&a, 0, sizeof(a));
	a.dstLoc.type = dt;
	a.dstLoc.id = did;
	a.srcLoc.type = st;
	a.srcLoc.id = sid;
	return a;
}

#define ATTR_H2D batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_LOCATION_TYPE_HOST, 0)
#define ATTR_D2H batch_attr(ACL_MEM_LOCATION_TYPE_HOST, 0, ACL_MEM_LOCATION_TYPE_DEVICE, 0)

#endif /* ASCEND_TESTS_CONF_UTIL_H */
