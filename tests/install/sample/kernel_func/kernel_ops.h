// SPDX-License-Identifier: MIT
/*
 * What ascendc_library(kernels ...) of tests/install/sample provides: host
 * functions that launch device kernels, in the shape of the launchers of
 * CANN's samples (block count, stream, kernel arguments).
 */
#ifndef INSTALL_SAMPLE_KERNEL_OPS_H
#define INSTALL_SAMPLE_KERNEL_OPS_H

#include <cstdint>

#include "acl/acl.h"

/* Block i writes value to devPtr[i] (built-in kernel DeviceWrite). */
aclError WriteDo(uint32_t blockDim, void *stream, int *devPtr, int value);
/* Launch DeviceWrite from the kernel image at @path instead. */
aclError WriteDoFrom(const char *path, uint32_t blockDim, void *stream, int *devPtr, int value);

#endif
