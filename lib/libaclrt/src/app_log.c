/* SPDX-License-Identifier: MIT */
/*
 * app_log.c - aclAppLog(), the application log behind ACL_APP_LOG().
 *
 * CANN sends these lines to its log daemon; here they go to stderr, one
 * write per line so that lines of concurrent threads do not interleave.
 * ACL_DEBUG and ACL_INFO lines are dropped unless ASCEND_GLOBAL_LOG_LEVEL
 * (CANN's variable: 0 debug, 1 info, 2 warning, 3 error) lets them through.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

static int app_log_threshold(void)
{
	const char *env = getenv("ASCEND_GLOBAL_LOG_LEVEL");

	if (env && env[0] >= '0' && env[0] <= '4' && env[1] == '\0')
		return env[0] - '0';
	return ACL_WARNING;
}

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
	       const char *fmt, ...)
{
	static const char *const names[] = { "DEBUG", "INFO", "WARNING", "ERROR" };
	const char *base;
	char buf[1024];
	va_list ap;
	int n;

	if ((int)logLevel < app_log_threshold() || !fmt)
		return;
	base = file ? strrchr(file, '/') : NULL;
	base = base ? base + 1 : (file ? file : "?");
	n = snprintf(buf, sizeof(buf), "[%s] %s:%u %s: ",
		     (unsigned int)logLevel < 4 ? names[logLevel] : "LOG",
		     base, (unsigned int)line, func ? func : "?");
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	n = (int)strlen(buf);
	if (n > 0 && buf[n - 1] != '\n' && (size_t)n + 1 < sizeof(buf)) {
		buf[n++] = '\n';
		buf[n] = '\0';
	}
	fputs(buf, stderr);
}
