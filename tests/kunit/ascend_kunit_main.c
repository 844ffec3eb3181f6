// SPDX-License-Identifier: GPL-2.0-only
/*
 * ascend_kunit.ko: KUnit suites for the Ascend driver's logic (HBM manager,
 * device MMU, copy splitting) and for the emulated NPU's lazily backed HBM,
 * DMA engines and command execution (ascend_cmd, from H2b).  They run when the module loads;
 * results are in dmesg and /sys/kernel/debug/kunit/<suite>/results.
 */
#include <linux/module.h>

#include "ascend_kunit.h"

kunit_test_suites(&ascend_hbm_test_suite, &ascend_vm_test_suite,
		  &ascend_copy_test_suite, &ascend_emu_test_suite,
		  &ascend_cmd_test_suite, &ascend_queue_test_suite,
		  &ascend_host_test_suite, &ascend_ipc_test_suite,
		  &ascend_copyext_test_suite, &ascend_peer_test_suite,
		  &ascend_free_ring_test_suite, &ascend_pt_test_suite,
		  &ascend_smmu_test_suite, &ascend_user_test_suite,
		  &ascend_reduce_test_suite);

MODULE_DESCRIPTION("KUnit tests for the Ascend NPU accel driver");
MODULE_LICENSE("GPL");
