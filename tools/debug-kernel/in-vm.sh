#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/debug-kernel/in-vm.sh - the test run of `make check-debug`, inside the
# VM on the debug kernel (busybox sh), started by tools/debug-kernel/check.
#
# 1. Runs the regular suite, tests/run-in-vm.sh (KUnit, user tests, samples),
#    with a longer per-program timeout (everything in the kernel is slower
#    under KASAN + lockdep + kmemleak).
# 2. Triggers kmemleak scans and prints every suspected leak, indented, between
#    "==== kmemleak" and "==== kmemleak end"; the host decides which reports
#    are ours.  A separate marker line "DEBUG: kmemleak reports=N" is printed.
# Exit status: that of run-in-vm.sh.
TEST_TIMEOUT=${TEST_TIMEOUT:-1800}
# per-case limit of the TAP programs (tests/lib/tap.h), 60 s by default
TAP_TIMEOUT=${TAP_TIMEOUT:-600}
export TEST_TIMEOUT TAP_TIMEOUT

sh ./run-in-vm.sh
st=$?

KL=/sys/kernel/debug/kmemleak
if [ -e $KL ]; then
	# kmemleak only reports objects older than 5 s; scan twice (the second
	# scan confirms: transient false positives are dropped).
	sleep 6
	echo scan >$KL
	echo scan >$KL
	cat $KL >/tmp/kmemleak.txt
	n=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)
	echo "==== kmemleak ($n suspected leaks)"
	sed 's/^/    /' /tmp/kmemleak.txt
	echo "==== kmemleak end"
	echo "DEBUG: kmemleak reports=$n"
else
	echo "DEBUG: kmemleak unavailable"
fi
exit $st
