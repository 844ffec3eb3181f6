// SPDX-License-Identifier: MIT
/*
 * addrmap.c - address -> allocation, for aclrtFree, pointer classification
 * and the range checks of copies and fills.
 *
 * Every live allocation this process knows (device memory from aclrtMalloc*
 * now; acl-registered host memory later) is one node of an AVL tree keyed by
 * its start address.  Allocations never overlap, so the one containing an
 * address p is the node with the greatest start <= p ("floor"), if p falls
 * before its end.  Insert, remove and lookup are O(log n): the tree height
 * stays below 1.45 log2(n + 2), i.e. at most 25 levels for 100,000 entries,
 * which also bounds the recursion below.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct node {
	struct node *left, *right;
	int height;			/* of the subtree; a leaf is 1 */
	struct acl_alloc a;
};

/*
 * m_lock protects m_root, every node reachable from it, m_count and the
 * spare nodes (m_spare, linked through ->left; m_nspare of them), which
 * spare a malloc/free pair per allocation in malloc/free churn.
 */
static pthread_rwlock_t m_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct node *m_root;
static size_t m_count;
static struct node *m_spare;
static unsigned int m_nspare;
#define MAX_SPARE	64

/*
 * m_gen counts the changes of the map: every writer bumps it under m_lock
 * (write-held) before letting go; readers may load it without the lock.
 * A thread remembers the allocations its classifications found (t_seen,
 * copies taken under the read lock with the m_gen of that moment): while
 * m_gen has not moved, the map still holds exactly those allocations, so a
 * pointer inside one is classified without the lock and without a walk
 * (the enqueue of an asynchronous copy looks up both its sides).  A change
 * made before the call, by this thread or one that synchronised with it,
 * is seen: the release/acquire pair on m_gen orders it.
 */
static uint64_t m_gen = 1;
#define SEEN_MAX	4
struct seen {
	uint64_t gen;			/* the m_gen of a[]; 0: nothing seen */
	unsigned int n, next;		/* entries used, the one replaced next */
	struct acl_alloc a[SEEN_MAX];
};
/* On the heap, at the thread's first look-up (freed at its exit): only a
 * pointer in the static TLS block, whose size and layout the per-operation
 * paths are sensitive to (architecture.rst). */
static ACL_TLS_HOT struct seen *t_seen;
static pthread_key_t seen_key;
static pthread_once_t seen_once = PTHREAD_ONCE_INIT;

static void seen_free(void *p)
{
	free(p);
	t_seen = NULL;
}

static void seen_key_init(void)
{
	pthread_key_create(&seen_key, seen_free);
}

/* The map changed (m_lock write-held). */
static void changed(void)
{
	__atomic_store_n(&m_gen, m_gen + 1, __ATOMIC_RELEASE);
}

/* The allocation holding @p among those seen since the last change. */
static const struct acl_alloc *seen_find(const void *p)
{
	struct seen *t = t_seen;
	unsigned int i;

	if (!t || t->gen != __atomic_load_n(&m_gen, __ATOMIC_ACQUIRE))
		return NULL;
	for (i = 0; i < t->n; i++)
		if ((uintptr_t)p - t->a[i].va < t->a[i].size)
			return &t->a[i];
	return NULL;
}

/* Remember @a, found in the map at generation @gen. */
static void seen_add(uint64_t gen, const struct acl_alloc *a)
{
	struct seen *t = t_seen;

	if (!t) {
		pthread_once(&seen_once, seen_key_init);
		t = calloc(1, sizeof(*t));
		if (!t || pthread_setspecific(seen_key, t)) {
			free(t);	/* no memory: no shortcut */
			return;
		}
		t_seen = t;
	}
	if (t->gen != gen) {
		t->gen = gen;
		t->n = 0;
		t->next = 0;
	}
	if (t->n < SEEN_MAX) {
		t->a[t->n++] = *a;
		return;
	}
	t->a[t->next] = *a;
	t->next = (t->next + 1) % SEEN_MAX;
}

/* addrmap_seen2() for one pointer: its allocation, or NULL. */
const struct acl_alloc *addrmap_seen(const void *p)
{
	return seen_find(p);
}

/*
 * Both @p and @q inside allocations this thread classified since the map
 * last changed: *@pa and *@qa point at this thread's copies (valid until
 * its next classification).  False: classify them.
 */
bool addrmap_seen2(const void *p, const struct acl_alloc **pa, const void *q,
		   const struct acl_alloc **qa)
{
	const struct seen *t = t_seen;
	unsigned int i, found = 0;

	if (!t || t->gen != __atomic_load_n(&m_gen, __ATOMIC_ACQUIRE))
		return false;
	*pa = *qa = NULL;
	for (i = 0; i < t->n && found != 3; i++) {
		const struct acl_alloc *a = &t->a[i];

		if (!(found & 1) && (uintptr_t)p - a->va < a->size) {
			*pa = a;
			found |= 1;
		}
		if (!(found & 2) && (uintptr_t)q - a->va < a->size) {
			*qa = a;
			found |= 2;
		}
	}
	return found == 3;
}

/* What class_of() says of @p inside seen allocation @a. */
static enum addr_class seen_class(const struct acl_alloc *a, struct acl_alloc *out)
{
	*out = *a;
	return a->kind == ALLOC_HOST ? ADDR_HOST : ADDR_DEVICE;
}

static int height(const struct node *n)
{
	return n ? n->height : 0;
}

static void update(struct node *n)
{
	int l = height(n->left), r = height(n->right);

	n->height = (l > r ? l : r) + 1;
}

static struct node *rotate_right(struct node *n)
{
	struct node *l = n->left;

	n->left = l->right;
	l->right = n;
	update(n);
	update(l);
	return l;
}

static struct node *rotate_left(struct node *n)
{
	struct node *r = n->right;

	n->right = r->left;
	r->left = n;
	update(n);
	update(r);
	return r;
}

/* Restore the AVL invariant at @n, whose subtrees are valid AVL trees
 * differing in height by at most 2. */
static struct node *balance(struct node *n)
{
	int bf;

	update(n);
	bf = height(n->left) - height(n->right);
	if (bf > 1) {
		if (height(n->left->left) < height(n->left->right))
			n->left = rotate_left(n->left);
		return rotate_right(n);
	}
	if (bf < -1) {
		if (height(n->right->right) < height(n->right->left))
			n->right = rotate_right(n->right);
		return rotate_left(n);
	}
	return n;
}

/*
 * The tree is walked with a stack of the links on the way down instead of
 * recursion: under an emulator every call and return costs a look-up, and
 * aclrtMalloc and aclrtFree each walk the tree once.  An AVL tree of n
 * nodes is less than 1.45 log2(n + 2) high, so 96 links hold any tree the
 * address space could hold (2^64 bytes of nodes).
 */
#define MAX_DEPTH	96

/* Insert @nn below *@root; *dup is set if its start address is already present. */
static inline ACL_HOT void insert(struct node **root, struct node *nn, bool *dup)
{
	struct node **path[MAX_DEPTH], **link = root;
	int depth = 0, h;

	while (*link) {
		struct node *n = *link;

		if (nn->a.va == n->a.va) {
			*dup = true;
			return;
		}
		path[depth++] = link;
		link = nn->a.va < n->a.va ? &n->left : &n->right;
	}
	*link = nn;
	/* back up: once a subtree keeps its height, those above it do too */
	while (depth--) {
		link = path[depth];
		h = (*link)->height;
		*link = balance(*link);
		if ((*link)->height == h)
			break;
	}
}

/*
 * Unlink the node starting at @va from below *@root and return it (NULL if
 * there is none, or if it has one of @hflags: then it stays).  A node with
 * two children is replaced by the leftmost node of its right subtree.
 */
static inline ACL_HOT struct node *remove_va(struct node **root, uintptr_t va,
					     uint32_t hflags)
{
	struct node **path[MAX_DEPTH], **link = root, **ml;
	struct node *n, *min;
	int depth = 0, slot;

	while ((n = *link) && n->a.va != va) {
		path[depth++] = link;
		link = va < n->a.va ? &n->left : &n->right;
	}
	if (!n || (n->a.hflags & hflags))
		return NULL;
	if (!n->left || !n->right) {
		*link = n->left ? n->left : n->right;
	} else {
		slot = depth;			/* the link that will hold min */
		path[depth++] = link;
		ml = &n->right;
		while ((*ml)->left) {
			path[depth++] = ml;
			ml = &(*ml)->left;
		}
		min = *ml;
		*ml = min->right;
		min->left = n->left;
		min->right = n->right;
		*link = min;
		/* the link below the slot was n's right one: min's now */
		if (depth > slot + 1)
			path[slot + 1] = &min->right;
	}
	while (depth--)
		*path[depth] = balance(*path[depth]);
	return n;
}

/* The node with the greatest start address <= @p, or NULL.  Read-locked. */
static const struct node *floor_node(uintptr_t p)
{
	const struct node *n = m_root, *best = NULL;

	while (n) {
		if (n->a.va <= p) {
			best = n;
			n = n->right;
		} else {
			n = n->left;
		}
	}
	return best;
}

/* Returns 0, or -1 when out of host memory or @a's start is already known. */
ACL_HOT int addrmap_insert(const struct acl_alloc *a)
{
	struct node *nn;
	bool dup = false;

	pthread_rwlock_wrlock(&m_lock);
	nn = m_spare;
	if (nn) {
		m_spare = nn->left;
		m_nspare--;
	} else {
		pthread_rwlock_unlock(&m_lock);
		nn = malloc(sizeof(*nn));
		if (!nn)
			return -1;
		pthread_rwlock_wrlock(&m_lock);
	}
	nn->left = nn->right = NULL;
	nn->a = *a;
	nn->height = 1;
	insert(&m_root, nn, &dup);
	if (!dup) {
		m_count++;
		changed();
	}
	pthread_rwlock_unlock(&m_lock);
	if (dup) {
		free(nn);
		return -1;
	}
	return 0;
}

/* Remove the allocation starting exactly at @va. */
bool addrmap_remove(uintptr_t va, struct acl_alloc *out)
{
	return addrmap_remove_unless(va, 0, out);
}

ACL_HOT void addrmap_wrlock(void)
{
	pthread_rwlock_wrlock(&m_lock);
}

ACL_HOT void addrmap_unlock(void)
{
	pthread_rwlock_unlock(&m_lock);
}

ACL_HOT bool addrmap_remove_unless_locked(uintptr_t va, uint32_t hflags,
					  struct acl_alloc *out)
{
	struct node *n = remove_va(&m_root, va, hflags);

	if (!n)
		return false;
	m_count--;
	changed();
	if (out)
		*out = n->a;
	if (m_nspare < MAX_SPARE) {	/* kept for the next insert */
		n->left = m_spare;
		m_spare = n;
		m_nspare++;
	} else {
		free(n);
	}
	return true;
}

bool addrmap_remove_unless(uintptr_t va, uint32_t hflags, struct acl_alloc *out)
{
	bool found;

	pthread_rwlock_wrlock(&m_lock);
	found = addrmap_remove_unless_locked(va, hflags, out);
	pthread_rwlock_unlock(&m_lock);
	return found;
}

/* The allocation that contains @p. */
bool addrmap_find(uintptr_t p, struct acl_alloc *out)
{
	const struct node *n;
	bool found;

	pthread_rwlock_rdlock(&m_lock);
	n = floor_node(p);
	found = n && p - n->a.va < n->a.size;
	if (found && out)
		*out = n->a;
	pthread_rwlock_unlock(&m_lock);
	return found;
}

/* The class of @p, whose floor node is @n; *@out is its allocation, if any. */
static enum addr_class class_of(const void *p, const struct node *n, struct acl_alloc *out)
{
	if (n && (uintptr_t)p - n->a.va < n->a.size) {
		*out = n->a;
		return n->a.kind == ALLOC_HOST ? ADDR_HOST : ADDR_DEVICE;
	}
	return dev_of_va(p) ? ADDR_DEVICE_UNALLOCATED : ADDR_PAGEABLE;
}

enum addr_class addrmap_classify(const void *p, struct acl_alloc *out)
{
	const struct acl_alloc *seen = seen_find(p);
	struct acl_alloc a;
	enum addr_class c;
	uint64_t gen;

	if (seen)
		return seen_class(seen, out ? out : &a);
	pthread_rwlock_rdlock(&m_lock);
	c = class_of(p, floor_node((uintptr_t)p), &a);
	gen = m_gen;
	pthread_rwlock_unlock(&m_lock);
	if (c == ADDR_DEVICE || c == ADDR_HOST) {
		seen_add(gen, &a);
		if (out)
			*out = a;
	}
	return c;
}

/*
 * addrmap_classify() of the two sides of a copy under one look at the map:
 * the synchronous copy's hot path.  *@pa / *@qa are filled for ADDR_DEVICE
 * and ADDR_HOST only.
 */
void addrmap_classify2(const void *p, enum addr_class *pc, struct acl_alloc *pa,
		       const void *q, enum addr_class *qc, struct acl_alloc *qa)
{
	const struct acl_alloc *sp = seen_find(p), *sq = sp ? seen_find(q) : NULL;
	const struct node *np, *nq;
	uint64_t gen;

	if (sq) {
		*pc = seen_class(sp, pa);
		*qc = seen_class(sq, qa);
		return;
	}
	pthread_rwlock_rdlock(&m_lock);
	np = floor_node((uintptr_t)p);
	nq = floor_node((uintptr_t)q);
	*pc = class_of(p, np, pa);
	*qc = class_of(q, nq, qa);
	gen = m_gen;
	pthread_rwlock_unlock(&m_lock);
	if (*pc == ADDR_DEVICE || *pc == ADDR_HOST)
		seen_add(gen, pa);
	if (*qc == ADDR_DEVICE || *qc == ADDR_HOST)
		seen_add(gen, qa);
}

size_t addrmap_count(void)
{
	size_t n;

	pthread_rwlock_rdlock(&m_lock);
	n = m_count;
	pthread_rwlock_unlock(&m_lock);
	return n;
}

/* In-order walk appending the device allocations of @dev_id to @list. */
static void collect(const struct node *n, int dev_id, struct acl_alloc *list, size_t *k)
{
	while (n) {
		collect(n->left, dev_id, list, k);
		if (n->a.kind == ALLOC_DEVICE && n->a.dev_id == dev_id)
			list[(*k)++] = n->a;
		n = n->right;
	}
}

/* Remove every device allocation of @dev_id; returns them in a malloc'd
 * array (*out NULL and 0 returned when there are none or no memory). */
size_t addrmap_take_device(int dev_id, struct acl_alloc **out)
{
	struct acl_alloc *list;
	struct node *n;
	size_t k = 0, i;

	*out = NULL;
	pthread_rwlock_wrlock(&m_lock);
	list = m_count ? malloc(m_count * sizeof(*list)) : NULL;
	if (list)
		collect(m_root, dev_id, list, &k);
	for (i = 0; i < k; i++) {
		n = remove_va(&m_root, list[i].va, 0);
		free(n);
		m_count--;
	}
	if (k)
		changed();
	pthread_rwlock_unlock(&m_lock);
	if (!k) {
		free(list);
		return 0;
	}
	*out = list;
	return k;
}

/* Some allocation overlaps [lo, lo + n) (n > 0).  Allocations never
 * overlap each other, so only the last one starting before lo + n can. */
bool addrmap_overlap(uintptr_t lo, size_t n, struct acl_alloc *out)
{
	const struct node *f;
	uintptr_t hi = n > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + n - 1;
	bool hit;

	pthread_rwlock_rdlock(&m_lock);
	f = floor_node(hi);
	hit = f && f->a.va + f->a.size > lo;
	if (hit && out) {
		/* Report the first overlapping one, for the message. */
		const struct node *g = floor_node(lo);

		*out = g && g->a.va + g->a.size > lo ? g->a : f->a;
	}
	pthread_rwlock_unlock(&m_lock);
	return hit;
}

/* In-order walk appending the host allocations of @dev_id to @list. */
static void collect_host(const struct node *n, int dev_id, struct acl_alloc *list, size_t *k)
{
	while (n) {
		collect_host(n->left, dev_id, list, k);
		if (n->a.kind == ALLOC_HOST && n->a.dev_id == dev_id &&
		    !(n->a.hflags & HOST_F_ORPHAN))
			list[(*k)++] = n->a;
		n = n->right;
	}
}

/* Find the node starting at @va (write-locked). */
static struct node *exact(uintptr_t va)
{
	struct node *n = m_root;

	while (n && n->a.va != va)
		n = va < n->a.va ? n->left : n->right;
	return n;
}

size_t addrmap_take_host(int dev_id, struct acl_alloc **out)
{
	struct acl_alloc *list;
	struct node *n;
	size_t k = 0, i;

	*out = NULL;
	pthread_rwlock_wrlock(&m_lock);
	list = m_count ? malloc(m_count * sizeof(*list)) : NULL;
	if (list)
		collect_host(m_root, dev_id, list, &k);
	for (i = 0; i < k; i++) {
		if (list[i].hflags & HOST_F_ALLOC) {
			/* The mapping stays until aclrtFreeHost. */
			n = exact(list[i].va);
			n->a.hflags |= HOST_F_ORPHAN;
			n->a.handle = 0;
			continue;
		}
		n = remove_va(&m_root, list[i].va, 0);
		free(n);
		m_count--;
	}
	if (k)
		changed();	/* removed or orphaned */
	pthread_rwlock_unlock(&m_lock);
	if (!k) {
		free(list);
		return 0;
	}
	*out = list;
	return k;
}
