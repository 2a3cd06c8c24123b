#!/bin/sh
# past_runs: the record of past runs' figures (--past-runs, past_runs.h)
# from the command line. A run of 64 blocks or more is remembered in the
# default place ($XDG_STATE_HOME/stubbench/past-runs), one line per cell;
# the table's footer counts the runs the record holds, and from the fifth
# on the CIs also hold their spread (JSON ci_scope too): against a record
# whose deltas alternate 0 and 50 %, each side of the delta CI grows by at
# least t95(4) x their sd. A short run (--samples) or one that said it was
# busy is not remembered; none
# keeps nothing; a directory or an empty name is bad input (status 2); a
# malformed record costs one line and the run goes on (status 0). No timing
# is judged: the widening comes from made-up figures.
# usage: past_runs.sh STUBBENCH
set -u
sb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; printf '%s\n' "$out" | tail -12; printf '%s\n' "$err"; exit 1; }
# 3 s of wall time for one batch size in two processes (its setup, 1024 placed
# copies, takes part of it): 150-400 blocks.
run() {
	out=$(XDG_STATE_HOME=$dir/state STUBBENCH_TEST_DISTURB_NONE=1 "$sb" --table --flavour=seed001 --variant=private --batch=64 \
		--processes=2 --quiet-levels=none "$@" 2>"$dir/err")
	rc=$?
	err=$(cat "$dir/err")
	return $rc
}
rec=$dir/state/stubbench/past-runs
# Record lines (not comments) in a file; 0 for none or no file.
lines_in() { n=$(grep -vc '^#' "$1" 2>/dev/null); echo "${n:-0}"; }
cells() { lines_in "$rec"; }
# The table's footer as one line (it wraps at spaces).
footer() { printf '%s\n' "$out" | sed -n 's/^# //p' | tr '\n' ' '; }

# Each run adds its two cells unless it said its core was busy (a shared
# host can make any run busy; such a run must not be remembered).
lines=0
added() { # what the last run should have added to the record at $1
	if printf '%s\n' "$err" | grep -q "busy core:"; then
		[ "$(lines_in "$1")" -eq "$lines" ] || fail "a busy run was remembered"
	else
		lines=$((lines + 2))
		[ "$(lines_in "$1")" -eq "$lines" ] || fail "a run was not remembered ($lines lines expected)"
	fi
}
tries=0
while [ "$lines" -lt 10 ]; do
	tries=$((tries + 1))
	[ $tries -le 15 ] || fail "15 runs, and fewer than 5 were quiet"
	run --time=3 || fail "run $tries exited $?"
	footer | grep -q "the record of past runs ($rec) holds $((lines / 2)) of the 5 runs" ||
		fail "run $tries: the footer does not say the record holds $((lines / 2)) runs"
	added "$rec"
done
grep -v '^#' "$rec" | cut -f3 | sort -u | grep -q "^stubbench variants=private batches=64 time=3 processes=2 " ||
	fail "measurement '$(grep -v '^#' "$rec" | cut -f3 | sort -u)'"

# Five runs whose deltas alternate 0 and 50 %: sd 27.39, t95(4) 2.776.
awk 'BEGIN { FS = OFS = "\t" } /^#/ { print; next } $4 == "private" { $7 = (k++ % 2) ? 50 : 0 } { print }' \
	"$rec" >"$rec.new" && mv "$rec.new" "$rec"
run --time=3 --format=json || fail "the json run exited $?"
printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = [c for c in d["results"] if c["variant"] == "private"][0]
lo, hi = c["delta_ci95_pct"]
w = 2.7764 * 27.386
assert c["delta_vs_baseline_pct"] - lo >= w and hi - c["delta_vs_baseline_pct"] >= w, (lo, hi)
assert "also hold how the last 5 runs of these cells" in d["ci_scope"], d["ci_scope"]
' || fail "the delta CI did not widen by the record's spread"
added "$rec"

# A short run is not remembered; none keeps nothing; FILE elsewhere.
run --samples=20 || fail "--samples exited $?"
[ "$(cells)" -eq "$lines" ] || fail "a --samples=20 run was remembered"
run --time=3 --past-runs=none || fail "--past-runs=none exited $?"
[ "$(cells)" -eq "$lines" ] || fail "--past-runs=none kept a record"
footer | grep -q "no record of past runs, --past-runs=none" || fail "none: the footer does not say so"
mine=$lines lines=0
run --time=3 --past-runs="$dir/mine" || fail "--past-runs=FILE exited $?"
added "$dir/mine"
lines=$mine
[ "$(cells)" -eq "$lines" ] || fail "--past-runs=FILE wrote to the default record too"

# A run made busy (by a record of quiet levels no core reaches) is not remembered.
run --time=3 --quiet-levels="$dir/q" || fail "the run with a quiet record exited $?"
added "$rec"
machine=$(grep -v '^#' "$dir/q" | cut -f1 | head -1)
printf '%s\t2026-01-01T00:00:00Z\t1000\t1\n%s\t2026-01-01T00:00:01Z\t1000\t1\n' "$machine" "$machine" >>"$dir/q"
run --time=3 --quiet-levels="$dir/q" || fail "the busy run exited $?"
printf '%s\n' "$err" | grep -q "busy core:" || fail "the run against an unreachable quiet record did not say busy"
[ "$(cells)" -eq "$lines" ] || fail "a busy run was remembered ($(cells) lines)"

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
