// SPDX-License-Identifier: MIT
/*
 * handle.c - the set of live opaque handles this library gave out.
 *
 * CANN handles are bare pointers; a caller may pass a destroyed or made-up
 * one.  Every entry point checks the pointer against this set before
 * touching the object behind it.  Open addressing with tombstones; the
 * table grows when it is 1/2 full (counting tombstones).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TOMB ((const void *)1)

struct slot { const void *p; enum handle_type type; };

static pthread_mutex_t h_lock = PTHREAD_MUTEX_INITIALIZER; /* all below */
static struct slot *h_tab;
static size_t h_cap, h_used;	/* h_used counts live + tombstones */

static size_t hash(const void *p)
{
	uint64_t x = (uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

static struct slot *find(const void *p)
{
	size_t i;

	if (!h_cap)
		return NULL;
	for (i = hash(p) & (h_cap - 1); h_tab[i].p; i = (i + 1) & (h_cap - 1))
		if (h_tab[i].p == p)
			return &h_tab[i];
	return NULL;
}

static void put(struct slot *tab, size_t cap, const void *p, enum handle_type t)
{
	size_t i = hash(p) & (cap - 1);

	while (tab[i].p && tab[i].p != TOMB)
		i = (i + 1) & (cap - 1);
	tab[i].p = p;
	tab[i].type = t;
}

static bool grow(void)
{
	size_t cap = h_cap ? h_cap * 2 : 64, i, live = 0;
	struct slot *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return false;
	for (i = 0; i < h_cap; i++) {
		if (h_tab[i].p && h_tab[i].p != TOMB) {
			put(tab, cap, h_tab[i].p, h_tab[i].type);
			live++;
		}
	}
	free(h_tab);
	h_tab = tab;
	h_cap = cap;
	h_used = live;
	return true;
}

void handle_add(void *p, enum handle_type type)
{
	pthread_mutex_lock(&h_lock);
	if ((h_used + 1) * 2 > h_cap && !grow()) {
		pthread_mutex_unlock(&h_lock);
		return;	/* the handle will read as invalid: safe */
	}
	put(h_tab, h_cap, p, type);
	h_used++;
	pthread_mutex_unlock(&h_lock);
}

void handle_del(void *p)
{
	struct slot *s;

	pthread_mutex_lock(&h_lock);
	s = find(p);
	if (s)
		s->p = TOMB;
	pthread_mutex_unlock(&h_lock);
}

bool handle_ok(const void *p, enum handle_type type)
{
	struct slot *s;
	bool ok;

	if (!p || p == TOMB)
		return false;
	pthread_mutex_lock(&h_lock);
	s = find(p);
	ok = s && s->type == type;
	pthread_mutex_unlock(&h_lock);
	return ok;
}

/* Validate @p and take a reference on it (atomic increment of @refs) in one
 * step, so a concurrent handle_del() cannot free it in between. */
bool handle_get(const void *p, enum handle_type type, int *refs)
{
	struct slot *s;
	bool ok;

	if (!p || p == TOMB)
		return false;
	pthread_mutex_lock(&h_lock);
	s = find(p);
	ok = s && s->type == type;
	if (ok)
		__atomic_add_fetch(refs, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&h_lock);
	return ok;
}

/* Validate @p and copy its first @n bytes to @dst in one step: objects are
 * freed only after handle_del(), so they cannot go away in between. */
bool handle_copy(const void *p, enum handle_type type, void *dst, size_t n)
{
	struct slot *s;
	bool ok;

	if (!p || p == TOMB)
		return false;
	pthread_mutex_lock(&h_lock);
	s = find(p);
	ok = s && s->type == type;
	if (ok)
		memcpy(dst, p, n);
	pthread_mutex_unlock(&h_lock);
	return ok;
}
