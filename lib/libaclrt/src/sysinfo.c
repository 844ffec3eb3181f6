// SPDX-License-Identifier: MIT
/*
 * sysinfo.c - what the installation and the devices are: package versions
 * (aclsysGetVersionStr/Num), CANN attributes, device capabilities and
 * status, the SoC architecture check, utilisation and the per-device core
 * limits (aclrt{Get,Set,Reset}DeviceResLimit, aclrtGetResInCurrentThread).
 *
 * Facts from CANN (hicann/runtime):
 * - versions (src/acl/aclrt_impl/acl.cpp): package @pkg's version is the
 *   "Version=" line of $ASCEND_HOME_PATH/share/info/<pkg>/version.info, a
 *   name with '-' or '_' is retried with the other; "driver" and
 *   "firmware" live under the path /etc/ascend_install.info names
 *   (Driver_Install_Path_Param= / Firmware_Install_Path_Param=).  A
 *   missing file is ACL_ERROR_INVALID_FILE.  The number is
 *   major * 10^7 + minor * 10^5 + patch * 10^3, and a suffix alpha/beta/rc
 *   (one separator at most) subtracts 300/200/100 and adds its number.
 * - CANN attributes (src/acl/utils/cann_info_utils.cpp): the list holds
 *   the supported ones; an unknown attribute is ACL_ERROR_INVALID_PARAM.
 * - aclGetDeviceCapability (acl.cpp): device id past the count or an
 *   unknown info type: ACL_ERROR_INVALID_PARAM.
 * - the NPU architecture of each SoC: NpuArch= in
 *   src/platform/platform_config/ *.ini; two SoCs are compatible when
 *   their architectures are equal, an unknown name is 107000
 *   (api_impl.cc CheckArchCompatibility).
 * - resource limits (api_error.cc, api_impl.cc): type >= 2 and a value
 *   above the device's cores are 107000; the thread's value is the
 *   device's.
 *
 * This library is the "runtime" package: without a version.info it reports
 * its own version.  The emulated NPU's float kernels produce IEEE
 * infinities and NaNs (INF_NAN supported); it has no bf16 kernel and no
 * operator compiler (BF16 and JIT_COMPILE not supported).  The driver
 * reports no utilisation counters, so every utilisation reads -1, CANN's
 * value for a metric the device cannot measure.  The core limits are kept
 * and reported but the emulated NPU does not confine kernels to them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef LIBACLRT_VERSION
#define LIBACLRT_VERSION "0.0.0"
#endif

/* ---- versions ---- */

/* The value after "Version=" in @path, trimmed; false: no file or key. */
static bool read_version_file(const char *path, char *out, size_t n)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *v = strstr(line, "Version="), *e;

		if (!v)
			continue;
		v += strlen("Version=");
		while (isspace((unsigned char)*v))
			v++;
		e = v + strlen(v);
		while (e > v && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (*v && strlen(v) < n) {
			strcpy(out, v);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* The install path /etc/ascend_install.info gives for @key. */
static bool install_path(const char *key, char *out, size_t n)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/etc/ascend_install.info", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *v = strstr(line, key);

		if (!v)
			continue;
		v += strlen(key);
		v[strcspn(v, "\r\n")] = '\0';
		if (*v && strlen(v) < n) {
			strcpy(out, v);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool version_of(const char *pkg, char *out, size_t n, char *where, size_t wn)
{
	char path[4096], dir[2048];
	const char *home;

	if (!strcmp(pkg, "driver") || !strcmp(pkg, "firmware")) {
		if (!install_path(!strcmp(pkg, "driver") ? "Driver_Install_Path_Param=" :
				  "Firmware_Install_Path_Param=", dir, sizeof(dir))) {
			snprintf(where, wn, "/etc/ascend_install.info");
			return false;
		}
		snprintf(path, sizeof(path), "%s/%s/version.info", dir, pkg);
	} else {
		home = getenv("ASCEND_HOME_PATH");
		if (!home || !*home) {
			snprintf(where, wn, "$ASCEND_HOME_PATH (not set)");
			return false;
		}
		snprintf(path, sizeof(path), "%s/share/info/%s/version.info", home, pkg);
	}
	snprintf(where, wn, "%s", path);
	return read_version_file(path, out, n);
}

static aclError pkg_version(const char *pkg, char out[ACL_PKG_VERSION_MAX_SIZE])
{
	char alt[256], where[4096];
	size_t i;

	if (strlen(pkg) >= sizeof(alt))
		return acl_err(ACL_ERROR_INVALID_PARAM, "pkgName is longer than %zu bytes",
			       sizeof(alt) - 1);
	if (version_of(pkg, out, ACL_PKG_VERSION_MAX_SIZE, where, sizeof(where)))
		return ACL_SUCCESS;
	strcpy(alt, pkg);
	if (strpbrk(alt, "-_")) {
		char w2[sizeof(where)];

		for (i = 0; alt[i]; i++)
			alt[i] = alt[i] == '-' ? '_' : alt[i] == '_' ? '-' : alt[i];
		if (version_of(alt, out, ACL_PKG_VERSION_MAX_SIZE, w2, sizeof(w2)))
			return ACL_SUCCESS;
	}
	/* The runtime package is this library. */
	if (!strcmp(pkg, "runtime")) {
		snprintf(out, ACL_PKG_VERSION_MAX_SIZE, "%s", LIBACLRT_VERSION);
		return ACL_SUCCESS;
	}
	return acl_err(ACL_ERROR_INVALID_FILE,
		       "no version of package \"%s\": %s has no Version= line (is the package installed?)",
		       pkg, where);
}

aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
	char v[ACL_PKG_VERSION_MAX_SIZE];
	aclError ret;

	API_ENTER();
	if (!versionStr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "versionStr is NULL");
	if (!pkgName)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pkgName is NULL");
	ret = pkg_version(pkgName, v);
	if (!ret)
		memcpy(versionStr, v, strlen(v) + 1);
	return ret;
}

/* "X.Y.Z[sep][alpha|beta|rc][sep]N": CANN's version number, or -1. */
static int64_t version_number(const char *s)
{
	static const struct { const char *kw; int w; } pre[] = {
		{ "alpha", 300 }, { "beta", 200 }, { "rc", 100 },
	};
	long part[3];
	const char *p = s, *k = NULL, *num;
	char low[ACL_PKG_VERSION_MAX_SIZE], *end;
	int i, w = 0;
	size_t skip = 0;
	long n;

	for (i = 0; i < 3; i++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		part[i] = strtol(p, &end, 10);
		if (errno || part[i] > 1000)
			return -1;	/* the sum would not fit an int32_t anyway */
		p = end;
		if (i < 2 && *p++ != '.')
			return -1;
	}
	if (!*p)
		return part[0] * 10000000LL + part[1] * 100000LL + part[2] * 1000LL;
	for (i = 0; p[i] && i < (int)sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)p[i]);
	low[i] = '\0';
	for (i = 0; i < 3 && !k; i++) {
		k = strstr(low, pre[i].kw);
		w = pre[i].w;
		skip = strlen(pre[i].kw);
	}
	if (!k || k - low > 1)
		return -1;		/* unknown suffix, or too many separators */
	num = p + (k - low) + skip;
	/* nothing (0), or at most one '.'/'-' and then digits only */
	if (!*num) {
		n = 0;
	} else {
		if (*num == '.' || *num == '-')
			num++;
		if (!isdigit((unsigned char)*num))
			return -1;
		errno = 0;
		n = strtol(num, &end, 10);
		if (errno || *end || n > INT32_MAX)
			return -1;
	}
	return part[0] * 10000000LL + part[1] * 100000LL + part[2] * 1000LL - w + n;
}

aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
	char v[ACL_PKG_VERSION_MAX_SIZE];
	int64_t n;
	aclError ret;

	API_ENTER();
	if (!versionNum)
		return acl_err(ACL_ERROR_INVALID_PARAM, "versionNum is NULL");
	if (!pkgName)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pkgName is NULL");
	ret = pkg_version(pkgName, v);
	if (ret)
		return ret;
	n = version_number(v);
	if (n < 0 || n > INT32_MAX)
		return acl_err(ACL_ERROR_INTERNAL_ERROR,
			       "version \"%s\" of package \"%s\" is not MAJOR.MINOR.PATCH[alpha|beta|rcN]",
			       v, pkgName);
	*versionNum = (int32_t)n;
	return ACL_SUCCESS;
}

/* ---- CANN attributes and device capabilities ---- */

static const aclCannAttr cann_attrs[] = { ACL_CANN_ATTR_INF_NAN };

aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
	API_ENTER();
	if (!cannAttrList)
		return acl_err(ACL_ERROR_INVALID_PARAM, "cannAttrList is NULL");
	if (!num)
		return acl_err(ACL_ERROR_INVALID_PARAM, "num is NULL");
	*cannAttrList = cann_attrs;
	*num = sizeof(cann_attrs) / sizeof(cann_attrs[0]);
	return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
	API_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	switch (cannAttr) {
	case ACL_CANN_ATTR_INF_NAN:
		*value = 1;	/* the float kernels keep IEEE inf and NaN */
		return ACL_SUCCESS;
	case ACL_CANN_ATTR_BF16:	/* no bf16 kernel */
	case ACL_CANN_ATTR_JIT_COMPILE:	/* no operator compiler */
		*value = 0;
		return ACL_SUCCESS;
	default:
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "cannAttr %d is not an aclCannAttr (INF_NAN 0, BF16 1, JIT_COMPILE 2)",
			       (int)cannAttr);
	}
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value)
{
	struct drm_ascend_device_info info;
	aclError ret;

	API_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	if (deviceId >= (uint32_t)(dev_count() > 0 ? dev_count() : 0))
		return acl_err(ACL_ERROR_INVALID_PARAM, "deviceId %u: %d device(s) found", deviceId,
			       dev_count() > 0 ? dev_count() : 0);
	if (deviceInfo != ACL_DEVICE_INFO_AI_CORE_NUM && deviceInfo != ACL_DEVICE_INFO_VECTOR_CORE_NUM &&
	    deviceInfo != ACL_DEVICE_INFO_L2_SIZE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "deviceInfo %d is not an aclDeviceInfo (AI_CORE_NUM 0, VECTOR_CORE_NUM 1, L2_SIZE 2)",
			       (int)deviceInfo);
	ret = dev_read_info((int32_t)deviceId, &info);
	if (ret)
		return ret;
	/* the AI cores run vector work too (mix cores); no L2 cache */
	*value = deviceInfo == ACL_DEVICE_INFO_L2_SIZE ? 0 : (int64_t)info.num_ai_cores;
	return ACL_SUCCESS;
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t *value)
{
	struct drm_ascend_device_info info;
	aclError ret;

	API_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	ret = dev_read_info(deviceId, &info);
	if (ret)
		return ret;
	switch (devFeatureType) {
	case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:	/* no task update */
	case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:		/* no memory queues */
		*value = ACL_DEV_FEATURE_NOT_SUPPORT;
		return ACL_SUCCESS;
	default:
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devFeatureType %d is not an aclrtDevFeatureType (1, 21)",
			       (int)devFeatureType);
	}
}

/* ---- architecture compatibility ---- */

/* NpuArch of each SoC, from CANN's platform configuration files. */
static const struct { const char *soc; int arch; } soc_arch[] = {
	{ "Ascend031", 3004 },
	{ "Ascend035", 3505 },
	{ "Ascend035A", 3505 },
	{ "Ascend035B", 3505 },
	{ "Ascend310B1", 3002 },
	{ "Ascend310B2", 3002 },
	{ "Ascend310B3", 3002 },
	{ "Ascend310B4", 3002 },
	{ "Ascend310P1", 2002 },
	{ "Ascend310P3", 2002 },
	{ "Ascend310P5", 2002 },
	{ "Ascend310P7", 2002 },
	{ "Ascend350_354f", 3510 },
	{ "Ascend350_355e", 3510 },
	{ "Ascend910A", 1001 },
	{ "Ascend910B", 1001 },
	{ "Ascend910B1", 2201 },
	{ "Ascend910B2", 2201 },
	{ "Ascend910B2C", 2201 },
	{ "Ascend910B3", 2201 },
	{ "Ascend910B4", 2201 },
	{ "Ascend910B4-1", 2201 },
	{ "Ascend910PremiumA", 1001 },
	{ "Ascend910ProA", 1001 },
	{ "Ascend910ProB", 1001 },
	{ "Ascend910_9362", 2201 },
	{ "Ascend910_9363", 2201 },
	{ "Ascend910_9372", 2201 },
	{ "Ascend910_9381", 2201 },
	{ "Ascend910_9382", 2201 },
	{ "Ascend910_9391", 2201 },
	{ "Ascend910_9392", 2201 },
	{ "Ascend950DT_950x", 3510 },
	{ "Ascend950DT_950y", 3510 },
	{ "Ascend950DT_9571", 3510 },
	{ "Ascend950DT_9572", 3510 },
	{ "Ascend950DT_9573", 3510 },
	{ "Ascend950DT_9574", 3510 },
	{ "Ascend950DT_9575", 3510 },
	{ "Ascend950DT_9576", 3510 },
	{ "Ascend950DT_9577", 3510 },
	{ "Ascend950DT_9578", 3510 },
	{ "Ascend950DT_9581", 3510 },
	{ "Ascend950DT_9581x", 3510 },
	{ "Ascend950DT_9582", 3510 },
	{ "Ascend950DT_9582x", 3510 },
	{ "Ascend950DT_9583", 3510 },
	{ "Ascend950DT_9584", 3510 },
	{ "Ascend950DT_9585", 3510 },
	{ "Ascend950DT_9586", 3510 },
	{ "Ascend950DT_9587", 3510 },
	{ "Ascend950DT_9588", 3510 },
	{ "Ascend950DT_9591", 3510 },
	{ "Ascend950DT_9592", 3510 },
	{ "Ascend950DT_9595", 3510 },
	{ "Ascend950DT_9596", 3510 },
	{ "Ascend950DT_95A1", 3510 },
	{ "Ascend950DT_95A2", 3510 },
	{ "Ascend950PR_950z", 3510 },
	{ "Ascend950PR_9579", 3510 },
	{ "Ascend950PR_957b", 3510 },
	{ "Ascend950PR_957bx", 3510 },
	{ "Ascend950PR_957c", 3510 },
	{ "Ascend950PR_957d", 3510 },
	{ "Ascend950PR_9589", 3510 },
	{ "Ascend950PR_958b", 3510 },
	{ "Ascend950PR_9599", 3510 },
	{ "Kirin9030", 3113 },
	{ "KirinDev0000", 5101 },
	{ "KirinDev0001", 5161 },
	{ "KirinDev0002", 5165 },
	{ "KirinDev0003", 5163 },
	{ "KirinX90", 3003 },
};

static int arch_of(const char *soc)
{
	size_t i;

	for (i = 0; i < sizeof(soc_arch) / sizeof(soc_arch[0]); i++)
		if (!strcmp(soc_arch[i].soc, soc))
			return soc_arch[i].arch;
	return -1;
}

aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
	const char *hw;
	int a, b;

	API_ENTER();
	if (!socVersion || !*socVersion)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "socVersion is %s",
			       socVersion ? "empty" : "NULL");
	if (!canCompatible)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "canCompatible is NULL");
	a = arch_of(socVersion);
	if (a < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "SoC version \"%s\" is unknown", socVersion);
	hw = aclrtGetSocName();
	if (!hw)
		return ACL_ERROR_RT_NO_DEVICE;	/* message set */
	API_ENTER();
	b = arch_of(hw);
	if (b < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "the device's SoC \"%s\" has no known architecture", hw);
	*canCompatible = a == b;
	return ACL_SUCCESS;
}

/* ---- status and utilisation ---- */

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
	struct drm_ascend_device_info info;
	aclError ret;

	API_ENTER();
	if (!deviceStatus)
		return acl_err(ACL_ERROR_INVALID_PARAM, "deviceStatus is NULL");
	if (!dev_by_id(deviceId))
		return dev_read_info(deviceId, &info);	/* 107001 with the count */
	/* A device that answers DEVICE_INFO is alive; one that does not
	 * (removed, driver wedged) is abnormal. */
	ret = dev_read_info(deviceId, &info);
	(void)aclGetRecentErrMsg();	/* the status is the answer, not an error */
	*deviceStatus = ret ? ACL_RT_DEVICE_STATUS_ABNORMAL : ACL_RT_DEVICE_STATUS_NORMAL;
	return ACL_SUCCESS;
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)
{
	struct drm_ascend_device_info info;
	aclError ret;

	API_ENTER();
	if (!utilizationInfo)
		return acl_err(ACL_ERROR_INVALID_PARAM, "utilizationInfo is NULL");
	if (utilizationInfo->utilizationExtend)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "utilizationInfo->utilizationExtend is reserved and must be NULL");
	ret = dev_read_info(deviceId, &info);
	if (ret)
		return ret;
	/*
	 * HBM in use, in percent, from the device's own counts.  The driver
	 * has no busy-time counters for the cores yet: those stay -1, CANN's
	 * "not measured".
	 */
	utilizationInfo->cubeUtilization = -1;
	utilizationInfo->vectorUtilization = -1;
	utilizationInfo->aicpuUtilization = -1;
	utilizationInfo->memoryUtilization = info.hbm_total ?
		(int32_t)((info.hbm_total - info.hbm_free) * 100 / info.hbm_total) : -1;
	return ACL_SUCCESS;
}

/* ---- core limits ---- */

static aclError res_type_ok(aclrtDevResLimitType type)
{
	if ((unsigned int)type > ACL_RT_DEV_RES_VECTOR_CORE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "type %d is not an aclrtDevResLimitType: it must be in [0, 2)", (int)type);
	return ACL_SUCCESS;
}

/* Cores of @type device @d has: the emulated NPU's AI cores run cube and
 * vector work alike (mix cores), so both kinds count the same cores. */
static uint32_t res_total(const struct acl_device *d, aclrtDevResLimitType type)
{
	(void)type;
	return d->info.num_ai_cores;
}

static uint32_t res_value(struct acl_device *d, aclrtDevResLimitType type)
{
	uint32_t v;

	pthread_mutex_lock(&d->lock);
	v = d->res_limit_set[type] ? d->res_limit[type] : res_total(d, type);
	pthread_mutex_unlock(&d->lock);
	return v;
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value)
{
	struct acl_device *d;
	aclError ret;

	API_ENTER();
	ret = res_type_ok(type);
	if (ret)
		return ret;
	if (!value)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "value is NULL");
	ret = dev_acquire(deviceId, &d);
	if (ret)
		return ret;
	*value = res_value(d, type);
	dev_release(d);
	return ACL_SUCCESS;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value)
{
	struct acl_device *d;
	aclError ret;

	API_ENTER();
	ret = res_type_ok(type);
	if (ret)
		return ret;
	ret = dev_acquire(deviceId, &d);
	if (ret)
		return ret;
	if (value > res_total(d, type)) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "value %u exceeds the %u %s core(s) of device %d", value,
			      res_total(d, type), type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector",
			      deviceId);
	} else {
		pthread_mutex_lock(&d->lock);
		d->res_limit[type] = value;
		d->res_limit_set[type] = true;
		pthread_mutex_unlock(&d->lock);
	}
	dev_release(d);
	return ret;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
	struct acl_device *d;
	aclError ret;

	API_ENTER();
	ret = dev_acquire(deviceId, &d);
	if (ret)
		return ret;
	pthread_mutex_lock(&d->lock);
	memset(d->res_limit_set, 0, sizeof(d->res_limit_set));
	pthread_mutex_unlock(&d->lock);
	dev_release(d);
	return ACL_SUCCESS;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
	struct acl_device *d;
	aclError ret;

	API_ENTER();
	ret = res_type_ok(type);
	if (ret)
		return ret;
	if (!value)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "value is NULL");
	ret = dev_acquire_current(&d);
	if (ret)
		return ret;
	*value = res_value(d, type);
	dev_release(d);
	return ACL_SUCCESS;
}
