// SPDX-License-Identifier: MIT
/*
 * ascend-smi - status of the NPUs driven by the ascend accel driver.
 *
 *   ascend-smi [--json] [--watch [SECS]] [--count N] [--debugfs DIR]
 *
 * Per device: index, node, bus id, SoC name, health, HBM total/used/free,
 * DMA engines, AI cores (DRM_IOCTL_ASCEND_DEV_QUERY on /dev/accel/accelN);
 * per process: HBM held, buffer objects, queues and whatever else the
 * driver's debugfs "clients" file lists (e.g. pinned host memory); the
 * driver's debugfs views of queues, engines, faults and users when it has
 * them, and its virtual memory (reservations, mappings, physical
 * allocations) from "hbm".
 * Nothing comes from logs.  Without access to debugfs (not root, debugfs
 * not mounted) the device list still works, the per-process part says
 * why debugfs is missing and lists the processes from their fdinfo
 * (smi_proc.c: HBM and pinned host memory; a user's own processes, all
 * for root); JSON has those as "fdinfo_processes" either way.
 * Documentation/install.rst shows example output.
 *
 * Run as npu-smi (the name make install links to it), it answers the
 * npu-smi commands instead (npu_smi.c, Documentation/npu-smi.rst).
 *
 * Exit status: 0 when at least one device was listed and all answered,
 * 1 when a device did not answer (health not OK), 2 on usage errors,
 * 3 when no ascend device was found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "npu_smi.h"
#include "smi_dev.h"
#include "smi_proc.h"

#ifndef ASCEND_SMI_VERSION
#define ASCEND_SMI_VERSION "0.0.0"
#endif

#define MAX_CLIENTS	256
#define MAX_COLS	16
#define MIB		SMI_MIB

/*
 * Optional debugfs views shown raw (text) or as arrays of lines (JSON).
 * "reservations" is not a file: the lines of "hbm" about virtual memory
 * (VA reservations, the mappings in them, physical allocations).
 */
static const char *const extra_views[] = { "queues", "engines", "faults", "users",
					   "reservations", "managed" };
#define VIEW_RESERVATIONS 4
#define NR_EXTRA (sizeof(extra_views) / sizeof(extra_views[0]))

struct client {
	char col[MAX_COLS][64];		/* values in header order */
};

/* A device (smi_dev.c) and what debugfs says about it. */
struct device {
	bool have_debugfs;		/* hbm/clients readable */
	unsigned long long dbg_allocations;
	int ncols;
	char colname[MAX_COLS][32];
	int nclients;
	struct client clients[MAX_CLIENTS];
	char *extra[NR_EXTRA];		/* raw text, NULL when not exposed */
};

static struct smi_dev sdevs[SMI_MAX_DEVICES];
static struct device devs[SMI_MAX_DEVICES];
static int ndevs;
/* The processes from /proc/<pid>/fdinfo (smi_proc.c): this user's, or all for root. */
static struct smi_proc *procs;
static int nprocs;		/* -1: /proc could not be read */
static int procs_errno;		/* why */
static const char *debugfs_root = "/sys/kernel/debug";
static int debugfs_errno;		/* why debugfs could not be read */

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);

	if (!p) {
		fprintf(stderr, "ascend-smi: out of memory\n");
		exit(1);
	}
	return p;
}

/* Whole file as a NUL-terminated string; NULL (errno set) on failure. */
static char *read_file(const char *path)
{
	size_t cap = 4096, len = 0;
	char *buf;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = xcalloc(1, cap);
	for (;;) {
		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

static bool is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Split @line at blanks into at most @max tokens (modifies @line). */
static int split(char *line, char **tok, int max)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t", &save); t && n < max;
	     t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

/*
 * clients: a header line of column names, then one line per open file.  The
 * second column is the command name, which may contain blanks: surplus
 * tokens are joined back into it.
 */
static void parse_clients(struct device *d, char *text)
{
	char *save = NULL, *line;
	bool header = true;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[MAX_COLS + 32];
		int n = split(line, tok, MAX_COLS + 32), i, extra;

		if (n == 0)
			continue;
		if (header) {
			d->ncols = n < MAX_COLS ? n : MAX_COLS;
			for (i = 0; i < d->ncols; i++)
				snprintf(d->colname[i], sizeof(d->colname[i]), "%s", tok[i]);
			header = false;
			continue;
		}
		if (d->nclients >= MAX_CLIENTS || n < d->ncols)
			continue;
		extra = n - d->ncols;
		struct client *c = &d->clients[d->nclients++];

		for (i = 0; i < d->ncols; i++) {
			if (i == 1 && d->ncols > 1) {
				char buf[64] = "";
				int k;

				for (k = 1; k <= 1 + extra; k++) {
					if (k > 1)
						strncat(buf, " ", sizeof(buf) - strlen(buf) - 1);
					strncat(buf, tok[k], sizeof(buf) - strlen(buf) - 1);
				}
				snprintf(c->col[i], sizeof(c->col[i]), "%s", buf);
			} else {
				snprintf(c->col[i], sizeof(c->col[i]), "%s",
					 tok[i > 1 ? i + extra : i]);
			}
		}
	}
}

/*
 * The virtual-memory lines of a debugfs "hbm" text: its object header,
 * then the "reserved", "mapped" and "physical" lines.  NULL for a text
 * without objects part.  Malloc'd.
 */
static char *vmm_lines(const char *text)
{
	const char *hdr = strstr(text, "\n\n"), *s, *e;
	size_t n = 0, len;
	char *out;

	if (!hdr)
		return NULL;
	out = xcalloc(1, strlen(text) + 1);
	hdr += 2;
	e = strchrnul(hdr, '\n');
	len = (size_t)(e - hdr);
	memcpy(out, hdr, len);
	n = len;
	out[n++] = '\n';
	for (s = *e ? e + 1 : e; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, '\n');
		len = (size_t)(e - s);
		if (memmem(s, len, " reserved ", 10) || memmem(s, len, " mapped ", 8) ||
		    memmem(s, len, " physical ", 10)) {
			memcpy(out + n, s, len);
			n += len;
			out[n++] = '\n';
		}
	}
	out[n] = '\0';
	return out;
}

static void read_debugfs(struct device *d, const struct smi_dev *s)
{
	char path[PATH_MAX];
	char *text;
	unsigned int i;

	snprintf(path, sizeof(path), "%s/accel/%s/clients", debugfs_root, s->bus);
	text = read_file(path);
	if (!text) {
		debugfs_errno = errno;
		return;
	}
	parse_clients(d, text);
	free(text);
	d->have_debugfs = true;

	snprintf(path, sizeof(path), "%s/accel/%s/hbm", debugfs_root, s->bus);
	text = read_file(path);
	if (text) {
		char *p = strstr(text, "allocations:");

		if (p)
			d->dbg_allocations = strtoull(p + strlen("allocations:"), NULL, 10);
		d->extra[VIEW_RESERVATIONS] = vmm_lines(text);
		free(text);
	}
	for (i = 0; i < NR_EXTRA; i++) {
		if (i == VIEW_RESERVATIONS)
			continue;
		snprintf(path, sizeof(path), "%s/accel/%s/%s", debugfs_root, s->bus,
			 extra_views[i]);
		d->extra[i] = read_file(path);
	}
}

static void free_devices(void)
{
	int i;
	unsigned int k;

	for (i = 0; i < ndevs; i++)
		for (k = 0; k < NR_EXTRA; k++)
			free(devs[i].extra[k]);
	memset(devs, 0, sizeof(devs));
	ndevs = 0;
	free(procs);
	procs = NULL;
	nprocs = 0;
}

/* The devices (smi_dev.c), what debugfs has on each, the processes (smi_proc.c). */
static void scan(void)
{
	int i;

	free_devices();
	debugfs_errno = 0;
	ndevs = smi_scan(sdevs);
	for (i = 0; i < ndevs; i++)
		read_debugfs(&devs[i], &sdevs[i]);
	nprocs = smi_procs(sdevs, ndevs, &procs);
	procs_errno = nprocs < 0 ? errno : 0;
}

/*
 * Without debugfs: the processes with a device open and what their files
 * hold, from the driver's fdinfo keys (drm-total-hbm, drm-total-memory).
 */
static void print_fdinfo_processes(void)
{
	int i;

	if (nprocs < 0) {
		printf("  cannot read /proc either (%s)\n", strerror(procs_errno));
		return;
	}
	printf("  from /proc/<pid>/fdinfo instead (%s):\n",
	       geteuid() ? "this user's processes" : "every process");
	printf("%-4s %-8s %-16s %16s %16s\n", "NPU", "PID", "Command", "hbm_used(MiB)",
	       "host_pinned(MiB)");
	for (i = 0; i < nprocs; i++) {
		const struct smi_proc *p = &procs[i];

		if (p->stats)
			printf("%-4u %-8d %-16s %16llu %16llu\n", p->npu, (int)p->pid, p->comm,
			       (unsigned long long)(p->hbm / MIB),
			       (unsigned long long)(p->host / MIB));
		else
			printf("%-4u %-8d %-16s %16s %16s\n", p->npu, (int)p->pid, p->comm, "-",
			       "-");
	}
	if (!nprocs)
		printf("  (none)\n");
}

static const char *health(const struct smi_dev *d)
{
	if (d->open_errno == EACCES || d->open_errno == EPERM)
		return "NoAccess";
	if (d->open_errno || d->query_errno)
		return "Error";
	return "OK";
}

/* Columns holding byte counts are shown in MiB in text mode. */
static bool bytes_column(const char *name)
{
	return strstr(name, "hbm") || strstr(name, "pinned") || strstr(name, "host") ||
	       strstr(name, "bytes");
}

static void now_string(char *buf, size_t len, bool iso)
{
	time_t t = time(NULL);
	struct tm tm;

	if (iso)
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	else
		strftime(buf, len, "%a %b %e %H:%M:%S %Y", localtime_r(&t, &tm));
}

static void print_text(void)
{
	char when[64];
	bool any_dbg = false;
	int i, j, c;
	unsigned int k;

	now_string(when, sizeof(when), false);
	printf("ascend-smi %s%*s%s\n", ASCEND_SMI_VERSION, 40, "", when);
	printf("%-4s %-18s %-10s %-14s %-9s %-22s %6s %4s\n", "NPU", "Node", "Bus",
	       "SoC", "Health", "HBM-Usage(MiB)", "AICore", "DMA");
	for (i = 0; i < ndevs; i++) {
		const struct smi_dev *s = &sdevs[i];
		char usage[48] = "-";
		char aic[16] = "-", dma[16] = "-";

		if (smi_healthy(s)) {
			snprintf(usage, sizeof(usage), "%llu / %llu", smi_hbm_used(s) / MIB,
				 (unsigned long long)(s->info.hbm_total / MIB));
			snprintf(aic, sizeof(aic), "%u", s->info.num_ai_cores);
			snprintf(dma, sizeof(dma), "%u", s->info.num_dma_engines);
		}
		printf("%-4u %-18s %-10s %-14s %-9s %-22s %6s %4s\n", s->index, s->node,
		       s->bus, smi_healthy(s) ? s->info.soc_name : "-", health(s), usage,
		       aic, dma);
		if (!smi_healthy(s))
			printf("     (%s)\n", smi_health_detail(s));
		any_dbg |= devs[i].have_debugfs;
	}
	if (!ndevs) {
		printf("(no ascend device)\n");
		fflush(stdout);
		return;
	}

	printf("\nProcesses:\n");
	if (!any_dbg) {
		printf("  not available: cannot read %s/accel/<device>/clients (%s);\n"
		       "  needs root and debugfs mounted (mount -t debugfs none /sys/kernel/debug)\n",
		       debugfs_root, strerror(debugfs_errno ? debugfs_errno : ENOENT));
		print_fdinfo_processes();
	} else {
		const struct device *h = NULL;

		for (i = 0; i < ndevs && !h; i++)
			if (devs[i].have_debugfs)
				h = &devs[i];
		printf("%-4s %-8s %-16s", "NPU", "PID", "Command");
		for (c = 2; c < h->ncols; c++) {
			char name[48];

			if (bytes_column(h->colname[c]))
				snprintf(name, sizeof(name), "%s(MiB)", h->colname[c]);
			else
				snprintf(name, sizeof(name), "%s", h->colname[c]);
			printf(" %12s", name);
		}
		printf("\n");
		for (i = 0; i < ndevs; i++) {
			const struct device *d = &devs[i];

			for (j = 0; j < d->nclients; j++) {
				const struct client *cl = &d->clients[j];

				printf("%-4u %-8s %-16s", sdevs[i].index, cl->col[0],
				       d->ncols > 1 ? cl->col[1] : "?");
				for (c = 2; c < d->ncols; c++) {
					if (bytes_column(d->colname[c]) && is_number(cl->col[c]))
						printf(" %12llu", strtoull(cl->col[c], NULL, 10) / MIB);
					else
						printf(" %12s", cl->col[c]);
				}
				printf("\n");
			}
		}
	}

	for (k = 0; k < NR_EXTRA; k++) {
		bool shown = false;

		for (i = 0; i < ndevs; i++) {
			if (!devs[i].extra[k])
				continue;
			if (!shown)
				printf("\n%c%s:\n", extra_views[k][0] - 'a' + 'A', extra_views[k] + 1);
			shown = true;
			printf("  NPU %u:\n", sdevs[i].index);
			for (char *s = devs[i].extra[k], *e; *s; s = e + (*e != '\0')) {
				e = strchrnul(s, '\n');
				printf("    %.*s\n", (int)(e - s), s);
			}
		}
		if (!shown && any_dbg)
			printf("\n%c%s: not exposed by the driver\n",
			       extra_views[k][0] - 'a' + 'A', extra_views[k] + 1);
	}
	fflush(stdout);
}

/* --- JSON ------------------------------------------------------------- */

static bool compact;
static int depth;
static bool need_comma;

static void jnl(void)
{
	if (!compact)
		printf("\n%*s", depth * 2, "");
}

static void jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch == '\n')
			printf("\\n");
		else if (ch == '\t')
			printf("\\t");
		else if (ch < 0x20 || ch >= 0x7f)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void jkey(const char *k)
{
	if (need_comma)
		putchar(',');
	jnl();
	if (k) {
		jstr(k);
		printf(compact ? ":" : ": ");
	}
	need_comma = true;
}

static void jopen(const char *k, char ch)
{
	jkey(k);
	putchar(ch);
	depth++;
	need_comma = false;
}

static void jclose(char ch)
{
	depth--;
	if (need_comma)
		jnl();
	putchar(ch);
	need_comma = true;
}

static void jstrv(const char *k, const char *v)
{
	jkey(k);
	jstr(v);
}

static void jnum(const char *k, unsigned long long v)
{
	jkey(k);
	printf("%llu", v);
}

static void jraw(const char *k, const char *v)
{
	jkey(k);
	fputs(v, stdout);
}

static void print_json(void)
{
	char when[64];
	int i, j, c;
	unsigned int k;

	now_string(when, sizeof(when), true);
	depth = 0;
	need_comma = false;
	putchar('{');
	depth++;
	jstrv("version", ASCEND_SMI_VERSION);
	jstrv("timestamp", when);
	jopen("devices", '[');
	for (i = 0; i < ndevs; i++) {
		const struct smi_dev *s = &sdevs[i];
		const struct device *d = &devs[i];
		char caps[32];

		jopen(NULL, '{');
		jnum("index", s->index);
		jstrv("node", s->node);
		jstrv("bus_id", s->bus);
		jstrv("health", health(s));
		jstrv("health_detail", smi_health_detail(s));
		if (s->driver[0]) {
			jstrv("driver", s->driver);
			jstrv("driver_version", s->driver_version);
		}
		if (smi_healthy(s)) {
			jstrv("soc_name", s->info.soc_name);
			jnum("hbm_total", s->info.hbm_total);
			jnum("hbm_used", smi_hbm_used(s));
			jnum("hbm_free", s->info.hbm_free);
			jnum("hbm_largest_free", s->info.hbm_largest_free);
			jnum("dma_engines", s->info.num_dma_engines);
			jnum("ai_cores", s->info.num_ai_cores);
			jnum("max_queues_per_file", s->info.max_queues_per_file);
			/* this user's holdings and shares (0 from older kernels) */
			jnum("queues_by_user", s->info.queues_by_user);
			jnum("max_queues_by_user", s->info.max_queues_by_user);
			jnum("hbm_used_by_user", s->info.hbm_used_by_user);
			jnum("hbm_user_quota", s->info.hbm_user_quota);
			jnum("cmd_timeout_ms", s->info.cmd_timeout_ms);
			snprintf(caps, sizeof(caps), "0x%llx",
				 (unsigned long long)s->info.capabilities);
			jstrv("capabilities", caps);
		}
		/* from fdinfo, whether or not debugfs is readable; null without /proc */
		if (nprocs < 0) {
			jraw("fdinfo_processes", "null");
		} else {
			jopen("fdinfo_processes", '[');
			for (j = 0; j < nprocs; j++) {
				const struct smi_proc *p = &procs[j];

				if (p->npu != s->index)
					continue;
				jopen(NULL, '{');
				jnum("pid", p->pid);
				jstrv("command", p->comm);
				if (p->stats) {
					jnum("hbm_used", p->hbm);
					jnum("host_pinned", p->host);
				} else {
					jraw("hbm_used", "null");
					jraw("host_pinned", "null");
				}
				jclose('}');
			}
			jclose(']');
		}
		if (!d->have_debugfs) {
			jraw("processes", "null");
		} else {
			jnum("hbm_allocations", d->dbg_allocations);
			jopen("processes", '[');
			for (j = 0; j < d->nclients; j++) {
				const struct client *cl = &d->clients[j];

				jopen(NULL, '{');
				for (c = 0; c < d->ncols; c++) {
					if (c != 1 && is_number(cl->col[c]))
						jraw(d->colname[c], cl->col[c]);
					else
						jstrv(d->colname[c], cl->col[c]);
				}
				jclose('}');
			}
			jclose(']');
		}
		for (k = 0; k < NR_EXTRA; k++) {
			if (!d->extra[k]) {
				jraw(extra_views[k], "null");
				continue;
			}
			jopen(extra_views[k], '[');
			for (char *s = d->extra[k], *e; *s; s = e + (*e != '\0')) {
				char line[512];

				e = strchrnul(s, '\n');
				snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
				jstrv(NULL, line);
			}
			jclose(']');
		}
		jclose('}');
	}
	jclose(']');
	jraw("debugfs", ndevs && devs[0].have_debugfs ? "true" : "false");
	if (ndevs && !devs[0].have_debugfs)
		jstrv("debugfs_error", strerror(debugfs_errno ? debugfs_errno : ENOENT));
	depth--;
	jnl();
	printf("}\n");
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ascend-smi [--json] [--watch [SECS]] [--count N] [--debugfs DIR]\n"
		"  --json          print one JSON document (one per line with --watch)\n"
		"  --watch [SECS]  refresh every SECS seconds (default 2) until interrupted\n"
		"  --count N       with --watch: stop after N refreshes\n"
		"  --debugfs DIR   where debugfs is mounted (default /sys/kernel/debug)\n"
		"  --version       print the version\n");
}

static bool parse_uint(const char *s, unsigned long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return !errno && !*end;
}

int main(int argc, char **argv)
{
	bool json = false, watch = false;
	unsigned long secs = 2, count = 0, n;
	int i, rc;

	/* installed as npu-smi too; npu-smi --json is ascend-smi's JSON */
	if (npu_smi_invoked(argv[0]) && !(argc > 1 && !strcmp(argv[1], "--json")))
		return npu_smi_main(argc, argv);

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json") || !strcmp(a, "-j")) {
			json = true;
		} else if (!strcmp(a, "--watch") || !strcmp(a, "-w")) {
			watch = true;
			if (i + 1 < argc && parse_uint(argv[i + 1], &secs))
				i++;
		} else if (!strncmp(a, "--watch=", 8)) {
			watch = true;
			if (!parse_uint(a + 8, &secs)) {
				usage(stderr);
				return 2;
			}
		} else if (!strcmp(a, "--count") || !strcmp(a, "-c")) {
			if (i + 1 >= argc || !parse_uint(argv[++i], &count) || !count) {
				fprintf(stderr, "ascend-smi: --count needs a number > 0\n");
				return 2;
			}
		} else if (!strcmp(a, "--debugfs")) {
			if (i + 1 >= argc) {
				usage(stderr);
				return 2;
			}
			debugfs_root = argv[++i];
		} else if (!strcmp(a, "--version")) {
			printf("ascend-smi %s\n", ASCEND_SMI_VERSION);
			return 0;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "ascend-smi: unknown argument '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	if (!watch)
		count = 1;
	compact = json && watch;

	for (n = 0;; n++) {
		scan();
		if (watch && !json && isatty(STDOUT_FILENO))
			printf("\033[H\033[2J");
		else if (watch && !json && n)
			printf("\n");
		if (json)
			print_json();
		else
			print_text();
		if (count && n + 1 >= count)
			break;
		sleep(secs);
	}

	rc = ndevs ? 0 : 3;
	for (i = 0; i < ndevs; i++)
		if (!smi_healthy(&sdevs[i]))
			rc = 1;
	if (!ndevs)
		fprintf(stderr, "ascend-smi: no ascend device (is the module loaded? modprobe ascend)\n");
	free_devices();
	return rc;
}
