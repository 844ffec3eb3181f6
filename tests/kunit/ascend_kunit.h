/* SPDX-License-Identifier: GPL-2.0-only */
/* The suites of ascend_kunit.ko (one module, one kunit_test_suites()). */
#ifndef __ASCEND_KUNIT_H__
#define __ASCEND_KUNIT_H__

#include <kunit/test.h>

extern struct kunit_suite ascend_hbm_test_suite;
extern struct kunit_suite ascend_user_test_suite;
extern struct kunit_suite ascend_vm_test_suite;
extern struct kunit_suite ascend_copy_test_suite;
extern struct kunit_suite ascend_emu_test_suite;
extern struct kunit_suite ascend_cmd_test_suite;
extern struct kunit_suite ascend_queue_test_suite;
extern struct kunit_suite ascend_host_test_suite;
extern struct kunit_suite ascend_copyext_test_suite;
extern struct kunit_suite ascend_ipc_test_suite;
extern struct kunit_suite ascend_peer_test_suite;
extern struct kunit_suite ascend_free_ring_test_suite;
extern struct kunit_suite ascend_pt_test_suite;
extern struct kunit_suite ascend_smmu_test_suite;
extern struct kunit_suite ascend_reduce_test_suite;

#endif /* __ASCEND_KUNIT_H__ */
