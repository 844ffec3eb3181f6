/* SPDX-License-Identifier: MIT */
/*
 * smi_proc.h - the processes that have an NPU open and what they hold on
 * it, from the DRM usage statistics in /proc/<pid>/fdinfo/<fd>
 * (drivers/accel/ascend/ascend_fdinfo.c).  procfs shows a process's fdinfo
 * to its own user and to root only, so a user sees its own processes and
 * root sees all, without debugfs.
 */
#ifndef ASCEND_SMI_PROC_H
#define ASCEND_SMI_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "smi_dev.h"

struct smi_proc {
	pid_t pid;
	unsigned int npu;		/* smi_dev.index of the device */
	char comm[32];			/* /proc/<pid>/comm */
	uint64_t hbm;			/* drm-total-hbm over its files, bytes */
	uint64_t host;			/* drm-total-memory: host memory pinned */
	bool stats;			/* the driver printed the statistics */
};

/*
 * Every (process, device) pair with at least one open file of one of the
 * @n devices, each file counted once (drm-client-id) however many
 * descriptors of the process refer to it, ordered by device then pid.
 * Processes this user may not inspect are left out.  Returns the number
 * of entries in *@out (malloc'd, free() it), or -1 when /proc cannot be
 * read.
 */
int smi_procs(const struct smi_dev *devs, int n, struct smi_proc **out);

/*
 * A size value of DRM usage statistics ("123", "4 KiB", "2 MiB") in
 * bytes; false if @s is not one.
 */
bool smi_parse_size(const char *s, uint64_t *bytes);

#endif /* ASCEND_SMI_PROC_H */
