#!/usr/bin/env bash
# tools/kunit-oot/prepare.sh KDIR CACHE
#
# Builds an out-of-tree kunit.ko and drm_kunit_helpers.ko for the kernel of
# KDIR (Debian's kernel has CONFIG_KUNIT unset) into CACHE/kunit-oot, from
# /usr/src/linux-source-6.12.tar.xz (package linux-source-6.12).  Only our shim
# (kunit_oot.{h,c}, Kbuild) lives in the repository; the kernel's lib/kunit
# sources are extracted into CACHE/linux-source at build time, together with
# scripts/checkpatch.pl and its data files (used by `make checkpatch`).
#
# CACHE is per kernel version (the Makefile uses ~/.cache/ascend-accel/$KVER).
# Rebuilds only when kunit.ko is missing or the shim, the source tarball or the
# kernel (its release or its .config) changed.  Prints the build directory on
# success.
#
#   --extract-only   only extract the sources (for checkpatch)
set -euo pipefail

extract_only=0
if [ "${1:-}" = "--extract-only" ]; then
	extract_only=1
	shift
fi
[ $# = 2 ] || { echo "usage: $0 [--extract-only] KDIR CACHE" >&2; exit 2; }
KDIR=$1
CACHE=$2
HERE=$(cd "$(dirname "$0")" && pwd)
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

die() { echo "kunit-oot: $*" >&2; exit 1; }

[ -f "$KDIR/Makefile" ] || die "no kernel headers at $KDIR (run tools/setup-deps)"
[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-6.12, or tools/setup-deps)"
KVER=$(cat "$KDIR/include/config/kernel.release" 2>/dev/null || basename "$KDIR" | sed 's/^linux-headers-//')

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9			# one builder per cache dir at a time

# 1. Extract the few files we need (not the 1.7 GB tree): ~10 s, once per tarball.
SRC=$CACHE/linux-source
src_id="$(stat -c '%s %Y' "$TARBALL") $TARBALL"
if [ "$(cat "$SRC/.extracted" 2>/dev/null)" != "$src_id" ]; then
	echo "kunit-oot: extracting lib/kunit and checkpatch from $TARBALL" >&2
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1 --wildcards \
		'*/lib/kunit/*' '*/drivers/gpu/drm/tests/drm_kunit_helpers.c' \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	echo "$src_id" >"$SRC.tmp/.extracted"
	mv "$SRC.tmp" "$SRC"
fi
[ "$extract_only" = 1 ] && { echo "$SRC"; exit 0; }

# 2. Build kunit.ko unless an up-to-date one is cached.
BLD=$CACHE/kunit-oot
# the kernel's config too: a rebuilt kernel of the same release (another
# preemption model) has another vermagic, and refuses the old module
kcfg=$(sha256sum "$KDIR/.config" 2>/dev/null | cut -c1-16 || true)
want="$KVER|$kcfg|$src_id|$(cat "$HERE/kunit_oot.h" "$HERE/kunit_oot.c" "$HERE/Kbuild" "$0" | sha256sum | cut -c1-16)"
if [ -f "$BLD/kunit.ko" ] && [ -f "$BLD/Module.symvers" ] &&
	[ "$(cat "$BLD/.stamp" 2>/dev/null)" = "$want" ]; then
	echo "$BLD"
	exit 0
fi

echo "kunit-oot: building kunit.ko for $KVER in $BLD" >&2
rm -rf "$BLD"
mkdir -p "$BLD"
for f in test resource static_stub string-stream assert try-catch executor \
	attributes device platform hooks debugfs; do
	cp "$SRC/lib/kunit/$f.c" "$BLD/"
done
cp "$SRC"/lib/kunit/*.h "$BLD/"
cp "$SRC/drivers/gpu/drm/tests/drm_kunit_helpers.c" "$BLD/"
cp "$HERE/kunit_oot.h" "$HERE/kunit_oot.c" "$HERE/Kbuild" "$BLD/"

# task_struct::kunit_test does not exist: go through the side table instead.
sed -i -E 's/current->kunit_test = ([^;]+);/kunit_oot_set_current(\1);/; s/current->kunit_test/kunit_oot_get_current()/g' "$BLD/test.c"
# No module notifier: test modules run their suites from their own module_init.
sed -i 's/^#ifdef CONFIG_MODULES$/#if 0 \/* kunit-oot: no module notifier *\//' "$BLD/test.c"
grep -q 'current->kunit_test' "$BLD"/*.c && die "unpatched current->kunit_test left in $BLD"

env -u MAKEFLAGS -u MFLAGS make -s -C "$KDIR" M="$BLD" -j"$(nproc)" modules >&2 ||
	die "build failed in $BLD"
echo "$want" >"$BLD/.stamp"
echo "$BLD"
