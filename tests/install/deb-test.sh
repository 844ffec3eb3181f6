#!/usr/bin/env bash
# The checks are functions run through check(): shellcheck 0.9 cannot see that.
# shellcheck disable=SC2317
# SPDX-License-Identifier: MIT
#
# tests/install/deb-test.sh DEBDIR - the Debian packages on a fresh Debian 12
# root, as root, from the top of a copy of the source tree (no build output
# in it).  tools/fresh/check --lane deb runs it in a new debootstrap root
# with DEBDIR holding what `make deb` built in another one.
#
#   1. The machine: apt-get installs what the user has before the packages
#      (Documentation/packages.rst): the 6.12 kernel image and headers, and
#      the test's own tools: QEMU, busybox-static, cpio, kmod (the test VM,
#      tools/vm/run) and g++, cmake, pkg-config, python3.
#   2. A list of every file of the root (find -xdev, less /proc, /sys, /dev,
#      /run, /tmp, /root and apt's and dpkg's own state, caches and logs).
#   3. The examples of Documentation/packages.rst, extracted from it
#      (".. tested-example: NAME"), run as written with sh -e:
#      packages-install (apt install ./*.deb, dkms status) in DEBDIR,
#      packages-build here; apt answers its own questions (APT_CONFIG:
#      Assume-Yes), as a user at the prompt would.  Checked: the five
#      packages are installed; a 6.1 headers package (which dkms pulled in)
#      is there and got no build; dkms status says installed for the 6.12
#      kernel; the module is in /lib/modules/KVER/updates/dkms/ with that
#      vermagic; the udev rule; ascend-smi, npu-smi, pkg-config acl_rt,
#      import acl; the programs link the packaged /usr/lib/<triplet>/libacl_rt.so.
#   4. The test VM (tools/vm/run, ASCEND_VM_DIR=/tmp/vm-deb) boots the 6.12
#      kernel with the module DKMS built (decompressed if DKMS compressed
#      it; `modprobe ascend` in the guest) and runs tests/install/deb-vm.sh:
#      the packages-run example (the D2D sample built with pkg-config) and
#      the same sample built with CMake, each must print its [SUCCESS]
#      line, and the find_package(AscendRT) programs; the libacl_rt.so they
#      load there must be the package's, byte for byte.
#   5. packages-remove (apt purge), then nothing of the packages is left:
#      no DKMS tree, module or /usr/src/ascend-*, and every file that is in
#      the root now but was not in step 2 belongs to an installed package.
#
# One "RESULT: PASS|FAIL deb/<name>" line per check; the last line is
# "N passed, N failed".  Logs in /tmp/deb-test/.  Exit status 0 when all
# passed, 1 otherwise, 2 when the set-up (step 1) failed.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
DEBDIR=$(cd "${1:?usage: deb-test.sh DEBDIR}" && pwd) || exit 2
DOC=$TOP/Documentation/packages.rst
W=/tmp/deb-test
VERSION=$(cat "$TOP/packaging/VERSION")
PKGS=(ascend-dkms libacl-rt libacl-rt-dev ascend-tools python3-acl)
TRIPLET=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
LIB=/usr/lib/$TRIPLET/libacl_rt.so
passed=0 failed=0

rm -rf "$W" && mkdir -p "$W"
log() { printf 'deb-test: %s\n' "$*" >&2; }
result() { # PASS|FAIL NAME [WHY]
	echo "RESULT: $1 deb/$2${3:+ ($3)}"
	if [ "$1" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
check() { # NAME COMMAND...
	local name=$1
	shift
	echo "---- $name: $*" >&2
	if "$@" >&2; then result PASS "$name"; else result FAIL "$name"; fi
}
finish() { # [STATUS]
	echo "$passed passed, $failed failed"
	[ -n "${1:-}" ] && exit "$1"
	[ "$failed" = 0 ] && exit 0
	exit 1
}

export DEBIAN_FRONTEND=noninteractive
# What a user answers at apt's prompt; the lock: other apt runs may hold it.
printf '%s\n' 'APT::Get::Assume-Yes "true";' 'DPkg::Lock::Timeout "600";' >"$W/apt.conf"
export APT_CONFIG=$W/apt.conf

# --- 1. the machine -----------------------------------------------------------------
log "step 1: the 6.12 kernel, the VM's tools, the compilers"
t0=$(date +%s)
# INITRD=No: no initramfs for the kernel image (the VM builds its own).
if ! { apt-get update -q && INITRD=No apt-get install -q --no-install-recommends \
	linux-image-6.12-amd64 linux-headers-6.12-amd64 qemu-system-x86 busybox-static \
	cpio xz-utils gzip kmod g++ cmake pkg-config python3; } >"$W/setup.log" 2>&1; then
	tail -n 30 "$W/setup.log" >&2
	result FAIL setup "apt-get install failed: $W/setup.log"
	finish 2
fi
KVER=$(for d in /usr/src/linux-headers-6.12.*-amd64; do
	[ -f "$d/Makefile" ] && basename "$d" | sed 's/^linux-headers-//'; done | sort -V | tail -n 1)
if [ -z "$KVER" ] || [ ! -e "/boot/vmlinuz-$KVER" ]; then
	result FAIL setup "no 6.12 kernel"
	finish 2
fi
log "kernel $KVER ($(($(date +%s) - t0)) s)"
# tools/vm/run would give the guest build/lib/libacl_rt.so instead of the package's.
[ ! -e "$TOP/build" ] || { result FAIL setup "$TOP/build exists: not a clean tree"; finish 2; }

# --- 2. every file before -------------------------------------------------------------
snapshot() { # OUT: the root's files, /lib etc. spelt as /usr/lib (merged /usr)
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp \
		-o -path /root -o -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/cache \
		-o -path /var/log \) -prune -o -print | usr_path | sort -u >"$1"
}
usr_path() { sed -E 's#^/(bin|sbin|lib|lib32|lib64|libx32)(/|$)#/usr/\1\2#'; }
snapshot "$W/files.before"

# --- 3. install, build ---------------------------------------------------------------
example() { # NAME OUT: the literal block after ".. tested-example: NAME"
	awk -v n="$1" '$0 == ".. tested-example: " n { f = 1; next }
		f == 1 && /::$/ { f = 2; next }
		f == 2 && /^$/ && !k { next }
		f == 2 && /^   / { sub(/^   /, ""); print; k++; next }
		f == 2 && /^$/ { print; next }
		f == 2 { exit }' "$DOC" >"$2"
	[ -s "$2" ] && sh -n "$2"
}
for n in packages-install packages-build packages-run packages-remove; do
	check "docs-example-$n" example "$n" "$W/$n.sh"
done
run_example() { # NAME DIR: the example, as pasted, in DIR (log: $W/NAME.log)
	(cd "$2" && sh -e -x "$W/$1.sh") >"$W/$1.log" 2>&1
	local st=$?
	cat "$W/$1.log" >&2
	return "$st"
}

check apt-install run_example packages-install "$DEBDIR"
installed() { # PKG...
	local p
	for p in "$@"; do
		[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" = "ii " ] ||
			{ log "$p is not installed"; return 1; }
	done
}
check packages-installed installed "${PKGS[@]}" dkms
# The 6.1 headers: pulled in by dkms (Recommends: linux-headers-amd64).
OLD=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'linux-headers-6.1.*-amd64' 2>/dev/null |
	awk '$1 == "ii" {sub(/^linux-headers-/, "", $2); print $2}' | head -n 1)
old_headers() { [ -n "$OLD" ] && [ -f "/usr/src/linux-headers-$OLD/Makefile" ] && log "6.1 headers: $OLD"; }
check 6.1-headers-present old_headers
dkms status ascend >"$W/dkms-status.txt" 2>&1
cat "$W/dkms-status.txt" >&2
dkms_installed() { # "ascend/0.1.0, 6.12.N+deb12-amd64, x86_64: installed"
	grep -F "ascend/$VERSION, $KVER, " "$W/dkms-status.txt" | grep ': installed$' >/dev/null
}
check dkms-installed-for-6.12 dkms_installed
dkms_skipped_old() {
	[ -n "$OLD" ] || return 1
	! grep -F "ascend/$VERSION, $OLD, " "$W/dkms-status.txt" >/dev/null &&
		! ls "/usr/lib/modules/$OLD/updates/dkms/ascend.ko"* 2>/dev/null
}
check dkms-skips-6.1 dkms_skipped_old
# What modprobe loads for the 6.12 kernel.
KO=$(modinfo -k "$KVER" -n ascend 2>/dev/null)
module_ok() {
	log "module: ${KO:-none}"
	case $KO in */lib/modules/"$KVER"/updates/dkms/ascend.ko*) ;; *) return 1 ;; esac
	[ "$(modinfo -F vermagic "$KO" | awk '{print $1}')" = "$KVER" ]
}
check module-for-6.12 module_ok
check udev-rule grep -q 'GROUP="render"' /lib/udev/rules.d/70-ascend.rules
check ascend-smi sh -c "[ \"\$(ascend-smi --version)\" = 'ascend-smi $VERSION' ] && npu-smi --version"
pc_ok() {
	[ "$(pkg-config --modversion acl_rt)" = "$VERSION" ] &&
		[ "$(pkg-config --cflags --libs acl_rt | xargs)" = "-lacl_rt" ] &&
		[ "$(pkg-config --variable=libdir acl_rt)" = "/usr/lib/$TRIPLET" ]
}
check pkg-config pc_ok
py_ok() {
	local out
	out=$(/usr/bin/python3 -c 'import acl; print(acl.__file__, acl.ACL_MEMCPY_HOST_TO_DEVICE)') &&
		log "$out" || return 1
	case $out in "/usr/lib/python3/dist-packages/acl."*" 1") ;; *) return 1 ;; esac
}
check python3-import-acl py_ok
# The leftover check below leaves out what other packages' maintainer scripts
# make (alternatives, init links, systemd helper state): ours use none of that.
scripts_plain() {
	local p f
	for p in "${PKGS[@]}"; do
		for f in /var/lib/dpkg/info/"$p".* /var/lib/dpkg/info/"$p":*.*; do
			[ -f "$f" ] || continue
			case $f in *.list | *.md5sums | *.triggers | *.shlibs | *.symbols) continue ;; esac
			grep -l -E 'update-alternatives|update-rc\.d|deb-systemd|invoke-rc\.d' "$f" >&2 && return 1
		done
	done
	return 0
}
check maintainer-scripts-only-dkms-ldconfig scripts_plain

check build run_example packages-build "$TOP"
links_package_lib() { # PROGRAM...
	local f got
	for f in "$@"; do
		[ -x "$f" ] || { log "no $f"; return 1; }
		# /lib/<triplet> or /usr/lib/<triplet>: the same file (merged /usr)
		got=$(ldd "$f" | awk '$1 == "libacl_rt.so" && $2 == "=>" {print $3}')
		log "$f: libacl_rt.so => $got"
		[ -n "$got" ] && [ "$(readlink -f "$got")" = "$(readlink -f "$LIB")" ] || return 1
	done
}
check build-links-packaged-lib links_package_lib /tmp/d2d/main /tmp/d2d/build/main /tmp/app/app \
	/tmp/app/app_ascendcl

# --- 4. the test VM ---------------------------------------------------------------------
V=$W/vm
mkdir -p "$V/d2d-cmake"
stage_vm() {
	cp -r /tmp/d2d "$V/d2d" && rm -rf "$V/d2d/build" &&
		cp /tmp/d2d/build/main /tmp/d2d/run.sh "$V/d2d-cmake/" &&
		cp /tmp/app/app /tmp/app/app_ascendcl "$V/" &&
		cp "$W/packages-run.sh" "$HERE/deb-vm.sh" "$V/" &&
		md5sum <"$LIB" | awk '{print $1}' >"$V/libacl_rt.md5" &&
		case $KO in
		*.xz) xz -dc "$KO" >"$W/ascend.ko" ;;
		*.zst) zstd -qdc "$KO" >"$W/ascend.ko" ;;
		*.gz) gzip -dc "$KO" >"$W/ascend.ko" ;;
		*) cp "$KO" "$W/ascend.ko" ;;
		esac
}
check vm-stage stage_vm
log "step 4: the test VM (console: /tmp/vm-deb/console.log)"
vm_st=0
ASCEND_VM_DIR=/tmp/vm-deb ASCEND_KO=$W/ascend.ko KVER=$KVER "$TOP/tools/vm/run" \
	--copy "$V" -- sh vm/deb-vm.sh >"$W/vm.log" 2>&1 || vm_st=$?
cat "$W/vm.log" >&2
if [ "$vm_st" = 0 ]; then result PASS vm-run; else result FAIL vm-run "tools/vm/run exit $vm_st"; fi
for n in libacl_rt-is-the-package-s d2d-pkgconfig d2d-cmake app-find_package app-ascendcl; do
	line=$(tr -d '\r' <"$W/vm.log" | grep -a -E "^VM-RESULT: (PASS|FAIL) $n( |$)" | tail -n 1)
	case $line in
	"VM-RESULT: PASS $n"*) result PASS "vm/$n" ;;
	*) result FAIL "vm/$n" "${line:-no result}" ;;
	esac
done
tr -d '\r' <"$W/vm.log" | grep -a -E '^\[SUCCESS\] .*: 123$' | head -n 1

# --- 5. remove ----------------------------------------------------------------------------
check apt-purge run_example packages-remove "$DEBDIR"
gone() {
	local p st=0
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^[ip]' &&
			{ log "$p is still there"; st=1; }
	done
	[ -z "$(dkms status ascend 2>/dev/null)" ] || { log "dkms still lists ascend"; st=1; }
	for p in /var/lib/dkms/ascend /usr/src/ascend-"$VERSION" /usr/lib/modules/*/updates/dkms/ascend.ko*; do
		[ -e "$p" ] && { log "left: $p"; st=1; }
	done
	return "$st"
}
check removed gone
snapshot "$W/files.after"
cat /var/lib/dpkg/info/*.list | usr_path | sort -u >"$W/files.owned"
comm -13 "$W/files.before" "$W/files.after" >"$W/files.new"
# Not owned, and not made by another (still installed) package's maintainer
# scripts: update-alternatives (/etc/alternatives/ and the links to it),
# update-rc.d (/etc/rcN.d/), deb-systemd-helper (/etc/systemd/,
# /var/lib/systemd/deb-systemd-*), netbase's postinst (/etc/networks).
comm -23 "$W/files.new" "$W/files.owned" | while IFS= read -r f; do
	case $f in
	/etc/alternatives/* | /etc/rc[0-6S].d/* | /etc/systemd/* | /var/lib/systemd/deb-systemd-* | \
		/etc/networks) continue ;;
	esac
	case $(readlink "$f" 2>/dev/null) in /etc/alternatives/*) continue ;; esac
	printf '%s\n' "$f"
done >"$W/files.left"
left_nothing() {
	log "$(wc -l <"$W/files.new") new files, all but these owned by installed packages:"
	cat "$W/files.left" >&2
	[ ! -s "$W/files.left" ]
}
check purge-leaves-nothing left_nothing
finish
