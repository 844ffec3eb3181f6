// SPDX-License-Identifier: MIT
/*
 * kernel.c - binaries (the device's built-in kernel table), function
 * handles, argument blocks, and kernel launches onto stream rings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define BUILTIN_PATH	"ascend://builtin"
#define MAX_PARAMS	ASCEND_LAUNCH_ARGS_MAX

struct acl_param { uint32_t offset, size; };

struct acl_args {
	struct acl_args *next;		/* binary's list */
	struct acl_func *fn;
	bool finalized;
	uint32_t size;			/* bytes packed so far */
	uint32_t num_params;
	struct acl_param params[MAX_PARAMS];
	uint8_t buf[ASCEND_LAUNCH_ARGS_MAX];
};

struct acl_func {
	struct acl_func *next;		/* binary's list */
	struct acl_binary *bin;
	struct drm_ascend_kernel_info k;
};

struct acl_binary {
	struct acl_binary *next;	/* k_bins */
	int dev_id;
	struct acl_func *funcs;
	struct acl_args *args;
};

/* Protects every binary, function and args object and the k_bins list. */
static pthread_mutex_t k_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_binary *k_bins;

static aclError bad_handle(const char *what, const void *h)
{
	return acl_err_at("kernel", ACL_ERROR_RT_PARAM_INVALID,
			  "%s %p is not a live handle (never created, or unloaded)", what, h);
}

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
				 aclrtBinHandle *binHandle)
{
	struct acl_binary *bin;
	struct acl_device *dev;
	aclError ret;

	API_ENTER();
	(void)options;	/* lazy-load/magic options mean nothing for built-ins */
	if (!binPath || !binHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			       binPath ? "binHandle" : "binPath");
	if (strcmp(binPath, BUILTIN_PATH) != 0) {
		if (access(binPath, R_OK) != 0)
			return acl_err(ACL_ERROR_RT_FILE_OPEN, "cannot read kernel binary \"%s\"",
				       binPath);
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "\"%s\": only the device's built-in kernel library \"" BUILTIN_PATH
			       "\" can be loaded (AscendC binaries cannot run on this NPU)",
			       binPath);
	}
	ret = dev_acquire_current(&dev);
	if (ret)
		return ret;
	if (!dev->num_kernels) {
		dev_release(dev);
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "device %d reports no built-in kernels", dev->id);
	}
	bin = calloc(1, sizeof(*bin));
	if (!bin) {
		dev_release(dev);
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	bin->dev_id = dev->id;
	dev_release(dev);
	pthread_mutex_lock(&k_lock);
	bin->next = k_bins;
	k_bins = bin;
	handle_add(bin, H_BINARY);
	pthread_mutex_unlock(&k_lock);
	*binHandle = bin;
	return ACL_SUCCESS;
}

static void free_binary(struct acl_binary *bin)	/* k_lock held */
{
	struct acl_binary **pp;

	while (bin->args) {
		struct acl_args *a = bin->args;

		bin->args = a->next;
		handle_del(a);
		free(a);
	}
	while (bin->funcs) {
		struct acl_func *f = bin->funcs;

		bin->funcs = f->next;
		handle_del(f);
		free(f);
	}
	for (pp = &k_bins; *pp; pp = &(*pp)->next) {
		if (*pp == bin) {
			*pp = bin->next;
			break;
		}
	}
	handle_del(bin);
	free(bin);
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)
{
	API_ENTER();
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(binHandle, H_BINARY)) {
		pthread_mutex_unlock(&k_lock);
		return binHandle ? bad_handle("binHandle", binHandle) :
			acl_err(ACL_ERROR_INVALID_PARAM, "binHandle is NULL");
	}
	free_binary(binHandle);
	pthread_mutex_unlock(&k_lock);
	return ACL_SUCCESS;
}

/* Device reset: its binaries (and their functions) go away. */
void kernel_release_device(int dev_id)
{
	struct acl_binary *b, *next;

	pthread_mutex_lock(&k_lock);
	for (b = k_bins; b; b = next) {
		next = b->next;
		if (b->dev_id == dev_id)
			free_binary(b);
	}
	pthread_mutex_unlock(&k_lock);
}

/* The device's kernel entry called @name; dev rw read-held. */
static const struct drm_ascend_kernel_info *lookup(struct acl_device *dev, const char *name)
{
	unsigned int i;

	for (i = 0; i < dev->num_kernels; i++)
		if (strncmp(dev->kernels[i].name, name, DRM_ASCEND_KERNEL_NAME_LEN) == 0)
			return &dev->kernels[i];
	return NULL;
}

static aclError no_kernel(struct acl_device *dev, const char *name)
{
	char list[512] = "";
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < dev->num_kernels && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%.*s", i ? ", " : "",
			      DRM_ASCEND_KERNEL_NAME_LEN, dev->kernels[i].name);
	return acl_err(ACL_ERROR_RT_KERNEL_LOOKUP,
			  "no kernel named \"%s\" in the built-in library of device %d (it has: %s)",
			  name, dev->id, list);
}

static aclError get_function(struct acl_binary *bin, const char *name,
			     aclrtFuncHandle *funcHandle)	/* k_lock held */
{
	const struct drm_ascend_kernel_info *k;
	struct acl_device *dev;
	struct acl_func *f;
	aclError ret;

	for (f = bin->funcs; f; f = f->next) {
		if (strncmp(f->k.name, name, DRM_ASCEND_KERNEL_NAME_LEN) == 0) {
			*funcHandle = f;
			return ACL_SUCCESS;
		}
	}
	ret = dev_acquire(bin->dev_id, &dev);
	if (ret)
		return ret;
	k = lookup(dev, name);
	if (!k) {
		ret = no_kernel(dev, name);
		dev_release(dev);
		return ret;
	}
	f = calloc(1, sizeof(*f));
	if (f) {
		f->k = *k;
		f->bin = bin;
		f->next = bin->funcs;
		bin->funcs = f;
		handle_add(f, H_FUNC);
		*funcHandle = f;
	}
	dev_release(dev);
	return f ? ACL_SUCCESS : acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
				aclrtFuncHandle *funcHandle)
{
	aclError ret;

	API_ENTER();
	if (!binHandle || !kernelName || !funcHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			       !binHandle ? "binHandle" : !kernelName ? "kernelName" : "funcHandle");
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(binHandle, H_BINARY))
		ret = bad_handle("binHandle", binHandle);
	else
		ret = get_function(binHandle, kernelName, funcHandle);
	pthread_mutex_unlock(&k_lock);
	return ret;
}

/* Check @funcHandle and copy out what a launch needs. */
static aclError func_info(aclrtFuncHandle funcHandle, struct drm_ascend_kernel_info *k,
			  int *dev_id)
{
	struct acl_func *f = funcHandle;
	aclError ret = ACL_SUCCESS;

	if (!funcHandle)
		return acl_err_at("kernel", ACL_ERROR_INVALID_PARAM, "funcHandle is NULL");
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(f, H_FUNC)) {
		ret = bad_handle("funcHandle", funcHandle);
	} else {
		*k = f->k;
		*dev_id = f->bin->dev_id;
	}
	pthread_mutex_unlock(&k_lock);
	return ret;
}

static aclError launch(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *args,
		       size_t argsSize, aclrtStream stream, bool pad_to_min)
{
	struct drm_ascend_kernel_info k;
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_LAUNCH };
	struct acl_device *dev;
	struct acl_stream *s;
	int dev_id = -1;
	aclError ret;

	ret = func_info(funcHandle, &k, &dev_id);
	if (ret)
		return ret;
	if (!numBlocks)
		return acl_err(ACL_ERROR_INVALID_PARAM, "numBlocks is 0");
	if (argsSize && !args)
		return acl_err(ACL_ERROR_INVALID_PARAM,
				  "argsData is NULL but argsSize is %zu", argsSize);
	if (argsSize > ASCEND_LAUNCH_ARGS_MAX)
		return acl_err(ACL_ERROR_INVALID_PARAM,
				  "argsSize %zu exceeds the %d-byte argument block of kernel %s",
				  argsSize, ASCEND_LAUNCH_ARGS_MAX, k.name);
	if (pad_to_min && argsSize < k.args_size && k.args_size <= ASCEND_LAUNCH_ARGS_MAX)
		argsSize = k.args_size;	/* packed tail is zero */
	if (argsSize < k.args_size)
		return acl_err(ACL_ERROR_INVALID_PARAM,
				  "argsSize %zu is smaller than the %u bytes kernel %s takes",
				  argsSize, k.args_size, k.name);
	cmd.launch.kernel_id = k.id;
	cmd.launch.num_blocks = numBlocks;
	cmd.launch.args_size = (uint32_t)argsSize;
	if (args)
		memcpy(cmd.launch.args, args, argsSize);
	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	if (dev->id != dev_id)
		ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
				 "stream %p is on device %d but kernel %s was loaded on device %d",
				 stream, dev->id, k.name, dev_id);
	else
		ret = stream_submit(s, &cmd);
	stream_release(s, dev);
	return ret;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
			   const void *argsData, size_t argsSize, aclrtStream stream)
{
	API_ENTER();
	return launch(funcHandle, numBlocks, argsData, argsSize, stream, false);
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
	struct acl_func *f = funcHandle;
	struct acl_args *a;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!funcHandle || !argsHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			       funcHandle ? "argsHandle" : "funcHandle");
	a = calloc(1, sizeof(*a));
	if (!a)
		return acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(f, H_FUNC)) {
		ret = bad_handle("funcHandle", funcHandle);
		free(a);
	} else {
		a->fn = f;
		a->next = f->bin->args;
		f->bin->args = a;
		handle_add(a, H_ARGS);
		*argsHandle = a;
	}
	pthread_mutex_unlock(&k_lock);
	return ret;
}

/* Natural alignment: min(size, 8) rounded up to a power of two. */
static uint32_t param_align(size_t size)
{
	uint32_t a = 1;

	while (a < size && a < 8)
		a <<= 1;
	return a;
}

static aclError append(struct acl_args *a, const void *param, size_t size,
		       aclrtParamHandle *ph)	/* k_lock held */
{
	uint32_t align = param_align(size);
	uint32_t off = (a->size + align - 1) & ~(align - 1);

	if (a->finalized)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				  "argsHandle %p was already finalized", (void *)a);
	if (size > ASCEND_LAUNCH_ARGS_MAX || off + size > ASCEND_LAUNCH_ARGS_MAX ||
	    a->num_params == MAX_PARAMS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
				  "a %zu-byte parameter at offset %u does not fit the %d-byte argument block",
				  size, off, ASCEND_LAUNCH_ARGS_MAX);
	memcpy(a->buf + off, param, size);
	a->params[a->num_params].offset = off;
	a->params[a->num_params].size = (uint32_t)size;
	if (ph)
		*ph = &a->params[a->num_params];
	a->num_params++;
	a->size = off + (uint32_t)size;
	return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
			       aclrtParamHandle *paramHandle)
{
	aclError ret;

	API_ENTER();
	if (!argsHandle || !param || !paramSize)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s",
			       !argsHandle ? "argsHandle is NULL" :
			       !param ? "param is NULL" : "paramSize is 0");
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(argsHandle, H_ARGS))
		ret = bad_handle("argsHandle", argsHandle);
	else
		ret = append(argsHandle, param, paramSize, paramHandle);
	pthread_mutex_unlock(&k_lock);
	return ret;
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!argsHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(argsHandle, H_ARGS))
		ret = bad_handle("argsHandle", argsHandle);
	else
		((struct acl_args *)argsHandle)->finalized = true;
	pthread_mutex_unlock(&k_lock);
	return ret;
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
				     aclrtStream stream, aclrtLaunchKernelCfg *cfg,
				     aclrtArgsHandle argsHandle, void *reserve)
{
	struct acl_args *a = argsHandle;
	uint8_t buf[ASCEND_LAUNCH_ARGS_MAX];
	uint32_t size = 0;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	(void)cfg;	/* attributes (timeouts, engine, ...) have no effect here */
	(void)reserve;
	if (!argsHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(a, H_ARGS))
		ret = bad_handle("argsHandle", argsHandle);
	else if (a->fn != funcHandle)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "argsHandle %p was initialised for function %p, not %p",
			      argsHandle, (void *)a->fn, funcHandle);
	if (!ret) {
		size = a->size;
		memcpy(buf, a->buf, sizeof(buf));
	}
	pthread_mutex_unlock(&k_lock);
	if (ret)
		return ret;
	return launch(funcHandle, numBlocks, buf, size, stream, true);
}
