#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# packaging/install.sh - what `make install` does (see Documentation/install.rst).
#
#   packaging/install.sh --build DIR [--prefix P] [--destdir D] [--kver V]
#                        [--module KO] [--udev-dir DIR] [--libdir DIR] [--debian]
#
#   $D$P/include/acl/...               CANN headers (acl/*.h, acl/error_codes/*.h)
#   $D$P/lib64/libacl_rt.so            the runtime; libascendcl.so -> libacl_rt.so
#   $D$P/lib64/pkgconfig/acl_rt.pc     pkg-config (relocatable)
#   $D$P/lib64/cmake/AscendRT/         find_package(AscendRT): AscendRT::acl_rt
#   $D$P/share/cmake/AscendRT/         the same (Debian's CMake skips lib64/)
#   $D$P/lib64/libacl_rt_impl.so       -> libacl_rt.so (a name CANN's samples link)
#   $D$P/tikcpp/ascendc_kernel_cmake/  ascendc.cmake: ascendc_library(), host_intf_pub
#                                      (also as compiler/tikcpp/, tools/tikcpp/)
#   $D$P/bin/ascend-smi                device/process status tool
#   $D$P/bin/npu-smi                   -> ascend-smi (answers npu-smi's commands)
#   $D$P/lib/python3/dist-packages/    the acl Python module (pyACL's interface;
#                                      set_env.sh puts it on PYTHONPATH)
#   $D$P/set_env.sh                    CANN-style environment script
#   $D$P/bin/setenv.bash               -> ../set_env.sh (the name CANN's run.sh sources)
#   $D/lib/modules/V/updates/ascend.ko where modprobe finds it (then depmod)
#   $D/usr/src/ascend-VER/             DKMS source tree with dkms.conf
#   $D<udev-dir>/70-ascend.rules       /dev/accel/accel* -> group render, 0660
#   $D/etc/modprobe.d/ascend.conf.example
#
# depmod and the udev reload run only for a real install (no DESTDIR); with
# DESTDIR they are left to the package/target and a note says so.
#
# --libdir DIR (absolute): libacl_rt.so and its pkgconfig/ and cmake/ there
# instead of $P/lib64 (the .pc and CMake files find the prefix from their
# own location either way, as long as DIR is below the prefix).
#
# --debian: the layout of the Debian packages (debian/rules, make deb):
# prefix /usr, libdir /usr/lib/<multiarch triplet>, the udev rule in
# /lib/udev/rules.d, the CMake package only in <libdir>/cmake/AscendRT
# (Debian's CMake searches it), the .pc file with the absolute prefix (so
# that pkg-config drops -I/usr/include and -L<libdir> as system paths); no
# CANN-only files (set_env.sh, bin/setenv.bash, tikcpp/, share/cmake/), no
# modprobe.d example (the package has it as documentation) and no
# ascend.ko: the module is built by DKMS.  --prefix/--libdir/--udev-dir
# still override.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
PREFIX=/usr/local/Ascend/cann
DESTDIR=
BUILD=$TOP/build
KVER=
MODULE=$TOP/drivers/accel/ascend/ascend.ko
UDEVDIR=/etc/udev/rules.d
LIBDIR=
DEBIAN=0
PREFIX_SET=0 UDEV_SET=0

while [ $# -gt 0 ]; do
	case $1 in
	--prefix) PREFIX=$2; PREFIX_SET=1; shift 2 ;;
	--destdir) DESTDIR=$2; shift 2 ;;
	--build) BUILD=$2; shift 2 ;;
	--kver) KVER=$2; shift 2 ;;
	--module) MODULE=$2; shift 2 ;;
	--udev-dir) UDEVDIR=$2; UDEV_SET=1; shift 2 ;;
	--libdir) LIBDIR=$2; shift 2 ;;
	--debian) DEBIAN=1; shift ;;
	*) echo "install.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ "$DEBIAN" = 1 ]; then
	[ "$PREFIX_SET" = 1 ] || PREFIX=/usr
	[ "$UDEV_SET" = 1 ] || UDEVDIR=/lib/udev/rules.d
	if [ -z "$LIBDIR" ]; then
		TRIPLET=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch) ||
			{ echo "install.sh: --debian: no multiarch triplet (dpkg-architecture, gcc)" >&2; exit 2; }
		LIBDIR=$PREFIX/lib/$TRIPLET
	fi
	KVER=
fi
case $PREFIX in
/*) ;;
*) echo "install.sh: PREFIX must be absolute (got '$PREFIX')" >&2; exit 2 ;;
esac
PREFIX=${PREFIX%/}
LIBDIR=${LIBDIR:-$PREFIX/lib64}
LIBDIR=${LIBDIR%/}
case $LIBDIR in
"$PREFIX"/?*) ;;
*) echo "install.sh: LIBDIR must be below PREFIX (got '$LIBDIR', prefix '$PREFIX')" >&2; exit 2 ;;
esac
LIBREL=${LIBDIR#"$PREFIX"/}	# lib64, lib/x86_64-linux-gnu
# From <libdir>/pkgconfig and from <libdir>/cmake/AscendRT up to the prefix.
UP=..
rest=$LIBREL
while [ -n "$rest" ]; do
	UP=$UP/..
	case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
done
# shellcheck disable=SC2016 # ${pcfiledir} is pkg-config's variable, kept literally
if [ "$DEBIAN" = 1 ]; then PC_PREFIX=$PREFIX; else PC_PREFIX='${pcfiledir}'/$UP; fi
DESTDIR=${DESTDIR%/}
if [ -n "$DESTDIR" ]; then
	case $DESTDIR in /*) ;; *) DESTDIR=$PWD/$DESTDIR ;; esac
fi

VERSION=$(cat "$HERE/VERSION")
VMAJOR=${VERSION%%.*}
VMINOR=${VERSION#*.}; VMINOR=${VMINOR%%.*}
P=$DESTDIR$PREFIX
L=$DESTDIR$LIBDIR

say() { printf 'install: %s\n' "$*"; }
need() { [ -e "$1" ] || { echo "install.sh: $1 is missing: run 'make' first" >&2; exit 1; }; }
subst() { # TEMPLATE OUT MODE
	sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@VERSION@|$VERSION|g" \
		-e "s|@VERSION_MAJOR@|$VMAJOR|g" -e "s|@VERSION_MINOR@|$VMINOR|g" \
		-e "s|@PC_PREFIX@|$PC_PREFIX|g" -e "s|@LIBDIR_REL@|$LIBREL|g" \
		-e "s|@CMAKE_UP@|${UP}/..|g" "$1" >"$2.tmp"
	chmod "$3" "$2.tmp"
	mv "$2.tmp" "$2"
}

need "$BUILD/lib/libacl_rt.so"
need "$BUILD/bin/ascend-smi"
pymods=("$BUILD"/python/acl.*.so)	# acl.cpython-3XY-<triplet>.so; unmatched: the pattern
PYMOD=${pymods[0]}
need "$PYMOD"

# --- the CANN-style tree (--debian: the same files in Debian's layout) ----------
say "libacl_rt, headers, ascend-smi, npu-smi, the acl Python module -> $P"
install -d "$P/include/acl/error_codes" "$L/pkgconfig" "$L/cmake/AscendRT" "$P/bin"
install -m 0644 "$TOP"/lib/libaclrt/include/acl/*.h "$P/include/acl/"
install -m 0644 "$TOP"/lib/libaclrt/include/acl/error_codes/*.h "$P/include/acl/error_codes/"
install -m 0755 "$BUILD/lib/libacl_rt.so" "$L/libacl_rt.so"
# The other names CANN's samples link (-lascendcl, .../lib64/libacl_rt_impl.so):
# all the same library, soname libacl_rt.so.
ln -sfn libacl_rt.so "$L/libascendcl.so"
ln -sfn libacl_rt.so "$L/libacl_rt_impl.so"
install -m 0755 "$BUILD/bin/ascend-smi" "$P/bin/ascend-smi"
# Debian's path for Python modules, under the prefix; no run path in it:
# libacl_rt.so comes from LD_LIBRARY_PATH (set_env.sh) or the system's.
install -d "$P/lib/python3/dist-packages"
install -m 0644 "$PYMOD" "$P/lib/python3/dist-packages/"
# Under the name npu-smi the same program answers npu-smi's commands.
ln -sfn ascend-smi "$P/bin/npu-smi"
if [ "$DEBIAN" = 0 ]; then
	install -d "$P/share/cmake/AscendRT" "$P/tikcpp/ascendc_kernel_cmake" "$P/compiler" "$P/tools"
	# set_env.sh assumes the default libdir, lib64.
	subst "$HERE/set_env.sh.in" "$P/set_env.sh" 0644
	ln -sfn ../set_env.sh "$P/bin/setenv.bash"
	# ${ASCENDC_CMAKE_DIR}/ascendc.cmake; CANN trees have it in these three places.
	install -m 0644 "$HERE/ascendc.cmake" "$P/tikcpp/ascendc_kernel_cmake/ascendc.cmake"
	ln -sfn ../tikcpp "$P/compiler/tikcpp"
	ln -sfn ../tikcpp "$P/tools/tikcpp"
fi
subst "$HERE/acl_rt.pc.in" "$L/pkgconfig/acl_rt.pc" 0644
# find_package() looks in <prefix>/lib64/cmake/ only where CMake is told the
# platform uses lib64 (not on Debian); <prefix>/share/cmake/ is searched
# everywhere, and on Debian <prefix>/lib/<triplet>/cmake/ too.  The files
# find the prefix from their own directory (one level more than the .pc).
subst "$HERE/AscendRTConfig.cmake.in" "$L/cmake/AscendRT/AscendRTConfig.cmake" 0644
subst "$HERE/AscendRTConfigVersion.cmake.in" "$L/cmake/AscendRT/AscendRTConfigVersion.cmake" 0644
if [ "$DEBIAN" = 0 ]; then	# share/cmake/AscendRT: three levels below the prefix
	UP=../.. subst "$HERE/AscendRTConfig.cmake.in" "$P/share/cmake/AscendRT/AscendRTConfig.cmake" 0644
	subst "$HERE/AscendRTConfigVersion.cmake.in" \
		"$P/share/cmake/AscendRT/AscendRTConfigVersion.cmake" 0644
fi

# --- DKMS source tree -------------------------------------------------------------
SRC=$DESTDIR/usr/src/ascend-$VERSION
say "DKMS sources -> $SRC"
rm -rf "$SRC"
install -d "$SRC/drivers/accel/ascend/emu" "$SRC/include/uapi/drm"
install -m 0644 "$TOP/Kbuild" "$SRC/Kbuild"
for f in "$TOP"/drivers/accel/ascend/*.[ch] "$TOP/drivers/accel/ascend/Kbuild"; do
	case $f in *.mod.c) continue ;; esac
	install -m 0644 "$f" "$SRC/drivers/accel/ascend/"
done
for f in "$TOP"/drivers/accel/ascend/emu/*.[ch]; do
	case $f in *.mod.c) continue ;; esac
	install -m 0644 "$f" "$SRC/drivers/accel/ascend/emu/"
done
install -m 0644 "$TOP/include/uapi/drm/ascend_accel.h" "$SRC/include/uapi/drm/"
subst "$HERE/dkms.conf.in" "$SRC/dkms.conf" 0644

# --- udev rule, modprobe.d example ----------------------------------------------
say "udev rule -> $DESTDIR$UDEVDIR/70-ascend.rules"
install -d "$DESTDIR$UDEVDIR"
install -m 0644 "$HERE/70-ascend.rules" "$DESTDIR$UDEVDIR/70-ascend.rules"
# --debian: the example is a package's documentation (debian/ascend-dkms.examples)
if [ "$DEBIAN" = 0 ]; then
	install -d "$DESTDIR/etc/modprobe.d"
	install -m 0644 "$HERE/ascend.conf.example" "$DESTDIR/etc/modprobe.d/ascend.conf.example"
fi

# --- the module ---------------------------------------------------------------------
if [ "$DEBIAN" = 1 ]; then
	say "--debian: ascend.ko not installed (DKMS builds it)"
elif [ -z "$KVER" ]; then
	say "no kernel version (KVER/KDIR): ascend.ko not installed"
elif [ ! -f "$MODULE" ]; then
	say "$MODULE not built: not installed (or use DKMS)"
else
	MODDEST=$DESTDIR/lib/modules/$KVER/updates
	say "ascend.ko -> $MODDEST"
	install -d "$MODDEST"
	install -m 0644 "$MODULE" "$MODDEST/ascend.ko"
	if [ -n "$DESTDIR" ]; then
		say "DESTDIR set: depmod not run (on the target: depmod -a $KVER)"
	elif command -v depmod >/dev/null 2>&1 || [ -x /sbin/depmod ]; then
		say "depmod -a $KVER"
		PATH=$PATH:/sbin:/usr/sbin depmod -a "$KVER"
	else
		say "depmod not found: run 'depmod -a $KVER' before 'modprobe ascend'"
	fi
fi

if [ -z "$DESTDIR" ] && [ "$DEBIAN" = 0 ] && command -v udevadm >/dev/null 2>&1; then
	if udevadm control --reload 2>/dev/null; then
		udevadm trigger -s accel 2>/dev/null || true
	fi
fi
if [ "$DEBIAN" = 1 ]; then say "done"; else say "done: . $PREFIX/set_env.sh"; fi
