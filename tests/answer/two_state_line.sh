#!/bin/sh
# two_state_line: the summary's line on placements where the loop took two
# states block by block (placement_states.h), from a recorded --padded
# sweep (tests/data/answer_padded_two_state.json: Intel Xeon KVM VM, CPUID
# 6/0xa7, `--padded --variant=private --batch=512 --cpu=1 --time=8 --seed=1`,
# host-private and private each at 60 % [36, 80] of the placements):
#   - `report` names both variants and their share in one line within 100
#     columns, and the summary stays within 10 lines;
#   - with host-private's CI lowered below 25 % it names private alone;
#   - with every share's CI below 25 %, and for an unpadded sweep
#     (answer_sweep.json, no such figure), no such line.
# usage: two_state_line.sh STUBBENCH DATA_DIR
set -u
bin=$1 data=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
say() { # FILE: the line, or nothing
	"$bin" report "$1" 2>/dev/null | grep "^two states per block at many placements" || true
}
line=$(say "$data/answer_padded_two_state.json")
case $line in
*"host-private 60 %"*"private 60 %"*) ;;
*) echo "FAIL: recorded run: '$line'"; fail=1 ;;
esac
[ "${#line}" -le 100 ] || { echo "FAIL: ${#line} columns"; fail=1; }
n=$("$bin" report "$data/answer_padded_two_state.json" 2>/dev/null | wc -l)
[ "$n" -le 10 ] || { echo "FAIL: the summary has $n lines"; fail=1; }
lower() { # VARIANTS... : a copy with their share's CI lowered below 25 %
	python3 - "$data/answer_padded_two_state.json" "$d/x.json" "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    if r["variant"] in sys.argv[3:] and "codegen_two_state_ci95" in r:
        r["codegen_two_state_ci95"][0] = 20.0
json.dump(doc, open(sys.argv[2], "w"))
PY
}
lower host-private
line=$(say "$d/x.json")
case $line in
*"host-private"*) echo "FAIL: host-private named below 25 %: '$line'"; fail=1 ;;
*" private 60 %"*) ;;
*) echo "FAIL: private not named: '$line'"; fail=1 ;;
esac
lower host-private private
[ -z "$(say "$d/x.json")" ] || { echo "FAIL: a line with every share below 25 %"; fail=1; }
[ -z "$(say "$data/answer_sweep.json")" ] || { echo "FAIL: a line for an unpadded sweep"; fail=1; }
[ $fail -eq 0 ] && echo "two_state_line: named where a clear share of placements took two states, not elsewhere"
exit $fail
