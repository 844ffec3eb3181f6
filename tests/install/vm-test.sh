#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The installed tree in the VM (TAP; busybox sh).  Staged by
# tests/install/check.sh as /work/user/test_install_app next to install/,
# which holds the tree `make install DESTDIR=... PREFIX=/opt/ascend` made
# (install/opt/ascend) and the sample application built against it with
# pkg-config (app_pkgconfig) and CMake (app, app_ascendcl), and the programs
# of tests/install/sample (install/sample/out/bin/, built the way CANN's
# samples build, each linked another way; main_fatbin loads the kernel image
# ./out/fatbin/sample_kernel/sample_kernel.o, so it runs in install/sample/).  The tree is
# copied to its real place, /opt/ascend, set_env.sh is sourced, and every
# application must run with /opt/ascend/lib64/libacl_rt.so, as must the
# installed acl Python module (Debian's python3 is in the VM when the
# payload holds a Python test: make check's test_python_acl).

cd "$(dirname "$0")" || exit 1
T=$PWD/install
N=0
ok() { # STATUS NAME
	N=$((N + 1))
	if [ "$1" = 0 ]; then echo "ok $N - $2"; else echo "not ok $N - $2"; fi
}

echo "1..14"

rm -rf /opt/ascend && mkdir -p /opt && cp -a "$T/opt/ascend" /opt/ascend
ok $? copy-tree-to-opt-ascend

# Under a POSIX sh the prefix comes from the path baked in at install time.
# shellcheck source=/dev/null # generated at install time from packaging/set_env.sh.in
. /opt/ascend/set_env.sh
st=0
[ "$ASCEND_HOME_PATH" = /opt/ascend ] || st=1
[ "$ASCEND_INSTALL_PATH" = /opt/ascend ] || st=1
case $LD_LIBRARY_PATH in /opt/ascend/lib64:*) ;; *) st=1 ;; esac
case :$PATH: in *:/opt/ascend/bin:*) ;; *) st=1 ;; esac
echo "# ASCEND_HOME_PATH=$ASCEND_HOME_PATH LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
ok $st set_env.sh

st=0
[ "$(command -v ascend-smi)" = /opt/ascend/bin/ascend-smi ] || st=1
ascend-smi >/tmp/smi.out 2>&1 || st=1
sed 's/^/# /' /tmp/smi.out
grep -q '/dev/accel/accel0 .* OK ' /tmp/smi.out || st=1
ok $st ascend-smi-on-path

for app in app_pkgconfig app app_ascendcl; do
	st=0
	"$T/$app" >/tmp/app.out 2>&1 || st=1
	sed 's/^/# /' /tmp/app.out
	grep -q '^libacl_rt: /opt/ascend/lib64/libacl_rt.so$' /tmp/app.out || st=1
	grep -q '^OK: ' /tmp/app.out || st=1
	ok $st "$app"
done

# tests/install/sample: DeviceWrite through each way of linking
for app in main_ascendcl main_kernels_only main_acl_rt main_rt_path main_rt_impl main_host_intf \
	main_fatbin; do
	st=0
	(cd "$T/sample" && "./out/bin/$app") >/tmp/app.out 2>&1 || st=1
	sed 's/^/# /' /tmp/app.out
	grep -q '^libacl_rt: /opt/ascend/lib64/libacl_rt.so$' /tmp/app.out || st=1
	grep -q '^OK: ' /tmp/app.out || st=1
	ok $st "sample/$app"
done

# The acl Python module from the tree: a numpy array there and back.
st=0
if [ -x /usr/bin/python3 ]; then
	python3 - >/tmp/py.out 2>&1 <<'EOF' || st=1
import acl
import numpy as np
assert acl.__file__.startswith("/opt/ascend/lib/python3/dist-packages/acl."), acl.__file__
lib = [l.split()[-1] for l in open("/proc/self/maps") if l.rstrip().endswith("/libacl_rt.so")]
assert acl.init() == 0 and acl.rt.set_device(0) == 0, acl.get_recent_err_msg()
a = np.arange(4096, dtype=np.int64) * 7
d, ret = acl.rt.malloc(a.nbytes, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
assert ret == 0, acl.get_recent_err_msg()
b = np.zeros_like(a)
assert acl.rt.memcpy(d, a.nbytes, acl.util.numpy_to_ptr(a), a.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
assert acl.rt.memcpy(acl.util.numpy_to_ptr(b), b.nbytes, d, b.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
assert b.tobytes() == a.tobytes()
assert acl.rt.free(d) == 0 and acl.rt.reset_device(0) == 0 and acl.finalize() == 0
print("libacl_rt:", lib[0] if lib else "?")
print("OK:", acl.__file__)
EOF
	sed 's/^/# /' /tmp/py.out
	grep -q '^libacl_rt: /opt/ascend/lib64/libacl_rt.so$' /tmp/py.out || st=1
	grep -q '^OK: ' /tmp/py.out || st=1
else
	echo "# no /usr/bin/python3 in the VM"
	st=1
fi
ok $st python-acl
