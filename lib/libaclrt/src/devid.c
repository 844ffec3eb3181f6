// SPDX-License-Identifier: MIT
/*
 * devid.c - CANN's three device numberings: user ids (what the process
 * sees, after ASCEND_RT_VISIBLE_DEVICES), logical ids (the driver's) and
 * physical ids (the chip's).  This driver has one numbering: the accel
 * node's device index is all three, so each mapping is the identity over
 * the devices found, and anything else is an invalid device id (107001),
 * as CANN's runtime reports it.
 */
#include "internal.h"

static aclError map_id(int32_t from, int32_t *to, const char *from_name, const char *to_name)
{
	int n = dev_count();

	if (!to)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", to_name);
	if (from < 0 || from >= n)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "%s %d is invalid: %d Ascend device(s) found", from_name, from, n);
	*to = from;
	return ACL_SUCCESS;
}

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId)
{
	API_ENTER();
	return map_id(userDevid, logicDevId, "userDevid", "logicDevId");
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid)
{
	API_ENTER();
	return map_id(logicDevId, userDevid, "logicDevId", "userDevid");
}

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId)
{
	API_ENTER();
	return map_id(phyDevId, logicDevId, "phyDevId", "logicDevId");
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
	API_ENTER();
	return map_id(logicDevId, phyDevId, "logicDevId", "phyDevId");
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId)
{
	API_ENTER();
	return map_id(phyDevId, userDevId, "phyDevId", "userDevId");
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId)
{
	API_ENTER();
	return map_id(userDevId, phyDevId, "userDevId", "phyDevId");
}
