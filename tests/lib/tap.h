/* SPDX-License-Identifier: MIT */
/*
 * tap.h - a tiny TAP producer for the user-space tests.
 *
 * Each test binary is a list of TEST() functions.  tap_main() runs them in
 * order, each in a forked child so that a crash or a hang of one case is
 * reported as that case's failure and does not take the others with it, and
 * prints one TAP line per case:
 *
 *	ok 3 - memcpy_count_gt_destmax
 *	not ok 4 - memcpy_null_dst
 *	ok 5 - two_devices # SKIP needs num_devices=2
 *
 * The in-VM runner counts these lines.  A binary that exits before printing
 * its plan's worth of lines counts the missing cases as failed.
 *
 * Inside a test: CHECK(cond), CHECK_EQ(a, b), CHECK_NE(a, b) record a
 * failure and go on; REQUIRE(cond) fails and ends the case; SKIP(reason)
 * ends the case as skipped.  TAP_TIMEOUT (seconds, default 60) bounds a case;
 * the environment variable of the same name overrides it at run time (the
 * debug-kernel lane runs everything several times slower).
 */
#ifndef ASCEND_TESTS_TAP_H
#define ASCEND_TESTS_TAP_H

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TAP_TIMEOUT
#define TAP_TIMEOUT 60
#endif

struct tap_case {
	const char *name;
	void (*fn)(void);
	struct tap_case *next;
};

static struct tap_case *tap_cases, **tap_tail = &tap_cases;
static int tap_failed_checks;

#define TAP_EXIT_SKIP 77

#define TEST(name)							\
	static void test_##name(void);					\
	static struct tap_case tap_case_##name = { #name, test_##name, NULL }; \
	__attribute__((constructor)) static void tap_register_##name(void) \
	{								\
		*tap_tail = &tap_case_##name;				\
		tap_tail = &tap_case_##name.next;			\
	}								\
	static void test_##name(void)

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("#   %s:%d: check failed: %s\n",		\
			       __FILE__, __LINE__, #cond);		\
			tap_failed_checks++;				\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long tap_a_ = (long long)(a);			\
		long long tap_b_ = (long long)(b);			\
		if (tap_a_ != tap_b_) {					\
			printf("#   %s:%d: %s == %s failed: %lld != %lld\n", \
			       __FILE__, __LINE__, #a, #b, tap_a_, tap_b_); \
			tap_failed_checks++;				\
		}							\
	} while (0)

#define CHECK_NE(a, b)							\
	do {								\
		long long tap_a_ = (long long)(a);			\
		long long tap_b_ = (long long)(b);			\
		if (tap_a_ == tap_b_) {					\
			printf("#   %s:%d: %s != %s failed: both %lld\n", \
			       __FILE__, __LINE__, #a, #b, tap_a_);	\
			tap_failed_checks++;				\
		}							\
	} while (0)

#define REQUIRE(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("#   %s:%d: requirement failed: %s\n",	\
			       __FILE__, __LINE__, #cond);		\
			fflush(stdout);					\
			_exit(1);					\
		}							\
	} while (0)

#define SKIP(reason)							\
	do {								\
		printf("#   skip: %s\n", (reason));			\
		fflush(stdout);						\
		_exit(TAP_EXIT_SKIP);					\
	} while (0)

static inline int tap_run_one(struct tap_case *c, int n)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("not ok %d - %s # fork: %s\n", n, c->name, strerror(errno));
		return 1;
	}
	if (pid == 0) {
		const char *t = getenv("TAP_TIMEOUT");

		alarm(t && atoi(t) > 0 ? (unsigned int)atoi(t) : TAP_TIMEOUT);
		c->fn();
		fflush(stdout);
		_exit(tap_failed_checks ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok %d - %s\n", n, c->name);
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == TAP_EXIT_SKIP) {
		printf("ok %d - %s # SKIP\n", n, c->name);
		return 0;
	}
	if (WIFSIGNALED(status))
		printf("not ok %d - %s # killed by signal %d%s\n", n, c->name,
		       WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
	else
		printf("not ok %d - %s\n", n, c->name);
	return 1;
}

/* One case in this process (tap_main_in_order()): its checks decide. */
static inline int tap_run_here(struct tap_case *c, int n)
{
	tap_failed_checks = 0;
	c->fn();
	printf("%sok %d - %s\n", tap_failed_checks ? "not " : "", n, c->name);
	fflush(stdout);
	return tap_failed_checks != 0;
}

static inline int tap_run_all(int (*run)(struct tap_case *c, int n))
{
	struct tap_case *c;
	int n = 0, failed = 0;

	for (c = tap_cases; c; c = c->next)
		n++;
	printf("1..%d\n", n);
	n = 0;
	for (c = tap_cases; c; c = c->next)
		failed += run(c, ++n);
	fflush(stdout);
	return failed ? 1 : 0;
}

static inline int tap_main(void)
{
	return tap_run_all(tap_run_one);
}

/*
 * tap_main() without the fork: the cases run in order in this process and
 * share its state (a crash ends them all).
 */
static inline int tap_main_in_order(void)
{
	return tap_run_all(tap_run_here);
}

#endif /* ASCEND_TESTS_TAP_H */
