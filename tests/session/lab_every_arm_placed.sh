#!/bin/sh
# lab_every_arm_placed: every arm of the lab's six groups gets its re-rolled
# placed copies (256 each): no "keeps its own code" line. Each group draws
# its own random pages; when every group drew the same sequence, later
# groups' copies found no free page in 64 tries and 11-19 arms ran in one
# placement only.
# usage: lab_every_arm_placed.sh STUBBENCH
set -u
err=$(STUBBENCH_TEST_DISTURB_NONE=1 "$1" lab --samples=64 --batch=8 --format=json 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: lab exited $rc"; printf '%s\n' "$err"; exit 1; }
n=$(printf '%s\n' "$err" | grep -c "keeps its own code")
[ "$n" -eq 0 ] || { echo "FAIL: $n arms kept their own code"; printf '%s\n' "$err" | grep "keeps its own code" | head -3; exit 1; }
echo "lab_every_arm_placed: every arm placed"
