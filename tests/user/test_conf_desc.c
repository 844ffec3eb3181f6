// SPDX-License-Identifier: MIT
/*
 * Conformance: aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc,
 * aclrtMemcpyAsyncWithDesc, aclrtMemcpyAsyncWithOffset.  One case per
 * documented constraint and error code (CANN facts §7 "Descriptor copies"),
 * named after the rule; the descriptor's layout in device memory; and that
 * the device reads descriptors and base pointers when the copy executes.
 */
#define _GNU_SOURCE
#include "acl_util.h"
#include "conf_util.h"
#include "ascend_accel.h"

#define INNER ACL_MEMCPY_INNER_DEVICE_TO_DEVICE

static uint8_t *desc, *a, *b;
static aclrtStream s;

static void setup(void)
{
	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	desc = dev_alloc(256);		/* aclrtMalloc: at least 64-byte aligned */
	a = dev_alloc(8192);
	b = dev_alloc(8192);
	REQUIRE(((uintptr_t)desc & 63) == 0);
}

/* ---- aclrtGetMemcpyDescSize -------------------------------------------- */

TEST(getdescsize_inner_d2d_is_64)
{
	size_t sz = 0;

	setup();
	CHECK_ACL_OK(aclrtGetMemcpyDescSize(INNER, &sz));
	CHECK_EQ(sz, 64);
}

TEST(getdescsize_descsize_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtGetMemcpyDescSize(INNER, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(getdescsize_other_kind_is_207000)
{
	size_t sz = 0;

	setup();
	CHECK_ACL_ERR(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &sz),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtGetMemcpyDescSize(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, &sz),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST(getdescsize_kind_out_of_range_is_100000)
{
	size_t sz = 0;

	setup();
	CHECK_ACL_ERR(aclrtGetMemcpyDescSize((aclrtMemcpyKind)8, &sz), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetMemcpyDescSize((aclrtMemcpyKind)-1, &sz), ACL_ERROR_INVALID_PARAM);
}

/* ---- aclrtSetMemcpyDesc ------------------------------------------------ */

TEST(setdesc_desc_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(NULL, INNER, a, b, 16, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(setdesc_src_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, NULL, b, 16, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(setdesc_dst_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, NULL, 16, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(setdesc_count_zero_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, 0, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(setdesc_config_not_null_is_100000)
{
	int cfg = 0;

	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, 16, &cfg), ACL_ERROR_INVALID_PARAM);
}

TEST(setdesc_kind_out_of_range_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, (aclrtMemcpyKind)8, a, b, 16, NULL),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(setdesc_kind_not_inner_d2d_is_207000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, a, b, 16, NULL),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

/* CANN's runtime: RT_ERROR_INVALID_VALUE, i.e. 107000 (api_error.cc). */
TEST(setdesc_desc_not_64_aligned_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc + 32, INNER, a, b, 16, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(setdesc_desc_in_host_memory_is_107000)
{
	uint8_t *h;

	setup();
	h = host_pinned(4096);
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(h, INNER, a, b, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(setdesc_count_over_4g_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a, b, (4ULL << 30) + 1, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(setdesc_range_past_allocation_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtSetMemcpyDesc(desc, INNER, a + 8000, b, 193, NULL),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(setdesc_no_current_device_is_107002)
{
	setup();
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_ERR(aclrtSetMemcpyDesc((void *)0x1000, INNER, (void *)0x2000, (void *)0x3000,
					 16, NULL), ACL_ERROR_RT_CONTEXT_NULL);
}

/* CANN's runtime looks at the kind, the count and the descriptor's
 * alignment before anything needs a context. */
TEST(setdesc_kind_and_alignment_are_checked_before_107002)
{
	setup();
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_ERR(aclrtSetMemcpyDesc((void *)0x1000, ACL_MEMCPY_DEVICE_TO_DEVICE,
					 (void *)0x2000, (void *)0x3000, 16, NULL),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtSetMemcpyDesc((void *)0x1020, INNER, (void *)0x2000, (void *)0x3000,
					 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(setdesc_writes_the_descriptor_into_device_memory)
{
	struct ascend_memcpy_desc d;
	uint8_t *got;

	setup();
	CHECK_ACL_OK(aclrtSetMemcpyDesc(desc + 64, INNER, a + 3, b + 5, 1234, NULL));
	got = dev_get(desc + 64, 64);
	memcpy(&d, got, sizeof(d));
	CHECK_EQ(d.magic, ASCEND_MEMCPY_DESC_MAGIC);
	CHECK_EQ(d.version, 1);
	CHECK_EQ(d.src, (uintptr_t)(a + 3));
	CHECK_EQ(d.dst, (uintptr_t)(b + 5));
	CHECK_EQ(d.size, 1234);
	CHECK_EQ(d.reserved[0] | d.reserved[1] | d.reserved[2] | d.reserved[3], 0);
}

/* ---- aclrtMemcpyAsyncWithDesc ----------------------------------------- */

TEST(withdesc_desc_null_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithDesc(NULL, INNER, s), ACL_ERROR_INVALID_PARAM);
}

TEST(withdesc_stream_null_is_100000)
{
	setup();
	CHECK_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, a, b, 16, NULL));
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithDesc(desc, INNER, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(withdesc_kind_out_of_range_is_100000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithDesc(desc, (aclrtMemcpyKind)42, s),
		      ACL_ERROR_INVALID_PARAM);
}

TEST(withdesc_kind_not_inner_d2d_is_207000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_DEFAULT, s),
		      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST(withdesc_desc_not_64_aligned_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithDesc(desc + 8, INNER, s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withdesc_desc_not_device_memory_is_107000)
{
	static uint8_t h[128] __attribute__((aligned(64)));

	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithDesc(h, INNER, s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withdesc_copies_odd_size_unaligned_page_crossing_bytes)
{
	uint8_t *got;

	setup();
	dev_put_pat(a, 8192, 21);
	dev_put_byte(b, 8192, 0);
	CHECK_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, a + 1, b + 4093, 4001, NULL));
	CHECK_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(b, 8192);
	CHECK_EQ(diff_byte(got, 4093, 0), -1);
	{
		uint8_t *want = malloc(8192);

		REQUIRE(want);
		fill_pat(want, 8192, 21);
		CHECK_EQ(memcmp(got + 4093, want + 1, 4001), 0);
	}
	CHECK_EQ(diff_byte(got + 4093 + 4001, 8192 - 4093 - 4001, 0), -1);
}

TEST(withdesc_a_second_setdesc_before_execution_changes_the_copy)
{
	uint8_t *got;

	setup();
	dev_put_pat(a, 8192, 22);
	dev_put_byte(b, 8192, 0);
	CHECK_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, a, b, 100, NULL));
	CHECK_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, a, b + 200, 50, NULL));
	CHECK_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(b, 300);
	CHECK_EQ(diff_byte(got, 200, 0), -1);
	CHECK_EQ(diff_pat(got + 200, 50, 22), -1);
	CHECK_EQ(diff_byte(got + 250, 50, 0), -1);
}

TEST(withdesc_device_rewrite_between_queueing_and_execution_changes_the_copy)
{
	uint8_t *got;

	setup();
	dev_put_pat(a, 8192, 23);
	dev_put_byte(b, 8192, 0);
	CHECK_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, a, b, 64, NULL));		/* A */
	CHECK_ACL_OK(aclrtSetMemcpyDesc(desc + 64, INNER, a, b + 1000, 32, NULL)); /* B */
	/* On the stream: the device overwrites descriptor A with B, then
	 * runs the copy of descriptor A: B's copy happens. */
	CHECK_ACL_OK(aclrtMemcpyAsync(desc, 64, desc + 64, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(b, 2048);
	CHECK_EQ(diff_byte(got, 1000, 0), -1);
	CHECK_EQ(diff_pat(got + 1000, 32, 23), -1);
	CHECK_EQ(diff_byte(got + 1032, 2048 - 1032, 0), -1);
}

TEST(withdesc_malformed_descriptor_faults_the_stream)
{
	setup();
	dev_put_byte(desc, 64, 0);		/* no magic */
	CHECK_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, s));
	CHECK_ACL_FAIL(aclrtSynchronizeStream(s));
}

/* ---- aclrtMemcpyAsyncWithOffset ---------------------------------------- */

static void **slot(int i)
{
	return (void **)(desc + 8 * i);
}

/* Device slot @i := @p (a synchronous host-to-device copy). */
static void set_slot(int i, const void *p)
{
	uint64_t v = (uintptr_t)p;

	REQUIRE_ACL(aclrtMemcpy(slot(i), 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
}

TEST(withoffset_count_zero_is_success)
{
	setup();
	CHECK_ACL_OK(aclrtMemcpyAsyncWithOffset(NULL, 0, 0, NULL, 0, 0, INNER, s));
}

/* CANN: no ACL-layer checks here; the runtime's are all 107000
 * (api_c_standard_soc.cc rtMemcpyAsyncWithOffset, api_error.cc). */
TEST(withoffset_dst_null_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(NULL, 16, 0, (const void **)slot(1), 16, 0,
						 INNER, s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withoffset_src_null_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(slot(0), 16, 0, NULL, 16, 0, INNER, s),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withoffset_kind_out_of_range_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(slot(0), 16, 0, (const void **)slot(1), 16, 0,
						 (aclrtMemcpyKind)9, s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withoffset_kind_not_inner_d2d_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(slot(0), 16, 0, (const void **)slot(1), 16, 0,
						 ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
	/* checked before the pointers */
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(NULL, 16, 0, NULL, 16, 0,
						 ACL_MEMCPY_DEVICE_TO_DEVICE, s),
		      ACL_ERROR_RT_PARAM_INVALID);
}

/* destMax is the size at the destination base: offset + count must fit. */
TEST(withoffset_dst_offset_checked_against_destmax_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(slot(0), 64, 64, (const void **)slot(1), 1, 0,
						 INNER, s), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_EQ(aclrtMemcpyAsyncWithOffset(slot(0), 64, 60, (const void **)slot(1), 8, 0, INNER, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	CHECK(strstr(acl_errmsg(), "dstDataOffset") != NULL);
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(slot(0), 64, 0, (const void **)slot(1), 8,
						 0x1000000000000ULL, INNER, s),
		      ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withoffset_count_gt_destmax_is_107000)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(slot(0), 15, 0, (const void **)slot(1), 16, 0,
						 INNER, s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withoffset_slot_not_8_aligned_is_107008)
{
	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset((void **)(desc + 4), 16, 0,
						 (const void **)slot(1), 16, 0, INNER, s),
		      ACL_ERROR_RT_ADDR_UNALIGNED);
}

TEST(withoffset_slot_not_device_memory_is_107000)
{
	void *hslot[1] = { b };

	setup();
	CHECK_ACL_ERR(aclrtMemcpyAsyncWithOffset(hslot, 16, 0, (const void **)slot(1), 16, 0,
						 INNER, s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(withoffset_copies_from_base_plus_offset_to_base_plus_offset)
{
	uint8_t *got, want[8192];

	setup();
	dev_put_pat(a, 8192, 31);
	dev_put_byte(b, 8192, 0);
	set_slot(0, b);
	set_slot(1, a);
	CHECK_ACL_OK(aclrtMemcpyAsyncWithOffset(slot(0), 7096, 4095, (const void **)slot(1), 3001,
						7, INNER, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(b, 8192);
	fill_pat(want, 8192, 31);
	CHECK_EQ(diff_byte(got, 4095, 0), -1);
	CHECK_EQ(memcmp(got + 4095, want + 7, 3001), 0);
	CHECK_EQ(diff_byte(got + 7096, 8192 - 7096, 0), -1);
}

TEST(withoffset_reads_the_base_pointers_when_it_runs)
{
	uint8_t *got, *pin;
	uint64_t *v;

	setup();
	dev_put_pat(a, 8192, 32);
	dev_put_byte(b, 8192, 0);
	set_slot(0, b);			/* replaced on the stream below */
	set_slot(1, a);
	pin = host_pinned(4096);
	v = (uint64_t *)pin;
	*v = (uintptr_t)(b + 4096);
	CHECK_ACL_OK(aclrtMemcpyAsync(slot(0), 8, pin, 8, ACL_MEMCPY_HOST_TO_DEVICE, s));
	CHECK_ACL_OK(aclrtMemcpyAsyncWithOffset(slot(0), 64, 0, (const void **)slot(1), 64, 0,
						INNER, s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	got = dev_get(b, 8192);
	CHECK_EQ(diff_byte(got, 4096, 0), -1);
	CHECK_EQ(diff_pat(got + 4096, 64, 32), -1);
}

int main(void)
{
	return tap_main();
}
