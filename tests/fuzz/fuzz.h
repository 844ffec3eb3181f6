/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz - the ioctl and ring fuzzer of the ascend driver.
 *
 * fuzz.c holds the engine; tests/user/test_fuzz_ioctl.c includes it and is
 * both the short TAP test of `make check` (no arguments) and the long form
 * of `make fuzz` (fuzz options on the command line, see fuzz_usage()).
 */
#ifndef ASCEND_TESTS_FUZZ_H
#define ASCEND_TESTS_FUZZ_H

#include <stdint.h>

/* Families of operations (fuzz_opts.families). */
#define FUZZ_F_QUERY	(1u << 0)	/* DEV_QUERY, DRM VERSION/GET_CAP, unknown ioctls */
#define FUZZ_F_MEM	(1u << 1)	/* VA_WINDOW, BO_CREATE, GEM_CLOSE, COPY*, FILL */
#define FUZZ_F_HOST	(1u << 2)	/* HOST_ALLOC (+mmap/munmap), HOST_REGISTER */
#define FUZZ_F_QUEUE	(1u << 3)	/* QUEUE_* ioctls and ring contents */
#define FUZZ_F_EVENT	(1u << 4)	/* EVENT_* */
#define FUZZ_F_PRIME	(1u << 5)	/* PRIME handle<->fd, GEM flink/open */
#define FUZZ_F_IPC	(1u << 6)	/* IPC_EXPORT/SET_PID/IMPORT/CLOSE (memory,
					 * events, notify words) */
#define FUZZ_F_VMM	(1u << 7)	/* PHYS_ALLOC, VA_RESERVE/RELEASE/MAP/
					 * UNMAP/PROTECT, IPC and PRIME of
					 * physical allocations */
#define FUZZ_F_CMDLIST	(1u << 8)	/* ring CALLs of hostile command lists in
					 * our memory: SWITCH, JUMP, nesting
					 * (a form of FUZZ_F_QUEUE's ring
					 * commands: no operation of its own) */
#define FUZZ_F_MANAGED	(1u << 9)	/* MANAGED_CREATE (+mmap, host touches),
					 * MANAGED_MIGRATE, MANAGED_QUERY: the
					 * device's page requests */
#define FUZZ_F_ALL	0x3ffu

struct fuzz_opts {
	uint64_t seed;		/* 0: from the clock */
	long iterations;	/* per thread; 0 = bounded by seconds only */
	int seconds;		/* 0 = bounded by iterations only */
	int procs;		/* processes (fork) */
	int threads;		/* threads per process */
	unsigned int families;	/* FUZZ_F_* */
	int fd_churn;		/* 1: processes reopen the device now and then */
	int stall;		/* 1: start with a queue stalled for good (fz_stall_queue) */
	const char *node;	/* device node, default /dev/accel/accel0 */
};

struct fuzz_totals {
	uint64_t calls;		/* ioctls (and mmaps) made */
	uint64_t ok;		/* of those, succeeded */
	uint64_t ring_cmds;	/* ring commands published */
	uint64_t faults;	/* queue faults seen */
	uint64_t resets;	/* successful QUEUE_RESETs */
	uint64_t bad_children;	/* processes that did not exit 0 */
	uint64_t interrupts;	/* blocked ioctls the watchdog interrupted */
	uint64_t self_writes;	/* synchronous writes the fuzzer asked for that
				 * start in a buffer of its own and run past it:
				 * a fuzzer bug (the device would scribble over
				 * the fuzzer); must stay 0 */
};

#endif /* ASCEND_TESTS_FUZZ_H */
