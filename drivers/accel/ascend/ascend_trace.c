// SPDX-License-Identifier: GPL-2.0-only
/*
 * Defines the driver's tracepoints (ascend_trace.h).  Nothing else may
 * define CREATE_TRACE_POINTS.
 */
#define CREATE_TRACE_POINTS
#include "ascend_trace.h"
