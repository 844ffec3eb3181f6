// SPDX-License-Identifier: MIT
/*
 * Conformance: aclrtMemcpyBatch, aclrtMemcpyBatchV2, aclrtMemcpyBatchAsync,
 * aclrtMemcpyBatchAsyncV2.  One case per documented constraint and error
 * code (CANN facts §7 "Batch copies"), named after the rule, plus
 * byte-exact data checks (odd sizes, unaligned offsets, page crossings,
 * pinned and pageable host memory, attribute ranges).
 */
#define _GNU_SOURCE
#include "acl_util.h"
#include "conf_util.h"

#define NB 8
#define ESZ 96				/* bytes per entry in the fixture */

struct bfx {
	size_t n, nattrs, fi;
	void *dsts[NB], *srcs[NB];
	size_t dmax[NB], sizes[NB];
	aclrtMemcpyBatchAttr attrs[NB];
	size_t idx[NB];
	uint8_t *dev, *host;
};

/* @n valid host-to-device entries (pinned host memory), one attribute;
 * acl set up already. */
static void bfx_fill(struct bfx *f, size_t n)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->dev = dev_alloc(NB * ESZ);
	f->host = host_pinned(NB * ESZ);
	fill_pat(f->host, NB * ESZ, 1);
	f->n = n;
	for (i = 0; i < n; i++) {
		f->dsts[i] = f->dev + i * ESZ;
		f->srcs[i] = f->host + i * ESZ;
		f->dmax[i] = ESZ;
		f->sizes[i] = ESZ;
	}
	f->attrs[0] = ATTR_H2D;
	f->idx[0] = 0;
	f->nattrs = 1;
	f->fi = FI_UNTOUCHED;
}

static void bfx_h2d(struct bfx *f, size_t n)
{
	acl_setup();
	bfx_fill(f, n);
}

static aclError run(struct bfx *f)
{
	return aclrtMemcpyBatch(f->dsts, f->dmax, f->srcs, f->sizes, f->n, f->attrs, f->idx,
				f->nattrs, &f->fi);
}

/* ---- ACL layer: 100000, failIndex untouched ------------------------------ */

TEST(batch_numbatches_zero_is_100000_failindex_untouched)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.n = 0;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(f.fi, FI_UNTOUCHED);
}

TEST(batch_sizes_null_is_100000_failindex_untouched)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	CHECK_ACL_ERR(aclrtMemcpyBatch(f.dsts, f.dmax, f.srcs, NULL, f.n, f.attrs, f.idx,
				       f.nattrs, &f.fi), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(f.fi, FI_UNTOUCHED);
}

TEST(batch_failindex_null_is_100000)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	CHECK_ACL_ERR(aclrtMemcpyBatch(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx,
				       f.nattrs, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyBatchAsync(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx,
					    f.nattrs, NULL, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(batch_null_arrays_are_100000_failindex_untouched)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	CHECK_ACL_ERR(aclrtMemcpyBatch(NULL, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx,
				       f.nattrs, &f.fi), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyBatch(f.dsts, NULL, f.srcs, f.sizes, f.n, f.attrs, f.idx,
				       f.nattrs, &f.fi), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyBatch(f.dsts, f.dmax, NULL, f.sizes, f.n, f.attrs, f.idx,
				       f.nattrs, &f.fi), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyBatch(f.dsts, f.dmax, f.srcs, f.sizes, f.n, NULL, f.idx,
				       f.nattrs, &f.fi), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyBatch(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, NULL,
				       f.nattrs, &f.fi), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(f.fi, FI_UNTOUCHED);
}

TEST(batch_destmax_lt_size_is_100000_failindex_untouched)
{
	struct bfx f;

	bfx_h2d(&f, 3);
	f.dmax[2] = ESZ - 1;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(f.fi, FI_UNTOUCHED);
}

TEST(batch_rsv_nonzero_is_100000_failindex_untouched)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.attrs[0].rsv[15] = 1;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(f.fi, FI_UNTOUCHED);
}

/* ---- all sizes 0 --------------------------------------------------------- */

TEST(batch_all_sizes_zero_is_success_failindex_sizemax)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.sizes[0] = f.sizes[1] = 0;
	f.nattrs = 0;			/* not even looked at */
	CHECK_ACL_OK(run(&f));
	CHECK_EQ(f.fi, SIZE_MAX);
}

/* CANN's ACL layer returns success for an all-zero batch before it looks
 * at the arrays, destMaxs or the reserved bytes. */
TEST(batch_all_sizes_zero_is_checked_first)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.sizes[0] = f.sizes[1] = 0;
	f.dmax[0] = 0;
	f.attrs[0].rsv[3] = 1;
	CHECK_ACL_OK(aclrtMemcpyBatch(NULL, NULL, NULL, f.sizes, f.n, NULL, NULL, 0, &f.fi));
	CHECK_EQ(f.fi, SIZE_MAX);
	f.fi = FI_UNTOUCHED;
	CHECK_ACL_OK(run(&f));
	CHECK_EQ(f.fi, SIZE_MAX);
	f.fi = FI_UNTOUCHED;
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(NULL, NULL, NULL, f.sizes, f.n, NULL, NULL, 0, &f.fi, NULL));
	CHECK_EQ(f.fi, SIZE_MAX);
	CHECK_ACL_OK(aclrtMemcpyBatchV2(NULL, NULL, NULL, f.sizes, f.n, NULL, NULL, 0));
	/* ...but after failIndex, sizes and numBatches */
	CHECK_ACL_ERR(aclrtMemcpyBatch(NULL, NULL, NULL, f.sizes, f.n, NULL, NULL, 0, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyBatch(NULL, NULL, NULL, f.sizes, 0, NULL, NULL, 0, &f.fi),
		      ACL_ERROR_INVALID_PARAM);
}

/* ---- runtime: 107000, failIndex SIZE_MAX -------------------------------- */

TEST(batch_numattrs_zero_is_107000_failindex_sizemax)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.nattrs = 0;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, SIZE_MAX);
}

TEST(batch_numattrs_gt_numbatches_is_107000)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.attrs[1] = f.attrs[2] = ATTR_H2D;
	f.idx[1] = 1;
	f.idx[2] = 2;
	f.nattrs = 3;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, SIZE_MAX);
}

TEST(batch_attrsindexes_first_nonzero_is_107000)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.idx[0] = 1;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, SIZE_MAX);
}

TEST(batch_attrsindexes_not_strictly_increasing_is_107000)
{
	struct bfx f;

	bfx_h2d(&f, 4);
	f.attrs[1] = f.attrs[2] = ATTR_H2D;
	f.idx[1] = 2;
	f.idx[2] = 2;
	f.nattrs = 3;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, SIZE_MAX);
}

TEST(batch_attrsindexes_not_below_numbatches_is_107000)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	f.attrs[1] = ATTR_H2D;
	f.idx[1] = 2;
	f.nattrs = 2;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, SIZE_MAX);
}

/* Arrays of @n entries repeating entry 0 of @f (each copies the same bytes). */
struct big {
	void **dsts, **srcs;
	size_t *dmax, *sizes;
};

static void big_make(struct big *b, const struct bfx *f, size_t n, size_t esz)
{
	size_t i;

	b->dsts = calloc(n, sizeof(void *));
	b->srcs = calloc(n, sizeof(void *));
	b->dmax = calloc(n, sizeof(size_t));
	b->sizes = calloc(n, sizeof(size_t));
	REQUIRE(b->dsts && b->srcs && b->dmax && b->sizes);
	for (i = 0; i < n; i++) {
		b->dsts[i] = f->dev + (i * esz) % (NB * ESZ - esz + 1);
		b->srcs[i] = f->host + (i * esz) % (NB * ESZ - esz + 1);
		b->dmax[i] = esz;
		b->sizes[i] = esz;
	}
}

TEST(batch_sync_count_over_4096_is_107000)
{
	struct bfx f;
	struct big b;

	bfx_h2d(&f, 1);
	big_make(&b, &f, 4097, 4);
	CHECK_ACL_ERR(aclrtMemcpyBatch(b.dsts, b.dmax, b.srcs, b.sizes, 4097, f.attrs, f.idx, 1,
				       &f.fi), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, SIZE_MAX);
	CHECK_ACL_ERR(aclrtMemcpyBatchV2(b.dsts, b.dmax, b.srcs, b.sizes, 4097, f.attrs, f.idx, 1),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(batch_sync_count_4096_is_allowed)
{
	struct bfx f;
	struct big b;
	uint8_t *got;

	bfx_h2d(&f, 1);
	big_make(&b, &f, 4096, 4);
	CHECK_ACL_OK(aclrtMemcpyBatch(b.dsts, b.dmax, b.srcs, b.sizes, 4096, f.attrs, f.idx, 1,
				      &f.fi));
	CHECK_EQ(f.fi, SIZE_MAX);
	got = dev_get(f.dev, NB * ESZ - 4);
	CHECK_EQ(diff_pat(got, NB * ESZ - 4, 1), -1);
}

TEST(batch_async_count_over_4096_is_allowed)
{
	struct bfx f;
	struct big b;
	aclrtStream s;
	uint8_t *got;

	bfx_h2d(&f, 1);
	REQUIRE_ACL(aclrtCreateStream(&s));
	big_make(&b, &f, 5000, 4);
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(b.dsts, b.dmax, b.srcs, b.sizes, 5000, f.attrs, f.idx,
					   1, &f.fi, s));
	CHECK_EQ(f.fi, SIZE_MAX);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(f.dev, NB * ESZ - 4);
	CHECK_EQ(diff_pat(got, NB * ESZ - 4, 1), -1);
}

/* ---- per entry: 107000 with failIndex = the first failing entry ---------- */

TEST(batch_dst_location_mismatch_is_107000_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 4);
	f.dsts[2] = f.host + 7 * ESZ;		/* host memory, attr says DEVICE */
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 2);
}

TEST(batch_src_location_mismatch_is_107000_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 4);
	f.srcs[3] = f.dev + 7 * ESZ;		/* device memory, attr says HOST */
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 3);
}

TEST(batch_device_id_mismatch_is_107000_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 4);
	f.attrs[1] = batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, 1, ACL_MEM_LOCATION_TYPE_HOST, 0);
	f.idx[1] = 1;
	f.nattrs = 2;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 1);
}

TEST(batch_unregistered_attr_type_is_107000_failindex)
{
	struct bfx f;
	char *pg = malloc(ESZ);

	bfx_h2d(&f, 2);
	REQUIRE(pg);
	f.srcs[0] = pg;
	f.attrs[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 0);
}

TEST(batch_device_to_device_is_107000_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 3);
	f.attrs[1] = batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
	f.idx[1] = 1;
	f.nattrs = 2;
	f.srcs[1] = f.dev + 7 * ESZ;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 1);
}

TEST(batch_host_to_host_is_107000_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 3);
	f.attrs[1] = batch_attr(ACL_MEM_LOCATION_TYPE_HOST, 0, ACL_MEM_LOCATION_TYPE_HOST, 0);
	f.idx[1] = 2;
	f.nattrs = 2;
	f.dsts[2] = f.host + 7 * ESZ;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 2);
}

TEST(batch_two_directions_is_107000_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 4);
	f.attrs[1] = ATTR_D2H;
	f.idx[1] = 3;
	f.nattrs = 2;
	f.dsts[3] = f.host + 7 * ESZ;
	f.srcs[3] = f.dev + 7 * ESZ;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 3);
}

TEST(batch_range_past_allocation_is_107000_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 3);
	f.dsts[1] = f.dev + NB * ESZ - ESZ / 2;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 1);
}

TEST(batch_no_bytes_move_when_an_entry_fails)
{
	struct bfx f;
	uint8_t *got;

	bfx_h2d(&f, 4);
	dev_put_byte(f.dev, NB * ESZ, 0xee);
	f.srcs[3] = f.dev;
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 3);
	got = dev_get(f.dev, NB * ESZ);
	CHECK_EQ(diff_byte(got, NB * ESZ, 0xee), -1);
}

TEST(batch_v2_reports_the_same_codes_without_failindex)
{
	struct bfx f;

	bfx_h2d(&f, 3);
	f.dsts[1] = f.host;
	CHECK_ACL_ERR(aclrtMemcpyBatchV2(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx,
					 f.nattrs), ACL_ERROR_RT_PARAM_INVALID);
	f.dsts[1] = f.dev + ESZ;
	f.attrs[0].rsv[0] = 9;
	CHECK_ACL_ERR(aclrtMemcpyBatchV2(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx,
					 f.nattrs), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtMemcpyBatchAsyncV2(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs,
					      f.idx, f.nattrs, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(batch_no_current_device_is_107002)
{
	struct bfx f;

	bfx_h2d(&f, 2);
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_ERR(run(&f), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(f.fi, SIZE_MAX);
}

/* ---- data ------------------------------------------------------------- */

TEST(batch_host_numa_attr_counts_as_host)
{
	struct bfx f;
	uint8_t *got;

	bfx_h2d(&f, 2);
	f.attrs[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST_NUMA;
	f.attrs[0].srcLoc.id = 3;		/* a NUMA node: not compared */
	CHECK_ACL_OK(run(&f));
	CHECK_EQ(f.fi, SIZE_MAX);
	got = dev_get(f.dev, 2 * ESZ);
	CHECK_EQ(diff_pat(got, 2 * ESZ, 1), -1);
}

TEST(batch_sync_odd_sizes_unaligned_offsets_page_crossing_bytes)
{
	static const size_t off[] = { 1, 4093, 8191, 13000 }, len[] = { 3, 7, 4099, 1 };
	void *dsts[4], *srcs[4];
	size_t dmax[4], sizes[4], idx[1] = { 0 }, fi = FI_UNTOUCHED, i;
	aclrtMemcpyBatchAttr at[1] = { ATTR_H2D };
	uint8_t *dev, *host, *pg, *got;

	acl_setup();
	dev = dev_alloc(16384);
	host = host_pinned(16384);
	pg = malloc(16384);
	REQUIRE(pg);
	fill_pat(host, 16384, 5);
	fill_pat(pg, 16384, 5);
	dev_put_byte(dev, 16384, 0);
	for (i = 0; i < 4; i++) {
		dsts[i] = dev + off[i];
		srcs[i] = (i & 1 ? pg : host) + off[i];	/* pinned and pageable */
		dmax[i] = len[i];
		sizes[i] = len[i];
	}
	CHECK_ACL_OK(aclrtMemcpyBatch(dsts, dmax, srcs, sizes, 4, at, idx, 1, &fi));
	CHECK_EQ(fi, SIZE_MAX);
	got = dev_get(dev, 16384);
	for (i = 0; i < 16384; i++) {
		size_t k;
		uint8_t want = 0;

		for (k = 0; k < 4; k++)
			if (i >= off[k] && i < off[k] + len[k])
				want = pat(5, i);
		if (got[i] != want) {
			CHECK_EQ(got[i], want);
			printf("#   byte %zu\n", i);
			break;
		}
	}
	/* And back, device to host, into pageable and pinned memory. */
	memset(host, 0, 16384);
	memset(pg, 0, 16384);
	for (i = 0; i < 4; i++) {
		dsts[i] = (i & 1 ? host : pg) + off[i];
		srcs[i] = dev + off[i];
	}
	at[0] = ATTR_D2H;
	CHECK_ACL_OK(aclrtMemcpyBatch(dsts, dmax, srcs, sizes, 4, at, idx, 1, &fi));
	for (i = 0; i < 4; i++) {
		const uint8_t *d = (i & 1 ? host : pg) + off[i];
		size_t k;

		for (k = 0; k < len[i]; k++)
			if (d[k] != pat(5, off[i] + k)) {
				CHECK_EQ(d[k], pat(5, off[i] + k));
				break;
			}
	}
	CHECK_EQ(diff_byte(pg, 1, 0), -1);
	CHECK_EQ(diff_byte(host + 4093 + 7, 8191 - 4100, 0), -1);
}

TEST(batch_attrs_apply_to_their_index_ranges)
{
	void *dsts[4], *srcs[4];
	size_t dmax[4], sizes[4], idx[2] = { 0, 2 }, fi, i;
	aclrtMemcpyBatchAttr at[2];
	uint8_t *dev, *host, *pg, *got;

	acl_setup();
	dev = dev_alloc(4 * 64);
	host = host_pinned(2 * 64);
	pg = malloc(2 * 64);
	REQUIRE(pg);
	fill_pat(host, 2 * 64, 7);
	fill_pat(pg, 2 * 64, 8);
	at[0] = ATTR_H2D;		/* pinned HOST, entries 0..1 */
	at[1] = batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, 0, ACL_MEM_LOCATION_TYPE_HOST_NUMA, 0);
	for (i = 0; i < 4; i++) {
		dsts[i] = dev + 64 * i;
		srcs[i] = (i < 2 ? host : pg) + 64 * (i % 2);
		dmax[i] = sizes[i] = 64;
	}
	CHECK_ACL_OK(aclrtMemcpyBatch(dsts, dmax, srcs, sizes, 4, at, idx, 2, &fi));
	got = dev_get(dev, 4 * 64);
	CHECK_EQ(diff_pat(got, 128, 7), -1);
	CHECK_EQ(diff_pat(got + 128, 128, 8), -1);
}

TEST(batch_zero_sized_entries_are_skipped)
{
	struct bfx f;
	uint8_t *got;

	bfx_h2d(&f, 3);
	dev_put_byte(f.dev, NB * ESZ, 0);
	f.sizes[1] = 0;
	CHECK_ACL_OK(run(&f));
	got = dev_get(f.dev, 3 * ESZ);
	CHECK_EQ(diff_pat(got, ESZ, 1), -1);
	CHECK_EQ(diff_byte(got + ESZ, ESZ, 0), -1);
	CHECK_EQ(memcmp(got + 2 * ESZ, f.host + 2 * ESZ, ESZ), 0);
}

/* CANN queues an asynchronous batch entry by entry and refuses an empty one
 * (107000, failIndex at it); here nothing is queued when an entry fails. */
TEST(batch_async_zero_sized_entry_is_107000_failindex)
{
	struct bfx f;
	aclrtStream s;
	uint8_t *got;

	bfx_h2d(&f, 3);
	REQUIRE_ACL(aclrtCreateStream(&s));
	dev_put_byte(f.dev, NB * ESZ, 0);
	f.sizes[1] = 0;
	CHECK_EQ(aclrtMemcpyBatchAsync(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx, f.nattrs,
				       &f.fi, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "size is 0") != NULL);
	CHECK_EQ(f.fi, 1);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(f.dev, 3 * ESZ);
	CHECK_EQ(diff_byte(got, 3 * ESZ, 0), -1);
	CHECK_ACL_ERR(aclrtMemcpyBatchAsyncV2(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx,
					      f.nattrs, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* CANN's runtime checks an async entry's size before anything else of it. */
TEST(batch_async_zero_sized_entry_is_checked_before_its_pointers)
{
	struct bfx f;

	bfx_h2d(&f, 3);
	f.sizes[2] = 0;
	f.dsts[2] = f.host;			/* host memory, attr says DEVICE */
	CHECK_EQ(aclrtMemcpyBatchAsync(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx, f.nattrs,
				       &f.fi, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "size is 0") != NULL);
	CHECK_EQ(f.fi, 2);
	f.fi = FI_UNTOUCHED;
	f.dsts[2] = NULL;
	CHECK_EQ(aclrtMemcpyBatchAsync(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx, f.nattrs,
				       &f.fi, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "size is 0") != NULL);
	CHECK_EQ(f.fi, 2);
}

/* A NULL pointer in an entry with bytes to move: 107000 at that entry
 * (CANN's async runtime checks src, then dst), and nothing moves. */
TEST(batch_null_entry_pointer_is_107000_failindex)
{
	struct bfx f;
	uint8_t *got;

	bfx_h2d(&f, 3);
	dev_put_byte(f.dev, NB * ESZ, 0);
	f.srcs[1] = NULL;
	f.dsts[1] = NULL;
	CHECK_EQ(aclrtMemcpyBatchAsync(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx, f.nattrs,
				       &f.fi, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "srcs[1] is NULL") != NULL);
	CHECK_EQ(f.fi, 1);
	f.fi = FI_UNTOUCHED;
	f.srcs[1] = f.host + ESZ;
	CHECK_EQ(run(&f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "dsts[1] is NULL") != NULL);
	CHECK_EQ(f.fi, 1);
	CHECK_ACL_OK(aclrtSynchronizeDevice());
	got = dev_get(f.dev, NB * ESZ);
	CHECK_EQ(diff_byte(got, NB * ESZ, 0), -1);
}

TEST(batch_async_pinned_d2h_in_stream_order)
{
	void *dsts[NB], *srcs[NB];
	size_t dmax[NB], sizes[NB], idx[1] = { 0 }, fi = FI_UNTOUCHED, i;
	aclrtMemcpyBatchAttr at[1] = { ATTR_D2H };
	uint8_t *dev, *host;
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	dev = dev_alloc(NB * 1000);
	host = host_pinned(NB * 1000);
	memset(host, 0, NB * 1000);
	dev_put_byte(dev, NB * 1000, 0x11);
	/* queued before the batch: the batch must see the fill */
	CHECK_ACL_OK(aclrtMemsetAsync(dev, NB * 1000, 0x5c, NB * 1000, s));
	for (i = 0; i < NB; i++) {
		dsts[i] = host + 1000 * i;
		srcs[i] = dev + 1000 * i;
		dmax[i] = 1000;
		sizes[i] = 999;
	}
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(dsts, dmax, srcs, sizes, NB, at, idx, 1, &fi, s));
	CHECK_EQ(fi, SIZE_MAX);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < NB; i++) {
		CHECK_EQ(diff_byte(host + 1000 * i, 999, 0x5c), -1);
		CHECK_EQ(host[1000 * i + 999], 0);
	}
	/* the entry array was recycled: a second batch still copies right */
	CHECK_ACL_OK(aclrtMemsetAsync(dev, NB * 1000, 0x3a, NB * 1000, s));
	CHECK_ACL_OK(aclrtMemcpyBatchAsyncV2(dsts, dmax, srcs, sizes, NB, at, idx, 1, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_EQ(diff_byte(host, 999, 0x3a), -1);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(batch_async_pageable_entries_are_done_on_return)
{
	void *dsts[2], *srcs[2];
	size_t dmax[2], sizes[2], idx[1] = { 0 }, fi;
	aclrtMemcpyBatchAttr at[1] = { ATTR_D2H };
	uint8_t *dev, *pg, *host;
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	dev = dev_alloc(8192);
	pg = malloc(4096);
	host = host_pinned(4096);
	REQUIRE(pg);
	memset(pg, 0, 4096);
	memset(host, 0, 4096);
	dev_put_byte(dev, 8192, 0);
	CHECK_ACL_OK(aclrtMemsetAsync(dev, 8192, 0x77, 8192, s));
	dsts[0] = host;			/* pinned: asynchronous */
	srcs[0] = dev;
	dsts[1] = pg + 1;		/* pageable: stream synchronized, then copied */
	srcs[1] = dev + 4096;
	dmax[0] = dmax[1] = sizes[0] = 4096;
	dmax[1] = sizes[1] = 4095;
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(dsts, dmax, srcs, sizes, 2, at, idx, 1, &fi, s));
	/* No synchronize: the pageable entry moved before the call returned,
	 * and so had everything queued before it (the stream was drained). */
	CHECK_EQ(diff_byte(pg + 1, 4095, 0x77), -1);
	CHECK_EQ(pg[0], 0);
	CHECK_EQ(diff_byte(host, 4096, 0x77), -1);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(batch_async_stream_of_null_is_default_stream)
{
	struct bfx f;
	uint8_t *got;

	bfx_h2d(&f, 4);
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(f.dsts, f.dmax, f.srcs, f.sizes, f.n, f.attrs, f.idx,
					   f.nattrs, &f.fi, NULL));
	CHECK_ACL_OK(aclrtSynchronizeDevice());
	got = dev_get(f.dev, 4 * ESZ);
	CHECK_EQ(diff_pat(got, 4 * ESZ, 1), -1);
}

/* ---- many entries per allocation -------------------------------------- *
 * libaclrt looks an allocation up once for a run of entries inside it and
 * checks only the ranges of the others: every check must still answer as
 * for a lone entry (code, failIndex, message), whatever came before it.
 */

/* The last error's message, kept (aclGetRecentErrMsg() clears it). */
static char *errmsg_dup(void)
{
	char *m = strdup(acl_errmsg());

	REQUIRE(m);
	return m;
}

/*
 * aclrtMemcpyBatch of @f, or with @s aclrtMemcpyBatchAsync (then
 * synchronized); *@msg: the error's message (malloc'd), or NULL.
 */
static aclError run_mode(struct bfx *f, aclrtStream s, char **msg)
{
	aclError ret;

	if (!s)
		ret = run(f);
	else
		ret = aclrtMemcpyBatchAsync(f->dsts, f->dmax, f->srcs, f->sizes, f->n, f->attrs,
					    f->idx, f->nattrs, &f->fi, s);
	*msg = ret ? errmsg_dup() : NULL;
	if (s)
		REQUIRE_ACL(aclrtSynchronizeStream(s));
	return ret;
}

/* Entry @i of @f alone fails with @code: its message. */
static char *lone_msg(struct bfx *f, size_t i, aclrtStream s, aclError code)
{
	struct bfx one = *f;
	char *m;

	one.n = 1;
	one.nattrs = 1;
	one.dsts[0] = f->dsts[i];
	one.srcs[0] = f->srcs[i];
	one.dmax[0] = f->dmax[i];
	one.sizes[0] = f->sizes[i];
	CHECK_EQ(run_mode(&one, s, &m), code);
	CHECK_EQ(one.fi, 0);
	return m ? m : errmsg_dup();
}

/* @f fails with @code at entry @i, worded as @want; no byte of the device
 * allocation (@dev_bytes, set to 0xee) moved. */
static void fails_at(struct bfx *f, aclrtStream s, aclError code, size_t i, const char *want,
		     size_t dev_bytes)
{
	uint8_t *got;
	char *m;

	f->fi = FI_UNTOUCHED;
	CHECK_EQ(run_mode(f, s, &m), code);
	CHECK_EQ(f->fi, i);
	if (!m || strcmp(m, want)) {
		CHECK(!"the message differs from a lone entry's");
		printf("#   want: %s\n#   got:  %s\n", want, m ? m : "(none)");
	}
	free(m);
	if (dev_bytes) {
		got = dev_get(f->dev, dev_bytes);
		CHECK_EQ(diff_byte(got, dev_bytes, 0xee), -1);
		free(got);
	}
}

TEST(batch_range_past_allocation_after_entries_in_it_passed)
{
	aclrtStream s, modes[2];
	struct bfx f;
	char *want;
	int m;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	modes[0] = NULL;
	modes[1] = s;
	for (m = 0; m < 2; m++) {
		/* the device side (H2D dst): past the bytes asked for */
		bfx_fill(&f, 4);
		dev_put_byte(f.dev, NB * ESZ, 0xee);
		f.dsts[3] = f.dev + NB * ESZ - ESZ / 2;
		want = lone_msg(&f, 3, modes[m], ACL_ERROR_RT_PARAM_INVALID);
		CHECK(strstr(want, "runs past the end of its") != NULL);
		fails_at(&f, modes[m], ACL_ERROR_RT_PARAM_INVALID, 3, want, NB * ESZ);
		free(want);
		/* the host side: past the pinned allocation (device side fine) */
		bfx_fill(&f, 4);
		dev_put_byte(f.dev, NB * ESZ, 0xee);
		f.srcs[3] = f.host + 4096 - 8;	/* host_pinned() of 768: one page */
		f.dmax[3] = f.sizes[3] = 16;
		want = lone_msg(&f, 3, modes[m], ACL_ERROR_RT_PARAM_INVALID);
		CHECK(strstr(want, "pinned host memory") != NULL);
		fails_at(&f, modes[m], ACL_ERROR_RT_PARAM_INVALID, 3, want, NB * ESZ);
		free(want);
	}
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* The kernel rounds a device allocation up; the caller owns the bytes it
 * asked for only, also after entries in the same allocation passed. */
TEST(batch_entry_in_allocation_padding_fails_after_entries_in_it)
{
	struct bfx f;
	char *want;

	bfx_h2d(&f, 3);
	f.dev = dev_alloc(1000);
	dev_put_byte(f.dev, 1000, 0xee);
	f.dsts[0] = f.dev;
	f.dsts[1] = f.dev + 500;
	f.dsts[2] = f.dev + 1000;		/* reserved, not asked for */
	f.dmax[2] = f.sizes[2] = 8;
	want = lone_msg(&f, 2, NULL, ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(want, "1000-byte allocation") != NULL);
	fails_at(&f, NULL, ACL_ERROR_RT_PARAM_INVALID, 2, want, 1000);
	free(want);
	f.dsts[2] = f.dev + 996;		/* crosses the end */
	want = lone_msg(&f, 2, NULL, ACL_ERROR_RT_PARAM_INVALID);
	fails_at(&f, NULL, ACL_ERROR_RT_PARAM_INVALID, 2, want, 1000);
	free(want);
}

/* A new attribute inside a run of one allocation is checked at its index. */
TEST(batch_attribute_change_inside_one_allocation_is_checked)
{
	struct bfx f;
	char *want;

	bfx_h2d(&f, 4);
	dev_put_byte(f.dev, NB * ESZ, 0xee);
	f.attrs[1] = batch_attr(ACL_MEM_LOCATION_TYPE_DEVICE, 1, ACL_MEM_LOCATION_TYPE_HOST, 0);
	f.idx[1] = 2;
	f.nattrs = 2;
	f.fi = FI_UNTOUCHED;
	CHECK_EQ(run_mode(&f, NULL, &want), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(f.fi, 2);
	REQUIRE(want);
	CHECK(strstr(want, "entry 2: dst") != NULL);
	CHECK(strstr(want, "DEVICE id 1") != NULL);
	free(want);
	/* a zero-sized entry between entries of one allocation (synchronous) */
	bfx_fill(&f, 4);
	dev_put_byte(f.dev, NB * ESZ, 0xee);
	f.sizes[1] = 0;
	f.dsts[3] = f.dev + NB * ESZ - 1;
	f.dmax[3] = f.sizes[3] = 2;
	want = lone_msg(&f, 3, NULL, ACL_ERROR_RT_PARAM_INVALID);
	fails_at(&f, NULL, ACL_ERROR_RT_PARAM_INVALID, 3, want, NB * ESZ);
	free(want);
}

#define XN 64				/* entries of the crossing cases */
#define XSZ 200				/* bytes per entry at most */

/* Entry @i of the crossing cases: its offset and size in its buffer. */
static size_t x_off(size_t i)
{
	return i * XSZ + i % 4;
}

static size_t x_len(size_t i)
{
	return XSZ - 4 - (i * 37) % 150;
}

/*
 * Entries switching between two device allocations and, independently,
 * between host buffers (two pinned allocations and, with @pageable, a
 * malloc'd buffer), host to device and back, asynchronously: every byte
 * lands where its entry says.
 */
static void crossing_case(bool pageable)
{
	void *dsts[XN], *srcs[XN];
	size_t dmax[XN], sizes[XN], idx[1] = { 0 }, fi = FI_UNTOUCHED, i, span = XN * XSZ;
	aclrtMemcpyBatchAttr at[1] = { ATTR_H2D };
	uint8_t *dev[2], *host[3], *back[3], *got;
	aclrtStream s;
	size_t hk;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	dev[0] = dev_alloc(span);
	dev[1] = dev_alloc(span);
	host[0] = host_pinned(span);
	host[1] = host_pinned(span);
	host[2] = pageable ? malloc(span) : host_pinned(span);
	back[0] = host_pinned(span);
	back[1] = pageable ? malloc(span) : host_pinned(span);
	back[2] = host_pinned(span);
	REQUIRE(host[2] && back[1]);
	for (i = 0; i < 3; i++) {
		fill_pat(host[i], span, 20 + i);
		memset(back[i], 0, span);
	}
	dev_put_byte(dev[0], span, 0);
	dev_put_byte(dev[1], span, 0);
	/* runs of 1..3 entries per device allocation; host buffers by i % 3
	 * and i / 5 % 3: runs of every length, on both sides */
	for (i = 0; i < XN; i++) {
		hk = (i % 3 + i / 5) % 3;
		dsts[i] = dev[(i / 3 + i / 7) % 2] + x_off(i);
		srcs[i] = host[hk] + x_off(i);
		dmax[i] = sizes[i] = x_len(i);
	}
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(dsts, dmax, srcs, sizes, XN, at, idx, 1, &fi, s));
	CHECK_EQ(fi, SIZE_MAX);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < 2; i++) {
		size_t e, k;

		got = dev_get(dev[i], span);
		for (e = 0; e < XN; e++) {
			if (dsts[e] != dev[i] + x_off(e))
				continue;
			hk = (e % 3 + e / 5) % 3;
			for (k = 0; k < x_len(e); k++)
				if (got[x_off(e) + k] != pat(20 + hk, x_off(e) + k))
					break;
			if (k < x_len(e)) {
				CHECK_EQ(k, x_len(e));
				printf("#   entry %zu\n", e);
				break;
			}
		}
		free(got);
	}
	/* and back, device to host, into buffers switching the other way */
	at[0] = ATTR_D2H;
	for (i = 0; i < XN; i++) {
		srcs[i] = dsts[i];
		dsts[i] = back[(i / 2) % 3] + x_off(i);
	}
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(dsts, dmax, srcs, sizes, XN, at, idx, 1, &fi, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < XN; i++) {
		size_t b, lo = i * XSZ, hi = lo + XSZ;

		hk = (i % 3 + i / 5) % 3;
		if (memcmp(dsts[i], host[hk] + x_off(i), x_len(i))) {
			CHECK(!"bytes differ");
			printf("#   entry %zu\n", i);
			break;
		}
		/* nothing else of slot i moved, in any of the buffers */
		for (b = 0; b < 3; b++) {
			if (b != (i / 2) % 3) {
				CHECK_EQ(diff_byte(back[b] + lo, XSZ, 0), -1);
				continue;
			}
			CHECK_EQ(diff_byte(back[b] + lo, x_off(i) - lo, 0), -1);
			CHECK_EQ(diff_byte(back[b] + x_off(i) + x_len(i),
					   hi - x_off(i) - x_len(i), 0), -1);
		}
	}
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(batch_async_entries_switching_allocations_bytes)
{
	crossing_case(false);
}

TEST(batch_async_mixed_pinned_and_pageable_entries_bytes)
{
	crossing_case(true);
}

/* More entries than one staging buffer holds, with pageable ones between
 * pinned ones on both sides of the split. */
TEST(batch_async_entry_array_over_one_staging_buffer)
{
	size_t n = 50000, i, idx[1] = { 0 }, fi, esz = 4, *dmax, *sizes;
	aclrtMemcpyBatchAttr at[1] = { ATTR_H2D };
	void **dsts, **srcs;
	uint8_t *dev, *host, *pg, *got;
	aclrtStream s;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	dsts = calloc(n, sizeof(void *));
	srcs = calloc(n, sizeof(void *));
	dmax = calloc(n, sizeof(size_t));
	sizes = calloc(n, sizeof(size_t));
	pg = malloc(n * esz);
	REQUIRE(dsts && srcs && dmax && sizes && pg);
	dev = dev_alloc(n * esz);
	host = host_pinned(n * esz);
	fill_pat(host, n * esz, 31);
	fill_pat(pg, n * esz, 31);
	dev_put_byte(dev, n * esz, 0);
	for (i = 0; i < n; i++) {
		bool p = i == 3 || (i >= 43000 && i < 43010) || i == 49999;

		dsts[i] = dev + i * esz;
		srcs[i] = (p ? pg : host) + i * esz;
		dmax[i] = sizes[i] = esz;
	}
	CHECK_ACL_OK(aclrtMemcpyBatchAsync(dsts, dmax, srcs, sizes, n, at, idx, 1, &fi, s));
	CHECK_EQ(fi, SIZE_MAX);
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(dev, n * esz);
	CHECK_EQ(diff_pat(got, n * esz, 31), -1);
	free(got);
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

/* An allocation freed between two calls is not taken for the one seen before. */
TEST(batch_allocation_freed_between_calls_is_107000)
{
	aclrtStream s, modes[2];
	uint8_t *a, *b, *c, *got;
	struct bfx f;
	char *want;
	size_t i;
	int m;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	modes[0] = NULL;
	modes[1] = s;
	for (m = 0; m < 2; m++) {
		bfx_fill(&f, 8);
		a = dev_alloc(4 * ESZ);
		b = dev_alloc(4 * ESZ);
		for (i = 0; i < 8; i++)
			f.dsts[i] = (i < 4 ? a : b) + (i % 4) * ESZ;
		CHECK_EQ(run_mode(&f, modes[m], &want), ACL_SUCCESS);
		CHECK_EQ(f.fi, SIZE_MAX);
		REQUIRE_ACL(aclrtFree(b));
		c = dev_alloc(4 * ESZ);	/* may take b's place, or not */
		if (c == b) {
			/* b's addresses are c's now: they copy there */
			CHECK_EQ(run_mode(&f, modes[m], &want), ACL_SUCCESS);
			REQUIRE_ACL(aclrtFree(c));
			c = NULL;
		}
		f.fi = FI_UNTOUCHED;
		CHECK_EQ(run_mode(&f, modes[m], &want), ACL_ERROR_RT_PARAM_INVALID);
		CHECK_EQ(f.fi, 4);
		REQUIRE(want);
		CHECK(strstr(want, "not in any live allocation") != NULL);
		free(want);
		/* the entries moved to the new allocation copy there */
		if (!c)
			c = dev_alloc(4 * ESZ);
		for (i = 4; i < 8; i++)
			f.dsts[i] = c + (i % 4) * ESZ;
		dev_put_byte(c, 4 * ESZ, 0);
		CHECK_EQ(run_mode(&f, modes[m], &want), ACL_SUCCESS);
		got = dev_get(c, 4 * ESZ);
		CHECK_EQ(memcmp(got, f.host + 4 * ESZ, 4 * ESZ), 0);
		free(got);
	}
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

int main(void)
{
	return tap_main();
}
