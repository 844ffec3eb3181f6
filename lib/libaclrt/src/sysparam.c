// SPDX-License-Identifier: MIT
/*
 * sysparam.c - aclrtSetSysParamOpt / aclrtGetSysParamOpt: process-wide
 * options, kept as CANN's runtime keeps them (a value per option, 0 until
 * set).  None changes what this device does: its built-in kernels are
 * deterministic already, and there is no debug kernel or early start.
 * The per-context variants are not implemented (unsupported.c).
 */
#include "internal.h"

#define SYS_OPTS	4	/* ACL_OPT_DETERMINISTIC .. _ENABLE_KERNEL_EARLY_START */

static int64_t sys_opt[SYS_OPTS];

static aclError check_opt(aclSysParamOpt opt)
{
	if ((unsigned int)opt >= SYS_OPTS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "opt %d is not an aclSysParamOpt (0 deterministic, 1 debug kernel, 2 strong consistency, 3 kernel early start)",
			       (int)opt);
	return ACL_SUCCESS;
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
	/* CANN: deterministic levels 0..3, the other options 0 or 1 */
	int64_t max = (int)opt == ACL_OPT_DETERMINISTIC ? 3 : 1;
	aclError ret;

	API_ENTER();
	ret = check_opt(opt);
	if (ret)
		return ret;
	if (value < 0 || value > max)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "value %lld for opt %d is outside [0, %lld]", (long long)value,
			       (int)opt, (long long)max);
	__atomic_store_n(&sys_opt[opt], value, __ATOMIC_RELAXED);
	return ACL_SUCCESS;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
	aclError ret;

	API_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	ret = check_opt(opt);
	if (ret)
		return ret;
	*value = __atomic_load_n(&sys_opt[opt], __ATOMIC_RELAXED);
	return ACL_SUCCESS;
}
