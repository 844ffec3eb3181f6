// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the IPC key table and allow-lists (ascend_ipc.c) and the peer-link
 * state machine (ascend_peer.c).  Both sources are compiled in here; what
 * they reach in parts of the driver the test module lacks (buffer objects,
 * the fops check) is stubbed below and never called by these cases.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ascend_drv.h"
#include "ascend_event.h"
#include "ascend_gem.h"
#include "ascend_ipc.h"
#include "ascend_peer.h"
#include "ascend_kunit.h"

#include "../../drivers/accel/ascend/ascend_ipc.c"
#include "../../drivers/accel/ascend/ascend_peer.c"

/* ------------------------------------------------------------------------ */
/* stubs: ascend_gem.c and ascend_drv.c are not in the test module */

void ascend_hbm_buf_put(struct ascend_hbm_buf *buf)
{
}

int ascend_gem_find_buf(struct ascend_file *af, u64 va, u64 size,
			struct ascend_hbm_buf **buf, u64 *offset)
{
	return -EINVAL;
}

int ascend_gem_import(struct drm_file *file, struct ascend_hbm_buf *buf,
		      u64 offset, u64 size, u64 *va, u32 *handle)
{
	return -ENOMEM;
}

struct ascend_file *ascend_file_from_file(struct file *f)
{
	return NULL;
}

int ascend_vmm_phys_buf(struct drm_file *file, u32 handle,
			struct ascend_hbm_buf **buf)
{
	return -ENOENT;
}

int ascend_vmm_phys_import(struct drm_file *file, struct ascend_hbm_buf *buf,
			   u32 *handle)
{
	return -ENOMEM;
}

/* ------------------------------------------------------------------------ */
/* keys */

static void ascend_ipc_test_key_format(struct kunit *test)
{
	char a[DRM_ASCEND_IPC_KEY_LEN], b[DRM_ASCEND_IPC_KEY_LEN];
	unsigned int i;

	memset(a, 'x', sizeof(a));
	ascend_ipc_key_generate(a);
	ascend_ipc_key_generate(b);
	KUNIT_EXPECT_EQ(test, strlen(a), (size_t)ASCEND_IPC_KEY_HEX);
	KUNIT_EXPECT_EQ(test, a[DRM_ASCEND_IPC_KEY_LEN - 1], '\0');
	for (i = 0; i < ASCEND_IPC_KEY_HEX; i++)
		KUNIT_EXPECT_TRUE(test, isxdigit(a[i]) && !isupper(a[i]));
	KUNIT_EXPECT_TRUE(test, ascend_ipc_key_valid(a));
	/* 256 random bits: two keys never agree */
	KUNIT_EXPECT_NE(test, memcmp(a, b, sizeof(a)), 0);

	b[3] = 'G';
	KUNIT_EXPECT_FALSE(test, ascend_ipc_key_valid(b));
	ascend_ipc_key_generate(b);
	b[ASCEND_IPC_KEY_HEX] = '0';
	KUNIT_EXPECT_FALSE(test, ascend_ipc_key_valid(b));
}

/*
 * Process identities for the allow-list: struct pids (with the one level
 * put_pid() reads) whose count never reaches zero, so put_pid() never
 * frees them; the test's own memory holds them.
 */
#define IPC_TEST_PIDS	(ASCEND_IPC_MAX_PIDS + 8)
static u8 *ipc_test_pid_mem;

static size_t ipc_test_pid_size(void)
{
	return ALIGN(struct_size((struct pid *)NULL, numbers, 1),
		     __alignof__(struct pid));
}

static void ipc_test_pids_init(struct kunit *test)
{
	ipc_test_pid_mem = kunit_kzalloc(test, IPC_TEST_PIDS *
					 ipc_test_pid_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ipc_test_pid_mem);
}

static struct pid *ipc_test_pid(unsigned int i)
{
	return (struct pid *)(ipc_test_pid_mem + i * ipc_test_pid_size());
}

static struct pid *ipc_test_pid_get(unsigned int i)
{
	struct pid *pid = ipc_test_pid(i);

	if (!refcount_read(&pid->count))
		refcount_set(&pid->count, 1);
	return get_pid(pid);
}

static struct ascend_ipc_export *ascend_ipc_test_export(struct kunit *test,
							const void *owner)
{
	struct ascend_ipc_export *exp = kzalloc(sizeof(*exp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, exp);
	exp->owner = owner;
	exp->owner_tgid = ipc_test_pid_get(0);
	exp->type = DRM_ASCEND_IPC_MEM;
	return exp;
}

static void ascend_ipc_test_table(struct kunit *test)
{
	struct ascend_ipc_table t;
	struct ascend_ipc_export *e[3];
	char key[DRM_ASCEND_IPC_KEY_LEN];
	struct ascend_file *owner_a = (void *)&t, *owner_b = (void *)&key;
	unsigned int i;

	ipc_test_pids_init(test);
	ascend_ipc_table_init(&t);
	mutex_lock(&t.lock);
	for (i = 0; i < ARRAY_SIZE(e); i++) {
		e[i] = ascend_ipc_test_export(test, i ? owner_a : owner_b);
		KUNIT_ASSERT_EQ(test, ascend_ipc_insert_locked(&t, e[i]), 0);
		KUNIT_EXPECT_TRUE(test, ascend_ipc_key_valid(e[i]->key));
	}
	KUNIT_EXPECT_EQ(test, t.nr, 3UL);
	KUNIT_EXPECT_NE(test, memcmp(e[0]->key, e[1]->key, sizeof(key)), 0);

	for (i = 0; i < ARRAY_SIZE(e); i++) {
		memcpy(key, e[i]->key, sizeof(key));
		KUNIT_EXPECT_PTR_EQ(test, ascend_ipc_find_locked(&t, key, NULL),
				    e[i]);
	}
	/* only the exporting file finds it as its own */
	memcpy(key, e[1]->key, sizeof(key));
	KUNIT_EXPECT_PTR_EQ(test, ascend_ipc_find_locked(&t, key, owner_a),
			    e[1]);
	KUNIT_EXPECT_NULL(test, ascend_ipc_find_locked(&t, key, owner_b));

	/* one digit off, first or last, or bytes past the NUL: unknown */
	key[0] = key[0] == '0' ? '1' : '0';
	KUNIT_EXPECT_NULL(test, ascend_ipc_find_locked(&t, key, NULL));
	memcpy(key, e[1]->key, sizeof(key));
	key[ASCEND_IPC_KEY_HEX - 1] ^= 1;
	KUNIT_EXPECT_NULL(test, ascend_ipc_find_locked(&t, key, NULL));
	memcpy(key, e[1]->key, sizeof(key));
	key[ASCEND_IPC_KEY_HEX] = 'z';
	KUNIT_EXPECT_NULL(test, ascend_ipc_find_locked(&t, key, NULL));
	memset(key, 0, sizeof(key));
	KUNIT_EXPECT_NULL(test, ascend_ipc_find_locked(&t, key, NULL));

	/* removal */
	memcpy(key, e[0]->key, sizeof(key));
	ascend_ipc_remove_locked(&t, e[0]);
	KUNIT_EXPECT_EQ(test, t.nr, 2UL);
	KUNIT_EXPECT_NULL(test, ascend_ipc_find_locked(&t, key, NULL));
	memcpy(key, e[2]->key, sizeof(key));
	KUNIT_EXPECT_PTR_EQ(test, ascend_ipc_find_locked(&t, key, NULL), e[2]);
	for (i = 1; i < ARRAY_SIZE(e); i++)
		ascend_ipc_remove_locked(&t, e[i]);
	KUNIT_EXPECT_TRUE(test, xa_empty(&t.exports));
	mutex_unlock(&t.lock);

	for (i = 0; i < ARRAY_SIZE(e); i++)
		ascend_ipc_export_free(e[i]);
	xa_destroy(&t.exports);
}

/*
 * Many exports: each is found by its own key with one look-up, a key one
 * digit off finds nothing, and removals leave the others findable.
 */
#define IPC_TEST_MANY	20000

static void ascend_ipc_test_many(struct kunit *test)
{
	struct ascend_ipc_export **e;
	char key[DRM_ASCEND_IPC_KEY_LEN];
	struct ascend_ipc_table t;
	unsigned int i, found = 0, wrong = 0;

	ipc_test_pids_init(test);
	ascend_ipc_table_init(&t);
	e = kunit_kcalloc(test, IPC_TEST_MANY, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	mutex_lock(&t.lock);
	for (i = 0; i < IPC_TEST_MANY; i++) {
		e[i] = ascend_ipc_test_export(test, &t);
		KUNIT_ASSERT_EQ(test, ascend_ipc_insert_locked(&t, e[i]), 0);
	}
	KUNIT_EXPECT_EQ(test, t.nr, (unsigned long)IPC_TEST_MANY);
	for (i = 0; i < IPC_TEST_MANY; i++) {
		memcpy(key, e[i]->key, sizeof(key));
		found += ascend_ipc_find_locked(&t, key, NULL) == e[i];
		key[i % ASCEND_IPC_KEY_HEX] ^= 1;
		wrong += !!ascend_ipc_find_locked(&t, key, NULL);
	}
	KUNIT_EXPECT_EQ(test, found, (unsigned int)IPC_TEST_MANY);
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	/* every other one goes */
	for (i = 0; i < IPC_TEST_MANY; i += 2)
		ascend_ipc_remove_locked(&t, e[i]);
	for (i = 0, found = 0; i < IPC_TEST_MANY; i++) {
		memcpy(key, e[i]->key, sizeof(key));
		found += ascend_ipc_find_locked(&t, key, NULL) ==
			 (i % 2 ? e[i] : NULL);
	}
	KUNIT_EXPECT_EQ(test, found, (unsigned int)IPC_TEST_MANY);
	for (i = 1; i < IPC_TEST_MANY; i += 2)
		ascend_ipc_remove_locked(&t, e[i]);
	KUNIT_EXPECT_TRUE(test, xa_empty(&t.exports));
	KUNIT_EXPECT_EQ(test, t.nr, 0UL);
	mutex_unlock(&t.lock);
	for (i = 0; i < IPC_TEST_MANY; i++)
		ascend_ipc_export_free(e[i]);
	xa_destroy(&t.exports);
}

static void ascend_ipc_test_allow_list(struct kunit *test)
{
	static struct pid *many[ASCEND_IPC_MAX_PIDS];
	struct ascend_ipc_export *exp;
	struct pid *p[3];
	unsigned int i, before;

	ipc_test_pids_init(test);
	exp = ascend_ipc_test_export(test, NULL);

	/* nobody but the exporting process until pids are set */
	KUNIT_EXPECT_TRUE(test, ascend_ipc_may_import_locked(exp,
							     ipc_test_pid(0)));
	KUNIT_EXPECT_FALSE(test, ascend_ipc_may_import_locked(exp,
							      ipc_test_pid(1)));

	/* 1, 2, 1: duplicates folded, every reference consumed */
	put_pid(ipc_test_pid_get(1));	/* made, with its base count */
	before = refcount_read(&ipc_test_pid(1)->count);
	p[0] = ipc_test_pid_get(1);
	p[1] = ipc_test_pid_get(2);
	p[2] = ipc_test_pid_get(1);
	KUNIT_EXPECT_EQ(test, ascend_ipc_add_pids_locked(exp, p, 3), 0);
	KUNIT_EXPECT_EQ(test, exp->nr_pids, 2U);
	KUNIT_EXPECT_EQ(test, refcount_read(&ipc_test_pid(1)->count),
			before + 1);
	KUNIT_EXPECT_TRUE(test, ascend_ipc_may_import_locked(exp,
							     ipc_test_pid(1)));
	KUNIT_EXPECT_TRUE(test, ascend_ipc_may_import_locked(exp,
							     ipc_test_pid(2)));
	/* another identity (a recycled number is one) is not on the list */
	KUNIT_EXPECT_FALSE(test, ascend_ipc_may_import_locked(exp,
							      ipc_test_pid(3)));
	KUNIT_EXPECT_FALSE(test, ascend_ipc_may_import_locked(exp, NULL));

	/* again: nothing new, the references still go */
	p[0] = ipc_test_pid_get(2);
	KUNIT_EXPECT_EQ(test, ascend_ipc_add_pids_locked(exp, p, 1), 0);
	KUNIT_EXPECT_EQ(test, exp->nr_pids, 2U);

	/* at most ASCEND_IPC_MAX_PIDS, nothing added beyond */
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = ipc_test_pid_get(8 + i);
	KUNIT_EXPECT_EQ(test, ascend_ipc_add_pids_locked(exp, many,
							 ARRAY_SIZE(many)),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, exp->nr_pids, 2U);
	KUNIT_EXPECT_FALSE(test, ascend_ipc_may_import_locked(exp,
							      ipc_test_pid(8)));
	for (i = 0; i < ARRAY_SIZE(many) - 2; i++)
		many[i] = ipc_test_pid_get(8 + i);
	KUNIT_EXPECT_EQ(test, ascend_ipc_add_pids_locked(exp, many,
							 ARRAY_SIZE(many) - 2),
			0);
	KUNIT_EXPECT_EQ(test, exp->nr_pids, (unsigned int)ASCEND_IPC_MAX_PIDS);
	KUNIT_EXPECT_TRUE(test, ascend_ipc_may_import_locked(exp,
							     ipc_test_pid(8)));

	/* NO_PID_CHECK: anyone */
	exp->flags = DRM_ASCEND_IPC_NO_PID_CHECK;
	KUNIT_EXPECT_TRUE(test, ascend_ipc_may_import_locked(exp,
							     ipc_test_pid(5)));
	/* the export gives back every reference it held */
	before = refcount_read(&ipc_test_pid(2)->count);
	ascend_ipc_export_free(exp);
	KUNIT_EXPECT_EQ(test, refcount_read(&ipc_test_pid(2)->count),
			before - 1);
}

/*
 * An event import racing IPC_CLOSE, in the racy order: the importer takes
 * the event from the export under the table lock, then the exporter
 * withdraws the export before the importer's table holds the event.  The
 * export named the event alone (its creator destroyed its handle), so the
 * withdrawal must not kill an event the importer is about to install: its
 * handle count would then go up from 0 (a refcount WARN, a panic under
 * panic_on_warn) on a dead event.
 */
static void ascend_ipc_test_event_import_vs_close(struct kunit *test)
{
	struct ascend_ipc_export *exp, *gone;
	struct ascend_ipc_take take;
	struct ascend_device *adev;
	char key[DRM_ASCEND_IPC_KEY_LEN];
	struct ascend_ipc_table t;
	struct ascend_event *e;

	ipc_test_pids_init(test);
	ascend_ipc_table_init(&t);
	adev = kunit_kzalloc(test, sizeof(*adev), GFP_KERNEL);
	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, adev);
	KUNIT_ASSERT_NOT_NULL(test, e);
	/* the test's own reference (the slot never goes back here) ... */
	kref_init(&e->ref);
	/* ... and the creator's handle with its table's reference */
	kref_get(&e->ref);
	refcount_set(&e->handles, 1);
	init_waitqueue_head(&e->wq);
	e->adev = adev;

	exp = ascend_ipc_test_export(test, &t);
	exp->type = DRM_ASCEND_IPC_EVENT;
	exp->adev = adev;
	ascend_event_hold(e);
	exp->event = e;
	mutex_lock(&t.lock);
	KUNIT_ASSERT_EQ(test, ascend_ipc_insert_locked(&t, exp), 0);
	memcpy(key, exp->key, sizeof(key));
	mutex_unlock(&t.lock);
	/* the creator destroys its handle: the export alone names the event */
	ascend_event_unhold(e);
	KUNIT_EXPECT_EQ(test, refcount_read(&e->handles), 1U);

	/* IPC_IMPORT, under the table lock: found and taken */
	mutex_lock(&t.lock);
	KUNIT_ASSERT_EQ(test, ascend_ipc_import_take_locked(&t, key,
							    DRM_ASCEND_IPC_EVENT,
							    adev,
							    ipc_test_pid(0),
							    &take), 0);
	mutex_unlock(&t.lock);
	KUNIT_ASSERT_PTR_EQ(test, take.event, e);

	/* IPC_CLOSE, before the importer's table holds the event */
	mutex_lock(&t.lock);
	gone = ascend_ipc_find_locked(&t, key, (void *)&t);
	KUNIT_ASSERT_PTR_EQ(test, gone, exp);
	ascend_ipc_remove_locked(&t, gone);
	mutex_unlock(&t.lock);
	ascend_ipc_export_free(gone);

	/* the importer still has a live event to install */
	KUNIT_EXPECT_FALSE(test, e->dead);
	KUNIT_EXPECT_EQ(test, refcount_read(&e->handles), 1U);

	/* the import gives up: nothing names the event any more */
	ascend_ipc_take_drop(&take);
	KUNIT_EXPECT_TRUE(test, e->dead);
	KUNIT_EXPECT_EQ(test, refcount_read(&e->handles), 0U);
	KUNIT_EXPECT_EQ(test, kref_read(&e->ref), 1U);
	xa_destroy(&t.exports);
}

/* ------------------------------------------------------------------------ */
/* peer links */

struct ascend_peer_test {
	struct ascend_device dev[2];
	struct ascend_file a, a2, b;
};

static struct ascend_peer_test *ascend_peer_test_setup(struct kunit *test)
{
	struct ascend_peer_test *p = kunit_kzalloc(test, sizeof(*p),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->dev[1].index = 1;
	p->a.adev = &p->dev[0];
	p->a2.adev = &p->dev[0];
	p->b.adev = &p->dev[1];
	/* the link paths lock each file's address space, as on a real file */
	mutex_init(&p->a.vm.lock);
	mutex_init(&p->a2.vm.lock);
	mutex_init(&p->b.vm.lock);
	ascend_peer_file_init(&p->a);
	ascend_peer_file_init(&p->a2);
	ascend_peer_file_init(&p->b);
	return p;
}

static void ascend_peer_test_state(struct kunit *test)
{
	struct ascend_peer_test *p = ascend_peer_test_setup(test);
	u32 st = 7;

	down_write(&ascend_peer_rwsem);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b,
						    DRM_ASCEND_PEER_QUERY, &st),
			0);
	KUNIT_EXPECT_EQ(test, st, 0U);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b,
						    DRM_ASCEND_PEER_DISABLE,
						    &st), -ENOENT);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b,
						    DRM_ASCEND_PEER_ENABLE, &st),
			0);
	KUNIT_EXPECT_EQ(test, st, 1U);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b,
						    DRM_ASCEND_PEER_ENABLE, &st),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, st, 1U);
	/* one direction only */
	KUNIT_EXPECT_TRUE(test, ascend_peer_linked_locked(&p->a, &p->b));
	KUNIT_EXPECT_FALSE(test, ascend_peer_linked_locked(&p->b, &p->a));
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->b, &p->a,
						    DRM_ASCEND_PEER_QUERY, &st),
			0);
	KUNIT_EXPECT_EQ(test, st, 0U);
	/* same device, same file, unknown op */
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->a2,
						    DRM_ASCEND_PEER_ENABLE, &st),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->a,
						    DRM_ASCEND_PEER_QUERY, &st),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b, 3, &st),
			-EINVAL);

	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b,
						    DRM_ASCEND_PEER_DISABLE,
						    &st), 0);
	KUNIT_EXPECT_EQ(test, st, 0U);
	KUNIT_EXPECT_FALSE(test, ascend_peer_linked_locked(&p->a, &p->b));
	KUNIT_EXPECT_TRUE(test, list_empty(&p->b.peer_users));
	up_write(&ascend_peer_rwsem);

	ascend_peer_file_fini(&p->a);
	ascend_peer_file_fini(&p->a2);
	ascend_peer_file_fini(&p->b);
}

/* Closing either end removes the link from both files. */
static void ascend_peer_test_close(struct kunit *test)
{
	struct ascend_peer_test *p = ascend_peer_test_setup(test);
	u32 st;

	down_write(&ascend_peer_rwsem);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b,
						    DRM_ASCEND_PEER_ENABLE, &st),
			0);
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->b, &p->a,
						    DRM_ASCEND_PEER_ENABLE, &st),
			0);
	up_write(&ascend_peer_rwsem);

	ascend_peer_file_fini(&p->b);
	KUNIT_EXPECT_TRUE(test, list_empty(&p->a.peer_links));
	KUNIT_EXPECT_TRUE(test, list_empty(&p->a.peer_users));
	ascend_peer_file_fini(&p->a);
	ascend_peer_file_fini(&p->a2);
}

/* Addresses resolve to the linked file whose window holds them. */
static void ascend_peer_test_find(struct kunit *test)
{
	struct ascend_peer_test *p = ascend_peer_test_setup(test);
	u32 st;

	p->b.vm.base = SZ_1G;
	p->b.vm.size = SZ_1G;
	down_write(&ascend_peer_rwsem);
	KUNIT_EXPECT_NULL(test, ascend_peer_find_locked(&p->a, SZ_1G, 16));
	KUNIT_EXPECT_EQ(test, ascend_peer_op_locked(&p->a, &p->b,
						    DRM_ASCEND_PEER_ENABLE, &st),
			0);
	KUNIT_EXPECT_PTR_EQ(test, ascend_peer_find_locked(&p->a, SZ_1G, 16),
			    &p->b);
	KUNIT_EXPECT_PTR_EQ(test, ascend_peer_find_locked(&p->a,
							  2ULL * SZ_1G - 16,
							  16), &p->b);
	/* straddling the end of the window, before it, zero length, wrap */
	KUNIT_EXPECT_NULL(test, ascend_peer_find_locked(&p->a,
							2ULL * SZ_1G - 8, 16));
	KUNIT_EXPECT_NULL(test, ascend_peer_find_locked(&p->a, SZ_1G - 1, 2));
	KUNIT_EXPECT_NULL(test, ascend_peer_find_locked(&p->a, SZ_1G, 0));
	KUNIT_EXPECT_NULL(test, ascend_peer_find_locked(&p->a, U64_MAX, 2));
	/* not the other way round */
	KUNIT_EXPECT_NULL(test, ascend_peer_find_locked(&p->b, SZ_1G, 16));
	up_write(&ascend_peer_rwsem);

	ascend_peer_file_fini(&p->a);
	ascend_peer_file_fini(&p->a2);
	ascend_peer_file_fini(&p->b);
}

static struct kunit_case ascend_ipc_test_cases[] = {
	KUNIT_CASE(ascend_ipc_test_key_format),
	KUNIT_CASE(ascend_ipc_test_table),
	KUNIT_CASE(ascend_ipc_test_many),
	KUNIT_CASE(ascend_ipc_test_allow_list),
	KUNIT_CASE(ascend_ipc_test_event_import_vs_close),
	KUNIT_CASE(ascend_peer_test_state),
	KUNIT_CASE(ascend_peer_test_close),
	KUNIT_CASE(ascend_peer_test_find),
	{}
};

struct kunit_suite ascend_ipc_test_suite = {
	.name = "ascend_ipc",
	.test_cases = ascend_ipc_test_cases,
};
