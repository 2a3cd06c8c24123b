#!/bin/sh
# Exact instructions per main-prog call, counted by valgrind's callgrind:
# events are collected only inside the main prog (and the subprogs it calls),
# so the total is calls x instructions per call, whatever else the machine does.
# usage: count_insns.sh STUBBENCH VARIANT SYMBOL CALLS EXPECTED_PER_CALL
# Exits 77 (ctest SKIP) when valgrind is not installed.
set -u
stubbench=$1 variant=$2 symbol=$3 calls=$4 per_call=$5
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind is not installed (apt-get install valgrind)"
    exit 77
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
if ! valgrind --tool=callgrind --toggle-collect="$symbol" --callgrind-out-file="$out" \
        "$stubbench" --variant="$variant" --calls="$calls" >"$out.log" 2>&1; then
    echo "FAIL: valgrind run failed:"; cat "$out.log"; exit 1
fi
total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out")
[ -n "$total" ] || total=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out")
expected=$((calls * per_call))
echo "$variant ($symbol): $total instructions in $calls calls, expected $expected ($per_call per call)"
[ "$total" = "$expected" ] || { echo "FAIL: instruction count differs"; exit 1; }
