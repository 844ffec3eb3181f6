// SPDX-License-Identifier: MIT
/*
 * libacl_rt.so loaded with dlopen() (as a Python extension or a framework
 * plug-in loads it), not linked: its initial-exec thread-local variables
 * must fit the static TLS block, also for threads that existed before the
 * load, and error messages must work in every thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "acl/acl.h"
#include "tap.h"

struct api {
	aclError (*init)(const char *);
	aclError (*set_device)(int32_t);
	aclError (*reset_device)(int32_t);
	aclError (*finalize)(void);
	aclError (*malloc_)(void **, size_t, aclrtMemMallocPolicy);
	aclError (*free_)(void *);
	const char *(*errmsg)(void);
};

static void *load(struct api *a)
{
	void *h = dlopen("libacl_rt.so", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		printf("# dlopen: %s\n", dlerror());
		return NULL;
	}
	a->init = (aclError (*)(const char *))dlsym(h, "aclInit");
	a->set_device = (aclError (*)(int32_t))dlsym(h, "aclrtSetDevice");
	a->reset_device = (aclError (*)(int32_t))dlsym(h, "aclrtResetDevice");
	a->finalize = (aclError (*)(void))dlsym(h, "aclFinalize");
	a->malloc_ = (aclError (*)(void **, size_t, aclrtMemMallocPolicy))
		dlsym(h, "aclrtMalloc");
	a->free_ = (aclError (*)(void *))dlsym(h, "aclrtFree");
	a->errmsg = (const char *(*)(void))dlsym(h, "aclGetRecentErrMsg");
	return h;
}

/* a failing call leaves its message in this thread; a good one works */
static int exercise(const struct api *a)
{
	const char *m;
	void *p = NULL;
	int bad = 0;

	if (a->set_device(0) != ACL_SUCCESS)
		bad++;
	if (a->malloc_(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_INVALID_PARAM)
		bad++;
	m = a->errmsg();
	if (!m || !strstr(m, "aclrtMalloc"))
		bad++;
	if (a->malloc_(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || !p)
		bad++;
	else if (a->free_(p) != ACL_SUCCESS)
		bad++;
	return bad;
}

static struct api g_api;
static volatile int g_loaded;

static void *early_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&g_loaded, __ATOMIC_ACQUIRE))
		usleep(1000);
	return (void *)(intptr_t)exercise(&g_api);
}

TEST(dlopen_then_use_in_an_older_and_a_newer_thread)
{
	pthread_t older, newer;
	void *h, *r = NULL;

	/* a thread that exists before the library is loaded */
	REQUIRE(pthread_create(&older, NULL, early_thread, NULL) == 0);
	h = load(&g_api);
	REQUIRE(h != NULL);
	REQUIRE(g_api.init && g_api.set_device && g_api.malloc_ && g_api.errmsg);
	CHECK_EQ(g_api.init(NULL), ACL_SUCCESS);
	__atomic_store_n(&g_loaded, 1, __ATOMIC_RELEASE);
	REQUIRE(pthread_join(older, &r) == 0);
	CHECK_EQ((intptr_t)r, 0);
	REQUIRE(pthread_create(&newer, NULL, early_thread, NULL) == 0);
	REQUIRE(pthread_join(newer, &r) == 0);
	CHECK_EQ((intptr_t)r, 0);
	CHECK_EQ(exercise(&g_api), 0);
	CHECK_EQ(g_api.reset_device(0), ACL_SUCCESS);
	CHECK_EQ(g_api.finalize(), ACL_SUCCESS);
}

int main(void)
{
	return tap_main();
}
