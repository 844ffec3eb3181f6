/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/reliab.h - helpers shared by the reliability tests (fuzzer,
 * fault-injection sweep, stress, isolation): debugfs leak checks and
 * module parameters.  Include after tap.h; needs _GNU_SOURCE.
 */
#ifndef ASCEND_TESTS_RELIAB_H
#define ASCEND_TESTS_RELIAB_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RELIAB_DEBUGFS "/sys/kernel/debug/accel/ascend.0"
/* the emulated device's own knobs (its DMA engines' fault injection) */
#define RELIAB_EMU_DEBUGFS "/sys/kernel/debug/ascend-emu/ascend.0"
#define RELIAB_PARAMS "/sys/module/ascend/parameters"

/* HBM bytes in use on device 0 (debugfs hbm "used:"), -1 if unreadable. */
static inline long long reliab_hbm_used(void)
{
	FILE *f = fopen(RELIAB_DEBUGFS "/hbm", "r");
	char line[256];
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "used: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * Open files of device 0 other than those of process @except (0: none),
 * from debugfs clients; -1 if unreadable.  Prints the lines it counts.
 */
static inline int reliab_clients(pid_t except)
{
	FILE *f = fopen(RELIAB_DEBUGFS "/clients", "r");
	char line[256];
	int n = 0, first = 1, pid;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (first) {	/* header */
			first = 0;
			continue;
		}
		if (sscanf(line, "%d", &pid) == 1 && except && pid == except)
			continue;
		printf("#   client: %s", line);
		n++;
	}
	fclose(f);
	return n;
}

/*
 * Wait (up to @seconds) until device 0 has no HBM in use and no client
 * but @except; deferred retires and file releases may take a moment.
 * Returns 1 when clean.
 */
static inline int reliab_wait_clean(pid_t except, int seconds)
{
	int i;

	for (i = 0; i < seconds * 10; i++) {
		FILE *f = fopen(RELIAB_DEBUGFS "/clients", "r");
		char line[256];
		int n = 0, first = 1, pid;

		if (f) {
			while (fgets(line, sizeof(line), f)) {
				if (first) {
					first = 0;
					continue;
				}
				if (sscanf(line, "%d", &pid) == 1 && pid != except)
					n++;
			}
			fclose(f);
		}
		if (f && n == 0 && reliab_hbm_used() == 0)
			return 1;
		usleep(100000);
	}
	printf("#   not clean after %d s: hbm used %lld\n", seconds,
	       reliab_hbm_used());
	reliab_clients(except);
	return 0;
}

/* Read / write a module parameter; read returns -1 when absent. */
static inline long reliab_param_get(const char *name)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), RELIAB_PARAMS "/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static inline int reliab_param_set(const char *name, long v)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), RELIAB_PARAMS "/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/*
 * Write @v to a debugfs file of device 0 (e.g. "fail_pin"); a @name that
 * starts with '/' is a whole path.
 */
static inline int reliab_debugfs_set(const char *name, long v)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s%s", name[0] == '/' ? "" :
		 RELIAB_DEBUGFS "/", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static inline long reliab_debugfs_get(const char *name)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", name[0] == '/' ? "" :
		 RELIAB_DEBUGFS "/", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

#endif /* ASCEND_TESTS_RELIAB_H */
