#!/usr/bin/env bash
# The checks are functions run through check(): shellcheck 0.9 cannot see that.
# shellcheck disable=SC2317
# SPDX-License-Identifier: MIT
#
# tests/install/check.sh CHECKDIR - the host half of the install test (make check).
#
# `make install DESTDIR=CHECKDIR/install/root PREFIX=/opt/ascend`, then every
# installed file is checked (one "RESULT: PASS|FAIL install/<name>" line per
# check on stdout, details on stderr), the sample application
# tests/install/app is built against the installed tree with pkg-config and
# with CMake (find_package(AscendRT)), tests/install/sample (shaped like
# CANN's runtime samples) the way their run.sh builds them, and what the VM
# needs is staged into CHECKDIR/payload/user/:
#   install/opt/ascend/       the installed tree (copied to /opt/ascend in the VM)
#   install/app_pkgconfig, install/app, install/app_ascendcl
#   install/sample/out/       the sample's programs (bin/) and kernel image (fatbin/)
#   test_install_app          tests/install/vm-test.sh: runs the apps (TAP)
#   test_install_smi          ascend-smi against known allocations (TAP)
#   test_install_npusmi       npu-smi against known allocations, as root and
#                             as a user (TAP)
#   install/npu-smi-example.sh  the example of Documentation/npu-smi.rst
# Exit status 0 (failures are results).
# pipefail: never end a pipeline with grep -q (SIGPIPE upstream fails it).
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
CHECKDIR=${1:?usage: check.sh CHECKDIR}
CHECKDIR=$(mkdir -p "$CHECKDIR" && cd "$CHECKDIR" && pwd)
WORK=$CHECKDIR/install
ROOT=$WORK/root
PREFIX=/opt/ascend
P=$ROOT$PREFIX
VERSION=$(cat "$TOP/packaging/VERSION")
PAY=$CHECKDIR/payload/user

result() { # PASS|FAIL NAME [WHY]
	echo "RESULT: $1 install/$2"
	[ "$1" = PASS ] || echo "install/$2: ${3:-failed} (details: build/check/install.log)" >&2
}
check() { # NAME COMMAND... : PASS when COMMAND succeeds
	local name=$1
	shift
	echo "---- $name: $*" >&2
	if "$@" >&2; then result PASS "$name"; else result FAIL "$name"; fi
}
log() { echo "$*" >&2; }

rm -rf "$WORK" && mkdir -p "$WORK" "$PAY"

check make-install make -C "$TOP" --no-print-directory install DESTDIR="$ROOT" PREFIX="$PREFIX"

# --- the CANN-style tree, file by file ---------------------------------------------
headers_same() {
	local f rel n=0
	for f in "$TOP"/lib/libaclrt/include/acl/*.h "$TOP"/lib/libaclrt/include/acl/error_codes/*.h; do
		rel=${f#"$TOP/lib/libaclrt/include/"}
		cmp "$f" "$P/include/$rel" || return 1
		n=$((n + 1))
	done
	log "$n headers identical"
	[ -f "$P/include/acl/acl.h" ] && [ -f "$P/include/acl/acl_rt.h" ] && [ "$n" -gt 5 ]
}
check tree/include-acl headers_same

soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
lib_ok() {
	[ -f "$P/lib64/libacl_rt.so" ] && [ "$(soname "$P/lib64/libacl_rt.so")" = libacl_rt.so ] &&
		nm -D --defined-only "$P/lib64/libacl_rt.so" | grep -w aclrtMalloc >/dev/null
}
check tree/lib64-libacl_rt.so lib_ok
compat_ok() {
	[ -e "$P/lib64/libascendcl.so" ] &&
		[ "$(soname "$P/lib64/libascendcl.so")" = libacl_rt.so ] &&
		[ "$(readlink -f "$P/lib64/libascendcl.so")" = "$(readlink -f "$P/lib64/libacl_rt.so")" ]
}
check tree/lib64-libascendcl.so compat_ok
impl_ok() {
	[ -e "$P/lib64/libacl_rt_impl.so" ] &&
		[ "$(soname "$P/lib64/libacl_rt_impl.so")" = libacl_rt.so ] &&
		[ "$(readlink -f "$P/lib64/libacl_rt_impl.so")" = "$(readlink -f "$P/lib64/libacl_rt.so")" ]
}
check tree/lib64-libacl_rt_impl.so impl_ok
# ${ASCENDC_CMAKE_DIR}/ascendc.cmake, in the three places CANN trees have it
ascendc_ok() {
	local d
	for d in tikcpp compiler/tikcpp tools/tikcpp; do
		[ -f "$P/$d/ascendc_kernel_cmake/ascendc.cmake" ] || { log "no $d/ascendc_kernel_cmake"; return 1; }
	done
	cmp "$TOP/packaging/ascendc.cmake" "$P/tikcpp/ascendc_kernel_cmake/ascendc.cmake"
}
check tree/tikcpp-ascendc.cmake ascendc_ok

pc_ok() {
	local flags
	flags=$(PKG_CONFIG_PATH=$P/lib64/pkgconfig pkg-config --cflags --libs acl_rt) || return 1
	log "pkg-config: $flags"
	local words
	read -ra words <<<"$flags"
	[ "$(PKG_CONFIG_PATH=$P/lib64/pkgconfig pkg-config --modversion acl_rt)" = "$VERSION" ] &&
		[ "$(readlink -f "$(printf '%s\n' "${words[@]}" | sed -n 's/^-I//p')")" = "$P/include" ] &&
		[ "$(readlink -f "$(printf '%s\n' "${words[@]}" | sed -n 's/^-L//p')")" = "$P/lib64" ] &&
		printf '%s\n' "${words[@]}" | grep -x -- -lacl_rt >/dev/null
}
check tree/pkgconfig-acl_rt.pc pc_ok
cmake_ok() {
	local d
	for d in lib64 share; do
		grep -q 'add_library(AscendRT::acl_rt SHARED IMPORTED)' \
			"$P/$d/cmake/AscendRT/AscendRTConfig.cmake" || return 1
		grep -q "PACKAGE_VERSION \"$VERSION\"" \
			"$P/$d/cmake/AscendRT/AscendRTConfigVersion.cmake" || return 1
	done
}
check tree/cmake-AscendRT cmake_ok

# set_env.sh: POSIX sh uses the baked-in prefix, bash the file's location;
# sourcing twice adds nothing twice.
setenv_ok() {
	local out
	out=$(env -i PATH=/usr/bin:/bin sh -c ". '$P/set_env.sh'; . '$P/set_env.sh';
		echo \"\$ASCEND_HOME_PATH|\$ASCEND_INSTALL_PATH|\$LD_LIBRARY_PATH|\$PATH\"") || return 1
	log "sh:   $out"
	[ "$out" = "$PREFIX|$PREFIX|$PREFIX/lib64|$PREFIX/bin:/usr/bin:/bin" ] || return 1
	out=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH=/x bash -c "source '$P/set_env.sh';
		echo \"\$ASCEND_HOME_PATH|\$LD_LIBRARY_PATH|\$PKG_CONFIG_PATH|\$CMAKE_PREFIX_PATH\"") || return 1
	log "bash: $out"
	[ "$out" = "$P|$P/lib64:/x|$P/lib64/pkgconfig|$P:$P/lib64/cmake" ]
}
check tree/set_env.sh setenv_ok
# bin/setenv.bash, the name CANN's run.sh sources (under set -euo pipefail),
# exports what CANN's does, pointing into the prefix, and what its samples
# need besides (ASCEND_INSTALL_PATH, ASCENDC_CMAKE_DIR, SOC_VERSION).
setenv_bash_ok() {
	local out want
	out=$(env -i PATH=/usr/bin:/bin HOME=/nonexistent bash -c "set -euo pipefail
		source '$P/bin/setenv.bash'
		for v in ASCEND_HOME_PATH ASCEND_TOOLKIT_HOME ASCEND_INSTALL_PATH ASCEND_AICPU_PATH \
			ASCEND_OPP_PATH TOOLCHAIN_HOME ASCENDC_CMAKE_DIR LD_LIBRARY_PATH CMAKE_PREFIX_PATH; do
			printf '%s=%s\n' \$v \"\${!v}\"
		done
		[ -n \"\$SOC_VERSION\" ] && echo SOC_VERSION=set
		export SOC_VERSION=Ascend910B1; source '$P/bin/setenv.bash'; echo keeps=\$SOC_VERSION") || return 1
	log "$out"
	want="ASCEND_HOME_PATH=$P
ASCEND_TOOLKIT_HOME=$P
ASCEND_INSTALL_PATH=$P
ASCEND_AICPU_PATH=$P
ASCEND_OPP_PATH=$P/opp
TOOLCHAIN_HOME=$P/toolkit
ASCENDC_CMAKE_DIR=$P/tikcpp/ascendc_kernel_cmake
LD_LIBRARY_PATH=$P/lib64
CMAKE_PREFIX_PATH=$P:$P/lib64/cmake
SOC_VERSION=set
keeps=Ascend910B1"
	[ "$out" = "$want" ]
}
check tree/bin-setenv.bash setenv_bash_ok
smi_ok() {
	[ -x "$P/bin/ascend-smi" ] && [ "$("$P/bin/ascend-smi" --version)" = "ascend-smi $VERSION" ]
}
check tree/bin-ascend-smi smi_ok
npusmi_ok() {
	[ "$(readlink "$P/bin/npu-smi")" = ascend-smi ] &&
		[ "$("$P/bin/npu-smi" --version)" = "npu-smi $VERSION (ascend-smi)" ]
}
check tree/bin-npu-smi npusmi_ok
# The acl Python module: in Debian's dist-packages path under the prefix,
# linked to libacl_rt.so without a run path, imported with set_env.sh's
# PYTHONPATH and LD_LIBRARY_PATH by Debian's python3.
python_ok() {
	local mods out
	mods=("$P"/lib/python3/dist-packages/acl.*.so)
	[ -f "${mods[0]}" ] || { log "no acl module in $P/lib/python3/dist-packages"; return 1; }
	readelf -d "${mods[0]}" | grep 'NEEDED.*\[libacl_rt.so\]' >/dev/null || return 1
	if readelf -d "${mods[0]}" | grep -E '\((RPATH|RUNPATH)\)' >&2; then
		log "the module has a run path"; return 1
	fi
	out=$(env -i PATH=/usr/bin:/bin bash -c "source '$P/set_env.sh'
		/usr/bin/python3 -c 'import acl; print(acl.__file__, acl.ACL_MEMCPY_HOST_TO_DEVICE)'") ||
		return 1
	log "python3: $out"
	[ "$out" = "${mods[0]} 1" ]
}
check tree/python-acl python_ok

# --- the module: where modprobe finds it -------------------------------------------
mods=("$ROOT"/lib/modules/*/updates/ascend.ko)
module_ok() {
	local ko=${mods[0]} kver tmp out
	{ [ "${#mods[@]}" = 1 ] && [ -f "$ko" ]; } || { log "no single lib/modules/*/updates/ascend.ko"; return 1; }
	kver=$(basename "$(dirname "$(dirname "$ko")")")
	[ "$(modinfo -F name "$ko")" = ascend ] || return 1
	[ "$(modinfo -F vermagic "$ko" | awk '{print $1}')" = "$kver" ] || return 1
	# What depmod + modprobe on the target would do, in a scratch copy.
	tmp=$WORK/depmod && rm -rf "$tmp" && mkdir -p "$tmp/lib/modules/$kver/updates" &&
		cp "$ko" "$tmp/lib/modules/$kver/updates/" &&
		depmod -b "$tmp" "$kver" 2>/dev/null || return 1
	# Into the log through the descriptor, never by reopening it: "tee
	# /dev/stderr" opens install.log again with O_TRUNC and empties it.
	out=$(modprobe -d "$tmp" -S "$kver" --show-depends ascend 2>&1)
	log "$out"
	printf '%s\n' "$out" | grep "^insmod $tmp/lib/modules/$kver/updates/ascend.ko" >/dev/null
}
check tree/module-updates-ascend.ko module_ok

SRC=$ROOT/usr/src/ascend-$VERSION
dkms_ok() {
	local f
	for f in dkms.conf Kbuild drivers/accel/ascend/Kbuild drivers/accel/ascend/ascend_drv.c \
		drivers/accel/ascend/ascend_hw.h drivers/accel/ascend/emu/ascend_emu.h \
		include/uapi/drm/ascend_accel.h; do
		[ -f "$SRC/$f" ] || { log "missing $SRC/$f"; return 1; }
	done
	# Every source the Kbuild names is there.
	while read -r f; do
		[ "$f" = ascend ] && continue
		[ -f "$SRC/drivers/accel/ascend/$f.c" ] || { log "missing $f.c"; return 1; }
	done < <(sed -n 's/^[[:space:]]*\(\(emu\/\)\{0,1\}ascend[a-z_0-9]*\)\.o.*/\1/p' "$SRC/drivers/accel/ascend/Kbuild")
	# dkms.conf is shell: evaluate it the way dkms does.
	(
		# shellcheck disable=SC2034 # read by dkms.conf
		kernel_source_dir=/lib/modules/K/build dkms_tree=/var/lib/dkms
		# shellcheck disable=SC1091
		. "$SRC/dkms.conf" || exit 1
		[ "$PACKAGE_NAME" = ascend ] && [ "$PACKAGE_VERSION" = "$VERSION" ] &&
			[ "${BUILT_MODULE_NAME[0]}" = ascend ] &&
			[ "${BUILT_MODULE_LOCATION[0]}" = drivers/accel/ascend ] &&
			[ "$AUTOINSTALL" = yes ] &&
			[ "${MAKE[0]}" = "make -C /lib/modules/K/build M=/var/lib/dkms/ascend/$VERSION/build/drivers/accel/ascend modules" ]
	)
}
check tree/dkms-usr-src-ascend dkms_ok

udev_ok() {
	local r=$ROOT/etc/udev/rules.d/70-ascend.rules
	grep -v '^#' "$r" | grep 'SUBSYSTEM=="accel"' | grep 'KERNEL=="accel' |
		grep 'GROUP="render"' | grep 'MODE="0660"' >/dev/null
}
check tree/udev-70-ascend.rules udev_ok

# Every parameter the modprobe.d example names exists in the module.
modprobe_ok() {
	local ex=$ROOT/etc/modprobe.d/ascend.conf.example p params
	grep -q '^#options ascend ' "$ex" || return 1
	params=$(modinfo -F parm "${mods[0]}" | sed 's/:.*//')
	for p in $(sed -n 's/^#options ascend //p' "$ex" | tr ' ' '\n' | sed 's/=.*//'); do
		printf '%s\n' "$params" | grep -x "$p" >/dev/null || { log "unknown parameter $p"; return 1; }
	done
}
check tree/modprobe.d-ascend.conf.example modprobe_ok

# --- the sample application against the installed tree ---------------------------
mkdir -p "$PAY/install/opt"
app_pkgconfig() { # environment from set_env.sh only
	# shellcheck disable=SC1091,SC2046 # generated file; pkg-config prints separate words
	(source "$P/set_env.sh" &&
		cc -std=c11 -Wall -Wextra -Werror -o "$PAY/install/app_pkgconfig" "$HERE/app/app.c" \
			$(pkg-config --cflags --libs acl_rt))
}
check app/pkg-config app_pkgconfig
app_cmake() {
	local b=$WORK/cmake-build
	rm -rf "$b"
	cmake -S "$HERE/app" -B "$b" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release &&
		cmake --build "$b" &&
		cp "$b/app" "$b/app_ascendcl" "$PAY/install/" &&
		readelf -d "$b/app_ascendcl" | grep 'NEEDED.*\[libacl_rt.so\]' >/dev/null
}
check app/cmake-find_package app_cmake
# The way CANN's sample run.sh scripts build: source bin/setenv.bash, then
# cmake -B build -DASCEND_CANN_PACKAGE_PATH="${ASCEND_HOME_PATH}", build,
# install; every program needs libacl_rt.so and no other ascend library.
sample_cmake() {
	local b=$WORK/sample-build f needed
	rm -rf "$b"
	# shellcheck disable=SC1091 # generated at install time
	(set -euo pipefail
		source "$P/bin/setenv.bash"
		cmake -S "$HERE/sample" -B "$b" -DASCEND_CANN_PACKAGE_PATH="${ASCEND_HOME_PATH}" &&
			cmake --build "$b" -j4 && cmake --install "$b") || return 1
	[ "$(cat "$b/out/fatbin/sample_kernel/sample_kernel.o")" = "ascend://builtin" ] || return 1
	for f in "$b"/out/bin/*; do
		needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(lib[a-z_]*\)\..*/\1/p' | grep acl | tr '\n' ' ')
		log "$(basename "$f"): $needed"
		[ "$needed" = "libacl_rt " ] || return 1
	done
	[ "$(find "$b/out/bin" -type f | wc -l)" = 7 ] || return 1
	mkdir -p "$PAY/install/sample" && cp -a "$b/out" "$PAY/install/sample/"
}
check app/cmake-cann-sample sample_cmake
smi_test() {
	# shellcheck disable=SC2046 # pkg-config prints separate words
	cc -std=c11 -Wall -Wextra -Werror -I"$TOP/tests/lib" -o "$PAY/test_install_smi" \
		"$HERE/test_install_smi.c" \
		$(PKG_CONFIG_PATH=$P/lib64/pkgconfig pkg-config --cflags --libs acl_rt)
}
check build/test_install_smi smi_test
npusmi_test() {
	# shellcheck disable=SC2046 # pkg-config prints separate words
	cc -std=c11 -Wall -Wextra -Werror -I"$TOP/tests/lib" -o "$PAY/test_install_npusmi" \
		"$HERE/test_install_npusmi.c" \
		$(PKG_CONFIG_PATH=$P/lib64/pkgconfig pkg-config --cflags --libs acl_rt)
}
check build/test_install_npusmi npusmi_test
# The block after ".. tested-example: npu-smi" in Documentation/npu-smi.rst,
# as the user would paste it (the VM test runs it).
npusmi_example() {
	awk '/^\.\. tested-example: npu-smi$/ { f = 1; next }
		f == 1 && /::$/ { f = 2; next }
		f == 2 && /^$/ && !n { next }
		f == 2 && /^   / { sub(/^   /, ""); print; n++; next }
		f == 2 && /^$/ { print; next }
		f == 2 { exit }' "$TOP/Documentation/npu-smi.rst" >"$PAY/install/npu-smi-example.sh" &&
		[ -s "$PAY/install/npu-smi-example.sh" ] && sh -n "$PAY/install/npu-smi-example.sh"
}
check docs/npu-smi-example npusmi_example

# --- staged for the VM ------------------------------------------------------------
{ cp -a "$P" "$PAY/install/opt/" && install -m 0755 "$HERE/vm-test.sh" "$PAY/test_install_app"; } ||
	result FAIL stage-for-vm

# Last: the log on stderr (install.log in make check) still has the first
# step's header, so no step above truncated it.
log_intact() {
	[ ! -f /dev/stderr ] || grep "^---- make-install: " /dev/stderr >/dev/null
}
check log-intact log_intact
exit 0
