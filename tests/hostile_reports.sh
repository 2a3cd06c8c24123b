#!/bin/sh
# hostile_reports.sh: files read back (--blocks logs, saved runs, records,
# listings) crafted as an attacker would: each case ends with its status,
# one line naming the file and what is wrong, within 20 s, never a crash
# (134, 139) or a wait. Nothing is measured.
# usage: hostile_reports.sh STUBBENCH DATA_DIR
set -u
SB=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
# expect NAME STATUS NEEDLE ARGS...: status and a stderr line holding NEEDLE.
expect() {
    name=$1 want=$2 needle=$3
    shift 3
    timeout 20 "$SB" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -qF -- "$needle" "$tmp/err"; then
        echo "FAIL: $name: status $got (want $want), stderr: $(head -c 400 "$tmp/err") (want '$needle')"
        fails=$((fails + 1))
    else
        passes=$((passes + 1))
    fi
}
x=$data/xeon-0xcf
head='t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter'
# log NAME ROW...: a --blocks log of a header, a baseline row and the rows given.
log() {
    f=$tmp/$1.csv
    shift
    { echo "$head"; echo '0.1,0,8,0,0,0,1,3,1,host-baseline,baseline,5'; for r; do echo "$r"; done; } >"$f"
}

## --blocks logs: every index range-checked (parts index the reader's tables).
log part_max '0.1,18446744073709551615,8,0,1,0,1,3,1,host-private,variant,6'
expect part_max 2 "part_max.csv:3: part past 1024" report "$x/sweep-1.json" --from-blocks="$tmp/part_max.csv"
log part_wrap '0.1,9223372036854775808,8,0,1,0,1,3,1,host-private,variant,6'
expect part_wrap 2 "part_wrap.csv:3: part past 1024" report "$x/sweep-1.json" --from-blocks="$tmp/part_wrap.csv"
log part_neg '0.1,-1,8,0,1,0,1,3,1,host-private,variant,6'
expect part_negative 2 "part_neg.csv:3: a signed index" report "$x/sweep-1.json" --from-blocks="$tmp/part_neg.csv"
expect part_annotate 2 "part_max.csv:3: part past 1024" annotate --variant=private --from-blocks="$tmp/part_max.csv"
log batch0 '0.1,0,0,0,1,0,1,3,1,host-private,variant,6'
expect batch_zero 2 "batch0.csv:3: batch size outside" report "$x/sweep-1.json" --from-blocks="$tmp/batch0.csv"
log proc '0.1,0,8,4096,1,0,1,3,1,host-private,variant,6'
expect process_past 2 "proc.csv:3: process past 256" report "$x/sweep-1.json" --from-blocks="$tmp/proc.csv"
log state '0.1,0,8,0,1,99999,1,3,1,host-private,variant,6'
expect state_past 2 "state.csv:3: state past 1024" report "$x/sweep-1.json" --from-blocks="$tmp/state.csv"
log huge '0.1,0,8,0,1,0,1,3,1,host-private,variant,1e300'
expect cycles_huge 2 "huge.csv:3: cycles per iteration beyond 1e9" report "$x/sweep-1.json" --from-blocks="$tmp/huge.csv"
log canary '0.1,0,8,0,1,0,1,-3,1,host-private,variant,6'
expect canary_negative 2 "canary.csv:3: a canary or clock outside" report "$x/sweep-1.json" --from-blocks="$tmp/canary.csv"
log role '0.1,0,8,0,1,0,1,3,1,host-private,bogus,6'
expect role_unknown 2 "role.csv:3: a role that is none of" report "$x/sweep-1.json" --from-blocks="$tmp/role.csv"
awk -v h="$head" 'BEGIN { print h; for (i = 0; i < 70; i++) printf "0.1,0,8,0,1,0,1,3,1,arm%d,variant,6\n", i }' >"$tmp/wide.csv"
expect block_rows 2 "wide.csv:66: more than 64 rows of one block" report "$x/sweep-1.json" --from-blocks="$tmp/wide.csv"
awk -v h="$head" 'BEGIN { print h; for (i = 0; i < 40; i++) printf "0.1,0,%d,0,1,0,1,3,1,a,variant,6\n", i + 1 }' >"$tmp/batches.csv"
expect batches_many 2 "batches.csv:34: more than 32 batch sizes" report "$x/sweep-1.json" --from-blocks="$tmp/batches.csv"
{ echo "$head"; printf '0.1,0,8,0,1,0,1,3,1,%02000d,variant,6\n' 0; } >"$tmp/long.csv"
expect line_long 2 "long.csv:2: a line longer than" report "$x/sweep-1.json" --from-blocks="$tmp/long.csv"
expect stdin_report 2 "standard input is not read" report "$x/sweep-1.json" --from-blocks=-
expect stdin_annotate 2 "standard input is not read" annotate --variant=private --from-blocks=-

echo "hostile_reports: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
