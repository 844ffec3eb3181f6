// SPDX-License-Identifier: MIT
/*
 * The ioctl/ring fuzzer (tests/fuzz/fuzz.c) as a TAP test.
 *
 * Without arguments (make check): short runs per ioctl family, a
 * multi-process run of everything, a run whose processes reopen the device,
 * each followed by a leak check (debugfs hbm/clients of device 0 back to
 * nothing once the fuzz processes exited).  FUZZ_SEED=<n> replays; the seed
 * is printed.  FUZZ_SCALE=<n> multiplies the time budgets.  To chase a
 * failure, FUZZ_CASES=<name,...> runs only the cases whose names contain
 * one of the words, FUZZ_REPEAT=<n> runs each (selected) case n times in a
 * row, with the same seed.
 *
 * With arguments (make fuzz): the long form, one TAP case:
 *   test_fuzz_ioctl --seconds N | --iterations N | --long  [--seed S]
 *                   [--procs N] [--threads N] [--families MASK]
 * --long means 4 hours.  The verdict of the VM run (oops/WARN = failure,
 * module unload at the end) is tools/vm/run's.
 *
 * While fuzzing, the module parameters cmd_timeout_ms and
 * force_destroy_grace_ms are lowered (stalling ring commands end sooner);
 * they are restored afterwards.
 */
#define _GNU_SOURCE
#define TAP_TIMEOUT 120
#include "ioctl_util.h"
#include "../fuzz/fuzz.c"
#include "../fuzz/reliab.h"

static uint64_t seed;
static int scale = 1;
static long saved_timeout = -1, saved_grace = -1;

static void params_lower(void)
{
	saved_timeout = reliab_param_get("cmd_timeout_ms");
	saved_grace = reliab_param_get("force_destroy_grace_ms");
	reliab_param_set("cmd_timeout_ms", 200);
	reliab_param_set("force_destroy_grace_ms", 20);
}

static void params_restore(void)
{
	if (saved_timeout >= 0)
		reliab_param_set("cmd_timeout_ms", saved_timeout);
	if (saved_grace >= 0)
		reliab_param_set("force_destroy_grace_ms", saved_grace);
}

static void run(unsigned int families, int procs, int threads, int seconds,
		int churn)
{
	struct fuzz_opts o = {
		.seed = seed + families * 131 + procs * 7 + churn,
		.seconds = seconds * scale,
		.iterations = 200000,
		.procs = procs,
		.threads = threads,
		.families = families,
		.fd_churn = churn,
	};
	struct fuzz_totals t;

	fuzz_run(&o, &t);
	printf("# seed %" PRIu64 ": %" PRIu64 " calls (%" PRIu64 " ok), %" PRIu64
	       " ring commands, %" PRIu64 " queue faults, %" PRIu64 " resets, %"
	       PRIu64 " blocked ioctls interrupted\n",
	       o.seed, t.calls, t.ok, t.ring_cmds, t.faults, t.resets,
	       t.interrupts);
	CHECK_EQ(t.bad_children, 0);
	CHECK_EQ(t.self_writes, 0);	/* fz_dst_check(): fuzzer bugs */
	CHECK(t.calls > 0);
	CHECK(reliab_wait_clean(0, 20));
}

TEST(fuzz_query_version_cap_unknown_prime)
{
	run(FUZZ_F_QUERY | FUZZ_F_PRIME | FUZZ_F_MEM, 1, 2, 4, 0);
}

TEST(fuzz_window_bo_copy_fill_batch_2d)
{
	run(FUZZ_F_MEM, 1, 3, 8, 0);
}

TEST(fuzz_host_alloc_register)
{
	run(FUZZ_F_HOST | FUZZ_F_MEM, 1, 3, 8, 0);
}

TEST(fuzz_physical_memory_reservations_maps)
{
	run(FUZZ_F_VMM | FUZZ_F_MEM | FUZZ_F_QUEUE, 1, 3, 8, 0);
}

TEST(fuzz_events)
{
	run(FUZZ_F_EVENT | FUZZ_F_QUEUE, 1, 2, 5, 0);
}

TEST(fuzz_queues_rings)
{
	run(FUZZ_F_QUEUE | FUZZ_F_MEM | FUZZ_F_EVENT | FUZZ_F_HOST | FUZZ_F_IPC, 1, 3, 12, 0);
}

TEST(fuzz_command_lists)
{
	run(FUZZ_F_CMDLIST | FUZZ_F_QUEUE | FUZZ_F_MEM | FUZZ_F_EVENT, 1, 3, 8, 0);
}

TEST(fuzz_everything_multiprocess)
{
	run(FUZZ_F_ALL, 3, 3, 25, 0);
}

TEST(fuzz_everything_reopening)
{
	run(FUZZ_F_ALL, 2, 2, 10, 1);
}

/*
 * A fuzz process ends within its budget even when its own ring holds a
 * wait that never ends: a queue stalled for good on an EVENT_WAIT without
 * a timeout, so every synchronous copy blocks in the drain.  Before the
 * watchdog (fz_watch) every thread ended up there and the process was
 * killed 60 s past its budget (case 5 and 7 "processes hang").
 */
TEST(fuzz_ends_in_budget_with_stalled_queue)
{
	struct fuzz_opts o = {
		.seed = seed + 0x57a11,
		.seconds = 3,
		.procs = 1,
		.threads = 3,
		.families = FUZZ_F_MEM,
		.stall = 1,
	};
	struct fuzz_totals t;
	uint64_t t0 = fz_now_ns(), secs;

	fuzz_run(&o, &t);
	secs = (fz_now_ns() - t0) / 1000000000ULL;
	printf("# %" PRIu64 " calls in %" PRIu64 " s, %" PRIu64
	       " blocked ioctls interrupted\n", t.calls, secs, t.interrupts);
	CHECK_EQ(t.bad_children, 0);
	CHECK_EQ(t.self_writes, 0);
	CHECK(secs <= (uint64_t)o.seconds + 10);
	CHECK(t.interrupts > 0);	/* the drains did block */
	CHECK(reliab_wait_clean(0, 20));
}

TEST(device_works_after_fuzzing)
{
	int fd = open_accel();
	struct drm_ascend_bo_create a, b;
	uint8_t in[4096], out[4096];
	unsigned int i;

	setup_window(fd);
	REQUIRE_OK(bo_create(fd, sizeof(in), DRM_ASCEND_BO_NORMAL_ONLY, 0, &a));
	REQUIRE_OK(bo_create(fd, sizeof(in), DRM_ASCEND_BO_NORMAL_ONLY, 0, &b));
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 3);
	CHECK_EQ(dev_copy(fd, a.va, (uintptr_t)in, sizeof(in)), 0);
	CHECK_EQ(dev_copy(fd, b.va, a.va, sizeof(in)), 0);
	memset(out, 0, sizeof(out));
	CHECK_EQ(dev_copy(fd, (uintptr_t)out, b.va, sizeof(out)), 0);
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	close(fd);
	CHECK(reliab_wait_clean(0, 10));
}

static int long_form(int argc, char **argv)
{
	struct fuzz_opts o = {
		.seed = seed, .seconds = 0, .iterations = 0, .procs = 4,
		.threads = 3, .families = FUZZ_F_ALL, .fd_churn = 1,
	};
	struct fuzz_totals t;
	int i, clean;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "0";

		if (!strcmp(a, "--long")) {
			o.seconds = 4 * 3600;
			continue;
		}
		if (!strcmp(a, "--seconds"))
			o.seconds = atoi(v);
		else if (!strcmp(a, "--iterations"))
			o.iterations = atol(v);
		else if (!strcmp(a, "--seed"))
			o.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--procs"))
			o.procs = atoi(v);
		else if (!strcmp(a, "--threads"))
			o.threads = atoi(v);
		else if (!strcmp(a, "--families"))
			o.families = strtoul(v, NULL, 0);
		else {
			fprintf(stderr, "usage: %s [--seconds N | --iterations N | --long]"
				" [--seed S] [--procs N] [--threads N] [--families MASK]\n",
				argv[0]);
			return 2;
		}
		i++;
	}
	if (!o.seconds && !o.iterations)
		o.seconds = 120;
	if (!o.families)
		o.families = FUZZ_F_ALL;
	/*
	 * Command lists are a form of ring command: alone they select no
	 * operation, and every thread would spin without a call.
	 */
	if ((o.families & ~FUZZ_F_ALL) ||
	    ((o.families & FUZZ_F_CMDLIST) && !(o.families & FUZZ_F_QUEUE))) {
		fprintf(stderr, "%s: --families %#x: unknown bits, or %#x (command lists) without %#x (rings)\n",
			argv[0], o.families, FUZZ_F_CMDLIST, FUZZ_F_QUEUE);
		return 2;
	}
	printf("1..1\n# fuzz: seed %" PRIu64 ", %d s, %ld iterations/thread, %d procs x %d threads, families %#x\n",
	       o.seed, o.seconds, o.iterations, o.procs, o.threads, o.families);
	fflush(stdout);
	params_lower();
	fuzz_run(&o, &t);
	params_restore();
	printf("# fuzz: %" PRIu64 " calls (%" PRIu64 " ok), %" PRIu64
	       " ring commands, %" PRIu64 " queue faults, %" PRIu64 " resets, %" PRIu64
	       " bad processes, %" PRIu64 " writes past our own buffers\n",
	       t.calls, t.ok, t.ring_cmds, t.faults, t.resets, t.bad_children,
	       t.self_writes);
	clean = reliab_wait_clean(0, 30) && !t.self_writes;
	printf("%s 1 - fuzz_long\n", !t.bad_children && clean ? "ok" : "not ok");
	return !t.bad_children && clean ? 0 : 1;
}

static int case_selected(const char *name, const char *list)
{
	char buf[256], *w, *save;

	if (!list || !*list)
		return 1;
	snprintf(buf, sizeof(buf), "%s", list);
	for (w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		if (strstr(name, w))
			return 1;
	return 0;
}

/* FUZZ_CASES / FUZZ_REPEAT: the selected cases, each @repeat times. */
static int tap_main_selected(const char *list, int repeat)
{
	struct tap_case *c;
	int n = 0, failed = 0, r;

	for (c = tap_cases; c; c = c->next)
		n += case_selected(c->name, list) ? repeat : 0;
	printf("1..%d\n", n);
	n = 0;
	for (c = tap_cases; c; c = c->next)
		for (r = 0; r < repeat && case_selected(c->name, list); r++)
			failed += tap_run_one(c, ++n);
	fflush(stdout);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *cases = getenv("FUZZ_CASES");
	int repeat = getenv("FUZZ_REPEAT") ? atoi(getenv("FUZZ_REPEAT")) : 1;
	const char *s = getenv("FUZZ_SEED");
	int ret;

	seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;
	if (getenv("FUZZ_SCALE"))
		scale = atoi(getenv("FUZZ_SCALE")) > 0 ? atoi(getenv("FUZZ_SCALE")) : 1;
	if (argc > 1)
		return long_form(argc, argv);
	printf("# fuzz seed %" PRIu64 " (FUZZ_SEED=%" PRIu64 " replays)\n", seed, seed);
	params_lower();
	if (cases || repeat > 1)
		ret = tap_main_selected(cases, repeat > 1 ? repeat : 1);
	else
		ret = tap_main();
	params_restore();
	return ret;
}
