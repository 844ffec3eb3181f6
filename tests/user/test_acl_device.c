// SPDX-License-Identifier: MIT
/*
 * Device management: aclrtGetDeviceCount, aclrtSetDevice, aclrtGetDevice,
 * aclrtResetDevice[Force], aclrtGetSocName.
 *
 * ASCEND_EXPECT_DEVICES (default 1) is the number of devices the module was
 * loaded with (module parameter num_devices).
 */
#define _GNU_SOURCE
#include "acl_util.h"

static uint32_t expected_devices(void)
{
	const char *e = getenv("ASCEND_EXPECT_DEVICES");

	return e && *e ? (uint32_t)strtoul(e, NULL, 10) : 1;
}

TEST(device_count)
{
	uint32_t count = 12345;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_OK(aclrtGetDeviceCount(&count));
	CHECK_EQ(count, expected_devices());
	aclFinalize();
}

TEST(device_count_null)
{
	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_ERR(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
	aclFinalize();
}

TEST(set_get_device)
{
	int32_t dev = -5;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_OK(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtGetDevice(&dev));
	CHECK_EQ(dev, 0);
	CHECK_ACL_OK(aclrtResetDevice(0));
	aclFinalize();
}

TEST(set_every_device)
{
	uint32_t i, n = expected_devices();
	int32_t dev;

	CHECK_ACL_OK(aclInit(NULL));
	for (i = 0; i < n; i++) {
		CHECK_ACL_OK(aclrtSetDevice((int32_t)i));
		dev = -1;
		CHECK_ACL_OK(aclrtGetDevice(&dev));
		CHECK_EQ(dev, i);
	}
	for (i = 0; i < n; i++)
		CHECK_ACL_OK(aclrtResetDevice((int32_t)i));
	aclFinalize();
}

TEST(set_device_invalid_id_107001)
{
	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_ERR(aclrtSetDevice((int32_t)expected_devices()),
		      ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtSetDevice(1 << 30), ACL_ERROR_RT_INVALID_DEVICEID);
	aclFinalize();
}

TEST(get_device_without_set)
{
	int32_t dev = 77;

	CHECK_ACL_OK(aclInit(NULL));
	CHECK_ACL_FAIL(aclrtGetDevice(&dev));
	aclFinalize();
}

TEST(get_device_null)
{
	acl_setup();
	CHECK_ACL_ERR(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(get_device_after_reset)
{
	int32_t dev;

	acl_setup();
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_ACL_FAIL(aclrtGetDevice(&dev));
}

TEST(set_device_twice_reset_twice)
{
	int32_t dev;

	/* Each SetDevice takes a reference, each ResetDevice drops one. */
	acl_setup();
	CHECK_ACL_OK(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_ACL_OK(aclrtGetDevice(&dev));
	CHECK_EQ(dev, 0);
	CHECK_ACL_OK(aclrtResetDevice(0));
}

TEST(reset_device_force_once)
{
	acl_setup();
	CHECK_ACL_OK(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtSetDevice(0));
	/* Force releases every reference at once... */
	CHECK_ACL_OK(aclrtResetDeviceForce(0));
	/* ...so any reset after that is an error. */
	CHECK_ACL_FAIL(aclrtResetDeviceForce(0));
	CHECK_ACL_FAIL(aclrtResetDevice(0));
}

TEST(reset_force_after_release)
{
	acl_setup();
	CHECK_ACL_OK(aclrtResetDevice(0));
	CHECK_ACL_FAIL(aclrtResetDeviceForce(0));
}

TEST(reset_invalid_device)
{
	acl_setup();
	CHECK_ACL_FAIL(aclrtResetDevice(-1));
	CHECK_ACL_FAIL(aclrtResetDeviceForce((int32_t)expected_devices()));
}

TEST(device_usable_after_reset_and_set)
{
	void *p = NULL;

	acl_setup();
	CHECK_ACL_OK(aclrtResetDeviceForce(0));
	CHECK_ACL_OK(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL_OK(aclrtFree(p));
	CHECK_ACL_OK(aclrtResetDevice(0));
}

TEST(soc_name)
{
	const char *name;

	acl_setup();
	name = aclrtGetSocName();
	REQUIRE(name != NULL);
	CHECK(strlen(name) > 0);
	CHECK(strncmp(name, "Ascend", 6) == 0);
	printf("#   soc name: %s\n", name);
}

int main(void)
{
	return tap_main();
}
