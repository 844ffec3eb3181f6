// SPDX-License-Identifier: MIT
/*
 * stream_uses.c - which streams have commands naming an object (an event,
 * a notify's word), so that the object is freed only once they ran.  Per
 * stream the latest such command is kept, with a stream reference; the
 * owner's lock serialises every call on one set.
 */
#include <stdlib.h>

#include "internal.h"

bool stream_use_done(const struct stream_use *u)
{
	return __atomic_load_n(&u->s->dead, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&u->s->q.status->completed, __ATOMIC_ACQUIRE) >= u->seq;
}

void stream_uses_add(struct stream_uses *u, struct acl_stream *s, uint64_t seq)
{
	size_t i;

	for (i = 0; i < u->n; i++) {
		if (u->v[i].s == s) {
			u->v[i].seq = seq;
			return;
		}
	}
	/*
	 * Full: drop the finished uses, and grow unless that freed half, so
	 * that a look at every use's stream comes once per cap/2 adds at
	 * most (a look per add made n streams waiting on one event O(n^2),
	 * one status page each).
	 */
	if (u->n == u->cap) {
		for (i = 0; i < u->n;) {
			if (stream_use_done(&u->v[i])) {
				stream_put(u->v[i].s);
				u->v[i] = u->v[--u->n];
			} else {
				i++;
			}
		}
		if (!u->cap || u->n > u->cap / 2) {
			size_t cap = u->cap ? u->cap * 2 : 4;
			struct stream_use *v = realloc(u->v, cap * sizeof(*v));

			if (!v && u->n == u->cap)
				return;	/* worst case the object is freed early: a fault */
			if (v) {
				u->v = v;
				u->cap = cap;
			}
		}
	}
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
	u->v[u->n].s = s;
	u->v[u->n].seq = seq;
	u->n++;
}

bool stream_uses_idle(const struct stream_uses *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (!stream_use_done(&u->v[i]))
			return false;
	return true;
}

void stream_uses_drop(struct stream_uses *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		stream_put(u->v[i].s);
	u->n = 0;
}

void stream_uses_free(struct stream_uses *u)
{
	stream_uses_drop(u);
	free(u->v);
	u->v = NULL;
	u->cap = 0;
}
