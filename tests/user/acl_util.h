/* SPDX-License-Identifier: MIT */
/*
 * acl_util.h - helpers shared by the libaclrt API tests (tests/user/test_acl_*.c).
 *
 * Besides the error-checking macros this provides a way to see device
 * memory without host<->device copies: the emulated NPU's built-in
 * DeviceWrite/DeviceRead kernels (the CANN D2D sample's kernels) write a
 * value and print a value, and device printf reaches the process's stdout
 * no later than aclrtSynchronizeStream().  read_dev_ints() captures stdout
 * in a memfd around such reads and parses the printed values.
 *
 * Include after defining _GNU_SOURCE (memfd_create).
 */
#ifndef ASCEND_TESTS_ACL_UTIL_H
#define ASCEND_TESTS_ACL_UTIL_H

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "acl/acl.h"
#include "tap.h"

/* The call must fail with @code and leave a message for aclGetRecentErrMsg(). */
#define CHECK_ACL_ERR(call, code)					\
	do {								\
		aclError acl_r_ = (call);				\
		CHECK_EQ(acl_r_, (code));				\
		if (acl_r_ != ACL_SUCCESS)				\
			CHECK(acl_has_errmsg());			\
	} while (0)

/* The call must fail (any code) and leave a message. */
#define CHECK_ACL_FAIL(call)						\
	do {								\
		aclError acl_r_ = (call);				\
		CHECK_NE(acl_r_, ACL_SUCCESS);				\
		if (acl_r_ != ACL_SUCCESS)				\
			CHECK(acl_has_errmsg());			\
	} while (0)

#define CHECK_ACL_OK(call) CHECK_ACL_ERR(call, ACL_SUCCESS)

/* The call fails with @code, and its message says @what. */
#define CHECK_ACL_MSG(call, code, what)					\
	do {								\
		aclError r_ = (call);					\
		const char *m_ = aclGetRecentErrMsg();			\
									\
		CHECK_EQ(r_, (code));					\
		if (!m_ || !strstr(m_, (what))) {			\
			printf("#   message \"%s\" lacks \"%s\"\n",	\
			       m_ ? m_ : "(null)", (what));		\
			CHECK(!"the message");				\
		}							\
	} while (0)

/* The call must succeed, or the case ends (with the code and message). */
#define REQUIRE_ACL(call)						\
	do {								\
		aclError acl_r_ = (call);				\
		if (acl_r_ != ACL_SUCCESS) {				\
			printf("#   %s:%d: %s returned %d: %s\n",	\
			       __FILE__, __LINE__, #call, acl_r_,	\
			       acl_errmsg());				\
			fflush(stdout);					\
			_exit(1);					\
		}							\
	} while (0)

static inline const char *acl_errmsg(void)
{
	const char *m = aclGetRecentErrMsg();

	return m ? m : "(null)";
}

static inline int acl_has_errmsg(void)
{
	const char *m = aclGetRecentErrMsg();

	return m && m[0] != '\0';
}

/* aclInit + aclrtSetDevice(0): what nearly every case starts with. */
static inline void acl_setup(void)
{
	REQUIRE_ACL(aclInit(NULL));
	REQUIRE_ACL(aclrtSetDevice(0));
}

/* ---- stdout capture ------------------------------------------------- */

struct capture {
	int saved_fd;
	int fd;
};

static inline void capture_begin(struct capture *c)
{
	fflush(stdout);
	c->fd = memfd_create("tap-capture", MFD_CLOEXEC);
	REQUIRE(c->fd >= 0);
	c->saved_fd = dup(STDOUT_FILENO);
	REQUIRE(c->saved_fd >= 0);
	REQUIRE(dup2(c->fd, STDOUT_FILENO) == STDOUT_FILENO);
}

/* Restore stdout and return what was written meanwhile (malloc'd, NUL-terminated). */
static inline char *capture_end(struct capture *c)
{
	off_t len;
	char *buf;
	ssize_t n;
	size_t got = 0;

	fflush(stdout);
	REQUIRE(dup2(c->saved_fd, STDOUT_FILENO) == STDOUT_FILENO);
	close(c->saved_fd);
	len = lseek(c->fd, 0, SEEK_END);
	REQUIRE(len >= 0);
	buf = malloc((size_t)len + 1);
	REQUIRE(buf);
	REQUIRE(lseek(c->fd, 0, SEEK_SET) == 0);
	while (got < (size_t)len) {
		n = read(c->fd, buf + got, (size_t)len - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	close(c->fd);
	return buf;
}

/*
 * Parse every "<key> <int>" occurrence in @text into @out, in order.
 * Returns the number found (may exceed @max; only @max are stored).
 */
static inline int parse_values(const char *text, const char *key, int *out, int max)
{
	size_t klen = strlen(key);
	const char *p = text;
	int n = 0;

	while ((p = strstr(p, key)) != NULL) {
		p += klen;
		if (n < max)
			out[n] = (int)strtol(p, NULL, 10);
		n++;
	}
	return n;
}

/* ---- device memory figures ------------------------------------------- */

/* Free bytes of @attr as aclrtGetMemInfo reports them (or the case ends). */
static inline size_t acl_mem_free(aclrtMemAttr attr)
{
	size_t f = 0, t = 0;

	REQUIRE_ACL(aclrtGetMemInfo(attr, &f, &t));
	return f;
}

/* The bytes the allocation at @p reserves (aclrtMemGetAddressRange). */
static inline size_t acl_alloc_size(void *p)
{
	size_t size = 0;

	REQUIRE_ACL(aclrtMemGetAddressRange(p, NULL, &size));
	return size;
}

/* ---- built-in kernels ------------------------------------------------ */

#define ACL_BUILTIN_BINARY "ascend://builtin"

static inline aclrtFuncHandle builtin_kernel(const char *name)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = NULL;

	REQUIRE_ACL(aclrtBinaryLoadFromFile(ACL_BUILTIN_BINARY, NULL, &bin));
	REQUIRE_ACL(aclrtBinaryGetFunction(bin, name, &fn));
	REQUIRE(fn != NULL);
	return fn;
}

/* DeviceWrite: block i writes @value to p[i] and prints "Source data: <value>". */
static inline aclError launch_write(aclrtStream s, int *p, int value, uint32_t blocks)
{
	struct {
		int *p;
		int v;
	} args = { p, value };

	return aclrtLaunchKernel(builtin_kernel("DeviceWrite"), blocks, &args,
				 sizeof(args), s);
}

/* DeviceRead: block i prints "Destination data: <p[i]>". */
static inline aclError launch_read(aclrtStream s, int *p, uint32_t blocks)
{
	struct {
		int *p;
	} args = { p };

	return aclrtLaunchKernel(builtin_kernel("DeviceRead"), blocks, &args,
				 sizeof(args), s);
}

/* p[i] = vals[i] for i < n, one single-block launch each, synchronised. */
static inline void write_dev_ints(aclrtStream s, int *p, const int *vals, int n)
{
	struct capture c;
	int i;

	capture_begin(&c);
	for (i = 0; i < n; i++)
		REQUIRE_ACL(launch_write(s, p + i, vals[i], 1));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	free(capture_end(&c));
}

/*
 * out[i] = p[i] for i < n, read with one single-block DeviceRead per
 * element so the printed values come in stream order.  Returns the
 * number of values printed (n when all went well).
 */
static inline int read_dev_ints(aclrtStream s, const int *p, int *out, int n)
{
	struct capture c;
	char *text;
	int i, got;

	capture_begin(&c);
	for (i = 0; i < n; i++)
		REQUIRE_ACL(launch_read(s, (int *)(uintptr_t)(p + i), 1));
	REQUIRE_ACL(aclrtSynchronizeStream(s));
	text = capture_end(&c);
	got = parse_values(text, "Destination data:", out, n);
	if (got != n)
		printf("#   read_dev_ints: expected %d values, output was:\n# %s\n",
		       n, text);
	free(text);
	return got;
}

/* Fill32(p, v, n): p[0..n) = v, the n elements shared among @blocks. */
static inline aclError launch_fill32(aclrtStream s, int *p, int v, uint64_t n, uint32_t blocks)
{
	struct {
		int *p;
		int v;
		int pad;
		uint64_t n;
	} args = { p, v, 0, n };

	return aclrtLaunchKernel(builtin_kernel("Fill32"), blocks, &args, sizeof(args), s);
}

/* Add32(a, b, c, n): c[i] = a[i] + b[i]. */
static inline aclError launch_add32(aclrtStream s, const int *a, const int *b, int *c,
				    uint64_t n, uint32_t blocks)
{
	struct {
		const int *a, *b;
		int *c;
		uint64_t n;
	} args = { a, b, c, n };

	return aclrtLaunchKernel(builtin_kernel("Add32"), blocks, &args, sizeof(args), s);
}

/* Spin(usec): the launch runs for about @usec microseconds. */
static inline aclError launch_spin(aclrtStream s, uint64_t usec)
{
	return aclrtLaunchKernel(builtin_kernel("Spin"), 1, &usec, sizeof(usec), s);
}

/* Trap(): an AI-core exception. */
static inline aclError launch_trap(aclrtStream s)
{
	return aclrtLaunchKernel(builtin_kernel("Trap"), 1, NULL, 0, s);
}

/* End the case as skipped when the driver lacks a feature another
 * engineer's kernel work adds (the call returned 207000). */
#define SKIP_IF_NOT_SUPPORTED(call)					\
	do {								\
		aclError acl_r_ = (call);				\
		if (acl_r_ == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)		\
			SKIP(acl_errmsg());				\
		REQUIRE(acl_r_ == ACL_SUCCESS);				\
	} while (0)

/* Skip unless the driver has event objects. */
static inline void need_events(void)
{
	aclrtEvent e = NULL;

	SKIP_IF_NOT_SUPPORTED(aclrtCreateEvent(&e));
	aclrtDestroyEvent(e);
}

/* ---- host buffers of each kind (copy tests) -------------------------- */

enum hbuf_type { HB_PINNED, HB_REGISTERED, HB_PAGEABLE, HB_NTYPES };
static const char *const hbuf_name[HB_NTYPES] = { "pinned", "registered", "pageable" };

/*
 * @size bytes of host memory: aclrtMallocHost, page-aligned mmap'd memory
 * registered with aclrtHostRegister, or plain malloc.  The current device
 * must be set.
 */
struct hbuf {
	enum hbuf_type type;
	char *p;
	size_t size, map;
};

static inline void hbuf_alloc(struct hbuf *b, enum hbuf_type type, size_t size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	void *dp = NULL;

	b->type = type;
	b->size = size;
	b->map = (size + pg - 1) / pg * pg;
	switch (type) {
	case HB_PINNED:
		REQUIRE_ACL(aclrtMallocHost((void **)&b->p, size));
		break;
	case HB_REGISTERED:
		b->p = mmap(NULL, b->map, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		REQUIRE(b->p != MAP_FAILED);
		REQUIRE_ACL(aclrtHostRegister(b->p, b->map, ACL_HOST_REGISTER_MAPPED, &dp));
		REQUIRE(dp == b->p);
		break;
	default:
		b->p = malloc(size);
		REQUIRE(b->p);
		break;
	}
}

static inline void hbuf_free(struct hbuf *b)
{
	switch (b->type) {
	case HB_PINNED:
		CHECK_ACL_OK(aclrtFreeHost(b->p));
		break;
	case HB_REGISTERED:
		CHECK_ACL_OK(aclrtHostUnregister(b->p));
		munmap(b->p, b->map);
		break;
	default:
		free(b->p);
		break;
	}
	b->p = NULL;
}

/* Deterministic bytes: a simple generator seeded by @seed. */
static inline void fill_pattern(void *p, size_t n, uint32_t seed)
{
	unsigned char *c = p;
	uint32_t x = seed * 2654435761u + 12345u;
	size_t i;

	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		c[i] = (unsigned char)(x >> 16);
	}
}

/* Index of the first byte where @p differs from fill_pattern(seed), or -1. */
static inline long check_pattern(const void *p, size_t n, uint32_t seed)
{
	const unsigned char *c = p;
	uint32_t x = seed * 2654435761u + 12345u;
	size_t i;

	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		if (c[i] != (unsigned char)(x >> 16))
			return (long)i;
	}
	return -1;
}

/* Index of the first byte of @p[0..n) that is not @v, or -1. */
static inline long check_bytes(const void *p, size_t n, unsigned char v)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i] != v)
			return (long)i;
	return -1;
}

/* ---- other processes: this binary re-executed with a role in argv ---- */

static inline pid_t spawn(char *const args[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execv("/proc/self/exe", args);
		_exit(127);
	}
	return pid;
}

/* Its exit status, or 128 + the signal that ended it; -1 on error. */
static inline int wait_exit(pid_t pid)
{
	int st = 0;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#endif /* ASCEND_TESTS_ACL_UTIL_H */
