// SPDX-License-Identifier: MIT
/*
 * overflow.c - floating-point overflow modes and switches.
 *
 * The emulated NPU's float kernels (AddF32) compute IEEE single precision:
 * an overflow gives an infinity and invalid operations NaN, which is
 * CANN's ACL_RT_OVERFLOW_MODE_INFNAN.  They cannot saturate, so asking for
 * ACL_RT_OVERFLOW_MODE_SATURATION is refused rather than pretended.
 *
 * Overflow *status*: the device keeps one status word per address space,
 * that is per process and device (CANN: the status is process level on
 * Atlas A2/A3), which its float kernels (AddF32, RandomNum) set when a
 * result is inf or NaN from finite inputs, on a stream whose overflow
 * switch is on.  aclrtGetOverflowStatus/aclrtResetOverflowStatus (and the
 * FloatOverflow names of the same calls) are the device's OverflowStatus
 * and OverflowReset kernels on the stream, so they are stream-ordered; the
 * status of another process is out of reach, and a process that opens the
 * device anew starts clean.  The 64 bytes written: u32 0 is 1 after an
 * overflow, everything else is 0.
 *
 * The switch (aclrtSetStreamOverflowSwitch) is the device's OverflowSwitch
 * kernel on the stream: float kernels queued after it record (1) or do
 * not (0); a stream starts with it off, as in CANN, whose sample turns it
 * on before it reads the status.  It is remembered for
 * aclrtGetStreamOverflowSwitch.  A queue reset (after a fault, an abort
 * or a stop) restarts the device queue with its switch off; the stream
 * then queues the switch again (stream.c, stream_after_reset()).
 *
 * aclrtCtxGetFloatOverflowAddr (the saturation-mode workspace of AI Core
 * operators) stays in unsupported.c: the device cannot saturate.
 *
 * CANN facts (hicann/runtime src/acl/aclrt_impl/stream.cpp, device.cpp and
 * the runtime's checks): the stream switch is 0 or 1 (ACL_ERROR_INVALID_PARAM
 * otherwise); aclrtGetOverflowStatus with a NULL outputAddr is
 * ACL_ERROR_INVALID_PARAM, an outputSize other than 64 is
 * ACL_ERROR_RT_PARAM_INVALID, and aclrtGetFloatOverflowStatus reports both
 * as ACL_ERROR_RT_PARAM_INVALID; a NULL stream is the default stream.
 */
#include "internal.h"

#define OVERFLOW_STATUS_SIZE	64

/* One block of built-in kernel @name with @args on @stream; *@kid: its id. */
static aclError overflow_kernel(aclrtStream stream, const char *name, const void *args,
				uint32_t size, uint32_t *kid)
{
	uint32_t id, cores;
	aclError ret;

	ret = builtin_find(stream, name, &id, &cores);
	if (ret)
		return ret;
	if (kid)
		*kid = id;
	return builtin_submit(stream, id, 1, args, size);
}

static aclError get_status(void *outputAddr, uint64_t outputSize, aclrtStream stream,
			   aclError null_code)
{
	uint64_t args[2] = { (uintptr_t)outputAddr, outputSize };

	if (!outputAddr)
		return acl_err(null_code, "outputAddr is NULL");
	if (outputSize != OVERFLOW_STATUS_SIZE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "outputSize is %llu: the overflow status is %d bytes",
			       (unsigned long long)outputSize, OVERFLOW_STATUS_SIZE);
	return overflow_kernel(stream, "OverflowStatus", args, sizeof(args), NULL);
}

aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream)
{
	API_ENTER();
	return get_status(outputAddr, outputSize, stream, ACL_ERROR_INVALID_PARAM);
}

aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream)
{
	API_ENTER();
	return get_status(outputAddr, outputSize, stream, ACL_ERROR_RT_PARAM_INVALID);
}

aclError aclrtResetOverflowStatus(aclrtStream stream)
{
	API_ENTER();
	return overflow_kernel(stream, "OverflowReset", NULL, 0, NULL);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream)
{
	API_ENTER();
	return overflow_kernel(stream, "OverflowReset", NULL, 0, NULL);
}

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
	uint32_t kid;
	aclError ret;

	API_ENTER();
	if (flag != 0 && flag != 1)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag %u is neither 0 nor 1", flag);
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	stream_release(s, dev);
	ret = overflow_kernel(stream, "OverflowSwitch", &flag, sizeof(flag), &kid);
	if (ret)
		return ret;
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&s->lock);
	s->overflow_kid = kid;
	__atomic_store_n(&s->overflow_switch, flag, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&s->lock);
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
