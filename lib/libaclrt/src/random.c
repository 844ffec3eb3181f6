// SPDX-License-Identifier: MIT
/*
 * random.c - aclrtRandomNumAsync on the device's RandomNum kernel.
 *
 * The task is two launches on the stream: RandomNum (its blocks share the
 * elements out; element i depends only on the seed, the 128-bit counter
 * read from randomCounterAddr and i: Philox-4x32-10), then RandomAdvance
 * (one block), which advances the counter by the Philox blocks the task
 * used and writes the 16-byte parameter block to randomParaAddr when one
 * is given.  So consecutive tasks on one counter continue the sequence,
 * and a task run again with the counter it started from repeats it.  The
 * layout of the results and the counter steps are in
 * Documentation/hardware.rst ("Random numbers") and usage.rst.
 *
 * CANN facts (hicann/runtime: src/acl/aclrt_impl/kernel.cpp and the
 * runtime's random-number task checks): taskInfo NULL or a data type
 * outside int32/int64/uint32/uint64/bf16/fp16/fp32 is ACL_ERROR_INVALID_PARAM;
 * the rest is ACL_ERROR_RT_PARAM_INVALID: a distribution outside the four,
 * a data type the distribution does not take (the dropout mask's ratio and
 * the normal distributions: bf16/fp16/fp32 only), a NULL counter or result
 * address, an isAddr other than 0/1, and a size of 0 or above 8 (seed,
 * count, addresses) or above the data type's size (parameter values).
 * Only the first `size` bytes of valueOrAddr count; rsv and reserve are
 * not looked at.
 */
#include <string.h>

#include "internal.h"

/* The RandomNum kernel's argument block (Documentation/hardware.rst). */
struct rng_args {
	uint64_t result, counter, para, seed, num, p1, p2;
	uint32_t func, type, flags, rsv;
};

_Static_assert(sizeof(struct rng_args) == 72, "RandomNum argument block");

#define RNG_SEED_VA	1u
#define RNG_NUM_VA	2u
#define RNG_P1_VA	4u
#define RNG_P2_VA	8u

/* The device's type code of @t and its element size; -1: not a random type. */
static int rng_type(aclDataType t, unsigned int *size)
{
	static const struct { aclDataType t; unsigned int size; } map[] = {
		{ ACL_FLOAT, 4 }, { ACL_FLOAT16, 2 }, { ACL_BF16, 2 }, { ACL_INT32, 4 },
		{ ACL_UINT32, 4 }, { ACL_INT64, 8 }, { ACL_UINT64, 8 },
	};

	for (unsigned int i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].t == t) {
			*size = map[i].size;
			return (int)i;
		}
	}
	return -1;
}

static const char *const func_names[] = {
	"ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK", "ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS",
	"ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS", "ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS",
};

/* One aclrtRandomParaInfo: checked, then its value or address and flag. */
static aclError para(const aclrtRandomParaInfo *p, const char *name, unsigned int max_value,
		     uint64_t *out, uint32_t va_flag, uint32_t *flags)
{
	unsigned int max = p->isAddr == 1 ? 8 : max_value;

	if (p->isAddr > 1)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "taskInfo->%s.isAddr is %u: 0 (a value) or 1 (a device address)",
			       name, p->isAddr);
	if (!p->size || p->size > max)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "taskInfo->%s.size is %u: it must be 1 to %u for %s", name, p->size,
			       max, p->isAddr ? "an address" : "a value of this data type");
	*out = 0;
	memcpy(out, p->valueOrAddr, p->size);	/* little endian */
	if (p->isAddr)
		*flags |= va_flag;
	return ACL_SUCCESS;
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
			     void *reserve)
{
	const aclrtRandomNumFuncParaInfo *fp;
	struct rng_args a = { 0 };
	uint32_t id_num, id_adv, cores, blocks;
	unsigned int size;
	int type;
	aclError ret;

	API_ENTER();
	(void)reserve;
	if (!taskInfo)
		return acl_err(ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
	type = rng_type(taskInfo->dataType, &size);
	if (type < 0)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "taskInfo->dataType %d is not supported: ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_BF16, ACL_FLOAT16 or ACL_FLOAT",
			       (int)taskInfo->dataType);
	fp = &taskInfo->randomNumFuncParaInfo;
	if ((unsigned int)fp->funcType > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "taskInfo->randomNumFuncParaInfo.funcType %d is not an aclrtRandomNumFuncType (0 to 3)",
			       (int)fp->funcType);
	if (fp->funcType != ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS && type > 2)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s takes ACL_BF16, ACL_FLOAT16 or ACL_FLOAT, not data type %d",
			       func_names[fp->funcType], (int)taskInfo->dataType);
	if (!taskInfo->randomCounterAddr)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "taskInfo->randomCounterAddr is NULL");
	if (!taskInfo->randomResultAddr)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "taskInfo->randomResultAddr is NULL");
	ret = para(&taskInfo->randomSeed, "randomSeed", 8, &a.seed, RNG_SEED_VA, &a.flags);
	if (!ret)
		ret = para(&taskInfo->randomNum, "randomNum", 8, &a.num, RNG_NUM_VA, &a.flags);
	if (ret)
		return ret;
	switch (fp->funcType) {
	case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
		ret = para(&fp->paramInfo.dropoutBitmaskInfo.dropoutRation,
			   "randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation", size,
			   &a.p1, RNG_P1_VA, &a.flags);
		break;
	case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
		ret = para(&fp->paramInfo.uniformDisInfo.min,
			   "randomNumFuncParaInfo.paramInfo.uniformDisInfo.min", size, &a.p1,
			   RNG_P1_VA, &a.flags);
		if (!ret)
			ret = para(&fp->paramInfo.uniformDisInfo.max,
				   "randomNumFuncParaInfo.paramInfo.uniformDisInfo.max", size, &a.p2,
				   RNG_P2_VA, &a.flags);
		break;
	default:
		ret = para(&fp->paramInfo.normalDisInfo.mean,
			   "randomNumFuncParaInfo.paramInfo.normalDisInfo.mean", size, &a.p1,
			   RNG_P1_VA, &a.flags);
		if (!ret)
			ret = para(&fp->paramInfo.normalDisInfo.stddev,
				   "randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev", size, &a.p2,
				   RNG_P2_VA, &a.flags);
		break;
	}
	if (ret)
		return ret;
	a.result = (uintptr_t)taskInfo->randomResultAddr;
	a.counter = (uintptr_t)taskInfo->randomCounterAddr;
	a.para = (uintptr_t)taskInfo->randomParaAddr;
	a.func = (uint32_t)fp->funcType;
	a.type = (uint32_t)type;

	ret = builtin_find(stream, "RandomNum", &id_num, &cores);
	if (!ret)
		ret = builtin_find(stream, "RandomAdvance", &id_adv, &cores);
	if (ret)
		return ret;
	/* a count known now: one block per 2048 elements, at most a block a core */
	blocks = cores;
	if (!(a.flags & RNG_NUM_VA) && a.num / 2048 + 1 < cores)
		blocks = (uint32_t)(a.num / 2048 + 1);
	ret = builtin_submit(stream, id_num, blocks, &a, sizeof(a));
	if (!ret)
		ret = builtin_submit(stream, id_adv, 1, &a, sizeof(a));
	return ret;
}
