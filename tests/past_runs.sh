#!/bin/sh
# past_runs: the record of past runs' figures (--past-runs, past_runs.h)
# from the command line. A run of 64 blocks or more is remembered in the
# default place ($XDG_STATE_HOME/stubbench/past-runs), one line per cell;
# the table's footer counts the runs the record holds, and from the fifth
# on the CIs also hold their spread (JSON ci_scope too): against a record
# whose deltas alternate 0 and 50 %, each side of the delta CI grows by at
# least t95(4) x their sd. A short run (--samples) is not remembered; none
# keeps nothing; a directory or an empty name is bad input (status 2); a
# malformed record costs one line and the run goes on (status 0). No timing
# is judged: the widening comes from made-up figures.
# usage: past_runs.sh STUBBENCH
set -u
sb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; printf '%s\n' "$out" | tail -12; printf '%s\n' "$err"; exit 1; }
# 0.5 s of one batch size in two processes: 150-400 blocks.
run() {
	out=$(XDG_STATE_HOME=$dir/state STUBBENCH_TEST_DISTURB_NONE=1 "$sb" --variant=private --batch=64 \
		--processes=2 --quiet-levels=none "$@" 2>"$dir/err")
	rc=$?
	err=$(cat "$dir/err")
	return $rc
}
rec=$dir/state/stubbench/past-runs
cells() { grep -vc '^#' "$rec" 2>/dev/null || echo 0; }
# The table's footer as one line (it wraps at spaces).
footer() { printf '%s\n' "$out" | sed -n 's/^# //p' | tr '\n' ' '; }

for i in 0 1 2 3 4; do
	run --time=0.5 || fail "run $((i + 1)) exited $?"
	footer | grep -q "the record of past runs ($rec) holds $i of the 5 runs" ||
		fail "run $((i + 1)): the footer does not say the record holds $i runs"
	[ "$(cells)" -eq $((2 * (i + 1))) ] || fail "after run $((i + 1)) the record holds $(cells) lines"
done
grep -v '^#' "$rec" | cut -f3 | sort -u | grep -q "^stubbench variants=private batches=64 time=0.5 processes=2 " ||
	fail "measurement '$(grep -v '^#' "$rec" | cut -f3 | sort -u)'"

# Five runs whose deltas alternate 0 and 50 %: sd 27.39, t95(4) 2.776.
awk 'BEGIN { FS = OFS = "\t" } /^#/ { print; next } $4 == "private" { $7 = (k++ % 2) ? 50 : 0 } { print }' \
	"$rec" >"$rec.new" && mv "$rec.new" "$rec"
run --time=0.5 --format=json || fail "the json run exited $?"
printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = [c for c in d["results"] if c["variant"] == "private"][0]
lo, hi = c["delta_ci95_pct"]
w = 2.7764 * 27.386
assert c["delta_vs_baseline_pct"] - lo >= w and hi - c["delta_vs_baseline_pct"] >= w, (lo, hi)
assert "also hold how the last 5 runs of these cells" in d["ci_scope"], d["ci_scope"]
' || fail "the delta CI did not widen by the record's spread"
[ "$(cells)" -eq 12 ] || fail "the json run was not remembered ($(cells) lines)"

# A short run is not remembered; none keeps nothing; FILE elsewhere.
run --samples=20 || fail "--samples exited $?"
[ "$(cells)" -eq 12 ] || fail "a --samples=20 run was remembered"
run --time=0.5 --past-runs=none || fail "--past-runs=none exited $?"
[ "$(cells)" -eq 12 ] || fail "--past-runs=none kept a record"
footer | grep -q "no record of past runs, --past-runs=none" || fail "none: the footer does not say so"
run --time=0.5 --past-runs="$dir/mine" || fail "--past-runs=FILE exited $?"
[ "$(grep -vc '^#' "$dir/mine")" -eq 2 ] && [ "$(cells)" -eq 12 ] || fail "--past-runs=FILE wrote elsewhere"

# Bad input: a directory, an empty name.
run --past-runs="$dir"; rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$err" | grep -q -- "--past-runs: '$dir' is not a regular file" ||
	fail "a directory: status $rc"
run --past-runs=; rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$err" | grep -q -- "--past-runs: needs a file name" || fail "empty: status $rc"

# A malformed record: one line naming it, and the run goes on.
printf 'not a record line\n' >"$dir/bad"
run --past-runs="$dir/bad" || fail "a malformed record made the run exit $?"
[ "$(printf '%s\n' "$err" | grep -c "past runs: '$dir/bad' line 1: not a record line")" -ge 1 ] ||
	fail "a malformed record was not named"
echo "past_runs: remembered, counted, widened by the record's spread; none, FILE and bad input hold"
