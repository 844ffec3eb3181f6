// SPDX-License-Identifier: MIT
/*
 * kernel.c - binaries (the device's built-in kernel table), function
 * handles, argument blocks, and kernel launches onto stream rings.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define BUILTIN_PATH	"ascend://builtin"
#define MAX_PARAMS	ASCEND_LAUNCH_ARGS_MAX

/* @host/@host_size: a place-holder's buffer (aclrtKernelArgsGetPlaceHolderBuffer) */
struct acl_param {
	uint32_t offset, size;
	bool placeholder;
	void *host;
	size_t host_size;
};

struct acl_args {
	struct acl_args *next;		/* binary's list */
	struct acl_func *fn;
	bool finalized;
	uint32_t size;			/* bytes packed so far */
	uint32_t num_params;
	struct acl_param params[MAX_PARAMS];
	uint8_t buf[ASCEND_LAUNCH_ARGS_MAX];
	void *dev_mem;			/* place-holder data on the device */
	size_t dev_size;
};

/* What a launch needs from a function handle: copied out by handle_copy(). */
struct func_hot {
	uint32_t id;			/* device kernel id */
	uint32_t args_size;		/* bytes of arguments it takes */
	int dev_id;
};

struct acl_func {
	/* immutable after creation: read under the registry lock only */
	struct func_hot hot;		/* first: handle_copy() copies it */
	struct drm_ascend_kernel_info k;
	/* under k_lock */
	struct acl_func *next;		/* binary's list */
	struct acl_binary *bin;
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

/*
 * Function handles deleted so far (atomic, bumped before the deletion):
 * a thread's copy of a function's launch data (t_func) stays good while
 * the count is unchanged, so a launch of the same function as last time
 * needs no registry lookup.  The copy never points into the function.
 */
static uint64_t k_func_dels;
static ACL_TLS_HOT struct {
	aclrtFuncHandle h;
	uint64_t dels;
	struct func_hot hot;
} t_func;

static void func_del(struct acl_func *f)		/* k_lock held */
{
	__atomic_add_fetch(&k_func_dels, 1, __ATOMIC_SEQ_CST);
	handle_del(f);
}

/* Place-holder data to put on the device ahead of a launch. */
struct ph_copy {
	const uint8_t *data;	/* a multiple of 8 bytes */
	size_t size;
	uintptr_t dst;
};

static aclError launch_ex(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *args,
			  size_t argsSize, aclrtStream stream, bool pad_to_min,
			  uint32_t timeout_ms, const struct ph_copy *ph, unsigned int nph);

static aclError bad_handle(const char *what, const void *h)
{
	return acl_err_at("kernel", ACL_ERROR_RT_PARAM_INVALID,
			  "%s %p is not a live handle (never created, or unloaded)", what, h);
}

static aclError load_builtin(aclrtBinHandle *binHandle);

/*
 * A file that holds just the bytes "ascend://builtin" (a newline after it
 * allowed) names the built-in library: it is what ascendc_fatbin_library()
 * of the installed ascendc.cmake writes where CANN puts a compiled kernel
 * image (Documentation/install.rst).
 */
static bool names_builtin(const char *path)
{
	char buf[sizeof(BUILTIN_PATH) + 2];
	size_t n = sizeof(BUILTIN_PATH) - 1, got;
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	got = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (got < n || memcmp(buf, BUILTIN_PATH, n) != 0)
		return false;
	return got == n || (got == n + 1 && buf[n] == '\n');
}

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
				 aclrtBinHandle *binHandle)
{
	API_ENTER();
	(void)options;	/* lazy-load/magic options mean nothing for built-ins */
	if (!binPath || !binHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			       binPath ? "binHandle" : "binPath");
	if (strcmp(binPath, BUILTIN_PATH) != 0) {
		if (access(binPath, R_OK) != 0)
			return acl_err(ACL_ERROR_RT_FILE_OPEN, "cannot read kernel binary \"%s\"",
				       binPath);
		if (names_builtin(binPath))
			return load_builtin(binHandle);
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "\"%s\": only the device's built-in kernel library \"" BUILTIN_PATH
			       "\" can be loaded (AscendC binaries cannot run on this NPU)",
			       binPath);
	}
	return load_builtin(binHandle);
}

/*
 * aclrtBinaryLoadFromData: the data must be the bytes "ascend://builtin"
 * (with or without the terminating NUL) - the built-in library; any real
 * kernel image is refused.
 */
aclError aclrtBinaryLoadFromData(const void *data, size_t length,
				 const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle)
{
	size_t n = sizeof(BUILTIN_PATH) - 1;

	API_ENTER();
	(void)options;
	if (!data || !binHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", data ? "binHandle" : "data");
	if (!length)
		return acl_err(ACL_ERROR_INVALID_PARAM, "length is 0");
	if ((length != n && !(length == n + 1 && ((const char *)data)[n] == '\0')) ||
	    memcmp(data, BUILTIN_PATH, n) != 0)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "a %zu-byte kernel image cannot run on this NPU: only the built-in library, named by the data \"" BUILTIN_PATH "\", can be loaded",
			       length);
	return load_builtin(binHandle);
}

static aclError load_builtin(aclrtBinHandle *binHandle)
{
	struct acl_binary *bin;
	struct acl_device *dev;
	aclError ret;

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

/* Device memory of place-holders waiting to be freed outside k_lock. */
static void *k_dev_garbage[64];
static unsigned int k_ngarbage;

static void free_args(struct acl_args *a, bool free_dev)	/* k_lock held */
{
	uint32_t i;

	for (i = 0; i < a->num_params; i++)
		free(a->params[i].host);
	if (a->dev_mem && free_dev && k_ngarbage < 64)
		k_dev_garbage[k_ngarbage++] = a->dev_mem;
	handle_del(a);
	free(a);
}

/* Free collected place-holder memory; k_lock not held (aclrtFree locks). */
static void free_garbage(void)
{
	void *list[64];
	unsigned int n, i;

	pthread_mutex_lock(&k_lock);
	n = k_ngarbage;
	memcpy(list, k_dev_garbage, n * sizeof(void *));
	k_ngarbage = 0;
	pthread_mutex_unlock(&k_lock);
	for (i = 0; i < n; i++)
		aclrtFree(list[i]);
}

static void free_binary(struct acl_binary *bin, bool free_dev)	/* k_lock held */
{
	struct acl_binary **pp;

	while (bin->args) {
		struct acl_args *a = bin->args;

		bin->args = a->next;
		free_args(a, free_dev);
	}
	while (bin->funcs) {
		struct acl_func *f = bin->funcs;

		bin->funcs = f->next;
		func_del(f);
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
	free_binary(binHandle, true);
	pthread_mutex_unlock(&k_lock);
	free_garbage();
	API_ENTER();
	return ACL_SUCCESS;
}

/* Device reset: its binaries (and their functions) go away, and its
 * events (the device memory goes with memory_release_device()). */
void kernel_release_device(int dev_id)
{
	struct acl_binary *b, *next;
	struct acl_device *dev = dev_by_id(dev_id);

	pthread_mutex_lock(&k_lock);
	for (b = k_bins; b; b = next) {
		next = b->next;
		if (b->dev_id == dev_id)
			free_binary(b, false);
	}
	pthread_mutex_unlock(&k_lock);
	if (dev)
		event_release_device(dev);
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
		f->hot.id = k->id;
		f->hot.args_size = k->args_size;
		f->hot.dev_id = bin->dev_id;
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

/*
 * Check @funcHandle and copy out what a launch needs: under the handle
 * registry's lock only (a function is freed after it left the registry).
 */
static aclError func_info(aclrtFuncHandle funcHandle, struct func_hot *hot)
{
	uint64_t dels = __atomic_load_n(&k_func_dels, __ATOMIC_SEQ_CST);

	if (funcHandle && funcHandle == t_func.h && dels == t_func.dels) {
		*hot = t_func.hot;
		return ACL_SUCCESS;
	}
	if (!funcHandle)
		return acl_err_at("kernel", ACL_ERROR_INVALID_PARAM, "funcHandle is NULL");
	if (!handle_copy(funcHandle, H_FUNC, hot, sizeof(*hot)))
		return bad_handle("funcHandle", funcHandle);
	t_func.h = funcHandle;
	t_func.dels = dels;	/* read before the lookup: a racing delete misses */
	t_func.hot = *hot;
	return ACL_SUCCESS;
}

/* The kernel name of @funcHandle, for messages. */
static const char *func_name(aclrtFuncHandle funcHandle, char *buf, size_t size)
{
	struct acl_func f;

	if (!handle_copy(funcHandle, H_FUNC, &f, offsetof(struct acl_func, next)))
		return "(unloaded)";
	snprintf(buf, size, "%.*s", DRM_ASCEND_KERNEL_NAME_LEN, f.k.name);
	return buf;
}

/*
 * Launch configuration: ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT (seconds) and
 * _TIMEOUT_US (microseconds, rounded up to whole milliseconds) become the
 * launch's device time limit; 0 keeps the device default.  The other
 * attributes (scheduling mode, UB size, engine type, block offset,
 * prefetch, dump, profiling) have no meaning on this NPU and are accepted
 * and ignored.
 */
static aclError cfg_timeout(const aclrtLaunchKernelCfg *cfg, uint32_t *timeout_ms)
{
	size_t i;

	*timeout_ms = 0;
	if (!cfg)
		return ACL_SUCCESS;
	if (cfg->numAttrs && !cfg->attrs)
		return acl_err_at("kernel", ACL_ERROR_INVALID_PARAM,
				  "cfg->attrs is NULL but cfg->numAttrs is %zu", cfg->numAttrs);
	for (i = 0; i < cfg->numAttrs; i++) {
		const aclrtLaunchKernelAttr *a = &cfg->attrs[i];
		uint64_t us, ms;

		switch (a->id) {
		case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
			*timeout_ms = (uint32_t)a->value.timeout * 1000u;
			break;
		case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
			us = (uint64_t)a->value.timeoutUs.timeoutHigh << 32 |
			     a->value.timeoutUs.timeoutLow;
			ms = (us + 999) / 1000;
			*timeout_ms = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
			break;
		case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
		case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
		case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
		case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
		case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
		case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
		case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
			break;
		default:
			return acl_err_at("kernel", ACL_ERROR_INVALID_PARAM,
					  "cfg->attrs[%zu].id %d is not a launch attribute", i,
					  (int)a->id);
		}
	}
	return ACL_SUCCESS;
}

static aclError launch(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *args,
		       size_t argsSize, aclrtStream stream, bool pad_to_min)
{
	return launch_ex(funcHandle, numBlocks, args, argsSize, stream, pad_to_min, 0, NULL, 0);
}

static aclError wrong_device(aclrtStream stream, int s_dev, aclrtFuncHandle funcHandle,
			     int k_dev)
{
	char name[DRM_ASCEND_KERNEL_NAME_LEN + 1];

	return acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
		       "stream %p is on device %d but kernel %s was loaded on device %d",
		       stream, s_dev, func_name(funcHandle, name, sizeof(name)), k_dev);
}

/*
 * The launch fast path, for the function and stream this thread used
 * last: no registry lookup (per-thread copies, see func_info() and
 * stream_submit_to()), the stream lock once, and the command built in its
 * ring slot: no global lock, no device lock, no copy of the command.
 */
static aclError launch_ex(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *args,
			  size_t argsSize, aclrtStream stream, bool pad_to_min,
			  uint32_t timeout_ms, const struct ph_copy *ph, unsigned int nph)
{
	/* the command's head: everything before the argument bytes */
	struct {
		uint32_t opcode, flags;
		uint64_t reserved;
		uint32_t kernel_id, num_blocks, args_size, timeout_ms;
	} head = { .opcode = ASCEND_CMD_LAUNCH };
	char name[DRM_ASCEND_KERNEL_NAME_LEN + 1];
	struct func_hot k;
	struct acl_stream *s;
	aclError ret;

	_Static_assert(sizeof(head) == offsetof(struct ascend_cmd, launch.args),
		       "launch head layout");
	ret = func_info(funcHandle, &k);
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
				  argsSize, ASCEND_LAUNCH_ARGS_MAX,
				  func_name(funcHandle, name, sizeof(name)));
	if (pad_to_min && argsSize < k.args_size && k.args_size <= ASCEND_LAUNCH_ARGS_MAX)
		argsSize = k.args_size;	/* packed tail is zero */
	if (argsSize < k.args_size)
		return acl_err(ACL_ERROR_INVALID_PARAM,
				  "argsSize %zu is smaller than the %u bytes kernel %s takes",
				  argsSize, k.args_size, func_name(funcHandle, name, sizeof(name)));
	head.kernel_id = k.id;
	head.num_blocks = numBlocks;
	head.args_size = (uint32_t)argsSize;
	head.timeout_ms = timeout_ms;
	if (!nph) {
		/* the fast path: one stream lock, no registry when cached */
		struct submit_info si = { .s_dev = -1 };

		ret = stream_submit_to(stream, k.dev_id, &head, sizeof(head), args,
				       args ? argsSize : 0, &si);
		if (ret == ACL_ERROR_RT_STREAM_CONTEXT && si.s_dev >= 0)
			ret = wrong_device(stream, si.s_dev, funcHandle, k.dev_id);
		return ret;
	}
	ret = stream_ref(stream, &s);
	if (ret)
		return ret;
	if (s->dev->id != k.dev_id) {
		ret = wrong_device(stream, s->dev->id, funcHandle, k.dev_id);
	} else {
		/* Place-holder data first, 8 bytes per WRITE_VALUE, in stream
		 * order ahead of the launch that reads it. */
		for (unsigned int i = 0; i < nph && !ret; i++) {
			for (size_t off = 0; off < ph[i].size && !ret; off += 8) {
				struct ascend_cmd w = { .opcode = ASCEND_CMD_WRITE_VALUE };

				w.value.addr = ph[i].dst + off;
				memcpy(&w.value.value, ph[i].data + off, 8);
				ret = stream_submit(s, &w);
			}
		}
		if (!ret)
			ret = stream_submit2(s, &head, sizeof(head), args, args ? argsSize : 0);
	}
	stream_put(s);
	return ret;
}

/*
 * aclrtLaunchKernel's fast path, inline: the function (t_func) and the
 * stream (acl_t_last) this thread used last, every check of launch_ex()
 * and stream_submit_to() on the same facts, and the command written in its
 * ring slot with plain stores (no call but the stream lock's, no
 * division).  False, with nothing
 * done: something is not as the fast path needs it (a check would fail,
 * the stream records into a model, the ring is full...); the caller takes
 * the full path, which finds out what and says so.
 */
static inline __attribute__((always_inline)) bool
launch_cached(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *args,
	      size_t argsSize, aclrtStream stream)
{
	struct acl_stream *s = acl_t_last.s;
	struct ascend_cmd *c;
	struct acl_queue *q;
	uint64_t w, *d;
	size_t i;

	if (!funcHandle || funcHandle != t_func.h ||
	    t_func.dels != __atomic_load_n(&k_func_dels, __ATOMIC_SEQ_CST) || !numBlocks ||
	    (argsSize && !args) || argsSize > ASCEND_LAUNCH_ARGS_MAX ||
	    argsSize < t_func.hot.args_size || !s || stream != acl_t_last.h)
		return false;
	c = stream_fast_slot(s, t_func.hot.dev_id, &w);
	if (!c)
		return false;
	q = &s->q;
	/* the command: its head, the argument block zeroed, then the
	 * arguments over it (the device reads nothing before wptr moves) */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* four 64-bit stores (field by field, GCC pairs the 32-bit ones in
	 * SSE registers: helper calls under TCG) */
	d = (uint64_t *)c;
	d[0] = ASCEND_CMD_LAUNCH;		/* opcode, flags 0 */
	d[1] = 0;				/* reserved */
	d[2] = t_func.hot.id | (uint64_t)numBlocks << 32;
	d[3] = (uint32_t)argsSize;		/* args_size, timeout_ms 0 */
#else
	c->opcode = ASCEND_CMD_LAUNCH;
	c->flags = 0;
	c->reserved = 0;
	c->launch.kernel_id = t_func.hot.id;
	c->launch.num_blocks = numBlocks;
	c->launch.args_size = (uint32_t)argsSize;
	c->launch.timeout_ms = 0;
#endif
	d = (uint64_t *)c->launch.args;
	_Static_assert(sizeof(c->launch.args) == 12 * 8 &&
		       offsetof(struct ascend_cmd, launch.args) + 12 * 8 == sizeof(*c),
		       "the argument block ends the command");
	d[0] = 0; d[1] = 0; d[2] = 0; d[3] = 0; d[4] = 0; d[5] = 0;
	d[6] = 0; d[7] = 0; d[8] = 0; d[9] = 0; d[10] = 0; d[11] = 0;
	if (args) {
		for (i = 0; i + 8 <= argsSize; i += 8) {
			uint64_t v;

			__builtin_memcpy(&v, (const uint8_t *)args + i, 8);
			*d++ = v;
		}
		for (; i < argsSize; i++)
			c->launch.args[i] = ((const uint8_t *)args)[i];
	}
	q->wptr = w + 1;
	queue_publish(s->dev->fd, q, w + 1);
	exc_note_submit(s, w + 1);
	pthread_mutex_unlock(&s->lock);
	return true;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
			   const void *argsData, size_t argsSize, aclrtStream stream)
{
	API_ENTER();
	if (launch_cached(funcHandle, numBlocks, argsData, argsSize, stream))
		return ACL_SUCCESS;
	return launch(funcHandle, numBlocks, argsData, argsSize, stream, false);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks,
			     const void *argsData, size_t argsSize, aclrtLaunchKernelCfg *cfg,
			     aclrtStream stream)
{
	uint32_t timeout_ms;
	aclError ret;

	API_ENTER();
	ret = cfg_timeout(cfg, &timeout_ms);
	if (ret)
		return ret;
	return launch_ex(funcHandle, numBlocks, argsData, argsSize, stream, false, timeout_ms,
			 NULL, 0);
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
	if (param)
		memcpy(a->buf + off, param, size);
	else
		memset(a->buf + off, 0, size);
	memset(&a->params[a->num_params], 0, sizeof(a->params[0]));
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

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle)
{
	struct acl_args *a = argsHandle;
	aclError ret;

	API_ENTER();
	if (!argsHandle || !paramHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			       argsHandle ? "paramHandle" : "argsHandle");
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(a, H_ARGS)) {
		ret = bad_handle("argsHandle", argsHandle);
	} else {
		/* A pointer slot; its value is set at each launch. */
		ret = append(a, NULL, sizeof(uint64_t), paramHandle);
		if (!ret)
			a->params[a->num_params - 1].placeholder = true;
	}
	pthread_mutex_unlock(&k_lock);
	return ret;
}

/* @ph as a place-holder parameter of @a, or NULL.  k_lock held. */
static struct acl_param *find_ph(struct acl_args *a, aclrtParamHandle ph)
{
	uint32_t i;

	for (i = 0; i < a->num_params; i++)
		if ((void *)&a->params[i] == ph)
			return a->params[i].placeholder ? &a->params[i] : NULL;
	return NULL;
}

/*
 * The host buffer behind a place-holder: the caller fills it; every
 * launch copies its content (dataSize rounded up to 8 bytes) to device
 * memory owned by the args handle, ahead of the kernel in stream order,
 * and passes that device address in the slot.  The buffer stays valid
 * until the binary is unloaded.
 */
aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
					     size_t dataSize, void **bufferAddr)
{
	struct acl_args *a = argsHandle;
	struct acl_param *p = NULL;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!argsHandle || !paramHandle || !bufferAddr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			       !argsHandle ? "argsHandle" : !paramHandle ? "paramHandle" :
			       "bufferAddr");
	if (!dataSize)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dataSize is 0");
	if (dataSize > (1u << 20))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "dataSize %zu is larger than the 1 MiB a place-holder may hold",
			       dataSize);
	pthread_mutex_lock(&k_lock);
	if (!handle_ok(a, H_ARGS)) {
		ret = bad_handle("argsHandle", argsHandle);
	} else if (!(p = find_ph(a, paramHandle))) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "paramHandle %p is not a place-holder of argsHandle %p (aclrtKernelArgsAppendPlaceHolder)",
			      paramHandle, argsHandle);
	} else if (!p->host || p->host_size < dataSize) {
		void *n = calloc(1, (dataSize + 7) & ~(size_t)7);

		if (!n) {
			ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		} else {
			free(p->host);
			p->host = n;
			p->host_size = dataSize;
		}
	}
	if (!ret)
		*bufferAddr = p->host;
	pthread_mutex_unlock(&k_lock);
	return ret;
}

/* Bytes of place-holder data @a carries to the device.  k_lock held. */
static size_t ph_total(const struct acl_args *a)
{
	size_t total = 0;
	uint32_t i;

	for (i = 0; i < a->num_params; i++)
		if (a->params[i].placeholder && a->params[i].host)
			total += (a->params[i].host_size + 7) & ~(size_t)7;
	return total;
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
				     aclrtStream stream, aclrtLaunchKernelCfg *cfg,
				     aclrtArgsHandle argsHandle, void *reserve)
{
	struct acl_args *a = argsHandle;
	uint8_t buf[ASCEND_LAUNCH_ARGS_MAX];
	struct ph_copy ph = { 0 };
	uint8_t *staging = NULL;
	uint32_t size = 0, timeout_ms;
	void *fresh = NULL;
	size_t total = 0;
	aclError ret;

	API_ENTER();
	(void)reserve;
	if (!argsHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
	ret = cfg_timeout(cfg, &timeout_ms);
	if (ret)
		return ret;
	for (int attempt = 0;; attempt++) {
		pthread_mutex_lock(&k_lock);
		if (!handle_ok(a, H_ARGS))
			ret = bad_handle("argsHandle", argsHandle);
		else if (a->fn != funcHandle)
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
				      "argsHandle %p was initialised for function %p, not %p",
				      argsHandle, (void *)a->fn, funcHandle);
		if (ret)
			break;
		total = ph_total(a);
		if (total <= a->dev_size)
			break;
		if (attempt == 2) {
			ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
				      "the place-holders of argsHandle %p keep growing during the launch",
				      argsHandle);
			break;
		}
		pthread_mutex_unlock(&k_lock);
		/* Device memory for the place-holder data, outside k_lock. */
		ret = aclrtMalloc(&fresh, total, ACL_MEM_MALLOC_NORMAL_ONLY);
		API_ENTER();
		if (ret)
			return ret;
		pthread_mutex_lock(&k_lock);
		if (handle_ok(a, H_ARGS)) {
			if (a->dev_mem && k_ngarbage < 64)
				k_dev_garbage[k_ngarbage++] = a->dev_mem;
			a->dev_mem = fresh;
			a->dev_size = total;
		} else if (k_ngarbage < 64) {
			k_dev_garbage[k_ngarbage++] = fresh;
		}
		fresh = NULL;
		pthread_mutex_unlock(&k_lock);
	}
	/* here: k_lock held */
	if (!ret && total) {
		staging = calloc(1, total);
		if (!staging) {
			ret = acl_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		} else {
			size_t off = 0;
			uint32_t i;

			for (i = 0; i < a->num_params; i++) {
				struct acl_param *p = &a->params[i];
				uint64_t va;

				if (!p->placeholder || !p->host)
					continue;
				memcpy(staging + off, p->host, p->host_size);
				va = (uintptr_t)a->dev_mem + off;
				memcpy(a->buf + p->offset, &va, sizeof(va));
				off += (p->host_size + 7) & ~(size_t)7;
			}
			ph.data = staging;
			ph.size = total;
			ph.dst = (uintptr_t)a->dev_mem;
		}
	}
	if (!ret) {
		size = a->size;
		memcpy(buf, a->buf, sizeof(buf));
	}
	pthread_mutex_unlock(&k_lock);
	free_garbage();
	API_ENTER();
	if (!ret)
		ret = launch_ex(funcHandle, numBlocks, buf, size, stream, true, timeout_ms,
				&ph, ph.size ? 1 : 0);
	free(staging);
	return ret;
}

/*
 * Built-in kernels libaclrt itself launches (random numbers, overflow
 * status): the kernel's id on @stream's device and the device's AI cores.
 */
aclError builtin_find(aclrtStream stream, const char *name, uint32_t *id, uint32_t *cores)
{
	const struct drm_ascend_kernel_info *k;
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	ret = stream_acquire(stream, &s, &dev);
	if (ret)
		return ret;
	k = lookup(dev, name);
	if (!k) {
		ret = no_kernel(dev, name);
	} else {
		*id = k->id;
		*cores = dev->info.num_ai_cores ? dev->info.num_ai_cores : 1;
	}
	stream_release(s, dev);
	return ret;
}

/* The head of a launch of built-in kernel @id; its arguments follow it. */
struct builtin_head {
	uint32_t opcode, flags;
	uint64_t reserved;
	uint32_t kernel_id, num_blocks, args_size, timeout_ms;
};

aclError builtin_submit(aclrtStream stream, uint32_t id, uint32_t num_blocks, const void *args,
			uint32_t args_size)
{
	struct builtin_head head = { .opcode = ASCEND_CMD_LAUNCH, .kernel_id = id,
				     .num_blocks = num_blocks, .args_size = args_size };
	struct acl_stream *s;
	aclError ret;

	ret = stream_ref(stream, &s);
	if (ret)
		return ret;
	ret = stream_submit2(s, &head, sizeof(head), args, args_size);
	stream_put(s);
	return ret;
}

aclError builtin_submit_locked(struct acl_stream *s, uint32_t id, const void *args,
			       uint32_t args_size)
{
	struct builtin_head head = { .opcode = ASCEND_CMD_LAUNCH, .kernel_id = id,
				     .num_blocks = 1, .args_size = args_size };

	return queue_submit2(s->dev->fd, &s->q, &head, sizeof(head), args, args_size);
}
