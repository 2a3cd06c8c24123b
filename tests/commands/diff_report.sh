#!/bin/sh
# diff_report: `stubbench report` of a saved `stubbench diff` run prints the
# summary the live run printed, byte for byte. tests/data/answer_diff.json
# and answer_diff_no_parts.json are seed 001's listings, baseline ->
# private (--samples=32 --batch=64,512 --processes=2 --format=json, the
# second with --no-parts), each recorded on an Intel Xeon VM by one run
# that wrote its document and, beside it, the summary its table format
# prints (answer_diff*.summary; a build that also wrote the summary to
# stderr in the JSON format, kept out of the tree): the parts' lines come
# from the document's annotate member, the changed instructions from its
# diff member. A document without those members still gives the cost lines.
# answer_diff_empty_loop.json: tests/data/global_bound_{old,new}.work.lst
# (--time=10 --no-parts, the same machine, its .summary by stubbench
# report): both twins read their loop bound from zeroed memory and did
# nearly nothing per run, and the summary says both; the seeds' runs say
# neither. Made wide (figures, a global's name), every line still fits.
# usage: diff_report.sh STUBBENCH DATA_DIR
set -u
sb=$1 d=$2
fails=0
for run in answer_diff answer_diff_no_parts answer_diff_empty_loop; do
    out=$("$sb" report "$d/$run.json"); rc=$?
    if [ $rc -ne 0 ] || [ "$out" != "$(cat "$d/$run.summary")" ]; then
        echo "FAIL: $run: exit $rc, the summary differs from the live run's:"
        printf '%s\n' "$out" | diff "$d/$run.summary" - | head -20
        fails=$((fails + 1))
    fi
done
out=$("$sb" report "$d/answer_diff_empty_loop.json")
for want in "  OLD's and NEW's branches read memory the twins zero (global loop_n): set --global=loop_n=N" \
            "  OLD and NEW did nearly nothing per run: 19 instructions each, under 4 cycles (an empty loop)"; do
    printf '%s\n' "$out" | grep -qxF "$want" || { echo "FAIL: empty loop: no line '$want'"; fails=$((fails + 1)); }
done
if cat "$d/answer_diff.summary" "$d/answer_diff_no_parts.summary" | grep -E 'zero|nearly nothing'; then
    echo "FAIL: the seeds' runs said they read zeroed memory or did nothing"; fails=$((fails + 1))
fi
# Wide figures (every figure of the rows and parts times 1234.5) and a long
# global's name (batch_iters, read from zeroed memory by both): every line
# within 100 columns, the lines shortened, not cut.
tmp=$(mktemp)
python3 -c '
import json, sys
def scale(x):
    if isinstance(x, float):
        return x * 1234.5
    if isinstance(x, list):
        return [scale(v) for v in x]
    if isinstance(x, dict):
        return {k: scale(v) for k, v in x.items()}
    return x
doc = json.load(open(sys.argv[1]))
doc["results"] = scale(doc["results"])
doc["annotate"] = {k: (v if k == "rows" else scale(v)) for k, v in doc["annotate"].items()}
json.dump(doc, open(sys.argv[2], "w"))' "$d/answer_diff.json" "$tmp"
out=$("$sb" report "$tmp"); rc=$?
wide=$(printf '%s\n' "$out" | awk 'length($0) > 100')
if [ $rc -ne 0 ] || [ -n "$wide" ] || [ "$(printf '%s\n' "$out" | wc -l)" -gt 10 ] ||
   ! printf '%s\n' "$out" | grep -qx '  by part: layout (every part NOPed) +1932.5 \[+49.3, +4585.7\], the parts sum -307.02:' ||
   ! printf '%s\n' "$out" | grep -q '^  codegen at identical layout -79.0 \[-24079.3, +12642.9\] cycles'; then
    echo "FAIL: wide figures: exit $rc:"; printf '%s\n' "$out"; fails=$((fails + 1))
fi
# Opposite signs with figures of seven digits: the signs line shortened too.
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    if r["codegen"] == "new" and r["batch"] == 512:
        r.update(matched_delta_cycles=-1234567.6, matched_ci95=[-1300000.1, -1200000.2],
                 codegen_median_cycles=-1234567.6, codegen_median_ci95=[-1300000.1, -1200000.2],
                 delta_vs_baseline_pct=456.7, delta_ci95_pct=[400.1, 500.2],
                 layout_cost_cycles=7777777.7, layout_ci95=[7000000.0, 8000000.0])
json.dump(doc, open(sys.argv[1], "w"))' "$tmp"
out=$("$sb" report "$tmp")
if printf '%s\n' "$out" | awk 'length($0) > 100' | grep -q . ||
   ! printf '%s\n' "$out" | grep -qx '  signs differ: codegen -1234567.6, layout +7777777.7: the placement makes it slower'; then
    echo "FAIL: opposite signs, wide figures:"; printf '%s\n' "$out"; fails=$((fails + 1))
fi
sed 's/loop_n/batch_iters/g' "$d/answer_diff_empty_loop.json" > "$tmp"
out=$("$sb" report "$tmp")
want="  OLD's and NEW's branches read memory the twins zero (global batch_iters): set --global=NAME=N"
if printf '%s\n' "$out" | awk 'length($0) > 100' | grep -q . || ! printf '%s\n' "$out" | grep -qxF "$want"; then
    echo "FAIL: a long global's name: no line '$want' within 100 columns:"; printf '%s\n' "$out"; fails=$((fails + 1))
fi
rm -f "$tmp"
# Without the diff and annotate members: the cost lines, and where the rest is.
tmp=$(mktemp)
python3 -c 'import json, sys; doc = json.load(open(sys.argv[1])); del doc["diff"], doc["annotate"]; json.dump(doc, open(sys.argv[2], "w"))' \
    "$d/answer_diff.json" "$tmp"
out=$("$sb" report "$tmp"); rc=$?
rm -f "$tmp"
want="OLD -> NEW: the changed instructions are in the document's diff member"
if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -qx "$want" ||
   ! printf '%s\n' "$out" | grep -q "^  codegen at identical layout [+-]"; then
    echo "FAIL: without the members: exit $rc:"; printf '%s\n' "$out"; fails=$((fails + 1))
fi
echo "diff_report: $fails failed"
[ "$fails" -eq 0 ]
