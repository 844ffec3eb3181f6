// SPDX-License-Identifier: MIT
/*
 * value.c - aclrtValueWrite / aclrtValueWait: 64-bit stores and waits on
 * device memory executed in stream order (ring WRITE_VALUE / WAIT_VALUE).
 *
 * The four ACL_STREAM_WAIT_VALUE_* flags have the values of the uAPI's
 * ASCEND_WAIT_VALUE_* conditions, so the flag goes to the ring unchanged.
 * A wait has no time limit of its own: the device's default command
 * timeout applies (then the stream faults with 107020 at its next sync).
 */
#include "internal.h"

_Static_assert(ACL_STREAM_WAIT_VALUE_GEQ == ASCEND_WAIT_VALUE_GEQ &&
	       ACL_STREAM_WAIT_VALUE_EQ == ASCEND_WAIT_VALUE_EQ &&
	       ACL_STREAM_WAIT_VALUE_AND == ASCEND_WAIT_VALUE_AND &&
	       ACL_STREAM_WAIT_VALUE_NOR == ASCEND_WAIT_VALUE_NOR,
	       "CANN wait flags are the uAPI conditions");

/* @p must be a naturally aligned 64-bit word of a live device allocation. */
static aclError check_addr(void *p, struct acl_device **owner)
{
	struct acl_alloc a;

	if (!p)
		return acl_err_at("value", ACL_ERROR_INVALID_PARAM, "devAddr is NULL");
	*owner = dev_of_va(p);
	if (!*owner || !addrmap_find((uintptr_t)p, &a))
		return acl_err_at("value", ACL_ERROR_RT_PARAM_INVALID,
				  "devAddr %p is not in a live device allocation", p);
	if ((uintptr_t)p & 7)
		return acl_err_at("value", ACL_ERROR_RT_ADDR_UNALIGNED,
				  "devAddr %p is not 8-byte aligned", p);
	if ((uintptr_t)p - a.va + 8 > a.size)
		return acl_err_at("value", ACL_ERROR_RT_PARAM_INVALID,
				  "the 8 bytes at devAddr %p run past the end of allocation %#lx",
				  p, (unsigned long)a.va);
	return ACL_SUCCESS;
}

static aclError submit(void *p, struct ascend_cmd *cmd, aclrtStream stream)
{
	struct acl_device *owner = NULL, *dev;
	struct acl_stream *s;
	aclError ret;

	ret = check_addr(p, &owner);
	if (ret)
		return ret;
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (!(dev->info.capabilities & DRM_ASCEND_CAP_VALUES))
		ret = acl_err_at("value", ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				 "device %d's driver has no value commands", dev->id);
	else if (dev != owner)
		ret = acl_err_at("value", ACL_ERROR_RT_STREAM_CONTEXT,
				 "devAddr %p is memory of device %d but the stream is on device %d",
				 p, owner->id, dev->id);
	else
		ret = stream_submit(s, cmd);
	stream_release(s, dev);
	return ret;
}

aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WRITE_VALUE };

	API_ENTER();
	if (flag != 0)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag %u is reserved and must be 0", flag);
	cmd.value.addr = (uintptr_t)devAddr;
	cmd.value.value = value;
	return submit(devAddr, &cmd, stream);
}

aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_WAIT_VALUE };

	API_ENTER();
	if (flag > ACL_STREAM_WAIT_VALUE_NOR)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag %u is not one of ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR (0..3)",
			       flag);
	cmd.value.addr = (uintptr_t)devAddr;
	cmd.value.value = value;
	cmd.value.cond = flag;
	return submit(devAddr, &cmd, stream);
}
