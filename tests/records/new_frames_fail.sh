#!/bin/sh
# new_frames_fail: where the kernel cannot move the placed copies to new
# physical frames (no hole punching on memfd, simulated with
# STUBBENCH_TEST_NO_PUNCH=1), a run of fresh processes says so in exactly
# one line and carries on with the frames it has (status 0, a table).
# usage: new_frames_fail.sh STUBBENCH
set -u
err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$(STUBBENCH_TEST_NO_PUNCH=1 STUBBENCH_TEST_DISTURB_NONE=1 "$1" --table --variant=private --batch=64 --samples=20 \
	--states=4 --processes=16 --past-runs=none --quiet-levels=none 2>"$err")
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: exited $rc"; cat "$err"; exit 1; }
n=$(grep -c "the placed copies keep their frames for the rest of the run" "$err")
[ "$n" -eq 1 ] || { echo "FAIL: $n lines about the frames, not 1"; cat "$err"; exit 1; }
grep -q "new frames for the placed copies: fallocate: " "$err" || { echo "FAIL: the line does not say why"; cat "$err"; exit 1; }
printf '%s\n' "$out" | grep -q "^private  *64 " || { echo "FAIL: no result row"; printf '%s\n' "$out"; exit 1; }
out=$(STUBBENCH_TEST_DISTURB_NONE=1 "$1" --table --variant=private --batch=64 --samples=20 --states=4 --processes=16 \
	--past-runs=none --quiet-levels=none 2>"$err") || { echo "FAIL: the run with moves exited $?"; exit 1; }
grep -q "keep their frames" "$err" && { echo "FAIL: a run whose moves work said they failed"; cat "$err"; exit 1; }
echo "new_frames_fail: one line, and the run goes on"
