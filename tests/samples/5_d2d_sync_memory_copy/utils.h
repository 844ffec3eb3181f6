/**
 * Logging and error-check helpers in the style of the CANN samples' utils.h.
 */
#ifndef SAMPLE_UTILS_H
#define SAMPLE_UTILS_H

#include <cstdio>
#include "acl/acl.h"

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define WARN_LOG(fmt, ...) fprintf(stdout, "[WARN]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stderr, "[ERROR]  " fmt "\n", ##__VA_ARGS__)

/* Evaluate an ACL call once; on failure report it and leave the caller. */
#define CHECK_ERROR(expr)                                                        \
    do {                                                                         \
        aclError checkErrorRet_ = (expr);                                        \
        if (checkErrorRet_ != ACL_SUCCESS) {                                     \
            ERROR_LOG("Operation failed: %s returned error code %d", #expr,      \
                      checkErrorRet_);                                           \
            return -1;                                                           \
        }                                                                        \
    } while (0)

#endif // SAMPLE_UTILS_H
