// SPDX-License-Identifier: MIT
/*
 * smi_proc.c - per-process usage of the NPUs from /proc (smi_proc.h).
 *
 * A descriptor is on an NPU when /proc/<pid>/fd/<fd> is the character
 * device of one of its nodes (same device number: the path it was opened
 * by does not matter).  Its fdinfo then has the driver's keys; the
 * descriptors of one open file (dup(), fork()) share a drm-client-id and
 * are counted once per process.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smi_proc.h"

/* One open file of a device as one process sees it. */
struct rec {
	pid_t pid;
	unsigned int npu;
	unsigned long long client;	/* drm-client-id, 0 if not printed */
	uint64_t hbm, host;
	bool stats;
};

bool smi_parse_size(const char *s, uint64_t *bytes)
{
	unsigned long long v;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	if (!strncmp(end, "KiB", 3)) {
		v <<= 10;
		end += 3;
	} else if (!strncmp(end, "MiB", 3)) {
		v <<= 20;
		end += 3;
	}
	if (*end && *end != '\n')
		return false;
	*bytes = v;
	return true;
}

/* The value of "@key:" in @text (modifies nothing), NULL if absent. */
static const char *key_value(const char *text, const char *key)
{
	size_t len = strlen(key);
	const char *s;

	for (s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, key, len) && s[len] == ':')
			return s + len + 1;
	return NULL;
}

/* Read the fdinfo of @pid's descriptor @fd into @r. */
static bool read_fdinfo(pid_t pid, const char *fd, struct rec *r)
{
	char path[64], text[4096];
	const char *v;
	ssize_t len;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int)pid, fd);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return false;
	len = read(f, text, sizeof(text) - 1);
	close(f);
	if (len < 0)
		return false;
	text[len] = '\0';
	v = key_value(text, "drm-client-id");
	if (v)
		r->client = strtoull(v, NULL, 10);
	/* the driver's statistics, when this driver prints them */
	v = key_value(text, "drm-driver");
	if (v && !strncmp(v + strspn(v, " \t"), "ascend\n", 7)) {
		r->stats = (v = key_value(text, "drm-total-hbm")) && smi_parse_size(v, &r->hbm);
		if (r->stats && (v = key_value(text, "drm-total-memory")))
			r->stats = smi_parse_size(v, &r->host);
	}
	return true;
}

static int find_dev(const struct smi_dev *devs, int n, dev_t rdev)
{
	int i;

	for (i = 0; i < n; i++)
		if (devs[i].rdev && devs[i].rdev == rdev)
			return i;
	return -1;
}

/* Append @pid's open files of the devices to *@recs. */
static int scan_pid(pid_t pid, const struct smi_dev *devs, int n, struct rec **recs,
		    size_t *nrec, size_t *cap)
{
	char path[64];
	struct dirent *e;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	if (!dir)
		return 0;	/* another user's process, or gone */
	while ((e = readdir(dir))) {
		struct rec r = { .pid = pid };
		struct stat st;
		int i;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (fstatat(dirfd(dir), e->d_name, &st, 0) || !S_ISCHR(st.st_mode))
			continue;
		i = find_dev(devs, n, st.st_rdev);
		if (i < 0 || !read_fdinfo(pid, e->d_name, &r))
			continue;
		r.npu = devs[i].index;
		if (*nrec == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct rec *nr = realloc(*recs, ncap * sizeof(**recs));

			if (!nr) {
				closedir(dir);
				return -1;
			}
			*recs = nr;
			*cap = ncap;
		}
		(*recs)[(*nrec)++] = r;
	}
	closedir(dir);
	return 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->npu != y->npu)
		return x->npu < y->npu ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->client < y->client ? -1 : x->client > y->client;
}

static void read_comm(pid_t pid, char *comm, size_t len)
{
	char path[64];
	ssize_t n = -1;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f >= 0) {
		n = read(f, comm, len - 1);
		close(f);
	}
	if (n <= 0) {
		snprintf(comm, len, "?");
		return;
	}
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
}

int smi_procs(const struct smi_dev *devs, int n, struct smi_proc **out)
{
	struct rec *recs = NULL;
	size_t nrec = 0, cap = 0, i;
	struct smi_proc *procs;
	struct dirent *e;
	int np = 0;
	DIR *proc;

	*out = NULL;
	proc = opendir("/proc");
	if (!proc)
		return -1;
	while ((e = readdir(proc))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		if (scan_pid((pid_t)pid, devs, n, &recs, &nrec, &cap)) {
			closedir(proc);
			free(recs);
			return -1;
		}
	}
	closedir(proc);
	qsort(recs, nrec, sizeof(*recs), cmp_rec);

	procs = calloc(nrec ? nrec : 1, sizeof(*procs));
	if (!procs) {
		free(recs);
		return -1;
	}
	for (i = 0; i < nrec; i++) {
		const struct rec *r = &recs[i];
		struct smi_proc *p = np ? &procs[np - 1] : NULL;

		if (!p || p->npu != r->npu || p->pid != r->pid) {
			p = &procs[np++];
			p->pid = r->pid;
			p->npu = r->npu;
			p->stats = true;
			read_comm(r->pid, p->comm, sizeof(p->comm));
		} else if (r->client && r->client == recs[i - 1].client) {
			continue;	/* another descriptor of the same file */
		}
		p->hbm += r->hbm;
		p->host += r->host;
		p->stats &= r->stats;
	}
	free(recs);
	*out = procs;
	return np;
}
