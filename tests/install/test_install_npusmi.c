// SPDX-License-Identifier: MIT
/*
 * npu-smi (ascend-smi under that name) against known allocations, in the
 * VM (TAP).  Built by tests/install/check.sh against the installed tree and
 * staged as /work/user/test_install_npusmi next to install/, so npu-smi is
 * install/opt/ascend/bin/npu-smi (or $NPU_SMI) and ascend-smi, whose
 * numbers npu-smi's must equal, is beside it.
 *
 * Helper processes (this program again, "--hold DEV MIB") hold known
 * amounts of HBM: one as root, one as an unprivileged user; this process
 * holds some too.  Every command's output is parsed: its borders, field
 * names and units must be those of the real npu-smi (Documentation/
 * npu-smi.rst), its values what the driver reports.  The unprivileged
 * user's npu-smi must list its own process with its usage and no other.
 * The example of Documentation/npu-smi.rst runs as it is written there
 * (check.sh extracts it to install/npu-smi-example.sh).
 *
 * The cases run in order in this process, sharing the helpers; a failed
 * REQUIRE ends the program (the helpers see their stdin close and exit).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "tap.h"

#define MIB		(1024ULL * 1024ULL)
#define ROOT_MIB	64	/* the root helper's allocation */
#define USER_MIB	8	/* the unprivileged helper's */
#define BIG_MIB		2048	/* a short-lived helper's, for the usage rate */
#define SLACK_MIB	16	/* libaclrt's own state and padding, at most */
#define USER_UID	60021
#define WIDTH		98	/* every table line */

#define RULE_DASH "+---------------------------+---------------+" \
		  "----------------------------------------------------+"
#define RULE_EQ   "+===========================+===============+" \
		  "====================================================+"

struct helper {
	pid_t pid;
	int to;			/* its stdin: closing it ends the helper */
};

static struct helper root_helper = { -1, -1 }, user_helper = { -1, -1 };
static int ndev;
static mode_t node_mode[2];
static char soc[64];
static char tool_version[32];	/* of ascend-smi --version */
static void *own;
static char self[PATH_MAX];	/* this program, for the helpers */

/* The command name of this program and its helpers (TASK_COMM_LEN - 1). */
#define COMM "test_install_np"

/* --- the helper ------------------------------------------------------------ */

/* Hold @mib MiB on device @dev until stdin closes; "ready" once held. */
static int hold(int dev, int mib)
{
	void *p = NULL;
	char c;

	if (aclInit(NULL) || aclrtSetDevice(dev) ||
	    aclrtMalloc(&p, (size_t)mib * MIB, ACL_MEM_MALLOC_HUGE_FIRST)) {
		printf("fail %s\n", aclGetRecentErrMsg());
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	aclrtFree(p);
	aclrtResetDevice(dev);
	aclFinalize();
	return 0;
}

/* Drop root for good: @uid, its own group, no supplementary groups. */
static void become(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		_exit(126);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

static void spawn_helper(struct helper *h, uid_t uid, int dev, int mib)
{
	char sdev[16], smib[16], line[256] = "";
	int in[2], out[2];
	ssize_t n;

	REQUIRE(pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0);
	snprintf(sdev, sizeof(sdev), "%d", dev);
	snprintf(smib, sizeof(smib), "%d", mib);
	fflush(stdout);
	h->pid = fork();
	REQUIRE(h->pid >= 0);
	if (h->pid == 0) {
		if (uid)
			become(uid);
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl(self, self, "--hold", sdev, smib, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	h->to = in[1];
	n = read(out[0], line, sizeof(line) - 1);
	close(out[0]);
	line[n > 0 ? n : 0] = '\0';
	printf("# helper %d (uid %d) holds %d MiB on device %d: %s", (int)h->pid, (int)uid,
	       mib, dev, line[0] ? line : "(no answer)\n");
	REQUIRE(!strcmp(line, "ready\n"));
}

static void stop_helper(struct helper *h)
{
	int st;

	if (h->pid <= 0)
		return;
	close(h->to);
	waitpid(h->pid, &st, 0);
	h->pid = -1;
}

/* --- running the tools --------------------------------------------------- */

static const char *tool(const char *name)
{
	static char path[2][PATH_MAX];
	int i = strcmp(name, "npu-smi") != 0;
	const char *e = getenv(i ? "ASCEND_SMI" : "NPU_SMI");

	if (e && *e)
		return e;
	snprintf(path[i], sizeof(path[i]), "%s/install/opt/ascend/bin/%s",
		 get_current_dir_name(), name);
	return path[i];
}

struct run {
	char *out, *err;	/* malloc'd, NUL-terminated */
	int status;		/* exit status, or 128 + signal */
};

static char *slurp(int fd)
{
	size_t len = 0;
	char *buf = calloc(1, 1);

	for (;;) {
		char chunk[4096], *nb;
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n <= 0)
			break;
		nb = realloc(buf, len + n + 1);
		if (!nb)
			break;
		buf = nb;
		memcpy(buf + len, chunk, n);
		len += n;
		buf[len] = '\0';
	}
	close(fd);
	return buf;
}

/* Run argv[0] (as @uid unless 0) with stdout and stderr captured. */
static struct run run_as(uid_t uid, char *const argv[])
{
	struct run r = { 0 };
	int out[2], err[2], st = 0;
	pid_t pid;

	REQUIRE(pipe(out) == 0 && pipe(err) == 0);
	fflush(stdout);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		if (uid)
			become(uid);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	r.out = slurp(out[0]);
	r.err = slurp(err[0]);
	waitpid(pid, &st, 0);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	printf("# $%s", uid ? " (uid " : "");
	if (uid)
		printf("%d)", (int)uid);
	for (int i = 0; argv[i]; i++)
		printf(" %s", argv[i]);
	printf(" (exit %d)\n", r.status);
	for (char *s = r.out, *e; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, '\n');
		printf("#   %.*s\n", (int)(e - s), s);
	}
	if (*r.err)
		printf("#   stderr: %s", r.err);
	return r;
}

/* npu-smi with the arguments up to a NULL, as @uid (0: root). */
static struct run npu_smi(uid_t uid, ...)
{
	char *argv[16] = { (char *)tool("npu-smi") };
	va_list ap;
	int n = 1;

	va_start(ap, uid);
	while (n < 15 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return run_as(uid, argv);
}

#define NPU_SMI(...) npu_smi(0, __VA_ARGS__, (char *)NULL)
#define NPU_SMI_AS(uid, ...) npu_smi(uid, __VA_ARGS__, (char *)NULL)

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* --- what the driver reports, to compare with ------------------------------ */

/* HBM used and total of device @dev in bytes (aclrtGetMemInfo, DEV_QUERY). */
static void hbm_of(int dev, unsigned long long *used, unsigned long long *total)
{
	size_t f, t;

	REQUIRE(aclrtSetDevice(dev) == ACL_SUCCESS);
	REQUIRE(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t) == ACL_SUCCESS);
	*used = t - f;
	*total = t;
	REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
}

/* The parent device of /dev/accel/accel@n, e.g. ascend.0. */
static void bus_of(int n, char *bus, size_t len)
{
	char link[64], target[PATH_MAX];
	ssize_t l;

	snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", n);
	l = readlink(link, target, sizeof(target) - 1);
	REQUIRE(l > 0);
	target[l] = '\0';
	snprintf(bus, len, "%s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

/*
 * HBM MiB of process @pid on NPU @npu as root's ascend-smi reports it from
 * debugfs ("NPU PID Command hbm_used(MiB) ..." lines), -1 if not listed.
 */
static long long debugfs_mib(const char *smi_out, unsigned int npu, pid_t pid)
{
	const char *s = strstr(smi_out, "\nProcesses:\n");

	for (s = s ? strchr(s + 1, '\n') : NULL; s && *s; s = strchr(s, '\n')) {
		unsigned int n;
		int p;
		char c[64];
		unsigned long long mib;

		s++;
		if (sscanf(s, "%u %d %63s %llu", &n, &p, c, &mib) == 4 && n == npu && p == pid)
			return (long long)mib;
	}
	return -1;
}

/* --- parsing npu-smi's output -------------------------------------------- */

static int lines_of(char *text, char **line, int max)
{
	int n = 0;

	for (char *s = text, *e; *s && n < max; s = e + 1) {
		e = strchrnul(s, '\n');
		line[n++] = s;
		if (!*e)
			break;
		*e = '\0';
	}
	return n;
}

/* The cells between '|' of a table line, blanks trimmed. */
static int cells(const char *line, char cell[][64], int max)
{
	int n = 0;
	const char *s = line;

	if (*s != '|')
		return 0;
	while (n < max) {
		const char *e = strchr(s + 1, '|');
		const char *a = s + 1, *b;

		if (!e)
			break;
		while (a < e && *a == ' ')
			a++;
		b = e;
		while (b > a && b[-1] == ' ')
			b--;
		snprintf(cell[n++], 64, "%.*s", (int)(b - a), a);
		s = e;
	}
	return n;
}

/* Split a cell at blanks (and " / " pairs). */
static int words(const char *cell, char w[][32], int max)
{
	char buf[64], *save = NULL, *t;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", cell);
	for (t = strtok_r(buf, " /", &save); t && n < max; t = strtok_r(NULL, " /", &save))
		snprintf(w[n++], 32, "%s", t);
	return n;
}

/* A "\t<key padded to 30> : <value>" line; false if it is not one. */
static bool kv_line(const char *line, char *key, char *value)
{
	const char *k = line + 1;
	int klen;

	if (line[0] != '\t' || strlen(line) < 34 || strncmp(line + 31, " : ", 3))
		return false;
	klen = 30;
	while (klen > 0 && k[klen - 1] == ' ')
		klen--;
	if (!klen || memchr(k, '\t', klen))
		return false;
	snprintf(key, 64, "%.*s", klen, k);
	snprintf(value, 64, "%s", line + 34);
	return true;
}

/*
 * @text's "key : value" lines must have exactly the keys of @keys, in that
 * order ("" = a blank line); their values go to @values.
 */
static bool kv_layout(char *text, const char *const *keys, int nkeys, char values[][64])
{
	char *line[64], key[64];
	int n = lines_of(text, line, 64), i;
	bool ok = n == nkeys;

	for (i = 0; i < n && i < nkeys; i++) {
		values[i][0] = '\0';
		if (!keys[i][0]) {
			if (line[i][0]) {
				printf("#   line %d: '%s', want a blank line\n", i + 1, line[i]);
				ok = false;
			}
			continue;
		}
		if (!kv_line(line[i], key, values[i]) || strcmp(key, keys[i])) {
			printf("#   line %d: '%s', want key '%s'\n", i + 1, line[i], keys[i]);
			ok = false;
		}
	}
	if (n != nkeys)
		printf("#   %d lines, want %d\n", n, nkeys);
	return ok;
}

static int key_index(const char *const *keys, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return i;
	REQUIRE(!"key of the layout");
	return -1;
}

/* --- cases ------------------------------------------------------------------ */

static void node_open_up(int n)
{
	char node[64];
	struct stat st;

	snprintf(node, sizeof(node), "/dev/accel/accel%d", n);
	REQUIRE(stat(node, &st) == 0);
	node_mode[n] = st.st_mode & 07777;
	REQUIRE(chmod(node, 0666) == 0);
}

TEST(setup_helpers)
{
	const char *e = getenv("ASCEND_EXPECT_DEVICES");
	const char *s;

	ndev = e && *e ? atoi(e) : 1;
	REQUIRE(ndev >= 1);
	if (ndev > 2)
		ndev = 2;
	REQUIRE(readlink("/proc/self/exe", self, sizeof(self) - 1) > 0);
	REQUIRE(aclInit(NULL) == ACL_SUCCESS);
	/* every device this process will ask about, before anything is compared */
	for (int i = ndev - 1; i >= 0; i--)
		REQUIRE(aclrtSetDevice(i) == ACL_SUCCESS);
	REQUIRE(aclrtMalloc(&own, 4 * MIB, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
	s = aclrtGetSocName();
	REQUIRE(s);
	snprintf(soc, sizeof(soc), "%s", s);
	/* the unprivileged user may open the nodes (the udev rule's group, here) */
	for (int i = 0; i < ndev; i++)
		node_open_up(i);
	{
		char *argv[] = { (char *)tool("ascend-smi"), "--version", NULL };
		struct run r = run_as(0, argv);

		REQUIRE(sscanf(r.out, "ascend-smi %31s", tool_version) == 1);
		run_free(&r);
	}
	spawn_helper(&root_helper, 0, 0, ROOT_MIB);
	spawn_helper(&user_helper, USER_UID, 0, USER_MIB);
	printf("# this process %d holds 4 MiB on device 0, soc %s\n", (int)getpid(), soc);
}

/* The device table and the process table of "npu-smi info", as root. */
static void check_table(uid_t uid)
{
	struct run r = uid ? NPU_SMI_AS(uid, "info") : NPU_SMI("info");
	struct run smi = { 0 };
	char *line[128], cell[8][64], w[8][32], bus[64], title[64];
	int n, i, row, dev, a, b, c;
	bool root_seen = false, user_seen = false, own_seen = false;

	CHECK_EQ(r.status, 0);
	if (!uid) {
		char *argv[] = { (char *)tool("ascend-smi"), NULL };

		smi = run_as(0, argv);
	}
	n = lines_of(r.out, line, 128);
	REQUIRE(n >= 2 + 3 + 3 * ndev + 3 + 2 * ndev);
	for (i = 0; i < n; i++)
		if ((int)strlen(line[i]) != WIDTH)
			printf("#   line %d is %zu wide, want %d\n", i + 1, strlen(line[i]), WIDTH),
			tap_failed_checks++;
	/* title: the tool's version, then the driver's at column 35 */
	CHECK(line[0][0] == '+' && strspn(line[0] + 1, "-") == WIDTH - 2 &&
	      line[0][WIDTH - 1] == '+');
	snprintf(title, sizeof(title), "| npu-smi %s", tool_version);
	CHECK(!strncmp(line[1], title, strlen(title)));
	CHECK(strspn(line[1] + strlen(title), " ") == 35 - strlen(title));
	CHECK(sscanf(line[1] + 35, "Version: %d.%d.%d", &a, &b, &c) == 3);
	CHECK(!strcmp(line[2], RULE_DASH));
	CHECK(!strcmp(line[3], "| NPU   Name                | Health        | Power(W)    Temp(C)"
		      "           Hugepages-Usage(page)|"));
	CHECK(!strcmp(line[4], "| Chip                      | Bus-Id        | AICore(%)   "
		      "Memory-Usage(MB)  HBM-Usage(MB)        |"));
	CHECK(!strcmp(line[5], RULE_EQ));
	row = 6;
	for (dev = 0; dev < ndev; dev++, row += 3) {
		unsigned long long used, total;

		hbm_of(dev, &used, &total);
		bus_of(dev, bus, sizeof(bus));
		/* | NPU Name | Health | Power(W) Temp(C) Hugepages-Usage(page) | */
		REQUIRE(cells(line[row], cell, 8) == 3);
		CHECK_EQ(words(cell[0], w, 8), 2);
		CHECK_EQ(atoi(w[0]), dev);
		CHECK(!strcmp(w[1], soc + 6));	/* Ascend910B4 -> 910B4 */
		CHECK(!strcmp(cell[1], "OK"));
		CHECK_EQ(words(cell[2], w, 8), 4);
		CHECK(!strcmp(w[0], "NA") && !strcmp(w[1], "NA"));
		CHECK(!strcmp(w[2], "0") && !strcmp(w[3], "0"));
		CHECK(strstr(cell[2], "0    / 0") != NULL);
		/* | Chip | Bus-Id | AICore(%) Memory-Usage(MB) HBM-Usage(MB) | */
		REQUIRE(cells(line[row + 1], cell, 8) == 3);
		CHECK(!strcmp(cell[0], "0"));
		CHECK(!strcmp(cell[1], bus));
		CHECK_EQ(words(cell[2], w, 8), 5);
		CHECK(!strcmp(w[0], "NA"));
		CHECK(!strcmp(w[1], "0") && !strcmp(w[2], "0"));
		CHECK_EQ(strtoull(w[3], NULL, 10), used / MIB);
		CHECK_EQ(strtoull(w[4], NULL, 10), total / MIB);
		if (dev == 0)
			CHECK(used / MIB >= ROOT_MIB + USER_MIB + 4);
		CHECK(!strcmp(line[row + 2], RULE_EQ));
	}
	/* the process table */
	CHECK(!strcmp(line[row], RULE_DASH));
	CHECK(!strcmp(line[row + 1], "| NPU     Chip              | Process id    | Process name"
		      "             | Process memory(MB)      |"));
	CHECK(!strcmp(line[row + 2], RULE_EQ));
	row += 3;
	for (dev = 0; dev < ndev; dev++) {
		int rows = 0;

		for (; row < n && strcmp(line[row], RULE_EQ); row++, rows++) {
			long long mib, want;
			pid_t pid;

			if (cells(line[row], cell, 8) == 1) {
				char want_line[128];

				snprintf(want_line, sizeof(want_line),
					 "No running processes found in NPU %d", dev);
				CHECK(!strcmp(cell[0], want_line));
				CHECK(dev != 0);
				continue;
			}
			REQUIRE(cells(line[row], cell, 8) == 4);
			CHECK_EQ(words(cell[0], w, 8), 2);
			CHECK_EQ(atoi(w[0]), dev);
			CHECK(!strcmp(w[1], "0"));
			pid = atoi(cell[1]);
			mib = atoll(cell[3]);
			CHECK(pid > 0);
			if (pid == root_helper.pid) {
				root_seen = true;
				CHECK(!strcmp(cell[2], COMM));
				CHECK(mib >= ROOT_MIB && mib < ROOT_MIB + SLACK_MIB);
			} else if (pid == user_helper.pid) {
				user_seen = true;
				CHECK(!strcmp(cell[2], COMM));
				CHECK(mib >= USER_MIB && mib < USER_MIB + SLACK_MIB);
			} else if (pid == getpid() && dev == 0) {
				own_seen = true;
				CHECK(!strcmp(cell[2], COMM));
				CHECK(mib >= 4 && mib < 4 + SLACK_MIB);
			}
			/* the same bytes root reads from debugfs */
			if (!uid) {
				want = debugfs_mib(smi.out, dev, pid);
				if (want != mib)
					printf("#   pid %d: %lld MB, debugfs %lld MiB\n", (int)pid,
					       mib, want);
				CHECK_EQ(mib, want);
			}
		}
		CHECK(rows >= 1);
		CHECK(row < n && !strcmp(line[row], RULE_EQ));
		row++;
	}
	CHECK_EQ(row, n);
	/* root sees every process; the user only its own */
	CHECK(user_seen);
	CHECK(root_seen == !uid);
	CHECK(own_seen == !uid);
	run_free(&r);
	if (!uid)
		run_free(&smi);
}

TEST(info_table_as_root)
{
	check_table(0);
}

TEST(info_table_as_user_own_processes_only)
{
	check_table(USER_UID);
}

TEST(info_l)
{
	/* every block ends with a blank line, the last one too */
	static const char *const keys[] = { "Total Count", "", "NPU ID", "Chip Count", "",
					    "NPU ID", "Chip Count", "" };
	char values[8][64];
	struct run r = NPU_SMI("info", "-l");
	int n = 2 + 3 * ndev;

	CHECK_EQ(r.status, 0);
	CHECK(kv_layout(r.out, keys, n, values));
	CHECK_EQ(atoi(values[0]), ndev);
	for (int i = 0; i < ndev; i++) {
		CHECK_EQ(atoi(values[2 + 3 * i]), i);
		CHECK_EQ(atoi(values[3 + 3 * i]), 1);
	}
	run_free(&r);
}

TEST(info_m)
{
	struct run r = NPU_SMI("info", "-m");
	char *line[16], want[160], name[64];
	int n = lines_of(r.out, line, 16);

	CHECK_EQ(r.status, 0);
	CHECK_EQ(n, 1 + ndev);
	/* 30-character columns and a blank each, the last header padded too */
	CHECK(!strcmp(line[0], "\tNPU ID                         Chip ID                        "
		      "Chip Logic ID                  Chip Name                     "));
	snprintf(name, sizeof(name), "Ascend %s", soc + 6);
	for (int i = 0; i < ndev && i + 1 < n; i++) {
		snprintf(want, sizeof(want), "\t%-31d%-31d%-31d%s", i, 0, i, name);
		CHECK(!strcmp(line[i + 1], want));
	}
	run_free(&r);
}

static const char *const board_keys[] = {
	"NPU ID", "Product Name", "Model", "Manufacturer", "Serial Number",
	"Software Version", "Firmware Version", "Compatibility", "Board ID", "PCB ID",
	"BOM ID", "PCIe Bus Info", "Slot ID", "Class ID", "PCI Vendor ID", "PCI Device ID",
	"Subsystem Vendor ID", "Subsystem Device ID", "Chip Count",
};
#define NBOARD (int)(sizeof(board_keys) / sizeof(board_keys[0]))

TEST(board)
{
	static const char *const chip_keys[] = {
		"NPU ID", "Chip ID", "Chip Type", "Chip Name", "Chip Version", "Board ID",
		"PCB ID", "BOM ID", "VDie ID", "NDie ID", "Chip Position ID", "PCIe Bus Info",
		"Firmware Version",
	};
#define NCHIP (int)(sizeof(chip_keys) / sizeof(chip_keys[0]))
	char values[NBOARD][64], bus[64], id[16];
	int a, b, c;

	for (int dev = 0; dev < ndev; dev++) {
		struct run r;

		snprintf(id, sizeof(id), "%d", dev);
		r = NPU_SMI("info", "-t", "board", "-i", id);
		CHECK_EQ(r.status, 0);
		CHECK(kv_layout(r.out, board_keys, NBOARD, values));
		bus_of(dev, bus, sizeof(bus));
		CHECK_EQ(atoi(values[0]), dev);
		CHECK(strstr(values[key_index(board_keys, NBOARD, "Product Name")], "Ascend"));
		CHECK_EQ(sscanf(values[key_index(board_keys, NBOARD, "Software Version")],
				"%d.%d.%d", &a, &b, &c), 3);
		CHECK(!strcmp(values[key_index(board_keys, NBOARD, "Compatibility")], "OK"));
		CHECK(!strcmp(values[key_index(board_keys, NBOARD, "PCIe Bus Info")], bus));
		CHECK(!strcmp(values[key_index(board_keys, NBOARD, "Serial Number")], "NA"));
		CHECK(!strcmp(values[key_index(board_keys, NBOARD, "PCI Vendor ID")], "NA"));
		CHECK(!strcmp(values[key_index(board_keys, NBOARD, "Chip Count")], "1"));
		run_free(&r);

		/* with -c: the chip, whose type and name make the SoC name */
		r = NPU_SMI("info", "-t", "board", "-i", id, "-c", "0");
		CHECK_EQ(r.status, 0);
		CHECK(kv_layout(r.out, chip_keys, NCHIP, values));
		CHECK_EQ(atoi(values[0]), dev);
		CHECK(!strcmp(values[1], "0"));
		CHECK(!strcmp(values[2], "Ascend"));
		CHECK(!strcmp(values[3], soc + 6));
		CHECK(!strcmp(values[key_index(chip_keys, NCHIP, "PCIe Bus Info")], bus));
		CHECK(!strcmp(values[key_index(chip_keys, NCHIP, "VDie ID")], "NA"));
		run_free(&r);
	}
}

static const char *const usages_keys[] = {
	"NPU ID", "Chip Count", "", "DDR Capacity(MB)", "DDR Usage Rate(%)",
	"DDR Hugepages Total(page)", "DDR Hugepages Usage Rate(%)", "HBM Capacity(MB)",
	"HBM Usage Rate(%)", "Aicore Usage Rate(%)", "Aivector Usage Rate(%)",
	"Aicpu Usage Rate(%)", "Ctrlcpu Usage Rate(%)", "DDR Bandwidth Usage Rate(%)",
	"HBM Bandwidth Usage Rate(%)", "NPU Utilization(%)", "Aicube Usage Rate(%)", "Chip ID",
};
#define NUSAGES (int)(sizeof(usages_keys) / sizeof(usages_keys[0]))

/* "HBM Usage Rate(%)" of NPU 0, and its capacity in *cap_mb. */
static int usage_rate(unsigned long long *cap_mb)
{
	char values[20][64];
	struct run r = NPU_SMI("info", "-t", "usages", "-i", "0");
	int rate;

	CHECK_EQ(r.status, 0);
	CHECK(kv_layout(r.out, usages_keys, NUSAGES, values));
	CHECK_EQ(atoi(values[0]), 0);
	CHECK_EQ(atoi(values[1]), 1);
	CHECK(!strcmp(values[key_index(usages_keys, NUSAGES, "DDR Capacity(MB)")], "0"));
	CHECK(!strcmp(values[key_index(usages_keys, NUSAGES, "Aicore Usage Rate(%)")], "NA"));
	CHECK(!strcmp(values[key_index(usages_keys, NUSAGES, "Chip ID")], "0"));
	*cap_mb = strtoull(values[key_index(usages_keys, NUSAGES, "HBM Capacity(MB)")], NULL, 10);
	rate = atoi(values[key_index(usages_keys, NUSAGES, "HBM Usage Rate(%)")]);
	run_free(&r);
	return rate;
}

/* A helper's known allocation moves the device's numbers by that much. */
TEST(usages_and_table_follow_an_allocation)
{
	unsigned long long used0, used1, total, cap;
	struct helper big = { -1, -1 };
	char *line[64], cell[8][64], w[8][32];
	struct run r;
	int rate;

	hbm_of(0, &used0, &total);
	rate = usage_rate(&cap);
	CHECK_EQ(cap, total / MIB);
	CHECK_EQ(rate, (int)((used0 * 100 + total / 2) / total));

	spawn_helper(&big, 0, 0, BIG_MIB);
	hbm_of(0, &used1, &total);
	CHECK(used1 - used0 >= BIG_MIB * MIB);
	CHECK(used1 - used0 < (BIG_MIB + SLACK_MIB) * MIB);
	rate = usage_rate(&cap);
	CHECK_EQ(rate, (int)((used1 * 100 + total / 2) / total));
	CHECK(rate >= (int)(BIG_MIB * MIB * 100 / total));

	r = NPU_SMI("info");
	REQUIRE(lines_of(r.out, line, 64) > 7);
	REQUIRE(cells(line[7], cell, 8) == 3);
	REQUIRE(words(cell[2], w, 8) == 5);
	CHECK_EQ(strtoull(w[3], NULL, 10), used1 / MIB);
	run_free(&r);
	stop_helper(&big);

	hbm_of(0, &used1, &total);
	CHECK_EQ(used1, used0);
}

TEST(memory)
{
	static const char *const keys[] = {
		"NPU ID", "DDR Capacity(MB)", "DDR Clock Speed(MHz)", "HBM Capacity(MB)",
		"HBM Clock Speed(MHz)", "HBM Temperature(C)", "HBM Manufacturer ID", "Chip ID",
	};
	unsigned long long used, total;
	char values[10][64], id[16];

	for (int dev = 0; dev < ndev; dev++) {
		struct run r;

		snprintf(id, sizeof(id), "%d", dev);
		r = NPU_SMI("info", "-t", "memory", "-i", id);
		hbm_of(dev, &used, &total);
		CHECK_EQ(r.status, 0);
		CHECK(kv_layout(r.out, keys, 8, values));
		CHECK_EQ(atoi(values[0]), dev);
		CHECK(!strcmp(values[1], "0"));
		CHECK_EQ(strtoull(values[3], NULL, 10), total / MIB);
		CHECK(!strcmp(values[4], "NA"));
		CHECK(!strcmp(values[7], "0"));
		run_free(&r);
	}
}

/*
 * "npu-smi info -t proc-mem -i 0": NPU ID, one fixed-column line per
 * process, Chip ID; the same processes and MB as the process table.
 */
static void check_proc_mem(uid_t uid)
{
	struct run r = uid ? NPU_SMI_AS(uid, "info", "-t", "proc-mem", "-i", "0") :
			     NPU_SMI("info", "-t", "proc-mem", "-i", "0");
	bool root_seen = false, user_seen = false, own_seen = false;
	char *line[64], key[64], value[64];
	int n = lines_of(r.out, line, 64);

	CHECK_EQ(r.status, 0);
	REQUIRE(n >= 3);
	CHECK(kv_line(line[0], key, value) && !strcmp(key, "NPU ID") && !strcmp(value, "0"));
	CHECK(kv_line(line[n - 1], key, value) && !strcmp(key, "Chip ID") &&
	      !strcmp(value, "0"));
	for (int i = 1; i < n - 1; i++) {
		const char *l = line[i];
		char name[32] = "";
		int pid = 0, mib = -1;

		/* "\tProcess id:%-7d Process name:%-17s Process memory(MB):%u" */
		CHECK(!strncmp(l, "\tProcess id:", 12) && strlen(l) > 70);
		if (strlen(l) <= 70)
			continue;
		CHECK(!strncmp(l + 20, "Process name:", 13));
		CHECK(!strncmp(l + 51, "Process memory(MB):", 19));
		CHECK(sscanf(l + 12, "%d", &pid) == 1 && sscanf(l + 33, "%31s", name) == 1 &&
		      sscanf(l + 70, "%d", &mib) == 1);
		if (pid == root_helper.pid) {
			root_seen = true;
			CHECK(mib >= ROOT_MIB && mib < ROOT_MIB + SLACK_MIB);
		} else if (pid == user_helper.pid) {
			user_seen = true;
			CHECK(mib >= USER_MIB && mib < USER_MIB + SLACK_MIB);
		} else if (pid == getpid()) {
			own_seen = true;
			CHECK(mib >= 4 && mib < 4 + SLACK_MIB);
		}
		CHECK(!strcmp(name, COMM));
	}
	/* root sees every process; the user only its own */
	CHECK(user_seen);
	CHECK(root_seen == !uid);
	CHECK(own_seen == !uid);
	if (uid)
		CHECK_EQ(n, 3);
	run_free(&r);
}

TEST(proc_mem_as_root)
{
	check_proc_mem(0);
}

TEST(proc_mem_as_user_own_processes_only)
{
	struct run r;

	check_proc_mem(USER_UID);
	if (ndev < 2)
		return;
	/* NPU 1: only this (root's) process has it open, so none of the user's */
	r = NPU_SMI_AS(USER_UID, "info", "-t", "proc-mem", "-i", "1");
	CHECK_EQ(r.status, 0);
	CHECK(!strcmp(r.out, "\tNPU ID                         : 1\n"
		      "\tNo process in device.\n"
		      "\tChip ID                        : 0\n"));
	run_free(&r);
}

/* No sensor is read: npu-smi's keys with NA; the health the device answers. */
TEST(temp_power_health)
{
	static const char *const temp_keys[] = {
		"NPU ID", "Chip Count", "", "NPU Temperature (C)", "Chip ID",
	};
	static const char *const power_keys[] = {
		"NPU ID", "Chip Count", "", "NPU Real-time Power(W)", "Chip ID",
	};
	static const char *const health_keys[] = {
		"NPU ID", "Chip Count", "", "Health Status", "Error Code", "Error Information",
		"Chip ID",
	};
	char values[8][64];
	struct run r;

	r = NPU_SMI("info", "-t", "temp", "-i", "0");
	CHECK_EQ(r.status, 0);
	CHECK(kv_layout(r.out, temp_keys, 5, values));
	CHECK(!strcmp(values[3], "NA"));
	run_free(&r);

	r = NPU_SMI("info", "-t", "power", "-i", "0");
	CHECK_EQ(r.status, 0);
	CHECK(kv_layout(r.out, power_keys, 5, values));
	CHECK(!strcmp(values[3], "NA"));
	run_free(&r);

	r = NPU_SMI("info", "-t", "health", "-i", "0");
	CHECK_EQ(r.status, 0);
	CHECK(kv_layout(r.out, health_keys, 7, values));
	CHECK(!strcmp(values[3], "OK"));
	CHECK(!strcmp(values[4], "NA") && !strcmp(values[5], "NA"));
	run_free(&r);

	/* with -c: the chip's three lines only */
	r = NPU_SMI("info", "-t", "health", "-i", "0", "-c", "0");
	CHECK_EQ(r.status, 0);
	CHECK(kv_layout(r.out, health_keys + 3, 3, values));
	CHECK(!strcmp(values[0], "OK"));
	run_free(&r);
}

/* Each error: a message on stderr naming what was wrong, nothing on stdout. */
static void check_error(int want_status, const char *want_msg, struct run r)
{
	CHECK_EQ(r.status, want_status);
	CHECK(!r.out[0]);
	CHECK(strstr(r.err, want_msg) != NULL);
	run_free(&r);
}

TEST(errors_give_a_message_and_nonzero_exit)
{
	check_error(3, "NPU 7 does not exist", NPU_SMI("info", "-t", "usages", "-i", "7"));
	check_error(2, "invalid NPU id 'x'", NPU_SMI("info", "-t", "board", "-i", "x"));
	check_error(2, "invalid NPU id '-1'", NPU_SMI("info", "-t", "memory", "-i", "-1"));
	check_error(2, "unknown type 'fan'", NPU_SMI("info", "-t", "fan", "-i", "0"));
	check_error(2, "needs -i", NPU_SMI("info", "-t", "usages"));
	check_error(2, "-i needs a value", NPU_SMI("info", "-t", "usages", "-i"));
	check_error(3, "no chip 1", NPU_SMI("info", "-t", "board", "-i", "0", "-c", "1"));
	check_error(2, "unknown option '-x'", NPU_SMI("info", "-x"));
	check_error(2, "unknown command 'set'", NPU_SMI("set"));
}

/* npu-smi --json is ascend-smi's JSON document, options and all. */
TEST(json_is_ascend_smis)
{
	struct run r = NPU_SMI("--json", "--debugfs", "/nonexistent");

	CHECK_EQ(r.status, 0);
	CHECK(r.out[0] == '{');
	CHECK(strstr(r.out, "\"devices\": [") != NULL);
	CHECK(strstr(r.out, "\"soc_name\": \"") != NULL);
	CHECK(strstr(r.out, "\"debugfs\": false") != NULL);
	run_free(&r);
}

/* The example of Documentation/npu-smi.rst, as a user would paste it. */
TEST(documentation_example)
{
	char bin[PATH_MAX], path[PATH_MAX * 2], want[128];
	char *argv[] = { "/bin/sh", "install/npu-smi-example.sh", NULL };
	unsigned long long used, total;
	struct run r;

	snprintf(bin, sizeof(bin), "%s", tool("npu-smi"));
	*strrchr(bin, '/') = '\0';
	snprintf(path, sizeof(path), "%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/bin");
	setenv("PATH", path, 1);
	r = run_as(0, argv);
	CHECK_EQ(r.status, 0);
	CHECK(!r.err[0]);
	hbm_of(0, &used, &total);
	snprintf(want, sizeof(want), "NPU 0: HBM %llu of %llu MB used\n", used / MIB,
		 total / MIB);
	CHECK(strstr(r.out, want) != NULL);
	snprintf(want, sizeof(want), "NPU 0: pid %d " COMM " ", (int)root_helper.pid);
	CHECK(strstr(r.out, want) != NULL);
	snprintf(want, sizeof(want), "NPU 0: pid %d " COMM " ", (int)user_helper.pid);
	CHECK(strstr(r.out, want) != NULL);
	snprintf(want, sizeof(want), "NPU 0: HBM usage %llu%%\n",
		 (used * 100 + total / 2) / total);
	CHECK(strstr(r.out, want) != NULL);
	/* the two helpers and this process */
	CHECK(strstr(r.out, "NPU 0: 3 processes\n") != NULL);
	run_free(&r);
}

TEST(teardown)
{
	char node[64];

	stop_helper(&root_helper);
	stop_helper(&user_helper);
	for (int i = 0; i < ndev; i++) {
		snprintf(node, sizeof(node), "/dev/accel/accel%d", i);
		CHECK(chmod(node, node_mode[i]) == 0);
	}
}


int main(int argc, char **argv)
{
	int rc;

	if (argc == 4 && !strcmp(argv[1], "--hold"))
		return hold(atoi(argv[2]), atoi(argv[3]));
	rc = tap_main_in_order();
	if (own)
		aclrtFree(own);
	aclrtResetDevice(0);
	aclFinalize();
	return rc;
}
