// SPDX-License-Identifier: MIT
/*
 * addrmap.c - device VA -> allocation, for aclrtFree and pointer checks.
 *
 * A sorted array searched by bisection.  Allocations from one window tend
 * to come in rising VA order, so inserts are mostly appends.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static pthread_mutex_t m_lock = PTHREAD_MUTEX_INITIALIZER;	/* all below */
static struct acl_alloc *m_tab;
static size_t m_len, m_cap;

/* Index of the first entry with va > @p. */
static size_t upper(uintptr_t p)
{
	size_t lo = 0, hi = m_len, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m_tab[mid].va <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int addrmap_insert(const struct acl_alloc *a)
{
	struct acl_alloc *t;
	size_t i;

	pthread_mutex_lock(&m_lock);
	if (m_len == m_cap) {
		size_t cap = m_cap ? m_cap * 2 : 256;

		t = realloc(m_tab, cap * sizeof(*t));
		if (!t) {
			pthread_mutex_unlock(&m_lock);
			return -1;
		}
		m_tab = t;
		m_cap = cap;
	}
	i = upper(a->va);
	memmove(&m_tab[i + 1], &m_tab[i], (m_len - i) * sizeof(*m_tab));
	m_tab[i] = *a;
	m_len++;
	pthread_mutex_unlock(&m_lock);
	return 0;
}

/* Remove the allocation starting exactly at @va. */
bool addrmap_remove(uintptr_t va, struct acl_alloc *out)
{
	size_t i;
	bool found;

	pthread_mutex_lock(&m_lock);
	i = upper(va);
	found = i > 0 && m_tab[i - 1].va == va;
	if (found) {
		*out = m_tab[i - 1];
		memmove(&m_tab[i - 1], &m_tab[i], (m_len - i) * sizeof(*m_tab));
		m_len--;
	}
	pthread_mutex_unlock(&m_lock);
	return found;
}

/* The allocation that contains @p. */
bool addrmap_find(uintptr_t p, struct acl_alloc *out)
{
	size_t i;
	bool found;

	pthread_mutex_lock(&m_lock);
	i = upper(p);
	found = i > 0 && p - m_tab[i - 1].va < m_tab[i - 1].size;
	if (found)
		*out = m_tab[i - 1];
	pthread_mutex_unlock(&m_lock);
	return found;
}

/* Remove every allocation of @dev_id; returns them in a malloc'd array. */
size_t addrmap_take_device(int dev_id, struct acl_alloc **out)
{
	size_t i, j = 0, k = 0, n = 0;
	struct acl_alloc *list;

	pthread_mutex_lock(&m_lock);
	for (i = 0; i < m_len; i++)
		n += m_tab[i].dev_id == dev_id;
	list = n ? malloc(n * sizeof(*list)) : NULL;
	for (i = 0; i < m_len; i++) {
		if (m_tab[i].dev_id != dev_id)
			m_tab[j++] = m_tab[i];
		else if (list)
			list[k++] = m_tab[i];
	}
	m_len = j;
	pthread_mutex_unlock(&m_lock);
	*out = list;
	return list ? n : 0;
}
