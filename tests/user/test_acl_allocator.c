// SPDX-License-Identifier: MIT
/*
 * The allocator registry of acl_rt_allocator.h, and the overflow modes and
 * switches: aclrtSet/GetDeviceSatMode, aclrtSet/GetStreamOverflowSwitch;
 * the overflow status functions are unsupported (no kernel records one).
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "acl_util.h"

static int obj;

static void *my_alloc(aclrtAllocator a, size_t size)
{
	(void)a;
	(void)size;
	return NULL;
}

static void my_free(aclrtAllocator a, aclrtAllocatorBlock b)
{
	(void)a;
	(void)b;
}

static void *my_advise(aclrtAllocator a, size_t size, aclrtAllocatorAddr addr)
{
	(void)a;
	(void)size;
	return addr;
}

static void *my_addr(aclrtAllocatorBlock b)
{
	return b;
}

static void *my_addr2(aclrtAllocatorBlock b)
{
	return (char *)b + 1;
}

TEST(register_and_look_up)
{
	aclrtAllocatorDesc d, got = NULL;
	aclrtAllocator a = NULL;
	aclrtAllocatorAllocFunc af = NULL;
	aclrtAllocatorFreeFunc ff = NULL;
	aclrtAllocatorAllocAdviseFunc adf = NULL;
	aclrtAllocatorGetAddrFromBlockFunc gf = NULL;
	aclrtStream s, t;

	acl_setup();
	REQUIRE_ACL(aclrtCreateStream(&s));
	REQUIRE_ACL(aclrtCreateStream(&t));
	d = aclrtAllocatorCreateDesc();
	REQUIRE(d != NULL);
	/* incomplete descriptors are refused, naming the missing part */
	CHECK_ACL_ERR(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtAllocatorSetObjToDesc(d, &obj));
	CHECK_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, my_alloc));
	CHECK_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(d, my_free));
	CHECK_EQ(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
	CHECK(strstr(acl_errmsg(), "getAddrFromBlockFunc") != NULL);
	CHECK_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, my_addr));
	CHECK_ACL_OK(aclrtAllocatorRegister(s, d));	/* advise is optional */
	CHECK_ACL_OK(aclrtAllocatorGetByStream(s, &got, &a, &af, &ff, &adf, &gf));
	CHECK_EQ(got, d);
	CHECK_EQ(a, (aclrtAllocator)&obj);
	CHECK(af == my_alloc);
	CHECK(ff == my_free);
	CHECK(adf == NULL);
	CHECK(gf == my_addr);
	/* the registration is a copy: changing the descriptor changes nothing */
	CHECK_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, my_addr2));
	CHECK_ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, my_advise));
	CHECK_ACL_OK(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, &adf, &gf));
	CHECK(gf == my_addr);
	CHECK(adf == NULL);
	/* registering again replaces it */
	CHECK_ACL_OK(aclrtAllocatorRegister(s, d));
	CHECK_ACL_OK(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, &adf, &gf));
	CHECK(gf == my_addr2);
	CHECK(adf == my_advise);
	/* other streams are separate */
	CHECK_ACL_ERR(aclrtAllocatorGetByStream(t, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtAllocatorUnregister(s));
	CHECK_ACL_ERR(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtAllocatorUnregister(s));	/* not registered: fine */
	/* a destroyed stream takes its registration with it */
	CHECK_ACL_OK(aclrtAllocatorRegister(t, d));
	CHECK_ACL_OK(aclrtDestroyStream(t));
	CHECK_ACL_ERR(aclrtAllocatorGetByStream(t, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtAllocatorDestroyDesc(d));
	CHECK_ACL_OK(aclrtDestroyStream(s));
}

TEST(allocator_null_arguments)
{
	aclrtAllocatorDesc d = aclrtAllocatorCreateDesc(), got;

	REQUIRE(d != NULL);
	CHECK_ACL_ERR(aclrtAllocatorSetObjToDesc(NULL, &obj), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorSetObjToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorSetAllocFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorSetFreeFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorSetAllocAdviseFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorRegister(NULL, d), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorRegister((aclrtStream)&obj, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorGetByStream(NULL, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorGetByStream((aclrtStream)&obj, NULL, NULL, NULL, NULL, NULL, NULL),
		      ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtAllocatorDestroyDesc(d));
}

TEST(overflow_mode_and_switch)
{
	aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
	uint32_t f = 9;
	aclrtStream s;
	void *p;

	CHECK_ACL_ERR(aclrtGetDeviceSatMode(&m), ACL_ERROR_RT_CONTEXT_NULL);	/* no device */
	acl_setup();
	CHECK_ACL_OK(aclrtGetDeviceSatMode(&m));
	CHECK_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN);
	CHECK_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
	CHECK_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK(strstr(acl_errmsg(), "saturate") != NULL);
	CHECK_ACL_ERR(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM);
	REQUIRE_ACL(aclrtCreateStream(&s));
	CHECK_ACL_OK(aclrtGetStreamOverflowSwitch(s, &f));
	CHECK_EQ(f, 0);
	CHECK_ACL_OK(aclrtSetStreamOverflowSwitch(s, 1));
	CHECK_ACL_OK(aclrtGetStreamOverflowSwitch(s, &f));
	CHECK_EQ(f, 1);
	CHECK_ACL_OK(aclrtGetStreamOverflowSwitch(NULL, &f));	/* the default stream's */
	CHECK_EQ(f, 0);
	CHECK_ACL_ERR(aclrtSetStreamOverflowSwitch(s, 2), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_INVALID_PARAM);
	/* the status itself: test_acl_overflow */
	REQUIRE_ACL(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	CHECK_ACL_OK(aclrtGetOverflowStatus(p, 64, s));
	CHECK_ACL_OK(aclrtResetOverflowStatus(s));
	CHECK_ACL_OK(aclrtSynchronizeStream(s));
	aclrtFree(p);
	CHECK_ACL_OK(aclrtDestroyStream(s));
	CHECK_ACL_ERR(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_PARAM_INVALID);
}

int main(void)
{
	return tap_main();
}
