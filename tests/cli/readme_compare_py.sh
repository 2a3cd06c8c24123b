#!/bin/sh
# readme_compare_py: the README's Google Benchmark compare.py commands (the
# two lines under "Saved runs" that make run.json and compare it), run as
# written but for the binary's path and a shorter --time (3 s): compare.py (from
# libbenchmark-tools, with python3-scipy, both installed by
# .ci/install-deps) prints one U test line ("pvalue") per batch size.
# usage: readme_compare_py.sh STUBBENCH README
set -u
sb=$1 readme=$2
case $sb in /*) ;; *) sb=$(pwd)/$sb ;; esac
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
gb=$(grep -m1 -- "--format=gbench --variant=host-baseline,host-private > run.json" "$readme" | sed 's/^ *//')
cp=$(grep -m1 "compare.py .*filters run.json" "$readme" | sed 's/^ *//')
[ -n "$gb" ] && [ -n "$cp" ] || { echo "FAIL: the README's compare.py lines are not there"; exit 1; }
# --time=3: at 1 s a loaded 2-vCPU machine left cells without usable samples
# (exit 1), which says nothing of the README's lines.
gb=$(printf '%s' "$gb" | sed "s#^\./build/stubbench#$sb --time=3#")
(cd "$d" && sh -c "$gb" 2>"$d/stderr") || { echo "FAIL: $gb exited $?: $(cat "$d/stderr")"; exit 1; }
out=$(cd "$d" && sh -c "$cp" 2>&1)
n=$(printf '%s\n' "$out" | grep -c "U Test")
batches=$(python3 -c "import json,sys; print(len({b['name'].split('/')[1] for b in json.load(open(sys.argv[1]))['benchmarks']}))" "$d/run.json")
if [ "$n" -ge 1 ] && [ "$n" -eq "$batches" ]; then
    echo "readme_compare_py: $n U test lines, one per batch size"
else
    echo "FAIL: $n U test lines for $batches batch sizes: $out"; exit 1
fi
