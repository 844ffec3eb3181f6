/* SPDX-License-Identifier: MIT */
/*
 * data_buffer.c - the host-only helpers of acl_base_rt.h: aclDataBuffer
 * descriptors, element sizes and IEEE half-precision conversion.  None of
 * them touches the device, so they work before aclInit().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "errmsg.h"

/* A (pointer, size) pair; the memory it describes is never owned. */
struct aclDataBuffer {
	void *data;
	size_t size;
};

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
	aclDataBuffer *buf = malloc(sizeof(*buf));

	if (!buf) {
		(void)acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	buf->data = data;
	buf->size = size;
	return buf;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
	if (!dataBuffer)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
	free((void *)dataBuffer);
	return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
	if (!dataBuffer)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
	dataBuffer->data = data;
	dataBuffer->size = size;
	return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
	if (!dataBuffer) {
		(void)acl_err(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
		return NULL;
	}
	return dataBuffer->data;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
	if (!dataBuffer) {
		(void)acl_err(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
		return 0;
	}
	/* The deprecated 32-bit API truncates, as CANN's does. */
	return (uint32_t)dataBuffer->size;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
	if (!dataBuffer) {
		(void)acl_err(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
		return 0;
	}
	return dataBuffer->size;
}

size_t aclDataTypeSize(aclDataType dataType)
{
	switch (dataType) {
	case ACL_BOOL:
	case ACL_INT8:
	case ACL_UINT8:
	case ACL_HIFLOAT8:
	case ACL_FLOAT8_E5M2:
	case ACL_FLOAT8_E4M3FN:
	case ACL_FLOAT8_E8M0:
		return 1;
	case ACL_FLOAT16:
	case ACL_BF16:
	case ACL_INT16:
	case ACL_UINT16:
		return 2;
	case ACL_FLOAT:
	case ACL_INT32:
	case ACL_UINT32:
	case ACL_COMPLEX32:
		return 4;
	case ACL_INT64:
	case ACL_UINT64:
	case ACL_DOUBLE:
	case ACL_COMPLEX64:
		return 8;
	case ACL_COMPLEX128:
		return 16;
	default:
		/*
		 * Undefined, strings and sub-byte types (INT4, UINT1, FLOAT6_*,
		 * FLOAT4_*) have no whole-byte element size.
		 */
		return 0;
	}
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static float bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

float aclFloat16ToFloat(aclFloat16 value)
{
	uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
	uint32_t exp = (value >> 10) & 0x1fu;
	uint32_t mant = value & 0x3ffu;

	if (exp == 0x1f)		/* infinity / NaN (payload kept) */
		return bits_f32(sign | 0x7f800000u | (mant << 13));
	if (exp == 0) {
		if (mant == 0)		/* signed zero */
			return bits_f32(sign);
		/* subnormal: mant * 2^-24, exact in single precision */
		float f = (float)mant * (1.0f / 16777216.0f);

		return sign ? -f : f;
	}
	return bits_f32(sign | ((exp + 112u) << 23) | (mant << 13));
}

aclFloat16 aclFloatToFloat16(float value)
{
	uint32_t u = f32_bits(value);
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
	uint32_t exp = (u >> 23) & 0xffu;
	uint32_t mant = u & 0x7fffffu;
	int32_t e;
	uint32_t half, shift, rem, halfway;

	if (exp == 0xff)		/* infinity, or quiet NaN */
		return (aclFloat16)(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));

	e = (int32_t)exp - 127 + 15;
	if (e >= 0x1f)			/* too large: infinity */
		return (aclFloat16)(sign | 0x7c00u);
	if (e <= 0) {
		/* subnormal half (or zero): shift the full significand */
		if (e < -10)
			return sign;
		mant |= 0x800000u;
		shift = (uint32_t)(14 - e);
		half = mant >> shift;
		rem = mant & ((1u << shift) - 1);
		halfway = 1u << (shift - 1);
		if (rem > halfway || (rem == halfway && (half & 1u)))
			half++;		/* may carry into the smallest normal */
		return (aclFloat16)(sign | half);
	}
	half = ((uint32_t)e << 10) | (mant >> 13);
	rem = mant & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (half & 1u)))
		half++;			/* may carry up to infinity, correctly */
	return (aclFloat16)(sign | half);
}
