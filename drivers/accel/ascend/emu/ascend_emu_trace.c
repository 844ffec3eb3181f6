// SPDX-License-Identifier: GPL-2.0-only
/*
 * Defines the emulated NPU's tracepoints (ascend_emu_trace.h).  Nothing
 * else of the emulator may define CREATE_TRACE_POINTS.
 */
#define CREATE_TRACE_POINTS
#include "ascend_emu_trace.h"
