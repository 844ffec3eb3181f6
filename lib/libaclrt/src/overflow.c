// SPDX-License-Identifier: MIT
/*
 * overflow.c - floating-point overflow modes and switches.
 *
 * The emulated NPU's float kernels (AddF32) compute IEEE single precision:
 * an overflow gives an infinity and invalid operations NaN, which is
 * CANN's ACL_RT_OVERFLOW_MODE_INFNAN.  They cannot saturate, so asking for
 * ACL_RT_OVERFLOW_MODE_SATURATION is refused rather than pretended.
 *
 * Overflow *status* is a device register that float kernels set when they
 * overflow; no kernel of the emulated NPU records one yet (that is the
 * device half of the work), so aclrtGetOverflowStatus,
 * aclrtResetOverflowStatus and the FloatOverflow variants are listed in
 * unsupported.c instead of reporting "no overflow", which would be false
 * after an AddF32 that overflowed.  The per-stream switch is kept and
 * reported.
 *
 * CANN facts (hicann/runtime src/acl/aclrt_impl/stream.cpp, device.cpp):
 * the stream switch is 0 or 1 (ACL_ERROR_INVALID_PARAM otherwise).
 */
#include "internal.h"

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
	struct acl_device *dev;
	aclError ret;

	API_ENTER();
	if ((unsigned int)mode >= ACL_RT_OVERFLOW_MODE_UNDEF)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "mode %d is neither ACL_RT_OVERFLOW_MODE_SATURATION (0) nor ACL_RT_OVERFLOW_MODE_INFNAN (1)",
			       (int)mode);
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	dev_release(dev);
	if (mode == ACL_RT_OVERFLOW_MODE_SATURATION)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "the device's float kernels compute IEEE results (inf/NaN, ACL_RT_OVERFLOW_MODE_INFNAN) and cannot saturate");
	return ACL_SUCCESS;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
	struct acl_device *dev;
	aclError ret;

	API_ENTER();
	if (!mode)
		return acl_err(ACL_ERROR_INVALID_PARAM, "mode is NULL");
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	dev_release(dev);
	*mode = ACL_RT_OVERFLOW_MODE_INFNAN;
	return ACL_SUCCESS;
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	if (flag != 0 && flag != 1)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag %u is neither 0 nor 1", flag);
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	__atomic_store_n(&s->overflow_switch, flag, __ATOMIC_RELAXED);
	stream_release(s, dev);
	return ACL_SUCCESS;
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag)
{
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	if (!flag)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag is NULL");
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	*flag = __atomic_load_n(&s->overflow_switch, __ATOMIC_RELAXED);
	stream_release(s, dev);
	return ACL_SUCCESS;
}
