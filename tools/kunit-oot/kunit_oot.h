/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit_oot.h - prelude that lets KUnit run as an out-of-tree kunit.ko on a
 * kernel built with CONFIG_KUNIT unset (Debian's stock kernel).
 *
 * Force-included (ccflags-y += -include .../kunit_oot.h) into kunit.ko itself
 * (built with -DKUNIT_OOT_CORE) and into every test module.  Test sources stay
 * upstream style: kunit_test_suite(s)(), KUNIT_EXPECT_*(), kunit_kzalloc(), ...
 *
 * Limits: one kunit_test_suites() (or kunit_test_suite()) per test module,
 * because it expands to the module's module_init/module_exit; put several
 * suites into one kunit_test_suites(&a, &b) call.  The boot-time executor
 * filters (kunit.filter_glob, ...) do not apply.
 */
#ifndef _KUNIT_OOT_H
#define _KUNIT_OOT_H

/*
 * struct module and struct task_struct have IS_ENABLED(CONFIG_KUNIT) members:
 * include them before CONFIG_KUNIT_MODULE is defined below so their layout
 * stays the one of the running kernel.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/jump_label.h>

#define CONFIG_KUNIT_MODULE 1		/* the kunit headers expose the full API */
#define CONFIG_KUNIT_DEBUGFS 1		/* /sys/kernel/debug/kunit/<suite>/results */
#define CONFIG_KUNIT_DEFAULT_ENABLED 1

/*
 * Replace <kunit/test-bug.h>: same declarations, but the running test of a
 * task lives in a side table inside kunit.ko (task_struct::kunit_test does
 * not exist when the kernel has CONFIG_KUNIT=n).
 */
#define _KUNIT_TEST_BUG_H
struct kunit;

DECLARE_STATIC_KEY_FALSE(kunit_running);

extern struct kunit_hooks_table {
	__printf(3, 4) void (*fail_current_test)(const char *, int, const char *, ...);
	void *(*get_static_stub_address)(struct kunit *test, void *real_fn_addr);
} kunit_hooks;

struct kunit *kunit_oot_get_current(void);
void kunit_oot_set_current(struct kunit *test);

static inline struct kunit *kunit_get_current_test(void)
{
	if (!static_branch_unlikely(&kunit_running))
		return NULL;
	return kunit_oot_get_current();
}

#define kunit_fail_current_test(fmt, ...) do {					\
		if (static_branch_unlikely(&kunit_running))			\
			kunit_hooks.fail_current_test(__FILE__, __LINE__,	\
						      fmt, ##__VA_ARGS__);	\
	} while (0)

#ifndef KUNIT_OOT_CORE
/*
 * The module loader ignores .kunit_test_suites without CONFIG_KUNIT, so a
 * test module runs its suites from its own module_init instead.
 */
#include <kunit/test.h>

#undef kunit_test_suites
#define kunit_test_suites(__suites...)						\
	static struct kunit_suite *kunit_oot_suites[] = { __suites };		\
	static int __init kunit_oot_init(void)					\
	{									\
		return __kunit_test_suites_init(kunit_oot_suites,		\
						ARRAY_SIZE(kunit_oot_suites));	\
	}									\
	static void __exit kunit_oot_exit(void)					\
	{									\
		__kunit_test_suites_exit(kunit_oot_suites,			\
					 ARRAY_SIZE(kunit_oot_suites));		\
	}									\
	module_init(kunit_oot_init);						\
	module_exit(kunit_oot_exit)

#undef kunit_test_suite
#define kunit_test_suite(suite) kunit_test_suites(&(suite))

/* The suites live as long as the module: no init-section variant needed. */
#undef kunit_test_init_section_suites
#define kunit_test_init_section_suites(__suites...) kunit_test_suites(__suites)
#undef kunit_test_init_section_suite
#define kunit_test_init_section_suite(suite) kunit_test_suites(&(suite))
#endif /* !KUNIT_OOT_CORE */

#endif /* _KUNIT_OOT_H */
