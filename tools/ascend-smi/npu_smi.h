/* SPDX-License-Identifier: MIT */
/*
 * npu_smi.h - ascend-smi run under the name npu-smi answers the npu-smi
 * commands scripts and monitoring agents use, in npu-smi's layout
 * (Documentation/npu-smi.rst).
 */
#ifndef ASCEND_NPU_SMI_H
#define ASCEND_NPU_SMI_H

#include <stdbool.h>

/* @argv0 names npu-smi (any directory; "npu-smi" or "npu-smi.<suffix>"). */
bool npu_smi_invoked(const char *argv0);

/* The npu-smi command line; returns the exit status. */
int npu_smi_main(int argc, char **argv);

#endif /* ASCEND_NPU_SMI_H */
