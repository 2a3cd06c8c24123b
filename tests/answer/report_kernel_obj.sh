#!/bin/sh
# report_kernel_obj: a kernel --obj run recorded here (with_frame,no_frame
# of tests/data/user_prog.bpf.c, --samples=64 --batch=8 --format=json:
# report_kernel_obj.json) and the summary that run printed
# (report_kernel_obj.summary.txt): `stubbench report` of it prints the
# same, byte for byte, with status 0.
# usage: report_kernel_obj.sh STUBBENCH DATA_DIR
set -u
sb=$1 d=$2
out=$("$sb" report "$d/report_kernel_obj.json")
rc=$?
if [ $rc -ne 0 ] || [ "$out" != "$(cat "$d/report_kernel_obj.summary.txt")" ]; then
    echo "FAIL: exit $rc, the summary differs from the recorded run's:"
    printf '%s\n' "$out" | diff -u "$d/report_kernel_obj.summary.txt" -
    exit 1
fi
echo "report_kernel_obj: ok"
