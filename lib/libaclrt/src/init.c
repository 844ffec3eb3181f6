// SPDX-License-Identifier: MIT
/*
 * init.c - aclInit/aclFinalize, the version, and the exit-time printf
 * drain.
 *
 * CANN semantics: repeated aclInit counts up and returns
 * ACL_ERROR_REPEAT_INITIALIZE; one aclFinalize tears everything down and
 * a second returns ACL_ERROR_REPEAT_FINALIZE; aclFinalizeReference counts
 * down and tears down at 1 -> 0.  The aclrt calls work without aclInit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

#define ACL_VERSION_MAJOR	1
#define ACL_VERSION_MINOR	17
#define ACL_VERSION_PATCH	0

/* Protects the three below. */
static pthread_mutex_t i_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t i_refcount;
static bool i_finalized;
static bool i_atexit;

static void at_exit(void)
{
	dev_drain_all_printf();
}

void acl_register_atexit(void)
{
	pthread_mutex_lock(&i_lock);
	if (!i_atexit)
		i_atexit = atexit(at_exit) == 0;
	pthread_mutex_unlock(&i_lock);
}

aclError aclInit(const char *configPath)
{
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	/* The JSON config (dump/profiling options) has nothing to set up here,
	 * but a path that cannot be read is the caller's mistake. */
	if (configPath && configPath[0] && access(configPath, R_OK) != 0)
		return acl_err(ACL_ERROR_INVALID_FILE, "cannot read config file \"%s\"",
			       configPath);
	pthread_mutex_lock(&i_lock);
	if (i_refcount > 0)
		ret = acl_err(ACL_ERROR_REPEAT_INITIALIZE,
			      "aclInit was already called (%llu time(s)); not initialised again",
			      (unsigned long long)i_refcount);
	i_refcount++;
	i_finalized = false;
	pthread_mutex_unlock(&i_lock);
	acl_register_atexit();
	return ret;
}

/* Release every device the process set, with their streams and memory. */
static void teardown(void)
{
	dev_release_all();
}

aclError aclFinalize(void)
{
	API_ENTER();
	pthread_mutex_lock(&i_lock);
	if (i_finalized) {
		pthread_mutex_unlock(&i_lock);
		return acl_err(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize was already called");
	}
	i_finalized = true;
	i_refcount = 0;
	pthread_mutex_unlock(&i_lock);
	teardown();
	return ACL_SUCCESS;
}

aclError aclFinalizeReference(uint64_t *refCount)
{
	bool last;

	API_ENTER();
	if (!refCount)
		return acl_err(ACL_ERROR_INVALID_PARAM, "refCount is NULL");
	pthread_mutex_lock(&i_lock);
	if (i_refcount < 1) {
		pthread_mutex_unlock(&i_lock);
		return acl_err(ACL_ERROR_REPEAT_FINALIZE,
			       "aclInit reference count is already 0");
	}
	last = --i_refcount == 0;
	if (last)
		i_finalized = true;
	*refCount = i_refcount;
	pthread_mutex_unlock(&i_lock);
	if (last)
		teardown();
	return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
	API_ENTER();
	if (!majorVersion || !minorVersion || !patchVersion)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			       !majorVersion ? "majorVersion" :
			       !minorVersion ? "minorVersion" : "patchVersion");
	*majorVersion = ACL_VERSION_MAJOR;
	*minorVersion = ACL_VERSION_MINOR;
	*patchVersion = ACL_VERSION_PATCH;
	return ACL_SUCCESS;
}
