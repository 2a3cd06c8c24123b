#!/bin/sh
# past_runs: the record of past runs' figures (--past-runs, past_runs.h)
# from the command line. A run of 64 blocks or more that did not say it was
# busy (or was busy as a core state) is remembered in the default place
# ($XDG_STATE_HOME/stubbench/past-runs), one line per cell, under the key
# its JSON names (past_runs.key: the resolved CPU, the build, the options
# that change the figures) followed by its core state (past_runs.core_state,
# every result's core_state). From the fifth past run on a cell gets a
# separately labelled next-run range: against a record whose deltas
# alternate 0 and 50 %, the range's sides are at least t95(4) x their sd
# from the delta, and the delta's own CI is the same as a run without a
# record gives it. A short run (--samples) is not remembered; a busy run is
# kept as busy alone; none keeps nothing; a directory or an empty name is
# bad input (status 2); a malformed record costs one line and the run goes
# on (status 0). No timing is judged, and no run needs to be quiet: the
# record the ranges come from is made up.
# usage: past_runs_cli.sh STUBBENCH
set -u
sb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; printf '%s\n' "$out" | tail -12; printf '%s\n' "$err"; exit 1; }
# 3 s of wall time for one batch size in two processes (its setup, 1024 placed
# copies, takes part of it): 150-400 blocks.
run() {
	out=$(XDG_STATE_HOME=$dir/state STUBBENCH_TEST_DISTURB_NONE=1 "$sb" --table --flavour=seed001 --variant=private --batch=64 --no-padded \
		--processes=2 --quiet-levels=none "$@" 2>"$dir/err")
	rc=$?
	err=$(cat "$dir/err")
	return $rc
}
rec=$dir/state/stubbench/past-runs
# Record lines (not comments) in a file; 0 for none or no file.
lines_in() { n=$(grep -vc '^#' "$1" 2>/dev/null); echo "${n:-0}"; }
cells() { lines_in "$rec"; }

# Each run adds its cells (its JSON's results; per_run, from the first run)
# unless it said its core was busy (a shared host can make any run busy;
# such a run must not be remembered).
per_run=0
lines=0
added() { # what the last run should have added to the record at $1
	if printf '%s\n' "$err" | grep -q "busy core:"; then
		[ "$(lines_in "$1")" -eq "$lines" ] || fail "a busy run was remembered"
	else
		lines=$((lines + per_run))
		[ "$(lines_in "$1")" -eq "$lines" ] || fail "a run was not remembered ($lines lines expected)"
	fi
}

# The key, from the run's own JSON; the record's lines carry it.
run --time=3 --format=json || fail "the first run exited $?"
key=$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["past_runs"]["key"])') ||
	fail "no past_runs.key in the JSON"
machine=$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["past_runs"]["machine"])') ||
	fail "no past_runs.machine in the JSON"
# The run's core state (--quiet-levels=none: no level, so unknown, or the
# run's own two clusters), kept after the key; every result names it.
state=$(printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["past_runs"]["core_state"]
assert all(c["core_state"] == s for c in d["results"]), "a result in another state"
print(s)') || fail "no past_runs.core_state, or results in another state"
case $state in unknown | quiet | busy | all) ;; *) fail "core state '$state'" ;; esac
case $key in
"stubbench variants=private batches=64 time=3 processes=2 cpu="[0-9]*" build="*) ;;
*) fail "key '$key'" ;;
esac
case $key in *cpu=-1*) fail "the key names the option, not the CPU: '$key'" ;; esac
per_run=$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["results"]))')
[ "$per_run" -ge 2 ] || fail "the first run has $per_run results"
added "$rec"
if [ "$lines" -gt 0 ]; then
	[ "$(grep -v '^#' "$rec" | cut -f3 | sort -u)" = "$key core=$state" ] || fail "the record's key is not the JSON's"
fi
plain=$(printf '%s\n' "$out" | python3 -c '
import json, sys
c = [c for c in json.load(sys.stdin)["results"] if c["variant"] == "private"][0]
assert "next_run_delta_pct" not in c, "a next-run range without past runs"
assert "next_run_codegen_cycles" not in c, "a codegen next-run range without past runs"
print(c["delta_ci95_pct"])') || fail "the first run has a next-run range"

# Five made-up runs under that key whose deltas alternate 0 and 50 % (sd
# 27.39, t95(4) 2.776) and codegen costs 0 and 4 cycles (sd 2.19): next-run
# ranges for both, the CIs as without a record, and the summary quotes the
# codegen's range for the next run.
if [ "$lines" -gt 0 ]; then
	[ "$(grep -v '^#' "$rec" | cut -f1 | sort -u)" = "$machine" ] || fail "the record's machine is not the JSON's"
fi
mkdir -p "$dir/made"
for i in 0 1 2 3 4; do
	printf '%s\t2026-01-0%dT00:00:00Z\t%s\tprivate\t64\t20\t%d\t%d\n' "$machine" $((i + 1)) "$key" $((i % 2 * 50)) $((i % 2 * 4))
done >"$dir/made/past-runs"
run --time=3 --format=json --past-runs="$dir/made/past-runs" || fail "the run with a made-up record exited $?"
printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = [c for c in d["results"] if c["variant"] == "private"][0]
v = c["next_run_delta_pct"]
lo, hi = c["next_run_range_pct"]
w = 2.7764 * 27.386
assert v == c["delta_vs_baseline_pct"] and v - lo >= w and hi - v >= w, (v, lo, hi)
dlo, dhi = c["delta_ci95_pct"]
assert hi - lo > dhi - dlo, "the range is not wider than the CI"
assert "next run" in d["ci_scope"] and "(1 of " in d["ci_scope"], d["ci_scope"]
assert d["past_runs"]["record"].endswith("made/past-runs"), d["past_runs"]
g = c["next_run_codegen_cycles"]
glo, ghi = c["next_run_range_codegen_cycles"]
w = 2.7764 * 2.1909
assert g == c["matched_delta_cycles"] and g - glo >= w and ghi - g >= w, (g, glo, ghi)
' || fail "no next-run range from the made-up record"
printf '%s\n' "$out" >"$dir/ranged.json"
# An unpadded run's pairs differ in layout too: the summary calls the figure the total.
"$sb" report "$dir/ranged.json" | grep -q "^  private took .*; total [+-][0-9.]* \[[^]]*\] next run$" ||
	fail "the summary does not give the paired figure's next-run range: $("$sb" report "$dir/ranged.json")"

# A short run is not remembered; none keeps nothing; FILE elsewhere.
run --samples=20 || fail "--samples exited $?"
[ "$(cells)" -eq "$lines" ] || fail "a --samples=20 run was remembered"
run --time=3 --past-runs=none || fail "--past-runs=none exited $?"
[ "$(cells)" -eq "$lines" ] || fail "--past-runs=none kept a record"
printf '%s\n' "$out" | sed -n 's/^# //p' | tr '\n' ' ' | grep -q "no record of past runs, --past-runs=none" ||
	fail "none: the footer does not say so"
mine=$lines lines=0
run --time=3 --past-runs="$dir/mine" || fail "--past-runs=FILE exited $?"
added "$dir/mine"
lines=$mine
[ "$(cells)" -eq "$lines" ] || fail "--past-runs=FILE wrote to the default record too"

# A run made busy (by a record of quiet levels no core reaches) is
# remembered as the busy state it is, apart from the others.
run --time=3 --quiet-levels="$dir/q" || fail "the run with a quiet record exited $?"
added "$rec"
machine=$(grep -v '^#' "$dir/q" | cut -f1 | head -1)
printf '%s\t2026-01-01T00:00:00Z\t64\t1\n%s\t2026-01-01T00:00:01Z\t64\t1\n' "$machine" "$machine" >>"$dir/q"
run --time=3 --quiet-levels="$dir/q" || fail "the busy run exited $?"
printf '%s\n' "$err" | grep -q "busy core:" || fail "the run against an unreachable quiet record did not say busy"
[ "$(grep -v '^#' "$rec" | grep -c " core=busy	")" -eq "$per_run" ] && [ "$(cells)" -eq $((lines + per_run)) ] ||
	fail "a busy run was not remembered as busy alone ($(cells) lines)"

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
echo "past_runs: remembered under the JSON's key, a next-run range from the record's spread, CIs untouched; none, FILE and bad input hold"
