#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The Debian packages' programs in the test VM (busybox sh), staged by
# tests/install/deb-test.sh as /work/vm/: d2d/ (the D2D sample built with
# pkg-config, packages-run.sh: the example of Documentation/packages.rst
# that runs it), d2d-cmake/ (the same sample built with CMake), app and
# app_ascendcl (find_package(AscendRT)), libacl_rt.md5 (the packaged
# library's).  tools/vm/run has loaded the module DKMS built (modprobe
# ascend) and gives the programs the library ldd found on the machine, the
# package's /usr/lib/<triplet>/libacl_rt.so, as /hostlib/libacl_rt.so.
# Prints one "VM-RESULT: PASS|FAIL NAME" line per check.

cd "$(dirname "$0")" || exit 1
V=$PWD
st=0
res() { # STATUS NAME
	if [ "$1" = 0 ]; then echo "VM-RESULT: PASS $2"; else echo "VM-RESULT: FAIL $2"; st=1; fi
}

s=1
[ "$(md5sum /hostlib/libacl_rt.so | cut -d' ' -f1)" = "$(cat libacl_rt.md5)" ] && s=0
res $s libacl_rt-is-the-package-s

# The example as a user pastes it: modprobe ascend (already loaded: a no-op),
# then the sample's run.sh in /tmp/d2d.
rm -rf /tmp/d2d && cp -r "$V/d2d" /tmp/d2d
s=0
sh -e -x "$V/packages-run.sh" >/tmp/run.out 2>&1 || s=1
cat /tmp/run.out
grep -q '^\[SUCCESS\] .*: 123$' /tmp/run.out || s=1
res $s d2d-pkgconfig

s=0
(cd "$V/d2d-cmake" && ./run.sh) >/tmp/run.out 2>&1 || s=1
cat /tmp/run.out
grep -q '^\[SUCCESS\] .*: 123$' /tmp/run.out || s=1
res $s d2d-cmake

for app in app app_ascendcl; do
	s=0
	"$V/$app" >/tmp/app.out 2>&1 || s=1
	sed 's/^/# /' /tmp/app.out
	grep -q '^libacl_rt: /hostlib/libacl_rt.so$' /tmp/app.out || s=1
	grep -q '^OK: ' /tmp/app.out || s=1
	[ "$app" = app ] && res $s app-find_package
	[ "$app" = app_ascendcl ] && res $s app-ascendcl
done
exit $st
