// SPDX-License-Identifier: MIT
/*
 * The installation and the devices: aclsysGetVersionStr/Num,
 * aclGetCannAttributeList/aclGetCannAttribute, aclGetDeviceCapability,
 * aclrtGetDeviceCapability, aclrtCheckArchCompatibility,
 * aclrtQueryDeviceStatus, aclrtGetDeviceUtilizationRate and the core
 * limits (aclrt{Get,Set,Reset}DeviceResLimit, aclrtGetResInCurrentThread).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "acl_util.h"

static int msg_has(const char *what)
{
	const char *m = aclGetRecentErrMsg();

	return m && strstr(m, what) != NULL;
}

/* $ASCEND_HOME_PATH/share/info/<pkg>/version.info with "Version=<v>" */
static void put_version(const char *home, const char *pkg, const char *v)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/share", home);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/share/info", home);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/share/info/%s", home, pkg);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/share/info/%s/version.info", home, pkg);
	f = fopen(path, "w");
	REQUIRE(f != NULL);
	fprintf(f, "Some_Key=1\nVersion=%s\nOther=2\n", v);
	fclose(f);
}

static int32_t num_of(char *pkg)
{
	int32_t n = -1;

	REQUIRE_ACL(aclsysGetVersionNum(pkg, &n));
	return n;
}

TEST(version_from_version_info)
{
	char home[] = "/tmp/acl-home-XXXXXX";
	char v[ACL_PKG_VERSION_MAX_SIZE];
	char runtime[] = "runtime", foo[] = "foo_pkg", foo_dash[] = "foo-pkg", a[] = "pa",
	     b[] = "pb", c[] = "pc", d[] = "pd", missing[] = "missing";
	int32_t n = 0;

	REQUIRE(mkdtemp(home) != NULL);
	REQUIRE(setenv("ASCEND_HOME_PATH", home, 1) == 0);
	put_version(home, "runtime", "8.5.0");
	put_version(home, "foo_pkg", " 7.0.0-rc.3 ");
	put_version(home, "pa", "8.5.0.alpha002");
	put_version(home, "pb", "8.0.0beta1");
	put_version(home, "pc", "1.2.3.x");
	put_version(home, "pd", "9.1");
	CHECK_ACL_OK(aclsysGetVersionStr(runtime, v));
	CHECK(strcmp(v, "8.5.0") == 0);
	CHECK_EQ(num_of(runtime), 80500000);
	/* trimmed; '-' and '_' are interchangeable in the name */
	CHECK_ACL_OK(aclsysGetVersionStr(foo_dash, v));
	CHECK(strcmp(v, "7.0.0-rc.3") == 0);
	CHECK_EQ(num_of(foo), 70000000 - 100 + 3);
	CHECK_EQ(num_of(a), 80500000 - 300 + 2);
	CHECK_EQ(num_of(b), 80000000 - 200 + 1);
	CHECK_ACL_ERR(aclsysGetVersionNum(c, &n), ACL_ERROR_INTERNAL_ERROR);
	CHECK_ACL_ERR(aclsysGetVersionNum(d, &n), ACL_ERROR_INTERNAL_ERROR);
	CHECK_EQ(aclsysGetVersionStr(missing, v), ACL_ERROR_INVALID_FILE);
	CHECK(msg_has("missing"));
	CHECK_ACL_ERR(aclsysGetVersionStr(NULL, v), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclsysGetVersionStr(runtime, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclsysGetVersionNum(runtime, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclsysGetVersionNum(NULL, &n), ACL_ERROR_INVALID_PARAM);
	unsetenv("ASCEND_HOME_PATH");
}

TEST(runtime_version_without_install_is_the_library)
{
	char v[ACL_PKG_VERSION_MAX_SIZE], runtime[] = "runtime", other[] = "opp";
	int maj = -1, min = -1, pat = -1;
	int32_t n = 0;

	unsetenv("ASCEND_HOME_PATH");
	CHECK_ACL_OK(aclsysGetVersionStr(runtime, v));
	REQUIRE(sscanf(v, "%d.%d.%d", &maj, &min, &pat) == 3);
	CHECK_ACL_OK(aclsysGetVersionNum(runtime, &n));
	CHECK_EQ(n, maj * 10000000 + min * 100000 + pat * 1000);
	/* other packages have no stand-in */
	CHECK_EQ(aclsysGetVersionStr(other, v), ACL_ERROR_INVALID_FILE);
	CHECK(msg_has("ASCEND_HOME_PATH"));
}

TEST(cann_attributes)
{
	const aclCannAttr *list = NULL;
	size_t num = 0, i;
	int32_t v = -1;

	CHECK_ACL_OK(aclGetCannAttributeList(&list, &num));
	REQUIRE(list != NULL);
	CHECK_EQ(num, 1);
	CHECK_EQ(list[0], ACL_CANN_ATTR_INF_NAN);
	for (i = 0; i < num; i++) {
		CHECK_ACL_OK(aclGetCannAttribute(list[i], &v));
		CHECK_EQ(v, 1);
	}
	CHECK_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v));
	CHECK_EQ(v, 0);
	CHECK_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v));
	CHECK_EQ(v, 0);
	CHECK_ACL_ERR(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclGetCannAttribute((aclCannAttr)3, &v), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclGetCannAttributeList(NULL, &num), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclGetCannAttributeList(&list, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(device_capability)
{
	int64_t cores = -1, v = -1;
	int32_t f = -1;
	uint32_t count = 0;

	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtGetDeviceCount(&count));
	REQUIRE_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
	CHECK(cores > 0);
	/* the device need not be set */
	CHECK_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
	CHECK_EQ(v, cores);
	CHECK_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v));
	CHECK_EQ(v, cores);			/* mix cores */
	CHECK_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &v));
	CHECK_EQ(v, 0);
	CHECK_ACL_ERR(aclGetDeviceCapability(count, ACL_DEVICE_INFO_AI_CORE_NUM, &v), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &f));
	CHECK_EQ(f, ACL_DEV_FEATURE_NOT_SUPPORT);
	CHECK_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &f));
	CHECK_EQ(f, ACL_DEV_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)5, &f), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetDeviceCapability((int32_t)count, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &f),
		      ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, NULL),
		      ACL_ERROR_INVALID_PARAM);
	aclFinalize();
}

TEST(arch_compatibility)
{
	const char *soc;
	int32_t c = -1;

	REQUIRE_ACL(aclInit(NULL));
	soc = aclrtGetSocName();
	REQUIRE(soc != NULL);
	CHECK_ACL_OK(aclrtCheckArchCompatibility(soc, &c));
	CHECK_EQ(c, 1);
	if (strncmp(soc, "Ascend910B", 10) == 0) {
		/* the 910B family shares DaVinci 2201 with 910_93, not 310P's 2002 */
		CHECK_ACL_OK(aclrtCheckArchCompatibility("Ascend910B1", &c));
		CHECK_EQ(c, 1);
		CHECK_ACL_OK(aclrtCheckArchCompatibility("Ascend910_9391", &c));
		CHECK_EQ(c, 1);
		CHECK_ACL_OK(aclrtCheckArchCompatibility("Ascend310P3", &c));
		CHECK_EQ(c, 0);
		CHECK_ACL_OK(aclrtCheckArchCompatibility("Ascend910A", &c));
		CHECK_EQ(c, 0);
	}
	CHECK_EQ(aclrtCheckArchCompatibility("NoSuchSoc", &c), ACL_ERROR_RT_PARAM_INVALID);
	CHECK(msg_has("NoSuchSoc"));
	CHECK_ACL_ERR(aclrtCheckArchCompatibility("", &c), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtCheckArchCompatibility(NULL, &c), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtCheckArchCompatibility(soc, NULL), ACL_ERROR_RT_PARAM_INVALID);
	aclFinalize();
}

TEST(device_status_and_utilization)
{
	aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;
	aclrtUtilizationInfo u;
	uint32_t count = 0;

	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtGetDeviceCount(&count));
	CHECK_ACL_OK(aclrtQueryDeviceStatus(0, &st));
	CHECK_EQ(st, ACL_RT_DEVICE_STATUS_NORMAL);
	CHECK_ACL_ERR(aclrtQueryDeviceStatus((int32_t)count, &st), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_ERR(aclrtQueryDeviceStatus(0, NULL), ACL_ERROR_INVALID_PARAM);
	memset(&u, 0, sizeof(u));
	CHECK_ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
	CHECK_EQ(u.cubeUtilization, -1);
	CHECK_EQ(u.vectorUtilization, -1);
	CHECK_EQ(u.aicpuUtilization, -1);
	{	/* memory: HBM in use, as aclrtGetMemInfo counts it */
		size_t free0, total, free1;
		void *p = NULL;
		int32_t before;

		REQUIRE_ACL(aclrtSetDevice(0));
		CHECK_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
		CHECK_EQ(u.memoryUtilization, (int32_t)((total - free0) * 100 / total));
		before = u.memoryUtilization;
		REQUIRE_ACL(aclrtMalloc(&p, total / 4, ACL_MEM_MALLOC_HUGE_FIRST));
		CHECK_ACL_OK(aclrtGetDeviceUtilizationRate(0, &u));
		CHECK_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
		CHECK_EQ(u.memoryUtilization, (int32_t)((total - free1) * 100 / total));
		CHECK(u.memoryUtilization >= before + 24);
		CHECK_ACL_OK(aclrtFree(p));
		CHECK_ACL_OK(aclrtResetDevice(0));
	}
	u.utilizationExtend = (aclrtUtilizationExtendInfo *)&u;
	CHECK_ACL_ERR(aclrtGetDeviceUtilizationRate(0, &u), ACL_ERROR_INVALID_PARAM);
	CHECK_ACL_ERR(aclrtGetDeviceUtilizationRate(0, NULL), ACL_ERROR_INVALID_PARAM);
	u.utilizationExtend = NULL;
	CHECK_ACL_ERR(aclrtGetDeviceUtilizationRate((int32_t)count, &u), ACL_ERROR_RT_INVALID_DEVICEID);
	aclFinalize();
}

TEST(device_res_limits)
{
	int64_t cores = 0;
	uint32_t v = 0, count = 0;

	acl_setup();
	REQUIRE_ACL(aclrtGetDeviceCount(&count));
	REQUIRE_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
	CHECK_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	CHECK_EQ(v, (uint32_t)cores);
	CHECK_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v));
	CHECK_EQ(v, (uint32_t)cores);		/* mix cores */
	CHECK_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1));
	CHECK_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	CHECK_EQ(v, 1);
	CHECK_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
	CHECK_EQ(v, 1);
	CHECK_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, (uint32_t)cores + 1),
		 ACL_ERROR_RT_PARAM_INVALID);
	CHECK(msg_has("exceeds"));
	/* CANN's device_multi_thread sample: one vector core */
	CHECK_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1));
	CHECK_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v));
	CHECK_EQ(v, 1);
	CHECK_ACL_ERR(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, (uint32_t)cores + 1),
		      ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)2, 0), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetDeviceResLimit(0, (aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetResInCurrentThread((aclrtDevResLimitType)2, &v), ACL_ERROR_RT_PARAM_INVALID);
	CHECK_ACL_ERR(aclrtGetDeviceResLimit((int32_t)count, ACL_RT_DEV_RES_CUBE_CORE, &v),
		      ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_ACL_OK(aclrtResetDeviceResLimit(0));
	CHECK_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	CHECK_EQ(v, (uint32_t)cores);
	/* a limit lives as long as the device is set */
	CHECK_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1));
	REQUIRE_ACL(aclrtResetDevice(0));
	CHECK_ACL_ERR(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_ACL_ERR(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_CONTEXT_NULL);
	REQUIRE_ACL(aclrtSetDevice(0));
	CHECK_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	CHECK_EQ(v, (uint32_t)cores);
	CHECK_ACL_ERR(aclrtResetDeviceResLimit((int32_t)count), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST(stream_res_limits_unsupported)
{
	uint32_t v;

	acl_setup();
	CHECK_ACL_ERR(aclrtSetStreamResLimit(NULL, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtGetStreamResLimit(NULL, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	CHECK_ACL_ERR(aclrtUseStreamResInCurrentThread(NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

int main(void)
{
	return tap_main();
}
