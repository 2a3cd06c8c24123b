#!/bin/sh
# lab_ci_scope: the lab always runs an srso group, whose code can change
# state over seconds: its JSON ci_scope and one stderr line say so.
# usage: lab_ci_scope.sh STUBBENCH
set -u
out=$(mktemp) err=$(mktemp)
STUBBENCH_TEST_DISTURB_NONE=1 "$1" lab --samples=20 --batch=8 --shape=in-loop --format=json >"$out" 2>"$err"
rc=$?
ok=1
[ "$rc" -eq 0 ] || { echo "FAIL: lab exited $rc"; cat "$err"; ok=0; }
python3 -c '
import json, sys
s = json.load(open(sys.argv[1])).get("ci_scope") or ""
sys.exit(0 if "; the srso groups" in s and "srso_return_thunk can change state" in s else 1)
' "$out" || { echo "FAIL: ci_scope lacks the srso groups note"; ok=0; }
grep -q "^stubbench lab: CIs: the srso groups'" "$err" || { echo "FAIL: no CIs line on stderr"; ok=0; }
rm -f "$out" "$err"
[ $ok -eq 1 ] && echo "lab_ci_scope: the srso groups' note is in the JSON and on stderr"
