#!/bin/sh
# one_file_variant: the variant of tests/fixtures/one_file_variant.asm,
# declared in that one file, is in the registry of the programs it is linked
# into: listed by stubbench --list, run by stubbench (smoke calls and a short
# measurement), its bytes equal to the listing its record names, its exact
# instruction count equal to its record's (callgrind; skipped without
# valgrind).
# usage: one_file_variant.sh STUBBENCH GOLDEN DRIVER DATA_DIR
set -u
stubbench=$1 golden=$2 driver=$3 data=$4
name=example-private-v6.18
here=$(dirname "$0")
fail() { echo "FAIL: $*"; exit 1; }

"$stubbench" --list | grep -q "^$name  *example-private-stack  *\[example\]" ||
    fail "$name is not in stubbench --list"
echo "listed: $("$stubbench" --list | grep "^$name")"

out=$("$stubbench" --variant=$name --calls=1000) || fail "stubbench --variant=$name --calls=1000: $out"
echo "$out"
printf '%s\n' "$out" | grep -q "iterations=1000 counter+=1000$" || fail "the counter did not count 1000 calls"

# Every block is kept (STUBBENCH_TEST_DISTURB_NONE=1): this checks that the
# variant is measured and reported, not how a busy core is judged, and on a
# loaded machine all three blocks of so short a run can be flagged disturbed.
csv=$(STUBBENCH_TEST_DISTURB_NONE=1 "$stubbench" --variant=$name --samples=3 --batch=8 --format=csv 2>&1) ||
    fail "a short measurement failed: $csv"
printf '%s\n' "$csv" | grep -q "^$name,example-private-stack,8," || fail "no result row for $name: $csv"
echo "measured: $(printf '%s\n' "$csv" | grep "^$name," | cut -d, -f1-4)"

"$golden" "$data" "$name" || fail "golden bytes"

"$here/../common/count_insns.sh" "$driver" "$name"
rc=$?
[ $rc -eq 77 ] && { echo "SKIP: no valgrind for the count check"; exit 77; }
[ $rc -eq 0 ] || fail "instruction count"
echo "one_file_variant: listed, run, golden, counted"
