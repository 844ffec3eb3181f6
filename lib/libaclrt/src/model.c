// SPDX-License-Identifier: MIT
/*
 * model.c - model run instances (aclmdlRI*): work recorded on streams,
 * replayed by the device, and labels (aclrtCreateLabel ...).
 *
 * Recording.  A stream bound to an instance (aclmdlRIBindStream) or being
 * captured (aclmdlRICaptureBegin, and every stream that waits for an event
 * recorded in the capture, which joins it) has @rec_m set: submit_locked()
 * hands its commands to mdl_record() instead of the ring.  A command is
 * recorded as it would have been submitted: its payload (kernel arguments,
 * addresses, fill patterns) is copied at capture time; what it points to
 * (device memory, memcpy descriptors, a SWITCH's selector) is read by the
 * device at every replay; a batch copy's entry table is copied to device
 * memory the instance owns (@mdl_own, memcpy_batch.c).  Event records and
 * waits (event.c) are recorded
 * apart: between two streams of one instance they become a word in the
 * instance's device memory that the record sets and the wait consumes
 * (WRITE_VALUE / WAIT_VALUE with reset); with ACL_EVENT_RECORD_EXTERNAL /
 * ACL_EVENT_WAIT_EXTERNAL, or a wait for an event recorded outside the
 * instance, they stay real event operations, issued at each replay.  Work
 * that cannot be replayed (copies staged through libaclrt's buffers, host
 * callbacks, a replay of another instance) fails with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT and invalidates the capture; a copy of
 * pageable memory fails with 107000 (mdl_pageable_check()), as in CANN.
 *
 * Task groups (aclmdlRICaptureTaskGrp*) name a run of kernel items of a
 * capture; a task update records a stream into a collector instance
 * (@collector) and swaps the group's commands for the collected ones.
 *
 * Building.  aclmdlRIBuildEnd / aclmdlRICaptureEnd expand each stream's
 * record into a command list in device memory (ASCEND_CMD_CALL, uAPI
 * "Command lists"), cut where an external event operation sits.  Stream 0
 * (the captured or first bound stream) runs on the stream given to
 * aclmdlRIExecuteAsync; its list first sets a start word for every other
 * stream and ends waiting for their done words, and theirs start waiting
 * for the start word and end setting the done word, so the streams'
 * dependencies stay on the device.  A replay is one CALL per stream (plus
 * one ring command per external event operation).  The other streams run
 * on their bound streams (build) or on streams the instance creates
 * (capture).  Labels are list indices: aclrtSwitchLabelByIndex becomes a
 * SWITCH whose table (the label list's device memory) is filled at build
 * time; a label must be set on the stream of the switches that use it.
 *
 * Capture modes.  While a capture is active, the calls CANN calls unsafe
 * (synchronous copies and memsets, and asynchronous copies it would turn
 * into synchronous ones: pageable host memory) are refused with
 * ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT (or _BLOCK_ASYNC) according to
 * three modes: the device's (the strictest of its active captures), the
 * thread's (the strictest of the captures it began) and the thread's
 * exchange mode (aclmdlRICaptureThreadExchangeMode, GLOBAL until set).
 * CANN keeps the first per context; here it is per device.
 *
 * Locking: mdl_lock protects every instance's recording state, the event
 * records of captures, the list of active captures and each stream's
 * rec_m / rec_i (written under it only, read with atomic loads); it nests
 * inside a stream's lock (a submission holds that in mdl_record()), so
 * nothing under mdl_lock takes a stream's lock.  mdl_record() reads the
 * stream's state again under mdl_lock: a recording that stopped meanwhile
 * sends the command to the ring (MDL_NOT_RECORDING).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

ACL_TLS_HOT const char *mdl_norec;
__thread void *mdl_own;
int mdl_recording;		/* streams recording (__atomic) */
static int mdl_capturing;	/* active captures (__atomic): the fast path */
static __thread aclmdlRICaptureMode mdl_xmode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

static pthread_mutex_t mdl_lock = PTHREAD_MUTEX_INITIALIZER;

enum item_kind { IT_CMD, IT_SIGNAL, IT_WAITW, IT_EXT_RECORD, IT_EXT_WAIT, IT_LABEL, IT_SWITCH,
		 IT_COND, IT_HOSTFUNC };

struct mdl_item {
	enum item_kind kind;
	struct ascend_cmd cmd;		/* IT_CMD; IT_SWITCH: all but the table */
	void *obj;			/* event, label, label list or struct mdl_cond */
	aclrtHostFunc fn;		/* IT_HOSTFUNC, with its argument */
	void *arg;
	uint32_t *words;		/* IT_SIGNAL: words to set; IT_WAITW: [0] */
	uint32_t nw;
	uint32_t at;			/* IT_CMD: its index in the lists, built */
	bool dirty;			/* IT_CMD: changed, not yet in the list */
	bool disabled;			/* IT_CMD: aclmdlRITaskDisable: a NOP */
};

/* aclmdlRITask: a recorded task of a built instance. */
struct mdl_task {
	struct acl_model *m;
	unsigned int si;
	size_t item;
};

/* One step of a stream's replay. */
struct mdl_step {
	enum item_kind kind;		/* IT_CMD: a CALL; else IT_EXT_*, IT_HOSTFUNC */
	uint64_t list;
	uint32_t count;
	void *event;
	aclrtHostFunc fn;
	void *arg;
};

struct mdl_stream {
	aclrtStream h;			/* bound or captured stream */
	bool recording;
	struct mdl_item *it;
	size_t n, cap;
	aclrtStream run;		/* where it replays (stream 0: the caller's) */
	bool own_run;
	struct mdl_step *steps;
	size_t nsteps;
	struct mdl_task *tasks;		/* one per IT_CMD item, built */
	size_t ntasks;
};

struct acl_model {
	int dev_id;
	uint32_t id;
	bool built, capture, invalid;
	aclmdlRICaptureMode mode;
	struct mdl_stream *st;
	unsigned int ns;
	uint32_t nwords;
	void *mem;			/* words, then the lists */
	size_t words_sz;		/* bytes before the lists */
	struct acl_model *next;		/* built instances, under mdl_lock */
	char name[128];
	aclrtStream exec_own;		/* aclmdlRIExecute's stream */
	struct stream_uses uses;	/* replays submitted (under mdl_lock) */
	pthread_t thread;		/* capture: the thread that began it */
	bool in_caps;			/* capture: on the active list */
	struct acl_model *cap_next;	/* active captures, under mdl_lock */
	struct mdl_cb *cbs;		/* aclmdlRIDestroyRegisterCallback */
	size_t ncbs;
	struct mdl_grp *grps;		/* task groups, under mdl_lock */
	bool collector;			/* a task update's recording, no instance */
	/* conditional tasks: bodies are sub-instances of the root instance */
	struct acl_model *parent;	/* a body: its root instance */
	bool body_done;			/* a body: captured (aclmdlRICaptureEnd) */
	void **owned;			/* device memory recorded commands read */
	size_t nowned;
	struct mdl_condh *condhs;	/* root: condition handles */
	struct mdl_cond *conds;		/* root: conditional tasks, bodies' too */
	/* serialises replays; the stream of the latest and an event to order
	 * the next one behind it when it comes on another stream */
	pthread_mutex_t exec_lock;
	bool ran;			/* @last_run is set (NULL: default stream) */
	aclrtStream last_run;
	aclrtEvent order_ev;
};

/* aclmdlRICondHandle: a 64-bit condition in device memory. */
struct mdl_condh {
	struct mdl_condh *next;
	struct acl_model *root;
	uint64_t *dptr;
	uint32_t def;
	bool assign;			/* ASSIGN_DEFAULT: set at each replay's start */
};

/*
 * A conditional task: a SWITCH on the condition, with the bodies inlined
 * after it (if: [skip or else, then]; while: [leave, body] and a JUMP
 * back; switch: [body 0 .. n-1, leave]).
 */
struct mdl_cond {
	struct mdl_cond *next;		/* the root's conditional tasks */
	aclmdlRICondTaskType type;
	struct mdl_condh *h;
	uint32_t n;			/* bodies */
	struct acl_model **body;
	uint32_t tword;			/* the table's first word, built */
	uint32_t count;			/* table entries */
	uint32_t *table;		/* list indices, built */
};

/*
 * aclrtTaskGrp: kernel tasks recorded between aclmdlRICaptureTaskGrpBegin
 * and _End on one stream of a capture, which aclmdlRICaptureTaskUpdate*
 * may later rewrite.
 */
struct mdl_grp {
	struct mdl_grp *next;		/* the instance's groups */
	struct acl_model *m;
	unsigned int si;
	size_t first, count;		/* items of stream @si */
	bool updating;			/* a stream is in its update now */
};

/* A stream in a task group's recording (SAMPLE) or update (UPDATE). */
struct grp_state {
	struct grp_state *next;
	aclrtStream h;
	bool update;
	struct mdl_grp *g;		/* SAMPLE: the open group */
	struct acl_model *coll;		/* UPDATE: what the stream recorded */
};

struct mdl_cb {
	aclrtCallback fn;
	void *data;
};

struct acl_label {
	struct acl_model *m;		/* set on: none yet */
	unsigned int si;
	uint32_t pos;			/* list index, after build */
	size_t item;
};

struct acl_label_list {
	size_t n;
	struct acl_label **l;
	uint32_t *table;		/* device memory, n entries */
};

/* Events recorded in a capture: the record item to extend with words. */
struct cap_rec {
	void *event;
	struct acl_model *m;
	unsigned int si;
	size_t item;
};
static struct acl_model *built_models;
static struct acl_model *active_caps;
static struct grp_state *grp_states;	/* under mdl_lock */
static struct cap_rec *cap_recs;
static size_t ncap_recs, cap_cap;
static uint32_t next_id = 1;

static bool grow(void **v, size_t *cap, size_t n, size_t sz)
{
	size_t c = *cap ? *cap * 2 : 16;
	void *p;

	if (n < *cap)
		return true;
	p = realloc(*v, c * sz);
	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

static struct mdl_item *item_add(struct mdl_stream *ms, enum item_kind kind)
{
	struct mdl_item *it;

	if (!grow((void **)&ms->it, &ms->cap, ms->n, sizeof(*ms->it)))
		return NULL;
	it = &ms->it[ms->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	return it;
}

static aclError no_mem(void)
{
	return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory for the model run instance");
}

/*
 * Start or stop recording @s into stream @si of @m (mdl_lock held).  Not
 * under the stream's lock: submissions hold that lock while they wait for
 * mdl_lock in mdl_record(), which reads the state again under mdl_lock.
 */
static void set_rec(struct acl_stream *s, struct acl_model *m, unsigned int si)
{
	struct acl_model *old = __atomic_load_n(&s->rec_m, __ATOMIC_RELAXED);

	if (!old && m)
		__atomic_add_fetch(&mdl_recording, 1, __ATOMIC_SEQ_CST);
	else if (old && !m)
		__atomic_sub_fetch(&mdl_recording, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&s->rec_i, si, __ATOMIC_RELAXED);
	__atomic_store_n(&s->rec_m, m, __ATOMIC_RELEASE);
}

static aclError stream_add(struct acl_model *m, aclrtStream h, unsigned int *si)
{
	struct mdl_stream *v = realloc(m->st, (m->ns + 1) * sizeof(*v));

	if (!v)
		return no_mem();
	m->st = v;
	memset(&v[m->ns], 0, sizeof(v[0]));
	v[m->ns].h = h;
	v[m->ns].recording = true;
	*si = m->ns++;
	return ACL_SUCCESS;
}

static void stop_all(struct acl_model *m)
{
	struct acl_stream *s;
	unsigned int i;

	for (i = 0; i < m->ns; i++) {
		if (!m->st[i].recording)
			continue;
		m->st[i].recording = false;
		if (stream_ref(m->st[i].h, &s) == ACL_SUCCESS) {
			set_rec(s, NULL, 0);
			stream_put(s);
		}
	}
}

static void cap_recs_drop(struct acl_model *m)
{
	size_t i, j = 0;

	for (i = 0; i < ncap_recs; i++)
		if (cap_recs[i].m != m)
			cap_recs[j++] = cap_recs[i];
	ncap_recs = j;
}

/* A task update's collector: one stream's items, nothing built. */
static void collector_free(struct acl_model *coll)
{
	size_t i;

	for (i = 0; i < coll->st[0].n; i++)
		free(coll->st[0].it[i].words);
	free(coll->st[0].it);
	free(coll->st);
	free(coll);
}

/*
 * Forget the open groups of @m's capture and end the updates of its groups
 * (their streams run their work again); mdl_lock held.
 */
static void grp_states_drop(struct acl_model *m)
{
	struct grp_state **pp = &grp_states, *st;
	struct acl_stream *s;

	while ((st = *pp)) {
		if (st->g->m != m) {
			pp = &st->next;
			continue;
		}
		*pp = st->next;
		if (st->update) {
			if (stream_ref(st->h, &s) == ACL_SUCCESS) {
				set_rec(s, NULL, 0);
				stream_put(s);
			}
			collector_free(st->coll);
		} else {
			free(st->g);
		}
		free(st);
	}
}

/* @m's capture is active from now on (mdl_lock held). */
static void cap_enter(struct acl_model *m)
{
	m->thread = pthread_self();
	m->in_caps = true;
	m->cap_next = active_caps;
	active_caps = m;
	__atomic_add_fetch(&mdl_capturing, 1, __ATOMIC_SEQ_CST);
}

/* @m's capture ended or is gone (mdl_lock held); idempotent. */
static void cap_leave(struct acl_model *m)
{
	struct acl_model **pp;

	if (!m->in_caps)
		return;
	for (pp = &active_caps; *pp; pp = &(*pp)->cap_next)
		if (*pp == m) {
			*pp = m->cap_next;
			break;
		}
	m->in_caps = false;
	__atomic_sub_fetch(&mdl_capturing, 1, __ATOMIC_SEQ_CST);
}

static const char *mode_name(aclmdlRICaptureMode mode)
{
	switch (mode) {
	case ACL_MODEL_RI_CAPTURE_MODE_GLOBAL:		return "GLOBAL";
	case ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL:	return "THREAD_LOCAL";
	case ACL_MODEL_RI_CAPTURE_MODE_RELAXED:		return "RELAXED";
	default:					return "none";
	}
}

/*
 * May this thread make an unsafe call (@what) on the current device now?
 * GLOBAL < THREAD_LOCAL < RELAXED < none (3): the strictest wins.
 */
aclError mdl_mode_check(const char *what, aclError code)
{
	aclmdlRICaptureMode dev_mode = 3, thr_mode = 3, x = mdl_xmode;
	struct acl_model *m;
	pthread_t self;
	bool ok = true;
	int dev;

	if (!__atomic_load_n(&mdl_capturing, __ATOMIC_SEQ_CST))
		return ACL_SUCCESS;
	dev = dev_current();
	self = pthread_self();
	pthread_mutex_lock(&mdl_lock);
	for (m = active_caps; m; m = m->cap_next) {
		if (m->dev_id == dev && m->mode < dev_mode)
			dev_mode = m->mode;
		if (pthread_equal(m->thread, self) && m->mode < thr_mode)
			thr_mode = m->mode;
	}
	pthread_mutex_unlock(&mdl_lock);
	if (dev_mode == 3 || x == ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return ACL_SUCCESS;
	if (x == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
		ok = dev_mode != ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
		     thr_mode != ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
	else
		ok = thr_mode != ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
		     thr_mode != ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
	if (ok)
		return ACL_SUCCESS;
	return acl_err(code,
		       "%s is not allowed while a capture is active: the device's capture mode is %s, this thread's %s, its exchange mode %s (aclmdlRICaptureThreadExchangeMode with RELAXED allows it)",
		       what, mode_name(dev_mode), mode_name(thr_mode), mode_name(x));
}

/*
 * An asynchronous copy of pageable host memory on @s: CANN makes it a
 * synchronous copy, which a recording stream cannot record (107000) and
 * the capture modes may forbid (107041).
 */
aclError mdl_pageable_check(struct acl_stream *s, const char *what)
{
	bool rec;

	if (!__atomic_load_n(&mdl_recording, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&mdl_capturing, __ATOMIC_SEQ_CST))
		return ACL_SUCCESS;
	rec = __atomic_load_n(&s->rec_m, __ATOMIC_ACQUIRE) != NULL;
	if (rec)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s of pageable host memory cannot be recorded into a model run instance: pin it (aclrtMallocHost, aclrtHostRegister)",
			       what);
	return mdl_mode_check(what, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
	aclmdlRICaptureMode old;

	API_ENTER();
	if (!mode)
		return acl_err(ACL_ERROR_INVALID_PARAM, "mode is NULL");
	if ((unsigned int)*mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "capture mode %d is not an aclmdlRICaptureMode",
			       (int)*mode);
	old = mdl_xmode;
	mdl_xmode = *mode;
	*mode = old;
	return ACL_SUCCESS;
}

/* The task group state of stream @h (mdl_lock held), or NULL. */
static struct grp_state *grp_state_of(aclrtStream h)
{
	struct grp_state *g;

	for (g = grp_states; g; g = g->next)
		if (g->h == h)
			return g;
	return NULL;
}

/* Is @s recording a group or an update (mdl_lock held)? */
static struct grp_state *grp_of(struct acl_stream *s, struct grp_state ***pp)
{
	struct grp_state **p;

	for (p = &grp_states; *p; p = &(*p)->next)
		if ((*p)->h == (aclrtStream)s || ((*p)->h == NULL && s->is_default)) {
			if (pp)
				*pp = p;
			return *p;
		}
	return NULL;
}

/* Called by submit_locked() for a recording stream (its lock held). */
aclError mdl_record(struct acl_stream *s, const void *a, size_t alen, const void *b, size_t blen)
{
	struct ascend_cmd cmd;
	struct acl_model *m;
	struct mdl_item *it;
	aclError ret = ACL_SUCCESS;
	unsigned int si;

	memset(&cmd, 0, sizeof(cmd));
	memcpy(&cmd, a, alen);
	if (blen)
		memcpy((char *)&cmd + alen, b, blen);
	pthread_mutex_lock(&mdl_lock);
	/* the recording may have stopped (and its instance gone) meanwhile */
	m = __atomic_load_n(&s->rec_m, __ATOMIC_ACQUIRE);
	si = __atomic_load_n(&s->rec_i, __ATOMIC_RELAXED);
	if (!m) {
		pthread_mutex_unlock(&mdl_lock);
		return MDL_NOT_RECORDING;
	}
	if (m->invalid) {
		ret = acl_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
			      "the capture into model run instance %u was invalidated by an earlier task that cannot be recorded",
			      m->id);
	} else if (mdl_norec || cmd.opcode == ASCEND_CMD_EVENT_RECORD ||
		   cmd.opcode == ASCEND_CMD_EVENT_WAIT || cmd.opcode == ASCEND_CMD_CALL) {
		m->invalid = m->capture;
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "%s cannot be recorded into model run instance %u%s",
			      mdl_norec ? mdl_norec :
			      cmd.opcode == ASCEND_CMD_CALL ? "a model replay" : "a host callback",
			      m->id, m->capture ? "; the capture is invalidated" : "");
	} else if (cmd.opcode != ASCEND_CMD_LAUNCH && grp_states && grp_of(s, NULL)) {
		ret = acl_err(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
			      "only kernel launches can be %s a task group (opcode %u)",
			      m->collector ? "the update of" : "recorded in", cmd.opcode);
	} else {
		void **o = mdl_own ? realloc(m->owned, (m->nowned + 1) * sizeof(*o)) : NULL;

		if (o)
			m->owned = o;
		it = !mdl_own || o ? item_add(&m->st[si], IT_CMD) : NULL;
		if (it) {
			it->cmd = cmd;
			if (mdl_own) {	/* the instance frees it */
				m->owned[m->nowned++] = mdl_own;
				mdl_own = NULL;
			}
		} else {
			ret = no_mem();
		}
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

bool mdl_stream_records(struct acl_stream *s)
{
	return __atomic_load_n(&mdl_recording, __ATOMIC_SEQ_CST) &&
	       __atomic_load_n(&s->rec_m, __ATOMIC_ACQUIRE);
}

/* The recording stream @h belongs to, and its index (mdl_lock held). */
static struct acl_model *rec_of(aclrtStream h, unsigned int *si)
{
	struct acl_stream *s;
	struct acl_model *m = NULL;

	if (!__atomic_load_n(&mdl_recording, __ATOMIC_SEQ_CST) || stream_ref(h, &s))
		return NULL;
	/* written under mdl_lock, which the caller holds */
	m = __atomic_load_n(&s->rec_m, __ATOMIC_ACQUIRE);
	*si = __atomic_load_n(&s->rec_i, __ATOMIC_RELAXED);
	stream_put(s);
	return m;
}

static struct cap_rec *cap_find(void *event)
{
	size_t i;

	for (i = ncap_recs; i-- > 0;)
		if (cap_recs[i].event == event)
			return &cap_recs[i];
	return NULL;
}

/* A task update takes kernel launches only (CANN: 507009). */
static aclError collector_refuses(const char *what)
{
	return acl_err(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
		       "%s cannot be part of a task update: only kernel launches replace a group's tasks",
		       what);
}

bool mdl_event_record(aclrtEvent event, aclrtStream stream, bool external, aclError *ret)
{
	struct acl_model *m;
	struct mdl_item *it;
	struct cap_rec *r;
	unsigned int si;

	if (!__atomic_load_n(&mdl_recording, __ATOMIC_SEQ_CST))
		return false;
	pthread_mutex_lock(&mdl_lock);
	m = rec_of(stream, &si);
	if (!m) {
		pthread_mutex_unlock(&mdl_lock);
		return false;
	}
	if (m->collector) {
		pthread_mutex_unlock(&mdl_lock);
		*ret = collector_refuses("an event record");
		return true;
	}
	it = item_add(&m->st[si], external ? IT_EXT_RECORD : IT_SIGNAL);
	if (!it) {
		*ret = no_mem();
	} else {
		it->obj = event;
		*ret = ACL_SUCCESS;
		if (!external) {
			r = cap_find(event);
			if (!r && grow((void **)&cap_recs, &cap_cap, ncap_recs, sizeof(*r)))
				r = &cap_recs[ncap_recs++];
			if (r)
				*r = (struct cap_rec){ event, m, si, m->st[si].n - 1 };
			else
				*ret = no_mem();
		}
	}
	pthread_mutex_unlock(&mdl_lock);
	return true;
}

/*
 * A host function launched on a recording stream: recorded, and launched
 * on the replaying stream at each replay (true: handled, *@ret).
 */
bool mdl_hostfunc(aclrtStream stream, aclrtHostFunc fn, void *args, aclError *ret)
{
	struct acl_model *m;
	struct mdl_item *it;
	unsigned int si;

	if (!__atomic_load_n(&mdl_recording, __ATOMIC_SEQ_CST))
		return false;
	pthread_mutex_lock(&mdl_lock);
	m = rec_of(stream, &si);
	if (!m) {
		pthread_mutex_unlock(&mdl_lock);
		return false;
	}
	if (m->invalid) {
		*ret = acl_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
			       "the capture into model run instance %u was invalidated by an earlier task that cannot be recorded",
			       m->id);
	} else if (grp_states && grp_state_of(stream)) {
		*ret = acl_err(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
			       "only kernel launches can be in a task group or its update (a host function)");
	} else {
		it = item_add(&m->st[si], IT_HOSTFUNC);
		if (it) {
			it->fn = fn;
			it->arg = args;
			*ret = ACL_SUCCESS;
		} else {
			*ret = no_mem();
		}
	}
	pthread_mutex_unlock(&mdl_lock);
	return true;
}

bool mdl_event_wait(aclrtStream stream, aclrtEvent event, bool external, aclError *ret)
{
	struct acl_stream *s;
	struct acl_model *m;
	struct mdl_item *it, *rit;
	struct cap_rec *r;
	unsigned int si;
	uint32_t *w;

	if (!__atomic_load_n(&mdl_recording, __ATOMIC_SEQ_CST))
		return false;
	pthread_mutex_lock(&mdl_lock);
	m = rec_of(stream, &si);
	if (m && m->collector) {
		pthread_mutex_unlock(&mdl_lock);
		*ret = collector_refuses("an event wait");
		return true;
	}
	r = external ? NULL : cap_find(event);
	if (!m && r && r->m->capture && !r->m->built) {
		/* a wait for a captured record: the stream joins the capture */
		m = r->m;
		*ret = stream_ref(stream, &s);
		if (!*ret) {
			*ret = stream_add(m, stream, &si);
			if (!*ret)
				set_rec(s, m, si);
			stream_put(s);
		}
		if (*ret) {
			pthread_mutex_unlock(&mdl_lock);
			return true;
		}
	}
	if (!m) {
		pthread_mutex_unlock(&mdl_lock);
		return false;
	}
	*ret = ACL_SUCCESS;
	if (r && r->m == m) {
		rit = &m->st[r->si].it[r->item];
		w = realloc(rit->words, (rit->nw + 1) * sizeof(*w));
		it = w ? item_add(&m->st[si], IT_WAITW) : NULL;
		if (w)
			rit->words = w;
		if (it) {
			it->words = malloc(sizeof(*it->words));
			if (it->words) {
				it->words[0] = m->nwords++;
				it->nw = 1;
				w[rit->nw++] = it->words[0];
			} else {
				m->st[si].n--;
			}
		}
		if (!it || !it->words)
			*ret = no_mem();
	} else {
		it = item_add(&m->st[si], IT_EXT_WAIT);
		if (it)
			it->obj = event;
		else
			*ret = no_mem();
	}
	pthread_mutex_unlock(&mdl_lock);
	return true;
}

/* ------------------------------------------------------------------------ */
/* Building */

struct cmdvec {
	struct ascend_cmd *v;
	size_t n, cap;
};

static bool push(struct cmdvec *c, const struct ascend_cmd *cmd)
{
	if (!grow((void **)&c->v, &c->cap, c->n, sizeof(*c->v)))
		return false;
	c->v[c->n++] = *cmd;
	return true;
}

static uint64_t word_va(struct acl_model *m, uint32_t w)
{
	return (uintptr_t)m->mem + (uint64_t)w * 8;
}

static bool push_value(struct cmdvec *c, struct acl_model *m, uint32_t w, bool wait)
{
	struct ascend_cmd cmd = { .opcode = wait ? ASCEND_CMD_WAIT_VALUE : ASCEND_CMD_WRITE_VALUE };

	cmd.value.addr = word_va(m, w);
	cmd.value.value = 1;
	if (wait)
		cmd.value.cond = ASCEND_WAIT_VALUE_EQ | ASCEND_WAIT_VALUE_RESET |
				 ASCEND_WAIT_VALUE_OWN_LIMIT;
	return push(c, &cmd);
}

static bool step_add(struct mdl_stream *ms, const struct mdl_step *st)
{
	struct mdl_step *v = realloc(ms->steps, (ms->nsteps + 1) * sizeof(*v));

	if (!v)
		return false;
	ms->steps = v;
	v[ms->nsteps++] = *st;
	return true;
}

static bool push_jump(struct cmdvec *c, uint32_t target)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_JUMP };

	cmd.jump.target = target;
	return push(c, &cmd);
}

static aclError expand_cond(struct acl_model *m, struct mdl_cond *cd, struct cmdvec *c,
			    size_t seg, unsigned int depth);

/*
 * The items of body @b inlined into @c (list indices from @seg): device
 * tasks and conditional tasks only.
 */
static aclError expand_body(struct acl_model *m, struct acl_model *b, struct cmdvec *c,
			    size_t seg, unsigned int depth)
{
	struct mdl_item *it;
	aclError ret;
	size_t j;

	if (!b->body_done)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "a body of a conditional task of model run instance %u was never captured (aclmdlRICaptureToModelRIBegin ... aclmdlRICaptureEnd)",
			       m->id);
	if (b->ns > 1)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "a body of a conditional task of model run instance %u spans %u streams: bodies are captured on one stream",
			       m->id, b->ns);
	for (j = 0; b->ns && j < b->st[0].n; j++) {
		it = &b->st[0].it[j];
		if (it->kind == IT_CMD) {
			it->at = (uint32_t)c->n;
			if (!push(c, &it->cmd))
				return no_mem();
		} else if (it->kind == IT_COND) {
			ret = expand_cond(m, it->obj, c, seg, depth + 1);
			if (ret)
				return ret;
		} else {
			return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				       "a body of a conditional task of model run instance %u holds an event or label task: bodies hold device tasks and conditional tasks only",
				       m->id);
		}
	}
	return ACL_SUCCESS;
}

/* Conditional task @cd at the end of @c (see struct mdl_cond). */
static aclError expand_cond(struct acl_model *m, struct mdl_cond *cd, struct cmdvec *c,
			    size_t seg, unsigned int depth)
{
	struct ascend_cmd sw = { .opcode = ASCEND_CMD_SWITCH };
	uint32_t top = (uint32_t)(c->n - seg), i;
	size_t *jumps;
	aclError ret = ACL_SUCCESS;

	if (depth > 16)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "conditional tasks of model run instance %u nest deeper than 16", m->id);
	sw.label_switch.value = (uintptr_t)cd->h->dptr;
	sw.label_switch.table = word_va(m, cd->tword);
	sw.label_switch.count = cd->count;
	sw.label_switch.value_size = 8;
	if (!push(c, &sw))
		return no_mem();
	jumps = calloc(cd->n, sizeof(*jumps));
	if (!jumps)
		return no_mem();
	switch (cd->type) {
	case ACL_MODEL_RI_COND_TYPE_IF:
		/* [else or leave, then]: the else body first, then the then body */
		if (cd->n == 2) {
			cd->table[0] = (uint32_t)(c->n - seg);
			ret = expand_body(m, cd->body[1], c, seg, depth);
			jumps[0] = c->n;
			if (!ret && !push_jump(c, 0))
				ret = no_mem();
		}
		cd->table[1] = (uint32_t)(c->n - seg);
		if (!ret)
			ret = expand_body(m, cd->body[0], c, seg, depth);
		if (cd->n == 1)
			cd->table[0] = (uint32_t)(c->n - seg);
		break;
	case ACL_MODEL_RI_COND_TYPE_WHILE:
		cd->table[1] = (uint32_t)(c->n - seg);
		ret = expand_body(m, cd->body[0], c, seg, depth);
		if (!ret && !push_jump(c, top))
			ret = no_mem();
		cd->table[0] = (uint32_t)(c->n - seg);
		break;
	default:
		for (i = 0; i < cd->n && !ret; i++) {
			cd->table[i] = (uint32_t)(c->n - seg);
			ret = expand_body(m, cd->body[i], c, seg, depth);
			jumps[i] = c->n;
			if (!ret && i + 1 < cd->n && !push_jump(c, 0))
				ret = no_mem();
		}
		cd->table[cd->n] = (uint32_t)(c->n - seg);
		break;
	}
	/* the jumps out of the bodies go past the last one */
	for (i = 0; !ret && i < cd->n; i++)
		if (jumps[i] && jumps[i] < c->n &&
		    c->v[jumps[i]].opcode == ASCEND_CMD_JUMP &&
		    cd->type != ACL_MODEL_RI_COND_TYPE_WHILE)
			c->v[jumps[i]].jump.target = (uint32_t)(c->n - seg);
	free(jumps);
	return ret;
}

/* Stream @i's commands into @c, its steps (list offsets) into ms->steps. */
static aclError expand(struct acl_model *m, unsigned int i, struct cmdvec *c, bool *labels)
{
	struct mdl_stream *ms = &m->st[i];
	size_t seg = c->n, j, k;
	struct mdl_step st;
	bool ext = false;
	unsigned int o;
	struct mdl_item *it;
	aclError ret;
	bool ok = true;

	/* each replay starts with the conditions that take a default */
	if (i == 0)
		for (struct mdl_condh *h = m->condhs; h && ok; h = h->next) {
			struct ascend_cmd w = { .opcode = ASCEND_CMD_WRITE_VALUE };

			if (!h->assign)
				continue;
			w.value.addr = (uintptr_t)h->dptr;
			w.value.value = h->def;
			ok = push(c, &w);
		}
	/* words 0 .. 2 * (ns - 1): start and done of streams 1 .. ns-1 */
	if (i == 0)
		for (o = 1; o < m->ns && ok; o++)
			ok = push_value(c, m, 2 * (o - 1), false);
	else
		ok = push_value(c, m, 2 * (i - 1), true);
	for (j = 0; j < ms->n && ok; j++) {
		it = &ms->it[j];
		switch (it->kind) {
		case IT_CMD:
			it->at = (uint32_t)c->n;
			ok = push(c, &it->cmd);
			break;
		case IT_SIGNAL:
			for (k = 0; k < it->nw && ok; k++)
				ok = push_value(c, m, it->words[k], false);
			break;
		case IT_WAITW:
			ok = push_value(c, m, it->words[0], true);
			break;
		case IT_LABEL:
			((struct acl_label *)it->obj)->pos = (uint32_t)(c->n - seg);
			*labels = true;
			break;
		case IT_SWITCH:
			ok = push(c, &it->cmd);
			*labels = true;
			break;
		case IT_COND:
			/* its jumps are list indices: like labels, no cut */
			*labels = true;
			ret = expand_cond(m, it->obj, c, seg, 0);
			if (ret)
				return ret;
			break;
		case IT_EXT_RECORD:
		case IT_EXT_WAIT:
		case IT_HOSTFUNC:
			/* done by the host at each replay: the list is cut here */
			ext = true;
			if (c->n > seg) {
				st = (struct mdl_step){ .kind = IT_CMD, .list = seg, .count = (uint32_t)(c->n - seg) };
				ok = step_add(ms, &st);
				seg = c->n;
			}
			st = (struct mdl_step){ it->kind, 0, 0, it->obj, it->fn, it->arg };
			ok = ok && step_add(ms, &st);
			break;
		}
	}
	if (i == 0)
		for (o = 1; o < m->ns && ok; o++)
			ok = push_value(c, m, 2 * (o - 1) + 1, true);
	else if (ok)
		ok = push_value(c, m, 2 * (i - 1) + 1, false);
	if (ok && c->n > seg) {
		st = (struct mdl_step){ .kind = IT_CMD, .list = seg, .count = (uint32_t)(c->n - seg) };
		ok = step_add(ms, &st);
	}
	if (!ok)
		return no_mem();
	if (ext && *labels)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "stream %u of model run instance %u has both labels or conditional tasks and external event or host function tasks: not supported together",
			       i, m->id);
	for (j = 0; j < ms->nsteps; j++)
		if (ms->steps[j].kind == IT_CMD && ms->steps[j].count > ASCEND_CALL_MAX_CMDS)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "stream %u of model run instance %u has %u device tasks between two external event tasks: at most %u",
				       i, m->id, ms->steps[j].count, ASCEND_CALL_MAX_CMDS);
	return ACL_SUCCESS;
}

/* The library's own copy into an instance's memory: no capture mode applies. */
aclError mdl_copy_h2d(void *dst, const void *src, size_t n)
{
	const char *api = acl_api_name;
	aclmdlRICaptureMode x = mdl_xmode;
	aclError ret;

	mdl_xmode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	ret = aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE);
	mdl_xmode = x;
	acl_api_name = api;
	return ret;
}

/* Fill the label tables of @m's switches (labels set on their stream). */
static aclError fill_tables(struct acl_model *m)
{
	struct acl_label_list *ll;
	struct acl_label *l;
	unsigned int i;
	size_t j, k;
	uint32_t *t;
	aclError ret;

	for (i = 0; i < m->ns; i++) {
		for (j = 0; j < m->st[i].n; j++) {
			if (m->st[i].it[j].kind != IT_SWITCH)
				continue;
			ll = m->st[i].it[j].obj;
			t = calloc(ll->n, sizeof(*t));
			if (!t)
				return no_mem();
			for (k = 0; k < ll->n; k++) {
				l = ll->l[k];
				if (l->m != m || l->si != i) {
					free(t);
					return acl_err(ACL_ERROR_RT_PARAM_INVALID,
						       "label %zu of the list used by a switch on stream %u of model run instance %u is %s",
						       k, i, m->id,
						       l->m != m ? "not set in this instance" :
						       "set on another stream (labels must be on the switch's stream)");
				}
				t[k] = l->pos;
			}
			ret = mdl_copy_h2d(ll->table, t, ll->n * sizeof(*t));
			free(t);
			if (ret)
				return ret;
		}
	}
	return ACL_SUCCESS;
}

static aclError build(struct acl_model *m)
{
	struct cmdvec c = { 0 };
	size_t words_sz, j;
	bool labels;
	unsigned int i;
	aclError ret = ACL_SUCCESS;
	const char *api = acl_api_name;
	uint64_t *zero;

	stop_all(m);
	cap_recs_drop(m);
	if (m->ns > 1)
		m->nwords += 2 * (m->ns - 1);
	/* the word indices of the gates come first: shift the others */
	for (i = 0; i < m->ns; i++)
		for (j = 0; j < m->st[i].n; j++) {
			struct mdl_item *it = &m->st[i].it[j];
			uint32_t k;

			if (it->kind == IT_SIGNAL || it->kind == IT_WAITW)
				for (k = 0; k < it->nw; k++)
					it->words[k] += m->ns > 1 ? 2 * (m->ns - 1) : 0;
		}
	/* the conditional tasks' tables follow the words */
	for (struct mdl_cond *cd = m->conds; cd; cd = cd->next) {
		cd->tword = m->nwords;
		m->nwords += (cd->count * 4 + 7) / 8;
	}
	words_sz = ((size_t)m->nwords * 8 + 127) & ~(size_t)127;
	/* the lists' size is known after an expansion, which needs the
	 * words' addresses: count with a base of 0, allocate, expand again */
	m->mem = NULL;
	for (i = 0; i < m->ns && !ret; i++) {
		labels = false;
		ret = expand(m, i, &c, &labels);
	}
	if (!ret && (words_sz || c.n)) {
		ret = aclrtMalloc(&m->mem, words_sz + c.n * sizeof(*c.v) + 8,
				  ACL_MEM_MALLOC_HUGE_FIRST);
		acl_api_name = api;
	}
	free(c.v);
	if (ret)
		return ret;
	/* expand again with the real base (cheap: host memory only) */
	for (i = 0; i < m->ns; i++) {
		free(m->st[i].steps);
		m->st[i].steps = NULL;
		m->st[i].nsteps = 0;
	}
	memset(&c, 0, sizeof(c));
	for (i = 0; i < m->ns && !ret; i++) {
		labels = false;
		ret = expand(m, i, &c, &labels);
	}
	if (!ret && words_sz) {
		zero = calloc(1, words_sz);
		ret = zero ? mdl_copy_h2d(m->mem, zero, words_sz) : no_mem();
		free(zero);
	}
	if (!ret && c.n)
		ret = mdl_copy_h2d((char *)m->mem + words_sz, c.v, c.n * sizeof(*c.v));
	free(c.v);
	for (i = 0; i < m->ns && !ret; i++)
		for (j = 0; j < m->st[i].nsteps; j++)
			if (m->st[i].steps[j].kind == IT_CMD)
				m->st[i].steps[j].list = (uintptr_t)m->mem + words_sz +
							 m->st[i].steps[j].list * sizeof(*c.v);
	if (!ret)
		ret = fill_tables(m);
	for (struct mdl_cond *cd = m->conds; cd && !ret; cd = cd->next)
		ret = mdl_copy_h2d((void *)(uintptr_t)word_va(m, cd->tword), cd->table,
			       cd->count * sizeof(*cd->table));
	if (ret)
		return ret;
	m->words_sz = words_sz;
	for (i = 0; i < m->ns; i++) {
		struct mdl_stream *ms = &m->st[i];

		for (j = 0; j < ms->n; j++)
			ms->ntasks += ms->it[j].kind == IT_CMD;
		ms->tasks = calloc(ms->ntasks ? ms->ntasks : 1, sizeof(*ms->tasks));
		if (!ms->tasks)
			return no_mem();
		ms->ntasks = 0;
		for (j = 0; j < ms->n; j++)
			if (ms->it[j].kind == IT_CMD)
				ms->tasks[ms->ntasks++] = (struct mdl_task){ m, i, j };
	}
	/* where streams 1.. replay */
	for (i = 1; i < m->ns; i++) {
		if (!m->capture) {
			m->st[i].run = m->st[i].h;
			continue;
		}
		ret = aclrtCreateStream(&m->st[i].run);
		acl_api_name = api;
		if (ret)
			return ret;
		m->st[i].own_run = true;
	}
	m->built = true;
	m->next = built_models;
	built_models = m;
	return ACL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The API */

static aclError model_new(struct acl_model **out, bool capture)
{
	struct acl_model *m = calloc(1, sizeof(*m));
	int dev = dev_current();

	if (dev < 0) {
		free(m);
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "no current device: call aclrtSetDevice first");
	}
	if (!m)
		return no_mem();
	m->dev_id = dev;
	m->capture = capture;
	pthread_mutex_init(&m->exec_lock, NULL);
	pthread_mutex_lock(&mdl_lock);
	m->id = next_id++;
	pthread_mutex_unlock(&mdl_lock);
	handle_add(m, H_MODEL);
	*out = m;
	return ACL_SUCCESS;
}

static aclError model_get(aclmdlRI h, struct acl_model **m)
{
	if (!h || !handle_ok(h, H_MODEL))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "modelRI %p is not a model run instance (never built, or destroyed)", h);
	*m = h;
	return ACL_SUCCESS;
}

static aclError model_get_built(aclmdlRI h, struct acl_model **m)
{
	aclError ret = model_get(h, m);

	if (!ret && !(*m)->built)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "model run instance %u is not built yet (aclmdlRIBuildEnd, aclmdlRICaptureEnd)",
			      (*m)->id);
	return ret;
}

aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
	API_ENTER();
	if (!modelRI)
		return acl_err(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
	if (flag)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag %#x must be 0", flag);
	return model_new((struct acl_model **)modelRI, false);
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
	struct acl_model *m;
	struct acl_stream *s;
	unsigned int si;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "the default stream cannot be bound to a model run instance");
	if (flag > 1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag %u is neither ACL_MODEL_STREAM_FLAG_HEAD (0) nor _DEFAULT (1)", flag);
	ret = stream_ref(stream, &s);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	if (m->built || m->capture)
		ret = acl_err(ACL_ERROR_RT_MODEL_CAPTURED,
			      "model run instance %u is %s: no stream can be bound to it", m->id,
			      m->built ? "already built" : "a capture");
	else if (s->rec_m)
		ret = acl_err(ACL_ERROR_RT_STREAM_CAPTURED,
			      "stream %p already records into model run instance %u", stream,
			      s->rec_m->id);
	else if (s->dev->id != m->dev_id)
		ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			      "stream %p is on device %d, the model run instance on device %d",
			      stream, s->dev->id, m->dev_id);
	else
		ret = stream_add(m, stream, &si);
	if (!ret)
		set_rec(s, m, si);
	pthread_mutex_unlock(&mdl_lock);
	stream_put(s);
	return ret;
}

static int stream_index(struct acl_model *m, aclrtStream h)
{
	unsigned int i;

	for (i = 0; i < m->ns; i++)
		if (m->st[i].h == h)
			return (int)i;
	return -1;
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
	struct acl_model *m;
	struct acl_stream *s;
	aclError ret;
	int i;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	i = stream_index(m, stream);
	if (i < 0 || !m->st[i].recording) {
		ret = acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
			      "stream %p is not bound to model run instance %u (or its tasks already ended)",
			      stream, m->id);
	} else if (stream_ref(stream, &s) == ACL_SUCCESS) {
		m->st[i].recording = false;
		set_rec(s, NULL, 0);
		stream_put(s);
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	(void)reserve;
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	if (m->built || m->capture)
		ret = acl_err(ACL_ERROR_RT_MODEL_CAPTURED,
			      "model run instance %u is %s", m->id,
			      m->built ? "already built" : "a capture: end it with aclmdlRICaptureEnd");
	else
		ret = build(m);
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	if (stream_index(m, stream) < 0)
		ret = acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
			      "stream %p is not bound to model run instance %u", stream, m->id);
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

static void model_free(struct acl_model *m);

/* The arguments both ways of beginning a capture take. */
static aclError capture_args(aclrtStream stream, aclmdlRICaptureMode mode)
{
	if ((unsigned int)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return acl_err(ACL_ERROR_INVALID_PARAM, "capture mode %d is not an aclmdlRICaptureMode",
			       (int)mode);
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "the default stream cannot be captured");
	return ACL_SUCCESS;
}

/*
 * @s (handle @stream) records into @m from now on, in @mode, unless it
 * records already (mdl_lock held: two threads may begin on one stream).
 */
static aclError capture_start_locked(struct acl_model *m, struct acl_stream *s,
				     aclrtStream stream, aclmdlRICaptureMode mode)
{
	unsigned int si;
	aclError ret;

	if (s->rec_m)
		return acl_err(ACL_ERROR_RT_STREAM_CAPTURED,
			       "stream %p already records into model run instance %u",
			       stream, s->rec_m->id);
	m->mode = mode;
	ret = stream_add(m, stream, &si);
	if (!ret) {
		set_rec(s, m, si);
		cap_enter(m);
	}
	return ret;
}

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
	struct acl_model *m;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	ret = capture_args(stream, mode) ?: stream_ref(stream, &s);
	if (ret)
		return ret;
	ret = model_new(&m, true);
	if (!ret) {
		pthread_mutex_lock(&mdl_lock);
		ret = capture_start_locked(m, s, stream, mode);
		pthread_mutex_unlock(&mdl_lock);
		if (ret) {
			handle_del(m);
			model_free(m);
		}
	}
	stream_put(s);
	return ret;
}

static void model_free(struct acl_model *m)
{
	const char *api = acl_api_name;
	unsigned int i;
	size_t j;

	for (i = 0; i < m->ns; i++) {
		for (j = 0; j < m->st[i].n; j++)
			free(m->st[i].it[j].words);
		free(m->st[i].it);
		free(m->st[i].steps);
		free(m->st[i].tasks);
		if (m->st[i].own_run)
			aclrtDestroyStream(m->st[i].run);
	}
	if (m->exec_own)
		aclrtDestroyStream(m->exec_own);
	if (m->order_ev)
		aclrtDestroyEvent(m->order_ev);
	if (m->mem)
		aclrtFree(m->mem);
	acl_api_name = api;
	stream_uses_free(&m->uses);
	while (m->grps) {
		struct mdl_grp *g = m->grps;

		m->grps = g->next;
		free(g);
	}
	free(m->cbs);
	for (j = 0; j < m->nowned; j++)
		aclrtFree(m->owned[j]);
	free(m->owned);
	while (m->conds) {
		struct mdl_cond *cd = m->conds;

		m->conds = cd->next;
		for (i = 0; i < cd->n; i++) {
			handle_del(cd->body[i]);
			model_free(cd->body[i]);
		}
		free(cd->body);
		free(cd->table);
		free(cd);
	}
	while (m->condhs) {
		struct mdl_condh *h = m->condhs;

		m->condhs = h->next;
		handle_del(h);
		aclrtFree(h->dptr);
		free(h);
	}
	acl_api_name = api;
	free(m->st);
	free(m);
}

static void grp_states_drop(struct acl_model *m);

/* No body of @m's conditional tasks records any more (mdl_lock held). */
static void bodies_stop(struct acl_model *m)
{
	struct mdl_cond *cd;
	uint32_t i;

	for (cd = m->conds; cd; cd = cd->next)
		for (i = 0; i < cd->n; i++) {
			stop_all(cd->body[i]);
			cap_recs_drop(cd->body[i]);
			cap_leave(cd->body[i]);
			grp_states_drop(cd->body[i]);
		}
}

/* Forget what a body recorded, so that it can be captured again. */
static void body_reset(struct acl_model *b)
{
	unsigned int i;
	size_t j;

	for (i = 0; i < b->ns; i++) {
		for (j = 0; j < b->st[i].n; j++)
			free(b->st[i].it[j].words);
		free(b->st[i].it);
	}
	free(b->st);
	b->st = NULL;
	b->ns = 0;
	b->invalid = false;
	b->body_done = false;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
	struct acl_model *m;
	unsigned int si;
	aclError ret;

	API_ENTER();
	if (!modelRI)
		return acl_err(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
	pthread_mutex_lock(&mdl_lock);
	m = rec_of(stream, &si);
	if (!m || !m->capture || si != 0) {
		pthread_mutex_unlock(&mdl_lock);
		return acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
			       "stream %p is not the origin of a capture (aclmdlRICaptureBegin)", stream);
	}
	if (m->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED &&
	    !pthread_equal(m->thread, pthread_self())) {
		pthread_mutex_unlock(&mdl_lock);
		return acl_err(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
			       "the capture of stream %p (mode %s) was begun by another thread: only a RELAXED capture ends on another thread",
			       stream, mode_name(m->mode));
	}
	cap_leave(m);
	grp_states_drop(m);	/* groups left open end with the capture */
	if (m->parent) {
		/* a conditional task's body: kept for its root's build */
		ret = ACL_SUCCESS;
		stop_all(m);
		cap_recs_drop(m);
		if (m->invalid) {
			body_reset(m);
			ret = acl_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
				      "the capture of the body was invalidated by a task that cannot be recorded");
		} else {
			m->body_done = true;
			*modelRI = m;
		}
		pthread_mutex_unlock(&mdl_lock);
		return ret;
	}
	if (m->invalid) {
		stop_all(m);
		cap_recs_drop(m);
		ret = acl_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
			      "the capture was invalidated by a task that cannot be recorded");
	} else {
		ret = build(m);
	}
	if (ret)
		bodies_stop(m);
	pthread_mutex_unlock(&mdl_lock);
	if (ret) {
		handle_del(m);
		model_free(m);
		return ret;
	}
	*modelRI = m;
	return ACL_SUCCESS;
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
				aclmdlRI *modelRI)
{
	struct acl_model *m;
	unsigned int si;

	API_ENTER();
	if (!status || !modelRI)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", status ? "modelRI" : "status");
	pthread_mutex_lock(&mdl_lock);
	m = rec_of(stream, &si);
	if (m && !m->capture)
		m = NULL;
	*status = !m ? ACL_MODEL_RI_CAPTURE_STATUS_NONE :
		  m->invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED :
		  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
	*modelRI = m;
	pthread_mutex_unlock(&mdl_lock);
	return ACL_SUCCESS;
}

/* One CALL of @st on stream @h. */
static aclError submit_call(struct acl_model *m, aclrtStream h, const struct mdl_step *st)
{
	struct ascend_cmd cmd = { .opcode = ASCEND_CMD_CALL };
	struct acl_stream *s;
	uint64_t seq = 0;
	aclError ret;

	cmd.call.list = st->list;
	cmd.call.count = st->count;
	ret = stream_ref(h, &s);
	if (ret)
		return ret;
	if (!(s->dev->info.capabilities & DRM_ASCEND_CAP_CMD_LIST))
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "device %d's driver cannot run command lists (no DRM_ASCEND_CAP_CMD_LIST)",
			      s->dev->id);
	else
		ret = stream_submit_seq(s, &cmd, &seq);
	if (!ret) {
		pthread_mutex_lock(&mdl_lock);
		stream_uses_add(&m->uses, s, seq);
		pthread_mutex_unlock(&mdl_lock);
	}
	stream_put(s);
	return ret;
}

static aclError replay_stream(struct acl_model *m, struct mdl_stream *ms, aclrtStream h)
{
	aclError ret = ACL_SUCCESS;
	size_t j;

	for (j = 0; j < ms->nsteps && !ret; j++) {
		if (ms->steps[j].kind == IT_CMD)
			ret = submit_call(m, h, &ms->steps[j]);
		else if (ms->steps[j].kind == IT_EXT_RECORD)
			ret = event_record_on(ms->steps[j].event, h);
		else if (ms->steps[j].kind == IT_HOSTFUNC)
			ret = hostfunc_launch(h, ms->steps[j].fn, ms->steps[j].arg);
		else
			ret = event_wait_on(h, ms->steps[j].event);
	}
	return ret;
}

/*
 * Replays share the instance's words: one that comes on @stream waits on
 * the device for everything queued so far on the stream of the previous
 * one (exec_lock held).  A previous stream that is gone ran its work.
 */
static aclError order_after(struct acl_model *m, aclrtStream stream)
{
	const char *api = acl_api_name;
	aclError ret;

	if (!m->ran || (m->last_run && !handle_ok(m->last_run, H_STREAM)))
		return ACL_SUCCESS;
	ret = m->order_ev ? ACL_SUCCESS :
	      aclrtCreateEventWithFlag(&m->order_ev, ACL_EVENT_SYNC);
	acl_api_name = api;
	if (!ret)
		ret = event_record_on(m->order_ev, m->last_run);
	if (!ret)
		ret = event_wait_on(stream, m->order_ev);
	return ret;
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
	struct acl_model *m;
	unsigned int i, si;
	aclError ret;

	API_ENTER();
	ret = model_get_built(modelRI, &m);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	if (rec_of(stream, &si))
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "stream %p is recording into a model run instance: a replay cannot be recorded",
			      stream);
	pthread_mutex_unlock(&mdl_lock);
	if (ret)
		return ret;
	pthread_mutex_lock(&m->exec_lock);
	/* after the previous replay, also when that one is on another stream */
	if ((!m->ran || m->last_run != stream) && m->ns)
		ret = order_after(m, stream);
	for (i = 1; i < m->ns && !ret; i++)
		ret = replay_stream(m, &m->st[i], m->st[i].run);
	if (!ret && m->ns)
		ret = replay_stream(m, &m->st[0], stream);
	if (!ret) {
		m->last_run = stream;
		m->ran = true;
	}
	pthread_mutex_unlock(&m->exec_lock);
	return ret;
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
	const char *api;
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout %d is invalid: -1 waits forever, >0 is milliseconds", timeout);
	api = acl_api_name;
	if (!m->exec_own) {
		ret = aclrtCreateStream(&m->exec_own);
		if (ret)
			return ret;
	}
	ret = aclmdlRIExecuteAsync(m, m->exec_own);
	if (!ret)
		ret = aclrtSynchronizeStreamWithTimeout(m->exec_own, timeout);
	acl_api_name = api;
	return ret;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
	struct acl_model *m, **pp;
	size_t i;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (m->parent)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "model run instance %u is a body of a conditional task: it goes with its root instance %u",
			       m->id, m->parent->id);
	handle_del(m);
	pthread_mutex_lock(&mdl_lock);
	stop_all(m);
	cap_recs_drop(m);
	cap_leave(m);
	grp_states_drop(m);
	bodies_stop(m);
	for (pp = &built_models; *pp; pp = &(*pp)->next)
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	pthread_mutex_unlock(&mdl_lock);
	/* replays still queued read the lists: wait for them (CANN waits) */
	for (i = 0; i < m->uses.n; i++)
		stream_sync(m->uses.v[i].s, DRM_ASCEND_TIMEOUT_INFINITE, -1);
	stream_uses_drop(&m->uses);
	/* nothing of the instance runs any more; no library lock is held */
	for (i = 0; i < m->ncbs; i++)
		m->cbs[i].fn(m->cbs[i].data);
	model_free(m);
	return ACL_SUCCESS;
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData)
{
	struct acl_model *m;
	struct mdl_cb *v;
	aclError ret;
	size_t i;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!func)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "func is NULL");
	pthread_mutex_lock(&mdl_lock);
	for (i = 0; i < m->ncbs; i++)
		if (m->cbs[i].fn == func)
			break;
	if (i < m->ncbs) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "func %p is registered with model run instance %u already",
			      (void *)func, m->id);
	} else {
		v = realloc(m->cbs, (m->ncbs + 1) * sizeof(*v));
		if (v) {
			m->cbs = v;
			v[m->ncbs++] = (struct mdl_cb){ func, userData };
		} else {
			ret = no_mem();
		}
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func)
{
	struct acl_model *m;
	aclError ret;
	size_t i;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!func)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "func is NULL");
	pthread_mutex_lock(&mdl_lock);
	for (i = 0; i < m->ncbs; i++)
		if (m->cbs[i].fn == func)
			break;
	if (i == m->ncbs)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "func %p is not registered with model run instance %u",
			      (void *)func, m->id);
	else
		m->cbs[i] = m->cbs[--m->ncbs];
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/*
 * Stop a built instance's replays: every stream with a replay of it still
 * queued is aborted (aclrtStreamAbort: what is queued on it behind the
 * replay goes too), then its gate words are cleared, so that the next
 * replay starts clean.  CANN does not abort captured instances.
 */
aclError aclmdlRIAbort(aclmdlRI modelRI)
{
	const char *api = acl_api_name;
	struct stream_uses pend = { 0 };
	struct acl_model *m;
	aclError ret, r;
	uint64_t *zero;
	size_t i;

	API_ENTER();
	ret = model_get_built(modelRI, &m);
	if (ret)
		return ret;
	if (m->capture)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "model run instance %u was captured: aclmdlRIAbort takes built instances only (aclmdlRIBuildBegin), as in CANN",
			       m->id);
	pthread_mutex_lock(&mdl_lock);
	for (i = 0; i < m->uses.n; i++)
		stream_uses_add(&pend, m->uses.v[i].s, m->uses.v[i].seq);
	pthread_mutex_unlock(&mdl_lock);
	for (i = 0; i < pend.n; i++) {
		if (stream_use_done(&pend.v[i]))
			continue;
		r = aclrtStreamAbort(pend.v[i].s->is_default ? NULL : (aclrtStream)pend.v[i].s);
		if (r && !ret)
			ret = r;
	}
	stream_uses_free(&pend);
	if (!ret && m->words_sz) {
		zero = calloc(1, m->words_sz);
		ret = zero ? mdl_copy_h2d(m->mem, zero, m->words_sz) : no_mem();
		free(zero);
	}
	acl_api_name = api;
	return ret;
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams)
{
	struct acl_model *m;
	unsigned int i;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!numStreams)
		return acl_err(ACL_ERROR_INVALID_PARAM, "numStreams is NULL");
	if (streams && *numStreams < m->ns)
		return acl_err(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
			       "the array holds %u streams, the instance has %u", *numStreams, m->ns);
	for (i = 0; streams && i < m->ns; i++)
		streams[i] = m->st[i].h;
	*numStreams = m->ns;
	return ACL_SUCCESS;
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId)
{
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!modelRIId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "modelRIId is NULL");
	*modelRIId = m->id;
	return ACL_SUCCESS;
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char *name)
{
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!name)
		return acl_err(ACL_ERROR_INVALID_PARAM, "name is NULL");
	snprintf(m->name, sizeof(m->name), "%s", name);
	return ACL_SUCCESS;
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name)
{
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!name || !maxLen)
		return acl_err(ACL_ERROR_INVALID_PARAM, "name is NULL or maxLen is 0");
	snprintf(name, maxLen, "%s", m->name);
	return ACL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Tasks of built instances: queries and kernel argument updates */

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks)
{
	struct mdl_stream *ms = NULL;
	struct acl_model *m;
	aclError ret = ACL_SUCCESS;
	unsigned int i;
	size_t j;

	API_ENTER();
	if (!numTasks)
		return acl_err(ACL_ERROR_INVALID_PARAM, "numTasks is NULL");
	pthread_mutex_lock(&mdl_lock);
	for (m = built_models; m && !ms; m = m->next)
		for (i = 0; i < m->ns; i++)
			if (m->st[i].h == stream) {
				ms = &m->st[i];
				break;
			}
	if (!ms)
		ret = acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
			      "stream %p is not a stream of a built model run instance", stream);
	else if (tasks && *numTasks < ms->ntasks)
		ret = acl_err(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
			      "the array holds %u tasks, the stream has %zu", *numTasks, ms->ntasks);
	else {
		for (j = 0; tasks && j < ms->ntasks; j++)
			tasks[j] = &ms->tasks[j];
		*numTasks = (uint32_t)ms->ntasks;
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/* The item of task @t of a live built instance (mdl_lock held), or NULL. */
static struct mdl_item *task_item(aclmdlRITask t)
{
	struct acl_model *m;
	struct mdl_stream *ms;
	unsigned int i;

	for (m = built_models; m; m = m->next)
		for (i = 0; i < m->ns; i++) {
			ms = &m->st[i];
			if (ms->ntasks && (struct mdl_task *)t >= ms->tasks &&
			    (struct mdl_task *)t < ms->tasks + ms->ntasks)
				return &ms->it[((struct mdl_task *)t)->item];
		}
	return NULL;
}

static struct mdl_item *task_get(aclmdlRITask t, aclError *ret)
{
	struct mdl_item *it = task_item(t);

	*ret = it ? ACL_SUCCESS :
	       acl_err(ACL_ERROR_INVALID_PARAM, "task %p is not a task of a live model run instance",
		       t);
	return it;
}

static aclmdlRITaskType task_type(const struct mdl_item *it)
{
	switch (it->cmd.opcode) {
	case ASCEND_CMD_LAUNCH:		return ACL_MODEL_RI_TASK_KERNEL;
	case ASCEND_CMD_WRITE_VALUE:	return ACL_MODEL_RI_TASK_VALUE_WRITE;
	case ASCEND_CMD_WAIT_VALUE:	return ACL_MODEL_RI_TASK_VALUE_WAIT;
	default:			return ACL_MODEL_RI_TASK_DEFAULT;
	}
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type)
{
	struct mdl_item *it;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!type)
		return acl_err(ACL_ERROR_INVALID_PARAM, "type is NULL");
	pthread_mutex_lock(&mdl_lock);
	it = task_get(task, &ret);
	if (it)
		*type = task_type(it);
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	struct mdl_item *it;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!params)
		return acl_err(ACL_ERROR_INVALID_PARAM, "params is NULL");
	pthread_mutex_lock(&mdl_lock);
	it = task_get(task, &ret);
	if (it) {
		memset(params, 0, sizeof(*params));
		params->type = task_type(it);
		if (params->type == ACL_MODEL_RI_TASK_KERNEL) {
			/* the recorded arguments, owned by the instance */
			params->kernelTaskParams.args = it->cmd.launch.args;
			params->kernelTaskParams.argsSize = it->cmd.launch.args_size;
			params->kernelTaskParams.numBlocks = it->cmd.launch.num_blocks;
			params->kernelTaskParams.isHostArgs = 1;
		}
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/*
 * A kernel task's arguments and block count: kept in the instance and
 * written to its list by aclmdlRIUpdate, so the replays after it use them.
 */
aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	const struct aclmdlRIKernelTaskParams *k;
	struct mdl_item *it;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!params)
		return acl_err(ACL_ERROR_INVALID_PARAM, "params is NULL");
	k = &params->kernelTaskParams;
	pthread_mutex_lock(&mdl_lock);
	it = task_get(task, &ret);
	if (it && (params->type != ACL_MODEL_RI_TASK_KERNEL || task_type(it) != params->type))
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "only a kernel task's parameters can be set (task type %d, params type %d)",
			      (int)task_type(it), (int)params->type);
	else if (it && (!k->args || k->argsSize != it->cmd.launch.args_size || !k->numBlocks))
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "the kernel task needs args of %u bytes (got %p, %zu bytes) and numBlocks > 0 (got %u)",
			      it->cmd.launch.args_size, k->args, k->argsSize, k->numBlocks);
	else if (it) {
		memmove(it->cmd.launch.args, k->args, k->argsSize);
		it->cmd.launch.num_blocks = k->numBlocks;
		it->dirty = true;
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

aclError aclmdlRIUpdate(aclmdlRI modelRI)
{
	const struct ascend_cmd nop = { .opcode = ASCEND_CMD_NOP };
	struct acl_model *m;
	struct mdl_item *it;
	aclError ret;
	unsigned int i;
	size_t j;

	API_ENTER();
	ret = model_get_built(modelRI, &m);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	for (i = 0; i < m->ns && !ret; i++)
		for (j = 0; j < m->st[i].n && !ret; j++) {
			it = &m->st[i].it[j];
			if (it->kind != IT_CMD || !it->dirty)
				continue;
			ret = mdl_copy_h2d((char *)m->mem + m->words_sz + (size_t)it->at * sizeof(it->cmd),
				       it->disabled ? &nop : &it->cmd, sizeof(it->cmd));
			it->dirty = ret != ACL_SUCCESS;
		}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/* The task's position among its stream's tasks (aclmdlRIGetTasksByStream). */
aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id)
{
	struct mdl_task *t = task;
	struct mdl_item *it;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!id)
		return acl_err(ACL_ERROR_INVALID_PARAM, "id is NULL");
	pthread_mutex_lock(&mdl_lock);
	it = task_get(task, &ret);
	if (it)
		*id = (uint32_t)(t - t->m->st[t->si].tasks);
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/* What a kernel task recorded: its timeout; the other attributes are not kept. */
aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
					aclrtLaunchKernelAttrValue *attrValue)
{
	struct mdl_item *it;
	aclError ret = ACL_SUCCESS;
	uint64_t us;

	API_ENTER();
	if (!attrValue)
		return acl_err(ACL_ERROR_INVALID_PARAM, "attrValue is NULL");
	pthread_mutex_lock(&mdl_lock);
	it = task_get(task, &ret);
	if (it && task_type(it) != ACL_MODEL_RI_TASK_KERNEL) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID, "task %p is not a kernel task", task);
	} else if (it && attrId == ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT) {
		memset(attrValue, 0, sizeof(*attrValue));
		/* seconds, rounded up; 0: the device default */
		attrValue->timeout = (uint16_t)((it->cmd.launch.timeout_ms + 999) / 1000);
	} else if (it && attrId == ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US) {
		memset(attrValue, 0, sizeof(*attrValue));
		us = (uint64_t)it->cmd.launch.timeout_ms * 1000;
		attrValue->timeoutUs.timeoutLow = (uint32_t)us;
		attrValue->timeoutUs.timeoutHigh = (uint32_t)(us >> 32);
	} else if (it) {
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "attribute %d of a kernel task is not recorded (only ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT and _TIMEOUT_US are)",
			      (int)attrId);
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/* The task becomes a NOP in the replays after the next aclmdlRIUpdate. */
aclError aclmdlRITaskDisable(aclmdlRITask task)
{
	struct mdl_item *it;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	pthread_mutex_lock(&mdl_lock);
	it = task_get(task, &ret);
	if (it) {
		it->disabled = true;
		it->dirty = true;
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Conditional tasks */

static struct acl_model *root_of(struct acl_model *m)
{
	return m->parent ? m->parent : m;
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
				  aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle)
{
	const char *api = acl_api_name;
	struct mdl_condh *h;
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	if (!modelRI || !handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle ? "modelRI" : "handle");
	ret = model_get(modelRI, &m);
	if (ret)
		return ret;
	if ((unsigned int)flag > ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "flag %d is neither 0 nor ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT", (int)flag);
	if (!m->capture || m->built)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "model run instance %u is not a capture in progress: conditions belong to captures",
			       m->id);
	h = calloc(1, sizeof(*h));
	if (!h)
		return no_mem();
	ret = aclrtMalloc((void **)&h->dptr, sizeof(*h->dptr), ACL_MEM_MALLOC_HUGE_FIRST);
	if (!ret)
		ret = aclrtMemsetAsync(h->dptr, sizeof(*h->dptr), 0, sizeof(*h->dptr), NULL);
	if (!ret)
		ret = aclrtSynchronizeStream(NULL);
	acl_api_name = api;
	if (ret) {
		if (h->dptr)
			aclrtFree(h->dptr);
		acl_api_name = api;
		free(h);
		return ret;
	}
	h->def = defaultLaunchValue;
	h->assign = flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT;
	pthread_mutex_lock(&mdl_lock);
	h->root = root_of(m);
	h->next = h->root->condhs;
	h->root->condhs = h;
	handle_add(h, H_COND);
	pthread_mutex_unlock(&mdl_lock);
	*handle = h;
	return ACL_SUCCESS;
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr)
{
	API_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "ptr is NULL");
	if (!handle || !handle_ok(handle, H_COND))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "handle %p is not a live condition handle (aclmdlRICondHandleCreate)", handle);
	*ptr = ((struct mdl_condh *)handle)->dptr;
	return ACL_SUCCESS;
}

/* Most bodies of one switch: a table entry per body and one to leave. */
#define COND_MAX_BODIES	(ASCEND_CALL_MAX_CMDS - 1)

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags)
{
	struct mdl_cond *cd = NULL;
	struct mdl_condh *h = params.handle;
	struct acl_model *m, *b;
	struct mdl_item *it;
	unsigned int si;
	aclError ret = ACL_SUCCESS;
	uint32_t i;

	API_ENTER();
	if ((unsigned int)params.type > ACL_MODEL_RI_COND_TYPE_SWITCH || flags ||
	    !params.handle || !params.modelRIArray)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s", flags ? "flags must be 0" :
			       !params.handle ? "params.handle is NULL" :
			       !params.modelRIArray ? "params.modelRIArray is NULL" :
			       "params.type is not an aclmdlRICondTaskType");
	if ((params.type == ACL_MODEL_RI_COND_TYPE_IF && params.size != 1 && params.size != 2) ||
	    (params.type == ACL_MODEL_RI_COND_TYPE_WHILE && params.size != 1) ||
	    (params.type == ACL_MODEL_RI_COND_TYPE_SWITCH &&
	     (params.size == 0 || params.size > COND_MAX_BODIES)))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "params.size %u: an if takes 1 or 2 bodies, a while 1, a switch 1 to %u",
			       params.size, COND_MAX_BODIES);
	if (!handle_ok(h, H_COND))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "params.handle %p is not a live condition handle", (void *)h);
	pthread_mutex_lock(&mdl_lock);
	m = rec_of(stream, &si);
	if (!m || !m->capture || m->built || m->collector) {
		ret = acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
			      "stream %p is not being captured (aclmdlRICaptureBegin)", stream);
		goto out;
	}
	if (h->root != root_of(m)) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "the condition handle belongs to model run instance %u, the capture of stream %p to %u",
			      h->root->id, stream, root_of(m)->id);
		goto out;
	}
	cd = calloc(1, sizeof(*cd));
	if (cd) {
		cd->body = calloc(params.size, sizeof(*cd->body));
		cd->count = params.type == ACL_MODEL_RI_COND_TYPE_SWITCH ? params.size + 1 : 2;
		cd->table = calloc(cd->count, sizeof(*cd->table));
	}
	if (!cd || !cd->body || !cd->table) {
		ret = no_mem();
		goto out;
	}
	cd->type = params.type;
	cd->h = h;
	for (i = 0; i < params.size; i++) {
		b = calloc(1, sizeof(*b));
		if (!b) {
			ret = no_mem();
			goto out;
		}
		b->dev_id = m->dev_id;
		b->capture = true;
		b->parent = root_of(m);
		b->id = next_id++;
		cd->body[cd->n++] = b;
	}
	it = item_add(&m->st[si], IT_COND);
	if (!it) {
		ret = no_mem();
		goto out;
	}
	it->obj = cd;
	cd->next = root_of(m)->conds;
	root_of(m)->conds = cd;
	for (i = 0; i < cd->n; i++) {
		handle_add(cd->body[i], H_MODEL);
		params.modelRIArray[i] = cd->body[i];
	}
	cd = NULL;
out:
	pthread_mutex_unlock(&mdl_lock);
	if (cd) {
		for (i = 0; i < cd->n; i++)
			free(cd->body[i]);
		free(cd->body);
		free(cd->table);
		free(cd);
	}
	return ret;
}

/* Capture into a body that aclmdlRIAddCondTask made. */
aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode)
{
	struct acl_model *m;
	struct acl_stream *s;
	aclError ret;

	API_ENTER();
	ret = capture_args(stream, mode) ?: model_get(modelRI, &m);
	if (ret)
		return ret;
	if (!m->parent)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "model run instance %u is not a body of a conditional task (aclmdlRIAddCondTask): only bodies are captured into",
			       m->id);
	ret = stream_ref(stream, &s);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	if (m->body_done || m->ns)
		ret = acl_err(ACL_ERROR_RT_MODEL_CAPTURED,
			      "the body (model run instance %u) is captured already", m->id);
	else
		ret = capture_start_locked(m, s, stream, mode);
	pthread_mutex_unlock(&mdl_lock);
	stream_put(s);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Task groups and their updates */

/* The live group @h (mdl_lock held), or NULL. */
static struct mdl_grp *grp_find(aclrtTaskGrp h)
{
	struct acl_model *m;
	struct mdl_grp *g;

	for (m = built_models; m; m = m->next)
		for (g = m->grps; g; g = g->next)
			if (g == h)
				return g;
	for (m = active_caps; m; m = m->cap_next)
		for (g = m->grps; g; g = g->next)
			if (g == h)
				return g;
	return NULL;
}

static void grp_state_drop(struct grp_state *st)
{
	struct grp_state **pp;

	for (pp = &grp_states; *pp; pp = &(*pp)->next)
		if (*pp == st) {
			*pp = st->next;
			break;
		}
	free(st);
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
	struct grp_state *st;
	struct acl_model *m;
	unsigned int si;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	pthread_mutex_lock(&mdl_lock);
	m = rec_of(stream, &si);
	if (!m || !m->capture || m->built || m->collector) {
		ret = acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
			      "stream %p is not being captured (aclmdlRICaptureBegin)", stream);
	} else if (grp_state_of(stream)) {
		ret = acl_err(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
			      "stream %p has a task group open already", stream);
	} else {
		st = calloc(1, sizeof(*st));
		if (st)
			st->g = calloc(1, sizeof(*st->g));
		if (!st || !st->g) {
			free(st);
			ret = no_mem();
		} else {
			st->h = stream;
			st->g->m = m;
			st->g->si = si;
			st->g->first = m->st[si].n;
			st->next = grp_states;
			grp_states = st;
		}
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
	struct grp_state *st;
	struct mdl_grp *g;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	*handle = NULL;
	pthread_mutex_lock(&mdl_lock);
	st = grp_state_of(stream);
	if (!st || st->update) {
		ret = acl_err(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
			      "stream %p has no task group open (aclmdlRICaptureTaskGrpBegin)", stream);
		goto out;
	}
	g = st->g;
	grp_state_drop(st);
	if (g->m->invalid) {
		free(g);
		ret = acl_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
			      "the capture of stream %p was invalidated: no task group", stream);
		goto out;
	}
	g->count = g->m->st[g->si].n - g->first;
	g->next = g->m->grps;
	g->m->grps = g;
	*handle = g;
out:
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

/*
 * The kernel launches submitted to @stream until aclmdlRICaptureTaskUpdateEnd
 * do not run: they replace the group's tasks, one for one.
 */
aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
	struct acl_model *coll = NULL;
	struct grp_state *st = NULL;
	struct acl_stream *s;
	struct mdl_grp *g;
	unsigned int si;
	aclError ret;

	API_ENTER();
	ret = stream_ref(stream, &s);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	g = handle ? grp_find(handle) : NULL;
	if (!g) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "handle %p is not a task group of a live model run instance", handle);
	} else if (rec_of(stream, &si)) {
		ret = acl_err(ACL_ERROR_RT_STREAM_CAPTURED,
			      "stream %p is being captured: a task update needs a stream that is not",
			      stream);
	} else if (grp_state_of(stream) || g->updating) {
		ret = acl_err(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
			      "%s is in a task update already",
			      g->updating ? "the task group" : "the stream");
	} else if (!g->m->built) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "the task group's model run instance %u is not built yet (aclmdlRICaptureEnd)",
			      g->m->id);
	} else {
		coll = calloc(1, sizeof(*coll));
		st = calloc(1, sizeof(*st));
		if (!coll || !st || stream_add(coll, stream, &si)) {
			ret = no_mem();
		} else {
			coll->collector = true;
			coll->id = g->m->id;
			coll->dev_id = g->m->dev_id;
			st->h = stream;
			st->update = true;
			st->g = g;
			st->coll = coll;
			st->next = grp_states;
			grp_states = st;
			g->updating = true;
			set_rec(s, coll, si);
			coll = NULL;
			st = NULL;
		}
	}
	pthread_mutex_unlock(&mdl_lock);
	if (coll) {
		free(coll->st);
		free(coll);
	}
	free(st);
	stream_put(s);
	return ret;
}

/*
 * The update takes effect for the replays submitted after this returns:
 * the replays already queued finish first with the old tasks, then the
 * new ones are written into the command list.
 */
aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
	const struct ascend_cmd nop = { .opcode = ASCEND_CMD_NOP };
	struct stream_uses pend = { 0 };
	struct acl_model *coll, *m;
	struct mdl_item *it, *nw;
	bool locked_exec = false;
	struct grp_state *st;
	struct acl_stream *s;
	struct mdl_grp *g;
	aclError ret;
	size_t i;

	API_ENTER();
	ret = stream_ref(stream, &s);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	st = grp_state_of(stream);
	if (!st || !st->update) {
		pthread_mutex_unlock(&mdl_lock);
		stream_put(s);
		return acl_err(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
			       "stream %p is not in a task update (aclmdlRICaptureTaskUpdateBegin)",
			       stream);
	}
	set_rec(s, NULL, 0);
	stream_put(s);
	g = st->g;
	m = g->m;
	coll = st->coll;
	g->updating = false;
	grp_state_drop(st);
	if (coll->st[0].n != g->count) {
		ret = acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
			      "the update has %zu tasks, the task group %zu: they must match one for one",
			      coll->st[0].n, g->count);
		goto out;
	}
	for (i = 0; i < g->count && !ret; i++) {
		it = &m->st[g->si].it[g->first + i];
		nw = &coll->st[0].it[i];
		if (nw->kind != IT_CMD || nw->cmd.opcode != it->cmd.opcode)
			ret = acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
				      "task %zu of the update is not a kernel launch like the group's",
				      i);
	}
	if (ret)
		goto out;
	/* no replay is submitted until the new tasks are in (exec_lock
	 * nests outside mdl_lock) */
	pthread_mutex_unlock(&mdl_lock);
	pthread_mutex_lock(&m->exec_lock);
	pthread_mutex_lock(&mdl_lock);
	for (i = 0; i < m->uses.n; i++)
		stream_uses_add(&pend, m->uses.v[i].s, m->uses.v[i].seq);
	pthread_mutex_unlock(&mdl_lock);
	/* the queued replays still read the old tasks */
	for (i = 0; i < pend.n; i++)
		stream_sync(pend.v[i].s, DRM_ASCEND_TIMEOUT_INFINITE, -1);
	stream_uses_free(&pend);
	pthread_mutex_lock(&mdl_lock);
	locked_exec = true;
	for (i = 0; i < g->count && !ret; i++) {
		it = &m->st[g->si].it[g->first + i];
		it->cmd = coll->st[0].it[i].cmd;
		ret = mdl_copy_h2d((char *)m->mem + m->words_sz + (size_t)it->at * sizeof(it->cmd),
			       it->disabled ? &nop : &it->cmd, sizeof(it->cmd));
		it->dirty = false;
	}
out:
	pthread_mutex_unlock(&mdl_lock);
	if (locked_exec)
		pthread_mutex_unlock(&m->exec_lock);
	collector_free(coll);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Debug printing */

static const char *op_name(const struct mdl_item *it)
{
	static const char *const names[] = {
		[ASCEND_CMD_NOP] = "NOP", [ASCEND_CMD_LAUNCH] = "KERNEL",
		[ASCEND_CMD_COPY] = "MEMCPY", [ASCEND_CMD_FILL] = "MEMSET",
		[ASCEND_CMD_WRITE_VALUE] = "VALUE_WRITE", [ASCEND_CMD_WAIT_VALUE] = "VALUE_WAIT",
		[ASCEND_CMD_COPY_2D] = "MEMCPY_2D", [ASCEND_CMD_COPY_BATCH] = "MEMCPY_BATCH",
		[ASCEND_CMD_COPY_INDIRECT] = "MEMCPY_DESC", [ASCEND_CMD_COPY_OFFSET] = "MEMCPY_OFFSET",
		[ASCEND_CMD_REDUCE] = "REDUCE",
	};

	if (it->disabled)
		return "DISABLED";
	if (it->cmd.opcode < sizeof(names) / sizeof(names[0]) && names[it->cmd.opcode])
		return names[it->cmd.opcode];
	return "OTHER";
}

/* One line per stream and per task, to @f (mdl_lock held). */
static void describe(struct acl_model *m, FILE *f, bool json)
{
	struct mdl_stream *ms;
	struct mdl_item *it;
	unsigned int i;
	size_t k;

	if (json)
		fprintf(f, "{\"modelRI\": %u, \"name\": \"", m->id);
	else
		fprintf(f, "model run instance %u \"", m->id);
	for (k = 0; m->name[k]; k++)	/* a JSON string either way */
		fprintf(f, m->name[k] == '"' || m->name[k] == '\\' ? "\\%c" :
			   (unsigned char)m->name[k] < 0x20 ? "?" : "%c", m->name[k]);
	if (json)
		fprintf(f, "\", \"device\": %d, \"captured\": %s, \"streams\": [",
			m->dev_id, m->capture ? "true" : "false");
	else
		fprintf(f, "\": device %d, %s, %u stream(s)\n", m->dev_id,
			m->capture ? "captured" : "built", m->ns);
	for (i = 0; i < m->ns; i++) {
		ms = &m->st[i];
		if (json)
			fprintf(f, "%s{\"index\": %u, \"stream\": \"%p\", \"tasks\": [",
				i ? ", " : "", i, ms->h);
		else
			fprintf(f, "  stream %u (%p): %zu task(s), %zu submission(s) per replay\n",
				i, ms->h, ms->ntasks, ms->nsteps);
		for (k = 0; k < ms->ntasks; k++) {
			it = &ms->it[ms->tasks[k].item];
			if (json)
				fprintf(f, "%s{\"seq\": %zu, \"type\": \"%s\", \"list_index\": %u}",
					k ? ", " : "", k, op_name(it), it->at);
			else
				fprintf(f, "    task %zu: %s (list index %u)\n", k, op_name(it),
					it->at);
		}
		if (json)
			fprintf(f, "]}");
	}
	if (json)
		fprintf(f, "]}\n");
}

/* To stderr, where libaclrt's log lines go (CANN: its log). */
aclError aclmdlRIDebugPrint(aclmdlRI modelRI)
{
	struct acl_model *m;
	aclError ret;

	API_ENTER();
	ret = model_get_built(modelRI, &m);
	if (ret)
		return ret;
	pthread_mutex_lock(&mdl_lock);
	flockfile(stderr);
	describe(m, stderr, false);
	funlockfile(stderr);
	pthread_mutex_unlock(&mdl_lock);
	return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
	struct acl_model *m;
	aclError ret;
	FILE *f;

	API_ENTER();
	ret = model_get_built(modelRI, &m);
	if (ret)
		return ret;
	if (!path)
		return acl_err(ACL_ERROR_INVALID_PARAM, "path is NULL");
	if (flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags %#x must be 0", flags);
	f = fopen(path, "we");
	if (!f)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "cannot create %s: %s", path,
			       strerror(errno));
	pthread_mutex_lock(&mdl_lock);
	describe(m, f, true);
	pthread_mutex_unlock(&mdl_lock);
	if (fclose(f))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "writing %s failed: %s", path,
			       strerror(errno));
	return ACL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Labels */

/* The instance being built that @stream records into (mdl_lock held). */
static struct acl_model *build_rec(aclrtStream stream, unsigned int *si, aclError *ret)
{
	struct acl_model *m = rec_of(stream, si);

	if (m && !m->capture) {
		*ret = ACL_SUCCESS;
		return m;
	}
	*ret = acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
		       "stream %p is not bound to a model run instance being built (aclmdlRIBindStream)",
		       stream);
	return NULL;
}

static aclError label_check(const void *h, enum handle_type type, const char *what)
{
	if (h && handle_ok(h, type))
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_INVALID_PARAM, "%s %p is not a live %s", what, h,
		       type == H_LABEL ? "label" : "label list");
}

aclError aclrtCreateLabel(aclrtLabel *label)
{
	struct acl_label *l;

	API_ENTER();
	if (!label)
		return acl_err(ACL_ERROR_INVALID_PARAM, "label is NULL");
	l = calloc(1, sizeof(*l));
	if (!l)
		return no_mem();
	handle_add(l, H_LABEL);
	*label = l;
	return ACL_SUCCESS;
}

aclError aclrtDestroyLabel(aclrtLabel label)
{
	API_ENTER();
	if (label_check(label, H_LABEL, "label"))
		return ACL_ERROR_INVALID_PARAM;
	handle_del(label);
	free(label);
	return ACL_SUCCESS;
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream)
{
	struct acl_label *l = label;
	struct mdl_item *it;
	struct acl_model *m;
	unsigned int si;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (label_check(label, H_LABEL, "label"))
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&mdl_lock);
	m = build_rec(stream, &si, &ret);
	if (m && l->m)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID, "label %p is already set", label);
	else if (m && !(it = item_add(&m->st[si], IT_LABEL)))
		ret = no_mem();
	else if (m) {
		it->obj = l;
		l->m = m;
		l->si = si;
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}

aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList)
{
	struct acl_label_list *ll;
	const char *api;
	aclError ret;
	size_t i;

	API_ENTER();
	if (!labels || !labelList)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", labels ? "labelList" : "labels");
	if (!num || num > 65535)
		return acl_err(ACL_ERROR_INVALID_PARAM, "num %zu is out of range (1 .. 65535)", num);
	for (i = 0; i < num; i++)
		if (!labels[i] || !handle_ok(labels[i], H_LABEL))
			return acl_err(ACL_ERROR_INVALID_PARAM, "labels[%zu] (%p) is not a live label",
				       i, labels[i]);
	ll = calloc(1, sizeof(*ll));
	if (ll)
		ll->l = malloc(num * sizeof(*ll->l));
	if (!ll || !ll->l) {
		free(ll);
		return no_mem();
	}
	memcpy(ll->l, labels, num * sizeof(*ll->l));
	ll->n = num;
	api = acl_api_name;
	ret = aclrtMalloc((void **)&ll->table, num * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
	acl_api_name = api;
	if (ret) {
		free(ll->l);
		free(ll);
		return ret;
	}
	handle_add(ll, H_LABEL_LIST);
	*labelList = ll;
	return ACL_SUCCESS;
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList)
{
	struct acl_label_list *ll = labelList;
	const char *api;

	API_ENTER();
	if (label_check(ll, H_LABEL_LIST, "labelList"))
		return ACL_ERROR_INVALID_PARAM;
	handle_del(ll);
	api = acl_api_name;
	aclrtFree(ll->table);
	acl_api_name = api;
	free(ll->l);
	free(ll);
	return ACL_SUCCESS;
}

aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
				 aclrtStream stream)
{
	struct acl_label_list *ll = labelList;
	struct mdl_item *it;
	struct acl_model *m;
	unsigned int si;
	aclError ret = ACL_SUCCESS;

	API_ENTER();
	if (!ptr || ((uintptr_t)ptr & 3))
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr %p is NULL or not 4-byte aligned", ptr);
	if (label_check(ll, H_LABEL_LIST, "labelList"))
		return ACL_ERROR_INVALID_PARAM;
	if (!maxValue || maxValue > ll->n)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "maxValue %u is out of range: the label list has %zu labels", maxValue,
			       ll->n);
	pthread_mutex_lock(&mdl_lock);
	m = build_rec(stream, &si, &ret);
	if (m && !(it = item_add(&m->st[si], IT_SWITCH))) {
		ret = no_mem();
	} else if (m) {
		it->obj = ll;
		it->cmd.opcode = ASCEND_CMD_SWITCH;
		it->cmd.label_switch.value = (uintptr_t)ptr;
		it->cmd.label_switch.value_size = 4;
		it->cmd.label_switch.table = (uintptr_t)ll->table;
		it->cmd.label_switch.count = maxValue;
	}
	pthread_mutex_unlock(&mdl_lock);
	return ret;
}
