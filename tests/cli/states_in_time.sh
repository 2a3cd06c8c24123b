#!/bin/sh
# states_in_time: bench/states_in_time.py on a synthetic --blocks file: two
# processes, the second started first, each with blocks of two arms and an
# overhead arm (known by its role, not its name). Per process (in start
# order) the medians must be printed, the overhead arm left out; a missing file and a CSV that is not a
# --blocks file get one line naming the file and a non-zero exit.
# usage: states_in_time.sh PYTHON SCRIPT
set -u
py=$1 script=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
f=$dir/b.csv
echo "t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter" >"$f"
for row in "2.0,0,512,0,5,1,1.4,5.0,62.0,empty-stub,overhead,0.01" "2.0,0,512,0,5,1,1.4,5.0,62.0,baseline,baseline,92.0" \
           "2.0,0,512,0,5,1,1.4,5.0,62.0,private,variant,102.0" "2.1,0,512,0,6,2,1.4,5.0,62.0,baseline,baseline,93.0" \
           "2.1,0,512,0,6,2,1.4,5.0,62.0,private,variant,104.0" "2.2,0,512,0,7,3,1.4,5.0,62.0,baseline,baseline,97.0" \
           "2.2,0,512,0,7,3,1.4,5.0,62.0,private,variant,103.0" "0.5,0,512,1,0,4,1.4,5.0,62.0,baseline,baseline,101.5" \
           "0.5,0,512,1,0,4,1.4,5.0,62.0,private,variant,102.5" "0.5,0,512,1,0,4,1.4,5.0,62.0,empty-stub,overhead,-0.02"; do
    echo "$row" >>"$f"
done
out=$("$py" "$script" "$f" 2>&1) || fail "exited $?"
printf '%s\n' "$out" | grep -q "^batch 512:" || fail "no batch 512 heading"
# Process 1 started at 0.5 s: first; then process 0 (medians 93 and 103).
first=$(printf '%s\n' "$out" | grep -E '^ +[0-9]+ +[0-9.]+ ' | head -1)
second=$(printf '%s\n' "$out" | grep -E '^ +[0-9]+ +[0-9.]+ ' | sed -n 2p)
printf '%s\n' "$first" | grep -Eq '^ +1 +0\.50 +101\.50 +\( *1\) +102\.50 +\( *1\)$' || fail "process 1's line: $first"
printf '%s\n' "$second" | grep -Eq '^ +0 +2\.00 +93\.00 +\( *3\) +103\.00 +\( *3\)$' || fail "process 0's line: $second"
printf '%s\n' "$out" | grep -q empty-stub && fail "the overhead arm was printed"
out=$("$py" "$script" "$dir/none.csv" 2>&1) && fail "a missing file exited 0"
printf '%s\n' "$out" | grep -q "none.csv" || fail "the missing file is not named"
echo "a,b" >"$dir/other.csv"
out=$("$py" "$script" "$dir/other.csv" 2>&1) && fail "a CSV that is not a --blocks file exited 0"
printf '%s\n' "$out" | grep -q "not a --blocks file" || fail "no 'not a --blocks file' line"
echo "states_in_time: per-process medians in start order, bad files refused"
