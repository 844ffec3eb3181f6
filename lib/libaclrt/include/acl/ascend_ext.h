/* SPDX-License-Identifier: MIT */
/*
 * ascend_ext.h - what this runtime offers beyond CANN's API.  Nothing here
 * changes a CANN name, value or layout; CANN programs never need it.
 */
#ifndef ASCEND_EXT_H_
#define ASCEND_EXT_H_

#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Physical memory shared as a file descriptor (a dma-buf of the
 * allocation), the form that needs no allow-list: an fd only reaches
 * another process on purpose (SCM_RIGHTS, inheritance).
 *
 * ascendMemExportToFd: a new close-on-exec fd for the physical allocation
 * @handle (aclrtMallocPhysical or an import).  The memory lives while the
 * fd, or anything else, holds it.  The caller closes the fd.
 *
 * ascendMemImportFromFd: a physical memory handle on device @deviceId for
 * the allocation @fd names (from ascendMemExportToFd, in any process); the
 * device must be the allocation's own.  Release it with aclrtFreePhysical;
 * @fd stays the caller's.  Importing an allocation this process holds
 * already gives the same handle once more (counted).
 */
ACL_FUNC_VISIBILITY aclError ascendMemExportToFd(aclrtDrvMemHandle handle, int *fd);
ACL_FUNC_VISIBILITY aclError ascendMemImportFromFd(int fd, int32_t deviceId,
						   aclrtDrvMemHandle *handle);

#ifdef __cplusplus
}
#endif

#endif /* ASCEND_EXT_H_ */
