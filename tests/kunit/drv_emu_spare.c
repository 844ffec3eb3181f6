// SPDX-License-Identifier: GPL-2.0-only
/* The driver source under test, compiled into the KUnit module. */
#include "ascend_emu_spare.c"
