#!/bin/sh
# SPDX-License-Identifier: MIT
# Run in the VM by `make bench`: this tree's ascend-bench, then, when
# `make bench BASE=<rev>` copied it to /work/base, the base tree's with its
# own libacl_rt (same boot, same kernel module).  tools/bench/report tells
# the runs apart by the BENCH_TREE lines.
./ascend-bench
st=$?
echo "BENCH_TREE_STATUS current $st"
if [ -x base/ascend-bench ]; then
	echo "BENCH_TREE base"
	LD_LIBRARY_PATH=/work/base:/hostlib base/ascend-bench
	echo "BENCH_TREE_STATUS base $?"
fi
exit $st
