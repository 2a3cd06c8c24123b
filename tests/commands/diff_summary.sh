#!/bin/sh
# stubbench diff's summary, by its form (no timing decides): seed 001's
# listings (baseline -> private) give at most 10 lines within 100 columns,
# the change counted exactly, the cost line (with the parts: the codegen
# against NEW with every part NOPed) and, with the parts, the layout line
# (also for a NEW whose frame is r9-based; where NEW is OLD with a private
# stack, against NEW de-privatized at its layout); with --no-parts
# the changes as hunks, main+0x13 first; a NEW whose main prog calls none
# of its functions: no parts, and why in two lines;
# stubbench report of the saved run the same summary.
# usage: diff_summary.sh STUBBENCH DATA_DIR
set -u
sb=$1 d=$2
b=$d/seed001_baseline_main.lst,$d/seed001_baseline_sub.lst
p=$d/seed001_private_main.lst,$d/seed001_private_sub.lst
fails=0
check() { # check WHAT OUTPUT PATTERN...
    what=$1 out=$2
    shift 2
    n=$(printf '%s\n' "$out" | wc -l)
    wide=$(printf '%s\n' "$out" | awk 'length($0) > 100' | wc -l)
    if [ "$n" -gt 10 ] || [ "$wide" -ne 0 ]; then
        echo "FAIL: $what: $n lines, $wide over 100 columns:"; printf '%s\n' "$out"; fails=$((fails + 1))
    fi
    for pat in "$@"; do
        printf '%s\n' "$out" | grep -q -- "$pat" || { echo "FAIL: $what: no line matching '$pat':"; printf '%s\n' "$out"; fails=$((fails + 1)); }
    done
}
common="--samples=6 --batch=512 --processes=1 --past-runs=none --quiet-levels=none"
out=$(STUBBENCH_TEST_DISTURB_NONE=1 "$sb" diff "$b" "$p" $common 2>/dev/null)
[ $? -eq 0 ] || { echo "FAIL: diff exited $?"; fails=$((fails + 1)); }
check "with parts" "$out" "^stubbench diff: " "^OLD -> NEW: 2 functions paired, instructions: 10 added, 0 changed, 0 removed$" \
    "^cost of the change per run (a call of the main prog) at batch 512, 95 % CI:$" \
    "^  codegen at identical layout [+-]" "^  by part: layout (every part NOPed) " " NOPed .*, removed " \
    "^each instruction with its part's cost: --table"
# A NEW whose frame is r9-based (v6.18's run_private main prog): its frame
# accesses with the r9 setup are one part, measured like the others.
fb=$d/jit_v6_18_run_baseline.prog_baseline.lst fp=$d/jit_v6_18_run_private.prog_private.lst
errs=$(mktemp)
out=$(STUBBENCH_TEST_DISTURB_NONE=1 "$sb" diff "$fb" "$fp" $common 2>"$errs")
# Its frame accesses are changed, not added: NEW with every part NOPed is not
# OLD's code, so no padded baseline and the cost line says the layout is in.
check "r9 frame" "$out" "^  by part: layout (every part NOPed) " " NOPed .*, removed " \
    "^  at the same placements, layout in [+-]"
if grep -q "no cost per part" "$errs"; then
    echo "FAIL: r9 frame: no cost per part:"; cat "$errs"; fails=$((fails + 1))
fi
rm -f "$errs"
# NEW's main prog calls none of its other functions (its calls NOPed), OLD's
# one: no parts, said in words that agree with "2 functions paired".
np=$(mktemp)
sed -E 's/^( *[0-9a-f]+:) +e8 .. .. .. .. +call .*/\1  0f 1f 44 00 00          nop dword ptr [rax + rax]/' \
    "$fp" > "$np"
errs=$(mktemp)
out=$(STUBBENCH_TEST_DISTURB_NONE=1 "$sb" diff "$fb,$d/jit_v6_18_run_baseline.sub_small.lst" \
    "$np,$d/jit_v6_18_run_private.sub_big.lst" $common 2>"$errs")
check "main calls no function" "$out" "^OLD -> NEW: 2 functions paired, " "^every instruction: --table"
# The notes on the machine's state (a busy core, the quiet levels, each
# with the lines it is folded into) are not this check's: only the lines
# about the parts are.
parts=$(awk '/^stubbench diff: (busy core|quiet levels):/ { note = 1; next } note && /^  / { next } { note = 0; print }' "$errs")
check "main calls no function, stderr" "$parts" \
    "^stubbench diff: no cost per part, the total alone: NEW's main prog calls 0 other functions, OLD's 1$" \
    "^  of the 2 paired; the parts compare the functions both main progs run, one with one$"
if grep -q "1 functions" "$errs"; then
    echo "FAIL: main calls no function: '1 functions':"; cat "$errs"; fails=$((fails + 1))
fi
rm -f "$np" "$errs"
# NEW is OLD with a private stack (v6.18's htab body: its frame accesses changed
# to r9): NEW de-privatized at its layout is the padded baseline, so the codegen.
hb=$d/jit_v6_18_htab_baseline.htab_body.lst hp=$d/jit_v6_18_htab_private.htab_body.lst
out=$(STUBBENCH_TEST_DISTURB_NONE=1 "$sb" diff "$hb" "$hp" $common 2>/dev/null)
check "r9 frame, a private stack alone" "$out" "^  codegen at identical layout [+-]"
out=$(STUBBENCH_TEST_DISTURB_NONE=1 "$sb" diff "$b" "$p" --no-parts $common 2>/dev/null)
check "--no-parts" "$out" "^  main+0x13  *+ movabs r9, 0x607e08c1a688; + add r9, qword ptr gs:\[0x21a00\]$" \
    "^  main+0x3c  *+ push r9$" "^  (3 more changes: --table)$"
# A saved diff: stubbench report prints its summary, the changes too.
tmp=$(mktemp)
STUBBENCH_TEST_DISTURB_NONE=1 "$sb" diff "$b" "$p" --no-parts $common --format=json --output="$tmp" 2>/dev/null
out=$("$sb" report "$tmp")
# Without parts there is no padded baseline: NEW against OLD at the same
# placements, its layout in, and said so.
check "report" "$out" "^stubbench diff: " "^OLD -> NEW: 2 functions paired, instructions: 10 added, 0 changed, 0 removed$" \
    "^  at the same placements, layout in [+-]" "^  main+0x13  *+ movabs r9, 0x607e08c1a688; + add r9, qword ptr gs:\[0x21a00\]$" \
    "^  (3 more changes: --table)$"
rm -f "$tmp"
echo "diff_summary: $fails failed"
[ "$fails" -eq 0 ]
