#!/bin/sh
# Run the D2D sync memory copy sample and judge it the way CANN's run.sh
# does: the value the write kernel printed ("Source data:") must equal the
# value the read kernel printed after the copy ("Destination data:").
# POSIX sh: the test VM runs it with busybox ash.

cd "$(dirname "$0")" || exit 1

# No pipefail in POSIX sh: keep ./main's exit status in a file.
rm -f output_msg.txt .main_status
{ ./main 2>&1; echo "$?" > .main_status; } | tee output_msg.txt
main_status=$(cat .main_status 2>/dev/null)
rm -f .main_status

source_value=$(awk -F: '/Source data:/ {gsub(/^ | $/, "", $2); print $2; exit}' output_msg.txt)
destination_value=$(awk -F: '/Destination data:/ {gsub(/^ | $/, "", $2); print $2; exit}' output_msg.txt)

if [ "${main_status}" != "0" ]; then
    echo "[FAILURE] ./main exited with status ${main_status:-unknown}"
    exit 1
fi

if [ -n "${source_value}" ] && [ "${source_value}" = "${destination_value}" ]; then
    echo "[SUCCESS] Memory copy successfully. Values at source and destination are equal: ${source_value}"
else
    echo "[FAILURE] Memory copy failed. Value at source is ${source_value}, but value at destination is ${destination_value}"
    exit 1
fi
