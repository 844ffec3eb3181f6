#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-in-vm.sh - the test run of `make check`, inside the VM (busybox sh).
#
# Started by tools/vm/run in /work with the ascend driver already loaded:
#   /work/user/*               user-space TAP test programs (tests/lib/tap.h)
#   /work/samples/<name>/      one sample each, judged by its run.sh (exit 0 = pass)
#   /lib/modules/$(uname -r)/extra/*.ko   KUnit test modules (every staged module
#                              that depends on kunit.ko) besides kunit, ascend
#
# Prints one line per test case for the host to count (tools/check-summary):
#   RESULT: PASS|FAIL|SKIP <kunit/<suite>/<case> | user/<prog>/<n>-<name> | sample/<name>>
# and finally "RESULTS: passed=N failed=N skipped=N".  Everything the tests print
# is indented, so it can never be mistaken for a RESULT line.
# Exit status: 0 when nothing failed, 1 otherwise.

PASSED=0 FAILED=0 SKIPPED=0
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
EXTRA=/lib/modules/$(uname -r)/extra
KUNIT_DEBUGFS=/sys/kernel/debug/kunit
TMP=/tmp/run-in-vm
mkdir -p $TMP

result() { # PASS|FAIL|SKIP NAME
	echo "RESULT: $1 $2"
	case $1 in
	PASS) PASSED=$((PASSED + 1)) ;;
	FAIL) FAILED=$((FAILED + 1)) ;;
	SKIP) SKIPPED=$((SKIPPED + 1)) ;;
	esac
}

# Turn TAP/KTAP result lines (already stripped of indentation) into RESULT lines.
#   $1 = name prefix, $2 = "ktap" (ok N name) or "tap" (ok N - name)
# Prints RESULT lines and, last, "PLAN <n> SEEN <m> FAILS <k>".
tap_to_results() {
	awk -v prefix="$1" -v style="$2" '
	function clean(s) { gsub(/[^A-Za-z0-9_.:+=,-]+/, "_", s); sub(/^_+/, "", s); sub(/_+$/, "", s); return s }
	/^1\.\.[0-9]+/ { if (plan == "") plan = substr($1, 4) + 0; next }
	/^(not )?ok [0-9]+/ {
		line = $0; st = "PASS"
		if (line ~ /^not ok/) { st = "FAIL"; sub(/^not ok /, "", line) } else sub(/^ok /, "", line)
		num = line; sub(/[^0-9].*$/, "", num); sub(/^[0-9]+ */, "", line)
		if (style == "tap") sub(/^- */, "", line)
		name = line; dir = ""
		if (match(line, / *# */)) { name = substr(line, 1, RSTART - 1); dir = substr(line, RSTART + RLENGTH) }
		if (toupper(dir) ~ /^SKIP/) st = "SKIP"
		else if (toupper(dir) ~ /^TODO/ && st == "FAIL") st = "SKIP"
		if (st == "FAIL") fails++
		n = clean(name); if (n == "") n = "case"
		if (style == "tap") n = num "-" n
		print "RESULT: " st " " prefix "/" n
		seen++
	}
	END { printf "PLAN %d SEEN %d FAILS %d\n", plan, seen, fails }'
}

# Feed RESULT lines produced by tap_to_results through result(); sets PLAN SEEN FAILS.
count_results() { # FILE
	PLAN=0 SEEN=0 FAILS=0
	while read -r _tag _f1 _f2 _rest; do
		case $_tag in
		RESULT:) result "$_f1" "$_f2" ;;
		PLAN) PLAN=$_f1 SEEN=$_rest; FAILS=${SEEN#* FAILS }; SEEN=${SEEN%% *} ;;
		esac
	done <"$1"
}

missing_as_failed() { # PREFIX: PLAN - SEEN cases never reported
	i=$((SEEN + 1))
	while [ "$i" -le "$PLAN" ]; do
		result FAIL "$1/missing-$i"
		i=$((i + 1))
	done
}

# Tests compare what they see with the number of NPUs the driver was loaded with.
if [ -z "${ASCEND_EXPECT_DEVICES:-}" ]; then
	ASCEND_EXPECT_DEVICES=0
	for n in /dev/accel/accel[0-9]*; do
		[ -e "$n" ] && ASCEND_EXPECT_DEVICES=$((ASCEND_EXPECT_DEVICES + 1))
	done
	export ASCEND_EXPECT_DEVICES
fi
echo "==== devices: $ASCEND_EXPECT_DEVICES"

# --- KUnit ------------------------------------------------------------------
kunit_modules=""
for ko in "$EXTRA"/*.ko; do
	[ -f "$ko" ] || continue
	m=$(basename "$ko" .ko)
	case $m in kunit | drm_kunit_helpers | "${ASCEND_DRIVER:-ascend}") continue ;; esac
	# A KUnit test module is one that needs kunit.ko.
	case ",$(modinfo -F depends "$ko")," in
	*,kunit,*) kunit_modules="$kunit_modules $m" ;;
	esac
done
if [ -n "$kunit_modules" ]; then
	echo "==== KUnit:$kunit_modules"
	modprobe kunit || result FAIL kunit/load-kunit.ko
fi
for m in $kunit_modules; do
	ls "$KUNIT_DEBUGFS" >$TMP/before 2>/dev/null	# suite names: no spaces
	# The suites run inside module_init; the module loads fine when cases fail.
	if ! modprobe "$m" >$TMP/modprobe.out 2>&1; then
		sed 's/^/    /' $TMP/modprobe.out
		result FAIL "kunit/$m/module-load"
		continue
	fi
	suites=""
	for d in "$KUNIT_DEBUGFS"/*/; do
		[ -d "$d" ] || continue
		s=$(basename "$d")
		grep -q -x -F "$s" $TMP/before || suites="$suites $s"
	done
	[ -n "$suites" ] || result FAIL "kunit/$m/no-suites"
	for s in $suites; do
		r=$KUNIT_DEBUGFS/$s/results
		echo "---- KTAP $s ($m.ko)"
		sed 's/^/    /' "$r"
		# Case lines are the ones indented one level (4 spaces) in the suite's
		# document; deeper ones are parameters, unindented ones the suite.
		sed -n 's/^    \([^ ]\)/\1/p' "$r" | tap_to_results "kunit/$s" ktap >$TMP/res
		count_results $TMP/res
		missing_as_failed "kunit/$s"
		if grep -q "^not ok [0-9]* $s\$" "$r" && [ "$FAILS" = 0 ] && [ "$SEEN" -ge "$PLAN" ]; then
			result FAIL "kunit/$s/suite"	# e.g. suite_init/suite_exit failed
		fi
	done
	rmmod "$m" || result FAIL "kunit/$m/module-unload"
done
[ -n "$kunit_modules" ] && { rmmod drm_kunit_helpers 2>/dev/null; rmmod kunit || result FAIL kunit/unload-kunit.ko; }

# --- user-space tests (TAP) -----------------------------------------------------
for t in /work/user/*; do
	{ [ -f "$t" ] && [ -x "$t" ]; } || continue
	p=$(basename "$t")
	echo "==== user/$p"
	(cd /work/user && timeout "$TEST_TIMEOUT" "./$p") </dev/null >$TMP/out 2>$TMP/err
	st=$?
	sed 's/^/    /' $TMP/out
	sed 's/^/    stderr: /' $TMP/err
	tap_to_results "user/$p" tap <$TMP/out >$TMP/res
	count_results $TMP/res
	if [ "$SEEN" = 0 ] && [ "$PLAN" = 0 ]; then
		result FAIL "user/$p/no-tap-output"
	fi
	missing_as_failed "user/$p"
	if [ "$st" != 0 ] && [ "$FAILS" = 0 ] && [ "$SEEN" -ge "$PLAN" ] && [ "$SEEN" != 0 ]; then
		result FAIL "user/$p/exit-status-$st"
	fi
	[ "$st" != 0 ] && echo "    (exit status $st)"
done

# --- samples ----------------------------------------------------------------------
for d in /work/samples/*/; do
	[ -f "$d/run.sh" ] || continue
	n=$(basename "$d")
	echo "==== sample/$n"
	(cd "$d" && timeout "$TEST_TIMEOUT" sh ./run.sh) </dev/null >$TMP/out 2>&1
	st=$?
	sed 's/^/    /' $TMP/out
	if [ "$st" = 0 ]; then result PASS "sample/$n"; else result FAIL "sample/$n"; fi
done

echo "RESULTS: passed=$PASSED failed=$FAILED skipped=$SKIPPED"
[ "$FAILED" = 0 ]
