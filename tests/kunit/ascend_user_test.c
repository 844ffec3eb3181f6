// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the per-user shares (ascend_user.c) - one entry per uid, found
 * again while it lives and gone with its last reference; queues, event
 * slots and HBM refused exactly past the share and given back, the HBM
 * share a part of what the device can hold written; a task
 * with CAP_SYS_RESOURCE counted but not refused.  The test thread runs
 * without capabilities unless a case gives them back.
 */
#include <linux/cred.h>
#include <linux/slab.h>

#include "ascend_drv.h"
#include "ascend_kunit.h"
#include "ascend_user.h"

struct user_fixture {
	struct ascend_device *adev;
	const struct cred *saved;
	struct cred *dropped;
};

static int user_test_init(struct kunit *test)
{
	struct user_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->adev = kunit_kzalloc(test, sizeof(*f->adev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->adev);
	f->adev->hbm_size = SZ_1G;
	f->adev->hbm_store_size = SZ_1G;
	ascend_users_init(f->adev);
	/* an ordinary task: no capabilities, so the shares apply */
	f->dropped = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, f->dropped);
	cap_clear(f->dropped->cap_effective);
	f->saved = override_creds(f->dropped);
	test->priv = f;
	return 0;
}

static void user_test_exit(struct kunit *test)
{
	struct user_fixture *f = test->priv;

	revert_creds(f->saved);
	put_cred(f->dropped);
	ascend_users_fini(f->adev);
}

/* Give the test thread CAP_SYS_RESOURCE; revert_creds() the result. */
static const struct cred *user_exempt_begin(struct kunit *test)
{
	struct cred *root = prepare_creds();
	const struct cred *old;

	KUNIT_ASSERT_NOT_NULL(test, root);
	cap_raise(root->cap_effective, CAP_SYS_RESOURCE);
	old = override_creds(root);
	/* the override holds its own reference */
	put_cred(root);
	return old;
}

static void user_test_one_entry_per_uid(struct kunit *test)
{
	struct user_fixture *f = test->priv;
	struct ascend_user *a, *b;

	a = ascend_user_get_current(f->adev);
	b = ascend_user_get_current(f->adev);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_TRUE(test, uid_eq(a->uid, current_uid()));
	ascend_user_put(b);
	ascend_user_put(a);
	/* the last reference took the entry out */
	KUNIT_EXPECT_TRUE(test, xa_empty(&f->adev->users));
}

static void user_test_queue_share(struct kunit *test)
{
	struct user_fixture *f = test->priv;
	struct ascend_user *u = ascend_user_get_current(f->adev);
	unsigned int i, share = ascend_user_queue_share();

	KUNIT_ASSERT_NOT_NULL(test, u);
	KUNIT_EXPECT_EQ(test, ascend_user_max_queues(), share);
	for (i = 0; i < share; i++)
		KUNIT_ASSERT_EQ(test, ascend_user_charge_queue(u), 0);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_queue(u), -ENOSPC);
	KUNIT_EXPECT_EQ(test, u->queues, share);
	ascend_user_uncharge_queue(u);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_queue(u), 0);
	for (i = 0; i < share; i++)
		ascend_user_uncharge_queue(u);
	KUNIT_EXPECT_EQ(test, u->queues, 0);
	ascend_user_put(u);
}

static void user_test_event_share(struct kunit *test)
{
	struct user_fixture *f = test->priv;
	struct ascend_user *u = ascend_user_get_current(f->adev);
	unsigned int i, share = ascend_user_event_share();

	KUNIT_ASSERT_NOT_NULL(test, u);
	for (i = 0; i < share; i++)
		KUNIT_ASSERT_EQ(test, ascend_user_charge_event(u), 0);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_event(u), -ENOSPC);
	for (i = 0; i < share; i++)
		ascend_user_uncharge_event(u);
	KUNIT_EXPECT_EQ(test, u->events, 0);
	/* an event made without a file has no user: nothing to give back */
	ascend_user_uncharge_event(NULL);
	ascend_user_put(u);
}

static void user_test_hbm_share(struct kunit *test)
{
	struct user_fixture *f = test->priv;
	struct ascend_user *u = ascend_user_get_current(f->adev);
	u64 quota = ascend_user_hbm_share(f->adev);

	KUNIT_ASSERT_NOT_NULL(test, u);
	/* 50 % of 1 GiB, in whole hundredths */
	KUNIT_EXPECT_EQ(test, quota, div_u64(SZ_1G, 100) * 50);
	KUNIT_EXPECT_EQ(test, ascend_user_hbm_quota(f->adev), quota);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, quota + 1), -EDQUOT);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, U64_MAX), -EDQUOT);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, quota - 4096), 0);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, 8192), -EDQUOT);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, 4096), 0);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, 1), -EDQUOT);
	KUNIT_EXPECT_EQ(test, u->hbm, quota);
	ascend_user_uncharge_hbm(u, quota);
	KUNIT_EXPECT_EQ(test, u->hbm, 0);
	ascend_user_put(u);
}

/*
 * A device that holds less than its HBM written (the emulated NPU's store)
 * bases the share on the store, so one user cannot fill it; the exempt
 * task keeps the whole HBM (the store still refuses its writes).
 */
static void user_test_hbm_share_of_store(struct kunit *test)
{
	struct user_fixture *f = test->priv;
	struct ascend_user *u = ascend_user_get_current(f->adev);
	const struct cred *old;
	u64 quota;

	KUNIT_ASSERT_NOT_NULL(test, u);
	f->adev->hbm_store_size = SZ_256M;
	quota = ascend_user_hbm_share(f->adev);
	KUNIT_EXPECT_EQ(test, quota, div_u64(SZ_256M, 100) * 50);
	KUNIT_EXPECT_EQ(test, ascend_user_hbm_quota(f->adev), quota);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, quota + 1), -EDQUOT);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, quota), 0);
	ascend_user_uncharge_hbm(u, quota);

	old = user_exempt_begin(test);
	KUNIT_EXPECT_EQ(test, ascend_user_hbm_quota(f->adev), (u64)SZ_1G);
	revert_creds(old);
	ascend_user_put(u);
}

static void user_test_exempt_counted(struct kunit *test)
{
	struct user_fixture *f = test->priv;
	struct ascend_user *u = ascend_user_get_current(f->adev);
	u64 quota = ascend_user_hbm_share(f->adev);
	const struct cred *old;

	KUNIT_ASSERT_NOT_NULL(test, u);
	old = user_exempt_begin(test);
	/* the whole device, counted */
	KUNIT_EXPECT_EQ(test, ascend_user_hbm_quota(f->adev), (u64)SZ_1G);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, quota + 4096), 0);
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, SZ_1G), -EDQUOT);
	revert_creds(old);
	/* back without the capability: over the share, refused */
	KUNIT_EXPECT_EQ(test, ascend_user_charge_hbm(u, 4096), -EDQUOT);
	ascend_user_uncharge_hbm(u, quota + 4096);
	ascend_user_put(u);
}

static struct kunit_case user_cases[] = {
	KUNIT_CASE(user_test_one_entry_per_uid),
	KUNIT_CASE(user_test_queue_share),
	KUNIT_CASE(user_test_event_share),
	KUNIT_CASE(user_test_hbm_share),
	KUNIT_CASE(user_test_hbm_share_of_store),
	KUNIT_CASE(user_test_exempt_counted),
	{}
};

struct kunit_suite ascend_user_test_suite = {
	.name = "ascend_user",
	.init = user_test_init,
	.exit = user_test_exit,
	.test_cases = user_cases,
};
