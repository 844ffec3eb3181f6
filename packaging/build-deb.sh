#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# packaging/build-deb.sh - what `make deb` does (Documentation/packages.rst).
#
#   packaging/build-deb.sh [--out DIR] [--keep]
#
# Builds the Debian packages with Debian's own tools: the project's files
# (`git ls-files -co --exclude-standard`, or without git every file outside
# build/ and .git/ that is not build output by .gitignore's patterns) are copied to DIR/src/ascend-accel-VERSION/, and there
# `dpkg-buildpackage -us -uc -b` builds them (debian/rules), so that nothing
# is written into the tree itself.  The packages (*.deb), the .buildinfo and
# the .changes go to DIR (default build/deb), older ones there are removed
# first.  Then lintian checks the .changes (every package): its output is
# printed and kept in DIR/lintian.log, and any error fails the build.  The
# debug-symbol packages (*-dbgsym_*.deb) go to DIR/dbgsym/ then, so that
# `apt install ./*.deb` in DIR installs the five packages.  DIR/src/ goes
# at the end (--keep keeps it).
#
# Needs: tools/setup-deps --deb (dpkg-dev, debhelper, dh-dkms, dh-python,
# lintian and the build dependencies).  No root.
# Exit status: 0 built and lintian reported no error; 1 otherwise.
set -Eeuo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
OUT=$TOP/build/deb
KEEP=0
while [ $# -gt 0 ]; do
	case $1 in
	--out) OUT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "build-deb.sh: unknown argument '$1' (usage: build-deb.sh [--out DIR] [--keep])" >&2; exit 2 ;;
	esac
done
say() { printf 'deb: %s\n' "$*"; }
trap 'say "stopped: \"$BASH_COMMAND\" failed (line $LINENO)"' ERR

for t in dpkg-buildpackage dh dh_dkms dh_python3 lintian; do
	command -v "$t" >/dev/null ||
		{ say "$t is missing: run tools/setup-deps --deb (as root)"; exit 1; }
done
VERSION=$(cat "$TOP/packaging/VERSION")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SRCDIR=$OUT/src
SRC=$SRCDIR/ascend-accel-$VERSION

# --- a copy of the tree --------------------------------------------------------------
list_files() { # NUL-separated paths relative to TOP, never OUT's contents
	local rel=""
	case $OUT/ in "$TOP"/*) rel=${OUT#"$TOP"/} ;; esac
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$TOP" ls-files -z -co --exclude-standard
	else
		# .gitignore's build output, as git would leave it out
		(cd "$TOP" && find . \( -path ./build -o -path ./.git -o -path ./debian/build \
			-o -path ./debian/tmp -o -path ./debian/.debhelper \) -prune -o \
			\( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' -o -name '*.cmd' \
			-o -name '*.a' -o -name '*.so' -o -name '*.so.*' -o -name '.*.d' -o -name '*.order' \
			-o -name Module.symvers -o -name '*.dwo' -o -name '*.gcno' \) -prune -o \
			\( -type f -o -type l \) -printf '%P\0')
	fi | while IFS= read -r -d '' f; do
		[ -n "$rel" ] && case $f in "$rel"/*) continue ;; esac
		if [ -e "$TOP/$f" ] || [ -L "$TOP/$f" ]; then printf '%s\0' "$f"; fi
	done
}
rm -rf "$SRCDIR"
mkdir -p "$SRC"
(cd "$TOP" && list_files | tar --null -T - -cf -) | tar -C "$SRC" -xf -
say "source: $SRC ($(find "$SRC" -type f | wc -l) files)"

# --- dpkg-buildpackage -------------------------------------------------------------
rm -rf "$OUT"/*.deb "$OUT"/*.buildinfo "$OUT"/*.changes "$OUT/lintian.log" "$OUT/dbgsym"
say "dpkg-buildpackage -us -uc -b (log: $OUT/build.log)"
if ! (cd "$SRC" && dpkg-buildpackage -us -uc -b) >"$OUT/build.log" 2>&1; then
	tail -n 40 "$OUT/build.log"
	say "dpkg-buildpackage failed (log: $OUT/build.log)"
	exit 1
fi
mv "$SRCDIR"/*.deb "$SRCDIR"/*.buildinfo "$SRCDIR"/*.changes "$OUT"/
[ "$KEEP" = 1 ] || rm -rf "$SRCDIR"
for f in "$OUT"/*.deb; do say "built $(basename "$f")"; done

# --- lintian -------------------------------------------------------------------------
changes=("$OUT"/*.changes)
say "lintian ${changes[0]##*/}"
st=0
lintian --display-info --fail-on error "${changes[0]}" >"$OUT/lintian.log" 2>&1 || st=$?
sed 's/^/  /' "$OUT/lintian.log"
if [ "$st" != 0 ]; then
	say "lintian: errors (exit $st; $OUT/lintian.log)"
	exit 1
fi
say "lintian: no errors ($(grep -c '^[WIP]: ' "$OUT/lintian.log" || true) warnings/infos/pedantic tags)"
mkdir -p "$OUT/dbgsym"
for f in "$OUT"/*-dbgsym_*.deb; do [ -e "$f" ] && mv "$f" "$OUT/dbgsym/"; done
say "done: $OUT"
