// SPDX-License-Identifier: MIT
/*
 * ascend-smi against known allocations, in the VM (TAP).  Built by
 * tests/install/check.sh against the installed tree (pkg-config) and staged
 * as /work/user/test_install_smi; the installed tree is /work/user/install/
 * (PREFIX /opt/ascend under it), so ascend-smi is
 * install/opt/ascend/bin/ascend-smi (or $ASCEND_SMI).
 *
 * The program holds 64 MiB of HBM on device 0 and checks that ascend-smi
 * reports it: its own pid's process line, the device's HBM used, in text and
 * in JSON (parsed by the small JSON reader below: the VM has no python).
 * The cases run in order in this process (not forked like tap_main() does):
 * they share the allocation and the runtime state.  A failed REQUIRE ends
 * the program; the runner counts the cases it never saw as failed.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "tap.h"

#define MIB (1024ULL * 1024ULL)
#define HOLD (64 * MIB)

/* --- a minimal JSON reader ---------------------------------------------- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	double num;
	char *str;			/* J_STR */
	int n;				/* J_ARR, J_OBJ: members */
	char **keys;			/* J_OBJ */
	struct jval **items;
};

struct jparser {
	const char *s;
	int err;
};

static void jws(struct jparser *p)
{
	while (*p->s == ' ' || *p->s == '\n' || *p->s == '\t' || *p->s == '\r')
		p->s++;
}

static char *jparse_string(struct jparser *p)
{
	size_t cap = 16, len = 0;
	char *out;

	if (*p->s != '"') {
		p->err = 1;
		return NULL;
	}
	p->s++;
	out = malloc(cap);
	while (out && *p->s != '"') {
		char c = *p->s++;

		if (c == '\0' || (unsigned char)c < 0x20) {
			p->err = 1;
			break;
		}
		if (c == '\\') {
			c = *p->s++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)*p->s++))
						p->err = 1;
				c = '?';
				break;
			default:
				p->err = 1;
			}
		}
		if (p->err)
			break;
		if (len + 2 > cap) {
			char *n = realloc(out, cap *= 2);

			if (!n) {
				free(out);
				out = NULL;
				break;
			}
			out = n;
		}
		out[len++] = c;
	}
	if (!out || p->err) {
		free(out);
		p->err = 1;
		return NULL;
	}
	p->s++;
	out[len] = '\0';
	return out;
}

static struct jval *jparse_value(struct jparser *p, int depth);

static void jpush(struct jval *v, char *key, struct jval *item)
{
	v->items = realloc(v->items, sizeof(*v->items) * (v->n + 1));
	v->keys = realloc(v->keys, sizeof(*v->keys) * (v->n + 1));
	if (!v->items || !v->keys)
		abort();
	v->items[v->n] = item;
	v->keys[v->n] = key;
	v->n++;
}

static struct jval *jparse_value(struct jparser *p, int depth)
{
	struct jval *v = calloc(1, sizeof(*v));

	if (!v || depth > 32) {
		p->err = 1;
		return v;
	}
	jws(p);
	if (*p->s == '{' || *p->s == '[') {
		char close = *p->s == '{' ? '}' : ']';

		v->type = close == '}' ? J_OBJ : J_ARR;
		p->s++;
		jws(p);
		if (*p->s == close) {
			p->s++;
			return v;
		}
		for (;;) {
			char *key = NULL;

			jws(p);
			if (v->type == J_OBJ) {
				key = jparse_string(p);
				jws(p);
				if (p->err || *p->s != ':') {
					p->err = 1;
					free(key);
					return v;
				}
				p->s++;
			}
			jpush(v, key, jparse_value(p, depth + 1));
			if (p->err)
				return v;
			jws(p);
			if (*p->s == ',') {
				p->s++;
				continue;
			}
			if (*p->s == close) {
				p->s++;
				return v;
			}
			p->err = 1;
			return v;
		}
	}
	if (*p->s == '"') {
		v->type = J_STR;
		v->str = jparse_string(p);
		return v;
	}
	if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "null", 4)) {
		v->type = *p->s == 't' ? J_BOOL : J_NULL;
		v->num = *p->s == 't';
		p->s += 4;
		return v;
	}
	if (!strncmp(p->s, "false", 5)) {
		v->type = J_BOOL;
		p->s += 5;
		return v;
	}
	if (*p->s == '-' || isdigit((unsigned char)*p->s)) {
		char *end;

		v->type = J_NUM;
		v->num = strtod(p->s, &end);
		if (end == p->s)
			p->err = 1;
		p->s = end;
		return v;
	}
	p->err = 1;
	return v;
}

static void jfree(struct jval *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->n; i++) {
		jfree(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

/* Parse one complete document; NULL when it is not valid JSON. */
static struct jval *jparse(const char *text)
{
	struct jparser p = { text, 0 };
	struct jval *v = jparse_value(&p, 0);

	jws(&p);
	if (p.err || *p.s) {
		jfree(v);
		return NULL;
	}
	return v;
}

static struct jval *jget(const struct jval *o, const char *key)
{
	if (!o || o->type != J_OBJ)
		return NULL;
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return o->items[i];
	return NULL;
}

static double jnum(const struct jval *o, const char *key)
{
	const struct jval *v = jget(o, key);

	return v && v->type == J_NUM ? v->num : -1;
}

static const char *jstr(const struct jval *o, const char *key)
{
	const struct jval *v = jget(o, key);

	return v && v->type == J_STR ? v->str : "";
}

/* --- running ascend-smi ------------------------------------------------- */

static char smi[512];
static void *held;

static const char *smi_path(void)
{
	const char *e = getenv("ASCEND_SMI");

	if (e && *e)
		return e;
	if (!smi[0]) {
		if (access("install/opt/ascend/bin/ascend-smi", X_OK) == 0)
			snprintf(smi, sizeof(smi), "./install/opt/ascend/bin/ascend-smi");
		else
			snprintf(smi, sizeof(smi), "ascend-smi");
	}
	return smi;
}

/* Output of "ascend-smi ARGS" (malloc'd) and its exit status in *status. */
static char *run_smi(const char *args, int *status)
{
	char cmd[1024], *out = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", smi_path(), args);
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	for (;;) {
		char buf[4096];
		size_t n = fread(buf, 1, sizeof(buf), f);
		char *nb;

		if (n == 0)
			break;
		nb = realloc(out, len + n + 1);
		if (!nb)
			break;
		out = nb;
		memcpy(out + len, buf, n);
		len += n;
		out[len] = '\0';
	}
	*status = pclose(f);
	if (*status != -1 && WIFEXITED(*status))
		*status = WEXITSTATUS(*status);
	if (!out)
		out = calloc(1, 1);
	printf("# $ ascend-smi %s (exit %d)\n", args, *status);
	for (char *s = out, *e; s && *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, '\n');
		printf("#   %.*s\n", (int)(e - s), s);
	}
	return out;
}

static int expected_devices(void)
{
	const char *e = getenv("ASCEND_EXPECT_DEVICES");

	return e && *e ? atoi(e) : 0;
}

static size_t hbm_total;

/* Find the text line whose first two fields are NPU @npu and PID @pid. */
static int text_process_mib(const char *out, unsigned int npu, int pid,
			    char *comm, size_t comm_len)
{
	const char *s = strstr(out, "\nProcesses:\n");

	if (!s)
		return -1;
	for (s = strchr(s + 1, '\n'); s && *s; s = strchr(s, '\n')) {
		unsigned int n;
		int p;
		char c[64];
		unsigned long long mib;

		s++;
		if (sscanf(s, "%u %d %63s %llu", &n, &p, c, &mib) == 4 &&
		    n == npu && p == pid) {
			snprintf(comm, comm_len, "%s", c);
			return (int)mib;
		}
	}
	return -1;
}

TEST(setup_hold_64mib)
{
	size_t free_b;

	REQUIRE(aclInit(NULL) == ACL_SUCCESS);
	REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
	REQUIRE(aclrtMalloc(&held, HOLD, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
	REQUIRE(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &hbm_total) == ACL_SUCCESS);
	printf("# holding %llu MiB on device 0 as pid %d, hbm total %zu\n",
	       HOLD / MIB, (int)getpid(), hbm_total);
}

TEST(text_lists_devices)
{
	int st, rows = 0;
	char *out = run_smi("", &st);
	const char *soc = aclrtGetSocName();

	REQUIRE(out);
	CHECK_EQ(st, 0);
	for (char *s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		unsigned int idx;
		char node[64], bus[64], socname[64], health[32];
		unsigned long long used, total;

		if (sscanf(s, "%u %63s %63s %63s %31s %llu / %llu", &idx, node, bus,
			   socname, health, &used, &total) != 7 ||
		    strncmp(node, "/dev/accel/accel", 16))
			continue;
		rows++;
		CHECK(!strcmp(health, "OK"));
		CHECK(soc && !strcmp(socname, soc));
		CHECK_EQ(total, hbm_total / MIB);
		if (idx == 0)
			CHECK(used >= HOLD / MIB);
	}
	if (expected_devices())
		CHECK_EQ(rows, expected_devices());
	else
		CHECK(rows >= 1);
	free(out);
}

TEST(text_own_process_line)
{
	char comm[64] = "";
	int st, mib;
	char *out = run_smi("", &st);

	REQUIRE(out);
	mib = text_process_mib(out, 0, getpid(), comm, sizeof(comm));
	CHECK(mib >= (int)(HOLD / MIB));
	CHECK(mib < (int)(HOLD / MIB) + 16);	/* ours plus a little runtime state */
	CHECK(!strncmp(comm, "test_install_sm", 15));
	free(out);
}

/* Our process object on device 0 in a parsed document, NULL if absent. */
static const struct jval *json_own(const struct jval *doc)
{
	const struct jval *devs = jget(doc, "devices"), *procs;

	if (!devs || devs->type != J_ARR || devs->n < 1)
		return NULL;
	procs = jget(devs->items[0], "processes");
	if (!procs || procs->type != J_ARR)
		return NULL;
	for (int i = 0; i < procs->n; i++)
		if (jnum(procs->items[i], "pid") == getpid())
			return procs->items[i];
	return NULL;
}

TEST(json_matches_allocations)
{
	int st;
	char *out = run_smi("--json", &st);
	struct jval *doc;
	const struct jval *devs, *d0, *own;

	REQUIRE(out);
	CHECK_EQ(st, 0);
	doc = jparse(out);
	REQUIRE(doc);
	devs = jget(doc, "devices");
	REQUIRE(devs && devs->type == J_ARR);
	if (expected_devices())
		CHECK_EQ(devs->n, expected_devices());
	REQUIRE(devs->n >= 1);
	d0 = devs->items[0];
	CHECK_EQ(jnum(d0, "index"), 0);
	CHECK(!strcmp(jstr(d0, "node"), "/dev/accel/accel0"));
	CHECK(!strcmp(jstr(d0, "health"), "OK"));
	CHECK(!strcmp(jstr(d0, "soc_name"), aclrtGetSocName()));
	CHECK_EQ((size_t)jnum(d0, "hbm_total"), hbm_total);
	CHECK(jnum(d0, "hbm_used") >= (double)HOLD);
	CHECK(jnum(d0, "ai_cores") >= 1);
	CHECK(jnum(d0, "dma_engines") >= 1);
	CHECK(jget(doc, "debugfs") && jget(doc, "debugfs")->type == J_BOOL &&
	      jget(doc, "debugfs")->num == 1);
	own = json_own(doc);
	REQUIRE(own);
	CHECK(jnum(own, "hbm_used") >= (double)HOLD);
	CHECK(jnum(own, "hbm_used") < (double)(HOLD + 16 * MIB));
	CHECK(jnum(own, "bos") >= 1);
	CHECK(!strncmp(jstr(own, "command"), "test_install_sm", 15));
	jfree(doc);
	free(out);
}

/* Our entry in device 0's "fdinfo_processes", NULL if absent. */
static const struct jval *json_own_fdinfo(const struct jval *doc)
{
	const struct jval *devs = jget(doc, "devices"), *procs;

	if (!devs || devs->type != J_ARR || devs->n < 1)
		return NULL;
	procs = jget(devs->items[0], "fdinfo_processes");
	if (!procs || procs->type != J_ARR)
		return NULL;
	for (int i = 0; i < procs->n; i++)
		if (jnum(procs->items[i], "pid") == getpid())
			return procs->items[i];
	return NULL;
}

/*
 * The fdinfo view (no debugfs needed) has the bytes debugfs has: this
 * process has one file of device 0 open, so its one client line.
 */
TEST(json_fdinfo_processes_match_debugfs)
{
	int st;
	char *out = run_smi("--json", &st);
	const struct jval *own, *fd;
	struct jval *doc;

	REQUIRE(out);
	CHECK_EQ(st, 0);
	doc = jparse(out);
	REQUIRE(doc);
	own = json_own(doc);
	fd = json_own_fdinfo(doc);
	REQUIRE(own && fd);
	CHECK(!strncmp(jstr(fd, "command"), "test_install_sm", 15));
	CHECK(jnum(fd, "hbm_used") >= (double)HOLD);
	CHECK_EQ(jnum(fd, "hbm_used"), jnum(own, "hbm_used"));
	CHECK(jget(fd, "host_pinned") && jget(fd, "host_pinned")->type == J_NUM);
	jfree(doc);
	free(out);
}

TEST(json_follows_free)
{
	double before, after;
	struct jval *doc;
	int st;
	char *out = run_smi("--json", &st);

	REQUIRE(out);
	doc = jparse(out);
	REQUIRE(doc && json_own(doc));
	before = jnum(json_own(doc), "hbm_used");
	jfree(doc);
	free(out);

	REQUIRE(aclrtFree(held) == ACL_SUCCESS);
	held = NULL;
	out = run_smi("--json", &st);
	REQUIRE(out);
	doc = jparse(out);
	REQUIRE(doc && json_own(doc));
	after = jnum(json_own(doc), "hbm_used");
	/* libaclrt pads and rounds an allocation up (64 MiB -> 66 MiB here) */
	CHECK(before - after >= (double)HOLD);
	CHECK(before - after <= (double)(HOLD + 4 * MIB));
	jfree(doc);
	free(out);
}

TEST(watch_count_json_lines)
{
	int st, docs = 0, lines = 0;
	char *out = run_smi("--json --watch 1 --count 2", &st);

	REQUIRE(out);
	CHECK_EQ(st, 0);
	for (char *s = out, *e; *s; s = *e ? e + 1 : e) {
		char line[65536];
		struct jval *doc;

		e = strchrnul(s, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
		lines++;
		doc = jparse(line);
		if (doc && jget(doc, "devices"))
			docs++;
		jfree(doc);
	}
	CHECK_EQ(lines, 2);
	CHECK_EQ(docs, 2);
	free(out);
}

/* The debugfs views: our stream's queue, every DMA engine, the fault log. */
TEST(views_queues_engines_faults)
{
	const struct jval *devs, *d0, *qv, *ev, *fv;
	char mypid[32];
	aclrtStream stream = NULL;
	struct jval *doc;
	int st, own = 0;
	char *out;

	REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
	out = run_smi("", &st);
	REQUIRE(out);
	CHECK_EQ(st, 0);
	CHECK(strstr(out, "\nQueues:\n") != NULL);
	CHECK(strstr(out, "\nEngines:\n") != NULL);
	CHECK(strstr(out, "\nFaults:\n") != NULL);
	CHECK(strstr(out, "not exposed") == NULL);
	free(out);

	out = run_smi("--json", &st);
	REQUIRE(out);
	doc = jparse(out);
	REQUIRE(doc);
	devs = jget(doc, "devices");
	REQUIRE(devs && devs->type == J_ARR && devs->n >= 1);
	d0 = devs->items[0];
	qv = jget(d0, "queues");
	ev = jget(d0, "engines");
	fv = jget(d0, "faults");
	REQUIRE(qv && qv->type == J_ARR && qv->n >= 2);
	CHECK(qv->items[0]->type == J_STR &&
	      !strncmp(qv->items[0]->str, "     pid handle", 15));
	snprintf(mypid, sizeof(mypid), "%8d ", (int)getpid());
	for (int i = 1; i < qv->n; i++)
		own += qv->items[i]->type == J_STR &&
		       !strncmp(qv->items[i]->str, mypid, strlen(mypid)) &&
		       strstr(qv->items[i]->str, " running ");
	CHECK(own >= 1);
	REQUIRE(ev && ev->type == J_ARR);
	/* a header, one line per engine, the command processor's mover */
	CHECK_EQ(ev->n, (int)jnum(d0, "dma_engines") + 2);
	CHECK(ev->n >= 3 && ev->items[1]->type == J_STR &&
	      !strncmp(ev->items[1]->str, "     0 ", 7));
	CHECK(ev->n >= 3 && ev->items[ev->n - 1]->type == J_STR &&
	      !strncmp(ev->items[ev->n - 1]->str, "    cp ", 7));
	REQUIRE(fv && fv->type == J_ARR && fv->n >= 2);
	CHECK(fv->items[0]->type == J_STR &&
	      !strncmp(fv->items[0]->str, "faults: ", 8));
	jfree(doc);
	free(out);
	CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
}

/*
 * ascend-smi's view @key of device 0: @heading in its text output, and its
 * lines from --json (at least @min, all strings).  The caller jfree()s *@doc.
 */
static const struct jval *smi_view(const char *key, const char *heading, int min,
				   struct jval **doc)
{
	const struct jval *devs, *v;
	char *out;
	int st;

	out = run_smi("", &st);
	REQUIRE(out);
	CHECK_EQ(st, 0);
	CHECK(strstr(out, heading) != NULL);
	free(out);

	out = run_smi("--json", &st);
	REQUIRE(out);
	*doc = jparse(out);
	free(out);
	REQUIRE(*doc);
	devs = jget(*doc, "devices");
	REQUIRE(devs && devs->type == J_ARR && devs->n >= 1);
	v = jget(devs->items[0], key);
	REQUIRE(v && v->type == J_ARR && v->n >= min);
	for (int i = 0; i < v->n; i++)
		REQUIRE(v->items[i]->type == J_STR);
	return v;
}

/* A view's lines, for the log of a failed case. */
static void smi_view_dump(const struct jval *v)
{
	for (int i = 0; i < v->n; i++)
		printf("#   %s\n", v->items[i]->str);
}

/*
 * The virtual-memory view: a reservation of ours with a physical
 * allocation mapped in it, and the allocation itself, in text and JSON.
 */
TEST(view_reservations)
{
	aclrtPhysicalMemProp prop = {
		.handleType = ACL_MEM_HANDLE_TYPE_NONE,
		.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED,
		.memAttr = ACL_HBM_MEM_HUGE,
		.location = { .id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE },
	};
	int resv = 0, mapped = 0, phys = 0;
	const struct jval *rv;
	aclrtDrvMemHandle h;
	char mypid[32];
	struct jval *doc;
	void *va;

	REQUIRE(aclrtMallocPhysical(&h, 2 << 20, &prop, 0) == ACL_SUCCESS);
	REQUIRE(aclrtReserveMemAddress(&va, 4 << 20, 0, NULL, 0) == ACL_SUCCESS);
	REQUIRE(aclrtMapMem(va, 2 << 20, 0, h, 0) == ACL_SUCCESS);
	rv = smi_view("reservations", "\nReservations:\n", 4, &doc);
	CHECK(strstr(rv->items[0]->str, " va ") != NULL);
	snprintf(mypid, sizeof(mypid), "%8d ", (int)getpid());
	for (int i = 1; i < rv->n; i++) {
		const char *l = rv->items[i]->str;

		if (strncmp(l, mypid, strlen(mypid)))
			continue;
		resv += strstr(l, " 4194304 ") && strstr(l, " reserved ");
		mapped += strstr(l, " 2097152 ") && strstr(l, " mapped ") && strstr(l, " rw ");
		/* the handle's object and the mapping hold the memory */
		phys += strstr(l, " 2097152 ") && strstr(l, " physical ") &&
			strstr(l, " refs=2") != NULL;
	}
	CHECK_EQ(resv, 1);
	CHECK_EQ(mapped, 1);
	CHECK_EQ(phys, 1);
	if (resv != 1 || mapped != 1 || phys != 1)
		smi_view_dump(rv);
	jfree(doc);
	CHECK(aclrtUnmapMem(va) == ACL_SUCCESS);
	CHECK(aclrtReleaseMemAddress(va) == ACL_SUCCESS);
	CHECK(aclrtFreePhysical(h) == ACL_SUCCESS);
}

/*
 * The managed-memory view: 4 MiB of ours written by the host, then one of
 * its two chunks prefetched to the device: the bytes on each side and
 * moved; and its line in the hbm view (the chunk's HBM).
 */
TEST(view_managed)
{
	aclrtMemManagedLocation dev = { .type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0 };
	int mine = -1, sums = 0, chunks = 0, hbm_lines = 0;
	char mypid[32], want[128], line[512];
	aclrtStream stream = NULL;
	const struct jval *mv;
	struct jval *doc;
	FILE *f;
	char *m;

	REQUIRE(aclrtMemAllocManaged((void **)&m, 4 << 20, ACL_RT_MEM_ATTACH_GLOBAL) ==
		ACL_SUCCESS);
	REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
	memset(m, 0x5a, 4 << 20);	/* both chunks on the host, then one moves */
	CHECK(aclrtMemManagedPrefetchAsync(m + (2 << 20), 2 << 20, dev, 0, stream) ==
	      ACL_SUCCESS);
	CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
	mv = smi_view("managed", "\nManaged:\n", 4, &doc);
	CHECK(!strncmp(mv->items[0]->str, "page requests: ", 15));
	snprintf(mypid, sizeof(mypid), "%8d ", (int)getpid());
	/* our header line, then our lines until the next process */
	for (int i = 1; i < mv->n; i++) {
		const char *l = mv->items[i]->str;
		const char *t = l + strspn(l, " ");

		if (!strncmp(l, mypid, strlen(mypid))) {
			mine = i;
			continue;
		}
		if (mine < 0)
			continue;
		if (isdigit((unsigned char)*t) && strncmp(t, "0x", 2))
			break;	/* the next process */
		sums += strstr(l, "managed 4194304 bytes: host 2097152 device 2097152, ") &&
			strstr(l, " to device 2097152");
		chunks += strstr(l, " +4194304: 1 chunks on the device, 1 on the host") != NULL;
	}
	CHECK(mine > 0);
	CHECK_EQ(sums, 1);
	CHECK_EQ(chunks, 1);
	/* debugfs hbm lists the allocation too, with the one chunk's HBM */
	snprintf(want, sizeof(want), "%8d 0x%016llx %12d %10d managed     - 0x", (int)getpid(),
		 (unsigned long long)(uintptr_t)m, 4 << 20, 2 << 20);
	f = popen("cat /sys/kernel/debug/accel/*/hbm", "r");
	REQUIRE(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)))
			hbm_lines += strstr(line, "+0x200000\n") != NULL;
	pclose(f);
	CHECK_EQ(hbm_lines, 1);
	if (mine <= 0 || sums != 1 || chunks != 1)
		smi_view_dump(mv);
	jfree(doc);
	CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
	CHECK(aclrtFree(m) == ACL_SUCCESS);
}

TEST(without_debugfs_devices_still_listed)
{
	int st;
	char *out = run_smi("--json --debugfs /nonexistent", &st);
	struct jval *doc;
	const struct jval *devs;

	REQUIRE(out);
	CHECK_EQ(st, 0);
	doc = jparse(out);
	REQUIRE(doc);
	devs = jget(doc, "devices");
	REQUIRE(devs && devs->type == J_ARR && devs->n >= 1);
	CHECK(!strcmp(jstr(devs->items[0], "health"), "OK"));
	CHECK(jget(devs->items[0], "processes") &&
	      jget(devs->items[0], "processes")->type == J_NULL);
	CHECK(jget(doc, "debugfs") && jget(doc, "debugfs")->num == 0);
	/* the processes still, from fdinfo (the hold is freed by now) */
	CHECK(json_own_fdinfo(doc) && jget(json_own_fdinfo(doc), "hbm_used") &&
	      jget(json_own_fdinfo(doc), "hbm_used")->type == J_NUM);
	jfree(doc);
	free(out);

	out = run_smi("--debugfs /nonexistent", &st);
	REQUIRE(out);
	CHECK_EQ(st, 0);
	CHECK(strstr(out, "/dev/accel/accel0") != NULL);
	CHECK(strstr(out, "not available") != NULL);
	CHECK(strstr(out, "from /proc/<pid>/fdinfo instead (every process):") != NULL);
	{
		char want[64];

		snprintf(want, sizeof(want), "\n0    %-8d test_install_sm ", (int)getpid());
		CHECK(strstr(out, want) != NULL);
	}
	free(out);
}

TEST(bad_arguments_exit_2)
{
	int st;
	char *out = run_smi("--no-such-option", &st);

	CHECK_EQ(st, 2);
	free(out);
	out = run_smi("--count 0", &st);
	CHECK_EQ(st, 2);
	free(out);
}


int main(void)
{
	int rc = tap_main_in_order();

	if (held)
		aclrtFree(held);
	aclrtResetDevice(0);
	aclFinalize();
	return rc;
}
