// SPDX-License-Identifier: MIT
/*
 * A tiny application built against the INSTALLED tree (make install), once
 * with pkg-config (acl_rt) and once with CMake (find_package(AscendRT)),
 * by tests/install/check.sh.  In the VM it copies 1 MiB host -> device ->
 * device -> host and prints which libacl_rt it runs with.
 * Exit status 0 when the bytes came back.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define SIZE (1024 * 1024)

#define CHECK_ACL(call)                                                        \
	do {                                                                   \
		aclError err_ = (call);                                        \
		if (err_ != ACL_SUCCESS) {                                     \
			printf("FAIL %s: %d (%s)\n", #call, err_,              \
			       aclGetRecentErrMsg());                          \
			return 1;                                              \
		}                                                              \
	} while (0)

int main(void)
{
	unsigned char *host, *back;
	void *dev_a, *dev_b;
	const char *soc;
	Dl_info info;
	size_t i;

	if (dladdr((void *)aclInit, &info) && info.dli_fname)
		printf("libacl_rt: %s\n", info.dli_fname);
	host = malloc(SIZE);
	back = calloc(1, SIZE);
	if (!host || !back)
		return 1;
	for (i = 0; i < SIZE; i++)
		host[i] = (unsigned char)(i * 7 + 3);

	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtSetDevice(0));
	CHECK_ACL(aclrtMalloc(&dev_a, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL(aclrtMalloc(&dev_b, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK_ACL(aclrtMemcpy(dev_a, SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL(aclrtMemcpy(dev_b, SIZE, dev_a, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK_ACL(aclrtMemcpy(back, SIZE, dev_b, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
	soc = aclrtGetSocName();
	printf("soc: %s\n", soc ? soc : "(null)");
	if (memcmp(host, back, SIZE) != 0) {
		printf("FAIL: bytes differ after H2D, D2D, D2H\n");
		return 1;
	}
	CHECK_ACL(aclrtFree(dev_a));
	CHECK_ACL(aclrtFree(dev_b));
	CHECK_ACL(aclrtResetDevice(0));
	CHECK_ACL(aclFinalize());
	free(host);
	free(back);
	printf("OK: 1 MiB host -> device -> device -> host\n");
	return 0;
}
